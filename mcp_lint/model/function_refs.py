"""Which functions an expression stands for, where registrations name them indirectly.

`mcp.tool()(fn)` names `fn` directly, but servers also register functions through aliases
(`find_foo = find`), wrappers (`f = with_retry(f)`, `partial(fn, x)`), loops over tables
(`for fn in TOOLS`, `for name, fn in HANDLERS.items()`, imported tables) and comprehensions.
This layer of the module walk tracks those bindings and records the module-level tables
(lists, dicts, tables of functions a dispatcher looks tools up in, the logger, typed names).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.call_args import first_positional, string_value
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.names import AliasTable, dotted, last_name, unwrap_await
from mcp_lint.model.scopes import Frame, ScopeWalker
from mcp_lint.model.summary import TABLE_REF
from mcp_lint.model.table_rows import LOCAL, RETURNED, Bound, Row, Table, TablePath, encode

Expr = cst.BaseExpression


# The keys under which a registry row keeps the function that runs the tool.
# Builtins that copy an iterable: what they return holds its rows.
_ROW_COPIES = frozenset({"tuple", "list", "sorted", "set", "frozenset", "reversed"})

ROW_FUNCTION_KEYS = frozenset({"function", "func", "fn", "handler", "callable", "callback", "impl", "implementation", "run", "execute", "coroutine"})


class FunctionReferences(ScopeWalker):
    """Loop variables, function aliases and module tables, and the functions they name."""

    def __init__(self, model: ModuleModel) -> None:
        super().__init__(model)
        # Loop variables bound to known elements: `for fn in [a, b]` -> {"fn": [a, b]}.
        self.loop_stack: list[dict[str, list[cst.BaseExpression]]] = []
        # Loop variables over a table of another module (`for fn in TOOLS` with TOOLS imported):
        # name -> the table's qualified name; the linker reads the table (TABLE_REF).
        self.loop_tables: list[dict[str, str]] = []
        # Loop variables over a table of rows that only the linker can read (a builder's returned
        # dict, a table of categories): name -> what it holds (model/table_rows.py).
        self.loop_bounds: list[dict[str, Bound]] = []
        self.module_function_aliases: dict[str, list[str]] = {}
        # Module-level names assigned a call's result (`service = Service()`): `alias =
        # service.method` names a method of that object, not data.
        self.module_objects: set[str] = set()

    # -- loops and comprehensions ---------------------------------------------------------
    def visit_For(self, node: cst.For) -> None:
        self.loop_stack.append(self._loop_bindings(node.target, node.iter))
        self.loop_tables.append(self._imported_table(node.target, node.iter))
        self.loop_bounds.append(self._loop_bounds(node.target, node.iter))

    def leave_For(self, original_node: cst.For) -> None:
        self.loop_stack.pop()
        self.loop_tables.pop()
        self.loop_bounds.pop()

    def _imported_table(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> dict[str, str]:
        """`for fn in TOOLS`, `for fn in TOOLS.values()`, `for name, fn in TOOLS.items()` where
        TOOLS is imported: the loop variable stands for the functions of that table."""
        method = None
        if type(iterable) is cst.Call and type(iterable.func) is cst.Attribute and not iterable.args:
            method, iterable = iterable.func.attr.value, iterable.func.value
        if method not in {None, "values", "items"} or type(iterable) is not cst.Name:
            return {}
        table = self.aliases.aliases.get(iterable.value)
        if table is None or iterable.value in self.model.module_lists:
            return {}
        if method == "items":
            if type(target) is cst.Tuple and len(target.elements) == 2 and type(target.elements[1].value) is cst.Name:
                return {target.elements[1].value.value: table}
            return {}
        return {target.value: table} if type(target) is cst.Name else {}

    def _visit_comprehension(self, node: cst.BaseComp) -> None:
        # The element is visited before its `for` clause, so bind the loop variables up front.
        bindings: dict[str, list[cst.BaseExpression]] = {}
        comp: cst.CompFor | None = node.for_in
        tables: dict[str, str] = {}
        bounds: dict[str, Bound] = {}
        while comp is not None:
            bindings.update(self._loop_bindings(comp.target, comp.iter))
            tables.update(self._imported_table(comp.target, comp.iter))
            bounds.update(self._loop_bounds(comp.target, comp.iter))
            comp = comp.inner_for_in
        self.loop_stack.append(bindings)
        self.loop_tables.append(tables)
        self.loop_bounds.append(bounds)

    def _leave_comprehension(self, original_node: cst.BaseComp) -> None:
        self.loop_stack.pop()
        self.loop_tables.pop()
        self.loop_bounds.pop()

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _visit_comprehension
    leave_ListComp = leave_SetComp = leave_GeneratorExp = leave_DictComp = _leave_comprehension

    def _loop_bindings(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> dict[str, list[Expr]]:
        if type(target) is cst.Name:
            return {target.value: self._iterable_elements(iterable)}
        if type(target) in (cst.Tuple, cst.List):
            rows = self._iteration(iterable)
            out: dict[str, list[cst.BaseExpression]] = {}
            for index, element in enumerate(target.elements):
                if type(element.value) is cst.Name:
                    out[element.value.value] = [row[index] for row in rows if index < len(row)]
            return out
        return {}

    def _iteration(self, iterable: cst.BaseExpression) -> list[tuple[cst.BaseExpression, ...]]:
        """What a `for` over `iterable` yields, each item unpacked: `[(a, "x")]` -> [(a, "x")]."""
        pairs = self._dict_method(iterable, "items")
        if pairs is not None:
            return list(pairs)
        return [_unpack(element) for element in self._iterable_elements(iterable)]

    def _dict_method(self, expr: cst.BaseExpression, method: str) -> list[tuple[Expr, Expr]] | None:
        """The pairs of a module-level dict when `expr` is `THAT_DICT.<method>()`."""
        if type(expr) is not cst.Call or type(expr.func) is not cst.Attribute:
            return None
        if expr.func.attr.value != method or type(expr.func.value) is not cst.Name:
            return None
        return self.model.module_dicts.get(expr.func.value.value)

    def _iterable_elements(self, expr: cst.BaseExpression) -> list[cst.BaseExpression]:
        """The elements a literal, a module-level table or a loop variable holding lists has."""
        if type(expr) in (cst.List, cst.Tuple, cst.Set):
            return [el.value for el in expr.elements if type(el) is cst.Element]
        for method, index in (("values", 1), ("keys", 0)):
            pairs = self._dict_method(expr, method)
            if pairs is not None:
                return [pair[index] for pair in pairs]
        if type(expr) is not cst.Name:
            return []
        for bindings in reversed(self.loop_stack):
            if expr.value in bindings:  # `for group in GROUPS: for fn in group:`
                return [inner for element in bindings[expr.value] for inner in self._iterable_elements(element)]
        if expr.value in self.model.module_dicts:
            return [key for key, _ in self.model.module_dicts[expr.value]]  # iterating a dict: keys
        return self.model.module_lists.get(expr.value, [])

    # -- module tables --------------------------------------------------------------------
    def _typed_name(self, target: cst.BaseExpression, type_name: str | None) -> None:
        """`api: Api = None` at module level, `client: Api` in a class body, or a global set in
        a function: calls on that name reach the class's methods."""
        if type_name is None or type(target) is not cst.Name:
            return
        frame = self.frames[-1] if self.frames else None
        if frame is None or target.value in frame.globals:
            self.model.typed_names.setdefault(target.value, type_name)
        elif frame.kind == "class":
            class_name = frame.qual[len(self.model.module) + 1 :] if self.model.module else frame.qual
            self.model.typed_names.setdefault(f"{class_name}.{target.value}", type_name)

    def _module_constant(self, name: str, value: cst.BaseExpression) -> None:
        """Module-level lists/dicts (tool tables) and the logger, for later lookups."""
        self._record_table(self._key(name), self._table_literal(value))
        if type(value) is cst.Dict:
            pairs = [(el.key, el.value) for el in value.elements if type(el) is cst.DictElement]
            self.model.module_dicts[name] = pairs
            self.model.module_lists[name] = [v for _, v in pairs]
            self._function_table(name, [v for _, v in pairs])
        else:
            elements = self._iterable_elements(value) if type(value) in (cst.List, cst.Tuple, cst.Set) else []
            if elements:
                self.model.module_lists[name] = elements
            self._module_list_table(name, value)
        if _is_get_logger(value, self.aliases):
            self.model.logger_name = name

    def _module_list_table(self, name: str, value: cst.BaseExpression) -> None:
        if type(value) in (cst.List, cst.Tuple, cst.Set):
            self._function_table(name, [el.value for el in value.elements if type(el) is cst.Element])

    def _function_table(self, key: str, values: list[cst.BaseExpression]) -> None:
        """Record a dict's values when they name functions (`{"add": add, "sub": ops.sub}`)."""
        named = [value for value in values if type(value) is not cst.Call]
        refs = [ref for value in named if type(value) in (cst.Name, cst.Attribute) for ref in self._function_refs(value)]
        # Values made by a call of this module's factory (`"x": make_handler("/x")`) are the
        # functions it defines and returns (`def handler(...): ...; return handler`).
        made = [ref for value in values if type(value) is cst.Call for ref in self._made_by_factory(value)]
        if (refs and len(refs) == len(named)) or (made and not named):
            # Values made by a call the module cannot see into are functions too, which this
            # table does not name; the ones it names are still looked up by the dispatcher.
            self.model.function_tables[key] = [*refs, *dict.fromkeys(made)]
        elif values and all(type(value) is cst.Dict for value in values):
            # A registry of rows: `{"ListIndexTool": {"description": ..., "function": list_indices}}`,
            # looked up as `REGISTRY[name]["function"](args)`: the rows' functions.
            rows = [
                ref
                for row in values
                for element in row.elements  # type: ignore[attr-defined]
                if type(element) is cst.DictElement
                and string_value(element.key) in ROW_FUNCTION_KEYS
                and type(element.value) in (cst.Name, cst.Attribute)
                for ref in self._function_refs(element.value)
            ]
            if rows:
                self.model.function_tables[key] = rows

    def _made_by_factory(self, call: cst.Call) -> list[str]:
        """The functions a module function called here defines and returns by name."""
        out: list[str] = []
        for factory in self._function_refs(call.func) if type(call.func) in (cst.Name, cst.Attribute) else []:
            facts = self.model.functions.get(factory)
            for ret in facts.returns if facts is not None else ():
                value = ret.node.value
                if type(value) is cst.Name and f"{factory}.{value.value}" in self.model.functions:
                    out.append(f"{factory}.{value.value}")
        return out

    def _returned_table(self, value: cst.BaseExpression) -> None:
        """`return {"add": add, ...}` or `return {n: getattr(api, n) for n in NAMES}` (NAMES a
        module-level list of method names, api typed): a table of functions the caller gets."""
        qual = self.frames[-1].qual
        self._record_table(f"{qual}{RETURNED}", self._returned_rows(value))
        if type(value) is cst.Dict:
            self._function_table(f"{qual}()", [el.value for el in value.elements if type(el) is cst.DictElement])
            return
        if type(value) is not cst.DictComp or type(value.value) is not cst.Call:
            return
        call = value.value
        if dotted(call.func) != "getattr" or len(call.args) < 2 or type(value.for_in.target) is not cst.Name:
            return
        if type(call.args[1].value) is not cst.Name or call.args[1].value.value != value.for_in.target.value:
            return
        owner = dotted(call.args[0].value)
        facts = self.model.functions.get(qual)
        if owner in {"self", "cls"}:
            type_name = self._class_qual()
        else:
            type_name = facts.local_types.get(owner or "") if facts is not None else None
        names = [string_value(element) for element in self._iterable_elements(value.for_in.iter)]
        if type_name and names and all(names):
            self.model.function_tables[f"{qual}()"] = [f"{type_name}.{name}" for name in names]

    # -- tables of rows, followed by the linker (model/table_rows.py) ----------------------
    def _function_frame(self) -> Frame | None:
        frame = self.frames[-1] if self.frames else None
        return frame if frame is not None and frame.kind == "function" else None

    def _bound(self, name: str) -> Bound | None:
        for bounds in reversed(self.loop_bounds):
            if name in bounds:
                return bounds[name]
        frame = self._function_frame()
        return frame.bound.get(name) if frame is not None else None

    def _loop_bounds(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> dict[str, Bound]:
        """`for name, (fn, desc) in table.items()`, `for fn, desc in table.values()`, `for fn in
        build()`: what each loop variable holds of a table's rows."""
        iterable = unwrap_await(iterable)
        items = False
        if type(iterable) is cst.Call and type(iterable.func) is cst.Attribute and not iterable.args:
            if iterable.func.attr.value not in {"items", "values"}:
                return {}
            items = iterable.func.attr.value == "items"
            iterable = iterable.func.value
        table = self._table_of(iterable)
        if table is None:
            return {}
        if items:
            if type(target) is not cst.Tuple or len(target.elements) != 2:
                return {}
            target = target.elements[1].value
        return _unpacked(target, Bound(table, row=True))

    def _table_of(self, expr: cst.BaseExpression) -> TablePath | None:
        """The table an expression stands for: a local or loop variable holding one, a table built
        in this function, a module-level or imported name, or a call of a function (or of the
        functions a table's rows hold) that returns one."""
        expr = unwrap_await(expr)
        if type(expr) is cst.Call:
            return self._called_table(expr.func)
        if type(expr) is not cst.Name:
            return None
        name = expr.value
        bound = self._bound(name)
        if bound is not None:
            return bound.table if not bound.row and bound.position is None else None
        frame = self._function_frame()
        if frame is not None and name not in frame.globals:
            if name in frame.tables:
                key = f"{frame.qual}{LOCAL}{name}"
                self.model.tables[key] = frame.tables[name]
                return TablePath(key)
            if name in frame.bindings:
                return None  # a parameter or a local holding something else
        if name in self.aliases.aliases:
            return TablePath(self.aliases.aliases[name])
        return TablePath(self._key(name))  # a module-level table, perhaps defined further down

    def _called_table(self, func: cst.BaseExpression) -> TablePath | None:
        """The table a call of `func` returns: `build_tools()`, `builder()` with builder a value
        of a table's rows, `CATEGORIES[name][1]()`."""
        if type(func) is cst.Name:
            bound = self._bound(func.value)
            if bound is not None:
                return bound.table.called_at(bound.functions_at())
        if type(func) is cst.Subscript:
            row = self._row_of(func)
            return row.table.called_at(row.functions_at()) if row is not None else None
        refs = [ref for ref in self._function_refs(func) if not ref.startswith(TABLE_REF)]
        return TablePath(refs[0] + RETURNED) if len(refs) == 1 else None

    def _row_of(self, expr: cst.BaseExpression) -> Bound | None:
        """`table[name]`, `table.get(name)` (a row), `table[name][1]` (a position of a row)."""
        expr = unwrap_await(expr)
        if type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "get":
            table = self._table_of(expr.func.value) if type(expr.func.value) is cst.Name else None
            return Bound(table, row=True) if table is not None and expr.args else None
        if type(expr) is not cst.Subscript or len(expr.slice) != 1 or type(expr.slice[0].slice) is not cst.Index:
            return None
        index = expr.slice[0].slice.value
        if type(index) is cst.Integer:
            inner = self._row_of(expr.value)
            return Bound(inner.table, position=int(index.value)) if inner is not None and inner.row else None
        if string_value(index) is not None or type(expr.value) is not cst.Name:
            return None  # a literal key picks one row: what the registration names is not all of them
        table = self._table_of(expr.value)
        return Bound(table, row=True) if table is not None else None

    def _table_literal(self, value: cst.BaseExpression) -> Table | None:
        """The rows of a dict or list literal (None for anything else)."""
        rows: list[Row] = []
        merged: list[TablePath] = []
        if type(value) is cst.Dict:
            for element in value.elements:
                if type(element) is cst.DictElement:
                    rows.append(Row(string_value(element.key), self._row_parts(element.value)))
                else:
                    merged.extend(path for path in [self._table_of(element.value)] if path is not None)
        elif type(value) in (cst.List, cst.Tuple):
            for item in value.elements:
                if type(item) is cst.Element:
                    rows.append(Row(None, self._row_parts(item.value)))
                else:
                    merged.extend(path for path in [self._table_of(item.value)] if path is not None)
        else:
            return None
        return Table(tuple(rows), tuple(merged))

    def _row_parts(self, value: cst.BaseExpression) -> tuple[tuple[str, ...], ...]:
        return tuple(
            tuple(ref for ref in self._function_refs(part) if not ref.startswith(TABLE_REF)) if type(part) in (cst.Name, cst.Attribute, cst.Call) else ()
            for part in _unpack(value)
        )

    def _returned_rows(self, value: cst.BaseExpression) -> Table | None:
        """What `return <value>` gives callers that iterate the result: a literal's rows, a table
        built in a local, or a table of the module or of another one; seen through a copy or a
        view of it (`tuple(tools)`, `list(tools.values())`) and a comprehension over its rows
        (`tuple(tools[name] for name in ORDER)`, `[fn for fn in tools.values()]`)."""
        through = self._iterated_table(value)
        if through is not None:
            return through
        literal = self._table_literal(value)
        if literal is not None or type(value) is not cst.Name:
            return literal
        frame = self._function_frame()
        if frame is not None and value.value in frame.tables:
            return frame.tables[value.value]
        path = self._table_of(value)
        if path is None:
            return None
        known = self._bound(value.value) is not None or path.start in self.model.tables or value.value in self.aliases.aliases
        return Table(merged=(path,)) if known else None

    def _iterated_table(self, value: cst.BaseExpression) -> Table | None:
        """The table whose rows a copy, a view or a comprehension yields (None when `value` is
        none of those): a factory that hands back `tuple(...)` of its table returns that table's
        functions, and the callers' loops register them."""
        value = unwrap_await(value)
        if type(value) is cst.Call:
            func = value.func
            if type(func) is cst.Name and func.value in _ROW_COPIES and func.value not in self.aliases.aliases and len(value.args) == 1:
                inner = value.args[0].value
                return self._iterated_table(inner) or self._returned_rows(inner) if not value.args[0].star else None
            if type(func) is cst.Attribute and func.attr.value == "values" and not value.args:
                path = self._table_of(func.value)
                return Table(merged=(path,)) if path is not None and self._known_table(func.value, path) else None
            return None
        if type(value) not in (cst.GeneratorExp, cst.ListComp, cst.SetComp) or value.for_in.inner_for_in is not None:  # type: ignore[attr-defined]
            return None
        comp = value.for_in  # type: ignore[attr-defined]
        element = value.elt  # type: ignore[attr-defined]
        bounds = self._loop_bounds(comp.target, comp.iter)
        if type(element) is cst.Name and element.value in bounds:
            bound = bounds[element.value]
            return Table(merged=(bound.table,)) if bound.row and bound.position is None else None
        if type(element) is not cst.Subscript or type(element.value) is not cst.Name or element.value.value in _target_names(comp.target):
            return None
        row = self._row_of(element)  # `tools[name] for name in ORDER`: a row of `tools` each time
        if row is not None and row.row and self._known_table(element.value, row.table):
            return Table(merged=(row.table,))
        return None

    def _known_table(self, expr: cst.BaseExpression, path: TablePath) -> bool:
        """Is `path` a table the walk knows `expr` holds (not the guess `_table_of` makes for any
        module-level name)?"""
        if type(expr) is not cst.Name:
            return True
        frame = self._function_frame()
        return (
            self._bound(expr.value) is not None
            or (frame is not None and expr.value in frame.tables)
            or path.start in self.model.tables
            or expr.value in self.aliases.aliases
        )

    def _record_table(self, key: str, table: Table | None) -> None:
        """Keep a table of the module for the linker, when it can hold a function."""
        if table is None or not (table.merged or any(part for row in table.rows for part in row.parts)):
            return
        known = self.model.tables.get(key)
        self.model.tables[key] = known.extended(table.rows, table.merged) if known is not None else table

    def _track_table(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """A function's locals that hold tables, rows or positions of rows (`tools = build()`,
        `_, builder = CATEGORIES[name]`), and the tables it builds (`tools = {}`, `tools[k] = v`)."""
        frame = self._function_frame()
        if frame is None:
            return
        value = unwrap_await(value)
        name = dotted(target)
        if type(value) is cst.Dict and name is not None and name.startswith("self.") and name.count(".") == 1 and self._class_qual():
            # An object's table of its own methods (`self.handlers = {"a": self.handle_a}`),
            # looked up by a dispatcher as `self.handlers.get(name)`.
            self._function_table(self._key(name), [el.value for el in value.elements if type(el) is cst.DictElement])
            return
        if type(target) is cst.Subscript and type(target.value) is cst.Name and target.value.value not in frame.tables and self._module_table_name(target.value.value, frame):
            self._add_to_function_table(target.value.value, [value])  # `HANDLERS["a"] = handle_a`
        if type(target) is cst.Subscript and type(target.value) is cst.Name and target.value.value in frame.tables:
            index = target.slice[0].slice if len(target.slice) == 1 else None
            key = string_value(index.value) if type(index) is cst.Index else None
            name = target.value.value
            frame.tables[name] = frame.tables[name].extended([Row(key, self._row_parts(value))])
            return
        names = [target] if type(target) is cst.Name else [el.value for el in getattr(target, "elements", ()) if type(el.value) is cst.Name]
        for name in names:
            frame.bound.pop(name.value, None)  # type: ignore[union-attr]
            frame.tables.pop(name.value, None)  # type: ignore[union-attr]
        if type(target) is cst.Name:
            literal = self._table_literal(value)
            if literal is not None:
                frame.tables[target.value] = literal
                if type(value) is cst.Dict:
                    # A dispatcher's own table (`handlers = {"a": handle_a}; handlers[name](args)`).
                    self._function_table(f"{frame.qual}{LOCAL}{target.value}", [el.value for el in value.elements if type(el) is cst.DictElement])
                return
            table = self._table_of(value) if type(value) is cst.Call else None
            bound = Bound(table) if table is not None else self._row_of(value)
            if bound is not None:
                frame.bound[target.value] = bound
        elif type(target) in (cst.Tuple, cst.List):
            row = self._row_of(value)
            if row is not None and row.row:
                frame.bound.update(_unpacked(target, row))

    def _table_update(self, call: cst.Call) -> None:
        """`tools.update(more())`, `tools.extend(more())`, `tools.append((fn, "..."))` on a table
        being built in this function or at module level."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value not in {"update", "extend", "append"} or type(func.value) is not cst.Name:
            return
        argument = first_positional(call)
        if argument is None:
            return
        frame = self._function_frame()
        name = func.value.value
        if func.attr.value == "update" and type(argument) is cst.Dict and self._module_table_name(name, frame):
            # `HANDLERS.update({"a": handle_a})` filling a module-level registry (often in a
            # function that imports the handlers lazily): a dispatcher's `HANDLERS[name](...)`
            # calls them, so they are in its table.
            self._add_to_function_table(name, [el.value for el in argument.elements if type(el) is cst.DictElement])
        if func.attr.value == "append":
            addition = Table((Row(None, self._row_parts(argument)),))
        else:
            literal = self._table_literal(argument)
            path = self._table_of(argument) if literal is None else None
            addition = literal if literal is not None else Table(merged=(path,)) if path is not None else None
        if addition is None:
            return
        bound = frame.bound.get(name) if frame is not None and name not in frame.globals else None
        if frame is not None and bound is not None and not bound.row and bound.position is None:
            # `tools = build_common(); tools.update(build_extra())`: a local table from then on,
            # holding the returned table's rows and the addition's.
            del frame.bound[name]
            frame.tables[name] = Table(merged=(bound.table,))
        if frame is not None and name in frame.tables:
            frame.tables[name] = frame.tables[name].extended(addition.rows, addition.merged)
        elif frame is None or name in frame.globals:
            if self._key(name) in self.model.tables or name in self.model.module_lists:
                self._record_table(self._key(name), addition)

    def _module_table_name(self, name: str, frame: Frame | None) -> bool:
        """Is `name`, where it is used, the module-level dict of that name (not a local)?"""
        if name not in self.model.module_dicts:
            return False
        return frame is None or name in frame.globals or name not in frame.bindings

    def _add_to_function_table(self, name: str, values: list[cst.BaseExpression]) -> None:
        """Add the functions `values` name to the module-level table `name` (a registry filled
        after its definition: `T.update({...})`, `T["a"] = handle_a`)."""
        refs = [ref for value in values if type(value) in (cst.Name, cst.Attribute) for ref in self._function_refs(value)]
        if refs:
            known = self.model.function_tables.setdefault(name, [])
            known.extend(ref for ref in refs if ref not in known)

    # -- references to functions ----------------------------------------------------------
    def _function_refs(self, expr: cst.BaseExpression) -> list[str]:
        """Qualified names of the function(s) an expression stands for."""
        if type(expr) is cst.Name:
            return self._name_refs(expr.value)
        if type(expr) is cst.Tuple and expr.elements:
            return self._function_refs(expr.elements[0].value)  # `(fn, "name")` table rows
        if type(expr) is cst.Attribute:
            name = dotted(expr)
            if name is None:
                return []
            if name.split(".")[0] in {"self", "cls"}:
                return [self._key(name)] if self._class_qual() else []
            return [self.aliases.resolve_dotted(name) or self._key(name)]
        if type(expr) is cst.Call and last_name(dotted(expr.func)) == "partial":
            target = first_positional(expr)
            return self._function_refs(target) if target is not None else []
        return []

    def _name_refs(self, name: str) -> list[str]:
        for tables in reversed(self.loop_tables):
            if name in tables:
                return [TABLE_REF + tables[name]]
        for bindings, bounds in zip(reversed(self.loop_stack), reversed(self.loop_bounds)):
            refs = [ref for element in bindings.get(name, ()) for ref in self._function_refs(element)]
            if refs:
                return refs
            if name in bounds:
                return [TABLE_REF + encode(bounds[name].table, bounds[name].functions_at())]
            if name in bindings:
                return []
        for frame in reversed(self.frames):
            if frame.kind != "function" or name in frame.globals:
                continue
            if name in frame.function_aliases:
                return frame.function_aliases[name]
            if name in frame.bound:
                return [TABLE_REF + encode(frame.bound[name].table, frame.bound[name].functions_at())]
            nested = f"{frame.qual}.{name}"
            if nested in self.model.functions:
                return [nested]
            if name in frame.bindings:
                return []  # a parameter or local holding something we cannot name
        if name in self.module_function_aliases:
            return self.module_function_aliases[name]
        local = self._key(name)
        if local in self.model.functions or name not in self.aliases.aliases:
            return [local]
        return [self.aliases.aliases[name]]

    def _track_function_alias(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """Remember `alias = fn` and `fn = wrap(fn, ...)`, for a later `mcp.tool(alias)`."""
        if type(target) is not cst.Name:
            return
        frame = self.frames[-1] if self.frames else None
        if frame is None or target.value in frame.globals:
            table = self.module_function_aliases
        elif frame.kind == "function":
            table = frame.function_aliases
        else:
            return  # class attributes are reached through `self.`, see _function_refs
        refs = self._alias_refs(target.value, unwrap_await(value))
        if refs:
            table[target.value] = refs
        else:
            table.pop(target.value, None)

    def _alias_refs(self, name: str, value: cst.BaseExpression) -> list[str]:
        if type(value) in (cst.Name, cst.Attribute):
            # A function defined here, an imported name, or a method of a module-level object
            # (`list_items = service.list_items`); not a local variable holding data.
            local = self.model.module + "."
            return [
                ref
                for ref in self._function_refs(value)
                if ref in self.model.functions or not ref.startswith(local) or self._method_of_module_object(ref[len(local) :])
            ]
        if type(value) is cst.Call:
            first = first_positional(value)
            if type(first) is cst.Name and first.value == name:
                # Re-binding a name to a wrapper of itself (`f = with_retry(f)`) keeps the function.
                return self._name_refs(name)
            return self._function_refs(value)  # partial(fn, ...)
        return []

    def _method_of_module_object(self, name: str) -> bool:
        root, _, rest = name.partition(".")
        return bool(rest) and "." not in rest and root in self.module_objects


def _unpacked(target: cst.BaseExpression, row: Bound) -> dict[str, Bound]:
    """A loop or assignment target given one row of a table: `fn` holds the row, `(fn, desc)`
    the positions of its value."""
    if type(target) is cst.Name:
        return {target.value: row}
    if type(target) in (cst.Tuple, cst.List):
        return {
            element.value.value: Bound(row.table, position=index)
            for index, element in enumerate(target.elements)
            if type(element.value) is cst.Name
        }
    return {}


def _unpack(element: cst.BaseExpression) -> tuple[cst.BaseExpression, ...]:
    if type(element) in (cst.Tuple, cst.List):
        return tuple(el.value for el in element.elements if type(el) is cst.Element)
    return (element,)


def _is_get_logger(value: cst.BaseExpression, aliases: AliasTable) -> bool:
    if type(value) is cst.Call:
        resolved = aliases.resolve(value.func) or dotted(value.func) or ""
        return last_name(resolved) in {"getLogger", "get_logger"}
    return False


def _target_names(target: cst.BaseExpression) -> set[str]:
    if type(target) is cst.Name:
        return {target.value}
    return {name for element in getattr(target, "elements", ()) for name in _target_names(element.value)}
