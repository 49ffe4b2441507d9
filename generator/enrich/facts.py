"""The statements the Atlas makes, each computed once: a feature's standing (overall and per
backend) and how a deprecated feature or API ends.

Every surface reads these: the feature page's fact line, its lifecycle strip, family and feature
indexes, backend matrices, badges, the JSON API, link previews, search records, the home page,
the ledger and the upgrade guide. The rules are the README's "What the Atlas states":

- A standing is the tier the latest release's strip cell shows, in today's vocabulary, and the
  first release of the strip's last run under that name. The strip shows each release in its own
  vocabulary, so a reader who reads "since 2.8" finds "Unstable" from 2.8 on and the announced
  "Prototype" before it; the tier as announced (and when) is kept beside it.
- On a backend, the lifecycle starts at the first entry naming the backend; from then on an entry
  naming no backend counts for it too, an entry stating no tier keeps the feature's tier in force,
  and an entry naming only other backends does not move this backend's tier (a promotion on CUDA
  alone leaves MPS where it was).
- An ending: deprecated in (an entry or change deprecating it), removal announced for, removed in
  (the notes' word, an entry or a later change, else the first release whose compatibility row
  drops the support), and a part removed where a later change took part of it away. Each stated
  field carries its evidence (Cited: the entry, record, PRs or compatibility row it was read from).
- A `torch.*` name's ending (name_endings): the records whose `ends:` say that name is deprecated
  or removed; symbols.json and TorchFix's file only format it.
- An ending inferred from record text (a name a record seems to be about, a removal tied to a
  deprecated feature, a rare name shared with a later removal) is a question (`inferences`, which
  `check` lists) until the record's hand-written `ends:` confirms or rejects it; only then is it stated.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ..markup.textfilters import plain, record_line
from ..model import symbols, urls
from ..model.computed import (
    Cell,
    ChangeView,
    Ending,
    Feature,
    FeaturesPage,
    Inference,
    LedgerPage,
    LedgerRow,
    NameEnding,
    Standing,
)
from ..model.content import Entry, Release, page_spans, version_key
from ..model.stops import Cited

ENDING_VERBS = {
    "undone": re.compile(r"\b(cancel\w*|un-?deprecat\w*|revert\w*)\b"),
    "removal": re.compile(r"^(remove[sd]?|removing|delete[sd]?|drop(?:ped|s)?)\b"),
    "deprecation": re.compile(
        r"deprecat|will be removed|will error|will raise|future release|futurewarning|\bwarn|instead of"
    ),
    "removed": re.compile(r"\b(has been removed|is removed|are removed|no longer supported|removed)\b"),
    # "Deprecated internal API `torch.onnx._export` has been removed": gone, whatever it was before
    "gone": re.compile(r"\b(has|have) been removed\b|\bis no longer public\b"),
}


def ending_kind(change, line: str | None = None) -> str | None:
    """What a change does to what it names: "removal", "deprecation", or None (not an ending, or
    one taken back: "Canceling deprecation of …"), read from its record line's own words (not
    from the section the notes filed it under); `line`, that record line as plain words, when the
    caller has it (changeviews reads it once per change)."""
    line = (plain(record_line(change.text)) if line is None else line).casefold()
    if ENDING_VERBS["undone"].search(line):
        return None
    if ENDING_VERBS["removal"].search(line) or ENDING_VERBS["gone"].search(line):
        return "removal"
    if ENDING_VERBS["deprecation"].search(line):
        return "deprecation"
    if ENDING_VERBS["removed"].search(line):
        return "removal"
    return None


def standing(
    cells: tuple[Cell, ...], entries: tuple[Entry, ...], tier_by_id: dict, latest: str, removed_in: str | None = None
) -> Standing:
    """The standing a lifecycle strip (`cells`, runs merged) and its entries (oldest first) state;
    `removed_in`, the feature's removal (its Ending), ends it on every backend alike."""
    first = cells[0].release if cells else entries[0].release
    releases = len({e.release for e in entries})
    stated = [e for e in entries if e.tier]
    announced = tier_by_id[stated[-1].tier] if stated else None
    announced_in = _announced_in(stated)
    removed = next((c for c in cells if c.tier == "removed" or c.css.startswith("gone")), None)
    if removed is not None or removed_in:
        gone = removed_in or removed.release
        return Standing(tier_by_id["removed"], gone, first, gone, releases, announced, announced_in)
    last = cells[-1] if cells else None
    if last is None or last.tier is None:
        return Standing(None, first, first, latest, releases, announced, announced_in)
    since = last.release
    for cell in reversed(cells):
        if cell.tier != last.tier:
            break
        since = cell.release
    return Standing(tier_by_id[last.tier], since, first, latest, releases, announced, announced_in)


def _announced_in(stated: list[Entry]) -> str | None:
    """The release that first announced the latest stated tier (restatements do not move it)."""
    if not stated:
        return None
    first = stated[-1]
    for e in reversed(stated):
        if e.tier != first.tier:
            break
        first = e
    return first.release


def backend_entries(entries: tuple[Entry, ...], backend: str) -> tuple[Entry, ...]:
    """A feature's entries as one backend sees them, from the first entry naming it: those naming
    it and those naming none, an entry stating no tier keeping the feature's tier in force."""
    out, in_force, started = [], None, False
    for e in entries:
        if e.tier:
            in_force = e.tier
        started = started or backend in e.backends
        ends = e.change == "removed" or e.tier == "removed"  # a removal ends it everywhere
        if not started or (e.backends and backend not in e.backends and not ends):
            continue
        out.append(e if e.tier or in_force is None else _with_tier(e, in_force))
    return tuple(out)


def _with_tier(entry: Entry, tier: str) -> Entry:
    return replace(entry, tier=tier)


def removals_by_feature(versions: tuple[str, ...], views: tuple) -> dict[str, tuple[tuple[str, ChangeView], ...]]:
    """Feature id -> the (release, view) of each removal record tied to it (by a tag, an entry's PR
    or its area), oldest first: what `feature_ending` reads to find a part removed. A derivation of
    the change views alone, so an edit elsewhere in a release file keeps it."""
    out: dict[str, list[tuple[str, ChangeView]]] = {}
    for version, vs in zip(versions, views, strict=True):
        for v in vs:
            if v.features and v.ending == "removal":
                for fid in v.features:
                    out.setdefault(fid, []).append((version, v))
    return {fid: tuple(pairs) for fid, pairs in out.items()}


def verdict(view: ChangeView, what: str) -> bool | None:
    """Whether the record's hand-written `ends:` says it ends `what` (a torch.* name or a feature
    id): True or False, None while the content has not said (an inference is then a question)."""
    ends = view.change.ends
    return None if ends is None else what in ends


def cited_change(version: str, view: ChangeView) -> tuple[Cited, ...]:
    """A change record as evidence: its anchor on its release page, then its PRs upstream."""
    own = Cited(f"{version} record", urls.at(urls.release(version), view.anchor))
    return (own, *(Cited(f"#{pr}", urls.pr(pr)) for pr in view.change.prs))


def cited_entry(entry: Entry) -> tuple[Cited, ...]:
    """A feature entry as evidence: its anchor on its release page, then the source it was written from."""
    own = Cited(f"{entry.release} entry", urls.at(urls.release(entry.release), urls.entry_anchor(entry.id)))
    return (own, Cited("source", entry.source)) if entry.source else (own,)


def _part_removal(fid: str, removals: tuple, since: str) -> tuple[str, ChangeView] | None:
    """The earliest removal record after `since` confirmed (its `ends:` names `fid`) to take part of
    the feature away; a tied removal the content has not confirmed is a question (`inferences`)."""
    return next(
        (
            (version, v)
            for version, v in removals
            if version_key(version) > version_key(since) and verdict(v, fid) is True
        ),
        None,
    )


def cited_support(version: str, how: str, compatibility, source: str | None) -> tuple[Cited, ...]:
    """A support's end as evidence: the release's compatibility row (and the matrix it copies), or
    the source that names the last release (`how` "last")."""
    if how == "last":
        return (Cited("source", source),) if source else ()
    row = Cited(f"{version} compatibility row", urls.at(urls.release(version), urls.COMPATIBILITY_ANCHOR))
    return (row, Cited("release matrix", compatibility.source)) if compatibility and compatibility.source else (row,)


def feature_ending(
    entries: tuple[Entry, ...],
    removed_by_support: tuple[str, str, tuple[Cited, ...]] | None,
    removals: tuple[tuple[str, ChangeView], ...],
    shipped: set[str],
) -> Ending | None:
    """How a feature ends, or None: its deprecating entry, the removal release announced, its removal
    (an entry removing it, else the compatibility rows: `removed_by_support` = (release, how, evidence)),
    and the earliest later removal record tied to it and confirmed by its `ends:`, which removes part
    of it (`removals`: (release, view), oldest first). Each stated field carries what it was read from."""
    deprecated = next((e for e in entries if e.change == "deprecated" or e.tier == "deprecated"), None)
    removed = next((e for e in entries if e.change == "removed" or e.tier == "removed"), None)
    planned = next((e for e in reversed(entries) if e.removal), None)
    if deprecated is None and removed is None and removed_by_support is None:
        return None
    since = deprecated.release if deprecated else entries[0].release
    evidence: list = [("deprecated_in", cited_entry(deprecated))] if deprecated else []
    if planned is not None:
        evidence.append(("removal_planned", cited_entry(planned)))
    if removed is not None:
        removed_in, how = removed.release, "entry"
        evidence.append(("removed_in", cited_entry(removed)))
    elif removed_by_support is not None:
        removed_in, how, cited = removed_by_support
        evidence.append(("removed_in", cited))
    else:
        removed_in, how = None, ""
    part = None if removed_in else _part_removal(entries[0].id, removals, since)
    if part is not None:
        evidence.append(("part_removed_in", cited_change(*part)))
    return Ending(
        deprecated.release if deprecated else None,
        planned.removal if planned else None,
        removed_in,
        how,
        part[0] if part else None,
        tuple(evidence),
        status(planned.removal if planned else None, removed_in, shipped),
    )


def status(planned: str | None, removed_in: str | None, shipped: set[str]) -> str:
    """ "removed", "overdue" (the announced removal release shipped without it), "due" or "deprecated"."""
    if removed_in:
        return "removed"
    if planned and planned in shipped:
        return "overdue"
    return "due" if planned else "deprecated"


def symbol_counts(change_views: dict) -> Counter:
    """How many changes name each symbol: a name on few lines is about one thing, a name on every
    other line (`torch.compile`) says nothing."""
    return Counter(s for views in change_views.values() for v in views for s in set(v.symbols))


def change_ending(at: int, version: str, view: ChangeView, later: Later, counts: Counter, shipped: set) -> Ending:
    """How a deprecation change record (of the `at`-th release) ends, checked against later
    releases' changes: the one its hand-written `carried_out` names (the PR of the change that made
    the warning an error or removed the API), else a later removal sharing one of this record's
    rare names (on at most three changes) once both records' `ends:` confirm it (`carried_out_by`).
    Else due, overdue or still deprecated. Each stated field carries what it was read from."""
    planned = view.change.removal
    evidence: list = [("deprecated_in", cited_change(version, view))]
    if planned:
        evidence.append(("removal_planned", cited_change(version, view)[:1]))
    found, _ = carried_out_by(at, view, later, counts)
    if found is not None:
        removed_in, v = found
        evidence.append(("removed_in", cited_change(removed_in, v)))
        return Ending(version, planned, removed_in, "change", None, tuple(evidence), "removed")
    return Ending(version, planned, None, "", None, tuple(evidence), status(planned, None, shipped))


def carried_out_by(
    at: int, view: ChangeView, later: Later, counts: Counter
) -> tuple[tuple[str, ChangeView] | None, tuple[tuple[str, ChangeView], ...]]:
    """The later change that carried a deprecation out, as (release, view), and the later removals
    the text suggests but the content has not confirmed (questions). By hand: the change citing
    its `carried_out` PR. Inferred: a removal whose record names one of the deprecation's rare
    names, confirmed when both records' `ends:` name a same thing, rejected when they do not."""
    pr = view.change.carried_out
    by_hand = [(r, v) for j, r, v in later.by_pr.get(pr, ()) if j > at] if pr is not None else []
    if by_hand:
        return by_hand[0], ()
    named = {s for s in symbols.of_text(record_line(view.change.text)) if counts[s] <= 3}
    hits = {k: found for s in named for k, found in later.removals_naming.get(s, ())}
    matched = [(r, v) for _, (j, r, v) in sorted(hits.items()) if j > at]
    confirmed = [(r, v) for r, v in matched if _shared_ends(view, v)]
    open_ = tuple((r, v) for r, v in matched if _shared_ends(view, v) is None)
    return (confirmed[0] if confirmed else None), open_


def _shared_ends(one: ChangeView, other: ChangeView) -> bool | None:
    if one.change.ends is None or other.change.ends is None:
        return None
    return bool(set(one.change.ends) & set(other.change.ends))


class Later:
    """What a deprecation is checked against, read once: the removal records by each name they
    name (with their place among all removals, oldest release first), and every change by the PRs
    it cites, each with its release's position (oldest first) and version. Looking removals up by
    name, not walking them all for each deprecation, keeps the check linear in the changes."""

    def __init__(self, versions: tuple[str, ...], views: tuple) -> None:
        self.removals_naming: dict[str, list] = {}
        self.by_pr: dict[int, list] = {}
        removals = 0
        for j, (r, vs) in enumerate(zip(versions, views, strict=True)):
            for v in vs:
                if v.ending == "removal":
                    for s in set(v.symbols):
                        self.removals_naming.setdefault(s, []).append((removals, (j, r, v)))
                    removals += 1
                for pr in v.change.prs:
                    self.by_pr.setdefault(pr, []).append((j, r, v))


def ledger(features: tuple[Feature, ...], versions: tuple[str, ...], views: tuple) -> tuple[LedgerRow, ...]:
    """Every deprecation, oldest first: announced feature entries and release-note change records
    alike, each with its one ending (generator.enrich.facts). A change record is a row by what it does
    (ending_kind), not by the section it sits in: a removal with no deprecation before it and
    a record that ends nothing stay off the ledger. A record tied to a feature the ledger already
    has, or to a feature whose ending is known, is that feature's. `views`: each release's change
    views, in the order of `versions` (oldest first)."""
    change_views = dict(zip(versions, views, strict=True))
    shipped = set(versions)
    rows = []
    ended = {f.id: f for f in features if f.ending is not None}
    for f in features:
        entry = next((e for e in f.entries if e.change == "deprecated" or e.tier == "deprecated"), None)
        if entry is not None:
            rows.append(LedgerRow(f.title, urls.feature(f.id), f, entry, None, f.ending))
    counts, later = symbol_counts(change_views), Later(versions, views)
    for i, version in enumerate(versions):
        for view in change_views[version]:
            # A deprecation record, or any record that announces a removal release (2.14's
            # `setup.py` shim, a breaking change with a schedule) is a row of its own.
            if not (view.change.removal and view.group) and view.ending != "deprecation":
                continue
            if view.group != "deprecations" and not view.change.removal:
                continue
            tied = [ended[fid] for fid in view.features if fid in ended]
            if tied:
                if any(f.deprecated_in for f in tied):
                    continue
                ending = _deprecated_by(tied[0].ending, version, view)
            else:
                ending = change_ending(i, version, view, later, counts, shipped)
            title = record_line(view.change.text)  # pages print it with `headline`
            rows.append(LedgerRow(title, urls.at(urls.release(version), view.anchor), None, None, view, ending))
    rows.sort(key=lambda r: (version_key(r.deprecated_in), r.title.casefold()))
    return tuple(rows)


def _deprecated_by(ending: Ending, version: str, view: ChangeView) -> Ending:
    """A feature's ending (its support left the matrix) deprecated by a change record of `version`."""
    evidence = (
        ("deprecated_in", cited_change(version, view)),
        *(p for p in ending.evidence if p[0] != "deprecated_in"),
    )
    return replace(ending, deprecated_in=version, evidence=evidence)


def span_pages(versions: tuple[str, ...], page_of, holds) -> tuple:
    """A list by release cut into pages (model.page_spans), newest first: page_of(the span's
    versions) for each, the first (the list's usual address) always, an earlier one only where it
    `holds` something. The ledger, /tiers/, /features/, /contributors/ and /upgrade/defaults/ are
    cut by this one rule."""
    pages = []
    for n, (start, stop) in enumerate(page_spans(versions)):
        page = page_of(versions[start:stop])
        if n == 0 or holds(page):
            pages.append(page)
    return tuple(pages)


def ledger_pages(ledger: tuple[LedgerRow, ...], removals: tuple, versions: tuple[str, ...]) -> tuple[LedgerPage, ...]:
    """The deprecation ledger's pages (span_pages): the rows deprecated in each span of releases,
    in the ledger's order, and the span's removals of earlier deprecations (earlier_removals)."""

    def page_of(span: tuple[str, ...]) -> LedgerPage:
        within = set(span)
        rows = tuple(r for r in ledger if r.deprecated_in in within)
        return LedgerPage(span[0], span[-1], rows, tuple(p for p in removals if p[0].version in within))

    return span_pages(versions, page_of, lambda page: page.items or page.removals)


def feature_pages(by_area: tuple, families: tuple, versions: tuple[str, ...]) -> tuple[FeaturesPage, ...]:
    """/features/ and a page per earlier span of releases (span_pages): each lists, by area, the
    features first announced in its span, and the families whose first release (the oldest of
    `by_release`) is in it; a family no release announced is on /features/. An earlier span's page
    is made only where it lists something."""
    newest = versions[-1]

    def page_of(span: tuple[str, ...]) -> FeaturesPage:
        within = set(span)
        areas = tuple((area, mine) for area, group in by_area if (mine := tuple(f for f in group if f.first in within)))
        began = tuple(f for f in families if (f.first or newest) in within)
        return FeaturesPage(span[0], span[-1], areas, began, sum(len(mine) for _, mine in areas))

    return span_pages(versions, page_of, lambda page: page.items or page.families)


_SAYS_DEPRECATED = re.compile(r"\bdeprecated\b", re.IGNORECASE)


def earlier_removals(releases: tuple[Release, ...], views: tuple) -> tuple[tuple[Release, ChangeView], ...]:
    """Removals of what was deprecated before the change lists begin (2.14: "Remove the deprecated
    `torch.cholesky()`"): a record in the removals step whose record line says it was deprecated,
    in release order. The ledger cannot say when they were deprecated; it says they went."""
    change_views = {r.version: v for r, v in zip(releases, views, strict=True)}
    return tuple(
        (release, view)
        for release in releases
        for view in change_views[release.version]
        if view.group == "removals" and _SAYS_DEPRECATED.search(record_line(view.change.text))
    )


# How a record names the API it ends (the inference `ends:` confirms): the `torch.*` names its
# record line writes before a replacement phrase ("in favor of", "use", "replaced by", "migrated
# to", "moved to"), or, for "Use A instead of B", those after "instead of"; the first name after
# the phrase is the replacement. A record about a part of a name (an option, argument, flag, what
# it accepts or dispatches to, a backend before it) or one that adds something names none, nor
# does a name written as a call with arguments (`torch.compile(fullgraph=True)`).
_INSTEAD = re.compile(r"^\W*use\b(?P<new>.*?)\binstead of\b(?P<old>.*)$", re.IGNORECASE | re.DOTALL)
_REPLACED = re.compile(r"\b(?:in favou?r of|use|replaced? (?:by|with)|migrated to|moved to|switch to)\b", re.IGNORECASE)
_PART = re.compile(
    r"\b(?:options?|arguments?|params?|parameters?|keywords?|kwargs?|flags?|accepts?|dispatch(?:es)?|"
    r"interface)\b",
    re.IGNORECASE,
)
_BEHIND = re.compile(r"\bbackends?\b", re.IGNORECASE)  # before the first name: what sits behind it
_ADDS = re.compile(r"^\W*add(?:s|ed)?\b", re.IGNORECASE)
_NAME = re.compile(r"(?<![\w/.])torch(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def inferred_names(view: ChangeView) -> tuple[tuple[str, ...], str | None]:
    """The `torch.*` names a deprecation or removal record seems to be about, and the replacement it
    names: a proposal from its words, stated only once its `ends:` confirms it."""
    record, _, body = view.change.text.strip().partition("\n")
    first = _NAME.search(record)
    behind = first is not None and _BEHIND.search(record[: first.start()])
    if _ADDS.search(record) or _PART.search(record) or behind:
        return (), None
    if m := _INSTEAD.match(record):
        old, new = symbols.torch_names(m["old"]), symbols.torch_names(m["new"])
        return old, (new[0] if new else None)
    m = _REPLACED.search(record)
    before, after = (record[: m.start()], record[m.end() :]) if m else (record, "")
    subjects = tuple(n for n in symbols.torch_names(before) if not re.search(re.escape(n) + r"\([^)]", before))
    named_after = _first_name(after) or _first_name_after_phrase(body) or _first_name_after_phrase(view.change.note)
    return subjects, (named_after if named_after not in subjects else None)


def _first_name(text: str) -> str | None:
    m = _NAME.search(text)
    return m[0] if m else None


def _first_name_after_phrase(text: str | None) -> str | None:
    m = _REPLACED.search(text or "")
    return _first_name(text[m.end() :]) if m else None


def ended_names(view: ChangeView) -> tuple[str, ...]:
    """The `torch.*` names a record deprecates or removes (by its ending), as its `ends:` confirms."""
    if view.ending is None or view.change.ends is None:
        return ()
    return tuple(n for n in view.change.ends if n.startswith("torch."))


def name_endings(versions: tuple[str, ...], views: tuple) -> tuple[NameEnding, ...]:
    """Every `torch.*` name a record says is deprecated or removed, by name: the oldest deprecating
    record and the oldest removing one, the replacement the first of them names, and what each
    stated field rests on. The one home symbols.json and TorchFix's file read."""
    found: dict[str, dict] = {}
    for version, vs in zip(versions, views, strict=True):
        for v in vs:
            names = ended_names(v)
            replacement = inferred_names(v)[1] if names else None
            for name in names:
                slot = found.setdefault(name, {})
                slot.setdefault(v.ending, (version, v))
                # Not a name inside one it ends: torch.ao.quantization.pt2e replaces nothing of its package.
                if replacement and not any(replacement == n or replacement.startswith(n + ".") for n in names):
                    slot.setdefault("replacement", replacement)
    return tuple(_name_ending(name, found[name]) for name in sorted(found))


def _name_ending(name: str, slot: dict) -> NameEnding:
    dep, rem = slot.get("deprecation"), slot.get("removal")
    evidence: list = []
    if dep:
        evidence.append(("deprecated_in", cited_change(*dep)))
        if dep[1].change.removal:
            evidence.append(("removal_planned", cited_change(*dep)[:1]))
    if rem:
        evidence.append(("removed_in", cited_change(*rem)))
    return NameEnding(
        name,
        dep[0] if dep else None,
        dep[1].change.removal if dep else None,
        rem[0] if rem else None,
        slot.get("replacement"),
        dep[1] if dep else None,
        rem[1] if rem else None,
        tuple(evidence),
    )


_CONFIRM = "answer with `ends:` (what the record deprecates or removes; [] for nothing)"


def inferences(
    features: tuple[Feature, ...],
    ledger: tuple[LedgerRow, ...],
    versions: tuple[str, ...],
    views: tuple,
    removals: dict,
) -> tuple[Inference, ...]:
    """Every ending read from record text that the content has not confirmed or rejected: a name a
    deprecation or removal record seems to end, a removal tied to a deprecated feature (part removed?),
    a later removal sharing a rare name with a deprecation (carried out?). `check` lists them; none
    is stated until answered."""
    out = []
    for version, vs in zip(versions, views, strict=True):
        for v in vs:
            names = inferred_names(v)[0] if v.group in ("deprecations", "removals") and v.ending else ()
            if names and v.change.ends is None:
                said = "deprecates" if v.ending == "deprecation" else "removes"
                out.append(Inference(version, v.change, f"does it say it {said} {', '.join(names)}? {_CONFIRM}"))
    for f in features:
        if f.ending is None or f.removed_in:
            continue
        since = version_key(f.ending.deprecated_in or f.first)
        for version, v in removals.get(f.id, ()):
            if version_key(version) > since and verdict(v, f.id) is None:
                question = f"does it take part of '{f.id}' (deprecated in {f.deprecated_in}) away? {_CONFIRM}"
                out.append(Inference(version, v.change, question))
    out += _carried_out_questions(features, ledger, versions, views)
    return tuple(dict.fromkeys(out))


def _carried_out_questions(features, ledger, versions, views) -> list[Inference]:
    ended = {f.id for f in features if f.ending is not None}
    counts, later = symbol_counts(dict(zip(versions, views, strict=True))), Later(versions, views)
    out = []
    for row in ledger:
        if row.change is None or ended.intersection(row.change.features):
            continue
        _, open_ = carried_out_by(versions.index(row.deprecated_in), row.change, later, counts)
        for version, v in open_:
            where = f"{version} record {v.anchor}"
            question = f"was it carried out by the {where}, which names the same rare name? {_CONFIRM} on both"
            out.append(Inference(row.deprecated_in, row.change.change, question))
    return out
