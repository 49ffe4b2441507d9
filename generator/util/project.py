"""Where the project is and what it is called: one home for each."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository: content/, templates/, mkdocs.yml and build/ are under it."""

DEFAULT_CONTENT = ROOT / "content"
"""The content folder every CLI verb reads unless given --content."""

SITE_NAME = "PyTorch Release Atlas"
"""The site's name, as mkdocs.yml's site_name says it (tests/test_links.py holds them equal)."""
