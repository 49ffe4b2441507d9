"""Facts carry over from the sources: every PR an entry cites and every docs link the catalogue
gives is found in the official document the entry names (content/sources, see its INDEX.md)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT, real_model
from tests.helpers import NOTES_FILES, SOURCES

CONTENT = ROOT / "content"


def source_files() -> dict[str, str]:
    """Source URL -> the text of its local copy: the posts by INDEX.md's table, the notes by tag."""
    index = SOURCES / "INDEX.md"
    if not index.exists():
        pytest.fail(f"{index} not found: content/sources/ keeps the official documents")
    out = {}
    for name, url in re.findall(r"^\| (blog-[\w.-]+\.md) \| [\d.]+ \| (\S+) \|", index.read_text(), re.M):
        out[url] = (SOURCES / name).read_text(encoding="utf-8")
    for path in SOURCES.glob("release-notes-v*.md"):
        # A minor release's notes (NOTES_FILES names a copy under another name), or a patch's.
        tag, minor = re.match(r"release-notes-v((\d+\.\d+)\.\d+)", path.name).groups()
        if path.name in (NOTES_FILES.get(minor, f"release-notes-v{minor}.0.md"), f"release-notes-v{tag}.md"):
            out[f"https://github.com/pytorch/pytorch/releases/tag/v{tag}"] = path.read_text(encoding="utf-8")
    return out


def test_every_cited_pr_is_in_the_source_the_entry_names():
    texts = source_files()
    missing, checked = [], 0
    for release in real_model().releases:
        for entry in release.entries:
            if entry.source not in texts:
                continue
            text = texts[entry.source]
            for pr in entry.prs:
                checked += 1
                if not re.search(rf"(#|/pull/){pr}\b", text):
                    missing.append(f"{release.version} {entry.id}: #{pr} not in {entry.source}")
    assert checked > 100 and missing == []


def test_every_docs_link_of_the_catalogue_is_in_a_source():
    corpus = "\n".join(source_files().values())
    links = [(f.id, f.docs) for f in real_model().content.catalogue if f.docs]
    assert len(links) >= 30
    assert [(fid, url) for fid, url in links if url not in corpus] == []
