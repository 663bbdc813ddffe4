"""MCP002 and helpers that give back no words: a helper handed a caught exception that returns
only its status (`def status_of(err) -> int`), a number made from it or a yes/no answer puts none
of the exception's text into what its caller builds from the result. Its return annotation says
so, or every value it returns does (model/non_text.py). A helper returning text is still followed,
and a helper annotated `-> None` that raises the text is still reported where it raises."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._support import lint_source, lint_tree, write_tree

TOOL = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("desk")


class DeskError(Exception):
    pass


HELPER


@mcp.tool()
def show_ticket(ticket_id: str) -> str:
    \"\"\"Show a ticket.\"\"\"
    try:
        return httpx.get(f"https://desk.invalid/tickets/{ticket_id}").text
    except httpx.HTTPError as err:
        detail = describe(err)
        raise DeskError(f"The desk refused ticket {ticket_id} ({detail})") from err
"""


def _mcp002(helper: str) -> list[tuple[int, str]]:
    source = TOOL.replace("HELPER", helper)
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


@pytest.mark.parametrize(
    "helper",
    [
        'def describe(err: Exception) -> int | None:\n    status = getattr(getattr(err, "response", None), "status_code", None)\n    return status',
        'def describe(err: Exception) -> "int | None":\n    return err.response.status_code',
        "def describe(err):\n    status = getattr(err, 'status_code', None)\n    return int(status) if status is not None else None",
        "def describe(err):\n    return err.response.status_code",
        "def describe(err) -> bool:\n    return 'timeout' in str(err).lower()",
        "from typing import Optional\n\n\ndef describe(err) -> Optional[int]:\n    return len(err.args)",
    ],
    ids=["annotated-union", "annotated-string", "int-conversion", "status-attribute", "flag", "optional"],
)
def test_a_helper_returning_a_number_or_a_flag_sends_no_exception_text(helper: str) -> None:
    assert _mcp002(helper) == []


@pytest.mark.parametrize(
    "helper",
    [
        "def describe(err) -> str:\n    return str(err)",
        "def describe(err):\n    reason = getattr(err, 'reason', None)\n    return reason or str(err)",
        "def describe(err):\n    return err.response.text",
    ],
    ids=["annotated-str", "reason-or-text", "body"],
)
def test_a_helper_returning_text_is_still_followed(helper: str) -> None:
    found = _mcp002(helper)
    assert found, "the exception's text comes back from the helper"
    assert all("text of" in message or "body" in message for _, message in found), found


def test_a_helper_annotated_none_that_raises_the_text_is_reported_where_it_raises() -> None:
    helper = "def describe(err) -> None:\n    raise DeskError(f'desk failed: {err}') from err"
    rows = [row for row, _ in _mcp002(helper)]
    assert rows == [12]


def _project(root: Path, helper_body: str) -> list[str]:
    tool = TOOL.replace("HELPER", "from pkg.statuses import describe")
    write_tree(root, {"pkg/__init__.py": "", "pkg/server.py": tool, "pkg/statuses.py": f"def describe(err){helper_body}\n"})
    return sorted(f"{Path(f.filename).name}:{f.location.row}" for f in lint_tree(root) if f.code == "MCP002")


def test_a_helper_in_another_module_is_judged_by_its_summary(tmp_path: Path) -> None:
    # The caller's finding is dropped at link time, from the helper's summary.
    assert _project(tmp_path / "status", " -> int:\n    return err.response.status_code") == []
    assert _project(tmp_path / "text", " -> str:\n    return str(err)") != []
