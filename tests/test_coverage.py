"""What the Atlas does not cover yet: home, /releases/, the feed and the API name the newest release
on it, the day of its newest source and the next release by the cadence, not covered yet."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from generator.pipeline.build import site_model
from tests.conftest import RealBuild, real_model, run_cli

ATOM = "{http://www.w3.org/2005/Atom}"
NEXT = 'next:\n  version: "2.9"\n  planned: "2025-10-15"\n  source: https://example.org/cadence\n'


@pytest.fixture
def with_next(content_copy: Path) -> Path:
    """The fixture content whose newest release (2.8) names 2.9 as the next by the cadence."""
    release = content_copy / "releases/2.8.yaml"
    release.write_text(release.read_text(encoding="utf-8") + NEXT, encoding="utf-8")
    return content_copy


def test_coverage_is_the_newest_release_its_newest_source_day_and_the_next_release(with_next: Path):
    coverage = site_model(with_next).coverage
    assert (coverage.newest, coverage.patch, coverage.source_date.isoformat()) == ("2.8", "2.8.1", "2025-09-03")
    assert (coverage.next.version, coverage.next.planned.isoformat()) == ("2.9", "2025-10-15")
    assert "2.9, was planned for 2025-10-15: it is not on the Atlas yet" in coverage.text


def test_home_releases_feed_and_api_say_it(with_next: Path, tmp_path: Path):
    site = tmp_path / "site"
    proc = run_cli("build", "--content", str(with_next), "--site", str(site), "--docs", str(tmp_path / "docs"))
    assert proc.returncode == 0, proc.stderr
    text = site_model(with_next).coverage.text
    escaped = text.replace("'", "&#39;").replace(":", "&#58;")
    for page in ("index.html", "releases/index.html"):
        assert escaped in (site / page).read_text(encoding="utf-8"), page
    assert ET.parse(site / "feed.xml").getroot().find(f"{ATOM}subtitle").text == text
    api = json.loads((site / "api/v1/releases.json").read_text(encoding="utf-8"))["coverage"]
    assert api["next"] == {
        "version": "2.9",
        "planned": "2025-10-15",
        "source": "https://example.org/cadence",
        "covered": False,
    }
    assert (api["newest"], api["newest_source_date"], api["text"]) == ("2.8", "2025-09-03", text)


def test_only_the_newest_release_names_the_next_and_it_must_follow(with_next: Path):
    older = with_next / "releases/2.7.yaml"
    older.write_text(
        older.read_text() + 'next: {version: "2.8", planned: "2025-08-06", source: "https://example.org/c"}\n'
    )
    newest = with_next / "releases/2.8.yaml"
    newest.write_text(newest.read_text().replace('version: "2.9"\n  planned', 'version: "2.8"\n  planned'))
    out = run_cli("check", "--content", str(with_next))
    assert out.returncode == 1
    said = out.stdout + out.stderr
    assert "releases/2.7.yaml:" in said and "only the newest release (2.8) says what comes next" in said
    assert "next.version: next release 2.8 does not follow 2.8" in said


def test_the_real_atlas_names_2_15_as_not_covered_yet(real_build: RealBuild):
    coverage = real_model().coverage
    assert (coverage.newest, coverage.patch, coverage.source_date.isoformat()) == ("2.14", "2.14.1", "2026-09-30")
    assert (coverage.next.version, coverage.next.planned.isoformat()) == ("2.15", "2026-10-28")
    home = (real_build.site / "index.html").read_text(encoding="utf-8")
    assert "2.15, was planned for 2026-10-28&#58; it is not on the Atlas yet" in home
