"""What keeps the per-file analysis cheap without changing what it finds.

- The analysis leaves no reference cycle holding the parsed tree: a worker runs with the cyclic
  collector off and collects every few files, and a tree kept alive by a cycle makes that
  collection walk every node of it (it once cost a fifth of a cold run's analysis).
- `lies_within` answers from the statements what comparing positions answered before (whether a
  return or a raise sits in a `try` body or an `except` clause), without generating code.
"""

from __future__ import annotations

import gc
import textwrap
from collections.abc import Iterator
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from mcp_lint.fileio import SourceFile
from mcp_lint.model.names import literal_value
from mcp_lint.per_file import analyze_text
from mcp_lint.rules.handler_fix import lies_within

SERVER = textwrap.dedent(
    '''
    import logging
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("files")
    logger = logging.getLogger(__name__)


    class Store:
        def __init__(self, root: str) -> None:
            self.root = root

        def read(self, name: str) -> str:
            try:
                with open(f"{self.root}/{name}") as handle:
                    return handle.read()
            except OSError as e:
                raise RuntimeError(f"cannot read {name}: {e}")


    store = Store("/srv")


    @mcp.tool()
    async def read_file(name: str) -> str:
        """Read one file."""
        def clean(text: str) -> str:
            return text.strip()

        try:
            return clean(store.read(name))
        except RuntimeError as e:
            logger.warning("read failed")
            return f"Error: {e}"
    '''
)


def test_the_analysis_leaves_no_cycle_holding_the_tree(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(SERVER)
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        outcome = analyze_text(SourceFile(SERVER, "utf-8", "\n"), path, "server.py")
        gc.collect()
        held = [type(o).__name__ for o in gc.garbage if isinstance(o, cst.CSTNode)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if collecting:
            gc.enable()
    assert outcome.summary is not None and outcome.summary.functions  # it was analysed
    assert held == []  # freed by reference counting the moment the analysis ended


def _statements(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (cst.Return, cst.Raise)):
            yield current
        stack.extend(current.children)


def _blocks(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every `try` body and every `except` clause."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (cst.Try, cst.TryStar)):
            yield current.body
        if isinstance(current, (cst.ExceptHandler, cst.ExceptStarHandler)):
            yield current
        stack.extend(current.children)


SHAPES = [
    SERVER,
    """
def tool(x):
    try:
        if x:
            return 1
        elif x is None:
            raise ValueError("none")
        else:
            for item in x:
                return item
            else:
                return 0
    except ValueError as e:
        try:
            return str(e)
        except Exception:
            raise
    finally:
        return 2
""",
    """
def tool(x):
    try: return x
    except Exception: return None
    try:
        y = 1; return y
    except (KeyError, ValueError) as e:
        while True:
            with open(x) as f:
                return f.read()
    return 3
""",
    """
def tool(command):
    try:
        match command:
            case {"go": where}:
                return where
            case _:
                raise KeyError(command)
    except KeyError:
        class Local:
            def method(self):
                return "inner"
        return Local().method()
    else:
        return "done"
""",
    """
def tool(x):
    try:
        pass
    except* ValueError:
        return "grouped"
    return "after"
""",
]


@pytest.mark.parametrize("source", SHAPES)
def test_lies_within_agrees_with_comparing_positions(source: str) -> None:
    module = cst.parse_module(source)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    pairs = 0
    for block in _blocks(module):
        outer = positions[block]
        for statement in _statements(module):
            inner = positions[statement]
            by_position = (outer.start.line, outer.start.column) <= (inner.start.line, inner.start.column) and (
                inner.end.line,
                inner.end.column,
            ) <= (outer.end.line, outer.end.column)
            assert lies_within(block, statement) == by_position, (module.code_for_node(statement), module.code_for_node(block))
            pairs += 1
    assert pairs >= 4


def test_lies_within_an_expression_is_searched_whole() -> None:
    module = cst.parse_module("def f(e):\n    try:\n        x = g(h(e))\n    except Exception:\n        pass\n")
    try_statement = module.body[0].body.body[0]
    call = try_statement.body.body[0].body[0].value.args[0].value  # h(e)
    assert lies_within(try_statement.body, call)
    assert not lies_within(try_statement.handlers[0], call)


@pytest.mark.parametrize("literal", ['"error"', "'it\\'s'", 'b"raw"', 'r"\\d+"', '"""multi\nline"""', "u'x'", '"\\N{BULLET}"'])
def test_literal_value_is_libcst_evaluated_value(literal: str) -> None:
    node = cst.parse_expression(literal)
    assert isinstance(node, cst.SimpleString)
    assert literal_value(node) == node.evaluated_value
    assert literal_value(cst.parse_expression(literal)) == node.evaluated_value  # asked again: the same


def test_literal_value_raises_as_evaluated_value_does() -> None:
    node = cst.SimpleString('"\\N{NO SUCH NAME}"')
    with pytest.raises(SyntaxError):
        node.evaluated_value
    for _ in range(2):  # a failure is not remembered as a value
        with pytest.raises(SyntaxError):
            literal_value(node)
