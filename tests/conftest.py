"""Shared fixtures: the small fixture content, golden-file comparison, the CLI runner, and the real
content loaded once per process (`real_model`) and built once per session (`real_build`)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.model.computed import Site
from generator.pipeline.build import site_model

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


def run_cli(
    *args: str,
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
    via: tuple[str, ...] = ("-m", "generator"),
    timeout: int = 300,
) -> subprocess.CompletedProcess:
    """python -m generator ARGS, as a user runs it: the one way tests run the CLI.

    env adds to (or overrides) the environment; via replaces `-m generator` by what starts the CLI
    another way (`-c SCRIPT ...`, e.g. under resource limits or killed at a point)."""
    return subprocess.run(
        [sys.executable, *via, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **env} if env else None,
    )


@functools.cache
def real_model() -> Site:
    """The real content, loaded and enriched once per test process (the model is frozen)."""
    return site_model(ROOT / "content")


@dataclass(frozen=True)
class RealBuild:
    """The real content built once per test session with mkdocs --strict, served at `url`."""

    site: Path  # the built HTML
    docs: Path  # the generated Markdown it was built from
    url: str  # its address (SITE_URL), under a sub-path: http://127.0.0.1:<port>/atlas/


SUB_PATH = "atlas/"


@pytest.fixture(scope="session")
def real_build(tmp_path_factory) -> Iterator[RealBuild]:
    """The one real-content build of a test session, shared by the file tests (`real_site`) and the
    browser tests (`served`). It is built for the address it is served at, under a sub-path as a wiki's
    static host would serve it: the API and feeds carry that address."""
    from tests.browser import serve

    out = tmp_path_factory.mktemp("real")
    root = out / "root"
    root.mkdir()
    holder: dict[str, RealBuild] = {}

    def build(url: str) -> None:
        site, docs = out / "site", out / "docs"
        # The time limit guards against a build that hangs; it bounds no speed: on a machine shared
        # with other suites the real build has taken more than 300 s.
        args = ("build", "--site", str(site), "--docs", str(docs))
        proc = run_cli(*args, env={"SITE_URL": url + SUB_PATH}, timeout=1800)
        assert proc.returncode == 0, proc.stderr
        (root / SUB_PATH.strip("/")).symlink_to(site, target_is_directory=True)
        holder["build"] = RealBuild(site, docs, url + SUB_PATH)

    with serve(root, build=build):
        yield holder["build"]


@pytest.fixture(scope="session")
def real_site(real_build) -> Path:
    """The real content built once with mkdocs --strict (the session's one real build)."""
    return real_build.site


@pytest.fixture(scope="session")
def served(real_build) -> str:
    """Base URL of the real site, e.g. "http://127.0.0.1:41234/atlas/", built for that address."""
    return real_build.url


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    """The fixture content built once with mkdocs --strict."""
    out = tmp_path_factory.mktemp("fixture")
    proc = run_cli("build", "--content", str(FIXTURE), "--site", str(out / "site"), "--docs", str(out / "docs"))
    assert proc.returncode == 0, proc.stderr
    return out / "site"


# Browser fixtures (browser, served, page, watch): helpers and fixtures live in tests/browser.py.
from tests.browser import browser, page, watch  # noqa: E402, F401
