"""The class a type annotation names (`Optional[Api]`, `"Api"`, `AsyncIterator[Api]` -> `pkg.api.Api`),
so that calls on a typed parameter, attribute or local can be tied to that class's methods.

Used by the module walk (typed names, return types) and by the function-body walk (typed
parameters); server inference reads annotations its own way (it looks for a server among
union members) but shares the typing vocabulary below.
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.names import AliasTable, dotted, last_name

# Typing constructs whose arguments are the annotation's real types.
UNION_WRAPPERS = frozenset({"Optional", "Union"})

# an `Optional[Api]` holds, what `with` gets from an `AsyncIterator[Api]` context manager.
_TYPE_FIRST_ARG = frozenset(
    {"Annotated", "Final", "ClassVar", "Iterator", "AsyncIterator", "Generator", "AsyncGenerator", "Awaitable", "Type", "type"}
)
_TYPING_MODULES = frozenset({"typing", "typing_extensions", "collections", "builtins"})


def annotation_type(annotation: cst.BaseExpression | None, aliases: AliasTable) -> str | None:
    """The qualified class an annotation names, for method lookup: `Api`, `"Api"`, `Api | None`,
    `Optional[Api]`, `AsyncIterator[Api]` -> `pkg.api.Api`. None for builtins, containers and
    unions of several classes (a call on them cannot be tied to one method)."""
    if annotation is None:
        return None
    if type(annotation) is cst.SimpleString:
        text = annotation.evaluated_value
        try:
            parsed = cst.parse_expression(text) if isinstance(text, str) else None
        except cst.ParserSyntaxError:
            return None
        return annotation_type(parsed, aliases)
    if type(annotation) is cst.BinaryOperation and type(annotation.operator) is cst.BitOr:
        return _single_type([annotation.left, annotation.right], aliases)
    if type(annotation) is cst.Subscript:
        wrapper = last_name(aliases.resolve(annotation.value) or dotted(annotation.value))
        items = [el.slice.value for el in annotation.slice if type(el.slice) is cst.Index]
        if wrapper in UNION_WRAPPERS:
            return _single_type(items, aliases)
        if wrapper in _TYPE_FIRST_ARG:
            return annotation_type(items[0], aliases) if items else None
        annotation = annotation.value  # `Client[Config]`: a generic project class
    name = dotted(annotation)
    if name is None:
        return None
    resolved = aliases.resolve_dotted(name)
    if resolved is not None:
        return None if resolved.split(".")[0] in _TYPING_MODULES else resolved
    if not last_name(name).lstrip("_")[:1].isupper() or name in _BUILTIN_CLASSES:  # `_State` too
        return None  # `str`, `dict`, `Any` written without an import
    return f"{aliases.module}.{name}" if aliases.module else name


_BUILTIN_CLASSES = frozenset({"Exception", "BaseException", "Ellipsis", "None", "NotImplemented"})


def _single_type(annotations: list[cst.BaseExpression], aliases: AliasTable) -> str | None:
    found = {annotation_type(a, aliases) for a in annotations if not is_none(a)}
    return found.pop() if len(found) == 1 else None


def is_none(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "None"
