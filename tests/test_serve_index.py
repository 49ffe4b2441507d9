"""Live preview's search index (indexing.Indexer): it indexes the model the server's rebuild made,
once saves pause, and a newer model replaces one whose index is under way."""

from __future__ import annotations

import json
import time
from pathlib import Path

from generator.pipeline.build import site_model
from generator.search import indexing
from generator.search import records as search
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
        assert (site_dir / search.BUNDLE / "meta.json").exists()
        assert [hit[1] for hit in _names(site_dir, "Mesh")] == ["Gridwork"]  # its id still names it
        indexer.request(first, site_dir)
        _wait(indexer, 2)
        assert [hit[1] for hit in _names(site_dir, "Mesh")] == ["Mesh"] and not _names(site_dir, "Gridwork")
        assert indexer.runs == 2
    finally:
        indexer.stop()
    assert not list(site_dir.glob(".search-*")), "a staging folder was left in the site"


def test_a_rebuild_stops_the_index_under_way_and_a_held_index_is_made_after(tmp_path, monkeypatch):
    """A rebuild begins with `hold`: the run under way stops computing records in the server's
    process (they would slow the rebuild down) and, when no newer model comes (a save with a
    content error), the held model is indexed after the quiet time."""
    import threading

    site = site_model(FIXTURE)
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    started, go_on = threading.Event(), threading.Event()
    taken: list[int] = []  # records each run took before it stopped or ended
    records = search.records

    def spy(*args):
        taken.append(0)
        if len(taken) == 1:  # the first run waits here until the test has held it
            started.set()
            go_on.wait(60)
        for item in records(*args):
            taken[-1] += 1
            yield item

    monkeypatch.setattr(search, "records", spy)
    indexer = indexing.Indexer(quiet=0.2)
    try:
        indexer.request(site, site_dir)
        assert started.wait(60), "the index never began"
        indexer.hold()  # as _Rebuild does when a save arrives
        go_on.set()
        _wait(indexer, 1)
        assert len(taken) == 2 and taken[0] == 1 < taken[1]  # the held run took one record and stopped
        assert (site_dir / search.BUNDLE / "meta.json").exists()
        assert [hit[1] for hit in _names(site_dir, "Mesh")] == ["Mesh"]
    finally:
        indexer.stop()
