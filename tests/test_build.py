"""Atomic and reproducible builds.

Atomic: the site folder is always a complete site, the old one or the new one, whether the
build fails (content error, mkdocs --strict) or is killed at any moment. Reproducible: the
same content gives the same bytes in every file, whatever the folder, hash seed or time zone.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from generator import build as pipeline
from tests.conftest import FIXTURE, ROOT, run_cli


def tree(root: Path) -> dict[str, str]:
    """Every file and folder under root: relative path -> sha256 of its bytes ('dir' for folders)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        out[rel] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def digest(root: Path) -> str:
    return hashlib.sha256(repr(sorted(tree(root).items())).encode()).hexdigest()


def leftovers(site: Path) -> list[str]:
    return sorted(p.name for p in site.parent.iterdir() if p.name.startswith(f".{site.name}."))


def build_cli(content: Path | None, site: Path, docs: Path, **env: str) -> subprocess.CompletedProcess:
    args = ["build", "--site", str(site), "--docs", str(docs)]
    if content is not None:
        args += ["--content", str(content)]
    if not env:
        return run_cli(*args)
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
    )


@pytest.fixture(scope="module")
def real_content(tmp_path_factory) -> Path:
    """A copy of content/ elsewhere. Builds of it leave the repository alone: content/ itself
    would also update generator/published_urls.txt, and a killed build could truncate it."""
    dest = tmp_path_factory.mktemp("real-content") / "content"
    shutil.copytree(ROOT / "content", dest)
    return dest


@pytest.fixture
def old_site(tmp_path, fixture_site) -> Path:
    """A complete site (the fixture content) at tmp_path/out/site, as a previous build left it."""
    site = tmp_path / "out" / "site"
    shutil.copytree(fixture_site, site)
    return site


# Failed builds


def test_content_error_leaves_the_previous_site_byte_identical(old_site, content_copy, tmp_path):
    before = tree(old_site)
    (content_copy / "releases/2.8.yaml").write_text("version: [\n", encoding="utf-8")
    proc = build_cli(content_copy, old_site, tmp_path / "docs")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert tree(old_site) == before
    assert leftovers(old_site) == []


def test_mkdocs_config_error_leaves_the_site_and_says_why(old_site, tmp_path):
    """A bad SITE_URL aborts MkDocs' config check: exit 1 with MkDocs' message, not a silent exit."""
    before = tree(old_site)
    proc = build_cli(FIXTURE, old_site, tmp_path / "docs", SITE_URL="not a url")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "left as it was" in proc.stderr and "site_url" in proc.stderr
    assert tree(old_site) == before
    assert leftovers(old_site) == []


def test_mkdocs_strict_failure_after_writing_leaves_the_site(old_site, tmp_path):
    """MkDocs renders every page into the temporary folder, then --strict fails on a broken link."""
    before = tree(old_site)
    docs = tmp_path / "docs"
    site, _ = pipeline.generate(FIXTURE, docs)
    (docs / "broken.md").write_text("# Broken\n\n[nowhere](nowhere.md)\n", encoding="utf-8")
    with pytest.raises(pipeline.MkDocsFailed, match="nowhere.md"):
        pipeline.mkdocs_build(site, docs, old_site)
    assert tree(old_site) == before
    assert leftovers(old_site) == []


# Killed builds

MOMENTS = [0.3, 0.8, 1.5, "temp-folder-appears", "pages-being-written", "last-page-written"]
"""When to kill -9 a build of the real content: seconds after start (importing, generating,
building), or as soon as its temporary folder appears, MkDocs starts on the release pages,
or MkDocs has written the last section of the nav (moments before the swap)."""


def kill_build(content: Path, site: Path, docs: Path, moment: float | str) -> None:
    """Start `python -m generator build` of content into site and SIGKILL it at moment."""
    building = lambda: list(site.parent.glob(f".{site.name}.building-*"))  # noqa: E731
    ready = {
        "temp-folder-appears": lambda: building(),
        "pages-being-written": lambda: any((t / "releases").exists() for t in building()),
        "last-page-written": lambda: any((t / "timeline/index.html").exists() for t in building()),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "build",
            "--content",
            str(content),
            "--site",
            str(site),
            "--docs",
            str(docs),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        if isinstance(moment, float):
            time.sleep(moment)
        else:
            deadline = time.monotonic() + 60
            while not ready[moment]() and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)


@pytest.mark.parametrize("moment", MOMENTS, ids=str)
def test_killed_build_leaves_the_old_site_or_the_new_one(old_site, real_site, real_content, tmp_path, moment):
    """The site folder is the complete old site or the complete new one, never missing or half-written."""
    old, new = digest(old_site), digest(real_site)
    kill_build(real_content, old_site, tmp_path / "docs", moment)
    assert old_site.is_dir(), "the site folder vanished"
    assert digest(old_site) in (old, new), "a half-written site"


def test_next_build_removes_what_a_killed_one_left(old_site, real_site, real_content, tmp_path):
    kill_build(real_content, old_site, tmp_path / "docs", "pages-being-written")
    assert leftovers(old_site), "the killed build left no temporary folder: kill it earlier"
    proc = build_cli(real_content, old_site, tmp_path / "docs")
    assert proc.returncode == 0, proc.stderr
    assert leftovers(old_site) == []
    assert digest(old_site) == digest(real_site)


SWAP_DIES = """
import os, pathlib, shutil, sys
from generator import build
new, target = map(pathlib.Path, sys.argv[1:3])
die = lambda *a, **k: os._exit(9)
if sys.argv[3] == "at-first-rename":
    real = pathlib.Path.rename
    pathlib.Path.rename = lambda self, to: (real(self, to), die())
else:
    shutil.rmtree = die
build.swap(new, target)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="an atomic exchange needs Linux renameat2")
@pytest.mark.parametrize("moment", ["at-first-rename", "before-removing-the-old-site"])
def test_swap_has_no_moment_without_a_site(tmp_path, moment):
    """Dying inside the swap, right after its first step: the site is the old one or the new one, never missing."""
    target, new = tmp_path / "site", tmp_path / ".site.building-x"
    (target / "a").mkdir(parents=True)
    (target / "a/index.html").write_text("old")
    (new / "a").mkdir(parents=True)
    (new / "a/index.html").write_text("new")
    proc = subprocess.run(
        [sys.executable, "-c", SWAP_DIES, str(new), str(target), moment], cwd=ROOT, capture_output=True, text=True
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert (target / "a/index.html").read_text() in ("old", "new")
    pipeline.clean_leftovers(target)
    assert leftovers(target) == []
    assert (target / "a/index.html").exists()


def test_clean_leftovers_spares_other_folders(tmp_path):
    for name in ("site", ".site.building-abc", ".site.old-def", "site-other", ".sitemap", "docs"):
        (tmp_path / name).mkdir()
    pipeline.clean_leftovers(tmp_path / "site")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".sitemap", "docs", "site", "site-other"]


# Reproducible builds


def test_two_builds_of_the_real_content_are_byte_identical(real_site, real_content, tmp_path):
    """Content and site in other folders, another hash seed and time zone, and a SOURCE_DATE_EPOCH
    the build must override."""
    proc = build_cli(
        real_content,
        tmp_path / "elsewhere" / "public",
        tmp_path / "md",
        PYTHONHASHSEED="12345",
        TZ="Pacific/Kiritimati",
        SOURCE_DATE_EPOCH="1",
    )
    assert proc.returncode == 0, proc.stderr
    first, second = tree(real_site), tree(tmp_path / "elsewhere" / "public")
    for name in ("sitemap.xml", "sitemap.xml.gz", "search/search_index.json", "index.html", "releases/2.12/index.html"):
        assert name in first, name
    differing = sorted(rel for rel in first.keys() | second.keys() if first.get(rel) != second.get(rel))
    assert differing == []


def test_sitemap_dates_come_from_the_content(real_site):
    """lastmod is the newest release date, not the day of the build."""
    sitemap = (real_site / "sitemap.xml").read_text(encoding="utf-8")
    latest = max(pipeline.site_model(ROOT / "content").releases, key=lambda r: r.date).date.isoformat()
    dates = {
        line.strip()[len("<lastmod>") : -len("</lastmod>")] for line in sitemap.splitlines() if "<lastmod>" in line
    }
    assert dates == {latest}, textwrap.shorten(str(dates), 200)
