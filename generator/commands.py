"""The CLI verbs: thin functions that call the pipeline stages and return an exit code."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from . import build as pipeline
from . import manifest
from .errors import ContentError, UsageError

DEFAULT_CONTENT = pipeline.ROOT / "content"


def check(args) -> int:
    """Validate the content folder."""
    site = pipeline.site_model(args.content)
    changes = sum(len(r.changes) for r in site.releases)
    print(f"ok: {len(site.releases)} releases, {len(site.features)} features, {changes} changes")
    return 0


def build(args) -> int:
    """Validate, render Markdown, and build the HTML site with MkDocs --strict."""
    docs = args.docs or pipeline.DEFAULT_DOCS
    started = time.perf_counter()
    site, written = pipeline.generate(args.content, docs)
    promised = args.manifest or (manifest.DEFAULT if Path(args.content).resolve() == DEFAULT_CONTENT else None)
    if promised is not None and manifest.guard(site, Path(promised)):
        print(f"{promised}: new URLs recorded; commit the file", file=sys.stderr)
    generated = time.perf_counter()
    try:
        pipeline.mkdocs_build(site, docs, args.site)
    except pipeline.MkDocsFailed as exc:
        print(f"mkdocs --strict failed; {args.site} left as it was:\n{exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        raise UsageError(f"{args.site}: {exc.strerror or exc}") from exc
    done = time.perf_counter()
    print(
        f"built {args.site}: generate {generated - started:.2f}s ({len(written)} files rewritten), "
        f"mkdocs {done - generated:.2f}s, total {done - started:.2f}s"
    )
    return 0


def serve(args) -> int:
    """Generate, then serve with live reload; regenerate whenever content or templates change."""
    from mkdocs.commands.serve import serve as mkdocs_serve

    docs = pipeline.DEFAULT_DOCS
    pipeline.generate(args.content, docs)
    watched = [Path(args.content), pipeline.ROOT / "templates"]
    threading.Thread(target=_regenerate_on_change, args=(args.content, docs, watched), daemon=True).start()
    # "dirty": MkDocs rebuilds only the pages the generator rewrote, so a save shows in about a second.
    mkdocs_serve(str(pipeline.CONFIG), dev_addr=args.addr, livereload=True, build_type="dirty", docs_dir=str(docs), strict=False)
    return 0


def _regenerate_on_change(content: Path, docs: Path, watched: list[Path]) -> None:
    """Poll mtimes; regenerate when one changes. MkDocs then sees the rewritten pages."""

    def snapshot():
        return {p: p.stat().st_mtime_ns for root in watched for p in root.rglob("*") if p.is_file()}

    seen = snapshot()
    while True:
        time.sleep(0.2)
        now = snapshot()
        if now == seen:
            continue
        seen = now
        started = time.perf_counter()
        try:
            _, written = pipeline.generate(content, docs)
            print(f"regenerated {len(written)} files in {time.perf_counter() - started:.2f}s", file=sys.stderr)
        except ContentError as exc:
            print("\n".join(map(str, exc.problems)), file=sys.stderr)


def import_notes(args) -> int:
    """Import a GitHub release-notes file into content/changes/X.Y.yaml."""
    from . import import_notes as importer

    return importer.command(args.file, args.release, args.output, args.diff, str(args.content))


VERBS = {"check": check, "build": build, "serve": serve, "import-notes": import_notes}
