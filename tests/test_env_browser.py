"""The upgrade guide's "Paste your environment" box in the browser: real-format collect_env outputs
(CUDA on Linux, ROCm, macOS) and a requirements line open the guide from the release they run, on
their backend, to the newest release, with the compatibility answers; garbage gets its one line."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from generator.pages import envpaste
from tests.conftest import LATEST, ROOT

pytestmark = pytest.mark.browser

ENVS = ROOT / "tests" / "data" / "env"


def paste(page, served: str, text: str) -> dict:
    """Paste `text` into the box; return the guide's URL query once it has loaded."""
    page.goto(served + "upgrade/")
    box = page.get_by_label("Paste your environment")
    box.fill(text)
    page.locator("#atlas-env-result p").first.wait_for()
    return parse_qs(urlsplit(page.url).query)


def answers(page) -> dict[str, tuple[bool, str]]:
    items = page.locator("#atlas-env-result li")
    return {
        li.get_attribute("data-topic") + ":" + str(i): (li.get_attribute("data-ok") == "true", li.inner_text())
        for i, li in enumerate(items.all())
    }


def by_topic(page, topic: str) -> list[tuple[bool, str]]:
    return [v for k, v in answers(page).items() if k.startswith(topic + ":")]


def test_collect_env_cuda_on_linux(page, served, watch):
    query = paste(page, served, (ENVS / "collect_env_cuda_linux.txt").read_text(encoding="utf-8"))
    page.locator("#atlas-upgrade-result section[data-group]").first.wait_for()
    query = parse_qs(urlsplit(page.url).query)
    assert (query["from"], query["to"], query["backend"]) == (["2.5"], [LATEST], ["cuda"])
    assert page.locator("select[name=from]").input_value() == "2.5"
    assert "From 2.5 to " + LATEST + " on CUDA" in page.locator("#atlas-upgrade-result").inner_text()
    read = page.locator("#atlas-env-result p").first.inner_text()
    assert "torch 2.5.1+cu121" in read and "Python 3.10" in read and "Tesla V100-SXM2-16GB" in read
    ((cuda_ok, cuda),) = by_topic(page, "cuda")
    assert not cuda_ok and "CUDA 12.1" in cuda and "it stops in 2.6" in cuda
    ((python_ok, _),) = by_topic(page, "python")
    assert python_ok
    ((gpu_ok, gpu),) = by_topic(page, "gpu")
    assert gpu_ok and "Volta GPUs: " + LATEST + "'s CUDA 12.6 wheels cover them" in gpu
    assert gpu.count(" builds in ") == 1  # one release for the Volta line
    ((driver_ok, driver),) = by_topic(page, "driver")
    assert not driver_ok and "NVIDIA driver 535.104.05" in driver
    # each answer links what it rests on: the feature page and the notes for CUDA 12.1
    cuda_links = page.locator('#atlas-env-result li[data-topic="cuda"] a')
    hrefs = [cuda_links.nth(i).get_attribute("href") for i in range(cuda_links.count())]
    assert (
        served + "features/cuda-12.1-wheel/" in hrefs
        and "https://github.com/pytorch/pytorch/releases/tag/v2.6.0" in hrefs
    )
    # every answer (Python, CUDA, GPU, driver, patch) links its evidence; ours open at their anchor
    items = page.locator("#atlas-env-result li")
    assert items.count() >= 4
    for li in items.all():
        links = [a.get_attribute("href") for a in li.locator(".atlas-env-evidence a").all()]
        assert links, li.inner_text()
        for href in (h for h in links if h.startswith(served)):
            target, _, anchor = href.partition("#")
            response = page.request.get(target)
            assert response.ok and (not anchor or f'id="{anchor}"' in response.text()), href
    assert watch.foreign_requests() == []
    assert watch.console_errors == [] and watch.page_errors == []


def test_collect_env_rocm(page, served, watch):
    paste(page, served, (ENVS / "collect_env_rocm.txt").read_text(encoding="utf-8"))
    page.locator("#atlas-upgrade-result section[data-group]").first.wait_for()
    query = parse_qs(urlsplit(page.url).query)
    assert (query["from"], query["backend"]) == (["2.6"], ["rocm"])
    ((rocm_ok, rocm),) = by_topic(page, "rocm")
    assert not rocm_ok and "ROCm 6.2.4" in rocm and "it stops in 2.7" in rocm
    assert by_topic(page, "gpu") == []  # an AMD GPU: the architecture table is NVIDIA's
    assert watch.console_errors == [] and watch.page_errors == []


def test_collect_env_macos_is_mps_and_its_python_has_left(page, served, watch):
    paste(page, served, (ENVS / "collect_env_macos.txt").read_text(encoding="utf-8"))
    page.locator("#atlas-upgrade-result section[data-group]").first.wait_for()
    query = parse_qs(urlsplit(page.url).query)
    assert (query["from"], query["backend"]) == (["2.3"], ["mps"])
    ((python_ok, python),) = by_topic(page, "python")
    assert not python_ok and "Python 3.9: not supported" in python and "it stops in 2.9" in python
    read = page.locator("#atlas-env-result p").first.inner_text()
    assert "GPUs" not in read and "No CUDA" not in read  # "No CUDA" is not a GPU
    ((macos_ok, macos),) = by_topic(page, "macos")
    assert macos_ok and "needs macOS 14 or newer" in macos
    assert watch.console_errors == [] and watch.page_errors == []


def test_a_blackwell_gpu_on_cuda_12_6_and_a_release_with_a_patch(page, served, watch):
    paste(page, served, "GPU models and configuration: NVIDIA B200\ntorch==" + LATEST + ".0+cu126\n")
    ((gpu_ok, gpu),) = by_topic(page, "gpu")
    assert not gpu_ok and "its CUDA 12.6 wheels do not" in gpu and "Your CUDA 12.6 build is one that does not." in gpu
    ((patch_ok, patch),) = by_topic(page, "patch")
    assert not patch_ok and patch.startswith("Take " + LATEST + ".1")
    assert watch.console_errors == [] and watch.page_errors == []


def test_a_requirements_line(page, served, watch):
    paste(page, served, "numpy==1.26.4\ntorch==2.4.0+cu118\n")
    page.locator("#atlas-upgrade-result section[data-group]").first.wait_for()
    query = parse_qs(urlsplit(page.url).query)
    assert (query["from"], query["to"], query["backend"]) == (["2.4"], [LATEST], ["cuda"])
    ((cuda_ok, cuda),) = by_topic(page, "cuda")
    assert not cuda_ok and "CUDA 11.8" in cuda
    assert watch.console_errors == [] and watch.page_errors == []


def test_garbage_gets_one_line_and_reaches_the_page_as_text_only(page, served, watch):
    query = paste(page, served, '<img src=x onerror="window.pwned=1"> torchvision==0.20 <b>bold</b>')
    result = page.locator("#atlas-env-result")
    assert result.inner_text().strip() == envpaste.looked_for()
    assert result.locator("p").count() == 1 and result.locator("img, b").count() == 0
    assert page.evaluate("window.pwned") is None
    assert "from" not in query and page.locator("#atlas-upgrade-result section[data-group]").count() == 0
    assert watch.console_errors == [] and watch.page_errors == []


def test_a_release_the_atlas_does_not_cover(page, served, watch):
    """A newer release opens no guide (the audit's 2.15 paste opened 2.13 -> 2.14); an older one opens
    the guide from the oldest release covered."""
    major, minor = LATEST.split(".")
    ahead = f"{major}.{int(minor) + 1}"
    query = paste(page, served, f"torch=={ahead}.0+cu130")
    said = page.locator("#atlas-env-result").inner_text()
    assert f"not {ahead}: there is no guide from it yet." in said and "On " + LATEST not in said
    assert "from" not in query and page.locator("#atlas-upgrade-result section[data-group]").count() == 0
    paste(page, served, "torch==1.13.1+cu117")
    page.locator("#atlas-upgrade-result section[data-group]").first.wait_for()
    query = parse_qs(urlsplit(page.url).query)
    assert query["from"] == ["2.0"] and "the guide opens from 2.0" in page.locator("#atlas-env-result").inner_text()
    assert watch.console_errors == [] and watch.page_errors == []
