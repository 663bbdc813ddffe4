"""Collections of objects and the objects taken out of them: what a method called on an element
of a list or dict of instances may run.

A server that keeps its tools as objects (`self.tools = [Search(cfg), Fetch(cfg)]`, `TOOLS =
{"search": Search()}`, `{t.name: t for t in (Search(), Fetch())}`, `[cls(cfg) for cls in
TOOL_CLASSES]`) and dispatches by taking one out (`tool = self.tools[name]`, `.get(name)`,
`next((t for t in self.tools if t.name == name), None)`, `for t in self.tools:`) calls a method
of one of those classes: the call may run that method of each class the collection holds.

The module side names such a call `<collection>.[].<method>` (ELEMENT is the element of the
collection, the collection named as any other attribute or module name is) and records which
classes each collection holds (ModuleSummary.elements); the linker reads one with the other
(ProjectNames.candidates). Nothing here names a tool or a method: any collection of made
objects, any method called on what is taken out of it.
"""

from __future__ import annotations

from typing import Callable, Mapping

import libcst as cst

from mcp_lint.model.annotation_types import annotation_type
from mcp_lint.model.names import AliasTable, dotted, last_name, unwrap_await

# The segment of a callee standing for "an element of the collection named before it".
ELEMENT = "[]"



def is_element_call(callee: str) -> bool:
    """Does a callee name a method of an element of a collection (`pkg.app.Server.tools.[].run`)?"""
    return f".{ELEMENT}." in callee


# Annotations of collections whose elements (for a mapping: whose values) are of one class.
_SEQUENCES = frozenset({"list", "List", "set", "Set", "frozenset", "FrozenSet", "Sequence", "MutableSequence", "Iterable", "Collection", "tuple", "Tuple", "deque"})
_MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict"})
# Calls that copy a collection's elements into another one (`list(x)`, `tuple(x)`, `dict(x)`).
_COPIES = frozenset({"list", "tuple", "set", "frozenset", "dict", "sorted"})
# Methods of a collection that hand back one of its elements (`tools.get(name)`, `.pop(name)`).
_TAKE_ONE = frozenset({"get", "pop", "setdefault"})
# Views whose items are the collection's elements (`for t in tools.values()`).
_VIEWS = frozenset({"values", "copy"})


def element_annotation(annotation: cst.BaseExpression, resolve_type: Callable[[cst.BaseExpression], str | None], aliases: AliasTable) -> str | None:
    """The class of the elements of an annotated collection: `list[Tool]`, `dict[str, Tool]`,
    `Sequence[Tool]` -> the qualified `Tool`; None for anything else."""
    if type(annotation) is not cst.Subscript:
        return None
    wrapper = last_name(aliases.resolve(annotation.value) or dotted(annotation.value))
    items = [el.slice.value for el in annotation.slice if type(el.slice) is cst.Index]
    if not items:
        return None
    if wrapper in _SEQUENCES:
        return resolve_type(items[0])
    if wrapper in _MAPPINGS and len(items) == 2:
        return resolve_type(items[1])
    return None


def element_classes(
    value: cst.BaseExpression,
    made_by: Callable[[cst.BaseExpression], str | None],
    collection: Callable[[str], tuple[str, ...] | None],
    names: Callable[[cst.BaseExpression], str | None],
    depth: int = 0,
) -> tuple[str, ...]:
    """What the objects of a collection written as `value` were made by (qualified callables,
    classes mostly), in the order written: the calls in a list, tuple, set or dict literal (its
    values), a comprehension's element call (`cls(cfg) for cls in (A, B)`: each class iterated),
    a copy (`list(x)`); `collection` answers for a name of a collection known already (its
    classes, or None), `made_by` names a call's callable, `names` a plain name or attribute
    (for the classes a comprehension iterates)."""
    if depth > 3:
        return ()
    value = unwrap_await(value)
    kind = type(value)
    found: list[str] = []
    if kind in (cst.List, cst.Tuple, cst.Set):
        for element in value.elements:
            if type(element) is cst.StarredElement:  # `[*BASE_TOOLS, Extra()]`
                found.extend(element_classes(element.value, made_by, collection, names, depth + 1))
            else:
                found.extend(made_by_element(element.value, made_by, collection, names))
    elif kind is cst.Dict:
        for element in value.elements:
            if type(element) is cst.DictElement:
                found.extend(made_by_element(element.value, made_by, collection, names))
            else:  # `{**BASE, "x": X()}`
                found.extend(element_classes(element.value, made_by, collection, names, depth + 1))
    elif kind in (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp):
        found.extend(_comprehension_classes(value, made_by, collection, names, depth))
    elif kind is cst.Name:
        found.extend(collection(value.value) or ())
    elif kind is cst.Attribute:
        named = dotted(value)
        found.extend(collection(named) or () if named else ())
    elif kind is cst.Call and last_name(dotted(value.func) or "") in _COPIES and value.args:
        found.extend(element_classes(value.args[0].value, made_by, collection, names, depth + 1))
    return tuple(dict.fromkeys(found))


def made_by_element(
    value: cst.BaseExpression,
    made_by: Callable[[cst.BaseExpression], str | None],
    collection: Callable[[str], tuple[str, ...] | None],
    names: Callable[[cst.BaseExpression], str | None] | None = None,
) -> tuple[str, ...]:
    """What made one element: `Search(cfg)` -> its callable; a name of an object made before
    (`search = Search(); TOOLS = [search]`) as `collection` knows it; a class itself (`{"search":
    Search}`: what is taken out is called to make the object, or has its methods called)."""
    value = unwrap_await(value)
    if type(value) is cst.Call:
        callee = made_by(value.func)
        return (callee,) if callee else ()
    named = dotted(value)
    if not named:
        return ()
    known = collection(named)
    if known:
        return known
    qualified = names(value) if names is not None and last_name(named)[:1].isupper() else None
    return (qualified,) if qualified else ()


def _comprehension_classes(
    value: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp,
    made_by: Callable[[cst.BaseExpression], str | None],
    collection: Callable[[str], tuple[str, ...] | None],
    names: Callable[[cst.BaseExpression], str | None],
    depth: int,
) -> tuple[str, ...]:
    element = value.value if type(value) is cst.DictComp else value.elt
    element = unwrap_await(element)
    loop = value.for_in
    target = loop.target.value if type(loop.target) is cst.Name else None
    if type(loop.target) is cst.Tuple and len(loop.target.elements) == 2 and type(loop.target.elements[1].value) is cst.Name:
        target = loop.target.elements[1].value.value  # `{k: v for k, v in TOOLS.items()}`
    iterated = _view_of(loop.iter)
    if type(element) is cst.Name and element.value == target:
        # `{t.name: t for t in (Search(), Fetch())}`: the iterated collection's own objects.
        return element_classes(iterated, made_by, collection, names, depth + 1)
    if type(element) is cst.Call and type(element.func) is cst.Name and element.func.value == target:
        # `[cls(cfg) for cls in (Search, Fetch)]`, `for cls in TOOL_CLASSES`: each class iterated.
        return _iterated_names(iterated, collection, names)
    if type(element) is cst.Call:
        callee = made_by(element.func)
        return (callee,) if callee else ()
    return ()


def _iterated_names(iterated: cst.BaseExpression, collection: Callable[[str], tuple[str, ...] | None], names: Callable[[cst.BaseExpression], str | None]) -> tuple[str, ...]:
    """The classes a loop over a written list of names goes through (`(Search, Fetch)`), or over
    a collection of names known by its name (`TOOL_CLASSES`: `collection` answers)."""
    if type(iterated) in (cst.List, cst.Tuple, cst.Set):
        found = [names(el.value) for el in iterated.elements if type(el) is cst.Element]
        return tuple(f for f in found if f)
    named = dotted(iterated)
    return collection(named) or () if named else ()


def _view_of(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`tools.values()`, `tools.items()`, `list(tools)` -> `tools`: what a loop really goes through."""
    expr = unwrap_await(expr)
    if type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value in (*_VIEWS, "items") and not expr.args:
        return expr.func.value
    if type(expr) is cst.Call and last_name(dotted(expr.func) or "") in _COPIES and len(expr.args) == 1:
        return _view_of(expr.args[0].value)
    return expr


def taken_from(expr: cst.BaseExpression, collection_name: Callable[[cst.BaseExpression], str | None]) -> str | None:
    """The collection an expression takes one element of, named by `collection_name`: `C[k]`,
    `C.get(k)`, `C.pop(k)`, `next((t for t in C if ...), None)`, `[t for t in C if ...][0]`."""
    expr = unwrap_await(expr)
    kind = type(expr)
    if kind is cst.Subscript:
        if len(expr.slice) != 1 or type(expr.slice[0].slice) is not cst.Index:
            return None
        inner = expr.value
        if type(inner) is cst.ListComp:
            return _generated_from(inner, collection_name)
        return collection_name(_view_of(inner))
    if kind is not cst.Call:
        return None
    func = expr.func
    if type(func) is cst.Subscript or (type(func) is cst.Call and type(func.func) is cst.Attribute and func.func.attr.value in _TAKE_ONE):
        return taken_from(func, collection_name)  # `TOOL_CLASSES[name](cfg)`: an object of the class taken out
    if type(func) is cst.Attribute and func.attr.value in _TAKE_ONE and expr.args:
        return collection_name(func.value)
    if type(func) is cst.Name and func.value == "next" and expr.args and type(expr.args[0].value) is cst.GeneratorExp:
        return _generated_from(expr.args[0].value, collection_name)
    return None


def _generated_from(comp: cst.GeneratorExp | cst.ListComp, collection_name: Callable[[cst.BaseExpression], str | None]) -> str | None:
    """`(t for t in C if t.name == name)`: C, when the comprehension yields its elements as they are."""
    loop = comp.for_in
    if loop.inner_for_in is not None or type(comp.elt) is not cst.Name:
        return None
    target = loop_target(loop.target, loop.iter)
    if target != comp.elt.value:
        return None
    return collection_name(_view_of(loop.iter))


def loop_target(target: cst.BaseExpression, iterated: cst.BaseExpression) -> str | None:
    """The name a loop binds to each element of what it iterates: `for t in C`, `for t in
    C.values()`, `for _, t in C.items()`; None for any other target."""
    if type(target) is cst.Name:
        items = type(iterated) is cst.Call and type(iterated.func) is cst.Attribute and iterated.func.attr.value == "items"
        return None if items else target.value
    if type(target) is cst.Tuple and len(target.elements) == 2 and type(target.elements[1].value) is cst.Name:
        if type(iterated) is cst.Call and type(iterated.func) is cst.Attribute and iterated.func.attr.value == "items":
            return target.elements[1].value.value
    return None


def loop_collection(iterated: cst.BaseExpression) -> cst.BaseExpression:
    """What a loop over `iterated` takes its elements from (`C.items()` -> C)."""
    return _view_of(iterated)



def module_collections(module: cst.Module, aliases: AliasTable, module_lists: Mapping[str, list[cst.BaseExpression]]) -> dict[str, tuple[str, ...]]:
    """Collections of objects made at module level or in a class body (`TOOLS = [Search()]`,
    `class Server: tools = {"a": A()}`), by qualified name: what made their objects."""
    prefix = f"{aliases.module}." if aliases.module else ""
    out: dict[str, tuple[str, ...]] = {}
    made: dict[str, str] = {}  # `search = Search()` at module level: a name for one object

    def known(name: str) -> tuple[str, ...] | None:
        if name in made:
            return (made[name],)
        if f"{prefix}{name}" in out:
            return out[f"{prefix}{name}"]
        listed = module_lists.get(name)
        found = [aliases.resolve_or_local(el.func if type(el) is cst.Call else el) for el in listed or ()]
        return tuple(f for f in found if f) or None

    def statements(body: cst.BaseSuite, owner: str) -> None:
        for statement in body.body if type(body) is cst.IndentedBlock else ():
            if type(statement) is cst.SimpleStatementLine:
                for small in statement.body:
                    assign(small, owner)

    def assign(small: cst.BaseSmallStatement, owner: str) -> None:
        if type(small) is cst.Assign and len(small.targets) == 1:
            target, value, annotation = small.targets[0].target, small.value, None
        elif type(small) is cst.AnnAssign:
            target, value, annotation = small.target, small.value, small.annotation.annotation
        else:
            return
        if type(target) is not cst.Name:
            return
        key = f"{prefix}{owner}{target.value}"
        if value is not None and type(unwrap_await(value)) is cst.Call and not owner:
            callee = aliases.resolve_or_local(unwrap_await(value).func)
            if callee:
                made[target.value] = callee
        found = element_classes(value, aliases.resolve_or_local, known, aliases.resolve_or_local) if value is not None else ()
        typed = element_annotation(annotation, lambda a: annotation_type(a, aliases), aliases) if annotation is not None else None
        found = tuple(f for f in (*found, *([typed] if typed else [])) if last_name(f)[:1].isupper())
        if found:
            out[key] = tuple(dict.fromkeys((*out.get(key, ()), *found)))

    for statement in module.body:
        if type(statement) is cst.SimpleStatementLine:
            for small in statement.body:
                assign(small, "")
        elif type(statement) is cst.ClassDef:
            statements(statement.body, f"{statement.name.value}.")
    return out


def made_arguments(call: cst.Call, resolve: Callable[[cst.BaseExpression], str | None]) -> list[tuple[int, str, str]]:
    """The arguments of a call that make an object of a class (`registry.add(Search(cfg))`):
    (position or -1, keyword or "", what made it), for the collections a parameter fills."""
    out: list[tuple[int, str, str]] = []
    position = 0
    for arg in call.args:
        if arg.star:
            break
        value = unwrap_await(arg.value)
        if type(value) is cst.Call and last_name(dotted(value.func) or "")[:1].isupper():
            made = resolve(value.func)
            if made:
                keyword = arg.keyword.value if arg.keyword is not None else ""
                out.append((-1 if keyword else position, keyword, made))
        if arg.keyword is None:
            position += 1
    return out
