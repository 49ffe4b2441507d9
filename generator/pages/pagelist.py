"""The page list: every page of the site, with its URL, title, description, template and view.

The one place that says which pages exist. `render` renders them, `manifest` promises their
URLs, `search` indexes their titles and descriptions; none of them asks another for the list.
A page's view (`context`) is what its template is given besides `site`; what it reads of
`site` is recorded while it renders (generator.render.reads), so live preview knows which pages an
edit touches without any page declaring it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from markupsafe import Markup

from ..model import urls
from ..model.computed import Site, paged
from ..util.project import ROOT, SITE_NAME
from ..util.session import Session, now
from . import describe, envpaste

BENCHMARK = ROOT / "generator" / "benchmark.md"


@dataclass(frozen=True, eq=False)
class Page:
    """A generated page. Templates print `title` and `description` in its front matter (the
    home page prints no title: Material would add the site name to it)."""

    url: str  # e.g. "releases/2.12/"; its source under docs/ is urls.source(url)
    template: str
    title: str
    description: str
    context: dict  # the page's view: what its template is given besides site and the helpers
    source: str  # content file(s) it comes from, named in a comment at the top


_FIXED = [
    # url, template, title, description, source
    (urls.RELEASES, "releases.md.j2", "Releases", "Every PyTorch 2.x release, newest first.", "releases/*.yaml"),
    (
        urls.FEATURES,
        "features.md.j2",
        "Features",
        "Every feature announced in a PyTorch 2.x release, with its current tier and lifecycle.",
        "releases/*.yaml",
    ),
    (
        urls.BACKENDS,
        "backends.md.j2",
        "Backends",
        "PyTorch 2.x feature timelines per backend — CUDA, ROCm, MPS, XPU, CPU, distributed and more.",
        "backends.yaml, releases/*.yaml, changes/*.yaml",
    ),
    (
        urls.TIERS,
        "tiers.md.j2",
        "Tiers",
        "What Prototype, Beta, Stable, API-Unstable, API-Stable, Deprecated and Removed mean, and which features carry each.",
        "tiers.yaml",
    ),
    (
        urls.CONTRIBUTORS,
        "contributors.md.j2",
        "Contributors",
        "People the PyTorch release posts credit by name, and for what.",
        "releases/*.yaml",
    ),
    (
        urls.COMPATIBILITY,
        "compatibility.md.j2",
        "Compatibility matrix",
        "Python, C++, CUDA and ROCm versions supported by each PyTorch 2.x release.",
        "releases/*.yaml",
    ),
    (
        urls.TIMELINE,
        "timeline.md.j2",
        "Timeline",
        "Every PyTorch 2.x feature across the releases that announced or changed it, filterable by backend, area and tier, the newest releases first.",
        "releases/*.yaml",
    ),
    (
        urls.COMPARE,
        "compare.md.j2",
        "Compare releases",
        "What upgrading between two PyTorch releases brings — breaking changes, deprecations, removals, promotions and new features.",
        "releases/*.yaml, changes/*.yaml",
    ),
    (
        urls.UPGRADE,
        "upgrade.md.j2",
        "Upgrade guide",
        "What breaks when you move between PyTorch releases, and what to change — filtered to your backend and to the code you paste.",
        "releases/*.yaml, changes/*.yaml",
    ),
    (
        urls.UPGRADE_DEFAULTS,
        "defaults.md.j2",
        "Default and behaviour changes",
        "Every change of a default or of behaviour across PyTorch 2.x releases, with what to do and the way back.",
        "changes/*.yaml",
    ),
    (
        urls.DEPRECATIONS,
        "deprecations.md.j2",
        "Deprecations",
        "Every deprecated PyTorch feature or API, when it was deprecated, when removal was announced for, and when it went.",
        "releases/*.yaml, changes/*.yaml",
    ),
    (
        urls.SEARCH,
        "search.md.j2",
        "Search",
        "Every page and release-note change that matches a query, filtered by release, backend and section, and sortable by release.",
        "releases/*.yaml, changes/*.yaml",
    ),
    (
        urls.API_PAGE,
        "api.md.j2",
        "JSON API",
        "Machine-readable release, feature and backend data, and Atom feeds.",
        "releases/*.yaml",
    ),
]


def listed(site: Site, session: Session | None = None) -> Site:
    """The site with its page list (`Site.pages`): every page, in a fixed order, each with its
    own view: the site's own pages, then symbol, release, feature and family, and backend pages.
    The pipeline calls it once per model (generator.pipeline.build.site_model); the render, the
    search index and the URL manifest all read that one list. With `session` (live preview's),
    a page of one release's changes to a feature is last time's while those changes are."""
    return replace(site, pages=tuple(page_list(site, session.derive if session is not None else now)))


def page_list(site: Site, derive=now) -> list[Page]:
    """Every page of `site`, listed anew (but what `derive` gives back of last time's)."""
    return [
        *_site_pages(site),
        *_symbol_pages(site),
        *_release_pages(site),
        *_feature_pages(site, derive),
        *_backend_pages(site),
    ]


def _site_pages(site: Site) -> Iterator[Page]:
    yield Page(
        urls.HOME,
        "home.md.j2",
        SITE_NAME,
        "What every PyTorch 2.x release changed — by release, by feature and by backend.",
        {"view": site.release_views[site.latest.version], "home": site.home},
        "releases/*.yaml, changes/*.yaml",
    )
    spanned = [(spans, _span_views(site, spans)) for spans in _SPANNED]
    newest = {spans.url: views[0] for spans, views in spanned}
    for url, template, title, description, source in _FIXED:
        # The guide's environment box reads the compatibility rows and the GPU table (envpaste.view).
        view = {"env": envpaste.view_json(site)} if url == urls.UPGRADE else newest.get(url, {})
        yield Page(url, template, title, description, view, source)
    for spans, views in spanned:  # each earlier span's page of a list cut by span of releases
        for view in views[1:]:
            part = view[spans.part]
            first, last = part.first, part.last
            title = f"{spans.title} {first}–{last}"
            yield Page(spans.url_of(first, last), spans.template, title, spans.describe(part), view, spans.source)
    yield Page(
        urls.SPEED,
        "speed.md.j2",
        "How fast is it",
        "Build time, page weight, search transfer and latency, and live-preview latency of this site, measured at 1× and 10× the real content.",
        {"report": benchmark()},
        "../generator/benchmark.md (make bench)",
    )


def _span_links(spans: list[tuple[str, str]], first_page: str, url_of) -> tuple[tuple[str, str, str], ...]:
    """(first, last, URL) of each page of a list cut by model.page_spans, newest first: the newest
    span at `first_page`, each earlier one at url_of(first, last). What each page links to."""
    return tuple((a, b, first_page if n == 0 else url_of(a, b)) for n, (a, b) in enumerate(spans))


@dataclass(frozen=True)
class _Spans:
    """A list of the site's own cut into pages by span of releases (model.page_spans): its parts,
    newest first, are the Site field `field`; the newest span is at `url` (one of _FIXED), each
    earlier one at url_of(first, last), by the same template. A page's view holds its part (as
    `part`: a computed.Span, LedgerPage or the timeline's Matrix) and `spans`, (first, last, URL)
    of every page of the list, newest first."""

    field: str
    url: str
    url_of: Callable[[str, str], str]
    template: str
    part: str
    title: str  # an earlier span's page is titled "<title> <first>–<last>"
    describe: Callable[[object], str]  # an earlier span's page description, from its part
    source: str


_SPANNED = (
    _Spans(
        "contributor_pages",
        urls.CONTRIBUTORS,
        urls.contributors_span,
        "contributors.md.j2",
        "span",
        "Contributors",
        describe.contributors_span_description,
        "releases/*.yaml",
    ),
    _Spans(
        "defaults_pages",
        urls.UPGRADE_DEFAULTS,
        urls.defaults_span,
        "defaults.md.j2",
        "span",
        "Default and behaviour changes",
        describe.defaults_span_description,
        "changes/*.yaml",
    ),
    _Spans(
        "timeline",
        urls.TIMELINE,
        urls.timeline_span,
        "timeline.md.j2",
        "matrix",
        "Timeline",
        describe.timeline_span_description,
        "releases/*.yaml",
    ),
    _Spans(
        "ledger_pages",
        urls.DEPRECATIONS,
        urls.deprecations_span,
        "deprecations.md.j2",
        "span",
        "Deprecations",
        describe.ledger_span_description,
        "releases/*.yaml, changes/*.yaml",
    ),
    _Spans(
        "tier_pages",
        urls.TIERS,
        urls.tiers_span,
        "tiers.md.j2",
        "span",
        "Tiers",
        describe.tiers_span_description,
        "tiers.yaml, releases/*.yaml",
    ),
    _Spans(
        "feature_pages",
        urls.FEATURES,
        urls.features_span,
        "features.md.j2",
        "span",
        "Features",
        describe.features_span_description,
        "releases/*.yaml",
    ),
)
"""Every list of the site's own cut by span of releases, in the order their earlier pages are listed."""


def _span_views(site: Site, spans: _Spans) -> list[dict]:
    """The view of each page of a list cut by span of releases, newest first."""
    parts = getattr(site, spans.field)
    links = _span_links([(p.first, p.last) for p in parts], spans.url, spans.url_of)
    return [{spans.part: part, "spans": links} for part in parts]


def _contributors_page_of(site: Site) -> dict[str, str]:
    """Each release's contributors page: the page of the span holding it (the newest where two do)."""
    out: dict[str, str] = {}
    links = _span_links([(p.first, p.last) for p in site.contributor_pages], urls.CONTRIBUTORS, urls.contributors_span)
    for span, (_, _, url) in zip(site.contributor_pages, links, strict=True):
        for v in site.versions[site.versions.index(span.first) : site.versions.index(span.last) + 1]:
            out.setdefault(v, url)
    return out


def _backend_spans(view) -> tuple[tuple[str, str, str], ...]:
    """A backend's pages (computed.BackendPage): the newest span at /backends/<id>/, each earlier
    one at /backends/<id>/X.Y-X.Y/."""
    b = view.backend.id
    spans = [(p.first, p.last) for p in view.pages]
    return _span_links(spans, urls.backend(b), lambda first, last: urls.backend_span(b, first, last))


def _symbol_pages(site: Site) -> Iterator[Page]:
    yield Page(
        urls.SYMBOLS,
        "symbols.md.j2",
        "API symbols",
        "Every torch.* name that a PyTorch 2.x release-note change or feature names, by module, each with the changes and features that name it.",
        {},
        "releases/*.yaml, changes/*.yaml",
    )
    for module in site.symbol_pages.values():
        yield Page(
            urls.symbol_page(module.name),
            "symbol_module.md.j2",
            module.name,
            describe.symbol_module_description(module),
            {"module": module},
            "releases/*.yaml, changes/*.yaml",
        )
        for symbol in module.symbols:
            yield from _symbol_name_pages(site, module.name, symbol)


def _symbol_name_pages(site: Site, module: str, symbol) -> Iterator[Page]:
    """A name's own pages (computed.Symbol.pages, none for a name its module page lists in full): its
    newest uses at /symbols/<module>/<name>/, each earlier page of them (at most USES_ON_PAGE uses
    of whole releases) at /symbols/<module>/<name>/X.Y-X.Y/, named by its first and last release."""
    spans = _span_links(
        [(p.first, p.last) for p in symbol.pages],
        urls.symbol_name_page(module, symbol.name),
        lambda first, last: urls.symbol_name_span(module, symbol.name, first, last),
    )
    for n, span in enumerate(symbol.pages):
        yield Page(
            spans[n][2],
            "symbol_name.md.j2",
            symbol.name if n == 0 else f"{symbol.name} {span.first}–{span.last}",
            describe.symbol_name_description(site, symbol, span),
            {"module": module, "symbol": symbol, "span": span, "spans": spans},
            "releases/*.yaml, changes/*.yaml",
        )


def _release_pages(site: Site) -> Iterator[Page]:
    people = _contributors_page_of(site)
    for release in site.releases:
        v = release.version
        yield Page(
            urls.release(v),
            "release.md.j2",
            f"PyTorch {v}",
            describe.release_description(site, release),
            {"release": release, "view": site.release_views[v], "people": people.get(v, urls.CONTRIBUTORS)},
            release.source_file + (f", changes/{v}.yaml" if release.changes else ""),
        )


def _feature_pages(site: Site, derive) -> Iterator[Page]:
    """A page per feature, but a family's feature, whose family page tells its story; then the
    family pages. Each is followed by a page per release with the changes that release ties to it,
    where they are too many for its own page (computed.paged)."""
    for feature in site.features:
        if feature.id not in site.family_by_id:
            by_release = site.feature_changes_by_release.get(feature.id, ())
            yield Page(
                urls.feature(feature.id),
                "feature.md.j2",
                feature.title,
                describe.feature_description(site, feature),
                {
                    "feature": feature,
                    "changes": site.feature_changes.get(feature.id, ()),
                    "by_release": by_release,
                    "paged": paged(by_release),
                },
                "features/*.yaml, releases/*.yaml, changes/*.yaml",
            )
            yield from _feature_changes_pages(derive, feature.id, feature.title, by_release, False)
    for family in site.families:
        yield Page(
            urls.feature(family.node.id),
            "family.md.j2",
            family.node.name,
            describe.family_description(site, family),
            {"family": family, "paged": paged(family.changes_by_release)},
            f"{family.node.source_file}, releases/*.yaml, changes/*.yaml",
        )
        yield from _feature_changes_pages(derive, family.node.id, family.node.name, family.changes_by_release, True)


def _feature_changes_pages(derive, feature_id: str, name: str, by_release, family: bool) -> Iterator[Page]:
    """/features/<id>/X.Y/: the changes one release ties to a feature or a family, for one whose
    changes are too many for its own page (computed.paged). Each page is a derivation of its own
    (most of the pages at 50x): a save lists again those whose release's changes it changed."""
    if not paged(by_release):
        return
    for changes in by_release:
        key = (feature_id, changes.release.version)
        yield derive(_feature_changes_page, feature_id, name, changes, family, key=key)


def _feature_changes_page(feature_id: str, name: str, changes, family: bool) -> Page:
    v = changes.release.version
    return Page(
        urls.feature_changes(feature_id, v),
        "feature_changes.md.j2",
        f"{name} changes in PyTorch {v}",
        describe.feature_changes_description(name, changes, family),
        {"feature_id": feature_id, "name": name, "changes": changes, "family": family},
        f"features/*.yaml, releases/*.yaml, changes/{v}.yaml",
    )


def _backend_pages(site: Site) -> Iterator[Page]:
    """A page per backend and span of releases (the newest at /backends/<id>/), and one per backend
    and release with that release's changes for it."""
    for view in site.backend_views:
        b = view.backend
        spans = _backend_spans(view)
        for n, span in enumerate(view.pages):
            yield Page(
                spans[n][2],
                "backend.md.j2",
                b.name if n == 0 else f"{b.name} {span.first}–{span.last}",
                describe.backend_description(site, view) if n == 0 else describe.backend_span_description(view, span),
                {"view": view, "span": span, "spans": spans},
                "backends.yaml, releases/*.yaml, changes/*.yaml",
            )
        for (release, views), count in zip(view.changes_by_release, view.change_counts, strict=True):
            yield Page(
                urls.backend_changes(b.id, release.version),
                "backend_changes.md.j2",
                f"{b.name} changes in PyTorch {release.version}",
                describe.backend_changes_description(b, release, count),
                {"backend": b, "release": release, "views": views},
                f"backends.yaml, changes/{release.version}.yaml",
            )


def benchmark() -> Markup:
    """The published benchmark report (our own Markdown, written by `make bench`)."""
    if BENCHMARK.exists():
        return Markup(BENCHMARK.read_text(encoding="utf-8"))
    return Markup("# How fast is it\n\nNo benchmark has been published yet: run `make bench`.\n")
