"""MCP002: in a clause catching the status error of a reply's own `raise_for_status()`
(`except httpx.HTTPStatusError:`), the reply failed: its body (`reply.text`) sent to the model is
an upstream error body, raised in the project's own exception or returned. A clause catching
something else around it (a decode error) knows nothing of the status."""

from __future__ import annotations

from ._support import check

SERVER = """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("mail")  # expect: MCP007


class AuthError(Exception):
    pass


def token() -> str:
    response = httpx.post("https://login.invalid/token", data={"grant_type": "client_credentials"})
    try:
        response.raise_for_status()
    except CAUGHT as exc:
        detail = response.text
        raise AuthError(f"Token endpoint returned {response.status_code}: {detail}") from exc  MARK
    return response.json()["access_token"]


@mcp.tool
def send(to: str) -> str:
    reply = httpx.post("https://mail.invalid/send", json={"to": to}, headers={"Authorization": token()})
    if reply.status_code >= 400:
        return "Sending failed; check the address"  # expect: MCP005
    return "sent"
"""


def test_a_failed_status_replys_body_raised_in_the_clause_is_reported() -> None:
    (finding,) = [f for f in check(SERVER.replace("CAUGHT", "httpx.HTTPStatusError").replace("MARK", "# expect: MCP002")) if f.code == "MCP002"]
    assert finding.message == "Helper 'token' raises AuthError with an upstream error body (response.text)"


def test_a_failed_status_replys_body_returned_in_the_clause_is_reported() -> None:
    check(
        """\
        import httpx
        from fastmcp import FastMCP

        mcp = FastMCP("mail")  # expect: MCP007


        @mcp.tool
        def send(to: str) -> str:
            reply = httpx.post("https://mail.invalid/send", json={"to": to})
            try:
                reply.raise_for_status()
            except httpx.HTTPStatusError:
                return f"Sending failed: {reply.text}"  # expect: MCP002, MCP005
            return "sent"
        """
    )


def test_a_clause_for_another_class_around_the_reply_is_not_a_failed_status() -> None:
    check(SERVER.replace("CAUGHT", "KeyError").replace("MARK", ""))
