"""MCP011 retry-invited-after-uncertain-mutation: a failure whose write may already have happened
invites the same call again (or the code runs it again).

A write's outcome is unknown when the failure came from the transport or the far side while the
write was in flight: a timeout, a lost connection, a 5xx, or a clause that catches everything
around it. A message inviting a retry there ("please try again"), a loop that goes round again,
or an `except` clause that calls the write again may apply it twice. Writes are the
mutations of model/mutations.py (`mutation_of`), those that cross a wire or a process boundary: HTTP writes, database
writes and commits, SaaS create/update/send calls, subprocesses; plus the module's own functions
whose bodies make one. An idempotency key sent with the write, a condition that guarantees nothing
happened (a 429 or other 4xx, a lock not acquired, a rate limit), or a message that already says
the outcome is unknown and how to check it, make it correct.

"After the write" is read off the engine: a clause's message follows a write whose own failure
may arrive at that clause on the function's control-flow graph (`exception_reaches`: not a
write whose failure a nearer clause takes); a status test follows the write whose response the
tested local holds there (reaching definitions, `FunctionFacts.stores_reaching`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Iterator

import libcst as cst

from mcp_lint.engine.graph import ControlFlowGraph, Node
from mcp_lint.engine.libcst_cfg import build_cfg
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import CallFact, FunctionFacts
from mcp_lint.model.message_text import literal_text
from mcp_lint.model import effects as fx
from mcp_lint.model.mutations import module_level_names, mutation_of
from mcp_lint.model.names import dotted, identifier_words, last_name
from mcp_lint.findings import Finding, Related
from mcp_lint.model.summary import Latent, ServerLatent
from mcp_lint.model.walk import descendants
from mcp_lint.rules.base import Example, FileContext, LinkedProject, RenderContext, Rendered, Rule, latent_finding, related_here, span
from mcp_lint.rules.failure_sinks import failure_sinks, reaches_model
from mcp_lint.rules.mcp011_payload import UncertainWrite, uncertain_write
from mcp_lint.rules.text import clip
from mcp_lint.vocabulary import RETRY_MENTION

# A retry mentioned (vocabulary.RETRY_MENTION) is no invitation when the same clause says not
# to, or says to check first.
_NEGATED = lazy_compile(r"(?:\bnot|n't|\bnever|\bbefore|\bavoid|\bwithout|\binstead of)\W+(?:\w+\W+){0,2}$", re.I)
# The message already says the write may have happened, or how to find out.
_OUTCOME_NAMED = lazy_compile(
    r"\b(?:may|might|could) (?:still |already )?have\b|\b(?:check|verify|confirm|see) (?:whether|if)\b|\boutcome is unknown\b"
    r"|\bunknown whether\b|\bmay already exist|\bbefore retrying\b|\bidempoten",
    re.I,
)
# Caught classes after which a write may have happened: the transport or the far side failed.
_UNCERTAIN_CLASS = lazy_compile(
    r"timeout|timedout|timed_out|connect|network|transport|socket|remoteprotocol|protocolerror|servererror|serviceunavailable"
    r"|badgateway|gatewaytimeout|httperror|httpstatuserror|requestexception|requesterror|clienterror|apierror|apiexception"
    r"|incompleteread|operationalerror|interfaceerror|databaseerror|sqlalchemyerror|readerror|writeerror|oserror|ioerror|brokenpipe|reset",
    re.I,
)
# ... except a failure to connect at all: the request never left (`httpx.ConnectError`,
# `ConnectionRefusedError`), so nothing was written.
_NEVER_SENT = frozenset({"ConnectError", "ConnectTimeout", "ConnectionRefusedError", "PoolTimeout", "NewConnectionError"})
_BROAD = frozenset({"Exception", "BaseException"})
# Names in a condition that guarantee the write did not happen: refused before it ran.
_NOTHING_HAPPENED = lazy_compile(r"rate_?limit|ratelimit|too_?many|throttl|lock|acquire|quota|conflict|exists|not_?found|unauthori|forbidden|permission|invalid|validat", re.I)
_STATUS_NAMES = frozenset({"status_code", "status", "code", "status_int", "http_status"})
# Mutations that cross a wire or a process boundary (model/mutations.py's descriptions): their outcome can
# be unknown. A local file write or an in-memory change fails or succeeds where it runs.
_REMOTE = ("sends an HTTP", "writes to the database", "commits", "calls ", "runs a subprocess")
# Receivers that stand for a remote service (`client`, `api`, `slack_service`, `db`, `session`).
_REMOTE_RECEIVER = lazy_compile(r"client|api|service|session|sdk|remote|server|conn|cursor|\bdb|database|bucket|queue|bot|gateway|http|rest", re.I)
# How many of the writing tools a RetryMiddleware finding shows where they write.
_RELATED_TOOLS = 3
_RETRY_DECORATORS = frozenset({"retry", "on_exception", "retry_async", "async_retry", "backoff"})


def _module_names(ctx: FileContext) -> set[str]:
    names = ctx.memo.get("retry_module_names")
    if not isinstance(names, set):
        names = ctx.memo["retry_module_names"] = module_level_names(ctx.module)
    return names


def remote_write(call: cst.Call, ctx: FileContext, depth: int = 0) -> str | None:
    """What a call writes beyond this process ("sends an HTTP POST"), or None: the mutation
    table (model/mutations.py), or a function of this module whose body makes such a call."""
    if _opens_a_session(call) or _repeats_harmlessly(call):
        return None
    kind = mutation_of(call, ctx.model.aliases, _module_names(ctx))
    if kind is not None:
        receiver = dotted(call.func.value) or "" if type(call.func) is cst.Attribute else ""
        if receiver in _file_handles(ctx):
            return None  # `handle.write(...)` on a file this process opened
        if not kind.description.startswith(_REMOTE):
            return None
        if kind.description.startswith("calls ") and not _remote_handle(receiver, call, ctx):
            return None  # `doc.styles.add_style(...)`: an object in memory, whose outcome is known
        return kind.description
    relayed = _relayed_write(call, ctx)
    if relayed is not None:
        return relayed
    if depth >= 2:
        return None
    handed = _handed_write(call, ctx, depth)
    if handed is not None:
        return handed
    callee = _module_function(call, ctx)
    if callee is None:
        return None
    for inner in callee.calls:
        if inner.handler is None:
            found = remote_write(inner.node, ctx, depth + 1)
            if found is not None:
                return f"{found} (in {callee.name}())"
    return None


# Requests that open a session rather than change the world (a login, an OAuth token grant):
# sent twice, they leave the world as once (a second session), so an unknown outcome harms nothing.
_SESSION_WORDS = frozenset({"login", "logon", "signin", "authenticate", "reauthenticate", "auth", "reauth", "oauth"})
_SESSION_PATH = lazy_compile(r"(?:^|[/_.-])(?:log_?in|log_?on|sign_?in|sign-in|auth|oauth2?|authenticate)(?:$|[/_.?-])|/token(?:$|[/?])", re.I)


def _opens_a_session(call: cst.Call) -> bool:
    """`self._login()`, `client.authenticate(...)`, `session.post(LOGIN_URL, ...)`,
    `httpx.post(f"{base}/oauth/token", ...)`: the call, or the address it sends to, names a login."""
    if any(word in _SESSION_WORDS for word in identifier_words(last_name(dotted(call.func) or ""))):
        return True
    first = call.args[0].value if call.args and call.args[0].keyword is None else None
    if first is None:
        first = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "url"), None)
    if first is None:
        return False
    named = dotted(first)
    if named is not None:
        return any(word in _SESSION_WORDS for word in identifier_words(last_name(named)))
    text = literal_text(first) if type(first) is not cst.FormattedString else "".join(
        part.value for part in first.parts if type(part) is cst.FormattedStringText
    )
    return bool(text) and _SESSION_PATH.search(text) is not None


# Calls that release what the process holds (a connection, a lock, a transaction): done twice,
# they leave the world as once; a clause that closes what the `try` closed re-runs no write.
_RELEASES = fx.CLOSE_METHODS | {"release", "logout", "rollback", "unlock", "cleanup", "dispose"}
# Services asked to compute, not to keep (an embedding, a completion): their "create" stores nothing.
_COMPUTATIONS = frozenset({"embeddings", "embedding", "completions", "moderations"})


def _repeats_harmlessly(call: cst.Call) -> bool:
    """`client.close()`, `self._close(conn)`, `lock.release()`; `client.embeddings.create(...)`."""
    name = dotted(call.func) or ""
    if any(word in _RELEASES for word in identifier_words(last_name(name))):
        return True
    return any(part in _COMPUTATIONS for part in name.split(".")[:-1])


def _rolls_back(handler: Handler) -> bool:
    """Does the clause roll the transaction back (`await conn.rollback()`)? Then the write it
    guarded did not happen, and running it again (or inviting that) applies it once."""
    return any(
        type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "rollback"
        for node in descendants(handler.node.body, into_scopes=False)
    )


def _remote_handle(receiver: str, call: cst.Call, ctx: FileContext) -> bool:
    """Does a `receiver.create_x(...)` call go beyond this process: a handle named like a client
    or service, one the object holds (`self.api`) or the module does, or an awaited call? An
    object the function made or was given (`doc.styles.add_style(...)`) is taken to be in memory."""
    if _REMOTE_RECEIVER.search(receiver):
        return True
    parts = receiver.split(".")
    if len(parts) >= 2 and parts[0] in {"self", "cls"}:
        return True
    facts = ctx.current_facts
    if parts[0] and facts is not None and parts[0] not in facts.local_names:
        return True  # a module-level or imported handle, shared by every call
    return any(type(n) is cst.Await and n.expression is call for n in _awaits(ctx))


def _awaits(ctx: FileContext) -> list[cst.Await]:
    facts = ctx.current_facts
    if facts is None:
        return []
    node = facts.node
    return ctx.per_node("retry_awaits", node, lambda: [n for n in descendants(node.body, into_scopes=False) if type(n) is cst.Await])


_HTTP_WRITES = frozenset({"post", "put", "patch", "delete"})


def _method_parameter(call: cst.Call, ctx: FileContext) -> tuple[int, str] | None:
    """`client.request(method, path)` in a request helper whose `method` is its parameter: the
    parameter's position (self not counted) and name; the helper's callers choose the verb."""
    if type(call.func) is not cst.Attribute or call.func.attr.value != "request":
        return None
    facts = ctx.current_facts
    if facts is None:
        return None
    method = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "method"), None)
    if method is None and call.args and call.args[0].keyword is None and not call.args[0].star:
        method = call.args[0].value
    if method is None:
        method = _unpacked_method(call, facts)
    if type(method) is not cst.Name or method.value not in facts.params or method.value in {"self", "cls"}:
        return None
    return [p for p in facts.params if p not in {"self", "cls"}].index(method.value), method.value


def _unpacked_method(call: cst.Call, fn: FunctionFacts) -> cst.BaseExpression | None:
    """`client.request(**options)` where the local `options` holds `{"method": method, ...}` (or
    had `options["method"] = method` stored) where the call reads it: the method's expression."""
    for argument in call.args:
        if argument.star != "**" or type(argument.value) is not cst.Name:
            continue
        for store in fn.stores_reaching(argument.value.value, call):
            if store.slot == "method":
                return store.value
            value = store.value
            if type(value) is cst.Dict:
                for element in value.elements:
                    if type(element) is cst.DictElement and literal_text(element.key) == "method":
                        return element.value
    return None


def _relayed_write(call: cst.Call, ctx: FileContext) -> str | None:
    """`client.request(method, path)` in a request helper whose `method` parameter a function of
    this module fills with a write (`self._request("POST", ...)`): a write for those callers."""
    parameter = _method_parameter(call, ctx)
    facts = ctx.current_facts
    if parameter is None or facts is None:
        return None
    position, name = parameter
    for caller in ctx.model.functions.values():
        for inner in caller.calls:
            if last_name(dotted(inner.node.func) or "") != facts.name:
                continue
            positional = [a.value for a in inner.node.args if a.keyword is None and not a.star]
            given = positional[position] if 0 <= position < len(positional) else next(
                (a.value for a in inner.node.args if a.keyword is not None and a.keyword.value == name), None
            )
            verb = (literal_text(given) or "").lower() if given is not None else ""
            if verb in _HTTP_WRITES:
                return f"sends an HTTP {verb.upper()} when {caller.name}() asks it to"
    return None


def _handed_write(call: cst.Call, ctx: FileContext, depth: int) -> str | None:
    """`func(*args, **kwargs)` in a wrapper whose `func` parameter a function of this module fills
    with a write (`_with_retries(self.client.post, url, json=body)`): the call the wrapper makes
    is that write, with the caller's remaining arguments."""
    facts = ctx.current_facts
    if facts is None or type(call.func) is not cst.Name or call.func.value not in facts.params or call.func.value in {"self", "cls"}:
        return None
    name = call.func.value
    position = [p for p in facts.params if p not in {"self", "cls"}].index(name)
    for caller in ctx.model.functions.values():
        for inner in caller.calls:
            if last_name(dotted(inner.node.func) or "") != facts.name:
                continue
            positional = [a for a in inner.node.args if a.keyword is None and not a.star]
            given = positional[position] if 0 <= position < len(positional) else next(
                (a for a in inner.node.args if a.keyword is not None and a.keyword.value == name), None
            )
            if given is None or type(given.value) not in (cst.Name, cst.Attribute):
                continue  # a lambda or a call's result: not a request the wrapper makes
            after = {id(a) for a in positional[position + 1 :]}
            rest = [a for a in inner.node.args if a is not given and (a.keyword is not None or a.star or id(a) in after)]
            found = remote_write(cst.Call(func=given.value, args=rest), ctx, depth + 1)
            if found is not None:
                return f"{found} when {caller.name}() hands it `{dotted(given.value) or name}`"
    return None


def _file_handles(ctx: FileContext) -> frozenset[str]:
    """Names the current function binds to a file it opens (`with open(p, "w") as handle`,
    `out = path.open("a")`): writes through them stay on this machine."""
    facts = ctx.current_facts
    if facts is None:
        return frozenset()
    memo = ctx.memo.setdefault("retry_file_handles", {})
    assert isinstance(memo, dict)
    known = memo.get(id(facts.node))
    if known is None:
        names: set[str] = set()
        for node in descendants(facts.node.body, into_scopes=False):
            if type(node) is cst.WithItem and node.asname is not None and _opens_a_file(node.item):
                names.update(n.value for n in descendants(node.asname.name) if type(n) is cst.Name)
            elif type(node) is cst.Assign and _opens_a_file(node.value):
                names.update(t.target.value for t in node.targets if type(t.target) is cst.Name)
        known = memo[id(facts.node)] = frozenset(names)
    return known


def _opens_a_file(expr: cst.BaseExpression) -> bool:
    while type(expr) is cst.Await:
        expr = expr.expression
    if type(expr) is not cst.Call:
        return False
    name = dotted(expr.func) or ""
    return name in {"open", "io.open", "codecs.open", "aiofiles.open", "gzip.open", "tempfile.NamedTemporaryFile"} or (
        type(expr.func) is cst.Attribute and expr.func.attr.value == "open" and name not in {"webbrowser.open"}
    )


def _module_function(call: cst.Call, ctx: FileContext) -> FunctionFacts | None:
    """The function of this module a call runs: `helper(...)`, `self.helper(...)`."""
    name = dotted(call.func) or ""
    parts = name.split(".")
    module = ctx.model.module
    current = ctx.current_facts
    if len(parts) == 1:
        return ctx.model.functions.get(f"{module}.{name}")
    if len(parts) == 2 and parts[0] in {"self", "cls"} and current is not None and current.class_name:
        return ctx.model.functions.get(f"{module}.{current.class_name.rsplit('.', 1)[-1]}.{parts[1]}") or ctx.model.functions.get(
            f"{current.class_name}.{parts[1]}"
        )
    return None


def retry_invitation(text: str) -> str | None:
    """The words of `text` that invite a retry, unless negated or the outcome is already named."""
    if _OUTCOME_NAMED.search(text):
        return None
    for match in RETRY_MENTION.finditer(text):
        if not _NEGATED.search(text[: match.start()]):
            return match.group(0)
    return None


def _uncertain_catch(handler: Handler) -> str | None:
    """What the clause catches that leaves a write's outcome unknown, or None."""
    if not handler.caught:
        return "any exception"
    for caught in handler.caught:
        short = last_name(caught)
        if short in _BROAD:
            return short
        if short not in _NEVER_SENT and _UNCERTAIN_CLASS.search(short):
            return short
    return None


def _status_admits_5xx(test: cst.BaseExpression) -> bool | None:
    """True: the condition holds for a 5xx status (or a failed response in general); False: only
    for statuses that mean the request was refused before it ran (429, < 500, a client error);
    None: not a status test."""
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        inner = dotted(test.expression) or ""
        if last_name(inner) in {"ok", "is_success", "success"}:
            return True
        return None
    name = dotted(test) or ""
    if last_name(name) == "is_server_error":
        return True
    if last_name(name) == "is_client_error":
        return False
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return None
    left = dotted(test.left) or ""
    if last_name(left) not in _STATUS_NAMES:
        return None
    target = test.comparisons[0]
    numbers = _numbers(target.comparator)
    if not numbers:
        return None
    op = target.operator
    if type(op) in (cst.Equal, cst.In):
        return any(n >= 500 for n in numbers)
    if type(op) in (cst.NotEqual, cst.NotIn):
        return True
    if type(op) in (cst.GreaterThanEqual, cst.GreaterThan):
        return min(numbers) < 600
    if type(op) in (cst.LessThan, cst.LessThanEqual):
        return max(numbers) > 500
    return None


# Words an author gives a verdict that a failure is passing (`retryable`, `is_transient`,
# `should_retry`): the far side failed, not refused, which is what a 5xx or a timeout is.
_TRANSIENT_WORDS = frozenset({"retry", "retryable", "retriable", "transient", "temporary"})


def _judged_transient(fn: FunctionFacts, part: cst.BaseExpression, response: str, write: CallFact, at: cst.CSTNode) -> bool:
    """Is `part` a verdict, named as one that the failure is passing, on the write's response,
    made by a function it was handed to: `should_retry(response)`, `response.is_retryable`, or
    `error.retryable` where `error = parse_error(response.status_code, body)` reaches the test?
    The verdict is read where it is made (another function, often another module); its name
    says which failures it admits."""
    if type(part) is cst.UnaryOperation:
        return False  # `not error.retryable`: the other failures
    named = dotted(part.func if type(part) is cst.Call else part) or ""
    if not named or not any(word in _TRANSIENT_WORDS for word in identifier_words(last_name(named))):
        return False
    base = named.split(".")[0]
    handed = [a.value for a in part.args] if type(part) is cst.Call else []
    if base == response or any(_reads(value, response) for value in handed):
        return True
    if base in fn.params or "." not in named:
        return False
    for store in fn.stores_reaching(base, at):
        value = store.value
        while type(value) is cst.Await:
            value = value.expression
        if type(value) is cst.Call and any(_reads(a.value, response) for a in value.args) and _holds_response(fn, response, write, store.statement or at):
            return True
    return False


def _reads(expr: cst.BaseExpression, name: str) -> bool:
    return any(type(n) is cst.Name and n.value == name for n in descendants(expr))


def _numbers(expr: cst.BaseExpression) -> list[int]:
    if type(expr) is cst.Integer:
        return [int(expr.value)]
    if type(expr) in (cst.Tuple, cst.List, cst.Set):
        return [int(e.value.value) for e in expr.elements if type(e.value) is cst.Integer]
    return []


def _guarantees_nothing_happened(conditions: Iterable[cst.BaseExpression], ctx: FileContext) -> bool:
    """A condition around the message that holds only when the write was refused before it ran."""
    for condition in conditions:
        for part in _conjuncts(condition):
            if _status_admits_5xx(part) is False:
                return True
            if type(part) is cst.Call and dotted(part.func) == "isinstance" and len(part.args) == 2:
                classes = part.args[1].value
                names = [e.value for e in classes.elements] if type(classes) is cst.Tuple else [classes]
                if names and all(_NOTHING_HAPPENED.search(last_name(dotted(n) or "")) for n in names):
                    return True
                continue
            text = " ".join(dotted(n) or "" for n in descendants(part) if type(n) in (cst.Name, cst.Attribute))
            if _NOTHING_HAPPENED.search(text):
                return True
    return False


def _conjuncts(test: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    if type(test) is cst.BooleanOperation and type(test.operator) is cst.And:
        yield from _conjuncts(test.left)
        yield from _conjuncts(test.right)
    else:
        yield test


def _sends_idempotency_key(fn: FunctionFacts, ctx: FileContext) -> bool:
    """The function names an idempotency key (a header, an argument, a variable): a repeated
    write is recognised by the far side."""
    known = ctx.memo.setdefault("retry_idempotent", {})
    assert isinstance(known, dict)
    if id(fn.node) not in known:
        text = ctx.code(fn.node).lower()
        known[id(fn.node)] = any(word in text for word in ("idempoten", "dedup", "client_token", "clienttoken", "request_id", "requestid"))
    return bool(known[id(fn.node)])


def _graph(fn: FunctionFacts, ctx: FileContext) -> ControlFlowGraph:
    """The function's control-flow graph (the one its value flow built, or a new one)."""
    graphs = ctx.memo.setdefault("retry_graphs", {})
    assert isinstance(graphs, dict)
    if id(fn.node) not in graphs:
        graphs[id(fn.node)] = fn.flow_order.graph if fn.flow_order is not None else build_cfg(fn.node)
    return graphs[id(fn.node)]


def _node_of(graph: ControlFlowGraph, statement: cst.CSTNode | None, inner: cst.CSTNode) -> Node | None:
    """The graph's node for the statement holding `inner` (a call): the small statement of a
    line that holds it, or a compound statement's header (`with`, `if`, loop)."""
    if type(statement) is cst.SimpleStatementLine:
        for small in statement.body:
            if small is inner or any(node is inner for node in descendants(small)):
                return graph.node_of(small)
        return None
    return graph.node_of(statement) if statement is not None else None


def _fails_into(fn: FunctionFacts, ctx: FileContext, call: CallFact, handler: Handler) -> bool:
    """May the write's own failure arrive at the clause (an exception raised while it runs,
    not taken by a clause nearer to it)? Read off the control-flow graph."""
    graph = _graph(fn, ctx)
    node = _node_of(graph, call.statement, call.node)
    clause = graph.node_of(handler.node)
    if node is None or clause is None:
        return any(n is call.node for n in descendants(handler.try_node.body))
    return graph.exception_reaches(node, clause)


def _holds_response(fn: FunctionFacts, name: str, call: CallFact, statement: cst.CSTNode) -> bool:
    """Does `name`, read at `statement`, hold the write's response there: does its assignment
    from the write reach the statement (reaching definitions on the control-flow graph)?"""
    for store in fn.stores_reaching(name, statement):
        value = store.value
        while type(value) is cst.Await:
            value = value.expression
        if value is call.node:
            return True
    return False


# Writes whose verb callers in other modules choose, by id of the request's call node: the
# payload naming the request helper and its method parameter.
_Asked = dict[int, UncertainWrite]


def _for_write(asked: _Asked, call: cst.Call, payload: UncertainWrite) -> UncertainWrite:
    """`payload` for the write `call`, with the callers' choice of verb it waits for, if any."""
    site = asked.get(id(call))
    if site is None:
        return payload
    return replace(payload, asked_by=site.asked_by, asked_position=site.asked_position, asked_keyword=site.asked_keyword)


class RetryInvitedAfterUncertainMutation(Rule):
    code = "MCP011"
    name = "retry-invited-after-uncertain-mutation"

    INVALID = (
        Example(
            """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("payments")

@mcp.tool
async def send_payment(account: str, amount_cents: int) -> str:
    try:
        async with httpx.AsyncClient(timeout=10) as client:
            response = await client.post("https://pay.example.com/transfers", json={"to": account, "amount": amount_cents})
            response.raise_for_status()
    except httpx.TimeoutException:
        raise ToolError("The payment service timed out. Please try again.")
    return response.json()["id"]
""",
            flagged=(14,),
        ),
    )
    VALID = (
        Example(
            """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("payments")

@mcp.tool
async def send_payment(account: str, amount_cents: int) -> str:
    try:
        async with httpx.AsyncClient(timeout=10) as client:
            response = await client.post("https://pay.example.com/transfers", json={"to": account, "amount": amount_cents})
            response.raise_for_status()
    except httpx.TimeoutException:
        raise ToolError(
            "The payment service timed out; the transfer may have been made. "
            f"Call list_transfers(account={account!r}) to check before sending it again."
        )
    return response.json()["id"]
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        yield from self.passing_on_markers(fn, ctx)
        writes: list[tuple[CallFact, str]] = []
        # Requests whose verb only callers in other modules choose: a write if one of them asks for
        # one (their modules' records, read when the finding is rendered), by id of the call.
        asked: _Asked = {}
        for call in fn.calls:
            found = remote_write(call.node, ctx)
            if found is None:
                parameter = _method_parameter(call.node, ctx)
                if parameter is None:
                    continue
                found = "sends an HTTP request whose method its caller chooses"
                asked[id(call.node)] = UncertainWrite(found, asked_by=fn.qualname, asked_position=parameter[0], asked_keyword=parameter[1])
            writes.append((call, found))
        if not writes or _sends_idempotency_key(fn, ctx):
            return
        known = [(call, write) for call, write in writes if id(call.node) not in asked]
        if known:
            # A marker (never reported): a server-level retry of this function's tool repeats a write.
            yield self.latent(ctx, known[0][0].node, variant="writes", route="tool", payload=UncertainWrite(known[0][1]))
        yield from self._reported(fn, ctx, writes, asked)

    def _reported(self, fn: FunctionFacts, ctx: FileContext, writes: list[tuple[CallFact, str]], asked: _Asked) -> Iterator[Latent]:
        """The retry invitations and re-runs after the function's writes."""
        reported: set[int] = set()
        for statement, text, conditions, handler, variant in self._messages(fn, ctx):
            invitation = retry_invitation(text)
            if invitation is None or _guarantees_nothing_happened(conditions, ctx):
                continue
            why = self._uncertain(fn, statement, handler, conditions, writes, ctx)
            if why is None or _only_for_reads(fn, why[0].node, statement, ctx):
                continue  # a request helper that invites a retry only of its reads
            call, write, cause = why
            reported.add(id(statement))
            payload = _for_write(asked, call.node, UncertainWrite(write, cause, invitation=clip(invitation, 40), write_at=span(ctx, call.node)))
            if variant == "return":
                yield self.latent(ctx, statement, variant=variant, route="text", statement=statement, payload=payload)
            else:  # caught on the way, it still reaches the model where a clause sends its text on
                yield self.latent(ctx, statement, variant=variant, route="raise", statement=statement, payload=payload, delivered_when_passed_on=True)
        yield from self._reruns(fn, ctx, writes, reported, asked)

    def _messages(self, fn: FunctionFacts, ctx: FileContext) -> Iterator[tuple[cst.CSTNode, str, tuple[cst.BaseExpression, ...], Handler | None, str]]:
        """(statement, the author's text, the `if` tests around it, its `except` clause, how it travels)."""
        for sink in failure_sinks(fn, ctx):
            written = sink.values if sink.message is None else (sink.message,)
            text = " ".join(t for value in written if (t := literal_text(fn.value_of(value))) is not None)
            if text:
                yield sink.statement, text, sink.conditions, sink.handler, sink.channel

    def _uncertain(
        self,
        fn: FunctionFacts,
        statement: cst.CSTNode,
        handler: Handler | None,
        conditions: tuple[cst.BaseExpression, ...],
        writes: list[tuple[CallFact, str]],
        ctx: FileContext,
    ) -> tuple[CallFact, str, str] | None:
        """(the write's call, what it writes, why its outcome is unknown) for a message sent there, or None."""
        if handler is not None:
            caught = _uncertain_catch(handler)
            if caught is None or _rolls_back(handler):
                return None
            for call, write in writes:
                if _fails_into(fn, ctx, call, handler):
                    return call, write, f"an `except {caught}` around it" if caught != "any exception" else "a bare `except` around it"
            return None
        # `response = client.post(...)` then `if response.status_code >= 500:` (no exception).
        responses = self._responses(fn, writes)
        for condition in conditions:
            for part in _conjuncts(condition):
                if _status_admits_5xx(part) is not True:
                    continue
                read = {n.value for n in descendants(part) if type(n) is cst.Name}
                for name in sorted(read & set(responses)):
                    call, write = responses[name]
                    if not _holds_response(fn, name, call, statement):
                        continue  # what the test reads there is another response (made before the write)
                    return call, write, f"a failed status of its response (`{ctx.code(part).strip()}`)"
        return None

    @staticmethod
    def _responses(fn: FunctionFacts, writes: list[tuple[CallFact, str]]) -> dict[str, tuple[CallFact, str]]:
        """Locals assigned the result of a write (`response = await client.post(...)`): the write."""
        by_call = {id(call.node): (call, write) for call, write in writes}
        out: dict[str, tuple[CallFact, str]] = {}
        for node in descendants(fn.node.body, into_scopes=False):
            if type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
                value = node.value
                while type(value) is cst.Await:
                    value = value.expression
                if id(value) in by_call:
                    out[node.targets[0].target.value] = by_call[id(value)]
        return out

    def _reruns(self, fn: FunctionFacts, ctx: FileContext, writes: list[tuple[CallFact, str]], reported: set[int], asked: _Asked) -> Iterator[Latent]:
        """A write the code itself runs again after an uncertain failure: in a loop whose `except`
        clause goes round again, or called again from the clause."""
        for handler in fn.handlers:
            caught = _uncertain_catch(handler)
            if caught is None or _rolls_back(handler):
                continue
            tried = [(call, write) for call, write in writes if call.handler is not handler and _fails_into(fn, ctx, call, handler)]
            if not tried:
                continue
            in_clause = {id(n) for n in descendants(handler.node.body)}
            for call, write in writes:
                if id(call.node) not in in_clause or id(call.node) in reported:
                    continue
                if _guarantees_nothing_happened(_tests_around(handler.node.body, call.node), ctx):
                    continue  # `if e.response.status_code in {400, 403}:` a fallback after a refusal
                first = next((t for t, _ in tried if _same_call(call.node, t.node, ctx)), None)
                if first is not None and not _only_for_reads(fn, call.node, call.node, ctx):
                    reported.add(id(call.node))
                    payload = UncertainWrite(write, f"an `except {caught}`", rerun="the `except` clause calls it again", write_at=span(ctx, first.node))
                    payload = _for_write(asked, first.node, payload)
                    yield self.latent(ctx, call.node, variant="rerun", route="raise", statement=call.statement, payload=payload)
            loop = self._enclosing_loop(fn, handler.try_node)
            if loop is not None and (not _leaves(handler.node.body) or _goes_round(handler.node.body, ctx)):
                for call, write in tried:
                    if id(call.node) in reported or not _repeats(loop, call.node) or _only_for_reads(fn, call.node, call.node, ctx):
                        continue
                    reported.add(id(call.node))
                    # Reported at the clause that sends the loop round again; the write is the related place.
                    payload = UncertainWrite(write, f"an `except {caught}`", rerun="the loop around it runs it again", write_at=span(ctx, call.node))
                    payload = _for_write(asked, call.node, payload)
                    yield self.latent(ctx, handler.node, variant="rerun", route="raise", statement=handler.node, payload=payload)
                    break
        yield from self._retry_decorated(fn, ctx, writes, asked)
        yield from self._calls_itself_again(fn, ctx, writes, reported, asked)
        yield from self._status_goes_round(fn, ctx, writes, reported, asked)

    def _status_goes_round(
        self, fn: FunctionFacts, ctx: FileContext, writes: list[tuple[CallFact, str]], reported: set[int], asked: _Asked
    ) -> Iterator[Latent]:
        """`response = await http.request(method, url)` in a retry loop, then `if
        response.status_code in (429, 503): ... continue`: the loop sends the write again on a
        status that leaves its outcome unknown."""
        for name, (call, write) in sorted(self._responses(fn, writes).items()):
            if id(call.node) in reported:
                continue
            loop = self._enclosing_loop(fn, call.node)
            if loop is None or not _repeats(loop, call.node):
                continue
            for test in _round_tests(loop, ctx):
                parts = [part for part in _conjuncts(test.test) if _status_admits_5xx(part) is True]
                read = {n.value for part in parts for n in descendants(part) if type(n) is cst.Name}
                why = "a failed status of its response"
                if name not in read:
                    # `error = classify(response.status_code)` then `if error.retryable: continue`.
                    parts = [part for part in _conjuncts(test.test) if _judged_transient(fn, part, name, call, test)]
                    read, why = ({name}, "a verdict on its response that the failure is passing") if parts else (read, why)
                if name not in read or not _holds_response(fn, name, call, test) or _guarantees_nothing_happened([test.test], ctx):
                    continue
                if _only_for_reads(fn, call.node, test, ctx):
                    break  # it sends again only its reads
                reported.add(id(call.node))
                cause = f"{why} (`{ctx.code(parts[0]).strip()}`)"
                # Reported at the test that sends the loop round again; the write is the related place.
                payload = UncertainWrite(write, cause, rerun="the loop around it runs it again", write_at=span(ctx, call.node))
                payload = _for_write(asked, call.node, payload)
                yield self.latent(ctx, test, variant="rerun", route="raise", statement=test, payload=payload)
                break

    def _calls_itself_again(
        self, fn: FunctionFacts, ctx: FileContext, writes: list[tuple[CallFact, str]], reported: set[int], asked: _Asked
    ) -> Iterator[Latent]:
        """`if response.status_code >= 500: return self._request(method, path, retry=False)`: the
        function calls itself again on a status that leaves its write's outcome unknown."""
        responses = self._responses(fn, writes)
        if not responses:
            return
        for call in fn.calls:
            if call.callee != fn.qualname or id(call.node) in reported:
                continue
            tests = _tests_around(fn.node.body, call.node)
            if _guarantees_nothing_happened(tests, ctx):
                continue  # `if response.status_code == 401:` sent again after a refusal
            for part in (part for test in tests for part in _conjuncts(test)):
                if _status_admits_5xx(part) is not True:
                    continue
                read = {n.value for n in descendants(part) if type(n) is cst.Name}
                held = [name for name in sorted(read & set(responses)) if _holds_response(fn, name, responses[name][0], call.node)]
                if not held:
                    continue
                write_call, write = responses[held[0]]
                if _only_for_reads(fn, write_call.node, call.node, ctx):
                    break  # it sends again only its reads
                reported.add(id(call.node))
                cause = f"a failed status of its response (`{ctx.code(part).strip()}`)"
                payload = UncertainWrite(write, cause, rerun="the function calls itself again", write_at=span(ctx, write_call.node))
                payload = _for_write(asked, write_call.node, payload)
                yield self.latent(ctx, call.node, variant="rerun", route="raise", statement=call.statement, payload=payload)
                break

    @staticmethod
    def _enclosing_loop(fn: FunctionFacts, node: cst.CSTNode) -> cst.For | cst.While | None:
        """The innermost loop around `node`."""
        found = None
        for loop in descendants(fn.node.body, into_scopes=False):
            if type(loop) in (cst.For, cst.While) and any(n is node for n in descendants(loop.body, into_scopes=False)):
                found = loop
        return found

    def _retry_decorated(self, fn: FunctionFacts, ctx: FileContext, writes: list[tuple[CallFact, str]], asked: _Asked) -> Iterator[Latent]:
        """`@retry(...)` (tenacity, backoff...) on a function that writes: every failure, a timeout
        included, runs the whole body again."""
        for decorator in fn.node.decorators:
            expr = decorator.decorator
            call = expr if type(expr) is cst.Call else None
            name = last_name(dotted(call.func if call is not None else expr) or "")
            if name not in _RETRY_DECORATORS:
                continue
            arguments = ctx.code(call).lower() if call is not None else ""
            if _NOTHING_HAPPENED.search(arguments) and not _UNCERTAIN_CLASS.search(arguments):
                continue  # retries only when the far side refused (`retry_if_exception_type(RateLimitError)`)
            unguarded = [(c, w) for c, w in writes if c.handler is None]
            if not unguarded:
                continue
            call, write = unguarded[0]
            payload = UncertainWrite(write, "any failure it retries on", rerun=f"`@{name}` runs the whole function again", write_at=span(ctx, call.node))
            payload = _for_write(asked, call.node, payload)
            yield self.latent(ctx, decorator, variant="rerun", route="raise", statement=decorator, payload=payload)

    # -- a server that retries whole tool calls (fastmcp's RetryMiddleware) ------------------------

    def check_module(self, ctx: FileContext) -> Iterator[ServerLatent | WriteVerbPassed]:
        yield from _verbs_passed(ctx)
        if not any("RetryMiddleware" in line for line in ctx.lines):
            return  # most modules: no need to walk them
        for index, top in enumerate(ctx.module.body):
            for node in descendants(top):
                if type(node) is not cst.Call:
                    continue
                for middleware, server in self._retry_middleware(node, ctx):
                    if _retries_only_refusals(middleware, ctx):
                        continue
                    ctx.hint(top, index)
                    ctx.current = top
                    latent = self.latent(ctx, middleware, variant="middleware", route="tool")
                    yield ServerLatent(server, latent)
        ctx.current = None

    @staticmethod
    def _retry_middleware(call: cst.Call, ctx: FileContext) -> Iterator[tuple[cst.Call, str]]:
        """(the RetryMiddleware(...) call, the server's key) put on a server by `call`:
        `server.add_middleware(RetryMiddleware())` or `FastMCP(..., middleware=[RetryMiddleware()])`."""
        module = ctx.model.module
        if type(call.func) is cst.Attribute and call.func.attr.value == "add_middleware" and call.args:
            first = call.args[0].value
            receiver = dotted(call.func.value) or ""
            if _is_retry_middleware(first, ctx):
                yield first, f"{module}.{receiver}" if f"{module}.{receiver}" in ctx.model.servers else ""
            return
        for argument in call.args:
            if argument.keyword is None or argument.keyword.value != "middleware":
                continue
            elements = argument.value.elements if type(argument.value) in (cst.List, cst.Tuple) else []
            for element in elements:
                if _is_retry_middleware(element.value, ctx):
                    key = ctx.model.constructed_as.get(id(call), "")
                    yield element.value, "" if key.startswith("#") else key

    def link(self, project: LinkedProject) -> Iterator[Finding]:
        """A retrying server is a defect where one of its tools writes (the `writes` markers)."""
        for summary, record in project.records(self.code):
            if not isinstance(record, ServerLatent):
                continue
            tools = project.tools_on(record.server, summary)
            writers: dict[str, tuple[str, Latent]] = {}
            for registration, _ in project.tool_registrations():
                if registration.tool_name in tools and registration.tool_name not in writers:
                    write = _tool_write(project, registration.function, self.code)
                    if write is not None:
                        writers[registration.tool_name] = write
            if writers:
                yield latent_finding(record.latent, self.render_middleware(writers), summary.path, None, "")

    @staticmethod
    def render_middleware(writers: dict[str, tuple[str, Latent]]) -> Rendered:
        """The finding at a RetryMiddleware: `writers` maps each tool of its server that writes to
        (the file, the `writes` marker at its write); the writes are its related locations."""
        names = sorted(writers)
        first = names[0]
        who = f"tool '{first}' writes" if len(names) == 1 else f"tool '{first}' and {len(names) - 1} more write"
        message = f"RetryMiddleware runs a tool call again after a timeout, and {who}"
        notes = [
            f"tool '{first}' {uncertain_write(writers[first][1]).write}",
            "it retries on ConnectionError and TimeoutError, after which the write may already have happened",
        ]
        if len(names) > 1:
            notes.append("the tools that write: " + ", ".join(f"'{name}'" for name in names))
        related = tuple(
            Related(path, marker.location, marker.end_location, f"tool '{name}' writes here")
            for name in names[:_RELATED_TOOLS]
            for path, marker in [writers[name]]
        )
        help_text = "Retry only failures that guarantee nothing happened (retry_exceptions=)"
        return Rendered(message, help=help_text, notes=tuple(notes), related=related)

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        if latent.variant in {"passes-on", "writes", "middleware"}:
            return None  # markers for the linker, and the server-level record (see link)
        if latent.variant != "rerun" and not reaches_model(latent.variant, context):
            return None  # the framework masks this exception's text: the model never reads the invitation
        found = uncertain_write(latent)
        write, cause = found.write, found.cause
        if found.asked_by:
            asked = _verb_asked(found, context.project)
            if asked is None:
                return None  # no caller of another module asks the request for a write
            write = f"sends an HTTP {asked.verb.upper()} when {asked.function}() asks it to"
        if latent.variant == "rerun":
            message = f"{context.subject} runs a write again, though the first attempt may have happened"
            notes = [f"it {write}, and {found.rerun} after {cause}", "the write may be applied twice"]
            help_text = "Retry only failures that guarantee nothing happened (a 429), or send an idempotency key"
            where = "the write it runs again"
        else:
            message = f"{context.subject} invites a retry ('{found.invitation}') after a write that may have happened"
            notes = [f"it {write}, and the failure came from {cause}", "so the write may already have happened; a retry may apply it twice"]
            if latent.passed_on:
                notes.append(f"caught and sent on to the model: {latent.passed_on}")
            help_text = "Say the write may have happened and how to check it, or send an idempotency key"
            where = "the write whose outcome is unknown"
        written = related_here(found.write_at, where)
        related = (written,) if written is not None and written.location.row != latent.location.row else ()
        return Rendered(message, help=help_text, notes=tuple(notes), related=related)


def _leaves(block: cst.BaseSuite) -> bool:
    """Does the clause's body end by leaving the loop (raise, return, break)?"""
    body = getattr(block, "body", ())
    last = body[-1] if body else None
    if type(last) is cst.SimpleStatementLine and last.body:
        return type(last.body[-1]) in (cst.Raise, cst.Return, cst.Break)
    return False


def _round_tests(loop: cst.For | cst.While, ctx: FileContext) -> Iterator[cst.If]:
    """The `if` statements of the loop's body (not of a loop nested in it) whose block goes round
    the loop again (`continue`), in the order they are written."""
    stack: list[cst.CSTNode] = [loop.body]
    while stack:
        node = stack.pop()
        if type(node) in (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        if type(node) is cst.If and _goes_round(node.body, ctx):
            yield node
        stack.extend(reversed(node.children))


def _goes_round(block: cst.BaseSuite, ctx: FileContext) -> bool:
    """Does the clause's body go round its loop again on some path (`if attempt < limit: ...
    continue` before a last `break`) that does not hold only after a refusal (`if status ==
    429: ... continue`)? A `continue` of a loop nested in the clause is that loop's."""
    stack: list[cst.CSTNode] = [block]
    while stack:
        node = stack.pop()
        if type(node) is cst.Continue:
            if not _guarantees_nothing_happened(_tests_around(block, node), ctx):
                return True
            continue
        if type(node) in (cst.For, cst.While, cst.FunctionDef, cst.ClassDef, cst.Lambda):
            continue
        stack.extend(node.children)
    return False


# Verbs that change nothing: a request helper may repeat them safely.
_READ_VERBS = frozenset({"get", "head", "options"})


def _compares_method_to_reads(test: cst.BaseExpression, method: str, negated: bool) -> bool:
    """`method == "GET"`, `method.upper() in ("GET", "HEAD")`; with `negated`, `!=` / `not in`:
    the test holds only for a read (or, negated, only for anything but one)."""
    parts = [test] if negated else list(_conjuncts(test))
    for part in parts:
        if type(part) is not cst.Comparison or len(part.comparisons) != 1:
            continue
        if not any(type(n) is cst.Name and n.value == method for n in descendants(part.left)):
            continue
        target = part.comparisons[0]
        compared = target.comparator
        elements = [e.value for e in compared.elements] if type(compared) in (cst.Tuple, cst.List, cst.Set) else [compared]
        verbs = [(literal_text(e) or "").lower() for e in elements]
        if not verbs or any(verb not in _READ_VERBS for verb in verbs):
            continue
        wanted = (cst.NotEqual, cst.NotIn) if negated else (cst.Equal, cst.In)
        if isinstance(target.operator, wanted):
            return True
    return False


def _only_for_reads(fn: FunctionFacts, write: cst.Call, node: cst.CSTNode, ctx: FileContext) -> bool:
    """Is `node` reached only when the request helper's method parameter (the verb of `write`)
    is a read: under `if method == "GET":`, or after `if method != "GET": raise ...`?"""
    parameter = _method_parameter(write, ctx)
    if parameter is None:
        return False
    method = parameter[1]
    if any(_compares_method_to_reads(test, method, negated=False) for test in _tests_around(fn.node.body, node)):
        return True
    blocks = [block for block in descendants(fn.node.body, into_scopes=False) if type(block) is cst.IndentedBlock]
    for block in blocks:
        statements = list(block.body)
        for at, statement in enumerate(statements):
            if any(n is node for n in descendants(statement, into_scopes=False)):
                if any(
                    type(before) is cst.If and _leaves(before.body) and _compares_method_to_reads(before.test, method, negated=True)
                    for before in statements[:at]
                ):
                    return True
                break
    return False


def _tests_around(block: cst.CSTNode, node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The tests of the `if`s inside `block` that hold `node`."""
    tests = []
    for candidate in descendants(block, into_scopes=False):
        if type(candidate) is cst.If and any(n is node for n in descendants(candidate.body, into_scopes=False)):
            tests.append(candidate.test)
    return tests


def _same_call(a: cst.Call, b: cst.Call, ctx: FileContext) -> bool:
    """The same function called with the same arguments, as written: the call is run again, not
    a different request (a fallback payload, another item)."""
    return dotted(a.func) == dotted(b.func) and [" ".join(ctx.code(x).split()) for x in a.args] == [
        " ".join(ctx.code(x).split()) for x in b.args
    ]


# Clocks: a `while` loop bounded by one polls until a deadline (a probe run until it answers).
_CLOCKS = frozenset({"time", "monotonic", "perf_counter", "now", "utcnow"})


def _repeats(loop: cst.For | cst.While, call: cst.Call) -> bool:
    """Does the loop run the same write again (`for attempt in range(3)`, `while True`), rather
    than the next of several (`for item in items`, each write reading the item) or a poll until
    a deadline (`while time.monotonic() < deadline`: what it runs is a probe)?"""
    if type(loop) is cst.While and any(
        type(node) is cst.Call and last_name(dotted(node.func) or "") in _CLOCKS for node in descendants(loop.test)
    ):
        return False
    if type(loop) is cst.For:
        iterated = loop.iter
        if not (type(iterated) is cst.Call and last_name(dotted(iterated.func) or "") in {"range", "count", "repeat"}):
            return False
    read = {n.value for a in call.args for n in descendants(a.value) if type(n) is cst.Name}
    return not (read & _varying(loop))


# Calls whose answer moves on each time they are made: the next item of a queue, an iterator,
# a stream or a cursor.
_ADVANCES = frozenset({"pop", "popleft", "popitem", "next", "__next__", "anext", "get_nowait", "readline", "recv", "receive", "fetchone", "input"})


def _advances(value: cst.BaseExpression) -> bool:
    """Does the value call something that gives another answer each round (`queue.pop()`,
    `next(items)`, `q.get()` with no key)?"""
    for node in descendants(value):
        if type(node) is cst.Call:
            name = last_name(dotted(node.func) or "")
            if name in _ADVANCES or (name == "get" and not node.args):
                return True
    return False


def _varying(loop: cst.For | cst.While) -> set[str]:
    """The names whose value changes from one round of the loop to the next: the loop's target,
    a counter (`attempt += 1`, `n = n + 1`), the next item of something (`item = q.pop()`), and
    what is built from them. A local rebuilt each round from what does not change (`headers =
    {"Authorization": f"Bearer {token}"}` with `token` read the same way) holds the same value."""
    varying = {n.value for n in descendants(loop.target) if type(n) is cst.Name} if type(loop) is cst.For else set()
    stores: list[tuple[set[str], cst.BaseExpression | None]] = []
    for node in descendants(loop.body, into_scopes=False):
        if type(node) in (cst.Assign, cst.AugAssign, cst.AnnAssign):
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
            names = {n.value for target in targets for n in descendants(target) if type(n) is cst.Name}
            if type(node) is cst.AugAssign or node.value is None:
                varying |= names
            else:
                stores.append((names, node.value))
        elif type(node) in (cst.For, cst.CompFor):
            varying.update(n.value for n in descendants(node.target) if type(n) is cst.Name)
        elif type(node) in (cst.WithItem, cst.NamedExpr):
            target = node.asname.name if type(node) is cst.WithItem and node.asname is not None else getattr(node, "target", None)
            if target is not None:
                varying.update(n.value for n in descendants(target) if type(n) is cst.Name)
    # A store that reads what the loop assigns at it or after it reads the round before
    # (`response = post(url, json={"cursor": cursor})` ... `cursor = response.json()["next"]`).
    last_store: dict[str, int] = {}
    for at, (names, _) in enumerate(stores):
        for name in names:
            last_store[name] = at
    changed = True
    while changed:
        changed = False
        for at, (names, value) in enumerate(stores):
            if names <= varying or value is None:
                continue
            read = {n.value for n in descendants(value) if type(n) is cst.Name}
            carried = any(last_store.get(name, -1) >= at for name in read)
            if carried or read & varying or _advances(value):
                varying |= names
                changed = True
    return varying


def _is_retry_middleware(expr: cst.BaseExpression, ctx: FileContext) -> bool:
    if type(expr) is not cst.Call:
        return False
    resolved = ctx.model.aliases.resolve(expr.func) or dotted(expr.func) or ""
    return last_name(resolved) == "RetryMiddleware" and resolved.split(".")[0] in {"fastmcp", "RetryMiddleware"}


def _retries_only_refusals(middleware: cst.Call, ctx: FileContext) -> bool:
    """`RetryMiddleware(retry_exceptions=(RateLimitError,))`: only failures that guarantee
    nothing happened are retried (the default, ConnectionError and TimeoutError, are not such)."""
    for argument in middleware.args:
        if argument.keyword is not None and argument.keyword.value == "retry_exceptions":
            value = argument.value
            names = [e.value for e in value.elements] if type(value) in (cst.Tuple, cst.List) else [value]
            return bool(names) and all(
                not _UNCERTAIN_CLASS.search(last_name(dotted(n) or "?")) and last_name(dotted(n) or "") not in _BROAD for n in names
            )
    return False


def _tool_write(project: LinkedProject, function: str, code: str, depth: int = 0) -> tuple[str, Latent] | None:
    """Where a tool (or a helper it calls, a level or two down) writes: the file and the rule's
    `writes` marker there."""
    found = project.function(function)
    if found is None:
        return None
    summary = found[1]
    for latent in summary.latent:
        if latent.code == code and latent.variant == "writes":
            return found[0].path, latent
    if depth < 2:
        for edge in summary.calls:
            write = _tool_write(project, edge.callee, code, depth + 1)
            if write is not None:
                return write
    return None


@dataclass(frozen=True)
class WriteVerbPassed:
    """A record of the module (picklable): a call of another module's function that passes it a
    writing HTTP verb (`api.request("POST", path)`), for that function's request whose method is
    the parameter there."""

    callee: str  # as the call names it, qualified (CallFact.callee)
    position: int  # among the positional arguments, -1 when passed by keyword
    keyword: str
    verb: str
    function: str  # the calling function's short name


def _verbs_passed(ctx: FileContext) -> Iterator[WriteVerbPassed]:
    for fn in ctx.model.functions.values():
        for call in fn.calls:
            if not call.callee or call.callee in ctx.model.functions:
                continue  # the module's own functions: `_relayed_write` reads those calls itself
            position = 0
            for argument in call.node.args:
                if argument.star:
                    break
                verb = (literal_text(argument.value) or "").lower()
                if verb in _HTTP_WRITES:
                    keyword = argument.keyword.value if argument.keyword is not None else ""
                    yield WriteVerbPassed(call.callee, -1 if keyword else position, keyword, verb, fn.name)
                if argument.keyword is None:
                    position += 1


def _verb_asked(found: UncertainWrite, project: LinkedProject | None) -> WriteVerbPassed | None:
    """A call in another module that asks the request helper `found.asked_by` for a write."""
    if project is None:
        return None
    for _, record in project.records(RetryInvitedAfterUncertainMutation.code):
        if not isinstance(record, WriteVerbPassed):
            continue
        called = project.function(record.callee)
        if called is None or called[1].qualname != found.asked_by:
            continue
        if record.keyword == found.asked_keyword or record.position == found.asked_position:
            return record
    return None
