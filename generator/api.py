"""The JSON API under /api/v1/: releases, features with lifecycles, and backends.

Field names are stable (they are documented in schemas/api.schema.json and on the site's API
page); add fields, never rename them. URLs are absolute, built on the configured site_url.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import urls
from .model import ALL, ChangeView, Entry, Release, Site, parts


def _dump(data) -> bytes:
    return (json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def _entry(entry: Entry, base: str, group: str = "") -> dict:
    return {
        "group": group,
        "id": entry.id,
        "release": entry.release,
        "title": entry.title,
        "tier": entry.tier,
        "change": entry.change,
        "backends": list(entry.backends),
        "area": entry.area,
        "summary": entry.summary,
        "prs": list(entry.prs),
        "pr_urls": [urls.pr(pr) for pr in entry.prs],
        "contributors": list(entry.contributors),
        "source": entry.source,
        "removal": entry.removal,
        "url": base + urls.at(urls.release(entry.release), urls.entry_anchor(entry.id)),
        "path": urls.at(urls.release(entry.release), urls.entry_anchor(entry.id)),
        "feature_url": base + urls.feature(entry.id),
    }


def _release_summary(release: Release, base: str) -> dict:
    return {
        "version": release.version,
        "date": release.date.isoformat(),
        "previous": release.previous,
        "commits": release.commits,
        "contributors": release.contributor_count,
        "tier_vocabulary": release.tier_vocabulary,
        "blog": release.blog,
        "notes": release.notes,
        "features": len(release.entries),
        "changes": len(release.changes),
        "url": base + urls.release(release.version),
        "api": base + urls.api_release(release.version),
    }


SCHEMA = Path(__file__).parent / "schemas" / "api.schema.json"


def render_api(site: Site, base: str) -> dict[str, tuple[frozenset, object]]:
    """Every API file (and the API's JSON Schema), keyed by its path under docs/: the content
    files it reads ("*": all) and a function that renders its bytes."""
    files = {
        urls.api_schema(): (ALL, SCHEMA.read_bytes),
        urls.api_releases(): (
            ALL,
            lambda: _dump({"releases": [_release_summary(r, base) for r in reversed(site.releases)]}),
        ),
        urls.api_features(): (parts(site.versions, entries=True), lambda: _features(site, base)),
    }
    for release in site.releases:
        inputs = parts([release.version], release=True, entries=True, changes=True)
        files[urls.api_release(release.version)] = (inputs, lambda r=release: _release(site, r, base))
    for view in site.backend_views:
        files[urls.api_backend(view.backend.id)] = (
            parts(site.versions, entries=True, changes=True),
            lambda v=view: _backend(v, base),
        )
    return files


def _release(site: Site, release: Release, base: str) -> bytes:
    page = base + urls.release(release.version)
    c = release.compatibility
    # The upgrade step of the release page lists these entries; /upgrade/ and /compare/ read it here.
    group_of = {e.id: g.id for g in site.release_views[release.version].upgrade for e in g.entries}
    data = _release_summary(release, base) | {
        "summary": release.summary,
        "compatibility": None
        if c is None
        else {
            "python": {"min": c.python_min, "max": c.python_max, "experimental": list(c.python_experimental)},
            "cxx": c.cxx,
            "cuda_stable": [cu.version for cu in c.cuda_stable],
            "cuda_experimental": [cu.version for cu in c.cuda_experimental],
            "rocm": c.rocm,
            "source": c.source,
            "alternatives": [
                {"field": a.field, "value": a.value, "context": a.context, "source": a.source} for a in c.alternatives
            ],
        },
        "patches": [{"version": p.version, "date": p.date} for p in release.patches],
        "entries": [_entry(e, base, group_of.get(e.id, "")) for e in release.entries],
        "change_list": [
            {
                "section": v.change.section,
                "area": v.change.area,
                "text": v.change.text,
                "prs": list(v.change.prs),
                "backends": list(v.backends),
                "url": urls.at(page, v.anchor),
                "path": urls.at(urls.release(release.version), v.anchor),
                "anchor": v.anchor,
                "note": v.change.note,
                "kind": v.change.kind,
                "restore": v.change.restore,
                "removal": v.change.removal,
                "group": v.group,
                "symbols": list(v.symbols),
                "pr_urls": [urls.pr(pr) for pr in v.change.prs],
                "issues": list(v.change.issues),
                "issue_urls": [urls.issue(n) for n in v.change.issues],
                "workaround": v.change.workaround,
                "features": [{"id": fid, "source": _feature_source(v, fid)} for fid in v.features],
            }
            for s in site.release_views[release.version].sections
            for area in s.areas
            for v in area.changes
        ],
    }
    return _dump(data)


def _feature_source(view: ChangeView, fid: str) -> str:
    """How a change came to be a feature's: "tag" (hand-written), "area" (its area's default),
    or "entry" (a release entry of the feature cites one of its PRs)."""
    if fid in view.change.features:
        return "tag"
    return "area" if fid in view.derived else "entry"


def _features(site: Site, base: str) -> bytes:
    features = [
        {
            "id": f.id,
            "title": f.title,
            "area": f.area,
            "backends": list(f.backends),
            "aliases": list(f.aliases),
            "first": f.first,
            "tier": f.tier_now,
            "deprecated_in": f.deprecated_in,
            "removal_planned": f.removal_planned,
            "removed_in": f.removed_in,
            "url": base + urls.feature(f.id),
            "parent": f.family[-1].id if f.family else None,
            "about": f.about,
            "docs": f.docs,
            "lifecycle": [
                {"release": e.release, "tier": e.tier, "change": e.change, "title": e.title} for e in f.entries
            ],
        }
        for f in site.features
    ]
    families = [
        {
            "id": family.node.id,
            "name": family.node.name,
            "parent": family.node.parent,
            "members": [c.id for c in family.children],
            "url": base + urls.feature(family.node.id),
        }
        for family in site.families
    ]
    return _dump({"features": features, "families": families})


def _backend(view, base: str) -> bytes:
    b = view.backend
    return _dump(
        {
            "id": b.id,
            "name": b.name,
            "vendor": b.vendor,
            "description": b.description,
            "url": base + urls.backend(b.id),
            "entries": [_entry(e, base) for _, entries in view.entries_by_release for e in entries],
            "changes": [
                {
                    "release": release.version,
                    "section": v.change.section,
                    "area": v.change.area,
                    "text": v.change.text,
                    "prs": list(v.change.prs),
                    "pr_urls": [urls.pr(p) for p in v.change.prs],
                    "url": base + urls.at(urls.release(release.version), v.anchor),
                }
                for release, views in view.changes_by_release
                for v in views
            ],
        }
    )
