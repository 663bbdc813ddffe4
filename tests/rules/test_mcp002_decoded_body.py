"""MCP002, a caught exception's failed reply read whole into a local (`details =
e.response.json()`, `.text` in the `except` of a nested try): where the statement sending the local
on is reported anyway for `str(e)`, the body is the same finding, not a second one where it is
read; a body parsed into data (`.json()`) is reported at the statement that puts it into words
(the return or raise that sends it, or the message local of its own branch); a body read as text
(`.text`) is the foreign text taken in, reported where it is read, as before."""

from __future__ import annotations

from ._support import lint_source

HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("desk")


"""


def _rows(body: str) -> list[tuple[int, str]]:
    source = HEADER + body
    return sorted((f.location.row, f.message) for f in lint_source(source, filename="server.py") if f.code == "MCP002")


NESTED_DETAILS = '''\
@mcp.tool()
async def show_group(group_id: int) -> dict:
    """Show a group."""
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get(f"https://desk.invalid/groups/{group_id}")
            response.raise_for_status()
            return response.json()
        except httpx.HTTPStatusError as e:
            details = None
            try:
                details = e.response.json() if e.response else None
            except Exception:
                details = e.response.text if e.response else None
            return {
                "error": f"Failed to get group: {SAID}",
                "details": details,
            }
'''


def test_a_body_beside_the_exceptions_text_is_one_finding_at_the_return() -> None:
    rows = _rows(NESTED_DETAILS.replace("{SAID}", "{str(e)}"))
    assert [row for row, _ in rows] == [23]
    assert rows[0][1] == "Tool 'show_group' returns the text of a caught httpx.HTTPStatusError as a normal result"


def test_a_body_alone_is_one_finding_where_its_text_is_read() -> None:
    # `.text` is the foreign text taken in; the parsed branch is the same flow.
    assert [row for row, _ in _rows(NESTED_DETAILS.replace("{SAID}", "the desk refused"))] == [21]


def test_a_field_of_the_body_raised_is_reported_at_the_raise() -> None:
    rows = _rows('''\
@mcp.tool()
async def show_user(user_id: int) -> str:
    """Show a user."""
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get(f"https://desk.invalid/users/{user_id}")
            response.raise_for_status()
        except httpx.HTTPStatusError as e:
            detail = ""
            try:
                body = e.response.json()
                msg = body.get("message")
                detail = f": {msg}" if msg else ""
            except ValueError:
                pass
            raise ToolError(f"Desk returned HTTP {e.response.status_code}{detail}") from e
        return response.text
''')
    assert rows == [(23, "Tool 'show_user' puts the text of a caught httpx.HTTPStatusError into ToolError")]


def test_a_message_local_built_in_two_branches_is_reported_at_each_build() -> None:
    rows = _rows('''\
@mcp.tool()
async def edit_user(user_id: int, name: str) -> dict:
    """Edit a user."""
    async with httpx.AsyncClient() as client:
        try:
            response = await client.put(f"https://desk.invalid/users/{user_id}", json={"name": name})
            response.raise_for_status()
            return {"success": True}
        except httpx.HTTPStatusError as e:
            message = f"Failed to edit user: {str(e)}"
            try:
                details = e.response.json()
                if "errors" in details:
                    message = f"Validation errors: {details['errors']}"
            except Exception:
                pass
            return {"success": False, "error": message}
''')
    assert [row for row, _ in rows] == [17, 21]


def test_a_describer_parsing_the_body_is_reported_at_its_return_and_a_text_read_where_it_is_read() -> None:
    rows = _rows('''\
def describe(exc: httpx.HTTPStatusError) -> str:
    try:
        body = exc.response.json()
        detail = body.get("message", "")
    except ValueError:
        detail = exc.response.text[:300]
    return f"Error ({exc.response.status_code}): {detail}"


@mcp.tool()
async def show_team(team_id: int) -> str:
    """Show a team."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://desk.invalid/teams/{team_id}")
            response.raise_for_status()
            return response.text
    except httpx.HTTPStatusError as exc:
        return describe(exc)
''')
    said = "Helper 'describe' returns the text of the exception passed in 'exc' as a normal result"
    assert rows == [(13, said), (14, said)]


def test_a_describer_parsing_the_body_only_is_one_finding_at_its_return() -> None:
    rows = _rows('''\
def describe(exc: httpx.HTTPStatusError) -> str:
    try:
        body = exc.response.json()
        detail = body.get("message", "")
    except ValueError:
        detail = "no details"
    return f"Error ({exc.response.status_code}): {detail}"


@mcp.tool()
async def show_team(team_id: int) -> str:
    """Show a team."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://desk.invalid/teams/{team_id}")
            response.raise_for_status()
            return response.text
    except httpx.HTTPStatusError as exc:
        return describe(exc)
''')
    assert [row for row, _ in rows] == [14]


def test_the_exceptions_bare_text_in_a_local_is_reported_where_it_is_put_in_a_result() -> None:
    """`detail = str(e)` holds only the foreign text: the dict that puts it under "error" is
    where the text is built (test_mcp002_bare_local)."""
    rows = _rows('''\
@mcp.tool()
async def drop_user(user_id: int) -> dict:
    """Drop a user."""
    async with httpx.AsyncClient() as client:
        try:
            response = await client.delete(f"https://desk.invalid/users/{user_id}")
            response.raise_for_status()
            return {"success": True}
        except httpx.HTTPStatusError as e:
            detail = str(e)
            return {"success": False, "error": detail}
''')
    assert [row for row, _ in rows] == [18]


def test_a_body_sent_by_several_raises_stays_at_the_local() -> None:
    rows = _rows('''\
@mcp.tool()
async def close_user(user_id: int) -> str:
    """Close a user."""
    async with httpx.AsyncClient() as client:
        try:
            response = await client.post(f"https://desk.invalid/users/{user_id}/close")
            response.raise_for_status()
        except httpx.HTTPStatusError as e:
            body = e.response.text
            if e.response.status_code == 404:
                raise ToolError(f"no such user: {body}") from e
            raise ToolError(f"desk error: {body}") from e
        return "closed"
''')
    assert [row for row, _ in rows] == [16]
