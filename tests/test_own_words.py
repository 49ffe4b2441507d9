"""The hand-written remarks on changes are our own words: no run of 8 words shared with the notes."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
RUN = 8


def _words(text: str) -> list[str]:
    """The words of a text, lower-cased, with link targets and code marks dropped."""
    text = re.sub(r"\]\([^)]*\)", "]", text).replace("`", "")
    return re.findall(r"[a-z0-9_.]+", text.lower())


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def test_runs_are_found_whatever_the_case_code_marks_and_links():
    source = _runs(_words("Use `torch.linalg.cholesky()`, which returns the lower factor now ([#1](https://x/1))."))
    copied = _runs(_words("use torch.linalg.cholesky() which returns the Lower factor now, says the note"))
    assert copied & source
    assert not _runs(_words("call torch.linalg.cholesky, whose result is the lower factor")) & source


def test_notes_and_workarounds_share_no_8_word_run_with_the_release_notes():
    checked = 0
    for path in sorted((ROOT / "content" / "changes").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        # Every copy of the release's notes (2.0: the draft and the published Highlights).
        notes = sorted((ROOT / "content" / "sources").glob(f"release-notes-v{data['release']}.0*.md"))
        assert notes, f"{path.name}: no release notes in content/sources"
        source = set().union(*(_runs(_words(p.read_text(encoding="utf-8"))) for p in notes))
        for change in data["changes"]:
            for field in ("note", "workaround"):
                if change.get(field):
                    shared = _runs(_words(change[field])) & source
                    assert not shared, f"{path.name}: {field} of {change['text'][:60]!r}: {' '.join(min(shared))}"
                    checked += 1
    assert checked >= 240
