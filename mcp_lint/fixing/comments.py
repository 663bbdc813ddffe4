"""The author's comments inside a statement a fix rewrites, kept on the rewritten line.

A fix replaces a statement's text from its first to its last token; a comment written inside it
(`return {\\n    "error": "..."  # noqa: E501\\n}`) is part of that text and would go with it. A
maintainer keeps the author's comment (a `noqa`, `type: ignore`, `pragma: no cover`, a note), so
every fix puts the comments of the text it replaces, when its new text lacks them, at the end
of the new statement. A comment after the statement's last token is outside the replaced text
and stays where it is.
"""

from __future__ import annotations

import io
import tokenize

from mcp_lint.findings import Edit, Location

# A comment inside a statement spanning several lines: (row, 1-based column, the statement's end
# row, 1-based column just after its last token, the comment's text).
InnerComment = tuple[int, int, int, int, str]


def inner_comments(source: str) -> tuple[InnerComment, ...]:
    """The comments written inside a logical line, before its last physical line."""
    if "#" not in source:
        return ()
    found: list[InnerComment] = []
    pending: list[tuple[int, int, str]] = []  # comments of the logical line read so far
    last_end: tuple[int, int] | None = None  # the end of its last code token
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                pending.append((token.start[0], token.start[1] + 1, token.string))
            elif token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if last_end is not None:
                    end_row, end_column = last_end
                    found.extend((row, column, end_row, end_column + 1, text) for row, column, text in pending if row < end_row)
                pending, last_end = [], None
            elif token.type not in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT):
                last_end = token.end
            elif token.type == tokenize.NL and last_end is None:
                pending = []  # a comment on a line of its own, between statements
    except (tokenize.TokenError, SyntaxError):
        return tuple(found)
    return tuple(found)


def keep_comments(edit: Edit, comments: tuple[InnerComment, ...]) -> Edit:
    """`edit` with the comments of the statement text it replaces up to the statement's end
    appended to its new text, when that text does not already hold them."""
    if not comments or not edit.content or edit.end_location <= edit.location:
        return edit
    lost = [
        text
        for row, column, end_row, end_column, text in comments
        if edit.location <= Location(row, column) < edit.end_location and edit.end_location >= Location(end_row, end_column) and text not in edit.content
    ]
    if not lost:
        return edit
    content = edit.content
    body = content.rstrip("\r\n")
    return Edit(edit.location, edit.end_location, f"{body}  {'  '.join(lost)}{content[len(body):]}")
