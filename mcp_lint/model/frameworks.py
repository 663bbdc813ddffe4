"""What each framework version does with a tool's failures, as data (see mcp-error-semantics.md).

Rules never hard-code framework behaviour: they ask this table. A new framework version is a new
row in ``_CHANNEL_TABLE``; a new import path is a new entry in the name tables below.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version


class Family(str, enum.Enum):
    """The server API a tool is written against. Versions refine it later."""

    MCP_FASTMCP = "mcp-fastmcp"  # mcp 1.x high level (mcp.server.fastmcp.FastMCP)
    MCP_SERVER = "mcp-mcpserver"  # mcp 2.x high level (mcp.server.mcpserver.MCPServer)
    MCP_LOWLEVEL = "mcp-lowlevel"  # mcp.server.lowlevel.Server (1.x decorators or 2.x on_call_tool)
    FASTMCP = "fastmcp"  # jlowin fastmcp 2/3/4
    UNKNOWN = "unknown"  # a tool decorator on a server we could not classify


# Representative releases, one per behaviour change in the semantics table. Version inference
# intersects the project's pins with these, so "mcp>=1.19,<2" keeps only 1.x rows >= 1.19.
MCP_RELEASES = ("1.6.0", "1.9.4", "1.18.0", "1.19.0", "1.25.0", "1.30.0", "2.0.0", "2.3.0")
FASTMCP_RELEASES = ("2.3.0", "2.4.0", "2.5.0", "2.13.0", "2.14.7", "3.0.0", "3.3.0", "3.4.11", "4.0.0", "4.2.0")

# Modules whose import marks a file as belonging to an MCP server (prefilter and family hints).
FRAMEWORK_MODULE_PREFIXES = ("mcp", "fastmcp", "mcp_types")

SERVER_CLASSES: dict[str, Family] = {
    "mcp.server.fastmcp.FastMCP": Family.MCP_FASTMCP,
    "mcp.server.fastmcp.server.FastMCP": Family.MCP_FASTMCP,
    "mcp.server.FastMCP": Family.MCP_FASTMCP,
    "mcp.server.mcpserver.MCPServer": Family.MCP_SERVER,
    "mcp.server.mcpserver.server.MCPServer": Family.MCP_SERVER,
    "mcp.server.MCPServer": Family.MCP_SERVER,
    "mcp.server.lowlevel.Server": Family.MCP_LOWLEVEL,
    "mcp.server.lowlevel.server.Server": Family.MCP_LOWLEVEL,
    "mcp.server.Server": Family.MCP_LOWLEVEL,
    "fastmcp.FastMCP": Family.FASTMCP,
    "fastmcp.server.FastMCP": Family.FASTMCP,
    "fastmcp.server.server.FastMCP": Family.FASTMCP,
    "fastmcp.server.openapi.FastMCPOpenAPI": Family.FASTMCP,
    "fastmcp.server.openapi.server.FastMCPOpenAPI": Family.FASTMCP,
    "fastmcp.server.proxy.FastMCPProxy": Family.FASTMCP,
    "fastmcp.server.providers.proxy.FastMCPProxy": Family.FASTMCP,
    "fastmcp.server.create_proxy": Family.FASTMCP,
    "fastmcp.server.proxy.create_proxy": Family.FASTMCP,
    "fastmcp.apps.FastMCPApp": Family.FASTMCP,
    "fastmcp.server.providers.LocalProvider": Family.FASTMCP,
    "fastmcp.server.providers.local_provider.LocalProvider": Family.FASTMCP,
}
# Class methods of a server class that build a server (`FastMCP.from_openapi(spec, client)`).
SERVER_FACTORY_METHODS = frozenset({"from_openapi", "from_fastapi", "as_proxy"})


def server_family(qualified: str | None) -> Family | None:
    """The family of the server a call to `qualified` builds, or None when it builds none."""
    if not qualified:
        return None
    family = SERVER_CLASSES.get(qualified)
    if family is not None:
        return family
    owner, _, method = qualified.rpartition(".")
    return SERVER_CLASSES.get(owner) if method in SERVER_FACTORY_METHODS else None


def is_framework_name(qualified: str) -> bool:
    """Is `qualified` defined by one of the MCP frameworks (not by the project or a third party)?"""
    return any(qualified == p or qualified.startswith(p + ".") for p in FRAMEWORK_MODULE_PREFIXES)


# -- Registration forms (mcp-error-semantics.md section 1) --------------------------------------
# Standalone decorators that mark a function as a tool / as a resource or prompt by themselves.
STANDALONE_TOOL_DECORATORS = frozenset(
    {
        "fastmcp.tools.tool",
        "fastmcp.tools.tool.tool",
        "fastmcp.tools.function_tool.tool",
        "fastmcp.contrib.mcp_mixin.mcp_tool",
        "fastmcp.contrib.mcp_mixin.mcp_mixin.mcp_tool",
    }
)
STANDALONE_NON_TOOL_DECORATORS = frozenset(
    {
        "fastmcp.resources.resource",
        "fastmcp.resources.resource.resource",
        "fastmcp.resources.function_resource.resource",
        "fastmcp.prompts.prompt",
        "fastmcp.prompts.prompt.prompt",
        "fastmcp.prompts.function_prompt.prompt",
        "fastmcp.contrib.mcp_mixin.mcp_resource",
        "fastmcp.contrib.mcp_mixin.mcp_prompt",
        "fastmcp.contrib.mcp_mixin.mcp_mixin.mcp_resource",
        "fastmcp.contrib.mcp_mixin.mcp_mixin.mcp_prompt",
    }
)


def _from_function(modules: tuple[str, ...], classes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(f"{m}.{c}.from_function" for m in modules for c in classes)


# `Tool.from_function(fn)`: every import path of every framework's Tool class.
TOOL_FACTORIES: dict[str, Family] = {
    **dict.fromkeys(_from_function(("mcp.server.fastmcp.tools", "mcp.server.fastmcp.tools.base"), ("Tool",)), Family.MCP_FASTMCP),
    **dict.fromkeys(_from_function(("mcp.server.mcpserver.tools", "mcp.server.mcpserver.tools.base"), ("Tool",)), Family.MCP_SERVER),
    **dict.fromkeys(
        _from_function(
            ("fastmcp.tools", "fastmcp.tools.tool", "fastmcp.tools.base", "fastmcp.tools.function_tool"),
            ("Tool", "FunctionTool"),
        ),
        Family.FASTMCP,
    ),
}
# `Prompt.from_function(fn)`, `FunctionResource.from_function(fn)`...: resource/prompt handlers.
NON_TOOL_FACTORIES = _from_function(
    (
        "mcp.server.fastmcp.prompts",
        "mcp.server.fastmcp.prompts.base",
        "mcp.server.fastmcp.resources",
        "mcp.server.fastmcp.resources.types",
        "mcp.server.fastmcp.resources.templates",
        "mcp.server.mcpserver.prompts",
        "mcp.server.mcpserver.prompts.base",
        "mcp.server.mcpserver.resources",
        "mcp.server.mcpserver.resources.types",
        "mcp.server.mcpserver.resources.templates",
        "fastmcp.prompts",
        "fastmcp.prompts.prompt",
        "fastmcp.prompts.function_prompt",
        "fastmcp.resources",
        "fastmcp.resources.resource",
        "fastmcp.resources.function_resource",
        "fastmcp.resources.template",
    ),
    ("Prompt", "FunctionPrompt", "Resource", "FunctionResource", "ResourceTemplate", "FunctionResourceTemplate"),
)
# Server methods (decorators, or called with the function) that register something other than
# a tool: failures there are JSON-RPC errors by design (semantics section 6).
NON_TOOL_ATTRS = frozenset(
    {
        "resource",
        "prompt",
        "completion",
        "add_resource",
        "add_prompt",
        "add_template",
        "add_resource_fn",
        "read_resource",
        "list_resources",
        "list_resource_templates",
        "get_prompt",
        "list_prompts",
        "list_tools",
        "subscribe_resource",
        "unsubscribe_resource",
        "set_logging_level",
        "progress_notification",
        "custom_route",
    }
)
# Low-level decorators that exist only in mcp 1.x (2.x takes `on_...=` constructor arguments).
LOWLEVEL_V1_DECORATORS = frozenset(
    {
        "call_tool",
        "list_tools",
        "read_resource",
        "list_resources",
        "list_resource_templates",
        "get_prompt",
        "list_prompts",
        "completion",
        "subscribe_resource",
        "unsubscribe_resource",
        "set_logging_level",
        "progress_notification",
    }
)
# mcp 2.x low-level constructor arguments / `add_request_handler` methods for non-tool requests.
LOWLEVEL_NON_TOOL_KWARGS = frozenset(
    {
        "on_read_resource",
        "on_list_resources",
        "on_list_resource_templates",
        "on_get_prompt",
        "on_list_prompts",
        "on_completion",
        "on_list_tools",
        "on_subscribe_resource",
        "on_unsubscribe_resource",
        "on_set_logging_level",
    }
)
# High-level constructor arguments holding resource/prompt handlers (`MCPServer(resources=[...])`).
NON_TOOL_CONSTRUCTOR_KWARGS = frozenset({"resources", "prompts"})

# Classes whose message the framework delivers to the model verbatim: the right way to fail a tool.
TOOL_ERROR_CLASSES: dict[str, Family] = {
    "mcp.server.fastmcp.exceptions.ToolError": Family.MCP_FASTMCP,
    "mcp.server.mcpserver.exceptions.ToolError": Family.MCP_SERVER,
    "mcp.server.mcpserver.ToolError": Family.MCP_SERVER,
    "fastmcp.exceptions.ToolError": Family.FASTMCP,
    "fastmcp.ToolError": Family.FASTMCP,
}
# Where the fix imports ToolError from, per family.
TOOL_ERROR_IMPORT: dict[Family, tuple[str, str]] = {
    Family.MCP_FASTMCP: ("mcp.server.fastmcp.exceptions", "ToolError"),
    Family.MCP_SERVER: ("mcp.server.mcpserver.exceptions", "ToolError"),
    Family.FASTMCP: ("fastmcp.exceptions", "ToolError"),
}
# Framework "domain" exceptions whose text is curated by the author (not foreign text).
FRAMEWORK_DOMAIN_ERRORS = frozenset(
    {
        *TOOL_ERROR_CLASSES,
        "mcp.server.fastmcp.exceptions.ResourceError",
        "mcp.server.fastmcp.exceptions.FastMCPError",
        "mcp.server.mcpserver.exceptions.ResourceError",
        "fastmcp.exceptions.FastMCPError",
        "fastmcp.exceptions.ResourceError",
        "fastmcp.exceptions.NotFoundError",
        "fastmcp.exceptions.ValidationError",
    }
)

# fastmcp's ErrorHandlingMiddleware: its only import path from 2.9.0 (where middleware begins)
# to 4.x (MCP009; read in the wheels).
ERROR_MIDDLEWARE_CLASSES = frozenset({"fastmcp.server.middleware.error_handling.ErrorHandlingMiddleware"})

# JSON-RPC protocol error classes (McpError is the v1 name, MCPError the v2 name).
PROTOCOL_ERROR_CLASSES = frozenset(
    {
        "mcp.shared.exceptions.McpError",
        "mcp.McpError",
        "mcp.shared.exceptions.MCPError",
        "mcp.MCPError",
        "fastmcp.exceptions.McpError",
        "fastmcp.exceptions.MCPError",
    }
)
# Protocol errors that are correct inside a tool (semantics doc, "Quick 'is it correct?' list").
LEGITIMATE_PROTOCOL_ERRORS = frozenset(
    {
        "mcp.shared.exceptions.UrlElicitationRequiredError",
        "mcp.UrlElicitationRequiredError",
        "mcp.server.mcpserver.require_client_extension",
    }
)
ERROR_DATA_CLASSES = frozenset({"mcp.types.ErrorData", "mcp_types.ErrorData", "mcp_types.jsonrpc.ErrorData"})
CALL_TOOL_RESULT_CLASSES = frozenset({"mcp.types.CallToolResult", "mcp_types.CallToolResult"})
TEXT_CONTENT_CLASSES = frozenset({"mcp.types.TextContent", "mcp_types.TextContent"})
TOOL_RESULT_CLASSES = frozenset(
    {"fastmcp.tools.ToolResult", "fastmcp.tools.tool.ToolResult", "fastmcp.tools.base.ToolResult"}
)

# JSON-RPC codes by name, for messages ("INVALID_PARAMS").
ERROR_CODE_NAMES = {
    "PARSE_ERROR": -32700,
    "INVALID_REQUEST": -32600,
    "METHOD_NOT_FOUND": -32601,
    "INVALID_PARAMS": -32602,
    "INTERNAL_ERROR": -32603,
    "CONNECTION_CLOSED": -32000,
    "REQUEST_TIMEOUT": -32001,
    "MISSING_REQUIRED_CLIENT_CAPABILITY": -32021,
    "URL_ELICITATION_REQUIRED": -32042,
}
LEGITIMATE_PROTOCOL_CODES = frozenset({-32021, -32042})


class Delivery(str, enum.Enum):
    """What the model sees when a tool raises a protocol error (McpError/MCPError)."""

    WRAPPED = "wrapped"  # a tool result with the message behind a framework prefix
    RESULT = "result"  # a tool result with exactly the message
    PROTOCOL = "protocol"  # a JSON-RPC error: the model never sees it
    MASKED = "masked"  # a tool result with a generic text


@dataclass(frozen=True)
class Channel:
    """How one framework release delivers failures raised inside a tool."""

    label: str
    protocol_error: Delivery  # raise McpError/MCPError(...)
    v1_constructor_crashes: bool  # McpError(ErrorData(...)) raises TypeError
    other_exception_text_reaches_model: bool  # ValueError("...") text delivered unmasked by default


def _row(label: str, protocol: Delivery, crash: bool, leaks: bool) -> Channel:
    return Channel(label, protocol, crash, leaks)


# (distribution, lowest version of the row, row). Ordered by version; a release uses the last row
# whose lowest version it reaches.
_CHANNEL_TABLE: dict[tuple[Family, str], tuple[tuple[str, Channel], ...]] = {
    (Family.MCP_FASTMCP, "mcp"): (
        ("1.0", _row("mcp 1.x FastMCP", Delivery.WRAPPED, False, True)),
    ),
    (Family.MCP_SERVER, "mcp"): (
        ("2.0", _row("mcp 2.0 MCPServer", Delivery.PROTOCOL, False, True)),
        ("2.1", _row("mcp 2.1+ MCPServer", Delivery.PROTOCOL, False, False)),
    ),
    (Family.MCP_LOWLEVEL, "mcp"): (
        ("1.0", _row("mcp 1.x low-level Server", Delivery.RESULT, False, True)),
        ("2.0", _row("mcp 2.x low-level Server", Delivery.PROTOCOL, False, False)),
    ),
    (Family.FASTMCP, "fastmcp"): (
        ("2.0", _row("fastmcp 2.x", Delivery.WRAPPED, False, True)),
        ("2.4", _row("fastmcp 2.4", Delivery.MASKED, False, False)),
        ("2.5", _row("fastmcp 2.x", Delivery.WRAPPED, False, True)),
        ("3.0", _row("fastmcp 3.x", Delivery.WRAPPED, False, True)),
        ("4.0", _row("fastmcp 4.x", Delivery.WRAPPED, True, True)),
    ),
}


def _releases(distribution: str) -> tuple[str, ...]:
    return MCP_RELEASES if distribution == "mcp" else FASTMCP_RELEASES


def distribution_for(family: Family) -> str:
    return "fastmcp" if family is Family.FASTMCP else "mcp"


@lru_cache(maxsize=None)
def candidate_versions(distribution: str, specifier: str) -> tuple[str, ...]:
    """The representative releases a specifier admits (all of them when it admits none)."""
    releases = _releases(distribution)
    try:
        spec = SpecifierSet(specifier)
    except InvalidSpecifier:
        return releases
    if specifier.startswith("==") and "*" not in specifier:
        return (specifier[2:].strip(),)
    kept = tuple(r for r in releases if spec.contains(r, prereleases=True))
    return kept or releases


@lru_cache(maxsize=None)
def version(text: str) -> Version:
    """A parsed release (memoised: the link step compares the same few releases thousands of times)."""
    return Version(text)


@lru_cache(maxsize=None)
def channel(family: Family, release: str) -> Channel | None:
    rows = _CHANNEL_TABLE.get((family, distribution_for(family)))
    if not rows:
        return None
    chosen = None
    v = version(release)
    for lowest, row in rows:
        if v >= version(lowest):
            chosen = row
    return chosen


@dataclass(frozen=True)
class FrameworkContext:
    """A tool's framework family plus the releases it may run on (from pins or the target)."""

    family: Family
    versions: tuple[str, ...]
    pinned_by: str = ""  # where the versions came from ("" = not pinned: all releases)

    @property
    def major_versions(self) -> frozenset[int]:
        return frozenset(version(v).major for v in self.versions)

    def channels(self) -> list[Channel]:
        seen: dict[str, Channel] = {}
        for release in self.versions:
            row = channel(self.family, release)
            if row is not None:
                seen.setdefault(row.label + row.protocol_error, row)
        return list(seen.values())

    def newest(self) -> tuple[str, Channel | None] | None:
        """The newest candidate release (what a fresh install gets) and its channel row."""
        if not self.versions:
            return None
        release = max(self.versions, key=version)
        return release, channel(self.family, release)

    def describe_exception_text_release(self) -> str:
        """What a message about forwarded exception text rests on: `describe()` when every
        candidate release agrees, else the release a fresh install gets, e.g. 'fastmcp 4.x (the
        newest release allowed by pyproject.toml)' (see ReachContext.forwards_exception_text)."""
        found = self.newest()
        if found is None or len({c.other_exception_text_reaches_model for c in self.channels()}) <= 1:
            return self.describe()
        newest, row = found
        text = row.label if row is not None else f"{self.family.value} {newest}"
        if len(self.versions) > 1:
            source = f" by {self.pinned_by}" if self.pinned_by else ""
            return f"{text} (the newest release allowed{source})"
        return f"{text} (from {self.pinned_by})" if self.pinned_by else text

    def describe(self) -> str:
        """The assumption a message rests on, e.g. 'fastmcp 3.x (pinned in pyproject.toml)'."""
        labels = sorted({c.label for c in self.channels()})
        text = " / ".join(labels) if labels else self.family.value
        if self.pinned_by:
            text += f" (from {self.pinned_by})"
        return text
