"""Where the module walk is: the enclosing classes and functions, and what names mean there.

Every other part of the module walk asks the scope questions: the qualified name of a
definition (`pkg.mod.Class.method`, `name@2` for a redefinition), what `self.x` / `x` stand for
as model keys, which names a function declared `global`, and how a function body names what it
calls. `ScopeWalker` is the base of the module walker's layers (servers, function_refs,
registration, module_walk); it keeps the frame stack they share.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.receivers import Receiver
from mcp_lint.model.table_rows import Bound, Table
from mcp_lint.model.walk import FastVisitor, descendants


@dataclass
class Frame:
    """An enclosing class or function body."""

    kind: str  # "class" or "function"
    qual: str
    bindings: dict[str, Receiver] = field(default_factory=dict)  # function parameters and locals
    globals: set[str] = field(default_factory=set)
    # Local names standing for functions: `find_foo = find` then `mcp.tool(find_foo)`.
    function_aliases: dict[str, list[str]] = field(default_factory=dict)
    # Locals holding a table of functions, a row of one, or a position of its rows
    # (`tools = build_tools()`, `_, builder = CATEGORIES[name]`), and tables built here
    # (`tools = {}` then `tools.update(more())`): model/table_rows.py.
    bound: dict[str, Bound] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)


class ScopeWalker(FastVisitor):
    """The frame stack of the module walk and the names it gives."""

    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.aliases = model.aliases
        self.frames: list[Frame] = []
        # Imports (by id) in module-level `except ImportError:` clauses: fallbacks that leave the
        # names their `try` bound as they are (AliasTable.add_import_from). Found before the walk
        # (build_model), not by visiting clauses: the walk replays function bodies from recorded
        # events, and a clause hook would change what is recorded.
        self.fallback_imports: set[int] = set()

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
        self.aliases.add_import(node, fallback=id(node) in self.fallback_imports)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.aliases.add_import_from(node, fallback=id(node) in self.fallback_imports)

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



# Ways a class takes attributes no statement names: it may have any of them.
_OPEN_METHODS = frozenset({"__getattr__", "__getattribute__", "__setattr__"})
_RECEIVERS = frozenset({"self", "cls"})


def class_attributes(node: cst.ClassDef) -> frozenset[str] | None:
    """The attributes a class defines: names bound in its body (fields, methods, properties) and
    every `self.x` its methods name (read or written: more is only more cautious); None when it
    may take others (`__getattr__`, `setattr(...)`, `self.__dict__`), so nothing is concluded."""
    names: set[str] = set()
    for statement in node.body.body:
        if type(statement) in (cst.FunctionDef, cst.ClassDef):
            names.add(statement.name.value)
        elif type(statement) is cst.SimpleStatementLine:
            for small in statement.body:
                targets = [t.target for t in small.targets] if type(small) is cst.Assign else [getattr(small, "target", None)]
                names.update(t.value for t in targets if type(t) is cst.Name)
    if names & _OPEN_METHODS:
        return None
    # One walk with exact-type checks (libcst.matchers would cost a one-file run its import,
    # a tenth of a second, for this alone).
    for child in descendants(node):
        kind = type(child)
        if kind is cst.Call and type(child.func) is cst.Name and child.func.value == "setattr":
            return None
        if kind is cst.Attribute and type(child.value) is cst.Name and child.value.value in _RECEIVERS:
            if child.value.value == "self" and child.attr.value == "__dict__":
                return None
            names.add(child.attr.value)
    return frozenset(names)
