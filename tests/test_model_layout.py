"""The model package stays split by concern: no import cycle among its modules (deferred and
TYPE_CHECKING imports included), and each module says what it is for."""

from __future__ import annotations

import ast
from pathlib import Path

import mcp_lint.model

MODEL_DIR = Path(mcp_lint.model.__file__).parent
PACKAGE = "mcp_lint.model"


def _model_modules() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text()) for path in sorted(MODEL_DIR.glob("*.py")) if path.stem != "__init__"}


def _imports(tree: ast.Module, known: set[str]) -> set[str]:
    """Model modules a module imports anywhere: at the top, in a function, under TYPE_CHECKING."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith(PACKAGE + "."):
                found.add(node.module[len(PACKAGE) + 1 :])
            elif node.module == PACKAGE:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name[len(PACKAGE) + 1 :] for alias in node.names if alias.name.startswith(PACKAGE + "."))
    return found & known


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph as a path, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for dependency in sorted(graph[name]):
            if state.get(dependency) == 1:
                return path[path.index(dependency) :] + [dependency]
            if dependency not in state:
                found = visit(dependency)
                if found:
                    return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def test_model_modules_import_each_other_without_a_cycle() -> None:
    modules = _model_modules()
    graph = {name: _imports(tree, set(modules)) - {name} for name, tree in modules.items()}
    assert _cycle(graph) is None


def test_the_cycle_finder_sees_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_a_deferred_import_counts() -> None:
    tree = ast.parse("def f():\n    from mcp_lint.model.facts import Handler\n")
    assert _imports(tree, {"facts"}) == {"facts"}


def test_every_model_module_says_what_it_is_for() -> None:
    missing = [name for name, tree in _model_modules().items() if not ast.get_docstring(tree)]
    assert missing == []
