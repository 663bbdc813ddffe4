"""The client's settings for mcp-lint (`select`, `ignore`, `target`), layered over `[tool.mcp-lint]`
as the command line's `--select`, `--ignore` and `--target` are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_lint.config import ConfigError, SettingsResolver
from mcp_lint.runner import TolerantResolver

# The section a client's `workspace/configuration` answers for (and the key of the settings in
# `initializationOptions` and `workspace/didChangeConfiguration`, when the client nests them).
SECTION = "mcp-lint"


@dataclass(frozen=True)
class ClientSettings:
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    target: str | None = None

    @classmethod
    def from_client(cls, value: Any) -> tuple[ClientSettings, list[str]]:
        """The settings in a client's value (`{"select": [...], "ignore": [...], "target": "..."}`,
        or that nested under "mcp-lint" or "settings"), and what was wrong with it."""
        if isinstance(value, dict):
            for key in (SECTION, "settings"):
                if isinstance(value.get(key), dict):
                    value = value[key]
                    break
        if not isinstance(value, dict):
            return cls(), []
        problems: list[str] = []
        codes: dict[str, tuple[str, ...] | None] = {}
        for key in ("select", "ignore"):
            item = value.get(key)
            if item is None:
                codes[key] = None
            elif isinstance(item, str):
                codes[key] = tuple(part.strip().upper() for part in item.split(",") if part.strip())
            elif isinstance(item, list) and all(isinstance(code, str) for code in item):
                codes[key] = tuple(code.strip().upper() for code in item if code.strip())
            else:
                codes[key] = None
                problems.append(f"setting '{key}' must be a list of rule codes")
        target = value.get("target")
        if target is not None and not isinstance(target, str):
            problems.append("setting 'target' must be a requirement such as \"fastmcp>=3.4,<4\"")
            target = None
        return cls(codes["select"] or None, codes["ignore"] or None, target or None), problems

    def resolver(self) -> tuple[TolerantResolver, list[str]]:
        """A settings resolver with these settings over each file's `[tool.mcp-lint]`; with the
        configuration's defaults and the error when the settings are invalid."""
        overrides: dict[str, object] = {}
        if self.select:
            overrides["select"] = list(self.select)
        if self.ignore:
            overrides["ignore"] = list(self.ignore)
        if self.target:
            overrides["target"] = self.target
            overrides["target_origin"] = "the editor's mcp-lint.target"
        try:
            return TolerantResolver(SettingsResolver(overrides=overrides or None)), []
        except ConfigError as exc:
            message = str(exc).replace("--select", "setting 'select'").replace("--ignore", "setting 'ignore'")
            message = message.replace("--target", "setting 'target'")
            return TolerantResolver(SettingsResolver()), [f"the editor's settings are ignored: {message}"]
