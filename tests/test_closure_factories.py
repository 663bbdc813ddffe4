"""A module global bound to the call of a closure factory (`run = make_runner(impl=...)`, the
factory defining `async def runner(...)` in its body and returning it) is that inner function: a
tool calling the global reaches the closure's body. Only a factory whose returns name its own
inner function makes one; a factory returning a function it did not define, or a class's object,
gives the global nothing of the kind."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from mcp_lint.cli import cli

FACTORY = """\
def make_runner(backend):
    \"\"\"Build the runner around its backend.\"\"\"

    async def runner(query: str) -> dict:
        if not query:
            return {"error": "Query failed: the query is empty"}
        rows = await backend(query)
        return {"rows": rows}

    return runner
"""

# A factory handing back a module-level function it did not define: not a closure it made.
PASS_THROUGH = """\
async def runner(query: str) -> dict:
    if not query:
        return {"error": "Query failed: the query is empty"}
    return {"rows": [query]}


def make_runner(backend):
    \"\"\"Hand back the shared runner.\"\"\"
    return backend
"""

LOGIC = """\
from . import base


async def _backend(query):
    return [query]


run_query = base.make_runner(backend=_backend)
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


def _run(root: Path, base: str) -> tuple[list[str], int]:
    files = {"pyproject.toml": '[project]\nname = "app"\nversion = "0"\ndependencies = ["mcp>=1.9,<2"]\n', "app/__init__.py": "", "app/base.py": base, "app/logic.py": LOGIC, "app/server.py": SERVER}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    cwd = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(cli, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", "."])
    finally:
        os.chdir(cwd)
    return sorted(line for line in result.output.splitlines() if " MCP" in line), result.exit_code


def test_a_global_bound_to_a_closure_factorys_call_runs_the_closure(tmp_path: Path) -> None:
    found, code = _run(tmp_path, FACTORY)
    assert found == ["app/base.py:6:13: MCP005 Helper 'runner' returns a failure dict as a normal result"]
    assert code == 1


def test_a_factory_returning_a_function_it_did_not_define_makes_no_closure(tmp_path: Path) -> None:
    # `run_query` is `_backend` at run time, which fails nowhere; the module's own `runner` is
    # reached by no tool, so nothing is reported.
    found, code = _run(tmp_path, PASS_THROUGH)
    assert found == []
    assert code == 0


def test_a_closure_the_factory_does_not_return_is_not_reached(tmp_path: Path) -> None:
    # The factory defines the closure but hands back its parameter: the closure never runs.
    base = FACTORY.replace("    return runner\n", "    return backend\n")
    found, code = _run(tmp_path, base)
    assert found == []
    assert code == 0
