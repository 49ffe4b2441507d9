"""Load: each imported change list (content/changes/X.Y.yaml) into Changes, and the checks of
their anchors and feature tags."""

from __future__ import annotations

from ..model import symbols, urls
from ..model.content import Change, Entry
from ..model.errors import Problem
from ..util.session import now
from . import upgrade_rules
from .common import _check_id, _listed, _unknown_feature, collected
from .releases import _check_file_name
from .yamlsrc import Document


def change_list(
    doc: Document, backend_ids: frozenset[str] | None, problems: list[Problem], named: bool = True, derive=now
) -> tuple[Change, ...]:
    """The changes of a schema-valid content/changes/X.Y.yaml, with what can be checked in the
    file alone: its name (when `named`: it sits in a changes folder), backend ids (unless None:
    no registry to check against), restore and kind rules. The importer refuses what this refuses.
    `derive`: load's build session (generator.util.session), which keeps the list while the file and
    the backend ids are the same."""
    ids = frozenset(backend_ids) if backend_ids is not None else None
    return collected(derive, _change_list, doc, ids, named, problems=problems, key=doc.path)


def _change_list(doc: Document, backend_ids: frozenset[str] | None, named: bool, found: list[Problem]) -> tuple:
    if named:
        _check_file_name(doc, doc.data["release"], found)
    ids = {"backend": backend_ids}
    return tuple(_change(doc, i, c, ids, found) for i, c in enumerate(doc.data["changes"]))


def _change(doc: Document, i: int, raw: dict, ids: dict, problems: list[Problem]) -> Change:
    override = raw.get("backends")
    checked = override if override and ids["backend"] is not None else ()
    for j, backend in enumerate(checked):
        _check_id(doc, ("changes", i, "backends", j), "backend", backend, ids, problems)
    if raw.get("restore") is not None and (why := upgrade_rules.restore_problem(raw["restore"])):
        problems.append(doc.problem(("changes", i, "restore"), why))
    for j, item in enumerate(raw.get("subject") or ()):
        if why := symbols.subject_problem(item):
            problems.append(doc.problem(("changes", i, "subject", j), why))
    if raw.get("kind") is not None and (why := upgrade_rules.kind_problem(raw["section"], raw["kind"])):
        problems.append(doc.problem(("changes", i, "kind"), why))
    if why := upgrade_rules.note_problem(raw.get("kind"), raw.get("note")):
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
        ends=tuple(raw["ends"]) if raw.get("ends") is not None else None,
        subject=tuple(raw["subject"]) if raw.get("subject") is not None else None,
    )


def check_change_anchors(doc: Document, entries: tuple[Entry, ...], problems: list[Problem], derive=now) -> None:
    """A change's former anchors (`anchors:`) stay on its release page as alias ids: each may be
    claimed once, and never be an anchor the page gives to a change or entry now (a link to it
    would land on two elements, or on the wrong one). A derivation of the change list, its
    anchors and the release's entries: checked again only when one of them changed."""
    anchors = derive(_anchors, doc, key=doc.path)
    collected(derive, _check_anchors, doc, anchors, entries, problems=problems, key=doc.path)


def _anchors(doc: Document) -> tuple[str, ...]:
    """The anchor each change of the list gets on its release page, in order."""
    return tuple(urls.change_anchors(c["text"] for c in doc.data["changes"]))


def _check_anchors(
    doc: Document, anchors: tuple[str, ...], entries: tuple[Entry, ...], problems: list[Problem]
) -> None:
    changes = doc.data["changes"]
    live = {anchor: f"the change at line {doc.at(('changes', i))[0]}" for i, anchor in enumerate(anchors)}
    for i, raw in enumerate(changes):  # the #pr-N anchors the page gives (first citation wins)
        for pr in raw.get("prs", ()):
            live.setdefault(urls.pr_anchor(pr), f"PR #{pr}'s, on the change at line {doc.at(('changes', i))[0]}")
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


def check_change_features(catalogue: dict, doc: Document, problems: list[Problem]) -> None:
    """A change's hand-written `features:` must name catalogue features (one change list; load
    checks each as a derivation of its own, so a save reads again only the files it changed)."""
    for i, raw in enumerate(doc.data["changes"]):
        for j, fid in enumerate(raw.get("features", ())):
            if fid not in catalogue:
                problems.append(doc.problem(("changes", i, "features", j), _unknown_feature(fid, catalogue)))
        for j, fid in enumerate(raw.get("ends") or ()):
            if not fid.startswith("torch.") and fid not in catalogue:
                problems.append(doc.problem(("changes", i, "ends", j), _unknown_feature(fid, catalogue)))
