"""The `mcp-lint` command ends without the interpreter's teardown: nothing it prints may be lost
and every exit status must be the one `sys.exit` would give."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_lint.cli import _exit_status

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "notes_server"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mcp_lint", *args], capture_output=True, text=True, cwd=cwd, check=False)


def test_every_byte_of_a_large_report_reaches_the_pipe(tmp_path: Path) -> None:
    # Many findings in one JSON document: a lost buffer would leave it unparsable.
    tool = '\n\n@mcp.tool()\ndef t{}(path: str) -> str:\n    try:\n        return open(path).read()\n    except OSError as e:\n        raise ValueError(f"cannot read: {{e}}")\n'
    body = "".join(tool.format(i) for i in range(400))
    (tmp_path / "server.py").write_text('from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("m")' + body, encoding="utf-8")
    done = run("check", "--isolated", "--no-cache", "--output-format", "json", "server.py", cwd=tmp_path)
    assert done.returncode == 1
    findings = json.loads(done.stdout)
    assert len(findings) == 400 and {f["code"] for f in findings} == {"MCP002"}


@pytest.mark.parametrize(
    ("args", "status", "stream", "text"),
    [
        (["--version"], 0, "stdout", "mcp-lint "),
        (["check", "--isolated", "--no-cache", str(EXAMPLE)], 1, "stdout", "MCP001"),
        (["check", "--no-such-option"], 2, "stderr", "No such option"),
        (["rule", "MCP999"], 2, "stderr", "MCP999"),
    ],
)
def test_exit_statuses_and_messages(args: list[str], status: int, stream: str, text: str) -> None:
    done = run(*args)
    assert done.returncode == status
    assert text in getattr(done, stream)


def test_exit_status_follows_sys_exit(capsys: pytest.CaptureFixture[str]) -> None:
    assert (_exit_status(None), _exit_status(0), _exit_status(2), _exit_status(256 + 1)) == (0, 0, 2, 1)
    assert _exit_status("mcp-lint: stopped") == 1
    assert capsys.readouterr().err == "mcp-lint: stopped\n"
