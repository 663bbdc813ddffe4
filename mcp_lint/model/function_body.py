"""The walk of one function body that fills its FunctionFacts.

One pass collects returns, raises, calls, `except` clauses, stores into locals and the tables
and callbacks calls go through, without entering nested functions or classes (their facts are
their own). What needs the whole body afterwards is settled in `collect_facts`: which clauses
catch foreign text (exception_origin) and where calls' values go (returned_values).
"""

from __future__ import annotations

import builtins
import functools
from typing import Callable, Iterator, Mapping

import libcst as cst

from mcp_lint.engine.libcst_cfg import ClassBases, shadowed_clauses
from mcp_lint.model.exception_guards import Handler, TryGuard, caught_names, try_guard
from mcp_lint.model.element_tracker import ElementTracker
from mcp_lint.model.elements import ELEMENT, taken_from
from mcp_lint.model.exception_origin import classify_handlers
from mcp_lint.model.facts import LIFESPAN, CallbackFact, CallFact, DynamicCall, FunctionFacts, RaiseFact, ReturnFact, branch_name
from mcp_lint.model.flow import (
    CONTAINER_ADDERS,
    RUNS_A_FUNCTION,
    SEQUENCE_EXTENDERS,
    Store,
    ValueFlow,
    failure_checked,
    leaves,
    store_keys,
    store_slot,
)
from mcp_lint.model.failure_tests import found_failed
from mcp_lint.model.library_tables import VALUE_ARGUMENTS
from mcp_lint.model.message_text import GATHERED, TEXT_ATTRIBUTES, find_exception_text
from mcp_lint.model.names import NAME_OR_ATTRIBUTE, AliasTable, dotted, last_name, root_of, unwrap_await
from mcp_lint.model.returned_values import text_flows, trace_returned_calls
from mcp_lint.model.walk import SCOPES, FastVisitor, children

_BUILTIN_NAMES = frozenset(dir(builtins))


class _BodyWalker(FastVisitor):
    """Collects facts of one function body without entering nested functions or classes."""

    def __init__(
        self,
        facts: FunctionFacts,
        aliases: AliasTable,
        resolve_callee,
        resolve_type=None,
        constants: Mapping[str, list[cst.BaseExpression]] | None = None,
        class_bases: ClassBases | None = None,
    ) -> None:
        self.facts = facts
        self.class_bases = class_bases
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
        # (function a lambda argument's body calls, the call it is passed to).
        self.lambda_callees: list[tuple[str, CallFact]] = []
        # Locals holding a function looked up in a table: `handler = HANDLERS.get(name)`.
        self.table_locals: dict[str, tuple[str, str | None]] = {}
        # Names this body declares `global` (a module's state set by one tool, read by others).
        self.global_names: set[str] = set()
        self.assignment_counts: dict[str, int] = {}
        self.loop_sources: dict[str, list[cst.BaseExpression]] = {}  # loop target -> what each loop iterates
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
        # Collections of objects filled here, and locals holding one of their elements.
        self.elements = ElementTracker(facts, resolve_callee, self.resolve_type, aliases, constants, self.assignment_counts)

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
            caught = caught_names(handler, self.aliases, self.constants)
            records.append(Handler(handler, node, caught, _as_name(handler), site=site, parent=self._handler()))
        self.guards.append(try_guard(node, records))
        self.walk(node.body)
        self.guards.pop()
        # A clause an earlier clause already catches everything of never runs: its body is dead
        # code, not walked (its record stays, for the clause order TryGuard and the fixes read).
        shadowed = shadowed_clauses(node, self.class_bases) if len(node.handlers) > 1 else frozenset()
        for index, (handler, record) in enumerate(zip(node.handlers, records)):
            self.facts.handlers.append(record)
            if index in shadowed:
                record.shadowed = True
                self._skipped_handler_parts(handler, before_body=True, whole=True)
                continue
            self.handlers.append(record)
            self._skipped_handler_parts(handler, before_body=True)
            self.walk(handler.body)
            self._skipped_handler_parts(handler, before_body=False)
            self.handlers.pop()
        if node.orelse is not None:
            self.walk(node.orelse)
        if node.finalbody is not None:
            self.walk(node.finalbody)
        return False

    def _skipped_handler_parts(self, handler: cst.ExceptHandler | cst.ExceptStarHandler, before_body: bool, whole: bool = False) -> None:
        """An `except` clause's type and name (`whole`: all of it), which this walk does not enter
        (see _Recorder)."""

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
        checked = self.checked
        if checked and self.conditions:
            # A return under a test that finds a checked local failed again (`if r.get("status")
            # == "error": return f"...{r['message']}"` after `if r.get("status") == "empty":
            # return ...`) sends its failure: the earlier check did not leave on every failure.
            checked = checked - found_failed(self.conditions)
        self.facts.returns.append(ReturnFact(node, self._handler(), tuple(self.conditions), checked))
        value = node.value
        if type(value) is cst.Name:  # exact type: once per return
            self._reaching(value)
        elif type(value) in _CONTAINERS:
            # `return Result(items=[Item(title=error_msg)])`: the locals a result is built from.
            for name in _argument_names(value):
                self._reaching(name)

    def _reaching(self, name: cst.Name) -> None:
        """`error_msg = f"Invalid URL: {url}"; return error_msg` in one branch, another message in
        the next: the local is assigned more than once, yet what this read returns is the last
        assignment walked, when that one is a plain assignment in the same branch and handler
        (nothing assigned it since, on any path: it is the last store of all)."""
        stores = self.stores.get(name.value)
        if not stores:
            return
        # `message = "Failed to convert ..."` then `message += ...` lines: the text starts with the
        # assignment's (FunctionFacts.reaching_prefixes).
        at = len(stores) - 1
        while at > 0 and self._here(stores[at]) and _is_appended(stores[at].statement):
            at -= 1
        first = stores[at]  # (a local assigned once in the whole body: single_assignments answers first)
        if type(first.statement) in _PLAIN_ASSIGNMENTS and first.position is None and first.slot is None and not first.element and self._here(first):
            if at == len(stores) - 1:
                self.facts.reaching_values[id(name)] = first.value
            else:
                self.facts.reaching_prefixes[id(name)] = first.value

    def _here(self, store: Store) -> bool:
        """Was `store` made in the branch and handler being walked (same enclosing `if` tests)?"""
        return (
            store.handler is self._handler()
            and len(store.conditions) == len(self.conditions)
            and all(a is b for a, b in zip(store.conditions, self.conditions))
        )

    def visit_Raise(self, node: cst.Raise) -> None:
        exc = node.exc
        if type(exc) is cst.Call and exc.args and type(exc.args[0].value) is cst.Name:
            self._reaching(exc.args[0].value)  # `raise ToolError(msg)` after `msg = "..."`
        self.facts.raises.append(
            RaiseFact(node, self._handler(), tuple(self.conditions), tuple(self.else_of), self._guarded(), tuple(self.managers))
        )

    def _callee(self, node: cst.Call, name: str | None) -> str | None:
        """The qualified name of the function `node` calls, when it can be named here."""
        callee = self.elements.callee(node, name)
        if callee is not None:
            return callee  # a method of an object taken out of a collection of objects
        if name is not None and ".lifespan_context." in f".{name}":
            # `ctx.request_context.lifespan_context.db.query()`: the linker types the context
            # from the server's lifespan function (what it yields).
            callee = LIFESPAN + name.split("lifespan_context", 1)[1]
        elif name is not None and "." in name:
            root, rest = name.split(".", 1)
            if root in self.local_instances:
                callee = f"{self.local_instances[root]}.{rest}"
            elif "." not in rest:
                callee = self._method_of_caught(root, rest)
        elif name is None and type(node.func) is cst.Attribute:
            member = _lifespan_key(unwrap_await(node.func.value))
            # `ctx.request_context.lifespan_context["api"].fetch(x)`: the entry read in one chain,
            # typed as `api = ...lifespan_context["api"]; api.fetch(x)` is.
            callee = f"{LIFESPAN}.{member}.{node.func.attr.value}" if member else self._method_of_result(node.func)
        if callee is None:
            callee = self.resolve_callee(node.func)
        return callee

    def _lambda_callee(self, node: cst.Lambda) -> str | None:
        """`run_with_retry(lambda: Tool().execute(x))`: the function the lambda's body calls,
        which the callee runs when it calls the lambda. Not a call on the lambda's own
        parameters (`key=lambda row: row.get("id")`): what they hold is not known here."""
        body = unwrap_await(node.body)
        if type(body) is not cst.Call:
            return None
        name = dotted(body.func)
        own = {param.name.value for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)}
        if name is not None and name.split(".", 1)[0] in own:
            return None
        return self._callee(body, name)

    def visit_Call(self, node: cst.Call) -> None:
        name = dotted(node.func)
        callee = self._callee(node, name)
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
        takes_function = name is not None and name.rsplit(".", 1)[-1] in RUNS_A_FUNCTION
        for arg in node.args if takes_function else ():
            if type(arg.value) is cst.Subscript:  # `to_thread(registry[name], **args)`
                lookup = self._table_lookup(arg.value)
                if lookup is not None:
                    self.facts.dynamic_calls.append(DynamicCall(lookup[0], fact, lookup[1]))
        for arg in node.args:  # exact types (none has subclasses): ABC isinstance is slow, and this is every argument
            value = arg.value
            if type(value) is cst.Call and last_name(dotted(value.func)) == "partial" and value.args:
                value = value.args[0].value  # `run_sync(partial(work, x))` runs `work`
            if type(value) in NAME_OR_ATTRIBUTE and not arg.star:
                self.arguments.append((value, fact))
            elif type(value) is cst.Lambda:
                runs = self._lambda_callee(value)
                if runs is not None:
                    self.lambda_callees.append((runs, fact))

    def _table_lookup(self, expr: cst.BaseExpression) -> tuple[str, str | None] | None:
        """(table, getattr prefix) when `expr` is a function looked up by a key computed at run
        time: `T[k]`, `T.get(k)`, `getattr(self, f"_tool_{k}")`, or a local assigned one of these."""
        kind = type(expr)  # exact types: asked of every call's function, and ABC checks are slow
        if kind is cst.Name:
            return self.table_locals.get(expr.value)
        if kind is cst.Subscript:
            index = expr.slice[0].slice if len(expr.slice) == 1 else None
            if type(index) is cst.Index and type(index.value) not in (cst.SimpleString, cst.Integer):
                return self._table_name(expr.value), None
            if type(index) is cst.Index and type(index.value) is cst.SimpleString:
                return self._row_lookup(expr.value)  # `REGISTRY[name]["function"]`, `tool["function"]`
            return None
        if kind is not cst.Call or not expr.args:
            return None
        key = expr.args[0].value
        if type(expr.func) is cst.Attribute and expr.func.attr.value == "get" and type(key) is cst.SimpleString:
            return self._row_lookup(expr.func.value)  # `tool.get("handler")`
        if type(expr.func) is cst.Attribute and expr.func.attr.value == "get" and type(key) is not cst.SimpleString:
            return self._table_name(expr.func.value), None
        if dotted(expr.func) == "getattr" and len(expr.args) >= 2 and dotted(key) in {"self", "cls"}:
            name = expr.args[1].value
            if type(name) is cst.FormattedString:
                first = name.parts[0] if name.parts else None
                return "", first.value if type(first) is cst.FormattedStringText else ""
            if type(name) in (cst.Name, cst.Attribute):
                return "", ""
        return None

    def _row_lookup(self, row: cst.BaseExpression) -> tuple[str, str | None] | None:
        """The table of a registry row looked up by a run-time key (`REGISTRY[name]`, or a local
        assigned one): its functions are those of the rows (FunctionReferences._function_table)."""
        kind = type(row)
        if kind is cst.Name or kind is cst.Subscript or kind is cst.Call:
            lookup = self._table_lookup(row)
            if lookup is not None and lookup[1] is None:
                return lookup
        return None

    def _table_name(self, expr: cst.BaseExpression) -> str:
        """The qualified name of a table: a module-level or imported name, or "<builder>()" for a
        local assigned a table-building function's result; "" when not known (a parameter)."""
        name = dotted(expr)
        if name is None:
            return ""
        if name.split(".")[0] in {"self", "cls"}:
            # `self._tools[name]`: the object's table, kept by its attribute (analysis._table_targets).
            return name if name.count(".") == 1 else ""
        if "." not in name and name in self.assigned_calls:
            builder = self.resolve_callee(self.assigned_calls[name].func)
            return f"{builder}()" if builder else ""
        if name.split(".")[0] in self.facts.params or name.split(".")[0] in self.assignment_counts:
            return ""
        return self.resolve_callee(expr) or ""

    def _method_of_result(self, func: cst.Attribute) -> str | None:
        """`get_client().fetch` -> "<get_client>.fetch": the linker looks the method up on what
        the factory returns (its return annotation, or the class itself); an attribute of it on
        the way (`get_state().client.fetch` -> "<get_state>.client.fetch") is typed there too."""
        inner = unwrap_await(func.value)
        members: list[str] = []
        while type(inner) is cst.Attribute:
            members.insert(0, inner.attr.value)
            inner = unwrap_await(inner.value)
        if type(inner) is not cst.Call:
            return None
        made_by = dotted(inner.func)
        if made_by is None:
            # `get_factory().domains().list()`: a method of what a method of a result returns.
            factory = self._method_of_result(inner.func) if type(inner.func) is cst.Attribute else None
            return ".".join((factory, *members, func.attr.value)) if factory else None
        root, _, rest = made_by.partition(".")
        if rest and root in self.local_instances:
            factory = f"{self.local_instances[root]}.{rest}"
        else:
            factory = self.resolve_callee(inner.func)
        return ".".join((factory, *members, func.attr.value)) if factory else None

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
        if node.asname is not None and type(node.asname.name) is cst.Name:
            self._remember_instance(node.asname.name.value, node.item)

    def _remember_global(self, name: str, value: cst.BaseExpression) -> None:
        """`global conn; conn = store` with `store` an object made here or taken out of a
        collection of classes or objects (`store = KINDS[kind]()`): calls on the module's `conn`
        in other functions run that object's methods (FunctionFacts.global_instances; a plain
        `conn = Api()` is the module walk's typed name)."""
        value = unwrap_await(value)
        made: str | None = None
        if type(value) is cst.Name:
            holder = self.elements.element_locals.get(value.value)
            made = f"{holder}.{ELEMENT}" if holder else self.local_instances.get(value.value)
        elif type(value) is cst.Call:
            holder = taken_from(value, self.elements.collection_name)
            made = f"{holder}.{ELEMENT}" if holder else None
        if made and made != LIFESPAN and not made.startswith(LIFESPAN + "."):
            self.facts.global_instances.setdefault(name, made)

    def _remember_instance(self, name: str, value: cst.BaseExpression) -> None:
        while type(value) is cst.Await:
            value = value.expression
        if type(value) is cst.Call:
            self.assigned_calls[name] = value
            resolved = self.resolve_callee(value.func)
            if resolved is not None and _lifespan_key(value) is None:  # `.get("api")` of a lifespan dict: set above
                self.local_instances[name] = resolved

    def visit_Global(self, node: cst.Global) -> None:
        self.global_names.update(item.name.value for item in node.names)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and type(node.targets[0].target) is cst.Name and node.targets[0].target.value in self.global_names:
            self._remember_global(node.targets[0].target.value, node.value)
        if len(node.targets) == 1:
            self.elements.assigned_to(node.targets[0].target, node.value)
        if any(type(t.target) in (cst.Subscript, cst.Attribute) for t in node.targets):
            self.facts.has_item_assignment = True
            value = node.value.expression if type(node.value) is cst.Await else node.value
            if type(value) is cst.Call:
                for target in node.targets:
                    name = dotted(target.target)
                    if name and name.startswith("self.") and name.count(".") == 1:
                        callee = self.resolve_callee(value.func)
                        if callee:
                            self.facts.self_instances[name[5:]] = callee
            elif type(value) is cst.Name and value.value in self.local_instances:
                for target in node.targets:  # `self.client = client` of a typed parameter
                    name = dotted(target.target)
                    if name and name.startswith("self.") and name.count(".") == 1:
                        self.facts.self_instances.setdefault(name[5:], self.local_instances[value.value])
        value_name = dotted(node.value)
        if len(node.targets) == 1 and type(node.targets[0].target) is cst.Name and value_name and value_name.endswith("lifespan_context"):
            self.local_instances[node.targets[0].target.value] = LIFESPAN  # `app = ctx.request_context.lifespan_context`
        elif len(node.targets) == 1 and type(node.targets[0].target) is cst.Name and value_name and ".lifespan_context." in f".{value_name}":
            # `connector = ctx.request_context.lifespan_context.connector`: a member of what the
            # server's lifespan yields, typed by the linker like the direct chain.
            self.local_instances[node.targets[0].target.value] = LIFESPAN + value_name.split("lifespan_context", 1)[1]
        elif len(node.targets) == 1 and type(node.targets[0].target) is cst.Name and (member := _lifespan_key(node.value)):
            # `api = ctx.request_context.lifespan_context["api"]` (or `.get("api")`): a lifespan
            # yielding a dict, whose entry the linker types like an attribute.
            self.local_instances[node.targets[0].target.value] = f"{LIFESPAN}.{member}"
        for target in node.targets:
            self._store(target.target, node.value, node, unpacks=True)
        if len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            lookup = self._table_lookup(unwrap_await(node.value)) if type(node.value) is not cst.Name else None
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
                if type(target.target) is cst.Name:
                    handler.tainted.add(target.target.value)
        elif len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            self._alias_part(node.targets[0].target.value, node.value)
        for target in node.targets:
            if type(target.target) is cst.Name:
                self._taint_outer(target.target.value, node.value)

    def _store(
        self,
        target: cst.BaseExpression,
        value: cst.BaseExpression,
        statement: cst.BaseSmallStatement | None,
        unpacks: bool = False,
        element: bool = False,
    ) -> None:
        if type(target) is cst.Name:  # the common case, kept cheap
            self.stores.setdefault(target.value, []).append(
                Store(target.value, value, statement, self._handler(), tuple(self.conditions) if self.conditions else (), None, None, element)
            )
            return
        if type(target) is cst.IfExp:
            # `(done if ok else failed).append(v)`: either container may hold v.
            for branch in (target.body, target.orelse):
                self._store(branch, value, statement, unpacks, element)
            return
        conditions = tuple(self.conditions)
        if unpacks and type(target) in (cst.Tuple, cst.List):
            # `ok, message = helper()`: each name holds one element of the value.
            for index, element in enumerate(target.elements):
                position = None if type(element) is cst.StarredElement else index
                for key in store_keys(element.value):
                    self.stores.setdefault(key, []).append(Store(key, value, statement, self._handler(), conditions, None, position))
            return
        slot = store_slot(target)
        # `results[symbol] = v` like `results.append(v)`: one element of a collection.
        element = element or (type(target) is cst.Subscript and slot is None)
        for key in store_keys(target):
            if "." in key and key.split(".", 1)[0] in {"self", "cls"}:
                continue  # the object's state, read by other methods: not a local value
            self.stores.setdefault(key, []).append(Store(key, value, statement, self._handler(), conditions, slot, None, element))

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        # `if (match := pattern.search(text)):` binds a local like an assignment.
        for name in _target_names(node.target):
            self._count_assignment(name, None)
        self._store(node.target, node.value, None)
        if type(node.target) is cst.Name:
            # `if (err := check()): return err` returns the call's value as `err = check()` does.
            self._remember_instance(node.target.value, node.value)

    def visit_Expr(self, node: cst.Expr) -> None:
        # `errors.append(f"...{e}")`, `seen.add(x)`, `info.update(...)`: the container holds the value.
        call = node.value.expression if type(node.value) is cst.Await else node.value
        if type(call) is cst.Call and type(call.func) is cst.Attribute and call.func.attr.value in CONTAINER_ADDERS:
            self.elements.added(call)
            # `x.extend(v)` is `x += v`, `x.update(v)` is `x |= v`: v's items become x's, v is no
            # one element of it (a failure dict merged into the returned dict makes it one).
            element = call.func.attr.value not in SEQUENCE_EXTENDERS and call.func.attr.value != "update"
            for argument in call.args:
                self._store(call.func.value, argument.value, node, element=element)

    def _count_assignment(self, name: str, value: cst.BaseExpression | None) -> None:
        self.assignment_counts[name] = self.assignment_counts.get(name, 0) + 1
        if value is not None:
            self.facts.single_assignments[name] = value

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if type(node.target) in (cst.Subscript, cst.Attribute):
            self.facts.has_item_assignment = True
        for name in _target_names(node.target):
            self._count_assignment(name, None)
        self._store(node.target, node.value, node)
        handler = self._handler()
        if handler is not None and type(node.target) is cst.Name and _mentions_exception_text(node.value, handler):
            handler.tainted.add(node.target.value)
        if type(node.target) is cst.Name:
            self._taint_outer(node.target.value, node.value)

    def visit_For(self, node: cst.For) -> None:
        self.statement = node
        self.elements.looped(node.target, node.iter)
        for name in _target_names(node.target):
            self._count_assignment(name, None)
            self._count_assignment(name, None)
            self.loop_sources.setdefault(name, []).append(node.iter)
        self._store(node.target, node.iter, None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.elements.assigned_to(node.target, node.value, node.annotation.annotation)
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
        elif node.value is not None and type(node.target) is cst.Name:
            self._remember_instance(node.target.value, node.value)
        handler = self._handler()
        if handler is not None and node.value is not None and type(node.target) is cst.Name:
            if _mentions_exception_text(node.value, handler):
                handler.tainted.add(node.target.value)
            self._taint_outer(node.target.value, node.value)

    def _handler(self) -> Handler | None:
        return self.handlers[-1] if self.handlers else None

    def _alias_part(self, name: str, value: cst.BaseExpression) -> None:
        """`response = e.response` in a clause (or a clause nested in its body): the local holds
        a part of the caught exception that is no text itself; its text attributes
        (`response.text`, `response.json()`) are the exception's text as `e.response.text` is."""
        chain = dotted(value) if type(value) is cst.Attribute else None
        if not chain:
            return
        root, _, rest = chain.partition(".")
        if any(p in TEXT_ATTRIBUTES for p in rest.split(".")):
            return
        handler = self._handler()
        while handler is not None:
            if handler.name == root:
                handler.parts.add(name)
                return
            handler = handler.parent

    def _taint_outer(self, name: str, value: cst.BaseExpression) -> None:
        """A local assigned, in a clause nested in another clause's body, the outer clause's
        exception text (`except ApiError as e: try: ... except ValueError: message = str(e)`):
        it holds that text where the outer clause reads it after the inner `try`. A value that
        carries the inner clause's own exception text is that clause's flow (reported there)."""
        innermost = self._handler()
        if innermost is None or innermost.parent is None or _mentions_exception_text(value, innermost):
            return
        outer = innermost.parent
        while outer is not None:
            if outer.name and innermost.within(outer) and _mentions_exception_text(value, outer):
                outer.tainted.add(name)
            outer = outer.parent

    def _method_of_caught(self, name: str, method: str) -> str | None:
        """`except RecordError as e: return e.as_dict()`: a method called on the caught exception
        is the caught class's method (one class, qualified: a class of a module, not a builtin;
        a class of the function's own package, as a typed local's is). None for anything else:
        a library exception's method stays an unknown call."""
        handler = self._handler()
        while handler is not None and handler.name != name:
            handler = handler.parent
        if handler is None or len(handler.caught) != 1 or handler.node.type is None or handler.caught[0] in _BUILTIN_NAMES:
            return None
        caught = self.resolve_callee(handler.node.type)  # a class of this module qualified too
        if caught is None or caught.split(".")[0] != self.facts.qualname.split(".")[0]:
            return None
        return f"{caught}.{method}"

    def _guarded(self) -> frozenset[TryGuard]:
        return frozenset(self.guards)


_BUILTIN_NAMES = frozenset(dir(builtins))


def _returns_exceptions(call: cst.Call) -> bool:
    return any(
        a.keyword is not None and a.keyword.value == "return_exceptions" and type(a.value) is cst.Name and a.value.value == "True"
        for a in call.args
    )


def _target_names(target: cst.BaseExpression) -> list[str]:
    if type(target) is cst.Name:
        return [target.value]
    if type(target) in (cst.Tuple, cst.List):
        return [n for el in target.elements for n in _target_names(el.value)]
    return []


def _as_name(handler: cst.ExceptHandler) -> str | None:
    if handler.name is not None and type(handler.name.name) is cst.Name:
        return handler.name.name.value
    return None


def _mentions_exception_text(expr: cst.CSTNode, handler: Handler) -> bool:
    return find_exception_text(expr, handler) is not None


def _items_of_parameters(single: Mapping[str, cst.BaseExpression], params: tuple[str, ...]) -> dict[str, str]:
    """Locals assigned once from an item of a parameter (`pattern = filters[name]`, `raw =
    arguments.get("when")`, `text = request.query`): what a parser makes of them is what the
    model sent, as for the parameter itself. Local -> the parameter."""
    items = {}
    for name, value in single.items():
        if type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value == "get":
            value = value.func.value
        elif type(value) not in (cst.Subscript, cst.Attribute):
            continue
        value = root_of(value)
        if type(value) is cst.Name and value.value in params and value.value not in {"self", "cls"}:
            items[name] = value.value
    return items


def _loop_items(walker: _BodyWalker, params: tuple[str, ...]) -> dict[str, str]:
    """Targets of loops over one parameter that nothing else assigns (`for lead in leads`, `for i,
    lead in enumerate(leads)`): local -> the parameter."""
    items = {}
    for name, sources in walker.loop_sources.items():
        if name in params or walker.assignment_counts.get(name, 0) != 2 * len(sources) or len(sources) != 1:
            continue
        source = sources[0]
        if type(source) is cst.Call and dotted(source.func) == "enumerate" and source.args:
            source = source.args[0].value
        root = root_of(source)
        if type(root) is cst.Name and root.value in params and root.value not in {"self", "cls"}:
            items[name] = root.value
    return items


def collect_facts(
    node: cst.FunctionDef,
    qualname: str,
    class_name: str | None,
    aliases: AliasTable,
    resolve_callee,
    resolve_type=None,
    outer_types: dict[str, str] | None = None,
    outer_collections: dict[str, str] | None = None,
    constants: Mapping[str, list[cst.BaseExpression]] | None = None,
    record: tuple[tuple[frozenset[type], frozenset[type]], list[tuple[cst.CSTNode, int]]] | None = None,
    class_bases: ClassBases | None = None,
) -> FunctionFacts:
    """Facts of one function; `resolve_type` names the class an annotation stands for,
    `outer_types` are the typed locals of the enclosing function (closure variables), and
    `constants` the module's tuples/lists so far (`except EXPECTED_ERRORS` reads them).

    `record`: ((visited, left) node classes, events): the walk also appends to `events`, in the
    order a plain walk of the function's children meets them, `(node, VISIT)` for nodes of a
    `visited` class, `(node, LEAVE)` after those of a `left` class, and `(node, SUBTREE)` for each
    part it does not enter itself (nested functions, classes, lambdas, `except` types and
    names, shadowed `except` clauses): what another visitor needs to replay that walk without
    walking the body again. `class_bases`: the module's classes by the names clauses write
    (exception_guards.WrittenClassBases), so a clause for a subclass after its base's clause is
    known never to run."""
    params = tuple(p.name.value for p in (*node.params.posonly_params, *node.params.params))
    facts = FunctionFacts(node, qualname, node.name.value, class_name, params)
    facts.local_types = dict(outer_types) if outer_types else {}
    facts.local_collections = dict(outer_collections) if outer_collections else {}
    for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
        facts.local_types.pop(param.name.value, None)  # a parameter shadows the closure
        facts.local_collections.pop(param.name.value, None)
        typed = resolve_type(param.annotation.annotation) if resolve_type and param.annotation else None
        if typed is not None and param.name.value not in {"self", "cls"}:
            facts.local_types[param.name.value] = typed  # `def tool(db: Database)`
    walker = (_recorder(*record[0]) if record is not None else _BodyWalker)(
        facts, aliases, resolve_callee, resolve_type, constants, class_bases
    )
    for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
        if param.annotation is not None:
            walker.elements.parameter(param.name.value, param.annotation.annotation)  # `tools: list[Tool]`
    if record is not None:
        walker.events = record[1]
    walker.walk(node)
    _mark_returned_calls(facts, walker)
    for call in facts.calls:
        func = call.node.func
        if type(func) is cst.Name and func.value in walker.nested_defs:  # exact type: once per call
            call.callee = f"{qualname}.{func.value}"  # a function defined in this body
    facts.callbacks = _callbacks(walker, qualname, params)
    for name, count in walker.assignment_counts.items():
        if count != 1 or name in params:
            facts.single_assignments.pop(name, None)
    if facts.handlers:  # the items of parameters matter only to except clauses
        facts.parameter_items = _items_of_parameters(facts.single_assignments, params) | _loop_items(walker, params)
        # Keyword-only and star parameters are the caller's too (`def wrapper(**kwargs)`).
        others = [p.name.value for p in node.params.kwonly_params]
        others += [star.name.value for star in (node.params.star_arg, node.params.star_kwarg) if type(star) is cst.Param]
        classify_handlers(facts.handlers, aliases, frozenset(params) | frozenset(others) | frozenset(facts.parameter_items))
    flow = ValueFlow(walker.stores, _project_call_test(aliases, resolve_callee), node, class_bases)
    local = set(walker.assignment_counts) | set(params)
    facts.local_names = frozenset(local)
    trace_returned_calls(facts, flow, aliases, local)
    if facts.returns_type is None:
        facts.returned_objects = _returned_objects(facts, aliases, local) or _yielded_objects(node, aliases)
    if not facts.returned_objects:
        # Whatever the annotation says (`-> Callable[...]`): a closure factory's product.
        facts.returned_objects = _returned_closures(facts, walker.nested_defs)
    facts.text_flows = text_flows(facts, flow)
    _branch_values(facts, walker, flow)
    facts.flow_order = flow._order
    facts.value_flow = flow
    facts.stores = walker.stores
    return facts


def _returned_objects(facts: FunctionFacts, aliases: AliasTable, local: set[str]) -> tuple[str, ...]:
    """What a factory without a return annotation hands back, when every return (`return None`
    aside) names an imported module or makes an object of a class (`from . import local as store;
    return store`, `return Remote(url)`): the qualified names, in the order written. A call on the
    factory's value runs the function of that name in one of them (ProjectNames.candidates).
    Anything else returned (a local, a call of a function) says nothing of what it is."""
    found: list[str] = []
    for ret in facts.returns:
        value = ret.node.value
        if value is None or (type(value) is cst.Name and value.value == "None"):
            continue
        if type(value) is cst.Name and value.value in local:
            # `client = Client(url); return client`, and the lazy singleton `global _c; if _c is
            # not None: return _c; _c = Client(url); return _c`: a name this body assigns once
            # holds the object made there (the early return hands back what it stored before).
            value = facts.value_of(value)
        if type(value) is cst.Name and value.value not in local:
            qual = aliases.aliases.get(value.value)
        elif type(value) is cst.Call and last_name(aliases.resolve_or_local(value.func) or "")[:1].isupper():
            qual = aliases.resolve_or_local(value.func)
        else:
            return ()
        if not qual:
            return ()
        found.append(qual)
    return tuple(dict.fromkeys(found))


def _returned_closures(facts: FunctionFacts, nested: set[str]) -> tuple[str, ...]:
    """The function a closure factory hands back, when every return (`return None` aside) names
    a function defined in its own body (`def make(impl): async def run(q): ...; return run`): its
    key. A module global bound to the factory's call (`run = make(impl=...)`) is that function,
    so a call of the global runs it (ProjectNames.candidates)."""
    found: list[str] = []
    for ret in facts.returns:
        value = ret.node.value
        if value is None or (type(value) is cst.Name and value.value == "None"):
            continue
        if type(value) is not cst.Name or value.value not in nested:
            return ()
        found.append(f"{facts.qualname}.{value.value}")
    return tuple(dict.fromkeys(found))


def _lifespan_key(value: cst.BaseExpression) -> str | None:
    """"api" for `<...>.lifespan_context["api"]` and `<...>.lifespan_context.get("api")`."""
    if type(value) is cst.Subscript and len(value.slice) == 1 and type(value.slice[0].slice) is cst.Index:
        holder, key = value.value, value.slice[0].slice.value
    elif type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value == "get" and value.args:
        holder, key = value.func.value, value.args[0].value
    else:
        return None
    if not (dotted(holder) or "").endswith("lifespan_context") or type(key) is not cst.SimpleString:
        return None
    text = key.evaluated_value
    return text if isinstance(text, str) and text.isidentifier() else None


class _Yields(FastVisitor):
    """The values a function's own `yield` statements hand out (nested functions aside).

    A FastVisitor, not libcst's CSTVisitor: this runs for every function without a return
    annotation, and libcst's visit machinery (the transformer path, every whitespace node) cost
    more than the rest of the function's facts in a one-file run."""

    def __init__(self) -> None:
        self.values: list[cst.BaseExpression | None] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Yield(self, node: cst.Yield) -> None:
        self.values.append(node.value if type(node.value) is not cst.From else None)


def _yielded_objects(node: cst.FunctionDef, aliases: AliasTable) -> tuple[str, ...]:
    """What a generator without a return annotation yields, when every yield makes an object of
    a class (`yield AppContext(db=Database())` in a server's lifespan): the qualified names. A
    lifespan's members are typed from it (ProjectNames._lifespan_member) as from an annotation."""
    yields = _Yields()
    yields.walk(node.body)
    found: list[str] = []
    for value in yields.values:
        if type(value) is not cst.Call:
            return ()
        qual = aliases.resolve_or_local(value.func)
        if not qual or not last_name(qual)[:1].isupper():
            return ()
        found.append(qual)
    return tuple(dict.fromkeys(found))


def yielded_dict_members(node: cst.FunctionDef, aliases: AliasTable) -> dict[str, str]:
    """`yield {"api": Api(), "db": Database()}`: each string key with the class whose object it
    holds (a lifespan handing its resources over as a dict)."""
    yields = _Yields()
    yields.walk(node.body)
    out: dict[str, str] = {}
    for value in yields.values:
        if type(value) is not cst.Dict:
            continue
        for element in value.elements:
            if type(element) is cst.DictElement and type(element.key) is cst.SimpleString and type(element.value) is cst.Call:
                key = element.key.evaluated_value
                made = aliases.resolve_or_local(element.value.func)
                if isinstance(key, str) and made and last_name(made)[:1].isupper():
                    out[key] = made
    return out


def _branch_values(facts: FunctionFacts, walker: _BodyWalker, flow: ValueFlow) -> None:
    """`return result` of a local assigned on several paths (`result = "Error: ..."` in one
    branch, `result = json.dumps(row)` in the other): the assignments that reach the return, on
    the control-flow graph. One plain assignment reaching it is its value (`reaching_values`);
    several, each on its own path (no one runs after another: `status = "Error: ..."` then
    `if ready: status = "done"` is a default, not a branch), are its `branch_values`, each a
    value the return may send. The same for a local the returned value is built of
    (`[TextContent(text=json.dumps(result))]`): its branches only (a rule decides whether the
    value sends what the local holds)."""
    for ret in facts.returns:
        returned = ret.node.value
        if returned is None:
            continue
        for name in (returned,) if type(returned) is cst.Name else tuple(_argument_names(returned)):
            if name.value in facts.single_assignments or id(name) in facts.reaching_values:
                continue
            if name.value in ret.checked:
                continue  # checked for failure on the way (`if error := failure_of(result): raise ...`)
            stores = walker.stores.get(name.value)
            if not stores or len(stores) < 2 or not all(_plain(store) for store in stores):
                continue
            order = flow.order()
            reaching = order.reaching(name.value, ret.node) if order is not None else None
            if not reaching or not all(_plain(store) for store in reaching):
                continue
            if len(reaching) == 1:
                if name is returned:
                    facts.reaching_values[id(name)] = reaching[0].value
            elif not order.overwritable(reaching):
                facts.branch_values[id(name)] = tuple(reaching)


def _plain(store: Store) -> bool:
    """A store that is the local's whole new value, at a statement (`x = v`)."""
    return type(store.statement) in _PLAIN_ASSIGNMENTS and store.position is None and store.slot is None and not store.element


_CONTAINERS = (cst.Call, cst.List, cst.Tuple, cst.Await)


def _is_appended(statement: cst.CSTNode | None) -> bool:
    return type(statement) is cst.AugAssign and type(statement.operator) is cst.AddAssign


def _argument_names(value: cst.BaseExpression, depth: int = 0) -> Iterator[cst.Name]:
    """The plain names passed as arguments of the calls (and elements of the lists) a returned
    value is built of, a few levels down: `Response(results=[Result(title=msg)])` -> msg."""
    if depth > 3:
        return
    if type(value) is cst.Await:
        value = value.expression
    parts = value.args if type(value) is cst.Call else value.elements if type(value) in (cst.List, cst.Tuple) else ()
    for part in parts:
        inner = part.value
        if type(inner) is cst.Name:
            yield inner
        elif type(inner) in _CONTAINERS:
            yield from _argument_names(inner, depth + 1)


# Statements whose store is the local's whole new value (not `+=`, not a `for`/`with` target).
_PLAIN_ASSIGNMENTS = (cst.Assign, cst.AnnAssign)

# Events of a recorded walk (collect_facts' `record`).
VISIT, LEAVE, SUBTREE = 0, 1, 2


class _Recorder(_BodyWalker):
    """A body walk that also records what another visitor would meet walking the same body
    (the module walker reads its events instead of walking each function body a second time)."""

    events: list[tuple[cst.CSTNode, int]]
    visited: frozenset[type] = frozenset()
    left: frozenset[type] = frozenset()

    def _handlers(self, cls: type) -> tuple[Callable | None, Callable | None, bool]:
        handlers = self._dispatch.get(cls)
        if handlers is not None:
            return handlers
        visit, leave, skip = _BodyWalker._handlers(self, cls)
        if cls in SCOPES:
            visit = _subtree_when_skipped(visit)  # the function itself is entered, nested scopes are not
        elif cls in self.visited:
            visit = _visit_recorded(visit)
        if cls in self.left and cls not in SCOPES:
            leave = _leave_recorded(leave)
        handlers = self._dispatch[cls] = (visit, leave, skip and visit is None and leave is None)
        return handlers

    def _skipped_handler_parts(self, handler: cst.ExceptHandler | cst.ExceptStarHandler, before_body: bool, whole: bool = False) -> None:
        # In the order a walk meets them, which is libcst's field order (body, type, name)
        # rather than the source's.
        parts = children(handler)
        if whole:
            self.events.extend((part, SUBTREE) for part in parts)
            return
        cut = next(index for index, part in enumerate(parts) if part is handler.body)
        for part in parts[:cut] if before_body else parts[cut + 1 :]:
            self.events.append((part, SUBTREE))


def _visit_recorded(visit: Callable | None) -> Callable:
    def recorded(self: _Recorder, node: cst.CSTNode) -> bool | None:
        self.events.append((node, VISIT))
        return visit(self, node) if visit is not None else None

    return recorded


def _leave_recorded(leave: Callable | None) -> Callable:
    def recorded(self: _Recorder, node: cst.CSTNode) -> None:
        if leave is not None:
            leave(self, node)
        self.events.append((node, LEAVE))

    return recorded


def _subtree_when_skipped(visit: Callable) -> Callable:
    def recorded(self: _Recorder, node: cst.CSTNode) -> bool | None:
        entered = visit(self, node)
        if entered is False:
            self.events.append((node, SUBTREE))
        return entered

    return recorded


@functools.cache
def _recorder(visited: frozenset[type], left: frozenset[type]) -> type[_Recorder]:
    """The recording walker for one set of classes (a class each: dispatch tables are per class)."""
    return type("_Recorder", (_Recorder,), {"visited": visited, "left": left})


def _project_call_test(aliases: AliasTable, resolve_callee: Callable[[cst.BaseExpression], str | None]) -> Callable[[cst.Call], bool]:
    """How the value flow tells a call of the linted project's own code (its values are followed
    into the callee by the linker)."""
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

    return is_project_call


def _mark_returned_calls(facts: FunctionFacts, walker: _BodyWalker) -> None:
    """Set `CallFact.returned`: the call is the returned expression itself (under await), or a
    local assigned it (`result = helper(...); return result`), or what a returned pass-through
    call (`gather`, `wait_for`) produces."""
    returned_ids = set()
    for ret in facts.returns:
        value = ret.node.value
        while type(value) is cst.Await:
            value = value.expression
        if type(value) is cst.Name and value.value in walker.assigned_calls:
            value = walker.assigned_calls[value.value]  # result = helper(...); return result
        if type(value) is cst.Call:
            returned_ids.add(id(value))
    _through_passthrough(facts.calls, returned_ids, walker.assigned_calls)
    for call in facts.calls:
        call.returned = id(call.node) in returned_ids


def _through_passthrough(calls: list[CallFact], returned_ids: set[int], assigned: dict[str, cst.Call]) -> None:
    """A returned `gather(a(), b())`/`wait_for(job(), t)` returns what its argument calls return,
    also through a local: `future = pool.submit(work); return await wrap_future(future)`."""
    pending = [call.node for call in calls if id(call.node) in returned_ids]
    while pending:
        node = pending.pop()
        name = dotted(node.func)
        if name is None or name.rsplit(".", 1)[-1] not in VALUE_ARGUMENTS:
            continue
        which = VALUE_ARGUMENTS[name.rsplit(".", 1)[-1]]
        positional = [arg.value for arg in node.args if arg.keyword is None and not arg.star]
        for value in positional if which is None else positional[which : which + 1]:
            value = unwrap_await(value)
            if type(value) is cst.Name and value.value in assigned:
                value = assigned[value.value]
            if type(value) is cst.Call and id(value) not in returned_ids:
                returned_ids.add(id(value))
                pending.append(value)


def _callbacks(walker: _BodyWalker, qualname: str, params: tuple[str, ...]) -> list[CallbackFact]:
    """Functions passed as arguments: a function defined here or at module level, an imported
    one, or a method of `self` or of a typed local (`client.get_me`). Local variables holding
    data (`rows`, `url`) are not functions: they are left out."""
    out: list[CallbackFact] = [CallbackFact(callee, call) for callee, call in walker.lambda_callees]
    for expr, call in walker.arguments:
        name = dotted(expr)
        if name is None:
            # `run(get_client().fetch, key)`: the method of what the factory returns.
            method = walker._method_of_result(expr) if type(expr) is cst.Attribute else None
            if method is not None:
                out.append(CallbackFact(method, call))
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
