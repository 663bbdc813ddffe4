"""A traced value's pending names decided at link time (model/taint.py): the taint trace of a
module leaves a value read from another module's name as a `Pending` record; here, over every
module's records of the rule that declared the trace (`TaintExport`, `TaintArgument`), the name
is followed to where the value is read: a constant or a function's returned value of another
module (VALUE), a call in another module that passes the value to the traced function's
parameter (ARGUMENT), or a name that only has to be what the pending taint says it is (PASSES,
or a kind of the rule's own: the value is read where the pending taint was found).

A value may be read on from module to module (a constant built from another module's constant,
an argument that is a field of a third module's settings): up to MAX_HOPS names. Nothing here
knows a rule: the records are the ones filed under the code the rule passes.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from typing import Container, Iterable, Iterator, Protocol

from mcp_lint.model.summary import FunctionSummary, ModuleSummary
from mcp_lint.model.taint import ARGUMENT, VALUE, Pending, TaintArgument, TaintExport

MAX_HOPS = 4  # a name re-read from module to module


class _Project(Protocol):
    def records(self, code: str) -> list[tuple[ModuleSummary, object]]: ...
    def function(self, qualname: str, depth: int = 0) -> tuple[ModuleSummary, FunctionSummary] | None: ...
    def resolve(self, qualname: str) -> str: ...


@dataclass(frozen=True)
class ReadElsewhere:
    """Where a pending value is read, once decided: what it is, the locals and parameters it went
    through (in the order it went: the hops' ones before the pending taint's own), its tags, and, when
    the last hop reads it in another module, that read (`origin` "" when the value is read where
    the pending taint was found)."""

    what: str
    via: tuple[str, ...]
    tags: frozenset[str]
    origin: str = ""
    origin_at: str = ""
    origin_file: str = ""
    function: str = ""


class PendingNames:
    """The records of one rule over a linked project, indexed for the pending names they answer."""

    def __init__(self, project: _Project, code: str) -> None:
        self.project = project
        self.exports: dict[Pending, tuple[str, TaintExport]] = {}
        self.arguments: list[tuple[str, TaintArgument]] = []
        for summary, record in project.records(code):
            if isinstance(record, TaintExport):
                self.exports.setdefault(record.key, (summary.path, record))
            elif isinstance(record, TaintArgument):
                self.arguments.append((summary.path, record))

    def decide(
        self, wait: Pending, what: str, via: tuple[str, ...], tags: frozenset[str], reached: Container[str] | None = None
    ) -> ReadElsewhere | None:
        """Where the value a pending taint waits on (`wait`, with its own `what`, `via` in the
        order the value went, and `tags`) is read; None when the name carries nothing of the
        rule's sources (or is not the project's). `reached`, when given, holds the functions the
        tools reach: a parameter of one of them holds, on the model's way, what the callers
        among them pass (a command-line script calling the same helper is another way in)."""
        return self._decided(wait, ReadElsewhere(what, via, tags), reached, MAX_HOPS)

    def _decided(self, pending: Pending, read: ReadElsewhere, reached: Container[str] | None, hops: int) -> ReadElsewhere | None:
        """`decide` from one pending name on, `hops` left: a parameter may have several callers
        that pass a value (a tool's way and a script's, or a settings object and an environment
        read); the first whose own chain carries a source decides."""
        if hops <= 0:
            return None
        steps: Iterable[tuple[str, TaintExport | TaintArgument]]
        if pending.kind == ARGUMENT:
            steps = self._passed_to(pending, reached)
        else:
            step = self.exports.get(replace(pending, qualname=self.project.resolve(pending.qualname)))
            if step is not None and pending.kind != VALUE:
                return read  # the name is what the taint needed: the value is read where it was found
            steps = (step,) if step is not None else ()
        for path, hop in steps:
            after = ReadElsewhere(read.what, (*reversed(hop.via), *read.via), hop.tags, hop.origin, hop.origin_at, path, hop.function)
            if hop.pending is None:
                return replace(after, what=hop.what)
            found = self._decided(hop.pending, replace(after, what=hop.what), reached, hops - 1)
            if found is not None:
                return found
        return None

    def _passed_to(self, needed: Pending, reached: Container[str] | None) -> Iterator[tuple[str, TaintArgument]]:
        """The calls in other modules that pass a tainted value to the parameter `needed` names
        (Pending("pkg.mod.fail", ARGUMENT, parameter="target")): for a function the tools reach,
        a call on their way (`reached`)."""
        param = needed.parameter
        target = self.project.function(needed.qualname)
        if target is None:
            return
        params = target[1].params
        on_tool_paths = reached is not None and target[1].qualname in reached
        for path, record in self.arguments:
            # A call made as its module is imported (caller "") is on every tool's way.
            if on_tool_paths and record.caller and record.caller not in reached:  # type: ignore[operator]
                continue
            called = self.project.function(record.callee)
            constructs = called is None and target[1].name == "__init__"
            if constructs:
                called = self.project.function(record.callee + ".__init__")  # `Client(url)` constructs the class
            if called is None or called[1].qualname != target[1].qualname:
                continue
            # `self` is not among the arguments of `obj.method(x)` nor of `Client(x)`; it is in
            # `Base.__init__(self, x)`.
            passes_self = not (record.via_attribute or constructs or target[1].name != "__init__")
            skip = 1 if params and params[0] in {"self", "cls"} and not passes_self else 0
            if record.keyword == param or (record.position >= 0 and record.position + skip < len(params) and params[record.position + skip] == param):
                yield path, record


# Per linked project and rule code (built once per link).
_KNOWN: "weakref.WeakKeyDictionary[object, dict[str, PendingNames]]" = weakref.WeakKeyDictionary()


def pending_names(project: _Project, code: str) -> PendingNames:
    """The pending-name index of the records filed under `code`, built once per linked project."""
    by_code = _KNOWN.setdefault(project, {})
    if code not in by_code:
        by_code[code] = PendingNames(project, code)
    return by_code[code]
