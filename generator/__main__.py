"""Command line: the argument parser of python -m generator {check,build,serve,import-notes,new-release,scan}.

Each verb is a function of `commands`; `errors.exit_code` turns what it raises into the exit
code (0 ok, 1 content errors, 2 usage or I/O errors), printing content errors one per line."""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

from .cli import commands
from .model import urls
from .model.errors import exit_code
from .tools import remote
from .util.project import DEFAULT_CONTENT, SITE_NAME

COMMAND = "torch-atlas"
"""The console script `pip install` gives (pyproject.toml's [project.scripts])."""


def parser(prog: str = "python -m generator") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=f"{SITE_NAME} site generator.")
    sub = p.add_subparsers(dest="verb", required=True)
    check = sub.add_parser("check", help="validate the content; print every problem")
    check.add_argument("--content", type=Path, default=DEFAULT_CONTENT)
    build = sub.add_parser("build", help="validate, render and build the site with mkdocs --strict")
    build.add_argument("--content", type=Path, default=DEFAULT_CONTENT)
    build.add_argument("--site", type=Path, default=Path("site"))
    build.add_argument("--docs", type=Path, default=None, help="where the generated Markdown goes (default build/docs)")
    build.add_argument(
        "--manifest",
        type=Path,
        default=None,
        help="published-URL manifest to guard (default: generator/published_urls.txt for the default content)",
    )
    serve = sub.add_parser("serve", help="live preview: regenerate on save; the open page shows the edit")
    serve.add_argument("--content", type=Path, default=DEFAULT_CONTENT)
    serve.add_argument("--addr", default=urls.PREVIEW_ADDRESS)
    serve.add_argument("--docs", type=Path, default=None, help="where the generated Markdown goes (default build/docs)")
    imp = sub.add_parser("import-notes", help="import GitHub release notes into content/changes/X.Y.yaml")
    imp.add_argument("file")
    imp.add_argument("--release", required=True)
    imp.add_argument("--output", default=None)
    imp.add_argument("--diff", action="store_true", help="show what a re-import would change; write nothing")
    imp.add_argument("--content", type=Path, default=DEFAULT_CONTENT)
    new = sub.add_parser(
        "new-release",
        help="add a release: the release file's skeleton, its imported change list, and a to-do list",
    )
    new.add_argument("release", help="the minor release, e.g. 2.14")
    new.add_argument("--notes", required=True, help="its GitHub release notes (Markdown)")
    new.add_argument("--date", help="release date YYYY-MM-DD (default: content/sources/INDEX.md)")
    new.add_argument("--commits", type=int, help="commits since the previous release (default: INDEX.md)")
    new.add_argument("--contributors", type=int, help="contributors since the previous release (default: INDEX.md)")
    new.add_argument("--content", type=Path, default=DEFAULT_CONTENT)
    _scan(sub)
    return p


def _scan(sub) -> None:
    """The scan verb and its arguments."""
    scan = sub.add_parser(
        "scan",
        help="list the lines of a codebase's .py files that use what a change between two releases is about (exit 0: none can break code, 1: one can, 2: usage error, 3: the range holds a release the Atlas has no change list for)",
    )
    scan.add_argument("path", help="a folder (walked for .py files) or one file")
    scan.add_argument("--from", dest="start", required=True, metavar="X.Y", help="the release you are on")
    scan.add_argument("--to", dest="end", required=True, metavar="X.Y", help="the release you upgrade to")
    scan.add_argument(
        "--backend", default="", help="a backend id (cuda, rocm, mps, xpu, cpu ...): its changes and everyone's"
    )
    scan.add_argument(
        "--format",
        choices=("text", "json", "sarif"),
        default="text",
        help="text (one line a finding), json, or sarif (SARIF 2.1.0, for code scanning)",
    )
    scan.add_argument("--content", type=Path, default=DEFAULT_CONTENT)
    scan.add_argument(
        "--site",
        default=None,
        metavar="URL|FOLDER",
        help="read the changes from a published Atlas's API (https://...) or a built site's api/v1/ instead",
    )
    scan.add_argument(
        "--timeout",
        type=float,
        default=remote.TIMEOUT,
        metavar="SECONDS",
        help="how long --site URL may take to answer",
    )


def main(argv: list[str] | None = None, prog: str = "python -m generator") -> int:
    args = parser(prog).parse_args(argv)
    try:
        return exit_code(lambda: commands.VERBS[args.verb](args))
    except KeyboardInterrupt:
        return 130


def _exit(code: int) -> None:
    """End the process. Its objects are frozen first (gc.freeze): the collections the
    interpreter runs while it shuts down then skip them, instead of walking everything a build
    left alive (README, Speed mechanisms); the memory goes back to the system either way."""
    gc.freeze()
    sys.exit(code)


def script() -> None:
    """The installed command (`[project.scripts]` in pyproject.toml): the same verbs under its own name."""
    _exit(main(prog=COMMAND))


if __name__ == "__main__":
    _exit(main())
