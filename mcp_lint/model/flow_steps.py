"""The statements a value passes through on its way from where it is built to where it leaves
the function: what a finding shows as the other statements of its flow (related locations).

Read from the value flow (flow.ValueFlow.path): the stores a returned or raised expression reads
through its locals, each reached from the next one along the flow. A step is a small picklable
record (it travels in latents and function summaries, which the cache stores); rules put their
own words on it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable

import libcst as cst
from libcst.metadata import CodeRange

from mcp_lint.findings import Location
from mcp_lint.model.flow import Store, ValueFlow, names_read
from mcp_lint.model.names import dotted, last_name, unwrap_await
from mcp_lint.model.walk import descendants

# What a step does with the value.
ASSIGN = "assign"  # `x = v`, `x: T = v`: the value is now `x`'s
ADD = "add"  # `x += v`: the value is added to `x`
STORE = "store"  # `x.append(v)`, `x[k] = v`, `x.attr = v`: the value is put into `x`
UNPACK = "unpack"  # `a, b = v`: one element of the value is `a`'s
EXTEND = "extend"  # `x += "."` after `x` holds the value: the value stays in `x`, which grows
RETURN = "return"  # `return v` of a helper whose callers take the value

# How many steps one function's returns keep in its summary (the rest are not shown either).
MAX_RETURN_STEPS = 8


@dataclass(frozen=True)
class FlowStep:
    """One statement of a flow: where it is, what it does with the value (`kind`), the local it
    writes (`name`; the function's name for RETURN), the project function whose result it takes
    (`callee`, short name, "" when none), and for a step in another function than the finding's,
    that function's file and short name (filled in by the link step; "" for the finding's own)."""

    location: Location
    end_location: Location
    kind: str
    name: str
    callee: str = ""
    filename: str = ""
    function: str = ""


RangeOf = Callable[[cst.CSTNode], CodeRange]


def step_of(store: Store, range_of: RangeOf, flow: ValueFlow) -> FlowStep | None:
    """The statement of `store` as a step (None for a `for`/`with` header)."""
    statement = store.statement
    if statement is None:
        return None  # a `for`/`with` header: not a statement of its own
    where = range_of(statement)
    if store.element or store.slot is not None or "." in store.key:
        kind = STORE
    elif store.position is not None:
        kind = UNPACK
    elif type(statement) is cst.AugAssign:
        kind = ADD
    else:
        kind = ASSIGN
    value = unwrap_await(store.value)
    # A function of the project, not a method of a local (`detail.strip()`).
    project = (
        type(value) is cst.Call
        and kind in {ASSIGN, UNPACK}
        and (dotted(value.func) or ".").split(".")[0] not in flow.stores
        and flow.is_project_call(value)
    )
    callee = last_name(dotted(value.func) or "") if project else ""  # type: ignore[union-attr]
    return FlowStep(
        Location(where.start.line, where.start.column + 1),
        Location(where.end.line, where.end.column + 1),
        kind,
        store.key.split(".")[0] if kind == STORE else store.key,
        callee,
    )


def steps_between(flow: ValueFlow | None, source: Store, expr: cst.BaseExpression, at: cst.CSTNode, range_of: RangeOf) -> tuple[FlowStep, ...]:
    """The statements that carry the value `source` stored on to `expr` (read at the statement
    `at`), in the order the value flows, without `source` itself nor `at`: for `detail = str(e)`,
    `msg = f"Failed: {detail}"`, `return msg` the one step `msg = ...`. Only stores that reach
    `at` on the control-flow graph count (a value replaced on another branch is not on the way)."""
    if flow is None:
        return ()
    chain = flow.path(expr, at, source)
    if not chain:
        return ()
    steps: list[FlowStep] = []
    seen: set[int] = {id(source.statement), id(at)}
    for store, extends in chain[1:]:
        if id(store.statement) in seen:
            continue
        seen.add(id(store.statement))
        step = step_of(store, range_of, flow)
        if step is not None:
            steps.append(replace(step, kind=EXTEND) if extends else step)
    return tuple(steps)


def steps_from(flow: ValueFlow | None, source: Store, expr: cst.BaseExpression, at: cst.CSTNode, range_of: RangeOf) -> tuple[FlowStep, ...]:
    """`source`'s own statement, then steps_between: for a finding at the statement that sends a
    value some earlier statement took (`detail = resp.text`, `raise ApiError(detail)`). () when
    what `source` stored does not reach `expr`."""
    if flow is None or flow.path(expr, at, source) is None:
        return ()
    first = step_of(source, range_of, flow)
    between = steps_between(flow, source, expr, at, range_of)
    return (first, *between) if first is not None else between


def store_of(flow: ValueFlow | None, value: cst.CSTNode, *, within: bool = False) -> Store | None:
    """The store whose value is `value` (the node itself; `within`: or holds it), None when no
    store at a statement has it."""
    if flow is None:
        return None
    for stores in flow.stores.values():
        for store in stores:
            if store.value is value:
                return store
            if within and store.statement is not None and any(node is value for node in descendants(store.value)):
                return store
    return None


def return_steps(
    flow: ValueFlow | None, params: Iterable[str], returns: Iterable[cst.Return], name: str, range_of: RangeOf
) -> tuple[FlowStep, ...]:
    """A helper's parameter -> return summary as statements: for each return whose value reads a
    parameter (through any number of locals), the stores that carry the parameter there, then
    the return itself; in source order, at most MAX_RETURN_STEPS. A caller whose finding takes
    the helper's result shows them as the helper's part of the flow."""
    return return_flow(flow, tuple(params), returns, name, range_of)[0]


def return_flow(
    flow: ValueFlow | None, params: tuple[str, ...], returns: Iterable[cst.Return], name: str, range_of: RangeOf
) -> tuple[tuple[FlowStep, ...], tuple[int, ...] | None]:
    """return_steps, and the positions of the parameters (`self` counted) that any return value
    reads through any number of locals and calls (None without a value flow): a parameter not
    among them gives the function's value none of its text, whatever a caller hands it."""
    wanted = frozenset(p for p in params if p not in {"self", "cls"})
    if flow is None:
        return (), None
    if not wanted:
        return (), ()
    steps: dict[tuple[int, int], FlowStep] = {}
    reached: set[str] = set()
    for ret in returns:
        if ret.value is None:
            continue
        parents: dict[int, Store | None] = {}
        _, stores, read = flow.follow(ret.value, at=ret, parents=parents)
        read_params = wanted.intersection(key.split(".", 1)[0] for key in read)
        if not read_params:
            continue
        reached |= read_params
        on_the_way: dict[int, Store] = {}
        for store in stores:
            if wanted.isdisjoint(names_read(store.value)):
                continue
            step: Store | None = store
            while step is not None and id(step) not in on_the_way:
                on_the_way[id(step)] = step
                step = parents.get(id(step))
        for store in on_the_way.values():
            found = step_of(store, range_of, flow)
            if found is not None:
                steps.setdefault((found.location.row, found.location.column), found)
        where = range_of(ret)
        start = Location(where.start.line, where.start.column + 1)
        steps.setdefault((start.row, start.column), FlowStep(start, Location(where.end.line, where.end.column + 1), RETURN, name))
    ordered = tuple(steps[key] for key in sorted(steps))[:MAX_RETURN_STEPS]
    return ordered, tuple(i for i, p in enumerate(params) if p in reached)
