"""Where a support (a Python, CUDA or ROCm version) stops: the record enrich.supports computes
once and the environment box, the feature pages and the API read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cited:
    """One thing a derived fact was read from: a record, entry or compatibility row on the Atlas
    (`url` site-relative) or upstream (a PR, a source document: `url` absolute)."""

    label: str  # "2.12 change record", "#179110", "2.13 compatibility row"
    url: str

    @property
    def external(self) -> bool:
        return self.url.startswith(("https://", "http://"))


Evidence = tuple[tuple[str, tuple[Cited, ...]], ...]
"""(stated field, what it was read from) for each field an ending states, in field order."""


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
