"""In a browser, a published anchor still lands where it promised after the content changed: an
edited record line's old `#c-` URL on that change, both anchors of merged records on the merged
one, a retired symbol's anchor on a note that links on to its successor.

The fixture content is built as published (its manifest recorded), then edited the way a content
fix does, with the old anchors kept, and rebuilt through the URL guard."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from generator.model import urls
from generator.pipeline import manifest
from generator.pipeline.build import site_model
from tests.browser import serve
from tests.conftest import FIXTURE, run_cli

pytestmark = pytest.mark.browser

CAT = "`torch.cat` now raises on mismatched dtypes (#301)"
CONCAT = "`torch.concat` now raises on mismatched dtypes (#301)"
ALL_REDUCE = "Faster all_reduce (#302, #303)"
MERGED = "`torch.cat` raises on mixed dtypes; all_reduce is faster (#301, #302)"
OLD_CAT, OLD_ALL_REDUCE = urls.change_anchors([CAT, ALL_REDUCE])


def _edited(content: Path) -> None:
    """The record line of the torch.cat change corrected to torch.concat: its old anchor kept, and
    torch.cat retired to its successor."""
    path = content / "changes/2.8.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(CAT, CONCAT).replace("    prs: [301]\n", f"    prs: [301]\n    anchors: [{OLD_CAT}]\n")
    )
    (content / "symbols.yaml").write_text(
        "# yaml-language-server: $schema=../generator/schemas/symbols.schema.json\n"
        "retired:\n  - {name: torch.cat, page: torch, successor: torch.concat}\n"
    )


def _merged(content: Path) -> None:
    """The two changes of 2.8 merged into one that keeps both anchors."""
    path = content / "changes/2.8.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    merged = dict(data["changes"][0], text=MERGED, prs=[301, 302, 303], backends=["cuda", "distributed"])
    merged["anchors"] = [OLD_CAT, OLD_ALL_REDUCE]
    data["changes"] = [merged, *data["changes"][2:]]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> str:
    """Both edits built through the guard of the fixture's published manifest, served side by side."""
    tmp = tmp_path_factory.mktemp("anchors")
    published = tmp / "published_urls.txt"
    manifest.guard(site_model(FIXTURE), published)
    assert {f"releases/2.8/#{OLD_CAT}", f"releases/2.8/#{OLD_ALL_REDUCE}", "symbols/torch/#torch.cat"} <= set(
        published.read_text().splitlines()
    )

    def build(url: str) -> None:
        for name, change in (("edited", _edited), ("merged", _merged)):
            content = tmp / f"{name}-content"
            shutil.copytree(FIXTURE, content)
            change(content)
            promised = tmp / f"{name}-urls.txt"
            shutil.copy(published, promised)
            args = ["--content", str(content), "--site", str(tmp / "root" / name), "--docs", str(tmp / f"{name}-docs")]
            proc = run_cli("build", *args, "--manifest", str(promised), env={"SITE_URL": f"{url}{name}/"})
            assert proc.returncode == 0, proc.stderr  # the guard passes: every old anchor is kept

    (tmp / "root").mkdir()
    with serve(tmp / "root", build=build) as url:
        yield url


LANDED = """() => {
  const target = document.querySelector(':target');
  if (!target) return null;
  const item = target.closest('.atlas-changes li');
  const box = (item || target).getBoundingClientRect();
  return {
    id: target.id,
    change: item ? item.id : null,
    text: (item || target).textContent,
    top: box.top,
    height: innerHeight,
    background: item ? getComputedStyle(item).backgroundColor : null,
    next: target.nextElementSibling ? target.nextElementSibling.textContent : "",
  };
}"""


def landed(page, url: str) -> dict:
    """Open url in a fresh load; what its #anchor landed on, read at the moment it is scrolled
    into view (Material's navigation tracking may rewrite the address as the page scrolls on, so
    a second read could find another :target or none). The page is left first, so every url is a
    fresh load: a goto that only changes the fragment is a same-document jump."""
    page.goto("about:blank")
    page.goto(url)
    seen = page.wait_for_function(
        f"() => {{ const l = ({LANDED})(); return l && l.top >= 0 && l.top < l.height ? l : null; }}"
    )
    return seen.json_value()


def test_an_edited_record_lines_old_url_lands_on_that_change(page, base):
    (new,) = urls.change_anchors([CONCAT])
    here = landed(page, f"{base}edited/releases/2.8/#{OLD_CAT}")
    assert here["id"] == OLD_CAT and here["change"] == new
    assert "torch.concat now raises on mismatched dtypes" in " ".join(here["text"].split())
    assert here["background"] not in ("rgba(0, 0, 0, 0)", "transparent")  # highlighted like its own anchor
    assert landed(page, f"{base}edited/releases/2.8/#{new}")["change"] == new


def test_both_anchors_of_merged_records_land_on_the_merged_change(page, base):
    (merged,) = urls.change_anchors([MERGED])
    for old in (OLD_CAT, OLD_ALL_REDUCE):
        here = landed(page, f"{base}merged/releases/2.8/#{old}")
        assert here["id"] == old and here["change"] == merged
        assert "all_reduce is faster" in here["text"]


def test_a_retired_symbols_old_url_says_where_it_went_and_links_on(page, base):
    here = landed(page, f"{base}edited/symbols/torch/#torch.cat")
    assert here["id"] == "torch.cat" and here["change"] is None and here["text"].strip().rstrip("¶") == "torch.cat"
    assert "Now listed as torch.concat." in " ".join(here["next"].split())
    page.locator("[id='torch.cat'] + p a").click()
    page.wait_for_url(f"{base}edited/symbols/torch/#torch.concat")
    page.locator("[id='torch.concat']").wait_for(state="attached")
    assert "torch.concat now raises" in " ".join(page.locator("[id='torch.concat'] + ul").inner_text().split())
