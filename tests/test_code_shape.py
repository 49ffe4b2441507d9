"""The generator stays a size a newcomer can hold in mind: no module over 600 lines, no function
over 60 (ruff's C901 at 10, in `make lint`, holds their branching)."""

from __future__ import annotations

import ast

from tests.conftest import ROOT

MODULE_LINES, FUNCTION_LINES = 600, 60


def test_no_generator_module_or_function_is_longer_than_a_newcomer_can_hold():
    long = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if source.count("\n") > MODULE_LINES:
            long.append(f"{path.relative_to(ROOT)}: {source.count(chr(10))} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.name} is {lines} lines")
    assert not long, long


TEMPLATE_LINE = 400


def test_no_template_line_is_longer_than_a_reader_can_follow():
    """A template line a reviewer can read: a long row or cell breaks after a block tag (the
    environment's trim_blocks drops that newline, so the page is the same)."""
    long = []
    for path in sorted((ROOT / "templates").rglob("*")):
        if path.suffix in (".j2", ".html"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if len(line) > TEMPLATE_LINE:
                    long.append(f"{path.relative_to(ROOT)}:{number}: {len(line)} characters")
    assert len(list((ROOT / "templates").rglob("*.j2"))) > 20
    assert not long, long
