"""The "Link or embed" block and a change's ¶ menu in Chromium: every snippet kind copies, by
keyboard, exactly the text Python's table (generator.pages.cite) makes for it."""

from __future__ import annotations

import pytest

from generator.model import urls
from generator.pages import cite
from generator.util.project import SITE_NAME
from tests.browser import TIMEOUT_MS, visit, watch_page
from tests.conftest import real_model
from tests.helpers import AXE, BLOCKING, SHOTS

pytestmark = pytest.mark.browser

OPEN = "e => { for (let d = e.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
"""Unfold the sections and areas around a change."""
OWN_LINK = ":scope > p:last-of-type > a:last-child"
"""Within a change: its ¶, the last link of its PR line (its last paragraph), to its own anchor
(cite.js PILCROW)."""
PILCROW = ".atlas-changes li[id] > p:last-of-type > a:last-child"


@pytest.fixture
def clip_page(browser, served):
    """A page whose context may read and write the clipboard (headless Chromium asks otherwise)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.rstrip("/"))
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


def copy_by_keyboard(page, button) -> str:
    page.evaluate("navigator.clipboard.writeText('')")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("b => b.textContent === 'Copied'", arg=button.element_handle())
    return page.evaluate("navigator.clipboard.readText()")


def test_each_snippet_of_a_feature_page_copies_its_text(clip_page, served):
    page = clip_page
    watch = watch_page(page)
    site = real_model()
    feature = site.feature_by_id["flex-attention"]
    page.goto(served + urls.feature(feature.id))
    page.locator("details.atlas-cite > summary").focus()
    page.keyboard.press("Enter")  # the block opens by keyboard
    expected = cite.snippets(
        f"{feature.title} ({SITE_NAME})", served + urls.feature(feature.id), served + urls.badge(feature.id)
    )
    kinds = {s.id for s in expected}
    assert {"markdown", "rst", "confluence", "mediawiki", "url", "badge-markdown"} <= kinds
    for snippet in expected:
        pre = page.locator(f'details.atlas-cite pre[data-cite="{snippet.id}"]')
        assert pre.text_content() == snippet.text  # selectable as it is, without a button
        button = page.locator(f'details.atlas-cite pre[data-cite="{snippet.id}"] + button.atlas-cite-copy')
        assert button.get_attribute("aria-label") == f"Copy {snippet.label}"
        assert copy_by_keyboard(page, button) == snippet.text, snippet.id
    assert page.locator("details.atlas-cite .atlas-cite-status").text_content() == f"{expected[-1].label} copied."
    assert page.locator("details.atlas-cite > .atlas-cite-badge img").evaluate("i => i.naturalWidth > 0")
    # The badge on one backend of its record: its own closed block, every format copying.
    backend = page.locator("details.atlas-cite-backend", has_text="Badge on CUDA")
    backend.locator(":scope > summary").click()
    assert backend.locator(".atlas-cite-badge img").evaluate("i => i.naturalWidth > 0")
    for snippet in cite.backend_snippets(served + urls.feature(feature.id), _cuda_badge(site, feature, served)):
        button = backend.locator(f'pre[data-cite="{snippet.id}"] + button.atlas-cite-copy')
        assert button.get_attribute("aria-label") == f"Copy {snippet.label}"
        assert copy_by_keyboard(page, button) == snippet.text, snippet.id
    assert watch.errors() == []


def _cuda_badge(site, feature, base: str) -> cite.BackendBadge:
    from generator.pages.describe import _backend_badges

    return next(b for b in _backend_badges(site, feature, urls.feature(feature.id), base) if b.name == "CUDA")


def _cut(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        cut = text[:limit]
        text = (cut.rsplit(" ", 1)[0] if " " in cut else cut) + " …"
    return text


def copies_each_kind(page, served: str, version: str, change) -> None:
    """Each kind in an open ¶ menu copies what generator.pages.cite makes of the change's title and URL."""
    menu = change.locator("#atlas-cite-menu")
    url = served + urls.at(urls.release(version), change.get_attribute("id"))
    title = f"PyTorch {version}: {_cut(change.locator('p').first.text_content())}"
    for f in cite.FORMATS:
        button = menu.locator(f'pre[data-cite="{f.id}"] + button.atlas-cite-copy')
        assert copy_by_keyboard(page, button) == cite.fill(f.link, f.escapes, title, url), (f.id, title)


def test_a_change_menu_opens_from_its_pilcrow_and_copies_each_kind(clip_page, served):
    page = clip_page
    watch = watch_page(page)
    version = real_model().latest.version
    visit(page, served + urls.release(version))
    changes = page.locator(".atlas-changes li")
    change = changes.nth(3)
    anchor = change.get_attribute("id")
    change.evaluate(OPEN)  # its section and area are folded
    pilcrow = change.locator(OWN_LINK)
    # Its tooltip comes from cite.js, once for the page (the markup carries none per change).
    page.wait_for_function("s => document.querySelector(s).title === 'Link to this change'", arg=PILCROW)
    pilcrow.focus()
    page.keyboard.press("Enter")
    menu = page.locator("#atlas-cite-menu")
    state = page.evaluate(
        "(() => { const m = document.getElementById('atlas-cite-menu');"
        " return [m.hidden, m.parentElement.id, document.activeElement.className]; })()"
    )
    assert state == [False, anchor, "atlas-cite-copy focus-visible"], (
        state
    )  # beside its change, focus on its first button
    page.wait_for_timeout(500)  # a navigation, had the click gone through, would have loaded by now
    assert page.evaluate("document.getElementById('atlas-cite-menu').parentElement.id") == anchor
    assert menu.is_visible() and pilcrow.get_attribute("aria-expanded") == "true"
    copies_each_kind(page, served, version, change)
    page.keyboard.press("Escape")
    assert menu.is_hidden()
    assert page.evaluate(f"document.activeElement.matches({PILCROW!r})")
    # A record with characters each format must escape ([ ] < > & |): the browser escapes as Python does.
    special = page.evaluate(
        "Array.from(document.querySelectorAll('.atlas-changes li'))"
        ".findIndex(li => /[\\[\\]<>&|]/.test((li.querySelector('p') || li).textContent.slice(0, 100)))"
    )
    assert special >= 0
    tricky = changes.nth(special)
    tricky.evaluate(OPEN)
    tricky.locator(OWN_LINK).click()
    copies_each_kind(page, served, version, tricky)
    other = changes.nth(10)
    other.evaluate(OPEN)
    other.locator(OWN_LINK).click()
    assert other.locator("#atlas-cite-menu").count() == 1 and page.locator("#atlas-cite-menu").count() == 1
    text = other.locator('pre[data-cite="url"]').text_content()
    assert text == served + urls.at(urls.release(version), other.get_attribute("id"))
    assert watch.errors() == []


VIEWS = [(1400, "light"), (1400, "dark"), (390, "light"), (390, "dark")]


def violations_in(page, selector: str) -> list:
    """axe-core's serious or critical WCAG 2 A/AA violations inside one element (the whole page's
    are tests/test_a11y.py's; at 390 px Material's own header has one that is not ours)."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """sel => axe.run(document.querySelector(sel), {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})
        .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, target: v.nodes[0].target.join(' '),
                                           summary: v.nodes[0].failureSummary})))""",
        selector,
    )
    return [v for v in found if v["impact"] in BLOCKING]


@pytest.mark.parametrize(("width", "scheme"), VIEWS, ids=[f"{w}-{s}" for w, s in VIEWS])
def test_the_open_block_and_menu_fit_the_screen_and_pass_axe(browser, served, width, scheme):
    """Screenshots of a feature page's open block and a release's open ¶ menu (for a person to look
    at, in tests/artifacts/screens/); neither widens the page; axe finds nothing serious."""
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme, service_workers="block"
    )
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        watch = watch_page(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        visit(page, served + "features/flex-attention/")
        block = page.locator("details.atlas-cite")
        block.locator(":scope > summary").click()
        block.locator("details.atlas-cite-backend > summary").first.click()  # a backend's badges open too
        block.scroll_into_view_if_needed()
        block.screenshot(path=str(SHOTS / f"cite-feature-{width}-{scheme}.png"))
        page.screenshot(path=str(SHOTS / f"cite-feature-page-{width}-{scheme}.png"))
        overflow = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert overflow[0] <= overflow[1], overflow
        assert block.bounding_box()["width"] <= width
        assert violations_in(page, "details.atlas-cite") == []

        visit(page, served + "releases/2.12/")
        change = page.locator(".atlas-changes li").nth(3)
        change.evaluate(OPEN)
        change.locator(OWN_LINK).click()
        menu = page.locator("#atlas-cite-menu")
        menu.scroll_into_view_if_needed()
        change.screenshot(path=str(SHOTS / f"cite-change-{width}-{scheme}.png"))
        overflow = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert overflow[0] <= overflow[1], overflow
        assert violations_in(page, "#atlas-cite-menu") == []
        assert watch.errors() == []
    finally:
        context.close()
