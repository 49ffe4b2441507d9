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
from pathlib import Path

from ..model.content import (
    ENDING_TIERS,
    NO_TIER,
    NO_TIER_ABBR,
    Area,
    Backend,
    Content,
    GpuArchitectures,
    RetiredSymbol,
    Tier,
    Vocabulary,
)
from ..model.errors import ContentError, Problem, UsageError, did_you_mean
from ..util import forked
from ..util.session import MISSING, Session
from . import cadence, schema
from .catalogue import _catalogue, _check_aliases, _check_catalogue_used
from .changes import change_list, check_change_anchors, check_change_features
from .common import _display, collected
from .releases import _check_lifecycles, _check_new, _check_order, _release
from .yamlsrc import Document, from_bytes, read

REGISTRIES = ("tiers", "backends", "areas")


def load(content_dir: Path, session: Session | None = None) -> Content:
    """Read and validate a content folder; raise ContentError listing every problem.

    Three phases: read and schema-check every file (`_read`), build the registries and the
    catalogue (the cross-file checks need all of them: a problem there stops here), then build
    the change lists and releases and check what spans files (`_check_across`). Each file's
    document, and what is built of it, is a derivation of `session` (live preview's keeps them
    across saves: a save parses and builds again only the file whose bytes changed)."""
    content_dir = Path(content_dir)
    if not content_dir.is_dir():
        raise UsageError(f"{content_dir}: content folder not found")
    s = session if session is not None else Session()
    d = s.derive
    problems: list[Problem] = []
    docs = _read(content_dir, problems, s)
    if None in docs.registries.values() or len(docs.registries) < len(REGISTRIES) or None in docs.features:
        raise ContentError(problems)  # cross-file checks need every registry and the whole catalogue

    tiers, vocabularies, backends, areas = _registries(d, docs.registries, problems)
    backend_ids = frozenset(b.id for b in backends)
    catalogue = collected(d, _catalogue, tuple(docs.features), frozenset(a.id for a in areas), problems=problems)
    feature_by_id = d(_by_id, catalogue)  # one index, which every release is checked against

    change_docs = {doc.data["release"]: doc for doc in filter(None, docs.changes)}
    changes = {version: change_list(doc, backend_ids, problems, derive=d) for version, doc in change_docs.items()}
    releases = []
    for doc in filter(None, docs.releases):
        release = _release(d, doc, tiers, vocabularies, backend_ids, feature_by_id, changes, problems)
        if release:
            releases.append((release, doc))
    releases.sort(key=lambda pair: pair[0].key)
    _check_across(d, content_dir, docs, releases, tiers, catalogue, feature_by_id, change_docs, problems)
    if problems:
        raise ContentError(problems)
    retired = _retired(docs.symbols) if docs.symbols is not None else ()
    planned = cadence.planned(docs.cadence, problems) if docs.cadence is not None else ()
    known = {p.version for p in planned} | {r.version for r, _ in releases}
    due = cadence.due(docs.cadence, known, problems) if docs.cadence is not None else ()
    as_of = cadence.today(docs.cadence, []) if docs.cadence is not None else None
    if as_of is not None and releases and as_of < releases[-1][0].date:
        problems.append(docs.cadence.problem(("as_of",), f"as_of {as_of} is before the newest release's day"))
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
        as_of,
        due,
    )


def _by_id(catalogue: tuple) -> dict:
    """The catalogue's features by id."""
    return {f.id: f for f in catalogue}


def _registries(d, registries: dict, problems: list[Problem]) -> tuple:
    """(tiers, vocabularies, backends, areas) from the registry files."""
    tiers, vocabularies = collected(d, _tiers, registries["tiers"], problems=problems)
    backends = collected(d, _registry, registries["backends"], "backends", _backend, problems=problems)
    areas = collected(d, _registry, registries["areas"], "areas", _area, problems=problems)
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


def _read(content_dir: Path, problems: list[Problem], session: Session) -> _Docs:
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
    docs = dict(zip(files, _parse_all(files, problems, session), strict=True))
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


def _parse_all(files: list[tuple[Path, str]], problems: list[Problem], session: Session) -> list[Document | None]:
    """Each file read and checked against its schema (`_parse_file`), in order, with its problems
    in file order. A file's document is a derivation of its bytes: the session hands back last
    time's for a file whose bytes are unchanged. When at least PARALLEL_FROM files must be parsed
    and this process runs no other thread (a build, not live preview's server), a forked child
    parses about half of them on the other core and hands back the documents pickled (parsing
    is most of a load: README, Speed mechanisms). If the child fails, its files are parsed here
    instead: the result does not depend on the way taken."""
    args = [(_display(path), kind, _bytes(path)) for path, kind in files]
    results: dict[int, tuple[Document | None, list[Problem]]] = {}
    todo = []
    for i, (display, _, raw) in enumerate(args):
        if raw is None:  # unreadable: read() says why
            results[i] = read(files[i][0], display)
        elif (known := session.lookup(_parse_file, args[i], key=display)) is not MISSING:
            results[i] = known
        else:
            todo.append(i)
    results.update(_parse_some(args, todo))
    for i in todo:
        session.remember(_parse_file, args[i], results[i], key=args[i][0])
    out: list[Document | None] = []
    for i in range(len(files)):
        doc, errs = results[i]
        problems.extend(errs)
        out.append(doc)
    return out


def _parse_some(args: list[tuple], todo: list[int]) -> dict[int, tuple[Document | None, list[Problem]]]:
    """`_parse_file(*args[i])` for each i in todo: about half of them in a forked child (see
    `_parse_all`), the biggest files first, each to the side with fewer bytes so far."""
    away: list[int] = []
    if len(todo) >= PARALLEL_FROM and forked.available():
        loads = [0, 0]
        for i in sorted(todo, key=lambda i: -len(args[i][2])):
            side = 0 if loads[0] <= loads[1] else 1
            loads[side] += len(args[i][2])
            if side:
                away.append(i)
    theirs = [args[i] for i in sorted(away)]
    child = forked.beside(lambda: [_parse_file(*a) for a in theirs]) if away else None
    results = {i: _parse_file(*args[i]) for i in todo if i not in away}
    if child is not None:
        results.update(zip(sorted(away), child.result(), strict=True))
    return results


def _bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _parse_file(display: str, kind: str, raw: bytes) -> tuple[Document | None, list[Problem]]:
    """A file's bytes parsed and checked against its schema: (document, what parsing found)
    when it passes the schema, else (None, every problem)."""
    doc, errs = from_bytes(raw, display)
    if doc is None:
        return None, errs
    wrong = schema.check(doc, kind)
    return (None, errs + wrong) if wrong else (doc, errs)


def _check_across(
    d, content_dir, docs: _Docs, releases, tiers, catalogue, feature_by_id: dict, change_docs: dict, problems
) -> None:
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
    for doc in change_docs.values():
        collected(d, check_change_features, feature_by_id, doc, problems=problems, key=doc.path)
    for release, _ in releases:
        if release.version in change_docs:
            check_change_anchors(change_docs[release.version], release.entries, problems, derive=d)
    known = {r.version for r, _ in releases}
    for version, doc in change_docs.items():
        if version not in known and not (content_dir / "releases" / f"{version}.yaml").exists():
            problems.append(
                doc.problem(("release",), f"no release {version} in releases/{did_you_mean(version, known)}")
            )


def _registry(doc: Document, key: str, make, problems: list[Problem]) -> tuple:
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
        lambda d: Vocabulary(d["id"], d["name"], d["from"], d.get("until"), d["description"], d["source"]),
        problems,
    )
    vocab_ids = {v.id for v in vocabularies} | {"all"}
    tiers = _registry(
        doc,
        "tiers",
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
        problems,
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


def _gpu(doc: Document, versions: set[str], problems: list[Problem]) -> GpuArchitectures:
    """gpu_archs.yaml: each architecture named is one of `architectures`, each release a release file's."""
    names = tuple(doc.data["architectures"])

    def known(pointer: tuple, name: str) -> None:
        if name not in names:
            problems.append(doc.problem(pointer, f"unknown architecture {name!r}{did_you_mean(name, names)}"))

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
    builds = _gpu_builds(doc, versions, known, problems)
    drivers = tuple(
        (d["cuda"], d["linux"], d["windows"], d["release"], d["source"]) for d in doc.data.get("drivers", ())
    )
    mps = tuple((m["release"], m["macos"], m["source"]) for m in doc.data.get("mps", ()))
    return GpuArchitectures(names, tuple(left), tuple(builds), drivers, mps)


def _gpu_builds(doc: Document, versions: set[str], known, problems: list[Problem]) -> tuple:
    """gpu_archs.yaml `builds`: (releases, platform, CUDA version, architectures, source) of each build."""
    builds = []
    for i, raw in enumerate(doc.data.get("builds", ())):
        for k, version in enumerate(raw["releases"]):
            if version not in versions:
                problems.append(
                    doc.problem(("builds", i, "releases", k), f"no release {version}{did_you_mean(version, versions)}")
                )
        for platform in ("x86_64", "aarch64"):
            for cuda, archs in raw.get(platform, {}).items():
                for k, name in enumerate(archs):
                    known(("builds", i, platform, cuda, k), name)
                builds.append((tuple(raw["releases"]), platform, cuda, tuple(archs), raw["source"]))
    return tuple(builds)
