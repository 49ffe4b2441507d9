"""Screenshots as tests: one page of every kind at 1400 and 390 px, in the light and the dark
scheme. Each opens with no console error, is no wider than the screen (only a matrix scrolls
sideways, inside its box), and shows the newest release's column of its first matrix without
scrolling. The PNGs go to tests/artifacts/screens/ (git-ignored) for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser import MATRICES_AT_THE_NEWEST_END, PAGE_KINDS, TIMEOUT_MS, visit, watch_page
from tests.conftest import LATEST
from tests.helpers import SHOTS

pytestmark = pytest.mark.browser


PAGES = list(PAGE_KINDS.values())

VIEWS = [(1400, "light"), (1400, "dark"), (390, "light"), (390, "dark")]

NEWEST_COLUMN = """() => {
    const wrap = document.querySelector('.atlas-matrix-wrap');
    if (!wrap) return null;
    const th = wrap.querySelector('thead th:last-child');
    const w = wrap.getBoundingClientRect(), c = th.getBoundingClientRect();
    return {text: th.textContent.trim(), left: c.left, right: c.right, boxLeft: w.left, boxRight: w.right};
}"""


@pytest.fixture(scope="module", params=VIEWS, ids=[f"{w}-{s}" for w, s in VIEWS])
def view(browser, request):
    width, scheme = request.param
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme, service_workers="block"
    )
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield width, scheme, context
    finally:
        context.close()


@pytest.mark.parametrize("url", PAGES, ids=lambda u: "/" + u)
def test_page_as_it_opens(view, served, url):
    width, scheme, context = view
    page = context.new_page()
    try:
        watch = watch_page(page)
        response = visit(page, served + url)
        assert response is not None and response.ok, url
        page.wait_for_function(MATRICES_AT_THE_NEWEST_END)  # as atlas-page.js leaves them once shown
        name = (url.split("?")[0].strip("/").replace("/", "_") or "home") + f"-{width}-{scheme}.png"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name))

        assert watch.errors() == [], url
        overflow = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert overflow[0] <= overflow[1], f"/{url} is {overflow[0]} px wide at {overflow[1]} px"
        newest = page.evaluate(NEWEST_COLUMN)
        if newest is not None:
            assert newest["text"] == LATEST, newest
            assert newest["boxLeft"] - 1 <= newest["left"] and newest["right"] <= newest["boxRight"] + 1, (
                f"/{url}: the newest release's column is off screen: {newest}"
            )
            assert newest["right"] <= width, newest
    finally:
        page.close()
