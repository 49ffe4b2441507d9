"""Release notes stored as SQL `INSERT`s (2.3's copy) -> the Markdown `_notes_parser` reads.

Private helper of `import_notes`. Someone stored the 2.3.0 notes in an SQL file, one
`INSERT … VALUES ('pytorch', old, new, date, update_type, update_notes)` per section: the section
title is `update_type`, its text `update_notes`, with Markdown markers, links and tables gone —
bullets and area headings are plain lines, PR refs stay as `(#12345)`.

`to_markdown` rebuilds what the notes parser needs, line for line (line N of the result is
line N of the file, so every warning and refusal points at the SQL file's own line):
- the line of each `INSERT` becomes the section's `#` heading (a title one edit away from a
  known section, 2.3's "Highligts", is read as that section);
- a line citing a PR is a change (a bullet), unless it cites it mid-sentence under a change
  (an explanation pointing at a discussion: "One concrete example is here, #118337, where …");
- a short PR-less line is an area heading: `###` when the same words head an area in another
  section of the file, or it stands over another such line (an area name such as "Distributed
  API" over "C10d:"); after changes citing PRs, it is a sibling of the heading they sit under
  (2.3's "DDP", one change, then "Functional Collectives"); `####` otherwise (a sub-area such as
  "C10d:" right under "Distributed API"). A short line under a change is its explanation or
  code, unless a change follows it (then it heads them);
- a PR-less line that is a title with its explanation after a dash ("(beta feature) torch.compile
  works with User defined triton kernels - Allows for …") is a change that cites no PR, and its
  dash holds its explanation, so the line after it is a change of its own too;
- a PR-less line that reads as a title, not a sentence (six words or more, no full stop, no code:
  "Add torchrec even row-wise sharding example") is a change that cites no PR;
- any other PR-less line explains the change above it (indented under its bullet), or, with no
  change above it in its area, is a change that cites no PR.
Every other line of the file (the `CREATE TABLE`, the column lists) becomes blank.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass

from .parser import SECTIONS, find_prs, section_key

LABEL_WORDS = 5  # a PR-less line of more words is a sentence, never an area heading
_SQL_START = re.compile(r"\A\s*(?:CREATE\s+TABLE|INSERT\s+INTO)\b", re.IGNORECASE)
_VALUES = re.compile(r"\bVALUES\s*\(", re.IGNORECASE)
_INSERT = re.compile(r"\bINSERT\b", re.IGNORECASE)
_LITERAL = re.compile(r"'((?:[^'\\]|\\.|'')*)'", re.DOTALL)
_SEPARATOR = re.compile(r"\s*,\s*")
_ESCAPE = re.compile(r"\\(.)|''", re.DOTALL)
# A sentence, code, or a table's header row of versions ("2.2  2.3") is no area name.
_ENDS_WITH_REF = re.compile(r"#\d+\W*$")
# A title, a dash, then what it means: "Mutable variable trackers - TorchDynamo variable trackers …".
_SELF_EXPLAINED = re.compile(r"^[^.:]{3,120}? - [A-Z]")
_NOT_A_LABEL = re.compile(r"\.(?:\s|$)|[=;{}\[\]\"`]|^[#@>(]|\w\(|^(?:from|import|def|class|return)\b|^[\d.\s]+$")


def is_sql_copy(text: str) -> bool:
    """Whether `text` is notes stored as SQL (it opens with CREATE TABLE or INSERT INTO)."""
    return bool(_SQL_START.match(text.removeprefix("\ufeff")))


@dataclass(frozen=True)
class Insert:
    """One `INSERT` of the file: a section of the notes."""

    heading_line: int  # 0-based line of its INSERT keyword, where the section heading goes
    title: str  # update_type, stripped
    body_line: int  # 0-based line where update_notes starts
    body: tuple[str, ...]  # update_notes' lines, unescaped


def inserts(text: str) -> tuple[Insert, ...]:
    """The file's INSERTs that give six values, in order; others (`INSERT INTO FUNCTION s3(…)
    SELECT …`) hold no notes."""
    out = []
    for m in _VALUES.finditer(text):
        values, at = [], m.end()
        while len(values) < 6:
            lit = _LITERAL.match(text, at)
            if not lit:
                break
            values.append((lit.start(1), _unescape(lit[1])))
            sep = _SEPARATOR.match(text, lit.end())
            at = sep.end() if sep else lit.end()
        keyword = [k for k in _INSERT.finditer(text, 0, m.start())]
        if len(values) < 6 or not keyword:
            continue
        body_at, body = values[5]
        out.append(
            Insert(
                text.count("\n", 0, keyword[-1].start()),
                " ".join(values[4][1].split()),
                text.count("\n", 0, body_at),
                tuple(body.split("\n")),
            )
        )
    return tuple(out)


def _unescape(literal: str) -> str:
    return _ESCAPE.sub(lambda m: m[1] if m[1] is not None else "'", literal)


def section_title(title: str) -> str:
    """The section heading for an `update_type`: itself when the parser knows it, else the known
    heading it is one slip away from ("Highligts" -> "highlights"), else itself."""
    key = section_key(title)
    if key in SECTIONS:
        return title
    close = difflib.get_close_matches(key, list(SECTIONS), n=1, cutoff=0.85)
    return close[0] if close else title


def to_markdown(text: str) -> str:
    """The Markdown the notes parser reads, one line per line of the SQL `text` (see above)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    out = [""] * (text.count("\n") + 1)
    found = inserts(text)
    areas = _area_names(found)
    for insert in found:
        out[insert.heading_line] = f"# {section_title(insert.title)}"
        for k, line in enumerate(_section_lines(insert.body, areas)):
            out[insert.body_line + k] = line
    return "\n".join(out)


def _short(line: str) -> bool:
    """Whether a PR-less line could head an area: a few words, no sentence, no code."""
    words = line.strip()
    return bool(words) and len(words.split()) <= LABEL_WORDS and not _NOT_A_LABEL.search(words)


def _area_names(found: tuple[Insert, ...]) -> frozenset[str]:
    """Short PR-less lines that appear in two sections or more: the notes' area names."""
    seen = Counter()
    for insert in found:
        seen.update({line.strip() for line in insert.body if _short(line) and not find_prs(line)})
    return frozenset(name for name, n in seen.items() if n > 1)


def _section_lines(body: tuple[str, ...], areas: frozenset[str]) -> list[str]:
    """A section's lines as Markdown: changes as bullets, areas as headings, the rest indented
    under the change it explains."""
    lines = _dedent(body)
    out, open_change = [], False
    level, cited = "####", False  # the last area heading's level; whether PR changes followed it
    for k, line in enumerate(lines):
        words = line.strip()
        if not words:
            out.append("")
        elif find_prs(words) and not (open_change and not _ENDS_WITH_REF.search(words)):
            out.append(f"- {words}")
            open_change, cited = True, True
        elif _short(words) and (words in areas or not open_change or _heads_changes(lines, k)):
            top = words in areas or (not words.endswith(":") and _heads_labels(lines, k))
            level = "###" if top else (level if cited else "####")
            out.append(f"{level} {words}")
            open_change, cited = False, False
        elif open_change and not (_SELF_EXPLAINED.match(words) or _titled(words)):
            out.append(f"    {line}")
        else:
            out.append(f"- {words}")
            # A change whose dash carries its explanation has none below it.
            open_change = not _SELF_EXPLAINED.match(words)
    return out


def _titled(line: str) -> bool:
    """Whether a PR-less line reads as a change's title rather than a sentence explaining one:
    more words than an area name, capitalised, no full stop or colon at its end, no code, and no
    table row (columns apart by two spaces)."""
    return (
        len(line.split()) > LABEL_WORDS
        and line[:1].isupper()
        and line[-1:].isalnum()
        and "  " not in line
        and not _NOT_A_LABEL.search(line)
    )


def _heads_labels(lines: list[str], k: int) -> bool:
    """Whether the short line `k` stands over another short, PR-less line: an area over its
    sub-areas ("Distributed API" over "C10d:")."""
    nxt = next((line for line in lines[k + 1 :] if line.strip()), "")
    return _short(nxt) and not find_prs(nxt)


def _heads_changes(lines: list[str], k: int) -> bool:
    """Whether the short line `k` heads changes: the next line that says something cites a PR,
    or is another short line over one that does ("Distributed API" over "C10d:")."""
    rest = [line for line in lines[k + 1 :] if line.strip()][:2]
    if rest and find_prs(rest[0]):
        return True
    return len(rest) == 2 and _short(rest[0]) and bool(find_prs(rest[1]))


def _dedent(body: tuple[str, ...]) -> list[str]:
    """The lines without the indent the SQL file adds to every line after the first."""
    rest = [line for line in body[1:] if line.strip()]
    cut = min((len(line) - len(line.lstrip(" ")) for line in rest), default=0)
    return [body[0].strip()] + [line[cut:].rstrip() if line[:cut].isspace() else line.strip() for line in body[1:]]
