"""Helper modules are parsed only as far as the tools reach, and that never changes a finding."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_prefilter import write_tree

from mcp_lint.cli import cli
from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.linter import PinSource, analyze_all, link
from mcp_lint.model.pruning import prune

CLIENT = '''\
"""An API client the tools use one method of."""
import httpx

TIMEOUT = 10


def unused_top_level(x):
    raise ValueError(f"unused: {x}")


@some_decorator
def decorated_but_unused():
    return 1


class Api:
    """The client."""

    base = "https://example.com"

    def __init__(self, token):
        self.session = httpx.Client()
        self.token = token

    def get(self, path):
        try:
            return self._send("GET", path)
        except httpx.HTTPError as exc:
            raise RuntimeError(f"GET failed: {exc}")

    def _send(self, method, path):
        return self.session.request(method, self.base + path)

    def delete(self, path):
        try:
            return self.session.delete(self.base + path)
        except httpx.HTTPError as exc:
            raise RuntimeError(f"DELETE failed: {exc}")


class Unrelated:
    def run(self):
        return helper_of_unrelated()


def helper_of_unrelated():
    return 2


api = Api("t")
'''


def lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def test_unasked_definitions_become_empty_lines_and_the_rest_is_untouched() -> None:
    reduced = prune(CLIENT, ast.parse(CLIENT), {"api.get", "Api.get"})
    assert reduced is not None
    assert reduced.dropped == frozenset({"unused_top_level", "decorated_but_unused", "Unrelated", "helper_of_unrelated", "Api.delete"})
    before, after = lines(CLIENT), lines(reduced.source)
    assert len(after) == len(before)
    for old, new in zip(before, after):
        assert new in (old, "") or new.strip() == "..."  # kept verbatim, blanked, or a method's stand-in
    text = reduced.source
    assert "def get(self, path):" in text and "def _send(self, method, path):" in text  # _send via self._send
    assert "def __init__(self, token):" in text  # stores `self.session`: the linker resolves through it
    assert "delete" not in text and "unused" not in text and "Unrelated" not in text
    assert ast.dump(reduced.tree) == ast.dump(ast.parse(text))


def test_a_definition_the_kept_code_names_is_kept_transitively() -> None:
    reduced = prune(CLIENT, ast.parse(CLIENT), {"Unrelated.run"})
    assert reduced is not None
    assert "helper_of_unrelated" not in reduced.dropped  # called by the kept method
    assert "Api" not in reduced.dropped  # `api = Api("t")` at module level names it
    assert {"unused_top_level", "decorated_but_unused"} <= reduced.dropped


def test_nothing_to_drop_gives_none_and_line_endings_are_kept() -> None:
    source = "def a():\n    return b()\n\n\ndef b():\n    return 1\n"
    assert prune(source, ast.parse(source), {"a"}) is None
    crlf = CLIENT.replace("\n", "\r\n")
    reduced = prune(crlf, ast.parse(crlf), {"Api.get"})
    assert reduced is not None
    assert reduced.source.count("\r\n") == crlf.count("\r\n") and "\n" not in reduced.source.replace("\r\n", "")


def test_a_class_whose_methods_are_all_dropped_still_parses() -> None:
    source = "class Holder:\n    def one(self):\n        return 1\n\n    def two(self):\n        return 2\n\n\nholder = Holder()\n"
    reduced = prune(source, ast.parse(source), {"holder"})
    assert reduced is not None
    assert reduced.dropped == frozenset({"Holder.one", "Holder.two"})
    assert "class Holder:" in reduced.source
    import libcst

    libcst.parse_module(reduced.source)


# --- end to end: the same findings as analysing every file whole --------------------------------

SERVER = """\
from mcp.server.fastmcp import FastMCP

from app.client import api
from app import util

mcp = FastMCP("demo")


@mcp.tool()
def read(path: str) -> str:
    return api.get(path)


@mcp.tool()
def clean(name: str) -> str:
    return util.tidy(name)
"""
UTIL = """\
def tidy(name):
    try:
        return _normalise(name)
    except KeyError as exc:
        raise ValueError(f"bad name: {exc}")


def _normalise(name):
    return name.strip()


def unrelated(text):
    raise ValueError(f"never reached: {text}")
"""
# Asked for later: a second tool module reaches `Api.delete`, which the first analysis of
# client.py left out (the module must be analysed again, keeping it).
ADMIN = """\
from mcp.server.fastmcp import FastMCP

from app.client import Api

admin = FastMCP("admin")
client = Api("t")


@admin.tool()
def remove(path: str) -> str:
    return client.delete(path)
"""


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {"app/__init__.py": "", "app/server.py": SERVER, "app/util.py": UTIL, "app/client.py": CLIENT, "app/admin.py": ADMIN},
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_findings_equal_those_of_analysing_every_file_whole(project: Path, jobs: int) -> None:
    resolver = SettingsResolver(isolated=True)
    files = discover([project], resolver)
    everything, _ = link(analyze_all(files, jobs), resolver, PinSource(resolver))
    outcomes = analyze_all(files, jobs, explicit=[])
    prefiltered, _ = link(outcomes, resolver, PinSource(resolver))
    assert prefiltered == everything
    reported = {(Path(f.filename).name, f.location.row) for f in everything}
    # util.tidy (line 5), Api.get (line 29), Api.delete (line 38, reached from `remove` only).
    assert reported == {("util.py", 5), ("client.py", 29), ("client.py", 38)}
    pruned = {Path(o.display).name: o.summary.pruned for o in outcomes if o.summary is not None}
    assert pruned["util.py"] == frozenset({"unrelated"})
    assert "Api.delete" not in pruned["client.py"] and "unused_top_level" in pruned["client.py"]
    assert pruned["server.py"] == pruned["admin.py"] == frozenset()  # tool modules are read whole


def test_the_cli_reports_what_a_pruned_helper_reaches(project: Path) -> None:
    cwd = os.getcwd()
    os.chdir(project)
    try:
        result = CliRunner().invoke(cli, ["check", "--output-format", "concise", "-q", "--jobs", "1", "."])
        warm = CliRunner().invoke(cli, ["check", "--output-format", "concise", "-q", "--jobs", "2", "."])
        (project / "app" / "admin.py").unlink()
        without_admin = CliRunner().invoke(cli, ["check", "--output-format", "concise", "-q", "--jobs", "1", "."])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 1
    rows = [line.split(" ")[0] for line in result.output.splitlines()]
    assert rows == ["app/client.py:29:19:", "app/client.py:38:19:", "app/util.py:5:15:"]
    assert warm.output == result.output
    # Served from per-file summaries made for other names: the cache key holds what was kept.
    assert [line.split(" ")[0] for line in without_admin.output.splitlines()] == ["app/client.py:29:19:", "app/util.py:5:15:"]


def test_a_module_asked_later_for_a_name_it_left_out_is_analysed_again(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp_lint import linter

    # `remove` now reaches Api.delete only through app/ops.py: a wave after client.py was
    # analysed for Api.get alone.
    write_tree(
        project,
        {
            "app/admin.py": ADMIN.replace("from app.client import Api", "from app import ops").replace(
                "client = Api(\"t\")\n", ""
            ).replace("return client.delete(path)", "return ops.remove(path)"),
            "app/ops.py": "from app.client import api\n\n\ndef remove(path):\n    return api.delete(path)\n",
        },
    )
    calls: list[tuple[str, frozenset[str] | None]] = []
    real = linter.analyze_path

    def recording(path_text, source=None, codes=None, keep=None):
        calls.append((Path(path_text).name, keep))
        return real(path_text, source, codes, keep)

    monkeypatch.setattr(linter, "analyze_path", recording)
    resolver = SettingsResolver(isolated=True)
    files = discover([project], resolver)
    findings, _ = link(analyze_all(files, 1, explicit=[]), resolver, PinSource(resolver))
    client = [keep for name, keep in calls if name == "client.py"]
    assert len(client) == 2
    assert client[0] is not None and "api.get" in client[0] and "api.delete" not in client[0]
    assert client[1] is not None and {"api.get", "api.delete"} <= client[1]
    assert ("client.py", 38) in {(Path(f.filename).name, f.location.row) for f in findings}
    monkeypatch.undo()
    everything, _ = link(analyze_all(files, 1), resolver, PinSource(resolver))
    assert findings == everything
