"""A change's subject is a question until the content answers it (README "How a line is matched"):
`check` lists each grouped change whose record line proposes a subject the content has not
confirmed, scan matches only confirmed subjects, and import-notes never turns a change list check
passes into one it refuses."""

from __future__ import annotations

from pathlib import Path

from generator.enrich import changeviews
from generator.enrich.enrich import enrich
from generator.enrich.invariants import check
from generator.load.load import load
from tests.conftest import run_cli

# A removal whose record line names its replacement too: the words propose both names, and a scan
# by that proposal would flag every plain torch.onnx.export call as a removal.
RECORD = "- Remove `torch.onnx.dynamo_export`; use `torch.onnx.export` instead (#306)"
PLANTED = (
    f'  - section: bc-breaking\n    area: ONNX\n    text: "{RECORD}"\n    prs: [306]\n    kind: api-removed\n'
    "    note: Call the exporter itself.\n    ends: [torch.onnx.dynamo_export]\n"
)
QUESTION = (
    "unconfirmed subject: is it about torch.onnx.dynamo_export, torch.onnx.export, as its record line suggests? "
    "answer with `subject:` (what code must use for it to apply; [] for nothing code names)"
)
CODE = 'import torch\n\ntorch.onnx.dynamo_export(model, x)\ntorch.onnx.export(model, x, "m.onnx")\n'


def plant(content: Path, answer: str = "") -> tuple[int, int]:
    """The planted removal in 2.8's change list (with `answer`, its hand lines); the line and
    column of its record line."""
    path = content / "changes" / "2.8.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  - section: improvements\n", PLANTED + answer + "  - section: improvements\n", 1))
    lines = path.read_text(encoding="utf-8").splitlines()
    return next((i, line.index(RECORD) + 1) for i, line in enumerate(lines, 1) if RECORD in line)


def planted_view(content: Path):
    site = enrich(load(content))
    views = (v for s in site.release_views["2.8"].sections for a in s.areas for v in a.changes)
    return site, next(v for v in views if RECORD in v.change.text)


def test_a_wrong_proposal_fails_check_at_its_line_and_is_not_matched_meanwhile(content_copy):
    line, col = plant(content_copy)
    site, view = planted_view(content_copy)
    assert (view.group, view.subject, view.subject_confirmed) == ("removals", (), False)
    proc = run_cli("check", "--content", str(content_copy))
    assert proc.returncode == 1, proc.stderr
    said = [m for m in proc.stderr.splitlines() if "unconfirmed" in m]
    path = content_copy / "changes" / "2.8.yaml"
    assert said == [f'{path}:{line}:{col}: {QUESTION} (README "How a line is matched")'], proc.stderr


def test_the_content_s_answer_is_what_scan_matches(content_copy, tmp_path):
    plant(content_copy, "    subject: [torch.onnx.dynamo_export]\n")
    site, view = planted_view(content_copy)
    assert check(site, content_copy) == [] and view.subject == ("torch.onnx.dynamo_export",)
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / "export.py").write_text(CODE, encoding="utf-8")
    proc = run_cli("scan", str(tmp_path / "code"), "--from", "2.7", "--to", "2.8", "--content", str(content_copy))
    assert [f.split(": ")[0].rsplit(":", 1)[1] for f in proc.stdout.splitlines() if "dynamo_export" in f] == ["3"]
    assert "export.py:4:" not in proc.stdout, proc.stdout


def test_subject_none_answers_that_it_is_about_no_name(content_copy):
    plant(content_copy, "    subject: []\n")
    site, view = planted_view(content_copy)
    assert check(site, content_copy) == [] and (view.subject, view.subject_confirmed) == ((), True)


NOTES = """# PyTorch 2.9.0 Release Notes

# Backwards Incompatible Changes

- Remove `torch.onnx.dynamo_export`; use `torch.onnx.export` instead (#306)

# Bug Fixes

- Fixed a crash in `torch.mesh` (#302)
"""


def import_notes(content: Path, notes: Path, text: str):
    notes.write_text(text, encoding="utf-8")
    return run_cli("import-notes", str(notes), "--release", "2.9", "--content", str(content))


def test_a_first_import_writes_the_question_check_asks(content_copy, tmp_path):
    notes = tmp_path / "release-notes-v2.9.0.md"
    notes.write_text(NOTES, encoding="utf-8")
    proc = run_cli(
        "new-release", "2.9", "--notes", str(notes), "--content", str(content_copy),
        "--date", "2025-10-15", "--commits", "300", "--contributors", "30",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    target = content_copy / "changes" / "2.9.yaml"
    said = [m for m in proc.stderr.splitlines() if "unconfirmed subject" in m]
    checked = run_cli("check", "--content", str(content_copy))
    asked = [m for m in checked.stderr.splitlines() if "unconfirmed subject" in m]
    assert checked.returncode == 1 and asked == [f'{said[0]} (README "How a line is matched")'], checked.stderr
    assert said[0].startswith(f"{target}:") and said[0].endswith(QUESTION), said
    assert "is it about torch.onnx.dynamo_export, torch.onnx.export, as its record line suggests? write" in proc.stdout


def test_a_reimport_refuses_a_question_the_file_it_replaces_did_not_ask(content_copy, tmp_path):
    notes = tmp_path / "release-notes-v2.9.0.md"
    assert import_notes(content_copy, notes, NOTES).returncode == 0
    target = content_copy / "changes" / "2.9.yaml"
    answered = target.read_text(encoding="utf-8").replace(
        "    prs: [306]\n", "    prs: [306]\n    note: Call the exporter.\n    kind: api-removed\n"
        "    ends: [torch.onnx.dynamo_export]\n    subject: [torch.onnx.dynamo_export]\n",
    )  # fmt: skip
    target.write_text(answered, encoding="utf-8")
    again = import_notes(content_copy, notes, NOTES)  # the answers follow the change: nothing asked
    assert again.returncode == 0 and "unconfirmed" not in again.stderr, again.stderr
    assert target.read_text(encoding="utf-8") == answered
    grown = NOTES.replace("# Bug Fixes", "- Remove `torch.sprocket` (#307)\n\n# Bug Fixes")
    refused = import_notes(content_copy, notes, grown)
    assert refused.returncode == 1 and target.read_text(encoding="utf-8") == answered, refused.stderr
    line = grown.splitlines().index("- Remove `torch.sprocket` (#307)") + 1
    assert [m for m in refused.stderr.splitlines() if "unconfirmed" in m] == [
        f"{notes}:{line}: unconfirmed subject: is it about torch.sprocket, as its record line suggests? answer with "
        "`subject:` (what code must use for it to apply; [] for nothing code names); the file it replaces did not "
        "ask it: answer it there first"
    ]


def test_a_subject_of_environment_variables_keeps_the_change_on_its_backends():
    """Python code that names no backend fails on every backend (the removed `use_cuda=`); an
    environment variable or a flag is read by the backend's build that reads it (2.14's ROCm-only
    TORCHINDUCTOR_ORIGAMI default), so it keeps the change on the backends its heading names."""
    ids = ("cuda", "rocm", "mps", "cpu")
    assert changeviews.every_backend(("torch.profiler.profile(use_cuda=)",), ids)
    assert changeviews.every_backend(("TORCHINDUCTOR_REORDER_FOR_PEAK_MEMORY", "reorder_for_peak_memory"), ids)
    assert not changeviews.every_backend(("TORCHINDUCTOR_ORIGAMI",), ids)
    assert not changeviews.every_backend(("--rdzv-backend",), ids)
    assert not changeviews.every_backend(("torch.cuda.memory_reserved",), ids)
    assert not changeviews.every_backend((), ids)
