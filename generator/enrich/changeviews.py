"""Change views: each release-note change with its anchor, backends, features and upgrade step,
and a release's changes by section and by step. Part of the enrich stage."""

from __future__ import annotations

from collections import defaultdict

from ..markup.textfilters import plain, record_line
from ..model import symbols, urls
from ..model.computed import ChangeArea, ChangeSection, ChangeView, Inference, ReleaseChanges, UpgradeGroup
from ..model.content import (
    QUIET_KINDS,
    SECTIONS,
    UPGRADE_GROUPS,
    Backend,
    CatalogueFeature,
    Change,
    Entry,
    Release,
    area_key,
    names_backend,
)
from . import facts

BackendAreas = tuple[tuple[str, frozenset[str]], ...]
"""Each backend's id and the area headings that put a change in it, casefolded (`backend_areas`)."""


def backend_areas(backends: tuple[Backend, ...]) -> BackendAreas:
    return tuple((b.id, frozenset(a.casefold() for a in b.change_areas)) for b in backends)


def change_backends(change: Change, areas: BackendAreas) -> tuple[str, ...]:
    """The backends a change belongs to: its hand-written override, else its area headings."""
    if change.backends_override is not None:
        return change.backends_override
    parts = {p.strip().casefold() for p in change.area.split("›")}
    return tuple(bid for bid, headings in areas if not headings.isdisjoint(parts))


def release_feature_changes(release: Release, views: tuple[ChangeView, ...]) -> tuple[tuple[str, tuple], ...]:
    """One release's share of `feature_changes`: (feature id, its (release, ChangeView) pairs), in
    the order the release's changes first name each feature. A derivation per release: an edit
    to one release makes only its share again."""
    out: dict[str, list] = defaultdict(list)
    for view in views:
        for fid in view.features:
            out[fid].append((release, view))
    return tuple((fid, tuple(pairs)) for fid, pairs in out.items())


def feature_changes(shares: tuple[tuple[tuple[str, tuple], ...], ...]) -> dict[str, tuple]:
    """Feature id -> every (Release, ChangeView) naming it, newest release first: each release's
    share (`release_feature_changes`, oldest release first) joined."""
    out: dict[str, list] = defaultdict(list)
    for share in reversed(shares):
        for fid, pairs in share:
            out[fid].extend(pairs)
    return {fid: tuple(items) for fid, items in out.items()}


def by_release(own: tuple, member_actions: tuple = ()) -> tuple[ReleaseChanges, ...]:
    """(Release, ChangeView) pairs, newest first, grouped by release: one ReleaseChanges per release
    holding any, newest first. A feature's page and a family's list them so, a page per release."""
    groups: dict[str, list[list]] = {}
    release_of = {}
    for slot, pairs in enumerate((own, member_actions)):
        # The pairs come in runs of one release (a release's share, newest first): the run is the
        # unit of work, a look-up per release rather than per change (158 features of up to 750
        # releases each regrouped on a save at 50x).
        views: list = []
        run = None
        for release, view in pairs:
            if release is not run:
                run, views = release, _group(groups, release_of, release, slot)
            views.append(view)
    ordered = sorted(release_of.values(), key=lambda r: r.key, reverse=True)
    return tuple(ReleaseChanges(r, tuple(groups[r.version][0]), tuple(groups[r.version][1])) for r in ordered)


def _group(groups: dict, release_of: dict, release: Release, slot: int) -> list:
    """The list of `release`'s views in `slot` of by_release's groups (made when missing)."""
    release_of[release.version] = release
    return groups.setdefault(release.version, [[], []])[slot]


def features_by_pr(entries: tuple[tuple[Entry, ...], ...]) -> dict[int, tuple[str, ...]]:
    """PR number -> ids of the features whose entries (each release's, oldest first) cite it."""
    out: dict[int, list[str]] = defaultdict(list)
    for mine in entries:
        for entry in mine:
            for pr in entry.prs:
                if entry.id not in out[pr]:
                    out[pr].append(entry.id)
    return {pr: tuple(ids) for pr, ids in out.items()}


AreaRule = tuple[tuple[str, ...], str, frozenset]
"""(area heading parts, feature id, that feature and every member below it)."""


def area_rules(catalogue: tuple[CatalogueFeature, ...]) -> tuple[AreaRule, ...]:
    """The catalogue's per-area defaults (`change_areas`), longest heading first, each with the
    feature's subtree: a change tagged anywhere in it keeps its tag instead of the default."""
    children: dict[str, list[str]] = defaultdict(list)
    for f in catalogue:
        if f.parent:
            children[f.parent].append(f.id)

    def subtree(fid: str) -> frozenset:
        out, todo = {fid}, [fid]
        while todo:
            for child in children[todo.pop()]:
                if child not in out:
                    out.add(child)
                    todo.append(child)
        return frozenset(out)

    rules = [(area_key(h), f.id, subtree(f.id)) for f in catalogue for h in f.change_areas]
    return tuple(sorted(rules, key=lambda r: (-len(r[0]), r[0])))


def area_default(area: str, rules: tuple[AreaRule, ...]) -> AreaRule | None:
    """The rule of the longest heading that `area` equals or lies under, or None."""
    parts = area_key(area)
    return next((r for r in rules if parts[: len(r[0])] == r[0]), None)


def derived_features(area: str, given: tuple[str, ...], rules: tuple[AreaRule, ...]) -> tuple[str, ...]:
    """The feature a change carries by its area: its area's default, unless a hand tag or an
    entry's PR already puts it in that feature or one of its members (the more specific tag wins)."""
    return _derived(area_default(area, rules), given)


def _derived(rule: AreaRule | None, given: tuple[str, ...]) -> tuple[str, ...]:
    if rule is None or any(fid in rule[2] for fid in given):
        return ()
    return (rule[1],)


def views_of(
    changes: tuple[Change, ...], backends: tuple[Backend, ...], cited: tuple, rules: tuple[AreaRule, ...]
) -> tuple[ChangeView, ...]:
    """Each change with its own anchor, the PR anchors it owns (first citation wins), its backends
    and its features (hand tags, entries citing its PRs, then its area's default). A part of
    its own in `enrich`: live preview recomputes only the change lists an edit touched."""
    anchored: set[int] = set()
    views = []
    by_pr = dict(cited)
    areas = backend_areas(backends)
    ids = tuple(b.id for b in backends)
    defaults: dict[str, AreaRule | None] = {}  # an area's default, looked up once for all its changes
    for change, anchor in zip(changes, urls.change_anchors(c.text for c in changes), strict=True):
        own = tuple(pr for pr in dict.fromkeys(change.prs) if pr not in anchored)
        anchored.update(own)
        given = tuple(dict.fromkeys(change.features + tuple(f for pr in change.prs for f in by_pr.get(pr, ()))))
        if change.area not in defaults:
            defaults[change.area] = area_default(change.area, rules)
        derived = _derived(defaults[change.area], given)
        line = plain(record_line(change.text))  # read here once, for the ending, the inventory and scan
        ending = facts.ending_kind(change, line)  # for the upgrade group, the ledger and its checks
        group = upgrade_group(change, ending)
        views.append(
            ChangeView(
                change,
                anchor,
                own,
                change_backends(change, areas),
                symbols=symbols.of_text(change.text, change.note, change.restore),
                # Only a subject the content confirms is matched: a proposal is a question (subject_question).
                subject=change.subject or (),
                subject_confirmed=change.subject is not None,
                every_backend=every_backend(change.subject or (), ids),
                group=group,
                line=line,
                features=given + derived,
                derived=derived,
                ending=ending,
            )
        )
    return tuple(views)


def every_backend(subject: tuple[str, ...], backend_ids: tuple[str, ...]) -> bool:
    """Whether a change concerns every backend by its confirmed subject: Python code (symbols.is_code:
    an environment variable or a flag is read where the backend's build reads it) naming no backend."""
    return any(symbols.is_code(i) for i in subject) and not any(names_backend(i, backend_ids) for i in subject)


def proposed_subject(change: Change, group: str) -> tuple[str, ...]:
    """What its record line proposes the change is about (symbols.propose_subject), while the
    content has not said (no `subject:`); () for a change that asks nothing of an upgrade (no
    `group`), which applies to no line of code."""
    if change.subject is not None or not group:
        return ()
    return symbols.propose_subject(record_line(change.text))


SUBJECT_ANSWER = "answer with `subject:` (what code must use for it to apply; [] for nothing code names)"


def subject_question(change: Change, group: str) -> str | None:
    """What check asks of a change that goes into an upgrade step and whose subject the content has
    not confirmed, though its record line proposes one (None when there is nothing to ask): until
    answered, scan and the paste box match it against nothing."""
    proposal = proposed_subject(change, group)
    if not proposal:
        return None
    return f"is it about {', '.join(proposal)}, as its record line suggests? {SUBJECT_ANSWER}"


def subject_questions(versions: tuple[str, ...], views: tuple) -> tuple[Inference, ...]:
    """Each grouped change's unconfirmed subject (subject_question), as `check` lists it."""
    return tuple(
        Inference(version, v.change, question, about="subject")
        for version, vs in zip(versions, views, strict=True)
        for v in vs
        if (question := subject_question(v.change, v.group))
    )


def record_questions(release: str, changes: tuple[Change, ...]) -> tuple[Inference, ...]:
    """The questions `check` asks of a change list that its records answer alone: each grouped
    change's unconfirmed subject, and each name a deprecation or removal record seems to end (the
    inferences that need no feature, ledger or other release). import-notes holds a re-import to them."""
    views = (views_of(changes, (), (), ()),)
    return facts.inferences((), (), (release,), views, {}) + subject_questions((release,), views)


def upgrade_group(change: Change, ending: str | None) -> str:
    """Where a change goes in an upgrade guide (UPGRADE_GROUPS), "" when an upgrade need not act.
    `ending`: facts.ending_kind(change)."""
    if change.section == "tracked-regressions":
        return "known-issues"
    if change.section == "deprecations":
        # Filed by what it does: a removal the notes list as a deprecation is a removal, and a
        # record that ends nothing goes where its kind puts it.
        if change.kind in QUIET_KINDS:
            # Filed under deprecations, asks nothing (2.4's internal fixes; "Remove FlameGraph usage
            # steps from export_stacks docstring" reads as a removal, of a docstring's steps).
            return ""
        if ending is not None or change.kind is None:
            return "removals" if ending == "removal" else "deprecations"
    if change.section not in ("bc-breaking", "deprecations") and (change.kind is None or change.kind in QUIET_KINDS):
        return ""
    if change.kind in ("default-change", "behaviour-change", "numerics"):
        return "defaults"
    if change.kind == "api-removed":
        return "removals"
    return "breaking"


def upgrade(release: Release, views: tuple[ChangeView, ...]) -> tuple[UpgradeGroup, ...]:
    """Upgrading to this release from the one before: its changes that need action, step by step.
    Feature entries count too (entry_group): a deprecation the announcement names and no change
    record of the step tells is listed by its entry, as on the ledger."""
    out = []
    for group_id, title in UPGRADE_GROUPS:
        mine = [v for v in views if v.group == group_id]
        told = {fid for v in views if _tells(v.group, group_id) for fid in v.features}
        entries = tuple(e for e in release.entries if entry_group(e) == group_id and e.id not in told)
        areas = list(dict.fromkeys(v.change.area for v in mine))
        mine.sort(key=lambda v: areas.index(v.change.area))
        if mine or entries:
            out.append(UpgradeGroup(group_id, title, tuple(mine), entries))
    return tuple(out)


def bc_split(views: tuple[ChangeView, ...]) -> tuple[tuple[str, int], ...]:
    """Where the notes' backwards-incompatible changes went in the upgrade steps, by what each does:
    (step title, how many), in step order; "" titles those an upgrade need not act on."""
    titles = dict(UPGRADE_GROUPS)
    counts = defaultdict(int)
    for v in views:
        if v.change.section == "bc-breaking":
            counts[v.group] += 1
    return tuple((titles.get(g, ""), counts[g]) for g in (*titles, "") if counts.get(g))


def entry_group(entry: Entry) -> str:
    """Where a feature entry goes in an upgrade guide (UPGRADE_GROUPS), "" when nowhere."""
    if entry.change in ("new", "promoted"):
        return "new"
    if entry.change == "deprecated":
        return "deprecations"
    if entry.change == "removed":
        return "removals"
    return ""


def _tells(change_group: str, entry_group: str) -> bool:
    """Whether a change in `change_group` already tells a feature entry of `entry_group`: one of
    the same step, or, for a step that asks something, a change of any such step (2.13's Bazel
    removal is a breaking change and a removed entry: one step, not two)."""
    return bool(change_group) and (change_group == entry_group or {change_group, entry_group} <= ACTING_GROUPS)


ACTING_GROUPS = frozenset({"breaking", "defaults", "removals", "deprecations"})
"""The upgrade steps that ask something of a reader: one of them telling a feature is enough."""


def sections(views: tuple[ChangeView, ...]) -> tuple[ChangeSection, ...]:
    """A release's changes grouped by section (in SECTIONS order) and by area (in notes order)."""
    grouped = []
    anchors: set[str] = set()
    for section in SECTIONS:
        in_section = [v for v in views if v.change.section == section.id]
        if not in_section:
            continue
        areas: dict[str, list[ChangeView]] = {}
        for v in in_section:
            areas.setdefault(v.change.area, []).append(v)
        grouped.append(
            ChangeSection(
                section.id,
                len(in_section),
                tuple(
                    ChangeArea(
                        a, urls.unique(f"{section.id}-{urls.slugify(a) if a else 'general'}", anchors), tuple(vs)
                    )
                    for a, vs in areas.items()
                ),
            )
        )
    return tuple(grouped)
