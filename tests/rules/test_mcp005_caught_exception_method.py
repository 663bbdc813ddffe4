"""MCP005 through a method of the caught project exception (issue 20, own002 cause 1): `except
RecordError as e: return e.as_dict()` hands the caught exception to `RecordError.as_dict` as its
object; a method of an exception class that builds a failure value from its own fields builds the
failure the tool returns as success, reported at the method's return (LABELING.md: the return
statement). Also across modules (the class imported from the project's own errors module).
Silent: a tool that raises the method's value, a method reached from no `except` clause, a method
that returns no failure value, a library exception's method."""

from __future__ import annotations

from pathlib import Path

from ._support import check, lint_tree, said, write_tree

ERRORS = """\
from typing import Any


class RecordError(Exception):
    def __init__(self, kind: str, message: str, status: int | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status

    def as_dict(self) -> dict[str, Any]:
        out = {"error": self.kind, "message": self.message}
        if self.status is not None:
            out["status"] = self.status
        return out{expect}

    def retry_after(self) -> int:
        return 30 if self.status == 429 else 0
"""

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("ledger")


def fetch(record_id: str) -> dict:
    if not record_id.isdigit():
        raise RecordError("invalid_id", f"Record id {record_id!r} must be digits; list_records shows the ids.")
    return {"id": record_id}
"""


def _server(body: str, expect: bool) -> str:
    return ERRORS.replace("{expect}", "  # expect: MCP005" if expect else "") + "\n\n" + HEADER + body


def test_method_of_the_caught_exception_builds_the_failure() -> None:
    findings = check(_server("""

@mcp.tool()
def get_record(record_id: str) -> dict:
    \"\"\"Read one record.\"\"\"
    try:
        return fetch(record_id)
    except RecordError as e:
        return e.as_dict()
""", expect=True))
    (finding,) = [f for f in findings if f.code == "MCP005"]
    assert said(finding).splitlines()[:4] == [
        "Helper 'as_dict' returns a failure dict as a normal result",
        "Raise ToolError instead",
        "reached from tool 'get_record'",
        'the failure: a dict with an "error" key',
    ]


def test_method_of_the_caught_exception_in_another_module(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "ledger/__init__.py": "",
        "ledger/errors.py": ERRORS.replace("{expect}", ""),
        "ledger/server.py": "from .errors import RecordError\n" + HEADER + """

@mcp.tool()
async def get_record(record_id: str) -> dict:
    \"\"\"Read one record.\"\"\"
    try:
        return fetch(record_id)
    except RecordError as err:
        return err.as_dict()
""",
    })
    found = [(f.code, Path(f.filename).name, f.location.row) for f in lint_tree(tmp_path) if f.code == "MCP005"]
    assert found == [("MCP005", "errors.py", 15)]


def test_tool_raises_what_the_method_builds() -> None:
    check(_server("""

@mcp.tool()
def get_record(record_id: str) -> dict:
    \"\"\"Read one record.\"\"\"
    try:
        return fetch(record_id)
    except RecordError as e:
        raise ToolError(str(e.as_dict())) from e
""", expect=False))


def test_method_not_called_on_a_caught_exception() -> None:
    check(_server("""

@mcp.tool()
def describe_error_shape(kind: str) -> dict:
    \"\"\"Show what an error of a kind looks like.\"\"\"
    return RecordError(kind, "example").as_dict()
""", expect=False))


def test_method_that_returns_no_failure_value() -> None:
    check(_server("""

@mcp.tool()
def get_record(record_id: str) -> dict:
    \"\"\"Read one record.\"\"\"
    try:
        return fetch(record_id)
    except RecordError as e:
        return {"id": record_id, "retry_after": e.retry_after()}
""", expect=False))


def test_method_of_a_library_exception_is_not_followed() -> None:
    check(_server("""

@mcp.tool()
def get_page(url: str) -> dict:
    \"\"\"Fetch a page's headers.\"\"\"
    try:
        response = httpx.get(url)
        response.raise_for_status()
    except httpx.HTTPStatusError as e:
        return e.response.json()  # expect: MCP002
    return dict(response.headers)
""", expect=False))


def test_method_returns_its_own_fields_whatever_the_keys() -> None:
    source = _server("""

@mcp.tool()
def get_record(record_id: str) -> dict:
    \"\"\"Read one record.\"\"\"
    try:
        return fetch(record_id)
    except RecordError as e:
        return e.summary()
""", expect=False).replace('''    def retry_after(self) -> int:''', '''    def summary(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.message.strip(), "retry": False}  # expect: MCP005

    def retry_after(self) -> int:''')
    (finding,) = [f for f in check(source) if f.code == "MCP005"]
    assert said(finding).splitlines()[3] == "the failure: a dict with the exception's own fields"


def test_own_fields_of_a_class_that_is_no_exception() -> None:
    check(_server("""

class Page:
    def __init__(self, number: int) -> None:
        self.number = number

    def as_dict(self) -> dict:
        return {"page": self.number}


@mcp.tool()
def get_page(number: int) -> dict:
    \"\"\"Read one page of records.\"\"\"
    try:
        page = Page(number)
    except RecordError as e:
        return {"page": number, "note": "no records"}
    return page.as_dict()
""", expect=False))


def test_method_called_by_a_helper_the_caught_exception_is_handed_to() -> None:
    check(_server("""

def _failed(exc: RecordError) -> dict:
    return exc.as_dict()


@mcp.tool()
def get_record(record_id: str) -> dict:
    \"\"\"Read one record.\"\"\"
    try:
        return fetch(record_id)
    except RecordError as e:
        return _failed(e)
""", expect=True))


def test_helper_handed_an_exception_no_caller_caught() -> None:
    check(_server("""

def _failed(exc: RecordError) -> dict:
    return exc.as_dict()


@mcp.tool()
def error_example(record_id: str) -> dict:
    \"\"\"Show what the error for an invalid id looks like.\"\"\"
    return _failed(RecordError("invalid_id", f"Record id {record_id!r} must be digits."))
""", expect=False))
