"""What an upgrade note's hand-written fields may say: the rules `check` holds `restore` and
`kind` to. Pure functions of a value, so the loader, the schema's description and the tests
share one definition."""

from __future__ import annotations

import re

from ..model.content import ACTION_SECTIONS, CHANGE_KINDS, QUIET_KINDS
from ..model.errors import did_you_mean

_NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|\[[^\]]*\]|\{[^}]*\}|\([^)]*\)|[^\s\"'\[\]{}()]+(?:\([^)]*\))?)"
RESTORE_FORMS = {
    "assignment": re.compile(rf"{_NAME} ?= ?{_VALUE}"),
    "flag": re.compile(r"--[a-z][a-z0-9-]*(?:=\S+)?"),
    "command": re.compile(r"(?:pip|pip3|python|python3|torchrun|conda|uv) \S.*"),
}
"""A `restore` is one of these, matched whole: NAME=VALUE (an argument, config or environment
variable set to one token, a quoted string or a bracketed expression), a --flag, or a command."""


def restore_problem(value: str) -> str | None:
    """Why `value` is not something a reader can type to get the old behaviour back, or None."""
    if any(form.fullmatch(value) for form in RESTORE_FORMS.values()):
        return None
    names = re.findall(_NAME, value)
    if re.fullmatch(_NAME, value):
        hint = f" (did you mean '{value}=<old value>'?)"
    else:
        named = [n for n in names if "_" in n or "." in n]
        hint = f" (did you mean '{named[0]}=<old value>'?)" if named else ""
    return (
        f"restore '{value}' is not a flag, argument, environment variable or command: write NAME=VALUE, "
        f"--flag or a command (pip, python, torchrun, conda, uv) and say the rest in the note{hint}"
    )


def kind_problem(section: str, kind: str) -> str | None:
    """Why `kind` cannot describe a change of `section`, or None: a breaking change may not say it
    asks nothing. (A deprecation may: the notes file some changes there that deprecate nothing,
    such as 2.4's internal dynamic-shapes fixes, and `no-action` keeps them out of the guide.)"""
    if kind in QUIET_KINDS and section in ACTION_SECTIONS - {"deprecations"}:
        acting = [k for k in CHANGE_KINDS if k not in QUIET_KINDS]
        return (
            f"kind '{kind}' says the change asks nothing, but it sits in the {section} section: "
            f"use one of {', '.join(acting)}{did_you_mean('behaviour-change', acting)}"
        )
    return None


NOTHING_TO_CHANGE = re.compile(
    r"\b(?:nothing to change|(?:needs?|requires?) no change|no code (?:must|needs to) change|nothing is deprecated)"
    r"(?=\s*(?:[.;:,]|$))",
    re.IGNORECASE,
)
"""A note saying the change asks nothing of a reader's code (a clause of its own: "Nothing to change
for well-formed checkpoints; a refused file …" asks something of the others)."""


def note_problem(kind: str | None, note: str | None) -> str | None:
    """Why a note that says nothing needs changing cannot go with `kind`, or None: a kind that asks
    for a change would put it in the upgrade guide (2.4's 11 deprecations that deprecate nothing
    swelled the 2.3 -> 2.4 guide)."""
    if note and kind is not None and kind not in QUIET_KINDS and (m := NOTHING_TO_CHANGE.search(note)):
        quiet = ", ".join(sorted(QUIET_KINDS))
        return f"the note says '{m[0]}', but kind '{kind}' asks for a change: use kind {quiet}, or say what to change"
    return None
