"""MCP005's fix of a failure string returned from a clause that caught the reply's failed
decoding (fix review 14: the raise it wrote carried the reply's body, which MCP002 then reported,
a finding the fix itself created). Raised, the body of a reply that is no answer is upstream text:
the raise keeps the author's words around it and leaves the body out. The rest of the
message (the reply's status) stays as written. Made-up server; each case with the code written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

PYPROJECT = '[project]\nname = "docs"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n'

SERVER = '''\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("docs")


@mcp.tool()
def doc_title(doc_id: str) -> str:
    """The title of one doc."""
    reply = httpx.get(f"https://docs.invalid/docs/{doc_id}")
    TRY
'''

DECODE = '''try:
        data = reply.json()
    except ValueError:
        return f"Failed to read doc {doc_id}: invalid JSON - {reply.text}"
    return data["title"]'''

STATUS = '''try:
        data = reply.json()
    except ValueError:
        return f"Failed to read doc {doc_id}: invalid JSON (HTTP {reply.status_code})"
    return data["title"]'''


def _fixed(root: Path, body: str) -> str:
    write(root / "pyproject.toml", PYPROJECT)
    (root / "server.py").write_text(SERVER.replace("TRY", body))
    run("--fix", "--unsafe-fixes")
    return (root / "server.py").read_text()


def test_the_raise_leaves_out_the_body_of_a_reply_that_did_not_decode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    fixed = _fixed(tmp_path, DECODE)
    assert '        raise ToolError(f"Failed to read doc {doc_id}: invalid JSON") from None\n' in fixed, fixed
    after = run("--unsafe-fixes").output
    assert "MCP002" not in after and "MCP005" not in after, after


def test_the_rest_of_the_message_is_kept_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    fixed = _fixed(tmp_path, STATUS)
    assert '        raise ToolError(f"Failed to read doc {doc_id}: invalid JSON (HTTP {reply.status_code})") from None\n' in fixed, fixed
    assert "MCP002" not in run("--unsafe-fixes").output
