"""generator.markup.rawhtml: HTML the templates rendered reaches the page as written, Markdown around it
still renders, and MkDocs still checks links to the ids inside it."""

from __future__ import annotations

import logging
from pathlib import Path

import markdown
import pytest

from generator.markup import rawhtml, textfilters
from generator.pipeline.build import mkdocs_config

BLOCK = '<ul class="x">\n<li id="c-1">**not bold** *not em* [not](a link) `not code`</li>\n<li id="pr-7">&#42; kept</li>\n</ul>'


def convert(text: str) -> str:
    return markdown.Markdown(extensions=["md_in_html", "generator.markup.rawhtml"]).convert(text)


def test_a_marked_block_passes_through_as_written_between_rendered_markdown():
    """As written, but for its Markdown-only entities: `&#42;` reaches the page as `*`."""
    html = convert("Some **bold** text.\n\n" + rawhtml.wrap(BLOCK) + "\nAfter *it*.\n")
    shown = BLOCK.replace("&#42;", "*")
    assert html == f"<p>Some <strong>bold</strong> text.</p>\n{shown}\n<p>After <em>it</em>.</p>"


def test_only_the_entities_markdown_needed_become_characters():
    """What textfilters escapes for Markdown's sake is written plainly; what HTML reads (`<`, `&`,
    quotes) and code's spaces and newlines keep their entities."""
    record = textfilters.rich("Fix `a_b` (#12) *x* 'y' \"z\" <i> & | ~^=:$% {}")
    title, code = textfilters.text('a (b) "c"'), textfilters.text_keep_spaces("a  b")
    block = f'<li title="{title}">{record}<pre><code>{code}&#10;c</code></pre></li>'
    assert convert(rawhtml.wrap(block)) == (
        '<li title="a (b) &#34;c&#34;">Fix <code>a_b</code> (#12) <em>x</em> &#39;y&#39; &#34;z&#34; &#60;i&#62; &amp; | ~^=:$% {}'
        "<pre><code>a&#32;&#32;b&#10;c</code></pre></li>"
    )


def test_two_blocks_and_a_marker_that_does_not_start_a_line():
    inline = f"text {rawhtml.START}"
    html = convert(rawhtml.wrap("<div>a</div>") + "\n" + rawhtml.wrap("<div>b</div>") + "\n" + inline + "\n")
    assert html.startswith("<div>a</div>\n<div>b</div>\n<p>text <!-- atlas:html --></p>")


def build_two_pages(tmp_path: Path, anchor: str) -> list[str]:
    """A two-page MkDocs site, strict validation on: b.md links to a.md#anchor, a.md holds a
    marked block. Returns MkDocs' warnings about anchors (our mkdocs.yml's nav names pages this
    site does not have)."""
    from mkdocs.commands.build import build

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# A\n\n" + rawhtml.wrap(BLOCK), encoding="utf-8")
    (docs / "b.md").write_text(f"# B\n\n[to the change](index.md#{anchor})\n", encoding="utf-8")
    config = mkdocs_config(docs, tmp_path / "site", strict=False, plugins=[], theme={"name": "mkdocs"})
    warnings: list[str] = []
    handler = logging.Handler(level=logging.WARNING)
    handler.emit = lambda record: warnings.append(record.getMessage())
    logging.getLogger("mkdocs").addHandler(handler)
    try:
        build(config)
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)
    return [w for w in warnings if "anchor" in w]


@pytest.mark.parametrize("anchor", ["c-1", "pr-7"])
def test_mkdocs_finds_the_ids_inside_a_block(tmp_path, anchor):
    assert build_two_pages(tmp_path, anchor) == []


def test_mkdocs_still_reports_an_id_that_is_not_there(tmp_path):
    [warning] = build_two_pages(tmp_path, "c-2")
    assert "does not contain an anchor '#c-2'" in warning
