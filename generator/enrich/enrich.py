"""Enrich stage: compute lifecycles, matrices, cross-links and indexes once, for every page.

Naming rule (after endoflife.date's enricher): the model's raw classes hold what authors wrote;
everything here is computed from them and never written back. Templates only read the Site.

`enrich` is the list of what is derived, in order, each a derivation of generator.util.session:
change views (generator.enrich.changeviews), lifecycles with standings and endings (generator.enrich.lifecycle,
generator.enrich.facts), the ledger, families (generator.enrich.families), backend views and matrices,
release-page groupings, contributors, symbol pages and the home page (generator.enrich.home). This
module keeps the groupings that are one function each, and the upgrade guide between two
releases (`guide`). Nothing is computed later, at render time.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections import defaultdict
from dataclasses import replace

from ..markup.textfilters import record_line
from ..model import symbols, urls
from ..model.computed import (
    USES_ON_PAGE,
    ChangeView,
    Contributor,
    ContributorWork,
    Coverage,
    Feature,
    ReleaseView,
    Retired,
    Site,
    Span,
    Symbol,
    SymbolModule,
    SymbolUse,
    TierLevel,
)
from ..model.content import (
    EVERY_BACKEND_GROUPS,
    UPGRADE_GROUPS,
    Area,
    Backend,
    Content,
    Entry,
    NextRelease,
    PlannedRelease,
    Release,
    RetiredSymbol,
    Shipped,
    Tier,
    Vocabulary,
    applies_to,
    version_key,
)
from ..model.errors import ContentError, Problem, did_you_mean
from ..util.session import Session
from . import backendviews, changeviews, facts, home, lifecycle, supports
from .families import families as families_of


def enrich(content: Content, session: Session | None = None) -> Site:
    """The complete Site from validated content: a list of derivations, each a function of exactly what
    it is given (generator.util.session), so live preview's `session` reruns only those whose arguments changed."""
    s = session if session is not None else Session()
    d = s.derive
    releases, tiers, backends, catalogue = content.releases, content.tiers, content.backends, content.catalogue
    eras, versions = tuple((r.version, r.tier_vocabulary) for r in releases), tuple(r.version for r in releases)
    views, patches = _change_views(d, releases, backends, d(changeviews.area_rules, catalogue))
    feature_changes = _feature_changes(d, releases, views)
    rows = tuple((r.version, r.compatibility) for r in releases)
    removals = d(facts.removals_by_feature, versions, views)
    entries = tuple(r.entries for r in releases)
    features = d(lifecycle.features, eras, tiers, entries, rows, catalogue, removals)
    feature_by_id = {f.id: f for f in features}
    ledger = d(facts.ledger, features, versions, views)
    families = families_of(catalogue, releases, eras, tiers, feature_by_id, feature_changes, s)
    story = d(home.story_rows, families, releases, tier_by_id := {t.id: t for t in tiers}, feature_by_id)
    return Site(
        content=content,
        releases=releases,
        versions=versions,
        latest=releases[-1],
        features=features,
        features_by_area=(by_area := d(_features_by_area, content.areas, features)),
        feature_by_id=feature_by_id,
        families=families,
        family_by_id={f.node.id: f for f in families},
        catalogue_by_id={f.id: f for f in catalogue},
        tier_by_id=tier_by_id,
        backend_by_id={b.id: b for b in backends},
        area_by_id={a.id: a for a in content.areas},
        tier_levels=d(_tier_levels, tiers, content.vocabularies),
        backend_views=backendviews.backend_views(d, content, features, views, eras),
        contributors=(people := d(_contributors, releases)),
        contributor_pages=d(_contributor_pages, people, versions),
        timeline=d(lifecycle.timeline, eras, tiers, features),
        ledger=ledger,
        ledger_overdue=sum(1 for row in ledger if row.overdue),
        earlier_removals=(earlier := d(facts.earlier_removals, releases, views)),
        ledger_pages=d(facts.ledger_pages, ledger, earlier, versions),
        feature_changes=feature_changes,
        feature_changes_by_release=_feature_changes_by_release(d, feature_changes),
        defaults=(defaults := d(_defaults, releases, views)),
        defaults_pages=d(_defaults_pages, defaults, versions),
        release_views={
            r.version: d(_release_view, r, content.vocabularies, tiers, backends, vs, ps, key=r.version)
            for r, vs, ps in zip(releases, views, patches, strict=True)
        },
        tier_pages=d(_tier_pages, tiers, entries, versions),
        feature_pages=d(facts.feature_pages, by_area, families, versions),
        symbol_pages=_symbols(d, releases, views, content.retired),
        source_date_epoch=calendar.timegm(max(r.date for r in releases).timetuple()),
        change_lists=tuple(r.version for r in releases if r.changes),
        home=d(home.home, story, tiers, ledger, versions),
        coverage=d(_coverage, releases, content.planned, content.as_of),
        name_endings=d(facts.name_endings, versions, views),
        inferences=d(_questions, features, ledger, versions, views, removals),
        supports=d(supports.stops, rows, catalogue, features),
        left_builds=d(supports.left_builds, content.gpu.left if content.gpu else ()),
    )


def _questions(features, ledger, versions: tuple[str, ...], views: tuple, removals: dict) -> tuple:
    """What check asks the content to confirm: endings read from record text, then subjects proposed
    from it (facts.inferences, changeviews.subject_questions)."""
    return facts.inferences(features, ledger, versions, views, removals) + changeviews.subject_questions(
        versions, views
    )


def _change_views(d, releases: tuple[Release, ...], backends: tuple[Backend, ...], rules: tuple) -> tuple:
    """Each release's change views (a known issue marked with the patch that fixed it) and its
    patches' fixes as views: a derivation per release."""
    by_pr = d(changeviews.features_by_pr, tuple(r.entries for r in releases))
    views = tuple(
        d(changeviews.views_of, r.changes, backends, d(_cited, r, by_pr, key=r.version), rules, key=r.version)
        for r in releases
    )
    patches = tuple(d(_patch_views, r.patches, backends, rules, key=r.version) for r in releases)
    return d(_mark_fixed, views, patches), patches


def _feature_changes(d, releases: tuple[Release, ...], views: tuple) -> dict:
    """changeviews.feature_changes, each release's share a derivation of its own: an edit to one
    release finds its changes' features again for that release only."""
    shares = tuple(
        d(changeviews.release_feature_changes, r, v, key=r.version) for r, v in zip(releases, views, strict=True)
    )
    return d(changeviews.feature_changes, shares)


def _feature_changes_by_release(d, feature_changes: dict) -> dict:
    """Feature id -> its changes grouped by release (changeviews.by_release), newest first, each
    feature's a derivation of its own: an edit regroups the features it touched."""
    return {fid: d(changeviews.by_release, pairs, key=("feature", fid)) for fid, pairs in feature_changes.items()}


def _symbols(d, releases: tuple[Release, ...], views: tuple, retired: tuple[RetiredSymbol, ...]) -> dict:
    """The symbol pages, from each release's named symbols (a derivation per release)."""
    named = tuple(
        d(_named_in, r.version, r.entries, vs, key=r.version)
        for r, vs in zip(reversed(releases), reversed(views), strict=True)
    )
    return d(_symbol_pages, named, retired)


def _coverage(releases: tuple[Release, ...], planned: tuple[PlannedRelease, ...], as_of: dt.date | None) -> Coverage:
    """The newest release on the Atlas, its newest listed patch, the newest day a release document
    is dated (a release's, or a patch's whose day is known), the next release its file names and
    whether it is known to have shipped, and the first release planned after `as_of` (the day the
    sources were last checked: cadence.yaml's, never the wall clock)."""
    newest = releases[-1]
    days = [r.date for r in releases] + [
        dt.date.fromisoformat(p.date) for r in releases for p in r.patches if len(p.date) == len("YYYY-MM-DD")
    ]
    patch = next((p.version for p in reversed(newest.patches) if p.changes), "")
    on_atlas = {r.version for r in releases}
    plan = {p.version: p for p in planned}
    shipped = plan[newest.next.version].shipped if newest.next and newest.next.version in plan else None
    upcoming = next((p for p in planned if p.version not in on_atlas and as_of and p.release > as_of), None)
    text = f"The newest release on the Atlas is PyTorch {newest.version}" + (
        f", with its patch {patch}" if patch else ""
    )
    text += f"; the newest release document it is written from is dated {max(days).isoformat()}."
    text += _next_words(newest.next, shipped, as_of)
    if upcoming is not None and (newest.next is None or upcoming.version != newest.next.version):
        text += (
            f" The next release the cadence plans, {upcoming.version}, is due on {upcoming.release.isoformat()}"
            + (f" (branch cut {upcoming.branch_cut.isoformat()})" if upcoming.branch_cut else "")
            + "."
        )
    if as_of is not None:
        text += f" What has shipped was last checked on {as_of.isoformat()}."
    return Coverage(newest.version, patch, max(days), newest.next, text, as_of, shipped, upcoming)


def _next_words(nxt: NextRelease | None, shipped: Shipped | None, as_of: dt.date | None) -> str:
    """What the coverage sentence says of the release after the newest: shipped, its day passed
    with nothing known, or planned."""
    if nxt is None:
        return ""
    if shipped is not None:
        month = dt.date.fromisoformat(shipped.month + "-01")
        return (
            f" PyTorch {nxt.version} has been released since ({shipped.evidence}; it shipped in {month:%B %Y}), but its release"
            " notes are not at hand: it is not on the Atlas yet, and nothing here describes it."
        )
    if as_of is not None and nxt.planned < as_of:
        return (
            f" The next release by PyTorch's published cadence, {nxt.version}, was planned for "
            f"{nxt.planned.isoformat()}; the day has passed without a release the Atlas knows of, and nothing here describes it."
        )
    return (
        f" The next release by PyTorch's published cadence, {nxt.version}, is planned for "
        f"{nxt.planned.isoformat()}: it is not on the Atlas yet, and nothing here describes it."
    )


def _patch_views(patches: tuple, backends: tuple[Backend, ...], rules: tuple) -> tuple:
    """Each patch release with its fixes as change views: anchors of their own on the release
    page (a patch's record lines are not the release notes'), backends and features."""
    return tuple((p, changeviews.views_of(p.changes, backends, (), rules)) for p in patches)


def _mark_fixed(views: tuple, patches: tuple) -> tuple:
    """Each release's views, a known issue given the patch release whose fixes link the same
    issue (its `fixed_in`)."""
    fixed = {n: p.version for pairs in patches for p, vs in pairs for v in vs for n in v.change.issues}

    def marked(v: ChangeView) -> ChangeView:
        if v.group != "known-issues" or not set(v.change.issues) & fixed.keys():
            return v
        return replace(v, fixed_in=next(fixed[n] for n in v.change.issues if n in fixed))

    return tuple(tuple(map(marked, vs)) for vs in views)


def _cited(release: Release, by_pr: dict) -> tuple:
    """The entries citing each of the release's changes' PRs, by PR."""
    return tuple(sorted((pr, by_pr[pr]) for c in release.changes for pr in c.prs if pr in by_pr))


def _features_by_area(areas: tuple[Area, ...], features: tuple[Feature, ...]) -> tuple:
    return tuple(
        (a, tuple(sorted(g, key=lambda f: f.title.casefold())))
        for a in areas
        if (g := [f for f in features if f.area == a.id])
    )


def _defaults(releases: tuple[Release, ...], views: tuple) -> tuple:
    """Every default and behaviour change, newest release first."""
    return tuple(
        (r, v) for r, vs in zip(reversed(releases), reversed(views), strict=True) for v in vs if v.group == "defaults"
    )


def _defaults_pages(defaults: tuple, versions: tuple[str, ...]) -> tuple:
    """The default and behaviour changes by release, newest first, cut into pages (facts.span_pages):
    (first, last, ReleaseChanges of each release with one) of /upgrade/defaults/ and of each earlier
    span that has any."""
    by_release = changeviews.by_release(defaults)

    def page_of(span: tuple[str, ...]) -> Span:
        return Span(span[0], span[-1], tuple(rc for rc in by_release if rc.release.version in span))

    return facts.span_pages(versions, page_of, lambda page: page.items)


def _tier_pages(tiers: tuple[Tier, ...], entries: tuple[tuple[Entry, ...], ...], versions) -> tuple:
    """/tiers/ and a page per earlier span of releases (facts.span_pages): each a Span of
    (Tier, the entries of the span announced with it, newest first) for every tier, an earlier
    span only where some tier has one."""
    by_version = dict(zip(versions, entries, strict=True))

    def page_of(span: tuple[str, ...]) -> Span:
        everything = [e for v in reversed(span) for e in by_version[v]]
        return Span(span[0], span[-1], tuple((t, tuple(e for e in everything if e.tier == t.id)) for t in tiers))

    return facts.span_pages(versions, page_of, lambda page: any(mine for _, mine in page.items))


def _tier_levels(tiers: tuple[Tier, ...], vocabularies: tuple[Vocabulary, ...]) -> tuple[TierLevel, ...]:
    """The tiers of the first and the latest vocabulary side by side, level by level (tiers of
    every vocabulary on both sides)."""
    first, latest = vocabularies[0].id, vocabularies[-1].id
    levels = sorted({t.level for t in tiers})
    return tuple(
        TierLevel(
            level,
            tuple(t for t in tiers if t.level == level and t.vocabulary in (first, "all")),
            tuple(t for t in tiers if t.level == level and t.vocabulary in (latest, "all")),
        )
        for level in levels
    )


def _release_view(
    release: Release,
    vocabularies: tuple[Vocabulary, ...],
    tiers: tuple[Tier, ...],
    backends: tuple[Backend, ...],
    changes: tuple[ChangeView, ...],
    patches: tuple = (),
) -> ReleaseView:
    entries = release.entries
    return ReleaseView(
        release=release,
        vocabulary=next(v for v in vocabularies if v.id == release.tier_vocabulary),
        highlights=tuple(e for e in entries if e.highlight),
        by_tier=tuple((t, g) for t in tiers if (g := tuple(e for e in entries if e.tier == t.id))),
        untiered=tuple(e for e in entries if not e.tier),
        by_backend=tuple((b, g) for b in backends if (g := tuple(e for e in entries if b.id in e.backends))),
        device_agnostic=tuple(e for e in entries if not e.backends),
        leaving=tuple(e for e in entries if e.change in ("deprecated", "removed")),
        people=tuple(sorted({n for e in entries for n in e.contributors}, key=str.casefold)),
        sections=changeviews.sections(changes),
        upgrade=changeviews.upgrade(release, changes),
        bc_split=changeviews.bc_split(changes),
        known_issues=tuple(v for v in changes if v.group == "known-issues"),
        patches=patches,
    )


def _symbol_pages(named: tuple[tuple, ...], retired: tuple[RetiredSymbol, ...] = ()) -> dict[str, SymbolModule]:
    """The /symbols/ pages: every `torch.*` name, on its module's page, with what names it; and
    the names a page no longer lists (content/symbols.yaml), kept on it.

    A name retired as `still_named` (the notes write it, but it is no API) is left out before the
    pages are cut, so it makes no module of its own.

    `named`: each release's (name, SymbolUse) pairs (`_named_in`), newest release first.

    Raises ContentError for a retired name its page still lists, or whose successor no page lists.
    """
    uses: dict[str, list[SymbolUse]] = defaultdict(list)
    for pairs in named:
        for name, use in pairs:
            uses[name].append(use)
    _drop_still_named(uses, retired)
    module_paths = symbols.modules(uses)
    by_page: dict[str, list[Symbol]] = defaultdict(list)
    for name in sorted(uses):
        page = symbols.page_of(name, module_paths)
        symbol = Symbol(name, name[len(page) + 1 :], tuple(uses[name]))
        by_page[page].append(replace(symbol, pages=_name_pages(symbol.uses)) if symbol.more else symbol)
    kept = _retired(retired, {name: symbols.page_of(name, module_paths) for name in uses})
    return {
        page: SymbolModule(
            page,
            tuple(sorted(by_page.get(page, ()), key=lambda s: (s.short != "", s.name.casefold(), s.name))),
            tuple(sorted(kept.get(page, ()), key=lambda r: (r.name.casefold(), r.name))),
        )
        for page in sorted(by_page.keys() | kept.keys())
    }


def _name_pages(uses: tuple[SymbolUse, ...]) -> tuple[Span, ...]:
    """A name's own pages (computed.Symbol.pages), newest first: its uses by release, filled from
    the oldest release into pages of at most USES_ON_PAGE uses, cut only between releases. A page
    is closed when the next release's uses would take it over the bound (a release with more uses
    than the bound is a page of its own); the newest page is the open one, at the name's usual
    address. A Span runs from the first to the last release with a use on it.

    A closed page is at an address of its own (urls.symbol_name_span) that names its releases, and
    never changes when releases are added: new uses come only with new releases, which go to the
    open page. It does change when the uses of an old release change (a record line that names the
    name is added or dropped, a release's notes re-imported) so that a cut moves: a closed page
    then holds other releases, its old address disappears, and the URL promise
    (generator/published_urls.txt) refuses the build until that is dealt with. That is accepted:
    old releases rarely change that much, and the refusal says which addresses went."""
    by_release: dict[str, list[SymbolUse]] = {}
    for use in uses:
        by_release.setdefault(use.release, []).append(use)
    pages: list[list[tuple[str, tuple[SymbolUse, ...]]]] = [[]]
    held = 0
    for release, mine in reversed(by_release.items()):
        if pages[-1] and held + len(mine) > USES_ON_PAGE:
            pages.append([])
            held = 0
        pages[-1].append((release, tuple(mine)))
        held += len(mine)
    return tuple(Span(page[0][0], page[-1][0], tuple(reversed(page))) for page in reversed(pages) if page)


def _drop_still_named(uses: dict, retired: tuple[RetiredSymbol, ...]) -> None:
    """Leave out of `uses` the names retired as `still_named`, each checked to be still written
    and retired from the page it would be listed on (a stale entry would hide nothing)."""
    module_paths = symbols.modules(uses)
    problems = []
    for r in retired:
        if not r.still_named:
            continue
        if r.name not in uses:
            problems.append(Problem(*r.at, f"no change or entry names {r.name} any more: remove still_named"))
        elif (page := symbols.page_of(r.name, module_paths)) != r.page:
            problems.append(Problem(*r.at, f"{r.name} would be listed on /{urls.symbol_page(page)}: use page: {page}"))
    if problems:
        raise ContentError(problems)
    for r in retired:
        if r.still_named:
            uses.pop(r.name, None)


def _retired(retired: tuple[RetiredSymbol, ...], page_of: dict[str, str]) -> dict[str, list[Retired]]:
    """Retired names by the page that keeps their anchors, each with its successor's page."""
    out: dict[str, list[Retired]] = defaultdict(list)
    problems, seen = [], {}
    for r in retired:
        where = r.at
        if page_of.get(r.name) == r.page:
            message = (
                f"{r.name} is listed on /{urls.symbol_page(r.page)} now: it is not retired; remove this entry "
                "(or, if the notes write it but it is no API, add `still_named: true`)"
            )
            problems.append(Problem(*where, message))
        elif (r.name, r.page) in seen:
            problems.append(Problem(*where, f"{r.name} on {r.page} is already retired at line {seen[r.name, r.page]}"))
        elif r.successor is not None and r.successor not in page_of:
            hint = did_you_mean(r.successor, page_of)
            problems.append(Problem(*where, f"successor {r.successor} is not a name the symbol pages list{hint}"))
        else:
            seen[r.name, r.page] = where[1]
            successor_page = page_of[r.successor] if r.successor is not None else None
            out[r.page].append(Retired(r.name, r.successor, successor_page, r.reason))
    if problems:
        raise ContentError(problems)
    return out


def _named_in(version: str, entries: tuple[Entry, ...], views: tuple[ChangeView, ...]) -> tuple:
    """(name, SymbolUse) for each `torch.*` name a release's entries and changes mention. A change
    names what its record line (its first line: the body may hold long examples), note or
    restore name. A derivation per release: an edit re-reads only its release's names."""
    out = []
    for entry in entries:
        use = SymbolUse(version, None, entry)
        out.extend((name, use) for name in symbols.torch_names(entry.title, entry.summary, entry.reason))
    for view in views:
        change = view.change
        use = SymbolUse(version, view, None)
        record = record_line(change.text)
        out.extend((name, use) for name in symbols.torch_names(record, change.note, change.restore))
    return tuple(out)


def _contributors(releases: tuple[Release, ...]) -> tuple[Contributor, ...]:
    work: dict[str, list[ContributorWork]] = defaultdict(list)
    for release in releases:
        for entry in release.entries:
            for name in entry.contributors:
                work[name].append(ContributorWork(release.version, entry))
    slugs: dict[str, str] = {}
    out = []
    for name in sorted(work, key=lambda n: (n.casefold(), n)):
        slug = urls.slugify(name)
        while slug in slugs.values():
            slug += "-x"
        slugs[name] = slug
        out.append(Contributor(name, slug, tuple(work[name])))
    return tuple(out)


def _contributor_pages(contributors: tuple[Contributor, ...], versions: tuple[str, ...]) -> tuple[Span, ...]:
    """The contributors cut into pages (facts.span_pages), newest first: /contributors/ and a page per
    earlier span that credits anyone, each listing the contributors with work in its releases (by
    name, as `contributors`), each with that work only."""

    def page_of(span: tuple[str, ...]) -> Span:
        within = set(span)
        mine = tuple(
            Contributor(c.name, c.slug, work)
            for c in contributors
            if (work := tuple(w for w in c.work if w.release in within))
        )
        return Span(span[0], span[-1], mine)

    return facts.span_pages(versions, page_of, lambda page: page.items)


# ---------------------------------------------------------------- the upgrade guide between two releases


def guide(site: Site, start: str, end: str, backend: str = "") -> dict[str, tuple]:
    """The upgrade guide from `start` to `end` on `backend`: group id -> its items (ChangeView or
    Entry), release by release. /upgrade/ and /compare/ show these groups (atlas-rules.js `collect`
    reads the same `group` of each change and entry from the API); tests hold the counts to them."""
    out: dict[str, list] = {g: [] for g, _ in UPGRADE_GROUPS}
    told: set[tuple[str, str]] = set()  # (step kind, feature id) a step of the range already tells
    for release in site.releases:
        if not version_key(start) < release.key <= version_key(end):
            continue
        for group in site.release_views[release.version].upgrade:
            changes = [v for v in group.changes if applies_to(v.backends, backend, v.every_backend)]
            out[group.id].extend(changes)
            told.update((_told_as(group.id), f) for v in changes for f in v.features)
            for e in _with_news(release, group, backend):
                # A feature's later entries (TorchScript deprecated in 2.10, again in 2.11 and 2.12)
                # add nothing to the range: each feature is told once per kind of step.
                if applies_to(e.backends, backend) and (_told_as(group.id), e.id) not in told:
                    out[group.id].append(e)
                    told.add((_told_as(group.id), e.id))
    return {g: tuple(items) for g, items in out.items()}


def _with_news(release: Release, group, backend: str) -> tuple[Entry, ...]:
    """A step's entries; on a guide filtered to `backend`, the new step also holds what the release
    announced as improved for that backend (2.12's ROCm items: expandable segments, rocSHMEM), in
    the release's order. atlas-rules.js `collect` reads the same rule from the API's entries."""
    if group.id != "new" or not backend:
        return group.entries
    listed = {id(e) for e in group.entries}
    return tuple(e for e in release.entries if id(e) in listed or (e.change == "improved" and backend in e.backends))


def elsewhere(site: Site, start: str, end: str, backend: str) -> dict[str, int]:
    """For a guide filtered to `backend`: how many reports of what fails (EVERY_BACKEND_GROUPS) the
    range holds for other platforms only, by group, so the guide says "N more for other platforms"
    rather than hiding them (atlas-rules.js `collect` counts the same)."""
    out = dict.fromkeys(EVERY_BACKEND_GROUPS, 0)
    for release in site.releases:
        if not version_key(start) < release.key <= version_key(end):
            continue
        for group in site.release_views[release.version].upgrade:
            if group.id in out:
                out[group.id] += sum(not applies_to(v.backends, backend, v.every_backend) for v in group.changes)
    return out


def _told_as(group: str) -> str:
    """What kind of step tells a feature: one that asks something (changeviews.ACTING_GROUPS), or
    the step itself (new features, known issues)."""
    return "acts" if group in changeviews.ACTING_GROUPS else group
