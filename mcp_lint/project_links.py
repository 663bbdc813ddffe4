"""The link step: link per-file summaries across the project, trace each tool into the helpers it
calls, render the findings there.

Cheap by design (no CST): resolves imports between the linted modules, follows calls from tool
handlers into helpers (same module or another module of the project), and turns the latent
findings of the functions tools call into findings whose messages name those tools.

Every qualified name the step looks for goes through `Project.resolve`; a caller that needs to
know which names were looked for and not found (the prefilter: the modules that may define them
are the ones to analyse next) passes a `missing` callback, told what was being looked for.
"""

from __future__ import annotations

import builtins
import contextlib
import enum
import os
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Collection, Iterable, Iterator

from mcp_lint.framework_copies import import_in_copy
from mcp_lint.findings import Edit, Finding, Fix, Location, Related
from mcp_lint.fixing.first_party import first_party
from mcp_lint.fixing.imports import import_edits
from mcp_lint.inventory import ServerTools
from mcp_lint.model.exception_guards import TryGuard, catches, catching_clause, catching_site
from mcp_lint.model.facts import LIFESPAN
from mcp_lint.model.frameworks import (
    TOOL_ERROR_IMPORT,
    Family,
    FrameworkContext,
    distribution_for,
    framework_context,
    high_level_family,
)
from mcp_lint.model.names import last_name
from mcp_lint.model.summary import DECORATED_REF, PARAM_REF, TABLE_REF, CallEdge, FunctionSummary, Latent, ModuleSummary, ToolRegistration, argument_enables, receiver_shift
from mcp_lint.rules import rule_by_code
from mcp_lint.pins import PinLookup, env_reading_of
from mcp_lint.rules.base import NEEDS_NAMES, PH_CALL_TOOL_RESULT, PH_LOGGER, PH_TEXT_CONTENT, PH_TOOL_ERROR, FixSpec, RenderContext, Site, latent_finding
from mcp_lint.rules.results import is_error_builder_name
from mcp_lint.server_env import EnvSetting

MAX_DEPTH = 8
# What Project.masks answers for `mask_error_details=True` in the code.
MASKED_IN_CODE = "mask_error_details=True"
_LOCAL = "<local>"  # a server bound to a function local, keyed by its module (Project.tools_on)
# How much of a function's return value a tool returns (see trace_tools()).
_NOTHING, _PART, _WHOLE = 0, 1, 2
# A step of trace_tools(): (function, tool, family, major, sends, selects, exception params, depth,
# what masks it (Project.masks), try guards on the way, conditions the caller left on).
_Step = tuple[str, str, Family, "int | None", int, "frozenset[str] | None", frozenset, int, str, frozenset, frozenset]
HELPER_DEPTH = 3  # how far `effect` looks into helpers for a mutation


class Lookup(enum.Enum):
    """What the link step was looking for when it resolved a name."""

    FOLLOWED = "followed"  # a function called, a re-export, an instance or factory followed
    REGISTRATION = "registration"  # a server tools are registered on (or what made it), a table of tools
    EXCEPTION_CLASS = "exception class"  # a class raised or caught, or one of its bases


# Told each qualified name the link step looked for and did not find among the linted modules.
MissingName = Callable[[str, Lookup], None]


@dataclass
class ToolPaths:
    """How tools reach one function: which tools, through which `try` statements, and what of its
    value they return (trace_tools())."""

    tools: set[str] = field(default_factory=set)
    own_names: set[str] = field(default_factory=set)  # names it is registered under itself
    # For each way tools reach it: the `try` statements around the calls on the way.
    guards: set[frozenset] = field(default_factory=set)
    families: list[tuple[Family, int | None, str]] = field(default_factory=list)  # (family, major, tool)
    returns: bool = False
    # Tools that return text taken from this function's value (`f"Failed: {r['error']}"`), or
    # the value itself: where a caught exception's text it returns reaches the model.
    carry_tools: set[str] = field(default_factory=set)
    carries: bool = False
    # The items of its value those tools return (`r["data"]`); None: all, or any.
    selects: frozenset[str] | None = frozenset()
    # For each tool, each way it reaches it: the conditions on its arguments the caller already
    # left on (a branch on one of them is never taken from there).
    excludes: dict[str, set[frozenset[str]]] = field(default_factory=dict)
    exc_params: set[int] = field(default_factory=set)
    # Those of `exc_params` where a caller raises the value it gets back (`raise make_error(e)`):
    # an exception this function builds from such a parameter is raised there (_raised_factories()).
    raised_exc_params: set[int] = field(default_factory=set)
    # A caller raises a plain exception with text of this function's value (directly or through
    # callers returning it): the class, "" if none (_raised_text()).
    raised_text: str = ""
    is_tool: bool = False
    kind: str = "tool"
    masked: str = ""  # what masks unexpected exception text on every tool's server (Project.masks)


class Project:
    def __init__(
        self,
        summaries: list[ModuleSummary],
        pins: PinLookup,
        missing: MissingName | None = None,
        tools_from: Collection[str] | None = None,
    ) -> None:
        self.summaries = summaries
        self.pins = pins
        self.missing = missing
        # Only the tools registered in these modules are traced (None: every module's). An editor
        # wants the findings of some files only, which no tool of a module that does not import
        # them (prefilter.importers) can reach; the other modules' summaries still resolve names.
        self.tools_from = frozenset(tools_from) if tools_from is not None else None
        self.modules: dict[str, ModuleSummary] = {}
        self._first_party_names: dict[tuple[str, int], frozenset[str]] = {}
        self._project_logger: str | None = None  # project_logger(), once asked
        # Callee -> (caller, call) over the whole project, built when a fix first asks.
        self._call_sites: dict[str, list[tuple[str, CallEdge]]] | None = None
        self.functions: dict[str, tuple[ModuleSummary, FunctionSummary]] = {}
        self.servers: dict[str, Family] = {}
        self._functions_found: dict[str, tuple[ModuleSummary, FunctionSummary] | None] = {}
        self._ancestors: dict[str, tuple[str, ...]] = {}
        self._frameworks: dict[tuple, FrameworkContext] = {}
        self._mutation_memo: dict[tuple[str, int], str] = {}
        self._absorbing: frozenset[str] | None = None  # FunctionSummary.absorbing of every function
        self._tested_classes: frozenset[str] | None = None  # ModuleSummary.tested_classes of all
        # Tools whose decorator wraps them in a `try` or a project context manager (trace_tools()):
        # what the framework receives of their exceptions is that wrapper's choice.
        self.intercepted_tools: set[str] = set()
        # The `try` statements of the decorators' wrappers around each tool (by tool name).
        self.wrapper_guards: dict[str, list[TryGuard]] = {}
        self.guarding_wrappers: set[str] = set()  # those wrappers: their own raises are not under them
        self._tools_on: dict[str, set[str]] | None = None  # server key -> tool names (tools_on())
        self._failed: dict[str, set[int]] | None = None  # function -> positions given a failed response
        self._tool_sites: dict[str, tuple[str, Location, Location]] | None = None  # tool name -> its def (tool_sites())
        # Class -> the project classes that name it as a base (overrides()), built on the first question.
        self._subclasses: dict[str, list[str]] | None = None
        # Decorator -> the functions it decorates (decorated()), built on the first question.
        self._decorated: dict[str, list[str]] | None = None
        # Project decorators that register what they decorate (DECORATED_REF): not wrappers.
        self._registering: set[str] = set()
        for summary in summaries:
            self.modules.setdefault(summary.module, summary)
            for qual, fn in summary.functions.items():
                self.functions.setdefault(qual, (summary, fn))
            self.servers.update(summary.servers)
        # A module below namespace folders is also reached by its `__init__.py`-chain name (a
        # script importing a sibling); a real module of that name wins.
        self.module_aliases: dict[str, str] = {}
        self._passed: dict[tuple[str, str], list[tuple[Family | None, str]]] = {}
        # Functions defined directly in another function: a decorator's wrapper, a closure.
        self._nested: dict[str, list[str]] = {}
        for qual in self.functions:
            parent = qual.rpartition(".")[0]
            if parent in self.functions:
                self._nested.setdefault(parent, []).append(qual)
        for summary in summaries:
            if summary.module_alias and summary.module_alias not in self.modules:
                self.module_aliases.setdefault(summary.module_alias, summary.module)

    # -- name resolution across modules ---------------------------------------------------
    def resolve(self, qualname: str, depth: int = 0, lookup: Lookup = Lookup.FOLLOWED) -> str:
        """Follow re-exports (`from .x import f` in another module) to where a name is defined;
        `lookup` says what the name is looked for as (for the `missing` callback)."""
        if qualname in self.functions or qualname in self.servers:
            return qualname
        if self.missing is not None:
            self.missing(qualname, lookup)
        if depth > 5:
            return qualname
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            summary = self.modules.get(module)
            if summary is None:
                canonical = self.module_aliases.get(module)
                if canonical is not None:
                    return self.resolve(".".join([canonical, *parts[cut:]]), depth + 1, lookup)
                continue
            rest = parts[cut:]
            target = summary.reexports.get(rest[0])
            if target is not None and target != qualname:
                return self.resolve(".".join([target, *rest[1:]]), depth + 1, lookup)
            return qualname
        return qualname

    def function(self, qualname: str, depth: int = 0) -> tuple[ModuleSummary, FunctionSummary] | None:
        """The function a qualified name designates, through re-exports, instances and base classes."""
        if depth:
            return self._function(qualname, depth)
        # Memoised: trace_tools() asks once per tool for every call of every helper it passes through.
        if qualname not in self._functions_found:
            self._functions_found[qualname] = self._function(qualname, 0)
        return self._functions_found[qualname]

    def _function(self, qualname: str, depth: int) -> tuple[ModuleSummary, FunctionSummary] | None:
        if qualname.startswith(LIFESPAN + "."):
            return self._lifespan_member(qualname[len(LIFESPAN) :], depth)
        resolved = self.resolve(qualname)
        found = self.functions.get(resolved)
        if found is not None or depth > 4:
            return found
        parts = resolved.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            summary = self.modules.get(".".join(parts[:cut]))
            if summary is None:
                continue
            rest = parts[cut:]
            # `client.get` with `client = Api()` (module level) or `Cls.client.get` (self.client = Api()).
            for width in (2, 1):
                key = ".".join(rest[:width])
                if len(rest) > width and key in summary.instances:
                    return self.function(".".join([summary.instances[key], *rest[width:]]), depth + 1)
            # `make_client.get`: a method of what the factory returns (`def make_client() -> Api`).
            for width in (2, 1):
                factory = self.functions.get(".".join(parts[: cut + width]))
                if len(rest) > width and factory is not None and factory[1].returns_type:
                    return self.function(".".join([factory[1].returns_type, *rest[width:]]), depth + 1)
            # A method inherited from a base class.
            class_key = f"{summary.module}.{rest[0]}" if summary.module else rest[0]
            if len(rest) == 2 and class_key in summary.classes:
                for base in summary.classes[class_key]:
                    found = self.function(f"{base}.{rest[1]}", depth + 1)
                    if found is not None:
                        return found
            break
        return None

    def class_ancestors(self, qual: str) -> tuple[str, ...]:
        """A project class and every class it inherits from, qualified (through re-exports),
        read in the modules that define them (the prefilter asks for those: see
        exception_classes)."""
        if qual not in self._ancestors:
            self._ancestors[qual] = ()  # a cycle of bad bases ends here
            found = [self.resolve(qual, lookup=Lookup.EXCEPTION_CLASS)]
            module = self.modules.get(found[0].rpartition(".")[0])
            for base in module.classes.get(found[0], ()) if module is not None else ():
                found.extend(a for a in self.class_ancestors(base) if a not in found)
            self._ancestors[qual] = tuple(found)
        return self._ancestors[qual]

    def is_project_class(self, qual: str) -> bool:
        """Is `qual` a class defined in one of the linted modules?"""
        resolved = self.resolve(qual)
        module = self.modules.get(resolved.rpartition(".")[0])
        return module is not None and resolved in module.classes

    def looked_up_classes(self) -> Iterable[tuple[str, ...]]:
        """Each exception class looked up so far with its ancestors (class_ancestors)."""
        return self._ancestors.values()

    def exception_classes(self, reached: Iterable[str]) -> None:
        """Look up the project exception classes that reached functions raise or catch, and their
        bases: where they are defined decides which `except` catches which raise, and which
        classes carry library text (_CarriedText)."""
        for qual in reached:
            fn = self.functions[qual][1]
            for raised, _, _ in fn.exception_raises:
                self.class_ancestors(raised)
            for latent in fn.latent:
                for name in latent.classes:
                    self.class_ancestors(name)

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
                if qual in self._registering:
                    continue  # it registers the tool (`@tool(...)`), it does not run around its calls
                out.append(qual)
                pending.extend(self._nested.get(qual, ()))
        return out

    def _lifespan_member(self, rest: str, depth: int) -> tuple[ModuleSummary, FunctionSummary] | None:
        """`<lifespan>.db.query`: the method on what a server's lifespan function yields
        (`async def lifespan(server) -> AsyncIterator[AppContext]`, AppContext having `db: Database`)."""
        for summary in self.summaries:
            for lifespan in summary.lifespans:
                found = self.function(lifespan)
                if found is not None and found[1].returns_type:
                    method = self.function(found[1].returns_type + rest, depth + 1)
                    if method is not None:
                        return method
        return None

    # -- tools ----------------------------------------------------------------------------
    def tool_registrations(self) -> list[tuple[ToolRegistration, ModuleSummary]]:
        out: list[tuple[ToolRegistration, ModuleSummary]] = []
        for summary in self.summaries:
            if is_test_module(summary.path):
                continue  # fixtures of the project's tests (`def failing_tool(): raise ValueError("bad")`)
            if self.tools_from is not None and summary.module not in self.tools_from:
                continue
            for reg in summary.tools:
                out.append((reg, summary))
            for function, server, tool_name in summary.pending:
                family = self.server_family(server) if server else None
                if server and family is None and (not summary.mentions_framework or self._is_project_class(server)):
                    continue  # `@x.tool` on something we cannot tie to MCP
                out.append((ToolRegistration(function, tool_name, family, server or None), summary))
            for function, register, param, tool_name in summary.param_pending:
                key = (register, param)  # every tool of one register function asks the same
                if key not in self._passed:
                    self._passed[key] = self._servers_passed(register, param)
                for family, server in self._passed[key]:
                    out.append((ToolRegistration(function, tool_name, family, server or None), summary))
        out = [expanded for reg, summary in out for expanded in self._table_registrations(reg, summary)]
        # Per-tool functions of low-level dispatchers: functions whose value the dispatcher returns.
        extra = []
        for reg, summary in out:
            if reg.kind not in {"dispatch", "raw-dispatch"}:
                continue
            found = self.function(reg.function)
            if found is None:
                continue
            for edge in found[1].calls:
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
        return out + extra

    def overrides(self, method: str) -> list[str]:
        """The methods of the project's subclasses (at any depth) that override `method` of a
        class, as read in the modules analysed."""
        owner, _, name = method.rpartition(".")
        return sorted(f"{cls}.{name}" for cls in self.subclasses(owner) if f"{cls}.{name}" in self.functions)

    @contextlib.contextmanager
    def _not_asking(self) -> Iterator[None]:
        """While a map over every summary read so far is built: a name it cannot resolve is not
        a reason to analyse more files (`missing` is the pipeline's request for them)."""
        missing, self.missing = self.missing, None
        try:
            yield
        finally:
            self.missing = missing

    def subclasses(self, owner: str) -> list[str]:
        """The project's subclasses of a class, at any depth, as read in the modules analysed."""
        if self._subclasses is None:
            self._subclasses = {}
            with self._not_asking():  # what bases are is not worth analysing more files
                for summary in self.summaries:
                    for cls, bases in summary.classes.items():
                        for base in bases:
                            self._subclasses.setdefault(self.resolve(base), []).append(cls)
        out: list[str] = []
        pending, seen = list(self._subclasses.get(owner, ())), {owner}
        while pending:
            cls = pending.pop()
            if cls in seen:
                continue
            seen.add(cls)
            out.append(cls)
            pending.extend(self._subclasses.get(cls, ()))
        return out

    def lacks_attribute(self, qual: str, attr: str) -> bool:
        """Can no instance of the project class `qual` have `attr`? True only when the class, its
        bases (up to builtin exceptions) and its subclasses are all read here and none defines it:
        then `getattr(e, attr, None) == 429` is never true."""
        if attr.startswith("__") or attr in _BASE_EXCEPTION_ATTRS:
            return False
        for cls in (*self.class_ancestors(qual), *self.subclasses(self.resolve(qual))):
            module = self.modules.get(cls.rpartition(".")[0])
            attrs = module.class_attrs.get(cls) if module is not None else None
            if attrs is None:
                if module is not None and cls in module.classes:
                    return False  # the project's, but open or not read as an exception
                if last_name(cls) not in _BUILTIN_EXCEPTIONS:
                    return False  # a library's class: its attributes are not known here
            elif attr in attrs:
                return False
        return True

    def _table_registrations(self, reg: ToolRegistration, summary: ModuleSummary) -> list[tuple[ToolRegistration, ModuleSummary]]:
        """A registration of every function of an imported table (`for fn in TOOLS: mcp.tool()(fn)`),
        or of every function a project decorator registers (DECORATED_REF)."""
        functions = self._registered_functions(reg)
        if functions is None:
            return [(reg, summary)]
        return [(replace(reg, function=function, tool_name=last_name(function)), summary) for function in functions]

    def _registered_functions(self, reg: ToolRegistration) -> list[str] | None:
        """The functions a registration stands for, or None when it names its own function."""
        if reg.function.startswith(DECORATED_REF):
            return self.decorated(reg.function)
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

    def function_table(self, qualname: str) -> list[str]:
        """The functions of a module-level dict or list of another module, through re-exports."""
        resolved = self.resolve(qualname, lookup=Lookup.REGISTRATION)
        module, _, name = resolved.rpartition(".")
        summary = self.modules.get(module)
        return list(summary.function_tables.get(name, ())) if summary is not None else []

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
                    family = self.server_family(server)
                    if family is None:
                        continue  # an object we cannot tie to MCP
                if (family, server) not in out:
                    out.append((family, server))
        return out

    def server_family(self, key: str) -> Family | None:
        """The family of a server variable, also when it was made by a project subclass or
        factory in another module (`mcp = MyServer()` there, `from .server import mcp` here)."""
        resolved = self.resolve(key, lookup=Lookup.REGISTRATION)
        family = self.servers.get(resolved)
        if family is None:
            module, _, name = resolved.rpartition(".")
            summary = self.modules.get(module)
            made_by = summary.instances.get(name) if summary is not None else None
            if made_by:
                family = self.servers.get(self.resolve(made_by, lookup=Lookup.REGISTRATION))
        return family

    def _is_project_class(self, key: str) -> bool:
        resolved = self.resolve(key)
        return any(resolved in summary.classes for summary in self.summaries)

    def masks(self, reg: ToolRegistration, summary: ModuleSummary, family: Family, major: int | None) -> str:
        """What masks the text of the tool's unexpected exceptions, "" when nothing does:
        MASKED_IN_CODE for `mask_error_details=True` where the tool is registered or its server
        defined; else, on a fastmcp release with the environment variable, the project file that
        turns it on ('FASTMCP_MASK_ERROR_DETAILS=true in .env'), unless the code passes the
        argument and the release lets it beat the variable. `family`, `major`: the tool's
        framework (family_of), which the callers have already asked."""
        modules = [summary]
        if reg.server:
            module = self.modules.get(self.resolve(reg.server).rsplit(".", 1)[0])
            if module is not None and module is not summary:
                modules.append(module)
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

    def family_of(self, reg: ToolRegistration, summary: ModuleSummary) -> tuple[Family, int | None]:
        family = reg.family
        if family is None and reg.server:
            family = self.server_family(reg.server)
        if family is None:
            family = summary.family_hint
        if family is None:
            family = self._family_from_pins(summary.path)
        major = reg.lowlevel_major or (summary.lowlevel_major_hint if family is Family.MCP_LOWLEVEL else None)
        return family, major

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

    # -- tracing tools into helpers ----------------------------------------------------------
    def traced_functions(self) -> set[str]:
        """The functions `trace_tools` reports, found without telling the tools apart: each
        function is expanded once, at the depth of its shortest path from a tool. It looks up
        exactly the names `trace_tools` looks up (the prefilter listens to those), several times
        faster."""
        depth: dict[str, int] = {}
        queue: deque[str] = deque()
        for reg, summary in self.tool_registrations():
            found = self.function(reg.function)
            if found is None:
                continue
            self.masks(reg, summary, *self.family_of(reg, summary))
            entries = [(found[1].qualname, 0)] + [(wrapper, 1) for wrapper in self.wrapper_bodies(found[1])]
            for qual, level in entries:
                if qual not in depth:
                    depth[qual] = level
                    queue.append(qual)
        while queue:
            qual = queue.popleft()
            for latent in self.functions[qual][1].latent:
                for needed in filter(None, latent.get(NEEDS_NAMES).split(",")):
                    self.resolve(needed)  # its module decides the finding: analyse it
            if depth[qual] >= MAX_DEPTH:
                continue
            for edge in self.functions[qual][1].calls:
                target = self.function(edge.callee)
                if target is None:
                    continue
                if target[1].qualname not in depth:
                    depth[target[1].qualname] = depth[qual] + 1
                    queue.append(target[1].qualname)
                for bound, _ in self.bound_calls(edge, target[1]):
                    if bound[1].qualname not in depth:
                        depth[bound[1].qualname] = depth[qual] + 2
                        queue.append(bound[1].qualname)
        self.exception_classes(depth)
        return set(depth)

    def bound_calls(self, edge: CallEdge, target: FunctionSummary) -> list[tuple[tuple[ModuleSummary, FunctionSummary], CallEdge]]:
        """Calls `target` makes on an untyped parameter that `edge`'s caller fills with an object
        of a known class (`run(sql, db_client)` with `db_client = DatabaseClient()`, and
        `def run(sql, db): db.query(sql)`): those methods, with the call that reaches each."""
        if not edge.arg_types:
            return []
        params = target.params
        shift = receiver_shift(edge.via_attribute, params)
        types: dict[int, str] = {}
        for position, keyword, type_name in edge.arg_types:
            index = params.index(keyword) if keyword in params else (position + shift if position >= 0 else -1)
            if index >= 0:
                types[index] = type_name
        out = []
        for call in target.calls:
            if call.param_call is not None and call.param_call[0] in types:
                found = self.function(types[call.param_call[0]] + call.param_call[1])
                if found is not None:
                    out.append((found, call))
        return out

    def trace_tools(self) -> dict[str, ToolPaths]:
        """Follow every tool through the calls it makes (MAX_DEPTH deep), tool by tool: every
        function reached, with how (ToolPaths)."""
        reached: dict[str, ToolPaths] = {}
        # `sends`: how much of the function's value the tool returns: _WHOLE, _PART or _NOTHING;
        # `selects`: with _PART, which items of it (None: any).
        queue: deque[_Step] = deque()
        for reg, summary in self.tool_registrations():
            found = self.function(reg.function)
            if found is None:
                continue
            qual = found[1].qualname
            family, major = self.family_of(reg, summary)
            entry = reached.setdefault(qual, ToolPaths())
            if not entry.is_tool:
                entry.kind = reg.kind  # the first registration says what kind of handler it is
            entry.is_tool = True
            entry.own_names.add(reg.tool_name)
            masked = self.masks(reg, summary, family, major)
            queue.append((qual, reg.tool_name, family, major, _WHOLE, None, frozenset(), 0, masked, reg.guarded, frozenset()))
            wrappers = self.wrapper_bodies(found[1])
            if any(self.functions[w][1].intercepts for w in wrappers if w in self.functions):
                self.intercepted_tools.add(reg.tool_name)
            guards = [g for w in wrappers if w in self.functions for g in self.functions[w][1].guards]
            if guards:
                self.wrapper_guards.setdefault(reg.tool_name, []).extend(guards)
                self.guarding_wrappers.update(wrappers)
            for wrapper in wrappers:  # it returns the tool's value
                queue.append((wrapper, reg.tool_name, family, major, _WHOLE, None, frozenset(), 1, masked, frozenset(), frozenset()))
        seen: set[tuple[str, str, int, frozenset[str] | None, frozenset[int], frozenset, frozenset[str]]] = set()
        while queue:
            qual, tool, family, major, sends, selects, exc_params, depth, masked, guard, excludes = queue.popleft()
            key = (qual, tool, sends, selects, exc_params, guard, excludes)
            if key in seen:
                continue
            seen.add(key)
            entry = reached.setdefault(qual, ToolPaths())
            entry.tools.add(tool)
            entry.families.append((family, major, tool))
            if sends == _WHOLE:
                entry.returns = True
            if sends != _NOTHING:
                entry.carries = True
                entry.carry_tools.add(tool)
                entry.selects = None if selects is None or entry.selects is None else entry.selects | selects
            entry.exc_params |= exc_params
            entry.guards.add(guard)
            entry.excludes.setdefault(tool, set()).add(excludes)
            # A helper counts as masked only when every tool reaching it masks (named by the last).
            entry.masked = masked if len(entry.tools) == 1 else (entry.masked and masked)
            if depth >= MAX_DEPTH:
                continue
            summary, fn = self.functions[qual]
            for edge in fn.calls:
                target = self.function(edge.callee)
                if target is None or target[1].qualname == qual:
                    continue
                params = target[1].params
                shift = receiver_shift(edge.via_attribute, params)
                passed = frozenset(i + shift for i in edge.exc_params)
                if exc_params and edge.forwards:  # `fail(exc)` handing the caught exception on
                    passed |= frozenset(i + shift for i, own in edge.forwards if own in exc_params)
                # The helper's value reaches the model when the caller returns it, or anything
                # built from it (json.dumps, TextContent, an f-string, a wrapping dict); a part
                # of it (`r["error"]`) still carries its text. A part of a part is a part.
                passed_on = _passes(edge)
                if passed_on == _PART and edge.wrapped_by is not None and self._formats_as_is(edge.wrapped_by):
                    passed_on = _WHOLE  # `return format_text_response(result)`: the value as it is
                # Items selected of the caller's value are items of the helper's when it returns
                # its value whole; a part taken here selects anew.
                selected = selects if passed_on == _WHOLE else edge.selects
                level = min(sends, passed_on)
                if edge.raised and level == _NOTHING:
                    # `raise ToolError(describe(exc))` in a helper whose value the tool ignores:
                    # the raise still takes the text to the model.
                    level, selected = _PART, edge.selects
                if sends == _PART and selects is not None and edge.slot is not None:
                    # The tool takes items of the caller's returned literal (`content, _ = fetch()`
                    # after `return extract(page), ""`): the one holding this call, whole, or not it.
                    level, selected = (_WHOLE, None) if edge.slot in selects else (_NOTHING, None)
                queue.append(
                    (
                        target[1].qualname,
                        tool,
                        family,
                        major,
                        level,
                        selected if level == _PART else None,
                        passed,
                        depth + 1,
                        masked,
                        guard | edge.guarded,
                        edge.excludes,
                    )
                )
                for bound, call in self.bound_calls(edge, target[1]):
                    through = min(level, _passes(call))
                    guards = guard | edge.guarded | call.guarded
                    queue.append(
                        (bound[1].qualname, tool, family, major, through, None, frozenset(), depth + 2, masked, guards, call.excludes)
                    )
        self._raised_factories(reached)
        self._raised_text(reached)
        self.exception_classes(reached)
        return reached

    def _raised_text(self, reached: dict[str, ToolPaths]) -> None:
        """ToolPaths.raised_text: a reached caller raises a plain exception with text of the
        function's value (`raise ValueError(json.dumps(result))`), or of the value of a caller
        whose own value is returned whole down to it."""
        pending: list[tuple[CallEdge, str, int]] = []
        for qual in reached:
            pending.extend((edge, edge.raised_text, 0) for edge in self.functions[qual][1].calls if edge.raised_text)
        while pending:
            edge, cls, depth = pending.pop()
            target = self.function(edge.callee)
            if target is None or target[1].qualname not in reached:
                continue
            # `def run(sql, client): return client.query(sql)` called with a typed client: the
            # method it runs returns its value too.
            for bound, call in self.bound_calls(edge, target[1]):
                if _passes(call) != _NOTHING and bound[1].qualname in reached and not reached[bound[1].qualname].raised_text:
                    reached[bound[1].qualname].raised_text = cls
            entry = reached[target[1].qualname]
            if entry.raised_text:
                continue
            entry.raised_text = cls
            if depth < MAX_DEPTH:
                pending.extend((e, cls, depth + 1) for e in target[1].calls if _passes(e) != _NOTHING)

    def _raised_factories(self, reached: dict[str, ToolPaths]) -> None:
        """Mark the parameters a reached caller fills with a caught exception and whose call's
        value it raises (`raise self._unreachable(e) from e`): ToolPaths.raised_exc_params."""
        for qual in list(reached):
            for edge in self.functions[qual][1].calls:
                if not edge.raises_value or not edge.exc_params:
                    continue
                target = self.function(edge.callee)
                if target is None or target[1].qualname not in reached:
                    continue
                params = target[1].params
                shift = receiver_shift(edge.via_attribute, params)
                reached[target[1].qualname].raised_exc_params.update(i + shift for i in edge.exc_params)

    # -- what helpers do (RenderContext.callee_effect) ------------------------------------------
    def effect(self, kind: str, qualname: str) -> str:
        """("mutates", f): what f or a helper it calls (a few levels down) mutates, "" if
        nothing; ("validates", f): "yes" when f rejects bad arguments; ("mutates_when", f): the
        parameter f's own mutations depend on (FunctionSummary.mutates_when) and "|1" when f's
        first parameter is `self`/`cls` ("|0" otherwise), "" when none; ("mutation_site", f):
        where the mutation "mutates" names is, as "path|function|row|column|end row|end
        column|first row|last row|statement"."""
        found = self.function(qualname)
        if found is None:
            return ""
        if kind == "validates":
            return "yes" if found[1].validates else ""
        if kind == "mutates_when":
            fn = found[1]
            if not fn.mutates or not fn.mutates_when:
                return ""
            return f"{fn.mutates_when}|{int(bool(fn.params) and fn.params[0] in {'self', 'cls'})}"
        if kind == "mutation_site":
            return self._mutation_site(found, 0)
        return self._mutates(found[1], 0)

    def _mutation_site(self, found: tuple[ModuleSummary, FunctionSummary], depth: int) -> str:
        """The site of the mutation `_mutates` finds first, walking the same way."""
        summary, fn = found
        if fn.mutates:
            if fn.mutation_site is None:
                return ""
            row, column, end_row, end_column, text, first, last = fn.mutation_site
            return "|".join((summary.path, fn.name, str(row), str(column), str(end_row), str(end_column), str(first), str(last), text))
        if depth >= HELPER_DEPTH:
            return ""
        for edge in fn.calls:
            target = self.function(edge.callee)
            if target is not None and target[1] is not fn and self._mutates(target[1], depth + 1):
                return self._mutation_site(target, depth + 1)
        return ""

    def _absorbed(self, raised: str, entry: ToolPaths) -> bool:
        """Is an exception of class `raised` caught, on every way from a tool, by an `except`
        clause that neither raises nor returns (FunctionSummary.absorbing)?"""
        if not entry.guards:
            return False
        if self._absorbing is None:
            self._absorbing = frozenset(site for _, fn in self.functions.values() for site in fn.absorbing)
        absorbing = self._absorbing
        return all(any((clause := catching_clause(t, raised)) is not None and clause[2] in absorbing for t in path) for path in entry.guards)

    def _caller_enables(self, qual: str, guard: str, entry: ToolPaths, reached: dict[str, ToolPaths]) -> bool:
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

    def _mutates(self, fn: FunctionSummary, depth: int) -> str:
        key = (fn.qualname, depth)  # by depth too: the answer must not depend on who asked first
        known = self._mutation_memo.get(key)
        if known is not None:
            return known
        self._mutation_memo[key] = ""  # a cycle of calls mutates nothing more
        found = fn.mutates
        if not found and depth < HELPER_DEPTH:
            for edge in fn.calls:
                target = self.function(edge.callee)
                if target is not None and target[1] is not fn:
                    found = self._mutates(target[1], depth + 1)
                    if found:
                        break
        self._mutation_memo[key] = found
        return found

    # -- findings --------------------------------------------------------------------------
    def inventory(self) -> list[ServerTools]:
        """The servers of the project and the tools on each (what a run checked), sorted."""
        groups: dict[str, tuple[str, Family, tuple[str, str] | None, set[str]]] = {}
        for reg, summary in self.tool_registrations():
            family, _ = self.family_of(reg, summary)
            server = self.resolve(reg.server) if reg.server and not reg.server.startswith(PARAM_REF) else ""
            if not server and len(summary.servers) == 1:
                server = next(iter(summary.servers))  # a server bound to a local of its module's function
            if server not in groups:
                groups[server] = (self._server_path(server) or summary.path, family, self._pin(family, summary.path), set())
            name = reg.tool_name if reg.kind not in {"dispatch", "raw-dispatch"} else f"{reg.tool_name} (tools/call handler)"
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
        self._count_carriers(reached)
        codes = sorted({latent.code for qual in reached for latent in self.functions[qual][1].latent})
        rules = {code: rule for code in codes if (rule := rule_by_code(code)) is not None}
        states = {code: rule.link_start(self, reached) for code, rule in rules.items()}
        passing_on = self._passing_on(reached)
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
                if linked.get("when") and not self._caller_enables(qual, linked.get("when"), entry, reached):
                    continue  # the branch it is in needs an argument no caller passes
                if linked.get("absorbable") and self._absorbed(linked.get("absorbable"), entry):
                    continue  # every caller turns the raise into an entry of its result and goes on
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
                dead_checks = () if entry.is_tool else self._callers_take_a_raise(rendered.fix, qual, reached, summary.path)
                fix = (
                    self._fix(_with_edits(rendered.fix, dead_checks), summary, family)
                    if _same_handlers(rendered.fix, entry)
                    and not self._replaced_class_tested(rendered.fix)
                    and dead_checks is not None
                    else None
                )
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
                    rendered = replace(rendered, related=(*self._passing_calls(qual, latent.param, reached), *rendered.related))
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
                out.append(finding)
        for code in sorted({code for summary in self.summaries for code in summary.rule_records}):
            rule = rule_by_code(code)
            if rule is not None:
                out.extend(rule.link(self))  # findings about a server, not a function
        return out

    def failed_responses(self) -> dict[str, set[int]]:
        """By function: the parameter positions some caller passes a response it found failed
        (CallEdge.failed_responses), counted over the whole project once."""
        if self._failed is None:
            self._failed = {}
            for summary in self.summaries:
                for fn in summary.functions.values():
                    for edge in fn.calls:
                        if not edge.failed_responses:
                            continue
                        target = self.function(edge.callee)
                        if target is None:
                            continue
                        shift = receiver_shift(edge.via_attribute, target[1].params)
                        self._failed.setdefault(target[1].qualname, set()).update(i + shift for i in edge.failed_responses)
        return self._failed

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
                key = self.resolve(reg.server) if reg.server else _LOCAL + owner.module
                self._tools_on.setdefault(key, set()).add(reg.tool_name)
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
        return self._fix(spec, summary, family)

    # -- exception text carried and passed on (rules.base.LinkedProject) -------------------------
    def _count_carriers(self, reached: dict[str, ToolPaths]) -> None:
        """Count, over each project exception class and its subclasses, the raises built from a
        caught library exception's text and the others (FunctionSummary.exception_raises), in
        the modules holding a function a tool reaches and those defining the exception classes
        they raise and catch. A prefiltered run analyses exactly these too, so the verdicts (and
        findings) are those of a whole analysis."""
        self._carrier_totals: dict[str, tuple[int, int]] = {}
        self._carrier_examples: dict[str, str] = {}  # class -> "path:row" of a raise carrying library text
        names = {self.functions[qual][0].module for qual in reached}
        names.update(cls.rpartition(".")[0] for classes in self.looked_up_classes() for cls in classes)
        for summary in (self.modules[name] for name in sorted(names) if name in self.modules):
            for fn in summary.functions.values():
                for raised, carried, row in fn.exception_raises:
                    for ancestor in self.class_ancestors(raised):
                        library, own = self._carrier_totals.get(ancestor, (0, 0))
                        self._carrier_totals[ancestor] = (library + carried, own + (not carried))
                        if carried:
                            self._carrier_examples.setdefault(ancestor, f"{summary.path}:{row}")

    def is_carrier(self, qual: str) -> bool:
        """Does every raise of the project class `qual` (or a subclass) in the counted modules
        carry a caught library exception's text? Then catching it is catching library text."""
        library, own = self._carrier_totals.get(self.resolve(qual), (0, 0))
        return library > 0 and own == 0

    def carrier_example(self, qual: str) -> str:
        """Where a raise of the class carries library text ("path:row"), "" when none is known."""
        return self._carrier_examples.get(self.resolve(qual), "")

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
                    how = "returns it" if marker.route == "return" else "puts it into ToolError"
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

    def _formats_as_is(self, qualname: str) -> bool:
        """Does the project function return its first argument as it is, in a normal result
        (`format_text_response(text)` -> `[TextContent(type="text", text=str(text))]`)? Not one
        that builds error results or failures itself: what it returns is judged where it is."""
        found = self.function(qualname)
        if found is None:
            return False
        fn = found[1]
        # (A failure builder is named like an error builder: the name's test covers it.)
        return fn.returns_argument and not fn.error_results and not is_error_builder_name(fn.name)

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
            callee_effect=self.effect,
            project=self,
        )
        value_context = context if entry.is_tool else replace(context, tools=tuple(sorted(entry.carry_tools)))
        return context, value_context

    @staticmethod
    def applies(latent: Latent, entry: ToolPaths) -> bool:
        if latent.param >= 0 and latent.param not in entry.exc_params:
            return False
        if latent.conds and _ruled_out(latent, set().union(*entry.excludes.values())):
            return False  # every caller already left on this branch's condition: never taken
        if latent.route == "tool":
            return entry.is_tool
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
                    target = self.function(edge.callee)
                    if target is not None and target[1].qualname != caller:
                        self._call_sites.setdefault(target[1].qualname, []).append((caller, edge))
        return self._call_sites.get(qual, [])

    def _passing_calls(self, qual: str, param: int, reached: dict[str, ToolPaths], limit: int = 3) -> tuple[Related, ...]:
        """Where callers on a tool's path hand a caught exception to `qual` at position `param`
        (the first `limit` in file order): the start of the flow of a finding that fires only
        for such a caller (Latent.param)."""
        params = self.functions[qual][1].params
        sites = []
        for caller, edge in self.callers_of(qual):
            if edge.at is None or caller not in reached:
                continue
            shift = receiver_shift(edge.via_attribute, params)
            if param - shift in edge.exc_params:
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
                    if edge.at is not None and caller in reached and _passes(edge) == _WHOLE and not tools.isdisjoint(reached[caller].tools)
                )
                for path, (start, end), caller in sites:
                    name = self.functions[caller][1].name
                    out.append(Related(path, start, end, f"returned on by `{name}()`"))
                    if caller not in seen and not reached[caller].is_tool:
                        seen.add(caller)
                        above.append(caller)
            level = above
        return tuple(dict.fromkeys(out))[:limit]

    def _replaced_class_tested(self, spec: FixSpec | None) -> bool:
        """Does code anywhere in the project catch or type-test the project class a fix would
        replace, or one of its project ancestors (`except ApiError`, `isinstance(r, ApiError)`)?
        Then raising ToolError in its place breaks that code, whoever calls it."""
        if spec is None or not spec.replaces or spec.raises == spec.replaces:
            return False  # the fix keeps the class (a new message only)
        if self._tested_classes is None:
            self._tested_classes = frozenset().union(*(s.tested_classes for s in self.summaries))
        names = {spec.replaces, *(last_name(a) for a in spec.replaced_ancestors)}
        return bool((names - _BUILTIN_EXCEPTIONS) & self._tested_classes)

    def _callers_take_a_raise(self, spec: FixSpec | None, qual: str, reached: dict[str, ToolPaths], path: str) -> tuple[Edit, ...] | None:
        """May a helper's fix turn its return into a raise? Only when every caller is on a tool's
        path and returns the helper's value as it is (so the tool raises in its place), up to
        the tools: a caller that reads the value (a `gather` reporting each source's error) or a
        caller no tool reaches (a CLI) would break. A caller in the helper's file (`path`) whose
        only test of the value hands a failure on (`if "error" in r: return r`) takes the raise
        too: the fix deletes that check, dead once the helper raises. The deletions ((): none
        needed), or None when the fix must not be offered."""
        if spec is None or not spec.raises or spec.replaces:
            return ()  # not a change of contract: nothing raised, or a raise stays a raise
        seen: set[str] = set()
        pending = [qual]
        deletions: list[Edit] = []
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            for caller, edge in self.callers_of(current):
                entry = reached.get(caller)
                if entry is None or _passes(edge) != _WHOLE:
                    return None  # a caller no tool reaches, or that takes part of the value
                if edge.tested:
                    if edge.dead_check is None or self.functions[caller][0].path != path:
                        return None  # a test of the value the fix cannot remove with it
                    deletions.append(Edit(*edge.dead_check, ""))
                if not entry.is_tool:
                    pending.append(caller)
        return tuple(deletions)

    def project_logger(self) -> str:
        """The project's own logger factory (ModuleSummary.logger_factory), when every module
        with a logger makes it with that one function: the project's convention for a module that
        has no logger yet; "" when there is none or the modules differ (some use the standard
        library's)."""
        if self._project_logger is None:
            found = {summary.logger_factory for summary in self.summaries if summary.logger_name}
            self._project_logger = found.pop() if len(found) == 1 else ""
        return self._project_logger

    def _first_party(self, summary: ModuleSummary) -> frozenset[str]:
        """The project's own top-level modules, which isort puts in the first-party section (see
        fixing/first_party.py): not only the fixed file's own package. Once per folder."""
        key = (str(Path(summary.path).parent), summary.module.count("."))
        if key not in self._first_party_names:
            self._first_party_names[key] = first_party(summary.path, summary.module)
        return self._first_party_names[key]

    def _fix(self, spec: FixSpec | None, summary: ModuleSummary, family: Family) -> Fix | None:
        """Fill a fix's placeholders with the names the module already has, adding imports when
        it has none; no fix when a needed name is taken by something else."""
        if spec is None:
            return None
        names: dict[str, str] = {}
        imports: list[tuple[str, str | None]] = []  # (module, name): `from module import name`
        after_imports: list[str] = []
        for need in spec.needs:
            if need == "ToolError":
                if family not in TOOL_ERROR_IMPORT:
                    return None
                module, name = TOOL_ERROR_IMPORT[family]
                local = summary.tool_error_names.get(family) or _local_name(summary, [f"{module}.{name}"])
                if local is None:
                    if _name_taken(summary, name) or summary.imports.framework_deferred:
                        # A module written to import without the framework (a CLI uses it)
                        # would need it at import time: no fix rather than break that.
                        return None
                    # A server on a copy of the framework imports it from the copy.
                    imports.append((import_in_copy(module, name, summary.framework_copies), name))
                    local = name
                names[PH_TOOL_ERROR] = local
            elif need in {"CallToolResult", "TextContent"}:
                local = _local_name(summary, [f"mcp.types.{need}", f"mcp_types.{need}"])
                if local is None:
                    if _name_taken(summary, need) or summary.imports.framework_deferred:
                        return None
                    imports.append((import_in_copy("mcp.types", need, summary.framework_copies), need))
                    local = need
                names[PH_CALL_TOOL_RESULT if need == "CallToolResult" else PH_TEXT_CONTENT] = local
            elif need == "logger":
                local = summary.logger_name
                factory = self.project_logger() if local is None else ""
                if local is None and factory:
                    # The project's own logger (`logger = get_logger(__name__)`), as its other
                    # modules make it: never a standard library logger beside it.
                    module, _, function = factory.rpartition(".")
                    if _name_taken(summary, "logger") or (function not in summary.reexports and _name_taken(summary, function)) or module == summary.module:
                        return None
                    if summary.reexports.get(function) != factory:
                        imports.append((_as_the_module_imports(module, summary), function))
                    after_imports.append(f"logger = {function}(__name__)")
                    local = "logger"
                if local is None:
                    if _name_taken(summary, "logger"):
                        return None
                    logging_name = _local_name(summary, ["logging"])
                    if logging_name is None:
                        if _name_taken(summary, "logging"):
                            return None
                        imports.append(("logging", None))
                        logging_name = "logging"
                    after_imports.append(f"logger = {logging_name}.getLogger(__name__)")
                    local = "logger"
                names[PH_LOGGER] = local
        edits = [Edit(e.location, e.end_location, _fill(e.content, names)) for e in spec.edits]
        edits.extend(import_edits(summary.imports, imports, after_imports, self._first_party(summary)))
        return Fix(spec.applicability, _fill(spec.message, names), tuple(sorted(edits)))


def _as_the_module_imports(module: str, summary: ModuleSummary) -> str:
    """`module` spelled as the importing module spells the project's modules: relative
    (`...utils.logging` from `pkg.tools.content.posts`) when its imports are, else absolute."""
    if not any(line.module.startswith(".") for line in summary.imports.lines):
        return module
    package = summary.module.split(".")
    if not summary.path.endswith("__init__.py"):
        package = package[:-1]
    target = module.split(".")
    common = 0
    while common < min(len(package), len(target)) and package[common] == target[common]:
        common += 1
    if common == 0:
        return module  # another top-level package: no relative spelling reaches it
    return "." * (len(package) - common + 1) + ".".join(target[common:])


def _with_edits(spec: FixSpec | None, edits: tuple[Edit, ...] | None) -> FixSpec | None:
    """The fix with `edits` of the same file added (callers' checks it makes dead)."""
    return replace(spec, edits=spec.edits + edits) if spec is not None and edits else spec


def _passes(edge: CallEdge) -> int:
    """How much of the callee's value the caller returns (or raises in a ToolError): _WHOLE,
    _PART or _NOTHING."""
    return _WHOLE if edge.returned or edge.flows else _PART if edge.feeds else _NOTHING


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


def _same_handlers(spec: FixSpec | None, entry: ToolPaths) -> bool:
    """Does the fixed code's exception meet the same `except` of every caller on the way as the
    original statement's (none, for a return)? Otherwise the fix changes what the client gets."""
    if spec is None or not spec.raises:
        return True
    for guard in entry.guards:
        before = bool(spec.replaces) and any(catches(t, spec.replaces) for t in guard)
        if before != any(catches(t, spec.raises) for t in guard):
            return False
    return True


def _local_name(summary: ModuleSummary, qualified: list[str]) -> str | None:
    """How the module can already spell one of `qualified`: `ToolError`, `TE`, `fe.ToolError`."""
    for target in qualified:
        for local, qual in summary.reexports.items():
            if qual == target:
                return local
    for target in qualified:
        for local, qual in summary.reexports.items():
            if target.startswith(qual + ".") and "." not in local:
                return local + target[len(qual) :]
    return None


def _name_taken(summary: ModuleSummary, name: str) -> bool:
    """Is `name` already bound at module level to something else (import, def, class, variable)?"""
    return name in summary.reexports or name in summary.defined_names


def _fill(text: str, names: dict[str, str]) -> str:
    for placeholder, value in names.items():
        text = text.replace(placeholder, value)
    return text


def is_test_module(path: str) -> bool:
    """A pytest module (`test_*.py`, `*_test.py`, `conftest.py`): the tools it registers are
    fixtures that fail on purpose, not tools of a server anyone runs."""
    name = os.path.basename(path)
    return name == "conftest.py" or (name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py")))


# What every exception has (BaseException's own attributes and methods).
_BASE_EXCEPTION_ATTRS = frozenset(n for n in dir(BaseException) if not n.startswith("__")) | {"__cause__", "__context__", "__traceback__", "__notes__"}
_BUILTIN_EXCEPTIONS = frozenset(n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException))
