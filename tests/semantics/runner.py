"""Run example servers under one framework release and report what the official client receives.

This file runs INSIDE a framework venv (see venvs.py), with that venv's own `mcp` / `fastmcp` and
nothing of mcp-lint: it must import only the standard library and the framework. It reads a JSON
list of jobs from the file named on the command line and prints one JSON object, job id -> report.

A job: ``{"id", "source", "given", "rows", "env", "calls": [{"tool", "server", "arguments"}]}``.
The source is executed as a module whose namespace first ran ``given`` (stubs for the data an
example leaves undefined, e.g. ``ORDERS = {}``). Before that, a call ``__semantics_hit__(row)``
is put in front of each statement that starts at one of ``rows`` (the rows mcp-lint flagged), so a
report says which flagged statements a call went through, also when the framework runs the tool
in a worker thread. Each call goes through an in-memory client session: fastmcp's
``Client(server)``, mcp 1.x's ``create_connected_server_and_client_session``, mcp 2.x's
``Client(server)``. A report per call: ``{"result": <CallToolResult as on the wire>}`` or
``{"error": {"code", "message", "data"}}`` (a JSON-RPC error), plus ``"hits"`` (flagged rows
executed) and, on mcp 2.x, ``"legacy"``: the same call on a handshake-era connection;
``{"crash": "<traceback>"}`` when the client itself failed.
"""

from __future__ import annotations

import ast
import json
import os
import sys
import traceback
import types
from typing import Any

CALL_TIMEOUT = 30.0


def _instrument(source: str, rows: set[int], filename: str) -> types.CodeType:
    """The module's code with `__semantics_hit__(row)` before each statement starting at a row."""
    tree = ast.parse(source, filename)

    class Inserter(ast.NodeTransformer):
        def generic_visit(self, node: ast.AST) -> ast.AST:
            super().generic_visit(node)
            for field in ("body", "orelse", "finalbody"):
                statements = getattr(node, field, None)
                if isinstance(statements, list) and statements and isinstance(statements[0], ast.stmt):
                    setattr(node, field, self._with_hits(statements))
            return node

        @staticmethod
        def _with_hits(statements: list[ast.stmt]) -> list[ast.stmt]:
            out: list[ast.stmt] = []
            for statement in statements:
                covered = [r for r in rows if statement.lineno <= r <= (statement.end_lineno or statement.lineno)]
                # Only the innermost statement of a row: compound statements (if/try) pass the row down.
                if covered and not isinstance(statement, (ast.If, ast.Try, ast.For, ast.While, ast.With, ast.AsyncWith, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    for row in covered:
                        hit = ast.Expr(ast.Call(ast.Name("__semantics_hit__", ast.Load()), [ast.Constant(row)], []))
                        out.append(ast.copy_location(hit, statement))
                out.append(statement)
            return out

    tree = ast.fix_missing_locations(Inserter().visit(tree))
    # dont_inherit: not this file's `from __future__ import annotations`. An example runs as its
    # own module would, with evaluated annotations (fastmcp 2.3/2.4 cannot resolve a postponed
    # `-> Order` of a module made here).
    return compile(tree, filename, "exec", dont_inherit=True)


def _servers(namespace: dict[str, Any]) -> dict[str, Any]:
    """The module's server objects by variable name (FastMCP, MCPServer, low-level Server)."""
    found = {}
    for name, value in namespace.items():
        cls = type(value)
        module = cls.__module__
        if cls.__name__ in {"FastMCP", "MCPServer", "Server", "FastMCPOpenAPI"} and module.split(".")[0] in {"mcp", "fastmcp"}:
            found[name] = value
    return found


def _error_json(exc: BaseException) -> dict[str, Any] | None:
    """A JSON-RPC error the client raised, as {code, message, data}; None for anything else.
    The client's task groups may wrap it in (nested) exception groups."""
    for inner in getattr(exc, "exceptions", None) or ():
        found = _error_json(inner)
        if found is not None:
            return found
    error = getattr(exc, "error", None)  # mcp 1.x McpError(ErrorData), mcp 2.x MCPError.error
    if error is not None and hasattr(error, "code"):
        return {"code": error.code, "message": error.message, "data": getattr(error, "data", None)}
    if hasattr(exc, "code") and hasattr(exc, "message") and type(exc).__name__ in {"MCPError", "McpError"}:
        return {"code": exc.code, "message": exc.message, "data": getattr(exc, "data", None)}
    return None


def _wire(result: Any) -> dict[str, Any]:
    data = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    data.setdefault("isError", False)  # mcp 2.x leaves a false flag out of the dump
    return data


async def _raw_call_v1(session: Any, tool: str, arguments: dict[str, Any]) -> Any:
    """`tools/call` as sent, without ClientSession.call_tool's extras: from 1.10 it asks
    `tools/list` for output schemas first, which a server without a list_tools handler answers
    with -32601; the client that matters here is the model's host, and it receives this result."""
    import mcp.types as mt

    request = mt.ClientRequest(mt.CallToolRequest(method="tools/call", params=mt.CallToolRequestParams(name=tool, arguments=arguments)))
    return await session.send_request(request, mt.CallToolResult)


async def _call(server: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    import anyio

    with anyio.fail_after(CALL_TIMEOUT):
        try:
            if type(server).__module__.split(".")[0] == "fastmcp":
                from fastmcp import Client

                async with Client(server) as client:
                    return {"result": _wire(await client.call_tool_mcp(tool, arguments))}
            import importlib.metadata

            if importlib.metadata.version("mcp").startswith("1."):
                from mcp.shared.memory import create_connected_server_and_client_session

                async with create_connected_server_and_client_session(getattr(server, "_mcp_server", server)) as session:
                    return {"result": _wire(await _raw_call_v1(session, tool, arguments))}
            from mcp import Client

            # mcp 2.x answers per protocol era: the in-process default (2026-07-28) and the
            # handshake era every 2025 client speaks (stdio included) may differ (semantics §2a,
            # low level); both are reported, the second under "legacy".
            report = await _call_v2(Client(server), tool, arguments)
            report["legacy"] = await _call_v2(Client(server, mode="legacy"), tool, arguments)
            return report
        except Exception as exc:  # noqa: BLE001 - a JSON-RPC error is an outcome to report
            error = _error_json(exc)
            if error is None:
                raise
            return {"error": error}


async def _no_output_check(name: str, result: Any) -> None:
    return None


async def _call_v2(client: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    try:
        async with client:
            # As for mcp 1.x: the client's check of a success against the tool's output schema
            # asks `tools/list` first (-32601 from a server without that handler); it is no part of
            # what the server sent.
            session = getattr(client, "session", None)
            if hasattr(session, "validate_tool_result"):
                session.validate_tool_result = _no_output_check
            return {"result": _wire(await client.call_tool(tool, arguments))}
    except Exception as exc:  # noqa: BLE001
        error = _error_json(exc)
        if error is None:
            raise
        return {"error": error}


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    import anyio

    hits: list[int] = []
    saved_env = dict(os.environ)
    os.environ.update(job.get("env") or {})
    try:
        try:
            module = types.ModuleType(f"example_{job['id'].replace('-', '_')}")
            module.__dict__["__semantics_hit__"] = hits.append
            sys.modules[module.__name__] = module  # pydantic resolves annotations through the module
            # The stubs live in the module itself, so they may use what the example defines later.
            exec(compile(job.get("given") or "", "<given>", "exec", dont_inherit=True), module.__dict__)
            exec(_instrument(job["source"], set(job.get("rows") or ()), f"<{job['id']}>"), module.__dict__)
        except Exception:  # noqa: BLE001
            return {"setup_error": traceback.format_exc()}
        servers = _servers(module.__dict__)
        calls = []
        for call in job["calls"]:
            name = call.get("server")
            if name is None and len(servers) != 1:
                calls.append({"crash": f"{len(servers)} servers in the example ({', '.join(servers)}): name one, tool@server"})
                continue
            server = servers[name] if name else next(iter(servers.values()))
            del hits[:]
            try:
                report = anyio.run(_call, server, call["tool"], call.get("arguments") or {})
            except Exception:  # noqa: BLE001
                report = {"crash": traceback.format_exc()}
            report["hits"] = sorted(set(hits))
            calls.append(report)
        return {"calls": calls}
    finally:
        os.environ.clear()
        os.environ.update(saved_env)


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        jobs = json.load(handle)
    reports = {job["id"]: run_job(job) for job in jobs}
    # The framework may have printed to stdout (banners): the report is the last line.
    sys.stdout.write("\n" + json.dumps(reports) + "\n")


if __name__ == "__main__":
    main()
