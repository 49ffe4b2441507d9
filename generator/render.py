"""Render stage: one Jinja Environment, one template per page kind, Markdown into a folder.

Pages are written only when their bytes change (so `mkdocs serve` does not rebuild in loops
and unchanged pages keep their mtime), and files in the folder that no page produces any
more are removed.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from markupsafe import Markup

from . import rawhtml, textfilters, urls
from .enrich import CHANGE_LABELS, release_date_text
from .model import CHANGE_KINDS, SECTION_TITLES, UPGRADE_GROUPS, Site
from .pages import ROOT, pages

TEMPLATES = ROOT / "templates"
ASSETS = TEMPLATES / "assets"


@functools.cache
def environment() -> jinja2.Environment:
    """The one Jinja environment: strict, escaping every data value by default.

    Built once per process, so templates compile once; auto_reload recompiles only a
    template whose file changed (live preview)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
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
        url=textfilters.url,
        num=lambda n: f"{n:,}",
        frontmatter=textfilters.frontmatter,
        date=release_date_text,
        pr_url=lambda n: textfilters.url(urls.pr(n)),
        tojson_attr=lambda v: textfilters.text(json.dumps(v, sort_keys=True, separators=(",", ":"))),
    )
    env.globals.update(
        upgrade_groups=UPGRADE_GROUPS,
        change_label=CHANGE_LABELS,
        change_kind=CHANGE_KINDS,
        section_title=SECTION_TITLES,
        urls=urls,
    )
    return env


_MISSING = object()


class SiteReads:
    """The site as a template sees it: every attribute it reads (and, for the dict-valued
    indexes such as `feature_by_id`, every key it looks up) is recorded in `reads`, as paths
    `Reads.value` resolves. A page's dependencies are then what it read plus its view."""

    __slots__ = ("_site", "reads")

    def __init__(self, site: Site):
        self._site = site
        self.reads: set[tuple] = {("versions",)}  # every page gets the `versions` helper

    def __getattr__(self, name: str):
        value = getattr(self._site, name)
        if isinstance(value, dict):
            return _KeyReads(self.reads, name, value)
        if name == "content":  # the raw registries: record which one
            return _AttrReads(self.reads, name, value)
        self.reads.add((name,))
        return value


class _KeyReads:
    """A dict of the site: a lookup records its key; anything that sees every key records all."""

    __slots__ = ("_reads", "_name", "_data")

    def __init__(self, reads: set, name: str, data: dict):
        self._reads, self._name, self._data = reads, name, data

    def __getitem__(self, key):
        self._reads.add((self._name, "key", key))
        return self._data[key]

    def get(self, key, default=None):
        self._reads.add((self._name, "key", key))
        return self._data.get(key, default)

    def __contains__(self, key) -> bool:
        self._reads.add((self._name, "key", key))
        return key in self._data

    def _all(self) -> dict:
        self._reads.add((self._name,))
        return self._data

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def keys(self):
        return self._all().keys()

    def values(self):
        return self._all().values()

    def items(self):
        return self._all().items()


class _AttrReads:
    """A namespace of the site (`content`): an attribute read records its name."""

    __slots__ = ("_reads", "_name", "_data")

    def __init__(self, reads: set, name: str, data):
        self._reads, self._name, self._data = reads, name, data

    def __getattr__(self, attr: str):
        self._reads.add((self._name, "attr", attr))
        return getattr(self._data, attr)


class Reads:
    """Whether what a page read is the same in two models. Values compare by value (the model is
    frozen dataclasses); an object shared by many pages (a release, a view) is compared once."""

    def __init__(self, old: Site, new: Site):
        self._old, self._new = old, new
        self._same: dict[tuple, bool] = {}
        self._paths: dict[tuple, bool] = {}

    def same(self, old, new) -> bool:
        """old == new, memoised on the two objects' identities (both models outlive the render)."""
        if old is new:
            return True
        key = (id(old), id(new))
        if key not in self._same:
            self._same[key] = old == new
        return self._same[key]

    def same_context(self, old: dict, new: dict) -> bool:
        return old.keys() == new.keys() and all(self.same(old[k], new[k]) for k in new)

    def same_reads(self, paths) -> bool:
        """True if every recorded path has the same value in both models."""
        for path in paths:
            if path not in self._paths:
                self._paths[path] = self.same(value(self._old, path), value(self._new, path))
            if not self._paths[path]:
                return False
        return True


def value(site: Site, path: tuple):
    """The part of the site a recorded read names: (name,), (name, "key", key) or (name, "attr", attr)."""
    data = getattr(site, path[0])
    if len(path) == 1:
        return data
    if path[1] == "key":
        return data.get(path[2], _MISSING)
    return getattr(data, path[2], _MISSING)


@dataclass
class Rendered:
    """One render of the site: every file's bytes, and what each page and API file was built
    from (its view or inputs, and the parts of the site it read), for the next render to reuse."""

    site: Site
    files: dict[str, bytes]
    built_from: dict[str, tuple[dict, frozenset]] = field(default_factory=dict)
    fresh: list[str] = field(default_factory=list)  # pages and API files rendered, not kept

    def reusable(self, reads: Reads | None, path: str, context: dict) -> frozenset | None:
        """The recorded reads of `path` if its previous bytes hold for `context`, else None."""
        if reads is None or path not in self.built_from:
            return None
        old_context, paths = self.built_from[path]
        if reads.same_context(old_context, context) and reads.same_reads(paths):
            return paths
        return None


def render_all(site: Site, site_url: str = "http://127.0.0.1:8000/", env: jinja2.Environment | None = None) -> dict:
    """Every page, API file and feed as bytes, keyed by its path under docs/."""
    return render_site(site, site_url, env).files


def render_site(
    site: Site,
    site_url: str = "http://127.0.0.1:8000/",
    env: jinja2.Environment | None = None,
    previous: Rendered | None = None,
) -> Rendered:
    """Render every page, API file and feed. With `previous` (the last render, same templates
    and site URL), a page whose view and recorded reads of the site are unchanged keeps its
    previous bytes instead of being rendered again."""
    from .api import render_api
    from .feeds import render_feeds

    env = env or environment()
    base = site_url if site_url.endswith("/") else site_url + "/"
    out = Rendered(site, {})
    reads = Reads(previous.site, site) if previous is not None else None
    versions = frozenset(site.versions)

    for page in pages(site):
        path = urls.source(page.url)
        kept = previous.reusable(reads, path, page.context) if previous is not None else None
        if kept is not None and path in previous.files:
            out.files[path] = previous.files[path]
            out.built_from[path] = (page.context, kept)
            continue
        recorder = SiteReads(site)
        helpers = {
            "link": lambda target, _u=page.url: Markup(urls.md_link(_u, target)),
            "href": lambda target, _u=page.url: Markup(urls.relative(_u, target)),
            "versions": versions,
        }
        body = env.get_template(page.template).render(site=recorder, page=page, **helpers, **page.context)
        header = f"<!-- Generated by `python -m generator build` from content/{page.source}; edit the YAML, not this file. -->\n"
        if body.startswith("---\n"):  # the comment goes below the front matter, which must come first
            end = body.index("\n---\n", 4) + 5
            body = body[:end] + header + body[end:]
        else:
            body = header + body
        out.files[path] = body.encode("utf-8")
        out.built_from[path] = (page.context, frozenset(recorder.reads))
        out.fresh.append(path)
    for path, (inputs, make) in render_api(site, base).items():
        context = {"inputs": inputs}
        if previous is not None and path in previous.files and previous.reusable(reads, path, context) is not None:
            out.files[path] = previous.files[path]
        else:
            out.files[path] = make(*inputs)
            out.fresh.append(path)
        out.built_from[path] = (context, frozenset())
    out.files.update(render_feeds(site, base))
    for asset in sorted(ASSETS.rglob("*")):
        if asset.is_file():
            out.files[f"assets/{asset.relative_to(ASSETS).as_posix()}"] = asset.read_bytes()
    return out


def write_changed(files: dict[str, bytes], docs_dir: Path) -> list[str]:
    """Write files whose bytes differ, remove stale ones; return the paths written."""
    docs_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for rel, data in sorted(files.items()):
        target = docs_dir / rel
        try:
            if target.read_bytes() == data:
                continue
        except OSError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(target)
        written.append(rel)
    for existing in sorted(docs_dir.rglob("*"), reverse=True):
        rel = existing.relative_to(docs_dir).as_posix()
        if existing.is_file() and rel not in files:
            existing.unlink()
        elif existing.is_dir() and not any(existing.iterdir()):
            existing.rmdir()
    return written
