"""`--add-noqa`: suppress every current finding with a `# noqa: MCPxxx` comment in the source.

A finding may be suppressed on any line of its statement (see `noqa.is_suppressed`). The comment goes
on the first of those lines that can end in a comment: not a line that ends inside a multi-line
string (the `#` would become part of the string) and not one continued by a backslash (a comment
there is a syntax error). An existing `# noqa: ...` on that line gets the new codes added; any other
comment is kept and the directive follows it.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from mcp_lint.fileio import SourceError, SourceFile, atomic_write
from mcp_lint.findings import Finding
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.noqa import file_directive, line_directive, parse_codes

# Unreadable files cannot be suppressed by a comment, and an unused-noqa finding is fixed by
# removing the comment, not by adding another one.
NOT_SUPPRESSIBLE = frozenset({"MCP000", "MCP100"})
# Rows as the tokenizer counts them (it reads lines split at "\n"; "\r\n" ends with one too).
_LINE = lazy_compile(r"[^\n]*\n|[^\n]+$")
# Strings that tokenize as one token per part on Python >= 3.12 (f-strings) and 3.14 (t-strings).
_STRING_STARTS = {getattr(tokenize, n) for n in ("FSTRING_START", "TSTRING_START") if hasattr(tokenize, n)}
_STRING_ENDS = {getattr(tokenize, n) for n in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, n)}


@dataclass
class AddNoqaReport:
    added: int = 0  # lines that got a new directive or new codes in an existing one
    unplaced: list[Finding] = field(default_factory=list)  # findings no comment can suppress
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Layout:
    """Where a comment may go in a source text: the rows that cannot end in a comment, and the
    comment token already on a row."""

    lines: list[str]  # with their line endings
    blocked: frozenset[int]
    comments: dict[int, tokenize.TokenInfo]


def _layout(text: str) -> _Layout | None:
    blocked: set[int] = set()
    comments: dict[int, tokenize.TokenInfo] = {}
    open_strings: list[int] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text, newline="").readline):
            if tok.type == tokenize.STRING:
                blocked.update(range(tok.start[0], tok.end[0]))
            elif tok.type in _STRING_STARTS:
                open_strings.append(tok.start[0])
            elif tok.type in _STRING_ENDS and open_strings:
                blocked.update(range(open_strings.pop(), tok.end[0]))
            elif tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = tok
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    lines = _LINE.findall(text)
    for row, line in enumerate(lines, start=1):
        # Outside strings and comments, a trailing backslash can only be a line continuation.
        if row not in comments and row not in blocked and line.rstrip("\r\n").endswith("\\"):
            blocked.add(row)
    return _Layout(lines, frozenset(blocked), comments)


def _target_row(finding: Finding, layout: _Layout) -> int | None:
    first, last = finding.statement_rows
    if first <= 0:
        first = last = finding.location.row
    for row in range(first, min(last, len(layout.lines)) + 1):
        if row in layout.blocked:
            continue
        comment = layout.comments.get(row)
        # An own-line `# mcp-lint: noqa` is a file directive; codes added after it would be lost.
        if comment is not None and file_directive().search(comment.string) and not comment.line[: comment.start[1]].strip():
            continue
        return row
    return None


def _with_codes(line: str, comment: tokenize.TokenInfo | None, codes: set[str]) -> str:
    """``line`` (with its line ending) carrying a directive for ``codes``."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    if comment is not None:
        start = comment.start[1]
        # The same precedence as `noqa.parse_noqa`: a trailing `# mcp-lint: noqa: ...` is this line's.
        match = file_directive().search(comment.string) or line_directive().search(comment.string)
        if match is not None:
            existing_text = match.group("codes")
            existing = parse_codes(existing_text)
            if existing is None:  # a bare noqa directive already suppresses every code
                return line
            missing = sorted(codes - existing)
            if not missing:
                return line
            # Keep the codes as the user wrote them (and any reason after them); append ours.
            end = start + match.end("codes")
            return body[:end] + ", " + ", ".join(missing) + body[end:] + ending
    return body.rstrip(" \t") + "  # noqa: " + ", ".join(sorted(codes)) + ending


def insert_noqa(text: str, findings: Sequence[Finding]) -> tuple[str, int, list[Finding]]:
    """``text`` with a directive for each of ``findings`` (all of one file), the number of lines
    changed, and the findings that no line of their statement can suppress."""
    layout = _layout(text)
    wanted: dict[int, set[str]] = {}
    unplaced: list[Finding] = []
    for finding in findings:
        row = None
        if layout is not None and finding.code not in NOT_SUPPRESSIBLE:
            row = _target_row(finding, layout)
        if row is None:
            unplaced.append(finding)
        else:
            wanted.setdefault(row, set()).add(finding.code)
    if layout is None or not wanted:
        return text, 0, unplaced
    lines = list(layout.lines)
    changed = 0
    for row, codes in wanted.items():
        new = _with_codes(lines[row - 1], layout.comments.get(row), codes)
        if new != lines[row - 1]:
            lines[row - 1] = new
            changed += 1
    return "".join(lines), changed, unplaced


def add_noqa(findings: Sequence[Finding], sources: Mapping[str, SourceFile]) -> AddNoqaReport:
    """Write directives for ``findings`` into their files; ``sources`` are the texts that were linted."""
    report = AddNoqaReport()
    by_file: dict[str, list[Finding]] = {}
    for finding in findings:
        by_file.setdefault(finding.filename, []).append(finding)
    for filename, file_findings in by_file.items():
        source = sources.get(filename)
        if source is None:
            report.unplaced.extend(file_findings)
            continue
        text, changed, unplaced = insert_noqa(source.text, file_findings)
        report.unplaced.extend(unplaced)
        if not changed:
            continue
        try:
            atomic_write(Path(filename), text, source.encoding)
        except SourceError as exc:
            report.errors.append(f"{filename}: could not add noqa directives: {exc}")
            report.unplaced.extend(f for f in file_findings if f not in unplaced)
            continue
        report.added += changed
    report.unplaced.sort(key=Finding.sort_key)
    return report
