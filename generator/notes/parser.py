"""Read PyTorch GitHub release notes (Markdown) into a flat list of changes.

Private helper of `import_notes`. The notes are written by many hands, so the reader is a line
scanner that recognises only what the notes use: ATX headings, fenced code, list items, bold-only
lines. It never drops a line of a section: every line ends up in a change's text, or is a heading,
bold label or group bullet whose words became the change's `area`.

It reads in two passes: `classify` says what each line is (fenced code, a heading, how deeply a
list item is nested) and `build` walks the classified lines (`_Reader`), knowing where it is
(`_Place`: section and area), collecting each change's lines (`_Block`) and handing them to the
`_Emitter`, which makes them changes. Between the two passes, `import_notes` refuses notes
nested too deeply for the site to render.

How a line under a section is read:
- A heading is an *area* heading when its body starts with a list, a sub-heading or a bold label,
  or with an intro paragraph over list items that mostly cite PRs; it is an *entry* heading (a
  change by itself: the heading and everything up to the next heading of its level or higher,
  code and sub-headings included) when it cites a PR or its body starts with prose or code (the
  style of "Backwards Incompatible Changes"). An entry heading never names an area.
- A top-level list item is a change, with its nested items and the lines that follow it
  (continuations, paragraphs and code after a blank line), up to the next item or heading.
- A list item that cites no PR, is one line long, has no explanation of its own beside its
  nested items, and whose nested items mostly cite PRs is a *group*: each nested item is a
  change. A short label ("- c10d", at most LABEL_WORDS words) extends the area; a longer one
  ("- Several operator decomps received improvements/bugfixes:") is a sentence, kept in each
  change's text above the nested item as its context. The same holds for a PR-less line
  directly followed by sibling items ("New meta tensor implementations:" over "* nonzero (#1)"),
  unless it is a paragraph of its own (sentences that do not lead in with a colon).
- A PR-less entry heading met inside the body of a list-item change at a deeper level than its
  area ("### Version <2.9" under a deprecation bullet) continues that change.
- In the breaking and deprecation sections, a PR-less bullet right after a PR-citing change of
  the same area is that change's explanation, joined to it (2.10's `fallback=False` default).
- An area heading whose title is a sentence ("### Dropped support for Triton < 2.2.0. Removed
  Support for CUDA 12.4, Anaconda in CI/CD." over the bullets that say each of it) summarises the
  changes under it: it names no area, and its words only help the wording decide one (below).
- A change no heading, bold label or group bullet files under an area (2.9 writes its breaking
  changes as bare `##` headings) gets one from its wording: an area name the same notes use, or a
  module or cue word of `_notes_areas.WORDING`, found in its record line (then in a summary heading over it).
  Where nothing matches, its area stays "" (unassigned).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import pairwise

from ..model.content import ACTION_SECTIONS
from ..model.content import SECTIONS as MODEL_SECTIONS
from .areas import areas_from_wording
from .refs import bare_refs, fence_step, find_issues, find_prs
from .syntax import (
    AREA_SEPARATOR,
    BOLD_LINE,
    FENCE_OPEN,
    HEADING,
    ITEM,
    LABEL_WORDS,
    SENTENCE_WORDS,
    TOC_LINE,
)

SECTIONS: dict[str, str | None] = {"highlights": None} | {h: s.id for s in MODEL_SECTIONS for h in s.headings}
OTHER = "other"
TRACKED = "tracked-regressions"


@dataclass(frozen=True)
class ImportedChange:
    """One entry of the release notes, as `content/changes/X.Y.yaml` stores it (the site reads it
    back as `model.Change`)."""

    section: str
    """Section id from the schema's enum, e.g. "bug-fixes"; "other" under an unknown heading."""
    area: str
    """Headings, bold labels and group bullets below the section, joined by " › "; "" if none."""
    text: str
    """The entry as written (Markdown): dedented, each line right-stripped, fences kept."""
    prs: tuple[int, ...]
    """Every pytorch/pytorch PR the text cites, in order of first appearance."""
    issues: tuple[int, ...] = ()
    """Every pytorch/pytorch issue the text links to (a tracked regression's report), in order."""
    line: int = field(default=0, compare=False)
    """The line of the notes the change starts on (1-based), for error messages; 0 when unknown."""


@dataclass(frozen=True)
class ParsedNotes:
    """What `parse_notes` found: the changes, and warnings as "path:line: message"."""

    changes: tuple[ImportedChange, ...]
    warnings: tuple[str, ...]


def section_key(heading: str) -> str:
    """Heading text reduced for matching against SECTIONS ("## **Bug Fixes:** 🐛" -> "bug fixes")."""
    words = re.sub(r"[^a-z0-9]+", " ", heading.lower())
    return " ".join(words.split())


def clean_label(text: str) -> str:
    """Heading or label text as an area name: without wrapping bold and trailing colon."""
    label = re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"\1", text).strip().rstrip(":").strip()
    m = re.fullmatch(r"__(.+)__", label)
    return (m[1] if m else label).strip().rstrip(":").strip()


def _indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip(" "))


@dataclass(frozen=True)
class Lines:
    """The first pass: what each line of a notes file is, before any change is built."""

    text: tuple[str, ...]
    """The lines, with line endings normalised to LF and a byte-order mark removed."""
    code: tuple[bool, ...]
    """Whether each line is fenced code (its fences included)."""
    heading: tuple[tuple[int, str] | None, ...]
    """(level, title) of each ATX heading outside code; None for other lines."""
    unclosed_fence: int | None
    """Index of the opening line of a code fence that is never closed, if any."""
    list_depth: tuple[int, ...]
    """How deeply each list item is nested (1 for a top-level item); 0 for other lines."""


def classify(text: str) -> Lines:
    """Split notes text into lines and say what each one is (code, heading, list nesting)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    code, heading = [False] * len(lines), [None] * len(lines)
    fence, fence_line = None, 0
    list_depth = [0] * len(lines)
    items: list[int] = []  # indents of the list items open at this line, outermost first
    blank_before = False
    for i, line in enumerate(lines):
        was_open = fence is not None
        fence, code[i] = fence_step(fence, line)
        if fence is not None and not was_open:
            fence_line = i
        if code[i]:
            continue
        m = HEADING.match(line)
        if m:
            heading[i] = (len(m[1]), m[2])
            items = []
        elif ITEM.match(line) or (blank_before and line.strip()):
            # An item closes the items indented as far as it or further; so does a paragraph
            # after a blank line (without the blank line it is a lazy continuation).
            indent = _indent(line)
            while items and items[-1] >= indent:
                items.pop()
            if ITEM.match(line):
                items.append(indent)
                list_depth[i] = len(items)
        blank_before = not line.strip()
    return Lines(
        tuple(lines),
        tuple(code),
        tuple(heading),
        fence_line if fence is not None else None,
        tuple(list_depth),
    )


@dataclass
class _Place:
    """Where the reader is: its section, and the headings and bold label that name the area."""

    section: str | None = None  # None: the header or Highlights, skipped
    base: list[str] = field(default_factory=list)  # the heading text of an unknown section
    stack: list[tuple[int, str, bool]] = field(default_factory=list)  # (level, label, bold) of area headings
    bold: str | None = None  # the bold label the lines below it are under

    def enter(self, section: str, base: list[str]) -> None:
        """A new section: no area heading or label yet."""
        self.section, self.base, self.stack, self.bold = section, base, [], None

    def area(self) -> str:
        """The area the next change is filed under."""
        parts = self.base + [label for _, label, _ in self.stack] + ([self.bold] if self.bold else [])
        return AREA_SEPARATOR.join(p for p in parts if p)


@dataclass
class _Block:
    """The change being collected, and the earlier blocks of its area (emitted together, since a
    PR-less line over sibling items makes a group of them)."""

    lines: list[int] = field(default_factory=list)  # line indices of the change being collected
    item: int = -1  # its first line when it is a list item, else -1
    area: str = ""
    depth: int = 0  # heading level its area sits at
    run: list[tuple[list[int], bool]] = field(default_factory=list)  # earlier blocks: (lines, is item)


class _Emitter:
    """Turns the blocks of lines the reader collected into changes: a group bullet over its nested
    items becomes one change per item, and each change's text is dedented as written."""

    def __init__(self, lines: tuple[str, ...], code: tuple[bool, ...], opaque: list[bool], flat: bool) -> None:
        self.lines, self.code, self.opaque = lines, code, opaque
        self.flat = flat  # every item is a change: the notes were rebuilt with no group bullets (sql)
        self.changes: list[ImportedChange] = []
        self.summaries: list[tuple[str, ...]] = []  # per change: the sentence headings above it

    def run(self, blocks: list[tuple[list[int], bool]], section: str, area: str, context: tuple[int, ...] = ()) -> None:
        """Emit sibling blocks; a PR-less one-line item or line directly followed (no blank line)
        by sibling items is a flattened group ("- Enhanced Windows support" over "- load_inline")."""
        k = 0
        while k < len(blocks):
            lines, is_item = blocks[k]
            end = k + 1
            if len(lines) == 1 and not find_prs(self.lines[lines[0]]) and not self.flat:
                # The group ends at a blank line, or where the bullet character changes (a new list),
                # or, when its items stand indented under it, at the first that does not (2.4's
                # "- Add" over " - mutated_args …", then "- Blanket ban …" beside it).
                under = self._indented_under(blocks, k)
                while (
                    end < len(blocks)
                    and blocks[end][1]
                    and self.lines[blocks[end - 1][0][-1]].strip()
                    and _marker(self.lines[blocks[end][0][0]]) == _marker(self.lines[blocks[k + 1][0][0]])
                    and (not under or _indent(self.lines[blocks[end][0][0]]) > _indent(self.lines[lines[0]]))
                ):
                    end += 1
            children = [c for c, _ in blocks[k + 1 : end]]
            if children and self._lead_in(lines[0]) and self._mostly_cite_prs(children):
                self._group(children, section, area, context, lines[0])
            elif is_item:
                self._item(lines, section, area, context)
                end = k + 1
            else:
                self._emit(lines, section, area, context)
                end = k + 1
            k = end

    def _indented_under(self, blocks: list[tuple[list[int], bool]], k: int) -> bool:
        """Whether the block after block `k` is indented deeper than block `k`'s first line."""
        return k + 1 < len(blocks) and _indent(self.lines[blocks[k + 1][0][0]]) > _indent(self.lines[blocks[k][0][0]])

    def _lead_in(self, line: int) -> bool:
        """Whether a PR-less line can head the sibling items under it: a name ("Enhanced Windows
        support", "Fixes to existing meta tensor op implementation") or a sentence that leads in
        ("New meta tensor implementations:"); a paragraph of sentences that says something of its
        own (2.6's "AOTInductor: ABI-compatible mode code generation. In order to …") is a change
        by itself."""
        label = self._label(line)
        return label.endswith(":") or self.lines[line].rstrip().endswith(":") or not re.search(r"\.\s", label)

    def _item(self, lines: list[int], section: str, area: str, context: tuple[int, ...]) -> None:
        """Emit a list item as one change, or as a group when it is a PR-less one-line bullet
        over nested items that mostly cite PRs and has no words of its own besides (see the
        module docstring)."""
        first = _indent(self.lines[lines[0]])
        starts: list[int] = []
        child_indent = None
        for k in range(1, len(lines)):
            j = lines[k]
            if self.opaque[j] or not ITEM.match(self.lines[j]) or _indent(self.lines[j]) <= first + 1:
                continue
            child_indent = _indent(self.lines[j]) if child_indent is None else child_indent
            if _indent(self.lines[j]) <= child_indent + 1:
                starts.append(k)
        chunks = [lines[a:b] for a, b in pairwise([*starts, len(lines)])]
        own_more = starts and any(self.lines[j].strip() for j in lines[1 : starts[0]])
        # A paragraph or code block indented like the nested items, not under one of them,
        # explains the bullet as a whole ("User code … does not need to change"): one change.
        own_after = any(
            self.lines[j].strip() and not ITEM.match(self.lines[j]) and first < _indent(self.lines[j]) <= child_indent
            for c in chunks
            for j in c[1:]
            if not self.code[j] or FENCE_OPEN.match(self.lines[j])
        )
        if (
            chunks
            and not own_more
            and not own_after
            and not find_prs(self.lines[lines[0]])
            and self._mostly_cite_prs(chunks)
        ):
            self._group(chunks, section, area, context, lines[0])
        else:
            self._emit(lines, section, area, context)

    def _group(
        self, children: list[list[int]], section: str, area: str, context: tuple[int, ...], label_line: int
    ) -> None:
        """Emit each child of a group: a short label ("c10d", "Context Parallel") extends the
        area; a longer one ("Several operator decomps received improvements/bugfixes:") is kept
        in each child's text, above it, as its context."""
        label = self._label(label_line)
        items = [(c, True) for c in children]
        if len(label.split()) <= LABEL_WORDS and ". " not in label:
            self.run(items, section, AREA_SEPARATOR.join(p for p in (area, label) if p), context)
        else:
            self.run(items, section, area, (*context, label_line))

    def _mostly_cite_prs(self, chunks: list[list[int]]) -> bool:
        return 2 * sum(1 for c in chunks if find_prs(self._text(c))) > len(chunks)

    def _label(self, label_line: int) -> str:
        line = self.lines[label_line]
        item = ITEM.match(line)
        return clean_label(line[item.end() :] if item else line)

    def _emit(self, lines: list[int], section: str, area: str, context: tuple[int, ...]) -> None:
        text = self._text([*context, *lines])
        if text:
            parts = area.split(AREA_SEPARATOR) if area else []
            named = AREA_SEPARATOR.join(p for p in parts if not is_sentence(p))
            prs, issues = find_prs(text), find_issues(text)
            if section == TRACKED:
                # A tracked regression cites the issue that reports it: where a copy lost the
                # link to it (2.3's SQL copy) or the notes wrote it bare (2.8), "#N" is that issue.
                prs, issues = find_prs(text, bare=False), tuple(dict.fromkeys(issues + bare_refs(text)))
            self.changes.append(ImportedChange(section, _fit(named), text, prs, issues, lines[0] + 1))
            self.summaries.append(tuple(p for p in parts if is_sentence(p)))

    def _text(self, lines: list[int]) -> str:
        """The lines as one text, dedented by the first line's indent; a code block moves only
        as far as its opening fence does, so its own indentation is kept."""
        pad = _indent(self.lines[lines[0]])
        out, fence, fence_pad = [], None, pad
        for j in lines:
            line = self.lines[j].rstrip()
            spaces = len(line) - len(line.lstrip(" "))
            was_open = fence is not None
            fence, in_code = fence_step(fence, line)
            if in_code and not was_open:
                fence_pad = min(pad, spaces)
            out.append(line[min(fence_pad if in_code else pad, spaces) :])
        return "\n".join(out).strip("\n")


class _Reader:
    """The second pass: walk the classified lines, knowing where it is (`_Place`), collect each
    change's lines (`_Block`) and hand each area's blocks to the `_Emitter`."""

    def __init__(self, lines: Lines, path: str, flat: bool = False) -> None:
        self.path = path
        self.text, self.code, self.heading = lines.text, lines.code, lines.heading
        self.warnings: list[str] = []
        if lines.unclosed_fence is not None:
            self.warnings.append(
                f"{path}:{lines.unclosed_fence + 1}: code fence is never closed (it runs to the end of the file)"
            )
        levels = [h[0] for h in self.heading if h and section_key(h[1]) in SECTIONS]
        self.has_sections = bool(levels)
        self.section_level = levels[0] if levels else min((h[0] for h in self.heading if h), default=1)
        if not levels:
            self.warnings.append(f"{path}:1: no release-notes section heading found")
        self.place = _Place()
        self.block = _Block()
        # Code, or a heading's body appended whole to a change: never a nested item of it.
        self.emitter = _Emitter(lines.text, lines.code, list(lines.code), flat)

    def build(self) -> ParsedNotes:
        started = not self.has_sections  # without known sections, the first heading starts one
        i = 0
        while i < len(self.text):
            h = self.heading[i]
            if h and h[0] <= self.section_level and (started or section_key(h[1]) in SECTIONS):
                started = True
                self._start_section(i, h[1])
                i += 1
            elif self.place.section is None:
                i += 1
            elif h:
                i = self._heading(i, h[0], h[1])
            else:
                self._line(i)
                i += 1
        self._flush()
        changes = _join_explanations(areas_from_wording(self.emitter.changes, self.emitter.summaries))
        return ParsedNotes(changes, tuple(self.warnings))

    def _start_section(self, i: int, title: str) -> None:
        self._flush()
        key = section_key(title)
        if key in SECTIONS:
            self.place.enter(SECTIONS[key], [])
            return
        self.place.enter(OTHER, [clean_label(title)] if clean_label(title) else [])
        self.warnings.append(f"{self.path}:{i + 1}: unknown heading '{title}' (kept under Other)")

    def _heading(self, i: int, level: int, title: str) -> int:
        """Handle a heading below the section level; return the next line to read."""
        place = self.place
        if not self._is_entry_heading(i, level, title):
            self._flush()
            place.stack = [s for s in place.stack if s[0] < level] + [(level, clean_label(title), _is_bold(title))]
            place.bold = None
            return i + 1
        end = i + 1
        while end < len(self.text) and not (self.heading[end] and self.heading[end][0] <= level):
            end += 1
        continuing = self.block.item >= 0 and level > self.block.depth and not find_prs(title)
        if not continuing:
            self._flush()
            place.stack = [s for s in place.stack if s[0] < level]
            place.bold = None
            self._open(i)
        self.block.lines.extend(range(i if continuing else i + 1, end))
        if continuing:
            self.emitter.opaque[i:end] = [True] * (end - i)
        else:
            self._flush()
        return end

    def _is_entry_heading(self, i: int, level: int, title: str) -> bool:
        if find_prs(title):
            return True
        for j in range(i + 1, len(self.text)):
            line = self.text[j]
            if self.code[j]:
                return True
            if self.heading[j]:
                return False
            if line.strip():
                if ITEM.match(line) or BOLD_LINE.match(line) or TOC_LINE.match(line):
                    return False
                return not self._body_lists_changes(i, level)
        return False

    def _body_lists_changes(self, i: int, level: int) -> bool:
        """Whether the body of the heading at `i` holds list items that mostly cite PRs: an intro
        paragraph over a list of changes ("Operator decompositions … received several
        improvements:") makes an area heading, not one change."""
        cites = total = 0
        for j in range(i + 1, len(self.text)):
            if self.heading[j] and self.heading[j][0] <= level:
                break
            if not self.code[j] and ITEM.match(self.text[j]) and not TOC_LINE.match(self.text[j]):
                total += 1
                cites += bool(find_prs(self.text[j]))
        return total >= 2 and 2 * cites > total

    def _line(self, i: int) -> None:
        line, block = self.text[i], self.block
        if self.code[i] or not line.strip():
            if block.lines:
                block.lines.append(i)
            elif line.strip():
                self._open(i)
            return
        m = BOLD_LINE.match(line)
        if m and not find_prs(line):
            self._flush()
            self.place.bold = clean_label(m[2])
            # Under "##### **Decompositions**", "**Dynamic shapes**" is a sibling, written alike.
            if self.place.stack and self.place.stack[-1][2]:
                self.place.stack.pop()
            return
        item = ITEM.match(line)
        if item and (block.item < 0 or _indent(line) <= _indent(self.text[block.item]) + 1):
            if not TOC_LINE.match(line):  # "- [Highlights](#highlights)" lists sections, not changes
                self._open(i, is_item=True)
        elif not item and self._labels_next_items(i):
            self._open(i)
        elif block.lines:
            block.lines.append(i)
        else:
            self._open(i)

    def _labels_next_items(self, i: int) -> bool:
        """Whether line `i`, unindented prose right below a list item, is rather the PR-less label
        of the items that follow it ("New meta tensor implementations for a few operators:")."""
        if self.block.item < 0 or i + 1 >= len(self.text) or find_prs(self.text[i]):
            return False
        indent, nxt = _indent(self.text[self.block.item]), self.text[i + 1]
        before, line = self.text[i - 1].rstrip(), self.text[i].rstrip()
        # Not a wrapped sentence: the line above ends the item with its PRs, and this one is no
        # sentence's end ("…deprecated (#1). Please use\nthe other options." stays one change).
        return (
            before.endswith(")")
            and bool(find_prs(before))
            and not line.endswith((".", ",", ";"))
            and _indent(self.text[i]) <= indent
            and not self.code[i + 1]
            and bool(ITEM.match(nxt))
            and _indent(nxt) <= indent + 1
        )

    def _open(self, i: int, is_item: bool = False) -> None:
        """Start collecting a change at line `i`; one of another area first emits the area's blocks."""
        area, block = self.place.area(), self.block
        if area != block.area:
            self._flush()
        elif block.lines:
            block.run.append((block.lines, block.item >= 0))
        block.lines, block.area, block.item = [i], area, i if is_item else -1
        block.depth = self.place.stack[-1][0] if self.place.stack else self.section_level

    def _flush(self) -> None:
        """Emit the blocks collected since the area last changed."""
        block = self.block
        if block.lines:
            block.run.append((block.lines, block.item >= 0))
        self.emitter.run(block.run, self.place.section or OTHER, block.area)
        block.lines, block.item, block.run = [], -1, []


def _join_explanations(changes: tuple[ImportedChange, ...]) -> tuple[ImportedChange, ...]:
    """Each bullet that cites no PR and explains the bullet above it, joined to that bullet.

    In the breaking and deprecation sections a notes author sometimes writes a change's
    explanation as a bullet of its own (2.10: "- `fallback=False` is now the default … (#162726)"
    then "- The exporter now uses … set `fallback=True`"): a PR-less bullet right after a
    PR-citing change of the same section and area is that change's text, not a change."""
    out: list[ImportedChange] = []
    for change in changes:
        last = out[-1] if out else None
        if (
            last is not None
            and change.section in ACTION_SECTIONS
            and not change.prs
            and ITEM.match(change.text)
            and last.prs
            and (last.section, last.area) == (change.section, change.area)
        ):
            out[-1] = replace(last, text=f"{last.text}\n{change.text}", issues=last.issues + change.issues)
        else:
            out.append(change)
    return tuple(out)


def is_sentence(label: str) -> bool:
    """Whether a heading or label is a sentence (a change or a summary), not an area's name."""
    return len(label.split()) > SENTENCE_WORDS or bool(re.search(r"\.(?:\s|$)", label))


def _is_bold(title: str) -> bool:
    """Whether a heading's whole title is bold ("##### **Decompositions**")."""
    return bool(re.fullmatch(r"(\*\*|__)(?![*_\s]).+?\1[ \t]*:?", title.strip()))


def _marker(line: str) -> str:
    """A list item's bullet character ("-", "*", "+"), or "1" for a numbered item."""
    m = ITEM.match(line)
    mark = line[m.end(1)] if m else ""
    return "1" if mark.isdigit() else mark


def _fit(area: str) -> str:
    """Keep an area within the schema's 200 characters."""
    return area if len(area) <= 200 else area[:199].rstrip() + "…"


def build(lines: Lines, path: str, flat: bool = False) -> ParsedNotes:
    """The changes of classified notes; `path` only prefixes the warnings. `flat`: the notes
    have no group bullets (a line over the items it heads), as the SQL converter writes them:
    every item is a change of its own."""
    return _Reader(lines, path, flat).build()
