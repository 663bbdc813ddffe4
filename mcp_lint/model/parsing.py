"""libcst's parse, without re-validating what its own parser built.

Every libcst node checks its fields when it is constructed (`CSTNode.__post_init__` calls
`_validate`): that guards trees built by hand, such as the ones fixes build. A tree straight from
the parser is valid by construction, and on real servers those checks are about a seventh of the
parse. So while a module is parsed here, the check is switched off, and on again right after.

Only when `__post_init__` is exactly "call `_validate`", as in the libcst versions this was written
against: a libcst that puts anything else there is parsed the ordinary way. mcp-lint is single
threaded, so no other code can construct a node while the switch is off.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst._nodes.base import CSTNode

_VALIDATING = CSTNode.__dict__.get("__post_init__")
_ONLY_VALIDATES = (
    _VALIDATING is not None
    and getattr(_VALIDATING, "__code__", None) is not None
    and _VALIDATING.__code__.co_names == ("_validate",)
)


def _trusted(self: CSTNode) -> None:
    """Stands in for CSTNode.__post_init__ during a parse: nothing to check."""


def parse_module(source: str, tree: ast.Module | None = None) -> cst.Module:
    """`libcst.parse_module(source)`, the same tree, built faster. With CPython's `tree` of the
    source, an edited module reuses the statements it had before when `reparse` is enabled."""
    if tree is not None:
        from mcp_lint.model.reparse import reparse

        module = reparse(source, tree, _parse)
        if module is not None:
            return module
    return _parse(source)


def _parse(source: str) -> cst.Module:
    if not _ONLY_VALIDATES:
        return cst.parse_module(source)
    CSTNode.__post_init__ = _trusted  # type: ignore[method-assign]
    try:
        return cst.parse_module(source)
    finally:
        CSTNode.__post_init__ = _VALIDATING  # type: ignore[method-assign]
