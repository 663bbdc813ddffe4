"""Metadata of every rule: one record per rule, and the only list of rules there is.

A rule's record holds its code, name, summary, severity, fix availability and safety, frameworks,
whether it is on by default, and where its class lives. Everything else derives from it: the rule
set the analysis runs (`mcp_lint.rules`), config validation of codes, `mcp-lint rule`, the SARIF
rule descriptors and levels, the GitLab severities and the README's rules table. Adding a rule
therefore touches its module, its page in `rules/`, its tests and one entry of `RULES` below.

Kept free of libcst imports (a rule class is named by its import path, not imported) so that
`mcp-lint rule`, the output formats and `--version` stay cheap. Readers look `RULES` up when they
run, not when they are imported, so a test can register a rule by replacing the tuple.
"""

from __future__ import annotations

import enum
import re
import sys
from dataclasses import dataclass
from pathlib import Path


class Severity(enum.Enum):
    """How bad a finding of the rule is, on GitLab Code Quality's scale (the finer of the two
    report scales); SARIF's level derives from it."""

    BLOCKER = "blocker"  # the file was not checked at all
    MAJOR = "major"  # a defect: the model gets a failure on the wrong channel or with the wrong text
    MINOR = "minor"  # advice (wording) or hygiene (a stale suppression): nothing misbehaves

    @property
    def sarif_level(self) -> str:
        return "warning" if self is Severity.MINOR else "error"


@dataclass(frozen=True)
class RuleInfo:
    code: str
    name: str
    summary: str
    severity: Severity
    # "always", "sometimes" or "none": whether findings of this rule carry a fix.
    fix_availability: str
    # Tier of the fix when there is one ("safe", "unsafe", "display-only"); "" when none.
    fix_applicability: str
    frameworks: tuple[str, ...]
    # What the fix writes, in a few words (the README's rules table); "" when that says nothing.
    fix_summary: str = ""
    # Rules that are off unless selected explicitly (e.g. MCP100).
    default_enabled: bool = True
    # "package.module:Class" of the rule that reads the syntax tree (a `mcp_lint.rules.base.Rule`);
    # "" for the rules the driver reports itself (MCP000: unreadable file, MCP100: unused noqa).
    implementation: str = ""


ALL_FRAMEWORKS = ("mcp 1.x", "mcp 2.x", "mcp 1.x low-level", "mcp 2.x low-level", "fastmcp 2.x", "fastmcp 3.x", "fastmcp 4.x")
_PACKAGE = "mcp_lint.rules."  # where the rule modules live

RULES: tuple[RuleInfo, ...] = (
    RuleInfo(
        "MCP000",
        "unreadable-file",
        "A file could not be read or parsed, so nothing in it was checked.",
        Severity.BLOCKER,
        "none",
        "",
        (),
    ),
    RuleInfo(
        "MCP001",
        "protocol-error-in-tool",
        "A tool handler raises or returns a JSON-RPC protocol error for a failure of its own execution.",
        Severity.MAJOR,
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
        fix_summary="`raise ToolError(...)` / error result",
        implementation=_PACKAGE + "mcp001_protocol_error_in_tool:ProtocolErrorInTool",
    ),
    RuleInfo(
        "MCP002",
        "raw-exception-text",
        "A caught exception's own text flows into model-facing text.",
        Severity.MAJOR,
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
        fix_summary="log it, raise a curated message `from e`",
        implementation=_PACKAGE + "mcp002_raw_exception_text:RawExceptionText",
    ),
    RuleInfo(
        "MCP003",
        "vague-error-message",
        "A model-facing failure message gives the model nothing to act on.",
        Severity.MINOR,
        "always",
        "display-only",
        ALL_FRAMEWORKS,
        fix_summary="a message template",
        implementation=_PACKAGE + "mcp003_vague_error_message:VagueErrorMessage",
    ),
    RuleInfo(
        "MCP004",
        "mutation-before-validation",
        "A tool mutates state before a later check that rejects the call.",
        Severity.MAJOR,
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
        fix_summary="move the check up",
        implementation=_PACKAGE + "mcp004_mutation_before_validation:MutationBeforeValidation",
    ),
    RuleInfo(
        "MCP005",
        "error-returned-as-success",
        "A tool reports a failure through a normal result, so the wire says isError: false.",
        Severity.MAJOR,
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
        fix_summary="`raise ToolError(...)`",
        implementation=_PACKAGE + "mcp005_error_returned_as_success:ErrorReturnedAsSuccess",
    ),
    RuleInfo(
        "MCP006",
        "lost-error-flag",
        "An error result that the resolved framework version turns into a success or a crash.",
        Severity.MAJOR,
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
        fix_summary="spell the flag the version reads",
        implementation=_PACKAGE + "mcp006_lost_error_flag:LostErrorFlag",
    ),
    RuleInfo(
        "MCP007",
        "unmasked-error-details",
        "A server whose framework forwards the raw text of unexpected exceptions to the model.",
        Severity.MAJOR,
        "sometimes",
        "safe",
        ("mcp 1.x", "mcp 2.x", "fastmcp 2.x", "fastmcp 3.x", "fastmcp 4.x"),
        fix_summary="`mask_error_details=True` (fastmcp >= 2.5; unsafe beside MCP008 messages)",
        implementation=_PACKAGE + "mcp007_unmasked_error_details:UnmaskedErrorDetails",
    ),
    RuleInfo(
        "MCP008",
        "message-lost-under-masking",
        "A tool relies on a plain exception's text reaching the model where the framework masks it.",
        Severity.MAJOR,
        "sometimes",
        "safe",
        ("mcp 2.x", "fastmcp 2.x", "fastmcp 3.x", "fastmcp 4.x"),
        fix_summary="`raise ToolError(...)` with the same text (unsafe in a helper)",
        implementation=_PACKAGE + "mcp008_message_lost_under_masking:MessageLostUnderMasking",
    ),
    RuleInfo(
        "MCP009",
        "error-middleware-hides-tool-errors",
        "fastmcp's ErrorHandlingMiddleware turns the failures of a server's tools into protocol errors.",
        Severity.MAJOR,
        "always",
        "unsafe",
        ("fastmcp 2.x", "fastmcp 3.x", "fastmcp 4.x"),
        fix_summary="`transform_errors=False`",
        implementation=_PACKAGE + "mcp009_error_middleware_hides_tool_errors:ErrorMiddlewareHidesToolErrors",
    ),
    RuleInfo(
        "MCP010",
        "sensitive-detail-in-message",
        "A tool's failure text carries a secret or a detail of the server's infrastructure.",
        Severity.MAJOR,
        "none",
        "",
        ALL_FRAMEWORKS,
        default_enabled=False,
        implementation=_PACKAGE + "mcp010_sensitive_detail_in_message:SensitiveDetailInMessage",
    ),
    RuleInfo(
        "MCP011",
        "retry-invited-after-uncertain-mutation",
        "A failure invites a retry (or the code retries) after a write whose outcome is unknown.",
        Severity.MAJOR,
        "none",
        "",
        ALL_FRAMEWORKS,
        default_enabled=False,
        implementation=_PACKAGE + "mcp011_retry_invited_after_uncertain_mutation:RetryInvitedAfterUncertainMutation",
    ),
    RuleInfo(
        "MCP100",
        "unused-noqa",
        "A `# noqa: MCPxxx` comment suppresses nothing.",
        Severity.MINOR,
        "always",
        "safe",
        (),
        fix_summary="remove the code",
        default_enabled=False,
    ),
)

# (the RULES tuple indexed, the index): rebuilt when RULES is replaced.
_INDEX: tuple[tuple[RuleInfo, ...], dict[str, RuleInfo]] = ((), {})


def _by_code() -> dict[str, RuleInfo]:
    global _INDEX
    if _INDEX[0] is not RULES:
        _INDEX = (RULES, {rule.code: rule for rule in RULES})
    return _INDEX[1]


def tree_rules() -> tuple[RuleInfo, ...]:
    """The rules that read the syntax tree (a class in `implementation`), in code order."""
    return tuple(rule for rule in RULES if rule.implementation)


def get_rule(code: str) -> RuleInfo | None:
    return _by_code().get(code.upper())


def docs_dir() -> Path:
    """Where the rule pages live: inside the wheel, or the repository's `rules/` when editable."""
    packaged = Path(__file__).parent / "rule_docs"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rules"


def rule_doc(code: str) -> str | None:
    path = docs_dir() / f"{code.upper()}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


# --- the README's rules table -------------------------------------------------------------------

README_TABLE_START = "<!-- rules table: generated by `python -m mcp_lint.registry README.md`; do not edit -->"
README_TABLE_END = "<!-- end of rules table -->"


def readme_table() -> str:
    """The README's rules table, one row per record."""
    rows = [
        "| code | name | flags | severity | fix |",
        "|---|---|---|---|---|",
    ]
    for rule in RULES:
        flags = rule.summary + ("" if rule.default_enabled else " Off unless selected.")
        cells = (rule.code, rule.name, flags, rule.severity.value, _fix_cell(rule))
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows) + "\n"


def _fix_cell(rule: RuleInfo) -> str:
    if rule.fix_availability == "none":
        return "—"
    return f"{rule.fix_applicability}: {rule.fix_summary}" if rule.fix_summary else rule.fix_applicability


def with_readme_table(readme: str) -> str:
    """`readme` with the text between the table markers replaced by `readme_table()`."""
    pattern = re.compile(re.escape(README_TABLE_START) + r"\n.*?" + re.escape(README_TABLE_END), re.DOTALL)
    if not pattern.search(readme):
        raise ValueError(f"the README has no rules table markers ({README_TABLE_START} ... {README_TABLE_END})")
    table = f"{README_TABLE_START}\n{readme_table()}{README_TABLE_END}"
    return pattern.sub(lambda _: table, readme, count=1)


def _main(argv: list[str]) -> int:
    """`python -m mcp_lint.registry README.md`: rewrite the README's rules table from the records."""
    if len(argv) != 1:
        print("usage: python -m mcp_lint.registry README.md", file=sys.stderr)
        return 2
    path = Path(argv[0])
    text = path.read_text(encoding="utf-8")
    updated = with_readme_table(text)
    if updated != text:
        path.write_text(updated, encoding="utf-8")
        print(f"{path}: rules table updated")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
