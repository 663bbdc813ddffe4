"""MCP004: the causes of false alarms and misses found on bench/blind004c (see its CAUSES.md),
each with a case that must be flagged and one that must not, on made-up code.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the
exact set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    # -- `x.set(key, value)` is a key-value write only on a kept client or a store's name -----------
    case(
        "set-on-a-client-the-object-keeps",
        """\
        class Sessions:
            def __init__(self, kv) -> None:
                self.kv = kv

            def remember(self, key: str, value: str) -> str:
                self.kv.set(key, value)  # expect: MCP004
                if len(key) > 64:
                    raise ToolError("key must be at most 64 characters")
                return "remembered"

        SESSIONS = Sessions(None)

        @mcp.tool()
        def remember(key: str, value: str) -> str:
            return SESSIONS.remember(key, value)
        """,
    ),
    case(
        "set-on-an-element-handed-in-is-no-store-write",
        """\
        def _label(node, spec: dict) -> None:
            node.set("id", spec["id"])
            if spec.get("anchor", "start") not in ("start", "end"):
                raise ToolError("anchor must be start or end")

        @mcp.tool()
        def label(spec: dict) -> str:
            node = {"kind": "text"}
            _label(node, spec)
            return "labelled"
        """,
    ),
    case(
        "set-on-a-local-value-is-no-store-write",
        """\
        from querylib import compile_query

        @mcp.tool()
        def limit_query(query: str, limit: int) -> dict:
            shaped = compile_query(query)
            shaped.set("limit", limit)
            if limit <= 0:
                raise ToolError("limit must be positive")
            return shaped
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)
