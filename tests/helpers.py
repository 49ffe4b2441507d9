"""Helpers more than one test module uses (fixtures stay in conftest.py). A test module imports
its helpers from here, never from another test module."""

from __future__ import annotations

from pathlib import Path


def position(path: Path, text: str, after: int = 0) -> str:
    """`line:col` (1-based, as problems give them) of the first `text` in the file, `after`
    characters into it. A test finds the place it checks, so an edit of the fixture that moves
    the lines does not break it."""
    source = path.read_text(encoding="utf-8")
    assert text in source, f"{text!r} is not in {path}"
    index = source.index(text) + after
    start = source.rfind("\n", 0, index) + 1
    return f"{source.count(chr(10), 0, index) + 1}:{index - start + 1}"


def line_of(path: Path, text: str) -> int:
    """The line number of the first `text` in the file."""
    return int(position(path, text).split(":")[0])
