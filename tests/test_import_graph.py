"""No import cycle among mcp-lint's own modules, deferred and TYPE_CHECKING imports included.

A deferred import hides a cycle from Python but not from the reader: two modules that import each
other, at any level, cannot be understood, tested or moved one without the other, and a lazy
import that closes a cycle makes the cost of a step depend on which module happened to be imported
first. So the graph counts every `import` statement wherever it is: module level, inside functions
and methods, inside `try` and `if` blocks, and under `if TYPE_CHECKING:` too. A type named in an
annotation is part of a module's interface: a cycle through annotations is still two modules that
only make sense together, and its remedy is the same, putting the shared type where both can
import it (as model/exception_guards.py holds `Handler` for model/flow.py and model/facts.py).
tests/test_model_layout.py checks the same within the model package.

Left out on purpose: the edge from a module to its parent packages. Python runs `pkg/__init__.py`
before `pkg/mod.py` by its own rules, whichever module asked; that order is not a dependency the
code chose.
"""

from __future__ import annotations

import ast
from pathlib import Path

import mcp_lint

PACKAGE = Path(mcp_lint.__file__).resolve().parent


def _module_names() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["mcp_lint", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


class _Imports(ast.NodeVisitor):
    """Every mcp_lint module a module imports, anywhere in it, with the line of the first import."""

    def __init__(self, module: str, is_package: bool, modules: dict[str, Path]) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.modules = modules
        self.found: dict[str, int] = {}

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")[: len(self.package.split(".")) - node.level + 1]
            source = ".".join([*base, *([node.module] if node.module else [])])
        else:
            source = node.module or ""
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            self._add(submodule if submodule in self.modules else source, node.lineno)

    def _add(self, name: str, line: int) -> None:
        if name in self.modules:
            self.found.setdefault(name, line)


def import_graph() -> dict[str, dict[str, int]]:
    """module -> {imported mcp_lint module: line of its first import}."""
    modules = _module_names()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        visitor = _Imports(name, path.name == "__init__.py", modules)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        graph[name] = {target: line for target, line in visitor.found.items() if target != name}
    return graph


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    """One cycle of `graph` as the modules on it, the first repeated at the end; None if acyclic."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def describe(cycle: list[str], graph: dict[str, dict[str, int]]) -> str:
    steps = [f"{a} imports {b} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:])]
    return "import cycle:\n  " + "\n  ".join(steps)


def test_mcp_lint_has_no_import_cycle() -> None:
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, describe(cycle, graph)


def test_the_graph_sees_deferred_and_type_checking_imports() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from mcp_lint import findings\n"
        "if TYPE_CHECKING:\n"
        "    from mcp_lint.config import Settings\n"
        "def run():\n"
        "    from mcp_lint.cache import Cache\n"
        "    import mcp_lint.noqa\n"
    )
    visitor = _Imports("mcp_lint.example", False, _module_names())
    visitor.visit(ast.parse(source))
    assert visitor.found == {"mcp_lint.findings": 2, "mcp_lint.config": 4, "mcp_lint.cache": 6, "mcp_lint.noqa": 7}


def test_a_cycle_is_found_and_printed_with_its_lines() -> None:
    graph = {"a": {"b": 3}, "b": {"c": 10}, "c": {"a": 42}, "d": {"a": 1}}
    cycle = find_cycle(graph)
    assert cycle == ["a", "b", "c", "a"]
    assert describe(cycle, graph) == "import cycle:\n  a imports b (line 3)\n  b imports c (line 10)\n  c imports a (line 42)"
    assert find_cycle({"a": {"b": 1}, "b": {}}) is None



STEPS = {"mcp_lint.pipeline", "mcp_lint.scheduler", "mcp_lint.prefilter", "mcp_lint.project_links", "mcp_lint.analysis", "mcp_lint.rules"}


def test_the_cache_is_storage_and_keys_only() -> None:
    # The pipeline decides when the cache is read and filled; the cache names none of the steps.
    assert not set(import_graph()["mcp_lint.cache"]) & STEPS


def test_the_prefilter_drives_no_pool_and_the_link_step_knows_no_prefilter_and_no_cache() -> None:
    graph = import_graph()
    assert not {"mcp_lint.pipeline", "mcp_lint.scheduler"} & set(graph["mcp_lint.prefilter"])
    assert not {"mcp_lint.prefilter", "mcp_lint.pipeline", "mcp_lint.scheduler", "mcp_lint.cache"} & set(graph["mcp_lint.project_links"])
