"""The symbol index for tools: /api/v1/symbols.json (every `torch.*` name the symbol pages list, with
the changes that name it and, for a name on its way out, its ending) with its JSON Schema, and the
same endings as /api/v1/deprecated_symbols.yaml in TorchFix's shape.

A name's *ending* is read from the release-note records of the deprecation and removal steps
(their upgrade `group`), by these rules, from the record line (the notes' own first line):

- the names the record is about are the `torch.*` names its record line writes before a
  replacement phrase ("in favor of", "use", "replaced by", "migrated to", "moved to"), or, for
  "Use A instead of B", the names after "instead of"; the first name after the phrase (in the
  record line, else in the record's body, else in our note on it) is the replacement;
- a record about a part of a name (an option, argument, parameter, keyword, flag, what it
  accepts or dispatches to, a backend named before it, a new interface) or one that adds
  something (its line starts "Add") ends no name, nor does a name written as a call with
  arguments (`torch.compile(fullgraph=True)`: the record is about those arguments);
- a record of the deprecations step deprecates the names it is about (and its `removal`, where
  written, is the release announced for their removal); one of the removals step removes them.

So `torch.export.export_for_training` (deprecated in 2.9 "in favor of `torch.export.export`",
removed in 2.11) ends with torch.export.export as its replacement, and torch.export.export ends
nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..load.schema import SCHEMA_DIR
from ..markup.textfilters import record_line
from ..model import symbols, urls
from ..model.computed import ChangeView, Site
from ..model.content import SECTION_TITLES
from ..util.project import SITE_NAME

SCHEMA = SCHEMA_DIR / "api-symbols.schema.json"
SYMBOLS_JSON = urls.api_symbols()
SYMBOLS_SCHEMA = urls.api_symbols_schema()
TORCHFIX_YAML = urls.torchfix_symbols()

_INSTEAD = re.compile(r"^\W*use\b(?P<new>.*?)\binstead of\b(?P<old>.*)$", re.IGNORECASE | re.DOTALL)
_REPLACED = re.compile(r"\b(?:in favou?r of|use|replaced (?:by|with)|migrated to|moved to|switch to)\b", re.IGNORECASE)
_PART = re.compile(
    r"\b(?:options?|arguments?|params?|parameters?|keywords?|kwargs?|flags?|accepts?|dispatch(?:es)?|"
    r"interface)\b",
    re.IGNORECASE,
)
_BEHIND = re.compile(r"\bbackends?\b", re.IGNORECASE)  # before the first name: what sits behind it
_ADDS = re.compile(r"^\W*add(?:s|ed)?\b", re.IGNORECASE)


@dataclass(frozen=True)
class SymbolEnding:
    """How a name leaves PyTorch, as the records of the deprecation and removal steps tell it."""

    deprecated_in: str | None
    removal_announced: str | None  # the release the deprecation names for its removal
    removed_in: str | None
    replacement: str | None  # the name the notes say to use instead
    deprecation: ChangeView | None  # the record that deprecates it
    removal: ChangeView | None  # the record that removes it


def about(view: ChangeView) -> tuple[tuple[str, ...], str | None]:
    """The `torch.*` names a deprecation or removal record is about, and the replacement it names."""
    text = view.change.text.strip()
    record, _, body = text.partition("\n")
    first = _first_name(record)
    behind = first is not None and _BEHIND.search(record[: record.index(first)])
    if _ADDS.search(record) or _PART.search(record) or behind:
        return (), None
    if m := _INSTEAD.match(record):
        old, new = symbols.torch_names(m["old"]), symbols.torch_names(m["new"])
        return old, (new[0] if new else None)
    m = _REPLACED.search(record)
    before, after = (record[: m.start()], record[m.end() :]) if m else (record, "")
    # A name written as a call with arguments (`torch.compile(fullgraph=True)`) is about those.
    subjects = tuple(n for n in symbols.torch_names(before) if not re.search(re.escape(n) + r"\([^)]", before))
    named_after = (
        _first_name(after) or _first_name_after_phrase(body) or _first_name_after_phrase(view.change.note or "")
    )
    return subjects, (named_after if named_after not in subjects else None)


def _first_name(text: str) -> str | None:
    m = re.search(r"(?<![\w/.])torch(?:\.[A-Za-z_][A-Za-z0-9_]*)+", text)
    return m[0] if m else None


def _first_name_after_phrase(body: str) -> str | None:
    m = _REPLACED.search(body)
    return _first_name(body[m.end() :]) if m else None


def endings(site: Site) -> dict[str, SymbolEnding]:
    """Every listed name a deprecation or removal record is about, with its ending (oldest record wins)."""
    found: dict[str, dict] = {}
    for release in site.releases:
        for group in site.release_views[release.version].upgrade:
            if group.id not in ("deprecations", "removals"):
                continue
            for view in group.changes:
                names, replacement = about(view)
                for name in names:
                    slot = found.setdefault(name, {})
                    key = "deprecation" if group.id == "deprecations" else "removal"
                    if key not in slot:
                        slot[key] = (release.version, view)
                    if replacement and "replacement" not in slot:
                        slot["replacement"] = replacement
    out = {}
    for name, slot in found.items():
        dep, rem = slot.get("deprecation"), slot.get("removal")
        out[name] = SymbolEnding(
            dep[0] if dep else None,
            dep[1].change.removal if dep else None,
            rem[0] if rem else None,
            slot.get("replacement"),
            dep[1] if dep else None,
            rem[1] if rem else None,
        )
    return out


def _change(release: str, view: ChangeView, base: str) -> dict:
    return {
        "release": release,
        "section": view.change.section,
        "section_title": SECTION_TITLES[view.change.section],
        "kind": view.change.kind,
        "group": view.group,
        "text": record_line(view.change.text),
        "prs": list(view.change.prs),
        "url": base + urls.at(urls.release(release), view.anchor),
    }


def _ending(ending: SymbolEnding | None, base: str) -> dict | None:
    if ending is None:
        return None

    def where(view: ChangeView | None, release: str | None) -> str | None:
        return base + urls.at(urls.release(release), view.anchor) if view and release else None

    return {
        "deprecated_in": ending.deprecated_in,
        "removal_announced": ending.removal_announced,
        "removed_in": ending.removed_in,
        "replacement": ending.replacement,
        "deprecation_url": where(ending.deprecation, ending.deprecated_in),
        "removal_url": where(ending.removal, ending.removed_in),
        "deprecation_prs": list(ending.deprecation.change.prs) if ending.deprecation else [],
        "removal_prs": list(ending.removal.change.prs) if ending.removal else [],
    }


def symbols_json(site: Site, base: str) -> bytes:
    """/api/v1/symbols.json: every listed name, newest use first, with its ending."""
    ends = endings(site)
    names = []
    for module in site.symbol_pages.values():
        for symbol in module.symbols:
            names.append(
                {
                    "name": symbol.name,
                    "module": module.name,
                    "url": base + urls.at(urls.symbol_page(module.name), urls.symbol_anchor(symbol.name)),
                    "changes": [_change(u.release, u.change, base) for u in symbol.uses if u.change is not None],
                    "features": [
                        {
                            "release": u.release,
                            "id": u.entry.id,
                            "title": u.entry.title,
                            "url": base + urls.at(urls.release(u.release), urls.entry_anchor(u.entry.id)),
                        }
                        for u in symbol.uses
                        if u.entry is not None
                    ],
                    "ending": _ending(ends.get(symbol.name), base),
                }
            )
    names.sort(key=lambda n: n["name"])
    data = {
        "schema": base + SYMBOLS_SCHEMA,
        "latest": site.latest.version,
        "symbols": names,
    }
    return (json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _yaml_scalar(value: str | None) -> str:
    return "" if value is None else json.dumps(value)


def torchfix_yaml(site: Site, base: str) -> bytes:
    """/api/v1/deprecated_symbols.yaml: the endings in TorchFix's `deprecated_symbols.yaml` shape —
    `name`, `deprecate_pr` (a PR URL, or TBA where the record cites none), `remove_pr` (empty while
    the name is only deprecated: TorchFix reads an empty one as "deprecated", a set one as
    "removed"), `replacement` where the notes name one, and `reference`, the record on the Atlas."""
    listed = {s.name for m in site.symbol_pages.values() for s in m.symbols}
    out = [
        f"# Generated by the {SITE_NAME} (python -m generator build): names the release notes",
        "# deprecate or remove, in TorchFix's deprecated_symbols.yaml shape.",
    ]
    ends = endings(site)
    for name in sorted(ends, key=lambda n: (n.casefold(), n)):
        if name not in listed:
            continue
        e = ends[name]
        dep_prs = e.deprecation.change.prs if e.deprecation else ()
        rem = e.removal
        remove_pr = urls.pr(rem.change.prs[0]) if rem and rem.change.prs else None
        if rem and remove_pr is None:
            remove_pr = base + urls.at(urls.release(e.removed_in), rem.anchor)
        ref_view, ref_release = (e.deprecation, e.deprecated_in) if e.deprecation else (rem, e.removed_in)
        out += [
            "",
            f"- name: {_yaml_scalar(name)}",
            f"  deprecate_pr: {_yaml_scalar(urls.pr(dep_prs[0]) if dep_prs else 'TBA')}",
            f"  remove_pr:{' ' + _yaml_scalar(remove_pr) if remove_pr else ''}",
        ]
        if e.replacement:
            out.append(f"  replacement: {_yaml_scalar(e.replacement)}")
        out.append(f"  reference: {_yaml_scalar(base + urls.at(urls.release(ref_release), ref_view.anchor))}")
    return ("\n".join(out) + "\n").encode("utf-8")


def render_symbol_data(site: Site, base: str) -> dict[str, tuple[tuple, Callable[..., bytes]]]:
    """The files, keyed by path under docs/, each as its inputs and the function drawing it (the
    render's one memo, render.render_site, keeps a file whose reads of the model are unchanged)."""
    return {
        SYMBOLS_JSON: ((site,), lambda s: symbols_json(s, base)),
        SYMBOLS_SCHEMA: ((SCHEMA.read_bytes(),), lambda schema: schema),
        TORCHFIX_YAML: ((site,), lambda s: torchfix_yaml(s, base)),
    }
