"""The home page's view (`Site.home`), computed by the enrich stage's one pass: the 2.x-at-a-glance
table and its legend, what is on its way out, and the release picker's defaults.

Owns what a glance-table row and cell are and which ledger rows the home page lists; the tier
letters come from content/tiers.yaml (`abbr`), so a renamed tier label changes the page, not
the code.
"""

from __future__ import annotations

from ..model import urls
from ..model.computed import DueItem, Family, Home, LedgerRow, StoryCell, StoryRow
from ..model.content import DUE_STATUS, NO_TIER, NO_TIER_ABBR, Entry, Release, Tier, tier_at, version_key

GLANCE_RELEASES = 15
"""The glance table's columns: the newest releases, so the home page stays the same size as releases
come (issue 36: it grew by every release and every family); the timeline shows every release."""


def glance(releases: tuple) -> tuple:
    """The releases (or versions), oldest first, that the glance table shows: the newest ones."""
    return releases[-GLANCE_RELEASES:]


def home(story: tuple[StoryRow, ...], tiers: tuple[Tier, ...], ledger: tuple[LedgerRow, ...], versions) -> Home:
    """The home page: the glance table (`story_rows`) and its legend, what is on its way out, the
    picker's defaults."""
    shown = {c.abbr for row in story for c in row.cells if c.label}
    legend = []
    for abbr in dict.fromkeys([t.abbr for t in tiers] + [NO_TIER_ABBR]):
        if abbr in shown:
            named = [t for t in tiers if t.abbr == abbr]
            names = " / ".join(t.name for t in named) or "No tier stated"
            legend.append((abbr, names, f"tier-{named[0].id}" if named else "untiered"))
    return Home(
        story,
        tuple(legend),
        due(ledger, versions),
        versions[-2] if len(versions) > 1 else versions[-1],
        versions[-1],
        glance(versions),
    )


def story_rows(
    families: tuple[Family, ...], releases: tuple[Release, ...], tier_by_id: dict[str, Tier], feature_by_id: dict
) -> tuple[StoryRow, ...]:
    """The rows of the home page's 2.x-at-a-glance table: one per top-level feature family that the
    newest releases (`glance`) announced something in, each cell the most mature tier the release
    announced in that family (a deprecation or removal only where that is all it did).

    The one place that says what a row is: the page and its legend follow."""
    rows = []
    for family in families:
        if family.ancestors:
            continue
        mine = set(family.ids)
        cells = tuple(
            _story_cell(release, tuple(e for e in release.entries if e.id in mine), tier_by_id, feature_by_id)
            for release in glance(releases)
        )
        if not any(c.label for c in cells):
            continue
        rows.append(StoryRow(family.node.name, urls.feature(family.node.id), cells))
    # The families most releases touched first: the story's main threads lead.
    return tuple(sorted(rows, key=lambda r: (-sum(1 for c in r.cells if c.label), r.label.casefold())))


def _story_cell(release: Release, entries: tuple[Entry, ...], tier_by_id: dict, feature_by_id: dict) -> StoryCell:
    if not entries:
        return StoryCell(release.version, None, "", "", "empty", f"{release.version}: nothing announced")

    def said(entry: Entry) -> Tier | None:
        return tier_at(tier_by_id[entry.tier], release, tier_by_id) if entry.tier else None

    tiers = [t for t in map(said, entries) if t]
    growing = [t for t in tiers if t.id not in ("deprecated", "removed")]
    top = max(growing or tiers, key=lambda t: t.level, default=None)
    words = "; ".join(f"{feature_by_id[e.id].title}: {t.label if (t := said(e)) else NO_TIER}" for e in entries)
    return StoryCell(
        release.version,
        top.id if top else None,
        top.label if top else NO_TIER,
        top.abbr if top else NO_TIER_ABBR,
        f"tier-{top.id}" if top else "untiered",
        f"{release.version}: {words}",
        len(entries),
    )


def due(ledger: tuple[LedgerRow, ...], versions: tuple[str, ...]) -> tuple[DueItem, ...]:
    """What is on its way out: the ledger's rows not yet removed (the home page lists nothing the
    ledger does not)."""
    items = [
        DueItem(
            row.title,
            row.url,
            row.deprecated_in,
            row.removal_planned,
            DUE_STATUS[row.status],
            row.ending.part_removed_in,
            row.ending,
        )
        for row in ledger
        if row.status != "removed"
    ]
    order = {"due": 0, "overdue": 1, "undated": 2}
    items.sort(
        key=lambda d: (
            order[d.status],
            version_key(d.removal) if d.removal else (0,),
            tuple(-k for k in version_key(d.deprecated_in)),
        )
    )
    # Undated deprecations of the last three releases that a release announcement names; the
    # ledger lists the release-note ones too.
    recent = set(versions[-3:])
    named = {urls.feature(row.feature.id) for row in ledger if row.feature is not None}
    return tuple(d for d in items if d.status != "undated" or (d.deprecated_in in recent and d.url in named))
