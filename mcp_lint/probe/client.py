"""A synchronous handle on a server started over stdio with the official `mcp` client.

The `mcp` client is async; the probe and the pytest plugin want plain calls. The session lives in
one task of an anyio blocking portal (a background event loop), because anyio requires a
context manager to be exited by the task that entered it; every call goes through the portal
with a timeout. Works with the client of mcp 1.x and 2.x (the differences are handled here:
error class names, `isError` field names).
"""

from __future__ import annotations

import contextvars
import logging
import tempfile
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from mcp_lint.probe import require_mcp
from mcp_lint.probe.process import child_pids, kill_group, read_tail

DEFAULT_TIMEOUT = 30.0
DEFAULT_STARTUP_TIMEOUT = 60.0
NOT_JSON_SHOWN = 120  # characters of a stray stdout line quoted in the error

# The server processes the `mcp` client spawns in the current task (see `_watch_spawns`).
_spawned: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar("mcp_lint_probe_spawned", default=None)


class ServerStartError(RuntimeError):
    """The server could not be started or did not answer `initialize`; `stderr` is its tail."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr


@dataclass
class Response:
    """What a `tools/call` came back with: a result (wire JSON), a JSON-RPC error, or nothing."""

    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    timed_out: bool = False
    failure: str | None = None  # the connection broke: the server died or wrote garbage
    elapsed: float = 0.0

    @property
    def is_error_result(self) -> bool:
        return bool(self.result and self.result.get("isError"))

    @property
    def text(self) -> str:
        """What a reader of this response sees: the result's text blocks or the error's message and data."""
        if self.result is not None:
            parts = [block.get("text", "") for block in self.result.get("content") or () if isinstance(block, dict)]
            return "\n".join(p for p in parts if p)
        if self.error is not None:
            data = self.error.get("data")
            message = str(self.error.get("message", ""))
            return message if data in (None, "") else f"{message}\n{data}"
        return ""

    def to_json(self) -> dict[str, Any]:
        if self.result is not None:
            return {"result": self.result}
        if self.error is not None:
            return {"error": self.error}
        return {"timeout": True} if self.timed_out else {"failure": self.failure}


class ServerConnection:
    """A running server and an initialised `ClientSession` on it. Use as a context manager;
    `close()` always terminates the server's whole process group."""

    def __init__(
        self,
        command: Sequence[str],
        cwd: Path,
        env: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
    ) -> None:
        self.command = list(command)
        self.cwd = cwd
        self.env = env
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.server_info: dict[str, Any] = {}  # the initialize result (serverInfo, capabilities)
        self._portal_cm: Any = None
        self._portal: Any = None
        self._session: Any = None
        self._lifecycle: Future | None = None
        self._closing: Any = None
        self._stderr: Any = None
        self._pids: set[int] = set()
        self._processes: list[Any] = []  # the server process, when the client lets us see it
        self.not_json: str | None = None  # the first line the server wrote to stdout that is not JSON-RPC

    def __enter__(self) -> ServerConnection:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def session(self) -> Any:
        """The connected `mcp.ClientSession` (run its coroutines with `portal.call`)."""
        return self._session

    def stderr_tail(self) -> str:
        return read_tail(self._stderr)

    def start(self) -> None:
        require_mcp()
        from anyio.from_thread import start_blocking_portal

        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
        before = child_pids()
        self._portal_cm = start_blocking_portal()
        self._portal = self._portal_cm.__enter__()
        try:
            self._lifecycle, _ = self._portal.start_task(self._run, name="mcp-lint probe session")
        except BaseException as exc:  # noqa: BLE001 - any failure to start is reported with the server's stderr
            self._pids |= child_pids() - before
            self.close()
            raise ServerStartError(self._start_failure(exc), self.stderr_tail()) from exc
        self._pids |= child_pids() - before

    async def _run(self, *, task_status: Any) -> None:
        import anyio
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        self._closing = anyio.Event()
        params = StdioServerParameters(command=self.command[0], args=list(self.command[1:]), env=dict(self.env or {}) or None, cwd=str(self.cwd))
        _watch_spawns()
        _spawned.set(self._processes)
        async with stdio_client(params, errlog=self._stderr) as (read, write):
            async with ClientSession(read, write, message_handler=self._on_message) as session:
                with anyio.fail_after(self.startup_timeout):
                    initialised = await session.initialize()
                self.server_info = _dump(initialised)
                self._session = session
                task_status.started()
                await self._closing.wait()

    async def _on_message(self, message: Any) -> None:
        # The client hands over a stdout line it could not parse as an exception (and skips it);
        # the first one is what the report quotes.
        if isinstance(message, Exception) and self.not_json is None:
            line = _unparsed_line(message)
            if line is not None:
                self.not_json = line if len(line) <= NOT_JSON_SHOWN else line[: NOT_JSON_SHOWN - 3] + "..."

    def exit_status(self) -> int | None:
        """The server's exit status once it has exited (negative: the signal that ended it), else None."""
        for process in self._processes:
            code = getattr(process, "returncode", None)
            if code is not None:
                return int(code)
        return None

    def _start_failure(self, exc: BaseException) -> str:
        status = self.exit_status()
        if status is None:
            return _describe(exc)
        how = f"was killed by signal {-status}" if status < 0 else f"exited with status {status}"
        return f"server {how} before answering initialize"

    def close(self) -> None:
        """Stop the session, then make sure no process of the server's group is left."""
        if self._portal is not None:
            finished = True
            try:
                if self._closing is not None:
                    self._portal.call(self._closing.set)
                if self._lifecycle is not None:
                    self._lifecycle.result(timeout=10)
            except BaseException:  # noqa: BLE001 - closing must go on whatever the session did
                finished = False
            try:
                if finished:
                    self._portal_cm.__exit__(None, None, None)
                else:
                    # A session stuck on the way out: exiting with an error cancels its task
                    # instead of waiting for it forever.
                    stuck = RuntimeError("the session did not close")
                    self._portal_cm.__exit__(RuntimeError, stuck, None)
            except BaseException:  # noqa: BLE001
                pass
            self._portal = None
        for pid in self._pids:
            kill_group(pid, grace=0.5)
        self._pids.clear()

    def list_tools(self) -> list[dict[str, Any]]:
        """Every tool the server lists (all pages), as wire JSON."""
        from mcp.types import PaginatedRequestParams

        tools: list[dict[str, Any]] = []
        cursor = None
        for _ in range(100):  # a server that keeps handing out cursors must not hold the probe forever
            params = PaginatedRequestParams(cursor=cursor) if cursor else None
            page = _dump(self._call_soon(self._session.list_tools(params=params), self.timeout))
            tools.extend(page.get("tools") or ())
            cursor = page.get("nextCursor")
            if not cursor:
                break
        return tools

    def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None, timeout: float | None = None) -> Any:
        """`session.call_tool` with a timeout: the SDK's `CallToolResult`; a JSON-RPC error raises the SDK's error."""
        return self._call_soon(self._session.call_tool(name, dict(arguments or {})), timeout or self.timeout)

    def call(self, name: str, arguments: Mapping[str, Any] | None = None, timeout: float | None = None) -> Response:
        """A `tools/call` whose outcome, whatever it is, comes back as a `Response`."""
        import time

        started = time.monotonic()
        response = Response()
        try:
            response.result = _dump(self.call_tool(name, arguments, timeout))
        except TimeoutError:
            response.timed_out = True
        except Exception as exc:  # noqa: BLE001 - the probe reports every way a call can end
            error = protocol_error(exc)
            if error is not None:
                response.error = error
            else:
                response.failure = _describe(exc)
        response.elapsed = time.monotonic() - started
        return response

    def _call_soon(self, coroutine: Any, timeout: float) -> Any:
        async def bounded() -> Any:
            import anyio

            with anyio.fail_after(timeout):
                return await coroutine

        if self._portal is None or self._session is None:
            coroutine.close()
            raise RuntimeError("the server connection is closed")
        return self._portal.call(bounded)


def protocol_error(exc: BaseException) -> dict[str, Any] | None:
    """The JSON-RPC error an SDK exception carries (mcp 1.x `McpError`, 2.x `MCPError`), else None."""
    error = getattr(exc, "error", None)
    code = getattr(error, "code", getattr(exc, "code", None))
    if error is None and code is None:
        return None
    if type(exc).__name__ not in ("McpError", "MCPError") and not any(c.__name__ in ("McpError", "MCPError") for c in type(exc).__mro__):
        return None
    message = getattr(error, "message", getattr(exc, "message", str(exc)))
    data = getattr(error, "data", getattr(exc, "data", None))
    return {"code": code, "message": message, **({"data": data} if data not in (None, "") else {})}


def _unparsed_line(exc: Exception) -> str | None:
    """The stdout line behind the client's parse error (a pydantic `ValidationError` of invalid JSON)."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return None
    try:
        details = errors()
    except Exception:  # noqa: BLE001 - not a pydantic error after all
        return None
    for detail in details:
        if isinstance(detail, dict) and isinstance(detail.get("input"), str):
            return detail["input"].strip()
    return None


class _QuietParseErrors(logging.Filter):
    """Drops the client's traceback for a stdout line that is not JSON: the report names the line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to parse JSONRPC message")


def _watch_spawns() -> None:
    """Wrap the client's process factory (once) so a connection can read its server's exit status.

    The `mcp` client keeps its process to itself; without the status an early exit reads as a
    bare "Connection closed". A client without this factory just gives no status."""
    from mcp.client import stdio

    logging.getLogger(stdio.__name__).addFilter(_QUIET)  # a filter already there is not added twice
    original = getattr(stdio, "_create_platform_compatible_process", None)
    if original is None or getattr(original, "_mcp_lint_watched", False):
        return

    async def spawn(*args: Any, **kwargs: Any) -> Any:
        process = await original(*args, **kwargs)
        watched = _spawned.get()
        if watched is not None:
            watched.append(process)
        return process

    spawn._mcp_lint_watched = True  # type: ignore[attr-defined]
    stdio._create_platform_compatible_process = spawn  # type: ignore[attr-defined]


_QUIET = _QuietParseErrors()


def _dump(model: Any) -> dict[str, Any]:
    if hasattr(model, "model_dump"):
        return model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dict(model or {})


def _describe(exc: BaseException) -> str:
    """One line for an exception, reaching into anyio's exception groups for the real cause."""
    while getattr(exc, "exceptions", None):
        exc = exc.exceptions[0]  # type: ignore[attr-defined]
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__

