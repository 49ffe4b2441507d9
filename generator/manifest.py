"""The URL promise: every published page URL and entry anchor, kept in a committed manifest.

A build fails when a URL in the manifest would disappear and no redirect covers it. New
URLs are added to the manifest (written only when its bytes change) for the next commit.
Redirects come from the catalogue's aliases: `features/<old-id>/` goes to `features/<new-id>/`;
release pages keep an `#<old-id>` anchor beside the new one for each entry's own `aliases`.
"""

from __future__ import annotations

from pathlib import Path

from . import urls
from .errors import ContentError, Problem
from .model import Site
from .pages import pages
from .writer import write_atomic

DEFAULT = Path(__file__).resolve().parent / "published_urls.txt"
HEADER = (
    "# Every URL the site has published, one per line: the build fails if one disappears\n"
    "# without a redirect (a feature alias). Written by `python -m generator build`; commit it.\n"
)


def published(site: Site) -> set[str]:
    """Page URLs (directory style, relative to the site root) and the entry anchors on them."""
    out = {p.url for p in pages(site)}
    for release in site.releases:
        page = urls.release(release.version)
        out.update(urls.at(page, urls.entry_anchor(e.id)) for e in release.entries)
        out.update(urls.at(page, urls.pr_anchor(pr)) for c in release.changes for pr in c.prs)
    return out


def redirects(site: Site) -> dict[str, str]:
    """mkdocs-redirects map: a former feature id's page -> the feature's page (catalogue aliases)."""
    return {
        urls.source(urls.feature(alias)): urls.source(urls.feature(f.id))
        for f in site.content.catalogue
        for alias in f.aliases
    }


def covered(site: Site) -> set[str]:
    """URLs that live on through a redirect or an entry's former-id anchor."""
    out = {urls.feature(alias) for f in site.content.catalogue for alias in f.aliases}
    for release in site.releases:
        page = urls.release(release.version)
        out.update(urls.at(page, urls.entry_anchor(alias)) for e in release.entries for alias in e.aliases)
    return out


def guard(site: Site, manifest: Path) -> bool:
    """Fail on vanished URLs; otherwise add new ones to the manifest. Returns True if it was rewritten."""
    old = set()
    if manifest.exists():
        old = {
            ln.strip()
            for ln in manifest.read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.startswith("#")
        }
    now = published(site)
    gone = sorted(old - now - covered(site))
    if gone:
        name = manifest.name
        raise ContentError(
            [
                Problem(
                    str(manifest),
                    1,
                    1,
                    f"published URL /{url} would disappear: keep it, or give the feature an alias so it redirects",
                )
                for url in gone
            ]
            if len(gone) <= 50
            else [
                Problem(
                    str(manifest), 1, 1, f"{len(gone)} published URLs would disappear (first: /{gone[0]}); see {name}"
                )
            ]
        )
    text = HEADER + "".join(f"{u}\n" for u in sorted(old | now))
    return write_atomic(manifest, text.encode("utf-8"))  # a killed build never leaves it half-written
