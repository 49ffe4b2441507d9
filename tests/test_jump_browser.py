"""Browser tests of the ways through a long release page (issue #25): on a phone, the section menu
lands every heading it lists on the screen, below the sticky header and menu; on a desktop,
Material's right-hand table of contents does the same."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

RELEASE = "releases/2.12/"
"""A release with a full change list (folded by area on a phone) and every kind of section."""

HEIGHT = 844

SETTLED = "() => window.__swaps >= 1 + window.__fetches"
"""True once every copy of the page Material fetched (if any) has been swapped in."""

PAINTED = """async () => {
  const frame = () => new Promise(resolve => requestAnimationFrame(() => resolve()));
  let last = -1, still = 0;
  for (let n = 0; n < 600 && still < 30; n++) {
    await frame();
    still = scrollY === last ? still + 1 : 0;
    last = scrollY;
  }
}"""
"""Resolves once the page has stopped moving: the scroll position unchanged for 30 animation frames
(a swapped-in copy of the page moved the heading a few hundred milliseconds after the jump)."""


PLACE = """(id) => {
  const heading = document.getElementById(id);
  const header = document.querySelector(".md-header").getBoundingClientRect().bottom;
  const menu = document.querySelector("[data-atlas-jump]");
  const below = menu && menu.getClientRects().length ? Math.max(header, menu.getBoundingClientRect().bottom) : header;
  return { top: heading.getBoundingClientRect().top, below: below, bottom: innerHeight, swaps: window.__swaps };
}"""
"""Where a heading is: its top, the bottom of what covers the page's top, the viewport's bottom."""


COUNT_FETCHES = """
window.__fetches = 0;
const open = XMLHttpRequest.prototype.open;
XMLHttpRequest.prototype.open = function (method, url) {
  if (new URL(url, location.href).pathname === location.pathname) window.__fetches += 1;
  return open.apply(this, arguments);
};
"""
"""Counts, as they start, the requests for the page itself with XMLHttpRequest (as Material's
instant navigation, off in mkdocs.yml, fetched pages): a jump must fetch nothing."""


def _open(browser, served: str, width: int, idle: bool = True):
    """A fresh page at `width` px on the release page, counting its refetches and Material's swaps.
    With `idle` False the browser never reports an idle moment, so the page stays as it loads
    (atlas-page.js lays the change areas out for good only in idle moments)."""
    context = browser.new_context(viewport={"width": width, "height": HEIGHT}, service_workers="block")
    context.add_init_script(COUNT_FETCHES)
    if not idle:
        context.add_init_script("window.requestIdleCallback = function () { return 0; };")
    page = context.new_page()
    page.goto(served + RELEASE)
    page.wait_for_function("() => window.document$ !== undefined")
    # document$ replays the page it has: one swap now, one more for each page Material swaps in.
    page.evaluate("() => { window.__swaps = 0; document$.subscribe(() => { window.__swaps += 1; }); }")
    page.wait_for_function("() => window.__swaps === 1")
    return context, page


def _visible(place: dict) -> bool:
    """The heading's top is on the screen, below the sticky header and menu."""
    return place["below"] - 1 <= place["top"] <= place["bottom"] - 20


def test_section_menu_lands_every_section_on_a_phone(browser, served):
    context, page = _open(browser, served, 390)
    try:
        menu = page.locator("[data-atlas-jump]")
        links = menu.locator("li a")
        hrefs = links.evaluate_all("as => as.map(a => a.getAttribute('href'))")
        assert "#changes-bug-fixes" in hrefs and "#highlights" in hrefs and len(hrefs) >= 15
        missed = []
        for href in hrefs:
            menu.locator("summary").click()
            links.and_(page.locator(f"a[href='{href}']")).click()
            page.wait_for_function(SETTLED)
            page.evaluate(PAINTED)
            place = page.evaluate(PLACE, href[1:])
            if not _visible(place):
                missed.append((href, place))
            assert menu.get_attribute("open") is None, "the menu closes once a section is picked"
        # The page is never fetched again (a fetched copy swapped in re-folds the change lists
        # above the target after the jump, and the heading ends off the screen).
        assert missed == [], missed
        assert page.evaluate("[window.__fetches, window.__swaps]") == [0, 1]
        assert page.evaluate("document.activeElement.id") == hrefs[-1][1:], "the keyboard goes on from the heading"
    finally:
        context.close()


def test_section_menu_first_pick_of_a_change_list_section(browser, served):
    """The first pick on a freshly loaded page."""
    for href in ("#changes-bug-fixes", "#changes-documentation"):
        context, page = _open(browser, served, 390)
        try:
            page.locator("[data-atlas-jump] summary").click()
            page.locator(f"[data-atlas-jump] li a[href='{href}']").click()
            page.wait_for_function(SETTLED)
            page.evaluate(PAINTED)
            place = page.evaluate(PLACE, href[1:])
            assert _visible(place), (href, place)
            assert page.evaluate("[window.__fetches, window.__swaps]") == [0, 1]
            assert page.evaluate("location.hash") in {href, "#changes"}  # Material's tracking names the h2
        finally:
            context.close()


def test_table_of_contents_lands_every_heading_on_a_desktop(browser, served):
    context, page = _open(browser, served, 1400)
    try:
        assert page.locator("[data-atlas-jump]").is_hidden(), "Material's table of contents is shown instead"
        toc = page.locator(".md-sidebar--secondary a.md-nav__link")
        hashes = toc.evaluate_all("as => as.map(a => a.hash)")
        assert "#changes" in hashes and "#upgrading" in hashes
        missed = []
        for i, anchor in enumerate(hashes):
            toc.nth(i).click()
            # Material may fetch the page again for the first link; wait for its swap to land.
            page.wait_for_function("() => window.__swaps >= 1 + window.__fetches")
            page.wait_for_function(SETTLED)
            page.evaluate(PAINTED)
            place = page.evaluate(PLACE, anchor[1:])
            if not _visible(place):
                missed.append((anchor, place))
        assert missed == [], missed
    finally:
        context.close()


LAID_OUT = """() => {
  const height = document.documentElement.scrollHeight;  // first: brings style and layout up to date
  const areas = [...document.querySelectorAll("details.atlas-area[open]")];
  const first = d => d.querySelector("li");
  return {
    areas: areas.length,
    skipped: areas.filter(d => !first(d).checkVisibility({ contentVisibilityAuto: true })).length,
    height: height,
    last: first(areas[areas.length - 1]).id,
  };
}"""
"""The open change areas, how many of them the browser has not laid out (content-visibility), the
page's height, and the first change of the last open area."""


def test_a_long_change_list_is_laid_out_near_the_screen_only(browser, served):
    """On a desktop, the change areas far down the 2.12 page are not laid out when it loads (the
    page loads in half the time; atlas-page.js lays them out later, in idle moments, which this
    page never gets), yet the page is as tall as once every area is laid out, within 5%, so the
    scroll bar tells the truth; and a link to a change far down still lands on it."""
    context, page = _open(browser, served, 1400, idle=False)
    try:
        before = page.evaluate(LAID_OUT)
        assert before["areas"] > 100 and before["skipped"] > before["areas"] * 0.8, before
        page.add_style_tag(content="details.atlas-area[open] { content-visibility: visible !important; }")
        after = page.evaluate(LAID_OUT)
        assert after["skipped"] == 0, after
        assert abs(before["height"] - after["height"]) <= 0.05 * after["height"], (before, after)
        page.goto("about:blank")
        page.goto(f"{served}{RELEASE}#{before['last']}")
        page.wait_for_function(
            "(id) => { const r = document.getElementById(id).getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
            arg=before["last"],
        )
    finally:
        context.close()
