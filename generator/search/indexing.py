"""Making the search index: where generator.search.records's names and records go, and by whom. A build
makes it beside its other work (`Beside`, started by build.start_index); live preview follows
its saves (`Indexer`); `write` puts one into a built site folder. The slow parts run in
generator.search.child, a child process at low priority.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from ..model.computed import Site
from ..util import forked
from ..util.project import ROOT
from . import records as search
from .child import DONE, PHASES
from .records import BUNDLE, NAMES, SHARDS, SYMPTOMS


def write(site: Site, site_dir: Path) -> None:
    """Write search-names/ and search-text/ into a built site folder (replacing earlier ones), for
    the pages of `site` (generator.pages.pagelist)."""
    with tempfile.TemporaryDirectory(prefix=".search-", dir=site_dir) as tmp:
        _Indexing(site, Path(tmp)).finish()
        _place(Path(tmp), Path(site_dir))


class Beside:
    """The search index made while the rest of the build works: the build starts it once the
    model is valid (build.start_index) and places it once MkDocs is done. The index comes from
    the model alone, and its slow part (writing its ~10,000 files) runs in a
    child process on the other core, so the build waits for whichever ends last instead of
    their sum. (Not a thread: a thread writing
    thousands of small files waits for MkDocs' hold on the GIL at every one, and took about three
    times as long.)

    Its files wait in a folder beside site_dir named `.<site_dir>.search-*`, which a killed build
    leaves for build.clean_leftovers to remove; the child dies with the build (forked.dies_with_parent)."""

    def __init__(self, site: Site, site_dir: Path) -> None:
        site_dir = Path(site_dir)
        self.staging = Path(tempfile.mkdtemp(prefix=f".{site_dir.name}.search-", dir=site_dir.parent))
        try:
            self.indexing = _Indexing(site, self.staging)
        except BaseException:
            shutil.rmtree(self.staging, ignore_errors=True)
            raise

    def place(self, site_dir: Path) -> None:
        """Wait for the child, then move the index into site_dir; raise what stopped it."""
        try:
            self.indexing.finish()
            _place(self.staging, Path(site_dir))
        finally:
            shutil.rmtree(self.staging, ignore_errors=True)

    def cancel(self) -> None:
        """The build failed: stop the child and remove what it wrote."""
        self.indexing.stop()
        shutil.rmtree(self.staging, ignore_errors=True)


class _Indexing:
    """The index under way in a staging folder: the names table and the full-text records,
    computed from the model (`_send`) and handed to a child process (generator.search.child)
    that writes them; what the child
    prints goes to `index.log`. `finish` waits for it."""

    def __init__(self, site: Site, staging: Path, cancel: threading.Event | None = None) -> None:
        self.out, self.log = staging / BUNDLE, staging / "index.log"
        self.phases: dict[str, float] = {}  # when the child's steps ended (child.PHASES), once finished
        command = [sys.executable, "-m", "generator.search.child", str(staging)]
        with self.log.open("wb") as log:  # a file, not a pipe: nobody reads while MkDocs works
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                preexec_fn=forked.dies_with_parent(),
            )
        # What the child writes is computed from the model: in a forked process when this one
        # may fork (a build), so the build goes on rendering at once; else here.
        self.sender = forked.beside(lambda: _send(site, self.proc.stdin, cancel), rerun=False)
        with contextlib.suppress(BrokenPipeError):
            self.proc.stdin.close()

    def finish(self) -> None:
        try:
            if self.sender is not None:
                self.sender.result()  # a sender that died cut the payload short: the child says so
            code = self.proc.wait(timeout=600)
        except BaseException:
            self.stop()
            raise
        if code != 0 or not (self.out / DONE).exists():
            said = self.log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            raise OSError(f"indexing exited with {code}: {said[-1] if said else 'no output'}")
        with contextlib.suppress(OSError, ValueError):
            self.phases = json.loads((self.out.parent / PHASES).read_text(encoding="utf-8"))

    def stop(self) -> None:
        """Stop the child and wait for it, so nothing writes into the staging folder after this
        returns."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.sender is not None:
            self.sender.kill()


def _send(site: Site, stdin, cancel: threading.Event | None = None) -> bool:
    """The names table's shards and the full-text records of `site`, as JSON to the index's
    child (generator.search.child). Computed in this process when it cannot fork (live preview's
    server), where it gives up, sending nothing, once `cancel` is set: the child then exits."""
    pages = search.page_meta(site)
    table = search.names(site, pages)
    shards: dict[str, dict] = {f"{n:03x}": {} for n in range(SHARDS)}
    for key in sorted(table):
        shards[search.shard(key)][key] = table[key]
    records = []
    for i, record in enumerate(search.records(site, pages)):
        if i % 256 == 0 and cancel is not None and cancel.is_set():
            return False
        records.append(record)
    if cancel is not None and cancel.is_set():
        return False
    payload = {
        "names": {
            f"{name}.json": json.dumps(part, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            for name, part in shards.items()
        }
        | {SYMPTOMS: json.dumps(search.symptoms(site), ensure_ascii=False, sort_keys=True, separators=(",", ":"))},
        "records": records,
    }
    with contextlib.suppress(BrokenPipeError):  # the child died at once: finish() says why
        stdin.write(json.dumps(payload, ensure_ascii=False).encode("utf-8"))
        stdin.flush()
    return True


def _place(staging: Path, site_dir: Path) -> None:
    """Move the finished names table and full-text index from staging into site_dir."""
    for name in (NAMES, BUNDLE):
        shutil.rmtree(site_dir / name, ignore_errors=True)
        (staging / name).rename(site_dir / name)


class Indexer:
    """Live preview's search: the index of the model the server's last rebuild made (its
    session's), written once edits pause for `quiet` seconds, so a save shows at once and the
    rebuilds after it do not wait for search, which follows a few seconds later. This thread
    computes the records from the model; writing the index
    runs in the index's child process at low priority (`_Indexing`). Nothing is loaded or enriched
    again: the model is the one the page the reader sees was rendered from. Requests made
    meanwhile collapse into one run, for the newest model; a request while a run is under way
    stops that run, and so does a rebuild as it begins (`hold`): computing the records in the
    server's process alongside a rebuild made that rebuild twice as slow (`python -m bench.live`)."""

    def __init__(self, quiet: float = 3.0) -> None:
        self._quiet = quiet
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._want: tuple[Site, Path] | None = None
        self._asked = 0.0
        self._running: _Indexing | None = None
        self._cancel = threading.Event()  # set when the run under way is to stop (`request`, `hold`)
        self._stopped = False
        self.runs = 0  # indexes placed, for the tests
        threading.Thread(target=self._run, name="search index", daemon=True).start()

    def stop(self) -> None:
        """Stop indexing, ending a child at work, before the site folder goes away."""
        with self._lock:
            self._stopped = True
            running = self._running
            self._wake.set()
        if running is not None:
            running.stop()

    def request(self, site: Site, site_dir: Path) -> None:
        """Index `site` into site_dir once no other request has come for `quiet` seconds."""
        with self._lock:
            self._want, self._asked = (site, Path(site_dir)), time.monotonic()
            running = self._running
            self._cancel.set()  # a run under way is for an older model: the newest one follows
            self._wake.set()
        if running is not None:
            running.stop()

    def hold(self) -> None:
        """A rebuild begins: stop the run under way, whose model is about to be out of date and
        whose records, computed in this process, would slow the rebuild down (they share the
        interpreter), and start none for `quiet` seconds. A run held is made again after that if
        the rebuild brings no newer model (a content error)."""
        with self._lock:
            self._asked = time.monotonic()
            running = self._running
            self._cancel.set()
        if running is not None:
            running.stop()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            while (left := self._asked + self._quiet - time.monotonic()) > 0 and not self._stopped:
                time.sleep(left)
            with self._lock:
                want, self._want = self._want, None
                self._wake.clear()
                if self._stopped:
                    return
                cancel = self._cancel = threading.Event()
            if want is None:
                continue
            self._index(*want, cancel)
            with self._lock:
                if cancel.is_set() and self._want is None and not self._stopped:  # held, and no newer model
                    self._want = want
                    self._wake.set()

    def _index(self, site: Site, site_dir: Path, cancel: threading.Event) -> None:
        try:
            with tempfile.TemporaryDirectory(prefix=".search-", dir=site_dir) as tmp:
                running = _Indexing(site, Path(tmp), cancel)  # gives up computing once cancelled
                with self._lock:
                    self._running = running
                    late = cancel.is_set() or self._stopped
                try:
                    if late:
                        running.stop()
                        return
                    running.finish()
                finally:
                    with self._lock:
                        self._running = None
                with self._lock:
                    if not cancel.is_set() and self._want is None and not self._stopped:  # not out of date
                        _place(Path(tmp), site_dir)
                        self.runs += 1
        except OSError as exc:
            if not self._stopped and not cancel.is_set():
                print(f"search index not updated: {exc}", file=sys.stderr)
