"""MkDocs' build with its pages made on both cores: `build(config, counter)` does what
`mkdocs.commands.build.build` does for a build (not live preview, generator.cli.livebuild), but
once the files and the navigation are known, a forked child (generator.util.forked) takes
pages from the same queue as this process: each process reads, renders and writes the next
page nobody has taken, so whichever has the more CPU makes the more pages. Then this process
checks every page's links to anchors, the child's pages by what the child reported of them.

MkDocs builds one page after another in one thread, and its pages are most of a build's time
(generator/benchmark.md). Each page's Markdown and template read only the page itself and the
navigation, so the pages are the same bytes whoever makes them: the navigation's pages are read
before the child starts (every page's tabs show their titles and front matter), and rendered
from Markdown like any other page, by whichever process takes them. The child
runs at the lowest priority (nice 19), below the search index's process
(generator.search.child, nice 10): it takes what the index leaves of the other core.
A page the child took but did not report (it failed or was killed) is made here afterwards, so
the site never depends on the way taken. mkdocs is pinned below 2 in pyproject.toml: these are
the steps and functions of its 1.6 build.
"""

from __future__ import annotations

import os

from ..util import forked


def build(config, counter) -> None:
    """Build the site of `config` (a loaded MkDocs config) into its site_dir, which is empty.
    `counter` is the handler on the `mkdocs` logger that collects warnings (build._WarningCounter):
    what the child logs is added to it. Raises what MkDocs' build would."""
    from mkdocs.commands import build as steps

    try:
        config, files, env, nav, doc_files = _gathered(config)

        def meanwhile() -> None:  # as MkDocs, before the pages: the theme's files and templates
            _place_static_files(files, config.docs_dir)
            for template in config.theme.static_templates:
                steps._build_theme_template(template, env, files, config, nav)
            for template in config.extra_templates:
                steps._build_extra_template(template, files, config, nav)

        _shared(config, files, env, nav, doc_files, counter, meanwhile)
        log_level = config.validation.links.anchors
        for file in doc_files:
            file.page.validate_anchor_links(files=files, log_level=log_level)
        config.plugins.on_post_build(config=config)
    except Exception as e:
        config.plugins.on_build_error(error=e)
        raise


def _place_static_files(files, docs_dir: str) -> None:
    """What MkDocs' `files.copy_static_files` does, but each file of docs_dir (the API's records,
    feeds, badges …: 8,400 at 10 times the content) is hard-linked into the site, not copied: one
    directory entry instead of a new file and its bytes. The two names share the file safely
    because the generator replaces a docs file by renaming a new one over it
    (generator.util.writer), never by writing into it. Where a link cannot be made (another
    file system, a file system without hard links), the file is copied as MkDocs does."""
    from mkdocs.structure.files import InclusionLevel

    inside = os.path.join(os.path.abspath(docs_dir), "")
    folders: set[str] = set()
    for file in files:
        if file.is_documentation_page() or not InclusionLevel.is_included(file.inclusion):
            continue
        src, dest = file.abs_src_path, file.abs_dest_path
        if file.generated_by is not None or not src or not src.startswith(inside):
            file.copy_file()  # the theme's files, and files a plugin made
            continue
        folder = os.path.dirname(dest)
        if folder not in folders:
            os.makedirs(folder, exist_ok=True)
            folders.add(folder)
        try:
            os.link(src, dest)
        except OSError:
            file.copy_file()


def _gathered(config):
    """MkDocs' build up to its pages: the config after its plugins, the files, the theme's
    environment, the navigation (its pages read) and the pages to build, each with its Page."""
    from mkdocs.structure.files import InclusionLevel, get_files, set_exclusions
    from mkdocs.structure.nav import get_navigation
    from mkdocs.structure.pages import Page

    config = config.plugins.on_config(config)
    config.plugins.on_pre_build(config=config)
    files = get_files(config)
    env = config.theme.get_env()
    files.add_files_from_theme(env, config)
    files = config.plugins.on_files(files, config=config)
    set_exclusions(files, config)
    nav = get_navigation(files, config)
    nav = config.plugins.on_nav(nav, config=config, files=files)
    doc_files = files.documentation_pages(inclusion=InclusionLevel.is_included)
    for file in doc_files:
        if file.page is None:
            Page(None, file, config)
    for page in nav.pages:  # every page's tabs show their titles and front matter: read, not rendered
        page.read_source(config)  # (their Markdown is rendered with the other pages, on both cores)
    env = config.plugins.on_env(env, config=config, files=files)
    return config, files, env, nav, doc_files


def _shared(config, files, env, nav, doc_files, counter, meanwhile) -> None:
    """Read, render and write every page of doc_files, this process and a forked child taking
    them from one queue (`meanwhile` runs here once the child has started); the child's pages'
    anchors and warnings come back to this process."""
    from mkdocs.commands import build as steps

    queue = forked.Queue() if forked.available() else None
    parent = os.getpid()

    def make(n: int) -> None:
        file = doc_files[n]
        if file.page.content is None:  # not rendered yet (the navigation's pages are read already)
            steps._populate_page(file.page, config, files)
        steps._build_page(file.page, config, doc_files, nav, env, excluded=file.inclusion.is_excluded())

    def share() -> tuple[dict, list[str]]:
        """The child's part: pages taken from the queue until none is left; what each holds of
        anchors, and the warnings logged."""
        if os.getpid() != parent and hasattr(os, "nice"):  # not when no child could start
            os.nice(19)
        before = len(counter.messages)
        made = {}
        while (n := queue.take()) < len(doc_files):
            make(n)
            page = doc_files[n].page
            links = {to.src_uri: found for to, found in (page.links_to_anchors or {}).items()}
            made[n] = (page.present_anchor_ids, links)
        return made, counter.messages[before:]

    child = forked.beside(share, rerun=False) if queue is not None else None
    meanwhile()
    mine = set()
    while queue is not None and (n := queue.take()) < len(doc_files):
        make(n)
        mine.add(n)
    made, warned = (child.result() if child is not None else None) or ({}, [])
    counter.messages.extend(warned)
    for n in range(len(doc_files)):
        if n in made:
            page = doc_files[n].page
            page.present_anchor_ids, links = made[n]
            page.links_to_anchors = {files.get_file_from_path(src): found for src, found in links.items()}
        elif n not in mine:  # no child, or it failed: made here
            make(n)
