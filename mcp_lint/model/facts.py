"""Per-function facts gathered in one walk of the function body, read by every rule.

Rules never walk the CST themselves for the common questions (what does this function return,
raise, call, and inside which `except` clause); they read these lists.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

import libcst as cst

from mcp_lint.model.names import AliasTable, dotted, last_name
from mcp_lint.model.flow import (
    CONTAINER_ADDERS,
    RUNS_A_FUNCTION,
    WHOLE,
    Store,
    ValueFlow,
    condition_shape,
    failure_checked,
    leaves,
    literal_items,
    merge_modes,
    names_read,
    store_keys,
    store_slot,
)
from mcp_lint.model.walk import FastVisitor, FindingVisitor

# Exception classes whose text is the author's own when the try body only raises literals, and
# harmless builtin parsing errors otherwise (see MCP002's page).
NARROW_BUILTIN_ERRORS = frozenset(
    {
        "ValueError",
        "TypeError",
        "KeyError",
        "IndexError",
        "LookupError",
        "AttributeError",
        "AssertionError",
        "ZeroDivisionError",
        "ArithmeticError",
        "NotImplementedError",
        "StopIteration",
        "UnicodeDecodeError",
        "UnicodeEncodeError",
        "RuntimeError",
    }
)
BROAD_ERRORS = frozenset({"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"})
# Builtin exceptions that come from the outside world (I/O, network, OS).
FOREIGN_BUILTIN_ERRORS = frozenset(
    {
        "OSError",
        "IOError",
        "EnvironmentError",
        "FileNotFoundError",
        "FileExistsError",
        "PermissionError",
        "IsADirectoryError",
        "NotADirectoryError",
        "ConnectionError",
        "ConnectionRefusedError",
        "ConnectionResetError",
        "ConnectionAbortedError",
        "BrokenPipeError",
        "TimeoutError",
        "InterruptedError",
        "BlockingIOError",
        "ChildProcessError",
        "ProcessLookupError",
    }
)
# Calls inside a try body that cannot raise text from someone else's code.
BENIGN_CALLS = frozenset(
    {
        "int",
        "float",
        "str",
        "bool",
        "len",
        "isinstance",
        "issubclass",
        "range",
        "min",
        "max",
        "abs",
        "round",
        "sorted",
        "list",
        "dict",
        "set",
        "tuple",
        "enumerate",
        "zip",
        "any",
        "all",
        "sum",
        "getattr",
        "hasattr",
        "Decimal",
        "decimal.Decimal",
        "uuid.UUID",
        "UUID",
    }
)
BENIGN_METHODS = frozenset(
    {
        "strip",
        "lower",
        "upper",
        "split",
        "startswith",
        "endswith",
        "isdigit",
        "replace",
        "get",
        "format",
        "join",
        "append",
        "items",
        "keys",
        "values",
        "fromisoformat",
        "strptime",
        "encode",
        "decode",
    }
)


# Benign on a dict, I/O on an HTTP client: judged by the receiver.
RECEIVER_DEPENDENT_METHODS = frozenset({"get"})


@dataclass
class Handler:
    """An `except` clause and what can reach it."""

    node: cst.ExceptHandler
    try_node: cst.Try | cst.TryStar
    caught: tuple[str, ...]  # qualified (or builtin) names of the caught classes; () = bare
    name: str | None  # `as e`
    foreign: bool = False  # the caught exception may carry text from code the author does not control
    parses_parameters: bool = False  # foreign only because it parses the function's parameters
    tainted: set[str] = field(default_factory=set)  # local names holding the exception's text
    # "<function qualname>#<n>": names this clause project-wide, so the linker can tell which
    # handler on a call path catches a helper's exception (TryGuard entries carry it too).
    site: str = ""
    # The clause whose body this `try` sits in (`except HTTPError as e: try: ... except
    # Exception: raise ApiError(e.response.text)`): its exception is still in reach here.
    parent: Handler | None = None
    # Imported classes (`from errors import ApiError` beside server.py) that alone make the clause
    # foreign: the linker knows whether the project defines them (then they are its own).
    imported_classes: tuple[str, ...] = ()

    def within(self, outer: Handler) -> bool:
        """Is this clause `outer`, or nested in its body without rebinding its name?"""
        current: Handler | None = self
        while current is not None:
            if current is outer:
                return True
            if current.name is not None and current.name == outer.name:
                return False  # `except B as e:` inside `except A as e:` hides the outer `e`
            current = current.parent
        return False


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
    # a body statement by statement without walking the expressions again (MCP004).
    statement: cst.CSTNode | None = None
    # The call's value flows into what the function returns, through any expression built from
    # it and any number of locals (`r = helper(); return json.dumps(r, indent=2)`).
    flows: bool = False
    # At least a part of it does (`return f"Failed: {r['error']}"`): text in it reaches the model.
    feeds: bool = False
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

# Calls that run a function passed to them (`to_thread(fn, *args)`, `pool.submit(fn, x)`).
_RUNS_A_FUNCTION = RUNS_A_FUNCTION


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
    # Assigns to `x[k]` or `x.attr` somewhere (possible module-state writes, for MCP004).
    has_item_assignment: bool = False
    # `self.client = Api(...)`: attribute name -> the call's callee, so `self.client.get()` resolves.
    self_instances: dict[str, str] = field(default_factory=dict)
    # Local names assigned exactly once (`msg = f"..."`), so rules can read `return msg`.
    single_assignments: dict[str, cst.BaseExpression] = field(default_factory=dict)
    # Exception text stored in locals and containers, then returned or raised (MCP002).
    text_flows: list[TextFlow] = field(default_factory=list)
    # Parameters and every local the function assigns (a condition over them is its own state).
    local_names: frozenset[str] = frozenset()
    # `asyncio.gather(..., return_exceptions=True)` runs here: results tested with
    # `isinstance(r, Exception)` are caught exceptions, from code the author does not control.
    gathered: Handler | None = None
    # What local names hold, as the qualified class (or the function whose result) they came
    # from: typed parameters, `x = Api()`, `with make() as x`. Nested functions see them too.
    local_types: dict[str, str] = field(default_factory=dict)
    # The class its return annotation names (`def get_client() -> Api`), for `get_client().get()`.
    returns_type: str | None = None
    callbacks: list[CallbackFact] = field(default_factory=list)
    dynamic_calls: list[DynamicCall] = field(default_factory=list)
    # The context managers of every `with` in the body, as written (`with reported_to_model():`).
    managers: list[cst.BaseExpression] = field(default_factory=list)
    # Decorators that wrap it (`@handle_errors` under `@mcp.tool`), as the callee names they resolve to.
    wrappers: list[str] = field(default_factory=list)

    def value_of(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """`expr`, or the value of the local it names when that local is assigned once."""
        if isinstance(expr, cst.Name) and expr.value in self.single_assignments:
            return self.single_assignments[expr.value]
        return expr


def _caught_names(
    node: cst.ExceptHandler, aliases: AliasTable, constants: Mapping[str, list[cst.BaseExpression]] | None = None
) -> tuple[str, ...]:
    if node.type is None:
        return ()
    exprs: list[cst.BaseExpression]
    if isinstance(node.type, cst.Tuple):
        exprs = [el.value for el in node.type.elements]
    else:
        exprs = [node.type]
    if constants:
        # `except EXPECTED_ERRORS as e` with `EXPECTED_ERRORS = (OSError, git.GitError)` at module level.
        exprs = [
            item
            for expr in exprs
            for item in (constants.get(expr.value, [expr]) if isinstance(expr, cst.Name) and expr.value not in aliases.aliases else [expr])
        ]
    names = []
    for expr in exprs:
        resolved = aliases.resolve(expr)
        names.append(resolved or dotted(expr) or "?")
    return tuple(names)


class _BodyWalker(FastVisitor):
    """Collects facts of one function body without entering nested functions or classes."""

    def __init__(
        self,
        facts: FunctionFacts,
        aliases: AliasTable,
        resolve_callee,
        resolve_type=None,
        constants: Mapping[str, list[cst.BaseExpression]] | None = None,
    ) -> None:
        self.facts = facts
        self.aliases = aliases
        self.constants = constants
        self.resolve_callee = resolve_callee
        self.resolve_type = resolve_type or (lambda annotation: None)
        self.handlers: list[Handler] = []
        self.conditions: list[cst.BaseExpression] = []
        self.else_of: list[cst.If] = []
        # `client = Api()` / `async with Api() as client`: calls on `client` go to Api's methods.
        self.local_instances: dict[str, str] = facts.local_types
        # `result = helper(...)`: the call whose value a later `return result` returns.
        self.assigned_calls: dict[str, cst.Call] = {}
        # Functions defined in this body: `inner()` / `to_thread(inner)` call them, not a global.
        self.nested_defs: set[str] = set()
        # (argument, its call) for every plain name or attribute passed as an argument.
        self.arguments: list[tuple[cst.BaseExpression, CallFact]] = []
        # Locals holding a function looked up in a table: `handler = HANDLERS.get(name)`.
        self.table_locals: dict[str, tuple[str, str | None]] = {}
        self.assignment_counts: dict[str, int] = {}
        self.guards: list[TryGuard] = []  # what the enclosing `try` statements catch
        # Every value put into a local, by the local (read after the walk, see ValueFlow).
        self.stores: dict[str, list[Store]] = {}
        self.checked: frozenset[str] = frozenset()  # see ReturnFact.checked
        # Tests of top-level `if`s that leave the function (`if not ok: return "..."`), so far.
        self.exits: tuple[cst.BaseExpression, ...] = ()
        self.if_depth = 0
        self.sites = 0  # except clauses seen so far (Handler.site)
        self.statement: cst.CSTNode | None = None  # the innermost statement being walked
        self.managers: list[cst.BaseExpression] = []  # items of the enclosing `with` statements

    # Scopes we do not enter: their facts belong to themselves.
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if node is not self.facts.node:
            self.nested_defs.add(node.name.value)
        return node is self.facts.node

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Import(self, node: cst.Import) -> None:
        self.aliases.add_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.aliases.add_import_from(node)

    def visit_Try(self, node: cst.Try | cst.TryStar) -> bool:
        # Walk body and else/finally normally, but each handler under its own Handler record.
        records = []
        for handler in node.handlers:
            site = f"{self.facts.qualname}#{self.sites}"
            self.sites += 1
            caught = _caught_names(handler, self.aliases, self.constants)
            records.append(Handler(handler, node, caught, _as_name(handler), site=site, parent=self._handler()))
        self.guards.append(_catches(node, records))
        self.walk(node.body)
        self.guards.pop()
        for handler, record in zip(node.handlers, records):
            self.facts.handlers.append(record)
            self.handlers.append(record)
            self.walk(handler.body)
            self.handlers.pop()
        if node.orelse is not None:
            self.walk(node.orelse)
        if node.finalbody is not None:
            self.walk(node.finalbody)
        return False

    def visit_TryStar(self, node: cst.TryStar) -> bool:  # `except*` handlers read the same way
        return self.visit_Try(node)

    def visit_If(self, node: cst.If) -> bool:
        self.walk(node.test)  # `if not validate(path):` calls a helper too (it may raise, or bind)
        self.if_depth += 1
        self.conditions.append(node.test)
        self.walk(node.body)
        self.conditions.pop()
        if node.orelse is not None:
            negated = cst.UnaryOperation(cst.Not(), node.test)
            self.conditions.append(negated)
            self.else_of.append(node)
            self.walk(node.orelse)
            self.else_of.pop()
            self.conditions.pop()
        self.if_depth -= 1
        if not self.if_depth and node.orelse is None and leaves(node.body):
            self.exits = (*self.exits, node.test)
        checked = failure_checked(node)
        if checked:
            self.checked = self.checked | checked
        return False

    def visit_Return(self, node: cst.Return) -> None:
        self.facts.returns.append(ReturnFact(node, self._handler(), tuple(self.conditions), self.checked))

    def visit_Raise(self, node: cst.Raise) -> None:
        self.facts.raises.append(
            RaiseFact(node, self._handler(), tuple(self.conditions), tuple(self.else_of), self._guarded(), tuple(self.managers))
        )

    def visit_Call(self, node: cst.Call) -> None:
        callee = None
        name = dotted(node.func)
        if name is not None and ".lifespan_context." in f".{name}":
            # `ctx.request_context.lifespan_context.db.query()`: the linker types the context
            # from the server's lifespan function (what it yields).
            callee = LIFESPAN + name.split("lifespan_context", 1)[1]
        elif name is not None and "." in name:
            root, rest = name.split(".", 1)
            if root in self.local_instances:
                callee = f"{self.local_instances[root]}.{rest}"
        elif name is None and isinstance(node.func, cst.Attribute):
            callee = self._method_of_result(node.func)
        if callee is None:
            callee = self.resolve_callee(node.func)
        fact = CallFact(
            node, self._handler(), False, callee, self._guarded(), branch_name(self.conditions), self.statement
        )
        fact.exits = self.exits
        self.facts.calls.append(fact)
        if self.facts.gathered is None and last_name(name or "") == "gather" and _returns_exceptions(node):
            self.facts.gathered = Handler(None, None, (GATHERED,), None, foreign=True)  # type: ignore[arg-type]
        lookup = self._table_lookup(node.func)
        if lookup is not None:
            self.facts.dynamic_calls.append(DynamicCall(lookup[0], fact, lookup[1]))
        takes_function = name is not None and name.rsplit(".", 1)[-1] in _RUNS_A_FUNCTION
        for arg in node.args if takes_function else ():
            if isinstance(arg.value, cst.Subscript):  # `to_thread(registry[name], **args)`
                lookup = self._table_lookup(arg.value)
                if lookup is not None:
                    self.facts.dynamic_calls.append(DynamicCall(lookup[0], fact, lookup[1]))
        for arg in node.args:
            value = arg.value
            if isinstance(value, cst.Call) and last_name(dotted(value.func)) == "partial" and value.args:
                value = value.args[0].value  # `run_sync(partial(work, x))` runs `work`
            if isinstance(value, (cst.Name, cst.Attribute)) and not arg.star:
                self.arguments.append((value, fact))

    def _table_lookup(self, expr: cst.BaseExpression) -> tuple[str, str | None] | None:
        """(table, getattr prefix) when `expr` is a function looked up by a key computed at run
        time: `T[k]`, `T.get(k)`, `getattr(self, f"_tool_{k}")`, or a local assigned one of these."""
        if isinstance(expr, cst.Name):
            return self.table_locals.get(expr.value)
        if isinstance(expr, cst.Subscript):
            index = expr.slice[0].slice if len(expr.slice) == 1 else None
            if isinstance(index, cst.Index) and not isinstance(index.value, (cst.SimpleString, cst.Integer)):
                return self._table_name(expr.value), None
            return None
        if not isinstance(expr, cst.Call) or not expr.args:
            return None
        key = expr.args[0].value
        if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "get" and not isinstance(key, cst.SimpleString):
            return self._table_name(expr.func.value), None
        if dotted(expr.func) == "getattr" and len(expr.args) >= 2 and dotted(key) in {"self", "cls"}:
            name = expr.args[1].value
            if isinstance(name, cst.FormattedString):
                first = name.parts[0] if name.parts else None
                return "", first.value if isinstance(first, cst.FormattedStringText) else ""
            if isinstance(name, (cst.Name, cst.Attribute)):
                return "", ""
        return None

    def _table_name(self, expr: cst.BaseExpression) -> str:
        """The qualified name of a table: a module-level or imported name, or "<builder>()" for a
        local assigned a table-building function's result; "" when not known (a parameter)."""
        name = dotted(expr)
        if name is None or name.split(".")[0] in {"self", "cls"}:
            return ""
        if "." not in name and name in self.assigned_calls:
            builder = self.resolve_callee(self.assigned_calls[name].func)
            return f"{builder}()" if builder else ""
        if name.split(".")[0] in self.facts.params or name.split(".")[0] in self.assignment_counts:
            return ""
        return self.resolve_callee(expr) or ""

    def _method_of_result(self, func: cst.Attribute) -> str | None:
        """`get_client().fetch` -> "<get_client>.fetch": the linker looks the method up on what
        the factory returns (its return annotation, or the class itself)."""
        inner = _unwrap_awaited(func.value)
        if not isinstance(inner, cst.Call):
            return None
        made_by = dotted(inner.func)
        if made_by is None:
            return None
        root, _, rest = made_by.partition(".")
        if rest and root in self.local_instances:
            factory = f"{self.local_instances[root]}.{rest}"
        else:
            factory = self.resolve_callee(inner.func)
        return f"{factory}.{func.attr.value}" if factory else None

    # The statement the calls below belong to: a line, or a header whose expressions are walked
    # before its body (the body's lines then take over).
    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.statement = node

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self.statement = node

    def visit_With(self, node: cst.With) -> None:
        self.statement = node
        self.managers.extend(item.item for item in node.items)
        self.facts.managers.extend(item.item for item in node.items)

    def leave_With(self, original_node: cst.With) -> None:
        del self.managers[len(self.managers) - len(original_node.items) :]

    def visit_While(self, node: cst.While) -> None:
        self.statement = node

    def visit_Match(self, node: cst.Match) -> None:
        self.statement = node

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            for name in _target_names(node.asname.name):
                self._count_assignment(name, None)
            self._store(node.asname.name, node.item, None)
        if node.asname is not None and isinstance(node.asname.name, cst.Name):
            self._remember_instance(node.asname.name.value, node.item)

    def _remember_instance(self, name: str, value: cst.BaseExpression) -> None:
        while isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Call):
            self.assigned_calls[name] = value
            resolved = self.resolve_callee(value.func)
            if resolved is not None:
                self.local_instances[name] = resolved

    def visit_Assign(self, node: cst.Assign) -> None:
        if any(isinstance(t.target, (cst.Subscript, cst.Attribute)) for t in node.targets):
            self.facts.has_item_assignment = True
            value = node.value.expression if isinstance(node.value, cst.Await) else node.value
            if isinstance(value, cst.Call):
                for target in node.targets:
                    name = dotted(target.target)
                    if name and name.startswith("self.") and name.count(".") == 1:
                        callee = self.resolve_callee(value.func)
                        if callee:
                            self.facts.self_instances[name[5:]] = callee
            elif isinstance(value, cst.Name) and value.value in self.local_instances:
                for target in node.targets:  # `self.client = client` of a typed parameter
                    name = dotted(target.target)
                    if name and name.startswith("self.") and name.count(".") == 1:
                        self.facts.self_instances.setdefault(name[5:], self.local_instances[value.value])
        value_name = dotted(node.value)
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name) and value_name and value_name.endswith("lifespan_context"):
            self.local_instances[node.targets[0].target.value] = LIFESPAN  # `app = ctx.request_context.lifespan_context`
        for target in node.targets:
            self._store(target.target, node.value, node, unpacks=True)
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            lookup = self._table_lookup(_unwrap_awaited(node.value)) if not isinstance(node.value, cst.Name) else None
            if lookup is not None:
                self.table_locals[node.targets[0].target.value] = lookup
            self._remember_instance(node.targets[0].target.value, node.value)
            self._count_assignment(node.targets[0].target.value, node.value)
        else:
            for target in node.targets:
                for name in _target_names(target.target):
                    self._count_assignment(name, None)
        handler = self._handler()
        if handler is not None and handler.name and _mentions_exception_text(node.value, handler):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    handler.tainted.add(target.target.value)

    def _store(
        self,
        target: cst.BaseExpression,
        value: cst.BaseExpression,
        statement: cst.BaseSmallStatement | None,
        unpacks: bool = False,
        element: bool = False,
    ) -> None:
        if isinstance(target, cst.Name):  # the common case, kept cheap
            self.stores.setdefault(target.value, []).append(
                Store(target.value, value, statement, self._handler(), tuple(self.conditions) if self.conditions else (), None, None, element)
            )
            return
        conditions = tuple(self.conditions)
        if unpacks and isinstance(target, (cst.Tuple, cst.List)):
            # `ok, message = helper()`: each name holds one element of the value.
            for index, element in enumerate(target.elements):
                position = None if isinstance(element, cst.StarredElement) else index
                for key in store_keys(element.value):
                    self.stores.setdefault(key, []).append(Store(key, value, statement, self._handler(), conditions, None, position))
            return
        slot = store_slot(target)
        # `results[symbol] = v` like `results.append(v)`: one element of a collection.
        element = element or (isinstance(target, cst.Subscript) and slot is None)
        for key in store_keys(target):
            if "." in key and key.split(".", 1)[0] in {"self", "cls"}:
                continue  # the object's state, read by other methods: not a local value
            self.stores.setdefault(key, []).append(Store(key, value, statement, self._handler(), conditions, slot, None, element))

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        # `if (match := pattern.search(text)):` binds a local like an assignment.
        for name in _target_names(node.target):
            self._count_assignment(name, None)
        self._store(node.target, node.value, None)

    def visit_Expr(self, node: cst.Expr) -> None:
        # `errors.append(f"...{e}")`, `seen.add(x)`, `info.update(...)`: the container holds the value.
        call = node.value.expression if isinstance(node.value, cst.Await) else node.value
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in CONTAINER_ADDERS:
            for argument in call.args:
                self._store(call.func.value, argument.value, node, element=True)

    def _count_assignment(self, name: str, value: cst.BaseExpression | None) -> None:
        self.assignment_counts[name] = self.assignment_counts.get(name, 0) + 1
        if value is not None:
            self.facts.single_assignments[name] = value

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, (cst.Subscript, cst.Attribute)):
            self.facts.has_item_assignment = True
        for name in _target_names(node.target):
            self._count_assignment(name, None)
        self._store(node.target, node.value, node)
        handler = self._handler()
        if handler is not None and isinstance(node.target, cst.Name) and _mentions_exception_text(node.value, handler):
            handler.tainted.add(node.target.value)

    def visit_For(self, node: cst.For) -> None:
        self.statement = node
        for name in _target_names(node.target):
            self._count_assignment(name, None)
            self._count_assignment(name, None)
        self._store(node.target, node.iter, None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        for name in _target_names(node.target):
            self._count_assignment(name, node.value)
        if node.value is not None:
            self._store(node.target, node.value, node)
        typed = self.resolve_type(node.annotation.annotation)
        target = dotted(node.target)
        if typed is not None and target is not None:
            if "." not in target:
                self.local_instances[target] = typed  # `client: Api = make()`
            elif target.startswith("self.") and target.count(".") == 1:
                self.facts.self_instances[target[5:]] = typed  # `self.client: Api = ...`
        elif node.value is not None and isinstance(node.target, cst.Name):
            self._remember_instance(node.target.value, node.value)
        handler = self._handler()
        if handler is not None and node.value is not None and isinstance(node.target, cst.Name):
            if _mentions_exception_text(node.value, handler):
                handler.tainted.add(node.target.value)

    def _handler(self) -> Handler | None:
        return self.handlers[-1] if self.handlers else None

    def _guarded(self) -> frozenset[TryGuard]:
        return frozenset(self.guards)


# One `try` statement's handlers in order: (short names caught, "*" = any; re-raises with `raise`;
# Handler.site of the clause).
TryGuard = tuple[tuple[frozenset[str], bool, str], ...]


def catches(guard: TryGuard, raised: str | frozenset[str]) -> bool:
    """Does this `try` keep an exception of class `raised` (short name) from propagating?

    The first handler that matches decides, as in Python; a handler that re-raises with a bare
    `raise` lets it through. `raised` may be the short names of the class and its known bases
    (the linker knows the project's class tree); without them a handler matches by name or by
    catching everything.
    """
    site = catching_site(guard, raised)
    return site is not None and not site[1]


def catching_site(guard: TryGuard, raised: str | frozenset[str]) -> tuple[str, bool] | None:
    """(Handler.site, re-raises) of the first clause of this `try` that catches `raised`."""
    names = frozenset({raised}) if isinstance(raised, str) else raised
    for caught, reraises, site in guard:
        if caught & names or "*" in caught:
            return site, reraises
    return None


def _catches(node: cst.Try | cst.TryStar, records: list[Handler]) -> TryGuard:
    handlers = []
    for handler, record in zip(node.handlers, records):
        reraises = any(isinstance(n, cst.Raise) and n.exc is None for n in _statements_of(handler.body))
        names = {last_name(c) for c in record.caught}
        if not record.caught or names & {"Exception", "BaseException"}:
            names.add("*")
        handlers.append((frozenset(names), reraises, record.site))
    return tuple(handlers)


def _statements_of(block: cst.BaseSuite):  # type: ignore[no-untyped-def]
    """Small statements of a block, nested blocks included (a cheap scan, no expressions)."""
    stack = list(getattr(block, "body", ()))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, cst.SimpleStatementLine):
            yield from stmt.body
        else:
            for attribute in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, attribute, None)
                if inner is not None and hasattr(inner, "body"):
                    stack.extend(inner.body if isinstance(inner.body, (list, tuple)) else [inner])
            stack.extend(getattr(stmt, "handlers", ()) or ())


def branch_name(conditions: list[cst.BaseExpression]) -> str | None:
    """"div" for a call under `if name == "div":` / `elif params.name == "div":` (innermost wins)."""
    for condition in reversed(conditions):
        if isinstance(condition, cst.Comparison) and len(condition.comparisons) == 1:
            target = condition.comparisons[0]
            left = dotted(condition.left) or ""
            if (
                isinstance(target.operator, cst.Equal)
                and isinstance(target.comparator, cst.SimpleString)
                and left.split(".")[-1] in {"name", "tool_name", "tool"}
            ):
                value = target.comparator.evaluated_value
                return value if isinstance(value, str) else None
    return None


_BUILTIN_NAMES = frozenset(dir(builtins))


def _is_tool_error(call: cst.Call, aliases: AliasTable) -> bool:
    from mcp_lint.model.frameworks import TOOL_ERROR_CLASSES

    return aliases.resolve(call.func) in TOOL_ERROR_CLASSES or last_name(dotted(call.func) or "") == "ToolError"


def _excluded(call: CallFact, local: set[str], reads: dict[int, frozenset[str]]) -> frozenset[str]:
    """The exit conditions before `call` that read only values it passes positionally.
    `reads` memoises the names each condition reads, shared by all calls of the function."""
    slots = {
        a.value.value: index
        for index, a in enumerate(a for a in call.node.args if a.keyword is None and not a.star)
        if isinstance(a.value, cst.Name)
    }
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


def _text_flows(facts: FunctionFacts, flow: ValueFlow) -> list[TextFlow]:
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
    for sink, value in sinks:
        for store in flow.reach(value)[1]:
            text_flow = sources.get(id(store))
            if text_flow is not None:
                text_flow.sinks.append(sink)
    return [f for f in sources.values() if f.sinks]


# The caught class a gathered exception is reported as ("the text of a caught exception ...").
GATHERED = "exception returned by asyncio.gather"


def _returns_exceptions(call: cst.Call) -> bool:
    return any(
        a.keyword is not None and a.keyword.value == "return_exceptions" and isinstance(a.value, cst.Name) and a.value.value == "True"
        for a in call.args
    )


def _exception_instances(test: cst.BaseExpression) -> tuple[set[str], set[str]]:
    """Names a test proves to be exceptions when true, and when false:
    `isinstance(r, Exception)` -> ({r}, {}), `not isinstance(r, BaseException)` -> ({}, {r})."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        when_true, when_false = _exception_instances(test.expression)
        return when_false, when_true
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        left, right = _exception_instances(test.left), _exception_instances(test.right)
        return left[0] | right[0], set()
    if isinstance(test, cst.Call) and dotted(test.func) == "isinstance" and len(test.args) == 2:
        subject, classes = test.args[0].value, test.args[1].value
        names = [el.value for el in classes.elements] if isinstance(classes, cst.Tuple) else [classes]
        if isinstance(subject, cst.Name) and any(_is_exception_class(n) for n in names):
            return {subject.value}, set()
    return set(), set()


def _is_exception_class(expr: cst.BaseExpression) -> bool:
    name = last_name(dotted(expr) or "")
    return name in {"BaseException", "Exception"} or name.endswith(("Error", "Exception"))


class _GatheredTextFinder(FindingVisitor):
    """Text of a value proven to be an exception where it is used (see gathered_exception_text)."""

    def __init__(self, known: set[str]) -> None:
        self.known = known

    def visit_IfExp(self, node: cst.IfExp) -> bool:
        when_true, when_false = _exception_instances(node.test)
        for branch, proven in ((node.body, when_true), (node.orelse, when_false)):
            inner = _GatheredTextFinder(self.known | proven)
            inner.walk(branch)
            if inner.found is not None:
                self.found = inner.found
                return False
        return False

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> bool:
        self._text_of(node.expression)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        if dotted(node.func) in {"str", "repr"} and node.args:
            self._text_of(node.args[0].value)
            return False
        return True

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def _text_of(self, expr: cst.BaseExpression) -> None:
        if self.known:
            found = find_exception_text(expr, None, frozenset(self.known))
            if found is not None:
                self.found = found


def gathered_exception_text(expr: cst.BaseExpression, conditions: tuple[cst.BaseExpression, ...]) -> cst.CSTNode | None:
    """`f"ERROR: {r}"` / `str(r)` in `expr` where `r` is known to be an exception: tested by the
    enclosing `if`s (`conditions`) or by a conditional expression around it
    (`r if not isinstance(r, BaseException) else f"ERROR: {r}"`)."""
    known: set[str] = set()
    for condition in conditions:
        known |= _exception_instances(condition)[0]
    finder = _GatheredTextFinder(known)
    finder.walk(expr)
    return finder.found


def _unwrap_awaited(expr: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(expr, cst.Await):
        expr = expr.expression
    return expr


def _target_names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for el in target.elements for n in _target_names(el.value)]
    return []


def _as_name(handler: cst.ExceptHandler) -> str | None:
    if handler.name is not None and isinstance(handler.name.name, cst.Name):
        return handler.name.name.value
    return None


# Attributes of a caught exception that carry its text (or an upstream body).
TEXT_ATTRIBUTES = frozenset(
    {
        "args",
        "message",
        "msg",
        "strerror",
        "detail",
        "details",
        "body",
        "text",
        "content",
        "stderr",
        "stdout",
        "output",
        "error",
        "errors",
        "description",
        "json",
    }
)


def _mentions_exception_text(expr: cst.CSTNode, handler: Handler) -> bool:
    return find_exception_text(expr, handler) is not None


def find_exception_text(
    expr: cst.CSTNode, handler: Handler | None, params: frozenset[str] = frozenset(), *, through_locals: bool = True
) -> cst.CSTNode | None:
    """The first sub-expression of `expr` that puts a caught exception's text into a string;
    with `through_locals=False` only the exception itself counts, not locals the handler built
    from it (FunctionFacts.text_flows follows those)."""
    names = set(params)
    if handler is not None:
        if handler.name:
            names.add(handler.name)
        if through_locals:
            names |= handler.tainted
    finder = _TextFinder(names, handler is not None)
    finder.walk(expr)
    return finder.found


_CODE_KEYS = frozenset({"code", "status", "statuscode", "httpstatuscode", "status_code", "errno"})


class _TextFinder(FindingVisitor):
    def __init__(self, names: set[str], traceback_counts: bool) -> None:
        self.names = names
        self.traceback_counts = traceback_counts
        self.found: cst.CSTNode | None = None


    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        chain = dotted(node)
        if chain:
            parts = chain.split(".")
            if parts[0] in self.names:
                if any(p in TEXT_ATTRIBUTES for p in parts[1:]):
                    self.found = node
                return False  # e.status_code, e.__class__ etc. are not the text
        return True

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        # e.args[0], e.response["Error"]["Message"]: the exception's text or an upstream body.
        base: cst.BaseExpression = node
        while isinstance(base, cst.Subscript):
            base = base.value
        chain = dotted(base)
        if chain and chain.split(".")[0] in self.names:
            keys = [
                el.slice.value.evaluated_value
                for el in node.slice
                if isinstance(el.slice, cst.Index) and isinstance(el.slice.value, cst.SimpleString)
            ]
            if not any(str(k).lower() in _CODE_KEYS for k in keys):
                self.found = node
            return False
        return True

    def visit_Call(self, node: cst.Call) -> bool:
        func = dotted(node.func) or ""
        if self.traceback_counts and func in {"traceback.format_exc", "format_exc", "traceback.format_exception"}:
            self.found = node
            return False
        if func == "type":  # type(e).__name__ names the class, not the text
            return False
        # e.response.json() etc.: handled by visit_Attribute on node.func
        return True

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names:
            self.found = node


def literal_text(expr: cst.BaseExpression) -> str | None:
    """The author-written text of a string-ish expression: literals kept, placeholders as {}."""
    if isinstance(expr, cst.SimpleString):
        try:
            value = expr.evaluated_value
        except Exception:  # noqa: BLE001 - malformed escapes: treat as unknown text
            return None
        return value if isinstance(value, str) else None
    if isinstance(expr, cst.ConcatenatedString):
        left = literal_text(expr.left)
        right = literal_text(expr.right)
        if left is None or right is None:
            return None
        return left + right
    if isinstance(expr, cst.FormattedString):
        out = []
        for part in expr.parts:
            if isinstance(part, cst.FormattedStringText):
                out.append(part.value)
            else:
                out.append("{}")
        return "".join(out)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add):
        left = literal_text(expr.left)
        right = literal_text(expr.right)
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo):
        return literal_text(expr.left)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "format":
        return literal_text(expr.func.value)
    return None


def collect_facts(
    node: cst.FunctionDef,
    qualname: str,
    class_name: str | None,
    aliases: AliasTable,
    resolve_callee,
    resolve_type=None,
    outer_types: dict[str, str] | None = None,
    constants: Mapping[str, list[cst.BaseExpression]] | None = None,
) -> FunctionFacts:
    """Facts of one function; `resolve_type` names the class an annotation stands for,
    `outer_types` are the typed locals of the enclosing function (closure variables), and
    `constants` the module's tuples/lists so far (`except EXPECTED_ERRORS` reads them)."""
    params = tuple(p.name.value for p in (*node.params.posonly_params, *node.params.params))
    facts = FunctionFacts(node, qualname, node.name.value, class_name, params)
    facts.local_types = dict(outer_types) if outer_types else {}
    for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
        facts.local_types.pop(param.name.value, None)  # a parameter shadows the closure
        typed = resolve_type(param.annotation.annotation) if resolve_type and param.annotation else None
        if typed is not None and param.name.value not in {"self", "cls"}:
            facts.local_types[param.name.value] = typed  # `def tool(db: Database)`
    walker = _BodyWalker(facts, aliases, resolve_callee, resolve_type, constants)
    walker.walk(node)
    # Which calls are the value of a return: the returned expression itself, under await.
    returned_ids = set()
    for ret in facts.returns:
        value = ret.node.value
        while isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Name) and value.value in walker.assigned_calls:
            value = walker.assigned_calls[value.value]  # result = helper(...); return result
        if isinstance(value, cst.Call):
            returned_ids.add(id(value))
    _through_passthrough(facts.calls, returned_ids, walker.assigned_calls)
    for call in facts.calls:
        call.returned = id(call.node) in returned_ids
        func = call.node.func
        if isinstance(func, cst.Name) and func.value in walker.nested_defs:
            call.callee = f"{qualname}.{func.value}"  # a function defined in this body
    facts.callbacks = _callbacks(walker, qualname, params)
    for handler in facts.handlers:
        body = _TryBodyScan(handler.try_node, aliases, frozenset(params))
        handler.foreign = is_foreign_handler(handler, aliases, body.calls_foreign_code, body.calls_library_code)
        # Foreign only through parsing the function's own parameters (`json.loads(filters)`): in a
        # tool, that text describes what the model sent (the linker decides, knowing tools).
        handler.parses_parameters = handler.foreign and not is_foreign_handler(
            handler, aliases, body.beyond_parameters, body.library_beyond_parameters
        )
        imported = tuple(n for n in handler.caught if _imported_class(n, aliases))
        others = tuple(n for n in handler.caught if n not in imported)
        if handler.foreign and imported and not (others and is_foreign_handler(replace(handler, caught=others), aliases, body.calls_foreign_code, body.calls_library_code)):
            handler.imported_classes = imported
    for name, count in walker.assignment_counts.items():
        if count != 1 or name in params:
            facts.single_assignments.pop(name, None)
    own_package = aliases.module.split(".")[0]

    def is_project_call(call: cst.Call) -> bool:
        """A call of a function of the linted project (this module's, or its package's)."""
        name = dotted(call.func)
        if name is None or name.split(".")[0] in {"self", "cls"}:
            return name is not None
        if name in _BUILTIN_NAMES:
            return False
        callee = resolve_callee(call.func)
        return bool(callee) and (callee.split(".")[0] == own_package or name.split(".")[0] in aliases.relative_names)

    flow = ValueFlow(walker.stores, is_project_call)
    returned: dict[int, frozenset[str] | None] = {}  # by id(call): the mode its value is returned in
    slots: dict[int, str | None] = {}  # by id(call): the one item of returned literals holding it whole
    for ret in facts.returns:
        if ret.node.value is not None:
            for call, mode in flow.reach(ret.node.value, ret.checked)[0].items():
                returned[call] = merge_modes(returned[call], mode) if call in returned else mode
            for item, element in literal_items(ret.node.value):
                # Only an element that is a call's value as it is, or a local holding one, is
                # followed (what a caller may take whole); other elements are built here.
                element = _unwrap_awaited(element)
                if isinstance(element, cst.Call):
                    found: dict[int, frozenset[str] | None] = {id(element): WHOLE}
                elif isinstance(element, cst.Name):
                    found = flow.reach(element, ret.checked)[0]
                else:
                    continue
                for call, mode in found.items():
                    if mode is WHOLE:
                        slots[call] = item if slots.get(call, item) == item else None
    # `raise ToolError(result["error"])`: the model reads text taken from the call's value, but
    # raising is the error channel, so the value is not returned as a success.
    raised: dict[int, frozenset[str] | None] = {}
    for fact in facts.raises:
        exc = facts.value_of(fact.node.exc) if fact.node.exc is not None else None
        if isinstance(exc, cst.Call) and _is_tool_error(exc, aliases):
            for call, mode in flow.reach(fact.node.exc)[0].items():
                raised[call] = merge_modes(raised[call], mode) if call in raised else mode
    local = set(walker.assignment_counts) | set(params)
    reads: dict[int, frozenset[str]] = {}
    facts.local_names = frozenset(local)
    for call in facts.calls:
        key = id(call.node)
        call.flows = key in returned and returned[key] is WHOLE
        call.feeds = key in returned or key in raised
        if call.feeds:
            modes = [where[key] for where in (returned, raised) if key in where]
            selected = modes[0] if len(modes) == 1 else merge_modes(*modes)
            call.selects = selected if selected is not WHOLE and "*" not in selected else None
        call.slot = slots.get(key)
        if call.exits:
            call.excludes = _excluded(call, local, reads)
    facts.text_flows = _text_flows(facts, flow)
    return facts


# Calls whose value is what the awaitables passed to them produce: `await asyncio.gather(a(), b())`
# (every argument), `await asyncio.wait_for(job(), 5)`, `wrap_future(future)` (the first). Calls
# taking a function instead (`to_thread(fn, x)`, `pool.submit(fn, x)`) return its value through
# CallbackFact; their other arguments are its inputs.
_VALUE_ARGUMENTS: dict[str, int | None] = {
    "gather": None,
    "wait_for": 0,
    "shield": 0,
    "create_task": 0,
    "ensure_future": 0,
    "wrap_future": 0,
    "run": 0,
}


def _through_passthrough(calls: list[CallFact], returned_ids: set[int], assigned: dict[str, cst.Call]) -> None:
    """A returned `gather(a(), b())`/`wait_for(job(), t)` returns what its argument calls return,
    also through a local: `future = pool.submit(work); return await wrap_future(future)`."""
    pending = [call.node for call in calls if id(call.node) in returned_ids]
    while pending:
        node = pending.pop()
        name = dotted(node.func)
        if name is None or name.rsplit(".", 1)[-1] not in _VALUE_ARGUMENTS:
            continue
        which = _VALUE_ARGUMENTS[name.rsplit(".", 1)[-1]]
        positional = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
        for value in positional if which is None else positional[which : which + 1]:
            value = _unwrap_awaited(value)
            if isinstance(value, cst.Name) and value.value in assigned:
                value = assigned[value.value]
            if isinstance(value, cst.Call) and id(value) not in returned_ids:
                returned_ids.add(id(value))
                pending.append(value)


def _callbacks(walker: _BodyWalker, qualname: str, params: tuple[str, ...]) -> list[CallbackFact]:
    """Functions passed as arguments: a function defined here or at module level, an imported
    one, or a method of `self` or of a typed local (`client.get_me`). Local variables holding
    data (`rows`, `url`) are not functions: they are left out."""
    out: list[CallbackFact] = []
    for expr, call in walker.arguments:
        name = dotted(expr)
        if name is None:
            continue
        root, _, rest = name.partition(".")
        if not rest and root in walker.nested_defs:
            out.append(CallbackFact(f"{qualname}.{root}", call))
        elif root in walker.local_instances and rest:
            out.append(CallbackFact(f"{walker.local_instances[root]}.{rest}", call))
        elif (root in params and root not in {"self", "cls"}) or root in walker.assignment_counts:
            continue  # a parameter or local: what it holds is not known here
        elif rest and root not in {"self", "cls"} and walker.aliases.resolve_dotted(name) is None:
            continue  # `obj.attr` on a module-level object: a value, not a method we can name
        else:
            callee = walker.resolve_callee(expr)
            if callee is not None:
                out.append(CallbackFact(callee, call))
    return out


def is_foreign_handler(
    handler: Handler,
    aliases: AliasTable,
    body_calls_foreign_code: Callable[[], bool],
    body_calls_library_code: Callable[[], bool] | None = None,
) -> bool:
    """Can the caught exception carry text written by someone other than the author?

    Broad builtin classes count only when the try body runs foreign code (a call that is not a
    harmless builtin, an await, a `with`): a body that only raises the author's own literal
    messages keeps them curated. Narrow builtin classes (ValueError, KeyError...) count only when
    the body calls library code: raised by the project's own functions (`self._check(x)`,
    `validate(x)`), their text is the author's. So do library classes (json.JSONDecodeError,
    binascii.Error): a body that only parses the tool's own arguments (`json.loads(filters)`)
    produces text about the model's own input, which it can act on. OS/network classes always
    count; the project's own classes and the frameworks' ToolError never do.
    """
    from mcp_lint.model.frameworks import FRAMEWORK_DOMAIN_ERRORS

    own_package = aliases.module.split(".")[0]
    if not handler.caught:
        return body_calls_foreign_code()
    for name in handler.caught:
        short = last_name(name)
        if name in FRAMEWORK_DOMAIN_ERRORS or short in {"ToolError", "McpError", "MCPError", "FastMCPError"}:
            continue
        builtin = name[len("builtins.") :] if name.startswith("builtins.") else name
        if builtin in BROAD_ERRORS:
            if body_calls_foreign_code():
                return True
        elif builtin in NARROW_BUILTIN_ERRORS:
            if (body_calls_library_code or body_calls_foreign_code)():
                return True
        elif builtin in FOREIGN_BUILTIN_ERRORS:
            return True
        elif "." in name:
            root = name.split(".")[0]
            if root == own_package or short in aliases.relative_names:
                continue  # the project's own exception class
            # httpx.HTTPError, botocore.exceptions.ClientError, json.JSONDecodeError...
            if body_calls_foreign_code():
                return True
        # A bare name that is not imported is defined in this module: the author's own class.
    return False


def _imported_class(name: str, aliases: AliasTable) -> bool:
    """A caught class imported from outside this module's package (`httpx.HTTPError`, or a
    sibling top-level module's `errors.ApiError`): library code unless the linker finds it in the
    project."""
    from mcp_lint.model.frameworks import FRAMEWORK_DOMAIN_ERRORS

    if "." not in name or name.startswith("builtins.") or name in FRAMEWORK_DOMAIN_ERRORS:
        return False
    own_package = aliases.module.split(".")[0]
    return name.split(".")[0] != own_package and last_name(name) not in aliases.relative_names


class _TryBodyScan:
    """What a `try` body runs, walked once (on first question) however many classes ask."""

    def __init__(self, try_node: cst.Try | cst.TryStar, aliases: AliasTable, params: frozenset[str]) -> None:
        self.try_node = try_node
        self.aliases = aliases
        self.params = params
        self._finder: _ForeignCallFinder | None = None

    def _scan(self) -> _ForeignCallFinder:
        if self._finder is None:
            self._finder = _ForeignCallFinder(self.aliases, self.params)
            self._finder.walk(self.try_node.body)
        return self._finder

    def calls_foreign_code(self) -> bool:
        """Anything but harmless builtins, parsers of the parameters included."""
        finder = self._scan()
        return bool(finder.found) or finder.runs_other_code or finder.parsed_parameter

    def beyond_parameters(self) -> bool:
        """Foreign code other than parsing the function's own parameters."""
        finder = self._scan()
        return bool(finder.found) or finder.runs_other_code

    def calls_library_code(self) -> bool:
        """A call of code outside the project (parsers of the parameters included)."""
        finder = self._scan()
        return bool(finder.found) or finder.parsed_parameter

    def library_beyond_parameters(self) -> bool:
        return bool(self._scan().found)


_BUILTIN_NAMES = frozenset(dir(builtins))
# The receiver's last name ends like a client (`client`, `self.http`, `db`), not `client_config`.
_CLIENT_LIKE = re.compile(r"(?:client|session|http|api|conn|connection|cursor|db|requests|sdk|service|s3|boto)$", re.I)


# Parsers whose error text describes their input: applied to a tool argument, that text is about
# what the model itself sent ("Expecting ',' delimiter: line 1 column 15").
ARGUMENT_PARSERS = frozenset(
    {
        "json.loads",
        "yaml.safe_load",
        "yaml.load",
        "tomllib.loads",
        "base64.b64decode",
        "base64.urlsafe_b64decode",
        "base64.b64encode",
        "ast.literal_eval",
        "datetime.fromisoformat",
        "datetime.datetime.fromisoformat",
        "datetime.datetime.strptime",
        "datetime.date.fromisoformat",
        "datetime.strptime",
        "date.fromisoformat",
        "dateutil.parser.parse",
        "dateutil.parser.isoparse",
        "uuid.UUID",
        "re.compile",
        "ipaddress.ip_address",
        "ipaddress.ip_network",
        "urllib.parse.urlparse",
        "shlex.split",
    }
)


# Pydantic entry points that validate a payload into a model (`Args.model_validate(arguments)`).
MODEL_VALIDATORS = frozenset(
    {"model_validate", "model_validate_json", "model_validate_strings", "parse_obj", "parse_raw", "validate_python", "validate_json"}
)


class _ForeignCallFinder(FindingVisitor):
    def __init__(self, aliases: AliasTable, params: frozenset[str] = frozenset()) -> None:
        self.aliases = aliases
        self.params = params
        self.found = False  # a call of library code: ends the walk
        # An await, a `with`, a call of the project's own code (see _project_call): foreign code
        # for a broad `except`, not for a narrow builtin one.
        self.runs_other_code = False
        self.parsed_parameter = False  # an ARGUMENT_PARSERS call on a parameter was seen
        self.in_raise = 0

    def visit_Raise(self, node: cst.Raise) -> None:
        self.in_raise += 1

    def leave_Raise(self, original_node: cst.Raise) -> None:
        self.in_raise -= 1

    def visit_Await(self, node: cst.Await) -> None:
        self.runs_other_code = True

    def visit_Yield(self, node: cst.Yield) -> None:
        # In a context manager (`@contextmanager def reported(): try: yield`), the caller's
        # `with` body runs here: any library code.
        self.found = True

    def _parses_an_argument(self, node: cst.Call) -> bool:
        """The parser's input is one of the tool's parameters (`filters`, `args["when"]`)."""
        if not node.args:
            return False
        base: cst.BaseExpression = node.args[0].value
        while isinstance(base, (cst.Subscript, cst.Attribute)):
            base = base.value
        return isinstance(base, cst.Name) and base.value in self.params

    def _validates_arguments(self, node: cst.Call, name: str) -> bool:
        """The author's argument model built from the function's parameters: `Args(**params)`,
        `Args(query=query)`, `Args.model_validate(arguments)`. A pydantic error then describes
        what the model sent, which it can correct."""
        parts = name.split(".")
        if parts[-1] in MODEL_VALIDATORS and len(parts) >= 2:
            return self._parses_an_argument(node)
        if len(parts) != 1 or not parts[0][:1].isupper() or parts[0] in _BUILTIN_NAMES or not node.args:
            return False
        if parts[0] in self.aliases.aliases and not self._project_call(name):
            return False  # a library class: its own validation is not the author's argument model
        return all(self._from_parameters(argument.value) for argument in node.args)

    def _from_parameters(self, value: cst.BaseExpression) -> bool:
        while isinstance(value, (cst.Subscript, cst.Attribute)):
            value = value.value
        return isinstance(value, cst.Name) and value.value in self.params

    def visit_With(self, node: cst.With) -> None:
        # Context managers (open(), client sessions, transactions) run foreign code.
        self.runs_other_code = True

    def visit_Call(self, node: cst.Call) -> None:
        if self.in_raise:
            return
        name = dotted(node.func)
        if name is None:
            # `get_config().get_client_config()`, `handlers[name](args)`: the call that made the
            # receiver is visited on its own and decides; this one alone is foreign code the
            # linker cannot resolve, not library code.
            self.runs_other_code = True
            return
        if name in BENIGN_CALLS:
            return
        if (self.aliases.resolve_dotted(name) or name) in ARGUMENT_PARSERS and self._parses_an_argument(node):
            self.parsed_parameter = True
            return
        if self._validates_arguments(node, name):
            self.parsed_parameter = True
            return
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "decode" and not self._from_parameters(node.func.value):
            # `raw.decode("utf-8")` of bytes the tool fetched: the codec's text is about data the
            # model never saw (of a parameter, it is about what the model sent).
            self.found = True
            return
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in BENIGN_METHODS:
            if node.func.attr.value not in RECEIVER_DEPENDENT_METHODS:
                return
            # `d.get(k)` is harmless; `httpx.get(url)` / `client.get(url)` is I/O.
            receiver = dotted(node.func.value) or ""
            root = receiver.split(".")[0]
            if receiver and root not in self.aliases.aliases and not _CLIENT_LIKE.search(receiver):
                return
        if self._project_call(name):
            self.runs_other_code = True
        else:
            self.found = True

    def _project_call(self, name: str) -> bool:
        """A call of the project's own code, as written: a method of this class (`self._check`),
        a name imported from this project, or a name neither imported nor builtin (defined in
        this module). `self.client.get()` and `obj.method()` may be anything: not counted."""
        parts = name.split(".")
        if parts[0] in {"self", "cls"}:
            return len(parts) == 2
        resolved = self.aliases.resolve_dotted(name)
        if resolved is None:
            return len(parts) == 1 and parts[0] not in _BUILTIN_NAMES
        own_top = self.aliases.module.split(".")[0]
        return parts[0] in self.aliases.relative_names or bool(own_top) and resolved.split(".")[0] == own_top
