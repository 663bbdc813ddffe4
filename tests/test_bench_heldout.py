"""bench/heldout.py: the smoke run on unlabeled real servers counts findings and flags only mcp-lint's own failures."""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import ModuleType

from script_support import REPO, load_script

def _heldout() -> ModuleType:
    return load_script("bench/heldout.py", "bench_heldout")


def test_the_list_is_pinned_packages_outside_the_labeled_corpus() -> None:
    specs = _heldout().pinned(REPO / "bench" / "heldout.txt")
    assert specs and all("==" in spec for spec in specs)
    public = REPO.parent / "shared" / "corpus" / "public.txt"
    if public.is_file():
        labeled = {line.split("==")[0].strip().lower() for line in public.read_text().splitlines() if "==" in line}
        assert not labeled & {spec.split("==")[0].lower() for spec in specs}


def test_findings_are_counted_and_a_file_python_rejects_is_not_a_failure(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        textwrap.dedent(
            """
            from mcp.server.fastmcp import FastMCP

            mcp = FastMCP("notes")


            @mcp.tool()
            def read_note(path: str) -> str:
                try:
                    return open(path).read()
                except OSError as exc:
                    return f"Error: {exc}"
            """
        ),
        encoding="utf-8",
    )
    # A server module a developer left half-edited: mcp-lint reports it (MCP000), the smoke run does not blame mcp-lint.
    (tmp_path / "broken.py").write_text("from mcp.server.fastmcp import FastMCP\n\ndef f(:\n    pass\n", encoding="utf-8")
    counts, problems = _heldout().lint(tmp_path)
    assert counts["MCP002"] == 1 and counts["MCP005"] == 1 and counts["MCP000"] == 1
    assert problems == []


def test_mcp000_on_a_file_python_parses_is_reported_as_the_linters_failure(tmp_path: Path) -> None:
    heldout = _heldout()
    good = tmp_path / "fine.py"
    good.write_text("x = 1\n", encoding="utf-8")
    assert heldout.parses(good)
    (tmp_path / "bad.py").write_text("x = (\n", encoding="utf-8")
    assert not heldout.parses(tmp_path / "bad.py")
