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
