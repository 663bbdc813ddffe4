"""What a function's returns and raises carry, settled after its body is walked.

For each call: does its value flow into what the function returns (whole, in part, which items,
in which item of a returned literal), and which early exits rule out a helper's branch. For each
exception text stored in a local: the returns and raises that send it on. These read the value
flow of the whole body (flow.ValueFlow), so they run once the walk (function_body) is done.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Optional

import libcst as cst

from mcp_lint.model.facts import CallFact, FunctionFacts, RaiseFact, ReturnFact, TextFlow
from mcp_lint.model.flow import WHOLE, ValueFlow, condition_shape, first_param, keyword_slot, literal_items, merge_modes, names_read
from mcp_lint.model.frameworks import TOOL_ERROR_CLASSES
from mcp_lint.model.message_text import find_exception_text, gathered_exception_text
from mcp_lint.model.names import AliasTable, dotted, last_name, unwrap_await
from mcp_lint.model.walk import SCOPES, children, is_leaf


_PROTOCOL_ERRORS = frozenset({"McpError", "MCPError"})
# typing's spelling: a module-level alias is evaluated at import, where `X | None` needs 3.10.
Modes = Dict[int, Optional[FrozenSet[str]]]  # by id(call): the items of its value sent on (WHOLE: all)


def trace_returned_calls(facts: FunctionFacts, flow: ValueFlow, aliases: AliasTable, local: set[str]) -> None:
    """Set each call's `flows`, `feeds`, `selects`, `slot`, `wrapped_by` and `excludes`, and
    whether the function returns its first argument whole (`returns_argument`)."""
    returned, slots = _returned(facts, flow)
    _wrapped(facts, flow)
    raised, raised_other = _raised(facts, flow, aliases)
    built = _returned_exceptions(facts, flow)
    reads: dict[int, frozenset[str]] = {}
    for call in facts.calls:
        key = id(call.node)
        call.flows = key in returned and returned[key] is WHOLE
        call.feeds = key in returned or key in raised
        call.raised = key in raised
        if call.feeds:
            modes = [where[key] for where in (returned, raised) if key in where]
            selected = modes[0] if len(modes) == 1 else merge_modes(*modes)
            call.selects = selected if selected is not WHOLE and "*" not in selected else None
        call.slot = slots.get(key)
        call.raised_text = raised_other.get(key, "")
        call.returned_in = built.get(key, "")
        if call.exits:
            call.excludes = _excluded(call, local, reads)
    _receivers(facts, flow)


def _receivers(facts: FunctionFacts, flow: ValueFlow) -> None:
    """CallFact.receiver_of: `load(key).to_text()` returned whole names `to_text` on the call of
    `load` (also through a local: `r = load(key); return r.to_text()`)."""
    by_node: dict[int, CallFact] | None = None
    for method in facts.calls:
        func = method.node.func
        if not method.flows or type(func) is not cst.Attribute:
            continue
        if by_node is None:
            by_node = {id(call.node): call for call in facts.calls}
        for key, mode in flow.origins(func.value)[0].items():
            call = by_node.get(key)
            if mode is WHOLE and call is not None and call is not method:
                call.receiver_of = func.attr.value


def _returned(facts: FunctionFacts, flow: ValueFlow) -> tuple[Modes, dict[int, str | None]]:
    """The mode each call's value is returned in, and the one item of returned literals holding
    it whole (by id(call))."""
    returned: Modes = {}
    slots: dict[int, str | None] = {}
    first = first_param(facts.params)
    for ret in facts.returns:
        if ret.node.value is not None:
            calls, _, read = flow.follow(ret.node.value, ret.checked, ret.node)
            for call, mode in calls.items():
                returned[call] = merge_modes(returned[call], mode) if call in returned else mode
            if first is not None and first in read and read[first] is WHOLE:
                facts.returns_argument = True  # `return [TextContent(type="text", text=str(text))]`
            for item, element in literal_items(ret.node.value):
                # Only an element that is a call's value as it is, or a local holding one, is
                # followed (what a caller may take whole); other elements are built here.
                element = unwrap_await(element)
                if type(element) is cst.Call:
                    found: Modes = {id(element): WHOLE}
                elif type(element) is cst.Name:
                    found = flow.origins(element, ret.checked, ret.node)[0]
                else:
                    continue
                for call, mode in found.items():
                    if mode is WHOLE:
                        slots[call] = item if slots.get(call, item) == item else None
    return returned, slots


def _wrapped(facts: FunctionFacts, flow: ValueFlow) -> None:
    """`return format_text_response(result)`: the calls whose value the first argument of a
    returned project call carries whole get that call's callee as `wrapped_by` (what the project
    function does with its argument is known only to the linker)."""
    by_node: dict[int, CallFact] | None = None
    for ret in facts.returns:
        value = unwrap_await(ret.node.value) if ret.node.value is not None else None
        if type(value) is not cst.Call or not flow.is_project_call(value):
            continue
        first = next((a.value for a in value.args if a.keyword is None and not a.star), None)
        if first is None:
            continue
        if by_node is None:
            by_node = {id(call.node): call for call in facts.calls}
        wrapper = by_node.get(id(value))
        if wrapper is None or wrapper.callee is None:
            continue
        for key, mode in flow.origins(first, ret.checked, ret.node)[0].items():
            call = by_node.get(key)
            if mode is WHOLE and call is not None and call is not wrapper:
                call.wrapped_by = wrapper.callee


def _raised(facts: FunctionFacts, flow: ValueFlow, aliases: AliasTable) -> tuple[Modes, dict[int, str]]:
    """`raise ToolError(result["error"])`: the model reads text taken from the call's value, but
    raising is the error channel, so the value is not returned as a success. Also, by id(call),
    the class of a plain exception raised (and not caught here) with text of the call's value
    (`raise ValueError(json.dumps(result))`): the framework decides whether the model reads it."""
    raised: Modes = {}
    other: dict[int, str] = {}
    for fact in facts.raises:
        exc = facts.value_of(fact.node.exc) if fact.node.exc is not None else None
        if type(exc) is not cst.Call:
            continue
        if _is_tool_error(exc, aliases):
            for call, mode in flow.origins(fact.node.exc, at=fact.node)[0].items():
                raised[call] = merge_modes(raised[call], mode) if call in raised else mode
            continue
        name = last_name(dotted(exc.func) or "")
        # A class constructed here (`raise make_error(e)` raises a factory's value: the linker
        # follows that one); a protocol error's message is sent as written (its channel is judged apart).
        if not name[:1].isupper() or name in _PROTOCOL_ERRORS or fact.caught_here(name):
            continue
        for call in flow.origins(fact.node.exc, at=fact.node)[0]:
            if call != id(exc):
                other.setdefault(call, name)
    return raised, other


def _returned_exceptions(facts: FunctionFacts, flow: ValueFlow) -> dict[int, str]:
    """By id(call): the class of an object the function returns built with text of the call's
    value in its arguments (`return AuthError(self._auth_message(status, exc))`). Whether that
    object is an exception its callers raise is the linker's question (CallEdge.raises_value)."""
    out: dict[int, str] = {}
    for ret in facts.returns:
        value = unwrap_await(ret.node.value) if ret.node.value is not None else None
        if type(value) is not cst.Call:
            continue
        name = last_name(dotted(value.func) or "")
        if not name[:1].isupper() or name in _PROTOCOL_ERRORS:
            continue
        for argument in value.args:
            for call in flow.origins(argument.value, ret.checked, ret.node)[0]:
                if call != id(value):
                    out.setdefault(call, name)
    return out


def _is_tool_error(call: cst.Call, aliases: AliasTable) -> bool:
    return aliases.resolve(call.func) in TOOL_ERROR_CLASSES or last_name(dotted(call.func) or "") == "ToolError"


def _excluded(call: CallFact, local: set[str], reads: dict[int, frozenset[str]]) -> frozenset[str]:
    """The exit conditions before `call` that read only values it passes as arguments, by
    position (slot: the index) or by keyword (slot: keyword_slot of the keyword). `reads` memoises the names each condition reads, shared by all calls of the function."""
    slots: dict[str, int | str] = {
        a.value.value: index
        for index, a in enumerate(a for a in call.node.args if a.keyword is None and not a.star)
        if type(a.value) is cst.Name
    }
    for a in call.node.args:  # `analyze(queries=queries)`: the slot named by the keyword
        if a.keyword is not None and type(a.value) is cst.Name:
            slots.setdefault(a.value.value, keyword_slot(a.keyword.value))
    if not slots:
        return frozenset()
    shapes = []
    for test in call.exits:
        names = reads.get(id(test))
        if names is None:
            names = reads[id(test)] = names_read(test)
        if not names.isdisjoint(slots):
            shapes.append(condition_shape(test, slots, local))
    return frozenset(shape for shape in shapes if shape is not None)


def text_flows(facts: FunctionFacts, flow: ValueFlow) -> list[TextFlow]:
    """Exception text stored in a foreign handler (or from a gathered exception), with the
    returns and raises that carry it."""
    sources: dict[int, TextFlow] = {}
    for stores in flow.stores.values():
        for store in stores:
            handler = store.handler
            if store.statement is None or id(store) in sources:
                continue
            found = None
            if handler is not None and handler.foreign:
                found = find_exception_text(store.value, handler, through_locals=False)
            if found is None and facts.gathered is not None:
                found = gathered_exception_text(store.value, store.conditions)
                handler = facts.gathered
            if found is not None and handler is not None:
                sources[id(store)] = TextFlow(store, handler, found, [])
    if not sources:
        return []
    sinks: list[tuple[ReturnFact | RaiseFact, cst.BaseExpression]] = [(r, r.node.value) for r in facts.returns if r.node.value is not None]
    sinks += [(r, r.node.exc) for r in facts.raises if r.node.exc is not None]
    order: dict[int, tuple[int, frozenset[int]]] | None = None
    for sink, value in sinks:
        for store in flow.origins(value, at=sink.node)[1]:
            text_flow = sources.get(id(store))
            if text_flow is None:
                continue
            if order is None:
                order = _statement_order(facts.node)
            if _runs_before(order, sink.node, store.statement):
                continue  # `return {"error": msg}` above the `except` that reassigns `msg`
            text_flow.sinks.append(sink)
    return [f for f in sources.values() if f.sinks]


def _statement_order(node: cst.FunctionDef) -> dict[int, tuple[int, frozenset[int]]]:
    """By id of each simple statement of the body: its place in source order and the loops
    around it. One walk, made only for functions that store exception text."""
    order: dict[int, tuple[int, frozenset[int]]] = {}
    stack: list[tuple[cst.CSTNode, frozenset[int]]] = [(node.body, frozenset())]
    while stack:
        current, loops = stack.pop()
        if isinstance(current, cst.BaseSmallStatement):
            order[id(current)] = (len(order), loops)
            continue
        if is_leaf(type(current)):
            continue
        if type(current) in (cst.For, cst.While):
            loops = loops | {id(current)}
        stack.extend((child, loops) for child in reversed(children(current)) if type(child) not in SCOPES)
    return order


def _runs_before(order: dict[int, tuple[int, frozenset[int]]], sink: cst.CSTNode, store: cst.CSTNode | None) -> bool:
    """The sink comes earlier in the body than the store, and no loop holds both: it never sees
    the stored value (a flow-insensitive name is reused: `error_msg = ...` in several branches)."""
    sink_place, store_place = order.get(id(sink)), order.get(id(store))
    if sink_place is None or store_place is None:
        return False
    return sink_place[0] < store_place[0] and not sink_place[1] & store_place[1]
