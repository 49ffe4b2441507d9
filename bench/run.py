"""One benchmark build, in its own process so its peak memory is its own.

    python -m bench.run --content C --docs D --site S --edit releases/X.Y.yaml [--profile DIR]

Runs the real pipeline (generator.pipeline.build.build_site, the build's order the CLI runs too), then, in
the same warm process as `serve` would, regenerates after editing the summary of one release
file, which it restores afterwards (EDIT_TRIES times; the median is reported). Prints one JSON object
per line, one per stage, so a build killed by the time limit still reports what it finished.
With --profile, each stage runs under cProfile and its statistics go to DIR/<stage>.prof.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import resource
import statistics
import sys
import time
from pathlib import Path

EDIT_MARKER = "Benchmarkeditmarker"
EDIT_TRIES = 5  # the one-file edit is timed this many times; the median is reported
REDIRECTS = "redirects.json"  # written beside --docs


def _emit(**record) -> None:
    record["monotonic"] = time.monotonic()
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    record["maxrss_kib"] = own.ru_maxrss
    # CPU seconds so far: this process's, and those of the processes it started and has waited
    # for (the forked content reader and page renderer, the search index's child, MkDocs' second process).
    record["cpu_self"] = own.ru_utime + own.ru_stime
    record["cpu_children"] = children.ru_utime + children.ru_stime
    print(json.dumps(record), flush=True)


def index_alone(site) -> dict:
    """The index's child's work by itself on the build's search records (fulltext.build):
    wall-clock seconds to write the index, and its CPU seconds (user and kernel)."""
    import tempfile

    from generator.search import fulltext
    from generator.search import records as search

    records = search.records(site, search.page_meta(site))
    with tempfile.TemporaryDirectory(prefix="bench-index-") as out:
        before, started = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
        made = fulltext.build(records, Path(out) / "search-text")
        seconds, after = time.monotonic() - started, resource.getrusage(resource.RUSAGE_SELF)
        return {
            "records": len(records),
            "terms": made["terms"],
            "seconds": seconds,
            "user": after.ru_utime - before.ru_utime,
            "system": after.ru_stime - before.ru_stime,
            "ok": True,
        }


def _timed(stage: str, profile_dir: Path | None, fn, *args):
    profiler = cProfile.Profile() if profile_dir else None
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    try:
        result = fn(*args)
    finally:
        if profiler:
            profiler.disable()
    seconds = time.perf_counter() - started
    if profiler:
        profiler.dump_stats(str(profile_dir / f"{stage}.prof"))
    return result, seconds


def _snapshot(docs: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(docs).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns) for p in docs.rglob("*") if p.is_file()
    }


def edit_summary(text: str) -> str:
    """The release file with one word added to the end of its top-level summary's first line."""
    lines = text.split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith("summary:"))
    if lines[i].rstrip().endswith((">-", ">", "|", "|-")):
        i += 1  # a block scalar: the text starts on the next line
    elif lines[i].rstrip().endswith(("'", '"')):
        raise ValueError("quoted one-line summary; cannot edit it safely")
    lines[i] = lines[i].rstrip() + f" {EDIT_MARKER}"
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--content", type=Path, required=True)
    p.add_argument("--docs", type=Path, required=True)
    p.add_argument("--site", type=Path, required=True)
    p.add_argument("--edit", required=True, help="release file to edit, relative to --content")
    p.add_argument("--profile", type=Path, default=None)
    p.add_argument("--index-alone", action="store_true", help="after the build, time writing the index alone")
    args = p.parse_args(argv)
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    _emit(stage="start")

    from generator.pipeline import build as pipeline

    _emit(stage="imported")
    timings: dict[str, float] = {}
    calls: dict[str, int] = {}  # in this process: MkDocs' pages made by its forked child are not counted

    def timed(name, function):
        def run(*a, **k):
            started = time.perf_counter()
            try:
                return function(*a, **k)
            finally:
                timings[name] = timings.get(name, 0.0) + time.perf_counter() - started
                calls[name] = calls.get(name, 0) + 1

        return run

    # Where the build's time goes: its stages, timed where the pipeline calls them.
    steps = {"load": "load", "enrich": "enrich", "render": "render_site", "write": "write_changed"}
    originals = {name: getattr(pipeline, attr) for name, attr in steps.items()}
    for name, attr in steps.items():
        setattr(pipeline, attr, timed(name, originals[name]))
    checks = pipeline.invariants.check
    pipeline.invariants.check = timed("check", checks)

    # The build as `python -m generator build` runs it: build.build_site, the one function that
    # holds the build's order, timed from outside. Its steps are timed where it calls them; MkDocs'
    # HTML apart (halves.build, so the report can set it beside Zensical's build of the same docs)
    # and the wait for the index. Within MkDocs: each page's Markdown (Page.render), each page's
    # theme template and its write (_build_page), of the pages this process made (its forked child
    # makes the others); the rest is reading the files, copying the theme's, nav, sitemap, and
    # waiting for the child's last pages.
    import mkdocs.commands.build as mkdocs_commands
    from mkdocs.structure.pages import Page

    from generator.pipeline import halves
    from generator.search import indexing

    kept = indexing.Beside.place, halves.build, mkdocs_commands._build_page, Page.render
    # When the search index's child process took its steps (child.PHASES) and MkDocs ended: which
    # of the two chains the build waited for.
    moments: dict[str, float] = {}
    wait, mkdocs_html = timed("index-wait", kept[0]), timed("html", kept[1])

    def place(beside, site_dir):
        try:
            return wait(beside, site_dir)
        finally:
            moments.update({f"index_{k}": v for k, v in beside.indexing.phases.items()})

    def html(*a, **k):
        try:
            return mkdocs_html(*a, **k)
        finally:
            moments["html_end"] = time.monotonic()

    indexing.Beside.place = place
    halves.build = html
    mkdocs_commands._build_page = timed("templates", mkdocs_commands._build_page)
    Page.render = timed("markdown", Page.render)
    try:
        built, _ = _timed("build", args.profile, pipeline.build_site, args.content, args.site, args.docs)
    finally:
        for name, attr in steps.items():
            setattr(pipeline, attr, originals[name])
        pipeline.invariants.check = checks
        indexing.Beside.place, halves.build, mkdocs_commands._build_page, Page.render = kept
    site = built.site
    _emit(
        stage="generate",
        seconds=built.generated,
        written=len(built.written),
        steps={k: v for k, v in timings.items() if k in steps or k == "check"},
    )
    _emit(
        stage="mkdocs",
        seconds=built.total - built.generated,
        search_seconds=timings["index-wait"],
        html_seconds=timings["html"],
        moments=moments,
        steps={k: timings.get(k, 0.0) for k in ("markdown", "templates")},
        pages_here=calls.get("markdown", 0),
    )
    from generator.pipeline import pagesize

    listed = ((page.url, page.template) for page in site.pages)
    _emit(stage="pages", by_kind=pagesize.largest_by_kind(args.site, listed))
    if args.index_alone:
        _emit(stage="index-alone", **index_alone(site))
    # The feature aliases' redirects, for the bench's Zensical build of the same docs.
    from generator.pipeline import manifest

    (args.docs.parent / REDIRECTS).write_text(json.dumps(manifest.redirects(site), sort_keys=True), encoding="utf-8")

    # Live preview's state: a render that recorded what each page read (as `serve`'s first
    # rebuild does; not timed, `build` does not record).
    preview = pipeline.Preview()
    pipeline.generate(args.content, args.docs, preview)
    preview.settle()  # as `serve` does once a rebuild has been shown and no save follows
    release_file = args.content / args.edit
    original = release_file.read_text(encoding="utf-8")
    before = _snapshot(args.docs)
    release_file.write_text(edit_summary(original), encoding="utf-8")
    try:
        (_, written), seconds = _timed(
            "regenerate-edit", args.profile, pipeline.generate, args.content, args.docs, preview
        )
    finally:
        release_file.write_text(original, encoding="utf-8")
    after = _snapshot(args.docs)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k, (None,))[0] != after.get(k, (None,))[0])
    touched = sorted(k for k in before.keys() | after.keys() if before.get(k, (0, 0))[1] != after.get(k, (0, 0))[1])
    without_marker = sorted(k for k in changed if k in after and EDIT_MARKER.encode() not in after[k][0])
    # One edit is one sample of a ~0.1 s figure on a shared machine: the same edit is made again
    # (each time after the restore is regenerated and the heap settled, as `serve` does between
    # saves) and the median is the figure.
    tries = [seconds]
    for _ in range(EDIT_TRIES - 1):
        pipeline.generate(args.content, args.docs, preview)  # the restored file
        preview.settle()
        release_file.write_text(edit_summary(original), encoding="utf-8")
        try:
            started = time.perf_counter()
            pipeline.generate(args.content, args.docs, preview)
            tries.append(time.perf_counter() - started)
        finally:
            release_file.write_text(original, encoding="utf-8")
    _emit(
        stage="regenerate-edit",
        seconds=statistics.median(tries),
        tries=tries,
        written=sorted(written),
        bytes_changed=changed,
        mtime_changed=touched,
        changed_without_edit=without_marker,
    )
    return 0


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    sys.exit(main())
