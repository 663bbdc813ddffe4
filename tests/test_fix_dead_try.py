"""MCP005's re-raise on mcp 1.x's low-level dispatcher (review 16, dead code): where the clause
would only re-raise and is its `try`'s only clause (no else/finally), the fix removes the
try/except and dedents its body, comments kept; a clause that also logs keeps its `try` and
ends in a bare `raise` (review 16 #44, merged as is)."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source
from tests.test_fix_review14_left import DISPATCHER, PINNED_1X
from tests.test_fixes import assert_fixes_to, fixed

QUIET = DISPATCHER.replace('        logger.error("Tool %s failed: %s", name, e)\n', "").replace(
    '        if name == "run_query":\n', '        # One branch per tool.\n        if name == "run_query":\n'
)

UNWRAPPED = QUIET.replace(
    """    try:
        # One branch per tool.
        if name == "run_query":
            rows = await run_query(arguments["sql"])
            return [types.TextContent(type="text", text=str(rows))]
        raise ValueError(f"Unknown tool: {name}")
    except Exception as e:
        return [types.TextContent(type="text", text=f"Error: {str(e)}")]
""",
    """    # One branch per tool.
    if name == "run_query":
        rows = await run_query(arguments["sql"])
        return [types.TextContent(type="text", text=str(rows))]
    raise ValueError(f"Unknown tool: {name}")
""",
)


def test_a_clause_that_would_only_re_raise_goes_with_its_try() -> None:
    assert UNWRAPPED != QUIET
    assert_fixes_to(QUIET, UNWRAPPED, PINNED_1X)
    helps = {f.fix.message for f in lint_source(QUIET, target=PINNED_1X) if f.fix is not None and f.code == "MCP005"}
    assert helps == {"Remove the try/except: let the exception through (the server sends its text with isError: true)"}, helps


def test_a_clause_that_logs_keeps_its_try() -> None:
    after = fixed(DISPATCHER, PINNED_1X)
    assert after == DISPATCHER.replace('        return [types.TextContent(type="text", text=f"Error: {str(e)}")]\n', "        raise\n"), after


def test_a_try_with_a_finally_or_a_comment_on_its_clause_keeps_it() -> None:
    bare = '        return [types.TextContent(type="text", text=f"Error: {str(e)}")]\n'
    final = QUIET.replace(bare, bare + '    finally:\n        logger.debug("done")\n')
    assert fixed(final, PINNED_1X) == final.replace("    except Exception as e:\n" + bare, "    except Exception:\n        raise\n")
    commented = QUIET.replace("    except Exception as e:\n", "    except Exception as e:  # the client shows it\n")
    assert fixed(commented, PINNED_1X) == commented.replace(bare, "        raise\n").replace(" as e:  #", ":  #")
