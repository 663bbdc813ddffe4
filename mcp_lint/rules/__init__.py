"""The rules, one module each, named after their id (mcp001_protocol_error_in_tool.py...).

Which rules exist, and which class implements each, is written only in `mcp_lint.registry.RULES`.
A rule's module is imported only when its code is enabled somewhere in the run: `--select MCP002`
loads one rule, not five.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from mcp_lint import registry

if TYPE_CHECKING:  # the rule modules (and libcst) load only when a rule runs
    from mcp_lint.rules.base import Rule


# The rule instances per selection, for the `registry.RULES` they were made from: asked for once
# per analysed file and once per finding rendered, so a lookup must cost a dict access.
_loaded: dict[frozenset[str] | None, tuple[Rule, ...]] = {}
_loaded_from: tuple[registry.RuleInfo, ...] = ()


def all_rules(codes: frozenset[str] | None = None) -> tuple[Rule, ...]:
    """The rules to run: those in `codes`, or every rule when `codes` is None."""
    global _loaded_from
    if _loaded_from is not registry.RULES:  # a test registered a rule: start afresh
        _loaded.clear()
        _loaded_from = registry.RULES
    rules = _loaded.get(codes)
    if rules is None:
        rules = _loaded[codes] = tuple(
            rule_class(info)() for info in registry.tree_rules() if codes is None or info.code in codes
        )
    return rules


def rule_class(info: registry.RuleInfo) -> type[Rule]:
    """The class a record names ("package.module:Class")."""
    module, _, name = info.implementation.partition(":")
    cls: type[Rule] = getattr(importlib.import_module(module), name)
    return cls


def rule_by_code(code: str) -> Rule | None:
    info = registry.get_rule(code)
    if info is None or not info.implementation:
        return None
    return all_rules(frozenset({info.code}))[0]
