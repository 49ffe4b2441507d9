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
  drops the support), and a part removed where a later change took part of it away.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from ..markup.textfilters import plain, record_line
from ..model import symbols, urls
from ..model.computed import Cell, ChangeView, Ending, Feature, LedgerRow, Span, Standing
from ..model.content import Entry, Release, release_spans, version_key

ENDING_VERBS = {
    "undone": re.compile(r"\b(cancel\w*|un-?deprecat\w*|revert\w*)\b"),
    "removal": re.compile(r"^(remove[sd]?|removing|delete[sd]?|drop(?:ped|s)?)\b"),
    "deprecation": re.compile(
        r"deprecat|will be removed|will error|will raise|future release|futurewarning|\bwarn|instead of"
    ),
    "removed": re.compile(r"\b(has been removed|is removed|are removed|no longer supported|removed)\b"),
}


def ending_kind(change) -> str | None:
    """What a change does to what it names: "removal", "deprecation", or None (not an ending, or
    one taken back: "Canceling deprecation of …"), read from its record line's own words (not
    from the section the notes filed it under)."""
    line = plain(record_line(change.text)).casefold()
    if ENDING_VERBS["undone"].search(line):
        return None
    if ENDING_VERBS["removal"].search(line):
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


def removals_by_feature(versions: tuple[str, ...], views: tuple) -> dict[str, tuple[tuple[str, str], ...]]:
    """Feature id -> the (release, anchor) of each removal record tied to it, oldest first: what
    `feature_ending` reads to find a part removed. A derivation of the change views alone, so an
    edit elsewhere in a release file keeps it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for version, vs in zip(versions, views, strict=True):
        for v in vs:
            if v.features and v.ending == "removal":
                for fid in v.features:
                    out.setdefault(fid, []).append((version, v.anchor))
    return {fid: tuple(pairs) for fid, pairs in out.items()}


def feature_ending(
    entries: tuple[Entry, ...],
    removed_by_support: tuple[str, str] | None,
    removals: tuple[tuple[str, str], ...],
    shipped: set[str],
) -> Ending | None:
    """How a feature ends, or None: its deprecating entry, the removal release announced, its removal
    (an entry removing it, else the compatibility rows: `removed_by_support` = (release, how)), and
    the earliest later removal record tied to it, which removes part of it (`removals`: (release,
    anchor), oldest first)."""
    deprecated = next((e for e in entries if e.change == "deprecated" or e.tier == "deprecated"), None)
    removed = next((e for e in entries if e.change == "removed" or e.tier == "removed"), None)
    planned = next((e.removal for e in reversed(entries) if e.removal), None)
    if deprecated is None and removed is None and removed_by_support is None:
        return None
    since = deprecated.release if deprecated else entries[0].release
    part = next(
        (
            (version, urls.at(urls.release(version), anchor))
            for version, anchor in removals
            if version_key(version) > version_key(since)
        ),
        None,
    )
    if removed is not None:
        removed_in, how = removed.release, "entry"
    elif removed_by_support is not None:
        removed_in, how = removed_by_support
    else:
        removed_in, how = None, ""
    return Ending(
        deprecated.release if deprecated else None,
        planned,
        removed_in,
        how,
        part[0] if part and not removed_in else None,
        part[1] if part and not removed_in else "",
        status(planned, removed_in, shipped),
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
    releases' changes: the one its `carried_out` names (the PR of the change that made the warning
    an error or removed the API: 2.12's `fullgraph=True` warning, an error in 2.13), else a later
    removal whose record line names one of the rare names (on at most three changes) of this one's.
    Else due, overdue or still deprecated."""
    planned, pr = view.change.removal, view.change.carried_out
    named = {s for s in symbols.of_text(record_line(view.change.text)) if counts[s] <= 3}
    by_hand = [(j, r, v) for j, r, v in later.by_pr.get(pr, ()) if j > at] if pr is not None else []
    found = by_hand or [(j, r, v) for j, r, v in later.removals if j > at and named.intersection(v.symbols)]
    if found:
        _, removed_in, v = found[0]
        evidence = urls.at(urls.release(removed_in), v.anchor)
        return Ending(version, planned, removed_in, "change", None, evidence, "removed")
    return Ending(version, planned, None, "", None, "", status(planned, None, shipped))


class Later:
    """What a deprecation is checked against, read once: every removal record, and every change by
    the PRs it cites, each with its release's position (oldest first) and version."""

    def __init__(self, versions: tuple[str, ...], views: tuple) -> None:
        self.removals, self.by_pr = [], {}
        for j, (r, vs) in enumerate(zip(versions, views, strict=True)):
            for v in vs:
                if v.ending == "removal":
                    self.removals.append((j, r, v))
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
                ending = replace(tied[0].ending, deprecated_in=version)
            else:
                ending = change_ending(i, version, view, later, counts, shipped)
            title = record_line(view.change.text)  # pages print it with `headline`
            rows.append(LedgerRow(title, urls.at(urls.release(version), view.anchor), None, None, view, ending))
    rows.sort(key=lambda r: (version_key(r.deprecated_in), r.title.casefold()))
    return tuple(rows)


def ledger_spans(ledger: tuple[LedgerRow, ...], versions: tuple[str, ...]) -> tuple[Span, ...]:
    """A Span of the ledger's rows by the span of releases (model.release_spans) they
    were deprecated in; oldest first, spans without a row left out. The
    ledger page gives each a section, so none grows past what a search index takes a section."""
    spans = []
    for span in release_spans(versions):
        rows = tuple(r for r in ledger if r.deprecated_in in span)
        if rows:
            spans.append(Span(span[0], span[-1], rows))
    return tuple(spans)


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
