"""The rule classes the registry names by import path (mcp_lint/registry.py loads them by that
string, so vulture sees no use of them), comma-separated for `vulture --ignore-names`: a new
rule needs its registry line, not a line in .ci/vulture_whitelist.py too."""

from __future__ import annotations

from mcp_lint.registry import RULES


def rule_classes() -> str:
    return ",".join(rule.implementation.rsplit(":", 1)[1] for rule in RULES if rule.implementation)


if __name__ == "__main__":
    print(rule_classes())
