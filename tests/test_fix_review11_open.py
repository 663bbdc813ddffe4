"""Fix shapes review 11 rejected or marked (issue 23), each with the code the fix must write (or the
code left as it was), on made-up servers: an error builder's type label is no message (its message
and advice are), a failure dict spreading a reply's fields gets no fix that would drop them, and
MCP007's setting lands after a parenthesized last argument."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

PYPROJECT = '[project]\nname = "notes"\nversion = "0"\ndependencies = ["fastmcp>=2.5,<3"]\n'

ERRORS = """\
def error_response(error_type: str, message: str, suggestion: str = "") -> dict:
    out = {"success": False, "error_type": error_type, "message": message}
    if suggestion:
        out["suggestion"] = suggestion
    return out
"""

SERVER = """\
from fastmcp import FastMCP

from notes.errors import error_response

mcp = FastMCP("notes", mask_error_details=True)
NOTES: dict[str, dict] = {}


@mcp.tool()
def get_list(note_id: str) -> dict:
    note = NOTES.get(note_id)
    if note is None:
        return error_response("ValueError", f"Note {note_id} not found", "Use list_notes() to find ids")
    if note["kind"] != "list":
        return error_response("TYPE_MISMATCH", f"Note {note_id} is not a list")
    return note
"""


def _notes(root: Path, server: str) -> None:
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "notes/__init__.py", "")
    write(root / "notes/errors.py", ERRORS)
    write(root / "notes/server.py", server)


def test_an_error_builders_type_label_is_not_the_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _notes(tmp_path, SERVER)
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "notes/server.py").read_text() == """\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("notes", mask_error_details=True)
NOTES: dict[str, dict] = {}


@mcp.tool()
def get_list(note_id: str) -> dict:
    note = NOTES.get(note_id)
    if note is None:
        raise ToolError(f"Note {note_id} not found. Use list_notes() to find ids")
    if note["kind"] != "list":
        raise ToolError(f"Note {note_id} is not a list")
    return note
"""


def test_a_builders_message_argument_stays_the_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The first argument reads as words: it is the message, as before (a label only when one token).
    monkeypatch.chdir(tmp_path)
    _notes(tmp_path, SERVER.replace('error_response("TYPE_MISMATCH", f"Note {note_id} is not a list")', 'error_response(f"Note {note_id} is not a list", "TYPE_MISMATCH")'))
    run("--fix", "--unsafe-fixes")
    assert 'raise ToolError(f"Note {note_id} is not a list")\n' in (tmp_path / "notes/server.py").read_text()


REPLY_SERVER = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("orders", mask_error_details=True)
client = httpx.Client(base_url="https://orders.example")


def _call(method: str, path: str, **kwargs) -> dict:
    reply = client.request(method, path, **kwargs)
    body = reply.json()
    if reply.status_code >= 400:
        return {"error": reply.status_code, **body}
    return body


@mcp.tool()
def create_order(item_id: str) -> dict:
    return _call("POST", "/orders", json={"item": item_id})
"""


def test_a_failure_dict_spreading_a_reply_gets_no_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `raise ToolError(reply.status_code)` would send "422" and drop the reply's detail.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    write(tmp_path / "server.py", REPLY_SERVER)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "server.py:12:9: MCP005 Helper '_call' returns a failure dict as a normal result" in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "server.py").read_text() == REPLY_SERVER


def test_a_bare_status_code_is_no_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", PYPROJECT)
    server = REPLY_SERVER.replace('{"error": reply.status_code, **body}', '{"error": reply.status_code}')
    write(tmp_path / "server.py", server)
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "server.py").read_text() == server


GUARDED = """\
import sys

try:
    from mcp.server.fastmcp import FastMCP
except ImportError:
    print("Install the SDK first: pip install 'mcp[cli]'")
    sys.exit(1)

mcp = FastMCP("tasks")
TASKS: dict[str, str] = {}


@mcp.tool()
def close_task(task_id: str) -> str:
    if task_id not in TASKS:
        return f"Error: task {task_id} not found"
    TASKS.pop(task_id)
    return "closed"
"""


def test_a_framework_import_goes_inside_the_authors_import_guard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A missing SDK must still meet the author's message, not an ImportError above it.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "tasks"\nversion = "0"\ndependencies = ["mcp>=1.10,<2"]\n')
    write(tmp_path / "server.py", GUARDED)
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "server.py").read_text() == GUARDED.replace(
        "    from mcp.server.fastmcp import FastMCP\n",
        "    from mcp.server.fastmcp import FastMCP\n    from mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace('return f"Error: task {task_id} not found"', 'raise ToolError(f"Task {task_id} not found")')


def test_a_fallback_between_frameworks_is_no_guard_to_import_into(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The `except` imports the other framework: a ToolError imported in the `try` would be
    # missing when the fallback runs.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "tasks"\nversion = "0"\ndependencies = ["mcp>=1.10,<2"]\n')
    fallback = GUARDED.replace(
        "    print(\"Install the SDK first: pip install 'mcp[cli]'\")\n    sys.exit(1)\n", "    from fastmcp import FastMCP\n"
    )
    write(tmp_path / "server.py", fallback)
    run("--fix", "--unsafe-fixes")
    fixed = (tmp_path / "server.py").read_text()
    assert "    from mcp.server.fastmcp.exceptions import ToolError" not in fixed
    compile(fixed, "server.py", "exec")


def test_a_module_statement_the_fix_adds_goes_below_the_import_guard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "tasks"\nversion = "0"\ndependencies = ["mcp>=1.10,<2"]\n')
    server = GUARDED.replace("import sys\n", "import logging\nimport sys\n\nimport requests\n").replace(
        """    if task_id not in TASKS:
        return f"Error: task {task_id} not found"
    TASKS.pop(task_id)
    return "closed"
""",
        """    try:
        requests.post(f"https://tasks.example/{task_id}/close", timeout=10).raise_for_status()
    except Exception as e:
        return f"Failed to close task {task_id}: {e}"
    return "closed"
""",
    )
    write(tmp_path / "server.py", server)
    run("--fix", "--unsafe-fixes")
    fixed = (tmp_path / "server.py").read_text()
    assert "    sys.exit(1)\n\nlogger = logging.getLogger(__name__)\n\nmcp = FastMCP" in fixed, fixed
    assert "    from mcp.server.fastmcp.exceptions import ToolError\nexcept ImportError:" in fixed, fixed
    compile(fixed, "server.py", "exec")
