"""What each memo left in the package earns: the work it serves, done on the real content, the
fastest of three, with every memo on, then with one taken off at a time (its undecorated function
put in its place).

    python -m bench.memos [--append FILE]

A memo whose absence costs nothing measurable has no place in the code (issue #34): this is the
figure the README's "Speed mechanisms" table quotes. Each memo is timed in the work it serves:
a full render and live preview's save (the render's memos: a save renders again after a render
that filled them, and its model is new but equal, so every page is kept and what is left is what
every save pays), loading and checking the content (the schemas'), and importing a release's
notes (the importer's). Times are CPU seconds of this process and of the
children it waited for (the render and the load fork half their work into a child, which
inherits the swap), so a busy machine slows the figures less than it would wall-clock ones.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
from pathlib import Path

from bench.report import publish

ROOT = Path(__file__).resolve().parent.parent
NOTES = ("2.8", ROOT / "content" / "sources" / "release-notes-v2.8.0.md")  # a release's notes to import


def memos() -> dict[tuple[str, str], tuple[object, str, str]]:
    """Every functools memo of the package, for each work it serves: (name, work) -> (module or
    class, attribute, work)."""
    from generator.enrich import invariants
    from generator.load import schema
    from generator.markup import textfilters
    from generator.model import urls
    from generator.notes import importer
    from generator.pages import cite
    from generator.render import card, render

    out = {}
    for owner, work in (
        (textfilters, "render"),
        (urls, "render"),
        (cite, "render"),
        (card, "render"),
        (render, "render"),
        (textfilters, "save"),
        (urls, "save"),
        (cite, "save"),
        (card, "save"),
        (render, "save"),
        (schema, "load"),
        (invariants, "load"),
        (invariants._Where, "load"),
        (importer, "import"),
    ):
        for name, value in vars(owner).items():
            if hasattr(value, "cache_clear") and hasattr(value, "__wrapped__"):
                label = getattr(owner, "__qualname__", None) or owner.__name__.removeprefix("generator.")
                out[(f"{label}.{name}", work)] = (owner, name, work)
    return out


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _works() -> dict:
    """The work each memo serves: (what prepares it, untimed; what does it once, timed)."""
    from generator.notes import importer
    from generator.pipeline import build
    from generator.render import render

    site = build.site_model(ROOT / "content")
    again = build.site_model(ROOT / "content")  # what a save that changed nothing makes
    last = {}
    out = Path(tempfile.mkdtemp(prefix="bench-memos-")) / "changes.yaml"

    def imported() -> None:
        out.unlink(missing_ok=True)
        with open(os.devnull, "w") as quiet:
            saved, sys.stdout = sys.stdout, quiet
            try:
                importer.command(str(NOTES[1]), NOTES[0], str(out), False, str(ROOT / "content"))
            finally:
                sys.stdout = saved

    def before_save() -> None:
        last["render"] = render.render_site(site, record=True)

    return {
        "render": (None, lambda: render.render_site(site)),
        "save": (before_save, lambda: render.render_site(again, previous=last["render"], record=True)),
        "load": (None, lambda: build.site_model(ROOT / "content")),
        "import": (None, imported),
    }


def measure(tries: int = 3) -> list[tuple[str, str, float, float]]:
    """(memo, work, CPU seconds of the work with every memo, without this one)."""
    from generator import clear_caches

    works = _works()

    def best(work: str) -> float:
        times = []
        prepare, run = works[work]
        for _ in range(tries):
            clear_caches()
            if prepare:
                prepare()
            gc.collect()
            started = _cpu()
            run()
            times.append(_cpu() - started)
        return min(times)

    used = {work for _, _, work in memos().values()}
    base = {work: best(work) for work in works if work in used}
    rows = []
    for (label, _), (owner, name, work) in memos().items():
        memo = getattr(owner, name)
        setattr(owner, name, memo.__wrapped__)
        try:
            rows.append((label, work, base[work], best(work)))
        finally:
            setattr(owner, name, memo)
    return rows


def report(rows: list[tuple[str, str, float, float]]) -> str:
    lines = [
        "## Memos",
        "",
        "Each memo left in the package taken off in turn, timed in the work it serves on the real",
        "content (CPU seconds, the fastest of three; `python -m bench.memos`). A memo stays where",
        "taking it off costs time.",
        "",
        "| Memo | Work | With it | Without it | Change |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += [f"| `{label}` | {work} | {on:.3f} | {off:.3f} | {off - on:+.3f} |" for label, work, on, off in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--append", help="append the results as a Markdown section to this file")
    args = parser.parse_args(argv)
    publish(report(measure()), args.append)
    return 0


if __name__ == "__main__":
    sys.exit(main())
