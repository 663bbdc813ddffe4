"""bench/unreached_misses.py: a scored set's misses split by whether any tool reaches their function."""

from __future__ import annotations

import json
import textwrap

import pytest
from script_support import load_script

SOURCE = textwrap.dedent(
    '''
    import httpx

    LIMIT = 3


    def fetch(url: str) -> str:
        try:
            return httpx.get(url).text
        except httpx.HTTPError as exc:
            return f"Error: {exc}"


    class Client:
        def wrapper(self):
            def inner():
                return "Error: no"

            return inner
    '''
)


@pytest.fixture(scope="module")
def unreached_misses():
    return load_script("bench/unreached_misses.py", "bench_unreached_misses")


def test_the_functions_around_a_line_are_named_innermost_first(unreached_misses) -> None:
    assert unreached_misses.enclosing_functions(SOURCE, "notes.client", 11) == ["notes.client.fetch"]
    assert unreached_misses.enclosing_functions(SOURCE, "notes.client", 17) == ["notes.client.Client.wrapper.inner", "notes.client.Client.wrapper"]
    assert unreached_misses.enclosing_functions(SOURCE, "notes.client", 4) == []
    assert unreached_misses.enclosing_functions("def broken(:\n    pass\n", "notes.broken", 1) == []


def test_misses_are_split_by_what_the_tools_reach(unreached_misses, tmp_path, monkeypatch, capsys) -> None:
    package = tmp_path / "src" / "notes-0.1"
    (package / "notes").mkdir(parents=True)
    (package / "notes" / "__init__.py").write_text("")
    (package / "notes" / "server.py").write_text(
        "from fastmcp import FastMCP\nfrom notes.client import fetch\n\nmcp = FastMCP('notes')\n\n\n"
        "@mcp.tool\ndef read_note(url: str) -> str:\n    return fetch(url)\n"
    )
    (package / "notes" / "client.py").write_text(SOURCE)
    miss = {"package": "notes==0.1", "rule": "MCP002", "note": "n", "end_line": "0"}
    score = tmp_path / "score.json"
    score.write_text(
        json.dumps(
            {
                "false_negatives": [
                    {**miss, "file": "notes/client.py", "start_line": "11"},
                    {**miss, "file": "notes/client.py", "start_line": "17"},
                    {**miss, "file": "notes/client.py", "start_line": "4"},
                ]
            }
        )
    )
    out = tmp_path / "rows.json"
    monkeypatch.setattr("sys.argv", ["unreached_misses.py", "--score", str(score), "--src", str(tmp_path / "src"), "--json", str(out)])
    assert unreached_misses.main() == 0
    verdicts = [row["verdict"] for row in json.loads(out.read_text())]
    assert verdicts == ["reached", "not reached", "module level"]
    assert "MCP002: reached 1, not reached 1, not analysed 0, module level 1" in capsys.readouterr().out
