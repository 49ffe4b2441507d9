"""How precise `scan` is, measured as static analysers measure a rule: on a labelled corpus of
small files (tests/data/scan_corpus/), whose `labels.yaml` names, for each file, the lines that
are hazards with the findings each must draw ("2.14 removal of torch.cholesky": the release,
the step as scan.GROUP_WORDS words it, and the subject item it matches), and the look-alike
distractor lines that must draw none. Every other line must draw none either.

Precision: labelled findings among all findings; recall: labelled findings found. tests/test_scan.py
holds them (precision >= 95%, recall 100%) and `python -m bench.scan` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import scan


@dataclass
class Score:
    expected: set = field(default_factory=set)  # (file, line, label) the labels ask for
    found: set = field(default_factory=set)  # (file, line, label) the scan reports
    hazards: int = 0  # hazard lines
    distractors: int = 0  # distractor lines
    releases: frozenset = frozenset()  # releases the hazards belong to

    @property
    def true(self) -> set:
        return self.expected & self.found

    @property
    def precision(self) -> float:
        return len(self.true) / len(self.found) if self.found else 1.0

    @property
    def recall(self) -> float:
        return len(self.true) / len(self.expected) if self.expected else 1.0


def label(finding: scan.Finding) -> str:
    """A finding as the labels name it."""
    return f"{finding.target.release} {scan.GROUP_WORDS[finding.target.group]} of {finding.matched}"


def _line_of(lines: list[str], text: str, path: Path) -> int:
    hits = [n for n, line in enumerate(lines, 1) if line.strip() == text]
    if len(hits) != 1:
        raise ValueError(f"{path}: the label {text!r} matches {len(hits)} lines, not one")
    return hits[0]


def measure(corpus: Path, releases: list[dict]) -> Score:
    """Scan every labelled file of `corpus` over the labels' range and compare with the labels."""
    labels = yaml.safe_load((corpus / "labels.yaml").read_text(encoding="utf-8"))
    found = scan.targets(releases, str(labels["from"]), str(labels["to"]))
    score = Score()
    seen = set()
    for name, said in labels["files"].items():
        path = corpus / name
        lines = path.read_text(encoding="utf-8").splitlines()
        for text, wanted in (said.get("hazards") or {}).items():
            line = _line_of(lines, text, path)
            score.expected.update((name, line, w) for w in wanted)
            seen.update(w.split(" ", 1)[0] for w in wanted)
        for text in said.get("distractors") or ():
            _line_of(lines, text, path)
        score.hazards += len(said.get("hazards") or {})
        score.distractors += len(said.get("distractors") or ())
        report = scan.scan_tree(path, found)
        if report.skipped:
            raise ValueError(f"{path}: {report.skipped[0][1]}")
        score.found.update((name, f.line, label(f)) for f in report.findings)
    score.releases = frozenset(seen)
    return score
