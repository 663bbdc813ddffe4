"""What keeps the rules' own per-file work cheap without changing what they report.

- A latent names its statement (`Latent.statement`, a finding's `statement`) from the text as
  written where that is what generating the node's code gives, and generates it elsewhere: the
  two agree on every shape (parentheses, semicolons, comments, continuation lines, line endings).
- MCP007 stops walking a module's statements once every module-level server constructor is found.
"""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from mcp_lint.model.module_walk import build_model
from mcp_lint.model.walk import descendants
from mcp_lint.rules.base import FileContext, _written_is_generated
from mcp_lint.rules.mcp007_unmasked_error_details import _statements_holding

TRICKY = textwrap.dedent(
    '''
    import logging
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("shapes")
    log = logging.getLogger(__name__)


    @mcp.tool()
    async def lookup(key: str, limit: int = 3) -> str:
        """Find a key."""
        try:
            value = await (store.get(key))  # parenthesized operand
            total: int = 0; total += limit
            if not value: return f"Error: no {key!r}";
            result = (
                "found "  # a comment inside
                f"{value}"
            )
            log.info("looked up %s",
                     key)
            assert value, \\
                "empty"
            x = y = (1 +
                2)
        except KeyError as e:
            raise RuntimeError(
                f"""lookup failed:
                {e}"""
            ) from e
        except (OSError, ValueError) as e:
            raise ((RuntimeError(str(e))))
        except Exception as e:
            log.exception("failed"); return {"error": str(e),
                                             "key": key}
        else:
            return (result)
        return "\\t".join([key,\tstr(limit)])
    '''
)


def _context(source: str) -> FileContext:
    module = cst.parse_module(source)
    return FileContext(module, build_model(module, "shapes", False), source)


def _nodes(ctx: FileContext) -> list[cst.CSTNode]:
    return [n for n in descendants(ctx.module) if isinstance(n, (cst.BaseExpression, cst.BaseSmallStatement, cst.SimpleStatementLine))]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_statement_text_is_the_generated_code_made_one_line(newline: str) -> None:
    ctx = _context(TRICKY.replace("\n", newline))
    nodes = _nodes(ctx)
    for node in nodes:
        expected = " ".join(ctx.module.code_for_node(node).split())
        assert ctx.statement_text(node, ctx.range(node)) == expected, ctx.module.code_for_node(node)
    # Both ways are taken: the written text for most nodes, generated code for the others.
    assert sum(map(_written_is_generated, nodes)) > len(nodes) // 2
    assert not all(map(_written_is_generated, nodes))


def test_nodes_owning_tokens_outside_their_range_are_generated() -> None:
    ctx = _context(TRICKY)
    by_code = {ctx.module.code_for_node(n).strip(): n for n in _nodes(ctx)}
    # Its own parentheses lie outside an expression's range.
    assert not _written_is_generated(by_code["(store.get(key))"])
    assert ctx.statement_text(by_code["(store.get(key))"], ctx.range(by_code["(store.get(key))"])) == "(store.get(key))"
    # A semicolon outside a small statement's.
    semicolon = by_code['return f"Error: no {key!r}";']
    assert not _written_is_generated(semicolon)
    assert ctx.statement_text(semicolon, ctx.range(semicolon)) == 'return f"Error: no {key!r}";'
    # A statement line's comments and newline outside its.
    line = next(n for n in _nodes(ctx) if isinstance(n, cst.SimpleStatementLine) and "result = (" in ctx.module.code_for_node(n))
    assert not _written_is_generated(line)
    # A multi-line raise without a semicolon: the text as written, on one line.
    raise_ = next(n for n in _nodes(ctx) if isinstance(n, cst.Raise) and n.cause is not None)
    assert _written_is_generated(raise_)
    assert ctx.statement_text(raise_, ctx.range(raise_)) == 'raise RuntimeError( f"""lookup failed: {e}""" ) from e'


SERVERS = textwrap.dedent(
    '''
    from fastmcp import FastMCP

    first = FastMCP("one")
    if True:
        second = FastMCP(name="two", mask_error_details=False)


    class Holder:
        third = FastMCP("three")


    def later() -> None:
        pass


    fourth = [FastMCP("four")]
    '''
)


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_the_statements_holding_server_calls_are_those_a_full_walk_finds(count: int) -> None:
    module = cst.parse_module(SERVERS)
    calls = [n for n in descendants(module) if isinstance(n, cst.Call)]
    wanted = {id(c) for c in calls[:count]} | {id(calls[-1])}
    full: dict[int, tuple[int, cst.CSTNode]] = {}
    for index, statement in enumerate(module.body):
        for node in descendants(statement, into_scopes=False):
            if id(node) in wanted:
                full[id(node)] = (index, statement)
    assert _statements_holding(module, wanted) == full
    assert id(calls[-1]) in full  # the last statement's call is found, after the earlier ones
