"""What each memo left in the package earns: a full render of the real site, the fastest of three,
with every memo on, then with one taken off at a time (its undecorated function put in its place).

    python -m bench.memos [--append FILE]

A memo whose absence costs nothing measurable has no place in the code (issue #34): this is the
figure each one's comment quotes. The render forks half its pages into a child, which inherits
the swap.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def memos() -> dict[str, tuple[object, str]]:
    """Every functools memo of the modules a render runs: name -> (module, attribute)."""
    from generator.markup import textfilters
    from generator.model import urls
    from generator.pages import cite
    from generator.render import card, render

    out = {}
    for module in (textfilters, urls, cite, card, render):
        for name, value in vars(module).items():
            if hasattr(value, "cache_clear") and hasattr(value, "__wrapped__"):
                out[f"{module.__name__.removeprefix('generator.')}.{name}"] = (module, name)
    return out


def measure(tries: int = 3) -> list[tuple[str, float]]:
    """(memo, seconds) for the render with all memos, then without each."""
    from generator import clear_caches
    from generator.pipeline import build
    from generator.render import render

    site = build.site_model(ROOT / "content")
    env = render.environment()

    def best() -> float:
        times = []
        for _ in range(tries):
            clear_caches()
            gc.collect()
            started = time.perf_counter()
            render.render_site(site, env=env)
            times.append(time.perf_counter() - started)
        return min(times)

    rows = [("all memos on", best())]
    for label, (module, name) in memos().items():
        memo = getattr(module, name)
        setattr(module, name, memo.__wrapped__)
        try:
            rows.append((f"without {label}", best()))
        finally:
            setattr(module, name, memo)
    return rows


def report(rows: list[tuple[str, float]]) -> str:
    base = rows[0][1]
    lines = [
        "## Memos",
        "",
        "A full render of the real site (the fastest of three), with each memo left in the package",
        "taken off in turn (`python -m bench.memos`). A memo stays where taking it off costs time.",
        "",
        "| Render | Seconds | Change |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {label} | {s:.3f} | {s - base:+.3f} |" for label, s in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--append", help="append the results as a Markdown section to this file")
    args = parser.parse_args(argv)
    text = report(measure())
    print(text)
    if args.append:
        with open(args.append, "a", encoding="utf-8") as out:
            out.write("\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
