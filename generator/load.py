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

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from . import forked, schema
from ._load_catalogue import _catalogue, _check_aliases, _check_catalogue_used
from ._load_changes import _check_change_features, change_list, check_change_anchors
from ._load_common import _collected, _display
from ._load_releases import _check_lifecycles, _check_new, _check_order, _date, _release
from .errors import ContentError, Problem, UsageError, did_you_mean
from .model import (
    ENDING_TIERS,
    NO_TIER,
    NO_TIER_ABBR,
    Area,
    Backend,
    Content,
    GpuArchitectures,
    PlannedRelease,
    RetiredSymbol,
    Tier,
    Vocabulary,
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

    tiers, vocabularies, backends, areas = _registries(docs.registries, problems)
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


def _registries(registries: dict, problems: list[Problem]) -> tuple:
    """(tiers, vocabularies, backends, areas) from the registry files."""
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
    return tiers, vocabularies, backends, areas


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
