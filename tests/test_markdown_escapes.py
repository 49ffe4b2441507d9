"""The notes escape Markdown punctuation (2.0 writes `torch.\\_six`): a reader sees the mark, not the
backslash, on pages (textfilters.record, rich), in feeds, search and the calendar (plain), and in
the browser (atlas-rules.js plain, held to it by tests/test_js_parity.py)."""

from __future__ import annotations

import html
import re

from generator.markup.textfilters import plain, record, rich
from tests.conftest import real_model


def shown(markup) -> str:
    return html.unescape(str(markup))


def test_an_escaped_mark_reads_as_the_mark():
    line = "### **Deprecated private API torch.\\_six (#94709)**"
    assert shown(record(line)) == "Deprecated private API torch._six (#94709)"
    assert plain(line) == "Deprecated private API torch._six (#94709)"


def test_an_escaped_star_makes_no_emphasis_and_code_keeps_its_backslash():
    out = rich("a \\*b\\* c *em* \\\\ d `x\\_y` C:\\Users")
    assert "<em>em</em>" in str(out) and str(out).count("<em>") == 1
    assert shown(out) == "a *b* c <em>em</em> \\ d <code>x\\_y</code> C:\\Users"


def test_the_real_notes_escape_reaches_no_reader():
    site = real_model()
    lines = [c.text.split("\n", 1)[0] for r in site.releases for c in r.changes]
    # Outside code: inside a code span a backslash is code (Markdown keeps it), and the notes have some.
    escaped = [line for line in lines if "\\_" in re.sub(r"`[^`]*`", "", line)]
    assert escaped, "the 2.0 notes write torch.\\_six: the test needs an escaped record line"
    for line in escaped:
        assert "\\_" not in plain(line), line
        assert "&#92;" not in re.sub(r"<code>.*?</code>", "", str(record(line))), line
