"""`python -m generator scan PATH --from X.Y --to X.Y`: the lines of a codebase that use what a
change of an upgrade is about, for CI.

It reads the same records the upgrade guide reads (the API's release files: each change's upgrade
`group`, `subject`, note and URL), made from the content or read from a built site's
`api/v1/releases/`, reads each `.py` file as code (generator.tools.pycode) and reports a line for a
change when a use on it matches the change's subject (symbols.subject_matches). The paste-your-code
box matches pasted code by the same rule (generator.tools.paste, atlas-rules.js pasteUses). The
range and backend rule are the guide's (`model.applies_to`, known issues included); a range
through a release without a change list exits EXIT_UNCOVERED.

Speed: the subject items are indexed by the last part of their names, and a file is parsed only
when it holds one of those as a word; most files of a codebase hold none.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from ..markup.textfilters import plain, record_line
from ..model import symbols, urls
from ..model.content import BREAKING_GROUPS, applies_to, version_key
from ..model.errors import UsageError, did_you_mean
from . import pycode, remote, sarif

EXIT_UNCOVERED = 3
"""The exit code of a scan whose range holds a release the Atlas has no change list for: its
answer is incomplete, so CI must not read it as a pass (2 is a usage error, 1 a breaking finding)."""

MAX_BYTES = 4 * 1024 * 1024
"""A file larger than this is not code a person wrote: it is reported and skipped."""

GROUP_WORDS = {
    "known-issues": "known issue",
    "breaking": "breaking",
    "defaults": "default change",
    "removals": "removal",
    "deprecations": "deprecation",
}
"""The upgrade groups a scan reports (model.UPGRADE_GROUPS but new features), as a finding words them."""

_PART = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A part of a dotted name, as `symbols.tokens` cuts one: a key a line uses ends in one of these
(or is a --flag, looked for as it is)."""


@dataclass(frozen=True)
class Target:
    """A change a scan looks for."""

    release: str
    group: str  # its UPGRADE_GROUPS id
    kind: str | None
    text: str  # its record line, as plain words
    note: str | None  # what to do, in our words
    url: str
    symbols: tuple[str, ...]  # the names it mentions (record line, note, restore)
    subject: tuple[str, ...] = ()  # what code must use for it to apply (symbols.SUBJECT)

    @property
    def breaks(self) -> bool:
        """A breaking change, removal or default change: the scan exits 1."""
        return self.group in BREAKING_GROUPS


@dataclass(frozen=True)
class Finding:
    """A line that uses what a change is about. Its JSON record (`record`, `--format json`) has
    `file`, `line`, `symbol` (what the line uses, imports resolved: `torch.onnx.export(fallback=)`),
    `matched` (the item of the change's subject it matched), the Target's fields and `breaks`."""

    path: str
    line: int
    symbol: str  # what the line uses (symbols.Use.shown)
    target: Target
    matched: str = ""  # the subject item it matched

    def text(self) -> str:
        t = self.target
        todo = " ".join((t.note or t.text).split())
        said = f"{self.matched} (the line uses {self.symbol})" if self.symbol != self.matched else self.matched
        return f"{self.path}:{self.line}: {t.release} {GROUP_WORDS[t.group]} of {said}: {todo} {t.url}"

    def record(self) -> dict:
        out = {"file": self.path, "line": self.line, "symbol": self.symbol, "matched": self.matched}
        out |= asdict(self.target)
        out["symbols"], out["subject"] = list(self.target.symbols), list(self.target.subject)
        return out | {"breaks": self.target.breaks}


# ---------------------------------------------------------------- the records


def releases_from_content(content: Path) -> tuple[list[dict], list[str]]:
    """The API's release records, made from a content folder (oldest first), and the backend ids."""
    from ..pipeline.build import site_model, site_url
    from ..render import api

    site = site_model(content)
    return [api.release_record(site, r.version, site_url()) for r in site.releases], list(site.backend_by_id)


def releases_from_site(site_dir: Path) -> tuple[list[dict], list[str]]:
    """The API's release records, read from a built site (`api/v1/releases/X.Y.json`), and the
    backend ids it has files for."""
    try:
        listing = json.loads((site_dir / urls.api_releases()).read_text(encoding="utf-8"))
        versions = sorted((r["version"] for r in listing["releases"]), key=version_key)
        releases = [json.loads((site_dir / urls.api_release(v)).read_text(encoding="utf-8")) for v in versions]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{site_dir}: not a built Atlas site with its API ({exc})") from exc
    backends = sorted(p.stem for p in (site_dir / urls.api_backend("x")).parent.glob("*.json"))
    return releases, backends


def targets(releases: list[dict], start: str, end: str, backend: str = "", backends=None) -> list[Target]:
    """The changes an upgrade from `start` to `end` on `backend` meets (the guide's rule)."""
    versions = [r["version"] for r in releases]
    for version in (start, end):
        if version not in versions:
            raise UsageError(_unknown_release(version, versions))
    if version_key(start) >= version_key(end):
        raise UsageError(f"--from {start} must be older than --to {end}")
    if backend and backends is not None and backend not in backends:
        raise UsageError(f"no backend {backend!r}{did_you_mean(backend, backends)}; backends: {', '.join(backends)}")
    out = []
    for rel in releases:
        if not version_key(start) < version_key(rel["version"]) <= version_key(end):
            continue
        for c in rel["change_list"]:
            group = c["group"]
            if group not in GROUP_WORDS or not c["subject"]:
                continue
            if not applies_to(tuple(c["backends"]), backend, c["every_backend"]):
                continue
            text = plain(record_line(c["text"]))
            subject = tuple(c["subject"])
            out.append(
                Target(rel["version"], group, c["kind"], text, c["note"], c["url"], tuple(c["symbols"]), subject)
            )
    return out


def _unknown_release(version: str, versions: list[str]) -> str:
    """Why a release cannot be scanned to or from: a version the Atlas does not cover is named
    so (never did-you-mean'd to another release), a misspelt one gets a did-you-mean."""
    if re.fullmatch(r"[0-9]+\.[0-9]+", version):
        return f"release {version} is not covered by the Atlas (it covers {versions[0]} to {versions[-1]}: {', '.join(versions)})"
    return f"no release {version!r}{did_you_mean(version, versions)}; releases: {', '.join(versions)}"


def uncovered(releases: list[dict], start: str, end: str) -> list[str]:
    """The releases an upgrade from `start` to `end` goes through whose change list the Atlas does
    not hold (2.1, 2.2): a scan cannot say what they changed."""
    return [
        r["version"]
        for r in releases
        if version_key(start) < version_key(r["version"]) <= version_key(end) and not r["change_list"]
    ]


# ---------------------------------------------------------------- matching


class Index:
    """The targets by the last part of each subject item's name: a use is compared only with the
    items it could be (the subject grammar: symbols.SUBJECT)."""

    def __init__(self, found: list[Target]) -> None:
        self.by_word: dict[str, list[tuple[str, Target]]] = defaultdict(list)
        for target in found:
            for item in target.subject:
                self.by_word[_word(item)].append((item, target))
        self.words = frozenset(self.by_word)
        self.flags = tuple(w for w in self.words if w.startswith("--"))

    def candidates(self, use: symbols.Use) -> Iterator[tuple[str, Target]]:
        """The (subject item, target) pairs a use could match."""
        names = {use.env, use.flag, use.arg}
        for name in (use.name, use.written):
            if name:
                parts = name.split(".")
                names.update(parts)
        pairs = [pair for word in names & self.words for pair in self.by_word[word]]
        # The most specific item first: a finding names the item it matched.
        yield from sorted(pairs, key=lambda pair: (-len(pair[0]), pair[0]))

    def scan(self, text: str) -> Iterator[tuple[int, str, str, Target]]:
        """(line number, what the line uses, the subject item it matched, target) for each target
        each line uses, in line order, once per line and target. Raises SyntaxError or ValueError
        for text that is not Python."""
        if not self.words.intersection(_PART.findall(text)) and not any(f in text for f in self.flags):
            return
        seen: set[tuple[int, Target]] = set()
        for found in pycode.uses(text):
            for item, target in self.candidates(found.use):
                if found.use.imported and target.group == "defaults":
                    continue  # importing a name is not calling it with its new default
                if (found.line, target) not in seen and symbols.subject_matches(item, found.use):
                    seen.add((found.line, target))
                    yield found.line, found.use.shown(), item, target


def _word(item: str) -> str:
    """The part of a subject item a use must spell: a flag, else the last part of its name, or
    the argument it names."""
    m = symbols.SUBJECT.fullmatch(item)
    if m is None or m["flag"]:
        return item
    if m["arg"] and not m["neg"]:
        return m["arg"]
    return m["name"].rsplit(".", 1)[-1]


# ---------------------------------------------------------------- the files


def python_files(root: Path) -> Iterator[Path]:
    """The .py files under `root` (or `root` itself), sorted; symlinked folders are not entered,
    so a symlink loop is never walked."""
    if not root.is_dir():
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                yield Path(folder) / name


def read(path: Path) -> tuple[str | None, str]:
    """The file's text, or None and why it cannot be scanned."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None, f"larger than {MAX_BYTES:,} bytes"
        data = path.read_bytes()
    except OSError as exc:
        return None, _os_reason(exc)
    if b"\0" in data[:8192]:
        return None, "a binary file"
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"


def _os_reason(exc: OSError) -> str:
    import errno

    if exc.errno == errno.ELOOP:
        return "a symlink loop"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "no permission to read it"
    if exc.errno == errno.ENOENT:
        return "a broken symlink or a file that went away"
    return exc.strerror or str(exc)


@dataclass
class Report:
    findings: list[Finding]
    skipped: list[tuple[str, str]]  # (path, why)
    files: int  # files scanned

    uncovered: tuple[str, ...] = ()  # releases of the range without a change list

    @property
    def exit_code(self) -> int:
        """EXIT_UNCOVERED when the range holds a release without a change list, else 1 when a
        finding can break code, else 0."""
        if self.uncovered:
            return EXIT_UNCOVERED
        return 1 if any(f.target.breaks for f in self.findings) else 0


def scan_tree(root: Path, found: list[Target]) -> Report:
    """Every finding under `root`, in file then line order, and the files that could not be read."""
    index = Index(found)
    report = Report([], [], 0)
    for path in python_files(root):
        text, why = read(path)
        shown = path.as_posix()
        if text is None:
            report.skipped.append((shown, why))
            continue
        try:
            found = [Finding(shown, n, used, t, item) for n, used, item, t in index.scan(text)]
        except (SyntaxError, ValueError) as exc:
            where = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
            report.skipped.append((shown, f"not Python that parses{where}: {getattr(exc, 'msg', exc)}"))
            continue
        report.files += 1
        report.findings.extend(found)
    return report


def command(args) -> int:
    """The `scan` verb: print the findings; 1 when one breaks code, else 0."""
    root = Path(args.path)
    if not root.exists() and not root.is_symlink():
        raise UsageError(f"{root}: no such file or folder")
    if remote.is_url(args.site):
        atlas = remote.Atlas(args.site, args.timeout)
        releases, backends = remote.releases(atlas, args.start, args.end, args.backend or "")
    else:
        releases, backends = (
            releases_from_site(Path(args.site)) if args.site else releases_from_content(Path(args.content))
        )
    found = targets(releases, args.start, args.end, args.backend or "", backends)
    report = scan_tree(root, found)
    report.uncovered = tuple(uncovered(releases, args.start, args.end))
    if report.uncovered:
        print(
            f"{', '.join(report.uncovered)}: the Atlas holds no change list for "
            f"{'these releases' if len(report.uncovered) > 1 else 'this release'}, so their changes are not scanned "
            f"(exit code {EXIT_UNCOVERED})",
            file=sys.stderr,
        )
    for path, why in report.skipped:
        print(f"{path}: skipped: {why}", file=sys.stderr)
    try:
        _print(report, args)
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return report.exit_code


def _print(report: Report, args) -> None:
    if args.format == "sarif":
        print(sarif.dumps(report, GROUP_WORDS, args.site if remote.is_url(args.site) else None))
        return
    if args.format == "json":
        data = {
            "from": args.start,
            "to": args.end,
            "backend": args.backend or "",
            "files": report.files,
            "skipped": [{"file": p, "why": w} for p, w in report.skipped],
            "uncovered": list(report.uncovered),
            "findings": [f.record() for f in report.findings],
        }
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return
    for finding in report.findings:
        print(finding.text())
    sys.stdout.flush()
    breaking = sum(f.target.breaks for f in report.findings)
    print(
        f"{len(report.findings)} finding{'s' * (len(report.findings) != 1)} ({breaking} that can break code) "
        f"in {report.files} files, {args.start} -> {args.end}",
        file=sys.stderr,
    )


# ---------------------------------------------------------------- benchmark


def bench(n_files: int = 10_000, content: Path | None = None, start: str = "", end: str = "") -> dict:
    """Scan a synthetic codebase of `n_files` .py files (every 50th uses a name some change in the
    range names; the rest plain code of about 60 lines) in a temporary folder, and time it.
    Returns the counts and seconds (records: making the change records; scan: walking and matching)."""
    from ..util.project import DEFAULT_CONTENT

    t0 = time.perf_counter()
    releases, _ = releases_from_content(content or DEFAULT_CONTENT)
    start = start or releases[0]["version"]
    end = end or releases[-1]["version"]
    found = targets(releases, start, end)
    t1 = time.perf_counter()
    planted = sorted({s for t in found for s in t.subject if "." in s and "(" not in s})[:50] or ["torch.load"]
    plain = "".join(
        f"def step_{i}(batch, weights):\n    total = sum(x * w for x, w in zip(batch, weights))\n"
        f"    if total > {i}:\n        return [v / total for v in batch]\n    return batch\n\n\n"
        for i in range(8)
    )
    with tempfile.TemporaryDirectory(prefix="atlas-scan-bench-") as tmp:
        for i in range(n_files):
            folder = Path(tmp, f"pkg{i // 100}")
            folder.mkdir(exist_ok=True)
            use = f"\nresult = {planted[i // 50 % len(planted)]}(data)\n" if i % 50 == 0 else ""
            (folder / f"mod{i}.py").write_text(f'"""Module {i}."""\nimport torch\n\n{plain}{use}', encoding="utf-8")
        t2 = time.perf_counter()
        report = scan_tree(Path(tmp), found)
        t3 = time.perf_counter()
    return {
        "files": report.files,
        "lines": n_files * (plain.count("\n") + 3),
        "changes": len(found),
        "findings": len(report.findings),
        "records_s": round(t1 - t0, 3),
        "scan_s": round(t3 - t2, 3),
    }
