"""The hand-written remarks on changes are our own words: no run of 8 words shared with the notes."""

from pathlib import Path

import yaml

from tests.helpers import runs, words_of

ROOT = Path(__file__).resolve().parent.parent


def test_runs_are_found_whatever_the_case_code_marks_and_links():
    source = runs(words_of("Use `torch.linalg.cholesky()`, which returns the lower factor now ([#1](https://x/1))."))
    copied = runs(words_of("use torch.linalg.cholesky() which returns the Lower factor now, says the note"))
    assert copied & source
    assert not runs(words_of("call torch.linalg.cholesky, whose result is the lower factor")) & source


def test_notes_and_workarounds_share_no_8_word_run_with_the_release_notes():
    checked = 0
    for path in sorted((ROOT / "content" / "changes").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        # Every copy of the release's notes (2.0: the draft and the published Highlights).
        notes = sorted((ROOT / "content" / "sources").glob(f"release-notes-v{data['release']}.0*.md"))
        assert notes, f"{path.name}: no release notes in content/sources"
        source = set().union(*(runs(words_of(p.read_text(encoding="utf-8"))) for p in notes))
        for change in data["changes"]:
            for field in ("note", "workaround"):
                if change.get(field):
                    shared = runs(words_of(change[field])) & source
                    assert not shared, f"{path.name}: {field} of {change['text'][:60]!r}: {' '.join(min(shared))}"
                    checked += 1
    assert checked >= 240


def test_an_exception_or_warning_a_note_names_is_one_the_sources_name():
    """Issue 45: 2.6's note quoted an `UnpicklingError` ("Weights only load failed") that no source
    in content/sources/ holds. A note, workaround or summary names only errors the sources name."""
    import re

    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "content" / "sources").glob("*.md"))
    said = []
    for path in sorted((ROOT / "content").glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        items = [*(data.get("changes") or []), *(data.get("features") or []), *(data.get("patches") or [])]
        said += [
            (path.name, i.get(f) or "") for i in items if isinstance(i, dict) for f in ("note", "workaround", "summary")
        ]
    named = {(name, m) for name, text in said for m in re.findall(r"\b[A-Z]\w*(?:Error|Exception|Warning)\b", text)}
    assert len(said) > 1000
    assert not {(name, m) for name, m in named if m not in sources}
