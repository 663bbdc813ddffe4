"""A helper's message read after its callers' own words.

`raise ExportError(f"Export request failed: {exc}") from exc` in a client helper, caught by each
caller as `except ExportError as exc: return Result(message=f"Export request failed: {exc}. File
left unchanged.")`: the callers already name the operation, and put the helper's text after it.
A fix that turns the helper's message into a sentence naming the operation makes the reader see
it twice ("Export request failed: Export request failed."). Where every caller reads the text
that way, the helper's new message says only why (the HTTP status, the error's class), as a
maintainer writes a helper whose callers compose the sentence; the words it used to hold go to
the helper's log line, with the traceback (the callers' `logger.warning("... %s", exc)` would
otherwise log only the short reason).

Check time records, per function, the words each `except` clause writes before its caught
exception's text (`words_before_caught`); the link step compares them with the helper's words
through the project's call graph (`LinkedProject.callers_of`).
"""

from __future__ import annotations

from typing import Container, Iterator

import libcst as cst

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.exception_guards import Handler, catching_clause
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.walk import descendants
from mcp_lint.rules.base import LinkedProject
from mcp_lint.rules.handler_fix import is_log_call, logs_with_traceback
from mcp_lint.rules.messages import Message, Part, Placeholder, Text

# Words that say something failed, not which operation: "Error: {exc}" names none.
_NO_OPERATION = frozenset(
    "error errors failed failure fail fails exception exceptions unexpected could not cannot unable "
    "the and for with while when during from occurred reason details detail problem issue got an".split()
)
_WORD = lazy_compile(r"[^\W\d_]{3,}")
# A sentence's end followed by more words: the author's message says more than the operation.
_SENTENCE_THEN_WORDS = lazy_compile(r"[.!?]\s+\S")
# A placeholder reading a status or the error's class, as the fix keeps them (http_status.py).
_STATUS = lazy_compile(r"status|\.code\b")
_CLASS_NAME = lazy_compile(r"__name__|__class__")


def names_the_operation_only(message: Message) -> bool:
    """Is the message one phrase of the author's words, with no value and no second sentence
    (no advice a reason-only message would drop)?"""
    if any(isinstance(piece, Placeholder) for part in message.parts for piece in part.pieces):
        return False
    words = message.words().strip()
    return bool(_content_words(words)) and not _SENTENCE_THEN_WORDS.search(words)


def reason_of(message: Message, name: str) -> Message:
    """The reason part of a fix's message: the status it keeps ("HTTP {e.response.status_code}"),
    the OS error's class it keeps, else the caught exception's class (`type(e).__name__`: no
    one's text, never empty)."""
    first = message.parts[0] if message.parts else Part("", '"')
    pieces: list[Text | Placeholder] = [Placeholder(f"type({name}).__name__")]
    for part in message.parts:
        for piece in part.pieces:
            if isinstance(piece, Placeholder) and _STATUS.search(piece.source):
                pieces = [Text("HTTP ", True), Placeholder(piece.source)]
            elif isinstance(piece, Placeholder) and _CLASS_NAME.search(piece.source):
                pieces = [Placeholder(piece.source)]
    return Message([Part(first.prefix.replace("f", "").replace("F", ""), first.quote if len(first.quote) == 1 else '"', pieces)])


def words_before_caught(fn: FunctionFacts) -> Iterator[tuple[str, str]]:
    """(Handler.site, the words the clause writes before its exception's text) for each named
    clause of `fn` that reads that text: "" where some use of it (logging aside, the `from e`
    cause, an attribute read) is not inside an f-string after words of the clause's own."""
    for handler in fn.handlers:
        if not handler.name or not handler.site:
            continue
        found = _words_of(handler)
        if found is not None:
            yield handler.site, found


def _words_of(handler: Handler) -> str | None:
    name = handler.name
    uses = {id(n) for n in descendants(handler.node.body, into_scopes=False) if type(n) is cst.Name and n.value == name}
    if not uses:
        return None
    prefixes: list[str] = []
    logged: set[int] = set()  # the nodes inside log calls: what the server logs is not handed on
    for node in descendants(handler.node.body, into_scopes=False):
        if id(node) in logged:
            continue
        if type(node) is cst.Call and is_log_call(node):
            inside = {id(n) for n in descendants(node, into_scopes=False)}
            logged |= inside
            uses -= inside
        elif type(node) is cst.Raise and node.cause is not None:
            uses -= _names_in(node.cause, name)
        elif type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == name:
            uses.discard(id(node.value))  # `e.response.status_code`: a value of it, not its text
        elif type(node) is cst.FormattedString:
            before = ""
            for part in node.parts:
                if type(part) is cst.FormattedStringText:
                    before += part.value
                    continue
                if _is_text_of(part.expression, name) and part.conversion is None and part.format_spec is None:
                    prefixes.append(before)
                    uses -= _names_in(part.expression, name)
                before += "{}"
    if uses or not prefixes:
        return "" if uses or prefixes else None
    words = [p.rstrip(" :;,-–—(") for p in prefixes]
    return "" if any(not _content_words(w.split(". ")[-1]) for w in words) else " | ".join(words)


def traced_clauses(fn: FunctionFacts) -> Iterator[str]:
    """Handler.site of each clause of `fn` that logs the failure with its traceback
    (`logger.exception(...)`, `exc_info=True`, `traceback.print_exc()`)."""
    for handler in fn.handlers:
        if handler.site and any(
            type(node) is cst.Call and is_log_call(node) and logs_with_traceback(node) for node in descendants(handler.node.body, into_scopes=False)
        ):
            yield handler.site


def callers_log_the_traceback(project: LinkedProject, function: str, raised: str, raised_qual: str) -> bool:
    """Does every caller of `function` catch `raised` in a clause that logs it with its traceback
    (`logger.exception("Export failed")`)? Then the helper's own log line, which a reason-only
    fix adds, logs the same failure a second time: the fix adds none."""
    callers = project.callers_of(function)
    if not callers or not raised:
        return False
    names = frozenset({raised, *(last_name(a) for a in (project.class_ancestors(raised_qual) if raised_qual else ()))})
    for caller, edge in callers:
        found = project.function(caller)
        if found is None:
            return False
        clauses = [clause for guard in edge.guarded if (clause := catching_clause(guard, names)) is not None]
        if not clauses or not all(site in found[1].traced_sites for _, _, site in clauses):
            return False
    return True


def _is_text_of(expr: cst.BaseExpression, name: str | None) -> bool:
    """`e` or `str(e)`."""
    if type(expr) is cst.Name:
        return expr.value == name
    return type(expr) is cst.Call and dotted(expr.func) == "str" and len(expr.args) == 1 and _is_text_of(expr.args[0].value, name)


def _names_in(node: cst.CSTNode, name: str | None) -> set[int]:
    return {id(n) for n in descendants(node, into_scopes=False) if type(n) is cst.Name and n.value == name} | (
        {id(node)} if type(node) is cst.Name and node.value == name else set()
    )


def _content_words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _NO_OPERATION


def callers_say_the_operation(
    project: LinkedProject, function: str, raised: str, raised_qual: str, words: str, on_tool_paths: Container[str]
) -> bool:
    """Does every call of `function` sit in a `try` whose clause catching `raised` either leaves
    its text alone or puts it after words naming the operation the helper's `words` name (one
    content word in common), with at least one caller on a tool's path doing so? A caller letting
    it escape, or reading its text alone, keeps the helper's whole sentence; so does a helper whose
    only wrapping callers are a script's or a test's (`print(f"Error testing lookup: {e}")`): the
    model reads the text only where a tool hands it on."""
    callers = project.callers_of(function)
    if not callers or not raised:
        return False
    names = frozenset({raised, *(last_name(a) for a in (project.class_ancestors(raised_qual) if raised_qual else ()))})
    own = _content_words(words)
    wrapping = False
    for caller, edge in callers:
        found = project.function(caller)
        if found is None:
            return False
        clauses = [clause for guard in edge.guarded if (clause := catching_clause(guard, names)) is not None]
        if not clauses or any(reraises for _, reraises, _ in clauses):
            return False
        read = dict(found[1].words_before_caught)
        for _, _, site in clauses:
            if site not in read:
                continue  # the clause does not read the text (a status, a partial result)
            said = read[site]
            if not said or not all(_content_words(phrase) & own for phrase in said.split(" | ")):
                return False
            wrapping = wrapping or caller in on_tool_paths
    return wrapping
