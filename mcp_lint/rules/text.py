"""Classifying the author-written text of messages: failure strings, boilerplate, retry invitations."""

from __future__ import annotations

import re

# Failure words of other languages than English (Chinese, Japanese, Spanish, German, French,
# Portuguese): servers answer in their users' language, and so do their failure messages.
_FOREIGN_ERROR_WORDS = r"(?:错误|錯誤|エラー|失败|失敗|erreur|fehler|erro)"
_FOREIGN_FAILURE = re.compile(
    r"(?:错误|錯誤|失败|失敗|未找到|找不到|不存在|无法|無法|エラー|見つかりません|存在しません|できません"
    r"|\b(?:falló|fallo|no\s+encontrad[oa]|no\s+existe|no\s+se\s+pudo|no\s+es\s+válid[oa]"
    r"|fehler|fehlgeschlagen|nicht\s+gefunden|existiert\s+nicht|konnte\s+nicht|ungültig"
    r"|erreur|échec|échoué|introuvable|n'existe\s+pas|impossible\s+de|invalide"
    r"|erro|falhou|falha|não\s+encontrad[oa]|não\s+existe|não\s+foi\s+possível|inválid[oa])\b)",
    re.IGNORECASE,
)
# "timed out", except a member put in time-out ("user timed out for {} minutes", "... until {}"):
# a moderation action done, not a call that ran out of time.
_TIMED_OUT = r"timed\s+out\b(?!\s+(?:until\b|for\s+(?:\{\}|\d+|an?|one)\s*(?:sec|min|hour|day|week|h\b|m\b|s\b|d\b)))"
# A returned string that starts like this reports a failure.
_FAILURE_START = re.compile(
    r"""^\W*(?:\[?(?:error|err|exception)\]?(?:\*\*|__)?(?=\s*(?:[:!.,;(\-–—]|$|(?:occurred|while|when|during|in|with|for|on|from|calling|executing|\w+ing)\b))
        |\[?(?:failure|failed|fail)\]?\b
        |(?:could\s*n[o']t|couldn't|cannot|can't|unable\s+to|failed\s+to|did\s+not\s+succeed)\b
        |(?:an?\s+)?(?:unexpected\s+|internal\s+|unknown\s+)(?:error|exception)\b|an?\s+(?:error|exception)\s+(?:occurred|happened|was)\b
        |invalid\b|no\s+such\b|not\s+found\b|permission\s+denied\b|access\s+denied\b
        |forbidden\b|unauthori[sz]ed\b|oops\b|something\s+went\s+wrong\b
        |operation\s+failed\b|request\s+failed\b
        |unknown\s+\w+|unsupported\b|not\s+supported\b|not\s+permitted\b|not\s+allowed\b
        |(?:i\s+|we\s+)?encountered\s+an?\s+(?:error|exception|problem)\b
        |<error>
        # "<Lib> error: ...": "Database error: ...", "HTTP error 404", "Document processing error:"
        |(?!(?:standard|squared|absolute|relative|mean|rounding|margin|typical|measurement)\b)(?:[\w.'-]+\s+){1,3}(?<!standard\s)(?<!squared\s)(?<!absolute\s)(?<!relative\s)(?<!rounding\s)(?:error|exception)\s*(?:[:!\-–—(]|\d)
        # "<Op> failed: ...": "Upload failed: ...", "Fetching page 2 failed."
        |(?:[\w.'{}-]+\s+){1,4}(?:failed\b|"""
    + _TIMED_OUT
    + r"))",
    re.IGNORECASE | re.VERBOSE,
)
# ...or says this anywhere in a short message.
_FAILURE_ANYWHERE = re.compile(
    r"\b(?:not\s+found|does\s+not\s+exist|doesn't\s+exist|is\s+required|are\s+required|failed\s+to|could\s+not|unable\s+to"
    r"|already\s+exists?|not\s+permitted|not\s+allowed|not\s+supported|is\s+not\s+supported|"
    + _TIMED_OUT
    + r"|(?<!\d\s)failed\s*(?:[:;!]|\.?$|\s+(?:with|because|due))|must\s+(?:be|not|have|contain|match|start|end)\b"
    r"|cannot\s+be\s+(?:empty|blank|null|none|negative|zero)|(?:is|are)\s+(?:invalid|not\s+valid)"
    # A refusal that names what is accepted instead: "Only SELECT statements are allowed", "Tool x
    # is excluded from this connection", "Notebook 'a' is not connected".
    r"|only\s+(?:[\w'\"`.-]+\s+){1,4}(?:is|are)\s+(?:supported|allowed|permitted|accepted)"
    r"|(?:is|are)\s+excluded\s+from|(?:is|are)\s+not\s+(?:connected|enabled|configured|installed)"
    r"|(?:is|are)\s+out\s+of\s+(?:range|bounds))",
    re.IGNORECASE,
)
# A message that reports the call done another way: the missing piece was replaced.
_FALLBACK = re.compile(
    r"\b(?:using|used|with|applied|fell\s+back\s+to|falling\s+back\s+to)\s+(?:the\s+)?default\b",
    re.IGNORECASE,
)
# "No results found" / "No notes found" are empty results, not failures (for a search or a listing),
# in each language whose failure words are known: "found none" / "no matching ..." / "no results",
# never "<the named record> not found" (a lookup's miss, a failure in every language).
_EMPTY_RESULT = re.compile(
    r"^\W*(?:no\s+(?:\w+\s+){0,3}(?:found|available|matched|matching)\b"
    r"|(?:could\s*n[o']t|unable\s+to|did\s*n[o']t)\s+find\s+any\b"
    # Chinese: "found no ... containing / matching / any ...", "no results / data yet"
    r"|(?:未能?|没有|沒有|找不到)(?:找到|查到|搜索到|搜尋到|检索到|查询到|查詢到)?\s*(?:任何|相关|相關|匹配|符合|包含|满足|滿足)"
    r"|(?:暂无|暫無|没有|沒有|无|無)(?:任何|相关|相關|匹配的?)?(?:结果|結果|数据|數據|记录|記錄)"
    # Japanese: "no matching ... was found", "there are no search results"
    r"|(?:該当|一致|条件に一致|検索結果|結果)[^。]{0,20}?(?:見つかりません|ありません)"
    # Spanish, German, French, Portuguese: "none found", "no results"
    r"|no\s+se\s+encontr(?:aron|ó\s+ning[uú]n[oa]?)\b|no\s+hay\s+(?:\S+\s+){0,4}?(?:resultados|registros|datos|elementos|coincidencias)\b"
    r"|ning[uú]n[oa]?\s+(?:\S+\s+){0,4}?(?:encontrad[oa]s?|disponibles?)\b|sin\s+resultados\b"
    r"|keine?\s+(?:\S+\s+){0,4}?(?:gefunden|vorhanden|verfügbar)\b|keine\s+(?:ergebnisse|treffer|einträge)\b"
    r"|aucun(?:e|s|es)?\s+(?:\S+\s+){0,4}?(?:trouvée?s?|disponibles?|correspondante?s?)(?!\w)|aucun\s+résultat"
    r"|nenhuma?\s+(?:\S+\s+){0,4}?(?:encontrad[oa]s?|disponíve(?:l|is))(?!\w)|sem\s+resultados\b)",
    re.IGNORECASE,
)


def is_failure_text(text: str, *, lookup: bool = False) -> bool:
    """Does a returned message report a failure?

    `lookup`: the function fetches one record by key or id, where "No note found" is a failure
    the model must see, not the empty answer of a search or a listing.
    """
    stripped = text.strip()
    if not stripped or (not lookup and _EMPTY_RESULT.search(stripped)):
        return False
    if _FAILURE_START.search(stripped) or (lookup and _EMPTY_RESULT.search(stripped)):
        return True
    if _FALLBACK.search(stripped):
        return False  # "Style 'x' not found, paragraph added with the default style": it worked
    return len(stripped) <= 200 and bool(_FAILURE_ANYWHERE.search(stripped) or _FOREIGN_FAILURE.search(stripped))


def starts_as_error(text: str) -> bool:
    """Strong prefix ("Error: ...", "Failed to ...", "Fehler: ...", "<error>"): a failure even outside a branch."""
    return bool(
        re.match(
            rf"^\W*\[?(?:error(?:\*\*|__)?\s*[:!\-]|error\]|failed\b|failure\s*:|{_FOREIGN_ERROR_WORDS}\s*[:：!\-]|échec\b|<error>)",
            text.strip(),
            re.IGNORECASE,
        )
    )


# Names of functions that fetch one record by key (a miss is a failure) and of those that search
# or list (an empty answer is a result).
_LOOKUP_NAME = re.compile(r"^_*(?:get|read|fetch|load|open|show|describe|delete|remove|update|edit|rename|set|close|cancel|download|retrieve)(?:_|$)", re.I)
_LISTING_NAME = re.compile(r"(?:^|_)(?:search|list|find|query|browse|lookup|filter|scan|recent|all|many|matching|suggest)(?:_|$)|s$", re.I)
_KEY_PARAM = re.compile(r"(?:^|_)(?:id|key|uuid|slug|name|path|filename|file|url|uri|number|ref|code)$", re.I)


def is_single_lookup(function: str, params: tuple[str, ...]) -> bool:
    """`get_note(note_id)`, `delete_file(path)`: one record by key, not a search or a listing."""
    if _LISTING_NAME.search(function) or not _LOOKUP_NAME.search(function):
        return False
    return any(_KEY_PARAM.search(p) for p in params if p not in {"self", "cls", "ctx", "context"})


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
# Words that name a condition of the call itself: something the model had to send is absent.
_ABSENCE_WORDS = frozenset({"missing", "required", "empty"})
# An invitation to call again ("please retry", "try again later"), not the word in "Retry count".
_RETRY = re.compile(
    r"\b(?:try\s+again|try\s+later|try\s+once\s+more|retry\s+(?:later|again|the\s+\w+|this|it|in\b|after\b|shortly|soon)"
    r"|(?:please|you\s+(?:can|may|should|could)|then|and|or)\s+re-?try\b|re-?try\s*[.!]?\s*$)",
    re.IGNORECASE,
)
# "try again with a comma-separated list of valid types": the retry says what the next call
# changes, so it does not invite the same call again.
_CHANGED_CALL = re.compile(r"\s+(?:with|using|after\s+(?:\w+ing|you)|by\s+\w+ing|once\s+you)\b", re.IGNORECASE)
_TRANSIENT = re.compile(
    r"\b(?:rate[\s-]?limit\w*|429|too\s+many\s+requests|time[sd]?\s*out|timed\s+out|timeout|503|502|504|"
    r"temporar\w+|unavailable|overloaded|busy|lock(?:ed)?|quota|throttl\w+|maintenance|retry-after|"
    r"in\s+\d+\s*(?:s|sec\w*|min\w*)|seconds?|minutes?|network|connection|upstream"
    # A named state the service is not in yet: "the browser is not available", "not ready".
    r"|not\s+(?:yet\s+)?(?:available|ready|loaded|running|started|connected)|still\s+(?:loading|starting|running))\b",
    re.IGNORECASE,
)
# A retry after a corrective step on a named thing ("check the path and try again"): the model
# knows what to change. "Check your input" names nothing (input is a filler word).
_CORRECTIVE = re.compile(r"\b(?:check|verify|correct|fix|change|adjust)\s+(?:the\s+|your\s+|that\s+)?(?P<what>[a-z][\w-]*)", re.IGNORECASE)


# A retry after a step the message names (`remove or rename it and try again`, `Install Node.js,
# then try again`): the model is told what to change before calling again.
_CORRECTED_RETRY = re.compile(
    r"(?:^|[.;:!,]\s*|\bplease\s+|\bfirst\s+)(?:install|remove|rename|delete|move|fix|correct|add|set|"
    r"provide|pass|specify|use|change|update|create|enable|configure|grant|authenticate|log\s*in|sign\s*in|"
    r"reconnect|restart|close|free|upgrade|select|choose|open|start|stop)\b(?:[^.;!?]|\.(?=\S))*?"
    r"(?:\band\b|\bthen\b|,)\s*(?:then\s+)?(?:please\s+)?(?:try\s+again|re-?try)",
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
    if not substance and not any(w in _ABSENCE_WORDS for w in words):
        # "Something went wrong", "Invalid input". Not "Missing arguments": it names the
        # condition (nothing was sent), which the model can act on.
        return "generic"
    if (
        not _TRANSIENT.search(text)
        and any(not _CHANGED_CALL.match(text, m.end()) for m in _RETRY.finditer(text))
        and not _names_a_correction(text)
        and not _CORRECTED_RETRY.search(text)
    ):
        return "retry"
    return None


def _names_a_correction(text: str) -> bool:
    return any(m.group("what").lower() not in _FILLER for m in _CORRECTIVE.finditer(text))


# A complaint about what the caller sent: a failure of the call even in a status-report tool.
_ARGUMENT_COMPLAINT = re.compile(
    r"\b(?:invalid|must\s+(?:be|not)|(?:is|are)\s+required|unknown|unsupported|not\s+supported|missing)\b", re.IGNORECASE
)


def is_argument_complaint(text: str) -> bool:
    return bool(_ARGUMENT_COMPLAINT.search(text))


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
