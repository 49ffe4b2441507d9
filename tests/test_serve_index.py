"""Live preview's search index (indexing.Indexer): it indexes the model the server's rebuild made,
once saves pause, and a newer model replaces one whose index is under way."""

from __future__ import annotations

import json
import time
from pathlib import Path

from generator import indexing, search
from generator.build import site_model
from tests.conftest import FIXTURE


def _names(site_dir: Path, name: str) -> list:
    key = search.normalise(name)
    shard = site_dir / search.NAMES / f"{search.shard(key)}.json"
    return json.loads(shard.read_text(encoding="utf-8")).get(key, []) if shard.exists() else []


def _wait(indexer: indexing.Indexer, runs: int) -> None:
    deadline = time.monotonic() + 300  # a bound on a hang, not a measure of speed
    while indexer.runs < runs and time.monotonic() < deadline:
        time.sleep(0.05)
    assert indexer.runs >= runs, "the index was never placed"


def test_the_index_is_made_from_the_model_it_is_given(tmp_path, content_copy):
    renamed = content_copy / "features" / "fixture.yaml"
    renamed.write_text(renamed.read_text(encoding="utf-8").replace("name: Mesh", "name: Gridwork"), encoding="utf-8")
    first, second = site_model(FIXTURE), site_model(content_copy)
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    indexer = indexing.Indexer(quiet=0.2)
    try:
        indexer.request(first, site_dir)
        indexer.request(second, site_dir)  # a save before the first index began: one run, the newest model
        _wait(indexer, 1)
        assert (site_dir / search.BUNDLE / "pagefind-entry.json").exists()
        assert [hit[1] for hit in _names(site_dir, "Mesh")] == ["Gridwork"]  # its id still names it
        indexer.request(first, site_dir)
        _wait(indexer, 2)
        assert [hit[1] for hit in _names(site_dir, "Mesh")] == ["Mesh"] and not _names(site_dir, "Gridwork")
        assert indexer.runs == 2
    finally:
        indexer.stop()
    assert not list(site_dir.glob(".search-*")), "a staging folder was left in the site"
