"""MCP002 on the output of a process whose exit status says it failed (LABELING-decisions D4):
`result.stderr` under `result.returncode != 0`, the pair `communicate()` hands back under `if
proc.returncode:`, or after the function left on the status's success, put into what the model
reads, is foreign text like a failed response's body. Silent: the output under a success test,
stdout returned on success, the exit code alone, the output only logged."""

from __future__ import annotations

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source

from ._support import check, said, unmasked

HEADER = unmasked("""\
import asyncio
import logging
import subprocess

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("jobs")


class JobError(Exception):
    pass


""")


def _messages(source: str) -> list[str]:
    return [said(f).splitlines()[0] for f in check(HEADER + source) if f.code == "MCP002"]


def test_stderr_of_a_failed_run_raised() -> None:
    assert _messages("""\
@mcp.tool()
def backup(path: str) -> str:
    \"\"\"Back up a store.\"\"\"
    result = subprocess.run(["dumper", path], capture_output=True, text=True)
    if result.returncode != 0:
        raise ToolError(f"Backup failed: {result.stderr}")  # expect: MCP002
    return f"Saved to {path}"
""") == ["Tool 'backup' puts the output of a failed process (result.stderr) into ToolError"]


def test_communicated_output_decoded_into_a_local_then_raised_in_own_class() -> None:
    # Metamorphic: asyncio's process, the output read through `communicate()` inside
    # `wait_for`, decoded into a local before the test, raised in the project's own class.
    assert _messages("""\
@mcp.tool()
async def run_job(name: str) -> str:
    \"\"\"Run a job.\"\"\"
    proc = await asyncio.create_subprocess_exec("runner", name, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    err_text = err.decode("utf-8", errors="replace").strip()
    if proc.returncode:
        raise JobError(err_text or "job failed")  # expect: MCP002
    return out.decode()
""") == ["Tool 'run_job' raises JobError with the output of a failed process (err)"]


def test_stdout_returned_after_leaving_on_success_and_a_status_local() -> None:
    check(HEADER + """\
@mcp.tool()
def list_jobs() -> str:
    \"\"\"List jobs.\"\"\"
    result = subprocess.run(["runner", "--list"], capture_output=True, text=True, check=False)
    if result.returncode == 0:
        return result.stdout
    raise ToolError(f"Listing failed: {result.stdout[-300:]}")  # expect: MCP002


@mcp.tool()
def stop_job(name: str) -> str:
    \"\"\"Stop a job.\"\"\"
    done = subprocess.run(["runner", "stop", name], capture_output=True, text=True)
    code = done.returncode
    if code > 0:
        raise ToolError(done.stderr.strip())  # expect: MCP002
    return "stopped"
""")


def test_output_on_success_exit_code_alone_and_logged_output_are_silent() -> None:
    check(HEADER + """\
@mcp.tool()
def run_quietly(name: str) -> str:
    \"\"\"Run a job and report.\"\"\"
    result = subprocess.run(["runner", name], capture_output=True, text=True)
    if result.returncode == 0:
        return f"Done: {result.stdout}"
    if not result.returncode:
        return result.stderr
    logger.error("runner failed: %s", result.stderr)
    raise ToolError(f"Job {name} failed with exit code {result.returncode}")


@mcp.tool()
async def run_async(name: str) -> str:
    \"\"\"Run a job.\"\"\"
    proc = await asyncio.create_subprocess_exec("runner", name, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    if proc.returncode == 0:
        return out.decode() + err.decode()
    raise ToolError(f"Job {name} failed with exit code {proc.returncode}")
""")


def test_fix_of_the_returned_failure_drops_the_output_keeps_label_and_status() -> None:
    source = HEADER + """\
@mcp.tool()
def restore(path: str) -> str:
    \"\"\"Restore a store.\"\"\"
    result = subprocess.run(["loader", path], capture_output=True, text=True)
    if result.returncode == 0:
        return f"Restored {path}"
    return f"Restore failed (exit {result.returncode}): {result.stderr}"
"""
    found = sorted((f.code, f.location.row) for f in lint_source(source, filename="server.py"))
    assert ("MCP002", 22) in found and ("MCP005", 22) in found
    outcome = fix_source(source, lambda text: lint_source(text), unsafe=True)
    assert outcome.error is None
    assert outcome.fixed.endswith('    raise ToolError(f"Restore failed (exit {result.returncode})")\n')
    assert not [f for f in lint_source(outcome.fixed, filename="server.py") if f.code in {"MCP002", "MCP005"}]
