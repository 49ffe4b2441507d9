"""Read one YAML file (`read`) or text (`parse`) into plain data plus the position of every node:
the only YAML reader of content.

PyYAML's composer gives each node a start mark; we convert nodes ourselves so that we can
refuse what the safe loader lets through silently (duplicate keys, aliases) and keep the
`path:line:col` of every value for error messages. Aliases are refused outright: content
never needs them, and refusing them makes "billion laughs" documents harmless, since the
composer shares alias nodes instead of expanding them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..model.errors import Problem

MAX_BYTES = 4 * 1024 * 1024
"""Largest content file we read (4 MiB); a change list of 1,000 entries is about 300 KB."""

MAX_DEPTH = 32
"""Deepest nesting of lists and mappings we read; content needs about five levels."""

Pointer = tuple  # a path into the data: ("features", 3, "tier")


@dataclass(frozen=True, eq=False)
class Document:
    """A parsed file: its data, and (line, col) — 1-based — of every value and key. Two documents
    are the same only when they are one object: the build session hands out one per file content
    (generator.util.session), so comparing what load derived from them never walks their data."""

    path: str
    data: object
    positions: dict  # Pointer -> (line, col)
    key_positions: dict  # Pointer of a mapping value -> (line, col) of its key

    def at(self, pointer: Pointer, *, key: bool = False) -> tuple[int, int]:
        """The position of the value at pointer, or of its nearest ancestor."""
        table = self.key_positions if key else self.positions
        pointer = tuple(pointer)
        while pointer:
            if pointer in table:
                return table[pointer]
            if key and pointer in self.positions:
                return self.positions[pointer]
            pointer = pointer[:-1]
        return self.positions.get((), (1, 1))

    def problem(self, pointer: Pointer, message: str, *, key: bool = False) -> Problem:
        line, col = self.at(pointer, key=key)
        return Problem(self.path, line, col, message, field_path(pointer))


def field_path(pointer: Pointer) -> str:
    """('features', 3, 'tier') -> 'features[3].tier'."""
    out = ""
    for part in pointer:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class WrittenFloat(float):
    """A float that remembers how it was written, so `2.10` can be quoted back as "2.10"."""

    def __new__(cls, text: str):
        obj = super().__new__(
            cls,
            yaml.SafeLoader.yaml_constructors["tag:yaml.org,2002:float"](
                _CONSTRUCTOR, yaml.ScalarNode("tag:yaml.org,2002:float", text)
            ),
        )
        obj.text = text
        return obj


class _Refused(Exception):
    def __init__(self, node: yaml.Node, message: str):
        self.node, self.message = node, message


def read(path: Path, display: str) -> tuple[Document | None, list[Problem]]:
    """Parse a file; on failure return (None, [the one problem that stopped it])."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(display, 1, 1, f"cannot read file: {exc.strerror or exc}")]
    return from_bytes(raw, display)


def from_bytes(raw: bytes, display: str) -> tuple[Document | None, list[Problem]]:
    """Parse a file's bytes (read from `display`) as `read` does."""
    if len(raw) > MAX_BYTES:
        return None, [Problem(display, 1, 1, f"file is {len(raw):,} bytes; the limit is {MAX_BYTES:,}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        return None, [Problem(display, line, col, f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded")]
    doc, problems = parse(text.removeprefix("\ufeff"), display)
    if doc is None and not problems:
        return None, [Problem(display, 1, 1, "file is empty")]
    return doc, problems


def parse(text: str, display: str) -> tuple[Document | None, list[Problem]]:
    """Parse YAML text (read from `display`) as `read` does; (None, []) when it holds no data."""
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        return None, []
    try:
        refused = _refuse_before_composing(text, display)
        if refused:
            return None, [refused]
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        return None, [_syntax_problem(exc, text, display)]
    if node is None:
        return None, []
    positions: dict = {}
    key_positions: dict = {}
    try:
        data = _convert(node, (), positions, key_positions, set())
    except _Refused as exc:
        m = exc.node.start_mark
        return None, [Problem(display, m.line + 1, m.column + 1, exc.message)]
    if data is None:  # `---` alone, or `~`
        return None, []
    return Document(display, data, positions, key_positions), []


def _syntax_problem(exc: yaml.YAMLError, text: str, display: str) -> Problem:
    """What stopped PyYAML (or libyaml), at its position, in an author's words."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or exc.context or "malformed YAML"
        if "\t" in text and ("found character '\\t'" in str(exc) or "tab character" in str(exc)):  # PyYAML, libyaml
            what = "a tab character; YAML indents with spaces only"
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        start = exc.context_mark
        if exc.context and start is not None and start.line + 1 != line:
            what += f" ({exc.context} that starts at line {start.line + 1})"
        return Problem(display, line, col, f"YAML syntax error: {what}")
    if isinstance(exc, yaml.reader.ReaderError):
        # Its position counts bytes under libyaml and characters under PyYAML; the first
        # occurrence of the character is the one the reader stopped at, whichever it is.
        if not isinstance(exc.character, int):
            return Problem(display, 1, 1, f"YAML error: {exc.reason}")
        at = max(text.find(chr(exc.character)), 0)
        line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
        return Problem(display, line, col, f"control character U+{exc.character:04X} is not allowed in YAML")
    return Problem(display, 1, 1, f"YAML error: {exc}")  # composer errors without a mark


def _refuse_before_composing(text: str, display: str) -> Problem | None:
    """The first alias, where it is written, or the first list or mapping nested too deeply.

    Checked on the parser's events, which come from a loop: the composers (libyaml's and
    PyYAML's) recurse once per level, and a few thousand `[` crash or overflow them.

    libyaml (in PyYAML's wheels from 6.0.4) stops scanning at 1,000 levels, and a run of `[`
    reaches them before the parser hands out the event of the level we refuse: PyYAML's own
    parser, which reads no further ahead than a line or 1,024 characters, then says where it is.
    """
    try:
        return _first_refused(yaml.parse(text, Loader=_LOADER), display)
    except yaml.MarkedYAMLError as exc:
        if exc.problem != "exceeded maximum nesting depth":
            raise
        return _first_refused(yaml.parse(text, Loader=yaml.SafeLoader), display)


def _first_refused(events, display: str) -> Problem | None:
    depth = 0
    for event in events:
        if isinstance(event, yaml.AliasEvent):
            message = "YAML anchors and aliases (*name) are not allowed in content"
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth <= MAX_DEPTH:
                continue
            message = f"lists and mappings nested more than {MAX_DEPTH} levels deep"
        else:
            if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
            continue
        return Problem(display, event.start_mark.line + 1, event.start_mark.column + 1, message)
    return None


def _convert(node, pointer, positions, key_positions, seen):
    if id(node) in seen:
        raise _Refused(node, "YAML anchors and aliases (*name) are not allowed in content")
    seen.add(id(node))
    positions[pointer] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _Refused(key_node, "YAML merge keys (<<) are not allowed in content")
            if not isinstance(key_node, yaml.ScalarNode):
                raise _Refused(key_node, "mapping keys must be plain strings")
            key = key_node.value
            if key in out:
                raise _Refused(key_node, f"duplicate key '{key}' (YAML would silently keep only the last one)")
            key_positions[pointer + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = _convert(value_node, pointer + (key,), positions, key_positions, seen)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, pointer + (i,), positions, key_positions, seen) for i, item in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: yaml.ScalarNode):
    """Resolve a scalar as the safe loader would, but keep timestamps as ISO strings."""
    tag, value = node.tag, node.value
    if tag == "tag:yaml.org,2002:timestamp":
        try:
            return dt.date.fromisoformat(value).isoformat()
        except ValueError:
            return value
    if tag in ("tag:yaml.org,2002:str", "tag:yaml.org,2002:binary"):
        return value
    if tag == "tag:yaml.org,2002:float":
        return WrittenFloat(value)
    try:
        return yaml.SafeLoader.yaml_constructors[tag](_CONSTRUCTOR, node)
    except (KeyError, yaml.YAMLError, ValueError) as exc:
        raise _Refused(node, f"cannot read value {value!r}") from exc


_CONSTRUCTOR = yaml.SafeLoader("")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (several times faster); same nodes and marks."""
