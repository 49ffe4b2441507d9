"""The search index's child process: writes the files generator.search.indexing computed.

    python -m generator.search.child STAGING < payload.json

The payload is `{"names": {file name: JSON text}, "records": [record, …]}`: the names table's
shards go to STAGING/search-names/, the full-text index of the records (generator.search.fulltext)
to STAGING/search-text/. Writing these ~10,000 small files is most of the index's time, and the
build's process has pages to render and MkDocs to run meanwhile: here they happen beside it.
Imports nothing from the package but generator.search.fulltext, so it starts in milliseconds.

It runs at a lower priority (nice 10): the build's own work (rendering, MkDocs) or live
preview's rebuilds keep their core, the index takes what is left. It dies with the process that
started it (indexing starts it with forked.dies_with_parent); a build that fails stops it with SIGTERM
(indexing._Indexing.stop), which ends it at once: nothing writes into STAGING once the build
has waited for it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from . import fulltext

NAMES = "search-names"
BUNDLE = "search-text"
DONE = "meta.json"  # in BUNDLE, written last: the index is whole
PHASES = "phases.json"  # in STAGING: when this process started, had its records, was done


def main(argv: list[str]) -> int:
    staging = Path(argv[0])
    phases = {"started": time.monotonic()}
    if hasattr(os, "nice"):
        os.nice(10)
    payload = json.load(sys.stdin)
    phases["records"] = time.monotonic()
    (staging / NAMES).mkdir()
    for name, text in payload["names"].items():
        (staging / NAMES / name).write_text(text, encoding="utf-8")
    fulltext.build(payload["records"], staging / BUNDLE)
    phases["indexed"] = time.monotonic()
    (staging / PHASES).write_text(json.dumps(phases), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
