"""Every link to a change opens that change: the API's change URLs and every page's links to a
change anchor land on an element holding the change's own record line."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from generator.model import urls
from tests.conftest import RealBuild, real_model
from tests.helpers import element_texts


def _words(text: str) -> str:
    """The record line's words as a page shows them (Markdown marks gone)."""
    first = text.strip().split("\n", 1)[0].lstrip("-*# ")
    first = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", first)
    first = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", first)  # a Markdown escape shows as its mark
    return " ".join(re.sub(r"[`*_]", "", first).split())[:40]


def test_every_api_change_url_opens_its_own_change(real_build: RealBuild):
    real_site, base = real_build.site, real_build.url
    cache: dict = {}
    checked = 0
    for path in sorted((real_site / "api/v1/releases").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for change in data["change_list"]:
            page, _, anchor = change["url"].removeprefix(base).partition("#")
            assert page == urls.release(data["version"]) and anchor == change["anchor"], change["url"]
            held = element_texts(real_site / page / "index.html", cache).get(anchor)
            assert held is not None, f"{change['url']}: no element with that id"
            assert _words(change["text"]) in re.sub(r"[`*_]", "", held), f"{change['url']} opens another change"
            checked += 1
    assert checked > 1500


def test_every_page_link_to_a_change_opens_it(real_site: Path):
    """Backend change pages link each change to its release page: the anchor holds the same text."""
    cache: dict = {}
    checked = 0
    for page in sorted(real_site.glob("backends/*/*/index.html")):
        text = page.read_text(encoding="utf-8")
        for item in re.findall(r'<li>(<p class="atlas-prs">.*?)</li>', text, re.S):
            href = re.search(r'<a href="([^"]+)">in the release page</a>', item).group(1)
            target, _, anchor = html.unescape(href).partition("#")
            held = element_texts((page.parent / target / "index.html").resolve(), cache)[anchor]
            record = " ".join(html.unescape(re.sub(r"<[^>]+>", "", item.split("</p>", 2)[1])).split())[:40]
            assert record in held, f"{page}: {href}"
            checked += 1
    assert checked > 500


def test_change_anchors_are_unique_and_come_from_the_record_lines_alone():
    """Unique on their page, and a function of the release's record lines only (so a re-import of
    the same notes, or another process, hands out the same anchors)."""
    site = real_model()
    for release in site.releases:
        view = site.release_views[release.version]
        anchors = [v.anchor for s in view.sections for a in s.areas for v in a.changes]
        assert len(anchors) == len(set(anchors)), release.version
        assert set(anchors) == set(urls.change_anchors(c.text for c in release.changes)), release.version


def test_release_page_upgrade_section_matches_the_api(real_site: Path):
    """The static 'Upgrading from the previous release' section lists exactly the API's changes
    that an upgrade must act on, each linking to its own change."""
    for path in sorted((real_site / "api/v1/releases").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        wanted = [c["anchor"] for c in data["change_list"] if c["group"]]
        page = (real_site / urls.release(data["version"]) / "index.html").read_text(encoding="utf-8")
        section = page.split('<div class="atlas-upgrade">', 1)[1].split("</div>", 1)[0] if wanted else ""
        linked = re.findall(
            r'<li class="atlas-upgrade-item" data-group="(?!new)[a-z-]+">.*?href="\./#(c-[0-9a-f]+(?:-\d+)?)"', section
        )
        assert sorted(linked) == sorted(wanted), data["version"]
