"""Module names from file paths alone: what the analysis calls a file, without parsing it.

A summary's qualified names start with its module's dotted name (`pkg.tools.cache.helper`), and
the link step finds a helper by that name; so the name must come out the same wherever it is
computed: in the per-file analysis (analysis.module_name_for), in the cache keys (a file moved
under another package is another module), and in the prefilter, which maps the names the link
step asks for back to files before anything is parsed. Pure path and directory arithmetic: no
libcst, so a warm run can compute its cache keys cheaply.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

__all__ = ["ModuleName", "module_name", "module_names", "resolve_relative"]


@dataclass(frozen=True)
class ModuleName:
    dotted: str
    is_package: bool
    # The name from the `__init__.py` chain alone when `dotted` is longer (namespace folders above
    # it): what a script run from inside the tree imports it as (`from helpers import x`).
    alias: str = ""


# What makes a directory an import root (a `sys.path` entry): a project file, an unpacked
# distribution's metadata beside the packages, or the `src/` folder of a src layout.
_ROOT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
_ROOT_SUFFIXES = (".dist-info", ".egg-info")


class _PackagePrefixes:
    """Per directory, computed once each: its dotted package and its resolved path.

    A directory's package is the chain of `__init__.py` folders above it (a regular package),
    extended upward through folders without one (PEP 420 namespace packages) up to the nearest
    import root, when there is one: `root/pkg/tools/cache.py` is `pkg.tools.cache` whichever of
    `pkg/` and `tools/` has an `__init__.py`. Without a root above it (a loose folder of scripts)
    only the `__init__.py` chain counts, as before.
    """

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, ...]] = {}
        self._full: dict[str, tuple[str, ...]] = {}
        self._roots: dict[str, bool] = {}
        self._real: dict[str, str] = {}

    def realpath(self, path: Path) -> str:
        """os.path.realpath(path), resolving each directory once (a walk has many files per
        directory; only a file that is itself a symlink needs its own resolution)."""
        text = str(path)
        if os.path.islink(text):
            return os.path.realpath(text)
        directory, filename = os.path.split(text)
        real = self._real.get(directory)
        if real is None:
            real = self._real[directory] = os.path.realpath(directory or ".")
        return os.path.join(real, filename)

    def of(self, directory: str) -> tuple[str, ...]:
        """The `__init__.py` chain ending at `directory` (empty outside a regular package)."""
        known = self._known.get(directory)
        if known is None:
            known = ()
            if os.path.exists(os.path.join(directory, "__init__.py")):
                parent = os.path.dirname(directory)
                known = (*(self.of(parent) if parent != directory else ()), os.path.basename(directory))
            self._known[directory] = known
        return known

    def full(self, directory: str) -> tuple[str, ...]:
        """The dotted package of `directory`, namespace folders up to the import root included."""
        known = self._full.get(directory)
        if known is None:
            known = self._full[directory] = self._namespace_parts(directory) or self.of(directory)
        return known

    def _namespace_parts(self, directory: str) -> tuple[str, ...] | None:
        """Every folder name from below the nearest import root down to `directory`; None when
        no root is above it or a folder on the way cannot be a package name."""
        parts: list[str] = []
        current = directory
        while not self._is_root(current):
            name = os.path.basename(current)
            parent = os.path.dirname(current)
            if parent == current or not name.isidentifier():
                return None
            parts.append(name)
            current = parent
        return tuple(reversed(parts))

    def _is_root(self, directory: str) -> bool:
        known = self._roots.get(directory)
        if known is None:
            try:
                entries = os.listdir(directory or ".")
            except OSError:
                entries = []
            # A regular package is never a root, even with a module named setup.py in it, nor a
            # `src/` folder with an `__init__.py` (a package named `src`, imported as
            # `from src.tools.x import f`: its namespace subfolders are `src.tools`, not `tools`).
            known = "__init__.py" not in entries and (
                os.path.basename(directory) == "src" or any(e in _ROOT_FILES or e.endswith(_ROOT_SUFFIXES) for e in entries)
            )
            self._roots[directory] = known
        return known


def module_name(path: Path, packages: _PackagePrefixes | None = None) -> ModuleName:
    """The module name the analysis gives `path` (analysis.module_name_for, without libcst).

    As there, a relative path is resolved (symlinks included) and an absolute one is taken as is.
    Pass one `packages` object for many paths so each directory is looked at once.
    """
    packages = packages or _PackagePrefixes()
    text = str(path) if path.is_absolute() else packages.realpath(path)
    directory, filename = os.path.split(text)
    is_package = filename == "__init__.py"
    parts, chain = packages.full(directory), packages.of(directory)
    if not is_package:
        stem = os.path.splitext(filename)[0]
        parts, chain = (*parts, stem), (*chain, stem)
    dotted = ".".join(parts)
    alias = ".".join(chain)
    return ModuleName(dotted, is_package, alias if alias != dotted else "")


def module_names(paths: Iterable[Path]) -> list[ModuleName]:
    packages = _PackagePrefixes()
    return [module_name(path, packages) for path in paths]


def resolve_relative(module: str, is_package: bool, level: int, target: str) -> str:
    """Absolute module for `from <level dots><target> import ...` written in `module`."""
    if level == 0:
        return target
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    base = ".".join(parts)
    if target:
        return f"{base}.{target}" if base else target
    return base


# The calls by which a module puts a folder on `sys.path`, making that folder's modules
# importable by the end of their names (`import helpers` for `pkg/agents/helpers.py`).
_PATH_EXTENDERS = ("sys.path.insert", "sys.path.append")
_PATH_EXTENDERS_BYTES = tuple(call.encode() for call in _PATH_EXTENDERS)


def extends_sys_path(text: str | bytes) -> bool:
    """Does the module's text put a folder on `sys.path`? One test for the analysis
    (ModuleSummary.extends_path, which the link step follows name ends under) and the prefilter
    (which asks for modules by those ends under the same condition)."""
    if isinstance(text, bytes):
        return any(call in text for call in _PATH_EXTENDERS_BYTES)
    return any(call in text for call in _PATH_EXTENDERS)
