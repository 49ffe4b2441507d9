"""Render stage: one Jinja Environment, one template per page kind, Markdown into a folder.

Pages are written only when their bytes change (so `mkdocs serve` does not rebuild in loops
and unchanged pages keep their mtime), and files in the folder that no page produces any
more are removed.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import jinja2
from markupsafe import Markup

from . import textfilters, urls
from .enrich import BREAKING_GROUPS, CHANGE_LABELS, home, release_date_text
from .model import ALL, CHANGE_KINDS, SECTION_TITLES, SYMBOL_INDEX, UPGRADE_GROUPS, Site, parts, symbol_part

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
ASSETS = TEMPLATES / "assets"


@dataclass(frozen=True)
class Page:
    """A generated page: its URL (from generator.urls) and the template that renders it."""

    url: str  # e.g. "releases/2.12/"; its source under docs/ is urls.source(url)
    template: str
    context: dict
    source: str  # content file(s) it came from, named in a comment at the top
    inputs: frozenset = ALL  # the parts of content it shows ("*": all); see `parts`


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
        url=textfilters.url,
        num=lambda n: f"{n:,}",
        frontmatter=textfilters.frontmatter,
        date=release_date_text,
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
    )
    return env


def pages(site: Site) -> list[Page]:
    """Every page of the site, with its template, context (each page gets its own view) and the
    parts of content it shows."""
    every = site.versions
    out = [
        Page(
            urls.HOME,
            "home.md.j2",
            {"view": site.release_views[site.latest.version], "home": home(site)},
            "releases/*.yaml, changes/*.yaml",
        ),
        Page(urls.RELEASES, "releases.md.j2", {}, "releases/*.yaml", parts(every, release=True, entries=True)),
        Page(urls.FEATURES, "features.md.j2", {}, "releases/*.yaml", parts(every, entries=True)),
        Page(urls.BACKENDS, "backends.md.j2", {}, "backends.yaml", parts(every, entries=True, changes=True)),
        Page(urls.TIERS, "tiers.md.j2", {}, "tiers.yaml", parts(every, entries=True)),
        Page(urls.CONTRIBUTORS, "contributors.md.j2", {}, "releases/*.yaml", parts(every, release=True, entries=True)),
        Page(urls.COMPATIBILITY, "compatibility.md.j2", {}, "releases/*.yaml", parts(every, release=True)),
        Page(urls.TIMELINE, "timeline.md.j2", {}, "releases/*.yaml", parts(every, entries=True)),
        Page(urls.COMPARE, "compare.md.j2", {}, "releases/*.yaml, changes/*.yaml"),
        Page(
            urls.UPGRADE,
            "upgrade.md.j2",
            {},
            "releases/*.yaml, changes/*.yaml",
            parts(every, release=True, changes=True),
        ),
        Page(
            urls.UPGRADE_DEFAULTS,
            "defaults.md.j2",
            {},
            "changes/*.yaml",
            parts(every, release=True, changes=True),
        ),
        Page(
            urls.DEPRECATIONS,
            "deprecations.md.j2",
            {},
            "releases/*.yaml, changes/*.yaml",
            parts(every, entries=True, changes=True),
        ),
        Page(urls.API_PAGE, "api.md.j2", {}, "releases/*.yaml"),
        Page(urls.SPEED, "speed.md.j2", {"report": _benchmark()}, "../generator/benchmark.md (make bench)"),
        Page(
            urls.SEARCH, "search.md.j2", {}, "releases/*.yaml, changes/*.yaml", parts(every, release=True, changes=True)
        ),
    ]
    out.append(Page(urls.SYMBOLS, "symbols.md.j2", {}, "releases/*.yaml, changes/*.yaml", frozenset({SYMBOL_INDEX})))
    for module in site.symbol_pages.values():
        out.append(
            Page(
                urls.symbol_page(module.name),
                "symbol_module.md.j2",
                {"module": module},
                "releases/*.yaml, changes/*.yaml",
                frozenset({symbol_part(module.name)}),
            )
        )
    for release in site.releases:
        source = release.source_file + (f", changes/{release.version}.yaml" if release.changes else "")
        # Its entries name their features' titles and release counts, which other releases decide.
        mentioned = {e.release for entry in release.entries for e in site.feature_by_id[entry.id].entries}
        view = site.release_views[release.version]
        out.append(
            Page(
                urls.release(release.version),
                "release.md.j2",
                {"release": release, "view": view},
                source,
                parts([release.version], release=True, changes=True) | parts(mentioned, entries=True),
            )
        )
    for feature in site.features:
        if feature.id in site.family_by_id:
            continue  # its family page tells its story
        inputs = parts([e.release for e in feature.entries], entries=True) | {f"feature:{feature.id}"}
        if site.catalogue_by_id[feature.id].support:  # its removal follows the compatibility rows
            inputs |= parts(every, release=True)
        context = {"feature": feature, "changes": site.feature_changes.get(feature.id, ())}
        source = "features/*.yaml, releases/*.yaml, changes/*.yaml"
        out.append(Page(urls.feature(feature.id), "feature.md.j2", context, source, inputs))
    for family in site.families:
        inputs = parts(every, entries=True) | {f"feature:{fid}" for fid in family.ids}
        source = f"{family.node.source_file}, releases/*.yaml, changes/*.yaml"
        out.append(Page(urls.feature(family.node.id), "family.md.j2", {"family": family}, source, inputs))
    for view in site.backend_views:
        out.append(
            Page(
                urls.backend(view.backend.id),
                "backend.md.j2",
                {"view": view},
                "backends.yaml, releases/*.yaml",
                parts(every, entries=True, changes=True),
            )
        )
        for release, views in view.changes_by_release:
            out.append(
                Page(
                    urls.backend_changes(view.backend.id, release.version),
                    "backend_changes.md.j2",
                    {"view": view, "release": release, "views": views},
                    f"backends.yaml, changes/{release.version}.yaml",
                    parts([release.version], release=True, changes=True),
                )
            )
    return out


def coverage(site: Site) -> str:
    """The releases whose change lists the site holds, in words: "2.5–2.14", or "none"."""
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


BENCHMARK = ROOT / "generator" / "benchmark.md"


def _benchmark() -> Markup:
    """The published benchmark report (our own Markdown, written by `make bench`)."""
    if BENCHMARK.exists():
        return Markup(BENCHMARK.read_text(encoding="utf-8"))
    return Markup("# How fast is it\n\nNo benchmark has been published yet: run `make bench`.\n")


def render_all(
    site: Site,
    site_url: str = "http://127.0.0.1:8000/",
    env: jinja2.Environment | None = None,
    previous: dict[str, bytes] | None = None,
    changed: frozenset | None = None,
) -> dict[str, bytes]:
    """Render every page, API file and feed to bytes, keyed by its path under docs/.

    With `previous` (the last output) and `changed` (the content files edited since), a page or
    file whose inputs are all unchanged keeps its previous bytes instead of being rendered again.
    """
    from .api import render_api
    from .feeds import render_feeds

    env = env or environment()
    base = site_url if site_url.endswith("/") else site_url + "/"
    rendered = {}
    versions = frozenset(site.versions)

    def reusable(path: str, inputs: frozenset) -> bool:
        return (
            previous is not None
            and changed is not None
            and path in previous
            and "*" not in inputs
            and not inputs & changed
        )

    for page in pages(site):
        path = urls.source(page.url)
        if reusable(path, page.inputs):
            rendered[path] = previous[path]
            continue
        template = env.get_template(page.template)
        helpers = {
            "link": lambda target, _u=page.url: Markup(urls.md_link(_u, target)),
            "href": lambda target, _u=page.url: Markup(urls.relative(_u, target)),
            "versions": versions,
        }
        body = template.render(site=site, page=page, **helpers, **page.context)
        header = f"<!-- Generated by `python -m generator build` from content/{page.source}; edit the YAML, not this file. -->\n"
        if body.startswith("---\n"):  # the comment goes below the front matter, which must come first
            end = body.index("\n---\n", 4) + 5
            body = body[:end] + header + body[end:]
        else:
            body = header + body
        rendered[path] = body.encode("utf-8")
    for path, (inputs, make) in render_api(site, base).items():
        rendered[path] = previous[path] if reusable(path, inputs) else make()
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
