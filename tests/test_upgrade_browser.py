"""The upgrade guide in the browser: a range and a backend from the URL, then pasted code."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def _items(page, group: str):
    return page.locator(f"#atlas-upgrade-result section[data-group={group}] li")


def test_upgrade_guide_for_rocm_from_2_4_to_2_12_then_filtered_to_pasted_code(page, served, watch):
    page.goto(served + "upgrade/?from=2.4&to=2.12&backend=rocm")
    page.locator("#atlas-upgrade-result section[data-group]").first.wait_for()
    assert page.locator("select[name=from]").input_value() == "2.4"
    assert page.locator("select[name=backend]").input_value() == "rocm"
    headline = page.locator("#atlas-upgrade-result p.atlas-compare-msg").first.inner_text()
    assert "can break your code" in headline
    summary = page.locator("#atlas-upgrade-result p.atlas-compare-msg").nth(1).inner_text()
    assert "From 2.4 to 2.12 on ROCm" in summary
    breaking = _items(page, "breaking").count() + _items(page, "removals").count() + _items(page, "defaults").count()
    assert breaking >= 50  # every change for ROCm or for all backends, 2.5 to 2.12
    releases = set(
        page.locator("#atlas-upgrade-result li[data-release]").evaluate_all("els => els.map(e => e.dataset.release)")
    )
    assert {"2.5", "2.6", "2.9", "2.12"} <= releases and "2.4" not in releases
    # A change tied to another backend only (MPS needs macOS 14 in 2.9) is left out.
    assert "MacOS-14" not in page.locator("#atlas-upgrade-result").inner_text()
    # Every item says what to do; the ONNX default change names its way back.
    defaults = _items(page, "defaults")
    assert defaults.filter(has_text="What to do").count() == defaults.count()
    onnx = defaults.filter(has_text="is now the default in torch.onnx.export")
    assert onnx.count() == 1 and "fallback=True" in onnx.inner_text()
    before = page.locator("#atlas-upgrade-result li").count()

    page.locator("textarea[name=code]").fill("import torch\ntorch.onnx.export(model, args, fallback=True)\n")
    page.wait_for_function("document.querySelector('#atlas-upgrade-result').innerText.includes('others left out')")
    kept = page.locator("#atlas-upgrade-result li")
    assert 0 < kept.count() < before / 5
    assert kept.filter(has_text="is now the default in torch.onnx.export").count() == 1
    assert kept.filter(has_text="Python version is now 3.10").count() == 0  # names nothing the code uses
    assert "fallback" not in page.url and "onnx" not in page.url  # the paste stays out of the URL
    assert watch.foreign_requests() == []
    assert watch.console_errors == [] and watch.page_errors == []


def test_release_page_has_the_upgrade_steps_without_javascript(browser, served):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(served + "releases/2.10/#upgrading")
        steps = page.locator(".atlas-upgrade li")
        assert steps.count() >= 10
        assert (
            steps.filter(has_text="is now the default in torch.onnx.export").filter(has_text="What to do").count() == 1
        )
    finally:
        context.close()
