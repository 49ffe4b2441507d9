"""Load: each release file into a Release (its entries, compatibility row, patches and the
next release), and the checks across release files (order, `change: new`, lifecycles)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

from ..model.content import (
    CatalogueFeature,
    Change,
    CompatAlternative,
    Compatibility,
    CudaVersion,
    Entry,
    NextRelease,
    Patch,
    Release,
    Tier,
    version_key,
)
from ..model.errors import Problem, did_you_mean
from .common import _as_tuple, _check_id, _unknown_feature, collected
from .yamlsrc import Document


def _check_file_name(doc: Document, version: str, problems: list[Problem]) -> None:
    stem = Path(doc.path).stem
    if stem != version:
        field = "version" if "version" in doc.data else "release"
        problems.append(
            doc.problem((field,), f"file is named {stem!r} but holds release {version}: name it {version}.yaml")
        )


def _date(doc: Document, pointer: tuple, value: str, problems: list[Problem]) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        problems.append(doc.problem(pointer, f"{value!r} is not a real date (YYYY-MM-DD)"))
        return None


def _release(
    derive, doc, tiers, vocabularies, backend_ids, feature_by_id, changes_by_release, problems
) -> Release | None:
    """A release file's Release, checking what one file can tell (its name, dates, order of
    versions, vocabulary, each entry through `_entry`); None when its date is unreadable. A
    derivation of the build session (`derive`): kept while the file, the registries and
    catalogue it is checked against and its change list are the same, so live preview hands
    the model, and the comparison of old and new models, the same Release and Entry objects
    for every release an edit did not touch."""
    changes = changes_by_release.get(doc.data["version"], ())
    args = (doc, tiers, vocabularies, backend_ids, feature_by_id, changes)
    return collected(derive, _build_release, *args, problems=problems, key=doc.path)


def _build_release(doc, tiers, vocabularies, backend_ids, feature_by_id, changes, problems) -> Release | None:
    ids = {"tier": {t.id for t in tiers}, "backend": backend_ids, "feature": feature_by_id}
    d = doc.data
    version = d["version"]
    _check_file_name(doc, version, problems)
    date = _date(doc, ("date",), d["date"], problems)
    if version_key(d["previous"]) >= version_key(version):
        problems.append(doc.problem(("previous",), f"previous release {d['previous']} is not older than {version}"))
    vocab_ids = {v.id for v in vocabularies}
    if d["tier_vocabulary"] not in vocab_ids:
        problems.append(
            doc.problem(
                ("tier_vocabulary",),
                f"unknown vocabulary '{d['tier_vocabulary']}'{did_you_mean(d['tier_vocabulary'], vocab_ids)}",
            )
        )
    tier_by_id = {t.id: t for t in tiers}
    seen: dict[str, int] = {}
    entries = tuple(_entry(doc, i, raw, ids, tier_by_id, seen, problems) for i, raw in enumerate(d["features"]))
    if date is None:
        return None
    read = dict(
        version=version,
        date=date,
        previous=d["previous"],
        commits=d["counts"]["commits"],
        contributor_count=d["counts"]["contributors"],
        counts_source=d["counts"]["source"],
        tier_vocabulary=d["tier_vocabulary"],
        summary=d["summary"],
        blog=d["links"].get("blog"),
        notes=d["links"]["notes"],
        coverage=d.get("coverage"),
        compatibility=_compatibility(d.get("compatibility")),
        patches=_patches(doc, version, ids, problems),
        next=_next(doc, date, problems),
        entries=entries,
        changes=changes,
        source_file=f"releases/{Path(doc.path).name}",
    )
    return Release(**read, **_as_written(d, read))


_RELEASE_FIELDS = frozenset(f.name for f in dataclasses.fields(Release))


def _as_written(data: dict, read: dict) -> dict:
    """The top-level keys of a release file that name a field of Release and that `_build_release`
    does not read itself, as written: the schema has checked them, so a new text or URL field
    needs no line here (README, "Recipe: add a field to a release page")."""
    return {key: value for key, value in data.items() if key in _RELEASE_FIELDS and key not in read}


def _entry(doc, i: int, raw: dict, ids: dict, tier_by_id: dict, seen: dict, problems: list[Problem]) -> Entry:
    """The release file's i-th feature entry: its id is valid, once in the file (`seen`: id ->
    line) and in the catalogue; its tier of the release's vocabulary; its backends known; its
    removal after the release."""
    version, vocabulary = doc.data["version"], doc.data["tier_vocabulary"]
    at = ("features", i)
    if ".." in raw["id"]:
        problems.append(doc.problem(at + ("id",), f"'{raw['id']}' is not a valid id: '..' is not allowed"))
    if raw["id"] in seen:
        problems.append(
            doc.problem(at + ("id",), f"duplicate feature id '{raw['id']}' (first at line {seen[raw['id']]})")
        )
    seen.setdefault(raw["id"], doc.at(at)[0])
    tier = raw.get("tier")
    if tier is not None:
        _check_id(doc, at + ("tier",), "tier", tier, ids, problems)
        vocab = tier_by_id[tier].vocabulary if tier in tier_by_id else "all"
        if vocab not in ("all", vocabulary):
            problems.append(
                doc.problem(
                    at + ("tier",), f"tier '{tier}' belongs to the {vocab} vocabulary, but {version} uses {vocabulary}"
                )
            )
    backends = _as_tuple(raw.get("backends"))
    for j, backend in enumerate(backends):
        pointer = at + ("backends", j) if isinstance(raw.get("backends"), list) else at + ("backends",)
        _check_id(doc, pointer, "backend", backend, ids, problems)
    known = ids["feature"].get(raw["id"])
    if known is None and ".." not in raw["id"]:
        problems.append(doc.problem(at + ("id",), _unknown_feature(raw["id"], ids["feature"])))
    removal = raw.get("removal")
    if removal and version_key(removal) <= version_key(version):
        problems.append(doc.problem(at + ("removal",), f"planned removal {removal} is not after {version}"))
    return Entry(
        id=raw["id"],
        release=version,
        title=raw["title"],
        tier=tier,
        change=raw["change"],
        backends=backends,
        area=known.area if known else "",
        summary=raw["summary"],
        prs=_as_tuple(raw.get("prs")),
        contributors=_as_tuple(raw.get("contributors")),
        source=raw["source"],
        highlight=bool(raw.get("highlight", False)),
        reason=raw.get("reason"),
        removal=removal,
        aliases=tuple(raw.get("aliases", ())),
        line=doc.at(at)[0],
        note=raw.get("note"),
    )


def _compatibility(c: dict | None) -> Compatibility | None:
    if not c:
        return None

    def cuda(items: list) -> tuple[CudaVersion, ...]:
        return tuple(CudaVersion(x["version"], x.get("cudnn"), x.get("nccl")) for x in items)

    return Compatibility(
        c["python"]["min"],
        c["python"]["max"],
        tuple(c["python"].get("experimental", ())),
        c["cxx"],
        cuda(c["cuda_stable"]),
        cuda(c["cuda_experimental"]),
        c["rocm"],
        c["source"],
        tuple(CompatAlternative(a["field"], a["value"], a["context"], a["source"]) for a in c.get("alternatives", ())),
    )


def _next(doc, date: dt.date, problems: list[Problem]) -> NextRelease | None:
    """The release file's `next:` (the release after it by the cadence), its plan after its own date."""
    raw = doc.data.get("next")
    if raw is None:
        return None
    planned = _date(doc, ("next", "planned"), raw["planned"], problems)
    if version_key(raw["version"]) <= version_key(doc.data["version"]):
        problems.append(
            doc.problem(("next", "version"), f"next release {raw['version']} does not follow {doc.data['version']}")
        )
    if planned is not None and planned <= date:
        problems.append(doc.problem(("next", "planned"), f"{planned} is not after the release's own date {date}"))
    return NextRelease(raw["version"], planned or date, raw["source"])


def _patches(doc, version: str, ids: dict, problems: list[Problem]) -> tuple[Patch, ...]:
    """The release's patch releases, each with its fixes as change records on the release's page."""
    patches = []
    for i, raw in enumerate(doc.data.get("patches", ())):
        if not raw["version"].startswith(version + "."):
            problems.append(
                doc.problem(("patches", i, "version"), f"patch {raw['version']} is not a patch of {version}")
            )
        changes = tuple(
            _patch_change(doc, (i, j), c, version, raw["version"], ids, problems)
            for j, c in enumerate(raw.get("changes", ()))
        )
        patches.append(Patch(raw["version"], raw["date"], raw.get("summary"), raw["source"], changes))
    return tuple(patches)


def _patch_change(doc, at: tuple[int, int], raw: dict, version: str, patch: str, ids: dict, problems) -> Change:
    """One fix of a patch release: a bug fix of `version` whose area is the patch notes' heading."""
    where = ("patches", at[0], "changes", at[1])
    for j, backend in enumerate(raw.get("backends", ())):
        _check_id(doc, where + ("backends", j), "backend", backend, ids, problems)
    for j, fid in enumerate(raw.get("features", ())):
        if fid not in ids["feature"]:
            problems.append(doc.problem(where + ("features", j), _unknown_feature(fid, ids["feature"])))
    return Change(
        release=version,
        section="bug-fixes",
        area=raw["heading"],
        text=raw["text"],
        prs=tuple(raw["prs"]),
        note=raw.get("note"),
        backends_override=tuple(raw["backends"]) if "backends" in raw else None,
        features=tuple(raw.get("features", ())),
        issues=tuple(raw.get("issues", ())),
        patch=patch,
    )


def _check_order(releases: list[tuple[Release, Document]], problems: list[Problem]) -> None:
    """Versions and dates must rise together, and `previous` must name the release before."""
    for (before, _), (after, doc) in zip(releases, releases[1:], strict=False):
        if before.version == after.version:
            problems.append(
                doc.problem(("version",), f"release {after.version} is defined twice (also in {before.source_file})")
            )
        elif after.date <= before.date:
            problems.append(
                doc.problem(
                    ("date",),
                    f"{after.version} is dated {after.date}, not after {before.version} ({before.date}): releases out of date order",
                )
            )
        if after.previous != before.version and before.version != after.version:
            problems.append(
                doc.problem(
                    ("previous",),
                    f"previous is {after.previous}, but the release before {after.version} is {before.version}",
                )
            )


def _check_new(releases, catalogue: tuple[CatalogueFeature, ...], problems: list[Problem]) -> None:
    """`change: new` only for a capability new to PyTorch: refused when the feature, one of its former
    ids or a member of it (a feature below it in the catalogue) was announced in an earlier release."""
    first: dict[str, str] = {}
    for release, _ in releases:
        for entry in release.entries:
            first.setdefault(entry.id, release.version)
    by_id = {f.id: f for f in catalogue}
    members: dict[str, list[str]] = {}
    for node in catalogue:
        for ancestor in _ancestor_ids(node, by_id):
            members.setdefault(ancestor, []).append(node.id)
    for release, doc in releases:
        for i, entry in enumerate(release.entries):
            if entry.change != "new":
                continue
            node = by_id.get(entry.id)
            former = (*entry.aliases, *(node.aliases if node else ()))
            for what, fid in [
                ("", entry.id),
                *(("as ", a) for a in former),
                *(("as its member ", m) for m in members.get(entry.id, ())),
            ]:
                when = first.get(fid)
                if when is not None and version_key(when) < release.key:
                    said = f"'{entry.id}' was already announced in {when}" + (f" {what}'{fid}'" if what else "")
                    problems.append(
                        doc.problem(
                            ("features", i, "change"),
                            f"{said}: `new` is for what is new to PyTorch; use improved, promoted or renamed",
                        )
                    )
                    break


def _ancestor_ids(node: CatalogueFeature, by_id: dict) -> list[str]:
    """The ids above a catalogue feature, nearest first (a loop of parents is reported elsewhere)."""
    out: list[str] = []
    while node.parent and node.parent in by_id and node.parent not in out:
        out.append(node.parent)
        node = by_id[node.parent]
    return out


def _check_lifecycles(releases, tier_by_id: dict, problems: list[Problem]) -> None:
    """A feature's tier may not go down (e.g. Beta -> Prototype) unless the entry says why."""
    last: dict[str, tuple[str, Tier]] = {}
    for release, doc in releases:
        for i, entry in enumerate(release.entries):
            tier = tier_by_id.get(entry.tier)
            if tier is None:
                continue
            if entry.id in last:
                was_release, was = last[entry.id]
                if tier.level < was.level and not entry.reason:
                    problems.append(
                        doc.problem(
                            ("features", i, "tier"),
                            f"'{entry.id}' goes from {was.name} in {was_release} back to {tier.name}: add a `reason:`",
                        )
                    )
            last[entry.id] = (release.version, tier)
