"""Errors: a content problem (`Problem`, raised together as one `ContentError`), a bad command line
(`UsageError`), and the one mapping of both to exit codes (`exit_code`)."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable
from dataclasses import dataclass

MAX_MESSAGE = 300
"""A message quotes at most an excerpt of a value: past this many characters it is cut (a last
guard; each message already shortens the values it quotes)."""


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the content, at a position in a file."""

    path: str
    line: int
    col: int  # 1-based; 0 when the problem is a whole line (printed as path:line)
    message: str
    field: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.col}" if self.col else f"{self.path}:{self.line}"
        message = self.message if len(self.message) <= MAX_MESSAGE else self.message[: MAX_MESSAGE - 1] + "…"
        return f"{where}: {self.field}: {message}" if self.field else f"{where}: {message}"


class ContentError(Exception):
    """Raised once, at the end of a stage, with every problem that stage found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(Exception):
    """A bad command line or an unreadable path: exit code 2."""


def did_you_mean(word: str, choices) -> str:
    """' (did you mean 'x'?)' when a close match exists, else ''."""
    match = difflib.get_close_matches(str(word), sorted(map(str, choices)), n=1, cutoff=0.6)
    return f" (did you mean '{match[0]}'?)" if match else ""


def exit_code(verb: Callable[[], int]) -> int:
    """Run a CLI verb and return its exit code: the one place errors become exit codes.

    A ContentError prints its problems, one a line, then their count, and gives 1; a UsageError
    prints its message and gives 2. Other exit codes are the verb's own.
    """
    try:
        return verb()
    except ContentError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.problems)} problem{'s' if len(exc.problems) != 1 else ''} found.", file=sys.stderr)
        return 1
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
