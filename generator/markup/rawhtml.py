"""A Python-Markdown extension: HTML our templates already rendered reaches the page untouched.

Change lists, matrices and upgrade steps are written as HTML by the render stage (a release page
holds up to 400 KB of it). Left to Markdown, that HTML is parsed back, tag by tag, by
`html.parser` twice (MkDocs collects its ids, `md_in_html` finds where the block ends): most of
a build's time. Instead, render.py wraps each such block in two marker lines (`wrap`), and the
preprocessor here stores the lines between them in Markdown's stash of raw HTML before any
parser sees them; Markdown puts them back after it has rendered the rest, as written but for one
thing: the numeric entities textfilters gives the characters that mean something only to Markdown
(`&#40;` for `(`, `&#35;` for `#` …) are written as the characters. Markdown never reads a stashed
block, so they guard nothing there, and a release page held about 4,800 of them (24 kB). The
characters that mean something to HTML (`<`, `>`, `&`, `"`, `'`) and the entities of code's
spaces and newlines stay as they are.

Listed in mkdocs.yml's `markdown_extensions` as `generator.markup.rawhtml`, so MkDocs and Zensical
(which runs Python-Markdown with the same list) both use it. A Markdown reader without it still
shows the block: the markers are HTML comments.
"""

from __future__ import annotations

import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

START = "<!-- atlas:html -->"
END = "<!-- /atlas:html -->"
_ID = re.compile(r'\sid="([^"]+)"')
_MARKDOWN_ONLY = "\\`*_{}[]()#+!|~^=:$%"
"""textfilters._MD_SPECIAL without the characters HTML reads."""
_MD_ENTITY = re.compile("|".join(f"&#{ord(ch)};" for ch in _MARKDOWN_ONLY))


def plain_characters(html: str) -> str:
    """A block's Markdown-only entities as the characters they stand for (see the module's docstring)."""
    return _MD_ENTITY.sub(lambda m: chr(int(m.group()[2:-1])), html)


def wrap(html: str) -> str:
    """A block of finished HTML between the marker lines. Markdown needs no blank line around
    it; it must start a line (a marker inside a line is left to Markdown's HTML parser)."""
    return f"{START}\n{html.strip(chr(10))}\n{END}\n"


class _StashBlocks(Preprocessor):
    """Replaces each marked block by a placeholder for the raw HTML stash. Runs before MkDocs'
    raw-HTML scan (priority 21) and Markdown's HTML block parser (20)."""

    def run(self, lines: list[str]) -> list[str]:
        if START not in lines:
            return lines
        out: list[str] = []
        ids: set[str] = set()
        i, n = 0, len(lines)
        while i < n:
            if lines[i] != START:
                out.append(lines[i])
                i += 1
                continue
            end = lines.index(END, i + 1)  # ValueError: a template left a block open
            html = "\n".join(lines[i + 1 : end])
            ids.update(_ID.findall(html))
            out.extend(["", self.md.htmlStash.store(plain_characters(html)), ""])
            i = end + 1
        # MkDocs checks links to #anchors against the ids it finds on a page: in the element
        # tree, and in the raw HTML it scans itself, which no longer contains these blocks.
        if "mkdocs_extract_anchors" in self.md.treeprocessors:
            self.md.treeprocessors["mkdocs_extract_anchors"].present_anchor_ids.update(ids)
        return out


class RawHtmlExtension(Extension):
    """Registers the preprocessor that stashes marked blocks."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(_StashBlocks(md), "atlas_raw_html", 25)


def makeExtension(**kwargs) -> RawHtmlExtension:  # noqa: N802 (Python-Markdown's entry point)
    """The extension, as Python-Markdown loads it by module name."""
    return RawHtmlExtension(**kwargs)
