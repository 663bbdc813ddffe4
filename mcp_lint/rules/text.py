"""Classifying the author-written text of messages: failure strings, boilerplate, retry invitations."""

from __future__ import annotations

import re

# A returned string that starts like this reports a failure.
_FAILURE_START = re.compile(
    r"""^\W*(?:\[?(?:error|err|exception)\]?(?=\s*(?:[:!.,;(\-–—]|$|(?:occurred|while|when|during|in|with|for|on|from|calling|executing|\w+ing)\b))
        |\[?(?:failure|failed|fail)\]?\b
        |(?:could\s*n[o']t|couldn't|cannot|can't|unable\s+to|failed\s+to|did\s+not\s+succeed)\b
        |(?:an?\s+)?(?:unexpected\s+|internal\s+|unknown\s+)(?:error|exception)\b|an?\s+(?:error|exception)\s+(?:occurred|happened|was)\b
        |invalid\b|no\s+such\b|not\s+found\b|permission\s+denied\b|access\s+denied\b
        |forbidden\b|unauthori[sz]ed\b|oops\b|something\s+went\s+wrong\b
        |operation\s+failed\b|request\s+failed\b)""",
    re.IGNORECASE | re.VERBOSE,
)
# ...or says this anywhere in a short message.
_FAILURE_ANYWHERE = re.compile(
    r"\b(?:not\s+found|does\s+not\s+exist|doesn't\s+exist|is\s+required|are\s+required|failed\s+to|could\s+not|unable\s+to)\b",
    re.IGNORECASE,
)
# "No results found" / "No notes found" are empty results, not failures.
_EMPTY_RESULT = re.compile(
    r"^\W*(?:no\s+(?:\w+\s+){0,3}(?:found|available|matched|matching)\b"
    r"|(?:could\s*n[o']t|unable\s+to|did\s*n[o']t)\s+find\s+any\b)",
    re.IGNORECASE,
)


def is_failure_text(text: str) -> bool:
    stripped = text.strip()
    if not stripped or _EMPTY_RESULT.search(stripped):
        return False
    if _FAILURE_START.search(stripped):
        return True
    return len(stripped) <= 200 and bool(_FAILURE_ANYWHERE.search(stripped))


def starts_as_error(text: str) -> bool:
    """Strong prefix ("Error: ...", "Failed to ..."): a failure even outside a branch."""
    return bool(re.match(r"^\W*\[?(?:error\s*[:!\-]|error\]|failed\b|failure\s*:)", text.strip(), re.IGNORECASE))


# Words that carry no information about what failed.
_FILLER = {
    "a", "an", "the", "please", "sorry", "error", "errors", "occurred", "occured", "has", "have", "had",
    "went", "wrong", "something", "unexpected", "unknown", "internal", "operation", "request", "failed",
    "failure", "fail", "try", "again", "later", "retry", "while", "processing", "your", "this", "it",
    "an", "of", "was", "is", "there", "we", "encountered", "issue", "problem", "oops", "unable", "to",
    "complete", "process", "could", "not", "be", "completed", "processed", "in", "on", "at", "some",
    "kindly", "now", "moment", "after", "action", "task", "did", "succeed", "exception", "general",
    "server", "tool", "call", "execute", "execution", "executing", "with", "due", "my", "i", "me",
    "and", "or", "then", "for", "that", "an", "any", "seems", "like", "looks", "something's", "again.",
    "invalid", "input", "bad", "parameter", "parameters", "params", "argument", "arguments", "args",
    "value", "values", "data", "provided", "given", "received", "missing", "required", "empty",
}
# An invitation to call again ("please retry", "try again later"), not the word in "Retry count".
_RETRY = re.compile(
    r"\b(?:try\s+again|try\s+later|try\s+once\s+more|retry\s+(?:later|again|the\s+\w+|this|it|in\b|after\b|shortly|soon)"
    r"|(?:please|you\s+(?:can|may|should|could)|then|and|or)\s+re-?try\b|re-?try\s*[.!]?\s*$)",
    re.IGNORECASE,
)
_TRANSIENT = re.compile(
    r"\b(?:rate[\s-]?limit\w*|429|too\s+many\s+requests|time[sd]?\s*out|timed\s+out|timeout|503|502|504|"
    r"temporar\w+|unavailable|overloaded|busy|lock(?:ed)?|quota|throttl\w+|maintenance|retry-after|"
    r"in\s+\d+\s*(?:s|sec\w*|min\w*)|seconds?|minutes?|network|connection|upstream)\b",
    re.IGNORECASE,
)


def vague_reason(text: str) -> str | None:
    """Why a failure message is vague, or None when it names something to act on.

    `text` has placeholders as "{}". A message whose only substance is a placeholder is not
    judged here (that is raw exception text or a plain value, MCP002's business).
    """
    words = re.findall(r"[A-Za-z{}][\w'{}-]*", text.lower())
    if not words:
        return None
    substance = [w for w in words if w not in _FILLER]
    if not substance:
        return "generic"
    if _RETRY.search(text) and not _TRANSIENT.search(text):
        return "retry"
    return None


def clip(text: str, limit: int) -> str:
    """`text` as a message quotes it: whole when it fits in `limit` characters, else cut at a
    word boundary where one is near and marked with an ellipsis, so a quoted literal that was
    cut short never reads as the literal itself."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 2 // 3:
        cut = cut[:space]
    return cut.rstrip() + "…"
