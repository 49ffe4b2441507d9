"""What the load modules share: how a path is shown in messages, value normalisers, and a
document's parts kept while the document is unchanged (live preview re-builds only what a save
touched)."""

from __future__ import annotations

import operator
from pathlib import Path

from .errors import Problem, did_you_mean
from .yamlsrc import Document

_OF_DOCUMENT: dict[tuple[str, str], tuple] = {}


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _as_tuple(value) -> tuple:
    """A single value where a list is allowed becomes a one-item tuple."""
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


def _of_document(doc: Document | tuple[Document, ...], what: str, key, make):
    """`make()`, a (value, problems) pair computed from `doc` (one document, or several) and
    `key` alone, kept while `_PARSED` hands out the same documents for their files, if it found
    no problem: live preview then does not rebuild 5,000 changes, their anchors, a release or
    the registries for an edit elsewhere, and comparing the old model with the new one
    (generator.reads) finds them identical at once. One value of each kind per file (per first
    file, for several), as `_PARSED` keeps one document."""
    docs = doc if isinstance(doc, tuple) else (doc,)
    slot = (docs[0].path if docs else "", what)
    kept = _OF_DOCUMENT.get(slot)
    if kept is not None and len(kept[0]) == len(docs) and all(map(operator.is_, kept[0], docs)) and kept[1] == key:
        return kept[2]
    value = make()
    if not value[1]:
        _OF_DOCUMENT[slot] = (docs, key, value)
    return value


def _collected(doc: Document | tuple[Document, ...], what: str, key, make, problems: list[Problem]):
    """`make(found)` through `_of_document`, its problems added to `problems`."""

    def build():
        found: list[Problem] = []
        return make(found), found

    value, found = _of_document(doc, what, key, build)
    problems.extend(found)
    return value


def _listed(value) -> tuple:
    """A field that takes one value or a list of them, as a tuple."""
    return (value,) if isinstance(value, str) else tuple(value)


def _check_id(doc: Document, pointer: tuple, kind: str, value: str, ids: dict, problems: list[Problem]) -> None:
    if value not in ids[kind]:
        problems.append(doc.problem(pointer, f"unknown {kind} '{value}'{did_you_mean(value, ids[kind])}"))


def _unknown_feature(fid: str, catalogue: dict) -> str:
    """Why an id is not a feature: a former id names its successor, anything else a close match."""
    for feature in catalogue.values():
        if fid in feature.aliases:
            return f"'{fid}' is a former id of '{feature.id}': use {feature.id}"
    return f"unknown feature '{fid}': add it to features/*.yaml{did_you_mean(fid, catalogue)}"
