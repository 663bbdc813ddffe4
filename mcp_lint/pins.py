"""The framework version a linted file is pinned to: what the link step asks per file.

A rule's message depends on what the framework release does with a failure, so the link step asks,
for a file and a distribution (`mcp`, `fastmcp`), for the specifier in force and where it comes
from. The answer is `[tool.mcp-lint] target` (or `--target`) when set, else what the project
declares (project.py). Kept apart from both so that the link step sees one plain callable
(`PinLookup`), and the pipeline can record what was asked to store it with a run's findings.

The same object answers the other project-level question the link step asks about a file: which
project file sets an environment variable its server reads (`env_setting`, server_env.py), so
that the pipeline records that too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

if TYPE_CHECKING:
    from mcp_lint.config import SettingsResolver
    from mcp_lint.server_env import EnvReading

__all__ = ["PinLookup", "PinSource", "env_reading_of"]

# (path, distribution) -> (specifier, where it is declared), None when nothing pins it.
PinLookup = Callable[[str, str], "tuple[str, str] | None"]


class PinSource:
    """Framework pins for a file: `[tool.mcp-lint] target` first, then declared dependencies
    (unless `declared` is off: an in-memory module has no project on disk); and the project files
    that set its server's environment (`env_files` stand in for them in memory)."""

    def __init__(self, resolver: SettingsResolver, declared: bool = True, env_files: Mapping[str, str] | None = None) -> None:
        self.resolver = resolver
        self.declared = declared
        self.env_files = dict(env_files or {})
        self._cache: dict[tuple[str, str], tuple[str, str] | None] = {}
        self._env: dict[tuple[str, tuple[str, ...]], EnvReading] = {}

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

    def env_setting(self, path: str, variables: tuple[str, ...]) -> EnvReading:
        """Which project file turns on the setting `variables` spell (in the framework's lookup
        order) for the server defined in `path` (read once per directory and spellings); in
        memory, which of `env_files` does."""
        from mcp_lint.server_env import EnvReading, read_env_setting, setting_in_texts

        key = (os.path.dirname(os.path.abspath(path)), variables)
        if key not in self._env:
            if self.declared:
                self._env[key] = read_env_setting(key[0], variables)
            else:
                self._env[key] = EnvReading(setting_in_texts(self.env_files, variables), ())
        return self._env[key]


def env_reading_of(lookup: PinLookup, path: str, variables: tuple[str, ...]) -> EnvReading:
    """What the project files say of the setting `variables` spell for the server in `path`,
    asked of `lookup` (a PinSource, or the pipeline's recording wrapper of one); a plain pin
    callable (the prefilter's, which renders nothing) knows no project files: nothing read."""
    from mcp_lint.server_env import EnvReading

    reader = getattr(lookup, "env_setting", None)
    return reader(path, variables) if reader is not None else EnvReading(None, ())
