"""What a run checked: the servers found, their framework and version, and the tools on each.

A lint that found no tool has checked nothing: rules report only in code a tool reaches. So a run
says what it found (`check -v`), and warns when it found nothing at all (runner.py), rather than
showing a pass for a server whose framework it did not recognise.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

from mcp_lint.model.frameworks import Family, distribution_for

if TYPE_CHECKING:
    from mcp_lint.config import SettingsResolver

__all__ = ["ServerTools", "describe", "unchecked_lines"]

# How the report names each framework family.
_FAMILY_LABELS = {
    Family.MCP_FASTMCP: "mcp (FastMCP)",
    Family.MCP_SERVER: "mcp (MCPServer)",
    Family.MCP_LOWLEVEL: "mcp (low-level Server)",
    Family.FASTMCP: "fastmcp",
    Family.UNKNOWN: "an unrecognised framework",
}


@dataclass(frozen=True)
class ServerTools:
    """One server (or the tools registered without naming one) as the link step saw it."""

    server: str  # its qualified name; "" for tools registered by a standalone decorator
    path: str  # the file that defines it (or registers its first tool)
    family: Family
    specifier: str  # the version range in force, "" when nothing pins the framework
    source: str  # where that range comes from (a file, `--target`)
    tools: tuple[str, ...]  # the tools registered on it, sorted
    # Set for a module whose tool registrations mcp-lint could not tie to any server: why
    # (linking/unrecognised.py). Its tools were not checked; `server` is "", `family` UNKNOWN.
    unrecognised: str = ""
    # With `unrecognised`: the module's other registrations were recognised (and checked).
    partial: bool = False


def describe(entry: ServerTools) -> str:
    """One line: `server app.server.mcp (app/server.py): fastmcp, fastmcp>=2.10 from
    pyproject.toml; 2 tools: a, b`; for an unrecognised module, `no MCP server recognised in
    app/tools.py (2 tools not checked: a, b): <why>`."""
    if entry.unrecognised and entry.server:
        return f"server {entry.server} ({entry.path}): {entry.unrecognised}"
    if entry.unrecognised:
        count = len(entry.tools)
        unchecked = f"{count} tool{'s' if count != 1 else ''} not checked: " + ", ".join(entry.tools)
        if entry.partial:
            return f"some tools of {entry.path} are on no MCP server mcp-lint recognises ({unchecked}): {entry.unrecognised}"
        return f"no MCP server recognised in {entry.path} ({unchecked}): {entry.unrecognised}"
    where = f"server {entry.server}" if entry.server else "tools without a server"
    version = (
        f"{distribution_for(entry.family)}{entry.specifier} from {entry.source}"
        if entry.specifier
        else "version not pinned (every release mcp-lint knows is considered)"
    )
    count = len(entry.tools)
    tools = f"{count} tool{'s' if count != 1 else ''}" + (": " + ", ".join(entry.tools) if entry.tools else "")
    return f"{where} ({entry.path}): {_FAMILY_LABELS[entry.family]}, {version}; {tools}"


def unchecked_lines(entries: Iterable[ServerTools], shown: Mapping[str, Path], resolver: SettingsResolver) -> list[str]:
    """The warning lines of the modules in `shown` (display name -> path) whose tool
    registrations were left unchecked, unless their settings accept it (`require-tools = false`):
    what `mcp-lint check` warns and the language server shows."""
    return [
        describe(entry)
        for entry in entries
        if entry.unrecognised and entry.path in shown and resolver.for_path(shown[entry.path]).require_tools
    ]
