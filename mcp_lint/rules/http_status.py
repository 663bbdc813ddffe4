"""The HTTP status (or the OS's reason) a fix keeps when it drops a library error's text (issue 23).

`raise ApiError(f"Lookup failed: {e}")` around `response.raise_for_status()` sends the library's
text (the URL, the reason phrase); the fix drops it, but the status code is the one part of it the
model acts on (401: a wrong key, 404: a wrong id, 5xx: retry later) and holds no text of anyone.
A clause catching the status error keeps `(HTTP {e.response.status_code})` in its new message; a
broad clause whose `try` calls `raise_for_status()` gets a clause of its own for the status error
before it, in the module's own naming of the library, as a maintainer writes it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Collection

import libcst as cst

from mcp_lint.lazy_re import LazyPattern, lazy_compile
from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import CallFact
from mcp_lint.model.frameworks import FRAMEWORK_DOMAIN_ERRORS
from mcp_lint.model.library_tables import FOREIGN_BUILTIN_ERRORS
from mcp_lint.model.names import AliasTable, bound_name, last_name
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
    # Where a caught instance holds the API's own reason about the request, apart from its
    # body (`reason`: Google's "Invalid start time" about the model's own value; C2), if it does.
    reason: str | None = None

    @property
    def status_names(self) -> frozenset[str]:
        """The status error's qualified names, one per home (`requests.exceptions.HTTPError`)."""
        return frozenset(f"{home}.{self.status_class}" for home in self.homes)


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
    # API clients' own status errors: raised by any call of the client (no `raise_for_status()`
    # to see in the `try`), so only a clause catching them keeps their status (no broad classes).
    _Library("googleapiclient", "HttpError", "resp.status", frozenset(), ("googleapiclient.errors",), reason="reason"),
    _Library("openai", "APIStatusError", "status_code", frozenset(), ("openai",)),
    _Library("anthropic", "APIStatusError", "status_code", frozenset(), ("anthropic",)),
    _Library("kubernetes", "ApiException", "status", frozenset(), ("kubernetes.client", "kubernetes.client.rest", "kubernetes.client.exceptions")),
    _Library("github", "GithubException", "status", frozenset(), ("github", "github.GithubException")),
)


def caught_status(handler: Handler) -> str | None:
    """`e.response.status_code` when the clause catches only a status error (`except
    httpx.HTTPStatusError as e:`): where its status is; None otherwise."""
    library = _caught_library(handler)
    return f"{handler.name}.{library.status}" if library is not None else None


def _caught_reason(handler: Handler) -> str | None:
    """`e.reason` when the clause catches only a status error that carries the API's reason
    apart from its body (see _Library.reason); None otherwise."""
    library = _caught_library(handler)
    return f"{handler.name}.{library.reason}" if library is not None and library.reason else None


def _caught_library(handler: Handler) -> _Library | None:
    if not handler.name or len(handler.caught) != 1:
        return None
    return next((library for library in _LIBRARIES if handler.caught[0] in library.status_names), None)


@dataclass(frozen=True)
class StatusClause:
    caught: str  # the status error as the module names it (`requests.HTTPError`)
    status: str  # where the status is on the clause's exception (`e.response.status_code`)


def status_clause(handler: Handler, before: tuple[str, ...], aliases: AliasTable, *, through_helper: bool = False) -> StatusClause | None:
    """The clause to put before a broad `handler` whose `try` calls `raise_for_status()` of one
    library the module imports (or, `through_helper`, calls a function of the module that does,
    uncaught: the project's `_request()` around the API), when no earlier clause (`before`,
    qualified) catches its status error already; None otherwise (also when the module names
    none of that library)."""
    if not handler.name or not (through_helper or any(_raises_for_status(node) for node in descendants(handler.try_node.body))):
        return None
    found = [library for library in _LIBRARIES if set(handler.caught) & library.broad and _named(library, aliases) is not None]
    if len(found) != 1:
        return None  # no library, or two a bare `raise_for_status()` may belong to
    library = found[0]
    if library.status_names & set(before) or set(before) & library.broad:
        return None
    named = _named(library, aliases) or ""
    if _imported_in(handler.try_node.body, named.partition(".")[0]):
        # `import requests` inside the `try`: the added clause would name it before it is bound
        # on every path that fails above that import (UnboundLocalError inside the except).
        return None
    return StatusClause(named, f"{handler.name}.{library.status}")


def _imported_in(body: cst.CSTNode, name: str) -> bool:
    """Does `body` bind `name` by an import statement of its own?"""
    for node in descendants(body):
        if type(node) in (cst.Import, cst.ImportFrom) and type(node.names) is not cst.ImportStar:
            if any(bound_name(alias) == name for alias in node.names):
                return True
    return False


def raises_status_uncaught(body: cst.CSTNode) -> bool:
    """Does `body` (a helper's) call `raise_for_status()` outside every `try` of its own? Then a
    status error leaves it as the library raised it, for its caller's clause to read the status
    from. Any `try` around the call may turn it into something else: not counted."""
    return any(_uncaught_status(child) for child in body.children)


def _uncaught_status(node: cst.CSTNode) -> bool:
    if type(node) in (cst.Try, cst.TryStar):
        # Its body's status errors may be caught and turned into something else: not counted.
        rest = [*node.handlers, node.orelse, node.finalbody]
        return any(_uncaught_status(part) for part in rest if part is not None)
    if type(node) in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
        return False  # defined here, not run by calling the helper
    return _raises_for_status(node) or any(_uncaught_status(child) for child in node.children)


def _raises_for_status(node: cst.CSTNode) -> bool:
    return type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "raise_for_status"


def _named(library: _Library, aliases: AliasTable) -> str | None:
    """How the module names the library's status error: its own import of the class, else the
    class through the imported package (`requests.HTTPError`); None when it imports neither."""
    for local, target in sorted(aliases.aliases.items()):
        if target in library.status_names and "." not in local:
            return local
    for local, target in sorted(aliases.aliases.items()):
        if target in library.homes and "." not in local:
            return f"{local}.{library.status_class}"
    return None


def keep_caught_status(message: Message, handler: Handler) -> None:
    """The fix's message of a clause catching a status error, with the status it read (unless
    the author's words kept it already): "Could not get the balance (HTTP {e.response.status_code})"."""
    status = caught_status(handler)
    if status is not None and not _reads(message, _STATUS_READ):
        with_status(message, status)
        reason = _caught_reason(handler)
        if reason is not None and not _reads(message, _REASON_READ):
            # The API's reason about the request ("(HTTP 400: Invalid start time)"): what the
            # model corrects its own id or value by (C2; review 14 #11). Its text, not the body.
            _after_placeholder(message, status, [Text(": ", True), Placeholder(reason)])


def _after_placeholder(message: Message, source: str, pieces: list[Text | Placeholder]) -> None:
    for part in message.parts:
        for index, piece in enumerate(part.pieces):
            if isinstance(piece, Placeholder) and piece.source == source:
                part.pieces[index + 1 : index + 1] = pieces
                return


def with_status(message: Message, status: str) -> bool:
    """` (HTTP {status})` after the message, inside its last sentence, in place of a label that
    only said "HTTP error" (the status says more); False when it cannot go there."""
    _drop_label_before_details(message)
    return _in_parentheses(message, "HTTP ", status, _HTTP_LABEL)


def _drop_label_before_details(message: Message) -> None:
    """"Could not generate image: HTTP error (style: {style})": the label said only what the
    status now says, inside the same parentheses ("... (style: {style}, HTTP 422)"): it goes
    (review 14 #24)."""
    for part in message.parts:
        for here, after in zip(part.pieces, part.pieces[1:]):
            if isinstance(here, Text) and isinstance(after, Text) and after.raw.startswith(" (") and _STATUS_LABEL.search(here.raw):
                here.raw = _STATUS_LABEL.sub("", here.raw)


def keep_os_reason(message: Message, handler: Handler, file_io_only: bool = False) -> None:
    """The fix's message of a clause catching only OS errors, with the kind of error the OS
    reported (unless the author's words name it already): "Could not read {path}
    ({type(e).__name__})". Python picks the class from the errno (FileNotFoundError,
    PermissionError, IsADirectoryError, ConnectionRefusedError...): file not found and
    permission denied ask for different next calls. The class name holds no path and no one's
    text, is never None (`strerror` is, for an OSError built with a message alone) and is not
    the exception's text (`e.strerror` is: the label set counts it). Also for a broad clause
    (`except Exception as e:`) whose `try` only opens and reads or writes a file
    (`file_io_only`, see file_io_only): the class can only be the OS's (or a decode error's),
    so it says the same; around any other call it could be any class of any code."""
    if not handler.name or not (_os_errors_only(handler.caught) or file_io_only and catches_only_broad(handler.caught)):
        return
    if _reads(message, _OS_REASON_READ):
        return
    _in_parentheses(message, "", f"type({handler.name}).__name__", None)


def file_io_only(calls: list[CallFact], own: Collection[str]) -> bool:
    """Are `calls` (a `try` body's) the opening and reading or writing of a file and nothing that
    can fail on its own account: `open(path)` (or a path's `read_text()`...), the opened handle's
    `read()`/`write()`, building the path (`Path(arg)`, `os.path.join`)? Then whatever reaches the
    clause is the OS's error (or a decode error of the text read). `own`: the module's functions
    by qualified name (an `open` of its own is no builtin's)."""
    opened = False
    for call in calls:
        name = call.callee or ""
        func = call.node.func
        method = func.attr.value if type(func) is cst.Attribute else None
        builtin_open = type(func) is cst.Name and func.value == "open" and name not in own
        if name in _FILE_OPENERS or builtin_open or method in _PATH_FILE_METHODS:
            opened = True
        elif not (method in _HANDLE_METHODS or name in _PATH_BUILDERS or name.startswith("os.path.")):
            return False
    return opened


def starts_a_program(calls: list[CallFact]) -> bool:
    """Does a `try` body (its `calls`) start a program (`subprocess.run(argv)`, `Popen`,
    `asyncio.create_subprocess_exec`)? A broad clause around it keeps the class of what it caught,
    as one around file I/O does: a failed start is the OS's error (FileNotFoundError: no such
    program; PermissionError: not executable), a run past its timeout or exit check is the
    subprocess module's (TimeoutExpired, CalledProcessError), and each asks for a different
    command; any other class the body raises is named by its class alone, which holds no text."""
    return any((call.callee or "") in _PROGRAM_STARTS for call in calls)


# The standard library's ways of starting a program.
_PROGRAM_STARTS = frozenset(
    {
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
        "asyncio.create_subprocess_exec",
        "asyncio.create_subprocess_shell",
    }
)


# Calls that open a file, and a path's methods that open, read or write one in one call.
_FILE_OPENERS = frozenset({"open", "builtins.open", "io.open"})
_PATH_FILE_METHODS = frozenset({"read_text", "read_bytes", "write_text", "write_bytes"})
# An opened handle's reads and writes (their failures are the OS's, or a decode error's).
_HANDLE_METHODS = frozenset({"read", "readline", "readlines", "write", "writelines"})
_PATH_BUILDERS = frozenset({"pathlib.Path", "pathlib.PurePath", "str"})


def catches_only_broad(caught: tuple[str, ...]) -> bool:
    """`except Exception` / `except BaseException` (a bare clause binds no name)."""
    return bool(caught) and all(name in _BROAD for name in caught)


def keep_library_reason(message: Message, handler: Handler, aliases: AliasTable) -> None:
    """The fix's message of a clause catching only a third-party library's classes (`except
    DirectoryError as e:` around one client's call), with the class the library raised (unless
    the author's words name it already): "Could not get entry (dn: {dn}, {type(e).__name__})".
    A library's subclasses name its reasons (an invalid DN syntax, no such object, not found),
    which ask the model for different next calls; the name holds none of the text. Not for a
    status error (its status is kept instead), the builtin classes (`Exception` names nothing;
    OS errors have keep_os_reason), the standard library's, the project's own or a parse of the
    function's own argument (keep_the_decode_position's)."""
    if not handler.name or handler.parses_parameters or caught_status(handler) is not None:
        return
    if not handler.caught or not all(_library_class(name, aliases) for name in handler.caught):
        return
    if _reads(message, _OS_REASON_READ) or _reads(message, _STATUS_READ):
        return  # the author's words name the reason already (a status names it better)
    _in_parentheses(message, "", f"type({handler.name}).__name__", None)


def _library_class(name: str, aliases: AliasTable) -> bool:
    """A class of an imported third-party package (`ldap_lib.LDAPException`), as qualified."""
    if "." not in name or name.startswith("builtins.") or name in FRAMEWORK_DOMAIN_ERRORS:
        return False
    root = name.split(".")[0]
    if root in _STDLIB or root == aliases.module.split(".")[0] or last_name(name) in aliases.relative_names:
        return False
    if any(root == library.module and library.broad for library in _LIBRARIES):
        return False  # an HTTP transport's (httpx): the status names the reason (keep_caught_status)
    return last_name(name) not in {"ToolError", "McpError", "MCPError", "FastMCPError"}


_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))


def in_details(message: Message, lead: str, source: str) -> bool:
    """`({lead}{source})` after what failed, or inside the details a fix added there already."""
    return _in_parentheses(message, lead, source, None)


def _reads(message: Message, value: LazyPattern) -> bool:
    """Does a placeholder of the message read such a value already?"""
    return any(isinstance(piece, Placeholder) and value.search(piece.source) for part in message.parts for piece in part.pieces)


def _os_errors_only(caught: tuple[str, ...]) -> bool:
    """Does a clause catch only OSError or its builtin subclasses (whose class says what the
    OS reported)? Not a project's class of the same name: that one is qualified."""
    return bool(caught) and all(name in _OS_ERRORS for name in caught)


# The OS errors whose class names what the OS reported (the errno): the foreign builtin errors
# but those of timing and processes, whose class says no more than the message would.
_OS_ERRORS = (FOREIGN_BUILTIN_ERRORS - {"TimeoutError", "InterruptedError", "BlockingIOError", "ChildProcessError", "ProcessLookupError"}) | {
    "socket.error"
}


def _in_parentheses(message: Message, lead: str, source: str, label: LazyPattern | None) -> bool:
    """` ({lead}{source})` at the end of the message's first sentence (the one naming what failed;
    the author's advice after it stays after it), or at its end."""
    if not message.parts:
        return False
    if _into_details(message, lead, source):
        return True
    if _after_first_sentence(message, lead, source):
        return True
    last = message.parts[-1]
    if not last.pieces or not isinstance(last.pieces[-1], Text):
        last.pieces.append(Text("", True))
    end = last.pieces[-1]
    assert isinstance(end, Text)
    raw = label.sub("", end.raw) if label is not None else end.raw
    stop = "." if raw.endswith(".") and not raw.endswith("..") else ""
    end.raw = raw[:-1] if stop else raw
    last.pieces.extend([Text(" (" + lead, True), Placeholder(source), Text(")" + stop, True, closes_details=True)])
    return True


def _into_details(message: Message, lead: str, source: str) -> bool:
    """`, {lead}{source}` inside the parentheses a fix added already ("(path: {path},
    {type(e).__name__})"): one pair of details, not two side by side."""
    for part in message.parts:
        for index, piece in enumerate(part.pieces):
            if isinstance(piece, Text) and piece.closes_details:
                part.pieces[index:index] = [Text(", " + lead, True), Placeholder(source)]
                return True
    return False


def _after_first_sentence(message: Message, lead: str, source: str) -> bool:
    """Inserted before the first sentence's full stop when more words follow it ("Could not read
    {path} ({e.strerror}). Check the path."); False when the message is one sentence."""
    flat = [(part, index) for part in message.parts for index in range(len(part.pieces))]
    for at, (part, index) in enumerate(flat):
        piece = part.pieces[index]
        if not isinstance(piece, Text):
            continue
        stop = _SENTENCE_END.search(piece.raw)
        if stop is None:
            continue
        rest = piece.raw[stop.end() :] + "".join(p.raw if isinstance(p, Text) else "x" for q, i in flat[at + 1 :] for p in [q.pieces[i]])
        if not rest.strip():
            return False  # the stop ends the message: it is one sentence
        head, tail = piece.raw[: stop.start()], piece.raw[stop.start() :]
        part.pieces[index : index + 1] = [
            Text(head, piece.braces_escaped),
            Text(" (" + lead, True),
            Placeholder(source),
            Text(")" + tail, piece.braces_escaped, closes_details=True),
        ]
        return True
    return False


# A sentence's full stop (not an ellipsis, not a dot inside a name or number).
_SENTENCE_END = lazy_compile(r"(?<!\.)[.!?](?=\s|$)")


# A placeholder naming what the OS reported already (`{e.strerror}`, `{e.errno}`, `{type(e).__name__}`).
_OS_REASON_READ = lazy_compile(r"strerror|errno|__name__|__class__")
# A placeholder reading the API's reason already (`{e.reason}`, `{e._get_reason()}`).
_REASON_READ = lazy_compile(r"reason")
# A placeholder reading a status already (`{e.response.status_code}`, `{status}`).
_STATUS_READ = lazy_compile(r"status|\.code\b")
# A label that, once the text after it is gone, says only that a request failed: ": HTTP error",
# ": calendar API error" (the status and reason after it say more).
_STATUS_LABEL = lazy_compile(r"(?i)[:,;]\s*(?:[a-z0-9]+\s+)?(?:http|api)(?: status)? error$")
# The label a message is left with when only the library's text followed it ("...: HTTP error").
_HTTP_LABEL = lazy_compile(r"(?i)[:,;]?\s*http(?: status)? error$")
