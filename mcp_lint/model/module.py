"""Build a module's server model: servers, tool handlers, non-tool handlers and function facts.

One walk over the module finds every server object and every registration form of the rule
catalogue ("Where the rules look"); function bodies are then summarised by `facts.collect_facts`.

The question asked at every registration is "what is the object this is called on?" (`mcp` in
`@mcp.tool()`). The answer is a `Receiver`: a server of a known family, certainly not a server
(`agent = Agent(...)`, a class, a third-party module), or unknown. Unknown receivers that the
linker can still tie to a server of another module become `pending` registrations.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Callable, Iterator

import libcst as cst

from mcp_lint.model.walk import FastVisitor

from mcp_lint.model.facts import FunctionFacts, collect_facts
from mcp_lint.model.frameworks import (
    LOWLEVEL_NON_TOOL_KWARGS,
    LOWLEVEL_V1_DECORATORS,
    NON_TOOL_ATTRS,
    NON_TOOL_CONSTRUCTOR_KWARGS,
    NON_TOOL_FACTORIES,
    SERVER_CLASSES,
    STANDALONE_NON_TOOL_DECORATORS,
    STANDALONE_TOOL_DECORATORS,
    TOOL_ERROR_CLASSES,
    TOOL_FACTORIES,
    Family,
    is_framework_name,
    server_family,
)
from mcp_lint.model.names import AliasTable, dotted, last_name
from mcp_lint.model.summary import PARAM_REF, TABLE_REF, ToolRegistration

Expr = cst.BaseExpression

# Typing constructs whose arguments are the annotation's real types.
_UNION_WRAPPERS = frozenset({"Optional", "Union"})
_FIRST_ARG_WRAPPERS = frozenset({"Annotated", "Final", "ClassVar"})


@dataclass
class ModuleModel:
    module: str
    aliases: AliasTable
    # Qualified name -> family, for every name that is, builds or types a server: variables
    # (`pkg.app.mcp`, `pkg.app.Service.mcp` for `self.mcp`), project subclasses of a server class
    # and factory functions returning one. The linker looks up pending registrations here.
    servers: dict[str, Family] = field(default_factory=dict)
    tools: list[ToolRegistration] = field(default_factory=list)
    # (function, qualified name of the receiver or of what made it, tool name): `@x.tool` where x
    # comes from elsewhere; "" when nothing names it (the file's framework imports decide).
    pending: list[tuple[str, str, str]] = field(default_factory=list)
    non_tool: set[str] = field(default_factory=set)
    functions: dict[str, FunctionFacts] = field(default_factory=dict)
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Module-level lists, tuples, sets (elements) and dicts (values): `for fn in TOOLS`.
    module_lists: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    # Module-level dicts as (key, value) pairs: `for name, fn in TOOLS.items()`.
    module_dicts: dict[str, list[tuple[cst.BaseExpression, cst.BaseExpression]]] = field(default_factory=dict)
    logger_name: str | None = None
    lowlevel_major_hint: int | None = None
    # Module/class-level names assigned something that is certainly not a server (`agent = Agent()`).
    non_servers: set[str] = field(default_factory=set)
    # A server constructor here passes `mask_error_details=True` (fastmcp).
    masks_errors: bool = False
    # ErrorHandlingMiddleware put on a server here (MCP009).
    error_middleware: list[MiddlewareSite] = field(default_factory=list)
    # Module/class-level names assigned the result of a project callable we cannot see into
    # (`mcp = create_server()` with create_server imported): name -> that callable.
    server_sources: dict[str, str] = field(default_factory=dict)
    # Objects whose type an annotation or a later assignment tells, by the name calls reach them
    # through (as ModuleSummary.instances): `api: Api = None` -> {"api": "pkg.api.Api"}, a class
    # body's `client: Api` -> {"Service.client": ...}, `global api; api = Api()` in a function.
    typed_names: dict[str, str] = field(default_factory=dict)
    # `@server.tool` on an unannotated parameter of a register function in a module that does not
    # import a framework: (function, register function, parameter, tool name); its call sites decide.
    param_pending: list[tuple[str, str, str, str]] = field(default_factory=list)
    # Tables of functions a dispatcher looks a tool up in: a module-level dict of functions
    # (`HANDLERS = {"add": add}` -> "HANDLERS"), or what a function returns (`{n: getattr(api, n)
    # for n in NAMES}` -> "<function key>()"); the qualified names of the functions they hold.
    function_tables: dict[str, list[str]] = field(default_factory=dict)
    # Functions passed as a server's `lifespan=`: what they yield is `ctx...lifespan_context`.
    lifespans: list[str] = field(default_factory=list)
    # Calls passing a server (or what the linker may find to be one) as an argument:
    # (callee, positional index or -1, keyword or "", server key, family or None).
    server_arguments: list[tuple[str, int, str, str, Family | None]] = field(default_factory=list)


# fastmcp's ErrorHandlingMiddleware (its only import path in 2.9-4.x): MCP009.
ERROR_MIDDLEWARE_CLASSES = frozenset({"fastmcp.server.middleware.error_handling.ErrorHandlingMiddleware"})


@dataclass(frozen=True)
class MiddlewareSite:
    """An `ErrorHandlingMiddleware(...)` put on a server: `server.add_middleware(...)` or the
    constructor's `middleware=[...]`."""

    server: str  # the server's qualified name; "" for a function local (its module's tools decide)
    call: cst.Call  # the ErrorHandlingMiddleware(...) call
    form: str  # "add_middleware" or "middleware="
    top: cst.CSTNode  # the top-level statement holding it (positions are resolved per statement)
    top_index: int


class Is(enum.Enum):
    SERVER = "server"
    NOT_SERVER = "not-server"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Receiver:
    """What the object a registration is made on is known to be."""

    is_: Is
    family: Family | None = None
    # SERVER: the server variable's qualified name (None for function locals). UNKNOWN: a
    # qualified name the linker can look up among all modules' servers, when there is one.
    key: str | None = None
    # UNKNOWN: an unannotated parameter (function key, parameter name); its callers decide.
    param: tuple[str, str] | None = None


UNKNOWN = Receiver(Is.UNKNOWN)
NOT_SERVER = Receiver(Is.NOT_SERVER)


@dataclass
class _Frame:
    """An enclosing class or function body."""

    kind: str  # "class" or "function"
    qual: str
    bindings: dict[str, Receiver] = field(default_factory=dict)  # function parameters and locals
    globals: set[str] = field(default_factory=set)
    # Local names standing for functions: `find_foo = find` then `mcp.tool(find_foo)`.
    function_aliases: dict[str, list[str]] = field(default_factory=dict)


def _string_value(expr: cst.BaseExpression | None) -> str | None:
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _arg(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    """The argument passed at `index` or as `keyword=`."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return positional[index].value if index < len(positional) else None


def _kw_string(call: cst.Call, keyword: str) -> str | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return _string_value(arg.value)
    return None


def _call_name_arg(call: cst.Call) -> str | None:
    """The tool name of `@mcp.tool("name")` / `@mcp.tool(name="name")`."""
    return _string_value(_arg(call, 0, "name"))


def _first_positional(call: cst.Call) -> cst.BaseExpression | None:
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        return call.args[0].value
    return None


def _unwrap_await(expr: cst.BaseExpression) -> cst.BaseExpression:
    while isinstance(expr, cst.Await):
        expr = expr.expression
    return expr


class _ModuleWalker(FastVisitor):
    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.aliases = model.aliases
        self.frames: list[_Frame] = []
        # Loop variables bound to known elements: `for fn in [a, b]` -> {"fn": [a, b]}.
        self.loop_stack: list[dict[str, list[cst.BaseExpression]]] = []
        # Loop variables over a table of another module (`for fn in TOOLS` with TOOLS imported):
        # name -> the table's qualified name; the linker reads the table (TABLE_REF).
        self.loop_tables: list[dict[str, str]] = []
        # Calls that are decorators (`@mcp.tool("x")`): handled with their function, not as calls.
        self.decorator_calls: set[int] = set()
        self.module_function_aliases: dict[str, list[str]] = {}
        # Module-level names assigned a call's result (`service = Service()`): `alias =
        # service.method` names a method of that object, not data.
        self.module_objects: set[str] = set()
        self.module_top = model.module.split(".")[0] if model.module else ""
        # The top-level statement being walked (build_model sets it), for MiddlewareSite.
        self.top: cst.CSTNode | None = None
        self.top_index = 0
        # Server constructor calls assigned to a name: id(call) -> the server's key ("" local).
        self.assigned_keys: dict[int, str] = {}

    # -- scopes ---------------------------------------------------------------------------
    def _qualname(self, name: str) -> str:
        if self.frames:
            return f"{self.frames[-1].qual}.{name}"
        return f"{self.model.module}.{name}" if self.model.module else name

    def _class_qual(self) -> str | None:
        """The class whose method we are in (what `self` and `cls` stand for)."""
        for frame in reversed(self.frames):
            if frame.kind == "class":
                return frame.qual
        return None

    def _key(self, name: str) -> str:
        """Model key of a dotted name: `self.mcp` -> `mod.Class.mcp`, `mcp` -> `mod.mcp`."""
        root, _, rest = name.partition(".")
        class_qual = self._class_qual()
        if root in {"self", "cls"} and rest and class_qual:
            return f"{class_qual}.{rest}"
        return f"{self.model.module}.{name}" if self.model.module else name

    def _is_project_name(self, name: str, resolved: str) -> bool:
        """Does the imported `name` come from this project (relative import or same top package)?"""
        if name.split(".")[0] in self.aliases.relative_names:
            return True
        return bool(self.module_top) and resolved.split(".")[0] == self.module_top

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        qual = self._qualname(node.name.value)
        bases = []
        for base in node.bases:
            value = base.value.value if isinstance(base.value, cst.Subscript) else base.value  # `FastMCP[Ctx]`
            bases.append(self.aliases.resolve(value) or f"{self.model.module}.{dotted(value) or '?'}")
        self.model.classes[qual] = tuple(bases)
        # A subclass of a server class is a server class: record it so that instances, here or
        # in other modules (through the linker), get the base's family.
        for base in bases:
            family = server_family(base) or self.model.servers.get(base)
            if family is not None:
                self.model.servers[qual] = family
                break
        self.frames.append(_Frame("class", qual))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.frames.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        qual = self._unique_qualname(node)
        class_qual = self.frames[-1].qual if self.frames and self.frames[-1].kind == "class" else None
        class_name = class_qual[len(self.model.module) + 1 :] if class_qual and self.model.module else class_qual
        enclosing = self._enclosing_facts()
        facts = collect_facts(
            node,
            qual,
            class_name,
            self.aliases,
            self._callee_resolver(),
            lambda annotation: annotation_type(annotation, self.aliases),
            enclosing.local_types if enclosing is not None else None,
            self.model.module_lists,
        )
        self.model.functions[qual] = facts
        if node.returns is not None:
            facts.returns_type = annotation_type(node.returns.annotation, self.aliases)
            returned = self._receiver_of_annotation(node.returns.annotation)
            if returned.is_ is Is.SERVER and returned.family is not None:
                self.model.servers[qual] = returned.family  # `def create_server() -> FastMCP`
        resolve = self._callee_resolver()
        for decorator in node.decorators:
            if isinstance(decorator.decorator, cst.Call):
                self.decorator_calls.add(id(decorator.decorator))
            registered = self._registration_count()
            self._registration_from_decorator(decorator.decorator, qual, node.name.value)
            if registered != self._registration_count():
                facts.wrappers = []  # only the decorators below a registration wrap what it registers
            else:
                func = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
                wrapper = resolve(func) if dotted(func) is not None else None
                if wrapper is not None:
                    facts.wrappers.append(wrapper)
        frame = _Frame("function", qual)
        for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
            name = param.name.value
            if name in {"self", "cls"} and class_qual:
                continue
            # A parameter shadows module names; only its annotation tells what it is.
            annotation = param.annotation.annotation if param.annotation is not None else None
            frame.bindings[name] = self._receiver_of_annotation(annotation) if annotation is not None else Receiver(Is.UNKNOWN, param=(qual, name))
        self.frames.append(frame)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.frames.pop()

    def _registration_count(self) -> int:
        model = self.model
        return len(model.tools) + len(model.pending) + len(model.non_tool) + len(model.param_pending)

    def _unique_qualname(self, node: cst.FunctionDef) -> str:
        """The key of a function: its qualified name, or `name@N` for the N-th later `def` of the
        same name in the same scope (a prompt or resource named like the tool above it, a
        conditional redefinition): each registration stays bound to the body it decorates. A
        real body after `@overload` stubs takes the name (the stubs have nothing to follow)."""
        qual = self._qualname(node.name.value)
        if qual not in self.model.functions:
            return qual
        count = 2
        while f"{qual}@{count}" in self.model.functions:
            count += 1
        earlier = self.model.functions[qual]
        if any(last_name(dotted(d.decorator)) == "overload" for d in earlier.node.decorators):
            self.model.functions[f"{qual}@{count}"] = earlier
            del self.model.functions[qual]
            return qual
        return f"{qual}@{count}"

    def _enclosing_facts(self) -> FunctionFacts | None:
        """The facts of the function this one is nested in (its locals are this one's closure)."""
        if self.frames and self.frames[-1].kind == "function":
            return self.model.functions.get(self.frames[-1].qual)
        return None

    def visit_Global(self, node: cst.Global) -> None:
        if self.frames:
            self.frames[-1].globals.update(item.name.value for item in node.names)

    def visit_Import(self, node: cst.Import) -> None:
        self.aliases.add_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.aliases.add_import_from(node)

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

    # -- what an expression is ----------------------------------------------------------------
    def _module_binding(self, key: str) -> Receiver | None:
        if key in self.model.servers:
            return Receiver(Is.SERVER, self.model.servers[key], key)
        if key in self.model.non_servers:
            return NOT_SERVER
        if key in self.model.server_sources:
            return Receiver(Is.UNKNOWN, key=self.model.server_sources[key])
        return None

    def _receiver(self, expr: cst.BaseExpression) -> Receiver:
        """What the object `expr` (a registration is made on) is."""
        name = dotted(expr)
        if name is None:
            return UNKNOWN  # `get_server().tool`, `servers[0].tool`
        root, _, rest = name.partition(".")
        class_qual = self._class_qual()
        if root in {"self", "cls"} and class_qual:
            if not rest:  # `self.add_tool(...)` in a subclass of a server class
                family = self.model.servers.get(class_qual)
                return Receiver(Is.SERVER, family, class_qual) if family is not None else UNKNOWN
            return self._module_binding(self._key(name)) or UNKNOWN
        for frame in reversed(self.frames):
            if frame.kind == "function" and root in frame.bindings and root not in frame.globals:
                return frame.bindings[root] if not rest else UNKNOWN
        found = self._module_binding(self._key(name))
        if found is not None:
            return found
        resolved = self.aliases.resolve_dotted(name)
        if resolved is None:
            return UNKNOWN
        if resolved in SERVER_CLASSES:
            return NOT_SERVER  # `@FastMCP.tool`: the class, not a server
        return Receiver(Is.UNKNOWN, key=resolved)  # imported: the linker knows the other module

    def _receiver_of_value(self, value: cst.BaseExpression) -> Receiver | None:
        """What an assignment of `value` binds; None when the value says nothing about servers."""
        value = _unwrap_await(value)
        if isinstance(value, (cst.Name, cst.Attribute)):
            # `server = mcp`: an alias of a server here, or of one the linker finds elsewhere.
            found = self._receiver(value)
            return found if found.is_ is Is.SERVER or found.key is not None else None
        if isinstance(value, cst.Call):
            return self._receiver_of_callee(value.func)
        return None

    def _receiver_of_callee(self, func: cst.BaseExpression) -> Receiver:
        """What calling `func` returns: a server constructor, factory, or something else."""
        if isinstance(func, cst.Subscript):
            func = func.value  # `Server[LifespanState](...)`
        name = dotted(func)
        if name is None:
            return UNKNOWN
        resolved = self.aliases.resolve_dotted(name)
        family = server_family(resolved)
        if family is not None:
            return Receiver(Is.SERVER, family)
        if resolved is None:
            # Defined here: a server subclass or factory we have seen, another local class, or
            # a function whose result we cannot tell.
            key = self._key(name)
            if key in self.model.servers:
                return Receiver(Is.SERVER, self.model.servers[key])
            return NOT_SERVER if key in self.model.classes else UNKNOWN
        if is_framework_name(resolved):
            return NOT_SERVER  # `fastmcp.Client(...)`, `mcp.ClientSession(...)`
        if self._is_project_name(name, resolved):
            return Receiver(Is.UNKNOWN, key=resolved)  # a project class or factory: linked later
        if last_name(resolved)[:1].isupper():
            return NOT_SERVER  # a third-party class: `Agent(...)`, `Flask(...)`
        # A function from outside the package: a sibling module of a flat layout can be a
        # server factory, so the linker decides.
        return Receiver(Is.UNKNOWN, key=resolved)

    def _receiver_of_annotation(self, annotation: cst.BaseExpression) -> Receiver:
        """What a parameter or variable annotated with `annotation` is."""
        if isinstance(annotation, cst.SimpleString):
            text = annotation.evaluated_value
            try:
                parsed = cst.parse_expression(text) if isinstance(text, str) else None
            except cst.ParserSyntaxError:
                parsed = None
            return self._receiver_of_annotation(parsed) if parsed is not None else UNKNOWN
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            return self._first_server(annotation.left, annotation.right)  # `FastMCP | None`
        if isinstance(annotation, cst.Subscript):
            wrapper = last_name(self.aliases.resolve(annotation.value) or dotted(annotation.value))
            items = [el.slice.value for el in annotation.slice if isinstance(el.slice, cst.Index)]
            if wrapper in _UNION_WRAPPERS:
                return self._first_server(*items)
            if wrapper in _FIRST_ARG_WRAPPERS and items:
                return self._receiver_of_annotation(items[0])
            return self._receiver_of_annotation(annotation.value)  # `FastMCP[AppContext]`
        name = dotted(annotation)
        if name is None:
            return UNKNOWN
        resolved = self.aliases.resolve_dotted(name)
        if resolved is not None and resolved.split(".")[0] in {"typing", "typing_extensions"}:
            return UNKNOWN  # `Any`, `object`-like: could be anything
        if resolved is None and self._key(name) not in self.model.classes:
            return UNKNOWN  # builtins and names we do not know
        return self._receiver_of_callee(annotation)

    def _first_server(self, *annotations: cst.BaseExpression) -> Receiver:
        found = [self._receiver_of_annotation(a) for a in annotations if not _is_none(a)]
        for receiver in found:
            if receiver.is_ is Is.SERVER:
                return receiver
        return NOT_SERVER if found and all(r.is_ is Is.NOT_SERVER for r in found) else UNKNOWN

    # -- bindings -------------------------------------------------------------------------
    def _bind(self, target: cst.BaseExpression, receiver: Receiver | None) -> None:
        if receiver is None:
            return
        frame = self.frames[-1] if self.frames else None
        in_function = frame is not None and frame.kind == "function"
        if isinstance(target, cst.Name) and in_function and target.value not in frame.globals:
            frame.bindings[target.value] = receiver
            return
        name = dotted(target)
        if name is None:
            return
        if frame is not None and frame.kind == "class" and isinstance(target, cst.Name):
            key = f"{frame.qual}.{name}"  # a class attribute: reached as `self.name` / `Cls.name`
        else:
            key = self._key(name)
        if receiver.is_ is Is.SERVER and receiver.family is not None:
            self.model.servers[key] = receiver.family
            self.model.non_servers.discard(key)
        elif receiver.is_ is Is.NOT_SERVER and key not in self.model.servers:
            # A name bound to a server anywhere stays one: conditional definitions pick either.
            self.model.non_servers.add(key)
        elif receiver.is_ is Is.UNKNOWN and receiver.key and key not in self.model.servers:
            self.model.server_sources[key] = receiver.key

    def _binding_key(self, target: cst.BaseExpression) -> str:
        """The key `_bind` files a server under (`pkg.mod.mcp`, `pkg.mod.Cls.mcp`); "" for a local."""
        frame = self.frames[-1] if self.frames else None
        if isinstance(target, cst.Name) and frame is not None and frame.kind == "function" and target.value not in frame.globals:
            return ""
        name = dotted(target)
        if name is None:
            return ""
        if frame is not None and frame.kind == "class" and isinstance(target, cst.Name):
            return f"{frame.qual}.{name}"
        return self._key(name)

    def visit_Assign(self, node: cst.Assign) -> None:
        if self.frames and self.frames[-1].kind == "function":
            value = _unwrap_await(node.value)
            if isinstance(value, cst.Call):  # `global api` then `api = Api()`
                for target in node.targets:
                    if isinstance(target.target, cst.Name) and target.target.value in self.frames[-1].globals:
                        self._typed_name(target.target, self.aliases.resolve_or_local(value.func))
        receiver = self._receiver_of_value(node.value)
        if receiver is not None and receiver.is_ is Is.SERVER and len(node.targets) == 1:
            self.assigned_keys[id(_unwrap_await(node.value))] = self._binding_key(node.targets[0].target)
        for target in node.targets:
            self._bind(target.target, receiver)
            self._track_function_alias(target.target, node.value)
            self._raw_request_handler(target.target, node.value)
        if not self.frames and len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            self._module_constant(node.targets[0].target.value, node.value)
            if isinstance(_unwrap_await(node.value), cst.Call):
                self.module_objects.add(node.targets[0].target.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        receiver = self._receiver_of_value(node.value) if node.value is not None else None
        if receiver is None or receiver.is_ is Is.UNKNOWN:
            # `mcp: FastMCP = create()`: the annotation says what the value does not.
            annotated = self._receiver_of_annotation(node.annotation.annotation)
            if annotated.is_ is not Is.UNKNOWN:
                receiver = annotated
        self._bind(node.target, receiver)
        if not self.frames and isinstance(node.target, cst.Name) and node.value is not None:
            self._module_constant(node.target.value, node.value)
        self._typed_name(node.target, annotation_type(node.annotation.annotation, self.aliases))

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
        names = [_string_value(element) for element in self._iterable_elements(value.for_in.iter)]
        if type_name and names and all(names):
            self.model.function_tables[f"{qual}()"] = [f"{type_name}.{name}" for name in names]

    def visit_Return(self, node: cst.Return) -> None:
        # `return FastMCP(...)` / `return server`: the function is a server factory.
        if node.value is None or not self.frames or self.frames[-1].kind != "function":
            return
        self._returned_table(node.value)
        receiver = self._receiver_of_value(node.value)
        if receiver is not None and receiver.is_ is Is.SERVER and receiver.family is not None:
            self.model.servers.setdefault(self.frames[-1].qual, receiver.family)

    # -- registrations --------------------------------------------------------------------
    def _plausible(self, receiver: Receiver) -> bool:
        """Can a registration method called on `receiver` be an MCP one?"""
        if receiver.is_ is Is.SERVER:
            return True
        return receiver.is_ is Is.UNKNOWN and (receiver.key is not None or self.aliases.mentions_framework())

    def _add(
        self, function: str, tool_name: str, family: Family | None, server: str | None = None, kind: str = "tool", major: int | None = None
    ) -> None:
        self.model.tools.append(ToolRegistration(function, tool_name, family, server, kind, major))

    def _register_tool(self, function: str, tool_name: str, receiver: Receiver) -> None:
        if receiver.is_ is Is.SERVER:
            self._add(function, tool_name, receiver.family, receiver.key)
        elif self._plausible(receiver):
            # Only the linker can tell (a server of another module, or nothing MCP at all).
            self.model.pending.append((function, receiver.key or "", tool_name))
        elif receiver.param is not None:
            # `def register_tools(server, store): @server.tool()`: what callers pass decides.
            self.model.param_pending.append((function, *receiver.param, tool_name))

    def _register_dispatch(self, function: str, receiver: Receiver, major: int) -> None:
        """A low-level `tools/call` handler (it dispatches to per-tool functions)."""
        if receiver.is_ is Is.SERVER and receiver.family is not Family.MCP_LOWLEVEL:
            return
        if not self._plausible(receiver):
            return
        self._add(function, last_name(function), Family.MCP_LOWLEVEL, receiver.key, "dispatch", major)
        self.model.lowlevel_major_hint = major

    def _register_by_attr(self, attr: str, receiver: Receiver, functions: list[str], name: str | None) -> None:
        """`receiver.<attr>` applied to `functions` (as a decorator or a curried call)."""
        if attr == "tool":
            for function in functions:
                self._register_tool(function, name or last_name(function), receiver)
        elif attr == "call_tool":
            for function in functions:
                self._register_dispatch(function, receiver, major=1)
        elif attr in NON_TOOL_ATTRS and self._plausible(receiver):
            self.model.non_tool.update(functions)
            if attr in LOWLEVEL_V1_DECORATORS and receiver.family is Family.MCP_LOWLEVEL:
                self.model.lowlevel_major_hint = 1

    def _registration_from_decorator(self, deco: cst.BaseExpression, qual: str, fname: str) -> None:
        call = deco if isinstance(deco, cst.Call) else None
        func = call.func if call is not None else deco
        tool_name = _call_name_arg(call) if call is not None else None
        resolved = self.aliases.resolve(func)
        if resolved in STANDALONE_TOOL_DECORATORS:
            self._add(qual, tool_name or fname, Family.FASTMCP)
        elif resolved in STANDALONE_NON_TOOL_DECORATORS:
            self.model.non_tool.add(qual)
        elif isinstance(func, cst.Attribute):
            self._register_by_attr(func.attr.value, self._receiver(func.value), [qual], tool_name)

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self.decorator_calls:
            return
        func = node.func
        self._server_arguments(node)
        resolved = self.aliases.resolve(func)
        if resolved in TOOL_FACTORIES:
            target = _arg(node, 0, "fn")
            for function in self._function_refs(target) if target is not None else []:
                self._add(function, _kw_string(node, "name") or last_name(function), TOOL_FACTORIES[resolved])
            return
        if resolved in NON_TOOL_FACTORIES:
            target = _arg(node, 0, "fn")
            self.model.non_tool.update(self._function_refs(target) if target is not None else [])
            return
        constructed = self._receiver_of_callee(func)
        if constructed.is_ is Is.SERVER and constructed.family is not None:
            self._constructor_arguments(node, constructed.family)
            return
        if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute):
            # `mcp.tool(name="x")(fn)`, `server.call_tool()(handler)`
            first = _first_positional(node)
            if first is not None:
                receiver = self._receiver(func.func.value)
                self._register_by_attr(func.func.attr.value, receiver, self._function_refs(first), _call_name_arg(func))
        elif isinstance(func, cst.Attribute):
            self._method_registration(node, func.attr.value, self._receiver(func.value))

    def _server_arguments(self, node: cst.Call) -> None:
        """`register_tools(mcp, store)`: remember which argument is a server, for the register
        functions whose registrations wait on their callers (ModuleModel.param_pending)."""
        callee: str | None = None
        index = 0
        for arg in node.args:
            if arg.star:
                break
            if isinstance(arg.value, (cst.Name, cst.Attribute)):
                receiver = self._receiver(arg.value)
                key = receiver.key or ""
                if receiver.param is not None:  # `def register_all(server): register_notes(server)`
                    key = PARAM_REF + "#".join(receiver.param)
                if receiver.is_ is Is.SERVER or (receiver.is_ is Is.UNKNOWN and key):
                    if callee is None:
                        callee = self._called_function(node.func)
                    if callee:
                        keyword = arg.keyword.value if arg.keyword is not None else ""
                        position = -1 if keyword else index
                        self.model.server_arguments.append((callee, position, keyword, key, receiver.family))
            if arg.keyword is None:
                index += 1

    def _called_function(self, func: cst.BaseExpression) -> str:
        """The callee name of `register(...)`, `module.register(...)` or `Tools().register(...)`."""
        resolve = self._callee_resolver()
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call) and dotted(func.value.func):
            made_by = resolve(func.value.func)
            return f"{made_by}.{func.attr.value}" if made_by else ""
        return resolve(func) or ""

    def _method_registration(self, node: cst.Call, attr: str, receiver: Receiver) -> None:
        """`mcp.add_tool(fn)`, `mcp.tool(fn)`, `server.add_request_handler(...)`, `mcp.add_prompt(...)`."""
        if attr == "add_request_handler":
            self._request_handler(node, receiver)
            return
        if attr == "add_middleware":
            first = _first_positional(node)
            if first is not None and self._plausible(receiver) and receiver.family in {None, Family.FASTMCP}:
                self._error_middleware([first], receiver.key or "", "add_middleware")
            return
        first = _first_positional(node)
        if first is None or not (attr in {"add_tool", "tool"} or attr in NON_TOOL_ATTRS):
            return
        functions = self._registered_functions(first)
        if attr in {"add_tool", "tool"}:
            for function in functions:
                self._register_tool(function, _kw_string(node, "name") or last_name(function), receiver)
        elif self._plausible(receiver):
            self.model.non_tool.update(functions)

    def _registered_functions(self, expr: cst.BaseExpression) -> list[str]:
        """The functions an `add_tool(...)` argument registers."""
        if isinstance(expr, cst.Call):
            resolved = self.aliases.resolve(expr.func)
            if resolved in TOOL_FACTORIES or resolved in NON_TOOL_FACTORIES:
                return []  # counted when the factory call itself is visited
            if isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "from_function":
                # A Tool class we cannot place (a project alias): what it is added to decides.
                target = _arg(expr, 0, "fn")
                return self._function_refs(target) if target is not None else []
        return self._function_refs(expr)

    def _request_handler(self, node: cst.Call, receiver: Receiver) -> None:
        """mcp 2.x `server.add_request_handler("tools/call", CallToolRequestParams, handler)`."""
        method = _string_value(_arg(node, 0, "method"))
        handler = _arg(node, 2, "handler")
        if method is None or handler is None or "/" not in method or not self._plausible(receiver):
            return
        functions = self._function_refs(handler)
        if method == "tools/call":
            for function in functions:
                self._register_dispatch(function, receiver, major=2)
        else:
            self.model.non_tool.update(functions)
            if receiver.family in {None, Family.MCP_LOWLEVEL}:
                self.model.lowlevel_major_hint = 2

    def _constructor_arguments(self, call: cst.Call, family: Family) -> None:
        """`FastMCP(tools=[...])`, `Server(name, on_call_tool=handler, on_read_resource=...)`."""
        for arg in call.args:
            if arg.keyword is None:
                continue
            keyword = arg.keyword.value
            if keyword == "mask_error_details" and isinstance(arg.value, cst.Name) and arg.value.value == "True":
                self.model.masks_errors = True
            if keyword == "lifespan":
                self.model.lifespans.extend(self._function_refs(arg.value))
            if keyword == "middleware" and family is Family.FASTMCP:
                self._error_middleware(self._iterable_elements(arg.value), self.assigned_keys.get(id(call), ""), "middleware=")
            if keyword == "tools":
                for element in self._iterable_elements(arg.value):
                    if isinstance(element, cst.Call):
                        continue  # `Tool.from_function(fn)` is found by visit_Call
                    for function in self._function_refs(element):
                        self._add(function, last_name(function), family)
            elif family is Family.MCP_LOWLEVEL and keyword.startswith("on_"):
                self.model.lowlevel_major_hint = 2
                functions = self._function_refs(arg.value)
                if keyword == "on_call_tool":
                    for function in functions:
                        self._add(function, last_name(function), family, None, "dispatch", 2)
                elif keyword in LOWLEVEL_NON_TOOL_KWARGS:
                    self.model.non_tool.update(functions)
            elif keyword in NON_TOOL_CONSTRUCTOR_KWARGS:
                for element in self._iterable_elements(arg.value) or [arg.value]:
                    self.model.non_tool.update(self._function_refs(element))

    def _error_middleware(self, elements: list[cst.BaseExpression], server: str, form: str) -> None:
        """Record the ErrorHandlingMiddleware(...) calls among `elements` (MCP009)."""
        for element in elements:
            element = _unwrap_await(element)
            if isinstance(element, cst.Call) and self.aliases.resolve(element.func) in ERROR_MIDDLEWARE_CLASSES and self.top is not None:
                self.model.error_middleware.append(MiddlewareSite(server, element, form, self.top, self.top_index))

    def _raw_request_handler(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """mcp 1.x `server.request_handlers[types.CallToolRequest] = handler` (no decorator)."""
        if not isinstance(target, cst.Subscript) or not isinstance(target.value, cst.Attribute):
            return
        if target.value.attr.value != "request_handlers" or len(target.slice) != 1:
            return
        index = target.slice[0].slice
        if not isinstance(index, cst.Index):
            return
        request = last_name(self.aliases.resolve(index.value) or dotted(index.value))
        functions = self._function_refs(value)
        if request == "CallToolRequest":
            for function in functions:
                # Without the decorator, McpError becomes a JSON-RPC error (semantics §5): its own kind.
                self._add(function, last_name(function), Family.MCP_LOWLEVEL, None, "raw-dispatch", 1)
        elif request.endswith("Request"):
            self.model.non_tool.update(functions)

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
            target = _first_positional(expr)
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
        refs = self._alias_refs(target.value, _unwrap_await(value))
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
            first = _first_positional(value)
            if isinstance(first, cst.Name) and first.value == name:
                # Re-binding a name to a wrapper of itself (`f = with_retry(f)`) keeps the function.
                return self._name_refs(name)
            return self._function_refs(value)  # partial(fn, ...)
        return []

    def _method_of_module_object(self, name: str) -> bool:
        root, _, rest = name.partition(".")
        return bool(rest) and "." not in rest and root in self.module_objects

    def _callee_resolver(self) -> Callable[[cst.BaseExpression], str | None]:
        """How the facts of the function being entered name what it calls."""
        module = self.model.module
        aliases = self.aliases
        functions = self.model.functions
        class_qual = self._class_qual()
        enclosing = [frame.qual for frame in self.frames if frame.kind == "function"]

        def resolve(func: cst.BaseExpression) -> str | None:
            name = dotted(func)
            if name is None:
                return None
            root, _, rest = name.partition(".")
            if root in {"self", "cls"} and rest and class_qual:
                return f"{class_qual}.{rest}"
            for qual in reversed(enclosing):  # a sibling nested function: `def register(mcp): ...`
                if f"{qual}.{root}" in functions:
                    return f"{qual}.{name}"
            resolved = aliases.resolve_dotted(name)
            if resolved is not None:
                return resolved
            return f"{module}.{name}" if module else name

        return resolve


# Typing wrappers whose first argument is what a value of that annotation is used as: the object
# an `Optional[Api]` holds, what `with` gets from an `AsyncIterator[Api]` context manager.
_TYPE_FIRST_ARG = frozenset(
    {"Annotated", "Final", "ClassVar", "Iterator", "AsyncIterator", "Generator", "AsyncGenerator", "Awaitable", "Type", "type"}
)
_TYPING_MODULES = frozenset({"typing", "typing_extensions", "collections", "builtins"})


def annotation_type(annotation: cst.BaseExpression | None, aliases: AliasTable) -> str | None:
    """The qualified class an annotation names, for method lookup: `Api`, `"Api"`, `Api | None`,
    `Optional[Api]`, `AsyncIterator[Api]` -> `pkg.api.Api`. None for builtins, containers and
    unions of several classes (a call on them cannot be tied to one method)."""
    if annotation is None:
        return None
    if isinstance(annotation, cst.SimpleString):
        text = annotation.evaluated_value
        try:
            parsed = cst.parse_expression(text) if isinstance(text, str) else None
        except cst.ParserSyntaxError:
            return None
        return annotation_type(parsed, aliases)
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        return _single_type([annotation.left, annotation.right], aliases)
    if isinstance(annotation, cst.Subscript):
        wrapper = last_name(aliases.resolve(annotation.value) or dotted(annotation.value))
        items = [el.slice.value for el in annotation.slice if isinstance(el.slice, cst.Index)]
        if wrapper in _UNION_WRAPPERS:
            return _single_type(items, aliases)
        if wrapper in _TYPE_FIRST_ARG:
            return annotation_type(items[0], aliases) if items else None
        annotation = annotation.value  # `Client[Config]`: a generic project class
    name = dotted(annotation)
    if name is None:
        return None
    resolved = aliases.resolve_dotted(name)
    if resolved is not None:
        return None if resolved.split(".")[0] in _TYPING_MODULES else resolved
    if not last_name(name)[:1].isupper() or name in _BUILTIN_CLASSES:
        return None  # `str`, `dict`, `Any` written without an import
    return f"{aliases.module}.{name}" if aliases.module else name


_BUILTIN_CLASSES = frozenset({"Exception", "BaseException", "Ellipsis", "None", "NotImplemented"})


def _single_type(annotations: list[cst.BaseExpression], aliases: AliasTable) -> str | None:
    found = {annotation_type(a, aliases) for a in annotations if not _is_none(a)}
    return found.pop() if len(found) == 1 else None


def _unpack(element: cst.BaseExpression) -> tuple[cst.BaseExpression, ...]:
    if isinstance(element, (cst.Tuple, cst.List)):
        return tuple(el.value for el in element.elements if isinstance(el, cst.Element))
    return (element,)


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _is_get_logger(value: cst.BaseExpression, aliases: AliasTable) -> bool:
    if isinstance(value, cst.Call):
        resolved = aliases.resolve(value.func) or dotted(value.func) or ""
        return last_name(resolved) in {"getLogger", "get_logger"}
    return False


def build_model(module: cst.Module, module_name: str, is_package: bool) -> ModuleModel:
    aliases = AliasTable(module_name, is_package)
    # Top-level imports first, so decorators above a late import still resolve.
    for stmt in module.body:
        for node in _top_imports(stmt):
            if isinstance(node, cst.Import):
                aliases.add_import(node)
            else:
                aliases.add_import_from(node)
    model = ModuleModel(module_name, aliases)
    walker = _ModuleWalker(model)
    for index, stmt in enumerate(module.body):
        walker.top, walker.top_index = stmt, index
        walker.walk(stmt)
    return model


def _top_imports(stmt: cst.CSTNode) -> Iterator[cst.Import | cst.ImportFrom]:
    """Import statements at module level, including inside `if`/`try` blocks."""
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            if isinstance(small, (cst.Import, cst.ImportFrom)):
                yield small
    elif isinstance(stmt, (cst.If, cst.Try)):
        blocks = [stmt.body]
        if isinstance(stmt, cst.Try):
            blocks.extend(handler.body for handler in stmt.handlers)
        elif isinstance(stmt.orelse, cst.If):
            yield from _top_imports(stmt.orelse)  # elif
        elif isinstance(stmt.orelse, cst.Else):
            blocks.append(stmt.orelse.body)
        for block in blocks:
            for child in block.body:
                yield from _top_imports(child)


def tool_error_names(aliases: AliasTable) -> dict[Family, str]:
    """Local names under which each family's ToolError is already imported."""
    out: dict[Family, str] = {}
    for local, qual in aliases.aliases.items():
        family = TOOL_ERROR_CLASSES.get(qual)
        if family is not None:
            out.setdefault(family, local)
    return out
