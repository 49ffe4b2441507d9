"""/objects.inv: the Atlas as a Sphinx inventory (version 2), so other docs link to it by name.

Sphinx's intersphinx and MkDocs' autorefs (through mkdocstrings) read this file and resolve
`:external+atlas:ref:`torch-compile`` or `[torch.load][]` to the Atlas's page. It lists, with
URIs relative to the site's root (the reader's configuration gives the base):

- `std:doc`: every feature, family and release page, named by its path (`features/torch-compile`);
- `std:label`: a feature or family by its id (`torch-compile`), a release as `pytorch-X.Y`, and each
  change of a release's change list as `X.Y/c-...` (its `#c-` anchor, which never changes);
- `py:*`: every `torch.*` name the symbol pages list, at its entry there. Sphinx's `py:obj` role
  finds any of them; the kind is read from the name (PEP 8's naming convention: a module page's own
  name is a module, a CapWords last part a class, anything else a function), since the notes do
  not say what kind of object a name is.

The format: four header lines, then zlib-compressed lines `name domain:role priority uri dispname`,
where a URI ending in the name writes `$` for it and a display name equal to the name is `-`.
"""

from __future__ import annotations

import zlib

from ..model import urls
from ..model.computed import Site

PATH = urls.INVENTORY
PROJECT = "PyTorch Release Atlas"


def render_inventory(site: Site) -> dict[str, tuple]:
    """The inventory file, keyed by its path under docs/, as (inputs, draw) (render.render_site)."""
    return {PATH: ((site,), lambda s: inventory(objects(s), s.latest.version))}


def objects(site: Site) -> list[tuple[str, str, str, str]]:
    """(name, domain:role, uri, display name) for everything the inventory lists, sorted."""
    out = []
    for feature in site.features:
        out += _page(feature.id, urls.feature(feature.id), feature.title)
    features = {f.id for f in site.features}
    for family in site.families:
        if family.node.id not in features:  # a family announced as a feature is listed once
            out += _page(family.node.id, urls.feature(family.node.id), family.node.name)
    for release in site.releases:
        page = urls.release(release.version)
        out += _page(f"pytorch-{release.version}", page, f"PyTorch {release.version}")
        view = site.release_views[release.version]
        for section in view.sections:
            for area in section.areas:
                for change in area.changes:
                    out.append(
                        (f"{release.version}/{change.anchor}", "std:label", urls.at(page, change.anchor), change.line)
                    )
    for module in site.symbol_pages.values():
        for symbol in module.symbols:
            uri = urls.at(urls.symbol_page(module.name), urls.symbol_anchor(symbol.name))
            out.append((symbol.name, f"py:{_kind(symbol)}", uri, symbol.name))
    return sorted(set(out))


def _page(label: str, url: str, title: str) -> list[tuple[str, str, str, str]]:
    return [(label, "std:label", url, title), (url.rstrip("/"), "std:doc", url, title)]


def _kind(symbol) -> str:
    if not symbol.short:
        return "module"
    return "class" if symbol.name.rsplit(".", 1)[-1][:1].isupper() else "function"


def inventory(entries: list[tuple[str, str, str, str]], version: str) -> bytes:
    """The bytes of an inventory of `entries` (objects()), for the project at `version`."""
    head = (
        "# Sphinx inventory version 2\n"
        f"# Project: {PROJECT}\n"
        f"# Version: {version}\n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    lines = []
    for name, role, uri, shown in entries:
        if uri.endswith(name):
            uri = uri[: -len(name)] + "$"
        shown = " ".join(shown.split())
        priority = "1" if role.startswith("py:") else "-1"  # as Sphinx writes them: objects 1, pages and labels -1
        lines.append(f"{name} {role} {priority} {uri} {'-' if shown == name else shown}\n")
    # Level 9 and no timestamp in zlib's stream: the same site gives the same bytes.
    return head.encode("utf-8") + zlib.compress("".join(lines).encode("utf-8"), 9)
