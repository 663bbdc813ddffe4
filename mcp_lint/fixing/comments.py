"""The author's comments inside a statement a fix rewrites, kept on the rewritten line.

A fix replaces a statement's text from its first to its last token; a comment written inside it
(`return {\\n    "error": "..."  # noqa: E501\\n}`) is part of that text and would go with it. A
maintainer keeps the author's comment (a `noqa`, `type: ignore`, `pragma: no cover`, a note), so
every fix puts the comments of the text it replaces, when its new text lacks them, at the end
of the new statement. A comment after the statement's last token is outside the replaced text
and stays where it is.
"""

from __future__ import annotations

import ast
import bisect
import io
import tokenize
from typing import Iterator

from mcp_lint.findings import Edit, Location

# A comment inside a statement spanning several lines: (row, 1-based column, the statement's end
# row, 1-based column just after its last token, the comment's text).
InnerComment = tuple[int, int, int, int, str]
# Rows a logical line may go on over: (first row, last row, None) of a statement or decorator;
# (header's first row, its body's first row, that body's first statement) of a compound statement.
Span = tuple[int, int, "ast.stmt | None"]


def inner_comments(source: str, tree: ast.Module | None = None) -> tuple[InnerComment, ...]:
    """The comments written inside a logical line, before its last physical line.

    `tree` (CPython's, of `source`) tells which statements may hold one: those with a line holding
    a `#` where their logical line goes on to the next (`_holding_spans`). Only the rows of those
    statements (and of the statements sharing a row with them) are tokenized: tokenizing is the
    cost (Python's tokenizer, a few milliseconds a module, several percent of a run's analysis),
    and most modules with such a statement have a handful among hundreds."""
    if "#" not in source:
        return ()
    if tree is None or "\r" in source:
        return tuple(_scan(source)[0])
    lines = source.split("\n")
    spans = list(_continued_spans(tree))
    holding = _holding_spans(lines, spans)
    if not holding:
        return ()
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    found: list[InnerComment] = []
    for first, last in _fragments(spans, holding):
        # Whole rows, from a row where no logical line is under way (no statement spanning an
        # earlier row reaches it) to one where each logical line begun has ended.
        part, whole = _scan(source[offsets[first - 1] : offsets[last]], first - 1)
        if not whole:  # the tokenizer stopped: what it finds in the whole module is the answer
            return tuple(_scan(source)[0])
        found.extend(part)
    return tuple(found)


def _scan(text: str, rows_before: int = 0) -> tuple[list[InnerComment], bool]:
    """The inner comments of `text` (whole logical lines), its rows counted from `rows_before`,
    and whether the tokenizer read it to the end (what it found before an error otherwise)."""
    found: list[InnerComment] = []
    pending: list[tuple[int, int, str]] = []  # comments of the logical line read so far
    last_end: tuple[int, int] | None = None  # the end of its last code token
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                pending.append((token.start[0] + rows_before, token.start[1] + 1, token.string))
            elif token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                if last_end is not None:
                    end_row, end_column = last_end
                    found.extend((row, column, end_row, end_column + 1, comment) for row, column, comment in pending if row < end_row)
                pending, last_end = [], None
            elif token.type not in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT):
                last_end = (token.end[0] + rows_before, token.end[1])
            elif token.type == tokenize.NL and last_end is None:
                pending = []  # a comment on a line of its own, between statements
    except (tokenize.TokenError, SyntaxError):
        return found, False
    return found, True


def _fragments(spans: list[Span], holding: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The row ranges (first, last, inclusive) to tokenize: the spans sharing a row, chained,
    make ranges no logical line crosses (a header reaches its body's first row, whose statement
    is then in the range); those holding one of `holding` are kept, in source order."""
    merged: list[list[int]] = []
    for start, end, _ in sorted(spans, key=lambda span: span[:2]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    starts = [first for first, _ in merged]
    kept: dict[int, None] = {}
    for start, _ in holding:
        kept[bisect.bisect_right(starts, start) - 1] = None
    return [(merged[i][0], merged[i][1]) for i in sorted(kept)]


def _holding_spans(lines: list[str], spans: list[Span]) -> list[tuple[int, int]]:
    """The spans of `_continued_spans` where a line holding `#` lies where a logical line may go
    on to the next line: inside a statement over several lines or a decorator; inside a compound
    statement's header, before its body's first statement, unless only comment lines follow it
    there (the comment that opens a block: the header ended above it). They hold every line of
    the comments `inner_comments` finds (a `#` in a string only makes them tokenized)."""
    marked: list[int] = []  # rows holding a `#`
    code: list[int] = []  # rows holding something else than a comment
    for row, line in enumerate(lines, 1):
        text = line.strip()
        if "#" in line:
            marked.append(row)
        if text and not text.startswith("#"):
            code.append(row)
    holding: list[tuple[int, int]] = []
    for start, end, first in spans:
        index = bisect.bisect_left(marked, start)
        while index < len(marked) and marked[index] < end:
            row = marked[index]
            if first is None or not lines[row - 1].lstrip().startswith("#"):
                holding.append((start, end))
                break
            # A comment line in a header: the header goes on past it only if code follows
            # before the body (or on the body's row, when the body shares the header's last row).
            before_body = lines[first.lineno - 1].encode("utf-8", "surrogatepass")[: first.col_offset]
            limit = first.lineno if not before_body.strip() else first.lineno + 1
            after = bisect.bisect_right(code, row)
            if after < len(code) and code[after] < limit:
                holding.append((start, end))
                break
            index += 1
    return holding


def _continued_spans(tree: ast.Module) -> Iterator[Span]:
    """(first row, row after the last, None) of each statement and decorator, and (header's
    first row, its body's first row, that body's first statement) of each compound statement."""
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Match):
            yield node.lineno, node.cases[0].pattern.lineno, None
            for case in node.cases:
                yield case.pattern.lineno, case.body[0].lineno, None
                stack.extend(case.body)
            continue
        body = getattr(node, "body", None)
        if not isinstance(body, list):  # a simple statement
            yield node.lineno, node.end_lineno or node.lineno, None
            continue
        yield node.lineno, body[0].lineno, body[0]
        for decorator in getattr(node, "decorator_list", ()):
            yield decorator.lineno, decorator.end_lineno or decorator.lineno, None
        stack.extend(body)
        stack.extend(getattr(node, "orelse", ()))
        stack.extend(getattr(node, "finalbody", ()))
        for handler in getattr(node, "handlers", ()):
            yield handler.lineno, handler.body[0].lineno, handler.body[0]
            stack.extend(handler.body)


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
