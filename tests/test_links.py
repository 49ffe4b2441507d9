"""Pasted into a wiki or a chat, a link explains itself: page heads, badges, the site card,
citation snippets and the per-feature JSON (issue #24)."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import yaml

from generator.model import urls
from generator.pages import cite
from generator.pages.describe import feature_description
from generator.pipeline import manifest
from generator.pipeline.build import generate, site_model
from generator.render import card
from generator.render.badges import TIER_COLOURS
from tests.conftest import FIXTURE, ROOT, real_model

SVG = "{http://www.w3.org/2000/svg}"
REQUIRED = (
    "description",
    "og:title",
    "og:description",
    "og:url",
    "og:type",
    "og:site_name",
    "og:image",
    "twitter:card",
    "twitter:title",
    "twitter:description",
)


class _Head(HTMLParser):
    """The <meta> tags of a page's head, by name or property."""

    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.redirect = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and (a.get("name") or a.get("property")):
            self.meta[a.get("name") or a["property"]] = a.get("content") or ""
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "refresh":
            self.redirect = True


def head(path: Path) -> _Head:
    text = path.read_text(encoding="utf-8")
    parser = _Head()
    parser.feed(text[: text.index("</head>")])
    return parser


def test_every_page_head_has_specific_absolute_link_preview_tags(real_build):
    real_site, base = real_build.site, real_build.url  # built for the address it is served at
    by_kind: dict[str, dict[str, str]] = {"features": {}, "releases": {}, "backends": {}, "symbols": {}}
    urls_seen = set()
    pages = 0
    for path in sorted(real_site.rglob("index.html")):
        h = head(path)
        if h.redirect:  # a former feature id: mkdocs-redirects writes a bare redirect
            continue
        pages += 1
        rel = path.parent.relative_to(real_site).as_posix()
        page_url = base + ("" if rel == "." else rel + "/")
        query_page = rel + "/" in (urls.UPGRADE, urls.COMPARE)  # its answer is in its query
        missing = [k for k in REQUIRED if not h.meta.get(k) and not (query_page and k == "og:url")]
        assert not missing, f"{rel}: no {missing}"
        if query_page:  # a shared /upgrade/?from=…&to=… previews as that range, not the bare page
            assert "og:url" not in h.meta, rel
            pages -= 1  # counted with the pages that name their own URL only
            continue
        assert h.meta["og:url"] == page_url, rel
        assert h.meta["og:image"] == base + urls.CARD
        assert (real_site / urls.CARD).is_file()
        assert h.meta["og:description"] == h.meta["description"] == h.meta["twitter:description"], rel
        assert h.meta["og:site_name"] == "PyTorch Release Atlas"
        assert h.meta["twitter:card"] == "summary_large_image"
        urls_seen.add(h.meta["og:url"])
        parts = rel.split("/")
        if parts[0] in by_kind and len(parts) == 2:
            by_kind[parts[0]][rel] = h.meta["description"]
    assert pages > 300 and len(urls_seen) == pages
    for kind, descriptions in by_kind.items():
        assert len(descriptions) >= 5, kind
        repeated = {d for d in descriptions.values() if list(descriptions.values()).count(d) > 1}
        assert not repeated, f"{kind} pages share a description: {sorted(repeated)[:3]}"
    site = real_model()
    plain = [f for f in site.features if f.id not in site.family_by_id and f.standing.tier and len(f.backends) > 1]
    for f in plain[:5]:  # a feature's page says its tier, since when, where and over how many releases
        said = by_kind["features"][f"features/{f.id}"]
        assert said == feature_description(site, f)
        assert re.match(
            rf"{re.escape(f.title)}: (.+ since|Removed in) 2\.\d+, on .+ and .+\. Announced in \d+ PyTorch releases?, spanning",
            said,
        )
    family = site.families[0].node
    assert by_kind["features"][f"features/{family.id}"].startswith(f"{family.name}: a family of ")
    assert by_kind["releases"]["releases/2.8"].startswith("PyTorch 2.8, released August 6, 2025: ")
    assert "release-note changes" in by_kind["backends"]["backends/cuda"]


def test_a_feature_description_says_its_tier_since_when_where_and_for_how_long():
    site = site_model(FIXTURE)
    widget = site.feature_by_id["widget-compiler"]
    assert feature_description(site, widget) == (
        "Widget compiler: API-Stable since 2.8, on CUDA and MPS. "
        "Announced in 2 PyTorch releases, spanning 2 releases from 2.7 to 2.8. Part of Widgets."
    )


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two #rrggbb colours."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_badges_are_valid_svg_with_a_title_in_words_and_aa_contrast(real_site: Path):
    site = real_model()
    badges = sorted((real_site / "badges").rglob("*.svg"))
    expected = {f"badges/{fid}.svg" for f in site.features for fid in (f.id, *f.aliases)}
    assert expected <= {b.relative_to(real_site).as_posix() for b in badges}
    for path in badges:
        root = ET.parse(path).getroot()
        assert root.tag == f"{SVG}svg" and root.get("role") == "img", path
        title = root.find(f"{SVG}title").text
        assert title == root.get("aria-label")
        assert re.search(r": (.+ since|Removed in) 2\.\d+$", title), title  # the tier in words, not colour alone
        rects = root.findall(f"{SVG}rect")
        texts = root.findall(f"{SVG}g/{SVG}text")
        assert len(rects) == len(texts) == 2
        for rect, text in zip(rects, texts, strict=True):
            assert contrast(rect.get("fill"), text.get("fill")) >= 4.5, (path, text.text)
        assert f"{texts[0].text}: {texts[1].text}" == title
    flex = ET.parse(real_site / "badges/flex-attention.svg").getroot()
    assert flex.find(f"{SVG}title").text.startswith("FlexAttention: API-")


def test_badge_colours_are_the_light_tier_palette_of_the_site():
    css = (ROOT / "templates/assets/atlas.css").read_text(encoding="utf-8")
    light = css[: css.index('[data-md-color-scheme="slate"] {')]
    for tier, (bg, fg) in TIER_COLOURS.items():
        name = {"api-unstable": "beta", "api-stable": "stable"}.get(tier, tier)
        assert re.search(rf"--atlas-{name}: {bg};\s+--atlas-{name}-fg: {fg};", light), tier


def test_badges_and_the_card_are_byte_identical_across_processes():
    code = (
        "import hashlib, sys; from generator.pipeline.build import site_model; from generator.render.badges import render_badges; from generator.render.render import drawn;"
        "from generator.render import card; b = drawn(render_badges(site_model(__import__('pathlib').Path(sys.argv[1]))));"
        "print(hashlib.sha256(repr(sorted(b.items())).encode() + card.png()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code, str(FIXTURE)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


def test_a_promoted_feature_badge_changes_after_a_rebuild(content_copy: Path, tmp_path: Path):
    docs = tmp_path / "docs"
    generate(content_copy, docs)
    badge = docs / urls.badge("widget-compiler", "mps")
    overall = docs / urls.badge("widget-compiler")
    before, before_overall = badge.read_bytes(), overall.read_bytes()
    assert b"<title>Widget compiler on MPS: API-Unstable since 2.8</title>" in before
    release = content_copy / "releases" / "2.8.yaml"
    text = release.read_text(encoding="utf-8")
    assert text.count("backends: [cuda]\n") == 1
    release.write_text(text.replace("backends: [cuda]\n", "backends: [cuda, mps]\n"), encoding="utf-8")  # MPS promoted
    generate(content_copy, docs)
    after = badge.read_bytes()
    assert after != before
    assert b"<title>Widget compiler on MPS: API-Stable since 2.8</title>" in after
    root = ET.fromstring(after)
    assert root.findall(f"{SVG}rect")[1].get("fill") == TIER_COLOURS["api-stable"][0]
    assert overall.read_bytes() == before_overall  # the feature's own standing did not move


def test_the_site_card_shows_the_tier_words_releases_use_now():
    """The card's tiers are of the newest vocabulary (API-Unstable / API-Stable since 2.8), or
    apply to every vocabulary (Deprecated): not the Prototype / Beta / Stable of 2.0-2.7."""
    data = yaml.safe_load((ROOT / "content" / "tiers.yaml").read_text(encoding="utf-8"))
    newest = max(data["vocabularies"], key=lambda v: tuple(map(int, v["from"].split("."))))["id"]
    vocabulary = {t["id"]: t.get("vocabulary") for t in data["tiers"]}
    assert card.TIERS and all(vocabulary[t] in (newest, "all") for t in card.TIERS), card.TIERS


def test_the_site_card_is_a_1200_by_630_png():
    data = card.png()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, kind = struct.unpack(">IIBB", data[16:26])
    assert (width, height, depth, kind) == (1200, 630, 8, 2)
    idat = data.index(b"IDAT")
    size = struct.unpack(">I", data[idat - 4 : idat])[0]
    raw = zlib.decompress(data[idat + 4 : idat + 4 + size])
    assert len(raw) == height * (1 + width * 3)
    assert len(set(raw[1 + 3 * 600 * 630 :: 997])) > 2  # something is drawn, not one flat colour


def test_snippets_escape_the_title_for_each_format():
    title, url, badge = "A [b] |c| `d` <e> & \\", "https://x.test/features/a/", "https://x.test/badges/a.svg"
    got = {s.id: s.text for s in cite.snippets(title, url, badge)}
    assert got == {
        "markdown": "[A \\[b\\] |c| `d` <e> & \\\\](https://x.test/features/a/)",
        "rst": "`A [b] |c| \\`d\\` \\<e> & \\\\ <https://x.test/features/a/>`__",
        "confluence": "[A (b) /c/ `d` <e> & \\|https://x.test/features/a/]",
        "mediawiki": "[https://x.test/features/a/ A &#91;b&#93; |c| `d` <e> & \\]",
        "html": '<a href="https://x.test/features/a/">A [b] |c| `d` &lt;e&gt; &amp; \\</a>',
        "url": "https://x.test/features/a/",
        "badge-markdown": "[![A \\[b\\] |c| `d` <e> & \\\\](https://x.test/badges/a.svg)](https://x.test/features/a/)",
        "badge-rst": ".. image:: https://x.test/badges/a.svg\n   :alt: A [b] |c| \\`d\\` \\<e> & \\\\\n   :target: https://x.test/features/a/",
        "badge-confluence": "[!https://x.test/badges/a.svg!|https://x.test/features/a/]",
        "badge-mediawiki": "[https://x.test/features/a/ https://x.test/badges/a.svg]",
        "badge-html": '<a href="https://x.test/features/a/"><img src="https://x.test/badges/a.svg" alt="A [b] |c| `d` &lt;e&gt; &amp; \\"></a>',
        "badge-url": "https://x.test/badges/a.svg",
    }


def test_link_or_embed_blocks_are_on_feature_release_backend_and_symbol_pages(real_build):
    real_site, base = real_build.site, real_build.url
    for rel, badge in (
        ("features/flex-attention/", "badges/flex-attention.svg"),
        ("features/torch-compile/", "badges/torch-compile.svg"),
        ("releases/2.8/", None),
        ("backends/cuda/", None),
        ("symbols/torch.export/", None),
    ):
        html = (real_site / rel / "index.html").read_text(encoding="utf-8")
        block = html[html.index('<details class="atlas-cite"') :]
        block = block[: block.index("</details>")]
        assert f'data-cite="url">{base}{rel}</pre>' in block, rel
        for kind in ("markdown", "rst", "confluence", "mediawiki", "html"):
            assert f'data-cite="{kind}">' in block, (rel, kind)
        assert (f'data-cite="badge-url">{base}{badge}</pre>' in block) == bool(badge), rel
    release = (real_site / "releases/2.8/index.html").read_text(encoding="utf-8")
    assert release.count('id="atlas-cite-menu"') == 1  # one shared menu, not one per change


def test_feature_json_validates_and_says_what_the_badge_says(real_build):
    real_site = real_build.site
    schema = json.loads((ROOT / "generator/schemas/api.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator({"$ref": "#/$defs/feature", "$defs": schema["$defs"]})
    site = real_model()
    base = real_build.url
    for f in site.features:
        data = json.loads((real_site / urls.api_feature(f.id)).read_text(encoding="utf-8"))
        validator.validate(data)
        assert data["badge"] == base + urls.badge(f.id) and data["url"] == base + urls.feature(f.id)
        title = ET.parse(real_site / urls.badge(f.id)).getroot().find(f"{SVG}title").text
        assert title == f"{f.title}: {data['status']}"
        for b, standing in data["backends"].items():
            svg = ET.parse(real_site / standing["badge"][len(base) :]).getroot()
            assert svg.find(f"{SVG}title").text.endswith(f" on {site.backend_by_id[b].name}: {standing['status']}")
        for alias in f.aliases:
            assert (real_site / urls.api_feature(alias)).read_bytes() == (
                real_site / urls.api_feature(f.id)
            ).read_bytes()


def test_the_url_promise_lists_every_badge_and_feature_json():
    site = site_model(FIXTURE)
    promised = manifest.published(site)
    for f in site.features:
        assert urls.badge(f.id) in promised and urls.api_feature(f.id) in promised
        assert all(urls.badge(f.id, b) in promised for b in f.backends)
    committed = (ROOT / "generator/published_urls.txt").read_text(encoding="utf-8").split()
    assert "badges/flex-attention.svg" in committed and "api/v1/features/flex-attention.json" in committed
    assert "badges/flex-attention/cuda.svg" in committed


def test_citations_name_the_site_as_mkdocs_yml_does():
    from generator.util.project import SITE_NAME

    assert f"\nsite_name: {SITE_NAME}\n" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
