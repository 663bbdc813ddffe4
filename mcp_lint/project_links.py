"""The link step: link per-file summaries across the project, trace each tool into the helpers it
calls, render the findings there.

Cheap by design (no CST): resolves imports between the linted modules, follows calls from tool
handlers into helpers (same module or another module of the project), and turns the latent
findings of the functions tools call into findings whose messages name those tools.

What a name designates across modules is `linking/names.py` (ProjectNames, which Project
extends); every qualified name the step looks for goes through its `resolve`, which tells a
`missing` callback the names it did not find (the prefilter analyses their modules next).
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Collection, Iterable, Mapping

from mcp_lint.findings import Finding, Fix, Location, Related
from mcp_lint.fixing.materialise import LinkFixes, with_edits
from mcp_lint.inventory import ServerTools
from mcp_lint.linking.names import Lookup, MissingName, ProjectNames
from mcp_lint.linking.tracing import (
    WHOLE,
    Reachability,
    ToolPaths,
    ToolStart,
    ToolTrace,
    mark_raised_text,
    passes,
    walk,
)
from mcp_lint.model.elements import is_element_call
from mcp_lint.model.exception_guards import TryGuard, catches, catching_clause, catching_site
from mcp_lint.model.frameworks import (
    FRAMEWORK_TOOL_CLASSES,
    SERVER_CLASSES,
    Family,
    FrameworkContext,
    candidate_versions,
    distribution_for,
    family_majors,
    framework_context,
    high_level_family,
    reexported_family,
    reexported_server_families,
    version,
)
from mcp_lint.model.names import last_name
from mcp_lint.model import table_rows
from mcp_lint.linking.passed_callables import passed_functions
from mcp_lint.model.summary import ARGUMENT_REF, DECORATED_REF, MEMBERS_REF, OBJECT_REF, PARAM_REF, TABLE_REF, CallEdge, FunctionSummary, Latent, ModuleSummary, ToolRegistration, ParamGuard, argument_enables, receiver_shift
from mcp_lint.rules import rule_by_code
from mcp_lint.pins import PinLookup, env_reading_of
from mcp_lint.rules.base import FixSpec, RenderContext, Site, latent_finding
from mcp_lint.server_env import EnvSetting

# How a "passes-on" marker's clause sends the caught text on, by the marker's route.
_PASSED_ON_HOW = {"return": "returns it", "tool": "puts it into ToolError", "protocol": "puts it into a protocol error's message"}
# What Project.masks answers for `mask_error_details=True` in the code.
MASKED_IN_CODE = "mask_error_details=True"
_LOCAL = "<local>"  # a server bound to a function local, keyed by its module (Project.tools_on)


# How the inventory names a registration that handles every tool call rather than one tool.
_FLOWING = (DECORATED_REF, ARGUMENT_REF, MEMBERS_REF)
_HANDLER_LABELS = {"dispatch": "tools/call handler", "raw-dispatch": "tools/call handler", "middleware": "middleware around every tool"}


class Project(ProjectNames):
    """The link step over the project's summaries: its tools, the functions they reach and how,
    and the findings there (names are resolved by ProjectNames)."""

    def __init__(
        self,
        summaries: list[ModuleSummary],
        pins: PinLookup,
        missing: MissingName | None = None,
        tools_from: Collection[str] | None = None,
        every_reexport: bool = False,
    ) -> None:
        super().__init__(summaries, missing)
        self.pins = pins
        # The prefilter's link step reads no requirements: a server on a re-exported server class
        # counts as one whatever they say (a module analysed in vain costs time, one left out
        # costs findings); the real link step decides (server_family).
        self.every_reexport = every_reexport
        # Only the tools registered in these modules are traced (None: every module's). An editor
        # wants the findings of some files only, which no tool of a module that does not import
        # them (prefilter.importers) can reach; the other modules' summaries still resolve names.
        self.tools_from = frozenset(tools_from) if tools_from is not None else None
        # Fixes made concrete in their modules.
        self.fixes = LinkFixes(summaries, self.callers_of, lambda qual: self.functions[qual][0].path, self._wrapper_guards_of)
        # Callee -> (caller, call) over the whole project, built when a fix first asks.
        self._call_sites: dict[str, list[tuple[str, CallEdge]]] | None = None
        self._frameworks: dict[tuple, FrameworkContext] = {}
        self._absorbing: frozenset[str] | None = None  # FunctionSummary.absorbing of every function
        # Tools whose decorator wraps them in a `try` or a project context manager (trace_tools()):
        # what the framework receives of their exceptions is that wrapper's choice.
        self.intercepted_tools: set[str] = set()
        # The `try` statements of the decorators' wrappers around each tool (by tool name).
        self.wrapper_guards: dict[str, list[TryGuard]] = {}
        self.guarding_wrappers: set[str] = set()  # those wrappers: their own raises are not under them
        self._tools_on: dict[str, set[str]] | None = None  # server key -> tool names (tools_on())
        self._tool_sites: dict[str, tuple[str, Location, Location]] | None = None  # tool name -> its def (tool_sites())
        # Decorator -> the functions it decorates (decorated()), built on the first question.
        self._decorated: dict[str, list[str]] | None = None
        # Project decorators that register what they decorate (DECORATED_REF): not wrappers.
        self._registering: set[str] = set()
        self._passed: dict[tuple[str, str], list[tuple[Family | None, str]]] = {}
        self._givers: dict[str, list[ModuleSummary]] = {}  # _server_givers(), per class
        # Functions defined directly in another function: a decorator's wrapper, a closure.
        # A function calling through an object's table its registering method fills -> the
        # functions stored there (_expand_table_calls): each one tool's code under a dispatcher.
        self._stored_callees: dict[str, dict[str, frozenset]] = {}
        self._nested: dict[str, list[str]] = {}
        for qual in self.functions:
            parent = qual.rpartition(".")[0]
            if parent in self.functions:
                self._nested.setdefault(parent, []).append(qual)
        for summary in summaries:
            for qual in summary.table_callers:
                self._expand_table_calls(qual)
        for nested in list(self._nested.values()):
            for qual in nested:
                self._expand_parameter_calls(qual)

    def _expand_table_calls(self, qual: str) -> None:
        """A call through a table of another module (`HANDLERS.get(name)(args)` with HANDLERS
        imported) reaches every function of the table: one call to each in its place, in this
        project's copy of the caller (the summary stays as the file gave it)."""
        found = self.functions.get(qual)
        if found is None:
            return
        summary, fn = found
        calls = []
        for edge in fn.calls:
            if edge.callee.startswith(TABLE_REF):
                table = edge.callee[len(TABLE_REF) :]
                stored = self._stored_functions(table)
                functions = dict.fromkeys((*self.function_table(table), *stored))
                calls.extend(replace(edge, callee=function) for function in functions)
                if edge.returned or edge.flows:
                    self._stored_callees.setdefault(qual, {}).update(dict.fromkeys(stored, edge.guarded))
            else:
                calls.append(edge)
        self.functions[qual] = (summary, replace(fn, calls=calls))

    def _expand_parameter_calls(self, qual: str) -> None:
        """A closure calling a parameter of the function that defines it (`def make(impl): async
        def run(q): return await impl(q); return run`) runs what that function's callers pass
        (`make(impl=_query)`, linking/passed_callables.py): one call to each in its place."""
        summary, fn = self.functions[qual]
        enclosing: dict[str, str] = {}
        parent = qual.rpartition(".")[0]
        while parent in self.functions:
            for param in self.functions[parent][1].params:
                enclosing.setdefault(param, parent)
            parent = parent.rpartition(".")[0]
        prefix = summary.module + "."
        calls: list[CallEdge] = []
        changed = False
        for edge in fn.calls:
            name = edge.callee[len(prefix) :] if edge.callee.startswith(prefix) else ""
            owner = enclosing.get(name) if name and name not in fn.params and name not in {"self", "cls"} else None
            # Not what a decorator decorates: its wrapper's `func(*args)` is the decorated
            # function's own call, which wrapper_bodies() follows from the tool's side.
            passed = passed_functions(self, f"{ARGUMENT_REF}{owner}#{name}", decorated=False) if owner is not None and self.function(edge.callee) is None else []
            if passed:
                calls.extend(replace(edge, callee=function) for function in passed)
                changed = True
            else:
                calls.append(edge)
        if changed:
            self.functions[qual] = (summary, replace(fn, calls=calls))

    def _stored_functions(self, table: str) -> list[str]:
        """The functions a decorator or register function stores into a module's table (`TOOLS[name]
        = fn` in `def tool(name): def decorator(fn)`; PassedCallables._store_parameter): what
        it decorates and what its callers pass, looked up by a dispatcher's `TOOLS[name](args)`."""
        rows = table_rows.registered_functions(table_rows.TablePath(self.resolve(table, lookup=Lookup.REGISTRATION)), 0, self.table)
        return [function for _, ref in rows if ref.startswith(_FLOWING) for function in self._flowing(ref)]

    def _wrapper_guards_of(self, qual: str) -> list[TryGuard]:
        """The `try` statements of the decorators' wrappers that every call of `qual` runs through."""
        found = self.functions.get(qual)
        if found is None:
            return []
        return [guard for wrapper in self.wrapper_bodies(found[1]) if wrapper in self.functions for guard in self.functions[wrapper][1].guards]

    # -- name resolution across modules ---------------------------------------------------
    def wrapper_bodies(self, fn: FunctionSummary) -> list[str]:
        """The functions a decorator under the registration runs on every call of `fn`: the
        functions defined inside the decorator (`def wrapper(*a): try: return fn(*a) ...`, and
        `wrap.inner` of a decorator factory), which return `fn`'s value."""
        out: list[str] = []
        for name in fn.wrappers:
            found = self.function(name)
            if found is None:
                continue
            pending = list(self._nested.get(found[1].qualname, ()))
            while pending:
                qual = pending.pop()
                if qual in self._registering or qual in self.field_storers:
                    continue  # it registers the tool (`@tool(...)`), it does not run around its calls
                out.append(qual)
                pending.extend(self._nested.get(qual, ()))
        return out

    # -- tools ----------------------------------------------------------------------------
    def tool_registrations(self) -> list[tuple[ToolRegistration, ModuleSummary]]:
        out: list[tuple[ToolRegistration, ModuleSummary]] = []
        for summary in self.summaries:
            if not self.registers_here(summary):
                continue
            for reg in summary.tools:
                out.append((reg, summary))
            for function, server, tool_name in summary.pending:
                family = self.server_family(server, summary.path) if server else None
                if server and family is None and (not summary.mentions_framework or self._is_project_class(server)):
                    continue  # `@x.tool` on something we cannot tie to MCP
                out.append((ToolRegistration(function, tool_name, family, server or None), summary))
            for function, register, param, tool_name in summary.param_pending:
                for family, server in self.servers_passed(register, param):
                    out.append((ToolRegistration(function, tool_name, family, server or None), summary))
        out = [
            expanded
            for reg, summary in out
            for expanded in self._table_registrations(replace(reg, adapters=summary.adapters.get(reg.function, reg.adapters)), summary)
        ]
        # Per-tool functions of low-level dispatchers: functions whose value the dispatcher returns.
        extra = []
        for reg, summary in out:
            if reg.kind not in {"dispatch", "raw-dispatch"}:
                continue
            found = self.function(reg.function)
            if found is None:
                continue
            for edge in found[1].calls:
                if is_element_call(edge.callee):
                    extra.extend((per_tool, summary) for per_tool in self._element_tools(reg, edge))
                    continue
                target = self.function(edge.callee)
                if edge.returned and target is not None:
                    name = edge.branch or target[1].name  # `if name == "div": return handle_div(...)`
                    extra.append(
                        (ToolRegistration(target[1].qualname, name, reg.family, reg.server, "per-tool", reg.lowlevel_major, edge.guarded), summary)
                    )
                    # `return handler.run_tool(args)` on a handler typed with a base class: each
                    # subclass's override is one tool's code (a registry of ToolHandler objects).
                    for method in self.overrides(target[1].qualname):
                        owner = method.rsplit(".", 2)[-2]
                        per_tool = ToolRegistration(method, edge.branch or owner, reg.family, reg.server, "per-tool", reg.lowlevel_major, edge.guarded)
                        extra.append((per_tool, summary))
        # A dispatch helper the handler returns (`return await dispatch(name, args, ctx)`) that
        # takes the tool's record out of a collection and calls through it (`tool =
        # by_name[name]; await tool.handler(args, ctx)`, ProjectNames.field_functions): each
        # function it may run is one tool's code too.
        for reg, summary in list(extra):
            found = self.function(reg.function) if reg.kind == "per-tool" else None
            for edge in found[1].calls if found is not None else ():
                if is_element_call(edge.callee):
                    extra.extend((per_tool, summary) for per_tool in self._element_tools(reg, edge))
        # A registry object's dispatch method (`func = self._tools[name]["function"]; result =
        # func(**args)`) run by the tools/call handler: each function its registering method
        # stores is one tool's code, named by its own name.
        for reg, summary in out + extra:
            if reg.kind not in {"dispatch", "raw-dispatch", "per-tool"}:
                continue
            for function, guarded in sorted(self._stored_callees.get(reg.function, {}).items()):
                extra.append((ToolRegistration(function, last_name(function), reg.family, reg.server, "per-tool", reg.lowlevel_major, guarded), summary))
        return out + extra

    def _element_tools(self, reg: ToolRegistration, edge: CallEdge) -> list[ToolRegistration]:
        """The per-tool functions of a dispatcher that takes the tool's object out of a collection
        of objects (`tool = self.tools[name]; result = await tool.run(args)`, model/elements.py)
        and returns what its method gives, as it is or built into the reply: that method of each
        class the collection holds (and of their subclasses), each one tool's code, named by its class."""
        if not (edge.returned or edge.flows):
            return []
        out = []
        for _, method in self.candidates(edge.callee):
            for qual in (method.qualname, *self.overrides(method.qualname)):
                # A method is named by its class; a function held in a record's field by its own name.
                owner = qual.rsplit(".", 2)[-2] if self.is_project_class(qual.rpartition(".")[0]) else last_name(qual)
                out.append(ToolRegistration(qual, edge.branch or owner, reg.family, reg.server, "per-tool", reg.lowlevel_major, edge.guarded))
        return out

    def registers_here(self, summary: ModuleSummary) -> bool:
        """Are the tools `summary` registers traced? Not a test module's (fixtures of the
        project's tests: `def failing_tool(): raise ValueError("bad")`), nor, when only some
        modules' tools are wanted (tools_from), another module's."""
        if is_test_module(summary.path):
            return False
        return self.tools_from is None or summary.module in self.tools_from

    def servers_passed(self, register: str, param: str) -> list[tuple[Family | None, str]]:
        """The servers callers hand `register`'s parameter `param` (_servers_passed), asked once
        per register function and parameter (every tool it registers asks the same)."""
        key = (register, param)
        if key not in self._passed:
            self._passed[key] = self._servers_passed(register, param)
        return self._passed[key]

    def _table_registrations(self, reg: ToolRegistration, summary: ModuleSummary) -> list[tuple[ToolRegistration, ModuleSummary]]:
        """A registration of every function of an imported table (`for fn in TOOLS: mcp.tool()(fn)`),
        or of every function a project decorator registers (DECORATED_REF)."""
        if reg.function.startswith(TABLE_REF):
            decoded = table_rows.decode(reg.function[len(TABLE_REF) :])
            if decoded is not None:
                # A loop over a table's rows (`for name, (fn, d) in build().items()`): each
                # function found there, named by its row's key.
                rows = table_rows.registered_functions(*decoded, self.table)
                return [
                    (replace(reg, function=function, tool_name=key or last_name(function)), summary)
                    for row_key, ref in rows
                    # A row that holds a stored parameter (PassedCallables._store_parameter):
                    # the functions decorated with, or passed to, the function that stored it.
                    for key, function in ([(row_key, ref)] if not ref.startswith(_FLOWING) else [(None, f) for f in self._flowing(ref)])
                ]
        functions = self._registered_functions(reg)
        if functions is None:
            return [(reg, summary)]
        if reg.function.startswith(OBJECT_REF):  # a Tool object's `run`: named by its class
            # A closure a factory returned (`add_tool(make_lookup(t))`) is named by its own name.
            return [(replace(reg, function=function, tool_name=last_name(function) if function.rpartition(".")[0] in self.functions else function.rsplit(".", 2)[-2]), summary) for function in functions]
        return [(replace(reg, function=function, tool_name=last_name(function)), summary) for function in functions]

    def _registered_functions(self, reg: ToolRegistration) -> list[str] | None:
        """The functions a registration stands for, or None when it names its own function."""
        if reg.function.startswith(DECORATED_REF):
            return self.decorated(reg.function)
        if reg.function.startswith((ARGUMENT_REF, MEMBERS_REF)):
            return passed_functions(self, reg.function)
        if reg.function.startswith(OBJECT_REF):
            return self._tool_object_runs(reg.function[len(OBJECT_REF) :])
        parent = reg.function.rpartition(".")[0]
        if reg.kind == "tool" and parent in self.functions:
            # `def tool(func): @wraps(func) def wrapper(...): ...; mcp.tool()(wrapper)`: the
            # decorator registers its wrapper in the name of each function it decorates, whose
            # body the wrapper runs (wrapper_bodies() follows the wrapper from there).
            decorated = self._decorated_with(parent)
            if decorated:
                return decorated
        if reg.function.startswith(TABLE_REF):
            return self.function_table(reg.function[len(TABLE_REF) :])
        return None

    def _tool_object_runs(self, maker: str) -> list[str]:
        """The `run` of the framework Tool subclass an object handed to `add_tool` is made by
        (`maker`: a project class, or a factory whose annotation or returns name one), the method
        the framework calls for the tool, or the closure a factory returns (a function handed to
        `add_tool` is the tool); nothing for any other object."""
        closures = self.closures_made_by(maker)
        if closures:  # `add_tool(make_lookup(table))`: the function the factory defines and returns
            return [closure[1].qualname for closure in closures]
        maker = self.resolve(maker, lookup=Lookup.REGISTRATION)  # a class: its module is wanted
        found = self.function(maker)
        if found is not None and found[1].name != "__init__":
            classes = (found[1].returns_type,) if found[1].returns_type else found[1].returned_objects
        else:
            classes = (maker,)
        out: list[str] = []
        for cls in classes:
            cls = self.resolve(cls, lookup=Lookup.REGISTRATION)
            if not self.is_project_class(cls) or not any(base in FRAMEWORK_TOOL_CLASSES for base in self.class_ancestors(cls)):
                continue
            run = self.function(f"{self.resolve(cls)}.run")
            if run is not None:
                out.append(run[1].qualname)
        return out

    def _flowing(self, ref: str) -> list[str]:
        """The functions a DECORATED_REF, ARGUMENT_REF or MEMBERS_REF stands for."""
        return self.decorated(ref) if ref.startswith(DECORATED_REF) else passed_functions(self, ref)

    def decorated(self, ref: str) -> list[str]:
        """The functions the decorator of a DECORATED_REF registers: those decorated with it
        (`@register_tool`), or with the function that defines it (`@tool(readonly=True)`, whose
        inner `def decorator(func)` registers)."""
        decorator, _, param = ref[len(DECORATED_REF) :].rpartition("#")
        found = self.function(decorator)
        if found is None or param not in found[1].params:
            return []
        self._registering.add(found[1].qualname)
        return self._decorated_with(found[1].qualname)

    def decorated_with(self, decorator: str) -> list[str]:
        return self._decorated_with(decorator)

    def functions_passed(self, name: str) -> list[str]:
        """What a name handed to a call stands for, through the parameters of register functions
        and decorators (ProjectNames.field_functions)."""
        return passed_functions(self, name)

    def _decorated_with(self, decorator: str) -> list[str]:
        """The functions decorated with `decorator` (`@decorator`), or with the function that
        defines it (`@factory(...)` returning its inner `decorator`)."""
        if self._decorated is None:
            self._decorated = {}
            with self._not_asking():  # every function's decorators: no reason to analyse more files
                for qual, (_, fn) in self.functions.items():
                    for name in fn.wrappers:
                        wrapper = self.function(name)
                        if wrapper is not None:
                            self._decorated.setdefault(wrapper[1].qualname, []).append(qual)
        factory = decorator.rpartition(".")[0]
        return self._decorated.get(decorator, []) + (self._decorated.get(factory, []) if factory in self.functions else [])

    def _servers_passed(self, register: str, param: str, depth: int = 0) -> list[tuple[Family | None, str]]:
        """The servers callers pass to `register`'s parameter `param` (`register_tools(mcp,
        store)` with mcp a FastMCP, in any module), also through callers that pass on their own
        parameter (`def register_all(server): register_tools(server)`): one (family, server key)
        per distinct server."""
        found = self.function(register)
        if found is None or param not in found[1].params or depth > 3:
            return []
        params = found[1].params
        out: list[tuple[Family | None, str]] = []
        for summary in self.summaries:
            for callee, position, keyword, server, family in summary.server_arguments:
                if keyword != param and (keyword or position < 0):
                    continue
                target = self.function(callee)
                if target is None and found[1].name == "__init__":
                    target = self.function(f"{callee}.__init__")  # `Registrar(mcp)`: the class's constructor
                if target is None or target[1].qualname != found[1].qualname:
                    continue
                shift = 1 if params[0] in {"self", "cls"} else 0  # `tools.register(mcp)`: self is not passed
                if not keyword and params[position + shift : position + shift + 1] != (param,):
                    continue
                if server.startswith(PARAM_REF):
                    outer, _, outer_param = server[len(PARAM_REF) :].rpartition("#")
                    out.extend(s for s in self._servers_passed(outer, outer_param, depth + 1) if s not in out)
                    continue
                if family is None and server:
                    wrapping = self._server_wrapping(server)
                    if wrapping is not None:  # `server = restrict(server)`: the server it wraps
                        out.extend(s for s in self._servers_passed(*wrapping, depth + 1) if s not in out)
                        continue
                    family = self.server_family(server, summary.path)
                    if family is None:
                        continue  # an object we cannot tie to MCP
                if (family, server) not in out:
                    out.append((family, server))
        return out

    def _server_wrapping(self, factory: str) -> tuple[str, str] | None:
        """(function, parameter) when `factory` is a project function that hands back the object
        its parameter receives, as it is or wrapped in a project class that answers `tool` itself
        or passes every attribute on (`__getattr__`): a proxy that filters or decorates the
        registrations of the server it is given (`return Restricted(server, names)`)."""
        found = self.function(factory)
        if found is None:
            return self._proxy_class_server(factory)
        fn = found[1]
        if fn.returns_argument and fn.params:
            return fn.qualname, fn.params[0]
        for edge in fn.calls:
            if not (edge.returned and edge.forwards) or not self.is_project_class(edge.callee):
                continue
            cls = self.resolve(edge.callee)
            if self.function(f"{cls}.tool") is None and self.function(f"{cls}.__getattr__") is None:
                continue
            for _, index in edge.forwards:
                if index < len(fn.params):
                    return fn.qualname, fn.params[index]
        return None

    def _proxy_class_server(self, cls: str) -> tuple[str, str] | None:
        """(constructor, parameter) when `cls` is a project class answering `tool` itself or
        passing every attribute on, built around what its constructor's first parameter receives
        (`proxy = Annotating(server, read_only=True)`, then `register_notes(proxy)`)."""
        if not self.is_project_class(cls):
            return None
        cls = self.resolve(cls)
        init = self.function(f"{cls}.__init__")
        if init is None or (self.function(f"{cls}.tool") is None and self.function(f"{cls}.__getattr__") is None):
            return None
        params = [param for param in init[1].params if param not in {"self", "cls"}]
        return (init[1].qualname, params[0]) if params else None

    def masks(self, reg: ToolRegistration, summary: ModuleSummary, family: Family, major: int | None) -> str:
        """What masks the text of the tool's unexpected exceptions, "" when nothing does:
        MASKED_IN_CODE for `mask_error_details=True` where the tool is registered or its server
        defined; else, on a fastmcp release with the environment variable, the project file that
        turns it on ('FASTMCP_MASK_ERROR_DETAILS=true in .env'), unless the code passes the
        argument and the release lets it beat the variable. `family`, `major`: the tool's
        framework (family_of), which the callers have already asked."""
        modules = [summary]
        if reg.server:
            owner = self.resolve(reg.server).rsplit(".", 1)[0]
            module = self.modules.get(owner)
            if module is not None and module is not summary:
                modules.append(module)
            elif module is None and self.is_project_class(owner):
                modules.extend(found for found in self._server_givers(owner) if found not in modules)
        if any(module.masks_errors for module in modules):
            return MASKED_IN_CODE
        if family is not Family.FASTMCP:
            return ""  # mcp's FastMCP reads FASTMCP_* settings too, but has no masking among them
        newest = self.framework(family, major, modules[-1].path).newest()
        row = newest[1] if newest is not None else None
        if row is None or not row.mask_env:
            return ""
        if row.mask_argument_overrides_env and any(module.mask_argument for module in modules):
            return ""  # `mask_error_details=False` (or an expression) in the code decides
        setting = self.masks_by_config(modules[-1].path, row.mask_env_names)
        return setting.describe() if setting is not None else ""

    def _server_givers(self, cls: str) -> list[ModuleSummary]:
        """The modules that build an object of the project class `cls` with a server argument
        (`Registry(server, ...)`, whose method adds the tools to `self._server`): where the server
        its tools are on is made and configured."""
        if cls not in self._givers:
            self._givers[cls] = [
                summary
                for summary in self.summaries
                if any(
                    family is not None and self.resolve(callee) in {cls, f"{cls}.__init__"}
                    for callee, _, _, _, family in summary.server_arguments
                )
            ]
        return self._givers[cls]

    def family_of(self, reg: ToolRegistration, summary: ModuleSummary) -> tuple[Family, int | None]:
        family = reg.family
        if family is None and reg.server:
            family = self.server_family(reg.server, summary.path)
        if family is None:
            family = summary.family_hint
        if family is None:
            family = self._family_from_pins(summary.path)
        family = self._declared_fallback(family, summary)
        major = reg.lowlevel_major or (summary.lowlevel_major_hint if family is Family.MCP_LOWLEVEL else None)
        return family, major

    def server_family(self, key: str, path: str = "") -> Family | None:
        """The family of a server variable (ProjectNames.server_family); else, for a server made by
        a library's re-export of a framework's server class, or by a project subclass of one, the
        family the requirements declared for `path` (the file that registers on it) name."""
        family = super().server_family(key)
        if family is not None or not path:
            return family
        candidates = self.reexported_candidates(key)
        if not candidates:
            return None
        if self.every_reexport:
            return candidates[0]
        fastmcp = self.pins(path, "fastmcp") is not None or self.pins(path, "fastmcp-slim") is not None
        mcp = self.pins(path, "mcp")
        return reexported_family(candidates, fastmcp, mcp[0] if mcp is not None else None)

    def reexported_candidates(self, key: str) -> tuple[Family, ...]:
        """The families a server made by `key` may be of when `key` (or what made it, or a class
        it inherits from) is named like a framework's server class but defined outside the project
        and the frameworks; () otherwise."""
        found = self.reexported_class(key)
        return reexported_server_families(found) if found else ()

    def reexported_class(self, key: str) -> str:
        """The class outside the project and the frameworks, named like a framework's server
        class, that made the server `key` (itself, what made it, or a base of that); "" for none."""
        resolved = self.resolve(key, lookup=Lookup.REGISTRATION)
        for maker in (resolved, self.made_by(resolved)):
            factory = self.functions.get(maker)
            if factory is not None:  # `def create_server() -> FastMCP`, `return FastMCP(...)`
                fn = factory[1]
                made = (fn.returns_type,) if fn.returns_type else fn.returned_objects
            else:
                made = (maker,) if maker else ()
            for product in made:
                for cls in self.class_ancestors(product) if self.is_project_class(product) else (product,):
                    if not self.is_project_class(cls) and reexported_server_families(cls):
                        return cls
        return ""

    def _declared_fallback(self, family: Family, summary: ModuleSummary) -> Family:
        """The family of the server class an `except ImportError:` clause of the module imports
        instead of `family`'s (`try: from fastmcp import FastMCP` / `except ImportError: from
        mcp.server.fastmcp import FastMCP`) when the project's declared requirements name the
        fallback's distribution and not the `try`'s: that import fails on an install of the
        declared requirements, the fallback's framework runs (and a fix imports its ToolError)."""
        for primary, fallback in summary.framework_fallbacks.items():
            if SERVER_CLASSES.get(primary) is not family:
                continue
            other = SERVER_CLASSES.get(fallback)
            if other is not None and other is not family and not self._declares(family, summary.path) and self._declares(other, summary.path):
                return other
        return family

    def _declares(self, family: Family, path: str) -> bool:
        """Do the requirements declared for `path` name the distribution of `family`, in a range
        that admits a release of it (`mcp<2` has no MCPServer, `mcp>=2` no FastMCP)?"""
        dist = distribution_for(family)
        pin = self.pins(path, dist) or (self.pins(path, "fastmcp-slim") if dist == "fastmcp" else None)
        if pin is None:
            return False
        if family in (Family.MCP_FASTMCP, Family.MCP_SERVER):
            return any(version(v).major in family_majors(family) for v in candidate_versions(dist, pin[0]))
        return True

    def _family_from_pins(self, path: str) -> Family:
        if self.pins(path, "fastmcp") is not None:
            return Family.FASTMCP
        pin = self.pins(path, "mcp")
        return high_level_family(pin[0]) if pin is not None else Family.UNKNOWN

    def framework(self, family: Family, major: int | None, path: str) -> FrameworkContext:
        if family is Family.UNKNOWN:
            return FrameworkContext(family, ())
        dist = distribution_for(family)
        pin = self.pins(path, dist)
        if pin is None and dist == "fastmcp":
            pin = self.pins(path, "fastmcp-slim")
        key = (family, major, pin)
        if key not in self._frameworks:  # one per pin, though asked for every reached function
            self._frameworks[key] = framework_context(family, major, pin)
        return self._frameworks[key]

    # -- tracing tools into helpers (linking/tracing.py) ------------------------------------------
    def tool_starts(self) -> list[ToolStart]:
        """Every registered tool whose handler the project defines, as the walk starts from it;
        records the decorators' wrappers that intercept or guard each tool."""
        out: list[ToolStart] = []
        for reg, summary in self.tool_registrations():
            found = self.function(reg.function)
            if found is None:
                continue
            family, major = self.family_of(reg, summary)
            masked = self.masks(reg, summary, family, major)
            wrappers = self.wrapper_bodies(found[1]) + self._adapter_bodies(reg.adapters)
            if any(self.functions[w][1].intercepts for w in wrappers if w in self.functions):
                self.intercepted_tools.add(reg.tool_name)
            guards = [g for w in wrappers if w in self.functions for g in self.functions[w][1].guards]
            if guards:
                self.wrapper_guards.setdefault(reg.tool_name, []).extend(guards)
                self.guarding_wrappers.update(wrappers)
            out.append(ToolStart(found[1].qualname, reg.tool_name, reg.kind, family, major, masked, reg.guarded, tuple(wrappers)))
        return out

    def _adapter_bodies(self, adapters: tuple[str, ...]) -> list[str]:
        """The functions the registration's adapters define (`def adapt(fn): def wrapped(*a):
        return fn(*a); return wrapped`): each call of the tool runs them."""
        out: list[str] = []
        for adapter in adapters:
            found = self.function(adapter)
            if found is not None:
                out.extend(self._nested.get(found[1].qualname, ()))
        return out

    def traced_functions(self) -> set[str]:
        """The functions trace_tools() reports, found by the same walk without telling the tools
        apart (each entered once): what the prefilter runs between rounds, listening to the names
        it looks up."""
        reach = Reachability()
        walk(self, self.tool_starts(), reach, self.wrapper_bodies)
        self.exception_classes(reach.functions)
        return set(reach.functions)

    def trace_tools(self) -> dict[str, ToolPaths]:
        """Follow every tool through the calls it makes, tool by tool: every function reached,
        with how (ToolPaths)."""
        trace = ToolTrace(self)
        walk(self, self.tool_starts(), trace, self.wrapper_bodies)
        mark_raised_text(self, trace.reached)
        self.exception_classes(trace.reached)
        return trace.reached

    # -- what callers on the way do with a raise or an argument (rules.base.LinkedProject) -----------
    def absorbed(self, raised: str, entry: ToolPaths) -> bool:
        """Is an exception of class `raised` caught, on every way from a tool, by an `except`
        clause that neither raises nor returns (FunctionSummary.absorbing)?"""
        if not entry.guards:
            return False
        if self._absorbing is None:
            self._absorbing = frozenset(site for _, fn in self.functions.values() for site in fn.absorbing)
        absorbing = self._absorbing
        return all(any((clause := catching_clause(t, raised)) is not None and clause[2] in absorbing for t in path) for path in entry.guards)

    def caller_enables(self, qual: str, guard: ParamGuard, entry: ToolPaths, reached: Mapping[str, ToolPaths]) -> bool:
        """Does some caller on the way from a tool pass an argument that takes the branch
        `guard` (FunctionSummary.mutates_when) names? A tool takes its arguments from the model."""
        if entry.is_tool:
            return True
        params = self.functions[qual][1].params
        for caller in reached:
            for edge in self.functions[caller][1].calls:
                target = self.function(edge.callee)
                if target is not None and target[1].qualname == qual and argument_enables(guard, edge.constants, receiver_shift(edge.via_attribute, params)):
                    return True
        return False

    # -- findings --------------------------------------------------------------------------
    def inventory(self) -> list[ServerTools]:
        """The servers of the project and the tools on each (what a run checked), sorted."""
        groups: dict[str, tuple[str, Family, tuple[str, str] | None, set[str]]] = {}
        for reg, summary in self.tool_registrations():
            if reg.kind == "middleware" and self.function(reg.function) is None:
                continue  # a middleware without its own `on_call_tool` (a library's, or one that only times requests)
            family, _ = self.family_of(reg, summary)
            server = self.resolve(reg.server) if reg.server and not reg.server.startswith(PARAM_REF) else ""
            if not server and len(summary.servers) == 1:
                server = next(iter(summary.servers))  # a server bound to a local of its module's function
            if server not in groups:
                groups[server] = (self._server_path(server) or summary.path, family, self._pin(family, summary.path), set())
            name = reg.tool_name if reg.kind not in _HANDLER_LABELS else f"{reg.tool_name} ({_HANDLER_LABELS[reg.kind]})"
            groups[server][3].add(name)
        for server, family in self.servers.items():
            path = self._server_path(server)
            if server not in groups and path is not None:
                groups[server] = (path, family, self._pin(family, path), set())
        return [
            ServerTools(server, path, family, *(pin or ("", "")), tuple(sorted(tools)))
            for server, (path, family, pin, tools) in sorted(groups.items())
        ]

    def _server_path(self, server: str) -> str | None:
        """The file of the module that defines a server, by its qualified name."""
        module = server.rpartition(".")[0]
        while module:
            if module in self.modules:
                return self.modules[module].path
            module = module.rpartition(".")[0]
        return None

    def _pin(self, family: Family, path: str) -> tuple[str, str] | None:
        if family is Family.UNKNOWN:
            return None
        dist = distribution_for(family)
        pin = self.pins(path, dist)
        if pin is None and dist == "fastmcp":
            pin = self.pins(path, "fastmcp-slim")
        return pin

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        moved: dict[tuple[str, str, Location], int] = {}
        reached = self.trace_tools()
        codes = sorted({latent.code for qual in reached for latent in self.functions[qual][1].latent})
        rules = {code: rule for code in codes if (rule := rule_by_code(code)) is not None}
        states = {code: rule.link_start(self, reached) for code, rule in rules.items()}
        passing_on = self._passing_on(reached)
        # Fixes refused because a caller's `except` would catch their ToolError, to ask again once
        # other offered fixes open those clauses (FixSpec.opens): (index in `out`, the fix, ...).
        refused: list[tuple[int, FixSpec, str, ToolPaths, ModuleSummary, Family]] = []
        self.fixes.opened.clear()
        for qual, entry in reached.items():
            summary, fn = self.functions[qual]
            family, major, _ = sorted(entry.families, key=lambda f: (f[2], f[0].value))[0]
            context_raise, context_value = self.contexts(qual, entry)
            for latent in fn.latent:
                rule = rules.get(latent.code)
                if rule is None:
                    continue
                linked = latent
                if latent.raises and latent.delivered_when_passed_on:
                    # A message whose words matter wherever they reach the model (not only where
                    # the exception escapes to the framework): also through a clause that sends it on.
                    linked = self._vague_passed_on(latent, entry, passing_on)
                linked = rule.link_latent(linked, qual, entry, self, states[latent.code])
                if linked is None or not self.applies(linked, entry):
                    continue
                latent = linked
                context = context_value if latent.route in ("return", "text") else context_raise
                if latent.conds and not entry.is_tool:
                    # Name only the tools from which the branch can be taken.
                    context = replace(context, tools=tuple(t for t in context.tools if not _ruled_out(latent, entry.excludes.get(t, set()))))
                branch = latent.branch
                if branch and entry.is_tool and entry.kind in {"dispatch", "raw-dispatch"}:
                    context = replace(context, tools=(branch,))  # the tool this branch serves
                if latent.flow_via:
                    latent = self._through_helper(latent, qual)
                rendered = rule.render(latent, context)
                if rendered is None:
                    continue
                # None: not offered; else the edits it adds to callers (their checks it makes dead).
                caller_edits = self.fixes.allowed(rendered.fix, qual, entry, reached, summary.path)
                fix = self.fixes.materialise(with_edits(rendered.fix, caller_edits), summary, family) if caller_edits is not None else None
                if fix is not None:
                    self.fixes.offered(rendered.fix)
                retry = caller_edits is None and rendered.fix is not None and bool(rendered.fix.raises)
                if rendered.tools is not None:
                    context = replace(context, tools=rendered.tools)
                if rendered.related:
                    # A related place with no file of its own is in the latent's file.
                    rendered = replace(rendered, related=tuple(replace(r, filename=r.filename or summary.path) for r in rendered.related))
                if latent.flow_onward and latent.route == "return" and not entry.is_tool:
                    # The flow goes on where callers return the helper's value.
                    onward = self._returning_calls(qual, reached, frozenset(context.tools))
                    rendered = replace(rendered, related=(*rendered.related, *onward))
                if context.reached_from:
                    # A helper's finding names the tools that reach it, and shows where they are.
                    rendered = replace(
                        rendered,
                        notes=(context.reached_from, *rendered.notes),
                        related=(*rendered.related, *self.tool_sites(context.tools)),
                    )
                if latent.param >= 0:
                    # The flow starts where a caller hands the exception in.
                    rendered = replace(rendered, related=(*self._passing_calls(qual, latent.param, latent.param_failure, reached), *rendered.related))
                finding = latent_finding(latent, rendered, summary.path, fix, fn.name)
                if latent.built_by:
                    finding = replace(finding, related=(*self._builder_returns(latent.built_by, latent.code), *finding.related))
                if rendered.at is not None:
                    finding = _moved(finding, rendered.at, summary.path)
                    key = (finding.code, finding.filename, finding.location)
                    if key in moved:
                        # One finding per write, whichever tools reach it: their places are related.
                        index = moved[key]
                        out[index] = replace(out[index], related=tuple(dict.fromkeys((*out[index].related, *finding.related))))
                        continue
                    moved[key] = len(out)
                if retry and rendered.fix is not None:
                    refused.append((len(out), rendered.fix, qual, entry, summary, family))
                out.append(finding)
        self._offer_opened(out, refused, reached)
        for code in sorted({code for summary in self.summaries for code in summary.rule_records}):
            rule = rule_by_code(code)
            if rule is not None:
                out.extend(rule.link(self))  # findings about a server, not a function
        return out

    def _offer_opened(self, out: list[Finding], refused: list[tuple[int, FixSpec, str, ToolPaths, ModuleSummary, Family]], reached: dict[str, ToolPaths]) -> None:
        """Ask again, until nothing changes, for the refused fixes whose ToolError a caller's
        `except` caught, now that offered fixes let ToolError through clauses of theirs (a tool
        whose own failures raise inside its `try` calls another tool): both go in one pass, so
        that `check --unsafe-fixes` shows what `--fix` will apply, not only its first pass."""
        changed = True
        while changed and refused:
            changed = False
            for item in list(refused):
                index, spec, qual, entry, summary, family = item
                caller_edits = self.fixes.allowed(spec, qual, entry, reached, summary.path)
                if caller_edits is None:
                    continue
                refused.remove(item)
                finding = out[index]
                if finding.fix is not None or finding.filename != summary.path:
                    continue  # merged into another, or reported in another file (no fix there)
                fix = self.fixes.materialise(with_edits(spec, caller_edits), summary, family)
                if fix is not None:
                    out[index] = replace(finding, fix=fix)
                    changed = self.fixes.offered(spec) or changed

    def _through_helper(self, latent: Latent, caller: str) -> Latent:
        """The latent with the statements of the project function whose result its flow takes
        (`flow_via`) in front of its own: how that function's parameters reach its returns.
        Unchanged where that function is not the project's, is the caller itself, or already
        reports the message it builds (its returns are then related as `_builder_returns`)."""
        found = self.function(latent.flow_via)
        if found is None or found[1].qualname == caller or not found[1].return_steps:
            return latent
        summary, fn = found
        if any(other.code == latent.code and other.built_for_callers for other in fn.latent):
            return latent
        steps = tuple(replace(step, filename=summary.path, function=fn.name) for step in fn.return_steps)
        return replace(latent, flow=(*steps, *latent.flow))

    def _builder_returns(self, qualname: str, code: str) -> tuple[Related, ...]:
        """The returns of a helper that only builds a failure message, which its callers' findings
        anchor (one flow, reported where the caller hands the message to the model)."""
        found = self.function(qualname)
        if found is None:
            return ()
        summary, fn = found
        return tuple(
            Related(summary.path, latent.location, latent.end_location, f"the message is built in {fn.name}")
            for latent in fn.latent
            if latent.code == code and latent.built_for_callers
        )

    # -- what server-level rules read (rules.base.LinkedProject) ----------------------------
    def records(self, code: str) -> list[tuple[ModuleSummary, object]]:
        """Every module's records of a server-level rule (Rule.check_module), in module order."""
        return [(summary, record) for summary in self.summaries for record in summary.rule_records.get(code, ())]

    def tools_on(self, server: str, summary: ModuleSummary) -> set[str]:
        """The names of the tools registered on a server: a server variable by its qualified name
        (through re-exports), a server local to a factory function (`server` "") by the tools its
        module registers on a local."""
        if self._tools_on is None:
            self._tools_on = {}
            for reg, owner in self.tool_registrations():
                if reg.kind == "middleware":
                    continue  # it runs around the server's tools; it is none of them
                key = self.resolve(reg.server) if reg.server else _LOCAL + owner.module
                self._tools_on.setdefault(key, set()).add(reg.tool_name)
                made_in = self.function(key) if reg.server else None
                if made_in is not None:
                    # A function's local server handed to a register function (keyed by that
                    # function): a tool of the local server its module configures too.
                    self._tools_on.setdefault(_LOCAL + made_in[0].module, set()).add(reg.tool_name)
        return self._tools_on.get(self.resolve(server) if server else _LOCAL + summary.module, set())

    def tool_sites(self, tools: Iterable[str], limit: int = 3) -> list[Related]:
        """Where the handlers of `tools` are defined (the first `limit` names in order, those whose
        definition the per-file step recorded): related locations of a helper's finding."""
        if self._tool_sites is None:
            self._tool_sites = {}
            for reg, _ in self.tool_registrations():
                found = self.function(reg.function)
                if found is not None and found[1].name_span is not None and reg.tool_name not in self._tool_sites:
                    start, end = found[1].name_span
                    self._tool_sites[reg.tool_name] = (found[0].path, start, end)
        out = []
        for tool in sorted(set(tools))[:limit]:
            site = self._tool_sites.get(tool)
            if site is not None:
                out.append(Related(site[0], site[1], site[2], f"tool '{tool}' reaches this helper"))
        return out

    def fix_for(self, spec: FixSpec | None, summary: ModuleSummary, family: Family) -> Fix | None:
        """A rendered fix made concrete for the module (placeholders filled, imports added)."""
        return self.fixes.materialise(spec, summary, family)

    # -- exception text carried and passed on (rules.base.LinkedProject) -------------------------
    def catching_sites(self, latent: Latent, reach: ToolPaths) -> list[str] | None:
        """The `except` clauses (Handler.site) that catch this raise again, in its own function or
        on the way to the tools; None when it is no raise or escapes to the framework on some path."""
        sites = list(latent.caught_at)
        raised = latent.raises
        if sites or not raised:
            return sites or None
        qual = latent.raises_qual
        names = frozenset({raised, *(last_name(a) for a in self.class_ancestors(qual))}) if qual else frozenset({raised})
        if not reach.guards or not all(any(catches(t, names) for t in g) for g in reach.guards):
            return None
        return sorted(
            {found[0] for g in reach.guards for t in g if (found := catching_site(t, names)) is not None and not found[1]}
        )

    def _passing_on(self, reached: dict[str, ToolPaths]) -> dict[str, str]:
        """Handler.site -> where the clause sends the caught exception's text on to the model,
        from the rules' "passes-on" markers in the functions the tools reach (and whose value
        they return, for a return)."""
        out: dict[str, str] = {}
        for qual, entry in reached.items():
            summary, fn = self.functions[qual]
            for marker in fn.latent:
                if marker.variant == "passes-on" and self.applies(marker, entry):
                    how = _PASSED_ON_HOW.get(marker.route, "puts it into ToolError")
                    who = f"tool '{sorted(entry.own_names)[0]}'" if entry.is_tool and entry.own_names else f"'{fn.name}'"
                    out.setdefault(marker.site, f"{who} {how} ({summary.path}:{marker.location.row})")
        return out

    def _vague_passed_on(self, latent: Latent, entry: ToolPaths, passing_on: dict[str, str]) -> Latent:
        """A message raised in a helper and caught on every way to the tools: when one of the
        catching clauses sends the exception's text on to the model (`except ApiError as e:
        return str(e)`), the message reaches the model there, masked or not. The latent then
        reads as delivered (no longer a raise that callers catch), naming that clause."""
        sites = self.catching_sites(latent, entry)
        if not sites:
            return latent  # escapes to the framework, or caught by nothing known
        passed_on = next((passing_on[s] for s in sites if s in passing_on), None)
        if passed_on is None:
            return latent  # caught and not sent on: applies() drops it
        return replace(latent, raises="", passed_on=passed_on, variant=latent.variant.removesuffix("-other"))

    def masks_by_config(self, path: str, env: tuple[str, ...]) -> EnvSetting | None:
        """The project file that turns masking on for the server in `path` through the environment
        variables `env` (the release's spellings in its lookup order, Channel.mask_env_names:
        FASTMCP_MASK_ERROR_DETAILS in .env, a compose file...: server_env.py), asked of the pin
        lookup so that the pipeline records it with the run's findings."""
        return env_reading_of(self.pins, path, env).setting

    def contexts(self, qual: str, entry: ToolPaths) -> tuple[RenderContext, RenderContext]:
        """How findings in a reached function name it: (for raises, for what it returns).

        A raise reaches every tool that calls the function; what it returns (a failure string, an
        exception's text in it) reaches the tools whose result carries the value, whole or a part
        of it: one set for every rule's finding on a returned value, so that two findings on one
        statement name the same tools."""
        summary, fn = self.functions[qual]
        family, major, _ = sorted(entry.families, key=lambda f: (f[2], f[0].value))[0]
        framework = self.framework(family, major, summary.path)
        tools = tuple(sorted(entry.tools))
        if entry.is_tool and entry.own_names:
            tools = tuple(sorted(entry.own_names))  # a tool is named after itself, not its callers
        context = RenderContext(
            function=fn.name,
            tools=tools,
            is_tool=entry.is_tool,
            framework=framework,
            kind=entry.kind,
            masked=bool(entry.masked),
            masked_by="" if entry.masked == MASKED_IN_CODE else entry.masked,
            project=self,
        )
        value_context = context if entry.is_tool else replace(context, tools=tuple(sorted(entry.carry_tools)))
        return context, value_context

    @staticmethod
    def applies(latent: Latent, entry: ToolPaths) -> bool:
        if latent.param >= 0 and latent.param not in (entry.failure_params if latent.param_failure else entry.exc_params):
            return False
        if latent.conds and _ruled_out(latent, set().union(*entry.excludes.values())):
            return False  # every caller already left on this branch's condition: never taken
        if latent.route in ("tool", "protocol"):
            return entry.is_tool  # "protocol": a passes-on marker raising a protocol error
        if latent.route == "return":
            return entry.returns
        if latent.route == "text":
            # Text stored under an item the tools never take (`{"error": str(e), "rows": []}`
            # when the tool returns `r["rows"]`) does not reach the model.
            slot = latent.slot
            return entry.carries and not (slot and entry.selects is not None and slot not in entry.selects)
        raised = latent.raises
        if raised and entry.guards and all(any(catches(t, raised) for t in g) for g in entry.guards):
            return False  # every caller on the way catches it: what it does instead is checked there
        return True

    def callers_of(self, qual: str) -> list[tuple[str, CallEdge]]:
        """The project functions that call `qual` (another than itself), each with its edge."""
        if self._call_sites is None:
            self._call_sites = {}
            for caller, (_, fn) in self.functions.items():
                for edge in fn.calls:
                    for target in self.call_targets(caller, edge):
                        if target[1].qualname != caller:
                            self._call_sites.setdefault(target[1].qualname, []).append((caller, edge))
        return self._call_sites.get(qual, [])

    def _passing_calls(self, qual: str, param: int, any_class: bool, reached: dict[str, ToolPaths], limit: int = 3) -> tuple[Related, ...]:
        """Where callers on a tool's path hand a caught exception to `qual` at position `param`
        (the first `limit` in file order): the start of the flow of a finding that fires only
        for such a caller (Latent.param)."""
        params = self.functions[qual][1].params
        sites = []
        for caller, edge in self.callers_of(qual):
            if edge.at is None or caller not in reached:
                continue
            shift = receiver_shift(edge.via_attribute, params)
            if param - shift in (edge.failure_params if any_class else edge.exc_params):
                sites.append(Related(self.functions[caller][0].path, edge.at[0], edge.at[1], "the caught exception is passed in here"))
        return tuple(sorted(set(sites), key=lambda r: (r.filename, r.location))[:limit])

    def _returning_calls(self, qual: str, reached: dict[str, ToolPaths], tools: frozenset[str], limit: int = 3) -> tuple[Related, ...]:
        """Where callers on the path of one of `tools` return `qual`'s value (as it is, or built
        into theirs), nearest first, up to the tools; at most `limit`."""
        out: list[Related] = []
        seen = {qual}
        level = [qual]
        while level and len(out) < limit:
            above: list[str] = []
            for current in level:
                sites = sorted(
                    (self.functions[caller][0].path, edge.at, caller)
                    for caller, edge in self.callers_of(current)
                    if edge.at is not None and caller in reached and passes(edge) == WHOLE and not tools.isdisjoint(reached[caller].tools)
                )
                for path, (start, end), caller in sites:
                    name = self.functions[caller][1].name
                    out.append(Related(path, start, end, f"returned on by `{name}()`"))
                    if caller not in seen and not reached[caller].is_tool:
                        seen.add(caller)
                        above.append(caller)
            level = above
        return tuple(dict.fromkeys(out))[:limit]

def _moved(finding: Finding, at: Site, path: str) -> Finding:
    """The finding reported at another statement (a rule's Rendered.at); a fix for the original
    place stays only when that is the same file."""
    return replace(
        finding,
        filename=at.filename,
        location=at.location,
        end_location=at.end_location,
        statement=at.statement,
        statement_rows=at.rows,
        context=at.function,
        fix=finding.fix if at.filename == path else None,
    )


def _ruled_out(latent: Latent, ways: set[frozenset[str]]) -> bool:
    """Has every way of reaching the function already left on one of the latent's branch conditions?"""
    return bool(ways) and all(excluded & latent.conds for excluded in ways)


def is_test_module(path: str) -> bool:
    """A pytest module (`test_*.py`, `*_test.py`, `conftest.py`): the tools it registers are
    fixtures that fail on purpose, not tools of a server anyone runs."""
    name = os.path.basename(path)
    return name == "conftest.py" or (name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py")))

