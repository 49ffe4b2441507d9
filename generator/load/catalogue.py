"""Load: the feature catalogue (content/features/*.yaml) as a tree, and the checks that tie it to
the releases (every feature used, aliases alive)."""

from __future__ import annotations

from pathlib import Path

from ..model import urls
from ..model.content import CatalogueFeature, area_key
from ..model.errors import Problem, did_you_mean
from .common import _check_id
from .yamlsrc import Document


def _support(raw: dict | None) -> tuple[str, str, str | None] | None:
    """A catalogue `support:` as (field, value, source): ("python", "3.7", None), ("last", "2.2", url)."""
    if not raw:
        return None
    field = next(k for k in ("python", "cuda", "rocm", "last") if k in raw)
    return field, raw[field], raw.get("source")


def _catalogue(
    docs: tuple[Document, ...], areas: frozenset[str], problems: list[Problem]
) -> tuple[CatalogueFeature, ...]:
    """The feature tree: unique ids, known areas, parents that exist and never loop, and aliases
    that are nobody's id and one feature's only."""
    ids = {"area": areas}
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
            _check_letter(doc, at + ("id",), raw["id"], problems)
            for j, alias in enumerate(raw.get("aliases", ())):
                _check_letter(doc, at + ("aliases", j), alias, problems)
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


def _check_letter(doc: Document, pointer: tuple, fid: str, problems: list[Problem]) -> None:
    """A feature id (or former id) opens features/<id>/, beside the features pages of earlier spans
    of releases (urls.features_span: features/2.0-2.14/): an id with no letter could be one of them."""
    if not any("a" <= c <= "z" for c in fid):
        example = urls.features_span("2.0", "2.14")
        problems.append(
            doc.problem(
                pointer,
                f"feature id '{fid}' has no letter: {urls.feature(fid)} could be the address of the features "
                f"page of a span of releases (such as {example}); put a letter in it",
            )
        )


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
