"""Crawl a built site on disk: every internal link and #anchor must resolve."""

from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            if attrs.get(key) and not (tag == "link" and attrs.get("rel") in ("canonical", "alternate")):
                self.links.append(attrs[key])


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def broken_links(site: Path, base: str = "http://atlas.test/") -> list[str]:
    """Every internal link or anchor in site/ that does not resolve, as 'page -> link'.

    A relative link that climbs above the site's root counts as broken: a browser clamps the
    extra `../` at the host's root, which only hides the mistake on a site served from `/`."""
    pages = {p: parse(p) for p in site.rglob("*.html")}
    broken = []
    for path, page in sorted(pages.items()):
        url = base + path.relative_to(site).as_posix()
        here = posixpath.dirname(path.relative_to(site).as_posix())
        for link in page.links:
            if _climbs_above_root(here, link):
                broken.append(f"{path.relative_to(site)} -> {link} (above the site's root)")
                continue
            target = urljoin(url, link)
            parts = urlsplit(target)
            if not target.startswith(base) or parts.scheme not in ("http", "https"):
                continue
            rel = unquote(parts.path[len(urlsplit(base).path) :])
            file = site / rel
            if rel == "" or rel.endswith("/"):
                file = file / "index.html"
            if not file.exists():
                broken.append(f"{path.relative_to(site)} -> {link}")
                continue
            if parts.fragment and file.suffix == ".html":
                ids = pages[file].ids if file in pages else parse(file).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{path.relative_to(site)} -> {link} (no such anchor)")
    return broken


def _climbs_above_root(folder: str, link: str) -> bool:
    """Whether a relative link, followed from folder (relative to the site root), leaves the site."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
        return False
    resolved = posixpath.normpath(posixpath.join(folder, parts.path))
    return resolved == ".." or resolved.startswith("../")
