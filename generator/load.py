"""Load stage: read every content file, validate it, and build the frozen model.

Layout of a content folder:
    tiers.yaml, backends.yaml, areas.yaml   registries
    features/<family>.yaml                  the feature catalogue: each feature defined once, in a tree
    releases/<X.Y>.yaml                     one file per release
    changes/<X.Y>.yaml                      imported release-note change lists (optional)
    symbols.yaml                            names the /symbols/ pages no longer list (optional)
    cadence.yaml                            releases RELEASE.md plans, with tentative dates (optional)
    gpu_archs.yaml                          GPU architectures that left CUDA builds, per release (optional)

`load()` collects every problem across all files and raises one ContentError at the end.
"""

from __future__ import annotations

import datetime as dt
import operator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from . import forked, schema, upgrade_rules, urls
from .errors import ContentError, Problem, UsageError, did_you_mean
from .model import (
    ENDING_TIERS,
    NO_TIER,
    NO_TIER_ABBR,
    Area,
    Backend,
    CatalogueFeature,
    Change,
    CompatAlternative,
    Compatibility,
    Content,
    CudaVersion,
    Entry,
    GpuArchitectures,
    NextRelease,
    Patch,
    PlannedRelease,
    Release,
    RetiredSymbol,
    Tier,
    Vocabulary,
    area_key,
    version_key,
)
from .yamlsrc import Document, read

REGISTRIES = ("tiers", "backends", "areas")

_PARSED: dict[tuple, tuple[tuple, Document]] = {}
"""(path, kind) -> ((mtime, size), valid document): live preview re-reads only the file you saved."""


def load(content_dir: Path) -> Content:
    """Read and validate a content folder; raise ContentError listing every problem.

    Three phases: read and schema-check every file (`_read`), build the registries and the
    catalogue (the cross-file checks need all of them: a problem there stops here), then build
    the change lists and releases and check what spans files (`_check_across`)."""
    content_dir = Path(content_dir)
    if not content_dir.is_dir():
        raise UsageError(f"{content_dir}: content folder not found")
    problems: list[Problem] = []
    docs = _read(content_dir, problems)
    if None in docs.registries.values() or len(docs.registries) < len(REGISTRIES) or None in docs.features:
        raise ContentError(problems)  # cross-file checks need every registry and the whole catalogue

    registries = docs.registries
    tiers, vocabularies = _collected(registries["tiers"], "tiers", None, partial(_tiers, registries["tiers"]), problems)
    backends = _collected(
        registries["backends"],
        "backends",
        None,
        partial(_registry, registries["backends"], "backends", make=_backend),
        problems,
    )
    areas = _collected(
        registries["areas"], "areas", None, partial(_registry, registries["areas"], "areas", make=_area), problems
    )
    ids = {"tier": {t.id for t in tiers}, "backend": {b.id for b in backends}, "area": {a.id for a in areas}}
    catalogue = _collected(
        tuple(docs.features), "catalogue", frozenset(ids["area"]), partial(_catalogue, docs.features, ids), problems
    )
    ids["feature"] = {f.id: f for f in catalogue}

    change_docs = {doc.data["release"]: doc for doc in filter(None, docs.changes)}
    changes = {version: change_list(doc, ids["backend"], problems) for version, doc in change_docs.items()}
    releases = []
    # What a release file's Release is built from besides the file itself (`_release`): its
    # entries take their area from the catalogue.
    across = (ids["tier"], ids["backend"], tuple((f.id, f.area) for f in catalogue), tiers, vocabularies)
    for doc in filter(None, docs.releases):
        release = _release(doc, ids, tiers, vocabularies, changes, problems, across)
        if release:
            releases.append((release, doc))
    releases.sort(key=lambda pair: pair[0].key)
    _check_across(content_dir, docs, releases, tiers, catalogue, change_docs, problems)
    if problems:
        raise ContentError(problems)
    retired = _retired(docs.symbols) if docs.symbols is not None else ()
    planned = _planned(docs.cadence, problems) if docs.cadence is not None else ()
    gpu = _gpu(docs.gpu_archs, {r.version for r, _ in releases}, problems) if docs.gpu_archs is not None else None
    if problems:
        raise ContentError(problems)
    return Content(
        tuple(r for r, _ in releases),
        tiers,
        vocabularies,
        backends,
        areas,
        catalogue,
        retired,
        planned,
        docs.cadence.data["source"] if docs.cadence is not None else "",
        gpu,
    )


@dataclass
class _Docs:
    """The content folder's files, read and schema-checked (None where a file failed)."""

    registries: dict[str, Document | None]  # by kind; a missing registry file has no key
    features: list[Document | None]
    releases: list[Document | None]
    changes: list[Document | None]
    symbols: Document | None
    cadence: Document | None = None
    gpu_archs: Document | None = None


def _read(content_dir: Path, problems: list[Problem]) -> _Docs:
    files: list[tuple[Path, str]] = []
    for kind in REGISTRIES:
        path = content_dir / f"{kind}.yaml"
        if path.exists():
            files.append((path, kind))
        else:
            problems.append(Problem(_display(path), 1, 1, f"missing registry file {kind}.yaml"))
    feature_paths = sorted((content_dir / "features").glob("*.y*ml"))
    if not feature_paths:
        problems.append(Problem(_display(content_dir / "features"), 1, 1, "missing feature catalogue features/*.yaml"))
    files += [(p, "features") for p in feature_paths]
    files += [(p, "release") for p in sorted((content_dir / "releases").glob("*.y*ml"))]
    files += [(p, "changes") for p in sorted((content_dir / "changes").glob("*.y*ml"))]
    symbols = content_dir / "symbols.yaml"
    if symbols.exists():
        files.append((symbols, "symbols"))
    for optional in ("cadence", "gpu_archs"):
        if (content_dir / f"{optional}.yaml").exists():
            files.append((content_dir / f"{optional}.yaml", optional))
    docs = dict(zip(files, _parse_all(files, problems), strict=True))
    return _Docs(
        {kind: doc for (_, kind), doc in docs.items() if kind in REGISTRIES},
        [doc for (_, kind), doc in docs.items() if kind == "features"],
        [doc for (_, kind), doc in docs.items() if kind == "release"],
        [doc for (_, kind), doc in docs.items() if kind == "changes"],
        next((doc for (_, kind), doc in docs.items() if kind == "symbols"), None),
        next((doc for (_, kind), doc in docs.items() if kind == "cadence"), None),
        next((doc for (_, kind), doc in docs.items() if kind == "gpu_archs"), None),
    )


PARALLEL_FROM = 8
"""From this many files to read, about half are read in a forked child process (`_parse_all`)."""


def _parse_all(files: list[tuple[Path, str]], problems: list[Problem]) -> list[Document | None]:
    """Each file read and checked against its schema (`_parse`), in order, with its problems in
    file order. Files unchanged since the last call come from `_PARSED`. When at least
    PARALLEL_FROM files must be read and this process runs no other thread (a build, not live
    preview's server), a forked child reads about half of them on the other core and hands
    back the documents pickled (the real content's YAML: ~0.8 s read serially). If the child
    fails, its files are read here instead: the result does not depend on the way taken."""
    stamps = [_stamp(path, kind) for path, kind in files]
    todo = [i for i, (key, stamp) in enumerate(stamps) if not (key in _PARSED and _PARSED[key][0] == stamp)]
    away: list[int] = []
    if len(todo) >= PARALLEL_FROM and forked.available():
        loads = [0, 0]  # bytes each side reads: the biggest files first, each to the lighter side
        for i in sorted(todo, key=lambda i: -_size(files[i][0])):
            side = 0 if loads[0] <= loads[1] else 1
            loads[side] += _size(files[i][0])
            if side:
                away.append(i)
    theirs = [files[i] for i in sorted(away)]
    child = forked.beside(lambda: [_parse_file(path, kind) for path, kind in theirs]) if away else None
    results: dict[int, tuple[Document | None, list[Problem]]] = {}
    for i in todo:
        if i not in away:
            results[i] = _parse_file(*files[i])
    if child is not None:
        results.update(zip(sorted(away), child.result(), strict=True))
    out: list[Document | None] = []
    for i, (key, stamp) in enumerate(stamps):
        if i not in results:
            out.append(_PARSED[key][1])
            continue
        doc, errs = results[i]
        problems.extend(errs)
        if doc is not None and key is not None:
            _PARSED[key] = (stamp, doc)  # one document per file: a long preview does not accumulate
        out.append(doc)
    return out


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _stamp(path: Path, kind: str) -> tuple:
    """(key, stamp) of a file in `_PARSED`; (None, None) when it cannot be looked at."""
    try:
        stat = path.stat()
        return (str(path.resolve()), kind), (stat.st_mtime_ns, stat.st_size)
    except OSError:
        return None, None


def _parse_file(path: Path, kind: str) -> tuple[Document | None, list[Problem]]:
    """The file read and checked against its schema: (document, what reading it found) when it
    passes the schema, else (None, every problem)."""
    doc, errs = read(path, _display(path))
    if doc is None:
        return None, errs
    wrong = schema.check(doc, kind)
    return (None, errs + wrong) if wrong else (doc, errs)


def _check_across(content_dir, docs: _Docs, releases, tiers, catalogue, change_docs: dict, problems) -> None:
    """What spans files: release order, lifecycles, aliases, unused catalogue features, the
    features changes name, change anchors against entries, change lists without a release."""
    _check_order(releases, problems)
    for release, doc in releases[:-1]:  # only the newest release says what comes next
        if release.next is not None:
            known = releases[-1][0].version
            problems.append(
                doc.problem(("next",), f"only the newest release ({known}) says what comes next: remove `next` here")
            )
    _check_lifecycles(releases, {t.id: t for t in tiers}, problems)
    _check_new(releases, catalogue, problems)
    _check_aliases(releases, catalogue, problems)
    if None not in docs.releases:  # a release that did not parse would make its features look unused
        _check_catalogue_used(catalogue, releases, docs.features, problems)
    _check_change_features({f.id: f for f in catalogue}, change_docs, problems)
    for release, _ in releases:
        if release.version in change_docs:
            check_change_anchors(change_docs[release.version], release.entries, problems)
    known = {r.version for r, _ in releases}
    for version, doc in change_docs.items():
        if version not in known and not (content_dir / "releases" / f"{version}.yaml").exists():
            problems.append(
                doc.problem(("release",), f"no release {version} in releases/{did_you_mean(version, known)}")
            )


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


def _registry(doc: Document, key: str, problems: list[Problem], make) -> tuple:
    items, seen = [], set()
    for i, raw in enumerate(doc.data[key]):
        if raw["id"] in seen:
            problems.append(doc.problem((key, i, "id"), f"duplicate id '{raw['id']}'"))
        seen.add(raw["id"])
        items.append(make(raw))
    return tuple(items)


def _area(d: dict) -> Area:
    return Area(d["id"], d["name"], d["description"])


def _backend(d: dict) -> Backend:
    return Backend(
        d["id"], d["name"], d["vendor"], d["description"], tuple(d.get("change_areas", ())), tuple(d.get("also", ()))
    )


def _tiers(doc: Document, problems: list[Problem]) -> tuple[tuple[Tier, ...], tuple[Vocabulary, ...]]:
    vocabularies = _registry(
        doc,
        "vocabularies",
        problems,
        lambda d: Vocabulary(d["id"], d["name"], d["from"], d.get("until"), d["description"], d["source"]),
    )
    vocab_ids = {v.id for v in vocabularies} | {"all"}
    tiers = _registry(
        doc,
        "tiers",
        problems,
        lambda d: Tier(
            d["id"],
            d["name"],
            d["label"],
            d["abbr"],
            d["vocabulary"],
            d["level"],
            tuple(d.get("equivalent", ())),
            d["description"],
        ),
    )
    tier_ids = {t.id for t in tiers}
    for i, tier in enumerate(tiers):
        if tier.vocabulary not in vocab_ids:
            problems.append(
                doc.problem(
                    ("tiers", i, "vocabulary"),
                    f"unknown vocabulary '{tier.vocabulary}'{did_you_mean(tier.vocabulary, vocab_ids)}",
                )
            )
        for j, other in enumerate(tier.equivalent):
            if other not in tier_ids:
                problems.append(
                    doc.problem(("tiers", i, "equivalent", j), f"unknown tier '{other}'{did_you_mean(other, tier_ids)}")
                )
    _check_abbreviations(doc, tiers, problems)
    for needed in ENDING_TIERS:
        if not any(t.id == needed and t.vocabulary == "all" for t in tiers):
            problems.append(
                doc.problem(("tiers",), f"no tier '{needed}' of vocabulary 'all': the ledger and lifecycles need it")
            )
    return tiers, vocabularies


def _check_abbreviations(doc: Document, tiers: tuple[Tier, ...], problems: list[Problem]) -> None:
    """The glance table prints a tier's label as one letter and its legend spells each letter out,
    so a letter stands for one label, and the letter of "no tier" is taken."""
    label_of = {NO_TIER_ABBR: NO_TIER}
    for i, tier in enumerate(tiers):
        said = label_of.setdefault(tier.abbr, tier.label)
        if said != tier.label:
            problems.append(
                doc.problem(("tiers", i, "abbr"), f"abbreviation '{tier.abbr}' already stands for '{said}'")
            )


def _check_file_name(doc: Document, version: str, problems: list[Problem]) -> None:
    stem = Path(doc.path).stem
    if stem != version:
        field = "version" if "version" in doc.data else "release"
        problems.append(
            doc.problem((field,), f"file is named {stem!r} but holds release {version}: name it {version}.yaml")
        )


def _check_id(doc: Document, pointer: tuple, kind: str, value: str, ids: dict, problems: list[Problem]) -> None:
    if value not in ids[kind]:
        problems.append(doc.problem(pointer, f"unknown {kind} '{value}'{did_you_mean(value, ids[kind])}"))


def _date(doc: Document, pointer: tuple, value: str, problems: list[Problem]) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        problems.append(doc.problem(pointer, f"{value!r} is not a real date (YYYY-MM-DD)"))
        return None


def _release(doc, ids, tiers, vocabularies, changes_by_release, problems, across) -> Release | None:
    """A release file's Release, checking what one file can tell (its name, dates, order of
    versions, vocabulary, each entry through `_entry`); None when its date is unreadable.
    Kept while the file and `across` (the registries and catalogue it is checked against)
    are unchanged, with the same change list: live preview then hands the model, and the
    comparison of old and new models, the same Release and Entry objects for every release
    an edit did not touch."""
    changes = changes_by_release.get(doc.data["version"], ())
    release, found = _of_document(
        doc, "release", (across, changes), lambda: _build_release(doc, ids, tiers, vocabularies, changes)
    )
    problems.extend(found)
    return release


def _build_release(doc, ids, tiers, vocabularies, changes) -> tuple[Release | None, list[Problem]]:
    problems: list[Problem] = []
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
        return None, problems
    return Release(
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
    ), problems


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


def change_list(
    doc: Document, backend_ids: set[str] | None, problems: list[Problem], named: bool = True
) -> tuple[Change, ...]:
    """The changes of a schema-valid content/changes/X.Y.yaml, with what can be checked in the
    file alone: its name (when `named`: it sits in a changes folder), backend ids (unless None:
    no registry to check against), restore and kind rules. The importer refuses what this refuses."""

    def build() -> tuple[tuple[Change, ...], list[Problem]]:
        found: list[Problem] = []
        if named:
            _check_file_name(doc, doc.data["release"], found)
        ids = {"backend": backend_ids}
        return tuple(_change(doc, i, c, ids, found) for i, c in enumerate(doc.data["changes"])), found

    key = (frozenset(backend_ids) if backend_ids is not None else None, named)
    changes, found = _of_document(doc, "changes", key, build)
    problems.extend(found)
    return changes


_OF_DOCUMENT: dict[tuple[str, str], tuple] = {}


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


def _change(doc: Document, i: int, raw: dict, ids: dict, problems: list[Problem]) -> Change:
    override = raw.get("backends")
    checked = override if override and ids["backend"] is not None else ()
    for j, backend in enumerate(checked):
        _check_id(doc, ("changes", i, "backends", j), "backend", backend, ids, problems)
    if raw.get("restore") is not None and (why := upgrade_rules.restore_problem(raw["restore"])):
        problems.append(doc.problem(("changes", i, "restore"), why))
    if raw.get("kind") is not None and (why := upgrade_rules.kind_problem(raw["section"], raw["kind"])):
        problems.append(doc.problem(("changes", i, "kind"), why))
    return Change(
        release=doc.data["release"],
        section=raw["section"],
        area=raw["area"],
        text=raw["text"],
        prs=tuple(raw.get("prs", ())),
        note=raw.get("note"),
        backends_override=tuple(override) if override is not None else None,
        kind=raw.get("kind"),
        restore=raw.get("restore"),
        removal=raw.get("removal"),
        carried_out=raw.get("carried_out"),
        features=tuple(raw.get("features", ())),
        issues=tuple(raw.get("issues", ())),
        workaround=raw.get("workaround"),
        symptom=_listed(raw.get("symptom", ())),
        anchors=tuple(raw.get("anchors", ())),
    )


def check_change_anchors(doc: Document, entries: tuple[Entry, ...], problems: list[Problem]) -> None:
    """A change's former anchors (`anchors:`) stay on its release page as alias ids: each may be
    claimed once, and never be an anchor the page gives to a change or entry now (a link to it
    would land on two elements, or on the wrong one). Checked again only when the change list
    or the release's entries changed."""
    _collected(doc, "anchor-check", entries, partial(_check_anchors, doc, entries), problems)


def _check_anchors(doc: Document, entries: tuple[Entry, ...], problems: list[Problem]) -> None:
    changes = doc.data["changes"]
    anchors, _ = _of_document(
        doc, "anchors", None, lambda: (tuple(urls.change_anchors(c["text"] for c in changes)), [])
    )
    live = {anchor: f"the change at line {doc.at(('changes', i))[0]}" for i, anchor in enumerate(anchors)}
    for entry in entries:
        for anchor in (entry.id, *entry.aliases):
            live.setdefault(urls.entry_anchor(anchor), f"the feature entry '{entry.id}'")
    claimed: dict[str, int] = {}
    for i, raw in enumerate(changes):
        for j, anchor in enumerate(raw.get("anchors", ())):
            at = ("changes", i, "anchors", j)
            if anchor in live:
                problems.append(doc.problem(at, f"'{anchor}' is the anchor of {live[anchor]} now: remove it here"))
            elif anchor in claimed:
                problems.append(
                    doc.problem(at, f"'{anchor}' is already kept by the change at line {claimed[anchor]}: keep it once")
                )
            else:
                claimed[anchor] = doc.at(("changes", i))[0]


def _retired(doc: Document) -> tuple[RetiredSymbol, ...]:
    """symbols.yaml's retired names; that each is no longer listed and its successor is, the
    enrich stage checks (it decides which names the pages list)."""
    return tuple(
        RetiredSymbol(
            name=raw["name"],
            page=raw["page"],
            successor=raw.get("successor"),
            reason=raw.get("reason"),
            still_named=raw.get("still_named", False),
            at=(doc.path, *doc.at(("retired", i))),
        )
        for i, raw in enumerate(doc.data["retired"])
    )


def _planned(doc: Document, problems: list[Problem]) -> tuple[PlannedRelease, ...]:
    """cadence.yaml's planned releases, each planned after the one before it."""
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
        out.append(PlannedRelease(raw["version"], when, cut, raw.get("first_patch")))
    return tuple(out)


def _gpu(doc: Document, versions: set[str], problems: list[Problem]) -> GpuArchitectures:
    """gpu_archs.yaml: each architecture named is one of `architectures`, each release a release file's."""
    names = tuple(doc.data["architectures"])

    def known(pointer: tuple, name: str) -> None:
        if name not in names:
            problems.append(doc.problem(pointer, f"unknown architecture {name!r}{did_you_mean(name, names)}"))

    known(("cuda13", "first"), doc.data["cuda13"]["first"])
    left = []
    for i, raw in enumerate(doc.data["left"]):
        if raw["release"] not in versions:
            problems.append(
                doc.problem(
                    ("left", i, "release"), f"no release {raw['release']}{did_you_mean(raw['release'], versions)}"
                )
            )
        for k, name in enumerate(raw["architectures"]):
            known(("left", i, "architectures", k), name)
        left.append((raw["release"], tuple(raw["cuda"]), tuple(raw["architectures"]), raw["source"]))
    return GpuArchitectures(names, doc.data["cuda13"]["first"], tuple(left))


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
    members: dict[str, list[str]] = {}
    for node in catalogue:
        for ancestor in _ancestor_ids(node, {f.id: f for f in catalogue}):
            members.setdefault(ancestor, []).append(node.id)
    by_id = {f.id: f for f in catalogue}
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


def _unknown_feature(fid: str, catalogue: dict) -> str:
    """Why an id is not a feature: a former id names its successor, anything else a close match."""
    for feature in catalogue.values():
        if fid in feature.aliases:
            return f"'{fid}' is a former id of '{feature.id}': use {feature.id}"
    return f"unknown feature '{fid}': add it to features/*.yaml{did_you_mean(fid, catalogue)}"


def _support(raw: dict | None) -> tuple[str, str, str | None] | None:
    """A catalogue `support:` as (field, value, source): ("python", "3.7", None), ("last", "2.2", url)."""
    if not raw:
        return None
    field = next(k for k in ("python", "cuda", "rocm", "last") if k in raw)
    return field, raw[field], raw.get("source")


def _catalogue(docs: list[Document], ids: dict, problems: list[Problem]) -> tuple[CatalogueFeature, ...]:
    """The feature tree: unique ids, known areas, parents that exist and never loop, and aliases
    that are nobody's id and one feature's only."""
    items: list[CatalogueFeature] = []
    where: dict[str, tuple[Document, tuple]] = {}
    heading_owner: dict[tuple[str, ...], str] = {}
    for doc in docs:
        for i, raw in enumerate(doc.data["features"]):
            at = ("features", i)
            if raw["id"] in where:
                first = where[raw["id"]][0]
                problems.append(
                    doc.problem(
                        at + ("id",),
                        f"feature '{raw['id']}' is defined twice (first in {first.path}:{first.at(where[raw['id']][1])[0]})",
                    )
                )
                continue
            where[raw["id"]] = (doc, at)
            _check_id(doc, at + ("area",), "area", raw["area"], ids, problems)
            items.append(
                CatalogueFeature(
                    id=raw["id"],
                    name=raw["name"],
                    area=raw["area"],
                    parent=raw.get("parent"),
                    aliases=tuple(raw.get("aliases", ())),
                    also=tuple(raw.get("also", ())),
                    about=raw["about"],
                    docs=raw.get("docs"),
                    source_file=f"features/{Path(doc.path).name}",
                    line=doc.at(at)[0],
                    support=_support(raw.get("support")),
                    change_areas=tuple(raw.get("change_areas", ())),
                )
            )
            for j, heading in enumerate(raw.get("change_areas", ())):
                key = area_key(heading)
                if key in heading_owner and heading_owner[key] != raw["id"]:
                    problems.append(
                        doc.problem(
                            at + ("change_areas", j),
                            f"area heading '{heading}' is already the default of '{heading_owner[key]}': "
                            "a change's area may default to one feature only",
                        )
                    )
                heading_owner.setdefault(key, raw["id"])
    _check_tree(items, where, problems)
    return tuple(items)


def _check_tree(items: list[CatalogueFeature], where: dict, problems: list[Problem]) -> None:
    """Parents exist and never loop (each loop reported once); an alias is nobody's id and one
    feature's only. `where`: id -> (document, pointer) of its definition."""
    by_id = {f.id: f for f in items}
    owner: dict[str, str] = {}
    for f in items:
        doc, at = where[f.id]
        if f.parent is not None and f.parent not in by_id:
            problems.append(
                doc.problem(at + ("parent",), f"unknown parent '{f.parent}'{did_you_mean(f.parent, by_id)}")
            )
        for j, alias in enumerate(f.aliases):
            if alias in by_id:
                problems.append(doc.problem(at + ("aliases", j), _live_alias(alias, f.id)))
            elif owner.setdefault(alias, f.id) != f.id:
                problems.append(doc.problem(at + ("aliases", j), f"alias '{alias}' is claimed by '{owner[alias]}' too"))
    reported: set[frozenset] = set()
    for f in items:
        chain, node = [f.id], f
        while node.parent in by_id:
            if node.parent in chain:
                loop = chain[chain.index(node.parent) :]
                if frozenset(loop) not in reported:
                    reported.add(frozenset(loop))
                    doc, at = where[loop[-1]]
                    message = "parents form a loop: " + " -> ".join(loop + [loop[0]])
                    problems.append(doc.problem(at + ("parent",), message))
                break
            node = by_id[node.parent]
            chain.append(node.id)


def _check_catalogue_used(catalogue, releases, docs: list[Document], problems: list[Problem]) -> None:
    """A catalogue feature is announced by some release or is the family of one that is."""
    announced = {e.id for release, _ in releases for e in release.entries}
    if not announced <= {f.id for f in catalogue}:
        return  # an unknown or misspelt entry id is reported already; its feature would look unused
    used = announced | {f.parent for f in catalogue}
    for doc in docs:
        for i, raw in enumerate(doc.data["features"]):
            if raw["id"] not in used:
                problems.append(
                    doc.problem(
                        ("features", i, "id"),
                        f"feature '{raw['id']}' is announced by no release and has no members: remove it or add an entry",
                    )
                )


def _live_alias(alias: str, owner: str) -> str:
    """Why an alias may not be a live feature id: the old address would mean two features."""
    return (
        f"alias '{alias}' of '{owner}' is the live id of feature '{alias}': an alias keeps a former id's "
        f"address, and this one already opens '{alias}' (rename '{alias}', or drop the alias)"
    )


def _check_aliases(releases, catalogue, problems: list[Problem]) -> None:
    """An entry's former ids (its release page keeps their anchors) may not be an id or former
    id of another entry of the same release, nor the live id of another catalogue feature."""
    live = {f.id for f in catalogue}
    for release, doc in releases:
        owner = {e.id: e.id for e in release.entries}
        for i, entry in enumerate(release.entries):
            for j, alias in enumerate(entry.aliases):
                if alias in live and alias != entry.id and alias not in owner:
                    problems.append(doc.problem(("features", i, "aliases", j), _live_alias(alias, entry.id)))
                elif owner.setdefault(alias, entry.id) != entry.id:
                    problems.append(
                        doc.problem(
                            ("features", i, "aliases", j),
                            f"anchor '{alias}' on the {release.version} page already belongs to '{owner[alias]}'",
                        )
                    )


def _check_change_features(catalogue: dict, change_docs: dict, problems: list[Problem]) -> None:
    """A change's hand-written `features:` must name catalogue features."""
    for doc in change_docs.values():
        for i, raw in enumerate(doc.data["changes"]):
            for j, fid in enumerate(raw.get("features", ())):
                if fid not in catalogue:
                    problems.append(doc.problem(("changes", i, "features", j), _unknown_feature(fid, catalogue)))
