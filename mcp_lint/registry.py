"""Metadata of every rule: the single place that knows ids, names and one-line summaries.

Kept free of libcst imports so that `mcp-lint rule`, the output formats and `--version` stay cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RuleInfo:
    code: str
    name: str
    summary: str
    # "always", "sometimes" or "none": whether findings of this rule carry a fix.
    fix_availability: str
    # Tier of the fix when there is one ("safe", "unsafe", "display-only"); "" when none.
    fix_applicability: str
    frameworks: tuple[str, ...]
    # Rules that are off unless selected explicitly (e.g. MCP100).
    default_enabled: bool = True


ALL_FRAMEWORKS = ("mcp 1.x", "mcp 2.x", "mcp 1.x low-level", "mcp 2.x low-level", "fastmcp 2.x", "fastmcp 3.x", "fastmcp 4.x")

RULES: tuple[RuleInfo, ...] = (
    RuleInfo(
        "MCP000",
        "unreadable-file",
        "A file could not be read or parsed, so nothing in it was checked.",
        "none",
        "",
        (),
    ),
    RuleInfo(
        "MCP001",
        "protocol-error-in-tool",
        "A tool handler raises or returns a JSON-RPC protocol error for a failure of its own execution.",
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
    ),
    RuleInfo(
        "MCP002",
        "raw-exception-text",
        "A caught exception's own text flows into model-facing text.",
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
    ),
    RuleInfo(
        "MCP003",
        "vague-error-message",
        "A model-facing failure message gives the model nothing to act on.",
        "always",
        "display-only",
        ALL_FRAMEWORKS,
    ),
    RuleInfo(
        "MCP004",
        "mutation-before-validation",
        "A tool mutates state before a later check that rejects the call.",
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
    ),
    RuleInfo(
        "MCP005",
        "error-returned-as-success",
        "A tool reports a failure through a normal result, so the wire says isError: false.",
        "sometimes",
        "unsafe",
        ALL_FRAMEWORKS,
    ),
    RuleInfo(
        "MCP008",
        "message-lost-under-masking",
        "A tool relies on a plain exception's text reaching the model where the framework masks it.",
        "sometimes",
        "safe",
        ("mcp 2.x", "fastmcp 2.x", "fastmcp 3.x", "fastmcp 4.x"),
    ),
    RuleInfo(
        "MCP009",
        "error-middleware-hides-tool-errors",
        "fastmcp's ErrorHandlingMiddleware turns the failures of a server's tools into protocol errors.",
        "always",
        "unsafe",
        ("fastmcp 2.x", "fastmcp 3.x", "fastmcp 4.x"),
    ),
    RuleInfo(
        "MCP100",
        "unused-noqa",
        "A `# noqa: MCPxxx` comment suppresses nothing.",
        "always",
        "safe",
        (),
        default_enabled=False,
    ),
)

_BY_CODE = {rule.code: rule for rule in RULES}
# Rules that read the syntax tree (mcp_lint/rules/); MCP000 and MCP100 come from the driver.
TREE_RULE_CODES = ("MCP001", "MCP002", "MCP003", "MCP004", "MCP005", "MCP008", "MCP009")


def get_rule(code: str) -> RuleInfo | None:
    return _BY_CODE.get(code.upper())


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


