"""Zensical, Material's successor, builds the site from our mkdocs.yml, and every link in it resolves.

Zensical reads a raw-HTML link against the page's source file, MkDocs against its URL; the
two agree only while every page is a folder index (`releases/2.12/index.md`). The crawl here
is what catches a page that is not.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.pipeline import manifest
from generator.pipeline.build import generate
from tests.conftest import FIXTURE, real_model
from tests.crawl import broken_links
from tests.helpers import zensical_config

pytestmark = pytest.mark.zensical


@pytest.mark.parametrize("content", ["real", "fixture"])
def test_zensical_builds_the_site_and_every_internal_link_resolves(tmp_path: Path, content: str, request):
    if content == "real":  # the Markdown of the session's one real build, not a second generation
        shutil.copytree(request.getfixturevalue("real_build").docs, tmp_path / "docs")
        site = real_model()
    else:
        site, _ = generate(FIXTURE, tmp_path / "docs")
    config = tmp_path / "mkdocs.yml"
    config.write_text(zensical_config(tmp_path / "docs", manifest.redirects(site)), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "zensical", "build", "--strict", "--config-file", str(config)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, (
        f"zensical build failed (pip install -e '.[test]' installs it):\n{proc.stdout}\n{proc.stderr}"
    )
    out = tmp_path / "site"
    for release in site.releases:
        assert (out / "releases" / release.version / "index.html").exists(), release.version
    assert 'type="application/atom+xml"' in (out / "index.html").read_text(encoding="utf-8"), (
        "theme overrides not applied"
    )
    assert broken_links(out) == []
