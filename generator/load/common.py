"""What the load modules share: how a path is shown in messages, value normalisers, and what is
built of a document as a derivation of the build session (live preview builds again only what
a save touched)."""

from __future__ import annotations

from pathlib import Path

from ..model.errors import Problem, did_you_mean
from .yamlsrc import Document


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


def collected(derive, fn, *args, problems: list[Problem], key=None):
    """fn(*args, found) as a derivation of the build session (`derive`, generator.util.session: its
    value and what it found are kept while its arguments are the same), its problems added to
    `problems`. `key` tells apart the calls of one function for several files."""
    value, found = derive(_found, fn, *args, key=(fn.__qualname__, key))
    problems.extend(found)
    return value


def _found(fn, *args) -> tuple:
    """fn(*args, found): its value, and the problems it found."""
    found: list[Problem] = []
    return fn(*args, found), found


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
