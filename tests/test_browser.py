"""The real site in headless Chromium: local requests only, no errors, search, instant navigation.

Fixtures (browser, served, page, watch) and helpers come from tests/browser.py.
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import new_page, search, watch_page

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
            response = page.goto(served + url, wait_until="networkidle")
            assert response is not None and response.ok, url
            # On a long page (2.12's 631 changes) the network can idle while the theme's script
            # still starts up: give the search index its request before judging what was loaded.
            if not any(r.endswith("/search/search_index.json") for r in watch.requests):
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_event("request", lambda r: r.url.endswith("/search/search_index.json"))
                page.wait_for_load_state("networkidle")
            seen[url] = watch
    return seen


@pytest.mark.parametrize("url", PAGES)
def test_no_request_leaves_the_machine(visits, url):
    watch = visits[url]
    assert any(r.endswith("/search/search_index.json") for r in watch.requests), "the search index was not loaded"
    assert watch.foreign_requests() == []


@pytest.mark.parametrize("url", PAGES)
def test_no_console_errors(visits, url):
    assert visits[url].errors() == []


@pytest.fixture(scope="module")
def home(browser, served):
    """One page on the home page for every search: Material builds its index once per page load."""
    with new_page(browser) as page:
        page.goto(served)
        yield page


def first_result_path(items, served: str) -> str:
    href = items.first.locator("a").first.get_attribute("href")
    return href.split("?")[0].removeprefix(served)


@pytest.mark.parametrize(
    "name, path",
    [
        ("FlexAttention", "features/flex-attention/"),
        ("TorchDynamo", "features/torchdynamo/"),
        ("TensorParallel", "features/tensor-parallel/"),
        ("torch.compiler.set_stance", "features/torch-compile-set-stance/"),
    ],
)
def test_search_finds_a_feature_page_first(home, served, name, path):
    items = search(home, name)
    assert first_result_path(items, served) == path


@pytest.mark.parametrize("pr, release", [("158249", "2.9"), ("174619", "2.12")])
def test_search_finds_a_change_by_its_pr_number(home, served, pr, release):
    html = home.request.get(f"{served}releases/{release}/").text()
    assert f"pull/{pr}" in html, f"PR {pr} is not on the {release} release page any more: pick another"
    items = search(home, pr)
    hits = [
        items.nth(i).locator("a").first.get_attribute("href").split("?")[0].removeprefix(served)
        for i in range(items.count())
        if pr in items.nth(i).text_content()
    ]
    assert f"releases/{release}/" in hits


@pytest.mark.parametrize(
    "symbol, query", [("torch.cat", "+torch +cat"), ("scaled_dot_product_attention", "scaled_dot_product_attention")]
)
def test_search_finds_changes_by_api_symbol(home, served, symbol, query):
    """Dots and underscores split words (mkdocs.yml's search separator), so a dotted or
    snake_case API name finds the release-note changes that mention it. Page titles weigh
    more than text in Material's index, so these come after feature pages: all results are
    loaded (Material adds them as the list scrolls) and searched. A dotted name is typed as the
    README says (`+torch +cat`): with 4,500 changes, plain `torch.cat` ranks every page that
    says "torch" first (issue 14 replaces the engine's ranking)."""
    items = search(home, query)
    scroller = home.locator(".md-search__scrollwrap")
    for _ in range(40):
        before = items.count()
        scroller.evaluate("e => e.scrollTo(0, e.scrollHeight)")
        home.wait_for_timeout(60)
        if items.count() == before and before > 0:
            break
    last = symbol.split(".")[-1].split("_")[-1]
    hits = []
    for i in range(items.count()):
        for link in items.nth(i).locator("a").all():
            href = link.get_attribute("href") or ""
            if "/releases/2." in href and "#changes-" in href and last in (link.text_content() or ""):
                hits.append(href)
    seen = [(a.get_attribute("href"), a.text_content()) for a in home.locator(".md-search-result__item a").all()][:40]
    assert hits, f"no release-note change found for {symbol}: {seen}"


def test_instant_navigation_keeps_the_page(page, served):
    """Material's navigation.instant swaps the content in place: a marker on window survives."""
    page.goto(served)
    page.evaluate("window.__marker = 1")
    page.locator(".md-tabs__link", has_text="Releases").click()
    page.wait_for_url(served + "releases/")
    page.locator("h1", has_text="Releases").wait_for()
    assert page.evaluate("window.__marker") == 1
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
