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

    def holds(self, report: dict[str, Any]) -> bool:
        return self.check(report)


def _template(template: str) -> Callable[[dict[str, Any]], bool]:
    """'Error calling tool 'x': <message>' -> the result is an error whose text fits the template."""
    pattern = re.escape(template).replace(re.escape("<message>"), ".+").replace(re.escape("…"), ".*")
    return lambda report: is_result(report, True) and re.fullmatch(pattern, text_of(report), re.S) is not None


def _exact(text: str) -> Callable[[dict[str, Any]], bool]:
    return lambda report: is_result(report, True) and text_of(report) == text


_CRASH = re.compile(r"TypeError|argument|keyword", re.I)

# (pattern over the message, check builder taking the match). Checked in order; all that match count.
PHRASES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Callable[[dict[str, Any]], bool]]], ...] = (
    # "the wire says isError: false" / "a normal result (isError: false)": a successful result.
    (re.compile(r"isError: false"), lambda m: lambda r: is_result(r, False)),
    # "the client gets a JSON-RPC error and the model never sees it": an error response, no result.
    (re.compile(r"(?:gets|receives|becomes|sends) (?:a|an) JSON-RPC error(?:[^.;]*?model never sees it)?|model never sees it"), lambda m: is_protocol_error),
    # "it is wrapped into 'Error calling tool 'x': <message>'" / "the model gets 'Error executing tool x: <message>'".
    (re.compile(r"(?:into|gets|sees|receives|reads) '(?P<template>[^\n]*?<message>)'"), lambda m: _template(m.group("template"))),
    # "the model sees only 'Error executing tool x'" (masked text).
    (re.compile(r"sees only '(?P<text>.+?)'(?=[\s,;:.)]|$)"), lambda m: _exact(m.group("text"))),
    # "arrives as plain tool-result text": the message verbatim, as an error result.
    (re.compile(r"plain tool-result text"), lambda m: lambda r: is_result(r, True)),
    # "raises TypeError, so the tool crashes": an error result about the bad call, not the message.
    (re.compile(r"TypeError"), lambda m: lambda r: is_result(r, True) and _CRASH.search(text_of(r)) is not None),
)


def claims(message: str) -> list[Claim]:
    """The checkable statements of a finding's message about what the client receives."""
    found = []
    for pattern, build in PHRASES:
        for match in pattern.finditer(message):
            found.append(Claim(match.group(0), build(match)))
    return found
