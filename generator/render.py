"""Render stage: one Jinja Environment, one template per page kind, Markdown into a folder.

Pages are written only when their bytes change (so `mkdocs serve` does not rebuild in loops
and unchanged pages keep their mtime), and files in the folder that no page produces any
more are removed.
"""

from __future__ import annotations

import functools
import json
import posixpath
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup

from . import textfilters
from .enrich import CHANGE_LABELS, release_date_text
from .model import PR_URL, Site

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
ASSETS = TEMPLATES / "assets"

SECTION_TITLES = {
    "bc-breaking": "Backwards-incompatible changes",
    "deprecations": "Deprecations",
    "new-features": "New features",
    "improvements": "Improvements",
    "bug-fixes": "Bug fixes",
    "performance": "Performance",
    "documentation": "Documentation",
    "developers": "Developers",
    "security": "Security",
    "tracked-regressions": "Tracked regressions",
    "other": "Other",
}


@dataclass(frozen=True)
class Page:
    """A generated page: its path under docs/ and the template that renders it."""

    path: str  # e.g. "releases/2.12.md"
    template: str
    context: dict
    source: str  # content file(s) it came from, named in a comment at the top


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
        blocks=textfilters.blocks,
        url=textfilters.url,
        num=lambda n: f"{n:,}",
        frontmatter=textfilters.frontmatter,
        date=release_date_text,
        pr_url=lambda n: textfilters.url(PR_URL.format(int(n))),
        tojson_attr=lambda v: textfilters.text(json.dumps(v, sort_keys=True, separators=(",", ":"))),
    )
    env.globals.update(change_label=CHANGE_LABELS, section_title=SECTION_TITLES)
    return env


def url_of(path: str) -> str:
    """Directory URL of a page path: 'releases/2.12.md' -> 'releases/2.12/', 'index.md' -> ''."""
    stem = path[: -len(".md")]
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")]
    else:
        stem += "/"
    return stem


def relative(from_page: str, to_page: str) -> str:
    """A relative URL from one page's directory URL to another page's (with an optional #anchor)."""
    target, _, anchor = to_page.partition("#")
    here, there = url_of(from_page), url_of(target) if target else url_of(from_page)
    rel = posixpath.relpath(there or ".", here or ".")
    rel = "./" if rel == "." else rel + "/"
    return rel + (f"#{anchor}" if anchor else "")


def md_link(from_page: str, to_page: str) -> str:
    """A Markdown link target MkDocs can validate: the relative .md path (with #anchor)."""
    target, _, anchor = to_page.partition("#")
    rel = posixpath.relpath(target, posixpath.dirname(from_page) or ".") if target else ""
    return rel + (f"#{anchor}" if anchor else "")


def pages(site: Site) -> list[Page]:
    """Every page of the site, with its template and context."""
    out = [
        Page("index.md", "home.md.j2", {}, "releases/*.yaml"),
        Page("releases/index.md", "releases.md.j2", {}, "releases/*.yaml"),
        Page("features/index.md", "features.md.j2", {}, "releases/*.yaml"),
        Page("backends/index.md", "backends.md.j2", {}, "backends.yaml"),
        Page("tiers/index.md", "tiers.md.j2", {}, "tiers.yaml"),
        Page("contributors/index.md", "contributors.md.j2", {}, "releases/*.yaml"),
        Page("compatibility/index.md", "compatibility.md.j2", {}, "releases/*.yaml"),
        Page("timeline/index.md", "timeline.md.j2", {}, "releases/*.yaml"),
        Page("compare/index.md", "compare.md.j2", {}, "releases/*.yaml, changes/*.yaml"),
        Page("deprecations/index.md", "deprecations.md.j2", {}, "releases/*.yaml"),
        Page("api/index.md", "api.md.j2", {}, "releases/*.yaml"),
        Page("speed/index.md", "speed.md.j2", {"report": _benchmark()}, "../generator/benchmark.md (make bench)"),
    ]
    for release in site.releases:
        source = release.source_file + (f", changes/{release.version}.yaml" if release.changes else "")
        out.append(Page(f"releases/{release.version}.md", "release.md.j2", {"release": release}, source))
    for feature in site.features:
        out.append(Page(f"features/{feature.id}.md", "feature.md.j2", {"feature": feature}, "releases/*.yaml"))
    for view in site.backend_views:
        out.append(Page(f"backends/{view.backend.id}.md", "backend.md.j2", {"view": view}, "backends.yaml, releases/*.yaml"))
        for release, views in view.changes_by_release:
            out.append(
                Page(
                    f"backends/{view.backend.id}/{release.version}.md",
                    "backend_changes.md.j2",
                    {"view": view, "release": release, "views": views},
                    f"backends.yaml, changes/{release.version}.yaml",
                )
            )
    return out


BENCHMARK = ROOT / "generator" / "benchmark.md"


def _benchmark() -> Markup:
    """The published benchmark report (our own Markdown, written by `make bench`)."""
    if BENCHMARK.exists():
        return Markup(BENCHMARK.read_text(encoding="utf-8"))
    return Markup("# How fast is it\n\nNo benchmark has been published yet: run `make bench`.\n")


def render_all(site: Site, site_url: str = "http://127.0.0.1:8000/", env: jinja2.Environment | None = None) -> dict[str, bytes]:
    """Render every page, API file and feed to bytes, keyed by its path under docs/."""
    from .api import render_api
    from .feeds import render_feeds

    env = env or environment()
    base = site_url if site_url.endswith("/") else site_url + "/"
    rendered = {}
    versions = frozenset(r.version for r in site.releases)
    for page in pages(site):
        template = env.get_template(page.template)
        helpers = {
            "link": lambda target, _p=page.path: Markup(md_link(_p, target)),
            "href": lambda target, _p=page.path: Markup(relative(_p, target)),
            "versions": versions,
        }
        body = template.render(site=site, page=page, **helpers, **page.context)
        header = f"<!-- Generated by `python -m generator build` from content/{page.source}; edit the YAML, not this file. -->\n"
        if body.startswith("---\n"):  # the comment goes below the front matter, which must come first
            end = body.index("\n---\n", 4) + 5
            body = body[:end] + header + body[end:]
        else:
            body = header + body
        rendered[page.path] = body.encode("utf-8")
    rendered.update(render_api(site, base))
    rendered.update(render_feeds(site, base))
    for asset in sorted(ASSETS.rglob("*")):
        if asset.is_file():
            rendered[f"assets/{asset.relative_to(ASSETS).as_posix()}"] = asset.read_bytes()
    return rendered


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
