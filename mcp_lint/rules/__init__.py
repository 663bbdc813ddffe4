"""The rules, one module each, named after their id (mcp001_protocol_error_in_tool.py...)."""

from __future__ import annotations

from functools import lru_cache

from mcp_lint.rules.base import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    from mcp_lint.rules.mcp001_protocol_error_in_tool import ProtocolErrorInTool

    rules: list[Rule] = [ProtocolErrorInTool()]
    for module, cls in (
        ("mcp002_raw_exception_text", "RawExceptionText"),
        ("mcp003_vague_error_message", "VagueErrorMessage"),
        ("mcp004_mutation_before_validation", "MutationBeforeValidation"),
        ("mcp005_error_returned_as_success", "ErrorReturnedAsSuccess"),
    ):
        try:
            imported = __import__(f"mcp_lint.rules.{module}", fromlist=[cls])
        except ModuleNotFoundError:
            continue
        rules.append(getattr(imported, cls)())
    return tuple(rules)


def rule_by_code(code: str) -> Rule | None:
    for rule in all_rules():
        if rule.code == code:
            return rule
    return None
