"""MCP004 (bench/LABELING-decisions.md D5): a reply memoised in a module dict keyed by the request,
read only by the same lookup, is no mutation: a rejection after it leaves nothing the user can
notice. It is told by what reads the store, whatever its name: a store another tool reads, one
handed on whole, or one never looked up by the key it is written under stays module state.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the exact
set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CASES = [
    # -- a memo: no finding ---------------------------------------------------------------------
    case(
        "a-reply-memoised-by-its-request-then-a-refusal",
        """\
        _REPLIES: dict[str, dict] = {}


        @mcp.tool()
        def forecast(city: str, units: str) -> dict:
            if city in _REPLIES:
                return _REPLIES[city]
            reply = httpx.get("https://api.example.com/forecast", params={"q": city}).json()
            _REPLIES[city] = reply
            if units not in ("metric", "imperial"):
                raise ToolError("units must be metric or imperial")
            return reply
        """,
    ),
    case(
        "a-memo-looked-up-with-get-and-emptied-by-a-reset-tool",
        """\
        _ANSWERS = {}


        @mcp.tool()
        def rate(pair: str, digits: int) -> str:
            known = _ANSWERS.get(pair)
            if known is None:
                known = httpx.get(f"https://api.example.com/rate/{pair}").json()
                _ANSWERS[pair] = known
            if not 0 <= digits <= 8:
                raise ToolError("digits must be 0..8")
            return str(round(known["rate"], digits))


        @mcp.tool()
        def forget_rates() -> str:
            _ANSWERS.clear()
            return "forgotten"
        """,
    ),
    # -- state: still a mutation ----------------------------------------------------------------
    case(
        "a-store-another-tool-reads-is-state",
        """\
        _REPLIES: dict[str, dict] = {}


        @mcp.tool()
        def forecast(city: str, units: str) -> dict:
            if city in _REPLIES:
                return _REPLIES[city]
            reply = httpx.get("https://api.example.com/forecast", params={"q": city}).json()
            _REPLIES[city] = reply  # expect: MCP004
            if units not in ("metric", "imperial"):
                raise ToolError("units must be metric or imperial")
            return reply


        @mcp.tool()
        def last_forecast(city: str) -> dict:
            return _REPLIES[city]
        """,
    ),
    case(
        "a-store-handed-on-whole-is-state",
        """\
        _REPLIES: dict[str, dict] = {}


        @mcp.tool()
        def forecast(city: str, units: str) -> dict:
            if city in _REPLIES:
                return _REPLIES[city]
            reply = httpx.get("https://api.example.com/forecast", params={"q": city}).json()
            _REPLIES[city] = reply  # expect: MCP004
            if units not in ("metric", "imperial"):
                raise ToolError("units must be metric or imperial")
            return dict(_REPLIES)
        """,
    ),
    case(
        "a-store-written-under-a-key-it-is-never-looked-up-by",
        """\
        _REPLIES: dict[str, dict] = {}


        @mcp.tool()
        def forecast(city: str, units: str) -> dict:
            if city in _REPLIES:
                return _REPLIES[city]
            reply = httpx.get("https://api.example.com/forecast", params={"q": city}).json()
            _REPLIES[units] = reply  # expect: MCP004
            if units not in ("metric", "imperial"):
                raise ToolError("units must be metric or imperial")
            return reply
        """,
    ),
    case(
        "an-item-of-the-store-changed-in-place-is-state",
        """\
        _REPLIES: dict[str, dict] = {}


        @mcp.tool()
        def tally(city: str, units: str) -> dict:
            if city not in _REPLIES:
                _REPLIES[city] = {"calls": []}
            _REPLIES[city]["calls"].append(units)  # expect: MCP004
            if units not in ("metric", "imperial"):
                raise ToolError("units must be metric or imperial")
            return _REPLIES[city]
        """,
    ),
]


@pytest.mark.parametrize("body", CASES)
def test_memo(body: str) -> None:
    _mcp004(body)
