"""Turn YAML text into inert page text. The only way data reaches a page.

Text from content is data: it may contain `<script>`, `[x](javascript:…)`, `{{ }}`, a `#`
that would start a heading or a `|` that would start a table row. We HTML-escape it and
then turn every character that means something to Markdown into a numeric entity, so
neither the browser nor Python-Markdown nor Jinja reads it as markup. Then, and only then,
a small subset is rebuilt from the escaped text: `code`, **bold** and *em*.
"""

from __future__ import annotations

import datetime as dt
import functools
import html
import json
import re

from markupsafe import Markup

_MD_SPECIAL = "\\`*_{}[]()#+!|<>~^=:$%\"'"
_ENTITY = {ord(ch): f"&#{ord(ch)};" for ch in _MD_SPECIAL}
_ENTITY[ord("&")] = "&amp;"
_SAFE_URL = re.compile(r"^https?://[^\s<>\"'`]+$")


def text(value) -> Markup:
    """Any value as inert inline text: escaped for HTML and Markdown, on one line."""
    if isinstance(value, Markup):
        return value
    return _text(str(value))


@functools.lru_cache(maxsize=1 << 16)
def _text(value: str) -> Markup:
    """Memoised: matrices print the same titles and labels thousands of times (README, Speed mechanisms)."""
    return Markup(re.sub(r"\s+", " ", value).translate(_ENTITY))


_INLINE = re.compile(r"(`[^`\n]+`)|\[([^\[\]\n]+)\]\((https?://[^\s()<>\"'`]+)\)")


def rich(value) -> Markup:
    """Inline text with the summary subset: `code`, **bold**, *em*, and [links](https://…).

    Only http(s) links become links; `[x](javascript:…)` stays visible, inert text.
    """
    return _rich(str(value))


@functools.lru_cache(maxsize=1 << 16)
def _rich(value: str) -> Markup:
    """Memoised: a change's record and note show on its release page, its features' pages,
    its backends' pages and its symbols' pages (a third of the calls repeat one; README, Speed mechanisms)."""
    flat = re.sub(r"\s+", " ", value.strip())
    out, pos = [], 0
    for m in _INLINE.finditer(flat):
        out.append(_emphasis(flat[pos : m.start()]))
        if m.group(1):
            out.append(f"<code>{text(m.group(1)[1:-1])}</code>")
        else:
            out.append(f'<a href="{url(m.group(3))}">{_emphasis(m.group(2))}</a>')
        pos = m.end()
    out.append(_emphasis(flat[pos:]))
    return Markup("".join(out))


_MARKER = re.compile(r"^\s*(?:[-*+]|#{1,6})\s+")
_BOLD_HEADING = re.compile(r"^\s*#{1,6}\s+(?:\*\*|__)(?=\S)([^\n]+?)(?<=\S)(?:\*\*|__)\s*\Z")


def _unmarked(line: str) -> str:
    """A record line without its list or heading mark, and without the bold a heading wraps its
    whole title in (2.0's `### **Title (#PR)**`): a cut headline would leave its `**` unclosed."""
    return _MARKER.sub("", _BOLD_HEADING.sub(r"\1", line))


def record(value) -> Markup:
    """A change's record line as one inline line: list and heading marks gone, lines joined, and
    links reduced to their text (the record is itself a link to the change). The notes editors'
    own marks (`_(from miscategorized)_`) are not part of what changed: they go too."""
    lines = [_EDITORS.sub("", _unmarked(line)).strip() for line in str(value).split("\n")]
    return rich(_LINK.sub(r"\1", " ".join(line for line in lines if line)))


_EDITORS = re.compile(r"\s*_\(from miscategorized\)_|\s*<br\s*/?>", re.IGNORECASE)
"""Marks the release-notes editors left that are not what changed: on lines they moved between
sections, and HTML line breaks (2.5's "(#134877)<br>"), which would reach the page as text."""

_LINK = re.compile(r"\[([^\[\]\n]+)\]\([^()\s]+\)")


def headline(value, limit: int = 120) -> Markup:
    """A change's record line (its first line) cut to about `limit` characters at a word, as
    `record` shows it: for link texts on pages that list many changes, so the long record is
    not repeated in full."""
    return _headline(str(value), limit)


def _headline(value: str, limit: int) -> Markup:
    first = next((line for line in value.split("\n") if line.strip()), "")
    line = " ".join(_LINK.sub(r"\1", _EDITORS.sub("", _unmarked(first))).split())
    if len(line) > limit:
        cut = line[:limit]
        cut = cut.rsplit(" ", 1)[0] if " " in cut else cut
        line = cut + ("`" if cut.count("`") % 2 else "") + " …"
    return rich(line)


_ANCHOR = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def html_id(value) -> Markup:
    """An id attribute's value, refused unless it is made of name characters (so it needs no
    escaping). For headings written as HTML: in a Markdown attribute list (`{ #id }`) the
    underscores of `#torch._foreach_` would be read as emphasis, and escaping them (`\\_`)
    leaves placeholders in the ids MkDocs checks links against."""
    value = str(value)
    if not _ANCHOR.fullmatch(value):
        raise ValueError(f"refusing an id that is not a name: {value!r}")
    return Markup(value)


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
"""Markdown's backslash escape of a punctuation mark (the notes write `torch.\\_six`): the mark
itself is what a reader sees."""

_ESCAPED_ENTITY = re.compile(r"&#92;(?=&#\d+;|&amp;|[!-/:-@\[-`{-~])")


def _emphasis(part: str) -> str:
    piece = str(text(part))
    piece = re.sub(r"&#42;&#42;(.+?)&#42;&#42;", r"<strong>\1</strong>", piece)
    # Bounded: an unbounded lazy span rescans to the end of the text from every `*`, and
    # " *a" repeated over a 20 KB change text took seconds.
    piece = re.sub(r"(?<![\w;])&#42;(?!&#42;)(.{1,600}?)&#42;(?![\w&])", r"<em>\1</em>", piece)
    # A backslash-escaped mark shows as the mark; an escaped `*` made no emphasis above (the
    # `;` of its backslash's entity stands before it).
    return _ESCAPED_ENTITY.sub("", piece)


def blocks(value, anchor: str | None = None) -> Markup:
    """Multi-paragraph text as HTML. `anchor`, if given, is the id of its first paragraph or code
    block: a change's first #pr-N anchor, where an empty element before the text would hold it
    at the same place for 14 more bytes (a release page has over 600)."""
    html = str(_blocks(str(value)))
    if anchor is None:
        return Markup(html)
    ident = html_id(anchor)
    for tag in ("<p>", "<pre>"):
        if html.startswith(tag):
            return Markup(f'{tag[:-1]} id="{ident}">{html[len(tag) :]}')
    return Markup(f'<span id="{ident}"></span>{html}')


def _blocks(value) -> Markup:
    """Multi-paragraph text (release-note entries) as HTML: paragraphs and code blocks.

    Safe inside a raw HTML block: code keeps its lines (newlines as entities, so no blank
    line can end the block early); everything else goes through `rich`.
    """
    out = []
    lines = str(value).replace("\r\n", "\n").split("\n")
    para: list[str] = []
    code: list[str] | None = None
    fence = ""

    def flush():
        if para:
            out.append(f"<p>{rich(' '.join(para))}</p>")
            para.clear()

    for line in lines:
        stripped = line.strip()
        if code is not None:
            if stripped.startswith(fence):
                body = "&#10;".join(str(text_keep_spaces(ln)) for ln in code)
                out.append(f"<pre><code>{body}</code></pre>")
                code = None
            else:
                code.append(line)
            continue
        m = re.match(r"^(`{3,}|~{3,})", stripped)
        if m:
            flush()
            fence, code = m.group(1), []
        elif not stripped:
            flush()
        else:
            para.append(re.sub(r"^([-*+]|#{1,6})\s+", "", stripped) if not para else stripped)
    if code is not None:
        out.append(f"<pre><code>{'&#10;'.join(str(text_keep_spaces(ln)) for ln in code)}</code></pre>")
    flush()
    return Markup("".join(out))


def text_keep_spaces(value: str) -> Markup:
    """Like `text`, but keeps the line's spacing (for code)."""
    return Markup(value.translate(_ENTITY).replace(" ", "&#32;"))


def frontmatter(value) -> Markup:
    """A front-matter value (`title:`, `description:`): one line, escaped for HTML, quoted for YAML.

    MkDocs and Material print these into the page as they are, with no escaping: `title` in
    <title>, in the header and in the search index, `description` in a <meta> attribute. So
    the text is HTML-escaped here, while it is still data; the browser shows it as written.
    """
    return Markup(json.dumps(html.escape(" ".join(str(value).split()), quote=True), ensure_ascii=False))


def url(value) -> Markup:
    """An http(s) URL, escaped for an attribute; anything else is refused loudly."""
    value = str(value)
    if not _SAFE_URL.match(value):
        raise ValueError(f"refusing to link a non-http(s) URL: {value!r}")
    return Markup(html.escape(value, quote=True))


def finalize(value):
    """Jinja finalize: every {{ }} output not already Markup is escaped as text."""
    if value is None:
        return ""
    if isinstance(value, (int,)) and not isinstance(value, bool):
        return str(value)
    return text(value)


def release_date(date: dt.date) -> str:
    """A release date as pages print it: "October 15, 2025"."""
    return f"{date:%B} {date.day}, {date.year}"


def record_line(text: str) -> str:
    """A change's record line: the first line the notes write for it, as they write it (Markdown
    marks and all; `record`, `headline` and `plain` say it as page text or words). The change's
    anchor (urls.change_anchor) hashes the same line in its own frozen spelling."""
    return text.strip().split("\n", 1)[0]


def plain(markdown: str) -> str:
    """Record-line Markdown as the words a reader sees, for feeds, the calendar, search and the
    ledger's rules: the list or heading mark and the bold a heading wraps its title in gone
    (`_unmarked`), the notes editors' marks gone (`_EDITORS`: `<br>`, "from miscategorized"), links
    as their text, no backticks or `**`, spaces collapsed. atlas-rules.js `plain` is held to it
    (tests/test_js_parity.py)."""
    text = _EDITORS.sub("", _unmarked(markdown))
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\*\*|`", "", text)
    return " ".join(_ESCAPED.sub(r"\1", text).split())
