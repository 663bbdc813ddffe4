"""The values every stage of mcp-lint passes around: findings, fixes and their locations.

They are plain frozen dataclasses so that they pickle (process pool, cache) and compare by value
(tests, "identical with and without cache").
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from mcp_lint.lazy_re import lazy_compile

DOCS_URL = "https://github.com/mcp-lint/mcp-lint/blob/main/rules/{code}.md"
# A finding reads at a glance (issue 24): its help is one line of at most this many characters.
HELP_MAX = 100


@dataclass(frozen=True, order=True)
class Location:
    """A position in a file: 1-based row, 1-based column (as ruff reports them)."""

    row: int
    column: int


class Applicability(str, enum.Enum):
    """How trustworthy a fix is; decides which flag applies it."""

    SAFE = "safe"  # keeps the behaviour the user meant: applied by --fix
    UNSAFE = "unsafe"  # changes runtime behaviour: needs --fix --unsafe-fixes
    DISPLAY_ONLY = "display-only"  # a suggestion, never applied


@dataclass(frozen=True, order=True)
class Edit:
    """Replace the text between ``location`` and ``end_location`` (exclusive) by ``content``."""

    location: Location
    end_location: Location
    content: str


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True, order=True)
class Related:
    """Another place that belongs to a finding's evidence: a statement of the same flow, a tool
    that reaches the flagged helper, a call the finding is about (SARIF's relatedLocations)."""

    filename: str
    location: Location
    end_location: Location
    message: str


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    filename: str
    location: Location
    end_location: Location
    fix: Fix | None = None
    # Name of the enclosing function (tool or helper); used by baselines, which must not key on
    # line numbers.
    context: str = ""
    # Whitespace-normalised source of the flagged statement, hashed by baselines.
    statement: str = ""
    # Suppression: every line of the flagged statement may carry the suppression comment.
    statement_rows: tuple[int, int] = field(default=(0, 0))
    # The fix in one line (ruff's fix title; rendered as `help:`), empty when there is none to say.
    help: str = ""
    # The evidence, one claim each (which framework release decided, what the model sees).
    notes: tuple[str, ...] = ()
    # The other statements of the flow, the tools that reach a helper.
    related: tuple[Related, ...] = ()

    @property
    def url(self) -> str | None:
        return DOCS_URL.format(code=self.code)  # every rule has its page, MCP000 too

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.filename, self.location.row, self.location.column, self.code, self.message)


def help_for(help_text: str, fix: Fix | None) -> str:
    """A finding's `help`: the title of its fix when that fits one line (ruff shows the fix title
    as help), its quote cut shorter when only that makes it fit (the help is the edit applied:
    `Raise X("...") from e; let ApiError through`), else the rule's own advice."""
    if fix is None or not fix.message or "\n" in fix.message:
        return help_text
    if len(fix.message) <= HELP_MAX:
        return fix.message
    return _title_cut(fix.message) or help_text


# A fix title's quoted call: what comes before its first `(`, the quote (shortest), and after the
# `)` closing it whatever else the title says, whose own parentheses pair up (`let (A, B) through`).
_TITLE = lazy_compile(r"^(.*?\()(.*?)(\)(?:[^()]|\([^()]*\))*)$", re.S)


def _title_cut(title: str) -> str | None:
    """`title` with its quoted call's argument cut (at a word, marked with an ellipsis) so the
    whole fits HELP_MAX; None when no quote can be cut enough to say something."""
    match = _TITLE.match(title)
    if match is None:
        return None
    head, quote, tail = match.groups()
    core = quote.removesuffix("…")
    room = HELP_MAX - len(head) - len(tail) - 1  # the ellipsis
    if room < 16 or len(core) <= room:
        return None
    cut = core[:room]
    space = cut.rfind(" ")
    if space > room * 2 // 3:
        cut = cut[:space]
    return f"{head}{cut.rstrip()}…{tail}"
