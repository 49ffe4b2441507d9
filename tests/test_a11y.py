"""Accessibility: axe-core finds no serious or critical WCAG 2 A/AA violation on one page of
every kind, in the light and in the dark colour scheme.

axe-core comes from npm (package.json; `make test` runs `npm ci`). The palette in mkdocs.yml
follows `prefers-color-scheme`, so a context emulating the dark scheme gets Material's slate.
"""

from __future__ import annotations

import pytest

from tests.browser import PAGE_KINDS, TIMEOUT_MS, visit
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
    response = visit(page, served + url)
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


TARGET_PAGES = [
    "releases/2.14/",
    "upgrade/?from=2.12&to=2.14",
    "features/flex-attention/",
    "deprecations/",
    "backends/cuda/",
]
"""Issue 46: the release, upgrade, feature, ledger and backend pages, whose PR links and ¶ sit beside each change."""

RUN_TARGET_SIZE = """() => axe.run(document, {runOnly: {type: 'rule', values: ['target-size']}})
    .then(r => r.violations.flatMap(v => v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)))"""
"""axe-core's own target-size rule (WCAG 2.2 2.5.8), with its default options."""

LAID_OUT = "() => !document.querySelector('details.atlas-area') || !!document.querySelector('article.atlas-laid-out')"
"""The page's change lists are laid out for good (atlas-page.js layOut), as a reader who waits a moment sees them."""


def _device(browser, width: int):
    phone = width < 500
    context = browser.new_context(
        viewport={"width": width, "height": 844 if phone else 1000},
        is_mobile=phone,
        has_touch=phone,
        service_workers="block",
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context


@pytest.mark.parametrize("width", [390, 1400])
@pytest.mark.parametrize("url", TARGET_PAGES, ids=lambda u: "/" + u)
def test_every_link_is_a_target_a_finger_can_hit(browser, served, url, width):
    """0 target-size failures: no PR link or ¶ is partly covered by another target (73 on
    /releases/2.14/ while the change lists stood at their guessed heights)."""
    context = _device(browser, width)
    try:
        page = context.new_page()
        visit(page, served + url)
        page.wait_for_function(LAID_OUT, timeout=120_000)  # a few idle moments per area, on a busy machine
        if not AXE.exists():
            pytest.fail(f"{AXE} not found: run `npm ci` (or `make test`) first")
        page.add_script_tag(path=str(AXE))
        failures = page.evaluate(RUN_TARGET_SIZE)
        assert failures == [], f"/{url} at {width} px: {len(failures)}, e.g. {failures[:3]}"
    finally:
        context.close()


MD_TOP = """() => { const top = document.querySelector('.md-top'), bar = document.querySelector('.atlas-jump');
  const t = top.getBoundingClientRect(), b = bar.getBoundingClientRect();
  const hit = document.elementFromPoint(t.x + t.width / 2, t.y + t.height / 2);
  return {overlap: t.top < b.bottom && b.top < t.bottom, onTop: !!hit && !!hit.closest('.md-top')}; }"""


def test_on_a_phone_back_to_top_shows_and_selects_are_a_finger_tall(browser, served):
    """Issue 46: below the sticky "Sections of this page" menu "Back to top" is seen and can be
    tapped (the menu covered it); every select on the upgrade guide and the release page is at
    least 44 px tall (27 px)."""
    context = _device(browser, 390)
    try:
        page = context.new_page()
        visit(page, served + "releases/2.14/")
        page.locator(".atlas-jump").wait_for()
        page.mouse.wheel(0, 6000)
        page.wait_for_function("() => window.scrollY > 3000")
        page.mouse.wheel(0, -300)  # Material shows "Back to top" as the reader scrolls back up
        page.wait_for_function("() => !document.querySelector('.md-top').hidden")
        assert page.evaluate(MD_TOP) == {"overlap": False, "onTop": True}
        heights = []
        for url in ("upgrade/?from=2.12&to=2.14", "releases/2.14/"):
            visit(page, served + url)
            page.locator("#atlas-q").click()  # the header's search, with its filters
            page.fill("#atlas-q", "torch.cat")
            page.locator(".atlas-search__filters select").first.wait_for()
            heights += page.locator("select").evaluate_all(
                "els => els.filter(s => s.offsetParent).map(s => s.getBoundingClientRect().height)"
            )
        assert len(heights) >= 6 and min(heights) >= 44, heights
    finally:
        context.close()
