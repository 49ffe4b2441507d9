"""Accessibility: axe-core finds no serious or critical WCAG 2 A/AA violation on one page of
every kind, in the light and in the dark colour scheme.

axe-core comes from npm (package.json; `make test` runs `npm ci`). The palette in mkdocs.yml
follows `prefers-color-scheme`, so a context emulating the dark scheme gets Material's slate.
"""

from __future__ import annotations

import pytest

from tests.browser import PAGE_KINDS, TIMEOUT_MS
from tests.helpers import AXE, BLOCKING

pytestmark = pytest.mark.browser


PAGES = [*PAGE_KINDS.values(), "releases/2.9/?q=torch.cat&q-release=2.9"]
"""One page of every kind, and one with the header's search open on its results and filters."""

SCHEMES = {"light": "default", "dark": "slate"}
"""prefers-color-scheme -> the Material scheme the palette in mkdocs.yml picks for it."""

RUN_AXE = """() => axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})
    .then(r => r.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
        target: v.nodes[0].target.join(' '), summary: v.nodes[0].failureSummary,
    })))"""


@pytest.fixture
def scheme_page(browser, request):
    """A fresh desktop-sized page whose browser prefers request.param ("light" or "dark")."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, service_workers="block", color_scheme=request.param
    )
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def violations(page) -> list[dict]:
    """axe-core's WCAG 2 A/AA violations on the page as loaded, one dict per rule."""
    if not AXE.exists():
        pytest.fail(f"{AXE} not found: run `npm ci` (or `make test`) first")
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE)


@pytest.mark.parametrize("scheme_page", list(SCHEMES), indirect=True, ids=list(SCHEMES))
@pytest.mark.parametrize("url", PAGES, ids=lambda u: "/" + u)
def test_no_serious_axe_violations(scheme_page, served, url, request):
    scheme = request.node.callspec.params["scheme_page"]
    page = scheme_page
    response = page.goto(served + url, wait_until="networkidle")
    assert response is not None and response.ok, url
    assert page.get_attribute("body", "data-md-color-scheme") == SCHEMES[scheme]
    if "?q=" in url:
        page.locator(".atlas-search__hit").first.wait_for()

    found = [v for v in violations(page) if v["impact"] in BLOCKING]
    report = "\n".join(
        f"  {v['id']} ({v['impact']}, {v['count']}x): {v['help']}\n    e.g. {v['target']}\n    {v['summary']}"
        for v in found
    )
    assert not found, f"/{url} in {scheme}:\n{report}"
