"""Where a failure held: the branch outcomes on a function's control-flow graph that say a check
failed or a reply reported a failure, so that what the function writes there reports it.

A value is a failure when it is built on a path where a failure held, whatever its words. For an
`except` clause that is the clause itself; for branches it is a branch outcome that holds on
every path to the statement (engine.held): `if not ok:` after `ok, why = check(x)`, `if not
valid_token(t):`, `if resp.status_code >= 400:`, `if "error" in data:`, `if data.get("success")
is False:`, and equally the statement after `if ok: return data`. Words then decide only what no
path tells (a tool's own refusal in a plain branch, `if backend is None:`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted, last_name, unwrap_await
from mcp_lint.model.walk import descendants, holds
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.exception_text import status_bases
from mcp_lint.rules.results import _local_function
from mcp_lint.rules.upstream_body import conjuncts, reply_failure_test, reply_success_test
from mcp_lint.vocabulary import REPLY_ERROR_FIELDS, REPORTING_CALLS, TEXT_BUILDING_CALLS, is_predicate_name


@dataclass(frozen=True)
class FailedBranch:
    """A branch outcome where a failure held: the test as it holds there (`not ok`), what it
    found failed (`verdict`: a check's flag or a predicate call; `reply`: a response or a
    decoded reply), and the locals whose text says why (`why` of `ok, why = check(x)`; the
    reply tested, whose error field a return may carry)."""

    branch: cst.If
    outcome: bool
    kind: str
    reasons: frozenset[str]


def failed_branch(fn: FunctionFacts, ctx: FileContext, at: cst.CSTNode) -> FailedBranch | None:
    """The innermost branch outcome where a failure held that holds on every path to the
    statement `at`, with nothing but reporting between it and `at`; None when no path tells."""
    if not _tests_a_failure_anywhere(fn, ctx):
        return None  # most functions: no graph needed
    for branch, outcome in fn.held_branches(at):
        found = _branch_failures(branch, fn, ctx)[outcome]
        if found is not None:
            kind, reasons = found
            if not _reports_only_until(fn, branch, outcome, at):
                return None  # the branch does work first (a fallback): its text is that work's answer
            return FailedBranch(branch, outcome, kind, reasons)
    return None


def _tests_a_failure_anywhere(fn: FunctionFacts, ctx: FileContext) -> bool:
    """Does some `if` of the function test a failure for one of its outcomes? (Once per function.)"""
    return ctx.per_node(
        "tests_a_failure",
        fn.node,
        lambda: any(
            found is not None
            for node in descendants(fn.node.body, into_scopes=False)
            if type(node) is cst.If
            for found in _branch_failures(node, fn, ctx).values()
        ),
    )


def _branch_failures(branch: cst.If, fn: FunctionFacts, ctx: FileContext) -> dict[bool, tuple[str, frozenset[str]] | None]:
    """What each outcome of the `if` says failed (once per `if` and file)."""
    return ctx.per_node("branch_failures", branch, lambda: {outcome: _failure_of(branch.test, outcome, fn, ctx) for outcome in (True, False)})


def _failure_of(test: cst.BaseExpression, outcome: bool, fn: FunctionFacts, ctx: FileContext) -> tuple[str, frozenset[str]] | None:
    """(kind, reason locals) when `test` having `outcome` means a failure held."""
    verdict = _falsy_verdict(test if outcome else _negated(test), fn, ctx)
    if verdict is not None:
        return "verdict", verdict
    if outcome:
        replies = {local for cond in conjuncts((test,)) for local in [reply_failure_test(cond)] if local is not None}
        if replies or status_bases((test,), ctx):
            return "reply", frozenset(replies)
        return None
    if _confirmed_only(test):
        return None  # past `if r.get("success") is True:` the flag may be absent: words decide
    local = reply_success_test(test)
    if local is not None:
        return "reply", frozenset({local})
    # `if resp.status_code == 200: return resp.json()`: past it, the response failed. (Only for
    # a test that holds on success alone: past `if ok and resp.status_code == 404:` anything goes.)
    return ("reply", frozenset()) if not status_bases((test,), ctx) and status_bases((_negated(test),), ctx) else None


def _confirmed_only(test: cst.BaseExpression) -> bool:
    """`x is True`: a test that separates a success the reply confirms from everything else, an
    absent or unreadable flag included (`if body.get("success") is True: return "Deleted."`).
    What the function answers past it reports an unconfirmed outcome, not a failure."""
    if not (type(test) is cst.Comparison and len(test.comparisons) == 1):
        return False
    target = test.comparisons[0]
    return type(target.operator) is cst.Is and dotted(target.comparator) == "True"


def _negated(test: cst.BaseExpression) -> cst.BaseExpression:
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        return test.expression
    return cst.UnaryOperation(cst.Not(), test)


def _falsy_verdict(test: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext) -> frozenset[str] | None:
    """The reason locals when `test` holds exactly when a verdict is falsy: `not ok` (or `ok is
    False`) of the flag a call hands back with its reason (`ok, why = check(x)`), or `not
    valid(x)` of a call that answers yes or no."""
    flag: cst.BaseExpression | None = None
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        flag = test.expression
    elif type(test) is cst.Comparison and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if type(target.operator) in (cst.Is, cst.Equal) and dotted(target.comparator) == "False":
            flag = test.left
    if type(flag) is cst.Name:
        return _verdict_flags(fn, ctx).get(flag.value)
    flag = unwrap_await(flag) if flag is not None else None
    if type(flag) is cst.Call and _answers_yes_or_no(flag, ctx):
        return frozenset()
    return None


def _verdict_flags(fn: FunctionFacts, ctx: FileContext) -> dict[str, frozenset[str]]:
    """The locals that hold a call's verdict: the first item of a tuple a call hands back (`ok,
    why = check(x)`, `valid, err = await validate(x)`), with the other items' locals (its
    reasons), and a call's whole value that only `if` tests read (`done = remove(x)`)."""

    def compute() -> dict[str, frozenset[str]]:
        flags: dict[str, frozenset[str]] = {}
        only_tested: list[str] = []
        for node in descendants(fn.node.body, into_scopes=False):
            if type(node) is not cst.Assign or len(node.targets) != 1:
                continue
            target = node.targets[0].target
            if type(unwrap_await(node.value)) is not cst.Call:
                continue
            if type(target) is cst.Name:
                only_tested.append(target.value)
                continue
            if type(target) not in (cst.Tuple, cst.List) or len(target.elements) < 2:
                continue
            names = [element.value for element in target.elements]
            if type(names[0]) is cst.Name and _read_only_in_tests(fn, names[0].value):
                # (`parts, skipped = extract(doc)`; `if not parts:` ... `"".join(parts)`: data.)
                flags[names[0].value] = frozenset(n.value for n in names[1:] if type(n) is cst.Name)
        for name in only_tested:
            if name not in flags and _read_only_in_tests(fn, name):
                flags[name] = frozenset()
        return flags

    return ctx.per_node("verdict_flags", fn.node, compute)


def _read_only_in_tests(fn: FunctionFacts, name: str) -> bool:
    """Is the local read only by `if` tests (`done = remove(x)`; `if not done:`)? Then the
    call's value is a verdict; one the function also reads otherwise (`rows = search(q)`;
    `if not rows: ...`; `return format(rows)`) is data, and its absence an empty answer."""
    tested: set[int] = set()
    reads = 0
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) is cst.If:
            tested.update(id(n) for n in descendants(node.test, into_scopes=False) if type(n) is cst.Name and n.value == name)
        elif type(node) is cst.Name and node.value == name:
            reads += 1
    # Every occurrence but the assignment's target is inside a test (and there is one).
    return bool(tested) and reads == len(tested) + _assignments(fn, name)


def _assignments(fn: FunctionFacts, name: str) -> int:
    """How many assignment targets (whole, or an item of a tuple target) are the local."""
    count = 0
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) is cst.Assign:
            for target in node.targets:
                inner = [e.value for e in target.target.elements] if type(target.target) in (cst.Tuple, cst.List) else [target.target]
                count += sum(1 for t in inner if type(t) is cst.Name and t.value == name)
    return count


def _answers_yes_or_no(call: cst.Call, ctx: FileContext) -> bool:
    """Does the call answer yes or no? A function of this module: annotated `-> bool`, or every
    return a truth value; any other: named as a predicate (vocabulary.is_predicate_name)."""
    local = _local_function(call, ctx)
    if local is not None:
        returns = local.node.returns
        if returns is not None and dotted(returns.annotation) == "bool":
            return True
        values = [ret.node.value for ret in local.returns]
        return bool(values) and all(value is not None and _truth_value(value) for value in values)
    return is_predicate_name(last_name(dotted(call.func) or ""))


def _truth_value(value: cst.BaseExpression) -> bool:
    if type(value) is cst.Name:
        return value.value in {"True", "False"}
    if type(value) is cst.UnaryOperation:
        return type(value.operator) is cst.Not
    if type(value) is cst.Comparison:
        return True
    return type(value) is cst.Call and dotted(value.func) in {"bool", "isinstance", "callable", "hasattr"}


def reads_a_reason(value: cst.BaseExpression, failed: FailedBranch) -> bool:
    """Is the value the failure's own reason: the check's reason local (`return why`), or the
    error field of the reply tested (`return data["error"]`, `data.get("error")`)?"""
    value = unwrap_await(value)
    if type(value) is cst.Name:
        return failed.kind == "verdict" and value.value in failed.reasons
    holder, key = _field(value)
    return failed.kind == "reply" and holder in failed.reasons and key in REPLY_ERROR_FIELDS


def carries_a_reason(value: cst.BaseExpression, failed: FailedBranch) -> bool:
    """Does a written text put the failure's reason in (`f"DENIED: {why}"`)?"""
    value = unwrap_await(value)
    if type(value) is cst.FormattedString:
        return any(type(part) is cst.FormattedStringExpression and reads_a_reason(part.expression, failed) for part in value.parts)
    if type(value) is cst.BinaryOperation and type(value.operator) is cst.Add:
        return reads_a_reason(value.right, failed) or carries_a_reason(value.left, failed)
    return False


def _field(value: cst.BaseExpression) -> tuple[str | None, str | None]:
    if type(value) is cst.Subscript and type(value.value) is cst.Name and len(value.slice) == 1:
        index = value.slice[0].slice
        if type(index) is cst.Index and type(index.value) is cst.SimpleString:
            return value.value.value, str(index.value.evaluated_value)
    if type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value == "get" and value.args:
        first = value.args[0].value
        if type(value.func.value) is cst.Name and type(first) is cst.SimpleString:
            return value.func.value.value, str(first.evaluated_value)
    return None, None


# -- Between the branch and the statement: reporting only ----------------------------------------


def reports_only(small: cst.BaseSmallStatement) -> bool:
    """Does a statement only report a failure: a return, a raise, `pass`, a bare string, text put
    in a plain local with nothing but text builders (`msg = f"..."`, `why += "; ".join(errors)`),
    a call that logs it? (An `except` clause's or a failed branch's statements; the one test
    the rules' judgements, their fixes and the failure paths share.) An attribute or an item assigned
    (`self.token = saved`) rolls state back: work, not a report."""
    if type(small) in (cst.Return, cst.Raise, cst.Pass):
        return True
    if type(small) in (cst.Assign, cst.AnnAssign, cst.AugAssign):
        targets = [t.target for t in small.targets] if type(small) is cst.Assign else [small.target]
        if not all(type(t) is cst.Name for t in targets):
            return False
        value = small.value
        return value is None or all(_called_name(node) in TEXT_BUILDING_CALLS for node in descendants(value) if type(node) is cst.Call)
    if type(small) is not cst.Expr:
        return False  # `del`, `continue`, `break`, `global`, ...
    call = unwrap_await(small.value)
    if type(call) in (cst.SimpleString, cst.ConcatenatedString):
        return True
    return type(call) is cst.Call and _called_name(call) in REPORTING_CALLS


def _called_name(call: cst.Call) -> str:
    """The name a call is made by, whatever it is called on (`", ".join`, `get_logger().error`)."""
    func = call.func
    return func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""


def _reports_only_until(fn: FunctionFacts, branch: cst.If, outcome: bool, at: cst.CSTNode) -> bool:
    """Between the branch outcome and `at`, does the function only report (log, build text)?
    Inside the branch: its statements before `at`; after it (`if ok: return data` then `at`):
    the statements that follow the `if` up to `at`."""
    if outcome and _holds(branch.body, at):
        return _reporting_before(branch.body.body, at)
    orelse = branch.orelse
    if not outcome and orelse is not None and _holds(orelse, at):
        return _reporting_before(orelse.body.body if type(orelse) is cst.Else else (orelse,), at)
    suite = _suite_holding(fn.node.body, branch)
    if suite is None:
        return False
    statements = list(suite)
    return _reporting_before(statements[statements.index(branch) + 1 :], at)


def _reporting_before(statements: Sequence[cst.CSTNode], at: cst.CSTNode) -> bool:
    for statement in statements:
        if _holds(statement, at):
            if type(statement) is cst.SimpleStatementLine:
                for small in statement.body:
                    if small is at or _holds(small, at):
                        return True
                    if not (reports_only(small)):
                        return False
                return True
            return all(_reporting_before(block, at) for block in _blocks(statement) if any(_holds(s, at) for s in block))
        if type(statement) is not cst.SimpleStatementLine:
            return False  # a loop, a `with`, a `try`, an `if` before `at`: work of its own
        if not all(reports_only(small) for small in statement.body):
            return False
    return True


def _blocks(statement: cst.CSTNode) -> Iterator[Sequence[cst.CSTNode]]:
    """The statement lists of a compound statement's blocks."""
    for child in statement.children:
        if type(child) is cst.IndentedBlock:
            yield child.body
        elif type(child) in (cst.Else, cst.Finally, cst.ExceptHandler) and type(child.body) is cst.IndentedBlock:
            yield child.body.body
        elif type(child) is cst.If:
            yield (child,)


def _suite_holding(body: cst.BaseSuite, statement: cst.CSTNode) -> Sequence[cst.CSTNode] | None:
    """The statement list that has `statement` as one of its items (none for an `elif`)."""
    for node in descendants(body, into_scopes=False):
        if type(node) is cst.IndentedBlock and any(item is statement for item in node.body):
            return node.body
    return None


def _holds(node: cst.CSTNode, inner: cst.CSTNode) -> bool:
    return holds(node, inner, into_scopes=False)


def skips_the_wrapped_call(fn: FunctionFacts, ctx: FileContext, at: cst.CSTNode) -> bool:
    """Is `at` a return of a decorator's wrapper (`async def wrapper(*args, **kwargs)`) made before
    the wrapper hands those arguments on to the function it wraps (`await func(*args, **kwargs)`)?
    The tool's own body never ran there: what the wrapper writes is its refusal of the call
    (`if not session.token: return "Not signed in ..."`), whatever its words."""
    params = fn.node.params
    spread = {p.name.value for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param}
    if not spread:
        return False
    forwarding = [
        node
        for node in descendants(fn.node.body, into_scopes=False)
        if type(node) is cst.Call and any(a.star and type(a.value) is cst.Name and a.value.value in spread for a in node.args)
    ]
    if not forwarding:
        return False
    row = ctx.start_line(at)
    return all(ctx.start_line(call) > row for call in forwarding)


def verdict_or_none(fn: FunctionFacts) -> bool:
    """Does every return of the function send either nothing (`return None`, a bare `return`) or a
    text it writes (a literal, an f-string), both kinds present, so that its text exists only when
    a check found something wrong (`def confirm(code): if code != CODE: return "Wrong code."; return
    None`)? Its callers branch on the value; a caller that returns the value as it is in that
    branch and goes on otherwise (CallEdge.hands_on) refuses the call with the text."""
    texts = nothing = 0
    body = fn.node.body.body if type(fn.node.body) is cst.IndentedBlock else ()
    last = body[-1].body[-1] if body and type(body[-1]) is cst.SimpleStatementLine and body[-1].body else None
    if type(last) not in (cst.Return, cst.Raise):
        nothing += 1  # it may fall off its end: None
    for ret in fn.returns:
        value = ret.node.value
        if value is None or (type(value) is cst.Name and value.value == "None"):
            nothing += 1
            continue
        value = unwrap_await(fn.value_of(value))
        if type(value) in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString):
            texts += 1
            continue
        return False
    return texts > 0 and nothing > 0
