"""What each framework version does with a tool's failures, as data (see mcp-error-semantics.md).

Rules never hard-code framework behaviour: they ask this table. A new framework version is a new
row in ``FRAMEWORK_TABLE``; a new import path is a new entry in the name tables below.

The table: one ``Channel`` row per (family, version range), each fact copied from the semantics
doc (a field the doc is silent on stays None). A row carries what the client receives for
``ToolError`` (``tool_error``), a protocol error (``protocol_error``), any other exception
(``other_exception``, and ``masked_failure`` with the masking setting on), an argument validation
failure (``validation_failure``); what becomes of an explicit error result of each
``ResultShape`` (``error_results``, ``structured_error_result``); the masking switch
(``mask_setting``, ``mask_env``, ``mask_env_aliases``); what ``ErrorHandlingMiddleware()`` does (``error_middleware``);
and the constructor shapes (``v1_constructor``, ``protocol_error_constructor``, ``server_class``).

The API rules call:

- ``channel(family, release)``: the row of one release; ``first_release_where(family, pred)``:
  the release from which a fact holds.
- ``row.error_result(shape, structured_return=...)`` / ``row.error_result_survives(shape)``:
  ``CallToolResult(isError=True)``, ``CallToolResult(is_error=True)``, ``ToolResult(is_error=True)``;
  ``row.error_result_shapes``: the shapes that work (empty: raise ToolError instead).
- ``row.unexpected_exception(mask_setting)``, ``row.masks_unexpected_exceptions(mask_setting)``,
  ``row.exception_text_reaches_model(mask_setting)``, ``row.protocol_error_under(mask_setting)``.
- ``row.middleware_transforms_tool_errors`` / ``row.middleware_hides_tool_errors`` (None where
  the row's releases have no ErrorHandlingMiddleware; ``error_middleware_since()``: from which
  fastmcp release they do), ``row.v1_constructor_crashes`` / ``row.v1_constructor_fails``,
  ``row.has_mask_setting``, ``row.mask_setting`` / ``row.mask_env``
  (``row.mask_env_names``: every spelling the release reads, the deciding one first),
  ``row.mask_argument_overrides_env`` (does `mask_error_details=False` beat the variable?).
- ``FrameworkContext`` (a tool's family and candidate releases): ``every(pred)`` holds on every
  candidate release (what a rule may report when the version is unknown), ``any(pred)``,
  ``newest()`` (what a fresh install gets), ``describe()`` (what a message assumed),
  ``describe_where(pred)`` (the releases on which a fact holds), and
  ``protocol_error_phrase(tool)`` (what a protocol error raised by a tool becomes, rendered from the rows).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable

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
FASTMCP_RELEASES = ("2.3.0", "2.4.0", "2.5.0", "2.8.0", "2.9.0", "2.13.0", "2.14.7", "3.0.0", "3.3.0", "3.4.11", "4.0.0", "4.2.0")

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


def _names_of_server_classes() -> dict[str, tuple[Family, ...]]:
    """The last names of SERVER_CLASSES and the families that define each (`FastMCP`: mcp 1.x
    and fastmcp), leaving out the names too generic to tell a server by (REEXPORT_TOO_GENERIC)."""
    found: dict[str, dict[Family, None]] = {}
    for qualified, family in SERVER_CLASSES.items():
        name = qualified.rpartition(".")[2]
        if name not in REEXPORT_TOO_GENERIC:
            found.setdefault(name, {})[family] = None
    return {name: tuple(families) for name, families in found.items()}


# mcp's low-level `Server` shares its name with the HTTP, RPC and test servers of many libraries:
# an import of it from an unknown module says nothing about MCP.
REEXPORT_TOO_GENERIC = frozenset({"Server"})
# A library that re-exports a framework's server class (`from somelib.fastmcp import FastMCP`)
# is not one mcp-lint reads. A class or factory of that name imported from a module that is
# neither the project's nor a framework's is taken for the framework's, of the family the
# project's declared requirement names (reexported_family): never by the library's name.
REEXPORTED_SERVER_NAMES: dict[str, tuple[Family, ...]] = _names_of_server_classes()


def reexported_server_families(qualified: str | None) -> tuple[Family, ...]:
    """The families whose server class (or factory) `qualified`, a name outside the frameworks,
    is named like: what a library's re-export of it may be; () for any other name."""
    if not qualified or is_framework_name(qualified):
        return ()
    return REEXPORTED_SERVER_NAMES.get(qualified.rpartition(".")[2], ())


def reexported_family(candidates: tuple[Family, ...], declares_fastmcp: bool, mcp_specifier: str | None) -> Family | None:
    """The family of a re-exported server class of one of the `candidates` families, from what the
    project declares: fastmcp's when it requires fastmcp (fastmcp requires mcp itself, so a project
    naming both is written against fastmcp), else mcp's when it requires mcp (`FastMCP` on mcp 1.x,
    `MCPServer` on 2.x); None when it declares neither (or only the other family's framework)."""
    if declares_fastmcp and Family.FASTMCP in candidates:
        return Family.FASTMCP
    if mcp_specifier is None:
        return None
    majors = {version(v).major for v in candidate_versions("mcp", mcp_specifier)}
    mcp_families = [f for f in candidates if f is not Family.FASTMCP and family_majors(f) & majors]
    return mcp_families[0] if len(mcp_families) == 1 else None


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
# The frameworks' Tool classes themselves: a project subclass's `run` is a tool's code.
FRAMEWORK_TOOL_CLASSES = frozenset(name.rpartition(".")[0] for name in TOOL_FACTORIES)
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
# The frameworks' own bases of ToolError (short names, as a clause writes them): an `except` of
# one catches a ToolError raised in its `try` (both SDK lines and fastmcp derive it so).
TOOL_ERROR_BASE_NAMES = frozenset({"FastMCPError"})
# The request context a tool may take as a parameter (`ctx: Context`), whose `error`/`info`
# methods send a log message to the client: the packages that define one, and its short name.
FRAMEWORK_PACKAGES = frozenset({"mcp", "fastmcp"})
CONTEXT_CLASSES = frozenset({"Context"})
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
# to 4.x (read in the wheels).
ERROR_MIDDLEWARE_CLASSES = frozenset({"fastmcp.server.middleware.error_handling.ErrorHandlingMiddleware"})

# The method of a fastmcp middleware (2.9+) that every tool call runs through: what it returns is
# the call's result, what it raises reaches the framework as the tool's own exception would.
MIDDLEWARE_TOOL_HOOK = "on_call_tool"
# Where fastmcp's own middleware classes live (timing, logging, retries, rate limits): no author code.
FRAMEWORK_MIDDLEWARE_PACKAGE = "fastmcp."

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

# Every class and function of the frameworks that a rule or the model looks for, by its
# framework path. A copy of a framework inside a project is recognised by defining these classes
# at these places relative to its top package (framework_copies.py), whatever it is called.
FRAMEWORK_DEFINED_NAMES = frozenset(
    {
        *SERVER_CLASSES,
        *STANDALONE_TOOL_DECORATORS,
        *STANDALONE_NON_TOOL_DECORATORS,
        *(name.rpartition(".")[0] for name in (*TOOL_FACTORIES, *NON_TOOL_FACTORIES)),
        *FRAMEWORK_DOMAIN_ERRORS,
        *ERROR_MIDDLEWARE_CLASSES,
        *PROTOCOL_ERROR_CLASSES,
        *LEGITIMATE_PROTOCOL_ERRORS,
        *ERROR_DATA_CLASSES,
        *CALL_TOOL_RESULT_CLASSES,
        *TEXT_CONTENT_CLASSES,
        *TOOL_RESULT_CLASSES,
    }
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


# -- Framework behaviour, one row per (family, version range) -------------------------------
# Every fact below is taken from ../shared/docs/mcp-error-semantics.md (sections 2-5, 8, 9); a
# field the doc says nothing about is None. tests/test_framework_rows.py renders every row and
# checks it against the doc's sentences.


class Delivery(str, enum.Enum):
    """What the client receives for a failure (the doc's R(...) / E(...) notation)."""

    RESULT = "result"  # R(text): a tool result (isError: true) carrying the failure's own text
    WRAPPED = "wrapped"  # R(prefix + text): the text behind a framework prefix
    MASKED = "masked"  # R(generic text): nothing of the failure's text
    PROTOCOL = "protocol"  # E(code, message): a JSON-RPC error, which the model never sees


# What messages put where a template names the failure's own text.
_TEXT_SLOTS = {
    "{msg}": "<message>",
    "{message}": "<message>",
    "{e}": "<message>",
    "{pydantic}": "<validation error>",
    "{jsonschema}": "<schema validation error>",
}


@dataclass(frozen=True)
class Failure:
    """What the client receives for one kind of failure, as the doc writes it: `text` is the
    template inside R(`...`) ({name} the tool, {msg}/{message}/{e} the failure's text, {pydantic}
    a pydantic error, {jsonschema} mcp's jsonschema error), or the argument list inside E(...)."""

    delivery: Delivery
    text: str

    def notation(self) -> str:
        """The doc's notation: R(`Error calling tool '{name}'`), E(code, message, data)."""
        return f"E({self.text})" if self.delivery is Delivery.PROTOCOL else f"R(`{self.text}`)"

    def seen_by_model(self, tool: str) -> str:
        """The tool-result text with the tool's name in it ('Error executing tool t: <message>')."""
        text = self.text.replace("{name}", tool)
        for slot, shown in _TEXT_SLOTS.items():
            text = text.replace(slot, shown)
        return text

    @property
    def text_reaches_model(self) -> bool:
        return self.delivery in (Delivery.RESULT, Delivery.WRAPPED)


class ResultShape(str, enum.Enum):
    """The ways a tool returns an error result explicitly (doc section 3)."""

    CALL_TOOL_RESULT = "CallToolResult(..., isError=True)"
    CALL_TOOL_RESULT_SNAKE = "CallToolResult(..., is_error=True)"
    TOOL_RESULT = "ToolResult(..., is_error=True)"  # fastmcp


class ResultOutcome(str, enum.Enum):
    """What becomes of an explicit error result."""

    DELIVERED = "delivered with isError: true"
    SERIALIZED = "serialized into a text block, isError: false on the wire"
    FLAG_IGNORED = "is_error silently ignored, isError: false on the wire"
    TYPE_ERROR = "raises TypeError"
    INVALID = "iterated as content, fails validation"
    OUTPUT_VALIDATED = "its text replaced by an output-validation error"


class Construction(str, enum.Enum):
    """What the v1 constructor `McpError(ErrorData(...))` does (doc section 4)."""

    WORKS = "works"
    TYPE_ERROR = "raises TypeError"
    IMPORT_ERROR = "fails to import (no McpError name)"


class MiddlewareEffect(str, enum.Enum):
    """What fastmcp's `ErrorHandlingMiddleware()` (transform_errors on) does to tool failures."""

    PREFIXES_TEXT = "R(`Internal error: …`) etc."  # protocol-style prefixes, still a tool result
    # The same, but the tool manager has already wrapped every exception other than ToolError into
    # ToolError("Error calling tool 'x': ..."), so each arrives as R(`Internal error: Error calling
    # tool 'x': …`) and none as `Invalid params` / `Not found` (fastmcp 2.9-2.13).
    PREFIXES_WRAPPED_TEXT = "R(`Internal error: Error calling tool '{name}': …`)"
    PROTOCOL_ERROR = "E(-32603 / -32602 / -32001)"  # every tool failure becomes a JSON-RPC error


@dataclass(frozen=True)
class Channel:
    """One row of the framework table: how the releases of one family from `since` on (until the
    next row) deliver a tool's failures, and what they do with explicit error results."""

    family: Family
    since: str  # lowest release of the row
    span: str  # the releases the doc names for the row ("2.5–2.9", "4.x")
    label: str  # how a message names the assumption ("fastmcp 3.x"); rows of one line share it
    series: str  # how a message names the server API after "on" ("the mcp 1.x low-level Server")
    protocol_error: Failure  # raise McpError/MCPError(...)
    other_exception: Failure  # raise ValueError(...) or any other unexpected exception
    tool_error: Failure | None = None  # raise ToolError(...); None: the API has no ToolError
    validation_failure: Failure | None = None  # arguments that fail the signature's validation
    masked_failure: Failure | None = None  # protocol and other exceptions with masking on
    mask_setting: str | None = None  # the constructor argument that turns masking on
    mask_env: str | None = None  # ... and the environment variable (the spelling a fix names)
    # Other spellings of the variable the releases also read (a deprecated prefix), after
    # `mask_env`: when both are set, `mask_env` decides (see `mask_env_names`).
    mask_env_aliases: tuple[str, ...] = ()
    # An explicit `mask_error_details=False` (or any value) in the constructor beats the
    # environment variable; False where the framework ORs the two (`argument or settings`).
    mask_argument_overrides_env: bool = True
    # ResultShape -> outcome for a tool without a structured return annotation (None: unknown).
    error_results: tuple[tuple[ResultShape, ResultOutcome], ...] = ()
    # CallToolResult(isError=True) from a tool whose return annotation is structured (None: as
    # error_results says).
    structured_error_result: ResultOutcome | None = None
    v1_constructor: Construction | None = None
    # What ErrorHandlingMiddleware() does; None: the row's releases have no such middleware.
    error_middleware: MiddlewareEffect | None = None
    protocol_error_constructor: str = ""  # how a protocol error is built on this row
    server_class: str = ""

    # -- the API rules call ------------------------------------------------------------------
    def error_result(self, shape: ResultShape, *, structured_return: bool = False) -> ResultOutcome | None:
        """What becomes of an explicit error result of `shape` (None: the doc does not say)."""
        outcome = dict(self.error_results).get(shape)
        if structured_return and shape is not ResultShape.TOOL_RESULT and self.structured_error_result is not None:
            if outcome is not ResultOutcome.FLAG_IGNORED:
                return self.structured_error_result
        return outcome

    def error_result_survives(self, shape: ResultShape, *, structured_return: bool = False) -> bool | None:
        """Does `shape` reach the client as an error result (isError: true)? None: unknown."""
        outcome = self.error_result(shape, structured_return=structured_return)
        return None if outcome is None else outcome is ResultOutcome.DELIVERED

    @property
    def error_result_shapes(self) -> tuple[ResultShape, ...]:
        """The ways of returning an error result that work on this row (none: raise instead)."""
        return tuple(shape for shape, outcome in self.error_results if outcome is ResultOutcome.DELIVERED)

    def unexpected_exception(self, mask_setting: bool = False) -> Failure:
        """What the client receives for a non-ToolError exception, with the masking setting on
        or off (a row without the setting ignores it)."""
        if mask_setting and self.masked_failure is not None:
            return self.masked_failure
        return self.other_exception

    def protocol_error_under(self, mask_setting: bool = False) -> Failure:
        """What the client receives for a raised McpError/MCPError, masking on or off."""
        if mask_setting and self.masked_failure is not None and self.protocol_error.delivery is not Delivery.PROTOCOL:
            return self.masked_failure
        return self.protocol_error

    def masks_unexpected_exceptions(self, mask_setting: bool = False) -> bool:
        """Does the model get only a generic text for an unexpected exception?"""
        return self.unexpected_exception(mask_setting).delivery is Delivery.MASKED

    def exception_text_reaches_model(self, mask_setting: bool = False) -> bool:
        """Does an unexpected exception's own text reach the model?"""
        return self.unexpected_exception(mask_setting).text_reaches_model

    @property
    def other_exception_text_reaches_model(self) -> bool:
        """... with the defaults (no masking setting)."""
        return self.exception_text_reaches_model(False)

    @property
    def has_mask_setting(self) -> bool:
        return self.mask_setting is not None

    @property
    def mask_env_names(self) -> tuple[str, ...]:
        """Every environment variable that sets masking on this row, in the order the framework
        looks them up: the first one set decides, whatever the later ones say."""
        return (self.mask_env, *self.mask_env_aliases) if self.mask_env else ()

    @property
    def v1_constructor_crashes(self) -> bool:
        """`McpError(ErrorData(...))` raises TypeError when the tool runs."""
        return self.v1_constructor is Construction.TYPE_ERROR

    @property
    def v1_constructor_fails(self) -> bool:
        """`McpError(ErrorData(...))` cannot work: TypeError (fastmcp 4.x) or no McpError name to
        import (mcp 2.x, where `MCPError(ErrorData(...))` is the TypeError)."""
        return self.v1_constructor in (Construction.TYPE_ERROR, Construction.IMPORT_ERROR)

    @property
    def middleware_transforms_tool_errors(self) -> bool | None:
        """Does ErrorHandlingMiddleware() rewrite tool failures? None: the row has no such class."""
        return None if self.error_middleware is None else True

    @property
    def middleware_hides_tool_errors(self) -> bool | None:
        """... into JSON-RPC errors the model never sees (fastmcp 4.x)?"""
        return None if self.error_middleware is None else self.error_middleware is MiddlewareEffect.PROTOCOL_ERROR

    # -- wording -----------------------------------------------------------------------------
    def protocol_error_phrase(self, tool: str) -> str:
        """What happens to a raised McpError/MCPError, as a clause after 'on <series>'."""
        failure = self.protocol_error
        if failure.delivery is Delivery.PROTOCOL:
            return "the client gets a JSON-RPC error and the model never sees it"
        if failure.delivery is Delivery.RESULT:
            return "it arrives as plain tool-result text, not a protocol error"
        shown = failure.seen_by_model(tool)
        if failure.delivery is Delivery.MASKED:
            return f"it is not a protocol error at all, the model gets only '{shown}' and the message is lost"
        if self.mask_setting:
            return f"it is wrapped into '{shown}' and lost entirely with {self.mask_setting}=True"
        return f"it is not a protocol error at all, the model gets '{shown}', which misleads readers of the code"

    def protocol_error_short(self, tool: str) -> str:
        """The same, in a few words (for the other candidate releases of a message)."""
        failure = self.protocol_error
        if failure.delivery is Delivery.PROTOCOL:
            return "a JSON-RPC error the model never sees"
        if failure.delivery is Delivery.RESULT:
            return "plain tool-result text"
        shown = failure.seen_by_model(tool)
        return f"only '{shown}'" if failure.delivery is Delivery.MASKED else f"'{shown}'"

    def _protocol_key(self) -> tuple[Failure, str | None]:
        return self.protocol_error, (self.mask_setting if self.protocol_error.delivery is Delivery.WRAPPED else None)


def _results(**outcomes: ResultOutcome) -> tuple[tuple[ResultShape, ResultOutcome], ...]:
    names = {"call_tool_result": ResultShape.CALL_TOOL_RESULT, "snake": ResultShape.CALL_TOOL_RESULT_SNAKE, "tool_result": ResultShape.TOOL_RESULT}
    return tuple((names[key], value) for key, value in outcomes.items())


_R, _W, _M, _E = Delivery.RESULT, Delivery.WRAPPED, Delivery.MASKED, Delivery.PROTOCOL
_V1_ERROR = "McpError(ErrorData(code=…, message=…, data=…))"
_V2_ERROR = "MCPError(code, message, data=None)"

# mcp 1.x high level (doc 2a "mcp 1.6 / 1.9", "mcp 1.30"; 3 "mcp 1.6 / 1.9 FastMCP" .. "mcp 1.19–1.30").
_MCP1_FASTMCP = Channel(
    Family.MCP_FASTMCP,
    "1.0",
    "1.6 / 1.9",
    "mcp 1.x FastMCP",
    "mcp 1.x FastMCP",
    tool_error=Failure(_W, "Error executing tool {name}: {msg}"),
    protocol_error=Failure(_W, "Error executing tool {name}: {message}"),
    other_exception=Failure(_W, "Error executing tool {name}: {e}"),
    validation_failure=Failure(_W, "Error executing tool {name}: {pydantic}"),
    error_results=_results(call_tool_result=ResultOutcome.SERIALIZED, snake=ResultOutcome.SERIALIZED),
    v1_constructor=Construction.WORKS,
    protocol_error_constructor=_V1_ERROR,
    server_class="mcp.server.fastmcp.FastMCP",
)
_MCP1_FASTMCP_110 = replace(_MCP1_FASTMCP, since="1.10", span="1.10–1.18", structured_error_result=ResultOutcome.OUTPUT_VALIDATED)
_MCP1_FASTMCP_119 = replace(
    _MCP1_FASTMCP_110,
    since="1.19",
    span="1.19–1.30",
    error_results=_results(call_tool_result=ResultOutcome.DELIVERED, snake=ResultOutcome.FLAG_IGNORED),
)

# mcp 2.x high level (doc 2a "mcp 2.0.x MCPServer", "mcp 2.1–2.3 MCPServer"; 3 "mcp 2.x MCPServer").
_MCP2_SERVER = Channel(
    Family.MCP_SERVER,
    "2.0",
    "2.0",
    "mcp 2.0 MCPServer",
    "mcp 2.x MCPServer",
    tool_error=Failure(_W, "Error executing tool {name}: {msg}"),
    protocol_error=Failure(_E, "code, message, data"),
    other_exception=Failure(_W, "Error executing tool {name}: {e}"),
    validation_failure=Failure(_W, "Error executing tool {name}: {pydantic}"),
    error_results=_results(call_tool_result=ResultOutcome.DELIVERED, snake=ResultOutcome.DELIVERED),
    # Not in the doc, which read 2.0 from 2.3's code: mcp 2.0.1 still validates an error result's
    # structuredContent against the output model (func_metadata.convert_result, as mcp 1.19-1.30);
    # 2.1.0 skips it (`not result.is_error`). Run by tests/semantics on 2.0.1 and 2.3.0.
    structured_error_result=ResultOutcome.OUTPUT_VALIDATED,
    v1_constructor=Construction.IMPORT_ERROR,
    protocol_error_constructor=_V2_ERROR,
    server_class="mcp.server.mcpserver.MCPServer",
)
_MCP2_SERVER_21 = replace(
    _MCP2_SERVER,
    since="2.1",
    span="2.1–2.3",
    label="mcp 2.1+ MCPServer",
    other_exception=Failure(_M, "Error executing tool {name}"),
    structured_error_result=ResultOutcome.DELIVERED,  # §3 / §8 mcp 2.3: output validation skipped when is_error
)

# Low-level servers (doc 2a "mcp 1.x low-level", "mcp 2.x low-level"; 3; 5).
_MCP1_LOWLEVEL = Channel(
    Family.MCP_LOWLEVEL,
    "1.0",
    "1.6–1.18",
    "mcp 1.x low-level Server",
    "the mcp 1.x low-level Server",
    protocol_error=Failure(_R, "{message}"),
    other_exception=Failure(_R, "{e}"),
    error_results=_results(call_tool_result=ResultOutcome.INVALID, snake=ResultOutcome.INVALID),
    v1_constructor=Construction.WORKS,
    protocol_error_constructor=_V1_ERROR,
    server_class="mcp.server.lowlevel.Server",
)
_MCP1_LOWLEVEL_119 = replace(
    _MCP1_LOWLEVEL,
    since="1.19",
    span="1.19–1.30",
    error_results=_results(call_tool_result=ResultOutcome.DELIVERED, snake=ResultOutcome.FLAG_IGNORED),
)
_MCP2_LOWLEVEL = replace(
    _MCP1_LOWLEVEL,
    since="2.0",
    span="2.x",
    label="mcp 2.x low-level Server",
    series="the mcp 2.x low-level Server",
    protocol_error=Failure(_E, "code, message, data"),
    other_exception=Failure(_E, "0, `{e}`"),  # handshake-era connections; -32603 on 2026-07-28 ones
    error_results=_results(call_tool_result=ResultOutcome.DELIVERED, snake=ResultOutcome.DELIVERED),
    v1_constructor=Construction.IMPORT_ERROR,
    protocol_error_constructor=_V2_ERROR,
)

# fastmcp (doc 2a "fastmcp 2.3.0" .. "fastmcp 4.0–4.2"; 2b ErrorHandlingMiddleware; 3; 4).
_CALLING = "Error calling tool '{name}'"
_FASTMCP_23 = Channel(
    Family.FASTMCP,
    "2.0",  # releases before 2.3 fall back to the 2.3.0 row the doc examined
    "2.3",
    "fastmcp 2.x",
    "fastmcp 2.3",
    tool_error=Failure(_W, "Error executing tool {name}: {msg}"),
    protocol_error=Failure(_W, "Error executing tool {name}: {message}"),
    other_exception=Failure(_W, "Error executing tool {name}: {e}"),
    validation_failure=Failure(_W, "Error executing tool {name}: {pydantic}"),
    error_results=_results(call_tool_result=ResultOutcome.SERIALIZED, snake=ResultOutcome.SERIALIZED),
    v1_constructor=Construction.WORKS,
    protocol_error_constructor=_V1_ERROR,
    server_class="fastmcp.FastMCP",
)
_FASTMCP_24 = replace(
    _FASTMCP_23,
    since="2.4",
    span="2.4",
    label="fastmcp 2.4",
    series="fastmcp 2.4",
    tool_error=Failure(_R, "{msg}"),
    protocol_error=Failure(_M, _CALLING),
    other_exception=Failure(_M, _CALLING),
    validation_failure=Failure(_M, _CALLING),
)
# The masking switch, read in the wheels (fastmcp/settings.py, server.py, tools/tool_manager.py):
# 2.5-2.7 keep it in `ServerSettings` (env_prefix FASTMCP_SERVER_ only) and an explicit
# constructor argument replaces it; 2.8-2.13 read the global `settings.mask_error_details` through
# `ExtendedEnvSettingsSource`, which tries the prefixes FASTMCP_ then the deprecated FASTMCP_SERVER_
# and takes the first variable set (FASTMCP_MASK_ERROR_DETAILS=false beats
# FASTMCP_SERVER_MASK_ERROR_DETAILS=true); 2.14 drops the old prefix (env_prefix FASTMCP_ only).
# From 2.8 to 2.14 `ToolManager` ORs the setting with the argument, so `mask_error_details=False`
# cannot turn the environment's True off; 3.x and 4.x take the argument when it is not None, else
# the setting (FASTMCP_ only). tests/semantics runs each spelling on 2.7.1, 2.8.1, 2.13.3, 2.14.7.
_FASTMCP_25 = replace(
    _FASTMCP_24,
    since="2.5",
    span="2.5–2.7",
    label="fastmcp 2.x",
    series="fastmcp 2.x",
    protocol_error=Failure(_W, _CALLING + ": {message}"),
    other_exception=Failure(_W, _CALLING + ": {e}"),
    validation_failure=Failure(_W, _CALLING + ": {pydantic}"),
    masked_failure=Failure(_M, _CALLING),
    mask_setting="mask_error_details",
    mask_env="FASTMCP_SERVER_MASK_ERROR_DETAILS",
)
_FASTMCP_28 = replace(
    _FASTMCP_25,
    since="2.8",
    span="2.8",
    mask_env="FASTMCP_MASK_ERROR_DETAILS",
    mask_env_aliases=("FASTMCP_SERVER_MASK_ERROR_DETAILS",),
    mask_argument_overrides_env=False,
)
# ErrorHandlingMiddleware first ships in fastmcp 2.9.0 (fastmcp/server/middleware/error_handling.py;
# the 2.8.1 wheel has no fastmcp/server/middleware at all). The doc's §2b describes what it does
# but not when it appears: read in the wheels, and run on 2.3.0/2.4.0 (import fails) and 2.14.7 by
# tests/semantics.
# Run by tests/semantics on 2.9.2, 2.12.5 and 2.13.3: the middleware sees a ValueError already
# wrapped into ToolError by the tool manager (`Internal error: Error calling tool 'x': ...`); from
# 2.14 it sees the exception itself (`Invalid params: ...`).
_FASTMCP_29 = replace(_FASTMCP_28, since="2.9", span="2.9", error_middleware=MiddlewareEffect.PREFIXES_WRAPPED_TEXT)
_FASTMCP_210 = replace(  # ToolResult from 2.10, without an error flag
    _FASTMCP_29,
    since="2.10",
    span="2.10–2.12",
    error_results=_results(call_tool_result=ResultOutcome.SERIALIZED, snake=ResultOutcome.SERIALIZED, tool_result=ResultOutcome.TYPE_ERROR),
    # Not in the doc: 2.10-2.12 require mcp >= 1.10 and register mcp's `call_tool()` with its
    # default validate_input=True, so mcp's jsonschema check answers first (run on 2.12.5 with
    # mcp 1.16.0); 2.13 registers it with `strict_input_validation` (False).
    validation_failure=Failure(_R, "Input validation error: {jsonschema}"),
)
_FASTMCP_213 = replace(_FASTMCP_210, since="2.13", span="2.13", validation_failure=Failure(_R, "{pydantic}"))
_FASTMCP_214 = replace(  # FASTMCP_SERVER_ no longer read; the middleware sees the exception itself
    _FASTMCP_213, since="2.14", span="2.14", mask_env_aliases=(), error_middleware=MiddlewareEffect.PREFIXES_TEXT
)
_FASTMCP_30 = replace(_FASTMCP_214, since="3.0", span="3.0–3.3", label="fastmcp 3.x", series="fastmcp 3.x", mask_argument_overrides_env=True)
_FASTMCP_34 = replace(
    _FASTMCP_30,
    since="3.4",
    span="3.4",
    error_results=_results(call_tool_result=ResultOutcome.SERIALIZED, snake=ResultOutcome.SERIALIZED, tool_result=ResultOutcome.DELIVERED),
)
_FASTMCP_40 = replace(
    _FASTMCP_34,
    since="4.0",
    span="4.0–4.2",
    label="fastmcp 4.x",
    series="fastmcp 4.x",
    error_results=_results(call_tool_result=ResultOutcome.DELIVERED, snake=ResultOutcome.DELIVERED, tool_result=ResultOutcome.DELIVERED),
    v1_constructor=Construction.TYPE_ERROR,
    error_middleware=MiddlewareEffect.PROTOCOL_ERROR,
    protocol_error_constructor=_V2_ERROR,
)

# Rows per family, ordered by version; a release uses the last row whose `since` it reaches.
FRAMEWORK_TABLE: dict[Family, tuple[Channel, ...]] = {
    Family.MCP_FASTMCP: (_MCP1_FASTMCP, _MCP1_FASTMCP_110, _MCP1_FASTMCP_119),
    Family.MCP_SERVER: (_MCP2_SERVER, _MCP2_SERVER_21),
    Family.MCP_LOWLEVEL: (_MCP1_LOWLEVEL, _MCP1_LOWLEVEL_119, _MCP2_LOWLEVEL),
    Family.FASTMCP: (_FASTMCP_23, _FASTMCP_24, _FASTMCP_25, _FASTMCP_28, _FASTMCP_29, _FASTMCP_210, _FASTMCP_213, _FASTMCP_214, _FASTMCP_30, _FASTMCP_34, _FASTMCP_40),
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
    """The row `release` of `family` falls in (None before the first row, or for UNKNOWN)."""
    chosen = None
    v = version(release)
    for row in FRAMEWORK_TABLE.get(family, ()):
        if v >= version(row.since):
            chosen = row
    return chosen


@lru_cache(maxsize=None)
def family_majors(family: Family) -> frozenset[int]:
    """The major versions a family's rows cover (mcp FastMCP: {1}, MCPServer: {2})."""
    return frozenset(version(row.since).major for row in FRAMEWORK_TABLE.get(family, ()))


def first_release_where(family: Family, holds: Callable[[Channel], bool | None]) -> str | None:
    """The lowest release from which `holds` is true on every later row of `family` ('1.19' for
    a low-level CallToolResult(isError=True)), None when it is false on the newest row."""
    since = None
    for row in FRAMEWORK_TABLE.get(family, ()):
        since = (since or row.since) if holds(row) is True else None
    return since


def error_middleware_since() -> str | None:
    """The fastmcp release from which ErrorHandlingMiddleware exists ('2.9'), from the rows."""
    return first_release_where(Family.FASTMCP, lambda row: row.error_middleware is not None)


def high_level_family(specifier: str) -> Family:
    """The mcp high-level server family every release a pin of `mcp` admits belongs to."""
    majors = {version(v).major for v in candidate_versions("mcp", specifier)}
    for family in (Family.MCP_FASTMCP, Family.MCP_SERVER):
        if majors <= family_majors(family):
            return family
    return Family.UNKNOWN


def framework_context(family: Family, major: int | None, pin: tuple[str, str] | None) -> FrameworkContext:
    """The releases a tool of `family` may run on: those its pin (specifier, source) admits,
    narrowed to the family's major version (or the registration form's, for the low level)."""
    if family is Family.UNKNOWN:
        return FrameworkContext(family, ())
    dist = distribution_for(family)
    specifier, source = pin if pin is not None else ("", "")
    versions = candidate_versions(dist, specifier)
    majors = family_majors(family)
    wanted = next(iter(majors)) if len(majors) == 1 else major
    if wanted is not None:
        narrowed = tuple(v for v in versions if version(v).major == wanted)
        if not narrowed:
            narrowed = tuple(v for v in candidate_versions(dist, "") if version(v).major == wanted)
        versions = narrowed
    return FrameworkContext(family, versions, source)


@dataclass(frozen=True)
class FrameworkContext:
    """A tool's framework family plus the releases it may run on (from pins or the target).

    Rules ask it what holds on every candidate release (`every`), on some (`any`), or on the
    release a fresh install gets (`newest`); messages say what they assumed (`describe`).
    """

    family: Family
    versions: tuple[str, ...]
    pinned_by: str = ""  # where the versions came from ("" = not pinned: all releases)

    def channels(self) -> list[Channel]:
        """The distinct rows of the candidate releases, oldest first."""
        seen: dict[Channel, None] = {}
        for release in sorted(self.versions, key=version):
            row = channel(self.family, release)
            if row is not None:
                seen.setdefault(row)
        return list(seen)

    def every(self, holds: Callable[[Channel], bool | None], *, mask_setting: bool = False) -> bool:
        """Does `holds` hold on every candidate release? False when a release has no row.

        With `mask_setting`, rows without the setting are left out when some row has it: the
        setting written in the code says the project runs a release that has it."""
        rows = [channel(self.family, release) for release in self.versions]
        if not rows or any(row is None for row in rows):
            return False
        kept = [row for row in rows if row is not None and (row.has_mask_setting or not mask_setting)]
        return all(holds(row) is True for row in (kept or rows) if row is not None)

    def any(self, holds: Callable[[Channel], bool | None]) -> bool:
        """Does `holds` hold on some candidate release?"""
        return any(holds(row) is True for row in self.channels())

    def describe_where(self, holds: Callable[[Channel], bool | None]) -> str:
        """The labels of the candidate rows on which `holds` is true, with their source ('fastmcp
        2.x / fastmcp 3.x (from pyproject.toml)'): for a message about a fact that holds only on
        some of the releases the project may run."""
        labels = sorted({row.label for row in self.channels() if holds(row) is True})
        return " / ".join(labels) + self.source if labels else ""

    def newest(self) -> tuple[str, Channel | None] | None:
        """The newest candidate release (what a fresh install gets) and its channel row."""
        if not self.versions:
            return None
        release = max(self.versions, key=version)
        return release, channel(self.family, release)

    def forwards_exception_text(self, mask_setting: bool) -> bool:
        """Does an unexpected exception's text reach the model on the newest candidate release?"""
        found = self.newest()
        if found is None or found[1] is None:
            return False
        return found[1].exception_text_reaches_model(mask_setting)

    @property
    def source(self) -> str:
        """' (from pyproject.toml)' when the versions come from the project's pins, else ''."""
        return f" (from {self.pinned_by})" if self.pinned_by else ""

    def labels(self) -> str:
        """The rows' labels, e.g. 'fastmcp 3.x / fastmcp 4.x'."""
        return " / ".join(sorted({c.label for c in self.channels()}))

    def describe_exception_text_release(self) -> str:
        """What a message about forwarded exception text rests on: `describe()` when every
        candidate release agrees, else the release a fresh install gets, e.g. 'fastmcp 4.x (the
        newest release allowed by pyproject.toml)' (see RenderContext.forwards_exception_text)."""
        found = self.newest()
        if found is None or len({c.other_exception_text_reaches_model for c in self.channels()}) <= 1:
            return self.describe()
        newest, row = found
        text = row.label if row is not None else f"{self.family.value} {newest}"
        if len(self.versions) > 1:
            source = f" by {self.pinned_by}" if self.pinned_by else ""
            return f"{text} (the newest release allowed{source})"
        return f"{text}{self.source}"

    def describe(self) -> str:
        """The assumption a message rests on, e.g. 'fastmcp 3.x (pinned in pyproject.toml)'."""
        return (self.labels() or self.family.value) + self.source

    def protocol_error_phrase(self, tool: str) -> str:
        """What the model receives when a tool raises McpError/MCPError, rendered from the rows:
        'on <releases> <what happens>', the newest behaviour first and the others after it."""
        rows = self.channels()
        if not rows:
            return "depending on the framework version the model gets wrapped text or nothing at all"
        groups: dict[tuple[Failure, str | None], list[Channel]] = {}
        for row in reversed(rows):  # newest first
            groups.setdefault(row._protocol_key(), []).append(row)
        named = [(self._group_name(members, groups, rows), members[0]) for members in groups.values()]
        (first_name, first), others = named[0], named[1:]
        phrase = f"on {first_name}{self.source} {first.protocol_error_phrase(tool)}"
        if others:
            phrase += " (" + "; ".join(f"{name}: {row.protocol_error_short(tool)}" for name, row in others) + ")"
        return phrase

    def _group_name(self, members: list[Channel], groups: dict[tuple[Failure, str | None], list[Channel]], rows: list[Channel]) -> str:
        """How a message names the rows of one behaviour (`members`, newest first): their series
        ('fastmcp 4.x') when every candidate behaves alike, else their version range ('mcp 1.x',
        'fastmcp 2.5+', 'fastmcp 2.4')."""
        if len(groups) == 1:
            return " / ".join(sorted({row.series for row in members}))
        dist = distribution_for(self.family)
        majors = sorted({version(row.since).major for row in members})
        same_majors = [row for row in FRAMEWORK_TABLE[self.family] if version(row.since).major in majors]
        if all(row in members for row in same_majors):
            return " / ".join(f"{dist} {major}.x" for major in majors)
        oldest, newest = members[-1], members[0]
        if newest is rows[-1] and len(members) > 1:
            return f"{dist} {oldest.since}+"
        if oldest is newest:
            return f"{dist} {oldest.span}"
        return f"{dist} {oldest.span.split('–')[0]}–{newest.span.split('–')[-1]}"
