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
from mcp_lint.model.scopes import ScopeWalker
from mcp_lint.model.summary import TABLE_REF

Expr = cst.BaseExpression


# The keys under which a registry row keeps the function that runs the tool.
_ROW_FUNCTION_KEYS = frozenset({"function", "func", "fn", "handler", "callable", "callback", "impl", "implementation", "run", "execute", "coroutine"})


class FunctionReferences(ScopeWalker):
    """Loop variables, function aliases and module tables, and the functions they name."""

    def __init__(self, model: ModuleModel) -> None:
        super().__init__(model)
        # Loop variables bound to known elements: `for fn in [a, b]` -> {"fn": [a, b]}.
        self.loop_stack: list[dict[str, list[cst.BaseExpression]]] = []
        # Loop variables over a table of another module (`for fn in TOOLS` with TOOLS imported):
        # name -> the table's qualified name; the linker reads the table (TABLE_REF).
        self.loop_tables: list[dict[str, str]] = []
        self.module_function_aliases: dict[str, list[str]] = {}
        # Module-level names assigned a call's result (`service = Service()`): `alias =
        # service.method` names a method of that object, not data.
        self.module_objects: set[str] = set()

    # -- loops and comprehensions ---------------------------------------------------------
    def visit_For(self, node: cst.For) -> None:
        self.loop_stack.append(self._loop_bindings(node.target, node.iter))
        self.loop_tables.append(self._imported_table(node.target, node.iter))

    def leave_For(self, original_node: cst.For) -> None:
        self.loop_stack.pop()
        self.loop_tables.pop()

    def _imported_table(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> dict[str, str]:
        """`for fn in TOOLS`, `for fn in TOOLS.values()`, `for name, fn in TOOLS.items()` where
        TOOLS is imported: the loop variable stands for the functions of that table."""
        method = None
        if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and not iterable.args:
            method, iterable = iterable.func.attr.value, iterable.func.value
        if method not in {None, "values", "items"} or not isinstance(iterable, cst.Name):
            return {}
        table = self.aliases.aliases.get(iterable.value)
        if table is None or iterable.value in self.model.module_lists:
            return {}
        if method == "items":
            if isinstance(target, cst.Tuple) and len(target.elements) == 2 and isinstance(target.elements[1].value, cst.Name):
                return {target.elements[1].value.value: table}
            return {}
        return {target.value: table} if isinstance(target, cst.Name) else {}

    def _visit_comprehension(self, node: cst.BaseComp) -> None:
        # The element is visited before its `for` clause, so bind the loop variables up front.
        bindings: dict[str, list[cst.BaseExpression]] = {}
        comp: cst.CompFor | None = node.for_in
        tables: dict[str, str] = {}
        while comp is not None:
            bindings.update(self._loop_bindings(comp.target, comp.iter))
            tables.update(self._imported_table(comp.target, comp.iter))
            comp = comp.inner_for_in
        self.loop_stack.append(bindings)
        self.loop_tables.append(tables)

    def _leave_comprehension(self, original_node: cst.BaseComp) -> None:
        self.loop_stack.pop()
        self.loop_tables.pop()

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _visit_comprehension
    leave_ListComp = leave_SetComp = leave_GeneratorExp = leave_DictComp = _leave_comprehension

    def _loop_bindings(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> dict[str, list[Expr]]:
        if isinstance(target, cst.Name):
            return {target.value: self._iterable_elements(iterable)}
        if isinstance(target, (cst.Tuple, cst.List)):
            rows = self._iteration(iterable)
            out: dict[str, list[cst.BaseExpression]] = {}
            for index, element in enumerate(target.elements):
                if isinstance(element.value, cst.Name):
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
        if not isinstance(expr, cst.Call) or not isinstance(expr.func, cst.Attribute):
            return None
        if expr.func.attr.value != method or not isinstance(expr.func.value, cst.Name):
            return None
        return self.model.module_dicts.get(expr.func.value.value)

    def _iterable_elements(self, expr: cst.BaseExpression) -> list[cst.BaseExpression]:
        """The elements a literal, a module-level table or a loop variable holding lists has."""
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return [el.value for el in expr.elements if isinstance(el, cst.Element)]
        for method, index in (("values", 1), ("keys", 0)):
            pairs = self._dict_method(expr, method)
            if pairs is not None:
                return [pair[index] for pair in pairs]
        if not isinstance(expr, cst.Name):
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
        if type_name is None or not isinstance(target, cst.Name):
            return
        frame = self.frames[-1] if self.frames else None
        if frame is None or target.value in frame.globals:
            self.model.typed_names.setdefault(target.value, type_name)
        elif frame.kind == "class":
            class_name = frame.qual[len(self.model.module) + 1 :] if self.model.module else frame.qual
            self.model.typed_names.setdefault(f"{class_name}.{target.value}", type_name)

    def _module_constant(self, name: str, value: cst.BaseExpression) -> None:
        """Module-level lists/dicts (tool tables) and the logger, for later lookups."""
        if isinstance(value, cst.Dict):
            pairs = [(el.key, el.value) for el in value.elements if isinstance(el, cst.DictElement)]
            self.model.module_dicts[name] = pairs
            self.model.module_lists[name] = [v for _, v in pairs]
            self._function_table(name, [v for _, v in pairs])
        else:
            elements = self._iterable_elements(value) if isinstance(value, (cst.List, cst.Tuple, cst.Set)) else []
            if elements:
                self.model.module_lists[name] = elements
            self._module_list_table(name, value)
        if _is_get_logger(value, self.aliases):
            self.model.logger_name = name

    def _module_list_table(self, name: str, value: cst.BaseExpression) -> None:
        if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
            self._function_table(name, [el.value for el in value.elements if isinstance(el, cst.Element)])

    def _function_table(self, key: str, values: list[cst.BaseExpression]) -> None:
        """Record a dict's values when they name functions (`{"add": add, "sub": ops.sub}`)."""
        refs = [ref for value in values if isinstance(value, (cst.Name, cst.Attribute)) for ref in self._function_refs(value)]
        if refs and len(refs) == len(values):
            self.model.function_tables[key] = refs
        elif values and all(isinstance(value, cst.Dict) for value in values):
            # A registry of rows: `{"ListIndexTool": {"description": ..., "function": list_indices}}`,
            # looked up as `REGISTRY[name]["function"](args)`: the rows' functions.
            rows = [
                ref
                for row in values
                for element in row.elements  # type: ignore[attr-defined]
                if isinstance(element, cst.DictElement)
                and string_value(element.key) in _ROW_FUNCTION_KEYS
                and isinstance(element.value, (cst.Name, cst.Attribute))
                for ref in self._function_refs(element.value)
            ]
            if rows:
                self.model.function_tables[key] = rows

    def _returned_table(self, value: cst.BaseExpression) -> None:
        """`return {"add": add, ...}` or `return {n: getattr(api, n) for n in NAMES}` (NAMES a
        module-level list of method names, api typed): a table of functions the caller gets."""
        qual = self.frames[-1].qual
        if isinstance(value, cst.Dict):
            self._function_table(f"{qual}()", [el.value for el in value.elements if isinstance(el, cst.DictElement)])
            return
        if not isinstance(value, cst.DictComp) or not isinstance(value.value, cst.Call):
            return
        call = value.value
        if dotted(call.func) != "getattr" or len(call.args) < 2 or not isinstance(value.for_in.target, cst.Name):
            return
        if not isinstance(call.args[1].value, cst.Name) or call.args[1].value.value != value.for_in.target.value:
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

    # -- references to functions ----------------------------------------------------------
    def _function_refs(self, expr: cst.BaseExpression) -> list[str]:
        """Qualified names of the function(s) an expression stands for."""
        if isinstance(expr, cst.Name):
            return self._name_refs(expr.value)
        if isinstance(expr, cst.Tuple) and expr.elements:
            return self._function_refs(expr.elements[0].value)  # `(fn, "name")` table rows
        if isinstance(expr, cst.Attribute):
            name = dotted(expr)
            if name is None:
                return []
            if name.split(".")[0] in {"self", "cls"}:
                return [self._key(name)] if self._class_qual() else []
            return [self.aliases.resolve_dotted(name) or self._key(name)]
        if isinstance(expr, cst.Call) and last_name(dotted(expr.func)) == "partial":
            target = first_positional(expr)
            return self._function_refs(target) if target is not None else []
        return []

    def _name_refs(self, name: str) -> list[str]:
        for tables in reversed(self.loop_tables):
            if name in tables:
                return [TABLE_REF + tables[name]]
        for bindings in reversed(self.loop_stack):
            if name in bindings:
                return [ref for element in bindings[name] for ref in self._function_refs(element)]
        for frame in reversed(self.frames):
            if frame.kind != "function" or name in frame.globals:
                continue
            if name in frame.function_aliases:
                return frame.function_aliases[name]
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
        if not isinstance(target, cst.Name):
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
        if isinstance(value, (cst.Name, cst.Attribute)):
            # A function defined here, an imported name, or a method of a module-level object
            # (`list_items = service.list_items`); not a local variable holding data.
            local = self.model.module + "."
            return [
                ref
                for ref in self._function_refs(value)
                if ref in self.model.functions or not ref.startswith(local) or self._method_of_module_object(ref[len(local) :])
            ]
        if isinstance(value, cst.Call):
            first = first_positional(value)
            if isinstance(first, cst.Name) and first.value == name:
                # Re-binding a name to a wrapper of itself (`f = with_retry(f)`) keeps the function.
                return self._name_refs(name)
            return self._function_refs(value)  # partial(fn, ...)
        return []

    def _method_of_module_object(self, name: str) -> bool:
        root, _, rest = name.partition(".")
        return bool(rest) and "." not in rest and root in self.module_objects


def _unpack(element: cst.BaseExpression) -> tuple[cst.BaseExpression, ...]:
    if isinstance(element, (cst.Tuple, cst.List)):
        return tuple(el.value for el in element.elements if isinstance(el, cst.Element))
    return (element,)


def _is_get_logger(value: cst.BaseExpression, aliases: AliasTable) -> bool:
    if isinstance(value, cst.Call):
        resolved = aliases.resolve(value.func) or dotted(value.func) or ""
        return last_name(resolved) in {"getLogger", "get_logger"}
    return False
