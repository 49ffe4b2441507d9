"""The build benchmark (`make bench`): how the pipeline scales from the real corpus to 50 times it.

    python -m bench [--scales 1,10,50] [--out bench-out] [--work DIR] [--timeout 600]

It first copies the project into <out>/code, so every scale builds with the same code even if
the working tree changes meanwhile. For each scale it writes a content folder (1× is the real
content, copied; see bench/corpus.py for the larger ones), validates it with
`python -m generator check`, then builds it in a child process (bench/run.py) that runs
generate and mkdocs_build and times a one-file edit. It prints a Markdown table and a PASS/MISS
line per target, writes <out>/results.json and <out>/results.md, and, when a target is missed,
profiles the build with cProfile and prints the top costs (<out>/profiles/).

This is a benchmark, not a test: it asserts nothing and always exits 0 unless it cannot run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from importlib import metadata
from pathlib import Path

from . import ref, report
from . import search as bench_search
from .corpus import make_corpus

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
PROFILED_STAGES = ("build", "regenerate-edit")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Trash:
    """Where the benchmark puts the folders it is done with (earlier builds' docs and sites,
    Zensical's copies, the disk probe), removed when every measurement is made.

    This machine's file system (ext4 without a journal) is slow to create a file within 30 s
    of the deletion of many: to pick an inode the kernel reads each recently deleted one it
    passes (`perf` shows the time in recently_deleted, under __ext4_new_inode). Removing the
    last build's 10,000 files just before the next build made that build 2-3x slower, in
    kernel time. A rename into the trash deletes nothing, so no measured build follows a
    deletion of the benchmark's own making."""

    LINGER = 35  # seconds after which ext4 no longer treats a deleted inode as recent

    def __init__(self, work: Path) -> None:
        self.folder = work / "trash"
        self.count = 0

    def discard(self, path: Path) -> None:
        if path.exists():
            self.folder.mkdir(exist_ok=True)
            self.count += 1
            path.rename(self.folder / f"{self.count:04}-{path.name}")

    def empty(self) -> bool:
        """Remove what the trash holds; True when there was something."""
        had = self.folder.exists()
        shutil.rmtree(self.folder, ignore_errors=True)
        return had


def machine() -> dict:
    """What the numbers were measured on."""
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown CPU",
    )
    kib = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
    return {
        "nproc": os.cpu_count(),
        "memory": f"{kib / 1024 / 1024:.1f} GiB",
        "cpu": cpu,
        "python": platform.python_version(),
        "mkdocs": metadata.version("mkdocs"),
        "material": metadata.version("mkdocs-material"),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def small_files_seconds(folder: Path, trash: Trash, count: int = 3000) -> float:
    """Seconds to create `count` files of 500 bytes in a new folder inside `folder` (put in
    the trash after): how fast the disk takes the small files a build writes (~10,000 at 1×)."""
    probe = Path(tempfile.mkdtemp(prefix="files-probe-", dir=folder))
    try:
        started = time.perf_counter()
        for n in range(count):
            (probe / f"{n:05}.html").write_bytes(b"x" * 500)
        return time.perf_counter() - started
    finally:
        trash.discard(probe)


SNAPSHOT_SKIP = {
    ".git",
    ".venv",
    "site",
    "build",
    "bench-out",
    ".pytest_cache",
    ".ruff_cache",
    "__pycache__",
    "artifacts",
}


def snapshot_code(out: Path) -> Path:
    """Copy the project (generator, templates, mkdocs.yml ...) into out/code; builds run there.

    Every scale then builds with the same code, even while the working tree changes under
    the benchmark's feet; generator.pipeline.build finds templates/ and mkdocs.yml beside its package.
    """
    code = out / "code"
    shutil.rmtree(code, ignore_errors=True)
    shutil.copytree(ROOT, code, ignore=lambda folder, names: [n for n in names if n in SNAPSHOT_SKIP])
    return code


def revision() -> str:
    """The commit measured, and whether the working tree differed from it."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    ).stdout
    return (head or "unknown") + (" with uncommitted changes" if dirty.strip() else "")


def check(code: Path, content: Path) -> tuple[dict | None, str]:
    """Run `python -m generator check`; return the counts it prints (None if it failed) and its output."""
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "check", "--content", str(content)],
        cwd=code,
        capture_output=True,
        text=True,
    )
    m = re.search(r"ok: (\d+) releases, (\d+) features, (\d+) changes", proc.stdout)
    if proc.returncode or not m:
        return None, (proc.stdout + proc.stderr).strip()
    return {"releases": int(m[1]), "features": int(m[2]), "changes": int(m[3])}, proc.stdout.strip()


def run_child(
    code: Path, args: list[str], timeout: float, memory_gib: float, log_dir: Path
) -> tuple[list[dict], str, float, int, str]:
    """Run bench.run; return (stage records, status, start time, peak RSS in KiB, stderr tail).

    The build (generate + MkDocs) gets `timeout` seconds, the one-file edit after it as many
    again. os.wait4 gives the child's own rusage even when it is killed at the time limit, and
    the address-space limit keeps a runaway build from taking the machine's memory.
    """
    limit = int(memory_gib * 1024**3)

    def cap_memory():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    out_path, err_path = log_dir / "stdout.jsonl", log_dir / "stderr.txt"
    with open(out_path, "w") as out, open(err_path, "w") as err:
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "bench.run", *args], cwd=code, stdout=out, stderr=err, preexec_fn=cap_memory
        )
        status, deadline, built = None, started + timeout, False
        while True:
            pid, wait_status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if not built and '"stage": "mkdocs"' in out_path.read_text():
                built, deadline = True, time.monotonic() + timeout
            if time.monotonic() > deadline:
                proc.kill()
                _, wait_status, usage = os.wait4(proc.pid, 0)
                status = f"timed out after {timeout:.0f} s" + (" (one-file edit)" if built else "")
                break
            time.sleep(0.1)
        proc.returncode = os.waitstatus_to_exitcode(wait_status)
    records = []
    for line in out_path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            pass
    stderr = err_path.read_text()
    if status is None and proc.returncode != 0:
        last = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {proc.returncode}"
        status = "out of memory" if "MemoryError" in stderr else f"failed: {last[:80]}"
    return records, status or "ok", started, usage.ru_maxrss, stderr[-3000:]


def site_stats(site: Path) -> dict:
    """Pages, bytes, the largest page and the search index (all of it: a search fetches a few
    of its files) of a built site."""
    total, html, pages, largest = 0, 0, 0, ("", 0)
    for dirpath, _, files in os.walk(site):
        for name in files:
            path = Path(dirpath) / name
            n = path.stat().st_size
            total += n
            if name.endswith(".html") and name != "404.html":
                html += n
                pages += 1
                if n > largest[1]:
                    largest = (path.relative_to(site).as_posix(), n)
    index = sum(p.stat().st_size for folder in ("search-text", "search-names") for p in (site / folder).rglob("*"))
    return {
        "pages": pages,
        "site_bytes": total,
        "html_bytes": html,
        "bytes_per_page": html // pages if pages else None,
        "largest_page": largest,
        "search_index_bytes": index or None,
    }


def docs_stats(docs: Path) -> dict:
    """The generated Markdown: how many pages, how big, the largest."""
    md = [(p.relative_to(docs).as_posix(), p.stat().st_size) for p in docs.rglob("*.md")]
    return {
        "markdown_pages": len(md),
        "markdown_bytes": sum(n for _, n in md),
        "largest_markdown": max(md, key=lambda x: x[1]) if md else None,
    }


SEARCH_SCALES = (1, 10)  # bench/search.py in Chromium: transfer, latency, quality (1×)
ZENSICAL_SCALES = (1, 10)  # Zensical builds the same generated docs, for comparison with MkDocs


def zensical(code: Path, work: Path, timeout: float, trash: Trash) -> dict:
    """Build a scale's generated docs (work/docs) with Zensical as tests/test_zensical.py does:
    once clean, then once more unchanged (Zensical keeps a cache beside its config). Return
    each build's wall-clock and CPU seconds, or why it failed."""
    from tests.helpers import zensical_config

    from .run import REDIRECTS

    project = work / "zensical"
    trash.discard(project)
    shutil.copytree(work / "docs", project / "docs")
    redirects = json.loads((work / REDIRECTS).read_text(encoding="utf-8"))
    config = project / "mkdocs.yml"
    config.write_text(zensical_config(project / "docs", redirects, code), encoding="utf-8")
    result: dict = {"version": metadata.version("zensical")}
    try:
        for run in ("clean", "cached"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)  # summed over the children reaped so far
            started = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "-m", "zensical", "build", "--strict", "--config-file", str(config)],
                cwd=project,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            try:
                output, _ = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                return {**result, "status": f"timed out after {timeout:.0f} s ({run})"}
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            result[f"{run}_seconds"] = time.monotonic() - started
            result[f"{run}_cpu_seconds"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            if proc.returncode:
                tail = output.decode(errors="replace").strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
                return {**result, "status": f"failed ({run}): {textwrap.shorten(tail[0], 160, placeholder=' …')}"}
        result["status"] = "ok"
        return result
    finally:
        trash.discard(project)


def largest_release(site: Path) -> str:
    """The release page with the most bytes: the heaviest first visit."""
    page = max((site / "releases").glob("*/index.html"), key=lambda p: p.stat().st_size)
    return f"releases/{page.parent.name}/"


def newest_release(content: Path) -> str:
    files = sorted((content / "releases").glob("*.yaml"), key=lambda p: tuple(int(x) for x in p.stem.split(".")))
    return f"releases/{files[-1].name}"


def measure(
    scale: int, out: Path, timeout: float, memory_gib: float, trash: Trash, profile: Path | None = None
) -> dict:
    """Make the corpus for one scale (a profiled run reuses it), build it, and collect every number."""
    work = out / f"{scale}x"
    content, docs, site = work / "content", work / "docs", work / "site"
    result: dict = {"scale": scale}
    if profile is None:
        log(
            f"{scale}×: writing the corpus into {content.relative_to(ROOT) if content.is_relative_to(ROOT) else content}"
        )
        trash.discard(content)
        make_corpus(CONTENT, content, scale)
        counts, output = check(out / "code", content)
        if counts is None:
            log(f"{scale}×: generator check failed:\n{output}")
            return {**result, "status": "invalid corpus", "check_output": output[-3000:]}
        result.update(counts)
        log(f"{scale}×: {output}")
    for folder in (docs, site):
        trash.discard(folder)
    logs = work / ("profile-logs" if profile else "logs")
    logs.mkdir(parents=True, exist_ok=True)
    args = ["--content", str(content), "--docs", str(docs), "--site", str(site), "--edit", newest_release(content)]
    if profile:
        args += ["--profile", str(profile)]
    elif scale == 1:
        args.append("--index-alone")  # and time writing the index alone, for "Where the time goes"
    log(f"{scale}×: building{' under cProfile' if profile else ''} (limit {timeout:.0f} s)")
    records, status, started, maxrss, stderr = run_child(out / "code", args, timeout, memory_gib, logs)
    stages = {r["stage"]: r for r in records}
    result.update(status=status, maxrss_kib=max([maxrss] + [r["maxrss_kib"] for r in records]))
    if status != "ok":
        result["stderr_tail"] = stderr
        log(f"{scale}×: {status}\n{stderr[-1500:]}")
    if "start" in stages:
        result["startup_seconds"] = stages["start"]["monotonic"] - started
    if "imported" in stages:
        result["import_seconds"] = stages["imported"]["monotonic"] - started
    if "generate" in stages:
        result["generate_seconds"] = stages["generate"]["seconds"]
        result["steps"] = dict(stages["generate"].get("steps", {}))
        result["docs_files"] = stages["generate"]["written"]  # all of them: the docs folder starts empty
        result.update(docs_stats(docs))
    if "mkdocs" in stages:
        result["mkdocs_seconds"] = stages["mkdocs"]["seconds"]
        result["search_seconds"] = stages["mkdocs"].get("search_seconds")
        result["html_seconds"] = stages["mkdocs"].get("html_seconds")
        result["moments"] = {k: t - started for k, t in stages["mkdocs"].get("moments", {}).items()}
        result["steps"].update(stages["mkdocs"].get("steps", {}))
        result["mkdocs_pages_here"] = stages["mkdocs"].get("pages_here")
        result["cpu_self"], result["cpu_children"] = stages["mkdocs"]["cpu_self"], stages["mkdocs"]["cpu_children"]
        result["total_seconds"] = stages["mkdocs"]["monotonic"] - started
        result["maxrss_build_kib"] = stages["mkdocs"]["maxrss_kib"]
        result.update(site_stats(site))
        if profile is None and scale in ZENSICAL_SCALES:
            log(f"{scale}×: building the same docs with Zensical (clean, then cached)")
            result["zensical"] = zensical(out / "code", work, timeout, trash)
    if "pages" in stages:
        result["largest_by_kind"] = stages["pages"]["by_kind"]
    if "index-alone" in stages:
        result["index_alone"] = {k: v for k, v in stages["index-alone"].items() if k not in ("stage", "monotonic")}
    if "regenerate-edit" in stages:
        edit = stages["regenerate-edit"]
        written, changed, touched = edit["written"], edit["bytes_changed"], edit["mtime_changed"]
        problems = []
        if set(written) != set(changed):
            problems.append(
                f"rewrote {sorted(set(written) - set(changed))} unchanged, missed {sorted(set(changed) - set(written))}"
            )
        if set(touched) != set(changed):
            problems.append(f"mtime changed on unchanged files {sorted(set(touched) - set(changed))}")
        if edit["changed_without_edit"]:
            problems.append(f"pages changed that do not show the edit: {edit['changed_without_edit']}")
        result.update(
            edit_file=newest_release(content),
            edit_seconds=edit["seconds"],
            edit_tries=edit.get("tries", [edit["seconds"]]),
            edit_written=written,
            edit_only_changed=not problems,
            edit_problem="; ".join(problems),
        )
    return result


def profile_scale(scale: int, out: Path, timeout: float, memory_gib: float, trash: Trash) -> list[str]:
    """Build one scale again under cProfile; return the summaries of its stages."""
    prof_dir = out / "profiles" / f"{scale}x"
    trash.discard(prof_dir)
    result = measure(scale, out, timeout * 2, memory_gib, trash, profile=prof_dir)
    summaries = []
    for stage in PROFILED_STAGES:
        prof = prof_dir / f"{stage}.prof"
        if prof.exists():
            text = report.profile_summary(prof)
            (prof_dir / f"{stage}.txt").write_text(text + "\n")
            summaries.append(f"--- {scale}× {stage} ---\n{text}")
    if result["status"] != "ok":
        summaries.append(f"--- {scale}× profiled build: {result['status']}")
    return summaries


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--scales", default="1,10,50", help="comma-separated multiples of the real corpus (default 1,10,50)")
    p.add_argument("--out", type=Path, default=ROOT / "bench-out", help="results (default bench-out/)")
    p.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "atlas-bench",
        help="working folder: the code's copy, the corpora, their docs and sites, profiles (default: "
        "atlas-bench in the system's temporary folder; a project folder may be slower to create files in)",
    )
    p.add_argument("--timeout", type=float, default=600, help="seconds allowed per build (default 600)")
    p.add_argument("--memory-gib", type=float, default=16, help="address-space limit of a build process (default 16)")
    p.add_argument(
        "--profile",
        default="auto",
        help="'auto' (profile 1× and 10× when a target is missed), 'none', or scales to profile",
    )
    p.add_argument(
        "--tries",
        type=int,
        default=3,
        help="builds of the real corpus (1×); the table shows the one of median time (default 3: this machine's disk is noisy)",
    )
    p.add_argument("--keep", action="store_true", help="keep each scale's docs/ and site/ (they can take gigabytes)")
    args = p.parse_args(argv)
    scales = sorted({int(s) for s in args.scales.split(",") if s.strip()})
    if not scales or scales[0] < 1:
        p.error("--scales: positive integers, e.g. 1,10,50")
    out, work = args.out.resolve(), args.work.resolve()
    for folder in (out, work):
        folder.mkdir(parents=True, exist_ok=True)
    trash = Trash(work)
    if trash.empty():  # a killed run's: let the deletion age before measuring anything
        log(f"removed an earlier run's trash; waiting {Trash.LINGER} s before measuring")
        time.sleep(Trash.LINGER)
    snapshot_code(work)
    info = machine()
    info["revision"] = revision()
    info["work"] = str(work)

    log("the reference workload (bench/ref.py), before the builds")
    info["ref_start"] = ref.measure(ref.TRIES, cwd=work / "code")
    info["files_before"] = small_files_seconds(work, trash)
    runs = []
    for scale in scales:
        tries = [
            measure(scale, work, args.timeout, args.memory_gib, trash) for _ in range(args.tries if scale == 1 else 1)
        ]
        done = sorted((t for t in tries if t["status"] == "ok"), key=lambda t: t["total_seconds"])
        runs.append(done[(len(done) - 1) // 2] if done else tries[-1])  # the median try (the lower of two)
        if len(tries) > 1:
            runs[-1]["tries"] = [t.get("total_seconds") for t in tries]
        if scale in SEARCH_SCALES and runs[-1]["status"] == "ok":
            log(f"{scale}×: searching in Chromium")
            site = work / f"{scale}x" / "site"
            runs[-1]["search"] = bench_search.measure(site, largest_release(site), quality=scale == 1)
        if not args.keep:
            for folder in ("docs", "site"):
                trash.discard(work / f"{scale}x" / folder)
    info["files_after"] = small_files_seconds(work, trash)
    log("the reference workload (bench/ref.py), after the builds")
    info["ref_end"] = ref.measure(ref.TRIES, cwd=work / "code")
    info["reference"] = ref.reference(info["ref_start"], info["ref_end"])
    log("scan: a synthetic codebase of 10,000 files")
    from generator.tools import scan as scanner

    info["scan"] = scanner.bench(10_000)
    reference = info["reference"]
    verdicts = report.targets(runs, args.timeout, reference)
    print(report.table(runs, reference))
    print()
    print(report.kinds_table(runs))
    print()
    print(report.search_table(runs))
    print()
    print(report.zensical_table(runs, reference))
    print()
    print(report.target_lines(verdicts))

    profiles: list[str] = []
    if args.profile != "none":
        wanted = [1, 10] if args.profile == "auto" else [int(s) for s in args.profile.split(",")]
        missed = any(v == "MISS" for v, _, _ in verdicts)
        if args.profile != "auto" or missed:
            for scale in (s for s in wanted if s in scales):
                log(f"{scale}×: profiling")
                profiles += profile_scale(scale, work, args.timeout, args.memory_gib, trash)
                if not args.keep:
                    for folder in ("docs", "site"):
                        trash.discard(work / f"{scale}x" / folder)
    trash.empty()
    if profiles:
        print()
        print(f"Profiles (cProfile; full dumps in {work / 'profiles'}):")
        print("\n\n".join(profiles))

    targets = [{"verdict": v, "target": name, "measured": measured} for v, name, measured in verdicts]
    results = {"machine": info, "timeout_seconds": args.timeout, "runs": runs, "targets": targets}
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (out / "results.md").write_text(report.markdown(runs, verdicts, info, args.timeout))
    log(f"wrote {out / 'results.json'} and {out / 'results.md'}")
    return 0
