"""/calendar.ics, parsed by an independent RFC 5545 parser (icalendar), and the Atom feeds per
feature, family and symbol module: valid, linked from their pages, and saying what each release did."""

from __future__ import annotations

import datetime as dt
import shutil
import xml.etree.ElementTree as ET

import icalendar
import pytest

from generator.model import urls
from generator.pipeline.build import site_model
from generator.render import feeds, ical
from generator.render.render import drawn
from tests.conftest import FIXTURE, real_model, run_cli

BASE = "https://atlas.example.org/"
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def calendar_bytes() -> bytes:
    return drawn(ical.render_calendar(real_model(), BASE))[urls.CALENDAR]


@pytest.fixture(scope="module")
def events(calendar_bytes) -> dict[str, icalendar.Event]:
    calendar = icalendar.Calendar.from_ical(calendar_bytes)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    found = {}
    for event in calendar.walk("VEVENT"):
        uid = str(event["UID"])
        assert uid not in found, uid
        found[uid] = event
    return found


def day(event) -> dt.date:
    return event.decoded("DTSTART")


def test_the_calendar_is_rfc_5545(calendar_bytes, events):
    lines = calendar_bytes.split(b"\r\n")
    assert lines[-1] == b"" and b"\n" not in b"".join(lines)  # CRLF only
    assert max(len(line) for line in lines) <= 75  # folded (RFC 5545 3.1), counted in octets
    for event in events.values():
        for field in ("UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"):
            assert field in event, (field, event)
        assert event.decoded("DTEND") > day(event)
    assert drawn(ical.render_calendar(real_model(), BASE))[urls.CALENDAR] == calendar_bytes  # same content, same bytes


def test_every_release_and_patch_is_on_its_day(events):
    site = real_model()
    for release in site.releases:
        event = events[f"release-{release.version}@pytorch-release-atlas"]
        assert day(event) == release.date and str(event["SUMMARY"]) == f"PyTorch {release.version} released"
        assert str(event["URL"]) == BASE + urls.release(release.version)
        for patch in release.patches:
            patch_event = events[f"patch-{patch.version}@pytorch-release-atlas"]
            assert day(patch_event).isoformat().startswith(patch.date)
    assert day(events["release-2.8@pytorch-release-atlas"]) == dt.date(2025, 8, 6)
    month = events["patch-2.9.1@pytorch-release-atlas"]  # documented by its month: spans November 2025
    assert (day(month), month.decoded("DTEND")) == (dt.date(2025, 11, 1), dt.date(2025, 12, 1))


def test_planned_releases_come_from_the_cadence_and_a_passed_day_says_what_happened(events):
    """Issue 45: on 2026-11-26 (cadence.yaml's as_of) 2.15's day had passed and PyPI listed 2.15.0,
    but the calendar still said "planned (tentative)". 2.16's day is still ahead."""
    site = real_model()
    assert site.content.as_of == dt.date(2026, 11, 26)
    planned = events["planned-2.15@pytorch-release-atlas"]
    assert day(planned) == dt.date(2026, 10, 28)
    assert str(planned["SUMMARY"]) == "PyTorch 2.15 released (not on the Atlas yet)"
    assert "PyPI lists torch 2.15.0: it shipped in October 2026" in str(planned["DESCRIPTION"])
    cut = events["branch-cut-2.15@pytorch-release-atlas"]
    assert day(cut) == dt.date(2026, 10, 5) and "tentative" not in str(cut["SUMMARY"])
    patch = events["planned-patch-2.15.1@pytorch-release-atlas"]  # November 2026 is not over on the 26th
    assert day(patch) == dt.date(2026, 11, 1) and "tentative" in str(patch["SUMMARY"])
    upcoming = events["planned-2.16@pytorch-release-atlas"]
    assert (day(upcoming), str(upcoming["SUMMARY"])) == (
        dt.date(2026, 12, 22),
        "PyTorch 2.16 planned release (tentative)",
    )
    assert day(events["branch-cut-2.16@pytorch-release-atlas"]) == dt.date(2026, 11, 30)  # as RELEASE.md has it
    shipped = {f"planned-{r.version}@pytorch-release-atlas" for r in site.releases}
    assert not shipped & set(events)


def test_a_step_announced_for_a_later_release_is_on_its_day(events):
    """2.14's setup.py shim: every command stops working in 2.16 (the guide quotes it), and the
    file goes in 2.18 (the ledger's removal)."""
    (step,) = [e for uid, e in events.items() if uid.startswith("due-")]
    assert day(step) == dt.date(2026, 12, 22)
    assert str(step["SUMMARY"]).startswith("Due in PyTorch 2.16: every setup.py command stops working")
    assert "PyTorch 2.14 announced that in 2.16" in str(step["DESCRIPTION"])


def test_a_day_that_passed_says_so_by_the_as_of_day_not_the_wall_clock(tmp_path):
    """The build's today is cadence.yaml's as_of: a plan whose day is before it passed without a
    release file, a plan after it is tentative, and as_of before the newest release is refused."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    plans = (
        'planned:\n  - {version: "2.9", branch_cut: "2025-09-20", release: "2025-10-15", first_patch: "2025-11"}\n'
        '  - {version: "2.10", release: "2026-01-21"}\n'
    )
    (content / "cadence.yaml").write_text(
        f'source: https://example.org/c\nas_of: "2025-12-15"\n{plans}', encoding="utf-8"
    )
    calendar = icalendar.Calendar.from_ical(drawn(ical.render_calendar(site_model(content), BASE))[urls.CALENDAR])
    said = {str(e["UID"]).split("@")[0]: str(e["SUMMARY"]) for e in calendar.walk("VEVENT")}
    assert said["planned-2.9"] == "PyTorch 2.9 planned release: the day passed without a release file"
    assert (
        said["planned-patch-2.9.1"]
        == "PyTorch 2.9.1 planned patch release (November 2025: the month passed without a release file)"
    )
    assert said["planned-2.10"] == "PyTorch 2.10 planned release (tentative)"
    (content / "cadence.yaml").write_text(
        f'source: https://example.org/c\nas_of: "2025-01-01"\n{plans}', encoding="utf-8"
    )
    proc = run_cli("check", "--content", str(content))
    assert proc.returncode == 1 and "as_of 2025-01-01 is before the newest release's day" in proc.stderr


def test_announced_removals_sit_on_the_release_they_are_due_in(events):
    site = real_model()
    removals = [e for uid, e in events.items() if uid.startswith("removal-")]
    due = [row for row in site.ledger if row.removal_planned in ical.due_dates(site)]
    assert len(removals) == len(due) >= 3
    quantization = next(e for e in removals if str(e["SUMMARY"]).endswith(": torch.ao.quantization"))
    assert str(quantization["SUMMARY"]) == "Removal due in PyTorch 2.10: torch.ao.quantization"
    assert "Deprecated in 2.8" in str(quantization["DESCRIPTION"])
    assert day(quantization) == next(r.date for r in site.releases if r.version == "2.10")


def test_a_plan_that_shipped_leaves_the_calendar_and_a_bad_plan_is_refused(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    (content / "cadence.yaml").write_text(
        "source: https://example.org/cadence\nplanned:\n"
        '  - {version: "2.8", release: "2025-08-01"}\n'
        '  - {version: "2.9", branch_cut: "2025-09-20", release: "2025-10-15", first_patch: "2025-11"}\n',
        encoding="utf-8",
    )
    calendar = icalendar.Calendar.from_ical(drawn(ical.render_calendar(site_model(content), BASE))[urls.CALENDAR])
    names = {str(event["UID"]) for event in calendar.walk("VEVENT")}
    assert "planned-2.9@pytorch-release-atlas" in names and "planned-2.8@pytorch-release-atlas" not in names
    (content / "cadence.yaml").write_text(
        "source: https://example.org/cadence\nplanned:\n"
        '  - {version: "2.10", release: "2026-01-21"}\n'
        '  - {version: "2.9", branch_cut: "2025-10-20", release: "2025-10-15"}\n',
        encoding="utf-8",
    )
    proc = run_cli("check", "--content", str(content))
    assert proc.returncode == 1, proc.stderr
    assert "cadence.yaml:4:5: planned[1]: 2.9 is not planned after 2.10\n" in proc.stderr


def test_fold_never_cuts_a_character():
    line = "SUMMARY:" + "é🔥a" * 60
    parts = ical._fold(line)
    assert all(len(p.encode("utf-8")) <= 75 for p in parts)
    assert parts[0] + "".join(p[1:] for p in parts[1:]) == line


def atom_entries(data: bytes) -> list[ET.Element]:
    """The feed's entries, after checking what RFC 4287 requires of a feed and of each entry."""
    root = ET.fromstring(data)
    assert root.tag == f"{ATOM}feed"
    for field in ("id", "title", "updated"):
        assert root.find(f"{ATOM}{field}") is not None, field
    assert root.find(f"{ATOM}author") is not None
    entries = root.findall(f"{ATOM}entry")
    for entry in entries:
        for field in ("id", "title", "updated", "summary"):
            assert (entry.find(f"{ATOM}{field}").text or "").strip(), field
        dt.datetime.fromisoformat(entry.find(f"{ATOM}updated").text)
        assert entry.find(f"{ATOM}link[@rel='alternate']").get("href").startswith(BASE)
    assert len({e.find(f"{ATOM}id").text for e in entries}) == len(entries)
    return entries


def test_every_feature_family_and_module_feed_parses():
    site = real_model()
    files = drawn(feeds.render_item_feeds(site, BASE))
    pages = {p for p in files if p.startswith(urls.FEATURES)}
    expected = {urls.feature_feed(f.id) for f in site.features if f.id not in site.family_by_id}
    expected |= {urls.feature_feed(f.node.id) for f in site.families}
    assert pages == expected
    assert {p for p in files if p.startswith(urls.SYMBOLS)} == {
        urls.symbol_feed(m.name) for m in site.symbol_pages.values() if m.symbols
    }
    for data in files.values():
        atom_entries(data)


def test_a_feature_feed_says_what_each_release_did():
    site = real_model()
    entries = atom_entries(drawn(feeds.render_item_feeds(site, BASE))[urls.feature_feed("flex-attention")])
    titles = [e.find(f"{ATOM}title").text for e in entries]
    flex = site.feature_by_id["flex-attention"]
    announced = {e.release for e in flex.entries}
    assert {f"FlexAttention in PyTorch {v}" for v in announced} <= set(titles)
    versions = [t.rsplit(" ", 1)[1] for t in titles]
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    first = flex.entries[0]
    entry = entries[titles.index(f"FlexAttention in PyTorch {first.release}")]
    assert f"Announced: {first.title}" in entry.find(f"{ATOM}summary").text
    assert entry.find(f"{ATOM}link").get("href") == BASE + urls.at(
        urls.feature("flex-attention"), urls.release_anchor(first.release)
    )


def test_a_module_feed_lists_the_changes_naming_its_names():
    site = real_model()
    entries = atom_entries(drawn(feeds.render_item_feeds(site, BASE))[urls.symbol_feed("torch.export")])
    text = {e.find(f"{ATOM}title").text: e.find(f"{ATOM}summary").text for e in entries}
    module = site.symbol_pages["torch.export"]
    named = {u.change.anchor for s in module.symbols for u in s.uses if u.change and u.release == "2.9"}
    assert text["torch.export in PyTorch 2.9"].startswith(f"{len(named)} release-note changes: ")
    assert "torch.export.export_for_training has been removed" in text["torch.export in PyTorch 2.11"]


def test_pages_link_their_feeds_and_the_build_writes_them(fixture_site):
    for page in ("features/widgets/", "features/widget-compiler/", "symbols/torch/"):
        html = (fixture_site / page / "index.html").read_text(encoding="utf-8")
        assert 'href="feed.xml"' in html, page
        atom_entries_relaxed = ET.parse(fixture_site / page / "feed.xml").getroot()
        assert atom_entries_relaxed.tag == f"{ATOM}feed"
    assert icalendar.Calendar.from_ical((fixture_site / urls.CALENDAR).read_bytes()).walk("VEVENT")
    assert "calendar.ics" in (fixture_site / "releases" / "index.html").read_text(encoding="utf-8")


def test_feed_summaries_carry_no_markup_as_text():
    """Issue 45: the site feed's summaries showed raw backticks (`nccl2`), and a record line's <br>
    reached a feature feed. A summary is plain text (Atom type="text")."""
    site = real_model()
    files = drawn({**feeds.render_feeds(site, BASE), **feeds.render_item_feeds(site, BASE)})
    summaries = [
        (path, s.text or "") for path, data in files.items() for s in ET.fromstring(data).iter(f"{ATOM}summary")
    ]
    assert len(summaries) > 500
    assert not [(p, t[:80]) for p, t in summaries if "`" in t or "<br" in t or "**" in t][:5]
