"""A closure calling a parameter of the factory that defines it (`def make_runner(impl): async def
runner(q): return await impl(q); return runner`) runs what the factory's callers pass
(`run_query = make_runner(impl=_search)`): a tool reaching the closure reaches that function.
A function no caller passes, a closure whose own parameter shadows the factory's, and a closure
no tool reaches, reach nothing."""

from __future__ import annotations

from pathlib import Path


from cli_support import invoke_in

FACTORY = """\
def make_runner(impl):
    \"\"\"Build the runner around its implementation.\"\"\"

    async def runner(query: str) -> dict:
        rows = await impl(query)
        return rows

    return runner
"""

# The closure's own parameter of the same name: what it calls is what its caller gives it.
SHADOWING = FACTORY.replace("async def runner(query: str)", "async def runner(query: str, impl=None)")

LOGIC = """\
from . import base


async def _search(query):
    if not query:
        return {"error": "Query failed: the query is empty"}
    return {"rows": [query]}


async def _unused(query):
    return {"error": "Query failed: this runs nowhere"}


run_query = base.make_runner(impl=_search)
"""

SERVER = """\
from mcp.server.fastmcp import FastMCP

from . import logic

mcp = FastMCP("rows")


@mcp.tool()
async def query(text: str) -> dict:
    \"\"\"Run a query.\"\"\"
    return await logic.run_query(text)
"""

# The tool does not use the closure.
UNREACHING_SERVER = SERVER.replace("return await logic.run_query(text)", "return {\"text\": text}")


def _run(root: Path, base: str = FACTORY, server: str = SERVER) -> list[str]:
    files = {
        "pyproject.toml": '[project]\nname = "app"\nversion = "0"\ndependencies = ["mcp>=1.9,<2"]\n',
        "app/__init__.py": "",
        "app/base.py": base,
        "app/logic.py": LOGIC,
        "app/server.py": server,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--select", "MCP005", "--output-format", "concise", "-q", "."])
    return sorted(line for line in result.output.splitlines() if " MCP" in line)


def test_the_function_passed_to_the_factory_runs_in_the_closure(tmp_path: Path) -> None:
    assert _run(tmp_path) == ["app/logic.py:6:9: MCP005 Helper '_search' returns a failure dict as a normal result"]


def test_a_closure_calling_its_own_parameter_runs_nothing_the_factory_was_given(tmp_path: Path) -> None:
    assert _run(tmp_path, base=SHADOWING) == []


def test_a_closure_no_tool_reaches_reaches_nothing(tmp_path: Path) -> None:
    assert _run(tmp_path, server=UNREACHING_SERVER) == []
