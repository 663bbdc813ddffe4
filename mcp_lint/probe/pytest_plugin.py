"""pytest plugin (entry point `pytest11`): fixtures that start your MCP server for contract tests.

    pytest --mcp-server-command "python server.py"     # or `mcp_server_command = ...` in the ini file

- `mcp_session`: the server started over stdio in `mcp_server_cwd`, initialised; a
  `ServerConnection` with `call_tool(name, arguments)` (the SDK's `CallToolResult`), `call(...)`
  (a `Response`, also for JSON-RPC errors), `list_tools()`, and `session` (the `ClientSession`).
- `mcp_raw_session`: the server spoken to line by line (`request(message_or_raw_line)`), for
  malformed requests the SDK client refuses to send.
- `mcp_server_command`, `mcp_server_cwd` (a fresh `tmp_path`), `mcp_server_env`: override them in
  a conftest.py to start the server differently.

The assertions are in `mcp_lint.probe.testing`. Installed with mcp-lint, this module imports
nothing of `mcp` until a fixture is used, so it costs nothing to test suites that do not use it.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any, Iterator

import pytest

from mcp_lint.probe import INSTALL_HINT, ProbeUnavailable, require_mcp
from mcp_lint.probe.process import resolve_command, server_environment


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcp-lint-probe", "mcp-lint probe (MCP server contract tests)")
    group.addoption("--mcp-server-command", default=None, metavar="COMMAND", help="The command that starts the MCP server over stdio.")
    group.addoption("--mcp-timeout", type=float, default=None, metavar="SECONDS", help="Timeout of each call (default 30).")
    parser.addini("mcp_server_command", "The command that starts the MCP server over stdio.", default="")


@pytest.fixture
def mcp_server_command(request: pytest.FixtureRequest) -> list[str]:
    """The server's command line, from --mcp-server-command or the `mcp_server_command` ini value."""
    value = request.config.getoption("mcp_server_command") or request.config.getini("mcp_server_command")
    if not value:
        pytest.fail("no MCP server to start: pass --mcp-server-command, set mcp_server_command in the ini file, "
                    "or override the mcp_server_command fixture", pytrace=False)
    return shlex.split(value)


@pytest.fixture
def mcp_server_cwd(tmp_path: Path) -> Path:
    """The server's working directory: a fresh, empty directory per test."""
    return tmp_path


@pytest.fixture
def mcp_server_env() -> dict[str, str]:
    """Variables added to the server's environment (the rest is inherited)."""
    return {}


def _prepare(
    request: pytest.FixtureRequest, command: list[str], env: dict[str, str], needs_mcp: bool = True
) -> tuple[list[str], dict[str, str], float]:
    try:
        if needs_mcp:
            require_mcp()
    except ProbeUnavailable:
        pytest.fail(INSTALL_HINT, pytrace=False)
    timeout = request.config.getoption("mcp_timeout") or 30.0
    return resolve_command(command, request.config.invocation_params.dir), server_environment(env), timeout


@pytest.fixture
def mcp_session(
    request: pytest.FixtureRequest, mcp_server_command: list[str], mcp_server_cwd: Path, mcp_server_env: dict[str, str]
) -> Iterator[Any]:
    """A connected, initialised client session on the server; the server is stopped afterwards."""
    from mcp_lint.probe.client import ServerConnection, ServerStartError

    command, env, timeout = _prepare(request, mcp_server_command, mcp_server_env)
    connection = ServerConnection(command, mcp_server_cwd, env, timeout)
    try:
        connection.start()
    except ServerStartError as exc:
        pytest.fail(f"{exc}\nserver stderr:\n{exc.stderr}", pytrace=False)
    try:
        yield connection
    finally:
        connection.close()


@pytest.fixture
def mcp_raw_session(
    request: pytest.FixtureRequest, mcp_server_command: list[str], mcp_server_cwd: Path, mcp_server_env: dict[str, str]
) -> Iterator[Any]:
    """The server after the MCP handshake, spoken to in raw JSON-RPC lines."""
    from mcp_lint.probe.raw import RawConnection

    command, env, timeout = _prepare(request, mcp_server_command, mcp_server_env, needs_mcp=False)
    with RawConnection(command, mcp_server_cwd, env, timeout) as raw:
        try:
            raw.initialize()
        except RuntimeError as exc:
            pytest.fail(f"{exc}\nserver stderr:\n{raw.stderr_tail()}", pytrace=False)
        yield raw
