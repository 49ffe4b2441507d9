"""Browser tests of the visual views: backend matrix, /compare/ from a pasted URL, /timeline/ filters."""

from __future__ import annotations

import pytest

from tests.browser import MATRICES_AT_THE_NEWEST_END
from tests.conftest import LATEST

pytestmark = pytest.mark.browser


def test_backend_page_shows_the_matrix(page, served):
    page.goto(served + "backends/rocm/")
    matrix = page.locator("table.atlas-matrix")
    matrix.wait_for()
    headers = matrix.locator("thead th").all_inner_texts()
    assert headers[1:3] == ["2.0", "2.1"] and headers[-1] == LATEST
    assert matrix.locator("tbody tr").count() >= 5
    # Cells name their tier in text (never a change kind such as "Improved"), and link to the release entry.
    cell = matrix.locator("tbody td.atlas-cell a").first
    assert cell.inner_text() in {
        "Prototype",
        "Beta",
        "Stable",
        "Unstable",
        "Deprecated",
        "Removed",
        "No tier",
    }
    cell.click()
    page.wait_for_url("**/releases/**#*")


def test_compare_url_lists_the_upgrade(page, served):
    page.goto(served + "compare/?from=2.4&to=2.10")
    result = page.locator("#atlas-compare-result section[data-group]")
    result.first.wait_for()
    assert page.locator("select[name=from]").input_value() == "2.4"
    assert page.locator("select[name=to]").input_value() == "2.10"
    groups = {s.get_attribute("data-group"): s for s in result.all()}
    # 2.10 deprecated TorchScript (its notes' torch.jit record tells it, as in the guide); the
    # 2.7–2.10 notes list BC-breaking changes.
    deprecated = groups["deprecations"].inner_text()
    assert "torch.jit" in deprecated
    assert groups["breaking"].locator("li").count() >= 5
    releases = set(groups["new"].locator("li").evaluate_all("els => els.map(e => e.dataset.release)"))
    assert releases <= {"2.5", "2.6", "2.7", "2.8", "2.9", "2.10"} and "2.5" in releases
    # Links go to entries on release pages.
    href = groups["deprecations"].locator("a").first.get_attribute("href")
    assert "releases/" in href and "#" in href
    assert page.evaluate("h => new URL(h, location.href).href", href).startswith(served + "releases/2.")


def test_compare_backend_filter_from_the_url(page, served):
    page.goto(served + "compare/?from=2.4&to=2.10&backend=rocm")
    page.locator("#atlas-compare-result section[data-group]").first.wait_for()
    assert page.locator("select[name=backend]").input_value() == "rocm"
    everything = page.locator("#atlas-compare-result li").count()
    page.goto(served + "compare/?from=2.4&to=2.10")
    page.locator("#atlas-compare-result section[data-group]").first.wait_for()
    assert page.locator("#atlas-compare-result li").count() > everything


def test_timeline_filters(page, served):
    page.goto(served + "timeline/")
    rows = page.locator("#timeline-matrix tbody tr")
    rows.first.wait_for()
    total = rows.count()
    assert total > 100
    page.select_option("select[name=backend]", "xpu")
    visible = page.locator("#timeline-matrix tbody tr:not([hidden])")
    xpu = visible.count()
    assert 0 < xpu < total
    for backends in visible.evaluate_all("els => els.map(e => e.dataset.backends)"):
        assert "xpu" in backends.split()
    assert "backend=xpu" in page.url
    page.select_option("select[name=tier]", "deprecated")
    assert visible.count() <= xpu
    page.select_option("select[name=backend]", "")
    page.select_option("select[name=tier]", "")
    assert visible.count() == total


@pytest.mark.parametrize("width", [1400, 390])
@pytest.mark.parametrize("backend", ["cuda", "rocm", "xpu"])
def test_backend_matrix_opens_on_the_newest_release_without_sideways_page_overflow(browser, served, width, backend):
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(served + f"backends/{backend}/")
        newest = page.locator("table.atlas-matrix thead th").last
        newest.wait_for()
        # atlas-page.js scrolls each matrix to its newest end once the page is shown: wait for that,
        # however long a busy machine takes, rather than a fixed time.
        page.wait_for_function(MATRICES_AT_THE_NEWEST_END)
        box = newest.bounding_box()
        assert newest.inner_text() == LATEST
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= width, (
            f"newest column off screen: {box}"
        )
        # No page is wider than the screen: only the matrix scrolls sideways, inside its box.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def test_home_search_box_shows_its_results_under_itself(page, served):
    """Issue #25: the home box no longer hands over to the header, whose panel covered the page."""
    page.goto(served)
    page.locator("#atlas-home-q").type("FlexAttention", delay=30)
    assert page.locator("#atlas-q").input_value() == ""
    results = "#atlas-home-results .atlas-search__results"
    page.wait_for_function(f"() => document.querySelector('{results}').dataset.query === 'FlexAttention'")
    first = page.locator("#atlas-home-results .atlas-search__hit").first
    assert first.get_attribute("href") == served + "features/flex-attention/"
    assert page.locator("#atlas-search-panel").is_hidden()


def test_home_upgrade_picker_opens_the_guide(page, served):
    page.goto(served)
    form = page.locator("form.atlas-home-upgrade")
    form.locator("select[name=from]").select_option("2.4")
    form.locator("select[name=backend]").select_option("rocm")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/upgrade/?from=2.4&to=2.14&backend=rocm")  # "to" defaults to the newest
    page.locator("#atlas-upgrade-result section[data-group]").first.wait_for()
    assert page.locator("#atlas-upgrade select[name=backend]").input_value() == "rocm"
