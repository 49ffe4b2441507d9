"""One truth: every surface of the built site states each feature's standing and ending as the
model does (tests/one_truth.py), on the real site, and each check fails when its surface lies."""

from __future__ import annotations

import shutil

import pytest

from generator.model import urls
from tests.conftest import FIXTURE, real_model
from tests.one_truth import disagreements


def test_every_surface_of_the_real_site_states_one_standing_and_one_ending(real_site):
    site = real_model()
    assert len(site.features) > 150
    assert disagreements(real_site, site) == []


# One broken surface at a time: (file, what it says, what a lie says instead).
BROKEN = [
    (
        "features/widget-compiler/index.html",
        "Tier now:</strong> API-Stable since 2.8",
        "Tier now:</strong> API-Stable since 2.7",
    ),
    ("features/widget-compiler/index.html", "MPS</a> (API-Unstable since 2.8", "MPS</a> (API-Unstable since 2.7"),
    (
        "features/widget-compiler/index.html",
        'og:description" content="Widget compiler: API-Stable since 2.8',
        'og:description" content="Widget compiler: API-Stable since 2.7',
    ),
    ("features/index.html", "API-Stable since 2.8", "API-Stable"),
    ("badges/widget-compiler.svg", "API-Stable since 2.8</title>", "API-Stable since 2.7</title>"),
    ("badges/widget-compiler/mps.svg", "API-Unstable since 2.8</title>", "API-Unstable since 2.7</title>"),
    ("api/v1/features/widget-compiler.json", '"status":"API-Stable since 2.8"', '"status":"API-Stable since 2.7"'),
    ("api/v1/features.json", '"status":"API-Stable since 2.8"', '"status":"Beta since 2.7"'),
    (
        "backends/mps/index.html",
        'href="../../releases/2.7/#widget-compiler"',
        'href="../../releases/2.8/#widget-compiler"',
    ),
    ("deprecations/index.html", 'tier-deprecated">Deprecated</span>', 'tier-removed">Removed</span>'),
]


@pytest.mark.parametrize("rel, says, lie", BROKEN, ids=[f"{b[0]}:{b[2][:20]}" for b in BROKEN])
def test_each_surface_check_fails_when_its_surface_lies(fixture_site, tmp_path, rel, says, lie):
    from generator.pipeline.build import site_model

    model = site_model(FIXTURE)
    copy = tmp_path / "site"
    shutil.copytree(fixture_site, copy)
    assert disagreements(copy, model) == []
    path = copy / rel
    page = path.read_text(encoding="utf-8")
    assert says in page, f"{rel} no longer says {says!r}: update the broken fixture"
    path.write_text(page.replace(says, lie, 1), encoding="utf-8")
    assert disagreements(copy, model), f"a lie in {rel} went unnoticed"


def test_the_search_record_check_fails_when_a_description_lies(monkeypatch):
    from generator.pipeline.build import site_model
    from generator.search import records as search

    model = site_model(FIXTURE)
    real = search.page_meta
    url = urls.feature("widget-compiler")

    def lying(site):
        meta = dict(real(site))
        meta[url] = (meta[url][0], meta[url][1].replace("since 2.8", "since 2.7"))
        return meta

    monkeypatch.setattr(search, "page_meta", lying)
    assert any("search record" in m for m in disagreements(FIXTURE.parent / "nowhere", model))


# ---------------------------------------------------------------- the contradictions readers found


def _row(site, words):
    return next(r for r in site.ledger if words in r.title)


def test_2d_parallel_says_one_since_on_its_badge(real_site):
    site = real_model()
    f = site.feature_by_id["2d-parallel"]
    assert f.standing.words == "API-Unstable since 2.8"
    assert f.standing.announced_words == "announced as Prototype in 2.0"
    badge = (real_site / urls.badge("2d-parallel")).read_text(encoding="utf-8")
    assert "API-Unstable since 2.8" in badge and "since 2.0" not in badge


def test_the_ledger_classifies_by_what_a_change_does():
    site = real_model()
    titles = [r.title for r in site.ledger]
    # Not an ending at all, and a removal with no deprecation before it: neither is a ledger row.
    assert not [t for t in titles if "copy metadata from fw to bw nodes" in t]
    assert not [t for t in titles if "CompileProfiler" in t]
    # torch.ao.quantization: overdue, and the PT2E half removed in 2.11 said beside it.
    ao = _row(site, "torch.ao.quantization")
    assert (ao.status, ao.ending.part_removed_in) == ("overdue", "2.11")
    assert ao.ending.words.startswith("Deprecated in 2.8; part removed in 2.11")
    # 2.12's fullgraph=True warning "will error in 2.13": the 2.13 notes record no such error (#183623
    # relaxes one), so the announced release shipped without it. TorchScript keeps all of itself:
    # the six.h header's removal is no part of it (its record's ends: [] says so).
    full = _row(site, "fullgraph=True")
    assert (full.status, full.removed_in) == ("overdue", None)
    assert site.feature_by_id["torchscript"].ending.part_removed_in is None
    # Python 3.8: 2.5's compatibility row starts at 3.9, so it went in 2.5, as 3.7 went in 2.0.
    py38 = _row(site, "Python 3.8")
    assert (py38.status, py38.removed_in) == ("removed", "2.5")
    assert (site.feature_by_id["python-3.7-support"].ending.status) == "removed"


def test_no_markup_from_the_notes_shows_as_text(real_site):
    page = (real_site / urls.release("2.5") / "index.html").read_text(encoding="utf-8")
    assert "#134877" in page  # 2.5's record "… `dynamic_shapes` (#134877)<br>"
    for path in [real_site / urls.release("2.5") / "index.html", *real_site.glob("*/index.html")]:
        assert "&lt;br" not in path.read_text(encoding="utf-8"), path


def test_the_2_14_page_counts_what_its_upgrade_steps_count(real_site):
    from tests.one_truth import text

    site = real_model()
    view = site.release_views["2.14"]
    steps = {g.id: len(g.changes) + len(g.entries) for g in view.upgrade}
    page = text((real_site / urls.release("2.14") / "index.html").read_text(encoding="utf-8"))
    block = page[page.index("Deprecations and removals ¶") :]
    assert f"Removals {steps['removals']} —" in block and f"Deprecations {steps['deprecations']} —" in block
    assert steps["removals"] >= 7 and steps["deprecations"] >= 7
    bc = next(s.count for s in view.sections if s.section == "bc-breaking")
    assert f"of the notes' {bc} backwards-incompatible changes, " in page
    for title, n in view.bc_split:
        assert f"{n} {'is' if n == 1 else 'are'} under {title}" in page


def test_pages_state_facts_not_the_sites_history(real_site):
    for rel in ("features/torch-compile-python-3.13", "features/python-3.14-wheels", "features/max-autotune-cpu"):
        page = (real_site / rel / "index.html").read_text(encoding="utf-8")
        assert "still leads here" not in page and "was called" not in page, rel


def test_a_carried_out_pr_no_later_change_cites_fails_check(content_copy):
    from generator.model.errors import ContentError
    from generator.pipeline.build import site_model

    path = content_copy / "changes" / "2.8.yaml"
    text = path.read_text(encoding="utf-8")
    marker = "  - section: improvements\n"
    assert marker in text
    path.write_text(
        text.replace(
            marker,
            '  - section: deprecations\n    area: CUDA\n    text: "`torch.old_op` is deprecated (#304)"\n'
            "    prs: [304]\n    kind: behaviour-change\n    note: Call the new op.\n    carried_out: 99999\n" + marker,
            1,
        ),
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as info:
        site_model(content_copy)
    said = [str(p) for p in info.value.problems]
    assert any("changes/2.8.yaml:" in p and "no later release's change list cites PR 99999" in p for p in said), said
