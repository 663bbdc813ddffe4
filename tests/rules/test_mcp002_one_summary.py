"""MCP002 through one summary per project function (issue 20, points 3 and 5): what a function's
parameters give its return value, and what a class's `__init__` gives the exception's message,
read from that function wherever it is called, with one finding per flow at the statement that
takes the foreign text in."""

from __future__ import annotations

from pathlib import Path

from ._support import lint_source, lint_tree, write_tree


def _mcp002(source: str) -> list[tuple[int, str]]:
    return [(f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002"]


DESCRIBER = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("shelf")


def describe(exc):
    return BODY


@mcp.tool
def get_book(book_id: str) -> str:
    try:
        return httpx.get(f"https://shelf.invalid/books/{book_id}").text
    except httpx.HTTPError as e:
        detail = describe(e)
        raise ToolError(f"Could not get book {book_id}: {detail}")
"""


def test_a_describers_value_raised_through_a_local_is_reported_where_the_fix_goes() -> None:
    # The caller's raise is where the fix goes (raise ToolError in its own words); the describer's
    # return is reported too (issue 20 point 5 asks for one of them: not done).
    findings = _mcp002(DESCRIBER.replace("BODY", 'f"shelf said: {exc}"'))
    assert 17 in [row for row, _ in findings]


def test_a_describer_that_words_the_failure_itself_sends_nothing_through_the_local() -> None:
    assert _mcp002(DESCRIBER.replace("BODY", '"the shelf service is unavailable"')) == []


# A class's `__init__` decides what its message holds: read from that function (in another module
# too), not guessed from the constructor call `ApiError(exc)`.
ERRORS = """\
class CatalogueError(Exception):
    def __init__(self, exc):
        INIT
"""

CATALOGUE = """\
import httpx
from fastmcp import FastMCP

from errors import CatalogueError

mcp = FastMCP("catalogue")


def fetch(item_id):
    try:
        return httpx.get(f"https://catalogue.invalid/items/{item_id}").text
    except httpx.HTTPError as e:
        raise CatalogueError(e) from e


@mcp.tool
def get_item(item_id: str) -> str:
    return fetch(item_id)
"""


def _tree_mcp002(tmp_path: Path, init: str) -> list[tuple[str, int]]:
    write_tree(tmp_path, {"errors.py": ERRORS.replace("INIT", init), "server.py": CATALOGUE})
    return [(Path(f.filename).name, f.location.row) for f in lint_tree(tmp_path) if f.code == "MCP002"]


def test_a_class_whose_init_puts_the_exception_into_its_message_is_reported_at_the_raise(tmp_path: Path) -> None:
    init = 'message = f"the catalogue call failed: {exc}"\n        super().__init__(message)'
    assert _tree_mcp002(tmp_path, init) == [("server.py", 13)]


def test_a_class_whose_init_keeps_the_exception_as_its_cause_sends_the_authors_words(tmp_path: Path) -> None:
    init = 'self.cause = exc\n        super().__init__("the catalogue service is unavailable")'
    assert _tree_mcp002(tmp_path, init) == []


REPLY = """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("catalogue")


class ReplyError(ToolError):
    def __init__(self, resp):
        self.status = resp.status_code
        INIT


def fetch(item_id):
    resp = httpx.get(f"https://catalogue.invalid/items/{item_id}")
    if resp.status_code != 200:
        raise ReplyError(resp)
    return resp.text


@mcp.tool
def get_item(item_id: str) -> str:
    return fetch(item_id)
"""


def test_a_failed_response_handed_to_a_class_whose_init_reads_its_body_is_reported_at_the_raise() -> None:
    findings = _mcp002(REPLY.replace("INIT", 'super().__init__(f"HTTP {resp.status_code}: {resp.text}")'))
    assert [row for row, _ in findings] == [17]
    assert "upstream error body" in findings[0][1]


def test_a_failed_response_handed_to_a_class_whose_init_words_the_status_sends_no_body() -> None:
    assert _mcp002(REPLY.replace("INIT", 'super().__init__(f"the catalogue answered HTTP {resp.status_code}")')) == []


# Origin by "not the project's own text": what a library call answered, tested by the author for
# a failure field, is a failed reply as a decoded response body is; what the project's own
# function answered (in this module or another) is the author's text.
ANSWERED = """\
import signin
from fastmcp import FastMCP

from checks import sibling_check

mcp = FastMCP("mail")
app = signin.PublicApp("client-id")


def own_check(address):
    if "@" not in address:
        return {"error": "the address has no @"}
    return {}


@mcp.tool
def login(address: str) -> str:
    result = ANSWER
    if "error" in result:
        raise Exception(f"Cannot sign in: {result.get('error_description')}")
    return "signed in"
"""

CHECKS = """\
def sibling_check(address):
    if not address.endswith(".invalid"):
        return {"error": "only test addresses", "error_description": "use an address ending in .invalid"}
    return {}
"""


def _answered(tmp_path: Path, answer: str) -> list[tuple[str, int, str]]:
    write_tree(tmp_path, {"server.py": ANSWERED.replace("ANSWER", answer), "checks.py": CHECKS})
    return [(Path(f.filename).name, f.location.row, f.message) for f in lint_tree(tmp_path) if f.code == "MCP002"]


def test_a_library_result_tested_for_an_error_field_is_a_failed_reply(tmp_path: Path) -> None:
    (finding,) = _answered(tmp_path, 'app.acquire_token_interactive(scopes=["mail"], login_hint=address)')
    assert finding[:2] == ("server.py", 20)
    assert "upstream error body (result.get('error_description'))" in finding[2]


def test_a_library_result_from_a_local_client_is_a_failed_reply_too(tmp_path: Path) -> None:
    found = _answered(tmp_path, 'signin.sign_in(address)')
    assert [(name, row) for name, row, _ in found] == [("server.py", 20)]


def test_the_projects_own_answer_tested_for_an_error_field_is_its_own_text(tmp_path: Path) -> None:
    assert _answered(tmp_path, "own_check(address)") == []
    assert _answered(tmp_path, "sibling_check(address)") == []


# The same in a package (`from pkg.errors import ...`, where the class's module is the project's
# by its import): the raise is decided by the class's `__init__`, and a clause that catches the
# class and returns its text passes the raise's flow on (one finding, at the raise).
PKG_ERRORS = """\
class CatalogueError(Exception):
    pass


class QuietError(Exception):
    def __init__(self, exc):
        self.cause = exc
        super().__init__("the catalogue service is unavailable")
"""

PKG_SERVER = """\
import httpx
from fastmcp import FastMCP

from pkg.errors import CLASS

mcp = FastMCP("catalogue")


def fetch(item_id):
    try:
        return httpx.get(f"https://catalogue.invalid/items/{item_id}").text
    except httpx.HTTPError as e:
        raise CLASS(e) from e


@mcp.tool
def get_item(item_id: str) -> str:
    try:
        return fetch(item_id)
    except CLASS as e:
        return f"Could not get item {item_id}: {e}"
"""


def _package(tmp_path: Path, cls: str) -> list[tuple[str, int]]:
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/errors.py": PKG_ERRORS, "pkg/server.py": PKG_SERVER.replace("CLASS", cls)})
    return [(Path(f.filename).name, f.location.row) for f in lint_tree(tmp_path) if f.code == "MCP002"]


def test_a_package_class_taking_the_base_init_carries_the_exception_text_reported_at_the_raise(tmp_path: Path) -> None:
    assert _package(tmp_path, "CatalogueError") == [("server.py", 13)]


def test_a_package_class_whose_init_keeps_the_exception_out_carries_nothing(tmp_path: Path) -> None:
    assert _package(tmp_path, "QuietError") == []


FACTORY = """\
import signin
from fastmcp import FastMCP

mcp = FastMCP("mail")


def get_app() -> RETURNS:
    return signin.PublicApp("client-id")


@mcp.tool
def login(address: str) -> str:
    app = get_app()
    result = app.acquire_token_interactive(scopes=["mail"], login_hint=address)
    if "error" in result:
        raise Exception(f"Cannot sign in: {result.get('error_description')}")
    return "signed in"
"""


def test_a_library_object_from_a_project_factory_answers_a_failed_reply() -> None:
    assert [row for row, _ in _mcp002(FACTORY.replace("RETURNS", "signin.PublicApp"))] == [16]


def test_an_object_of_a_project_class_from_a_factory_answers_in_the_projects_words() -> None:
    source = FACTORY.replace("RETURNS", '"LocalApp"') + '''

class LocalApp:
    def acquire_token_interactive(self, scopes, login_hint):
        return {"error": "offline", "error_description": "sign-in is off in this build"}
'''
    assert _mcp002(source) == []
