"""bench/unreached_lines.py: the lines of functions no tool reaches (what parsing only reached code could skip)."""

from __future__ import annotations

import sys
import textwrap

import pytest
from script_support import load_script

SOURCE = textwrap.dedent(
    '''
    import httpx


    def fetch(url: str) -> str:
        return httpx.get(url).text


    def unused_helper(value):
        cleaned = value.strip()
        return cleaned


    class Client:
        def get(self, path: str) -> str:
            return fetch(path)

        def delete(self, path: str) -> None:
            httpx.delete(path)

        def wrapper(self):
            def inner():
                return self.get("/")

            return inner
    '''
)


@pytest.fixture(scope="module")
def unreached_lines():
    return load_script("bench/unreached_lines.py", "bench_unreached_lines")


def test_functions_and_methods_no_tool_reaches_are_counted_whole(unreached_lines) -> None:
    reached = {"notes.client.fetch", "notes.client.Client.get"}
    # unused_helper (3 lines), Client.delete (2 lines), Client.wrapper with its nested inner (5 lines)
    assert unreached_lines.unreached_def_lines(SOURCE, "notes.client", reached) == 10


def test_a_function_holding_a_reached_nested_function_is_not_counted(unreached_lines) -> None:
    reached = {"notes.client.fetch", "notes.client.Client.get", "notes.client.Client.wrapper.inner"}
    assert unreached_lines.unreached_def_lines(SOURCE, "notes.client", reached) == 5


def test_a_module_cpython_cannot_parse_counts_nothing(unreached_lines) -> None:
    assert unreached_lines.unreached_def_lines("def broken(:\n    pass\n", "notes.broken", set()) == 0


def test_a_walk_reports_analysed_seed_and_unreached_lines_per_package(unreached_lines, tmp_path, monkeypatch, capsys) -> None:
    package = tmp_path / "notes-server" / "notes"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server.py").write_text(
        "from fastmcp import FastMCP\n"
        "from notes.store import load\n"
        "\n"
        "mcp = FastMCP('notes')\n"
        "\n"
        "\n"
        "@mcp.tool\n"
        "def read_note(note_id: str) -> str:\n"
        "    return load(note_id)\n"
    )
    (package / "store.py").write_text(
        "def load(note_id):\n"
        "    return open(note_id).read()\n"
        "\n"
        "\n"
        "def compact():\n"
        "    pass\n"
    )
    (package / "unrelated.py").write_text("def other():\n    return 1\n")
    monkeypatch.setattr(sys, "argv", ["unreached_lines.py", str(tmp_path), "--files"])
    assert unreached_lines.main() == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("notes-server"))
    # files (server, store; nothing asks for the package), analysed lines (9 + 6), seeds (server),
    # files no tool reaches, unreached def lines (compact)
    assert row.split()[1:] == ["2", "15", "9", "0", "2"]
    assert "4 files, 17 lines linted; 88% of the lines analysed" in out
