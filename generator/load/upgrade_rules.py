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
    """Why `kind` cannot describe a change of `section`, or None: a change in a section that
    asks something of every reader (breaking changes, deprecations) may not say it asks nothing."""
    if kind in QUIET_KINDS and section in ACTION_SECTIONS:
        acting = [k for k in CHANGE_KINDS if k not in QUIET_KINDS]
        return (
            f"kind '{kind}' says the change asks nothing, but it sits in the {section} section: "
            f"use one of {', '.join(acting)}{did_you_mean('behaviour-change', acting)}"
        )
    return None
