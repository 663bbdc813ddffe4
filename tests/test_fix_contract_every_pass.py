"""Offer checks asked in every pass of the fix loop, on a half-fixed project too (issue 23).

A fix that changes what a function hands its callers (a returned failure becomes a raise, a
raised builtin class becomes ToolError) is offered only when no caller anywhere in the project
treats the new outcome otherwise: not another method of the class that tests the result, not a
script of the package, not a decorator's wrapper or a caller's `except` that answers the old
class. A later pass sees the project with earlier fixes applied; what it may apply is what the
first `check --unsafe-fixes` showed plus what those fixes made necessary, never what a changed
caller merely lets through. Each test runs `--fix` twice and compares whole files.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", *args], catch_exceptions=False)


def write_all(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def fix_twice(root: Path) -> Result:
    """`--fix --unsafe-fixes`, then again: the second run must find nothing more to fix."""
    first = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "error:" not in first.output, first.output
    second = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "fixed" not in second.output, second.output
    return first


# A server class whose tools are its methods. `list_bins` reports a failed listing in its result;
# `find_bin` (another tool) and a demo script branch on that result. `list_bins` must keep
# returning in every pass: once `find_bin` is fixed (its `except Exception` lets ToolError
# through), a raise from `list_bins` would reach the model on that path, but the demo script and
# `find_bin`'s own test of the value would break.
_DEPOT = """\
import httpx
from fastmcp import FastMCP


class DepotServer(FastMCP):
    def __init__(self) -> None:
        super().__init__("depot")
        self.tool(self.list_bins)
        self.tool(self.find_bin)

    async def list_bins(self, limit: int = 20) -> dict:
        try:
            async with httpx.AsyncClient() as client:
                response = await client.get("https://depot.example/bins", params={"limit": limit})
                response.raise_for_status()
                return {"ok": True, "bins": response.json()}
        except Exception as e:
            return {"ok": False, "error": f"Could not list bins: {e}"}

    async def find_bin(self, label: str) -> dict:
        try:
            listed = await self.list_bins(limit=100)
            if not listed["ok"]:
                return {"ok": False, "error": f"Could not search bins: {listed['error']}"}
            for found in listed["bins"]:
                if found["label"] == label:
                    return {"ok": True, "bin": found}
            return {"ok": False, "error": f"No bin labelled {label!r}; call list_bins for the labels"}
        except Exception as e:
            return {"ok": False, "error": f"Could not find bin: {e}"}
"""
_DEPOT_FIXED = """\
import logging

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)


class DepotServer(FastMCP):
    def __init__(self) -> None:
        super().__init__("depot")
        self.tool(self.list_bins)
        self.tool(self.find_bin)

    async def list_bins(self, limit: int = 20) -> dict:
        try:
            async with httpx.AsyncClient() as client:
                response = await client.get("https://depot.example/bins", params={"limit": limit})
                response.raise_for_status()
                return {"ok": True, "bins": response.json()}
        except Exception as e:
            return {"ok": False, "error": f"Could not list bins: {e}"}

    async def find_bin(self, label: str) -> dict:
        try:
            listed = await self.list_bins(limit=100)
            if not listed["ok"]:
                raise ToolError(f"Could not search bins: {listed['error']}")
            for found in listed["bins"]:
                if found["label"] == label:
                    return {"ok": True, "bin": found}
            raise ToolError(f"No bin labelled {label!r}; call list_bins for the labels")
        except ToolError:
            raise
        except Exception as e:
            logger.exception("Could not find bin")
            raise ToolError("Could not find bin") from e
"""
_DEMO = """\
import asyncio

from depot.server import DepotServer


async def main() -> None:
    depot = DepotServer()
    listed = await depot.list_bins(limit=5)
    if not listed["ok"]:
        print("listing failed:", listed["error"])
        return
    print(listed["bins"])


if __name__ == "__main__":
    asyncio.run(main())
"""


@pytest.fixture
def depot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_all(tmp_path, {"pyproject.toml": '[project]\nname = "depot"\ndependencies = ["fastmcp>=2.10"]\n', "depot/__init__.py": ""})
    return tmp_path


def test_a_tool_method_another_method_and_a_script_branch_on_keeps_returning(depot: Path) -> None:
    write_all(depot, {"depot/server.py": _DEPOT, "demo.py": _DEMO})
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "depot/server.py:18:13: MCP005 Tool 'list_bins' returns a failure dict as a normal result" in listed.output
    fix_twice(depot)
    assert (depot / "depot/server.py").read_text() == _DEPOT_FIXED
    assert (depot / "demo.py").read_text() == _DEMO


def test_a_tool_method_only_its_own_method_tests_keeps_returning(depot: Path) -> None:
    # No script: `find_bin`'s `if not listed["ok"]` re-words the failure, and alone refuses the raise.
    write_all(depot, {"depot/server.py": _DEPOT})
    fix_twice(depot)
    assert (depot / "depot/server.py").read_text() == _DEPOT_FIXED


# The server masks unexpected exception text once fixed (MCP007); then `base_url`'s ValueError
# would be flagged (MCP008: its advice is masked) and a fix would raise ToolError in its place.
# But a decorator's wrapper answers ValueError on every call of the impl with a result of its
# own: ToolError would meet another clause (`except Exception`). No pass may convert it.
_METERS = """\
import os
from functools import wraps

import httpx
from fastmcp import FastMCP

mcp = FastMCP("meters")


def reported(func):
    @wraps(func)
    async def wrapper(*args, **kwargs):
        try:
            return await func(*args, **kwargs)
        except ValueError as e:
            return {"success": False, "error": str(e), "kind": "configuration"}
        except Exception:
            return {"success": False, "error": "Unexpected error", "kind": "internal"}

    return wrapper


def base_url() -> str:
    url = os.environ.get("METERS_URL")
    if not url:
        raise ValueError("METERS_URL is not set; add it to the server's environment")
    return url


@reported
async def read_meter_impl(meter_id: str) -> dict:
    response = httpx.get(f"{base_url()}/meters/{meter_id}")
    return {"success": True, "reading": response.json()}


@mcp.tool
async def read_meter(meter_id: str) -> dict:
    return await read_meter_impl(meter_id)


@mcp.tool
def fetch_tariff(region: str) -> str:
    return httpx.get(f"https://tariffs.example/{region}").text
"""


@pytest.fixture
def meters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_all(tmp_path, {"pyproject.toml": '[project]\nname = "meters"\ndependencies = ["fastmcp>=2.5,<3"]\n'})
    return tmp_path


def test_a_builtin_class_a_decorators_wrapper_catches_is_never_replaced(meters: Path) -> None:
    write_all(meters, {"server.py": _METERS})
    first = fix_twice(meters)
    # The wrapper runs on every call of the impl the tool returns whole: its failure dicts are
    # converted (MCP005), as they are when the decorator is on the tool itself; base_url's
    # ValueError, which the wrapper answers, is not.
    fixed = (
        _METERS.replace('FastMCP("meters")', 'FastMCP("meters", mask_error_details=True)')
        .replace("from fastmcp import FastMCP\n", "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n")
        .replace('return {"success": False, "error": str(e), "kind": "configuration"}', "raise ToolError(str(e)) from e")
        .replace('return {"success": False, "error": "Unexpected error", "kind": "internal"}', 'raise ToolError("Unexpected error") from None')
    )
    assert (meters / "server.py").read_text() == fixed
    assert "server.py:27:9: MCP008 Helper 'base_url' raises ValueError" in first.output, first.output  # one import above it now
    assert 'raise ValueError("METERS_URL is not set' in fixed


# The same helper without the wrapper, the tool calling it directly; the module's command line
# entry point calls it too and answers a missing setting with its own `except` clause: ValueError
# (or a tuple naming it) means the class must stay; LookupError (a sibling) does not, nor does
# `except Exception`, which answers ToolError alike.
_METERS_DIRECT = """\
import os
import sys

import httpx
from fastmcp import FastMCP

mcp = FastMCP("meters")


def base_url() -> str:
    url = os.environ.get("METERS_URL")
    if not url:
        raise {raised}("METERS_URL is not set; add it to the server's environment")
    return url


@mcp.tool
async def read_meter(meter_id: str) -> dict:
    response = httpx.get(f"{base_url()}/meters/{meter_id}")
    return {"reading": response.json()}


def main() -> int:
    try:
        print("serving", base_url())
    except {caught} as exc:
        print("not configured:", exc, file=sys.stderr)
        return 1
    mcp.run()
    return 0
"""


@pytest.mark.parametrize(
    ("raised", "caught", "converted"),
    [
        ("ValueError", "ValueError", False),
        ("ValueError", "(KeyError, ValueError)", False),
        ("FileNotFoundError", "OSError", False),  # a builtin base of the class
        ("ValueError", "LookupError", True),
        # `except Exception` answers ToolError the same way: the entry point behaves as before.
        ("ValueError", "Exception", True),
    ],
)
def test_a_builtin_class_a_non_tool_callers_except_answers_is_never_replaced(meters: Path, raised: str, caught: str, converted: bool) -> None:
    original = _METERS_DIRECT.replace("{caught}", caught).replace("{raised}", raised)
    write_all(meters, {"server.py": original})
    fix_twice(meters)
    expected = original.replace('FastMCP("meters")', 'FastMCP("meters", mask_error_details=True)')
    if converted:
        # Nobody answers ValueError: once masked, the advice must reach the model as a ToolError
        # (a fix the masking made necessary, applied in the same run).
        expected = expected.replace(f"raise {raised}(", "raise ToolError(").replace(
            "from fastmcp import FastMCP\n", "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n"
        )
    assert (meters / "server.py").read_text() == expected
