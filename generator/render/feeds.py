"""Atom feeds: /feed.xml (one entry per release and per patch release, newest first),
/backends/<id>/feed.xml, and one per feature or family (/features/<id>/feed.xml) and per symbol
module (/symbols/<module>/feed.xml): an entry per release that did something to it, newest first."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

from ..markup.textfilters import plain, record_line
from ..model import urls
from ..model.computed import Site
from ..model.content import CHANGE_LABELS, UPGRADE_GROUPS, Entry, Release
from ..util.project import SITE_NAME


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
        f"  <author><name>{SITE_NAME}</name></author>",
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
    return "; ".join(plain(e.title) for e in entries)


def _patch_items(release_view, link: str) -> list[tuple[str, dt.date, str, str]]:
    """An item for each patch release whose day is known and whose fixes are listed."""
    out = []
    for patch, views in release_view.patches:
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


def render_feeds(site: Site, base: str) -> dict[str, tuple[tuple, Callable[..., bytes]]]:
    """The site feed and one feed per backend, keyed by path under docs/, each as the inputs it is
    drawn from and the function drawing it (render_site makes it through the render's one memo)."""
    files = {urls.FEED: ((site.releases, site.release_views, site.coverage), lambda *a: _site_feed(*a, base))}
    for view in site.backend_views:
        files[urls.backend_feed(view.backend.id)] = ((view,), lambda v: _backend_feed(v, base))
    return files


def _site_feed(releases, release_views, coverage, base: str) -> bytes:
    items = []
    for release in reversed(releases):
        link = base + urls.release(release.version)
        text = plain(" ".join(release.summary.split()))  # a summary's `code` and **bold** as words
        highlights = release_views[release.version].highlights
        if highlights:
            text += " Highlights: " + _titles(highlights) + "."
        items.append((f"PyTorch {release.version}", release.date, link, text))
        items.extend(_patch_items(release_views[release.version], link))
    items.sort(key=lambda item: item[1], reverse=True)  # a patch can follow the next minor release
    return _feed(f"{SITE_NAME}: releases", base + urls.FEED, base + urls.HOME, items, coverage.text)


def _backend_feed(view, base: str) -> bytes:
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
    return _feed(f"{SITE_NAME}: {b.name}", base + urls.backend_feed(b.id), page, entries)


def _item_feed(name: str, page: str, entries: list, changes, site: Site, base: str) -> bytes:
    """The feed of a feature, family or symbol module page: one entry per release that announced
    it (`entries`: (Release, Entry)) or has changes about it (`changes`: (Release, ChangeView)),
    newest first. An entry links to the page's section on that release where it has one (an
    announcement), else to the release's first change about it."""
    releases: dict[str, Release] = {}
    announced: dict[str, list[Entry]] = {}
    views: dict[str, list] = {}
    for release, entry in entries:
        releases[release.version] = release
        announced.setdefault(release.version, []).append(entry)
    for release, view in changes:
        releases[release.version] = release
        views.setdefault(release.version, []).append(view)
    items = []
    for version in sorted(releases, key=lambda v: releases[v].key, reverse=True):
        words = [_announced(e, site.tier_by_id) for e in announced.get(version, ())]
        # What asks something of an upgrade first (breaking, defaults, removals ...), then the rest.
        mine = sorted(views.get(version, []), key=lambda v: _STEP.get(v.group, len(_STEP)))
        if mine:
            lines = "; ".join(plain(record_line(v.change.text)) for v in mine[:3])
            more = f"; and {len(mine) - 3} more" if len(mine) > 3 else ""
            words.append(f"{len(mine)} release-note change{'s' * (len(mine) != 1)}: {lines}{more}.")
        if version in announced:
            link = base + urls.at(page, urls.release_anchor(version))
        else:
            link = base + urls.at(urls.release(version), mine[0].anchor)
        items.append((f"{name} in PyTorch {version}", releases[version].date, link, " ".join(words)))
    feed = urls.at(page) + "feed.xml"
    return _feed(f"{SITE_NAME}: {name}", base + feed, base + page, items)


_STEP = {group: i for i, (group, _) in enumerate(UPGRADE_GROUPS)}


def _announced(entry: Entry, tier_by_id: dict) -> str:
    tier = f", {tier_by_id[entry.tier].name}" if entry.tier in tier_by_id else ""
    return f"Announced: {plain(entry.title)} ({CHANGE_LABELS[entry.change].lower()}{tier})."


def render_item_feeds(site: Site, base: str) -> dict[str, tuple[tuple, Callable[..., bytes]]]:
    """One feed per feature or family page and per symbol module page that lists names, each as
    its inputs and the function drawing it (as render_feeds)."""
    files = {}
    by_version = {r.version: r for r in site.releases}

    def feed(path: str, name: str, page: str, entries: list, changes) -> None:
        inputs = (name, page, tuple(entries), tuple(changes), site)  # site: its tiers, read by key
        files[path] = (inputs, lambda *a: _item_feed(*a, base))

    for feature in site.features:
        if feature.id in site.family_by_id:
            continue  # its family page tells its story
        entries = [(by_version[e.release], e) for e in feature.entries]
        changes = site.feature_changes.get(feature.id, ())
        feed(urls.feature_feed(feature.id), feature.title, urls.feature(feature.id), entries, changes)
    for family in site.families:
        entries = [(release, e) for release, es in family.by_release for e in es]
        feed(
            urls.feature_feed(family.node.id),
            family.node.name,
            urls.feature(family.node.id),
            entries,
            family.own_changes,
        )
    for module in site.symbol_pages.values():
        if not module.symbols:
            continue
        seen: dict[tuple[str, str], tuple] = {}
        for symbol in module.symbols:
            for use in symbol.uses:
                if use.change is not None:
                    seen.setdefault((use.release, use.change.anchor), (by_version[use.release], use.change))
        feed(urls.symbol_feed(module.name), module.name, urls.symbol_page(module.name), [], list(seen.values()))
    return files
