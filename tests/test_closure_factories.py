"""A module global bound to the call of a closure factory (`run = make_runner(impl=...)`, the
factory defining `async def runner(...)` in its body and returning it) is that inner function: a
tool calling the global reaches the closure's body. Only a factory whose returns name its own
inner function makes one; a factory returning a function it did not define, or a class's object,
gives the global nothing of the kind. The same closure handed to the server (`add_tool(make(t))`,
`mcp.tool()(make(t))`, or through a global) is a tool named by its own name."""

from __future__ import annotations

from pathlib import Path


from cli_support import invoke_in

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


def _run(root: Path, base: str, server: str = SERVER) -> tuple[list[str], int]:
    files = {"pyproject.toml": '[project]\nname = "app"\nversion = "0"\ndependencies = ["mcp>=1.9,<2"]\n', "app/__init__.py": "", "app/base.py": base, "app/logic.py": LOGIC, "app/server.py": server}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    result = invoke_in(root, ["check", "--no-cache", "--isolated", "--output-format", "concise", "-q", "."])
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


REGISTERED = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("rows")


def make_lookup(table: str):
    \"\"\"Build the lookup tool of one table.\"\"\"

    async def lookup(key: str) -> dict:
        if not key:
            return {"error": "Lookup failed: the key is empty"}
        return {"table": table, "key": key}

    return lookup


"""


def _run_server(root: Path, registration: str) -> tuple[list[str], int]:
    return _run(root, FACTORY, server=REGISTERED + registration)


def test_a_closure_handed_to_add_tool_is_a_tool(tmp_path: Path) -> None:
    found, code = _run_server(tmp_path, 'mcp.add_tool(make_lookup("users"))\n')
    assert found == ["app/server.py:11:13: MCP005 Tool 'lookup' returns a failure dict as a normal result"]
    assert code == 1


def test_a_closure_given_to_the_tool_decorator_is_a_tool(tmp_path: Path) -> None:
    found, code = _run_server(tmp_path, 'mcp.tool()(make_lookup("users"))\n')
    assert found == ["app/server.py:11:13: MCP005 Tool 'lookup' returns a failure dict as a normal result"]
    assert code == 1


def test_a_closure_bound_to_a_global_then_registered_is_a_tool(tmp_path: Path) -> None:
    found, code = _run_server(tmp_path, 'lookup_users = make_lookup("users")\nmcp.tool(name="users")(lookup_users)\n')
    assert found == ["app/server.py:11:13: MCP005 Tool 'users' returns a failure dict as a normal result"]
    assert code == 1


def test_a_factory_registered_by_its_own_name_is_not_its_closure(tmp_path: Path) -> None:
    # `make_lookup` itself as the tool: its body returns a function, no failure; the closure is
    # never a tool, so its refusal is not reported.
    found, _ = _run_server(tmp_path, "mcp.tool()(make_lookup)\n")
    assert found == []
