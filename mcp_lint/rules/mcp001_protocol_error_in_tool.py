"""MCP001 protocol-error-in-tool: a tool raises or returns a JSON-RPC error for its own failure."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

import libcst as cst

from mcp_lint.findings import Applicability, Edit
from mcp_lint.model.exception_guards import catches
from mcp_lint.model.facts import FunctionFacts, RaiseFact
from mcp_lint.model.frameworks import (
    ERROR_CODE_NAMES,
    ERROR_DATA_CLASSES,
    LEGITIMATE_PROTOCOL_CODES,
)
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.summary import Latent, Payload
from mcp_lint.rules.base import (
    PH_TOOL_ERROR,
    Example,
    FileContext,
    FixSpec,
    LinkedProject,
    Reach,
    RenderContext,
    Rendered,
    Rule,
    Span,
    node_span,
)
from mcp_lint.rules.dispatch_miss import misses_every_tool
from mcp_lint.rules.common import (
    arg,
    describe_failure,
    error_result_expr,
    is_protocol_error_class,
    lowlevel_failure_advice,
    lowlevel_result_supported,
    protocol_error_built_by,
    toolerror_available,
)
from mcp_lint.vocabulary import UNKNOWN_TOOL


def _code_text(expr: cst.BaseExpression | None) -> str:
    if expr is None:
        return ""
    if type(expr) is cst.Integer:
        return expr.value
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus and type(expr.expression) is cst.Integer:
        return "-" + expr.expression.value
    return last_name(dotted(expr) or "")


def _is_legitimate_code(code: str) -> bool:
    if code in ERROR_CODE_NAMES:
        return ERROR_CODE_NAMES[code] in LEGITIMATE_PROTOCOL_CODES
    try:
        return int(code) in LEGITIMATE_PROTOCOL_CODES
    except ValueError:
        return False


def _unpack_protocol_error(call: cst.Call, ctx: FileContext) -> tuple[str, cst.BaseExpression | None, str]:
    """(api, message expression, code) of McpError(ErrorData(...)) / MCPError(code, message)."""
    first = arg(call, 0, "error")
    if type(first) is cst.Call and (ctx.model.aliases.resolve(first.func) in ERROR_DATA_CLASSES or last_name(dotted(first.func) or "") == "ErrorData"):
        return "v1", arg(first, 1, "message"), _code_text(arg(first, 0, "code"))
    return "v2", arg(call, 1, "message"), _code_text(arg(call, 0, "code"))


class ProtocolErrorInTool(Rule):
    code = "MCP001"
    name = "protocol-error-in-tool"

    INVALID = (
        Example(
            """\
from mcp.server.mcpserver import MCPServer
from mcp import MCPError
from mcp.types import INVALID_PARAMS

mcp = MCPServer("notes")

@mcp.tool()
def read_note(note_id: str) -> str:
    note = NOTES.get(note_id)
    if note is None:
        raise MCPError(INVALID_PARAMS, f"Note {note_id} not found")
    return note
""",
            flagged=(11,),
            fixed="""\
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("notes")

@mcp.tool()
def read_note(note_id: str) -> str:
    note = NOTES.get(note_id)
    if note is None:
        raise ToolError(f"Note {note_id} not found")
    return note
""",
        ),
        Example(
            """\
from fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import ErrorData, INTERNAL_ERROR

app = FastMCP("orders")

@app.tool
async def cancel_order(order_id: int) -> str:
    if order_id in SHIPPED:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message="Order already shipped"))
    return "cancelled"
""",
            flagged=(10,),
            fixed="""\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

app = FastMCP("orders")

@app.tool
async def cancel_order(order_id: int) -> str:
    if order_id in SHIPPED:
        raise ToolError("Order already shipped")
    return "cancelled"
""",
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("notes")

@mcp.tool()
def read_note(note_id: str) -> str:
    if note_id not in NOTES:
        raise ToolError(f"Note {note_id} not found; call list_notes to see valid ids")
    return NOTES[note_id]
"""
        ),
        Example(
            """\
from mcp.server.mcpserver import MCPServer, ResourceError
from mcp import MCPError

mcp = MCPServer("notes")

@mcp.resource("note://{note_id}")
def note(note_id: str) -> str:
    if note_id not in NOTES:
        raise MCPError(-32602, f"Unknown note {note_id}")
    return NOTES[note_id]
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        for fact in fn.raises:
            exc = fact.node.exc
            if type(exc) is cst.Name:
                # `err = McpError(...)` then `raise err`: the local's one value is what is raised.
                exc = fn.value_of(exc)
            if type(exc) is not cst.Call:
                continue
            factory = self._factory_raise(fn, fact, exc, ctx)
            if factory is not None:
                yield factory
                continue
            resolved = ctx.model.aliases.resolve(exc.func)
            if not is_protocol_error_class(resolved, dotted(exc.func)):
                subclass = self._subclass_raise(fn, fact, exc, resolved, ctx)
                if subclass is not None:
                    yield subclass
                continue
            if fact.caught_here(last_name(resolved)):
                continue
            api, message, code = _unpack_protocol_error(exc, ctx)
            if _is_legitimate_code(code):
                continue
            # `msg = f"Unknown tool: {name}"` just before the raise reads as the literal itself.
            text = literal_text(fn.value_of(message)) if message is not None else None
            unknown_tool = bool(text and UNKNOWN_TOOL.search(text)) or misses_every_tool(fn, fact.conditions)
            payload = ProtocolError(
                cls=last_name(resolved),
                api=api,
                what=describe_failure(text or "", code),
                stmt=node_span(ctx, fact.node),
                unknown_tool=unknown_tool,
                msg=ctx.source(message) if message is not None else "",
                origin=resolved or "",
                exc=node_span(ctx, exc),
                raise_caught=fact.caught_here("ToolError"),
                cause=f" from {fact.handler.name}" if fact.node.cause is None and fact.handler is not None and fact.handler.name else "",
            )
            yield self.latent(ctx, fact.node, variant="raise", route="raise", payload=payload)
        for ret in fn.returns:
            value = ret.node.value
            if type(value) is cst.Call and (
                ctx.model.aliases.resolve(value.func) in ERROR_DATA_CLASSES
            ):
                message = arg(value, 1, "message")
                code = _code_text(arg(value, 0, "code"))
                text = literal_text(message) if message is not None else None
                if _is_legitimate_code(code):
                    continue
                unknown_tool = bool(text and UNKNOWN_TOOL.search(text)) or misses_every_tool(fn, ret.conditions)
                payload = ProtocolError(
                    cls="ErrorData",
                    api="return",
                    what=describe_failure(text or "", code),
                    stmt=node_span(ctx, ret.node),
                    unknown_tool=unknown_tool,
                    msg=ctx.source(message) if message is not None else "",
                )
                yield self.latent(ctx, ret.node, variant="return", route="return", payload=payload)
            elif type(_serialized(value, fn, ctx)) is cst.Dict and _is_jsonrpc_error_dict(_serialized(value, fn, ctx)):
                payload = ProtocolError(
                    cls="a JSON-RPC error object", api="dict", what="a failure of its own execution", stmt=node_span(ctx, ret.node), unknown_tool=False
                )
                yield self.latent(ctx, ret.node, variant="dict", route="return", payload=payload)

    def _subclass_raise(self, fn: FunctionFacts, fact: RaiseFact, exc: cst.Call, resolved: str | None, ctx: FileContext) -> Latent | None:
        """`raise ItemError(...)` where the project defines `class ItemError(McpError)`: a protocol
        error under its own name. A class of this module is judged here by its bases; one imported
        from elsewhere is left to the linker (`link_latent`), which knows every project class."""
        if resolved is None:  # not imported: a class of this module, else a builtin
            resolved = ctx.model.aliases.resolve_or_local(exc.func)
            if resolved not in ctx.model.classes:
                return None
        if not resolved or "." not in resolved or resolved.split(".")[0] in {"mcp", "fastmcp", "mcp_types", "builtins"}:
            return None
        if not last_name(resolved)[:1].isupper():
            return None  # a class is constructed, not a function called
        subclass_of = ""
        local = _protocol_base(resolved, ctx.model.classes) if resolved in ctx.model.classes else None
        if local is not None:
            base = local
        elif resolved in ctx.model.classes and not _bases_elsewhere(resolved, ctx.model.classes):
            return None  # every base is of this module or a builtin: no McpError among them
        else:
            subclass_of = resolved
            base = "McpError"
        cls = last_name(resolved)
        if fact.caught_here(cls) or fact.caught_here(base):
            return None
        positional = [a.value for a in exc.args if not a.star]
        text = next((t for t in (literal_text(fn.value_of(v)) for v in positional) if t is not None), None)
        code = next((_code_text(v) for v in positional if type(v) in (cst.Integer, cst.UnaryOperation) or _code_text(v) in ERROR_CODE_NAMES), "")
        if _is_legitimate_code(code):
            return None
        payload = ProtocolError(
            cls=f"{cls} (a subclass of {base})" if not subclass_of else cls,
            api="subclass",
            what=describe_failure(text or "", code),
            stmt=node_span(ctx, fact.node),
            unknown_tool=bool((text and UNKNOWN_TOOL.search(text)) or misses_every_tool(fn, fact.conditions)),
            subclass_of=subclass_of,
        )
        # The class by its qualified name: an `except` of a caller naming one of its bases catches it.
        return self.latent(ctx, fact.node, variant="raise", route="raise", payload=payload, raises_qual=resolved, classes=(resolved,))

    def _factory_raise(self, fn: FunctionFacts, fact: RaiseFact, exc: cst.Call, ctx: FileContext) -> Latent | None:
        """`raise make_error(...)` / `raise errors.not_found(...)`: a function that builds the
        protocol error. One of this module is read here; one of another module is left to the
        linker (`link_latent`), which knows what every project function returns."""
        name = dotted(exc.func)
        if name is None or last_name(name)[:1].isupper() or is_protocol_error_class(ctx.model.aliases.resolve(exc.func), name):
            return None  # a class is constructed, not built by a factory
        local = f"{ctx.model.module}.{name}" if ctx.model.module else name
        if name.startswith(("self.", "cls.")) and fn.class_name:  # `raise self._not_found(...)`
            local = f"{ctx.model.module}.{fn.class_name}.{name.split('.', 1)[1]}" if ctx.model.module else f"{fn.class_name}.{name.split('.', 1)[1]}"
        built_by = ""
        if local in ctx.model.functions:
            cls = protocol_error_built_by(ctx.model.functions[local], ctx)
            if cls is None or fact.caught_here(cls):
                return None
        else:
            qualified = ctx.model.aliases.resolve_dotted(name)
            if qualified is None and name.startswith(("self.", "cls.")) and fn.class_name and name.count(".") == 1:
                qualified = local  # `raise self._error(...)` of a method a base class defines: the linker finds it
            if qualified is None or qualified.split(".")[0] in {"mcp", "fastmcp", "mcp_types"}:
                return None  # unknown names and the frameworks' own helpers (require_client_extension)
            cls = "McpError"
            built_by = qualified
        positional = [a.value for a in exc.args if not a.star]
        text = next((t for t in (literal_text(v) for v in positional) if t is not None), None)
        code = next((_code_text(v) for v in positional if type(v) in (cst.Integer, cst.UnaryOperation) or _code_text(v) in ERROR_CODE_NAMES), "")
        if _is_legitimate_code(code):
            return None
        payload = ProtocolError(
            cls=f"the {cls} that {last_name(name)}() builds",
            api="factory",
            what=describe_failure(f"{text or ''} {last_name(name).replace('_', ' ')}", code),
            stmt=node_span(ctx, fact.node),
            unknown_tool=bool((text and UNKNOWN_TOOL.search(text)) or misses_every_tool(fn, fact.conditions)),
            built_by=built_by,
        )
        return self.latent(ctx, fact.node, variant="raise", route="raise", payload=payload)

    def link_latent(self, latent: Latent, function: str, reach: Reach, project: LinkedProject, state: object) -> Latent | None:
        """`raise not_found(x)` of a function of another module is a protocol error only if that
        function builds one (FunctionSummary.protocol_error)."""
        if latent.raises_qual and reach.guards:
            # A project subclass: a caller's `except` naming one of its bases catches it on every way.
            names = frozenset({latent.raises, *(last_name(a) for a in project.class_ancestors(latent.raises_qual))})
            if all(any(catches(guard, names) for guard in way) for way in reach.guards):
                return None
        subclass_of = _payload(latent).subclass_of
        if subclass_of:
            ancestors = project.class_ancestors(subclass_of)
            base = next((a for a in ancestors[1:] if is_protocol_error_class(a, a)), None)
            if base is None or not project.is_project_class(subclass_of):
                return None
            payload = replace(_payload(latent), cls=f"{last_name(subclass_of)} (a subclass of {last_name(base)})", subclass_of="")
            return replace(latent, payload=payload)
        built_by = _payload(latent).built_by
        if not built_by:
            return latent
        found = project.function(built_by)
        return latent if found is not None and found[1].protocol_error else None

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        payload = _payload(latent)
        if payload.unknown_tool and (context.lowlevel or not context.is_tool):
            return None  # the unknown-tool branch of a low-level dispatcher is the spec's example
        tool = context.tools[0] if context.tools else context.function
        cls = payload.cls
        what = payload.what
        fam = context.framework
        if latent.variant == "raise":
            if context.kind == "raw-dispatch":
                note = "registered through request_handlers[CallToolRequest] (no decorator), it becomes a JSON-RPC error the model never sees"
            elif payload.api == "v1" and payload.origin.startswith("mcp.") and fam.every(lambda row: row.v1_constructor_fails):
                # Every candidate runs on mcp 2.x (fastmcp 4 requires it), whose package has no McpError.
                series = " / ".join(sorted({row.series for row in fam.channels()}))
                note = f"on {series}{fam.source} the mcp package has no McpError (mcp 2.x names it MCPError): the import fails and the server does not start"
            elif payload.api == "v1" and fam.every(lambda row: row.v1_constructor_crashes):
                series = " / ".join(sorted({row.series for row in fam.channels()}))
                note = f"on {series}{fam.source} the v1 constructor McpError(ErrorData(...)) raises TypeError, so the tool crashes"
            else:
                note = fam.protocol_error_phrase(tool)  # rendered from the framework table
            verb = "raises"
        else:
            note = "the client gets a JSON-RPC error and the model never sees it"
            verb = "returns"
        help_text, advice_note = lowlevel_failure_advice(context) if context.lowlevel else ("Raise ToolError instead", "")
        message = f"{context.subject} {verb} {cls} for {what}"
        notes = tuple(n for n in (note, advice_note) if n)
        return Rendered(message, self._fix(latent, context), help=help_text, notes=notes)

    def _fix(self, latent: Latent, context: RenderContext):
        payload = _payload(latent)
        msg = payload.msg
        if not msg:
            return None
        if toolerror_available(context) and latent.variant == "raise":
            if payload.raise_caught or payload.exc is None:
                return None
            start, end = payload.exc
            edit = Edit(start, end, f"{PH_TOOL_ERROR}({msg}){payload.cause}")
            return FixSpec(
                Applicability.UNSAFE, f"Raise {PH_TOOL_ERROR} with the same message", (edit,), ("ToolError",), raises="ToolError", replaces=payload.cls
            )
        if context.lowlevel and lowlevel_result_supported(context.framework) and latent.variant in {"raise", "return"}:
            start, end = payload.stmt
            edit = Edit(start, end, "return " + error_result_expr(msg))
            return FixSpec(
                Applicability.UNSAFE,
                "Return an error result (isError=True) with the same message",
                (edit,),
                ("CallToolResult", "TextContent"),
            )
        return None


@dataclass(frozen=True)
class ProtocolError(Payload):
    """A protocol error raised or returned for the tool's own failure."""

    cls: str  # how the message names it ("McpError", "ErrorData", "the McpError that f() builds")
    api: str  # how it is built: "v1" McpError(ErrorData(...)), "v2", "return", "dict", "factory"
    what: str  # the failure, as the message describes it
    stmt: Span  # the raise or return: a low-level fix returns an error result there
    unknown_tool: bool  # the unknown-tool branch of a dispatcher (a protocol error by the spec)
    msg: str = ""  # the message argument as written ("" when there is none to reuse)
    origin: str = ""  # where the class is imported from: the mcp package's McpError is gone in mcp 2.x
    exc: Span | None = None  # the raised constructor call: the fix raises ToolError there
    # `except McpError: raise` lets the protocol error through, but a handler of the same `try`
    # would catch a ToolError: the message would not reach the client.
    raise_caught: bool = False
    cause: str = ""  # " from e" when raised while handling `except ... as e`
    # `raise not_found(x)` of a function of another module: its qualified name (link_latent).
    built_by: str = ""
    # `raise ItemError(...)` of a class imported from another module: its qualified name, kept
    # only if the linker finds McpError/MCPError among its ancestors (link_latent).
    subclass_of: str = ""


def _payload(latent: Latent) -> ProtocolError:
    assert isinstance(latent.payload, ProtocolError)
    return latent.payload


def _is_jsonrpc_error_dict(node: cst.Dict) -> bool:
    keys = {}
    for element in node.elements:
        if type(element) is cst.DictElement and type(element.key) is cst.SimpleString:
            keys[element.key.evaluated_value] = element.value
    if keys.get("jsonrpc") is not None and "error" in keys:
        return True
    inner = keys.get("error")
    if type(inner) is cst.Dict:
        inner_keys = {
            e.key.evaluated_value for e in inner.elements if type(e) is cst.DictElement and type(e.key) is cst.SimpleString
        }
        code = next((e.value for e in inner.elements if type(e) is cst.DictElement and type(e.key) is cst.SimpleString and e.key.evaluated_value == "code"), None)
        return {"code", "message"} <= inner_keys and type(code) is cst.UnaryOperation
    return False


def _protocol_base(cls: str, classes: dict[str, tuple[str, ...]], depth: int = 0) -> str | None:
    """The McpError/MCPError among the bases of a class of this module (through its other classes
    of this module), or None."""
    if depth > 5:
        return None
    for base in classes.get(cls, ()):
        if is_protocol_error_class(base, base):
            return last_name(base)
        found = _protocol_base(base, classes, depth + 1) if base in classes else None
        if found is not None:
            return found
    return None


def _bases_elsewhere(cls: str, classes: dict[str, tuple[str, ...]], depth: int = 0) -> bool:
    """Does the class (through its bases of this module) inherit from a class imported from
    another module, whose own bases only the linker knows?"""
    if depth > 5:
        return False
    return any(
        (_bases_elsewhere(base, classes, depth + 1) if base in classes else "." in base and base.split(".")[0] not in {"builtins", "mcp", "fastmcp"})
        for base in classes.get(cls, ())
    )


def _serialized(value: cst.BaseExpression | None, fn: FunctionFacts, ctx: FileContext) -> cst.BaseExpression | None:
    """The dict a return sends: the value itself, the one value of a returned local, or what
    `json.dumps(...)` serializes (a JSON-RPC error dict returned as text is the same object)."""
    if value is None:
        return None
    value = fn.value_of(value)
    if type(value) is cst.Call and ctx.model.aliases.resolve(value.func) == "json.dumps" and value.args:
        return fn.value_of(value.args[0].value)
    return value
