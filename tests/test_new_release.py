"""`new-release`: the release file's skeleton, the imported change list and the to-do list."""

from __future__ import annotations

import re

import yaml

from generator.pipeline.build import site_model
from tests.conftest import run_cli

NOTES = """# PyTorch 2.9.0 Release Notes

# Highlights

<table>
  <tr><td>Unstable (API-Unstable)</td></tr>
  <tr><td><strong>Widget compiler</strong> learns to compile gadgets (#201)</td></tr>
  <tr><td>A brand-new <strong>sprocket</strong> API</td></tr>
</table>

# Tracked Regressions

### Widgets print a warning on import

Importing widgets warns ([#9001](https://github.com/pytorch/pytorch/issues/9001)).

# Backwards Incompatible Changes

- Remove the deprecated `torch.widget()` API (#301)

# Bug Fixes

- Fixed a crash in `torch.mesh` on argument `#0` (#302)
"""


def new_release(content, tmp_path, *extra):
    notes = tmp_path / "release-notes-v2.9.0.md"
    notes.write_text(NOTES, encoding="utf-8")
    return run_cli("new-release", "2.9", "--notes", str(notes), "--content", str(content), *extra)


def test_new_release_writes_a_skeleton_imports_the_notes_and_lists_what_is_left(content_copy, tmp_path):
    proc = new_release(content_copy, tmp_path, "--date", "2025-10-15", "--commits", "300", "--contributors", "30")
    assert proc.returncode == 0, proc.stderr
    release = yaml.safe_load((content_copy / "releases" / "2.9.yaml").read_text(encoding="utf-8"))
    assert release["previous"] == "2.8" and release["tier_vocabulary"] == "api-stability"
    assert release["counts"]["commits"] == 300 and release["features"] == []
    changes = yaml.safe_load((content_copy / "changes" / "2.9.yaml").read_text(encoding="utf-8"))["changes"]
    assert [(c["section"], c["prs"], c.get("issues")) for c in changes] == [
        ("tracked-regressions", [], [9001]),
        ("bc-breaking", [301], None),
        ("bug-fixes", [302], None),
    ]
    todo = proc.stdout.split("to do for 2.9 (6):\n", 1)[1].splitlines()
    assert todo == [
        "  releases/2.9.yaml: summary: write what the release brings, in our own words",
        "  release-notes-v2.9.0.md:7: highlight [API-Unstable] without an entry: Widget compiler learns to compile"
        " gadgets (#201) — probably continues widget-compiler",
        "  release-notes-v2.9.0.md:8: highlight [API-Unstable] without an entry: A brand-new sprocket API"
        " — no catalogue feature matches: a new one?",
        "  changes/2.9.yaml: tracked regression: ### Widgets print a warning on import: write its note and workaround",
        "  changes/2.9.yaml: bc-breaking: - Remove the deprecated `torch.widget()` API (#301): write its note and kind",
        "  changes/2.9.yaml: bc-breaking: - Remove the deprecated `torch.widget()` API (#301): is it about torch.widget,"
        " as its record line suggests? write its answer",
    ]
    assert re.search(r"changes/2\.9\.yaml:\d+:7: unconfirmed subject: is it about torch\.widget,", proc.stderr)
    path = content_copy / "changes" / "2.9.yaml"
    text = path.read_text(encoding="utf-8").replace("    prs: [301]\n", "    prs: [301]\n    subject: [torch.widget]\n")
    path.write_text(text, encoding="utf-8")
    assert [r.version for r in site_model(content_copy).releases][-1] == "2.9"  # answered, it passes check


def test_a_second_run_keeps_the_release_file_and_lists_only_what_is_left(content_copy, tmp_path):
    facts = ("--date", "2025-10-15", "--commits", "300", "--contributors", "30")
    assert new_release(content_copy, tmp_path, *facts).returncode == 0
    path = content_copy / "changes" / "2.9.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "    prs: [301]\n",
        "    prs: [301]\n    note: Call the replacement.\n    kind: api-removed\n    ends: [torch.widget]\n"
        "    subject: [torch.widget]\n",
    )
    path.write_text(text, encoding="utf-8")
    proc = new_release(content_copy, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "releases/2.9.yaml: kept as it is" in proc.stdout
    assert "to do for 2.9 (4):" in proc.stdout and "bc-breaking" not in proc.stdout
    assert "note: Call the replacement." in path.read_text(encoding="utf-8")


def test_facts_it_cannot_find_are_asked_for_in_one_line(content_copy, tmp_path):
    proc = new_release(content_copy, tmp_path, "--date", "2025-10-15")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "give --commits, --contributors" in proc.stderr and "Traceback" not in proc.stderr
    assert not (content_copy / "releases" / "2.9.yaml").exists()


def test_a_skeleton_check_would_refuse_is_not_left_behind(content_copy, tmp_path):
    """A date before the previous release's: check refuses it, so nothing stays written."""
    proc = new_release(content_copy, tmp_path, "--date", "2020-01-01", "--commits", "3", "--contributors", "3")
    assert proc.returncode == 1 and "not after 2.8" in proc.stderr
    assert not (content_copy / "releases" / "2.9.yaml").exists()
    assert not (content_copy / "changes" / "2.9.yaml").exists()
