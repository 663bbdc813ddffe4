"""The engine serves every rule and knows none: no rule code appears in its modules."""

from __future__ import annotations

import re
from pathlib import Path

import mcp_lint.engine


def test_engine_never_names_a_rule_code() -> None:
    package = Path(mcp_lint.engine.__file__).parent
    offenders = [
        f"{path.name}:{number}"
        for path in sorted(package.glob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bMCP\d{3}\b", line)
    ]
    assert offenders == []
