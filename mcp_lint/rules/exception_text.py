"""Where a caught exception's text (or an upstream error body) ends up in what a tool sends.

Shared by MCP002 (which reports it), MCP003 and MCP005 (which leave such messages to MCP002).
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, replace
from typing import Collection, Iterable, Iterator, Sequence

import libcst as cst

from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.failure_tests import found_failed
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.message_text import find_exception_text, literal_text
from mcp_lint.model.names import dotted, last_name, unwrap_await
from mcp_lint.model.passed_on import raises_tool_error
from mcp_lint.model.walk import descendants, holds
from mcp_lint.vocabulary import FILLER_WORDS
from mcp_lint.model.summary import receiver_shift
from mcp_lint.rules.base import FileContext, LinkedProject
from mcp_lint.rules.http_status import caught_status

_STATUS_ATTRS = frozenset({"status_code", "ok", "is_success", "is_error", "status", "is_client_error", "is_server_error"})
# Not `reason_phrase`: the status line's reason is the fixed name of the status code ("Not
# Found"), no text the upstream wrote about this failure.
_BODY_ATTRS = frozenset({"text", "content", "json", "body"})
# A finished process is a source of the same kind as a response: its exit status says whether it
# failed (`result.returncode != 0`, `if proc.returncode:`; a remote command's `exit_code`), and
# what it wrote is its body (`result.stderr`, `proc.stdout`, or the pair `proc.communicate()`
# hands back). Zero is success, any other status a failure.
EXIT_STATUS_ATTRS = frozenset({"returncode", "exit_code", "exit_status"})
PROCESS_OUTPUT_ATTRS = frozenset({"stdout", "stderr"})
PROCESS_OUTPUT_METHODS = frozenset({"communicate"})


def is_tool_error_raise(exc: cst.BaseExpression | None, ctx: FileContext) -> bool:
    return raises_tool_error(exc, ctx.model.aliases)


def project_call(call: cst.Call, ctx: FileContext) -> bool:
    """A call to a function of the linted project (its own text sinks are checked there)."""
    name = dotted(call.func)
    if name is None:
        return False
    root = name.split(".")[0]
    if root in ("self", "cls"):
        return True
    if root in ctx.model.aliases.relative_names:
        return True
    resolved = ctx.model.aliases.resolve_dotted(name)
    if resolved is None:
        return f"{ctx.model.module}.{name}" in ctx.model.functions or name in _function_names(ctx)
    return resolved.split(".")[0] == ctx.model.module.split(".")[0]


def _function_names(ctx: FileContext) -> frozenset[str]:
    """Short names of the module's functions and methods, computed once per file."""
    names = ctx.memo.get("function_short_names")
    if not isinstance(names, frozenset):
        names = ctx.memo["function_short_names"] = frozenset(f.rsplit(".", 1)[-1] for f in ctx.model.functions)
    return names


def exception_text_in(
    expr: cst.CSTNode, handler: Handler | None, ctx: FileContext, params: frozenset[str] = frozenset(), *, through_locals: bool = True
) -> cst.CSTNode | None:
    """Exception text in `expr`, ignoring the exception object passed whole to a project helper
    (that helper's own page reports what it does with it); see find_exception_text for
    `through_locals`."""
    if type(expr) is cst.Call and project_call(expr, ctx):
        names = set(params) | ({handler.name} if handler and handler.name else set())
        for argument in expr.args:
            if type(argument.value) is cst.Name and argument.value.value in names:
                continue
            found = find_exception_text(argument.value, handler, params, through_locals=through_locals)
            if found is not None:
                return found
        return None
    return find_exception_text(expr, handler, params, through_locals=through_locals)


def text_outside_helpers(expr: cst.CSTNode, handler: Handler, ctx: FileContext) -> cst.CSTNode | None:
    """Like exception_text_in, also where the exception object goes whole to a project helper
    deeper in the expression (`ToolError(describe(e))`): what the helper does with it is its
    own business (see MCP002's `handed-to-helper` markers)."""
    if type(expr) is cst.Call and project_call(expr, ctx):
        for argument in expr.args:
            if type(argument.value) is cst.Name and argument.value.value == handler.name:
                continue
            found = text_outside_helpers(argument.value, handler, ctx)
            if found is not None:
                return found
        return None
    if not any(type(n) is cst.Call and project_call(n, ctx) for n in descendants(expr)):
        return find_exception_text(expr, handler)
    for child in expr.children:
        found = text_outside_helpers(child, handler, ctx)
        if found is not None:
            return found
    return None


def param_text_outside_helpers(expr: cst.CSTNode, params: frozenset[str], ctx: FileContext) -> cst.CSTNode | None:
    """Exception text of parameters `params` in `expr`, except where a parameter goes whole to a
    project helper at any depth (`ToolError(errors.describe(exc, action))`): that helper is judged
    for its own parameter, which the linker feeds the same exception (CallEdge.forwards)."""
    if type(expr) is cst.Call and project_call(expr, ctx):
        for argument in expr.args:
            if type(argument.value) is cst.Name and argument.value.value in params:
                continue
            found = param_text_outside_helpers(argument.value, params, ctx)
            if found is not None:
                return found
        return None
    if not any(type(n) is cst.Call and project_call(n, ctx) for n in descendants(expr)):
        return find_exception_text(expr, None, params)
    for child in expr.children:
        found = param_text_outside_helpers(child, params, ctx)
        if found is not None:
            return found
    return None


@dataclass(frozen=True)
class HandedOn:
    """A project call handed a caught exception whole (`json.dumps(handle_error(e))`): the
    callee (as CallEdge.callee names it), the argument positions holding the exception, and
    whether it is called as a method (its `self` is then no argument)."""

    callee: str
    positions: tuple[int, ...]
    via_attribute: bool
    # The other project calls of the same value handed the exception whole
    # (`add_hint(describe(exc), exc)`): each is judged on its own parameter too.
    also: tuple[HandedOn, ...] = ()


def exception_handed_to(fn: FunctionFacts, handler: Handler | None, value: cst.CSTNode, any_class: bool = False) -> HandedOn | None:
    """The project call in `value` that `handler`'s caught foreign exception is handed to whole,
    None when there is none. Only a foreign exception, as the linker counts what callers pass
    (CallEdge.exc_params), unless `any_class` (CallEdge.failure_params): the callee's findings
    on that parameter then apply."""
    if handler is None or not (handler.foreign or any_class) or not handler.name:
        return None
    return _handed_whole(fn, value, {handler.name})


def failure_handed_to(fn: FunctionFacts, conditions: Iterable[cst.BaseExpression], value: cst.CSTNode) -> HandedOn | None:
    """The project call in `value` handed whole a local that `conditions` found failed (`if
    r.get("error"): return describe(r)`), None when there is none (CallEdge.failure_params)."""
    failed = found_failed(conditions)
    if not failed:
        return None
    return _handed_whole(fn, value, failed)


def parameter_handed_to(fn: FunctionFacts, param: str, value: cst.CSTNode) -> HandedOn | None:
    """The project call in `value` handed the function's parameter `param` whole (`def
    describe_more(exc): msg = describe(exc) ...`), None when there is none."""
    return _handed_whole(fn, value, {param})


def _handed_whole(fn: FunctionFacts, value: cst.CSTNode, names: Collection[str]) -> HandedOn | None:
    """The first project call in `value` handed one of `names` whole as a positional argument."""
    inside = {id(node) for node in descendants(value)}
    found: list[HandedOn] = []
    for call in fn.calls:
        if call.callee is None or id(call.node) not in inside:
            continue
        positional = [a for a in call.node.args if a.keyword is None and not a.star]
        at = tuple(i for i, a in enumerate(positional) if type(a.value) is cst.Name and a.value.value in names)
        if at:
            found.append(HandedOn(call.callee, at, type(call.node.func) is cst.Attribute))
    if not found:
        return None
    return replace(found[0], also=tuple(found[1:])) if len(found) > 1 else found[0]


def reported_in_callee(handed: HandedOn, code: str, project: LinkedProject) -> bool:
    """Does the function a caught exception is handed to report rule `code`'s finding on that
    parameter itself (a latent with `param` there, which the caller's foreign exception makes
    apply)? Then the caller's statement only passes the flow on: one finding, in the callee."""
    found = project.function(handed.callee)
    if found is None:
        return False
    fn = found[1]
    shift = receiver_shift(handed.via_attribute, fn.params)
    params = {i + shift for i in handed.positions}
    return any(own.code == code and own.param in params for own in fn.latent)


HANDED_DOWN_DEPTH = 4  # functions handing the exception on as it is, past the first


def reported_down(handed: HandedOn, code: str, project: LinkedProject, depth: int = 0, *, parts: bool = False) -> bool:
    """Does the function an exception is handed to report rule `code`'s finding on it, itself or
    in a function it hands that parameter on to whole and returns the value of (`def
    explain(exc): return scrub(describe(exc))`, `describe` reporting)? Then the caller only
    passes the flow on: one finding, where the text is put in. `parts`: also where only a part
    of that function's value comes back (`scrub(describe(exc))`, `f"{describe(exc)}\n{hint}"`),
    which still carries the text it reports."""
    if reported_in_callee(handed, code, project):
        return True
    found = project.function(handed.callee)
    if found is None or depth >= HANDED_DOWN_DEPTH:
        return False
    fn = found[1]
    shift = receiver_shift(handed.via_attribute, fn.params)
    params = {i + shift for i in handed.positions}
    return any(
        reported_down(HandedOn(edge.callee, positions, edge.via_attribute), code, project, depth + 1, parts=parts)
        for edge in fn.calls
        if edge.returned or edge.flows or (parts and edge.feeds)
        for positions in [tuple(at for at, own in edge.forwards if own in params)]
        if positions
    )


def looks_like_exception_param(found: cst.CSTNode, param: str) -> bool:
    """A helper parameter is treated as an exception only when used like one (`str(e)`, `{e}`,
    `e.args`), and named like one."""
    return param in {"e", "ex", "exc", "err", "error", "exception", "error_obj"} or param.endswith(("_error", "_exc", "_exception"))


_SUCCESS_FLAGS = frozenset({"ok", "is_success"})
_FAILURE_FLAGS = frozenset({"is_error", "is_client_error", "is_server_error"})


def _status_number(expr: cst.BaseExpression) -> int | None:
    if type(expr) is cst.Integer:
        return expr.evaluated_value  # `0x1F`, `0o17`, `1_000` as Python reads them
    name = dotted(expr) or ""  # HTTPStatus.OK, status.HTTP_200_OK, codes.ok
    if name.endswith((".OK", "HTTP_200_OK", ".ok")):
        return 200
    return None


def _status_class_divisor(expr: cst.BaseExpression) -> int:
    """100 for `x // 100` (a status compared by its class: `resp.status_code // 100 == 2`), 1
    for anything else."""
    if type(expr) is cst.BinaryOperation and type(expr.operator) is cst.FloorDivide and _status_number(expr.right) == 100:
        return 100
    return 1


def _exit_status_read(expr: cst.BaseExpression, held: dict[str, cst.BaseExpression] | None) -> bool:
    """`proc.returncode` (or a local assigned once from it: `rc = proc.returncode`)."""
    if type(expr) is cst.Name and held is not None:
        expr = held.get(expr.value, expr)
    return type(expr) is cst.Attribute and expr.attr.value in EXIT_STATUS_ATTRS


def _exit_test(cond: cst.BaseExpression, held: dict[str, cst.BaseExpression] | None = None) -> bool | None | str:
    """For a test of a process's exit status: True when it holds only on success
    (`proc.returncode == 0`, `not proc.returncode`), False when only on failure (`!= 0`, a
    non-zero status, the status's truthiness), None when it does not tell; "" when `cond` reads
    no exit status (the caller judges it as a response's status)."""
    if type(cond) is cst.UnaryOperation and type(cond.operator) is cst.Not:
        inner = _exit_test(cond.expression, held)
        return inner if inner == "" or inner is None else not inner
    if _exit_status_read(cond, held):
        return False  # `if proc.returncode:`
    if type(cond) is not cst.Comparison or len(cond.comparisons) != 1 or not _exit_status_read(cond.left, held):
        return ""
    target = cond.comparisons[0]
    operator = type(target.operator)
    if operator in (cst.In, cst.NotIn) and type(target.comparator) in (cst.Tuple, cst.List, cst.Set):
        numbers = [_status_number(el.value) for el in target.comparator.elements]
        if numbers == [0]:
            return operator is cst.In
        return False if operator is cst.In and numbers and all(n is not None and n != 0 for n in numbers) else None
    number = _status_number(target.comparator)
    if number is None:
        return None
    if operator in (cst.Equal, cst.Is):
        return number == 0
    if operator in (cst.NotEqual, cst.IsNot):
        return False if number == 0 else None
    if operator is cst.GreaterThan:
        return False if number >= 0 else None
    if operator is cst.GreaterThanEqual:
        return False if number >= 1 else None
    if operator is cst.LessThan:
        return False if number <= 0 else None
    return None


def _success_test(cond: cst.BaseExpression) -> bool | None:
    """True when `cond` holds only for a successful response (`resp.status_code == 200`,
    `resp.ok`, `200 <= r.status < 300`), False when it holds only for a failed one, None when
    it does not tell (the branch is then read as a failure branch, as before). A process's exit
    status is read as its own kind (`_exit_test`)."""
    exit_test = _exit_test(cond)
    if exit_test != "":
        return exit_test  # type: ignore[return-value]
    if type(cond) is cst.UnaryOperation and type(cond.operator) is cst.Not:
        inner = _success_test(cond.expression)
        return None if inner is None else not inner
    if type(cond) is cst.Attribute and cond.attr.value in _SUCCESS_FLAGS | _FAILURE_FLAGS:
        return cond.attr.value in _SUCCESS_FLAGS
    if type(cond) is cst.BooleanOperation:
        left, right = _success_test(cond.left), _success_test(cond.right)
        if type(cond.operator) is cst.And:
            return True if True in (left, right) else (False if left is False and right is False else None)
        return left if left == right else None
    if type(cond) is cst.Comparison and len(cond.comparisons) == 1:
        target = cond.comparisons[0]
        operator, number = target.operator, _status_number(target.comparator)
        # `resp.status_code // 100 == 2`: the status class, read as its first status (200).
        scale = _status_class_divisor(cond.left)
        if type(operator) in (cst.In, cst.NotIn) and type(target.comparator) in (cst.Tuple, cst.List, cst.Set):
            numbers = [_status_number(el.value) for el in target.comparator.elements]
            numbers = [n * scale if n is not None else None for n in numbers]
            if numbers and all(n is not None and 200 <= n < 300 for n in numbers):
                return type(operator) is cst.In
            return None
        if number is None:
            return None
        number *= scale
        if type(operator) is cst.Equal:
            return 200 <= number < 300
        if type(operator) is cst.NotEqual:
            return False if 200 <= number < 300 else None
        if type(operator) in (cst.LessThan, cst.LessThanEqual):
            return True if number <= 400 else None
        if type(operator) in (cst.GreaterThan, cst.GreaterThanEqual):
            return False if number >= 299 else None
    if type(cond) is cst.Comparison and len(cond.comparisons) == 2:
        low, high = cond.comparisons  # `200 <= r.status_code < 300`
        if _status_number(cond.left) == 200 and _status_number(high.comparator) in {299, 300}:
            return True
    return None


def status_bases(conditions: tuple[cst.BaseExpression, ...], ctx: FileContext) -> set[str]:
    """Responses whose failure the enclosing `if`s test (`if resp.status_code != 200:`); a branch
    taken only on success (`if resp.status_code == 200: return resp.json()`) returns data."""
    bases: set[str] = set()
    for cond in conditions:
        bases |= _condition_bases(cond, ctx)
    return bases


def _condition_bases(cond: cst.BaseExpression, ctx: FileContext) -> frozenset[str]:
    """What one condition tests the failure of; once per condition and file: the returns and
    raises of a branch share its conditions, and MCP002 and MCP005 ask of each of them."""
    return ctx.per_node("status_bases", cond, lambda: frozenset() if _succeeds(cond, ctx) else frozenset(_tested_responses(cond, ctx)))


def _succeeds(cond: cst.BaseExpression, ctx: FileContext) -> bool | None:
    """_success_test, with an exit status also read through a local (`rc = proc.returncode`)."""
    facts = ctx.current_facts
    exit_test = _exit_test(cond, facts.single_assignments if facts is not None else None)
    return _success_test(cond) if exit_test == "" else exit_test  # type: ignore[return-value]


def _tested_responses(cond: cst.BaseExpression, ctx: FileContext) -> set[str]:
    """The responses whose status `cond` reads: `resp.status_code`, or a local holding it
    (`status = resp.status_code` ... `if status >= 400:`)."""
    bases: set[str] = set()
    facts = ctx.current_facts
    for node in descendants(cond):
        if type(node) is cst.Name and facts is not None:
            held = facts.single_assignments.get(node.value)
            if type(held) is cst.Attribute and held.attr.value in _STATUS_ATTRS | EXIT_STATUS_ATTRS:
                node = held
        if type(node) is cst.Attribute and node.attr.value in _STATUS_ATTRS | EXIT_STATUS_ATTRS:
            base = dotted(node.value)
            if base:
                bases.add(base)
    return bases


def left_on_success(fn: FunctionFacts, node: cst.CSTNode, ctx: FileContext) -> set[str]:
    """Responses the function has already left on when they succeeded, before the statement
    `node` of its top-level block runs (`if resp.status_code == 200: return resp.json()`, then
    `raise ApiError(resp.text)`): there, they failed."""
    bases: set[str] = set()
    for test in _left_on_success_tests(fn, node):
        bases |= _tested_responses(test, ctx)
    return bases


def _left_on_success_tests(fn: FunctionFacts, node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The tests of the top-level `if`s before the statement holding `node` that hold only on
    success and leave the function (`if resp.status_code == 200: return ...`); none when `node`
    is not under the function's top-level block."""
    return [test for test in leaving_tests(fn, node) if _success_test(test)]


def leaving_tests(fn: FunctionFacts, node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The tests of the `if`s (without `else`) before the statement holding `node` whose branch
    always leaves the function (`_leaves`), in the function's top-level block and in each `try`
    or `with` body (or `if` branch) on the way down to `node` (`try: data = r.json(); if
    data["status"] == "ok": return ...` then the failure); none when `node` is not there."""
    tests: list[cst.BaseExpression] = []
    block: Sequence[cst.BaseStatement] = fn.node.body.body
    while True:
        for statement in block:
            if holds(statement, node, into_scopes=False):
                inner = _block_holding(statement, node)
                if inner is None:
                    return tests
                block = inner
                break
            if type(statement) is cst.If and statement.orelse is None and _leaves(statement.body):
                tests.append(statement.test)
        else:
            return []


def _block_holding(statement: cst.BaseStatement, node: cst.CSTNode) -> Sequence[cst.BaseStatement] | None:
    """The statements of the `try` body, `with` body or `if` branch of `statement` that hold
    `node` (what runs there ran the statements before it in that block), None otherwise."""
    if type(statement) in (cst.Try, cst.With, cst.If):
        body = statement.body  # type: ignore[attr-defined]
        if type(body) is cst.IndentedBlock and holds(body, node, into_scopes=False):
            return body.body
    return None


def _leaves(block: cst.BaseSuite) -> bool:
    """Does the block end by leaving the function on every path: a `return` or `raise` last, or
    a `try` whose body (or `else`) and every `except` clause leave (a `finally` that does not
    leave changes nothing), or an `if` whose every branch leaves?"""
    body = block.body if type(block) is cst.IndentedBlock else ()
    last = body[-1] if body else None
    if type(last) is cst.SimpleStatementLine:
        return bool(last.body) and type(last.body[-1]) in (cst.Return, cst.Raise)
    if type(last) is cst.Try:
        main = last.orelse.body if last.orelse is not None else last.body
        return _leaves(main) and all(_leaves(handler.body) for handler in last.handlers)
    if type(last) is cst.If:
        other = last.orelse
        if other is None:
            return False
        return _leaves(last.body) and (_leaves(other.body) if type(other) is cst.Else else _leaves(cst.IndentedBlock(body=[other])))
    return False


# Methods that read a response's body (`resp.read()`, `await resp.text()` of aiohttp).
_BODY_METHODS = frozenset({"read", "text", "json"})


def response_slots(fn: FunctionFacts) -> tuple[int, int] | None:
    """(position of the status, position of the body) in the tuples every tuple-returning
    `return` of `fn` hands back of one response (`return resp.status, body, dict(resp.headers)`
    with `body = resp.read().decode()`); None when its returns do not say so."""
    assigned: dict[str, list[cst.BaseExpression]] = {}
    for name, value in _assignments(fn):
        assigned.setdefault(name, []).append(value)
    found: set[tuple[int, int]] | None = None
    for ret in fn.returns:
        value = ret.node.value
        if type(value) is not cst.Tuple:
            continue
        elements = [el.value for el in value.elements]
        pairs = {
            (s, b)
            for s, status in enumerate(elements)
            if type(status) is cst.Attribute and status.attr.value in _STATUS_ATTRS | {"code"}
            for b, body in enumerate(elements)
            if b != s and _reads_body(body, dotted(status.value), assigned)
        }
        found = pairs if found is None else found & pairs
        if not found:
            return None
    return min(found) if found else None


def _assignments(fn: FunctionFacts) -> Iterator[tuple[str, cst.BaseExpression]]:
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) is cst.Assign:
            for target in node.targets:
                if type(target.target) is cst.Name:
                    yield target.target.value, node.value


def _reads_body(value: cst.BaseExpression, base: str | None, assigned: dict[str, list[cst.BaseExpression]]) -> bool:
    """`value` reads the body of the response `base` (`resp.text`, `resp.read().decode()`), itself
    or through a local some assignment of which does (one in the `try` that read it, another in
    the clause for the error response)."""
    if base is None:
        return False
    if type(value) is cst.Name and value.value in assigned:
        return any(_reads_body(v, base, {}) for v in assigned[value.value])
    for node in descendants(value):
        if type(node) is cst.Attribute and dotted(node.value) == base and node.attr.value in _BODY_ATTRS:
            return True
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _BODY_METHODS:
            if dotted(node.func.value) == base:
                return True
    return False


def status_left_or_failed(fn: FunctionFacts, node: cst.CSTNode, conditions: tuple[cst.BaseExpression, ...], status: str) -> bool:
    """Has the local `status` (a response's status code) been found failed where `node` runs: a
    test of it around `node` holds only for a failed response, or the function already left on
    its success before `node` (`if status in (200, 204): return ...`)?"""
    def reads_status(test: cst.BaseExpression) -> bool:
        return any(type(n) is cst.Name and n.value == status for n in descendants(test))

    if any(_success_test(cond) is False and reads_status(cond) for cond in conditions):
        return True
    return any(reads_status(test) for test in _left_on_success_tests(fn, node))


def failed_response_args(fn: FunctionFacts, ctx: FileContext) -> dict[int, tuple[int, ...]]:
    """By id of a call in a raise or return of a branch that tests a response's failure: the
    positions of the arguments that are that response (`raise ToolError(describe(resp))` under
    `if resp.is_error:`, or raised after leaving on its success). What the callee reads of their
    body is an upstream error body."""
    out: dict[int, tuple[int, ...]] = {}
    sinks = [(r.node.exc, r.conditions, r.node, r.handler) for r in fn.raises] + [(r.node.value, r.conditions, None, r.handler) for r in fn.returns]
    for value, conditions, raised, handler in sinks:
        if value is None or not (conditions or raised is not None):
            continue
        bases = status_bases(conditions, ctx) if conditions else set()
        if not bases and raised is not None:
            bases = left_on_success(fn, raised, ctx)  # `if r.is_success: return ...` before it
        if not bases and raised is not None and handler is not None:
            # `except httpx.HTTPStatusError as exc: raise _error_from_response(exc.response)`:
            # the response of a status error is a failed one.
            bases = _failed_response_of(handler)
        if not bases:
            continue
        for node in descendants(value):
            if type(node) is cst.Call:
                positional = [a for a in node.args if a.keyword is None and not a.star]
                taken = tuple(i for i, a in enumerate(positional) if dotted(a.value) in bases)
                if taken:
                    out[id(node)] = taken
    return out


def _failed_response_of(handler: Handler) -> set[str]:
    """`{"exc.response"}` for a clause catching only a status error whose response holds the
    status (`except httpx.HTTPStatusError as exc:`), empty otherwise."""
    status = caught_status(handler)
    return {status.rsplit(".", 1)[0]} if status and status.endswith(".response.status_code") else set()


def decodes_a_reply(value: cst.BaseExpression) -> bool:
    """`resp.json()`, `await resp.json()`, `json.loads(resp.text)` in `value`."""
    return any(decoded_response(node) is not None for node in descendants(value))


def decoded_response(node: cst.CSTNode) -> cst.BaseExpression | None:
    """The response a call decodes: `resp` of `resp.json()` and of `json.loads(resp.text)`."""
    if type(node) is not cst.Call:
        return None
    if type(node.func) is cst.Attribute and node.func.attr.value == "json" and not node.args:
        return node.func.value
    if dotted(node.func) == "json.loads" and node.args:
        text = node.args[0].value
        if type(text) is cst.Attribute and text.attr.value in {"text", "content", "body"}:
            return text.value
    return None


def decoded_reply_args(fn: FunctionFacts) -> dict[int, tuple[int, ...]]:
    """By id of a call: the positions of the arguments that are a decoded upstream reply
    (`opened(resp.json())`, or a local assigned once from one: `payload = resp.json()`). A
    callee that tests such a parameter's failure field and sends its fields on sends an upstream
    error body."""
    out: dict[int, tuple[int, ...]] = {}
    for call in fn.calls:
        positional = [a.value for a in call.node.args if a.keyword is None and not a.star]
        taken = tuple(i for i, value in enumerate(positional) if _decoded_reply(value, fn))
        if taken:
            out[id(call.node)] = taken
    return out


def _decoded_reply(value: cst.BaseExpression, fn: FunctionFacts) -> bool:
    if type(value) is cst.Name:
        held = fn.single_assignments.get(value.value)
        return held is not None and decoded_response(unwrap_await(held)) is not None
    return decoded_response(unwrap_await(value)) is not None


def upstream_body(value: cst.CSTNode, bases: set[str]) -> cst.CSTNode | None:
    """The body of a failed response (`resp.text`) or the output of a failed process
    (`result.stderr`) in `value`, `bases` being the responses and processes found failed."""
    for node in descendants(value):
        if type(node) is cst.Attribute and node.attr.value in _BODY_ATTRS | PROCESS_OUTPUT_ATTRS and dotted(node.value) in bases:
            return node
    return None


def project_class(expr: cst.BaseExpression, ctx: FileContext) -> str | None:
    """Qualified name of the class `expr` names when it may be the project's own: defined here,
    or imported (from this package, or from a module the linker may find in the project, as a
    sibling `errors.py` of a top-level `server.py`). None for builtins and framework classes."""
    from mcp_lint.model.frameworks import FRAMEWORK_DOMAIN_ERRORS

    name = dotted(expr)
    if name is None:
        return None
    resolved = ctx.model.aliases.resolve_dotted(name)
    if resolved is None:
        local = f"{ctx.model.module}.{name}" if ctx.model.module else name
        return local if local in ctx.model.classes else None
    if resolved in FRAMEWORK_DOMAIN_ERRORS or resolved.split(".")[0] in {"mcp", "fastmcp", "builtins"}:
        return None
    return resolved if last_name(resolved)[:1].isupper() else None


def handler_classes(handler: Handler, ctx: FileContext) -> tuple[str, ...]:
    """The project classes an `except` clause names, qualified."""
    node = handler.node.type
    if node is None:
        return ()
    exprs = [el.value for el in node.elements] if type(node) is cst.Tuple else [node]
    return tuple(q for q in (project_class(e, ctx) for e in exprs) if q is not None)


def exception_raises(fn: FunctionFacts, ctx: FileContext) -> Iterator[tuple[str, bool, int, tuple[int, ...]]]:
    """(project class, built from a caught library exception's text?, row, positions of the
    arguments that are such an exception handed whole) for each `raise Cls(...)`. Whether a
    handed exception's text is in the message is its class's `__init__`'s to say (link time).

    The linker adds them up over the project: a class raised only with library text carries it
    to whoever catches the class (see project_links._CarriedText).
    """
    for fact in fn.raises:
        exc = fact.node.exc
        if type(exc) is not cst.Call:
            continue
        qual = project_class(exc.func, ctx)
        if qual is None or fact.caught_here(last_name(qual)):
            # Caught again by a `try` of this function (`except Exception:` around a raise that
            # tries a richer message first): it never leaves with this text, so it neither makes
            # the class the author's own message nor a carrier; the clause's own raise counts.
            continue
        foreign = {h.name for h in _enclosing(fact.handler) if h.foreign and h.name}
        positional = [a for a in exc.args if a.keyword is None and not a.star]
        handed = tuple(i for i, a in enumerate(positional) if type(a.value) is cst.Name and a.value.value in foreign)
        whole = {id(positional[i]) for i in handed}
        carried = any(
            h.foreign and any(id(a) not in whole and exception_text_in(a.value, h, ctx) is not None for a in exc.args) for h in _enclosing(fact.handler)
        )
        yield qual, carried, ctx.start_line(fact.node) if carried or handed else 0, handed


def author_raises(fn: FunctionFacts, ctx: FileContext) -> Iterator[str]:
    """The builtin exception classes `fn` raises with words the author wrote (`raise
    ValueError("API_KEY and API_SECRET must be set")`, `raise RuntimeError(f"No entry {key}")`):
    the message a literal or f-string with words of its own and no caught exception's text,
    outside any `try` of `fn` that takes the class again. A caller's `except ValueError as e:
    return str(e)` passes those words on (FunctionSummary.author_raises)."""
    for fact in fn.raises:
        exc = fact.node.exc
        if type(exc) is not cst.Call or not exc.args or exc.args[0].keyword is not None:
            continue
        name = dotted(exc.func)
        if name is None or "." in name or ctx.model.aliases.resolve_dotted(name) is not None:
            continue
        bases = _builtin_bases(name)
        if not bases or name in _NOT_MESSAGES or fact.caught_here(frozenset(bases)):
            continue
        message = exc.args[0].value
        text = literal_text(message) if type(message) in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString) else None
        if text is None or not says_something(text):
            continue
        if any(exception_text_in(a.value, h, ctx) is not None for h in _enclosing(fact.handler) for a in exc.args):
            continue  # `raise ValueError(f"Bad reply: {e}")`: the library's words, not the author's
        yield name


def says_something(text: str) -> bool:
    """Does a message name more than the failure itself: two words of substance or more ("NOTES_KEY
    must be set", "token cannot be empty", "Item {} not found"), not a status line the fix's new
    message replaces ("HTTP error {}", "Failed to fetch {}")?"""
    words = _WORDS.findall(text.lower())
    return sum(1 for w in words if w not in FILLER_WORDS and "{" not in w) >= 2


_WORDS = lazy_compile(r"[A-Za-z{}][\w'{}-]*")


# Raised for control, not with a message for anyone.
_NOT_MESSAGES = frozenset({"StopIteration", "StopAsyncIteration", "KeyboardInterrupt", "SystemExit", "GeneratorExit"})


def _builtin_bases(name: str) -> tuple[str, ...]:
    """`FileNotFoundError` -> its class and bases' names; () for a name that is no builtin exception."""
    cls = getattr(builtins, name, None)
    if not isinstance(cls, type) or not issubclass(cls, BaseException):
        return ()
    return tuple(c.__name__ for c in cls.__mro__ if c is not object)


_VALIDATOR_DECORATORS = frozenset({"field_validator", "model_validator", "validator", "root_validator"})


def is_validator(fn: FunctionFacts) -> bool:
    """Is `fn` a pydantic validator method (`@field_validator("token")`)? What it raises reaches
    the code building the model inside a ValidationError, with its text."""
    if fn.class_name is None:
        return False
    for decorator in fn.node.decorators:
        expr = decorator.decorator.func if type(decorator.decorator) is cst.Call else decorator.decorator
        name = dotted(expr)
        if name is not None and last_name(name) in _VALIDATOR_DECORATORS:
            return True
    return False


def _enclosing(handler: Handler | None) -> Iterator[Handler]:
    """The clause a statement is in, then the clauses whose bodies hold it (Handler.parent)."""
    while handler is not None:
        yield handler
        handler = handler.parent

