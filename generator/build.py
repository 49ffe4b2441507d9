"""The pipeline: load → validate → enrich → render → MkDocs, and the atomic site swap."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import logging
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from . import browser, invariants, manifest, search
from .enrich import enrich
from .errors import ContentError
from .load import load
from .model import SYMBOL_INDEX, Site, symbol_part
from .render import BENCHMARK, ROOT, TEMPLATES, render_all, write_changed

CONFIG = ROOT / "mkdocs.yml"
DEFAULT_DOCS = ROOT / "build" / "docs"


class MkDocsFailed(Exception):
    """MkDocs reported warnings or errors under --strict."""


def site_model(content_dir: Path) -> Site:
    """Load, validate and enrich a content folder, then hold the pages to each other
    (generator.invariants): a contradiction between pages is a content error."""
    site = enrich(load(content_dir))
    problems = invariants.check(site, content_dir)
    if problems:
        raise ContentError(problems)
    return site


DEFAULT_SITE_URL = "http://127.0.0.1:8000/"  # keep equal to the !ENV default in mkdocs.yml


def site_url() -> str:
    """Where the site is hosted: SITE_URL (as mkdocs.yml reads it), else the local preview."""
    url = os.environ.get("SITE_URL") or DEFAULT_SITE_URL
    return url if url.endswith("/") else url + "/"


@dataclass
class _Last:
    """What the previous generate() of this process saw and wrote, for incremental regeneration."""

    key: tuple  # content folder, docs folder, site URL
    stamps: dict  # content-relative file -> (mtime_ns, size)
    site: Site
    shape: tuple  # releases (version, date, vocabulary, previous) and template/asset stamps
    output: dict  # path under docs/ -> bytes


_LAST: _Last | None = None


def _stamps(root: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for path in root.rglob("*"):
        with contextlib.suppress(OSError):
            st = path.stat()
            if path.is_file():
                out[path.relative_to(root).as_posix()] = (st.st_mtime_ns, st.st_size)
    return out


_RELEASE_FILE = re.compile(r"(releases|changes)/\d+\.\d+\.yaml")


def changed_parts(last: _Last | None, key: tuple, stamps: dict, shape: tuple, site: Site) -> frozenset | None:
    """The parts of content (model.parts) that differ from the last generate, or None when every
    page must be rendered: first run, another folder, or a registry, template, release version
    or date changed."""
    if last is None or last.key != key or last.shape != shape:
        return None
    files = frozenset(f for f in stamps.keys() | last.stamps.keys() if stamps.get(f) != last.stamps.get(f))
    if any(not _RELEASE_FILE.fullmatch(f) for f in files):
        return None
    out = set()
    for new, old in zip(site.releases, last.site.releases, strict=True):
        if new.entries != old.entries:
            out.add(f"entries:{new.version}")
        if new.changes != old.changes:
            out.add(f"changes:{new.version}")
        if replace(new, entries=(), changes=()) != replace(old, entries=(), changes=()):
            out.add(f"release:{new.version}")
    if any(k.startswith("changes:") for k in out):  # a change may join or leave a feature's page
        for fid in site.feature_changes.keys() | last.site.feature_changes.keys():
            if _anchors(site.feature_changes.get(fid)) != _anchors(last.site.feature_changes.get(fid)):
                out.add(f"feature:{fid}")
    if any(k.startswith(("changes:", "entries:")) for k in out):  # a name may come, go or move page
        new, old = site.symbol_pages, last.site.symbol_pages
        out.update(symbol_part(page) for page in new.keys() | old.keys() if new.get(page) != old.get(page))
        if _symbol_names(new) != _symbol_names(old):
            out.add(SYMBOL_INDEX)
    return frozenset(out)


def _symbol_names(pages: dict) -> tuple:
    """What the /symbols/ index shows: each page's names."""
    return tuple((page, tuple(s.name for s in module.symbols)) for page, module in pages.items())


def _anchors(items) -> tuple:
    return tuple((release.version, view) for release, view in items or ())


def generate(content_dir: Path, docs_dir: Path = DEFAULT_DOCS) -> tuple[Site, list[str]]:
    """Render every page into docs_dir; return the site and the paths rewritten.

    In a long-running process (live preview), pages whose content files did not change since
    the previous call keep their bytes: only pages that depend on an edited file are rendered.
    """
    global _LAST
    content_dir = Path(content_dir)
    stamps = _stamps(content_dir)
    site = site_model(content_dir)
    url = site_url()
    key = (str(content_dir.resolve()), str(Path(docs_dir).resolve()), url)
    shape = (
        tuple((r.version, r.date, r.tier_vocabulary, r.previous) for r in site.releases),
        tuple(sorted(_stamps(TEMPLATES).items())),
        BENCHMARK.stat().st_mtime_ns if BENCHMARK.exists() else 0,
    )
    changed = changed_parts(_LAST, key, stamps, shape, site)
    output = render_all(site, url, previous=_LAST.output if changed is not None else None, changed=changed)
    output.update(browser.files())  # what the scripts read from Python (search paths, shards)
    written = write_changed(output, docs_dir)
    _LAST = _Last(key, stamps, site, shape, output)
    return site, written


def mkdocs_config(docs_dir: Path, site_dir: Path, *, strict: bool = True, **overrides):
    """mkdocs.yml with our docs/site folders (and any overrides), validated."""
    from mkdocs.config import load_config

    return load_config(str(CONFIG), docs_dir=str(docs_dir), site_dir=str(site_dir), strict=strict, **overrides)


def mkdocs_build(site: Site, docs_dir: Path, site_dir: Path) -> None:
    """Build HTML with MkDocs --strict into a temporary folder, add the search index
    (generator.search), then swap it into site_dir.

    A failed build (or a killed one) leaves site_dir as it was: the new site only appears
    by rename, and leftovers of an interrupted build are temporary folders beside it.
    """
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    site_dir = site_dir.resolve()
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(site_dir)
    os.environ["SOURCE_DATE_EPOCH"] = str(site.source_date_epoch)
    tmp = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.building-", dir=site_dir.parent))
    counter = _WarningCounter()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(counter)
    try:
        try:
            # Inside: a bad mkdocs.yml or SITE_URL raises Abort, a SystemExit that would end
            # the process silently (its messages went to our handler, not to stderr).
            config = mkdocs_config(docs_dir, tmp)
            config["plugins"]["redirects"].config["redirect_maps"] = manifest.redirects(site)
            build(config)
        except MkDocsException as exc:
            raise MkDocsFailed("\n".join(counter.messages + [str(exc)])) from None
        if counter.messages:
            raise MkDocsFailed("\n".join(counter.messages))
        try:
            search.write(site, docs_dir, tmp)
        except Exception as exc:  # Pagefind could not start or write: one line, the old site kept
            raise MkDocsFailed(f"search index not written: {type(exc).__name__}: {exc}") from None
        swap(tmp, site_dir)
    except BaseException:
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
