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


def test_largest_by_kind_names_each_templates_biggest_page(tmp_path):
    from generator.pipeline.pagesize import largest_by_kind

    sizes = {"": 5, "backends/cuda/": 40, "backends/cuda/2.0-2.14/": 70, "backends/rocm/": 70, "timeline/": 9}
    for url, n in sizes.items():
        (tmp_path / url).mkdir(parents=True, exist_ok=True)
        (tmp_path / url / "index.html").write_text("x" * n)
    pages = [
        ("", "home.md.j2"),
        ("backends/cuda/", "backend.md.j2"),
        ("backends/cuda/2.0-2.14/", "backend.md.j2"),
        ("backends/rocm/", "backend.md.j2"),
        ("timeline/", "timeline.md.j2"),
    ]
    assert largest_by_kind(tmp_path, pages) == {
        "backend": ("backends/cuda/2.0-2.14/", 70),  # the first listed of two as large
        "home": ("", 5),
        "timeline": ("timeline/", 9),
    }
