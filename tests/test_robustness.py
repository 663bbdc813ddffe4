"""Odd-but-valid input: except*, old Mac line endings, encodings on stdin, masking spelled in a
comment, and a reader that leaves the pipe early."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from mcp_lint.cli import cli
from mcp_lint.pipeline import lint_source

SERVER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool()
def negate(x: int) -> str:
    if x < 0:
        return "Error: negative"  # noqa: MCP005
    return str(-x)
"""


def test_except_star_blocks_are_read_like_except_blocks() -> None:
    source = """\
from mcp.server.fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

mcp = FastMCP("demo")


@mcp.tool()
async def run(job: str) -> str:
    try:
        await start(job)
    except* TimeoutError:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message="job timed out"))
    else:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message="job failed"))
"""
    assert [(f.code, f.location.row) for f in lint_source(source)] == [("MCP001", 13), ("MCP001", 15)]


def test_noqa_works_in_a_file_with_old_mac_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "server.py"
    path.write_bytes(SERVER.replace("\n", "\r").encode())
    result = CliRunner().invoke(cli, ["check", str(path), "--extend-select", "MCP100", "--no-cache", "-q"])
    assert result.exit_code == 0, result.output


def test_stdin_honours_the_coding_declaration() -> None:
    data = ("# -*- coding: latin-1 -*-\n" + SERVER.replace("negative", "négatif")).encode("latin-1")
    result = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "check", "-", "--stdin-filename", "server.py", "--output-format", "concise"],
        input=data,
        capture_output=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.decode() == "All checks passed!\n"


def test_stdin_diff_prints_the_fix_and_exits_1() -> None:
    data = SERVER.replace("  # noqa: MCP005", "").encode()
    result = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "check", "-", "--stdin-filename", "server.py", "--diff", "--unsafe-fixes"],
        input=data,
        capture_output=True,
    )
    assert result.returncode == 1
    assert '+        raise ToolError("Negative")' in result.stdout.decode()


def test_masking_mentioned_in_a_comment_does_not_mask() -> None:
    source = """\
from fastmcp import FastMCP

mcp = FastMCP("demo")  # we should set mask_error_details=True some day


@mcp.tool
def t(x: int) -> str:
    raise ValueError("failed")
"""
    codes = [(f.code, f.location.row) for f in lint_source(source, target="fastmcp>=2.5,<3")]
    assert codes == [("MCP003", 8)]
    masked = source.replace('FastMCP("demo")', 'FastMCP("demo", mask_error_details=True)')
    assert lint_source(masked, target="fastmcp>=2.5,<3") == []


def test_a_reader_that_leaves_early_is_not_an_internal_error(tmp_path: Path) -> None:
    body = "".join(f'\n@mcp.tool()\ndef t{i}(x: int) -> str:\n    if x:\n        return "Error: no"\n    return "ok"\n' for i in range(300))
    path = tmp_path / "server.py"
    path.write_text('from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("d")\n' + body)
    result = subprocess.run(
        f"{sys.executable} -m mcp_lint check --no-cache {path} | head -1", shell=True, capture_output=True, text=True
    )
    assert "internal error" not in result.stderr
    assert result.stdout.count("\n") == 1


def test_a_broken_config_stops_only_its_own_files(tmp_path: Path) -> None:
    bad, good = tmp_path / "bad", tmp_path / "good"
    for directory in (bad, good):
        directory.mkdir()
        (directory / "server.py").write_text(SERVER.replace("  # noqa: MCP005", ""), encoding="utf-8")
    (bad / "pyproject.toml").write_text("[tool.mcp-lint]\nselekt = 1\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", str(tmp_path), "--output-format", "concise", "-q", "--no-cache"])
    assert result.exit_code == 2
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [str(good / "server.py")]
    assert result.stderr.strip() == (
        f"mcp-lint: error: {bad / 'pyproject.toml'}: [tool.mcp-lint] unknown key 'selekt' "
        "(expected one of: cache-dir, exclude, extend, extend-select, fix, fixable, ignore, per-file-ignores, require-tools, select, target, unfixable)"
    )


def test_an_expression_too_deep_for_the_parser_is_reported_not_a_crash(tmp_path: Path) -> None:
    # libcst's native parser overflows its stack (the process dies) near 8,000 levels; CPython's
    # parser refuses first, so the file is reported and the run goes on.
    deep = tmp_path / "generated.py"
    deep.write_text("X = " + " + ".join(['"a"'] * 8000) + "\n", encoding="utf-8")
    wide = tmp_path / "server.py"
    wide.write_text(SERVER.replace('"Error: negative"  # noqa: MCP005', " + ".join(['"a"'] * 3000)), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "check", str(deep), str(wide), "--no-cache", "--output-format", "concise", "-q"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1, result.stderr
    assert result.stdout == f"{deep}:1:1: MCP000 an expression is nested too deeply to analyse\n"


def test_a_status_compared_with_a_hex_or_underscored_literal_is_read_not_crashed_on() -> None:
    # `int("0x1F01FF")` raised inside the status reading and failed the whole package.
    source = (
        "import httpx\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('mail')\n\n\n"
        "@mcp.tool()\ndef send(to: str) -> str:\n"
        "    response = httpx.post('https://mail.example/send', json={'to': to})\n"
        "    if response.status_code != 0x1F01FF and response.status_code != 2_00:\n"
        "        return f'Error: {response.text}'\n"
        "    return 'sent'\n"
    )
    codes = sorted({finding.code for finding in lint_source(source)})
    assert "MCP000" not in codes and "MCP005" in codes, codes
