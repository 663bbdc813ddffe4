"""Which parameters a function returns the value of, as it is or transformed: itself, a copy,
an item or attribute of it, a dict merged from it (`{**saved, **args}`, `saved | args`,
`merged = dict(saved); merged.update(args)`).

Stricter than flow_steps.return_flow (any return that *reads* a parameter, through any call):
`return fetch(key)` reads `key` but returns what the service sent, not `key`. A caller parsing
`merge(args, saved)` parses what its own caller handed it (CallEdge.from_results).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted, unwrap_await

# Calls whose value is a copy of their arguments (a dict or list built from them).
_COPIES = frozenset({"dict", "list", "copy", "copy.copy", "copy.deepcopy", "deepcopy"})
# Methods of a local that merge their arguments into it.
_MERGING = frozenset({"update", "setdefault"})
# How many locals assigned once a return is followed back through.
_LOCAL_DEPTH = 3


def derived_params(facts: FunctionFacts) -> tuple[int, ...]:
    """The positions of the parameters (`self` counted, never reported) some return value is
    the value of, as it is or transformed (see the module's docstring)."""
    wanted = {p for p in facts.params if p not in {"self", "cls"}}
    if not wanted:
        return ()
    found: set[str] = set()
    for ret in facts.returns:
        value = ret.node.value
        if value is not None:
            found |= _roots(value, facts, _LOCAL_DEPTH) & wanted
    return tuple(i for i, p in enumerate(facts.params) if p in found)


def _roots(value: cst.BaseExpression, facts: FunctionFacts, depth: int) -> set[str]:
    """The names `value` is the value of, transformed (parameters, or locals not followed)."""
    value = unwrap_await(value)
    kind = type(value)
    if kind is cst.Name:
        held = facts.single_assignments.get(value.value)
        if held is None or depth <= 0 or value.value in facts.params:
            return {value.value}
        return _roots(held, facts, depth - 1) | _merged_into(value.value, facts, depth - 1)
    if kind in (cst.Subscript, cst.Attribute):
        return _roots(value.value, facts, depth)
    if kind is cst.BooleanOperation:
        return _roots(value.left, facts, depth) | _roots(value.right, facts, depth)
    if kind is cst.BinaryOperation and type(value.operator) is cst.BitOr:
        return _roots(value.left, facts, depth) | _roots(value.right, facts, depth)
    if kind is cst.Dict:
        # `{**saved, **args}`: the splatted mappings (an item written out is the author's key).
        return {name for e in value.elements if type(e) is cst.StarredDictElement for name in _roots(e.value, facts, depth)}
    if kind is cst.Call:
        if dotted(value.func) in _COPIES:
            return {name for a in value.args if not a.keyword for name in _roots(a.value, facts, depth)}
        if type(value.func) is cst.Attribute:
            return _roots(value.func.value, facts, depth)  # `args.copy()`, `args.get("spec")`
    return set()


def _merged_into(local: str, facts: FunctionFacts, depth: int) -> set[str]:
    """What calls of `local.update(x)` / `local.setdefault(k, x)` merge into the local."""
    out: set[str] = set()
    for call in facts.calls:
        func = call.node.func
        if type(func) is cst.Attribute and func.attr.value in _MERGING and type(func.value) is cst.Name and func.value.value == local:
            out |= {name for a in call.node.args if not a.keyword for name in _roots(a.value, facts, depth)}
    return out
