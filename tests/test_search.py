"""The search index generator/search/records.py writes: names a reader types whole, and the full-text
records, escaped. The browser side (assets/atlas-search.js) is typed into in tests/test_search_browser.py."""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.pipeline.build import generate
from generator.search import indexing
from generator.search import records as search
from tests.conftest import FIXTURE, real_model
from tests.helpers import hostile_content, tree


@pytest.mark.parametrize(
    "typed, key",
    [
        ("  PyTorch   2.8 ", "pytorch 2.8"),
        ("`torch.cat()`", "torch.cat"),
        ("#158249", "158249"),
        ("PR #158249", "158249"),
        ("pull request 158249", "158249"),
        ("TORCH_LOGS", "torch_logs"),
        ("PR", "pr"),
    ],
)
def test_a_name_is_keyed_as_a_reader_may_type_it(typed, key):
    assert search.normalise(typed) == key


@pytest.fixture(scope="module")
def fixture_index(tmp_path_factory) -> tuple:
    out = tmp_path_factory.mktemp("search")
    site, _ = generate(FIXTURE, out / "docs")
    (out / "site").mkdir()
    indexing.write(site, out / "site")
    return site, out


def test_every_name_is_in_the_file_its_hash_names(fixture_index):
    _, out = fixture_index
    files = sorted(p for p in (out / "site" / search.NAMES).glob("*.json") if p.name != search.SYMPTOMS)
    assert len(files) == search.SHARDS == 1024
    keys = 0
    for path in files:
        for key, hits in json.loads(path.read_text(encoding="utf-8")).items():
            assert search.shard(key) == path.stem and search.normalise(key) == key
            assert all(url and title for url, title, _ in hits)
            keys += 1
    assert keys > 50


def test_names_take_a_reader_to_the_page_they_name(fixture_index):
    site, out = fixture_index

    def first(typed: str) -> str:
        key = search.normalise(typed)
        table = json.loads((out / "site" / search.NAMES / f"{search.shard(key)}.json").read_text(encoding="utf-8"))
        return table[key][0][0]

    assert first("PyTorch 2.8") == first("2.8") == "releases/2.8/"
    assert first("#301") == "releases/2.8/#pr-301"
    assert first("deprecations") == "deprecations/"
    feature = site.features[0]
    assert first(feature.title) == f"features/{feature.id}/"


def test_the_full_text_index_is_written_whole(fixture_index):
    site, out = fixture_index
    bundle = out / "site" / search.BUNDLE
    entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
    changes = sum(len(r.changes) for r in site.releases)
    assert entry["languages"]["en"]["page_count"] == len(search.records(site, search.page_meta(site))) > changes
    assert (bundle / f"pagefind.{entry['languages']['en']['hash']}.pf_meta").exists()
    assert not [name for name in search.UNUSED if (bundle / name).exists()]


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_text_from_content_reaches_the_index_as_text(tmp_path: Path):
    """Every record of hostile content parses to our own tags only; the payloads are its words."""
    content = hostile_content(tmp_path / "content")
    site, _ = generate(content, tmp_path / "docs")
    seen = _Tags()
    for _, page in search.records(site, search.page_meta(site)):
        seen.feed(page)
    assert seen.tags <= {"html", "head", "title", "body", "div", "span", "main", "h1", "h2", "p"}
    words = " ".join(seen.text)
    assert "<script>alert(1)</script>" in words and "<img src=x onerror=alert(1)>" in words


def test_an_index_that_cannot_be_written_leaves_the_previous_site(tmp_path, monkeypatch, fixture_site):
    import shutil

    from generator.pipeline.build import MkDocsFailed, mkdocs_build

    site_dir = tmp_path / "site"
    shutil.copytree(fixture_site, site_dir)
    before = tree(site_dir)
    model, _ = generate(FIXTURE, tmp_path / "docs")

    # The index's child process (generator.search.child, run by this Python) fails as Pagefind
    # does when it cannot write: a message, then a non-zero exit.
    failing = tmp_path / "bin" / "python"
    failing.parent.mkdir()
    failing.write_text("#!/bin/sh\necho 'Error: No space left on device' >&2\nexit 3\n")
    failing.chmod(0o755)
    monkeypatch.setattr(indexing.sys, "executable", str(failing))
    with pytest.raises(
        MkDocsFailed, match="search index not written: OSError: indexing exited with 3: Error: No space"
    ):
        mkdocs_build(model, tmp_path / "docs", site_dir)
    assert tree(site_dir) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "docs", "site"]


def test_a_dotted_tail_of_a_symbol_finds_it():
    """Names are split on `.` and `_` (issue #25): a tail of a dotted name finds it, even when
    several names end so (`scaled_dot_product_attention` is in torch and in
    torch.nn.functional), and a longer tail picks one."""
    site = real_model()
    table = search.names(site, {page.url: (page.url, "") for page in site.pages})

    def found(query: str) -> list[str]:
        return [hit[0] for hit in table.get(search.normalise(query), [])]

    torch_sdpa = "symbols/torch/#torch.scaled_dot_product_attention"
    functional_sdpa = "symbols/torch.nn.functional/#torch.nn.functional.scaled_dot_product_attention"
    assert {torch_sdpa, functional_sdpa} <= set(found("scaled_dot_product_attention"))
    assert found("functional.scaled_dot_product_attention") == [functional_sdpa]
    assert "symbols/torch.nn.attention/#torch.nn.attention.varlen_attn" in found("attention.varlen_attn")


def test_the_index_holds_the_names_a_reader_saw_or_pastes():
    """Issue 36: a title a release announced a feature under is a heading of the feature's record
    (2.12's "Fused Adagrad optimizer" for Fused optimizers); an environment variable a feature's
    name holds finds that feature before the changes naming it (TORCH_TRACE); the code a change's
    note names is in the change's record (2.6's weights_only flip names `add_safe_globals`)."""
    site = real_model()
    meta = search.page_meta(site)
    records = dict(search.records(site, meta))
    assert "<h2>Fused Adagrad optimizer</h2>" in records["features/fused-optimizers/"]
    assert search.names(site, meta)["torch_trace"][0][0] == "features/tlparse/"
    flip = next(
        url for url, page in records.items() if url.startswith("releases/2.6/#") and "Flip default torch.load" in page
    )
    assert "torch.serialization.add_safe_globals([MyClass])" in records[flip]
    assert "restricted unpickler" not in records[flip]  # the note's prose stays out: code spans only


def test_records_left_by_a_killed_index_child_are_removed_by_the_next(tmp_path, monkeypatch):
    """The index child writes its records to `atlas-records-<pid>-…` in the system's temporary
    folder; killed with its build it cleans nothing up, so the next child removes the folders of
    children no longer running, and leaves those of running ones."""
    import subprocess
    import sys

    from generator.search import child as search_child

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = tmp_path / f"{search_child.RECORDS}{gone.stdout.strip()}-abc"
    alive = tmp_path / f"{search_child.RECORDS}{os.getppid()}-def"
    for folder in (dead, alive):
        folder.mkdir()
        (folder / "0001.html").write_text("<p>record</p>")
    search_child._remove_orphans(tmp_path)
    assert not dead.exists()
    assert (alive / "0001.html").exists()


def test_exact_input_is_a_name_by_rule():
    """Issue 46: a class or module name a feature's API name ends with is a name of that feature
    (before the symbol of the same name); an argument a change that asks something of an upgrade
    names leads to it before a build variable spelled the same (USE_CUDA); a release the cadence
    plans and the Atlas does not cover leads to the coverage statement; "calendar" and
    "subscribe" to the API page's calendar; a former id's words only where the name says them."""
    site = real_model()
    table = search.names(site, search.page_meta(site))

    def first(typed: str) -> str:
        return table[search.normalise(typed)][0][0]

    assert first("LinearCrossEntropyLoss") == first("torch.nn.LinearCrossEntropyLoss")
    assert first("LinearCrossEntropyLoss") == "features/linear-cross-entropy-loss/"
    assert first("pipelining") == "features/pipeline-parallel/"
    assert [hit[0] for hit in table["use_cuda"]][:2] == ["releases/2.14/#c-c820809d", "releases/2.0/#c-961af025"]
    newest = site.releases[-1].version
    later = [p.version for p in site.content.planned if search._version_key(p.version) > search._version_key(newest)]
    assert later and all(first(f"PyTorch {v}") == first(f"{v}.0") == search.COVERAGE for v in later)
    assert first(newest) == f"releases/{newest}/"
    assert first("calendar") == first("subscribe") == "api/#calendar"
    assert "cuda graphs" not in table and first("cuda-graphs") == "features/cuda-graph-annotations/"
    assert first("cudagraph") == "symbols/torch.cuda/#torch.cuda.CUDAGraph"


@pytest.mark.parametrize(
    "key, forms",
    [
        ("cuda graphs", ["cuda graph", "cudagraph"]),
        ("cuda-graphs", ["cuda graphs", "cuda graph", "cudagraph"]),
        ("dtensors", ["dtensor"]),
        ("class", []),
        ("bus", []),
    ],
)
def test_a_plural_or_hyphenated_query_has_other_forms(key, forms):
    assert search.name_forms(key) == forms


@pytest.mark.parametrize(
    "text, call",
    [
        ("profile(use_cuda=True)", ("profile", ["use_cuda"])),
        ("torch.profiler.profile(activities=[a], record_shapes=True)", ("profile", ["activities", "record_shapes"])),
        ("f(x=g(y=1), z=2)", ("f", ["x", "y", "z"])),
        ("torch.load(f)", None),
        ("f(a == b)", None),
        ("x = f(a=1)", None),
    ],
)
def test_a_pasted_call_is_its_callee_and_keyword_arguments(text, call):
    assert search.pasted_call(text) == call


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity on this platform")
def test_pagefind_is_started_on_one_core_and_then_told_to_die_with_its_parent(tmp_path):
    """child._on_one_core, Pagefind's preexec_fn: the process it starts may run on one core only
    (the last of its parent's), and what it was given to run next (dies_with_parent) still runs."""
    import subprocess
    import sys

    from generator.search import child

    mark = tmp_path / "ran"
    probe = "import os; print(sorted(os.sched_getaffinity(0)))"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        preexec_fn=child._on_one_core(lambda: mark.write_text(str(os.getpid()))),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout) == [max(os.sched_getaffinity(0))]
    assert mark.read_text() not in ("", str(os.getpid()))  # it ran in the child, between fork and exec
