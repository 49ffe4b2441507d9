"""Render stage: one Jinja Environment, one template per page kind, Markdown into a folder.

Pages are written only when their bytes change (so `mkdocs serve` does not rebuild in loops
and unchanged pages keep their mtime), and files in the folder that no page produces any
more are removed. In live preview (`record`, `previous`), a page whose reads of the model
(generator.render.reads) are unchanged since the last render keeps its bytes without being rendered.
"""

from __future__ import annotations

import contextlib
import functools
import json
import operator
import os
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from markupsafe import Markup

from ..markup import rawhtml, textfilters
from ..model import urls, wording
from ..model.computed import Site
from ..model.content import (
    BREAKING_GROUPS,
    CHANGE_KINDS,
    CHANGE_LABELS,
    EVERY_BACKEND_GROUPS,
    SECTION_TITLES,
    UPGRADE_GROUPS,
)
from ..pages import describe
from ..util import forked
from ..util.project import ROOT, SITE_NAME
from ..util.writer import write_atomic
from . import browser, card
from .api import render_api
from .badges import render_badges
from .feeds import render_feeds, render_item_feeds
from .ical import render_calendar
from .inventory import render_inventory
from .reads import Compare, Reads, derived_names
from .sitemaps import render_sitemaps
from .symbol_data import render_symbol_data

TEMPLATES = ROOT / "templates"
ASSETS = TEMPLATES / "assets"


TEMPLATE_CACHE = ROOT / "build" / "templates"


def template_cache(name: str):
    """Where builds keep Jinja templates compiled, as Python keeps modules in __pycache__:
    build/templates/<name>/ (git-ignored), a jinja2.FileSystemBytecodeCache. A template whose
    source changed is compiled again (the cache is keyed by its checksum); files are replaced
    atomically, so builds running at once share it. None where the folder cannot be made."""
    folder = TEMPLATE_CACHE / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):  # a read-only checkout: compile every time
        return None
    return jinja2.FileSystemBytecodeCache(str(folder))


@functools.cache
def environment() -> jinja2.Environment:
    """The one Jinja environment: strict, escaping every data value by default.

    Built once per process, so templates compile once; auto_reload recompiles only a
    template whose file changed (live preview). What the memo earns: README, Speed mechanisms."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        bytecode_cache=template_cache("atlas"),
        undefined=jinja2.StrictUndefined,
        finalize=textfilters.finalize,
        autoescape=False,  # Markdown output: finalize escapes for HTML *and* Markdown
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        text=textfilters.text,
        rich=textfilters.rich,
        record=textfilters.record,
        headline=textfilters.headline,
        html_id=textfilters.html_id,
        blocks=textfilters.blocks,
        html_block=lambda html: Markup(rawhtml.wrap(html)),
        # A macro's output: HTML a template wrote, each data value in it already escaped by
        # finalize. Only ever after a macro call (tests/test_render.py holds templates to that).
        macro_html=Markup,
        url=textfilters.url,
        num=lambda n: f"{n:,}",
        frontmatter=textfilters.frontmatter,
        date=textfilters.release_date,
        pr_url=lambda n: textfilters.url(urls.pr(n)),
        issue_url=lambda n: textfilters.url(urls.issue(n)),
        tojson_attr=lambda v: textfilters.text(json.dumps(v, sort_keys=True, separators=(",", ":"))),
    )
    env.globals.update(
        upgrade_groups=UPGRADE_GROUPS,
        change_label=CHANGE_LABELS,
        change_kind=CHANGE_KINDS,
        # version -> its API file, relative to the page: where /compare/ and /upgrade/ fetch a release
        api_files=lambda versions, href: {v: str(href(urls.api_release(v))) for v in versions},
        section_title=SECTION_TITLES,
        urls=urls,
        coverage=coverage,
        breaking_groups=BREAKING_GROUPS,
        every_backend_groups=EVERY_BACKEND_GROUPS,
        site_name=SITE_NAME,
        # wording.said(field, release): an ending's phrase for one of its fields ("removal announced
        # for 2.10"), read through no method of the model, so a page's reads stay recorded field by field
        said=wording.said,
    )
    return env


def coverage(site: Site) -> str:
    """The releases whose change lists the site holds, in words: "2.5–2.14", or "no release"."""
    have = site.change_lists
    if not have:
        return "no release"
    runs, start = [], 0
    index = {v: i for i, v in enumerate(site.versions)}
    for k in range(1, len(have) + 1):
        if k == len(have) or index[have[k]] != index[have[k - 1]] + 1:
            runs.append(have[start] if start == k - 1 else f"{have[start]}–{have[k - 1]}")
            start = k
    return ", ".join(runs)


@dataclass
class Rendered:
    """One render of the site: every file's bytes and, when recorded (live preview), what each
    page and API file was built from: its title and description, its view (or inputs) and what
    its rendering read of them and of the site (generator.render.reads), for the next render to reuse."""

    site: Site
    files: dict[str, bytes]
    built_from: dict[str, tuple] = field(default_factory=dict)  # path -> (head, inputs, record)
    fresh: list[str] = field(default_factory=list)  # pages and API files rendered, not kept
    # path -> ((template, description, view's names), view, record, head fields): describe.page_head's
    # result, with the page's view and what it read of the site (recorded renders only)
    heads: dict[str, tuple] = field(default_factory=dict)
    # per model class, the properties (names not compared as fields) some record read
    derived: dict[type, frozenset] = field(default_factory=dict)

    def kept(self, compare: Compare, path: str, head: tuple, inputs: tuple) -> tuple | None:
        """The record of `path` if its previous bytes hold for these inputs, else None."""
        built = self.built_from.get(path)
        if built is None or path not in self.files:
            return None
        old_head, old_inputs, record = built
        if old_head != head or len(old_inputs) != len(inputs):
            return None
        # Input by input: a tuple of inputs led by a text (a feed's name) is not one text-led value.
        # A text or a tuple made anew for this render (a feed's entries, a badge's words) that is
        # equal is the same whatever was read of it, told in C before asking `same`, which would
        # remember the pair: about 40,000 data files at 50x.
        same = compare.same
        for old, new in zip(old_inputs, inputs, strict=True):
            if old is not new and not (type(old) in _TOLD_EQUAL and old == new) and not same(record, old, new):
                return None
        return record


_TOLD_EQUAL = frozenset({str, tuple})
"""Input types Rendered.kept compares with == first (for them, equal whole is what Compare.diff decides)."""


def drawn(parts: dict[str, tuple]) -> dict[str, bytes]:
    """The bytes of files given as (inputs, draw[, whole]) (generator.render.api, feeds, badges …), drawn now."""
    return {path: draw(*inputs) for path, (inputs, draw, *_) in parts.items()}


def render_all(site: Site, site_url: str = urls.DEFAULT_SITE_URL, env: jinja2.Environment | None = None) -> dict:
    """Every page, API file and feed as bytes, keyed by its path under docs/."""
    return render_site(site, site_url, env).files


def render_site(
    site: Site,
    site_url: str = urls.DEFAULT_SITE_URL,
    env: jinja2.Environment | None = None,
    previous: Rendered | None = None,
    record: bool = False,
) -> Rendered:
    """Render every page, API file and feed. With `record`, note what each page read, so that a
    later render given this one as `previous` (same templates and site URL) keeps the bytes of
    every page whose reads are unchanged instead of rendering it again."""
    env = env or environment()
    base = urls.site_root(site_url)
    out = Rendered(site, {})
    make = _Maker(out, previous, record)
    versions = frozenset(site.versions)
    every = list(site.pages)
    if not every:  # a model made without the pipeline: rendering it would write no page at all
        raise ValueError("the site has no page list: make the model with pipeline.build.site_model")

    def here(page) -> bytes:
        return _made_here(make, env, site, page, base, versions)

    if previous is None and not record and len(every) >= PARALLEL_FROM and forked.available():
        drawn = lambda page: _page_file(env, site, page, base, versions)  # noqa: E731 - read at each call
        bodies, theirs, data = _with_child(every, here, drawn, lambda: _data_files(site, base, make))
        out.fresh.extend(urls.source(every[n].url) for n in theirs)
    else:
        bodies = [here(page) for page in every]
        data = _data_files(site, base, make)
    out.files = {urls.source(page.url): body for page, body in zip(every, bodies, strict=True)}  # the pages' order
    out.files.update(data)
    out.derived = make.derived()
    out.files.update(browser.files())  # what the scripts read from Python (search paths, shards)
    out.files[urls.CARD] = card.png()
    for asset in sorted(ASSETS.rglob("*")):
        if asset.is_file():
            out.files[f"assets/{asset.relative_to(ASSETS).as_posix()}"] = asset.read_bytes()
    return out


def _made_here(make: _Maker, env: jinja2.Environment, site: Site, page, base: str, versions: frozenset) -> bytes:
    """A page's bytes, made through the render's memo (kept when its reads are unchanged)."""
    path, names = urls.source(page.url), tuple(sorted(page.context))
    view = tuple(page.context[k] for k in names)
    if (same := make.unchanged(path, page, names, view)) is not None:
        return same
    meta = make.head(path, page, names, view, base)  # part of the head, compared whole

    def draw(model, *context) -> bytes:
        return _render_page(env, page, meta, model, dict(zip(names, context, strict=True)), versions)

    head = (page.template, page.title, page.description, names, meta)
    return make(path, head, (site, *view), draw, page=True)


def _with_child(every: list, here, drawn, data) -> tuple[list[bytes], list[int], dict[str, bytes]]:
    """A build's pages shared with a forked child: each takes the next page nobody has taken
    (forked.Queue), and this process first makes the other files (`data()`: API files, feeds,
    badges, a third of the render's work at 10x), so each ends about when the other does. `here`
    and `drawn` give a page's bytes, here and in the child; a page the child took but did not
    return (it failed) is made here. Returns every page's bytes in order, the positions of those
    the child made, and what `data()` made."""
    queue = forked.Queue()

    def theirs() -> dict[int, bytes]:
        done = {}
        while (n := queue.take()) < len(every):
            done[n] = drawn(every[n])
        return done

    helper = forked.beside(theirs, rerun=False)
    made = data()
    bodies = {}
    while (n := queue.take()) < len(every):
        bodies[n] = here(every[n])
    done = helper.result() or {}
    bodies.update(done)
    return [bodies[n] if n in bodies else here(every[n]) for n in range(len(every))], sorted(done), made


def _data_files(site: Site, base: str, make: _Maker) -> dict[str, bytes]:
    """Every file but the pages (API, feeds, symbol data, calendar, badges), each given as the
    inputs it is drawn from and its drawing function, and made through the same memo as the
    pages. A file marked `whole` prints its inputs nearly whole (a release's API record), so it
    is drawn from them unwatched and kept while they are equal (recording its reads would earn
    nothing)."""
    made = {}
    for parts in (
        render_api(site, base),
        render_feeds(site, base),
        render_item_feeds(site, base),
        render_symbol_data(site, base),
        render_calendar(site, base),
        render_badges(site),
        render_inventory(site),
        render_sitemaps(site, base),
    ):
        made.update(
            (path, make(path, (), inputs, draw, whole=any(how))) for path, (inputs, draw, *how) in parts.items()
        )
    return made


class _Maker:
    """Makes one file of a render: last render's bytes where what it read is unchanged (live
    preview), else `draw(*inputs)`, noting what it read when the render records or compares."""

    def __init__(self, out: Rendered, previous: Rendered | None, record: bool) -> None:
        self.out, self.previous, self.watch = out, previous, record or previous is not None
        self.compare = Compare(previous.derived if previous is not None else None)
        self.records: dict[tuple, tuple] = {}  # equal records share one object, so comparisons are shared too
        # id of a last render's record -> True if it read nothing of the site that changed
        self._site_same: dict[int, bool] = {}

    def __call__(self, path: str, head: tuple, inputs: tuple, draw, page: bool = False, whole: bool = False) -> bytes:
        """The file's bytes. `whole`: drawn from its inputs unwatched, kept while they are equal."""
        previous, out = self.previous, self.out
        if previous is not None and (kept := previous.kept(self.compare, path, head, inputs)) is not None:
            out.built_from[path] = (head, inputs, kept)
            return previous.files[path]
        if whole:
            out.fresh.append(path)
            if self.watch:
                out.built_from[path] = (head, inputs, WHOLE)
            return draw(*inputs)
        reads = Reads() if self.watch else None
        data = draw(*(reads.wrap(v) for v in inputs)) if reads else draw(*inputs)
        out.fresh.append(path)
        if reads:
            if page:
                reads.fields.setdefault(type(inputs[0]), set()).add("versions")  # the `versions` helper
            frozen = reads.frozen()
            out.built_from[path] = (head, inputs, self.records.setdefault(frozen, frozen))
        return data

    def unchanged(self, path: str, page, names: tuple, view: tuple) -> bytes | None:
        """A page's last bytes, found without making its head: where its template, title and
        description are last render's, its view holds the very objects it held then, and neither
        its head nor its body read anything of the site that changed. None where any of that
        fails: the page then goes the whole way (`head`, `__call__`), which may still keep it."""
        previous = self.previous
        if previous is None:
            return None
        last, built = previous.heads.get(path), previous.built_from.get(path)
        if last is None or built is None or path not in previous.files:
            return None
        head, inputs, record = built
        if (
            head[4] is not last[3]
            or head[:4] != (page.template, page.title, page.description, names)
            or last[0] != (page.template, page.description, names)
            or len(inputs) != len(view) + 1
            or not all(map(operator.is_, last[1], view))
            or not all(map(operator.is_, inputs[1:], view))
            or not self._reads_same_site(last[2])
            or not self._reads_same_site(record)
        ):
            return None
        self.out.heads[path] = last
        self.out.built_from[path] = (head, (self.out.site, *view), record)
        return previous.files[path]

    def _reads_same_site(self, record: tuple) -> bool:
        """Whether what `record` (a last render's, alive while this one runs) read of the site is
        unchanged: asked once per record, however many pages share it."""
        known = self._site_same.get(id(record))
        if known is None:
            known = self._site_same[id(record)] = self.compare.same(record, self.previous.site, self.out.site)
        return known

    def head(self, path: str, page, names: tuple, view: tuple, base: str) -> describe.PageHead:
        """describe.page_head of the page: in live preview, the last render's where the page's
        view holds the very objects it held then (the session keeps what an edit did not touch)
        and what it read of the site is unchanged, as a page's bytes are kept."""
        site = self.out.site
        if not self.watch:
            return describe.page_head(site, page, base)
        key, previous = (page.template, page.description, names), self.previous
        last = previous.heads.get(path) if previous is not None else None
        if (
            last is not None
            and last[0] == key
            and all(map(operator.is_, last[1], view))
            and self.compare.same(last[2], previous.site, site)
        ):
            self.out.heads[path] = last
            return last[3]
        reads = Reads()
        meta = describe.page_head(reads.wrap(site), page, base)
        frozen = reads.frozen()
        self.out.heads[path] = (key, view, self.records.setdefault(frozen, frozen), meta)
        return meta

    def derived(self) -> dict[type, frozenset]:
        """What this render's records read that are not fields, with the last render's (whose
        records the pages it kept still hold): what the next render's Compare tells apart."""
        out = dict(self.previous.derived) if self.previous is not None else {}
        for cls, names in derived_names(self.records).items():
            out[cls] = out.get(cls, frozenset()) | names
        return out


WHOLE = (frozenset(), frozenset(), True)
"""The record of a file drawn from its inputs unwatched: read whole (reads.Compare.same)."""

PARALLEL_FROM = 64
"""From this many pages, a build shares its pages with a forked child (`render_site`)."""


def _page_file(env: jinja2.Environment, site: Site, page, base: str, versions: frozenset) -> bytes:
    """One page's Markdown file as a build renders it (no recorded reads)."""
    names = sorted(page.context)
    meta = describe.page_head(site, page, base)
    return _render_page(env, page, meta, site, {k: page.context[k] for k in names}, versions)


def _render_page(env: jinja2.Environment, page, meta, site, context: dict, versions: frozenset) -> bytes:
    """The page's template rendered with its context and helpers, below the generated-file note."""
    helpers = {
        "link": lambda target, _u=page.url: Markup(urls.md_link(_u, target)),
        "href": lambda target, _u=page.url: Markup(urls.relative(_u, target)),
        "versions": versions,
    }
    body = env.get_template(page.template).render(site=site, page=page, meta=meta, **helpers, **context)
    header = (
        f"<!-- Generated by `python -m generator build` from content/{page.source}; edit the YAML, not this file. -->\n"
    )
    if body.startswith("---\n"):  # the comment goes below the front matter, which must come first
        end = body.index("\n---\n", 4) + 1
        body = body[:end] + describe.head_fields(meta) + body[end : end + 4] + header + body[end + 4 :]
    else:
        body = header + body
    return body.encode("utf-8")


def write_changed(files: dict[str, bytes], docs_dir: Path, gone: list[str] | None = None) -> list[str]:
    """Write files whose bytes differ, remove stale ones; return the paths written.

    `gone`: the stale paths, when the caller knows them (live preview, which then passes only the
    files its stamps cannot vouch for); otherwise docs_dir is scanned for them."""
    docs_dir.mkdir(parents=True, exist_ok=True)
    # Not flushed to disk one by one: the Markdown is rebuilt from content/ by every run.
    written = [rel for rel, data in sorted(files.items()) if write_atomic(docs_dir / rel, data, sync=False)]
    if gone is not None:
        for rel in sorted(gone, reverse=True):
            path = docs_dir / rel
            path.unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # folders the file was alone in
                for folder in path.relative_to(docs_dir).parents[:-1]:
                    (docs_dir / folder).rmdir()
        return written
    for existing in sorted(docs_dir.rglob("*"), reverse=True):
        rel = existing.relative_to(docs_dir).as_posix()
        if existing.is_file() and rel not in files:
            existing.unlink()
        elif existing.is_dir() and not any(existing.iterdir()):
            existing.rmdir()
    return written
