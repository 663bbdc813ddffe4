"""MCP002's record of a latent finding (its typed payload), read by the rule's check, link and render."""

from __future__ import annotations

from dataclasses import dataclass

from mcp_lint.findings import Edit, Related
from mcp_lint.model.escape_exits import Exit
from mcp_lint.model.summary import Latent, Payload
from mcp_lint.rules.base import Span
from mcp_lint.rules.exception_text import HandedOn


@dataclass(frozen=True)
class RawText(Payload):
    """Foreign text (a caught exception's, an upstream error body) put into what the model reads;
    also the marker of a clause handing a caught exception to a project helper."""

    exc: str = ""  # the caught classes as the message names them ("A/B" for several), or "upstream response"
    tool_args_only: bool = False  # the `try` only parses the tool's own arguments
    traceback: bool = False  # the text is a formatted traceback
    error_result: bool = False  # returned in an error result (isError set), not a normal one
    cls: str = ""  # the class the text is raised in (short name), "" for ToolError or a return
    raised: str = ""  # what the statement raises today: a fix must not change which `except` takes it
    sent_at: Span | None = None  # the statement that sends text built in a local
    sent_how: str = ""  # "returned" or "raised"
    status_kept: bool = False  # the fix keeps a status tuple returned (it raises nothing)
    result_fix: bool = False  # the fix returns an error result (an mcp 2.x low-level handler)
    # The project's functions the `try` calls (qualified): where one rejects bad arguments with a
    # raise of its own (FunctionSummary.validates), the caught text is the author's
    # hint about the model's argument, which no new message may replace.
    try_callees: tuple[str, ...] = ()
    # Short names of the classes the same `try`'s earlier clauses catch: a validator's exception
    # one of them takes never reaches this clause.
    caught_before: tuple[str, ...] = ()
    # With a fix: the clause's caught classes (short names), where an `except X: raise` can go
    # before it (handler_fix.clause_insertion), and the exception classes this module can name
    # ((local name, qualified)): the project's own classes those callees raise with the author's
    # words keep them through that pass-through, or the fix is withdrawn (rules/mcp002_own_advice.py).
    try_calls: tuple[str, ...] = ()  # every call of the `try` body, as its call edge names the callee
    # The method names of the `try` body's calls on objects no call edge resolves (a response's
    # `.json()`): what they raise decides whether a builtin class can be let through.
    try_methods: tuple[str, ...] = ()
    clause_caught: tuple[str, ...] = ()
    clause_at: tuple[int, str, str] | None = None
    # The clause does more than report (rolls state back, retries): no `except X: raise` may go
    # before it (handler_fix.only_reports); with no fix, the help says so.
    clause_cleans_up: bool = False
    nameable: tuple[tuple[str, str], ...] = ()
    module: str = ""  # the module of the statement (its own raises are judged with the code at hand)
    # Under a clause catching ValueError: the project classes the `try` builds from a parameter
    # (an Enum among them says which argument value was wrong).
    argument_classes: tuple[str, ...] = ()
    body: str = ""  # the upstream body's expression
    param: str = ""  # the parameter holding an exception a caller caught
    # The parameter holding a response: kept where a caller passes one it found failed.
    body_param: int | None = None
    # ... or, when the statement's branch tests that parameter's failure field itself (`if
    # payload.get("success") is False:`), where a caller passes it a decoded reply.
    reply_tested: bool = False
    # With a fix: the dropped text may be the other side's answer about the caller's input
    # (own_answer.REPLY / DRIVER): the fix is shown, not applied (review 16, C2).
    own_answer: str = ""
    # With `tool_args_only`: the positions of the parameters the `try` parses; in a helper, the
    # text is about the model's input where every caller takes them from a tool's arguments.
    parsed_params: tuple[int, ...] = ()
    # A factory's exception built from its parameter (`def unreachable(e): return ApiError(...)`):
    # the class (short and qualified), and whether only a caller's raise sends the text.
    factory: str = ""
    factory_qual: str = ""
    raised_only: bool = False
    # The clause catches the project's own classes (qualified): whether it passes library text
    # on depends on what the class carries (CarriedText); the attribute its branch tests.
    passes: bool = False
    caught_quals: tuple[str, ...] = ()
    needs_attr: str = ""
    imported_quals: tuple[str, ...] = ()  # imported classes the clause catches (the project's?)
    # The clause catches only narrow builtin classes (`origin_caught`) around calls of another
    # module's code: whether their text is a library's is decided at link time from what its
    # `try` body lets escape (model.escapes.Exit); `origin_foreign` is the file's own verdict,
    # kept where a call stays unresolved.
    origin_exits: tuple[Exit, ...] = ()
    origin_caught: tuple[str, ...] = ()
    origin_foreign: bool = False
    # Link time: the raises this clause catches and wraps again, reported here as one flow.
    rewraps: tuple[Related, ...] = ()
    # Link time: where a raise of the caught carrier class carries library text ("path:row", ""
    # when not known; None: no carrier), and the class a caller raises the returned text in.
    carrier: str | None = None
    raised_by: str = ""
    # A "handed-to-helper" marker: the helper (qualified), called as a method, its value sent on
    # by the clause itself.
    helper: str = ""
    via_attribute: bool = False
    sent: bool = False
    # The text is found only as the caught exception handed whole to a project function deeper
    # in the value (`json.dumps(handle_error(e))`): where that function puts its parameter's
    # text in itself, the flow is reported there (link time).
    handed_to: HandedOn | None = None
    # The text is found only in what such a call returns, taken into a local (`status =
    # status_of(e)`, then raised or returned): where that function returns no text (a number,
    # a flag: FunctionSummary.returns_no_text), nothing of the exception is sent (link time).
    text_from: HandedOn | None = None
    # The other statements of a helper that send a part of the same response's body (one flow,
    # reported at the first): related locations.
    also_sent: tuple[Span, ...] = ()
    # The text is a value handed whole to a project exception class's constructor (`raise
    # ApiError(exc)`, `raise ApiError(resp)`): (the class qualified, the argument positions). Whether
    # the message holds its text is the class's `__init__`'s to say (FunctionSummary.message_params).
    constructed: tuple[str, tuple[int, ...]] | None = None
    # With `constructed`: the keyword arguments that hand it the text (`ApiError(messages=...)`),
    # placed by the `__init__`'s parameters at link time.
    constructed_keywords: tuple[str, ...] = ()
    # The body is only in keyword arguments of a project exception's constructor (`raise
    # ApiError(f"HTTP {status}", body=body)`): (the class qualified, those keywords). Where the
    # class's `__init__` keeps them out of the message (an attribute), no text is sent (link time).
    keyword_body: tuple[str, tuple[str, ...]] | None = None
    # The body is a field of what a call outside the project's functions answered, tested for
    # failure by the author (`result = app.acquire_token(...)`; `if "error" in result:`): that
    # call, qualified. The link step drops it where the callee turns out to be the project's.
    answered_by: tuple[str, ...] = ()
    # A helper's raise of its own class: the fix whose new message says only why (the status, the
    # error's class) for callers that put its text after their own words naming the operation
    # (rules/callers_words.py): (its help, its edits, whether it logs); and the author's words
    # the usual fix keeps, which those callers' words are compared with at link time.
    reason_fix: tuple[str, tuple[Edit, ...], bool] | None = None
    # The same fix without a log line, for a helper whose every caller logs the failure with its
    # traceback (callers_words.callers_log_the_traceback): it would be logged twice.
    reason_fix_quiet: tuple[str, tuple[Edit, ...], bool] | None = None
    fix_words: str = ""


def raw_text(latent: Latent) -> RawText:
    """The latent's payload: every latent of the rule records one."""
    assert isinstance(latent.payload, RawText)
    return latent.payload
