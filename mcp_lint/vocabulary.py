"""The failure vocabulary: every class of words the rules, the model and the probe decide by.

A rule that asks "does this text report a failure?", "is this tool a lookup or a listing?", "is
this a status tool?" or "does this message invite a retry?" asks it here, so the wording is
judged the same way everywhere and each class is tested once, as a table
(`tests/test_vocabulary.py`). Each constant says what it decides and why.

Failure wording covers the six languages servers answer in: English, Chinese (simplified and
traditional), Japanese, Spanish, German, French and Portuguese. A class that is English only says
so. Regular expressions are compiled case-insensitive unless the class says otherwise; word
sets hold lower-case words of identifiers (`get_note` -> "get", "note").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mcp_lint.lazy_re import lazy_compile

# -- Failure wording: does a returned text report a failure? ---------------------------------------

FAILURE_WORD_IN_OTHER_LANGUAGES = r"(?:错误|錯誤|エラー|失败|失敗|erreur|fehler|erro)"
""""Error" in Chinese, Japanese, French, German and Portuguese (Spanish "error" is the English
word): a message that opens with it followed by a colon is a failure even outside a branch."""

FAILURE_IN_OTHER_LANGUAGES = lazy_compile(
    r"(?:错误|錯誤|失败|失敗|未找到|找不到|不存在|无法|無法|エラー|見つかりません|存在しません|できません"
    r"|\b(?:falló|fallo|no\s+encontrad[oa]|no\s+existe|no\s+se\s+pudo|no\s+es\s+válid[oa]"
    r"|fehler|fehlgeschlagen|nicht\s+gefunden|existiert\s+nicht|konnte\s+nicht|ungültig(?:e[nmrs]?)?"
    r"|erreur|échec|échoué|introuvable|n'existe\s+pas|impossible\s+de|invalide"
    r"|erro|falhou|falha|não\s+encontrad[oa]|não\s+existe|não\s+foi\s+possível|inválid[oa])\b"
    r"|(?<!\w)(?:ошибка|не\s+найден[аоы]?|не\s+существует|не\s+удалось|невозможно|недопустим\w*|неверн\w*)(?!\w)"
    # "not supported", "not allowed" (FAILURE_ANYWHERE's English words)
    r"|不支持|不支援|不允许|不允許|サポートされていません|許可されていません"
    r"|\bno\s+(?:es\s+|está\s+)?(?:soportad[oa]s?|permitid[oa]s?)\b|\bnão\s+(?:é\s+|está\s+)?(?:suportad[oa]s?|permitid[oa]s?)\b"
    r"|\bnicht\s+(?:unterstützt|erlaubt|zulässig)\b|\bnon\s+(?:supporté|autorisé|pris\s+en\s+charge)e?s?(?!\w)"
    r"|(?<!\w)не\s+(?:поддерживается|разрешен\w*)(?!\w)"
    # "<thing> rejected: <why>" (FAILURE_OPENING's English form)
    r"|(?<!\w)(?:rechazad[oa]s?|abgelehnt|refusée?s?|rejeitad[oa]s?)\s*[:：]|(?:已|被)?拒绝[：:]|(?:已|被)?拒絕[：:])",
    re.IGNORECASE,
)
"""Failure words of the five languages besides English ("failed", "not found", "does not exist",
"could not", "invalid"), and Russian besides: servers answer in their users' language, and so
do their failure messages. Anywhere in a short message (the caller limits the length)."""

NOT_CONNECTED_WORDING = lazy_compile(
    r"\bno\s+(?:active|open|current)\s+(?:\w+\s+)?connection\b|\bnot\s+(?:yet\s+)?connected\b"
    r"|\bno\s+hay\s+(?:ninguna\s+)?conexi[oó]n\b|\bsin\s+conexi[oó]n\s+activa\b|\bno\s+(?:est[aá]s?\s+)?conectad[oa]\b"
    r"|\bkeine\s+(?:aktive\s+|offene\s+)?verbindung\b|\bnicht\s+verbunden\b"
    r"|\baucune\s+connexion\b|\bpas\s+(?:de\s+connexion|connecté)|\bnon\s+connecté"
    r"|\bnenhuma\s+conex[aã]o\b|\bn[aã]o\s+(?:est[aá]\s+)?conectad[oa]\b"
    r"|没有(?:活动的|活跃的|可用的)?(?:数据库)?连接|沒有(?:活動的|可用的)?(?:資料庫)?連線|(?:尚)?未(?:连接|連接|連線)"
    r"|接続されていません|接続がありません|未接続"
    r"|(?<!\w)(?:нет\s+(?:активного\s+)?подключения|не\s+подключен\w*)(?!\w)",
    re.IGNORECASE,
)
"""A call refused for want of a connection the server keeps ("No active connection. Use the
connect tool first", "No hay ninguna conexión activa", "未连接数据库"): the model must connect
first. English, Spanish, German, French, Portuguese, Chinese, Japanese (and Russian)."""

NO_PERMISSION_WORDING = lazy_compile(
    r"\b(?:insufficient|not\s+enough)\s+(?:permissions?|privileges?|rights|access)\b|\b(?:permission|access)\s+denied\b"
    r"|权限不足|權限不足|无权|無權|没有权限|沒有權限|拒绝访问|拒絕存取"
    r"|権限がありません|権限が不足|アクセスが拒否"
    r"|\bpermisos?\s+insuficientes\b|\bsin\s+permisos?\b|\b(?:acceso|permiso)\s+denegado\b"
    r"|\bkeine\s+berechtigung\b|\bunzureichende\s+(?:berechtigung|rechte)\w*|\b(?:zugriff|berechtigung)\s+verweigert\b"
    r"|\bpermissions?\s+insuffisantes?\b|\bdroits\s+insuffisants\b|\bacc[eè]s\s+refus[ée]|\bpermission\s+refus[ée]"
    r"|\bpermiss(?:ão|ões)\s+insuficientes?\b|\bsem\s+permiss(?:ão|ões)|\bacesso\s+negado\b|\bpermissão\s+negada\b"
    r"|(?<!\w)(?:недостаточно\s+прав|доступ\s+запрещ[её]н|нет\s+прав)(?!\w)",
    re.IGNORECASE,
)
"""A call refused for want of permission ("Insufficient permissions", "权限不足", "Zugriff
verweigert", "Acesso negado"), anywhere in a short message, in the six languages (and Russian)."""

UNEXPECTED_REPLY_WORDING = lazy_compile(
    r"\bunexpected\s+(?:\w+\s+){0,2}(?:response|reply|answer|format|shape|payload)\b|\breturned\s+an?\s+unexpected\b"
    r"|\brespuesta\s+inesperada\b|\bformato\s+inesperado\b"
    r"|\bunerwartete\s+antwort\b|\bunerwartetes\s+(?:antwort)?format\b"
    r"|\bréponse\s+inattendue\b|\bformat\s+inattendu\b"
    r"|\bresposta\s+inesperada\b"
    r"|意外的(?:响应|響應|返回|格式)|(?:响应|響應|返回)(?:格式|数据|數據)?(?:异常|異常|不正确|不正確)"
    r"|予期しない(?:応答|レスポンス|形式)"
    r"|(?<!\w)неожиданн\w+\s+(?:ответ|формат)\w*",
    re.IGNORECASE,
)
"""The upstream service answered in a shape the code cannot use ("The service returned an
unexpected response shape", "respuesta inesperada", "响应格式异常"): the call got no answer, in
the six languages (and Russian)."""

MALFORMED_VALUE_WORDING = lazy_compile(
    r"\b(?:does\s*n[o']t|doesn't)\s+(?:look|seem)\s+(?:like\s+)?(?:to\s+be\s+)?an?\b|\b(?:is|are)\s+not\s+an?\s+(?:valid|known|recogni[sz]ed)\b"
    r"|\bno\s+parece\s+(?:ser\s+)?una?\b|\bno\s+es\s+una?\s+\w+\s+v[aá]lid[oa]\b"
    r"|\bsieht\s+nicht\s+(?:wie|nach)\b|\bist\s+keine?\s+g[uü]ltige?\b"
    r"|\bne\s+ressemble\s+pas\s+[àa]\b|\bn'est\s+pas\s+une?\s+\w+\s+valide\b"
    r"|\bn[aã]o\s+parece\s+(?:ser\s+)?uma?\b|\bn[aã]o\s+[ée]\s+uma?\s+\w+\s+v[aá]lid[oa]\b"
    r"|不像是?(?:一个|一個)?(?:有效|合法)|不是(?:一个|一個)?(?:有效|合法)的"
    r"|(?:有効|正しい)な?\S{1,20}ではありません"
    r"|(?<!\w)(?:не\s+похож\w*\s+на|не\s+является\s+(?:допустим|корректн|действительн)\w*)",
    re.IGNORECASE,
)
"""An argument of the wrong form ("'x' doesn't look like a record id", "is not a valid id", "no
parece un identificador", "不是有效的ID"): the model must send another value. In the six
languages (and Russian)."""

MISSING_PREREQUISITE_WORDING = lazy_compile(
    r"\b(?:requires|needs)\s+(?:an?|the)\s+[^.!?;\n]{1,40}[.!;]\s+(?:please,?\s+)?(?:specify|provide|supply|pass|set|give|include)\b"
    r"|\b(?:requiere|necesita)\s+(?:una?|el|la)\s+[^.!?;\n]{1,40}[.!;]\s+(?:por\s+favor,?\s+)?(?:especifique|indique|proporcione|especifica|indica)\b"
    r"|\b(?:requer|exige|precisa\s+de)\s+(?:uma?|o|a)\s+[^.!?;\n]{1,40}[.!;]\s+(?:por\s+favor,?\s+)?(?:informe|especifique|indique|forneça)\b"
    r"|\b(?:erfordert|benötigt|braucht)\s+(?:eine?[nmrs]?|den|die|das)\s+[^.!?;\n]{1,40}[.!;]\s+bitte\s+(?:geben\s+sie|gib)\b"
    r"|\b(?:nécessite|requiert|exige)\s+(?:une?|le|la|l')\s*[^.!?;\n]{1,40}[.!;]\s+veuillez\s+(?:indiquer|préciser|fournir|spécifier)\b"
    r"|(?:需要|必须|必須)[^。！；\n]{1,30}[。！；，,]\s*(?:请|請)(?:提供|指定|输入|輸入)"
    r"|が必要です。[^。\n]{0,30}(?:を)?指定してください",
    re.IGNORECASE,
)
"""A call refused because an argument it needs came without another ("Task requires a project.
Please specify project_name.", "La tarea requiere un proyecto. Indique el proyecto."): a stated
prerequisite, then the request for the argument that supplies it, in the second sentence where
ARGUMENT_REQUEST (which matches at the start) does not look. Both halves are needed: "requires
a restart" alone describes, and a request alone may be a step of a dialogue. In the six
languages."""

UNMET_NEED_WORDING = (NOT_CONNECTED_WORDING, NO_PERMISSION_WORDING, UNEXPECTED_REPLY_WORDING, MALFORMED_VALUE_WORDING, MISSING_PREREQUISITE_WORDING)
"""Failure wording that names what the call lacked (a connection, a permission, a usable
answer, a well-formed argument, a prerequisite argument) rather than saying "failed": each a failure anywhere in a short
message returned on a failure path."""

TIMED_OUT = r"timed\s+out\b(?!\s+(?:until\b|for\s+(?:\{\}|\d+|an?|one)\s*(?:sec|min|hour|day|week|h\b|m\b|s\b|d\b)))"
""""timed out" (a pattern fragment), except a member put in time-out ("user timed out for {}
minutes", "... until {}"): a moderation action done, not a call that ran out of time."""

FAILURE_OPENING = lazy_compile(
    r"""^\W*(?:\[?(?:error|err|exception)\]?(?:\*\*|__)?(?=\s*(?:[:!.,;(\-–—]|$|(?:occurred|while|when|during|in|with|for|on|from|calling|executing|\w+ing)\b|(?:\{\}|\d{3})\s*[:\-–—]))
        |\[?(?:failure|failed|fail)\]?\b
        |(?:could\s*n[o']t|couldn't|cannot|can't|unable\s+to|failed\s+to|did\s+not\s+succeed)\b
        |(?:an?\s+)?(?:unexpected\s+|internal\s+|unknown\s+)(?:error|exception)\b|an?\s+(?:error|exception)\s+(?:occurred|happened|was)\b
        |\[(?:error|err|exception)\]  # a bracketed label: "[ERROR] disk full"
        |invalid\b|no\s+such\b|not\s+found\b|permission\s+denied\b|access\s+denied\b
        |forbidden\b|unauthori[sz]ed\b|oops\b|something\s+went\s+wrong\b
        |operation\s+failed\b|request\s+failed\b
        |unknown\s+\w+|unsupported\b|not\s+supported\b|not\s+permitted\b|not\s+allowed\b
        |(?:i\s+|we\s+)?encountered\s+an?\s+(?:error|exception|problem)\b
        # "Query rejected: read-only server", "Operation blocked: read-only mode": a refusal and its reason
        |(?:[^\W\d][\w.'-]*\s+){1,3}(?:rejected|refused|denied|blocked)\s*[:：—–]
        # "No section named {}", "No user with id {}": the named record is missing (a lookup's miss)
        |no\s+(?:\w+\s+){1,3}(?:named|called|with\s+(?:the\s+)?(?:id|name|key|uuid|slug))\b
        |<error>
        # "<Lib> error: ...": "Database error: ...", "HTTP error 404", "Document processing error:"
        |(?!(?:standard|squared|absolute|relative|mean|rounding|margin|typical|measurement)\b)(?:[\w.'-]+\s+){1,3}(?<!standard\s)(?<!squared\s)(?<!absolute\s)(?<!relative\s)(?<!rounding\s)(?:error|exception)\s*(?:[:!\-–—(]|\d)
        # "<Op> failed: ...": "Upload failed: ...", "Fetching page 2 failed."
        |(?:[\w.'{}-]+\s+){1,4}(?:failed\b|"""
    + TIMED_OUT
    + r"))",
    re.IGNORECASE | re.VERBOSE,
)
"""English openings of a failure message ("Error: ...", "Failed to ...", "Not found", "Upload
failed: ..."). "Error" must be a label or the subject of the sentence ("Error occurred"), not a
word of the result ("Error codes of the API"), and a statistics term ("standard error: 0.3")
is no failure."""

FAILURE_ANYWHERE = lazy_compile(
    r"\b(?:not\s+found|does\s+not\s+exist|doesn't\s+exist|is\s+required|are\s+required|failed\s+to|could\s+not|unable\s+to"
    r"|already\s+exists?|not\s+permitted|not\s+allowed|not\s+supported|is\s+not\s+supported|"
    + TIMED_OUT
    + r"|(?<!\d\s)failed\s*(?:[:;!(]|\.?$|\s+(?:with|because|due))|must\s+(?:be|not|have|contain|include|match|start|end)\b"
    r"|cannot\s+be\s+(?:empty|blank|null|none|negative|zero)|(?:is|are)\s+(?:invalid|not\s+valid)"
    # A refusal that names what is accepted instead: "Only SELECT statements are allowed", "Tool x
    # is excluded from this connection", "Notebook 'a' is not connected".
    r"|only\s+(?:[\w'\"`.-]+\s+){1,4}(?:is|are)\s+(?:supported|allowed|permitted|accepted)"
    r"|(?:is|are)\s+excluded\s+from|(?:is|are)\s+not\s+(?:connected|enabled|configured|installed)"
    r"|(?:is|are)\s+out\s+of\s+(?:range|bounds)"
    # A value over or under a limit the text names: "label too long (max 80 letters)".
    r"|too\s+(?:long|short|large|big|small|many|few)\b[^.;]{0,40}?\b(?:max|maximum|min|minimum|limit|at\s+most|at\s+least)\b)",
    re.IGNORECASE,
)
"""English phrases that report a failure anywhere in a short message ("Note 'a' not found",
"x must be positive", "Only SELECT statements are allowed"). "3 failed" (a count) is not one."""

FAILED_IN_OTHER_LANGUAGES = (
    r"(?:无法|無法|失败|失敗|impossible\s+d'|(?:no\s+se\s+pudo|no\s+fue\s+posible|konnte\s+(?:\S+\s+){0,4}?nicht"
    r"|fehlgeschlagen|impossible\s+de|échec|não\s+foi\s+possível|falha\s+ao|falhou)(?!\w))"
)
""""Failed"/"Could not" opening a sentence in Chinese, Spanish, German, French and Portuguese
(a pattern fragment): as strong as "Failed ..." in English. (Japanese says it at the end.)"""

STRONG_FAILURE_OPENING = lazy_compile(
    rf"^\W*\[?(?:error(?:\*\*|__)?\s*[:!\-]|error\s+(?:\{{\}}|\d{{3}})\s*[:\-]|error\]|failed\b|failure\s*:|{FAILURE_WORD_IN_OTHER_LANGUAGES}\s*[:：!\-]"
    rf"|{FAILED_IN_OTHER_LANGUAGES}|<error>)",
    re.IGNORECASE,
)
"""A label no result text starts with ("Error: ...", "Failed ...", "Fehler: ...", "错误：...",
"No se pudo ...", "<error>"): a failure even when no branch says the call failed. Matched at the
start."""

FALLBACK_DONE = lazy_compile(
    r"\b(?:using|used|with|applied|fell\s+back\s+to|falling\s+back\s+to)\s+(?:the\s+)?default\b",
    re.IGNORECASE,
)
"""A message that reports the call done another way ("Style 'x' not found, paragraph added with
the default style"): the missing piece was replaced, so the call worked. English only."""

EMPTY_OF_MANY = lazy_compile(r"^\W*no\s+(?:[\w-]+\s+){0,3}?[a-z][\w-]*(?<![siu])s\s+(?:found|available|matched|matching)\b", re.I)
"""An empty answer worded over a plural noun ("No time entries found for ticket 7", "No tables
found in database 'x'"): the call listed many things and none came, even in a function that
takes a record's key; a miss of the one record is worded over it ("No note found", "Note 7 not
found")."""

EMPTY_RESULT = lazy_compile(
    r"^\W*(?:no\s+(?:\w+\s+){0,3}(?:found|available|matched|matching)\b"
    r"|(?:could\s*n[o']t|unable\s+to|did\s*n[o']t)\s+find\s+any\b"
    # Chinese: "found no ... containing / matching / any ...", "no results / data yet"
    r"|(?:未能?|没有|沒有|找不到)(?:找到|查到|搜索到|搜尋到|检索到|查询到|查詢到)?\s*(?:任何|相关|相關|匹配|符合|包含|满足|滿足)"
    # ... and "found no results related to <the query>" (`未找到与「x」相关的结果`)
    r"|(?:未能?|没有|沒有)(?:找到|查到|搜索到|搜尋到|检索到|查询到|查詢到)(?:与|與|和)[^。，,！!？?]{1,40}?(?:相关|相關|匹配)的?(?:结果|結果|数据|數據|记录|記錄)"
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
"""An empty answer in each of the six languages ("No results found", "No notes found", "没有找到
相关结果", "該当する結果が見つかりません", "No se encontraron resultados", "Keine Treffer", "Aucun
résultat", "Nenhum item encontrado"): the empty result of a search or a listing, not a failure.
Matched at the start. "<the named record> not found" is never one (a lookup's miss fails in
every language)."""

NOTHING_MATCHED = lazy_compile(
    r"\bnot\s+found\b|\bno\s+match(?:es|ing)?\b|見つかりません|未找到|找不到|没有找到|沒有找到"
    r"|nicht\s+gefunden|no\s+encontrad[oa]s?\b|introuvables?\b|não\s+encontrad[oa]s?\b",
    re.IGNORECASE,
)
"""A sentence that something was not found or nothing matched ("Table matching 'x' not found",
"テーブルが見つかりませんでした"), in the six languages: in a function whose success path lists
what the branch found empty, the empty answer of that listing (a lookup's miss is told apart by
the function's shape, rules/empty_listing.py)."""

FAILED_OPENING = lazy_compile(r"^\W*(?:error|errors|failed|failure|could\s+not|couldn't|unable\s+to)\b", re.IGNORECASE)
"""How a failure text opens when it stands in a field of a result object ("Error searching docs -
status code 503", "Failed to ...", "Could not ..."): a report of failure by itself, without a
branch that says so. English only; the text must also read as a failure as a whole."""

ARGUMENT_COMPLAINT = lazy_compile(
    r"\b(?:invalid|must\s+(?:be|not)|(?:is|are)\s+required|unknown|unsupported|not\s+supported|missing)\b", re.IGNORECASE
)
"""A complaint about what the caller sent ("invalid id", "x is required"): a failure of the call
even in a status-report tool, whose other "failed" answers are its result."""

UNKNOWN_TOOL = lazy_compile(
    r"unknown[ _]tool|tool not found|no such tool|no tool named"
    r"|\btool\s+['\"`{]?[\w.{}-]*['\"`}]?\s+(?:not found|does not exist|is not (?:available|registered|supported))",
    re.I,
)
"""The wording of a low-level dispatcher's miss ("Unknown tool: x", "Tool 'x' not found"): the
tool's own name between, not any sentence that mentions a tool and later says "not found". The
model only calls listed tools, so rules judge this case apart from a tool's failures."""

REJECTION_WORDING = lazy_compile(
    r"^\s*(?:no\s+(?:\w+\s+){0,3}(?:to\s+(?:update|change|delete|remove|add|set|save|apply|send|create|modify)|(?:was\s+|were\s+)?(?:provided|given|specified|supplied|passed))|nothing\s+to\s+(?:update|change|delete|remove|add|set|save|apply|send|create|modify))\b",
    re.I,
)
"""A refusal worded as the absence of what the call needs ("No fields to update", "No data
provided", "Nothing to delete"): a rejection of the call, not an empty result. English only."""

FAILURE_MARK = lazy_compile(r"^\s*(?:❌|✗|✘|✖|⛔|🚫)")
"""A cross or no-entry mark that opens a message ("❌ Removed nobody", "✖ {} (HTTP {})"): the
author's own sign that the call failed, as plain as "Error:". A report of several lines (one
mark per checked item) is not one message, so the caller judges only one-line text by it."""

SUCCESS_MARK = lazy_compile(r"^\s*(?:✅|✔|☑|🎉|ℹ)")
"""A check mark or an information mark that opens a message ("✅ Saved, but the preview could
not be built", "ℹ️ Nothing to remove — no rows match"): the author reports the call done, or
informs; a caveat later in the text does not make it a failure."""

REFUSAL_WORDING = lazy_compile(
    r"\brefus(?:e|es|ed|ing)\s+to\b|\bnothing\s+to\s+do\b"
    r"|\b(?:is|are)\s+not\s+(?:in|a\s+member\s+of|part\s+of|one\s+of)\b[^.;—–-]{0,60}(?:[—–;-]|,)\s*(?:no\s+changes?\b|nothing\b)"
    r"|\b(?:verification|confirmation|authentication|authori[sz]ation|login|sign-in|approval|consent)\s+(?:was\s+)?"
    r"(?:declined|cancell?ed|rejected|denied)\b"
    r"|\b(?:declined|cancell?ed|rejected)\s+by\s+the\s+(?:user|client|caller)\b",
    re.IGNORECASE,
)
"""English wording of a call the server refused to carry out ("... — refusing to remove all
rows", "The two ids are the same — nothing to do", "Member 4 is not in group 2 — no change made",
"Login confirmation declined"). The caller also asks ALREADY_DONE: a no-op that reports the
goal reached ("Already archived — nothing to do") is no refusal."""

ALREADY_DONE = lazy_compile(r"\balready\b|\bup\s+to\s+date\b", re.IGNORECASE)
"""A no-op that reports the call's goal already reached ("Already a member, no change made",
"Up to date — nothing to do"): the call succeeded without work. English only."""

ARGUMENT_REQUEST = lazy_compile(
    r"^\W*(?:please,?\s+)?(?:specify|provide|supply)\b"
    r"|^\W*(?:пожалуйста,?\s+)?(?:укажите|введите|передайте)(?!\w)"
    r"|^\W*(?:请|請)(?:提供|指定|输入|輸入)|(?:を)?指定してください"
    r"|^\W*(?:por\s+favor,?\s+)?(?:especifique|indique|proporcione|informe)\b"
    r"|^\W*bitte\s+(?:geben\s+sie|gib)\b"
    r"|^\W*veuillez\s+(?:indiquer|préciser|fournir|spécifier)\b",
    re.IGNORECASE,
)
"""A request for an argument the call lacked, opening the message ("Specify the shop id.",
"Укажите shop_id", "请提供 id", "Bitte geben Sie eine Id an"): returned in the branch that
found the argument missing, it is the call's rejection. English, Russian, Chinese, Japanese,
Spanish, Portuguese, German and French. Matched at the start (Japanese says it at the end)."""

INTERNAL_ERROR_WORDING = lazy_compile(
    r"\b(?:should\s+(?:not|never)\s+(?:happen|occur|be\s+reached)|(?:unreachable|not\s+implemented|invariant|impossible)\b"
    r"|this\s+is\s+a\s+bug|internal\s+error|assertion"
    r"|unexpected\s+(?:\w+\s+){0,3}(?:type|shape|format|response|result|value|state)"
    r"|(?:response|result|payload|returned)\b[^.;:]{0,40}\b(?:is\s+not\s+an?|non-|invalid\s+(?:results|data|json)\b))",
    re.IGNORECASE,
)
"""Wording of an internal error (an invariant, a bug, an upstream payload of the wrong shape):
text written for the developer, nothing the model's next call could change. English only."""

# -- Failure wording the probe reads on the wire ---------------------------------------------------

WIRE_FAILURE_OPENING = lazy_compile(
    r"^\W*(?:(?:errors?|failure|exception|fatal)\s*[:!\-]|error (?:occurred|executing|calling|while|when|fetching|processing)\b|"
    r"failed\b|traceback\b|unable to|cannot|can't|could not|couldn't|invalid\b|not found|no such|denied|forbidden|unauthori[sz]ed)",
    re.I,
)
"""Openings of a tool's actual result text that read as a failure although the result says
isError: false ("Error: ...", "Failed to ..."). The probe sees the text alone, with no code around
it, so this is stricter than FAILURE_OPENING: "No results found" for a search, or a document
titled "Error codes", matches neither this nor WIRE_FAILURE_ANYWHERE."""

WIRE_FAILURE_ANYWHERE = lazy_compile(
    r"\b(?:not found|does not exist|doesn't exist|no such \w+|"
    r"an error occurred|error occurred|failed to|unable to|could not|couldn't|permission denied|access denied)\b"
    r"|\btraceback \(most recent call last\)",
    re.I,
)
"""Phrases unmistakable anywhere in a tool's actual result text ("... not found", a traceback)."""

# -- Status words of structured results -----------------------------------------------------------

FAILURE_STATUS_WORDS = frozenset({"error", "fail", "failed", "failure"})
"""Values of a reply's or a result's `status` that say the call failed (`{"status": "error"}`)."""

FAILED_STATUSES = FAILURE_STATUS_WORDS | frozenset(
    {"not_found", "notfound", "invalid", "denied", "unauthorized", "forbidden", "timeout", "timed_out"}
)
"""The `status` values an author writes into a result dict of their own to say it failed: the
failure status words and the named kinds of failure (`{"status": "not_found"}`)."""

SUCCESS_STATUS_WORDS = frozenset({"ok", "success", "succeeded", "true"})
"""Values of an upstream reply's status field that say the call worked (`status != "ok"` is the
failure branch)."""

ERROR_KEY_IN_OTHER_LANGUAGES = ("erreur", "fehler", "erro", "错误", "錯誤", "エラー")
"""The key "error" in French, German, Portuguese, Chinese and Japanese (Spanish says "error"), as
FAILURE_WORD_IN_OTHER_LANGUAGES: a client written in French returns `{"erreur": f"HTTP {status}"}`
the way an English one returns `{"error": ...}`."""

ERROR_KEYS = ("error", "errors", "error_message", "errorMessage", *ERROR_KEY_IN_OTHER_LANGUAGES)
"""Keys of a result dict whose non-empty value says the call failed (`{"error": "locked"}`), in
the order a message is looked for (the English keys first)."""

EXCHANGE_REPORT_KEYS = ("status_code", "statusCode", "http_status", "httpStatus")
"""Keys of a result that reports an HTTP exchange as it was (`{"status_code": 404, "ok": False,
"text": ...}`): a REST passthrough whose answer is the status for any status, so its success
flag is data, not a verdict on the call."""

STATE_KEYS = ("state", "outcome", "type")
"""Keys besides `status` whose failure word says a result dict of the author's reports a failed
call (`{"state": "ERROR", "detail": reply}`, and the tag of a result that is one of several
kinds, `{"type": "error", "message": ...}` beside `{"type": "text", ...}`). Read with
FAILURE_STATUS_WORDS only: a state is often a stage of a job's life ("timeout", "pending"), not a
verdict."""

SUCCESS_KEYS = ("success", "ok")
"""Keys of a result dict whose False says the call failed (`{"success": False, ...}`)."""

MESSAGE_KEYS = ("error", "message", "error_message", "errorMessage", "detail", "details", "reason", "msg")
"""Keys of an error dict that hold its message, in the order one is taken (`{"error": ...}` first)."""

MESSAGE_KEYWORDS = ("text", "message", "msg", "detail", "error")
"""Keyword arguments of a result or exception constructor that carry its message text."""

DETAIL_KEYS = ("details", "detail", "reason")
"""Keys of an error dict that say more about the failure than its message, in the order one is
taken: a fix keeps them beside the message, in parentheses."""

HINT_KEYS = (
    "hint", "hints", "suggestion", "suggestions", "resolution", "help", "next_step", "next_steps", "next_actions",
    "remedy", "remediation", "tip", "tips", "note", "notes", "context",
)
"""Keys of an error dict holding the author's advice to the model (what to check, what to call
next), in the order one is taken: a fix keeps it as the sentence after the message, never in its
place (it does not say what failed). A list of literals (`next_actions=["Run check_health()"]`)
is advice one sentence an element. `context` comes last: beside `error` it is the author's
pointer for the next call ("Provide the date in ISO format"); only literal text is ever kept."""

_HINT_KEY_STEMS = ("suggest", "troubleshoot", "recommend")
"""Word stems that make any key of an error dict a hint key beside HINT_KEYS' exact names:
`suggested_action`, `troubleshooting`, `recommendations`, `troubleshootingSteps` are advice for
the next call as `hint` is; a closed list of exact keys loses them."""

_KEY_WORD = lazy_compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
"""The words of a key written in snake_case or camelCase (`troubleshootingSteps`: troubleshooting, Steps)."""


def is_hint_key(key: str) -> bool:
    """Does this error-dict key hold the author's advice (HINT_KEYS, or a word of the key starts
    with a stem of advice: `suggested_action`, `troubleshooting`)?"""
    if key.lower() in HINT_KEYS:
        return True
    return any(word.lower().startswith(_HINT_KEY_STEMS) for word in _KEY_WORD.findall(key))


VERDICT_WORDS = frozenset(
    {"verified", "valid", "matches", "matched", "allowed", "authorized", "authorised", "authenticated", "permitted", "eligible", "approved", "granted", "compliant", "authentic", "trusted"}
)
"""Last words of a result key whose boolean answers a yes/no question about the input
(`{"verified": False, "reason": ...}`, `is_valid`, `signature_valid`): False is the answer, not
a failure of the call. `success` and `ok` are not among them: they say whether the call worked."""


def is_verdict_key(key: str) -> bool:
    """Does this result key hold a verdict (VERDICT_WORDS, its last word: `verified`, `isValid`,
    `token_valid`; not `valid_values`, `success`)?"""
    words = _KEY_WORD.findall(key)
    return bool(words) and words[-1].lower() in VERDICT_WORDS


def hint_keys_in(keys: Iterable[str]) -> list[str]:
    """The hint keys among `keys`: HINT_KEYS' in their order of taking, then the others in the
    order written."""
    written = list(keys)
    return [key for key in HINT_KEYS if key in written] + [key for key in written if key not in HINT_KEYS and is_hint_key(key)]


LISTING_KEYS = ("examples", "example", "valid_values", "allowed_values", "valid_options", "options", "choices", "available")
"""Keys of an error dict listing what the next call may use (examples of a valid argument, the
values accepted): advice for the model that no one-line message carries whole."""

POINTER_KEY = lazy_compile(
    r"^(?:duplicates?|existing|conflicts?|conflicting|similar|suggested|alternatives?|closest|nearest|did_you_mean"
    r"|candidates|valid|available|allowed|supported|known|accepted)(?:_|$)"
)
"""Keys of an error dict (lower snake case) pointing the model at what the next call should use
instead: the record the request duplicates or conflicts with (`duplicate_of`, `existing`), the
values it may choose from (`valid_ids`, `available_models`), near matches (`did_you_mean`). Their
value is data, not words: a raised message cannot keep it whole, so a fix leaves the result as it
is (results.hint_left_behind)."""

FLAG_KEYS = frozenset({"success", "ok", "status", "iserror", "is_error", "error_type", "type", "code", "status_code", "errorcode"})
"""Keys of an error dict (lower-cased) that only flag or classify the failure: no words of it."""

ERROR_FLAG_KEYWORDS = ("error", "is_error", "isError", "failed", "failure")
"""Keyword flags that mark a value as a failure on anything but the frameworks' own result
classes (`_result(msg, error=True)`, `TextContent(..., error=True)`: the wire still says
isError: false)."""

ERROR_FLAG_LOOKALIKE = lazy_compile(r"(?:is_?|has_?)?err(?:or)?|failed|failure", re.I)
"""A keyword meant as a result's error flag (`is_Error=True`, `iserror=True`, `error=True`,
`has_error=True`, `failed=True`), matched whole (`fullmatch`: `errors`, `error_code` are not one).
Unless it is `isError` or `is_error`, pydantic drops it (or keeps it as an ignored extra)."""

REPLY_SUCCESS_FLAGS = frozenset({"ok", "success", "succeeded"})
"""Fields of an upstream JSON reply whose false says the call failed (`if not data["success"]`)."""

REPLY_STATUS_FIELDS = frozenset({"status", "state", "result"})
"""Fields of an upstream JSON reply that hold a status word (`data["status"] == "error"`)."""

REPLY_ERROR_FIELDS = frozenset({"error", "errors", "error_message", "err", *ERROR_KEY_IN_OTHER_LANGUAGES})
"""Fields of an upstream JSON reply that hold its error text (`data["error"]`) in a 200 reply."""

REPLY_CODE_FIELDS = frozenset({"errcode", "err_code", "error_code", "errno", "retcode", "ret_code", "code"})
"""Fields of an upstream JSON reply holding a numeric outcome code, 0 on success (`data.get("errcode",
0) != 0` says the call failed, even in a 200 reply)."""

# -- Names: lookup vs listing ---------------------------------------------------------------------

LOOKUP_NAME = lazy_compile(
    r"^_*(?:get|read|fetch|load|open|show|describe|delete|remove|update|edit|rename|set|close|cancel|download|retrieve)(?:_|$)", re.I
)
"""A function named for one record (`get_note`, `delete_file`): with a key parameter, a miss
("No note found") is a failure the model must see. Its first word decides."""

LISTING_NAME = lazy_compile(
    r"(?:^|_)(?:search|list|find|query|browse|lookup|filter|scan|recent|all|many|matching|suggest)(?:_|$)|(?<![siu])s$", re.I
)
"""A function named for a search or a listing (`search_notes`, `get_all_items`, `get_notes`):
an empty answer is its result, even when the name starts like a lookup. Any word decides, and a
plural last word does: one that ends in "s" but not in "ss", "us" or "is", the endings of
singulars (`get_address`, `get_campus`, `get_analysis` fetch one record)."""

KEY_PARAMETER = lazy_compile(r"(?:^|_)(?:id|key|uuid|slug|name|path|filename|file|url|uri|number|ref|code)$", re.I)
"""A parameter that names one record (`note_id`, `path`, `slug`): its last word decides."""

NOT_ARGUMENTS = frozenset({"self", "cls", "ctx", "context"})
"""Parameters the model does not send: the receiver and the framework's context."""

INPUT_PARSER_NAME = lazy_compile(
    r"(?i:^(?:parse|loads|validate|from_?json|from_?iso_?format|strptime|literal_eval|model_validate|"
    r"(?:urlsafe_)?b(?:16|32|64)decode|unhexlify|fromhex)(?:_[a-z0-9]+)*$)"
    r"|^(?:Parse|Validate|FromJson)(?:[A-Z][a-z0-9]*)*$"
)
"""A library function named for parsing or validating the value it is handed (`parse`, `Parse`,
`loads`, `from_json`, `validate_email`, `model_validate_json`, `fromisoformat`, `b64decode`, and
the CamelCase names of generated message classes' helpers: `ParseDict`, `FromJsonString`),
matched whole against the call's last name: applied to a tool's own argument, its error says what
is wrong with what the model sent, which it can correct. Not `load` (a file), not `decode` (bytes
the tool fetched as often as the model's), not `parser`/`parsed`/`Parser` (a value, not the act)."""

# -- Names: status tools --------------------------------------------------------------------------

STATUS_VERBS = frozenset({"check", "validate", "verify", "ping", "diagnose", "lint", "probe"})
"""First words of a tool that reports a status (`check_*`, `ping`, `validate_*`): a "failed"
status is its answer, not its failure."""

STATUS_NOUNS = frozenset(
    {"status", "health", "healthcheck", "check", "checks", "validation", "ping", "diagnostics", "doctor", "lint", "probe"}
)
"""Last words of a tool that returns a status (`*_status`, `*_health`). A status word in the
middle of a name (`get_ping_pong_item`) describes some other object, so only the ends decide."""

STATUS_PHRASES = (("test", "connection"),)
"""Last two words of a tool that reports a status (`test_connection`)."""

PROBE_WORDS = frozenset({"health", "healthcheck", "ping", "probe", "alive", "liveness", "readiness", "connection", "connectivity", "reachable"})
"""Words of a status check whose subject is whether what it calls answers (`health_check`,
`ping`, `test_connection`): a failed reply of that call is its verdict, not its own failure (an
account's `*_status` or a `validate_*` whose request failed has no verdict to give)."""


def is_reachability_probe(name: str) -> bool:
    """Whether a function of this name checks that the service it calls answers (PROBE_WORDS)."""
    return any(word in PROBE_WORDS for word in _name_words(name))


PREDICATE_WORDS = frozenset({"is", "has", "can", "exists", "exist", "valid", "validate", "verify", "check", "allowed", "allows", "permitted"})
"""First words of a call that answers yes or no (`is_file()`, `has_access(u)`, `validate_token(t)`,
`exists()`): its result is a verdict, so `if not validate_token(t):` is the branch where the
check failed. Only for calls whose body this module cannot read (a library's, another module's);
a function of the module is judged by its returns."""

PREDICATE_JOINED = frozenset({"isfile", "isdir", "islink", "isabs", "ismount", "isdigit", "isnumeric", "isdecimal", "isalpha", "isalnum", "isidentifier"})
"""Library predicates spelled as one word (`os.path.isfile(p)`, `s.isdigit()`)."""


def is_predicate_name(name: str) -> bool:
    """Whether a call of this name answers yes or no (PREDICATE_WORDS, PREDICATE_JOINED)."""
    words = _name_words(name.lstrip("_"))
    return bool(words) and words[0] in PREDICATE_WORDS or name in PREDICATE_JOINED


STATUS_CHANGE_VERBS = frozenset({"set", "update", "change", "mark", "toggle", "move", "transition", "assign", "edit", "patch", "put"})
"""First words of a tool that writes a status (`set_crate_status`, `update_pallet_status`): the
status is what it changes, not a report; a refusal is its failure."""

def _name_words(name: str) -> list[str]:
    """The words of a name, lower-cased: snake_case, kebab-case, dotted and camelCase parts."""
    return [word.lower() for word in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)]


def is_status_tool(name: str) -> bool:
    """Whether a tool (or function) of this name reports a status: a health check, a validator,
    a ping, a report of the server's configuration."""
    words = _name_words(name)
    if not words or words[0] in STATUS_CHANGE_VERBS:
        return False
    return words[0] in STATUS_VERBS or words[-1] in STATUS_NOUNS or tuple(words[-2:]) in STATUS_PHRASES

# -- Names: error builders ------------------------------------------------------------------------

ERROR_BUILDER_WORDS_IN_OTHER_LANGUAGES = ("erro", "falha", "fallo", "falla", "erreur", "echec", "fehler")
""""Error" and "failure" as words of an identifier in Portuguese (`erro`, `falha`), Spanish
(`fallo`, `falla`; its "error" is the English word), French (`erreur`, `echec`, written without
the accent in names) and German (`fehler`): a server written in its users' language names its
failure constructor so (`_erro(mensagem)`, `resposta_falha(...)`, `fehler_antwort(text)`), as
its error keys are (ERROR_KEY_IN_OTHER_LANGUAGES). Chinese and Japanese names are spelled in
English or in pinyin/romaji, which no short word list covers."""

ERROR_BUILDER_NAME = lazy_compile(
    r"(?:^|_)(?:fail|failed|failure|error|err|" + "|".join(ERROR_BUILDER_WORDS_IN_OTHER_LANGUAGES) + r")(?:_|$)", re.IGNORECASE
)
"""A project function named like an error builder: `_fail(msg)`, `error_envelope(...)`,
`format_error_response(text)`, `make_error(...)`, and in other languages `_erro(mensagem)`,
`fehler_antwort(text)`. A whole word of the name, not a part of one (`terror`, `errand`,
`erroneous`, `falhar_depois`)."""

NOT_AN_ERROR_BUILDER_NAME = lazy_compile(
    r"^_*(?:get|list|fetch|read|load|count|find|search|parse|query|show|collect|check|validate|has|is|clear|log|print|raise|throw)(?:_|$)",
    re.IGNORECASE,
)
"""...but not one that reads, finds, checks or raises errors (`get_last_error()`, `is_error(x)`):
its first word decides."""

# -- Calls of a clause that only reports ----------------------------------------------------------

REPORTING_CALLS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log", "print", "print_exc", "print_exception", "format_exc", "write"}
)
"""Calls (by their last name) that only leave a trace of a failure: a logger's or a context's
methods (`logger.warning(...)`, `await ctx.error(...)`), `print`, a traceback printed or
formatted, a stream's `write`. They do none of the call's work."""

TEXT_BUILDING_CALLS = frozenset(
    {"str", "repr", "type", "getattr", "hasattr", "isinstance", "len", "format", "join", "get", "dumps", "format_exc", "strip", "lower", "upper", "title"}
)
"""Calls (by their last name) that only put a message's text together from values (`str(e)`,
`"; ".join(parts)`, `type(e).__name__`, `body.get("message")`): a local built with them is text,
not work done another way."""


# -- Retry wording --------------------------------------------------------------------------------

RETRY_INVITATION = lazy_compile(
    r"\b(?:try\s+again|try\s+later|try\s+once\s+more|retry\s+(?:later|again|the\s+\w+|this|it|in\b|after\b|shortly|soon)"
    r"|(?:please|you\s+(?:can|may|should|could)|then|and|or)\s+re-?try\b|re-?try\s*[.!]?\s*$)",
    re.IGNORECASE,
)
"""An invitation to call again ("please retry", "try again later"), not the word in "Retry count"
or "retry_after". A failure message whose only advice is this is vague unless the condition is
transient or a correction is named. English only."""

RETRY_MENTION = lazy_compile(r"\b(?:try (?:it |this |that |the \w+ |the request |once more )?again|re-?try(?!ies)|try later|re-?submit)\b", re.I)
"""Any wording that tells the model to send the call again ("try again", "retry", "resubmit"),
even after a correction: after an uncertain write, every resend may write twice. Not "retries"
(a count). English only."""

CHANGED_CALL = lazy_compile(r"\s+(?:with|using|after\s+(?:\w+ing|you)|by\s+\w+ing|once\s+you)\b", re.IGNORECASE)
"""What follows a retry to say what the next call changes ("try again with a comma-separated list
of valid types"): then the retry does not invite the same call again. Matched right after it."""

TRANSIENT_CONDITION = lazy_compile(
    r"\b(?:rate[\s-]?limit\w*|429|too\s+many\s+requests|time[sd]?\s*out|timed\s+out|timeout|503|502|504|"
    r"temporar\w+|unavailable|overloaded|busy|lock(?:ed)?|quota|throttl\w+|maintenance|retry-after|"
    r"in\s+\d+\s*(?:s|sec\w*|min\w*)|seconds?|minutes?|network|connection|upstream"
    # The service could not be reached at all: "could not reach the billing API", "unable to
    # connect to the server", "host unreachable" (a connectivity failure passes by itself).
    r"|(?:could\s*n[o']t|cannot|can[o']t|unable\s+to|failed\s+to)\s+(?:reach|connect|contact)|unreachable"
    # A named state the service is not in yet: "the browser is not available", "not ready".
    r"|not\s+(?:yet\s+)?(?:available|ready|loaded|running|started|connected)|still\s+(?:loading|starting|running))\b",
    re.IGNORECASE,
)
"""A condition that passes by itself (a rate limit, a timeout, "not ready yet"): a retry after it
is the right advice, not a vague one."""

CORRECTIVE_STEP = lazy_compile(r"\b(?:check|verify|correct|fix|change|adjust)\s+(?:the\s+|your\s+|that\s+)?(?P<what>[a-z][\w-]*)", re.IGNORECASE)
"""A corrective step on a named thing ("check the path and try again"): the model knows what to
change, unless `what` is a filler word ("check your input")."""

CORRECTED_RETRY = lazy_compile(
    r"(?:^|[.;:!,]\s*|\bplease\s+|\bfirst\s+)(?:install|remove|rename|delete|move|fix|correct|add|set|"
    r"provide|pass|specify|use|change|update|create|enable|configure|grant|authenticate|log\s*in|sign\s*in|"
    r"reconnect|restart|close|free|upgrade|select|choose|open|start|stop)\b(?:[^.;!?]|\.(?=\S))*?"
    r"(?:\band\b|\bthen\b|,)\s*(?:then\s+)?(?:please\s+)?(?:try\s+again|re-?try)",
    re.IGNORECASE,
)
"""A retry after a step the message names ("remove or rename it and try again", "Install
Node.js, then try again"): the model is told what to change before calling again."""

# -- Words that say nothing -----------------------------------------------------------------------

FILLER_WORDS = frozenset({
    "a", "an", "the", "please", "sorry", "error", "errors", "occurred", "occured", "has", "have", "had",
    "went", "wrong", "something", "unexpected", "unknown", "internal", "operation", "request", "failed",
    "failure", "fail", "try", "again", "later", "retry", "while", "processing", "your", "this", "it",
    "of", "was", "is", "there", "we", "encountered", "issue", "problem", "oops", "unable", "to",
    "complete", "process", "could", "not", "be", "completed", "processed", "in", "on", "at", "some",
    "kindly", "now", "moment", "after", "action", "task", "did", "succeed", "exception", "general",
    "server", "tool", "call", "execute", "execution", "executing", "with", "due", "my", "i", "me",
    "and", "or", "then", "for", "that", "any", "seems", "like", "looks", "something's", "again.",
    "invalid", "input", "bad", "parameter", "parameters", "params", "argument", "arguments", "args",
    "value", "values", "data", "provided", "given", "received", "missing", "required", "empty",
})
"""Words of a failure message that carry no information about what failed ("Something went
wrong", "Invalid input"): a message of these alone is generic. English only."""

ABSENCE_WORDS = frozenset({"missing", "required", "empty"})
"""Filler words that still name a condition of the call itself ("Missing arguments"): something
the model had to send is absent, which it can act on."""

# -- Words of a fix's message (what the code itself says failed) ----------------------------------

ACTION_VERBS = frozenset(
    "get list create update delete remove add set fetch read write search find load save send parse build make "
    "open close start stop run execute analyze explain query check validate download upload insert move copy "
    "convert format extract generate lookup resolve render import export sync apply submit cancel post put patch "
    "connect call invoke process compute calculate count describe show install uninstall deploy restart merge "
    "assign transition link unlink attach detach archive restore rename replace protect unprotect encrypt decrypt "
    "switch enable disable toggle refresh reset clear scan fork peek modify edit mark approve reject trigger schedule "
    "register unregister subscribe unsubscribe notify verify ping summarize translate transcribe sign verify fill "
    "retrieve browse navigate click type select upsert drop truncate backup clone checkout commit push pull".split()
)
"""First words of function names that read as a verb: a fix's message says "Could not <name in
words>" (`_parse_attachments` -> "Could not parse attachments")."""

GENERIC_VERBS = frozenset({"call", "run", "execute", "process", "invoke", "make", "apply", "send", "get", "set", "post", "put", "patch", "query", "do"})
"""Verbs that say only that something ran: "Could not call" names no task, so alone they make no
message."""

OBJECT_VERBS = frozenset(
    "open checkout clone delete remove fetch download resolve lookup connect switch merge rename restore archive "
    "install uninstall deploy restart cancel approve reject pull push".split()
)
"""Verbs that alone, with the value they act on, say what failed ("Could not checkout {branch}",
"Could not open {path}"); others need their object in the name (`get` is a dict read too,
`write(text)` would put the text into the message)."""

NAME_NOISE_WORDS = frozenset({"async", "sync", "impl", "internal", "helper", "wrapper", "inner", "wrapped", "decorated", "fn", "func"})
"""Words that name how a function is built, not what it does (`run_query_async`, `_fetch_impl`):
left out of a message made from the name."""

BULK_VALUE_WORDS = frozenset(
    "data body payload content contents text json params kwargs args request query sql options config "
    "base64 b64 bytes blob encoded html xml csv yaml markdown prompt".split()
)
"""Words of values too big or too raw to put into a message: the operation's words say enough.
(`prompt`: the model's whole free text, echoed back it says nothing of what failed; review 14 #24.)"""

DECODING_CALLS = frozenset(
    "b64decode urlsafe_b64decode standard_b64decode decodebytes b32decode b16decode a85decode unhexlify fromhex "
    "loads safe_load decompress".split()
)
"""Last names of library calls that decode or parse a whole encoded value (`base64.b64decode(x)`,
`json.loads(x)`): what they were handed is a payload, never a value a message names."""

SERVICE_ROLE_SUFFIX = lazy_compile(
    r"(?:Api|API|Http|HTTP|Rest|REST|Soap|SOAP|Rpc|RPC|GraphQL|Graphql|Grpc|GRPC)?(?:Client|Service|Manager|Wrapper|Helper|Handler|Connector|Adapter|Session|Backend"
    r"|Provider|Gateway|Proxy|Api|API|Base|Mixin|Impl)+$"
)
"""Last words of a class name that say what role it plays, not what it talks to: the rest of the
name (`WeatherClient` -> "Weather") is the service a failure of its method concerns. Case
sensitive: class names are CamelCase."""

REJECTED_VALUE_WORDING = lazy_compile(
    r"(?i)^\s*(?:\[?err(?:or)?\]?\s*[:\-–—]\s*)?(?:invalid|unknown|unsupported|unrecogni[sz]ed|malformed|bad|illegal|unpars(?:e)?able|not\s+a\s+valid"
    r"|(?:could\s+not|cannot|can't|failed\s+to|unable\s+to)\s+parse)\s+(?:the\s+|an?\s+)?"
    r"(?P<kind>[a-z][a-z0-9 _-]*?)\s*(?:[:=]\s*|\s-\s*|\s+)\{\}\s*$"
)
"""What an author calls a value that was rejected, followed by the exception's text as "{}"
("Invalid timezone: {}", "could not parse date {}"): `kind` names the value, so a fix's message
can name the value instead of the exception's text."""

# -- Harmless calls -------------------------------------------------------------------------------

BENIGN_CALLS = frozenset(
    {
        "int",
        "float",
        "str",
        "bool",
        "len",
        "isinstance",
        "issubclass",
        "range",
        "min",
        "max",
        "abs",
        "round",
        "sorted",
        "list",
        "dict",
        "set",
        "tuple",
        "enumerate",
        "zip",
        "any",
        "all",
        "sum",
        "getattr",
        "hasattr",
        "Decimal",
        "decimal.Decimal",
        "uuid.UUID",
        "UUID",
    }
)
"""Calls inside a `try` body that cannot raise text from someone else's code: conversions and
builtins whose failures are the author's own parsing of the tool's arguments."""

BENIGN_METHODS = frozenset(
    {
        "strip",
        "lower",
        "upper",
        "split",
        "startswith",
        "endswith",
        "isdigit",
        "replace",
        "get",
        "format",
        "join",
        "append",
        "items",
        "keys",
        "values",
        "fromisoformat",
        "strptime",
        "encode",
        "decode",
        "rstrip",
        "lstrip",
        "digest",
        "hexdigest",
    }
)
"""Methods of strings, dicts, dates and hash objects that ask no one else (see RECEIVER_DEPENDENT_METHODS)."""

RECEIVER_DEPENDENT_METHODS = frozenset({"get"})
"""Harmless methods that are I/O on another receiver: `d.get(k)` reads a dict, `client.get(url)`
sends a request; the receiver decides."""
