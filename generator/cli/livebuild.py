"""Live preview's MkDocs part: the pages a save rewrote, built with what the last whole build
made of the site.

MkDocs' dirty build renders only the modified pages, but around them it redoes the whole
site on every save: it lists docs/ and the theme, makes a page object for each of the 720
files and lays out the navigation, stats every page and static file to find the modified ones,
renders sitemap.xml and 404.html, and the redirects plugin rewrites each of its pages. On the
largest release page that was about two thirds of MkDocs' share of a save. None of it changes
while no file comes or goes, the theme and mkdocs.yml stay as they are and the redirects are
the same, so `Pages` keeps what the last dirty build made (its config, files, navigation and
theme environment) and, while those hold, reads and renders the pages the save rewrote and
copies the other files it rewrote, through the two functions MkDocs' own build calls for one
page (`_populate_page`, `_build_page`; mkdocs is pinned below 2). Anything else is a whole
dirty build again, whose result is kept in turn.
"""

from __future__ import annotations

from mkdocs.commands import build as mkdocs
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import InclusionLevel

KEEP = "atlas-live-keep"
"""The name under which `Pages` adds its plugin to a whole build's config."""


class _Keep(BasePlugin):
    """Notes the navigation, files and theme environment of the build it is added to."""

    def __init__(self) -> None:
        self.nav = self.files = self.env = None

    def on_nav(self, nav, /, *, config, files):
        self.nav = nav
        return nav

    def on_env(self, env, /, *, config, files):
        self.env, self.files = env, files
        return env


class Pages:
    """MkDocs' builds for live preview: a whole dirty build when what it makes of the site may
    have changed, else only the files a save rewrote (module docstring)."""

    def __init__(self) -> None:
        self.kept: tuple | None = None  # (key, config, _Keep) of the last whole build
        self.built = False  # site_dir holds a build: later whole builds are dirty
        self.rendered = 0  # pages the last call read and rendered (for tests and the log)

    def __call__(self, key: tuple, make_config, written: list[str], serve_url: str) -> None:
        """Build into the site folder the `written` docs files of a save. `key`: what the kept
        build stays right for (docs files, theme, config, redirects); `make_config()`: the
        MkDocs config of a whole build."""
        if self.kept is not None and self.kept[0] == key and self._only(written):
            return
        self.kept = None
        config = make_config()
        keep = _Keep()
        config.plugins[KEEP] = keep
        if not self.built:
            config.plugins.on_startup(command="serve", dirty=True)
        mkdocs.build(config, serve_url=serve_url, dirty=self.built)
        self.built = True
        self.rendered = -1
        self.kept = (key, config, keep)

    def _only(self, written: list[str]) -> bool:
        """Read and render the written pages, copy the other written files; False (nothing
        built) when one of them is not a file of the kept build."""
        _, config, keep = self.kept
        files = keep.files
        chosen = [files.get_file_from_path(rel) for rel in written]
        if any(file is None for file in chosen):
            return False
        pages = [file.page for file in chosen if file.is_documentation_page()]
        for file in chosen:
            if not file.is_documentation_page():
                file.copy_file()
        try:
            for page in pages:
                mkdocs._populate_page(page, config, files)
            listed = files.documentation_pages(inclusion=InclusionLevel.is_in_serve)
            for page in pages:
                excluded = page.file.inclusion.is_excluded()
                mkdocs._build_page(page, config, listed, keep.nav, keep.env, excluded=excluded)
        except Exception:
            self.kept = None  # the next save builds whole
            raise
        self.rendered = len(pages)
        return True
