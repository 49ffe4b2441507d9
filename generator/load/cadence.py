"""content/cadence.yaml: the releases RELEASE.md's cadence plans, what is known to have shipped
before its release file was written, steps announced for a later release, and `as_of`, the day
the sources were last checked (the build's today: a planned day before it has passed)."""

from __future__ import annotations

import datetime as dt

from ..model.content import DueStep, PlannedRelease, Shipped, version_key
from ..model.errors import Problem
from .releases import _date
from .yamlsrc import Document


def planned(doc: Document, problems: list[Problem]) -> tuple[PlannedRelease, ...]:
    """cadence.yaml's planned releases, each planned after the one before it; one known to have
    shipped did so by `as_of`."""
    as_of = today(doc, problems)
    out: list[PlannedRelease] = []
    for i, raw in enumerate(doc.data["planned"]):
        at = ("planned", i)
        when = _date(doc, (*at, "release"), raw["release"], problems)
        cut = _date(doc, (*at, "branch_cut"), raw["branch_cut"], problems) if "branch_cut" in raw else None
        if when is None:
            continue
        if out and (version_key(raw["version"]) <= version_key(out[-1].version) or when <= out[-1].release):
            problems.append(doc.problem(at, f"{raw['version']} is not planned after {out[-1].version}"))
        elif cut is not None and cut >= when:
            problems.append(doc.problem((*at, "branch_cut"), f"the branch cut {cut} is not before the release {when}"))
        shipped = Shipped(**raw["shipped"]) if "shipped" in raw else None
        if shipped and (as_of is None or shipped.month > as_of.isoformat()[:7]):
            problems.append(doc.problem((*at, "shipped", "month"), f"shipped {shipped.month}, after as_of {as_of}"))
        out.append(PlannedRelease(raw["version"], when, cut, raw.get("first_patch"), shipped))
    return tuple(out)


def today(doc: Document, problems: list[Problem]) -> dt.date | None:
    """cadence.yaml's `as_of`: the day the sources were last checked, None when not given."""
    return _date(doc, ("as_of",), doc.data["as_of"], problems) if "as_of" in doc.data else None


def due(doc: Document, versions: set[str], problems: list[Problem]) -> tuple[DueStep, ...]:
    """cadence.yaml's `due` steps, each in a release the cadence plans or a release file holds."""
    out = []
    for i, raw in enumerate(doc.data.get("due", ())):
        if raw["version"] not in versions:
            problems.append(doc.problem(("due", i, "version"), f"{raw['version']} is neither planned nor released"))
        out.append(DueStep(raw["version"], raw["what"], raw.get("announced_in"), raw["source"]))
    return tuple(out)
