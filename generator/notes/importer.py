"""`python -m generator import-notes`: GitHub release notes -> content/changes/X.Y.yaml.

The notes are read by `_notes_parser` into `ImportedChange`s; this module writes them as YAML the
schema `changes.schema.json` describes, and carries the hand-written fields (`note`,
`backends`, … `anchors`) of the existing file over to the re-imported changes. Every change
anchor the existing file gave a release page stays on the page: a change whose record line the
re-import changes keeps its old anchor in `anchors:`, and so does the change another was merged
into (the first one citing its PRs). The YAML is written by hand
rather than by a YAML dumper so that it is byte-stable and easy to read and edit: `text` is
always a literal block, `prs` a flow list.

Nothing is written that `python -m generator check` would refuse: notes too large or nested too
deeply for the site are refused before they are read, and the YAML is read back through the
loader's own checks before it replaces the file; a re-import that would ask a question the file
it replaces did not (an unconfirmed subject or ending: `questions`) is refused too. Exit codes: 0
written (or unchanged), 1 refused content, 2 a bad argument or an unreadable or unwritable file.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import yaml

from ..load import load, schema, yamlsrc
from ..markup.textfilters import record_line
from ..model import urls
from ..model.content import HAND_WRITTEN
from ..model.errors import ContentError, Problem, UsageError, exit_code
from ..util.writer import write_atomic
from . import questions
from . import sql as _sql_notes
from .parser import ImportedChange, Lines, ParsedNotes, build, classify, find_prs

__all__ = ["ImportedChange", "ParsedNotes", "command", "find_prs", "parse_notes", "render_changes_yaml"]

SCHEMA_COMMENT = "# yaml-language-server: $schema=../../generator/schemas/changes.schema.json"
_FENCE = re.compile(r"^\s*(```|~~~)")
_PR_REF = re.compile(r"#(\d+)|/pull/(\d+)")


def record_of(change: ImportedChange) -> ImportedChange:
    """The change as we store it: its record line, with the lines it wraps onto up to the one
    citing its PRs (for a sub-bullet, the parent line that gives it context comes first). The
    explanation paragraphs and code examples under it are the notes' own words: pages link to
    the notes instead of copying them."""
    lines = [_NOTES_MARKUP.sub("", line) for line in change.text.strip().split("\n")]
    cited = set(change.prs)
    out: list[str] = []
    for k, line in enumerate(lines[:3]):
        if not line.strip() or _FENCE.match(line):
            break
        out.append(line)
        if {int(a or b) for a, b in _PR_REF.findall(line)} & cited:
            return replace(change, text="\n".join(out + _sentence_end(line, lines[k + 1 : k + 3])))
    return replace(change, text=lines[0])  # no PR within reach: the first line alone is the record


# What the notes' tooling and layout add to a line, not its words: a line break at its end (2.5's
# "… (#134877)<br>") and the staging repository's "_(from miscategorized)_" (2.12). Kept, they
# show as text on pages and in feeds.
_NOTES_MARKUP = re.compile(r"(?:\s*<br\s*/?>|\s+_\(from miscategorized\)_)+\s*$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.:;!?)`*>]\s*$")  # ">": a line closed by <br> or a tag
_NEW_BLOCK = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|#|```|~~~|>)")


def _sentence_end(line: str, after: list[str]) -> list[str]:
    """The continuation lines that finish a sentence the record line breaks off ("… so there is
    no need for" / "special cases now."): at most two, and none unless they end the sentence."""
    if _SENTENCE_END.search(line):
        return []
    taken = []
    for nxt in after:
        if not nxt.strip() or _NEW_BLOCK.match(nxt):
            return []
        taken.append(nxt)
        if _SENTENCE_END.search(nxt):
            return taken
    return []


_RELEASE = re.compile(r"^2\.[0-9]+$")
# Characters YAML cannot hold raw, or would read as a line break (\x85, \u2028, \u2029).
_UNPRINTABLE = re.compile("[^\x09\x0a\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_PLAIN_START = re.compile(r"[A-Za-z0-9(]")


def parse_notes(text: str, path: str) -> ParsedNotes:
    """The changes of a release-notes Markdown text, and warnings as "path:line: message".

    Raises ContentError, pointing at the line, when a list is nested deeper than the loader reads
    YAML (yamlsrc.MAX_DEPTH): no real notes come close, and the reader recurses once per level of
    nested groups, so a few hundred levels would crash it.
    """
    lines = classify(as_markdown(text))
    _refuse_deep_lists(lines, path)
    return build(lines, path, flat=_sql_notes.is_sql_copy(text))


def as_markdown(text: str) -> str:
    """The notes as Markdown: an SQL copy (2.3's) rebuilt line for line by `_sql_notes`, any
    other text as it is."""
    return _sql_notes.to_markdown(text) if _sql_notes.is_sql_copy(text) else text


def _refuse_deep_lists(lines: Lines, path: str) -> None:
    for i, depth in enumerate(lines.list_depth):
        if depth > yamlsrc.MAX_DEPTH:
            message = f"bullet list nested {depth} levels deep; at most {yamlsrc.MAX_DEPTH}"
            raise ContentError([Problem(path, i + 1, 0, message)])


def render_changes_yaml(
    release: str,
    source_url: str,
    changes: Iterable[ImportedChange],
    previous_yaml_text: str | None,
    *,
    notes_file: str | None = None,
) -> str:
    """The text of content/changes/<release>.yaml for `changes`.

    Hand-written fields of `previous_yaml_text` (the file being replaced) are kept: each goes to
    the change with the same PR tuple or, for a change citing no PR, the same section, area and
    text (or the same section and text, where its area changed). Raises ValueError when the
    previous text is not a readable change list.
    """
    changes = [record_of(c) for c in changes]
    hand, _, _ = _match_hand_fields(changes, previous_yaml_text)
    return _render(release, source_url, changes, hand, notes_file)


def _render(
    release: str, source_url: str, changes: list[ImportedChange], hand: list[dict], notes_file: str | None
) -> str:
    origin = f"from {notes_file}" if notes_file else f"from the release notes at {source_url}"
    out = [
        SCHEMA_COMMENT,
        f"# Generated by `python -m generator import-notes` {origin}.",
        "# Re-importing rewrites everything but the hand-written note, workaround, backends, kind, restore, removal,",
        "# features and symptom, which stay with the change citing the same PRs (or with the same text when it cites none).",
        f"release: {_quoted(release)}",
        f"source: {_scalar(source_url)}",
        "changes:" if changes else "changes: []",
    ]
    for change, fields in zip(changes, hand, strict=True):
        out.append(f"  - section: {_scalar(change.section)}")
        out.append(f"    area: {_scalar(change.area)}")
        out.extend(_block("text", change.text))
        out.append(f"    prs: [{', '.join(map(str, change.prs))}]")
        if change.issues:
            out.append(f"    issues: [{', '.join(map(str, change.issues))}]")
        out.extend(_hand_lines(fields))
    return "\n".join(out) + "\n"


def _hand_lines(fields: dict) -> list[str]:
    """A change's hand-written fields as YAML lines, in the files' order."""
    out = []
    for key in ("note", "workaround"):
        if key in fields:
            text = fields[key]
            out.extend(_block(key, text) if "\n" in text else [f"    {key}: {_scalar(text)}"])
    if "backends" in fields:
        out.append(f"    backends: [{', '.join(_scalar(b, flow=True) for b in fields['backends'])}]")
    for key in ("kind", "restore", "removal"):
        if key in fields:
            out.append(f"    {key}: {_quoted(fields[key]) if key == 'removal' else _scalar(fields[key])}")
    if "carried_out" in fields:
        out.append(f"    carried_out: {int(fields['carried_out'])}")
    for key in ("features", "symptom", "anchors", "ends", "subject"):
        if key in fields:
            out.append(f"    {key}: {_flow(key, fields[key])}")
    return out


def _flow(key: str, values) -> str:
    """A list field on one line; a symptom is exact message text (JSON's double-quoted strings are YAML's)."""
    if key == "symptom":
        said = [json.dumps(m, ensure_ascii=False) for m in values]
        return said[0] if len(said) == 1 else "[" + ", ".join(said) + "]"
    return "[" + ", ".join(_scalar(v, flow=True) for v in values) + "]"


def command(notes_file: str, release: str, output: str | None, diff: bool, content_dir: str) -> int:
    """The import-notes verb: exit 0 on success (warnings go to stderr), 1 when the notes or the YAML
    made of them would not pass `check` (nothing is written), 2 on a bad argument or file; errors
    are reported by `errors.exit_code`, as every verb's are."""
    return exit_code(lambda: _import(notes_file, release, output, diff, content_dir))


def _import(notes_file: str, release: str, output: str | None, diff: bool, content_dir: str) -> int:
    """import-notes itself: raises UsageError or ContentError where `command` returns 2 or 1."""
    if not _RELEASE.fullmatch(release):
        raise _usage(notes_file, f"--release {release!r} is not a 2.x minor release such as 2.10")
    parsed = _parse(notes_file, release)
    target = output or os.path.join(content_dir, "changes", f"{release}.yaml")
    previous = _decode(_read_bytes(target), target) if os.path.exists(target) else None
    changes = [record_of(c) for c in parsed.changes]
    try:
        hand, orphans, lost = _match_hand_fields(changes, previous)
    except ValueError as exc:
        raise _usage(target, f"{exc}; fix or remove it, so that its hand-written fields are not lost") from None
    new = _render(release, urls.release_notes(release), changes, hand, Path(notes_file).name)
    problems, asked = _check_yaml(new, target, Path(content_dir))
    if problems:
        raise ContentError([_in_notes(p, changes, notes_file) for p in problems])
    before = _check_yaml(previous, target, Path(content_dir))[1] if previous is not None else None
    questions.refuse_new(asked, before, {record_line(c.text): c.line for c in changes}, notes_file)
    _warn_lost(target, orphans, lost)
    if diff:
        _print_diff(previous or "", new, target)
        return 0
    summary = f"{len(parsed.changes)} changes, {len({p for c in parsed.changes for p in c.prs})} PRs"
    try:
        written = write_atomic(Path(target), new.encode("utf-8"))
    except OSError as exc:
        raise _usage(target, f"cannot write: {exc.strerror or exc}") from None
    print(f"{target}: {'written' if written else 'unchanged'} ({summary})")
    questions.tell(asked, target)
    return 0


def _parse(notes_file: str, release: str) -> ParsedNotes:
    """The notes file read, refused where too deep or too big, and parsed; warnings to stderr."""
    raw = _read_bytes(notes_file)
    text = _decode(raw, notes_file)
    lines = classify(as_markdown(text))
    # Depth before size: it names a line, and a list nested that deep is megabytes long anyway.
    _refuse_deep_lists(lines, notes_file)
    if len(raw) > yamlsrc.MAX_BYTES:
        message = f"file is {len(raw):,} bytes; at most {yamlsrc.MAX_BYTES:,}"
        raise ContentError([Problem(notes_file, 1, 0, message)])
    parsed = build(lines, notes_file, flat=_sql_notes.is_sql_copy(text))
    for warning in parsed.warnings:
        print(warning, file=sys.stderr)
    named = re.search(r"v?(\d+\.\d+)\.\d+", Path(notes_file).name)
    if named and named[1] != release:
        print(f"{notes_file}: warning: the file name says {named[1]}, --release says {release}", file=sys.stderr)
    return parsed


def _warn_lost(target: str, orphans, lost) -> None:
    """Say which hand-written fields and anchors a re-import could not place."""
    for orphan in orphans:
        print(
            f"{target}: warning: no re-imported change matches {orphan}; its hand-written fields are dropped",
            file=sys.stderr,
        )
    for anchor in lost:
        print(
            f"{target}: warning: {anchor}: no re-imported change cites its PRs or has its text; "
            "add it to `anchors:` of the change it became, or the build refuses the release page",
            file=sys.stderr,
        )


_CHANGE_FIELD = re.compile(r"changes\[(\d+)\]\.?")


def _in_notes(problem: Problem, changes: list[ImportedChange], notes_file: str) -> Problem:
    """A problem of the YAML about to be written, moved to the line of the notes it came from:
    the file named on the command line is the one to fix, and the YAML was never written. A
    hand-written field's problem stays with the change list, where that field is written."""
    m = _CHANGE_FIELD.match(problem.field)
    if not m or int(m[1]) >= len(changes) or not changes[int(m[1])].line:
        return problem
    field = problem.field[m.end() :] or "change"
    if field.startswith(HAND_WRITTEN):
        return problem
    return Problem(notes_file, changes[int(m[1])].line, 0, f"the change's {field}: {problem.message}")


def _print_diff(old: str, new: str, target: str) -> None:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), target, f"{target} (re-imported)"
    )
    try:
        sys.stdout.writelines(lines)
        sys.stdout.flush()
    except BrokenPipeError:  # `--diff | head`: the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise _usage(path, "no such file") from None
    except OSError as exc:
        raise _usage(path, f"cannot read: {exc.strerror or exc}") from None


def _decode(raw: bytes, path: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _usage(path, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} on line {line} cannot be decoded") from None


def _check_yaml(text: str, target: str, content_dir: Path) -> tuple[list[Problem], list[questions.Question]]:
    """What `check` would say about `text` written at `target`: the loader's reading (size,
    depth, syntax), the changes schema and its per-change checks ([] when it would pass), and the
    questions its records leave open (unconfirmed subjects and endings, which check also refuses).

    Backend ids are checked when the content folder has a readable backends registry. That
    `releases/<release>.yaml` exists is not checked: a change list may be imported first.
    """
    with tempfile.TemporaryDirectory(prefix="import-notes-") as folder:
        scratch = Path(folder) / "changes.yaml"
        scratch.write_bytes(text.encode("utf-8"))
        doc, problems = yamlsrc.read(scratch, target)
    if doc is None:
        return problems, []
    problems = schema.check(doc, "changes")
    if problems:
        return problems, []
    named = Path(target).resolve().parent == (content_dir / "changes").resolve()
    changes = load.change_list(doc, _backend_ids(content_dir), problems, named)
    load.check_change_anchors(doc, (), problems)
    return problems, questions.asked(str(doc.data["release"]), changes, text, target)


def _backend_ids(content_dir: Path) -> set[str] | None:
    """The ids of content_dir/backends.yaml, or None when it is missing or itself invalid."""
    path = content_dir / "backends.yaml"
    if not path.is_file():
        return None
    doc, problems = yamlsrc.read(path, str(path))
    if doc is None or schema.check(doc, "backends"):
        return None
    return {b["id"] for b in doc.data["backends"]}


def _usage(path: str, message: str) -> UsageError:
    """A bad argument or an unreadable or unwritable file, as "path: message" (exit code 2)."""
    return UsageError(f"{path}: {message}")


def _match_hand_fields(
    changes: list[ImportedChange], previous_yaml_text: str | None
) -> tuple[list[dict], list[str], list[str]]:
    """For each change, the hand-written fields it inherits (its `anchors:` with every anchor of
    the previous file it takes over); descriptions of the fields left over; and the previous
    anchors no change could take."""
    previous = _previous_changes(previous_yaml_text)
    waiting: dict[tuple, list[tuple[str, dict, int]]] = {}
    for index, item in enumerate(previous):
        fields = {k: item[k] for k in HAND_WRITTEN if item.get(k) is not None}
        if fields:
            waiting.setdefault(
                _key(item.get("section"), item.get("area"), item.get("text"), item.get("prs")), []
            ).append((str(item.get("text")), fields, index))
    matched: list[tuple[dict, int | None]] = [({}, None)] * len(changes)
    # Two changes may cite the same PRs: the one with the same text keeps its fields first, and
    # only what is left follows the PRs to a change whose text was reworded.
    for exact in (True, False):
        for i, change in enumerate(changes):
            queue = waiting.get(_key(change.section, change.area, change.text, change.prs))
            if matched[i][0] or not queue:
                continue
            at = next((j for j, (text, _, _) in enumerate(queue) if text == change.text or not exact), None)
            if at is not None:
                matched[i] = queue.pop(at)[1:]
    # A change whose area moved (an importer that files it better), or whose references were read
    # anew (a tracked regression's "#N" is its issue; a cut-short "(#117" no PR: numbers its text
    # still names), keeps its fields by section and text.
    for i, change in enumerate(changes):
        if matched[i][0]:
            continue
        named = {int(n) for n in re.findall(r"#(\d+)", change.text)}
        found = next(
            (
                (queue, j)
                for key, queue in waiting.items()
                for j, (text, _, index) in enumerate(queue)
                if text == change.text
                and previous[index].get("section") == change.section
                and (key[0] == "text" or set(key[1]) <= named)
            ),
            None,
        )
        if found is not None:
            matched[i] = found[0].pop(found[1])[1:]
    orphans = [
        f"the change at {_describe(key)}"
        for key, queue in waiting.items()
        for _, fields, _ in queue
        if set(fields) - {"anchors"}  # anchors find their own way (_carry_anchors)
    ]
    hand = [_normalised(fields) for fields, _ in matched]
    lost = _carry_anchors(changes, previous, hand, [index for _, index in matched])
    return hand, orphans, lost


def _carry_anchors(changes: list[ImportedChange], previous: list[dict], hand: list[dict], sources: list) -> list[str]:
    """Keep every anchor the previous list gave its release page: each previous change's own
    anchor and its `anchors:` that the new list does not give a change go to `anchors:` of the
    change it became — the one that took its hand-written fields, else one citing the same PRs,
    else the first citing one of its PRs (it was merged into that one). Fills hand[i]["anchors"]
    (sorted); returns the anchors that found no change, described."""
    live = set(urls.change_anchors(c.text for c in changes))
    claimed = set(live)
    for fields in hand:  # a carried anchor that a change has again (an edit undone) is not an alias
        kept = [a for a in fields.pop("anchors", ()) if a not in claimed]
        claimed.update(kept)
        if kept:
            fields["anchors"] = kept
    became = {source: i for i, source in enumerate(sources) if source is not None}
    lost = []
    for j, (item, anchor) in enumerate(
        zip(previous, urls.change_anchors(str(item.get("text", "")) for item in previous), strict=True)
    ):
        for a in (anchor, *(str(x) for x in item.get("anchors") or ())):
            if a in claimed:
                continue
            i = became.get(j)
            if i is None:
                i = _joined(changes, _key(None, None, None, item.get("prs")))
            if i is None:
                first_line = record_line(str(item.get("text", "")))
                lost.append(f"#{a} (the change {first_line[:60]!r})")
                continue
            hand[i].setdefault("anchors", []).append(a)
            claimed.add(a)
    lost += _carry_pr_anchors(changes, previous, hand, became, claimed)
    for fields in hand:
        if "anchors" in fields:
            fields["anchors"] = sorted(fields["anchors"])
    return lost


def _carry_pr_anchors(changes, previous: list[dict], hand: list[dict], became: dict, claimed: set) -> list[str]:
    """A `#pr-N` the previous list gave a change, for a number no change cites as a PR any more (an
    issue, or a reference cut short): kept in `anchors:` of the change it became (the one that
    took its fields, else the one with its text). Returns those that found no change, described."""
    cited = {pr for c in changes for pr in c.prs}
    lost = []
    for j, item in enumerate(previous):
        text = str(item.get("text", ""))
        for pr in _key(None, None, None, item.get("prs"))[1] if item.get("prs") else ():
            anchor = urls.pr_anchor(pr)
            if pr in cited or anchor in claimed:
                continue
            i = became.get(j, next((k for k, c in enumerate(changes) if c.text == text), None))
            if i is None:
                lost.append(f"#{anchor} (the change {text.split(chr(10), 1)[0][:60]!r})")
                continue
            hand[i].setdefault("anchors", []).append(anchor)
            claimed.add(anchor)
    return lost


def _joined(changes: list[ImportedChange], key: tuple) -> int | None:
    """The change a previous change citing PRs became: one citing the same PRs, else the first
    citing one of them; None for a change citing none."""
    if key[0] != "prs":
        return None
    same = next((i for i, c in enumerate(changes) if tuple(c.prs) == key[1]), None)
    if same is not None:
        return same
    return next((i for pr in key[1] for i, c in enumerate(changes) if pr in c.prs), None)


def _previous_changes(text: str | None) -> list[dict]:
    """The `changes:` of the file a re-import replaces, read as `check` reads it (yamlsrc).

    Raises ValueError when it cannot be read: its hand-written fields would be lost."""
    if not text:
        return []
    doc, problems = yamlsrc.parse(text, "")
    if problems:
        raise ValueError(f"the existing file is not valid YAML (line {problems[0].line})")
    if doc is None:
        return []
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("changes", []), list):
        raise ValueError("the existing file has no `changes:` list")
    return [item for item in data.get("changes") or [] if isinstance(item, dict)]


def _key(section, area, text, prs) -> tuple:
    try:
        numbers = tuple(int(p) for p in prs or ())
    except (TypeError, ValueError):
        numbers = ()
    return ("prs", numbers) if numbers else ("text", str(section), str(area or ""), str(text))


def _describe(key: tuple) -> str:
    if key[0] == "prs":
        return "PRs " + ", ".join(f"#{p}" for p in key[1])
    first_line = record_line(key[3])
    return f"{key[1]} / {key[2] or '(no area)'}: {first_line[:60]!r}"


def _normalised(fields: dict) -> dict:
    out = {}
    for key in ("note", "workaround"):
        if key in fields:
            out[key] = str(fields[key]).strip("\n")
    for key in ("backends", "features", "symptom", "anchors", "ends", "subject"):
        if key in fields:
            value = fields[key]
            out[key] = [str(b) for b in (value if isinstance(value, list) else [value])]
    for key in ("kind", "restore", "removal"):
        if key in fields:
            out[key] = str(fields[key])
    if "carried_out" in fields:
        out["carried_out"] = int(fields["carried_out"])
    return out


def _block(key: str, text: str) -> list[str]:
    """`key: |-` and the text indented under it; double-quoted when YAML cannot hold it as a block."""
    if not text or _UNPRINTABLE.search(text) or text[0] == " " or text[-1] in " \n":
        return [f"    {key}: {_quoted(text)}"]
    return [f"    {key}: |-"] + [f"      {line}" if line else "" for line in text.split("\n")]


@functools.lru_cache(maxsize=4096)
def _scalar(value: str, flow: bool = False) -> str:
    """`value` plain when YAML reads it back as the same string, else double-quoted."""
    plain = (
        _PLAIN_START.match(value)
        and value == value.strip()
        and not _UNPRINTABLE.search(value)
        and not any(s in value for s in (": ", " #", "\n", "\t"))
        and not value.endswith(":")
        and not (flow and any(c in value for c in ",[]{}"))
        and yaml.resolver.Resolver().resolve(yaml.ScalarNode, value, (True, False)) == "tag:yaml.org,2002:str"
    )
    return value if plain else _quoted(value)


def _quoted(value: str) -> str:
    """A YAML double-quoted scalar (JSON escapes, plus the characters YAML may not hold raw)."""
    text = json.dumps(value, ensure_ascii=False)
    return _UNPRINTABLE.sub(lambda m: _escape(m[0]), text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
