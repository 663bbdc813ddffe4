"""The HTTP status a fix keeps when it drops an HTTP client error's text (issue 23).

`raise ApiError(f"Lookup failed: {e}")` around `response.raise_for_status()` sends the library's
text (the URL, the reason phrase); the fix drops it, but the status code is the one part of it the
model acts on (401: a wrong key, 404: a wrong id, 5xx: retry later) and holds no text of anyone.
A clause catching the status error keeps `(HTTP {e.response.status_code})` in its new message; a
broad clause whose `try` calls `raise_for_status()` gets a clause of its own for the status error
before it, in the module's own naming of the library, as a maintainer writes it.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.names import AliasTable
from mcp_lint.model.walk import descendants
from mcp_lint.rules.messages import Message, Placeholder, Text


@dataclass(frozen=True)
class _Library:
    module: str  # the package a module imports (`httpx`)
    status_class: str  # its status error, as an attribute of the package (`HTTPStatusError`)
    status: str  # where the status is on a caught instance (`response.status_code`)
    # Qualified names of the clauses that catch the status error with every other error of the
    # library (its base class, `Exception`).
    broad: frozenset[str]
    # Modules of the package a `from` import may name the status class from.
    homes: tuple[str, ...]


_BROAD = frozenset({"Exception", "BaseException"})
_LIBRARIES = (
    _Library("httpx", "HTTPStatusError", "response.status_code", _BROAD | {"httpx.HTTPError"}, ("httpx",)),
    _Library(
        "requests",
        "HTTPError",
        "response.status_code",
        _BROAD | {"requests.RequestException", "requests.exceptions.RequestException", "OSError", "IOError"},
        ("requests", "requests.exceptions"),
    ),
    _Library(
        "aiohttp",
        "ClientResponseError",
        "status",
        _BROAD | {"aiohttp.ClientError", "aiohttp.client_exceptions.ClientError"},
        ("aiohttp", "aiohttp.client_exceptions"),
    ),
)


def caught_status(handler: Handler) -> str | None:
    """`e.response.status_code` when the clause catches only a status error (`except
    httpx.HTTPStatusError as e:`): where its status is; None otherwise."""
    if not handler.name or len(handler.caught) != 1:
        return None
    for library in _LIBRARIES:
        if handler.caught[0] in {f"{home}.{library.status_class}" for home in library.homes}:
            return f"{handler.name}.{library.status}"
    return None


@dataclass(frozen=True)
class StatusClause:
    caught: str  # the status error as the module names it (`requests.HTTPError`)
    status: str  # where the status is on the clause's exception (`e.response.status_code`)


def status_clause(handler: Handler, before: tuple[str, ...], aliases: AliasTable) -> StatusClause | None:
    """The clause to put before a broad `handler` whose `try` calls `raise_for_status()` of one
    library the module imports, when no earlier clause (`before`, qualified) catches its status
    error already; None otherwise (also when the module names none of that library)."""
    if not handler.name or not any(_raises_for_status(node) for node in descendants(handler.try_node.body)):
        return None
    found = [library for library in _LIBRARIES if set(handler.caught) & library.broad and _named(library, aliases) is not None]
    if len(found) != 1:
        return None  # no library, or two a bare `raise_for_status()` may belong to
    library = found[0]
    qualified = {f"{home}.{library.status_class}" for home in library.homes}
    if qualified & set(before) or set(before) & library.broad:
        return None
    return StatusClause(_named(library, aliases) or "", f"{handler.name}.{library.status}")


def _raises_for_status(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "raise_for_status"


def _named(library: _Library, aliases: AliasTable) -> str | None:
    """How the module names the library's status error: its own import of the class, else the
    class through the imported package (`requests.HTTPError`); None when it imports neither."""
    qualified = {f"{home}.{library.status_class}" for home in library.homes}
    for local, target in sorted(aliases.aliases.items()):
        if target in qualified and "." not in local:
            return local
    for local, target in sorted(aliases.aliases.items()):
        if target in library.homes and "." not in local:
            return f"{local}.{library.status_class}"
    return None


def keep_caught_status(message: Message, handler: Handler) -> None:
    """The fix's message of a clause catching a status error, with the status it read (unless
    the author's words kept it already): "Could not get the balance (HTTP {e.response.status_code})"."""
    status = caught_status(handler)
    if status is not None and not any(
        isinstance(piece, Placeholder) and _STATUS_READ.search(piece.source) for part in message.parts for piece in part.pieces
    ):
        with_status(message, status)


def with_status(message: Message, status: str) -> bool:
    """` (HTTP {status})` after the message, inside its last sentence, in place of a label that
    only said "HTTP error" (the status says more); False when it cannot go there."""
    if not message.parts:
        return False
    last = message.parts[-1]
    if not last.pieces or not isinstance(last.pieces[-1], Text):
        last.pieces.append(Text("", True))
    end = last.pieces[-1]
    assert isinstance(end, Text)
    raw = _HTTP_LABEL.sub("", end.raw)
    stop = "." if raw.endswith(".") and not raw.endswith("..") else ""
    end.raw = raw[:-1] if stop else raw
    last.pieces.extend([Text(" (HTTP ", True), Placeholder(status), Text(")" + stop, True)])
    return True


# A placeholder reading a status already (`{e.response.status_code}`, `{status}`).
_STATUS_READ = lazy_compile(r"status|\.code\b")
# The label a message is left with when only the library's text followed it ("...: HTTP error").
_HTTP_LABEL = lazy_compile(r"(?i)[:,;]?\s*http(?: status)? error$")
