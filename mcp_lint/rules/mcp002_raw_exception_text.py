"""MCP002 raw-exception-text: a caught exception's own text flows into model-facing text."""

from __future__ import annotations

import copy
import io
import tokenize
from dataclasses import dataclass, replace
from functools import partial
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.exception_guards import Handler, catching_site
from mcp_lint.model.facts import FunctionFacts, RaiseFact, ReturnFact
from mcp_lint.model.flow import Store, names_read
from mcp_lint.model.flow_steps import steps_between, steps_from, store_of
from mcp_lint.model.frameworks import FRAMEWORK_DOMAIN_ERRORS, TOOL_ERROR_CLASSES, Family
from mcp_lint.model.library_tables import DECODE_POSITIONS
from mcp_lint.model.message_text import find_exception_text, gathered_exception_text, literal_text
from mcp_lint.model.non_text import returns_no_text
from mcp_lint.model.names import dotted, last_name, root_of, unwrap_await
from mcp_lint.model.summary import FunctionSummary, Latent
from mcp_lint.model.walk import descendants
from mcp_lint.rules import failure_words
from mcp_lint.rules.base import (
    PH_LOGGER,
    PH_TOOL_ERROR,
    PH_VALIDATION_ERROR,
    Example,
    FileContext,
    FixSpec,
    LinkedProject,
    Reach,
    RenderContext,
    Rendered,
    Rule,
    Span,
    indent_of,
    flow_related,
    latent_fix,
    node_span,
    placeholder,
    related_at,
)
from mcp_lint.rules.callers_words import names_the_operation_only, reason_of, traced_clauses, words_before_caught
from mcp_lint.rules.mcp002_bare_local import bare_exception_text, worded_place
from mcp_lint.rules.mcp002_carried_text import CarriedText
from mcp_lint.rules.mcp002_decoded_body import build_on_the_way, decoded_body_of
from mcp_lint.rules.mcp002_payload import RawText, raw_text
from mcp_lint.rules.own_answer import KEEP, own_answer
from mcp_lint.rules.mcp002_own_advice import VALIDATION_ERROR, author_text, library_raising, nameable_classes, own_raises, pass_through_names
from mcp_lint.rules.common import (
    is_protocol_error_class,
    lowlevel_result_supported,
    raised_class,
    toolerror_available,
)
from mcp_lint.rules.exception_text import (
    project_call,
    exception_handed_to,
    exception_text_in,
    handler_classes,
    project_class,
    is_tool_error_raise,
    looks_like_exception_param,
    left_on_success,
    status_bases,
    status_left_or_failed,
    param_text_outside_helpers,
    response_slots,
    text_outside_helpers,
)
from mcp_lint.rules.plain_raises import builtin_bases
from mcp_lint.rules.results import _dict_items, builder_keywords, failure_message_of, hint_is_text, hint_left_behind, is_error_result, is_text, names_a_class, text_beside_a_code
from mcp_lint.rules.handler_fix import (
    is_log_call,
    is_loguru,
    imported_from_the_project,
    lazy_log_line,
    bound_from,
    evaluates_a_parameter,
    dead_unpacking,
    composed_by_a_helper,
    written_across_branches,
    raises_own_text,
    runs_a_handed_function,
    degrades,
    reports_partial_success,
    is_project_log_call,
    logger_style,
    text_built_by_a_helper,
    dead_assignments,
    left_unread,
    never_raises,
    keep_only_the_value,
    deletion,
    log_calls_before,
    local_value,
    log_plan,
    lies_within,
    module_function,
    raise_is_caught,
    advice_in_its_own_clause,
    clause_insertion,
    only_reports,
    own_raises_pass_through,
    own_text_under_a_broad_clause,
    toolerror_pass_through,
    unused_binding,
)
from mcp_lint.rules.upstream_body import body_through_locals as _body_through_locals
from mcp_lint.rules.upstream_body import failed_replies as _failed_replies
from mcp_lint.rules.upstream_body import library_replies
from mcp_lint.rules.upstream_body import replies_left_on_success as _replies_left_on_success
from mcp_lint.rules.upstream_body import (
    conjuncts,
    item_holding,
    name_read,
    parsed_params,
    process_output,
    failed_replies_in,
    reply_failure_test,
    status_failed_replies,
    unpacked_responses,
)
from mcp_lint.rules.argument_parse import parse_clause
from mcp_lint.rules.http_status import file_io_only, keep_caught_status, keep_library_reason, keep_os_reason, raises_status_uncaught, starts_a_program, status_clause, with_status
from mcp_lint.rules.own_input import keep_own_input
from mcp_lint.rules.lowlevel_result_fix import error_result, message_slot, v2_lowlevel_dispatcher
from mcp_lint.rules.messages import Message, Part, Placeholder, Text
from mcp_lint.rules.text import clip, vague_reason
from mcp_lint.vocabulary import (
    FLAG_KEYS,
    MESSAGE_KEYS,
    MESSAGE_KEYWORDS,
    hint_keys_in,
    is_hint_key,
)


# `if resp.status_code != 200` / `if not resp.ok`: the branch handles an upstream failure.
def _text_slot(value: cst.BaseExpression, holds: Callable[[cst.CSTNode], bool]) -> str:
    """The item of a returned dict (keyword of a returned object, element of a returned tuple)
    that holds the text: `{"error": str(e), "rows": []}` -> "error". A caller that returns only
    other items (`r["rows"]`) does not send it; "" when the text is not in one item."""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is cst.Dict:
        for element in value.elements:
            if type(element) is cst.DictElement and type(element.key) is cst.SimpleString and holds(element.value):
                key = element.key.evaluated_value
                return key if isinstance(key, str) else ""
    elif type(value) is cst.Call:
        for argument in value.args:
            if argument.keyword is not None and holds(argument.value):
                return argument.keyword.value
    elif type(value) is cst.Tuple:
        # `return False, f"failed: {e}"`: a caller's `ok, message = helper()` takes element "#1".
        for index, element in enumerate(value.elements):
            if type(element) is not cst.StarredElement and holds(element.value):
                return f"#{index}"
    return ""


def _flow_slot(source: Store, sent: cst.BaseExpression) -> str:
    """The item holding text a local carries: `info["error"] = str(e)`, or `{"error": msg}`."""
    if source.slot is not None:
        return source.slot
    root = source.key.split(".")[0]
    return _text_slot(sent, lambda part: root in names_read(part))


def _with_flow(latent: Latent, fn: FunctionFacts, built: cst.BaseExpression, sent: cst.BaseExpression, sink: cst.CSTNode, ctx: FileContext) -> Latent:
    """The latent with the statements that carry the text from where it is built (`built`, the
    value of a local) to the statement that sends it, and the project function whose result
    that local takes (`message = format_error(e)`: the helper's own statements come first)."""
    source = store_of(fn.value_flow, built)
    if source is None:
        return latent
    called = unwrap_await(built)
    via = next((c.callee for c in fn.calls if c.node is called and c.callee), "") if type(called) is cst.Call else ""
    return replace(latent, flow=steps_between(fn.value_flow, source, sent, sink, ctx.range), flow_via=via)


def _caught_label(handler: Handler | None) -> str:
    if handler is None or not handler.caught:
        return "exception"
    names = [n if n.split(".")[0] not in {"builtins"} else last_name(n) for n in handler.caught]
    short = [last_name(n) if n.count(".") >= 2 else n for n in names]
    return "/".join(short)


def _passed_on_classes(handler: Handler, ctx: FileContext) -> tuple[str, ...] | None:
    """The project classes of an `except` clause that can pass a carried library text on (its
    project classes, qualified; () for ToolError and other framework errors), or None when the
    clause catches nothing of the kind or does not bind the exception."""
    if not handler.name or not handler.caught:
        return None
    own = handler_classes(handler, ctx)
    framework = any(c in FRAMEWORK_DOMAIN_ERRORS or last_name(c) == "ToolError" for c in handler.caught)
    return own if own or framework else None


def _built_in_local(handler: Handler, found: cst.CSTNode, sink: cst.CSTNode) -> cst.BaseExpression | None:
    """The value of `msg = f"...{e}"` when the text found in a sent value is that local's: the
    last assignment of it in the clause's body before the sending statement. Through a chain of
    locals (`msg = f"{e}"; body = json.dumps({"error": msg}); return body`) it is the first one,
    where the exception's text is put in: one flow, one finding, on the line that reads `e`."""
    if type(found) in (cst.Attribute, cst.Subscript) and type(found.value) is cst.Name and found.value.value in handler.tainted:
        found = found.value  # `reply.model_dump_json()`, `reply.error`, `info["error"]`: the text is the local's
    if type(found) is not cst.Name or found.value not in handler.tainted or found.value == handler.name:
        return None
    assign = _last_assignment(handler, found.value, sink)
    if assign is None:
        return None
    inner = find_exception_text(assign.value, handler)
    if find_exception_text(assign.value, handler, through_locals=False) is None and inner is not None:
        # Only another local carries the text here: report where that one was built, if it was.
        earlier = _built_in_local(handler, inner, assign)
        if earlier is not None:
            return earlier
    return assign.value


def _in_body_slot(fn: FunctionFacts, value: cst.BaseExpression, text: cst.CSTNode | None = None, local: str = "") -> bool:
    """Is `text` (a node of `value`) or the local `local` in the body slot of a tuple `fn` hands
    back as a response's (status, body, ...) (`return e.code, e.read().decode(), {}`)? The
    caller that unpacks it reports the body where it finds the status failed."""
    if type(value) is not cst.Tuple:
        return False
    slots = response_slots(fn)
    if slots is None or slots[1] >= len(value.elements):
        return False
    slot = value.elements[slots[1]].value
    if text is not None and any(node is text for node in descendants(slot)):
        return True
    return bool(local) and local in _names_in(slot)


def _decoded_body_build(
    fn: FunctionFacts, handler: Handler, decoded: cst.BaseExpression, sent: cst.BaseExpression, sink: cst.CSTNode, ctx: FileContext
) -> cst.BaseExpression | None:
    """The value of the message local that a failed reply's body, decoded into `decoded`'s local,
    is built into on its way to `sent` where the clause fills that local with other text of the
    exception too (`msg = f"Failed: {e}"` ... `msg = f"Invalid: {data['errors']}"`); None: the
    sending statement builds the text itself."""
    source = store_of(fn.value_flow, decoded)
    build = _message_built_from(fn, handler, source, sent, sink, ctx) if source is not None else None
    return build.value if build is not None else None


def _message_built_from(fn: FunctionFacts, handler: Handler, source: Store, sent: cst.BaseExpression, sink: cst.CSTNode, ctx: FileContext) -> Store | None:
    """build_on_the_way for the body `source` decoded from `handler`'s exception: the message
    local on the way that another statement fills with the exception's own text."""
    name = handler.name
    if not name:
        return None
    return build_on_the_way(fn.value_flow, source, sent, sink, partial(_other_exception_text, name=name, handler=handler, ctx=ctx))


def _other_exception_text(other: Store, name: str, handler: Handler, ctx: FileContext) -> bool:
    """Does `other` put text of the caught exception `name` other than its reply's body in?"""
    return not decoded_body_of(other.value, name) and exception_text_in(other.value, handler, ctx, through_locals=False) is not None


def _last_assignment(handler: Handler, name: str, before: cst.CSTNode) -> cst.Assign | None:
    """The last `name = <value holding exception text>` of the clause's body before `before`."""
    last = None
    for node in descendants(handler.node.body, into_scopes=False):
        if node is before:
            break
        if (
            type(node) is cst.Assign
            and len(node.targets) == 1
            and type(node.targets[0].target) is cst.Name
            and node.targets[0].target.value == name
            and find_exception_text(node.value, handler) is not None
        ):
            last = node
    return last


def _catching_sites(fact: RaiseFact, raised: str) -> tuple[str, ...]:
    """Handler.site of the clauses of this function that catch the raise again (one per `try`)."""
    sites = []
    for guard in fact.guarded:
        caught = catching_site(guard, raised)
        if caught is not None and not caught[1]:
            sites.append(caught[0])
    return tuple(sorted(sites))


def _raise_variant(exc: cst.Call, ctx: FileContext) -> str:
    """How a raised exception's text travels: "raise" (ToolError, read verbatim), "raise-protocol"
    (McpError/MCPError: its message is sent to the client whatever channel MCP001 says it takes)
    or "raise-other" (reaches the model only where the framework forwards exception text)."""
    if is_tool_error_raise(exc, ctx):
        return "raise"
    if is_protocol_error_class(raised_class(exc, ctx), None):
        return "raise-protocol"
    return "raise-other"


def _narrowed_to_own_class(conditions: Sequence[cst.BaseExpression], param: str, ctx: FileContext) -> bool:
    """`if isinstance(exc, ConfigError): return f"... {exc}"` with ConfigError a class of this
    package: the text is the project's own message (as for `except ConfigError as e`)."""
    top = ctx.model.module.split(".")[0]
    for condition in conjuncts(conditions):
        if not (type(condition) is cst.Call and dotted(condition.func) == "isinstance" and len(condition.args) == 2):
            continue
        if dotted(condition.args[0].value) != param:
            continue
        classes = condition.args[1].value
        names = [e.value for e in classes.elements] if type(classes) is cst.Tuple else [classes]
        names = [module_class_alias(n, ctx) or n for n in names]  # `SCOPE_ERROR = ScopeError` at module level
        owned = [project_class(n, ctx) for n in names]
        relative = ctx.model.aliases.relative_names
        if names and all(
            q is not None and (q.split(".")[0] == top or (dotted(n) or "").split(".")[0] in relative or "." not in q)
            for q, n in zip(owned, names)
        ):
            return True
    return False

def module_class_alias(name: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression | None:
    """`ScopeError` for `SCOPE_ERROR`, a module-level name every assignment of which (at the top
    level, or in a top-level `try`/`if`, as `try: X = ScopeError / except ImportError: X = None`)
    binds one class name or None. None for any other name."""
    if type(name) is not cst.Name:
        return None
    memo = ctx.memo.get("module_class_alias")
    if not isinstance(memo, dict):
        memo = ctx.memo["module_class_alias"] = _module_class_aliases(ctx.module)
    return memo.get(name.value)


def _module_class_aliases(module: cst.Module) -> dict[str, cst.BaseExpression]:
    values: dict[str, list[cst.BaseExpression]] = {}
    blocks: list[Sequence[cst.CSTNode]] = [module.body]
    while blocks:
        for statement in blocks.pop():
            if type(statement) is cst.Try:
                blocks.extend([statement.body.body, *(h.body.body for h in statement.handlers)])
                if statement.orelse is not None:
                    blocks.append(statement.orelse.body.body)
            elif type(statement) is cst.If:
                blocks.append(statement.body.body)
                if type(statement.orelse) is cst.Else:
                    blocks.append(statement.orelse.body.body)
            elif type(statement) is cst.SimpleStatementLine:
                for small in statement.body:
                    if type(small) is cst.Assign and len(small.targets) == 1 and type(small.targets[0].target) is cst.Name:
                        values.setdefault(small.targets[0].target.value, []).append(small.value)
    out: dict[str, cst.BaseExpression] = {}
    for key, bound in values.items():
        classes = [v for v in bound if not (type(v) is cst.Name and v.value == "None")]
        names = {dotted(v) for v in classes}
        if len(names) == 1 and None not in names and last_name(next(iter(names)) or "")[:1].isupper():
            out[key] = classes[0]
    return out


class RawExceptionText(Rule):
    code = "MCP002"
    name = "raw-exception-text"

    INVALID = (
        Example(
            """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("weather")

@mcp.tool
async def get_forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://api.example.com/forecast/{city}")
            response.raise_for_status()
            return response.text
    except Exception as e:
        return f"Error: {e}"
""",
            flagged=(14,),
            fixed="""\
import logging

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)

mcp = FastMCP("weather")

@mcp.tool
async def get_forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://api.example.com/forecast/{city}")
            response.raise_for_status()
            return response.text
    except httpx.HTTPStatusError as e:
        logger.exception("Could not get forecast (HTTP %s)", e.response.status_code)
        raise ToolError(f"Could not get forecast (HTTP {e.response.status_code})") from e
    except Exception as e:
        logger.exception("Could not get forecast")
        raise ToolError("Could not get forecast") from e
""",
        ),
        Example(
            """\
import json
import logging

from fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("tracker")


@mcp.tool
def get_issue(issue_key: str) -> str:
    try:
        return json.dumps(TRACKER.issue(issue_key))
    except Exception as e:
        logger.error("Error getting issue %s: %s", issue_key, e)
        error_result = {"success": False, "error": f"Failed to get issue: {e}", "issue_key": issue_key}
        return json.dumps(error_result)
""",
            flagged=(16,),  # where the text is built (issue 9, cause 9); the fix rewrites the return
            fixed="""\
import json
import logging

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("tracker")


@mcp.tool
def get_issue(issue_key: str) -> str:
    try:
        return json.dumps(TRACKER.issue(issue_key))
    except Exception as e:
        logger.error("Error getting issue %s: %s", issue_key, e, exc_info=True)
        raise ToolError(f"Failed to get issue (issue_key: {issue_key})") from e
""",
        ),
    )
    VALID = (
        Example(
            """\
import logging
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("weather")

@mcp.tool
async def get_forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(f"https://api.example.com/forecast/{city}")
            response.raise_for_status()
            return response.text
    except httpx.HTTPStatusError as e:
        logger.exception("forecast request failed")
        raise ToolError(f"The forecast service answered HTTP {e.response.status_code} for {city!r}; check the city name") from e
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        latents = self._check(fn, ctx)
        return _results_all_or_none(list(latents)) if v2_lowlevel_dispatcher(fn, ctx) else latents

    def _check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        seen: set[int] = set()
        reported_here: set[int] = set()  # sending statements whose finding sits on themselves
        # By statement: the tests of the `if`s around each return and raise (read once).
        conditions = {id(f.node): f.conditions for f in (*fn.returns, *fn.raises)}
        for handler in fn.handlers:
            # The project's own exception (or ToolError) whose text is passed on: the linker
            # decides, knowing which raises of the class carry library text (mcp002_carried_text).
            # A clause whose origin waits for the link step (calls of another module's code in
            # its `try` body: model.escapes) is checked as foreign; the linker drops what is not.
            pending = handler.escape_exits
            passes = None if handler.foreign or pending else _passed_on_classes(handler, ctx)
            if handler.carried_only and handler.name:
                # Library text only as a callee's raise took it in: that raise is the finding, and
                # this clause passes its text on (as a clause catching the project's own class).
                passes = ()
            if not handler.foreign and not pending and passes is None:
                continue
            for node, value, variant, caught_at in self._sinks(fn, handler, ctx):
                if passes is not None:
                    found = text_outside_helpers(value, handler, ctx)
                else:
                    found = exception_text_in(value, handler, ctx)
                    if found is None and handler.name and variant.startswith("raise"):
                        # `raise ApiError(exc)` of a class of another module of the package: the
                        # exception handed whole; its `__init__` decides at link time.
                        constructed = _constructed_with(value, {handler.name}, ctx)
                        if constructed is not None:
                            found = _positional(value)[constructed[1][0]].value  # type: ignore[attr-defined]
                if found is None or id(node) in seen:
                    continue
                # The exception handed whole to a project function deeper in the value, and no
                # text of it outside such calls: that function may report the flow itself.
                handed = exception_handed_to(fn, handler, value) if passes is None and text_outside_helpers(value, handler, ctx) is None else None
                if handler.name and _narrowed_to_own_class(conditions.get(id(node), ()), handler.name, ctx):
                    continue  # `if isinstance(e, OwnError): return e.message`: the project's own text
                if variant == "return" and _in_body_slot(fn, value, found):
                    continue  # a response's body handed back beside its status: the caller's to judge
                seen.add(id(node))
                built = _built_in_local(handler, found, node)
                if built is None and type(found) is cst.Name and found.value in handler.tainted and found.value != handler.name:
                    continue  # built by `+=`, in a container...: reported where it is built (text_flows)
                if built is not None and handler.name and decoded_body_of(built, handler.name, parsed=True) and self._sent_once(fn, handler, built, ctx):
                    # `data = e.response.json()` only decodes the failed reply: the statement that
                    # puts it into words is the flow's place (mcp002_decoded_body).
                    built = _decoded_body_build(fn, handler, built, value, node, ctx)
                bare_flow = None
                if built is not None and handed is None and passes is None and bare_exception_text(built, handler.name) and self._sent_once(fn, handler, built, ctx):
                    # `error_message = str(e)` holds only the foreign text: the flow's place is where
                    # it first goes into a message (mcp002_bare_local); the local, a step before it.
                    source = store_of(fn.value_flow, built)
                    worded = worded_place(fn.value_flow, source, value, node, fn.node) if source is not None else None
                    if worded is not None:
                        seen.add(id(built))
                        bare_flow = steps_from(fn.value_flow, source, value, node, ctx.range)
                        built = None if worded.statement is node else worded.value
                if built is not None:
                    if id(built) in seen:
                        continue  # one finding where the text is built, however many statements send it
                    seen.add(id(built))
                else:
                    reported_here.add(id(node))
                if (
                    handed is None
                    and built is not None
                    and variant == "return"
                    and type(found) is cst.Name
                    and passes is None
                    and text_outside_helpers(built, handler, ctx) is None
                    and find_exception_text(value, handler, through_locals=False) is None
                ):
                    # `msg = describe(e)`, then `return msg`: the local sent whole (a part of it
                    # put into the clause's own words, `parts["text"]`, stays this flow's). Not
                    # where the sent value reads the exception itself too (`f"{msg} ({e})"`).
                    handed = exception_handed_to(fn, handler, built)
                latent = self._latent(ctx, fn, node, value, handler, variant, found, built)
                if built is not None:
                    latent = _with_flow(latent, fn, built, value, node, ctx)
                if bare_flow is not None:
                    latent = replace(latent, flow=tuple(step for step in bare_flow if step.location.row != latent.location.row))
                payload = raw_text(latent)
                if built is None and handler.name and variant.startswith("raise"):
                    payload = replace(payload, constructed=_constructed_with(value, {handler.name}, ctx))
                if handed is not None:
                    payload = replace(payload, handed_to=handed)
                elif built is not None and type(found) is cst.Name and text_outside_helpers(built, handler, ctx) is None:
                    payload = replace(payload, text_from=exception_handed_to(fn, handler, built))
                caught: tuple[str, ...] = ()
                if passes is not None:
                    caught = tuple(passes)
                    # The linker drops the branch when no instance of the class has the attribute.
                    needs = _attribute_tested(fn, conditions.get(id(node), ()), handler.name)
                    payload = replace(payload, passes=True, caught_quals=tuple(q for q in caught if q), needs_attr=needs)
                elif handler.imported_classes:
                    caught = tuple(handler.imported_classes)
                    payload = replace(payload, imported_quals=caught)
                if pending:
                    origin = tuple(sorted(last_name(name) for name in handler.caught))
                    payload = replace(payload, origin_exits=pending, origin_caught=origin, origin_foreign=handler.foreign)
                # `site`: a raise caught by this clause reaches the model through this statement.
                yield replace(
                    latent,
                    payload=payload,
                    site=handler.site,
                    caught_at=tuple(caught_at),
                    classes=(*latent.classes, *(q for q in caught if q)),
                )
            if passes is not None:
                yield from self._handed_to_helpers(fn, handler, ctx, passes)
            elif pending and handler.name:
                # Whose text the clause hands on waits for the link step: a marker too, which
                # passes the text on where what the `try` body lets out is carried library text.
                origin = tuple(sorted(last_name(name) for name in handler.caught))
                for marker in self._handed_to_helpers(fn, handler, ctx, ()):
                    payload = replace(raw_text(marker), origin_exits=pending, origin_caught=origin, origin_foreign=handler.foreign)
                    yield replace(marker, payload=payload)
        # `msg = f"...{e}"`, `errors.append(str(e))`, `info["error"] = str(e)`, later returned or raised.
        for flow in fn.text_flows:
            handler = flow.handler
            statement = flow.source.statement
            if statement is None or id(statement) in seen or id(flow.source.value) in seen:
                continue
            if handler is not None and handler.name and _narrowed_to_own_class(flow.source.conditions, handler.name, ctx):
                continue  # stored in an `if isinstance(e, OwnError):` branch: the project's own text
            found = flow.found if handler is fn.gathered else exception_text_in(flow.source.value, handler, ctx, through_locals=False)
            sinks = [s for s in (self._flow_sink(fact, fn, ctx) for fact in flow.sinks) if s is not None]
            if found is None or not sinks:
                continue
            sink = sinks[0]
            seen.add(id(statement))
            _, sink_node, sent = sink
            if len(sinks) == 1 and sink[0] == "return" and _in_body_slot(fn, sent, local=flow.source.key.split(".")[0]):
                continue  # a response's body handed back beside its status: the caller's to judge
            place = flow.source
            if handler is not fn.gathered and handler.name and len(sinks) == 1 and decoded_body_of(flow.source.value, handler.name):
                # A failed reply's body read whole from the exception: no second finding where
                # the statement sending it on is reported already; a body parsed into data is
                # reported where it is sent on (or built into a message local of its own
                # branch), once (mcp002_decoded_body).
                if id(sink_node) in reported_here:
                    continue  # that statement is reported already: the same finding
                if decoded_body_of(flow.source.value, handler.name, parsed=True):
                    build = _message_built_from(fn, handler, flow.source, sent, sink_node, ctx)
                    place = build if build is not None else replace(flow.source, value=sent, statement=sink_node)
                    if id(place.statement) in seen:
                        continue
                    seen.add(id(place.statement))
            if (
                place is flow.source
                and handler is not fn.gathered
                and handler is not None
                and len(sinks) == 1
                and bare_exception_text(flow.source.value, handler.name)
            ):
                # `error_message = str(e)`, then `msg = f"Failed: {error_message}"`: reported where
                # the bare text first goes into a message (mcp002_bare_local).
                worded = worded_place(fn.value_flow, flow.source, sent, sink_node, fn.node)
                if worded is not None:
                    if id(worded.statement) in seen or id(worded.statement) in reported_here:
                        continue
                    seen.add(id(worded.statement))
                    place = worded
            latent = self._flow_latent(ctx, fn, flow.source, handler, sink, found, place=place)
            steps = steps_from if place is not flow.source else steps_between
            latent = replace(latent, flow=steps(fn.value_flow, flow.source, sent, sink_node, ctx.range))
            if handler is not fn.gathered and text_outside_helpers(flow.source.value, handler, ctx) is None:
                # `msg = describe(exc)`: the exception handed whole to a project function, which
                # may report the flow itself (where it takes the text in).
                handed = exception_handed_to(fn, handler, flow.source.value)
                if handed is not None:
                    latent = replace(latent, payload=replace(raw_text(latent), handed_to=handed))
            yield latent
        # `results = await asyncio.gather(..., return_exceptions=True)`: a result tested with
        # isinstance(r, Exception) is a caught exception (`f"ERROR: {r}"`).
        if fn.gathered is not None:
            for ret in fn.returns:
                if ret.node.value is None or id(ret.node) in seen:
                    continue
                found = gathered_exception_text(ret.node.value, ret.conditions)
                if found is not None:
                    seen.add(id(ret.node))
                    yield self._latent(ctx, fn, ret.node, ret.node.value, fn.gathered, "return", found)
        handler_of = {id(f.node): f.handler for f in (*fn.returns, *fn.raises)}
        by_local: dict[int, tuple[Store, list[Latent]]] = {}  # bodies read into a local, by that store
        # Upstream error bodies: `if not resp.ok: return f"Error: {resp.text}"`, and raised
        # outside any `except` (`raise RuntimeError(f"... {resp.text}")`), which escapes to the
        # framework's error text like a caught exception re-raised with its text.
        for node, value, variant, conditions in self._body_sinks(fn, ctx):
            if id(node) in seen:
                continue
            bases = status_bases(conditions, ctx) | _failed_replies(conditions, fn, ctx)
            answered = {local: callee for local, callee in library_replies(conditions, fn, ctx).items() if local not in bases}
            bases |= set(answered)
            bases = {base for base in bases if not _stored_again_since_tested(fn, base, conditions, node, ctx)}
            # Raised, or returned as a failure report (`return {"success": False, "error": ...}`),
            # after the function left on the response's success: there, the response failed.
            if not bases and (variant.startswith("raise") or (variant == "return" and _reports_a_failure(value, ctx))):
                bases = left_on_success(fn, node, ctx) | _replies_left_on_success(fn, node, ctx)
            sent = value
            if not bases and variant.startswith("raise"):
                # Raised as a failure; returned (`{"body": resp.text}`), a body that is no JSON
                # is the reply the endpoint gave, passed on as the answer. Only the exception's
                # message carries it (`TrackerError(status, "invalid JSON", resp.text)` keeps
                # the body in an attribute).
                bases = failed_replies_in(handler_of.get(id(node)))
                sent = _message_expr(value) or value if bases else value
            elif not bases:
                # `except httpx.HTTPStatusError: return f"Sending failed: {reply.text}"` around
                # the reply's own `raise_for_status()`: there, the reply failed.
                bases = status_failed_replies(handler_of.get(id(node)))
            body = _body_through_locals(sent, bases, fn, ctx) if bases else None
            if body is None and bases and variant.startswith("raise"):
                # `raise ApiError(resp)`: the class's `__init__` decides whether its message holds
                # the body (kept at link time where it reads the response's text into it).
                constructed = _constructed_with(value, bases, ctx)
                if constructed is not None:
                    seen.add(id(node))
                    handed_whole = next(a.value for i, a in enumerate(_positional(value)) if i == constructed[1][0])
                    latent = self._body_latent(ctx, node, value, variant, handed_whole)
                    yield replace(latent, payload=replace(raw_text(latent), constructed=constructed))
                    continue
            if body is not None:
                seen.add(id(node))
                latent = self._body_latent(ctx, node, value, variant, body)
                kept = _keywords_holding(value, lambda arg, failed=bases: _body_through_locals(arg, failed, fn, ctx) is not None, ctx) if variant.startswith("raise") else None
                if kept is not None:
                    latent = replace(latent, payload=replace(raw_text(latent), keyword_body=kept))
                if answered:
                    local = next((name for name in answered if name in _names_in(body)), None)
                    if local is not None:
                        latent = replace(latent, payload=replace(raw_text(latent), answered_by=answered[local]), needs_names=(*latent.needs_names, *answered[local]))
                # Read into a local first (`detail = resp.text`): that statement and those after it.
                taken = store_of(fn.value_flow, body, within=True)
                if taken is None or not _whole_body(body):
                    yield replace(latent, flow=steps_from(fn.value_flow, taken, value, node, ctx.range)) if taken is not None else latent
                else:
                    by_local.setdefault(id(taken), (taken, []))[1].append(replace(latent, flow=steps_from(fn.value_flow, taken, value, node, ctx.range)))
        yield from _one_flow_per_local(by_local.values(), ctx)
        # A helper's response handed back as a tuple and unpacked (`status, body, _ =
        # self._call(...)`): its body sent where the status was found failed.
        for status, body_local in unpacked_responses(fn, ctx):
            for node, value, variant, conditions in self._body_sinks(fn, ctx):
                if id(node) in seen or not status_left_or_failed(fn, node, conditions, status):
                    continue
                body = name_read(value, body_local, fn, ctx)
                if body is not None:
                    seen.add(id(node))
                    yield self._body_latent(ctx, node, value, variant, body)
        # Helpers that put the body of a response their caller found failed into what they send:
        # `def describe(resp): return f"API error: {resp.text}"` under `if resp.is_error: raise
        # ToolError(describe(resp))` (the linker keeps it where a caller passes such a response).
        for index, param in enumerate(fn.params):
            if param in {"self", "cls"}:
                continue
            # One flow per response and route: the body of the response passed in, whichever
            # statements send a part of it (`return resp.text[:200]` on two paths, a field of
            # its JSON on a third), reported at the first; the others are related locations.
            first: dict[str, Latent] = {}
            others: dict[str, list[Span]] = {}
            for node, value, variant, conditions in self._body_sinks(fn, ctx):
                if id(node) in seen:
                    continue
                made = _constructed_here(fn, value, ctx) if variant == "return" else None
                if made is not None:
                    # An exception object built here (`return ApiError(status, messages)`, `return
                    # cls(message, ...)` in a classmethod): a factory whose value a caller raises.
                    # Whether its message holds the body is its class's `__init__`'s to say (link time).
                    factory = self._factory_body(fn, ctx, node, value, made, param, index)
                    if factory is not None:
                        seen.add(id(node))
                        yield factory
                    continue
                body = _body_through_locals(value, {param}, fn, ctx)
                if body is not None:
                    seen.add(id(node))
                    route = "raise" if variant.startswith("raise") else "text"
                    if route in first:
                        others.setdefault(route, []).append(node_span(ctx, node))
                        continue
                    latent = self._body_latent(ctx, node, value, variant, body, body_param=index)
                    if any(reply_failure_test(c) == param for c in conjuncts(conditions)):
                        # `if payload.get("success") is False:` on a reply a caller decoded.
                        latent = replace(latent, payload=replace(raw_text(latent), reply_tested=True))
                    first[route] = latent
            for route, latent in first.items():
                also = tuple(others.get(route, ()))
                yield replace(latent, payload=replace(raw_text(latent), also_sent=also)) if also else latent
        # Helpers that format an exception their caller caught: `def format_error(e): return f"Error: {e}"`.
        names_in: dict[int, frozenset[str]] = {}  # by sink: read once, asked of every parameter
        built_by: dict[int, tuple[cst.Call | None, tuple[cst.BaseExpression, ...]]] = {}
        param_sinks: list | None = None
        no_text_back = returns_no_text(fn)  # `def status_of(err) -> int`: its returns hold no words
        sent_whole: set[int] = set()  # returns reported themselves for a body decoded on the way
        for index, param in enumerate(fn.params):
            if param in {"self", "cls"}:
                continue
            if param_sinks is None:
                param_sinks = list(self._param_sinks(fn, ctx))
            for node, value, variant, conditions in param_sinks:
                if id(node) in seen or _narrowed_to_own_class(conditions, param, ctx):
                    continue
                if variant == "return" and no_text_back:
                    continue
                if id(node) not in built_by:
                    made = _built_exception(fn, value) if variant == "return" else None
                    built_by[id(node)] = (made, (value, *_message_values(fn, made)) if made is not None else (value,))
                built, probes = built_by[id(node)]
                names = names_in.get(id(node))
                if names is None:
                    names = names_in[id(node)] = frozenset().union(*(_names_in(p) for p in probes))
                if variant == "return" and type(value) is cst.Name and value.value == param:
                    # `return exception` hands the object back whole (a finder of a cause in the
                    # chain): what the caller reads of it decides, not this return.
                    continue
                found = None
                if param in names:
                    found = next((f for p in probes if (f := param_text_outside_helpers(p, frozenset({param}), ctx)) is not None), None)
                if found is None and variant == "return" and built is None:
                    # No text of it in the returned value itself; but a local may hold it
                    # (`message = str(error)`, then `result = {"message": message}; return
                    # result`): one flow per statement that takes the text in, reported there.
                    for store in _param_text_taken(fn, node, value, param, ctx):
                        place, steps = store, steps_between
                        if decoded_body_of(store.value, param, parsed=True):
                            # The reply's body only decoded here: reported where it is put into
                            # words, once for the branches reading it (mcp002_decoded_body).
                            build = build_on_the_way(fn.value_flow, store, value, node, partial(_other_param_text, param=param, ctx=ctx))
                            place, steps = (build, steps_from) if build is not None else (replace(store, value=value, statement=node), steps_from)
                        if id(place.statement) in seen or (place.statement is node and id(node) in sent_whole):
                            continue
                        seen.update((id(node), id(place.statement)))
                        if place.statement is node:
                            sent_whole.add(id(node))
                        latent = self.latent(ctx, place.value, variant="return-param", route="text", statement=node, payload=RawText(exc="exception", param=param), param=index)
                        yield replace(latent, flow=steps(fn.value_flow, store, value, node, ctx.range))
                    continue
                if found is None or not looks_like_exception_param(found, param):
                    continue
                seen.add(id(node))
                payload = RawText(exc="exception", param=param)
                if built is not None:
                    # A factory (`def unreachable(e): return ApiError(f"...{e}")`): the linker reads
                    # it as a raise of that class where a caller raises what it returns. Text
                    # found only through a local counts only then (as a returned value, the
                    # caller's own clause is reported: one finding per flow).
                    payload = replace(
                        payload,
                        factory=last_name(dotted(built.func) or ""),
                        factory_qual=project_class(built.func, ctx) or _framework_tool_error(built.func, ctx),
                        raised_only=not any(n is found for n in descendants(value)),
                    )
                route = "raise" if variant.startswith("raise") else "text"
                if variant == "raise-other" and type(value) is cst.Call:
                    # `def _raise_for(e): raise ApiError(e.response.text)`: a raise of its class
                    # with the text, where a caller hands it a caught exception (as a factory's
                    # value a caller raises: the linker drops it where callers catch the class).
                    cls = last_name(raised_class(value, ctx) or "")
                    latent = self.latent(
                        ctx,
                        value,
                        variant="raise-other-param",
                        route=route,
                        statement=node,
                        payload=replace(payload, raised=cls, cls=cls),
                        param=index,
                        raises=last_name(dotted(value.func) or ""),
                        raises_qual=project_class(value.func, ctx) or "",
                    )
                    yield _at_taken_text(latent, found, ctx)
                    continue
                latent = self.latent(ctx, value, variant=f"{variant}-param", route=route, statement=node, payload=payload, param=index)
                yield _at_taken_text(latent, found, ctx)

    def _handed_to_helpers(self, fn: FunctionFacts, handler: Handler, ctx: FileContext, caught: tuple[str, ...]) -> Iterator[Latent]:
        """`except NotesError as e: return error_result(e)`: markers, never reported themselves,
        by which the linker learns that the clause passes the exception on to a project helper
        (position `param`); when that helper puts its parameter's text into what the model reads,
        the clause passes a carried library text on (mcp002_carried_text.CarriedText)."""
        # Calls whose value is sent on by the clause itself: `raise ToolError(describe(e))`.
        sent = {
            id(node)
            for _, value, _, caught_at in self._sinks(fn, handler, ctx)
            if not caught_at
            for node in descendants(value)
            if type(node) is cst.Call
        }
        for call in fn.calls:
            if call.callee is None or call.handler is None or not call.handler.within(handler):
                continue
            if not project_call(call.node, ctx):
                continue  # getattr(e, ...), logger.error(e), library calls
            positional = [a for a in call.node.args if a.keyword is None and not a.star]
            for index, argument in enumerate(positional):
                if type(argument.value) is cst.Name and argument.value.value == handler.name:
                    payload = RawText(
                        passes=True,
                        caught_quals=tuple(q for q in caught if q),
                        helper=call.callee,
                        via_attribute=type(call.node.func) is cst.Attribute,
                        sent=id(call.node) in sent,
                    )
                    yield self.latent(
                        ctx, call.node, variant="handed-to-helper", route="raise", payload=payload, param=index, site=handler.site, classes=payload.caught_quals
                    )

    def _raise_variant(self, fact: RaiseFact, exc: cst.BaseExpression, ctx: FileContext) -> str | None:
        """How a raise of `exc` (a constructor call) reaches the model, or None when it does not."""
        if type(exc) is not cst.Call or fact.caught_here(last_name(dotted(exc.func) or "")):
            return None  # caught again in this function: what happens there is checked there
        if is_tool_error_raise(exc, ctx):
            return "raise"
        if not is_protocol_error_class(raised_class(exc, ctx), None):
            # Reaches the model only where the framework forwards exception text (render decides).
            return "raise-other"
        return None

    def _sent_once(self, fn: FunctionFacts, handler: Handler, value: cst.BaseExpression, ctx: FileContext) -> bool:
        """Does one return or raise of `handler` send on the local `value` is stored in (several:
        one flow, reported where the local takes it in, the sends its related locations)?"""
        store = store_of(fn.value_flow, value)
        if store is None or fn.value_flow is None:
            return False
        flow = fn.value_flow
        return sum(flow.path(sent, node, store) is not None for node, sent, _, _ in self._sinks(fn, handler, ctx)) == 1

    def _flow_sink(self, fact: ReturnFact | RaiseFact, fn: FunctionFacts, ctx: FileContext) -> tuple[str, cst.CSTNode, cst.BaseExpression] | None:
        """(variant, statement, value) of a return or raise that sends a local's text on."""
        if isinstance(fact, ReturnFact):
            return ("return", fact.node, fact.node.value) if fact.node.value is not None else None
        exc = fact.node.exc
        if exc is None:
            return None
        # `err = RuntimeError(f"...{e}")` ... `raise err`: the class is the constructor's.
        variant = self._raise_variant(fact, fn.value_of(exc), ctx)
        return (variant, fact.node, exc) if variant is not None else None

    def _flow_latent(
        self,
        ctx: FileContext,
        fn: FunctionFacts,
        flow_source: Store,
        handler: Handler,
        sink: tuple[str, cst.CSTNode, cst.BaseExpression],
        found: cst.CSTNode,
        place: Store | None = None,
    ) -> Latent:
        """A finding where the text is built, naming the return or raise that sends it. A local
        that keeps the exception object itself (`last_error = e` in a retry loop) holds no text
        yet: the text is taken where the sending statement formats it, and reported there.
        `place`: the store (or the sending statement as one) where the flow is reported instead
        of its source (a body decoded first: mcp002_decoded_body)."""
        value, statement = (place or flow_source).value, (place or flow_source).statement
        variant, node, sent = sink
        object_kept = type(value) is cst.Name and value.value == handler.name
        if object_kept:
            value, statement = sent, node
        sent_call = fn.value_of(sent)
        payload = RawText(
            tool_args_only=handler.parses_parameters,
            parsed_params=parsed_params(handler, fn, ctx) if handler.parses_parameters else (),
            exc=_caught_label(handler),
            traceback=type(found) is cst.Call,
            error_result=variant == "return" and is_error_result(sent, ctx),
            cls=last_name(raised_class(sent_call, ctx) or "") if variant == "raise-other" else "",
            # The statement that sends the text: a related location of the finding.
            sent_at=None if object_kept or statement is node else node_span(ctx, node),
            sent_how="" if object_kept or statement is node else "returned" if variant == "return" else "raised",
        )
        raises = None
        if variant != "return" and type(sent_call) is cst.Call:
            # The linker drops it where every caller on the way catches this class.
            raises = last_name(dotted(sent_call.func) or "")
        # The fix rewrites the sending statement, which can say `from e` only inside the handler.
        sink_handler = next((f.handler for f in (*fn.returns, *fn.raises) if f.node is node), None)
        # `raise err` of a local exception object has no message to rewrite in place.
        rewritable = sink_handler is handler and (variant == "return" or sent is sent_call)
        fix = _build_fix(ctx, fn, node, sent, handler, variant, found) if rewritable else None
        if fix is None and flow_source.element and statement is not None and variant == "return" and degrades(fn, handler):
            # `meta.notes.append(f"could not fetch the price list: {e}")`, the answer returned
            # after the `try`: the note stays, without the exception's text (never a raise).
            fix = _build_fix(ctx, fn, statement, value, handler, "note", found)
        if fix is _SKIPS_CLEANUP:
            fix, payload = None, replace(payload, clause_cleans_up=True)
        needs = () if variant == "raise-other" or (fix is not None and not fix.raises) else ("ToolError",)
        if fix is not None and fix.result:
            needs = fix.needs
        if fix is not None and not fix.raises:
            payload = replace(payload, status_kept=True)  # a status tuple stays returned: the fix raises nothing
        if fix is not None and fix.result:
            payload = replace(payload, result_fix=True)
        if fix is not None and handler.try_node is not None:
            payload = replace(_with_try_context(payload, handler, fn, ctx), own_answer=own_answer(fn, handler, node, found))
        if variant.startswith("raise") and type(sent_call) is cst.Call:
            payload = replace(payload, raised=last_name(raised_class(sent_call, ctx) or ""))
        return _at_taken_text(self.latent(
            ctx,
            value,
            variant=variant,
            route="raise" if variant.startswith("raise") else "text",
            statement=statement,
            payload=payload,
            raises=raises,
            slot=_flow_slot(flow_source, sent) if variant == "return" else "",
            fix_message=fix.description if fix else "",
            fix_applicability=Applicability.UNSAFE if fix else None,
            fix_edits=fix.edits if fix else (),
            fix_needs=(needs + (("logger",) if fix.logs else ())) if fix else (),
            fix_opens=fix.opens if fix else (),
        ), found, ctx)

    def _sinks(
        self, fn: FunctionFacts, handler: Handler, ctx: FileContext
    ) -> Iterator[tuple[cst.CSTNode, cst.CSTNode, str, tuple[str, ...]]]:
        """Returns and raises in `handler`'s body, with the sites of the `except` clauses of this
        function that catch the raise again (reported only where such a clause passes the text
        on to the model: the linker knows)."""
        for ret in fn.returns:
            if ret.handler is not None and ret.handler.within(handler) and ret.node.value is not None:
                yield ret.node, ret.node.value, "return", ()
        for fact in fn.raises:
            if fact.handler is None or not fact.handler.within(handler) or type(fact.node.exc) is not cst.Call:
                continue
            caught_at = _catching_sites(fact, last_name(dotted(fact.node.exc.func) or ""))
            # "raise-other" reaches the model only where the framework forwards exception text
            # (render decides); a protocol error's message is sent as written (MCP001 reports
            # the channel, this rule the content).
            yield fact.node, fact.node.exc, _raise_variant(fact.node.exc, ctx), caught_at

    def _param_sinks(self, fn: FunctionFacts, ctx: FileContext):
        """The sinks a parameter's exception text can reach the model through: _all_sinks, and
        raises of other classes outside any `except` that leave this function (the framework
        forwards their text)."""
        yield from self._all_sinks(fn, ctx)
        for fact in fn.raises:
            exc = fact.node.exc
            if fact.handler is None and type(exc) is cst.Call and self._raise_variant(fact, exc, ctx) == "raise-other":
                yield fact.node, exc, "raise-other", fact.conditions

    def _all_sinks(self, fn: FunctionFacts, ctx: FileContext):
        for ret in fn.returns:
            if ret.node.value is not None:
                yield ret.node, ret.node.value, "return", ret.conditions
        for fact in fn.raises:
            variant = _raise_variant(fact.node.exc, ctx) if type(fact.node.exc) is cst.Call else ""
            if variant in {"raise", "raise-protocol"}:
                yield fact.node, fact.node.exc, variant, fact.conditions

    def _factory_body(
        self, fn: FunctionFacts, ctx: FileContext, node: cst.CSTNode, value: cst.BaseExpression, made: tuple[cst.Call, str], param: str, index: int
    ) -> Latent | None:
        """The body of the response parameter `param` handed (through locals) to the constructor
        of the project exception a factory returns: reported at the return, kept where a caller
        raises what it returns with a response it found failed, and the class's `__init__` puts
        those arguments into its message (CarriedText.link)."""
        call, qual = made
        positions: list[int] = []
        keywords: list[str] = []
        body = None
        for position, argument in enumerate(call.args):
            if argument.star:
                continue
            found = _body_through_locals(argument.value, {param}, fn, ctx, describers=True)
            if found is None:
                continue
            body = body or found
            if argument.keyword is None:
                positions.append(position)
            else:
                keywords.append(argument.keyword.value)
        if body is None:
            return None
        taking = _taking_store(fn, call, body)
        at, sent = (taking.statement, taking.value) if taking is not None else (node, value)
        latent = self._body_latent(ctx, at, sent, "return", body, body_param=index)
        payload = replace(
            raw_text(latent),
            factory=last_name(qual),
            factory_qual=qual,
            constructed=(qual, tuple(positions)),
            constructed_keywords=tuple(keywords),
        )
        return replace(latent, payload=payload)

    def _body_latent(
        self,
        ctx: FileContext,
        node: cst.CSTNode,
        value: cst.BaseExpression,
        variant: str,
        body: cst.CSTNode,
        body_param: int | None = None,
    ) -> Latent:
        """An upstream error body sent by `node`: reported there, where the text is put
        together (the locals that carry the body on the way are the same flow). `body_param`:
        the parameter holding the response, in a helper its callers hand a failed one."""
        source = FAILED_PROCESS if process_output(body, ctx) else "upstream response"
        payload = RawText(exc=source, body=ctx.code(body), body_param=body_param)
        class_qual = ""
        if variant == "raise-other" and type(value) is cst.Call:
            cls = last_name(raised_class(value, ctx) or "")
            payload = replace(payload, cls=cls, raised=cls)
            class_qual = project_class(value.func, ctx) or ""
        raises = None
        if variant.startswith("raise") and type(value) is cst.Call:
            raises = last_name(dotted(value.func) or "")  # the linker drops it where callers catch it
        route = "raise" if variant.startswith("raise") else "text"
        return self.latent(
            ctx,
            item_holding(value, body),
            variant=f"{variant}-body",
            route=route,
            statement=node,
            payload=payload,
            raises=raises,
            raises_qual=class_qual,
            classes=(class_qual,) if class_qual else (),
        )

    def _body_sinks(self, fn: FunctionFacts, ctx: FileContext):
        """The sinks an upstream error body can reach the model through: _all_sinks, and raises
        of other classes that leave this function (the framework forwards their text): outside
        an `except`, or in a clause that caught a reply's failed decoding or status (failed_replies_in)."""
        yield from self._all_sinks(fn, ctx)
        for fact in fn.raises:
            exc = fact.node.exc
            outside = fact.handler is None or failed_replies_in(fact.handler)
            if type(exc) is cst.Call and outside and _raise_variant(exc, ctx) == "raise-other":
                if self._raise_variant(fact, exc, ctx) == "raise-other":  # not caught again here
                    yield fact.node, exc, "raise-other", fact.conditions

    def _latent(
        self,
        ctx: FileContext,
        fn: FunctionFacts,
        node,
        value,
        handler: Handler,
        variant: str,
        found: cst.CSTNode,
        built: cst.BaseExpression | None = None,
    ) -> Latent:
        """`built`: the value of the local that holds the text (`msg = f"...{e}"`): the finding
        sits there, naming the statement that sends it."""
        payload = RawText(
            tool_args_only=handler.parses_parameters,
            parsed_params=parsed_params(handler, fn, ctx) if handler.parses_parameters else (),
            exc=_caught_label(handler),
            traceback=type(found) is cst.Call,
            error_result=variant == "return" and is_error_result(value, ctx),
            cls=last_name(raised_class(value, ctx) or "") if variant in {"raise-other", "raise-protocol"} else "",
            # Reported where the text is built: the statement that sends it is a related location.
            sent_at=node_span(ctx, node) if built is not None else None,
            sent_how=("returned" if variant == "return" else "raised") if built is not None else "",
            # What the statement raises today: the fix must not change which `except` handles it.
            raised=last_name(raised_class(value, ctx) or "") if variant.startswith("raise") else "",
        )
        raises = None
        if built is not None and variant.startswith("raise") and type(value) is cst.Call:
            # Reported where the text is built, not at the raise: the linker still needs the class
            # to drop it where every caller on the way catches it.
            raises = last_name(dotted(value.func) or "")
        # A project subclass of ToolError is delivered like ToolError (the linker knows bases).
        class_qual = (project_class(value.func, ctx) or "") if variant == "raise-other" and type(value) is cst.Call else ""
        # A gathered exception is one result of a batch: rewriting the return would drop the others.
        fix = _build_fix(ctx, fn, node, value, handler, variant, found) if handler is not fn.gathered else None
        if fix is _SKIPS_CLEANUP:
            fix, payload = None, replace(payload, clause_cleans_up=True)
        needs = () if variant == "raise-other" or (fix is not None and not fix.raises) else ("ToolError",)
        if fix is not None and fix.result:
            needs = fix.needs
        if fix is not None and not fix.raises:
            payload = replace(payload, status_kept=True)  # a status tuple stays returned: the fix raises nothing
        if fix is not None and fix.result:
            payload = replace(payload, result_fix=True)
        if fix is not None and handler.try_node is not None:
            payload = replace(_with_try_context(payload, handler, fn, ctx), own_answer=own_answer(fn, handler, node, found))
        if fix is not None and variant == "raise-other" and fix.words:
            # Its callers may say the operation already: the reason-only fix, chosen at link time.
            # (The callers that pass its text on to a tool are on the tools' paths, which every
            # run analyses; asking a prefiltered run for every caller would analyse whole
            # projects for one file. `--fix`, `--diff` and `--unsafe-fixes` read every file.)
            reason = _build_fix(ctx, fn, node, value, handler, variant, found, reason_only=True)
            if reason is not None:
                payload = replace(payload, reason_fix=(reason.description, reason.edits, reason.logs), fix_words=fix.words)
                quiet = _build_fix(ctx, fn, node, value, handler, variant, found, reason_only=True, quiet=True)
                if quiet is not None:
                    payload = replace(payload, reason_fix_quiet=(quiet.description, quiet.edits, quiet.logs))
        return _at_taken_text(self.latent(
            ctx,
            built if built is not None else value,
            variant=variant,
            route="raise" if variant.startswith("raise") else "text",
            statement=built if built is not None else node,
            payload=payload,
            raises=raises,
            slot=_text_slot(value, lambda part: any(n is found for n in descendants(part))) if variant == "return" else "",
            raises_qual=class_qual,
            classes=(class_qual,) if class_qual else (),
            fix_message=fix.description if fix else "",
            fix_applicability=Applicability.UNSAFE if fix else None,
            fix_edits=fix.edits if fix else (),
            fix_needs=(needs + (("logger",) if fix.logs else ())) if fix else (),
            fix_opens=fix.opens if fix else (),
        ), (find_exception_text(built, handler, through_locals=False) or found) if built is not None else found, ctx)

    def summarize(self, fn: FunctionFacts, ctx: FileContext, summary: FunctionSummary) -> None:
        """The words each `except` clause writes before its caught exception's text, for the
        helpers whose raises it catches (callers_words.py)."""
        if fn.handlers:
            summary.words_before_caught = tuple(words_before_caught(fn))
            summary.traced_sites = tuple(traced_clauses(fn))

    def link_start(self, project: LinkedProject, reached: Mapping[str, Reach]) -> CarriedText:
        return CarriedText(self, project, reached)

    def link_latent(self, latent: Latent, function: str, reach: Reach, project: LinkedProject, state: object) -> Latent | None:
        assert isinstance(state, CarriedText)
        return state.link(latent, function, reach)

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        variant = latent.variant
        payload = raw_text(latent)
        if payload.tool_args_only and context.is_tool:
            return None  # a parse error of the tool's own argument: the model can correct its input
        passed_on = latent.passed_on  # caught by the project's code, which passes its text on
        if variant.startswith("raise-other") and not passed_on and not context.forwards_exception_text():
            return None  # masked or not forwarded on some candidate version: MCP008's business
        if variant.startswith("raise-protocol") and context.protocol_error_masked():
            return None  # the framework replaces a protocol error's message with a generic text
        notes: list[str] = []
        if payload.traceback:
            what = "a traceback"
        elif variant.endswith("-body") and payload.exc == FAILED_PROCESS:
            what = f"the output of a failed process ({payload.body})"
        elif variant.endswith("-body"):
            what = f"an upstream error body ({payload.body})"
        elif variant.endswith("-param"):
            what = f"the text of the exception passed in '{payload.param}'"
        elif payload.carrier is not None:
            where = f", as at {payload.carrier}" if payload.carrier else ""
            what = f"the text of a caught {_caught(payload.exc)}"
            notes.append(f"{payload.exc} is raised in this project only with library exception text{where}")
        else:
            what = f"the text of a caught {_caught(payload.exc)}"
        if "/" in payload.exc:
            notes.append(f"the caught classes: {payload.exc}")
        sent = related_at(payload.sent_at, f"the text is {payload.sent_how} here")
        cls = payload.cls
        forwards = f"{context.framework.describe_exception_text_release()} forwards an unexpected exception's text to the model"
        if variant.startswith("return") and payload.error_result:
            claim = f"returns {what} in its error result"
        elif variant.startswith("return"):
            claim = f"returns {what} as a normal result"
            notes.append("the model reads it verbatim as the tool's answer (isError: false)")
        elif passed_on and payload.factory:
            claim = f"builds {cls} with {what}, which the caller raises"
            notes.append(f"caught on the way: {passed_on}")
        elif variant.startswith("raise-param") and payload.factory:
            claim = f"builds {cls} with {what}, which the caller raises"
            notes.append("the model reads a ToolError's text verbatim")
        elif passed_on:
            claim = f"raises {cls or 'ToolError'} with {what}"
            notes.append(f"caught on the way: {passed_on}")
        elif variant.startswith("raise-protocol"):
            claim = f"puts {what} into {cls or 'a protocol error'}"
            notes.append("a protocol error's message is sent to the client as written")
        elif variant.startswith("raise-other") and payload.raised_by:
            claim = f"returns {what}, which a caller raises in {payload.raised_by}"
            notes.append(forwards)
        elif variant.startswith("raise-other") and payload.factory:
            claim = f"builds {cls} with {what}, which the caller raises"
            notes.append(forwards)
        elif variant.startswith("raise-other"):
            claim = f"raises {cls or 'an exception'} with {what}"
            notes.append(forwards)
        elif cls:  # a project subclass of ToolError (the linker knows its bases)
            claim = f"puts {what} into {cls}"
            notes.append(f"{cls} is a ToolError: the model reads its text verbatim")
        else:
            claim = f"puts {what} into ToolError"
            notes.append("the model reads a ToolError's text verbatim")
        message = f"{context.subject} {claim}"
        help_text = "Log the exception; say which operation failed and what the next call can change"
        if payload.exc == FAILED_PROCESS:
            help_text = "Log the output; say which operation failed, its exit status, and what the next call can change"
        if payload.result_fix:
            # An error result from the 2.x low-level handler: offered where every candidate
            # release delivers it (the linker's framework rows), never a raise there.
            fix = latent_fix(latent) if context.lowlevel and lowlevel_result_supported(context.framework) else None
        else:
            fix = latent_fix(latent) if toolerror_available(context) or variant == "raise-other" else None
        if fix is not None and _calls_a_validator(payload.try_callees, payload.caught_before, context):
            fix = None  # the validator's message is the model's hint: no new message replaces it
        if fix is not None and payload.try_calls:
            kept_advice = _keeping_own_advice(fix, payload, context)
            if kept_advice is None and payload.clause_cleans_up and _keeping_own_advice(fix, replace(payload, clause_cleans_up=False), context):
                help_text = CLEANUP_HELP
            fix = kept_advice
        elif fix is None and payload.clause_cleans_up:
            help_text = CLEANUP_HELP
        if fix is not None and _parses_an_enum_argument(payload, context):
            fix = None  # the Enum's ValueError names the caller's bad value: the model's hint
        kept = _author_text_caught(fix, payload, context) if fix is not None else None
        if kept is not None and payload.result_fix:
            fix = None  # let through by name, the author's exception would be a protocol error there
        if kept is not None:
            # A ValueError (the class of the author's sentences about an input or a setting) is
            # let through by name (`except ValueError: raise` first) where no library call of the
            # `try` raises that class too (its text would go with the author's); else, and for
            # the other builtin classes (a subscript's KeyError, an event loop's RuntimeError
            # come from anywhere), no fix rather than a lost sentence. pydantic's
            # ValidationError is raised by pydantic alone: let through where the clause only
            # reports.
            names, words = kept
            # (With a fix the help is its title; this is said when there is none, also when the
            # module's name ValidationError is another class and the link step withholds it.)
            help_text = f"Keep {words} in the message; a new one would drop it (no fix)"
            if names == VALIDATION_ERROR:
                fix = _letting_validation_errors_through(fix, payload, context)  # type: ignore[arg-type]
            else:
                cls = max(names, key=lambda name: len(builtin_bases(name)))
                passable = cls not in payload.clause_caught and "ValueError" in builtin_bases(cls)
                clash = library_raising(cls, payload.try_calls, payload.try_methods, context.project) if passable else None  # type: ignore[arg-type]
                fix = _letting_a_builtin_through(fix, payload, context, cls) if passable and clash is None else None  # type: ignore[arg-type]
                if clash is not None:
                    help_text = (
                        f"Keep {words} in the message; a new one would drop it, and `except {cls}: raise`"
                        f" would also let {last_name(clash)}()'s {cls} through (no fix)"
                    )
        if fix is not None and any(PH_TOOL_SENTENCE in edit.content for edit in fix.edits):
            fix = _naming_the_tool(fix, context)
        if fix is not None and not payload.status_kept:
            # A return becomes a raise of ToolError; a raise keeps its class.
            raises = (payload.cls if variant == "raise-other" else "") or "ToolError"
            fix = replace(fix, raises=raises, replaces=payload.raised or ("" if variant.startswith("return") else raises))
        if fix is not None and payload.own_answer:
            # The other side's answer about the caller's input: a maintainer keeps part of it.
            keep = KEEP[payload.own_answer]
            fix = replace(fix, applicability=Applicability.DISPLAY_ONLY, message=f"{fix.message}; not applied: {keep}")
            help_text = f"{keep[0].upper()}{keep[1:]}: it may answer the caller's own arguments (the fix shown drops it all)"
        # The statements the text goes through, then the one that sends it (in the flow's order).
        related = (*flow_related(latent.flow, "text"), sent) if sent else flow_related(latent.flow, "text")
        related = (*related, *payload.rewraps)
        also = (related_at(span, "the same body is sent here too") for span in payload.also_sent)
        related = (*related, *(r for r in also if r is not None))
        return Rendered(message, fix, help=help_text, notes=tuple(notes), related=related)


# The source named by a finding on what a process whose exit status says it failed wrote.
FAILED_PROCESS = "failed process"


# Why a finding has no fix when the clause's text carries the project's own advice and the clause
# rolls back or retries (the pass-through keeping the advice would skip that).
CLEANUP_HELP = "Keep the clause: letting the project's errors through first would skip its cleanup (no fix)"


def _at_taken_text(latent: Latent, found: cst.CSTNode, ctx: FileContext) -> Latent:
    """A value spread over several lines is reported at the line where the exception's text
    enters it (`return [Content(` ... `text=f"Failed: {e}")]`: the f-string's line), the line a
    reader looks for and the fix rewrites; a one-line value keeps its start."""
    start = ctx.range(found).start
    if not latent.location.row < start.line <= latent.end_location.row:
        return latent
    return replace(latent, location=Location(start.line, start.column + 1))


def _positional(call: cst.Call) -> list[cst.Arg]:
    return [a for a in call.args if a.keyword is None and not a.star]


def _keywords_holding(value: cst.BaseExpression, carries: Callable[[cst.BaseExpression], bool], ctx: FileContext) -> tuple[str, tuple[str, ...]] | None:
    """(the class, the keywords) where `value` constructs a project class and only keyword
    arguments of it carry the body (`ApiError(f"HTTP {status}", body=body)`); None otherwise."""
    if type(value) is not cst.Call:
        return None
    qual = project_class(value.func, ctx)
    if qual is None:
        return None
    keywords: list[str] = []
    for argument in value.args:
        if carries(argument.value):
            if argument.keyword is None or argument.star:
                return None
            keywords.append(argument.keyword.value)
    return (qual, tuple(keywords)) if keywords else None


def _constructed_with(value: cst.BaseExpression, names: set[str], ctx: FileContext) -> tuple[str, tuple[int, ...]] | None:
    """(the class, the positions) where `value` constructs a project class handing it one of
    `names` whole (`ApiError(exc)`, `ApiError("lookup", resp)`), and no other argument holds text
    of them (`ApiError(f"...: {exc}")` takes the text in itself); None otherwise."""
    if type(value) is not cst.Call:
        return None
    qual = project_class(value.func, ctx)
    if qual is None:
        return None
    positions = tuple(i for i, a in enumerate(_positional(value)) if type(a.value) is cst.Name and a.value.value in names)
    if not positions:
        return None
    whole = {id(a) for i, a in enumerate(_positional(value)) if i in positions}
    others = [a.value for a in value.args if id(a) not in whole]
    if any(find_exception_text(other, None, frozenset(names)) is not None for other in others):
        return None
    return qual, positions


def _stored_again_since_tested(fn: FunctionFacts, base: str, conditions: Sequence[cst.BaseExpression], sink: cst.CSTNode, ctx: FileContext) -> bool:
    """`if resp.status_code == 401: resp = client.get(url); resp.raise_for_status(); return
    resp.json()`: every value of the local the sink reads was stored after the test that found
    the earlier response failed; that test says nothing of this one."""
    if fn.value_flow is None:
        return False
    tested = [line for c in conditions if base.split(".")[0] in _names_in(c) and (line := _line_of(c, ctx)) is not None]
    stores = fn.value_flow.reaching(base, sink)
    if not tested or not stores:
        return False
    return all(store.statement is not None and ctx.start_line(store.statement) > max(tested) for store in stores)


def _line_of(node: cst.CSTNode, ctx: FileContext) -> int | None:
    """The line `node` starts on; None for a test the walk made up (the `not` of an `if` whose
    `else` branch holds the statement has no place in the file)."""
    try:
        return ctx.start_line(node)
    except KeyError:
        return None


def _reports_a_failure(value: cst.BaseExpression, ctx: FileContext) -> bool:
    """A returned failure, or a tuple one of whose items is one (`return {"status": "error",
    "message": message}, False`: an envelope and a flag the caller reads)."""
    if failure_message_of(value, ctx) is not None:
        return True
    return type(value) is cst.Tuple and any(failure_message_of(el.value, ctx) is not None for el in value.elements)


def _whole_body(body: cst.CSTNode) -> bool:
    """Is `body` the reply's whole text (`resp.text`, `resp.content`, `resp.json()`), not a field
    picked from a decoded reply (`reply.get("error_text")`), which each branch may pick anew?"""
    if type(body) is cst.Call:
        body = body.func
        return type(body) is cst.Attribute and body.attr.value in {"json", "read", "decode"}
    return type(body) is cst.Attribute and body.attr.value in {"text", "content"}


def _one_flow_per_local(groups: Iterable[tuple[Store, list[Latent]]], ctx: FileContext) -> Iterator[Latent]:
    """Upstream bodies read whole into a local first (`body = resp.text[:500]`): one statement
    sending it is reported there, as before; several (a raise per status branch) are one flow,
    reported where the local takes the body in, the sending statements its related locations."""
    for taken, latents in groups:
        if len(latents) == 1 or taken.statement is None:
            yield from latents
            continue
        first, *others = latents
        start, end = node_span(ctx, taken.value)
        also = tuple((*raw_text(first).also_sent, *((o.location, o.end_location) for o in others)))
        yield replace(first, location=start, end_location=end, payload=replace(raw_text(first), also_sent=also))


def _other_param_text(other: Store, param: str, ctx: FileContext) -> bool:
    """Does `other` put text of the exception parameter `param` other than its reply's body in?"""
    if decoded_body_of(other.value, param) or param not in _names_in(other.value):
        return False
    found = param_text_outside_helpers(other.value, frozenset({param}), ctx)
    return found is not None and looks_like_exception_param(found, param)


def _param_text_taken(fn: FunctionFacts, sink: cst.CSTNode, value: cst.BaseExpression, param: str, ctx: FileContext) -> list[Store]:
    """The statements whose stores the returned `value` carries and that take the text of the
    exception parameter `param` in themselves (`message = str(error)`; not `detail =
    body.get(...)` after `body = error.response.json()`, the same flow), in source order: one
    flow each (the branches of `try: body = e.response.json() except ValueError: body =
    e.response.text`)."""
    if fn.value_flow is None:
        return []
    _, stores, _ = fn.value_flow.follow(value, at=sink)
    taken: list[tuple[int, Store]] = []
    for store in stores:
        if store.statement is None or param not in _names_in(store.value):
            continue
        found = param_text_outside_helpers(store.value, frozenset({param}), ctx)
        if found is not None and looks_like_exception_param(found, param):
            taken.append((ctx.start_line(store.statement), store))
    return [store for _, store in sorted(taken, key=lambda t: t[0])]


def _project_calls_in(block: cst.CSTNode, fn: FunctionFacts, ctx: FileContext) -> tuple[str, ...]:
    """The qualified names of the project's functions called in `block` (a `try` body)."""
    inside = {id(node) for node in descendants(block, into_scopes=False) if type(node) is cst.Call}
    return tuple(dict.fromkeys(c.callee for c in fn.calls if c.callee and id(c.node) in inside and project_call(c.node, ctx)))


def _with_try_context(payload: RawText, handler: Handler, fn: FunctionFacts, ctx: FileContext) -> RawText:
    """The payload of a fixed finding with what render asks of the clause's `try`: the project
    functions it calls (a validator's text stays), every call, what the clause catches, where a
    pass-through can go before it and the classes the module names (own_advice)."""
    assert handler.try_node is not None
    return replace(
        payload,
        try_callees=_project_calls_in(handler.try_node.body, fn, ctx),
        try_calls=_calls_in(handler.try_node.body, fn),
        try_methods=_unresolved_methods(handler.try_node.body, fn),
        caught_before=_caught_before(handler, fn),
        clause_caught=tuple(last_name(name) for name in handler.caught) or ("BaseException",),
        clause_at=clause_insertion(handler, ctx),
        clause_cleans_up=not only_reports(fn, handler.node),
        nameable=nameable_classes(ctx),
        module=ctx.model.module,
        argument_classes=_classes_built_from_parameters(handler, fn, ctx) if _catches_value_error(handler) else (),
    )


def _catches_value_error(handler: Handler) -> bool:
    """Does the clause take a ValueError: by name, or as `Exception`, `BaseException`, bare?"""
    caught = {last_name(n) for n in handler.caught}
    return not caught or bool(caught & {"ValueError", "Exception", "BaseException"})


def _classes_built_from_parameters(handler: Handler, fn: FunctionFacts, ctx: FileContext) -> tuple[str, ...]:
    """The project classes the `try` body builds from one of the function's parameters
    (`ResponseFormat(format.lower())`, `ItemInput(**item)`, `Query(text=text)`,
    `Query.model_validate(args)`): an Enum's ValueError names the value the caller passed
    ("'xml' is not a valid ResponseFormat"), a pydantic model's ValidationError the argument
    field that was wrong; which the class is, the link step can tell (its ancestors)."""
    assert handler.try_node is not None
    params = _every_parameter(fn.node) - {"self", "cls"}
    found: list[str] = []
    for node in descendants(handler.try_node.body, into_scopes=False):
        if type(node) is not cst.Call or not any(_from_parameter(a.value, params) for a in node.args):
            continue
        func = node.func
        if type(func) is cst.Attribute and func.attr.value in _MODEL_BUILDERS:
            func = func.value  # `Query.model_validate(args)` builds `Query`
        qual = project_class(func, ctx)
        if qual is not None and qual not in found:
            found.append(qual)
    return tuple(found)


def _every_parameter(node: cst.FunctionDef) -> set[str]:
    """The names of all of a function's parameters, `*args`, keyword-only and `**kwargs` too."""
    p = node.params
    found = {param.name.value for param in (*p.posonly_params, *p.params, *p.kwonly_params)}
    for star in (p.star_arg, p.star_kwarg):
        if type(star) is cst.Param:
            found.add(star.name.value)
    return found


_MODEL_BUILDERS = frozenset({"model_validate", "model_validate_json", "parse_obj", "parse_raw"})


def _from_parameter(value: cst.BaseExpression, params: set[str]) -> bool:
    while type(value) is cst.Call and type(value.func) is cst.Attribute:
        value = value.func.value  # `format.lower()`, `kind.strip().upper()`
    root = root_of(value)
    return type(root) is cst.Name and root.value in params


def _author_text_caught(fix: FixSpec, payload: RawText, context: RenderContext) -> tuple[frozenset[str], str] | None:
    """The author's words the clause catches from its `try` in a builtin class or pydantic's
    ValidationError (mcp002_own_advice.author_text): (the class's names, the words said for the
    help line); None when there are none, or when the fix lets that class through before the
    clause already."""
    project = context.project
    if project is None:
        return None
    found = author_text(payload.try_calls, payload.argument_classes, frozenset(payload.clause_caught), frozenset(payload.caught_before), project)
    if found is None:
        return None
    names, words = found
    written = "".join(edit.content for edit in fix.edits)
    passed = set(_PASSED.findall(written))
    return None if passed & (names - {"Exception", "BaseException"}) else found


def _letting_validation_errors_through(fix: FixSpec, payload: RawText, context: RenderContext) -> FixSpec | None:
    """The fix with `except ValidationError: raise` before the rewritten clause, for pydantic's
    errors carrying the author's words (a validator's sentence, the field errors of a model built
    from the tool's arguments): what a maintainer writes to keep them. pydantic's class is raised
    by pydantic alone, so no other library's text goes with it (a builtin ValueError could carry
    any library's). None where the clause does more than report (the pass-through would skip its
    rollback or retry), cannot be preceded by another, or where the framework does not send an
    escaping ValidationError's text to the model (masking; mcp 2.x's low level answers
    "Invalid request parameters")."""
    if payload.clause_at is None or payload.clause_cleans_up or not context.forwards_exception_text():
        return None
    if context.framework.family not in (Family.MCP_FASTMCP, Family.FASTMCP):
        return None
    row, indent, inner = payload.clause_at
    edits = _inserted_at(fix.edits, Location(row, 1), f"{indent}except {PH_VALIDATION_ERROR}:\n{inner}raise\n")
    message = f"{fix.message}; let {PH_VALIDATION_ERROR} through"
    return replace(fix, edits=tuple(edits), message=message, needs=(*fix.needs, "ValidationError"))


def _letting_a_builtin_through(fix: FixSpec, payload: RawText, context: RenderContext, cls: str) -> FixSpec | None:
    """The fix with `except ValueError: raise` before the rewritten clause, for a builtin class
    the project's functions called in the `try` raise with the author's sentence (a helper's
    `raise ValueError(f"File not found: {path}")`) and no library call there raises: the
    framework sends its text as the author wrote it (the caller checked that the clause does not
    catch the class by its own name). None where the clause does more than report, cannot be
    preceded by another, or where the framework would not send an escaping exception's text."""
    if payload.clause_at is None or payload.clause_cleans_up or not context.forwards_exception_text():
        return None
    row, indent, inner = payload.clause_at
    edits = _inserted_at(fix.edits, Location(row, 1), f"{indent}except {cls}:\n{inner}raise\n")
    return replace(fix, edits=tuple(edits), message=f"{fix.message}; let {cls} through")


# `except ValueError:\n    raise` put before the clause by the fix (handler_fix's advice pass-through).
_PASSED = lazy_compile(r"except \(?(\w+)[^:]*:\s*raise\b")


def _calls_in(block: cst.CSTNode, fn: FunctionFacts) -> tuple[str, ...]:
    """The callees (as the call edges name them) of every call in `block`: which of them are the
    project's functions, through instances and typed parameters, the link step knows."""
    inside = {id(node) for node in descendants(block, into_scopes=False) if type(node) is cst.Call}
    return tuple(dict.fromkeys(c.callee for c in fn.calls if c.callee and id(c.node) in inside))


def _unresolved_methods(block: cst.CSTNode, fn: FunctionFacts) -> tuple[str, ...]:
    """The method names of the calls in `block` that no call edge resolves (`response.json()` on
    a local the call graph does not type)."""
    resolved = {id(c.node) for c in fn.calls if c.callee}
    found = (
        node.func.attr.value
        for node in descendants(block, into_scopes=False)
        if type(node) is cst.Call and type(node.func) is cst.Attribute and id(node) not in resolved
    )
    return tuple(dict.fromkeys(found))


def _caught_before(handler: Handler, fn: FunctionFacts) -> tuple[str, ...]:
    """Short names of the classes the clauses before `handler` in its `try` catch."""
    names: list[str] = []
    for other in fn.handlers:
        if other is handler:
            break
        if other.try_node is handler.try_node:
            names.extend(last_name(name) for name in other.caught)
    return tuple(names)


def _calls_a_validator(callees: tuple[str, ...], caught_before: tuple[str, ...], context: RenderContext) -> bool:
    """Does the `try` call a project function that rejects bad arguments with a raise of its own
    (`validate_slug(slug)` raising "Invalid slug: use letters, digits and hyphens"), whose
    exception reaches this clause? What it raises is the author's sentence about the model's
    argument, caught with the rest. An earlier clause of the same `try` that catches every class
    it raises (or a base of each) takes it first."""
    project = context.project
    if project is None:
        return False
    for callee in callees:
        found = project.function(callee)
        if found is None or not found[1].validates:
            continue
        if caught_before and _taken_before(callee, frozenset(caught_before), context):
            continue
        return True
    return False


def _taken_before(callee: str, caught_before: frozenset[str], context: RenderContext) -> bool:
    project = context.project
    found = project.function(callee) if project is not None else None
    raised = {qual for qual, *_ in found[1].exception_raises} if found is not None else set()
    return bool(raised) and all({last_name(a) for a in project.class_ancestors(qual)} & caught_before for qual in raised)  # type: ignore[union-attr]


def _parses_an_enum_argument(payload: RawText, context: RenderContext) -> bool:
    """Does the `try` turn one of the function's parameters into a project Enum, under a clause
    catching ValueError? Its text ("'xml' is not a valid ResponseFormat") says which argument
    was wrong and with what value: a new message would drop it."""
    project = context.project
    if project is None:
        return False
    return any(
        any(last_name(a) in _ENUM_BASES for a in project.class_ancestors(qual)) for qual in payload.argument_classes
    )


_ENUM_BASES = frozenset({"Enum", "StrEnum", "IntEnum", "Flag", "IntFlag"})


def _keeping_own_advice(fix: FixSpec, payload: RawText, context: RenderContext) -> FixSpec | None:
    """The fix with `except OwnError: raise` before the rewritten clause for the project's own
    classes its `try` raises through other modules' code with the author's words (a client's
    "Too many requests. Retry after 60s."): the old text passed their advice on through `{e}`.
    None when no name of this module covers one of them, when the clause cannot be preceded by
    another, or when the framework would mask the text of an exception let through."""
    project = context.project
    if project is None:
        return fix
    found = own_raises(payload.try_calls, project, payload.module)
    caught = set(payload.clause_caught)
    broad = bool(caught & {"Exception", "BaseException"})
    reaching = tuple(
        cls for cls in found.author if broad or {last_name(a) for a in project.class_ancestors(cls) or (cls,)} & caught
    )
    if not reaching:
        return fix
    nameable = tuple((name, project.resolve(qual)) for name, qual in payload.nameable)
    names = pass_through_names(replace(found, author=reaching), payload.caught_before, nameable, project)
    if names is None or (names and (payload.clause_at is None or not context.forwards_exception_text())):
        return None  # their words would be lost: the clause stays as the author wrote it
    if names and payload.clause_cleans_up:
        return None  # a pass-through would skip the clause's rollback or retry
    if not names:
        return fix
    row, indent, inner = payload.clause_at  # type: ignore[misc]
    at = Location(row, 1)
    written = "".join(edit.content for edit in fix.edits if edit.location == at and edit.end_location == at)
    names = tuple(name for name in names if f"except {name}:" not in written)
    if not names:
        return fix
    caught_text = names[0] if len(names) == 1 else f"({', '.join(names)})"
    edits = _inserted_at(fix.edits, at, f"{indent}except {caught_text}:\n{inner}raise\n")
    return replace(fix, edits=tuple(edits), message=f"{fix.message}; let {caught_text} through")


def _caught(classes: str) -> str:
    """How a message names the caught classes ('A/B/C' from an `except (A, B, C)`): the first,
    and how many more (a note lists them all)."""
    names = classes.split("/")
    return names[0] if len(names) == 1 else f"{names[0]} (or {len(names) - 1} more)"


def _naming_the_tool(fix: FixSpec, context: RenderContext) -> FixSpec | None:
    """The fix with what failed said in the words of the one tool the failure reaches; None when
    several tools reach it (a shared helper's message cannot name one) or the name says nothing."""
    tools = set(context.tools) or ({context.function} if context.is_tool else set())
    sentence = failure_words.tool_sentence(tools.pop()) if len(tools) == 1 else None
    if sentence is None:
        return None
    edits = tuple(replace(edit, content=edit.content.replace(PH_TOOL_SENTENCE, sentence)) for edit in fix.edits)
    return replace(fix, edits=edits, message=fix.message.replace(PH_TOOL_SENTENCE, sentence))




def _message_expr(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The expression holding the message text in a returned/raised value."""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) in (cst.List, cst.Tuple) and len(value.elements) == 1:
        return _message_expr(value.elements[0].value)
    if type(value) is cst.Tuple:
        # `return False, f"File {path} is not writeable: {e}"`: the text next to status flags.
        return _message_element([element.value for element in value.elements])
    if type(value) is cst.Dict:
        return value  # the caller picks the entry (see _dict_message)
    if type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value == "format":
        if type(value.func.value) in (cst.SimpleString, cst.ConcatenatedString):
            return value  # `"... {}".format(...)` is the message itself
    if type(value) is cst.Call:
        for argument in value.args:
            if argument.keyword is not None and argument.keyword.value in MESSAGE_KEYWORDS:
                return argument.value
        content = next((a.value for a in value.args if a.keyword is not None and a.keyword.value == "content"), None)
        if content is not None:
            return _message_expr(content)
        positional = [a.value for a in value.args if a.keyword is None and not a.star]
        if positional:
            first = positional[0]
            if literal_text(first) is not None or type(first) is cst.Name:
                return first
            # `ApiError(resp.status_code, f"JSON parse error: {e}", body)`: the string argument.
            text = [p for p in positional if is_text(p)]
            return text[0] if len(text) == 1 else _message_expr(first)
        return None
    return value


def _text_beside(value: cst.Call, message: cst.BaseExpression, handler: Handler, ctx: FileContext) -> bool:
    """Does an argument of the raised class's call other than its message carry the caught
    exception's text?"""
    return any(a.value is not message and exception_text_in(a.value, handler, ctx) is not None for a in value.args)


def _holds_text(expr: cst.BaseExpression, handler: Handler, sink: cst.CSTNode, ctx: FileContext) -> bool:
    """Is `expr` text: a string expression, `str(...)`, or a local the handler assigns one?"""
    if type(expr) is cst.Name:
        found = local_value(handler, expr.value, sink, ctx)
        return found is not None and _holds_text(found[1], handler, sink, ctx)
    if type(expr) is cst.Call:
        name = dotted(expr.func) or ""
        return name in {"str", "repr"} or (type(expr.func) is cst.Attribute and expr.func.attr.value in {"format", "join"})
    return is_text(expr)


def _message_element(elements: list[cst.BaseExpression]) -> cst.BaseExpression | None:
    """The one element of a returned tuple that holds text, beside flags and None."""
    values = [e for e in elements if not (type(e) is cst.Name and e.value in {"True", "False", "None"})]
    values = [e for e in values if type(e) not in (cst.Integer, cst.Float)]
    strings = [e for e in values if is_text(e)]
    if len(strings) == 1:
        return strings[0]
    return values[0] if len(values) == 1 else None


class _FixText:
    """Finds the author's message behind a sink, through locals of the handler and error dicts."""

    def __init__(self, ctx: FileContext, fn: FunctionFacts, sink: cst.CSTNode, handler: Handler) -> None:
        self.ctx = ctx
        self.fn = fn
        self.sink = sink
        self.handler = handler
        self.context: list[tuple[str, str]] = []  # (key, expression) of the old error dict
        self.handlers = [handler] + [other for other in fn.handlers if other is not handler and lies_within(other.node, sink)]
        self.quote = '"'
        # The value the message now names as the one rejected (`timezone_name`), if any.
        self.rejected: str | None = None
        # The author's label of the failure's kind whose content was the exception ("database
        # error" of `f"Database error: {e}"`), to follow the operation named from the code.
        self.label: str | None = None
        # What the label carried in parentheses besides the exception ("(HTTP {status})" of
        # `f"API error (HTTP {status}): {e}"`), to follow the operation named from the code.
        self.label_detail: list[Text | Placeholder] = []
        # Locals bound from the statement that takes the exception's text (`kind, text =
        # describe(e)`): the rule traced the text into them (through the helper's summary), so
        # the new message must not carry them either, or the leak only moves.
        self.carriers: frozenset[str] = frozenset()
        # The advice of the old error dict (`"suggestion": "..."`), for the raised message only.
        self.hint: Message | None = None
        # The old error dict carries advice no message can keep (results.hint_left_behind).
        self.hint_left_behind = False
        # Replies the clause knows failed (their decoding or status raised what it caught): their
        # body is what the upstream sent instead of an answer. Raised, this rule reports it
        # (a ToolError's text is read verbatim), so the new message goes without it too: a fix
        # must not write what the next `check` reports with no fix (review 14).
        self.failed_replies = failed_replies_in(handler)

    def message(self, value: cst.BaseExpression, found: cst.CSTNode) -> Message | None:
        """The message to send instead: the author's words, else the code's (see `_from_code`);
        None where the code cannot say what failed (a wrapper running the function it was handed)."""
        self.carriers = bound_from(self.handler, found, self.sink, self.ctx)
        message = self._from(_message_expr(value), 0)
        self._builder_advice(_unawaited(value))
        if message is None and type(found) is cst.Name:
            # The text went into a local that the value uses somewhere inside (`title=error_msg`).
            message = self._from(found, 0)
        if message is None:
            # The author's words about this failure in the handler's own log call, next.
            message = next(filter(None, (self._from_log(call) for call in log_calls_before(self.handler, self.sink, self.ctx))), None)
        if message is None and runs_a_handed_function(self.handler, self.fn, self.ctx):
            # A decorator's wrapper (or a helper running a callable it is given) catches whatever
            # the function it runs raises, for every tool it wraps: the code names no operation,
            # and the one tool reaching it today does not speak for the others. The author's
            # own words (`"Error in %s", func.__name__`) name it generically; without them, no fix.
            return None
        if message is None:
            message = self._from_code()
            if self.label and message.parts:
                message.parts[-1].pieces.append(Text(": " + self.label, True))
            if self.label_detail and message.parts:
                message.parts[-1].pieces.extend([Text(" ", True), *self.label_detail])
        used = {p.source for part in message.parts for p in part.pieces if isinstance(p, Placeholder)}
        message.append_context([(key, expr) for key, expr in self.context if expr not in used])
        return message

    def _builder_advice(self, value: cst.BaseExpression) -> None:
        """The advice a result model or builder carries beside its error (`Reply(success=False,
        error=f"...: {e}", note="Check API_KEY")`, `respond("failed", ..., next_actions=[...])`),
        kept as an error dict's hint item is: the sentence after the message."""
        keywords = builder_keywords(value)
        if not keywords:
            return
        self.hint_left_behind = self.hint_left_behind or hint_left_behind(keywords, lambda item: find_exception_text(item, self.handler) is not None)
        for key in hint_keys_in(keywords):
            if hint_is_text(keywords[key]):
                self._add_hint(keywords[key])

    def _add_hint(self, value: cst.BaseExpression) -> None:
        """One more sentence of the author's advice (each element of a list of them)."""
        elements = [el.value for el in value.elements if type(el) is cst.Element] if type(value) in (cst.List, cst.Tuple) else [value]
        for element in elements:
            sentence = Message.read(element, lambda node: self.ctx.start_line(node), self.ctx.code)
            if sentence is None or (self.hint is not None and not self.hint.add_sentence(sentence)):
                self.hint_left_behind = True  # advice no message here can carry whole: no fix
            elif self.hint is None:
                self.hint = sentence

    def own_words(self, expr: cst.BaseExpression, found: cst.CSTNode) -> Message | None:
        """The author's words of `expr` without the exception's text, or None when nothing of
        them is left (no words of the code's in their place: the reply keeps its own)."""
        self.carriers = bound_from(self.handler, found, self.sink, self.ctx)
        message = Message.read(expr, lambda node: self.ctx.start_line(node), self.ctx.code)
        if message is None or not message.remove(self._carries_exception):
            return None
        return message if message.words().strip(" :;,.-{}") else None

    def _from_code(self) -> Message:
        """What failed, in the code's words: the function's name when it is an action, the one
        operation of the `try`, the service of a one-word method's class, a name that is a task
        verb alone (`search`), a method's own words (`manage_clusters`: never glued to its
        class's name); last the tool the failure reaches, filled in by `render` (which drops the
        fix where it cannot name one). Acronyms as the module spells them (`list_s3_buckets`:
        "Could not list S3 buckets" where the module writes "S3")."""
        spell = lambda text: spelled(text, self.ctx)  # noqa: E731 - local shorthand
        request = failure_words.request_operation(self.fn)
        if request is not None:
            # `_make_request(method, endpoint)`: "Could not make request" names nothing the model
            # asked for; the request it sent does ("Vault request {method} {endpoint} failed").
            service, method, target = request
            pieces: list[Text | Placeholder] = [Text(f"{service} request " if service else "Request ", True)]
            for param in (method, target):
                if param is not None:
                    pieces += [Placeholder(param), Text(" ", True)]
            return Message([Part("", self.quote, [*pieces, Text("failed", True)])])
        found = failure_words.operation(self.handler, self.fn)
        # The one step of the `try` that can fail, named for what it does on something else than
        # the function's name says (`load_alert_feed` in `list_alerts`), is what failed: it comes
        # first. A step on the same thing (`fetch_status` in `get_order_status`) is named better
        # by the function.
        step = found[0] if found is not None and found[1] is None else None
        # (Only the project's own step: a library method's name, `search_read`, is its API's word,
        # not what the tool was doing.)
        own_step = step is not None and failure_words.acts_on_other_things(step, self.fn.name) and failure_words.operation_is_own(self.handler, self.fn)
        sentence = step if own_step else failure_words.action(self.fn.name)
        if sentence is None and step is not None:
            sentence = step
        if sentence is None and found is not None:
            words, value = found
            if value is None:
                sentence = words
            else:  # "Could not checkout {branch}"
                return Message([Part("", self.quote, [Text(spell(words) + " ", True), Placeholder(value)])])
        one_word = len(failure_words.name_words(self.fn.name)) == 1
        sentence = (
            sentence
            or (failure_words.method_of_service(self.fn) if one_word else None)
            or failure_words.action(self.fn.name, bare=True)
            or (failure_words.tool_sentence(self.fn.name) if self.fn.class_name else None)
            or PH_TOOL_SENTENCE
        )
        return Message([Part("", self.quote, [Text(spell(sentence), True)])])

    def _from(self, expr: cst.BaseExpression | None, depth: int) -> Message | None:
        if expr is None or depth > 3:
            return None
        if type(expr) is cst.Name:
            found = local_value(self.handler, expr.value, self.sink, self.ctx)
            return self._from(_message_expr(found[1]), depth + 1) if found is not None else None
        if type(expr) is cst.Dict:
            return self._dict_message(expr, depth)
        message = Message.read(expr, lambda node: self.ctx.start_line(node), self.ctx.code)
        if message is None:
            return None
        if message.parts:
            self.quote = message.parts[0].quote if len(message.parts[0].quote) == 1 else self.quote
        self._name_the_rejected_value(message)
        return self._curated(message)

    def _name_the_rejected_value(self, message: Message) -> None:
        """`f"Invalid timezone: {e}"` around `load_zoneinfo(timezone_name)`: the words say what
        kind of value was rejected, so the message names that value instead of the exception."""
        if _DOCUMENT_WORDS.search(message.words()):
            return  # "Invalid JSON for values": the value is a whole document, not a name to echo
        value = failure_words.rejected_value(message.words(), self.handler, self.fn)
        if value is not None and message.replace_ending(self._carries_exception, value):
            self.rejected = value

    def _carries_exception(self, node: cst.CSTNode) -> bool:
        """The text of any exception being handled here: `{e}` of an outer handler too."""
        if any(find_exception_text(node, h, self.carriers) is not None for h in self.handlers):
            return True
        return bool(self.failed_replies) and _body_through_locals(node, self.failed_replies, self.fn, self.ctx) is not None

    def _curated(self, message: Message) -> Message | None:
        """The message without the exception text being handled here; None when what is left
        says nothing: only separators, generic words, or a bare identifier (`fallback_failed`)."""
        message.remove(self._carries_exception)
        message.drop_error_prefix()
        words = message.words()
        bare = words.strip(" :;,.-{}")
        detail = _label_and_detail(message)
        if detail is not None:
            bare, self.label_detail = detail
        if _LABEL_ONLY.fullmatch(bare) and "{}" not in bare:
            # "Database error" with its text gone: the kind of failure, not what failed. The
            # operation comes from the code, the label follows it as the kind.
            kind = _LABEL_KIND.sub("", bare).strip()
            self.label = self.label or (" ".join(w if sum(c.isupper() for c in w) > 1 else w.lower() for w in kind.split()) if kind else "")
            return None
        if not bare or vague_reason(words) == "generic" or _IDENTIFIER.fullmatch(bare):
            return None
        return message

    def _from_log(self, call: cst.Call) -> Message | None:
        """The message of a log call of the handler (`logger.error("Lookup of %s failed: %s",
        item_id, e)`), as the author described the failure to the operator."""
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if dotted(call.func) is not None and last_name(dotted(call.func) or "") == "log":
            positional = positional[1:]  # `logger.log(level, msg, ...)`
        elif is_project_log_call(call):
            # The project's own log function: its message is the argument that is text
            # (`log_with_request_id(ctx, "ERROR", f"Lookup of {key} failed: {e}")`).
            positional = [p for p in positional if type(p) in (cst.FormattedString, cst.ConcatenatedString)][-1:] or [
                p for p in positional if type(p) is cst.SimpleString
            ][-1:]
        if not positional:
            return None
        template, arguments = positional[0], positional[1:]
        message = Message.read_printf(template, arguments, self.ctx.code) if arguments else Message.read(template, lambda node: self.ctx.start_line(node), self.ctx.code)
        if message is None:
            return None
        message.multiline = False  # the log call's layout is not the raise's
        message = self._curated(message)
        if message is not None and _CODE_NAME.search(message.words()):
            return None  # `get_all_projects failed: ...` speaks to the operator, in code names
        return message

    def _dict_message(self, node: cst.Dict, depth: int) -> Message | None:
        chosen: Message | None = None
        aside: list[cst.BaseExpression] = []  # texts of other keys: `"hint": f"check {url}"`
        items = _dict_items(node) or {}
        self.hint_left_behind = self.hint_left_behind or hint_left_behind(items, lambda value: find_exception_text(value, self.handler) is not None)
        # `{"error": "request_failed", "message": "..."}`: the code is for programs; the
        # sentence beside it is the message.
        codes = {key for key in MESSAGE_KEYS if text_beside_a_code(items, key) is not None}
        for element in node.elements:
            if type(element) is not cst.DictElement or type(element.key) is not cst.SimpleString:
                continue
            key = element.key.evaluated_value
            if not isinstance(key, str):
                continue
            if key.lower() in MESSAGE_KEYS and key not in codes:
                if chosen is None:
                    chosen = self._from(element.value, depth + 1)
            elif key.lower() not in FLAG_KEYS and _is_reference(element.value) and not names_a_class(element.value) and not _holds_a_payload(key, element.value):
                # (the class's name, `type(e).__name__`, is a code for programs; a payload,
                # `"image": image_b64`, is no value to name: neither goes into the message)
                entry = (key, self.ctx.code(element.value))
                if entry not in self.context and find_exception_text(element.value, self.handler) is None:
                    self.context.append(entry)
            elif is_hint_key(key) and hint_is_text(element.value):
                aside.append(element.value)
        # The author's advice under a hint key (what to check, what to call next) goes into the
        # message, after it: never in its place (it does not say what failed).
        for value in aside:
            if type(value) in (cst.List, cst.Tuple) or self.hint is not None:
                self._add_hint(value)  # a second piece of advice is one more sentence, never dropped
            else:
                self.hint = self._from(value, depth + 1)
        return chosen


def _label_and_detail(message: Message) -> tuple[str, list[Text | Placeholder]] | None:
    """("API error", pieces of "(HTTP {status})") for `f"API error (HTTP {status})"` left once
    the exception's text is gone: a label of the failure's kind followed only by a parenthesised
    detail holding a value (a status code). None for other shapes."""
    if len(message.parts) != 1:
        return None
    pieces = message.parts[0].pieces
    if len(pieces) < 3 or not isinstance(pieces[0], Text) or not isinstance(pieces[-1], Text) or not pieces[0].raw.count("("):
        return None
    head, _, opened = pieces[0].raw.partition("(")
    if not _LABEL_ONLY.fullmatch(head.strip(" :-")) or pieces[-1].raw.rstrip(" .") != ")" or "(" in opened:
        return None
    group = [Text("(" + opened, pieces[0].braces_escaped), *pieces[1:-1], Text(")", pieces[-1].braces_escaped)]
    if not any(isinstance(piece, Placeholder) for piece in group) or any(isinstance(p, Text) and (")" in p.raw[:-1] if p is group[-1] else ")" in p.raw) for p in group[:-1]):
        return None
    return head.strip(" :-"), group


def _attribute_tested(fn: FunctionFacts, conditions: tuple[cst.BaseExpression, ...], name: str | None) -> str:
    """The attribute of the caught exception `name` that the branch of a statement under
    `conditions` needs to be taken (`if getattr(e, "status_code", None) == 429:`, also through
    `limited = ...; if limited:`), or ""."""
    if not name:
        return ""
    for condition in conditions:
        attr = _needs_attribute(fn.value_of(condition), name)
        if attr:
            return attr
    return ""


def _needs_attribute(test: cst.BaseExpression, name: str) -> str:
    """`hasattr(e, "a")`, `getattr(e, "a", None)` (a falsy default), `getattr(e, "a", None) ==
    429` / `in (...)` / `is not None`, or an `and` holding one: "a" (true only when e has it)."""
    if type(test) is cst.BooleanOperation and type(test.operator) is cst.And:
        return _needs_attribute(test.left, name) or _needs_attribute(test.right, name)
    if type(test) is cst.Comparison and len(test.comparisons) == 1:
        target = test.comparisons[0]
        attr = _getattr_with_default(test.left, name)
        if not attr or _is_none(target.comparator):
            return attr if attr and type(target.operator) is cst.IsNot else ""
        literal = type(target.comparator) in (cst.Integer, cst.SimpleString, cst.Tuple, cst.List, cst.Set)
        return attr if literal and type(target.operator) in (cst.Equal, cst.In) else ""
    if type(test) is cst.Call and dotted(test.func) == "hasattr" and len(test.args) == 2:
        return _attribute_argument(test, name)
    attr = _getattr_with_default(test, name)
    default = test.args[2].value if attr and type(test) is cst.Call else None
    return attr if default is not None and (_is_none(default) or (type(default) is cst.Name and default.value == "False")) else ""


def _getattr_with_default(expr: cst.BaseExpression, name: str) -> str:
    """"a" for `getattr(e, "a", <default>)` on the exception `name`."""
    if type(expr) is cst.Call and dotted(expr.func) == "getattr" and len(expr.args) == 3:
        return _attribute_argument(expr, name)
    return ""


def _attribute_argument(call: cst.Call, name: str) -> str:
    target, attr = call.args[0].value, call.args[1].value
    if type(target) is cst.Name and target.value == name and type(attr) is cst.SimpleString:
        value = attr.evaluated_value
        return value if isinstance(value, str) else ""
    return ""


def _is_none(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "None"


def _built_exception(fn: FunctionFacts, value: cst.BaseExpression) -> cst.Call | None:
    """The constructor call a function returns when it builds an object of a class (`return
    ApiError(msg)`, `err = ApiError(msg); return err`): an exception, where a caller raises it."""
    built = fn.value_of(value)
    if type(built) is cst.Call and last_name(dotted(built.func) or "")[:1].isupper():
        return built
    return None


def _constructed_here(fn: FunctionFacts, value: cst.BaseExpression, ctx: FileContext) -> tuple[cst.Call, str] | None:
    """(the call, its class qualified) when a function returns an object of a project class it
    constructs (`return ApiError(...)`, `err = ApiError(...); return err`, `return cls(...)` in a
    classmethod of the module's class)."""
    built = unwrap_await(fn.value_of(value))
    if type(built) is not cst.Call:
        return None
    if dotted(built.func) == "cls" and fn.class_name and fn.params[:1] == ("cls",):
        return built, f"{ctx.model.module}.{fn.class_name}" if ctx.model.module else fn.class_name
    qual = project_class(built.func, ctx) if last_name(dotted(built.func) or "")[:1].isupper() else None
    return (built, qual) if qual else None


def _taking_store(fn: FunctionFacts, call: cst.Call, body: cst.CSTNode) -> Store | None:
    """The store that puts the body into the local the constructor `call` is handed (`detail =
    describe(resp)`, then one `return ApiError(f"...: {detail}")` per status): the flow's one
    statement taking the foreign text, whichever return sends it. None where `call` holds it."""
    if fn.value_flow is None or any(n is body for n in descendants(call)):
        return None
    stores = fn.value_flow.follow(call)[1]
    store = next((s for s in stores if s.statement is not None and any(n is body for n in (s.value, *descendants(s.value)))), None)
    if store is None or "." in store.key:
        return None
    # Only where the local is sent by more than one return (one per status): with one, that
    # return is the flow's one statement and stays where it is reported.
    sending = [r for r in fn.returns if r.node.value is not None and any(type(n) is cst.Name and n.value == store.key for n in descendants(r.node.value))]
    return store if len(sending) > 1 else None


def _message_values(fn: FunctionFacts, call: cst.Call) -> Iterator[cst.BaseExpression]:
    """The values of the locals a constructor is given (`msg = f"...{e}"; return ApiError(msg)`)."""
    for argument in call.args:
        if type(argument.value) is cst.Name:
            value = fn.value_of(argument.value)
            if value is not argument.value:
                yield value


def _names_in(value: cst.CSTNode) -> frozenset[str]:
    """Every name written in `value`: exception text of a parameter is found only at a use of its
    name (`str(error)`, `error.args`), so a parameter not among them needs no search of `value`
    (a function's sinks were searched once per parameter)."""
    return frozenset(node.value for node in descendants(value) if type(node) is cst.Name)


def _is_reference(expr: cst.BaseExpression) -> bool:
    """`page_id`, `args.project`, `params["id"]`: a value worth naming in the message."""
    if type(expr) is cst.Subscript:
        return True
    return type(expr) in (cst.Name, cst.Attribute) and dotted(expr) not in {"None", "True", "False"}


def _holds_a_payload(key: str, expr: cst.BaseExpression) -> bool:
    """`"body": resp_text`, `"image": image_b64`: an item whose key or value names a payload."""
    return failure_words.is_bulky(key) or failure_words.is_bulky(last_name(dotted(expr) or "") if type(expr) is not cst.Subscript else "")


_IDENTIFIER = lazy_compile(r"[A-Za-z_][A-Za-z0-9]*_[A-Za-z0-9_]*")
# Words naming a document format or its shape: a value of that kind is too long to echo back.
_DOCUMENT_WORDS = lazy_compile(r"(?i)\b(?:json|yaml|xml|toml|csv|html|format|structure|syntax|payload|body)\b")
# A label whose content was the exception ("AWS Error", "API exception"): it says nothing of
# what failed once its text is gone.
_LABEL_ONLY = lazy_compile(r"(?:[A-Za-z][A-Za-z0-9]*\s+){0,2}(?i:error|exception|failure)s?")
# Words of a label that say nothing of the kind: "An unexpected error" adds nothing after the operation.
_LABEL_KIND = lazy_compile(r"(?i)^(?:(?:an?|the|unexpected|unknown|internal|general|generic|other|some)\s+)*(?:error|exception|failure)s?$")
# A function or variable name in a log message's words (`run_query_async`; not `GITLAB_URL`).
_CODE_NAME = lazy_compile(r"\b_*[a-z][a-z0-9]*_[a-z0-9_]*\b")
# Stands for what failed, in words from the one tool the failure reaches (known after linking).
PH_TOOL_SENTENCE = placeholder("tool-sentence")


@dataclass(frozen=True)
class _Fix:
    description: str
    edits: tuple[Edit, ...]
    logs: bool  # adds a log call (the module needs a logger)
    raises: bool  # the statement raises now (a status tuple stays returned)
    # The clauses (Handler.site) the fix puts `except ToolError: raise` before (FixSpec.opens).
    opens: tuple[str, ...] = ()
    # The author's words the new message keeps, before any reason added (callers_words.py).
    words: str = ""
    # What a fix returning an error result needs (lowlevel_result_fix), instead of ToolError.
    needs: tuple[str, ...] = ()
    result: bool = False  # the fix returns an error result: offered where one is delivered


# No fix: keeping the project's own advice needs `except OwnError: raise` before a clause that
# rolls back or retries, which would skip that work (the finding's help says so).
_SKIPS_CLEANUP = _Fix("", (), logs=False, raises=False)


def _build_fix(
    ctx: FileContext,
    fn: FunctionFacts,
    node: cst.CSTNode,
    value: cst.BaseExpression,
    handler: Handler,
    variant: str,
    found: cst.CSTNode,
    reason_only: bool = False,
    quiet: bool = False,
) -> _Fix | None:
    """The fix of one statement. `reason_only` (a helper's raise of its own class): the new
    message says only why (the status, the error's class), for callers that put its text after
    their own words naming the operation (callers_words.py); None where the author's words say
    more than the operation."""
    where = ctx.range(node)
    line = ctx.lines[where.start.line - 1]
    if line[: where.start.column].strip() or ctx.lines[where.end.line - 1][where.end.column :].strip().startswith(";"):
        return None  # shares its line with another statement
    if text_built_by_a_helper(value, handler.name, ctx, constructor=variant != "return"):
        return None
    if raises_own_text(handler, ctx) or composed_by_a_helper(handler, node, ctx) or evaluates_a_parameter(handler, fn):
        return None  # the project's own validation text, or a helper's hint: it stays
    if variant == "return" and written_across_branches(fn, _unawaited(value)):
        return None  # the returned dict is written in each branch: rewritten there, not here
    # The `tools/call` handler of an mcp 2.x low-level Server: a raise would be a protocol error
    # the model never reads, so the return stays and becomes an error result (lowlevel_result_fix).
    result_form = variant == "return" and v2_lowlevel_dispatcher(fn, ctx)
    if result_form and message_slot(_unawaited(value)) is None:
        return None
    in_place = _fix_in_branch(ctx, fn, node, value, handler) if not result_form else None
    if in_place is not None:
        return in_place
    status = _status_message(value) if variant == "return" else value if variant == "note" else None
    partial = variant == "note" or (variant == "return" and (reports_partial_success(fn, handler, value, ctx) or never_raises(fn)))
    if partial:
        # The work was done and a side step failed, or the function answers on every path (a
        # health check): the reply stays a reply, only the exception's text leaves it (a raise
        # would tell the model the whole call failed, or break a caller reading the status).
        status = _partial_message(value)
        if status is None:
            return None
    through = _let_through(fn, node, ctx) if status is None and not result_form else ([], ())
    if through is None:
        return None
    let_through, opens = through
    passed = ""  # the classes let through before the clause, as written there
    if status is None:
        if advice_in_its_own_clause(fn, handler, ctx) or own_text_under_a_broad_clause(fn, handler, ctx):
            return None  # the clause's text is the author's set-up advice: rewriting it loses the hint
        own = _own_raises_through(fn, handler, ctx, let_through)
        if own is None:
            return _SKIPS_CLEANUP  # the author's advice would need a pass-through that skips the clause's cleanup
        let_through, passed = own
        if result_form and (passed or let_through):
            return None  # let through, the project's own exception would be a protocol error there
    text = _FixText(ctx, fn, node, handler)
    message = text.message(value, found) if not partial else text.own_words(status, found)
    if message is None or text.hint_left_behind:
        return None
    words = message.words()
    said_in_full: Message | None = None  # set where the raised text differs from `message`
    if reason_only and (variant != "raise-other" or text.hint is not None or not names_the_operation_only(message) or not handler.name):
        return None
    if not partial:
        _keep_the_decode_position(message, handler)
        if status is None and text.rejected is None and _registered_tool(fn, ctx):
            # The model's own input the failed call used, named where the library's text named it
            # (a helper's parameters are what its callers built, not what the model sent).
            keep_own_input(message, handler, fn)
        keep_caught_status(message, handler)
        if status is None:  # (a status tuple's callers read its text as the author wrote it)
            calls = _try_body_calls(fn, handler)
            keep_os_reason(message, handler, file_io_only(calls, ctx.model.functions) or starts_a_program(calls))
            keep_library_reason(message, handler, ctx.model.aliases)
    elif variant == "note":
        # The note says why where the code can tell without the text: the status, the library's class.
        keep_caught_status(message, handler)
        keep_library_reason(message, handler, ctx.model.aliases)
    indent = indent_of(ctx, node)
    cause = _cause(node, _innermost_handler(fn, node, handler), ctx) if not result_form else ""
    # A helper's own exception class stays (its callers may catch it); elsewhere ToolError.
    raised = ctx.source(value.func) if variant == "raise-other" and type(value) is cst.Call else PH_TOOL_ERROR
    plan = log_plan(handler, node, ctx)
    if partial and log_calls_before(handler, node, ctx):
        plan = replace(plan, add_call=False, edit=None)  # a warning logged as the author chose
    if text.rejected in fn.params:
        # The caller's own argument was rejected ("Invalid timezone: {timezone_name}"): a
        # validation failure the model corrects, not a fault of the server. Its traceback in the
        # log would be noise at every bad input; the cause stays chained (`from e`).
        plan = replace(plan, add_call=False, edit=None)
    if quiet:
        # Every caller logs the failure with its traceback already: a log line here would be a
        # second record of it (callers_words.callers_log_the_traceback).
        plan = replace(plan, add_call=False, edit=None)
    if variant == "raise-other" and plan.add_call and not reason_only:
        # The exception still propagates as an unexpected one, its cause chained (`from e`): the
        # code that handles it logs it. A log line here would log the same failure twice.
        plan = replace(plan, add_call=False)
    argument = _message_argument(value) if variant == "raise-other" else status
    if reason_only and argument is not None:
        return None
    if variant == "raise-other" and argument is not None and not _holds_text(argument, handler, node, ctx):
        # `HttpError(response, body, uri=uri)`: no argument is plainly the message (the first is
        # a response object, the body bytes): rewriting one would break the constructor's contract.
        return None
    if variant == "raise-other" and argument is not None and _text_beside(value, argument, handler, ctx):
        # `ApiError(message=f"HTTP error: {code}", response_text=body)`: the text also travels in
        # another argument; a new message leaves that one, and the finding, where they were.
        return None
    if argument is not None:
        # `ApiError(resp.status_code, f"JSON parse error: {e}", body)`: the class's other
        # arguments stay (its constructor needs them); only the message is rewritten. So does a
        # status tuple's (`return False, f"... {e}"`): its callers branch on the flag.
        at = ctx.range(argument)
        written = message.as_fstring("\n" + indent_of(ctx, argument) if message.multiline else " ")
        edits = [Edit(Location(at.start.line, at.start.column + 1), Location(at.end.line, at.end.column + 1), written)]
        argument_code = ctx.code(argument)

        def statement(shown: Message) -> str:
            return ctx.code(node).replace(argument_code, shown.as_fstring("\n" + indent_of(ctx, argument) if shown.multiline else " "), 1) + cause
        if status is not None:
            cause = ""  # a return has no cause to chain
            if plan.add_call:
                start = Location(where.start.line, where.start.column + 1)
                edits.append(Edit(start, start, f"{_log_call(message, indent, logger_style(ctx))}\n{indent}"))
        elif type(node) is cst.Raise and node.cause is None and cause:
            edits.append(Edit(Location(where.end.line, where.end.column + 1), Location(where.end.line, where.end.column + 1), cause))
        replacement = ctx.code(node).replace(ctx.code(argument), written, 1) + cause
    else:
        shown = _with_hint(message, text.hint)
        said_in_full = shown  # the help quotes the raised message with the author's advice after it
        if text.hint is not None and shown is message:
            return None  # the advice cannot follow the message in its layout: no fix rather than lose it

        result_value = _unawaited(value)
        slot = message_slot(result_value) if result_form else None

        def statement(shown: Message) -> str:
            said = reason_of(shown, handler.name) if reason_only else _with_hint(shown, text.hint)  # type: ignore[arg-type]
            if slot is not None:
                built = error_result(result_value, said.as_fstring(" "), ctx)
                lines = [f"return {built[0] if built is not None else ''}"]
            else:
                lines = [f"raise {raised}({_arguments(said.as_fstring, [], indent, said.multiline)}){cause}"]
            if plan.add_call:
                lines.insert(0, _log_call(shown, indent, logger_style(ctx)))
            return f"\n{indent}".join(lines)

        replacement = statement(message)
        edits = [Edit(Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1), replacement)]
    if plan.edit is not None:
        edits.append(plan.edit)
    status_first = ""
    if status is None and not result_form:
        let_through, status_first = _status_clause_first(ctx, fn, node, handler, message, statement, let_through, plan.edit)
    parsed = ""  # the argument whose parse gets a clause of its own first
    if status is None and not status_first and not passed and not reason_only and not result_form and _registered_tool(fn, ctx):
        let_through, parsed = _parse_clause_first(ctx, fn, node, handler, raised, let_through)
    edits.extend(let_through)
    deleted: list[cst.CSTNode] = []
    unbound: list[cst.CSTNode] = []
    for statement, kept in dead_assignments(handler, node, replacement, ctx):
        dropped = keep_only_the_value(statement, kept, ctx) if kept is not None else deletion(statement, ctx)
        if dropped is not None:
            edits.append(dropped)
            (deleted if kept is None else unbound).append(statement)
    if left_unread(fn, node, replacement, deleted, unbound):
        return None  # the author's extraction would be left dead (F841), its text dropped
    if status is None:
        edits.extend(dead_unpacking(handler, node, replacement, ctx))
    short = clip(" ".join((said_in_full or message).as_fstring(" ").split()), 60)
    # Nothing reads the exception any more (a return, or a raise the author chained `from None`
    # whose text no longer holds it): `except OSError as e:` would leave `e` unused (F841).
    edits.extend(filter(None, [unused_binding(handler, [node, *deleted], replacement, ctx)]))
    if status is not None:
        verb = "Log the exception and return" if plan.add_call else "Return"
        if variant == "note":
            verb = "Log the exception and record" if plan.add_call else "Record"
            return _Fix(f"{verb} the note without the exception text ({short})", tuple(edits), plan.add_call, raises=False)
        if partial:
            return _Fix(f"{verb} the reply without the exception text ({short})", tuple(edits), plan.add_call, raises=False)
        return _Fix(f"{verb} the status without the exception text ({short})", tuple(edits), plan.add_call, raises=False)
    if result_form:
        built = error_result(_unawaited(value), (said_in_full or message).as_fstring(" "), ctx)
        if built is None:
            return None
        verb = "Log the exception and return" if plan.add_call else "Return"
        return _Fix(f"{verb} an error result, isError=True ({short})", tuple(edits), plan.add_call, raises=False, needs=built[1], result=True)
    verb = "Log the exception and raise" if plan.add_call else "Raise"
    # (The clause added for the HTTP status error is said too: the help is the edit applied.)
    also = f"; {last_name(status_first)} clause first" if status_first else ""
    also += f"; let {passed} through" if passed else ""
    also += f"; ValueError clause for {parsed} first" if parsed else ""
    if reason_only:
        short = clip(" ".join(reason_of(message, handler.name).as_fstring(" ").split()), 60)  # type: ignore[arg-type]
    fix = _Fix(f"{verb} {raised}({short}){cause}{also}", tuple(edits), plan.add_call, raises=True, opens=opens, words=words)
    return _without_dead_branch(ctx, fn, node, handler, variant, fix) or fix


def _results_all_or_none(latents: list[Latent]) -> list[Latent]:
    """In an mcp 2.x low-level handler, the returns of a caught exception's text become error
    results all together or not at all: one left a success beside the others would answer some
    tools' failures as results and one as an answer (the maintainer finishes the rest by hand)."""
    returns = [latent for latent in latents if latent.variant.startswith("return")]
    if all(raw_text(latent).result_fix for latent in returns):
        return latents
    return [
        replace(latent, fix_message="", fix_applicability=None, fix_edits=(), fix_needs=(), fix_opens=(), payload=replace(raw_text(latent), result_fix=False))
        if latent.variant == "return" and raw_text(latent).result_fix
        else latent
        for latent in latents
    ]


def _registered_tool(fn: FunctionFacts, ctx: FileContext) -> bool:
    """Is `fn` registered as a tool (here, or on a server of another module)?"""
    model = ctx.model
    return any(t.function == fn.qualname and t.kind == "tool" for t in model.tools) or any(p[0] == fn.qualname for p in model.pending)


def _without_dead_branch(ctx: FileContext, fn: FunctionFacts, node: cst.CSTNode, handler: Handler, variant: str, fix: _Fix) -> _Fix | None:
    """`if func.__name__ == "get_item": return ItemResponse(error=str(exc))` in a clause that
    ends in `return {"error": str(exc)}`: when the branch's return becomes the very raise the
    clause's last statement becomes, the branch is dead code (the same raise follows it), so
    its whole `if` goes instead. None when that is not so."""
    body = handler.node.body.body if type(handler.node.body) is cst.IndentedBlock else ()
    branch = next((s for s in body if type(s) is cst.If and _only_statement(s, node)), None)
    last = body[-1] if body else None
    if branch is None or variant != "return" or type(last) is not cst.SimpleStatementLine or last is branch:
        return None
    final = last.body[0] if len(last.body) == 1 else None
    if type(final) is not cst.Return or final.value is None or any(type(n) in (cst.Call, cst.Await) for n in descendants(branch.test)):
        return None
    found = exception_text_in(final.value, handler, ctx)
    other = _build_fix(ctx, fn, final, final.value, handler, "return", found) if found is not None else None
    here, there = ctx.range(node).start, ctx.range(final).start
    if other is None or not other.raises or not fix.edits or not other.edits:
        return None
    if fix.edits[0].location != Location(here.line, here.column + 1) or other.edits[0].location != Location(there.line, there.column + 1):
        return None  # not a rewrite of the whole statement
    if fix.edits[0].content != other.edits[0].content:
        return None
    gone = deletion(branch, ctx)  # type: ignore[arg-type]
    return replace(fix, edits=(gone, *fix.edits[1:]), description=f"Delete the branch: {fix.description}") if gone is not None else None


def _only_statement(branch: cst.If, node: cst.CSTNode) -> bool:
    """Is `node` the one statement of the `if`'s body, with no `elif`/`else`?"""
    block = branch.body
    if branch.orelse is not None or type(block) is not cst.IndentedBlock or len(block.body) != 1:
        return False
    line = block.body[0]
    return type(line) is cst.SimpleStatementLine and len(line.body) == 1 and line.body[0] is node


def _keep_the_decode_position(message: Message, handler: Handler) -> None:
    """`f"Invalid JSON in content: {e}"` around `json.loads(content)` of the function's own
    parameter: the decoder's message goes, but where it stopped ("at line 1, column 35") is the
    caller's pointer to its mistake in what it sent, and holds none of its text: it stays."""
    if not handler.parses_parameters or not handler.name or not message.parts or len(handler.caught) != 1:
        return
    position = DECODE_POSITIONS.get(handler.caught[0])
    if position is None:
        return
    line, column = position
    message.parts[-1].pieces.extend(
        [Text(" at line ", True), Placeholder(f"{handler.name}.{line}"), Text(", column ", True), Placeholder(f"{handler.name}.{column}")]
    )


def _fix_in_branch(
    ctx: FileContext, fn: FunctionFacts, node: cst.CSTNode, value: cst.BaseExpression, handler: Handler
) -> _Fix | None:
    """`msg = f"... failed ({e}). <hint>"` in each branch, then `raise ValueError(msg) from e`:
    the exception text comes out of the branch's own assignment (where the finding is), the
    author's words and hints stay, and the statement that sends `msg` is left as it is (with
    `from e` added). None when the message is not such a local."""
    name = _message_expr(value)
    if type(name) is not cst.Name:
        return None
    assignments = [
        small
        for statement in descendants(handler.node.body, into_scopes=False)
        if type(statement) is cst.SimpleStatementLine and len(statement.body) == 1
        for small in statement.body
        if type(small) is cst.Assign and len(small.targets) == 1 and type(small.targets[0].target) is cst.Name and small.targets[0].target.value == name.value
    ]
    if len(assignments) < 2:
        return None  # one assignment: the message moves into the sending statement (see below)
    # Every branch that puts the text in: the findings of the other branches offer the same edits,
    # which the fix loop applies once.
    text = _FixText(ctx, fn, node, handler)
    edits: list[Edit] = []
    shown: Message | None = None
    for assignment in assignments:
        built = assignment.value
        message = Message.read(built, lambda n: ctx.start_line(n), ctx.code)
        if message is None:
            return None
        if not message.remove(text._carries_exception):
            continue
        if not message.words().strip(" :;,.-{}"):
            return None  # nothing of the author's words would be left in that branch
        at = ctx.range(built)
        written = message.as_fstring("\n" + indent_of(ctx, built) if message.multiline else " ")
        edits.append(Edit(Location(at.start.line, at.start.column + 1), Location(at.end.line, at.end.column + 1), written))
        shown = shown or message
    if shown is None:
        return None
    where = ctx.range(node)
    if type(node) is cst.Raise and node.cause is None and handler.name:
        end = Location(where.end.line, where.end.column + 1)
        edits.append(Edit(end, end, f" from {handler.name}"))
    short = clip(" ".join(shown.as_fstring(" ").split()), 60)
    return _Fix(f"Leave the exception text out of {name.value} ({short})", tuple(edits), False, raises=True)


def _status_message(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The message element of a returned status tuple (`return False, f"... {e}"`), which the
    fix rewrites in place: raising instead would make its callers' `if not ok:` branch dead."""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is not cst.Tuple or len(value.elements) < 2 or any(type(e) is cst.StarredElement for e in value.elements):
        return None
    message = _message_element([element.value for element in value.elements])
    return message if any(element.value is message for element in value.elements) else None


# Acronyms as a module writes them ("S3", "EKS", "IDs"): two capitals, or a capital and a digit.
_ACRONYM = lazy_compile(r"\b(?=[A-Za-z0-9]*[A-Z][A-Za-z0-9]*[A-Z0-9])[A-Za-z][A-Za-z0-9]{1,4}\b")
_NOT_ACRONYMS = frozenset(
    {"error", "info", "debug", "warning", "todo", "note", "ok", "get", "post", "put", "delete", "patch", "head", "true", "false", "none", "null"}
    # English function words a module writes in capitals inside query text or constants
    # ("ORDER BY", "SELECT ... FROM", "IF NOT EXISTS"): never acronyms in a sentence.
    | set("and or not is by of in on at to for the an as if no up with from into per via all any set".split())
    # SQL's keywords, written in capitals in the queries a module holds ("CREATE TABLE").
    | set("select where order group limit insert update values join table create drop exists like having union".split())
)


def spelled(text: str, ctx: FileContext) -> str:
    """`text` (words from code names, lower case) with each word the module writes as an
    acronym elsewhere (a docstring's "S3 buckets", a string's "EKS") spelled that way."""
    spellings = ctx.memo.get("acronyms")
    if not isinstance(spellings, dict):
        spellings = {}
        for match in _ACRONYM.finditer(_prose(ctx.lines)):
            word = match.group(0)
            if sum(c.isupper() or c.isdigit() for c in word) >= 2 and word[0].isupper() and word.lower() not in _NOT_ACRONYMS:
                spellings.setdefault(word.lower(), word)
        ctx.memo["acronyms"] = spellings
    return " ".join(spellings.get(w, w) if w.islower() else w for w in text.split(" "))


def _prose(lines: list[str]) -> str:
    """The module's strings and comments, where it writes words for people ("S3 buckets"); not
    its code names (`QUERY = ...`, `API_KEY`). The whole text when the running Python cannot
    tokenize the file (syntax newer than it)."""
    text = "\n".join(lines)
    kinds = {tokenize.STRING, tokenize.COMMENT, *(getattr(tokenize, "FSTRING_MIDDLE", None),)} - {None}
    try:
        return "\n".join(token.string for token in tokenize.generate_tokens(io.StringIO(text).readline) if token.type in kinds)
    except (tokenize.TokenError, SyntaxError):
        return text


def _with_hint(message: Message, hint: Message | None) -> Message:
    """The message with the author's advice after it as a sentence of its own ("Quote rate limit
    reached. Wait a minute before the next call."), as the old error dict carried both;
    `message` itself unchanged."""
    if hint is None:
        return message
    shown = copy.deepcopy(message)
    if not shown.add_sentence(copy.deepcopy(hint)):
        return message
    return shown


def _unawaited(value: cst.BaseExpression) -> cst.BaseExpression:
    while type(value) is cst.Await:
        value = value.expression
    return value


def _partial_message(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The text of a reply that reports a partial success, to rewrite in place: the returned
    string itself, or the one string of a returned tuple; None for other shapes."""
    while type(value) is cst.Await:
        value = value.expression
    if is_text(value):
        return value
    return _status_message(value)


def _message_argument(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The message argument of a raised project exception built with other arguments too."""
    if type(value) is not cst.Call or len(value.args) < 2 or any(a.star for a in value.args):
        return None
    message = _message_expr(value)
    return message if any(a.value is message for a in value.args) else None


def _let_through(fn: FunctionFacts, node: cst.CSTNode, ctx: FileContext) -> tuple[list[Edit], tuple[str, ...]] | None:
    """`except ToolError: raise` before each `except` of the function that would catch the raise
    replacing a return, and those clauses' sites (none when none would; None when one cannot be
    put there)."""
    if type(node) is not cst.Return or not raise_is_caught(fn, node, ctx):
        return [], ()
    through = toolerror_pass_through(fn, node, ctx)
    if through is None:
        return None
    edits = [Edit(Location(row, 1), Location(row, 1), f"{before}except {PH_TOOL_ERROR}:\n{inner}raise\n") for row, before, inner, _site in through]
    return edits, tuple(site for *_, site in through)


def _own_raises_through(fn: FunctionFacts, handler: Handler, ctx: FileContext, let_through: list[Edit]) -> tuple[list[Edit], str] | None:
    """`let_through` with `except OwnError: raise` before the rewritten clause, for the project's
    exceptions the `try` raises with the author's advice (handler_fix.own_raises_pass_through);
    one insertion where ToolError's pass-through goes to the same clause; and the classes let
    through as the clause names them ("" for none), for the help. None when the clause does more
    than report (a rollback, a retry): the pass-through would skip that work."""
    found = own_raises_pass_through(fn, handler, ctx)
    if found is None:
        return let_through, ""
    if not only_reports(fn, handler.node):
        return None
    (row, indent, inner), classes = found
    caught = classes[0] if len(classes) == 1 else f"({', '.join(classes)})"
    return _inserted_at(let_through, Location(row, 1), f"{indent}except {caught}:\n{inner}raise\n"), caught


def _inserted_at(edits: Sequence[Edit], at: Location, text: str) -> list[Edit]:
    """`edits` with `text` inserted at the start of a line (`at`), after what the insertions
    already there write: one edit per insertion point (two at one place apply in no set order),
    so clauses put before the same clause keep the order they were added in."""
    same = [edit for edit in edits if edit.location == at and edit.end_location == at]
    return [*(edit for edit in edits if edit not in same), Edit(at, at, "".join(edit.content for edit in same) + text)]


def _status_clause_first(
    ctx: FileContext,
    fn: FunctionFacts,
    node: cst.CSTNode,
    handler: Handler,
    message: Message,
    statement: Callable[[Message], str],
    let_through: list[Edit],
    log_edit: Edit | None = None,
) -> tuple[list[Edit], str]:
    """`let_through` with a clause for the HTTP status error before a broad clause whose `try`
    calls `raise_for_status()` (http_status.status_clause): its statement is the fix's, with the
    status after the message. Only where the clause's last statement is the one rewritten and
    the statements before it only log (fix review 12, #8: `logger.error(...)` first): those go
    into the added clause too, as the fix leaves them (`log_edit`: the traceback it adds). Also
    the class the added clause catches ("" when none is added)."""
    body = handler.node.body.body if type(handler.node.body) is cst.IndentedBlock else ()
    if not body or type(body[-1]) is not cst.SimpleStatementLine or list(body[-1].body) != [node]:
        return let_through, ""
    logs = [_logged_line(line, log_edit, ctx) for line in body[:-1]]
    if None in logs:
        return let_through, ""
    before = tuple(name for other in fn.handlers[: fn.handlers.index(handler)] if other.try_node is handler.try_node for name in other.caught)
    clause = status_clause(handler, before, ctx.model.aliases, through_helper=_helper_raises_status(fn, handler, ctx))
    if clause is None or len(message.parts) != 1:
        return let_through, ""
    shown = copy.deepcopy(message)
    if not with_status(shown, clause.status):
        return let_through, ""
    where = ctx.range(handler.node).start
    row, column = where.line, where.column
    outer, inner = " " * column, indent_of(ctx, node)
    logged = "".join(f"{inner}{line}\n" for line in logs)
    text = f"{outer}except {clause.caught} as {handler.name}:\n{logged}{inner}{statement(shown)}\n"
    return _inserted_at(let_through, Location(row, 1), text), clause.caught


def _parse_clause_first(ctx: FileContext, fn: FunctionFacts, node: cst.CSTNode, handler: Handler, raised: str, let_through: list[Edit]) -> tuple[list[Edit], str]:
    """`let_through` with `except ValueError as e: raise X("Invalid run_id: expected a UUID")
    from e` before a broad clause whose `try` parses one argument of the tool beside calls that
    cannot raise ValueError (argument_parse.parse_clause): the model learns its argument is
    malformed, not that the service failed. Only where the clause ends in the statement rewritten
    and no earlier clause of the `try` takes ValueError. Also the argument ("" when none)."""
    body = handler.node.body.body if type(handler.node.body) is cst.IndentedBlock else ()
    if not body or type(body[-1]) is not cst.SimpleStatementLine or list(body[-1].body) != [node]:
        return let_through, ""
    before = [other for other in fn.handlers[: fn.handlers.index(handler)] if other.try_node is handler.try_node]
    if any(not other.caught or any("ValueError" in builtin_bases(last_name(name)) for name in other.caught) for other in before):
        return let_through, ""
    clause = parse_clause(fn, handler, _try_body_calls(fn, handler), ctx)
    if clause is None or clause_insertion(handler, ctx) is None:
        return let_through, ""
    row, outer, inner = clause_insertion(handler, ctx)  # type: ignore[misc]
    text = f'{outer}except ValueError as {handler.name}:\n{inner}raise {raised}("Invalid {clause.parameter}: expected {clause.expected}") from {handler.name}\n'
    return _inserted_at(let_through, Location(row, 1), text), clause.parameter


def _logged_line(line: cst.BaseStatement, log_edit: Edit | None, ctx: FileContext) -> str | None:
    """A one-line statement of a clause that only logs (`logger.error(f"...: {e}")`), as the fix
    leaves it (with `log_edit` applied where it falls in the line); None for any other."""
    if type(line) is not cst.SimpleStatementLine or len(line.body) != 1 or type(line.body[0]) is not cst.Expr:
        return None
    call = line.body[0].value
    if type(call) is not cst.Call or not is_log_call(call):
        return None
    at = ctx.range(line.body[0])
    if at.start.line != at.end.line:
        return None
    text = ctx.lines[at.start.line - 1]
    if log_edit is not None and log_edit.location.row == log_edit.end_location.row == at.start.line:
        start, end = log_edit.location.column - 1, log_edit.end_location.column - 1
        text = text[:start] + log_edit.content + text[end:]
    elif log_edit is not None and at.start.line <= log_edit.location.row <= at.end.line:
        return None
    # The copy is the fix's own line: written lazily (the logger's own placeholders), so the
    # added clause adds no ruff G004. A logger imported from the project: its style is unknown here.
    if is_loguru(call, ctx):
        return lazy_log_line(text.strip(), braces=True)
    if logger_style(ctx) == "logging" and not imported_from_the_project(call, ctx):
        return lazy_log_line(text.strip())
    return text.strip()


def _try_body_calls(fn: FunctionFacts, handler: Handler) -> list:
    """Every call in the body of the clause's `try`, at any depth (nested `try`s included)."""
    return [c for c in fn.calls if lies_within(handler.try_node.body, c.node)]


def _helper_raises_status(fn: FunctionFacts, handler: Handler, ctx: FileContext) -> bool:
    """Does the `try` call a function of this module (or one that function calls) that calls
    `raise_for_status()` outside any `try` of its own? `except Exception as e` around
    `client.get_item(item_id)`, whose `_request()` raises the status error as the library made it:
    the 404 for the model's own id is the clause's to keep."""
    inner = [h.try_node for h in fn.handlers if h.try_node is not handler.try_node and lies_within(handler.try_node.body, h.try_node)]
    calls = [c for c in fn.calls if lies_within(handler.try_node.body, c.node) and not any(lies_within(t.body, c.node) for t in inner)]
    seen = {fn.qualname}
    for depth in range(2):
        callees = [ctx.model.functions[q] for q in {module_function(c.callee, ctx) for c in calls} - seen if q]
        if any(raises_status_uncaught(callee.node.body) for callee in callees):
            return True
        seen |= {callee.qualname for callee in callees}
        # A call of the helper outside its own `try`s: a status error of the next one leaves it too.
        calls = [c for callee in callees for c in callee.calls if not c.guarded] if depth == 0 else []
    return False


def _innermost_handler(fn: FunctionFacts, node: cst.CSTNode, handler: Handler) -> Handler:
    """The named `except` clause nearest around `node`: in `except Exception as restore_e:` inside
    `except Exception as e:`, the exception being handled is `restore_e` (which chains `e` as its
    context), so the new raise names it as its cause and the name does not go unused."""
    nearest = handler
    for candidate in fn.handlers:  # outer clauses come before the clauses nested in them
        # lies_within reads statements only: walking every node of each clause cost more.
        if candidate.name and lies_within(candidate.node, node):
            nearest = candidate
    return nearest


def _cause(node: cst.CSTNode, handler: Handler, ctx: FileContext) -> str:
    """` from e`: the raise keeps the exception it replaces as its cause (the author's, if any)."""
    if type(node) is cst.Raise and node.cause is not None:
        return " " + ctx.code(node.cause).strip()
    return f" from {handler.name}" if handler.name else ""


def _log_call(message: Message, indent: str, style: str = "logging") -> str:
    """`logger.exception(...)` in the module logger's own style: `%s` arguments for logging,
    `{}` fields for loguru (which formats with str.format), an event and key-values for
    structlog."""
    if style == "loguru":
        _, arguments = message.as_braces(" ")
        return f"{PH_LOGGER}.exception({_arguments(lambda joiner: message.as_braces(joiner)[0], arguments, indent, message.multiline)})"
    if style == "structlog":
        # The values go as key-values (a dotted value under its last name: `status_code=
        # e.response.status_code`); a parenthesised aside that only held values goes with them.
        # ("Forecast for {} failed" -> "Forecast failed": the value's preposition goes with it.)
        words = " ".join(_VALUE_OF.sub("", _VALUE_ASIDE.sub("", message.words())).replace("{}", "").split()).strip(" :;,-")
        pairs = [
            f"{p.source.rsplit('.', 1)[-1]}={p.source}"
            for part in message.parts
            for p in part.pieces
            if isinstance(p, Placeholder) and all(name.isidentifier() for name in p.source.split("."))
        ]
        quote = message.parts[0].quote if message.parts and len(message.parts[0].quote) == 1 else '"'
        event = quote + words.replace("\\", "\\\\").replace(quote, "\\" + quote) + quote
        return f"{PH_LOGGER}.exception({', '.join([event, *pairs])})"
    logging_form = message.as_logging(" ")
    if logging_form is None:
        return f"{PH_LOGGER}.exception({message.as_fstring(' ')})"
    _, arguments = logging_form
    render = lambda joiner: message.as_logging(joiner)[0]  # noqa: E731 - one line, used once
    return f"{PH_LOGGER}.exception({_arguments(render, arguments, indent, message.multiline)})"


# ` (HTTP {})`, `(id: {})`: an aside of a message that holds a value and at most two words.
_VALUE_ASIDE = lazy_compile(r"\s*\((?:[A-Za-z_]+:?\s+){0,2}\{\}\)")
# `for {}`, `of {}`: a value with the preposition that introduced it.
_VALUE_OF = lazy_compile(r"\s*\b(?:for|of|in|on|at|to|from|with|by|into)\s+\{\}")


def _arguments(render, extra: list[str], indent: str, multiline: bool) -> str:
    """A call's arguments: the message (its literals one per line where the author wrote them so)
    and `extra`, on one line when it fits, else one per line as a formatter would."""
    flat = ", ".join([render(" "), *extra])
    if not multiline and len(indent) + len(flat) <= 100:
        return flat
    inner = indent + "    "
    lines = [render("\n" + inner) if multiline else render(" ")] + extra
    return "\n" + ",\n".join(inner + line for line in lines) + ("," if extra else "") + "\n" + indent


def _framework_tool_error(expr: cst.BaseExpression, ctx: FileContext) -> str:
    """The framework's ToolError class `expr` names (qualified), or "": a factory returning one
    (`def to_tool_error(e): return ToolError(str(e))`) is raised as a ToolError by its callers."""
    name = dotted(expr)
    resolved = ctx.model.aliases.resolve_dotted(name) if name else None
    return resolved if resolved in TOOL_ERROR_CLASSES else ""
