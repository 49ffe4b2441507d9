"""`python -m generator new-release X.Y --notes FILE`: the mechanical part of adding a release.

It writes `content/releases/X.Y.yaml`'s skeleton (version, date, previous, counts, the tier
vocabulary in force, the source links; no features) unless the file exists, imports the notes'
change list (`import_notes.command`), and prints a to-do list: each highlight of the notes with
the catalogue features it probably continues (matched by the PRs earlier entries cite, then by
name), each highlight no entry covers yet, and each breaking change, deprecation and tracked
regression still without its hand-written fields, and each question check asks of the records (a
subject or an ending to confirm: changeviews.record_questions). It writes no summary, note, entry or
answer: those are ours to write, in our own words. Run it again to see what is left.

Facts come from the command line or, where it is silent, from `content/sources/INDEX.md` (its
"Dates and counts" table and its table of release posts).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from ..enrich import changeviews
from ..load.load import load
from ..markup.textfilters import record_line
from ..model import urls
from ..model.content import Content, version_key
from ..model.errors import ContentError, UsageError
from ..util.writer import write_atomic
from . import importer as import_notes
from .highlights import highlights
from .parser import find_prs

_ROW = re.compile(r"^\| (\d+\.\d+) \| ([\d,]+) \| ([\d,]+) \| (\d{4}-\d{2}-\d{2}) \|", re.M)
_POST = re.compile(r"^\| blog-[\w.-]+\.md \| (\d+\.\d+) \| (https?://\S+) \|", re.M)
_WORD = re.compile(r"[a-z0-9][a-z0-9.+_-]*")
_STOP = frozenset("a an and the of for to in on with via by as its new now from into support".split())


@dataclass(frozen=True)
class Facts:
    """What the skeleton says of the release: each from the command line or INDEX.md."""

    date: dt.date
    commits: int
    contributors: int
    blog: str | None


def facts(release: str, sources: Path, date: str | None, commits: int | None, contributors: int | None) -> Facts:
    """The release's date, counts and post, the command line's word first; UsageError naming
    what neither the command line nor INDEX.md gives."""
    index = sources / "INDEX.md"
    text = index.read_text(encoding="utf-8") if index.is_file() else ""
    row = next((m for m in _ROW.finditer(text) if m[1] == release), None)
    post = next((m[2] for m in _POST.finditer(text) if m[1] == release), None)
    date = date or (row and row[4])
    commits = commits or (row and int(row[2].replace(",", "")))
    contributors = contributors or (row and int(row[3].replace(",", "")))
    missing = [
        flag
        for flag, value in (("--date", date), ("--commits", commits), ("--contributors", contributors))
        if not value
    ]
    if missing:
        raise UsageError(f"{index}: no row for {release} in its 'Dates and counts' table: give {', '.join(missing)}")
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise UsageError(f"--date {date!r} is not a date (YYYY-MM-DD)") from None
    return Facts(day, commits, contributors, post)


def skeleton(release: str, previous: str, vocabulary: str, f: Facts) -> str:
    """The release file's text: facts and links only; `summary` says what it is not yet."""
    notes = urls.release_notes(release)
    counted = f.blog or notes
    lines = [
        "# yaml-language-server: $schema=../../generator/schemas/release.schema.json",
        f'version: "{release}"',
        f"date: {f.date.isoformat()}",
        f'previous: "{previous}"',
        "counts:",
        f"  commits: {f.commits}",
        f"  contributors: {f.contributors}",
        f"  source: {counted}",
        f"tier_vocabulary: {vocabulary}",
        "summary: >-",
        f"  PyTorch {release}: {f.commits:,} commits from {f.contributors:,} contributors since {previous}.",
        "links:",
        *([f"  blog: {f.blog}"] if f.blog else []),
        f"  notes: {notes}",
        "features: []",
    ]
    return "\n".join(lines) + "\n"


def probable_features(text: str, content: Content, cited: dict[int, set[str]]) -> list[str]:
    """Catalogue ids a highlight probably continues: those whose earlier entries cite one of its
    PRs, else the best few by the words of the name (a family's name counts like any other)."""
    by_pr = sorted({fid for pr in find_prs(text) for fid in cited.get(pr, ())})
    if by_pr:
        return by_pr
    words = _words(text)
    scored = []
    for feature in content.catalogue:
        names = (feature.name, feature.id.replace("-", " "), *feature.also)
        best = max(_similarity(words, _words(n), n.lower(), text.lower()) for n in names)
        if best >= 0.66:
            scored.append((-best, feature.id))
    return [fid for _, fid in sorted(scored)[:3]]


def _words(text: str) -> set[str]:
    return {w.strip(".") for w in _WORD.findall(re.sub(r"<[^>]+>", " ", text.lower()))} - _STOP


def _similarity(words: set[str], name_words: set[str], name: str, text: str) -> float:
    """1 when the highlight spells the name out; else the share of the name's words it uses,
    counted only when it uses two of them (one shared word, "backend", says nothing)."""
    if len(name) > 3 and re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", text):
        return 1.0
    shared = len(words & name_words)
    return shared / len(name_words) if shared >= 2 else 0.0


def todo(release: str, content_dir: Path, notes_text: str, notes_file: str) -> list[str]:
    """What is left to write by hand for the release, one line each."""
    content = load(content_dir)
    this = next((r for r in content.releases if r.version == release), None)
    cited: dict[int, set[str]] = {}
    for r in content.releases:
        if r.version != release:
            for entry in r.entries:
                for pr in entry.prs:
                    cited.setdefault(pr, set()).add(entry.id)
    out = []
    if this is not None and this.summary.startswith(f"PyTorch {release}: "):
        out.append(f"releases/{release}.yaml: summary: write what the release brings, in our own words")
    entered = {e.id for e in this.entries} if this else set()
    for h in highlights(notes_text):
        ids = probable_features(h.text, content, cited)
        if any(i in entered for i in ids):
            continue
        tier = f" [{h.tier}]" if h.tier else ""
        guess = f" — probably continues {', '.join(ids)}" if ids else " — no catalogue feature matches: a new one?"
        out.append(f"{notes_file}:{h.line}: highlight{tier} without an entry: {_excerpt(h.text)}{guess}")
    out += [line for change in (this.changes if this else ()) if (line := _unwritten(release, change))]
    for q in changeviews.record_questions(release, this.changes) if this else ():
        record = _excerpt(record_line(q.change.text))
        out.append(
            f"changes/{release}.yaml: {q.change.section}: {record}: {q.question.split('? ', 1)[0]}? write its answer"
        )
    return out


def _unwritten(release: str, change) -> str:
    """What a change still lacks that a reader of an upgrade needs, or ""."""
    record = _excerpt(record_line(change.text))
    if change.section in ("bc-breaking", "deprecations") and (change.note is None or change.kind is None):
        missing = " and ".join(k for k in ("note", "kind") if getattr(change, k) is None)
        return f"changes/{release}.yaml: {change.section}: {record}: write its {missing}"
    if change.section == "tracked-regressions" and (change.note is None or change.workaround is None):
        return f"changes/{release}.yaml: tracked regression: {record}: write its note and workaround"
    return ""


def _excerpt(text: str, limit: int = 90) -> str:
    text = " ".join(re.sub(r"<[^>]+>", " ", text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def command(args) -> int:
    """The new-release verb: exit 0 with a to-do list, 1 when the skeleton would not pass `check`
    or the import is refused (import-notes' rules: its questions are on the to-do list), 2 on a bad
    argument or file."""
    release, content_dir = args.release, Path(args.content)
    if not re.fullmatch(r"2\.\d+", release):
        raise UsageError(f"{release!r} is not a 2.x minor release such as 2.14")
    notes_path = Path(args.notes)
    try:
        notes_text = notes_path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{notes_path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    target = content_dir / "releases" / f"{release}.yaml"
    if not target.exists():
        content = load(content_dir)
        earlier = [r for r in content.releases if version_key(r.version) < version_key(release)]
        if not earlier or any(version_key(r.version) > version_key(release) for r in content.releases):
            raise UsageError(f"{release} must come after the newest release in {content_dir / 'releases'}")
        previous = earlier[-1]
        f = facts(release, content_dir / "sources", args.date, args.commits, args.contributors)
        text = skeleton(release, previous.version, previous.tier_vocabulary, f)
        write_atomic(target, text.encode("utf-8"))
        try:  # what `check` would refuse is not left behind
            load(content_dir)
        except ContentError:
            target.unlink()
            raise
        print(f"{target}: written (a skeleton: facts and links, no features)")
    else:
        print(f"{target}: kept as it is")
    status = import_notes.command(str(notes_path), release, None, False, str(content_dir))
    if status:
        return status
    items = todo(release, content_dir, notes_text, notes_path.name)
    print(f"to do for {release} ({len(items)}):" if items else f"nothing left to write by hand for {release}")
    for item in items:
        print(f"  {item}")
    return 0
