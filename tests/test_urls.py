"""The URL scheme (generator/model/urls.py): the page paths, anchors and links readers paste into wikis."""

from __future__ import annotations

import ast

import pytest

from generator.model import urls
from tests.conftest import ROOT


def test_page_paths_are_folder_indexes():
    assert urls.release("2.10") == "releases/2.10/"
    assert urls.feature("flex-attention") == "features/flex-attention/"
    assert urls.backend("rocm") == "backends/rocm/"
    assert urls.backend_changes("rocm", "2.12") == "backends/rocm/2.12/"
    assert urls.symbol_page("torch.export") == "symbols/torch.export/"
    assert urls.source(urls.release("2.10")) == "releases/2.10/index.md"
    assert urls.source(urls.HOME) == "index.md"


def test_files_that_are_not_pages():
    assert urls.api_release("2.14") == "api/v1/releases/2.14.json"
    assert urls.backend_feed("xpu") == "backends/xpu/feed.xml"
    assert urls.pr(158249) == "https://github.com/pytorch/pytorch/pull/158249"
    assert urls.issue(195670) == "https://github.com/pytorch/pytorch/issues/195670"


def test_a_change_anchor_hashes_its_record_line_only():
    line = "- `torch.cat` now raises on mismatched dtypes (#301)"
    anchor = urls.change_anchor(line)
    assert urls.CHANGE_ANCHOR.fullmatch(anchor)
    # The body under the record line and runs of spaces do not move it; the record line does.
    assert urls.change_anchor(line + "\n  more explanation") == anchor
    assert urls.change_anchor(line.replace(" now", "   now")) == anchor
    assert urls.change_anchor(line.replace("dtypes", "dtype")) != anchor


def test_repeated_record_lines_get_numbered_anchors_in_list_order():
    first = urls.change_anchor("- Fixed a crash (#1)")
    assert urls.change_anchors(["- Fixed a crash (#1)", "- Other (#2)", "- Fixed a crash (#1)"]) == [
        first,
        urls.change_anchor("- Other (#2)"),
        f"{first}-2",
    ]


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("releases/2.12/", "page"),
        ("releases/2.12/#c-02eeb39b", "change"),
        ("releases/2.12/#c-02eeb39b-2", "change"),
        ("releases/2.12/#pr-158249", "pr"),
        ("releases/2.12/#upgrading", "section"),
        ("releases/2.14/#known-issues", "section"),
        ("upgrade/#defaults", "section"),
        ("symbols/torch/#torch.cat", "symbol"),
        ("releases/2.12/#flex-attention", "entry"),
    ],
)
def test_a_published_url_reads_back_as_what_it_promises(url, kind):
    assert urls.promise(url)[0] == kind
    assert urls.at(*urls.promise(url)[1:]) == url


@pytest.mark.parametrize(
    ("here", "to", "relative", "markdown"),
    [
        ("", "releases/2.12/", "releases/2.12/", "releases/2.12/index.md"),
        ("releases/2.12/", "", "../../", "../../index.md"),
        ("releases/2.12/", "releases/2.12/#c-1", "./#c-1", "index.md#c-1"),
        ("releases/2.12/", "#x", "./#x", "#x"),
        ("features/a/", "upgrade/?from=2.4&to=2.12#defaults", "../../upgrade/?from=2.4&to=2.12#defaults", None),
        ("backends/rocm/2.12/", "feed.xml", "../../../feed.xml", "../../../feed.xml"),
        ("symbols/torch/", "symbols/torch.export/#torch.export.export", "../torch.export/#torch.export.export", None),
    ],
)
def test_links_between_pages_are_relative_so_a_sub_path_works(here, to, relative, markdown):
    assert urls.relative(here, to) == relative
    if markdown is not None:
        assert urls.md_link(here, to) == markdown


def test_the_url_module_imports_nothing_from_the_package():
    tree = ast.parse((ROOT / "generator" / "model" / "urls.py").read_text(encoding="utf-8"))
    imported = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert all(n.level == 0 and not (n.module or "").startswith("generator") for n in imported)


def test_relpath_answers_as_posixpath_does_for_every_page_and_file_of_the_site():
    """urls.relpath, which links use, is posixpath.relpath without its calls to os.getcwd(): the
    same path from every page of the real site to every page and to every page's source, and
    from the root."""
    import posixpath

    from tests.conftest import real_model

    site = real_model()
    at = [page.url for page in site.pages] + ["", "."]
    targets = [page.url for page in site.pages][::7] + [urls.source(u) for u in at[::11] if u != "."]
    targets += [".", urls.FEED, urls.api_release(site.versions[-1]), "releases/../features/"]
    for start in at:
        for path in targets:
            path = path or "."  # as urls.relative and urls.md_link call it
            assert urls.relpath(path, start or ".") == posixpath.relpath(path, start or "."), (path, start)
