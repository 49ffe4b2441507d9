"""/calendar.ics (iCalendar, RFC 5545): every release and patch release, the releases RELEASE.md's
cadence plans (content/cadence.yaml) until their release file exists (once their day is before
cadence.yaml's `as_of`, saying what happened), every removal a deprecation announces and every
step cadence.yaml's `due` lists, on the day the release it is due in ships (or is planned to).

All-day events; a patch documented by its month alone spans that month. Deterministic: the stamp
is the newest release's date (`Site.source_date_epoch`), so the same content gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable

from ..markup.textfilters import plain
from ..model import urls
from ..model.computed import LedgerRow, Site
from ..model.content import PlannedRelease
from ..util.project import SITE_NAME

PRODID = f"-//{SITE_NAME}//calendar//EN"


def _text(value: str) -> str:
    """A TEXT value escaped (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    return "\\n".join(" ".join(line.split()) for line in value.strip().splitlines())


def _fold(line: str) -> list[str]:
    """A content line cut into lines of at most 75 octets, each after the first led by a space
    (RFC 5545 3.1), never inside a UTF-8 character: cut in its bytes, a cut that falls on a
    continuation byte (0b10xxxxxx) moved back to the start of its character."""
    data = line.encode("utf-8")
    out, start, limit = [], 0, 75
    while len(data) - start > limit:
        cut = start + limit
        while data[cut] & 0xC0 == 0x80:
            cut -= 1
        out.append(data[start:cut].decode("utf-8"))
        start, limit = cut, 74
    out.append(data[start:].decode("utf-8"))
    return [out[0], *(" " + part for part in out[1:])]


def _day(date: dt.date) -> str:
    return date.strftime("%Y%m%d")


def _month(text: str) -> tuple[dt.date, dt.date]:
    """'2025-11' -> (first day, first day of the next month); a full date -> (it, the next day)."""
    if len(text) == 10:
        day = dt.date.fromisoformat(text)
        return day, day + dt.timedelta(days=1)
    year, month = map(int, text.split("-"))
    return dt.date(year, month, 1), dt.date(year + month // 12, month % 12 + 1, 1)


def _event(uid: str, start: dt.date, end: dt.date, summary: str, description: str, url: str, stamp: str) -> list[str]:
    lines = [
        "BEGIN:VEVENT",
        f"UID:{uid}@pytorch-release-atlas",
        f"DTSTAMP:{stamp}",
        f"DTSTART;VALUE=DATE:{_day(start)}",
        f"DTEND;VALUE=DATE:{_day(end)}",
        f"SUMMARY:{_text(summary)}",
        f"DESCRIPTION:{_text(description)}",
        "TRANSP:TRANSPARENT",
    ]
    if url:
        lines.append(f"URL;VALUE=URI:{url}")
    return [*lines, "END:VEVENT"]


def _releases(site: Site, base: str, stamp: str) -> list[list[str]]:
    events = []
    for release in site.releases:
        page = base + urls.release(release.version)
        one_day = release.date + dt.timedelta(days=1)
        events.append(
            _event(
                f"release-{release.version}",
                release.date,
                one_day,
                f"PyTorch {release.version} released",
                release.summary,
                page,
                stamp,
            )
        )
        for patch in release.patches:
            start, end = _month(patch.date)
            when = "" if len(patch.date) == 10 else f" The day is not documented: it shipped in {start:%B %Y}."
            events.append(
                _event(
                    f"patch-{patch.version}",
                    start,
                    end,
                    f"PyTorch {patch.version} (patch release)",
                    (patch.summary or f"A patch release of PyTorch {release.version}.") + when,
                    base + urls.at(urls.release(release.version), urls.patch_anchor(patch.version)),
                    stamp,
                )
            )
    return events


def _planned(site: Site, stamp: str) -> list[list[str]]:
    """Each release the cadence plans that has no release file: its day, branch cut and first patch,
    planned (tentative) while the day is after `as_of` (the day the sources were last checked), and
    once it has passed, what happened: shipped, or passed without a release file."""
    shipped = set(site.versions)
    source = site.content.planned_source
    as_of = site.content.as_of
    events = []
    for plan in site.content.planned:
        if plan.version in shipped:
            continue
        summary, words = _plan_words(plan, as_of)
        tentative = f"Planned in RELEASE.md's release cadence; all dates there are tentative. {source}"
        events.append(
            _event(
                f"planned-{plan.version}",
                plan.release,
                plan.release + dt.timedelta(days=1),
                summary,
                f"{words} {tentative}" if words else tentative,
                plan.shipped.source if plan.shipped else source,
                stamp,
            )
        )
        if plan.branch_cut:
            passed = as_of is not None and plan.branch_cut < as_of
            since = f"; {plan.version} has since shipped" if plan.shipped else ", which has passed"
            events.append(
                _event(
                    f"branch-cut-{plan.version}",
                    plan.branch_cut,
                    plan.branch_cut + dt.timedelta(days=1),
                    f"PyTorch {plan.version} release branch cut ("
                    + (f"planned for this day{since}" if passed else "tentative")
                    + ")",
                    tentative,
                    source,
                    stamp,
                )
            )
        if plan.first_patch:
            events.append(_first_patch(plan, as_of, tentative, source, stamp))
    return events + _due(site, stamp)


def _plan_words(plan: PlannedRelease, as_of: dt.date | None) -> tuple[str, str]:
    """A planned release's event: its summary and what is known, by `as_of`."""
    if plan.shipped is not None:
        month = dt.date.fromisoformat(plan.shipped.month + "-01")
        return (
            f"PyTorch {plan.version} released (not on the Atlas yet)",
            f"{plan.shipped.evidence}: it shipped in {month:%B %Y}, on a day no source at hand gives (this is the"
            f" day the cadence planned). Its release notes are not at hand, so the Atlas does not describe it yet.",
        )
    if as_of is not None and plan.release < as_of:
        return (
            f"PyTorch {plan.version} planned release: the day passed without a release file",
            f"As of {as_of.isoformat()}, no source at hand says {plan.version} shipped.",
        )
    return f"PyTorch {plan.version} planned release (tentative)", ""


def _first_patch(plan: PlannedRelease, as_of: dt.date | None, tentative: str, source: str, stamp: str) -> list[str]:
    start, end = _month(plan.first_patch)
    passed = as_of is not None and end <= as_of
    return _event(
        f"planned-patch-{plan.version}.1",
        start,
        end,
        f"PyTorch {plan.version}.1 planned patch release ("
        + (f"{start:%B %Y}: the month passed without a release file" if passed else f"tentative, {start:%B %Y}")
        + ")",
        tentative,
        source,
        stamp,
    )


def _due(site: Site, stamp: str) -> list[list[str]]:
    """Each step a release announced for a later one (cadence.yaml `due`), on that release's day."""
    days = due_dates(site)
    events = []
    for step in site.content.due:
        day = days[step.version]
        by = f"PyTorch {step.announced_in} announced" if step.announced_in else "It is announced"
        events.append(
            _event(
                "due-" + hashlib.sha1(f"{step.version} {step.what}".encode()).hexdigest()[:12],
                day,
                day + dt.timedelta(days=1),
                f"Due in PyTorch {step.version}: {plain(step.what)}",
                f"{by} that in {step.version} {plain(step.what)}. {step.source}",
                step.source,
                stamp,
            )
        )
    return events


def due_dates(site: Site) -> dict[str, dt.date]:
    """The day each release shipped, or is planned to."""
    out = {p.version: p.release for p in site.content.planned}
    out.update({r.version: r.date for r in site.releases})
    return out


def _removals(site: Site, base: str, stamp: str) -> list[list[str]]:
    days = due_dates(site)
    events = []
    for row in site.ledger:
        if not row.removal_planned or row.removal_planned not in days:
            continue
        day = days[row.removal_planned]
        events.append(
            _event(
                "removal-" + hashlib.sha1(row.url.encode("utf-8")).hexdigest()[:12],
                day,
                day + dt.timedelta(days=1),
                f"Removal due in PyTorch {row.removal_planned}: {_title(row)}",
                row.ending.words + ".",  # worded where every page words it (model.wording)
                base + row.url,
                stamp,
            )
        )
    return events


def _title(row: LedgerRow) -> str:
    """A ledger row's record line as plain words (textfilters.plain), cut for an event's summary."""
    text = plain(row.title)
    return text if len(text) <= 120 else text[:119] + "…"


def render_calendar(site: Site, base: str) -> dict[str, tuple[tuple, Callable[..., bytes]]]:
    """The calendar, keyed by its path under docs/, as its inputs and the function drawing it (the
    render's one memo, render.render_site, keeps it while its reads of the model are unchanged)."""
    return {urls.CALENDAR: ((site,), lambda s: _calendar(s, base))}


def _calendar(site: Site, base: str) -> bytes:
    stamp = dt.datetime.fromtimestamp(site.source_date_epoch, dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    head = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "X-WR-CALNAME:PyTorch releases",
        f"X-WR-CALDESC:{_text(f'PyTorch releases, patch releases, planned releases and due removals, from the {SITE_NAME}.')}",
    ]
    events = _releases(site, base, stamp) + _planned(site, stamp) + _removals(site, base, stamp)
    events.sort(key=lambda e: (e[3], e[1]))  # by DTSTART, then UID
    lines = head + [line for event in events for line in event] + ["END:VCALENDAR"]
    text = "".join(part + "\r\n" for line in lines for part in _fold(line))
    return text.encode("utf-8")
