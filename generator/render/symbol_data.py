"""The symbol index for tools: /api/v1/symbols.json (every `torch.*` name the symbol pages list, with
the changes that name it and, for a name on its way out, its ending) with its JSON Schema, and the
same endings as /api/v1/deprecated_symbols.yaml in TorchFix's shape.

A name's ending is computed once, in enrich (generator.enrich.facts.name_endings, `Site.name_endings`):
a name is deprecated or removed only where a release-note record says that very name is (the
record's hand-written `ends:`), never because a record mentions it. This module only formats it,
with the evidence of each stated field.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..load.schema import SCHEMA_DIR
from ..model import urls
from ..model.computed import ChangeView, NameEnding, Site
from ..model.content import SECTION_TITLES

SCHEMA = SCHEMA_DIR / "api-symbols.schema.json"
SYMBOLS_JSON = urls.api_symbols()
SYMBOLS_SCHEMA = urls.api_symbols_schema()
TORCHFIX_YAML = urls.torchfix_symbols()

ENDING_FIELDS = {"deprecated_in": "deprecated_in", "removal_planned": "removal_announced", "removed_in": "removed_in"}
"""A name ending's stated fields (model name -> the name symbols.json gives it)."""


def _change(release: str, view: ChangeView, base: str) -> dict:
    return {
        "release": release,
        "section": view.change.section,
        "section_title": SECTION_TITLES[view.change.section],
        "kind": view.change.kind,
        "group": view.group,
        "text": view.change.text.strip().split("\n", 1)[0],
        "prs": list(view.change.prs),
        "url": base + urls.at(urls.release(release), view.anchor),
    }


def absolute(url: str, base: str) -> str:
    """An evidence URL as the API gives it: ours on the site's address, upstream ones as they are."""
    return url if url.startswith(("https://", "http://")) else base + url


def evidence(ending, fields: dict[str, str], base: str) -> dict[str, list[str]]:
    """Each stated field of an ending (`fields`: model name -> published name) -> the URLs it was read from."""
    return {fields[name]: [absolute(c.url, base) for c in cited] for name, cited in ending.evidence if name in fields}


def _ending(ending: NameEnding | None, base: str) -> dict | None:
    if ending is None:
        return None

    def where(view: ChangeView | None, release: str | None) -> str | None:
        return base + urls.at(urls.release(release), view.anchor) if view and release else None

    return {
        "deprecated_in": ending.deprecated_in,
        "removal_announced": ending.removal_planned,
        "removed_in": ending.removed_in,
        "replacement": ending.replacement,
        "deprecation_url": where(ending.deprecation, ending.deprecated_in),
        "removal_url": where(ending.removal, ending.removed_in),
        "deprecation_prs": list(ending.deprecation.change.prs) if ending.deprecation else [],
        "removal_prs": list(ending.removal.change.prs) if ending.removal else [],
        "evidence": evidence(ending, ENDING_FIELDS, base),
    }


def symbols_json(site: Site, base: str) -> bytes:
    """/api/v1/symbols.json: every listed name, newest use first, with its ending."""
    ends = {e.name: e for e in site.name_endings}
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
    "removed"), `replacement` where the notes name one, and `reference`, the removing record on the
    Atlas, else the deprecating one."""
    listed = {s.name for m in site.symbol_pages.values() for s in m.symbols}
    out = [
        "# Generated by the PyTorch Release Atlas (python -m generator build): names the release notes",
        "# deprecate or remove, in TorchFix's deprecated_symbols.yaml shape.",
    ]
    ends = {e.name: e for e in site.name_endings}
    for name in sorted(ends, key=lambda n: (n.casefold(), n)):
        if name not in listed:
            continue
        e = ends[name]
        dep_prs = e.deprecation.change.prs if e.deprecation else ()
        rem = e.removal
        remove_pr = urls.pr(rem.change.prs[0]) if rem and rem.change.prs else None
        if rem and remove_pr is None:
            remove_pr = base + urls.at(urls.release(e.removed_in), rem.anchor)
        # The record a finding links: the removal once there is one (TorchFix then says "removed").
        ref_view, ref_release = (rem, e.removed_in) if rem else (e.deprecation, e.deprecated_in)
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
