"""JSON API, Atom feeds, the published-URL guard, alias redirects and sub-path hosting."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema

from generator.render.api import SCHEMA
from tests.conftest import FIXTURE, REAL_RELEASES, RealBuild, run_cli
from tests.crawl import broken_links

ATOM = "{http://www.w3.org/2005/Atom}"


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]}, format_checker=jsonschema.FormatChecker()
    )


def to_file(site: Path, url: str, base: str) -> Path:
    """The file of `site` (built for `base`) that an absolute URL of it opens."""
    assert url.startswith(base), url
    rel = urlsplit(url).path[len(urlsplit(base).path) :]
    return site / rel / "index.html" if rel == "" or rel.endswith("/") else site / rel


def test_every_api_file_validates_against_the_schema(real_build: RealBuild):
    real_site = real_build.site
    api = real_site / "api/v1"
    index = json.loads((api / "releases.json").read_text())
    validator("releases_index").validate(index)
    assert [r["version"] for r in index["releases"]] == REAL_RELEASES[::-1]
    for release in index["releases"]:
        data = json.loads((api / "releases" / f"{release['version']}.json").read_text())
        validator("release").validate(data)
        assert to_file(real_site, release["url"], real_build.url).exists()
    features = json.loads((api / "features.json").read_text())
    validator("features_index").validate(features)
    compile_ = next(f for f in features["features"] if f["id"] == "torch-compile")
    assert compile_["lifecycle"][0]["release"] == "2.0"
    backends = sorted((api / "backends").glob("*.json"))
    assert {b.stem for b in backends} >= {"cuda", "rocm", "mps", "xpu", "cpu", "distributed"}
    for path in backends:
        validator("backend").validate(json.loads(path.read_text()))
    assert (api / "schema.json").read_bytes() == SCHEMA.read_bytes()


def test_feeds_parse_and_their_links_resolve(real_build: RealBuild):
    real_site = real_build.site
    feeds = [real_site / "feed.xml"] + sorted((real_site / "backends").glob("*/feed.xml"))
    assert len(feeds) >= 7
    for feed in feeds:
        root = ET.parse(feed).getroot()
        assert root.tag == f"{ATOM}feed"
        for required in ("id", "title", "updated"):
            assert root.find(f"{ATOM}{required}") is not None
        entries = root.findall(f"{ATOM}entry")
        if feed.parent == real_site:
            titles = [e.find(f"{ATOM}title").text for e in entries]
            # Each release, newest first, and 2.14.1 (2026-09-30: its notes are at hand) before 2.14.
            assert titles == ["PyTorch 2.14.1", *(f"PyTorch {v}" for v in REAL_RELEASES[::-1])]
        for link in root.iter(f"{ATOM}link"):
            href = link.get("href")
            assert to_file(real_site, href.split("#")[0], real_build.url).exists(), (feed, href)
    home = (real_site / "index.html").read_text()
    assert 'type="application/atom+xml"' in home and "feed.xml" in home


def build_fixture(content: Path, out: Path, manifest: Path, **env: str) -> subprocess.CompletedProcess:
    """python -m generator build on a fixture, guarding the given manifest."""
    args = ["--content", str(content), "--site", str(out / "site"), "--docs", str(out / "docs")]
    return run_cli("build", *args, "--manifest", str(manifest), env=env)


def test_manifest_guard_fails_when_a_published_page_disappears(content_copy, tmp_path):
    manifest = tmp_path / "urls.txt"
    first = build_fixture(content_copy, tmp_path, manifest)
    assert first.returncode == 0, first.stderr
    urls = manifest.read_text().splitlines()
    assert "features/mesh/" in urls and "releases/2.8/#mesh" in urls and "releases/2.8/#pr-301" in urls
    release = content_copy / "releases/2.8.yaml"
    text = release.read_text()
    release.write_text(text[: text.index("  - id: mesh")])
    catalogue = content_copy / "features/fixture.yaml"
    text = catalogue.read_text()
    catalogue.write_text(text[: text.index("  - id: mesh")])
    before = sorted(p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file())
    second = build_fixture(content_copy, tmp_path, manifest)
    assert second.returncode == 1
    assert "published URL /features/mesh/ would disappear" in second.stderr
    assert "Traceback" not in second.stderr
    assert sorted(p.read_bytes() for p in (tmp_path / "site").rglob("*") if p.is_file()) == before


def test_renamed_feature_redirects_from_its_old_id(content_copy, tmp_path):
    manifest = tmp_path / "urls.txt"
    assert build_fixture(content_copy, tmp_path, manifest).returncode == 0
    release = content_copy / "releases/2.8.yaml"
    release.write_text(release.read_text().replace("  - id: mesh\n", "  - id: device-mesh\n    aliases: [mesh]\n"))
    catalogue = content_copy / "features/fixture.yaml"
    catalogue.write_text(catalogue.read_text().replace("  - id: mesh\n", "  - id: device-mesh\n    aliases: [mesh]\n"))
    rebuilt = build_fixture(content_copy, tmp_path, manifest)
    assert rebuilt.returncode == 0, rebuilt.stderr
    redirect = (tmp_path / "site/features/mesh/index.html").read_text()
    assert "../device-mesh/" in redirect and "window.location.hash" in redirect
    assert 'id="mesh"' in (tmp_path / "site/releases/2.8/index.html").read_text()


def test_sub_path_hosting(tmp_path):
    base = "http://wiki.example.test/atlas/"
    proc = build_fixture(FIXTURE, tmp_path, tmp_path / "urls.txt", SITE_URL=base)
    assert proc.returncode == 0, proc.stderr
    site = tmp_path / "site"
    assert broken_links(site, base=base) == []
    loc = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
    parts = [e.text for e in ET.parse(site / "sitemap.xml").getroot().iter(loc)]  # the index
    assert parts and all(part.startswith(base + "sitemaps/") for part in parts)
    locs = [e.text for part in parts for e in ET.parse(to_file(site, part, base)).getroot().iter(loc)]
    assert locs and all(loc.startswith(base) for loc in locs)
    for page in locs:
        assert to_file(site, page, base).exists(), page
    feed = ET.parse(site / "feed.xml").getroot()
    for link in feed.iter(f"{ATOM}link"):
        assert to_file(site, link.get("href").split("#")[0], base).exists()
    api = json.loads((site / "api/v1/releases.json").read_text())
    assert all(r["url"].startswith(base) for r in api["releases"])


def test_sub_path_hosting_over_http(tmp_path):
    """Served under /atlas/ by a plain static server, every link of a few pages answers 200."""
    import urllib.request
    from urllib.parse import urljoin

    from tests.browser import serve
    from tests.crawl import _Page

    root = tmp_path / "root"
    root.mkdir()
    holder = {}

    def build(url: str) -> None:
        holder["base"] = url + "atlas/"
        args = ["--content", str(FIXTURE), "--site", str(root / "atlas"), "--docs", str(tmp_path / "docs")]
        proc = run_cli("build", *args, "--manifest", str(tmp_path / "urls.txt"), env={"SITE_URL": holder["base"]})
        assert proc.returncode == 0, proc.stderr

    with serve(root, build=build) as _:
        base = holder["base"]
        checked = set()
        for path in ("", "releases/2.8/", "backends/cuda/", "features/widget-compiler/", "compare/"):
            with urllib.request.urlopen(base + path) as response:
                assert response.status == 200
                page = _Page()
                page.feed(response.read().decode("utf-8"))
            for link in page.links:
                target = urljoin(base + path, link).split("#")[0]
                if target.startswith(base) and target not in checked:
                    checked.add(target)
                    with urllib.request.urlopen(target) as answer:
                        assert answer.status == 200, target
        assert len(checked) > 20
        with urllib.request.urlopen(base + "api/v1/releases.json") as response:
            assert json.loads(response.read())["releases"][0]["url"].startswith(base)


def test_every_feature_ending_carries_its_evidence_and_its_page_links_it(real_build: RealBuild):
    """Each field an ending states (deprecated_in, removal_planned, removed_in, part_removed_in) has
    the URLs it was read from in the API; ours open a built page, and the feature page links each."""
    api, base = real_build.site / "api/v1", real_build.url
    ended = 0
    for path in sorted((api / "features").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        ending = data["ending"]
        if ending is None or data["id"] != path.stem:  # a former id's file repeats its feature's
            continue
        ended += 1
        stated = {f for f in ("deprecated_in", "removal_planned", "removed_in", "part_removed_in") if ending[f]}
        assert set(ending["evidence"]) == stated, data["id"]
        page = to_file(real_build.site, data["url"], base).read_text(encoding="utf-8")
        assert 'class="atlas-evidence"' in page, data["id"]
        for url in (u for cited in ending["evidence"].values() for u in cited):
            if url.startswith(base):  # ours: the page (and anchor) exists, and the feature page links it
                target, _, anchor = url.partition("#")
                opened = to_file(real_build.site, target, base).read_text(encoding="utf-8")
                assert not anchor or f'id="{anchor}"' in opened, url
                assert f'/{url.removeprefix(base)}"' in page, (data["id"], url)
            else:
                assert f'href="{url}"' in page, (data["id"], url)
    assert ended >= 20


SUPPORT_STATED = (
    "feature",
    "releases",
    "last",
    "removed_in",
    "matrix_last",
    "also_in",
    "deprecated_in",
    "removal_planned",
)
"""The fields of a supports.json record that state something: each one with a value has evidence."""


def _opens(real_build: RealBuild, url: str) -> bool:
    """An evidence URL of ours opens a built page holding its anchor."""
    target, _, anchor = url.partition("#")
    path = to_file(real_build.site, target, real_build.url)
    return path.exists() and (not anchor or f'id="{anchor}"' in path.read_text(encoding="utf-8"))


def test_supports_json_validates_and_every_stated_field_links_what_it_rests_on(real_build: RealBuild):
    """/api/v1/supports.json: against the schema; each stated field of a support or an architecture
    has the URLs it was read from, and each of ours opens a built page at its anchor."""
    data = json.loads((real_build.site / "api/v1/supports.json").read_text(encoding="utf-8"))
    validator("supports_index").validate(data)
    assert validator("supports_index").is_valid(data) and not validator("features_index").is_valid(data)
    records = [(r, [f for f in SUPPORT_STATED if r[f]]) for r in data["supports"]]
    records += [(a, [f for f in ("left_builds", "builds") if a[f]]) for a in data["architectures"]]
    assert len(data["supports"]) >= 30 and {a["architecture"] for a in data["architectures"]} >= {"Volta", "Blackwell"}
    ours = set()
    for record, stated in records:
        assert sorted(record["evidence"]) == sorted(stated), record
        ours.update(u for cited in record["evidence"].values() for u in cited if u.startswith(real_build.url))
    assert not [u for u in sorted(ours) if not _opens(real_build, u)]
    assert len(ours) >= 20
    (cuda,) = [r for r in data["supports"] if (r["kind"], r["version"]) == ("cuda", "12.8")]
    assert (cuda["last"], cuda["removed_in"], cuda["removed_by"], cuda["matrix_last"]) == (
        "2.12",
        "2.13",
        "entry",
        "2.11",
    )
    assert real_build.url + "releases/2.11/#compatibility" in cuda["evidence"]["matrix_last"]
    assert real_build.url + "releases/2.13/#cuda-12.8-wheel" in cuda["evidence"]["removed_in"]


def test_the_supports_schema_refuses_what_it_should():
    """Not vacuous: a renamed field, a bad release, an unknown rule and empty evidence fail."""
    from generator.model import urls
    from generator.render import api
    from generator.render.render import drawn
    from tests.conftest import real_model

    parts = api.render_api(real_model(), "https://atlas.example/")
    data = json.loads(drawn({urls.api_supports(): parts[urls.api_supports()]})[urls.api_supports()])
    check = validator("supports_index")
    assert check.is_valid(data)
    one = data["supports"][0]
    arch = data["architectures"][0]
    for broken in (
        {**one, "Last": one["last"]},
        {**one, "releases": ["2.x"]},
        {**one, "removed_by": "guess"},
        {**one, "evidence": {"last": []}},
        {**one, "evidence": {"stop": ["https://atlas.example/"]}},
    ):
        assert not check.is_valid({**data, "supports": [broken]}), broken
    assert not check.is_valid({**data, "architectures": [{**arch, "builds": [{"cuda": "12.6"}]}]})
