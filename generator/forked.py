"""Work handed to a forked child process, for the other core: a build reads half its content
files (load) and renders half its pages (render) in one while doing the other half itself.

The child inherits the parent's memory (the model, the compiled templates), so nothing is sent
to it; its result comes back pickled through a pipe. A caller does the work itself when the
child fails (`result()` is None), so what a build makes never depends on the way taken. Only
where `available()`: a process running other threads (live preview's server) never forks.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable

from .search_child import dies_with_parent


def available() -> bool:
    """Whether this process may fork: it can, and runs no other thread (a thread holding a lock
    at the fork would leave that lock held forever in the child)."""
    return hasattr(os, "fork") and threading.active_count() == 1


class Forked:
    """`work()` run in a forked child, started at once; `result()` waits for what it returned.
    The child gets SIGKILL if this process dies first (search_child.dies_with_parent)."""

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
