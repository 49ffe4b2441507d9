"""Where each support stops, computed once: for every Python, CUDA and ROCm version a compatibility
row names (and every one a catalogue feature is the support of), the releases that ship a wheel for
it, the last of them, the release it stops in, and what that rests on. Part of the enrich stage.

The rule (README "A support's stop"): a support a catalogue feature stands for ends where that
feature's ending says (generator.enrich.facts: the notes' word first, an entry removing it, else the
first compatibility row without it), so the environment box and the feature page state one release;
any other support ends after the last compatibility row that lists it, but for a free-threaded
build, which the matrix names only while experimental: only the notes end one. Where the notes and the
matrix disagree (CUDA 12.8: the matrix lists it last in 2.11, the 2.13 notes remove its builds), the
notes decide and both are shown: the stop carries the matrix's last row beside the entry.

The environment box (generator.pages.envpaste, atlas-rules.js) looks stops up here; it computes none.
"""

from __future__ import annotations

from dataclasses import replace

from ..model import urls
from ..model.computed import Feature
from ..model.content import COMPAT_FIELDS, CatalogueFeature, Compatibility, version_key
from ..model.stops import STOP_FIELDS, Cited, SupportStop

KINDS = ("python", "cuda", "rocm")
"""The compatibility fields a pasted environment names, each a kind of support."""

Rows = tuple[tuple[str, "Compatibility | None"], ...]


def stops(
    rows: Rows, catalogue: tuple[CatalogueFeature, ...], features: tuple[Feature, ...]
) -> tuple[SupportStop, ...]:
    """Every support's stop, by kind then version."""
    versions = tuple(v for v, _ in rows)
    seen: dict[tuple[str, str], list[str]] = {}
    for version, compatibility in rows:
        for kind in KINDS:
            for value in compatibility.values(kind) if compatibility is not None else ():
                seen.setdefault((kind, value), []).append(version)
    feature_by_id = {f.id: f for f in features}
    owner = {
        (node.support[0], node.support[1]): feature_by_id[node.id]
        for node in catalogue
        if node.support and node.support[0] in KINDS and node.id in feature_by_id
    }
    for key in owner:
        seen.setdefault(key, [])
    out = [
        _also(_stop(kind, value, tuple(seen[kind, value]), owner.get((kind, value)), versions), rows)
        for kind, value in seen
    ]
    return tuple(sorted(out, key=lambda s: (KINDS.index(s.kind), _key(s.value))))


def _stop(
    kind: str, value: str, rows: tuple[str, ...], feature: Feature | None, versions: tuple[str, ...]
) -> SupportStop:
    listed_last = rows[-1] if rows else None
    after = versions[versions.index(listed_last) + 1 :] if listed_last else ()
    matrix_stop = after[0] if after else None
    ending = feature.ending if feature is not None else None
    name = f"{COMPAT_FIELDS[kind]} {value}"
    cited = _feature_cited(feature)
    if ending is not None and ending.removed_in:
        stop, by = ending.removed_in, ending.removed_by
        ships = tuple(v for v in versions if version_key(v) < version_key(stop) and (v in rows or by == "entry"))
        ships = tuple(v for v in ships if not rows or version_key(v) >= version_key(rows[0]))
    elif kind == "python" and value.endswith("t"):
        # The matrix names a free-threaded build only beside its range ("3.14t experimental"), and
        # not every one that ships (the notes: 3.13t until 2.12, the matrix: until 2.8), so its
        # silence ends nothing: only the notes stop a free-threaded build.
        stop, by, ships = None, "", rows
    else:
        stop, by, ships = matrix_stop, "compatibility" if matrix_stop else "", rows
        if matrix_stop:
            cited["removed_in"] = (
                Cited(f"{name}: {listed_last} compatibility row, the last that lists it", _row(listed_last)),
                Cited(f"{matrix_stop} compatibility row, the first without it", _row(matrix_stop)),
            )
    listed = tuple(Cited(f"{name}: {v} compatibility row", _row(v)) for v in ships if v in rows)
    beyond = cited.get("removed_in", ()) if len(listed) < len(ships) else ()  # the notes: shipped past the matrix
    if ships:
        cited["last"] = listed[-1:] if ships[-1] in rows else beyond
        cited["releases"] = listed + beyond
    if listed_last:
        cited["listed_last"] = (Cited(f"{name}: {listed_last} compatibility row", _row(listed_last)),)
    return SupportStop(
        kind=kind,
        value=value,
        ships=ships,
        last=ships[-1] if ships else None,
        removed_in=stop,
        removed_by=by,
        listed_last=listed_last,
        deprecated_in=ending.deprecated_in if ending else None,
        removal_planned=ending.removal_planned if ending else None,
        feature=feature.id if feature is not None else "",
        evidence=tuple((f, cited[f]) for f in STOP_FIELDS if cited.get(f)),
    )


_SAID = {"deprecated_in": "deprecated in", "removal_planned": "removal announced for", "removed_in": "removed in"}


def _feature_cited(feature: Feature | None) -> dict[str, tuple[Cited, ...]]:
    """The feature a support is, and what its ending's fields were read from (generator.enrich.facts)."""
    if feature is None:
        return {}
    out = {"feature": (Cited(feature.title, urls.feature(feature.id)),)}
    ending = feature.ending
    for field, cited in ending.evidence if ending is not None else ():
        if field in _SAID:
            said = f"{feature.title}: {_SAID[field]} {getattr(ending, field)}"
            out[field] = tuple(Cited(f"{said} ({c.label})", c.url) for c in cited)
    return out


def _also(stop: SupportStop, rows: Rows) -> SupportStop:
    """The stop with what another source says: a release whose compatibility alternative lists the
    value where the matrix does not (the 2.14 release post's ROCm 7.2) is evidence shown beside it."""
    also = tuple(
        (version, Cited(f"{version}: {a.context}", a.source))
        for version, compatibility in rows
        if compatibility is not None and version not in stop.ships
        for a in compatibility.alternatives
        if a.field == stop.kind and stop.value in (v.strip() for v in a.value.split(","))
    )
    if not also:
        return stop
    evidence = (*stop.evidence, ("also_in", tuple(c for _, c in also)))
    return replace(stop, evidence=evidence, also_in=tuple(v for v, _ in also))


def _row(version: str) -> str:
    return urls.at(urls.release(version), urls.COMPATIBILITY_ANCHOR)


def _key(value: str) -> tuple:
    digits = value.rstrip("t")
    return (*version_key(digits), value.endswith("t")) if digits.replace(".", "").isdigit() else (0, value)


def left_builds(left: tuple[tuple[str, tuple[str, ...], tuple[str, ...], str], ...]) -> dict[str, dict]:
    """Architecture -> the newest release whose notes say it left CUDA builds, those builds, the
    release that said so first, and every such note as evidence (content/gpu_archs.yaml `left`):
    Volta left the 12.8 and 12.9 builds in 2.8 and, again, in 2.11, whose notes say 2.10's builds
    still had it, so the newest word decides."""
    out: dict[str, dict] = {}
    for release, cudas, archs, source in sorted(left, key=lambda lv: version_key(lv[0])):
        for arch in archs:
            said = out.setdefault(arch, {"first": release, "evidence": []})
            said |= {"release": release, "cuda": list(cudas)}
            said["evidence"].append([f"{release} notes: {arch} left the CUDA {' and '.join(cudas)} builds", source])
    return out
