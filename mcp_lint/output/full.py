"""`full`: each finding with the source around it and the span underlined, like ruff's default.

```
server.py:12:9: MCP001 Tool 'read_note' raises McpError for an empty argument
   |
10 |     if not name:
11 |         log.warning("empty name")
12 |         raise McpError(ErrorData(code=INVALID_PARAMS, message="bad name"))
   |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
13 |     try:
   |
   = help: Raise ToolError instead
   = note: on mcp 1.x FastMCP (from pyproject.toml) the model gets 'Error executing tool ...'
  ::: tools.py:4:5: tool 'read_note' reaches this helper
   |
 4 | def read_note(name: str) -> str:
   |     ^^^^^^^^^
   |
```
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence, TextIO

import unicodedata

from mcp_lint.findings import Finding, Location, Related
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.output import ReportOptions, finding_help, is_fixable

# Lines shown above and below the flagged line.
CONTEXT_LINES = 2
# Tabs are shown as spaces so that the underline lines up with the text above it whatever the
# terminal's tab stops; 4 matches the indentation width of most Python code.
TAB_WIDTH = 4
# At most this many characters of a source line are shown (a minified or generated line can be
# megabytes long); a cut is marked with an ellipsis, and the flagged span stays in view.
MAX_LINE = 200
# How much of the line before the flagged span stays in view when the line is cut on the left.
_LEAD = 40
# Never wrap: a wrapped source line would break the underline's alignment.
_CONSOLE_WIDTH = 1 << 16

_GUTTER = "bold blue"
_CODE = "bold red"
_UNDERLINE = "bold red"
_FIX_MARKER = "bold cyan"
_HELP = "bold cyan"
_NOTE = "bold"

# Python's own line breaks. str.splitlines() also splits at form feeds and other separators that
# the tokenizer treats as ordinary characters, which would shift every row after them.
_LINE_BREAK = lazy_compile(r"\r\n|\r|\n")
# Control characters of a linted file (an ESC in a string literal, say) must not reach the
# terminal as control sequences; each becomes one replacement character so columns still line up.
_CONTROL_CHARACTERS = {
    code: "\N{REPLACEMENT CHARACTER}" for code in [*range(0x20), 0x7F] if chr(code) not in "\t\n"
}


class PlainText:
    """The few `rich.text.Text` operations this writer uses, without styles.

    Without colour (pipes, CI logs, files) rich would only concatenate strings; importing it
    costs more than a one-file lint, so the plain path never does.
    """

    def __init__(self, text: str = "", style: str | None = None) -> None:
        self.plain = text

    @classmethod
    def assemble(cls, *parts: object) -> PlainText:
        assembled = cls()
        for part in parts:
            assembled.append(part[0] if isinstance(part, tuple) else part)  # type: ignore[index]
        return assembled

    def append(self, text: object, style: str | None = None) -> PlainText:
        self.plain += text.plain if isinstance(text, PlainText) else str(text)
        return self


class _PlainConsole:
    def __init__(self, out: TextIO) -> None:
        self.out = out

    def print(self, text: PlainText | None = None) -> None:
        self.out.write((text.plain if text is not None else "") + "\n")


def cell_len(text: str) -> int:
    """Terminal cells `text` takes: wide (CJK, emoji) characters two, combining marks none."""
    if text.isascii():
        return len(text)
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text
    )


Text = PlainText


def write(findings: Sequence[Finding], out: TextIO, options: ReportOptions) -> None:
    global Text
    if not options.color:
        Text = PlainText
        console = _PlainConsole(out)
        _write_all(findings, console, options)
        return
    from rich.console import Console
    from rich.text import Text as RichText

    Text = RichText  # type: ignore[misc]
    try:
        _write_rich(findings, out, options, Console)
    finally:
        Text = PlainText


def _write_rich(findings: Sequence[Finding], out: TextIO, options: ReportOptions, Console) -> None:  # noqa: N803
    console = Console(
        file=out,
        force_terminal=options.color,
        no_color=not options.color,
        # Only the 16 standard colours are used; naming the system keeps the output identical
        # whatever TERM and COLORTERM claim.
        color_system="standard" if options.color else None,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
        width=_CONSOLE_WIDTH,
        legacy_windows=False,
    )
    _write_all(findings, console, options)


def _write_all(findings: Sequence[Finding], console, options: ReportOptions) -> None:  # type: ignore[no-untyped-def]
    lines_of = _SourceLines(options.read_source)
    for index, finding in enumerate(findings):
        if index:
            console.print()
        source_lines = lines_of(finding.filename)
        marker = options.show_fixes_hint and is_fixable(finding, options)
        for text in render(finding, source_lines, show_fix_marker=marker, lines_of=lines_of):
            console.print(text)


def render(
    finding: Finding, source_lines: Sequence[str] | None, *, show_fix_marker: bool, lines_of: Callable[[str], Sequence[str] | None] | None = None
) -> Iterator[Text]:
    """The lines that show one finding: header, source excerpt (when available), `help:` and
    `note:` lines, then each related location with its own excerpt (`lines_of` reads the other
    files; without it only the location is named)."""
    yield _header(finding, show_fix_marker=show_fix_marker)
    lead = ""
    # One gutter for the whole finding (rustc's), so its related frames line up with the first.
    related_rows = [related.location.row for related in finding.related]
    gutter_width = len(str(max([finding.location.row, *related_rows])))
    if source_lines is not None and 1 <= finding.location.row <= len(source_lines):
        first, last = _context_window(source_lines, finding.location.row)
        gutter_width = max(gutter_width, len(str(last)))
        yield from _excerpt(finding.location, finding.end_location, source_lines, first, last, gutter_width)
        # Under an excerpt help and notes hang off the gutter, their `=` below the `|`.
        lead = " " * gutter_width + " = "
    help_text = finding_help(finding)
    if help_text:
        yield Text.assemble(lead, ("help", _HELP), ": ", _printable(help_text))
    for note in finding.notes:
        yield Text.assemble(lead, ("note", _NOTE), ": ", _printable(note))
    for related in finding.related:
        yield from _related(related, lines_of, gutter_width)


def _related(related: Related, lines_of: Callable[[str], Sequence[str] | None] | None, gutter_width: int) -> Iterator[Text]:
    """`  ::: path:row:col: message` and the related row, underlined (rustc's secondary frame)."""
    lines = lines_of(related.filename) if lines_of is not None else None
    row = related.location.row
    yield Text.assemble(
        " " * gutter_width, (" ::: ", _GUTTER), (related.filename, "bold"), f":{row}:{related.location.column}: ", _printable(related.message)
    )
    if lines is not None and 1 <= row <= len(lines):
        yield from _excerpt(related.location, related.end_location, lines, row, row, gutter_width)


def _header(finding: Finding, *, show_fix_marker: bool) -> Text:
    header = Text.assemble(
        (finding.filename, "bold"),
        f":{finding.location.row}:{finding.location.column}: ",
        (finding.code, _CODE),
        " ",
    )
    if show_fix_marker:
        header.append("[*]", _FIX_MARKER)
        header.append(" ")
    header.append(_printable(finding.message))
    return header


def _excerpt(
    location: Location, end_location: Location, source_lines: Sequence[str], first: int, last: int, gutter_width: int
) -> Iterator[Text]:
    """Rows ``first``..``last`` behind a gutter of row numbers, the span's row underlined."""

    def gutter(label: str = "") -> Text:
        return Text(f"{label:>{gutter_width}} |", style=_GUTTER)

    yield gutter()
    # One window for every row, so the rows around the flagged one stay aligned with it.
    start = location.column - 1
    lo = max(0, start - _LEAD) if start + 1 > MAX_LINE - _LEAD else 0
    for number in range(first, last + 1):
        line = _printable(source_lines[number - 1])
        cut = _window(line, lo)
        shown = cut.expandtabs(TAB_WIDTH).rstrip()
        yield Text.assemble(gutter(str(number)), " " if shown else "", shown)
        if number == location.row:
            offset, width = _underline(line, location, end_location, lo)
            yield Text.assemble(gutter(), " ", " " * offset, ("^" * width, _UNDERLINE))
    yield gutter()


def _window(line: str, lo: int) -> str:
    """At most MAX_LINE characters of `line` from `lo`, an ellipsis marking each cut."""
    if len(line.rstrip()) <= MAX_LINE and lo == 0:
        return line
    body = line[lo : lo + MAX_LINE]
    return ("…" if lo else "") + body + ("…" if len(line.rstrip()) > lo + MAX_LINE else "")


def _context_window(source_lines: Sequence[str], row: int) -> tuple[int, int]:
    """Up to CONTEXT_LINES around ``row``, without blank lines at either edge."""
    first = max(1, row - CONTEXT_LINES)
    last = min(len(source_lines), row + CONTEXT_LINES)
    while first < row and not source_lines[first - 1].strip():
        first += 1
    while last > row and not source_lines[last - 1].strip():
        last -= 1
    return first, last


def _underline(line: str, location: Location, end_location: Location, lo: int = 0) -> tuple[int, int]:
    """Start (in terminal cells) and width of the underline of the finding's span on ``line``.

    A span that continues on later lines is underlined to the end of its first line; an empty
    span still gets one caret. Widths are measured in terminal cells after tab expansion, so tabs
    and wide (CJK, emoji) characters before or inside the span keep it aligned.
    """
    start = location.column - 1
    if end_location.row == location.row:
        end = max(end_location.column - 1, start)
    else:
        end = len(line.rstrip())
    if lo or len(line.rstrip()) > MAX_LINE:  # a cut line: measure within the window shown
        visible = _window(line, lo)
        head = 1 if lo else 0  # the leading ellipsis
        start = head + start - lo
        end = min(head + end - lo, head + MAX_LINE)
        line = visible
    offset = cell_len(line[:start].expandtabs(TAB_WIDTH))
    # Expanding the longer prefix (not the span alone) keeps tab stops inside the span right.
    width = cell_len(line[:end].expandtabs(TAB_WIDTH)) - offset
    return offset, max(width, 1)


def _printable(text: str) -> str:
    return text.translate(_CONTROL_CHARACTERS)


class _SourceLines:
    """Each file's lines, read once however many findings it has."""

    def __init__(self, read_source: Callable[[str], str | None]) -> None:
        self._read_source = read_source
        self._lines: dict[str, list[str] | None] = {}

    def __call__(self, filename: str) -> list[str] | None:
        if filename not in self._lines:
            source = self._read_source(filename)
            self._lines[filename] = None if source is None else _LINE_BREAK.split(source)
        return self._lines[filename]
