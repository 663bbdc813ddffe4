"""The model package stays split by concern: each module says what it is for. (That its modules
import each other without a cycle, deferred and TYPE_CHECKING imports included, is checked for
the whole package by tests/test_import_graph.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import mcp_lint.model

MODEL_DIR = Path(mcp_lint.model.__file__).parent


def test_every_model_module_says_what_it_is_for() -> None:
    missing = [
        path.name
        for path in sorted(MODEL_DIR.glob("*.py"))
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert missing == []
