"""API symbol pages (/symbols/): every `torch.*` name the content mentions has an anchor on its
module page, listing the changes and features that name it, newest first, each link landing on
that change or feature."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml

from generator.markup.textfilters import html_id
from generator.model import symbols, urls
from generator.pipeline.build import site_model
from generator.render.render import render_all
from tests.conftest import ROOT, run_cli
from tests.helpers import element_texts

# What a reader would call a torch name, said again here rather than imported: `torch.` and
# dotted identifiers, not inside a link target or a URL, not a `*` pattern; braces list
# alternatives (one alone is optional) and a name a backtick cuts goes on after it (but "`s").
NAME = re.compile(r"(?<![\w/.])torch(?:\.[A-Za-z_]\w*)+(?![\w*])")
LINK_TARGET = re.compile(r"\]\([^()\s]*\)|https?://\S+")
BRACES = re.compile(r"(torch[\w.]*)\{([\w .,]+)\}(\w*)")
CUT = re.compile(r"(torch[\w.]*\w)`(\w\w+|[^s\W])")


def _reader_names(text: str) -> set[str]:
    text = CUT.sub(r"\1\2", LINK_TARGET.sub(" ", text))
    for head, alternatives, tail in BRACES.findall(text):
        parts = [a.strip() for a in alternatives.split(",")]
        text += "".join(f" {head}{a}{tail}" for a in (parts + [""] if len(parts) == 1 else parts))
    return set(NAME.findall(BRACES.sub(" ", text)))


def _names_in_content(content: Path) -> set[str]:
    """Names in change record lines, notes and restores, and feature titles, summaries and reasons."""
    texts = []
    for path in sorted((content / "changes").glob("*.yaml")):
        for change in yaml.safe_load(path.read_text(encoding="utf-8"))["changes"]:
            texts += [change["text"].strip().split("\n", 1)[0], change.get("note"), change.get("restore")]
    for path in sorted((content / "releases").glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["features"]:
            texts += [entry["title"], entry["summary"], entry.get("reason")]
    not_apis = yaml.safe_load((content / "symbols.yaml").read_text(encoding="utf-8"))["retired"]
    return {n for t in texts if t for n in _reader_names(t)} - {r["name"] for r in not_apis if r.get("still_named")}


def _symbol_pages(site: Path) -> dict[str, str]:
    """Module path -> the HTML of its page."""
    return {p.parent.name: p.read_text(encoding="utf-8") for p in sorted((site / "symbols").glob("*/index.html"))}


def _entry(page_html: str, name: str) -> str:
    """The HTML of one symbol's entry: from its heading to the next one."""
    start = page_html.index(f'<h2 id="{name}"')
    end = page_html.find("<h2 ", start + 1)
    return page_html[start : end if end != -1 else page_html.index("</article>", start)]


def _content_html(page_html: str) -> str:
    """The page's article, without the header, navigation and table of contents."""
    return page_html[page_html.index("<article") : page_html.index("</article>")]


# ---------------------------------------------------------------- what is a module


@pytest.mark.parametrize(
    ("name", "page"),
    [
        ("torch.cat", "torch"),
        ("torch.export.export", "torch.export"),
        ("torch.nn.attention.flex_attention", "torch.nn.attention"),
        ("torch.distributed.fsdp.fully_shard", "torch.distributed.fsdp"),
        ("torch.backends.cuda.matmul.allow_tf32", "torch.backends.cuda"),  # deeper modules share a page
        ("torch.Tensor.expand", "torch"),  # a class's members live in the class's module
        ("torch.export.Dim.AUTO", "torch.export"),
        ("torch.export", "torch.export"),  # named alone, but something in it is named too: a module
        ("torch.package", "torch"),  # nothing in it is named: listed on its parent's page
    ],
)
def test_a_name_is_listed_on_its_module_page(name, page):
    named = ["torch.cat", "torch.export.export", "torch.export", "torch.package", name]
    assert symbols.page_of(name, symbols.modules(named)) == page


def test_names_in_link_targets_and_urls_are_not_names():
    text = "See [the guide](https://pytorch.org/docs/stable/torch.compiler.html) for `torch.compile()`; docs/torch.fx.x"
    assert symbols.torch_names(text) == ("torch.compile",)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Clarify `torch.arang`e floating-point rounding", ("torch.arange",)),  # cut by a backtick
        ("custom `torch.autograd.Function`s", ("torch.autograd.Function",)),  # a plural, not a cut
        ("validation for `torch.cum{min,max}`.", ("torch.cummax", "torch.cummin")),
        ("`ord` for `torch.linalg.{vector,matrix}_norm()`", ("torch.linalg.matrix_norm", "torch.linalg.vector_norm")),
        ("`torch.{linalg.}norm`", ("torch.linalg.norm", "torch.norm")),  # one alternative: optional
        ("much like the `torch._foreach_*` operators", ()),  # a pattern names no one function
    ],
)
def test_names_read_as_the_notes_mean_them(text, names):
    assert symbols.torch_names(text) == names


# ---------------------------------------------------------------- the real site


def test_the_torch_page_lists_no_junk_and_old_links_land_on_the_successor(real_site: Path):
    """torch.arang (a name the 2.6 notes cut with a backtick) is not listed; its published anchor
    still opens the torch page on a line that links to torch.arange, which is listed."""
    text = _content_html((real_site / urls.symbol_page("torch") / "index.html").read_text(encoding="utf-8"))
    listed, _, retired = text.partition('id="names-no-longer-listed"')
    heads = set(re.findall(r'<h2 id="([^"]+)"', listed))
    assert {"torch.arange", "torch.cummin", "torch.cummax", "torch.cat"} <= heads
    assert not heads & {"torch.arang", "torch.cum", "torch.tensors", "torch.compiling", "torch._foreach_"}
    assert "symbols/torch/#torch.arang" in (ROOT / "generator/published_urls.txt").read_text(encoding="utf-8")
    start = retired.index('<h3 id="torch.arang"')
    line = retired[start : retired.index("<h3 ", start + 1)]
    assert re.search(r'<a href="(\./)?#torch\.arange">torch\.arange</a>', line), line
    why = retired[retired.index('<h3 id="torch.tensors"') :].split("<h3 ", 2)[1]
    assert "no function of that name" in why


def test_every_name_in_the_content_has_an_anchor_on_its_module_page(real_site: Path):
    names = _names_in_content(ROOT / "content")
    pages = _symbol_pages(real_site)
    # The names each page lists: its <h2> headings above "Names no longer listed" (retired names follow).
    ids = {
        module: set(re.findall(r'<h2 id="([^"]+)"', _content_html(text).split('id="names-no-longer-listed"')[0]))
        for module, text in pages.items()
    }
    index = html.unescape((real_site / "symbols/index.html").read_text(encoding="utf-8"))
    for name in sorted(names):
        homes = [module for module, found in ids.items() if name in found]
        assert len(homes) == 1, f"{name}: anchored on {homes}"
        module = homes[0]
        assert name == module or name.startswith(module + "."), f"{name} is on the page of {module}"
        assert len(module.split(".")) <= symbols.PAGE_DEPTH
        target = f'href="{module}/"' if name == module else f'href="{module}/#{name}"'
        assert target in index, f"the index does not link {name}"
    assert len(names) > 300
    assert {n for found in ids.values() for n in found} == names, "a symbol page lists a name the content lacks"


def test_torch_cat_links_its_2_9_change(real_site: Path):
    page = real_site / urls.symbol_page("torch") / "index.html"
    entry = _entry(page.read_text(encoding="utf-8"), urls.symbol_anchor("torch.cat"))
    links = re.findall(r'<li><strong>([\d.]+)</strong>.*?<a href="([^"]+)"', entry)
    assert [v for v, _ in links] == sorted(
        (v for v, _ in links), key=lambda v: tuple(map(int, v.split("."))), reverse=True
    )
    in_29 = [href for version, href in links if version == "2.9"]
    assert len(in_29) == 1
    target, _, anchor = html.unescape(in_29[0]).partition("#")
    assert target == "../../releases/2.9/" and anchor.startswith("c-")
    held = element_texts((page.parent / target / "index.html").resolve(), {})[anchor]
    assert held.startswith("Raise appropriate errors in torch.cat (#158249)")


def test_every_link_on_a_symbol_page_lands_on_what_it_names(real_site: Path):
    """A change link lands on the change whose record line it shows; a feature link on its entry."""
    cache: dict = {}
    checked = 0
    for module, text in _symbol_pages(real_site).items():
        for item in re.findall(r"<li><strong>[\d.]+</strong>(.*?)</li>", _content_html(text), re.S):
            href, label = re.search(r'<a href="([^"]+)">(.*?)</a>', item).groups()
            target, _, anchor = html.unescape(href).partition("#")
            held = element_texts((real_site / "symbols" / module / target / "index.html").resolve(), cache).get(anchor)
            assert held is not None, f"{module}: {href}: no such element"
            words = " ".join(html.unescape(re.sub(r"<[^>]+>", "", label)).split()).removesuffix(" …")[:60]
            assert words in held, f"{module}: {href} opens another change"
            checked += 1
    assert checked > 500


def test_symbol_pages_are_the_same_from_processes_with_other_hash_seeds():
    script = (
        "import hashlib; from pathlib import Path; from generator.pipeline.build import site_model;"
        "from generator.render.render import render_all;"
        "out = render_all(site_model(Path('content')));"
        "print(hashlib.sha256(b''.join(k.encode() + v for k, v in sorted(out.items()) if k.startswith('symbols/'))).hexdigest())"
    )

    def digest(seed: str) -> str:
        proc = run_cli(via=("-c", script), env={"PYTHONHASHSEED": seed})
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    assert digest("1") == digest("2") != ""


# ---------------------------------------------------------------- hostile text


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_hostile_text_near_a_name_stays_text(content_copy, tmp_path):
    _edit(
        content_copy / "changes/2.8.yaml",
        '"`torch.cat` now raises',
        '"torch.<script>alert(1)</script> torch.cat<img src=x onerror=alert(2)> `torch.cat` now raises',
    )
    _edit(
        content_copy / "releases/2.8.yaml",
        "title: Mesh",
        'title: "Mesh torch.distributed.mesh_x<script>alert(3)</script> [x](javascript:alert(4))"',
    )
    rendered = render_all(site_model(content_copy))
    pages = {k: v.decode() for k, v in rendered.items() if k.startswith("symbols/")}  # pages and their feeds
    assert {k for k in pages if k.endswith("index.md")} == {
        "symbols/index.md",
        "symbols/torch/index.md",
        "symbols/torch.distributed/index.md",
    }
    assert {k for k in pages if k.endswith("feed.xml")} == {
        "symbols/torch/feed.xml",
        "symbols/torch.distributed/feed.xml",
    }
    for text in pages.values():
        assert "<script" not in text and "<img" not in text and "javascript:" not in text
    out = tmp_path / "out"
    proc = run_cli("build", "--content", str(content_copy), "--site", str(out / "site"), "--docs", str(out / "docs"))
    assert proc.returncode == 0, proc.stderr
    for page in ("torch", "torch.distributed"):
        built = _content_html((out / "site/symbols" / page / "index.html").read_text(encoding="utf-8"))
        assert "<script" not in built and "<img" not in built and 'href="javascript' not in built
        shown = html.unescape(re.sub(r"<[^>]+>", "", built))
        assert ("torch.<script>alert(1)</script>" if page == "torch" else "mesh_x<script>alert(3)") in shown


def test_an_id_that_is_not_a_name_is_refused():
    assert html_id("torch._foreach_") == "torch._foreach_"
    with pytest.raises(ValueError, match="not a name"):
        html_id('torch.cat" onmouseover="alert(1)')


# ---------------------------------------------------------------- in the browser


@pytest.mark.browser
def test_a_symbol_link_opens_the_symbol_and_its_change(page, served):
    page.goto(served + urls.at(urls.symbol_page("torch"), urls.symbol_anchor("torch.cat")))
    heading = page.locator("[id='torch.cat']")
    heading.wait_for()
    assert heading.is_visible() and heading.evaluate("e => e.getBoundingClientRect().top") < 300
    page.locator("[id='torch.cat'] ~ ul").first.locator("li", has_text="2.9").locator("a").click()
    page.wait_for_url("**/releases/2.9/#c-*")
    anchor = page.url.split("#", 1)[1]
    change = page.locator(f"[id='{anchor}']")
    # The page loads and the change's area is laid out once it nears the screen
    # (content-visibility): wait for both.
    page.wait_for_function(
        "(id) => { const e = document.getElementById(id); return !!e && e.checkVisibility({ contentVisibilityAuto: true }); }",
        arg=anchor,
    )
    assert "Raise appropriate errors in torch.cat" in change.inner_text()
    assert change.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }")
