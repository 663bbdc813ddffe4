"""The functions a registration by value flow stands for (model/passed_callables.py): what the
calls that fill a registering function's parameter pass (ARGUMENT_REF), and the public functions
of a module found by reflection (MEMBERS_REF), followed through the callers of callers.

An argument names a function (that function), a table of functions (its functions, merged
tables included), or a module (for a reflection over it). Names that are none of these in the
project (a library's function, a setting) stand for nothing.
"""

from __future__ import annotations

from typing import Iterator

from mcp_lint.linking.names import Lookup, ProjectNames
from mcp_lint.model import table_rows
from mcp_lint.model.summary import ARGUMENT_REF, CLASS_MEMBERS, MEMBERS_REF

MAX_CALLERS = 3
_ANY_MEMBER = "__dict__"  # a name every module has: what a reflection over the module reads  # a parameter filled by a caller's loop over its own parameter, and so on


def passed_functions(project: ProjectNames, ref: str, decorated: bool = True) -> list[str]:
    """The project functions an ARGUMENT_REF or MEMBERS_REF registration stands for, in order;
    `decorated`: with those a decorator taking the parameter decorates (`@tool`)."""
    out: dict[str, None] = {}
    for name in _values(project, ref, 0, decorated):
        for function in _functions_named(project, name):
            out[function] = None
    return list(out)


def _values(project: ProjectNames, ref: str, depth: int, decorated: bool = True) -> Iterator[str]:
    """The names `ref` stands for: what callers pass, with MEMBERS_REF kept on a module's name."""
    if ref.startswith(MEMBERS_REF):
        inner = ref[len(MEMBERS_REF) :]
        sources = _values(project, inner, depth, decorated) if inner.startswith(ARGUMENT_REF) else iter((inner,))
        for source in sources:
            if not source.startswith(MEMBERS_REF):
                yield MEMBERS_REF + source
        return
    if not ref.startswith(ARGUMENT_REF):
        yield ref
        return
    if depth >= MAX_CALLERS:
        return
    function, _, param = ref[len(ARGUMENT_REF) :].rpartition("#")
    found = project.function(function)
    if found is None or param not in found[1].params:
        return
    params = found[1].params
    index = params.index(param)
    shift = 1 if params[0] in {"self", "cls"} else 0  # `registry.install(fns)`: self is not passed
    for summary in project.summaries:
        for callee, position, keyword, named in summary.callable_arguments:
            if keyword != param and (keyword or position + shift != index):
                continue
            target = project.function(callee)
            if target is None or target[1].qualname != found[1].qualname:
                continue
            for name in named:
                yield from _values(project, name, depth + 1, decorated)
    if decorated and index == shift:
        # The first parameter of a decorator: what `@decorator` decorates is passed to it
        # (`def tool(fn): return registry.add(fn)` used as `@tool`).
        yield from project.decorated_with(found[1].qualname)


def _functions_named(project: ProjectNames, name: str) -> list[str]:
    """The project functions one passed name stands for."""
    if name.startswith(MEMBERS_REF) and CLASS_MEMBERS in name:
        owner, _, registering = name[len(MEMBERS_REF) :].partition(CLASS_MEMBERS)
        return _class_members(project, owner, registering)
    if name.startswith(MEMBERS_REF):
        module = project.resolve(name[len(MEMBERS_REF) :])
        summary = project.modules.get(module)
        if summary is None:
            # Not analysed (yet): asking for a name in it asks the prefilter for the module.
            project.resolve(f"{module}.{_ANY_MEMBER}", lookup=Lookup.REGISTRATION)
            return []
        prefix = module + "."
        return [
            qual
            for qual in summary.functions
            if qual.startswith(prefix) and "." not in qual[len(prefix) :] and not qual[len(prefix) :].startswith("_")
        ]
    found = project.function(name)
    if found is not None:
        return [found[1].qualname]
    in_table = project.function_table(name) + [function for _, function in table_rows.registered_functions(table_rows.TablePath(name), 0, project.table)]
    return [function for function in dict.fromkeys(in_table) if project.function(function) is not None]


def _class_members(project: ProjectNames, owner: str, registering: str) -> list[str]:
    """The methods `getattr(self, name)` in `owner.registering` may register, `name` known only at
    run time: a mixin's loop over rows its subclasses declare (`for row in self.tools: fn =
    getattr(self, row["fn"])`) registers what each project subclass defines, its public methods;
    a class with no subclass registers its own public methods other than the registering one."""
    if project.missing is not None:
        project.missing(owner, Lookup.SUBCLASSES)  # the modules defining subclasses may be unread
    subclasses = project.subclasses(owner)
    classes = subclasses or [owner]
    out: list[str] = []
    for cls in classes:
        prefix = cls + "."
        for qual in project.functions:
            name = qual[len(prefix) :] if qual.startswith(prefix) else ""
            if name and "." not in name and not name.startswith("_") and (subclasses or name != registering):
                out.append(qual)
    return out
