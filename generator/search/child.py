"""The search index's child process: writes the files search.py computed, then runs Pagefind.

    python -m generator.search.child STAGING < payload.json

The payload is `{"names": {file name: JSON text}, "records": [HTML text, …]}`: the names table's
shards go to STAGING/search-names/, each record to a file of a folder in shared memory or the
system's temporary folder (`_records_base`), which Pagefind indexes into STAGING/pagefind/; its
output is then made canonical (`canonical_filters`), so the same records give the same bytes.
Creating these ~7,000 small files and Pagefind's run are most of the index's time, and the
build's process has pages to render and MkDocs to run meanwhile: here they happen on the other
core. Imports nothing from the package but generator.util.forked (for `dies_with_parent`), so it
starts in milliseconds.

Pagefind's Python API (the `pagefind` package, 1.5.2), which would take the records in memory
instead of as files, was measured on the real site's records: each `add_html_file` is one round trip to Pagefind's
service, so the records took a hundred times as long as writing them all and running the CLI
(the measurement: git log of this module). The files stay.

It runs at a lower priority (nice 10), Pagefind with it: the build's own work (rendering, MkDocs)
or live preview's rebuilds keep their core, the index takes what is left (the build ends
sooner than at equal priority). Both this process and Pagefind die with the
process that started them (`dies_with_parent`). A build that fails stops it with SIGTERM
(indexing._Indexing.stop): it then kills Pagefind and waits for it before it exits, so nothing
writes into STAGING once the build has waited for this process and removes the folder (a
Pagefind killed only by its parent's death could still write there for a moment after).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..util.forked import dies_with_parent

NAMES = "search-names"
BUNDLE = "pagefind"
PHASES = "phases.json"  # in STAGING: when this process started, had its records, had them on disk, was done
UNUSED = (
    "pagefind-ui.js",
    "pagefind-ui.css",
    "pagefind-modular-ui.js",
    "pagefind-modular-ui.css",
    "pagefind-component-ui.js",
    "pagefind-component-ui.css",
    "pagefind-highlight.js",
)


def canonical_filters(bundle: Path) -> None:
    """Make Pagefind's output the same for the same records. Its filter files list each filter's
    values in hash order, which differs from run to run, and are named after those bytes: sort
    each, name it after its new bytes, and rewrite the index's metadata file (and the entry
    file naming that) to match."""
    import cbor2

    def read(path: Path):
        raw = gzip.decompress(path.read_bytes())
        return raw[:12], cbor2.loads(raw[12:])  # a "pagefind_dcd" signature, then CBOR

    def write(pattern: str, language: str, signature: bytes, data, digits: int) -> str:
        body = gzip.compress(signature + cbor2.dumps(data, canonical=True), mtime=0)
        name = f"{language}_{hashlib.sha256(body).hexdigest()[:digits]}"
        (bundle / pattern.format(name)).write_bytes(body)
        return name

    entry_file = bundle / "pagefind-entry.json"
    entry = json.loads(entry_file.read_text(encoding="utf-8"))
    for language, about in entry["languages"].items():
        meta_file = bundle / f"pagefind.{about['hash']}.pf_meta"
        signature, meta = read(meta_file)
        filters = []
        for name, old in meta[3]:
            old_file = bundle / "filter" / f"{old}.pf_filter"
            sig, (filter_name, values) = read(old_file)
            old_file.unlink()
            data = [filter_name, sorted([value, sorted(pages)] for value, pages in values)]
            filters.append([name, write("filter/{}.pf_filter", language, sig, data, 7)])
        meta[3] = sorted(filters)
        meta_file.unlink()
        about["hash"] = write("pagefind.{}.pf_meta", language, signature, meta, 10)
    entry_file.write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


RECORDS = "atlas-records-"
"""Prefix of the records' folder (in `_records_base`), followed by the child's pid."""


SHARED_MEMORY = Path("/dev/shm")


def _records_base(size: int) -> Path:
    """Where the records go for Pagefind to read: shared memory (Linux's /dev/shm, a RAM
    file system) when it has four times their size free, else the system's temporary folder.
    They live for seconds, and on a disk whose writes are throttled, creating thousands of small
    files takes many times as long (README, Speed mechanisms)."""
    try:
        if SHARED_MEMORY.is_dir() and os.access(SHARED_MEMORY, os.W_OK):
            if shutil.disk_usage(SHARED_MEMORY).free > 4 * size:
                return SHARED_MEMORY
    except OSError:
        pass
    return Path(tempfile.gettempdir())


def _remove_orphans(base: Path) -> None:
    """Remove the records' folders that children killed with their build left in `base` (a
    killed process cleans nothing up): those whose pid no longer runs."""
    for folder in base.glob(f"{RECORDS}*-*"):
        pid = folder.name[len(RECORDS) :].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # running, as another user
            pass


def pagefind(
    records: list[str], output: Path, stdout=None, phases: dict | None = None
) -> tuple[int, resource.struct_rusage]:
    """Index `records` (one HTML page each) with Pagefind into `output`: each record is written
    to a file of a folder of its own (`_records_base`), removed after. Return Pagefind's exit code
    and its resource usage (the benchmark times Pagefind alone with it). `phases` gets the
    moments (time.monotonic) the records were on disk ("on_disk") and Pagefind ended ("indexed")."""
    from pagefind_bin import get_executable

    base = _records_base(sum(map(len, records)))
    _remove_orphans(base)
    with tempfile.TemporaryDirectory(prefix=f"{RECORDS}{os.getpid()}-", dir=base) as tmp:
        width = len(str(len(records)))
        for n, page in enumerate(records):
            Path(tmp, f"{n:0{width}}.html").write_text(page, encoding="utf-8")
        if phases is not None:
            phases["on_disk"] = time.monotonic()
        command = [str(get_executable()), "--site", tmp, "--output-path", str(output), "--force-language", "en"]
        proc = subprocess.Popen(command, stdout=stdout, preexec_fn=_on_one_core(dies_with_parent()))
        _RUNNING.append(proc)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: a late SIGTERM finds it done
        _RUNNING.remove(proc)
        if phases is not None:
            phases["indexed"] = time.monotonic()
    return os.waitstatus_to_exitcode(status), usage


def _on_one_core(then):
    """Popen's preexec_fn that keeps Pagefind on one core (the last this process may use), then
    calls `then`. Pagefind's threads make and free its allocator's memory on both cores, and
    every page it gives back must then be dropped from the other core's TLB too: on the real
    content's 8,377 records alone, on this 2-core machine, it took 2.66 s of CPU (1.3 s in the
    kernel) on both cores and 1.98 s (0.75 s) on one, in the same 1.99 s; at 10x, 27 s of CPU
    against 20.5 s, 19.6 s against 20.6 s wall. In a build the other core renders and runs
    MkDocs meanwhile, so the CPU is what counts."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []

    def preexec() -> None:
        if len(cores) > 1:
            os.sched_setaffinity(0, {cores[-1]})
        if then is not None:
            then()

    return preexec


_RUNNING: list[subprocess.Popen] = []
"""Pagefind while it runs: what a SIGTERM stops, and waits for, first."""


def _stop(signum, frame) -> None:
    for proc in _RUNNING:
        proc.kill()
        proc.wait()
    os._exit(128 + signum)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGTERM, _stop)
    staging = Path(argv[0])
    phases = {"started": time.monotonic()}
    if hasattr(os, "nice"):
        os.nice(10)
    payload = json.load(sys.stdin)
    phases["records"] = time.monotonic()
    (staging / NAMES).mkdir()
    for name, text in payload["names"].items():
        (staging / NAMES / name).write_text(text, encoding="utf-8")
    code, _ = pagefind(payload["records"], staging / BUNDLE, phases=phases)
    if code != 0 or not (staging / BUNDLE / "pagefind-entry.json").exists():
        return code or 1
    for unused in UNUSED:  # Pagefind's own interfaces: atlas-search.js draws the results
        (staging / BUNDLE / unused).unlink(missing_ok=True)
    canonical_filters(staging / BUNDLE)
    (staging / PHASES).write_text(json.dumps(phases), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
