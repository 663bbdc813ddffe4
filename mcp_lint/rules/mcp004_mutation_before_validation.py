"""MCP004 mutation-before-validation: a tool mutates state, then rejects the call.

One pass over a function body (in source order, into `if`/`with`/`try`/loops/`match`, not into
`except` clauses or nested scopes) lists its steps: mutations, calls of project helpers that may
mutate or validate (decided at link time from the helpers' summaries), checks that reject the call
(`if`/`elif`/`else` that raise or return a failure, `assert`, `case`), and assignments. For each
candidate first mutation, the steps after it are replayed with a small taint set (the mutation's
own result, what it changed, and names assigned from those): a check reading the taint is a
post-check on the mutation; the first other check that can run after the mutation is the defect.
The finding sits on the mutation (where the harm is done); the message names the check's line.
"""

from __future__ import annotations

import builtins
import re
import sys
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Iterator, Sequence

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.model.facts import FunctionFacts, branch_name
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.names import AliasTable, dotted, last_name
from mcp_lint.model.summary import Latent
from mcp_lint.model.walk import children
from mcp_lint.rules.base import (
    Example,
    FileContext,
    RenderContext,
    Rendered,
    Rule,
    indent_of,
    latent_fix,
    walk,
)
from mcp_lint.rules.results import classify_return, is_error_result
from mcp_lint.rules.text import is_failure_text

_SQL_WRITE = re.compile(r"^\s*(?:insert|update|delete|replace|merge|upsert|create|drop|alter|truncate)\b", re.I)
_HTTP_WRITE = frozenset({"post", "put", "patch", "delete"})
_WRITE_VERBS = frozenset(
    {
        "create", "update", "delete", "remove", "insert", "upsert", "put", "post", "patch", "send", "upload",
        "write", "save", "commit", "publish", "enqueue", "submit", "transfer", "charge", "refund", "cancel",
        "drop", "destroy", "archive", "move", "rename", "set", "add", "execute_write", "modify", "overwrite",
        "purge", "truncate", "revoke", "invite", "kick", "ban", "assign", "unassign", "merge", "close", "reopen",
        "push", "pull", "checkout", "revert", "rebase",
    }
)
# Verbs that are also what dicts, sets and lists do: a write only on shared state or on a handle
# that looks like a store (`collection.add(...)`), never on a local container.
_AMBIGUOUS_VERBS = frozenset({"add", "set", "update", "remove", "move", "insert", "merge", "close", "assign"})
# A receiver looks like a store when its name ends in one of these words (`chroma_collection`,
# `redis_client`, `kv`; not `client_config`).
_STORE_WORDS = frozenset(
    {"collection", "collections", "table", "index", "store", "repo", "repository", "bucket", "queue", "database",
     "db", "registry", "graph", "vector", "vectors", "client", "redis", "kv"}
)


def _store_like(name: str) -> bool:
    words = _words(name)
    return bool(words) and words[-1] in _STORE_WORDS
_SAFE_RECEIVERS = frozenset({"logger", "logging", "log", "ctx", "context", "self.logger", "self.log", "print", "console", "st", "sys.stdout", "sys.stderr"})
_FILE_WRITES = frozenset(
    {
        "os.remove", "os.unlink", "os.rmdir", "os.removedirs", "os.rename", "os.replace", "os.makedirs", "os.mkdir",
        "os.system", "shutil.rmtree", "shutil.move", "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree",
        "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
        "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "requests.post", "requests.put",
        "requests.patch", "requests.delete", "httpx.post", "httpx.put", "httpx.patch", "httpx.delete",
    }
)
_FILE_WRITE_NAMES = frozenset(last_name(n) for n in _FILE_WRITES)

# Which positional arguments of a file operation name what it changes (the source of a copy is
# only read).
_CHANGED_ARGS = {"shutil.copy": (1,), "shutil.copy2": (1,), "shutil.copyfile": (1,), "shutil.copytree": (1,), "shutil.move": (0, 1), "os.rename": (0, 1), "os.replace": (0, 1)}
_PATH_WRITES = frozenset({"write_text", "write_bytes", "unlink", "rmdir", "touch", "mkdir", "rename", "replace", "symlink_to"})
_CONTAINER_WRITES = frozenset({"append", "extend", "insert", "pop", "clear", "update", "setdefault", "add", "discard", "remove", "popitem"})
# Ending a long-lived connection or process held by the object or the module.
_CLOSE_METHODS = frozenset({"close", "disconnect", "shutdown", "terminate", "kill", "stop", "aclose"})
_NOTIFY = re.compile(r"^send_(?:log|progress|notification|ping|resource|tool_list|prompt_list|request)", re.I)
# Module-level containers that only remember work (caches, in-flight maps, locks): writing them
# before a rejection leaves nothing the user or a retry would see.
_BOOKKEEPING = re.compile(r"cache|memo|inflight|in_flight|lock|seen|visited", re.I)
_HTTP_RECEIVER = re.compile(r"client|session|http|api|requests|httpx", re.I)
# Every function or method name the tables above can match, for a quick first look at a call.
_NAMED_MUTATIONS = (
    frozenset({"open", "execute", "executemany", "executescript", "commit"})
    | _HTTP_WRITE
    | _PATH_WRITES
    | _CLOSE_METHODS
    | _CONTAINER_WRITES
)
_REQUEST_WRAPPER = re.compile(r"request|call|api|http|fetch|send", re.I)
_PURE_CALLS = frozenset(
    {
        "len", "isinstance", "str", "int", "float", "bool", "any", "all", "min", "max", "abs", "sorted", "set", "list",
        "tuple", "dict", "type", "getattr", "hasattr", "re.match", "re.fullmatch", "re.search", "os.getenv",
        "os.environ.get", "callable", "round", "sum",
    }
)
_PURE_METHODS = frozenset({"decode", "encode", "join", "casefold", "strip", "lower", "upper", "isdigit", "isalnum", "isalpha", "startswith", "endswith", "match", "fullmatch", "search", "get", "keys", "values", "items", "count", "split", "lstrip", "rstrip", "isidentifier", "isnumeric"})
_CONSTANTS = frozenset({"None", "True", "False"})
_MAX_CANDIDATES = 4  # helper calls tried as the first mutation, and helper checks after one


# -- what mutates ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MutationKind:
    description: str
    changed: tuple[str, ...] = ()  # dotted names of what it changes (receiver, path arguments)
    result_is_outcome: bool = True  # False for get-or-create: the result is the existing object


_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


@lru_cache(maxsize=4096)
def _words(method: str) -> tuple[str, ...]:
    """`chat_postMessage` -> ("chat", "post", "message"): snake and camel case words."""
    return tuple(w.lower() for part in method.split("_") for w in _WORD.findall(part) if w)


@lru_cache(maxsize=4096)
def _verb_of(method: str) -> str | None:
    """The write verb a method name starts with, also after an API namespace (`files_upload`)."""
    if method.startswith("get_or_create"):
        return "get_or_create"
    words = _words(method)
    if not words:
        return None
    if words[0] in _WRITE_VERBS:
        return words[0]
    if len(words) > 1 and "_" in method and words[1] in _WRITE_VERBS - _AMBIGUOUS_VERBS and words[0] not in {"get", "list", "read", "fetch", "find", "search", "is", "has", "can", "check", "validate", "to", "as", "build", "make", "format", "parse"}:
        return words[1]  # Slack-style `chat_postMessage`, `files_upload`
    return None


def _chain(expr: cst.BaseExpression) -> str | None:
    """Dotted name of `a.b`; the root name of `A[k].b` ("A": what an item write changes);
    None for `f(x).y`."""
    name = dotted(expr)
    if name is not None:
        return name
    base = expr
    while isinstance(base, (cst.Subscript, cst.Attribute)):
        base = base.value
    return base.value if isinstance(base, cst.Name) else None


def mutation_of(call: cst.Call, aliases: AliasTable, module_names: set[str], local_containers: frozenset[str] = frozenset()) -> MutationKind | None:
    """What a call mutates, or None when it does not look like a mutation."""
    func = call.func
    last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if not _may_name_a_mutation(last):
        return None  # most calls: `len`, `logger.info`, `data.get`
    name = dotted(call.func) or ""
    # Resolving through the imports costs; only a name ending like a listed operation needs it.
    resolved = (aliases.resolve(call.func) or name) if last_name(name) in _FILE_WRITE_NAMES else name
    if resolved in _FILE_WRITES or name in _FILE_WRITES:
        key = resolved if resolved in _FILE_WRITES else name
        if "subprocess" in key or key == "os.system":
            return MutationKind("runs a subprocess")
        if key.split(".")[0] in {"requests", "httpx"}:
            return MutationKind(f"sends an HTTP {last_name(key).upper()}")
        return MutationKind(f"changes files ({last_name(key)})", _argument_chains(call, _CHANGED_ARGS.get(key, (0,))))
    if name == "open" and len(call.args) >= 2:
        mode = literal_text(call.args[1].value) if call.args[1].keyword is None else None
        # "a" alone appends nothing until something is written through the handle (which is
        # then the mutation); a writability probe `with open(p, "a"): pass` changes nothing.
        if mode and any(c in mode for c in "wx+"):
            return MutationKind("writes a file", _argument_chains(call, (0,)))
        return None
    verb_call = _verb_as_string(call)
    if verb_call is not None:
        return verb_call
    if not isinstance(call.func, cst.Attribute):
        return None
    method = call.func.attr.value
    receiver = _chain(call.func.value) or ""
    root = receiver.split(".")[0]
    if receiver in _SAFE_RECEIVERS or root in {"logger", "logging", "log", "ctx", "context"}:
        return None
    changed = (receiver,) if receiver else ()
    if method in {"execute", "executemany", "executescript"} and call.args:
        sql = literal_text(call.args[0].value)
        if sql is not None and _SQL_WRITE.search(sql):
            return MutationKind(f"writes to the database ({sql.split()[0].upper()})", changed)
        return None
    if method == "commit":
        return MutationKind("commits a database transaction", changed)
    if method in _HTTP_WRITE and receiver and _HTTP_RECEIVER.search(receiver.split(".")[-1]):
        return MutationKind(f"sends an HTTP {method.upper()}", changed)
    if method in _PATH_WRITES and not isinstance(call.func.value, (cst.SimpleString, cst.FormattedString)):
        if method == "replace" and len(call.args) != 1:
            return None  # str.replace(old, new); Path.replace(target) takes one argument
        if method in {"replace", "rename"} and any(a.keyword is not None and a.keyword.value != "target" for a in call.args):
            return None  # `when.replace(tzinfo=utc)`, `frame.rename(columns=...)`: a new value, no file moved
        return MutationKind(f"changes files ({method})", changed)
    shared = root in module_names or (root in {"self", "cls"} and "." in receiver)
    if method in _CLOSE_METHODS and shared:
        return MutationKind(f"closes {receiver}", changed)
    if method in _CONTAINER_WRITES and root in module_names and root not in local_containers and not _BOOKKEEPING.search(root):
        return MutationKind(f"changes module-level state ({receiver}.{method})", changed)
    verb = _verb_of(method)
    if verb is None or receiver in {"", "self", "cls"}:
        return None
    if verb in _AMBIGUOUS_VERBS and receiver in local_containers:
        return None  # `report.add_error(...)` on a value this function built (_fresh_objects)
    if verb == "get_or_create":
        return MutationKind(f"calls {receiver}.{method}()", changed, result_is_outcome=False)
    if root in _stdlib_roots(aliases) or _NOTIFY.match(method) or receiver.split(".")[-1] in {"executor", "pool", "loop", "parser", "subparsers"}:
        return None  # asyncio.create_task, executor.submit, session.send_log_message: no state
    if method.lower() in _AMBIGUOUS_VERBS or method in _CONTAINER_WRITES:
        # `seen.add(x)` is bookkeeping; `collection.add(...)` on a store handle is a write.
        last = receiver.split(".")[-1]
        if root in local_containers or not _store_like(last):
            return None
    return MutationKind(f"calls {receiver}.{method}()", changed)


@lru_cache(maxsize=8192)
def _may_name_a_mutation(last: str) -> bool:
    """Can a call whose function is named `last` be one of the mutations below?"""
    return (
        last in _FILE_WRITE_NAMES
        or last in _NAMED_MUTATIONS
        or bool(_REQUEST_WRAPPER.search(last))
        or _verb_of(last) is not None
    )


def _verb_as_string(call: cst.Call) -> MutationKind | None:
    """`self._request("PATCH", url)`, `client.request("DELETE", url)`, `api_call(method="POST")`."""
    func = last_name(dotted(call.func) or "")
    if not func or not _REQUEST_WRAPPER.search(func):
        return None
    for argument in call.args[:1] if call.args and call.args[0].keyword is None else ():
        verb = literal_text(argument.value)
        if verb and verb.lower() in _HTTP_WRITE:
            return MutationKind(f"sends an HTTP {verb.upper()}")
    for argument in call.args:
        if argument.keyword is not None and argument.keyword.value in {"method", "http_method", "verb"}:
            verb = literal_text(argument.value)
            if verb and verb.lower() in _HTTP_WRITE:
                return MutationKind(f"sends an HTTP {verb.upper()}")
    return None


_STDLIB_ROOTS: weakref.WeakKeyDictionary[AliasTable, frozenset[str]] = weakref.WeakKeyDictionary()


def _stdlib_roots(aliases: AliasTable) -> frozenset[str]:
    """Local names of imported standard-library modules (`asyncio`, `os`): their verbs are not
    the project's state (the file operations among them are listed in _FILE_WRITES). Once per
    module: its imports are all known when the rules run."""
    roots = _STDLIB_ROOTS.get(aliases)
    if roots is None:
        roots = _STDLIB_ROOTS[aliases] = frozenset(
            local for local, qual in aliases.aliases.items() if qual.split(".")[0] in sys.stdlib_module_names
        )
    return roots


# Marks a path a file operation changed: `if not dst.endswith(".md")` reads the name, not the
# file; only a call given the name (`os.path.exists(dst)`, `load(dst)`) reads what changed.
FILE = "\x00"


def _argument_chains(call: cst.Call, positions: tuple[int, ...]) -> tuple[str, ...]:
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    out = []
    for index in positions:
        if index < len(positional):
            out.extend(FILE + r for r in _reads(positional[index]))
    return tuple(out)


def _reads_and_files(node: cst.CSTNode) -> list[str]:
    """`_reads`, plus FILE-marked names passed to calls (what they may open)."""
    out = _reads(node)
    for inner in walk(node):
        if isinstance(inner, cst.Call):
            out.extend(FILE + r for a in inner.args for r in _reads(a.value))
    return out


def module_level_names(module: cst.Module) -> set[str]:
    """Names bound by assignments at module level: state shared by every call of a tool."""
    names: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            names.add(target.target.value)
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.add(small.target.value)
    return names


def _module_names(ctx: FileContext) -> set[str]:
    names = ctx.memo.get("module_names")
    if names is None:
        names = ctx.memo["module_names"] = module_level_names(ctx.module) | {n.split(".")[-1] for n in ctx.model.servers}
    return names  # type: ignore[return-value]


# -- reading names -----------------------------------------------------------------------------


def _reads(node: cst.CSTNode) -> list[str]:
    """Dotted names an expression reads (`self.conn`, `args`, `x` of `x[k]`), outermost chains."""
    out: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (cst.Name, cst.Attribute)):
            chain = dotted(current)
            if chain is not None:
                if chain not in _CONSTANTS:
                    out.append(chain)
                continue
            if isinstance(current, cst.Attribute):
                stack.append(current.value)  # f(x).y: read f(x)
                continue
        if isinstance(current, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            continue
        if isinstance(current, cst.Arg):
            stack.append(current.value)  # not the keyword's name
            continue
        stack.extend(children(current))
    return out


def _data_reads(nodes: Sequence[cst.CSTNode], modules: frozenset[str]) -> tuple[list[str], bool]:
    """The names whose values an expression uses, and whether it calls anything: `_reads`
    without the functions it calls (`time_left()`, `platform.system()` use no data; the
    receiver of `title.strip()` is data)."""
    out: list[str] = []
    calls = False
    stack = list(nodes)
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Call):
            calls = True
            func = current.func
            if isinstance(func, cst.Attribute):
                receiver = dotted(func.value)
                if receiver is None or receiver.split(".")[0] not in modules:
                    stack.append(func.value)
            stack.extend(a.value for a in current.args)
            continue
        if isinstance(current, (cst.Name, cst.Attribute)):
            out.extend(_reads(current))
            continue
        if isinstance(current, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            continue
        stack.extend(children(current))
    return out, calls


class _Reads:
    """What some expressions read, computed on first use: most functions never have a
    mutation before a check, so most steps are never asked."""

    __slots__ = ("_nodes", "_files", "_extra", "_value")

    def __init__(self, nodes: Sequence[cst.CSTNode], files: bool = False, extra: Sequence[str] = ()) -> None:
        self._nodes = nodes
        self._files = files
        self._extra = extra
        self._value: list[str] | None = None

    def get(self) -> list[str]:
        if self._value is None:
            read = _reads_and_files if self._files else _reads
            self._value = [r for node in self._nodes for r in read(node)] + list(self._extra)
        return self._value


def _overlaps(read: str, tainted: set[str]) -> bool:
    """`self.conn.cursor` reads `self.conn`; `self._token` does not read `self.conn`."""
    if read in tainted:
        return True
    parts = read.split(".")
    for cut in range(1, len(parts)):
        if ".".join(parts[:cut]) in tainted:
            return True
    prefix = read + "."
    return any(t.startswith(prefix) for t in tainted)


def _targets(target: cst.BaseExpression) -> list[str]:
    """What an assignment target binds or changes: `x`, `(a, b)`, `self.x`, `X` of `X[k]`."""
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for el in target.elements for n in _targets(el.value)]
    if isinstance(target, cst.StarredElement):
        return _targets(target.value)
    chain = _chain(target)
    return [chain] if chain else []


# -- the steps of a function -------------------------------------------------------------------


@dataclass
class _Assign:
    targets: list[str]
    reads: _Reads
    value: cst.CSTNode | None = None  # for the data it reads (see _data_reads)
    _data: tuple[list[str], bool] | None = None

    def data_reads(self, modules: frozenset[str]) -> tuple[list[str], bool]:
        if self._data is None:
            self._data = _data_reads([self.value], modules) if self.value is not None else (list(self.reads.get()), False)
        return self._data


@dataclass
class _Step:
    """One statement (or `if` test, `with` item, `else`/`case` branch) in source order."""

    node: cst.CSTNode  # where a finding on this step is reported
    statement: cst.CSTNode  # its statement (noqa, excerpt, fix)
    path: tuple[int, ...]  # ids of the blocks it is in, outermost first
    assigns: list[_Assign] = field(default_factory=list)
    mutation: MutationKind | None = None
    mutation_node: cst.CSTNode | None = None
    helper_calls: list[tuple[str, cst.Call]] = field(default_factory=list)  # (callee, call)
    changed: list[str] = field(default_factory=list)  # what its mutations change
    check_reads: _Reads | None = None  # a rejecting check: what its condition reads
    check_tests: Sequence[cst.CSTNode] = ()  # its conditions (must be pure to count)
    validator: tuple[str, _Reads] | None = None  # (callee, names its arguments read)
    branch: str | None = None


@dataclass
class _Block:
    owner: int  # id of the compound statement
    exclusive: bool  # one of several branches (if/elif/else, case)
    terminates: bool  # ends with return/raise: nothing after it runs
    guard: _Reads | None = None  # what decides whether (or how often) it runs


class _Steps:
    """Collects the steps of one function body."""

    def __init__(self, fn: FunctionFacts, ctx: FileContext, module_names: set[str]) -> None:
        self.fn = fn
        self.ctx = ctx
        self.aliases = ctx.model.aliases
        self.module_names = module_names
        self.steps: list[_Step] = []
        self.blocks: dict[int, _Block] = {}
        self.conditions: list[cst.BaseExpression] = []
        self.globals: set[str] = set()
        self.local_containers: set[str] = set()
        # What each call of the function may do, from the facts' list of calls: a mutation, a
        # project helper that may mutate (its qualified name), a helper that may validate.
        self.kinds: dict[int, MutationKind | str] = {}
        self.validators: dict[int, str] = {}
        self.by_statement: dict[int, list[cst.Call]] = {}
        for call in fn.calls:
            if call.handler is None and call.statement is not None:
                self.by_statement.setdefault(id(call.statement), []).append(call.node)
        # Nothing before the statement of the first call that may mutate matters (the facts list
        # calls in source order): steps start there. None: from the top (item or global writes,
        # which are not calls, may come first).
        self.start: int | None = None
        self.active = True
        self.modules = frozenset(self.aliases.aliases)  # imported names: calls on them are not data

    def start_at_first_candidate(self) -> None:
        for call in self.fn.calls:
            if call.handler is None and call.statement is not None and id(call.node) in self.kinds:
                self.start, self.active = id(call.statement), False
                return

    # blocks
    def block(self, body: cst.BaseSuite, path: tuple[int, ...], owner: cst.CSTNode, exclusive: bool, guard: _Reads | None = None) -> None:
        statements = body.body if isinstance(body, cst.IndentedBlock) else ()
        inner = (*path, id(body))
        self.blocks[id(body)] = _Block(id(owner), exclusive, _terminates(body), guard)
        if isinstance(body, cst.SimpleStatementSuite):
            self.simple(body.body, body, inner)  # type: ignore[arg-type]
            return
        for stmt in statements:
            self.statement(stmt, inner)

    def statement(self, stmt: cst.BaseStatement, path: tuple[int, ...]) -> None:
        if isinstance(stmt, cst.SimpleStatementLine):
            self.simple(stmt.body, stmt, path)
        elif isinstance(stmt, cst.If):
            self.if_chain(stmt, path, [])
        elif isinstance(stmt, (cst.For, cst.While)):
            step = self.expression_step(stmt.iter if isinstance(stmt, cst.For) else stmt.test, stmt, path)
            if isinstance(stmt, cst.For):
                step.assigns.append(_Assign(_targets(stmt.target), _Reads([stmt.iter], files=True)))
            guard = _Reads([stmt.iter if isinstance(stmt, cst.For) else stmt.test])
            self.block(stmt.body, path, stmt, False, guard)
            if stmt.orelse is not None:
                self.block(stmt.orelse.body, path, stmt, False, guard)
        elif isinstance(stmt, cst.With):
            for item in stmt.items:
                step = self.expression_step(item.item, stmt, path)
                if item.asname is not None:
                    step.assigns.append(_Assign(_targets(item.asname.name), _Reads([item.item], files=True)))
            self.block(stmt.body, path, stmt, False)
        elif isinstance(stmt, (cst.Try, cst.TryStar)):
            # `except` clauses react to a failure: a raise there is not a check, a cleanup there
            # is not the mutation that came first.
            self.block(stmt.body, path, stmt, False)
            if stmt.orelse is not None:
                self.block(stmt.orelse.body, path, stmt, False)
            if stmt.finalbody is not None:
                self.block(stmt.finalbody.body, path, stmt, False)
        elif isinstance(stmt, cst.Match):
            self.expression_step(stmt.subject, stmt, path)
            for case in stmt.cases:
                if self.active and _rejects(case.body, self.ctx):
                    step = _Step(case, case, (*path, id(case.body)))
                    step.check_reads = _Reads([stmt.subject], files=True)
                    self.steps.append(step)
                self.block(case.body, path, stmt, True, _Reads([stmt.subject]))

    def if_chain(self, stmt: cst.If, path: tuple[int, ...], earlier_tests: list[cst.BaseExpression]) -> None:
        step = self.expression_step(stmt.test, stmt, path)
        tests = [*earlier_tests, stmt.test]
        if self.active and _rejects(stmt.body, self.ctx):
            step.check_reads = _Reads(tests, files=True)
            step.check_tests = tests
        guard = _Reads([stmt.test])
        self.conditions.append(stmt.test)
        self.block(stmt.body, path, stmt, True, guard)
        self.conditions.pop()
        if isinstance(stmt.orelse, cst.If):
            # `elif`: a block of the outer `if`, holding the inner one.
            orelse = stmt.orelse
            self.blocks[id(orelse)] = _Block(id(stmt), True, False, guard)
            self.conditions.append(cst.UnaryOperation(cst.Not(), stmt.test))
            self.if_chain(orelse, (*path, id(orelse)), tests)
            self.conditions.pop()
        elif isinstance(stmt.orelse, cst.Else):
            self.conditions.append(cst.UnaryOperation(cst.Not(), stmt.test))
            if self.active and _rejects(stmt.orelse.body, self.ctx):
                check = _Step(stmt.orelse, stmt.orelse, (*path, id(stmt.orelse.body)))
                check.check_reads = _Reads(tests, files=True)
                check.check_tests = tests
                self.steps.append(check)
            self.block(stmt.orelse.body, path, stmt, True, guard)
            self.conditions.pop()

    def expression_step(self, expr: cst.BaseExpression, owner: cst.CSTNode, path: tuple[int, ...]) -> _Step:
        step = _Step(expr, owner, path)
        if not self.active and id(owner) == self.start:
            self.active = True
        if self.active:  # before the first candidate a step is built but not kept
            self.calls(owner, step)
            self.steps.append(step)
        return step

    def simple(self, smalls: Sequence[cst.BaseSmallStatement], statement: cst.CSTNode, path: tuple[int, ...]) -> None:
        if not self.active:
            if id(statement) != self.start:
                return
            self.active = True
        for small in smalls:
            step = _Step(small, statement, path)
            if isinstance(small, cst.Global):
                self.globals.update(n.name.value for n in small.names)
            elif isinstance(small, cst.Assert):
                step.check_reads = _Reads([small.test], files=True)
                step.check_tests = (small.test,)
            elif isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                self.assignment(small, step)
            elif isinstance(small, cst.Del):
                for target in _targets(small.target):
                    self.state_write(step, small, target, f"del {target}[...]")
            self.calls(statement, step)
            self.validator(small, step)
            self.steps.append(step)

    def assignment(self, small: cst.Assign | cst.AnnAssign | cst.AugAssign, step: _Step) -> None:
        targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
        value = small.value
        names = [n for t in targets for n in _targets(t)]
        extra = names if isinstance(small, cst.AugAssign) else ()
        step.assigns.append(_Assign(names, _Reads([value] if value is not None else [], files=True, extra=extra), value if not extra else None))
        if value is not None and _is_container_literal(value):
            self.local_containers.update(n for n in names if "." not in n)
        for target in targets:
            if isinstance(target, cst.Subscript):
                for name in _targets(target):
                    self.state_write(step, small, name, f"{name}[...]")
            elif isinstance(target, cst.Name) and target.value in self.globals and isinstance(small, cst.AugAssign):
                # `COUNTER += 1` changes shared state; `_client = Client()` is lazy set-up.
                self.state_write(step, small, target.value, target.value)

    def state_write(self, step: _Step, node: cst.CSTNode, name: str, label: str) -> None:
        root = name.split(".")[0]
        if root in self.module_names and root not in self.local_containers and root not in self.fn.params and not _BOOKKEEPING.search(root):
            self.mutate(step, MutationKind(f"changes module-level state ({label})", (name,)), node)

    def mutate(self, step: _Step, kind: MutationKind, node: cst.CSTNode) -> None:
        if step.mutation is None:
            step.mutation, step.mutation_node = kind, node
            step.branch = branch_name(self.conditions)
        step.changed.extend(kind.changed)

    def calls(self, statement: cst.CSTNode, step: _Step) -> None:
        """The calls the facts found in `statement` (taken by its first step)."""
        kinds = self.kinds
        for inner in self.by_statement.pop(id(statement), ()):
            kind = kinds.get(id(inner))
            if isinstance(kind, MutationKind):
                self.mutate(step, kind, inner)
            elif isinstance(kind, str):
                step.helper_calls.append((kind, inner))
                if step.branch is None:
                    step.branch = branch_name(self.conditions)
            elif isinstance(inner.func, cst.Attribute) and inner.func.attr.value in _CONTAINER_WRITES:
                base = _chain(inner.func.value)
                if base:  # `lines.append(x)` changes `lines`
                    step.assigns.append(_Assign([base], _Reads([inner], extra=(base,))))

    def validator(self, small: cst.BaseSmallStatement, step: _Step) -> None:
        """`validate(x)` / `y = self._resolve(x)` as a statement of its own: a check when the
        linker finds that the helper rejects its arguments."""
        value: cst.BaseExpression | None = None
        if isinstance(small, cst.Expr):
            value = small.value
        elif isinstance(small, (cst.Assign, cst.AnnAssign)):
            value = small.value
        while isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Call) and step.mutation is None:
            callee = self.validators.get(id(value))
            if callee is not None:
                step.validator = (callee, _Reads([a.value for a in value.args], files=True))


_BUILTINS = frozenset(dir(builtins))


# Project helpers tried as the mutation: those named for doing something (`save_doc`,
# `_apply_changes`, `switch`), not for reading or computing (`get_client`, `format_row`: a getter
# that fills a cache is no change the user sees). Classes (constructors) are not tried either.
_DOER_VERBS = _WRITE_VERBS | frozenset(
    {
        "apply", "replace", "switch", "store", "persist", "sync", "push", "import", "install", "run", "exec",
        "execute", "deploy", "register", "unregister", "reset", "clear", "restore", "copy", "convert", "export",
        "process", "handle", "do", "perform", "mark", "toggle", "enable", "disable", "start", "restart", "trigger",
        "schedule", "record", "append", "attach", "detach", "link", "unlink", "approve", "reject", "edit", "change",
        "migrate", "ensure", "make", "generate", "insert", "replace", "remove", "clean", "cleanup", "reindex", "index",
    }
)


def _is_doer(name: str) -> bool:
    words = _words(name)
    return bool(words) and not name.lstrip("_")[:1].isupper() and words[0] in _DOER_VERBS


def classify_calls(steps: _Steps, fn: FunctionFacts, ctx: FileContext) -> bool:
    """Fill `steps.kinds`/`steps.validators` from the function's calls; False when nothing in
    the function can mutate (then there is nothing to report)."""
    aliases = ctx.model.aliases
    # Local containers matter only where they shadow shared state or look like a store.
    locals_ = frozenset(
        n
        for n, v in fn.single_assignments.items()
        if (n in steps.module_names or _store_like(n)) and _is_container_literal(v)
    ) | _fresh_objects(fn)
    known = _known_names(ctx)
    any_mutation = fn.has_item_assignment
    first = ""
    for call in fn.calls:
        if call.handler is not None:
            continue  # `except` clauses are not walked
        kind = mutation_of(call.node, aliases, steps.module_names, locals_)
        if kind is not None:
            steps.kinds[id(call.node)] = kind
            any_mutation = True
            first = first or kind.description
            continue
        callee = _project_callee(call.node, call.callee, aliases, known)
        if callee is None:
            continue
        steps.validators[id(call.node)] = callee
        if _is_doer(last_name(callee)) and _may_mutate(callee, ctx, steps.module_names):
            steps.kinds[id(call.node)] = callee
            any_mutation = True
    # function_effects reads it back instead of classifying the calls a second time.
    ctx.memo.setdefault("first_mutation", {})[id(fn)] = first  # type: ignore[union-attr]
    return any_mutation


def _fresh_objects(fn: FunctionFacts) -> frozenset[str]:
    """Locals this function builds from a class (`result = ValidationResult(...)`) that is no
    store or API handle: `result.add_error(...)` fills in a value nobody else holds yet, while
    `client = TodoClient(); client.add_task(...)` and `api = Github(); ...` stay writes."""
    own = fn.local_names.difference(fn.params)
    return frozenset(
        name
        for name, made_by in fn.local_types.items()
        if name in own and last_name(made_by)[:1].isupper() and not _handle_like(name) and not _handle_like(last_name(made_by))
    )


# Words that name a handle on something outside the process (`TaskService`, `db_session`).
_HANDLE_WORDS = frozenset({"service", "manager", "gateway", "connection", "conn", "driver", "adapter", "provider", "backend", "server", "bot", "sdk"})


def _handle_like(name: str) -> bool:
    words = _words(name)
    return _store_like(name) or bool(_HTTP_RECEIVER.search(name)) or any(word in _HANDLE_WORDS for word in words)


def _may_mutate(callee: str, ctx: FileContext, module_names: set[str]) -> bool:
    """False for a function of this module that neither mutates nor calls anything that could:
    the linker would find nothing, so no finding is prepared for it."""
    facts = ctx.model.functions.get(callee)
    if facts is None:
        return True  # in another module (or a method found through an instance): ask the linker
    memo: dict[str, bool] = ctx.memo.setdefault("may_mutate", {})  # type: ignore[assignment]
    if callee not in memo:
        memo[callee] = True  # recursion: assume it may
        known = _known_names(ctx)
        memo[callee] = bool(facts.has_item_assignment and _state_write_in(facts, module_names)) or any(
            c.handler is None
            and (
                mutation_of(c.node, ctx.model.aliases, module_names) is not None
                or (
                    (inner := _project_callee(c.node, c.callee, ctx.model.aliases, known)) is not None
                    and inner != callee
                    and _may_mutate(inner, ctx, module_names)
                )
            )
            for c in facts.calls
        )
    return memo[callee]


def _project_callee(call: cst.Call, callee: str | None, aliases: AliasTable, known: set[str]) -> str | None:
    """The qualified name of a call that may be one of the project's own functions: a plain name
    defined or imported here, or a method of `self`, an import or a module-level instance
    (`known` holds the names defined, imported or assigned at module level)."""
    name = dotted(call.func)
    if name is None or callee is None:
        return None
    root = name.split(".")[0]
    if "." not in name and (root in _BUILTINS or root not in known):
        return None
    if "." in name and root not in {"self", "cls"} and root not in known:
        return None  # a method of a local object
    if callee.split(".")[0] in sys.stdlib_module_names:
        return None
    return callee


def _known_names(ctx: FileContext) -> set[str]:
    names = ctx.memo.get("defined_or_imported")
    if names is None:
        names = ctx.memo["defined_or_imported"] = (
            set(ctx.model.aliases.aliases)
            | {q.rsplit(".", 1)[-1] for q in ctx.model.functions}
            | {q.rsplit(".", 1)[-1] for q in ctx.model.classes}
            | _module_names(ctx)  # module-level instances: `store.apply_changes(...)`
        )
    return names  # type: ignore[return-value]


def _is_container_literal(value: cst.BaseExpression) -> bool:
    if isinstance(value, (cst.List, cst.Dict, cst.Set, cst.Tuple, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True
    return isinstance(value, cst.Call) and dotted(value.func) in {"list", "dict", "set", "defaultdict", "collections.defaultdict", "OrderedDict", "Counter", "deque"}


def _terminates(body: cst.BaseSuite) -> bool:
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else []
    if not statements:
        smalls = list(body.body) if isinstance(body, cst.SimpleStatementSuite) else []
        return bool(smalls) and isinstance(smalls[-1], (cst.Return, cst.Raise))
    last = statements[-1]
    return isinstance(last, cst.SimpleStatementLine) and bool(last.body) and isinstance(last.body[-1], (cst.Return, cst.Raise))


def _file_says(ctx: FileContext, word: str) -> bool:
    """Does the file's text hold `word` at all (asserts, globals: statements the facts do not
    list)? Once per file."""
    key = f"says {word}"
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = any(word in line for line in ctx.lines)
    return bool(found)


def _is_pure(expr: cst.CSTNode) -> bool:
    """No calls but harmless ones and no awaits: the condition reads, it does not ask anyone."""
    for node in walk(expr):
        if isinstance(node, cst.Call):
            name = dotted(node.func) or ""
            if name in _PURE_CALLS or name.startswith("os.path."):
                continue
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in _PURE_METHODS:
                continue
            return False
        if isinstance(node, cst.Await):
            return False
    return True


def _rejects(body: cst.BaseSuite, ctx: FileContext) -> bool:
    """Does the block itself end the call with an error (raise, or return of a failure)?"""
    if isinstance(body, cst.SimpleStatementSuite):
        smalls: list[cst.BaseSmallStatement] = list(body.body)
    else:
        smalls = [s for stmt in body.body if isinstance(stmt, cst.SimpleStatementLine) for s in stmt.body]
    return any(_rejecting(small, ctx) for small in smalls)


def _rejecting(small: cst.BaseSmallStatement, ctx: FileContext) -> bool:
    if isinstance(small, cst.Raise):
        return small.exc is not None
    if isinstance(small, cst.Return) and small.value is not None:
        return is_failure_value(small.value, ctx)
    return False


def is_failure_value(value: cst.BaseExpression, ctx: FileContext) -> bool:
    """A returned failure: an error string/dict/result, or a `(False, "message", ...)` tuple."""
    if classify_return(value, ctx, conditional=True) is not None or is_error_result(value, ctx):
        return True
    if isinstance(value, cst.Tuple) and len(value.elements) >= 2:
        first = value.elements[0].value
        if isinstance(first, cst.Name) and first.value == "False":
            return True
        return any((text := literal_text(el.value)) is not None and is_failure_text(text) for el in value.elements)
    return False


# -- summary effects (read by the linker for helpers) ----------------------------------------


def function_effects(fn: FunctionFacts, ctx: FileContext) -> tuple[str, bool]:
    """(what the function mutates first, "" if nothing it does itself; does it reject its own
    arguments?). Cheap: reads the facts' calls, raises and returns."""
    known: dict[int, str] = ctx.memo.get("first_mutation", {})  # type: ignore[assignment]
    mutates = known.get(id(fn))
    if mutates is None:
        module_names = _module_names(ctx)
        mutates = ""
        for call in fn.calls:
            if call.handler is not None:
                continue
            kind = mutation_of(call.node, ctx.model.aliases, module_names)
            if kind is not None:
                mutates = kind.description
                break
    if not mutates and fn.has_item_assignment:
        mutates = _state_write_in(fn, _module_names(ctx))
    return mutates, _validates(fn, ctx)


def _state_write_in(fn: FunctionFacts, module_names: set[str]) -> str:
    """`NOTES[k] = v` / `del NOTES[k]` anywhere in the body (not in `except` clauses): a scan of
    the statements only, no expressions."""
    stack: list[cst.CSTNode] = list(fn.node.body.body) if isinstance(fn.node.body, cst.IndentedBlock) else []
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                targets: list[cst.BaseExpression] = []
                if isinstance(small, cst.Assign):
                    targets = [t.target for t in small.targets]
                elif isinstance(small, (cst.AugAssign, cst.Del)):
                    targets = [small.target]
                for target in targets:
                    root = _chain(target) if isinstance(target, cst.Subscript) else None
                    if root and root in module_names and root not in fn.params and not _BOOKKEEPING.search(root):
                        return f"changes module-level state ({root}[...])"
        elif isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            continue
        else:
            for attribute in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, attribute, None)
                if isinstance(inner, cst.If):
                    stack.append(inner)
                elif inner is not None:
                    block = getattr(inner, "body", None)
                    block = getattr(block, "body", block)  # Else/Finally hold a block
                    if isinstance(block, (list, tuple)):
                        stack.extend(block)
            stack.extend(case for case in getattr(stmt, "cases", ()))
    return ""


def _validates(fn: FunctionFacts, ctx: FileContext) -> bool:
    """A raise or returned failure whose conditions read only the parameters (and constants,
    the environment): the function rejects bad arguments, whatever else it does."""
    params = set(fn.params) - {"self", "cls"}
    if not params:
        return False
    rejections = [(r.conditions, r.handler) for r in fn.raises if r.node.exc is not None]
    rejections += [(r.conditions, r.handler) for r in fn.returns if r.conditions and r.node.value is not None and is_failure_value(r.node.value, ctx)]
    for conditions, handler in rejections:
        if handler is not None or not conditions:
            continue
        reads = {r.split(".")[0] for c in conditions for r in _reads(c)}
        if reads & params and reads <= params | {"os"} and all(_is_pure(c) for c in conditions):
            return True
    return False


# -- the rule ----------------------------------------------------------------------------------


class MutationBeforeValidation(Rule):
    code = "MCP004"
    name = "mutation-before-validation"

    INVALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    db.commit()
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    return "updated"
""",
            flagged=(8,),
            fixed="""\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    db.commit()
    return "updated"
""",
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    cur = db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    if cur.rowcount == 0:
        raise ToolError(f"No stock row for sku {sku!r}; call list_skus")
    db.commit()
    return "updated"
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        body = fn.node.body
        if not isinstance(body, cst.IndentedBlock):
            return
        # Cheap exit: something must reject the call later (a conditional raise/return, an
        # assert, or a helper that may validate), and something must come first that may mutate.
        globals_ = _file_says(ctx, "global ")  # `global COUNTER; COUNTER += 1` writes module state
        if not fn.calls and not fn.has_item_assignment and not globals_:
            return
        module_names = _module_names(ctx)
        steps = _Steps(fn, ctx, module_names)
        if not classify_calls(steps, fn, ctx) and not globals_:
            return
        direct_checks = _file_says(ctx, "assert ") or any(r.conditions and r.handler is None for r in (*fn.raises, *fn.returns))
        direct_mutation = fn.has_item_assignment or globals_ or any(isinstance(k, MutationKind) for k in steps.kinds.values())
        if not direct_checks and not (direct_mutation and steps.validators):
            return  # nothing can reject the call after a mutation (helpers need a direct check)
        if not (fn.has_item_assignment or globals_):
            steps.start_at_first_candidate()
        steps.block(body, (), fn.node, False)
        for latent in self._findings(steps, ctx):
            yield latent

    def _findings(self, steps: _Steps, ctx: FileContext) -> Iterator[Latent]:
        """One latent per candidate first mutation: a direct one ends the search, a helper call
        counts only if the linker finds that it mutates (and no earlier candidate does)."""
        earlier: list[str] = []
        # The last step that is a direct check: a helper candidate after it has nothing to find.
        last_check = max((i for i, s in enumerate(steps.steps) if s.check_reads is not None), default=-1)
        for index, step in enumerate(steps.steps):
            if step.mutation is not None:
                found = self._first_check(steps, index, None)
                if found is not None:
                    yield self._latent(ctx, steps, index, None, earlier, found)
                    return
                if not any(steps.blocks[b].terminates for b in step.path):
                    return  # every later step runs after this one: it stays the first mutation
                continue  # a branch that returns: the next mutation may be first on another path
            for callee, call in step.helper_calls:
                if len(earlier) >= _MAX_CANDIDATES:
                    return
                if index >= last_check:
                    earlier.append(callee)
                    continue
                found = self._first_check(steps, index, callee)
                # A helper that may mutate, then a helper that may validate: too much guessing
                # for one finding; a direct check must follow.
                if found is not None and not found[-1][1]:
                    yield self._latent(ctx, steps, index, (callee, call), earlier, found)
                earlier.append(callee)

    def _first_check(self, steps: _Steps, index: int, helper: str | None) -> list[tuple[int, str]] | None:
        """The checks after step `index` that can reject a call it mutated in: helper validators
        (callee) up to the first direct check (""), as (step index, callee)."""
        first = steps.steps[index]
        tainted: set[str] = set()
        if first.mutation is not None and helper is None:
            tainted.update(first.changed)
            if first.mutation.result_is_outcome:
                tainted.update(n for a in first.assigns for n in a.targets)
        else:
            tainted.update(n for a in first.assigns for n in a.targets)  # the helper's result
        fresh: set[str] = set()
        found: list[tuple[int, str]] = []
        for later_index in range(index + 1, len(steps.steps)):
            step = steps.steps[later_index]
            if _reachable(steps, first.path, step.path):
                if step.check_reads is not None and all(_is_pure(t) for t in step.check_tests):
                    reads = step.check_reads.get()
                    data = _data_reads(step.check_tests, steps.modules)[0] if fresh else []
                    # Not on the mutation's result, nor on a value made after it (only on the
                    # arguments and on what existed before).
                    if reads and not any(_overlaps(r, tainted) for r in reads) and not any(r in fresh for r in data):
                        found.append((later_index, ""))
                        return found
                elif step.validator is not None and len(found) < _MAX_CANDIDATES:
                    callee, arguments = step.validator
                    if not any(_overlaps(r, tainted) for r in arguments.get()):
                        found.append((later_index, callee))
                surely = first.path[: len(step.path)] == step.path
                _propagate(step, tainted, fresh, _guarded_by(steps, step.path, first.path, tainted), surely, steps.modules)
        return found or None

    def _latent(
        self,
        ctx: FileContext,
        steps: _Steps,
        index: int,
        helper: tuple[str, cst.Call] | None,
        earlier: list[str],
        checks: list[tuple[int, str]],
    ) -> Latent:
        step = steps.steps[index]
        node = helper[1] if helper is not None else step.mutation_node or step.node
        data = {
            "mutation": step.mutation.description if helper is None and step.mutation else "",
            "helper": helper[0] if helper is not None else "",
            "helper_name": (dotted(helper[1].func) or "") if helper is not None else "",
            "earlier": "\x1f".join(earlier),
            "checks": "\x1f".join(f"{ctx.range(steps.steps[i].node).start.line}:{callee}" for i, callee in checks),
        }
        if step.branch:
            data["branch"] = step.branch
        statement = step.statement if isinstance(step.statement, (cst.SimpleStatementLine, cst.BaseSmallStatement)) else node
        applicability, edits = self._fix(ctx, steps, index, checks[0][0]) if not checks[0][1] else (None, ())
        return self.latent(
            ctx,
            node,
            variant="move" if applicability is Applicability.UNSAFE else "manual",
            route="reached",  # in a tool or any helper a tool calls: the call is rejected either way
            statement=statement,
            data=data,
            fix_message="Move the check above the first mutation"
            + ("" if applicability is Applicability.UNSAFE else " (check that nothing it reads is computed in between)"),
            fix_applicability=applicability,
            fix_edits=edits,
        )

    def _fix(self, ctx: FileContext, steps: _Steps, index: int, check_index: int) -> tuple[Applicability | None, tuple[Edit, ...]]:
        """Move a plain `if` check (or `assert`) up to the statement holding the mutation, when both
        sit in the same block; unsafe, or display-only when a name it reads is set in between."""
        check = steps.steps[check_index]
        mutation = steps.steps[index]
        node = check.statement
        if isinstance(node, cst.If):
            if node.orelse is not None or check.node is not node.test:
                return None, ()
        elif not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Assert)):
            return None, ()
        block_path = check.path
        if mutation.path[: len(block_path)] != block_path:
            return None, ()
        block = _block_statements(ctx, steps, block_path)
        if block is None or not any(s is node for s in block):
            return None, ()
        anchor = _statement_holding(block, mutation.node)
        if anchor is None:
            return None, ()
        anchor_at = next(i for i, s in enumerate(block) if s is anchor)
        check_at = next(i for i, s in enumerate(block) if s is node)
        if anchor_at >= check_at:
            return None, ()
        # What the statements the check would move across assign (walked here, at a finding:
        # the steps before the mutation were not kept).
        assigned = {n for stmt in block[anchor_at:check_at] for n in _assigned_in(stmt)}
        reads = check.check_reads.get() if check.check_reads is not None else []
        # Only in the function's own body: inside a `with`/`try`/loop the move may change what
        # the block guards (a transaction, a lock), so it is shown, not applied.
        safe = len(block_path) == 1 and not any(_overlaps(r, assigned) for r in reads)
        check_range = ctx.range(node)
        anchor_range = ctx.range(anchor)
        lines = ctx.lines[check_range.start.line - 1 : check_range.end.line]
        check_indent = indent_of(ctx, node)
        anchor_indent = indent_of(ctx, anchor)
        moved = "".join(anchor_indent + line[len(check_indent) :] + "\n" if line.startswith(check_indent) else line + "\n" for line in lines)
        edits = (
            Edit(Location(anchor_range.start.line, 1), Location(anchor_range.start.line, 1), moved),
            Edit(Location(check_range.start.line, 1), Location(check_range.end.line + 1, 1), ""),
        )
        return (Applicability.UNSAFE if safe else Applicability.DISPLAY_ONLY), edits

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        effect = context.callee_effect
        earlier = [c for c in latent.get("earlier").split("\x1f") if c]
        if earlier and (effect is None or any(effect("mutates", c) for c in earlier)):
            return None  # a helper called before it mutates: that call is the finding
        helper = latent.get("helper")
        what = latent.get("mutation")
        notes: tuple[str, ...] = ()
        if helper:
            inner = effect("mutates", helper) if effect is not None else ""
            if not inner:
                return None
            what = f"calls {latent.get('helper_name')}()"
            notes = (f"{latent.get('helper_name')}() {inner}",)
        row = ""
        direct = True
        for entry in latent.get("checks").split("\x1f"):
            line, _, callee = entry.partition(":")
            if not callee:
                row = line
                break
            if effect is not None and effect("validates", callee):
                row, direct = line, False
                break
        if not row:
            return None
        first = latent.get("checks").split("\x1f")[0]
        message = f"{context.subject} {what}, then rejects the call at line {row}"
        fix = latent_fix(latent) if direct and first.startswith(f"{row}:") else None
        return Rendered(message, fix, help="Move the check above the first mutation", notes=notes)


def _guarded_by(steps: _Steps, path: tuple[int, ...], mutation_path: tuple[int, ...], tainted: set[str]) -> bool:
    """Does a block the step is in (and the mutation is not) run only depending on a tainted
    value (`if resp.status == 200: ok = True`)? Then what it assigns depends on the mutation."""
    return bool(tainted) and any(
        block_id not in mutation_path
        and (guard := steps.blocks[block_id].guard) is not None
        and any(_overlaps(r, tainted) for r in guard.get())
        for block_id in path
    )


def _assigned_in(stmt: cst.CSTNode) -> set[str]:
    """Names a statement binds or changes anywhere in it (targets, loop and `as` names, `x` of
    `x.append(...)`)."""
    out: set[str] = set()
    for node in walk(stmt):
        targets: Sequence[cst.BaseExpression] = ()
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr)):
            targets = [node.target]
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            targets = [node.asname.name]
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _CONTAINER_WRITES:
            targets = [node.func.value]
        for target in targets:
            out.update(_targets(target))
    return out


def _propagate(step: _Step, tainted: set[str], fresh: set[str], guarded: bool, surely: bool, modules: frozenset[str]) -> None:
    """After a step that may run after the mutation: names it assigns from tainted values (or
    under a tainted condition) are tainted; a step that surely runs (in the mutation's block or
    one around it) makes the others clean again. What its mutations change is tainted. Names
    computed after it from no data (`remaining = time_left()`), or from such a name, are `fresh`:
    a check on them does not depend only on the arguments and what existed before."""
    for assign in step.assigns:
        if guarded or (tainted and any(_overlaps(r, tainted) for r in assign.reads.get())) or (step.mutation is not None and step.mutation.result_is_outcome):
            tainted.update(assign.targets)
        elif surely:
            tainted.difference_update(assign.targets)
        data, calls = assign.data_reads(modules)
        if (fresh and any(r in fresh for r in data)) or (not data and calls):
            fresh.update(assign.targets)  # made from a fresh value, or asked of no data at all
        elif surely:
            fresh.difference_update(assign.targets)
    tainted.update(step.changed)


def _reachable(steps: _Steps, mutation_path: tuple[int, ...], check_path: tuple[int, ...]) -> bool:
    """Can a step at `check_path` run after one at `mutation_path` (which comes first in the
    source)? Not when the mutation's block ends the call first, nor from another branch."""
    common = 0
    while common < min(len(mutation_path), len(check_path)) and mutation_path[common] == check_path[common]:
        common += 1
    for block_id in mutation_path[common:]:
        if steps.blocks[block_id].terminates:
            return False
    if common < len(mutation_path) and common < len(check_path):
        left, right = steps.blocks[mutation_path[common]], steps.blocks[check_path[common]]
        if left.owner == right.owner and left.exclusive and right.exclusive:
            return False
    return True


def _block_statements(ctx: FileContext, steps: _Steps, path: tuple[int, ...]) -> Sequence[cst.BaseStatement] | None:
    if not path:
        return None
    block_id = path[-1]
    for node in walk(steps.fn.node):
        if id(node) == block_id and isinstance(node, cst.IndentedBlock):
            return node.body
    return None


def _statement_holding(block: Sequence[cst.BaseStatement], node: cst.CSTNode) -> cst.BaseStatement | None:
    for stmt in block:
        if any(inner is node for inner in walk(stmt)):
            return stmt
    return None

