"""The code actions for the findings of one document: the rule's fix (safe, or unsafe and titled
so), a `# noqa: MCPxxx` for the line, and `source.fixAll.mcp-lint`, every safe fix of the file
applied as `mcp-lint check --fix` applies them (the fix loop, to a fixed point).

An action is offered without its edit and computed when the client resolves it (or at once for a
client that cannot resolve): the fix loop lints the file again after every pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from lsprotocol import types

from mcp_lint.findings import Applicability, Edit, Finding, Location
from mcp_lint.lazy_re import lazy_compile

FIX_ALL = "source.fixAll.mcp-lint"
_LINE_BREAK = lazy_compile(r"\r\n|\r|\n")


@dataclass
class Snapshot:
    """A document as it was linted: its text and version, and the findings in it."""

    uri: str
    path: Path
    text: str
    version: int | None
    findings: list[Finding]


def _overlaps(finding: Finding, start: Location, end: Location) -> bool:
    return finding.location <= end and start <= finding.end_location


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Whether a client asking for `only` these kinds wants an action of `kind` (a kind includes
    its sub-kinds: `source` asks for `source.fixAll.mcp-lint`)."""
    return only is None or any(kind == asked or kind.startswith(asked + ".") for asked in only)


def fix_title(finding: Finding) -> str:
    """The fix in the rule's words (the finding's `help`, else the fix's message), with the code;
    an unsafe fix says so."""
    assert finding.fix is not None
    title = (finding.help or finding.fix.message).rstrip(".")
    unsafe = finding.fix.applicability is Applicability.UNSAFE
    return f"{title} ({finding.code}, unsafe fix: check the behaviour)" if unsafe else f"{title} ({finding.code})"


def offered(snapshot: Snapshot, start: Location, end: Location, only: Sequence[str] | None) -> list[types.CodeAction]:
    """The actions for the findings overlapping `start`-`end`, and the file's fix-all action,
    without their edits (`data` says how to compute them)."""
    from mcp_lint.add_noqa import NOT_SUPPRESSIBLE

    out: list[types.CodeAction] = []
    quick = _wanted(types.CodeActionKind.QuickFix, only)
    for index, finding in enumerate(snapshot.findings):
        if not quick or not _overlaps(finding, start, end):
            continue
        fix = finding.fix
        if fix is not None and fix.edits and fix.applicability in (Applicability.SAFE, Applicability.UNSAFE):
            out.append(_action(fix_title(finding), types.CodeActionKind.QuickFix, snapshot, "fix", index, fix.applicability is Applicability.SAFE))
        if finding.code not in NOT_SUPPRESSIBLE:
            title = f"Suppress {finding.code} on this line (# noqa: {finding.code})"
            out.append(_action(title, types.CodeActionKind.QuickFix, snapshot, "noqa", index, False))
    if _wanted(FIX_ALL, only) and any(_is_safe(f) for f in snapshot.findings):
        out.append(_action("Apply every safe mcp-lint fix in the file", FIX_ALL, snapshot, "fix-all", -1, False))
    return out


def _is_safe(finding: Finding) -> bool:
    return finding.fix is not None and bool(finding.fix.edits) and finding.fix.applicability is Applicability.SAFE


def _action(title: str, kind: str, snapshot: Snapshot, what: str, index: int, preferred: bool) -> types.CodeAction:
    data: dict[str, Any] = {"uri": snapshot.uri, "version": snapshot.version, "what": what}
    if index >= 0:
        data["finding"] = _identity(snapshot.findings[index])
    return types.CodeAction(title=title, kind=kind, is_preferred=preferred or None, data=data)


def _identity(finding: Finding) -> list[Any]:
    """What finds a finding again when the action is resolved: the document may have been linted
    again meanwhile (another file changed), with the same version but other findings."""
    start, end = finding.location, finding.end_location
    return [finding.code, start.row, start.column, end.row, end.column, finding.message]


def new_text(action_data: Any, snapshot: Snapshot, lint: Callable[[str], list[Finding]]) -> tuple[str | None, str | None]:
    """(the document's text after the action, why it cannot be applied)."""
    what = action_data.get("what")
    if what == "fix-all":
        from mcp_lint.fixing.apply import fix_source

        result = fix_source(snapshot.text, lint, unsafe=False)
        if result.error:
            return None, result.error
        return result.fixed, None
    finding = next((f for f in snapshot.findings if _identity(f) == action_data.get("finding")), None)
    if finding is None:
        return None, "the finding is gone"
    if what == "noqa":
        from mcp_lint.add_noqa import insert_noqa

        text, changed, _ = insert_noqa(snapshot.text, [finding])
        return (text, None) if changed else (None, "no line of the statement can hold a comment")
    if what == "fix" and finding.fix is not None:
        return _fixed(snapshot.text, finding)
    return None, "unknown action"


def _fixed(text: str, finding: Finding) -> tuple[str | None, str | None]:
    """The text with one finding's fix applied, as one pass of `--fix` applies it: its edits (line
    breaks as the file writes them), then the imports it left unused removed; None when the result
    would not parse."""
    import libcst

    from mcp_lint.fileio import dominant_newline
    from mcp_lint.fixing.apply import apply_edits, chosen_edits
    from mcp_lint.fixing.unused_imports import drop_unused_imports

    newline = dominant_newline(text)

    def written(edit: Edit) -> Edit:
        return Edit(edit.location, edit.end_location, _LINE_BREAK.sub(newline, edit.content))

    try:
        fixed = apply_edits(text, [written(edit) for edit in chosen_edits([finding])])
        fixed = apply_edits(fixed, [written(edit) for edit in drop_unused_imports(text, fixed)])
    except ValueError as exc:
        return None, f"the fix cannot be applied: {exc}"
    try:
        libcst.parse_module(fixed)
    except Exception:  # noqa: BLE001 - any parser failure: the fix must not be offered
        return None, "the fix would produce code that does not parse"
    return fixed, None
