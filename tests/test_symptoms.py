"""A change's `symptom:` is data, like its record line: each message is written exactly as the
release notes it was imported from give it (issue 36). Compared with single spaces, without the
`# ` of a code comment the notes wrap a message in."""

from __future__ import annotations

import re

import yaml

from tests.conftest import ROOT

CHANGES = ROOT / "content" / "changes"
SOURCES = ROOT / "content" / "sources"


def _words(text: str) -> str:
    text = re.sub(r"(?m)^\s*#\s?", "", text)
    return " ".join(text.split())


def _symptoms() -> list[tuple[str, str]]:
    out = []
    for path in sorted(CHANGES.glob("*.yaml")):
        release = yaml.safe_load(path.read_text(encoding="utf-8"))
        for change in release["changes"]:
            found = change.get("symptom") or []
            for message in [found] if isinstance(found, str) else found:
                out.append((release["release"], message))
    return out


def test_every_symptom_is_the_notes_text_exactly():
    symptoms = _symptoms()
    assert len(symptoms) >= 10
    for release, message in symptoms:
        notes = sorted(SOURCES.glob(f"release-notes-v{release}.0*.md"))
        assert notes, release
        text = " ".join(_words(p.read_text(encoding="utf-8")) for p in notes)
        assert _words(message) in text, (release, message)


def test_a_changed_letter_is_caught():
    """Not vacuous: a message the notes do not give fails the comparison."""
    notes = _words((SOURCES / "release-notes-v2.14.0.md").read_text(encoding="utf-8"))
    assert "unexpected keyword argument 'use_cuda'" in notes
    assert "unexpected keyword argument 'use_cuda2'" not in notes
