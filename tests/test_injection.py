"""Injection: text from YAML never becomes markup — not HTML, not Markdown, not Jinja.

A copy of the fixture content with script tags, event handlers, javascript: links, Jinja
syntax and page-breaking Markdown in every text field is built with the real CLI, and the
HTML is compared with the clean fixture site's: the same scripts, the same structure
(headings, tables, code blocks, admonitions), no event handler attributes, no script links,
and every hostile string shown literally. Then Chromium loads the pages: no dialog opens.
"""

from __future__ import annotations

import html.parser
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.browser import new_page, search, serve, watch_page
from tests.conftest import run_cli
from tests.helpers import INLINE, NAMES, UNPAIRED, hostile_content


def build(out: Path, content: Path) -> Path:
    proc = run_cli("build", "--content", str(content), "--site", str(out / "site"), "--docs", str(out / "docs"))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return out / "site"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("hostile")
    return build(out, hostile_content(out / "content"))


@pytest.fixture(scope="module")
def hostile_titles_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("hostile-titles")
    return build(out, hostile_content(out / "content", front_matter=True))


# Reading a page

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
STRUCTURE = {
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "pre",
    "blockquote",
    "hr",
    "script",
    "style",
    "img",
    "iframe",
    "object",
    "embed",
    "form",
    "input",
}
IN_A_CHANGE = {"p", "code", "pre", "strong", "em", "a", "span"}
"""What a change's text may become: paragraphs and code (textfilters.blocks), links to its PRs."""


class Page(html.parser.HTMLParser):
    """Elements, attributes and text of one HTML page."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.structure: Counter = Counter()  # outside change items
        self.in_changes: Counter = Counter()
        self.attributes: list[tuple[str, str, str]] = []  # (tag, name, value)
        self.scripts: list[tuple[str, str]] = []  # (src or "", text)
        self.text_parts: list[str] = []
        self._change_depth = 0  # > 0 inside a change: an <li> of a <div class="atlas-changes">
        self._list_depth = 0  # > 0 inside a <div class="atlas-changes">, counting the divs in it
        self._script: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self._change_depth:
            self.in_changes[tag] += 1
            if tag not in VOID:
                self._change_depth += 1
        elif tag == "li" and self._list_depth:
            self._change_depth = 1
        else:
            self.structure[tag + (".admonition" if "admonition" in classes else "")] += 1
            if tag == "div" and (self._list_depth or "atlas-changes" in classes):
                self._list_depth += 1
        self.attributes += [(tag, name, value or "") for name, value in attrs]
        if tag == "script":
            self._script = []
            self.scripts.append((dict(attrs).get("src") or "", ""))

    def handle_endtag(self, tag):
        if self._change_depth and tag not in VOID:
            self._change_depth -= 1
        elif tag == "div" and self._list_depth:
            self._list_depth -= 1
        if tag == "script" and self._script is not None:
            self.scripts[-1] = (self.scripts[-1][0], "".join(self._script))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script.append(data)
        else:
            self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.text_parts).split())

    def counts(self) -> Counter:
        return Counter({tag: n for tag, n in self.structure.items() if tag.split(".")[0] in STRUCTURE or "." in tag})


def pages(site: Path) -> dict[str, Page]:
    return {p.relative_to(site).as_posix(): Page(p.read_text(encoding="utf-8")) for p in sorted(site.rglob("*.html"))}


@pytest.fixture(scope="module")
def hostile_pages(hostile_site) -> dict[str, Page]:
    return pages(hostile_site)


@pytest.fixture(scope="module")
def clean_pages(fixture_site) -> dict[str, Page]:
    return pages(fixture_site)


def normalised(text: str) -> str:
    return " ".join(text.split())


# The built HTML


def test_same_pages_as_the_clean_site(hostile_pages, clean_pages):
    assert sorted(hostile_pages) == sorted(clean_pages)
    assert len(hostile_pages) > 10


def test_no_script_from_content(hostile_pages, clean_pages):
    for name, page in hostile_pages.items():
        assert page.scripts == clean_pages[name].scripts, name
        assert not any("alert(" in text for _, text in page.scripts), name


def test_no_event_handler_attributes(hostile_pages):
    handlers = [
        (name, tag, attr)
        for name, page in hostile_pages.items()
        for tag, attr, _ in page.attributes
        if attr.lower().startswith("on")
    ]
    assert handlers == []


def test_no_script_urls(hostile_pages):
    bad = re.compile(r"^\s*(javascript|data|vbscript):", re.IGNORECASE)
    found = [
        (name, tag, attr, value)
        for name, page in hostile_pages.items()
        for tag, attr, value in page.attributes
        if attr in ("href", "src", "action", "formaction", "srcset", "xlink:href") and bad.match(value)
    ]
    assert found == []


def test_page_structure_is_the_clean_sites(hostile_pages, clean_pages):
    """No extra heading, table, code block, admonition, image or form came from the content."""
    for name, page in hostile_pages.items():
        assert page.counts() == clean_pages[name].counts(), name


def test_change_text_stays_inside_its_change(hostile_pages):
    """Release-note text becomes paragraphs and code only; an unclosed ``` ends with its change."""
    page = hostile_pages["releases/2.8/index.html"]
    assert set(page.in_changes) <= IN_A_CHANGE, page.in_changes
    assert page.in_changes["pre"] == 1  # the unclosed fence, closed where its change ends
    assert "</li></ul><h1>out</h1>" in page.text  # …shown as text


@pytest.mark.parametrize(
    "page, text",
    [
        ("releases/2.8/index.html", f"# Summary {INLINE}"),
        ("releases/2.8/index.html", f"# Title {INLINE}"),
        ("releases/2.8/index.html", f"!!! note Feature {INLINE}"),
        ("releases/2.8/index.html", f"Note {INLINE}"),
        ("releases/2.8/index.html", f"Change {INLINE}"),
        ("releases/2.8/index.html", "{{ 7*7 }} {% if true %}yes{% endif %}"),
        ("releases/2.8/index.html", f"| Reason | {INLINE}"),
        ("releases/2.8/index.html", NAMES[0]),
        ("releases/2.8/index.html", NAMES[1]),
        ("releases/2.7/index.html", f"Patch {INLINE}"),
        ("contributors/index.html", NAMES[1]),
        ("features/widget-compiler/index.html", f"!!! note Feature {INLINE}"),
        ("releases/2.7/index.html", f"```First {UNPAIRED}"),
        ("backends/cuda/index.html", f"Desc {INLINE}"),
        ("features/index.html", "Compiler <script>alert(1)</script> {{ 7*7 }} | x |"),
        ("tiers/index.html", f"<!-- Tier {INLINE}"),
        ("index.html", f"# Summary {INLINE}"),
    ],
)
def test_hostile_text_is_shown_as_written(hostile_pages, page, text):
    """Every payload appears literally: `{{ 7*7 }}` with its braces (not 49), tags as text."""
    assert normalised(text) in hostile_pages[page].text


@pytest.mark.parametrize("name", ["features/mesh/index.html", "backends/cuda/index.html"])
def test_front_matter_titles_are_text(hostile_titles_site, fixture_site, name):
    page = Page((hostile_titles_site / name).read_text(encoding="utf-8"))
    clean = Page((fixture_site / name).read_text(encoding="utf-8"))
    assert page.scripts == clean.scripts
    assert page.counts() == clean.counts()
    assert not [attr for _, attr, _ in page.attributes if attr.lower().startswith("on")]


# In the browser

BROWSED = [
    "",
    "releases/2.8/",
    "releases/2.7/",
    "features/widget-compiler/",
    "features/mesh/",
    "backends/cuda/",
    "contributors/",
    "features/",
    "tiers/",
]


def dialogs_on(browser, site: Path, search_for: str = "alert") -> dict[str, list[str]]:
    """Load each page of BROWSED, then show search results for search_for: dialogs that opened, by page."""
    opened = {}
    with serve(site) as base, new_page(browser) as page:
        watch = watch_page(page)
        for url in BROWSED:
            page.goto(base + url, wait_until="load")
            opened[url] = watch.dialogs + watch.page_errors
            watch.dialogs.clear()
        items = search(page, search_for)
        items.first.wait_for()
        page.wait_for_timeout(200)  # let images in the results load (and fail)
        opened["search"] = watch.dialogs + watch.page_errors
    return opened


@pytest.mark.browser
def test_no_dialog_opens(browser, hostile_site):
    assert dialogs_on(browser, hostile_site) == {url: [] for url in [*BROWSED, "search"]}


@pytest.mark.browser
def test_no_dialog_opens_with_hostile_titles(browser, hostile_titles_site):
    assert dialogs_on(browser, hostile_titles_site) == {url: [] for url in [*BROWSED, "search"]}
