"""The questions `check` asks of an imported change list's records, as import-notes holds a
re-import to them: a grouped change's unconfirmed subject and a name a record seems to end
(enrich.changeviews.record_questions). Hand fields answer them (`subject:`, `ends:`) and follow
their change across a re-import; so a re-import that would ask what the file it replaces did not
ask (a new breaking change, a change its answers could not follow) is refused, and a first import,
which nothing has answered yet, writes its records and lists each question."""

from __future__ import annotations

import sys

from ..enrich import changeviews
from ..markup.textfilters import record_line
from ..model.content import Change
from ..model.errors import ContentError, Problem

Question = tuple[Problem, tuple[str, str, str]]
"""A question at the line check puts it on (its record line), and what identifies it across a
re-import: the record line, what it is about, the question."""


def asked(release: str, changes: tuple[Change, ...], text: str, target: str) -> list[Question]:
    """The questions of a change list (`changes`, read from `text`, to be written at `target`)."""
    lines = text.splitlines()
    out = []
    for q in changeviews.record_questions(release, changes):
        record = record_line(q.change.text)
        line, col = next(((i, t.index(record) + 1) for i, t in enumerate(lines, 1) if record in t), (0, 0))
        out.append((Problem(target, line, col, f"unconfirmed {q.about}: {q.question}"), (record, q.about, q.question)))
    return out


def refuse_new(questions: list[Question], before: list[Question] | None, notes_lines: dict, notes_file: str) -> None:
    """Raise ContentError, at each record's line in the notes (`notes_lines`: record line -> line),
    for the questions the replaced file (`before`; None for a first import) did not ask."""
    if before is None:
        return
    known = {key for _, key in before}
    fresh = [
        Problem(
            notes_file,
            notes_lines.get(key[0]) or 0,
            0,
            f"{problem.message}; the file it replaces did not ask it: answer it there first",
        )
        for problem, key in questions
        if key not in known
    ]
    if fresh:
        raise ContentError(fresh)


def tell(questions: list[Question], target: str) -> None:
    """A written first import's questions on stderr: check refuses the change list until each is answered."""
    for problem, _ in questions:
        print(problem, file=sys.stderr)
    if questions:
        said = f"{len(questions)} question{'s' if len(questions) > 1 else ''}"
        print(f"{target}: {said} to answer: check refuses the change list until then", file=sys.stderr)
