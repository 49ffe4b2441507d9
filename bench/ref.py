"""The reference workload: a fixed Python-Markdown job that `make bench` times at the start and at
the end of its run, so every build figure can be published as a ratio to it beside the seconds
(issue 47 §6). A reader on another machine times the same job and compares ratios, not seconds.

It mirrors the project's shared yardstick (a Python-Markdown conversion of 3,000 sections, each a
heading, a two-item list with emphasis, code, a link and raw HTML, and a small table, with the
tables, attr_list, md_in_html and toc extensions): the same document, converted once, in a fresh
Python process, timed around the conversion alone.

    python -m bench.ref [--tries N]    prints the seconds of each try, one a line
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

SECTIONS = 3000
EXTENSIONS = ("tables", "attr_list", "md_in_html", "toc")
TRIES = 3  # runs timed at the start of a benchmark, and as many at its end


def section(i: int) -> str:
    """Section i of the document: what a generated page holds, in miniature."""
    return "\n".join(
        [
            f"## Section {i}",
            "",
            f"- item *{i}* with `code` and a [link](https://example.org/{i})",
            f'- <span class="x">raw {i}</span>',
            "",
            "| a | b |",
            "|---|---|",
            f"| {i} | {i * 2} |",
        ]
    )


def document() -> str:
    """The whole document the workload converts: always the same text."""
    return "\n\n".join(section(i) for i in range(SECTIONS))


def seconds() -> float:
    """Seconds to convert the document once, in this process (the text made beforehand)."""
    import markdown

    text = document()
    started = time.perf_counter()
    markdown.markdown(text, extensions=list(EXTENSIONS))
    return time.perf_counter() - started


def measure(tries: int = TRIES, cwd: Path | None = None) -> list[float]:
    """Seconds of each of `tries` runs, each in a fresh Python process, as a reader's own run of
    the workload would be: no warm imports or caches carried from one run to the next."""
    out = []
    for _ in range(tries):
        proc = subprocess.run(
            [sys.executable, "-m", "bench.ref", "--tries", "1"], cwd=cwd, capture_output=True, text=True, check=True
        )
        out.append(float(proc.stdout.split()[0]))
    return out


def reference(start: list[float], end: list[float]) -> float:
    """The figure builds are divided by: the median of the runs at the start and at the end."""
    return statistics.median(start + end)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.ref", description=__doc__.split("\n\n")[0])
    p.add_argument("--tries", type=int, default=1, help="conversions in this process (default 1)")
    args = p.parse_args(argv)
    for _ in range(args.tries):
        print(f"{seconds():.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
