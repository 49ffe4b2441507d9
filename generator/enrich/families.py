"""Families: every catalogue feature with members, with its members' matrix, announcements and
changes, in reading order. Part of the enrich stage."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from ..model.computed import Family, Feature, Matrix
from ..model.content import CatalogueFeature, Release, Tier
from ..util.session import Session
from .changeviews import by_release
from .lifecycle import Eras, ancestors, gone_after, row, strip


def families(
    catalogue: tuple[CatalogueFeature, ...],
    releases: tuple[Release, ...],
    eras: Eras,
    tiers: tuple[Tier, ...],
    feature_by_id: dict,
    feature_changes: dict,
    session: Session,
) -> tuple[Family, ...]:
    """Every catalogue feature with members (`family`), in reading order: the most-released
    top-level families first, each followed by its sub-families, depth first. Each family is a
    derivation of its own: an edit makes again the families whose members or releases it changed."""
    children: dict[str, list[CatalogueFeature]] = defaultdict(list)
    for f in catalogue:
        if f.parent is not None:
            children[f.parent].append(f)
    catalogue_by_id = {f.id: f for f in catalogue}
    by_id = {}
    for node in catalogue:
        if node.id not in children:
            continue
        below = tuple((depth, catalogue_by_id[fid]) for depth, fid in subtree(node.id, children))
        members = tuple(feature_by_id.get(n.id) for _, n in below)
        changes = tuple(feature_changes.get(n.id, ()) for _, n in below)
        said = {e.release for f in members if f for e in f.entries}
        by_id[node.id] = session.derive(
            family,
            node,
            ancestors(node, catalogue_by_id),
            tuple(children[node.id]),
            below,
            members,
            eras,
            session.derive(member_rows, below, members, eras, tiers, key=node.id),
            changes,
            tuple(r for r in releases if r.version in said),
            key=node.id,
        )
    ordered: list[Family] = []

    def visit(family: Family) -> None:
        ordered.append(family)
        for child in family.children:
            if child.id in by_id:
                visit(by_id[child.id])

    roots = (f for f in by_id.values() if not f.ancestors)
    for root in sorted(roots, key=lambda f: (-len(f.by_release), f.node.name.casefold())):
        visit(root)
    return tuple(ordered)


def subtree(node_id: str, children: dict, depth: int = 0) -> list[tuple[int, str]]:
    """(depth, id) of a catalogue node and everything below it, depth first."""
    out = [(depth, node_id)]
    for child in children.get(node_id, ()):
        out += subtree(child.id, children, depth + 1)
    return out


def member_rows(
    below: tuple[tuple[int, CatalogueFeature], ...],
    members: tuple[Feature | None, ...],
    eras: Eras,
    tiers: tuple[Tier, ...],
) -> tuple:
    """A family's matrix rows: one per member a release announced, indented by its depth. A
    derivation apart from the family's: an edit to one of the family's releases (its summary)
    makes the family again, not its members' lifecycles (hundreds of strips at 10x)."""
    return tuple(
        replace(row(feature, strip(feature.entries, eras, tiers, True, gone_after(feature))), depth=depth)
        for (depth, _), feature in zip(below, members, strict=True)
        if feature
    )


def family(
    node: CatalogueFeature,
    chain: tuple[CatalogueFeature, ...],
    kids: tuple[CatalogueFeature, ...],
    below: tuple[tuple[int, CatalogueFeature], ...],
    members: tuple[Feature | None, ...],
    eras: Eras,
    rows: tuple,
    changes: tuple[tuple, ...],
    said: tuple[Release, ...],
) -> Family:
    """One family: a matrix row per member (`rows`, from `member_rows`), its announcements
    release by release, its own changes, what its members' changes ask of an upgrade (both also
    by release: a page each), and how many changes each member has.
    `below`: (depth, node) of the family and every member under it, depth first; `members`, the
    Feature of each (None where no release announced it); `changes`, each one's (Release,
    ChangeView) pairs; `said`, the releases announcing any of them; `chain`, its ancestors."""
    entries: dict[str, list] = defaultdict(list)
    for feature in members:
        for entry in feature.entries if feature else ():
            entries[entry.release].append(entry)
    actions = {
        (release.version, view.anchor): (release, view)
        for pairs in changes[1:]
        for release, view in pairs
        if view.group and view.group != "new"
    }
    release_by_version = {r.version: r for r in said}
    member_actions = tuple(sorted(actions.values(), key=lambda pair: (pair[0].key, pair[1].anchor), reverse=True))
    return Family(
        node=node,
        feature=members[0],
        ancestors=chain,
        children=kids,
        matrix=Matrix(tuple(v for v, _ in eras), rows),
        members=len(below) - 1,
        by_release=tuple((release_by_version[v], tuple(entries[v])) for v, _ in reversed(eras) if entries.get(v)),
        own_changes=changes[0],
        member_actions=member_actions,
        member_counts=tuple((n, depth, len(c)) for (depth, n), c in zip(below[1:], changes[1:], strict=True) if c),
        ids=tuple(n.id for _, n in below),
        changes_by_release=by_release(changes[0], member_actions),
    )
