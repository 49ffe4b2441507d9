"""The Highlights section of release notes, item by item with the tier its table files it under
(a helper of new_release, which asks which highlights still lack an entry)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from .parser import section_key
from .syntax import HEADING, ITEM


@dataclass(frozen=True)
class Highlight:
    """One line of the notes' Highlights (a table cell or a list item), as plain text."""

    text: str
    tier: str  # the tier heading above it in the table ("API-Unstable"), "" when none
    line: int  # 1-based line in the notes


# A table row runs from its <tr> to the next (2.10 closes rows with a second <tr>, not </tr>).
_ROW_HTML = re.compile(r"<tr\b[^>]*>(.*?)(?=<tr\b|</table>|\Z)", re.IGNORECASE | re.DOTALL)
_CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.IGNORECASE | re.DOTALL)
_TIER_CELL = re.compile(r"^(?:(?:API-)?(?:un)?stable|beta|prototype)\b[^.]{0,30}$", re.IGNORECASE)


def highlights(text: str) -> tuple[Highlight, ...]:
    """The Highlights section's items, table cells or list items, each with the tier its table
    files it under: a row of tier names heads columns (2.6), a one-cell tier row heads the rows
    below it (2.9)."""
    found = _section(text.replace("\r\n", "\n").split("\n"))
    if found is None:
        return ()
    first, body = found
    out = _table_cells("\n".join(body), first)
    if not out:  # a list instead of a table
        for k, line in enumerate(body):
            item = ITEM.match(line)
            if item and _cell_text(line[item.end() :]):
                out.append(Highlight(_cell_text(line[item.end() :]), "", first + 1 + k))
    return tuple(out)


def _section(lines: list[str]) -> tuple[int, list[str]] | None:
    """(the 0-based line after the Highlights heading, the section's lines), or None."""
    body, level, first = [], None, 0
    for i, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading and level is not None and len(heading[1]) <= level:
            break
        if heading and level is None and section_key(heading[2]) == "highlights":
            level, first = len(heading[1]), i + 1
        elif level is not None:
            body.append(line)
    return None if level is None else (first, body)


def _table_cells(section: str, first: int) -> list[Highlight]:
    out: list[Highlight] = []
    columns: list[str] = []
    tier = ""
    for row in _ROW_HTML.finditer(section):
        cells = [(m.start(1) + row.start(1), _cell_text(m[1])) for m in _CELL.finditer(row[1])]
        cells = [(at, c) for at, c in cells if c]
        if cells and all(_TIER_CELL.match(c) for _, c in cells):
            names = [re.sub(r"^.*\((.+)\)$", r"\1", c) for _, c in cells]
            columns, tier = (names, "") if len(names) > 1 else ([], names[0])
            continue
        for k, (at, cell) in enumerate(cells):
            where = first + 1 + section.count("\n", 0, at)
            out.append(Highlight(cell, columns[k] if k < len(columns) else tier, where))
    return out


def _cell_text(markup: str) -> str:
    """Table-cell or list-item markup as one line of plain text."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).replace("**", "").split())
