"""`scan --format sarif`: a scan's findings as SARIF 2.1.0, the format code-scanning services read
(GitHub's upload-sarif action, GitLab, Azure DevOps).

One rule per change the findings touch, identified by its release and `#c-` anchor (which never
changes), with the change's URL as `helpUri`; one result per finding, at its file and line. The
level says what the change can do to code (`LEVEL`); known issues are notes.
"""

from __future__ import annotations

import json
import urllib.parse
from pathlib import PurePosixPath

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL = "PyTorch Release Atlas scan"
SOURCE_ROOT = "%SRCROOT%"
"""The base a relative file path is read against: where the scan ran (the repository's root in CI)."""

LEVEL = {
    "breaking": "error",
    "removals": "error",
    "defaults": "error",
    "deprecations": "warning",
    "known-issues": "note",
}
"""A SARIF level per upgrade group (`scan.GROUP_WORDS`): what breaks code is an error."""


def rule_id(target) -> str:
    """A change's rule id: its release and its anchor, e.g. `2.14/c-profile-use-cuda-...`."""
    anchor = urllib.parse.urlsplit(target.url).fragment
    return f"{target.release}/{anchor}" if anchor else f"{target.release}/{target.url}"


def _rule(target, words: dict[str, str]) -> dict:
    todo = " ".join((target.note or target.text).split())
    return {
        "id": rule_id(target),
        "shortDescription": {"text": f"{target.release} {words[target.group]}: {target.text}"},
        "fullDescription": {"text": todo},
        "help": {"text": f"{todo} {target.url}"},
        "helpUri": target.url,
        "defaultConfiguration": {"level": LEVEL[target.group]},
        "properties": {"tags": ["pytorch-upgrade", words[target.group]], "release": target.release},
    }


def _location(path: str, line: int) -> dict:
    posix = PurePosixPath(path)
    if posix.is_absolute():
        artifact = {"uri": posix.as_uri()}
    else:
        artifact = {"uri": urllib.parse.quote(str(posix)), "uriBaseId": SOURCE_ROOT}
    return {"physicalLocation": {"artifactLocation": artifact, "region": {"startLine": line}}}


def document(report, words: dict[str, str], information_uri: str | None = None) -> dict:
    """The SARIF log of one scan (`scan.Report`): its rules, its results, and the files it skipped
    as notifications. `words` names each upgrade group as a finding does (`scan.GROUP_WORDS`)."""
    rules: dict[str, int] = {}
    driver: dict = {"name": TOOL, "rules": []}
    if information_uri:
        driver["informationUri"] = information_uri
    results = []
    for finding in report.findings:
        target = finding.target
        rid = rule_id(target)
        if rid not in rules:
            rules[rid] = len(driver["rules"])
            driver["rules"].append(_rule(target, words))
        todo = " ".join((target.note or target.text).split())
        results.append(
            {
                "ruleId": rid,
                "ruleIndex": rules[rid],
                "level": LEVEL[target.group],
                "message": {"text": f"{finding.symbol}: {target.release} {words[target.group]}. {todo}"},
                "locations": [_location(finding.path, finding.line)],
            }
        )
    skipped = [
        {"level": "warning", "message": {"text": f"skipped: {why}"}, "locations": [_location(path, 1)]}
        for path, why in report.skipped
    ]
    invocation = {"executionSuccessful": True, "exitCode": report.exit_code, "toolExecutionNotifications": skipped}
    run = {
        "tool": {"driver": driver},
        "invocations": [invocation],
        "originalUriBaseIds": {SOURCE_ROOT: {"description": {"text": "the folder the scan ran in"}}},
        "results": results,
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def dumps(report, words: dict[str, str], information_uri: str | None = None) -> str:
    """The SARIF log as text (stable key order, so one scan always writes the same bytes)."""
    return json.dumps(document(report, words, information_uri), indent=1, ensure_ascii=False)
