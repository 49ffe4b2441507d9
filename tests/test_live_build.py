"""Live preview's MkDocs part (generator.cli.livebuild): a save that adds or removes no file
renders only the pages it rewrote, and the site it leaves is the site a fresh build of the same
content makes; a save that adds a page builds whole."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

from generator.cli.commands import _Rebuild

URL = "http://127.0.0.1:8000/"
INDEX = {"search-text", "search-names"}  # the search index follows in the background: not compared


@pytest.fixture
def rebuild(tmp_path, content_copy):
    made = _Rebuild(content_copy, tmp_path / "site", URL, tmp_path / "docs")
    made.site_dir.mkdir()
    yield made
    made.indexer.stop()


def _differ(left: Path, right: Path) -> list[str]:
    """Files that are not in both folders or whose bytes differ, the search index left out."""
    out, walk = [], [filecmp.dircmp(left, right, ignore=sorted(INDEX))]
    while walk:
        cmp = walk.pop()
        out += cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files
        out += [
            name for name in cmp.common_files if not filecmp.cmp(Path(cmp.left, name), Path(cmp.right, name), False)
        ]
        walk += cmp.subdirs.values()
    return sorted(out)


def _fresh(tmp_path: Path, content: Path, name: str) -> Path:
    """The site a first rebuild of `content` makes (MkDocs builds it whole)."""
    other = _Rebuild(content, tmp_path / f"{name}-site", URL, tmp_path / f"{name}-docs")
    other.site_dir.mkdir()
    try:
        other()
    finally:
        other.indexer.stop()
    return other.site_dir


def test_a_save_renders_only_its_pages_and_leaves_the_site_a_fresh_build_makes(tmp_path, content_copy, rebuild):
    rebuild()
    assert rebuild.pages.rendered == -1  # the first build is whole
    pages = len(list(rebuild.docs.rglob("*.md")))
    release = content_copy / "releases" / "2.8.yaml"
    release.write_text(
        release.read_text(encoding="utf-8").replace("The second fixture release.", "The second fixture, edited."),
        encoding="utf-8",
    )
    rebuild()
    assert 1 <= rebuild.pages.rendered < pages  # the pages showing the summary, not the site
    assert "The second fixture, edited." in (rebuild.site_dir / "releases" / "2.8" / "index.html").read_text("utf-8")
    assert _differ(rebuild.site_dir, _fresh(tmp_path, content_copy, "fresh")) == []


def test_a_save_that_adds_a_page_builds_whole(tmp_path, content_copy, rebuild):
    rebuild()
    features = content_copy / "features" / "fixture.yaml"
    text = features.read_text(encoding="utf-8")
    text = text.replace(
        "features:\n", "features:\n  - id: lattice\n    name: Lattice\n    area: compiler\n    about: New.\n", 1
    )
    features.write_text(
        text.replace("name: Mesh\n", "name: Mesh\n    parent: lattice\n", 1), encoding="utf-8"
    )  # a family
    rebuild()
    assert rebuild.pages.rendered == -1
    assert (rebuild.site_dir / "features" / "lattice" / "index.html").exists()
    rebuild()  # nothing saved since: nothing rendered, and the kept build serves again
    assert rebuild.pages.rendered == 0
    assert _differ(rebuild.site_dir, _fresh(tmp_path, content_copy, "fresh")) == []
