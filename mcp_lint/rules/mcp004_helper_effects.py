"""What a project helper does, for MCP004 findings at a call of that helper (`save(doc)` before the
tool's check): read at link time from the helpers' summaries (FunctionSummary.mutates,
mutates_when, mutation_site, which MCP004's `summarize` records, and validates, the engine's) over the linked
project. The link step itself knows nothing of mutations: MCP004's `render` asks here.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from mcp_lint.findings import Location
from mcp_lint.model.summary import FunctionSummary, ModuleSummary, ParamGuard
from mcp_lint.rules.base import LinkedProject, Site

HELPER_DEPTH = 3  # how far a helper's mutation is looked for in the helpers it calls


@dataclass(frozen=True)
class HelperGuard:
    """The parameter test a helper's own mutations run under, and whether a call's argument
    positions skip its first parameter (`self`/`cls`) when it is called as `obj.helper(...)`."""

    guard: ParamGuard
    method: bool


class HelperEffects:
    """What the project's functions do, by qualified name, as the linked project resolves them
    (one per linked project: the answers are memoised)."""

    def __init__(self, project: LinkedProject) -> None:
        self.project = project
        self._mutates: dict[tuple[str, int], FunctionSummary | None] = {}

    def mutates(self, qualname: str) -> str:
        """What the function or a helper it calls (a few levels down) mutates, "" if nothing."""
        found = self.project.function(qualname)
        mutator = self._mutator_at(found[1], 0) if found is not None else None
        return mutator.mutates if mutator is not None else ""

    def mutation_effect(self, qualname: str) -> str:
        """The kind (model/effects.Effect's value) of the change `mutates` names, "" if none."""
        found = self.project.function(qualname)
        mutator = self._mutator_at(found[1], 0) if found is not None else None
        return mutator.mutation_effect if mutator is not None else ""

    def prepares(self, qualname: str) -> str:
        """What the function prepares (`makedirs(parent, exist_ok=True)`) when idempotent set-up
        is all it changes itself, "" otherwise; `mutation_site` is where."""
        found = self.project.function(qualname)
        return found[1].prepares if found is not None and not found[1].mutates else ""

    def preparation_site(self, qualname: str) -> Site | None:
        """Where the set-up `prepares` names is, in the function itself."""
        found = self.project.function(qualname)
        if found is None or not self.prepares(qualname) or found[1].mutation_site is None:
            return None
        row, column, end_row, end_column, text, first, last = found[1].mutation_site
        return Site(found[0].path, found[1].name, Location(row, column), Location(end_row, end_column), text, (first, last))

    def validates(self, qualname: str) -> bool:
        """Does the function reject bad arguments (raise or return a failure on a check of them)?"""
        found = self.project.function(qualname)
        return found is not None and found[1].validates

    def changes_handed(self, qualname: str, handed: tuple[tuple[int, str, str], ...], via_attribute: bool) -> str:
        """What the function changes of the state a call hands it ((position at the call or -1,
        keyword, the state's name) per argument that is module or held state), "" if nothing:
        `put(NOTES, k, v)` with `store[k] = v` in `put` changes NOTES."""
        found = self.project.function(qualname)
        if found is None or not found[1].changes_params:
            return ""
        fn = found[1]
        shift = 1 if via_attribute and fn.params[:1] in (("self",), ("cls",)) else 0
        for position, keyword, name in handed:
            index = (fn.params.index(keyword) if keyword in fn.params else -1) if keyword else position + shift
            if index in fn.changes_params:
                return f"changes module-level state ({name}, in {fn.name})"
        return ""

    def guard(self, qualname: str) -> HelperGuard | None:
        """The parameter test the function's own mutations run under (`if commit:`), None when
        it mutates nothing itself or under no such test."""
        found = self.project.function(qualname)
        if found is None or not found[1].mutates or found[1].mutates_when is None:
            return None
        fn = found[1]
        return HelperGuard(fn.mutates_when, bool(fn.params) and fn.params[0] in {"self", "cls"})

    def mutation_site(self, qualname: str) -> Site | None:
        """Where the mutation `mutates` names is (in the function or the helper it calls)."""
        found = self.project.function(qualname)
        return self._site_at(found, 0) if found is not None else None

    def _site_at(self, found: tuple[ModuleSummary, FunctionSummary], depth: int) -> Site | None:
        """The site of the mutation `_mutator_at` finds first, walking the same way."""
        summary, fn = found
        if fn.mutates:
            if fn.mutation_site is None:
                return None
            row, column, end_row, end_column, text, first, last = fn.mutation_site
            return Site(summary.path, fn.name, Location(row, column), Location(end_row, end_column), text, (first, last))
        if depth >= HELPER_DEPTH:
            return None
        for edge in fn.calls:
            target = self.project.function(edge.callee)
            if target is not None and target[1] is not fn and self._mutator_at(target[1], depth + 1) is not None:
                return self._site_at(target, depth + 1)
        return None

    def _mutator_at(self, fn: FunctionSummary, depth: int) -> FunctionSummary | None:
        """The function whose own mutation `mutates` names: `fn` itself or the first helper it
        calls (a few levels down) that mutates; None if none does."""
        key = (fn.qualname, depth)  # by depth too: the answer must not depend on who asked first
        if key in self._mutates:
            return self._mutates[key]
        self._mutates[key] = None  # a cycle of calls mutates nothing more
        found = fn if fn.mutates else None
        if found is None and depth < HELPER_DEPTH:
            for edge in fn.calls:
                target = self.project.function(edge.callee)
                if target is not None and target[1] is not fn:
                    found = self._mutator_at(target[1], depth + 1)
                    if found is not None:
                        break
        self._mutates[key] = found
        return found


_BY_PROJECT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def helper_effects(project: LinkedProject | None) -> HelperEffects | None:
    """The helper effects of a linked project (None outside one: a single file has no helpers)."""
    if project is None:
        return None
    effects = _BY_PROJECT.get(project)
    if effects is None:
        effects = _BY_PROJECT[project] = HelperEffects(project)
    return effects
