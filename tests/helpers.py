"""Helpers more than one test module uses (fixtures stay in conftest.py). A test module imports
its helpers from here, never from another test module."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from generator.load.load import load
from generator.model.errors import ContentError
from generator.pipeline.build import CONFIG
from tests.conftest import FIXTURE, ROOT


def position(path: Path, text: str, after: int = 0) -> str:
    """`line:col` (1-based, as problems give them) of the first `text` in the file, `after`
    characters into it. A test finds the place it checks, so an edit of the fixture that moves
    the lines does not break it."""
    source = path.read_text(encoding="utf-8")
    assert text in source, f"{text!r} is not in {path}"
    index = source.index(text) + after
    start = source.rfind("\n", 0, index) + 1
    return f"{source.count(chr(10), 0, index) + 1}:{index - start + 1}"


def line_of(path: Path, text: str) -> int:
    """The line number of the first `text` in the file."""
    return int(position(path, text).split(":")[0])


# ---------------------------------------------------------------- editing the fixture content

REL = Path("releases/2.8.yaml")
CATALOGUE = Path("features/fixture.yaml")


def problems(content: Path) -> list[str]:
    """What loading `content` refuses, one `path:line:col: message` each, paths relative to it."""
    with pytest.raises(ContentError) as info:
        load(content)
    return [str(p).replace(str(content) + "/", "") for p in info.value.problems]


def edit(content: Path, old: str, new: str, rel: Path = REL) -> None:
    """Replace the first `old` in content/rel by `new` (which must be there)."""
    path = content / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# ---------------------------------------------------------------- hostile content (tests/test_injection.py)

PAYLOADS = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "{{ 7*7 }}",
    "{% raw %}{% endraw %}{# c #}",
    "| a | b |",
    "# heading",
    "```",
    "!!! note",
    "<!--",
    "&lt;b&gt;",
)
INLINE = " ".join(PAYLOADS)
UNPAIRED = " ".join(p for p in PAYLOADS if p != "```")  # after a leading ```: two would make a `code` span
CHANGE_TEXT = "\n".join(
    [
        f"Change {INLINE}",
        "",
        "# heading",
        "",
        "| a | b |",
        "|---|---|",
        "| c | d |",
        "",
        "!!! note",
        "    admonition body",
        "",
        "<script>alert(1)</script>",
        "",
        "{{ 7*7 }} {% if true %}yes{% endif %}",
    ]
)
UNCLOSED_FENCE = "Faster all_reduce\n```\n<script>alert(1)</script>\n\n# not a heading\n</li></ul><h1>out</h1>"
# Contributor names are limited to 100 characters; two names carry every payload.
NAMES = (" ".join(PAYLOADS[:3]), " ".join(PAYLOADS[3:]))
TITLE_PAYLOAD = '</title><script>alert(1)</script><img src=x onerror=alert(2)>"'


def hostile_content(dest: Path, *, front_matter: bool = False) -> Path:
    """The fixture content with payloads in every text field; same ids, pages and counts.

    front_matter: also in the fields that become a page's front-matter `title`/`description`
    (a feature's first title, a backend's name and vendor).
    """
    shutil.copytree(FIXTURE, dest)

    def rewrite(rel: str, change) -> None:
        path = dest / rel
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")

    def release_2_7(r):
        r["summary"] = f"```First {UNPAIRED}"
        r["features"][0]["contributors"] = [NAMES[0]]
        r["features"][1]["summary"] = f"Old {INLINE}"
        r["patches"][0]["summary"] = f"Patch {INLINE}"

    def release_2_8(r):
        r["summary"] = f"# Summary {INLINE}"  # a payload first: it would start a Markdown block
        widget, mesh = r["features"]
        widget["title"] = f"# Title {INLINE}"  # not its first announcement: not the page title
        widget["summary"] = f"!!! note Feature {INLINE}"
        widget["contributors"] = list(NAMES)
        mesh["summary"] = "| a | b |"
        mesh["reason"] = f"| Reason | {INLINE}"
        if front_matter:
            mesh["title"] = f"Mesh {TITLE_PAYLOAD}"

    def changes(c):
        c["changes"][0]["text"] = CHANGE_TEXT
        c["changes"][0]["note"] = f"Note {INLINE}"
        # a quoted value is a valid restore whatever it holds; it still names torch.cat, so its symbol page stays
        c["changes"][0]["restore"] = f"torch.cat='{INLINE}'"
        c["changes"][1]["text"] = UNCLOSED_FENCE
        c["changes"][1]["area"] = f"Distributed › {INLINE}"

    def backends(b):
        cuda = b["backends"][0]
        cuda["description"] = f"Desc {INLINE}"
        if front_matter:
            cuda["name"] = f"CUDA {TITLE_PAYLOAD}"[:80]
            cuda["vendor"] = 'NVIDIA " onmouseover="alert(3)'

    def areas(a):
        a["areas"][0]["name"] = "Compiler <script>alert(1)</script> {{ 7*7 }} | x |"
        a["areas"][0]["description"] = f"Area {INLINE}"

    def tiers(t):
        t["tiers"][0]["description"] = f"<!-- Tier {INLINE}"
        t["vocabularies"][0]["description"] = f"Vocabulary {INLINE}"

    rewrite("releases/2.7.yaml", release_2_7)
    rewrite("releases/2.8.yaml", release_2_8)
    rewrite("changes/2.8.yaml", changes)
    rewrite("backends.yaml", backends)
    rewrite("areas.yaml", areas)
    rewrite("tiers.yaml", tiers)
    return dest


# ---------------------------------------------------------------- built pages and folders


def tree(root: Path) -> dict[str, str]:
    """Every file and folder under root: relative path -> sha256 of its bytes ('dir' for folders)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        out[rel] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return out


class _Elements(HTMLParser):
    """Text of each element with an id (the whole subtree), for one HTML page."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr", "area", "col", "embed", "param", "track"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []
        self.text: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        ident = dict(attrs).get("id")
        if ident:
            self.text.setdefault(ident, [])
        self.stack.append((tag, ident))

    def handle_endtag(self, tag):
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break

    def handle_data(self, data):
        for _, ident in self.stack:
            if ident:
                self.text[ident].append(data)


def element_texts(path: Path, cache: dict) -> dict[str, str]:
    """The text of every element with an id in the HTML page at path (memoised in cache), by id."""
    if path not in cache:
        parser = _Elements()
        parser.feed(path.read_text(encoding="utf-8"))
        cache[path] = {k: " ".join("".join(v).split()) for k, v in parser.text.items()}
    return cache[path]


# ---------------------------------------------------------------- sources, browser artifacts, Zensical

SOURCES = ROOT / "content" / "sources"
# The GitHub release notes of each release, as content/sources/INDEX.md names them.
NOTES_FILES = {
    "2.0": "release-notes-v2.0.0.draft.md",
    "2.3": "release-notes-v2.3.0.sql-copy.md",
    "2.4": "release-notes-v2.4.0.partial.md",
    "2.5": "release-notes-v2.5.0.scraped-copy.md",
}

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}

SHOTS = ROOT / "tests" / "artifacts" / "screens"


def zensical_config(docs_dir: Path, redirects: dict[str, str], project: Path = ROOT) -> str:
    """mkdocs.yml of `project` for a project rooted beside docs_dir (Zensical keeps docs and site
    inside the folder of its config file), with our theme overrides by absolute path and the
    redirects. `make bench` passes the copy of the project it builds with."""
    text = (project / CONFIG.name).read_text(encoding="utf-8")
    replacements = {
        r"^docs_dir: .*$": f"docs_dir: {docs_dir.name}",
        r"^site_dir: .*$": "site_dir: site",
        r"^(\s+custom_dir:) (.*)$": lambda m: f"{m[1]} {json.dumps(str(project / m[2]))}",
        r"^(\s+redirect_maps:) \{\}$": lambda m: f"{m[1]} {json.dumps(redirects, sort_keys=True)}",
    }
    for pattern, new in replacements.items():
        text, count = re.subn(pattern, new, text, flags=re.MULTILINE)
        assert count == 1, f"mkdocs.yml no longer has one line matching {pattern}"
    return text


# ---------------------------------------------------------------- our words against the notes

RUN = 8


def words_of(text: str) -> list[str]:
    """The words of a text, lower-cased, with link targets and code marks dropped."""
    text = re.sub(r"\]\([^)]*\)", "]", text).replace("`", "")
    return re.findall(r"[a-z0-9_.]+", text.lower())


def runs(words: list[str]) -> set[tuple[str, ...]]:
    """Every run of RUN words in a row: a shared run is copied text."""
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}
