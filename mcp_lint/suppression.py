"""What the user turned off, applied to the linked findings: rule selection and per-file-ignores
(settings), `# noqa` comments, and MCP100 for a `# noqa: MCPxxx` that suppressed nothing.

After the link step, because only then is every finding known: whether a noqa comment is used
depends on findings that the tools of other modules cause.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from mcp_lint.findings import Finding, Location
from mcp_lint.noqa import comment_tokens, is_suppressed, unused_noqa_fix

if TYPE_CHECKING:
    from mcp_lint.config import SettingsResolver
    from mcp_lint.per_file import FileOutcome

__all__ = ["suppress"]


def suppress(raw: Sequence[Finding], outcomes: Sequence[FileOutcome], resolver: SettingsResolver) -> list[Finding]:
    """The findings of `raw` that are enabled and not suppressed, plus MCP100 findings, sorted."""
    by_file = {o.display: o for o in outcomes}
    kept: list[Finding] = []
    used: dict[str, set[tuple[int, str]]] = {}
    honour_noqa = not getattr(resolver, "ignore_noqa", False)
    for finding in raw:
        outcome = by_file.get(finding.filename)
        settings = resolver.for_path(Path(finding.filename))
        if not settings.is_enabled(finding.code, Path(finding.filename)):
            continue
        summary = outcome.summary if outcome is not None else None
        if honour_noqa and summary is not None and finding.code != "MCP000":
            row = is_suppressed(finding.code, finding.statement_rows, summary.noqa, summary.file_noqa, summary.has_file_noqa)
            if row is not None:
                used.setdefault(finding.filename, set()).add((row, finding.code))
                continue
        if finding.fix is not None and not settings.is_fixable(finding.code):
            finding = dataclasses.replace(finding, fix=None)  # `unfixable`: neither offered nor applied
        kept.append(finding)
    if honour_noqa:  # with every comment ignored, none is "unused"
        kept.extend(_unused_noqa(outcomes, used, resolver))
    kept.sort(key=Finding.sort_key)
    return kept


def _unused_noqa(outcomes: Sequence[FileOutcome], used: dict[str, set[tuple[int, str]]], resolver: SettingsResolver) -> list[Finding]:
    """MCP100: `# noqa: MCPxxx` comments that suppressed nothing (only when selected)."""
    out: list[Finding] = []
    for outcome in outcomes:
        summary = outcome.summary
        if summary is None or outcome.source is None:
            continue
        settings = resolver.for_path(Path(outcome.display))
        if not settings.is_enabled("MCP100", Path(outcome.display)):
            continue
        # Split like the tokenizer (\n, \r\n, \r only) so rows match; a form feed is not a line break.
        lines = outcome.source.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        comment_columns = {tok.start[0]: tok.start[1] for tok in comment_tokens(outcome.source.text)}
        hits = used.get(outcome.display, set())
        for row, codes in sorted(summary.noqa.items()):
            if codes is None:
                continue  # a bare noqa directive may serve other linters
            mcp_codes = sorted(c for c in codes if c.startswith("MCP"))
            unused = [c for c in mcp_codes if (row, c) not in hits]
            if not unused:
                continue
            line = lines[row - 1] if row - 1 < len(lines) else ""
            comment_column = comment_columns.get(row, 0)
            fix = unused_noqa_fix(line, row, comment_column, codes, set(unused))
            column = comment_column + 1
            out.append(
                Finding(
                    code="MCP100",
                    message=f"Unused `noqa` directive for {', '.join(unused)}",
                    filename=outcome.display,
                    location=Location(row, column),
                    end_location=Location(row, len(line) + 1),
                    fix=fix if settings.is_fixable("MCP100") else None,
                    context="",
                    statement=line.strip(),
                    statement_rows=(row, row),
                )
            )
    return out
