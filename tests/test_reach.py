"""The Atlas where engineers work (issue #46): the installed command, `scan --site URL` against a
served Atlas and its three failure modes, SARIF checked against the official schema, and the
pre-commit hook run by pre-commit itself."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import socket
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from generator.tools import sarif, scan
from tests.conftest import ROOT, run_cli

SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif-schema-2.1.0.json"
"""The OASIS SARIF 2.1.0 schema (errata 01), as published at
https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json and kept
in the spec's repository, github.com/oasis-tcs/sarif-spec, sarif-2.1/schema/sarif-schema-2.1.0.json."""

CODE = "import torch\nx = torch.cat([a, b])\n"
"""A file with one finding on the fixture content's 2.7 -> 2.8 upgrade (a default change)."""


class _Recording(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        self.server.requests.append(self.path)
        super().do_GET()


@contextlib.contextmanager
def recording_server(folder: Path) -> Iterator[tuple[str, list[str]]]:
    """Serve `folder` from a thread; yield its URL and the list of paths requested, in order."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Recording, directory=str(folder)))
    server.requests = []
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", server.requests
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.fixture
def code(tmp_path) -> Path:
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "m.py").write_text(CODE, encoding="utf-8")
    return folder


def scan_args(code: Path, *more: str) -> list[str]:
    return ["scan", str(code), "--from", "2.7", "--to", "2.8", *more]


# ---------------------------------------------------------------- scan --site URL


def test_scan_site_url_gives_the_folders_answer_fetching_each_record_it_needs_once(code, fixture_site):
    with recording_server(fixture_site) as (url, requests):
        remote = run_cli(*scan_args(code, "--site", url, "--format", "json"))
    local = run_cli(*scan_args(code, "--site", str(fixture_site), "--format", "json"))
    assert remote.returncode == local.returncode == 1, remote.stderr
    assert remote.stdout == local.stdout
    # The listing, then the one release the range reaches (2.8); 2.7's record is not needed.
    assert requests == ["/api/v1/releases.json", "/api/v1/releases/2.8.json"]


def test_scan_site_url_with_a_backend_checks_it_on_the_atlas(code, fixture_site):
    with recording_server(fixture_site) as (url, requests):
        ok = run_cli(*scan_args(code, "--site", url, "--backend", "cuda"))
        typo = run_cli(*scan_args(code, "--site", url, "--backend", "cudaa"))
    assert ok.returncode == 1 and "torch.cat" in ok.stdout, ok.stderr
    assert typo.returncode == 2 and "no backend 'cudaa'" in typo.stderr, typo.stderr
    assert requests.count("/api/v1/backends/cuda.json") == 1


def unreachable() -> str:
    """A URL at a port nothing listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


@contextlib.contextmanager
def silent() -> Iterator[str]:
    """A URL whose server takes the connection and never answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(4)
        yield f"http://127.0.0.1:{s.getsockname()[1]}/"


def test_an_unreachable_url_gets_one_line_and_exit_2(code):
    url = unreachable()
    proc = run_cli(*scan_args(code, "--site", url))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [f"error: {url}: cannot reach it (Connection refused)"]


def test_a_page_that_is_not_an_atlas_gets_one_line_and_exit_2(code, tmp_path, fixture_site):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "index.html").write_text("<p>A blog</p>", encoding="utf-8")
    (plain / "api" / "v1").mkdir(parents=True)
    (plain / "api" / "v1" / "releases.json").write_text("<html>moved</html>", encoding="utf-8")
    with recording_server(plain) as (url, _):
        not_json = run_cli(*scan_args(code, "--site", url))
        missing = run_cli(*scan_args(code, "--site", url + "blog/"))
    for proc in (not_json, missing):
        assert proc.returncode == 2, proc.stderr
        (line,) = proc.stderr.splitlines()
        assert "not a PyTorch Release Atlas with its API" in line and "Traceback" not in proc.stderr
    assert "is not JSON" in not_json.stderr and "answered HTTP 404" in missing.stderr


def test_a_timeout_gets_one_line_and_exit_2(code):
    with silent() as url:
        proc = run_cli(*scan_args(code, "--site", url, "--timeout", "0.5"))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [f"error: {url}: no answer within 0.5 s ({url}api/v1/releases.json)"]


# ---------------------------------------------------------------- the installed command


def test_the_installed_command_scans_a_published_atlas(tmp_path, code, fixture_site):
    wheels, venv = tmp_path / "wheels", tmp_path / "venv"
    pip = [sys.executable, "-m", "pip"]
    built = subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(wheels), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    installed = subprocess.run(
        [*pip, "--python", str(venv / "bin" / "python"), "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    # Its dependencies come from the test's own environment (appended to sys.path, so the wheel's
    # copy of the package is found first; that environment's editable install is not applied).
    (site_packages,) = (venv / "lib").glob("python*/site-packages")
    (site_packages / "atlas-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    command = venv / "bin" / "torch-atlas"
    away = {"cwd": tmp_path, "capture_output": True, "text": True, "env": {**os.environ, "PYTHONPATH": ""}}

    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import generator; print(generator.__file__)"], **away)
    package = Path(where.stdout.strip()).parent
    assert package.is_relative_to(venv), where.stdout + where.stderr
    assert (package / "published_urls.txt").is_file() and (package / "schemas" / "api.schema.json").is_file()

    helped = subprocess.run([str(command), "--help"], **away)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: torch-atlas ")
    assert all(verb in helped.stdout for verb in ("check", "build", "serve", "import-notes", "new-release", "scan"))

    with recording_server(fixture_site) as (url, _):
        scanned = subprocess.run([str(command), *scan_args(code, "--site", url)], **away)
    assert scanned.returncode == 1, scanned.stderr
    (finding,) = scanned.stdout.splitlines()
    assert finding.startswith(f"{code.as_posix()}/m.py:2: 2.8 default change") and "torch.cat" in finding
    assert scanned.stdout == run_cli(*scan_args(code, "--site", str(fixture_site))).stdout  # the checkout's answer

    no_site = subprocess.run([str(command), *scan_args(code)], **away)
    assert no_site.returncode == 2 and "pass --site URL" in no_site.stderr, no_site.stderr


# ---------------------------------------------------------------- SARIF


@functools.cache
def sarif_validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")
    return jsonschema.Draft4Validator(schema)


def schema_errors(log: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in sarif_validator().iter_errors(log)]


def test_the_sarif_schema_catches_a_broken_log():
    """The schema check can fail: a result without a message, a level SARIF does not know."""
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"level": "fatal"}]}]}
    assert len(schema_errors(broken)) >= 2


def targets_of_every_group() -> list[scan.Target]:
    return [
        scan.Target("2.14", group, None, f"a {group} record", None, f"https://atlas.example/releases/2.14/#c-{i}", ())
        for i, group in enumerate(scan.GROUP_WORDS)
    ]


def test_sarif_has_a_rule_per_change_a_level_by_kind_and_each_result_at_its_line():
    found = targets_of_every_group()
    report = scan.Report(
        [scan.Finding("src/a b.py", n + 1, "torch.x", t) for n, t in enumerate(found)]
        + [scan.Finding("/abs/c.py", 9, "torch.y", found[0])],
        [("src/blob.py", "a binary file")],
        2,
    )
    log = sarif.document(report, scan.GROUP_WORDS, "https://atlas.example/")
    assert schema_errors(log) == []
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["helpUri"] for r in rules] == [t.url for t in found]  # one rule per change, the first reused
    assert [r["id"] for r in rules] == [f"2.14/c-{i}" for i in range(len(found))]
    levels = {t.group: r["defaultConfiguration"]["level"] for t, r in zip(found, rules, strict=True)}
    assert levels == {
        "breaking": "error",
        "removals": "error",
        "defaults": "error",
        "deprecations": "warning",
        "known-issues": "note",
    }
    results = run["results"]
    assert [r["ruleIndex"] for r in results] == [*range(len(found)), 0]
    assert [r["level"] for r in results] == [levels[t.group] for t in found] + [levels[found[0].group]]
    where = [r["locations"][0]["physicalLocation"] for r in results]
    assert where[0] == {
        "artifactLocation": {"uri": "src/a%20b.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 1},
    }
    assert where[-1] == {"artifactLocation": {"uri": "file:///abs/c.py"}, "region": {"startLine": 9}}
    (skipped,) = run["invocations"][0]["toolExecutionNotifications"]
    assert skipped["message"]["text"] == "skipped: a binary file"


def test_scan_format_sarif_from_the_cli_is_valid_sarif(code, fixture_site):
    (code / "bad.py").write_bytes(b"\xff\xfe")
    proc = run_cli(*scan_args(code, "--site", str(fixture_site), "--format", "sarif"), cwd=code)
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)
    assert schema_errors(log) == []
    (result,) = log["runs"][0]["results"]
    assert result["level"] == "error" and result["message"]["text"].startswith("torch.cat: 2.8 default change.")
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 2}
    rule = log["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert rule["helpUri"].split("#")[0].endswith("/releases/2.8/") and rule["id"].startswith("2.8/c-")


# ---------------------------------------------------------------- pre-commit


def test_the_pre_commit_hook_runs_the_scan_with_its_range(tmp_path, fixture_site):
    """pre-commit itself installs this repository as a hook repository (a virtualenv with the project
    installed, as a user's pre-commit makes it) and runs the hook with a user's `args`. `try-repo`
    takes no hook args, so the test does what it does (its `_repo_ref`: this checkout with its
    uncommitted changes as a revision) and runs `pre-commit run` with a config naming that revision."""
    import yaml
    from pre_commit.commands.try_repo import _repo_ref

    user = tmp_path / "user"
    user.mkdir()
    (user / "m.py").write_text(CODE, encoding="utf-8")
    (user / "clean.py").write_text("print('no torch here')\n", encoding="utf-8")
    git = {"cwd": user, "check": True, "capture_output": True}
    subprocess.run(["git", "init", "-q"], **git)
    subprocess.run(["git", "add", "."], **git)
    repo, rev = _repo_ref(str(tmp_path), str(ROOT), None)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PRE_COMMIT_COLOR": "never"}
    with recording_server(fixture_site) as (url, requests):
        hook = {"id": "torch-atlas-scan", "args": ["--site", url, "--from", "2.7", "--to", "2.8"]}
        config = {"repos": [{"repo": repo, "rev": rev, "hooks": [hook]}]}
        (user / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
        pre_commit = Path(sys.executable).parent / "pre-commit"
        ran = subprocess.run(
            [str(pre_commit), "run", "--all-files", "--verbose"],
            cwd=user,
            capture_output=True,
            text=True,
            env=env,
            timeout=1200,
        )
    out = ran.stdout + ran.stderr
    assert ran.returncode == 1, out  # the hook fails: a finding can break code
    reference = ("scan", ".", "--from", "2.7", "--to", "2.8", "--site", str(fixture_site))
    here = run_cli(*reference, cwd=user, env={"PYTHONPATH": str(ROOT)})
    (finding,) = here.stdout.splitlines()  # what the checkout's scan says of the same files
    assert finding.startswith("m.py:2: 2.8 default change") and finding in out and "clean.py" not in out, out
    assert requests == ["/api/v1/releases.json", "/api/v1/releases/2.8.json"]
