"""The one way the generator writes a file: atomically, and only when its bytes change.

A watcher (`mkdocs serve`, an editor) never sees a file half written, a killed run never leaves
one, and a file whose bytes are already right keeps its modification time, so nothing that
watches it rebuilds for no reason.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_atomic(path: Path, data: bytes, *, sync: bool = True) -> bool:
    """Make `path` hold `data`; return False, writing nothing, when it already does.

    The bytes go to a temporary file in the same folder, are flushed to disk (unless `sync` is
    False: for files a run regenerates anyway), and replace `path` in one step. Missing parent
    folders are created. Raises OSError when it cannot.
    """
    path = Path(path)
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except (FileNotFoundError, NotADirectoryError):
        pass
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    # os.open rather than tempfile.mkstemp, whose 0600 mode would stick to the file it replaces.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        fd = os.open(tmp, flags, 0o666)
    except FileNotFoundError:
        # Its folder is missing: made only then. A mkdir per file is one metadata call per page,
        # slow on disks where those are slow.
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, flags, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if sync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return True
