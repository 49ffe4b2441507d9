"""The sitemap's parts: /sitemaps/<part>.xml, each a `<urlset>` of the pages of one part of the
site (urls.SITEMAP_PARTS), for crawlers. /sitemap.xml (templates/overrides/sitemap.xml) is the
index that names the parts, from mkdocs.yml's copy of the same list.

The sitemap was one list of every page, and Material's scripts fetch /sitemap.xml on every first
visit (for the page's `<link rel="alternate">`, the site's feed, as for instant navigation, off
since issue 47): 51 kB today, 720 kB at 10 times the content. The index stays a few lines
whatever the size of the site, and the pages' list moved to files no reader's browser asks for.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..model import urls
from ..model.computed import Site


def part(url: str) -> str:
    """The part of the sitemap a page's URL is listed in: its first folder when that names a part
    (`releases/2.14/`, `releases/`: releases), else the first part (`/`, `search/`: site)."""
    first = url.split("/", 1)[0]
    return first if first in urls.SITEMAP_PARTS else urls.SITEMAP_PARTS[0]


def render_sitemaps(site: Site, base: str) -> dict[str, tuple]:
    """Each part's file, keyed by its path under docs/, as (inputs, draw) (render.render_site)."""
    parts: dict[str, list[str]] = {name: [] for name in urls.SITEMAP_PARTS}
    for page in site.pages:
        parts[part(page.url)].append(page.url)
    return {urls.sitemap_part(name): ((base, tuple(sorted(pages))), _urlset) for name, pages in parts.items()}


def _urlset(base: str, pages: tuple[str, ...]) -> bytes:
    """One `<url><loc>` a line, no `<lastmod>` (each page's would be the same date: the build's)."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        *(f"<url><loc>{escape(base + url)}</loc></url>" for url in pages),
        "</urlset>",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")
