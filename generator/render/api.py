"""The JSON API under /api/v1/: releases, features with lifecycles, backends, and supports' stops.

Field names are stable (they are documented in schemas/api.schema.json and on the site's API
page); add fields, never rename them. URLs are absolute, built on the configured site_url.
"""

from __future__ import annotations

import json

from ..load.schema import SCHEMA_DIR
from ..model import urls
from ..model.computed import ChangeView, Feature, Site, Standing
from ..model.content import Entry, GpuArchitectures, Release
from ..model.stops import SupportStop
from ..pages.describe import feature_standing


def _dump(data) -> bytes:
    """Compact JSON: json's C encoder only runs without `indent` (the API's files take half the
    time, once the first cost of a 10x render's profile, and are a fifth smaller)."""
    return (json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _entry(entry: Entry, base: str, group: str = "", ending: str | None = None) -> dict:
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
        "note": entry.note,
        "url": base + urls.at(urls.release(entry.release), urls.entry_anchor(entry.id)),
        "path": urls.at(urls.release(entry.release), urls.entry_anchor(entry.id)),
        "feature_url": base + urls.feature(entry.id),
        "ending": ending,
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


SCHEMA = SCHEMA_DIR / "api.schema.json"


def render_api(site: Site, base: str) -> dict[str, tuple]:
    """Every API file (and the API's JSON Schema), keyed by its path under docs/: the parts of
    the model it is made from, and a function of those parts that renders its bytes (so the
    parts are all it can read, and an unchanged file need not be rendered again), and True where
    it prints those parts nearly whole (render.render_site)."""
    files = {
        urls.api_schema(): ((SCHEMA.read_bytes(),), lambda schema: schema),
        urls.api_releases(): (
            (site.releases, site.coverage),
            lambda releases, coverage: _dump(
                {"releases": [_release_summary(r, base) for r in reversed(releases)], "coverage": _coverage(coverage)}
            ),
        ),
        urls.api_features(): ((site.features, site.families), lambda f, fam: _features(f, fam, base)),
        urls.api_supports(): (
            (site.supports, site.left_builds, site.content.gpu),
            lambda stops, left, gpu: _supports(stops, left, gpu, base),
        ),
    }
    for release in site.releases:
        # A release's record prints its inputs nearly whole (summary, entries, every change): drawn
        # from them unwatched (`whole`, render.render_site), not through recording proxies, which
        # made a large release's record several times slower to draw (README, Speed mechanisms).
        files[urls.api_release(release.version)] = (
            (release, site.release_views[release.version], _endings(site, release)),
            lambda r, view, ends: _release(r, view, ends, base),
            True,
        )
    for feature in site.features:
        for fid in (feature.id, *feature.aliases):  # a former id's file keeps answering
            standings = (
                feature_standing(feature),
                *(feature_standing(feature, b) for b in feature.backends),
            )
            files[urls.api_feature(fid)] = ((feature, standings), lambda f, s: _feature(f, s, base))
    for view in site.backend_views:
        files[urls.api_backend(view.backend.id)] = ((view,), lambda v: _backend(v, base))
    return files


def _coverage(coverage) -> dict:
    """How far the Atlas reaches (computed.Coverage): the newest release and source, the next release."""
    nxt, shipped, upcoming = coverage.next, coverage.shipped, coverage.upcoming
    return {
        "newest": coverage.newest,
        "newest_patch": coverage.patch or None,
        "newest_source_date": coverage.source_date.isoformat(),
        "as_of": coverage.as_of.isoformat() if coverage.as_of else None,
        "next": None
        if nxt is None
        else {
            "version": nxt.version,
            "planned": nxt.planned.isoformat(),
            "source": nxt.source,
            "covered": False,
            "released": None
            if shipped is None
            else {"month": shipped.month, "evidence": shipped.evidence, "source": shipped.source},
        },
        "upcoming": None
        if upcoming is None
        else {"version": upcoming.version, "planned": upcoming.release.isoformat()},
        "text": coverage.text,
    }


def _release(release: Release, view, endings: tuple, base: str) -> bytes:
    page = base + urls.release(release.version)
    c = release.compatibility
    # The upgrade step of the release page lists these entries; /upgrade/ and /compare/ read it here.
    group_of = {e.id: g.id for g in view.upgrade for e in g.entries}
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
        "entries": [_entry(e, base, group_of.get(e.id, ""), dict(endings).get(e.id)) for e in release.entries],
        "patches": [_patch(p, views, release, page) for p, views in view.patches],
        "change_list": [_change(v, release, page) for s in view.sections for area in s.areas for v in area.changes],
    }
    return _dump(data)


def _change(v: ChangeView, release: Release, page: str) -> dict:
    """A change record as the API gives it (the release's change list, a patch's fixes)."""
    return {
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
        "subject": list(v.subject),
        "subject_confirmed": v.subject_confirmed,
        "every_backend": v.every_backend,
        "pr_urls": [urls.pr(pr) for pr in v.change.prs],
        "issues": list(v.change.issues),
        "issue_urls": [urls.issue(n) for n in v.change.issues],
        "workaround": v.change.workaround,
        "patch": v.change.patch or None,
        "fixed_in": v.fixed_in or None,
        "features": [{"id": fid, "source": _feature_source(v, fid)} for fid in v.features],
    }


def _patch(patch, views, release: Release, page: str) -> dict:
    """A patch release: its date, its notes and what it fixes (change records whose "patch" is its version)."""
    return {
        "version": patch.version,
        "date": patch.date,
        "source": patch.source,
        "summary": patch.summary,
        "url": urls.at(page, urls.patch_anchor(patch.version)),
        "changes": [_change(v, release, page) for v in views],
    }


def _feature_source(view: ChangeView, fid: str) -> str:
    """How a change came to be a feature's: "tag" (hand-written), "area" (its area's default),
    or "entry" (a release entry of the feature cites one of its PRs)."""
    if fid in view.change.features:
        return "tag"
    return "area" if fid in view.derived else "entry"


def _features(all_features, families, base: str) -> bytes:
    features = [
        {
            "id": f.id,
            "title": f.title,
            "area": f.area,
            "backends": list(f.backends),
            "aliases": list(f.aliases),
            "first": f.first,
            "tier": f.standing.tier.id if f.standing.tier else None,
            "since": f.standing.since,
            "status": f.standing.words,
            "deprecated_in": f.deprecated_in,
            "removal_planned": f.removal_planned,
            "removed_in": f.removed_in,
            "url": base + urls.feature(f.id),
            "badge": base + urls.badge(f.id),
            "api": base + urls.api_feature(f.id),
            "parent": f.family[-1].id if f.family else None,
            "about": f.about,
            "docs": f.docs,
            "lifecycle": [
                {"release": e.release, "tier": e.tier, "change": e.change, "title": e.title} for e in f.entries
            ],
        }
        for f in all_features
    ]
    families = [
        {
            "id": family.node.id,
            "name": family.node.name,
            "parent": family.node.parent,
            "members": [c.id for c in family.children],
            "url": base + urls.feature(family.node.id),
        }
        for family in families
    ]
    return _dump({"features": features, "families": families})


def _standing(s: Standing) -> dict:
    """A standing as the README's "What the Atlas states" words it (generator.enrich.facts)."""
    return {
        "tier": s.tier.id if s.tier else None,
        "tier_name": s.tier.name if s.tier else None,
        "since": s.since,
        "status": s.words,
        "announced": {"tier": s.announced.id, "in": s.announced_in} if s.announced else None,
    }


FEATURE_ENDING_FIELDS = {f: f for f in ("deprecated_in", "removal_planned", "removed_in", "part_removed_in")}
"""A feature ending's stated fields (model name -> the name the API gives it)."""


def absolute(url: str, base: str) -> str:
    """An evidence URL as the API gives it: ours on the site's address, upstream ones as they are."""
    return url if url.startswith(("https://", "http://")) else base + url


def evidence(ending, fields: dict[str, str], base: str) -> dict[str, list[str]]:
    """Each stated field of an ending or a support's stop (`fields`: model name -> published name)
    -> the URLs it was read from (generator.enrich.facts, generator.enrich.supports): records' #c-
    anchors and their PRs, entries and their sources, compatibility rows and the matrix."""
    return {fields[name]: [absolute(c.url, base) for c in cited] for name, cited in ending.evidence if name in fields}


def _ending(f: Feature, base: str) -> dict:
    e = f.ending
    return {
        "ending": {
            "status": e.status,
            "words": e.words,
            "deprecated_in": e.deprecated_in,
            "removal_planned": e.removal_planned,
            "removed_in": e.removed_in,
            "part_removed_in": e.part_removed_in,
            "evidence": evidence(e, FEATURE_ENDING_FIELDS, base),
        }
        if e
        else None
    }


def _feature(f: Feature, standings: tuple, base: str) -> bytes:
    """One feature for a wiki macro: its standing overall and per backend (`standings`: overall,
    then one per backend of `f.backends`), and its tiers by release."""
    overall, *per_backend = standings
    data = (
        {
            "id": f.id,
            "title": f.title,
            "area": f.area,
            "aliases": list(f.aliases),
            "family": [node.id for node in f.family],
            "parent": f.family[-1].id if f.family else None,
            "first": f.first,
            "url": base + urls.feature(f.id),
            "badge": base + urls.badge(f.id),
            "api": base + urls.api_feature(f.id),
            "backends": {
                b: _standing(s) | {"badge": base + urls.badge(f.id, b), "url": base + urls.backend(b)}
                for b, s in zip(f.backends, per_backend, strict=True)
            },
            "lifecycle": [
                {
                    "release": e.release,
                    "tier": e.tier,
                    "change": e.change,
                    "backends": list(e.backends),
                    "title": e.title,
                    "url": base + urls.at(urls.release(e.release), urls.entry_anchor(e.id)),
                }
                for e in f.entries
            ],
        }
        | _standing(overall)
        | _ending(f, base)
    )
    return _dump(data)


SUPPORT_FIELDS = {
    "feature": "feature",
    "releases": "releases",
    "last": "last",
    "removed_in": "removed_in",
    "listed_last": "matrix_last",
    "also_in": "also_in",
    "deprecated_in": "deprecated_in",
    "removal_planned": "removal_planned",
}
"""A support stop's stated fields (model name, generator.model.stops -> the name the API gives it)."""


def _supports(stops: tuple[SupportStop, ...], left: dict, gpu: GpuArchitectures | None, base: str) -> bytes:
    """/api/v1/supports.json: each support's stop and each GPU architecture's builds as enrich
    computed them (generator.enrich.supports), with what each stated field was read from."""
    supports = [
        {
            "kind": s.kind,
            "version": s.value,
            "releases": list(s.ships),
            "last": s.last,
            "removed_in": s.removed_in,
            "removed_by": s.removed_by or None,
            "matrix_last": s.listed_last,
            "also_in": list(s.also_in),
            "deprecated_in": s.deprecated_in,
            "removal_planned": s.removal_planned,
            "feature": s.feature or None,
            "feature_url": base + urls.feature(s.feature) if s.feature else None,
            "evidence": evidence(s, SUPPORT_FIELDS, base),
        }
        for s in stops
    ]
    return _dump(
        {"supports": supports, "architectures": [_architecture(a, left, gpu, base) for a in gpu.names] if gpu else []}
    )


def _architecture(arch: str, left: dict, gpu: GpuArchitectures, base: str) -> dict:
    """A GPU architecture: which CUDA builds cover it (content/gpu_archs.yaml, as RELEASE.md lists
    them) and the newest release whose notes say it left builds (enrich.supports.left_builds)."""
    said = left.get(arch)
    builds = [
        {"releases": list(releases), "platform": platform, "cuda": cuda, "covers": arch in archs}
        for releases, platform, cuda, archs, _ in gpu.builds
    ]
    cited = {
        "left_builds": [absolute(url, base) for _, url in said["evidence"]] if said else [],
        "builds": list(dict.fromkeys(source for *_, source in gpu.builds)),
    }
    return {
        "architecture": arch,
        "left_builds": {"release": said["release"], "cuda": list(said["cuda"]), "first": said["first"]}
        if said
        else None,
        "builds": builds,
        "evidence": {field: urls_ for field, urls_ in cited.items() if urls_},
    }


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


def release_record(site: Site, version: str, base: str) -> dict:
    """One release's API record (what `/api/v1/releases/X.Y.json` holds), as data: `generator scan`
    reads it from the content the same way it reads it from a built site."""
    release = next(r for r in site.releases if r.version == version)
    return json.loads(_release(release, site.release_views[version], _endings(site, release), base))


def _endings(site: Site, release: Release) -> tuple:
    """How each deprecated feature the release names ends (generator.enrich.facts), as the ledger says it."""
    return tuple(
        (e.id, f.ending.words)
        for e in release.entries
        if (f := site.feature_by_id[e.id]).ending is not None and f.ending.deprecated_in
    )
