"""Static name resolution: which dotted, fully qualified name an expression refers to.

A deliberately small replacement for libcst's QualifiedNameProvider (which costs about 13x a parse):
imports anywhere in the module feed one alias table, and expressions are resolved through it.
"""

from __future__ import annotations

import ast
import functools

import libcst as cst

from mcp_lint.framework_copies import FrameworkCopy, framework_name
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.module_names import resolve_relative
from mcp_lint.model.frameworks import FRAMEWORK_PACKAGES, TOOL_ERROR_CLASSES, Family, is_framework_name


def dotted(expr: cst.BaseExpression) -> str | None:
    """`a.b.c` -> "a.b.c"; anything that is not a plain name/attribute chain -> None."""
    # Exact type checks: libcst's nodes are ABCs, whose isinstance runs Python code, and this is
    # the model's most frequent call. Name and Attribute have no subclasses.
    if type(expr) is _NAME:
        return expr.value  # type: ignore[attr-defined]
    parts: list[str] = []
    while type(expr) is _ATTRIBUTE:
        parts.append(expr.attr.value)  # type: ignore[attr-defined]
        expr = expr.value  # type: ignore[attr-defined]
    if type(expr) is _NAME:
        parts.append(expr.value)  # type: ignore[attr-defined]
        return ".".join(reversed(parts))
    return None


_NAME, _ATTRIBUTE, _AWAIT = cst.Name, cst.Attribute, cst.Await

# For exact-type membership tests (`type(expr) in NAME_OR_ATTRIBUTE`): neither has subclasses.
NAME_OR_ATTRIBUTE = (cst.Name, cst.Attribute)


def literal_value(node: cst.SimpleString) -> str | bytes:
    """`node.evaluated_value`, evaluated once per distinct literal. libcst runs `ast.literal_eval`
    at every call, which compiles the text and leaves four self-calling closures behind for the
    cyclic collector; the same few keys (`"error"`, `"content"`) are asked about everywhere.
    Raises as evaluated_value does (a failure is not cached)."""
    return _literal_value(node.value)


@functools.lru_cache(maxsize=4096)
def _literal_value(text: str) -> str | bytes:
    return ast.literal_eval(text)


def root_of(expr: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """`expr` under any subscripts and attributes: `args["when"].text` -> `args`."""
    while type(expr) in (cst.Subscript, cst.Attribute):
        expr = expr.value
    return expr


def bound_name(alias: cst.ImportAlias) -> str:
    """The name an import alias binds in its scope: its `as` name, else the first part of the
    imported name (`import requests.adapters` binds `requests`); "" for neither."""
    if alias.asname is not None and type(alias.asname.name) is cst.Name:
        return alias.asname.name.value
    name = alias.name
    while type(name) is cst.Attribute:
        name = name.value
    return name.value if type(name) is cst.Name else ""


def module_dotted(node: cst.BaseExpression | None) -> str:
    if node is None:
        return ""
    return dotted(node) or ""


def unwrap_await(expr: cst.BaseExpression) -> cst.BaseExpression:
    """The awaited expression: `await client.get()` -> `client.get()`."""
    while type(expr) is _AWAIT:  # exact type, as in `dotted`: Await has no subclasses
        expr = expr.expression
    return expr


class AliasTable:
    """Local name -> qualified name, from every import statement in a module.

    Names under a copy of a framework in the project (`copies`, framework_copies.py) are the
    framework's: `from app._vendor.fmcp import FastMCP` binds `fastmcp.FastMCP`."""

    def __init__(self, module: str, is_package: bool, copies: tuple[FrameworkCopy, ...] = ()) -> None:
        self.module = module
        self.is_package = is_package
        self.aliases: dict[str, str] = {}
        # Modules imported with `from X import ...` or `import X`, for framework detection.
        self.imported_modules: set[str] = set()
        # Local names bound by `from .x import y` (relative, hence project code).
        self.relative_names: set[str] = set()
        # Local names bound by `from . import x` (no module after the dots): the project's own
        # modules, whose functions are judged by what they do, not by their names.
        self.relative_modules: set[str] = set()
        self._copies = copies
        # The copies this module imports from (a fix importing from the framework uses them).
        self.copies_used: set[FrameworkCopy] = set()
        # Local name -> the other framework's name an `except ImportError:` clause binds it to
        # when the `try`'s import fails (`fastmcp.FastMCP` -> `mcp.server.fastmcp.FastMCP`): which
        # of the two runs, the project's declared requirements say (the link step's family_of).
        self.fallbacks: dict[str, str] = {}

    def _framework(self, qualified: str) -> str:
        if not self._copies:
            return qualified
        name, copy = framework_name(qualified, self._copies)
        if copy is not None:
            self.copies_used.add(copy)
        return name

    def add_import(self, node: cst.Import, fallback: bool = False) -> None:
        """`fallback`: the import of an `except ImportError:` clause, which binds only the names
        its `try` did not (see add_import_from)."""
        for alias in node.names:
            written = module_dotted(alias.name)
            name = self._framework(written)
            self.imported_modules.add(name)
            if alias.asname is not None and type(alias.asname.name) is cst.Name:
                if fallback and alias.asname.name.value in self.aliases and _frameworks(self.aliases[alias.asname.name.value], name):
                    self.fallbacks.setdefault(alias.asname.name.value, name)
                    continue
                self.aliases[alias.asname.name.value] = name
            elif name != written:
                # `import app._vendor.fmcp` binds `app`: names through it are resolved below.
                self.aliases.setdefault(written.split(".")[0], written.split(".")[0])
            else:
                local = name.split(".")[0]
                self.aliases.setdefault(local, local)

    def add_import_from(self, node: cst.ImportFrom, fallback: bool = False) -> None:
        """`fallback`: the import of an `except ImportError:` clause (`try: from mcp.server.fastmcp
        import FastMCP` / `except ImportError: from fastmcp import FastMCP`): a name its `try`
        bound keeps the primary import's meaning (the one the declared requirements install,
        usually; a fix importing ToolError next to it must import from there too)."""
        level = len(node.relative)
        base = self._framework(resolve_relative(self.module, self.is_package, level, module_dotted(node.module)))
        self.imported_modules.add(base)
        if type(node.names) is cst.ImportStar:
            return
        for alias in node.names:
            name = module_dotted(alias.name)
            local = name
            if alias.asname is not None and type(alias.asname.name) is cst.Name:
                local = alias.asname.name.value
            if not level and local in self.relative_names and _same_module_by_its_last_names(self.aliases[local].rpartition(".")[0], base):
                # `try: from .database import Manager` / `except ImportError: from database import
                # Manager` (run as a script): the same module of the package, named as the package
                # imports it.
                continue
            if fallback and local in self.aliases and _frameworks(self.aliases[local], f"{base}.{name}"):
                self.fallbacks.setdefault(local, f"{base}.{name}")
                continue
            self.aliases[local] = f"{base}.{name}" if base else name
            if level:
                self.relative_names.add(local)
                if node.module is None:
                    self.relative_modules.add(local)

    def resolve(self, expr: cst.BaseExpression) -> str | None:
        """Qualified name of `expr`, or None when its root is not an imported name."""
        name = dotted(expr)
        if name is None:
            return None
        return self.resolve_dotted(name)

    def resolve_dotted(self, name: str) -> str | None:
        root, _, rest = name.partition(".")
        target = self.aliases.get(root)
        if target is None:
            return None
        resolved = f"{target}.{rest}" if rest else target
        return self._framework(resolved) if self._copies else resolved

    def resolve_or_local(self, expr: cst.BaseExpression) -> str | None:
        """Like resolve, but names defined in this module resolve to `module.name`."""
        name = dotted(expr)
        if name is None:
            return None
        resolved = self.resolve_dotted(name)
        if resolved is not None:
            return resolved
        return f"{self.module}.{name}" if self.module else name

    def mentions_framework(self) -> bool:
        """Does the module import anything from an MCP framework?"""
        return any(is_framework_name(module) for module in self.imported_modules)


def _same_module_by_its_last_names(package_module: str, bare: str) -> bool:
    """Is `bare` (`database`, `lib.database`) the package's module `package_module`
    (`app.database`, `app.lib.database`) named from its own folder?"""
    return bool(bare) and (package_module == bare or package_module.endswith("." + bare))


def last_name(qualified: str | None) -> str:
    return qualified.rsplit(".", 1)[-1] if qualified else ""


def tool_error_names(aliases: AliasTable) -> dict[Family, str]:
    """Local names under which each family's ToolError is already imported."""
    out: dict[Family, str] = {}
    # A fallback import binds the name too, to the other framework's class (the one that runs
    # when the declared requirement installs only that framework).
    for local, qual in (*aliases.aliases.items(), *aliases.fallbacks.items()):
        family = TOOL_ERROR_CLASSES.get(qual)
        if family is not None:
            out.setdefault(family, local)
    return out


# Words of an identifier: its snake_case parts split at camelCase humps, acronyms whole.
_IDENTIFIER_PART = lazy_compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def identifier_parts(name: str) -> list[str]:
    """`fetchHTTPPage_v2` -> ["fetch", "HTTP", "Page", "v2"]: the words of a name, case kept."""
    return [part for piece in name.split("_") for part in _IDENTIFIER_PART.findall(piece)]


@functools.lru_cache(maxsize=4096)
def identifier_words(name: str) -> tuple[str, ...]:
    """`board_postCard` -> ("board", "post", "card"): the words of a name, lower-cased."""
    return tuple(part.lower() for part in identifier_parts(name))


def catches_import_error(handler: cst.ExceptHandler) -> bool:
    """Does the clause catch ImportError (or ModuleNotFoundError, or everything)? Its imports are
    then the fallback of the ones its `try` makes."""
    if handler.type is None:
        return True
    types = [element.value for element in handler.type.elements] if type(handler.type) is cst.Tuple else [handler.type]
    return any(dotted(t) in {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"} for t in types)


def _frameworks(*qualified: str) -> bool:
    """Are all these names the MCP frameworks' (`mcp.server.fastmcp.FastMCP`, `fastmcp.FastMCP`)?
    Between two frameworks the primary import is the one the fix builds on; a fallback to another
    distribution's module (`from legacy_store.engine import Manager`) may be the one that runs."""
    return all(name.split(".")[0] in FRAMEWORK_PACKAGES for name in qualified)
