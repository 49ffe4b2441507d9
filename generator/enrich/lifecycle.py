"""Lifecycles: a feature's strip of cells (its tier release by release), its standing and ending
(generator.enrich.facts), and each backend's matrix of them. Part of the enrich stage."""

from __future__ import annotations

from collections import defaultdict

from ..model.computed import Cell, Feature, Matrix, MatrixRow
from ..model.content import (
    CHANGE_LABELS,
    NO_TIER,
    CatalogueFeature,
    Compatibility,
    Entry,
    Tier,
    page_spans,
    tier_in,
    version_key,
)
from . import facts


def support_removed(node: CatalogueFeature, rows: Compatibilities, since: str) -> str | None:
    """The first release from `since` on whose compatibility row (`rows`: (version, row) of every
    release, oldest first) no longer lists what the feature is the support of (Python 3.7, CUDA
    11.6 ...): from then on it is removed, unless the notes say otherwise (generator.enrich.facts)."""
    if node.support is None:
        return None
    field, value, _ = node.support
    for version, compatibility in rows:
        if version_key(version) < version_key(since):
            continue
        if field == "last":
            if version_key(version) > version_key(value):
                return version
        elif compatibility is not None and not compatibility.lists(field, value):
            return version
    return None


Compatibilities = tuple[tuple[str, "Compatibility | None"], ...]
"""(version, compatibility row) of every release, oldest first."""


Eras = tuple[tuple[str, str], ...]
"""(version, tier vocabulary) of every release, oldest first: all a lifecycle strip needs of them."""


def strip(
    entries: tuple[Entry, ...],
    eras: Eras,
    tiers: tuple[Tier, ...],
    pad: bool,
    gone_after: str | None = None,
    backend: str | None = None,
    since: str | None = None,
) -> tuple[Cell, ...]:
    """_cells merged into runs (a run of releases that do not mention the feature is one cell).
    With gone_after (a removal the compatibility rows tell, not an entry), releases from it on that
    do not mention the feature are gone instead of carrying its last tier. With backend, the strip
    as that backend sees it (facts.backend_entries). With since, the strip from that release on
    (a timeline page's first), the tier in force then carried in."""
    cells = _gone(_cells(facts.backend_entries(entries, backend) if backend else entries, eras, tiers, pad), gone_after)
    if since is not None:
        cells = tuple(c for c in cells if version_key(c.release) >= version_key(since))
    return runs(cells)


def _gone(cells: tuple[Cell, ...], gone_after: str | None) -> tuple[Cell, ...]:
    """The cells from gone_after on that do not mention the feature shown gone (see strip)."""
    if gone_after is None:
        return cells
    after = version_key(gone_after)
    return tuple(
        Cell(c.release, None, "", "gone", None) if c.entry is None and version_key(c.release) >= after else c
        for c in cells
    )


def gone_after(feature: Feature) -> str | None:
    """The release from which a feature's strip shows it gone though no entry removed it: its
    support left the compatibility rows (or a source named the last release)."""
    return feature.removed_in if feature.removed_by in ("compatibility", "last") else None


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
            elif entry.change == "removed":  # the notes' word: removed, whatever tier it last had
                carried = tier_by_id["removed"]
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


def runs(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
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


def row(feature: Feature, cells: tuple[Cell, ...]) -> MatrixRow:
    return MatrixRow(feature, cells, tuple(dict.fromkeys(c.tier for c in cells if c.tier)))


def features(
    eras: Eras,
    tiers: tuple[Tier, ...],
    entries: tuple[tuple[Entry, ...], ...],
    rows: Compatibilities,
    catalogue: tuple[CatalogueFeature, ...],
    removals: dict,
) -> tuple[Feature, ...]:
    """Every feature's lifecycle from the entries of each release (oldest first), with its
    standing and ending (generator.enrich.facts) and its strip on each of its backends."""
    grouped: dict[str, list[Entry]] = defaultdict(list)
    for mine in entries:
        for entry in mine:
            grouped[entry.id].append(entry)
    catalogue_by_id = {f.id: f for f in catalogue}
    return tuple(
        _feature(tuple(grouped[fid]), catalogue_by_id[fid], catalogue_by_id, eras, tiers, rows, removals)
        for fid in sorted(grouped)
    )


def _feature(
    entries: tuple[Entry, ...],
    node: CatalogueFeature,
    catalogue_by_id: dict,
    eras: Eras,
    tiers: tuple[Tier, ...],
    rows: Compatibilities,
    removals: dict,
) -> Feature:
    tier_by_id = {t.id: t for t in tiers}
    latest = eras[-1][0]
    deprecated = next((e for e in entries if e.change == "deprecated" or e.tier == "deprecated"), None)
    by_support = support_removed(node, rows, deprecated.release if deprecated else entries[0].release)
    how = ("last" if node.support[0] == "last" else "compatibility") if by_support else ""
    shipped = {v for v, _ in eras}
    support = (
        (by_support, how, facts.cited_support(by_support, how, dict(rows).get(by_support), node.support[2]))
        if by_support
        else None
    )
    ending = facts.feature_ending(entries, support, removals.get(node.id, ()), shipped)
    gone = ending.removed_in if ending else None
    ended = gone if ending and ending.removed_by in ("compatibility", "last") else None
    cells = strip(entries, eras, tiers, False, ended)
    backends = tuple(sorted({b for e in entries for b in e.backends}))
    strips = tuple((b, strip(entries, eras, tiers, False, ended, b)) for b in backends)
    labels = [(c.release, c.label) for c in runs(cells)]
    differs = len(backends) > 1 and any([(c.release, c.label) for c in s] != labels[-len(s) :] for _, s in strips)

    def named(b: str) -> tuple[Entry, ...]:
        return tuple(e for e in entries if b in e.backends)

    return Feature(
        id=node.id,
        title=node.name,
        area=node.area,
        backends=backends,
        entries=entries,
        cells=cells,
        aliases=node.aliases,
        prs=tuple(sorted({p for e in entries for p in e.prs})),
        contributors=tuple(sorted({c for e in entries for c in e.contributors}, key=str.casefold)),
        first=entries[0].release,
        standing=facts.standing(cells, entries, tier_by_id, latest, gone),
        ending=ending,
        backend_standings=tuple((b, facts.standing(s, named(b), tier_by_id, latest, gone)) for b, s in strips),
        backend_cells=strips if differs else (),
        about=node.about,
        docs=node.docs,
        family=ancestors(node, catalogue_by_id),
    )


def backend_matrix(backend: str, features: tuple[Feature, ...], eras: Eras, tiers: tuple[Tier, ...]) -> Matrix:
    """A backend's timeline: a row per feature with an entry naming the backend."""
    rows = []
    for feature in features:
        if backend in feature.backends:  # its lifecycle there, as its badge states it
            rows.append(row(feature, strip(feature.entries, eras, tiers, True, gone_after(feature), backend)))
    rows.sort(key=lambda r: (first_index(r), r.feature.title.casefold()))
    return Matrix(tuple(v for v, _ in eras), tuple(rows))


def backend_pages(
    backend: str, features: tuple[Feature, ...], eras: Eras, tiers: tuple[Tier, ...]
) -> tuple[Matrix, ...]:
    """A backend's timeline cut into pages (model.page_spans), newest first, as the timeline is: each
    a row per feature with a cell of the backend's entries in its releases, the tier in force when
    its span begins carried in. Each feature's cells are made once, for every release, and cut."""
    padded = [
        (f, _gone(_cells(facts.backend_entries(f.entries, backend), eras, tiers, True), gone_after(f)))
        for f in features
        if backend in f.backends
    ]
    pages = []
    for start, stop in page_spans(tuple(v for v, _ in eras)):
        rows = [row(f, runs(cells[start:stop])) for f, cells in padded if _names_one(cells[start:stop])]
        rows.sort(key=lambda r: (first_index(r), r.feature.title.casefold()))
        pages.append(Matrix(tuple(v for v, _ in eras[start:stop]), tuple(rows)))
    return tuple(pages)


def _names_one(cells: tuple[Cell, ...]) -> bool:
    return any(c.entry is not None for c in cells)


def first_index(row: MatrixRow) -> int:
    return next(i for i, c in enumerate(row.cells) if c.entry is not None)


def ancestors(node: CatalogueFeature, catalogue_by_id: dict) -> tuple[CatalogueFeature, ...]:
    """The families above a catalogue feature, root first (load has refused loops)."""
    out = []
    while node.parent is not None:
        node = catalogue_by_id[node.parent]
        out.append(node)
    return tuple(reversed(out))


def timeline_order(feature: Feature, order: dict[str, int]) -> tuple[int, str, str]:
    """A timeline row's place: the release that first announced the feature, oldest first, then
    its title alphabetically (timeline.md.j2 says so)."""
    return (min(order[e.release] for e in feature.entries), feature.title.casefold(), feature.id)


def timeline(eras: Eras, tiers: tuple[Tier, ...], features: tuple[Feature, ...]) -> tuple[Matrix, ...]:
    """The timeline pages, newest first (model.page_spans: /timeline/ the newest releases, then
    /timeline/X.Y-X.Y/ each earlier span, so no page grows with every release): each a row per feature an entry of its
    releases names, lined up under those releases, the tier in force carried in from before.
    Rows in `timeline_order`, which the page states."""
    order = {v: i for i, (v, _) in enumerate(eras)}
    features = tuple(sorted(features, key=lambda f: timeline_order(f, order)))
    pages = []
    for start, stop in page_spans(tuple(v for v, _ in eras)):
        shown = {v for v, _ in eras[start:stop]}
        pages.append(
            Matrix(
                tuple(v for v, _ in eras[start:stop]),
                tuple(
                    row(f, strip(f.entries, eras[:stop], tiers, True, gone_after(f), since=eras[start][0]))
                    for f in features
                    if any(e.release in shown for e in f.entries)
                ),
            )
        )
    return tuple(pages)
