"""Assertions for a server's own contract tests (the seed's four checks, for your own domain).

    from mcp_lint.probe.testing import assert_no_leak, assert_protocol_error, assert_tool_error, assert_unchanged

    def test_missing_order_is_a_tool_error(mcp_session):
        result = mcp_session.call_tool("get_order", {"order_id": 424242})
        assert_no_leak(assert_tool_error(result, matches="Order 424242 not found"))

They accept what the plugin's fixtures and the `mcp` SDK hand out: a `CallToolResult` (mcp 1.x or
2.x), a probe `Response`, a raw JSON-RPC reply (dict), or the SDK's protocol-error exception.
Nothing here imports `mcp`.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any, Iterable, Iterator

from mcp_lint.probe import snapshot
from mcp_lint.probe.client import Response, protocol_error
from mcp_lint.probe.findings import reads_as_failure
from mcp_lint.probe.leaks import find_leaks

__all__ = ["assert_no_leak", "assert_protocol_error", "assert_tool_error", "assert_unchanged"]


def _as_response(outcome: Any) -> Response:
    if isinstance(outcome, Response):
        return outcome
    if isinstance(outcome, BaseException):
        error = protocol_error(outcome)
        if error is None:
            raise TypeError(f"not a JSON-RPC error: {outcome!r}")
        return Response(error=error)
    if hasattr(outcome, "model_dump"):
        return Response(result=outcome.model_dump(mode="json", by_alias=True, exclude_none=True))
    if isinstance(outcome, dict):
        if "error" in outcome:
            return Response(error=outcome["error"])
        if "result" in outcome:
            return Response(result=outcome["result"])
        return Response(result=outcome)
    if outcome is None:
        return Response(timed_out=True)
    raise TypeError(f"cannot read a tool call outcome from {type(outcome).__name__}")


def assert_tool_error(result: Any, matches: str | None = None) -> str:
    """Assert that a tool call came back as a result with `isError: true` (check 1), whose text
    matches the regular expression `matches` if given. Returns the text, for `assert_no_leak`."""
    __tracebackhide__ = True  # pytest shows the user's line, not ours
    response = _as_response(result)
    if response.error is not None:
        raise AssertionError(
            f"expected a tool result with isError: true, got a JSON-RPC error {response.error.get('code')}: "
            f"{response.error.get('message')!r} (the model never reads it)"
        )
    if response.result is None:
        raise AssertionError("expected a tool result with isError: true, got no response")
    text = response.text
    if not response.is_error_result:
        why = reads_as_failure(response.result, text)
        hint = f" although {why}" if why else ""
        raise AssertionError(f"expected isError: true, got a success (isError: false){hint}: {text[:300]!r}")
    if matches is not None and not re.search(matches, text):
        raise AssertionError(f"the error text {text[:300]!r} does not match {matches!r}")
    return text


def assert_protocol_error(response: Any, code: int | None = None) -> dict[str, Any]:
    """Assert a JSON-RPC error response (check 3), with `code` if given; returns the error object.
    A raw reply of `mcp_raw_session.request(...)` or the SDK's `McpError`/`MCPError` both work."""
    __tracebackhide__ = True  # pytest shows the user's line, not ours
    if response is None:
        raise AssertionError("expected a JSON-RPC error response, got no response")
    outcome = _as_response(response)
    if outcome.error is None:
        raise AssertionError(f"expected a JSON-RPC error response, got a result: {str(outcome.result)[:300]}")
    if code is not None and outcome.error.get("code") != code:
        raise AssertionError(f"expected JSON-RPC error code {code}, got {outcome.error.get('code')}: {outcome.error.get('message')!r}")
    return outcome.error


def assert_no_leak(text: Any, secrets: Iterable[str] = (), paths: Iterable[str] = ()) -> None:
    """Assert that an error text (or a result carrying one) holds no stack trace, absolute path,
    token, connection string, nor any of `secrets` (check 2)."""
    __tracebackhide__ = True  # pytest shows the user's line, not ours
    if not isinstance(text, str):
        text = _as_response(text).text
    leaks = find_leaks(text, list(secrets), list(paths))
    if leaks:
        raise AssertionError("the text leaks " + "; ".join(leak.describe() for leak in leaks) + f": {text[:300]!r}")


@contextlib.contextmanager
def assert_unchanged(*paths: str | Path) -> Iterator[None]:
    """Assert that the files under `paths` are the same after the block as before it (check 4):

        with assert_unchanged(mcp_server_cwd / "orders.db"):
            assert_tool_error(mcp_session.call_tool("cancel_order", {"order_id": 424242}))
    """
    __tracebackhide__ = True  # pytest shows the user's line, not ours
    roots = [Path(p) for p in paths]
    before = snapshot.take(roots)
    yield
    changes = snapshot.compare(before, snapshot.take(roots))
    if changes:
        raise AssertionError("the call changed " + ", ".join(change.describe() for change in changes))
