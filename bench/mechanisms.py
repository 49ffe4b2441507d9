"""What two of live preview's speed mechanisms earn, on the real content at 1x: the theme cache
(build.ThemeCache: Material's templates compiled once, and its patch of MkDocs' list of theme
files) and the heap settle once saves pause (build.Preview.settle, run by a timer).

    python -m bench.mechanisms [--append FILE]

Each is timed as live preview pays it, in CPU seconds of this process and of the children it
waited for, the fastest of `tries`:

- the theme: a dirty MkDocs rebuild of the generated pages (what a save costs MkDocs when no page
  changed), with the cache as it is, with its bytecode alone (no patch of `list_templates`), and
  without it;
- the settle: a one-file edit's generate (load, enrich, render of a release summary edit), after
  a settle and without one.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
from pathlib import Path

from bench.report import publish

ROOT = Path(__file__).resolve().parent.parent


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _timed(run, tries: int) -> float:
    best = None
    for _ in range(tries):
        gc.collect()
        started = _cpu()
        run()
        spent = _cpu() - started
        best = spent if best is None else min(best, spent)
    return best


def theme(work: Path, tries: int = 3) -> list[tuple[str, float]]:
    """A dirty MkDocs rebuild with the theme cache, with its bytecode only, and without it."""
    from mkdocs.commands.build import build as mkdocs_build

    from generator.pipeline import build, manifest

    docs, site_dir = work / "docs", work / "site"
    site, _ = build.generate(ROOT / "content", docs)
    url = "http://127.0.0.1:8000/"

    def rebuild(cache) -> None:
        config = build.mkdocs_config(docs, site_dir, strict=False, site_url=url)
        config["plugins"]["redirects"].config["redirect_maps"] = manifest.redirects(site)
        if cache is not None:
            cache.attach(config)
        mkdocs_build(config, serve_url=url, dirty=True)

    class _BytecodeOnly(build.ThemeCache):
        def attach(self, config) -> None:
            make_env = config.theme.get_env

            def get_env():
                env = make_env()
                env.bytecode_cache = self.bytecode
                return env

            config.theme.get_env = get_env

    rebuild(None)  # the site in place: later rebuilds are dirty ones, as a save's
    rows = []
    for label, cache in (("ThemeCache", build.ThemeCache()), ("bytecode only", _BytecodeOnly()), ("none", None)):
        rebuild(cache)  # filled, as by the server's first build
        rows.append((f"dirty MkDocs rebuild, theme cache: {label}", _timed(lambda c=cache: rebuild(c), tries)))
    return rows


def settle(work: Path, tries: int = 3) -> list[tuple[str, float]]:
    """A one-file edit's generate after the preview settled its heap, and without."""
    from generator.pipeline import build

    content, docs = work / "content", work / "docs-settle"
    shutil.copytree(ROOT / "content", content)
    release = content / "releases" / "2.14.yaml"
    text = release.read_text(encoding="utf-8")
    assert "summary: >-\n  " in text, "the edit this probe makes is not there to make"
    preview = build.Preview()
    build.generate(content, docs, preview)
    count = [0]

    def edit_and_generate() -> None:
        count[0] += 1
        release.write_text(text.replace("summary: >-\n  ", f"summary: >-\n  Edit {count[0]}. ", 1), encoding="utf-8")
        build.generate(content, docs, preview)

    rows = []
    for label, settled in (("after a settle", True), ("without a settle", False)):
        best = None
        for _ in range(tries):
            edit_and_generate()  # the model and render kept by the last save, as a server holds them
            if settled:
                preview.settle()
            else:
                gc.unfreeze()
            started = _cpu()
            edit_and_generate()
            spent = _cpu() - started
            best = spent if best is None else min(best, spent)
        rows.append((f"one-file edit's generate, {label}", best))
    gc.unfreeze()
    return rows


def report(rows: list[tuple[str, float]]) -> str:
    lines = [
        "## Live preview's theme cache and heap settle",
        "",
        "CPU seconds, the fastest of three, on the real content (`python -m bench.mechanisms`).",
        "",
        "| Work | Seconds |",
        "| --- | --- |",
    ]
    lines += [f"| {label} | {s:.3f} |" for label, s in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--append", help="append the results as a Markdown section to this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-mechanisms-") as work:
        publish(report(theme(Path(work)) + settle(Path(work))), args.append)
    return 0


if __name__ == "__main__":
    sys.exit(main())
