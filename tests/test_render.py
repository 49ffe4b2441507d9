"""Render stage: one golden page of each kind, from the fixture content, through the real templates."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.markup import textfilters
from generator.model import computed, urls
from generator.pages import pagelist as pages
from generator.pipeline.build import site_model
from generator.render.render import TEMPLATES, render_all, write_changed
from tests.conftest import FIXTURE

# One page of every kind (every template that renders a page), by its source under docs/.
PAGES = [
    "index.md",
    "releases/index.md",
    "releases/2.8/index.md",
    "features/index.md",
    "features/widget-compiler/index.md",
    "features/widgets/index.md",
    "backends/index.md",
    "backends/cuda/index.md",
    "backends/cuda/2.8/index.md",
    "tiers/index.md",
    "contributors/index.md",
    "compatibility/index.md",
    "timeline/index.md",
    "compare/index.md",
    "upgrade/index.md",
    "upgrade/defaults/index.md",
    "deprecations/index.md",
    "api/index.md",
    "speed/index.md",
    "symbols/index.md",
    "symbols/torch/index.md",
    "search/index.md",
]


@pytest.fixture(scope="module")
def rendered():
    with pytest.MonkeyPatch.context() as mp:  # the published benchmark changes with every `make bench`
        mp.setattr(pages, "BENCHMARK", FIXTURE.parent / "benchmark.md")
        return render_all(site_model(FIXTURE))


# Pages the fixture makes once a change is tied to a feature (TAGGED): a release's changes for a
# feature and for its family (/features/<id>/X.Y/), and the pages that count them.
TAGGED_PAGES = [
    "features/widget-compiler/index.md",
    "features/widget-compiler/2.8/index.md",
    "features/widgets/index.md",
    "features/widgets/2.8/index.md",
]
TAGGED = ("    restore: TORCH_CAT_LEGACY=1\n", "    restore: TORCH_CAT_LEGACY=1\n    features: [widget-compiler]\n")


@pytest.fixture(scope="module")
def tagged(tmp_path_factory):
    """The fixture with its breaking change tagged with the widget compiler, rendered."""
    content = tmp_path_factory.mktemp("tagged") / "content"
    shutil.copytree(FIXTURE, content)
    path = content / "changes" / "2.8.yaml"
    text = path.read_text(encoding="utf-8")
    assert TAGGED[0] in text
    path.write_text(text.replace(TAGGED[0], TAGGED[1], 1), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pages, "BENCHMARK", FIXTURE.parent / "benchmark.md")
        # Its few changes listed a page per release, as a feature with many has them (computed.paged):
        # set before the model is made, which lists its pages (Site.pages).
        mp.setattr(computed, "CHANGES_ON_PAGE", 0)
        site = site_model(content)
        return site, list(site.pages), render_all(site)


def first_of_each_kind(pages, picked: list[str]) -> list[str]:
    """The first page (its source under docs/) of each kind, by template, that no page in `picked`
    is of. A new page kind gets its golden page this way, with no line added here (README "Recipe:
    add a page kind"); PAGES and TAGGED_PAGES pick the telling page of a kind where the first is not."""
    have = {p.template for p in pages if urls.source(p.url) in picked}
    first: dict[str, str] = {}
    for p in pages:
        if p.template not in have:
            first.setdefault(p.template, urls.source(p.url))
    return list(first.values())


def test_every_other_page_kind_matches_golden(tagged, golden):
    """One page of each kind that PAGES and TAGGED_PAGES do not pick (the tagged fixture makes a
    page of every kind): none today; a new kind fails here until `pytest --update-golden` writes its
    golden page under tests/golden/tagged/."""
    _, pages, files = tagged
    for page in first_of_each_kind(pages, PAGES + TAGGED_PAGES):
        golden(f"tagged/{page}", files[page].decode("utf-8"))


@pytest.mark.parametrize("page", TAGGED_PAGES)
def test_tagged_page_matches_golden(tagged, golden, page):
    golden(f"tagged/{page}", tagged[2][page].decode("utf-8"))


@pytest.mark.parametrize("page", PAGES)
def test_page_matches_golden(rendered, golden, page):
    golden(f"pages/{page}", rendered[page].decode("utf-8"))


def _data_file(path: str) -> bool:
    """An API record (the schemas aside: they are copied from generator/schemas), a feed or the calendar."""
    api = path.startswith("api/") and path.endswith((".json", ".yaml")) and not path.endswith("schema.json")
    return api or path.endswith((".xml", ".ics"))


def _readable(path: str, data: bytes) -> str:
    """A data file as its golden file holds it: JSON indented (the API writes it compact, on one
    line), the calendar's CRLF line ends as newlines (test_calendar_feeds reads it as iCalendar)."""
    if path.endswith(".json"):
        return json.dumps(json.loads(data), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    return data.decode("utf-8").replace("\r\n", "\n")


def test_api_records_feeds_and_calendar_match_golden(rendered, golden):
    """The fixture's API records, Atom feeds and calendar, each against its golden file, and no
    golden file left over from a file the render no longer makes."""
    made = sorted(path for path in rendered if _data_file(path))
    assert len(made) >= 20 and "calendar.ics" in made and "feed.xml" in made
    differ = []
    for path in made:
        try:
            golden(f"data/{path}", _readable(path, rendered[path]))
        except AssertionError as e:
            differ.append(str(e).splitlines()[0])
    assert differ == []
    folder = Path(__file__).parent / "golden" / "data"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == made


def test_every_page_names_its_source(rendered):
    for path, data in rendered.items():
        if path.endswith(".md"):
            assert b"<!-- Generated by `python -m generator build` from content/" in data, path


def test_write_only_changed_files(tmp_path, rendered):
    docs = tmp_path / "docs"
    assert sorted(write_changed(rendered, docs)) == sorted(rendered)
    stamp = (docs / "releases/2.8/index.md").stat().st_mtime_ns
    assert write_changed(rendered, docs) == []
    assert (docs / "releases/2.8/index.md").stat().st_mtime_ns == stamp
    changed = dict(rendered)
    changed["releases/2.8/index.md"] += b"\n"
    (docs / "stale.md").write_text("left over")
    assert write_changed(changed, docs) == ["releases/2.8/index.md"]
    assert not (docs / "stale.md").exists()


def test_release_page_links_every_pr_and_anchors_every_feature(rendered):
    page = rendered["releases/2.8/index.md"].decode()
    assert "{ #widget-compiler }" in page and "{ #mesh }" in page
    assert "https://github.com/pytorch/pytorch/pull/201" in page
    assert 'id="pr-301"' in page and 'id="pr-302"' in page and 'id="pr-303"' in page


def test_a_changes_first_pr_anchor_is_its_first_paragraphs_id(rendered):
    """Where the anchor is: on the record's first paragraph (or code block), the others on empty
    spans before it, all at the top of the change."""
    page = rendered["releases/2.8/index.md"].decode()
    assert '<span id="pr-303"></span><p id="pr-302">Faster all' in page
    assert '<span id="pr-301">' not in page and '<p id="pr-301"><code>torch.cat</code>' in page
    assert textfilters.blocks("```\nx = 1\n```", "pr-7").startswith('<pre id="pr-7"><code>x')
    assert textfilters.blocks("", "pr-7") == '<span id="pr-7"></span>'
    with pytest.raises(ValueError):
        textfilters.blocks("text", 'pr-7" onclick="x')


def test_backend_matrix_labels_each_cell_in_text(rendered):
    page = rendered["backends/cuda/index.md"].decode()
    # Beta in 2.7, API-Stable in 2.8: labels, not colour alone.
    assert ">Beta</a></td>" in page and ">Stable</a></td>" in page
    assert "Deprecated" in page


def test_macro_html_marks_only_what_a_macro_wrote():
    """`macro_html` lets a macro's HTML through unescaped; on a data value it would be a hole."""
    import re

    texts = {path.name: path.read_text(encoding="utf-8") for path in TEMPLATES.rglob("*.j2")}
    macros = {m for text in texts.values() for m in re.findall(r"{%-? macro (\w+)", text)}
    for name, text in texts.items():
        for use in re.finditer(r"\|\s*macro_html", text):
            before = text[: use.start()].rstrip()
            depth, i = 0, len(before) - 1
            while i >= 0:  # back to the "(" that opens the call the filter follows
                depth += {")": 1, "(": -1}.get(before[i], 0)
                if depth == 0:
                    break
                i -= 1
            called = re.search(r"(\w+)$", before[:i])
            assert before.endswith(")") and called and called[1] in macros, (name, before[-60:])


# A build shares its pages with a forked child (render.render_site). Checked in a fresh
# interpreter: the test session may run threads (the served site), and a process with threads
# never forks.
_BOTH_WAYS = r"""
import os, sys
from pathlib import Path
from generator.render import render as R
from generator.util import forked
from generator.pipeline.build import site_model

site = site_model(Path(sys.argv[1]))
made, page_file, parent = [], R._page_file, os.getpid()


class Spy(forked.Forked):
    def __init__(self, work):
        made.append(1)
        super().__init__(work)


def dying(*args):  # the child dies before it hands anything back
    if os.getpid() != parent:
        os._exit(3)
    return page_file(*args)


def run(parallel_from, parse=page_file):
    R.PARALLEL_FROM, forked.Forked, R._page_file = parallel_from, Spy, parse
    files = R.render_site(site).files
    return list(files.items())


here = run(10**9)
assert not made
together = run(1)
dead = run(1, dying)
assert made == [1, 1], made
real_fork = os.fork
os.fork = lambda: (_ for _ in ()).throw(OSError(12, "Cannot allocate memory"))  # no child can start
unforked = run(1)
os.fork = real_fork
print("same" if here == together == dead == unforked else "differ")
"""


def test_pages_rendered_in_a_forked_child_are_the_bytes_rendered_here():
    """The real site: the same files in the same order whether a child renders some of the pages
    or this process all, when the child dies before handing them back, and when none can start."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", _BOTH_WAYS, str(root / "content")], capture_output=True, text=True, cwd=root, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "same"


def test_the_render_the_search_index_and_the_manifest_read_one_page_list(monkeypatch):
    """The page list is listed once per model (Site.pages), by the pipeline, and every reader of it
    (the render, the search index's names and records, the URL manifest) reads that one."""
    from generator.pipeline import manifest
    from generator.pipeline.build import site_model
    from generator.search import records as search

    listed = []
    page_list = pages.page_list
    monkeypatch.setattr(pages, "page_list", lambda site, *how: listed.append(site) or page_list(site, *how))
    site = site_model(FIXTURE)
    assert len(listed) == 1
    rendered = render_all(site)
    meta = search.page_meta(site)
    search.records(site, meta)
    assert {p.url for p in site.pages} <= manifest.published(site)
    assert len(listed) == 1
    assert {urls.source(url) for url in meta} <= set(rendered)
