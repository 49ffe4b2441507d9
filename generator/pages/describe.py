"""What a link to a page says about it: each page's description and the head fields.

Pasted into a wiki or a chat, a link unfurls with the page's `description` and Open Graph
fields; this module words them from the enriched model, once per page, so no template
composes a sentence. It computes no fact: a feature's standing and ending are enrich's
(generator.enrich.facts), and its description, badge and JSON quote them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from markupsafe import Markup

from ..markup import textfilters
from ..model import urls
from ..model.computed import Feature, Site, Standing
from ..model.content import version_key
from ..util.project import SITE_NAME
from . import cite


def feature_standing(feature: Feature, backend_id: str | None = None) -> Standing:
    """A feature's standing, or its standing on one of its backends, as enrich computed it."""
    if backend_id is None:
        return feature.standing
    return dict(feature.backend_standings)[backend_id]


def _spans(site: Site, first: str, last: str) -> int:
    """How many releases lie from first to last, both included."""
    return site.versions.index(last) - site.versions.index(first) + 1


def _names(site: Site, backend_ids) -> str:
    names = [site.backend_by_id[b].name for b in backend_ids]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _plural(n: int, word: str, many: str = "") -> str:
    return f"{n:,} {word if n == 1 else many or word + 's'}"


def feature_description(site: Site, feature: Feature) -> str:
    """'FlexAttention: API-Unstable since 2.5, on CUDA and CPU; in 4 releases from 2.5 to 2.12 (8 releases).'"""
    s = feature.standing
    on = f", on {_names(site, feature.backends)}" if feature.backends else ""
    family = f" Part of {feature.family[-1].name}." if feature.family else ""
    span = _spans(site, s.first, s.last)
    return (
        f"{feature.title}: {s.words}{on}{_ending(feature)}. Announced in {_plural(s.releases, 'PyTorch release')}, "
        f"spanning {_plural(span, 'release')} from {s.first} to {s.last}.{family}"
    )


def _ending(feature: Feature) -> str:
    """'; part removed in 2.11 …' for a feature that ends but is not removed: the ending's phrases
    but the one its standing already says ('Deprecated since 2.8' is 'deprecated in 2.8')."""
    e = feature.ending
    if e is None or e.removed_in:
        return ""
    s = feature.standing
    said = [
        p
        for p in e.phrases
        if not (p.key == "deprecated_in" and s.tier and s.tier.id == "deprecated" and p.release == s.since)
    ]
    return "".join("; " + p.words for p in said)


def family_description(site: Site, family) -> str:
    """A family: its members, the releases it spans, and its own standing where it has entries."""
    node = family.node
    own = ""
    if family.feature is not None:
        own = f" {node.name} itself: {family.feature.standing.words}{_ending(family.feature)}."
    if not family.by_release:
        return f"{node.name}: a family of {_plural(family.members, 'feature')} in PyTorch 2.x.{own}"
    first, last = family.first, family.by_release[0][0].version
    return (
        f"{node.name}: a family of {_plural(family.members, 'feature')}, announced in "
        f"{_plural(len(family.by_release), 'PyTorch release')} from {first} to {last}.{own}"
    )


def release_description(site: Site, release) -> str:
    """'PyTorch 2.8, released August 6, 2025: 20 features announced (5 Stable …), 1,034 release-note changes (12 breaking).'"""
    view = site.release_views[release.version]
    tiers = ", ".join(f"{len(entries)} {tier.name}" for tier, entries in view.by_tier)
    changes = ""
    if release.changes:
        breaking = sum(1 for c in release.changes if c.section == "bc-breaking")
        changes = f", {_plural(len(release.changes), 'release-note change')} ({breaking:,} breaking)"
    return (
        f"PyTorch {release.version}, released {textfilters.release_date(release.date)}: "
        f"{_plural(len(release.entries), 'feature')} announced{f' ({tiers})' if tiers else ''}{changes}; "
        f"{release.commits:,} commits from {release.contributor_count:,} contributors."
    )


def backend_description(site: Site, view) -> str:
    """A backend: features announced for it, the releases they span, its release-note changes."""
    b = view.backend
    rows = view.matrix.rows
    releases = [r.version for r, entries in view.entries_by_release if entries]
    span = f" from {releases[-1]} to {releases[0]}" if releases else ""
    return (
        f"{b.name} ({b.vendor}) in PyTorch 2.x: {_plural(len(rows), 'feature')} announced for it{span}, "
        f"{_plural(view.change_total, 'release-note change')}."
    )


def backend_span_description(view, page) -> str:
    """A backend's page for an earlier span of releases (computed.BackendPage): its features and
    release-note changes there."""
    b = view.backend
    changes = sum(c.total for c in page.change_counts)
    return (
        f"{b.name} ({b.vendor}) in PyTorch {page.first} to {page.last}: "
        f"{_plural(len(page.matrix.rows), 'feature')} announced or changed for it, "
        f"{_plural(changes, 'release-note change')}."
    )


def timeline_span_description(matrix) -> str:
    """A timeline page of an earlier span of releases (a computed.Matrix)."""
    first, last = matrix.first, matrix.last
    return f"Every PyTorch feature releases {first} to {last} announced or changed, across those releases, filterable by backend, area and tier."


def defaults_span_description(span) -> str:
    """The default and behaviour changes of an earlier span of releases (a computed.Span)."""
    return f"Every change of a default or of behaviour in PyTorch {span.first} to {span.last}, with what to do and the way back."


def contributors_span_description(span) -> str:
    """The contributors page of an earlier span of releases (a computed.Span of Contributor items)."""
    return (
        f"{_plural(len(span.items), 'person', 'people')} the PyTorch {span.first} to {span.last} release posts "
        "credit by name, and for what."
    )


def ledger_span_description(span) -> str:
    """A page of the deprecation ledger for an earlier span of releases (facts.ledger_pages)."""
    return (
        f"PyTorch features and APIs deprecated in releases {span.first} to {span.last}: "
        f"{_plural(len(span.items), 'deprecation')}, each with the removal announced and the release that removed it."
    )


def tiers_span_description(span) -> str:
    """A page of the features an earlier span of releases announced, by tier (Site.tier_pages)."""
    counts = ", ".join(f"{len(entries)} {t.name}" for t, entries in span.items if entries)
    return f"The features PyTorch {span.first} to {span.last} announced, by the tier each was announced with: {counts}."


def features_span_description(page) -> str:
    """The features page of an earlier span of releases (a computed.FeaturesPage)."""
    families = f", and the {_plural(len(page.families), 'family', 'families')} begun there" if page.families else ""
    return (
        f"The {_plural(page.count, 'feature')} first announced in PyTorch {page.first} to {page.last}, by area, "
        f"each with its current tier and lifecycle{families}."
    )


def backend_changes_description(backend, release, count) -> str:
    """One backend's changes in one release, with their breaking and deprecation counts (its
    computed.ChangeCount, `count`)."""
    return (
        f"{_plural(count.total, 'release-note change')} for {backend.name} in PyTorch {release.version}: "
        f"{count.breaking:,} breaking, {_plural(count.deprecations, 'deprecation')}."
    )


def feature_changes_description(name: str, changes, family: bool) -> str:
    """One release's changes tied to a feature or family (computed.ReleaseChanges), counted:
    'torch.export in PyTorch 2.13: 13 release-note changes tied to it itself; 1 change of its
    members that an upgrade must act on.'"""
    parts = []
    if changes.own:
        parts.append(f"{_plural(len(changes.own), 'release-note change')} tied to it{' itself' if family else ''}")
    if changes.member_actions:
        parts.append(f"{_plural(len(changes.member_actions), 'change')} of its members that an upgrade must act on")
    return f"{name} in PyTorch {changes.release.version}: {'; '.join(parts)}."


def symbol_module_description(module) -> str:
    """A module's page of names: how many, how often named, over which releases."""
    uses = [u for s in module.symbols for u in s.uses]
    changes = sum(1 for u in uses if u.change is not None)
    releases = sorted({u.release for u in uses}, key=version_key)  # not versions.index, a scan per release
    span = f" from {releases[0]} to {releases[-1]}" if releases else ""
    return (
        f"{module.name}: {_plural(len(module.symbols), 'name')} that PyTorch 2.x release notes and feature "
        f"announcements mention{span}, in {_plural(changes, 'change')} and "
        f"{_plural(len(uses) - changes, 'feature entry', 'feature entries')}."
    )


def symbol_name_description(site: Site, symbol, span) -> str:
    """A name's page of the changes and feature entries naming it in a run of releases
    (computed.Symbol.pages), counted, over which releases; with one page, every use."""
    if len(symbol.pages) > 1:
        uses = [u for _, mine in span.items for u in mine]
        changes = sum(1 for u in uses if u.change is not None)
        return (
            f"{symbol.name} in PyTorch {span.first} to {span.last}: named in "
            f"{_plural(changes, 'release-note change')} and "
            f"{_plural(len(uses) - changes, 'feature entry', 'feature entries')} there, of "
            f"{len(symbol.uses):,} from {symbol.uses[-1].release} to {symbol.uses[0].release}."
        )
    changes = sum(1 for u in symbol.uses if u.change is not None)
    entries = len(symbol.uses) - changes
    return (
        f"{symbol.name}: named in {_plural(changes, 'release-note change')} and "
        f"{_plural(entries, 'feature entry', 'feature entries')} of PyTorch 2.x, from "
        f"{symbol.uses[-1].release} to {symbol.uses[0].release}."
    )


@dataclass(frozen=True)
class PageHead:
    """What a page's head says about it: its description and the Open Graph fields."""

    description: str  # the page's own (pages.Page.description)
    url: str  # absolute
    type: str  # og:type
    image: str  # absolute URL of the preview image
    title: str  # plain text of the link a citation makes
    cite: Markup = Markup("")  # the page's "Link or embed" block, where it has one
    menu: Markup = Markup("")  # the shared ¶ menu of a page of changes, where it has one


# A page's title in its head (and card), by template, from its view; a kind not named here is
# titled by the site's name. The pages a feature heads carry its badge in their citation block.
_TITLES = {
    "feature.md.j2": lambda c: c["feature"].title,
    "family.md.j2": lambda c: c["family"].node.name,
    "release.md.j2": lambda c: f"PyTorch {c['release'].version}",
    "backend.md.j2": lambda c: (
        f"{c['view'].backend.name} in PyTorch "
        + ("2.x" if c["span"] is c["view"].pages[0] else f"{c['span'].first}–{c['span'].last}")
    ),
    "backend_changes.md.j2": lambda c: f"{c['backend'].name} in PyTorch {c['release'].version}",
    "feature_changes.md.j2": lambda c: f"{c['name']} in PyTorch {c['changes'].release.version}",
    "symbol_module.md.j2": lambda c: f"{c['module'].name} in PyTorch 2.x",
    "symbol_name.md.j2": lambda c: (
        f"{c['symbol'].name} in PyTorch "
        + ("2.x" if c["span"] is c["symbol"].pages[0] else f"{c['span'].first}–{c['span'].last}")
    ),
}
_HEADED = {"feature.md.j2": lambda c: c["feature"], "family.md.j2": lambda c: c["family"].feature}
_NOT_CITED = frozenset({"backend_changes.md.j2", "feature_changes.md.j2", "symbol_name.md.j2"})
"""Pages made to bound another page's length: cited through the page they continue."""


def page_head(site: Site, page, base: str) -> PageHead:
    """The head fields of a page (pages.Page) on the site at `base` (ending in '/'): its
    description is the page's own (pagelist asks the functions above for it)."""
    c, template = page.context, page.template
    url = base + page.url
    title = _TITLES[template](c) if template in _TITLES else None
    menu = Markup("")
    if (
        template == "release.md.j2" and c["release"].changes
    ):  # a release whose notes are not imported has no change to cite
        menu = cite.menu(url, f"{title}: ")
    kind = "website" if page.url == urls.HOME else "article"
    block = Markup("")
    if title is not None and template not in _NOT_CITED:
        feature = _HEADED[template](c) if template in _HEADED else None
        badge = preview = backends = None
        if feature is not None:
            badge = base + urls.badge(feature.id)
            words = feature.standing.words
            preview = (urls.relative(page.url, urls.badge(feature.id)), f"Badge: {feature.title}: {words}")
            backends = _backend_badges(site, feature, page.url, base)
        block = cite.block(f"{title} ({SITE_NAME})", url, badge, preview, backends)
    return PageHead(page.description, url, kind, base + urls.CARD, title or SITE_NAME, block, menu)


def _backend_badges(site: Site, feature: Feature, page_url: str, base: str) -> tuple[cite.BackendBadge, ...]:
    """The feature's badge on each backend its record lists (the badges render.badges writes)."""
    out = []
    for backend_id in feature.backends:
        name = site.backend_by_id[backend_id].name
        words = feature_standing(feature, backend_id).words
        out.append(
            cite.BackendBadge(
                name,
                f"{feature.title} on {name} ({SITE_NAME})",
                base + urls.badge(feature.id, backend_id),
                (
                    urls.relative(page_url, urls.badge(feature.id, backend_id)),
                    f"Badge: {feature.title} on {name}: {words}",
                ),
            )
        )
    return tuple(out)


QUERY_PAGES = ("/" + urls.UPGRADE, "/" + urls.COMPARE)


def head_fields(meta: PageHead) -> str:
    """Front-matter lines for the theme override's Open Graph tags (JSON strings are YAML)."""
    # A page whose answer is in its query (/upgrade/?from=…&to=…) names no og:url: a preview
    # then keeps the address shared, where the page's own URL would show another range.
    shared = meta.url if not meta.url.endswith(QUERY_PAGES) else ""
    fields = {"og_url": shared, "og_type": meta.type, "og_image": meta.image}
    return "".join(f"{k}: {json.dumps(v)}\n" for k, v in fields.items())
