"""MCP005 through helpers (issue 20, indirect misses): a failure value a helper builds and a tool
returns as its success result, reported where the helper builds it. The ways it travels covered
here: the error item of a `(value, error)` pair built by a call (`return None, refusal(...)`) that
the tool unpacks and returns, also when the helper runs through `asyncio.to_thread`; a decorator's
wrapper that answers before it calls the tool; a helper that returns text or nothing, whose text a
tool returns as it is before doing its work. Silent: a tool that turns the helper's error into a
raise, a helper only non-tools use, a status tool's report, a wrapper's cached value, a text that
is one of two answers."""

from __future__ import annotations

from ._support import check

HEADER = """\
import asyncio
import functools
from pathlib import Path

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("orchard")
SHED = {"key": None, "code": "4711"}


def refusal(message: str, *, hint: str | None = None) -> dict:
    out = {"error": message}
    if hint:
        out["hint"] = hint
    return out


def _check_crate_path(path: str) -> tuple[Path | None, dict | None]:
    resolved = Path(path).resolve()
    if not resolved.is_file():
        return None, refusal(f"{path!r} is not a crate file; nothing was read.")  # expect: MCP005
    return resolved, None
"""


def test_error_item_built_by_a_call_and_returned_by_the_tool() -> None:
    check(HEADER + """

@mcp.tool()
def weigh_crate(path: str) -> dict:
    resolved, problem = _check_crate_path(path)
    if problem is not None:
        return problem
    return {"kilos": resolved.stat().st_size}
""")


def test_error_item_of_a_helper_run_in_a_thread() -> None:
    check(HEADER + """

@mcp.tool()
async def weigh_crate(path: str) -> dict:
    resolved, problem = await asyncio.to_thread(_check_crate_path, path)
    if problem is not None:
        return problem
    return {"kilos": resolved.stat().st_size}
""")


def test_error_item_the_tool_turns_into_a_raise_is_silent() -> None:
    source = HEADER.replace("  # expect: MCP005", "") + """

@mcp.tool()
def weigh_crate(path: str) -> dict:
    resolved, problem = _check_crate_path(path)
    if problem is not None:
        raise ToolError(problem["error"])
    return {"kilos": resolved.stat().st_size}
"""
    check(source)


WRAPPER = HEADER.replace("  # expect: MCP005", "") + """

def require_key(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        if not SHED["key"]:
            return "The shed is locked. Call unlock_shed with the key first."  # expect: MCP005
        return await func(*args, **kwargs)

    return wrapper
"""


def test_a_wrapper_answering_before_it_calls_the_tool_refuses_the_call() -> None:
    check(WRAPPER + """

@mcp.tool()
@require_key
async def count_crates(row: str) -> str:
    return f"{len(row)} crates"
""")


def test_a_wrapper_returning_a_cached_value_or_after_the_tool_ran_is_silent() -> None:
    check(HEADER.replace("  # expect: MCP005", "") + """

CACHE: dict = {}


def cached(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        key = repr(args)
        if key in CACHE:
            return CACHE[key]
        result = await func(*args, **kwargs)
        if not result:
            return "Counted nothing yet, the rows are empty."
        CACHE[key] = result
        return result

    return wrapper


@mcp.tool()
@cached
async def count_crates(row: str) -> str:
    return f"{len(row)} crates"
""")


VERDICT = HEADER.replace("  # expect: MCP005", "") + """

def _confirm(code: str | None) -> str | None:
    if SHED["code"]:
        if not code:
            return "LOCKED: a confirmation code is required."  # expect: MCP005
        if code.strip() != SHED["code"]:
            return "LOCKED: wrong confirmation code. The crate stays."  # expect: MCP005
    return None
"""


def test_text_or_nothing_handed_on_by_the_tool_before_its_work_is_a_refusal() -> None:
    check(VERDICT + """

@mcp.tool()
def ship_crate(crate: str, code: str | None = None) -> str:
    blocked = _confirm(code)
    if blocked:
        return blocked
    Path(crate).touch()
    return f"Shipped {crate}"
""")


def test_text_or_nothing_falling_off_the_end_is_a_refusal_too() -> None:
    check(HEADER.replace("  # expect: MCP005", "") + """

def _row_problem(row: str):
    if not row.startswith("row-"):
        return f"Unknown row {row}: rows look like row-12."  # expect: MCP005


@mcp.tool()
def prune_row(row: str) -> str:
    problem = _row_problem(row)
    if problem is not None:
        return problem
    Path(row).touch()
    return f"Pruned {row}"
""")


def test_text_or_nothing_the_tool_raises_or_only_non_tools_use_is_silent() -> None:
    check(VERDICT.replace("  # expect: MCP005", "") + """

@mcp.tool()
def ship_crate(crate: str, code: str | None = None) -> str:
    blocked = _confirm(code)
    if blocked:
        raise ToolError(blocked)
    Path(crate).touch()
    return f"Shipped {crate}"


def nightly_job(code: str) -> str:
    blocked = _confirm(code)
    if blocked:
        return blocked
    Path("crates").touch()
    return "done"
""")


def test_text_or_nothing_as_one_of_two_answers_or_in_a_status_tool_is_silent() -> None:
    check(HEADER.replace("  # expect: MCP005", "") + """

def _ripeness_note(days: int) -> str | None:
    if days > 10:
        return f"Picked {days} days ago, eat soon."
    return None


def _shed_problem() -> str | None:
    if not SHED["key"]:
        return "The shed key is not configured."
    return None


@mcp.tool()
def crate_note(days: int) -> str:
    note = _ripeness_note(days)
    if note:
        return note
    return "Fresh."


@mcp.tool()
def shed_status() -> str:
    problem = _shed_problem()
    if problem:
        return problem
    Path("shed").touch()
    return "The shed is open."
""")


def test_a_dict_an_except_clause_writes_from_the_exception_alone_whatever_its_keys() -> None:
    check(HEADER.replace("  # expect: MCP005", "") + """

async def _fetch_crates(row: str) -> dict:
    try:
        return {"crates": await asyncio.to_thread(Path(row).read_text)}
    except Exception as e:
        return {"erro": "inesperado", "mensagem": f"{type(e).__name__}: {e}"}  # expect: MCP002,MCP005


async def _fetch_rows(rows: list[str]) -> dict:
    done = []
    try:
        for row in rows:
            done.append(await asyncio.to_thread(Path(row).read_text))
    except OSError as e:
        return {"rows": done, "aviso": f"stopped early: {e}"}  # expect: MCP002
    return {"rows": done}


@mcp.tool()
async def list_crates(row: str) -> dict:
    return await _fetch_crates(row)


@mcp.tool()
async def list_rows(rows: list[str]) -> dict:
    return await _fetch_rows(rows)
""")


OUTCOME = """\
from dataclasses import dataclass

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orchard")


@dataclass
class Outcome:
    ok: bool
    message: str

    def to_text(self) -> str:
        return self.message

    def banner(self) -> str:
        return "Orchard service"


def _pick(tree: str) -> Outcome:
    if not tree.startswith("tree-"):
        return Outcome(False, f"Error: unknown tree {tree}")  # expect: MCP005
    return Outcome(True, f"Picked {tree}")
"""


def test_a_failure_object_sent_through_its_own_method() -> None:
    check(OUTCOME + """

@mcp.tool()
def pick(tree: str) -> str:
    return _pick(tree).to_text()


@mcp.tool()
def pick_later(tree: str) -> str:
    outcome = _pick(tree)
    return outcome.to_text()
""")


def test_a_method_that_sends_nothing_of_its_object_is_silent() -> None:
    check(OUTCOME.replace("  # expect: MCP005", "") + """

@mcp.tool()
def pick(tree: str) -> str:
    return _pick(tree).banner()
""")


def test_a_failure_dict_merged_into_the_returned_dict() -> None:
    check(HEADER.replace("  # expect: MCP005", "") + """

def _crate_state(crate: str) -> dict:
    if not crate.startswith("crate-"):
        return {"error": f"Unknown crate {crate}"}  # expect: MCP005
    return {"kilos": len(crate)}


def _crate_label(crate: str) -> dict:
    return {"label": crate.upper()}


@mcp.tool()
def weigh(crate: str) -> dict:
    out = {"crate": crate}
    out.update(_crate_state(crate))
    return out


@mcp.tool()
def label(crate: str) -> dict:
    out = {"crate": crate}
    out.update(_crate_label(crate))
    return out
""")


REQUEST = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("orchard")


async def _request(path: str) -> tuple[int, dict]:
    try:
        async with httpx.AsyncClient() as client:
            reply = await client.get(path)
        return reply.status_code, reply.json()
    except httpx.HTTPError as e:
        return 0, {"error": "orchard_unreachable", "message": str(e)[:200]}  # expect: MCP002,MCP005


def _with_status(status: int, body: dict) -> dict:
    return {"http_status": status, **body}
"""


def test_an_except_clauses_report_in_a_tuple_sent_on_through_a_wrapper() -> None:
    check(REQUEST + """

@mcp.tool()
async def count_trees(row: str) -> dict:
    status, body = await _request("/rows/" + row)
    return _with_status(status, body)
""")


def test_an_except_clauses_report_in_a_tuple_the_tool_raises_is_silent() -> None:
    check(REQUEST.replace("MCP002,MCP005", "MCP002") + """

@mcp.tool()
async def count_trees(row: str) -> dict:
    status, body = await _request("/rows/" + row)
    if status == 0:
        raise ToolError(f"The orchard service is unreachable: {body['error']}")
    return body
""")


def test_an_except_clauses_status_tuple_with_its_flag_is_left_to_the_status_reading() -> None:
    source = REQUEST.replace("  # expect: MCP002,MCP005", "").replace("import httpx\n", "from pathlib import Path\n\nimport httpx\n")
    check(source + """

def _prune(row: str) -> tuple[bool, str, dict | None]:
    try:
        Path(row).unlink()
        return True, f"Pruned {row}", {"row": row}
    except OSError as e:
        return False, f"Could not prune: {e}", None  # expect: MCP002


@mcp.tool()
def prune(row: str) -> str:
    ok, message, details = _prune(row)
    if not ok:
        raise ToolError(message)
    return _with_status(200, {"message": message, **(details or {})})
""")


def test_an_error_item_built_in_an_except_clause_and_handed_on_after_a_test() -> None:
    check(HEADER.replace("  # expect: MCP005", "") + """

def _resolve_crate(path: str) -> tuple[Path | None, dict | None]:
    try:
        resolved = Path(path).resolve(strict=True)
    except OSError as exc:
        return None, refusal(f"Could not resolve {path!r}: {exc.strerror}.")  # expect: MCP002,MCP005
    return resolved, None


@mcp.tool()
def open_crate(path: str) -> dict:
    resolved, problem = _resolve_crate(path)
    if problem is not None:
        return problem
    return {"kilos": resolved.stat().st_size}
""")
