"""Words for a fix's message when the author left none: what the code itself says failed.

A curated message is the author's words minus the exception text. When nothing of theirs is left
(`raise ToolError(str(e))`, `f"Request failed: {e}"`), a careful engineer writes the message from
what is in the code: the function's name when it is an action (`_parse_attachments` -> "Could not
parse attachments"), the one operation the `try` runs (`repo.git.checkout(branch)` -> "Could not
checkout {branch}"), the class a method belongs to (`WeatherClient._request` -> "Weather
request failed"), or the one tool the failure reaches. When none of them says anything, no fix is
written: a message such as "The request failed" is no better than the exception's.

It also finds the value an "Invalid timezone: {e}" message was about (`timezone_name`), so the
message can name it instead of the exception's text.
"""

from __future__ import annotations

import builtins
import re
from typing import Iterator

import libcst as cst

from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import dotted, identifier_parts, last_name
from mcp_lint.model.walk import descendants
from mcp_lint.vocabulary import (
    ACTION_VERBS,
    BENIGN_CALLS,
    BENIGN_METHODS,
    BULK_VALUE_WORDS,
    DECODING_CALLS,
    GENERIC_VERBS,
    NAME_NOISE_WORDS,
    OBJECT_VERBS,
    RECEIVER_DEPENDENT_METHODS,
    REJECTED_VALUE_WORDING,
    SERVICE_ROLE_SUFFIX,
)

# Modules whose calls run other code (`asyncio.create_task(...)`): no operation of their own.
_PLUMBING = frozenset({"asyncio", "anyio", "trio", "threading", "concurrent", "functools"})
_BUILTIN_NAMES = frozenset(dir(builtins))


def name_words(name: str) -> list[str]:
    """`run_ledger_select_query_async` -> run ledger select query; `fetchPage` -> fetch page."""
    words = [w.lower() if not w.isupper() or len(w) == 1 else w for w in identifier_parts(name)]
    return [w for w in words if w.lower() not in NAME_NOISE_WORDS]


def action(name: str, *, bare: bool = False) -> str | None:
    """"Could not parse attachments" for `_parse_attachments`: a name that is a verb and its
    object. With `bare`, a verb alone too when it names a task (`search` -> "Could not search");
    never one that says only that something ran (`_call`, `execute`)."""
    words = name_words(name)
    if not words or words[0] not in ACTION_VERBS:
        return None
    if len(words) == 1 and (not bare or words[0] in GENERIC_VERBS):
        return None
    return "Could not " + " ".join(words)


def sends_any_request(name: str) -> bool:
    """`_make_request`, `send_request`, `do_api_call`: a verb that names no task and a request
    ("Could not make request" names no operation). A bare `_request` is not one: its class's
    service or the tool names it (method_of_service)."""
    words = [w.lower() for w in name_words(name)]
    if len(words) < 2 or words[0] not in GENERIC_VERBS:
        return False
    return words[1:] in (["request"], ["api", "request"], ["http", "request"], ["api", "call"], ["api"])


def request_operation(fn: FunctionFacts) -> tuple[str, str | None, str | None] | None:
    """What a request-sending helper (`sends_any_request`) was doing: the service of its class
    ("Vault", or "" outside one), the parameter naming the HTTP method (`method`), and the one
    naming what it asked for (`endpoint`, `path`): "Vault request {method} {endpoint} failed".
    Never a `url` (it may hold a key in its query). None when neither a service nor such a
    target names it."""
    if not sends_any_request(fn.name):
        return None
    target = next((p for p in fn.params if p.lower().lstrip("_") in _TARGET_PARAMS), None)
    method = next((p for p in fn.params if p.lower().lstrip("_") in _METHOD_PARAMS), None)
    name = (fn.class_name or "").lstrip("_")
    service = SERVICE_ROLE_SUFFIX.sub("", name)
    service = service if service != name and service[:1].isupper() else ""
    return (service, method, target) if service or target else None


# Parameters of a request helper naming what is asked for, and with which HTTP method.
_TARGET_PARAMS = frozenset({"endpoint", "path", "route", "resource", "api_path", "url_path"})
_METHOD_PARAMS = frozenset({"method", "http_method", "verb"})


def method_of_service(fn: FunctionFacts) -> str | None:
    """"Weather request failed" for `WeatherClient._request`: the service the class talks
    to (its name without the role suffix) and what the method does. None outside a class, for a
    class that names no role (`DocumentProcessor` is no service), or one that is only a role
    (`Client`)."""
    if not fn.class_name:
        return None
    name = fn.class_name.lstrip("_")
    service = SERVICE_ROLE_SUFFIX.sub("", name)
    words = name_words(fn.name)
    if service == name or not service or not words or not service[0].isupper():
        return None
    if len(words) == 1 and words[0].lower() in GENERIC_VERBS:
        # `_call`, `_execute`: the method runs whatever its caller names; "Records call failed"
        # glues the class's name to a verb that names no task.
        return None
    return f"{service} {' '.join(words)} failed"


def tool_sentence(tool: str) -> str | None:
    """What failed, from the one tool a failure reaches: "Could not list sites" for `list_sites`,
    "Git status failed" for `git_status`. None for a name of one word or with other characters."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", tool):
        return None
    found = action(tool)
    if found is not None:
        return found
    words = name_words(tool)
    if len(words) < 2:
        return None
    sentence = " ".join(words) + " failed"
    return sentence[0].upper() + sentence[1:]


def acts_on_other_things(step: str, function: str) -> bool:
    """Does the step ("Could not load alert feed") act on something the function's name
    (`list_alerts`) does not name? Its object's words, singular, beyond the function's. A step
    whose verb says only that something ran, or whose object is a bulk value (`_send_request`,
    `send_data`), is plumbing: it names nothing the model can act on."""
    words = step.split()
    if len(words) < 4 or words[2] in GENERIC_VERBS:
        return False
    singular = lambda word: word[:-1] if len(word) > 3 and word.endswith("s") else word  # noqa: E731 - one use
    own = {singular(word.lower()) for word in name_words(function)}
    # After "Could not <verb>"; a version or a number (`list_objects_v2`) is no other thing.
    objects = {singular(word.lower()) for word in words[3:] if word.isalpha() and word.lower() not in BULK_VALUE_WORDS}
    return bool(objects) and not objects <= own


def operation(handler: Handler, fn: FunctionFacts) -> tuple[str, str | None] | None:
    """("Could not checkout", "branch") for `try: repo.git.checkout(branch)`, ("Could not get
    issue", None) for `client.get_issue(key)`: the one operation of the `try` a failure comes
    from, in words, and for a bare verb the value it was run on (a parameter, or a local bound
    before the `try`). None when the `try` runs no such operation or several (then the message
    would guess which one failed)."""
    found = _operation(handler, fn)
    return found[0] if found is not None else None


def operation_is_own(handler: Handler, fn: FunctionFacts) -> bool:
    """Is the one operation of the `try` (`operation`) a call of the project's own code: a
    function called by its name (`load_alert_feed(...)`) or a method of the function's own class
    (`self._load_feed(...)`)? A method of another object (`client.search_read(...)`) is named by
    the library it belongs to, not by the author: it does not say what the tool was doing."""
    found = _operation(handler, fn)
    if found is None:
        return False
    callee = dotted(found[1].func)
    return callee is not None and ("." not in callee or callee.split(".")[0] in {"self", "cls"})


def _operation(handler: Handler, fn: FunctionFacts) -> tuple[tuple[str, str | None], cst.Call] | None:
    """`operation`'s words, with the call they name."""
    found: dict[tuple[str, str | None], cst.Call] = {}
    bound = bound_in(handler.try_node.body)
    for step in _steps(handler.try_node.body):
        named = _named_step(step, fn, bound)
        if named is None:
            return None  # a step that can fail and says nothing: it may be the one that failed
        if named is not _HARMLESS:
            found.setdefault(named, step)
    return next(iter(found.items())) if len(found) == 1 else None


# A step of the `try` that cannot be the one that failed (a string method, a builtin, a log call).
_HARMLESS = ("", None)
# Methods of strings, lists, dicts and dates that ask no one else, beyond the vocabulary's.
_PURE_METHODS = BENIGN_METHODS | frozenset(
    "sort capitalize title lstrip rstrip splitlines count find index extend insert add update setdefault pop copy "
    "isoformat strftime total_seconds zfill ljust rjust center casefold partition rpartition rsplit".split()
)
_SERIALIZERS = frozenset({"json.dumps", "orjson.dumps", "yaml.dump", "yaml.safe_dump", "dataclasses.asdict"})
_UNSAFE_BUILTINS = frozenset({"open", "exec", "eval", "compile", "input", "__import__"})


def _steps(body: cst.CSTNode) -> list[cst.Call]:
    """The calls of a `try` body that are steps of their own: a method chain
    (`service.search().query(...).execute()`, `get_client().request(...)`) is one step, read
    from its outermost call."""
    calls = list(calls_in(body))
    receivers: set[int] = set()
    for call in calls:
        inner = call.func
        while type(inner) in (cst.Attribute, cst.Subscript):
            inner = inner.value
            if type(inner) is cst.Call:
                receivers.add(id(inner))
                break
    return [call for call in calls if id(call) not in receivers]


def _named_step(step: cst.Call, fn: FunctionFacts, bound: set[str]) -> tuple[str, str | None] | None:
    """What a step of the `try` does, in words ("Could not get issue", or "Could not open" and
    the value it opened); `_HARMLESS` for a step that asks no one else; None for a step that can
    fail and has no such name (a chain is named by its outermost call: in
    `get_client().request(...)` the request is what fails, not the getter)."""
    callee = dotted(step.func)
    short = step.func.attr.value if type(step.func) is cst.Attribute else last_name(callee or "")
    if callee is not None and callee.split(".")[0] in _PLUMBING:
        return _HARMLESS
    if type(step.func) is cst.Attribute and short in _PURE_METHODS and not _on_a_call(step, RECEIVER_DEPENDENT_METHODS):
        return _HARMLESS
    if callee is not None and "." not in callee and (callee in BENIGN_CALLS or (callee in _BUILTIN_NAMES and callee not in _UNSAFE_BUILTINS)):
        return _HARMLESS
    if callee in BENIGN_CALLS or callee in _SERIALIZERS or _is_log_call(callee) or short[:1].isupper():
        return _HARMLESS  # a value built or written out, a log line: no step that asks anyone
    words = name_words(short)
    if len(words) > 1 and words[0] in ACTION_VERBS:
        return ("Could not " + " ".join(words), None)  # "Could not get issue": the name says what
    if len(words) == 1 and words[0] in OBJECT_VERBS:
        values = [name for name in call_argument_names(step) if _usable(name, fn, bound)]
        if len(values) == 1 and not is_bulky(values[0]) and not _decodes(step):
            return ("Could not " + words[0], values[0])  # "Could not open": of what? only with it
    return None


def _on_a_call(step: cst.Call, methods: frozenset[str]) -> bool:
    """`client.get(url)` of a client made by a call (`get_client().get(url)`): a request, not a
    dict read."""
    return type(step.func) is cst.Attribute and step.func.attr.value in methods and type(step.func.value) is cst.Call


def _is_log_call(callee: str | None) -> bool:
    if not callee or "." not in callee:
        return callee == "print"
    receiver, _, method = callee.rpartition(".")
    return method in {"debug", "info", "warning", "warn", "error", "exception", "critical", "log"} and bool(
        re.search(r"(?i)(?:^|_)log(?:ger)?$|^logging$", receiver.rpartition(".")[2])
    )


def rejected_value(words: str, handler: Handler, fn: FunctionFacts) -> str | None:
    """`timezone_name` for "Invalid timezone: {}" around `load_zoneinfo(timezone_name)`: the
    value the author's words say was rejected, when one argument of the `try`'s calls (a
    parameter, or a local bound before the `try`) is named like the kind of value they name."""
    match = REJECTED_VALUE_WORDING.match(words)
    if match is None:
        return None
    kind = [w for w in re.split(r"[\s_-]+", match.group("kind").lower()) if w]
    bound = bound_in(handler.try_node.body)
    calls = list(calls_in(handler.try_node.body))
    candidates = {name for call in calls for name in call_argument_names(call) if _usable(name, fn, bound) and _names_kind(name, kind)}
    if len(candidates) != 1:
        return None
    name = candidates.pop()
    if is_bulky(name) or any(_decodes(call) and name in call_argument_names(call) for call in calls):
        # "Invalid image data: {image_b64}": the value a decoder was handed is the whole
        # payload (an upstream image, a document): the leak would only move into the message.
        return None
    return name


def is_bulky(name: str) -> bool:
    """Does a value's name say it holds a payload rather than a short identifying value
    (`image_data_base64`, `body`, `query_params`)?"""
    return bool(BULK_VALUE_WORDS.intersection(w.lower() for w in name_words(name)))


def _decodes(call: cst.Call) -> bool:
    """`base64.b64decode(x)`, `json.loads(x)`: a library call decoding a whole encoded value."""
    return last_name(dotted(call.func) or "") in DECODING_CALLS


def _names_kind(name: str, kind: list[str]) -> bool:
    """`timezone_name` names a "timezone" (or a "time zone"); `date_str` a "date"."""
    words = [w.lower() for w in name_words(name)]
    joined_name, joined_kind = "".join(words), "".join(kind)
    return any(len(w) >= 3 and w in words for w in kind) or (len(joined_kind) >= 3 and joined_kind in joined_name)


def calls_in(body: cst.CSTNode) -> Iterator[cst.Call]:
    for node in descendants(body, into_scopes=False):
        if type(node) is cst.Call:
            yield node


def call_argument_names(call: cst.Call) -> Iterator[str]:
    for argument in call.args:
        if not argument.star and type(argument.value) is cst.Name:
            yield argument.value.value


def _usable(name: str, fn: FunctionFacts, bound_in_try: set[str]) -> bool:
    """A name the `except` clause can still read: a parameter, or a local the `try` did not bind
    (one it binds may not be set when the failure happened)."""
    if name in fn.params:
        return True
    return name in fn.local_names and name not in bound_in_try


def bound_in(body: cst.CSTNode) -> set[str]:
    bound: set[str] = set()
    for node in descendants(body, into_scopes=False):
        target: cst.CSTNode | None = None
        if type(node) in (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr):
            target = node.target
        elif type(node) is cst.AsName:
            target = node.name
        if target is not None:
            bound.update(n.value for n in descendants(target, into_scopes=False) if type(n) is cst.Name)
            if type(target) is cst.Name:
                bound.add(target.value)
    return bound
