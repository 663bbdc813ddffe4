"""The other side's answer about the model's own argument (review 16, cause C2).

`except httpx.HTTPStatusError as e: raise Exception(f"Failed to create monitor: {status} -
{e.response.text}")` around `post("/monitors", json={"name": name, ...})`: the body is the
service's validation answer about the name the model sent ("name must be unique"), the one thing
the model can correct its next call with. `except Exception as e: ... f"Could not get records:
{e}"` around `cursor.execute(f"SELECT {columns} FROM {table}")`: the driver's reason names the
column or table the model got wrong ("Unknown column 'x'"). bench/LABELING-decisions.md D3 keeps
the finding (the text is foreign); the fix that drops it is shown, never applied: a maintainer
keeps the part that answers the argument.

Decided by data flow, not names: a parameter of the function (its caller's input: a tool's
argument, or what a helper is handed) flows, through the function's locals, into a call of the
`try` (the request sent, the query run), and the dropped text is the reply's body (read off the
caught exception's `response`) or a query runner's exception; a branch the author wrote for a
status that says auth, rate or server trouble (401/403/407/429/5xx) is not about the argument.
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.flow import names_read
from mcp_lint.model.names import dotted
from mcp_lint.model.walk import descendants

REPLY = "reply"  # a reply's body about the arguments the request carried
DRIVER = "driver"  # a query runner's reason about the names the query was built from

# What the help says to keep, by the kind of answer dropped.
KEEP = {
    REPLY: "keep the reply's validation message, drop the rest",
    DRIVER: "name the column or table the driver rejected",
}

# Methods that run a query text (the first argument) on a database connection or cursor.
_QUERY_RUNNERS = frozenset({"execute", "executemany", "executescript", "exec_driver_sql", "fetch", "fetchrow", "fetchval", "query", "sql"})
# Statuses that say the trouble is the credentials, the rate or the server, not the arguments.
_TROUBLE = frozenset({401, 403, 407, 429})


def own_answer(fn: FunctionFacts, handler: Handler, node: cst.CSTNode, found: cst.CSTNode) -> str:
    """REPLY, DRIVER or "": is the text `found` (sent by the statement `node` of `handler`) the
    other side's answer about what the function's caller passed in?"""
    if handler.try_node is None or handler.name is None:
        return ""
    tainted = _tainted(fn)
    if not tainted:
        return ""
    calls = [n for n in descendants(handler.try_node.body, into_scopes=False) if type(n) is cst.Call]
    reply = _reply_names(handler)
    read = {found.value} if type(found) is cst.Name else names_read(found)
    if _off_the_response(found, handler.name) or read & reply:
        if not any(_reads(call, tainted) for call in calls):
            return ""
        # Where the message takes the reply in: the clause's assignments of the local sent (one
        # per status branch, `msg = f"... {body}"`), else the sending statement itself.
        builders = [a for a in _assigns(handler) if read & _bound(a) and (_off_the_response(a.value, handler.name) or names_read(a.value) & reply)]
        if any(not _trouble_branch(handler.node.body.body, at) for at in builders or [node]):
            return REPLY
        return ""
    if handler.name not in names_read(found) and not (type(found) is cst.Name and found.value == handler.name):
        return ""
    for call in calls:
        name = dotted(call.func) or ""
        if name.rpartition(".")[2] in _QUERY_RUNNERS and call.args and not call.args[0].star and _composed(call.args[0].value, fn, tainted):
            return DRIVER
    return ""


def _tainted(fn: FunctionFacts) -> frozenset[str]:
    """The parameters (not `self`/`cls`) and the locals assigned from them, to a fixed point."""
    names = set(fn.params) - {"self", "cls"}
    if not names:
        return frozenset()
    assigns = [n for n in descendants(fn.node.body, into_scopes=False) if type(n) in (cst.Assign, cst.AnnAssign, cst.AugAssign)]
    changed = True
    while changed:
        changed = False
        for small in assigns:
            value = small.value
            if value is None or not (names_read(value) & names):
                continue
            targets = [t.target for t in small.targets] if type(small) is cst.Assign else [small.target]
            for target in targets:
                for leaf in descendants(target):
                    if type(leaf) is cst.Name and leaf.value not in names:
                        names.add(leaf.value)
                        changed = True
    return frozenset(names)


def _composed(query: cst.BaseExpression, fn: FunctionFacts, tainted: frozenset[str]) -> bool:
    """Is the query text put together from the caller's input (`f"SELECT * FROM {table}"`, or a
    local holding one)? A parameter handed on whole is the caller's own query (no fix at all,
    handler_fix.evaluates_a_parameter); a constant query with bound values names no table."""
    if type(query) is cst.Name and query.value not in fn.params:
        values = [a.value for a in descendants(fn.node.body, into_scopes=False) if type(a) is cst.Assign and query.value in _bound(a)]
        return any(_composed(value, fn, tainted) for value in values)
    text = type(query) in (cst.FormattedString, cst.BinaryOperation, cst.ConcatenatedString) or (
        type(query) is cst.Call and type(query.func) is cst.Attribute and query.func.attr.value == "format"
    )
    return text and bool(names_read(query) & tainted)


def _reads(node: cst.CSTNode, tainted: frozenset[str]) -> bool:
    if type(node) is cst.Call:
        return any(names_read(arg.value) & tainted for arg in node.args)
    return bool(names_read(node) & tainted)


def _assigns(handler: Handler) -> list[cst.Assign]:
    return [n for n in descendants(handler.node.body, into_scopes=False) if type(n) is cst.Assign]


def _bound(small: cst.Assign) -> set[str]:
    return {leaf.value for t in small.targets for leaf in descendants(t.target) if type(leaf) is cst.Name}


def _reply_names(handler: Handler) -> set[str]:
    """The clause's locals holding the caught exception's reply (`e.response.text`,
    `e.response.json()`), directly or through others (`body = ...`, `msg = f"... {body}"`)."""
    reply: set[str] = set()
    changed = True
    while changed:
        changed = False
        for small in _assigns(handler):
            if (_off_the_response(small.value, handler.name) or names_read(small.value) & reply) and not _bound(small) <= reply:
                reply |= _bound(small)
                changed = True
    return reply


# What a reply says besides its body: its status, its URL, its headers.
_NOT_THE_BODY = frozenset({"status_code", "status", "reason_phrase", "reason", "url", "request", "headers", "elapsed", "is_error", "ok"})


def _off_the_response(node: cst.CSTNode, name: str | None) -> bool:
    """Does `node` read the body of the caught exception's reply (`e.response.text`,
    `e.response.json()`, `e.response`), not only its status (`e.response.status_code`)?"""
    status_reads = set()
    for leaf in descendants(node):
        if type(leaf) is cst.Attribute and leaf.attr.value in _NOT_THE_BODY:
            status_reads.add(id(leaf.value))
    for leaf in descendants(node):
        if type(leaf) is cst.Attribute and leaf.attr.value == "response" and type(leaf.value) is cst.Name and leaf.value.value == name:
            if id(leaf) not in status_reads:
                return True
    return False


def _trouble_branch(body: tuple[cst.BaseStatement, ...] | list[cst.BaseStatement], node: cst.CSTNode) -> bool:
    """Is `node` under an `if` of the clause whose test singles out auth, rate or server
    statuses (`if status == 401:`, `elif status >= 500:`)? An `else` after them is the rest."""
    for statement in body:
        if statement is node:
            return False
        if not any(n is node for n in descendants(statement)):
            continue
        current: cst.CSTNode | None = statement
        while type(current) is cst.If:
            if any(n is node for n in descendants(current.body)):
                return _trouble_test(current.test) or _trouble_branch(current.body.body, node)
            current = current.orelse  # an `elif` is an If, an `else` an Else
            if type(current) is cst.Else:
                return _trouble_branch(current.body.body, node)
        inner = getattr(statement, "body", None)
        block = getattr(inner, "body", None)
        return _trouble_branch(block, node) if isinstance(block, (tuple, list)) else False
    return False


def _trouble_test(test: cst.BaseExpression) -> bool:
    """`status == 401`, `status in (401, 403)`, `status >= 500`: every number the test compares
    with says auth, rate or server trouble."""
    numbers: list[tuple[int, bool]] = []
    for comparison in (n for n in descendants(test) if type(n) is cst.Comparison):
        for target in comparison.comparisons:
            at_least = type(target.operator) in (cst.GreaterThanEqual, cst.GreaterThan)
            for leaf in descendants(target.comparator):
                if type(leaf) is cst.Integer:
                    numbers.append((int(leaf.value), at_least))
    return bool(numbers) and all(value in _TROUBLE or value >= 500 or at_least and value >= 499 for value, at_least in numbers)
