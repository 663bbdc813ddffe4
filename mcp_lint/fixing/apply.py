"""Applying fixes, independent of any rule: edits to text, compatible fixes, a loop to a fixed point.

Rules describe a fix as edits at 1-based (row, column) positions of the text they linted. One pass
applies every applicable fix that does not collide with another; the text is then linted again,
because a fix can enable, change or remove other findings, until no fix applies.
"""

from __future__ import annotations

import difflib
import io
from dataclasses import dataclass, field
from typing import Callable, Sequence

import libcst

from mcp_lint.fileio import dominant_newline
from mcp_lint.findings import Applicability, Edit, Finding, Location
from mcp_lint.fixing.unused_imports import drop_unused_imports
from mcp_lint.lazy_re import lazy_compile

_LINE_BREAK = lazy_compile(r"\r\n|\r|\n")


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Return ``text`` with every edit applied; all positions refer to the original ``text``.

    Columns count characters (code points); a line ends at "\\n", "\\r\\n" or "\\r". A position may
    be anywhere from the first column of a line to just before its line break; the end of the text
    is the last line's last column (or column 1 of the row after a final line break).
    Raises ValueError for a position outside the text, an edit that ends before it starts and for
    overlapping edits (two insertions at the same point overlap: their order would be arbitrary).
    """
    index = _PositionIndex(text)
    ordered = sorted(edits, key=lambda edit: (edit.location, edit.end_location))
    spans = [(index.offset(edit.location), index.offset(edit.end_location), edit) for edit in ordered]
    for start, end, edit in spans:
        if end < start:
            raise ValueError(f"edit {_span(edit)} ends before it starts")
    # Sorted by start, no pair overlaps if no neighbours do: each edit ends before the next begins.
    for before, after in zip(ordered, ordered[1:]):
        if _overlap(before, after):
            raise ValueError(f"overlapping edits at {_span(before)} and {_span(after)}")

    # Equivalent to applying them right to left on the original: every slice is of `text` itself.
    pieces: list[str] = []
    cursor = 0
    for start, end, edit in spans:
        pieces.append(text[cursor:start])
        pieces.append(edit.content)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def select_fixes(findings: Sequence[Finding], *, unsafe: bool) -> list[Finding]:
    """The findings whose fixes one pass applies: applicable ones, in source order, minus collisions.

    Safe fixes always apply, unsafe ones only with ``unsafe``, display-only ones never. A fix whose
    edits overlap those of an earlier chosen fix waits for the next pass, where it is re-derived
    from the fixed text.
    """
    tiers = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    candidates = [
        finding
        for finding in findings
        # A fix without edits can change nothing; choosing it would only stall the loop.
        if finding.fix is not None and finding.fix.edits and finding.fix.applicability in tiers
    ]
    candidates.sort(key=lambda finding: (_first_position(finding), finding.location, finding.code))
    chosen: list[Finding] = []
    taken: list[Edit] = []
    for finding in candidates:
        # An edit an earlier chosen fix already makes (the same import, the same rewrite of a
        # statement two rules flag) is applied once: it collides with nothing.
        fresh = [edit for edit in _edits(finding) if edit not in taken]
        if any(_overlap(edit, other) for edit in fresh for other in taken):
            continue
        chosen.append(finding)
        taken.extend(fresh)
    return chosen


def chosen_edits(chosen: Sequence[Finding]) -> list[Edit]:
    """The edits of the chosen fixes, each distinct edit once (see select_fixes)."""
    edits: list[Edit] = []
    for finding in chosen:
        edits.extend(edit for edit in _edits(finding) if edit not in edits)
    return edits


@dataclass
class FixOutcome:
    original: str
    # Equal to `original` when nothing was fixed or when fixing failed (nothing is half-applied).
    fixed: str
    # The applied fixes' findings, as reported in the pass that applied them; empty on failure.
    applied: list[Finding]
    # The findings of `fixed`.
    remaining: list[Finding]
    # Why fixing was abandoned, for the user; None on success.
    error: str | None = None
    # Findings whose fix would leave the text as it is (a rewrite to the same words): not applied,
    # still in `remaining`; the other fixes of the file go in without them.
    unapplied: list[Finding] = field(default_factory=list)
    # The pass (1-based) that applied each of `applied`, in the same order: a later pass's fix
    # lints code no one saw before fixing, so the report says which pass applied what.
    passes: list[int] = field(default_factory=list)


def fix_source(
    text: str,
    lint: Callable[[str], list[Finding]],
    *,
    unsafe: bool,
    max_passes: int = 10,
    parse_check: Callable[[str], None] | None = None,
    first: list[Finding] | None = None,
) -> FixOutcome:
    """Lint and fix ``text`` repeatedly until no applicable fix is left.

    ``parse_check`` raises when a text is not valid Python (default: libcst's parser). When a pass
    produces unparsable code, its edits cannot be applied, ``lint`` raises on a fixed text, or the
    fixes keep changing the text after ``max_passes`` passes (or bring back an earlier text), the
    whole file is left as it was. A fix that would change nothing (its edits write what is there)
    is left out and reported in ``unapplied``: the file's other fixes still go in. Rules write line
    breaks in edits as "\\n"; they are written with the file's own line ending, so a "\\r\\n" file
    stays "\\r\\n" throughout. ``first``: the findings of ``text`` as the caller already has them
    (the whole project's link, which the help shown to the user came from), used for the first
    pass instead of linting ``text`` again in a narrower scope that could render another fix.
    """
    check = parse_check if parse_check is not None else _parse_with_libcst
    newline = dominant_newline(text)
    current = text
    findings = original_findings = first if first is not None else lint(text)
    applied: list[Finding] = []
    passes: list[int] = []
    unapplied: list[Finding] = []
    # Texts already produced: seeing one again means the fixes cycle and can never converge.
    seen = {text}
    pass_number = 0
    while True:
        idle = [finding for finding in findings if _changes_nothing(current, finding)]
        if idle:
            # Applied, it would leave the text as it is, and be chosen again in every pass.
            unapplied = idle
            findings_to_fix = [finding for finding in findings if finding not in idle]
        else:
            findings_to_fix = findings
        chosen = select_fixes(findings_to_fix, unsafe=unsafe)
        if not chosen:
            return FixOutcome(original=text, fixed=current, applied=applied, remaining=findings, unapplied=unapplied, passes=passes)
        pass_number += 1
        if pass_number > max_passes:
            return _failed(text, original_findings, f"fixes did not converge after {max_passes} passes")

        where = f"pass {pass_number}: {', '.join(sorted({finding.code for finding in chosen}))}"
        try:
            edits = [_with_newline(edit, newline) for edit in chosen_edits(chosen)]
            fixed = apply_edits(current, edits)
            # In the same pass: the imports the fixes so far left without a use go too.
            cleanup = [_with_newline(edit, newline) for edit in drop_unused_imports(text, fixed)]
            fixed = apply_edits(fixed, cleanup)
        except ValueError as exc:
            return _failed(text, original_findings, f"fix could not be applied ({where}): {exc}")
        try:
            check(fixed)
        except Exception:
            # Any exception: a parser may fail in ways other than its syntax error class.
            return _failed(text, original_findings, f"fix produced code that does not parse ({where})")
        if fixed == current:
            return _failed(text, original_findings, f"fix changed nothing ({where})")
        if fixed in seen:
            reason = f"fixes did not converge ({where} restored an earlier text)"
            return _failed(text, original_findings, reason)
        seen.add(fixed)
        applied.extend(chosen)
        passes.extend([pass_number] * len(chosen))
        current = fixed
        try:
            findings = lint(current)
        except Exception as exc:  # noqa: BLE001 - a crash on the fixed text must not write it
            reason = f"the fixed code could not be linted again ({where}): {exc}"
            return _failed(text, original_findings, reason)


def _changes_nothing(text: str, finding: Finding) -> bool:
    """Does the finding's fix (when it has one) write exactly what `text` already holds?"""
    edits = _edits(finding)
    if not edits:
        return False
    try:
        return apply_edits(text, edits) == text
    except ValueError:
        return False  # a malformed fix is reported where the pass applies it


def _failed(text: str, findings: list[Finding], reason: str) -> FixOutcome:
    # All or nothing: a file is never left with only some passes applied.
    return FixOutcome(original=text, fixed=text, applied=[], remaining=findings, error=reason)


def unified_diff(filename: str, before: str, after: str) -> str:
    """A unified diff with "--- a/FILE" / "+++ b/FILE" headers; "" when the texts are equal.

    Every output line ends with "\\n" whatever the file's line endings, so "\\r\\n" files print
    cleanly; a last line without a line break is marked as git and GNU diff do.
    """
    lines = difflib.unified_diff(
        _split_lines(before), _split_lines(after), f"a/{filename}", f"b/{filename}", lineterm=""
    )
    output = []
    for number, line in enumerate(lines):
        # The two file headers and the "@@" hunk headers carry no line ending (lineterm="");
        # content lines keep the file's own, which is dropped here.
        if number < 2 or line.startswith("@@"):
            output.append(line)
            continue
        visible = line.rstrip("\r\n")
        output.append(visible)
        if visible == line:
            output.append("\\ No newline at end of file")
    return "".join(line + "\n" for line in output)


class _PositionIndex:
    """Offsets of 1-based (row, column) positions in one text."""

    def __init__(self, text: str) -> None:
        lines = _split_lines(text)
        # After a final line break (or in an empty text) there is one more, empty, row to point at.
        if not lines or lines[-1].endswith(("\n", "\r")):
            lines.append("")
        self._starts: list[int] = []
        self._lengths: list[int] = []
        offset = 0
        for line in lines:
            self._starts.append(offset)
            self._lengths.append(len(line.rstrip("\r\n")))
            offset += len(line)

    def offset(self, location: Location) -> int:
        row, column = location.row, location.column
        if not 1 <= row <= len(self._starts) or not 1 <= column <= self._lengths[row - 1] + 1:
            raise ValueError(f"position {row}:{column} is outside the text")
        return self._starts[row - 1] + column - 1


def _split_lines(text: str) -> list[str]:
    # Only "\n", "\r\n" and "\r" end a line, as for Python's tokenizer and hence libcst's positions.
    # str.splitlines() would also split at "\f", "\v", "\x1c"-"\x1e", "\x85", "\u2028" and "\u2029",
    # which are legal inside Python source, and shift every row after them.
    return io.StringIO(text, newline="").readlines()


def _overlap(a: Edit, b: Edit) -> bool:
    if a.location == a.end_location and b.location == b.end_location:
        return a.location == b.location
    # Half-open ranges: touching at a boundary (including an insertion at either end) is fine.
    return a.location < b.end_location and b.location < a.end_location


def _with_newline(edit: Edit, newline: str) -> Edit:
    if newline == "\n" and "\r" not in edit.content:
        return edit
    return Edit(edit.location, edit.end_location, _LINE_BREAK.sub(newline, edit.content))


def _edits(finding: Finding) -> tuple[Edit, ...]:
    return finding.fix.edits if finding.fix is not None else ()


def _first_position(finding: Finding) -> Location:
    return min(edit.location for edit in _edits(finding))


def _span(edit: Edit) -> str:
    start, end = edit.location, edit.end_location
    return f"{start.row}:{start.column}-{end.row}:{end.column}"


def _parse_with_libcst(text: str) -> None:
    libcst.parse_module(text)
