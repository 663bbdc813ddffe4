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


# -- questions several rules ask, answered once --------------------------------------------

from pathlib import Path  # noqa: E402

import mcp_lint.rules.mcp004_mutation_before_validation as mcp004  # noqa: E402
import mcp_lint.rules.mcp005_error_returned_as_success as mcp005  # noqa: E402
from mcp_lint.analysis import analyze_source  # noqa: E402
from mcp_lint.rules import results  # noqa: E402
from mcp_lint.rules.exception_text import exception_text_in, status_bases  # noqa: E402
from mcp_lint.rules.mcp002_raw_exception_text import _names_in  # noqa: E402

# Failures returned every way the rules classify them, by helpers of two classes that share
# method names (`self._fail` means another function in each), by error builders that call
# themselves, and by lookups.
RETURNS = textwrap.dedent(
    '''
    import json
    from mcp.server.fastmcp import FastMCP
    from mcp.types import CallToolResult, TextContent

    mcp = FastMCP("returns")
    USERS: dict[str, dict] = {}


    def _fail(message: str, retry: bool = False) -> dict:
        if retry:
            return _fail(message)
        return {"error": message}


    def format_error(error: Exception) -> str:
        return f"Error: {error}"


    class Orders:
        def _fail(self, message: str) -> dict:
            return {"error": message, "hint": "call list_orders"}

        def cancel(self, order_id: str) -> dict:
            if not order_id:
                return self._fail("order_id is required")
            USERS[order_id] = {}
            if order_id not in USERS:
                return {"error": "No such order", "details": "use list_orders"}
            return {"ok": True}


    class Quiet:
        def _fail(self, message: str) -> str:
            return message

        def cancel(self, order_id: str) -> dict:
            if not order_id:
                return self._fail("order_id is required")
            return {"ok": True}


    @mcp.tool()
    def get_user(user_id: str) -> str:
        if user_id not in USERS:
            return "No user found"
        try:
            return json.dumps(USERS[user_id])
        except TypeError as e:
            return format_error(e)


    @mcp.tool()
    def delete_user(user_id: str) -> object:
        if not user_id:
            return _fail("user_id is required")
        if user_id == "root":
            return [TextContent(type="text", text="Error: cannot delete root")]
        if user_id == "admin":
            return CallToolResult(content=[TextContent(type="text", text=json.dumps({"error": "protected"}))])
        USERS.pop(user_id)
        return "Failed to notify" if user_id.startswith("x") else "deleted"
    '''
)


def _uncached(value, ctx, *, conditional, lookup=False):  # type: ignore[no-untyped-def]
    return results._classify_return(value, ctx, conditional, lookup)


def test_classify_return_once_per_value_and_function_changes_no_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    cached = analyze_source(RETURNS, Path("returns.py"), "returns.py")
    for module in (results, mcp004, mcp005):
        monkeypatch.setattr(module, "classify_return", _uncached)
    fresh = analyze_source(RETURNS, Path("returns.py"), "returns.py")
    assert not isinstance(cached, type(None)) and not isinstance(fresh, type(None))
    assert cached == fresh
    latents = [latent.code for function in cached.functions.values() for latent in function.latent]  # type: ignore[union-attr]
    assert latents.count("MCP005") >= 4  # the shapes are classified at all


def test_the_same_value_is_classified_per_function_being_checked() -> None:
    ctx = _context(RETURNS)
    orders, quiet = ctx.model.functions["shapes.Orders.cancel"], ctx.model.functions["shapes.Quiet.cancel"]
    value = orders.returns[0].node.value  # `self._fail("order_id is required")`
    answers = []
    for facts in (orders, quiet, orders):
        ctx.current_facts = facts
        answers.append(results.classify_return(value, ctx, conditional=True))
    assert answers[0] is not None and answers[0][0] == "envelope"  # Orders._fail builds an error dict
    assert answers[1] is None  # Quiet._fail returns its text as it is
    assert answers[2] == answers[0]


def test_a_provisional_answer_about_a_self_calling_builder_is_not_kept() -> None:
    ctx = _context(RETURNS)
    tool = ctx.model.functions["shapes.delete_user"]
    builder = ctx.model.functions["shapes._fail"]
    ctx.current_facts = tool
    first = results.classify_return(tool.returns[0].node.value, ctx, conditional=True)  # `_fail(...)`
    assert first is not None and first[0] == "envelope"
    # Inside `_fail`, `return _fail(message)` was classified while `_fail` itself was being
    # judged (then provisionally building nothing); asked again it builds a failure.
    again = results.classify_return(builder.returns[0].node.value, ctx, conditional=True)
    assert again == _uncached(builder.returns[0].node.value, _context_with(ctx, tool), conditional=True)
    assert again is not None


def _context_with(ctx: FileContext, facts):  # type: ignore[no-untyped-def]
    fresh = FileContext(ctx.module, ctx.model, "\n".join(ctx.lines))
    fresh.current_facts = facts
    results.builds_failures(facts, fresh)
    return fresh


STATUS = textwrap.dedent(
    '''
    async def fetch(client, url: str) -> str:
        resp = await client.get(url)
        other = await client.get(url + "/meta")
        if resp.status_code != 200 and other.status >= 500:
            if 200 <= other.status_code < 300:
                return f"Error: {resp.text}"
            if resp.ok:
                return other.text
            raise RuntimeError(f"upstream said {resp.text}")
        return resp.text
    '''
)


def _status_bases_by_walk(conditions) -> set[str]:  # type: ignore[no-untyped-def]
    """status_bases as it was: every condition walked each time it is asked."""
    from mcp_lint.model.names import dotted
    from mcp_lint.rules.exception_text import _STATUS_ATTRS, _success_test

    bases: set[str] = set()
    for cond in conditions:
        if _success_test(cond):
            continue
        for node in descendants(cond):
            if isinstance(node, cst.Attribute) and node.attr.value in _STATUS_ATTRS:
                base = dotted(node.value)
                if base:
                    bases.add(base)
    return bases


def test_status_bases_once_per_condition_as_walking_each_time() -> None:
    ctx = _context(STATUS)
    facts = ctx.model.functions["shapes.fetch"]
    sinks = [r.conditions for r in facts.returns] + [r.conditions for r in facts.raises]
    assert any(len(conditions) == 2 for conditions in sinks)
    for _ in range(2):  # asked again, from the memo
        for conditions in sinks:
            assert status_bases(conditions, ctx) == _status_bases_by_walk(conditions)
    assert status_bases(facts.raises[0].conditions, ctx) == {"resp", "other"}


@pytest.mark.parametrize(
    "expression",
    [
        'f"Error: {error}"',
        "str(err.args[0])",
        "error.response.text",
        'err.response["Error"]["Message"]',
        "report(error, detail=str(err))",
        "(lambda error: error)(other)",
        "traceback.format_exc()",
        "{'error': str(exc), 'code': exc.code}",
        "getattr(error, 'message', repr(e))",
    ],
)
def test_a_parameter_not_named_in_a_sink_has_no_text_in_it(expression: str) -> None:
    ctx = _context(f"def report(*args, **kwargs):\n    pass\n\n\ndef helper(error, err, exc, e, other):\n    return {expression}\n")
    value = ctx.model.functions["shapes.helper"].returns[0].node.value
    names = _names_in(value)
    for param in ("error", "err", "exc", "e", "other", "traceback", "report"):
        if exception_text_in(value, None, ctx, frozenset({param})) is not None:
            assert param in names, param
