"""A verification's negative answer is a result (issue 23, review 12's broken-contract reject).

A tool that checks something the caller hands it (a signature, a token, a document) answers with
a boolean verdict key (`{"verified": False, "reason": ...}`) on every rejecting branch. Where the
function documents that negative answer (its docstring names the key with False, or its return
annotation declares the key a bool), False is its answer, not a failure of the call: no MCP005.
Where it does not, the finding stays, but a fix that raises on one branch while the sibling
branches of the same dict shape stay answers is never offered (the tool would answer two ways).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", *args], catch_exceptions=False)


HEADER = """\
import hashlib
import hmac
import os
import time
from typing import TypedDict

from fastmcp import FastMCP

mcp = FastMCP("hooks")


class Verdict(TypedDict, total=False):
    verified: bool
    error: str


"""

BODY = """\
    key = os.environ.get("HOOK_SIGNING_KEY")
    if not key:
        return {"verified": False, "error": "signing key is not configured"}
    try:
        sent_at = int(timestamp)
    except (TypeError, ValueError):
        return {"verified": False, "error": "invalid timestamp"}
    if abs(time.time() - sent_at) > 300:
        return {"verified": False, "error": "signature expired"}
    expected = hmac.new(key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()
    return {"verified": hmac.compare_digest(expected, signature)}
"""

DOCUMENTED = '''\
    """Verify a delivered hook's signature.

    Returns {"verified": True} when it matches, else {"verified": False, "error": ...} so the
    caller can log why the hook was rejected.
    """
'''


def _write(root: Path, source: str) -> None:
    (root / "server.py").write_text(textwrap.dedent(source))


@pytest.mark.parametrize(
    ("name", "signature", "doc"),
    [
        ("verify_hook_signature", "-> dict", DOCUMENTED),
        # Documented by the return annotation's class (`verified: bool`), whatever the tool's name.
        ("hook_signature", "-> Verdict", ""),
        # The docstring names the verdict with False: a status check whatever its name.
        ("hook_signature", "-> dict", DOCUMENTED),
    ],
)
def test_a_documented_negative_verdict_is_the_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, signature: str, doc: str) -> None:
    _write(tmp_path, HEADER + f"@mcp.tool()\ndef {name}(token: str, timestamp: str, signature: str) {signature}:\n" + doc + BODY)
    monkeypatch.chdir(tmp_path)
    shown = run("--output-format", "concise")
    assert "MCP005" not in shown.output, shown.output


def test_an_undocumented_verdict_keeps_its_finding_but_no_fix_raises_one_branch_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The clause's answer is reported (the check crashed on its input, by its shape alone), but
    # the missing-key and expired branches send the same dict and stay answers of the status
    # check: raising here only would make the tool answer a rejection two ways.
    source = HEADER + "@mcp.tool()\ndef verify_hook_signature(token: str, timestamp: str, signature: str) -> dict:\n" + BODY
    _write(tmp_path, source)
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "concise")
    assert "server.py:25:9: MCP005 Tool 'verify_hook_signature' returns a failure dict as a normal result" in shown.output, shown.output
    fixed = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "fixed" not in fixed.output, fixed.output
    assert (tmp_path / "server.py").read_text() == textwrap.dedent(source)


def test_a_success_flag_is_no_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `success: False` says the call failed, documented or not: reported, and fixed.
    source = (
        "from fastmcp import FastMCP\n\nmcp = FastMCP(\"notes\")\n\n\n"
        "@mcp.tool()\ndef archive_note(note_id: str) -> dict:\n"
        '    """Archive a note. Returns {"success": False, "error": ...} when it is missing."""\n'
        "    if note_id not in NOTES:\n"
        '        return {"success": False, "error": f"No note {note_id}; call list_notes for the ids"}\n'
        "    NOTES.pop(note_id)\n"
        '    return {"success": True}\n'
    )
    _write(tmp_path, source)
    monkeypatch.chdir(tmp_path)
    shown = run("--unsafe-fixes", "--output-format", "concise")
    assert "server.py:10:9: MCP005 [*] Tool 'archive_note' returns a failure dict as a normal result" in shown.output, shown.output
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert '        raise ToolError(f"No note {note_id}; call list_notes for the ids")\n' in (tmp_path / "server.py").read_text()


def test_siblings_of_one_shape_in_a_tool_of_no_status_are_all_fixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No status check: every branch sending `{"created": False, "error": ...}` is the tool's
    # failure, and each gets its raise (all of them).
    source = (
        "from fastmcp import FastMCP\n\nmcp = FastMCP(\"notes\")\n\n\n"
        "@mcp.tool()\ndef create_note(title: str, body: str) -> dict:\n"
        "    if not title:\n"
        '        return {"created": False, "error": "A title is required"}\n'
        "    try:\n"
        "        size = int(body)\n"
        "    except ValueError:\n"
        '        return {"created": False, "error": "The body must be a number of lines"}\n'
        "    NOTES[title] = size\n"
        '    return {"created": True}\n'
    )
    _write(tmp_path, source)
    monkeypatch.chdir(tmp_path)
    run("--fix", "--unsafe-fixes", "--output-format", "concise")
    out = (tmp_path / "server.py").read_text()
    assert '        raise ToolError("A title is required")\n' in out, out
    assert '        raise ToolError("The body must be a number of lines") from None\n' in out, out
