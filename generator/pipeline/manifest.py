"""The URL promise: every published page URL and every anchor we hand out, kept in a committed
manifest.

Promised: each page; on a release page each feature entry (`#<feature-id>`), each change
(`#c-<hash>`, what its ¶ link hands out), each `#pr-<number>` and `#upgrading`; on a
/symbols/ page each name (`#torch.cat`); `#defaults` on /upgrade/.

A build fails when a URL in the manifest would disappear and nothing keeps it, with one line
per URL saying how to keep it. New URLs are added to the manifest (written only when its bytes
change) for the next commit. What keeps a URL: a feature's former id in the catalogue's
`aliases` redirects `features/<old-id>/` to `features/<new-id>/`; release pages keep an
`#<old-id>` anchor for each entry's own `aliases` and a `#c-<hash>` for each change's `anchors`;
a symbol page keeps `#<name>` for each name retired in content/symbols.yaml.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..model import urls
from ..model.computed import Site
from ..model.errors import ContentError, Problem
from ..util.writer import write_atomic

DEFAULT = Path(__file__).resolve().parents[1] / "published_urls.txt"
HEADER = (
    "# Every URL and anchor the site has published, one per line: the build fails if one disappears\n"
    "# and nothing keeps it (a feature or entry alias, a change's `anchors:`, a retired symbol).\n"
    "# Written by `python -m generator build`; commit it.\n"
)
MAX_LINES = 50
"""Past this many vanished URLs the guard says one summary line instead of one line each."""
KIND_NAMES = {
    "page": "pages",
    "file": "badges and feature files",
    "change": "change anchors",
    "pr": "PR anchors",
    "symbol": "symbol anchors",
    "section": "section anchors",
    "entry": "entry anchors",
}


def published(site: Site) -> set[str]:
    """Page URLs (directory style, relative to the site root) and the anchors we hand out on them."""
    out = {p.url for p in site.pages}
    out.add(urls.at(urls.UPGRADE, urls.DEFAULTS))
    for release in site.releases:
        page = urls.release(release.version)
        view = site.release_views[release.version]
        out.update(urls.at(page, urls.entry_anchor(e.id)) for e in release.entries)
        out.update(urls.at(page, urls.pr_anchor(pr)) for c in release.changes for pr in c.prs)
        out.update(urls.at(page, v.anchor) for s in view.sections for a in s.areas for v in a.changes)
        # A patch's fixes: their list, each change's anchor and the #pr-N anchors it owns.
        out.update(urls.at(page, urls.patch_fixes_anchor(p.version)) for p, vs in view.patches if vs)
        out.update(
            urls.at(page, a) for _, vs in view.patches for v in vs for a in (v.anchor, *map(urls.pr_anchor, v.anchors))
        )
        if view.upgrade:
            out.add(urls.at(page, urls.UPGRADING))
        if view.known_issues:
            out.add(urls.at(page, urls.KNOWN_ISSUES))
    for module in site.symbol_pages.values():
        page = urls.symbol_page(module.name)
        out.update(urls.at(page, urls.symbol_anchor(s.name)) for s in module.symbols)
    return out | published_files(site)


def published_files(site: Site) -> set[str]:
    """Files wikis and docs embed or fetch, promised like pages: each feature's badges (overall and
    per backend) and its JSON, under its id and under each former id (generator.render.badges,
    generator.render.api), the supports' stops a tool reads (api/v1/supports.json), and the Sphinx
    inventory (generator.render.inventory)."""
    out = {urls.INVENTORY, urls.api_supports()}  # other docs' intersphinx configurations fetch the inventory
    for f in site.features:
        for fid in (f.id, *f.aliases):
            out.add(urls.badge(fid))
            out.update(urls.badge(fid, b) for b in f.backends)
            out.add(urls.api_feature(fid))
    return out


def redirects(site: Site) -> dict[str, str]:
    """mkdocs-redirects map: a former feature id's page -> the feature's page (catalogue aliases)."""
    return {
        urls.source(urls.feature(alias)): urls.source(urls.feature(f.id))
        for f in site.content.catalogue
        for alias in f.aliases
    }


def covered(site: Site) -> set[str]:
    """URLs that live on through a redirect or an alias: an entry's former id, a change's former
    anchors, a retired symbol."""
    out = {urls.feature(alias) for f in site.content.catalogue for alias in f.aliases}
    for release in site.releases:
        page = urls.release(release.version)
        out.update(urls.at(page, urls.entry_anchor(alias)) for e in release.entries for alias in e.aliases)
        out.update(urls.at(page, anchor) for c in release.changes for anchor in c.anchors)
    for module in site.symbol_pages.values():
        page = urls.symbol_page(module.name)
        out.update(urls.at(page, urls.symbol_anchor(r.name)) for r in module.retired)
    return out


def how_to_keep(url: str, listed: dict[str, str] | None = None) -> str:
    """One line for a published URL that would disappear: what it is and how an edit keeps it.
    `listed` (symbol name -> its module page now) tells a symbol that moved page from one gone."""
    kind, page, anchor = urls.promise(url)
    if kind == "page":
        return f"published URL /{url} would disappear: keep it, or give the feature an alias so it redirects"
    if kind == "file":
        return (
            f"published file /{url} would disappear: keep the feature (and backend), or list its old id "
            f"in the catalogue's `aliases:`, which writes its badges and JSON under both ids"
        )
    head = f"published anchor /{url} would disappear"
    if kind == "change":
        version = urls.version_of(page)
        return (
            f"{head}: add {anchor} to `anchors:` of the change it became (edited or merged into) "
            f"in content/changes/{version}.yaml"
        )
    if kind == "pr":
        return f"{head}: keep a change citing that PR in content/changes/{urls.version_of(page)}.yaml"
    if kind == "symbol":
        module = urls.module_of(page)
        if listed and anchor in listed:
            return (
                f"{head}: it is on /{urls.symbol_page(listed[anchor])} now; keep the old anchor in "
                f"content/symbols.yaml: `- {{name: {anchor}, page: {module}, successor: {anchor}}}`"
            )
        return (
            f"{head}: retire it in content/symbols.yaml: `- {{name: {anchor}, page: {module}, "
            f"successor: <a listed name>}}` (or `reason:` where nothing replaces it)"
        )
    if kind == "section":
        return f"{head}: the page no longer has that section; keep it (its id is urls.{anchor.upper()})"
    if page.startswith(urls.RELEASES):
        return f"{head}: keep the entry, or list {anchor} in its `aliases:` in content/releases/{urls.version_of(page)}.yaml"
    return f"{head}: keep it"


def guard(site: Site, manifest: Path) -> bool:
    """Fail on vanished URLs; otherwise add new ones to the manifest. Returns True if it was rewritten."""
    line_of: dict[str, int] = {}
    if manifest.exists():
        for n, ln in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1):
            if ln.strip() and not ln.startswith("#"):
                line_of.setdefault(ln.strip(), n)
    old = set(line_of)
    now = published(site)
    gone = sorted(old - now - covered(site))
    if gone:
        listed = {s.name: m.name for m in site.symbol_pages.values() for s in m.symbols}
        if len(gone) <= MAX_LINES:
            raise ContentError([Problem(str(manifest), line_of[url], 1, how_to_keep(url, listed)) for url in gone])
        kinds = Counter(urls.promise(url)[0] for url in gone)
        counts = ", ".join(f"{n:,} {KIND_NAMES[kind]}" for kind, n in sorted(kinds.items()))
        first = gone[0]
        message = f"{len(gone):,} published URLs would disappear ({counts}); the first: {how_to_keep(first, listed)}"
        raise ContentError([Problem(str(manifest), line_of[first], 1, message)])
    text = HEADER + "".join(f"{u}\n" for u in sorted(old | now))
    return write_atomic(manifest, text.encode("utf-8"))  # a killed build never leaves it half-written
