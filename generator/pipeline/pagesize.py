"""The largest HTML pages of a built site: what a reader's browser loads at worst, watched as the
Atlas grows (issue 36: at 10x the corpus no page should pass 1 MB; issue 47: none at 50x). `make
bench` reports the largest page, and the largest page of each kind, at each scale."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def largest_page(site_dir: Path) -> tuple[str, int]:
    """(path relative to site_dir, size in bytes) of the largest .html file under site_dir;
    ("", 0) for a folder without one. Ties go to the path that sorts first, so the answer is the
    same on every run."""
    best = ("", 0)
    for path in sorted(Path(site_dir).rglob("*.html")):
        size = path.stat().st_size
        if size > best[1]:
            best = (path.relative_to(site_dir).as_posix(), size)
    return best


def largest_by_kind(site_dir: Path, pages: Iterable[tuple[str, str]]) -> dict[str, tuple[str, int]]:
    """For each kind of page, its largest built page: kind -> (URL, size in bytes). `pages` gives
    each page's URL and template (pagelist.Page.url, .template); its kind is the template's name
    without '.md.j2' ("backend"). Ties go to the page listed first; kinds sort by name."""
    best: dict[str, tuple[str, int]] = {}
    for url, template in pages:
        kind = template.removesuffix(".md.j2")
        size = (Path(site_dir) / url / "index.html").stat().st_size
        if size > best.get(kind, ("", -1))[1]:
            best[kind] = (url, size)
    return dict(sorted(best.items()))
