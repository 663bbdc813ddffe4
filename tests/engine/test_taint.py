"""The engine's taint trace (model/taint.py): a rule declares its sources, sanitizers and
propagators; the engine follows a value to them through locals, f-strings, `%`, `+`, helpers of
the module, constants, class attributes and callers. The declaration here is made up (a
"colour" read from a palette call), so that what is tested is the engine, not a rule."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.module_walk import build_model
from mcp_lint.model.taint import ARGUMENT, CLEAN, VALUE, Carries, Taint, TaintRules, TaintTrace, TraceScope, Verdict, module_values
from mcp_lint.model.names import dotted


class Colours(TaintRules):
    """Source: `palette()`; sanitizer: `grey(x)`; propagator: `blend(a, b)` (ONLY its arguments:
    any other library call's answer is opaque)."""

    def call(self, trace: TaintTrace, expr: cst.Call, resolved: str) -> Verdict:
        name = dotted(expr.func)
        if name == "palette":
            return Taint("a colour", expr)
        if name == "grey":
            return CLEAN
        if name == "blend":
            return Carries()
        return None


def trace_return(source: str, function: str = "pkg.mod.send", rules: TaintRules | None = None) -> Taint | None:
    module = cst.parse_module(textwrap.dedent(source))
    model = build_model(module, "pkg.mod", False)
    scope = TraceScope(model, module_values(module), lambda call: dotted(call.func) in model.functions or f"pkg.mod.{dotted(call.func)}" in model.functions, lambda qual: False)
    fn: FunctionFacts = model.functions[function]
    trace = TaintTrace(rules or Colours(), fn, scope, from_callers=True)
    ret = fn.returns[-1]
    trace.at = ret.node
    return trace.find(ret.node.value)


def test_a_source_through_locals_fstrings_percent_and_concatenation() -> None:
    found = trace_return(
        """
        def send():
            shade = palette()
            text = "colour: %s" % shade
            message = f"[{text}]" + "."
            return message
        """
    )
    assert found is not None and found.what == "a colour" and found.via == ("message", "text", "shade")


def test_a_declared_sanitizer_stops_the_value_and_an_undeclared_call_is_opaque() -> None:
    assert trace_return("def send():\n    return f'{grey(palette())}'\n") is None
    assert trace_return("def send():\n    return f'{mix(palette())}'\n") is None  # a library's answer
    assert trace_return("def send():\n    return f'{blend(palette(), 2)}'\n") is not None  # declared propagator


def test_a_local_replaced_before_the_read_carries_nothing() -> None:
    source = """
        def send(flag):
            shade = palette()
            shade = "plain"
            return shade
        """
    assert trace_return(source) is None


def test_a_helper_of_the_module_returns_what_it_is_bound() -> None:
    source = """
        def describe(value):
            return f"value {value}"

        def send():
            return describe(palette())
        """
    found = trace_return(source)
    assert found is not None and found.via == ("describe()", "value")
    assert trace_return(source.replace("describe(palette())", "describe('red')")) is None


def test_a_parameter_is_followed_to_the_modules_callers_and_else_left_pending() -> None:
    found = trace_return(
        """
        def send(shade):
            return f"bad {shade}"

        def caller():
            return send(palette())
        """
    )
    assert found is not None and found.caller == "caller" and found.pending is None
    pending = trace_return("def send(shade):\n    return f'bad {shade}'\n")
    assert pending is not None and pending.pending is not None
    assert (pending.pending.qualname, pending.pending.kind, pending.pending.parameter) == ("pkg.mod.send", ARGUMENT, "shade")


def test_module_constants_and_class_attributes_are_followed() -> None:
    assert trace_return("SHADE = palette()\n\ndef send():\n    return f'{SHADE}'\n") is not None
    found = trace_return(
        """
        class Painter:
            def __init__(self):
                self.shade = palette()

            def send(self):
                return f"painted {self.shade}"
        """,
        "pkg.mod.Painter.send",
    )
    assert found is not None and found.via == ("self.shade",)


def test_an_imported_name_is_pending_on_its_module() -> None:
    found = trace_return("from pkg.config import SHADE\n\ndef send():\n    return f'{SHADE}'\n")
    assert found is not None and found.pending is not None
    assert (found.pending.qualname, found.pending.kind) == ("pkg.config.SHADE", VALUE)


def test_the_message_words_are_no_source_but_a_stored_literal_is() -> None:
    class Literals(TaintRules):
        def literal(self, trace: TaintTrace, expr: cst.BaseExpression) -> Taint | None:
            return Taint("a literal", expr)

    assert trace_return("def send():\n    return 'the words'\n", rules=Literals()) is None
    assert trace_return("def send():\n    x = 'stored'\n    return x\n", rules=Literals()) is not None


def test_an_attribute_the_function_stores_on_a_local_object_is_followed() -> None:
    source = """
        def send():
            outcome = Outcome()
            outcome.detail = palette()
            return f"failed: {outcome.detail}"
        """
    found = trace_return(source)
    assert found is not None and found.via == ("outcome.detail",)
    assert trace_return(source.replace("outcome.detail = palette()", "outcome.detail = 'none'")) is None


def test_an_item_taken_from_a_dict_is_only_that_item() -> None:
    local = """
        def send():
            info = {"name": "inbox", "where": palette()}
            return f"no list {info['name']}"
        """
    assert trace_return(local) is None
    assert trace_return(local.replace("info['name']", "info['where']")) is not None
    assert trace_return(local.replace("info['name']", "info")) is not None  # the whole dict
    helper = """
        def describe():
            return {"name": "inbox", "where": palette()}

        def send():
            return f"no list {describe()['name']}"
        """
    assert trace_return(helper) is None
    assert trace_return(helper.replace("['name']", "['where']")) is not None
    slots = """
        def send():
            info = {}
            info["name"] = "inbox"
            info["where"] = palette()
            return f"no list {info['name']}"
        """
    assert trace_return(slots) is None
    assert trace_return(slots.replace("info['name']", "info['where']")) is not None


# -- the engine's one expression reader (flow.carried_parts, built_text_parts, ValueFlow.reaching)


def test_text_built_by_format_or_join_carries_its_parts_without_a_declaration() -> None:
    # `Colours` declares neither `format` nor `join`: the engine reads text-building methods.
    assert trace_return("def send():\n    return 'shade {}'.format(palette())\n") is not None
    joined = """
        def send():
            parts = ["shades:"]
            parts.append(palette())
            return ", ".join(parts)
        """
    found = trace_return(joined)
    assert found is not None and found.via == ("parts",)
    # Silent: what is formatted or joined carries nothing (a sanitizer's result, the author's words).
    assert trace_return("def send():\n    return 'shade {}'.format(grey(palette()))\n") is None
    assert trace_return(joined.replace("parts.append(palette())", "parts.append('red')")) is None
    # Any other method of a library's answer stays opaque.
    assert trace_return("def send():\n    return 'shade {}'.split(palette())\n") is None


def test_a_dict_key_is_part_of_the_value_the_same_for_the_value_flow() -> None:
    source = """
        def send():
            return {palette(): "unavailable"}
        """
    assert trace_return(source) is not None
    assert trace_return(source.replace("palette()", "'red'")) is None
    # The value flow (MCP002/MCP005) reads the same parts: the key's call is carried.
    module = cst.parse_module(textwrap.dedent(source))
    fn = build_model(module, "pkg.mod", False).functions["pkg.mod.send"]
    assert fn.value_flow is not None
    value = fn.returns[0].node.value
    calls, _ = fn.value_flow.origins(value)
    key = value.elements[0].key  # type: ignore[union-attr]
    assert id(key) in calls



@pytest.mark.parametrize(
    "returned",
    [
        "[f'<{c}>' for c in palette()]",
        "{c: 1 for c in blend(palette(), 2)}",
        "', '.join(blend(c, 1) for row in palette() for c in row)",
        "{f'{n}' for n, c in enumerate(palette())}" ,
    ],
)
def test_a_comprehension_carries_its_elements_whose_names_hold_items_of_what_it_iterates(returned: str) -> None:
    source = f"def send():\n    return {returned}\n"
    if "enumerate" in returned:
        # `enumerate` is no declared propagator: its answer is opaque, as any library call's.
        assert trace_return(source) is None
        return
    found = trace_return(source)
    assert found is not None and found.what == "a colour"
    # The value flow (MCP002/MCP005) reads the same elements (flow.carried_parts): the call a
    # comprehension iterates is among what the returned value is made of.
    module = cst.parse_module(textwrap.dedent(source))
    fn = build_model(module, "pkg.mod", False).functions["pkg.mod.send"]
    assert fn.value_flow is not None
    calls, _ = fn.value_flow.origins(fn.returns[0].node.value)
    assert any(isinstance(node, cst.Call) and dotted(node.func) == "palette" for node in _calls_in(fn.returns[0].node.value) if id(node) in calls)


def test_a_comprehension_over_a_source_whose_elements_do_not_read_its_names_carries_nothing() -> None:
    assert trace_return("def send():\n    return [grey(c) for c in palette()]\n") is None
    assert trace_return("def send():\n    return ['x' for c in palette()]\n") is None
    # A name the comprehension binds shadows the function's local of that name.
    assert trace_return("def send():\n    c = palette()\n    return [c for c in ('a', 'b')]\n") is None


def _calls_in(node: cst.CSTNode) -> list[cst.Call]:
    from mcp_lint.model.walk import descendants

    return [n for n in descendants(node) if isinstance(n, cst.Call)]

RAISING = """
class Stop(Exception):
    pass

def send(flag):
    shade = "plain"
    if flag:
        shade = palette()
        raise Stop("stopped")
    return shade
"""


def test_reaching_stores_are_read_on_the_value_flows_graph_before_and_after_its_release() -> None:
    # The colour is stored on a path that raises: it does not reach the return, on the graph
    # the value flow places the stores on, and still once the value flow is released (after
    # the function's rules ran: module records and link time ask then).
    for release in (False, True):
        module = cst.parse_module(RAISING)
        model = build_model(module, "pkg.mod", False)
        fn = model.functions["pkg.mod.send"]
        if release:
            fn.release_value_flow()
            assert fn.value_flow is None
        scope = TraceScope(model, module_values(module), lambda call: False, lambda qual: False)
        trace = TaintTrace(Colours(), fn, scope)
        trace.at = fn.returns[-1].node
        assert trace.find(fn.returns[-1].node.value) is None, release
    # Flagged when that path goes on to the return.
    assert trace_return(RAISING.replace('        raise Stop("stopped")\n', "")) is not None


def test_one_value_flow_graph_serves_the_value_flow_and_the_trace() -> None:
    module = cst.parse_module(RAISING)
    fn = build_model(module, "pkg.mod", False).functions["pkg.mod.send"]
    assert fn.value_flow is not None
    ret = fn.returns[-1].node
    reaching = fn.stores_reaching("shade", ret)
    assert [store.value for store in reaching] == [store.value for store in fn.value_flow.reaching("shade", ret)]
    assert [literal for store in reaching if (literal := getattr(store.value, "value", None))] == ['"plain"']
    built = fn.value_flow.built_order()
    assert built is not None  # the trace's question built the value flow's own placement
    fn.release_value_flow()
    assert fn.stores_reaching("shade", ret) == reaching and fn._reaching is built
