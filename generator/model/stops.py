"""Where a support (a Python, CUDA or ROCm version) stops: the record enrich.supports computes
once and the environment box, the feature pages and the API read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # computed imports this module: the type is only named here
    from .computed import Evidence

STOP_FIELDS = (
    "feature",
    "removed_in",
    "last",
    "releases",
    "listed_last",
    "deprecated_in",
    "removal_planned",
    "also_in",
)
"""The fields of a stop that state something, in the order their evidence is listed: a field
with no value has none."""


@dataclass(frozen=True)
class SupportStop:
    """Where a Python, CUDA or ROCm version's wheels stop (generator.enrich.supports): the one answer
    the environment box, the feature page and the API give, with what it rests on."""

    kind: str  # "python", "cuda", "rocm"
    value: str  # as the compatibility rows write it: "3.9", "3.13t", "12.8", "6.2.4"
    ships: tuple[str, ...]  # the releases that ship a wheel for it, oldest first
    last: str | None  # the last of them; None where no release on the Atlas does
    removed_in: str | None  # the release it stops in; None while the newest release ships it
    removed_by: str  # "entry" (the notes), "compatibility" (the first row without it), "last", ""
    listed_last: str | None  # the last compatibility row that lists it (shown where the notes differ)
    deprecated_in: str | None  # its feature's ending, where a catalogue feature is its support
    removal_planned: str | None
    feature: str  # that feature's id, "" when none is
    # What each stated field (STOP_FIELDS; `ships` is "releases") was read from, in that order:
    # compatibility rows, its feature's page and ending (entries and their sources), another source.
    evidence: Evidence
    also_in: tuple[str, ...] = ()  # releases another source lists it for, where the matrix does not
