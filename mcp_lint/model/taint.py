"""A value traced back to where it enters: the engine's taint query for rules that look for a kind
of value in what a function sends (a secret in a failure text, a detail of the server).

A rule declares what it looks for as a `TaintRules`: its sources (literals, names, attributes,
items, calls that ARE such a value), its sanitizers (calls and attributes whose result keeps
nothing of the value) and its propagators (calls whose result carries their inputs). The engine
does the following, the same way for every rule:

- the parts of an expression: f-strings, implicit concatenation, `+`, `%`, containers, `a or b`,
  conditional expressions, awaits;
- a local, read at a statement, into the stores of it that reach that statement on the
  function's control-flow graph (reaching definitions: `FunctionFacts.stores_reaching`),
  each value read where it was stored;
- a parameter into what the call being followed binds there, or, for the traced function
  itself, into what the module's callers pass (one level up); a nested function's free variable
  into the enclosing function that binds it;
- a module constant into its value; `self.attr` into the values the class stores there;
- a call of a function of the module into what that function returns, its parameters bound to
  the call's arguments;
- a name of another module into a `Pending` record (typed): decided at link time from what that
  module recorded, by the rule that declared the trace.

A literal is a source only where it is stored (a value the server uses), never in the message's
own words: literals read at the depth of the traced expression itself are the author's text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Union

import libcst as cst

from mcp_lint.model.facts import CallFact, FunctionFacts
from mcp_lint.model.flow import built_text_parts, carried_parts, comprehension_sources, held_value
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.names import dotted
from mcp_lint.model.walk import descendants

MAX_DEPTH = 6

# What a pending name must be in its module for the traced value to be a source there.
VALUE = "value"  # the name's value (a constant, what a function returns), or an item of it
PASSES = "passes"  # a function of another module that returns what it is given at `parameter`
ARGUMENT = "argument"  # a parameter of the traced function: what callers in other modules pass there


@dataclass(frozen=True)
class Pending:
    """A name of another module that the traced value is or is read from (`from .config import
    DATA_DIR`, `describe(...)` imported, a parameter whose callers live elsewhere). Picklable: it
    travels in latents and records."""

    qualname: str  # "pkg.config.DATA_DIR", "pkg.errors.describe", the traced function for ARGUMENT
    kind: str  # VALUE, PASSES, ARGUMENT, or a kind of the declaring rule's own
    item: str = ""  # VALUE: an item of what the function returns (`get_config()["api_url"]`)
    parameter: str = ""  # PASSES: the argument's place ("0", "target"); ARGUMENT: the parameter


@dataclass(frozen=True)
class Taint:
    """A source found in a value: what it is (the rule's words), where it enters (`origin`), the
    locals and parameters it went through (innermost first), the function of the module that
    read it when not the traced one (`caller`), and the rule's tags. A pending taint (`pending`)
    is decided at link time; `others` are further pending taints of the same value, tried in
    turn when this one's name turns out to carry nothing."""

    what: str
    origin: cst.CSTNode
    via: tuple[str, ...] = ()
    caller: str = ""
    pending: Pending | None = None
    tags: frozenset[str] = frozenset()
    others: tuple["Taint", ...] = ()

    def through(self, name: str, caller: str = "") -> "Taint":
        """The taint as read through the local, parameter or call `name` (and, for a parameter,
        in the caller `caller`), its other pending taints too."""
        return replace(
            self,
            via=(name, *self.via),
            caller=caller or self.caller,
            others=tuple(other.through(name, caller) for other in self.others),
        )


@dataclass(frozen=True)
class TaintExport:
    """A record of a module (picklable, kept in its summary under the declaring rule's code): a
    name of the module, as the pending taints of other modules ask for it (`key`), whose value
    carries the rule's source (kind VALUE: a constant, what a function returns or an item of it),
    or that is what a pending taint of another kind needs it to be (PASSES: a function returning
    what it is given there; a kind of the rule's own), which only confirms that taint."""

    key: Pending  # qualified: Pending("pkg.config.DATA_DIR", VALUE), Pending("pkg.f", PASSES, parameter="0")
    what: str = ""  # "" when the value comes from yet another module (`pending`)
    origin: str = ""  # the code that reads it
    origin_at: str = ""  # where ("row:col:end_row:end_col")
    via: tuple[str, ...] = ()  # as Taint.via (the name nearest the export first)
    function: str = ""  # the function reading it, "" for a constant
    pending: Pending | None = None
    tags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TaintArgument:
    """A record of a module (picklable): a call of a function of another module of the project
    that passes it a value carrying the rule's source, for that function's pending taint on its
    parameter (kind ARGUMENT: `fail(settings.db_url)` with `def fail(target): raise ...`)."""

    callee: str  # as the call names it, qualified (CallFact.callee)
    position: int  # -1 when passed by keyword
    keyword: str
    via_attribute: bool  # `obj.fail(...)`: the callee's `self` is not among the arguments
    what: str
    origin: str
    origin_at: str
    via: tuple[str, ...]
    function: str  # the calling function
    pending: Pending | None = None  # the value is a name of yet another module
    tags: frozenset[str] = frozenset()
    caller: str = ""  # the calling function, qualified


def first_found(found: Iterable[Taint | None]) -> Taint | None:
    """The first taint found, or, when every one is pending on another module, the first of those
    with the others kept (tried in turn at link time)."""
    pending: list[Taint] = []
    for taint in found:
        if taint is None:
            continue
        if taint.pending is None:
            return taint
        pending.extend((replace(taint, others=()), *taint.others))
    if not pending:
        return None
    return replace(pending[0], others=tuple(pending[1:]))


class Clean:
    """A rule's verdict that a value carries nothing it looks for (a sanitizer's result)."""


CLEAN = Clean()


@dataclass(frozen=True)
class Carries:
    """A rule's verdict on a call: its result carries these of its inputs (a propagator): its
    arguments after the first `skip` (`os.getenv(name, default)` carries its default), and
    its receiver (`text.strip()`)."""

    arguments: bool = True
    receiver: bool = False
    skip: int = 0


# What a rule's hook answers: a source, CLEAN (a sanitizer), Carries (a propagator), or None
# (the engine's own following applies).
Verdict = Union[Taint, Clean, Carries, None]  # evaluated at import: no `|` (Python 3.9)


class TaintRules:
    """What a rule looks for, as declarations the engine asks while it follows a value. Every
    question has a neutral default: a rule overrides the ones it needs."""

    def literal(self, trace: "TaintTrace", expr: cst.BaseExpression) -> Taint | None:
        """A literal value the server stored (a connection string written in the code)."""
        return None

    def name(self, trace: "TaintTrace", expr: cst.Name) -> Taint | None:
        """A name that is a source whatever it holds (`__file__`)."""
        return None

    def named(self, trace: "TaintTrace", expr: cst.Name, values: list[cst.BaseExpression] | None) -> Taint | None:
        """A local, constant or imported name whose values told nothing (`values`: what it was
        given, None for an imported name): a source by what the name says, if the rule judges so."""
        return None

    def attribute(self, trace: "TaintTrace", expr: cst.Attribute) -> Verdict:
        return None

    def subscript(self, trace: "TaintTrace", expr: cst.Subscript, key: str | None) -> Verdict:
        """`key`: the item's key as written or named by a module constant, None when computed."""
        return None

    def call(self, trace: "TaintTrace", expr: cst.Call, resolved: str) -> Verdict:
        """`resolved`: the called name through the module's imports (`os.getenv`)."""
        return None

    def iterated(self, trace: "TaintTrace", expr: cst.BaseExpression) -> Verdict:
        """What an item of iterating `expr` holds, where it differs from `expr` itself (a
        mapping gives its keys); None: the item is read as `expr` is."""
        return None

    def is_input(self, fn: FunctionFacts, param: str) -> bool:
        """Is the parameter a value the function is given from outside the server (a tool's
        argument), whatever the module's callers pass? Its reads carry nothing."""
        return False


@dataclass
class ModuleValues:
    """What the trace reads of the module around functions: its constants (`NAME = value` at
    module level) and the values its classes store in `self.attr` (by "Class.attr")."""

    constants: dict[str, list[cst.BaseExpression]]
    attributes: dict[str, list[ClassStore]]


@dataclass(frozen=True)
class ClassStore:
    """`self.attr = value` in a method of a class: the value, the method's parameters, the
    method ("Class.method", "" outside a method) and the statement that stores it."""

    value: cst.BaseExpression
    params: frozenset[str]
    method: str
    statement: cst.CSTNode


def module_values(module: cst.Module) -> ModuleValues:
    constants: dict[str, list[cst.BaseExpression]] = {}
    attributes: dict[str, list[ClassStore]] = {}
    for statement in module.body:
        if type(statement) is cst.SimpleStatementLine:
            for small in statement.body:
                for name, value in _assigned(small):
                    constants.setdefault(name, []).append(value)
        elif type(statement) is cst.ClassDef:
            if _is_dataclass(statement):
                # `config: Config = field(default_factory=Config.load)`: what the constructor
                # puts in `self.config` unless given one.
                for field, default, small in _dataclass_defaults(statement):
                    attributes.setdefault(f"{statement.name.value}.{field}", []).append(ClassStore(default, frozenset(), "", small))
            for member in statement.body.body:
                params = _params(member) if type(member) is cst.FunctionDef else frozenset()
                method = f"{statement.name.value}.{member.name.value}" if type(member) is cst.FunctionDef else ""
                for node in descendants(member):
                    if type(node) not in (cst.Assign, cst.AnnAssign) or node.value is None:
                        continue
                    targets = [t.target for t in node.targets] if type(node) is cst.Assign else [node.target]
                    for target in targets:
                        if type(target) is cst.Attribute and dotted(target.value) == "self":
                            store = ClassStore(node.value, params, method, node)
                            attributes.setdefault(f"{statement.name.value}.{target.attr.value}", []).append(store)
    return ModuleValues(constants, attributes)


def _is_dataclass(node: cst.ClassDef) -> bool:
    return any((dotted(d.decorator.func if type(d.decorator) is cst.Call else d.decorator) or "").rsplit(".", 1)[-1] == "dataclass" for d in node.decorators)


def _dataclass_defaults(node: cst.ClassDef) -> Iterator[tuple[str, cst.BaseExpression, cst.AnnAssign]]:
    """The fields of a dataclass with a default, as written (`= value`, `= field(default=...)`,
    `= field(default_factory=...)`: read by the trace as that default or the factory's result)."""
    for member in node.body.body:
        if type(member) is cst.SimpleStatementLine:
            for small in member.body:
                if type(small) is cst.AnnAssign and small.value is not None and type(small.target) is cst.Name:
                    yield small.target.value, small.value, small


def field_default(call: cst.Call) -> tuple[str, cst.BaseExpression] | None:
    """("default", value) or ("factory", callable) of a dataclass `field(...)` call; None for any
    other call."""
    if (dotted(call.func) or "").rsplit(".", 1)[-1] != "field":
        return None
    for argument in call.args:
        if argument.keyword is not None and argument.keyword.value == "default":
            return "default", argument.value
        if argument.keyword is not None and argument.keyword.value == "default_factory":
            return "factory", argument.value
    return None


def _keyword_only(function: cst.FunctionDef) -> tuple[str, ...]:
    return tuple(p.name.value for p in function.params.kwonly_params)


def _params(function: cst.FunctionDef) -> frozenset[str]:
    ps = function.params
    return frozenset(p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params)) - {"self", "cls"}


def _assigned(small: cst.CSTNode) -> Iterator[tuple[str, cst.BaseExpression]]:
    if type(small) is cst.Assign:
        for target in small.targets:
            if type(target.target) is cst.Name:
                yield target.target.value, small.value
    elif type(small) is cst.AnnAssign and small.value is not None and type(small.target) is cst.Name:
        yield small.target.value, small.value
    elif type(small) is cst.AugAssign and type(small.target) is cst.Name:
        yield small.target.value, small.value


@dataclass
class TraceScope:
    """The module a trace runs in: its model, what it holds around functions, which calls are of
    the project's own functions, and the calls of each function of it by the others."""

    model: ModuleModel
    values: ModuleValues
    is_project_call: Callable[[cst.Call], bool]
    is_registered: Callable[[str], bool]  # a tool handler: its parameters are the model's arguments
    _callers: dict[str, list[tuple[FunctionFacts, CallFact]]] | None = None
    _module_calls: dict[str, list[cst.Call]] | None = None

    def callers(self, fn: FunctionFacts) -> list[tuple[FunctionFacts, CallFact]]:
        """The calls of `fn` in the functions of this module (resolved callee), with their caller;
        for a class's `__init__`, the calls that construct the class."""
        if self._callers is None:
            self._callers = {}
            for caller in self.model.functions.values():
                for call in caller.calls:
                    if call.callee:
                        self._callers.setdefault(call.callee, []).append((caller, call))
        found = self._callers.get(fn.qualname, [])
        if fn.name == "__init__" and fn.class_name:
            found = found + self._callers.get(fn.qualname.rsplit(".", 1)[0], [])
        return found

    def module_calls(self, fn: FunctionFacts) -> list[cst.Call]:
        """The calls of `fn` in the module's top-level assignments (`client = Client(url)`,
        `TEXT = describe(path)`): a constructor's by its class, a function's by its name."""
        if fn.name == "__init__" and fn.class_name:
            called = fn.qualname.rsplit(".", 1)[0]
        else:
            called = fn.qualname
        if called.rpartition(".")[0] != self.model.module:
            return []  # a nested class or function: no module-level call names it
        short = called.rpartition(".")[2]
        if self._module_calls is None:
            self._module_calls = {}
            for values in self.values.constants.values():
                for value in values:
                    for node in descendants(value):
                        if type(node) is cst.Call and type(node.func) is cst.Name:
                            self._module_calls.setdefault(node.func.value, []).append(node)
        return self._module_calls.get(short, [])


# What a parameter of a helper holds at one of its calls: the caller's argument, read by the
# caller's trace (`describe(os.environ["DB_URL"])` binds `conn_str` of `def describe(conn_str)`).
Bound = tuple["TaintTrace", cst.BaseExpression]


class TaintTrace:
    """Follows a value of one function (or of the module, `fn` None) back to the sources a rule
    declares. `at` is the statement the expression being traced is read in."""

    def __init__(
        self,
        rules: TaintRules,
        fn: FunctionFacts | None,
        scope: TraceScope,
        bindings: dict[str, Bound] | None = None,
        *,
        words_at: int = 0,
        active: frozenset[str] = frozenset(),
        from_callers: bool = False,
    ) -> None:
        self.rules = rules
        self.fn = fn
        self.scope = scope
        self.model = scope.model
        self.aliases = scope.model.aliases
        # The function's parameters (self/cls and keyword-only ones included); a request context
        # is not among them.
        self.params = frozenset(p for p in (*fn.params, *_keyword_only(fn.node)) if not _is_context(p, fn)) if fn is not None else frozenset()
        self.at: cst.CSTNode | None = None
        self.bindings = bindings or {}
        # Literals traced at this depth are the message's own words (a format example), deeper
        # ones values the server stored.
        self.words_at = words_at
        self.active = active | ({fn.qualname} if fn is not None else frozenset())
        self.from_callers = from_callers
        # The names of the comprehensions being traced, each with what its `for` iterates: such a
        # name holds an item of that (`flow.comprehension_sources`).
        self.comprehended: dict[str, cst.BaseExpression] = {}

    def module_trace(self) -> "TaintTrace":
        """A trace of the module's own values (constants, class attributes)."""
        return TaintTrace(self.rules, None, self.scope)

    # -- expressions ---------------------------------------------------------------------------

    def find(self, expr: cst.CSTNode, depth: int = 0, seen: frozenset[str] = frozenset()) -> Taint | None:
        if depth > MAX_DEPTH:
            return None
        kind = type(expr)
        stored = depth > self.words_at
        if kind is cst.SimpleString:
            return self.rules.literal(self, expr) if stored else None
        parts = carried_parts(expr)  # the engine's reading of a value built from others
        if parts is not None:
            if stored and _builds_text(expr):
                # `"No token at " f"'{path}'"`, `"%s://%s" % (...)`: the stored text as a whole
                # (a connection string written in pieces), then the values of its parts.
                found = self.rules.literal(self, expr)
                if found is not None:
                    return found
            sources = comprehension_sources(expr)
            if sources:
                # `", ".join(f"{k}={v}" for k, v in env.items())`: the elements, their names
                # read as items of what the comprehension iterates.
                outer = self.comprehended
                self.comprehended = {**outer, **sources}
                try:
                    return self.first(parts, depth, seen)
                finally:
                    self.comprehended = outer
            return self.first(parts, depth, seen)
        if kind is cst.Name:
            return self._name(expr, depth, seen)
        if kind is cst.Attribute:
            return self._attribute(expr, depth, seen)
        if kind is cst.Subscript:
            return self._subscript(expr, depth, seen)
        if kind is cst.Call:
            return self._call(expr, depth, seen)
        return None  # comparisons, `not`, lambdas, numbers: nothing of a value is carried

    def first(self, nodes: Iterable[cst.CSTNode], depth: int, seen: frozenset[str]) -> Taint | None:
        return first_found(self.find(node, depth, seen) for node in nodes)

    def _decided(self, verdict: Verdict, expr: cst.CSTNode, depth: int, seen: frozenset[str]) -> tuple[bool, Taint | None]:
        """(whether the rule decided, what it found) for a verdict of a hook."""
        if isinstance(verdict, Taint):
            return True, verdict
        if isinstance(verdict, Clean):
            return True, None
        if isinstance(verdict, Carries) and type(expr) is cst.Call:
            parts: list[cst.CSTNode] = [a.value for a in expr.args[verdict.skip :]] if verdict.arguments else []
            if verdict.receiver and type(expr.func) is cst.Attribute:
                parts.insert(0, expr.func.value)
            return True, self.first(parts, depth, seen)
        return False, None

    # -- names ---------------------------------------------------------------------------------

    def assigned(self, name: str) -> list[tuple[cst.BaseExpression, cst.CSTNode | None]] | None:
        """The values stored in local `name` that a read of it at `self.at` may see, each with
        the statement that stored it; None when the function stores nothing there."""
        if self.fn is None:
            return None
        stores = self.fn.stores_reaching(name, self.at)
        return [(held_value(store), store.statement) for store in stores] or None

    def _name(self, expr: cst.Name, depth: int, seen: frozenset[str]) -> Taint | None:
        name = expr.value
        if name in self.comprehended:
            return self._comprehended(name, depth, seen)
        found = self.rules.name(self, expr)
        if found is not None:
            return found
        if name in {"self", "cls"} or name in seen:
            return None
        values = self.assigned(name)
        if name in self.params:
            if values is not None:
                # `if base_dir is None: base_dir = os.getcwd()`: what the function puts there itself.
                found = self.first_of(values, name, depth, seen)
                if found is not None:
                    return found
            return self.parameter(name, depth, expr)
        scope = self
        if values is None:
            enclosing = self._enclosing_holder(name)
            if enclosing is not None:
                # A free variable of a nested function (`call_tool` reading `serve`'s parameter):
                # what the enclosing function holds there, or what its callers pass.
                found = enclosing._name(expr, depth + 1, seen)
                return found.through(name) if found is not None and name not in found.via else found
            constants = self.scope.values.constants.get(name)
            values = [(value, None) for value in constants] if constants is not None else None
            scope = self.module_trace() if self.fn is not None else self
        if values is None:
            return self.rules.named(self, expr, None) or self.imported(expr)  # `from .config import DATA_DIR`
        found = scope.first_of(values, name, depth, seen)
        if found is not None and found.pending is None:
            return found
        return scope.rules.named(scope, expr, [v for v, _ in values]) or found

    def _comprehended(self, name: str, depth: int, seen: frozenset[str]) -> Taint | None:
        """A name a comprehension binds: an item of what its `for` iterates, read with that
        clause's own names unbound (the iterable is read before they exist)."""
        outer = self.comprehended
        iterated = outer[name]
        self.comprehended = {k: v for k, v in outer.items() if v is not iterated}
        try:
            decided, found = self._decided(self.rules.iterated(self, iterated), iterated, depth + 1, seen)
            if not decided:
                found = self.find(iterated, depth + 1, seen)
        finally:
            self.comprehended = outer
        return found.through(name) if found is not None and name not in found.via else found

    def _enclosing_holder(self, name: str) -> "TaintTrace | None":
        """The trace of the innermost enclosing function that binds `name` (a parameter or a
        local), for a nested function reading it as a free variable; None when none does."""
        if self.fn is None:
            return None
        qualname = self.fn.qualname
        while "." in qualname:
            qualname = qualname.rsplit(".", 1)[0]
            outer = self.model.functions.get(qualname)
            if outer is None:
                return None  # a class or the module: not a function's scope
            if name in outer.params or name in outer.stores:
                return TaintTrace(self.rules, outer, self.scope, active=self.active, from_callers=True)
        return None

    def imported(self, expr: cst.BaseExpression, kind: str = VALUE, what: str = "", tags: frozenset[str] = frozenset()) -> Taint | None:
        """A pending taint on the name of another module `expr` reads (`DATA_DIR` imported,
        `describe(...)`, `settings` of `settings.data_dir`), None when it reads none."""
        target = expr.func if type(expr) is cst.Call else expr
        if type(target) not in (cst.Name, cst.Attribute):
            return None
        root = (dotted(target) or "").split(".")[0]
        if root not in self.aliases.aliases or root in self.params or root in {"self", "cls"}:
            return None
        if self.fn is not None and root in self.fn.stores:
            return None  # a local of the same name
        qualified = self.aliases.resolve(target)
        return Taint(what, expr, pending=Pending(qualified, kind), tags=tags) if qualified else None

    def words_only(self, value: cst.BaseExpression, depth: int = 0) -> bool:
        """A collection of the author's literals, directly or through a local or constant
        (`for token in ["{op}", "{path}"]`): a loop variable over it holds words of the code."""
        if type(value) in (cst.List, cst.Tuple, cst.Set):
            return bool(value.elements) and all(literal_text(e.value) is not None for e in value.elements)
        if type(value) is cst.Name and depth < 2:
            stored = self.assigned(value.value) or [(v, None) for v in self.scope.values.constants.get(value.value, [])]
            return bool(stored) and all(self.words_only(v, depth + 1) for v, _ in stored)
        return False

    def first_of(self, values: list[tuple[cst.BaseExpression, cst.CSTNode | None]], name: str, depth: int, seen: frozenset[str]) -> Taint | None:
        """The first taint of the values a name holds, each read where it was stored."""
        inner = seen | {name}
        return self.first_held(name, ((value, statement, lambda v: self.find(v, depth + 1, inner)) for value, statement in values))

    def first_held(self, name: str, held: Iterable[tuple[cst.BaseExpression, cst.CSTNode | None, Callable[[cst.BaseExpression], Taint | None]]]) -> Taint | None:
        """The first complete taint of the values `name` holds, each read by its reader at the
        statement that stored it (None: the module's own value); a taint pending on another
        module only when none is complete (the others kept, tried in turn at link time)."""
        outer = self.at
        pending: list[Taint] = []
        try:
            for value, statement, read in held:
                self.at = statement
                found = read(value)
                if found is not None and found.pending is None:
                    return found.through(name)
                if found is not None:
                    pending.append(found.through(name))
        finally:
            self.at = outer
        return first_found(pending)

    def parameter(self, name: str, depth: int, expr: cst.CSTNode | None = None) -> Taint | None:
        """A parameter: what the call being followed bound there, or, for the traced function
        itself, what the module's callers pass (pending on callers in other modules); an input
        of the server (a tool's argument) carries nothing."""
        bound = self.bindings.get(name)
        if bound is not None:
            trace, argument = bound
            found = trace.find(argument, depth + 1, frozenset())
            return found.through(name) if found is not None else None
        fn = self.fn
        if not self.from_callers or fn is None or self.scope.is_registered(fn.qualname) or self.rules.is_input(fn, name):
            return None
        pending: list[Taint] = []
        for caller, call in self.scope.callers(fn):
            argument = bound_arguments(fn, call.node).get(name)
            if argument is None:
                continue
            trace = TaintTrace(self.rules, caller, self.scope, active=self.active)
            trace.at = statement_of(call)
            found = trace.find(argument, depth + 1, frozenset())
            if found is not None and found.pending is None:
                return found.through(name, caller.name)
            if found is not None:
                pending.append(found.through(name, caller.name))
        for call in self.scope.module_calls(fn):
            argument = bound_arguments(fn, call).get(name)
            found = self.module_trace().find(argument, depth + 1, frozenset()) if argument is not None else None
            if found is not None and found.pending is None:
                return found.through(name)
            if found is not None:
                pending.append(found.through(name))
        found = first_found(pending)
        if found is None and expr is not None:
            # What callers in other modules pass there: decided from their records.
            found = Taint("", expr, via=(name,), pending=Pending(fn.qualname, ARGUMENT, parameter=name))
        return found

    def given_from(self, value: cst.CSTNode, depth: int = 0) -> frozenset[str]:
        """The parameters the value is built from: the function's own, through its locals, and
        those of the methods that fill the `self.attr` it reads (`self.tokens = tokenize(text)`
        in `__init__(self, text)`). A value built from what was given is what its flow says."""
        found: set[str] = set()
        if depth > 2:
            return frozenset()
        for node in descendants(value):
            if type(node) is cst.Name:
                if node.value in self.params and node.value not in {"self", "cls"}:
                    found.add(node.value)
                elif self.fn is not None and node.value in self.fn.stores:
                    for stored, _ in self.assigned(node.value) or ():
                        if stored is not value:
                            found |= self.given_from(stored, depth + 1)
            elif type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value in {"self", "cls"}:
                found |= self.class_given_from(node.attr.value, depth + 1)
        return frozenset(found)

    def class_given_from(self, attr: str, depth: int = 0, outer: frozenset[str] = frozenset()) -> frozenset[str]:
        """The parameters of the class's methods that fill `self.attr`, directly or through its
        other attributes."""
        found: set[str] = set()
        for store in self.class_values(attr):
            found |= self.stored_given_from(store.value, store.params, attr, depth, outer)
        return frozenset(found)

    def stored_given_from(
        self, stored: cst.BaseExpression, params: frozenset[str], attr: str, depth: int = 0, outer: frozenset[str] = frozenset()
    ) -> frozenset[str]:
        """The parameters one value a method stores in `self.attr` is built from: the method's
        own (`params`), and those filling the object's other attributes it reads."""
        found: set[str] = set()
        for node in descendants(stored):
            if type(node) is cst.Name and node.value in params:
                found.add(node.value)
            elif (
                depth < 3
                and type(node) is cst.Attribute
                and type(node.value) is cst.Name
                and node.value.value == "self"
                and node.attr.value not in outer | {attr}
            ):
                found |= self.class_given_from(node.attr.value, depth + 1, outer | {attr})
        return frozenset(found)

    # -- attributes and items ------------------------------------------------------------------

    def _attribute(self, expr: cst.Attribute, depth: int, seen: frozenset[str]) -> Taint | None:
        decided, found = self._decided(self.rules.attribute(self, expr), expr, depth, seen)
        if decided:
            return found
        chain = dotted(expr) or ""
        parts = chain.split(".") if chain else []
        root = parts[0] if parts else ""
        if root in self.params and root not in {"self", "cls"}:
            return None  # an item of the function's input
        if root in {"self", "cls"} and len(parts) == 2:
            return self.class_attribute(expr, depth, seen)
        if chain and self.fn is not None and chain in self.fn.stores and chain not in seen:
            # `result.detail = ...` then `result.detail` read: what the function stored there.
            values = self.assigned(chain)
            found = self.first_of(values, chain, depth, seen) if values else None
            if found is not None:
                return found
        if root in self.aliases.aliases:
            found = self.imported(expr)  # `config.DATA_DIR` of `from pkg import config`
            if found is not None:
                return found
        # `options.service_url`: that field of the object (the keyword its constructor was
        # given, through locals, `self` attributes and factories), else the object whole.
        return self.item(expr.value, expr.attr.value, depth, seen)

    def class_values(self, attr: str) -> list[ClassStore]:
        """What the traced method's class stores in `self.attr`."""
        if self.fn is None or not self.fn.class_name:
            return []
        return self.scope.values.attributes.get(f"{self.fn.class_name.rsplit('.', 1)[-1]}.{attr}", [])

    def class_attribute(self, expr: cst.Attribute, depth: int, seen: frozenset[str], key: str | None = None) -> Taint | None:
        """`self.attr`: the values the class stores there, each read in the method that stores
        it (its parameters: what the calls that construct the object pass, for `__init__`);
        only their field or item `key`, when given."""
        chain = dotted(expr) or expr.attr.value
        inner = seen | {chain}

        def held() -> Iterator[tuple[cst.BaseExpression, cst.CSTNode | None, Callable[[cst.BaseExpression], Taint | None]]]:
            for store in self.class_values(expr.attr.value):
                method = self.model.functions.get(f"{self.model.module}.{store.method}") if store.method else None
                if method is not None and method.qualname not in self.active:
                    trace = TaintTrace(self.rules, method, self.scope, active=self.active, from_callers=True)
                    at: cst.CSTNode | None = store.statement
                else:
                    trace, at = self.module_trace(), None
                trace.at = at
                if key is None:
                    yield store.value, at, lambda v, t=trace: t.find(v, depth + 1, inner)
                else:
                    yield store.value, at, lambda v, t=trace: t.item(v, key, depth + 1, inner)

        return self.first_held(chain, held())

    def key_text(self, key: cst.BaseExpression) -> str | None:
        """A key as written (`"DB_URL"`), or the text of the module constant that names it
        (`_URL_ENV = "TRACKER_URL"`), or of the argument bound to the parameter that names it."""
        text = literal_text(key)
        if text is None and type(key) is cst.Name:
            bound = self.bindings.get(key.value)
            if bound is not None:
                return bound[0].key_text(bound[1])  # `def setting(name): return os.environ[name]`
            values = self.scope.values.constants.get(key.value, [])
            text = literal_text(values[0]) if len(values) == 1 else None
        return text

    def _subscript(self, expr: cst.Subscript, depth: int, seen: frozenset[str]) -> Taint | None:
        element = expr.slice[0].slice if len(expr.slice) == 1 else None
        key = self.key_text(element.value) if type(element) is cst.Index else None
        decided, found = self._decided(self.rules.subscript(self, expr, key), expr, depth, seen)
        if decided:
            return found
        if (dotted(expr.value) or "").split(".")[0] in self.params:
            return None  # an item of the function's input
        constant_key = key is not None and literal_text(element.value) is not None  # type: ignore[union-attr]
        found = self.item(expr.value, key, depth, seen) if constant_key else self.find(expr.value, depth, seen)  # type: ignore[arg-type]
        pending = found.pending if found is not None else None
        if pending is not None and pending.kind == VALUE and constant_key:
            # `get_config()["api_url"]`: that item of what the other module's function returns.
            return replace(found, pending=replace(pending, item=key))  # type: ignore[arg-type]
        return found

    def item(self, container: cst.BaseExpression, key: str, depth: int, seen: frozenset[str]) -> Taint | None:
        """`x["k"]`: of a dict literal `x` is, holds (through locals) or a function of the module
        returns, only the item "k" (`config["name"]`, not the path beside it); anything else whole."""
        if depth > MAX_DEPTH:
            return None
        while type(container) is cst.Await:
            container = container.expression
        if type(container) in (cst.BooleanOperation, cst.IfExp):
            # `options or Options.load()`: that item of either value.
            sides = (container.left, container.right) if type(container) is cst.BooleanOperation else (container.body, container.orelse)
            return first_found(self.item(side, key, depth, seen) for side in sides)
        if type(container) is cst.Attribute and dotted(container.value) in {"self", "cls"} and self.fn is not None and self.fn.class_name:
            if not self.rules.attribute(self, container):
                return self.class_attribute(container, depth, seen, key)
        if type(container) is cst.Call and field_default(container) is not None:
            return self._field_default(field_default(container), depth, seen, key)  # type: ignore[arg-type]
        if type(container) is cst.Call:
            given = constructor_keyword(container, key)
            if given is not None and self.rules.call(self, container, self.aliases.resolve(container.func) or "") is None:
                return self.find(given, depth + 1, seen)  # `cls(service_url=url)`: the keyword's value
        if type(container) is cst.Dict:
            keys = [literal_text(e.key) if type(e) is cst.DictElement else None for e in container.elements]
            if None in keys:
                return self.find(container, depth, seen)  # `**other` or a computed key: any item
            return self.first((e.value for e, k in zip(container.elements, keys) if k == key), depth, seen)  # type: ignore[union-attr]
        name = container.value if type(container) is cst.Name else None
        if name is not None and self.fn is not None and name in self.fn.stores and name not in self.params and name not in seen:
            inner = seen | {name}
            stores = self.fn.stores_reaching(name, self.at)  # those a read here sees

            def held() -> Iterator[tuple[cst.BaseExpression, cst.CSTNode | None, Callable[[cst.BaseExpression], Taint | None]]]:
                for store in stores:
                    if store.slot is not None and store.slot != key:
                        continue  # `info["path"] = ...` is another item
                    whole = store.slot is None and not store.element and store.position is None
                    if whole:  # the local's whole value: only its item `key`
                        yield held_value(store), store.statement, lambda v: self.item(v, key, depth + 1, inner)
                    else:  # the item itself, an element or an unpacked part: all of it
                        yield held_value(store), store.statement, lambda v: self.find(v, depth + 1, inner)

            return self.first_held(name, held())
        if type(container) is cst.Call:
            callee = self._module_function(container)
            if callee is not None and self.rules.call(self, container, self.aliases.resolve(container.func) or "") is None:
                return self._returned_by(callee, container, depth, key)
        return self.find(container, depth, seen)

    # -- calls ---------------------------------------------------------------------------------

    def _call(self, expr: cst.Call, depth: int, seen: frozenset[str]) -> Taint | None:
        func = expr.func
        name = dotted(func) or ""
        resolved = self.aliases.resolve(func) or name
        decided, found = self._decided(self.rules.call(self, expr, resolved), expr, depth, seen)
        if decided:
            return found
        parts = built_text_parts(expr)  # `"{}: {}".format(a, b)`, `", ".join(parts)`
        if parts is not None:
            return self.first(parts, depth, seen)
        default = field_default(expr)
        if default is not None:
            return self._field_default(default, depth, seen)
        short = name.rsplit(".", 1)[-1]
        if self.scope.is_project_call(expr) and short not in {"self", "cls"} and not _held_object_call(name):
            callee = self._module_function(expr)
            if callee is not None:
                return self._returned_by(callee, expr, depth)
            # The project's functions in other modules (`error_text(f"... {DB_URL}")`) pass their
            # arguments on where their module says so; what they return is decided there.
            return first_found((self._passed_through(expr, depth, seen), self.imported(expr)))
        if type(func) is cst.Name:
            return self.imported(expr)  # `from server import describe` (a module of the project?)
        return None  # a library's answer: opaque, unless the rule declares the call a propagator

    def _field_default(self, default: tuple[str, cst.BaseExpression], depth: int, seen: frozenset[str], key: str | None = None) -> Taint | None:
        """A dataclass field's default: its value, or what its factory (a function of the
        module) returns (only its field or item `key`, when given)."""
        kind, value = default
        if kind == "default":
            return self.find(value, depth, seen) if key is None else self.item(value, key, depth, seen)
        callee = self.model.functions.get(f"{self.model.module}.{dotted(value)}") if dotted(value) else None
        return self._returned_by(callee, cst.Call(func=value), depth, key) if callee is not None else None  # type: ignore[arg-type]

    def _passed_through(self, call: cst.Call, depth: int, seen: frozenset[str]) -> Taint | None:
        """A taint in an argument of a call of another module's function, pending on that
        function returning what it is given at that place."""
        function = self.aliases.resolve(call.func)
        if function is None and self.fn is not None:
            function = next((c.callee for c in self.fn.calls if c.node is call), None)
        if not function:
            return None
        position = 0
        for argument in call.args:
            if argument.star:
                return None
            place = argument.keyword.value if argument.keyword is not None else str(position)
            if argument.keyword is None:
                position += 1
            found = self.find(argument.value, depth, seen)
            if found is not None and found.pending is None:
                return replace(found, pending=Pending(function, PASSES, parameter=place))
        return None

    def _module_function(self, call: cst.Call) -> FunctionFacts | None:
        """The function of this module a call of the traced function runs (its resolved callee)."""
        fact = next((c for c in self.fn.calls if c.node is call), None) if self.fn is not None else None
        if fact is not None:
            return self.model.functions.get(fact.callee) if fact.callee else None
        # A call outside a function's facts (a module constant's, a dataclass default's):
        # `Config.load()` names the module's function by its dotted name.
        name = dotted(call.func)
        return self.model.functions.get(f"{self.model.module}.{name}") if name else None

    def _returned_by(self, callee: FunctionFacts, call: cst.Call, depth: int, item: str | None = None) -> Taint | None:
        """What a function of this module returns for this call (only its item `item`, when
        given): its returned values, traced with its parameters bound to the call's arguments
        (a helper that masks its parameter, or is handed the tool's own argument, returns
        nothing)."""
        if callee.qualname in self.active or depth >= MAX_DEPTH:
            return None
        bindings = {param: (self, argument) for param, argument in bound_arguments(callee, call).items()}
        inner = TaintTrace(self.rules, callee, self.scope, bindings, words_at=depth + 1, active=self.active)
        found = inner.returned(depth + 1, item)
        return found.through(f"{callee.name}()") if found is not None else None

    def returned(self, depth: int, item: str | None = None) -> Taint | None:
        """What the traced function returns that carries a source (only its item `item`)."""
        fn = self.fn
        if fn is None:
            return None

        def each() -> Iterator[Taint | None]:
            for ret in fn.returns:
                if ret.node.value is not None:
                    self.at = ret.node
                    value = ret.node.value
                    yield self.find(value, depth, frozenset()) if item is None else self.item(value, item, depth, frozenset())

        return first_found(each())


def constructor_keyword(call: cst.Call, field: str) -> cst.BaseExpression | None:
    """The value a call of a class (`Options(url=...)`, `cls(url=...)` in a factory method: a
    name written as classes are) gives its field `field` by keyword; None for any other call, or
    when the field is not given by keyword."""
    name = (dotted(call.func) or "").rsplit(".", 1)[-1]
    if name != "cls" and not name[:1].isupper():
        return None
    return next((argument.value for argument in call.args if argument.keyword is not None and argument.keyword.value == field), None)


def _builds_text(expr: cst.CSTNode) -> bool:
    """An expression whose value may be one text written in pieces: an f-string, an implicit
    concatenation, `+` or `%`."""
    if type(expr) is cst.BinaryOperation:
        return type(expr.operator) in (cst.Add, cst.Modulo)
    return type(expr) in (cst.FormattedString, cst.ConcatenatedString)


def _is_context(param: str, fn: FunctionFacts) -> bool:
    """The framework's request context (`ctx`, `context`, a parameter typed `Context`): what the
    server put in it (its lifespan objects, its request) is not an input."""
    typed = fn.local_types.get(param, "")
    return param in {"ctx", "context"} or typed.rsplit(".", 1)[-1].endswith("Context")


def _held_object_call(name: str) -> bool:
    """`self._http.request(...)`: a method of an object the instance holds (a client), whose
    result is its answer, not a text built from the arguments (`self.describe(...)` is the
    project's own method)."""
    parts = name.split(".")
    return len(parts) > 2 and parts[0] in {"self", "cls"}


def bound_arguments(callee: FunctionFacts, call: cst.Call) -> dict[str, cst.BaseExpression]:
    """The callee's parameters the call passes a value to (positional, then by keyword); a
    method's self/cls is not passed."""
    params = [p for p in callee.params if p not in {"self", "cls"}] if callee.class_name else list(callee.params)
    out: dict[str, cst.BaseExpression] = {}
    position = 0
    for argument in call.args:
        if argument.star:
            break  # `*args`: which parameters it fills is not known
        if argument.keyword is not None:
            out[argument.keyword.value] = argument.value
        elif position < len(params):
            out[params[position]] = argument.value
            position += 1
    return out


def statement_of(call: CallFact) -> cst.CSTNode | None:
    """The small statement of a call's line (where its arguments are read), for reaching stores."""
    statement = call.statement
    if type(statement) is cst.SimpleStatementLine:
        for small in statement.body:
            if small is call.node or any(node is call.node for node in descendants(small)):
                return small
    return statement
