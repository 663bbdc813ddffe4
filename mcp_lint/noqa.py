"""`# noqa` comments: per line (`# noqa`, `# noqa: MCP001,MCP003`) and per file (`# mcp-lint: noqa`)."""

from __future__ import annotations

import io
import re
import tokenize

_LINE = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_FILE = re.compile(r"#\s*mcp-lint\s*:\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)


def _codes(text: str | None) -> frozenset[str] | None:
    if not text:
        return None
    return frozenset(c.upper() for c in re.split(r"[\s,]+", text.strip()) if c)


def comments(source: str) -> list[tuple[int, int, str]]:
    """(row, column, text) of every comment; tokenize keeps `# noqa` inside strings out."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                out.append((tok.start[0], tok.start[1], tok.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


def parse_noqa(source: str) -> tuple[dict[int, frozenset[str] | None], frozenset[str] | None, bool]:
    """Line directives (row -> codes, None = all), file codes (None = all) and whether a file
    directive exists."""
    lines: dict[int, frozenset[str] | None] = {}
    file_codes: set[str] = set()
    file_all = False
    has_file = False
    for row, _col, text in comments(source):
        file_match = _FILE.search(text)
        if file_match:
            has_file = True
            codes = _codes(file_match.group("codes"))
            if codes is None:
                file_all = True
            else:
                file_codes |= codes
            continue
        match = _LINE.search(text)
        if match:
            lines[row] = _codes(match.group("codes"))
    return lines, (None if file_all else frozenset(file_codes)), has_file


def is_suppressed(
    code: str, rows: tuple[int, int], lines: dict[int, frozenset[str] | None], file_codes: frozenset[str] | None, has_file: bool
) -> int | None:
    """The row of the directive that suppresses `code` on the statement spanning `rows` (0 = file)."""
    if has_file and (file_codes is None or code in file_codes):
        return 0
    first, last = rows
    for row in range(first, last + 1):
        if row in lines:
            codes = lines[row]
            if codes is None or code in codes:
                return row
    return None
