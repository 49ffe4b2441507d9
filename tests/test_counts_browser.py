"""/compare/ and /upgrade/ in the browser count the same, and what the Python guide counts, for
three ranges and backends (issue 25: compare said 1 breaking change where the guide said 4)."""

from __future__ import annotations

import re

import pytest

from generator.enrich.enrich import guide
from generator.model.content import BREAKING_GROUPS
from tests.conftest import LATEST, real_model

pytestmark = pytest.mark.browser

RANGES = [("2.9", "2.12", "rocm"), ("2.5", "2.8", "cuda"), ("2.10", LATEST, "")]


def _counts(page, url: str, result: str) -> dict[str, int]:
    page.goto(url)
    page.locator(f"#{result} section[data-group]").first.wait_for()
    return {
        s.get_attribute("data-group"): s.locator("li").count()
        for s in page.locator(f"#{result} section[data-group]").all()
    }


@pytest.mark.parametrize("start,end,backend", RANGES)
def test_compare_and_upgrade_give_the_same_counts(page, served, start, end, backend):
    query = f"?from={start}&to={end}" + (f"&backend={backend}" if backend else "")
    compare = _counts(page, served + "compare/" + query, "atlas-compare-result")
    upgrade = _counts(page, served + "upgrade/" + query, "atlas-upgrade-result")
    assert compare == upgrade
    expected = {g: len(items) for g, items in guide(real_model(), start, end, backend).items()}
    assert upgrade == expected
    # The guide leads with what can break code: breaking changes, removals, default changes.
    headline = page.locator("#atlas-upgrade-result p.atlas-upgrade-headline").inner_text()
    assert int(re.match(r"\d+", headline)[0]) == sum(expected[g] for g in BREAKING_GROUPS)
    # Its steps are in the table of contents, with their counts.
    toc = page.locator('.md-nav--secondary a[href$="#upgrade-breaking"]').first
    assert toc.text_content().strip() == f"Breaking changes ({expected['breaking']})"
