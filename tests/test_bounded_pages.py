"""Issue 36: pages that stay light as the Atlas grows. A feature's or family's page counts its
release-note changes by release and links to a page per release (/features/<id>/X.Y/); the home
page's glance table shows the newest releases. Checked on sizes, never on time."""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict

import pytest

from bench.corpus import make_corpus
from generator.enrich import lifecycle
from generator.model import urls
from generator.model.computed import CHANGES_ON_PAGE, USES_ON_PAGE
from generator.model.content import page_spans
from generator.pipeline.build import site_model
from generator.render.render import render_all
from tests.conftest import ROOT, real_model

# The page kinds this issue bounds: their largest page must not grow with the number of releases
# (and feature pages: see below).
BOUNDED = (
    "home.md.j2",
    "feature_changes.md.j2",
    "timeline.md.j2",
    "backend.md.j2",
    "contributors.md.j2",
    "symbol_name.md.j2",
    "deprecations.md.j2",
    "tiers.md.j2",
    "features.md.j2",
)
SCALE = 3
# A page may grow a little with releases (a family's matrix has a column per release, the home page
# a link per release); one that lists every release's changes grows with the scale itself.
GROWTH = 1.3

LINK = re.compile(r'href="([^"#]*)(?:#([^"]*))?"')
MD_LINK = re.compile(r"\]\(([^)#]*)(?:#([^)]*))?\)")


def _largest_by_kind(site, files: dict) -> dict[str, tuple[int, str]]:
    largest: dict[str, tuple[int, str]] = defaultdict(lambda: (0, ""))
    for page in site.pages:
        size = len(files[urls.source(page.url)])
        largest[page.template] = max(largest[page.template], (size, page.url))
    return largest


class _Built(tuple):
    """(site, files), shown short: a failing test's report prints its arguments, and the repr of a
    whole model and its files ran this machine out of memory."""

    def __repr__(self) -> str:
        return f"<site and {len(self[1])} files>"


class _Files(dict):
    """The real site's rendered files, shown short for the same reason."""

    def __repr__(self) -> str:
        return f"<{len(self)} files>"


@pytest.fixture(scope="module")
def real_files():
    return _Files(render_all(real_model()))


@pytest.fixture(scope="module")
def grown(tmp_path_factory):
    """The real content SCALE times over (bench.corpus), and its rendered pages."""
    site = site_model(make_corpus(ROOT / "content", tmp_path_factory.mktemp("grown") / "content", SCALE))
    assert len(site.releases) == SCALE * len(real_model().releases)
    return _Built((site, render_all(site)))


def test_no_bounded_page_grows_with_the_number_of_releases(grown, real_files):
    real, big = _largest_by_kind(real_model(), real_files), _largest_by_kind(*grown)
    for kind in BOUNDED:
        assert big[kind][0] <= GROWTH * real[kind][0], (kind, real[kind], big[kind])
    # A feature or family page lists at most CHANGES_ON_PAGE changes itself, however many come.
    site, files = grown
    for page in site.pages:
        if page.template in ("feature.md.j2", "family.md.j2"):
            text = files[urls.source(page.url)].decode("utf-8")
            listed = text[text.index(f"{{ #{urls.CHANGES} }}") :] if f"{{ #{urls.CHANGES} }}" in text else ""
            assert listed.count("<li>") <= CHANGES_ON_PAGE, page.url
            assert len(text) < 200_000, page.url
    # The pages that still grow are a page per release or per backend and release: bounded too.
    assert big["release.md.j2"][0] <= GROWTH * real["release.md.j2"][0]


def _links(text: str, page_url: str) -> set[tuple[str, str]]:
    """(page URL, anchor) of every link in a rendered Markdown page, resolved against its URL."""
    out = set()
    for pattern in (LINK, MD_LINK):
        for target, anchor in pattern.findall(text):
            if "://" in target or target.startswith("mailto:"):
                continue
            path = posixpath.normpath(posixpath.join(page_url or ".", target.removesuffix("index.md") or "."))
            if not target or target.endswith("/") or target.endswith("index.md"):  # a page, not a file
                path = "" if path == "." else path + "/"
            out.add((path, anchor or ""))
    return out


def test_every_change_a_feature_page_counts_is_on_a_release_page_it_links_to(real_files):
    """Nothing is lost: from a feature's or family's page, its per-release pages list every change
    it lists (its own, and for a family its members' changes an upgrade must act on), each linked
    to its anchor on its release page."""
    site = real_model()
    owners = [(f.id, site.feature_changes.get(f.id, ())) for f in site.features if f.id not in site.family_by_id]
    owners += [(fam.node.id, fam.own_changes + fam.member_actions) for fam in site.families]
    checked, split = 0, 0
    for fid, pairs in owners:
        url = urls.feature(fid)
        page = real_files[urls.source(url)].decode("utf-8")
        per_release = {u for u, _ in _links(page, url) if u.startswith(url) and u != url and u.endswith("/")}
        reached = _links(page, url)
        if len(pairs) > CHANGES_ON_PAGE:  # a page per release, each linked from the feature's page
            assert len(per_release) == len({r.version for r, _ in pairs}), fid
            for sub in per_release:
                reached |= _links(real_files[urls.source(sub)].decode("utf-8"), sub)
            split += 1
        else:  # few enough to be listed on the page itself
            assert not per_release, fid
        wanted = {(urls.release(r.version), v.anchor) for r, v in pairs}
        assert wanted <= reached, (fid, sorted(wanted - reached)[:3])
        checked += len(wanted)
    assert checked > 5000  # the real content ties thousands of changes to features
    assert 10 < split < len(owners)  # both shapes are checked


def test_a_family_page_keeps_its_anchors_and_leads_to_its_release_pages(real_files):
    """Links to a family page's sections still land on a heading there, which leads on to the
    per-release pages holding the lists."""
    url = urls.feature("torch-export")
    page = real_files[urls.source(url)].decode("utf-8")
    for anchor in ("matrix", "releases", urls.CHANGES, urls.MEMBER_ACTIONS, "member-changes", "release-2-12"):
        assert f"{{ #{anchor} }}" in page, anchor
    section = page[page.index("{ #member-actions }") : page.index("{ #member-changes }")]
    family = real_model().family_by_id["torch-export"]
    acting = [rc for rc in family.changes_by_release if rc.member_actions]
    assert acting and {
        (urls.feature_changes("torch-export", rc.release.version), urls.MEMBER_ACTIONS) for rc in acting
    } <= _links(section, url)
    sub = real_files[urls.source(urls.feature_changes("torch-export", acting[0].release.version))].decode("utf-8")
    assert f"{{ #{urls.MEMBER_ACTIONS} }}" in sub and f"{{ #{urls.CHANGES} }}" in sub


def test_a_module_page_lists_a_names_newest_uses_and_links_to_all_of_them(real_files):
    """A symbol page grows with its names, not with every release: a name lists its newest uses
    and, when named more often, links to its own page listing every use."""
    from generator.model.computed import SYMBOL_USES_SHOWN

    module = real_model().symbol_pages["torch"]
    url = urls.symbol_page(module.name)
    page = real_files[urls.source(url)].decode("utf-8")
    longer = [s for s in module.symbols if s.more]
    assert longer  # torch.compile, torch.cond … are named more often than a module page lists
    for s in module.symbols:
        start = page.index(f'<h2 id="{s.name}"')
        items = page[start : page.index("</ul>", start)].count("<li>")
        assert items == len(s.uses) if not s.more else items == SYMBOL_USES_SHOWN + 1, s.name
    for s in longer:
        sub = urls.symbol_name_page(module.name, s.name)
        assert (sub, "") in _links(page, url)
        wanted = {
            (urls.release(u.release), u.change.anchor if u.change else urls.entry_anchor(u.entry.id)) for u in s.uses
        }
        assert wanted <= _links(real_files[urls.source(sub)].decode("utf-8"), sub), s.name


def test_every_entry_is_on_a_timeline_page_and_the_pages_link_each_other(grown):
    """The timeline is a page per span of releases: every entry of every release is a cell of one
    of them, and each page links to the others."""
    site, files = grown
    timeline = [p for p in site.pages if p.template == "timeline.md.j2"]
    assert len(timeline) == SCALE  # the real content is one span of releases
    assert timeline[0].url == urls.TIMELINE
    reached = set()
    for page in timeline:
        text = files[urls.source(page.url)].decode("utf-8")
        links = _links(text, page.url)
        assert {p.url for p in timeline if p is not page} <= {u for u, _ in links}, page.url
        reached |= links
    entries = {(urls.release(r.version), urls.entry_anchor(e.id)) for r in site.releases for e in r.entries}
    assert entries <= reached


def test_every_backend_entry_and_change_list_is_on_a_backend_page_and_the_pages_link_each_other(grown):
    """A backend's story is a page per span of releases (issue 47), the newest at /backends/<id>/:
    every entry naming the backend and every release's list of its changes is linked from one of
    them, and each page links to the others."""
    site, files = grown
    by_backend = defaultdict(list)
    for page in site.pages:
        if page.template == "backend.md.j2":
            by_backend[page.context["view"].backend.id].append(page)
    assert by_backend.keys() == {b.id for b in site.content.backends}
    for backend, mine in by_backend.items():
        assert mine[0].url == urls.backend(backend) and len(mine) == SCALE, backend
        reached = set()
        for page in mine:
            links = _links(files[urls.source(page.url)].decode("utf-8"), page.url)
            assert {p.url for p in mine if p is not page} <= {u for u, _ in links}, page.url
            reached |= links
        entries = {
            (urls.release(r.version), urls.entry_anchor(e.id))
            for r in site.releases
            for e in r.entries
            if backend in e.backends
        }
        view = mine[0].context["view"]
        changes = {(urls.backend_changes(backend, r.version), "") for r, _ in view.changes_by_release}
        assert entries and changes and entries | changes <= reached, backend
        # Each page's matrix is the timeline's cut: each row the backend's strip from the span's first
        # release on, the tier in force then carried in.
        eras = tuple((r.version, r.tier_vocabulary) for r in site.releases)
        for page in mine:
            span = page.context["span"]
            upto = eras[: site.versions.index(span.last) + 1]
            for row in span.matrix.rows:
                f = row.feature
                cut = lifecycle.strip(
                    f.entries, upto, site.content.tiers, True, lifecycle.gone_after(f), backend, span.first
                )
                assert row.cells == cut, (page.url, f.id)


def _name_pages(site) -> dict[tuple[str, str], list]:
    """(module, name) -> the Pages of a name with pages of its own, newest first."""
    by_name = defaultdict(list)
    for page in site.pages:
        if page.template == "symbol_name.md.j2":
            by_name[page.context["module"], page.context["symbol"].name].append(page)
    return by_name


RELEASE_HEADING = re.compile(r"^## (\S+) \{ #", re.M)


def _uses_by_release(text: str) -> list[tuple[str, int]]:
    """(release, uses listed) of each release section of a rendered name page, in page order."""
    heads = list(RELEASE_HEADING.finditer(text))
    ends = [h.start() for h in heads[1:]] + [len(text)]
    return [(h.group(1), text[h.end() : end].count("<li>")) for h, end in zip(heads, ends, strict=True)]


def test_every_use_of_a_name_is_on_one_of_its_pages_and_the_pages_link_each_other(grown):
    """A name's uses are cut into pages of at most USES_ON_PAGE uses of whole releases, filled from
    the oldest (issue 47): the newest page at /symbols/<module>/<name>/, each earlier one at
    /symbols/<module>/<name>/<first>-<last>/. Every use of the name, linked to its anchor on its
    release page, is on exactly one page; a page is cut only where its next release would take it
    over the bound; its opening sentence counts what it lists and the total; each page links to the
    others."""
    site, files = grown
    by_name = _name_pages(site)
    names = {(m.name, s.name): s for m in site.symbol_pages.values() for s in m.symbols if s.more}
    assert by_name.keys() == names.keys()
    assert len(by_name["torch", "torch.compile"]) > 1  # 160 uses today, SCALE times over
    order = {v: n for n, v in enumerate(site.versions)}
    for (module, name), mine in by_name.items():
        assert mine[0].url == urls.symbol_name_page(module, name), name
        symbol, reached, listed, cut = names[module, name], set(), 0, []
        for page in mine:
            text = files[urls.source(page.url)].decode("utf-8")
            links = _links(text, page.url)
            assert {p.url for p in mine if p is not page} <= {u for u, _ in links}, page.url
            held = _uses_by_release(text)
            releases = [r for r, _ in held]
            assert releases == sorted(releases, key=order.get, reverse=True), page.url  # newest first
            assert sum(n for _, n in held) <= USES_ON_PAGE, page.url
            if page is not mine[0]:
                assert page.url == urls.symbol_name_span(module, name, releases[-1], releases[0])
            to_releases = {(u, a) for u, a in links if u.startswith(urls.RELEASES)}
            assert {urls.version_of(u) for u, _ in to_releases} <= set(releases), page.url
            if len(mine) > 1:
                said = re.search(r"newest first: ([0-9,]+) of its ([0-9,]+)\.", text)
                count = sum(n for _, n in held)
                assert said and said.groups() == (f"{count:,}", f"{len(symbol.uses):,}"), page.url
            reached |= to_releases
            listed += len(to_releases)
            cut.append(held)
        # Pages hold runs of whole releases, newest page first; each earlier page was closed only
        # because the oldest release of the page after it would have taken it over the bound.
        flat = [r for held in cut for r, _ in held]
        assert flat == sorted(set(flat), key=order.get, reverse=True), name
        for newer, older in zip(cut[:-1], cut[1:], strict=True):
            assert sum(n for _, n in older) + newer[-1][1] > USES_ON_PAGE, name
        assert listed == len(reached), name  # no use on two pages
        wanted = {
            (urls.release(u.release), u.change.anchor if u.change else urls.entry_anchor(u.entry.id))
            for u in symbol.uses
        }
        assert wanted <= reached, (name, sorted(wanted - reached)[:3])


def test_a_name_has_pages_by_its_uses_not_by_its_releases(grown):
    """A name's page count grows with its uses, not with the releases that name it (issue 47): two
    neighbouring pages hold more than USES_ON_PAGE uses together (a page is closed only when the
    next release would take it over), so a name with u uses has at most 1 + 2 * ((u - 1) //
    USES_ON_PAGE) pages, and one with at most USES_ON_PAGE uses one page. A cut by span of releases
    gave every name a page per span it is named in (7,580 pages for 758 names at 10x)."""
    site, _ = grown
    by_name = _name_pages(site)
    names = {(m.name, s.name): s for m in site.symbol_pages.values() for s in m.symbols if s.more}
    for key, symbol in names.items():
        assert len(by_name[key]) <= 1 + 2 * ((len(symbol.uses) - 1) // USES_ON_PAGE), key
    uses = sum(len(s.uses) for s in names.values())
    assert sum(map(len, by_name.values())) <= len(names) + 2 * uses // USES_ON_PAGE


def _span_pages(site, files, template: str, first_url: str) -> set[tuple[str, str]]:
    """The links of the pages of one template, a page per span of releases (model.page_spans): SCALE
    of them at SCALE times the real content, the first at first_url, each linking to the others."""
    pages = [p for p in site.pages if p.template == template]
    addresses = [p.url for p in pages]
    assert len(addresses) == SCALE and addresses[0] == first_url, addresses
    reached = set()
    for page in pages:
        links = _links(files[urls.source(page.url)].decode("utf-8"), page.url)
        assert {p.url for p in pages if p is not page} <= {u for u, _ in links}, page.url
        reached |= links
    return reached


def _target(url: str) -> tuple[str, str]:
    page, _, anchor = url.partition("#")
    return page, anchor


def test_every_ledger_row_is_on_a_deprecations_page_and_the_pages_link_each_other(grown):
    """The deprecation ledger is a page per span of releases (issue 47), the newest at
    /deprecations/: every row (its deprecation and the release it was deprecated in) and every
    removal of an earlier deprecation is linked from one of them, and each page links to the others."""
    site, files = grown
    reached = _span_pages(site, files, "deprecations.md.j2", urls.DEPRECATIONS)
    rows = {_target(row.url) for row in site.ledger}
    rows |= {(urls.release(row.deprecated_in), row.announced_at) for row in site.ledger}
    removals = {(urls.release(r.version), v.anchor) for r, v in site.earlier_removals}
    missing = sorted((rows | removals) - reached)  # the assert names no part of site: its repr is the whole model
    assert len(rows) > 100 and removals and not missing, missing[:3]


def test_every_tier_entry_is_on_a_tiers_page_and_the_pages_link_each_other(grown):
    """/tiers/ lists each tier's entries of the newest span of releases, /tiers/X.Y-X.Y/ those of each
    earlier span (issue 47): every entry announced with a tier is linked from one of them, under its
    tier's heading, and each page links to the others."""
    site, files = grown
    reached = _span_pages(site, files, "tiers.md.j2", urls.TIERS)
    entries = {(urls.release(r.version), urls.entry_anchor(e.id)) for r in site.releases for e in r.entries if e.tier}
    missing = sorted(entries - reached)
    assert len(entries) > 500 and not missing, missing[:3]
    for page in (p for p in site.pages if p.template == "tiers.md.j2"):
        text = files[urls.source(page.url)].decode("utf-8")
        for tier, mine in page.context["span"].items:
            listed = text[text.index(f"{{ #{tier.id} }}") :].split("\n## ", 1)[0].count("\n- [")
            assert listed == len(mine), (page.url, tier.id)


def test_the_defaults_pages_give_each_release_a_section(grown):
    """/upgrade/defaults/ lists the changes of the newest releases and each earlier span a page of
    its own, a heading per release: no section and no page grows with every release."""
    site, files = grown
    defaults = [p for p in site.pages if p.template == "defaults.md.j2"]
    assert defaults[0].url == urls.UPGRADE_DEFAULTS and len(defaults) == len(site.defaults_pages) > 1
    for page, span in zip(defaults, site.defaults_pages, strict=True):
        text = files[urls.source(page.url)].decode("utf-8")
        for rc in span.items:
            assert f"{{ #{urls.release_anchor(rc.release.version)} }}" in text
    assert sum(len(rc.own) for span in site.defaults_pages for rc in span.items) == len(site.defaults)


def test_every_contributors_work_is_on_a_contributors_page_and_the_pages_link_each_other(grown):
    """The contributors are a page per span of releases (issue 47), the newest at /contributors/:
    every named contributor's every piece of work is linked, under their heading, from the page of
    its release's span and from no other, and each page links to the others."""
    site, files = grown
    pages = [p for p in site.pages if p.template == "contributors.md.j2"]
    assert len(pages) == SCALE and pages[0].url == urls.CONTRIBUTORS
    assert len({p.title for p in pages}) == len({p.description for p in pages}) == SCALE
    reached = set()
    for page in pages:
        text = files[urls.source(page.url)].decode("utf-8")
        assert {p.url for p in pages if p is not page} <= {u for u, _ in _links(text, page.url)}, page.url
        sections = text.split("\n## ")[1:]
        for section in sections:
            slug = section[section.index("{ #") + 3 : section.index(" }")]
            reached |= {(page.url, slug, u, a) for u, a in _links(section, page.url)}
    page_of = {}  # release -> the address of its span's page
    for n, (start, stop) in enumerate(page_spans(site.versions)):
        first, last = site.versions[start], site.versions[stop - 1]
        page_of |= dict.fromkeys(site.versions[start:stop], urls.contributors_span(first, last) if n else pages[0].url)
    wanted = {
        (page_of[w.release], c.slug, urls.release(w.release), urls.entry_anchor(w.entry.id))
        for c in site.contributors
        for w in c.work
    }
    assert len(wanted) > SCALE * 10 and wanted == reached, (sorted(wanted - reached)[:3], sorted(reached - wanted)[:3])
    # A release page's "all contributors" link leads to the page that lists its named contributors.
    for release in site.releases:
        if site.release_views[release.version].people:
            text = files[urls.source(urls.release(release.version))].decode("utf-8")
            assert (page_of[release.version], "") in _links(text, urls.release(release.version)), release.version


def _span_page_of(site, first_url: str, url_of) -> dict[str, str]:
    """Each release's page of a list cut by span of releases: first_url for the newest span, url_of(first,
    last) for an earlier one (at SCALE times the real content the spans do not overlap)."""
    page_of = {}
    for n, (start, stop) in enumerate(page_spans(site.versions)):
        address = url_of(site.versions[start], site.versions[stop - 1]) if n else first_url
        page_of |= dict.fromkeys(site.versions[start:stop], address)
    return page_of


def test_every_feature_and_family_is_on_the_features_page_of_its_span_and_the_pages_link_each_other(grown):
    """/features/ lists the features first announced in the newest span of releases and the families
    whose first release is in it, /features/X.Y-X.Y/ those of each earlier span (issue 47): every
    feature is linked under its area's heading, and every family under #families, from the page of its
    span and from no other; each page says how many of the site's features it lists, and links the others."""
    site, files = grown  # checked here, not in _span_pages: a failing helper's report prints its `site` in full
    pages = [p for p in site.pages if p.template == "features.md.j2"]
    addresses, titles = [p.url for p in pages], {p.title for p in pages}
    assert len(addresses) == SCALE and addresses[0] == urls.FEATURES, addresses
    assert len(titles) == len({p.description for p in pages}) == SCALE, titles
    page_of = _span_page_of(site, urls.FEATURES, urls.features_span)
    wanted = {(page_of[f.first], f.area, urls.feature(f.id)) for f in site.features}
    wanted |= {
        (
            page_of[fam.by_release[-1][0].version if fam.by_release else site.versions[-1]],
            "families",
            urls.feature(fam.node.id),
        )
        for fam in site.families
    }
    listed = set()
    for page in pages:
        text = files[urls.source(page.url)].decode("utf-8")
        others = {p.url for p in pages if p is not page}
        assert others <= {u for u, _ in _links(text, page.url)}, page.url
        mine = set()
        for section in text.split("\n## ")[1:]:
            anchor = section[section.index("{ #") + 3 : section.index(" }")]
            mine |= {(page.url, anchor, u) for u, _ in _links(section, page.url) if u != page.url}
        features = sum(1 for _, anchor, _ in mine if anchor != "families")
        said = f"Of the {len(site.features):,} features announced across {len(site.releases):,} releases, "
        assert f"{said}this page lists the {features:,} first announced in releases " in text, page.url
        listed |= mine
    missing, extra = sorted(wanted - listed), sorted(listed - wanted)
    assert len(wanted) > SCALE * 100 and not missing and not extra, (missing[:3], extra[:3])
