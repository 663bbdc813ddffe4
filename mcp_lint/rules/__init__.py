"""The rules, one module each, named after their id (mcp001_protocol_error_in_tool.py...).

A rule's module is imported only when its code is enabled somewhere in the run: `--select MCP002`
loads one rule, not five.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rule modules (and libcst) load only when a rule runs
    from mcp_lint.rules.base import Rule

# code -> (module, class); the single list of rules the analysis runs (registry.TREE_RULE_CODES).
RULE_CLASSES: dict[str, tuple[str, str]] = {
    "MCP001": ("mcp001_protocol_error_in_tool", "ProtocolErrorInTool"),
    "MCP002": ("mcp002_raw_exception_text", "RawExceptionText"),
    "MCP003": ("mcp003_vague_error_message", "VagueErrorMessage"),
    "MCP004": ("mcp004_mutation_before_validation", "MutationBeforeValidation"),
    "MCP005": ("mcp005_error_returned_as_success", "ErrorReturnedAsSuccess"),
    "MCP008": ("mcp008_message_lost_under_masking", "MessageLostUnderMasking"),
    "MCP009": ("mcp009_error_middleware_hides_tool_errors", "ErrorMiddlewareHidesToolErrors"),
}


@lru_cache(maxsize=None)
def all_rules(codes: frozenset[str] | None = None) -> tuple[Rule, ...]:
    """The rules to run: those in `codes`, or every rule when `codes` is None."""
    rules = []
    for code, (module, cls) in RULE_CLASSES.items():
        if codes is None or code in codes:
            rules.append(getattr(importlib.import_module(f"{__name__}.{module}"), cls)())
    return tuple(rules)


def rule_by_code(code: str) -> Rule | None:
    entry = RULE_CLASSES.get(code)
    if entry is None:
        return None
    return all_rules(frozenset({code}))[0]
