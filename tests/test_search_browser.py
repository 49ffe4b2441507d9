"""Search as a reader uses it: the query set in tests/data/search_queries.yaml typed into the
header's box of the real site, served under a sub-path (/atlas/), as a wiki's static host would.

Each query names the page a person wants first; the test reads the results in order. Targets
(issue 14): the wanted page first for at least 95% of the queries, and in the top three for all.
"""

from __future__ import annotations

import pytest
import yaml

from tests.browser import SEARCH_QUERIES, new_page, query_ranks, search, watch_page
from tests.conftest import SUB_PATH

pytestmark = pytest.mark.browser

QUERIES = yaml.safe_load(SEARCH_QUERIES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def atlas(served) -> str:
    """The real site, served at http://127.0.0.1:<port>/atlas/ (the session's shared build)."""
    assert served.endswith("/" + SUB_PATH), served
    return served


@pytest.fixture(scope="module")
def ranks(browser, atlas) -> dict[str, tuple[int | None, list[str]]]:
    """query -> (rank of the first wanted page, 1-based, or None; the first five results)."""
    with new_page(browser) as page:
        watch = watch_page(page)
        page.goto(atlas + "releases/2.5/")
        out = query_ranks(page, atlas, QUERIES)
        assert watch.foreign_requests() == []
        assert watch.errors() == []
    return out


def test_the_query_set_is_a_real_one():
    assert len(QUERIES) >= 50
    assert len({str(q["query"]).lower() for q in QUERIES}) == len(QUERIES), "a query is listed twice"


def test_the_wanted_page_is_first_for_95_percent_of_queries(ranks):
    misses = {q: paths for q, (rank, paths) in ranks.items() if rank != 1}
    first = len(ranks) - len(misses)
    assert first / len(ranks) >= 0.95, f"{first} of {len(ranks)} first; not first: {misses}"


def test_the_wanted_page_is_in_the_top_three_for_every_query(ranks):
    misses = {q: paths for q, (rank, paths) in ranks.items() if rank is None or rank > 3}
    assert misses == {}


def test_results_show_a_title_and_the_matching_line(browser, atlas):
    with new_page(browser) as page:
        page.goto(atlas)
        hits = search(page, "torch.cat")
        first = hits.nth(1)  # the symbol's anchor, then the changes naming it
        assert first.locator(".atlas-search__title").text_content().startswith("PyTorch 2.")
        line = first.locator(".atlas-search__line")
        assert "torch.cat" in line.text_content()
        assert line.locator("mark").count() >= 1
