"""Loader and validator: every kind of bad input gets one line with its exact path:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.load.load import load
from tests.conftest import run_cli
from tests.helpers import CATALOGUE, REL, edit, line_of, position, problems


def at(content: Path, text: str, after: int = 0, rel: Path = REL) -> str:
    """`rel:line:col` of `text` in the (edited) content: where a problem about it points."""
    return f"{rel.as_posix()}:{position(content / rel, text, after)}"


def test_fixture_is_valid(content_copy):
    content = load(content_copy)
    assert [r.version for r in content.releases] == ["2.7", "2.8"]
    assert content.releases[1].entries[0].prs == (201,)  # a single value becomes a list
    assert content.releases[0].entries[1].backends == ("cuda",)


def test_unquoted_version_is_refused_with_its_position(content_copy):
    edit(content_copy, 'version: "2.8"', "version: 2.10")
    (content_copy / REL).rename(content_copy / "releases/2.10.yaml")
    (content_copy / "changes/2.8.yaml").unlink()
    assert problems(content_copy) == [
        'releases/2.10.yaml:2:10: version: write the version in quotes, "2.10": unquoted, YAML reads 2.10 as the number 2.1'
    ]


def test_unknown_key_suggests_the_right_one(content_copy):
    edit(content_copy, "    tier: api-stable", "    teir: api-stable")
    assert problems(content_copy) == [
        f"{at(content_copy, 'teir:')}: features[0].teir: unknown field 'teir' (did you mean 'tier'?)"
    ]


def test_unknown_tier_backend_and_area_ids(content_copy):
    edit(content_copy, "tier: api-stable", "tier: api-stabel")
    edit(content_copy, "backends: [cuda]", "backends: [cdua]")
    edit(content_copy, "    area: compiler\n    about: A mesh", "    area: compilr\n    about: A mesh", CATALOGUE)
    assert problems(content_copy) == [
        f"{at(content_copy, 'compilr', rel=CATALOGUE)}: features[3].area: unknown area 'compilr' (did you mean 'compiler'?)",
        f"{at(content_copy, 'api-stabel')}: features[0].tier: unknown tier 'api-stabel' (did you mean 'api-stable'?)",
        f"{at(content_copy, 'cdua')}: features[0].backends[0]: unknown backend 'cdua' (did you mean 'cuda'?)",
    ]


def test_enum_value_gets_did_you_mean(content_copy):
    edit(content_copy, "change: promoted", "change: promted")
    [line] = problems(content_copy)
    assert line.startswith(f"{at(content_copy, 'promted')}: features[0].change: 'promted' is not one of new, promoted")
    assert line.endswith("(did you mean 'promoted'?)")


def test_duplicate_feature_id(content_copy):
    edit(content_copy, "  - id: mesh", "  - id: widget-compiler")
    second = at(content_copy, "id: widget-compiler\n    title: Mesh", after=4)
    first = line_of(content_copy / REL, "id: widget-compiler")
    assert f"{second}: features[1].id: duplicate feature id 'widget-compiler' (first at line {first})" in problems(
        content_copy
    )


def test_duplicate_yaml_key(content_copy):
    edit(content_copy, "    title: Mesh\n", "    title: Mesh\n    title: Mesh again\n")
    assert problems(content_copy) == [
        f"{at(content_copy, 'title: Mesh again')}: duplicate key 'title' (YAML would silently keep only the last one)"
    ]


def test_releases_out_of_date_order(content_copy):
    edit(content_copy, "date: 2025-08-06", "date: 2025-01-06")
    assert problems(content_copy) == [
        "releases/2.8.yaml:3:7: date: 2.8 is dated 2025-01-06, not after 2.7 (2025-04-23): releases out of date order"
    ]


def test_tier_going_backwards_needs_a_reason(content_copy):
    edit(content_copy, "tier: api-stable\n    change: promoted", "tier: prototype\n    change: demoted")
    edit(content_copy, "tier_vocabulary: api-stability", "tier_vocabulary: maturity")
    assert problems(content_copy) == [
        f"{at(content_copy, 'prototype')}: features[0].tier: 'widget-compiler' goes from Beta in 2.7 back to Prototype: add a `reason:`"
    ]
    edit(content_copy, "    change: demoted\n", "    change: demoted\n    reason: Rewritten from scratch.\n")
    load(content_copy)


def test_pr_numbers_must_be_positive_integers(content_copy):
    edit(content_copy, "prs: 201", "prs: [201, -5]")
    assert problems(content_copy) == [
        f"{at(content_copy, '-5')}: features[0].prs[1]: must be a positive integer, not -5"
    ]


@pytest.mark.parametrize("bad", ["javascript:alert(1)", "data:text/html,hi", "vbscript:msgbox", "ftp://example.org/x"])
def test_urls_must_be_http(content_copy, bad):
    edit(content_copy, "    source: https://example.org/2.8\n  - id: mesh", f"    source: '{bad}'\n  - id: mesh")
    assert problems(content_copy) == [f"{at(content_copy, repr(bad))}: features[0].source: not an http(s) URL: '{bad}'"]


@pytest.mark.parametrize("bad", ["a/b", "a\\\\b", "a..b", "../x", "Widget"])
def test_ids_must_be_slugs(content_copy, bad):
    edit(content_copy, "  - id: mesh", f'  - id: "{bad}"')
    [line] = problems(content_copy)
    place = at(content_copy, f'"{bad}"')
    assert line.startswith(f"{place}: features[1].id: ")
    assert "not a valid id" in line


def test_missing_required_field(content_copy):
    edit(content_copy, "    summary: A mesh of devices.\n", "")
    assert problems(content_copy) == [f"{at(content_copy, 'id: mesh')}: features[1]: missing required field 'summary'"]


def test_malformed_yaml(content_copy):
    edit(content_copy, "summary: The second fixture release.", "summary: [unclosed")
    [line] = problems(content_copy)
    # libyaml and pure-Python PyYAML word the problem differently; the position is what matters:
    # the colon of the next line's key, in a sequence that never closed.
    opened = line_of(content_copy / REL, "[unclosed")
    after = (content_copy / REL).read_text(encoding="utf-8").splitlines()[opened]
    assert line.startswith(f"releases/2.8.yaml:{opened + 1}:{after.index(':') + 1}: YAML syntax error: ")
    assert "expected ',' or ']'" in line
    assert line.endswith(f"(while parsing a flow sequence that starts at line {opened})")


def test_tab_indentation(content_copy):
    edit(content_copy, "    title: Mesh", "\ttitle: Mesh")
    [line] = problems(content_copy)
    assert line.startswith(f"{at(content_copy, chr(9) + 'title')}: YAML syntax error")
    assert "tab" in line


def test_non_utf8_bytes(content_copy):
    path = content_copy / REL
    path.write_bytes(path.read_bytes().replace(b"The second", b"The s\xe9cond"))
    assert problems(content_copy) == ["releases/2.8.yaml:7:15: not UTF-8: byte 0xe9 cannot be decoded"]


@pytest.mark.parametrize("body", ["", "\n\n", "# only a comment\n"])
def test_empty_file(content_copy, body):
    (content_copy / REL).write_text(body, encoding="utf-8")
    assert problems(content_copy) == ["releases/2.8.yaml:1:1: file is empty"]


def test_date_that_does_not_exist(content_copy):
    edit(content_copy, "date: 2025-08-06", "date: 2025-02-30")
    assert problems(content_copy) == ["releases/2.8.yaml:3:7: date: '2025-02-30' is not a real date (YYYY-MM-DD)"]


def test_every_error_in_one_run(content_copy):
    edit(content_copy, "    tier: api-stable", "    teir: api-stable")
    edit(content_copy, "change: new", "change: nova")
    (content_copy / "releases/2.7.yaml").write_text("", encoding="utf-8")
    assert [p.split(":")[0] + ":" + p.split(":")[1] for p in problems(content_copy)] == [
        "releases/2.7.yaml:1",
        f"releases/2.8.yaml:{line_of(content_copy / REL, 'teir:')}",
        f"releases/2.8.yaml:{line_of(content_copy / REL, 'change: nova')}",
    ]


def test_cli_exit_codes_and_no_traceback(content_copy):
    ok = run_cli("check", "--content", str(content_copy))
    assert ok.returncode == 0, ok.stderr
    edit(content_copy, "tier: api-stable", "tier: nope")
    bad = run_cli("check", "--content", str(content_copy))
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    assert f"{at(content_copy, 'nope')}: features[0].tier: unknown tier 'nope'" in bad.stderr
    usage = run_cli("check", "--content", str(content_copy / "missing"))
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def test_a_change_tagged_with_an_unknown_feature_is_refused_with_a_did_you_mean(content_copy):
    path = content_copy / "changes" / "2.8.yaml"
    path.write_text(
        path.read_text().replace(
            "    kind: behaviour-change\n", "    kind: behaviour-change\n    features: [widget-compilr]\n"
        )
    )
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1
    assert "changes/2.8.yaml:" in proc.stderr and "unknown feature 'widget-compilr'" in proc.stderr
    assert "widget-compiler" in proc.stderr and "Traceback" not in proc.stderr


# ---------------------------------------------------------------- the feature catalogue


def test_release_entry_must_name_a_catalogue_feature(content_copy):
    edit(content_copy, "  - id: mesh", "  - id: meshh")
    assert problems(content_copy) == [
        f"{at(content_copy, 'meshh')}: features[1].id: unknown feature 'meshh': add it to features/*.yaml (did you mean 'mesh'?)"
    ]


def test_a_former_id_names_the_feature_to_use(content_copy):
    edit(content_copy, "    about: A mesh of devices.", "    aliases: [grid]\n    about: A mesh of devices.", CATALOGUE)
    edit(content_copy, "  - id: mesh", "  - id: grid")
    assert problems(content_copy) == [
        f"{at(content_copy, 'id: grid', after=4)}: features[1].id: 'grid' is a former id of 'mesh': use mesh"
    ]


def test_unknown_parent_gets_did_you_mean(content_copy):
    edit(content_copy, "    parent: widgets", "    parent: widget", CATALOGUE)
    assert problems(content_copy) == [
        f"{at(content_copy, 'widgets', rel=CATALOGUE)}: features[0].id: feature 'widgets' is announced by no release and has no members: "
        "remove it or add an entry",
        f"{at(content_copy, 'parent: widget', after=8, rel=CATALOGUE)}: features[1].parent: unknown parent 'widget' (did you mean 'widgets'?)",
    ]


def test_a_loop_of_parents_is_refused_once(content_copy):
    edit(
        content_copy,
        "    about: Everything about widgets",
        "    parent: widget-compiler\n    about: Everything about widgets",
        CATALOGUE,
    )
    assert problems(content_copy) == [
        f"{at(content_copy, 'parent: widgets', after=8, rel=CATALOGUE)}: features[1].parent: parents form a loop: widgets -> widget-compiler -> widgets"
    ]


@pytest.mark.parametrize(
    "item, message",
    [
        (
            "{id: mesh, name: Mesh again, area: compiler, about: Twice.}",
            "feature 'mesh' is defined twice (first in features/fixture.yaml:{first})",
        ),
        (
            "{id: orphan, name: Orphan, area: compiler, about: Nobody announces it.}",
            "feature 'orphan' is announced by no release and has no members: remove it or add an entry",
        ),
    ],
    ids=["defined-twice", "unused"],
)
def test_a_catalogue_feature_defined_twice_or_unused_is_refused(content_copy, item, message):
    path = content_copy / CATALOGUE
    first = line_of(path, "id: mesh")
    path.write_text(path.read_text() + f"  - {item}\n")
    place = at(content_copy, item, after=5, rel=CATALOGUE)
    assert problems(content_copy) == [f"{place}: features[4].id: {message.format(first=first)}"]


def test_a_change_tagged_with_an_unknown_feature(content_copy):
    path = content_copy / "changes/2.8.yaml"
    text = path.read_text()
    first = text.index("    text:")
    path.write_text(text[:first] + "    features: [widget-compilr]\n" + text[first:])
    [line] = problems(content_copy)
    assert line.startswith("changes/2.8.yaml:")
    assert line.endswith(
        "unknown feature 'widget-compilr': add it to features/*.yaml (did you mean 'widget-compiler'?)"
    )


def test_area_in_a_release_entry_points_to_the_catalogue(content_copy):
    edit(content_copy, "    highlight: false\n    summary: A mesh", "    area: compiler\n    summary: A mesh")
    [line] = problems(content_copy)
    assert line.startswith(f"{at(content_copy, 'area: compiler')}: features[1].area: ")
    assert "features/*.yaml" in line


def test_an_alias_that_is_another_features_live_id_is_refused(content_copy):
    """Issue #22: `python-3.11-support` was a packaging feature and an anchor of torch.compile's."""
    rel = Path("releases/2.7.yaml")
    edit(content_copy, "    aliases: []\n", "    aliases: [mesh]\n", rel)
    edit(
        content_copy,
        "    about: A mesh of devices.",
        "    aliases: [widgets]\n    about: A mesh of devices.",
        CATALOGUE,
    )
    assert problems(content_copy) == [
        f"{at(content_copy, '[widgets]', after=1, rel=CATALOGUE)}: features[3].aliases[0]: alias 'widgets' of 'mesh' is the live id of feature "
        "'widgets': an alias keeps a former id's address, and this one already opens 'widgets' (rename 'widgets', "
        "or drop the alias)",
        f"{at(content_copy, '[mesh]', after=1, rel=rel)}: features[0].aliases[0]: alias 'mesh' of 'widget-compiler' is the live id of feature "
        "'mesh': an alias keeps a former id's address, and this one already opens 'mesh' (rename 'mesh', or drop the "
        "alias)",
    ]


@pytest.mark.parametrize("bad", ["2.0-2.14", "2.15"])
@pytest.mark.parametrize("field", ["id", "aliases[0]"])
def test_a_feature_id_or_former_id_without_a_letter_is_refused(content_copy, bad, field):
    """Issue 47: features/2.0-2.14/ is the features page of a span of releases, beside the features'
    own pages (features/<id>/); a feature id or alias with no letter could take such an address."""
    if field == "id":  # the release entry, and its catalogue feature
        edit(content_copy, "  - id: mesh", f"  - id: '{bad}'")
        edit(content_copy, "  - id: mesh", f"  - id: '{bad}'", CATALOGUE)
    else:
        edit(content_copy, "    about: A mesh of devices.", f"    aliases: ['{bad}']\n    about: A mesh.", CATALOGUE)
    assert problems(content_copy) == [
        f"{at(content_copy, repr(bad), rel=CATALOGUE)}: features[3].{field}: feature id '{bad}' has no letter: "
        f"features/{bad}/ could be the address of the features page of a span of releases (such as "
        "features/2.0-2.14/); put a letter in it"
    ]


def test_a_restore_that_cannot_be_typed_is_refused_with_a_suggestion(content_copy):
    """Issue #22: `grad_placements` (no value) and a sentence were shown as the way back."""
    rel = Path("changes/2.8.yaml")
    edit(content_copy, "    restore: TORCH_CAT_LEGACY=1", "    restore: add ATEN to max_autotune_gemm_backends", rel)
    edit(
        content_copy,
        "    note: Hand-written remark.",
        "    note: Hand-written remark.\n    restore: grad_placements",
        rel,
    )
    found = problems(content_copy)
    assert [p.split(" restore '")[0] for p in found] == [
        f"{at(content_copy, 'add ATEN', rel=rel)}: changes[0].restore:",
        f"{at(content_copy, 'restore: grad_placements', after=9, rel=rel)}: changes[1].restore:",
    ]
    assert found[0].endswith("(did you mean 'max_autotune_gemm_backends=<old value>'?)")
    assert found[1].endswith("(did you mean 'grad_placements=<old value>'?)")
    assert "is not a flag, argument, environment variable or command" in found[0]


@pytest.mark.parametrize(
    "value",
    [
        "weights_only=False",
        "torch._inductor.config.max_autotune_defer_layout_freezing = True",
        "TORCH_ONNX_ENABLE_DRAFT_EXPORT=True",
        'options={"reorder_for_peak_memory": False}',
        "grad_placements=[Partial()]",
        "--master-port=29500",
        "pip install torch --index-url https://download.pytorch.org/whl/cu126",
    ],
)
def test_restore_forms_a_reader_can_type_pass(value):
    from generator.load.upgrade_rules import restore_problem

    assert restore_problem(value) is None


@pytest.mark.parametrize("value", ["grad_placements", "set it back", "weights_only=", "x = two words", "--"])
def test_restore_forms_that_are_not_a_way_back_fail(value):
    from generator.load.upgrade_rules import restore_problem

    assert restore_problem(value)


def test_a_change_that_asks_nothing_may_not_sit_in_the_breaking_section(content_copy):
    """Issue #22: "no action needed" notes were listed as breaking changes."""
    rel = Path("changes/2.8.yaml")
    edit(content_copy, "    kind: behaviour-change\n", "    kind: no-action\n", rel)
    edit(content_copy, "    note: Hand-written remark.", "    note: Hand-written remark.\n    kind: no-action", rel)
    assert problems(content_copy) == [
        f"{at(content_copy, 'no-action', rel=rel)}: changes[0].kind: kind 'no-action' says the change asks nothing, but it sits in the "
        "bc-breaking section: use one of api-removed, behaviour-change, default-change, build-packaging, numerics "
        "(did you mean 'behaviour-change'?)"
    ]


@pytest.mark.parametrize(
    ("kind", "note", "refused"),
    [
        (
            "behaviour-change",
            "An internal fix: nothing is deprecated, and code needs no change.",
            "nothing is deprecated",
        ),
        ("api-removed", "The docstring changed. Nothing to change.", "Nothing to change"),
        ("no-action", "An internal fix: nothing is deprecated, and code needs no change.", None),
        ("behaviour-change", "Nothing to change for well-formed files; regenerate a refused one.", None),
        ("behaviour-change", "Pass `x` explicitly.", None),
    ],
)
def test_a_note_that_asks_nothing_goes_with_the_kind_that_says_so(kind, note, refused):
    """Issue 45: 11 of 2.4's deprecation notes said nothing needs changing, filed `behaviour-change`,
    and swelled the 2.3 -> 2.4 guide."""
    from generator.load.upgrade_rules import note_problem

    why = note_problem(kind, note)
    assert (why is None) if refused is None else (f"'{refused}'" in why and "use kind no-action" in why)


# A build reads about half the files in a forked child (load._parse_all). Checked in a fresh
# interpreter: the test session may run threads (the served site), and a process with threads
# never forks.
_BOTH_WAYS = r"""
import os, sys
from pathlib import Path
from generator.load import load as L
from generator.util import forked
from generator.model.errors import ContentError

content = Path(sys.argv[1])
made, parse_file = [], L._parse_file
parent = os.getpid()


class Spy(forked.Forked):
    def __init__(self, work):
        made.append(1)
        super().__init__(work)


def dying(display, kind, raw):  # the child dies before it hands anything back
    if os.getpid() != parent:
        os._exit(3)
    return parse_file(display, kind, raw)


def run(parallel_from, child=forked.Forked, parse=parse_file):
    L.PARALLEL_FROM, forked.Forked, L._parse_file = parallel_from, child, parse
    try:
        return repr(L.load(content))
    except ContentError as exc:
        return [str(p) for p in exc.problems]


serial = run(10**9)
assert not made
together = run(1, Spy)
assert made == [1], made
dead = run(1, Spy, dying)
assert len(made) == 2, made
print("same" if serial == together == dead else f"differ:\n{serial}\n{together}\n{dead}")
"""


def _read_both_ways(content: Path) -> str:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _BOTH_WAYS, str(content)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_files_read_in_a_forked_child_give_the_model_read_here():
    """The real content: the same model whether half its files are read in a child or all here,
    and when the child dies before handing them back."""
    assert _read_both_ways(Path(__file__).resolve().parent.parent / "content") == "same"


def test_files_read_in_a_forked_child_give_the_same_problems_in_the_same_order(content_copy):
    edit(content_copy, 'version: "2.8"', "version: 2.10")  # a problem in a release file
    edit(content_copy, "id: widget-compiler", "id: Widget Compiler", CATALOGUE)  # and in the catalogue
    (content_copy / "tiers.yaml").write_text("tiers: [\n", encoding="utf-8")  # a file that does not parse
    assert _read_both_ways(content_copy) == "same"


def test_change_new_is_refused_for_a_capability_announced_before(content_copy):
    """`new` only for what is new to PyTorch: not for a feature announced before, under its id or a
    former id, nor for a family one of whose members was announced before."""
    edit(content_copy, "    tier: api-stable\n    change: promoted", "    tier: api-stable\n    change: new")
    release = content_copy / REL
    release.write_text(
        release.read_text(encoding="utf-8").replace(
            "features:\n",
            "features:\n  - {id: widgets, title: Widgets, change: new, backends: [], summary: All widgets.,"
            " source: 'https://example.org/2.8'}\n",
            1,
        ),
        encoding="utf-8",
    )
    lines = release.read_text(encoding="utf-8").split("\n")
    family = next(i for i, line in enumerate(lines, 1) if "id: widgets" in line)
    compiler = next(
        i for i, line in enumerate(lines, 1) if line == "    change: new" and "widget-compiler" in lines[i - 4]
    )
    found = problems(content_copy)
    assert (
        f"releases/2.8.yaml:{family}:43: features[0].change: 'widgets' was already announced in 2.7 as its member 'widget-compiler': `new` is for what is new to PyTorch; use improved, promoted or renamed"
        in found
    )
    assert any(
        p.startswith(
            f"releases/2.8.yaml:{compiler}:13: features[1].change: 'widget-compiler' was already announced in 2.7:"
        )
        for p in found
    ), found
