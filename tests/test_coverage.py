"""What the Atlas does not cover yet: home, /releases/, the feed and the API name the newest release
on it, the day of its newest source and the next release by the cadence, not covered yet."""

from __future__ import annotations

import html
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
    assert "2.9, is planned for 2025-10-15: it is not on the Atlas yet" in coverage.text
    assert coverage.as_of is None and "last checked" not in coverage.text  # no cadence.yaml: no today


@pytest.mark.parametrize(
    ("as_of", "shipped", "said"),
    [
        ("2025-10-01", "", "2.9, is planned for 2025-10-15: it is not on the Atlas yet"),
        ("2025-10-20", "", "2.9, was planned for 2025-10-15; the day has passed without a release the Atlas knows of"),
        (
            "2025-11-02",
            '    shipped: {month: "2025-10", evidence: "PyPI lists torch 2.9.0", source: "https://pypi.org/project/torch/"}\n',
            "PyTorch 2.9 has been released since (PyPI lists torch 2.9.0; it shipped in October 2025), but its release notes are not at hand",
        ),
    ],
)
def test_coverage_says_what_the_as_of_day_knows_of_the_next_release(with_next: Path, as_of, shipped, said):
    """Issue 45: 2.15 had shipped, and every surface still said it "was planned". The day is
    cadence.yaml's as_of, an input of the build; the wall clock is read nowhere."""
    (with_next / "cadence.yaml").write_text(
        f'source: https://example.org/cadence\nas_of: "{as_of}"\nplanned:\n'
        f'  - version: "2.9"\n    release: "2025-10-15"\n{shipped}'
        '  - {version: "2.10", branch_cut: "2025-12-20", release: "2026-01-21"}\n',
        encoding="utf-8",
    )
    coverage = site_model(with_next).coverage
    assert said in coverage.text
    assert coverage.text.endswith(f"What has shipped was last checked on {as_of}.")
    # The release after: 2.10, once 2.9's day is behind as_of (before it, 2.9 is the one ahead).
    assert ("2.10, is due on 2026-01-21 (branch cut 2025-12-20)" in coverage.text) == (as_of > "2025-10-15")


def test_home_releases_feed_and_api_say_it(with_next: Path, tmp_path: Path):
    site = tmp_path / "site"
    proc = run_cli("build", "--content", str(with_next), "--site", str(site), "--docs", str(tmp_path / "docs"))
    assert proc.returncode == 0, proc.stderr
    text = site_model(with_next).coverage.text
    for page in ("index.html", "releases/index.html"):  # as the reader sees it, however escaped
        assert text in html.unescape((site / page).read_text(encoding="utf-8")), page
    assert ET.parse(site / "feed.xml").getroot().find(f"{ATOM}subtitle").text == text
    api = json.loads((site / "api/v1/releases.json").read_text(encoding="utf-8"))["coverage"]
    assert api["next"] == {
        "version": "2.9",
        "planned": "2025-10-15",
        "source": "https://example.org/cadence",
        "covered": False,
        "released": None,
    }
    assert (api["as_of"], api["upcoming"]) == (None, None)
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


def test_the_real_atlas_says_2_15_shipped_and_is_not_covered_yet(real_build: RealBuild):
    coverage = real_model().coverage
    assert (coverage.newest, coverage.patch, coverage.source_date.isoformat()) == ("2.14", "2.14.1", "2026-09-30")
    assert (coverage.next.version, coverage.next.planned.isoformat()) == ("2.15", "2026-10-28")
    assert (coverage.upcoming.version, coverage.as_of.isoformat()) == ("2.16", "2026-11-26")
    home = html.unescape((real_build.site / "index.html").read_text(encoding="utf-8"))
    assert "PyTorch 2.15 has been released since (PyPI lists torch 2.15.0; it shipped in October 2026)" in home
    assert "was planned" not in home
    api = json.loads((real_build.site / "api/v1/releases.json").read_text(encoding="utf-8"))["coverage"]
    assert api["next"]["released"]["month"] == "2026-10" and api["upcoming"] == {
        "version": "2.16",
        "planned": "2026-12-22",
    }
