"""The search index's child process: writes the files search.py computed, then runs Pagefind.

    python -m generator.search_child STAGING < payload.json

The payload is `{"names": {file name: JSON text}, "records": [HTML text, …]}`: the names table's
shards go to STAGING/search-names/, each record to a file of a folder in the system's temporary
folder, which Pagefind indexes into STAGING/pagefind/. Creating these ~7,000 small files is most
of the index's own time, and the build's process has MkDocs to run meanwhile: here it happens on
the other core. Imports nothing from the package but this module, so it starts in milliseconds.

It runs at a lower priority (nice 10), Pagefind with it: the build's own work (rendering, MkDocs)
or live preview's rebuilds keep their core, the index takes what is left (measured: 6.1 s for
the whole build against 6.6 s at equal priority). Both this process and Pagefind die with the
process that started them (`dies_with_parent`).
"""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

NAMES = "search-names"
BUNDLE = "pagefind"


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


def main(argv: list[str]) -> int:
    staging = Path(argv[0])
    if hasattr(os, "nice"):
        os.nice(10)
    payload = json.load(sys.stdin)
    (staging / NAMES).mkdir()
    for name, text in payload["names"].items():
        (staging / NAMES / name).write_text(text, encoding="utf-8")
    from pagefind_bin import get_executable

    with tempfile.TemporaryDirectory(prefix="atlas-records-") as tmp:
        width = len(str(len(payload["records"])))
        for n, page in enumerate(payload["records"]):
            Path(tmp, f"{n:0{width}}.html").write_text(page, encoding="utf-8")
        command = [str(get_executable()), "--site", tmp, "--output-path", str(staging / BUNDLE)]
        command += ["--force-language", "en"]
        return subprocess.run(command, preexec_fn=dies_with_parent()).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
