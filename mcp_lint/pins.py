"""The framework version a linted file is pinned to: what the link step asks per file.

A rule's message depends on what the framework release does with a failure, so the link step asks,
for a file and a distribution (`mcp`, `fastmcp`), for the specifier in force and where it comes
from. The answer is `[tool.mcp-lint] target` (or `--target`) when set, else what the project
declares (project.py). Kept apart from both so that the link step sees one plain callable
(`PinLookup`), and the pipeline can record what was asked to store it with a run's findings.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from mcp_lint.config import SettingsResolver

__all__ = ["PinLookup", "PinSource"]

# (path, distribution) -> (specifier, where it is declared), None when nothing pins it.
PinLookup = Callable[[str, str], "tuple[str, str] | None"]


class PinSource:
    """Framework pins for a file: `[tool.mcp-lint] target` first, then declared dependencies
    (unless `declared` is off: an in-memory module has no project on disk)."""

    def __init__(self, resolver: SettingsResolver, declared: bool = True) -> None:
        self.resolver = resolver
        self.declared = declared
        self._cache: dict[tuple[str, str], tuple[str, str] | None] = {}

    def __call__(self, path: str, distribution: str) -> tuple[str, str] | None:
        key = (os.path.dirname(path), distribution)  # a cache key only: no Path objects per call
        if key not in self._cache:
            self._cache[key] = self._lookup(Path(path), distribution)
        return self._cache[key]

    def _lookup(self, path: Path, distribution: str) -> tuple[str, str] | None:
        from mcp_lint.project import declared_dependencies, parse_target

        settings = self.resolver.for_path(path)
        if settings.target:
            pin = parse_target(settings.target).get(distribution)
            return (pin.specifier, settings.target_origin) if pin is not None else None
        if not self.declared:
            return None
        pin = declared_dependencies(path).get(distribution)
        if pin is None:
            return None
        return pin.specifier, os.path.relpath(pin.source) if os.path.isabs(pin.source) else pin.source
