"""MCP005 error-returned-as-success: a tool reports a failure through a normal result."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Mapping

import libcst as cst

from mcp_lint.engine.graph import EdgeKind
from mcp_lint.findings import HELP_MAX, Applicability, Edit, Location
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import FunctionFacts, ReturnFact
from mcp_lint.model.message_text import find_exception_text, literal_text
from mcp_lint.model.flow_steps import FlowStep, step_of, steps_between, store_of
from mcp_lint.model.flow import condition_shape, helper_slots, keyword_slots, literal_items, names_read, names_read_outside_returns
from mcp_lint.model.frameworks import Delivery, ResultShape
from mcp_lint.model.names import dotted, last_name, unwrap_await
from mcp_lint.model.summary import Latent, Payload
from mcp_lint.model.walk import descendants
from mcp_lint.rules.dead_try import unwrapped_try
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
    flow_related,
    indent_of,
    node_span,
    related_at,
)
from mcp_lint.rules.common import (
    error_result_expr,
    lowlevel_failure_advice,
    lowlevel_result_supported,
    toolerror_available,
)
from mcp_lint.rules.dispatch_miss import else_of_tool_branches
from mcp_lint.rules.empty_listing import emptied_locals, keyed_by, says_nothing_matched, used_as_collection
from mcp_lint.model.failure_tests import failed_positions
from mcp_lint.rules.exception_text import (
    HandedOn,
    parameter_handed_to,
    exception_handed_to,
    exception_text_in,
    failure_handed_to,
    left_on_success,
    looks_like_exception_param,
    param_text_outside_helpers,
    reported_down,
    status_bases,
    upstream_body,
)
from mcp_lint.rules.upstream_body import body_through_locals, failed_replies, failed_replies_in
from mcp_lint.rules.handler_fix import (
    bound_from_exception,
    dead_unpacking,
    evaluates_a_parameter,
    left_unread,
    never_raises,
    reports_an_empty_answer,
    raise_is_caught,
    unused_binding,
    raises_own_text,
    reports_partial_success,
    text_built_by_a_helper,
    toolerror_pass_through,
    written_across_branches,
)
from mcp_lint.rules.failure_paths import carries_a_reason, failed_branch, reads_a_reason, reports_only, skips_the_wrapped_call, verdict_or_none
from mcp_lint.rules.failure_words import is_bulky
from mcp_lint.rules.messages import Message, Placeholder, Text, capitalized, label_replacement
from mcp_lint.rules.results import (
    builder_advice,
    builder_returns_text,
    builds_error_results,
    is_text,
    _dict_items,
    _kwarg,
    _local_function,
    _text_content,
    _unwrap,
    classify_return,
    failure_message_of,
    envelope_callee,
    builder_keywords,
    hint_left_behind,
    is_error_builder_name,
    names_a_class,
    passes_message_through,
    resolved_record,
    spelled_code,
    stored_failure,
)
from mcp_lint.rules.text import clip, is_argument_complaint, is_failure_text, is_single_lookup, starts_as_error
from mcp_lint.vocabulary import (
    DETAIL_KEYS,
    EMPTY_OF_MANY,
    ERROR_KEYS,
    EXCHANGE_REPORT_KEYS,
    FAILED_OPENING,
    FAILED_STATUSES,
    FAILURE_STATUS_WORDS,
    FLAG_KEYS,
    HINT_KEYS,
    MESSAGE_KEYS,
    REPLY_STATUS_FIELDS,
    ALREADY_DONE,
    STATE_KEYS,
    SUCCESS_KEYS,
    SUCCESS_MARK,
    UNKNOWN_TOOL,
    is_reachability_probe,
    is_status_tool,
    hint_keys_in,
    is_hint_key,
    is_verdict_key,
)

def _required_params(fn: FunctionFacts) -> tuple[str, ...]:
    """The parameters a call must send: a lookup needs its key, so a key parameter that defaults
    to None (`get_locks(database=None)`) is a scope filter of a listing, not the record looked up
    ("No locks found" under it is an empty answer)."""
    params = fn.node.params
    optional = {
        p.name.value
        for p in (*params.params, *params.kwonly_params)
        if p.default is not None and type(p.default) is cst.Name and p.default.value == "None"
    }
    return tuple(p for p in fn.params if p not in optional)


def _names_an_unknown_tool(value: cst.BaseExpression, ctx: FileContext) -> bool:
    """Does the failure's message (the error item of a dict, the text of a content block) say
    that no tool has the name asked for (`{"error": f"Unknown tool: {name}"}` as JSON)?"""
    found = classify_return(value, ctx, conditional=True)
    message = found[2] if found is not None else None
    text = literal_text(message) if message is not None else None
    return bool(text and UNKNOWN_TOOL.search(text))


def _without_status_tools(context: RenderContext) -> RenderContext | None:
    """The context a status report is judged in: None where it is the answer of a status check
    (the function is one, a `_validate_path` whose complaint its caller acts on, or every tool
    that reaches it is), else the function reached from the other tools only. The exemption
    belongs to the status function, never to the tools that happen to share a helper with one."""
    if is_status_tool(context.function):
        return None
    if context.is_tool:
        return None if any(is_status_tool(name) for name in context.tools[:1]) else context
    others = tuple(tool for tool in context.tools if not is_status_tool(tool))
    if context.tools and not others:
        return None
    return context if len(others) == len(context.tools) else replace(context, tools=others)


def _probe_verdict(fn: FunctionFacts, handler: Handler) -> bool:
    """Is the clause a reachability check's answer (`test_connection()`, `service_ping()`: a
    status check of whether what it calls answers, of no input the caller must give)? There
    the error class of the probed call (`except httpx.HTTPError`) answers in words ("Connection
    failed: ..."), as a failed reply tested in a branch does (`_tests_a_failed_reply`), not a
    crash of the check. A bare or broad clause (`except Exception`) also catches the check's
    own crash, and a structured answer states its outcome by its items (`_states_an_outcome`):
    those stay failures, as does a check of something the caller names (`read_probe(probe)`)."""
    if not handler.caught or any(last_name(name) in _BROAD_CLASSES for name in handler.caught):
        return False
    return is_status_tool(fn.name) and is_reachability_probe(fn.name) and not _required_arguments(fn)


def _required_arguments(fn: FunctionFacts) -> list[str]:
    """The parameters a caller must pass (no default; not `self`, `cls` or the context)."""
    params = fn.node.params
    out = [p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.default is None]
    return [name for name in out if name in _arguments(fn)]


_BROAD_CLASSES = frozenset({"Exception", "BaseException"})
_TEXT_KINDS = frozenset({"string", "content"})  # a failure said in words (a text, a TextContent of it)


def _answers_status_tools_only(context: RenderContext, by_result: bool = False) -> bool:
    """Is the check's answer sent only as a status check's (the check is the tool, or every tool
    reaching it is a status tool)? A tool of no status of its own returning it fails the call.
    `by_result`: the function documents a verdict as its result (`_documented_verdict`), which
    makes it a status check whatever its name."""
    if not (by_result or is_status_tool(context.function)):
        return False
    return context.is_tool or (bool(context.tools) and all(is_status_tool(tool) for tool in context.tools))


def _states_an_outcome(value: cst.BaseExpression, fn: FunctionFacts) -> bool:
    """`Status(connected=False, ...)` where another return of the function builds the same class
    with that flag True, or `{"status": "unhealthy", ...}` where another returns `{"status":
    "healthy", ...}`: the result says either outcome, and this return says one."""
    if type(value) is cst.Dict:
        return _dict_states_an_outcome(value, fn)
    flags = _false_flags(value)
    if not flags:
        return False
    cls = dotted(value.func) if type(value) is cst.Call else None
    for ret in fn.returns:
        other = ret.node.value
        if other is value or type(other) is not cst.Call or dotted(other.func) != cls:
            continue
        for arg in other.args:
            if arg.keyword is not None and arg.keyword.value in flags and dotted(arg.value) == "True":
                return True
    return False


def _dict_states_an_outcome(value: cst.Dict, fn: FunctionFacts) -> bool:
    """Does another return of the function send a dict literal (written there or in the local it
    returns) holding another status word under a status key this one sets to a word (`"status":
    "unhealthy"` / `"status": "healthy"`): the key reports the outcome, each return one of them?
    (A flag such as `"reachable": False` is no status word: from an `except`, the check crashed;
    but see `_flag_outcome`.)"""
    own = _status_words(value)
    if not own:
        return False
    for ret in fn.returns:
        other = fn.value_of(ret.node.value) if ret.node.value is not None else None
        if other is value or type(other) is not cst.Dict:
            continue
        theirs = _status_words(other)
        if any(key in theirs and theirs[key] != word for key, word in own.items()):
            return True
    return False


def _flag_outcome(value: cst.BaseExpression, fn: FunctionFacts) -> bool:
    """A dict literal setting a key to False that another return of the function sets to True
    (`{"ok": False, "detail": ...}` / `{"ok": True}`): each return states one outcome, as a result
    class's flags do. A status check's answer where only status checks send it (`status_answer`);
    a helper's flag that a tool of no status hands on is that tool's failure."""
    if type(value) is not cst.Dict:
        return False
    flags = _dict_flags(value, "False")
    if not flags:
        return False
    for ret in fn.returns:
        other = fn.value_of(ret.node.value) if ret.node.value is not None else None
        if other is not value and type(other) is cst.Dict and flags & _dict_flags(other, "True"):
            return True
    return False


def _documented_verdict(value: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext) -> bool:
    """`{"verified": False, "reason": "signature expired"}` where the function documents that
    negative answer as its result: its docstring names the verdict key with False (`returns
    {"verified": False, "reason": ...} on rejection`), or its return annotation is a class of the
    module declaring the key a `bool`. The function answers a question about its input; False is
    the answer (a status check's, whatever its name), not a failure of the call."""
    if type(value) is not cst.Dict:
        return False
    keys = [key for key in _dict_flags(value, "False") if is_verdict_key(key)]
    if not keys:
        return False
    doc = fn.node.get_docstring() if type(fn.node) is cst.FunctionDef else None
    if doc and any(re.search(rf"\b{re.escape(key)}\b[^\n]{{0,12}}?\b(?:False|false)\b", doc) for key in keys):
        return True
    returns = fn.node.returns if type(fn.node) is cst.FunctionDef else None
    cls = last_name(dotted(returns.annotation) or "") if returns is not None else ""
    return bool(cls) and any(key in _bool_fields(ctx, cls) for key in keys)


def _bool_fields(ctx: FileContext, cls: str) -> frozenset[str]:
    """The fields a class of the module declares `bool` (`verified: bool` of a TypedDict, a
    dataclass, a model)."""
    for statement in ctx.module.body:
        if type(statement) is cst.ClassDef and statement.name.value == cls and type(statement.body) is cst.IndentedBlock:
            return frozenset(
                small.target.value
                for line in statement.body.body
                if type(line) is cst.SimpleStatementLine
                for small in line.body
                if type(small) is cst.AnnAssign and type(small.target) is cst.Name and dotted(small.annotation.annotation) == "bool"
            )
    return frozenset()


def _dict_flags(value: cst.Dict, literal: str) -> set[str]:
    """The keys of a dict literal set to `literal` (`"True"` or `"False"`)."""
    return {
        key
        for element in value.elements
        if type(element) is cst.DictElement and dotted(element.value) == literal
        for key in [literal_text(element.key)]
        if key
    }


def _status_words(value: cst.Dict) -> dict[str, str]:
    """The status items of a dict literal (REPLY_STATUS_FIELDS) that hold a literal word."""
    out: dict[str, str] = {}
    for key, element in literal_items(value):
        text = literal_text(element) if type(element) is cst.SimpleString else None
        if key in REPLY_STATUS_FIELDS and text is not None:
            out[key] = text
    return out


def _false_flags(value: cst.BaseExpression) -> set[str]:
    """The keywords a constructor call sets to False (`connected=False`)."""
    if type(value) is not cst.Call:
        return set()
    return {arg.keyword.value for arg in value.args if arg.keyword is not None and dotted(arg.value) == "False"}


def _arguments(fn: FunctionFacts) -> set[str]:
    return {p for p in fn.params if p not in {"self", "cls", "ctx", "context"}}


def _takes_arguments(fn: FunctionFacts) -> bool:
    return bool(_arguments(fn))


def _tests_arguments(fn: FunctionFacts, conditions: tuple[cst.BaseExpression, ...]) -> bool:
    """Does one of the branch's conditions read an argument of the call (`if not query:`)?"""
    arguments = _arguments(fn)
    if not arguments:
        return False
    if any(names_read(c) & arguments for c in conditions):
        return True
    # `target = (request_id or "").strip()` then `if not target:`: a local made from an argument.
    return any(
        type(node) is cst.Name and (value := fn.value_of(node)) is not node and _argument_reshaped(value, arguments)
        for c in conditions
        for node in descendants(c)
    )


def _argument_reshaped(value: cst.BaseExpression, arguments: set[str]) -> bool:
    """Is `value` an argument as the function tidied it (`(job_id or "").strip()`, `name.lower()`):
    it reads an argument and calls nothing but methods of arguments? (`checker.check(recipe)` is
    a verdict about the argument, not the argument.)"""
    if not names_read(value) & arguments:
        return False
    for node in descendants(value):
        if type(node) is cst.Call:
            func = node.func
            if type(func) is not cst.Attribute or not names_read(func.value) or not names_read(func.value) <= arguments:
                return False
    return True


def _answers_an_empty_listing(fn: FunctionFacts, conditions: tuple[cst.BaseExpression, ...], message: cst.BaseExpression | None) -> bool:
    """Does the branch answer that a search or listing matched nothing: its innermost test finds a
    local empty that the function uses as a collection (not an argument, nor one tidied from an
    argument: `if not ids: return "No ids found"` refuses the call), and the message says nothing
    was found? (rules/empty_listing.py; a lookup of one key uses its local whole: a failure.)"""
    if not conditions or not says_nothing_matched(message):
        return False
    arguments = _arguments(fn)
    for name in emptied_locals(conditions[-1]):
        if name.value in fn.params:
            continue
        value = fn.value_of(name)
        if value is not name and _argument_reshaped(value, arguments):
            continue
        if value is not name and keyed_by(value, _holds_an_argument(fn, arguments)) and not EMPTY_OF_MANY.match((literal_text(message) or "").strip()):
            # `plants = SHELVES.get(shelf_name)`: the record of the key the model gave, a list or
            # not; "No shelf found named x" is that lookup's miss ("No plants found on x" is not).
            continue
        if used_as_collection(fn, name.value):
            return True
    return False


def _holds_an_argument(fn: FunctionFacts, arguments: set[str]) -> Callable[[cst.Name], bool]:
    """Whether a name holds an argument of the call, as given or tidied (`host = hostname.strip()`)."""
    return lambda name: name.value in arguments or ((value := fn.value_of(name)) is not name and _argument_reshaped(value, arguments))


def _misses_a_keyed_entry(fn: FunctionFacts, conditions: tuple[cst.BaseExpression, ...]) -> bool:
    """Does the branch find empty the entry of a mapping under the key the model gave (`entry =
    by_host.get(host)`, `host` the argument tidied; `if not entry:`)? Then its "No certificate
    found for x" misses that one record, whatever the function is named: a lookup's miss (a
    sentence over many things, "No loans found for x", stays an empty listing)."""
    if not conditions:
        return False
    arguments = _arguments(fn)
    if not arguments:
        return False
    is_key = _holds_an_argument(fn, arguments)
    return any((value := fn.value_of(name)) is not name and keyed_by(value, is_key) for name in emptied_locals(conditions[-1]))


def _condition_shapes(conditions: tuple[cst.BaseExpression, ...], fn: FunctionFacts) -> list[str]:
    slots = helper_slots(fn.params)
    if not slots:
        return []
    # Each condition as callers passing the arguments by position and by keyword name it.
    shapes = [condition_shape(c, by, fn.local_names) for by in (slots, keyword_slots(fn.params)) for c in conditions]
    return [shape for shape in shapes if shape is not None]


def _caught_exception_text(
    value: cst.BaseExpression, handler: Handler, ctx: FileContext
) -> tuple[str, str, cst.BaseExpression | None] | None:
    """`except TrelloError as e: return str(e)` (or `f"{e}"`, `e.message`, a TextContent of it):
    whatever the class, returning the caught exception's text reports the failure as a result."""
    if not handler.name:
        return None
    while type(value) is cst.Await:
        value = value.expression
    if type(value) in (cst.List, cst.Tuple) and len(value.elements) == 1:
        value = value.elements[0].value
    message: cst.BaseExpression = value
    callee = last_name(dotted(value.func) or "") if type(value) is cst.Call else ""
    if type(value) is cst.Call and callee == "CallToolResult":
        keywords = {a.keyword.value: a.value for a in value.args if a.keyword is not None}
        if "isError" in keywords or "is_error" in keywords or "content" not in keywords:
            return None  # an error result (or one whose flag MCP006 judges)
        return _caught_exception_text(keywords["content"], handler, ctx)
    if callee[:1].isupper() and callee not in {"TextContent", "CallToolResult", "ToolResult"}:
        # `return SearchResponse(results=[SearchResult(title=error_msg)])`: a result object that
        # carries the failure's text in place of results.
        found = find_exception_text(value, handler)
        if found is None:
            return None
        text = found if type(found) is cst.Name and found.value != handler.name else None
        return "exception-object", handler.name, text
    if type(value) is cst.Dict and _only_about(value, handler):
        # `except Exception as e: return {"erro": "inesperado", "mensagem": f"{e}"}`: a dict the
        # clause writes from the caught exception alone, whatever its keys' language.
        return "dict", f"the text of the caught exception ({handler.name})", None
    if type(value) is cst.Call and callee == "TextContent":
        text = next((a.value for a in value.args if a.keyword is not None and a.keyword.value == "text"), None)
        if text is None:
            return None
        message = text
    if not _is_text_expression(message) or find_exception_text(message, handler) is None:
        return None
    return "exception", handler.name, message


def _through_formatters(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression:
    """The first argument of a call to a function of this module that returns that argument as
    it is on some path (`def finish(text): ... return text`; `f"{text}\n\n{note}"` on
    another): a pass-through formatter, whose value says what its argument says. Nested
    formatters too; anything else as it is."""
    for _ in range(3):
        call = unwrap_await(value)
        if type(call) is not cst.Call:
            break
        helper = _local_function(call, ctx)
        first = next((a.value for a in call.args if a.keyword is None and not a.star), None)
        if helper is None or first is None or not helper.returns_argument or is_error_builder_name(helper.name):
            break
        params = [p for p in helper.params if p not in {"self", "cls"}]
        if not any(type(r.node.value) is cst.Name and r.node.value.value == params[0] for r in helper.returns):
            break  # it writes around its argument on every path (`f"Error: {e}"`): its own returns are judged
        if builds_error_results(helper, ctx):
            break  # `def fail(text): return CallToolResult(isError=True, ...)`: the right channel
        value = first
    return value


def _only_about(value: cst.Dict, handler: Handler) -> bool:
    """Does the dict hold the caught exception's text, and beside it only constants (no data the
    call gathered before it failed: `{"rows": rows, "warning": str(e)}` is a partial answer)?"""
    return _holds_beside_constants(value, lambda item: find_exception_text(item, handler) is not None)


def _holds_beside_constants(value: cst.Dict, holds: Callable[[cst.BaseExpression], bool]) -> bool:
    """Does some item of the dict `holds`, every other one being a constant (a literal, True,
    False, None)? A `**spread` is neither."""
    found = False
    for element in value.elements:
        if type(element) is not cst.DictElement:
            return False
        item = element.value
        if holds(item):
            found = True
        elif not (type(item) in (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float) or (type(item) is cst.Name and item.value in {"True", "False", "None"})):
            return False
    return found


# `success, message, details = helper(...)`: (the callee's qualified name, its name as called,
# the local names by position, the positions whose names the function never reads outside its
# returns).
_Unpacked = tuple[str, str, dict[str, int], frozenset[int]]


def _unpacked_statuses(fn: FunctionFacts) -> list[_Unpacked]:
    """The project calls whose value the function unpacks into locals and (in part) returns,
    with the positions it never tests: `ok, message = update(...)` then `return message` leaves
    the status flag unread, whatever `update` puts there (the linker asks `update`)."""
    out: list[_Unpacked] = []
    read: frozenset[str] | None = None
    for call in fn.calls:
        if not call.feeds or call.callee is None or not call.selects or type(call.statement) is not cst.SimpleStatementLine:
            continue
        targets = [
            small.targets[0].target
            for small in call.statement.body
            if type(small) is cst.Assign and len(small.targets) == 1 and unwrap_await(small.value) is call.node
        ]
        if not targets or type(targets[0]) not in (cst.Tuple, cst.List):
            continue
        names = {
            element.value.value: index
            for index, element in enumerate(targets[0].elements)
            if type(element) is cst.Element and type(element.value) is cst.Name
        }
        if read is None:
            read = names_read_outside_returns(fn.node)
        unread = frozenset(index for name, index in names.items() if name not in read)
        if unread:
            out.append((call.callee, last_name(dotted(call.node.func) or ""), names, unread))
    return out


@dataclass(frozen=True)
class UnreadStatus(Payload):
    """`ok, message = update(...)` then `return message`: a status tuple returned without
    reading its flag. Whether it is a failure only `update`'s status tuples tell (link_latent)."""

    via_status: str  # the called function, qualified
    helper: str  # its name as called
    unread: frozenset[int]  # positions the function never reads outside its returns
    taken: frozenset[int]  # positions the return sends
    plain: frozenset[int]  # positions it sends as the success item of a dict (`{"success": ok}`)
    # Filled in by link_latent: an example of the failure text, and whether the flag is what is returned.
    what: str = ""
    flag_returned: bool = False


@dataclass(frozen=True)
class FailureValue(Payload):
    """A failure value returned as a success; the latent's variant names its shape."""

    what: str  # the failure, as the notes quote it (at most 60 characters)
    stmt: Span  # the statement the fix rewrites (the return, or a branch's assignment)
    msg: str = ""  # the message the fix raises, "" when no fix is offered
    # The message keeps the text of an exception raised only by a parse of the function's own
    # arguments (`json.loads(fields_json)`): MCP002 lets it through in a tool, where the fix may
    # raise it as it is; in a helper MCP002 reports it, and this fix is not offered.
    parse_text_kept: bool = False
    returned_at: Span | None = None  # the return that sends a value built in a branch
    cause: str = ""  # " from e" / " from None" in an `except`
    # Lines of `kind, text = describe(e)` that only fed the old return (deleted by the fix).
    dead: tuple[Span, ...] = ()
    # A failure of the call itself (a crash, a complaint about an argument): not a status report.
    own_failure: bool = False
    # ... except where it is a status check's answer (a reachability check's words about its
    # probed call, _probe_verdict; a flag another return sets True, _flag_outcome): judged as a
    # status report where only status tools send it.
    status_answer: bool = False
    # ... because the function documents the verdict as its result (`_documented_verdict`): a
    # status check whatever its name.
    answers_by_result: bool = False
    # Another return of the function sends a dict of the same shape (`{"verified": False,
    # "error": ...}`) judged otherwise (own_failure, status_answer): where a status check's
    # exemption keeps that one a result, a fix of this one alone would make the function answer
    # two ways; no fix there (all of them or none, _all_or_none).
    siblings_apart: bool = False
    unknown_tool: bool = False  # a dispatcher's answer to a tool name it does not list
    # `return _fail(msg)` of a function of another module: a failure unless it builds a real
    # error result (or raises); `required`: only its body tells that it builds a failure.
    via_helper: str = ""
    via_helper_required: bool = False
    raise_caught: bool = False  # the function's own `except` would catch a raise there
    # `except ToolError: raise` inserts: (row of the `except`, its indent, its body's indent).
    pass_through: tuple[tuple[int, str, str, str], ...] = ()
    # `return (\n "a"\n)`: the message's range, turned into `raise ToolError(` keeping the layout,
    # and the `Error: ` label of its first literal with what replaces it.
    msg_range: Span | None = None
    label: tuple[Span, str] | None = None
    # The error item is read from what a function returned (`{"rows": [], "error": r["error"]}`
    # after `r = fetch()`): when that function builds the failure itself, this only re-shapes it
    # and the flow is reported there (link_latent).
    passed_from: str = ""
    # The project function handed the caught exception whole in the returned value
    # (`json.dumps(handle_error(e))`): where it builds the failure from that parameter, the flow
    # is reported there (link_latent).
    exception_to: HandedOn | None = None
    # A builder's return that writes the message into another builder (`return
    # tool_error(f"...")` in `closed_error`): the flow is anchored here, not at its callers.
    writes_message: bool = False
    # `return None, "DEPOT_KEY is not set"`: the position of the tuple's error item, the failure
    # where a caller returns that item as it is (`key, err = load(); if err: return err`).
    error_slot: int = -1
    # The sentence of the function's docstring that documents the error result the fix removes
    # (`On unknown item returns {"error": "<msg>"}`): the model reads it as the tool's contract.
    documented: str = ""
    # The sentence of an enclosing function's docstring (a decorator wrapping tools) that says the
    # function answers instead of raising (`A tool call without a key returns a clear message
    # instead of raising.`), with that function's name: the fix makes it stale; its help says so.
    stale_doc: tuple[str, str] | None = None
    # With error_slot: the item is an `except` clause's report of the caught exception that holds
    # the reply on success (_handler_item), not an item only failures fill.
    in_handler: bool = False
    # A helper that maps a caught exception to the failure text its callers return (`return
    # handle_error(e)`): (caller qualified, that return's span, the raise replacing it) for each
    # such return of this module. Fixed in the callers (the mapper's hints kept whole, a resource
    # calling it left alone): link_latent keeps those of the tools, when they are all of them.
    caller_raises: tuple[tuple[str, Span, str], ...] = ()
    # `return [TextContent(text=f"Error: {e}")]` in an `except ... as e:` that nothing of the
    # function catches again, the text a label and the exception's: re-raising it sends the same
    # text with isError where the server forwards an exception's text as a result (mcp 1.x low level).
    rethrows: bool = False
    # ... and the edit taking ` as e` out of the clause once nothing reads `e` (ruff F841).
    unbound: tuple[Edit, ...] = ()
    # ... or, where the clause would only re-raise and is its `try`'s only one, the edit
    # replacing the whole `try` by its body (rules/dead_try.py): no `except Exception: raise`.
    unwrapped: tuple[Edit, ...] = ()
    # Known a failure only by the path it is written on (a failed check's branch), not by its
    # words: in a helper, the flow is the helper's only where a caller on a tool's path returns
    # it as it is; a caller that puts it into a failure value of its own is the flow's anchor.
    by_path: bool = False
    # Known a failure only because the function returns text or nothing (failure_paths.
    # verdict_or_none): a failure where a caller on a tool's path tests the value and returns it
    # as it is before going on with its work (CallEdge.hands_on).
    verdict: bool = False


def _reported_at_source(qual: str, code: str, project: LinkedProject) -> bool:
    """Does the function a re-shaped error item comes from build that failure itself, and send
    it on to the model through a caller that returns its value whole (then its own finding
    stands for the flow)?"""
    source = project.function(qual)
    if source is None or not any(own.code == code and isinstance(own.payload, FailureValue) for own in source[1].latent):
        return False
    return any(edge.returned for _, edge in project.callers_of(source[1].qualname))


def _writes_into_builder(fn: FunctionFacts, ctx: FileContext, value: cst.BaseExpression) -> bool:
    """Is `value` a call to another error builder of the project whose message is text written
    here, words of this function's own around what it interpolates (`tool_error(f"The depot is
    closed at {hour}")`), not a message its caller chose (`tool_error(msg)`, `"Error: " + msg`)?"""
    value = unwrap_await(value)
    if type(value) is not cst.Call or _message_builder(value, ctx) is None:
        return False
    positional = [a.value for a in value.args if a.keyword is None and not a.star]
    message = fn.value_of(positional[0]) if positional else None
    return message is not None and is_text(message) and len(_OWN_WORD.findall(" ".join(_literal_parts(message)))) >= _OWN_WORDS


def _writes_own_failure(fn: FunctionFacts, ctx: FileContext, value: cst.BaseExpression) -> bool:
    """Does a builder return a whole failure record it words itself (`{"ok": False, "error":
    {"message": f"The bed {bed} was not found."}}`), not a message its caller chose (`{"error":
    msg}`)? Only a record: a builder returning text only formats the message its callers return
    as their failure (reported there: the public labels and test_mcp005_flow_anchor's first test)."""
    value = fn.value_of(unwrap_await(value))
    if type(value) is not cst.Dict:
        return False
    message = failure_message_of(value, ctx)
    if message is None:
        return False
    written = [fn.value_of(message)]
    if type(written[0]) is cst.Dict:
        inner = failure_message_of(written[0], ctx) or _dict_items(written[0]).get("message")
        if inner is None:
            return False
        written = [fn.value_of(inner)]
    if type(written[0]) is cst.Name and written[0].value not in fn.params:
        # `message = "..."` in each branch above the return: every sentence is the builder's.
        name = written[0].value
        written = [
            node.value
            for node in descendants(fn.node)
            if type(node) is cst.Assign and any(type(t.target) is cst.Name and t.target.value == name for t in node.targets)
        ]
    return bool(written) and all(
        is_text(m) and len(_OWN_WORD.findall(" ".join(_literal_parts(m)))) >= _OWN_WORDS for m in written
    )


# Words of two letters or more: "Error: " + msg has one of its own, a message written here more.
_OWN_WORD = lazy_compile(r"[^\W\d_]{2,}")
_OWN_WORDS = 3


def _complains_of_arguments(message: cst.CSTNode | None) -> bool:
    """Does the literal text of a failure's message complain about what the caller sent
    (`{"error": "request_id is required"}`)?"""
    return message is not None and is_argument_complaint(" ".join(_literal_parts(message)))


def _literal_parts(message: cst.CSTNode) -> list[str]:
    """The literal text of a message expression, without what it interpolates."""
    parts: list[str] = []
    for node in descendants(message):
        if type(node) is cst.FormattedStringText:
            parts.append(node.value)
        elif type(node) is cst.SimpleString:
            text = literal_text(node)
            if text is not None:
                parts.append(text)
    return parts


def _written_message(value: cst.BaseExpression, ret: ReturnFact, ctx: FileContext) -> str:
    """The message a builder writes into another one, as the source of a raise of it: only when
    it is written in the call itself and is the call's one argument (a code or hint beside it
    would be dropped by the raise), in no `except` (no cause to name). "" for no fix."""
    call = unwrap_await(value)
    if ret.handler is not None or type(call) is not cst.Call or len(call.args) != 1 or call.args[0].keyword is not None:
        return ""
    message = call.args[0].value
    return ctx.code(message) if is_text(message) and "\n" not in ctx.code(message) else ""


def _message_written_in(builder: str, code: str, project: LinkedProject) -> bool:
    """Does the builder a caller returns the value of write the message into another builder
    (FailureValue.writes_message)? Then that return is the flow's anchor."""
    found = project.function(builder)
    return found is not None and any(
        own.code == code and isinstance(own.payload, FailureValue) and own.payload.writes_message for own in found[1].latent
    )


def _described_exception(fn: FunctionFacts, ctx: FileContext, lookup: bool) -> int:
    """The exception parameter of a function that builds the failure value from the exception a
    caller hands in (`def handle_error(e): return {"error": str(e)}`), -1 for any other. Its
    failure returns are where the model-facing value is built, once for every caller that
    returns it on. A function choosing among several messages by the exception's kind (one per
    class or status) builds each of them: when every value it returns is a failure and one of
    them carries the exception's text, all of them are anchored here, not at the callers that
    only pass the chosen one on (issue 20: the statement that builds the failure value)."""
    if not any(p not in {"self", "cls"} and looks_like_exception_param(fn.node, p) for p in fn.params):
        return -1  # no parameter named like an exception: nothing to classify
    values = [fn.value_of(r.node.value) for r in fn.returns if r.node.value is not None]
    failures = [value for value in values if classify_return(value, ctx, conditional=True, lookup=lookup) is not None]
    if _only_messages(fn):
        # Every value is a sentence written here, one per kind of failure (`if status == 403:
        # return "Access denied."` beside `return f"Failed: {e}"`), or the exception's own text
        # (`return str(exc)`): the function only words the exception it is handed, whatever
        # words each branch uses (anchored here when one of them carries its text, as below).
        carried = max((_exception_parameter(fn, ctx, value) for value in values), default=-1)
        if failures or carried >= 0:
            return carried
    if len(failures) != 1 and (not failures or len(failures) != len(values)):
        return -1  # several values, some of them no failure: the callers tell which is one
    return max((_exception_parameter(fn, ctx, value) for value in failures), default=-1)


def _only_messages(fn: FunctionFacts) -> bool:
    """Does every return of the function send a non-empty text it writes (a literal, an f-string,
    a concatenation or `%` of them, `str(...)` of the exception), and none a value handed back by
    another call, a container or None? Such a function, handed a caught exception, only words it."""
    values = [r.node.value for r in fn.returns]
    return bool(values) and all(v is not None and _written_text(unwrap_await(fn.value_of(v))) for v in values)


def _written_text(node: cst.BaseExpression) -> bool:
    if type(node) in (cst.SimpleString, cst.ConcatenatedString):
        return bool((literal_text(node) or "").strip())
    if type(node) is cst.FormattedString:
        return bool(node.parts)
    if type(node) is cst.BinaryOperation and type(node.operator) in (cst.Add, cst.Modulo):
        return _written_text(node.left) or type(node.left) is cst.Name
    return type(node) is cst.Call and dotted(node.func) in {"str", "repr"}


_WORD = lazy_compile(r"[^\W\d_]{2,}")


def _written_in_handler(value: cst.BaseExpression, ctx: FileContext) -> tuple[str, str, cst.BaseExpression] | None:
    """A text an `except` clause writes and returns (`except Timeout: return "The search took too
    long"`, a TextContent of it): the clause runs because the call failed, so the text reports
    that failure whatever its words. Not an empty answer ("No notes yet"), a goal already reached
    or a text opening with a success mark: those are answers the author chose for that case."""
    message = _unwrap(unwrap_await(value), ctx)
    if type(message) in (cst.List, cst.Tuple) and len(message.elements) == 1:
        message = message.elements[0].value
    if type(message) is cst.Call and last_name(dotted(message.func) or "") == "TextContent":
        keywords = {a.keyword.value: a.value for a in message.args if a.keyword is not None}
        if set(keywords) - {"type", "text", "annotations"}:
            return None  # a flag beside the text (`error=True`): the author marked it, not our case
        message = keywords.get("text", message)
    parts = _literal_parts(message)
    if not _written_text(message) or len(_WORD.findall(" ".join(parts))) < 2:
        # No sentence of the author's: `str(value)` or a placeholder ("unknown", "—") standing
        # for a value the clause could not compute, not a report of the failure.
        return None
    if parts and parts[0][:1].isspace():
        # A continuation (" Left in the inbox, ..."): a note its caller appends to an answer of
        # its own, a part of a call that went on, not the call's failure.
        return None
    if _opens_with_a_local(message):
        # `f"{done}. Warning: the colour was not applied"`: the answer the call had built goes
        # on, with a note on the step that failed (a partial success, the author's choice).
        return None
    words = _wording(message, ctx)
    if reports_an_empty_answer(message) or ALREADY_DONE.search(words) or SUCCESS_MARK.search(words):
        return None
    return "string", words, message


def _one_item_written_in_handler(value: cst.BaseExpression, ctx: FileContext) -> tuple[str, str, cst.BaseExpression | None] | None:
    """A dict of one item an `except` clause writes and returns (`except Exception: return
    {"title": "API Error - Unknown"}`): its text is the clause's report of the failure under
    whatever key, judged as `_written_in_handler` judges a text (no fix: the key may matter to
    the callers). A dict of several items may be an answer with a note in it; not this shape."""
    items = _dict_items(_unwrap(unwrap_await(value), ctx))
    if items is None or len(items) != 1:
        return None
    found = _written_in_handler(next(iter(items.values())), ctx)
    return ("dict", found[1], None) if found is not None else None


def _written_or_reason(value: cst.BaseExpression) -> bool:
    """Could the value report a failure a path tells of: text the author writes (a TextContent of
    it), or a local or a field read whole (the check's reason, the reply's error field)?"""
    value = unwrap_await(value)
    if type(value) in (cst.List, cst.Tuple) and len(value.elements) == 1:
        value = value.elements[0].value
    if type(value) is cst.Call and last_name(dotted(value.func) or "") == "TextContent":
        return True
    return _written_text(value) or type(value) in (cst.Name, cst.Subscript) or (type(value) is cst.Call and last_name(dotted(value.func) or "") == "get")


def _written_on_failure_path(fn: FunctionFacts, ctx: FileContext, at: cst.CSTNode, value: cst.BaseExpression) -> tuple[str, str, cst.BaseExpression] | None:
    """A value built where a branch found a failure (failure_paths.failed_branch: `if not ok:`
    after `ok, why = check(x)`, `if resp.status_code >= 400:`, `if "error" in data:`): the text
    the author writes there (as in an `except` clause that only reports), or the failure's own
    reason returned whole (`return why`, `return data["error"]`), reports that failure whatever
    its words."""
    failed = failed_branch(fn, ctx, at)
    if failed is None:
        return None
    if reads_a_reason(value, failed):
        # `return data["error"]`: the reply's error text, sent here. (A check's reason returned
        # whole, `return why`, is built where the check writes it: the error item, _error_slot.)
        return ("string", ctx.code(value), value) if failed.kind == "reply" else None
    if _opens_with_a_local(value) or reports_an_empty_answer(value):
        return None
    if carries_a_reason(value, failed):
        return "string", _wording(value, ctx), value  # `f"DENIED: {why}"`: the check's reason, labelled
    return _written_in_handler(value, ctx)


def _opens_with_a_local(message: cst.BaseExpression) -> bool:
    """Does the text open with a local's value (`f"{done}. ..."`, `done + "..."`)?"""
    if type(message) is cst.FormattedString and message.parts:
        first = message.parts[0]
        return type(first) is cst.FormattedStringExpression and type(first.expression) is cst.Name
    return type(message) is cst.BinaryOperation and type(message.operator) is cst.Add and type(message.left) is cst.Name


# Classes a failed conversion raises (`int(x)`, `json.loads(s)`, `b.decode()`, `d[k]`), and the
# calls that only convert or decode: a clause for these alone, or around these alone, picks
# another representation of the value (`except ValueError: return str(status)`), no failure.
_CONVERSION_ERRORS = frozenset(
    {"ValueError", "TypeError", "KeyError", "IndexError", "LookupError", "AttributeError", "UnicodeDecodeError", "UnicodeEncodeError", "JSONDecodeError"}
)
_CONVERSIONS = frozenset({"json", "loads", "decode", "encode", "int", "float", "str", "fromisoformat", "strptime", "fromtimestamp", "literal_eval", "parse_obj", "model_validate"})


def _converts(handler: Handler) -> bool:
    """Is the clause a conversion's fallback: it catches conversion errors only, or its `try`
    only converts or decodes (`try: return resp.json() except Exception: return resp.text`)?"""
    if handler.caught and all(last_name(name) in _CONVERSION_ERRORS for name in handler.caught):
        return True
    calls = [node for node in descendants(handler.try_node.body, into_scopes=False) if type(node) is cst.Call]
    return bool(calls) and all(last_name(dotted(call.func) or "") in _CONVERSIONS for call in calls)


def _only_reports(handler: Handler) -> bool:
    """Does the clause only report the failure: no statement but returns, raises, `pass`, text
    put in plain locals and calls that log it? A clause that does the work another way first
    (`doc.save(path)` with a default style, `self.cache = None`) recovers: its text is an answer."""
    return all(
        reports_only(small)
        for line in descendants(handler.node.body, into_scopes=False)
        if type(line) is cst.SimpleStatementLine
        for small in line.body
    )


def _wording(node: cst.BaseExpression, ctx: FileContext) -> str:
    """What a written text says, its placeholders as `{}` (as the failure's description)."""
    text = literal_text(node)
    if text is not None:
        return text
    return "{}".join(_literal_parts(node)) or ctx.code(node)


def _reply_handed_to(fn: FunctionFacts, conditions: tuple[cst.BaseExpression, ...], value: cst.BaseExpression) -> HandedOn | None:
    """The project call that is the value, or the text of its one TextContent (`[TextContent(type=
    "text", text=describe(r))]`), handed a reply the branch found failed, whole or in parts
    (failed_positions: `describe(resp.status_code, data)`), None for any other."""
    node = unwrap_await(value)
    if type(node) is cst.List and len(node.elements) == 1:
        node = node.elements[0].value
    if type(node) is cst.Call and last_name(dotted(node.func) or "") == "TextContent":
        node = next((unwrap_await(a.value) for a in node.args if a.keyword is not None and a.keyword.value == "text"), node)
    call = next((c for c in fn.calls if c.callee is not None and c.node is node), None)
    if call is None:
        return None
    positions = failed_positions(call.node, conditions, fn.node.body)
    return HandedOn(call.callee, positions, type(call.node.func) is cst.Attribute) if positions else None


def _parameter_handed_on(fn: FunctionFacts, value: cst.BaseExpression, param: str) -> HandedOn | None:
    """The project call a returned value is (or starts with, whole) that `param` is handed to whole."""
    value = unwrap_await(value)
    lead = value if type(value) is cst.Call else _leading_call(value, fn)
    return parameter_handed_to(fn, param, lead) if lead is not None else None


def _error_slot(fn: FunctionFacts, ret: ReturnFact) -> int:
    """The position of the error item a return fills (`return None, "DEPOT_KEY is not set"`),
    -1 for none: a tuple whose other items are all None, where another return of the function
    leaves that item None and fills another (`return key, None`): the shape of a result and
    an error side by side. Text or a name in the item, not a number or a flag."""
    value = unwrap_await(fn.value_of(ret.node.value)) if ret.node.value is not None else None
    if type(value) not in (cst.Tuple, cst.List) or len(value.elements) < 2:
        return -1
    items = [element.value for element in value.elements]
    # `return False, "Token not set"` beside `return True, token`: the flag says which return
    # failed, the text beside it is the error item (a falsy verdict with its reason).
    flags = [i for i, item in enumerate(items) if _is_false(item)] if len(items) == 2 else []
    filled = [i for i, item in enumerate(items) if not _is_none(item) and i not in flags[:1]]
    if len(filled) != 1 or not _text_like(fn.value_of(items[filled[0]]), fn):
        return -1
    slot = filled[0]
    for other in fn.returns:
        other_value = unwrap_await(fn.value_of(other.node.value)) if other.node.value is not None else None
        if other is ret or type(other_value) not in (cst.Tuple, cst.List) or len(other_value.elements) != len(items):
            continue
        other_items = [element.value for element in other_value.elements]
        if flags and _is_true(other_items[flags[0]]) and not _holds_a_message(other_items[slot], fn):
            # (A message in that item on success too is a status tuple's: UnreadStatus.)
            return slot
        if not flags and _is_none(other_items[slot]) and any(not _is_none(item) for item in other_items):
            return slot
    return -1


def _handler_item(fn: FunctionFacts, ret: ReturnFact) -> int:
    """The item of a tuple an `except` clause returns that holds the caught exception's text, the
    clause's own report of it (`return 0, {"error": "unreachable", "message": str(e)}` beside
    `return r.status_code, r.json()`), -1 for none or several: callers unpack the tuple and the
    tools that send that item on send the failure (the walk's items, Latent.slot)."""
    assert ret.handler is not None
    value = unwrap_await(fn.value_of(ret.node.value)) if ret.node.value is not None else None
    if type(value) is not cst.Tuple or len(value.elements) < 2:
        return -1
    if any(_is_false(element.value) or _is_true(element.value) for element in value.elements):
        return -1  # `return False, f"Error: {e}", None`: a status tuple, its flag read by callers (status_flags)
    found = [
        i
        for i, element in enumerate(value.elements)
        if type(element.value) in (cst.Dict, cst.FormattedString) and find_exception_text(element.value, ret.handler) is not None
    ]
    return found[0] if len(found) == 1 else -1


def _holds_a_message(node: cst.BaseExpression, fn: FunctionFacts) -> bool:
    """Is the item text the function writes: written here, or a local some store of which is
    (`message = f"Deleted {n}"`; `return True, message`)?"""
    if type(node) is cst.Name and node.value in fn.stores:
        return any(_written_text(unwrap_await(store.value)) for store in fn.stores[node.value])
    return _written_text(unwrap_await(node))


def _is_false(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Name and node.value == "False"


def _is_true(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Name and node.value == "True"


def _is_none(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Name and node.value == "None"


def _text_like(node: cst.BaseExpression, fn: FunctionFacts) -> bool:
    """Text, or a module's name or attribute that may hold it (a message constant); not a local
    or parameter of the function holding what another call handed back (`return None, err`
    passes on an error item built elsewhere)."""
    if type(node) is cst.Name:
        return node.value not in {"True", "False", "None"} and node.value not in fn.local_names and node.value not in fn.params
    return type(node) in (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.Attribute) or (
        type(node) is cst.BinaryOperation and type(node.operator) in (cst.Add, cst.Modulo)
    ) or (
        # `return None, {"success": False, "error": f"No line matches {text}"}` beside `return
        # line, None`: the failure dict written here is the error item.
        type(node) is cst.Dict and any(type(e) is cst.DictElement and literal_text(e.key) in ERROR_KEYS for e in node.elements)
    ) or (
        # `return None, error(f"{path} is not a file")`: the item built here by a call (a
        # project's error-dict builder), beside `return resolved, None`.
        type(node) is cst.Call and type(node.func) is cst.Name and node.func.value not in {"bool", "int", "float", "len"}
    )


def _item_returned(function: str, slot: int, project: LinkedProject, reached: Mapping[str, Reach], sent_on: bool = False) -> bool:
    """Does a caller on a tool's path return that item of the function's tuple as it is
    (CallEdge.returned_items)? With `sent_on`, also one whose returned value carries the item,
    re-wording none of it (CallEdge.selects, not CallEdge.rewords)."""
    item = f"#{slot}"
    return any(
        caller in reached
        and not (sent_on and edge.items_tested)  # (the item holds the success body too: a tested outcome)
        and (slot in edge.returned_items or (sent_on and edge.selects is not None and item in edge.selects and not edge.rewords and not edge.raised))
        for caller, edge in project.callers_of(function)
    )


def _described_failure(fn: FunctionFacts, ctx: FileContext, lookup: bool) -> int:
    """The parameter a function builds its failure values from: an exception a caller caught
    (_described_exception), or else, for a function every value of which is a failure, the
    first parameter whose items or fields it reads (`def failure_text(result): return
    f"Error: {result['message']}"`): a failure value it describes, not a message it is handed
    whole (`tool_error(message)`, whose callers choose the words). Its returns apply only where
    a caller hands in a failure it caught or found (Latent.param, CallEdge.failure_params)."""
    described = _described_exception(fn, ctx, lookup)
    if described < 0 and _describes_itself(fn, ctx, lookup):
        # `def as_dict(self): return {"error": self.kind, "message": self.message}` of an
        # exception class: a caller that caught one and returns `e.as_dict()` hands it in as
        # `self` (CallEdge.failure_params -1): the failure value is built here.
        return 0
    if described >= 0 or not _only_failures(fn, ctx, lookup):
        return described
    described_values = _read_in_parts(fn.node.body)
    described = next((i for i, p in enumerate(fn.params) if p not in {"self", "cls", "ctx", "context"} and p in described_values), -1)
    if described < 0:
        # `def describe(status_code, detail): if status_code == 429: return f"...{detail}"`: a
        # status number it is handed chooses the words around the reply's body it is handed too:
        # a failed reply's describer (applied only where a caller hands in a failed reply's
        # status). Not a text for a status alone (`status_text(code)`): its callers word the rest.
        params = [p for p in fn.params if p not in {"self", "cls", "ctx", "context"}]
        compared = _compared_to_numbers(fn.node.body)
        carried = {n.value for r in fn.returns if r.node.value is not None for n in descendants(r.node.value) if type(n) is cst.Name}
        if any(p in carried and p not in compared for p in params):
            described = next((i for i, p in enumerate(fn.params) if p in params and p in compared), -1)
    return described


def _compared_to_numbers(body: cst.CSTNode) -> set[str]:
    """The names `body` compares with integer literals (`code == 429`, `code in (401, 403)`)."""
    out: set[str] = set()
    for node in descendants(body, into_scopes=False):
        if type(node) is not cst.Comparison or type(node.left) is not cst.Name:
            continue
        for target in node.comparisons:
            right = target.comparator
            numbers = [right] if type(right) is cst.Integer else [e.value for e in right.elements] if type(right) in (cst.Tuple, cst.List, cst.Set) else []
            if numbers and all(type(n) is cst.Integer for n in numbers):
                out.add(node.left.value)
    return out


def _describes_itself(fn: FunctionFacts, ctx: FileContext, lookup: bool) -> bool:
    """Is the function a method of an exception-like class of this module (a base named as an
    exception is, or one of the module's exception-like classes) every value of which is a
    failure, or a dict of its own fields (`{"kind": self.kind, "text": self.message}`, whatever
    its keys' language)?"""
    if not fn.class_name or not fn.params or fn.params[0] != "self" or "self" not in _read_in_parts(fn.node.body):
        return False
    qual = f"{ctx.model.module}.{fn.class_name}" if ctx.model.module else fn.class_name
    bases = ctx.model.classes.get(qual, ())
    if not (qual in ctx.model.class_attrs or any(b.endswith(("Error", "Exception")) or b in ctx.model.class_attrs for b in bases)):
        return False
    values = [fn.value_of(r.node.value) for r in fn.returns if r.node.value is not None]
    return bool(values) and all(_own_fields(v) or classify_return(v, ctx, conditional=True, lookup=lookup) is not None for v in values)


def _own_fields(value: cst.BaseExpression) -> bool:
    """A dict that holds fields of `self` and beside them only constants (`{"kind": self.kind,
    "text": redact(self.message), "retry": False}`): an exception's own account of itself."""
    return type(value) is cst.Dict and _holds_beside_constants(
        value, lambda item: any(type(n) is cst.Attribute and type(n.value) is cst.Name and n.value.value == "self" for n in descendants(item))
    )


def _leading_call(value: cst.BaseExpression, fn: FunctionFacts) -> cst.Call | None:
    """The call whose value a text built by appending starts with, whole (`f"{msg}\\n\\n{HINT}"`,
    `msg + hint` with `msg = describe(e)`): the rest is a hint after that text, not words of the
    caller's around it (`f"Failed: {msg}"` is the caller's own failure)."""
    while type(value) is cst.BinaryOperation and type(value.operator) is cst.Add:
        value = value.left
    if type(value) is cst.FormattedString:
        first = value.parts[0] if value.parts else None
        if type(first) is not cst.FormattedStringExpression or first.conversion or first.format_spec:
            return None
        value = first.expression
    elif type(value) is not cst.Name:
        return None
    lead = unwrap_await(fn.value_of(value)) if type(value) is cst.Name else unwrap_await(value)
    return lead if type(lead) is cst.Call else None


def _read_in_parts(body: cst.CSTNode) -> set[str]:
    """The names whose items or fields `body` reads (`r["message"]`, `r.get("status")`, `r.code`).
    Not a text reworded by its own method (`group.upper()` of a name handed in): that value is
    words the function puts in its message, not a record of a failure it describes."""
    nodes = list(descendants(body, into_scopes=False))
    reworded = {
        id(node.func) for node in nodes if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _TEXT_METHODS
    }
    out: set[str] = set()
    for node in nodes:
        if id(node) in reworded:
            continue
        holder = node.value if type(node) in (cst.Subscript, cst.Attribute) else None
        if type(holder) is cst.Name:
            out.add(holder.value)
    return out


# Methods that only reword a text (its case, its padding, its pieces).
_TEXT_METHODS = frozenset(
    "upper lower title capitalize casefold strip lstrip rstrip replace zfill ljust rjust center split rsplit splitlines".split()
)


def _tests_a_failed_reply(fn: FunctionFacts, ctx: FileContext, conditions: tuple[cst.BaseExpression, ...]) -> bool:
    """Does the branch test that an upstream reply failed (`if r.status_code != 200:`, `if not
    data["ok"]:`)? A status check whose own request failed has no verdict to report."""
    if not conditions or is_reachability_probe(fn.name):
        return False  # a health check's failed probe is its verdict ("unhealthy")
    return bool(status_bases(conditions, ctx) or failed_replies(conditions, fn, ctx)) or _misses_a_reply_field(fn, conditions[-1])


def _misses_a_reply_field(fn: FunctionFacts, condition: cst.BaseExpression) -> bool:
    """`job_id = submitted.get("job", {}).get("id")` then `if job_id is None:`: a field the
    function's own upstream call should have answered is missing, so that call's reply was
    incomplete: the call failed, whatever the function checks (a `verify_*` tool's verdict is
    about what it verifies, not about a reply it could not use)."""
    # Only `is None`: `if not reply.get("valid"):` reads a verdict the reply states, the check's answer.
    tested: list[cst.BaseExpression] = []
    if type(condition) is cst.Comparison and len(condition.comparisons) == 1 and type(condition.comparisons[0].operator) is cst.Is:
        if _is_none(condition.comparisons[0].comparator):
            tested.append(condition.left)
    arguments = _arguments(fn)
    for node in tested:
        value = fn.value_of(node) if type(node) is cst.Name else node
        root = _field_root(value)
        if root is None or root.value in fn.params:
            continue
        answer = unwrap_await(fn.value_of(root))
        if answer is not root and type(answer) is cst.Call and not (names_read(answer) <= arguments and _argument_reshaped(answer, arguments)):
            return True
    return False


def _field_root(value: cst.BaseExpression) -> cst.Name | None:
    """`reply` of `reply.get("a", {}).get("b")` or `reply["a"]["b"]`: the local whose field is read
    (at least one field read)."""
    depth = 0
    while True:
        if type(value) is cst.Subscript:
            value = value.value
        elif type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value == "get" and value.args:
            value = value.func.value
        else:
            break
        depth += 1
    return value if depth and type(value) is cst.Name else None


def _returned_whole_by_callers(function: str, project: LinkedProject, reached: Mapping[str, Reach], slot: int = -1, any_caller: bool = False) -> bool:
    """Does a caller on a tool's path that is no status check itself return the function's value
    as it is (CallEdge.returned: `return check(x)`, or a local holding it returned by name), or
    the error item `slot` of it (`ok, why = check(x); if not ok: return why`)? One that words
    its own failure around it (`f"Cannot run: {err}"`) acts on the complaint. (`any_caller`:
    a status check's caller counts too.)"""
    return any(
        caller in reached and (edge.returned or (slot >= 0 and slot in edge.returned_items)) and (any_caller or not is_status_tool(last_name(caller)))
        for caller, edge in project.callers_of(function)
    )


def _handed_on_by_callers(function: str, project: LinkedProject, reached: Mapping[str, Reach]) -> bool:
    """Does a caller on a tool's path (no status check) test the function's value and return it
    as it is in that branch alone, going on with its own work otherwise (CallEdge.hands_on)?"""
    return any(caller in reached and edge.hands_on and not is_status_tool(last_name(caller)) for caller, edge in project.callers_of(function))


def _reworded_by_callers(function: str, project: LinkedProject, reached: Mapping[str, Reach], seen: frozenset[str] = frozenset()) -> bool:
    """Does every caller on a tool's path that takes the function's value test it for the failure
    and leave with a failure of its own (CallEdge.rewords)? Then the model never receives this
    value: the caller's re-worded one is the flow's model-facing failure. A caller that returns
    the value as it is (`return decode(resp)` in a client method) hands it up: its own callers
    decide, a few levels up (no tool returns it as it is on the way)."""
    seen = seen | {function}
    takers = [(caller, edge) for caller, edge in project.callers_of(function) if caller in reached and (edge.returned or edge.flows or edge.feeds)]
    return bool(takers) and all(
        edge.rewords
        or (
            edge.returned
            and not reached[caller].is_tool
            and caller not in seen
            and len(seen) < _REWORDING_DEPTH
            and _reworded_by_callers(caller, project, reached, seen)
        )
        for caller, edge in takers
    )


_REWORDING_DEPTH = 4  # functions handing the value up as it is, the first included


def _advice_of_callers(function: str, project: LinkedProject, reached: Mapping[str, Reach]) -> bool:
    """Does every caller on a tool's path that takes the function's value put it, whole, in the
    advice item of its own failure report (CallEdge.advises)? Then the text is the caller's hint
    about its failure, and the caller's report is the flow's model-facing failure."""
    takers = [edge for caller, edge in project.callers_of(function) if caller in reached and (edge.returned or edge.flows or edge.feeds)]
    return bool(takers) and all(edge.advises for edge in takers)


def _part_of_callers_records(function: str, code: str, project: LinkedProject, reached: Mapping[str, Reach]) -> bool:
    """Does every caller on a tool's path that takes the function's value put it whole in one item
    of a failure record it builds and reports itself (CallEdge.record_key: `{"error":
    status_text(code), "details": details_of(exc)}`)? Then the function words a part of the
    caller's failure value, built where the record is (one flow, D1). Not where the part is the
    record's message and the caller hands it an exception or a failure it found (`{"error":
    describe(exc)}`): that describer builds the failure's words, and is the flow's place."""
    takers = [(caller, edge) for caller, edge in project.callers_of(function) if caller in reached and (edge.returned or edge.flows or edge.feeds)]
    return bool(takers) and all(
        edge.record_key
        and not (edge.record_message and (edge.forwards or edge.failure_params or edge.exc_params))
        and _reports_its_own_failure(caller, code, project)
        for caller, edge in takers
    )


def _reports_its_own_failure(function: str, code: str, project: LinkedProject) -> bool:
    """Has the function a failure value of its own among its findings (before linking)?"""
    found = project.function(function)
    return found is not None and any(own.code == code and isinstance(own.payload, FailureValue) for own in found[1].latent)


def _exception_parameter(fn: FunctionFacts, ctx: FileContext, value: cst.BaseExpression) -> int:
    """The position of the parameter holding an exception (named and used like one: `str(e)`,
    `f"...{exc}"`) whose text the returned value carries, -1 when none does."""
    for index, param in enumerate(fn.params):
        if param in {"self", "cls"} or not looks_like_exception_param(value, param):
            continue
        if param_text_outside_helpers(value, frozenset({param}), ctx) is not None:
            return index
    return -1


def _error_item_from_a_call(value: cst.BaseExpression, fn: FunctionFacts) -> str:
    """The function whose returned value the error item of a returned dict literal is read from
    (`"error": result["error"]`, `result.get("error")`, `result.error` after `result = fetch()`),
    "" when the item is written here."""
    if type(value) is not cst.Dict:
        return ""
    items = [element for key, element in literal_items(value) if key in ERROR_KEYS]
    if len(items) != 1:
        return ""
    item = unwrap_await(items[0])
    if type(item) is cst.Subscript or type(item) is cst.Attribute:
        holder = item.value
    elif type(item) is cst.Call and type(item.func) is cst.Attribute and item.func.attr.value == "get":
        holder = item.func.value
    else:
        return ""
    if type(holder) is not cst.Name:
        return ""
    for call in fn.calls:
        statement = call.statement
        if call.callee is None or type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
            continue
        small = statement.body[0]
        if (
            type(small) is cst.Assign
            and len(small.targets) == 1
            and type(small.targets[0].target) is cst.Name
            and small.targets[0].target.value == holder.value
            and unwrap_await(small.value) is call.node
        ):
            return call.callee
    return ""


def _status_sent(value: cst.BaseExpression, unpacked: list[_Unpacked]) -> UnreadStatus | None:
    """What the linker asks when a return sends locals unpacked from a call: which call, which
    positions the function never reads outside its returns, which the return sends, and which it
    sends as the success item of a returned dict (`{"success": ok}`)."""
    sent = names_read(value)
    # The flag sent as a dict's success item says "success": False on a failure; under another
    # key (`{"applied": ok}`) it is data about the call, not a claim that the call succeeded.
    plain = {element.value for key, element in literal_items(value) if key in SUCCESS_KEYS and type(element) is cst.Name}
    for callee, helper, names, unread in unpacked:
        taken = {index for name, index in names.items() if name in sent}
        if taken:
            return UnreadStatus(callee, helper, unread, frozenset(taken), frozenset(index for name, index in names.items() if name in plain))
    return None


_RESULT_CLASSES_OF_FRAMEWORKS = frozenset({"TextContent", "CallToolResult", "ToolResult", "ImageContent", "EmbeddedResource"})


def _failure_in_result_object(value: cst.BaseExpression, fn: FunctionFacts, depth: int = 0) -> tuple[str, str, cst.BaseExpression] | None:
    """`return SearchResponse(search_results=[SearchResult(title=error_msg)])` on a failure path,
    `error_msg` being "Error searching docs - status code 503": an object of the project's result
    model (or a list of one) that carries a failure text in a field, in place of results."""
    value = unwrap_await(value)
    if type(value) in (cst.List, cst.Tuple) and len(value.elements) == 1 and depth < 3:
        return _failure_in_result_object(value.elements[0].value, fn, depth + 1)
    if type(value) is not cst.Call or depth > 3:
        return None
    callee = last_name(dotted(value.func) or "")
    if not callee[:1].isupper() or callee in _RESULT_CLASSES_OF_FRAMEWORKS or callee.endswith(("Error", "Exception")):
        return None
    if _delivers_data(value, fn):
        return None  # a fallback that still answers (`success=True, content_base64=...`): its text is a note
    for argument in value.args:
        inner = fn.value_of(argument.value)
        text = literal_text(inner)
        if text is not None and FAILED_OPENING.match(text) and is_failure_text(text):
            return "object", text, argument.value
        if type(inner) in (cst.Call, cst.List, cst.Tuple):
            found = _failure_in_result_object(inner, fn, depth + 1)
            if found is not None:
                return found
    return None


def _delivers_data(value: cst.Call, fn: FunctionFacts) -> bool:
    """`ReadReply(success=True, content_base64=b64encode(data).decode(), hint="Could not decode
    ...; returning base64")`: the author flags the result a success and it carries data the code
    computed (not only literals and text): a fallback that still answers the call, whose text
    says how, not a failure in place of results."""
    flagged = any(
        argument.keyword is not None and argument.keyword.value.lower() in SUCCESS_KEYS and dotted(fn.value_of(argument.value)) == "True"
        for argument in value.args
    )
    if not flagged:
        return False
    for argument in value.args:
        inner = fn.value_of(argument.value)
        if argument.keyword is not None and argument.keyword.value.lower() in SUCCESS_KEYS:
            continue
        if type(inner) in (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float) or dotted(inner) in {"None", "True", "False"}:
            continue
        if literal_text(inner) is not None or (type(inner) is cst.Name and inner.value in fn.params):
            continue  # text, or the caller's own argument echoed back
        return True
    return False


def _success_flag_from_a_test(value: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext) -> tuple[str, str, None] | None:
    """`return {"success": reply.get("code") == "OK", **reply}`: a result whose success flag is a
    test of the reply. Whatever the test says, the dict is returned as the tool's success, so on
    the path where the test fails the failure is a success on the wire. A flag that is a literal
    is judged by `classify_return` with its branch; no message to raise either way (the fix
    would have to test the flag first), so no fix."""
    items = _dict_items(_unwrap(unwrap_await(value), ctx))
    if not items:
        return None
    key = next((k for k in SUCCESS_KEYS if k in items), None)
    if key is None or any(k in items for k in EXCHANGE_REPORT_KEYS):
        return None  # `{"status_code": 404, "ok": False, "text": ...}`: a passthrough's report of the exchange
    flag = fn.value_of(items[key])
    parts = [flag.left, flag.right] if type(flag) is cst.BooleanOperation else [flag]
    tests = [part for part in parts if type(part) is cst.Comparison]
    if not tests or all(_counts_only(test, fn) for test in tests):
        return None  # `"success": succeeded > 0` of a batch: a summary of the items it reports
    return "dict", f'"{key}" set by a test of the reply', None


def _status_chosen_by_a_test(value: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext, at: cst.CSTNode) -> tuple[str, str, None] | None:
    """`{"status": "success" if ok else "failed", ...}`: a result whose status word a conditional
    expression picks, one of its words a failure. Whichever word is picked, the dict goes out as
    the tool's success, so on the path that picks the failure word the failure is a success on
    the wire. No message to raise (the fix would have to test the condition first), so no fix.
    (Both words failures, or neither: nothing chosen here tells a failure from an answer.)"""
    items = _carried_items(value, ctx)
    if not items:
        return None
    for key in ("status", *STATE_KEYS):
        chosen = fn.value_of(items[key]) if key in items else None
        if type(chosen) is not cst.IfExp:
            continue
        words = (literal_text(chosen.body), literal_text(chosen.orelse))
        if None in words or _sums_up_counts(chosen.test, fn):
            continue  # `"error" if failed else "ok"` of a batch the function counted: its summary
        if _probe_answer(chosen.test, fn, at):
            continue  # `ok = client.test_connection()`: the check's verdict is the answer
        failed = [word for word in words if word.lower() in (FAILED_STATUSES if key == "status" else FAILURE_STATUS_WORDS)]
        if len(failed) == 1:
            return "dict", f'"{key}" chosen by a test ("{failed[0]}")', None
    return None


def _failure_chosen_by_a_test(
    value: cst.BaseExpression, fn: FunctionFacts, ctx: FileContext, at: cst.CSTNode, lookup: bool
) -> tuple[str, str, None] | None:
    """`return {"status": "added"} if not err else {"error": err}`: a conditional expression
    whose one branch is a failure value. Whichever branch is picked goes out as the tool's
    success, so on the path that picks the failure the failure is a success on the wire. No
    fix: raising one branch would drop the other (the fix has to split the test first).
    (Not a test of the function's own counts, nor a probe's verdict: those are its answer; nor
    `return None if ok else "reason"`, a check's verdict its caller acts on.)"""
    chosen = unwrap_await(value)
    if type(chosen) is not cst.IfExp or _sums_up_counts(chosen.test, fn) or _probe_answer(chosen.test, fn, at):
        return None
    if any(type(b) is cst.Name and b.value == "None" for b in (chosen.body, chosen.orelse)):
        return None
    for branch in (chosen.body, chosen.orelse):
        found = classify_return(fn.value_of(branch), ctx, conditional=True, lookup=lookup)
        if found is not None:
            kind, description, _message = found
            return kind, f"{description}, chosen by a test", None
    return None


def _probe_answer(test: cst.BaseExpression, fn: FunctionFacts, at: cst.CSTNode) -> bool:
    """Is the test (through a local: its one assignment reaching `at`) the verdict of a call
    that checks a status or probes a service (`ok = client.test_connection()`, `if api.ping()`)?"""
    if type(test) is cst.UnaryOperation:
        test = test.expression
    called = unwrap_await(fn.value_of(test))
    if type(called) is cst.Name:
        stores = fn.stores_reaching(called.value, at)
        if len(stores) == 1 and stores[0].position is None and stores[0].slot is None:
            called = unwrap_await(stores[0].value)
    if type(called) is not cst.Call:
        return False
    name = last_name(dotted(called.func) or "")
    return bool(name) and (is_status_tool(name) or is_reachability_probe(name))


def _sums_up_counts(test: cst.BaseExpression, fn: FunctionFacts) -> bool:
    """A test of the function's own counts: a list it collects or a counter it steps (`failed`,
    `len(failed) > 0`, `errors == 0`)."""
    if type(test) is cst.UnaryOperation:
        test = test.expression
    if type(test) is cst.Comparison:
        return _counts_only(test, fn)
    name = test.value if type(test) is cst.Name else _length_of_a_name(test)
    return name is not None and name in _counters(fn) | _collected(fn)


def _carried_items(value: cst.BaseExpression, ctx: FileContext) -> dict[str, cst.BaseExpression] | None:
    """The items of the dict a returned value carries (`_carried_value`)."""
    carried = _carried_value(value, ctx)
    return _dict_items(carried) if carried is not None else None


def _carried_value(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression | None:
    """What a returned value sends: itself, what it serialises (`json.dumps(result)`), or the
    text of the one content block of a list (`[TextContent(type="text", text=json.dumps(result))]`),
    serialised locals resolved where they are assigned once."""
    value = _unwrap(unwrap_await(value), ctx)
    if type(value) in (cst.List, cst.Tuple) and len(value.elements) == 1:
        content = _text_content(value.elements[0].value, ctx)
        text = _kwarg(content, "text") if content is not None else None
        if text is None:
            return None
        value = _unwrap(text, ctx)
    return value


def _counts_only(test: cst.Comparison, fn: FunctionFacts) -> bool:
    """Does the test compare only the function's own counts and numbers: its counters
    (`succeeded = 0` ... `succeeded += 1`) or the length of a list it collects (`failed = []` ...
    `failed.append(item)`, `len(failed) == 0`)? Then the flag sums up the outcomes the function
    counted itself."""
    operands = [test.left, *(c.comparator for c in test.comparisons)]
    counted: list[str] = []
    for operand in operands:
        if type(operand) is cst.Name:
            counted.append(operand.value)
        elif _length_of_a_name(operand) is not None:
            counted.append(f"len:{_length_of_a_name(operand)}")
        elif type(operand) is not cst.Integer:
            return False
    if not counted:
        return False
    counters = _counters(fn) | {f"len:{name}" for name in _collected(fn)}
    return all(name in counters for name in counted)


def _length_of_a_name(node: cst.BaseExpression) -> str | None:
    """`len(failed)`: the name whose length is taken, None for any other expression."""
    if type(node) is cst.Call and dotted(node.func) == "len" and len(node.args) == 1 and type(node.args[0].value) is cst.Name:
        return node.args[0].value.value
    return None


def _collected(fn: FunctionFacts) -> set[str]:
    """Locals only ever set to an empty list and grown by `append` (`failed = []` ... `failed.append(x)`)."""
    appended = {
        node.func.value.value
        for node in descendants(fn.node.body, into_scopes=False)
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "append" and type(node.func.value) is cst.Name
    }
    return _only_ever(fn, lambda value: type(value) is cst.List and not value.elements) & appended


def _counters(fn: FunctionFacts) -> set[str]:
    """Locals only ever set to an integer literal or stepped by one (`n = 0`, `n += 1`)."""
    return _only_ever(
        fn,
        lambda value: type(value) is cst.Integer,
        lambda step: type(step.operator) is cst.AddAssign and type(step.value) is cst.Integer,
    )


def _only_ever(
    fn: FunctionFacts,
    assigned: Callable[[cst.BaseExpression], bool],
    stepped: Callable[[cst.AugAssign], bool] | None = None,
) -> set[str]:
    """The locals whose every plain assignment passes `assigned` and, when `stepped` is given,
    every augmented assignment passes `stepped` (without it augmented assignments are not read)."""
    only: dict[str, bool] = {}
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) is cst.Assign:
            for target in node.targets:
                if type(target.target) is cst.Name:
                    name = target.target.value
                    only[name] = only.get(name, True) and assigned(node.value)
        elif stepped is not None and type(node) is cst.AugAssign and type(node.target) is cst.Name:
            only[node.target.value] = only.get(node.target.value, True) and stepped(node)
    return {name for name, ok in only.items() if ok}


def _only_failures(fn: FunctionFacts, ctx: FileContext, lookup: bool) -> bool:
    """Is every value this function returns a failure (it only formats a message)?"""
    values = [r.node.value for r in fn.returns if r.node.value is not None]
    return bool(values) and all(
        classify_return(fn.value_of(v), ctx, conditional=True, lookup=lookup) is not None for v in values
    )


def _message_builder(value: cst.BaseExpression, ctx: FileContext) -> str | None:
    """The qualified name of the project function an envelope's call is to (`return _fail(e)`)."""
    value = unwrap_await(value)
    if type(value) is not cst.Call:
        return None
    local = _local_function(value, ctx)
    return local.qualname if local is not None else envelope_callee(value, ctx)


def _failure_prefix(prefix: cst.BaseExpression, value: cst.BaseExpression, ctx: FileContext) -> tuple[str, str, cst.BaseExpression] | None:
    """`summary = "Failed to convert the document.\n"; summary += ...; return summary`: a text
    that opens as a failure ("Error: ...", "Failed ...") is one whatever is appended to it; so is
    one that opens with the text an error builder of this module writes (`msg =
    auth_error_message()`, a function named to build an error that returns text on every path)."""
    called = unwrap_await(prefix)
    if type(called) is cst.Call:
        helper = _local_function(called, ctx)
        if helper is None or not is_error_builder_name(helper.name) or not builder_returns_text(called, ctx):
            return None
        return "string", f"the text {helper.name}() builds …", value
    text = literal_text(prefix)
    if text is None or not starts_as_error(text):
        return None
    return "string", text.strip() + " …", value


def _is_text_expression(node: cst.BaseExpression) -> bool:
    """A string built here: a literal, f-string, concatenation, `%`/`.format`, `str(x)`/`repr(x)`,
    or an attribute/name holding text (`e.message`, a local assigned the text)."""
    if type(node) in (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString, cst.Name, cst.Attribute, cst.Subscript):
        return True
    if type(node) is cst.BinaryOperation and type(node.operator) in (cst.Add, cst.Modulo):
        return True
    if type(node) is cst.Call:
        name = dotted(node.func) or ""
        return name in {"str", "repr"} or (type(node.func) is cst.Attribute and node.func.attr.value == "format")
    return False


class ErrorReturnedAsSuccess(Rule):
    code = "MCP005"
    name = "error-returned-as-success"

    INVALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")

@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        return f"Error: note {note_id} not found"
    del NOTES[note_id]
    return "deleted"
""",
            flagged=(8,),
            fixed="""\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("notes")

@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        raise ToolError(f"Note {note_id} not found")
    del NOTES[note_id]
    return "deleted"
""",
        ),
        Example(
            """\
from fastmcp import FastMCP

mcp = FastMCP("tickets")

@mcp.tool
def close_ticket(ticket_id: int) -> dict:
    ticket = TICKETS.get(ticket_id)
    if ticket is None:
        return {"success": False, "message": f"Ticket {ticket_id} does not exist"}
    ticket.close()
    return {"success": True}
""",
            flagged=(9,),
            fixed="""\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("tickets")

@mcp.tool
def close_ticket(ticket_id: int) -> dict:
    ticket = TICKETS.get(ticket_id)
    if ticket is None:
        raise ToolError(f"Ticket {ticket_id} does not exist")
    ticket.close()
    return {"success": True}
""",
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("notes")

@mcp.tool()
def delete_note(note_id: str) -> str:
    if note_id not in NOTES:
        raise ToolError(f"Note {note_id} not found; call list_notes for valid ids")
    del NOTES[note_id]
    return "deleted"

@mcp.tool()
def search_notes(query: str) -> str:
    hits = [n for n in NOTES.values() if query in n]
    if not hits:
        return "No notes found for that query"
    return "\\n".join(hits)

@mcp.tool()
def check_health() -> dict:
    if not DB.ping():
        return {"status": "error", "database": "unreachable"}
    return {"status": "ok"}
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        return _all_or_none(list(self._check_returns(fn, ctx)), fn, ctx)

    def _check_returns(self, fn: FunctionFacts, ctx: FileContext) -> Iterator[Latent]:
        lookup = is_single_lookup(fn.name, _required_params(fn))
        unpacked = _unpacked_statuses(fn) if fn.calls else []
        # A helper named to build an error whose every return is a failure value only formats
        # the message: the flow's anchor is each caller that returns it (`return _fail(e)`,
        # where `raise ToolError(_fail(e))` goes), its own returns are related locations.
        builds_for_callers = is_error_builder_name(fn.name) and _only_failures(fn, ctx, lookup)
        # An error-named builder handed no exception and no words of its callers' writes its own
        # message (`not_found(kind, key)`): reported where it writes it (_writes_own_failure).
        builds_own = builds_for_callers and not any(reg.function == fn.qualname for reg in ctx.model.tools) and not any(p not in {"self", "cls"} and looks_like_exception_param(fn.node, p) for p in fn.params)
        # (Not for a tool's handler: no caller hands it an exception, its returns are its own.)
        described = -1 if any(reg.function == fn.qualname for reg in ctx.model.tools) else _described_failure(fn, ctx, lookup)
        if described >= 0 and verdict_or_none(fn) and _described_exception(fn, ctx, lookup) < 0:
            # `if not row.startswith("row-"): return f"Unknown row {row}"`, falling off its end
            # otherwise: a check of its argument (text or nothing), not a describer of a failure.
            described = -1
        # A function that only words the exception it is handed: each text it returns is a failure.
        worded = described >= 0 and _only_messages(fn)
        # A return after an earlier branch's return (`if ok: return data` ... `return "..."`) is
        # reached only when that branch was not taken: it is as conditional as the branch.
        after_branch = False
        earlier: tuple[cst.BaseExpression, ...] = ()  # the conditions of the returns above
        for ret in fn.returns:
            value = ret.node.value
            conditional = bool(ret.conditions) or ret.handler is not None or after_branch
            after_branch = after_branch or bool(ret.conditions)
            above, earlier = earlier, earlier + ret.conditions
            if value is None:
                continue
            if described >= 0:
                # `def handle_error(e): return {"error": str(e)}`: the function describes an
                # exception a caller caught; each failure it returns is built here, for every
                # caller that hands one in: one flow, reported here (the linker keeps it where a
                # caller passes a caught exception, and drops those callers' own findings).
                yield from self._built_from_exception(fn, ctx, ret, value, described, lookup, unpacked, worded)
                continue
            if is_error_builder_name(fn.name) and _writes_into_builder(fn, ctx, fn.value_of(value)):
                # `def closed_error(hour): return tool_error(f"Closed at {hour}")`: the message is
                # written here and handed to another builder: the flow's anchor is this return
                # (its callers only pass it on, and their findings are dropped at link time).
                # The fix raises the message here (the linker offers it only when every caller is
                # a tool's path that returns the value as it is: issue 23's contract rule).
                msg = _written_message(value, ret, ctx)
                for resolved, anchor, conditions in _sent_values(fn, ctx, ret, value):
                    for latent in self._check_value(fn, ctx, ret, value, resolved, anchor, conditions, True, lookup, unpacked):
                        yield replace(latent, payload=replace(_failure(latent), writes_message=True, msg=msg if anchor is ret.node else ""))
                continue
            if builds_own and _writes_own_failure(fn, ctx, value):
                # `def not_found(kind, key): return {"error": f"{kind} {key} was not found"}`: the
                # builder writes the message itself (its callers hand in no words): the flow's
                # anchor is this return, as for a message written into another builder (issue
                # 20 item 5); callers returning it whole are dropped at link time.
                for resolved, anchor, conditions in _sent_values(fn, ctx, ret, value):
                    for latent in self._check_value(fn, ctx, ret, value, resolved, anchor, conditions, True, lookup, unpacked):
                        yield replace(latent, payload=replace(_failure(latent), writes_message=True))
                continue
            if not conditional and is_error_builder_name(fn.name):
                # `def tool_error(exc): return json.dumps(error_payload(exc))`: it builds errors by
                # design; the failure is reported where a caller returns what it built.
                continue
            slot = _error_slot(fn, ret) if ret.handler is None or conditional else -1
            reported = -1 if slot >= 0 or ret.handler is None else _handler_item(fn, ret)
            if slot >= 0 or reported >= 0:
                # `return None, "DEPOT_KEY is not set"` beside `return key, None`: the text is
                # built here, in the error item callers test and return (`if err: return err`);
                # or the clause's report in the one item that holds the reply otherwise.
                yield self._error_item(fn, ctx, ret, max(slot, reported), in_handler=reported >= 0)
                continue
            for resolved, anchor, conditions in _sent_values(fn, ctx, ret, value):
                # (A miss of the entry under the model's key is a lookup's, whatever the name says.)
                missed = lookup or _misses_a_keyed_entry(fn, (*ret.conditions, *conditions))
                latents = self._check_value(fn, ctx, ret, value, resolved, anchor, conditions, conditional, missed, unpacked)
                for latent in latents:
                    yield self._judged(latent, fn, ctx, ret, resolved, conditions or above, builds_for_callers)

    def _error_item(self, fn: FunctionFacts, ctx: FileContext, ret: ReturnFact, slot: int, in_handler: bool = False) -> Latent:
        """The failure a return puts in the error item of its tuple (`return None, "reason"`):
        reported here where a caller on a tool's path returns that item as it is (link_latent);
        no fix (the callers branch on the item)."""
        value = unwrap_await(fn.value_of(ret.node.value))
        assert type(value) in (cst.Tuple, cst.List)
        item = fn.value_of(value.elements[slot].value)
        text = literal_text(item)
        found = classify_return(item, ctx, conditional=True) if type(item) is cst.Dict else None
        if found is not None:
            what = found[1]  # `{"success": False, "error": ...}`: the dict's failure key says it
        else:
            what = text if text is not None else " ".join(_literal_parts(item)) or ctx.code(item)
        payload = FailureValue(what=clip(" ".join(what.split()), 60), stmt=node_span(ctx, ret.node), error_slot=slot, in_handler=in_handler)
        # Route "text" with the item as the slot: the tools take that item of the value.
        variant = "dict" if type(item) is cst.Dict else "string"
        return replace(self.latent(ctx, ret.node, variant=variant, route="text", payload=payload), slot=f"#{slot}")

    def _built_from_exception(
        self,
        fn: FunctionFacts,
        ctx: FileContext,
        ret: ReturnFact,
        value: cst.BaseExpression,
        param: int,
        lookup: bool,
        unpacked: list,
        worded: bool = False,
    ) -> Iterator[Latent]:
        """The failure values a return builds from the text of the exception parameter `param`:
        a failure whatever its branch (the function describes an exception a caller caught), no
        fix here (whether a raise suits every caller is the linker's to judge), and reported only
        where a caller on a tool's path hands a caught exception in (Latent.param)."""
        for resolved, anchor, conditions in _sent_values(fn, ctx, ret, value):
            # `msg = describe(exc); return msg` (or `f"{msg}\n\n{HINT}"`): the failure is built
            # where the parameter is handed on whole, one flow, reported there when it reports it.
            handed = _parameter_handed_on(fn, resolved, fn.params[param])
            for latent in self._check_value(fn, ctx, ret, value, resolved, anchor, conditions, True, lookup, unpacked, worded):
                if latent.variant == "status":
                    continue
                payload = replace(_failure(latent), msg="", own_failure=True)
                if handed is not None and payload.exception_to is None:
                    payload = replace(payload, exception_to=handed)
                if handed is None:
                    # (Once per helper and position: every return of the mapper asks the same.)
                    raises = ctx.per_node(f"caller-raises-{param}", fn.node, lambda: _caller_raises(fn, param, ctx))
                    payload = replace(payload, caller_raises=raises)
                yield replace(latent, param=param, param_failure=True, payload=payload)

    def _judged(
        self,
        latent: Latent,
        fn: FunctionFacts,
        ctx: FileContext,
        ret: ReturnFact,
        resolved: cst.BaseExpression,
        tested: tuple[cst.BaseExpression, ...],
        builds_for_callers: bool,
    ) -> Latent:
        """What render and the linker need to judge one failure value's flow: whether the function
        only builds messages its callers return (`built_for_callers`), which helper built the one
        returned here (`built_by`), whether it is a dispatcher's miss (`unknown_tool`), and
        whether a status tool complains about an argument the branch tests (`own_failure`)."""
        if latent.variant == "status":
            return latent
        payload = _failure(latent)
        if builds_for_callers:
            latent = replace(latent, built_for_callers=True)
        built_by = _message_builder(resolved, ctx) if latent.variant == "envelope" else None
        if built_by is not None:
            # The linker relates the builder's returns to this finding, and puts its statements first in the flow.
            latent = replace(latent, built_by=built_by, flow_via=built_by)
        if ret.handler is None and (else_of_tool_branches(fn, ret.conditions) or UNKNOWN_TOOL.search(payload.what) or _names_an_unknown_tool(resolved, ctx)):
            payload = replace(payload, unknown_tool=True)
        if ret.handler is None and payload.own_failure and not _tests_arguments(fn, tested) and not _tests_a_failed_reply(fn, ctx, ret.conditions):
            # A validator whose branch tests its own verdict (`if not result["valid"]`) reports
            # that verdict; only a complaint about an argument the branch tests fails the call.
            payload = replace(payload, own_failure=False)
        return replace(latent, payload=payload)

    def _check_value(
        self,
        fn: FunctionFacts,
        ctx: FileContext,
        ret: ReturnFact,
        value: cst.BaseExpression,
        resolved: cst.BaseExpression,
        anchor: cst.CSTNode,
        conditions: tuple[cst.BaseExpression, ...],
        conditional: bool,
        lookup: bool,
        unpacked: list,
        worded: bool = False,
    ) -> Iterator[Latent]:
        """One value `ret` sends: the returned expression's own, or (`anchor` an assignment) that
        of one of the branches assigning the returned local. `worded`: the function only words an
        exception it is handed, so any text it writes is the failure's (whatever its words)."""
        in_branch = anchor is not ret.node
        conditional = conditional or in_branch
        found = classify_return(resolved, ctx, conditional=conditional, lookup=lookup)
        if found is None and ret.handler is not None:
            found = _caught_exception_text(resolved, ret.handler, ctx)
        through = _through_formatters(resolved, ctx)
        if found is None and through is not resolved:
            # `return finish(str(exc))`, `finish` returning its text (a note appended at most):
            # what the call returns is its argument's failure.
            found = classify_return(through, ctx, conditional=conditional, lookup=lookup)
            if found is None and ret.handler is not None:
                found = _caught_exception_text(through, ret.handler, ctx)
        if found is None and conditional:
            found = _failure_in_result_object(resolved, fn)
        if found is None and ret.handler is None:
            found = (
                _success_flag_from_a_test(resolved, fn, ctx)
                or _status_chosen_by_a_test(resolved, fn, ctx, anchor)
                or _failure_chosen_by_a_test(resolved, fn, ctx, anchor, lookup)
            )
        if found is None and id(value) in fn.reaching_prefixes:
            found = _failure_prefix(fn.reaching_prefixes[id(value)], value, ctx)
        if found is None and not in_branch:
            # `msg = auth_error_message(); msg += "..."; return [TextContent(text=msg)]`: the
            # text a content block carries opens the same way.
            carried = _carried_value(value, ctx)
            if type(carried) is cst.Name and id(carried) in fn.reaching_prefixes:
                found = _failure_prefix(fn.reaching_prefixes[id(carried)], value, ctx)
        if found is None and worded and _written_text(unwrap_await(resolved)):
            found = "string", _wording(resolved, ctx), resolved
        if found is None and conditional and fn.params[:1] == ("self",) and _own_fields(unwrap_await(resolved)) and _describes_itself(fn, ctx, lookup):
            # (The linker keeps it only where a caller returns it of an exception it caught.)
            found = "dict", "the exception's own fields", None
        if found is None and ret.handler is not None and not in_branch and _only_reports(ret.handler) and not _converts(ret.handler):
            found = _written_in_handler(resolved, ctx)
            if found is None:
                found = _one_item_written_in_handler(resolved, ctx)
        if found is None and conditional and not in_branch and not is_status_tool(fn.name):
            # `result = {}` above; `except Timeout: result["error"] = "..."; return json.dumps(result)`:
            # the items the clause stores are what it sends (no fix: the message is not in the return).
            # (A status check filling its report's fields, `report["error"] = f"unreachable: {e}"`,
            # answers with that report.)
            stored = stored_failure(fn, ret.node)
            found = ("dict", stored, None) if stored is not None else None
        by_path = False
        if found is None and ret.handler is None and _written_or_reason(resolved):
            found = _written_on_failure_path(fn, ctx, anchor, resolved)
            by_path = found is not None
        if found is None and ret.handler is None and conditional and skips_the_wrapped_call(fn, ctx, anchor):
            # `if not session.token: return "Not signed in ..."` in a decorator's wrapper, before
            # it calls the tool: the wrapper refuses the call.
            found = _written_in_handler(resolved, ctx)
        verdict = False
        if found is None and ret.handler is None and conditional and verdict_or_none(fn):
            # `if code != CODE: return "Wrong code."` beside `return None`: a refusal where a
            # caller hands it on (link_latent asks the callers).
            found = _written_in_handler(resolved, ctx)
            verdict = by_path = found is not None
        if found is None:
            status = _status_sent(resolved, unpacked) if unpacked and not in_branch else None
            if status is not None:
                yield self.latent(ctx, ret.node, variant="status", route="return", payload=status)
            return
        kind, description, message = found
        if ret.handler is None and _answers_an_empty_listing(fn, (*ret.conditions, *conditions), message):
            # `if not cycles: return {"error": "No cycle data available"}` where the success path
            # lists `cycles`: the listing's empty answer, whatever key carries it (D2).
            return
        stated = message  # the failure's message as the value states it (the fix may change `message`)
        if resolved is not value and kind == "string" and not in_branch:
            message = value  # `msg = "Error: ..."; return msg` -> raise ToolError(msg)
        if kind == "envelope" and type(resolved) is cst.Call and message is not None and not passes_message_through(resolved, ctx):
            # `return _unknown_ref_error(token)`: the token is not the message, the text the
            # helper builds is: `raise ToolError(_unknown_ref_error(token))`; a builder of a dict
            # (or one not known here) has no text to raise: no fix.
            message = resolved if builder_returns_text(resolved, ctx) else None
        if message is not None and names_a_class(message):
            # `{"error": type(e).__name__}` with no sentence beside it: the class's name says
            # nothing the model can act on, and raising it would drop whatever text the
            # exception had: no fix.
            message = None
        if is_error_builder_name(fn.name):
            # A function named to build an error (`_unknown_ref_error`, `format_error`) returns
            # it by design: its callers raise what it builds, it does not raise itself.
            message = None
        # Raw exception text or an upstream body in the same return is also MCP002's finding
        # (rules are independent); only the fix is left to MCP002, see "msg" below.
        # A message that carries a caught exception's text (or an upstream body) is MCP002's
        # to rewrite: raising it as it is would hand the raw text to the model.
        # A message with a failed reply's body in it (`error_msg = f"... HTTP {status} -
        # {resp.text}"`) is raised without that body, in the author's words and status; a dict
        # or a list has no text to raise (its repr would be the message).
        without_body = _without_upstream_body(ctx, fn, ret, message) if message is not None else None
        if message is not None and (_is_container(message) or without_body == ""):
            message = None
        raw = _raw_text(ret, value, ctx)
        # The parse's position about the model's own argument ("Expecting ',' delimiter: line 1
        # column 9") is what it corrects its input with: no MCP002 in a tool, so raised as it is.
        parse_text_kept = raw and ret.handler is not None and ret.handler.parses_parameters and not _raw_text(ret, value, ctx, bodies_only=True)
        msg = (
            (without_body or _fix_message(ctx, resolved, message, ret.handler, indent_of(ctx, anchor)))
            if message is not None
            and (not raw or parse_text_kept)
            and not _helper_writes(resolved, ret.handler, ctx)
            and not reports_partial_success(fn, ret.handler, resolved, ctx)
            and not never_raises(fn)
            and not written_across_branches(fn, value)
            and not hint_left_behind(_result_items(_unwrap(resolved, ctx)))
            and not (ret.handler is not None and evaluates_a_parameter(ret.handler, fn))
            and not (ret.handler is None and reports_an_empty_answer(resolved))
            and not (ret.handler is not None and raises_own_text(ret.handler, ctx))
            and (not in_branch or _goes_straight_to(fn, anchor, ret.node))
            else ""
        )
        verdict_answer = _documented_verdict(_unwrap(resolved, ctx), fn, ctx)
        payload = FailureValue(
            what=clip(" ".join(description.replace("{}", "…").split()), 60),
            msg=msg,
            parse_text_kept=parse_text_kept and bool(msg),
            stmt=node_span(ctx, anchor),
            # Reported where the value is built (a branch assigning the returned local): the
            # return that sends it is a related location.
            returned_at=node_span(ctx, ret.node) if in_branch else None,
            # In an `except` that names no exception (`except ValueError:` around a parse of
            # an argument), the chain is noise to the caller: `from None` says so (B904).
            cause=(f" from {ret.handler.name}" if ret.handler.name else " from None") if ret.handler is not None else "",
            # The check itself crashed, or the caller sent something wrong: a failure of the
            # call even where the tool's answer is a status report. (A function that takes
            # no arguments complains about none: "Invalid indexes found: ..." is its report.)
            # A status check's result stating the outcome it checks (`Status(connected=False,
            # detail=str(exc))` beside `Status(connected=True)`) is its answer, even from an `except`.
            own_failure=(ret.handler is not None and not _states_an_outcome(resolved, fn))
            # The branch tests the status of the function's own upstream call: the call failed.
            or (ret.handler is None and _tests_a_failed_reply(fn, ctx, ret.conditions))
            # (A dict's description names its key: its message says what the complaint is.)
            or (_takes_arguments(fn) and (is_argument_complaint(description) or _complains_of_arguments(stated))),
            status_answer=(
                ret.handler is not None and ((kind in _TEXT_KINDS and _probe_verdict(fn, ret.handler)) or _flag_outcome(resolved, fn))
            )
            or verdict_answer,
            answers_by_result=verdict_answer,
            by_path=by_path,
            verdict=verdict,
        )
        if not msg and message is not None and anchor is ret.node and _label_and_exception(message, ret, value, ctx) and not raise_is_caught(fn, anchor, ctx, "Exception"):
            unbound = unused_binding(ret.handler, [ret.node], "raise", ctx) if ret.handler is not None else None
            unwrapped = unwrapped_try(ret.handler, ret.node, ctx) if ret.handler is not None else None
            payload = replace(payload, rethrows=True, unbound=(unbound,) if unbound is not None else (), unwrapped=(unwrapped,) if unwrapped is not None else ())
        if msg and left_unread(fn, anchor, msg, [], []):
            msg = ""  # a local of the author's would be left unread (F841), its text dropped
            payload = replace(payload, msg="")
        if msg:
            payload = replace(payload, documented=_documented_error_result(fn, resolved, ctx), stale_doc=_says_it_never_raises(fn, ctx))
        if msg and ret.handler is not None:
            # `kind, text = describe(e)` only fed the old return: its line goes with it.
            payload = replace(payload, dead=tuple((e.location, e.end_location) for e in dead_unpacking(ret.handler, anchor, msg, ctx)))
        # Only a failure that is the helper's value as it is (serialised at most), or whose message
        # is (`{"error": describe(e)}`): one the caller writes words around (`"Tagging failed: "
        # + json.dumps(describe(e))`, `f"Failed: {describe(e)}"`) is its own.
        # (A failure built from a caught exception is one whatever its class: the project's own
        # exception handed in counts too.)
        if kind == "envelope":
            handed = exception_handed_to(fn, ret.handler, resolved, any_class=True)
        elif stated is not None and type(unwrap_await(fn.value_of(stated))) is cst.Call:
            handed = exception_handed_to(fn, ret.handler, fn.value_of(stated), any_class=True)
        else:
            lead = _leading_call(resolved, fn)
            # `f"{describe(e)}\n\n{HINT}"`: the helper's text first and whole, a hint after it.
            handed = exception_handed_to(fn, ret.handler, lead, any_class=True) if lead is not None else None
        if handed is None and ret.handler is None:
            # `def describe_more(exc): msg = describe(exc); return msg`: the exception the
            # function is handed goes on whole to the function that builds the failure from it.
            handed = next(
                (
                    found
                    for param in fn.params
                    if param not in {"self", "cls"} and looks_like_exception_param(fn.node, param)
                    for found in [_parameter_handed_on(fn, resolved, param)]
                    if found is not None
                ),
                None,
            )
        if handed is None and kind == "envelope":
            # `if r.get("error"): return describe(r)`: the failure the branch found is handed whole
            # to a helper that builds the model-facing value from it.
            handed = failure_handed_to(fn, (*ret.conditions, *conditions), resolved)
        if handed is None and kind in ("envelope", "content"):
            # `if not resp.is_success: return describe(resp.status_code, data)`: the failed reply,
            # whole or in parts, is handed to a helper that builds the whole failure text (D1).
            handed = _reply_handed_to(fn, (*ret.conditions, *conditions), resolved)
        if handed is not None:
            payload = replace(payload, exception_to=handed)
        passed_from = _error_item_from_a_call(resolved, fn)
        if passed_from:
            payload = replace(payload, passed_from=passed_from)
        callee = envelope_callee(resolved, ctx) if kind == "envelope" else None
        if callee is not None:
            # link_latent asks whether that helper sets isError.
            payload = replace(payload, via_helper=callee, via_helper_required=description.startswith("the error text"))
        if raise_is_caught(fn, anchor, ctx):
            # A raise there would be caught by the function's own `except`: the fix lets
            # ToolError through it (`except ToolError: raise` first), or is not offered.
            through = toolerror_pass_through(fn, anchor, ctx)
            payload = replace(payload, raise_caught=True) if through is None else replace(payload, pass_through=tuple(through))
        if message is value and getattr(value, "lpar", None) and msg == ctx.source(message):
            # `return (\n "a"\n "b"\n)`: turn `return (` into `raise ToolError(` and keep the layout.
            payload = replace(payload, msg_range=node_span(ctx, message), label=_error_label(ctx, message))
        # The branch's conditions over the parameters: a caller that already left on the same
        # condition never takes it (the linker drops the finding for that caller).
        conds = frozenset(_condition_shapes(conditions, fn))
        latent = self.latent(ctx, anchor, variant=kind, route="return", payload=payload, conds=conds)
        yield replace(latent, flow=_flow_steps(fn, ctx, ret, value, resolved, in_branch), flow_onward=True)

    def link_start(self, project: LinkedProject, reached: Mapping[str, Reach]) -> Mapping[str, Reach]:
        return reached

    def link_latent(self, latent: Latent, function: str, reach: Reach, project: LinkedProject, state: object) -> Latent | None:
        """What only functions of other modules tell: whether the status tuple a function returns
        unread holds a failure, and whether the helper that built a returned envelope builds a
        failure and no real error result."""
        payload = latent.payload
        if isinstance(payload, UnreadStatus):
            return _status_unread(latent, payload, project)
        assert isinstance(payload, FailureValue)
        if (
            not reach.is_tool
            and not payload.own_failure
            and is_status_tool(last_name(function))
            and isinstance(state, Mapping)
            and _returned_whole_by_callers(function, project, state, payload.error_slot)
        ):
            # `err = _validate_query(sql); if err: return err`: the checker's complaint is what a
            # tool of no status of its own sends the model, whole: the tool's failure, not the
            # answer of a status check (the exemption belongs to status functions' own answers).
            latent = replace(latent, payload=replace(payload, own_failure=True))
            payload = latent.payload
        if payload.verdict:
            # Text only where a check found something wrong: a refusal where a caller on a
            # tool's path hands it on as it is and otherwise goes on; an answer elsewhere.
            return latent if not reach.is_tool and isinstance(state, Mapping) and _handed_on_by_callers(function, project, state) else None
        if payload.by_path and not reach.is_tool and not (isinstance(state, Mapping) and _returned_whole_by_callers(function, project, state, any_caller=True)):
            return None  # `if err: return {"error": err}` in every caller: the flow is theirs
        if payload.error_slot >= 0:
            # Only where a caller on a tool's path returns the item as it is (or, for an `except`
            # clause's report, sends it on in a value it returns, `return wrap(status, body)`): one
            # that words its own failure around it (`f"Cannot list bays: {err}"`) is that flow's place.
            return latent if isinstance(state, Mapping) and _item_returned(function, payload.error_slot, project, state, payload.in_handler) else None
        if not reach.is_tool and latent.route == "return" and isinstance(state, Mapping) and _reworded_by_callers(function, project, state):
            return None  # every caller intercepts the failure and returns its own: one flow, reported there
        if not reach.is_tool and latent.route == "return" and isinstance(state, Mapping) and _advice_of_callers(function, project, state):
            return None  # every caller sends it as the advice of its own failure report, reported there
        if not reach.is_tool and latent.route == "return" and isinstance(state, Mapping) and _part_of_callers_records(function, self.code, project, state):
            return None  # every caller puts it in one item of its own failure record: one flow, reported there
        if payload.passed_from and _reported_at_source(payload.passed_from, self.code, project):
            return None  # the function that built the failure reports it: one finding per flow
        if payload.caller_raises:
            latent = replace(latent, payload=replace(payload, caller_raises=_tool_raises(function, payload.caller_raises, project, state)))
            payload = _failure(latent)
        if payload.exception_to is not None and reported_down(payload.exception_to, self.code, project):
            return None  # built from the exception in the helper it is handed to, reported there
        if latent.built_by and _message_written_in(latent.built_by, self.code, project):
            return None  # the builder called writes the message itself: reported there
        if not payload.via_helper:
            return latent
        target = project.function(payload.via_helper)
        if payload.via_helper_required:  # `return _fail(msg)`: only the helper's body tells
            builds = target is not None and target[1].failure_builder and not target[1].error_results
        else:  # a library function (None): its arguments (`error=True`, an error dict) tell
            builds = target is None or not target[1].error_results
        return latent if builds else None

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        if latent.built_for_callers and not context.is_tool:
            return None  # reported where a caller returns what it built (built_by)
        payload = latent.payload
        if isinstance(payload, FailureValue) and payload.unknown_tool and (context.kind in {"dispatch", "raw-dispatch"} or context.lowlevel or not context.is_tool):
            # A dispatcher's answer to a tool name it does not list, not a tool's failure: also in
            # a function the `call_tool` handler delegates the dispatch to (as the protocol-error rule judges it).
            return None
        judged = context
        if isinstance(payload, FailureValue) and payload.answers_by_result and _answers_status_tools_only(context, True):
            return None  # `{"verified": False, "reason": ...}`, documented: the check's answer
        if not (isinstance(payload, FailureValue) and payload.own_failure):
            judged = _without_status_tools(context)
            if judged is None:
                return None  # a status-report tool: "failed" is its answer
        elif payload.status_answer and _answers_status_tools_only(context):
            return None  # "connection failed: ...", `{"ok": False}`: the status check's answer
        rendered = self._render(latent, judged)
        if rendered is not None and judged is not context:
            rendered = replace(rendered, tools=judged.tools)  # named for those tools only
        return rendered

    def _render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        kind = latent.variant
        wire = f"on {context.framework.describe()} the wire says isError: false, so client and model take it for an answer"
        if isinstance(latent.payload, UnreadStatus):
            status = latent.payload
            if status.flag_returned:
                message = f"{context.subject} returns the status flag of {status.helper}(...) as a normal result"
                evidence = f"the flag is False on a failure such as '{status.what}'"
            else:
                message = f"{context.subject} returns the message of {status.helper}(...) without reading its flag"
                evidence = f"a failure such as '{status.what}' is returned as an answer"
            return Rendered(message, None, help="Check the flag and raise ToolError with the message", notes=(evidence, wire))
        what = _failure(latent).what
        # The message names the shape; the failure itself is in the code frame and a note.
        short, full = {
            "string": ("a failure string", f"the string '{what}'"),
            "dict": ("a failure dict", f"a dict with {what}"),
            "list-dict": ("a list of one failure dict", f"a list of one dict with {what}"),
            "content": ("a failure TextContent", f"a TextContent '{what}'"),
            "result": ("a CallToolResult without isError", f"a CallToolResult without isError ('{what}')"),
            "content-dict": ("a TextContent holding a failure dict", f"a TextContent holding a dict with {what}"),
            "content-flag": ("a TextContent whose error flag is not isError", f"a TextContent '{what}' whose error flag is not isError"),
            "envelope": ("a failure response", f"{what}"),
            "exception": ("the caught exception's text", f"the text of the caught exception '{what}'"),
            "exception-object": ("an object carrying the caught exception's text", f"an object carrying the text of the caught exception '{what}'"),
            "object": ("failure text in place of results", f"an object carrying the failure text '{what}' in place of results"),
        }[kind]
        notes = [f"the failure: {full}", wire]
        if _failure(latent).documented and _failure(latent).msg:
            # Rewriting prose is the author's call; the fix says what it leaves stale.
            notes.append(f"the docstring (the tool's description for the model) documents the error result the fix removes: '{_failure(latent).documented}'; update it with the fix")
        if _failure(latent).stale_doc is not None and _failure(latent).msg:
            owner, sentence = _failure(latent).stale_doc  # type: ignore[misc]
            notes.append(f"the docstring of {owner} says the old behaviour the fix changes: '{sentence}'; update it with the fix")
        if context.lowlevel:
            help_text, advice_note = lowlevel_failure_advice(context, "CallToolResult(..., isError=True)")
            if advice_note:
                notes.append(advice_note)
        elif context.framework.every(lambda row: row.error_result_survives(ResultShape.TOOL_RESULT)):
            help_text = "Raise ToolError (or return ToolResult(is_error=True)) instead"
        else:
            help_text = "Raise ToolError instead"
        message = f"{context.subject} returns {short} as a normal result"
        returned = related_at(_failure(latent).returned_at, "the value is returned here")
        # The statements that pass the failure on, then the return that sends it (the flow's order).
        related = (*flow_related(latent.flow, "failure"), returned) if returned else flow_related(latent.flow, "failure")
        return Rendered(message, self._fix(latent, context), help=help_text, notes=tuple(notes), related=related)

    def _fix(self, latent: Latent, context: RenderContext) -> FixSpec | None:
        payload = _failure(latent)
        msg = payload.msg
        if not msg and payload.caller_raises and toolerror_available(context):
            # `return handle_error(e)` in each tool: `raise ToolError(handle_error(e)) from e`.
            edits = tuple(Edit(start, end, raised) for _, (start, end), raised in payload.caller_raises)
            shown = clip(payload.caller_raises[0][2].replace(PH_TOOL_ERROR, "ToolError"), 60).replace("raise", "Raise", 1)
            where = "in the tool" if len(edits) == 1 else f"in each of the {len(edits)} tools"
            # (No `raises`: the mapper itself still returns; its callers' clauses are not asked.)
            return FixSpec(Applicability.UNSAFE, f"{shown} {where} instead", edits, ("ToolError",))
        if not msg and payload.rethrows and context.lowlevel and context.framework.every(lambda row: row.unexpected_exception().delivery is Delivery.RESULT):
            # The low-level server of mcp 1.x sends a raised exception's text as an error result
            # on every release (R({e}), no prefix): the same words, on the error channel. (The
            # text stays the exception's: MCP002's finding, not this one's.)
            if payload.unwrapped:
                return FixSpec(Applicability.UNSAFE, "Remove the try/except: let the exception through (the server sends its text with isError: true)", payload.unwrapped)
            start, end = payload.stmt
            return FixSpec(Applicability.UNSAFE, "Re-raise the exception (the server sends its text with isError: true)", (Edit(start, end, "raise"), *payload.unbound))
        if not msg or payload.parse_text_kept and not context.is_tool:
            return None
        if payload.siblings_apart and (is_status_tool(context.function) or any(is_status_tool(tool) for tool in context.tools)):
            return None  # a sibling return of the same shape stays the status check's answer
        start, end = payload.stmt
        cause = payload.cause
        if toolerror_available(context) and not payload.raise_caught:
            spec = self._toolerror_fix(payload, start, end, msg, cause)
            opens = tuple(site for *_, site in payload.pass_through)
            return replace(spec, edits=spec.edits + _pass_through_edits(payload.pass_through) + _deletions(payload.dead), opens=opens)
        if context.lowlevel and lowlevel_result_supported(context.framework):
            edit = Edit(start, end, "return " + error_result_expr(msg))
            return FixSpec(Applicability.UNSAFE, "Return an error result (isError=True)", (edit,), ("CallToolResult", "TextContent"))
        return None

    def _toolerror_fix(self, payload: FailureValue, start: Location, end: Location, msg: str, cause: str) -> FixSpec:
        if payload.msg_range is not None:
            # Keep the parenthesised layout: only `return (` becomes `raise ToolError(`, and the
            # cause follows the closing parenthesis.
            msg_start, _ = payload.msg_range
            head = Edit(start, msg_start, f"raise {PH_TOOL_ERROR}(" + "\n" * (msg_start.row - start.row) + " " * (msg_start.column - 1 if msg_start.row != start.row else 0))
            edits = (head, Edit(end, end, cause)) if cause else (head,)
            if payload.label is not None:
                (label_start, label_end), label_text = payload.label
                edits = (head, Edit(label_start, label_end, label_text), *edits[1:])
            title = f"Raise {PH_TOOL_ERROR}(...){cause} instead"
            return FixSpec(Applicability.UNSAFE, title + _stale_doc_help(payload.stale_doc, title), edits, ("ToolError",), raises="ToolError")
        edit = Edit(start, end, f"raise {PH_TOOL_ERROR}({msg}){cause}")
        message = " ".join(msg.split())
        message = message if len(message) <= 60 else message[:57] + "..."
        title = f"Raise {PH_TOOL_ERROR}({message}){cause} instead"
        return FixSpec(Applicability.UNSAFE, title + _stale_doc_help(payload.stale_doc, title), (edit,), ("ToolError",), raises="ToolError")


def _stale_doc_help(stale_doc: tuple[str, str] | None, title: str) -> str:
    """The help's request to update the docstring that describes what the fix removes, quoting its
    sentence's start (the fix leaves prose to the author; `--fix --show-fixes` lists helps, not
    notes, so the help itself says which words to change; a note quotes the whole sentence):
    `; update _guard's docstring ("A tool call without a key…")`, as much as fits the one-line
    help after `title` (the ToolError placeholder's own length included), at a word."""
    if stale_doc is None:
        return ""
    owner, sentence = stale_doc
    plain = f"; update {owner}'s docstring"
    sentence = " ".join(sentence.split())
    # The rendered title names the class where the placeholder stands: count the longer name.
    room = HELP_MAX - len(title.replace(PH_TOOL_ERROR, "ToolError")) - len(plain) - len(' ("")')
    if len(sentence) <= room:
        return f'{plain} ("{sentence}")'
    cut = sentence[: room - 1]
    cut = cut[: cut.rfind(" ")] if " " in cut else ""
    return f'{plain} ("{cut.rstrip(",;:")}…")' if len(cut) >= 12 else plain


def _all_or_none(latents: list[Latent], fn: FunctionFacts, ctx: FileContext) -> list[Latent]:
    """Mark the failure values whose sibling returns send a dict of the same shape (its keys, and
    which of them hold True, False or None) judged otherwise (`siblings_apart`): a fix turns a
    return into a raise only where it would turn all of them (fix safety)."""
    shapes: dict[Span, frozenset[tuple[str, str]]] = {}
    for ret in fn.returns:
        value = _unwrap(unwrap_await(fn.value_of(ret.node.value)), ctx) if ret.node.value is not None else None
        if type(value) is cst.Dict:
            shapes[node_span(ctx, ret.node)] = frozenset(
                (key, text if text in {"True", "False", "None"} else "*") for key, item in literal_items(value) for text in [dotted(item)]
            )
    if len(shapes) < 2:
        return latents
    judged: dict[frozenset[tuple[str, str]], set[tuple[bool, bool]]] = {}
    for latent in latents:
        payload = latent.payload
        if isinstance(payload, FailureValue) and payload.stmt in shapes:
            judged.setdefault(shapes[payload.stmt], set()).add((payload.own_failure, payload.status_answer))
    out = []
    for latent in latents:
        payload = latent.payload
        if isinstance(payload, FailureValue) and payload.msg and payload.stmt in shapes and len(judged[shapes[payload.stmt]]) > 1:
            latent = replace(latent, payload=replace(payload, siblings_apart=True))
        out.append(latent)
    return out


def _sent_values(fn: FunctionFacts, ctx: FileContext, ret: ReturnFact, value: cst.BaseExpression) -> list[tuple[cst.BaseExpression, cst.CSTNode, tuple[cst.BaseExpression, ...]]]:
    """(value, statement that builds it, its `if` tests) for each value `ret` may send: its own
    (resolved through a local assigned once), or each branch's assignment of the returned local
    (`result = "Error: ..."` / `result = json.dumps(row)`; `return result`), reported there."""
    branches = fn.branch_values.get(id(value))
    if not branches:
        # `[TextContent(text=json.dumps(result))]`: the value sends what the serialised local
        # holds, so each branch's assignment of it is a value sent.
        carried = _carried_value(value, ctx)
        branches = fn.branch_values.get(id(carried)) if type(carried) is cst.Name else None
    if branches:
        return [(store.value, store.statement, store.conditions) for store in branches if store.statement is not None]
    return [(resolved_record(fn, value), ret.node, ret.conditions)]


def _flow_steps(fn: FunctionFacts, ctx: FileContext, ret: ReturnFact, value: cst.BaseExpression, resolved: cst.BaseExpression, in_branch: bool) -> tuple[FlowStep, ...]:
    """The statements that pass the failure value on unchanged from where it is built to the
    return: with the finding at the return, the statement that builds it comes first (`msg =
    "Error: ..."`); with the finding at a branch's assignment, only the statements after it."""
    source = store_of(fn.value_flow, resolved) if resolved is not value else None
    if source is None or source.statement is None or fn.value_flow is None:
        return ()
    between = steps_between(fn.value_flow, source, value, ret.node, ctx.range)
    if in_branch:
        return between
    built = step_of(source, ctx.range, fn.value_flow)
    if built is None:
        return between
    called = unwrap_await(source.value)
    if not built.callee and type(called) is cst.Call and _message_builder(called, ctx) is not None:
        # `out = failure("...")` of a helper of another module: the value is that helper's result.
        built = replace(built, callee=last_name(dotted(called.func) or ""))
    return (built, *between)


def _goes_straight_to(fn: FunctionFacts, assignment: cst.CSTNode, ret: cst.Return) -> bool:
    """Control goes from `assignment` to `ret` with nothing run between (branches joining):
    raising there instead skips nothing the function does."""
    order = fn.flow_order
    if order is None:
        return False
    node, target = order.graph.node_of(assignment), order.graph.node_of(ret)
    return node is not None and order.graph.successors(node, (EdgeKind.NORMAL,)) == [target]


def _deletions(dead: tuple[Span, ...]) -> tuple[Edit, ...]:
    """The lines `dead_unpacking` found dead once the return is rewritten."""
    return tuple(Edit(start, end, "") for start, end in dead)


def _pass_through_edits(inserts: tuple[tuple[int, str, str, str], ...]) -> tuple[Edit, ...]:
    """`except ToolError: raise` before each handler that would catch the new raise. Every fix in
    the same `try` offers the same edit, which the fix loop applies once."""
    edits = []
    for row, indent, inner, _site in inserts:
        at = Location(row, 1)
        edits.append(Edit(at, at, f"{indent}except {PH_TOOL_ERROR}:\n{inner}raise\n"))
    return tuple(edits)


def _caller_raises(helper: FunctionFacts, param: int, ctx: FileContext) -> tuple[tuple[str, Span, str], ...]:
    """`return handle_error(e)` as the whole statement of an `except ... as e:` clause of a
    function of this module, `e` handed at `param`, where a raise there escapes the function:
    (caller, the return's span, `raise ToolError(handle_error(e)) from e`). The mapper stays a
    str-returning function (other callers, a resource, read its text); only a caller's channel
    changes, with every word the mapper writes (its hints) kept."""
    name = helper.node.name.value
    if f"{ctx.model.module}.{name}" != helper.qualname:
        return ()  # a method (`self.handle_error(e)`) or a nested function: not followed here
    found = []
    for qualname, caller in ctx.model.functions.items():
        if caller is helper:
            continue
        for ret in caller.returns:
            handler, value = ret.handler, ret.node.value
            if handler is None or not handler.name or value is None:
                continue
            call = unwrap_await(value)
            if type(call) is not cst.Call or type(call.func) is not cst.Name or call.func.value != name or len(call.args) <= param:
                continue
            handed = call.args[param]
            if handed.keyword is not None or handed.star or type(handed.value) is not cst.Name or handed.value.value != handler.name:
                continue
            if raise_is_caught(caller, ret.node, ctx):
                continue  # the raise would be caught by the caller's own clause: not this simple rewrite
            found.append((qualname, node_span(ctx, ret.node), f"raise {PH_TOOL_ERROR}({ctx.code(value).strip()}) from {handler.name}"))
    return tuple(found)


def _tool_raises(function: str, raises: tuple[tuple[str, Span, str], ...], project: LinkedProject, reached: object) -> tuple[tuple[str, Span, str], ...]:
    """The rewrites of `_caller_raises` in the tools that return the mapper's text, when every
    caller on a tool's path that returns it as it is gets one (a tool of another module, a
    helper between, or a return of another shape would keep the failure: no fix then). Callers
    off every tool's path (a resource, a prompt) keep their return."""
    if not isinstance(reached, Mapping):
        return ()
    takers = {caller for caller, edge in project.callers_of(function) if caller in reached and edge.returned}
    kept = tuple(row for row in raises if row[0] in takers)
    if not takers or {row[0] for row in kept} != takers or not all(reached[caller].is_tool for caller in takers):
        return ()
    return kept


def _failure(latent: Latent) -> FailureValue:
    assert isinstance(latent.payload, FailureValue)
    return latent.payload


def _status_unread(latent: Latent, status: UnreadStatus, project: LinkedProject) -> Latent | None:
    """`ok, message = update(...)` then `return message` (or `{"success": ok, ...}`): a failure
    returned as a success when `update` returns status tuples whose unread flag is False beside
    a failure text (FunctionSummary.status_flags); the latent with an example of that text,
    else None."""
    found = project.function(status.via_status)
    if found is None:
        return None  # a library function: what its tuple holds is not known
    for flag, index, text in found[1].status_flags:
        if flag not in status.unread:
            continue  # tested somewhere before the return
        if flag not in status.taken and index in status.taken:
            return replace(latent, payload=replace(status, what=text))  # the message without its flag
        if flag in status.plain:
            return replace(latent, payload=replace(status, what=text, flag_returned=True))  # the flag itself, False
    return None


def _fix_message(ctx: FileContext, value: cst.BaseExpression, message: cst.BaseExpression, handler: Handler | None = None, indent: str = "") -> str:
    """The fix's message: the returned text, plus the details an error dict carried next to it
    (`{"error": "Invalid date", "details": "use YYYY-MM-DD"}` -> "Invalid date (use YYYY-MM-DD)"),
    without what a helper handed the caught exception returned (see `bound_from_exception`).
    Literals the author wrote one per line stay so, one per line inside the call's parentheses
    (`indent` is the statement's)."""
    unwrapped = _unwrap(value, ctx)
    if type(unwrapped) is cst.Dict and any(type(element) is cst.StarredDictElement for element in unwrapped.elements):
        # `{"error": status, **body}`: the spread brings fields nobody here wrote (a reply's
        # detail, its field errors); a raise of the message alone would drop them.
        return ""
    if not _could_be_words(message):
        return ""  # `{"error": r.status_code}`: a bare number is no message for the model
    source = ctx.source(message)
    text = Message.read(message, lambda node: ctx.start_line(node), ctx.code)
    carriers = bound_from_exception(handler) if handler is not None else frozenset()
    # The author's advice (a hint item of an error dict, a builder's `next_actions=[...]` or a
    # model's `note=`): each a sentence after the message, never dropped (no fix rather than that).
    fields = _result_items(unwrapped) or {}
    advice = [fields[key] for key in hint_keys_in(fields) if fields[key] is not message and not _is_empty(fields[key])]
    advice += builder_advice(unwrapped, message)
    # A whole value serialised into the message (`{json.dumps(data, indent=2)}`) is a record of the
    # failure, not words for the model: every field of it would travel in the raise (a reply's raw
    # body, the request's headers with their key). The author's words stay.
    dumped = text is not None and text.remove(lambda node: _serialised_whole(node, ctx))
    if text is not None and (carriers or dumped):
        if carriers:
            text.remove(lambda node: any(type(n) is cst.Name and n.value in carriers for n in descendants(node)))
        if not text.words().strip(" :;,.-{}"):
            return ""  # nothing of the author's words is left to raise
        if len(text.parts) != 1:
            return "" if advice else text.as_fstring(" ")
    if text is None or (len(text.parts) != 1 and not text.multiline):
        return "" if advice else source  # a layout of several literals on one line is kept as written
    text.drop_error_prefix()
    items = _dict_items(unwrapped)
    code = _code_beside(items, message)
    if code is not None and len(text.parts) == 1 and _is_fragment(text.words(), code):
        # `{"code": "TOO_MANY_ITEMS", "message": "limit=1000"}`: the message alone ("limit=1000")
        # does not say what failed, the code beside it does: raised together, as one text.
        text.parts[0].pieces.insert(0, Text(f"{code}: ", True))
    only = text.parts[0].pieces if len(text.parts) == 1 else []
    if len(only) == 1 and isinstance(only[0], Text) and (words := spelled_code(only[0].raw)) is not None:
        # `{"error": "not_found", "address_id": address_id}`: the code is no sentence for the
        # model; written as words, with the values the dict named beside it.
        only[0] = Text(words, only[0].braces_escaped)
        named = [
            (key, ctx.code(item).strip())
            for key, item in (items or {}).items()
            if type(item) in (cst.Name, cst.Attribute) and key.lower() not in _NOT_CONTEXT_KEYS and not is_hint_key(key) and not is_bulky(key) and not is_bulky(last_name(dotted(item) or ""))
        ]
        shown = {key for key, _ in named}
        if not _appended(text, [*named, *((key, code) for key, code in _what_to_act_on(items, ctx) if key not in shown)]):
            return ""
    elif items:
        # A handle of work the failure leaves running (`"job_id": job_id` beside "Timed out after
        # 600s"): the next call (its status, a cancel) needs it, so the new message keeps it.
        named = {piece.source for part in text.parts for piece in part.pieces if isinstance(piece, Placeholder)}
        handles = [
            (key, code)
            for key, item in items.items()
            if _HANDLE_KEY.search(key) and _is_reference(item) and (code := ctx.code(item).strip()) not in named
        ]
        if not _appended(text, [*handles, *((key, code) for key, code in _what_to_act_on(items, ctx) if code not in named)]):
            return ""
    details = next(
        (items[k] for k in DETAIL_KEYS if items is not None and k in items and items[k] is not message and not _is_empty(items[k])),
        None,
    )
    extra = Message.read(details, lambda node: ctx.start_line(node), ctx.code) if details is not None else None
    last = text.parts[-1]
    if extra is not None and len(extra.parts) == 1:
        last.pieces.extend([Text(" (", True), *extra.parts[0].pieces, Text(")", True)])
    elif type(details) in (cst.Name, cst.Attribute):
        # Only literals and plain references: anything else (a call) may not be text.
        last.pieces.extend([Text(" (", True), Placeholder(ctx.code(details).strip()), Text(")", True)])
    for given in advice:
        elements = [el.value for el in given.elements if type(el) is cst.Element] if type(given) in (cst.List, cst.Tuple) else [given]
        for element in elements:
            hint = Message.read(element, lambda node: ctx.start_line(node), ctx.code)
            if hint is None or not text.add_sentence(hint):
                return ""
    if len(text.parts) > 1:
        inner = indent + "    "
        return "\n" + inner + text.as_fstring("\n" + inner) + "\n" + indent
    lone = [piece for piece in text.parts[0].pieces if not (isinstance(piece, Text) and not piece.raw)]
    if len(lone) == 1 and isinstance(lone[0], Placeholder) and not lone[0].conversion and not lone[0].spec:
        # `f"Error: {error_msg}"` without its label is `error_msg` itself, not `f"{error_msg}"`.
        return lone[0].source
    return text.as_fstring(" ")


def _could_be_words(message: cst.BaseExpression) -> bool:
    """Not a number: a literal one, or a status or code read off a reply (`r.status_code`)."""
    if type(message) in (cst.Integer, cst.Float):
        return False
    name = last_name(dotted(message) or "").lower() if type(message) is cst.Attribute else ""
    return not (name.endswith("status_code") or name in {"status", "code", "errno"})


def _documented_error_result(fn: FunctionFacts, value: cst.BaseExpression, ctx: FileContext) -> str:
    """The docstring's sentence naming the returned error dict's message key in quotes (`On
    unknown item returns {"error": "<msg>"}`), clipped; "" when it names none."""
    doc = fn.node.get_docstring() if type(fn.node) is cst.FunctionDef else None
    keys = [key for key in (_result_items(_unwrap(value, ctx)) or {}) if key.lower() in MESSAGE_KEYS]
    if not doc or not keys:
        return ""
    quoted = re.compile("|".join(rf"[\"']{re.escape(key)}[\"']" for key in keys))
    for sentence in re.split(r"(?<=[.!?])\s+|\n\s*\n", doc):
        if quoted.search(sentence):
            return clip(" ".join(sentence.split()), 80)
    return ""


# A sentence saying the code answers rather than raises ("returns a clear message instead of
# raising", "never raises", "does not raise").
_ANSWERS_INSTEAD = lazy_compile(
    r"(?i)\b(?:instead\s+of|rather\s+than)\s+(?:rais|throw)|\b(?:never|not|n't)\s+(?:raises?|throws?)\b"
)


def _says_it_never_raises(fn: FunctionFacts, ctx: FileContext) -> tuple[str, str] | None:
    """(name, sentence) of the function enclosing `fn` (`_guard` of its `wrapper`) whose docstring
    says the code answers instead of raising: a fix turning `fn`'s return into a raise makes that
    sentence wrong. (The function's own docstring saying so withholds the fix: never_raises.)"""
    node = _enclosing_defs(ctx).get(id(fn.node))
    if node is None:
        return None
    doc = node.get_docstring()
    if not doc:
        return None
    for sentence in re.split(r"(?<=[.!?])\s+|\n\s*\n", doc):
        if _ANSWERS_INSTEAD.search(sentence):
            return node.name.value, clip(" ".join(sentence.split()), 80)
    return None


def _enclosing_defs(ctx: FileContext) -> dict[int, cst.FunctionDef]:
    """id(statement) -> the first def, in source order, with that statement directly in its body;
    once per file (asked per finding, a walk of the whole module each cost ~1% of a cold run)."""
    found = ctx.memo.get("enclosing_defs")
    if found is None:
        found = {}
        for node in descendants(ctx.module, into_scopes=True):
            if type(node) is cst.FunctionDef and type(node.body) is cst.IndentedBlock:
                for statement in node.body.body:
                    found.setdefault(id(statement), node)  # type: ignore[attr-defined]
        ctx.memo["enclosing_defs"] = found
    return found  # type: ignore[return-value]


def _appended(text: Message, items: list[tuple[str, str]]) -> bool:
    """`text` with `items` in parentheses after it; False when one of them cannot be written
    inside its literal (then no fix: the field would be lost)."""
    before = sum(isinstance(piece, Placeholder) for part in text.parts for piece in part.pieces)
    text.append_context(items)
    after = sum(isinstance(piece, Placeholder) for part in text.parts for piece in part.pieces)
    return after - before == len(items)


def _what_to_act_on(items: dict[str, cst.BaseExpression] | None, ctx: FileContext) -> list[tuple[str, str]]:
    """(key, expression) of the error dict's fields that tell the model what to change in its
    next call: a list of what is missing, of the submissions that failed, of the findings to
    fix (`"required_fields": sorted(required)`, `"invalid_submissions": missing`, `"findings":
    _findings(errs)`). A raise of the message alone would drop them, so the new message names
    them after it (their repr, as the dict's JSON showed them). Codes, flags, counts, the
    message's own keys and payloads are no such field."""
    found = []
    for key, item in (items or {}).items():
        lowered = key.lower()
        if lowered in _NOT_CONTEXT_KEYS or is_hint_key(key) or _HANDLE_KEY.search(key) or is_bulky(key) or _is_empty(item) or _COUNT_KEY.search(lowered) or _RECORD_KEY.search(lowered):
            continue
        if _is_collection(item) or (type(item) in (cst.Name, cst.Attribute, cst.Subscript, cst.Call) and _LIST_KEY.search(lowered)):
            found.append((key, ctx.code(item).strip()))
    return found


def _is_collection(node: cst.BaseExpression) -> bool:
    """A non-empty list, set, tuple or dict built here, or one a builtin makes (`sorted(x)`)."""
    if type(node) in (cst.List, cst.Set, cst.Tuple, cst.Dict):
        return bool(node.elements)
    if type(node) in (cst.ListComp, cst.SetComp, cst.DictComp):
        return True
    return type(node) is cst.Call and dotted(node.func) in {"sorted", "list", "set", "tuple", "dict", "frozenset"}


# Keys naming a collection of what to fix (`findings`, `missing_fields`, `invalid_items`): a plural
# last word, or a word saying the values are missing, required, invalid or expected.
_LIST_KEY = lazy_compile(r"(?<!s)(?<!statu)(?<!succes)(?<!progres)(?<!alia)s$|^(?:missing|required|invalid|expected|unknown)(?:_|$)|_(?:missing|required)$")
# Keys of a record of the exchange or the process (`headers`, `traceback`, `logs`): for programs and
# operators, never words for the model (a reply's headers, a stack).
_RECORD_KEY = lazy_compile(r"(?:^|_)(?:headers|cookies|env|environ|traceback|stack|stacktrace|trace|logs|raw|debug)$")
# Keys of a count beside the failure (`resolved_count`, `total`): a number, not what to fix.
_COUNT_KEY = lazy_compile(r"(?:^|_)(?:count|total|num|number|n)(?:_|$)|counts?$")


def _result_items(value: cst.BaseExpression) -> dict[str, cst.BaseExpression] | None:
    """The named fields of a returned failure: an error dict's items, or a builder's keyword
    arguments (`respond("failed", summary, next_actions=[...])`)."""
    items = _dict_items(value)
    return items if items is not None else builder_keywords(value)


def _serialised_whole(node: cst.BaseExpression, ctx: FileContext) -> bool:
    """`json.dumps(data)`, `pprint.pformat(data)`: a structure written out whole as text."""
    if type(node) is not cst.Call:
        return False
    resolved = ctx.model.aliases.resolve(node.func) or ""
    return resolved in _SERIALISERS


# Library functions that write a whole structure out as text.
_SERIALISERS = frozenset({"json.dumps", "pprint.pformat", "yaml.dump", "yaml.safe_dump"})


def _code_beside(items: dict[str, cst.BaseExpression] | None, message: cst.BaseExpression) -> str | None:
    """The machine code written beside `message` in the error dict that holds it (the returned
    dict, or one under its error key: `{"error": {"code": "NOT_FOUND", "message": ...}}`), when
    it is a literal code (`TOO_MANY_ITEMS`, `rate_limited`); None otherwise."""
    holders = [items or {}, *(inner for v in (items or {}).values() if (inner := _dict_items(v)) is not None)]
    for holder in holders:
        if not any(v is message for v in holder.values()):
            continue
        for key in _CODE_KEYS:
            value = holder.get(key)
            if value is not None and value is not message and type(value) is cst.SimpleString:
                text = value.evaluated_value
                if isinstance(text, str) and _MACHINE_CODE.fullmatch(text) and not set(re.split(r"[_\-]", text.lower())) <= FAILURE_STATUS_WORDS:
                    return text  # a code, not a word saying only that it failed ("ERROR")
    return None


def _is_fragment(words: str, code: str) -> bool:
    """Is a message too short to say what failed on its own ("limit=1000", "id=3"), and silent
    on the code's words?"""
    spelled = code.lower().replace("-", "_").split("_")
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", words)}
    return len(re.findall(r"[A-Za-z]{2,}", words)) < 3 and not set(spelled) <= said


# Keys of an error dict whose literal value may be a machine code naming the failure.
_CODE_KEYS = ("code", "error_code", "errorCode", "type", "error_type", "kind", "error")
# A machine code: UPPER_SNAKE (one word or more) or lower_snake of two words or more.
_MACHINE_CODE = lazy_compile(r"[A-Z][A-Z0-9]*(?:[_\-][A-Z0-9]+)*|[a-z][a-z0-9]*(?:[_\-][a-z0-9]+)+")


# Keys of an error dict naming the handle of a job, an upload, a session (`job_id`, `taskId`, `id`).
_HANDLE_KEY = lazy_compile(r"(?:^|_)id$|[a-z]Id$")

# Keys of an error dict whose value is no value the failure was about.
_NOT_CONTEXT_KEYS = FLAG_KEYS | frozenset(k.lower() for k in (*MESSAGE_KEYS, *HINT_KEYS, *DETAIL_KEYS))


def _value_in_block(fn: FunctionFacts, statement: cst.CSTNode, name: cst.Name) -> cst.BaseExpression:
    """The value of the local `name` as the block holding `statement` last assigns it before
    it (`error_msg = f"..."; await ctx.error(error_msg); return {"error": error_msg}`), else as
    the facts know it."""
    for block in descendants(fn.node.body, into_scopes=False):
        if type(block) is not cst.IndentedBlock:
            continue
        value: cst.BaseExpression | None = None
        for line in block.body:
            if type(line) is cst.SimpleStatementLine and any(small is statement for small in line.body):
                return value if value is not None else fn.value_of(name)
            for small in line.body if type(line) is cst.SimpleStatementLine else ():
                if type(small) is cst.Assign and len(small.targets) == 1 and type(small.targets[0].target) is cst.Name and small.targets[0].target.value == name.value:
                    value = small.value
    return fn.value_of(name)


def _is_reference(node: cst.BaseExpression) -> bool:
    """`job_id`, `job.id`, `job["id"]`: a value held, named in a message as it is."""
    if type(node) is cst.Subscript:
        keys = [element.slice.value for element in node.slice if type(element.slice) is cst.Index]
        return len(keys) == 1 and type(keys[0]) in (cst.SimpleString, cst.Integer) and _is_reference(node.value)
    return type(node) in (cst.Name, cst.Attribute)


def _is_container(node: cst.BaseExpression) -> bool:
    """A dict, list, set or tuple built here: no message, whatever its items say."""
    return type(node) in (cst.Dict, cst.List, cst.Set, cst.Tuple, cst.DictComp, cst.ListComp, cst.SetComp)


def _without_upstream_body(ctx: FileContext, fn: FunctionFacts, ret: ReturnFact, message: cst.BaseExpression) -> str | None:
    """The fix's message when `message` carries the body of the reply the branch found failed
    (upstream_body.body_through_locals, what MCP002 reports): the author's words around it,
    without it ("Route request failed: HTTP {resp.status_code}"); "" when nothing of theirs is
    left; None when it carries no body. In a clause that caught the reply's failed decoding or
    status (`except ValueError:` around `resp.json()`), its body is what the upstream sent
    instead of an answer: raised, MCP002 reports it, so the raise goes without it too."""
    bases = status_bases(ret.conditions, ctx) | failed_replies(ret.conditions, fn, ctx) | failed_replies_in(ret.handler)
    # Returned after the function left on the response's (or process's) success: there it failed.
    bases |= left_on_success(fn, ret.node, ctx)
    if not bases or body_through_locals(message, bases, fn, ctx) is None:
        return None
    source = _value_in_block(fn, ret.node, message) if type(message) is cst.Name else message
    text = Message.read(source, lambda node: ctx.start_line(node), ctx.code)
    if text is None or len(text.parts) != 1:
        return ""
    text.remove(lambda node: body_through_locals(node, bases, fn, ctx) is not None)
    if not text.words().strip(" :;,.-{}"):
        return ""
    text.drop_error_prefix()
    return text.as_fstring(" ")


def _is_empty(node: cst.BaseExpression) -> bool:
    return (type(node) is cst.Name and node.value in {"None", "False", "True"}) or (
        type(node) is cst.SimpleString and not node.evaluated_value
    )


def _helper_writes(value: cst.BaseExpression, handler: Handler | None, ctx: FileContext) -> bool:
    """A project helper handed the caught exception, or post-processing another helper's
    result, writes part of the failure: a raise in its place would drop it (no fix here)."""
    return text_built_by_a_helper(value, handler.name if handler is not None else None, ctx, constructor=False)


def _label_and_exception(message: cst.BaseExpression, ret: ReturnFact, value: cst.BaseExpression, ctx: FileContext) -> bool:
    """`f"Error: {str(e)}"`, `str(e)`, `f"Tool error: {e}"` in `except ... as e:`: the caught
    exception's text behind at most a label, nothing else of the author's (no hint a re-raise
    would lose)."""
    handler = ret.handler
    if handler is None or not handler.name or not _raw_text(ret, value, ctx):
        return False
    if type(message) is cst.Call and dotted(message.func) == "str" and len(message.args) == 1:
        return type(message.args[0].value) is cst.Name and message.args[0].value.value == handler.name
    text = Message.read(message, lambda node: ctx.start_line(node), ctx.code)
    if text is None:
        return False
    name = handler.name
    text.remove(lambda node: any(type(n) is cst.Name and n.value == name for n in descendants(node)))
    if any(isinstance(piece, Placeholder) for part in text.parts for piece in part.pieces):
        return False
    return _EXCEPTION_LABEL.fullmatch(text.words().strip(" :;,.-")) is not None


# A label before an exception's text: "Error", "Tool error", "Unexpected error".
_EXCEPTION_LABEL = lazy_compile(r"(?i)(?:[a-z]+\s+){0,2}(?:error|exception|failure)s?|")


def _raw_text(ret, value: cst.BaseExpression, ctx: FileContext, *, bodies_only: bool = False) -> bool:
    """Does the returned value carry a caught foreign exception's text or an upstream error body
    (only the latter with `bodies_only`)?"""
    if not bodies_only and ret.handler is not None and ret.handler.foreign and exception_text_in(value, ret.handler, ctx) is not None:
        return True
    bases = status_bases(ret.conditions, ctx)
    return bool(bases) and upstream_body(value, bases) is not None


def _error_label(ctx: FileContext, message: cst.BaseExpression) -> tuple[Span, str] | None:
    """Where the `Error: ` label of a message's first literal is, and what replaces it (the next
    letter capitalised), as `Message.drop_error_prefix` does for messages it rewrites whole."""
    first = message
    while type(first) is cst.ConcatenatedString:
        first = first.left
    if type(first) is cst.SimpleString:
        raw, opening = first.raw_value, len(first.prefix) + len(first.quote)
    elif type(first) is cst.FormattedString and first.parts and type(first.parts[0]) is cst.FormattedStringText:
        raw, opening = first.parts[0].value, len(first.start)
    else:
        return None
    replacement = label_replacement(raw)
    if replacement is None or len(first.end if type(first) is cst.FormattedString else first.quote) == 3:
        return None
    length, label = replacement
    where = ctx.range(first)
    column = where.start.column + 1 + opening
    rest = raw[length:]
    if label:
        # "Error: getting X" -> "Error getting X": the label is what says it failed.
        return (Location(where.start.line, column), Location(where.start.line, column + length)), label
    capital = rest[:1].upper() if capitalized(rest) != rest else ""
    end = column + length + (1 if capital else 0)
    return (Location(where.start.line, column), Location(where.start.line, end)), capital
