"""End to end: the real content builds with mkdocs --strict, and every link in it resolves."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import yaml

from tests.browser import PAGE_KINDS
from tests.conftest import LATEST, ROOT, RealBuild, real_model
from tests.crawl import broken_links

CONTENT = ROOT / "content"
RELEASES = [
    "2.0",
    "2.1",
    "2.2",
    "2.3",
    "2.4",
    "2.5",
    "2.6",
    "2.7",
    "2.8",
    "2.9",
    "2.10",
    "2.11",
    "2.12",
    "2.13",
    "2.14",
]


def test_real_site_builds_and_every_internal_link_resolves(real_build: RealBuild):
    real_site = real_build.site
    assert (real_site / "index.html").exists()
    for version in RELEASES:
        assert (real_site / "releases" / version / "index.html").exists(), version
    for page in ("releases", "features", "backends", "tiers", "contributors", "compatibility"):
        assert (real_site / page / "index.html").exists(), page
    assert broken_links(real_site, base=real_build.url) == []  # 404.html links from the site's own path


def test_fixture_site_links_resolve(fixture_site: Path):
    assert broken_links(fixture_site) == []
    assert (fixture_site / "features/widget-compiler/index.html").exists()


def test_item_pages_stay_out_of_the_nav(real_site: Path):
    """The nav lists index pages only, so its size does not grow with the number of items."""
    html = (real_site / "features/torch-compile/index.html").read_text(encoding="utf-8")
    start = html.index('<nav class="md-nav md-nav--primary')
    nav = html[start : html.index('<div class="md-content"', start)]
    assert "Releases" in nav and "Backends" in nav
    assert "releases/2.12/" not in nav and "features/flex-attention/" not in nav and "backends/cuda/" not in nav


def test_crawler_reports_a_broken_link_and_anchor(tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="a/">ok</a><a href="b/">gone</a><a href="a/#nope">x</a><p id="here"></p><a href="#here">y</a>'
    )
    (tmp_path / "a/index.html").write_text("<h1 id='top'>A</h1><a href='../../a/'>one ../ too many</a>")
    assert broken_links(tmp_path) == [
        "a/index.html -> ../../a/ (above the site's root)",
        "index.html -> b/",
        "index.html -> a/#nope (no such anchor)",
    ]


def test_counts_of_the_issue_releases():
    site = real_model()
    by_version = {r.version: r for r in site.releases}
    assert [r.version for r in site.releases] == RELEASES
    assert (by_version["2.0"].commits, by_version["2.0"].contributor_count) == (4541, 428)
    assert (by_version["2.11"].commits, by_version["2.11"].contributor_count) == (2723, 432)
    assert (by_version["2.12"].commits, by_version["2.12"].contributor_count) == (2926, 457)
    assert (by_version["2.13"].commits, by_version["2.13"].contributor_count) == (3328, 526)
    assert (by_version["2.14"].commits, by_version["2.14"].contributor_count) == (2995, 487)


def test_every_announced_feature_is_present():
    """Coverage: each feature a release's tier table or highlights name is in its YAML."""
    site = real_model()
    # An entry answers to its id and to its former ids (a feature renamed or split keeps them).
    by_version = {r.version: {i for e in r.entries for i in (e.id, *e.aliases)} for r in site.releases}
    files = sorted((ROOT / "tests/data/announced").glob("*.yaml"))
    assert sorted(f.stem for f in files) == sorted(RELEASES)
    missing = []
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert data["release"] == path.stem
        assert data["features"], path
        for item in data["features"]:
            if item["id"] not in by_version[data["release"]]:
                missing.append(f"{path.stem}: {item['name']} ({item['id']})")
    assert missing == []


def test_lifecycles_span_releases_and_backends_have_rows():
    site = real_model()
    spanning = [f for f in site.features if len({e.release for e in f.entries}) >= 2]
    assert len(spanning) >= 20, [f.id for f in spanning]
    for view in site.backend_views:
        assert view.matrix.rows, view.backend.id
    for version in RELEASES:
        release = next(r for r in site.releases if r.version == version)
        assert release.compatibility is not None, version
    compile_ = site.feature_by_id["torch-compile"]
    assert compile_.first == "2.0"


def test_matrix_rows_cover_every_release_and_grow_with_entries_not_releases():
    site = real_model()
    for row in site.timeline[0].rows:
        assert sum(c.span for c in row.cells) == len(RELEASES), row.feature.id
        # At most: one leading run, each entry, one run after each entry, and one more split
        # where the tier vocabulary changes (Beta carried into 2.8 reads Unstable).
        assert len(row.cells) <= 2 * len(row.feature.entries) + 2, row.feature.id
    compile_row = next(r for r in site.timeline[0].rows if r.feature.id == "torch-compile")
    carried = [c for c in compile_row.cells if c.entry is None and c.span > 1]
    assert carried and all(c.last for c in carried)


def test_every_breaking_change_and_deprecation_says_what_to_do():
    """Every release with a change list (2.5 onwards): each breaking change and deprecation has a note
    of ours (a full sentence) and a kind; each tracked regression says what fails and how to avoid it."""
    from generator.model.content import CHANGE_KINDS

    site = real_model()
    checked: dict[str, int] = {}
    regressions: dict[str, int] = {}
    for release in site.releases:
        for change in release.changes:
            where = f"{release.version}: {change.text[:80]}"
            if change.section == "tracked-regressions":
                assert change.note and len(change.note.split()) >= 6, where
                assert change.workaround and change.workaround.rstrip().endswith("."), where
                regressions[release.version] = regressions.get(release.version, 0) + 1
            if change.section not in ("bc-breaking", "deprecations"):
                continue
            assert change.note and len(change.note.split()) >= 6 and change.note.rstrip().endswith((".", ")")), where
            assert change.kind in CHANGE_KINDS, where
            checked[release.version] = checked.get(release.version, 0) + 1
    assert sum(checked.values()) >= 160
    # The notes list 9 + 3 of them for 2.13 and 13 + 8 for 2.14, and one tracked regression each.
    assert (checked.get("2.13"), checked.get("2.14")) == (12, 21)
    assert (regressions.get("2.13"), regressions.get("2.14")) == (1, 1)


def test_upgrade_guide_lists_default_changes_from_every_section_and_leaves_out_what_asks_nothing(real_site: Path):
    """Issue #22: the defaults ledger (/upgrade/defaults/, linked from /upgrade/#defaults, issue #25)
    holds default changes the notes give outside their breaking section, with the way back where
    the notes name one; a change noted as asking nothing stays out."""
    guide = (real_site / "upgrade" / "index.html").read_text(encoding="utf-8")
    assert 'id="defaults"' in guide and 'href="defaults/"' in guide
    page = (real_site / "upgrade" / "defaults" / "index.html").read_text(encoding="utf-8")
    defaults = page[page.index("<table") :]
    rows = {pr: defaults[defaults.index(f"#{pr})") :].split("</tr>", 1)[0] for pr in (137205, 172674)}
    assert "<code>options={&#34;reorder_for_peak_memory&#34;: False}</code>" in rows[137205]
    assert "5 minutes" in rows[172674]
    site = real_model()
    views = [
        v
        for r in site.releases
        for s in site.release_views[r.version].sections
        for area in s.areas
        for v in area.changes
    ]
    quiet = [v for v in views if v.change.kind == "no-action"]
    assert len(quiet) >= 14 and all(v.group == "" for v in quiet)
    for v in quiet:
        assert f'href="../../releases/{v.change.release}/#{v.anchor}"' not in page, v.change.text


def test_family_pages_tell_each_family_across_its_releases():
    """Issue #12's done-when: a family page answers "what happened to X from 2.1 to 2.12"."""
    site = real_model()
    at_least = {"torch-compile": 8, "torch-export": 5, "aotinductor": 3, "flex-attention": 6}
    for fid, releases in at_least.items():
        page = site.family_by_id.get(fid)
        touched = (
            [r.version for r, _ in page.by_release] if page else [e.release for e in site.feature_by_id[fid].entries]
        )
        assert len(touched) >= releases, (fid, touched)
    flex = site.feature_by_id["flex-attention"]
    assert "cuda" in flex.backends
    fa4 = [e for e in flex.entries if e.release == "2.11"]
    assert fa4 and "FlashAttention-4" in fa4[0].title and fa4[0].backends == ("cuda",)
    sdpa = site.feature_by_id["sdpa"]
    assert (sdpa.first, sdpa.entries[0].tier) == ("2.0", "beta")
    assert site.feature_by_id["accelerated-transformers"].entries[0].tier == "stable"
    # Every member of torch.export's family shows on its page, AOTInductor's members one level deeper.
    export = site.family_by_id["torch-export"]
    depth = {row.feature.id: row.depth for row in export.matrix.rows}
    assert depth["torch-export"] == 0 and depth["mx-formats"] == 1 and depth["aotinductor-freezing"] == 2
    # CUTLASS and CK are Inductor's GEMM backends (issue #22): TorchInductor's page, not export's.
    assert "inductor-cutlass-backend" not in depth
    inductor = {row.feature.id for row in site.family_by_id["torchinductor"].matrix.rows}
    assert "inductor-cutlass-backend" in inductor
    njt = [e for e in flex.entries if e.release == "2.10"]
    assert njt and njt[0].change == "part-removed" and "nested" in njt[0].title.lower()


def test_every_entry_names_a_catalogue_feature_whose_area_it_takes():
    site = real_model()
    catalogue = {f.id: f for f in site.content.catalogue}
    for release in site.releases:
        for entry in release.entries:
            assert entry.area == catalogue[entry.id].area, (release.version, entry.id)
    assert all(f.about.strip() and "TODO" not in f.about for f in site.content.catalogue)


def test_former_ids_still_resolve(real_site: Path):
    """Renamed and split features keep their old page (a redirect) and their old anchors."""
    for old, new in {
        "fx-graph-cache": "inductor-fx-graph-cache",
        "flash-attention-4": "flex-attention",
        "max-autotune": "max-autotune-cpu",
        "cuda-graphs": "cuda-graph-annotations",
        "python-3.11-support": "python-3.11-wheels",
        "python-3.12-support": "torch-compile-python-3.12",
    }.items():
        assert f"../{new}/" in (real_site / "features" / old / "index.html").read_text()
    for version, anchor in {
        "2.11": "flash-attention-4",
        "2.10": "python-3.14-support",
        "2.7": "fx-graph-cache",
    }.items():
        assert f'id="{anchor}"' in (real_site / "releases" / version / "index.html").read_text(), (version, anchor)


def test_lifecycle_cells_hold_tiers_and_show_the_change_beside_them():
    """A strip's tier slot names a tier (or "No tier"), never a change kind; what the release did
    ("Improved", "New") is the cell's change, shown beside the tier."""
    from generator.model.content import CHANGE_LABELS, NO_TIER

    site = real_model()
    tier_labels = {t.label for t in site.content.tiers} | {NO_TIER, ""}
    carried_improvement = None
    for feature in site.features:
        for cell in feature.cells:
            assert cell.label in tier_labels, (feature.id, cell)
            if cell.entry is not None:
                assert cell.change == CHANGE_LABELS[cell.entry.change]
                if cell.entry.change == "improved" and not cell.entry.tier and cell.tier:
                    carried_improvement = cell
    # An improvement that restates no tier shows the tier in force, with "Improved" beside it.
    assert carried_improvement is not None
    assert carried_improvement.label == site.tier_by_id[carried_improvement.tier].label


def test_home_is_a_way_in(real_site: Path):
    """The home page's title names the site once; its search box and upgrade picker are plain GET
    forms (they work without JavaScript); the glance table labels every cell in text."""
    import re

    html = (real_site / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<title>\s*PyTorch Release Atlas\s*</title>", html)
    assert html.count("PyTorch Release Atlas - PyTorch Release Atlas") == 0
    search = re.search(
        r'<div class="atlas-home-search" data-atlas-search-home[^>]*>\s*<form role="search" method="get" action="([^"]+)"',
        html,
    )
    assert search and search[1] == "search/"
    assert re.search(r'<input id="atlas-home-q" name="q"', html)
    picker = re.search(
        r'<form class="atlas-compare atlas-home-upgrade" method="get" action="([^"]+)"(.*?)</form>', html, re.S
    )
    assert picker and picker[1] == "upgrade/"
    assert all(f'name="{name}"' in picker[2] for name in ("from", "to", "backend"))
    assert (
        f'<option value="{RELEASES[-2]}" selected>' in picker[2] and f'<option value="{LATEST}" selected>' in picker[2]
    )
    table = re.search(r'<table class="atlas-matrix atlas-glance".*?</table>', html, re.S)[0]
    cells = re.findall(r'<td class="atlas-cell ([^"]+)"[^>]*>(.*?)</td>', table)
    coloured = [(css, text) for css, text in cells if css != "empty"]
    assert len(coloured) > 50
    for css, text in coloured:  # colour only repeats what the text says
        assert re.match(r'<abbr title="[A-Z][a-z -]+">[PBSUDRN]</abbr>', text), (css, text)
    legend = re.search(r'<p class="atlas-legend">(.*?)</p>', html, re.S)[1]
    for abbr in set(re.findall(r">([PBSUDRN])</abbr>", table)):
        assert f">{abbr}</span>" in legend, abbr
    # On the way out: 2.13's deprecation of the tensor collective names, and a removal that shipped late.
    assert 'id="deprecated"' in html and "deprecated in 2.13" in html and "which shipped without it" in html


def test_changes_naming_a_features_api_show_on_its_page():
    """A change whose record line names flex_attention or fully_shard is on that feature's page,
    and most breaking changes and deprecations are tied to a feature (the rest fit none)."""
    site = real_model()
    views = [
        view
        for release in site.releases
        for section in site.release_views[release.version].sections
        for area in section.areas
        for view in area.changes
    ]
    # FSDP2's API is `fully_shard`: not FSDP1's module `fully_sharded_data_parallel` (2.0), nor 2.3's
    # "composable API fully_shard", the FSDP1-based API of that name, deprecated for the wrapper.
    patterns = {
        "flex-attention": r"flex_attention|flexattention",
        "fsdp2": r"(?<!composable API )fully_shard\b|\bfsdp2\b",
    }
    for fid, pattern in patterns.items():
        naming = [v for v in views if re.search(pattern, v.change.text.split("\n")[0], re.I)]
        assert len(naming) >= 30, fid
        on_page = {v.anchor for _, v in site.feature_changes[fid]}
        assert [v.change.text for v in naming if v.anchor not in on_page] == []
    acting = [v for v in views if v.change.section in ("bc-breaking", "deprecations")]
    assert len([v for v in acting if v.features]) >= 90, len(acting)


def test_browser_tests_visit_one_page_of_every_kind():
    kinds = {page.template for page in real_model().pages}
    assert set(PAGE_KINDS) == kinds


def test_family_pages_show_what_moved_there(real_site: Path):
    """Issue #22's done-when, as a reader sees it: CUTLASS/CK on TorchInductor's page, the 2.10
    removal of nested jagged tensors on FlexAttention's."""
    inductor = (real_site / "features" / "torchinductor" / "index.html").read_text(encoding="utf-8")
    assert "CUTLASS and CK GEMM backends" in inductor
    export = (real_site / "features" / "torch-export" / "index.html").read_text(encoding="utf-8")
    assert "CUTLASS and CK GEMM backends" not in export
    flex = (real_site / "features" / "flex-attention" / "index.html").read_text(encoding="utf-8")
    assert "Nested jagged tensors no longer accepted by FlexAttention" in flex and "Partly removed" in flex


def test_the_ledger_follows_a_deprecation_to_its_removal(real_site: Path):
    """Issue #20: 2.14 removes APIs deprecated long before the change lists begin, and schedules
    `setup.py`'s end: /deprecations/ shows both, each with its release and what to do."""
    html = unescape((real_site / "deprecations/index.html").read_text(encoding="utf-8"))
    earlier = html.split('id="removals-of-earlier-deprecations"', 1)[1]
    for removed, instead in (("torch.cholesky()", "torch.linalg.cholesky()"), ("torch.qr()", "torch.linalg.qr()")):
        row = next(r for r in earlier.split("<tr>") if removed in r)
        assert "<td>2.14</td>" in row and instead in row, row
    ledger = html.split('id="removals-of-earlier-deprecations"', 1)[0]
    setup = next(r for r in ledger.split("<tr>") if "setup.py</code> is now a deprecation shim" in r)
    assert ">2.18</a>" in setup and ">2.14</a>" in setup, setup  # each release links its evidence


def test_a_release_page_says_what_its_partial_change_list_covers(real_site: Path):
    """Issue 35: the change lists of 2.0 (a draft), 2.3 (an SQL copy) and 2.4 (three sections of
    the notes) say so on their release pages, over the changes and over the upgrade step; a
    release imported from its complete notes says nothing of the kind."""
    site = real_model()
    covered = {r.version: r.coverage for r in site.releases if r.coverage}
    assert set(covered) == {"2.0", "2.3", "2.4"}
    assert "deprecations and new features only" in covered["2.4"] and "draft" in covered["2.0"]
    for version, words in covered.items():
        page = (real_site / "releases" / version / "index.html").read_text(encoding="utf-8")
        shown = [unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(r'class="atlas-coverage">(.*?)</p>', page)]
        assert shown == [f"What this change list covers: {' '.join(words.split())}"] * 2, version
    assert 'class="atlas-coverage"' not in (real_site / "releases" / "2.5" / "index.html").read_text(encoding="utf-8")
