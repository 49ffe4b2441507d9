"""Work handed to a forked child process, for the other core: a build reads half its content
files (load) in one while reading the other half itself, and shares its pages with one (render,
pipeline.halves: each process takes the next page from a `Queue`).

The child inherits the parent's memory (the model, the compiled templates), so nothing is sent
to it; its result comes back pickled through a pipe. A caller does the work itself when the
child fails (`result()` is None), so what a build makes never depends on the way taken. Only
where `available()`: a process running other threads (live preview's server) never forks.

`beside(work)` is the one way a caller uses it: the work starts in a child where it can, and
`result()` gives what it returned, doing it here if no child could start or the child failed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable


def available() -> bool:
    """Whether this process may fork: it can, and runs no other thread (a thread holding a lock
    at the fork would leave that lock held forever in the child)."""
    return hasattr(os, "fork") and threading.active_count() == 1


class Queue:
    """The index of the next item to take, shared by this process and its forked child (a counter
    in shared memory with its lock): each takes the next item nobody has taken, so whichever has
    the more CPU does the more work (render.render_site's pages, pipeline.halves' MkDocs pages)."""

    def __init__(self) -> None:
        import multiprocessing

        self.next = multiprocessing.Value("q", 0)

    def take(self) -> int:
        with self.next.get_lock():
            n = self.next.value
            self.next.value = n + 1
        return n


class OtherCore:
    """`work()` started on the other core (a forked child) where this process may fork, else done
    here at once; `result()` is what it returned either way. With `rerun` False, a child that
    failed is not replaced (work that streams to another process, which notices the cut)."""

    def __init__(self, work: Callable[[], object], rerun: bool = True) -> None:
        self.work, self.rerun, self.value = work, rerun, None
        self.child = Forked(work) if available() else None
        if self.child is not None and self.child.pid is None:  # no memory or process left for one
            self.child.result()
            self.child = None
        if self.child is None:
            self.value = work()

    def result(self) -> object | None:
        """What `work()` returned."""
        if self.child is None:
            return self.value
        child, self.child = self.child, None
        done = child.result()
        self.value = done if done is not None or not self.rerun else None
        if done is None and self.rerun:
            self.value = self.work()
        return self.value

    def kill(self) -> None:
        """Stop the child, if one is at work."""
        if self.child is not None:
            self.child.kill()
            self.child = None


def beside(work: Callable[[], object], rerun: bool = True) -> OtherCore:
    """Start `work()` on the other core (see OtherCore)."""
    return OtherCore(work, rerun)


class Forked:
    """`work()` run in a forked child, started at once; `result()` waits for what it returned.
    The child gets SIGKILL if this process dies first (`dies_with_parent`). Callers use `beside`."""

    def __init__(self, work: Callable[[], object]) -> None:
        set_death_signal = dies_with_parent()
        self.reader, writer = os.pipe()
        try:
            self.pid = os.fork()
        except OSError:  # no memory or process left for a child: the caller does the work
            os.close(writer)
            self.pid = None
            return
        if self.pid == 0:  # the child: never returns
            code = 1
            try:
                os.close(self.reader)
                if set_death_signal:
                    set_death_signal()
                data = pickle.dumps((work(),), pickle.HIGHEST_PROTOCOL)
                with os.fdopen(writer, "wb") as pipe:
                    pipe.write(data)
                code = 0
            finally:
                os._exit(code)  # no atexit handlers, no flushing the parent's buffers twice
        os.close(writer)

    def result(self) -> object | None:
        """What `work()` returned, once the child is done; None if it failed, was killed or
        could not be started."""
        if self.pid is None:
            os.close(self.reader)
            return None
        try:
            with os.fdopen(self.reader, "rb") as pipe:
                data = pipe.read()
        finally:
            _, status = os.waitpid(self.pid, 0)
        if status != 0:
            return None
        try:
            return pickle.loads(data)[0]
        except Exception:  # cut short
            return None

    def kill(self) -> None:
        """Stop the child (if still running) and reap it."""
        if self.pid is None:
            with contextlib.suppress(OSError):
                os.close(self.reader)
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.reader)


def dies_with_parent() -> Callable[[], None] | None:
    """On Linux, what makes a child get SIGKILL when the thread that started it ends (prctl
    PR_SET_PDEATHSIG), for Popen's preexec_fn: a build killed while the index is made must not
    leave a child writing into the folder the next build cleans up. Elsewhere None (the child
    then finishes on its own).

    It runs in the child between fork and exec, where little is sound: the C function is looked
    up here, in the parent, and the child makes one foreign call."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (AttributeError, OSError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    args = (1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL: plain ints, ready

    def set_death_signal() -> None:
        prctl(*args)

    return set_death_signal
