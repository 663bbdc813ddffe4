"""Copies of a framework inside a project (a vendored `fastmcp` or `mcp`), recognised by what the
copy defines, whatever its folders are called.

A server on a copy imports it under the project's own name (`from app._vendor.fmcp import
FastMCP`), which names no framework: without knowing the copy, its tools are not found and the
run checks nothing. A copy is known by its definitions: a module of the run that defines a
framework's server class (with the method that registers tools, and not as a subclass of
another server class) at the place the framework defines it, relative to the copy's top package
(`<copy>/server/server.py` for `fastmcp.server.server.FastMCP`, `<copy>/server/fastmcp/...` for
mcp's). Which framework it copies is the one most of its definitions match (its `ToolError`,
its error classes, its result types) at the framework's places; a copy is a package, so its
server class and another of the framework's definitions must be in two of its modules.

The analysis reads every name under a copy as the framework's (`app._vendor.fmcp.FastMCP` is
`fastmcp.FastMCP`), and a fix that imports from the framework imports from the copy instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from mcp_lint.lazy_re import lazy_compile

__all__ = ["FrameworkCopy", "find_copies", "framework_name", "import_in_copy"]


@dataclass(frozen=True, order=True)
class FrameworkCopy:
    root: str  # the copy's top package in the project: "app._vendor.fmcp"
    framework: str  # the package it copies: "fastmcp" or "mcp"
    # The copy's module defining ToolError ("app._vendor.fmcp.exceptions"), "" when none was seen.
    tool_error_module: str = ""


# Top-level class statements: name and base list. Anchored on the newline (the text is searched
# with one put before it), not `^` in MULTILINE mode: a pattern opening with a literal is searched
# with a fast scan, one opening with `^` is tried at every byte (every file of a run is read).
_CLASS = lazy_compile(rb"\nclass[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?[ \t]*:")
# The methods that register a tool on a server class (fastmcp/mcp `tool`, `add_tool`; the
# low-level `call_tool`).
_REGISTERS = lazy_compile(rb"^[ \t]+(?:async[ \t]+)?def[ \t]+(?:tool|add_tool|call_tool)[ \t]*\(", re.MULTILINE)


def find_copies(modules: Iterable[tuple[str, bytes]]) -> tuple[FrameworkCopy, ...]:
    """The framework copies among `modules` (dotted module name, text as UTF-8), outermost only
    (a copy of mcp holds a `server/fastmcp` package that is not a copy of fastmcp)."""
    places = _framework_places()
    server_names = {name.rpartition(".")[2] for name in _server_classes()}
    servers: set[tuple[str, str]] = set()
    # (copy root, framework) -> the framework's names defined in place, and the modules doing so.
    matched: dict[tuple[str, str], set[str]] = {}
    modules_of: dict[tuple[str, str], set[str]] = {}
    tool_errors: dict[tuple[str, str], str] = {}
    for module, data in modules:
        if b"class " not in data:
            continue
        registers: bool | None = None  # searched only for a class named as a server class
        for match in _CLASS.finditer(b"\n" + data):
            name = match.group(1).decode("ascii", "replace")
            bases = (match.group(2) or b"").decode("utf-8", "replace")
            for qualified in places.get(name, ()):
                copy = _copy_root(module, qualified)
                if copy is None:
                    continue
                matched.setdefault(copy, set()).add(qualified)
                modules_of.setdefault(copy, set()).add(module)
                if name in server_names and qualified in _server_classes():
                    # A subclass of another server class is the project's own server, not a copy.
                    if registers is None:
                        registers = _REGISTERS.search(data) is not None
                    if registers and not any(server in bases for server in server_names):
                        servers.add(copy)
                if qualified in _tool_error_classes():
                    tool_errors.setdefault(copy, module)
    # A copy is a package: its server class and at least one more of the framework's definitions
    # in another of its modules (a test's stand-in `class FastMCP` in one file is no copy).
    servers = {copy for copy in servers if len(modules_of[copy]) >= 2}
    chosen: dict[str, FrameworkCopy] = {}
    for root in sorted({root for root, _ in servers}):
        candidates = [framework for candidate, framework in servers if candidate == root]
        framework = min(
            candidates,
            key=lambda f: (-len(matched[(root, f)]), f != root.rpartition(".")[2], f != "fastmcp"),
        )
        chosen[root] = FrameworkCopy(root, framework, tool_errors.get((root, framework), ""))
    outermost = [copy for copy in chosen.values() if not any(copy.root.startswith(other + ".") for other in chosen)]
    return tuple(sorted(outermost))


def framework_name(qualified: str, copies: Sequence[FrameworkCopy]) -> tuple[str, FrameworkCopy | None]:
    """`qualified` read as the framework's name when it is under a copy, and the copy."""
    for copy in copies:
        if qualified == copy.root or qualified.startswith(copy.root + "."):
            return copy.framework + qualified[len(copy.root) :], copy
    return qualified, None


def import_in_copy(module: str, name: str, copies: Sequence[FrameworkCopy]) -> str:
    """Where a file whose framework is a copy imports `name` that the framework's `module`
    defines: the copy's own module (its ToolError where the copy defines it)."""
    top = module.partition(".")[0]
    for copy in copies:
        if copy.framework != top:
            continue
        if name == "ToolError" and copy.tool_error_module:
            return copy.tool_error_module
        return copy.root + module[len(top) :]
    return module


def _copy_root(module: str, qualified: str) -> tuple[str, str] | None:
    """(copy root, framework) when `module` is where a copy puts the framework's `qualified`
    (its place relative to the framework's top package); None otherwise, and for the framework
    itself."""
    framework_module = qualified.rpartition(".")[0]
    top, _, rest = framework_module.partition(".")
    parts = module.split(".")
    tail = rest.split(".") if rest else []
    if len(parts) <= len(tail) or (tail and parts[-len(tail) :] != tail):
        return None
    root = ".".join(parts[: len(parts) - len(tail)])
    if root in _framework_tops():
        return None  # the framework's own source (or a top-level copy, imported by its own name)
    return root, top


def _framework_places() -> dict[str, tuple[str, ...]]:
    """Class name -> every framework name of a class by that name the model knows."""
    from mcp_lint.model.frameworks import FRAMEWORK_DEFINED_NAMES

    places: dict[str, list[str]] = {}
    for qualified in sorted(FRAMEWORK_DEFINED_NAMES):
        places.setdefault(qualified.rpartition(".")[2], []).append(qualified)
    return {name: tuple(found) for name, found in places.items()}


def _server_classes() -> frozenset[str]:
    from mcp_lint.model.frameworks import SERVER_CLASSES

    return frozenset(SERVER_CLASSES)


def _tool_error_classes() -> frozenset[str]:
    from mcp_lint.model.frameworks import TOOL_ERROR_CLASSES

    return frozenset(TOOL_ERROR_CLASSES)


def _framework_tops() -> tuple[str, ...]:
    from mcp_lint.model.frameworks import FRAMEWORK_MODULE_PREFIXES

    return FRAMEWORK_MODULE_PREFIXES
