"""MCP002's fix gives the parse of the model's own argument a clause of its own (issue 23, C2:
review 13's #32/#33).

`UUID(run_id)` (or `int(page)`, `date.fromisoformat(day)`) beside a service call in one broad
`try`: the old text told the model either that its argument is malformed or the service's
reason; the rewritten catch-all alone would say neither. Without reordering the author's code,
a maintainer puts `except ValueError` first, saying the argument is malformed and what it must
look like. Only where nothing else in the `try` can raise a ValueError (the library tables; no
call of the project, whose own ValueError sentences must reach the model)."""

from __future__ import annotations

from tests.test_fixes import fixed

HEAD = """\
import json
import logging
from datetime import date
from uuid import UUID

from mcp.server.fastmcp import FastMCP
from runs_sdk import get_client

logger = logging.getLogger(__name__)
mcp = FastMCP("runs")


"""

RETURNED = HEAD + """\
@mcp.tool()
async def get_run(run_id: str) -> dict:
    \"\"\"Get a run by its id.\"\"\"
    try:
        async with get_client() as client:
            run = await client.read_run(UUID(run_id))
            return run.model_dump()
    except Exception as e:
        return {"error": f"Failed to get run: {str(e)}"}
"""

RAISED = HEAD + """\
@mcp.tool()
def runs_on(day: str) -> list:
    \"\"\"List the runs of one day.\"\"\"
    try:
        client = get_client()
        return client.list_runs(date.fromisoformat(day))
    except Exception as e:
        raise ValueError(f"Failed to list runs: {e}")
"""


def test_a_returned_failure_gets_the_parse_clause_first() -> None:
    out = fixed(RETURNED)
    assert out == HEAD.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ) + (
        "@mcp.tool()\n"
        "async def get_run(run_id: str) -> dict:\n"
        '    """Get a run by its id."""\n'
        "    try:\n"
        "        async with get_client() as client:\n"
        "            run = await client.read_run(UUID(run_id))\n"
        "            return run.model_dump()\n"
        "    except ValueError as e:\n"
        '        raise ToolError("Invalid run_id: expected a UUID") from e\n'
        "    except Exception as e:\n"
        '        logger.exception("Failed to get run (run_id: %s)", run_id)\n'
        '        raise ToolError(f"Failed to get run (run_id: {run_id})") from e\n'
    )
    assert fixed(out) == out  # the fixed code is clean


def test_a_raise_keeps_its_class_in_the_parse_clause() -> None:
    out = fixed(RAISED)
    assert out.endswith(
        "    try:\n"
        "        client = get_client()\n"
        "        return client.list_runs(date.fromisoformat(day))\n"
        "    except ValueError as e:\n"
        '        raise ValueError("Invalid day: expected an ISO 8601 date (YYYY-MM-DD)") from e\n'
        "    except Exception as e:\n"
        '        raise ValueError(f"Failed to list runs (day: {day})") from e\n'
    ), out
    assert fixed(out) == out


def test_another_call_raising_value_error_gets_no_clause() -> None:
    # json.loads raises a ValueError too: the clause would call a bad reply a bad argument.
    source = RETURNED.replace("return run.model_dump()", "return json.loads(run.raw)")
    out = fixed(source)
    assert "except ValueError" not in out
    assert 'raise ToolError(f"Failed to get run (run_id: {run_id})") from e\n' in out


def test_a_project_call_beside_gets_no_clause() -> None:
    # The project's function may raise ValueError with the author's sentence for the model.
    source = RETURNED.replace("@mcp.tool()", "def check_quota(run_id: str) -> None:\n    pass\n\n\n@mcp.tool()", 1).replace(
        "        async with get_client() as client:\n", "        check_quota(run_id)\n        async with get_client() as client:\n"
    )
    assert "except ValueError" not in fixed(source)


def test_an_earlier_value_error_clause_gets_no_second() -> None:
    source = RAISED.replace(
        "    except Exception as e:\n",
        '    except ValueError:\n        raise ValueError("day must look like 2024-01-31")\n    except Exception as e:\n',
    )
    assert fixed(source).count("except ValueError") == 1


def test_an_argument_rebound_before_the_parse_gets_no_clause() -> None:
    source = RAISED.replace("        client = get_client()\n", "        day = day.strip()\n        client = get_client()\n")
    assert "except ValueError as e" not in fixed(source)
