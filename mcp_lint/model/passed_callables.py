"""Registered callables that only a registration's callers name (registration by value flow, the
module side; linking/passed_callables.py resolves them).

A registration call names its function directly (`mcp.tool()(search)`), or through what reaches
it: a parameter of the registering function (`def install(fn): mcp.add_tool(fn)`), a loop over
one (`def install(fns): for fn in fns: ...`), a wrapper call around either (`mcp.tool(adapt(fn))`:
the wrapper runs `fn`), a module's members found by reflection (`inspect.getmembers(mod)`,
`getattr(mod, name)`), or a module a parameter receives (`def install(server, mod): for _, fn in
inspect.getmembers(mod)`). What a parameter holds is decided by the calls that fill it, so every
call that passes a function, a table or a module by name is recorded (ModuleModel.callable_arguments).

A function that stores its parameter into a module-level table (`REGISTRY[fn.__name__] = (kind,
fn)`, `TOOLS.append(fn)`) adds, to that table's rows, what it decorates and what its callers pass:
a later loop over the table that registers its rows registers those functions.
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.call_args import first_positional, string_value
from mcp_lint.model.flow import first_param
from mcp_lint.model.function_refs import ROW_FUNCTION_KEYS, FunctionReferences
from mcp_lint.model.names import dotted, unwrap_await
from mcp_lint.model.summary import ARGUMENT_REF, CLASS_MEMBERS, DECORATED_REF, MEMBERS_REF, TABLE_REF
from mcp_lint.model.table_rows import Row, Table

# Library calls that yield a module's members: the member is the pair's second item.
_MEMBER_LISTINGS = frozenset({"inspect.getmembers"})
_GETATTR = "getattr"


class PassedCallables(FunctionReferences):
    """Loop variables over parameters and reflections, and the callables calls pass on."""

    def __init__(self, model) -> None:
        super().__init__(model)
        # Loop variables standing for what a parameter or a reflection holds: name -> ref.
        self.loop_sources: list[dict[str, str]] = []

    def visit_For(self, node: cst.For) -> None:
        super().visit_For(node)
        self.loop_sources.append(self._loop_sources(node.target, node.iter))

    def leave_For(self, original_node: cst.For) -> None:
        super().leave_For(original_node)
        self.loop_sources.pop()

    def _loop_sources(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> dict[str, str]:
        """`for fn in fns`, `for fn in fns.values()`, `for _, fn in fns.items()` (fns a parameter),
        `for _, fn in inspect.getmembers(mod)`: the loop variable's ref."""
        iterable = unwrap_await(iterable)
        method = None
        if type(iterable) is cst.Call:
            if self.aliases.resolve(iterable.func) in _MEMBER_LISTINGS:
                source = self._module_source(iterable.args[0].value) if iterable.args else None
                return _second(target, MEMBERS_REF + source) if source else {}
            if type(iterable.func) is cst.Attribute and iterable.func.attr.value in {"values", "items"} and not iterable.args:
                method, iterable = iterable.func.attr.value, iterable.func.value
        if type(iterable) is not cst.Name:
            return {}
        ref = self._parameter_ref(iterable.value) or self._loop_source(iterable.value)
        if ref is None:
            return {}
        if method == "items":
            return _second(target, ref)
        return {target.value: ref} if type(target) is cst.Name else {}

    def _loop_source(self, name: str) -> str | None:
        for sources in reversed(self.loop_sources):
            if name in sources:
                return sources[name]
        return None

    def _parameter_ref(self, name: str) -> str | None:
        """ARGUMENT_REF for a parameter of the function being walked (not one it rebinds)."""
        frame = self.frames[-1] if self.frames else None
        if frame is None or frame.kind != "function" or name in frame.globals or name in frame.function_aliases:
            return None
        facts = self.model.functions.get(frame.qual)
        if facts is None or name not in facts.params or name in {"self", "cls"}:
            return None
        return f"{ARGUMENT_REF}{frame.qual}#{name}"

    def _own_class(self, expr: cst.BaseExpression) -> tuple[str, str] | None:
        """(the class, the method) when `expr` is the `self` or `cls` of the method being walked."""
        frame = self.frames[-1] if self.frames else None
        if type(expr) is not cst.Name or expr.value not in {"self", "cls"} or frame is None or frame.kind != "function":
            return None
        facts = self.model.functions.get(frame.qual)
        if facts is None or facts.class_name is None or not facts.params or facts.params[0] != expr.value:
            return None
        owner, _, method = frame.qual.rpartition(".")
        return owner, method

    def _module_source(self, expr: cst.BaseExpression) -> str | None:
        """The module an expression names (imported), or the parameter that receives one."""
        if type(expr) is cst.Name:
            found = self._parameter_ref(expr.value)
            if found is not None:
                return found
        name = dotted(expr)
        return self.aliases.resolve_dotted(name) if name is not None else None

    def _reflected(self, call: cst.Call) -> list[str] | None:
        """`getattr(mod, "name")` (that function) or `getattr(mod, name)` (any public one); on
        `self` in a method (`fn = getattr(self, row["fn"])`), a method of the object's class."""
        if dotted(call.func) != _GETATTR or len(call.args) < 2 or _GETATTR in self.aliases.aliases:
            return None
        owner = self._own_class(call.args[0].value)
        if owner is not None:
            attr = string_value(call.args[1].value)
            # A name known only at run time: what the linker takes the class's (or its
            # subclasses') public methods for (linking/passed_callables.py, CLASS_MEMBERS).
            return [f"{owner[0]}.{attr}"] if attr is not None else [f"{MEMBERS_REF}{owner[0]}{CLASS_MEMBERS}{owner[1]}"]
        source = self._module_source(call.args[0].value)
        if source is None:
            return None
        attr = string_value(call.args[1].value)
        if attr is not None and not source.startswith(ARGUMENT_REF):
            return [f"{source}.{attr}"]
        return [MEMBERS_REF + source]

    def _alias_refs(self, name: str, value: cst.BaseExpression) -> list[str]:
        value = unwrap_await(value)
        if type(value) is cst.Call:
            reflected = self._reflected(value)
            if reflected is not None:
                return reflected  # `fn = getattr(mod, name)`, registered later
        return super()._alias_refs(name, value)

    def _flowing_refs(self, expr: cst.BaseExpression) -> list[str] | None:
        """What a registered expression stands for when only its callers or a reflection say:
        None when it is not such an expression (the direct forms decide)."""
        expr = unwrap_await(expr)
        if type(expr) is cst.Name:
            found = self._loop_source(expr.value) or self._parameter_ref(expr.value)
            return [found] if found is not None else None
        if type(expr) is not cst.Call:
            return None
        reflected = self._reflected(expr)
        if reflected is not None:
            return reflected
        inner = first_positional(expr)
        if inner is None or type(inner) not in (cst.Name, cst.Call):
            inner = self._decorated_argument(expr)
            if inner is None:
                return None
        # A wrapper around a function (`adapt(fn)`, `with_retry(search)`): the function runs,
        # inside what the wrapper defines when it is the project's (ModuleModel.adapters).
        found = self._flowing_refs(inner)
        if found is None and type(inner) is cst.Name:
            named = self._function_refs(inner)
            imported = inner.value in self.aliases.aliases and inner.value[:1].islower()  # not a class or constant
            found = [ref for ref in named if ref in self.model.functions or imported] or None
        if found is not None and type(expr.func) in (cst.Name, cst.Attribute):
            adapters = tuple(ref for ref in self._function_refs(expr.func) if not ref.startswith(TABLE_REF))
            for ref in found if adapters else ():
                self.model.adapters[ref] = tuple(dict.fromkeys((*self.model.adapters.get(ref, ()), *adapters)))
        return found

    def _decorated_argument(self, call: cst.Call) -> cst.Name | None:
        """The argument of a wrapper call, in any place, that is the first parameter of the
        decorator being walked (`def deco(fn): return register(audited(sink, fn, limit=1))`):
        the function it decorates, handed to the wrapper beside other values."""
        frame = self.frames[-1] if self.frames else None
        facts = self.model.functions.get(frame.qual) if frame is not None and frame.kind == "function" else None
        first = first_param(facts.params) if facts is not None else None
        if first is None:
            return None
        for arg in call.args:
            if not arg.star and type(arg.value) is cst.Name and arg.value.value == first:
                return arg.value
        return None

    # -- module tables filled with a parameter ---------------------------------------------
    def _track_table(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        super()._track_table(target, value)
        if type(target) is not cst.Subscript or len(target.slice) != 1:
            return
        index = target.slice[0].slice
        key = string_value(index.value) if type(index) is cst.Index else None
        if type(target.value) is cst.Name:
            self._store_parameter(target.value.value, key, value)
        elif type(target.value) is cst.Attribute and dotted(target.value.value) == "self" and self._class_qual():
            # A registry object's table (`self._tools[name] = {"function": func, ...}` in its
            # method, or in a decorator defined there): a dispatcher method's
            # `self._tools[name]["function"](**args)` calls what was stored.
            self._store_in_object(self._key(f"self.{target.value.attr.value}"), key, value)

    def _table_update(self, call: cst.Call) -> None:
        super()._table_update(call)
        func = call.func
        if type(func) is cst.Attribute and func.attr.value in {"append", "add"} and type(func.value) is cst.Name:
            argument = first_positional(call)
            if argument is not None:
                self._store_parameter(func.value.value, None, argument)

    def _store_parameter(self, table: str, key: str | None, value: cst.BaseExpression) -> None:
        """A row of the module-level `table` holding a parameter of the function being walked."""
        frame = self.frames[-1] if self.frames else None
        if frame is None or frame.kind != "function" or (table not in frame.globals and table in frame.bindings):
            return
        if table in frame.tables or table in frame.bound or self._parameter_ref(table) is not None:
            return  # a local or a parameter, not the module's table
        parts = tuple(self._parameter_part(part) for part in _unpacked_parts(unwrap_await(value)))
        if any(parts):
            self._record_table(self._key(table), Table((Row(key, parts),)))

    def _store_in_object(self, table: str, key: str | None, value: cst.BaseExpression) -> None:
        """A row of an object's table (`table`: the class's attribute) holding a parameter of the
        function being walked, as it is or as the function of a row dict (`{"function": fn}`)."""
        if self._function_frame() is None:
            return
        value = unwrap_await(value)
        if type(value) is cst.Dict:
            stored = [
                element.value
                for element in value.elements
                if type(element) is cst.DictElement and string_value(element.key) in ROW_FUNCTION_KEYS
            ]
            value = stored[0] if len(stored) == 1 else value
        part = self._parameter_part(value)
        if part:
            self._record_table(table, Table((Row(key, (part,)),)))

    def _parameter_part(self, part: cst.BaseExpression) -> tuple[str, ...]:
        """What a stored parameter stands for: what the function decorates, what callers pass."""
        if type(part) is not cst.Name:
            return ()
        passed = self._parameter_ref(part.value)
        if passed is None:
            return ()
        frame = self.frames[-1]
        return (f"{DECORATED_REF}{frame.qual}#{part.value}", passed)

    def _callable_arguments(self, node: cst.Call) -> None:
        """Record the arguments of `node` that name a function, a table or a module (for the
        registrations that wait on a parameter: ModuleModel.callable_arguments)."""
        found: list[tuple[int, str, tuple[str, ...]]] = []
        index = 0
        for arg in node.args:
            if arg.star:
                break
            named = self._argument_names(arg.value)
            if named:
                found.append((-1 if arg.keyword is not None else index, arg.keyword.value if arg.keyword is not None else "", named))
            if arg.keyword is None:
                index += 1
        if not found:
            return
        for callee in self._called_functions(node.func):
            for position, keyword, named in found:
                self.model.callable_arguments.append((callee, position, keyword, named))

    def _argument_names(self, value: cst.BaseExpression) -> tuple[str, ...]:
        """What an argument names that a registering callee could take for its tools."""
        if type(value) in (cst.List, cst.Tuple, cst.Set):
            # `[a, b]`, `(*TOOLS, extra)`: each element, a spread table as the table.
            return tuple(name for el in value.elements for name in self._argument_names(el.value))
        if type(value) is cst.Attribute:
            name = dotted(value)
            root = name.partition(".")[0] if name is not None else ""
            resolved = self.aliases.resolve_dotted(name) if root in self.aliases.aliases else None
            return (resolved,) if resolved else ()
        if type(value) is not cst.Name:
            return ()
        name = value.value
        # A loop variable over a parameter or a reflection, or a parameter passed on as it is
        # (`def tool(fn): return registry.add(fn)`): what fills it is what the callers pass.
        passed = self._loop_source(name) or self._parameter_ref(name)
        if passed is not None:
            return (passed,)
        for frame in reversed(self.frames):
            if frame.kind != "function" or name in frame.globals:
                continue
            if name in frame.function_aliases:
                return tuple(frame.function_aliases[name])
            if f"{frame.qual}.{name}" in self.model.functions:
                return (f"{frame.qual}.{name}",)
            if name in frame.bindings or name in frame.tables or name in frame.bound:
                return ()
        key = self._key(name)
        if key in self.model.functions or key in self.model.tables or name in self.model.module_lists:
            return (key,)
        if name in self.module_function_aliases:
            return tuple(self.module_function_aliases[name])
        imported = self.aliases.aliases.get(name)
        return (imported,) if imported else ()


def _unpacked_parts(value: cst.BaseExpression) -> tuple[cst.BaseExpression, ...]:
    if type(value) in (cst.Tuple, cst.List):
        return tuple(el.value for el in value.elements if type(el) is cst.Element)
    return (value,)


def _second(target: cst.BaseExpression, ref: str) -> dict[str, str]:
    """The second name of a `(key, value)` loop target, bound to `ref`."""
    if type(target) in (cst.Tuple, cst.List) and len(target.elements) == 2 and type(target.elements[1].value) is cst.Name:
        return {target.elements[1].value.value: ref}
    return {}
