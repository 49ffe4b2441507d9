"""The content model: what the YAML says, as load normalises it (what the enrich stage computes
from it is generator.model.computed).

Its classes hold the authors' fields, normalised at load time: versions are strings, dates
are `datetime.date`, a single value where a list is allowed is a one-item tuple. Everything is
frozen.

Also the one definition of each table the site's concepts hang on (SECTIONS, CHANGE_KINDS,
UPGRADE_GROUPS, CHANGE_LABELS, HAND_WRITTEN, ENDING_TIERS …): schemas, templates and the
browser scripts take them from here, and tests/test_tables.py pins every copy that must remain.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Section:
    """A section of the GitHub release notes, as the site groups changes."""

    id: str  # stored in content/changes/X.Y.yaml
    title: str  # heading on release pages
    headings: tuple[str, ...]  # the notes' heading texts for it, lower-cased, as import-notes matches them


SECTIONS = (
    Section(
        "bc-breaking",
        "Backwards-incompatible changes",
        ("backwards incompatible changes", "backward incompatible changes"),
    ),
    Section("deprecations", "Deprecations", ("deprecations",)),
    Section("new-features", "New features", ("new features",)),
    Section("improvements", "Improvements", ("improvements",)),
    Section("bug-fixes", "Bug fixes", ("bug fixes",)),
    Section("performance", "Performance", ("performance",)),
    Section("documentation", "Documentation", ("documentation",)),
    Section("developers", "Developers", ("developers",)),
    Section("security", "Security", ("security",)),
    Section("tracked-regressions", "Tracked regressions", ("tracked regressions",)),
    Section("other", "Other", ()),  # changes under a heading the importer does not know
)
"""The one table of sections: their order on pages, titles, the notes' headings, the schema's enum."""
SECTION_TITLES = {s.id: s.title for s in SECTIONS}

CHANGE_KINDS = {
    "api-removed": "API removed",
    "behaviour-change": "Behaviour change",
    "default-change": "Default change",
    "build-packaging": "Build and packaging",
    "numerics": "Numerics may differ",
    "no-action": "No action needed",
}
"""What an upgrade meets (the changes schema's `kind`; the one table its enum, the pages' labels and
the upgrade guide's labels follow: the guide reads them from its form's data-kinds). `no-action`
marks a noted change that asks nothing of a reader: release pages show it, the guide leaves it out.
It is refused in the breaking changes, and allowed in deprecations for what the notes file there
but deprecates nothing (2.4's internal dynamic-shapes fixes); `check` refuses a note saying
"nothing to change" on any other kind (load.upgrade_rules)."""
QUIET_KINDS = frozenset({"no-action"})
"""Kinds that keep a change out of the upgrade guide."""
ACTION_SECTIONS = frozenset({"bc-breaking", "deprecations"})
"""Sections whose changes ask something of a reader, as the notes mean them (the importer joins a
PR-less explanation bullet to the change above it there)."""


def version_key(version: str) -> tuple[int, ...]:
    """'2.10' -> (2, 10), so that 2.10 sorts after 2.9."""
    return tuple(int(p) for p in version.split("."))


# ---------------------------------------------------------------- registries (raw)


@dataclass(frozen=True)
class Vocabulary:
    id: str
    name: str
    first: str  # first release using it
    last: str | None  # last release using it, None while current
    description: str
    source: str


@dataclass(frozen=True)
class Tier:
    id: str
    name: str
    label: str  # short text for matrix cells
    abbr: str  # one letter for the label in the home page's glance table (tiers sharing a label share it)
    vocabulary: str  # a Vocabulary id, or "all"
    level: int  # one maturity scale across vocabularies; lower after higher = backwards
    equivalent: tuple[str, ...]
    description: str


ENDING_TIERS = ("deprecated", "removed")
"""Tier ids the site's rules name (the ledger, lifecycles, the glance table): a feature on its way
out and one gone. content/tiers.yaml must define both, in every vocabulary ("all")."""

NO_TIER = "No tier"
"""A cell's tier slot where no entry so far has stated a tier."""
NO_TIER_ABBR = "N"
"""NO_TIER in the home page's glance table: no tier's `abbr` may take it."""


def tier_at(tier: Tier | None, release: Release, tier_by_id: dict) -> Tier | None:
    """The tier as the release's vocabulary names it: Beta carried into 2.8 reads API-Unstable."""
    return tier_in(tier, release.tier_vocabulary, tier_by_id)


def tier_in(tier: Tier | None, vocabulary: str, tier_by_id: dict) -> Tier | None:
    """The tier as `vocabulary` names it (its equivalent there), itself if it has none."""
    if tier is None or tier.vocabulary in ("all", vocabulary):
        return tier
    for other in tier.equivalent:
        if tier_by_id[other].vocabulary == vocabulary:
            return tier_by_id[other]
    return tier


@dataclass(frozen=True)
class Backend:
    id: str
    name: str
    vendor: str
    description: str
    change_areas: tuple[str, ...]  # release-note area headings that belong to this backend
    also: tuple[str, ...] = ()  # other names readers use for it ("AMD GPU"), for search


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    description: str


@dataclass(frozen=True)
class CatalogueFeature:
    """A feature defined once, in content/features/*.yaml: a node of the feature tree."""

    id: str
    name: str
    area: str
    parent: str | None  # the family it belongs to; None for a root
    aliases: tuple[str, ...]  # former ids: their pages redirect here
    also: tuple[str, ...]  # other names readers use for it ("Dynamo", "PT2E"), for search
    about: str  # what it is, in our words
    docs: str | None  # official documentation, where the sources link it
    source_file: str  # content-relative path
    line: int
    support: tuple[str, str, str | None] | None = (
        None  # (field, value, source): ("python", "3.7", None), ("last", "2.2", url)
    )
    change_areas: tuple[str, ...] = ()  # release-note area headings whose changes are its by default


def area_key(heading: str) -> tuple[str, ...]:
    """A release-note area heading as comparable parts: "torch.compile › Inductor" ->
    ("torch.compile", "inductor"). Headings are compared without case, part by part."""
    return tuple(p.strip().casefold() for p in heading.split("›") if p.strip())


# ---------------------------------------------------------------- releases (raw)


@dataclass(frozen=True)
class CudaVersion:
    version: str
    cudnn: str | None
    nccl: str | None


@dataclass(frozen=True)
class CompatAlternative:
    """A value another source gives for a compatibility field: pages show both, each with its source."""

    field: str  # the Compatibility field it disagrees on: "cxx", "python", "cuda" (the stable builds), "rocm"
    value: str  # e.g. "C++20"
    context: str  # in our words: what that source's value applies to ("minimum for building from source")
    source: str  # where that value is stated


COMPAT_FIELDS = {"python": "Python", "cxx": "C++", "cuda": "CUDA", "rocm": "ROCm"}
"""The compatibility fields an alternative or a feature's `support` can name, with their column titles."""


@dataclass(frozen=True)
class Compatibility:
    python_min: str
    python_max: str
    python_experimental: tuple[str, ...]
    cxx: str
    cuda_stable: tuple[CudaVersion, ...]
    cuda_experimental: tuple[CudaVersion, ...]
    rocm: str
    source: str
    alternatives: tuple[CompatAlternative, ...] = ()  # where another source disagrees

    def lists(self, field: str, value: str) -> bool:
        """Whether this row supports `value` of `field` ("python" 3.7, "cuda" 11.6): one of `values`."""
        return value in self.values(field)

    def values(self, field: str) -> tuple[str, ...]:
        """What this row lists of `field`: each Python minor version of its range and its experimental
        builds (a free-threaded build such as 3.13t only so), its CUDA versions, its ROCm version, its C++."""
        if field == "python":
            low, high = version_key(self.python_min), version_key(self.python_max)
            minors = tuple(f"{low[0]}.{m}" for m in range(low[1], high[1] + 1)) if low[0] == high[0] else ()
            return minors + tuple(v for v in self.python_experimental if v not in minors)
        if field == "cuda":
            return tuple(c.version for c in self.cuda_stable + self.cuda_experimental)
        return (self.rocm,) if field == "rocm" else (self.cxx,)


@dataclass(frozen=True)
class Patch:
    version: str
    date: str  # YYYY-MM or YYYY-MM-DD, as documented
    summary: str | None
    source: str
    changes: tuple[Change, ...] = ()  # its fixes as its notes list them (Change.patch is its version)


@dataclass(frozen=True)
class NextRelease:
    """The release after the newest on the Atlas, as the published cadence plans it: not covered yet."""

    version: str
    planned: dt.date  # its planned release day
    source: str  # where the plan is stated


@dataclass(frozen=True)
class Entry:
    """One feature as one release announces it."""

    id: str  # stable feature id shared across releases
    release: str  # version of the release that announces it
    title: str  # the feature's name or headline as this release announces it
    tier: str | None  # tier id, None when the source states none
    change: str  # new | promoted | improved | demoted | deprecated | removed | part-removed | renamed
    backends: tuple[str, ...]
    area: str  # from the catalogue
    summary: str
    prs: tuple[int, ...]
    contributors: tuple[str, ...]
    source: str
    highlight: bool
    reason: str | None  # why the tier went backwards
    removal: str | None  # announced removal release, for deprecations
    aliases: tuple[str, ...]  # former ids of this entry: its release page keeps their anchors
    line: int  # where the entry starts in its file, for error messages
    note: str | None = None  # for a removal or deprecation: what to do, in our words


@dataclass(frozen=True)
class Change:
    """One line of a release's GitHub release notes."""

    release: str
    section: str
    area: str
    text: str
    prs: tuple[int, ...]
    note: str | None  # hand-written: what breaks and what to do, in our words
    backends_override: tuple[str, ...] | None
    kind: str | None = None  # hand-written: one of CHANGE_KINDS
    restore: str | None = None  # hand-written: what brings the old behaviour back
    removal: str | None = None  # hand-written: the release named for a deprecation's removal
    carried_out: int | None = None  # hand-written, for deprecations: the PR of a later change that carried it out
    features: tuple[str, ...] = ()  # hand-written: feature ids it belongs to
    issues: tuple[int, ...] = ()  # pytorch/pytorch issues the notes link (a tracked regression's report)
    workaround: str | None = None  # hand-written, for tracked regressions: how to avoid the problem
    symptom: tuple[str, ...] = ()  # hand-written: the exact error/warning texts it makes a reader see
    anchors: tuple[str, ...] = ()  # hand-written: its former anchors (record lines before an edit,
    # changes merged into it), kept on it as alias ids so published links still land on it
    subject: tuple[str, ...] | None = None  # hand-written: what code must use for it to apply
    # (symbols.SUBJECT); () confirms it is about nothing code uses, None leaves it to the record line
    patch: str = ""  # the patch release whose notes list it ("2.14.1"), "" for the release's own notes
    ends: tuple[str, ...] | None = None  # hand-written: the torch.* names and feature ids its record line
    # deprecates or removes ((): none), confirming or rejecting what facts infers from the text; None: not written


HAND_WRITTEN = (
    "note",
    "workaround",
    "backends",
    "kind",
    "restore",
    "removal",
    "carried_out",
    "features",
    "symptom",
    "anchors",
    "ends",
    "subject",
)
"""A change's hand-written fields as content/changes/X.Y.yaml spells them (`backends` is
Change.backends_override): what a re-import of the notes keeps, and the changes schema marks
"Hand-written"."""


@dataclass(frozen=True)
class Release:
    version: str
    date: dt.date
    previous: str
    commits: int
    contributor_count: int
    counts_source: str
    tier_vocabulary: str
    summary: str
    blog: str | None
    notes: str
    coverage: str | None  # what the change list covers and where it comes from, when not the whole notes
    compatibility: Compatibility | None
    patches: tuple[Patch, ...]
    entries: tuple[Entry, ...]
    changes: tuple[Change, ...]  # from content/changes/<version>.yaml, empty when not imported
    source_file: str  # content-relative path, named at the top of generated pages
    next: NextRelease | None = None  # the newest release only: the next one by the cadence

    @property
    def key(self) -> tuple[int, ...]:
        return version_key(self.version)


@dataclass(frozen=True)
class Content:
    """Everything loaded from a content folder, validated."""

    releases: tuple[Release, ...]  # oldest first
    tiers: tuple[Tier, ...]
    vocabularies: tuple[Vocabulary, ...]
    backends: tuple[Backend, ...]
    areas: tuple[Area, ...]
    catalogue: tuple[CatalogueFeature, ...]  # in file order: families first, then members
    retired: tuple[RetiredSymbol, ...] = ()  # symbols.yaml: names the symbol pages no longer list
    planned: tuple[PlannedRelease, ...] = ()  # cadence.yaml: releases RELEASE.md plans, oldest first
    planned_source: str = ""  # where cadence.yaml's plan is published
    gpu: GpuArchitectures | None = None  # gpu_archs.yaml: which architectures left which CUDA builds
    as_of: dt.date | None = None  # cadence.yaml: the build's today, the day the sources were last checked
    due: tuple[DueStep, ...] = ()  # cadence.yaml: steps announced for a later release


@dataclass(frozen=True)
class GpuArchitectures:
    """NVIDIA GPU architectures in the CUDA wheels (content/gpu_archs.yaml)."""

    names: tuple[str, ...]  # oldest first
    left: tuple[
        tuple[str, tuple[str, ...], tuple[str, ...], str], ...
    ]  # (release, CUDA versions, architectures, source)
    builds: tuple[
        tuple[tuple[str, ...], str, str, tuple[str, ...], str], ...
    ] = ()  # (releases, platform "x86_64"/"aarch64", CUDA version, architectures it covers, source)
    drivers: tuple[
        tuple[str, str, str, str, str], ...
    ] = ()  # (CUDA version from which on, Linux driver, Windows driver, release, source)
    mps: tuple[tuple[str, str, str], ...] = ()  # (release from which on, oldest macOS for MPS, source)


@dataclass(frozen=True)
class Shipped:
    """What shows that a planned release shipped before its release file was written."""

    month: str  # YYYY-MM
    evidence: str  # in our words: "PyPI lists torch 2.15.0"
    source: str


@dataclass(frozen=True)
class PlannedRelease:
    """A release RELEASE.md's cadence table plans (content/cadence.yaml): tentative dates."""

    version: str
    release: dt.date
    branch_cut: dt.date | None
    first_patch: str | None  # YYYY-MM
    shipped: Shipped | None = None  # known to have shipped, though not on the Atlas yet


@dataclass(frozen=True)
class DueStep:
    """A step one release announces for a later one that no `removal:` holds (content/cadence.yaml):
    2.14's "every setup.py command stops working in 2.16"."""

    version: str  # the release it is due in
    what: str  # in our words
    announced_in: str | None
    source: str


@dataclass(frozen=True)
class RetiredSymbol:
    """A name a /symbols/ page once listed (content/symbols.yaml): its anchor stays on that page,
    saying where the name went and linking on."""

    name: str  # e.g. "torch.arang"
    page: str  # the module page it was on, e.g. "torch" (/symbols/torch/#torch.arang)
    successor: str | None  # a listed name it went to, e.g. "torch.arange"
    reason: str | None  # in our words, shown to the reader
    still_named: bool = False  # the content still writes it (a typo in the notes), but no page lists it
    at: tuple[str, int, int] = field(default=("", 0, 0), compare=False)  # path, line, col of the entry


# ---------------------------------------------------------------- tables the computed model follows

UPGRADE_GROUPS = (
    ("known-issues", "Known issues"),
    ("breaking", "Breaking changes"),
    ("defaults", "Default and behaviour changes"),
    ("removals", "Removals"),
    ("deprecations", "Deprecations"),
    ("new", "New features and promotions"),
)
"""The order in which a reader works through an upgrade (the /upgrade/ guide and release pages)."""


EVERY_BACKEND_GROUPS = ("known-issues",)
"""Upgrade groups of reports of what fails, each naming whom it hits (a release has one or two):
filtered by backend like every group, but a guide filtered to one backend says how many more it
holds for other platforms (enrich.elsewhere, atlas-rules.js collect's `elsewhere`)."""


BREAKING_GROUPS = ("breaking", "removals", "defaults")
"""The steps of an upgrade that can break code: the guide's headline counts them."""


CHANGE_LABELS = {
    "new": "New",
    "promoted": "Promoted",
    "improved": "Improved",
    "demoted": "Demoted",
    "deprecated": "Deprecated",
    "removed": "Removed",
    "part-removed": "Partly removed",
    "renamed": "Renamed",
}
"""What a release did to a feature (an entry's `change`: the release schema's enum follows), as pages word it."""


DUE_STATUS = {"due": "due", "overdue": "overdue", "deprecated": "undated"}

RELEASE_SPAN = 15
"""Releases to a span, counted from the first release: an earlier page of the timeline, a backend,
the defaults, the deprecation ledger or /tiers/ holds one (page_spans), so none grows with every
release (issues 36, 47). A span's address stays as releases come."""


def page_spans(versions: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """(start, stop) indexes into versions (oldest first) of the pages a list by release is cut
    into, newest first: the newest RELEASE_SPAN releases (its first page, /timeline/), then every
    span of RELEASE_SPAN counted from the first release that holds a release the first page does
    not show (/timeline/2.0-2.14/)."""
    n = len(versions)
    newest = (max(0, n - RELEASE_SPAN), n)
    earlier = [(k, min(k + RELEASE_SPAN, n)) for k in range(0, newest[0], RELEASE_SPAN)]
    return (newest, *reversed(earlier))


"""A ledger row's status (LedgerRow.status, but "removed") as the home page's list words it."""


def applies_to(backends: tuple[str, ...], backend: str, every_backend: bool = False) -> bool:
    """Whether a change or entry concerns a reader on `backend` ("" for any): one naming no backend
    concerns every backend, and so does a change whose subject is Python code that names no
    backend (`every_backend`, ChangeView.every_backend: passing a removed argument fails on every
    backend, whatever heading the notes list it under). atlas-rules.js `concerns` is the same rule."""
    return not backend or not backends or every_backend or backend in backends


def names_backend(item: str, backend_ids) -> bool:
    """Whether a subject item names a backend: one of its dotted parts is a backend id
    (`torch.cuda.memory_reserved`, `torch.backends.mps`), or its environment variable or flag
    spells one (`TORCH_CUDNN_V8_API`). An argument such as `use_cuda` is Python on every backend."""
    ids = {b.casefold() for b in backend_ids}
    name = item.split("(", 1)[0]
    if name.startswith("--") or (name.isupper() and "_" in name):
        return not ids.isdisjoint(name.casefold().strip("-").replace("-", "_").split("_"))
    return not ids.isdisjoint(part.casefold() for part in name.split("."))
