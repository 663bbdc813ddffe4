"""What a tool returns when it fails: failure strings, error dicts, TextContent lists, error results.

Shared by MCP005 (failures returned as successes), MCP003 (their wording) and MCP004 (a returned
failure rejects the call).
"""

from __future__ import annotations

import re
from typing import Callable, Mapping, Optional, Tuple

import libcst as cst

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.effects import CONTAINER_WRITES
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.frameworks import (
    CALL_TOOL_RESULT_CLASSES,
    TEXT_CONTENT_CLASSES,
    TOOL_RESULT_CLASSES,
)
from mcp_lint.model.message_text import SERIALISERS, literal_text
from mcp_lint.model.names import dotted, last_name, literal_value
from mcp_lint.model.walk import descendants
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.messages import Message, Placeholder
from mcp_lint.rules.text import clip, is_failure_text, starts_as_error
from mcp_lint.vocabulary import (
    ERROR_BUILDER_NAME,
    ERROR_FLAG_KEYWORDS,
    EMPTY_RESULT,
    ERROR_KEYS,
    FAILED_STATUSES,
    FAILURE_STATUS_WORDS,
    LISTING_KEYS,
    MESSAGE_KEYS,
    NOT_AN_ERROR_BUILDER_NAME,
    POINTER_KEY,
    STATE_KEYS,
    SUCCESS_KEYS,
    is_hint_key,
)



def _dict_items(node: cst.BaseExpression) -> dict[str, cst.BaseExpression] | None:
    if type(node) is cst.Dict:
        items: dict[str, cst.BaseExpression] = {}
        for element in node.elements:
            if type(element) is cst.DictElement and type(element.key) is cst.SimpleString:
                key = literal_value(element.key)
                if isinstance(key, str):
                    items[key] = element.value
        return items
    if type(node) is cst.Call and dotted(node.func) == "dict" and not any(a.keyword is None for a in node.args):
        return {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    return None


def _is_falsy_literal(node: cst.BaseExpression) -> bool:
    return (type(node) is cst.Name and node.value in {"None", "False"}) or (
        type(node) is cst.SimpleString and node.evaluated_value == ""
    ) or (type(node) in (cst.List, cst.Dict) and not node.elements)


_SERIALIZERS = frozenset({"json.dumps", "dumps", "orjson.dumps", "JSONResponse", "str", "repr"})


def _unwrap(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression:
    """The value under `await`, `json.dumps(...)`, `str({...})`: what the serialized text says."""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is cst.Call and dotted(value.func) in _SERIALIZERS and value.args:
        inner = _serialised_local(value.args[0], ctx)
        if dotted(value.func) not in {"str", "repr"} or type(inner) is cst.Dict:
            value = inner
    return _dumped_model(value, ctx)


def _serialised_local(arg: cst.Arg, ctx: FileContext) -> cst.BaseExpression:
    """What a serialiser's first argument says: a local holding a dict literal is that dict
    (`payload = {"error": ...}; return [TextContent(text=json.dumps(payload))]`), as a returned
    local is resolved; anything else as written."""
    inner = arg.value
    facts = ctx.current_facts
    if type(inner) is cst.Name and arg.keyword is None and not arg.star and facts is not None:
        resolved = resolved_record(facts, inner)
        if type(resolved) is cst.Dict:
            return resolved
    return inner


def module_text(name: cst.Name, ctx: FileContext) -> cst.BaseExpression | None:
    """The text a module-level constant holds (`_NOT_READY = "Error: ..."` assigned once at
    module level, to a string literal), where `name` is no parameter or local of the function
    being checked."""
    facts = ctx.current_facts
    if facts is not None and name.value in facts.local_names:
        return None
    return ctx.per_node("module_texts", ctx.module, lambda: _module_texts(ctx.module)).get(name.value)


def _statuses_read(items: dict[str, cst.BaseExpression], ctx: FileContext) -> dict[str, cst.BaseExpression]:
    """`items` with a status or state item that names a module's text constant (`"status":
    FAILED` with `FAILED = "failed"` at module level) read as the constant's text: the word the
    dict sends is the constant's."""
    out = items
    for key in ("status", *STATE_KEYS):
        value = items.get(key)
        constant = module_text(value, ctx) if type(value) is cst.Name else None
        if constant is not None:
            out = {**out, key: constant}
    return out


def module_dict(name: cst.Name, ctx: FileContext) -> cst.Dict | None:
    """The dict literal a module-level constant holds (`NEED_KEY = {"error": ..., "message":
    ...}` assigned once at module level and never changed in the module), where `name` is no
    parameter or local of the function being checked: a tool returning it by name sends that
    dict. A module dict the module writes into (`STATE["error"] = ...`, `STATE.update(...)`, a
    `global STATE`) is state, not a constant: its items at return time are unknown."""
    facts = ctx.current_facts
    if facts is not None and name.value in facts.local_names:
        return None
    return ctx.per_node("module_dicts", ctx.module, lambda: _module_dicts(ctx.module)).get(name.value)


def _module_dicts(module: cst.Module) -> dict[str, cst.Dict]:
    dicts = {name: value for name, value in _module_constants(module).items() if type(value) is cst.Dict}
    if not dicts:
        return {}
    for node in descendants(module):
        for changed in _changed_names(node):
            dicts.pop(changed, None)
    return dicts


# The container-writing methods of the effects table, and the dunders that write a dict's items.
_MUTATING_METHODS = CONTAINER_WRITES | {"__setitem__", "__delitem__", "__ior__"}


def _changed_names(node: cst.CSTNode) -> list[str]:
    """The names a statement or call may change the items of: `NAME[k] = v`, `NAME[k] += v`,
    `del NAME[k]`, `NAME |= {...}`, `NAME.update(...)`, `global NAME` (a function may rebind it)."""
    if type(node) is cst.Global:
        return [item.name.value for item in node.names]
    if type(node) is cst.Call and type(node.func) is cst.Attribute and type(node.func.value) is cst.Name:
        return [node.func.value.value] if node.func.attr.value in _MUTATING_METHODS else []
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif type(node) in (cst.AugAssign, cst.AnnAssign):
        targets = [node.target]  # type: ignore[union-attr]
    elif type(node) is cst.Del:
        targets = [node.target]
    else:
        return []
    out: list[str] = []
    for target in targets:
        if type(target) is cst.Subscript and type(target.value) is cst.Name:
            out.append(target.value.value)
        elif type(target) is cst.Name and type(node) is cst.AugAssign:
            out.append(target.value)
    return out


def _module_texts(module: cst.Module) -> dict[str, cst.BaseExpression]:
    """The module's names assigned once at its top level (`NAME = "..."`, `NAME: str = "..."`),
    each to a literal text, by name. A name assigned more than once is left out."""
    constants = _module_constants(module)
    return {
        name: value
        for name, value in constants.items()
        if type(value) in (cst.SimpleString, cst.ConcatenatedString) and literal_text(value) is not None
    }


def _module_constants(module: cst.Module) -> dict[str, cst.BaseExpression]:
    """The module's names assigned once at its top level, each to its value, by name."""
    found: dict[str, cst.BaseExpression] = {}
    seen: set[str] = set()
    for statement in module.body:
        if type(statement) is not cst.SimpleStatementLine:
            continue
        for small in statement.body:
            if type(small) is cst.Assign and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
            elif type(small) is cst.AnnAssign and small.value is not None:
                target, value = small.target, small.value
            else:
                continue
            if type(target) is not cst.Name:
                continue
            if target.value in seen:
                found.pop(target.value, None)
                continue
            seen.add(target.value)
            found[target.value] = value
    return found


def _dumped_model(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression:
    """The object a serialiser method dumps (`reply.model_dump_json()`, `reply.dict()`), as built
    (`reply = Reply(error=...)`): a failure packed in a result model says what that model says."""
    if not (type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in SERIALISERS):
        return value
    if any(a.keyword is None for a in value.args):
        return value  # `json(path)`, `dict(pairs)`: not a dump of the receiver
    inner = value.func.value
    facts = ctx.current_facts
    if type(inner) is cst.Name and facts is not None:
        built = facts.single_assignments.get(inner.value)
        if type(built) is cst.Call:
            return built
    return inner if type(inner) is cst.Call else value


def sent_value(facts: FunctionFacts, expr: cst.BaseExpression) -> cst.BaseExpression:
    """What a helper's return sends: the local it names resolved (`facts.value_of`) and, under a
    serializer, the local serialized (`payload = {"error": ...}; return json.dumps(payload)`
    says what `payload` says). A helper's returns are judged outside its own context, where
    `_unwrap` cannot resolve the helper's locals."""
    value = resolved_record(facts, expr)
    if type(value) is cst.Call and dotted(value.func) in _SERIALIZERS and value.args:
        first = value.args[0]
        if not first.star and first.keyword is None and type(first.value) is cst.Name:
            inner = resolved_record(facts, first.value)
            if inner is not first.value and (dotted(value.func) not in {"str", "repr"} or type(inner) is cst.Dict):
                return inner
    return value


# The items by which a dict literal states its outcome (`"success": False`, `"status": "error"`).
_OUTCOME_KEYS = frozenset((*SUCCESS_KEYS, "status", *STATE_KEYS))


def resolved_record(facts: FunctionFacts, expr: cst.BaseExpression) -> cst.BaseExpression:
    """`facts.value_of(expr)`, except for a record filled in on the way: `result = {"success":
    False, "error": None}`, then `result["success"] = True` on the path that succeeds. Its literal
    is the record's starting state, not what every return of it sends (a return that also serves
    the success path is no failure return, and raising there would fail every call)."""
    value = facts.value_of(expr)
    if type(value) is not cst.Dict or type(expr) is not cst.Name:
        return value
    items = _dict_items(value) or {}
    if any(key in items and not _is_falsy_literal(items[key]) for key in ERROR_KEYS):
        return value  # its error item states the failure, whatever else is stored later
    outcome_keys = _OUTCOME_KEYS & set(items)
    for node in descendants(facts.node):
        if type(node) is cst.Assign:
            for target in node.targets:
                sub = target.target
                if (
                    type(sub) is cst.Subscript
                    and type(sub.value) is cst.Name
                    and sub.value.value == expr.value
                    and len(sub.slice) == 1
                    and type(sub.slice[0].slice) is cst.Index
                    and type(sub.slice[0].slice.value) is cst.SimpleString
                    and literal_value(sub.slice[0].slice.value) in outcome_keys
                ):
                    return expr
    return value


def _says_it_failed(items: dict[str, cst.BaseExpression]) -> bool:
    """Does a dict state its failure by a literal beside its error item: a success flag written
    `False` (`"ok": False`) or a failure status word (`"status": "error"`)?"""
    if any(type(items.get(k)) is cst.Name and items[k].value == "False" for k in SUCCESS_KEYS):  # type: ignore[attr-defined]
        return True
    status = items.get("status")
    return type(status) is cst.SimpleString and str(status.evaluated_value).lower() in FAILED_STATUSES


_NOT_FOUND_CODES = frozenset({"not_found", "notfound"})  # of FAILED_STATUSES: the codes a sentence can also say


def _empty_answer_coded(items: dict[str, cst.BaseExpression], message: cst.BaseExpression | None, lookup: bool) -> bool:
    """`{"status": "not_found", "message": "No users found matching '{query}'"}` of a search: a
    not-found status code says what its sentence says, so it is read as the sentence is read (an
    empty answer of a search or a listing; a failure where one record is looked up by its key,
    `lookup`). Only where nothing else in the dict says it failed (no error key, no false flag)."""
    status = items.get("status")
    if type(status) is not cst.SimpleString or str(status.evaluated_value).lower() not in _NOT_FOUND_CODES:
        return False
    if any(key in items for key in ERROR_KEYS) or any(key in items for key in SUCCESS_KEYS):
        return False
    text = literal_text(message) if message is not None else None
    return text is not None and bool(EMPTY_RESULT.search(text.strip())) and not is_failure_text(text, lookup=lookup)


def _message_item(items: dict[str, cst.BaseExpression]) -> cst.BaseExpression | None:
    """The first message item that holds something: `"error": None` beside `"success": False`
    is a slot left empty, not the failure's words."""
    return next((items[k] for k in MESSAGE_KEYS if k in items and not _is_falsy_literal(items[k])), None)


def error_dict_message(items: dict[str, cst.BaseExpression]) -> tuple[str, cst.BaseExpression | None] | None:
    """(why it is an error dict, the message expression) or None."""
    for key in ERROR_KEYS:
        if key in items and not _is_falsy_literal(items[key]):
            inner = items[key]
            inner_items = _dict_items(inner) or {}
            if type(inner) is cst.Dict and {"code", "message"} <= set(inner_items):
                # A JSON-RPC error object: returned, it is still a normal result on the wire (that
                # it poses as a protocol error is MCP001's separate finding).
                return "a JSON-RPC error object", inner_items["message"]
            if _is_true(inner):
                # `{"error": True, "message": text}`: the key is a flag, the text is beside it.
                return f'an "{key}" key', next((items[k] for k in MESSAGE_KEYS if k != key and k in items), None)
            return f'an "{key}" key', text_beside_a_code(items, key) or inner
    flag = next((k for k in ("isError", "is_error") if _is_true(items.get(k))), None)
    if flag is not None:  # `{"isError": True, "content": [...]}`: a dict, not a CallToolResult
        return f'"{flag}": True', _message_item(items)
    success = next((items[k] for k in SUCCESS_KEYS if k in items), None)
    if type(success) is cst.Name and success.value == "False":
        message = _message_item(items)
        return '"success": False', message
    status = items.get("status")
    if type(status) is cst.SimpleString and str(status.evaluated_value).lower() in FAILED_STATUSES:
        message = _message_item(items)
        return f'"status": {status.value}', message
    for key in STATE_KEYS:
        # `{"state": "ERROR", "detail": reply}`: only the failure words; a job's state is often
        # a stage of its life ("timeout" while it is still being prepared), not the call's result.
        state = items.get(key)
        if type(state) is cst.SimpleString and str(state.evaluated_value).lower() in FAILURE_STATUS_WORDS:
            message = _message_item(items)
            return f'"{key}": {state.value}', message
    return None


# A machine code (`invalid_input`, `NOT_FOUND`, `auth.expired`): one token, no sentence.
_CODE = lazy_compile(r"[A-Za-z][A-Za-z0-9]*(?:[_\-.:/][A-Za-z0-9]+)*")
# Keys beside a code that hold the sentence written for the reader, in the order one is taken.
# Beside a short label ("Request timeout") only the message keys: a `details` there is more
# about the failure, kept after the label in parentheses (see MCP005's fix).
_SENTENCE_KEYS = ("message", "error_message", "errorMessage", "msg", "description")
_SENTENCE_KEYS_BESIDE_A_CODE = (*_SENTENCE_KEYS, "detail", "details", "reason")


def spelled_code(text: str) -> str | None:
    """"Not found" for the code `not_found` (or `NOT_FOUND`, `not-found`): a machine code of two
    words or more written as words; None for anything else (a word, a sentence)."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*(?:[_\-][A-Za-z0-9]+)+", text) or not (text.islower() or text.isupper()):
        return None
    words = re.split(r"[_\-]", text.lower())
    return " ".join(words)[0].upper() + " ".join(words)[1:]


def text_beside_a_code(items: dict[str, cst.BaseExpression], key: str) -> cst.BaseExpression | None:
    """`{"error": "agency_missing", "message": "agency is required. Pass it ..."}`: the value of
    `key` is a code, or a label of the failure's kind of at most four words ("Request timeout"),
    and the sentence written for the reader is under a message key beside it: that sentence
    (the code is for programs; raised, it would say nothing and drop the author's text). None when
    the value of `key` is text of its own, or nothing is beside it."""
    value = items.get(key)
    if value is not None and names_a_class(value):
        # `{"error": type(e).__name__, "message": str(e)}`: the class's name is a code as well.
        keys = _SENTENCE_KEYS_BESIDE_A_CODE
        return next((items[k] for k in keys if k != key and k in items and _sentence_like(items[k])), None)
    if type(value) is not cst.SimpleString or not isinstance(value.evaluated_value, str):
        return None
    text = value.evaluated_value.strip()
    if _CODE.fullmatch(text):
        keys = _SENTENCE_KEYS_BESIDE_A_CODE
    elif 0 < len(text.split()) <= 4 and not re.search(r"[.!?:;,{}]", text):
        keys = _SENTENCE_KEYS
    else:
        return None
    for other in keys:
        beside = items.get(other)
        if other != key and beside is not None and _sentence_like(beside):
            return beside
    return None


def names_a_class(node: cst.BaseExpression) -> bool:
    """`type(e).__name__`, `e.__class__.__name__`, `f"{type(e).__name__}"`, `str(type(e))`: the
    name of an object's class, a code for programs that says nothing of what failed."""
    if type(node) is cst.FormattedString:
        parts = [p for p in node.parts if not (type(p) is cst.FormattedStringText and not p.value.strip())]
        return len(parts) == 1 and type(parts[0]) is cst.FormattedStringExpression and names_a_class(parts[0].expression)
    if type(node) is cst.Call and dotted(node.func) in {"str", "repr"} and len(node.args) == 1:
        inner = node.args[0].value
        return _is_type_of(inner) or names_a_class(inner)
    if type(node) is cst.Attribute and node.attr.value in {"__name__", "__qualname__"}:
        return _is_type_of(node.value)
    return False


def _is_type_of(node: cst.BaseExpression) -> bool:
    """`type(x)` or `x.__class__`."""
    if type(node) is cst.Call:
        return dotted(node.func) == "type" and len(node.args) == 1
    return type(node) is cst.Attribute and node.attr.value == "__class__"


def _sentence_like(node: cst.BaseExpression) -> bool:
    """A value that can be text: a literal with words, an f-string, a concatenation, a local, a
    call (`str(e)`); not a flag, a number, a container or an empty literal."""
    if _is_falsy_literal(node) or type(node) in (cst.Integer, cst.Float, cst.Dict, cst.List, cst.Tuple, cst.Set):
        return False
    if type(node) is cst.Name and node.value in {"True", "False", "None"}:
        return False
    text = literal_text(node)
    return text is None or bool(text.strip())


def _one_of_labels(text: str, ctx: FileContext) -> bool:
    """`return "invalid"` in a function whose every return is one such word (`"critical"`,
    `"warning"`, `"ok"`): it classifies, and "invalid" is one of its labels, not a message."""
    facts = ctx.current_facts
    if facts is None or not text.isidentifier():
        return False
    values = [ret.node.value for ret in facts.returns]
    if len(values) < 3:
        return False
    return all(v is not None and type(v) is cst.SimpleString and (word := literal_text(v)) is not None and word.isidentifier() for v in values)


def _is_true(node: cst.BaseExpression | None) -> bool:
    return type(node) is cst.Name and node.value == "True"


def _local_function(call: cst.Call, ctx: FileContext) -> FunctionFacts | None:
    """The facts of a function of this module that `call` calls (`helper(...)`, `self.helper(...)`)."""
    name = dotted(call.func)
    if name is None:
        return None
    module = ctx.model.module
    candidates = [f"{module}.{name}" if module else name]
    facts = ctx.current_facts
    if name.startswith(("self.", "cls.")) and facts is not None and facts.class_name:
        candidates.append(f"{module}.{facts.class_name}.{name.split('.', 1)[1]}")
    elif facts is not None and "." not in name:
        # A function defined in the caller or in a function around it (`def err(e): ...` in the
        # dispatcher): the innermost definition of the name is the one called.
        # A class body's names are no scope of the functions in it.
        scope = facts.qualname
        while scope and scope != module:
            if scope not in ctx.model.classes:
                candidates.insert(-1, f"{scope}.{name}")
            scope = scope.rpartition(".")[0]
    return next((ctx.model.functions[c] for c in candidates if c in ctx.model.functions), None)


def _returns_error_results(call: cst.Call, ctx: FileContext) -> bool | None:
    """Does the project helper `call` calls build a real error result (isError=True) or raise?
    None when the helper is not in this module (unknown)."""
    helper = _local_function(call, ctx)
    if helper is None:
        return None
    return builds_error_results(helper, ctx)


def _sets_error_flag(call: cst.Call, ctx: FileContext) -> bool:
    is_result = _is_class(call.func, ctx, CALL_TOOL_RESULT_CLASSES, "CallToolResult") or _is_class(
        call.func, ctx, TOOL_RESULT_CLASSES, "ToolResult"
    )
    flag = _kwarg(call, "isError") or _kwarg(call, "is_error")
    return is_result and flag is not None and not _is_falsy_literal(flag)


def _is_class_name(func: cst.BaseExpression) -> bool:
    short = last_name(dotted(func) or "")
    return bool(short) and short[0].isupper()


def _names_a_function_or_class(name: str, ctx: FileContext) -> bool:
    """`_result(...)`, `Result(...)`, `responses.error(...)`, `self._fail(...)`; not a method of
    some object (`ci.set_status(build, status="failed")` sends the status, it reports nothing)."""
    root = name.split(".")[0]
    return "." not in name or root in {"self", "cls"} or root in ctx.model.aliases.aliases


def _envelope(call: cst.Call, ctx: FileContext, conditional: bool) -> tuple[str, str, cst.BaseExpression | None] | None:
    """`Result(success=False, ...)`, `_result(msg, error=True)`, `_serialize({"status": "error"})`,
    `_fail(msg)`: a failure packed into an object or a helper's result that is not an error result."""
    name = dotted(call.func) or ""
    if not name or name in {"dict", "str", "repr"} or not _names_a_function_or_class(name, ctx):
        return None
    kwargs = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    flag = next((k for k in ERROR_FLAG_KEYWORDS if _is_true(kwargs.get(k))), None)
    if flag is not None:
        found: tuple[str, cst.BaseExpression | None] | None = (f"{flag}=True", positional[0] if positional else None)
    else:
        found = error_dict_message(kwargs)
        if found is not None and not conditional and (found[1] is None or literal_text(found[1]) is None):
            found = None  # an envelope whose error slot may well be None (see classify_return)
    if found is None and positional and _dict_items(positional[0]) is not None:
        inner = error_dict_message(_dict_items(positional[0]) or {})
        if inner is not None and (conditional or (inner[1] is not None and literal_text(inner[1]) is not None)):
            found = inner  # `_serialize_tool_result({"status": "error", ...})`
    if found is None and is_error_builder_call(call, ctx):
        found = ("", builder_message(positional))  # `return _fail(msg)`
    if found is None or _returns_error_results(call, ctx):
        # A helper of this module that sets isError (or raises) is the right channel. One of
        # another module is judged by the linker (see `envelope_callee`).
        return None
    short = last_name(name)
    description = f"{short}(...) with {found[0]}" if found[0] else f"the error text {short}(...) builds"
    return "envelope", description, found[1]


def builder_message(positional: list[cst.BaseExpression]) -> cst.BaseExpression | None:
    """The message among an error builder's positional arguments: the first (`_fail(msg)`),
    unless it is a bare label, one token naming the kind of failure (`"TypeError"`,
    `"NOT_FOUND"`): then the first text after it that reads as words
    (`error_response("TypeError", f"Note {id} is not a list", "Use get_note()")`)."""
    if not positional:
        return None
    label = literal_text(positional[0])
    if label is not None and label.strip() and not any(character.isspace() for character in label.strip()):
        return next((value for value in positional[1:] if reads_as_words(value)), positional[0])
    return positional[0]


def builder_advice(call: cst.BaseExpression, message: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The texts an error builder's call passes after its message, in order
    (`error_response("TypeError", msg, "Use get_note() to read it")`): the author's advice,
    a sentence of its own for the model. Status words and values that are not words are not."""
    if type(call) is not cst.Call:
        return []
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    at = next((index for index, value in enumerate(positional) if value is message), None)
    if at is None:
        return []
    return [value for value in positional[at + 1 :] if reads_as_words(value) and not is_status_word(literal_text(value) or "")]


def reads_as_words(value: cst.BaseExpression) -> bool:
    """Text written here that reads as words (a space between them), not a code or a label."""
    return is_text(value) and " " in (literal_text(value) or "").strip()


def is_status_word(text: str) -> bool:
    """"failed", "error", "not_found": a status value a program reads, no message for a person."""
    return text.strip().lower() in FAILED_STATUSES


def message_argument(call: cst.Call, status: cst.BaseExpression) -> cst.BaseExpression | None:
    """The argument of a response builder's call that carries the message for a person, beside
    its status word (`status`): a keyword naming a message (`summary=`, `message=`, `detail=`),
    else the positional text argument that reads as a sentence (words and spaces), the longest
    when several do. None when no argument is such text."""
    for argument in call.args:
        if argument.keyword is not None and argument.keyword.value.lower() in _MESSAGE_ARGUMENTS and is_text(argument.value):
            return argument.value
    sentences = [
        argument.value
        for argument in call.args
        if argument.keyword is None and not argument.star and argument.value is not status and reads_as_words(argument.value)
    ]
    return max(sentences, key=lambda node: len(literal_text(node) or ""), default=None)


# Keyword arguments of a response builder that hold its message (beside MESSAGE_KEYS).
_MESSAGE_ARGUMENTS = frozenset({*MESSAGE_KEYS, "summary", "description", "text"})


def is_error_builder_name(name: str) -> bool:
    """`_fail`, `error_response`, `format_error`, `make_err`: named like a function that builds an error."""
    return bool(ERROR_BUILDER_NAME.search(name)) and not NOT_AN_ERROR_BUILDER_NAME.search(name)


def is_error_builder_call(call: cst.Call, ctx: FileContext) -> bool:
    """`return _fail(msg)`: a call to a function (not a class) named like an error builder. One of
    this module must build a failure we can see; one of another module is left to the linker."""
    if _is_class_name(call.func) or not is_error_builder_name(last_name(dotted(call.func) or "")):
        return False
    helper = _local_function(call, ctx)
    return helper is None or builds_failures(helper, ctx)


def passes_message_through(call: cst.Call, ctx: FileContext) -> bool:
    """Is the first argument of an error builder call the message itself (`_fail(msg)` with
    `def _fail(msg): return {"error": msg}`), rather than a value the helper writes its own
    message around (`_unknown_ref_error(token)` returning f"Unknown reference '{token}'...")?
    A helper of another module (unknown here) passes it through when that argument is text:
    `error_response(f"Item {item_id} not found")`, not `not_found_error(item_id)`, whose message
    the helper writes (a fix raising `ToolError(item_id)` would send a bare id)."""
    helper = _local_function(call, ctx)
    if helper is None:
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if not positional:
            return False
        first = positional[0]
        facts = ctx.current_facts
        if type(first) is cst.Name and facts is not None:
            first = facts.value_of(first)
        return is_text(first)
    params = [p for p in helper.params if p not in {"self", "cls"}]
    if not params:
        return False
    for ret in helper.returns:
        if ret.node.value is None:
            continue
        found = classify_return(sent_value(helper, ret.node.value), ctx, conditional=True)
        message = found[2] if found is not None else None
        if type(message) is cst.Name and message.value == params[0]:
            return True
        # `f"Error: {error}"`: the argument under a label the fix drops anyway.
        text = Message.read(message, lambda node: 0, ctx.code) if message is not None else None
        if text is not None:
            text.drop_error_prefix()
            sources = [p.source for part in text.parts for p in part.pieces if isinstance(p, Placeholder)]
            if sources == [params[0]] and text.words().strip(" :;,.-") == "{}":
                return True
    return False


def builder_returns_text(call: cst.Call, ctx: FileContext) -> bool:
    """Does the error builder `call` calls (a function of this module) return text on every
    path, so that `raise ToolError(builder(...))` raises its message? False when it returns a
    dict or an object (ToolError would carry its repr), or when it is not known here."""
    helper = _local_function(call, ctx)
    if helper is None:
        return False
    values = [helper.value_of(r.node.value) for r in helper.returns if r.node.value is not None]
    return bool(values) and all(is_text(value) for value in values)


def is_text(expr: cst.BaseExpression) -> bool:
    """Is `expr` message text written here: a string literal (not bytes), an f-string, an
    implicit concatenation, a `+` with one of them, or `"...".format(...)` of one?"""
    if type(expr) is cst.BinaryOperation and type(expr.operator) is cst.Add:
        return is_text(expr.left) or is_text(expr.right)
    if type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "format":
        return is_text(expr.func.value)
    return type(expr) in (cst.FormattedString, cst.ConcatenatedString) or (
        type(expr) is cst.SimpleString and "b" not in expr.prefix.lower()
    )


def hint_left_behind(items: Mapping[str, cst.BaseExpression] | None, raw: Callable[[cst.BaseExpression], bool] = lambda _: False) -> bool:
    """Does an error dict carry advice for the model that a raised message cannot keep: a hint
    key's value that is no text written here (`"context": e.context`, the project's exception's
    pointer for the next call, which may be None; `"suggestions": suggest(name)`), or a listing of
    what the next call may use (`"examples": format_examples()`)? A fix raising the message alone
    would drop it, so none is offered: the hint stays in the result. A value that is `raw` (the
    caught exception's own text) is no hint: a fix drops it on purpose."""
    if not items:
        return False
    for key, value in items.items():
        lowered = key.lower()
        if _is_falsy_literal(value) or raw(value):
            continue
        if lowered in LISTING_KEYS or (is_hint_key(key) and not hint_is_text(value)):
            return True
        if _points_at_data(key, value):
            return True
    return False


def hint_is_text(value: cst.BaseExpression) -> bool:
    """Advice a message can keep: text written here, or a list of such texts (`next_actions=
    ["Run check_health()", "Set API_KEY"]`), one sentence each."""
    if type(value) in (cst.List, cst.Tuple):
        return bool(value.elements) and all(type(el) is cst.Element and is_text(el.value) for el in value.elements)
    return is_text(value)


def builder_keywords(node: cst.BaseExpression) -> dict[str, cst.BaseExpression] | None:
    """The keyword arguments of a call building a result (`respond("failed", summary,
    next_actions=[...])`, `Reply(success=False, error=..., note=...)`): its named fields, as an
    error dict's items are. None for anything but a call."""
    if type(node) is not cst.Call:
        return None
    # (A dict literal, `context={"operation": "sync"}`, is a record for programs, not advice.)
    return {a.keyword.value: a.value for a in node.args if a.keyword is not None and type(a.value) is not cst.Dict}


def _points_at_data(key: str, value: cst.BaseExpression) -> bool:
    """`"duplicate_of": existing`, `"valid_ids": sorted(ids)`: an item naming what the next call
    should use (vocabulary.POINTER_KEY) whose value is data the code holds, not a number or text
    written here. (An id under a handle's key, `"existing_id": found.id`, is a value a message
    names: MCP005's fix keeps it beside the message.)"""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key).lower()
    if not POINTER_KEY.match(snake) or type(value) in (cst.Integer, cst.Float) or is_text(value):
        return False
    return not (snake.endswith("_id") and type(value) in (cst.Name, cst.Attribute, cst.Subscript))


def builds_failures(facts: FunctionFacts, ctx: FileContext) -> bool:
    """Does some return of this function build a failure (string, error dict, TextContent...)?"""
    memo = ctx.memo.setdefault("builds_failures", {})
    assert isinstance(memo, dict)
    if facts.qualname not in memo:
        memo[facts.qualname] = False  # a helper that calls itself builds nothing new
        # Meanwhile that False is provisional: what classify_return says now is not kept.
        ctx.memo[_PROVISIONAL] = int(ctx.memo.get(_PROVISIONAL, 0)) + 1  # type: ignore[call-overload]
        try:
            memo[facts.qualname] = any(
                r.node.value is not None and classify_return(sent_value(facts, r.node.value), ctx, conditional=True) is not None
                for r in facts.returns
            )
        finally:
            ctx.memo[_PROVISIONAL] = int(ctx.memo[_PROVISIONAL]) - 1  # type: ignore[call-overload]
    return bool(memo[facts.qualname])


_PROVISIONAL = "builds_failures open"


def envelope_callee(value: cst.BaseExpression, ctx: FileContext) -> str | None:
    """The qualified name of the helper an envelope is built by, when that helper is a function
    of another module: whether it builds a real error result is known only after linking."""
    value = _unwrap(value, ctx)
    if type(value) is not cst.Call or _is_class_name(value.func) or _local_function(value, ctx) is not None:
        return None
    name = dotted(value.func)
    if name is None or name.startswith(("self.", "cls.")):
        return None
    return ctx.model.aliases.resolve_dotted(name) or (f"{ctx.model.module}.{name}" if ctx.model.module else name)


def builds_error_results(facts: FunctionFacts, ctx: FileContext) -> bool:
    """Does this function return real error results (isError set) or only raise? A call to it is
    then the right channel, not a failure returned as a success."""
    returned = [facts.value_of(r.node.value) for r in facts.returns if r.node.value is not None]
    if not returned:
        return bool(facts.raises)
    return any(type(v) is cst.Call and (is_error_result(v, ctx) or _sets_error_flag(v, ctx)) for v in returned)


def _text_content(node: cst.BaseExpression, ctx: FileContext) -> cst.Call | None:
    if type(node) is cst.Call and _is_class(node.func, ctx, TEXT_CONTENT_CLASSES, "TextContent"):
        return node
    return None


def _plain_text_content(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """The text of a content block written as a dict (`{"type": "text", "text": ...}`)."""
    items = _dict_items(node)
    if items is None or "text" not in items or "type" not in items or literal_text(items["type"]) != "text":
        return None
    return items["text"]


def _content_failure(content: cst.Call, ctx: FileContext, conditional: bool, lookup: bool) -> tuple[str, str, cst.BaseExpression | None] | None:
    """A TextContent whose text reports a failure (or that carries an ignored error flag)."""
    message = _kwarg(content, "text")
    if message is None:
        message = next((a.value for a in content.args[1:2] if a.keyword is None), None)
    flagged = next((k for k in ERROR_FLAG_KEYWORDS if _is_true(_kwarg(content, k))), None)
    inner = literal_text(message) if message is not None else None
    if inner is not None and is_failure_text(inner, lookup=lookup) and (conditional or starts_as_error(inner)):
        return "content", inner, message
    if inner is None and message is not None:
        nested = classify_return(message, ctx, conditional=conditional, lookup=lookup)  # text=json.dumps({"error": ...})
        if nested is not None:
            return ("content-dict" if nested[0] == "dict" else "content"), nested[1], nested[2]
    if flagged is not None:
        return "content-flag", inner or "…", message
    return None


def failure_message_of(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression | None:
    """The message expression of a returned failure (string, error dict, TextContent list)."""
    found = classify_return(value, ctx, conditional=True)
    if found is None:
        return None
    return found[2]


Classified = Tuple[str, str, Optional[cst.BaseExpression]]  # evaluated at import: 3.9's spelling


def classify_return(value: cst.BaseExpression, ctx: FileContext, *, conditional: bool, lookup: bool = False) -> Classified | None:
    """(kind, description, message expression) when a returned value reports a failure.

    `conditional`: the return is reached only on some path (a branch, a handler, after an earlier
    return), so weaker wording counts. `lookup`: the function fetches one record by key, where
    "No X found" is a failure rather than an empty answer.

    Once per value and function being checked: MCP003, MCP004, MCP005 and the summary ask it of
    the same returns. (The function matters: `self.helper(...)` is looked up in its class. An
    entry keeps its value and function alive, so no other object can take their ids.)
    """
    memo = ctx.memo.get("classify_return")
    if memo is None:
        memo = ctx.memo["classify_return"] = {}
    assert isinstance(memo, dict)
    key = (id(value), id(ctx.current_facts), conditional, lookup)
    known = memo.get(key)
    if known is not None:
        return known[2]
    found = _classify_return(value, ctx, conditional, lookup)
    if not ctx.memo.get(_PROVISIONAL):
        memo[key] = (value, ctx.current_facts, found)
    return found


def _classify_return(value: cst.BaseExpression, ctx: FileContext, conditional: bool, lookup: bool) -> Classified | None:
    value = _unwrap(value, ctx)
    # A module's text constant says what its text says; the fix raises the constant.
    constant = module_text(value, ctx) if type(value) is cst.Name else None
    text = literal_text(constant if constant is not None else value)
    if text is not None:
        if is_failure_text(text, lookup=lookup) and (conditional or starts_as_error(text)) and not _one_of_labels(text, ctx):
            return "string", text, value
        return None
    # A module's dict constant says what its items say; no fix (its message lives at module level).
    shared = module_dict(value, ctx) if type(value) is cst.Name else None
    items = _dict_items(shared if shared is not None else value)
    if items is not None:
        found = error_dict_message(_statuses_read(items, ctx))
        if found is None or _empty_answer_coded(items, found[1], lookup):
            return None
        if shared is not None:
            found = (found[0], None)
        if not conditional and (found[1] is None or literal_text(found[1]) is None) and not _says_it_failed(items):
            # `return {"result": data, "error": err}` outside any failure branch is an envelope
            # whose error slot may well be None: not a failure we can see. Unless the dict says
            # so itself: `{"ok": False, "error": {"type": ..., "message": ...}}` built whole by a
            # refusal helper is a failure whatever calls it.
            return None
        return "dict", found[0], found[1]
    if type(value) in (cst.List, cst.Tuple) and len(value.elements) == 1:
        element = value.elements[0].value
        content = _text_content(element, ctx)
        if content is not None:
            return _content_failure(content, ctx, conditional, lookup)
        plain = _plain_text_content(_unwrap(element, ctx))
        if plain is not None:
            # `[{"type": "text", "text": "Error: ..."}]`: a content block written as a dict is
            # sent as a TextContent is.
            inner = literal_text(plain)
            if inner is not None and is_failure_text(inner, lookup=lookup) and (conditional or starts_as_error(inner)):
                return "content", inner, plain
            return None
        if conditional and _dict_items(_unwrap(element, ctx)) is not None:
            # `return [{"error": f"Sheet {name} not found"}]` in a failure branch: a list tool's
            # one row is the failure (a row among others is a partial result, not this shape).
            nested = _classify_return(element, ctx, conditional, lookup)
            return ("list-dict", nested[1], nested[2]) if nested is not None and nested[0] == "dict" else None
        return None
    content = _text_content(value, ctx)
    if content is not None:
        return _content_failure(content, ctx, conditional, lookup)
    if type(value) is cst.Call and not _is_class(value.func, ctx, CALL_TOOL_RESULT_CLASSES, "CallToolResult"):
        if _is_class(value.func, ctx, TOOL_RESULT_CLASSES, "ToolResult"):
            return None
        # `return format_text_response(f"Error: {msg}")`: an error text wrapped into a normal
        # result by a formatting helper. Only a strong prefix counts ("Error: ...", "Failed ...").
        first = next((a.value for a in value.args if a.keyword is None and not a.star), None)
        if first is None:
            first = _kwarg(value, "text") or _kwarg(value, "message") or _kwarg(value, "content")
        inner = literal_text(first) if first is not None else None
        if inner is not None and starts_as_error(inner):
            if is_status_word(inner):
                # `respond("failed", "Client not initialized. Check API_KEY.", steps)`: the
                # status is an enum value, the sentence beside it is the message (none: no fix).
                said = message_argument(value, first)
                return "string", (literal_text(said) if said is not None else None) or inner, said
            return "string", inner, first
        return _envelope(value, ctx, conditional)
    if type(value) is cst.Call and _is_class(value.func, ctx, CALL_TOOL_RESULT_CLASSES, "CallToolResult"):
        if _kwarg(value, "isError") is not None or _kwarg(value, "is_error") is not None:
            return None
        content = _kwarg(value, "content")
        if content is not None:
            inner = classify_return(content, ctx, conditional=conditional, lookup=lookup)
            if inner is not None:
                return "result", inner[1], inner[2]
    return None


def error_result_text(value: cst.BaseExpression, ctx: FileContext) -> cst.BaseExpression | None:
    """The text of an explicit error result: CallToolResult(isError=True) / ToolResult(is_error=True)."""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is not cst.Call:
        return None
    is_result = _is_class(value.func, ctx, CALL_TOOL_RESULT_CLASSES, "CallToolResult") or _is_class(
        value.func, ctx, TOOL_RESULT_CLASSES, "ToolResult"
    )
    flag = _kwarg(value, "isError") or _kwarg(value, "is_error")
    if not is_result or not (type(flag) is cst.Name and flag.value == "True"):
        return None
    content = _kwarg(value, "content")
    if type(content) in (cst.List, cst.Tuple) and len(content.elements) == 1:
        element = content.elements[0].value
        if type(element) is cst.Call and _is_class(element.func, ctx, TEXT_CONTENT_CLASSES, "TextContent"):
            return _kwarg(element, "text")
        return element if literal_text(element) is not None else None
    if content is not None and literal_text(content) is not None:
        return content
    return None


def is_error_result(value: cst.BaseExpression, ctx: FileContext) -> bool:
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is not cst.Call:
        return False
    flag = _kwarg(value, "isError") or _kwarg(value, "is_error")
    return type(flag) is cst.Name and flag.value == "True"


def _kwarg(call: cst.Call, name: str) -> cst.BaseExpression | None:
    for argument in call.args:
        if argument.keyword is not None and argument.keyword.value == name:
            return argument.value
    return None


def _is_class(func: cst.BaseExpression, ctx: FileContext, qualified: frozenset[str], short: str) -> bool:
    resolved = ctx.model.aliases.resolve(func)
    return resolved in qualified or last_name(dotted(func) or "") == short


def status_flags(facts: FunctionFacts, ctx: FileContext) -> tuple[tuple[int, int, str], ...]:
    """The status tuples a function returns (`return False, "Footnote 3 not found", None` on a
    failure, `return True, "Added", details` otherwise): (flag, text, failure text) for each
    element that is the literal False beside a failure text in some return and True in another,
    with the element holding that text ((0, 1, "Footnote … not found")). A caller that takes the
    text and never reads the flag returns the failure as a success (MCP005, after linking)."""
    failing: dict[tuple[int, int], str] = {}
    succeeding: set[int] = set()
    for ret in facts.returns:
        value = facts.value_of(ret.node.value) if ret.node.value is not None else None
        if type(value) is not cst.Tuple or len(value.elements) < 2:
            continue
        elements = [element.value for element in value.elements]
        for flag, element in enumerate(elements):
            if _is_true(element):
                succeeding.add(flag)
            elif type(element) is cst.Name and element.value == "False":
                for index, other in enumerate(elements):
                    found = classify_return(other, ctx, conditional=True) if index != flag else None
                    if found is not None and found[0] == "string":
                        failing.setdefault((flag, index), clip(" ".join(found[1].replace("{}", "…").split()), 60))
    return tuple((flag, index, text) for (flag, index), text in failing.items() if flag in succeeding)


def _block_before(root: cst.CSTNode, ret: cst.Return) -> list[cst.BaseStatement] | None:
    """The statements of the block holding `ret`'s line that come before it (None when `ret` is
    not on a line of its own block: a one-line `if x: return d`)."""
    for node in descendants(root):
        if type(node) is not cst.IndentedBlock:
            continue
        for index, statement in enumerate(node.body):
            if type(statement) is cst.SimpleStatementLine and any(small is ret for small in statement.body):
                return list(node.body[:index])
    return None


def _stored_key(target: cst.BaseAssignTargetExpression, local: str) -> str | None:
    """"error" for the target `local["error"]`; None for any other target."""
    if type(target) is not cst.Subscript or type(target.value) is not cst.Name or target.value.value != local:
        return None
    if len(target.slice) != 1 or type(target.slice[0].slice) is not cst.Index:
        return None
    key = target.slice[0].slice.value
    value = literal_value(key) if type(key) is cst.SimpleString else None
    return value if isinstance(value, str) else None


def stored_failure(fn: FunctionFacts, ret: cst.Return) -> str | None:
    """Why a returned local dict is a failure by the items written into it just before the
    return, in the return's own block (`result = {}` above; `except Timeout: result["error"] =
    "timed out"; return json.dumps(result)`): the local resolves to its one assignment, the empty
    dict, so what the clause stores is what it sends. None when nothing stored there makes it an
    error dict (the dict literal alone is judged as it is), or the local is rebound in between."""
    value = ret.value
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is cst.Call and dotted(value.func) in _SERIALIZERS and value.args and dotted(value.func) not in {"str", "repr"}:
        first = value.args[0]
        value = first.value if first.keyword is None and not first.star else value
    if type(value) is not cst.Name:
        return None
    base = _dict_items(fn.value_of(value))
    if base is None or error_dict_message(base) is not None:
        return None
    before = _block_before(fn.node, ret)
    if not before:
        return None
    stored: dict[str, cst.BaseExpression] = {}
    for statement in before:
        if type(statement) is not cst.SimpleStatementLine:
            if any(value.value in _changed_names(node) for node in descendants(statement)):
                stored = {}  # a compound statement that may fill it: read only what follows
            continue
        for small in statement.body:
            if type(small) is cst.Assign and len(small.targets) == 1:
                target = small.targets[0].target
                key = _stored_key(target, value.value)
                if key is not None:
                    stored[key] = small.value
                elif type(target) is cst.Name and target.value == value.value:
                    return None  # rebound here: `_unwrap` reads that value
    if not stored:
        return None
    found = error_dict_message({**base, **stored})
    if found is None or not any(key in stored for key in (*ERROR_KEYS, *SUCCESS_KEYS, "status")):
        return None
    return found[0]
