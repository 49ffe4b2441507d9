"""generator.pipeline.pagesize: the largest page of a built site, which make bench reports per scale."""

from __future__ import annotations


def test_largest_page_names_the_biggest_html_file(tmp_path):
    from generator.pipeline.pagesize import largest_page

    assert largest_page(tmp_path) == ("", 0)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text("x" * 10)
    (tmp_path / "b.html").write_text("x" * 30)
    (tmp_path / "big.json").write_text("x" * 99)
    assert largest_page(tmp_path) == ("b.html", 30)
