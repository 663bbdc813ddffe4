"""Source positions for a few nodes, without generating code for the whole module.

libcst's PositionProvider generates the code of the entire module (and walks it again) to give
every node a position; a file with one finding would pay for all of it. Top-level statements are
independent for code generation, so this module generates only the statement that holds the
nodes asked for, starting from the line where that statement begins. Those lines come from
CPython's own parser (`ast`, written in C and far cheaper), mapped onto libcst's top-level
statements in order. Every result is checked against `ast` (the statement must start on the line
`ast` says); on any disagreement the whole-module PositionProvider is used instead.
"""

from __future__ import annotations

import ast
from typing import Mapping

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from libcst.metadata import CodeRange


class _Collector:
    """Stands in for the provider object PositionProvidingCodegenState writes into."""

    def __init__(self) -> None:
        self._computed: dict[cst.CSTNode, CodeRange] = {}


class ScopedPositions:
    def __init__(self, module: cst.Module, source: str, tree: ast.Module | None = None) -> None:
        self.module = module
        self.source = source
        self._starts: list[tuple[int, int]] | None = None  # (codegen start line, syntactic line)
        self._by_statement: dict[int, dict[cst.CSTNode, CodeRange]] = {}
        self._full: Mapping[cst.CSTNode, CodeRange] | None = None
        self._top_of: dict[int, int] = {}  # id(node inside) -> top-level statement index (hints)
        self._functions: dict[int, tuple[int, tuple[str, ...]]] = {}
        self._by_function: dict[int, dict[cst.CSTNode, CodeRange] | None] = {}
        self._defs: list[ast.FunctionDef | ast.AsyncFunctionDef] | None = None
        self._ast: ast.Module | bool | None = tree  # CPython's tree, when the caller has one

    # -- hints ---------------------------------------------------------------------------
    def hint(self, node: cst.CSTNode, statement_index: int) -> None:
        """Record that `node` (e.g. a function being checked) lies in top-level statement N."""
        self._top_of[id(node)] = statement_index

    def hint_function(self, node: cst.FunctionDef, order: int, indents: tuple[str, ...]) -> None:
        """A method or nested function: its rank among all defs in source order and the indents
        of the blocks around it, so it can be generated alone (not its whole class)."""
        self._functions[id(node)] = (order, indents)

    def _function_positions(self, node: cst.CSTNode) -> dict[cst.CSTNode, CodeRange] | None:
        key = id(node)
        if key in self._by_function:
            return self._by_function[key]
        order, indents = self._functions[key]
        defs = self._ast_functions()
        result = None
        if defs is not None and order < len(defs) and isinstance(node, cst.FunctionDef):
            target = defs[order]
            first = min([target.lineno, *(d.lineno for d in target.decorator_list)])
            positions = self._generate(node, first - len(node.leading_lines), list(indents))
            where = positions.get(node)
            if where is not None and where.start.line == target.lineno and where.start.column == target.col_offset:
                result = positions
        self._by_function[key] = result
        return result

    def _ast_functions(self) -> list[ast.FunctionDef | ast.AsyncFunctionDef] | None:
        if self._defs is None:
            tree = self._tree()
            if tree is None:
                return None
            found = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            self._defs = sorted(found, key=lambda n: (n.lineno, n.col_offset))
        return self._defs

    def _tree(self) -> ast.Module | None:
        if self._ast is None:
            try:
                self._ast = ast.parse(self.source)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._ast = False
        return self._ast or None

    def _generate(self, node: cst.CSTNode, start_line: int, indents: list[str]) -> dict[cst.CSTNode, CodeRange]:
        from libcst.metadata.position_provider import PositionProvidingCodegenState

        collector = _Collector()
        state = PositionProvidingCodegenState(
            default_indent=self.module.default_indent,
            default_newline=self.module.default_newline,
            provider=collector,  # type: ignore[arg-type]
        )
        state.line = start_line
        state.indent_tokens = indents
        node._codegen(state)
        return collector._computed

    # -- lookup --------------------------------------------------------------------------
    def get(self, node: cst.CSTNode, near: cst.CSTNode | None = None) -> CodeRange:
        """The position of `node`; `near` names a hinted ancestor (the function being checked)."""
        if self._full is not None:
            return self._full[node]
        if near is not None and id(near) in self._functions:
            positions = self._function_positions(near)
            if positions is not None and node in positions:
                return positions[node]
        index = self._top_of.get(id(near)) if near is not None else None
        if index is not None:
            positions = self._statement_positions(index)
            if positions is not None and node in positions:
                return positions[node]
        return self.full()[node]

    def full(self) -> Mapping[cst.CSTNode, CodeRange]:
        if self._full is None:
            from libcst.metadata import MetadataWrapper, PositionProvider

            self._full = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
        return self._full

    # -- per statement -------------------------------------------------------------------
    def _statement_positions(self, index: int) -> dict[cst.CSTNode, CodeRange] | None:
        if index in self._by_statement:
            return self._by_statement[index]
        starts = self._statement_starts()
        if starts is None or index >= len(starts):
            return None
        start_line, syntactic_line = starts[index]
        statement = self.module.body[index]
        positions = self._generate(statement, start_line, [])
        if statement not in positions or positions[statement].start.line != syntactic_line:
            return None  # the mapping onto `ast` was off: let the caller use the full provider
        self._by_statement[index] = positions
        return positions

    def _statement_starts(self) -> list[tuple[int, int]] | None:
        """For each libcst top-level statement: the line its code generation starts on (its
        leading blank/comment lines included) and the line `ast` gives for the statement."""
        if self._starts is not None:
            return self._starts
        tree = self._tree()
        if tree is None:
            return None
        nodes = tree.body
        starts: list[tuple[int, int]] = []
        cursor = 0
        for statement in self.module.body:
            if cursor >= len(nodes):
                return None
            first = nodes[cursor]
            cursor += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
            line = first.lineno
            decorators = getattr(first, "decorator_list", None)
            if decorators:
                line = min(line, *(d.lineno for d in decorators))
                # The decorator's line includes its `@`, one line above the expression's only when
                # written `@\nexpr`, which nobody does; the check after codegen catches it anyway.
            leading = len(statement.leading_lines)
            syntactic = first.lineno
            starts.append((line - leading, syntactic if not decorators else first.lineno))
        self._starts = starts
        return starts


def function_layout(module: cst.Module) -> dict[int, tuple[int, int, tuple[str, ...]]]:
    """id(FunctionDef) -> (top-level statement index, rank among all defs in source order, indents
    of the blocks around it). A statement-level scan: expressions are never entered."""
    out: dict[int, tuple[int, int, tuple[str, ...]]] = {}
    counter = [0]

    def scan(statement: cst.CSTNode, index: int, indents: tuple[str, ...]) -> None:
        if isinstance(statement, cst.FunctionDef):
            out[id(statement)] = (index, counter[0], indents)
            counter[0] += 1
        body = getattr(statement, "body", None)
        if isinstance(body, cst.IndentedBlock):
            inner_indents = (*indents, body.indent if body.indent is not None else module.default_indent)
            for inner in body.body:
                scan(inner, index, inner_indents)
        for attribute in ("orelse", "finalbody"):
            branch = getattr(statement, attribute, None)
            if branch is not None and hasattr(branch, "body"):
                scan(branch, index, indents)
        for handler in getattr(statement, "handlers", ()) or ():
            scan(handler, index, indents)
        for case in getattr(statement, "cases", ()) or ():
            scan(case, index, indents)

    for index, statement in enumerate(module.body):
        scan(statement, index, ())
    return out
