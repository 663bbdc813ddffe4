"""`# noqa` comments: per line (`# noqa`, `# noqa: MCP001,MCP003`) and per file (`# mcp-lint: noqa`).

Only real comments count: the tokenizer keeps `# noqa` written inside a string literal out. A file
directive must be a comment on a line of its own (as flake8 requires for `# flake8: noqa`): written
after code, `# mcp-lint: noqa: MCP001` suppresses that line only, so a trailing comment can never
silence a whole file by accident.
"""

from __future__ import annotations

import functools
import io
import re
import tokenize
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp_lint.findings import Fix

# A code list is codes separated by commas and/or spaces; whatever follows it is a free-form reason.
CODE_LIST = r"[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*"


# Compiled on first use: most files have no `noqa` at all (`may_suppress` asks the text first),
# and compiling both costs a one-file run more than half a millisecond.
@functools.cache
def line_directive() -> re.Pattern[str]:
    """`# noqa` with an optional code list (`\b`: a word like noqanything is not a directive;
    without a code list every code is suppressed)."""
    return re.compile(rf"#\s*noqa\b(?::\s*(?P<codes>{CODE_LIST}))?", re.IGNORECASE)


@functools.cache
def file_directive() -> re.Pattern[str]:
    """`# mcp-lint: noqa` with an optional code list."""
    return re.compile(rf"#\s*mcp-lint\s*:\s*noqa\b(?::\s*(?P<codes>{CODE_LIST}))?", re.IGNORECASE)


def parse_codes(text: str | None) -> frozenset[str] | None:
    """The codes of a directive's code list, upper-cased; None for a directive without one."""
    if not text:
        return None
    return frozenset(c.upper() for c in re.split(r"[\s,]+", text.strip()) if c)


def may_suppress(source: str) -> bool:
    """Whether `source` may hold a directive that matters to mcp-lint: a file directive, or a line
    directive without codes or naming an MCP code. Read from the raw text, strings included, so it
    only ever says yes too often; then the tokenizer (a tenth of an analysis) decides which are
    real comments. `# noqa: E501`, the common case, suppresses nothing of ours."""
    lowered = source.lower()
    if "noqa" not in lowered:
        return False
    if "mcp-lint" in lowered and file_directive().search(source):
        return True
    for match in line_directive().finditer(source):
        codes = parse_codes(match.group("codes"))
        if codes is None or any(code.startswith("MCP") for code in codes):
            return True
    return False


def comment_tokens(source: str) -> list[tokenize.TokenInfo]:
    """Every comment token, in source order (`.line` is the physical line it is on).

    A file the tokenizer cannot finish (it is then also unparsable) keeps the comments before the
    failure.
    """
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source, newline="").readline):
            if tok.type == tokenize.COMMENT:
                out.append(tok)
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
    for tok in comment_tokens(source):
        row, column = tok.start
        file_match = file_directive().search(tok.string)
        if file_match:
            codes = parse_codes(file_match.group("codes"))
            if tok.line[:column].strip():
                lines[row] = codes  # after code: a directive for this line only
            elif codes is None:
                has_file = file_all = True
            else:
                has_file = True
                file_codes |= codes
            continue
        match = line_directive().search(tok.string)
        if match:
            lines[row] = parse_codes(match.group("codes"))
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


def unused_noqa_fix(line: str, row: int, comment_column: int, codes: frozenset[str], unused: set[str]) -> Fix | None:
    """MCP100's safe fix: drop the `unused` codes from the `# noqa: ...` directive of `line`, or
    the whole directive (and the blanks before it) when no code is left.

    Only the comment token, which starts at `comment_column`, is searched and edited: the same
    text inside a string literal earlier on the line (`return "ok # noqa: MCP001"`) is program
    data, and a fix that edited it would change what the program does.
    """
    from mcp_lint.findings import Applicability, Edit, Fix, Location  # noqa: F811 - at run time

    match = re.compile(rf"#\s*noqa:\s*{CODE_LIST}", re.IGNORECASE).search(line, comment_column)
    if match is None:
        return None
    remaining = [c for c in sorted(codes) if c not in unused]
    start, end = match.start(), match.end()
    if remaining:
        replacement = "# noqa: " + ", ".join(remaining)
    else:
        replacement = ""
        while start > comment_column and line[start - 1] in " \t":
            start -= 1  # blanks inside the comment, before the directive
        if start == comment_column:
            while start > 0 and line[start - 1] in " \t":
                start -= 1  # the directive was the whole comment: the blanks before it go too
    return Fix(
        Applicability.SAFE,
        "Remove the unused suppression",
        (Edit(Location(row, start + 1), Location(row, end + 1), replacement),),
    )
