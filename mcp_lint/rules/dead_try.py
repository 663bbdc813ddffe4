"""A `try` left doing nothing once its only clause re-raises (review 16, dead code).

mcp 1.x's low-level dispatcher `try: <dispatch> except Exception as e: return
[TextContent(text=f"Error: {e}")]`: the fix re-raises (the server sends the exception's text
with isError: true). Replacing the clause's return with a bare `raise` leaves `try: ... except
Exception: raise` around the whole dispatcher, a handler that does nothing (pylint
try-except-raise); a maintainer deletes the try/except and dedents its body. A clause that also
logs or does anything else keeps its `try` (its work stays; the bare `raise` ends it).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.findings import Edit, Location
from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.walk import descendants
from mcp_lint.rules.base import FileContext


def unwrapped_try(handler: Handler, replaced: cst.CSTNode, ctx: FileContext) -> Edit | None:
    """The edit replacing the whole `try` statement by its body, one level out, when the
    clause's one statement is `replaced` (the return the fix turns into `raise`), the clause is
    the `try`'s only one and it has no `else`/`finally`; None otherwise, or where an edit of the
    text could lose a comment or change a string (a comment on the `try`/`except` lines, a
    string spanning lines)."""
    try_node, clause = handler.try_node, handler.node
    if type(try_node) is not cst.Try or len(try_node.handlers) != 1 or try_node.orelse is not None or try_node.finalbody is not None:
        return None
    if type(clause.body) is not cst.IndentedBlock or type(try_node.body) is not cst.IndentedBlock:
        return None
    statements = clause.body.body
    if len(statements) != 1 or type(statements[0]) is not cst.SimpleStatementLine or list(statements[0].body) != [replaced]:
        return None
    if _commented(try_node, clause) or any(_spans_lines(n) for n in descendants(try_node.body)):
        return None
    module = ctx.module
    body = cst.Module(body=list(try_node.body.body), default_indent=module.default_indent, default_newline=module.default_newline).code
    where = ctx.range(try_node)
    indent = ctx.lines[where.start.line - 1][: where.start.column]
    if indent.strip():
        return None  # `try` after other code on its line
    lines = body.rstrip("\r\n").split(module.default_newline)
    text = module.default_newline.join([lines[0], *(indent + line if line.strip() else "" for line in lines[1:])])
    end = ctx.range(clause)
    return Edit(Location(where.start.line, where.start.column + 1), Location(end.end.line, end.end.column + 1), text)


def _commented(try_node: cst.Try, clause: cst.ExceptHandler) -> bool:
    """A comment the unwrapped text would not carry: on the `try:` or `except` line, before
    the `except`, in the clause, or after the `try` body's last statement."""
    lines = [*clause.leading_lines, *try_node.body.footer, *clause.body.footer]
    if any(line.comment is not None for line in lines):
        return True
    if try_node.body.header.comment is not None or clause.body.header.comment is not None:
        return True
    return any(type(n) is cst.Comment for n in descendants(clause))


def _spans_lines(node: cst.CSTNode) -> bool:
    if type(node) is cst.SimpleString:
        return "\n" in node.value
    if type(node) is cst.FormattedStringText:
        return "\n" in node.value
    return False
