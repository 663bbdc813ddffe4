"""The engine's taint trace (model/taint.py): a rule declares its sources, sanitizers and
propagators; the engine follows a value to them through locals, f-strings, `%`, `+`, helpers of
the module, constants, class attributes and callers. The declaration here is made up (a
"colour" read from a palette call), so that what is tested is the engine, not a rule."""

from __future__ import annotations

import textwrap

import libcst as cst

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
