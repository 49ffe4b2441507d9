"""Lifecycles: a feature's strip of cells (its tier release by release), its standing and ending
(generator.enrich.facts), and each backend's matrix of them. Part of the enrich stage."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from itertools import pairwise

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
    """A feature's cells, release by release, with each run of releases that do not mention it
    merged into one cell (`Runs`). With gone_after (a removal the compatibility rows tell, not an
    entry), releases from it on that do not mention the feature are gone instead of carrying its
    last tier. With backend, the strip as that backend sees it (facts.backend_entries). With since,
    the strip from that release on (a timeline page's first), the tier in force then carried in."""
    made = Runs(facts.backend_entries(entries, backend) if backend else entries, eras, tiers, pad, gone_after)
    first = 0 if since is None else bisect_left(_places(eras)[1], version_key(since))
    return made.cut(first, len(eras))


_held: tuple = ((), None)


def _places(eras: Eras) -> tuple[dict[str, int], list[tuple[int, ...]], list[int]]:
    """Of `eras`: each version's position, the versions' keys in order (eras are oldest first),
    and the positions where the tier vocabulary changes (0 first). Made once per eras tuple, the
    one enrich passes to every strip (the last one is held: a strip is then made in the time
    its entries take, not the number of releases)."""
    global _held
    eras_held, places = _held
    if eras_held is not eras:
        starts = [i for i, (_, vocabulary) in enumerate(eras) if i == 0 or vocabulary != eras[i - 1][1]]
        places = ({v: i for i, (v, _) in enumerate(eras)}, [version_key(v) for v, _ in eras], starts)
        _held = (eras, places)
    return places


def gone_after(feature: Feature) -> str | None:
    """The release from which a feature's strip shows it gone though no entry removed it: its
    support left the compatibility rows (or a source named the last release)."""
    return feature.removed_in if feature.removed_by in ("compatibility", "last") else None


class Runs:
    """A feature's strip as runs of releases (positions in `eras`): a release whose entry names the
    feature is a run of its own; consecutive releases that do not mention it and read alike (the
    tier in force carried forward, muted; nothing yet; gone) are one run. A strip or matrix row
    then grows with the feature's entries, not with the number of releases: with one cell per
    release, the timeline is features x releases and the site grows quadratically as PyTorch keeps
    shipping. `cut` gives the cells of any span of releases, so a backend's pages cut one strip.

    Each release shows the tier in force: the one its entry states, or the last stated carried
    forward (in the release's vocabulary); an entry saying "removed" removes it whatever tier it
    last had. With pad, releases before the first entry are empty runs, so rows line up in a
    matrix; without, the strip starts at the first entry."""

    def __init__(
        self, entries: tuple[Entry, ...], eras: Eras, tiers: tuple[Tier, ...], pad: bool, gone_after: str | None
    ) -> None:
        self.eras = eras
        self.runs: list[list] = []  # [first position, last position, tier, label, css, entry, change]
        self.entries: list[int] = []  # positions of the releases whose entry names the feature
        tier_by_id = {t.id: t for t in tiers}
        position, keys, starts = _places(eras)
        by_release = {e.release: e for e in entries}
        named = sorted((position[v], e) for v, e in by_release.items() if v in position)
        first = position.get(entries[0].release) if entries else None
        gone = bisect_left(keys, version_key(gone_after)) if gone_after is not None else len(eras)
        self._tiers, self._shown = tier_by_id, {}  # (tier, vocabulary) -> a carried cell's look
        carried, started = None, False
        done = 0  # the positions before this have their cells
        for i, entry in [*named, (len(eras), None)]:
            if done < i and (started or pad):  # releases that do not mention the feature
                self._gap(done, i, carried if started else None, carried is not None, gone, starts)
            if entry is None:
                break
            started = started or i == first
            if entry.tier:
                carried = tier_by_id[entry.tier]
            elif entry.change == "removed":  # the notes' word: removed, whatever tier it last had
                carried = tier_by_id["removed"]
            # The tier slot holds a tier (stated, or carried from an earlier entry); what the
            # release did to the feature ("Improved") is the cell's change, shown beside it.
            tier = tier_in(carried, eras[i][1], tier_by_id)
            label, css = (tier.label, f"tier-{tier.id}") if tier else (NO_TIER, "untiered")
            self.entries.append(i)
            self.runs.append([i, i, tier.id if tier else None, label, css, entry, CHANGE_LABELS[entry.change]])
            done = i + 1

    def _gap(self, start: int, stop: int, carried: Tier | None, had: bool, gone: int, starts: list[int]) -> None:
        """Releases at positions start to stop - 1, which do not mention the feature: gone from
        `gone` on; before it the tier `carried` forward (read in each release's vocabulary, so the
        gap is cut where the vocabulary changes), or nothing yet (`had` no tier), or gone."""
        carries = carried is not None and carried.id != "removed"
        cuts = {gone} if start < gone < stop else set()
        if carries:
            cuts.update(starts[bisect_right(starts, start) : bisect_left(starts, stop)])
        edges = [start, *sorted(cuts), stop]
        for a, b in pairwise(edges):
            if a >= gone:
                look = (None, "", "gone")
            elif carries:
                vocabulary = self.eras[a][1]
                if (carried.id, vocabulary) not in self._shown:
                    tier = tier_in(carried, vocabulary, self._tiers)
                    self._shown[carried.id, vocabulary] = (tier.id, tier.label, f"tier-{tier.id} carried")
                look = self._shown[carried.id, vocabulary]
            else:
                look = (None, "", "gone" if had else "empty")
            self._quiet(a, b - 1, look)

    def _quiet(self, first: int, last: int, look: tuple) -> None:
        """Releases first to last do not mention the feature and read `look` (tier, label, css):
        they join the run before them when that one reads alike."""
        run = self.runs[-1] if self.runs else None
        if run is not None and run[5] is None and run[1] == first - 1 and (run[3], run[4]) == look[1:]:
            run[1] = last
        else:
            self.runs.append([first, last, *look, None, ""])

    def cut(self, start: int, stop: int) -> tuple[Cell, ...]:
        """The cells of the releases at positions start to stop - 1, a run crossing an edge cut at it."""
        eras, out = self.eras, []
        for first, last, tier, label, css, entry, change in self.runs:
            a, b = max(first, start), min(last, stop - 1)
            if a > b:
                continue
            span = b - a + 1
            out.append(Cell(eras[a][0], tier, label, css, entry, span, eras[b][0] if span > 1 else "", change))
        return tuple(out)

    def names_one(self, start: int, stop: int) -> bool:
        """Whether an entry names the feature in a release at positions start to stop - 1."""
        return any(start <= i < stop for i in self.entries)


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
    shipped = _places(eras)[0].keys()  # the versions released
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
    labels = [(c.release, c.label) for c in cells]
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
    its span begins carried in. Each feature's runs are made once (Runs) and cut at each span."""
    made = [
        (f, Runs(facts.backend_entries(f.entries, backend), eras, tiers, True, gone_after(f)))
        for f in features
        if backend in f.backends
    ]
    pages = []
    for start, stop in page_spans(tuple(v for v, _ in eras)):
        rows = [row(f, runs.cut(start, stop)) for f, runs in made if runs.names_one(start, stop)]
        rows.sort(key=lambda r: (first_index(r), r.feature.title.casefold()))
        pages.append(Matrix(tuple(v for v, _ in eras[start:stop]), tuple(rows)))
    return tuple(pages)


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
    made = [(f, Runs(f.entries, eras, tiers, True, gone_after(f))) for f in features]  # each cut at each span
    pages = []
    for start, stop in page_spans(tuple(v for v, _ in eras)):
        rows = tuple(row(f, runs.cut(start, stop)) for f, runs in made if runs.names_one(start, stop))
        pages.append(Matrix(tuple(v for v, _ in eras[start:stop]), rows))
    return tuple(pages)
