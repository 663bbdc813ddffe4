"""bench/run.py's bound: libcst's parse of exactly the files a cold run analyses, in its workers."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

from script_support import load_script

def _bench() -> ModuleType:
    return load_script("bench/run.py", "bench_run")


def _project(root: Path) -> None:
    files = {
        "server.py": """
            from mcp.server.fastmcp import FastMCP

            from helpers import load_note

            mcp = FastMCP("notes")


            @mcp.tool()
            def read_note(note_id: str) -> str:
                return load_note(note_id)
            """,
        "helpers.py": """
            def load_note(note_id: str) -> str:
                try:
                    return open(note_id).read()
                except OSError as exc:
                    return f"Error: {exc}"
            """,
        "build_docs.py": """
            import sys

            print(sys.argv)
            """,
    }
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def test_the_bound_parses_the_files_the_cold_run_analyses_and_no_other(tmp_path: Path) -> None:
    bench = _bench()
    _project(tmp_path)
    listed = subprocess.run([sys.executable, "-c", bench.ANALYSED, "."], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert sorted(listed.stdout.split()) == ["helpers.py", "server.py"]

    (tmp_path / "analysed.txt").write_text(listed.stdout, encoding="utf-8")
    bound = subprocess.run(
        [sys.executable, "-c", bench.BOUND, "analysed.txt"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    files, lines = (int(x) for x in bound.stdout.split())
    expected_lines = sum((tmp_path / name).read_text(encoding="utf-8").count("\n") for name in ("helpers.py", "server.py"))
    assert (files, lines) == (2, expected_lines)
