"""Fix materialisation: a rule's fix (FixSpec) made concrete where the link step reports it.

A rule renders a fix with placeholders for the names it needs (ToolError, CallToolResult,
TextContent, a logger). At link time the fixed module is known: its imports, what it already
binds, the framework of the tool's server, the project's first-party modules. `LinkFixes`
fills the placeholders with the module's own spellings, adds the imports it lacks, and withholds
a fix that would change what a caller gets (`allowed`): an exception meeting another `except` on
the way, a replaced class the project tests for, a helper's return turned into a raise that a
caller reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping

from mcp_lint.findings import Edit, Fix
from mcp_lint.fixing.first_party import first_party
from mcp_lint.fixing.imports import import_edits
from mcp_lint.framework_copies import import_in_copy
from mcp_lint.linking.names import BUILTIN_EXCEPTIONS
from mcp_lint.linking.tracing import WHOLE, ToolPaths, passes
from mcp_lint.model.exception_guards import catches
from mcp_lint.model.frameworks import TOOL_ERROR_IMPORT, Family
from mcp_lint.model.names import last_name
from mcp_lint.model.summary import CallEdge, ModuleSummary
from mcp_lint.rules.base import PH_CALL_TOOL_RESULT, PH_LOGGER, PH_TEXT_CONTENT, PH_TOOL_ERROR, FixSpec

# The project functions that call a function, each with its call (Project.callers_of).
CallersOf = Callable[[str], list[tuple[str, CallEdge]]]


class LinkFixes:
    """The fixes of one link: materialised per module, allowed per path from the tools."""

    def __init__(self, summaries: list[ModuleSummary], callers_of: CallersOf) -> None:
        self.summaries = summaries
        self.callers_of = callers_of
        self._first_party_names: dict[tuple[str, int], frozenset[str]] = {}
        self._tested_classes: frozenset[str] | None = None  # ModuleSummary.tested_classes of all

    def allowed(self, spec: FixSpec | None, qual: str, entry: ToolPaths, reached: Mapping[str, ToolPaths]) -> bool:
        """May the fix of a finding in `qual` (reached as `entry`) be offered? Not when it changes
        what a caller or the client gets."""
        return (
            _same_handlers(spec, entry)
            and not self._replaced_class_tested(spec)
            and (entry.is_tool or self._callers_take_a_raise(spec, qual, reached))
        )

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

    def _callers_take_a_raise(self, spec: FixSpec | None, qual: str, reached: Mapping[str, ToolPaths]) -> bool:
        """May a helper's fix turn its return into a raise? Only when every caller is on a tool's
        path and returns the helper's value as it is (so the tool raises in its place), up to
        the tools: a caller that reads the value (`if "error" in r:`, a `gather` reporting
        each source's error) or a caller no tool reaches (a CLI) would break."""
        if spec is None or not spec.raises or spec.replaces:
            return True  # not a change of contract: nothing raised, or a raise stays a raise
        seen: set[str] = set()
        pending = [qual]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            for caller, edge in self.callers_of(current):
                entry = reached.get(caller)
                if entry is None or passes(edge) != WHOLE or edge.tested:
                    return False  # a caller no tool reaches, that takes part, or tests the value
                if not entry.is_tool:
                    pending.append(caller)
        return True

    def _first_party(self, summary: ModuleSummary) -> frozenset[str]:
        """The project's own top-level modules, which isort puts in the first-party section (see
        fixing/first_party.py): not only the fixed file's own package. Once per folder."""
        key = (str(Path(summary.path).parent), summary.module.count("."))
        if key not in self._first_party_names:
            self._first_party_names[key] = first_party(summary.path, summary.module)
        return self._first_party_names[key]


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
