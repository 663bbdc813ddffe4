#!/usr/bin/env python3
"""Write a generated project with a fix in every tool module, for timing `--fix`.

    python bench/fix_project.py DEST N      # N tool modules (and N // 4 shared helper modules)

One package `app`: `server.py` makes the server, each `tools_<i>.py` registers a tool on it that
reports a missing record as a normal result (MCP005, an unsafe fix), and every fourth tool calls a
helper of a shared `store_<k>.py` (one per four tools) that does the same (fixed in the helper, with the framework of the
tools that reach it). bench/run.py's `--fix` row and tests/test_fix_scaling.py use it: the files to
fix grow with N, so the time per fixed file must not.
"""

from __future__ import annotations

import sys
from pathlib import Path

PYPROJECT = '[project]\nname = "app"\nversion = "0.1.0"\ndependencies = ["mcp>=1.9,<2"]\n'
SERVER = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("generated")\n'
TOOL = '''\
"""Tools of group {i}."""

from app.server import mcp
from app.store_{k} import load_{k}

RECORDS_{i}: dict[str, str] = {{}}


@mcp.tool()
def delete_record_{i}(record_id: str) -> str:
    if record_id not in RECORDS_{i}:
        return f"Error: record {{record_id}} not found"
    del RECORDS_{i}[record_id]
    return "deleted"
'''
# Every fourth tool also reads through the shared helper.
TOOL_READING = '''

@mcp.tool()
def read_record_{i}(record_id: str) -> str:
    return load_{k}(record_id)
'''
STORE = '''\
"""Storage shared by a few tool modules."""

ITEMS_{k}: dict[str, str] = {{}}


def load_{k}(item_id: str) -> str:
    if item_id not in ITEMS_{k}:
        return f"Error: no item {{item_id}}"
    return ITEMS_{k}[item_id]
'''


def generate(dest: Path, tools: int) -> list[Path]:
    """Write the project under `dest` (created); the files that have a fix, sorted."""
    package = dest / "app"
    package.mkdir(parents=True, exist_ok=True)
    (dest / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "server.py").write_text(SERVER, encoding="utf-8")
    stores = max(1, tools // 4)
    fixed: list[Path] = []
    for k in range(stores):
        path = package / f"store_{k}.py"
        path.write_text(STORE.format(k=k), encoding="utf-8")
        fixed.append(path)
    for i in range(tools):
        k = (i // 4) % stores  # tools 4k..4k+3 import store k; tool 4k reads through it
        text = TOOL.format(i=i, k=k) + (TOOL_READING.format(i=i, k=k) if i % 4 == 0 else "")
        path = package / f"tools_{i}.py"
        path.write_text(text, encoding="utf-8")
        fixed.append(path)
    return sorted(fixed)


if __name__ == "__main__":
    generate(Path(sys.argv[1]), int(sys.argv[2]))
