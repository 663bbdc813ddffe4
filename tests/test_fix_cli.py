"""`mcp-lint check --fix` and friends as a user runs them: what is written, printed and returned.

Covers issue #3's command line: --fix applies safe fixes only, --unsafe-fixes the unsafe ones too,
--diff and a JSON report on stdout write nothing, --show-fixes, --exit-non-zero-on-fix, the summary
lines, and that no failure (fix loop, syntax error, interrupted write) ever damages a file.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli
from mcp_lint.findings import Applicability, Edit
from mcp_lint.rules.base import FixSpec
from mcp_lint.rules.mcp005_error_returned_as_success import ErrorReturnedAsSuccess

# One unsafe fix (MCP005), one display-only suggestion (MCP003) and, with MCP100 selected, one
# safe fix (the unused suppression on line 9).
SERVER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        return f"Error: note {note_id} not found"  # noqa: MCP001
    del NOTES[note_id]
    return "deleted"


@mcp.tool()
def archive(days: int) -> str:
    if days > 3650:
        raise ValueError("The operation failed. Please try again.")
    return "archived"
"""
# SERVER after --fix --unsafe-fixes.
SERVER_FIXED = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("notes")


@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        raise ToolError(f"Note {note_id} not found")  # noqa: MCP001
    del NOTES[note_id]
    return "deleted"


@mcp.tool()
def archive(days: int) -> str:
    if days > 3650:
        raise ValueError("The operation failed. Please try again.")
    return "archived"
"""
MCP005_LINE = "server.py:9:9: MCP005 Tool 'delete_note' returns a failure string as a normal result\n"
MCP003_MESSAGE = "MCP003 Tool 'archive' fails with 'The operation failed. Please try again.', which names no operation or cause\n"
MCP100_LINE = "server.py:9:52: MCP100 [*] Unused `noqa` directive for MCP001\n"

# Only unsafe fixes; all of them apply, nothing remains.
CLEAN_AFTER_FIX = """\
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("tickets")


@mcp.tool()
def close_ticket(ticket_id: int) -> dict:
    if ticket_id not in TICKETS:
        return {"error": f"Ticket {ticket_id} does not exist"}
    TICKETS.pop(ticket_id)
    return {"closed": ticket_id}
"""
CLEAN_AFTER_FIX_FIXED = """\
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("tickets")


@mcp.tool()
def close_ticket(ticket_id: int) -> dict:
    if ticket_id not in TICKETS:
        raise ToolError(f"Ticket {ticket_id} does not exist")
    TICKETS.pop(ticket_id)
    return {"closed": ticket_id}
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory that is also the working directory (display names are relative)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str) -> Result:
    # One job: the analysis runs in this process, so monkeypatched rules apply.
    return CliRunner().invoke(cli, ["check", "--isolated", "--no-cache", "--jobs", "1", *args], catch_exceptions=False)


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


# --- which fixes apply ---------------------------------------------------------------------------


def test_fix_applies_only_safe_fixes(project: Path) -> None:
    server = write(project / "server.py", SERVER)
    result = check("--extend-select", "MCP100", "--output-format", "concise", "--fix")
    assert read(server) == SERVER.replace("  # noqa: MCP001", "")
    assert result.stdout == (
        MCP005_LINE
        + "server.py:17:26: "
        + MCP003_MESSAGE
        + "Found 3 errors (1 fixed, 2 remaining).\n"
        + "1 more fix available with `--fix --unsafe-fixes`.\n"
    )
    assert (result.exit_code, result.stderr) == (1, "")


def test_unsafe_fixes_apply_with_fix_and_unsafe_fixes(project: Path) -> None:
    server = write(project / "server.py", SERVER)
    result = check("--output-format", "concise", "--fix", "--unsafe-fixes")
    assert read(server) == SERVER_FIXED
    # The display-only MCP003 suggestion is never applied; it remains, one row further down.
    assert result.stdout == "server.py:18:26: " + MCP003_MESSAGE + "Found 2 errors (1 fixed, 1 remaining).\n"
    assert (result.exit_code, result.stderr) == (1, "")
    # A second run has nothing left to fix.
    again = check("--output-format", "concise", "--fix", "--unsafe-fixes")
    assert read(server) == SERVER_FIXED
    assert again.stdout == "server.py:18:26: " + MCP003_MESSAGE + "Found 1 error.\n"


def test_without_fix_the_summary_counts_the_available_fixes(project: Path) -> None:
    write(project / "server.py", SERVER)
    result = check("--extend-select", "MCP100", "--output-format", "concise")
    assert result.stdout == (
        MCP005_LINE
        + MCP100_LINE
        + "server.py:17:26: "
        + MCP003_MESSAGE
        + "Found 3 errors.\n"
        + "[*] 1 fixable with the `--fix` option.\n"
        + "1 more fix available with `--fix --unsafe-fixes`.\n"
    )
    assert read(project / "server.py") == SERVER


def test_unsafe_fixes_without_fix_counts_unsafe_fixes_as_fixable(project: Path) -> None:
    write(project / "server.py", SERVER)
    result = check("--output-format", "concise", "--unsafe-fixes")
    assert result.stdout.endswith("Found 2 errors.\n[*] 1 fixable with the `--fix` option.\n")
    assert read(project / "server.py") == SERVER


# --- --diff --------------------------------------------------------------------------------------


def test_diff_prints_the_fixes_writes_nothing_and_exits_1(project: Path) -> None:
    server = write(project / "server.py", SERVER)
    result = check("--diff", "--unsafe-fixes")
    assert read(server) == SERVER
    assert result.stdout == (
        "--- a/server.py\n"
        "+++ b/server.py\n"
        "@@ -1,4 +1,5 @@\n"
        " from mcp.server.fastmcp import FastMCP\n"
        "+from mcp.server.fastmcp.exceptions import ToolError\n"
        " \n"
        ' mcp = FastMCP("notes")\n'
        " \n"
        "@@ -6,7 +7,7 @@\n"
        " @mcp.tool()\n"
        " def delete_note(note_id: str) -> str:\n"
        "     if note_id not in NOTES:\n"
        '-        return f"Error: note {note_id} not found"  # noqa: MCP001\n'
        '+        raise ToolError(f"Note {note_id} not found")  # noqa: MCP001\n'
        "     del NOTES[note_id]\n"
        '     return "deleted"\n'
        " \n"
        "Would fix 1 error.\n"
    )
    assert (result.exit_code, result.stderr) == (1, "")


def test_diff_without_applicable_fixes_exits_0(project: Path) -> None:
    server = write(project / "server.py", SERVER)
    result = check("--diff")  # the only fix is unsafe
    assert (result.exit_code, result.stdout, result.stderr) == (0, "No fixes available.\n", "")
    assert read(server) == SERVER


# --- JSON report on stdout -----------------------------------------------------------------------


def test_fix_with_json_on_stdout_writes_nothing_and_reports_the_fixes(project: Path) -> None:
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    result = check("--output-format", "json", "--fix", "--unsafe-fixes")
    assert read(server) == CLEAN_AFTER_FIX
    report = json.loads(result.stdout)
    assert [(item["code"], item["location"]["row"]) for item in report] == [("MCP005", 9)]
    assert report[0]["fix"] == {
        "applicability": "unsafe",
        "edits": [
            {
                "content": "\nfrom mcp.server.mcpserver.exceptions import ToolError",
                "end_location": {"column": 43, "row": 1},
                "location": {"column": 43, "row": 1},
            },
            {
                "content": 'raise ToolError(f"Ticket {ticket_id} does not exist")',
                "end_location": {"column": 63, "row": 9},
                "location": {"column": 9, "row": 9},
            },
        ],
        "message": 'Raise ToolError(f"Ticket {ticket_id} does not exist") instead',
    }
    assert result.stderr == (
        "mcp-lint: warning: --fix wrote nothing because the JSON report goes to stdout; it lists the fixes for 1 file "
        "(use --output-file to write the fixes and the report)\n"
    )
    assert result.exit_code == 1


def test_fix_with_json_written_to_a_file_applies_the_fixes(project: Path) -> None:
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    result = check("--output-format", "json", "--output-file", "report.json", "--fix", "--unsafe-fixes")
    assert read(server) == CLEAN_AFTER_FIX_FIXED
    assert json.loads(read(project / "report.json")) == []
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


# --- summary, --show-fixes, exit codes -----------------------------------------------------------


def test_show_fixes_lists_each_applied_fix(project: Path) -> None:
    write(project / "server.py", SERVER)
    result = check("--output-format", "concise", "--fix", "--unsafe-fixes", "--show-fixes")
    assert result.stdout == (
        "server.py:18:26: "
        + MCP003_MESSAGE
        + "\nFixed:\n"
        + '  server.py:9: MCP005 Raise ToolError(f"Note {note_id} not found") instead\n'
        + "Found 2 errors (1 fixed, 1 remaining).\n"
    )


def test_everything_fixed_exits_0(project: Path) -> None:
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    result = check("--fix", "--unsafe-fixes")
    assert read(server) == CLEAN_AFTER_FIX_FIXED
    assert (result.exit_code, result.stdout, result.stderr) == (0, "Found 1 error (1 fixed, 0 remaining).\n", "")


def test_exit_non_zero_on_fix_exits_1_when_something_was_fixed(project: Path) -> None:
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    result = check("--fix", "--unsafe-fixes", "--exit-non-zero-on-fix")
    assert read(server) == CLEAN_AFTER_FIX_FIXED
    assert (result.exit_code, result.stdout) == (1, "Found 1 error (1 fixed, 0 remaining).\n")
    # Nothing left to fix: the flag does not fail a clean run.
    again = check("--fix", "--unsafe-fixes", "--exit-non-zero-on-fix")
    assert (again.exit_code, again.stdout) == (0, "All checks passed!\n")


def test_exit_zero_overrides_remaining_findings(project: Path) -> None:
    write(project / "server.py", SERVER)
    assert check("--fix", "--unsafe-fixes", "--exit-zero", "-q").exit_code == 0


def test_fix_reaches_a_helper_in_another_module_with_the_tools_framework(project: Path) -> None:
    # The helper module imports nothing from MCP: the ToolError to import comes from the tool that
    # reaches it (mcp 1.x FastMCP), found by the project-wide step.
    (project / "pkg").mkdir()
    write(project / "pkg" / "__init__.py", "")
    write(
        project / "pkg" / "server.py",
        "from mcp.server.fastmcp import FastMCP\n\nfrom pkg.store import load_note\n\nmcp = FastMCP(\"notes\")\n\n\n"
        "@mcp.tool()\ndef read_note(note_id: str) -> str:\n    return load_note(note_id)\n",
    )
    store = write(
        project / "pkg" / "store.py",
        '"""Storage."""\n\nNOTES: dict[str, str] = {}\n\n\ndef load_note(note_id: str) -> str:\n'
        "    if note_id not in NOTES:\n        return f\"Error: no note {note_id}\"\n    return NOTES[note_id]\n",
    )
    result = check("--fix", "--unsafe-fixes")
    assert read(store) == (
        # isort's layout: the docstring, a blank line, the import, a blank line, the code.
        '"""Storage."""\n\nfrom mcp.server.fastmcp.exceptions import ToolError\n\nNOTES: dict[str, str] = {}\n\n\n'
        "def load_note(note_id: str) -> str:\n    if note_id not in NOTES:\n"
        '        raise ToolError(f"No note {note_id}")\n    return NOTES[note_id]\n'
    )
    assert (result.exit_code, result.stdout) == (0, "Found 1 error (1 fixed, 0 remaining).\n")


# --- files are written faithfully ----------------------------------------------------------------


def test_fix_keeps_crlf_line_endings(project: Path) -> None:
    server = project / "server.py"
    server.write_bytes(CLEAN_AFTER_FIX.replace("\n", "\r\n").encode("utf-8"))
    assert check("--fix", "--unsafe-fixes").exit_code == 0
    assert server.read_bytes() == CLEAN_AFTER_FIX_FIXED.replace("\n", "\r\n").encode("utf-8")


def test_fix_keeps_a_pep_263_encoding(project: Path) -> None:
    header = "# -*- coding: latin-1 -*-\n# Café des notes: l'été\n"
    server = project / "server.py"
    server.write_bytes((header + CLEAN_AFTER_FIX).encode("latin-1"))
    assert check("--fix", "--unsafe-fixes").exit_code == 0
    assert server.read_bytes() == (header + CLEAN_AFTER_FIX_FIXED).encode("latin-1")


def test_fix_keeps_the_file_mode(project: Path) -> None:
    server = write(project / "server.py", "#!/usr/bin/env python\n" + CLEAN_AFTER_FIX)
    server.chmod(0o751)
    assert check("--fix", "--unsafe-fixes").exit_code == 0
    assert read(server) == "#!/usr/bin/env python\n" + CLEAN_AFTER_FIX_FIXED
    assert stat.S_IMODE(server.stat().st_mode) == 0o751


def test_a_file_that_does_not_parse_is_never_written(project: Path) -> None:
    broken = project / "broken.py"
    broken_bytes = b'from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("x")\n\n@mcp.tool()\ndef f(:\n    return "Error: x"\n'
    broken.write_bytes(broken_bytes)
    before = broken.stat().st_mtime_ns
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    result = check("--output-format", "concise", "--fix", "--unsafe-fixes")
    assert broken.read_bytes() == broken_bytes and broken.stat().st_mtime_ns == before
    assert read(server) == CLEAN_AFTER_FIX_FIXED  # the other file is still fixed
    assert result.stdout == "broken.py:5:7: MCP000 syntax error: invalid syntax\nFound 2 errors (1 fixed, 1 remaining).\n"
    assert result.exit_code == 1


# --- failures leave the file as it was -----------------------------------------------------------


def _rewrite_mcp005(content: Callable[[str], str]):
    """A replacement for MCP005's fix: the flagged return becomes ``content(message source)``."""

    def fix(self, latent, context):
        start, end = latent.payload.stmt
        edit = Edit(start, end, content(latent.payload.msg))
        return FixSpec(Applicability.UNSAFE, "broken on purpose", (edit,))

    return fix


def test_fix_producing_invalid_code_reverts_the_file_and_exits_2(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ErrorReturnedAsSuccess, "_fix", _rewrite_mcp005(lambda message: "raise ToolError("))
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    result = check("--output-format", "concise", "--fix", "--unsafe-fixes")
    assert read(server) == CLEAN_AFTER_FIX
    assert result.stderr == (
        "mcp-lint: error: server.py: fix produced code that does not parse (pass 1: MCP005); the file was left unchanged\n"
    )
    # The finding is still reported, as it stands in the unchanged file.
    assert result.stdout.startswith("server.py:9:9: MCP005 ")
    assert result.exit_code == 2


def test_fixes_that_never_converge_revert_the_file_and_exit_2(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each pass returns the message with one more "!": still a failure return, a new text every time.
    monkeypatch.setattr(ErrorReturnedAsSuccess, "_fix", _rewrite_mcp005(lambda message: f"return {message[:-1]}!{message[-1]}"))
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    result = check("--fix", "--unsafe-fixes")
    assert read(server) == CLEAN_AFTER_FIX
    assert result.stderr == "mcp-lint: error: server.py: fixes did not converge after 10 passes; the file was left unchanged\n"
    assert result.exit_code == 2


def test_analysis_crash_on_the_fixed_code_reverts_the_file(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import mcp_lint.analysis

    analyze_source = mcp_lint.analysis.analyze_source

    def crash_on_fixed_code(text: str, *args, **kwargs):
        if "raise ToolError" in text:
            raise RuntimeError("boom")
        return analyze_source(text, *args, **kwargs)

    monkeypatch.setattr(mcp_lint.analysis, "analyze_source", crash_on_fixed_code)
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    result = check("--fix", "--unsafe-fixes")
    assert read(server) == CLEAN_AFTER_FIX
    assert result.stderr == (
        "mcp-lint: error: server.py: the fixed code could not be linted again (pass 1: MCP005): "
        "server.py: internal error: RuntimeError: boom; the file was left unchanged\n"
    )
    assert result.exit_code == 2


def test_failed_rename_leaves_the_original_and_no_temporary_file(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def disk_full(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    server = write(project / "server.py", CLEAN_AFTER_FIX)
    monkeypatch.setattr("mcp_lint.fileio.os.replace", disk_full)
    result = check("--fix", "--unsafe-fixes")
    assert read(server) == CLEAN_AFTER_FIX
    assert sorted(p.name for p in project.iterdir()) == ["server.py"]
    assert result.stderr == "mcp-lint: error: server.py: could not write the fixed file: no space left on device\n"
    assert result.exit_code == 2


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_process_killed_between_write_and_rename_leaves_the_original(project: Path) -> None:
    # A real kill, not an exception: the process dies after the temporary file is complete, just
    # before the rename that would replace the original.
    server = write(project / "server.py", CLEAN_AFTER_FIX)
    script = (
        "import os, signal, sys\n"
        "os.replace = lambda src, dst: os.kill(os.getpid(), signal.SIGKILL)\n"
        "from mcp_lint.cli import main\n"
        "sys.argv = ['mcp-lint', 'check', '--isolated', '--no-cache', '--fix', '--unsafe-fixes']\n"
        "main()\n"
    )
    completed = subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True, timeout=120)
    assert completed.returncode == -signal.SIGKILL
    assert read(server) == CLEAN_AFTER_FIX
    # The orphaned temporary file is a hidden sibling that no later run lints or confuses with source.
    leftovers = [p.name for p in project.iterdir() if p.name != "server.py"]
    assert all(name.startswith(".server.py.") and name.endswith(".tmp") for name in leftovers)
    again = check("--fix", "--unsafe-fixes")
    assert (again.exit_code, read(server)) == (0, CLEAN_AFTER_FIX_FIXED)


def test_fix_from_stdin_prints_the_fixed_code() -> None:
    result = CliRunner().invoke(
        cli,
        ["check", "--isolated", "--no-cache", "--fix", "--unsafe-fixes", "--stdin-filename", "server.py", "-"],
        input=CLEAN_AFTER_FIX,
        catch_exceptions=False,
    )
    assert (result.exit_code, result.stdout, result.stderr) == (0, CLEAN_AFTER_FIX_FIXED, "")


def test_entry_point_diff_then_fix(tmp_path: Path) -> None:
    # The installed entry point, end to end: --diff exits 1 and writes nothing, --fix then exits 0.
    server = write(tmp_path / "server.py", CLEAN_AFTER_FIX)
    command = [sys.executable, "-m", "mcp_lint", "check", "--isolated", "--no-cache"]
    env = {**os.environ, "NO_COLOR": "1"}
    diff = subprocess.run([*command, "--diff", "--unsafe-fixes"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert (diff.returncode, read(server)) == (1, CLEAN_AFTER_FIX)
    fix = subprocess.run([*command, "--fix", "--unsafe-fixes"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert (fix.returncode, fix.stdout, read(server)) == (0, "Found 1 error (1 fixed, 0 remaining).\n", CLEAN_AFTER_FIX_FIXED)


# --- fixes across files ------------------------------------------------------------------------

# A helper of one module reports a failure as a result; the tool of another module calls it inside
# `try ... except Exception:`. Alone, a raise in the helper would be caught by that handler (its
# message replaced); the tool's own fix puts `except ToolError: raise` before the handler, so the
# first lint offers the helper's fix with it, and one `--fix` invocation applies both.
_TOP_QUERIES = """\
import logging

logger = logging.getLogger(__name__)


class TopQueries:
    def __init__(self, db) -> None:
        self.db = db

    async def by_time(self, limit: int, sort_by: str) -> str:
        try:
            rows = await self.db.fetch("SELECT query, total_time FROM pg_stat_statements ORDER BY $1 LIMIT $2", sort_by, limit)
            return "\\n".join(f"{row['total_time']:.1f} ms  {row['query']}" for row in rows)
        except Exception as e:
            logger.error("Error getting slow queries: %s", e, exc_info=True)
            return f"Error getting slow queries: {e}"
"""
_STATS_SERVER = """\
import logging

from fastmcp import FastMCP

from .top_queries import TopQueries

logger = logging.getLogger(__name__)
mcp = FastMCP("pgstats")
DB = None


@mcp.tool
async def top_queries(sort_by: str = "total", limit: int = 10) -> str:
    try:
        calc = TopQueries(DB)
        if sort_by not in ("mean", "total"):
            return "Error: sort_by must be 'mean' or 'total'"
        return await calc.by_time(limit=limit, sort_by=sort_by)
    except Exception as e:
        logger.error("Top queries failed: %s", e)
        return "Error: could not rank the queries; check that pg_stat_statements is installed"
"""


def test_one_fix_run_applies_a_helper_fix_that_the_callers_fix_makes_applicable(project: Path) -> None:
    write(project / "pyproject.toml", '[project]\nname = "pgstats"\nversion = "0.1.0"\ndependencies = ["fastmcp>=2.10"]\n')
    (project / "pgstats").mkdir()
    write(project / "pgstats" / "__init__.py", "")
    helper = write(project / "pgstats" / "top_queries.py", _TOP_QUERIES)
    server = write(project / "pgstats" / "server.py", _STATS_SERVER)
    # Before fixing, the helper's fix is offered with the tool's two: what `--fix` will apply.
    listed = check(".", "--output-format", "json")
    fixable = {(f["filename"].split("/")[-1], f["location"]["row"]) for f in json.loads(listed.output) if f["fix"]}
    assert ("top_queries.py", 16) in fixable and ("server.py", 17) in fixable

    # Three fixes mend the four findings (the helper's return is MCP005 and MCP002 at once): every
    # finding is counted, as `check` counts them.
    assert len(json.loads(listed.output)) == 4
    result = check(".", "--fix", "--unsafe-fixes")
    assert "Found 4 errors (4 fixed, 0 remaining)." in result.output
    assert read(server).endswith(
        """\
        if sort_by not in ("mean", "total"):
            raise ToolError("sort_by must be 'mean' or 'total'")
        return await calc.by_time(limit=limit, sort_by=sort_by)
    except ToolError:
        raise
    except Exception as e:
        logger.error("Top queries failed: %s", e)
        raise ToolError("Could not rank the queries; check that pg_stat_statements is installed") from e
"""
    )
    assert "from fastmcp.exceptions import ToolError\n" in read(helper)
    assert read(helper).endswith(
        """\
            logger.error("Error getting slow queries: %s", e, exc_info=True)
            raise ToolError("Error getting slow queries") from e
"""
    )
    fixed_texts = (read(helper), read(server))
    again = check(".", "--fix", "--unsafe-fixes")
    assert "All checks passed!" in again.output
    assert (read(helper), read(server)) == fixed_texts
