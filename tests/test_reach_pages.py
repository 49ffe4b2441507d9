"""What the pages offer for reach (issue #46 items 5 and 6): each feature page's per-backend badges
(or why it has none) and what a MediaWiki page needs to show a badge; the home page's and the
upgrade guide's links to the calendar and feeds; the upgrade guide's command for CI."""

from __future__ import annotations

import re

from generator.model import urls
from generator.pages import cite, describe
from tests.conftest import real_model

BASE = "https://atlas.example/"


def feature_blocks(site) -> dict[str, str]:
    """Feature id -> the "Link or embed" block of its page (feature and family pages that head a feature)."""
    out = {}
    for page in site.pages:
        if page.template == "feature.md.j2":
            out[page.context["feature"].id] = str(describe.page_head(site, page, BASE).cite)
        elif page.template == "family.md.j2" and page.context["family"].feature is not None:
            out[page.context["family"].feature.id] = str(describe.page_head(site, page, BASE).cite)
    return out


def test_every_feature_page_offers_the_badge_of_each_backend_its_record_lists():
    site = real_model()
    blocks = feature_blocks(site)
    assert set(blocks) == {f.id for f in site.features}
    with_backends = [f for f in site.features if f.backends]
    assert len(with_backends) >= 100  # the real content: most features name their backends
    for feature in site.features:
        block = blocks[feature.id]
        offered = re.findall(r'data-cite="badge-([a-z0-9-]+)-url">([^<]*)</pre>', block)
        assert offered == [(b, BASE + urls.badge(feature.id, b)) for b in feature.backends], feature.id
        for backend in feature.backends:
            name = site.backend_by_id[backend].name
            assert f"<summary>Badge on {name}</summary>" in block
            assert f'src="../../{urls.badge(feature.id, backend)}"' in block
        says_none = cite.NO_BACKEND_BADGES.replace("'", "&#x27;") in block
        assert says_none == (not feature.backends), feature.id


def test_a_backend_badge_copies_as_every_format_and_names_its_backend():
    site = real_model()
    feature = site.feature_by_id["flex-attention"]
    assert "cuda" in feature.backends
    badge = describe._backend_badges(site, feature, urls.feature(feature.id), BASE)
    cuda = next(b for b in badge if b.name == "CUDA")
    found = {s.id: s.text for s in cite.backend_snippets(BASE + urls.feature(feature.id), cuda)}
    page, image = BASE + urls.feature(feature.id), BASE + urls.badge(feature.id, "cuda")
    assert found["badge-cuda-confluence"] == f"[!{image}!|{page}]"
    assert found["badge-cuda-markdown"] == f"[![FlexAttention on CUDA (PyTorch Release Atlas)]({image})]({page})"
    assert set(found) == {f"badge-cuda-{f.id}" for f in cite.FORMATS if f.badge}


def test_the_block_says_what_a_wiki_must_allow_for_a_mediawiki_badge():
    site = real_model()
    block = feature_blocks(site)["torch-compile"]
    assert "$wgAllowExternalImages" in block and "$wgAllowExternalImagesFrom" in block
    release = next(p for p in site.pages if p.template == "release.md.j2")
    assert "$wgAllowExternalImages" not in str(describe.page_head(site, release, BASE).cite)  # no badge, no note


def test_the_home_page_and_the_upgrade_guide_link_the_calendar_and_the_feed(fixture_site):
    for page, prefix in (("index.html", ""), ("upgrade/index.html", "../")):
        html = (fixture_site / page).read_text(encoding="utf-8")
        assert f'href="{prefix}{urls.CALENDAR}"' in html, page
        assert f'href="{prefix}{urls.FEED}"' in html, page
        for target in (urls.CALENDAR, urls.FEED):
            assert (fixture_site / target).is_file()
    home = (fixture_site / "index.html").read_text(encoding="utf-8")
    assert f'id="{urls.SUBSCRIBE}"' in home and f'href="{urls.UPGRADE}#{urls.CI}"' in home


def test_the_upgrade_guide_tells_readers_to_run_the_scan_in_ci(fixture_site):
    html = (fixture_site / "upgrade" / "index.html").read_text(encoding="utf-8")
    assert f'id="{urls.CI}"' in html and "Run this in CI" in html
    command = re.search(r'<pre class="atlas-command"><code>([^<]*)</code>', html)[1]
    assert command.replace("&#58;", ":") == (
        f"torch-atlas scan src/ --from 2.7 --to 2.8 --site {urls.DEFAULT_SITE_URL}"
    )
