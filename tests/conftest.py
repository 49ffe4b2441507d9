"""Shared fixtures: the small fixture content, golden-file comparison, a built real site."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "content"
GOLDEN = ROOT / "tests" / "golden"
# The real content's releases in order (from its release files), and the newest: tests that mean
# "the latest release" say LATEST, so a new release does not need them edited.
REAL_RELEASES = sorted(
    (p.stem for p in (ROOT / "content" / "releases").glob("*.yaml")), key=lambda v: tuple(map(int, v.split(".")))
)
LATEST = REAL_RELEASES[-1]


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files from current output")


@pytest.fixture
def golden(request):
    """golden(relpath, text): compare with tests/golden/relpath, or rewrite it with --update-golden."""
    update = request.config.getoption("--update-golden")

    def check(rel: str, text: str) -> None:
        path = GOLDEN / rel
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        assert path.exists(), f"no golden file {rel}: run pytest --update-golden and read the diff"
        assert text == path.read_text(encoding="utf-8"), f"{rel} differs from its golden file (pytest --update-golden)"

    return check


@pytest.fixture
def content_copy(tmp_path) -> Path:
    """A writable copy of the fixture content."""
    dest = tmp_path / "content"
    shutil.copytree(FIXTURE, dest)
    return dest


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """python -m generator ARGS, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="session")
def real_site(tmp_path_factory) -> Path:
    """The real content built once with mkdocs --strict."""
    out = tmp_path_factory.mktemp("real")
    proc = run_cli("build", "--site", str(out / "site"), "--docs", str(out / "docs"))
    assert proc.returncode == 0, proc.stderr
    return out / "site"


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    """The fixture content built once with mkdocs --strict."""
    out = tmp_path_factory.mktemp("fixture")
    proc = run_cli("build", "--content", str(FIXTURE), "--site", str(out / "site"), "--docs", str(out / "docs"))
    assert proc.returncode == 0, proc.stderr
    return out / "site"


# Browser fixtures (browser, served, page, watch): helpers and fixtures live in tests/browser.py.
from tests.browser import browser, page, served, watch  # noqa: E402, F401
