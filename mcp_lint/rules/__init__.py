"""The rules, one module each, named after their id (mcp001_protocol_error_in_tool.py...)."""

from __future__ import annotations

from functools import lru_cache

from mcp_lint.rules.base import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    from mcp_lint.rules.mcp001_protocol_error_in_tool import ProtocolErrorInTool
    from mcp_lint.rules.mcp002_raw_exception_text import RawExceptionText
    from mcp_lint.rules.mcp003_vague_error_message import VagueErrorMessage
    from mcp_lint.rules.mcp004_mutation_before_validation import MutationBeforeValidation
    from mcp_lint.rules.mcp005_error_returned_as_success import ErrorReturnedAsSuccess

    return (
        ProtocolErrorInTool(),
        RawExceptionText(),
        VagueErrorMessage(),
        MutationBeforeValidation(),
        ErrorReturnedAsSuccess(),
    )


def rule_by_code(code: str) -> Rule | None:
    for rule in all_rules():
        if rule.code == code:
            return rule
    return None
