"""Rules are independent: each reports its own defect on a statement that carries several.

`except Exception as e: return f"Error: {e}"` is two defects: raw library text (MCP002, the
content) and a failure returned as a success (MCP005, the channel). `raise McpError(...)` with
the caught exception's text is MCP001 (the channel) and MCP002 (the content). Selecting or
ignoring one rule never hides another, and fixing both converges to sensible code.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import libcst
import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

SERVER = textwrap.dedent(
    """\
    import httpx
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("weather")


    @mcp.tool()
    def get_forecast(city: str) -> str:
        try:
            return httpx.get(f"https://api.example.com/forecast/{city}").text
        except Exception as e:
            return f"Error: {e}"
    """
)
# The return on row 12 carries both defects.
BOTH = {("MCP002", 12), ("MCP005", 12)}


def _check(path: Path, *args: str) -> set[tuple[str, int]]:
    result = CliRunner().invoke(
        cli,
        ["check", "--isolated", "--no-cache", "--jobs", "1", "--output-format", "json", "--exit-zero", *args, str(path)],
        catch_exceptions=False,
    )
    return {(f["code"], f["location"]["row"]) for f in json.loads(result.output)}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param((), BOTH, id="default"),
        pytest.param(("--select", "MCP002"), {("MCP002", 12)}, id="select-002"),
        pytest.param(("--select", "MCP005"), {("MCP005", 12)}, id="select-005"),
        pytest.param(("--select", "MCP002,MCP005"), BOTH, id="select-both"),
        pytest.param(("--ignore", "MCP002"), {("MCP005", 12)}, id="ignore-002"),
        pytest.param(("--ignore", "MCP005"), {("MCP002", 12)}, id="ignore-005"),
    ],
)
def test_selecting_or_ignoring_one_rule_never_hides_another(tmp_path: Path, args: tuple[str, ...], expected: set) -> None:
    path = tmp_path / "server.py"
    path.write_text(SERVER)
    assert _check(path, *args) == expected


def _fix(path: Path, *args: str) -> str:
    CliRunner().invoke(
        cli,
        ["check", "--isolated", "--no-cache", "--jobs", "1", "--fix", "--unsafe-fixes", "--exit-zero", *args, str(path)],
        catch_exceptions=False,
    )
    return path.read_text()


def test_fixing_both_defects_logs_and_raises_a_curated_tool_error(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(SERVER)
    fixed = _fix(path)
    libcst.parse_module(fixed)
    body = fixed.split("except Exception as e:", 1)[1]
    assert "logger.exception(" in body
    assert "raise ToolError(" in body and body.rstrip().endswith("from e")
    assert "{e}" not in body and "return" not in body
    assert _check(path) == set()
    assert _fix(path) == fixed  # a second run changes nothing


def test_the_channel_finding_leaves_raw_text_to_the_content_fix(tmp_path: Path) -> None:
    # Raising the raw text as it is would hand library text to the model: MCP005 offers no fix
    # on such a return, MCP002's fix (log, curated message) settles both findings.
    path = tmp_path / "server.py"
    path.write_text(SERVER)
    assert _fix(path, "--select", "MCP005") == SERVER
    assert _check(path, "--select", "MCP005") == {("MCP005", 12)}
    fixed = _fix(path, "--select", "MCP002")
    assert "{e}" not in fixed.split("except Exception as e:", 1)[1]
    assert _check(path) == set()


MCP_ERROR_SERVER = textwrap.dedent(
    """\
    import httpx
    from mcp.server.fastmcp import FastMCP
    from mcp.shared.exceptions import McpError
    from mcp.types import INTERNAL_ERROR, ErrorData

    mcp = FastMCP("weather")


    @mcp.tool()
    def get_forecast(city: str) -> str:
        try:
            return httpx.get(f"https://api.example.com/forecast/{city}").text
        except httpx.HTTPError as e:
            raise McpError(ErrorData(code=INTERNAL_ERROR, message=f"Forecast failed: {e}"))
    """
)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        pytest.param((), {("MCP001", 14), ("MCP002", 14)}, id="default"),
        pytest.param(("--select", "MCP001"), {("MCP001", 14)}, id="select-001"),
        pytest.param(("--select", "MCP002"), {("MCP002", 14)}, id="select-002"),
        pytest.param(("--ignore", "MCP001"), {("MCP002", 14)}, id="ignore-001"),
    ],
)
def test_exception_text_in_a_protocol_error_is_reported_apart_from_the_channel(
    tmp_path: Path, args: tuple[str, ...], expected: set
) -> None:
    path = tmp_path / "server.py"
    path.write_text(MCP_ERROR_SERVER)
    assert _check(path, *args) == expected


def test_fixing_a_protocol_error_with_exception_text_converges(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_text(MCP_ERROR_SERVER)
    fixed = _fix(path)
    libcst.parse_module(fixed)
    assert "McpError(" not in fixed.split("def get_forecast", 1)[1]
    assert "{e}" not in fixed
    assert _check(path) == set()
    assert _fix(path) == fixed


VALIDATOR_SERVER = textwrap.dedent(
    """\
    import logging

    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("shop")
    logger = logging.getLogger(__name__)


    class ValidationError(Exception):
        pass


    def validate_code(code: str) -> str:
        if not code.isalnum():
            raise ValidationError("Invalid code: use letters and digits only")
        return code


    @mcp.tool()
    def get_coupon(code: str) -> str:
        try:
            code = validate_code(code)
            return fetch_coupon(code)
        except Exception as e:
            return f"Error: {e}"
    """
)


def _mcp002(path: Path, *args: str) -> list[tuple[int, str, str | None]]:
    result = CliRunner().invoke(
        cli,
        ["check", "--isolated", "--no-cache", "--jobs", "1", "--output-format", "json", "--unsafe-fixes", "--exit-zero", *args, str(path)],
        catch_exceptions=False,
    )
    found = [f for f in json.loads(result.output) if f["code"] == "MCP002"]
    return [(f["location"]["row"], f["message"], json.dumps(f["fix"], sort_keys=True) if f["fix"] else None) for f in found]


@pytest.mark.parametrize("args", [pytest.param(("--select", "MCP002"), id="select-002"), pytest.param(("--ignore", "MCP004"), id="ignore-004")])
def test_mcp002_withholds_its_fix_at_a_validator_whichever_rules_are_selected(tmp_path: Path, args: tuple[str, ...]) -> None:
    # The `try` calls the project's validator, whose raise is the author's sentence about the
    # model's argument: MCP002 offers no fix that would replace it. Whether a helper validates is
    # the engine's fact, not MCP004's, so MCP002 alone finds and fixes exactly as the default.
    path = tmp_path / "server.py"
    path.write_text(VALIDATOR_SERVER)
    default = _mcp002(path)
    assert [(row, fix) for row, _message, fix in default] == [(25, None)]
    assert _mcp002(path, *args) == default
    assert _fix(path, *args) == VALIDATOR_SERVER
