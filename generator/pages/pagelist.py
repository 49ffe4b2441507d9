"""The page list: every page of the site, with its URL, title, description, template and view.

The one place that says which pages exist. `render` renders them, `manifest` promises their
URLs, `search` indexes their titles and descriptions; none of them asks another for the list.
A page's view (`context`) is what its template is given besides `site`; what it reads of
`site` is recorded while it renders (generator.render.reads), so live preview knows which pages an
edit touches without any page declaring it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from markupsafe import Markup

from ..model import urls
from ..model.computed import Site, paged
from ..util.project import ROOT, SITE_NAME
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


def listed(site: Site) -> Site:
    """The site with its page list (`Site.pages`): every page, in a fixed order, each with its
    own view: the site's own pages, then symbol, release, feature and family, and backend pages.
    The pipeline calls it once per model (generator.pipeline.build.site_model); the render, the
    search index and the URL manifest all read that one list."""
    return replace(site, pages=tuple(page_list(site)))


def page_list(site: Site) -> list[Page]:
    """Every page of `site`, listed anew."""
    return [
        *_site_pages(site),
        *_symbol_pages(site),
        *_release_pages(site),
        *_feature_pages(site),
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
    for url, template, title, description, source in _FIXED:
        # The guide's environment box reads the compatibility rows and the GPU table (envpaste.view).
        view = {"env": envpaste.view_json(site)} if url == urls.UPGRADE else {}
        if url == urls.TIMELINE:
            view = {"matrix": site.timeline[0], "spans": _timeline_spans(site)}
        if url == urls.UPGRADE_DEFAULTS:
            view = {"span": site.defaults_pages[0], "spans": _defaults_spans(site)}
        if url == urls.CONTRIBUTORS:
            view = {"span": site.contributor_pages[0], "spans": _contributor_spans(site)}
        if url == urls.DEPRECATIONS:
            view = _ledger_views(site)[0]
        if url == urls.TIERS:
            view = _tier_views(site)[0]
        yield Page(url, template, title, description, view, source)
    yield from _contributor_span_pages(site)
    for span in site.defaults_pages[1:]:
        first, last = span.first, span.last
        yield Page(
            urls.defaults_span(first, last),
            "defaults.md.j2",
            f"Default and behaviour changes {first}–{last}",
            f"Every change of a default or of behaviour in PyTorch {first} to {last}, with what to do and the way back.",
            {"span": span, "spans": _defaults_spans(site)},
            "changes/*.yaml",
        )
    for matrix in site.timeline[1:]:
        first, last = matrix.releases[0], matrix.releases[-1]
        yield Page(
            urls.timeline_span(first, last),
            "timeline.md.j2",
            f"Timeline {first}–{last}",
            f"Every PyTorch feature releases {first} to {last} announced or changed, across those releases, filterable by backend, area and tier.",
            {"matrix": matrix, "spans": _timeline_spans(site)},
            "releases/*.yaml",
        )
    yield from _ledger_and_tier_pages(site)
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


def _timeline_spans(site: Site) -> tuple[tuple[str, str, str], ...]:
    spans = [(m.releases[0], m.releases[-1]) for m in site.timeline]
    return _span_links(spans, urls.TIMELINE, urls.timeline_span)


def _defaults_spans(site: Site) -> tuple[tuple[str, str, str], ...]:
    spans = [(s.first, s.last) for s in site.defaults_pages]
    return _span_links(spans, urls.UPGRADE_DEFAULTS, urls.defaults_span)


def _contributor_spans(site: Site) -> tuple[tuple[str, str, str], ...]:
    spans = [(s.first, s.last) for s in site.contributor_pages]
    return _span_links(spans, urls.CONTRIBUTORS, urls.contributors_span)


def _contributor_span_pages(site: Site) -> Iterator[Page]:
    """/contributors/X.Y-X.Y/: the named contributors of each earlier span of releases."""
    spans = _contributor_spans(site)
    for span, (first, last, url) in zip(site.contributor_pages[1:], spans[1:], strict=True):
        yield Page(
            url,
            "contributors.md.j2",
            f"Contributors {first}–{last}",
            describe.contributors_span_description(span),
            {"span": span, "spans": spans},
            "releases/*.yaml",
        )


def _contributors_page_of(site: Site) -> dict[str, str]:
    """Each release's contributors page: the page of the span holding it (the newest where two do)."""
    out: dict[str, str] = {}
    for span, (_, _, url) in zip(site.contributor_pages, _contributor_spans(site), strict=True):
        for v in site.versions[site.versions.index(span.first) : site.versions.index(span.last) + 1]:
            out.setdefault(v, url)
    return out


def _backend_spans(view) -> tuple[tuple[str, str, str], ...]:
    """A backend's pages (computed.BackendPage): the newest span at /backends/<id>/, each earlier
    one at /backends/<id>/X.Y-X.Y/."""
    b = view.backend.id
    spans = [(p.first, p.last) for p in view.pages]
    return _span_links(spans, urls.backend(b), lambda first, last: urls.backend_span(b, first, last))


def _ledger_views(site: Site) -> list[dict]:
    """The view of each page of the deprecation ledger (facts.ledger_pages), newest first."""
    spans = _span_links([(s.first, s.last) for s in site.ledger_pages], urls.DEPRECATIONS, urls.deprecations_span)
    return [{"span": span, "spans": spans} for span in site.ledger_pages]


def _tier_views(site: Site) -> list[dict]:
    """The view of /tiers/ and of each page of an earlier span's entries by tier (Site.tier_pages)."""
    spans = _span_links([(s.first, s.last) for s in site.tier_pages], urls.TIERS, urls.tiers_span)
    return [{"span": span, "spans": spans} for span in site.tier_pages]


def _ledger_and_tier_pages(site: Site) -> Iterator[Page]:
    """The earlier spans' pages of the deprecation ledger and of /tiers/ (the newest are in _FIXED)."""
    for view in _ledger_views(site)[1:]:
        first, last = view["span"].first, view["span"].last
        yield Page(
            urls.deprecations_span(first, last),
            "deprecations.md.j2",
            f"Deprecations {first}–{last}",
            describe.ledger_span_description(view["span"]),
            view,
            "releases/*.yaml, changes/*.yaml",
        )
    for view in _tier_views(site)[1:]:
        first, last = view["span"].first, view["span"].last
        yield Page(
            urls.tiers_span(first, last),
            "tiers.md.j2",
            f"Tiers {first}–{last}",
            describe.tiers_span_description(view["span"]),
            view,
            "tiers.yaml, releases/*.yaml",
        )


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
            describe.symbol_module_description(site, module),
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


def _feature_pages(site: Site) -> Iterator[Page]:
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
            yield from _feature_changes_pages(site, feature.id, feature.title, by_release, False)
    for family in site.families:
        yield Page(
            urls.feature(family.node.id),
            "family.md.j2",
            family.node.name,
            describe.family_description(site, family),
            {"family": family, "paged": paged(family.changes_by_release)},
            f"{family.node.source_file}, releases/*.yaml, changes/*.yaml",
        )
        yield from _feature_changes_pages(site, family.node.id, family.node.name, family.changes_by_release, True)


def _feature_changes_pages(site: Site, feature_id: str, name: str, by_release, family: bool) -> Iterator[Page]:
    """/features/<id>/X.Y/: the changes one release ties to a feature or a family, for one whose
    changes are too many for its own page (computed.paged)."""
    if not paged(by_release):
        return
    for changes in by_release:
        v = changes.release.version
        yield Page(
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
        for release, views in view.changes_by_release:
            yield Page(
                urls.backend_changes(b.id, release.version),
                "backend_changes.md.j2",
                f"{b.name} changes in PyTorch {release.version}",
                describe.backend_changes_description(site, view, release),
                {"backend": b, "release": release, "views": views},
                f"backends.yaml, changes/{release.version}.yaml",
            )


def benchmark() -> Markup:
    """The published benchmark report (our own Markdown, written by `make bench`)."""
    if BENCHMARK.exists():
        return Markup(BENCHMARK.read_text(encoding="utf-8"))
    return Markup("# How fast is it\n\nNo benchmark has been published yet: run `make bench`.\n")
