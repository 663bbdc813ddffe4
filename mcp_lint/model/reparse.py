"""Parsing a module again after an edit, reusing the top-level statements whose text did not change.

An editor re-lints a module at every pause in typing, and an edit changes one statement of it: the
parse of the rest (a sixth of the analysis of a large module) is the same work again. libcst has
no incremental parser, but a top-level statement parses alone exactly as in its module: it starts
at column 0, and the blank and comment lines before it are its `leading_lines` whether it is parsed
alone (they are the module's `header` then, moved back) or in the module. So the module is cut
into pieces, one per top-level statement (`ast`, which the analysis has anyway, says where each
starts and ends), each piece parsed alone unless the same text was parsed recently, and the
module is put together from the pieces' statements.

The cut is made only where libcst's ownership of lines is certain: every line between two
statements blank or a comment at column 0 (an indented one, or a line of spaces, belongs to the
block above in libcst), and no statement ending in a line continuation. The module's default
indentation and newline come from its first indented block and its first line break, as libcst
detects them; a piece whose own would differ (nodes spell out what differs from the default) is
not used. Any doubt, and the module is parsed whole: the tree is always libcst's.

Off unless `enable` was called (`mcp-lint server`): a run that parses each file once would only
pay for the memory.
"""

from __future__ import annotations

import ast
from collections import deque
from typing import Callable

import libcst as cst

from mcp_lint.lazy_re import lazy_compile

__all__ = ["enable", "reparse"]

_LINE_BREAK = lazy_compile(r"\r\n|\r|\n")


class _Pieces:
    """The parsed pieces of the last few modules parsed, by their text."""

    def __init__(self, modules: int) -> None:
        self.by_text: dict[str, cst.Module] = {}
        self.recent: deque[list[str]] = deque(maxlen=modules)

    def parse(self, texts: list[str], parse: Callable[[str], cst.Module]) -> list[cst.Module]:
        pieces = []
        for text in texts:
            piece = self.by_text.get(text)
            if piece is None:
                piece = parse(text)
            pieces.append(piece)
        dropped = self.recent[0] if len(self.recent) == self.recent.maxlen else []
        self.recent.append(texts)
        for text, piece in zip(texts, pieces):
            self.by_text[text] = piece
        if dropped:
            kept = {text for used in self.recent for text in used}
            for text in dropped:
                if text not in kept:
                    self.by_text.pop(text, None)
        return pieces


_pieces: _Pieces | None = None


def enable(modules: int = 4) -> None:
    """Keep the pieces of the last `modules` modules parsed for the next parse of each."""
    global _pieces
    _pieces = _Pieces(modules)


def reparse(source: str, tree: ast.Module | None, parse: Callable[[str], cst.Module]) -> cst.Module | None:
    """`source`'s module, from pieces parsed by `parse` (reused when their text was parsed
    recently); None when reuse is off or the module cannot be cut safely (parse it whole)."""
    if _pieces is None or tree is None or not tree.body:
        return None
    texts = _piece_texts(source, tree)
    if texts is None:
        return None
    try:
        pieces = _pieces.parse(texts, parse)
    except Exception:  # noqa: BLE001 - a piece libcst refuses alone: the whole module decides
        return None
    return _assembled(pieces, texts[-1])


def _piece_texts(source: str, tree: ast.Module) -> list[str] | None:
    """The source cut before each top-level statement's leading lines (the first piece from the
    start of the file, the last to its end); None where a cut would be in doubt."""
    starts = [0, *(match.end() for match in _LINE_BREAK.finditer(source))]
    lines = len(starts)

    def offset(line: int) -> int:  # where 1-based `line` starts; the end for the line after the last
        return starts[line - 1] if line <= lines else len(source)

    spans: list[list[int]] = []
    for statement in tree.body:
        first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
        last = statement.end_lineno or statement.lineno
        if spans and first <= spans[-1][1]:  # `a = 1; b = 2`: one line, one piece
            spans[-1][1] = max(spans[-1][1], last)
        else:
            spans.append([first, last])
    texts = []
    previous = 0
    for index, (first, last) in enumerate(spans):
        for line in range(previous + 1, first):
            text = source[offset(line) : offset(line + 1)].rstrip("\r\n")
            if text and not text.startswith("#"):
                return None  # indented: libcst may give it to the block above
        end = len(source) if index == len(spans) - 1 else offset(last + 1)
        text = source[offset(previous + 1) : end]
        if index < len(spans) - 1 and text.rstrip("\r\n").endswith("\\"):
            return None  # a line continuation joins the next line to this statement
        texts.append(text)
        previous = last
    return texts


def _assembled(pieces: list[cst.Module], last_text: str) -> cst.Module | None:
    first, last = pieces[0], pieces[-1]
    indented = [piece for piece in pieces if any(_has_block(statement) for statement in piece.body)]
    indent = indented[0].default_indent if indented else first.default_indent
    body: list[cst.BaseStatement] = []
    for index, piece in enumerate(pieces):
        if not piece.body or (piece is not last and piece.footer):
            return None  # the cut was not where a statement starts and ends
        if piece.default_indent != indent and piece in indented:
            return None
        if piece.default_newline != first.default_newline and piece is not last:
            return None
        statements = list(piece.body)
        if index and piece.header:
            # Alone, a statement's leading lines are the piece's header; in the module, its own.
            head = statements[0]
            statements[0] = head.with_changes(leading_lines=(*piece.header, *head.leading_lines))
        body.extend(statements)
    # The last piece's line breaks are read in its text: libcst's code of a piece can leave one
    # out (a comment ending in a backslash before the last `\r\n`) while its tree keeps it.
    if last.default_newline != first.default_newline and _LINE_BREAK.search(last_text):
        return None
    return cst.Module(
        body=body,
        header=first.header,
        footer=last.footer,
        encoding=first.encoding,
        default_indent=indent,
        default_newline=first.default_newline,
        has_trailing_newline=last.has_trailing_newline,
    )


def _has_block(statement: cst.CSTNode) -> bool:
    """Whether a top-level statement has an indented block (where libcst detects the module's
    indentation): one-line suites (`if x: pass`) cannot hold one."""
    if type(statement) is cst.SimpleStatementLine:
        return False
    if type(statement) is cst.Match:
        return True
    suites = [getattr(statement, "body", None)]
    orelse = getattr(statement, "orelse", None)
    while orelse is not None:
        suites.append(orelse.body)
        orelse = getattr(orelse, "orelse", None) if type(orelse) is cst.If else None
    suites.extend(handler.body for handler in getattr(statement, "handlers", ()))
    finalbody = getattr(statement, "finalbody", None)
    if finalbody is not None:
        suites.append(finalbody.body)
    return any(type(suite) is cst.IndentedBlock for suite in suites)
