"""Pages a thumb can use (issue 36), measured in Chromium at a phone's 390 px and a desktop's
1400 px on one page of every kind: every link and control meets WCAG 2.2 SC 2.5.8 (24×24 px, or
inline in a sentence, or spaced so a 24 px circle on it meets no other target; tests/targets.js);
a matrix opens showing its feature's first release beside the sticky column, and the newest
where both fit; breaking changes are open on a phone, and a folded area stands beside its heading."""

from __future__ import annotations

import pytest

from tests.browser import PAGE_KINDS, ROOT, TIMEOUT_MS, visit

pytestmark = pytest.mark.browser

TARGETS = (ROOT / "tests" / "targets.js").read_text(encoding="utf-8")
WIDTHS = (390, 1400)


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def sized(browser, request):
    width = request.param
    context = browser.new_context(
        viewport={"width": width, "height": 900}, is_mobile=width < 500, has_touch=width < 500, service_workers="block"
    )
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield context.new_page(), width
    finally:
        context.close()


def test_every_target_is_big_enough_or_spaced(sized, served):
    page, width = sized
    failures = {}
    for url in PAGE_KINDS.values():
        visit(page, served + url)
        found = page.evaluate(TARGETS)
        if found:
            failures[url or "/"] = found[:3]
    assert failures == {}, f"at {width} px"


def test_the_measure_finds_a_small_target(sized, served):
    """Not vacuous: a lone 10 px link beside another fails; the same link 24 px tall passes."""
    page, _ = sized
    visit(page, served + "tiers/")
    page.evaluate(
        """() => { const p = document.createElement('p'); p.id = 'probe';
        p.innerHTML = '<a href="#a" style="font-size:8px;line-height:8px">a</a><a href="#b" style="font-size:8px;line-height:8px">b</a>';
        document.querySelector('article').prepend(p); }"""
    )
    assert len(page.evaluate(TARGETS)) == 2
    page.evaluate(
        "() => document.querySelectorAll('#probe a').forEach(a => { a.style.display = 'inline-block'; a.style.minWidth = a.style.minHeight = '24px'; })"
    )
    assert page.evaluate(TARGETS) == []


SHOWN = """wrap => {
  const box = wrap.getBoundingClientRect(), sticky = wrap.querySelector('thead th').getBoundingClientRect();
  const heads = Array.from(wrap.querySelectorAll('thead th')).slice(1);
  const cells = Array.from(wrap.querySelector('tbody tr').children).slice(1);
  const first = cells.find(c => c.textContent.trim());
  const seen = r => r.left >= sticky.right - 1 && r.right <= box.right + 1;
  return {first: seen(first.getBoundingClientRect()), newest: seen(heads[heads.length - 1].getBoundingClientRect())};
}"""


def test_a_matrix_shows_the_first_release_and_the_newest(sized, served):
    """FlexAttention's matrix (2.5 to 2.14): at 1400 px both its 2.5 cell (not under the sticky
    feature column) and the newest release show; on a phone, where ten releases cannot fit
    beside the feature column, the newest does (the first is a swipe away)."""
    page, width = sized
    visit(page, served + "features/flex-attention/")
    shown = page.locator(".atlas-matrix-wrap").first.evaluate(SHOWN)
    assert shown == ({"first": True, "newest": True} if width >= 1400 else {"first": False, "newest": True})


def test_breaking_changes_are_open_on_a_phone(sized, served):
    page, width = sized
    visit(page, served + "releases/2.14/")
    closed = page.evaluate(
        """() => Array.from(document.querySelectorAll('details.atlas-area')).filter(d => {
            let h = d.previousElementSibling; while (h && h.tagName !== 'H3') h = h.previousElementSibling;
            return h && h.id === window.atlasData.breaking && !d.open; }).length"""
    )
    assert closed == 0


FOLDS = """() => Array.from(document.querySelectorAll('.atlas-changes > details.atlas-area:not([open])')).map(d => {
    const h = d.previousElementSibling.getBoundingClientRect(), f = d.getBoundingClientRect();
    return { beside: f.left >= h.right && f.top < h.bottom && f.bottom > h.top, below: f.top >= h.bottom - 1 };
})"""


FOLDED_ON_A_PHONE = """() => Array.from(document.querySelectorAll('details.atlas-area[open]')).every(d => {
    let h = d.previousElementSibling; while (h && h.tagName !== 'H3') h = h.previousElementSibling;
    return h && h.id === window.atlasData.breaking; })"""


def test_a_folded_area_shares_its_headings_row_on_a_phone(sized, served):
    """2.14 ran to 95 screens at 390 px, a folded area's heading and its fold on two rows each: on a
    phone the fold stands beside its heading; on a desktop, where areas are open, any fold is below."""
    page, width = sized
    visit(page, served + "releases/2.14/")
    if width >= 1400:
        page.evaluate("() => document.querySelectorAll('details.atlas-area').forEach(d => { d.open = false; })")
    else:  # atlas-page.js folds them once Material hands it the page (document$), which may follow networkidle
        page.wait_for_function(FOLDED_ON_A_PHONE, timeout=30_000)
    folds = page.evaluate(FOLDS)
    assert len(folds) > 50
    if width < 500:
        assert all(f["beside"] for f in folds), [i for i, f in enumerate(folds) if not f["beside"]][:5]
    else:
        assert all(f["below"] for f in folds)


ACTIVE = """() => Array.from(document.querySelectorAll('.md-sidebar--secondary .md-nav__link--active'))
    .map(a => a.textContent.trim())"""


def test_the_table_of_contents_follows_the_reader(browser, served):
    """The upgrade guide renders its steps after load: its table of contents lights no entry at
    the top of the page (it lit the last one), and lights the step scrolled to."""
    context = browser.new_context(viewport={"width": 1400, "height": 900}, service_workers="block")
    try:
        page = context.new_page()
        visit(page, served + "upgrade/?from=2.13&to=2.14")
        page.locator("#upgrade-removals + ul").wait_for()
        assert page.evaluate(ACTIVE) == []
        page.evaluate("() => scrollTo(0, document.getElementById('upgrade-removals').offsetTop + 5)")
        page.wait_for_function(ACTIVE.replace("() =>", "() => (") + ").some(t => t.startsWith('Removals'))")
    finally:
        context.close()
