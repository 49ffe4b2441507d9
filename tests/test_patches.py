"""Patch releases are releases: a patch's fixes are change records on its minor release's page, in
search records, the JSON API and the Atom feed, and a known issue names the patch that fixed it."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from generator.model import urls
from generator.pipeline.build import site_model
from generator.search import records as search
from tests.conftest import FIXTURE, RealBuild, real_model, run_cli

ATOM = "{http://www.w3.org/2005/Atom}"


def test_a_patch_carries_its_date_source_and_fixes_as_change_records():
    site = site_model(FIXTURE)
    ((patch, views),) = site.release_views["2.8"].patches
    assert (patch.version, patch.date, patch.source) == ("2.8.1", "2025-09-03", "https://example.org/notes/2.8.1")
    (view,) = views
    assert view.change.patch == "2.8.1" and view.change.release == "2.8"
    assert view.change.prs == (281,) and view.anchors == (281,)
    assert view.anchor.startswith("c-") and view.backends == ("cuda",)
    assert "widget-compiler" in view.features
    # The release's own change list does not count the patch's fixes.
    assert all(v.change.patch == "" for s in site.release_views["2.8"].sections for a in s.areas for v in a.changes)


def test_a_known_issue_names_the_patch_whose_fix_links_its_issue(content_copy: Path):
    (issue,) = site_model(FIXTURE).release_views["2.8"].known_issues
    assert issue.change.issues == (9001,) and issue.fixed_in == "2.8.1"
    release = content_copy / "releases/2.8.yaml"
    release.write_text(release.read_text().replace("issues: [9001]", "issues: [9002]"), encoding="utf-8")
    (issue,) = site_model(content_copy).release_views["2.8"].known_issues
    assert issue.fixed_in == ""  # no fix links issue 9001 any more


def test_a_patch_fix_naming_an_unknown_backend_or_feature_is_refused_at_its_line(content_copy: Path):
    release = content_copy / "releases/2.8.yaml"
    text = release.read_text(encoding="utf-8")
    text = text.replace(
        '        backends: ["cuda"]\n        features: [widget-compiler]',
        "        backends: [cuda, tpu]\n        features: [widget-compiller]",
    )
    release.write_text(text, encoding="utf-8")
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1
    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines, 1) if "backends: [cuda, tpu]" in line)
    assert f"releases/2.8.yaml:{row}:" in proc.stdout + proc.stderr
    assert "patches[0].changes[0].backends[1]: unknown backend 'tpu'" in proc.stdout + proc.stderr
    assert "did you mean 'widget-compiler'" in (proc.stdout + proc.stderr).lower()


def test_patch_fixes_are_search_records_and_the_patch_version_a_name():
    site = site_model(FIXTURE)
    records = {r["url"]: r for r in search.records(site, search.page_meta(site))}
    (view,) = site.release_views["2.8"].patches[0][1]
    record = records[urls.at(urls.release("2.8"), view.anchor)]
    assert record["title"] == "PyTorch 2.8.1 (2025-09-03) · Regression fixes"
    assert "Stop the widget warning on import" in " ".join(t for _, t in record["parts"])
    assert record["filters"]["release"] == ["2.8"]


def test_the_api_and_the_feed_carry_the_patch(fixture_site: Path):
    data = json.loads((fixture_site / "api/v1/releases/2.8.json").read_text(encoding="utf-8"))
    (patch,) = data["patches"]
    assert (patch["version"], patch["date"]) == ("2.8.1", "2025-09-03")
    (fix,) = patch["changes"]
    assert (fix["patch"], fix["prs"], fix["issues"]) == ("2.8.1", [281], [9001])
    assert fix["url"].endswith("/releases/2.8/#" + fix["anchor"])
    known = next(c for c in data["change_list"] if c["group"] == "known-issues")
    assert known["fixed_in"] == "2.8.1" and known["patch"] is None
    entries = ET.parse(fixture_site / "feed.xml").getroot().findall(f"{ATOM}entry")
    titles = [e.find(f"{ATOM}title").text for e in entries]
    assert titles[0] == "PyTorch 2.8.1"  # the newest item: 2025-09-03, after 2.8 (2025-08-06)
    first = entries[0]
    assert first.find(f"{ATOM}updated").text == "2025-09-03T00:00:00Z"
    assert first.find(f"{ATOM}link").get("href").endswith("/releases/2.8/#v2-8-1-fixes")
    assert "Stop the widget warning on import" in first.find(f"{ATOM}summary").text


def test_2_14_1_is_on_the_real_model_with_its_date_and_fixes():
    site = real_model()
    ((patch, views),) = site.release_views["2.14"].patches
    assert (patch.version, patch.date, patch.source) == (
        "2.14.1",
        "2026-09-30",
        "https://github.com/pytorch/pytorch/releases/tag/v2.14.1",
    )
    notes = (Path(__file__).parents[1] / "content/sources/release-notes-v2.14.1.md").read_text(encoding="utf-8")
    bullets = re.findall(r"^- (.+)$", notes, re.M)
    assert [v.change.text.removeprefix("- ") for v in views] == bullets  # each record line as the notes write it
    assert {pr for v in views for pr in v.change.prs} == {196128, 196139, 199063, 196351, 195949, 195950, 195872}
    cuda = next(a for a in site.releases[-1].compatibility.alternatives if a.field == "cuda")
    assert cuda.value == "13.2.2"


def test_the_real_2_14_page_lists_what_2_14_1_fixes(real_build: RealBuild):
    page = (real_build.site / "releases/2.14/index.html").read_text(encoding="utf-8")
    assert 'id="v2-14-1-fixes"' in page and "2026-09-30" in page
    assert 'id="pr-196351"' in page  # the CUDA 13.2.2 rebuild, at its PR anchor
    data = json.loads((real_build.site / "api/v1/releases/2.14.json").read_text(encoding="utf-8"))
    assert [len(p["changes"]) for p in data["patches"]] == [5]
    guide = (real_build.site / "upgrade/index.html").read_text(encoding="utf-8")
    assert "Moving to 2.14? Take 2.14.1</strong> (2026-09-30)" in guide  # and why: its summary follows
    assert "silently wrong" in guide.split("Take 2.14.1", 1)[1][:400]


def test_the_words_written_about_a_patch_are_our_own():
    """Its summary and its fixes' notes share no run of 8 words with its notes."""
    from tests.helpers import runs as _runs
    from tests.helpers import words_of as _words

    site = real_model()
    notes = (Path(__file__).parents[1] / "content/sources/release-notes-v2.14.1.md").read_text(encoding="utf-8")
    source = _runs(_words(notes))
    ((patch, views),) = site.release_views["2.14"].patches
    ours = [patch.summary, *(v.change.note for v in views if v.change.note)]
    assert len(ours) >= 4
    assert [text for text in ours if _runs(_words(text)) & source] == []


def test_a_patch_version_and_its_fixes_prs_are_search_names():
    site = site_model(FIXTURE)
    table = search.names(site, search.page_meta(site))
    (view,) = site.release_views["2.8"].patches[0][1]
    first = table[search.normalise("2.8.1")][0]
    assert first[:2] == [
        urls.at(urls.release("2.8"), urls.patch_fixes_anchor("2.8.1")),
        "PyTorch 2.8.1 · What it fixes",
    ]
    assert table[search.normalise("281")][0][0] == urls.at(urls.release("2.8"), urls.pr_anchor(281))
