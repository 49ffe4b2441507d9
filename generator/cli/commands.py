"""The CLI verbs (`VERBS`): thin functions that call the pipeline stages and return an exit code;
`serve` also owns the live-preview server."""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path

from ..model.errors import ContentError, UsageError
from ..pipeline import build as pipeline
from ..pipeline import manifest
from ..search import indexing
from ..util.project import DEFAULT_CONTENT, ROOT

SETTLE_AFTER = 1.0  # seconds without a save before live preview settles its heap
POLL = 0.05  # seconds between two looks at the watched files
SETTLE = 0.01  # seconds a rebuild waits, after a look found changes, for more (MkDocs' build_delay)


def check(args) -> int:
    """Validate the content folder."""
    site = pipeline.site_model(args.content)
    changes = sum(len(r.changes) for r in site.releases)
    print(f"ok: {len(site.releases)} releases, {len(site.features)} features, {changes} changes")
    return 0


def build(args) -> int:
    """Validate, render Markdown, and build the HTML site with MkDocs --strict (build.build_site)."""
    promised = args.manifest or (manifest.DEFAULT if Path(args.content).resolve() == DEFAULT_CONTENT else None)
    try:
        done = pipeline.build_site(args.content, args.site, args.docs or pipeline.DEFAULT_DOCS, promised)
    except pipeline.MkDocsFailed as exc:
        print(f"build failed; {args.site} left as it was:\n{exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        raise UsageError(f"{args.site}: {exc.strerror or exc}") from exc
    if done.new_urls:
        print(f"{promised}: new URLs recorded; commit the file", file=sys.stderr)
    print(
        f"built {args.site}: generate {done.generated:.2f}s ({len(done.written)} files rewritten), "
        f"mkdocs {done.total - done.generated:.2f}s, total {done.total:.2f}s"
    )
    return 0


def serve(args) -> int:
    """Generate, build and serve with live reload. On a save in content/ or templates/, one
    rebuild regenerates only the pages that show what changed (build.generate) and MkDocs
    renders only those (livebuild.Pages); the open page then swaps in its new content. The search index follows
    in the background (indexing.Indexer)."""
    import shutil
    import tempfile

    from .liveserve import Server

    host, _, port = args.addr.rpartition(":")
    site_dir = Path(tempfile.mkdtemp(prefix="atlas-serve-"))
    rebuild = _Rebuild(args.content, site_dir, f"http://{host}:{port}/", args.docs or pipeline.DEFAULT_DOCS)
    # MkDocs' own `serve` polls less often and watches only the generated pages; this server
    # watches the sources (a few hundred files: a poll is cheap) every POLL seconds. A look
    # reports every change it found at once, so the rebuild starts SETTLE after it, not a whole
    # POLL later; a save caught half-written by a look is rebuilt again at the next.
    server = Server(builder=rebuild, host=host, port=int(port), root=str(site_dir), poll=POLL, busy=rebuild.lock)
    server.build_delay = SETTLE
    # Stopped by a signal (a test harness, a process manager): stop as on Ctrl-C, removing site_dir.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        rebuild()
        server.watch(str(args.content))
        for theme in (ROOT / "templates", pipeline.CONFIG):  # what pages load beside their HTML
            server.watch(str(theme), whole=True)
        try:
            server.serve()
        except KeyboardInterrupt:
            pass
        finally:
            server.shutdown()
    finally:
        rebuild.indexer.stop()
        shutil.rmtree(site_dir, ignore_errors=True)
    return 0


class _Rebuild:
    """Live preview's rebuild, called by the server on every save: what the last one rendered
    (build.Preview, whose session keeps what enrich derived), MkDocs' last whole build kept for
    the pages of the saves after it (livebuild.Pages), Material's templates compiled once
    (build.ThemeCache), and the search index following behind (indexing.Indexer)."""

    def __init__(self, content: Path, site_dir: Path, serve_url: str, docs: Path = pipeline.DEFAULT_DOCS) -> None:
        self.content, self.site_dir, self.serve_url, self.docs = content, site_dir, serve_url, docs
        from . import livebuild  # MkDocs, imported by the verb that uses it

        self.pages = livebuild.Pages()  # MkDocs' builds, the last whole one kept for the saves after it
        self.indexer = indexing.Indexer()  # indexes the model of each rebuild, once saves pause
        self.preview = pipeline.Preview()  # what the last rebuild rendered, so a save re-renders only what it changed
        self.theme = pipeline.ThemeCache()  # Material's templates compiled once, not on every save
        self.lock = threading.Lock()
        self.settler: threading.Timer | None = None

    def settle(self) -> None:
        with self.lock:
            self.preview.settle()

    def _config(self, redirects: dict):
        """The MkDocs config of a whole build: mkdocs.yml for the served site, its theme's
        templates compiled once."""
        config = pipeline.mkdocs_config(self.docs, self.site_dir, strict=False, site_url=self.serve_url)
        config["plugins"]["redirects"].config["redirect_maps"] = redirects
        self.theme.attach(config)
        return config

    def __call__(self) -> None:
        if self.settler is not None:
            self.settler.cancel()
        started = time.perf_counter()
        self.indexer.hold()  # the index of the model this rebuild replaces stops, out of this rebuild's way
        with self.lock:
            try:
                site, written = pipeline.generate(self.content, self.docs, self.preview)
            except ContentError as exc:  # keep serving the last good site; say what is wrong
                print("\n".join(map(str, exc.problems)), file=sys.stderr)
                return
            redirects = manifest.redirects(site)
            # What MkDocs' last build made of the site stays right while these hold (livebuild).
            # The render's key holds templates/ as this save found it (build.render_docs).
            key = (
                frozenset(self.preview.on_disk),
                self.preview.key,
                pipeline.stamps(pipeline.CONFIG),
                tuple(sorted(redirects.items())),
            )
            self.pages(key, lambda: self._config(redirects), written, self.serve_url)
        self.indexer.request(site, self.site_dir)
        built = "built whole by MkDocs" if self.pages.rendered < 0 else f"{self.pages.rendered} rendered by MkDocs"
        print(
            f"rebuilt in {time.perf_counter() - started:.2f}s ({len(written)} pages regenerated, {built})",
            file=sys.stderr,
        )
        # Once saves pause, tidy the heap while nobody waits (build.Preview.settle).
        self.settler = threading.Timer(SETTLE_AFTER, self.settle)
        self.settler.daemon = True
        self.settler.start()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def import_notes(args) -> int:
    """Import a GitHub release-notes file into content/changes/X.Y.yaml."""
    from ..notes import importer as importer

    return importer.command(args.file, args.release, args.output, args.diff, str(args.content))


def new_release(args) -> int:
    """Add a release: skeleton, change list, to-do list (generator.notes.new_release)."""
    from ..notes import new_release as adder

    return adder.command(args)


def scan(args) -> int:
    """List the lines of a codebase that touch a change of an upgrade (generator.tools.scan)."""
    from ..tools import scan as scanner

    if not args.site and not Path(args.content).is_dir():  # the installed command, away from a checkout
        raise UsageError(f"{args.content}: no content folder; pass --site URL to read a published Atlas")
    return scanner.command(args)


VERBS = {
    "check": check,
    "build": build,
    "serve": serve,
    "import-notes": import_notes,
    "new-release": new_release,
    "scan": scan,
}
