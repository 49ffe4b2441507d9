"""Live preview renders only what an edit touches, and what it writes equals a full render."""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import operator
import random
import re
import shutil
from pathlib import Path

import pytest
import yaml

from generator.load.schema import SCHEMA_DIR
from generator.model.errors import ContentError
from generator.pages import describe
from generator.pipeline import build
from generator.render.render import render_all
from tests.conftest import FIXTURE, ROOT

EDITS = [
    # (file, old, new): a release's own field, an entry's summary and tier, a change's text
    ("releases/2.8.yaml", "The second fixture release.", "The second fixture release, edited."),
    ("releases/2.8.yaml", "Widgets compile on CUDA for good.", "Widgets compile on CUDA, edited."),
    ("changes/2.8.yaml", "Faster all_reduce", "Faster all_reduce, edited"),
    ("releases/2.8.yaml", "    tier: api-stable", "    tier: api-unstable\n    reason: an edit"),
    # API symbol pages: a name moves to a new module page; a feature stops naming one
    ("changes/2.8.yaml", "`torch.cat` now raises", "`torch.export.export` now raises"),
    ("releases/2.7.yaml", "Compiles widgets with `torch.compile`.", "Compiles widgets."),
]


def _full(content: Path) -> dict[str, bytes]:
    return render_all(build.site_model(content), build.site_url())


def _regenerate_after(
    tmp_path: Path, source: Path, path: str, old: str, new: str
) -> tuple[Path, Path, list[str], list[str]]:
    """Generate a copy of source, make one edit, generate again: (content, docs, paths rewritten,
    pages and API files rendered again)."""
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(source, content)
    preview = build.Preview()
    build.generate(content, docs, preview)
    target = content / path
    text = target.read_text(encoding="utf-8")
    assert old in text, f"{path} no longer holds {old!r}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    _, written = build.generate(content, docs, preview)
    return content, docs, written, preview.rendered.fresh


def _on_disk(docs: Path) -> dict[str, bytes]:
    return {p.relative_to(docs).as_posix(): p.read_bytes() for p in docs.rglob("*") if p.is_file()}


@pytest.mark.parametrize("edit", EDITS, ids=[f"{e[0]}:{e[1][:20]}" for e in EDITS])
def test_incremental_regeneration_equals_a_full_render(tmp_path, edit):
    content, docs, written, fresh = _regenerate_after(tmp_path, FIXTURE, *edit)
    assert written, "the edit changed nothing"
    assert _on_disk(docs) == _full(content)


def test_an_edit_to_a_release_summary_renders_only_the_pages_that_show_it(tmp_path):
    content, docs, written, fresh = _regenerate_after(
        tmp_path, ROOT / "content", "releases/2.14.yaml", "summary: >-\n  ", "summary: >-\n  Edited. "
    )
    # The newest release's summary is also on the home page; an older one's is not. The calendar
    # describes every release by its summary.
    written_ = {"index.md", "releases/2.14/index.md", "api/v1/releases/2.14.json", "feed.xml", "calendar.ics"}
    assert set(written) == written_
    # Every file goes through the render's one memo: what is made again is what is written (the
    # 318 feature, family and module feeds, the badges and symbol data read no summary).
    assert set(fresh) == written_
    assert _on_disk(docs) == _full(content)


def test_an_edit_to_a_release_summary_computes_again_only_what_holds_that_release(tmp_path):
    """Bounded work: the model after the edit shares every object the edit could not change with
    the model before it (generator.util.session, load's kept documents), so the comparison of the two that
    picks the pages to render again stops at once everywhere else."""
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(ROOT / "content", content)
    preview = build.Preview()
    before, _ = build.generate(content, docs, preview)
    target = content / "releases" / "2.14.yaml"
    target.write_text(target.read_text(encoding="utf-8").replace("summary: >-\n  ", "summary: >-\n  Edited. ", 1))
    after, _ = build.generate(content, docs, preview)

    assert after.latest.summary.startswith("Edited.") and after.latest is not before.latest
    assert after.releases[:-1] == before.releases[:-1]
    assert all(map(operator.is_, after.releases[:-1], before.releases[:-1]))  # load kept the other files' releases
    # 2.14's file was read again, so its entries are new objects: equal ones, the summary aside.
    assert after.latest.entries == before.latest.entries
    # Made from entries, catalogue and change lists, none of which changed: the same objects.
    for name in ("features", "timeline", "contributors", "ledger", "symbol_pages", "tier_pages", "tier_levels"):
        assert getattr(after, name) is getattr(before, name), name
    assert after.home.story is before.home.story
    for version in before.versions[:-1]:
        assert after.release_views[version] is before.release_views[version], version
    # What holds the 2.14 release itself is made again, and shows the edit.
    assert after.release_views["2.14"] is not before.release_views["2.14"]
    assert after.release_views["2.14"].release is after.latest

    def holds_latest(family) -> bool:  # announcements, own changes or members' changes of 2.14
        pairs = family.by_release + family.own_changes + family.member_actions
        return any(r is after.latest for r, _ in pairs)

    touched = [f for f in after.families if holds_latest(f)]
    assert touched and all(f is not before.family_by_id[f.node.id] for f in touched)
    untouched = [f for f in after.families if not holds_latest(f)]
    assert untouched and all(f is before.family_by_id[f.node.id] for f in untouched)
    assert _on_disk(docs) == _full(content)


def test_a_save_draws_the_head_fields_of_only_the_pages_whose_view_changed(tmp_path, monkeypatch):
    """A page's head fields (describe.page_head) are last save's where its view holds the very
    objects it held then: a save does not draw every page's head."""
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(FIXTURE, content)
    preview = build.Preview()
    before, _ = build.generate(content, docs, preview)
    path, old, new = EDITS[0]
    target = content / path
    target.write_text(target.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    drawn = []
    page_head = describe.page_head

    def counted(site, page, base):
        drawn.append(page.url)
        return page_head(site, page, base)

    monkeypatch.setattr(describe, "page_head", counted)
    after, _ = build.generate(content, docs, preview)
    was = {page.url: page.context for page in before.pages}
    changed = {
        page.url
        for page in after.pages
        if page.url not in was
        or page.context.keys() != was[page.url].keys()
        or any(page.context[k] is not was[page.url][k] for k in page.context)
    }
    assert changed and len(changed) < len(after.pages)
    assert sorted(drawn) == sorted(changed)
    assert _on_disk(docs) == _full(content)


def test_a_save_parses_only_the_file_whose_bytes_changed(tmp_path, monkeypatch):
    """Each file's document is derived from its bytes (generator.util.session): an edit parses that
    file alone, and a file saved again unchanged (a new mtime, the same bytes) is not parsed."""
    from generator.load import load

    parsed: list[str] = []
    parse = load._parse_file

    @functools.wraps(parse)
    def spy(display, kind, raw):
        parsed.append(Path(display).name)
        return parse(display, kind, raw)

    monkeypatch.setattr(load, "_parse_file", spy)
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(FIXTURE, content)
    preview = build.Preview()
    build.generate(content, docs, preview)
    assert len(parsed) == len(list(content.rglob("*.yaml"))) > 5
    parsed.clear()
    target = content / "releases" / "2.8.yaml"
    target.write_text(target.read_text(encoding="utf-8").replace("The second fixture release.", "Edited.", 1))
    build.generate(content, docs, preview)
    assert parsed == ["2.8.yaml"]
    parsed.clear()
    for path in content.rglob("*.yaml"):
        path.write_bytes(path.read_bytes())  # saved again: new mtimes, the same bytes
    build.generate(content, docs, preview)
    assert parsed == []


def test_an_edit_naming_a_symbol_renders_its_module_page_and_not_the_others(tmp_path):
    old = "## Raise appropriate errors in `torch.cat` (#158249)"
    new = "## Raise appropriate errors in `torch.cat` and `torch.stack` (#158249)"
    content, docs, written, fresh = _regenerate_after(tmp_path, ROOT / "content", "changes/2.9.yaml", old, new)
    symbol_pages = {p for p in written if p.startswith("symbols/")}
    # torch.stack was named before: the index stays; the module's feed follows its page, and
    # torch.cat, named more often than its module page lists, has a page of its own naming the change
    assert symbol_pages == {"symbols/torch/index.md", "symbols/torch/feed.xml", "symbols/torch/torch.cat/index.md"}
    assert "releases/2.9/index.md" in written and "releases/2.8/index.md" not in written
    assert _on_disk(docs) == _full(content)


def test_a_pr_added_to_a_newer_entry_re_renders_the_older_release_whose_change_cites_it(tmp_path):
    """2.9's change "Min supported Python version is now 3.10 (#162310)" is tied to a feature once
    a 2.10 entry of that feature cites #162310: the 2.9 page shows the tie, though only 2.10's
    file changed."""
    old = "    source: https://pytorch.org/blog/pytorch-2-10-release-blog/\n    highlight: true\n"
    new = "    prs: [162310]\n" + old
    content, docs, written, fresh = _regenerate_after(tmp_path, ROOT / "content", "releases/2.10.yaml", old, new)
    assert "releases/2.9/index.md" in written
    assert "releases/2.8/index.md" not in fresh
    assert _on_disk(docs) == _full(content)


# --- Random edits: whatever is edited, live preview writes what a full render writes -------------


def _rewrite(path: Path, change) -> None:
    """Load a content file, let `change` edit its data, write it back under its schema line."""
    text = path.read_text(encoding="utf-8")
    header = text.split("\n", 1)[0]
    data = yaml.safe_load(text)
    change(data)
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10_000)
    path.write_text(header + "\n" + body, encoding="utf-8")


def _edit_entry(rng: random.Random, content: Path, step: int) -> str:
    path = rng.choice(sorted((content / "releases").glob("*.yaml")))
    cited = sorted(
        {
            pr
            for f in (content / "changes").glob("*.yaml")
            for c in yaml.safe_load(f.read_text())["changes"]
            for pr in c["prs"]
        }
    )
    what = rng.choice(["summary", "title", "pr", "highlight", "contributor"])

    def change(data):
        entry = rng.choice(data["features"])
        if what == "summary":
            entry["summary"] += f" Edit {step}."
        elif what == "title":
            entry["title"] += f" {step}"
        elif what == "pr":  # often a PR a change of another release cites: that change joins the feature
            prs = entry.get("prs", [])
            entry["prs"] = sorted(set(([prs] if isinstance(prs, int) else prs) + [rng.choice(cited + [900 + step])]))
        elif what == "highlight":
            entry["highlight"] = not entry.get("highlight", False)
        else:
            entry["contributors"] = [*entry.get("contributors", []), f"Person {step}"]

    _rewrite(path, change)
    return f"{path.name}: entry {what}"


def _edit_change(rng: random.Random, content: Path, step: int) -> str:
    path = rng.choice(sorted((content / "changes").glob("*.yaml")))
    what = rng.choice(["text", "pr", "note", "area"])

    def change(data):
        item = rng.choice(data["changes"])
        if what == "text":  # its record line: its anchor, symbol names and search words move with it
            item["text"] = item["text"].replace(" (#", f" `torch.edit{step}` (#", 1)
        elif what == "pr":
            item["prs"] = sorted({*item["prs"], rng.choice([101, 102, 201, 950 + step])})
        elif what == "note":
            item["note"] = f"Edited note {step}."
        else:
            item["area"] = rng.choice(["CUDA", "Distributed › c10d", "MPS", f"Area {step}"])

    _rewrite(path, change)
    return f"{path.name}: change {what}"


def _edit_catalogue(rng: random.Random, content: Path, step: int) -> str:
    path = content / "features" / "fixture.yaml"
    what = rng.choice(["name", "about"])

    def change(data):
        feature = rng.choice(data["features"])
        feature[what] = f"{feature[what]} {step}" if what == "name" else f"Edited about {step}."

    _rewrite(path, change)
    return f"catalogue {what}"


def _edit_date(rng: random.Random, content: Path, step: int) -> str:
    """The first release a day earlier, or the last a day later: the order stays."""
    first = rng.random() < 0.5
    path = sorted((content / "releases").glob("*.yaml"))[0 if first else -1]

    def change(data):
        data["date"] += datetime.timedelta(days=-1 if first else 1)

    _rewrite(path, change)
    return f"{path.name}: date"


def test_random_edits_regenerate_exactly_what_a_full_render_writes(tmp_path):
    rng = random.Random(21)
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(FIXTURE, content)
    preview = build.Preview()
    build.generate(content, docs, preview)
    edits = [_edit_entry, _edit_change, _edit_catalogue, _edit_date]
    done, fresh = [], []
    for step in range(40):
        done.append(rng.choice(edits)(rng, content, step))
        build.generate(content, docs, preview)
        assert _on_disk(docs) == _full(content), done
        fresh.append(len(preview.rendered.fresh))
    assert min(fresh) < len(preview.rendered.built_from), fresh  # it did keep pages: the test tests something
    assert {d.split(": ")[-1].split()[0] for d in done} >= {"entry", "change", "catalogue", "date"}


# --- Every kind of field: an edit of each, live preview writes what a full render writes ---------


def _leaves(data, path: tuple = ()):
    """(path, value) of every field of a content file; a list of scalars is one field."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(data, list) and data and all(isinstance(x, dict | list) for x in data):
        for i, value in enumerate(data):
            yield from _leaves(value, (*path, i))
    else:
        yield path, data


def _kind(rel: str, path: tuple) -> str:
    """A field's kind: its file's kind and its path, list positions left out
    (`releases/*.yaml: features[].tier`)."""
    folder, _, name = rel.rpartition("/")
    where = f"{folder}/*.yaml" if folder else name
    return where + ": " + ".".join("[]" if isinstance(p, int) else p for p in path).replace(".[]", "[]")


def _fields(content: Path) -> dict[str, list[tuple[str, tuple, object]]]:
    """Every field of the content, by kind: (file, path, value) of each."""
    kinds: dict[str, list] = {}
    for file in sorted(content.rglob("*.yaml")):
        rel = file.relative_to(content).as_posix()
        for path, value in _leaves(yaml.safe_load(file.read_text(encoding="utf-8"))):
            kinds.setdefault(_kind(rel, path), []).append((rel, path, value))
    return kinds


def _bumped(value: str) -> list[str]:
    """A partial date one month on ("2025-06" -> "2025-07"); else the value with its last number
    one up and one down ("3.9" -> "3.10", "3.8"; "C++17" -> "C++18", "C++16")."""
    if re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", value):
        year, month, *day = value.split("-")
        return ["-".join([year, f"{int(month) % 12 + 1:02}", *day])]
    numbers = list(re.finditer(r"\d+", value))
    if not numbers:
        return []
    last = numbers[-1]
    return [
        value[: last.start()] + str(int(last[0]) + d) + value[last.end() :] for d in (1, -1) if int(last[0]) + d >= 0
    ]


SCHEMAS = {"releases": "release", "changes": "changes", "features": "features"}


def _enum(kind: str) -> list:
    """The values the file's JSON Schema allows the field, when it lists them."""
    where, _, path = kind.partition(": ")
    name = SCHEMAS.get(where.split("/")[0], where.removesuffix(".yaml"))
    node = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    for part in re.findall(r"[^.\[\]]+|\[\]", path):
        node = node.get("items", {}) if part == "[]" else node.get("properties", {}).get(part, {})
    return list(node.get("enum", node.get("items", {}).get("enum", [])))


def _candidates(value, others: list, step: int) -> list:
    """New values for a field, the likeliest to be valid first: the value changed as its type
    allows, then the other values its kind holds elsewhere in the content (or its schema allows)."""
    if isinstance(value, bool):
        own = [not value]
    elif isinstance(value, int):
        own = [value + 1]
    elif isinstance(value, datetime.date):
        own = [value - datetime.timedelta(days=1), value + datetime.timedelta(days=1)]
    elif isinstance(value, list):
        seen = [x for other in others if isinstance(other, list) for x in other if x not in value]
        own = [[*value, seen[0]]] if seen else []
        own += [value[:-1]] if value else []
        if all(isinstance(x, int) for x in value):  # PR numbers, or an empty list of anything
            own.append([*value, 900 + step])
        if all(isinstance(x, str) for x in value):
            own.append([*value, f"edit-{step}"])
    elif isinstance(value, str) and value.startswith("https://"):
        own = [value.rstrip("/") + f"/edit-{step}"]
    elif isinstance(value, str):
        own = [*_bumped(value), f"{value} Edit {step}.", f"{value}{step}"]
    else:
        own = []
    return own + [other for other in others if other != value]


def _set(content: Path, rel: str, path: tuple, value) -> None:
    def change(data):
        node = data
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = value

    _rewrite(content / rel, change)


def _renamed(content: Path, old: str, new: str) -> None:
    """Every field that holds `old` (alone or in a list) holds `new` instead: an id renamed."""
    for kind in _fields(content).values():
        for rel, path, value in kind:
            if value == old:
                _set(content, rel, path, new)
            elif isinstance(value, list) and old in value:
                _set(content, rel, path, [new if x == old else x for x in value])


def _valid(content: Path) -> bool:
    try:
        build.site_model(content)
    except ContentError:
        return False
    return True


def _edit_field(content: Path, kind: str, step: int) -> str | None:
    """Give one field of `kind` a new value that the content accepts (an id is renamed wherever
    it is used); return what was done, or None when no tried value is accepted (the files are
    then as they were)."""
    fields = _fields(content)[kind]
    saved = {p: p.read_bytes() for p in content.rglob("*.yaml")}
    others = [v for _, _, v in fields] + _enum(kind) + OTHER_VALUES.get(kind, [])
    # The field of that kind the step points at, else the next one: a field may hold a value the
    # rules need (the tiers `deprecated` and `removed`), which no edit may change.
    for k in range(len(fields)):
        rel, path, value = fields[(step + k) % len(fields)]
        tries = [(new, False) for new in _candidates(value, others, step)]
        if isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9.-]*", value):
            tries.append((f"{value}-renamed-{step}", True))
        for new, rename in tries:
            if rename:
                _renamed(content, value, new)
            else:
                _set(content, rel, path, new)
            if _valid(content):
                return f"{rel} {kind.split(': ')[1]}: {value!r} -> {new!r}"
            for p, data in saved.items():
                p.write_bytes(data)
    return None


OTHER_VALUES = {
    # Values no field of the fixture holds and no schema lists, that the content accepts.
    "tiers.yaml: tiers[].abbr": ["Q", "X"],
    "releases/*.yaml: compatibility.cuda_experimental": [[{"version": "12.8", "cudnn": "9.7.1.26"}]],
    "symbols.yaml: retired[].successor": ["torch.compile"],
}

UNEDITABLE = {
    # A release's version is its file's name (releases/2.8.yaml, changes/2.8.yaml): changing it
    # is adding one release and removing another, not an edit of a field.
    "releases/*.yaml: version": "the file's name",
    "changes/*.yaml: release": "the file's name",
    # The two vocabularies' ids are a closed list in the schemas, and a release's vocabulary
    # follows from its date (tiers.yaml's from/until): neither changes alone.
    "tiers.yaml: vocabularies[].id": "a closed list",
    "releases/*.yaml: tier_vocabulary": "follows from the release's date",
    # The module page that listed a retired name follows from the name.
    "symbols.yaml: retired[].page": "follows from the name",
}


RETIRED = """# API symbols the fixture retires (a comment line: _rewrite keeps a file's first line)
retired:
  - {name: torch.catt, page: torch, successor: torch.cat}
  - {name: torch.widget, page: torch, reason: A name the notes cut short.}
"""

SHOWN_NOWHERE = {
    # Fields whose edit here writes no generated file, and a full render agrees: no page shows
    # the sources of the counts and of the change lists or the areas' descriptions, and the tier
    # equivalence the edit adds comes after the one pages use (model.tier_in takes the first).
    # The README's recipes say when to change it: a new field no page shows goes in, a field a
    # new page kind shows comes out.
    "areas.yaml: areas[].description",
    "changes/*.yaml: source",
    "releases/*.yaml: counts.source",
    "tiers.yaml: tiers[].equivalent",
}


def _seed(kind: str) -> int:
    """The field kind's own number, from its name: which field of the kind is edited, and the
    number in its new value. Not its place in the list: a kind added to the content (the README's
    recipes) would shift the edit of every kind after it."""
    return int.from_bytes(hashlib.sha256(kind.encode("utf-8")).digest()[:4], "big") % 1000


def test_an_edit_of_every_kind_of_field_regenerates_exactly_what_a_full_render_writes(tmp_path):
    """Each kind of field the content holds (every file, every key, list positions aside) gets one
    new value the content accepts, one after another in one live preview; after each, the
    generated files equal a full render's."""
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(FIXTURE, content)
    preview = build.Preview()
    build.generate(content, docs, preview)
    # The fixture retires no API symbol: the first edit adds symbols.yaml, so its fields are edited too.
    (content / "symbols.yaml").write_text(RETIRED, encoding="utf-8")
    build.generate(content, docs, preview)
    assert _on_disk(docs) == _full(content)
    kinds = sorted(_fields(content))
    done, refused, unseen = [], [], []
    for kind in kinds:
        if kind in UNEDITABLE:
            continue
        what = _edit_field(content, kind, _seed(kind))
        if what is None:
            refused.append(kind)
            continue
        done.append(what)
        _, written = build.generate(content, docs, preview)
        assert _on_disk(docs) == _full(content), done
        if not written:
            unseen.append(kind)
    assert refused == [], f"no new value of these fields was accepted: {refused}"
    assert set(unseen) == SHOWN_NOWHERE, "the fields whose edit changed no generated file changed"
    assert len(done) == len(kinds) - len(UNEDITABLE) >= 73, done


# --- What live preview keeps between saves ------------------------------------------------------


def test_a_generated_file_changed_or_removed_by_hand_is_written_again(tmp_path):
    """Live preview skips reading back what it wrote last time, but not a file someone touched."""
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(FIXTURE, content)
    preview = build.Preview()
    build.generate(content, docs, preview)
    page = docs / "releases" / "2.8" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "a hand edit\n", encoding="utf-8")
    (docs / "tiers" / "index.md").unlink()
    _, written = build.generate(content, docs, preview)
    assert set(written) == {"releases/2.8/index.md", "tiers/index.md"}
    assert _on_disk(docs) == _full(content)


def test_settling_between_saves_keeps_memory_bounded_and_output_exact(tmp_path):
    """Preview.settle freezes what the preview holds; what earlier saves froze and no longer use
    is freed, so the frozen set does not grow save after save."""
    import gc

    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(FIXTURE, content)
    preview = build.Preview()
    release = content / "releases" / "2.8.yaml"
    frozen = []
    try:
        for step in range(4):
            text = release.read_text(encoding="utf-8")
            release.write_text(text.replace("fixture release", f"fixture release {step}", 1), encoding="utf-8")
            build.generate(content, docs, preview)
            preview.settle()
            frozen.append(gc.get_freeze_count())
            assert _on_disk(docs) == _full(content)
    finally:
        gc.unfreeze()
    assert frozen[-1] <= frozen[1] * 1.01, frozen  # a save that leaked its model would add 2% each


def test_live_preview_compiles_the_theme_once_and_builds_the_pages_a_full_build_does(tmp_path, monkeypatch):
    """serve's MkDocs rebuilds share build.ThemeCache: a rebuild after a save compiles no
    template again, and its site equals a clean build's without the cache."""
    import jinja2
    from mkdocs.commands.build import build as mkdocs_build

    from generator.pipeline import manifest

    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(FIXTURE, content)
    preview, theme = build.Preview(), build.ThemeCache()
    compiled: list[str] = []
    compile_template = jinja2.Environment.compile

    def counting(self, source, name=None, *args, **kwargs):
        compiled.append(name)
        return compile_template(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)

    def mkdocs(site, site_dir: Path, *, dirty: bool, cached: bool) -> None:
        config = build.mkdocs_config(docs, site_dir, strict=False, site_url="http://127.0.0.1:8000/")
        config["plugins"]["redirects"].config["redirect_maps"] = manifest.redirects(site)
        if cached:
            theme.attach(config)
        mkdocs_build(config, serve_url="http://127.0.0.1:8000/", dirty=dirty)

    site, _ = build.generate(content, docs, preview)
    mkdocs(site, tmp_path / "served", dirty=False, cached=True)
    assert compiled, "the first build compiles the theme"
    release = content / "releases" / "2.8.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("fixture release", "fixture release, edited", 1))
    site, written = build.generate(content, docs, preview)
    assert "releases/2.8/index.md" in written
    before = len(compiled)
    mkdocs(site, tmp_path / "served", dirty=True, cached=True)
    assert compiled[before:] == []
    mkdocs(site, tmp_path / "clean", dirty=False, cached=False)
    assert _on_disk(tmp_path / "served") == _on_disk(tmp_path / "clean")
    assert b"fixture release, edited" in (tmp_path / "served" / "releases" / "2.8" / "index.html").read_bytes()


CHECKED_APART = ("_off_ledger", "_unfit_ends", "_uncited_carried_out", "_unguided", "_history_told")
"""The invariant checks' derivations (generator.enrich.invariants): per release, or over the whole ledger,
change lists or catalogue."""


def test_a_save_walks_again_only_the_checks_whose_inputs_it_changed(tmp_path, monkeypatch):
    """Bounded work: in live preview the invariant checks find their offenders through the session, so
    a save that changed one release file's summary walks no release's changes again, and one that
    changed a change list walks that release's changes and the joins over the whole site, not every
    release's changes once per rule."""
    from collections import Counter

    from generator.enrich import invariants

    calls: Counter = Counter()

    def counted(fn):
        @functools.wraps(fn)  # the same name, so the session files the wrapped derivation where it did
        def spy(*args):
            calls[fn.__name__] += 1
            return fn(*args)

        return spy

    for name in CHECKED_APART:
        monkeypatch.setattr(invariants, name, counted(getattr(invariants, name)))
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(ROOT / "content", content)
    preview = build.Preview()
    site, _ = build.generate(content, docs, preview)
    releases = len(site.releases)
    assert calls == {"_off_ledger": releases, "_unfit_ends": releases, **dict.fromkeys(CHECKED_APART[2:], 1)}

    calls.clear()
    release = content / "releases" / "2.14.yaml"
    release.write_text(release.read_text(encoding="utf-8").replace("summary: >-\n  ", "summary: >-\n  Edited. ", 1))
    build.generate(content, docs, preview)
    assert calls == {}  # 2.14's entries are equal and its change sections the same objects

    changes = content / "changes" / "2.12.yaml"
    old = "Strengthened SVE compile checks"
    text = changes.read_text(encoding="utf-8")
    assert old in text
    changes.write_text(text.replace(old, "Stricter SVE compile checks", 1), encoding="utf-8")
    build.generate(content, docs, preview)
    # Its release's two, and the joins over every release's change list and upgrade steps.
    assert calls == {"_off_ledger": 1, "_unfit_ends": 1, "_uncited_carried_out": 1, "_unguided": 1}
    assert _on_disk(docs) == _full(content)


def test_a_save_takes_the_long_way_only_for_pages_whose_view_or_reads_changed(tmp_path, monkeypatch):
    """Bounded work: a page whose view holds the very objects it held before, and which read nothing
    of the site that changed, keeps its bytes without its head being made again (render._Maker.unchanged);
    only the pages whose view holds a new object, or which are drawn again, go the long way."""
    from generator.pages import pagelist
    from generator.render import render

    long_way: list[str] = []
    head = render._Maker.head

    def spy(self, path, *args):
        long_way.append(path)
        return head(self, path, *args)

    monkeypatch.setattr(render._Maker, "head", spy)
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(ROOT / "content", content)
    preview = build.Preview()
    before, _ = build.generate(content, docs, preview)
    long_way.clear()
    target = content / "releases" / "2.14.yaml"
    target.write_text(target.read_text(encoding="utf-8").replace("summary: >-\n  ", "summary: >-\n  Edited. ", 1))
    after, _ = build.generate(content, docs, preview)

    def views(site) -> dict[str, tuple]:
        return {pagelist.urls.source(p.url): tuple(p.context[k] for k in sorted(p.context)) for p in site.pages}

    old, new = views(before), views(after)
    same_view = {path for path, view in new.items() if all(map(operator.is_, view, old.get(path, ())))}
    assert len(same_view) > len(new) * 3 // 4
    assert set(long_way) - same_view, "no page's view changed: the edit tests nothing"
    needless = (set(long_way) & same_view) - set(preview.rendered.fresh)
    assert not needless, f"{len(needless)} pages went the long way for nothing, e.g. {sorted(needless)[:3]}"
    assert _on_disk(docs) == _full(content)


def test_a_save_lists_again_only_the_feature_release_pages_whose_changes_it_changed(tmp_path, monkeypatch):
    """Bounded work: a page of one release's changes to a feature (/features/<id>/X.Y/, most pages at
    50x) is a derivation of those changes (pagelist._feature_changes_page): a save that changed one
    release lists again that release's pages only, and hands out the others' very objects."""
    from generator.pages import pagelist

    made: list[str] = []
    page = pagelist._feature_changes_page

    @functools.wraps(page)  # the same name, so the session files it where it did
    def spy(feature_id, name, changes, family):
        made.append(changes.release.version)
        return page(feature_id, name, changes, family)

    monkeypatch.setattr(pagelist, "_feature_changes_page", spy)
    content, docs = tmp_path / "content", tmp_path / "docs"
    shutil.copytree(ROOT / "content", content)
    preview = build.Preview()
    before, _ = build.generate(content, docs, preview)
    assert len(made) > 100
    made.clear()
    target = content / "releases" / "2.14.yaml"
    target.write_text(target.read_text(encoding="utf-8").replace("summary: >-\n  ", "summary: >-\n  Edited. ", 1))
    after, _ = build.generate(content, docs, preview)
    assert made and set(made) == {"2.14"}
    kept = [p for p in after.pages if p.template == "feature_changes.md.j2" and not p.url.endswith("/2.14/")]
    old = {p.url: p for p in before.pages}
    assert kept and all(p is old[p.url] for p in kept)
    assert _on_disk(docs) == _full(content)
