"""What a Python file uses, read as code (Python's `ast`), line by line: the names it refers to
with imports and aliases resolved, the calls it makes with the keyword arguments they pass, the
environment variables it reads or sets and the command-line flags it spells.

A name in an annotation, a class base, a string or a comment is not a use; a local variable a
line assigns (`use_cuda = True`) is not either. `generator scan` matches these uses against each
change's subject (`symbols.subject_matches`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..model import symbols

ENV_CALLS = frozenset(
    {"os.getenv", "os.putenv", "os.unsetenv", "os.environ.get", "os.environ.setdefault", "os.environ.pop"}
)
"""Calls whose first argument names an environment variable."""


@dataclass(frozen=True)
class Use:
    """Something one line of code uses (a `symbols.Use` with its line)."""

    line: int
    use: symbols.Use


def _chain(node: ast.AST) -> tuple[str | None, tuple[str, ...]] | None:
    """A Name or Attribute chain as (its base name, or None when the base is not a name, e.g. a
    call's result; its attribute parts), else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return node.id, tuple(reversed(parts))
    return (None, tuple(reversed(parts))) if parts else None


class _Reader(ast.NodeVisitor):
    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases
        self.uses: list[Use] = []

    def add(self, line: int, **kw) -> None:
        self.uses.append(Use(line, symbols.Use(**kw)))

    def resolve(self, node: ast.AST) -> tuple[str | None, str] | None:
        """(the qualified name, or None when its base is no import; the name as written)."""
        chain = _chain(node)
        if chain is None:
            return None
        base, parts = chain
        # A member of what an expression gives (`f(x).qr`) is written with its leading dot.
        written = base + "." + ".".join(parts) if base and parts else base or "." + ".".join(parts)
        if base is not None and base in self.aliases:
            return ".".join((self.aliases[base], *parts)), written
        return None, written

    # ---- what is not a use: annotations, class bases, local names assigned
    def visit_arguments(self, node: ast.arguments) -> None:
        for default in (*node.defaults, *(d for d in node.kw_defaults if d is not None)):
            self.visit(default)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for child in (*node.decorator_list, node.args, *node.body):
            self.visit(child)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.visit(node.args)
        self.visit(node.body)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for child in (*node.decorator_list, *node.body):
            self.visit(child)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if not isinstance(node.target, ast.Name):
            self.visit(node.target)
        if node.value is not None:
            self.visit(node.value)

    # ---- imports: each imported name is used on its line
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.add(node.lineno, name=alias.name, written=alias.name, imported=True)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            return
        for alias in node.names:
            if alias.name != "*":
                self.add(node.lineno, name=f"{node.module}.{alias.name}", written=alias.name, imported=True)

    # ---- names, attributes, calls
    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._name(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._name(node)

    def _name(self, node: ast.AST) -> None:
        resolved = self.resolve(node)
        if resolved is None:
            self.generic_visit(node)
            return
        name, written = resolved
        self.add(node.lineno, name=name, written=written)
        chain = node
        while isinstance(chain, ast.Attribute):
            chain = chain.value
        if not isinstance(chain, ast.Name):
            self.visit(chain)  # a call's result, a subscript: what it is made of is used too

    def visit_Call(self, node: ast.Call) -> None:
        resolved = self.resolve(node.func)  # (None, written) for a method of an object: `mesh.to_local(...)`
        passed = tuple(k.arg for k in node.keywords if k.arg)
        unknown = any(k.arg is None for k in node.keywords)  # **kwargs: the arguments are not known
        if resolved is not None:
            name, written = resolved
            self.add(node.lineno, name=name, written=written, call=True, args=passed, some_args=unknown)
            for k in node.keywords:
                if k.arg:
                    self.add(k.lineno, name=name, written=written, call=True, arg=k.arg)
            if name in ENV_CALLS and node.args:
                self._env(node.args[0])
            if name == "os.environ.update" and node.args and isinstance(node.args[0], ast.Dict):
                for key in node.args[0].keys:
                    if key is not None:
                        self._env(key)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        resolved = self.resolve(node.value)
        if resolved is not None and resolved[0] == "os.environ":
            self._env(node.slice)
        self.generic_visit(node)

    def _env(self, node: ast.AST) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            self.add(node.lineno, env=node.value)

    def visit_Constant(self, node: ast.Constant) -> None:
        # A command-line flag is only ever spelt in a string (argv lists, subprocess calls).
        if isinstance(node.value, str) and symbols.FLAG_STRING.fullmatch(node.value):
            self.add(node.lineno, flag=node.value.split("=", 1)[0])


def aliases(tree: ast.AST) -> dict[str, str]:
    """The names the file's imports bind, to what they stand for (`nn` -> `torch.nn`); `os` is
    always known, since the environment is read through it."""
    out = {"os": "os"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = alias.name
                else:
                    top = alias.name.split(".", 1)[0]
                    out[top] = top
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                if alias.name != "*":
                    out[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return out


def uses(source: str) -> list[Use]:
    """What each line of `source` uses, in line order. Raises SyntaxError (and ValueError for a
    NUL byte) when it is not Python."""
    tree = ast.parse(source)
    reader = _Reader(aliases(tree))
    reader.visit(tree)
    return sorted(reader.uses, key=lambda u: u.line)
