"""`mcp-lint probe`: the seed's four contract checks against a running server.

Static analysis says what the code intends; the probe tests what a client really receives. It
starts the server over stdio with the official `mcp` client (the optional extra
`mcp-lint[probe]`), lists the tools, and calls each one with arguments generated from its input
schema:

1. a valid argument that names nothing that exists must come back as `isError: true`;
2. no error text may carry a traceback, an absolute path, a token or another secret;
3. a malformed JSON-RPC request must get a JSON-RPC error, not a result (raw stdio, once a server);
4. a call that ended in an error must not have changed the working directory or a watched path.

The modules that do not talk to a server (values, leaks, snapshot, findings) import nothing of
`mcp`, so the core install can import this package; `require_mcp()` says how to get the extra.
"""

from __future__ import annotations

INSTALL_HINT = 'mcp-lint probe needs the official MCP client: pip install "mcp-lint[probe]"'


class ProbeUnavailable(RuntimeError):
    """The optional `mcp` dependency is not installed."""


def require_mcp() -> None:
    try:
        import mcp.client.stdio  # noqa: F401
    except ImportError as exc:
        raise ProbeUnavailable(INSTALL_HINT) from exc
