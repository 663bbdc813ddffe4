"""A method called on an attribute of what a factory returns (`_get_state().api.fetch(key)`, or
of what a method of it returns, `get_services().api().fetch(key)`, or handed to a runner,
`_run(get_client().fetch, key)`):
the factory's return annotation types the result (a private class `_State` too), the class's
constructor parameter kept on `self` types the attribute, so the method is reached and its
helpers checked. Without an annotation naming a class nothing is reached."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke_in

CLIENT = """\
import httpx


class Api:
    def __init__(self, base: str) -> None:
        self.base = base

    def fetch(self, key: str) -> str:
        try:
            return httpx.get(self.base + key).text
        except httpx.HTTPError as exc:
            return f"Error: {exc}"
"""
SERVER = """\
from mcp.server.fastmcp import FastMCP

from pkg.client import Api

mcp = FastMCP("records")


class _State:
    def __init__(self, api: Api) -> None:
        self.api = api


_state: _State | None = None


def _get_state() -> _State:
    if _state is None:
        raise RuntimeError("configure() first")
    return _state


@mcp.tool()
def lookup(key: str) -> str:
    return _get_state().api.fetch(key)
"""

# A chain of factories: a method of what a method of a factory's result returns.
CHAINED = """\
from mcp.server.fastmcp import FastMCP

from pkg.client import Api

mcp = FastMCP("records")


class Services:
    def api(self) -> Api:
        return Api("https://records.invalid/")


def get_services() -> Services:
    return Services()


@mcp.tool()
def lookup(key: str) -> str:
    return get_services().api().fetch(key)
"""

# A bound method of a factory's result handed to a runner that runs it in a thread.
RUNNER = """\
import asyncio

from mcp.server.fastmcp import FastMCP

from pkg.client import Api

mcp = FastMCP("records")


def get_client() -> Api:
    return Api("https://records.invalid/")


async def _run(fn, *args):
    return await asyncio.to_thread(fn, *args)


@mcp.tool()
async def lookup(key: str) -> str:
    return await _run(get_client().fetch, key)
"""


def _project(root: Path, server: str) -> None:
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\ndependencies = ['mcp>=1.10']\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "client.py").write_text(CLIENT)
    (root / "pkg" / "server.py").write_text(server)


def _findings(root: Path) -> list[str]:
    result = invoke_in(root, ["check", "--no-cache", "--select", "MCP002,MCP005", "--output-format", "concise", "."])
    return sorted(line.split(" ", 2)[0] + " " + line.split(" ", 2)[1] for line in result.stdout.splitlines() if ": MCP" in line)


@pytest.mark.parametrize("owner", ["_State", "State"])
def test_a_method_of_an_attribute_of_a_factorys_result_is_reached(tmp_path: Path, owner: str) -> None:
    _project(tmp_path, SERVER.replace("_State", owner))
    assert _findings(tmp_path) == ["pkg/client.py:12:13: MCP005", "pkg/client.py:12:20: MCP002"]


def test_a_method_of_what_a_factorys_method_returns_is_reached(tmp_path: Path) -> None:
    _project(tmp_path, CHAINED)
    assert _findings(tmp_path) == ["pkg/client.py:12:13: MCP005", "pkg/client.py:12:20: MCP002"]
    _project_again = CHAINED.replace("def api(self) -> Api:", "def api(self):").replace('return Api("https://records.invalid/")', "return None")
    (tmp_path / "pkg" / "server.py").write_text(_project_again)
    assert _findings(tmp_path) == []


def test_a_method_of_a_factorys_result_handed_to_a_runner_is_reached(tmp_path: Path) -> None:
    _project(tmp_path, RUNNER)
    assert _findings(tmp_path) == ["pkg/client.py:12:13: MCP005", "pkg/client.py:12:20: MCP002"]
    # The runner handed the factory's result itself (a value, not a method): nothing is run.
    (tmp_path / "pkg" / "server.py").write_text(RUNNER.replace("_run(get_client().fetch, key)", "_run(get_client().base, key)"))
    assert _findings(tmp_path) == []


def test_a_factory_without_a_class_annotation_reaches_nothing(tmp_path: Path) -> None:
    _project(tmp_path, SERVER.replace("def _get_state() -> _State:", "def _get_state():").replace("return _state\n", "return dict(api=_state)\n"))
    assert _findings(tmp_path) == []
