"""What pasted code uses, read without a parser: the paste-your-code box's rule. atlas-rules.js
`pasteUses` runs it in the browser and tests/test_js_parity.py holds the two equal; this is its
Python reference, and tests/test_scan.py holds its answers on the labelled corpus to `scan`'s.

A paste may be a fragment that Python's `ast` refuses (one line of a call, a traceback), so the
rule is lexical and simple: comments and strings are cut out (a string stays only as an
environment variable's name or a flag), imports bind aliases, `class` and `def` headers and
annotations are skipped, a name followed by `(` is a call whose `name=` arguments are collected,
and a name assigned at the start of a statement is a local, not a use. What it finds is a list of
`symbols.Use`, matched against each change's subject as `scan` matches (`symbols.subject_matches`).
The patterns are ASCII, as JavaScript's are.
"""

from __future__ import annotations

import re

from ..model import symbols
from .pycode import ENV_CALLS

_TOKEN = re.compile(
    r"(?P<comment>#[^\n]*)"
    r"|(?P<str>[rRbBuUfF]{0,2}(?:\"\"\"[\s\S]*?(?:\"\"\"|(?![\s\S]))|'''[\s\S]*?(?:'''|(?![\s\S]))"
    r"|\"(?:\\[\s\S]|[^\"\\\n])*\"?|'(?:\\[\s\S]|[^'\\\n])*'?))"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
    r"|(?P<num>[0-9][0-9A-Za-z_.]*)"
    r"|(?P<op>\*\*|==|!=|<=|>=|->|[()\[\]{}=:,.\n@])"
    r"|(?P<skip>[\s\S])",
    re.ASCII,
)
KEYWORDS = frozenset(
    """False None True and as assert async await break class continue def del elif else except
    finally for from global if import in is lambda nonlocal not or pass raise return try while with
    yield""".split()
)
_OPEN, _CLOSE = ("(", "[", "{"), (")", "]", "}")


def _tokens(text: str) -> list[tuple[str, str]]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "skip"
        if kind == "str":
            body = m[0].lstrip("rRbBuUfF")
            quote = 3 if body[:3] in ('"""', "'''") else 1
            out.append((kind, body[quote:-quote] if len(body) >= 2 * quote else ""))
        elif kind not in ("comment", "skip"):
            out.append((kind, m[0]))
    return out


def _statements(tokens: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """The tokens cut at each newline outside brackets."""
    out: list[list[tuple[str, str]]] = []
    current: list[tuple[str, str]] = []
    depth = 0
    for kind, value in tokens:
        if kind == "op" and value in _OPEN:
            depth += 1
        elif kind == "op" and value in _CLOSE:
            depth = max(0, depth - 1)
        if kind == "op" and value == "\n":
            if depth == 0 and current:
                out.append(current)
                current = []
            continue
        current.append((kind, value))
    if current:
        out.append(current)
    return out


def _imports(statement: list[tuple[str, str]], aliases: dict[str, str], found: list[symbols.Use]) -> bool:
    """Read an import statement into `aliases` and `found`; False when it is no import."""
    names = [v for k, v in statement if k == "name"]
    if not names or statement[0][0] != "name" or names[0] not in ("import", "from"):
        return False
    if names[0] == "from":
        if len(statement) < 2 or statement[1][0] != "name" or "import" not in names[2:3]:
            return True  # a relative import: nothing of torch
        module, rest = names[1], names[3:]
    else:
        module, rest = "", names[1:]
    i = 0
    while i < len(rest):
        name = rest[i]
        bound = rest[i + 2] if i + 2 < len(rest) and rest[i + 1] == "as" else ""
        full = f"{module}.{name}" if module else name
        aliases[bound or (name if module else name.split(".", 1)[0])] = (
            full if (bound or module) else name.split(".")[0]
        )
        found.append(symbols.Use(name=full, written=name, imported=True))
        i += 3 if bound else 1
    return True


def _body(statement: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The statement without what is not code that runs: a class or def header, an annotation."""
    first = statement[0][1] if statement[0][0] == "name" else ""
    if first in ("class", "def", "async"):
        depth = 0
        for i, (kind, value) in enumerate(statement):
            depth += (value in _OPEN) - (value in _CLOSE) if kind == "op" else 0
            if kind == "op" and value == ":" and depth == 0:
                return statement[i + 1 :]
        return []
    if first in ("else", "try", "finally") and statement[1:2] == [("op", ":")]:
        return statement[2:]
    if first and first not in KEYWORDS and statement[1:2] == [("op", ":")]:
        rest = statement[2:]
        at = next((i for i, t in enumerate(rest) if t == ("op", "=")), None)
        return statement[:1] + rest[at:] if at is not None else []
    return statement


def uses(text: str) -> list[symbols.Use]:
    """What pasted text uses (see the module docstring), in the order it is read."""
    statements = _statements(_tokens(text))
    aliases = {"os": "os"}
    found: list[symbols.Use] = []
    bodies = [s for s in statements if not _imports(s, aliases, found)]
    for statement in bodies:
        _walk(_body(statement), aliases, found)
    return found


def _resolve(written: str, aliases: dict[str, str], after_dot: bool) -> str | None:
    first, _, rest = written.partition(".")
    if after_dot or first not in aliases:
        return None
    return aliases[first] + ("." + rest if rest else "")


def _walk(tokens: list[tuple[str, str]], aliases: dict[str, str], found: list[symbols.Use]) -> None:
    frames: list[dict] = []  # open brackets: a call's callee and the arguments passed so far
    for i, (kind, value) in enumerate(tokens):
        prev = tokens[i - 1] if i else ("", "")
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
        if kind == "name" and value not in KEYWORDS:
            _name(value, i, prev, nxt, frames, aliases, found)
        elif kind == "op" and value in _OPEN:
            before = tokens[i - 2] if i > 1 else ("", "")
            frames.append(_open(value, prev, nxt, before, aliases, found))
        elif kind == "op" and value in _CLOSE and frames:
            done = frames.pop()
            if done["written"]:
                args = tuple(done["args"])
                found.append(
                    symbols.Use(
                        name=done["name"], written=done["written"], call=True, args=args, some_args=done["some"]
                    )
                )
        elif kind == "op" and value == "**" and frames and frames[-1]["call"] and prev[1] in ("(", ","):
            frames[-1]["some"] = True
        elif kind == "str" and symbols.FLAG_STRING.fullmatch(value):
            found.append(symbols.Use(flag=value.split("=", 1)[0]))


def _name(value: str, i: int, prev, nxt, frames: list[dict], aliases: dict[str, str], found: list) -> None:
    """A name: a keyword argument of the open call, a local assigned, or a use."""
    frame = frames[-1] if frames else None
    if nxt == ("op", "=") and frame and frame["call"] and prev[1] in ("(", ","):
        frame["args"].append(value)
        if frame["written"]:
            found.append(symbols.Use(name=frame["name"], written=frame["written"], call=True, arg=value))
        return
    if nxt == ("op", "=") and not frames and "." not in value and i == 0:
        return  # a local assigned
    after_dot = prev == ("op", ".")  # a member of what an expression gives: `f(x).qr`
    found.append(symbols.Use(name=_resolve(value, aliases, after_dot), written="." * after_dot + value))


def _open(value: str, prev, nxt, before, aliases: dict[str, str], found: list) -> dict:
    """An opening bracket: a call's frame when a name comes before `(`; an environment variable read."""
    callee = prev[0] == "name" and prev[1] not in KEYWORDS and value == "("
    written = ("." if before == ("op", ".") else "") + prev[1] if callee else ""
    name = _resolve(written, aliases, before == ("op", ".")) if callee else None
    if value == "[" and prev[0] == "name" and _resolve(prev[1], aliases, False) == "os.environ":
        _env(nxt, found)
    if callee and name in ENV_CALLS:
        _env(nxt, found)
    return {"call": value == "(", "written": written, "name": name, "args": [], "some": False}


def _env(token: tuple[str, str], found: list[symbols.Use]) -> None:
    if token[0] == "str":
        found.append(symbols.Use(env=token[1]))


def used(subject: tuple[str, ...] | list[str], found: list[symbols.Use], group: str) -> str:
    """The subject item the uses match ("" when none): the most specific item first, and an
    import is no use for a default change (as in scan)."""
    for item in sorted(subject, key=lambda s: (-len(s), s)):
        for use in found:
            if use.imported and group == "defaults":
                continue
            if symbols.subject_matches(item, use):
                return item
    return ""
