"""The computed model that enrich builds from the content (model.content) and templates receive:
lifecycles, standings, endings, features, families, matrices, change, release and backend views,
the ledger, supports' stops, the Site. Frozen; each field documented where it is declared."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from .content import (
    Area,
    Backend,
    CatalogueFeature,
    Change,
    Content,
    Entry,
    NextRelease,
    PlannedRelease,
    Release,
    Shipped,
    Tier,
    Vocabulary,
)
from .stops import Evidence, SupportStop
from .wording import Said, ending_phrases, said, sentence, tag

# ---------------------------------------------------------------- computed by enrich


@dataclass(frozen=True)
class Cell:
    """A feature at one release: one cell of a lifecycle strip or matrix."""

    release: str
    tier: str | None  # tier id in force (carried forward from earlier entries when not restated)
    label: str  # text shown in the tier slot: the tier's label ("Beta"), "No tier", "" for none
    css: str  # class name for the colour
    entry: Entry | None  # the release's entry, None when the release does not mention it
    span: int = 1  # releases this cell covers: a run of releases that do not mention the feature is one cell
    last: str = ""  # the run's last release, when span > 1
    change: str = ""  # what the release's entry did ("New", "Improved" ...), shown beside the tier


@dataclass(frozen=True)
class Standing:
    """Where a feature, or a feature on one backend, stands in the latest release: the one statement
    its page, badge, API record, link preview and search record all make (README "What the Atlas
    states"). Computed once, in enrich, from the lifecycle strip the page shows."""

    tier: Tier | None  # its tier now, in the latest release's vocabulary; None when no entry states one
    since: str  # the first release of the strip's last run under that tier's name (its first release when untiered)
    first: str  # its first release (on a backend: the first entry naming the backend)
    last: str  # the newest release, or the one that removed it
    releases: int  # releases whose entries announce it
    announced: Tier | None = None  # the latest tier an entry stated, in the words of its release
    announced_in: str | None = None  # the release that first stated `announced` (restatements do not move it)

    @property
    def words(self) -> str:
        """'API-Unstable since 2.8', 'Removed in 2.9', 'No tier stated since 2.3'."""
        if self.tier is None:
            return f"No tier stated since {self.since}"
        if self.tier.id == "removed":
            return said("removed_in", self.since).opening
        return f"{self.tier.name} since {self.since}"

    @property
    def announced_words(self) -> str:
        """'announced as Beta in 2.0', '' when no entry stated a tier."""
        if self.announced is None:
            return ""
        return f"announced as {self.announced.name} in {self.announced_in}"

    @property
    def renamed(self) -> bool:
        """Whether the tier as announced reads differently today (Beta announced in 2.6 is API-Unstable)."""
        return self.announced is not None and self.tier is not None and self.announced.id != self.tier.id


@dataclass(frozen=True)
class NameEnding:
    """How a `torch.*` name leaves PyTorch: the release-note records that say that very name is
    deprecated or removed (a change's `ends:`), computed once (generator.enrich.facts); symbols.json
    and TorchFix's deprecated_symbols.yaml format it."""

    name: str
    deprecated_in: str | None
    removal_planned: str | None  # the release the deprecation names for its removal
    removed_in: str | None
    replacement: str | None  # the name the deprecation or removal record says to use instead
    deprecation: ChangeView | None  # the record that deprecates it
    removal: ChangeView | None  # the record that removes it
    evidence: Evidence = ()


@dataclass(frozen=True)
class Inference:
    """An ending read from record text (a name, a feature tie, a shared rare name) that the content
    has neither confirmed nor rejected (a change's `ends:`), or a subject proposed from it (`subject:`):
    a question `check` lists, never a fact."""

    release: str  # the release whose change list holds the record to confirm
    change: Change  # the record to confirm
    question: str  # what the Atlas would state, and how to confirm or reject it
    about: str = "ending"  # "ending" or "subject": what the content's answer settles


@dataclass(frozen=True)
class Ending:
    """How a deprecated feature or API ends: the one statement the ledger, the home page, the feature
    page, the API and search make of it (README "What the Atlas states")."""

    deprecated_in: str | None
    removal_planned: str | None  # the release a source announced for its removal
    removed_in: (
        str | None
    )  # the notes' word (an entry or change removing it), else the first release whose compatibility row drops it
    removed_by: str = ""  # "entry", "change", "compatibility", "last" (a source names the last release), ""
    part_removed_in: str | None = (
        None  # a later change removed part of it (2.11 removed PT2E from torch.ao.quantization)
    )
    evidence: Evidence = ()  # what each stated field was read from (README "What the Atlas states")
    status: str = "deprecated"  # "removed", "part-removed", "overdue", "due", "deprecated"

    @property
    def phrases(self) -> tuple[Said, ...]:
        """Its phrases, worded in one home (model.wording): 'deprecated in 2.8', 'part removed in 2.11'."""
        return ending_phrases(
            self.deprecated_in, self.part_removed_in, self.removal_planned, self.removed_in, self.status
        )

    @property
    def words(self) -> str:
        """'Removed in 2.13', 'Deprecated in 2.8; part removed in 2.11', 'Deprecated in 2.12; removal due in 2.14'."""
        return sentence(self.phrases)

    @property
    def tag(self) -> str:
        """Its status in one word, for its tag: 'Removed', 'Overdue', 'Deprecated'."""
        return tag(self.status)


@dataclass(frozen=True)
class Feature:
    """A feature across releases: its lifecycle."""

    id: str
    title: str  # from its first entry
    area: str
    backends: tuple[str, ...]  # union over entries
    entries: tuple[Entry, ...]  # oldest first
    cells: tuple[Cell, ...]  # one per release from its first entry to the last release
    aliases: tuple[str, ...]
    prs: tuple[int, ...]
    contributors: tuple[str, ...]
    first: str  # release of the first entry
    standing: Standing  # its tier now and since when (the one home of that fact)
    ending: Ending | None = None  # how it ends, when an entry deprecates or removes it or its support left the matrix
    backend_standings: tuple = ()  # ((backend id, Standing), ...) for each of `backends`
    backend_cells: tuple = ()  # ((backend id, cells), ...) only when some backend's strip differs
    about: str = ""  # from the catalogue: what it is, in our words
    docs: str | None = None  # official documentation
    family: tuple = ()  # its ancestors in the catalogue (model.CatalogueFeature), root first

    @property
    def deprecated_in(self) -> str | None:
        return self.ending.deprecated_in if self.ending else None

    @property
    def removal_planned(self) -> str | None:
        return self.ending.removal_planned if self.ending else None

    @property
    def removed_in(self) -> str | None:
        return self.ending.removed_in if self.ending else None

    @property
    def removed_by(self) -> str:
        return self.ending.removed_by if self.ending else ""


@dataclass(frozen=True)
class ContributorWork:
    release: str
    entry: Entry


@dataclass(frozen=True)
class Contributor:
    name: str
    slug: str
    work: tuple[ContributorWork, ...]


@dataclass(frozen=True)
class MatrixRow:
    feature: Feature
    cells: tuple[Cell, ...]  # covering every release column (runs span several)
    tiers: tuple[str, ...] = ()  # tier ids the row shows, for the timeline's tier filter
    depth: int = 0  # on a family page: 0 for the family itself, 1 for its members, 2 for theirs


@dataclass(frozen=True)
class Family:
    """A catalogue feature with members: its page shows its own lifecycle and a row per member."""

    node: CatalogueFeature
    feature: Feature | None  # its own entries, when releases announce the family itself
    ancestors: tuple[CatalogueFeature, ...]  # root first
    children: tuple[CatalogueFeature, ...]  # direct members, catalogue order
    matrix: Matrix  # the family and every member with entries, depth first
    members: int  # every feature below it
    by_release: tuple[tuple[Release, tuple[Entry, ...]], ...]  # newest first: what each release did to it
    own_changes: tuple  # ((Release, ChangeView), ...) newest first: the changes tied to the family itself
    member_actions: tuple  # the same for its members' changes an upgrade must act on (breaking, deprecations ...)
    member_counts: tuple  # ((CatalogueFeature, depth, count), ...) members with changes, depth first
    ids: tuple[str, ...]  # itself and every feature below it
    changes_by_release: tuple[ReleaseChanges, ...] = ()  # own_changes and member_actions, a page per release
    first = property(lambda self: self.by_release[-1][0].version if self.by_release else None)  # oldest release


@dataclass(frozen=True)
class Span:
    """What a list holds in a span of releases (model.page_spans): a page of its own. A dataclass, not
    a tuple led by text: live preview then compares only the fields a page read (render.reads)."""

    first: str  # the span's first release
    last: str  # its last
    items: tuple  # what the list holds in it, in the list's order


@dataclass(frozen=True)
class FeaturesPage(Span):
    """/features/ or /features/X.Y-X.Y/ (facts.feature_pages): items are Site.features_by_area's."""

    families: tuple[Family, ...]  # those whose first release is in the span (no release: the newest page)
    count: int  # the features it lists


@dataclass(frozen=True)
class ReleaseChanges:
    """The changes one release's notes tie to a feature or a family: a row of the table on its page
    (#changes) and the page of their own, /features/<id>/X.Y/, that keeps its page from growing with
    every release (issue 36)."""

    release: Release
    own: tuple[ChangeView, ...]  # tied to the feature (the family) itself, in release-page order
    member_actions: tuple[ChangeView, ...] = ()  # a family's: its members' changes an upgrade must act on


CHANGES_ON_PAGE = 40
"""A feature or family page lists up to this many release-note changes itself; past that, it
shows a count per release and each release's list is a page of its own (/features/<id>/X.Y/),
so the page stays bounded (about 50 kB) however many releases come."""


def paged(by_release: tuple[ReleaseChanges, ...]) -> bool:
    """Whether a feature's or family's changes are listed a page per release (CHANGES_ON_PAGE)."""
    return sum(len(rc.own) + len(rc.member_actions) for rc in by_release) > CHANGES_ON_PAGE


@dataclass(frozen=True)
class Matrix:
    releases: tuple[str, ...]
    rows: tuple[MatrixRow, ...]
    first = property(lambda self: self.releases[0])  # its first release column, as a Span's `first`
    last = property(lambda self: self.releases[-1])


@dataclass(frozen=True)
class ChangeView:
    """A change as a release page shows it: with the PR anchors it owns and its backends."""

    change: Change
    anchor: str  # its own anchor on the release page, unique there and stable across re-imports
    anchors: tuple[int, ...]  # PRs whose #pr-N anchor lives on this change (first citation wins)
    backends: tuple[str, ...]
    symbols: tuple[str, ...] = ()  # torch.* names, config keys, env vars, CLI flags it names (paste filter)
    features: tuple[str, ...] = ()  # its features: hand-written, entries citing one of its PRs, then `derived`
    derived: tuple[str, ...] = ()  # of those, the one its area's default gave (enrich.area_rules), else ()
    group: str = ""  # its UPGRADE_GROUPS id, "" for changes an upgrade need not act on
    ending: str | None = None  # what it does to what it names (facts.ending_kind): "removal", "deprecation" or None
    fixed_in: str = ""  # a known issue: the patch release whose notes fix the issue it links, "" when none does
    subject: tuple[str, ...] = ()  # what code must use for it to apply, as the content confirms it: scan, paste, API
    subject_confirmed: bool = False  # the content has a `subject:` for it (else subject is (): nothing matched)
    every_backend: bool = False  # its confirmed subject is Python that names no backend: every guide keeps it
    line: str = ""  # its record line as the words a reader sees (textfilters.plain), read once


@dataclass(frozen=True)
class SymbolUse:
    """A change or a feature entry that names an API symbol: exactly one of the two is set."""

    release: str
    change: ChangeView | None  # a release-note change (its record line, note or restore names it)
    entry: Entry | None  # a feature entry (its title, summary or reason names it)


@dataclass(frozen=True)
class Symbol:
    """A `torch.*` name the content mentions, anchored #<name> on its module page."""

    name: str  # e.g. "torch.export.export"
    short: str  # the name after its page's module path ("export"), "" for the module itself
    uses: tuple[SymbolUse, ...]  # newest release first; in a release, entries then changes in notes order
    # Its own pages (for a name with `more`), newest first, each at most USES_ON_PAGE uses of whole
    # releases (enrich._name_pages): the newest at urls.symbol_name_page, each earlier one at
    # urls.symbol_name_span; a Span's items are (release, its uses) pairs, newest first, a section
    # each (issue 47).
    pages: tuple[Span, ...] = ()

    @property
    def shown(self) -> tuple[SymbolUse, ...]:
        """The uses its module page lists: the newest SYMBOL_USES_SHOWN."""
        return self.uses[:SYMBOL_USES_SHOWN]

    @property
    def more(self) -> int:
        """Uses its module page leaves to the name's own page (urls.symbol_name_page); 0 for none."""
        return max(0, len(self.uses) - SYMBOL_USES_SHOWN)


SYMBOL_USES_SHOWN = 8
"""Uses a module page lists under a name, newest first. A name named more often gets a page of its
own with every use, so a module page grows with its names, not with every release (issue 36)."""

USES_ON_PAGE = 180
"""Uses a name's own page lists at most; more go to pages of earlier releases (enrich._name_pages,
issue 47). Today's largest, torch.compile, has 160 uses (36 kB of Markdown, 58 kB of HTML): it stays
one page, with room for a release or two. The bound is held near that size, not far above: a page
kind may grow only 1.3 times over its largest page of today (tests/test_bounded_pages.py GROWTH),
which 208 uses of average size would reach, and uses differ in size. 180 uses are about 41 kB of
Markdown, far under issue 47's 1 MB."""


@dataclass(frozen=True)
class SymbolModule:
    """One page of /symbols/: a module path and the names listed on it (see generator.model.symbols)."""

    name: str  # e.g. "torch.export"; the page is /symbols/<name>/
    symbols: tuple[Symbol, ...]  # the module's own entry first, then by name
    retired: tuple[Retired, ...] = ()  # names it no longer lists, by name


@dataclass(frozen=True)
class Retired:
    """A retired name (model.RetiredSymbol) as its former page shows it."""

    name: str
    successor: str | None  # the listed name it went to
    successor_page: str | None  # that name's module page
    reason: str | None


@dataclass(frozen=True)
class UpgradeGroup:
    """One step of an upgrade guide: e.g. the default and behaviour changes, by area."""

    id: str
    title: str
    changes: tuple[ChangeView, ...]  # by area, then notes order
    entries: tuple = ()  # model.Entry: new features and promotions (the "new" group only)


@dataclass(frozen=True)
class ChangeArea:
    name: str  # the area headings joined by " › ", "" when none
    anchor: str  # unique on the release page, e.g. "improvements-distributed-c10d"
    changes: tuple[ChangeView, ...]


@dataclass(frozen=True)
class ChangeSection:
    section: str  # section id, e.g. "bc-breaking"
    count: int
    areas: tuple[ChangeArea, ...]  # in release-notes order


@dataclass(frozen=True)
class ChangeCount:
    """One row of a backend's change counts: a release's changes for the backend."""

    release: Release
    total: int
    breaking: int
    deprecations: int


@dataclass(frozen=True)
class BackendPage:
    """A backend's page for a span of releases (model.page_spans): the newest span at
    /backends/<id>/, each earlier one at /backends/<id>/X.Y-X.Y/, so no backend page grows with
    every release (issue 47)."""

    first: str  # the span's first release
    last: str  # its last
    matrix: Matrix  # features with an entry for the backend in the span, across its releases
    entries_by_release: tuple[tuple[Release, tuple[Entry, ...]], ...]  # the span's, newest first
    change_counts: tuple[ChangeCount, ...]  # the span's, newest first


@dataclass(frozen=True)
class BackendView:
    backend: Backend
    matrix: Matrix  # every release: the backend index counts its rows
    entries_by_release: tuple[tuple[Release, tuple[Entry, ...]], ...]  # newest first
    changes_by_release: tuple[tuple[Release, tuple[ChangeView, ...]], ...]  # newest first
    change_counts: tuple[ChangeCount, ...]  # newest first, one per release in changes_by_release
    change_total: int
    pages: tuple[BackendPage, ...] = ()  # its pages, newest span first; an earlier span with nothing is left out


@dataclass(frozen=True)
class ReleaseView:
    """A release page's groupings, computed once."""

    release: Release
    vocabulary: Vocabulary
    highlights: tuple[Entry, ...]
    by_tier: tuple[tuple[Tier, tuple[Entry, ...]], ...]  # in tier-registry order, non-empty groups
    untiered: tuple[Entry, ...]
    by_backend: tuple[tuple[Backend, tuple[Entry, ...]], ...]
    device_agnostic: tuple[Entry, ...]
    leaving: tuple[Entry, ...]  # deprecated or removed here
    people: tuple[str, ...]  # named contributors, sorted
    sections: tuple[ChangeSection, ...]  # the imported change list, by section and area
    upgrade: tuple[UpgradeGroup, ...]  # upgrading from the previous release, non-empty groups
    known_issues: tuple[ChangeView, ...] = ()  # the notes' tracked regressions: what fails, and the way around
    bc_split: tuple[
        tuple[str, int], ...
    ] = ()  # the notes' backwards-incompatible changes by upgrade step: (step title, count)
    patches: tuple = ()  # ((model.Patch, (ChangeView, ...)), ...): each patch release with its fixes


@dataclass(frozen=True)
class LedgerRow:
    """One deprecation on the /deprecations/ ledger: an announced feature entry or a release-note
    change record. The one set of records the ledger, the home page, the upgrade guide and feature
    pages read their deprecation and removal state from."""

    title: str  # the feature's name, or the change's record line (templates print it with `record`)
    url: str  # where it is announced: the feature page, or the change's anchor on its release page
    feature: Feature | None  # the deprecated feature (announced entries), None for a change record
    entry: Entry | None  # the deprecation entry
    change: ChangeView | None  # the deprecation change record (when no feature entry tells it)
    ending: Ending

    @property
    def deprecated_in(self) -> str:
        return self.ending.deprecated_in

    @property
    def removal_planned(self) -> str | None:
        return self.ending.removal_planned

    @property
    def removed_in(self) -> str | None:
        return self.ending.removed_in

    @property
    def removed_by(self) -> str:
        return self.ending.removed_by

    @property
    def status(self) -> str:
        return self.ending.status

    @property
    def overdue(self) -> bool:
        return self.status == "overdue"

    @property
    def announced_at(self) -> str:
        """The anchor on the deprecating release's page: the entry's, or the change's."""
        return self.change.anchor if self.change else self.entry.id


@dataclass(frozen=True)
class LedgerPage(Span):
    """/deprecations/ or /deprecations/X.Y-X.Y/ (facts.ledger_pages): items are the span's LedgerRows, in order."""

    removals: tuple[tuple[Release, ChangeView], ...]  # the span's removals of earlier deprecations


@dataclass(frozen=True)
class TierLevel:
    """One row of the table that lines the two tier vocabularies up."""

    level: int
    maturity: tuple[Tier, ...]  # names up to 2.7 (and tiers of every vocabulary)
    api_stability: tuple[Tier, ...]  # names from 2.8


@dataclass(frozen=True)
class Site:
    """The enriched site: every page's data, computed once by `enrich.enrich`."""

    content: Content
    releases: tuple[Release, ...]  # oldest first
    versions: tuple[str, ...]  # oldest first
    latest: Release
    features: tuple[Feature, ...]  # by id
    features_by_area: tuple[tuple[Area, tuple[Feature, ...]], ...]  # registry order; features by title
    feature_by_id: dict = field(hash=False)
    families: tuple[Family, ...]  # catalogue nodes with members: most-released roots first, each then its sub-families
    family_by_id: dict = field(hash=False)
    catalogue_by_id: dict = field(hash=False)
    tier_by_id: dict = field(hash=False)
    backend_by_id: dict = field(hash=False)
    area_by_id: dict = field(hash=False)
    tier_levels: tuple[TierLevel, ...]
    backend_views: tuple[BackendView, ...]
    contributors: tuple[Contributor, ...]  # every named contributor with all their work, by name
    contributor_pages: tuple[Span, ...]  # the same by span (Contributor items, work of the span only), a page each
    timeline: tuple[Matrix, ...]  # the timeline pages, newest first: /timeline/, then earlier spans (model.page_spans)
    ledger: tuple[LedgerRow, ...]
    ledger_overdue: int
    ledger_pages: tuple[LedgerPage, ...]  # the ledger and earlier_removals by page, newest first
    earlier_removals: tuple[tuple[Release, ChangeView], ...]  # removals of what was deprecated before the change lists
    defaults: tuple[tuple[Release, ChangeView], ...]  # default and behaviour changes, newest first
    defaults_pages: tuple[Span, ...]  # the same by release (ReleaseChanges items, `own`), newest first, by span
    feature_changes: dict = field(hash=False)  # feature id -> ((Release, ChangeView), ...), newest first
    feature_changes_by_release: dict = field(hash=False)  # feature id -> (ReleaseChanges, ...), newest first
    release_views: dict = field(hash=False)  # version -> ReleaseView
    tier_pages: tuple[Span, ...]  # /tiers/, then earlier spans: items ((Tier, its entries newest first), ...)
    feature_pages: tuple[FeaturesPage, ...]  # /features/, then earlier spans: each feature by its first release
    symbol_pages: dict = field(hash=False)  # module path -> SymbolModule, by path: the /symbols/ pages
    source_date_epoch: int  # the newest release date, for reproducible builds
    change_lists: tuple[str, ...]  # releases whose release-note change list is imported, oldest first
    home: Home  # the home page's glance table, what is on its way out, the picker's defaults
    coverage: Coverage | None = None  # what the Atlas covers, and the next release it does not yet
    name_endings: tuple[NameEnding, ...] = ()  # every torch.* name a record ends, by name (facts.name_endings)
    inferences: tuple[Inference, ...] = ()  # endings and subjects read from text, unconfirmed (check lists them)
    supports: tuple[SupportStop, ...] = ()  # where each Python, CUDA and ROCm version stops (enrich.supports)
    left_builds: dict = field(default_factory=dict, hash=False)  # architecture -> CUDA builds it left (supports)
    # Every page (pagelist.Page), each with its view: listed once by pipeline.build.site_model after
    # enrich; left out of equality (the pages are views of the fields above).
    pages: tuple = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Coverage:
    """How far the Atlas reaches: home, /releases/, the feed and the API say it the same way."""

    newest: str  # the newest release on the Atlas
    patch: str  # its newest patch whose fixes are listed, "" when none
    source_date: dt.date  # the newest day a source at hand is dated: a release's or a patch's
    next: NextRelease | None  # the release after `newest` by the cadence, not on the Atlas yet
    text: str = ""  # all of it in one plain sentence, as every surface words it
    as_of: dt.date | None = None  # the build's today (cadence.yaml): the day the sources were last checked
    shipped: Shipped | None = None  # what shows `next` shipped, though it is not on the Atlas
    upcoming: PlannedRelease | None = None  # the first planned release whose day is after `as_of`


# ---------------------------------------------------------------- the home page (computed by generator.enrich.home)


@dataclass(frozen=True)
class StoryCell:
    """One cell of the home page's 2.x-at-a-glance table: what a row did in one release."""

    release: str
    tier: str | None  # tier id that colours the cell (as the release's vocabulary names it); None: no tier
    label: str  # the tier's label ("Beta"), "No tier", or "" where the release announced nothing here
    abbr: str  # the label's abbreviation printed in the cell ("B"); the legend spells it out
    css: str  # class name for the colour
    title: str  # what the cell stands for, in words ("FlexAttention: Prototype; …")
    count: int = 0  # announcements behind the cell


@dataclass(frozen=True)
class StoryRow:
    label: str  # e.g. an area's name
    url: str  # page URL (generator.model.urls) the row label links to
    cells: tuple[StoryCell, ...]  # one per release the table shows (Home.glance), oldest first


@dataclass(frozen=True)
class DueItem:
    """Something deprecated, with where it stands on its way out."""

    title: str  # a feature's title, or a change's record line (templates print it with `record`)
    url: str  # page URL, with the change's anchor for a change
    deprecated_in: str
    removal: str | None  # release announced for its removal
    status: str  # "due" (removal release not out yet), "overdue" (out, not removed), "undated"
    part_removed_in: str | None = None  # the ledger row's Ending: a later change removed part of it
    ending: Ending | None = None  # the ledger row's Ending, which the home page words (model.wording)


@dataclass(frozen=True)
class Home:
    """The home page's ways in, computed once."""

    story: tuple[StoryRow, ...]
    legend: tuple[tuple[str, str, str], ...]  # (abbreviation, tier names, css) of the tiers the story shows
    due: tuple[DueItem, ...]  # due first (soonest first), then overdue, then recent undated deprecations
    upgrade_from: str  # the picker's default: the release before the latest
    upgrade_to: str  # the latest release
    glance: tuple[str, ...] = ()  # the versions the glance table shows, oldest first: the newest (home.GLANCE_RELEASES)
