"""The pipeline: load → validate → enrich → render → MkDocs, and the atomic site swap."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import gc
import logging
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..enrich import invariants
from ..enrich.enrich import enrich
from ..load.load import load
from ..model import urls
from ..model.computed import Site
from ..model.errors import ContentError
from ..pages.pagelist import listed
from ..render.render import TEMPLATES, Rendered, render_site, template_cache, write_changed
from ..search import indexing
from ..util.project import ROOT
from ..util.session import Session
from . import halves, manifest

CONFIG = ROOT / "mkdocs.yml"
DEFAULT_DOCS = ROOT / "build" / "docs"


class MkDocsFailed(Exception):
    """MkDocs reported warnings or errors under --strict."""


def site_model(content_dir: Path, session: Session | None = None) -> Site:
    """Load, validate and enrich a content folder, then hold the pages to each other
    (generator.enrich.invariants): a contradiction between pages is a content error. With `session`
    (live preview's), load and enrich derive again only what an edit changed (generator.util.session)."""
    s = session if session is not None else Session()
    s.start()
    site = enrich(load(content_dir, s), s)
    site = listed(site, s)  # the page list, once: a build's forked children inherit it
    problems = invariants.check(site, content_dir, s)  # its offenders derived in the session too
    s.done()
    if problems:
        raise ContentError(problems)
    return site


@dataclass(frozen=True)
class Built:
    """What build_site did: the model, the files it rewrote, and when each phase ended."""

    site: Site
    written: list[str]
    new_urls: bool  # the URL manifest recorded new URLs (to commit)
    generated: float  # seconds from the start to the Markdown written
    total: float  # seconds from the start to the site in place


def build_site(content_dir: Path, site_dir: Path, docs_dir: Path = DEFAULT_DOCS, promised: Path | None = None) -> Built:
    """The build's order, the one every entry point runs (the CLI's build, the benchmark): load,
    check and enrich; start the search index from the model; render the Markdown; hold the URL
    manifest (`promised`, when given); MkDocs --strict into a fresh folder swapped in for
    site_dir, the index placed in it. Raises ContentError, MkDocsFailed or OSError, leaving
    site_dir as it was."""
    started = time.perf_counter()
    # The model lives until the build ends: the garbage collector need not walk its objects,
    # neither while it grows (the full collections that loading and enriching trigger walk all
    # of it built so far) nor at every collection MkDocs and the renderer trigger after. So the
    # collector is off while it is built, and it is frozen once built (README, Speed mechanisms).
    gc.disable()
    try:
        site = site_model(Path(content_dir))
        gc.freeze()
    finally:
        gc.enable()
    try:
        index = start_index(site, site_dir)  # made while the pages render and MkDocs runs
        try:
            written = render_docs(site, content_dir, docs_dir)
            new_urls = promised is not None and manifest.guard(site, Path(promised))
        except BaseException:
            index.cancel()
            raise
        generated = time.perf_counter() - started
        mkdocs_build(site, docs_dir, site_dir, index)
        return Built(site, written, bool(new_urls), generated, time.perf_counter() - started)
    finally:
        gc.unfreeze()


def site_url() -> str:
    """Where the site is hosted: SITE_URL (as mkdocs.yml reads it), else the local preview."""
    return urls.site_root(os.environ.get("SITE_URL") or urls.DEFAULT_SITE_URL)


class Preview:
    """What the last generate() of a live preview rendered, owned by the server: the next
    generate renders again only the pages whose view, or whose recorded reads of the model,
    changed (render.render_site); everything is rendered again when the templates, the
    content or docs folder, or the site URL differ."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.rendered: Rendered | None = None
        self.session = Session()  # what the last load and enrich derived (generator.util.session)
        self.on_disk: dict[str, tuple[int, int]] = {}  # path -> (size, mtime_ns) when it last held its bytes

    def previous(self, key: tuple) -> Rendered | None:
        """The last render, if it was made for the same key."""
        return self.rendered if self.key == key else None

    def remember(self, key: tuple, rendered: Rendered) -> None:
        """Keep this render (made for `key`) for the next generate."""
        self.key, self.rendered = key, rendered

    def write(self, files: dict[str, bytes], docs_dir: Path, previous: Rendered | None) -> list[str]:
        """render.write_changed, without reading back the files this preview last wrote: a file
        whose bytes equal the previous render's and whose size and mtime are those it had then
        is left alone. Return the paths written."""
        if previous is None or not self.on_disk:
            written = write_changed(files, docs_dir)
            self.on_disk = _disk_stamps(files, docs_dir)
            return written
        old_files, on_disk = previous.files, self.on_disk
        unsure = {}  # the files that may not hold their bytes: only these are compared, written and stamped
        folder = os.fspath(docs_dir) + os.sep  # a path per file as text: a Path per file cost more than its stat
        for rel, data in files.items():
            old, stamp = old_files.get(rel), on_disk.get(rel)
            if stamp is not None and (old is data or old == data):
                try:
                    st = os.stat(folder + rel)
                except OSError:
                    st = None
                if st is not None and (st.st_size, st.st_mtime_ns) == stamp:
                    continue
            unsure[rel] = data
        gone = sorted(on_disk.keys() - files.keys())  # pages no render makes any more
        written = write_changed(unsure, docs_dir, gone=gone)
        for rel in gone:
            del on_disk[rel]
        for rel in unsure:
            on_disk.pop(rel, None)
        on_disk.update(_disk_stamps(unsure, docs_dir))
        return written

    def settle(self) -> None:
        """Move what the preview holds out of the garbage collector's way, for a server idle
        between saves: after a full collection, the objects alive now (the model and render
        kept for the next save) are frozen, so the collections a save triggers do not walk them
        again (README, Speed mechanisms). Unfreezing first lets the full
        collection free what earlier saves froze and no longer use."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()


def _disk_stamps(files: dict[str, bytes], docs_dir: Path) -> dict[str, tuple[int, int]]:
    out = {}
    folder = os.fspath(docs_dir) + os.sep
    for rel in files:
        with contextlib.suppress(OSError):
            st = os.stat(folder + rel)
            out[rel] = (st.st_size, st.st_mtime_ns)
    return out


def stamps(root: Path) -> tuple:
    """(path under `root`, mtime, size) of every file under the folder `root`, or of `root` if it
    is a file: what changes when a file is saved, added or removed."""
    out = []
    for path in sorted(root.rglob("*")) if root.is_dir() else [root]:
        with contextlib.suppress(OSError):
            st = path.stat()
            if stat.S_ISREG(st.st_mode):
                out.append((path.relative_to(root).as_posix(), st.st_mtime_ns, st.st_size))
    return tuple(out)


def generate(
    content_dir: Path, docs_dir: Path = DEFAULT_DOCS, preview: Preview | None = None
) -> tuple[Site, list[str]]:
    """Validate content_dir and render every page into docs_dir; return the site and the paths
    rewritten (render_docs)."""
    site = site_model(Path(content_dir), preview.session if preview is not None else None)
    return site, render_docs(site, content_dir, docs_dir, preview)


def render_docs(
    site: Site, content_dir: Path, docs_dir: Path = DEFAULT_DOCS, preview: Preview | None = None
) -> list[str]:
    """Render every page of site (the model of content_dir) into docs_dir; return the paths
    rewritten.

    With a `preview` (live preview keeps one across saves), pages that show nothing an edit
    changed keep their bytes without being rendered.
    """
    content_dir, docs_dir = Path(content_dir), Path(docs_dir)
    url = site_url()
    key = (str(content_dir.resolve()), str(docs_dir.resolve()), url, stamps(TEMPLATES))
    previous = preview.previous(key) if preview is not None else None
    rendered = render_site(site, url, previous=previous, record=preview is not None)
    if preview is None:
        return write_changed(rendered.files, docs_dir)
    written = preview.write(rendered.files, docs_dir, previous)
    preview.remember(key, rendered)
    return written


def start_index(site: Site, site_dir: Path) -> indexing.Beside:
    """Start making the search index for a build into site_dir (indexing.Beside), after removing
    what killed builds left beside it. It needs the model only: a build starts it before
    rendering, so the index is written on the other core while the pages render and MkDocs runs."""
    site_dir = Path(site_dir).resolve()
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(site_dir)
    return indexing.Beside(site, site_dir)


def mkdocs_config(docs_dir: Path, site_dir: Path, *, strict: bool = True, **overrides):
    """mkdocs.yml with our docs/site folders (and any overrides), validated."""
    from mkdocs.config import load_config

    return load_config(str(CONFIG), docs_dir=str(docs_dir), site_dir=str(site_dir), strict=strict, **overrides)


class ThemeCache:
    """What live preview's MkDocs rebuilds can share about the theme: its templates compiled
    (a Jinja bytecode cache; a template whose source changed is compiled again) and the list of
    its files (walked again when the files of templates/ change). MkDocs makes a new Jinja
    environment for every build and would otherwise compile Material's templates and walk its
    folders on every save: about half of a one-page dirty build."""

    def __init__(self, bytecode=None) -> None:
        """`bytecode`: where compiled templates are kept (a jinja2.BytecodeCache); in memory by
        default."""
        import jinja2

        class _Memory(jinja2.BytecodeCache):
            def __init__(self) -> None:
                self.code: dict[str, bytes] = {}

            def load_bytecode(self, bucket) -> None:
                if bucket.key in self.code:
                    bucket.bytecode_from_string(self.code[bucket.key])

            def dump_bytecode(self, bucket) -> None:
                self.code[bucket.key] = bucket.bytecode_to_string()

        self.bytecode = bytecode or _Memory()
        self.listed: dict[tuple, list[str]] = {}
        self.chosen: dict[tuple, list[str]] = {}  # (listing key, extensions, filter's code) -> names

    def attach(self, config) -> None:
        """Make this MkDocs config's theme hand out environments that use the cache."""
        theme = config.theme
        make_env = theme.get_env
        key = (tuple(theme.dirs), stamps(TEMPLATES), tuple(theme.static_templates))

        def get_env():
            env = make_env()
            env.bytecode_cache = self.bytecode
            list_all = env.list_templates

            def list_templates(extensions=None, filter_func=None):
                # MkDocs asks for the theme's static files on every build, with a new filter
                # function of the same code each time (it reads the theme's static templates,
                # part of `key`): Material's 14,500 file names are filtered once.
                if key not in self.listed:
                    self.listed, self.chosen = {key: list_all()}, {}
                what = (key, tuple(extensions or ()), getattr(filter_func, "__code__", filter_func))
                if what not in self.chosen:
                    names = self.listed[key]
                    if extensions is not None:
                        names = [n for n in names if "." in n and n.rsplit(".", 1)[1] in extensions]
                    self.chosen[what] = [n for n in names if filter_func is None or filter_func(n)]
                return list(self.chosen[what])

            env.list_templates = list_templates
            return env

        theme.get_env = get_env


@contextlib.contextmanager
def _environment(**values: str):
    """os.environ with values set for the block, as it was after it (a process-wide setting)."""
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def mkdocs_build(site: Site, docs_dir: Path, site_dir: Path, index: indexing.Beside | None = None) -> None:
    """Build HTML with MkDocs --strict into a temporary folder (its pages on both cores:
    generator.pipeline.halves), add the search index (`index`,
    from start_index; started here if not given), then swap it into site_dir.

    A failed build (or a killed one) leaves site_dir as it was: the new site only appears
    by rename, and leftovers of an interrupted build are temporary folders beside it.
    """
    from mkdocs.exceptions import MkDocsException

    site_dir = Path(site_dir).resolve()
    if index is None:
        index = start_index(site, site_dir)
    counter = _WarningCounter()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(counter)
    tmp = None
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.building-", dir=site_dir.parent))
        try:
            # Inside: a bad mkdocs.yml or SITE_URL raises Abort, a SystemExit that would end
            # the process silently (its messages went to our handler, not to stderr).
            config = mkdocs_config(docs_dir, tmp)
            config["plugins"]["redirects"].config["redirect_maps"] = manifest.redirects(site)
            if (compiled := template_cache("material")) is not None:
                ThemeCache(compiled).attach(config)  # the theme's templates compiled by an earlier build
            with _environment(SOURCE_DATE_EPOCH=str(site.source_date_epoch)):  # sitemap.xml.gz's timestamp
                halves.build(config, counter)
        except MkDocsException as exc:
            raise MkDocsFailed("\n".join(counter.messages + [str(exc)])) from None
        if counter.messages:
            raise MkDocsFailed("\n".join(counter.messages))
        try:
            index.place(tmp)
        except Exception as exc:  # the index's child could not start or write: one line, the old site kept
            raise MkDocsFailed(f"search index not written: {type(exc).__name__}: {exc}") from None
        swap(tmp, site_dir)
    except BaseException:
        index.cancel()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        logger.removeHandler(counter)


def swap(new: Path, target: Path) -> None:
    """Replace target by new with renames only; the old copy is removed afterwards.

    Where the OS can exchange two paths in one step (Linux), target never stops existing;
    elsewhere it is missing between two renames.
    """
    if target.exists() and _exchange(new, target):
        shutil.rmtree(new, ignore_errors=True)  # new now holds the old site
        return
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
        old.rmdir()
        target.rename(old)
    try:
        new.rename(target)
    except BaseException:
        if old is not None:
            old.rename(target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (renameat2 RENAME_EXCHANGE); False where that is not available."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError, TypeError):  # not Linux, or a C library without it
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # the kernel or file system cannot
        return False
    raise OSError(code, os.strerror(code), str(b))


def clean_leftovers(site_dir: Path) -> None:
    """Remove temporary folders a killed build left beside site_dir."""
    for leftover in site_dir.resolve().parent.glob(f".{site_dir.name}.*-*"):
        with contextlib.suppress(OSError):
            shutil.rmtree(leftover)


class _WarningCounter(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
