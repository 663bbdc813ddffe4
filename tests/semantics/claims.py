"""What a finding's message claims about the wire, as checks on what the client really received.

A message of MCP001/MCP005-MCP009 states what the client gets on the resolved version ("the wire
says isError: false", "the client gets a JSON-RPC error", "wrapped into 'Error calling tool 'x':
<message>'"). Each phrase below is turned into a check of the call's report (runner.py). A rule
whose message says something new about the wire adds its phrase here; a message with no
recognised phrase fails the suite, so no claim goes unproven.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable


def text_of(report: dict[str, Any]) -> str:
    """What a reader of the response sees: the result's text blocks, or the error's message."""
    if "result" in report:
        blocks = report["result"].get("content") or []
        return "\n".join(b.get("text", "") for b in blocks if isinstance(b, dict))
    if "error" in report:
        return str(report["error"].get("message", ""))
    return ""


def is_result(report: dict[str, Any], is_error: bool) -> bool:
    return "result" in report and bool(report["result"].get("isError")) is is_error


def is_protocol_error(report: dict[str, Any]) -> bool:
    return "error" in report


@dataclass(frozen=True)
class Claim:
    """One statement of a message and how to check it on a report."""

    phrase: str  # the words of the message it stands for
    check: Callable[[dict[str, Any]], bool]
    kind: str = "all"  # "case": one alternative among the message's other "case" claims

    def holds(self, report: dict[str, Any]) -> bool:
        return self.check(report)


def failed(stated: list[Claim], report: dict[str, Any]) -> list[Claim]:
    """The claims the report contradicts: each "all" claim that does not hold, and the "case"
    claims when none of them holds."""
    wrong = [c for c in stated if c.kind == "all" and not c.holds(report)]
    cases = [c for c in stated if c.kind == "case"]
    if cases and not any(c.holds(report) for c in cases):
        wrong.extend(cases)
    return wrong


_SLOT = re.compile(r"<[a-z ]+>|\.\.\.|…")


def _template(template: str) -> Callable[[dict[str, Any]], bool]:
    """'Error calling tool 'x': <message>' -> the result is an error whose text starts like the
    template; a slot (`<message>`, `<exception text>`, `...`, `…`) stands for any text."""
    parts = _SLOT.split(template)
    pattern = ".*".join(re.escape(part) for part in parts)
    return lambda report: is_result(report, True) and re.match(pattern, text_of(report), re.S) is not None


def _exact(text: str) -> Callable[[dict[str, Any]], bool]:
    return lambda report: is_result(report, True) and text_of(report) == text


_CRASH = re.compile(r"TypeError|argument|keyword", re.I)
# A quoted text ends at a quote followed by a space, punctuation or the end of the message (a
# quote inside, as in 'Error calling tool 'x': ...', does not end it).
_END = r"(?=[\s,;:.)]|$)"

# (pattern over the message, check builder taking the match, kind). All that match count; claims
# of kind "case" are alternatives (a message may list what each exception class becomes: one of
# them must hold for the call), the others must all hold.
PHRASES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Callable[[dict[str, Any]], bool]], str], ...] = (
    # "the wire says isError: false" / "a normal result (isError: false)": a successful result.
    (re.compile(r"isError: false"), lambda m: lambda r: is_result(r, False), "all"),
    # "the client gets a JSON-RPC error and the model never sees it": an error response, no result.
    (re.compile(r"(?:gets|receives|becomes|sends) (?:a|an) JSON-RPC error(?:[^.;]*?model never sees it)?|model never sees it"), lambda m: is_protocol_error, "all"),
    # "wrapped into 'Error calling tool 'x': <message>'", "the model gets 'Error executing tool x:
    # 1 validation error ...'", "reaches it as 'Error calling tool 'x': <exception text>'".
    (re.compile(r"(?:into|gets|sees|receives|reads|as) '(?P<template>[^\n]*?(?:<[a-z ]+>|\.\.\.|…)[^'\n]*)'" + _END), lambda m: _template(m.group("template")), "case"),
    # "the model sees only 'Error executing tool x'" / receives only "Error calling tool 'x'" (masked text).
    (re.compile(r"(?:sees|receives|gets) only (?P<q>['\"])(?P<text>.+?)(?P=q)" + _END), lambda m: _exact(m.group("text")), "all"),
    # MCP008's note: "only ToolError's text reaches the model: it receives "Error executing tool x"".
    (re.compile(r"only ToolError's text reaches the model: it receives (?P<q>['\"])(?P<text>.+?)(?P=q)" + _END), lambda m: _exact(m.group("text")), "all"),
    # "arrives as plain tool-result text": the message verbatim, as an error result.
    (re.compile(r"plain tool-result text"), lambda m: lambda r: is_result(r, True), "all"),
    # "raises TypeError, so the tool crashes": an error result about the bad call, not the message.
    (re.compile(r"TypeError"), lambda m: lambda r: is_result(r, True) and _CRASH.search(text_of(r)) is not None, "all"),
)


def claims(message: str) -> list[Claim]:
    """The checkable statements of a finding's message about what the client receives."""
    found = []
    for pattern, build, kind in PHRASES:
        for match in pattern.finditer(message):
            found.append(Claim(match.group(0), build(match), kind))
    return found
