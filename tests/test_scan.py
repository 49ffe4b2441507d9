"""`python -m generator scan`: a small codebase written for the test, with usages of changes the real
content records (each planted line says what it must be found for) and files that must stay silent;
the files it cannot read; its exit codes; the same answers from a built site's API."""

from __future__ import annotations

import errno
import json
import re
from pathlib import Path

import pytest

from generator.pipeline.build import site_url
from generator.render import api
from generator.tools import scan
from tests.conftest import FIXTURE, real_model, run_cli

# Each line ending "# finds: RELEASE WORDS" must be reported for a change of that release and
# step (scan.GROUP_WORDS); every other line must stay silent.
CODEBASE = {
    "train/load.py": """\
import torch


def restore(path):
    state = torch.load(path, map_location="cpu")  # finds: 2.6 default change
    return state
""",
    "train/export.py": """\
import torch
from torch.export import export_for_training  # finds: 2.9 deprecation, 2.11 removal


def to_onnx(model, sample):
    return torch.onnx.dynamo_export(model, sample)  # finds: 2.9 removal
""",
    "train/env.py": """\
import os
import torch

os.environ["TORCHINDUCTOR_REORDER_FOR_PEAK_MEMORY"] = "0"  # finds: 2.6 default change
hub = torch.hub.load("owner/repo", "model")  # finds: 2.11 default change
trusted = torch.hub.load("owner/repo", "model", trust_repo=True)
""",
    "train/linalg.py": """\
import torch


def factor(a):
    return torch.cholesky(a)  # finds: 2.14 removal
""",
    "clean/util.py": """\
\"\"\"Helpers that touch nothing an upgrade changes.\"\"\"

import json


def load_config(path):
    with open(path) as f:
        return json.load(f)


def first_item(values):
    try:
        return values[0].item()
    except (IndexError, ValueError, RuntimeError):
        return None
""",
    "clean/math_ops.py": """\
def scale(xs, factor=2):
    # Cloning, seeding and caching are plain words here.
    return [x * factor for x in xs if x is not None]
""",
    "notes/README.txt": "torch.load is not Python: this file is not scanned\n",
}


def plant(root: Path) -> dict[tuple[str, int], set[tuple[str, str]]]:
    """Write the codebase under `root`; return what each planted line must be found for."""
    expected = {}
    for rel, text in CODEBASE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if m := re.search(r"# finds: (.*)$", line):
                wants = {tuple(w.strip().split(" ", 1)) for w in m[1].split(",")}
                expected[(path.as_posix(), number)] = wants
    return expected


@pytest.fixture(scope="module")
def real_targets() -> list[scan.Target]:
    site = real_model()
    releases = [api.release_record(site, r.version, site_url()) for r in site.releases]
    return scan.targets(releases, "2.5", "2.14")


def test_every_planted_usage_is_found_and_clean_files_stay_silent(tmp_path, real_targets):
    expected = plant(tmp_path)
    report = scan.scan_tree(tmp_path, real_targets)
    found: dict[tuple[str, int], set[tuple[str, str]]] = {}
    for f in report.findings:
        found.setdefault((f.path, f.line), set()).add((f.target.release, scan.GROUP_WORDS[f.target.group]))
    missing = {where: wants - found.get(where, set()) for where, wants in expected.items()}
    assert {w: m for w, m in missing.items() if m} == {}
    assert set(found) == set(expected), "a line nobody planted was reported"
    assert report.files == 6 and report.skipped == []  # README.txt is not a .py file
    assert report.exit_code == 1


def test_a_finding_says_where_what_and_links_the_change(tmp_path, real_targets):
    plant(tmp_path)
    report = scan.scan_tree(tmp_path / "train" / "linalg.py", real_targets)
    (finding,) = report.findings
    line = finding.text()
    assert line.startswith(f"{(tmp_path / 'train' / 'linalg.py').as_posix()}:5: 2.14 removal of torch.cholesky: ")
    assert "torch.linalg.cholesky" in line  # what to do: the change's note
    assert re.search(r" http://\S+/releases/2\.14/#c-[0-9a-f]{8}(-\d+)?$", line)


def test_a_deprecation_alone_exits_0(tmp_path, real_targets):
    (tmp_path / "a.py").write_text("from torch.distributed.symmetric_memory import enable_symm_mem_for_group\n")
    report = scan.scan_tree(tmp_path, real_targets)
    assert {f.target.group for f in report.findings} == {"deprecations"}
    assert report.exit_code == 0


def test_files_it_cannot_read_get_one_line_each_and_the_scan_goes_on(tmp_path, real_targets, monkeypatch):
    plant(tmp_path)
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "binary.py").write_bytes(b"\x00\x01torch.load\x00")
    (odd / "latin1.py").write_bytes("x = 'caf\xe9'  # torch.load\n".encode("latin-1"))
    (odd / "big.py").write_text("x = 1\n" * 400, encoding="utf-8")
    (odd / "loop.py").symlink_to("loop.py")
    (odd / "up").symlink_to("..", target_is_directory=True)  # a folder loop: never entered
    (odd / "locked.py").write_text("torch.load(p)\n", encoding="utf-8")
    monkeypatch.setattr(scan, "MAX_BYTES", 1000)
    real_read = Path.read_bytes

    def read_bytes(self):
        if self.name == "locked.py":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    report = scan.scan_tree(tmp_path, real_targets)
    why = {Path(p).name: w for p, w in report.skipped}
    assert why == {
        "binary.py": "a binary file",
        "latin1.py": "not UTF-8 (byte 0xe9 at offset 8)",
        "big.py": "larger than 1,000 bytes",
        "loop.py": "a symlink loop",
        "locked.py": "no permission to read it",
    }
    assert report.files == 6  # the planted codebase, each file once
    assert len(report.findings) >= 6


def test_the_cli_prints_one_line_per_unreadable_file_and_no_traceback(tmp_path):
    (tmp_path / "ok.py").write_text("import torch\ntorch.cat([a, b])\n", encoding="utf-8")
    (tmp_path / "bad.py").write_bytes(b"\xff\xfe")
    (tmp_path / "loop.py").symlink_to("loop.py")
    proc = run_cli("scan", str(tmp_path), "--from", "2.7", "--to", "2.8", "--content", str(FIXTURE))
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    skipped = [line for line in proc.stderr.splitlines() if ": skipped: " in line]
    assert sorted(skipped) == [
        f"{(tmp_path / 'bad.py').as_posix()}: skipped: not UTF-8 (byte 0xff at offset 0)",
        f"{(tmp_path / 'loop.py').as_posix()}: skipped: a symlink loop",
    ]
    (line,) = proc.stdout.splitlines()
    assert line.startswith(f"{(tmp_path / 'ok.py').as_posix()}:2: 2.8 default change of torch.cat: ")


@pytest.mark.parametrize(
    ("code", "exit_code"),
    [
        ("import torch\ntorch.cat([a, b])\n", 1),  # a default change: can break code
        ("import warnings  # nothing of an upgrade\n", 0),
    ],
)
def test_exit_codes(tmp_path, code, exit_code):
    (tmp_path / "m.py").write_text(code, encoding="utf-8")
    proc = run_cli("scan", str(tmp_path), "--from", "2.7", "--to", "2.8", "--content", str(FIXTURE))
    assert proc.returncode == exit_code, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--from", "2.7", "--to", "2.9"], "release 2.9 is not covered by the Atlas (it covers 2.7 to 2.8"),
        (["--from", "2.7", "--to", "2.x8"], "no release '2.x8' (did you mean '2.8'?)"),
        (["--from", "2.8", "--to", "2.7"], "--from 2.8 must be older than --to 2.7"),
        (["--from", "2.7"], "the following arguments are required: --to"),
        (["--from", "2.7", "--to", "2.8", "--format", "xml"], "invalid choice: 'xml'"),
        (["--from", "2.7", "--to", "2.8", "--backend", "cudaa"], "no backend 'cudaa' (did you mean 'cuda'?)"),
    ],
)
def test_bad_usage_exits_2_with_one_line(tmp_path, args, says):
    proc = run_cli("scan", str(tmp_path), *args, "--content", str(FIXTURE))
    assert proc.returncode == 2 and says in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_a_missing_path_exits_2(tmp_path):
    proc = run_cli("scan", str(tmp_path / "nowhere"), "--from", "2.7", "--to", "2.8", "--content", str(FIXTURE))
    assert proc.returncode == 2 and proc.stderr.strip() == f"error: {tmp_path / 'nowhere'}: no such file or folder"


def test_json_output_and_a_built_site_give_the_content_answers(tmp_path, fixture_site):
    (tmp_path / "m.py").write_text("import torch\nx = torch.cat([a, b])\n", encoding="utf-8")
    base = ["scan", str(tmp_path), "--from", "2.7", "--to", "2.8", "--format", "json"]
    from_content = run_cli(*base, "--content", str(FIXTURE))
    from_site = run_cli(*base, "--site", str(fixture_site))
    assert from_content.returncode == from_site.returncode == 1
    assert from_content.stdout == from_site.stdout
    data = json.loads(from_content.stdout)
    assert [(f["line"], f["symbol"], f["release"], f["group"], f["breaks"]) for f in data["findings"]] == [
        (2, "torch.cat", "2.8", "defaults", True),
    ]
    assert data["files"] == 1 and data["skipped"] == []


def test_a_folder_that_is_not_a_site_exits_2(tmp_path):
    proc = run_cli("scan", str(tmp_path), "--from", "2.7", "--to", "2.8", "--site", str(tmp_path))
    assert proc.returncode == 2 and "not a built Atlas site" in proc.stderr


def test_bench_scans_the_synthetic_tree_and_finds_its_plants():
    result = scan.bench(200, FIXTURE)
    assert result["files"] == 200 and result["findings"] == 4  # every 50th file uses a name


def test_os_walk_order_is_sorted(tmp_path):
    for name in ("b.py", "a.py", "c/z.py", "c/a.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    assert [p.relative_to(tmp_path).as_posix() for p in scan.python_files(tmp_path)] == [
        "a.py",
        "b.py",
        "c/a.py",
        "c/z.py",
    ]


CORPUS = Path(__file__).parent / "data" / "scan_corpus"


def _real_releases() -> list[dict]:
    site = real_model()
    return [api.release_record(site, r.version, site_url()) for r in site.releases]


def test_the_labelled_corpus_holds_precision_and_recall():
    """tests/data/scan_corpus: every planted hazard found, and at most 5% of findings false."""
    from generator.tools import measure

    score = measure.measure(CORPUS, _real_releases())
    assert len(list(CORPUS.glob("*.py"))) >= 30 and score.hazards >= 40 and score.distractors >= 40
    assert len(score.releases) >= 8
    assert score.expected - score.found == set(), "a planted hazard was missed"
    assert score.precision >= 0.95, sorted(score.found - score.expected)


def test_a_python_api_change_stays_in_every_backends_scan(tmp_path):
    """The 2.14 use_cuda removal raises TypeError on every backend; its record lists cuda."""
    (tmp_path / "p.py").write_text(
        "from torch.profiler import profile\n\nwith profile(use_cuda=True):\n    pass\n", encoding="utf-8"
    )
    releases = _real_releases()
    for backend in ("", "cuda", "rocm", "cpu", "mps"):
        found = scan.targets(releases, "2.13", "2.14", backend)
        report = scan.scan_tree(tmp_path, found)
        assert [(f.line, f.matched) for f in report.findings] == [(3, "torch.profiler.profile(use_cuda=)")], backend


def test_the_guide_keeps_it_for_every_backend_and_drops_the_cuda_arch_change_for_rocm():
    from generator.enrich import enrich

    site = real_model()
    for backend in ("rocm", "cpu", "mps"):
        removals = enrich.guide(site, "2.13", "2.14", backend)["removals"]
        assert any(192543 in v.change.prs for v in removals), backend
    breaking = [v for g in ("breaking", "defaults", "removals") for v in enrich.guide(site, "2.11", "2.12", "rocm")[g]]
    assert not any(175574 in v.change.prs for v in breaking)


def test_a_range_without_change_lists_names_them_and_exits_3(tmp_path):
    (tmp_path / "m.py").write_text("import torch\nx = torch.cat([a, b])\n", encoding="utf-8")
    proc = run_cli("scan", str(tmp_path), "--from", "2.0", "--to", "2.3")
    assert proc.returncode == scan.EXIT_UNCOVERED == 3, proc.stderr
    assert "2.1, 2.2: the Atlas holds no change list for these releases" in proc.stderr


def test_a_release_the_atlas_does_not_cover_is_named_so():
    proc = run_cli("scan", ".", "--from", "2.5", "--to", "2.15")
    assert proc.returncode == 2 and "release 2.15 is not covered by the Atlas" in proc.stderr
    assert "did you mean" not in proc.stderr


def test_the_paste_box_keeps_what_scan_finds_on_the_corpus():
    """One answer: pasting a corpus file, or one of its lines under the file's imports, into
    /upgrade/'s code box keeps exactly the changes scan finds in what was pasted
    (generator.tools.paste is atlas-rules.js pasteUses's reference)."""
    from generator.tools import paste

    found = scan.targets(_real_releases(), "2.5", "2.14")
    checked = 0
    for path in sorted(CORPUS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        imports = {n for n, line in enumerate(lines, 1) if line.startswith(("import ", "from "))}
        findings = scan.scan_tree(path, found).findings
        pastes = [(text, None)] + [
            ("\n".join(lines[k - 1] for k in sorted(imports | {n})), imports | {n})
            for n in range(1, len(lines) + 1)
            if n not in imports and lines[n - 1].strip()
        ]
        for pasted_text, numbers in pastes:
            scanned = {f.target for f in findings if numbers is None or f.line in numbers}
            uses = paste.uses(pasted_text)
            assert {t for t in found if paste.used(t.subject, uses, t.group)} == scanned, (path.name, pasted_text)
            checked += 1
    assert checked > 150
