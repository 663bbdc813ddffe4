"""Where a failed upstream reply's body is in an expression: `resp.text`, a decoded reply's
error field (`data["message"]` under `if data["status"] != "ok":`), or a local some assignment of
the function fills from one. A rule on raw text reports such text sent to the model; a rule whose
fix raises a returned message asks the same of that message, so that a fix never leaves a finding
of another rule behind.
"""

from __future__ import annotations

from typing import Iterator, Mapping, Sequence

import libcst as cst

from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.library_tables import MODEL_VALIDATORS, parses_its_input
from mcp_lint.model.names import dotted, last_name, root_of, unwrap_await
from mcp_lint.model.walk import descendants
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.exception_text import PROCESS_OUTPUT_ATTRS, PROCESS_OUTPUT_METHODS, decoded_response, decodes_a_reply, leaving_tests, response_slots, upstream_body
from mcp_lint.vocabulary import FAILURE_STATUS_WORDS, REPLY_CODE_FIELDS, REPLY_ERROR_FIELDS, REPLY_STATUS_FIELDS, REPLY_SUCCESS_FLAGS, SUCCESS_STATUS_WORDS


_CONTAINER_STORES = frozenset({"append", "extend", "insert", "add", "update", "setdefault"})


def _local_values(fn: FunctionFacts, ctx: FileContext) -> dict[str, list[cst.BaseExpression]]:
    """Every value assigned to each plain local of the function (`x = ...`, `x: T = ...`,
    `x += ...`, `x.append(...)`), on any path, in source order: memoised per function."""
    return ctx.per_node("local_values", fn.node, lambda: _assigned_values(fn))


def _assigned_values(fn: FunctionFacts) -> dict[str, list[cst.BaseExpression]]:
    known: dict[str, list[cst.BaseExpression]] = {}
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) is cst.Assign:
            for target in node.targets:
                if type(target.target) is cst.Name:
                    known.setdefault(target.target.value, []).append(node.value)
        elif type(node) in (cst.AnnAssign, cst.AugAssign) and type(node.target) is cst.Name and node.value is not None:
            known.setdefault(node.target.value, []).append(node.value)
        elif type(node) is cst.Call and type(node.func) is cst.Attribute and type(node.func.value) is cst.Name:
            if node.func.attr.value in _CONTAINER_STORES:  # `parts.append(x)`: x is in parts
                known.setdefault(node.func.value.value, []).extend(a.value for a in node.args)
    return known


def body_through_locals(
    value: cst.CSTNode, bases: set[str], fn: FunctionFacts, ctx: FileContext, depth: int = 0, describers: bool = False
) -> cst.CSTNode | None:
    """The failed response's body in `value`, or in a local it reads that some assignment of the
    function fills from it (`detail = resp.text or resp.reason_phrase`; `raise ApiError(detail)`),
    nearest locals first, three deep; also through a function of the module handed the response
    that returns its body (`detail = _detail_of(resp)`, one level)."""
    # A describer is asked only for a factory's constructor (`describers`): where the function
    # sends the text itself, the describer is reported in its own body when the response it is
    # handed was found failed (one flow).
    describe = describers and depth == 0
    found = (
        upstream_body(value, bases)
        or _reply_field(value, bases)
        or _worded_reply(value, bases, fn, ctx)
        or _process_output(value, bases, fn, ctx)
        or (_describer_call(value, bases, ctx) if describe else None)
    )
    if found is not None:
        return found
    assigned = _local_values(fn, ctx)
    # Lines cost a code generation each, so they are asked only of sources that can change the
    # answer: those holding the body or reading an assigned local (any other one adds nothing,
    # in the frontier or not). Such a source counts only if it and every source before it are
    # written above the read, exactly as if each line were asked in turn.
    lines = _LinesAbove(value, ctx)
    visited = set(bases)
    frontier: list[cst.CSTNode] = [value]
    for _ in range(3):
        deeper: list[cst.CSTNode] = []
        for expr in frontier:
            for name in sorted(_locals_read(expr, ctx) & assigned.keys() - visited):
                visited.add(name)
                sources = assigned[name]
                checked = 0  # sources[:checked] are known to be above the read
                for at, source in enumerate(sources):
                    found = (
                        upstream_body(source, bases)
                        or _reply_field(source, bases)
                        or _worded_reply(source, bases, fn, ctx)
                        or _process_output(source, bases, fn, ctx)
                        or (_describer_call(source, bases, ctx) if describe else None)
                    )
                    if found is None and not _locals_read(source, ctx) & assigned.keys():
                        continue
                    # Only assignments written above the read can have filled it (a loop's later
                    # assignment is left out: a failed response's body is read before it is sent).
                    if not lines.all_above(sources[checked : at + 1]):
                        break
                    checked = at + 1
                    if found is not None:
                        return found
                    deeper.append(source)
        frontier = deeper
    return None


def communicated(fn: FunctionFacts, ctx: FileContext) -> dict[str, str]:
    """The locals a process's `communicate()` fills, by the process they hold the output of
    (`out, err = await proc.communicate()`, also inside `asyncio.wait_for(...)`): memoised."""
    return ctx.per_node("communicated", fn.node, lambda: _communicated(fn))


def _communicated(fn: FunctionFacts) -> dict[str, str]:
    found: dict[str, str] = {}
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) is not cst.Assign or len(node.targets) != 1 or type(node.targets[0].target) not in (cst.Tuple, cst.List):
            continue
        call = unwrap_await(node.value)
        if type(call) is cst.Call and not _communicates(call) and call.args:
            call = unwrap_await(call.args[0].value)  # `asyncio.wait_for(proc.communicate(), timeout)`
        if type(call) is not cst.Call or not _communicates(call):
            continue
        process = dotted(call.func.value)  # type: ignore[attr-defined]
        if not process:
            continue
        for element in node.targets[0].target.elements:
            if type(element.value) is cst.Name and element.value.value != "_":
                found[element.value.value] = process
    return found


def process_output(body: cst.CSTNode, ctx: FileContext) -> bool:
    """Is the body found (by body_through_locals) a process's output rather than a reply's?"""
    if type(body) is cst.Attribute:
        return body.attr.value in PROCESS_OUTPUT_ATTRS
    facts = ctx.current_facts
    return type(body) is cst.Name and facts is not None and body.value in communicated(facts, ctx)


def _communicates(call: cst.Call) -> bool:
    return type(call.func) is cst.Attribute and call.func.attr.value in PROCESS_OUTPUT_METHODS


def _process_output(value: cst.CSTNode, processes: set[str], fn: FunctionFacts, ctx: FileContext) -> cst.Name | None:
    """A local `communicate()` filled from a process found failed (`err.decode()` under `if
    proc.returncode != 0:`): that process's output."""
    filled = communicated(fn, ctx)
    if not filled or not processes & set(filled.values()):
        return None
    for node in descendants(value):
        if type(node) is cst.Name and filled.get(node.value) in processes:
            return node
    return None


def _describer_call(value: cst.CSTNode, bases: set[str], ctx: FileContext) -> cst.Call | None:
    """The call in `value` of a function of this module handed the response (`_detail_of(resp)`,
    positionally or by keyword) some return of which gives back that response's body (`return
    resp.text or ""`, a field of its decoded JSON): the body comes back through it."""
    for node in descendants(value):
        if type(node) is not cst.Call or type(node.func) is not cst.Name:
            continue
        callee = ctx.model.functions.get(f"{ctx.model.module}.{node.func.value}" if ctx.model.module else node.func.value)
        if callee is None or callee.class_name:
            continue
        for position, argument in enumerate(node.args):
            if argument.star or type(argument.value) is not cst.Name or argument.value.value not in bases:
                continue
            param = argument.keyword.value if argument.keyword is not None else (callee.params[position] if position < len(callee.params) else "")
            if param and param in callee.params and any(
                r.node.value is not None and not _builds_an_object(r.node.value) and body_through_locals(r.node.value, {param}, callee, ctx, depth=1) is not None
                for r in callee.returns
            ):
                return node
    return None


def _builds_an_object(value: cst.BaseExpression) -> bool:
    """`return ApiError(f"...{resp.text}")`: a factory's object, not the body's text (the
    factory is reported itself where a caller raises what it returns)."""
    return type(value) is cst.Call and last_name(dotted(value.func) or "")[:1].isupper()


def parsed_params(handler: Handler, fn: FunctionFacts, ctx: FileContext) -> tuple[int, ...]:
    """The positions of the parameters the `try` of `handler` hands to a parser of its input
    (`json.loads(widths)`, `Args.model_validate(arguments)`)."""
    found: set[int] = set()
    for node in descendants(handler.try_node.body):
        if type(node) is not cst.Call or not node.args:
            continue
        name = dotted(node.func) or ""
        resolved = ctx.model.aliases.resolve_dotted(name) or name
        if not parses_its_input(resolved) and last_name(name) not in MODEL_VALIDATORS:
            continue
        root = root_of(node.args[0].value)
        name = fn.parameter_items.get(root.value, root.value) if type(root) is cst.Name else ""
        if name in fn.params:
            found.add(fn.params.index(name))
    return tuple(sorted(found))


def item_holding(value: cst.BaseExpression, body: cst.CSTNode) -> cst.CSTNode:
    """Where in a returned dict the body is put (`"detail": text[:500]`): the line that takes
    it, when the dict spans several; the value itself otherwise."""
    if type(value) is not cst.Dict:
        return value
    for element in value.elements:
        if any(n is body for n in descendants(element)):
            return element
    return value


def unpacked_responses(fn: FunctionFacts, ctx: FileContext) -> list[tuple[str, str]]:
    """(status local, body local) of each `status, body, headers = helper(...)` whose helper, a
    function of this module, hands back a response's status and body (response_slots)."""
    calls = {id(call.node): call.callee for call in fn.calls if call.callee}
    out: list[tuple[str, str]] = []
    for node in descendants(fn.node.body, into_scopes=False):
        if not (type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Tuple):
            continue
        callee = calls.get(id(unwrap_await(node.value)))
        facts = ctx.model.functions.get(callee) if callee else None
        slots = response_slots(facts) if facts is not None else None
        if slots is None:
            continue
        names = [el.value for el in node.targets[0].target.elements]
        status, body = (names[i] if i < len(names) else None for i in slots)
        if type(status) is cst.Name and type(body) is cst.Name:
            out.append((status.value, body.value))
    return out


def name_read(value: cst.CSTNode, name: str, fn: FunctionFacts, ctx: FileContext) -> cst.Name | None:
    """Where `value` reads the local `name`, itself or through a local assigned from it."""
    for node in descendants(value):
        if type(node) is cst.Name and node.value == name:
            return node
    assigned = _local_values(fn, ctx)
    for local in _locals_read(value, ctx) & assigned.keys():
        for source in assigned[local]:
            found = next((n for n in descendants(source) if type(n) is cst.Name and n.value == name), None)
            if found is not None:
                return found
    return None


class _LinesAbove:
    """Whether expressions start on or above the line where `value` starts; its line is asked once."""

    def __init__(self, value: cst.CSTNode, ctx: FileContext) -> None:
        self.value = value
        self.ctx = ctx
        self.line = 0

    def all_above(self, sources: Sequence[cst.CSTNode]) -> bool:
        if not self.line:
            self.line = self.ctx.start_line(self.value)
        return all(self.ctx.start_line(source) <= self.line for source in sources)


def _field_read(expr: cst.BaseExpression) -> tuple[str, str] | None:
    """(local, key) for `data["status"]` and `data.get("status")`."""
    if type(expr) is cst.Subscript and type(expr.value) is cst.Name and len(expr.slice) == 1:
        index = expr.slice[0].slice
        if type(index) is cst.Index and type(index.value) is cst.SimpleString:
            key = index.value.evaluated_value
            return (expr.value.value, key) if isinstance(key, str) else None
    if (
        type(expr) is cst.Call
        and type(expr.func) is cst.Attribute
        and expr.func.attr.value == "get"
        and type(expr.func.value) is cst.Name
        and expr.args
        and type(expr.args[0].value) is cst.SimpleString
    ):
        key = expr.args[0].value.evaluated_value
        return (expr.func.value.value, key) if isinstance(key, str) else None
    return None


# Calls that only normalise a field's value (`str(data.get("status", "")).lower()`).
_NORMALISERS = frozenset({"str", "lower", "upper", "strip", "casefold"})


def _held_field(expr: cst.BaseExpression, held: Mapping[str, cst.BaseExpression]) -> cst.BaseExpression | None:
    """The reply's field a local assigned once holds (`errors = data.get("errors") if
    isinstance(data, dict) else None`; `status = str(data.get("status", "")).lower()`), None
    when it holds something else."""
    if type(expr) is not cst.Name or expr.value not in held:
        return None
    value = held[expr.value]
    for _ in range(4):
        if type(value) is cst.IfExp:
            value = value.body
        elif type(value) is cst.Call and type(value.func) is cst.Name and value.func.value in _NORMALISERS and len(value.args) == 1:
            value = value.args[0].value
        elif type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in _NORMALISERS and not value.args:
            value = value.func.value
        else:
            break
    return value if _field_read(value) is not None else None


def _through_held(cond: cst.BaseExpression, held: Mapping[str, cst.BaseExpression] | None) -> cst.BaseExpression:
    """`cond` with a local that holds a reply's field read as that field (`if errors:` as `if
    data.get("errors"):`), when the test reads it alone or compares it."""
    if not held:
        return cond
    if type(cond) is cst.UnaryOperation and type(cond.operator) is cst.Not:
        field = _held_field(cond.expression, held)
        return cond.with_changes(expression=field) if field is not None else cond
    if type(cond) is cst.Comparison:
        field = _held_field(cond.left, held)
        return cond.with_changes(left=field) if field is not None else cond
    field = _held_field(cond, held)
    return field if field is not None else cond


def _words(node: cst.BaseExpression) -> set[str] | None:
    """The lower-cased strings of a literal list, tuple or set (`["failed", "error"]`)."""
    if type(node) not in (cst.List, cst.Tuple, cst.Set):
        return None
    words = [el.value.evaluated_value for el in node.elements if type(el.value) is cst.SimpleString]  # type: ignore[attr-defined]
    if not words or len(words) != len(node.elements) or not all(isinstance(w, str) for w in words):  # type: ignore[attr-defined]
        return None
    return {str(w).lower() for w in words}


def reply_failure_test(cond: cst.BaseExpression, held: Mapping[str, cst.BaseExpression] | None = None) -> str | None:
    """The local whose failure a condition tests, when it reads a JSON reply's status field:
    `data["status"] != "ok"`, `not data.get("success")`, `data.get("error")`, `"error" in data`,
    `data["status"] in ("failed", "error")`; with `held` (the function's locals assigned once),
    also through a local holding such a field (`errors = data.get("errors")`; `if errors:`)."""
    cond = _through_held(cond, held)
    negated = type(cond) is cst.UnaryOperation and type(cond.operator) is cst.Not
    inner = cond.expression if negated else cond
    read = _field_read(inner)
    if read is not None:
        local, key = read
        if key in REPLY_SUCCESS_FLAGS and negated or key in REPLY_ERROR_FIELDS and not negated:
            return local
        return None
    if type(cond) is cst.Comparison and len(cond.comparisons) == 1:
        target = cond.comparisons[0]
        operator, right = target.operator, target.comparator
        if type(operator) is cst.In and type(cond.left) is cst.SimpleString and type(right) is cst.Name:
            return right.value if cond.left.evaluated_value in REPLY_ERROR_FIELDS else None
        read = _field_read(cond.left)
        if read is not None and read[1] in REPLY_ERROR_FIELDS and type(operator) is cst.IsNot and dotted(right) == "None":
            return read[0]  # `data["error"] is not None`: the reply carries an error
        if read is not None and read[1] in REPLY_CODE_FIELDS and type(operator) is cst.NotEqual and type(right) is cst.Integer and right.value == "0":
            return read[0]  # `data.get("errcode", 0) != 0`: a non-zero outcome code
        words = _words(right) if read is not None and read[1] in REPLY_STATUS_FIELDS else None
        if words is not None and type(operator) in (cst.In, cst.NotIn):
            # `status in ["failed", "error"]`; `status not in ("ok", "success")`.
            failing = words <= FAILURE_STATUS_WORDS if type(operator) is cst.In else words <= SUCCESS_STATUS_WORDS
            return read[0] if failing else None  # type: ignore[index]
        if read is None or read[1] not in REPLY_STATUS_FIELDS | REPLY_SUCCESS_FLAGS or type(right) not in (cst.SimpleString, cst.Name):
            return None
        word = right.evaluated_value if type(right) is cst.SimpleString else right.value
        word = str(word).lower()
        if type(operator) in (cst.NotEqual, cst.IsNot) and word in SUCCESS_STATUS_WORDS:
            return read[0]
        if type(operator) in (cst.Equal, cst.Is) and word in FAILURE_STATUS_WORDS | {"false"}:
            return read[0]
    return None


def reply_success_test(cond: cst.BaseExpression, held: Mapping[str, cst.BaseExpression] | None = None) -> str | None:
    """The local whose success a condition tests, when it reads a JSON reply's status field
    (`data["status"] == "ok"`, `data.get("success")`): what `reply_failure_test` finds in the
    opposite test."""
    if type(cond) is cst.UnaryOperation and type(cond.operator) is cst.Not:
        return reply_failure_test(cond.expression, held)
    if type(cond) is cst.Comparison and len(cond.comparisons) == 1:
        target = cond.comparisons[0]
        opposite = _OPPOSITE.get(type(target.operator))
        if opposite is None:
            return None
        return reply_failure_test(cond.with_changes(comparisons=[target.with_changes(operator=opposite())]), held)
    return reply_failure_test(cst.UnaryOperation(operator=cst.Not(), expression=cond), held)


_OPPOSITE: dict[type, type] = {cst.Equal: cst.NotEqual, cst.NotEqual: cst.Equal, cst.Is: cst.IsNot, cst.IsNot: cst.Is, cst.In: cst.NotIn, cst.NotIn: cst.In}


def failed_replies(conditions: Sequence[cst.BaseExpression], fn: FunctionFacts, ctx: FileContext) -> set[str]:
    """Locals holding a decoded upstream reply (`data = resp.json()`, or a part of one:
    `answer = data.get("answer", {})`) whose status field the enclosing branch tests for
    failure: a 200 reply that says the call failed."""
    replies: set[str] = set()
    for cond in conjuncts(conditions):  # `isinstance(data, dict) and data.get("success") is False`
        local = reply_failure_test(cond, fn.single_assignments)
        if local is not None and _holds_a_reply(local, fn, ctx):
            replies.add(local)
    return replies


def library_replies(conditions: Sequence[cst.BaseExpression], fn: FunctionFacts, ctx: FileContext) -> dict[str, tuple[str, ...]]:
    """Locals holding what a call outside the project's own functions answered (`result =
    app.acquire_token(...)`: a library's result dict), whose failure field the enclosing branch
    tests (`if "error" in result:`): by local, the qualified callees of its assignments, which the
    link step checks are no project functions. Its fields are not the project's own text: a
    failed reply's, as a decoded body's are."""
    replies: dict[str, tuple[str, ...]] = {}
    for cond in conjuncts(conditions):
        local = reply_failure_test(cond)
        if local is not None and local not in replies:
            callee = _answered_by(local, fn, ctx)
            if callee:
                replies[local] = callee
    return replies


# Calls whose value is a copy or an item of a value the function already holds, not an answer.
_NOT_ANSWERS = frozenset({"dict", "list", "tuple", "set", "copy", "deepcopy", "vars", "getattr", "get", "pop", "setdefault", "items", "values"})


def _answered_by(local: str, fn: FunctionFacts, ctx: FileContext) -> tuple[str, ...]:
    """The qualified callees of the calls whose values the assignments of `local` hold (`result =
    app.acquire_token(...)`, awaited or not); () when one of them is no call the module resolved,
    or a call of its own object (`self.x.y()`) or of a container's copy or item."""
    values = _local_values(fn, ctx).get(local, ())
    callees = tuple(_callee_of(value, fn, ctx) for value in values)
    return callees if callees and all(callees) else ()


def _callee_of(value: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext) -> str:
    value = unwrap_await(value)
    if type(value) is not cst.Call:
        return ""
    name = dotted(value.func) or ""
    if not name or name.split(".")[0] in {"self", "cls"} or last_name(name) in _NOT_ANSWERS:
        return ""
    if name.split(".")[0] in ctx.model.aliases.relative_names:
        return ""  # `from .shipping import book_shipment`: the package's own, linted or not
    root, _, rest = name.partition(".")
    if rest and root in ctx.instances:
        return f"{ctx.instances[root]}.{rest}"  # `app = signin.App(...)` at module level: `app.login()` is App's
    call = next((c for c in fn.calls if c.node is value), None)
    return call.callee or "" if call is not None else ""


def replies_left_on_success(fn: FunctionFacts, node: cst.CSTNode, ctx: FileContext) -> set[str]:
    """Decoded replies the function has already left on when their status said the call worked,
    before the statement `node` of its top-level block runs (`if data.get("status") == "ok":
    return data["answer"]`, then `raise ApiError(data.get("error_text"))`): there, they failed."""
    replies: set[str] = set()
    for test in leaving_tests(fn, node):
        for cond in conjuncts((test,)):
            local = reply_success_test(cond, fn.single_assignments)
            if local is not None and _holds_a_reply(local, fn, ctx):
                replies.add(local)
    return replies


def _holds_a_reply(local: str, fn: FunctionFacts, ctx: FileContext) -> bool:
    """Does some assignment fill `local` with a decoded reply, or with a field of a local that
    holds one (an envelope's inner answer, which carries its own status)?"""
    values = _local_values(fn, ctx)
    for value in (*values.get(local, ()), *_loop_sources(fn, ctx).get(local, ())):
        if decodes_a_reply(value) or _decoding_helper_call(value, fn, ctx):
            return True
        read = _field_read(unwrap_await(value))
        if read is not None and read[0] != local and any(decodes_a_reply(v) or _decoding_helper_call(v, fn, ctx) for v in values.get(read[0], ())):
            return True
    return False


def _loop_sources(fn: FunctionFacts, ctx: FileContext) -> dict[str, list[cst.BaseExpression]]:
    """What each plain loop variable iterates (`for item in data["requests"]:`): an item of a
    decoded reply's list is a part of that reply, with its own failure fields."""
    def collect() -> dict[str, list[cst.BaseExpression]]:
        found: dict[str, list[cst.BaseExpression]] = {}
        for node in descendants(fn.node.body, into_scopes=False):
            if type(node) is cst.For and type(node.target) is cst.Name:
                found.setdefault(node.target.value, []).append(node.iter)
        return found

    return ctx.per_node("loop_sources", fn.node, collect)


def _decoding_helper_call(value: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext) -> bool:
    """`data = await _get(path)` where `_get`, a function of this module, hands back a decoded
    reply on every return (`resp.raise_for_status(); return resp.json()`): the caller holds the
    upstream's answer, not the project's words, as if it had decoded it itself."""
    call = unwrap_await(value)
    if type(call) is not cst.Call:
        return False
    callee = next((c.callee for c in fn.calls if c.node is call), None)
    facts = ctx.model.functions.get(callee) if callee else None
    if facts is None or facts is fn:
        return False
    values = [r.node.value for r in facts.returns]
    return bool(values) and all(v is not None and type(unwrap_await(v)) is cst.Call and decodes_a_reply(v) for v in values)


# What a failed decoding of a reply raises, as an `except` clause names it (or a broad clause).
_DECODE_ERRORS = frozenset({"ValueError", "JSONDecodeError", "Exception", "BaseException"})


def undecoded_replies(handler: Handler | None) -> set[str]:
    """Responses whose decoding the `try` of `handler` does and whose failure it catches (`try:
    data = resp.json()` / `except ValueError:`): in the clause, the reply is not what the call
    should have answered, and its body (`resp.text`) is whatever the upstream sent instead."""
    if handler is None:
        return set()
    caught = {last_name(name) for name in handler.caught} or {"BaseException"}
    if not caught & _DECODE_ERRORS:
        return set()
    replies: set[str] = set()
    for node in descendants(handler.try_node.body):
        response = decoded_response(node)
        base = dotted(response) if response is not None else None
        if base:
            replies.add(base)
    return replies


# The classes a response's `raise_for_status()` raises (httpx, requests), and requests' base.
_STATUS_ERRORS = frozenset({"HTTPStatusError", "HTTPError", "RequestException"})


def status_failed_replies(handler: Handler | None) -> set[str]:
    """Responses whose `raise_for_status()` the `try` of `handler` calls and whose status error
    it catches (`try: resp.raise_for_status()` / `except httpx.HTTPStatusError:`): in the clause,
    the reply failed, and its body (`resp.text`) is what the upstream sent about it."""
    if handler is None or not {last_name(name) for name in handler.caught} & _STATUS_ERRORS:
        return set()
    replies: set[str] = set()
    for node in descendants(handler.try_node.body):
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "raise_for_status":
            base = dotted(node.func.value)
            if base:
                replies.add(base)
    return replies


def failed_replies_in(handler: Handler | None) -> set[str]:
    """The responses known failed in the clause `handler`: not decoded, or a failed status."""
    return undecoded_replies(handler) | status_failed_replies(handler)


def _reply_field(value: cst.CSTNode, replies: set[str]) -> cst.CSTNode | None:
    """A field of a failed reply in `value` (`data.get("data")`, `data["message"]`)."""
    for node in descendants(value):
        if type(node) in (cst.Subscript, cst.Call):
            read = _field_read(node)
            if read is not None and read[0] in replies:
                return node
    return None


# Calls that word a value whole into text (`str(data)`, `json.dumps(data)`).
_WORDING_CALLS = frozenset({"str", "repr", "json.dumps"})


def _worded_reply(value: cst.CSTNode, replies: set[str], fn: FunctionFacts, ctx: FileContext) -> cst.Name | None:
    """A failed decoded reply put whole into text (`f"API returned error: {data}"`, `str(data)`)
    where the branch tests its own failure field: all of it is what the upstream sent. Only a
    local holding a decoded reply counts (a response object worded whole is `<Response [500]>`)."""
    for node in descendants(value):
        if type(node) is cst.FormattedStringExpression:
            inner = node.expression
        elif type(node) is cst.Call and dotted(node.func) in _WORDING_CALLS and node.args:
            inner = node.args[0].value
        else:
            continue
        if type(inner) is cst.Name and inner.value in replies and _holds_a_reply(inner.value, fn, ctx):
            return inner
    return None


def _locals_read(value: cst.CSTNode, ctx: FileContext) -> frozenset[str]:
    """The names an expression reads (not keyword names of its calls, not attribute names): once
    per expression and file, as every parameter of a helper asks again of the same sinks."""
    return ctx.per_node("locals_read", value, lambda: _names_read(value))


def _names_read(value: cst.CSTNode) -> frozenset[str]:
    skipped: set[int] = set()
    names: set[str] = set()
    for node in descendants(value):  # pre-order: an Arg or Attribute comes before its names
        kind = type(node)
        if kind is cst.Name:
            if id(node) not in skipped:
                names.add(node.value)
        elif kind is cst.Attribute:
            skipped.add(id(node.attr))
        elif kind is cst.Arg and node.keyword is not None:
            skipped.add(id(node.keyword))
    return frozenset(names)


def conjuncts(conditions: Sequence[cst.BaseExpression]) -> Iterator[cst.BaseExpression]:
    """Each test an `if` requires: `A and isinstance(e, B)` requires both."""
    for condition in conditions:
        if type(condition) is cst.BooleanOperation and type(condition.operator) is cst.And:
            yield from conjuncts((condition.left, condition.right))
        else:
            yield condition
