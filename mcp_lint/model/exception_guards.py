"""`except` clauses and the `try` statements around a call or raise.

`Handler` records one clause (what it catches, its name, what the rest of the analysis learns
about its exception); `TryGuard` condenses one `try` into what the linker needs to tell whether an
exception raised below is caught there (`catches`, `catching_site`). Both the per-function walk
and the link step (following a helper's raise up to a tool) read them, so they live apart from
either.
"""

from __future__ import annotations

from collections.abc import Mapping as MappingBase
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Mapping

import libcst as cst

from mcp_lint.model.names import AliasTable, dotted, last_name

if TYPE_CHECKING:
    from mcp_lint.model.escape_exits import Exit


@dataclass
class Handler:
    """An `except` clause and what can reach it."""

    node: cst.ExceptHandler
    try_node: cst.Try | cst.TryStar
    caught: tuple[str, ...]  # qualified (or builtin) names of the caught classes; () = bare
    name: str | None  # `as e`
    foreign: bool = False  # the caught exception may carry text from code the author does not control
    parses_parameters: bool = False  # foreign only because it parses the function's parameters
    # foreign only through the author's raises that took a caught library text in (`raise
    # ValueError(f"lookup failed: {e}")` in a callee): those raises are the flow's findings.
    carried_only: bool = False
    tainted: set[str] = field(default_factory=set)  # local names holding the exception's text
    # Local names holding a part of the exception that is no text itself (`response = e.response`):
    # its text attributes are the exception's (`response.text`), the part whole is not.
    parts: set[str] = field(default_factory=set)
    # "<function qualname>#<n>": names this clause project-wide, so the linker can tell which
    # handler on a call path catches a helper's exception (TryGuard entries carry it too).
    site: str = ""
    # The clause whose body this `try` sits in (`except HTTPError as e: try: ... except
    # Exception: raise ApiError(e.response.text)`): its exception is still in reach here.
    parent: Handler | None = None
    # Imported classes (`from errors import ApiError` beside server.py) that alone make the clause
    # foreign: the linker knows whether the project defines them (then they are its own).
    imported_classes: tuple[str, ...] = ()
    # An earlier clause of the same `try` catches everything this one does: it never runs, and
    # the walk of the function did not enter its body.
    shadowed: bool = False
    # Catching only narrow builtin classes around calls of project code in other modules: what
    # its `try` body lets escape (model.escapes.Exit), for the link step to decide the origin.
    escape_exits: tuple[Exit, ...] = ()

    def within(self, outer: Handler) -> bool:
        """Is this clause `outer`, or nested in its body without rebinding its name?"""
        current: Handler | None = self
        while current is not None:
            if current is outer:
                return True
            if current.name is not None and current.name == outer.name:
                return False  # `except B as e:` inside `except A as e:` hides the outer `e`
            current = current.parent
        return False


def caught_names(
    node: cst.ExceptHandler, aliases: AliasTable, constants: Mapping[str, list[cst.BaseExpression]] | None = None
) -> tuple[str, ...]:
    """Qualified (or builtin) names of the classes a clause catches; () for a bare `except`."""
    if node.type is None:
        return ()
    exprs: list[cst.BaseExpression]
    if type(node.type) is cst.Tuple:
        exprs = [el.value for el in node.type.elements]
    else:
        exprs = [node.type]
    if constants:
        # `except EXPECTED_ERRORS as e` with `EXPECTED_ERRORS = (OSError, git.GitError)` at module level.
        exprs = [
            item
            for expr in exprs
            for item in (constants.get(expr.value, [expr]) if type(expr) is cst.Name and expr.value not in aliases.aliases else [expr])
        ]
    names = []
    for expr in exprs:
        resolved = aliases.resolve(expr)
        names.append(resolved or dotted(expr) or "?")
    return tuple(names)


class WrittenClassBases(MappingBase):
    """The module's classes by the names `except` clauses write them (`StoreTimeout`), each with
    its bases written the same way (`StoreError`, a builtin's plain name): what the engine's
    shadowed-clause test (engine.libcst_cfg.shadowed_clauses) reads. A view of the module model's
    class table, which grows as the walk meets class statements."""

    def __init__(self, classes: Mapping[str, tuple[str, ...]], module: str, aliases: AliasTable) -> None:
        self.classes = classes
        self.prefix = f"{module}." if module else ""
        self.aliases = aliases

    def _qualified(self, written: str) -> str:
        return self.aliases.resolve_dotted(written) or f"{self.prefix}{written}"

    def _written(self, qualified: str) -> str:
        if self.prefix and qualified.startswith(self.prefix):
            return qualified[len(self.prefix) :]
        return qualified[len("builtins.") :] if qualified.startswith("builtins.") else qualified

    def __getitem__(self, written: str) -> tuple[str, ...]:
        bases = self.classes.get(self._qualified(written))
        if bases is None:
            bases = self.classes.get(written)  # a base recorded by its qualified name
        if bases is None:
            raise KeyError(written)
        return tuple(self._written(base) for base in bases)

    def __iter__(self) -> Iterator[str]:
        return (self._written(name) for name in self.classes)

    def __len__(self) -> int:
        return len(self.classes)


# One `try` statement's handlers in order: (short names caught, "*" = any; re-raises with `raise`;
# Handler.site of the clause).
TryGuard = tuple[tuple[frozenset[str], bool, str], ...]


def catches(guard: TryGuard, raised: str | frozenset[str]) -> bool:
    """Does this `try` keep an exception of class `raised` (short name) from propagating?

    The first handler that matches decides, as in Python; a handler that re-raises with a bare
    `raise` lets it through. `raised` may be the short names of the class and its known bases
    (the linker knows the project's class tree); without them a handler matches by name or by
    catching everything.
    """
    site = catching_site(guard, raised)
    return site is not None and not site[1]


def catching_clause(guard: TryGuard, raised: str | frozenset[str]) -> tuple[frozenset[str], bool, str] | None:
    """The first clause of this `try` that catches `raised` (a class name, or a class with its
    bases' names): (what it catches, "*" for everything; re-raises; Handler.site)."""
    names = frozenset({raised}) if isinstance(raised, str) else raised
    return next((clause for clause in guard if clause[0] & names or "*" in clause[0]), None)


def catching_site(guard: TryGuard, raised: str | frozenset[str]) -> tuple[str, bool] | None:
    """(Handler.site, re-raises) of the first clause of this `try` that catches `raised`."""
    clause = catching_clause(guard, raised)
    return (clause[2], clause[1]) if clause is not None else None


def try_guard(node: cst.Try | cst.TryStar, records: list[Handler]) -> TryGuard:
    """The guard of `node`, from the records of its clauses (in order)."""
    handlers = []
    for handler, record in zip(node.handlers, records):
        reraises = any(type(n) is cst.Raise and _same_exception(n, record.name) for n in _statements_of(handler.body))
        names = {last_name(c) for c in record.caught}
        if not record.caught or names & {"Exception", "BaseException"}:
            names.add("*")
        handlers.append((frozenset(names), reraises, record.site))
    return tuple(handlers)


def _same_exception(node: cst.Raise, name: str | None) -> bool:
    """`raise` or `raise e` of the clause's own `e`: the exception goes on unchanged."""
    return node.exc is None or (name is not None and node.cause is None and type(node.exc) is cst.Name and node.exc.value == name)


def _statements_of(block: cst.BaseSuite):  # type: ignore[no-untyped-def]
    """Small statements of a block, nested blocks included (a cheap scan, no expressions)."""
    stack = list(getattr(block, "body", ()))
    while stack:
        stmt = stack.pop()
        if type(stmt) is cst.SimpleStatementLine:
            yield from stmt.body
        else:
            for attribute in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, attribute, None)
                if inner is not None and hasattr(inner, "body"):
                    stack.extend(inner.body if isinstance(inner.body, (list, tuple)) else [inner])
            stack.extend(getattr(stmt, "handlers", ()) or ())
