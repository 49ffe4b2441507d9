"""An ending is worded in one home (generator/model/wording.py): reword it there, and every surface
that states an ending (feature page, features table, ledger, home page, upgrade steps, calendar,
API, link previews) says the new words, and none still says the old."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from generator.model import wording
from generator.pages import pagelist as pages
from generator.pipeline.build import site_model
from generator.render.render import render_all
from tests.conftest import FIXTURE

REWORDED = {
    "deprecated": ("retired", ""),
    "deprecated_in": ("retired in ", ""),
    "part_removed_in": ("partly gone in ", ""),
    "removal_planned": ("set to go in ", ""),
    "due": ("going in ", ""),
    "overdue": ("set to go in ", " but still here"),
    "removed_in": ("gone in ", ""),
}
RETAGGED = {"removed": "Gone", "overdue": "Late", "part-removed": "Retired", "due": "Retired", "deprecated": "Retired"}
# Today's words, stating a release: none may be left anywhere once the home says others.
OLD = re.compile(r"(deprecated in|removal due in|removal announced for|removed in|part removed in) 2\.\d", re.I)

OLD_WHEEL = '    removal: "2.9"\n'  # releases/2.7.yaml: the fixture's one deprecated feature
GONE = """  - id: old-wheel
    title: Old wheel
    tier: removed
    change: removed
    highlight: false
    summary: The old wheel is gone.
    source: https://example.org/2.8
patches:
"""


def _render(tmp_path, removed: bool, reword: bool) -> dict[str, str]:
    """The fixture with the old wheel's removal announced for 2.8 (which ships without it: overdue,
    and the calendar has a day for it), or removed in 2.8; every file as text, the calendar unfolded."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    older = content / "releases" / "2.7.yaml"
    older.write_text(older.read_text(encoding="utf-8").replace(OLD_WHEEL, '    removal: "2.8"\n'), encoding="utf-8")
    if removed:
        newer = content / "releases" / "2.8.yaml"
        newer.write_text(newer.read_text(encoding="utf-8").replace("patches:\n", GONE, 1), encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pages, "BENCHMARK", FIXTURE.parent / "benchmark.md")
        if reword:
            mp.setattr(wording, "ENDING_SAID", REWORDED)
            mp.setattr(wording, "ENDING_TAGS", RETAGGED)
        files = render_all(site_model(content))
    text = {p: data.decode("utf-8") for p, data in files.items() if p.endswith((".md", ".json", ".ics"))}
    text["calendar.ics"] = text["calendar.ics"].replace("\r\n ", "").replace("\\", "")
    return text


def _old_words(files: dict[str, str]) -> list[str]:
    """Old words stating a release, in every file but the API schema (examples copied from generator/schemas)."""
    return sorted(f"{p}: {m[0]}" for p, t in files.items() if not p.endswith("schema.json") for m in OLD.finditer(t))


def test_an_overdue_ending_is_reworded_on_every_surface(tmp_path):
    assert _old_words(_render(tmp_path / "before", removed=False, reword=False))  # the control: words to replace
    files = _render(tmp_path / "after", removed=False, reword=True)
    assert _old_words(files) == []
    said = "etired in 2.7; set to go in 2.8 but still here"
    assert f"<strong>R{said}</strong>" in files["features/old-wheel/index.md"]
    assert "retired in 2.7: " in files["features/old-wheel/index.md"]  # what each release was read from
    assert f"— r{said} " in files["index.md"] and ">Late</span>" in files["index.md"]
    assert ">Late</span>" in files["deprecations/index.md"]
    assert f"DESCRIPTION:R{said}." in files["calendar.ics"]
    assert json.loads(files["api/v1/features/old-wheel.json"])["ending"]["words"] == f"R{said}"


def test_a_removal_is_reworded_on_every_surface(tmp_path):
    assert _old_words(_render(tmp_path / "before", removed=True, reword=False))
    files = _render(tmp_path / "after", removed=True, reword=True)
    assert _old_words(files) == []
    assert "| Gone in 2.8 |" in files["features/index.md"]  # the features table's "Tier now"
    assert "<strong>Gone in 2.8</strong>" in files["features/old-wheel/index.md"]
    assert "<strong>Gone in 2.8</strong>." in files["releases/2.8/index.md"]  # its upgrade step
    assert ">Gone</span>" in files["deprecations/index.md"]
    assert "DESCRIPTION:Gone in 2.8." in files["calendar.ics"]
