"""Fix materialisation: a rule's fix (FixSpec) made concrete where the link step reports it.

A rule renders a fix with placeholders for the names it needs (ToolError, CallToolResult,
TextContent, a logger). At link time the fixed module is known: its imports, what it already
binds, the framework of the tool's server, the project's first-party modules. `LinkFixes`
fills the placeholders with the module's own spellings, adds the imports it lacks, and withholds
a fix that would change what a caller gets (`allowed`): an exception meeting another `except` on
the way, a replaced class the project tests for, a message whose text the project tests, a
helper's return turned into a raise that a caller reads.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, Mapping

from mcp_lint.findings import Edit, Fix
from mcp_lint.fixing.comments import keep_comments
from mcp_lint.fixing.first_party import first_party
from mcp_lint.fixing.imports import import_edits
from mcp_lint.framework_copies import import_in_copy
from mcp_lint.linking.names import BUILTIN_EXCEPTIONS
from mcp_lint.linking.tracing import NOTHING, WHOLE, ToolPaths, passes
from mcp_lint.model.exception_guards import TryGuard, catches, catching_site
from mcp_lint.model.frameworks import FRAMEWORK_PACKAGES, TOOL_ERROR_IMPORT, Family
from mcp_lint.model.names import last_name
from mcp_lint.model.summary import CallEdge, ModuleSummary
from mcp_lint.rules.plain_raises import builtin_bases
from mcp_lint.rules.base import PH_CALL_TOOL_RESULT, PH_LOGGER, PH_TEXT_CONTENT, PH_TOOL_ERROR, PH_VALIDATION_ERROR, FixSpec

# The project functions that call a function, each with its call (Project.callers_of).
CallersOf = Callable[[str], list[tuple[str, CallEdge]]]
# The path of the file that defines a project function, by its qualified name.
PathOf = Callable[[str], str]
# The `try` statements of the decorators' wrappers a project function runs under (every call of it
# passes through them), by its qualified name.
WrapperGuardsOf = Callable[[str], list[TryGuard]]


class LinkFixes:
    """The fixes of one link: materialised per module, allowed per path from the tools."""

    def __init__(self, summaries: list[ModuleSummary], callers_of: CallersOf, path_of: PathOf, wrapper_guards_of: WrapperGuardsOf) -> None:
        self.summaries = summaries
        self.callers_of = callers_of
        self.path_of = path_of
        self.wrapper_guards_of = wrapper_guards_of
        self._first_party_names: dict[tuple[str, int], frozenset[str]] = {}
        self._tested_classes: frozenset[str] | None = None  # ModuleSummary.tested_classes of all
        self._message_tested_classes: frozenset[str] | None = None  # ModuleSummary.message_tested_classes of all
        self._project_logger: str | None = None  # project_logger(), once asked
        self._root_logging: bool | None = None  # project_logs_through_root(), once asked
        # Clauses (Handler.site) before which an offered fix of this link puts `except ToolError:
        # raise` (FixSpec.opens): the fixes are applied together, so a callee's raise goes on
        # through them (see `offered`).
        self.opened: set[str] = set()

    def allowed(self, spec: FixSpec | None, qual: str, entry: ToolPaths, reached: Mapping[str, ToolPaths], path: str) -> tuple[Edit, ...] | None:
        """May the fix of a finding in `qual` (reached as `entry`, in the file `path`) be offered?
        None when it changes what a caller or the client gets; else the edits it needs in its
        callers besides its own (the checks of a returned failure it makes dead), often none."""
        opened = self.opened if spec is not None and spec.raises == "ToolError" else set()
        if not _same_handlers(spec, entry, opened) or self._replaced_class_tested(spec) or self._message_tested(spec):
            return None
        if self._handled_otherwise_above(spec, qual):
            return None
        # A tool's own function may have callers too (another tool, a method of its class, a
        # script of the package): they are asked like a helper's.
        return self._callers_take_a_raise(spec, qual, reached, path)

    def offered(self, spec: FixSpec | None) -> bool:
        """Note a fix the link offers; True when it opens clauses no offered fix opened before
        (fixes refused because those clauses caught their ToolError may be asked again)."""
        if spec is None or set(spec.opens) <= self.opened:
            return False
        self.opened.update(spec.opens)
        return True

    def materialise(self, spec: FixSpec | None, summary: ModuleSummary, family: Family) -> Fix | None:
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
                local = _runtime(summary.tool_error_names.get(family), summary) or _local_name(summary, [f"{module}.{name}"])
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
            elif need == "ValidationError":
                # pydantic's (pydantic_core's is the same class), as the module imports it.
                local = _local_name(summary, ["pydantic.ValidationError", "pydantic_core.ValidationError"])
                if local is None:
                    if _name_taken(summary, need):
                        return None  # another ValidationError (a framework's) holds the name
                    imports.append(("pydantic", need))
                    local = need
                names[PH_VALIDATION_ERROR] = local
            elif need == "logger":
                local = summary.logger_name
                if local is None and (summary.root_logging or self.project_logs_through_root()):
                    # The module (or, for one that does not log yet, every module of the
                    # project that logs) calls the root logger's functions: `logging.exception`
                    # like them, no module logger beside them.
                    local = _local_name(summary, ["logging"])
                    if local is None and not _name_taken(summary, "logging"):
                        imports.append(("logging", None))
                        local = "logging"
                factory = self.project_logger() if local is None else ""
                if local is None and factory == "loguru.logger":
                    # A project logging with loguru imports its logger object.
                    if _name_taken(summary, "logger"):
                        return None
                    imports.append(("loguru", "logger"))
                    local = "logger"
                elif local is None and factory.endswith(")"):
                    # A logging library's factory (`structlog.get_logger()`), as the project's
                    # other modules call it.
                    module = factory.split(".")[0]
                    spelled = _local_name(summary, [module])
                    if _name_taken(summary, "logger") or (spelled is None and _name_taken(summary, module)):
                        return None
                    if spelled is None:
                        imports.append((module, None))
                    after_imports.append(f"logger = {factory}")
                    local = "logger"
                elif local is None and factory:
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
        edits = [keep_comments(Edit(e.location, e.end_location, _fill(e.content, names)), summary.inner_comments) for e in spec.edits]
        edits.extend(import_edits(summary.imports, imports, after_imports, self._first_party(summary)))
        return Fix(spec.applicability, _fill(spec.message, names), tuple(sorted(edits)))

    def _replaced_class_tested(self, spec: FixSpec | None) -> bool:
        """Does code anywhere in the project catch or type-test the project class a fix would
        replace, or one of its project ancestors (`except ApiError`, `isinstance(r, ApiError)`)?
        Then raising ToolError in its place breaks that code, whoever calls it."""
        if spec is None or not spec.replaces or spec.raises == spec.replaces:
            return False  # the fix keeps the class (a new message only)
        if self._tested_classes is None:
            self._tested_classes = frozenset().union(*(s.tested_classes for s in self.summaries))
        names = {spec.replaces, *(last_name(a) for a in spec.replaced_ancestors)}
        return bool((names - BUILTIN_EXCEPTIONS) & self._tested_classes)

    def _handled_otherwise_above(self, spec: FixSpec | None, qual: str) -> bool:
        """Would an `except` of any caller of `qual`, up the calls in any module (on a tool's path
        or not: a script, a method of the class, a decorator's wrapper around a caller), handle the
        fixed code's exception otherwise than the original's? `raise ToolError` in place of a
        `raise ValueError` that a caller's `except ValueError` (or `except OSError` for a
        FileNotFoundError) answers would go past that clause; a return turned into a raise would
        meet an `except Exception` that never ran for it. Asked in every pass of the fix loop,
        so a half-fixed project is judged as the original was."""
        if spec is None or not spec.raises:
            return False
        before = self._class_names(spec) if spec.replaces else frozenset()
        after = frozenset({spec.raises})
        opened = self.opened if spec.raises == "ToolError" else set()
        if before and after <= before:
            return False  # the fix keeps the class: a new message only
        seen: set[str] = set()
        pending = [qual]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            ways: list[tuple[str | None, Iterable[TryGuard]]] = [(None, self.wrapper_guards_of(current))]
            ways.extend((caller, edge.guarded) for caller, edge in self.callers_of(current))
            for caller, guards in ways:
                stopped = False
                for guard in guards:
                    # Caught by one clause before and after the fix, or by none: else another
                    # clause (`except ValueError` vs `except Exception`) or none answers it now.
                    site_after = _catching(guard, after, opened)
                    if site_after != (_catching(guard, before) if before else None):
                        return True
                    stopped = stopped or site_after is not None
                if stopped:
                    if caller is None:
                        break  # the wrapper answers every call of `current` alike
                    continue
                if caller is not None:
                    pending.append(caller)  # it goes on up from the caller
        return False

    @staticmethod
    def _class_names(spec: FixSpec) -> frozenset[str]:
        """The replaced class and its bases, by short name: a builtin's from Python itself
        (`FileNotFoundError` is met by `except OSError`), a project class's from the rule."""
        names = {spec.replaces, *builtin_bases(spec.replaces), *(last_name(a) for a in spec.replaced_ancestors)}
        return frozenset(names - {"BaseException", "object"})

    def _message_tested(self, spec: FixSpec | None) -> bool:
        """Does a fix that keeps the project's class but rewrites its message rewrite the text
        code somewhere tests (`except ApiError as exc: if "404" in exc.message:`)? That branch
        would never be taken again."""
        if spec is None or not spec.raises or spec.raises != spec.replaces:
            return False
        if self._message_tested_classes is None:
            self._message_tested_classes = frozenset().union(*(s.message_tested_classes for s in self.summaries))
        names = {spec.replaces, *(last_name(a) for a in spec.replaced_ancestors)}
        return bool((names - BUILTIN_EXCEPTIONS) & self._message_tested_classes)

    def _callers_take_a_raise(self, spec: FixSpec | None, qual: str, reached: Mapping[str, ToolPaths], path: str) -> tuple[Edit, ...] | None:
        """May a helper's fix turn its return into a raise? Only when every caller is on a tool's
        path and returns the helper's value as it is (so the tool raises in its place), up to
        the tools: a caller that reads the value (a `gather` reporting each source's error),
        joins it to a report it has built (`report += helper()`: the report would be lost) or a
        caller no tool reaches (a CLI) would break. Asked in every pass of the fix loop: once
        an earlier fix lets ToolError through a caller's `except`, this is what still stops it. A caller in the helper's file (`path`) whose
        only test of the value hands a failure on (`if "error" in r: return r`) takes the raise
        too: the fix deletes that check, dead once the helper raises. The deletions ((): none
        needed), or None when the fix must not be offered."""
        if spec is None or not spec.raises:
            return ()  # not a change of contract: nothing raised
        if spec.replaces:
            if spec.raises == spec.replaces:
                # A new message for the same class: code no tool reaches that catches it (a
                # startup probe, a CLI's main printing it for the operator) reads the old text,
                # the transport's reason in it: that contract is not the tools' to change, unless
                # the fix logs the exception (the reason is then in the log).
                return None if "logger" not in spec.needs and self._caught_outside_the_tools(spec, qual, reached) else ()
            # A raise of another class (`RuntimeError` -> ToolError): code no tool reaches (a
            # daemon, a housekeeping job, a CLI) may depend on the class it raises today.
            return () if not self._called_outside_the_server(qual, reached) else None
        seen: set[str] = set()
        pending = [qual]
        deletions: list[Edit] = []
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            is_tool = current in reached and reached[current].is_tool
            for caller, edge in self.callers_of(current):
                if is_tool and passes(edge) == NOTHING and not edge.tested:
                    continue  # `self.tool(self.list_items)`: registered there, not called for its value
                entry = reached.get(caller)
                if entry is None or passes(edge) != WHOLE:
                    return None  # a caller no tool reaches (a script, a CLI), or that takes part of the value
                if edge.appended:
                    return None  # a part of the report the caller builds: a partial success
                if edge.tested:
                    if edge.dead_check is None or self.path_of(caller) != path:
                        return None  # a test of the value the fix cannot remove with it
                    deletions.append(Edit(*edge.dead_check, ""))
                pending.append(caller)  # a tool's callers too: a tool another method or a script calls
        return tuple(deletions)

    def _called_outside_the_server(self, qual: str, reached: Mapping[str, ToolPaths]) -> bool:
        """Is `qual` called, directly or up the calls, by a function no tool reaches in a module
        that does not import the MCP framework (a daemon, a web app's housekeeping, a script
        written without the server)? That code runs outside any server: it depends on the class
        raised today, and the framework's ToolError means nothing there. (A non-tool caller in a
        server module, its command-line entry point, is asked by `_handled_otherwise_above`.)"""
        seen: set[str] = set()
        pending = [qual]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            for caller, _edge in self.callers_of(current):
                if caller in reached:
                    pending.append(caller)
                elif not self._imports_framework(self.path_of(caller)):
                    return True
        return False

    def _caught_outside_the_tools(self, spec: FixSpec, qual: str, reached: Mapping[str, ToolPaths]) -> bool:
        """Does a function no tool reaches, in a module of the server (one importing the
        framework: its start-up check, its `main`), call `qual`, directly or up the calls, inside a
        `try` that catches the class the fix keeps (`except ApiError as e: print(e)` before
        `mcp.run()`)? The operator of the running server reads that text; the old one is what it
        was written for. (A script written without the server, a smoke test, is its developer's,
        who has the chained cause.)"""
        caught = self._class_names(spec)
        seen: set[str] = set()
        pending = [qual]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            for caller, edge in self.callers_of(current):
                if caller not in reached and any(catching_site(guard, caught) is not None for guard in edge.guarded):
                    if self._imports_framework(self.path_of(caller)):
                        return True
                    continue
                pending.append(caller)
        return False

    def _imports_framework(self, path: str) -> bool:
        """Does the module at `path` import an MCP framework (at its top or deferred)?"""
        summary = next((s for s in self.summaries if s.path == path), None)
        if summary is None:
            return True  # not read: nothing known against it
        block = summary.imports
        return block.framework_deferred or any(line.module.split(".")[0] in FRAMEWORK_PACKAGES for line in block.lines)

    def project_logger(self) -> str:
        """The project's own logger factory (ModuleSummary.logger_factory), when every module
        with a logger makes it with that one function: the project's convention for a module that
        has no logger yet; "" when there is none or the modules differ (some use the standard
        library's)."""
        if self._project_logger is None:
            found = {summary.logger_factory for summary in self.summaries if summary.logger_name}
            self._project_logger = found.pop() if len(found) == 1 else ""
        return self._project_logger

    def project_logs_through_root(self) -> bool:
        """Do the project's modules that log all do it through the root logger (`logging.info`),
        none with a logger of its own? Then that is the layout a module without logging follows."""
        if self._root_logging is None:
            self._root_logging = any(s.root_logging for s in self.summaries) and not any(s.logger_name for s in self.summaries)
        return self._root_logging

    def _first_party(self, summary: ModuleSummary) -> frozenset[str]:
        """The project's own top-level modules, which isort puts in the first-party section (see
        fixing/first_party.py): not only the fixed file's own package. Once per folder."""
        key = (str(Path(summary.path).parent), summary.module.count("."))
        if key not in self._first_party_names:
            self._first_party_names[key] = first_party(summary.path, summary.module)
        return self._first_party_names[key]



def with_edits(spec: FixSpec | None, edits: tuple[Edit, ...] | None) -> FixSpec | None:
    """The fix with `edits` of the same file added (callers' checks it makes dead)."""
    return replace(spec, edits=spec.edits + edits) if spec is not None and edits else spec


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


def _same_handlers(spec: FixSpec | None, entry: ToolPaths, opened: set[str]) -> bool:
    """Does the fixed code's exception meet the same `except` of every caller on the way as the
    original statement's (none, for a return)? Otherwise the fix changes what the client gets.
    A clause an offered fix opens for ToolError (`opened`) lets the fixed code's ToolError on."""
    if spec is None or not spec.raises:
        return True
    raised = frozenset({spec.raises})
    for guard in entry.guards:
        before = bool(spec.replaces) and any(catches(t, spec.replaces) for t in guard)
        if before != any(_catching(t, raised, opened) is not None for t in guard):
            return False
    return True


def _catching(guard: TryGuard, raised: frozenset[str], opened: set[str] | frozenset[str] = frozenset()) -> str | None:
    """The clause (Handler.site) of `guard` that keeps `raised` from going on; None when none
    does (no clause catches it, the first that does re-raises it, or an offered fix puts
    `except ToolError: raise` before it: `opened`, asked for the ToolError a fix raises)."""
    site = catching_site(guard, raised)
    if site is None or site[1] or site[0] in opened:
        return None
    return site[0]


def _local_name(summary: ModuleSummary, qualified: list[str]) -> str | None:
    """How the module can already spell one of `qualified` at module level: `ToolError`, `TE`,
    `fe.ToolError` (a name a function imports for itself is not bound where the fix goes)."""
    for target in qualified:
        for local, qual in summary.reexports.items():
            if qual == target and local in summary.imports.runtime_names:
                return local
    for target in qualified:
        for local, qual in summary.reexports.items():
            if target.startswith(qual + ".") and "." not in local and local in summary.imports.runtime_names:
                return local + target[len(qual) :]
    return None


def _runtime(local: str | None, summary: ModuleSummary) -> str | None:
    """`local` when a module-level import binds it as the module runs, else None."""
    return local if local is not None and local in summary.imports.runtime_names else None


def _name_taken(summary: ModuleSummary, name: str) -> bool:
    """Is `name` already bound at module level to something else (import, def, class, variable)?"""
    return name in summary.reexports or name in summary.defined_names


def _fill(text: str, names: dict[str, str]) -> str:
    for placeholder, value in names.items():
        text = text.replace(placeholder, value)
    return text
