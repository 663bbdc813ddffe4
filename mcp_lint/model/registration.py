"""The registration forms of the rule catalogue ("Where the rules look"): which functions are
tools, dispatchers and non-tool handlers, and on which server.

Decorators (`@mcp.tool()`, standalone `@tool`), calls (`mcp.add_tool(fn)`,
`mcp.tool(name="x")(fn)`, `Tool.from_function(fn)`), constructor arguments (`FastMCP(tools=[...])`,
`Server(on_call_tool=...)`), request handlers (`add_request_handler`, `request_handlers[...] =`),
registrations in loops over tables of functions (function_refs, table_rows), the `on_call_tool` of
the project's own fastmcp middleware (`add_middleware(X())`, `middleware=[X()]`), and server
arguments passed to register functions. Each form asks server inference what its
object is and the function references which functions it names.
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.call_args import argument, first_positional, keyword_string, keyword_values, name_argument, string_value
from mcp_lint.model.frameworks import (
    LOWLEVEL_NON_TOOL_KWARGS,
    LOWLEVEL_V1_DECORATORS,
    NON_TOOL_ATTRS,
    NON_TOOL_CONSTRUCTOR_KWARGS,
    NON_TOOL_FACTORIES,
    SERVER_CLASSES,
    STANDALONE_NON_TOOL_DECORATORS,
    STANDALONE_TOOL_DECORATORS,
    TOOL_FACTORIES,
    ERROR_MIDDLEWARE_CLASSES,
    FRAMEWORK_MIDDLEWARE_PACKAGE,
    MIDDLEWARE_TOOL_HOOK,
    Family,
    reexported_server_families,
)
from mcp_lint.model.elements import made_arguments
from mcp_lint.model.flow import first_param
from mcp_lint.model.passed_callables import PassedCallables
from mcp_lint.model.module_model import MiddlewareSite, ModuleModel
from mcp_lint.model.names import NAME_OR_ATTRIBUTE, dotted, last_name, unwrap_await
from mcp_lint.model.receivers import Is, Receiver
from mcp_lint.model.servers import ServerInference
from mcp_lint.model.summary import ARGUMENT_REF, DECORATED_REF, OBJECT_REF, PARAM_REF, TABLE_REF, ToolRegistration


class Registrations(PassedCallables, ServerInference):
    """Records each registration form into the ModuleModel."""

    def __init__(self, model: ModuleModel) -> None:
        super().__init__(model)
        # Calls that are decorators (`@mcp.tool("x")`): handled with their function, not as calls.
        self.decorator_calls: set[int] = set()
        # The top-level statement being walked (build_model sets it), for MiddlewareSite.
        self.top: cst.CSTNode | None = None
        self.top_index = 0
        # Server constructor calls assigned to a name: id(call) -> the server's key ("" local).
        self.assigned_keys: dict[int, str] = {}
        # Locals assigned a call's result in a function: (function, name) -> the callable.
        self.made_locals: dict[tuple[str, str], str] = {}
        # Locals holding a registration call's decorator (`register = self._mcp.tool(...)`, later
        # `register(fn)`, often in a nested decorator): (function, name) -> that call.
        self.registering_locals: dict[tuple[str, str], cst.Call] = {}

    def _registration_count(self) -> int:
        model = self.model
        return len(model.tools) + len(model.pending) + len(model.non_tool) + len(model.param_pending)

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
        call = deco if type(deco) is cst.Call else None
        func = call.func if call is not None else deco
        tool_name = name_argument(call) if call is not None else None
        resolved = self.aliases.resolve(func)
        if resolved in STANDALONE_TOOL_DECORATORS:
            self._add(qual, tool_name or fname, Family.FASTMCP)
        elif resolved in STANDALONE_NON_TOOL_DECORATORS:
            self.model.non_tool.add(qual)
        elif type(func) is cst.Attribute:
            self._register_by_attr(func.attr.value, self._receiver(func.value), [qual], tool_name)

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self.decorator_calls:
            # `@tool(server, tags=...)`: a decorator factory handed the server it registers on.
            self._server_arguments(node)
            return
        func = node.func
        self._server_arguments(node)
        self._callable_arguments(node)
        made = made_arguments(node, self._callee_resolver()) if node.args else None
        if made:  # `registry.add(Search())`: what a collection filled with a parameter holds
            for callee in self._called_functions(node.func):
                self.model.object_arguments.extend((callee, position, keyword, maker) for position, keyword, maker in made)
        self._table_update(node)
        resolved = self.aliases.resolve(func)
        if resolved in TOOL_FACTORIES:
            target = argument(node, 0, "fn")
            for function in self._registered_refs(target) if target is not None else []:
                self._add(function, keyword_string(node, "name") or last_name(function), TOOL_FACTORIES[resolved])
            return
        if resolved in NON_TOOL_FACTORIES:
            target = argument(node, 0, "fn")
            self.model.non_tool.update(self._function_refs(target) if target is not None else [])
            return
        constructed_tool = TOOL_FACTORIES.get(f"{resolved}.from_function") if resolved else None
        if constructed_tool is not None:
            # `Tool(fn=handler, name=..., fn_metadata=...)`: the framework's Tool object built
            # directly, as `Tool.from_function(handler)` builds it (then put on the server).
            for value in keyword_values(node, "fn"):
                for function in self._registered_refs(value) if value is not None else ():
                    self._add(function, keyword_string(node, "name") or last_name(function), constructed_tool)
            return
        constructed = self._receiver_of_callee(func)
        if constructed.is_ is Is.SERVER and constructed.family is not None:
            if resolved in SERVER_CLASSES:  # the framework's class itself, not a subclass or factory
                function = self.frames[-1].qual if self.frames and self.frames[-1].kind == "function" else None
                self.model.server_constructors.append((node, constructed.family, resolved, function))
            self._constructor_arguments(node, constructed.family)
            return
        if constructed.key is not None and reexported_server_families(resolved):
            # A library's re-export of a server class: its family is decided at link time, what
            # its arguments say (`mask_error_details=True`, `tools=[...]`) is read here.
            self._constructor_arguments(node, None)
            return
        kept = self._registering_local(func)
        if kept is not None:
            func = kept  # `register = mcp.tool(...)` earlier, `register(fn)` now: `mcp.tool(...)(fn)`
        if type(func) is cst.Call and type(func.func) is cst.Attribute:
            # `mcp.tool(name="x")(fn)`, `server.call_tool()(handler)`
            first = first_positional(node)
            if first is not None:
                receiver = self._receiver(func.func.value)
                refs = self._registered_refs(first)
                if not refs and func.func.attr.value == "tool" and type(unwrap_await(first)) is cst.Call:
                    # `mcp.tool()(make_lookup(table))`: what a project factory makes (a closure
                    # it returns, a Tool object): the linker decides, as for `add_tool(...)`.
                    refs = self._registered_functions(first)
                self._register_by_attr(func.func.attr.value, receiver, refs, name_argument(func))
        elif type(func) is cst.Attribute:
            self._method_registration(node, func.attr.value, self._receiver(func.value))

    def visit_Expr(self, node: cst.Expr) -> None:
        """`tool("Describe", governed=True)(describe)` as a statement: a decorator factory's
        decorator applied for what it does (registering), so `describe` is decorated by the
        factory as `@tool("Describe", governed=True)` above it would make it."""
        call = unwrap_await(node.value)
        if type(call) is not cst.Call or type(call.func) is not cst.Call:
            return
        target = first_positional(call)
        factory = self.decorator_callee(call.func.func) if type(target) is cst.Name else None
        if factory is None or target is None:
            return
        for ref in self._function_refs(target):
            facts = self.model.functions.get(ref)
            if facts is not None and factory not in facts.wrappers:
                facts.wrappers.append(factory)

    def _server_arguments(self, node: cst.Call) -> None:
        """`register_tools(mcp, store)`: remember which argument is a server, for the register
        functions whose registrations wait on their callers (ModuleModel.param_pending)."""
        callees: list[str] | None = None
        index = 0
        for arg in node.args:
            if arg.star:
                break
            if type(arg.value) in NAME_OR_ATTRIBUTE:  # exact types: every argument of every call
                receiver = self._receiver(arg.value)
                key = receiver.key or self._local_server_key(arg.value, receiver)
                if not key and receiver.is_ is not Is.SERVER and receiver.param is None:
                    key = self._local_proxy(arg.value)
                    if key:
                        receiver = Receiver(Is.UNKNOWN, key=key)
                if receiver.param is not None:  # `def register_all(server): register_notes(server)`
                    key = PARAM_REF + "#".join(receiver.param)
                if receiver.is_ is Is.SERVER or (receiver.is_ is Is.UNKNOWN and key):
                    if callees is None:
                        callees = self._called_functions(node.func)
                    keyword = arg.keyword.value if arg.keyword is not None else ""
                    position = -1 if keyword else index
                    for callee in callees:
                        self.model.server_arguments.append((callee, position, keyword, key, receiver.family))
            if arg.keyword is None:
                index += 1

    def _local_proxy(self, expr: cst.BaseExpression) -> str:
        """The class of a local made by a class of this module that answers `tool` itself or
        passes attributes on (`proxy = Annotating(server)`, then `register_notes(proxy)`): the
        linker ties it to the server its constructor is handed (Project._proxy_class_server);
        "" for anything else."""
        made = self._made_by(expr) if type(expr) is cst.Name else None
        if made is None or made not in self.model.classes:
            return ""
        return made if f"{made}.tool" in self.model.functions or f"{made}.__getattr__" in self.model.functions else ""

    def _local_server_key(self, expr: cst.BaseExpression, receiver: Receiver) -> str:
        """A server in a function's local handed to a register function (`server = FastMCP(...)`
        then `register(server)`): keyed by that function, as a factory that returns its local
        server is, so the tools it registers belong to that server (its masking, its
        constructor); "" for anything else."""
        if receiver.is_ is not Is.SERVER or type(expr) is not cst.Name:
            return ""
        for frame in reversed(self.frames):
            if frame.kind == "function" and expr.value in frame.bindings and expr.value not in frame.globals:
                return frame.qual
        return ""

    def _called_functions(self, func: cst.BaseExpression) -> list[str]:
        """The callee names of a call; for `module.register(mcp)` inside `for module in MODULES:`
        (a plugin list of imported modules or objects), the `register` of each element."""
        if type(func) is cst.Attribute and type(func.value) is cst.Name:
            for bindings in reversed(self.loop_stack):
                if func.value.value in bindings:
                    elements = bindings[func.value.value]
                    named = [self._called_function(func.with_changes(value=element)) for element in elements]
                    return [callee for callee in named if callee]
        callee = self._called_function(func)
        return [callee] if callee else []

    def _called_function(self, func: cst.BaseExpression) -> str:
        """The callee name of `register(...)`, `module.register(...)` or `Tools().register(...)`."""
        resolve = self._callee_resolver()
        if type(func) is cst.Attribute and type(func.value) is cst.Call and dotted(func.value.func):
            made_by = resolve(func.value.func)
            return f"{made_by}.{func.attr.value}" if made_by else ""
        typed = self._typed_receiver(func)
        return typed or resolve(func) or ""

    def _typed_receiver(self, func: cst.BaseExpression) -> str | None:
        """`registry.register(...)` on a parameter or local the function types (`registry:
        Registry`, `registry = Registry(server)`): that class's method."""
        frame = self.frames[-1] if self.frames else None
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name or frame is None or frame.kind != "function":
            return None
        facts = self.model.functions.get(frame.qual)
        typed = facts.local_types.get(func.value.value) if facts is not None and func.value.value not in frame.globals else None
        return f"{typed}.{func.attr.value}" if typed else None

    def _method_registration(self, node: cst.Call, attr: str, receiver: Receiver) -> None:
        """`mcp.add_tool(fn)`, `mcp.tool(fn)`, `server.add_request_handler(...)`, `mcp.add_prompt(...)`."""
        if attr == "add_request_handler":
            self._request_handler(node, receiver)
            return
        if attr == "add_middleware":
            first = first_positional(node)
            if first is not None and self._plausible(receiver) and receiver.family in {None, Family.FASTMCP}:
                self._error_middleware([first], receiver.key or "", "add_middleware")
            return
        first = first_positional(node)
        if first is None or not (attr in {"add_tool", "tool"} or attr in NON_TOOL_ATTRS):
            return
        functions = self._registered_functions(first)
        if attr in {"add_tool", "tool"}:
            for function in functions:
                self._register_tool(function, keyword_string(node, "name") or last_name(function), receiver)
        elif self._plausible(receiver):
            self.model.non_tool.update(functions)

    def _registered_functions(self, expr: cst.BaseExpression) -> list[str]:
        """The functions an `add_tool(...)` argument registers."""
        expr = unwrap_await(expr)
        if type(expr) is cst.Call:
            resolved = self.aliases.resolve(expr.func)
            if resolved in TOOL_FACTORIES or resolved in NON_TOOL_FACTORIES or f"{resolved}.from_function" in TOOL_FACTORIES:
                return []  # counted when the factory call itself is visited
            if type(expr.func) is cst.Attribute and expr.func.attr.value == "from_function":
                # A Tool class we cannot place (a project alias): what it is added to decides.
                target = argument(expr, 0, "fn")
                return self._registered_refs(target) if target is not None else []
        refs = self._registered_refs(expr)
        if refs and not all(ref.startswith(TABLE_REF) for ref in refs):
            return refs
        # An object made by a project class or factory (`add_tool(SearchTool())`, `tool = await
        # build_tool(spec); add_tool(tool)`, read as a row of what the factory returns too): the
        # linker decides whether it is a Tool (OBJECT_REF).
        maker = self._made_by(expr)
        return [*refs, OBJECT_REF + maker] if maker else refs

    def _made_by(self, expr: cst.BaseExpression) -> str | None:
        if type(expr) is cst.Call and dotted(expr.func):
            return self._callee_resolver()(expr.func)
        frame = self.frames[-1] if self.frames else None
        if type(expr) is cst.Name and frame is not None and frame.kind == "function":
            return self.made_locals.get((frame.qual, expr.value))
        return None

    def decorator_callee(self, func: cst.BaseExpression) -> str | None:
        """What a decorator (or decorator factory) `func` of a function being entered calls: a
        method of a local the enclosing function made or typed (`@registrar.tool("x")`), a local
        alias of one (`tool = registrar.tool`, then `@tool("x")`), else the name as calls resolve it."""
        if dotted(func) is None:
            return None
        typed = self._typed_receiver(func)
        if typed is not None:
            return typed
        if type(func) is cst.Name:
            for frame in reversed(self.frames):
                if frame.kind != "function" or func.value in frame.globals:
                    continue
                aliased = frame.function_aliases.get(func.value)
                if aliased is not None and len(aliased) == 1:
                    return aliased[0]
                if func.value in frame.bindings:
                    break
        return self._callee_resolver()(func)

    def _registering_local(self, func: cst.BaseExpression) -> cst.Call | None:
        """The registration call a local of this function or of an enclosing one holds
        (`register = self._mcp.tool(...)`), when `func` names it; None otherwise."""
        if type(func) is not cst.Name:
            return None
        for frame in reversed(self.frames):
            if frame.kind != "function" or func.value in frame.globals:
                continue
            kept = self.registering_locals.get((frame.qual, func.value))
            if kept is not None or func.value in frame.bindings:
                return kept
        return None

    def _track_function_alias(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        super()._track_function_alias(target, value)
        frame = self.frames[-1] if self.frames else None
        if type(target) is cst.Name and frame is not None and frame.kind == "function":
            made = unwrap_await(value)
            method = self._typed_receiver(value) if type(value) is cst.Attribute else None
            if method is not None:
                # `tool = registrar.tool` of a local the function made or typed: that class's method.
                frame.function_aliases[target.value] = [method]
            if type(made) is cst.Call and type(made.func) is cst.Attribute and made.func.attr.value in {"tool", "call_tool"}:
                self.registering_locals[(frame.qual, target.value)] = made
            else:
                self.registering_locals.pop((frame.qual, target.value), None)
            callee = self._callee_resolver()(made.func) if type(made) is cst.Call and dotted(made.func) else None
            if callee:
                self.made_locals[(frame.qual, target.value)] = callee
            else:
                self.made_locals.pop((frame.qual, target.value), None)

    def _registered_refs(self, expr: cst.BaseExpression) -> list[str]:
        """The functions a registration call names; the first parameter of the function it is in
        stands for what that function decorates (`def decorator(func): return mcp.tool()(func)`)
        and for what its callers pass (`decorator(search)`); what else only the callers or a
        reflection name is PassedCallables' (`_flowing_refs`)."""
        frame = self.frames[-1] if self.frames else None
        flowing = self._flowing_refs(expr)
        if type(expr) is cst.Name and frame is not None and frame.kind == "function" and expr.value not in frame.globals:
            facts = self.model.functions.get(frame.qual)
            first = first_param(facts.params) if facts is not None else None
            if first == expr.value and expr.value not in frame.function_aliases:
                return [f"{DECORATED_REF}{frame.qual}#{expr.value}", *(flowing or ())]
        if type(expr) is cst.Call and flowing and frame is not None and frame.kind == "function":
            # `def decorator(fn): mcp.tool(guarded(fn))`: what it decorates, run inside the wrapper.
            facts = self.model.functions.get(frame.qual)
            first = first_param(facts.params) if facts is not None else None
            argument = f"{ARGUMENT_REF}{frame.qual}#{first}"
            if first is not None and argument in flowing and first not in frame.function_aliases:
                decorated = f"{DECORATED_REF}{frame.qual}#{first}"
                if argument in self.model.adapters:
                    self.model.adapters[decorated] = self.model.adapters[argument]
                return [decorated, *flowing]
        if flowing is not None:
            return flowing
        return self._function_refs(expr)

    def _request_handler(self, node: cst.Call, receiver: Receiver) -> None:
        """mcp 2.x `server.add_request_handler("tools/call", CallToolRequestParams, handler)`."""
        method = string_value(argument(node, 0, "method"))
        handler = argument(node, 2, "handler")
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

    def _mask_argument(self, call: cst.Call) -> None:
        """`mask_error_details=True` masks; any other value, or a `**options` that may carry the
        argument (`FastMCP(name, **settings)`), leaves it to the code rather than the environment
        on the releases where the argument beats the variable (project_links.Project.masks)."""
        for value in keyword_values(call, "mask_error_details"):
            if type(value) is cst.Name and value.value == "True":
                self.model.masks_errors = True
            else:
                self.model.mask_argument = True

    def _constructor_arguments(self, call: cst.Call, family: Family | None) -> None:
        """`FastMCP(tools=[...])`, `Server(name, on_call_tool=handler, on_read_resource=...)`."""
        self._mask_argument(call)
        for arg in call.args:
            if arg.keyword is None:
                continue
            keyword = arg.keyword.value
            if keyword == "lifespan":
                self.model.lifespans.extend(self._function_refs(arg.value))
            if keyword == "middleware" and family is Family.FASTMCP:
                self._error_middleware(self._iterable_elements(arg.value), self.assigned_keys.get(id(call), ""), "middleware=")
            if keyword == "tools":
                for element in self._iterable_elements(arg.value):
                    if type(element) is cst.Call:
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
        """Record the ErrorHandlingMiddleware(...) calls among `elements`, and the project's own
        middleware: its `on_call_tool` is on every tool's path (a method the class does not
        define, nor a project base of it, is found nowhere by the linker and adds nothing)."""
        for element in elements:
            element = unwrap_await(element)
            if type(element) is not cst.Call:
                continue
            resolved = self.aliases.resolve(element.func) or ""
            if resolved in ERROR_MIDDLEWARE_CLASSES:
                if self.top is not None:
                    self.model.error_middleware.append(MiddlewareSite(server, element, form, self.top, self.top_index))
                continue
            if resolved.startswith(FRAMEWORK_MIDDLEWARE_PACKAGE):
                continue  # the framework's own middleware (timing, retries): no author code
            for cls in self._function_refs(element.func):
                hook = f"{cls}.{MIDDLEWARE_TOOL_HOOK}"
                self._add(hook, f"{last_name(cls)}.{MIDDLEWARE_TOOL_HOOK}", Family.FASTMCP, server or None, "middleware")

    def _raw_request_handler(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """mcp 1.x `server.request_handlers[types.CallToolRequest] = handler` (no decorator)."""
        if type(target) is not cst.Subscript or type(target.value) is not cst.Attribute:
            return
        if target.value.attr.value != "request_handlers" or len(target.slice) != 1:
            return
        index = target.slice[0].slice
        if type(index) is not cst.Index:
            return
        request = last_name(self.aliases.resolve(index.value) or dotted(index.value))
        functions = self._function_refs(value)
        if request == "CallToolRequest":
            for function in functions:
                # Without the decorator, McpError becomes a JSON-RPC error (semantics §5): its own kind.
                self._add(function, last_name(function), Family.MCP_LOWLEVEL, None, "raw-dispatch", 1)
        elif request.endswith("Request"):
            self.model.non_tool.update(functions)
