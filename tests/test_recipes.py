"""The README's recipes hold, each carried out in a copy of the repository on the fixture content,
touching only the files the recipe names: "Recipe: add a field to a release page" builds a site
that shows the new field, and `check` refuses a wrong value of it at its line; "Recipe: add a page
kind" renders a page of the new kind at its URL, and the golden test asks for its golden page."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from tests.conftest import FIXTURE, ROOT, run_cli

URL = "https://example.org/known-issues/2.8"


def _recipe(title: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split(f"### Recipe: {title}", 1)[1].split("\n### ", 1)[0]


def _copy(repo: Path) -> None:
    """The repository's code, templates and site configuration, and the fixture content (in
    content/, the folder the CLI reads by default; the build is given --manifest, so it holds
    no promise of the real site's URLs)."""
    for name in ("generator", "templates"):
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", repo / "mkdocs.yml")
    shutil.copytree(FIXTURE, repo / "content")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path}: the recipe's anchor {old!r} is not there once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _follow_the_field_recipe(repo: Path) -> list[str]:
    """The recipe's steps 1-4, as the README words them; returns the files touched."""
    schema_path = repo / "generator" / "schemas" / "release.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["properties"]["known_issues"] = {"$ref": "#/$defs/url", "description": "The release's known issues."}
    schema_path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    model = repo / "generator" / "model" / "content.py"
    next_field = "    next: NextRelease | None = None  # the newest release only: the next one by the cadence\n"
    _edit(model, next_field, next_field + "    known_issues: str | None = None  # its known issues, where listed\n")
    template = repo / "templates" / "release.md.j2"
    summary = "<p>{{ release.summary|rich }}</p>\n"
    shown = '{% if release.known_issues %}<p><a href="{{ release.known_issues|url }}">Known issues</a></p>{% endif %}\n'
    _edit(template, summary, summary + shown)
    release = repo / "content" / "releases" / "2.8.yaml"
    _edit(
        release,
        "summary: The second fixture release.\n",
        f"summary: The second fixture release.\nknown_issues: {URL}\n",
    )
    return [str(p.relative_to(repo)) for p in (schema_path, model, template, release)]


def test_the_add_a_field_recipe_builds_a_page_that_shows_the_field(tmp_path):
    repo = tmp_path / "repo"
    _copy(repo)
    touched = _follow_the_field_recipe(repo)
    recipe = _recipe("add a field to a release page")
    for path in touched[:3]:
        assert f"`{path}`" in recipe, f"the recipe does not name {path}"
    assert "releases/2.8.yaml" in recipe and "Four files" in recipe
    manifest = str(tmp_path / "urls.txt")
    proc = run_cli(
        "build", "--content", "content", "--site", "site", "--docs", "docs", "--manifest", manifest, cwd=repo
    )
    assert proc.returncode == 0, proc.stderr
    page = (repo / "site" / "releases" / "2.8" / "index.html").read_text(encoding="utf-8")
    assert f'<a href="{URL}">Known issues</a>' in page
    assert URL not in (repo / "site" / "releases" / "2.7" / "index.html").read_text(encoding="utf-8")
    # Step 1's schema refuses a value that is no URL, at its line.
    _edit(repo / "content" / "releases" / "2.8.yaml", f"known_issues: {URL}", "known_issues: not a link")
    proc = run_cli("check", "--content", "content", cwd=repo)
    assert proc.returncode == 1
    assert re.search(r"releases/2\.8\.yaml:\d+:\d+: known_issues", proc.stdout + proc.stderr), proc.stdout + proc.stderr


AREA_TEMPLATE = """{#- /areas/<id>/: one area's features. Context: site, area (model.Area), features. -#}
---
title: {{ page.title|frontmatter }}
description: {{ page.description|frontmatter }}
---

# {{ area.name }}

{% for f in features %}
- [{{ f.title }}]({{ link(urls.feature(f.id)) }})
{% endfor %}
"""

# Renders the copy's fixture with the copy's code (run with the copy as the working folder), and
# says which pages of the new kind it made and which page the golden test picks for the kind.
RENDER = """
import json, sys
from pathlib import Path
from generator.model import urls
from generator.pipeline.build import site_model
from generator.render.render import render_all
sys.path.append(sys.argv[1])  # the tests (the copy has none); its own code first
from tests.test_render import PAGES, TAGGED_PAGES, first_of_each_kind
site = site_model(Path("content"))
files = render_all(site)
areas = [p for p in site.pages if p.template == "area.md.j2"]
print(json.dumps({
    "pages": {urls.source(p.url): files[urls.source(p.url)].decode() for p in areas},
    "golden": first_of_each_kind(site.pages, PAGES + TAGGED_PAGES),
}))
"""


def _follow_the_page_kind_recipe(repo: Path) -> list[str]:
    """The recipe's steps 1-3, as the README words them; returns the files touched."""
    url_module = repo / "generator" / "model" / "urls.py"
    backend = "def backend(backend_id: str) -> str:\n"
    _edit(url_module, backend, f'def area(area_id: str) -> str:\n    return f"areas/{{area_id}}/"\n\n\n{backend}')
    page_list = repo / "generator" / "pages" / "pagelist.py"
    _edit(
        page_list,
        "        *_backend_pages(site),\n    ]",
        "        *_backend_pages(site),\n        *_area_pages(site),\n    ]",
    )
    area_pages = (
        "def _area_pages(site: Site) -> Iterator[Page]:\n"
        "    for area, group in site.features_by_area:\n"
        "        yield Page(urls.area(area.id), 'area.md.j2', area.name, f'Every PyTorch 2.x feature in {area.name}.',\n"
        "                   {'area': area, 'features': group}, 'areas.yaml, releases/*.yaml')\n\n\n"
    )
    _edit(page_list, "def benchmark() -> Markup:", area_pages + "def benchmark() -> Markup:")
    template = repo / "templates" / "area.md.j2"
    template.write_text(AREA_TEMPLATE, encoding="utf-8")
    return [str(p.relative_to(repo)) for p in (url_module, page_list, template)]


def test_the_add_a_page_kind_recipe_renders_a_page_of_the_new_kind(tmp_path):
    repo = tmp_path / "repo"
    _copy(repo)
    touched = _follow_the_page_kind_recipe(repo)
    recipe = _recipe("add a page kind")
    for path in touched:
        assert f"`{path}`" in recipe, f"the recipe does not name {path}"
    assert "Five files" in recipe
    proc = run_cli(str(ROOT), via=("-c", RENDER), cwd=repo)
    assert proc.returncode == 0, proc.stderr
    made = json.loads(proc.stdout)
    compiler = made["pages"]["areas/compiler/index.md"]
    assert "# Compiler" in compiler and "[Widget compiler](../../features/widget-compiler/index.md)" in compiler
    assert sorted(made["pages"]) == ["areas/compiler/index.md", "areas/packaging/index.md"]
    # Step 4: the golden test (tests/test_render.py) picks a page of the new kind by itself.
    assert made["golden"] == ["areas/compiler/index.md"]
