"""Every anchor we hand out is a promise: the URL guard covers change, symbol and section anchors,
and an edit keeps them (a change's `anchors:`, a retired symbol in content/symbols.yaml), through
`check`, a build and a re-import."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from generator.model import urls
from generator.model.errors import ContentError
from generator.notes import importer as import_notes
from generator.notes.importer import parse_notes, render_changes_yaml
from generator.pipeline import manifest
from generator.pipeline.build import site_model
from tests.conftest import FIXTURE, real_model, run_cli
from tests.helpers import line_of

CAT = "`torch.cat` now raises on mismatched dtypes (#301)"
ALL_REDUCE = "Faster all_reduce (#302, #303)"


def ids_on(html: str) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', html))


def change_item(html: str, anchor: str) -> str:
    """The release page's list item of the change holding `anchor` (as its id or a span's)."""
    for item in re.findall(r'<li id="[^"]+">.*?</li>', html, flags=re.S):
        if f'id="{anchor}"' in item:
            return item
    raise AssertionError(f"no change holds #{anchor}")


def anchor_of(text: str) -> str:
    return urls.change_anchors([text])[0]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def promised(content_copy, tmp_path) -> Path:
    """The fixture's published-URL manifest, as a first build records it."""
    path = tmp_path / "published_urls.txt"
    assert manifest.guard(site_model(content_copy), path)
    return path


def messages(exc: pytest.ExceptionInfo) -> list[str]:
    return [str(p) for p in exc.value.problems]


# --- What the guard promises ----------------------------------------------------------------


def test_every_promised_anchor_is_an_id_on_its_page_and_every_change_and_symbol_is_promised(fixture_site):
    site = site_model(FIXTURE)
    published = manifest.published(site)
    anchors = sorted(u for u in published if "#" in u)
    assert {urls.promise(u)[0] for u in anchors} == {"change", "pr", "symbol", "section", "entry"}
    for url in anchors:
        page, _, anchor = url.partition("#")
        assert anchor in ids_on((fixture_site / page / "index.html").read_text(encoding="utf-8")), url
    release = (fixture_site / "releases/2.8/index.html").read_text(encoding="utf-8")
    handed_out = re.findall(r'<li id="([^"]+)">', release)
    assert len(handed_out) == 4 and {f"releases/2.8/#{a}" for a in handed_out} <= published  # 3 changes, 2.8.1's fix
    for a in handed_out:  # the ¶ link hands out the change's own anchor
        assert f'<a href="#{a}">¶</a></p></li>' in change_item(release, a)
    symbols = (fixture_site / "symbols/torch/index.html").read_text(encoding="utf-8")
    names = re.findall(r'<h2 id="(torch\.[^"]+)"', symbols)
    assert names == ["torch.cat", "torch.compile"]
    assert {f"symbols/torch/#{n}" for n in names} <= published
    assert {"releases/2.8/#upgrading", "releases/2.8/#known-issues", "upgrade/#defaults"} <= published


def test_the_committed_manifest_holds_every_anchor_the_real_site_hands_out():
    committed = set(manifest.DEFAULT.read_text(encoding="utf-8").splitlines())
    site = real_model()
    now = manifest.published(site)
    missing = sorted(now - committed)
    assert not missing, (
        f"{len(missing)} not recorded, e.g. {missing[:3]}: run `python -m generator build`, commit the file"
    )
    kinds = Counter(urls.promise(url)[0] for url in now)
    assert kinds["change"] == sum(len(r.changes) + sum(len(p.changes) for p in r.patches) for r in site.releases)
    assert kinds["symbol"] == sum(len(m.symbols) for m in site.symbol_pages.values())
    text = manifest.DEFAULT.read_text(encoding="utf-8")
    urls_listed = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert urls_listed == sorted(set(urls_listed))  # sorted, once each: the file diffs well


# --- Edit a record line ------------------------------------------------------------------------


def test_an_edited_record_line_fails_the_guard_until_its_old_anchor_is_kept(content_copy, promised):
    old = anchor_of(CAT)
    changes = content_copy / "changes/2.8.yaml"
    edit(changes, CAT, "`torch.cat` now raises on mismatched dtypes and devices (#301)")
    with pytest.raises(ContentError) as exc:
        manifest.guard(site_model(content_copy), promised)
    line = promised.read_text().splitlines().index(f"releases/2.8/#{old}") + 1
    assert messages(exc) == [
        f"{promised}:{line}:1: published anchor /releases/2.8/#{old} would disappear: add {old} to "
        "`anchors:` of the change it became (edited or merged into) in content/changes/2.8.yaml"
    ]
    edit(changes, "    prs: [301]\n", f"    prs: [301]\n    anchors: [{old}]\n")
    assert manifest.guard(site_model(content_copy), promised)  # kept; the new anchor is recorded
    assert f"releases/2.8/#{anchor_of('`torch.cat` now raises on mismatched dtypes and devices (#301)')}" in (
        promised.read_text().splitlines()
    )


def test_merged_records_keep_both_anchors_on_the_one_they_joined(content_copy, promised):
    first, second = anchor_of(CAT), anchor_of(ALL_REDUCE)
    changes = content_copy / "changes/2.8.yaml"
    data = yaml.safe_load(changes.read_text())
    merged = dict(data["changes"][0], text="`torch.cat` raises on mixed dtypes; all_reduce is faster (#301, #302)")
    merged.update(prs=[301, 302, 303], backends=["cuda", "distributed"])  # both backends keep their 2.8 page
    data["changes"] = [merged, *data["changes"][2:]]
    changes.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(ContentError) as exc:
        manifest.guard(site_model(content_copy), promised)
    assert {m.split(": ", 1)[1].split(" would")[0] for m in messages(exc)} == {
        f"published anchor /releases/2.8/#{first}",
        f"published anchor /releases/2.8/#{second}",
    }
    data["changes"][0]["anchors"] = [first, second]
    changes.write_text(yaml.safe_dump(data, sort_keys=False))
    manifest.guard(site_model(content_copy), promised)


# --- Remove a symbol -----------------------------------------------------------------------------


def test_a_removed_symbol_fails_the_guard_until_it_is_retired(content_copy, promised, tmp_path):
    changes = content_copy / "changes/2.8.yaml"
    edit(changes, CAT, "`torch.concat` now raises on mismatched dtypes (#301)")
    edit(changes, "    prs: [301]\n", f"    prs: [301]\n    anchors: [{anchor_of(CAT)}]\n")
    with pytest.raises(ContentError) as exc:
        manifest.guard(site_model(content_copy), promised)
    line = promised.read_text().splitlines().index("symbols/torch/#torch.cat") + 1
    assert messages(exc) == [
        f"{promised}:{line}:1: published anchor /symbols/torch/#torch.cat would disappear: retire it in "
        "content/symbols.yaml: `- {name: torch.cat, page: torch, successor: <a listed name>}` "
        "(or `reason:` where nothing replaces it)"
    ]
    symbols = content_copy / "symbols.yaml"
    symbols.write_text("retired:\n  - {name: torch.cat, page: torch, successor: torch.concat}\n")
    site = site_model(content_copy)
    manifest.guard(site, promised)
    [kept] = site.symbol_pages["torch"].retired
    assert (kept.name, kept.successor, kept.successor_page) == ("torch.cat", "torch.concat", "torch")


def test_a_retired_symbol_whose_page_is_gone_keeps_that_page(content_copy, promised):
    """The last name of a module page retired with a reason: the page stays, saying why."""
    edit(content_copy / "releases/2.7.yaml", "with `torch.compile`", "with the compiler")
    with pytest.raises(ContentError):
        manifest.guard(site_model(content_copy), promised)
    (content_copy / "symbols.yaml").write_text(
        "retired:\n  - name: torch.compile\n    page: torch\n    reason: The entry now says `compiler` in words.\n"
    )
    site = site_model(content_copy)
    manifest.guard(site, promised)
    assert [r.name for r in site.symbol_pages["torch"].retired] == ["torch.compile"]


def test_a_name_the_notes_still_write_is_retired_as_still_named(content_copy, promised):
    """A typo the notes keep (here torch.cat, as if it were one): `still_named` unlists it, its
    anchor stays with the successor, and the guard is satisfied."""
    (content_copy / "symbols.yaml").write_text(
        "retired:\n  - {name: torch.cat, page: torch, successor: torch.compile, still_named: true}\n"
    )
    site = site_model(content_copy)
    manifest.guard(site, promised)
    assert "torch.cat" not in {s.name for s in site.symbol_pages["torch"].symbols}
    [kept] = site.symbol_pages["torch"].retired
    assert (kept.name, kept.successor) == ("torch.cat", "torch.compile")


def test_past_fifty_vanished_urls_the_guard_says_one_line(content_copy, tmp_path):
    path = tmp_path / "published_urls.txt"
    fake = [f"releases/2.8/#c-{n:08x}" for n in range(60)] + ["symbols/torch/#torch.gone"]
    path.write_text("".join(f"{u}\n" for u in fake))
    with pytest.raises(ContentError) as exc:
        manifest.guard(site_model(content_copy), path)
    [line] = messages(exc)
    assert line.startswith(f"{path}:1:1: 61 published URLs would disappear (60 change anchors, 1 symbol anchors); ")
    assert "the first: published anchor /releases/2.8/#c-00000000 would disappear: add c-00000000" in line


# --- check refuses what would not land -------------------------------------------------------------


def test_check_refuses_an_alias_that_is_a_live_anchor_or_claimed_twice(content_copy):
    changes = content_copy / "changes/2.8.yaml"
    live = anchor_of(CAT)
    edit(changes, "    note: Hand-written remark.\n", f"    note: Hand-written remark.\n    anchors: [{live}]\n")
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    alias, first = line_of(changes, f"anchors: [{live}]"), line_of(changes, "  - section:")
    assert re.match(
        rf".*changes/2\.8\.yaml:{alias}:\d+: changes\[1\]\.anchors\[0\]: '{live}' is the anchor of the change "
        rf"at line {first} now: remove it here\n",
        proc.stderr,
    ), proc.stderr
    edit(changes, f"anchors: [{live}]", "anchors: [c-0000abcd]")
    edit(changes, "    prs: [301]\n", "    prs: [301]\n    anchors: [c-0000abcd]\n")
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1
    assert (
        f"changes[1].anchors[0]: 'c-0000abcd' is already kept by the change at line {first}: keep it once"
        in proc.stderr
    )
    edit(changes, "    anchors: [c-0000abcd]\n    kind", "    anchors: [mesh]\n    kind")
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1
    assert "changes[0].anchors[0]: 'mesh' does not have the expected form" in proc.stderr


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("{name: torch.cat, page: torch, reason: Gone.}", "torch.cat is listed on /symbols/torch/ now"),
        ("{name: torch.cta, page: torch, reason: x, still_named: true}", "no change or entry names torch.cta any"),
        ("{name: torch.cat, page: torch.x, reason: x, still_named: true}", "would be listed on /symbols/torch/"),
        ("{name: torch.cta, page: torch, successor: torch.cta2}", "successor torch.cta2 is not a name the symbol"),
        ("{name: torch.cta, page: torch, successor: torch.caat}", "(did you mean 'torch.cat'?)"),
        ("{name: torch.cta, page: torch}", "retired[0]: needs 'successor' or 'reason'"),
        ("{name: torch.cta, page: torch, reason: x, sucessor: torch.cat}", "(did you mean 'successor'?)"),
    ],
)
def test_check_refuses_a_retired_symbol_that_would_not_land(content_copy, entry, message):
    (content_copy / "symbols.yaml").write_text(f"retired:\n  - {entry}\n")
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert re.match(r".*symbols\.yaml:2:\d+: ", proc.stderr), proc.stderr
    assert message in proc.stderr, proc.stderr


# --- The importer keeps anchors by itself -------------------------------------------------------------

NOTES = """## Bug fixes

### Autograd

- Fix gradient of `torch.cat` for empty inputs (#11)
- Fix a crash in backward hooks (#12)
- Fix a typo in an error message

### CUDA

- Fix a race in the caching allocator (#13, #14)
"""


def reimport(previous: str, notes: str) -> tuple[dict, list[str]]:
    changes = [import_notes.record_of(c) for c in parse_notes(notes, "notes.md").changes]
    hand, _, lost = import_notes._match_hand_fields(changes, previous)
    text = render_changes_yaml("2.99", "https://example.org/notes", parse_notes(notes, "notes.md").changes, previous)
    return yaml.safe_load(text), lost


def anchors_by_text(data: dict) -> dict[str, list[str]]:
    return {c["text"]: c.get("anchors", []) for c in data["changes"]}


def test_a_reimport_that_changes_a_record_line_keeps_its_old_anchor():
    first, _ = reimport(None, NOTES)
    previous = yaml.safe_dump(first, sort_keys=False)
    again, lost = reimport(previous, NOTES)
    assert again == first and lost == []  # nothing changed: no alias
    amended = NOTES.replace("for empty inputs (#11)", "for empty and zero-size inputs (#11)")
    data, lost = reimport(previous, amended)
    assert anchors_by_text(data)["- Fix gradient of `torch.cat` for empty and zero-size inputs (#11)"] == [
        anchor_of("- Fix gradient of `torch.cat` for empty inputs (#11)")
    ]
    assert lost == [] and sum(map(len, anchors_by_text(data).values())) == 1
    # A later re-import keeps the alias. One that restores the old line drops it (the line has it
    # again as its own) and keeps the amended line's anchor instead.
    kept, _ = reimport(yaml.safe_dump(data, sort_keys=False), amended)
    assert kept == data
    restored, _ = reimport(yaml.safe_dump(data, sort_keys=False), NOTES)
    assert anchors_by_text(restored)["- Fix gradient of `torch.cat` for empty inputs (#11)"] == [
        anchor_of("- Fix gradient of `torch.cat` for empty and zero-size inputs (#11)")
    ]


def test_a_reimport_that_merges_records_keeps_both_anchors_on_the_merged_one():
    first, _ = reimport(None, NOTES)
    merged = NOTES.replace(
        "- Fix gradient of `torch.cat` for empty inputs (#11)\n- Fix a crash in backward hooks (#12)\n",
        "- Fix gradient of `torch.cat` for empty inputs and a crash in backward hooks (#11, #12)\n",
    )
    data, lost = reimport(yaml.safe_dump(first, sort_keys=False), merged)
    assert lost == []
    assert sorted(
        anchors_by_text(data)["- Fix gradient of `torch.cat` for empty inputs and a crash in backward hooks (#11, #12)"]
    ) == sorted(
        [
            anchor_of("- Fix gradient of `torch.cat` for empty inputs (#11)"),
            anchor_of("- Fix a crash in backward hooks (#12)"),
        ]
    )


def test_a_reimport_carries_hand_written_anchors_and_names_those_it_cannot_place(tmp_path, capsys):
    first, _ = reimport(None, NOTES)
    first["changes"][3]["anchors"] = ["c-00000001"]  # kept by hand on the allocator change
    target = tmp_path / "2.99.yaml"
    target.write_text(yaml.safe_dump(first, sort_keys=False))
    notes = tmp_path / "notes.md"
    notes.write_text(NOTES.replace("Fix a typo in an error message", "Fix two typos in error messages"))
    assert import_notes.command(str(notes), "2.99", str(target), False, str(FIXTURE)) == 0
    err = capsys.readouterr().err
    lost = anchor_of("- Fix a typo in an error message")
    assert f"#{lost} (the change '- Fix a typo in an error message'): no re-imported change" in err
    data = yaml.safe_load(target.read_text())
    assert data["changes"][3]["anchors"] == ["c-00000001"]
