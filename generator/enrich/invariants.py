"""The site's facts as invariants, checked on the enriched Site after enrich (in `check` and `build`).

Each page reads deprecation, removal and tier state from the one set of records enrich computes
(`Site.ledger`, `Feature`, `ReleaseView.upgrade`); these checks hold the pages to each other and to
the content, so a contradiction a reader could catch fails the build instead:

- ledger: every deprecation (an announced entry or a release-note change record) is on
  /deprecations/, and every row there is listed by its release's upgrade step;
- support: a feature whose support a compatibility row no longer lists is removed from then on,
  and no entry or page says it is still deprecated or overdue;
- home: every item of the home page's lists is on the page it links to, as that page says it;
- tiers: a feature header's tier is the one its lifecycle shows in the latest release, its
  lifecycle shows no tier after its removal, and no per-backend row says "No tier" where the
  feature has one;
- compatibility: an alternative value differs from the matrix's (else it is not a disagreement);
- endings: every ending inferred from record text is answered by the record's `ends:`, and `ends:`
  sits only on a record that deprecates or removes.

A problem names the content file and line when one is at fault, else the page and the fact.

The checks that walk every release's changes or the whole catalogue find their offenders through
`derive` (live preview's session, generator.util.session): per release, or per ledger and
catalogue, so a save walks again only what it changed; the problems are worded afterwards.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from pathlib import Path

from ..markup.textfilters import record_line
from ..model import urls
from ..model.computed import Site
from ..model.content import DUE_STATUS, NO_TIER, Release, version_key
from ..model.errors import Problem
from ..util.session import Session, now
from .changeviews import ACTING_GROUPS


def check(site: Site, content_dir: Path | str | None = None, session: Session | None = None) -> list[Problem]:
    """Every invariant the site breaks, one Problem each (empty when the pages agree). With
    `session` (between its start and done), what a rule found of a release, the ledger or the
    catalogue is last time's where they are unchanged."""
    where = _Where(Path(content_dir) if content_dir is not None else None)
    where.derive = session.derive if session is not None else now
    problems: list[Problem] = []
    for rule in (
        ledger_complete,
        ledger_in_guide,
        support_follows_compatibility,
        home_lists,
        tiers_agree,
        standings_agree,
        carried_out_cited,
        inferences_answered,
        ends_fit_records,
        about_states_facts,
        alternatives,
    ):
        problems.extend(rule(site, where))
    return problems


class _Where:
    """Positions in the content for messages: an entry's line, a change's line found by its record."""

    def __init__(self, content_dir: Path | None):
        self.content_dir = content_dir
        self.derive = now  # how a rule derives its offenders (check: the session's, if given)

    def _path(self, rel: str) -> str:
        return str(self.content_dir / rel) if self.content_dir is not None else rel

    def entry(self, release: Release, entry, message: str) -> Problem:
        return Problem(self._path(release.source_file), entry.line, 5, message)

    def release(self, release: Release, message: str) -> Problem:
        return Problem(self._path(release.source_file), 1, 1, message)

    def change(self, version: str, change, message: str) -> Problem:
        rel = f"changes/{version}.yaml"
        line, col = self._change_line(rel, record_line(change.text))
        return Problem(self._path(rel), line, col, message)

    def catalogue(self, node, message: str) -> Problem:
        return Problem(self._path(node.source_file), node.line, 5, message)

    def page(self, site: Site, url: str, message: str, row=None, feature_id: str | None = None) -> Problem:
        """A page's fact, at the content that makes it: the ledger row's entry or change, or the
        feature's catalogue entry; the message names the page."""
        text = f"/{url}: {message}"
        if row is not None and row.entry is not None:
            return self.entry(next(r for r in site.releases if r.version == row.entry.release), row.entry, text)
        if row is not None and row.change is not None:
            return self.change(row.deprecated_in, row.change.change, text)
        node = site.catalogue_by_id.get(feature_id or (row.feature.id if row is not None and row.feature else ""))
        if node is not None:
            return self.catalogue(node, text)
        return Problem(f"/{url}", 1, 1, message)

    def _change_line(self, rel: str, record: str) -> tuple[int, int]:
        """The line of `rel` that holds a change's record line, and the column (1-based) where it
        starts; (0, 0) unknown (read again for each problem: a check finds few, and a memo here
        kept every failing check's _Where alive in serve)."""
        if self.content_dir is None:
            return 0, 0
        try:
            lines = (self.content_dir / rel).read_text(encoding="utf-8").splitlines()
        except OSError:
            return 0, 0
        return next(
            ((i, line.index(record) + 1) for i, line in enumerate(lines, 1) if record and record in line), (0, 0)
        )


def ledger_complete(site: Site, where: _Where) -> list[Problem]:
    """Every deprecation, announced or in the notes, has a row on /deprecations/."""
    d = where.derive
    rows, deprecated_features = d(_ledger_urls, site.ledger), d(_ledger_features, site.ledger)
    out = []
    for release in site.releases:
        sections = site.release_views[release.version].sections
        entries, changes = d(
            _off_ledger, release.version, release.entries, sections, rows, deprecated_features, key=release.version
        )
        out += [where.entry(release, e, f"{e.id} is deprecated here but not on /{urls.DEPRECATIONS}") for e in entries]
        said = f"a deprecation in the notes is not on /{urls.DEPRECATIONS}"
        out += [where.change(release.version, change, said) for change in changes]
    return out


def _ledger_urls(ledger: tuple) -> frozenset[str]:
    return frozenset(row.url for row in ledger)


def _ledger_features(ledger: tuple) -> frozenset[str]:
    return frozenset(row.feature.id for row in ledger if row.feature is not None)


def _off_ledger(version: str, entries: tuple, sections: tuple, rows: frozenset, features: frozenset) -> tuple:
    """A release's deprecating entries and notes' deprecations missing from the ledger (whose row
    URLs are `rows` and deprecated feature ids `features`): (entries, changes)."""
    missing = tuple(
        e for e in entries if (e.change == "deprecated" or e.tier == "deprecated") and urls.feature(e.id) not in rows
    )
    changes = tuple(
        view.change
        for view in _section_views(sections)
        if view.group == "deprecations"
        and not features.intersection(view.features)
        and view.ending == "deprecation"  # a removal, or no ending: off the ledger
        and urls.at(urls.release(version), view.anchor) not in rows
    )
    return missing, changes


def ledger_in_guide(site: Site, where: _Where) -> list[Problem]:
    """Each ledger row is listed by the upgrade step of the release that deprecated it, and a
    removal an entry announced by that release's removals step, so /upgrade/ and /compare/ count
    what the ledger says."""
    out = []
    by_version = {r.version: r for r in site.releases}
    upgrades = {v: site.release_views[v].upgrade for v in site.versions}
    for row, version, step in where.derive(_unguided, site.ledger, site.releases[0].version, upgrades):
        release = by_version[version]
        fid = row.feature.id if row.feature is not None else None
        said = "removed" if step == "removals" else "deprecated"
        message = f"{said} in {version} on /{urls.DEPRECATIONS} but not in that release's upgrade step"
        entry = next((e for e in release.entries if e.id == fid), None) if fid else None
        out.append(
            where.entry(release, entry, message)
            if entry is not None
            else where.change(version, row.change.change, message)
        )
    return out


def _unguided(ledger: tuple, first: str, upgrades: dict[str, tuple]) -> tuple:
    """(row, version, step) of each ledger row's step that the upgrade steps of that release
    (`upgrades`, per version) do not list it in; `first` is the first release's version."""
    out = []
    for row in ledger:
        # A change record is listed by its own step (a scheduled removal may be a breaking change).
        checks = [(row.deprecated_in, row.change.group if row.change is not None else "deprecations")]
        if row.removed_by == "entry" and row.feature is not None:
            checks.append((row.removed_in, "removals"))
        for version, step in checks:
            if version == first:
                continue  # no guide leads to the first release
            # A step that asks something may be told by another such step (2.13's Bazel removal is a
            # breaking change, and its entry is not listed a second time under removals).
            steps = ACTING_GROUPS if step in ACTING_GROUPS else {step}
            fid = row.feature.id if row.feature is not None else None
            found = any(
                (row.change is not None and row.change in listed.changes)
                or (
                    fid is not None
                    and (any(e.id == fid for e in listed.entries) or any(fid in v.features for v in listed.changes))
                )
                for listed in upgrades[version]
                if listed.id in steps
            )
            if not found:
                out.append((row, version, step))
    return tuple(out)


def support_follows_compatibility(site: Site, where: _Where) -> list[Problem]:
    """A feature whose support (a Python or CUDA version) a release's compatibility row no longer
    lists is removed from that release on: the ledger and the feature page say so, and no later
    entry restates it as deprecated or supported; an entry removing it while the row still lists
    it contradicts the matrix."""
    out = []
    rows = _Rows(site.releases)
    rows_of = defaultdict(list)  # each feature's ledger rows, read once: a scan per feature grows as features × rows
    for row in site.ledger:
        if row.feature is not None:
            rows_of[row.feature.id].append(row)
    for feature in site.features:
        node = site.catalogue_by_id[feature.id]
        if node.support is None or node.support[0] == "last":
            continue
        gone = _entries_follow_rows(rows, where, feature, node.support[:2], out)
        if gone is None:
            continue
        if feature.removed_in is None:  # the notes' word, where they give one, says when it went
            message = (
                f"{feature.id}: gone from the compatibility matrix since {gone}, but its page does not say removed"
            )
            out.append(where.catalogue(node, message))
        for row in rows_of[feature.id]:
            if row.status != "removed":
                message = f"{feature.title}: '{row.status}', but the compatibility matrix dropped it in {gone}"
                out.append(where.page(site, urls.DEPRECATIONS, message, row))
    return out


def _entries_follow_rows(rows: _Rows, where: _Where, feature, support: tuple[str, str], out: list) -> str | None:
    """The first release whose compatibility row no longer lists the feature's support (None if
    every row does); each of its entries that contradicts a row goes to `out`."""
    field, value = support
    unlisted = rows.unlisted(field, value)
    k = bisect.bisect_left(unlisted, rows.position[feature.first])
    gone = rows.releases[unlisted[k]].version if k < len(unlisted) else None
    dropped = frozenset(unlisted[k:])
    for entry in sorted(feature.entries, key=lambda e: rows.position[e.release]):
        at = rows.position[entry.release]
        release = rows.releases[at]
        if release.compatibility is None:
            continue
        listed = at not in dropped
        removes = entry.change == "removed" or entry.tier == "removed"
        if not listed and not removes and (entry.change != "deprecated" or release.version != gone):
            said = f"the {release.version} compatibility row no longer lists {field} {value}, but this entry says '{entry.change}'"
            out.append(where.entry(release, entry, f"{feature.id}: {said}"))
        if listed and removes:
            said = f"removed here, but the {release.version} compatibility row still lists {field} {value}"
            out.append(where.entry(release, entry, f"{feature.id}: {said}"))
    return gone


class _Rows:
    """The releases' compatibility rows, asked once per value: which releases' rows do not list
    it. Asking every row for every feature grows as features × releases."""

    def __init__(self, releases: tuple[Release, ...]) -> None:
        self.releases = releases
        self.position = {r.version: i for i, r in enumerate(releases)}
        self._values: dict[str, list] = {}
        self._unlisted: dict[tuple[str, str], list[int]] = {}

    def unlisted(self, field: str, value: str) -> list[int]:
        """The positions, in release order, of the releases whose row (where they have one) does not list it."""
        if (field, value) not in self._unlisted:
            if field not in self._values:
                self._values[field] = [
                    None if r.compatibility is None else frozenset(r.compatibility.values(field)) for r in self.releases
                ]
            self._unlisted[field, value] = [
                i for i, listed in enumerate(self._values[field]) if listed is not None and value not in listed
            ]
        return self._unlisted[field, value]


def home_lists(site: Site, where: _Where) -> list[Problem]:
    """Every item of the home page's lists is on the page it links to, as that page says it: the
    'on the way out' list is ledger rows with the ledger's status, and a highlight is an entry of
    the latest release."""
    out = []
    rows = {row.url: row for row in site.ledger}
    status = DUE_STATUS
    for item in site.home.due:
        row = rows.get(item.url)
        if row is None:
            out.append(
                where.page(site, urls.HOME, f"'{item.title}' is on the way out, but not on /{urls.DEPRECATIONS}")
            )
            continue
        if status.get(row.status) != item.status or row.deprecated_in != item.deprecated_in:
            out.append(
                where.page(
                    site,
                    urls.HOME,
                    f"'{item.title}': {item.status} since {item.deprecated_in}, but /{urls.DEPRECATIONS} says "
                    f"{row.status} since {row.deprecated_in}",
                    row,
                )
            )
        if row.feature is not None and row.feature.deprecated_in != item.deprecated_in:
            out.append(
                where.page(
                    site,
                    urls.feature(row.feature.id),
                    f"deprecated in {row.feature.deprecated_in}, but the home page says {item.deprecated_in}",
                    feature_id=row.feature.id,
                )
            )
        if row.change is not None:
            page, _, anchor = item.url.partition("#")
            version = page.removeprefix(urls.RELEASES).rstrip("/")
            anchors = {v.anchor for v in _section_views(site.release_views[version].sections)}
            if anchor not in anchors:
                out.append(
                    where.page(site, urls.HOME, f"'{item.title}' links to /{item.url}, which has no such change", row)
                )
    latest = site.latest
    ids = {e.id for e in latest.entries}
    for entry in site.release_views[latest.version].highlights:
        if entry.id not in ids:
            out.append(
                where.entry(latest, entry, f"highlighted on the home page but not on /{urls.release(latest.version)}")
            )
    return out


def tiers_agree(site: Site, where: _Where) -> list[Problem]:
    """A feature's header tier is the tier its lifecycle shows in the latest release, and its
    per-backend rows never say "No tier" where the feature's own row has a tier."""
    out = []
    position = {v: i for i, v in enumerate(site.versions)}
    for feature in site.features:
        said = [*_header_against_strip(feature), *_backends_against_strip(site.versions, position, feature)]
        out += [where.page(site, urls.feature(feature.id), message, feature_id=feature.id) for message in said]
    return out


def _header_against_strip(feature) -> list[str]:
    last = feature.cells[-1] if feature.cells else None
    if feature.removed_in is None:
        shown = last.tier if last is not None and not last.css.startswith("gone") else None
        today = feature.standing.tier.id if feature.standing.tier else None
        if shown != today:
            return [f"the header says tier '{today}', the lifecycle shows '{shown}' in {last.release if last else '—'}"]
        return []
    gone = version_key(feature.removed_in)
    return [
        f"the lifecycle still shows '{cell.label}' in {cell.release}, after its removal in {feature.removed_in}"
        for cell in feature.cells
        if cell.entry is None and cell.tier and version_key(cell.release) >= gone
    ]


def _backends_against_strip(versions: tuple[str, ...], position: dict[str, int], feature) -> list[str]:
    """What a feature's per-backend rows say against its own row; `position`: each version's index."""
    cells = feature.cells
    # Where each cell's releases end (a cell spanning several covers them, the last one through the
    # newest release): the feature's cell at a release is found by bisection, not by laying every
    # cell out release by release, which grows as features × releases.
    ends = [position[_nth(versions, position, c.release, c.span - 1)] for c in cells]
    return [
        f"By backend: {backend} says '{NO_TIER}' in {cell.release}, where the feature is '{mine.label}'"
        for backend, strip in feature.backend_cells
        for cell in strip
        if cell.label == NO_TIER and (mine := _cell_at(cells, ends, position, cell.release)) is not None and mine.tier
    ]


def _cell_at(cells: tuple, ends: list[int], position: dict[str, int], version: str):
    """The cell of a strip covering `version` (the last to, as a strip's cells follow each other),
    or None; `ends`: the position of each cell's last release."""
    at = position[version]
    k = bisect.bisect_left(ends, at)
    while k + 1 < len(cells) and ends[k + 1] == at:  # several cells end at the last release: the last one
        k += 1
    return cells[k] if k < len(cells) and position[cells[k].release] <= at else None


def standings_agree(site: Site, where: _Where) -> list[Problem]:
    """One ending per feature: a removed feature stands removed from its removal release overall and
    on every backend, and its ledger row states its own ending."""
    out = []
    rows = {row.feature.id: row for row in site.ledger if row.feature is not None}
    for feature in site.features:
        node = site.catalogue_by_id[feature.id]
        gone = feature.removed_in
        for backend, s in (("", feature.standing), *feature.backend_standings):
            tier = s.tier.id if s.tier else None
            if gone and (tier != "removed" or s.since != gone):
                on = f" on {backend}" if backend else ""
                out.append(
                    where.catalogue(node, f"{feature.id}: removed in {gone}, but its standing{on} says '{s.words}'")
                )
        row = rows.get(feature.id)
        if row is not None and row.ending is not feature.ending:
            out.append(where.catalogue(node, f"{feature.id}: the ledger states another ending than its page"))
    return out


def carried_out_cited(site: Site, where: _Where) -> list[Problem]:
    """A deprecation's `carried_out` names the PR of a change in a later release's list."""
    changes = tuple(release.changes for release in site.releases)
    return [
        where.change(
            site.releases[i].version, c, f"carried_out: no later release's change list cites PR {c.carried_out}"
        )
        for i, c in where.derive(_uncited_carried_out, changes)
    ]


def _uncited_carried_out(changes: tuple[tuple, ...]) -> tuple:
    """(release position, change) of each change (each release's, oldest first) whose
    `carried_out` PR no later release's change cites."""
    # The last release citing each PR: a PR is later than release i when last cited after it
    # (one pass: a set of every later release's PRs per release grows with the square of releases).
    last_cited: dict[str, int] = {}
    for i, mine in enumerate(changes):
        for c in mine:
            for pr in c.prs:
                last_cited[pr] = i
    return tuple(
        (i, c)
        for i, mine in enumerate(changes)
        for c in mine
        if c.carried_out is not None and last_cited.get(c.carried_out, -1) <= i
    )


def inferences_answered(site: Site, where: _Where) -> list[Problem]:
    """An ending read from record text is a question until the record's `ends:` confirms or rejects
    it, and a subject proposed from it until the record's `subject:` does."""
    readme = {"ending": "What the Atlas states", "subject": "How a line is matched"}
    return [
        where.change(i.release, i.change, f'unconfirmed {i.about}: {i.question} (README "{readme[i.about]}")')
        for i in site.inferences
    ]


def ends_fit_records(site: Site, where: _Where) -> list[Problem]:
    """A record's `ends:` names what it deprecates or removes, so its record line must read as a
    deprecation or a removal (facts.ending_kind)."""
    said = "ends: its record line reads as neither a deprecation nor a removal"
    d = where.derive
    return [
        where.change(release.version, change, said)
        for release in site.releases
        for change in d(_unfit_ends, site.release_views[release.version].sections, key=release.version)
    ]


def _unfit_ends(sections: tuple) -> tuple:
    """The changes of a release's sections whose `ends:` meets a record line read as no ending."""
    return tuple(v.change for v in _section_views(sections) if v.change.ends and v.ending is None)


_SITE_HISTORY = re.compile(r"former (address|id)|still leads here|(this page|it) was called", re.IGNORECASE)


def about_states_facts(site: Site, where: _Where) -> list[Problem]:
    """A feature's `about` tells readers what it is, not the site's history: former addresses
    redirect by themselves (aliases), so "its former address … still leads here" goes."""
    return [
        where.catalogue(node, f"{node.id}: about tells the page's history ('{told}'); aliases redirect by themselves")
        for node, told in where.derive(_history_told, site.content.catalogue)
    ]


def _history_told(catalogue: tuple) -> tuple:
    """(node, the words) of each catalogue node whose `about` tells the site's history."""
    return tuple((n, m.group(0)) for n in catalogue if n.about and (m := _SITE_HISTORY.search(n.about)))


def alternatives(site: Site, where: _Where) -> list[Problem]:
    """A compatibility alternative gives another value than the matrix's (else nothing disagrees)."""
    out = []
    for release in site.releases:
        c = release.compatibility
        for a in c.alternatives if c else ():
            if c.lists(a.field, a.value):
                out.append(
                    where.release(release, f"compatibility.alternatives: {a.field} {a.value} is the matrix's own value")
                )
    return out


def _section_views(sections: tuple):
    return (v for s in sections for a in s.areas for v in a.changes)


def _nth(versions: tuple[str, ...], position: dict[str, int], version: str, k: int) -> str:
    """The release k places after `version` (a cell spanning several releases covers them);
    `position` is each version's index in `versions`."""
    return versions[min(position[version] + k, len(versions) - 1)]
