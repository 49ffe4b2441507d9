"""The largest HTML page of a built site: what a reader's browser loads at worst, watched as the
Atlas grows (issue 36: at 10x the corpus no page should pass 1 MB). `make bench` reports it at
each scale."""

from __future__ import annotations

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
