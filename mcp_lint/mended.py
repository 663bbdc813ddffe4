"""Which findings `--fix` makes go, told before fixing: the one count that `check`'s "[*] N
fixable" and "N more fixes available", `--diff`'s "Would fix N" and `--fix`'s "N fixed" share.

A finding counts when its own fix applies under the run's flags, or when an applicable fix of
another finding in its file rewrites the whole of its span: one statement flagged by two rules
(the channel and the exception text of `return f"Error: {e}"`) is mended by one fix.
"""

from __future__ import annotations

from typing import Iterable

from mcp_lint.findings import Applicability, Edit, Finding


def applies(finding: Finding, unsafe: bool) -> bool:
    """Whether `--fix` (with `--unsafe-fixes` when `unsafe`) applies the finding's own fix."""
    if finding.fix is None or not finding.fix.edits:
        return False
    if finding.fix.applicability is Applicability.SAFE:
        return True
    return unsafe and finding.fix.applicability is Applicability.UNSAFE


def mended(findings: Iterable[Finding], unsafe: bool) -> list[Finding]:
    """The findings a fixing run with these flags mends, in their order."""
    listed = list(findings)
    rewrites: dict[str, list[Edit]] = {}
    for finding in listed:
        if applies(finding, unsafe):
            assert finding.fix is not None
            rewrites.setdefault(finding.filename, []).extend(e for e in finding.fix.edits if e.location < e.end_location)
    return [f for f in listed if applies(f, unsafe) or any(_covers(edit, f) for edit in rewrites.get(f.filename, ()))]


def _covers(edit: Edit, finding: Finding) -> bool:
    return edit.location <= finding.location and finding.end_location <= edit.end_location
