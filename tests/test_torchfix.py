"""TorchFix as the oracle of /api/v1/deprecated_symbols.yaml: TorchFix from PyPI (a test dependency),
run the way a user runs it with our file in place of its own, on a small codebase written for the
test (tests/data/torchfix/), reports exactly the uses planted there (`# expect: CODE name`) and none
of the look-alikes (`@torch.no_grad()`, `torch.load(..., weights_only=True)`, `torch.istft`,
`torch.testing`, the replacement APIs, names in strings and comments)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.render import symbol_data
from tests.conftest import real_model

BASE = "https://atlas.example.org/"
CODEBASE = Path(__file__).parent / "data" / "torchfix"
CODES = "TOR001,TOR004,TOR101,TOR103"  # TorchFix's deprecated-symbol findings: the ones our file drives

# TorchFix reads its data with pkgutil.get_data("torchfix", "deprecated_symbols.yaml") when its
# visitor is made (torchfix/visitors/deprecated_symbols/__init__.py): the child we start answers
# that one read with our file, and site-packages stays as installed.
RUN = f"""
import pkgutil, sys
ours, paths = sys.argv[1], sys.argv[2:]
original = pkgutil.get_data
def get_data(package, resource):
    if (package, resource) == ("torchfix", "deprecated_symbols.yaml"):
        with open(ours, "rb") as f:
            return f.read()
    return original(package, resource)
pkgutil.get_data = get_data
from torchfix.__main__ import main
sys.argv = ["torchfix", "--select", "{CODES}", "-j", "1", *paths]
main()
"""

_FINDING = re.compile(
    r"^(?P<file>[\w./-]+\.py):(?P<line>\d+):\d+: (?P<code>TOR\d+) (?:\[\*\] )?.*? function (?P<name>[\w.]+)"
)
_EXPECT = re.compile(r"# expect: (?P<code>TOR\d+) (?P<name>\S+)")


def torchfix(data: bytes, tmp_path: Path) -> set[tuple[str, int, str, str]]:
    """(file, line, code, name) of each deprecated-symbol finding TorchFix makes on the codebase with `data`."""
    ours = tmp_path / "deprecated_symbols.yaml"
    ours.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(ours), "."],
        cwd=CODEBASE,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Finished checking" in done.stderr, done.stderr  # it ran over the files
    found = set()
    for line in done.stdout.splitlines():
        if m := _FINDING.match(line):
            found.add((m["file"], int(m["line"]), m["code"], m["name"]))
    return found


def expected() -> set[tuple[str, int, str, str]]:
    out = set()
    for path in sorted(CODEBASE.glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if m := _EXPECT.search(line):
                out.add((path.name, n, m["code"], m["name"]))
    return out


@pytest.fixture(scope="module")
def ours() -> bytes:
    return symbol_data.torchfix_yaml(real_model(), BASE)


def test_torchfix_with_our_file_reports_exactly_the_planted_uses(ours, tmp_path):
    want = expected()
    assert len(want) >= 7 and {c for _, _, c, _ in want} >= {"TOR001", "TOR004", "TOR101"}
    assert torchfix(ours, tmp_path) == want


def test_the_look_alikes_are_uses_torchfix_would_flag_if_our_file_listed_them(ours, tmp_path):
    """Not vacuous: with the names a record merely mentions put back (as the file had them before),
    TorchFix flags the decorator, the safe load and the live APIs of the look-alike file."""
    wrong = b"".join(
        f'\n- name: "{name}"\n  deprecate_pr: "TBA"\n  remove_pr:{removed}\n'.encode()
        for name, removed in (
            ("torch.no_grad", ""),
            ("torch.load", ""),
            ("torch.istft", ' "https://github.com/pytorch/pytorch/pull/1"'),
        )
    )
    found = torchfix(ours + wrong, tmp_path) - expected()
    flagged = {(file, name) for file, _, _, name in found}
    assert {("train.py", "torch.no_grad"), ("train.py", "torch.load"), ("train.py", "torch.istft")} <= flagged
