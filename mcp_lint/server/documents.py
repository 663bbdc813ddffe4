"""Positions between mcp-lint and the client.

mcp-lint counts 1-based rows (lines end at "\\n", "\\r\\n" or "\\r", as for Python's tokenizer:
a form feed inside a line does not end it) and 1-based columns in code points. LSP counts 0-based
lines and characters in the code units of the negotiated position encoding (UTF-16 unless the
client offers another).
"""

from __future__ import annotations

import io
from typing import Sequence

from lsprotocol import types

from mcp_lint.findings import Location


def split_lines(text: str) -> list[str]:
    """The lines of `text` with their line endings, split where Python's tokenizer splits."""
    return io.StringIO(text, newline="").readlines()


def _units(text: str, encoding: str) -> int:
    if encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class Lines:
    """One text's lines, for converting positions in both directions."""

    def __init__(self, text: str, encoding: str = types.PositionEncodingKind.Utf16) -> None:
        self.text = text
        self.encoding = encoding
        self.lines: Sequence[str] = split_lines(text)
        self._starts: list[int] = []
        offset = 0
        for line in self.lines:
            self._starts.append(offset)
            offset += len(line)

    def _content(self, index: int) -> str:
        return self.lines[index].rstrip("\r\n") if index < len(self.lines) else ""

    def position(self, location: Location) -> types.Position:
        """The client position of a 1-based (row, column) in code points."""
        line = max(location.row - 1, 0)
        if line >= len(self.lines):
            if self.lines and not self.lines[-1].endswith(("\n", "\r")):  # past the last line
                return types.Position(len(self.lines) - 1, _units(self.lines[-1], self.encoding))
            return types.Position(len(self.lines), 0)
        content = self._content(line)
        return types.Position(line, _units(content[: max(location.column - 1, 0)], self.encoding))

    def range(self, start: Location, end: Location) -> types.Range:
        return types.Range(self.position(start), self.position(end))

    def location(self, position: types.Position) -> Location:
        """The 1-based (row, column) in code points of a client position (clamped to the line)."""
        if position.line >= len(self.lines):
            if self.lines and not self.lines[-1].endswith(("\n", "\r")):
                return Location(len(self.lines), len(self._content(len(self.lines) - 1)) + 1)
            return Location(len(self.lines) + 1, 1)
        content = self._content(position.line)
        units = 0
        for index, char in enumerate(content):
            if units >= position.character:
                return Location(position.line + 1, index + 1)
            units += _units(char, self.encoding)
        return Location(position.line + 1, len(content) + 1)

    def offset(self, location: Location) -> int:
        """The index into the text of a 1-based (row, column)."""
        if location.row - 1 >= len(self.lines):
            return len(self.text)
        return self._starts[location.row - 1] + min(location.column - 1, len(self._content(location.row - 1)))

    def location_at(self, offset: int) -> Location:
        """The 1-based (row, column) of an index into the text."""
        import bisect

        if not self.lines:
            return Location(1, 1)
        index = bisect.bisect_right(self._starts, offset) - 1
        if offset >= len(self.text) and self.lines[-1].endswith(("\n", "\r")):
            return Location(len(self.lines) + 1, 1)
        return Location(index + 1, offset - self._starts[index] + 1)


def replacement(before: str, after: str, encoding: str) -> types.TextEdit | None:
    """One edit that turns `before` into `after`: the span between their common prefix and common
    suffix (None when they are equal). A fix's own edits plus the imports it left unused become one
    replacement the client applies atomically."""
    if before == after:
        return None
    start = 0
    limit = min(len(before), len(after))
    while start < limit and before[start] == after[start]:
        start += 1
    end_before, end_after = len(before), len(after)
    while end_before > start and end_after > start and before[end_before - 1] == after[end_after - 1]:
        end_before -= 1
        end_after -= 1
    # Never split a "\r\n" pair: the client's line arithmetic would see a lone "\r".
    if 0 < start < len(before) and before[start - 1] == "\r" and before[start] == "\n":
        start -= 1
    if 0 < end_before < len(before) and before[end_before - 1] == "\r" and before[end_before] == "\n":
        end_before += 1
        end_after += 1
    lines = Lines(before, encoding)
    span = lines.range(lines.location_at(start), lines.location_at(end_before))
    return types.TextEdit(span, after[start:end_after])
