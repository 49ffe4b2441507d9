"""The search index generator/search/records.py writes: names a reader types whole, and the full-text
records, escaped. The browser side (assets/atlas-search.js) is typed into in tests/test_search_browser.py."""

from __future__ import annotations

import json
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
    """Every record has its fragment, every term of every record is in a chunk with a posting to
    it, and the meta file names each chunk's first term in order."""
    from generator.search import fulltext

    site, out = fixture_index
    bundle = out / "site" / search.BUNDLE
    records = search.records(site, search.page_meta(site))
    meta = json.loads((bundle / "meta.json").read_text(encoding="utf-8"))
    assert meta["count"] == len(records) > sum(len(r.changes) for r in site.releases)
    chunks = [json.loads((bundle / f"c{n}.json").read_text(encoding="utf-8")) for n in range(len(meta["chunks"]))]
    assert [next(iter(c)) for c in chunks] == meta["chunks"] == sorted(meta["chunks"])
    postings = {term: flat for chunk in chunks for term, flat in chunk.items()}
    per = meta["per"]
    files = [
        json.loads((bundle / "f" / f"{n}.json").read_text(encoding="utf-8")) for n in range(-(-len(records) // per))
    ]
    assert [len(f) for f in files[:-1]] == [per] * (len(files) - 1) and 1 <= len(files[-1]) <= per
    for rid, record in enumerate(records):
        fragment = files[rid // per][rid % per]
        assert (fragment["url"], fragment["title"], fragment["filters"]) == (
            record["url"],
            record["title"],
            record["filters"],
        )
        for weight, text in record["parts"]:
            for term in fulltext.terms(text) if weight else ():
                steps = [int(pair.split(":")[0], 36) for pair in postings[term].split(" ")]
                assert rid in [sum(steps[: k + 1]) for k in range(len(steps))], (term, record["url"])
    assert not (bundle / "f" / f"{len(files)}.json").exists()


def test_the_filters_file_lists_each_value_s_records(fixture_index):
    site, out = fixture_index
    records = search.records(site, search.page_meta(site))
    filters = json.loads((out / "site" / search.BUNDLE / "filters.json").read_text(encoding="utf-8"))
    assert set(filters) == {"backend", "release", "section"}
    for name, values in filters.items():
        for value, ids in values.items():
            assert ids == [i for i, r in enumerate(records) if value in r["filters"].get(name, [])]
    for name in filters:  # every value a record has is listed
        assert set(filters[name]) == {v for r in records for v in r["filters"].get(name, [])}
    assert "2.8" in filters["release"]


def test_the_browser_splits_and_stems_words_as_the_index_did(tmp_path):
    """atlas-fulltext.js `terms` gives the terms fulltext.terms gave the index, on every change
    line of the real content and on what readers type: a query finds what the index holds only
    if both sides agree."""
    import shutil
    import subprocess

    from generator.search import fulltext
    from generator.util.project import ROOT

    site = real_model()
    texts = [p[1] for r in search.records(site, search.page_meta(site)) for p in r["parts"]][:4000]
    texts += [
        "torch.compile(mode='max-autotune')",
        "CUDA graphs",
        "optimizers",
        "flexatention",
        "İstanbul Ünïcode",
        "use_cuda=True",
        "c++17 C#",
        "--nproc-per-node=2",
        "studies passes analysis bias",
        "x.y_z-w",
    ]
    node = shutil.which("node")
    assert node, "node is not on PATH: make test needs Node (it installs axe-core with npm)"
    module = (ROOT / "templates" / "assets" / "atlas-fulltext.js").as_uri()
    script = (
        f"import {{ terms }} from {json.dumps(module)};"
        "import {readFileSync} from 'node:fs';"
        "process.stdout.write(JSON.stringify(JSON.parse(readFileSync(0, 'utf8')).map(terms)));"
    )
    proc = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [fulltext.terms(t) for t in texts]
    assert fulltext.terms("torch.compile optimizers") == ["torch", "compil", "torchcompile", "optimizer"]


def test_the_same_records_give_the_same_index(tmp_path):
    from generator.search import fulltext

    site = real_model()
    records = search.records(site, search.page_meta(site))
    fulltext.build(records, tmp_path / "a")
    fulltext.build(list(records), tmp_path / "b")
    assert tree(tmp_path / "a") == tree(tmp_path / "b")


def test_text_from_content_reaches_the_index_as_text(tmp_path: Path):
    """Hostile content's markup is in the records and the index's fragments as text: a record
    holds no field but its own, and the browser's engine escapes what it shows (its excerpt)."""
    content = hostile_content(tmp_path / "content")
    site, _ = generate(content, tmp_path / "docs")
    records = search.records(site, search.page_meta(site))
    assert all(set(r) == {"url", "title", "filters", "parts"} for r in records)
    words = " ".join(t for r in records for _, t in r["parts"])
    assert "<script>alert(1)</script>" in words and "<img src=x onerror=alert(1)>" in words


def test_an_index_that_cannot_be_written_leaves_the_previous_site(tmp_path, monkeypatch, fixture_site):
    import shutil

    from generator.pipeline.build import MkDocsFailed, mkdocs_build

    site_dir = tmp_path / "site"
    shutil.copytree(fixture_site, site_dir)
    before = tree(site_dir)
    model, _ = generate(FIXTURE, tmp_path / "docs")

    # The index's child process (generator.search.child, run by this Python) fails as it
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
    """Issue 36: a title a release announced a feature under is a part of the feature's record
    (2.12's "Fused Adagrad optimizer" for Fused optimizers); an environment variable a feature's
    name holds finds that feature before the changes naming it (TORCH_TRACE); the code a change's
    note names is in the change's record (2.6's weights_only flip names `add_safe_globals`)."""
    site = real_model()
    meta = search.page_meta(site)
    records = {r["url"]: " ".join(t for _, t in r["parts"]) for r in search.records(site, meta)}
    fused = next(r for r in search.records(site, meta) if r["url"] == "features/fused-optimizers/")
    assert [search.ANNOUNCED, "Fused Adagrad optimizer"] in fused["parts"]
    assert search.names(site, meta)["torch_trace"][0][0] == "features/tlparse/"
    flip = next(
        url for url, text in records.items() if url.startswith("releases/2.6/#") and "Flip default torch.load" in text
    )
    assert "torch.serialization.add_safe_globals([MyClass])" in records[flip]
    assert "restricted unpickler" not in records[flip]  # the note's prose stays out: code spans only


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


def test_a_search_fetches_the_chunks_of_its_words_and_a_finished_word_s_alone(tmp_path):
    """atlas-fulltext.js, on the real content's index: a word still being typed (the last word's
    last part, and its joined form) is matched by its start, so every chunk its terms may be in
    is fetched; a word before it that the index holds is matched as itself, from its one chunk
    ("torch" in "torch.load" does not fetch the chunks of torchaudio, torchcompile …). What a
    first search downloads depends on it (make bench's first visit)."""
    import bisect
    import shutil
    import subprocess

    from generator.search import fulltext
    from generator.util.project import ROOT

    site = real_model()
    fulltext.build(search.records(site, search.page_meta(site)), tmp_path / "index")
    firsts = json.loads((tmp_path / "index" / "meta.json").read_text(encoding="utf-8"))["chunks"]

    def holding(term: str) -> int:
        return bisect.bisect_right(firsts, term) - 1

    def starting(prefix: str) -> set[int]:
        at = holding(prefix)
        return {at} | {c for c in range(at + 1, len(firsts)) if firsts[c].startswith(prefix)}

    node = shutil.which("node")
    assert node, "node is not on PATH: make test needs Node (it installs axe-core with npm)"
    module = (ROOT / "templates" / "assets" / "atlas-fulltext.js").as_uri()
    script = (
        "const fetched = new Set();"
        "globalThis.fetch = async (url) => { const p = new URL(url).pathname; fetched.add(p);"
        " const fs = await import('node:fs');"
        " return fs.existsSync(p) ? { ok: true, json: async () => JSON.parse(fs.readFileSync(p, 'utf8')) }"
        " : { ok: false, json: async () => null }; };"
        f"const engine = await import({json.dumps(module)});"
        f"await engine.options({{ index: {json.dumps((tmp_path / 'index').as_uri() + '/')} }});"
        "const found = await engine.search(process.argv[1]);"
        "process.stdout.write(JSON.stringify({ hits: found.results.length, fetched: [...fetched] }));"
    )
    proc = subprocess.run(
        [node, "--input-type=module", "-e", script, "torch.load"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    said = json.loads(proc.stdout)
    chunks = {int(Path(p).stem[1:]) for p in said["fetched"] if Path(p).name.startswith("c")}
    assert said["hits"] > 0
    assert chunks == {holding("torch")} | starting("load") | starting("torchload")
    assert len(starting("torch")) > 2  # the chunks a prefix match of "torch" would have fetched
