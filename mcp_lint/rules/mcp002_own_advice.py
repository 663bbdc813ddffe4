"""The project's own exception classes that a `try` body raises through code of other modules,
with words the author wrote for the model.

`except Exception as e: return f"Error listing entries: {e}"` around `client.get(...)` passes on,
through `{e}`, whatever the client raises: a library's text, and also the client's own
`QuotaError("Too many requests. Retry after 60s.")` or `LoginError("... call login again.")`.
MCP002's fix rewrites the clause's text; for those classes it must keep their words, so it puts
`except LedgerError: raise` before the rewritten clause (their text reaches the model as the
framework reports an exception), or, when no name this module holds covers them, offers no fix.

Decided at render time from the linked summaries (FunctionSummary.exception_raises: the project
classes each function raises outside any `except` that takes them again, and whether a caught
library exception's text went into the raise), following the calls of the `try` body a few
levels down.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcp_lint.model.exception_guards import catches
from mcp_lint.model.library_tables import (
    ARGUMENT_PARSERS,
    LIBRARY_ERROR_BASES,
    RAISES_BY_FUNCTION,
    RAISES_BY_METHOD,
    RAISES_BY_MODULE,
)
from mcp_lint.model.names import last_name
from mcp_lint.rules.plain_raises import builtin_bases

if TYPE_CHECKING:
    from mcp_lint.rules.base import FileContext, LinkedProject

# How many calls down from the `try` body a raise is looked for: a tool's call of a client method,
# its request helper, the status check that raises.
_DEPTH = 4


@dataclass(frozen=True)
class OwnRaises:
    """What the calls of a `try` body raise of the project's own classes."""

    author: tuple[str, ...]  # classes (qualified) raised with the author's words, in the order met
    carried: frozenset[str]  # classes (qualified) some raise builds from a caught library text


def own_raises(callees: tuple[str, ...], project: LinkedProject, module: str) -> OwnRaises:
    """The project classes the functions `callees` run raise outside their own `except` clauses,
    following their calls `_DEPTH` levels down; a call under a `try` of the helper that takes a
    class without raising it again stops that class there. The raises of `module` itself are left
    to the check of that file, which reads them with the code at hand
    (handler_fix.own_raises_pass_through: a raise sending a reply's raw body is not let through)."""
    author: dict[str, None] = {}
    carried: set[str] = set()
    seen: set[str] = set()
    # (function, the `try` guards of the calls on the way to it)
    frontier: list[tuple[str, tuple]] = [(callee, ()) for callee in callees]
    for _level in range(_DEPTH):
        following: list[tuple[str, tuple]] = []
        for qual, guards in frontier:
            found = project.function(qual)
            if found is None or found[1].qualname in seen:
                continue
            fn = found[1]
            seen.add(fn.qualname)
            own_module = found[0].module == module
            for raised, from_library, *_ in fn.exception_raises:
                if own_module:
                    continue
                if from_library:
                    carried.add(raised)
                elif not _stopped(raised, guards, project):
                    author.setdefault(raised, None)
            following.extend((edge.callee, (*guards, *edge.guarded)) for edge in fn.calls)
        frontier = following
    return OwnRaises(tuple(author), frozenset(carried))


def _stopped(raised: str, guards: tuple, project: LinkedProject) -> bool:
    """Does a `try` on the way take the class (by its name or a base's) without raising it again?"""
    names = frozenset(last_name(a) for a in project.class_ancestors(raised)) | {last_name(raised)}
    return any(catches(guard, names) for guard in guards)


def pass_through_names(
    found: OwnRaises, caught_before: tuple[str, ...], nameable: tuple[tuple[str, str], ...], project: LinkedProject
) -> tuple[str, ...] | None:
    """The names, as this module writes them, that an `except ...: raise` before the clause needs
    so that each class of `found.author` that reaches the clause keeps its text: for each, itself
    or its nearest base this module names (`nameable`: (local name, qualified class)) that no
    class built from library text derives from. () when none reaches the clause; None when one
    has no such name (the clause cannot be rewritten without losing its words)."""
    local = {qual: name for name, qual in nameable}
    leaking = {a for cls in found.carried for a in project.class_ancestors(cls)}
    chosen: list[str] = []
    for cls in found.author:
        ancestors = project.class_ancestors(cls) or (cls,)
        if {last_name(a) for a in ancestors} & set(caught_before):
            continue  # an earlier clause of the same `try` takes it
        name = next((local[a] for a in ancestors if a in local and a not in leaking), None)
        if name is None:
            return None
        if name not in chosen:
            chosen.append(name)
    return tuple(chosen)


def nameable_classes(ctx: FileContext) -> tuple[tuple[str, str], ...]:
    """The classes this module can name in an `except` as it stands: (local name, qualified) of
    each class it defines at module level and each capitalised name it imports (whether one is an
    exception class of the project, the link step knows)."""
    found: dict[str, str] = {}
    prefix = f"{ctx.model.module}." if ctx.model.module else ""
    for qual in ctx.model.classes:
        if qual.startswith(prefix) and "." not in qual[len(prefix) :]:
            found[qual[len(prefix) :]] = qual
    for name, qual in ctx.model.aliases.aliases.items():
        if name[:1].isupper() and name not in found:
            found[name] = qual
    return tuple(sorted(found.items()))


# pydantic's model bases: building a subclass validates, and a failure raises ValidationError
# (a ValueError) whose text lists each field's error, a validator's own sentence among them.
_MODEL_BASES = frozenset({"BaseModel", "BaseSettings", "RootModel"})
VALIDATION_ERROR = frozenset({"ValidationError", "ValueError", "Exception", "BaseException"})
# Class methods that build a model from data (`Settings.model_validate(raw)`).
_BUILDERS = frozenset({"model_validate", "model_validate_json", "model_validate_strings", "parse_obj", "parse_raw"})


def author_text(
    calls: tuple[str, ...], from_arguments: tuple[str, ...], caught: frozenset[str], caught_before: frozenset[str], project: LinkedProject
) -> tuple[frozenset[str], str] | None:
    """What of the author's own words a clause catching `caught` (short names, bases included
    as written) takes from the calls of its `try`, following them `_DEPTH` levels down: (the
    class's name and its bases', the words said for a help line); None when none. The words are: a builtin exception a project function
    raises with a message it wrote (`raise ValueError("API_KEY must be set")` in a config
    getter); a pydantic model's validator sentence (`raise ValueError("token cannot be
    empty")` in a `@field_validator`), in the ValidationError of whoever builds the model; and
    the field errors of a model the `try` builds from the function's own arguments
    (`from_arguments`), which say which argument the caller got wrong. A class an earlier
    clause of the same `try` takes (`caught_before`) never reaches this one. A builtin class
    found anywhere in the calls is said before pydantic's (ValidationError is a ValueError: a
    pass-through of the builtin class keeps both, one of pydantic's alone would drop the
    builtin's sentence)."""

    def reaches(names: frozenset[str], guards: tuple) -> bool:
        return bool(names & caught) and not names & caught_before and not _taken(names, guards)

    pydantic: tuple[frozenset[str], str] | None = None  # the first of pydantic's, said if no builtin is met
    for qual in from_arguments:
        model = _model(qual, project)
        if model is not None and reaches(VALIDATION_ERROR, ()):
            pydantic = pydantic or (VALIDATION_ERROR, f"pydantic's field errors for {last_name(model)}")
    seen: set[str] = set()
    frontier: list[tuple[str, tuple]] = [(callee, ()) for callee in calls]
    for _level in range(_DEPTH):
        following: list[tuple[str, tuple]] = []
        for qual, guards in frontier:
            model = _model(qual, project)
            if model is not None:
                if model not in seen and reaches(VALIDATION_ERROR, guards):
                    seen.add(model)
                    rule = _validator_raising(model, project)
                    if rule is not None:
                        pydantic = pydantic or (VALIDATION_ERROR, f"the text of {last_name(model)}.{rule}")
                continue
            found = project.function(qual)
            if found is None and project.is_project_class(qual):
                # Building a project class runs its `__init__` (and a dataclass's
                # `__post_init__`): a config read there raises as a call of them would.
                following.extend((f"{project.resolve(qual)}.{init}", guards) for init in _INITS)
                continue
            if found is None or found[1].qualname in seen:
                continue
            fn = found[1]
            seen.add(fn.qualname)
            for raised in fn.author_raises:
                names = frozenset(builtin_bases(raised))
                if reaches(names, guards):
                    return names, f"the {raised} of {fn.name}"
            following.extend((_own_class(edge.callee, fn.qualname), (*guards, *edge.guarded)) for edge in fn.calls)
        frontier = following
    return pydantic


# The methods that run when a class is called.
_INITS = ("__init__", "__post_init__")


def _own_class(callee: str, caller: str) -> str:
    """A method's call through `cls` or `self` (`cls.from_env()`, `cls(url)`) named by the class
    the method is defined in: the call graph records those receivers as names of the module.
    `self` alone is the instance, not its class: calling it runs `__call__`, never the
    constructor (a method reading `self` builds no new client, whose setup raises)."""
    module_class, _, _method = caller.rpartition(".")
    module, _, _cls = module_class.rpartition(".")
    if module and callee == f"{module}.self":
        return f"{module_class}.__call__"
    for receiver in ("cls", "self"):
        prefix = f"{module}.{receiver}"
        if module and (callee == prefix or callee.startswith(prefix + ".")):
            return module_class + callee[len(prefix) :]
    return callee


def _taken(names: frozenset[str], guards: tuple) -> bool:
    """Does a `try` on the way take an exception of these names without raising it again?"""
    return any(catches(guard, names) for guard in guards)


def _model(qual: str, project: LinkedProject) -> str | None:
    """The project's pydantic model a call builds (`Settings(...)`, `Settings.model_validate(raw)`),
    qualified; None for any other call."""
    head, _, tail = qual.rpartition(".")
    for cls in (qual, head if tail in _BUILDERS else ""):
        if cls and project.is_project_class(cls):
            resolved = project.resolve(cls)
            if any(last_name(a) in _MODEL_BASES for a in project.class_ancestors(resolved)):
                return resolved
    return None


def _validator_raising(model: str, project: LinkedProject) -> str | None:
    """The name of a validator method of `model` (or of a project base of it) that raises a
    builtin exception with the author's words (pydantic puts ValueError's, AssertionError's and
    its own errors' text in the ValidationError); None when none does."""
    for cls in project.class_ancestors(model):
        module = project.modules.get(cls.rpartition(".")[0])
        if module is None:
            continue
        prefix = f"{cls}."
        for qual, fn in module.functions.items():
            if qual.startswith(prefix) and fn.validator and {"ValueError", "AssertionError"} & set(fn.author_raises):
                return fn.name
    return None


def library_raising(cls: str, calls: tuple[str, ...], methods: tuple[str, ...], project: LinkedProject) -> str | None:
    """A library call the `try` runs (in its body, or in the project functions it calls, `_DEPTH`
    levels down, outside a `try` there that takes the class) that may raise the builtin class
    `cls`, a subclass of it or a base (`json.loads` and a response's `.json()`: JSONDecodeError, a
    ValueError; `int(...)`; `open(...)`: OSError), by the tables of what library calls raise; its
    name as the call graph writes it, or None; `methods`: the `try` body's calls on objects no
    call edge resolves, by their method names. `except ValueError: raise` before the clause would
    let that library's text through with the author's."""
    family = frozenset(builtin_bases(cls)) - {"Exception", "BaseException"}
    if not family:
        return None

    def clashes(raised: frozenset[str]) -> bool:
        for name in raised:
            bases = frozenset(builtin_bases(LIBRARY_ERROR_BASES.get(name, name))) - {"Exception", "BaseException"}
            if cls in bases or bases & family == bases and bases:
                return True
        return False

    for method in methods:
        if clashes(RAISES_BY_METHOD.get(method, frozenset())):
            return method
    seen: set[str] = set()
    frontier: list[tuple[str, tuple]] = [(callee, ()) for callee in calls]
    for _level in range(_DEPTH):
        following: list[tuple[str, tuple]] = []
        for qual, guards in frontier:
            found = project.function(qual)
            if found is None:
                if project.is_project_class(qual) or _taken(family | {cls}, guards):
                    continue
                if clashes(library_raises(qual)):
                    return qual
                continue
            if found[1].qualname in seen:
                continue
            seen.add(found[1].qualname)
            following.extend((_own_class(edge.callee, found[1].qualname), (*guards, *edge.guarded)) for edge in found[1].calls)
        frontier = following
    return None


_BUILTIN_NAMES = frozenset(dir(builtins))


def library_raises(qual: str) -> frozenset[str]:
    """What a library call may raise of the builtin classes (and their library subclasses), by
    its resolved name, its module, an argument parser's, or its method's last name; empty when
    the tables do not say."""
    if qual in RAISES_BY_FUNCTION:
        return RAISES_BY_FUNCTION[qual]
    if last_name(qual) in _BUILTIN_NAMES and last_name(qual) in RAISES_BY_FUNCTION:
        return RAISES_BY_FUNCTION[last_name(qual)]  # `int(raw)`, named by the module it is called in
    if qual in ARGUMENT_PARSERS:
        return frozenset({"ValueError"})
    module = qual.rpartition(".")[0]
    if module in RAISES_BY_MODULE:
        return RAISES_BY_MODULE[module]
    return RAISES_BY_METHOD.get(last_name(qual), frozenset()) if "." in qual else frozenset()
