"""A raw JSON-RPC connection over the server's stdio, for what the `mcp` client refuses to send.

Check 3 writes malformed requests (broken JSON, an unknown method, `tools/call` without a name or
with parameters of the wrong type) as lines of its own and reads the lines that come back. The
stdio transport of MCP is one JSON-RPC message per line, so a thread reading lines into a queue
is the whole client; server notifications and server-to-client requests are skipped.
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any, Mapping, Sequence

from mcp_lint.probe.process import kill_group, read_tail

PROTOCOL_VERSION = "2025-06-18"
_CLOSED = object()


class RawConnection:
    """A server process spoken to line by line. Context manager; `close()` kills its process group."""

    def __init__(self, command: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 30.0) -> None:
        self.command = list(command)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        self.timeout = timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: IO[str] | None = None
        self._next_id = 1_000_000

    def __enter__(self) -> RawConnection:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
        self._process = subprocess.Popen(
            self.command,
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            start_new_session=True,  # its own process group: close() kills the server and its children
        )
        threading.Thread(target=self._read, name="mcp-lint probe raw reader", daemon=True).start()

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(_CLOSED)

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stderr_tail(self) -> str:
        return read_tail(self._stderr)

    def send(self, message: str | Mapping[str, Any]) -> None:
        """Write one line: a message (as JSON) or a string exactly as given."""
        assert self._process is not None and self._process.stdin is not None
        line = message if isinstance(message, str) else json.dumps(message)
        self._process.stdin.write(line.encode("utf-8") + b"\n")
        self._process.stdin.flush()

    def request(self, message: str | Mapping[str, Any], timeout: float | None = None) -> dict[str, Any] | None:
        """Send a line and return the response to it: the message with the same id (or, for a
        line with no readable id, the first response with `id: null`). None after `timeout`
        seconds or when the server closed its output."""
        wanted = message.get("id") if isinstance(message, Mapping) else None
        try:
            self.send(message)
        except OSError:  # BrokenPipeError: the server is gone
            return None
        replies = self._replies_until(wanted, timeout)
        return replies[-1] if replies and replies[-1].get("id") == wanted else None

    def request_unparseable(self, line: str, timeout: float | None = None) -> tuple[dict[str, Any] | None, bool]:
        """Send a line that is not JSON, then a ping. Returns the `id: null` response to the line
        (None if there was none) and whether the ping was answered.

        A server that answers nothing to the line is only known to have answered nothing once it
        answered what came next: the ping bounds the wait by a round trip, not by a timeout."""
        ping = {"jsonrpc": "2.0", "id": self.new_id(), "method": "ping"}
        try:
            self.send(line)
            self.send(ping)
        except OSError:
            return None, False
        replies = self._replies_until(ping["id"], timeout)
        answered = bool(replies) and replies[-1].get("id") == ping["id"]
        # A reply to the broken line may come just after the ping's (servers that answer concurrently).
        late = [] if any(r.get("id") is None for r in replies) else self._replies_until(object(), 0.2)
        error = next((r for r in [*replies, *late] if r.get("id") is None), None)
        return error, answered

    def _replies_until(self, wanted: object, timeout: float | None) -> list[dict[str, Any]]:
        """The responses read until the one whose id is `wanted` (last in the list), or until the
        timeout or the end of the server's output. Notifications and requests are skipped."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        replies: list[dict[str, Any]] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return replies
            try:
                item = self._lines.get(timeout=remaining)
            except queue.Empty:
                return replies
            if item is _CLOSED:
                self._lines.put(_CLOSED)  # later requests see the end too
                return replies
            reply = _parse(item)  # type: ignore[arg-type]
            if reply is None or not ("result" in reply or "error" in reply):
                continue
            replies.append(reply)
            if reply.get("id") == wanted:
                return replies

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def initialize(self) -> dict[str, Any]:
        """The MCP handshake; raises RuntimeError when the server does not answer it."""
        reply = self.request(
            {
                "jsonrpc": "2.0",
                "id": self.new_id(),
                "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "mcp-lint-probe", "version": "1"},
                },
            }
        )
        if reply is None or "result" not in reply:
            raise RuntimeError(f"the server did not answer initialize: {reply!r}")
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply["result"]

    def close(self) -> None:
        if self._process is not None:
            for stream in (self._process.stdin,):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            kill_group(self._process.pid, grace=1.0)
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            if self._process.stdout is not None:
                self._process.stdout.close()


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        message = json.loads(line)
    except ValueError:
        return None  # a server's stray print on stdout: not a message
    return message if isinstance(message, dict) else None
