"""The benchmark's output: the results table, the targets, results.md, profile summaries."""

from __future__ import annotations

import os
import pstats
import re
from pathlib import Path

MB = 1_000_000  # targets use decimal megabytes
REF_TARGET = 4  # the 1× build, in times the reference workload timed in the same run (issue 47)


def size(n: int | None) -> str:
    if n is None:
        return "—"
    for unit, step in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= step:
            return f"{n / step:.1f} {unit}" if n < 100 * step else f"{n / step:.0f} {unit}"
    return f"{n} B"


def secs(s: float | None, reference: float | None = None) -> str:
    """Seconds, and with a reference their ratio to it: '4.27 (3.6×)'."""
    if s is None:
        return "—"
    return f"{s:.2f}" + (f" ({ratio(s / reference)})" if reference else "")


def ratio(x: float) -> str:
    """A ratio with two significant figures, but whole from 10 on: '0.34×', '3.5×', '250×'."""
    return f"{x:.2f}×" if x < 1 else f"{x:.1f}×" if x < 10 else f"{x:.0f}×"


def table(runs: list[dict], reference: float | None = None) -> str:
    """The results as a Markdown table, one row per scale; with the reference workload's seconds
    (bench/ref.py), each time with its ratio to it."""
    ref = reference
    head = (
        "| Scale | Releases | Features | Changes | Generator s | MkDocs s | Total s | Pages | Site bytes "
        "| Bytes/page | Largest page | Search index | Peak RSS | One-file edit |"
    )
    rows = [head, "|" + " --- |" * 14]
    for r in runs:
        largest = f"`{r['largest_page'][0]}` {size(r['largest_page'][1])}" if r.get("largest_page") else "—"
        edit = (
            f"{secs(r['edit_seconds'], ref)} s, {len(r['edit_written'])} files"
            if r.get("edit_seconds") is not None
            else "—"
        )
        mkdocs = secs(r.get("mkdocs_seconds"), ref)
        if r["status"] != "ok" and r.get("mkdocs_seconds") is None and r.get("generate_seconds") is not None:
            mkdocs = f"({r['status']})"
        total = secs(r.get("total_seconds"), ref) if r["status"] == "ok" else r["status"]
        rss = f"{r['maxrss_kib'] / 1024:,.0f} MiB" if r.get("maxrss_kib") else "—"
        rows.append(
            f"| {r['scale']}× | {r.get('releases', '—')} | {r.get('features', '—')} | {r.get('changes', '—')} "
            f"| {secs(r.get('generate_seconds'), ref)} | {mkdocs} | {total} | {r.get('pages', '—')} | {size(r.get('site_bytes'))} "
            f"| {size(r.get('bytes_per_page'))} | {largest} | {size(r.get('search_index_bytes'))} | {rss} | {edit} |"
        )
    tried = [r for r in runs if r.get("tries")]
    for r in tried:
        totals = ", ".join(secs(t, ref) if t is not None else "failed" for t in r["tries"])
        rows.append(
            f"\n{r['scale']}×: built {len(r['tries'])} times, totals {totals} s; the row shows the median build."
        )
    return "\n".join(rows)


def kinds_table(runs: list[dict]) -> str:
    """The largest page of each kind (its template) at each scale: which pages grow with the
    content, and which stay bounded (generator/pipeline/pagesize.py)."""
    measured = [r for r in runs if r.get("largest_by_kind")]
    kinds = sorted({kind for r in measured for kind in r["largest_by_kind"]})
    rows = [
        "| Page kind | " + " | ".join(f"{r['scale']}×" for r in measured) + " |",
        "| --- |" + " --- |" * len(measured),
    ]
    for kind in kinds:
        cells = []
        for r in measured:
            url, n = r["largest_by_kind"].get(kind, ("", None))
            cells.append(f"{size(n)} (`/{url}`)" if n is not None else "—")
        rows.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(rows) if measured else ""


def targets(runs: list[dict], limit: float, reference: float | None = None) -> list[tuple[str, str, str]]:
    """(PASS|MISS|SKIP, target, measured) for every target the issues set; with the reference
    workload's seconds, the 1× build's target as a ratio to it (issue 47)."""
    by_scale = {r["scale"]: r for r in runs}
    done = [r for r in runs if r["status"] == "ok"]
    one, ten = by_scale.get(1), by_scale.get(10)
    ok = lambda r: r is not None and r["status"] == "ok"  # noqa: E731
    out = []

    def add(passed: bool | None, name: str, measured: str) -> None:
        out.append(("SKIP" if passed is None else "PASS" if passed else "MISS", name, measured))

    add(
        all(r["status"] == "ok" for r in runs),
        f"every scale builds within the {limit:.0f} s limit",
        ", ".join(f"{r['scale']}×: {r['status']}" for r in runs),
    )
    add(
        one["total_seconds"] <= 5 if ok(one) else None,
        "real corpus end to end ≤ 5 s",
        f"{one['total_seconds']:.2f} s" if ok(one) else "1× not measured",
    )
    add(
        one["total_seconds"] <= REF_TARGET * reference if ok(one) and reference else None,
        f"real corpus end to end ≤ {REF_TARGET:g}× the reference workload",
        f"{one['total_seconds'] / reference:.2f}× ({one['total_seconds']:.2f} s against {reference:.2f} s)"
        if ok(one) and reference
        else "1× or the reference not measured",
    )
    add(
        ten["total_seconds"] <= 50 if ok(ten) else None,
        "10× end to end ≤ 50 s",
        f"{ten['total_seconds']:.2f} s" if ok(ten) else "10× not measured",
    )
    shares = [(r["scale"], r["generate_seconds"] / r["total_seconds"]) for r in done]
    add(
        all(s <= 0.05 for _, s in shares) if shares else None,
        "generator stage ≤ 5% of total",
        ", ".join(f"{k}×: {s:.1%}" for k, s in shares),
    )
    if ok(one) and ok(ten):
        ratio = ten["total_seconds"] / one["total_seconds"]
        extra = ""
        fifty = by_scale.get(50)
        if ok(fifty):
            extra = f"; 50×: {fifty['total_seconds'] / one['total_seconds']:.1f}× (for reference, 55× would be linear + 10%)"
        add(ratio <= 11, "10× time ≤ 11× the 1× time", f"{ratio:.1f}×{extra}")
    else:
        add(None, "10× time ≤ 11× the 1× time", "needs 1× and 10×")
    bpp = [(r["scale"], r["bytes_per_page"]) for r in done]
    if len(bpp) > 1:
        base = bpp[0][1]
        spread = max(abs(b / base - 1) for _, b in bpp)
        add(
            spread <= 0.10,
            "bytes per page within 10% across scales",
            ", ".join(f"{k}×: {size(b)} ({b / base - 1:+.0%})" for k, b in bpp),
        )
    else:
        add(None, "bytes per page within 10% across scales", "needs two scales")
    largest = [(r["scale"], r["largest_page"]) for r in done]
    add(
        all(p[1] <= MB for _, p in largest) if largest else None,
        "largest page ≤ 1 MB",
        ", ".join(f"{k}×: {size(p[1])} ({p[0]})" for k, p in largest),
    )
    edits = [r for r in runs if r.get("edit_seconds") is not None]
    if ok(one) and one.get("edit_seconds") is not None:
        only = all(r["edit_only_changed"] for r in edits)
        measured = "; ".join(
            f"{r['scale']}×: {r['edit_seconds']:.2f} s (median of {len(r.get('edit_tries', [0]))}: "
            f"{', '.join(f'{t:.2f}' for t in r.get('edit_tries', []))}), rewrote {len(r['edit_written'])} "
            f"({', '.join(r['edit_written'][:4])}{'…' if len(r['edit_written']) > 4 else ''})"
            f"{'' if r['edit_only_changed'] else ' — NOT only the changed pages: ' + r['edit_problem']}"
            for r in edits
        )
        add(
            one["edit_seconds"] <= 0.3 and only,
            "one-file edit regenerates in ≤ 0.3 s (real corpus), rewriting only the changed pages",
            measured,
        )
        ten = next((r for r in edits if r["scale"] == 10), None)
        add(
            ten["edit_seconds"] <= 1.0 and ten["edit_only_changed"] if ten else None,
            "one-file edit regenerates in ≤ 1 s at 10×, rewriting only the changed pages",
            f"{ten['edit_seconds']:.2f} s" if ten else "10× not measured",
        )
    else:
        add(None, "one-file edit regenerates in ≤ 0.3 s, rewriting only the changed pages", "1× not measured")
    for scale, r, limit in ((1, one, 1 * MB), (10, ten, 1.5 * MB)):
        found = r.get("search") if r else None
        add(
            found["first_visit_and_search_bytes"] <= limit if found else None,
            f"first visit to the largest release page plus a first search ≤ {size(int(limit))} at {scale}×",
            f"{size(found['first_visit_and_search_bytes'])} (page {size(found['visit_bytes'])}, search "
            f"{size(found['search_bytes'])})"
            if found
            else f"{scale}× not searched",
        )
    found = one.get("search") if one else None
    add(
        found["first_search_ms"] <= 300 if found else None,
        "first result ≤ 300 ms after the last keystroke at 1×",
        f"first search {found['first_search_ms']:.0f} ms, then median {found['median_search_ms']:.0f} ms"
        if found
        else "1× not searched",
    )
    add(
        found["first"] >= 0.95 * found["queries"] and found["top3"] == found["queries"] if found else None,
        "the wanted page first for ≥ 95% of the query set, in the top three for all (1×)",
        f"{found['first']} of {found['queries']} first ({found['first'] / found['queries']:.1%}), "
        f"{found['top3']} in the top three"
        if found
        else "1× not searched",
    )
    return out


def search_table(runs: list[dict]) -> str:
    """Search in the browser, per scale searched: what a reader downloads and waits for."""
    rows = [
        "| Scale | First visit (page) | First search | Both | First result | Later searches (median) | Index on disk |",
        "|" + " --- |" * 7,
    ]
    for r in runs:
        found = r.get("search")
        if found:
            rows.append(
                f"| {r['scale']}× | {size(found['visit_bytes'])} (`{found['page']}`) | {size(found['search_bytes'])} "
                f"| {size(found['first_visit_and_search_bytes'])} | {found['first_search_ms']:.0f} ms "
                f"| {found['median_search_ms']:.0f} ms | {size(r.get('search_index_bytes'))} |"
            )
    return "\n".join(rows)


def _zensical_run(z: dict, name: str, reference: float | None = None) -> str:
    """One Zensical build's seconds (CPU seconds), or why there are none: the run that failed says
    so with its time and Zensical's last line, a run after it was not made."""
    failed = re.match(r"failed \((\w+)\): (.*)", z["status"])
    if failed and failed[1] == name:
        return f"failed after {z[f'{name}_seconds']:.2f} s: {failed[2]}"
    if z.get(f"{name}_seconds") is None:
        return "not run" if failed else (z["status"] if z["status"] != "ok" else "—")
    times = f", {ratio(z[f'{name}_seconds'] / reference)}" if reference else ""
    return f"{z[f'{name}_seconds']:.2f} ({z[f'{name}_cpu_seconds']:.2f}{times})"


def zensical_table(runs: list[dict], reference: float | None = None) -> str:
    """MkDocs and Zensical building the same generated docs, per scale Zensical built."""
    rows = [
        "| Scale | MkDocs s (HTML) | Wait for the search index s | Zensical clean s (CPU s, × reference) "
        "| Zensical cached s (CPU s, × reference) |",
        "|" + " --- |" * 5,
    ]
    for r in runs:
        z = r.get("zensical")
        if not z:
            continue
        html = secs(r.get("html_seconds"), reference)
        clean, cached = _zensical_run(z, "clean", reference), _zensical_run(z, "cached", reference)
        rows.append(f"| {r['scale']}× | {html} | {secs(r.get('search_seconds'))} | {clean} | {cached} |")
    return "\n".join(rows)


def scan_lines(scan: dict | None) -> list[str]:
    """'Scanning your code': `python -m generator scan` over a synthetic codebase (scan.bench)."""
    if not scan:
        return []
    return [
        "## Scanning your code",
        "",
        f"`python -m generator scan` over a synthetic codebase of {scan['files']:,} `.py` files"
        f" ({scan['lines']:,} lines; every 50th uses a name one of the {scan['changes']:,} changes of the"
        f" range names): the change records made from the content in {scan['records_s']:.2f} s, the files"
        f" walked and matched in {scan['scan_s']:.2f} s, {scan['findings']:,} lines found.",
        "",
    ]


def target_lines(results: list[tuple[str, str, str]]) -> str:
    return "\n".join(f"{verdict} {name}: {measured}" for verdict, name, measured in results)


def time_split(run: dict, cores: int, reference: float | None = None) -> list[str]:
    """'Where the time goes': the 1x build's steps as the pipeline called them (each also as a
    ratio to the reference workload), its CPU time beside the wall-clock time, and the search
    index's share, from what bench/run.py recorded."""
    steps = run.get("steps") or {}
    needed = ("import_seconds", "generate_seconds", "html_seconds", "search_seconds", "cpu_self", "cpu_children")
    if any(run.get(k) is None for k in needed) or not {"load", "render", "markdown", "templates"} <= steps.keys():
        return []
    pages = run.get("markdown_pages") or 0
    here = run.get("mkdocs_pages_here") or pages  # the pages MkDocs made in the build's process
    generated = sum(steps.get(k, 0.0) for k in ("load", "enrich", "check", "render", "write"))
    mkdocs_rest = run["html_seconds"] - steps["markdown"] - steps["templates"]
    placing = run["mkdocs_seconds"] - run["html_seconds"] - run["search_seconds"]
    rows = [
        ("Start Python, import the generator", run["import_seconds"]),
        ("Read and validate the content (a forked child reads half the files)", steps["load"]),
        ("Enrich the model; hold the pages to each other", steps.get("enrich", 0.0) + steps.get("check", 0.0)),
        ("Render the pages (shared with a forked child, each taking the next)", steps["render"]),
        (f"Write the generated docs ({run.get('docs_files', '?')} files)", steps.get("write", 0.0)),
        ("Start the search index's process; the rest of the generator", run["generate_seconds"] - generated),
        (f"MkDocs: Python-Markdown, the build's process's {here} of {pages} pages", steps["markdown"]),
        (f"MkDocs: Material's page template and its file, the same {here} pages", steps["templates"]),
        (
            "MkDocs: the rest (config, files, theme assets, nav, the other process's last pages, sitemap, redirects)",
            mkdocs_rest,
        ),
        ("Wait for the search index; move it and the site into place", run["search_seconds"] + placing),
    ]
    cpu = run["cpu_self"] + run["cpu_children"]
    lines = [
        "## Where the time goes",
        "",
        "The 1× build of the first table, from the start of its process to the end of MkDocs, each step",
        "timed where the pipeline calls it (bench/run.py):",
        "",
        "| Step | Seconds (× reference) |" if reference else "| Step | Seconds |",
        "| --- | --- |",
        *(f"| {name} | {secs(seconds, reference)} |" for name, seconds in rows),
        f"| **Total** | **{secs(run['total_seconds'], reference)}** |",
        "",
        f"CPU time to the end of MkDocs: {run['cpu_self']:.2f} s in the build's process and"
        f" {run['cpu_children']:.2f} s in the processes it started (the forked reader and renderer, the"
        f" search index's process, MkDocs' second process), {cpu:.2f} s in all: on {cores} cores, no sharing of"
        f" that work ends before {cpu / cores:.2f} s.",
    ]
    alone = run.get("index_alone")
    if alone and alone.get("ok"):
        lines[-1] += (
            f" Indexed by themselves, the same {alone['records']:,} records ({alone['terms']:,} terms) take"
            f" {alone['seconds']:.2f} s, {alone['user'] + alone['system']:.2f} s of CPU"
            f" ({alone['system']:.2f} s of it in the kernel, writing the index's files)."
        )
    lines += chains(run.get("moments") or {})
    if here:
        lines += [
            "",
            "MkDocs builds one page after another in one thread; the build shares its pages between its"
            f" process and a forked child (generator/pipeline/halves.py), and made {here} of {pages} in its own."
            f" There Python-Markdown took {steps['markdown']:.2f} s"
            f" ({1000 * steps['markdown'] / here:.1f} ms a page) although every block the generator renders"
            " reaches it as finished HTML (generator/markup/rawhtml.py): what it still reads is each page's"
            " headings, from which it makes the table of contents and the anchors, and the tables, lists"
            f" and paragraphs written in Markdown. Material's page template takes {steps['templates']:.2f} s"
            f" ({1000 * steps['templates'] / here:.1f} ms a page: head, header, tabs, navigation, footer),"
            " compiled once and kept.",
        ]
    return lines + [""]


def chains(moments: dict) -> list[str]:
    """The build's two chains, from `moments` (seconds from the build's start, bench/run.py): the
    search index's child process (started, had its records, wrote the index) and MkDocs;
    the build ends with the later."""
    needed = ("index_started", "index_records", "index_indexed", "html_end")
    if any(k not in moments for k in needed):
        return []
    started, records, indexed, html = (moments[k] for k in needed)
    later, by = ("the search index", indexed - html) if indexed > html else ("MkDocs", html - indexed)
    return [
        "",
        "Two chains run side by side, and the build ends with the later one. The search index's process"
        f" started {started:.2f} s into the build, had its records (computed by a forked child from the"
        f" model) at {records:.2f} s and had written the index at {indexed:.2f} s, {indexed - records:.2f} s"
        f" later. MkDocs ended at {html:.2f} s. The later"
        f" was {later}, by {by:.2f} s: a build is shortened only by shortening both.",
    ]


def reference_lines(machine: dict) -> list[str]:
    """What the ratios in brackets are ratios to: the reference workload (bench/ref.py), timed at
    the start and at the end of the run."""
    if not machine.get("reference"):
        return []
    start, end = machine["ref_start"], machine["ref_end"]
    return [
        "Every build figure carries, in brackets, its ratio to the reference workload timed in the same run:"
        " `python -m bench.ref`, one Python-Markdown conversion of a fixed 3,000-section document (headings,"
        " lists, emphasis, code, links, raw HTML, tables) in a fresh Python process; it mirrors the shared"
        " yardstick issue 47 names. It took"
        f" {', '.join(f'{t:.2f}' for t in start)} s before the builds and {', '.join(f'{t:.2f}' for t in end)} s"
        f" after them; the ratios divide by the median of all {len(start) + len(end)}, {machine['reference']:.2f} s."
        " On another machine, time `python -m bench.ref` and compare ratios, not seconds.",
        "",
    ]


def markdown(runs: list[dict], verdicts: list[tuple[str, str, str]], machine: dict, limit: float) -> str:
    """bench-out/results.md: the 'How fast is it' page."""
    larger = " and ".join(str(r["scale"]) for r in runs if r["scale"] > 1) or "no"
    reference = machine.get("reference")
    lines = [
        "# How fast is it",
        "",
        f"`make bench` builds the site from the real content and from synthetic corpora {larger} times",
        "its size, through the same pipeline as `make site`: validate and render Markdown (the generator),",
        "then `mkdocs build --strict`. A synthetic corpus repeats the real releases as further 2.x",
        "versions, with the same features (under new ids, so their lifecycles span releases the same way),",
        "the same change lists and the same text, so each release page is as big as a real one and only",
        "what spans releases grows.",
        "",
        f"Measured {machine['date']} on {machine['cpu']} ({machine['nproc']} CPUs, {machine['memory']}), "
        f"Python {machine['python']}, MkDocs {machine['mkdocs']}, Material {machine['material']}; "
        f"code at {machine['revision']}."
        + (
            f" Corpora, docs and sites were written under `{Path(machine['work']).name}/` in the system's"
            " temporary folder."
            if machine.get("work")
            else ""
        )
        + (
            " A build writes about 10,000 small files at 1×, and this machine's disk takes them at a speed"
            " that swings: creating 3,000 files there took"
            f" {machine['files_before']:.2f} s before the runs and {machine['files_after']:.2f} s after"
            " (the same disk has taken 0.12 s and 2.5 s within an hour). So the real corpus is built three"
            " times and the table shows the median build. One cause is known and kept out of the runs:"
            " this file system (ext4 without a journal) creates files slowly for 30 s after many were"
            " deleted (the kernel reads each recently deleted inode it passes), so the benchmark deletes"
            " nothing until its last measurement; earlier builds' folders are moved aside."
            if machine.get("files_before") is not None and machine.get("files_after") is not None
            else ""
        ),
        "",
        *reference_lines(machine),
        "A build uses both cores (`generator/util/forked.py`): a forked child reads half the content files"
        " while the build reads the rest, another shares the pages' render with it (each takes the next"
        " page; the build first makes the API files, feeds and badges); the search index is made"
        " by a third process at low priority from the model, while the pages render and MkDocs runs."
        " Jinja templates, ours and Material's, are compiled once and kept in `build/templates/`, as"
        " Python keeps modules in `__pycache__`: the first of the three 1× builds compiles them.",
        "",
        table(runs, reference),
        "",
        "- **Total**: wall-clock time of the build process, from its start to the end of MkDocs, so it",
        "  includes starting Python and importing the libraries.",
        "- **Pages**: HTML pages in the site; **Bytes/page** is their mean size. **Site bytes** counts",
        "  every file, theme assets included.",
        "- **Peak RSS**: the build process's maximum resident memory.",
        "- **One-file edit**: after the build, one word is added to the summary of the newest release's",
        "  YAML file and the generator runs again in the same process, as `make serve` does on save;",
        "  the time and the number of Markdown files it rewrote.",
        f"- A build gets {limit:.0f} seconds; one that runs out is stopped and reported as timed out.",
        "",
        "## The largest page of each kind",
        "",
        "Each kind of page (its template) with its largest HTML page at each scale: a kind that grows with",
        "the content grows down its row; a bounded one stays about the same.",
        "",
        kinds_table(runs),
        "",
        *time_split(next((r for r in runs if r["scale"] == 1), {}), machine.get("nproc") or 1, reference),
        "## Zensical",
        "",
        "The same generated docs built by Zensical"
        + (f" {zensical_version(runs)}" if zensical_version(runs) else "")
        + " (`zensical build --strict` on our mkdocs.yml, as",
        "tests/test_zensical.py runs it), once from scratch and once more with nothing changed (Zensical",
        "keeps a cache beside its config), beside MkDocs' share of the build above: its HTML alone, then",
        "the wait for the search index (made beside it by another process; Zensical does not make it).",
        "Wall-clock seconds of the whole `zensical` process, its CPU seconds in brackets.",
        "",
        zensical_table(runs, reference),
        "",
        *scan_lines(machine.get("scan")),
        "## Search",
        "",
        "Measured in headless Chromium with an empty cache (bench/search.py): a first visit to the",
        "largest release page until its scripts have run (the load event) and then the network is idle,",
        "then one search typed into the header's box.",
        "The index is split into many small files and a search fetches only the few it needs, so what",
        "a reader downloads grows far more slowly than the index on disk.",
        "",
        search_table(runs),
        "",
        "- **First result**: from the last keystroke of the first search (typed a key every 80 ms after",
        "  a click in the box, which starts loading the engine) to its results on screen, including the",
        "  100 ms the box waits for a pause in typing; later searches reuse what the first one loaded.",
        "",
        "## Targets",
        "",
    ]
    lines += [f"- **{v}** {name}: {measured}" for v, name, measured in verdicts]
    return "\n".join(lines) + "\n"


def zensical_version(runs: list[dict]) -> str:
    return next((r["zensical"]["version"] for r in runs if r.get("zensical")), "")


def _where(filename: str) -> str:
    for marker in ("site-packages" + os.sep, "/lib/python"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    root = str(Path(__file__).resolve().parent.parent) + os.sep
    return filename.replace(root, "")


def profile_summary(prof: Path, top: int = 12) -> str:
    """The top functions of a cProfile dump by own time and by cumulative time."""
    stats = pstats.Stats(str(prof)).stats
    total = max((ct for _, _, _, ct, _ in stats.values()), default=0)
    rows = [(func, cc, nc, tt, ct) for func, (cc, nc, tt, ct, _) in stats.items()]

    def fmt(entry) -> str:
        (filename, line, name), _cc, nc, tt, ct = entry
        return f"  {tt:8.2f} {ct:8.2f} {nc:>9} {name} ({_where(filename)}:{line})"

    head = "   own s    cum s     calls function"
    by_own = sorted(rows, key=lambda r: -r[3])[:top]
    by_cum = sorted((r for r in rows if not r[0][0].startswith("~") and r[4] < total), key=lambda r: -r[4])[:top]
    return "\n".join(
        [
            f"{prof.name}: {total:.2f} s profiled",
            "by own time:",
            head,
            *map(fmt, by_own),
            "by cumulative time:",
            head,
            *map(fmt, by_cum),
        ]
    )


def publish(text: str, append: str | None) -> None:
    """Print a benchmark's section and, with `--append FILE`, add it to the report (make bench
    gathers every section into bench-out/results.md)."""
    print(text)
    if append:
        with open(append, "a", encoding="utf-8") as out:
            out.write("\n" + text.lstrip("\n"))
