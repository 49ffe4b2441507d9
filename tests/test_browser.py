"""The real site in headless Chromium: local requests only, no errors, search, a tab's page.

The search query set is typed in tests/test_search_browser.py.

Fixtures (browser, served, page, watch) and helpers come from tests/browser.py.
"""

from __future__ import annotations

import pytest

from tests.browser import new_page, search, visit, watch_page

pytestmark = pytest.mark.browser

PAGES = ["", "releases/2.12/", "features/flex-attention/", "backends/cuda/"]
"""One page of each kind: home, a release, a feature, a backend."""


@pytest.fixture(scope="module")
def visits(browser, served) -> dict:
    """Each of PAGES loaded once in a fresh context, until the network is idle: url -> Watch."""
    seen = {}
    for url in PAGES:
        with new_page(browser) as page:
            watch = watch_page(page)
            response = visit(page, served + url)
            assert response is not None and response.ok, url
            seen[url] = watch
    return seen


@pytest.mark.parametrize("url", PAGES)
def test_no_request_leaves_the_machine(visits, url):
    assert visits[url].foreign_requests() == []


@pytest.mark.parametrize("url", PAGES)
def test_the_search_index_waits_for_a_search(visits, url):
    """A page that is only read downloads none of the search index."""
    assert [r for r in visits[url].requests if "/search-text/" in r or "/search-names/" in r] == []


@pytest.mark.parametrize("url", PAGES)
def test_no_console_errors(visits, url):
    assert visits[url].errors() == []


def test_a_visit_waits_for_the_pages_scripts_on_a_slow_machine(page, served):
    """`visit`, which the browser tests open pages with, returns once the scripts at the end of the
    largest page have run, though the CPU is slowed twentyfold (Chromium's throttling): then the
    parser is still reading that page long after its bytes arrived, and Playwright's "networkidle"
    alone came back before atlas-data.js had run (CI failed on that, on a busy machine)."""
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 20})
    page.set_default_timeout(60_000)
    visit(page, served + "releases/2.14/")
    assert page.evaluate("() => [typeof window.atlasData, typeof window.atlasData.breaking]") == ["object", "string"]


@pytest.mark.parametrize("key", ["/", "s"])
def test_slash_or_s_focuses_the_search_box(page, served, key):
    page.goto(served + "releases/2.9/")
    page.keyboard.press(key)
    assert page.evaluate("document.activeElement.id") == "atlas-q"
    assert page.locator("#atlas-q").input_value() == ""


def test_filters_narrow_the_results_and_live_in_the_url(page, served):
    """A shared address opens the same filtered search; changing a filter changes the address."""
    page.goto(served + "features/?q=torch.cat&q-release=2.9&q-section=Backwards-incompatible+changes")
    hits = page.locator(".atlas-search__hit")
    hits.first.wait_for()
    assert page.locator("#atlas-q").input_value() == "torch.cat"
    titles = hits.locator(".atlas-search__title").all_text_contents()
    assert titles and all(t.startswith("PyTorch 2.9 · Backwards-incompatible changes") for t in titles), titles
    assert "releases/2.9/#pr-158249" in hits.first.get_attribute("href") or "#c-" in hits.first.get_attribute("href")
    page.select_option("select[name=q-release]", "2.7")
    page.wait_for_function("() => new URL(location.href).searchParams.get('q-release') === '2.7'")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.atlas-search__title')].every(t => t.textContent.startsWith('PyTorch 2.7'))"
    )
    page.select_option("select[name=q-backend]", "CUDA")
    page.wait_for_function("() => new URL(location.href).searchParams.get('q-backend') === 'CUDA'")
    assert "q=torch.cat" in page.url


def test_a_result_opens_its_change(page, served):
    page.goto(served)
    hits = search(page, "158249")
    assert hits.first.get_attribute("href") == served + "releases/2.9/#pr-158249"
    page.keyboard.press("Enter")
    page.wait_for_url(served + "releases/2.9/#pr-158249")
    page.locator("[id='pr-158249']").wait_for(state="attached")
    assert page.locator("h1").inner_text().startswith("PyTorch 2.9")


def test_a_first_visit_fetches_nothing_that_grows_with_the_site(page, served):
    """Material's scripts fetch sitemap.xml on a first visit (for the feed's link rel=alternate):
    it is the sitemap's index, a few lines, not a line per page. Instant navigation is off
    (mkdocs.yml): a tab loads its page whole, and our scripts bind its header."""
    asked = []
    page.on("requestfinished", lambda request: asked.append((request.url, request.sizes()["responseBodySize"])))
    visit(page, served)
    page.locator(".md-tabs__link", has_text="Releases").click()
    page.wait_for_url(served + "releases/")
    page.locator("h1", has_text="Releases").wait_for()
    page.locator("[data-atlas-search-root][data-bound]").wait_for(state="attached")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("performance.getEntriesByType('navigation')[0].name") == served + "releases/"
    sitemaps = [(url, size) for url, size in asked if "sitemap" in url]
    assert {url for url, _ in sitemaps} <= {served + "sitemap.xml"}
    assert all(size < 2_000 for _, size in sitemaps), sitemaps
