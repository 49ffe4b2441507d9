"""The site's facts as invariants (generator/enrich/invariants.py): the real content keeps them, and a
broken fixture for each one trips it, in `check`, with the file and line or the page and the fact."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from generator.enrich import invariants
from generator.enrich.enrich import enrich, guide
from generator.load.load import load
from generator.model import urls
from generator.model.computed import Cell
from generator.model.content import NO_TIER
from generator.model.errors import ContentError
from generator.pipeline.build import site_model
from tests.conftest import FIXTURE, ROOT, real_model, run_cli

REAL = ROOT / "content"


@pytest.fixture(scope="module")
def real():
    return real_model()


def edit(content: Path, rel: str, old: str, new: str) -> None:
    path = content / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def messages(site, content=None) -> list[str]:
    return [str(p).replace(f"{content}/", "") if content else str(p) for p in invariants.check(site, content)]


# ---------------------------------------------------------------- the real content


def test_real_content_keeps_every_invariant(real):
    assert invariants.check(real, REAL) == []


def test_the_ledger_has_the_deprecations_the_home_page_and_the_notes_name(real):
    titles = [row.title for row in real.ledger]
    for name in ("torch.compile(fullgraph=True)", "dynamic_axes", "inline_inbuilt_nn_modules"):
        assert any(name in t for t in titles), name
    on_ledger = {row.url for row in real.ledger}
    assert all(item.url in on_ledger for item in real.home.due)


def test_support_a_later_compatibility_row_drops_is_removed_not_overdue(real):
    rows = {row.feature.id: row for row in real.ledger if row.feature is not None}
    assert (rows["macos-x86-support"].status, rows["macos-x86-support"].removed_in) == ("removed", "2.3")
    assert (rows["python-3.7-support"].status, rows["python-3.7-support"].removed_in) == ("removed", "2.0")
    assert (rows["cuda-11.6-wheel"].status, rows["cuda-11.6-wheel"].removed_by) == ("removed", "compatibility")


def test_every_python_cuda_and_rocm_version_follows_the_compatibility_matrix(real):
    """Each catalogue feature that is a Python, CUDA or ROCm version's support says so, so its
    removal is read from the matrix: a reader never sees it deprecated after the matrix dropped it."""
    named = 0
    for node in real.catalogue_by_id.values():
        m = re.match(r"(Python|CUDA|ROCm) (\d+\.\d+t?)\b", node.name)
        if m is None:
            continue
        named += 1
        # Where release notes date the last build against the matrix, `last:` names them as its source.
        last = node.support is not None and node.support[0] == "last" and node.support[2]
        assert last or node.support == (m.group(1).lower(), m.group(2), None), node.id
    assert named >= 18
    feature = real.feature_by_id
    # The notes' word first: 2.13 removed the 12.9 builds (only the 2.8 row lists them) and the 12.8
    # wheels, which left the 2.12 row though a 2.12 change still upgrades their cuDNN.
    assert (feature["cuda-12.9-wheel"].removed_in, feature["cuda-12.9-wheel"].removed_by) == ("2.13", "entry")
    rows = {row.feature.id: row for row in real.ledger if row.feature is not None}
    assert (rows["cuda-12.8-wheel"].status, rows["cuda-12.8-wheel"].removed_in) == ("removed", "2.13")
    assert feature["cuda-12.8-wheel"].standing.words == "Removed in 2.13"
    assert [c.label for c in feature["cuda-12.8-wheel"].cells][-2:] == ["Removed", ""]
    # A support the matrix drops with no word from the notes is removed there, for every version alike.
    assert (feature["python-3.7-support"].removed_in, feature["python-3.7-support"].removed_by) == (
        "2.0",
        "compatibility",
    )
    # An experimental Python counts as listed: 3.12 in 2.2. 3.13t is in the 2.6 to 2.8 rows only, but the
    # 2.13 notes stop its builds there: the notes' word (the 2.13 entry) dates the removal.
    assert feature["python-3.12-wheels"].removed_in is None
    assert (feature["python-3.13t-support"].first, feature["python-3.13t-support"].removed_in) == ("2.6", "2.13")
    assert feature["python-3.9-support"].removed_in == "2.9"
    assert feature["rocm-7.14-wheel"].removed_in is None


def test_compare_and_upgrade_count_the_same_from_the_api_groups(real):
    """Both pages count the API's `group` of each change and entry with one backend rule; the counts
    from the API data equal the guide's (the release pages' upgrade steps)."""
    import json

    from generator.render.api import _release

    for start, end, backend in (("2.9", "2.12", "rocm"), ("2.5", "2.8", "cuda"), ("2.11", "2.14", "")):
        counts: dict[str, int] = {}
        told: set[tuple[str, str]] = set()  # a feature is told once per kind of step in the range
        kind = {"breaking": "acts", "defaults": "acts", "removals": "acts", "deprecations": "acts"}
        for release in real.releases:
            if not (real.versions.index(start) < real.versions.index(release.version) <= real.versions.index(end)):
                continue
            data = json.loads(_release(release, real.release_views[release.version], (), "http://x/"))
            for item in data["change_list"] + data["entries"]:
                concerns = (
                    not backend or not item["backends"] or item.get("every_backend") or backend in item["backends"]
                )
                group = item["group"]
                if not group and "id" in item and backend and item["change"] == "improved":
                    group = "new" if backend in item["backends"] else ""  # enrich._with_news
                if not group or not concerns:
                    continue
                if "id" in item:  # an entry
                    if (kind.get(group, group), item["id"]) in told:
                        continue
                    told.add((kind.get(group, group), item["id"]))
                else:
                    told.update((kind.get(group, group), f["id"]) for f in item["features"])
                counts[group] = counts.get(group, 0) + 1
        expected = {g: len(items) for g, items in guide(real, start, end, backend).items() if items}
        assert counts == expected, (start, end, backend)
    assert len(guide(real, "2.9", "2.12", "rocm")["removals"]) > 0


def test_flexattention_rows_by_backend_agree_with_its_entries(real):
    flex = real.feature_by_id["flex-attention"]
    for _, cells in flex.backend_cells:
        assert all(c.label != NO_TIER for c in cells)
    assert flex.standing.words == "API-Unstable since 2.8"
    assert (flex.standing.announced.id, flex.standing.announced_in) == ("api-unstable", "2.9")
    on = {b: (s.words, s.first) for b, s in flex.backend_standings}
    # It generated Triton GPU kernels from 2.5; ROCm is named from 2.12 and holds the feature's tier.
    assert on["cuda"] == ("API-Unstable since 2.8", "2.5")
    assert on["rocm"] == ("API-Unstable since 2.12", "2.12")
    rocm = next(r for v in real.backend_views if v.backend.id == "rocm" for r in v.matrix.rows if r.feature is flex)
    assert [c.label for c in rocm.cells if c.entry] == ["Unstable", "Unstable"]


def test_a_beta_feature_reads_in_todays_vocabulary(real):
    """Beta announced before 2.8 and not restated reads API-Unstable since 2.8, with Beta beside it."""
    beta = [f for f in real.features if f.standing.announced and f.standing.announced.id == "beta" and not f.removed_in]
    assert beta
    for f in beta:
        assert f.standing.tier.id == "api-unstable" and f.standing.since == "2.8", f.id
    compile_ = real.feature_by_id["torch-compile"].standing
    assert (compile_.words, compile_.announced_words) == ("API-Unstable since 2.8", "announced as Beta in 2.0")


# ---------------------------------------------------------------- broken fixtures, one per invariant


def test_a_deprecation_missing_from_the_ledger_trips(content_copy):
    site = enrich(load(content_copy))
    broken = replace(site, ledger=())
    assert any("old-wheel is deprecated here but not on /deprecations/" in m for m in messages(broken, content_copy))
    [problem] = [p for p in invariants.ledger_complete(broken, invariants._Where(content_copy))]
    assert str(problem).startswith(f"{content_copy}/releases/2.7.yaml:") and problem.line > 1


def test_a_notes_deprecation_missing_from_the_guide_trips(content_copy):
    edit(
        content_copy,
        "changes/2.8.yaml",
        "  - section: improvements\n",
        '  - section: deprecations\n    area: CUDA\n    text: "`torch.old_op` is deprecated (#304)"\n'
        "    prs: [304]\n    kind: api-removed\n    note: Call the new op.\n    ends: [torch.old_op]\n"
        "    subject: [torch.old_op]\n  - section: improvements\n",
    )
    site = enrich(load(content_copy))
    assert invariants.check(site, content_copy) == []
    assert any("torch.old_op" in row.title for row in site.ledger)
    views = dict(site.release_views)
    views["2.8"] = replace(views["2.8"], upgrade=tuple(g for g in views["2.8"].upgrade if g.id != "deprecations"))
    found = messages(replace(site, release_views=views), content_copy)
    assert any(m.startswith("changes/2.8.yaml:") and "not in that release's upgrade step" in m for m in found), found


def test_an_entry_contradicting_the_compatibility_row_fails_check(content_copy):
    """The catalogue says old-wheel is the CUDA 12.6 build; 2.7's row still lists 12.6, so an entry
    that removes it in 2.7 contradicts the matrix: `check` says where, exit 1."""
    edit(
        content_copy,
        "features/fixture.yaml",
        "    about: A wheel that is on its way out.",
        '    about: A wheel that is on its way out.\n    support: {cuda: "12.6"}',
    )
    edit(
        content_copy,
        "releases/2.7.yaml",
        "    tier: deprecated\n    change: deprecated",
        "    tier: removed\n    change: removed",
    )
    result = run_cli("check", "--content", str(content_copy))
    assert result.returncode == 1
    assert "releases/2.7.yaml:" in result.stderr + result.stdout
    assert "still lists cuda 12.6" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("support", "removed"),
    [
        ('{python: "3.13t"}', None),  # 2.7's row lists 3.13t as experimental
        ('{python: "3.14t"}', "2.7"),
        ('{python: "3.13"}', None),
        ('{python: "3.8"}', "2.7"),  # below 2.7's minimum, 3.9
        ('{rocm: "6.3"}', None),
        ('{rocm: "6.2"}', "2.7"),
    ],
)
def test_support_reads_experimental_pythons_and_rocm_from_the_row(content_copy, support, removed):
    edit(
        content_copy,
        "features/fixture.yaml",
        "    about: A wheel that is on its way out.",
        f"    about: A wheel that is on its way out.\n    support: {support}",
    )
    site = enrich(load(content_copy))
    [row] = site.ledger
    assert row.removed_in == removed
    assert (row.status == "removed") == (removed is not None), row.status
    assert invariants.check(site, content_copy) == []


def test_a_support_the_schema_does_not_know_fails_check_at_its_line(content_copy):
    edit(
        content_copy,
        "features/fixture.yaml",
        "    about: A wheel that is on its way out.",
        '    about: A wheel that is on its way out.\n    support: {python: "3.13x"}',
    )
    result = run_cli("check", "--content", str(content_copy))
    assert result.returncode == 1
    assert "features/fixture.yaml:17:" in result.stderr + result.stdout, result.stderr
    assert "Traceback" not in result.stderr


def test_support_the_matrix_dropped_is_removed_and_a_page_saying_otherwise_trips(content_copy):
    edit(
        content_copy,
        "features/fixture.yaml",
        "    about: A wheel that is on its way out.",
        '    about: A wheel that is on its way out.\n    support: {cuda: "11.6"}',
    )
    site = enrich(load(content_copy))
    [row] = site.ledger
    assert (row.status, row.removed_in) == ("removed", "2.7")  # 2.7's row lists only CUDA 12.6
    assert invariants.check(site, content_copy) == []
    wheel = site.feature_by_id["old-wheel"]
    kept = replace(wheel.ending, removed_in=None, removed_by="", status="deprecated")
    broken = replace(
        site,
        ledger=(replace(row, ending=replace(row.ending, status="deprecated")),),
        features=tuple(replace(f, ending=kept) if f is wheel else f for f in site.features),
    )
    found = messages(broken, content_copy)
    assert any("Old wheel: 'deprecated', but the compatibility matrix dropped it in 2.7" in m for m in found), found
    assert any("gone from the compatibility matrix since 2.7" in m for m in found), found
    # The lifecycle shows it gone after its removal; a strip still carrying its tier trips.
    assert [c.css for c in wheel.cells] == ["tier-deprecated", "gone"]
    carried = Cell("2.8", "deprecated", "Deprecated", "tier-deprecated carried", None)
    broken = replace(
        site, features=tuple(replace(f, cells=(f.cells[0], carried)) if f is wheel else f for f in site.features)
    )
    found = messages(broken, content_copy)
    assert any("the lifecycle still shows 'Deprecated' in 2.8, after its removal in 2.7" in m for m in found), found


def test_a_home_item_its_page_does_not_say_trips(content_copy):
    site = enrich(load(content_copy))
    [row] = site.ledger
    moved = replace(row.feature, ending=replace(row.feature.ending, deprecated_in="2.8"))
    broken = replace(site, ledger=(replace(row, feature=moved),))
    found = messages(broken, content_copy)
    assert any(
        m.startswith("features/fixture.yaml:")
        and "/features/old-wheel/: deprecated in 2.8, but the home page says 2.7" in m
        for m in found
    ), found


def test_a_header_tier_or_a_backend_row_that_disagrees_trips(content_copy):
    site = enrich(load(content_copy))
    widget = site.feature_by_id["widget-compiler"]
    assert widget.backend_cells
    backend, cells = widget.backend_cells[0]
    muted = tuple(Cell(c.release, None, NO_TIER, "untiered", c.entry) for c in cells)
    features = tuple(
        replace(f, standing=replace(f.standing, tier=site.tier_by_id["stable"]), backend_cells=((backend, muted),))
        if f is widget
        else f
        for f in site.features
    )
    found = messages(replace(site, features=features), content_copy)
    assert all(m.startswith("features/fixture.yaml:") for m in found), found
    assert any("the header says tier 'stable'" in m for m in found), found
    assert any(f"By backend: {backend} says 'No tier'" in m for m in found), found


def test_an_alternative_equal_to_the_matrix_fails_check_and_a_real_one_is_shown(content_copy):
    edit(
        content_copy,
        "releases/2.7.yaml",
        "  source: https://example.org/matrix\n",
        '  source: https://example.org/matrix\n  alternatives:\n    - {field: cxx, value: C++17, context: building from source, source: "https://example.org/notes/2.7"}\n',
    )
    with pytest.raises(ContentError) as info:
        site_model(content_copy)
    assert any(
        "cxx C++17 is the matrix's own value" in str(p) and "releases/2.7.yaml:" in str(p) for p in info.value.problems
    )
    edit(content_copy, "releases/2.7.yaml", "value: C++17", "value: C++20")
    site = site_model(content_copy)
    from generator.render.render import render_all

    page = render_all(site)["compatibility/index.md"].decode()
    assert "C++17 per the [release matrix](https://example.org/matrix)" in page.replace("&#43;", "+")
    assert "C++20 per [another source](https://example.org/notes/2.7)" in page.replace("&#43;", "+")


def test_the_schema_refuses_an_alternative_for_an_unknown_field(content_copy):
    edit(
        content_copy,
        "releases/2.7.yaml",
        "  source: https://example.org/matrix\n",
        '  source: https://example.org/matrix\n  alternatives:\n    - {field: cpp, value: C++20, context: x, source: "https://example.org/n"}\n',
    )
    result = run_cli("check", "--content", str(content_copy))
    assert result.returncode == 1 and "releases/2.7.yaml:" in result.stderr and "cpp" in result.stderr


# ---------------------------------------------------------------- inferred endings are questions

HEADER_REMOVAL = (
    "  - section: developers\n    area: Packaging\n"
    '    text: "- Removed `torch/csrc/utils/old_wheel.h` (#305)"\n'
    "    prs: [305]\n    kind: api-removed\n    note: The header is gone.\n    features: [old-wheel]\n"
)


def _plant(content: Path, answer: str = "") -> tuple[int, int]:
    """A false match planted after the deprecation of old-wheel (2.7): a header's removal in 2.8 that
    shares a word with the feature and is tied to it; returns the line and column of its record line."""
    edit(
        content,
        "changes/2.8.yaml",
        "  - section: improvements\n",
        HEADER_REMOVAL + answer + "  - section: improvements\n",
    )
    lines = (content / "changes/2.8.yaml").read_text(encoding="utf-8").splitlines()
    return next((i, line.index("- Removed") + 1) for i, line in enumerate(lines, 1) if "old_wheel.h" in line)


def test_a_planted_false_match_fails_check_at_its_line(content_copy):
    """A removal tied to a deprecated feature would make it "part removed": check refuses to state
    that until the record's `ends:` answers, at the record's path:line:col, exit code 1."""
    line, col = _plant(content_copy)
    site = enrich(load(content_copy))
    old_wheel = site.feature_by_id["old-wheel"]
    assert old_wheel.ending.part_removed_in is None  # a question is not stated
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1, proc.stderr
    said = [m for m in proc.stderr.splitlines() if "unconfirmed ending" in m]
    assert said == [
        f"{content_copy}/changes/2.8.yaml:{line}:{col}: unconfirmed ending: does it take part of 'old-wheel' "
        "(deprecated in 2.7) away? answer with `ends:` (what the record deprecates or removes; [] for nothing) "
        '(README "What the Atlas states")'
    ], proc.stderr


def test_ends_rejects_or_confirms_the_inference(content_copy, tmp_path):
    _plant(content_copy, "    ends: []\n")
    site = enrich(load(content_copy))
    assert invariants.check(site, content_copy) == [] and site.inferences == ()
    assert site.feature_by_id["old-wheel"].ending.part_removed_in is None
    confirmed = tmp_path / "confirmed"
    shutil.copytree(FIXTURE, confirmed)
    _plant(confirmed, "    ends: [old-wheel]\n")
    ending = enrich(load(confirmed)).feature_by_id["old-wheel"].ending
    assert ending.part_removed_in == "2.8"
    record, pr = dict(ending.evidence)["part_removed_in"]
    assert record.url.startswith("releases/2.8/#c-") and pr.url == urls.pr(305)


def test_ends_on_a_record_that_ends_nothing_and_an_unknown_feature_fail_check(content_copy):
    edit(
        content_copy,
        "changes/2.8.yaml",
        "    note: Hand-written remark.\n",
        "    note: Hand-written remark.\n    ends: [old-wheeel]\n",
    )
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1
    assert "ends[0]" in proc.stderr and "old-wheel" in proc.stderr, proc.stderr  # did-you-mean
    edit(content_copy, "changes/2.8.yaml", "ends: [old-wheeel]", "ends: [old-wheel]")
    found = messages(enrich(load(content_copy)), content_copy)
    assert any("ends: its record line reads as neither" in m for m in found), found


def test_the_support_check_reads_each_compatibility_row_once_per_field(real, monkeypatch):
    """A row's listed values are worked out once for each field a support names, not once for
    every feature asking (which grows as features × releases: 0.46 s of a save at 30× the content)."""
    from generator.model.content import Compatibility

    calls = []
    values = Compatibility.values
    monkeypatch.setattr(Compatibility, "values", lambda self, field: calls.append(field) or values(self, field))
    assert invariants.support_follows_compatibility(real, invariants._Where(REAL)) == []
    fields = {n.support[0] for n in real.catalogue_by_id.values() if n.support and n.support[0] != "last"}
    rows = sum(1 for r in real.releases if r.compatibility is not None)
    supports = sum(1 for n in real.catalogue_by_id.values() if n.support and n.support[0] != "last")
    assert supports > len(fields)  # several features share a field: the bound below is a real one
    assert len(calls) <= len(fields) * rows, (len(calls), fields, rows)
