"""The enrich stage on the small fixture: what each computed field shows a reader.

The fixture has two releases: 2.7 (maturity vocabulary: Widget compiler new in Beta on CUDA and MPS,
Old wheel deprecated for removal in 2.9) and 2.8 (API-stability vocabulary: Widget compiler promoted
to API-Stable on CUDA, Mesh new without a tier, and three imported changes). Tests that need more
add a release or edit a line of a copy, so each failure points at one computed field.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from generator.enrich import changeviews, facts
from generator.enrich.enrich import enrich
from generator.load.load import load
from generator.model import urls
from generator.model.computed import Site
from generator.model.content import tier_at
from generator.pipeline.build import site_model
from tests.conftest import FIXTURE


def edit(content: Path, rel: str, old: str, new: str) -> None:
    """Replace the first `old` in content/rel by `new` (the text must be there)."""
    path = content / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def add_release(content: Path, version: str, previous: str, date: str, features: str = " []") -> None:
    """A release file announcing `features` (YAML under `features:`), in the API-stability era."""
    (content / "releases" / f"{version}.yaml").write_text(
        f'version: "{version}"\ndate: {date}\nprevious: "{previous}"\n'
        f'counts: {{commits: 1, contributors: 1, source: "https://example.org/{version}"}}\n'
        f"tier_vocabulary: api-stability\nsummary: Fixture release {version}.\n"
        f'links: {{notes: "https://example.org/notes/{version}"}}\nfeatures:{features}\n',
        encoding="utf-8",
    )


def add_changes(content: Path, version: str, changes: str) -> None:
    """content/changes/<version>.yaml holding `changes` (YAML list items)."""
    (content / "changes" / f"{version}.yaml").write_text(
        f'release: "{version}"\nsource: https://example.org/notes/{version}\nchanges:\n{changes}', encoding="utf-8"
    )


@pytest.fixture(scope="module")
def site() -> Site:
    """The fixture, enriched once for the tests that only read it."""
    return site_model(FIXTURE)


def strip(cells) -> list[tuple]:
    """A lifecycle strip as a reader sees it: release (or range), tier label, change, colour class."""
    return [(c.release + (f"–{c.last}" if c.span > 1 else ""), c.label, c.change, c.css) for c in cells]


def change(site: Site, version: str, anchor: str):
    """The ChangeView at `anchor` on the release page of `version`."""
    views = [v for s in site.release_views[version].sections for a in s.areas for v in a.changes]
    return next(v for v in views if v.anchor == anchor or anchor in v.change.text)


# ---------------------------------------------------------------- lifecycle cells and runs


def test_cells_show_the_stated_tier_and_carry_it_into_releases_that_do_not_restate_it(site):
    features = site.feature_by_id
    assert strip(features["widget-compiler"].cells) == [
        ("2.7", "Beta", "New", "tier-beta"),
        ("2.8", "Stable", "Promoted", "tier-api-stable"),
    ]
    # Deprecated in 2.7, not mentioned in 2.8: the tier is carried, muted, with no change beside it.
    assert strip(features["old-wheel"].cells) == [
        ("2.7", "Deprecated", "Deprecated", "tier-deprecated"),
        ("2.8", "Deprecated", "", "tier-deprecated carried"),
    ]
    # An entry without a tier reads "No tier", not an empty slot.
    assert strip(features["mesh"].cells) == [("2.8", "No tier", "New", "untiered")]


def test_a_carried_tier_reads_in_the_vocabulary_of_the_release_it_is_carried_into(site):
    # 2.8 drops MPS from Widget compiler: MPS's strip carries Beta into 2.8, where it is called Unstable.
    cells = dict(site.feature_by_id["widget-compiler"].backend_cells)
    assert strip(cells["mps"]) == [
        ("2.7", "Beta", "New", "tier-beta"),
        ("2.8", "Unstable", "", "tier-api-unstable carried"),
    ]
    assert strip(cells["cuda"])[-1] == ("2.8", "Stable", "Promoted", "tier-api-stable")


def test_backend_strips_are_left_out_when_every_backend_tells_the_same_story(content_copy):
    edit(content_copy, "releases/2.8.yaml", "backends: [cuda]\n", "backends: [cuda, mps]\n")
    assert site_model(content_copy).feature_by_id["widget-compiler"].backend_cells == ()


def test_timeline_rows_line_up_under_every_release_and_list_their_tiers(site):
    rows = {r.feature.id: r for r in site.timeline[0].rows}
    assert site.timeline[0].releases == ("2.7", "2.8")
    assert strip(rows["mesh"].cells) == [("2.7", "", "", "empty"), ("2.8", "No tier", "New", "untiered")]
    assert rows["widget-compiler"].tiers == ("beta", "api-stable")
    assert rows["mesh"].tiers == ()


def test_releases_that_do_not_mention_a_feature_merge_into_one_cell(content_copy):
    add_release(content_copy, "2.9", "2.8", "2025-10-15")
    add_release(content_copy, "2.10", "2.9", "2026-01-21")
    site = site_model(content_copy)
    assert strip(site.feature_by_id["widget-compiler"].cells) == [
        ("2.7", "Beta", "New", "tier-beta"),
        ("2.8", "Stable", "Promoted", "tier-api-stable"),
        ("2.9–2.10", "Stable", "", "tier-api-stable carried"),
    ]
    mesh = {r.feature.id: r for r in site.timeline[0].rows}["mesh"]
    assert strip(mesh.cells) == [
        ("2.7", "", "", "empty"),
        ("2.8", "No tier", "New", "untiered"),
        ("2.9–2.10", "", "", "empty"),
    ]


def test_a_removed_feature_shows_nothing_after_its_removal(content_copy):
    removal = (
        "\n  - {id: old-wheel, title: Old wheel, tier: removed, change: removed, backends: [cuda],"
        " highlight: false, summary: Gone., source: https://example.org/2.9}"
    )
    add_release(content_copy, "2.9", "2.8", "2025-10-15", removal)
    add_release(content_copy, "2.10", "2.9", "2026-01-21")
    feature = site_model(content_copy).feature_by_id["old-wheel"]
    assert strip(feature.cells) == [
        ("2.7", "Deprecated", "Deprecated", "tier-deprecated"),
        ("2.8", "Deprecated", "", "tier-deprecated carried"),
        ("2.9", "Removed", "Removed", "tier-removed"),
        ("2.10", "", "", "gone"),
    ]
    assert (feature.deprecated_in, feature.removal_planned, feature.removed_in) == ("2.7", "2.9", "2.9")


def test_a_feature_summarises_its_entries(site):
    compiler = site.feature_by_id["widget-compiler"]
    assert compiler.first == "2.7"
    assert compiler.standing.words == "API-Stable since 2.8"
    assert compiler.backends == ("cuda", "mps")
    assert compiler.prs == (101, 102, 201)
    assert compiler.contributors == ("Ada Lovelace", "Grace Hopper")
    assert [n.id for n in compiler.family] == ["widgets"]
    assert site.feature_by_id["mesh"].standing.tier is None
    assert [(a.id, [f.title for f in fs]) for a, fs in site.features_by_area] == [
        ("compiler", ["Mesh", "Widget compiler"]),
        ("packaging", ["Old wheel"]),
    ]


# ---------------------------------------------------------------- tier at a release


def test_tier_at_names_a_tier_in_the_vocabulary_of_the_release(site):
    old, new = site.releases
    tiers = site.tier_by_id
    assert tier_at(tiers["beta"], new, tiers).id == "api-unstable"
    assert tier_at(tiers["api-stable"], old, tiers).id == "stable"
    assert tier_at(tiers["beta"], old, tiers).id == "beta"
    assert tier_at(tiers["deprecated"], new, tiers).id == "deprecated"  # a tier of every vocabulary
    assert tier_at(None, new, tiers) is None


def test_tier_levels_pair_the_two_vocabularies(site):
    levels = [(t.level, [x.id for x in t.maturity], [x.id for x in t.api_stability]) for t in site.tier_levels]
    assert levels == [
        (1, ["prototype"], []),
        (2, ["beta"], ["api-unstable"]),
        (3, ["stable"], ["api-stable"]),
        (4, ["deprecated"], ["deprecated"]),
        (5, ["removed"], ["removed"]),
    ]


# ---------------------------------------------------------------- families


def test_a_family_has_a_row_per_member_and_what_each_release_did_to_it(site):
    (family,) = site.families
    assert family.node.id == "widgets"
    assert family.feature is None  # no release announces the family itself
    assert family.ids == ("widgets", "widget-compiler")
    assert family.members == 1
    assert [(r.feature.id, r.depth) for r in family.matrix.rows] == [("widget-compiler", 1)]
    assert [(r.version, [e.id for e in es]) for r, es in family.by_release] == [
        ("2.8", ["widget-compiler"]),
        ("2.7", ["widget-compiler"]),
    ]


def test_sub_families_follow_their_family_depth_first_and_collect_their_members_changes(content_copy):
    edit(
        content_copy,
        "features/fixture.yaml",
        "    area: compiler\n    about: A mesh",
        "    area: compiler\n    parent: widget-compiler\n    about: A mesh",
    )
    edit(
        content_copy,
        "changes/2.8.yaml",
        "    note: Hand-written remark.",
        "    note: Hand-written remark.\n    features: [mesh]",
    )
    site = site_model(content_copy)
    assert [f.node.id for f in site.families] == ["widgets", "widget-compiler"]
    widgets, compiler = site.families
    assert [(r.feature.id, r.depth) for r in widgets.matrix.rows] == [("widget-compiler", 1), ("mesh", 2)]
    assert widgets.members == 2
    assert [c.id for c in compiler.ancestors] == ["widgets"]
    assert compiler.feature is site.feature_by_id["widget-compiler"]  # a family announced in its own right
    assert [(node.id, depth, count) for node, depth, count in widgets.member_counts] == [("mesh", 2, 1)]
    # An improvement asks nothing of an upgrade: it is counted, not listed among the members' actions.
    assert widgets.member_actions == ()


def test_families_with_the_most_releases_come_first(content_copy):
    family = "  - id: aardvarks\n    name: Aardvarks\n    area: packaging\n    about: A family of one wheel.\n"
    edit(content_copy, "features/fixture.yaml", "  - id: old-wheel\n", family + "  - id: old-wheel\n")
    edit(content_copy, "features/fixture.yaml", "    about: A wheel", "    parent: aardvarks\n    about: A wheel")
    site = site_model(content_copy)
    # Widgets has entries in two releases, Aardvarks in one: Widgets leads though A sorts first.
    assert [f.node.id for f in site.families] == ["widgets", "aardvarks"]


# ---------------------------------------------------------------- change anchors, PR anchors, tags


def test_each_change_has_its_own_stable_anchor_and_owns_its_prs(site):
    views = [v for s in site.release_views["2.8"].sections for a in s.areas for v in a.changes]
    assert [v.anchor for v in views] == [
        urls.change_anchor("`torch.cat` now raises on mismatched dtypes (#301)"),
        urls.change_anchor("Faster all_reduce (#302, #303)"),
        urls.change_anchor("### Widgets print a warning on import"),
    ]
    assert [v.anchors for v in views] == [(301,), (302, 303), ()]


def test_a_pr_anchor_goes_to_the_first_change_citing_it(content_copy):
    edit(
        content_copy,
        "changes/2.8.yaml",
        "  - section: tracked-regressions",
        (
            '  - section: improvements\n    area: CUDA\n    text: "Follow-up to the cat change (#301, #304)"\n'
            "    prs: [301, 304]\n  - section: tracked-regressions"
        ),
    )
    site = site_model(content_copy)
    assert change(site, "2.8", "(#301)").anchors == (301,)
    assert change(site, "2.8", "Follow-up").anchors == (304,)  # #pr-301 stays on the first


def test_repeated_record_lines_get_distinct_anchors(content_copy):
    edit(
        content_copy,
        "changes/2.8.yaml",
        "  - section: tracked-regressions",
        (
            '  - section: improvements\n    area: CUDA\n    text: "Faster all_reduce (#302, #303)"\n'
            "    prs: [302]\n  - section: tracked-regressions"
        ),
    )
    views = [v for s in site_model(content_copy).release_views["2.8"].sections for a in s.areas for v in a.changes]
    anchors = [v.anchor for v in views if v.change.text.startswith("Faster")]
    assert len(anchors) == len(set(anchors)) == 2


def test_a_change_belongs_to_the_backends_of_its_area_unless_it_names_its_own(site):
    assert change(site, "2.8", "torch.cat").backends == ("cuda",)
    assert change(site, "2.8", "all_reduce").backends == ("distributed",)  # "Distributed › c10d" lies under Distributed


def test_a_change_gets_the_features_of_entries_citing_its_prs_hand_tags_and_its_areas_default(content_copy):
    edit(content_copy, "changes/2.8.yaml", "prs: [301]", "prs: [301, 201]")  # 2.8's Widget compiler entry cites 201
    edit(
        content_copy,
        "changes/2.8.yaml",
        "    note: Hand-written remark.",
        "    note: Hand-written remark.\n    features: [mesh]",
    )
    edit(content_copy, "features/fixture.yaml", "    about: A wheel", "    change_areas: [CUDA]\n    about: A wheel")
    site = site_model(content_copy)
    cat, reduce, warning = (change(site, "2.8", t) for t in ("torch.cat", "all_reduce", "Widgets print"))
    assert (cat.features, cat.derived) == (("widget-compiler", "old-wheel"), ("old-wheel",))
    assert (reduce.features, reduce.derived) == (("mesh",), ())
    assert (warning.features, warning.derived) == (("old-wheel",), ("old-wheel",))  # the CUDA area's default
    assert [(r.version, v.anchor) for r, v in site.feature_changes["old-wheel"]] == [
        ("2.8", cat.anchor),
        ("2.8", warning.anchor),
    ]


def test_the_area_default_gives_way_to_a_tag_inside_its_subtree(content_copy):
    edit(
        content_copy,
        "features/fixture.yaml",
        "    area: compiler\n    about: Everything",
        "    area: compiler\n    change_areas: [CUDA]\n    about: Everything",
    )
    edit(content_copy, "changes/2.8.yaml", "prs: [301]", "prs: [301, 201]")
    site = site_model(content_copy)
    # widget-compiler (from PR 201) is a member of widgets, the CUDA default: the specific tag wins alone.
    assert change(site, "2.8", "torch.cat").features == ("widget-compiler",)
    assert change(site, "2.8", "Widgets print").features == ("widgets",)


def test_symbols_a_change_names_are_found_for_the_paste_filter(site):
    assert change(site, "2.8", "torch.cat").symbols == ("TORCH_CAT_LEGACY", "torch.cat")
    page = site.symbol_pages["torch"]
    assert [
        (s.name, [(u.release, u.change.anchor if u.change else u.entry.id) for u in s.uses]) for s in page.symbols
    ] == [
        ("torch.cat", [("2.8", change(site, "2.8", "torch.cat").anchor)]),
        ("torch.compile", [("2.7", "widget-compiler")]),
    ]


# ---------------------------------------------------------------- the deprecation ledger


def test_the_ledger_lists_deprecations_with_their_planned_removal(site):
    assert [(r.feature.id, r.deprecated_in, r.removal_planned, r.removed_in, r.overdue) for r in site.ledger] == [
        ("old-wheel", "2.7", "2.9", None, False)
    ]
    assert site.ledger_overdue == 0


def test_a_removal_release_that_ships_without_the_removal_is_overdue(content_copy):
    add_release(content_copy, "2.9", "2.8", "2025-10-15")
    site = site_model(content_copy)
    assert [(r.feature.id, r.overdue) for r in site.ledger] == [("old-wheel", True)]
    assert site.ledger_overdue == 1


def test_a_removal_that_happens_closes_the_ledger_row(content_copy):
    removal = (
        "\n  - {id: old-wheel, title: Old wheel, tier: removed, change: removed, backends: [cuda],"
        " highlight: false, summary: Gone., source: https://example.org/2.9}"
    )
    add_release(content_copy, "2.9", "2.8", "2025-10-15", removal)
    site = site_model(content_copy)
    assert [(r.removed_in, r.overdue) for r in site.ledger] == [("2.9", False)]


# ---------------------------------------------------------------- release-view groupings


def test_a_release_groups_its_entries_by_tier_and_by_backend(site):
    first, second = site.release_views["2.7"], site.release_views["2.8"]
    assert [(t.id, [e.id for e in es]) for t, es in first.by_tier] == [
        ("beta", ["widget-compiler"]),
        ("deprecated", ["old-wheel"]),
    ]
    assert [(t.id, [e.id for e in es]) for t, es in second.by_tier] == [("api-stable", ["widget-compiler"])]
    assert [e.id for e in second.untiered] == ["mesh"]
    assert [(b.id, [e.id for e in es]) for b, es in first.by_backend] == [
        ("cuda", ["widget-compiler", "old-wheel"]),
        ("mps", ["widget-compiler"]),
    ]
    assert [e.id for e in first.highlights] == ["widget-compiler"]
    assert [e.id for e in first.leaving] == ["old-wheel"]
    assert second.people == ("Ada Lovelace", "Grace Hopper")
    assert first.vocabulary.id == "maturity" and second.vocabulary.id == "api-stability"


def test_an_entry_without_backends_is_device_agnostic(content_copy):
    edit(content_copy, "releases/2.8.yaml", "backends: [distributed]", "backends: []")
    view = site_model(content_copy).release_views["2.8"]
    assert [e.id for e in view.device_agnostic] == ["mesh"]
    assert [b.id for b, _ in view.by_backend] == ["cuda"]


def test_changes_are_grouped_by_section_then_area_with_unique_anchors(site):
    sections = site.release_views["2.8"].sections
    assert [(s.section, s.count, [(a.name, a.anchor) for a in s.areas]) for s in sections] == [
        ("bc-breaking", 1, [("CUDA", "bc-breaking-cuda")]),
        ("improvements", 1, [("Distributed › c10d", "improvements-distributed-c10d")]),
        ("tracked-regressions", 1, [("CUDA", "tracked-regressions-cuda")]),
    ]
    assert site.release_views["2.7"].sections == ()  # 2.7 has no imported change list


def test_upgrade_groups_put_known_issues_first_and_new_features_last(site):
    upgrade = site.release_views["2.8"].upgrade
    assert [(g.id, [v.change.text for v in g.changes], [e.id for e in g.entries]) for g in upgrade] == [
        ("known-issues", ["### Widgets print a warning on import"], []),
        ("defaults", ["`torch.cat` now raises on mismatched dtypes (#301)"], []),
        ("new", [], ["widget-compiler", "mesh"]),
    ]
    assert [v.change.text for v in site.release_views["2.8"].known_issues] == ["### Widgets print a warning on import"]
    # The improvement asks nothing: no group.
    assert change(site, "2.8", "all_reduce").group == ""
    assert [(r.version, v.change.prs) for r, v in site.defaults] == [("2.8", (301,))]


@pytest.mark.parametrize(
    ("section", "kind", "group"),
    [
        ("bc-breaking", "behaviour-change", "defaults"),
        ("bc-breaking", "api-removed", "removals"),
        ("bc-breaking", "build-packaging", "breaking"),
        ("bc-breaking", None, "breaking"),
        ("deprecations", None, "deprecations"),
        ("deprecations", "no-action", ""),  # 2.4 files internal fixes that deprecate nothing there
        ("tracked-regressions", None, "known-issues"),
        ("improvements", "default-change", "defaults"),
        ("improvements", "no-action", ""),
        ("improvements", None, ""),
    ],
)
def test_upgrade_group_of_a_change(site, section, kind, group):
    change = replace(site.releases[1].changes[0], section=section, kind=kind)
    assert changeviews.upgrade_group(change, facts.ending_kind(change)) == group


def test_a_backend_view_counts_its_changes_and_orders_its_matrix(site):
    views = {b.backend.id: b for b in site.backend_views}
    cuda = views["cuda"]
    assert [r.feature.id for r in cuda.matrix.rows] == ["old-wheel", "widget-compiler"]
    assert [(c.release.version, c.total, c.breaking, c.deprecations) for c in cuda.change_counts] == [("2.8", 2, 1, 0)]
    assert cuda.change_total == 2
    assert views["mps"].change_total == 0
    assert [(r.version, [e.id for e in es]) for r, es in views["mps"].entries_by_release] == [
        ("2.7", ["widget-compiler"])
    ]


def test_contributors_list_their_work_under_a_unique_slug(site):
    assert [(c.name, c.slug, [(w.release, w.entry.id) for w in c.work]) for c in site.contributors] == [
        ("Ada Lovelace", "ada-lovelace", [("2.7", "widget-compiler"), ("2.8", "widget-compiler")]),
        ("Grace Hopper", "grace-hopper", [("2.8", "widget-compiler")]),
    ]
    assert urls.slugify("Łukasz Ñandú") == "ukasz-nandu"


def test_the_tiers_page_lists_every_tier_with_its_entries_newest_first(site):
    [page] = site.tier_pages  # the fixture's two releases are one span: /tiers/ alone
    assert (page.first, page.last) == ("2.7", "2.8")
    by_tier = {t.id: [(e.release, e.id) for e in entries] for t, entries in page.items}
    assert list(by_tier) == [t.id for t in site.content.tiers]
    assert by_tier["beta"] == [("2.7", "widget-compiler")]
    assert by_tier["prototype"] == []


# ---------------------------------------------------------------- home


def home_of(site: Site):
    """The home page's view of a site: built by enrich's one pass, like every other view."""
    return site.home


def test_home_glance_table_has_a_row_per_top_level_family_at_its_most_mature_tier(site):
    home = home_of(site)
    assert [(r.label, r.url, [(c.release, c.label, c.abbr) for c in r.cells]) for r in home.story] == [
        ("Widgets", urls.feature("widgets"), [("2.7", "Beta", "B"), ("2.8", "Stable", "S")])
    ]
    assert home.story[0].cells[1].title == "2.8: Widget compiler: Stable"
    assert home.legend == (("B", "Beta", "tier-beta"), ("S", "Stable / API-Stable", "tier-stable"))
    assert (home.upgrade_from, home.upgrade_to) == ("2.7", "2.8")


def test_home_lists_what_is_on_its_way_out(site):
    due = home_of(site).due
    assert [(d.title, d.url, d.deprecated_in, d.removal, d.status) for d in due] == [
        ("Old wheel", urls.feature("old-wheel"), "2.7", "2.9", "due")
    ]


def test_home_flags_an_overdue_removal_and_a_change_with_a_removal_release(content_copy):
    add_release(content_copy, "2.9", "2.8", "2025-10-15")
    add_changes(
        content_copy,
        "2.9",
        (
            '  - section: deprecations\n    area: CUDA\n    text: "`torch.old_op` is deprecated (#401)"\n'
            '    prs: [401]\n    note: Move to the new op.\n    removal: "2.11"\n    ends: [torch.old_op]\n'
            "    subject: [torch.old_op]\n"
        ),
    )
    site = site_model(content_copy)
    due = home_of(site).due
    anchor = change(site, "2.9", "old_op").anchor
    assert [(d.url, d.removal, d.status) for d in due] == [
        (urls.at(urls.release("2.9"), anchor), "2.11", "due"),
        (urls.feature("old-wheel"), "2.9", "overdue"),
    ]


def test_the_timeline_rows_are_in_the_order_its_page_states():
    """Issue 46: each timeline page's rows by the release that first announced the feature, oldest
    first, then by title; the page says so in those words."""
    from tests.conftest import ROOT, real_model

    site = real_model()
    order = {r.version: i for i, r in enumerate(site.releases)}
    for matrix in site.timeline:
        keys = [(order[row.feature.entries[0].release], row.feature.title.casefold()) for row in matrix.rows]
        assert len(keys) > 10 and keys == sorted(keys)
        assert len({k[0] for k in keys}) > 1  # more than one release's features: the order is tested
    said = (ROOT / "templates" / "timeline.md.j2").read_text(encoding="utf-8")
    assert "Rows are in the order the features were first announced, oldest first" in said


def _deprecate_then_remove(content: Path, deprecation_ends: str, removal_ends: str) -> Site:
    """2.9 deprecates `torch.rare_thing`; 2.10 removes it (its record shares that rare name)."""
    add_release(content, "2.9", "2.8", "2025-10-15")
    add_release(content, "2.10", "2.9", "2026-01-21")
    add_changes(
        content,
        "2.9",
        '  - section: deprecations\n    area: CUDA\n    text: "`torch.rare_thing` is deprecated (#401)"\n'
        f"    prs: [401]\n    kind: behaviour-change\n    note: Stop calling it.\n{deprecation_ends}"
        "    subject: [torch.rare_thing]\n",
    )
    add_changes(
        content,
        "2.10",
        '  - section: bc-breaking\n    area: CUDA\n    text: "Remove `torch.rare_thing` (#402)"\n'
        f"    prs: [402]\n    kind: api-removed\n    note: It is gone.\n{removal_ends}"
        "    subject: [torch.rare_thing]\n",
    )
    return enrich(load(content))


def test_a_removal_sharing_a_rare_name_carries_a_deprecation_out_once_both_records_confirm_it(content_copy):
    site = _deprecate_then_remove(content_copy, "", "    ends: [torch.rare_thing]\n")
    row = next(r for r in site.ledger if "rare_thing" in r.title)
    assert row.removed_in is None  # the deprecation has not answered: a question, not a fact
    asked = [(i.release, i.question.split("?")[0]) for i in site.inferences if "rare_thing" in i.change.text]
    removal = change(site, "2.10", "Remove `torch.rare_thing`")
    assert asked == [
        ("2.9", "does it say it deprecates torch.rare_thing"),
        ("2.9", f"was it carried out by the 2.10 record {removal.anchor}, which names the same rare name"),
    ]


def test_both_ends_confirm_the_carried_out_removal_with_its_evidence(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    ends = "    ends: [torch.rare_thing]\n"
    site = _deprecate_then_remove(content, ends, ends)
    row = next(r for r in site.ledger if "rare_thing" in r.title)
    assert (site.inferences, row.removed_in, row.removed_by) == ((), "2.10", "change")
    removal = change(site, "2.10", "Remove `torch.rare_thing`")
    assert [c.url for c in dict(row.ending.evidence)["removed_in"]] == [
        urls.at(urls.release("2.10"), removal.anchor),
        urls.pr(402),
    ]
    [named] = site.name_endings
    assert (named.name, named.deprecated_in, named.removed_in) == ("torch.rare_thing", "2.9", "2.10")


def test_a_guide_on_a_backend_lists_what_a_release_announced_as_improved_for_it():
    """Reader task 2: 2.9 -> 2.12 on ROCm lists 2.12's ROCm items (announced as improvements of
    features that had shipped) among its news; the guide for any backend, and CUDA's, do not."""
    from generator.enrich.enrich import guide
    from tests.conftest import real_model

    site = real_model()

    def news(backend: str) -> set[str]:
        return {e.title for e in guide(site, "2.9", "2.12", backend)["new"] if getattr(e, "change", "") == "improved"}

    rocm = {"ROCm: Expandable segments", "ROCm: rocSHMEM support", "ROCm: Inductor FlexAttention pipelining"}
    assert rocm <= news("rocm")
    assert not news("rocm") & {e for e in news("") | news("cuda") if e.startswith("ROCm")}
    assert not news("")
