"""The "Link or embed" block and a change's ¶ menu in Chromium: every snippet kind copies, by
keyboard, exactly the text Python's table (generator.cite) makes for it."""

from __future__ import annotations

import pytest

from generator import cite, urls
from generator.build import site_model
from generator.describe import SITE_NAME
from tests.browser import ROOT, TIMEOUT_MS, watch_page

pytestmark = pytest.mark.browser

OPEN = "e => { for (let d = e.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
"""Unfold the sections and areas around a change."""


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
    site = site_model(ROOT / "content")
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
    assert page.locator("details.atlas-cite .atlas-cite-badge img").evaluate("i => i.naturalWidth > 0")
    assert watch.errors() == []


def _cut(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        cut = text[:limit]
        text = (cut.rsplit(" ", 1)[0] if " " in cut else cut) + " …"
    return text


def test_a_change_menu_opens_from_its_pilcrow_and_copies_each_kind(clip_page, served):
    page = clip_page
    watch = watch_page(page)
    version = site_model(ROOT / "content").latest.version
    page.goto(served + urls.release(version), wait_until="networkidle")
    changes = page.locator("li.atlas-change")
    change = changes.nth(3)
    anchor = change.get_attribute("id")
    change.evaluate(OPEN)  # its section and area are folded
    record = change.locator("p").first.text_content()
    pilcrow = change.locator("a.atlas-copy")
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
    page.wait_for_timeout(
        500
    )  # Material's instant navigation, had it seen the click, would have reloaded the page by now
    assert page.evaluate("document.getElementById('atlas-cite-menu').parentElement.id") == anchor
    assert menu.is_visible() and pilcrow.get_attribute("aria-expanded") == "true"
    url = served + urls.at(urls.release(version), anchor)
    title = f"PyTorch {version}: {_cut(record)}"
    for f in cite.FORMATS:
        button = menu.locator(f'pre[data-cite="{f.id}"] + button.atlas-cite-copy')
        assert copy_by_keyboard(page, button) == cite.fill(f.link, f.escapes, title, url), f.id
    page.keyboard.press("Escape")
    assert menu.is_hidden()
    assert page.evaluate("document.activeElement.classList.contains('atlas-copy')")
    other = changes.nth(10)
    other.evaluate(OPEN)
    other.locator("a.atlas-copy").click()
    assert other.locator("#atlas-cite-menu").count() == 1 and page.locator("#atlas-cite-menu").count() == 1
    text = other.locator('pre[data-cite="url"]').text_content()
    assert text == served + urls.at(urls.release(version), other.get_attribute("id"))
    assert watch.errors() == []
