"""Per-function facts, read by every rule: what a function returns, raises and calls, and inside
which `except` clause.

Rules never walk the CST themselves for these common questions; they read these records. The
walk that fills them is `function_body.collect_facts`; the `except` clause records they point to
are in `exception_guards`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from mcp_lint.engine.held import HeldOutcomes
from mcp_lint.engine.libcst_cfg import ClassBases
from mcp_lint.model.exception_guards import Handler, TryGuard, catches
from mcp_lint.model.flow import Store, StoreOrder, ValueFlow
from mcp_lint.model.names import dotted


@dataclass
class ReturnFact:
    node: cst.Return
    handler: Handler | None
    conditions: tuple[cst.BaseExpression, ...]  # tests of enclosing `if`s (innermost last)
    # Locals an earlier `if` checked for failure and left by a raise (`if not r["ok"]: raise ...`):
    # what this return sends of them is their success value.
    checked: frozenset[str] = frozenset()


@dataclass
class RaiseFact:
    node: cst.Raise
    handler: Handler | None
    conditions: tuple[cst.BaseExpression, ...]
    in_else_of: tuple[cst.If, ...] = ()
    guarded: frozenset[TryGuard] = frozenset()  # as CallFact.guarded: caught again in this function
    # The context managers of the `with` statements around it (`with reported_to_model():`), as
    # written: one of the project's may turn the exception into another on its way out.
    managers: tuple[cst.BaseExpression, ...] = ()

    def caught_here(self, raised: str) -> bool:
        """Is an exception of class `raised` (short name) caught by a `try` around this raise?"""
        return any(catches(guard, raised) for guard in self.guarded)


@dataclass
class CallFact:
    node: cst.Call
    handler: Handler | None
    returned: bool
    callee: str | None  # resolved qualified name (imports), or module-local qualified name
    # The `try` statements around the call (see TryGuard), innermost last.
    guarded: frozenset[TryGuard] = frozenset()
    # In a low-level dispatcher: the tool name of the `if name == "div":` branch it is in.
    branch: str | None = None
    # The statement line (or `with`/`for`/`while`/`match` header) it is in, so a rule can take
    # a body statement by statement without walking the expressions again.
    statement: cst.CSTNode | None = None
    # The call's value flows into what the function returns, through any expression built from
    # it and any number of locals (`r = helper(); return json.dumps(r, indent=2)`).
    flows: bool = False
    # At least a part of it does (`return f"Failed: {r['error']}"`): text in it reaches the model.
    feeds: bool = False
    # A part of it is in what the function raises (`raise ToolError(describe(e))`): that reaches
    # the model however the function's own value is used.
    raised: bool = False
    # Only these items of it are (`r["data"]`, `r.get("data")`, `r.data`); None: any or all.
    selects: frozenset[str] | None = None
    # The item of the returned literal that holds its value whole (`return text(), ""` -> "#0",
    # `return {"rows": rows()}` -> "rows"): a caller taking that item takes the value whole.
    slot: str | None = None
    # Conditions the function already left on before this call (`if not os.path.exists(path):
    # return ...`), in terms of the call's positional arguments (see condition_shape): a
    # helper's branch on the same condition of the same argument is never taken from here.
    excludes: frozenset[str] = frozenset()
    exits: tuple[cst.BaseExpression, ...] = ()  # those conditions as written
    # `return format_text_response(result)` after `result = helper()`: the project function whose
    # first argument carries this call's value whole, in a returned call (its callee name). The
    # linker follows the value through it when that function returns its argument as it is.
    wrapped_by: str | None = None
    # Text of its value is in the message of a plain exception this function raises and does not
    # catch (`raise ValueError(json.dumps(result))`): the class's short name, or "". It reaches
    # the model where the framework forwards exception text (returned_values._raised).
    raised_text: str = ""
    # `return load(key).to_text()`, `r = load(key); return r.to_text()`: the name of the method
    # called on this call's value as it is, whose own value the function returns whole (the
    # linker follows the value through that method when the method returns what its object holds).
    receiver_of: str = ""
    # Text of its value is in the message of an exception object this function returns (`return
    # AuthError(describe(exc))` in a factory): the class's short name, or "". Where the callers
    # raise that object (`raise self._map_error(exc)`), it is raised text (tracing.mark_raised_text).
    returned_in: str = ""


@dataclass
class TextFlow:
    """A caught exception's text stored in a local (the source, where the text is built) and the
    returns/raises that send that local on, in the order the function is written."""

    source: Store
    handler: Handler  # the clause that caught the exception (or FunctionFacts.gathered)
    found: cst.CSTNode  # the exception text inside the stored value
    sinks: list[ReturnFact | RaiseFact]


@dataclass
class CallbackFact:
    """A function passed to a call rather than called: `asyncio.to_thread(fetch, url)`,
    `loop.run_in_executor(None, work)`, `_call_api(client.get_me)`. The callee runs it, so it is
    reached from here; its value is this function's when the call's value is returned."""

    callee: str
    call: CallFact


# The callee prefix of calls on the lifespan context (`LIFESPAN + ".db.query"`).
LIFESPAN = "<lifespan>"


@dataclass
class DynamicCall:
    """A call through a table of functions: `HANDLERS[name](args)`, `HANDLERS.get(name)(args)`,
    `handler = registry.get(name); await handler(args)`, `to_thread(registry[name], ...)`, or
    `getattr(self, f"_tool_{name}")(args)`. `table` is the table's qualified name, a function's
    key + "()" for a table a function returned, "" when not known; `prefix` is set for getattr on
    self (the methods whose names start with it)."""

    table: str
    call: CallFact
    prefix: str | None = None


@dataclass
class FunctionFacts:
    node: cst.FunctionDef
    qualname: str
    name: str
    class_name: str | None
    params: tuple[str, ...]
    returns: list[ReturnFact] = field(default_factory=list)
    raises: list[RaiseFact] = field(default_factory=list)
    calls: list[CallFact] = field(default_factory=list)
    handlers: list[Handler] = field(default_factory=list)
    # Assigns to `x[k]` or `x.attr` somewhere (possible module-state writes).
    has_item_assignment: bool = False
    # `self.client = Api(...)`: attribute name -> the call's callee, so `self.client.get()` resolves.
    self_instances: dict[str, str] = field(default_factory=dict)
    # `global conn; conn = store` (store made here, or taken out of a collection): module name ->
    # what made the object, `<collection>.[]` for an element (FunctionBody._remember_global).
    global_instances: dict[str, str] = field(default_factory=dict)
    # Local names assigned exactly once (`msg = f"..."`), so rules can read `return msg`.
    single_assignments: dict[str, cst.BaseExpression] = field(default_factory=dict)
    # Locals that only ever hold a part of one parameter (`raw = args["when"]`, `for lead in
    # leads`): local -> that parameter. A parser's error about them describes what the caller passed.
    parameter_items: dict[str, str] = field(default_factory=dict)
    # A local assigned on several branches, read by a return (or a raised message) right after
    # one of them (`error_msg = "..."; return error_msg` in each `if`): by id of the Name read,
    # the value of the assignment that reaches it (function_body._BodyWalker._reaching).
    reaching_values: dict[int, cst.BaseExpression] = field(default_factory=dict)
    # The same where that assignment is followed by `+=` lines (`summary = "Failed to convert
    # ..."; summary += "; ".join(errors)`): the value the returned text starts with.
    reaching_prefixes: dict[int, cst.BaseExpression] = field(default_factory=dict)
    # A local assigned on several paths, all of which reach one return (`result = "Error: ..."`
    # in one branch, `result = json.dumps(row)` in the other; `return result`): by id of the Name
    # returned, the stores that reach it, in the order the function is written
    # (function_body._branch_values, on the control-flow graph).
    branch_values: dict[int, tuple[Store, ...]] = field(default_factory=dict)
    # The stores placed on the function's control-flow graph, when the value flow needed it.
    flow_order: StoreOrder | None = None
    # The function's value flow (what its returns and raises read through its locals): rules
    # ask it for the statements a flow goes through (flow_steps). None once its rules have run.
    value_flow: ValueFlow | None = None
    # Every value put into a local or an attribute chain (flow.Store), by what it is stored in:
    # what a rule that follows a value from where it is read asks `stores_reaching` about.
    stores: dict[str, list[Store]] = field(default_factory=dict)
    # The stores placed on the control-flow graph for `stores_reaching`: the value flow's own
    # (one graph per function, whoever asks first), kept when the value flow is released, with
    # the module's exception classes it was built with (a shadowed `except` clause is dead).
    _reaching: StoreOrder | None = field(default=None, repr=False, compare=False)
    _class_bases: ClassBases | None = field(default=None, repr=False, compare=False)
    # The branch outcomes that hold at each statement of that graph (held_branches), on first question.
    _held: HeldOutcomes | None = field(default=None, repr=False, compare=False)
    # Exception text stored in locals and containers, then returned or raised.
    text_flows: list[TextFlow] = field(default_factory=list)
    # Parameters and every local the function assigns (a condition over them is its own state).
    local_names: frozenset[str] = frozenset()
    # `asyncio.gather(..., return_exceptions=True)` runs here: results tested with
    # `isinstance(r, Exception)` are caught exceptions, from code the author does not control.
    gathered: Handler | None = None
    # What local names hold, as the qualified class (or the function whose result) they came
    # from: typed parameters, `x = Api()`, `with make() as x`. Nested functions see them too.
    local_types: dict[str, str] = field(default_factory=dict)
    # Collections of objects this function fills (model/elements.py), by qualified name
    # (`pkg.app.Server.tools` for `self.tools = [Search()]`, `pkg.app.main.tools` for a local):
    # what made their objects. Locals holding one, by name -> that qualified name; nested
    # functions see them too.
    collections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    local_collections: dict[str, str] = field(default_factory=dict)
    # Collections filled with a parameter (`self.tools[t.name] = t`): key -> (function, parameter).
    collection_params: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # The class its return annotation names (`def get_client() -> Api`), for `get_client().get()`.
    returns_type: str | None = None
    # Without one: the modules or classes its returns hand back (`from . import local as store;
    # return store`, `return Remote(url)`), each a thing `pick().read()` may run the `read` of.
    returned_objects: tuple[str, ...] = ()
    callbacks: list[CallbackFact] = field(default_factory=list)
    dynamic_calls: list[DynamicCall] = field(default_factory=list)
    # The context managers of every `with` in the body, as written (`with reported_to_model():`).
    managers: list[cst.BaseExpression] = field(default_factory=list)
    # Some return carries its first argument whole (`def format_text_response(text): return
    # [TextContent(type="text", text=str(text))]`): a result formatter.
    returns_argument: bool = False
    # Decorators that wrap it (`@handle_errors` under `@mcp.tool`), as the callee names they resolve to.
    wrappers: list[str] = field(default_factory=list)

    def stores_reaching(self, key: str, at: cst.CSTNode | None) -> list[Store]:
        """The stores of `key` (a local, or an attribute chain) whose value a read of it in the
        statement `at` may see: reaching definitions on the function's control-flow graph;
        every store of it when `at` is None or not a statement of the graph."""
        stores = self.stores.get(key, [])
        if at is None or len(stores) < 2:
            return list(stores)
        if self.value_flow is not None:
            return self.value_flow.reaching(key, at)
        if self._reaching is None:
            self._reaching = StoreOrder(self.node, self.stores, self._class_bases)
        return [store for store in stores if self._reaching.reaches(store, at)]

    def held_branches(self, at: cst.CSTNode) -> tuple[tuple[cst.If, bool], ...]:
        """The `if` statements whose outcome (True: its body, False: past it) holds on every path
        to the statement `at`, innermost first (engine.held on the function's control-flow graph:
        `if not ok: return x` and `if ok: return data` / `return x` both put `x` under `ok`
        being false); none when `at` is not a statement of the graph."""
        if self._held is None:
            order = self.value_flow.order() if self.value_flow is not None else self._reaching
            if order is None:
                order = self._reaching = StoreOrder(self.node, self.stores, self._class_bases)
            self._held = HeldOutcomes(order.graph)
        node = self._held.graph.node_of(at)
        if node is None:
            return ()
        return tuple((branch.syntax, outcome) for branch, outcome in self._held.at(node) if type(branch.syntax) is cst.If)

    def release_value_flow(self) -> None:
        """Drop the value flow once the function's rules have run (it refers back to the model,
        a cycle that would keep the tree alive), keeping the graph it placed the stores on for
        later questions (module records, link time)."""
        flow = self.value_flow
        if flow is not None:
            self._reaching = flow.built_order()
            self._class_bases = flow.class_bases
        self.value_flow = None

    def value_of(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """`expr`, or the value of the local it names when that local is assigned once (or, when
        it is assigned on several branches, the assignment of this branch that reaches `expr`)."""
        if type(expr) is cst.Name:
            if expr.value in self.single_assignments:
                return self.single_assignments[expr.value]
            return self.reaching_values.get(id(expr), expr)
        return expr


def branch_name(conditions: list[cst.BaseExpression]) -> str | None:
    """"div" for a call under `if name == "div":` / `elif params.name == "div":` (innermost wins)."""
    for condition in reversed(conditions):
        if type(condition) is cst.Comparison and len(condition.comparisons) == 1:
            target = condition.comparisons[0]
            left = dotted(condition.left) or ""
            if (
                type(target.operator) is cst.Equal
                and type(target.comparator) is cst.SimpleString
                and left.split(".")[-1] in {"name", "tool_name", "tool"}
            ):
                value = target.comparator.evaluated_value
                return value if isinstance(value, str) else None
    return None
