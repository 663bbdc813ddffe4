"""One function body's walk over collections of objects (model/elements.py): the collections it
fills (FunctionFacts.collections, collection_params) and the locals holding an element of one,
so that a method called on such a local is named `<collection>.[].<method>`."""

from __future__ import annotations

from typing import Callable, Mapping

import libcst as cst

from mcp_lint.model.elements import (
    ELEMENT,
    element_annotation,
    element_classes,
    loop_collection,
    loop_target,
    made_by_element,
    taken_from,
)
from mcp_lint.model.names import AliasTable, dotted, last_name, unwrap_await


class ElementTracker:
    """What one function body's walk learns of collections of objects: the ones it fills
    (FunctionFacts.collections) and the locals holding an element of one, so that a method
    called on such a local (or on `C[k]`, `C.get(k)`) is named `<collection>.[].<method>`."""

    def __init__(
        self,
        facts,  # FunctionFacts: qualname, params, collections, local_collections, local_types
        resolve_callee: Callable[[cst.BaseExpression], str | None],
        resolve_type: Callable[[cst.BaseExpression], str | None],
        aliases: AliasTable,
        module_lists: Mapping[str, list[cst.BaseExpression]] | None,
        assigned: Mapping[str, int],
    ) -> None:
        self.facts = facts
        self.resolve_callee = resolve_callee
        self.resolve_type = resolve_type
        self.aliases = aliases
        self.module_lists = module_lists or {}
        self.assigned = assigned  # the walker's locals assigned so far
        self.element_locals: dict[str, str] = {}  # local -> the collection it holds an element of

    # -- naming -------------------------------------------------------------------------
    def collection_name(self, expr: cst.BaseExpression) -> str | None:
        """The qualified name of a collection as written (`self.tools`, `TOOLS`, a local filled
        here or in an enclosing function, `registry.tools` of a typed local); None for a
        parameter or a local that holds something not known here."""
        name = dotted(expr)
        if name is None:
            return None
        root, _, rest = name.partition(".")
        if not rest and root in self.facts.local_collections:
            return self.facts.local_collections[root]
        if rest and root in self.facts.local_types:
            # `registry.tools` of a project object; a library object's attribute (`ctx.state`,
            # `ctx.lifespan_context["db"]`) holds nothing the project made here.
            typed = self.facts.local_types[root]
            return f"{typed}.{rest}" if typed.split(".")[0] == self.facts.qualname.split(".")[0] else None
        if root in {"self", "cls"}:
            return self.resolve_callee(expr) if rest else None
        if root in self.facts.params or root in self.assigned or root in self.element_locals:
            return None
        return self.resolve_callee(expr)

    def callee(self, node: cst.Call, name: str | None) -> str | None:
        """`tool.run` with `tool` an element of C, `C[k].run`, `C.get(k).run` -> `C.[].run`."""
        if name is not None:
            root, dot, rest = name.partition(".")
            holder = self.element_locals.get(root) if dot else None
            return f"{holder}.{ELEMENT}.{rest}" if holder else None
        func = node.func
        if type(func) is not cst.Attribute:
            return None
        holder = taken_from(func.value, self.collection_name)
        return f"{holder}.{ELEMENT}.{func.attr.value}" if holder else None

    # -- what the walk meets --------------------------------------------------------------
    def assigned_to(self, target: cst.BaseExpression, value: cst.BaseExpression, annotation: cst.BaseExpression | None = None) -> None:
        """`x = <value>` (or `x: <annotation> = <value>`): a collection filled, an element taken."""
        if type(target) is cst.Name:
            self.element_locals.pop(target.value, None)
            if annotation is not None and self.resolve_type(annotation):
                return  # `client: Api = registry["api"]`: the annotation says what it is
            holder = taken_from(value, self.collection_name) if value is not None else None
            called = unwrap_await(value) if value is not None else None
            if holder is None and type(called) is cst.Call and type(called.func) is cst.Name:
                holder = self.element_locals.get(called.func.value)  # `cls = CLASSES[name]; tool = cls(cfg)`
            if holder:
                self.element_locals[target.value] = holder
                return
            aliased = self.collection_name(value) if value is not None and type(value) in (cst.Name, cst.Attribute) else None
            if aliased and aliased != f"{self.facts.qualname}.{target.value}":
                self.facts.local_collections[target.value] = aliased  # `tools = self.tools`
                return
        if type(target) is cst.Subscript:  # `self.tools[name] = Search()`
            holder = self.collection_name(target.value)
            if holder and value is not None:
                self._fill(holder, made_by_element(value, self._made_by, self._known, self._names))
                self._fill_from_parameter(holder, value)
            return
        key = self._key(target)
        if key is None:
            return
        found = element_classes(value, self._made_by, self._known, self._names) if value is not None else ()
        typed = element_annotation(annotation, self.resolve_type, self.aliases) if annotation is not None else None
        if typed:
            found = (*found, typed)
        if found:
            if type(target) is cst.Name:
                self.facts.local_collections[target.value] = key
            self._fill(key, found)

    def parameter(self, name: str, annotation: cst.BaseExpression) -> None:
        """`def dispatch(tools: dict[str, Tool], ...)`: a collection of Tool objects."""
        typed = element_annotation(annotation, self.resolve_type, self.aliases)
        if typed:
            key = f"{self.facts.qualname}.{name}"
            self.facts.local_collections[name] = key
            self._fill(key, (typed,))

    def looped(self, target: cst.BaseExpression, iterated: cst.BaseExpression) -> None:
        """`for tool in C:` (`C.values()`, `_, tool in C.items()`): tool is an element of C."""
        for name in (t.value for t in _names_in(target)):
            self.element_locals.pop(name, None)
        name = loop_target(target, unwrap_await(iterated))
        holder = self.collection_name(loop_collection(iterated)) if name else None
        if name and holder:
            self.element_locals[name] = holder

    def added(self, call: cst.Call) -> None:
        """`C.append(Search())`, `C.extend([...])`, `C.update({...})`, `C.add(x)`."""
        func = call.func
        if type(func) is not cst.Attribute or not call.args:
            return
        holder = self.collection_name(func.value)
        if not holder:
            return
        value = call.args[-1].value
        if func.attr.value in {"append", "add", "insert"}:
            self._fill(holder, made_by_element(value, self._made_by, self._known, self._names))
            self._fill_from_parameter(holder, value)
        elif func.attr.value in {"extend", "update"}:
            self._fill(holder, element_classes(value, self._made_by, self._known, self._names))

    # -- helpers --------------------------------------------------------------------------
    def _key(self, target: cst.BaseExpression) -> str | None:
        name = dotted(target)
        if name is None:
            return None
        if "." not in name:
            return self.facts.local_collections.get(name) or f"{self.facts.qualname}.{name}"
        root, _, rest = name.partition(".")
        return self.resolve_callee(target) if root in {"self", "cls"} and "." not in rest else None

    def _fill_from_parameter(self, key: str, value: cst.BaseExpression) -> None:
        """`def add(self, tool): self.tools[tool.name] = tool`: the collection holds what the
        callers pass (ModuleSummary.element_params, read with ModuleSummary.object_arguments)."""
        if type(value) is cst.Name and value.value in self.facts.params and value.value not in {"self", "cls"} and value.value not in self.facts.local_types:
            entry = (self.facts.qualname, value.value)
            if entry not in self.facts.collection_params.get(key, ()):
                self.facts.collection_params.setdefault(key, []).append(entry)

    def _fill(self, key: str, found: tuple[str, ...]) -> None:
        # Objects made by classes (`Search(cfg)`), as the names say: a list of computed values
        # (`[str(x), fetch(y)]`) holds no object whose methods a dispatcher calls.
        found = tuple(f for f in found if last_name(f)[:1].isupper())
        if found:
            self.facts.collections[key] = tuple(dict.fromkeys((*self.facts.collections.get(key, ()), *found)))

    def _made_by(self, func: cst.BaseExpression) -> str | None:
        name = dotted(func)
        if name is None:
            return None
        root, _, rest = name.partition(".")
        if rest and root in self.facts.local_types:
            return f"{self.facts.local_types[root]}.{rest}"
        return self.resolve_callee(func)

    def _names(self, expr: cst.BaseExpression) -> str | None:
        return self.resolve_callee(expr) if dotted(expr) else None

    def _known(self, name: str) -> tuple[str, ...] | None:
        """The objects of a collection known by name here: a local or attribute filled in this
        function, an object made before (`search = Search()`), a module-level list."""
        root, _, rest = name.partition(".")
        if not rest and root in self.facts.local_types:
            return (self.facts.local_types[root],)
        if not rest:
            key = self.facts.local_collections.get(name)
        elif root in {"self", "cls"} and "." not in rest:
            key = self.resolve_callee(cst.Attribute(value=cst.Name(root), attr=cst.Name(rest)))
        else:
            key = None
        if key and key in self.facts.collections:
            return self.facts.collections[key]
        listed = self.module_lists.get(name) if not rest else None
        if listed:
            found: list[str] = []
            for element in listed:
                made = made_by_element(element, self._made_by, lambda _name: None) or ((self._names(element),) if self._names(element) else ())
                found.extend(made)
            return tuple(found) or None
        return None


def _names_in(target: cst.BaseExpression) -> list[cst.Name]:
    if type(target) is cst.Name:
        return [target]
    if type(target) in (cst.Tuple, cst.List):
        return [n for el in target.elements for n in _names_in(el.value)]
    return []
