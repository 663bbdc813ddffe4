"""MCP005 past a test that only confirms success: `if body.get("success") is True: return done`
separates a success the reply confirms from everything else, an absent flag included. What the
tool answers past it ("... without a success flag; read it back before assuming it was removed")
reports an unconfirmed outcome, not a failure: its words decide. Past a test that takes the flag
as it is (`if body.get("success"):`) the reply said the call failed, whatever the words; and
words of failure past `is True` are still a failure."""

from __future__ import annotations

from ._support import check

SOURCE = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("garden")  # expect: MCP007


@mcp.tool()
async def remove_plot(plot_id: int) -> str:
    async with httpx.AsyncClient() as client:
        body = (await client.post(f"https://garden.invalid/plots/{plot_id}/remove")).json()
    if body.get("success") is True:
        return f"Plot {plot_id} removed."
    return f"The garden service answered for plot {plot_id} without a success flag; read the plot back before assuming it was removed."


@mcp.tool()
async def rename_plot(plot_id: int, name: str) -> str:
    async with httpx.AsyncClient() as client:
        body = (await client.post(f"https://garden.invalid/plots/{plot_id}/rename", json={"name": name})).json()
    if body.get("success"):
        return f"Plot {plot_id} renamed to {name}."
    return f"The garden service answered for plot {plot_id}; read the plot back."  # expect: MCP005


@mcp.tool()
async def water_plot(plot_id: int) -> str:
    async with httpx.AsyncClient() as client:
        body = (await client.post(f"https://garden.invalid/plots/{plot_id}/water")).json()
    if body.get("success") is True:
        return f"Plot {plot_id} watered."
    return f"Error: could not water plot {plot_id}."  # expect: MCP005
"""


def test_past_a_confirmed_success_only_the_words_say_whether_it_failed() -> None:
    check(SOURCE)
