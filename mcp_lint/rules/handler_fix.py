"""What a fix inside an `except` block must know about the block: its log calls and its locals.

A careful engineer turning `return f"Error: {e}"` into a raise reuses the handler's own log call
(adding the traceback to it, never logging twice), and deletes the locals that only fed the old
return (`error_result = {...}`, `msg = f"...{e}"`). These helpers find both; they read one
handler's body, never the whole function.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

import libcst as cst
from libcst.metadata import CodePosition

from mcp_lint.findings import Edit, Location
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.linking.names import BUILTIN_EXCEPTIONS
from mcp_lint.model.exception_guards import Handler, catches, try_guard
from mcp_lint.model.facts import FunctionFacts, RaiseFact
from mcp_lint.model.frameworks import CONTEXT_CLASSES, FRAMEWORK_PACKAGES, TOOL_ERROR_BASE_NAMES
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.names import dotted
from mcp_lint.model.walk import descendants, holds
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.exception_text import project_call, says_something
from mcp_lint.rules.failure_paths import reports_only
from mcp_lint.rules.plain_raises import builtin_bases
from mcp_lint.vocabulary import is_status_tool

_LEVELS = frozenset({"debug", "info", "warning", "warn", "error", "critical", "fatal", "exception", "log"})
_BELOW_ERROR = frozenset({"debug", "info", "warning", "warn"})
_LOGGER = lazy_compile(r"(?i)(?:^|_)log(?:ger)?$|^logging$")
# Calls that cannot change anything: a local holding only these can be deleted with its last use.
_PURE_CALLS = frozenset(
    {"str", "repr", "type", "len", "format", "int", "float", "bool", "traceback.format_exc", "json.dumps"}
)
# The protocol's result and content models (`types.TextContent(...)`, `CallToolResult(...)`): pydantic
# models whose construction does nothing but build the value the old return sent.
_PURE_MODULES = ("mcp.types.",)


@dataclass(frozen=True)
class LogPlan:
    """What the fix does about logging: add a `logger.exception(...)` line, or not (the handler
    already logs; `edit`, if any, adds the traceback to that call)."""

    add_call: bool
    edit: Edit | None = None


def log_plan(handler: Handler, sink: cst.CSTNode, ctx: FileContext) -> LogPlan:
    calls = list(_log_calls_before(handler, sink, ctx))
    if not calls and _prints_the_failure(handler, sink, ctx):
        # `print(f"... {e}")`: the author's report of this failure. A logger line added beside
        # it would report the failure twice (and a print is where the author wants it seen).
        return LogPlan(add_call=False)
    if not calls:
        # A module without a logger whose handler reports the failure to the client through the
        # tool's Context (`await ctx.error(msg)`): that is the author's channel; a standard
        # library logger added beside it would be a second one.
        return LogPlan(add_call=ctx.model.logger_name is not None or not _reports_through_context(handler, sink, ctx))
    for call in calls:
        if _logs_traceback(call):
            return LogPlan(add_call=False)
    call = calls[-1]
    if is_project_log_call(call):
        return LogPlan(add_call=False)  # its signature is the project's: nothing to add to it
    if is_loguru(call, ctx) or imported_from_the_project(call, ctx):
        # loguru takes no exc_info (it would format the message with it as a keyword, and an
        # error text holding braces then raises); its `exception` is `error` with the traceback.
        # A logger imported from a module of the project may be loguru's or the standard
        # library's: `exception` means the same to both, `exc_info=True` only to the latter.
        func = call.func
        if type(func) is cst.Attribute and func.attr.value == "error":
            where = ctx.range(func.attr)
            edit = Edit(Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1), "exception")
            return LogPlan(add_call=False, edit=edit)
        return LogPlan(add_call=False)
    if not call.args or call.args[-1].star == "*" and call.args[-1].keyword is None and len(call.args) == 1:
        return LogPlan(add_call=False)
    if type(call.func) is cst.Attribute and call.func.attr.value in _BELOW_ERROR and handler.name in _names_in(call):
        # A warning that logs the exception already: the author judged it no error (a bad
        # argument), so no traceback is added to it.
        return LogPlan(add_call=False)
    return LogPlan(add_call=False, edit=_exc_info_edit(call, ctx))


def _prints_the_failure(handler: Handler, sink: cst.CSTNode, ctx: FileContext) -> bool:
    """Does the handler, before `sink`, `print(...)` something that reads the caught exception?"""
    if handler.name is None:
        return False
    for statement in _statements_before(handler.node.body.body, sink, ctx):
        for node in descendants(statement, into_scopes=False):
            if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "print" and handler.name in _names_in(node):
                return True
    return False


def _reports_through_context(handler: Handler, sink: cst.CSTNode, ctx: FileContext) -> bool:
    """Does the handler, before `sink`, send a log message through a parameter of the function
    typed as the framework's Context (`await ctx.error(error_msg)`)?"""
    fn = ctx.current_facts
    if fn is None or type(fn.node) is not cst.FunctionDef:
        return False
    contexts = {p.name.value for p in (*fn.node.params.params, *fn.node.params.kwonly_params) if p.annotation is not None and _is_context_class(p.annotation.annotation, ctx)}
    if not contexts:
        return False
    for statement in _statements_before(handler.node.body.body, sink, ctx):
        for node in descendants(statement, into_scopes=False):
            if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _LEVELS and dotted(node.func.value) in contexts:
                return True
    return False


def _is_context_class(annotation: cst.BaseExpression, ctx: FileContext) -> bool:
    name = dotted(annotation)
    resolved = ctx.model.aliases.resolve_dotted(name) if name else None
    return resolved is not None and resolved.rsplit(".", 1)[-1] in CONTEXT_CLASSES and resolved.split(".")[0] in FRAMEWORK_PACKAGES


def _exc_info_edit(call: cst.Call, ctx: FileContext) -> Edit:
    """`exc_info=True` after the call's last argument: on a line of its own, with the others'
    indent and a trailing comma, where the author wrote one argument a line and the closing
    parenthesis below them (a structlog call, one keyword a line); else on the same line."""
    last = call.args[-1]
    where = ctx.range(last.value)
    start = ctx.range(last.keyword).start if last.keyword is not None else where.start
    line = ctx.lines[start.line - 1]
    own_line = not line[: start.column].strip() and where.end.line < ctx.range(call).end.line
    if own_line:
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if type(last.comma) is cst.Comma:
            end = _comma_end(ctx, where.end)
            if end is not None:
                at = Location(end[0], end[1])
                return Edit(at, at, f"\n{indent}exc_info=True,")
        at = Location(where.end.line, where.end.column + 1)
        return Edit(at, at, f",\n{indent}exc_info=True")
    at = Location(where.end.line, where.end.column + 1)
    return Edit(at, at, ", exc_info=True")


def _comma_end(ctx: FileContext, after: CodePosition) -> tuple[int, int] | None:
    """(row, column, 1-based) just past the comma that follows `after` on its line."""
    text = ctx.lines[after.line - 1]
    index = text.find(",", after.column)
    return (after.line, index + 2) if index >= 0 and not text[after.column : index].strip() else None


def log_calls_before(handler: Handler, sink: cst.CSTNode, ctx: FileContext) -> list[cst.Call]:
    """The handler's log calls that run before `sink`, in source order."""
    return list(_log_calls_before(handler, sink, ctx))


def _log_calls_before(handler: Handler, sink: cst.CSTNode, ctx: FileContext) -> Iterator[cst.Call]:
    """Log calls in the statements that run before `sink` on its way through the handler (the
    handler's body and the blocks that hold the sink), in source order."""
    for statement in _statements_before(handler.node.body.body, sink, ctx):
        if type(statement) is not cst.SimpleStatementLine:
            continue
        for small in statement.body:
            if type(small) is cst.Expr:
                value = small.value.expression if type(small.value) is cst.Await else small.value
                if type(value) is cst.Call and is_log_call(value):
                    yield value


def _statements_before(statements, sink: cst.CSTNode, ctx: FileContext) -> Iterator[cst.BaseStatement]:
    row = ctx.start_line(sink)
    for statement in statements:
        where = ctx.range(statement)
        if where.end.line < row:
            yield statement
            continue
        if where.start.line <= row and type(statement) is not cst.SimpleStatementLine:
            for block in _blocks(statement):
                inner = ctx.range(block)
                if inner.start.line <= row <= inner.end.line:
                    yield from _statements_before(block.body, sink, ctx)
        return


def _blocks(statement: cst.CSTNode) -> Iterator[cst.IndentedBlock]:
    """The indented blocks directly under a compound statement (if/elif/else, with, for, try)."""
    for child in statement.children:
        if type(child) is cst.IndentedBlock:
            yield child
        elif type(child) in (cst.If, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally):
            yield from _blocks(child)


def is_log_call(call: cst.Call) -> bool:
    """A call writing the server's log (a logger's method, loguru's `opt(...)`/`bind(...)` chain,
    `traceback.print_exc`, a logging function of the project's own): not what the tool hands on."""
    func = call.func
    if type(func) is cst.Attribute and func.attr.value in _LEVELS:
        receiver = func.value
        if type(receiver) is cst.Call:  # loguru `logger.opt(exception=e).error(...)`
            return is_log_call(receiver) or dotted(receiver.func) in {"logger.opt", "logger.bind"}
        name = dotted(receiver)
        return name is not None and bool(_LOGGER.search(name.split(".")[-1]))
    name = dotted(func)
    return name in {"traceback.print_exc", "traceback.print_exception"} or is_project_log_call(call)


def is_project_log_call(call: cst.Call) -> bool:
    """A logging function of the project's own (`log_with_request_id(ctx, ERROR, msg)`,
    `self._log_error(...)`): its name has a `log` word and it is no logger's method. A handler
    that calls one already logs the failure, its own way."""
    name = dotted(call.func)
    if name is None:
        return False
    last = name.rpartition(".")[2]
    if type(call.func) is cst.Attribute and last in _LEVELS:
        return False  # `logger.error(...)`: a logger's method, read above
    words = re.findall(r"[a-z]+|[A-Z][a-z]*", last)
    return any(word.lower() in {"log", "logs", "logger"} for word in words)


def logs_with_traceback(call: cst.Call) -> bool:
    """Does this log call write the failure's traceback (`logger.exception(...)`, `exc_info=` a
    true value, `traceback.print_exc()`)?"""
    func = call.func
    if dotted(func) in {"traceback.print_exc", "traceback.print_exception"}:
        return True
    if type(func) is cst.Attribute and func.attr.value == "exception":
        return True
    return any(arg.keyword is not None and arg.keyword.value == "exc_info" and dotted(arg.value) not in {"False", "None"} for arg in call.args)


def _logs_traceback(call: cst.Call) -> bool:
    """Has the author decided how this call logs the traceback (written it, or chosen not to)?"""
    if logs_with_traceback(call):
        return True
    func = call.func
    if type(func) is cst.Attribute and type(func.value) is cst.Call:
        return True  # loguru `.opt(exception=...)`: the author chose how to log
    # exc_info=False too: the author decided not to log the traceback here.
    return any(a.keyword is not None and a.keyword.value in {"exc_info", "stack_info"} for a in call.args)


def logger_style(ctx: FileContext) -> str:
    """How the module's logger formats, for a log call a fix adds: "loguru" (the module imports
    loguru's logger, which the fix then calls), "structlog" (its module logger comes from
    structlog), else "logging"."""
    memo = ctx.memo.get("logger_style")
    if isinstance(memo, str):
        return memo
    aliases = ctx.model.aliases.aliases
    style = "logging"
    if any(qual == "loguru.logger" for qual in aliases.values()):
        style = "loguru"
    elif ctx.model.logger_name is not None:
        for statement in ctx.module.body:
            for small in getattr(statement, "body", ()) if type(statement) is cst.SimpleStatementLine else ():
                if type(small) is cst.Assign and any(type(t.target) is cst.Name and t.target.value == ctx.model.logger_name for t in small.targets):
                    called = small.value.func if type(small.value) is cst.Call else None
                    resolved = (ctx.model.aliases.resolve(called) or dotted(called) or "") if called is not None else ""
                    if resolved.startswith("structlog"):
                        style = "structlog"
        if style == "logging" and _logs_key_values(ctx.module, ctx.model.logger_name):
            style = "structlog"  # a project factory's logger, called as structlog's is
    ctx.memo["logger_style"] = style
    return style


# Keywords the standard library's log calls take: any other is a structlog key-value.
_LOGGING_KEYWORDS = frozenset({"exc_info", "stack_info", "stacklevel", "extra"})


def _logs_key_values(module: cst.Module, logger: str) -> bool:
    """Does the module call its logger with key-value pairs (`logger.info("page saved",
    page_id=page_id)`)? Its logger is then structlog's, whatever function made it (the project's
    own `get_logger` wrapping it), and a call the fix adds follows that style."""
    for node in descendants(module):
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _LEVELS:
            if type(node.func.value) is cst.Name and node.func.value.value == logger:
                if any(a.keyword is not None and a.keyword.value not in _LOGGING_KEYWORDS for a in node.args):
                    return True
    return False


def imported_from_the_project(call: cst.Call, ctx: FileContext) -> bool:
    """`logger.error(...)` on a logger imported from a module of the project (`from .log import
    logger`): which library made it is decided in that module, not seen here."""
    func = call.func
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return False
    imported = ctx.model.aliases.aliases.get(func.value.value)
    return imported is not None and imported.split(".")[0] not in {"logging", "structlog", "loguru"}


def is_loguru(call: cst.Call, ctx: FileContext) -> bool:
    func = call.func
    if type(func) is not cst.Attribute:
        return False
    resolved = ctx.model.aliases.resolve(func.value) or ""
    return resolved.startswith("loguru")


# -- locals ----------------------------------------------------------------------------------


def local_value(handler: Handler, name: str, sink: cst.CSTNode, ctx: FileContext) -> tuple[cst.SimpleStatementLine, cst.BaseExpression] | None:
    """`msg = f"... {e}"` before `raise ValueError(msg)`: the one assignment of a local in the
    statements that run before the sink in the handler."""
    found = None
    for statement in _statements_before(handler.node.body.body, sink, ctx):
        value = _assigned(statement, name)
        if value is not None:
            if found is not None:
                return None  # assigned twice: which value reaches the sink depends on the path
            found = (statement, value)
    if found is None or _rebound_elsewhere(handler, name, found[0]):
        return None
    return found


def bound_from(handler: Handler, taken: cst.CSTNode, sink: cst.CSTNode, ctx: FileContext) -> frozenset[str]:
    """The names an assignment before `sink` in the handler binds from a value holding `taken`
    (`kind, text = describe(e)` binds both), else none."""
    for statement in _statements_before(handler.node.body.body, sink, ctx):
        if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
            continue
        small = statement.body[0]
        if type(small) not in (cst.Assign, cst.AnnAssign) or small.value is None:
            continue
        if any(node is taken for node in descendants(small.value)):
            targets = [t.target for t in small.targets] if type(small) is cst.Assign else [small.target]
            return frozenset(n.value for target in targets for n in descendants(target) if type(n) is cst.Name)
    return frozenset()


def bound_from_exception(handler: Handler) -> frozenset[str]:
    """Locals the clause binds from a call handed its exception (`kind, text = describe(e)`):
    what such a helper returns may be the exception's text (its summary, in another module, is
    not known here), so a new message leaves them out rather than move a leak."""
    if handler.name is None:
        return frozenset()
    names: set[str] = set()
    for node in descendants(handler.node.body, into_scopes=False):
        if type(node) not in (cst.Assign, cst.AnnAssign) or node.value is None:
            continue
        handed = any(
            type(call) is cst.Call
            and any(type(arg.value) is cst.Name and arg.value.value == handler.name for arg in call.args)
            for call in descendants(node.value, into_scopes=False)
        )
        if handed:
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
            names.update(n.value for target in targets for n in descendants(target) if type(n) is cst.Name)
    return frozenset(names)


def _assigned(statement: cst.BaseStatement, name: str) -> cst.BaseExpression | None:
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if type(small) is cst.Assign and len(small.targets) == 1:
        target = small.targets[0].target
        if type(target) is cst.Name and target.value == name:
            return small.value
    if type(small) is cst.AnnAssign and small.value is not None and type(small.target) is cst.Name and small.target.value == name:
        return small.value
    return None


def _rebound_elsewhere(handler: Handler, name: str, assignment: cst.CSTNode) -> bool:
    for node in descendants(handler.node.body, into_scopes=False):
        if type(node) is cst.AugAssign and type(node.target) is cst.Name and node.target.value == name:
            return True
        if type(node) in (cst.Assign, cst.AnnAssign) and not any(node is mine for mine in getattr(assignment, "body", ())):
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
            if any(type(t) is cst.Name and t.value == name for t in targets):
                return True
    return False


def dead_assignments(
    handler: Handler, sink: cst.CSTNode, replacement: str, ctx: FileContext
) -> list[tuple[cst.SimpleStatementLine, cst.BaseExpression | None]]:
    """The assignments in the handler whose locals only the sink (or other such assignments)
    reads: replacing the sink by `replacement` leaves them dead. Each comes with the part of its
    value to keep as a statement of its own (`msg = self._log_error(...)`: the call has effects,
    only the name dies), or None when the whole line goes (see `kept_effect`)."""
    # Every word of the new code counts as a read: a superset of its names, which is safe.
    still_read = set(re.findall(r"[A-Za-z_]\w*", replacement))
    candidates: dict[str, cst.SimpleStatementLine] = {}
    kept: dict[str, cst.BaseExpression] = {}  # locals whose value keeps a call, as a statement

    def consider(name: str) -> None:
        found = local_value(handler, name, sink, ctx)
        if found is None:
            return
        effect = kept_effect(found[1], ctx)
        if effect is False:
            return  # side effects the fix cannot tell apart: the local stays
        candidates[name] = found[0]
        if effect is not None:
            kept[name] = effect

    for name in _names_in(sink) - still_read:
        consider(name)
    # A local read only by a deleted assignment dies with it (`error_message` in `error_result`).
    dead: dict[str, cst.SimpleStatementLine] = {}
    changed = True
    while changed:
        changed = False
        for name, statement in list(candidates.items()):
            if name in dead:
                continue
            ignored = [sink, *(dead[n] for n in dead if n not in kept)]  # a kept call still reads
            if _reads(handler, name, ignored) == 0:
                dead[name] = statement
                changed = True
                if name in kept:
                    continue
                for inner in _names_in(statement.body[0].value) - still_read:  # type: ignore[union-attr]
                    if inner not in candidates:
                        consider(inner)
    return [(statement, kept.get(name)) for name, statement in dead.items()]


def left_unread(
    fn: FunctionFacts, sink: cst.CSTNode, replacement: str, deleted: list[cst.CSTNode], unbound: list[cst.CSTNode]
) -> frozenset[str]:
    """The function's locals that `sink` (or a deleted statement) read and that nothing would
    read once `sink` is `replacement`, the `deleted` statements are gone and the `unbound` ones
    lost their target
    (`msg = self._log(...)` kept as `self._log(...)`), while an assignment of theirs stays: the
    locals ruff's F841 would report after the fix. An author's extraction left so
    (`detail = ...` assigned on two paths, a redacted body) is text the fix would drop without
    deleting it: no fix, rather than dead code."""
    still_read = set(re.findall(r"[A-Za-z_]\w*", replacement))
    candidates = set().union(*(_names_in(node) for node in (sink, *deleted))) - still_read - set(fn.params)
    if not candidates:
        return frozenset()
    gone = [*deleted, *unbound]
    assigned: set[str] = set()
    declared: set[str] = set()  # `global x` / `nonlocal x`: not a local F841 reports
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) in (cst.Global, cst.Nonlocal):
            declared.update(item.name.value for item in node.names)
        elif type(node) in (cst.Assign, cst.AnnAssign, cst.AugAssign) and not any(lies_within(statement, node) for statement in gone):
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
            assigned.update(t.value for t in targets if type(t) is cst.Name and t.value in candidates)
    ignored: set[int] = set()
    for node in (sink, *deleted):
        ignored.update(id(n) for n in _name_reads(node))
    # `message += hint` only adds to the local: no read of it by anything that stays (a message
    # composed line by line is dead once the statement sending it no longer does).
    ignored.update(
        id(node.target) for node in descendants(fn.node.body, into_scopes=False) if type(node) is cst.AugAssign and type(node.target) is cst.Name
    )
    read = {n.value for n in _name_reads(fn.node.body) if id(n) not in ignored}
    return frozenset(assigned - read - declared)


# Calls named for reading or computing a value (`_get_config(ctx)`, `load_settings()`,
# `client.fetch_user(id)`): when only their value was wanted, a reviewer deletes the whole line.
# `dumps` is the serializers' name for "return the text" (`json`, `orjson`, `pickle`, `toml`);
# their `dump` writes to a stream, so it is not here.
_READ_VERBS = frozenset(
    "get read load fetch find lookup list search parse build make format compute calculate count describe "
    "to as is has current resolve extract render dumps".split()
)
# Methods that read the value they are called on (`resp.json()`, `data.get("id")`).
_READ_METHODS = frozenset(
    {"json", "get", "keys", "values", "items", "decode", "encode", "strip", "lower", "upper", "split", "splitlines", "copy"}
)


def kept_effect(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression | None | bool:
    """What of a dead local's value must stay as a statement: None when the whole line can go
    (a pure expression, a read of a call named for reading: `url = _get_config(ctx).url`), the
    call with effects inside a read (`client.post(...)` of `x = client.post(...).json()`,
    `self._log_failure(...)` of `msg = self._log_failure(...)`), or False when the value has
    effects the fix cannot isolate (the local stays)."""
    if _pure(value, ctx):
        return None
    node: cst.BaseExpression = value
    while True:
        if type(node) is cst.Attribute:
            node = node.value
        elif type(node) is cst.Subscript:
            if not all(_pure(element, ctx) for element in node.slice):
                return False
            node = node.value
        elif type(node) is cst.Await:
            inner = kept_effect(node.expression, ctx)
            if inner is None or inner is False:
                return inner
            # `(await client.post(...)).json()` keeps the awaited call; a read inside the await
            # (`await client.post(...).json()`) cannot be split off.
            return node if inner is node.expression else False
        elif type(node) is cst.Call:
            reads = _reads_only(node, ctx)
            if reads is False or not all(_pure(argument, ctx) for argument in node.args):
                return node
            if reads is None:
                return None
            node = reads
        else:
            return None if _pure(node, ctx) else False


def _reads_only(call: cst.Call, ctx: FileContext) -> cst.BaseExpression | None | bool:
    """Is `call` named for reading? Its receiver, to look into next (`resp` of `resp.json()`), or
    None when there is none (`_get_config(ctx)`); False for a call that may do something."""
    func = call.func
    name = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
    words = [w for w in name.lower().split("_") if w]
    if type(func) is cst.Attribute and name in _READ_METHODS:
        return func.value
    if _pure_call(call, ctx) or (words and words[0] in _READ_VERBS):
        return func.value if type(func) is cst.Attribute and not _pure(func.value, ctx) else None
    return False


def keep_only_the_value(statement: cst.SimpleStatementLine, kept: cst.BaseExpression, ctx: FileContext) -> Edit | None:
    """The edit turning `name = client.post(...).json()` into `client.post(...)` (`kept`, without
    parentheses of its own); None for other shapes."""
    assign = statement.body[0]
    if type(assign) is not cst.Assign or len(assign.targets) != 1:
        return None
    where = ctx.range(assign)
    if kept is assign.value or kept is _unawaited(assign.value):
        # The value as written, from where it starts: only `name = ` goes.
        value = ctx.range(assign.value).start
        return Edit(Location(where.start.line, where.start.column + 1), Location(value.line, value.column + 1), "")
    code = cst.Module([]).code_for_node(kept.with_changes(lpar=[], rpar=[]))
    return Edit(Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1), code)


def _unawaited(value: cst.BaseExpression) -> cst.BaseExpression:
    return value.expression if type(value) is cst.Await else value


def _names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in _name_reads(node)}


def _name_reads(node: cst.CSTNode) -> Iterator[cst.Name]:
    """Names read in `node`: not attribute names, keyword names or assignment targets."""
    skip: set[int] = set()
    for child in descendants(node, into_scopes=False):
        kind = type(child)  # exact types (no subclasses): isinstance against libcst's ABCs is slow
        if kind is cst.Attribute:
            skip.add(id(child.attr))
        elif kind is cst.Arg and child.keyword is not None:
            skip.add(id(child.keyword))
        elif kind is cst.AssignTarget:
            if type(child.target) is cst.Name:
                skip.add(id(child.target))
        elif kind is cst.AnnAssign and type(child.target) is cst.Name:
            skip.add(id(child.target))
        elif kind is cst.Name and id(child) not in skip:
            yield child


def _reads(handler: Handler, name: str, ignored: list[cst.CSTNode]) -> int:
    inside: set[int] = set()
    for node in ignored:
        inside.update(id(n) for n in _name_reads(node) if n.value == name)
    return sum(1 for n in _name_reads(handler.node.body) if n.value == name and id(n) not in inside)


def unused_binding(handler: Handler, replaced: list[cst.CSTNode], replacement: str, ctx: FileContext) -> Edit | None:
    """The edit taking ` as e` out of the `except` clause when, with `replaced` rewritten as
    `replacement`, nothing in its body reads `e` any more; None while something does."""
    name, bound = handler.name, handler.node.name
    if name is None or bound is None or handler.node.type is None:
        return None
    if name in re.findall(r"[A-Za-z_]\w*", replacement) or _reads(handler, name, replaced) > 0:
        return None
    # From the blanks before `as`, not from the end of the type: a parenthesised tuple's range
    # ends inside its `)` (`except (KeyError, TypeError) as e`), which must stay.
    start, end = ctx.range(bound).start, ctx.range(bound).end
    line = ctx.lines[start.line - 1]
    column = start.column
    while column > 0 and line[column - 1] in " \t":
        column -= 1
    return Edit(Location(start.line, column + 1), Location(end.line, end.column + 1), "")


def _pure(value: cst.CSTNode, ctx: FileContext) -> bool:
    for node in descendants(value, into_scopes=False):
        if type(node) is cst.Call and not _pure_call(node, ctx):
            return False
        if type(node) in (cst.Await, cst.Yield, cst.NamedExpr, cst.Lambda):
            return False
    return True


def deletion(statement: cst.SimpleStatementLine, ctx: FileContext) -> Edit | None:
    """The edit deleting a statement's whole lines; None when it shares a line with another."""
    where = ctx.range(statement)
    first, last = where.start.line, where.end.line
    if ctx.lines[first - 1][: where.start.column].strip():
        return None
    if last >= len(ctx.lines):
        return None
    return Edit(Location(first, 1), Location(last + 1, 1), "")


def _pure_call(call: cst.Call, ctx: FileContext) -> bool:
    """A call that only computes its value: a builtin or `json.dumps` as written, or a name the
    module's imports resolve to one of them or to a protocol model (`import json as j`, `from
    mcp.types import TextContent`)."""
    name = dotted(call.func)
    if name is None:
        return False
    if name in _PURE_CALLS:
        return True
    resolved = ctx.model.aliases.resolve_dotted(name)
    return resolved is not None and (resolved in _PURE_CALLS or resolved.startswith(_PURE_MODULES))


def text_built_by_a_helper(value: cst.BaseExpression, exception: str | None, ctx: FileContext, *, constructor: bool) -> bool:
    """Does a project helper write or add to the text the statement sends? `return report(
    "Lookup failed", e)` hands it the exception (or `{"error": f"...{e}"}`, text made of it);
    `return add_hint(build_error(text))` has a helper post-process another's result. Rewriting the statement would drop what the helper
    adds (a hint, a category, a reference), so the fix belongs in the helper, not here.
    `constructor`: `value` is the exception class being raised, which stays."""
    for node in descendants(value, into_scopes=False):
        if not _helper_call(node, ctx) or (node is value and constructor):
            continue
        for argument in node.args:
            for inner in descendants(argument.value, into_scopes=False):
                if exception is not None and type(inner) is cst.Name and inner.value == exception:
                    return True  # the exception (or text made of it) handed to the helper
                if _helper_call(inner, ctx):
                    return True  # a helper's result handed to another helper
    return False


def _helper_call(node: cst.CSTNode, ctx: FileContext) -> bool:
    """A call of a named function (`report(...)`, `self._wrap(...)`, `errors.build(...)`) that
    may do more than compute text: not a builtin, a cast, or a string method (`"...".format`)."""
    if type(node) is not cst.Call:
        return False
    name = dotted(node.func)
    if name is None or name in _TRANSPARENT_CALLS or _pure_call(node, ctx):
        return False
    # A class (PEP 8's CapWords: `SearchResult(title=msg)`) builds a value of the fields given;
    # it writes no text of its own.
    return not name.rpartition(".")[2][:1].isupper()


# Calls that pass their argument's value on unchanged (a type cast, an await helper).
_TRANSPARENT_CALLS = frozenset({"cast", "typing.cast"})


# -- would the new raise escape? -----------------------------------------------------------------


# ToolError and the framework's bases of it, as clauses name them.
_TOOL_ERROR_NAMES = frozenset({"ToolError"}) | TOOL_ERROR_BASE_NAMES


def raise_is_caught(fn: FunctionFacts, sink: cst.CSTNode, ctx: FileContext, raised: str = "ToolError") -> bool:
    """Would `raise <raised>(...)` written at `sink` be caught by a `try` of the function around
    it (`except Exception:` after the checks of a tool)? Then turning a return into that raise
    would hand the message to the handler instead of the client: the fix must not."""
    seen: set[int] = set()
    for handler in fn.handlers:
        node = handler.try_node
        if id(node) in seen or type(node) is not cst.Try:
            continue
        seen.add(id(node))
        names = _TOOL_ERROR_NAMES if raised == "ToolError" else frozenset({raised})
        if lies_within(node.body, sink) and catches(try_guard(node, _clauses(fn, node)), names):
            return True
    return False


# Blocks of small statements (exact types, tested per statement: libcst's ABC isinstance is slow).
_STATEMENT_LINES = frozenset({cst.SimpleStatementLine, cst.SimpleStatementSuite})


def lies_within(outer: cst.CSTNode, statement: cst.CSTNode) -> bool:
    """Whether `statement` (a return, a raise) lies in `outer` (a block, an `except` clause), at
    any depth: what comparing their ranges tells, without asking for ranges. The range of a `try`
    body or an `except` clause costs generating its whole code, about ten times this walk, which
    reads statements only, never their expressions (where no statement can be)."""
    if not isinstance(statement, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
        return holds(outer, statement)
    stack: list[cst.CSTNode] = [outer]
    while stack:
        node = stack.pop()
        if node is statement:
            return True
        if type(node) in _STATEMENT_LINES:
            if any(small is statement for small in node.body):
                return True
            continue
        body = getattr(node, "body", None)
        if isinstance(body, (list, tuple)):
            stack.extend(body)  # a block's statements
        elif body is not None:
            stack.append(body)  # a compound statement's block
        for field in ("orelse", "finalbody"):
            branch = getattr(node, field, None)
            if branch is not None:
                stack.append(branch)
        stack.extend(getattr(node, "handlers", ()))
        stack.extend(getattr(node, "cases", ()))
    return False


def _clauses(fn: FunctionFacts, node: cst.Try | cst.TryStar) -> list[Handler]:
    """The Handler records of one `try` statement, in clause order."""
    return [handler for handler in fn.handlers if handler.try_node is node]


def toolerror_pass_through(fn: FunctionFacts, sink: cst.CSTNode, ctx: FileContext) -> list[tuple[int, str, str, str]] | None:
    """Where `except ToolError: raise` must go so that a ToolError raised at `sink` leaves the
    function: (row of the first `except` that would catch it, its indent, its body's indent, its
    Handler.site) for each `try` around the sink. None when the raise escapes anyway, or cannot be
    let through (a `try/except*`, or a handler on a line it shares)."""
    seen: set[int] = set()
    inserts: list[tuple[int, str, str, str]] = []
    for handler in fn.handlers:
        node = handler.try_node
        if id(node) in seen:
            continue
        seen.add(id(node))
        if not lies_within(node.body, sink):
            continue
        if type(node) is not cst.Try:
            return None
        guard = try_guard(node, _clauses(fn, node))
        for clause, (names, reraises, site) in zip(node.handlers, guard):
            if names & _TOOL_ERROR_NAMES or "*" in names:
                if reraises:
                    break  # `except Exception: ...; raise`: it goes through already
                if names & _TOOL_ERROR_NAMES:
                    # The author handles ToolError (or the framework's base of it) here: a
                    # pass-through before it would make that clause unreachable.
                    return None
                row = ctx.start_line(clause)
                line = ctx.lines[row - 1]
                indent = line[: len(line) - len(line.lstrip(" \t"))]
                if not line.lstrip().startswith("except") or type(clause.body) is not cst.IndentedBlock:
                    return None
                first = ctx.start_line(clause.body.body[0]) if clause.body.body else row + 1
                inner = ctx.lines[first - 1][: len(ctx.lines[first - 1]) - len(ctx.lines[first - 1].lstrip(" \t"))]
                if len(inner) <= len(indent):
                    return None
                if not only_reports(fn, clause):
                    return None  # the clause rolls back or retries: a pass-through would skip that
                inserts.append((row, indent, inner, site))
                break
    return inserts or None


def own_raises_pass_through(fn: FunctionFacts, handler: Handler, ctx: FileContext) -> tuple[tuple[int, str, str], tuple[str, ...]] | None:
    """`except RateLimitError: raise` before a clause whose text a fix rewrites, for the classes
    of the project's own that the `try` body raises with the author's words and that this clause
    would catch (`raise RateLimitError("... try again in a minute")` in a 429 branch, under
    `except Exception as e: raise ApiError(f"Unexpected error: {e}")`): the old text carried
    their advice through `{e}`, the rewritten one would replace it. ((row of the clause, its
    indent, its body's indent), the classes as written), or None when there are none, or the
    clause cannot be preceded by another."""
    node = handler.try_node
    if type(node) is not cst.Try:
        return None
    guard = try_guard(node, _clauses(fn, node))
    classes: list[str] = []
    raises = list(_raises_of_the_try(fn, node, ctx))
    # Raises written in the `try` body itself, not in a function it calls.
    direct = {id(fact) for fact in fn.raises}
    # A class also raised with a reply's raw body is not let through: the body would go with it.
    leaking = {dotted(fact.node.exc.func) for fact, _ in raises if _raw_body(fact.node.exc)}  # type: ignore[union-attr]
    for fact, caught_inside in raises:
        exc = fact.node.exc
        assert type(exc) is cst.Call
        written = dotted(exc.func)
        if written is None or written in classes or written in leaking:
            continue
        if not _own_class(written, ctx) and not _builtin_advice(exc, written, one_sentence=id(fact) in direct):
            continue
        short = written.rsplit(".", 1)[-1]
        names = {short, *builtin_bases(short)} - {"Exception", "BaseException"}
        clause = next((c for c in guard if c[0] & names or "*" in c[0]), None)
        if clause is None or clause[2] != handler.site or caught_inside(short):
            continue
        if clause[0] & names and not _own_class(written, ctx):
            return None  # a clause of its own for the builtin class (`except FileNotFoundError`): nothing can go before it
        classes.append(written)
    if not classes:
        return None
    at = clause_insertion(handler, ctx)
    return (at, tuple(classes)) if at is not None else None


def clause_insertion(handler: Handler, ctx: FileContext) -> tuple[int, str, str] | None:
    """Where another `except` can go right before this clause: (its row, its indent, its body's
    indent); None when the clause shares its line or its body's with other code."""
    row = ctx.start_line(handler.node)
    line = ctx.lines[row - 1]
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    body = handler.node.body
    if not line.lstrip().startswith("except") or type(body) is not cst.IndentedBlock or not body.body:
        return None
    first = ctx.lines[ctx.start_line(body.body[0]) - 1]
    inner = first[: len(first) - len(first.lstrip(" \t"))]
    if len(inner) <= len(indent):
        return None
    return row, indent, inner


def _raises_of_the_try(fn: FunctionFacts, node: cst.Try, ctx: FileContext) -> Iterator[tuple[RaiseFact, Callable[[str], bool]]]:
    """The raises, outside any `except`, that can reach the clauses of `node` with their own
    text: in its body, and in the functions of this module it calls there, and those they call
    (two levels: a tool's `lamps.switch(...)` whose `self._link()` raises "Not connected to the
    hub"; a client's method raising `ApiError(f"API error [{code}]: {message}")`, the service's
    reason for refusing the request). Each with a test of whether a `try` on the way takes the
    class first."""
    for fact in fn.raises:
        if type(fact.node.exc) is cst.Call and fact.handler is None and lies_within(node.body, fact.node):
            yield fact, lambda short, fact=fact: _caught_inside(fn, node, fact, short)  # type: ignore[misc]
    inner = [h.try_node for h in fn.handlers if h.try_node is not node and lies_within(node.body, h.try_node)]
    seen: set[str] = {fn.qualname}
    first = [call for call in fn.calls if lies_within(node.body, call.node) and not any(lies_within(t.body, call.node) for t in inner)]
    yield from _raises_of_callees(first, ctx, seen, lambda _short: False, depth=1)


def _raises_of_callees(
    calls: list, ctx: FileContext, seen: set[str], caught_before: Callable[[str], bool], depth: int
) -> Iterator[tuple[RaiseFact, Callable[[str], bool]]]:
    """The raises outside any `except` of this module's functions that `calls` run, and (while
    `depth` < 2) of those they call in turn, each with its test of being caught on the way
    (`caught_before`; from the second level on, also a `try` of the caller around the call)."""
    for call in calls:
        qual = module_function(call.callee, ctx)
        callee = ctx.model.functions.get(qual) if qual else None
        if callee is None or qual in seen:
            continue
        seen.add(qual)
        if depth > 1:
            # A `try` of the calling helper around this call takes what it catches first.
            caught = lambda short, call=call: caught_before(short) or any(catches(g, short) for g in call.guarded)  # noqa: E731
        else:
            caught = caught_before  # the tool's own `try` is around the first call: it is the one asked about
        for fact in callee.raises:
            if type(fact.node.exc) is cst.Call and fact.handler is None:
                yield fact, lambda short, fact=fact, caught=caught: fact.caught_here(short) or caught(short)  # type: ignore[misc]
        if depth < 2:
            yield from _raises_of_callees([inner for inner in callee.calls if inner.handler is None], ctx, seen, caught, depth + 1)


def _builtin_advice(exc: cst.Call, written: str, one_sentence: bool = False) -> bool:
    """Is this a builtin exception raised with the author's advice (`raise RuntimeError("API_KEY
    is not set. Configure it in your server settings.")`): a literal message, written outside any
    `except` (the caller checked), so no caught exception's text is in it, that says what is wrong
    and then, in a sentence of its own, what to do? A bare status (`f"HTTP error {status}"`) is
    no advice: the rewritten clause may replace it. With `one_sentence` (a raise written in the
    `try` body itself, where the author checks the tool's input: `raise ValueError("page must be
    at least 1")`), one sentence of substance is enough: it says what the next call must change."""
    if written not in BUILTIN_EXCEPTIONS or not exc.args or exc.args[0].keyword is not None:
        return False
    message = exc.args[0].value
    if type(message) not in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString):
        return False
    if _SECOND_SENTENCE.search(_literal_text(message)):
        return True
    # An f-string's values are no words of the author's ("HTTP error {status}" says none).
    return one_sentence and says_something(literal_text(message) or "")


# A sentence after another: "... is not set. Configure it ...", "... not found; set ... to ...".
_SECOND_SENTENCE = lazy_compile(r"\w[^.;!?]*\w[.;!?]\s+[A-Za-z]+\s+\w")


def _literal_text(node: cst.BaseExpression) -> str:
    """The written words of a string literal, f-string or implicit concatenation (each value an f-string
    formats stands as `x`)."""
    if type(node) is cst.ConcatenatedString:
        return _literal_text(node.left) + _literal_text(node.right)
    if type(node) is cst.SimpleString:
        return str(node.evaluated_value)
    if type(node) is cst.FormattedString:
        return "".join(part.value if type(part) is cst.FormattedStringText else "x" for part in node.parts)
    return ""


def advice_in_its_own_clause(fn: FunctionFacts, handler: Handler, ctx: FileContext) -> bool:
    """Does the clause catch by name (`except FileNotFoundError as e: return f"Error: {e}"`) a builtin
    class that the `try` raises with the author's own advice (a set-up helper's instructions)? Its
    text is that advice: a fix rewriting it would lose what the next call needs to know."""
    node = handler.try_node
    if type(node) is not cst.Try:
        return False
    caught = {name.rsplit(".", 1)[-1] for name in handler.caught}
    for fact, caught_inside in _raises_of_the_try(fn, node, ctx):
        exc = fact.node.exc
        assert type(exc) is cst.Call
        written = dotted(exc.func)
        if written is None or not _builtin_advice(exc, written) or _raw_body(exc):
            continue
        short = written.rsplit(".", 1)[-1]
        if caught & ({short, *builtin_bases(short)} - {"Exception", "BaseException"}) and not caught_inside(short):
            return True
    return False


def own_text_under_a_broad_clause(fn: FunctionFacts, handler: Handler, ctx: FileContext) -> bool:
    """Does a broad clause (`except Exception as e: return f"Error turning it off: {e}"`) catch a
    plain `Exception` the `try` raises with the author's own literal words (`raise
    Exception("Not connected to the device")` in a helper of this module it calls there)? No
    `except Exception: raise` can go before the clause for that class, and the rewritten text
    would replace what the model needs to know (to connect first): the clause is left as written."""
    node = handler.try_node
    if type(node) is not cst.Try:
        return False
    caught = {name.rsplit(".", 1)[-1] for name in handler.caught}
    if handler.caught and not caught & {"Exception", "BaseException"}:
        return False
    for fact, caught_inside in _raises_of_the_try(fn, node, ctx):
        exc = fact.node.exc
        assert type(exc) is cst.Call
        written = dotted(exc.func)
        if written not in {"Exception", "BaseException"} or not exc.args or exc.args[0].keyword is not None:
            continue
        message = exc.args[0].value
        if type(message) not in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString) or _raw_body(exc):
            continue
        if re.search(r"[A-Za-z]{2,}", _literal_text(message)) and not caught_inside(written):
            return True
    return False


def module_function(callee: str | None, ctx: FileContext) -> str:
    """The qualified name of the module's function or method a call runs (`client.get_orders`
    on a module-level `client = OrdersClient(...)`), "" when it is none of the module's."""
    if not callee:
        return ""
    if callee in ctx.model.functions:
        return callee
    prefix = f"{ctx.model.module}." if ctx.model.module else ""
    owner, _, method = callee[len(prefix) :].rpartition(".") if callee.startswith(prefix) else ("", "", "")
    made = ctx.instances.get(owner)
    return f"{made}.{method}" if made is not None and f"{made}.{method}" in ctx.model.functions else ""


def _raw_body(exc: cst.Call) -> bool:
    """Does the raised call read a reply's raw body (`resp.text`, `resp.content`)?"""
    return any(type(n) is cst.Attribute and n.attr.value in {"text", "content", "body"} for n in descendants(exc))


def _own_class(written: str, ctx: FileContext) -> bool:
    """Is the class defined by the project, here or in a module of its own package (a library's
    class may be raised by the library too, with its own text)?"""
    root = written.split(".")[0]
    if root in ctx.model.aliases.relative_names:
        return True
    resolved = ctx.model.aliases.resolve_dotted(written)
    if resolved is None:
        return f"{ctx.model.module}.{written}" in ctx.model.classes if ctx.model.module else written in ctx.model.classes
    return resolved.split(".")[0] == ctx.model.module.split(".")[0] and resolved.split(".")[0] not in {"mcp", "fastmcp"}


def _caught_inside(fn: FunctionFacts, outer: cst.Try, fact: RaiseFact, short: str) -> bool:
    """Is the raise caught by a `try` nested in `outer`'s body before it gets there?"""
    for other in fn.handlers:
        inner = other.try_node
        if inner is outer or type(inner) is not cst.Try or not lies_within(outer.body, inner) or not lies_within(inner.body, fact.node):
            continue
        if catches(try_guard(inner, _clauses(fn, inner)), short):
            return True
    return False


# -- partial success and the project's own texts ------------------------------------------------

# A docstring saying the function's failures are reported, not raised ("a failed move is
# reported, not raised", "never raises", "returns a warning instead of raising").
_NOT_RAISED = lazy_compile(
    r"(?i)\b(?:not|never|rather\s+than|instead\s+of|without)\s+(?:be(?:ing)?\s+)?rais(?:e|es|ed|ing)\b|\bdoes\s*n[o']t\s+raise\b"
    r"|\bnothing\s+(?:\w+\s+){0,2}(?:may|can|should|must|will)\s+raise\b"
)
# Words of a reply that reports work done beside a step that failed: a warning, a success, a
# fallback ("Showing a preview instead").
_PARTIAL_WORDS = lazy_compile(r"(?i)\bwarn(?:ing)?\b|\u26a0|\bsuccessful(?:ly)?\b|\bpartial(?:ly)?\b|\bshowing\b.*\binstead\b|\bfall\s*back\b")


def reports_partial_success(fn: FunctionFacts, handler: Handler | None, value: cst.BaseExpression, ctx: FileContext) -> bool:
    """Does the `except` report a partial success rather than a failure of the call? The work was
    done and a side step failed: the `try` is one item of a loop that collects what succeeded,
    and the reply reports those items beside the failure (see `_reports_collected_items`); the
    function's docstring says its failures are reported, not raised; or, where the code shows
    no such structure, the reply (through the handler's locals) speaks of a warning, a success,
    a fallback. Turning that return into a raise tells the model the call failed after it did
    the work (a created item it would create again)."""
    if handler is None:
        return False
    if _reports_collected_items(fn, handler, value) or degrades(fn, handler):
        return True
    doc = fn.node.get_docstring(clean=False) if type(fn.node) is cst.FunctionDef else None
    if doc and _NOT_RAISED.search(doc):
        return True
    return bool(_PARTIAL_WORDS.search(" ".join(_literal_words(value, handler, ctx, 0))))


_COLLECTING_METHODS = frozenset({"append", "add", "extend", "update", "insert", "appendleft"})

# A key or attribute that marks an answer as partial (`result["partial"] = True`, `meta.degraded = True`).
_PARTIAL_MARK = lazy_compile(r"(?i)partial|degraded|incomplete")


def degrades(fn: FunctionFacts, handler: Handler) -> bool:
    """Does the clause degrade on purpose? It records the failure into a value the function goes
    on to return (`meta.notes.append(f"could not fetch the price list: {e}")`, `warnings.append(...)`,
    `result["partial"] = True`) or into a collection before it goes on with the loop (`continue`):
    the answer is given without the failed part. A raise there would fail the whole call and
    leave the note dead; the fix keeps the flow and only takes the exception's text out."""
    if handler.node is None:
        return False  # a gathered exception (`asyncio.gather(..., return_exceptions=True)`): no clause
    body = handler.node.body
    assigned_here = {
        target.target.value
        for node in descendants(body, into_scopes=False)
        if type(node) is cst.Assign
        for target in node.targets
        if type(target.target) is cst.Name
    }
    recorded: set[str] = set()
    for node in descendants(body, into_scopes=False):
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _COLLECTING_METHODS:
            recorded |= _root_names(node.func.value)
        elif type(node) is cst.Assign and dotted(node.value) == "True":
            for target in node.targets:
                key = target.target.attr.value if type(target.target) is cst.Attribute else literal_text(target.target.slice[0].slice.value) if type(target.target) is cst.Subscript and type(target.target.slice[0].slice) is cst.Index else None
                if key and _PARTIAL_MARK.search(key):
                    recorded |= _root_names(target.target)
    recorded -= assigned_here | {handler.name or ""}
    if not recorded:
        return False
    if any(type(node) is cst.Continue for node in descendants(body, into_scopes=False)):
        return True
    return any(
        type(node) is cst.Return and node.value is not None and _names_in(node.value) & recorded
        for node in descendants(fn.node.body, into_scopes=False)
    )


def _root_names(node: cst.BaseExpression) -> set[str]:
    """The local a receiver is reached from: `meta` of `meta.notes`, `result["warnings"]`."""
    while type(node) in (cst.Attribute, cst.Subscript):
        node = node.value
    return {node.value} if type(node) is cst.Name else set()


def _reports_collected_items(fn: FunctionFacts, handler: Handler, value: cst.BaseExpression) -> bool:
    """`for item in items: try: ...; done.append(item) except E as e: return f"Did {done};
    {item} failed: {e}"`: the `try` runs in a loop that collects the items that succeeded (a
    list, a set, a counter; outside the handler), and the reply sent from the handler, or the
    function's reply after the loop that the handler adds the failure to, reports them: the
    earlier items are done, so the call did not fail as a whole."""
    loop = next(
        (node for node in descendants(fn.node.body, into_scopes=False) if type(node) in (cst.For, cst.While) and lies_within(node.body, handler.try_node)),
        None,
    )
    if loop is None:
        # `try: for chunk in chunks: rows.extend(fetch(chunk)) except E: return {"error": ...,
        # "results": rows}`: the loop runs inside the `try`, and the reply hands on the rows the
        # earlier rounds collected (paid for, perhaps): a partial result, not a failed call.
        inner = [node for node in descendants(handler.try_node.body, into_scopes=False) if type(node) in (cst.For, cst.While)]
        return any(_names_in(value) & _collected(node.body, exclude=None) for node in inner)
    succeeded = _collected(loop.body, exclude=handler.node)
    if not succeeded:
        return False
    if _names_in(value) & succeeded:
        return True  # the handler's own reply reports what succeeded so far
    failed = _collected(handler.node.body, exclude=None)
    if not failed:
        return False
    # The handler adds the failure to a collection; the function's reply after the loop sends
    # both what succeeded and what failed.
    return any(
        type(node) is cst.Return and node.value is not None and not lies_within(loop, node) and _names_in(node.value) & succeeded and _names_in(node.value) & failed
        for node in descendants(fn.node.body, into_scopes=False)
    )


def _collected(block: cst.CSTNode, exclude: cst.CSTNode | None) -> set[str]:
    """Names `block` adds items to (`done.append(x)`, `done[k] = v`, `count += 1`), outside
    `exclude`."""
    names: set[str] = set()
    skipped = {id(n) for n in descendants(exclude, into_scopes=False)} if exclude is not None else set()
    for node in descendants(block, into_scopes=False):
        if id(node) in skipped:
            continue
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _COLLECTING_METHODS:
            if type(node.func.value) is cst.Name:
                names.add(node.func.value.value)
        elif type(node) is cst.AugAssign and type(node.target) is cst.Name:
            names.add(node.target.value)
        elif type(node) is cst.Assign:
            names.update(t.target.value.value for t in node.targets if type(t.target) is cst.Subscript and type(t.target.value) is cst.Name)
    return names


# A docstring promising a reply on every path ("Always returns a dict", "never raises").
_ALWAYS_RETURNS = lazy_compile(r"(?i)\balways\s+returns?\b|\bnever\s+(?:raises?|throws?|fails?)\b")
# Parameters that are the framework's or the object's, not an argument the caller chose.
_NOT_ARGUMENTS = frozenset({"self", "cls", "ctx", "context"})


def never_raises(fn: FunctionFacts) -> bool:
    """Is the function written to answer, never to raise? Its docstring says so ("never raises",
    "always returns ..."), a comment in it does (`except Exception:  # reports, never raises`),
    or it is a status check taking no argument (`health_check()`, `ping()`): whoever calls it
    reads the status it returns, so a failure it reports is its answer. A fix there keeps the
    reply (without the exception's text) or is not offered; it never turns it into a raise."""
    doc = fn.node.get_docstring(clean=False) if type(fn.node) is cst.FunctionDef else None
    if doc and (_NOT_RAISED.search(doc) or _ALWAYS_RETURNS.search(doc)):
        return True
    if any(_NOT_RAISED.search(comment) or _ALWAYS_RETURNS.search(comment) for comment in _comments(fn.node)):
        return True
    return is_status_tool(fn.name) and not set(fn.params) - _NOT_ARGUMENTS


def _comments(function: cst.FunctionDef) -> Iterator[str]:
    """The comments written inside a function: on a block's opening line (`except ...:  #
    ...`), on lines of their own, and after a statement."""
    for node in descendants(function.body, into_scopes=False):
        if type(node) is cst.IndentedBlock and node.header.comment is not None:
            yield node.header.comment.value
        for line in getattr(node, "leading_lines", ()):
            if line.comment is not None:
                yield line.comment.value
        trailing = getattr(node, "trailing_whitespace", None)
        if type(trailing) is cst.TrailingWhitespace and trailing.comment is not None:
            yield trailing.comment.value


def _literal_words(value: cst.CSTNode, handler: Handler, ctx: FileContext, depth: int) -> Iterator[str]:
    """The literal text in `value`, and in the values of the handler's locals it reads."""
    for node in descendants(value, into_scopes=False):
        if type(node) is cst.SimpleString:
            text = node.evaluated_value
            if isinstance(text, str):
                yield text
        elif type(node) is cst.FormattedStringText:
            yield node.value
        elif type(node) is cst.Name and depth < 3:
            for statement in handler.node.body.body:
                assigned = _assigned(statement, node.value)
                if assigned is not None:
                    yield from _literal_words(assigned, handler, ctx, depth + 1)


def raises_own_text(handler: Handler, ctx: FileContext) -> bool:
    """Is the caught exception's text the project's own? The `try` raises a class the clause
    catches itself (`raise ValueError(f"Row {i} must be a list")`), or calls only the project's
    functions around a builtin class such as ValueError (its builders' validation messages, for
    the model to correct its call with). Dropping that text drops the hint."""
    try_node = handler.try_node
    if type(try_node) is not cst.Try or not handler.caught:
        return False
    caught = {name.rpartition(".")[2] for name in handler.caught}
    if caught & {"Exception", "BaseException"}:
        return False
    calls: list[cst.Call] = []
    for node in descendants(try_node.body, into_scopes=False):
        if type(node) is cst.Raise and type(node.exc) is cst.Call:
            raised = (dotted(node.exc.func) or "").rpartition(".")[2]
            if raised in caught:
                return True
        if type(node) is cst.Call:
            calls.append(node)
    if not caught <= {"ValueError"}:
        return False
    own = [call for call in calls if project_call(call, ctx)]
    others = [call for call in calls if not project_call(call, ctx) and not _raises_no_value_error(call)]
    return bool(own) and not others


def _raises_no_value_error(call: cst.Call) -> bool:
    if type(call.func) is cst.Attribute and call.func.attr.value in _CONTAINER_METHODS:
        return True  # `requests.extend(built)`: a local list takes the built value
    return dotted(call.func) in _NEVER_RAISE_VALUE_ERROR


_CONTAINER_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault"})
# Builtins that raise no ValueError of their own text for the arguments a validator passes.
_NEVER_RAISE_VALUE_ERROR = frozenset({"len", "isinstance", "type", "enumerate", "list", "tuple", "set", "str", "repr", "bool", "zip", "sorted"})


def composed_by_a_helper(handler: Handler, sink: cst.CSTNode, ctx: FileContext) -> bool:
    """Is the exception (or text made of it) handed, with other values, to a helper whose result
    the sink sends (`hint = enablement_message(details, service)`)? Such a helper writes a
    message of its own around the text (a link, what to enable, when to retry): dropping its
    result drops the project's hint, keeping it keeps the leak, so no fix here (the helper is
    where to fix it). A helper handed the exception alone (`kind, text = describe(e)`) only
    restates it."""
    if handler.name is None:
        return False
    tainted = {handler.name}  # names holding the exception or text made of it
    composed: set[str] = set()  # names holding a helper's message made of it, or built from one
    for small in descendants(handler.node.body, into_scopes=False):
        if type(small) not in (cst.Assign, cst.AnnAssign) or small.value is None:
            continue
        read = _names_in(small.value)
        targets = [t.target for t in small.targets] if type(small) is cst.Assign else [small.target]
        bound = {n.value for target in targets for n in descendants(target) if type(n) is cst.Name}
        if read & composed:
            composed |= bound
            continue
        if not read & tainted:
            continue
        tainted |= bound
        if any(
            _helper_call(call, ctx)
            and not is_project_log_call(call)  # a log function's result is its log line
            and len(call.args) >= 2
            and any(_names_in(a.value) & tainted for a in call.args)
            for call in descendants(small.value, into_scopes=False)
        ):
            composed |= bound
    return bool(_names_in(sink) & composed)


def written_across_branches(fn: FunctionFacts, value: cst.BaseExpression) -> bool:
    """`error_response["message"] = ...` in each branch, then `return error_response`: the local
    returned is written item by item after it is built, so its message depends on the branch
    taken (a rewrite of the return from its first value would leave those writes dead)."""
    if type(value) is not cst.Name:
        return False
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) in (cst.Assign, cst.AugAssign):
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
            for target in targets:
                if type(target) is cst.Subscript and type(target.value) is cst.Name and target.value.value == value.value:
                    return True
        elif type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in {"update", "setdefault"}:
            receiver = node.func.value
            if type(receiver) is cst.Name and receiver.value == value.value:
                return True
    return False


def dead_unpacking(handler: Handler, sink: cst.CSTNode, replacement: str, ctx: FileContext) -> list[Edit]:
    """Deletions of the handler's `kind, text = describe(e)` lines (a helper handed the exception,
    its result unpacked or bound) whose names only `sink` read: replaced by `replacement`, they
    are dead, which F841 does not report for a tuple. The call only reads the exception (a log
    function's call stays)."""
    if handler.name is None:
        return []
    still_read = set(re.findall(r"[A-Za-z_]\w*", replacement))
    edits: list[Edit] = []
    for statement in handler.node.body.body:
        if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
            continue
        small = statement.body[0]
        if type(small) is not cst.Assign or len(small.targets) != 1 or type(small.value) not in (cst.Call, cst.Await):
            continue
        call = small.value.expression if type(small.value) is cst.Await else small.value
        if type(call) is not cst.Call or is_project_log_call(call) or not _helper_call(call, ctx):
            continue
        if [a.value.value for a in call.args if type(a.value) is cst.Name] != [handler.name] or len(call.args) != 1:
            continue
        target = small.targets[0].target
        names = [n.value for n in descendants(target) if type(n) is cst.Name]
        if type(target) not in (cst.Tuple, cst.Name) or not names or set(names) & still_read:
            continue
        if any(_reads(handler, name, [sink, small.targets[0]]) for name in names):
            continue
        dropped = deletion(statement, ctx)
        if dropped is not None:
            edits.append(dropped)
    return edits


# Calls that run what they are given (a query, an expression): their error is a verdict on it.
_EVALUATORS = frozenset(
    {"execute", "executemany", "executescript", "exec_driver_sql", "fetchrow", "fetchval", "compile", "literal_eval", "eval", "exec", "evaluate"}
)


def runs_a_handed_function(handler: Handler, fn: FunctionFacts, ctx: FileContext) -> bool:
    """Does the `try` call a function it was handed: `func(*args, **kwargs)` in a decorator's
    wrapper (`func` a parameter of the decorator), `action()` in a helper taking a callable? What
    fails there is whatever that function does, its own messages included: no words of the code
    name that operation, and a rewritten text would replace every such message (a tool that
    reaches the clause today is only the one that uses it today)."""
    outer = ctx.model.functions.get(fn.qualname.rpartition(".")[0])
    handed = set(fn.params) | (set(outer.params) if outer is not None else set())
    rebound = set(fn.local_names) - set(fn.params)
    for node in descendants(handler.try_node.body, into_scopes=False):
        if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value in handed - rebound:
            return True
    return False


def evaluates_a_parameter(handler: Handler, fn: FunctionFacts) -> bool:
    """Does the `try` run what the caller wrote (`conn.execute(text(sql))` of the tool's `sql`
    argument, `eval(expression)`)? Then the exception is the engine's verdict on the model's own
    input ("no such column: nme"), the one thing it can correct its next call with: no fix drops it."""
    params = set(fn.params) - {"self", "cls"}
    if not params:
        return False
    for node in descendants(handler.try_node.body, into_scopes=False):
        if type(node) is not cst.Call:
            continue
        name = dotted(node.func)
        if name is None or name.rpartition(".")[2] not in _EVALUATORS:
            continue
        if any(_is_parameter(a.value, params) for a in node.args):
            return True
    return False


def _is_parameter(value: cst.BaseExpression, params: set[str]) -> bool:
    """The argument as the caller wrote it: the parameter, or it wrapped in a call (`text(sql)`);
    not a value selected by it (`QUERIES[name]` is the server's own query)."""
    if type(value) is cst.Name:
        return value.value in params
    if type(value) is cst.Call:
        return any(type(a.value) is cst.Name and a.value.value in params for a in value.args)
    return False


# A reply that an empty collection is empty: an answer, not a failure ("No rows found in table
# t", "No results", "The folder is empty"), unlike a named item missing ("Order 42 not found").
_EMPTY_ANSWER = lazy_compile(
    r"(?i)^\W*no\s+(?:[\w-]+\s+){0,3}?(?:found|returned|available|matched|match)\b"
    r"|^\W*no\s+(?:results|rows|items|records|entries|matches|data|files|messages|events)\b"
    r"|\b(?:is|are|was)\s+empty\b"
)


def reports_an_empty_answer(value: cst.BaseExpression) -> bool:
    """Does the returned text say a collection is empty (see `_EMPTY_ANSWER`)?"""
    words = " ".join(
        node.evaluated_value if type(node) is cst.SimpleString else node.value
        for node in descendants(value, into_scopes=False)
        if type(node) in (cst.SimpleString, cst.FormattedStringText) and (type(node) is not cst.SimpleString or isinstance(node.evaluated_value, str))
    )
    return bool(_EMPTY_ANSWER.search(words.strip()))


def only_reports(fn: FunctionFacts, clause: cst.ExceptHandler) -> bool:
    """Whether the `except` clause only reports the failure: logs it, builds its message into
    locals, returns or raises. A pass-through (`except X: raise`) put before a clause that does
    more (rolls state back: assigns an attribute, an item or `del`s one, closes or disconnects;
    retries: `continue`, a sleep, or falls off its end inside a loop) would skip that work for
    the classes let through; such a clause gets no pass-through."""
    body = clause.body.body if type(clause.body) is cst.IndentedBlock else ()
    if not _statements_report(body):
        return False
    ends = bool(body) and _leaves(body[-1])
    return ends or not _in_a_loop(fn, clause)


def _statements_report(statements) -> bool:  # type: ignore[no-untyped-def]
    for statement in statements:
        if type(statement) is cst.If:
            branches: list = [statement.body.body]
            orelse = statement.orelse
            while orelse is not None:
                branches.append(orelse.body.body)
                orelse = orelse.orelse if type(orelse) is cst.If else None
            if not all(_statements_report(branch) for branch in branches):
                return False
            continue
        if type(statement) is not cst.SimpleStatementLine:
            return False  # a loop, a `with`, a nested `try`: work beyond a report
        if not all(reports_only(small) for small in statement.body):
            return False
    return True


def _leaves(statement: cst.CSTNode) -> bool:
    """Whether the clause's last statement leaves it (a return or raise), not falling through."""
    if type(statement) is cst.SimpleStatementLine:
        return type(statement.body[-1]) in (cst.Return, cst.Raise)
    if type(statement) is cst.If and statement.orelse is not None:
        last = statement.orelse.body.body[-1:] if type(statement.orelse) is not cst.If else [statement.orelse]
        return bool(statement.body.body) and _leaves(statement.body.body[-1]) and bool(last) and _leaves(last[0])
    return False


def _in_a_loop(fn: FunctionFacts, clause: cst.ExceptHandler) -> bool:
    """Whether the clause sits in a loop of the function (falling off its end runs the loop again)."""
    return any(type(node) in (cst.For, cst.While) and lies_within(node.body, clause) for node in descendants(fn.node.body))


def lazy_log_line(text: str, braces: bool = False) -> str:
    """A one-line standard-library log call the fix writes anew (a copy of the author's, placed in
    a clause the fix adds), with an f-string message turned into the logging module's own lazy
    `%s` arguments: `logger.error(f"Failed for {name}: {e}")` -> `logger.error("Failed for %s:
    %s", name, e)`; with `braces`, loguru's own `{}` placeholders. The author's line stays as it was; only the fix's new line follows the lazy
    form (ruff G004), so the fix adds no lint finding. Any other line, and an f-string with a format
    spec or a nested quote, comes back unchanged."""
    try:
        statement = cst.parse_statement(text)
    except cst.ParserSyntaxError:
        return text
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1 or type(statement.body[0]) is not cst.Expr:
        return text
    call = statement.body[0].value
    if type(call) is not cst.Call or not call.args or call.args[0].keyword is not None or type(call.args[0].value) is not cst.FormattedString:
        return text
    message = call.args[0].value
    pieces: list[str] = []
    values: list[cst.BaseExpression] = []
    for part in message.parts:
        if type(part) is cst.FormattedStringText:
            pieces.append(part.value if braces else part.value.replace("%", "%%"))  # `{{` stays `{{` for loguru
        elif type(part) is cst.FormattedStringExpression and part.format_spec is None and part.conversion in (None, "s", "r") and not part.equal:
            if braces:
                pieces.append("{!r}" if part.conversion == "r" else "{}")
            else:
                pieces.append("%r" if part.conversion == "r" else "%s")
            value = part.expression
            if part.conversion is None and type(value) is cst.Call and type(value.func) is cst.Name and value.func.value == "str" and len(value.args) == 1 and value.args[0].keyword is None:
                value = value.args[0].value  # `%s` already calls str()
            values.append(value)
        else:
            return text
    if not values:
        return text
    letters = message.start.rstrip("\"'")
    quote = message.start[len(letters) :]
    literal = cst.SimpleString(f"{letters.replace('f', '').replace('F', '')}{quote}{''.join(pieces)}{message.end}")
    arguments = [cst.Arg(literal), *(cst.Arg(value) for value in values), *call.args[1:]]
    rewritten = call.with_changes(args=[a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in arguments])
    return cst.Module(body=[statement.with_changes(body=[statement.body[0].with_changes(value=rewritten)])]).code.strip()
