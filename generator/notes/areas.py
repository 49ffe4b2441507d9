"""The area of a change no heading files under, from its wording (a helper of _notes_parser):
an area name the same notes use, or a module or cue word of WORDING, found in its record line,
then in a summary heading over it."""

from __future__ import annotations

import re
from dataclasses import replace

from ..markup.textfilters import record_line
from .syntax import AREA_SEPARATOR, REF

# Cue words -> the area names (normalised by `_area_key`) they point to, most specific first.
# A change without an area takes the first of these names that its own notes use as an area.
WORDING: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), names)
    for pattern, names in (
        (
            r"\bci/cd\b|\bwheels?\b|manylinux|anaconda|cxx11_abi|\bbinaries\b|supported python version"
            r"|support for python versions",
            ("release engineering", "releng"),
        ),
        (r"\bmacos\b|\bmetal\b", ("mps",)),
        (r"\bbuilds?\b|\bc\+\+\d\d\b|\bheader guards?\b", ("build", "release engineering", "releng")),
        (r"\boperator schemas?\b", ("composability",)),
        (r"\bStorageImpl\b|\bc10::", ("c++ extensions", "c++", "cpp")),
        (r"\bnamed tensors?\b", ("python",)),
        (r"\bcustom operators?\b|\bcustom ops?\b|torch\.library\b", ("composability",)),
        (r"stable::|\bshim\b|\blibtorch\b", ("c++ extensions", "c++", "cpp")),
        (r"\bdataloader\b|torch\.utils\.data\b", ("dataloader",)),
        (r"\bc10d\b|\bnccl\b|\bprocessgroup\w*|\bdcp\b|\bfsdp2?\b|\bdtensor\b|torch\.distributed\b", ("distributed",)),
        (
            r"\blr_?scheduler\b|torch\.optim\b|\boptimizers?\b"
            r"|\b(?:adadelta|adagrad|adamw?|adamax|asgd|nadam|radam|rmsprop|rprop|sgd|lbfgs)\b",
            ("optim", "optimizer"),
        ),
    )
)

# Section heading text (lower-cased, emoji/punctuation/bold removed) -> section id, from the one
# table of sections (model.SECTIONS). None means "Highlights": it feeds features, not changes,
# and is skipped.


def _area_key(name: str) -> str:
    """An area name reduced for matching: "torch.nn" -> "nn", "Build Frontend" -> "build",
    "Ahead-Of-Time Inductor (AOTI)" -> "ahead-of-time inductor"."""
    key = re.sub(r"\([^)]*\)", " ", name.lower())
    key = " ".join(key.split()).removeprefix("torch.")
    return key.removesuffix(" frontend").removesuffix(" api").strip()


_CODE_SPAN = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")


def areas_from_wording(changes: list, summaries: list[tuple[str, ...]]) -> tuple:
    """The changes (_notes_parser.ImportedChange), each without an area given one from its
    wording where it names one (see the module docstring); the names come from the areas the
    same notes use."""
    names: dict[str, str] = {}  # key -> area, the top-level areas of these notes in order of use
    for change in changes:
        top = change.area.split(AREA_SEPARATOR)[0]
        if top:
            names.setdefault(_area_key(top), top)
    out = []
    for change, summary in zip(changes, summaries, strict=True):
        if not change.area:
            first = record_line(change.text)
            area = next(filter(None, (_area_in(line, names) for line in (first, *summary))), "")
            change = replace(change, area=area)
        out.append(change)
    return tuple(out)


def _area_in(line: str, names: dict[str, str]) -> str:
    """The area `line` points to: a cue of WORDING, a `torch.<module>` in its code, or an area
    name in its prose (in that order); "" when none."""
    line = REF.sub(" ", _LINK.sub(r"\1", re.sub(r"^\s*(?:#+|[-*+])\s*", "", line)))
    keys = [key for cue, keys in WORDING if cue.search(line) for key in keys]
    keys += [
        part
        for code in _CODE_SPAN.findall(line)
        for m in re.findall(r"\btorch((?:\.\w+)+)", code)
        for part in m.lower().split(".")[1:]
    ]
    found = next((names[key] for key in keys if key in names), None)
    if found is not None:
        return found
    prose = _CODE_SPAN.sub(" ", line).lower()
    return next((area for key, area in names.items() if re.search(rf"(?<![\w.]){re.escape(key)}(?![\w])", prose)), "")
