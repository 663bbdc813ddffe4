"""Classifying the author-written text of messages: failure strings, boilerplate, retry invitations.

The words each judgement reads are classes of `mcp_lint.vocabulary`; this module combines them."""

from __future__ import annotations

import re

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.vocabulary import (
    ABSENCE_WORDS,
    ALREADY_DONE,
    ARGUMENT_COMPLAINT,
    ARGUMENT_REQUEST,
    CHANGED_CALL,
    CORRECTED_RETRY,
    CORRECTIVE_STEP,
    EMPTY_OF_MANY,
    EMPTY_RESULT,
    FAILURE_ANYWHERE,
    FAILURE_IN_OTHER_LANGUAGES,
    UNMET_NEED_WORDING,
    FAILURE_MARK,
    FAILURE_OPENING,
    FALLBACK_DONE,
    FILLER_WORDS,
    KEY_PARAMETER,
    LISTING_NAME,
    LOOKUP_NAME,
    NOT_ARGUMENTS,
    REFUSAL_WORDING,
    REJECTION_WORDING,
    RETRY_INVITATION,
    STRONG_FAILURE_OPENING,
    SUCCESS_MARK,
    TRANSIENT_CONDITION,
)


def is_failure_text(text: str, *, lookup: bool = False) -> bool:
    """Does a returned message report a failure?

    `lookup`: the function fetches one record by key or id, where "No note found" is a failure
    the model must see, not the empty answer of a search or a listing.
    """
    stripped = text.strip()
    if lookup and EMPTY_OF_MANY.match(stripped):
        lookup = False  # "No time entries found for ticket 7": a listing under the key came back empty
    if not stripped or SUCCESS_MARK.match(stripped):
        return False  # "✅ Saved, but the preview could not be built": the author reports it done
    if FAILURE_MARK.match(stripped) and "\n" not in stripped:
        return True  # "❌ Removed nobody": the author's own mark; several lines are a report of checks
    if not lookup and EMPTY_RESULT.search(stripped):
        return False
    if (FAILURE_OPENING.search(stripped) and not _QUALIFIED_VALUE.match(stripped)) or (lookup and EMPTY_RESULT.search(stripped)):
        return True
    if FALLBACK_DONE.search(stripped):
        return False  # "Style 'x' not found, paragraph added with the default style": it worked
    if len(stripped) > 200:
        return False
    if REJECTION_WORDING.match(stripped) or ARGUMENT_REQUEST.search(stripped):
        return True  # "No ids provided", "Specify the shop id": the call lacked what it needs
    if REFUSAL_WORDING.search(stripped) and not ALREADY_DONE.search(stripped):
        return True  # "... — refusing to remove all rows": a no-op that reached its goal is none
    if FAILURE_ANYWHERE.search(stripped) or FAILURE_IN_OTHER_LANGUAGES.search(stripped):
        return True
    return any(words.search(stripped) for words in UNMET_NEED_WORDING)


# A value with a note in parentheses (`f"{amount} (unknown currency)"`, `f"{name} (unsupported
# format)"`): the words after the value describe it, they do not open the message; only a failure
# said anywhere in it ("{} (not found)") makes it one.
_QUALIFIED_VALUE = lazy_compile(r"^\{\}\s*\(")


def starts_as_error(text: str) -> bool:
    """Strong prefix ("Error: ...", "Failed to ...", "Fehler: ...", "<error>"): a failure even outside a branch."""
    return bool(STRONG_FAILURE_OPENING.match(text.strip()))


def is_single_lookup(function: str, params: tuple[str, ...]) -> bool:
    """`get_note(note_id)`, `delete_file(path)`: one record by key, not a search or a listing."""
    if LISTING_NAME.search(function) or not LOOKUP_NAME.search(function):
        return False
    return any(KEY_PARAMETER.search(p) for p in params if p not in NOT_ARGUMENTS)


def vague_reason(text: str) -> str | None:
    """Why a failure message is vague, or None when it names something to act on.

    `text` has placeholders as "{}". A message whose only substance is a placeholder is not
    judged here (that is raw exception text or a plain value, MCP002's business).
    """
    words = re.findall(r"[A-Za-z{}][\w'{}-]*", text.lower())
    if not words:
        return None
    substance = [w for w in words if w not in FILLER_WORDS]
    if not substance and not any(w in ABSENCE_WORDS for w in words):
        # "Something went wrong", "Invalid input". Not "Missing arguments": it names the
        # condition (nothing was sent), which the model can act on.
        return "generic"
    if (
        not TRANSIENT_CONDITION.search(text)
        and any(not CHANGED_CALL.match(text, m.end()) for m in RETRY_INVITATION.finditer(text))
        and not _names_a_correction(text)
        and not CORRECTED_RETRY.search(text)
    ):
        return "retry"
    return None


def _names_a_correction(text: str) -> bool:
    return any(m.group("what").lower() not in FILLER_WORDS for m in CORRECTIVE_STEP.finditer(text))


def is_argument_complaint(text: str) -> bool:
    """"Invalid id", "x is required": a complaint about what the caller sent. Also as a machine
    code of snake_case words (`"items_must_be_nonempty_list"`, `"query_invalid"`): its words say it."""
    if ARGUMENT_COMPLAINT.search(text):
        return True
    if REJECTION_WORDING.match(text):
        # "No ids provided", "No fields to update": the absence of what the call needs is a
        # complaint about what the caller sent too (a status-named tool refusing it fails the call).
        return True
    code = text.strip()
    return bool(_SNAKE_CODE.fullmatch(code)) and bool(ARGUMENT_COMPLAINT.search(code.replace("_", " ")))


_SNAKE_CODE = lazy_compile(r"[a-z0-9]+(?:_[a-z0-9]+)+")


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
