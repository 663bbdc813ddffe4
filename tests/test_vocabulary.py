"""Table tests of the failure vocabulary (`mcp_lint.vocabulary`): for each word class, the words
it holds, the words it does not, and look-alikes (a word inside another word, the same word in a
sense that is no failure). A row that flips changes what every rule reading the class decides."""

from __future__ import annotations

import re

import pytest

from mcp_lint import vocabulary as v

# (class, text, expected). Patterns are searched as the rules search them: `.search` for the
# unanchored ones, `.match` where the rule matches at the start or at a position.
SEARCHED: list[tuple[str, str, bool]] = [
    # Failure words of the five languages besides English.
    ("FAILURE_IN_OTHER_LANGUAGES", "查询失败", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "用户不存在", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "ファイルが見つかりません", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "La operación falló", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Archivo no encontrado", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Datei nicht gefunden", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Eingabe ungültig", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Ungültige Eingabe", True),  # inflected
    ("FAILURE_IN_OTHER_LANGUAGES", "Échec de la connexion", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Fichier introuvable", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Arquivo não encontrado", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Não foi possível salvar", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Erro ao salvar", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "查询成功", False),
    ("FAILURE_IN_OTHER_LANGUAGES", "Archivo encontrado", False),
    ("FAILURE_IN_OTHER_LANGUAGES", "Datei gefunden", False),
    ("FAILURE_IN_OTHER_LANGUAGES", "Les erreurs sont journalisées", False),  # "erreurs" is not "erreur"
    ("FAILURE_IN_OTHER_LANGUAGES", "Erros corrigidos: 3", False),  # "erros" is not "erro"
    ("FAILURE_IN_OTHER_LANGUAGES", "The ferro alloy", False),  # "erro" inside a word
    ("FAILURE_IN_OTHER_LANGUAGES", "Fehlerfrei gespeichert", False),  # "fehler" inside a word
    ("FAILURE_IN_OTHER_LANGUAGES", "Ungültigkeitsdatum: morgen", False),  # "ungültig" inside a word
    ("FAILURE_IN_OTHER_LANGUAGES", "Не удалось сохранить", True),  # Russian
    ("FAILURE_IN_OTHER_LANGUAGES", "Заметка не найдена", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Ошибка: диск заполнен", True),
    ("FAILURE_IN_OTHER_LANGUAGES", "Заметка сохранена", False),
    ("FAILURE_IN_OTHER_LANGUAGES", "Ошибках нет", False),  # an inflection of "error" is no failure word here
    # A prerequisite stated, then the argument asked for in the next sentence.
    ("MISSING_PREREQUISITE_WORDING", "Task requires a project. Please specify project_name.", True),
    ("MISSING_PREREQUISITE_WORDING", "A label needs a colour; provide colour as #rrggbb", True),
    ("MISSING_PREREQUISITE_WORDING", "La tarea requiere un proyecto. Por favor, indique el proyecto.", True),
    ("MISSING_PREREQUISITE_WORDING", "A tarefa requer um projeto. Informe o projeto.", True),
    ("MISSING_PREREQUISITE_WORDING", "Die Aufgabe erfordert ein Projekt. Bitte geben Sie das Projekt an.", True),
    ("MISSING_PREREQUISITE_WORDING", "La tâche nécessite un projet. Veuillez indiquer le projet.", True),
    ("MISSING_PREREQUISITE_WORDING", "任务需要项目，请指定项目名称", True),
    ("MISSING_PREREQUISITE_WORDING", "プロジェクトが必要です。プロジェクト名を指定してください", True),
    ("MISSING_PREREQUISITE_WORDING", "The change requires a restart to take effect.", False),  # a description
    ("MISSING_PREREQUISITE_WORDING", "Saved. Please provide feedback any time.", False),  # a request alone
    ("MISSING_PREREQUISITE_WORDING", "Requires a project: yes", False),
    # Refusals and the no-op look-alike.
    ("REFUSAL_WORDING", "Pass ids or a role — refusing to empty the group", True),
    ("REFUSAL_WORDING", "The two ids are the same — nothing to do.", True),
    ("REFUSAL_WORDING", "Member 4 is not in group 2 — no change made.", True),
    ("REFUSAL_WORDING", "Login confirmation declined.", True),
    ("REFUSAL_WORDING", "Upload cancelled by the user", True),
    ("REFUSAL_WORDING", "Booking cancelled.", False),  # a cancel tool's success
    ("REFUSAL_WORDING", "Member 4 is not in group 2.", False),  # a fact, no refusal
    ("REFUSAL_WORDING", "The refuse collection runs on Monday", False),
    ("REFUSAL_WORDING", "Nothing to report", False),  # an empty answer
    ("ALREADY_DONE", "Already archived — nothing to do.", True),
    ("ALREADY_DONE", "Up to date, nothing to pull", True),
    ("ALREADY_DONE", "Nothing to do: the ids are the same", False),
    # A request for the argument the call lacked.
    ("ARGUMENT_REQUEST", "Specify the shop id.", True),
    ("ARGUMENT_REQUEST", "Please provide a group id", True),
    ("ARGUMENT_REQUEST", "Укажите shop_id", True),
    ("ARGUMENT_REQUEST", "请提供店铺 ID", True),
    ("ARGUMENT_REQUEST", "店舗 ID を指定してください", True),
    ("ARGUMENT_REQUEST", "Por favor, indique el identificador", True),
    ("ARGUMENT_REQUEST", "Bitte geben Sie eine Id an", True),
    ("ARGUMENT_REQUEST", "Veuillez indiquer l'identifiant", True),
    ("ARGUMENT_REQUEST", "Provided 3 members", False),
    ("ARGUMENT_REQUEST", "The form lets you specify a shop", False),  # not at the start
    ("ARGUMENT_REQUEST", "Specifications: {}", False),
    # English openings of a failure.
    ("FAILURE_OPENING", "Error: the note is locked", True),
    ("FAILURE_OPENING", "[ERROR]: disk full", True),
    ("FAILURE_OPENING", "[ERROR] disk full", True),  # a bracketed label alone
    ("FAILURE_OPENING", "Error occurred while saving", True),
    ("FAILURE_OPENING", "Failed to save the note", True),
    ("FAILURE_OPENING", "Could not open the file", True),
    ("FAILURE_OPENING", "Not found", True),
    ("FAILURE_OPENING", "Upload failed: disk full", True),
    ("FAILURE_OPENING", "Database error: locked", True),
    ("FAILURE_OPENING", "An unexpected error occurred", True),
    ("FAILURE_OPENING", "Request timed out", True),
    ("FAILURE_OPENING", "Error codes of the service", False),
    ("FAILURE_OPENING", "Error 404: no such dock", True),  # a status code before the label's colon
    ("FAILURE_OPENING", "Error {}: {}", True),
    ("FAILURE_OPENING", "Error 2 of 3 entries was skipped", False),
    ("FAILURE_OPENING", "Standard error: 0.3", False),
    ("FAILURE_OPENING", "Errors are logged to the journal", False),
    ("FAILURE_OPENING", "Failover completed", False),  # "fail" inside a word
    ("FAILURE_OPENING", "Invalidation queued for 3 paths", False),  # "invalid" inside a word
    ("FAILURE_OPENING", "Saved the note", False),
    ("FAILURE_OPENING", "User timed out for 10 minutes", False),
    # English failure phrases anywhere.
    ("FAILURE_ANYWHERE", "Note 'a' not found", True),
    ("FAILURE_ANYWHERE", "The page does not exist", True),
    ("FAILURE_ANYWHERE", "limit must be positive", True),
    ("FAILURE_ANYWHERE", "The record must include a 'key' field.", True),  # a requirement, as "must contain"
    ("FAILURE_ANYWHERE", "The export includes 4 records", False),
    ("FAILURE_ANYWHERE", "Only SELECT statements are allowed", True),
    ("FAILURE_ANYWHERE", "The sync failed: disk full", True),
    ("FAILURE_ANYWHERE", "Job `{}` failed (status: {}).", True),  # a status word in parentheses after "failed"
    ("FAILURE_ANYWHERE", "3 failed (see the log)", False),  # a count of failed items
    ("FAILURE_ANYWHERE", "The printer is not connected", True),
    ("FAILURE_ANYWHERE", "Index is out of range", True),
    ("FAILURE_ANYWHERE", "Imported 12 rows, 3 failed", False),  # a count
    ("FAILURE_ANYWHERE", "Found 3 notes", False),
    ("FAILURE_ANYWHERE", "label too long (max 80 letters)", True),  # over a limit it names
    ("FAILURE_ANYWHERE", "comment too long: {} words, at most {}", True),
    ("FAILURE_ANYWHERE", "The list is too long to show in full; first 20 items:", False),  # no limit named
    ("FAILURE_ANYWHERE", "The mustard is ready", False),  # "must" inside a word
    # Strong openings: a failure even outside a branch.
    ("STRONG_FAILURE_OPENING", "Error: locked", True),
    ("STRONG_FAILURE_OPENING", "Failed.", True),
    ("STRONG_FAILURE_OPENING", "Error 503 - the depot is down", True),
    ("STRONG_FAILURE_OPENING", "Error {}: {}", True),
    ("STRONG_FAILURE_OPENING", "Error 12 rows were skipped", False),
    ("STRONG_FAILURE_OPENING", "<error>locked</error>", True),
    ("STRONG_FAILURE_OPENING", "错误：文件被锁定", True),
    ("STRONG_FAILURE_OPENING", "エラー: ロックされています", True),
    ("STRONG_FAILURE_OPENING", "Fehler: gesperrt", True),
    ("STRONG_FAILURE_OPENING", "Erreur : verrouillé", True),  # French sets a space before the colon
    ("STRONG_FAILURE_OPENING", "Erreur: verrouillé", True),
    ("STRONG_FAILURE_OPENING", "Échec de la sauvegarde", True),
    ("STRONG_FAILURE_OPENING", "Erro: bloqueado", True),
    ("STRONG_FAILURE_OPENING", "无法保存笔记", True),
    ("STRONG_FAILURE_OPENING", "No se pudo guardar la nota", True),
    ("STRONG_FAILURE_OPENING", "Konnte die Notiz nicht speichern", True),
    ("STRONG_FAILURE_OPENING", "Impossible d'enregistrer la note", True),
    ("STRONG_FAILURE_OPENING", "Não foi possível salvar a nota", True),
    ("STRONG_FAILURE_OPENING", "Falha ao salvar a nota", True),
    ("STRONG_FAILURE_OPENING", "Konnte gespeichert werden", False),  # "could", no "not"
    ("STRONG_FAILURE_OPENING", "Falhas corrigidas: 3", False),  # "falha" inside a word
    ("STRONG_FAILURE_OPENING", "No se pudieron leer 2 de 10", False),
    ("STRONG_FAILURE_OPENING", "Error rates for the last hour", False),
    ("STRONG_FAILURE_OPENING", "Failures per day: 3", False),
    ("STRONG_FAILURE_OPENING", "Fehlerquote: 3 %", False),  # "Fehler" inside a word
    # The call done another way.
    ("FALLBACK_DONE", "Style 'x' not found, used the default style", True),
    ("FALLBACK_DONE", "Unknown theme; falling back to default", True),
    ("FALLBACK_DONE", "The default style is missing", False),
    ("FALLBACK_DONE", "Set as default", False),
    # An empty answer in six languages.
    ("EMPTY_RESULT", "No notes found", True),
    ("EMPTY_RESULT", "No matching records", True),
    ("EMPTY_RESULT", "Couldn't find any notes", True),
    ("EMPTY_RESULT", "没有找到任何笔记", True),
    ("EMPTY_RESULT", "暫無結果", True),
    ("EMPTY_RESULT", "📭 未找到与「花园」相关的结果", True),
    ("EMPTY_RESULT", "没有查到與「花園」相關的記錄", True),
    ("EMPTY_RESULT", "未找到与该编号对应的文档，请检查相关设置", False),
    ("EMPTY_RESULT", "未找到笔记「花园」", False),
    ("EMPTY_RESULT", "該当するノートは見つかりません", True),
    ("EMPTY_RESULT", "No se encontraron notas", True),
    ("EMPTY_RESULT", "Keine Notizen gefunden", True),
    ("EMPTY_RESULT", "Aucune note trouvée", True),
    ("EMPTY_RESULT", "Nenhuma nota encontrada", True),
    ("NOTHING_MATCHED", "Table matching 'x' not found", True),
    ("NOTHING_MATCHED", "テーブル 'x' が見つかりませんでした", True),
    ("NOTHING_MATCHED", "No match for 'x'", True),
    ("NOTHING_MATCHED", "Tables listed: 3", False),
    ("EMPTY_OF_MANY", "No time entries found for ticket 7", True),
    ("EMPTY_OF_MANY", "No tables found in database 'shop'", True),
    ("EMPTY_OF_MANY", "No note found with id 7", False),
    ("EMPTY_OF_MANY", "No status found for job 7", False),
    ("EMPTY_RESULT", "Note 'a' not found", False),  # a named record: a lookup's miss
    ("EMPTY_RESULT", "Found no notes", False),  # not at the start
    ("EMPTY_RESULT", "Nota no encontrada", False),
    ("EMPTY_RESULT", "Notiz nicht gefunden", False),
    ("EMPTY_RESULT", "Nothing changed", False),  # "no" inside a word
    # Openings that report a failure inside a successful result.
    ("FAILED_OPENING", "Error: locked", True),
    ("FAILED_OPENING", "Failed to save", True),
    ("FAILED_OPENING", "Unable to connect", True),
    ("FAILED_OPENING", "Errorless run", False),
    ("FAILED_OPENING", "Failover done", False),
    ("FAILED_OPENING", "Saved", False),
    # Complaints about what the caller sent.
    ("ARGUMENT_COMPLAINT", "Invalid id", True),
    ("ARGUMENT_COMPLAINT", "name is required", True),
    ("ARGUMENT_COMPLAINT", "Unsupported format 'x'", True),
    ("ARGUMENT_COMPLAINT", "limit must be positive", True),
    ("ARGUMENT_COMPLAINT", "Service unreachable", False),
    ("ARGUMENT_COMPLAINT", "Cache invalidated", False),  # "invalid" inside a word
    ("ARGUMENT_COMPLAINT", "Requirements met", False),
    # A dispatcher's miss.
    ("UNKNOWN_TOOL", "Unknown tool: {}", True),
    ("UNKNOWN_TOOL", "unknown_tool", True),
    ("UNKNOWN_TOOL", "Tool '{}' not found", True),
    ("UNKNOWN_TOOL", "No tool named {}", True),
    ("UNKNOWN_TOOL", "Tool x is not registered", True),
    ("UNKNOWN_TOOL", "The tool ran, but the note was not found", False),
    ("UNKNOWN_TOOL", "Unknown note: {}", False),
    ("UNKNOWN_TOOL", "Toolbox not found", False),
    # Internal errors: written for the developer.
    ("INTERNAL_ERROR_WORDING", "This should never happen", True),
    ("INTERNAL_ERROR_WORDING", "Unexpected response format", True),
    ("INTERNAL_ERROR_WORDING", "Response is not a list", True),
    ("INTERNAL_ERROR_WORDING", "Not implemented", True),
    ("INTERNAL_ERROR_WORDING", "Note not found", False),
    ("INTERNAL_ERROR_WORDING", "Unexpectedly large file", False),
    ("INTERNAL_ERROR_WORDING", "Unreachability report", False),  # "unreachable" inside a word
    ("INTERNAL_ERROR_WORDING", "Invariants are listed below", False),  # "invariant" inside a word
    ("INTERNAL_ERROR_WORDING", "Impossibly large export", False),
    # What the probe reads on the wire.
    ("WIRE_FAILURE_OPENING", "Error: locked", True),
    ("WIRE_FAILURE_OPENING", "Traceback follows", True),
    ("WIRE_FAILURE_OPENING", "Access denied", False),  # "denied" opens, not "access"
    ("WIRE_FAILURE_OPENING", "Denied by policy", True),
    ("WIRE_FAILURE_OPENING", "Error codes: E1, E2", False),
    ("WIRE_FAILURE_OPENING", "No results found", False),
    ("WIRE_FAILURE_OPENING", "Failover done", False),
    ("WIRE_FAILURE_ANYWHERE", "The note was not found", True),
    ("WIRE_FAILURE_ANYWHERE", "Access denied for user", True),
    ("WIRE_FAILURE_ANYWHERE", "Output:\nTraceback (most recent call last):\n  File", True),
    ("WIRE_FAILURE_ANYWHERE", "No results found", False),
    ("WIRE_FAILURE_ANYWHERE", "Errors: 0", False),
    # Lookup vs listing, by name.
    ("LOOKUP_NAME", "get_note", True),
    ("LOOKUP_NAME", "_delete_file", True),
    ("LOOKUP_NAME", "fetch", True),
    ("LOOKUP_NAME", "getaway_plan", False),  # "get" inside a word
    ("LOOKUP_NAME", "search_notes", False),
    ("LOOKUP_NAME", "target_note", False),
    ("LISTING_NAME", "search_notes", True),
    ("LISTING_NAME", "get_all_items", True),
    ("LISTING_NAME", "get_notes", True),  # a plural last word
    ("LISTING_NAME", "find", True),
    ("LISTING_NAME", "get_note", False),
    ("LISTING_NAME", "get_address", False),  # singulars that end in "s"
    ("LISTING_NAME", "get_campus", False),
    ("LISTING_NAME", "get_analysis", False),
    ("LISTING_NAME", "get_addresses", True),
    ("LISTING_NAME", "get_keys", True),
    ("LISTING_NAME", "researcher_profile", False),  # "search" inside a word
    ("LISTING_NAME", "get_listing_id", False),  # "list" inside a word
    ("KEY_PARAMETER", "note_id", True),
    ("KEY_PARAMETER", "path", True),
    ("KEY_PARAMETER", "slug", True),
    ("KEY_PARAMETER", "file_name", True),
    ("KEY_PARAMETER", "limit", False),
    ("KEY_PARAMETER", "ideas", False),  # "id" inside a word
    ("KEY_PARAMETER", "keyword", False),  # "key" inside a word
    ("KEY_PARAMETER", "id_list", False),  # the last word decides
    # Error builders, by name.
    ("ERROR_BUILDER_NAME", "_fail", True),
    ("ERROR_BUILDER_NAME", "error_envelope", True),
    ("ERROR_BUILDER_NAME", "format_error_response", True),
    ("ERROR_BUILDER_NAME", "make_err", True),
    ("ERROR_BUILDER_NAME", "terror_level", False),  # "error" inside a word
    ("ERROR_BUILDER_NAME", "errand_list", False),
    ("ERROR_BUILDER_NAME", "failover", False),
    # ... in the server's own language (ERROR_BUILDER_WORDS_IN_OTHER_LANGUAGES)
    ("ERROR_BUILDER_NAME", "_erro", True),  # Portuguese
    ("ERROR_BUILDER_NAME", "resposta_falha", True),
    ("ERROR_BUILDER_NAME", "respuesta_fallo", True),  # Spanish
    ("ERROR_BUILDER_NAME", "_erreur", True),  # French
    ("ERROR_BUILDER_NAME", "reponse_echec", True),
    ("ERROR_BUILDER_NAME", "fehler_antwort", True),  # German
    ("ERROR_BUILDER_NAME", "_erros_corrigidos", False),  # a plural noun, not the builder word
    ("ERROR_BUILDER_NAME", "ferro_status", False),  # "erro" inside a word
    ("ERROR_BUILDER_NAME", "falhar_depois", False),  # a verb built on the word
    ("ERROR_BUILDER_NAME", "fehlerfrei", False),  # "fehler" inside a word
    ("ERROR_BUILDER_NAME", "fallback_value", False),
    ("NOT_AN_ERROR_BUILDER_NAME", "get_last_error", True),
    ("NOT_AN_ERROR_BUILDER_NAME", "is_error", True),
    ("NOT_AN_ERROR_BUILDER_NAME", "_raise_error", True),
    ("NOT_AN_ERROR_BUILDER_NAME", "error_envelope", False),
    ("NOT_AN_ERROR_BUILDER_NAME", "issue_error", False),  # "is" inside a word
    # Retry wording.
    ("RETRY_INVITATION", "Please retry", True),
    ("RETRY_INVITATION", "Try again later", True),
    ("RETRY_INVITATION", "Retry in 5 seconds", True),
    ("RETRY_INVITATION", "Retry.", True),
    ("RETRY_INVITATION", "Retry count: 3", False),
    ("RETRY_INVITATION", "retry_after is 5", False),
    ("RETRY_INVITATION", "Entry again refused", False),  # "try again" inside a word
    ("RETRY_MENTION", "Try again", True),
    ("RETRY_MENTION", "Please retry with a new id", True),
    ("RETRY_MENTION", "Resubmit the form", True),
    ("RETRY_MENTION", "Try the request again", True),
    ("RETRY_MENTION", "3 retries left", False),
    ("RETRY_MENTION", "Entry again refused", False),
    ("RETRY_MENTION", "Country: France", False),  # "try" inside a word
    ("TRANSIENT_CONDITION", "Rate limited, retry later", True),
    ("TRANSIENT_CONDITION", "Service temporarily unavailable", True),
    ("TRANSIENT_CONDITION", "The browser is not ready", True),
    ("TRANSIENT_CONDITION", "Could not reach the billing API", True),
    ("TRANSIENT_CONDITION", "Could not issue the refund", False),
    ("TRANSIENT_CONDITION", "Still loading the index", True),
    ("TRANSIENT_CONDITION", "Invalid id", False),
    ("TRANSIENT_CONDITION", "Blocked by policy", False),  # "lock" inside a word
    ("CORRECTIVE_STEP", "Check the path and try again", True),
    ("CORRECTIVE_STEP", "Verify your token", True),
    ("CORRECTIVE_STEP", "Checked 3 paths", False),  # "check" inside a word
    ("CORRECTIVE_STEP", "Fixture loaded", False),
    ("CORRECTED_RETRY", "Remove or rename it and try again", True),
    ("CORRECTED_RETRY", "Install the converter, then try again", True),
    ("CORRECTED_RETRY", "Please try again", False),
    ("CORRECTED_RETRY", "Something failed; try again", False),
    # What the call lacked, in the six languages (and Russian): a connection ...
    ("NOT_CONNECTED_WORDING", "No active connection. Use the connect tool first.", True),
    ("NOT_CONNECTED_WORDING", "Database not connected", True),
    ("NOT_CONNECTED_WORDING", "No hay ninguna conexión activa. Usa la herramienta 'conectar' primero.", True),
    ("NOT_CONNECTED_WORDING", "Keine aktive Verbindung", True),
    ("NOT_CONNECTED_WORDING", "Aucune connexion active", True),
    ("NOT_CONNECTED_WORDING", "Nenhuma conexão ativa", True),
    ("NOT_CONNECTED_WORDING", "数据库未连接，请先连接", True),
    ("NOT_CONNECTED_WORDING", "データベースに接続されていません", True),
    ("NOT_CONNECTED_WORDING", "Нет активного подключения", True),
    ("NOT_CONNECTED_WORDING", "Connected to 3 databases", False),
    ("NOT_CONNECTED_WORDING", "Conexión establecida", False),
    ("NOT_CONNECTED_WORDING", "Verbindung hergestellt", False),
    ("NOT_CONNECTED_WORDING", "已连接", False),
    # ... a permission ...
    ("NO_PERMISSION_WORDING", "Insufficient permissions to drop tables", True),
    ("NO_PERMISSION_WORDING", "Access denied for this role", True),
    ("NO_PERMISSION_WORDING", "当前角色权限不足", True),
    ("NO_PERMISSION_WORDING", "権限がありません", True),
    ("NO_PERMISSION_WORDING", "Permisos insuficientes", True),
    ("NO_PERMISSION_WORDING", "Zugriff verweigert", True),
    ("NO_PERMISSION_WORDING", "Accès refusé", True),
    ("NO_PERMISSION_WORDING", "Acesso negado", True),
    ("NO_PERMISSION_WORDING", "Доступ запрещён", True),
    ("NO_PERMISSION_WORDING", "Permissions updated for 3 users", False),
    ("NO_PERMISSION_WORDING", "权限已更新", False),
    ("NO_PERMISSION_WORDING", "Berechtigungen gespeichert", False),
    # ... a usable answer ...
    ("UNEXPECTED_REPLY_WORDING", "The service returned an unexpected response shape for this record.", True),
    ("UNEXPECTED_REPLY_WORDING", "Unexpected reply from the server", True),
    ("UNEXPECTED_REPLY_WORDING", "Respuesta inesperada del servidor", True),
    ("UNEXPECTED_REPLY_WORDING", "Unerwartete Antwort vom Server", True),
    ("UNEXPECTED_REPLY_WORDING", "Réponse inattendue du serveur", True),
    ("UNEXPECTED_REPLY_WORDING", "Resposta inesperada do servidor", True),
    ("UNEXPECTED_REPLY_WORDING", "服务返回格式异常", True),
    ("UNEXPECTED_REPLY_WORDING", "予期しない応答です", True),
    ("UNEXPECTED_REPLY_WORDING", "Response format: json", False),
    ("UNEXPECTED_REPLY_WORDING", "Unexpected tokens: 0", False),
    ("UNEXPECTED_REPLY_WORDING", "返回格式：json", False),
    # ... a well-formed argument.
    ("MALFORMED_VALUE_WORDING", "'x1' doesn't look like a record id. Check the value and try again.", True),
    ("MALFORMED_VALUE_WORDING", "'x1' is not a valid record id", True),
    ("MALFORMED_VALUE_WORDING", "'x1' no parece un identificador", True),
    ("MALFORMED_VALUE_WORDING", "'x1' ist keine gültige Kennung", True),
    ("MALFORMED_VALUE_WORDING", "'x1' ne ressemble pas à un identifiant", True),
    ("MALFORMED_VALUE_WORDING", "'x1' não parece um identificador", True),
    ("MALFORMED_VALUE_WORDING", "'x1' 不是有效的ID", True),
    ("MALFORMED_VALUE_WORDING", "'x1' は有効なIDではありません", True),
    ("MALFORMED_VALUE_WORDING", "'x1' не является допустимым идентификатором", True),
    ("MALFORMED_VALUE_WORDING", "Looks like a record id: 42", False),
    ("MALFORMED_VALUE_WORDING", "Es un identificador válido", False),
    ("MALFORMED_VALUE_WORDING", "是有效的ID", False),
]

MATCHED: list[tuple[str, str, bool]] = [
    ("FAILURE_MARK", "❌ Removed nobody.", True),
    ("FAILURE_MARK", "  ✖ {} (HTTP {})", True),
    ("FAILURE_MARK", "Removed nobody ❌", False),  # the mark opens the message
    ("FAILURE_MARK", "✅ Saved", False),
    ("SUCCESS_MARK", "✅ Saved, but the preview could not be built", True),
    ("SUCCESS_MARK", "ℹ️ Nothing to remove", True),
    ("SUCCESS_MARK", "❌ Not saved", False),
    ("SUCCESS_MARK", "Saved ✅", False),
    # A keyword meant as the error flag (matched whole: `.fullmatch`, see test_matched_class).
    ("ERROR_FLAG_LOOKALIKE", "is_Error", True),
    # A library function that parses or validates its input (matched whole: the call's last name).
    ("INPUT_PARSER_NAME", "parse", True),
    ("INPUT_PARSER_NAME", "Parse", True),
    ("INPUT_PARSER_NAME", "parse_one", True),
    ("INPUT_PARSER_NAME", "loads", True),
    ("INPUT_PARSER_NAME", "from_json", True),
    ("INPUT_PARSER_NAME", "FromJsonString", True),  # CamelCase words of generated message helpers
    ("INPUT_PARSER_NAME", "ParseDict", True),
    ("INPUT_PARSER_NAME", "Parser", False),
    ("INPUT_PARSER_NAME", "ParsedRows", False),
    ("INPUT_PARSER_NAME", "parsedict", False),  # lower case needs the underscore boundary
    ("INPUT_PARSER_NAME", "validate_email", True),
    ("INPUT_PARSER_NAME", "model_validate_json", True),
    ("INPUT_PARSER_NAME", "fromisoformat", True),
    ("INPUT_PARSER_NAME", "urlsafe_b64decode", True),
    ("INPUT_PARSER_NAME", "load", False),  # reads a file
    ("INPUT_PARSER_NAME", "decode", False),
    ("INPUT_PARSER_NAME", "parser", False),
    ("INPUT_PARSER_NAME", "parsed_rows", False),
    ("INPUT_PARSER_NAME", "reparse", False),
    ("INPUT_PARSER_NAME", "validated", False),
    ("ERROR_FLAG_LOOKALIKE", "iserror", True),
    ("ERROR_FLAG_LOOKALIKE", "has_error", True),
    ("ERROR_FLAG_LOOKALIKE", "failed", True),
    ("ERROR_FLAG_LOOKALIKE", "errors", False),
    ("ERROR_FLAG_LOOKALIKE", "error_code", False),
    ("ERROR_FLAG_LOOKALIKE", "terror", False),
    # After a retry: what the next call changes.
    ("CHANGED_CALL", " with a comma-separated list", True),
    ("CHANGED_CALL", " using the full path", True),
    ("CHANGED_CALL", " after adding a title", True),
    ("CHANGED_CALL", " once you are logged in", True),
    ("CHANGED_CALL", " later", False),
    ("CHANGED_CALL", " without changes", False),  # "with" inside a word
    # A rejected value named before the exception's text.
    ("REJECTED_VALUE_WORDING", "Invalid timezone: {}", True),
    ("REJECTED_VALUE_WORDING", "could not parse date {}", True),
    ("REJECTED_VALUE_WORDING", "Error: unsupported format - {}", True),
    ("REJECTED_VALUE_WORDING", "Request failed: {}", False),
    ("REJECTED_VALUE_WORDING", "Invalid timezone", False),  # no text of the exception after it
    ("REJECTED_VALUE_WORDING", "Invalidated cache {}", False),  # "invalid" inside a word
    # A refusal worded as an absence.
    ("REJECTION_WORDING", "No fields to update", True),
    ("REJECTION_WORDING", "No data provided", True),
    ("REJECTION_WORDING", "Nothing to delete", True),
    ("REJECTION_WORDING", "No notes found", False),
    ("REJECTION_WORDING", "Notes to update: 3", False),
    ("REJECTION_WORDING", "Nothingness to delete", False),
    # An error dict's key pointing the next call at a record or the values it may use.
    ("POINTER_KEY", "duplicate_of", True),
    ("POINTER_KEY", "existing", True),
    ("POINTER_KEY", "valid_ids", True),
    ("POINTER_KEY", "did_you_mean", True),
    ("POINTER_KEY", "validation", False),  # "valid" inside a word
    ("POINTER_KEY", "error", False),
]

WORDS: list[tuple[str, str, bool]] = [
    ("REPORTING_CALLS", "warning", True),
    ("REPORTING_CALLS", "print_exception", True),
    ("REPORTING_CALLS", "fatal", True),
    ("REPORTING_CALLS", "save", False),
    ("REPORTING_CALLS", "rollback", False),
    ("TEXT_BUILDING_CALLS", "join", True),
    ("TEXT_BUILDING_CALLS", "strip", True),
    ("TEXT_BUILDING_CALLS", "getattr", True),
    ("TEXT_BUILDING_CALLS", "fetch", False),
    ("TEXT_BUILDING_CALLS", "close", False),
    ("MESSAGE_KEYS", "error", True),
    ("MESSAGE_KEYS", "reason", True),
    ("MESSAGE_KEYS", "error_code", False),
    ("MESSAGE_KEYS", "status", False),
    ("MESSAGE_KEYWORDS", "text", True),
    ("MESSAGE_KEYWORDS", "msg", True),
    ("MESSAGE_KEYWORDS", "content", False),  # a block or a list of them, not text
    ("DETAIL_KEYS", "reason", True),
    ("DETAIL_KEYS", "hint", False),
    ("HINT_KEYS", "suggestion", True),
    ("HINT_KEYS", "context", True),
    ("HINT_KEYS", "message", False),
    ("LISTING_KEYS", "examples", True),
    ("LISTING_KEYS", "valid_values", True),
    ("LISTING_KEYS", "category", False),
    ("DETAIL_KEYS", "message", False),
    ("FLAG_KEYS", "status_code", True),
    ("FLAG_KEYS", "iserror", True),
    ("FLAG_KEYS", "error", False),
    ("ERROR_FLAG_KEYWORDS", "is_error", True),
    ("ERROR_FLAG_KEYWORDS", "isError", True),
    ("ERROR_FLAG_KEYWORDS", "errors", False),
    ("ERROR_KEYS", "errorMessage", True),
    ("ERROR_KEYS", "erreur", True),  # "error" in the other languages: ERROR_KEY_IN_OTHER_LANGUAGES
    ("ERROR_KEYS", "エラー", True),
    ("ERROR_KEY_IN_OTHER_LANGUAGES", "fehler", True),
    ("ERROR_KEY_IN_OTHER_LANGUAGES", "erro", True),
    ("ERROR_KEY_IN_OTHER_LANGUAGES", "remarque", False),
    ("ERROR_KEY_IN_OTHER_LANGUAGES", "error", False),  # English (and Spanish): ERROR_KEYS' own
    ("ERROR_BUILDER_WORDS_IN_OTHER_LANGUAGES", "erro", True),
    ("ERROR_BUILDER_WORDS_IN_OTHER_LANGUAGES", "fehler", True),
    ("ERROR_BUILDER_WORDS_IN_OTHER_LANGUAGES", "echec", True),  # unaccented, as in names
    ("ERROR_BUILDER_WORDS_IN_OTHER_LANGUAGES", "error", False),  # English (and Spanish): ERROR_BUILDER_NAME's own
    ("ERROR_BUILDER_WORDS_IN_OTHER_LANGUAGES", "aviso", False),
    ("ERROR_KEYS", "error_code", False),
    ("ERROR_KEYS", "message", False),
    ("SUCCESS_KEYS", "ok", True),
    ("SUCCESS_KEYS", "succeeded", False),
    ("FAILURE_STATUS_WORDS", "error", True),
    ("FAILURE_STATUS_WORDS", "failed", True),
    ("FAILURE_STATUS_WORDS", "errors", False),
    ("FAILURE_STATUS_WORDS", "ok", False),
    ("FAILED_STATUSES", "not_found", True),
    ("FAILED_STATUSES", "timed_out", True),
    ("FAILED_STATUSES", "fail", True),
    ("FAILED_STATUSES", "pending", False),
    ("FAILED_STATUSES", "found", False),
    ("SUCCESS_STATUS_WORDS", "ok", True),
    ("SUCCESS_STATUS_WORDS", "succeeded", True),
    ("SUCCESS_STATUS_WORDS", "okay", False),
    ("SUCCESS_STATUS_WORDS", "done", False),
    ("REPLY_SUCCESS_FLAGS", "success", True),
    ("REPLY_SUCCESS_FLAGS", "status", False),
    ("EXCHANGE_REPORT_KEYS", "status_code", True),
    ("EXCHANGE_REPORT_KEYS", "status", False),
    ("STATE_KEYS", "state", True),
    ("STATE_KEYS", "status", False),  # judged with the named kinds of failure (FAILED_STATUSES)
    ("STATE_KEYS", "stage", False),
    ("STATE_KEYS", "type", True),  # `{"type": "error", ...}`: the tag of a result of several kinds
    ("STATE_KEYS", "kind", False),
    ("REPLY_STATUS_FIELDS", "state", True),
    ("REPLY_STATUS_FIELDS", "statuses", False),
    ("REPLY_ERROR_FIELDS", "error_message", True),
    ("REPLY_ERROR_FIELDS", "erreur", True),
    ("REPLY_ERROR_FIELDS", "message", False),
    ("REPLY_CODE_FIELDS", "errcode", True),
    ("REPLY_CODE_FIELDS", "ret_code", True),
    ("REPLY_CODE_FIELDS", "count", False),
    ("NOT_ARGUMENTS", "ctx", True),
    ("NOT_ARGUMENTS", "self", True),
    ("NOT_ARGUMENTS", "context_id", False),
    ("STATUS_VERBS", "ping", True),
    ("STATUS_VERBS", "validate", True),
    ("STATUS_VERBS", "get", False),
    ("STATUS_VERBS", "checkout", False),  # "check" inside a word
    ("STATUS_NOUNS", "health", True),
    ("STATUS_NOUNS", "diagnostics", True),
    ("STATUS_NOUNS", "statuses", False),
    ("STATUS_NOUNS", "note", False),
    ("STATUS_CHANGE_VERBS", "set", True),
    ("STATUS_CHANGE_VERBS", "update", True),
    ("STATUS_CHANGE_VERBS", "get", False),
    ("STATUS_CHANGE_VERBS", "check", False),
    ("FILLER_WORDS", "something", True),
    ("FILLER_WORDS", "went", True),
    ("FILLER_WORDS", "timezone", False),
    ("ABSENCE_WORDS", "missing", True),
    ("ABSENCE_WORDS", "invalid", False),
    ("ACTION_VERBS", "parse", True),
    ("ACTION_VERBS", "checkout", True),
    ("ACTION_VERBS", "parser", False),
    ("ACTION_VERBS", "weather", False),
    ("GENERIC_VERBS", "execute", True),
    ("GENERIC_VERBS", "parse", False),
    ("OBJECT_VERBS", "open", True),
    ("OBJECT_VERBS", "write", False),  # would put the written text into the message
    ("NAME_NOISE_WORDS", "async", True),
    ("NAME_NOISE_WORDS", "asynchronous", False),
    ("BULK_VALUE_WORDS", "payload", True),
    ("BULK_VALUE_WORDS", "branch", False),
    ("BULK_VALUE_WORDS", "base64", True),
    ("DECODING_CALLS", "b64decode", True),
    ("DECODING_CALLS", "loads", True),
    ("DECODING_CALLS", "strptime", False),  # a date: a short value the message may name
    ("BENIGN_CALLS", "int", True),
    ("BENIGN_CALLS", "uuid.UUID", True),
    ("BENIGN_CALLS", "open", False),
    ("BENIGN_CALLS", "json.loads", False),
    ("BENIGN_METHODS", "strip", True),
    ("BENIGN_METHODS", "read", False),
    ("RECEIVER_DEPENDENT_METHODS", "get", True),
    ("RECEIVER_DEPENDENT_METHODS", "strip", False),
    ("PREDICATE_WORDS", "validate", True),
    ("PREDICATE_WORDS", "has", True),
    ("PREDICATE_WORDS", "get", False),
    ("PREDICATE_WORDS", "search", False),
    ("PREDICATE_JOINED", "isfile", True),
    ("VERDICT_WORDS", "verified", True),
    ("VERDICT_WORDS", "allowed", True),
    ("VERDICT_WORDS", "success", False),  # whether the call worked, not an answer about the input
    ("VERDICT_WORDS", "ok", False),
    ("PREDICATE_JOINED", "issue", False),
]


@pytest.mark.parametrize(("name", "text", "expected"), SEARCHED, ids=[f"{n}:{t}" for n, t, _ in SEARCHED])
def test_searched_class(name: str, text: str, expected: bool) -> None:
    pattern = getattr(v, name)
    assert bool(pattern.search(text)) is expected


@pytest.mark.parametrize(("name", "text", "expected"), MATCHED, ids=[f"{n}:{t}" for n, t, _ in MATCHED])
def test_matched_class(name: str, text: str, expected: bool) -> None:
    pattern = getattr(v, name)
    matched = pattern.fullmatch(text) if name in {"ERROR_FLAG_LOOKALIKE", "INPUT_PARSER_NAME"} else pattern.match(text)
    assert bool(matched) is expected


@pytest.mark.parametrize(("name", "word", "expected"), WORDS, ids=[f"{n}:{w}" for n, w, _ in WORDS])
def test_word_class(name: str, word: str, expected: bool) -> None:
    assert (word in getattr(v, name)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Error in {}", False),  # "{}" is where the value goes, not an error word
        ("Timed out", True),
        ("Request timed out after 30 s", True),
        ("Member timed out for 10 minutes", False),
        ("Member timed out until {}", False),
    ],
)
def test_timed_out_fragment(text: str, expected: bool) -> None:
    assert bool(re.search(v.TIMED_OUT, text, re.IGNORECASE)) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("错误", True), ("錯誤", True), ("エラー", True), ("Erreur", True), ("Fehler", True), ("Erro", True), ("Error", False), ("Fehlerfrei", False)],
)
def test_error_word_of_other_languages(text: str, expected: bool) -> None:
    """A fragment: the class that uses it (STRONG_FAILURE_OPENING) puts a colon after it."""
    assert bool(re.fullmatch(v.FAILURE_WORD_IN_OTHER_LANGUAGES, text, re.IGNORECASE)) is expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [("health_check", True), ("ping", True), ("test_connection", True), ("account_status", False), ("validate_invoice", False)],
)
def test_reachability_probes(name: str, expected: bool) -> None:
    """PROBE_WORDS: a check whose subject is whether the called service answers."""
    assert v.is_reachability_probe(name) is expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [("is_file", True), ("isdir", True), ("_validate_path", True), ("has_access", True), ("exists", True),
     ("issue", False), ("isolate", False), ("get_rows", False), ("search", False), ("checkout", False)],
)
def test_predicate_names(name: str, expected: bool) -> None:
    """A call that answers yes or no, by its first word (or a joined library predicate)."""
    assert v.is_predicate_name(name) is expected


def test_status_phrases_are_word_pairs() -> None:
    assert ("test", "connection") in v.STATUS_PHRASES
    assert ("connection", "test") not in v.STATUS_PHRASES


@pytest.mark.parametrize(
    ("class_name", "expected"),
    [("WeatherClient", "Weather"), ("WeatherApiClient", "Weather"), ("NotesServiceManager", "Notes"), ("DocumentProcessor", "DocumentProcessor")],
)
def test_service_role_suffix(class_name: str, expected: str) -> None:
    assert v.SERVICE_ROLE_SUFFIX.sub("", class_name) == expected


@pytest.mark.parametrize(
    "text",
    ["No hay ninguna conexión activa.", "Zugriff verweigert", "服务返回格式异常", "'x1' ne ressemble pas à un identifiant", "A task requires a project. Please specify project."],
)
def test_unmet_need_wording_is_failure_text(text: str) -> None:
    """Each class of UNMET_NEED_WORDING makes a short message a failure (rules.text.is_failure_text)."""
    from mcp_lint.rules.text import is_failure_text

    assert any(words.search(text) for words in v.UNMET_NEED_WORDING)
    assert is_failure_text(text)


def test_every_class_is_tested() -> None:
    """A new class of the vocabulary gets its table here."""
    tested = {n for n, _, _ in SEARCHED + MATCHED + WORDS} | {
        "TIMED_OUT",
        "FAILURE_WORD_IN_OTHER_LANGUAGES",
        "FAILED_IN_OTHER_LANGUAGES",
        "STATUS_PHRASES",
        "SERVICE_ROLE_SUFFIX",
        "PROBE_WORDS",
        "_HINT_KEY_STEMS",  # test_is_hint_key
        "_KEY_WORD",  # test_is_hint_key
        "UNMET_NEED_WORDING",  # test_unmet_need_wording_is_failure_text
    }
    classes = {n for n in vars(v) if n.isupper()}
    assert classes - tested == set()


def test_every_class_says_what_it_decides() -> None:
    """Each class is followed by a docstring in the module (a string statement right after it)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(v))
    body = tree.body
    undocumented = []
    for i, node in enumerate(body):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id.isupper():
            after = body[i + 1] if i + 1 < len(body) else None
            if not (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
                undocumented.append(node.targets[0].id)
    assert undocumented == []


@pytest.mark.parametrize(
    ("key", "holds_advice"),
    [
        ("hint", True),
        ("suggestion", True),
        ("suggested_action", True),
        ("troubleshooting", True),
        ("troubleshootingSteps", True),
        ("recommendations", True),
        ("action", False),
        ("status", False),
        ("details", False),
        ("error", False),
    ],
)
def test_is_hint_key(key: str, holds_advice: bool) -> None:
    from mcp_lint.vocabulary import is_hint_key

    assert is_hint_key(key) is holds_advice


def test_hint_keys_in_takes_the_named_keys_first_then_the_rest_as_written() -> None:
    from mcp_lint.vocabulary import hint_keys_in

    assert hint_keys_in(["error", "troubleshooting", "suggested_action", "hint"]) == ["hint", "troubleshooting", "suggested_action"]


@pytest.mark.parametrize(
    ("key", "verdict"),
    [("verified", True), ("is_valid", True), ("isValid", True), ("signature_valid", True), ("authorized", True),
     ("valid_values", False), ("allowed_values", False), ("success", False), ("ok", False), ("error", False)],
)
def test_is_verdict_key(key: str, verdict: bool) -> None:
    """A result key whose boolean answers a question about the input: its last word decides."""
    assert v.is_verdict_key(key) is verdict
