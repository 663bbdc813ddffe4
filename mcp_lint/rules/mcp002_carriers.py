"""MCP002 at link time: which project exception classes carry library text.

A class every raise of which (its own or a subclass's, in the modules the tools reach and those
defining the classes they raise and catch) is built from a caught library exception's text is a
*carrier*: catching it is catching library text (mcp002_carried_text.CarriedText). Counted from
the function summaries (FunctionSummary.exception_raises) and, for a raise handed an exception
whole (`raise ApiError(exc)`), from what the class's `__init__` puts into the message
(FunctionSummary.message_params). A prefiltered run analyses exactly these modules too
(ProjectNames.exception_classes), so the verdicts are those of a whole analysis.
"""

from __future__ import annotations

from typing import Mapping

from mcp_lint.linking.names import BUILTIN_EXCEPTIONS
from mcp_lint.model.message_params import message_takes
from mcp_lint.model.summary import FunctionSummary
from mcp_lint.rules.base import LinkedProject, Reach


class Carriers:
    """The carrier verdict of each project exception class (counted once, when the link starts)."""

    def __init__(self, project: LinkedProject, reached: Mapping[str, Reach]) -> None:
        self.project = project
        # Class -> (raises carrying library text, raises of the author's own), over it and its subclasses.
        self._totals: dict[str, tuple[int, int]] = {}
        self._examples: dict[str, str] = {}  # class -> "path:row" of a raise carrying library text
        names = {project.functions[qual][0].module for qual in reached}
        names.update(cls.rpartition(".")[0] for classes in project.looked_up_classes() for cls in classes)
        for summary in (project.modules[name] for name in sorted(names) if name in project.modules):
            for fn in summary.functions.values():
                for raised, carried, row, handed in fn.exception_raises:
                    if handed and not carried:
                        # `raise ApiError(exc)`: its message holds the text unless the class's
                        # `__init__` keeps it out (FunctionSummary.message_params).
                        carried = self.given_to_message(raised, handed) is not False
                    for ancestor in project.class_ancestors(raised):
                        library, own = self._totals.get(ancestor, (0, 0))
                        self._totals[ancestor] = (library + carried, own + (not carried))
                        if carried:
                            self._examples.setdefault(ancestor, f"{summary.path}:{row}")

    def given_to_message(self, cls: str, positions: tuple[int, ...]) -> bool | None:
        """Does the `__init__` of project class `cls` put the text of the constructor arguments
        at `positions` into the exception's message (model.message_params.message_takes)?"""
        return message_takes(self.project.class_ancestors(cls) or (cls,), self._init_of, positions)

    def keywords_to_message(self, cls: str, keywords: tuple[str, ...]) -> bool | None:
        """Does the nearest `__init__` the project defines for class `cls` put the text of the
        constructor's keyword arguments `keywords` into the exception's message? False only
        where each of them is a parameter it is known to keep out (an attribute)."""
        for qual in self.project.class_ancestors(cls) or (cls,):
            init = self._init_of(qual)
            if init is None:
                continue
            if init.message_params is None or init.message_keywords is None:
                return None
            shift = 1 if init.params and init.params[0] == "self" else 0
            named, carried = init.message_keywords
            for keyword in keywords:
                if keyword in carried:
                    return True
                if keyword in init.params[shift:]:
                    if init.params.index(keyword) in init.message_params:
                        return True
                elif keyword not in named:
                    return None  # taken by `**kwargs`: not known
            return False
        return None

    def takes_builtin_init(self, cls: str) -> bool:
        """Does the project class `cls` take a builtin exception's `__init__` (`class
        ApiError(Exception): pass`): no project class on the way defines one and its bases from
        outside the project are builtin exceptions, so the constructor's arguments are the
        message (a library base's `__init__` may word it otherwise: not known)."""
        ancestors = self.project.class_ancestors(cls) or (cls,)
        outside = [qual for qual in ancestors if not self.project.is_project_class(qual)]
        if not outside or any(self._init_of(qual) is not None for qual in ancestors if qual not in outside):
            return False
        return all(qual.rpartition(".")[2] in BUILTIN_EXCEPTIONS and not self.project.is_reexported_from_outside(qual) for qual in outside)

    def _init_of(self, cls: str) -> FunctionSummary | None:
        """The `__init__` the project class `cls` defines itself, None when it defines none."""
        found = self.project.function(cls + ".__init__")
        return found[1] if found is not None else None

    def is_carrier(self, qual: str) -> bool:
        """Does every raise of the project class `qual` (or a subclass) in the counted modules
        carry a caught library exception's text?"""
        library, own = self._totals.get(self.project.resolve(qual), (0, 0))
        return library > 0 and own == 0

    def example(self, qual: str) -> str:
        """Where a raise of the class carries library text ("path:row"), "" when none is known."""
        return self._examples.get(self.project.resolve(qual), "")
