"""One table per concept: each is defined once in Python (generator.model.content, generator.model.urls), and
every copy that must remain elsewhere — the JSON Schemas editors read, the API's schema, the
notes parser's headings, mkdocs.yml's nav, what the browser scripts read — is pinned to it here.
A failure names the copy that drifted."""

from __future__ import annotations

import json
import re

import yaml

from generator.load import schema
from generator.model import urls
from generator.model.content import (
    BREAKING_GROUPS,
    CHANGE_KINDS,
    CHANGE_LABELS,
    HAND_WRITTEN,
    SECTIONS,
    UPGRADE_GROUPS,
    Change,
)
from generator.notes import parser as _notes_parser
from generator.search import records as search
from tests.conftest import ROOT

ASSETS = ROOT / "templates" / "assets"


def on_disk(kind: str) -> dict:
    return json.loads((schema.SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))


def change_item(doc: dict) -> dict:
    return doc["properties"]["changes"]["items"]["properties"]


def test_sections_are_the_sections_table_in_the_schema_and_the_notes_parser():
    assert change_item(on_disk("changes"))["section"]["enum"] == [s.id for s in SECTIONS]
    assert change_item(schema.validator("changes").schema)["section"]["enum"] == [s.id for s in SECTIONS]
    # Every heading the table names is one the importer knows, and nothing else but Highlights.
    headings = {h: s.id for s in SECTIONS for h in s.headings}
    assert _notes_parser.SECTIONS == {"highlights": None, **headings}
    assert _notes_parser.SECTIONS[_notes_parser.section_key("**Bug Fixes:** 🐛")] == "bug-fixes"


def test_kinds_are_the_kinds_table_in_both_schemas_and_the_guide_reads_them_from_the_page():
    assert change_item(on_disk("changes"))["kind"]["enum"] == list(CHANGE_KINDS)
    assert change_item(schema.validator("changes").schema)["kind"]["enum"] == list(CHANGE_KINDS)
    api = on_disk("api")["$defs"]["change"]["properties"]
    assert api["kind"]["enum"] == [*CHANGE_KINDS, None]
    js = (ASSETS / "atlas-upgrade.js").read_text(encoding="utf-8")
    assert "no-action" not in js and 'atlas.data(q.form, "kinds", {})' in js
    template = (ROOT / "templates" / "upgrade.md.j2").read_text(encoding="utf-8")
    assert 'data-kinds="{{ change_kind|tojson_attr }}"' in template


def test_entry_change_labels_are_the_labels_table_in_both_schemas_and_the_pages_read_them():
    release = on_disk("release")
    assert release["$defs"]["feature"]["properties"]["change"]["enum"] == list(CHANGE_LABELS)
    assert schema.validator("release").schema["$defs"]["feature"]["properties"]["change"]["enum"] == list(CHANGE_LABELS)
    assert on_disk("api")["$defs"]["entry"]["properties"]["change"]["enum"] == list(CHANGE_LABELS)
    for page in ("compare.md.j2", "upgrade.md.j2"):
        assert 'data-labels="{{ change_label|tojson_attr }}"' in (ROOT / "templates" / page).read_text()
    for script in ASSETS.glob("atlas-*.js"):
        assert "Partly removed" not in script.read_text(encoding="utf-8"), script.name


def test_upgrade_groups_are_the_groups_table_in_the_api_schema_and_the_scripts_read_them():
    api = on_disk("api")["$defs"]
    ids = [g for g, _ in UPGRADE_GROUPS]
    assert api["entry"]["properties"]["group"]["enum"] == ["", *ids]
    # A change is never in the group of new features and promotions: entries are.
    assert api["change"]["properties"]["group"]["enum"] == ["", *ids[:-1]]
    assert set(BREAKING_GROUPS) < set(ids)
    for script in ASSETS.glob("atlas-*.js"):
        text = script.read_text(encoding="utf-8")
        assert "Default and behaviour changes" not in text and '"known-issues"' not in text, script.name


def test_hand_written_fields_are_the_ones_the_schema_marks_and_the_model_holds():
    props = change_item(on_disk("changes"))
    marked = {k for k, v in props.items() if v.get("description", "").startswith("Hand-written")}
    assert marked | {"anchors"} == set(HAND_WRITTEN)  # anchors: written by hand or kept by the importer
    fields = set(Change.__dataclass_fields__)
    assert {"backends_override" if f == "backends" else f for f in HAND_WRITTEN} <= fields


def test_the_sites_section_pages_are_the_navs_tabs_and_the_search_words_name_them():
    nav = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)["nav"]
    by_source = {urls.source(url): url for url in (*search.SECTION_PAGES, urls.HOME)}
    tabs = {by_source[target]: title for item in nav for title, target in item.items()}
    for url, words in search.SECTION_PAGES.items():
        if url in tabs:
            assert words[0] == tabs[url], url
    # Every tab is a page of the site's page list, reached by search under its tab's title.
    assert set(tabs) <= set(search.SECTION_PAGES) | {urls.HOME}


def test_the_theme_overrides_link_the_paths_urls_py_owns():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    assert config["extra"]["atlas"] == {
        "feed": urls.FEED,
        "no_script_search": urls.FEATURES,
        "search": urls.SEARCH,
        "calendar": urls.CALENDAR,
        "coverage": urls.at(urls.RELEASES, urls.COVERAGE),
        "sitemap_parts": list(urls.SITEMAP_PARTS),
    }
    overrides = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "templates" / "overrides").rglob("*.html"))
    assert "feed.xml" not in overrides and "features/" not in overrides


def test_the_default_site_address_is_the_one_urls_py_gives_mkdocs_yml():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f'site_url: !ENV [SITE_URL, "{urls.DEFAULT_SITE_URL}"]' in config


def test_the_vocabularies_of_the_schemas_are_those_of_tiers_yaml():
    tiers = yaml.safe_load((ROOT / "content" / "tiers.yaml").read_text(encoding="utf-8"))
    vocabularies = [v["id"] for v in tiers["vocabularies"]]
    assert on_disk("release")["properties"]["tier_vocabulary"]["enum"] == vocabularies
    assert on_disk("api")["$defs"]["release_summary"]["properties"]["tier_vocabulary"]["enum"] == vocabularies
    assert all(re.fullmatch(r"[A-Z]", t["abbr"]) for t in tiers["tiers"])
