"""Atom feeds: /feed.xml (one entry per release, newest first) and /backends/<id>/feed.xml."""

from __future__ import annotations

import datetime as dt
from xml.sax.saxutils import escape, quoteattr

from . import urls
from .model import Entry, Release, Site
from .search import plain


def _when(date: dt.date) -> str:
    return f"{date.isoformat()}T00:00:00Z"


def _feed(
    title: str, self_url: str, page_url: str, items: list[tuple[str, dt.date, str, str]], subtitle: str = ""
) -> bytes:
    """An Atom feed of (title, date, link, text) items, newest first."""
    updated = _when(max(i[1] for i in items)) if items else "1970-01-01T00:00:00Z"
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"  <title>{escape(title)}</title>",
        *([f"  <subtitle>{escape(subtitle)}</subtitle>"] if subtitle else []),
        f"  <id>{escape(self_url)}</id>",
        f'  <link rel="self" type="application/atom+xml" href={quoteattr(self_url)}/>',
        f'  <link rel="alternate" type="text/html" href={quoteattr(page_url)}/>',
        f"  <updated>{updated}</updated>",
        "  <author><name>PyTorch Release Atlas</name></author>",
    ]
    for name, date, link, text in items:
        out += [
            "  <entry>",
            f"    <title>{escape(name)}</title>",
            f"    <id>{escape(link)}</id>",
            f'    <link rel="alternate" type="text/html" href={quoteattr(link)}/>',
            f"    <published>{_when(date)}</published>",
            f"    <updated>{_when(date)}</updated>",
            f'    <summary type="text">{escape(text)}</summary>',
            "  </entry>",
        ]
    out.append("</feed>")
    return ("\n".join(out) + "\n").encode("utf-8")


def _titles(entries: tuple[Entry, ...]) -> str:
    return "; ".join(e.title for e in entries)


def _patch_items(site: Site, release: Release, link: str) -> list[tuple[str, dt.date, str, str]]:
    """An item for each patch release whose day is known and whose fixes are listed."""
    out = []
    for patch, views in site.release_views[release.version].patches:
        if not views or len(patch.date) != len("YYYY-MM-DD"):
            continue
        fixes = "; ".join(plain(v.change.text) for v in views)
        text = " ".join(f"{plain(patch.summary or '')} Fixes: {fixes}.".split())
        out.append(
            (
                f"PyTorch {patch.version}",
                dt.date.fromisoformat(patch.date),
                link + "#" + urls.patch_fixes_anchor(patch.version),
                text,
            )
        )
    return out


def render_feeds(site: Site, base: str) -> dict[str, bytes]:
    """The site feed and one feed per backend, keyed by path under docs/."""
    items = []
    for release in reversed(site.releases):
        link = base + urls.release(release.version)
        text = " ".join(release.summary.split())
        highlights = site.release_views[release.version].highlights
        if highlights:
            text += " Highlights: " + _titles(highlights) + "."
        items.append((f"PyTorch {release.version}", release.date, link, text))
        items.extend(_patch_items(site, release, link))
    items.sort(key=lambda item: item[1], reverse=True)  # a patch can follow the next minor release
    files = {
        urls.FEED: _feed(
            "PyTorch Release Atlas: releases", base + urls.FEED, base + urls.HOME, items, site.coverage.text
        )
    }
    for view in site.backend_views:
        b = view.backend
        page = base + urls.backend(b.id)
        entries = [
            (
                f"PyTorch {release.version}",
                release.date,
                urls.at(page, urls.release_anchor(release.version)),
                f"{b.name} in PyTorch {release.version}: {_titles(es)}.",
            )
            for release, es in view.entries_by_release
        ]
        files[urls.backend_feed(b.id)] = _feed(
            f"PyTorch Release Atlas: {b.name}", base + urls.backend_feed(b.id), page, entries
        )
    return files
