"""Enrich stage: compute lifecycles, matrices, cross-links and indexes once, for every page.

Naming rule (after endoflife.date's enricher): the model's raw classes hold what authors wrote;
everything here is computed from them and never written back. Templates only read the Site.

Owns, in the order `enrich` computes them: features and their lifecycle cells and runs, the
view of each change (anchor, backends, features, upgrade group), the deprecation ledger,
families, backend views and matrices, release-page groupings, contributors, symbol pages, and
the upgrade guide between two releases (`guide`); the home page's view is `generator.home`'s,
built at the end of the same pass. Nothing is computed later, at render time.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import hashlib
import operator
import re
import unicodedata
from collections import defaultdict
from dataclasses import replace

from . import home, symbols, urls
from .errors import ContentError, Problem, did_you_mean
from .model import (
    CHANGE_LABELS,
    EVERY_BACKEND_GROUPS,
    NO_TIER,
    QUIET_KINDS,
    SECTIONS,
    UPGRADE_GROUPS,
    Backend,
    BackendView,
    CatalogueFeature,
    Cell,
    Change,
    ChangeArea,
    ChangeCount,
    ChangeSection,
    ChangeView,
    Content,
    Contributor,
    ContributorWork,
    Coverage,
    Entry,
    Family,
    Feature,
    LedgerRow,
    Matrix,
    MatrixRow,
    Release,
    ReleaseView,
    Retired,
    RetiredSymbol,
    Site,
    Symbol,
    SymbolModule,
    SymbolUse,
    Tier,
    TierLevel,
    UpgradeGroup,
    Vocabulary,
    area_key,
    tier_in,
    version_key,
)


def slugify(text: str) -> str:
    """ASCII slug for names: 'Jane Xu' -> 'jane-xu'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug or "x" + hashlib.sha1(text.encode()).hexdigest()[:8]


class Parts:
    """What the last enrich computed, part by part, with what each part was computed from.

    Live preview owns one (build.Preview) and hands it to every enrich: a part whose inputs are
    equal to last time's is last time's object, and a part computed again is, item by item,
    last time's where equal (`_kept`). An edit then recomputes what it touched, and comparing
    the old model with the new (generator.reads) finds everything else identical at once.
    Inputs are compared with ==, which stops at identical objects: load hands out the same
    Release, Entry and Change objects for every file an edit did not touch."""

    def __init__(self) -> None:
        self._last: dict = {}
        self._now: dict = {}

    def __call__(self, key, inputs: tuple, make):
        """make(), a pure function of `inputs`, or the value it gave last time for equal inputs."""
        last = self._last.get(key)
        if last is not None and last[0] == inputs:
            value = last[1]
        else:
            value = make() if last is None else _kept(make(), last[1])
        self._now[key] = (inputs, value)
        return value

    def start(self) -> None:
        """A new enrich begins: forget what one that failed half-way computed."""
        self._now = {}

    def done(self) -> None:
        """The parts computed since `start` are the ones the next enrich reuses."""
        self._last, self._now = self._now, {}


def _kept(new, old):
    """new, with old's object wherever old is equal: the whole, or each item of a tuple (by
    position) or of a dict (by key), in new's order."""
    if type(new) is not type(old):
        return new
    if type(new) is tuple and len(new) == len(old):
        items = tuple(o if o == n else n for n, o in zip(new, old, strict=True))
        return old if all(map(operator.is_, items, old)) else items
    if type(new) is dict:
        items = {k: old[k] if k in old and old[k] == v else v for k, v in new.items()}
        same = list(items) == list(old) and all(items[k] is old[k] for k in items)
        return old if same else items
    return old if new == old else new


def enrich(content: Content, parts: Parts | None = None) -> Site:
    """Build the complete Site from validated content, in one pass.

    Computed here, never in templates: lifecycles and their cells (`Feature`), the timeline and
    each backend's matrix, every change's own anchor, backends and features (`ChangeView`: hand
    tags, entries citing its PRs, and its area's default from the catalogue's `change_areas`), release-page
    groupings (`ReleaseView`), backend change counts, the ledger, tier levels, contributors,
    and the API symbol pages (`SymbolModule`).

    With `parts` (live preview's), each part is computed again only when what it is computed
    from changed since the last enrich given the same `parts`.
    """
    part = parts if parts is not None else Parts()
    part.start()
    releases = content.releases
    tiers, backends, catalogue = content.tiers, content.backends, content.catalogue
    tier_by_id = {t.id: t for t in tiers}
    eras = tuple((r.version, r.tier_vocabulary) for r in releases)
    versions = tuple(r.version for r in releases)
    entries = tuple(r.entries for r in releases)
    catalogue_by_id = {f.id: f for f in catalogue}
    features = part(
        "features",
        (eras, tiers, entries, tuple(r.compatibility for r in releases), catalogue),
        lambda: _features(eras, tiers, releases, catalogue_by_id),
    )
    feature_by_id = {f.id: f for f in features}
    by_pr = part("by_pr", (entries,), lambda: _features_by_pr(releases))
    rules = part("rules", (catalogue,), lambda: area_rules(catalogue))
    change_views = {}
    for r in releases:
        # The entries citing its PRs, by PR.
        cited = tuple(sorted((pr, by_pr[pr]) for c in r.changes for pr in c.prs if pr in by_pr))
        change_views[r.version] = part(
            ("views", r.version),
            (r.changes, backends, cited, rules),
            functools.partial(_views_of, r.changes, backends, cited, rules),
        )
    patch_views = {
        r.version: part(
            ("patches", r.version), (r.patches, backends, rules), lambda r=r: _patch_views(r, backends, rules)
        )
        for r in releases
    }
    _mark_fixed(change_views, patch_views)
    views = tuple(change_views.values())
    ledger = part("ledger", (features, versions, views), lambda: _ledger(features, releases, change_views))
    feature_changes = part("feature_changes", (releases, views), lambda: _feature_changes(releases, change_views))
    families = _families(content, catalogue_by_id, feature_by_id, eras, feature_changes, part)
    story = part(
        "story",
        (tuple((f.node, f.ids, f.ancestors) for f in families), eras, tiers, entries, features),
        lambda: home.story_rows(families, releases, tier_by_id, feature_by_id),
    )
    all_entries = [e for r in reversed(releases) for e in r.entries]
    site = Site(
        content=content,
        releases=releases,
        versions=versions,
        latest=releases[-1],
        features=features,
        features_by_area=part(
            "features_by_area",
            (content.areas, features),
            lambda: tuple(
                (a, tuple(sorted(g, key=lambda f: f.title.casefold())))
                for a in content.areas
                if (g := [f for f in features if f.area == a.id])
            ),
        ),
        feature_by_id=feature_by_id,
        families=families,
        family_by_id={f.node.id: f for f in families},
        catalogue_by_id=catalogue_by_id,
        tier_by_id=tier_by_id,
        backend_by_id={b.id: b for b in backends},
        area_by_id={a.id: a for a in content.areas},
        tier_levels=part(
            "tier_levels", (tiers, content.vocabularies), lambda: _tier_levels(tiers, content.vocabularies)
        ),
        backend_views=tuple(
            part(
                ("backend", b.id),
                (b, releases, matrix, views),
                lambda b=b, matrix=matrix: _backend_view(b, releases, matrix, change_views),
            )
            for b in backends
            for matrix in [
                part(
                    ("backend-matrix", b.id),
                    (b.id, features, eras, tiers),
                    lambda b=b: _backend_matrix(b.id, features, eras, tiers),
                )
            ]
        ),
        contributors=part("contributors", (versions, entries), lambda: _contributors(releases)),
        timeline=part(
            "timeline",
            (eras, tiers, features),
            lambda: Matrix(
                versions, tuple(_row(f, _strip(f.entries, eras, tiers, True, gone_after(f))) for f in features)
            ),
        ),
        ledger=ledger,
        ledger_overdue=sum(1 for row in ledger if row.overdue),
        earlier_removals=part("earlier_removals", (releases, views), lambda: _earlier_removals(releases, change_views)),
        feature_changes=feature_changes,
        defaults=part(
            "defaults",
            (releases, views),
            lambda: tuple((r, v) for r in reversed(releases) for v in change_views[r.version] if v.group == "defaults"),
        ),
        release_views={
            r.version: part(
                ("release", r.version),
                (r, content.vocabularies, tiers, backends, change_views[r.version], patch_views[r.version]),
                lambda r=r: _release_view(r, content, change_views[r.version], patch_views[r.version]),
            )
            for r in releases
        },
        entries_by_tier=part(
            "entries_by_tier",
            (tiers, entries),
            lambda: {t.id: tuple(e for e in all_entries if e.tier == t.id) for t in tiers},
        ),
        symbol_pages=part(
            "symbol_pages",
            (versions, entries, views, content.retired),
            lambda: _symbol_pages(releases, change_views, content.retired),
        ),
        source_date_epoch=calendar.timegm(max(r.date for r in releases).timetuple()),
        change_lists=tuple(r.version for r in releases if r.changes),
        home=part("home", (story, tiers, ledger, versions), lambda: home.home(story, tiers, ledger, versions)),
        coverage=_coverage(releases),
    )
    part.done()
    return site


def _coverage(releases: tuple[Release, ...]) -> Coverage:
    """The newest release on the Atlas, its newest listed patch, the newest day a source is dated
    (a release's, or a patch's whose day is known), and the next release its file names."""
    newest = releases[-1]
    days = [r.date for r in releases] + [
        dt.date.fromisoformat(p.date) for r in releases for p in r.patches if len(p.date) == len("YYYY-MM-DD")
    ]
    patch = next((p.version for p in reversed(newest.patches) if p.changes), "")
    text = f"The newest release on the Atlas is PyTorch {newest.version}" + (
        f", with its patch {patch}" if patch else ""
    )
    text += f"; the newest document it is written from is dated {max(days).isoformat()}."
    if newest.next:
        text += (
            f" The next release by PyTorch's published cadence, {newest.next.version}, was planned for "
            f"{newest.next.planned.isoformat()}: it is not on the Atlas yet, and nothing here describes it."
        )
    return Coverage(newest.version, patch, max(days), newest.next, text)


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


def _patch_views(release: Release, backends: tuple[Backend, ...], rules: tuple[AreaRule, ...]) -> tuple:
    """Each patch release of `release` with its fixes as change views: anchors of their own on the
    release page (a patch's record lines are not the release notes'), backends and features."""
    return tuple((p, _views_of(p.changes, backends, (), rules)) for p in release.patches)


def _mark_fixed(change_views: dict, patch_views: dict) -> None:
    """Give each known issue the patch release whose fixes link the same issue (its `fixed_in`)."""
    fixed = {
        n: p.version for pairs in patch_views.values() for p, views in pairs for v in views for n in v.change.issues
    }
    for version, views in change_views.items():
        if any(v.group == "known-issues" and set(v.change.issues) & fixed.keys() for v in views):
            change_views[version] = tuple(
                replace(v, fixed_in=next(fixed[n] for n in v.change.issues if n in fixed))
                if v.group == "known-issues" and set(v.change.issues) & fixed.keys()
                else v
                for v in views
            )


def _release_view(
    release: Release, content: Content, changes: tuple[ChangeView, ...], patches: tuple = ()
) -> ReleaseView:
    entries = release.entries
    return ReleaseView(
        release=release,
        vocabulary=next(v for v in content.vocabularies if v.id == release.tier_vocabulary),
        highlights=tuple(e for e in entries if e.highlight),
        by_tier=tuple((t, g) for t in content.tiers if (g := tuple(e for e in entries if e.tier == t.id))),
        untiered=tuple(e for e in entries if not e.tier),
        by_backend=tuple((b, g) for b in content.backends if (g := tuple(e for e in entries if b.id in e.backends))),
        device_agnostic=tuple(e for e in entries if not e.backends),
        leaving=tuple(e for e in entries if e.change in ("deprecated", "removed")),
        people=tuple(sorted({n for e in entries for n in e.contributors}, key=str.casefold)),
        sections=_sections(changes),
        upgrade=_upgrade(release, changes),
        known_issues=tuple(v for v in changes if v.group == "known-issues"),
        patches=patches,
    )


def _row(feature: Feature, cells: tuple[Cell, ...]) -> MatrixRow:
    return MatrixRow(feature, cells, tuple(dict.fromkeys(c.tier for c in cells if c.tier)))


def _ledger(features: tuple[Feature, ...], releases: tuple[Release, ...], change_views: dict) -> tuple[LedgerRow, ...]:
    """Every deprecation, oldest first: announced feature entries and release-note change records
    alike. A change record tied to a feature the entries already deprecate is that feature's row;
    a removal is known from a release's entry or from a later compatibility row that no longer
    lists what the feature is the support of; an announced removal release that shipped without
    either makes the row overdue."""
    shipped = {r.version for r in releases}
    rows = []
    deprecated_features = set()
    for f in features:
        entry = next((e for e in f.entries if e.change == "deprecated" or e.tier == "deprecated"), None)
        if entry is None:
            continue
        deprecated_features.add(f.id)
        status = _ledger_status(f.removal_planned, f.removed_in, shipped)
        rows.append(
            LedgerRow(
                f.title,
                urls.feature(f.id),
                f,
                entry,
                None,
                entry.release,
                f.removal_planned,
                f.removed_in,
                f.removed_by,
                status,
            )
        )
    for release in releases:
        for view in change_views[release.version]:
            # A deprecation record, or any record that announces a removal release (2.14's
            # `setup.py` shim, a breaking change with a schedule) is a row of its own.
            if view.group != "deprecations" and not (view.change.removal and view.group):
                continue
            if deprecated_features.intersection(view.features):
                continue
            title = view.change.text.strip().split("\n", 1)[0]
            rows.append(
                LedgerRow(
                    title,
                    urls.at(urls.release(release.version), view.anchor),
                    None,
                    None,
                    view,
                    release.version,
                    view.change.removal,
                    None,
                    "",
                    _ledger_status(view.change.removal, None, shipped),
                )
            )
    rows.sort(key=lambda r: (version_key(r.deprecated_in), r.title.casefold()))
    return tuple(rows)


_SAYS_DEPRECATED = re.compile(r"\bdeprecated\b", re.IGNORECASE)


def _earlier_removals(releases: tuple[Release, ...], change_views: dict) -> tuple[tuple[Release, ChangeView], ...]:
    """Removals of what was deprecated before the change lists begin (2.14: "Remove the deprecated
    `torch.cholesky()`"): a record in the removals step whose record line says it was deprecated,
    in release order. The ledger cannot say when they were deprecated; it says they went."""
    return tuple(
        (release, view)
        for release in releases
        for view in change_views[release.version]
        if view.group == "removals" and _SAYS_DEPRECATED.search(view.change.text.split("\n", 1)[0])
    )


def _ledger_status(removal: str | None, removed_in: str | None, shipped: set) -> str:
    if removed_in:
        return "removed"
    if removal and removal in shipped:
        return "overdue"
    return "due" if removal else "deprecated"


def support_removed(node: CatalogueFeature, releases: tuple[Release, ...], since: str) -> str | None:
    """The first release from `since` on whose compatibility row no longer lists what the feature is
    the support of (Python 3.7, CUDA 11.6 ...): from then on it is removed, whatever entries say."""
    if node.support is None:
        return None
    field, value, _ = node.support
    for release in releases:
        if release.key < version_key(since):
            continue
        if field == "last":
            if release.key > version_key(value):
                return release.version
        elif release.compatibility is not None and not release.compatibility.lists(field, value):
            return release.version
    return None


def tier_today(feature_cells: tuple[Cell, ...], entries: tuple[Entry, ...]) -> tuple[str | None, str | None]:
    """(tier id in force in the latest release under its vocabulary, the release from which it has
    been in force under that name): Beta announced in 2.6 reads API-Unstable since 2.8."""
    last = feature_cells[-1] if feature_cells else None
    if last is None or last.tier is None or last.css.startswith("gone"):
        return None, None
    since = last.release
    for cell in reversed(feature_cells):
        if cell.tier != last.tier:
            break
        since = cell.release
    return last.tier, since


def _announced_in(stated: list[Entry]) -> str | None:
    """The release that first announced the feature's latest stated tier (restatements since
    then do not move it)."""
    if not stated:
        return None
    first = stated[-1]
    for e in reversed(stated):
        if e.tier != first.tier:
            break
        first = e
    return first.release


def backend_entries(entries: tuple[Entry, ...], backend: str) -> tuple[Entry, ...]:
    """A feature's entries as one backend sees them: those naming the backend and those naming
    none (device-agnostic), an entry stating no tier keeping the feature's tier in force."""
    out, in_force = [], None
    for e in entries:
        if e.tier:
            in_force = e.tier
        if e.backends and backend not in e.backends:
            continue
        out.append(e if e.tier or in_force is None else replace(e, tier=in_force))
    return tuple(out)


Eras = tuple[tuple[str, str], ...]
"""(version, tier vocabulary) of every release, oldest first: all a lifecycle strip needs of them."""


@functools.lru_cache(maxsize=1 << 16)
def _strip(
    entries: tuple[Entry, ...], eras: Eras, tiers: tuple[Tier, ...], pad: bool, gone_after: str | None = None
) -> tuple[Cell, ...]:
    """_cells merged into runs, memoised: live preview recomputes only the strips an edit touched.
    With gone_after (a removal the compatibility rows tell, not an entry), releases from it on that
    do not mention the feature are gone instead of carrying its last tier."""
    cells = _cells(entries, eras, tiers, pad)
    if gone_after is not None:
        after = version_key(gone_after)
        cells = tuple(
            Cell(c.release, None, "", "gone", None) if c.entry is None and version_key(c.release) >= after else c
            for c in cells
        )
    return _runs(cells)


def gone_after(feature: Feature) -> str | None:
    """The release from which a feature's strip shows it gone though no entry removed it: its
    support left the compatibility rows (or a source named the last release)."""
    return feature.removed_in if feature.removed_by in ("compatibility", "last") else None


@functools.lru_cache(maxsize=1 << 16)
def _cells(entries: tuple[Entry, ...], eras: Eras, tiers: tuple[Tier, ...], pad: bool) -> tuple[Cell, ...]:
    """One cell per release: the tier in force (stated by the entry, or the last stated tier carried
    forward, muted where the release does not mention the feature) and the entry's change kind.

    With pad, releases before the first entry get empty cells so rows line up in a matrix;
    without, the strip starts at the first entry.
    """
    tier_by_id = {t.id: t for t in tiers}
    by_release = {e.release: e for e in entries}
    first = entries[0].release if entries else None
    cells, carried, started = [], None, False
    for version, vocabulary in eras:
        entry = by_release.get(version)
        started = started or version == first
        if not started:
            if pad:
                cells.append(Cell(version, None, "", "empty", None))
            continue
        if entry is not None:
            if entry.tier:
                carried = tier_by_id[entry.tier]
            # The tier slot holds a tier (stated, or carried from an earlier entry); what the
            # release did to the feature ("Improved") is the cell's change, shown beside it.
            shown = tier_in(carried, vocabulary, tier_by_id)
            label, css = (shown.label, f"tier-{shown.id}") if shown else (NO_TIER, "untiered")
            cells.append(
                Cell(version, shown.id if shown else None, label, css, entry, change=CHANGE_LABELS[entry.change])
            )
        elif carried is not None and carried.id != "removed":
            shown = tier_in(carried, vocabulary, tier_by_id)
            cells.append(Cell(version, shown.id, shown.label, f"tier-{shown.id} carried", None))
        else:
            cells.append(Cell(version, None, "", "empty" if carried is None else "gone", None))
    return tuple(cells)


def _runs(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """Merge each run of releases that do not mention the feature into one spanning cell.

    A strip or matrix row then grows with the feature's entries, not with the number of
    releases: with one cell per release, the timeline is features × releases and the site
    grows quadratically as PyTorch keeps shipping.
    """
    out: list[Cell] = []
    for cell in cells:
        prev = out[-1] if out else None
        if (
            prev is not None
            and cell.entry is None
            and prev.entry is None
            and (prev.label, prev.css) == (cell.label, cell.css)
        ):
            out[-1] = Cell(prev.release, prev.tier, prev.label, prev.css, None, prev.span + 1, cell.release)
        else:
            out.append(cell)
    return tuple(out)


def _ancestors(node: CatalogueFeature, catalogue_by_id: dict) -> tuple[CatalogueFeature, ...]:
    """The families above a catalogue feature, root first (load has refused loops)."""
    out = []
    while node.parent is not None:
        node = catalogue_by_id[node.parent]
        out.append(node)
    return tuple(reversed(out))


def _families(
    content: Content, catalogue_by_id: dict, feature_by_id: dict, eras: Eras, feature_changes: dict, part: Parts
) -> tuple[Family, ...]:
    """Every catalogue feature with members (`_family`), in reading order: the most-released
    top-level families first, each followed by its sub-families, depth first. Each family is a
    part of its own: an edit makes again the families whose members or releases it changed."""
    children: dict[str, list[CatalogueFeature]] = defaultdict(list)
    for f in content.catalogue:
        if f.parent is not None:
            children[f.parent].append(f)
    release_by_version = {r.version: r for r in content.releases}
    by_id = {}
    for node in content.catalogue:
        if node.id not in children:
            continue
        ids = tuple(fid for _, fid in _subtree(node.id, children))
        members = tuple(feature_by_id.get(fid) for fid in ids)
        shown = {e.release for f in members if f for e in f.entries}
        by_id[node.id] = part(
            ("family", node.id),
            (
                content.catalogue,
                eras,
                content.tiers,
                members,
                tuple(feature_changes.get(fid) for fid in ids),
                tuple(r for v, r in release_by_version.items() if v in shown),
            ),
            lambda node=node: _family(
                node, children, content, catalogue_by_id, feature_by_id, eras, feature_changes, release_by_version
            ),
        )
    ordered: list[Family] = []

    def visit(family: Family) -> None:
        ordered.append(family)
        for child in family.children:
            if child.id in by_id:
                visit(by_id[child.id])

    roots = (f for f in by_id.values() if not f.ancestors)
    for root in sorted(roots, key=lambda f: (-len(f.by_release), f.node.name.casefold())):
        visit(root)
    return tuple(ordered)


def _subtree(node_id: str, children: dict, depth: int = 0) -> list[tuple[int, str]]:
    """(depth, id) of a catalogue node and everything below it, depth first."""
    out = [(depth, node_id)]
    for child in children.get(node_id, ()):
        out += _subtree(child.id, children, depth + 1)
    return out


def _family(
    node, children, content, catalogue_by_id, feature_by_id, eras, feature_changes, release_by_version
) -> Family:
    """One family: a matrix row per member, its announcements release by release, its own
    changes, what its members' changes ask of an upgrade, and how many changes each member has."""
    below = _subtree(node.id, children)
    ids = tuple(fid for _, fid in below)
    rows = tuple(
        replace(_row(feature, _strip(feature.entries, eras, content.tiers, True, gone_after(feature))), depth=depth)
        for depth, fid in below
        if (feature := feature_by_id.get(fid))
    )
    entries: dict[str, list] = defaultdict(list)
    for fid in ids:
        for entry in feature_by_id[fid].entries if fid in feature_by_id else ():
            entries[entry.release].append(entry)
    actions = {
        (release.version, view.anchor): (release, view)
        for fid in ids[1:]
        for release, view in feature_changes.get(fid, ())
        if view.group and view.group != "new"
    }
    return Family(
        node=node,
        feature=feature_by_id.get(node.id),
        ancestors=_ancestors(node, catalogue_by_id),
        children=tuple(children[node.id]),
        matrix=Matrix(tuple(v for v, _ in eras), rows),
        members=len(ids) - 1,
        by_release=tuple((release_by_version[v], tuple(entries[v])) for v, _ in reversed(eras) if entries.get(v)),
        own_changes=feature_changes.get(node.id, ()),
        member_actions=tuple(sorted(actions.values(), key=lambda pair: (pair[0].key, pair[1].anchor), reverse=True)),
        member_counts=tuple(
            (catalogue_by_id[fid], depth, len(feature_changes[fid]))
            for depth, fid in below[1:]
            if feature_changes.get(fid)
        ),
        ids=ids,
    )


def _features(
    eras: Eras, tiers: tuple[Tier, ...], releases: tuple[Release, ...], catalogue_by_id: dict
) -> tuple[Feature, ...]:
    grouped: dict[str, list[Entry]] = defaultdict(list)
    for release in releases:
        for entry in release.entries:
            grouped[entry.id].append(entry)
    features = []
    for fid in sorted(grouped):
        entries = tuple(grouped[fid])
        stated = [e for e in entries if e.tier]
        deprecated = next((e for e in entries if e.change == "deprecated" or e.tier == "deprecated"), None)
        removed = next((e for e in entries if e.change == "removed" or e.tier == "removed"), None)
        planned = next((e.removal for e in reversed(entries) if e.removal), None)
        cells = _cells(entries, eras, tiers, False)
        backends = tuple(sorted({b for e in entries for b in e.backends}))
        strips = tuple((b, _cells(backend_entries(entries, b), eras, tiers, False)) for b in backends)
        differs = (
            any([c.label for c in s] != [c.label for c in cells][-len(s) :] for _, s in strips) and len(backends) > 1
        )
        node = catalogue_by_id[fid]
        by_support = support_removed(node, releases, deprecated.release if deprecated else entries[0].release)
        if removed is not None and by_support is not None and version_key(by_support) < version_key(removed.release):
            removed = None  # the compatibility rows say it went first
        ended = by_support if removed is None else None
        cells = _strip(entries, eras, tiers, False, ended)
        strips = tuple((b, _strip(backend_entries(entries, b), eras, tiers, False, ended)) for b, _ in strips)
        today, since = tier_today(_cells(entries, eras, tiers, False), entries)
        features.append(
            Feature(
                id=fid,
                title=node.name,
                area=node.area,
                backends=backends,
                entries=entries,
                cells=cells,
                aliases=node.aliases,
                prs=tuple(sorted({p for e in entries for p in e.prs})),
                contributors=tuple(sorted({c for e in entries for c in e.contributors}, key=str.casefold)),
                first=entries[0].release,
                tier_now=stated[-1].tier if stated else None,
                deprecated_in=deprecated.release if deprecated else None,
                removal_planned=planned,
                removed_in=removed.release if removed else by_support,
                removed_by="entry"
                if removed
                else ("last" if node.support[0] == "last" else "compatibility")
                if by_support
                else "",
                tier_today=today,
                tier_since=since,
                tier_announced_in=_announced_in(stated),
                backend_cells=strips if differs else (),
                about=node.about,
                docs=node.docs,
                family=_ancestors(node, catalogue_by_id),
            )
        )
    return tuple(features)


def change_backends(change: Change, backends: tuple[Backend, ...]) -> tuple[str, ...]:
    """The backends a change belongs to: its hand-written override, else its area headings."""
    if change.backends_override is not None:
        return change.backends_override
    parts = {p.strip().casefold() for p in change.area.split("›")}
    return tuple(b.id for b in backends if any(a.casefold() in parts for a in b.change_areas))


def _backend_matrix(backend: str, features: tuple[Feature, ...], eras: Eras, tiers: tuple[Tier, ...]) -> Matrix:
    """A backend's timeline: a row per feature with an entry naming the backend."""
    rows = []
    for feature in features:
        mine = tuple(e for e in feature.entries if backend in e.backends)
        if mine:
            rows.append(_row(feature, _strip(mine, eras, tiers, True, gone_after(feature))))
    rows.sort(key=lambda r: (_first_index(r), r.feature.title.casefold()))
    return Matrix(tuple(v for v, _ in eras), tuple(rows))


def _backend_view(backend: Backend, releases: tuple[Release, ...], matrix: Matrix, change_views: dict) -> BackendView:
    entries = tuple((r, tuple(e for e in r.entries if backend.id in e.backends)) for r in reversed(releases))
    changes = tuple(
        (r, mine)
        for r in reversed(releases)
        if (mine := tuple(v for v in change_views[r.version] if backend.id in v.backends))
    )
    counts = tuple(
        ChangeCount(
            r,
            len(views),
            sum(1 for v in views if v.change.section == "bc-breaking"),
            sum(1 for v in views if v.change.section == "deprecations"),
        )
        for r, views in changes
    )
    return BackendView(
        backend=backend,
        matrix=matrix,
        entries_by_release=tuple((r, es) for r, es in entries if es),
        changes_by_release=changes,
        change_counts=counts,
        change_total=sum(c.total for c in counts),
    )


def _first_index(row: MatrixRow) -> int:
    return next(i for i, c in enumerate(row.cells) if c.entry is not None)


def _feature_changes(releases, change_views) -> dict[str, tuple]:
    out: dict[str, list] = defaultdict(list)
    for release in reversed(releases):
        for view in change_views[release.version]:
            for fid in view.features:
                out[fid].append((release, view))
    return {fid: tuple(items) for fid, items in out.items()}


def _features_by_pr(releases: tuple[Release, ...]) -> dict[int, tuple[str, ...]]:
    """PR number -> ids of the features whose entries cite it."""
    out: dict[int, list[str]] = defaultdict(list)
    for release in releases:
        for entry in release.entries:
            for pr in entry.prs:
                if entry.id not in out[pr]:
                    out[pr].append(entry.id)
    return {pr: tuple(ids) for pr, ids in out.items()}


AreaRule = tuple[tuple[str, ...], str, frozenset]
"""(area heading parts, feature id, that feature and every member below it)."""


def area_rules(catalogue: tuple[CatalogueFeature, ...]) -> tuple[AreaRule, ...]:
    """The catalogue's per-area defaults (`change_areas`), longest heading first, each with the
    feature's subtree: a change tagged anywhere in it keeps its tag instead of the default."""
    children: dict[str, list[str]] = defaultdict(list)
    for f in catalogue:
        if f.parent:
            children[f.parent].append(f.id)

    def subtree(fid: str) -> frozenset:
        out, todo = {fid}, [fid]
        while todo:
            for child in children[todo.pop()]:
                if child not in out:
                    out.add(child)
                    todo.append(child)
        return frozenset(out)

    rules = [(area_key(h), f.id, subtree(f.id)) for f in catalogue for h in f.change_areas]
    return tuple(sorted(rules, key=lambda r: (-len(r[0]), r[0])))


def area_default(area: str, rules: tuple[AreaRule, ...]) -> AreaRule | None:
    """The rule of the longest heading that `area` equals or lies under, or None."""
    parts = area_key(area)
    return next((r for r in rules if parts[: len(r[0])] == r[0]), None)


def derived_features(area: str, given: tuple[str, ...], rules: tuple[AreaRule, ...]) -> tuple[str, ...]:
    """The feature a change carries by its area: its area's default, unless a hand tag or an
    entry's PR already puts it in that feature or one of its members (the more specific tag wins)."""
    rule = area_default(area, rules)
    if rule is None or any(fid in rule[2] for fid in given):
        return ()
    return (rule[1],)


def _views_of(
    changes: tuple[Change, ...], backends: tuple[Backend, ...], cited: tuple, rules: tuple[AreaRule, ...]
) -> tuple[ChangeView, ...]:
    """Each change with its own anchor, the PR anchors it owns (first citation wins), its backends
    and its features (hand tags, entries citing its PRs, then its area's default). A part of
    its own in `enrich`: live preview recomputes only the change lists an edit touched."""
    anchored: set[int] = set()
    views = []
    by_pr = dict(cited)
    for change, anchor in zip(changes, urls.change_anchors(c.text for c in changes), strict=True):
        own = tuple(pr for pr in dict.fromkeys(change.prs) if pr not in anchored)
        anchored.update(own)
        given = tuple(dict.fromkeys(change.features + tuple(f for pr in change.prs for f in by_pr.get(pr, ()))))
        derived = derived_features(change.area, given, rules)
        views.append(
            ChangeView(
                change,
                anchor,
                own,
                change_backends(change, backends),
                symbols=symbols.of_text(change.text, change.note, change.restore),
                group=upgrade_group(change),
                features=given + derived,
                derived=derived,
            )
        )
    return tuple(views)


def _symbol_pages(
    releases: tuple[Release, ...], change_views: dict, retired: tuple[RetiredSymbol, ...] = ()
) -> dict[str, SymbolModule]:
    """The /symbols/ pages: every `torch.*` name, on its module's page, with what names it; and
    the names a page no longer lists (content/symbols.yaml), kept on it.

    A name retired as `still_named` (the notes write it, but it is no API) is left out before the
    pages are cut, so it makes no module of its own.

    Raises ContentError for a retired name its page still lists, or whose successor no page lists.
    """
    uses: dict[str, list[SymbolUse]] = defaultdict(list)
    for release in reversed(releases):
        for name, use in _named_in(release.version, release.entries, change_views[release.version]):
            uses[name].append(use)
    _drop_still_named(uses, retired)
    module_paths = symbols.modules(uses)
    by_page: dict[str, list[Symbol]] = defaultdict(list)
    for name in sorted(uses):
        page = symbols.page_of(name, module_paths)
        by_page[page].append(Symbol(name, name[len(page) + 1 :], tuple(uses[name])))
    kept = _retired(retired, {name: symbols.page_of(name, module_paths) for name in uses})
    return {
        page: SymbolModule(
            page,
            tuple(sorted(by_page.get(page, ()), key=lambda s: (s.short != "", s.name.casefold(), s.name))),
            tuple(sorted(kept.get(page, ()), key=lambda r: (r.name.casefold(), r.name))),
        )
        for page in sorted(by_page.keys() | kept.keys())
    }


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


@functools.lru_cache(maxsize=1024)
def _named_in(version: str, entries: tuple[Entry, ...], views: tuple[ChangeView, ...]) -> tuple:
    """(name, SymbolUse) for each `torch.*` name a release's entries and changes mention. A change
    names what its record line (its first line: the body may hold long examples), note or
    restore name. Memoised by value: an edit re-reads only its release's names."""
    out = []
    for entry in entries:
        use = SymbolUse(version, None, entry)
        out.extend((name, use) for name in symbols.torch_names(entry.title, entry.summary, entry.reason))
    for view in views:
        change = view.change
        use = SymbolUse(version, view, None)
        record = change.text.strip().split("\n", 1)[0]
        out.extend((name, use) for name in symbols.torch_names(record, change.note, change.restore))
    return tuple(out)


def upgrade_group(change: Change) -> str:
    """Where a change goes in an upgrade guide (UPGRADE_GROUPS), "" when an upgrade need not act."""
    if change.section == "tracked-regressions":
        return "known-issues"
    if change.section == "deprecations":
        return "deprecations"
    if change.section != "bc-breaking" and (change.kind is None or change.kind in QUIET_KINDS):
        return ""
    if change.kind in ("default-change", "behaviour-change", "numerics"):
        return "defaults"
    if change.kind == "api-removed":
        return "removals"
    return "breaking"


def _upgrade(release: Release, views: tuple[ChangeView, ...]) -> tuple[UpgradeGroup, ...]:
    """Upgrading to this release from the one before: its changes that need action, step by step.
    Feature entries count too (entry_group): a deprecation the announcement names and no change
    record of the step tells is listed by its entry, as on the ledger."""
    out = []
    for group_id, title in UPGRADE_GROUPS:
        mine = [v for v in views if v.group == group_id]
        told = {fid for v in mine for fid in v.features}
        entries = tuple(e for e in release.entries if entry_group(e) == group_id and e.id not in told)
        areas = list(dict.fromkeys(v.change.area for v in mine))
        mine.sort(key=lambda v: areas.index(v.change.area))
        if mine or entries:
            out.append(UpgradeGroup(group_id, title, tuple(mine), entries))
    return tuple(out)


def entry_group(entry: Entry) -> str:
    """Where a feature entry goes in an upgrade guide (UPGRADE_GROUPS), "" when nowhere."""
    if entry.change in ("new", "promoted"):
        return "new"
    if entry.change == "deprecated":
        return "deprecations"
    if entry.change == "removed":
        return "removals"
    return ""


def guide_entries(release: Release, views: tuple[ChangeView, ...]) -> frozenset[tuple[str, str]]:
    """(entry id, group) of the release's entries its upgrade step lists (those no change record of
    the same group already tells): the API marks them, so /upgrade/ and /compare/ count what
    release pages count."""
    out = set()
    for e in release.entries:
        group = entry_group(e)
        if group and not any(v.group == group and e.id in v.features for v in views):
            out.add((e.id, group))
    return frozenset(out)


def _sections(views: tuple[ChangeView, ...]) -> tuple[ChangeSection, ...]:
    """A release's changes grouped by section (in SECTIONS order) and by area (in notes order)."""
    grouped = []
    anchors: set[str] = set()
    for section in SECTIONS:
        in_section = [v for v in views if v.change.section == section.id]
        if not in_section:
            continue
        areas: dict[str, list[ChangeView]] = {}
        for v in in_section:
            areas.setdefault(v.change.area, []).append(v)
        grouped.append(
            ChangeSection(
                section.id,
                len(in_section),
                tuple(
                    ChangeArea(a, urls.unique(f"{section.id}-{slugify(a) if a else 'general'}", anchors), tuple(vs))
                    for a, vs in areas.items()
                ),
            )
        )
    return tuple(grouped)


def _contributors(releases: tuple[Release, ...]) -> tuple[Contributor, ...]:
    work: dict[str, list[ContributorWork]] = defaultdict(list)
    for release in releases:
        for entry in release.entries:
            for name in entry.contributors:
                work[name].append(ContributorWork(release.version, entry))
    slugs: dict[str, str] = {}
    out = []
    for name in sorted(work, key=lambda n: (n.casefold(), n)):
        slug = slugify(name)
        while slug in slugs.values():
            slug += "-x"
        slugs[name] = slug
        out.append(Contributor(name, slug, tuple(work[name])))
    return tuple(out)


# ---------------------------------------------------------------- the upgrade guide between two releases


def applies_to(backends: tuple[str, ...], backend: str) -> bool:
    """Whether a change or entry concerns a reader on `backend` ("" for any): one naming no backend
    concerns every backend. atlas-rules.js `concerns` is the same rule."""
    return not backend or not backends or backend in backends


def guide(site: Site, start: str, end: str, backend: str = "") -> dict[str, tuple]:
    """The upgrade guide from `start` to `end` on `backend`: group id -> its items (ChangeView or
    Entry), release by release. /upgrade/ and /compare/ show these groups (atlas-rules.js `collect`
    reads the same `group` of each change and entry from the API); tests hold the counts to them."""
    out: dict[str, list] = {g: [] for g, _ in UPGRADE_GROUPS}
    for release in site.releases:
        if not version_key(start) < release.key <= version_key(end):
            continue
        for group in site.release_views[release.version].upgrade:
            # Known issues show whatever the backend (atlas-rules.js `collect`): each says whom it hits.
            out[group.id].extend(
                v for v in group.changes if group.id in EVERY_BACKEND_GROUPS or applies_to(v.backends, backend)
            )
            out[group.id].extend(e for e in group.entries if applies_to(e.backends, backend))
    return {g: tuple(items) for g, items in out.items()}
