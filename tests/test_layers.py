"""The generator's packages are layers, declared once here from the bottom up: each package
imports only packages below it, so a module gets its layer by the folder it is put in."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

LAYERS = ["model", "util", "markup", "load", "enrich", "notes", "pages", "search", "render", "pipeline", "tools", "cli"]
# What lays out pages computes no view and reads no file: render and what it needs stay off enrich and load.
NEVER = {"pages": {"enrich", "load"}, "search": {"enrich", "load"}, "render": {"enrich"}}


def imports(package: Path) -> dict[str, set[str]]:
    """Module path (relative to generator/) -> the packages of generator/ it imports."""
    found = {}
    for path in package.rglob("*.py"):
        here = path.relative_to(package).parts[:-1]
        used = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = list(here[: len(here) - node.level + 1]) if node.level else []
                parts = base + (node.module or "").split(".") if node.level else (node.module or "").split(".")[1:]
                if node.level or (node.module or "").startswith("generator."):
                    used |= {parts[0]} if parts and parts[0] else {a.name for a in node.names}
        found[str(path.relative_to(package))] = used & set(LAYERS)
    return found


def climbs(package: Path) -> list[str]:
    """Every import of a package from one at or below it in LAYERS, or on NEVER's list."""
    bad = []
    for module, used in sorted(imports(package).items()):
        layer = Path(module).parts[0] if "/" in module else None
        for other in sorted(used):
            if (
                layer
                and other != layer
                and (LAYERS.index(other) > LAYERS.index(layer) or other in NEVER.get(layer, ()))
            ):
                bad.append(f"{module} imports {other}")
    return bad


def test_each_package_imports_only_packages_below_it():
    package = ROOT / "generator"
    assert sorted(p.name for p in package.iterdir() if (p / "__init__.py").exists()) == sorted(LAYERS)
    assert sorted(p.name for p in package.glob("*.py")) == ["__init__.py", "__main__.py"]
    assert climbs(package) == []
    assert imports(package)["model/urls.py"] == set()


def test_the_layer_test_fails_when_a_lower_package_imports_a_higher_one(tmp_path):
    for layer in LAYERS:
        (tmp_path / layer).mkdir()
    (tmp_path / "model" / "content.py").write_text("from ..enrich import facts\n")
    (tmp_path / "render" / "api.py").write_text("from ..model import urls\nfrom ..enrich.facts import ending\n")
    (tmp_path / "enrich" / "facts.py").write_text("from ..model.content import Release\nfrom . import lifecycle\n")
    assert climbs(tmp_path) == ["model/content.py imports enrich", "render/api.py imports enrich"]


def module_imports(package: Path) -> dict[str, set[str]]:
    """Module name (dotted, under generator/) -> the modules of generator/ it imports, those named
    only for type checking included: within a package, modules import each other one way too."""
    names = {
        ".".join(p.relative_to(package).with_suffix("").parts).removesuffix(".__init__"): p
        for p in package.rglob("*.py")
    }
    found = {}
    for name, path in names.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        used = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                target = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
                for alias in node.names:
                    whole = f"{target}.{alias.name}".strip(".")
                    used.add(whole if whole in names else target)
        found[name] = (used & names.keys()) - {name}
    return found


def cycles(package: Path) -> list[list[str]]:
    """Every set of modules that import each other round in a circle (Tarjan's strongly connected components)."""
    graph, order, low, stack, out = module_imports(package), {}, {}, [], []

    def visit(v: str) -> None:
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            component = stack[stack.index(v) :]
            del stack[stack.index(v) :]
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in order:
            visit(v)
    return out


def test_no_modules_import_each_other_round_in_a_circle(tmp_path):
    assert cycles(ROOT / "generator") == []
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "computed.py").write_text("from .stops import SupportStop\n")
    (tmp_path / "model" / "stops.py").write_text("if TYPE_CHECKING:\n    from .computed import Evidence\n")
    assert cycles(tmp_path) == [["model.computed", "model.stops"]]
