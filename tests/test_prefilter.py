"""The prefilter: which files of a directory walk are analysed, and that skipping never changes a finding."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import pytest
from click.testing import CliRunner

from mcp_lint.analysis import module_name_for
from mcp_lint.cli import cli
from cli_support import invoke_in
from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.findings import Finding
from mcp_lint.module_names import module_name
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import analyze_all, link
from mcp_lint.prefilter import is_seed
from mcp_lint.scheduler import Analyzer

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

SERVER = """\
from mcp.server.fastmcp import FastMCP

from helpers import load

mcp = FastMCP("demo")


@mcp.tool()
def read(path: str) -> str:
    return load(path)
"""
# Reached from the tool `read`; calls into deep.py, which the linker asks for in a second round.
HELPERS = """\
from deep import parse


def load(path):
    try:
        with open(path) as handle:
            return parse(handle.read())
    except OSError as exc:
        raise ValueError(f"cannot read: {exc}")
"""
DEEP = """\
import json


def parse(text):
    try:
        return json.loads(text)
    except ValueError as exc:
        raise RuntimeError(f"bad json: {exc}")
"""
# Same defect, but no tool reaches it: never reported, so never worth parsing.
UNREACHED = """\
def fetch(url):
    try:
        return open(url).read()
    except OSError as exc:
        raise ValueError(f"cannot fetch: {exc}")
"""
BROKEN = "def broken(:\n"


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def check(root: Path, *args: str) -> tuple[int, str]:
    result = invoke_in(root, ["check", "--no-cache", "--output-format", "concise", "-q", *args])
    return result.exit_code, result.output


def analysed(root: Path) -> list[str]:
    files = discover([root], SettingsResolver(isolated=True))
    outcomes = analyze_all(files, 1, explicit=[])
    return [Path(o.display).relative_to(root).as_posix() for o in outcomes if o.summary is not None]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {"server.py": SERVER, "helpers.py": HELPERS, "deep.py": DEEP, "unreached.py": UNREACHED, "broken.py": BROKEN},
    )


# --- what a directory walk analyses ------------------------------------------------------------


def test_a_walk_analyses_tool_modules_and_the_helpers_they_reach_only(project: Path) -> None:
    assert analysed(project) == ["deep.py", "helpers.py", "server.py"]


def test_findings_in_helpers_two_calls_away_are_reported(project: Path) -> None:
    code, output = check(project, ".")
    assert code == 1
    assert [line.split(" ", 2)[:2] for line in output.splitlines()] == [
        ["broken.py:1:12:", "MCP000"],
        ["deep.py:8:15:", "MCP002"],
        ["helpers.py:9:15:", "MCP002"],
    ]


def test_a_skipped_file_with_a_syntax_error_is_still_reported_in_a_walk(project: Path) -> None:
    # Not analysed (nothing reaches it), but checked for syntax: a walk never passes a broken file.
    assert "broken.py" not in analysed(project)
    _, output = check(project, ".")
    assert "broken.py:1:12: MCP000 syntax error: invalid syntax" in output.splitlines()


def test_skipped_files_are_checked_for_syntax_in_the_workers_as_they_would_be_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Enough skipped files for the checks to go to the pool (two workers busy with the tool's
    # modules): every broken one is reported, at the same place, with and without workers and
    # the cache, and a cached verdict is still reported.
    files = {"server.py": SERVER, "server2.py": SERVER.replace('"demo"', '"other"'), "helpers.py": HELPERS, "deep.py": DEEP}
    files.update({f"pkg/m{n:02}.py": UNREACHED for n in range(30)})
    files.update({"pkg/m03.py": BROKEN, "pkg/m17.py": "x = 1\nif x\n", "pkg/m29.py": "def f():\n  return (\n"})
    write_tree(tmp_path, files)
    expected = [
        "pkg/m03.py:1:12: MCP000 syntax error: invalid syntax",
        "pkg/m17.py:2:5: MCP000 syntax error: expected ':'",
        "pkg/m29.py:2:10: MCP000 syntax error: '(' was never closed",
    ]
    serial = check(tmp_path, ".", "-j", "1")[1].splitlines()
    assert [line for line in serial if "MCP000" in line] == expected
    assert check(tmp_path, ".", "-j", "2")[1].splitlines() == serial
    in_workers: list[int] = []
    judge = Analyzer.parse_problems

    def counted(self: Analyzer, indexes: Sequence[int]) -> dict[int, Finding | None]:
        found = judge(self, indexes)
        in_workers.append(sum(1 for index in indexes if index in self._checks))
        return found

    monkeypatch.setattr(Analyzer, "parse_problems", counted)
    outcomes = analyze_all(discover([tmp_path], SettingsResolver(isolated=True)), 2, explicit=[])
    assert in_workers == [30]  # the two servers started the pool: every check went to it
    assert [o.problem.location.row for o in outcomes if o.problem is not None] == [1, 2, 2]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for _ in range(2):  # fills the cache, then reads the verdicts from it (the run key missing)
            result = CliRunner().invoke(cli, ["check", "-j", "2", "--output-format", "concise", "-q", "."])
            assert result.output.splitlines() == serial
            (tmp_path / "server.py").write_text(SERVER + "\n# edited\n", encoding="utf-8")
    finally:
        os.chdir(cwd)


def test_files_named_on_the_command_line_are_never_skipped(project: Path) -> None:
    code, output = check(project, "broken.py", "unreached.py")
    assert code == 1
    assert output == "broken.py:1:12: MCP000 syntax error: invalid syntax\n"


def test_an_unreadable_file_is_reported_even_when_nothing_reaches_it(tmp_path: Path) -> None:
    write_tree(tmp_path, {"server.py": SERVER, "helpers.py": HELPERS, "deep.py": DEEP})
    (tmp_path / "latin.py").write_bytes(b"x = '\xe9'\n")
    code, output = check(tmp_path, ".")
    assert "latin.py:1:1: MCP000 not valid UTF-8 (byte 0xe9 at offset 5)" in output.splitlines()


def test_a_package_reexport_brings_in_the_module_that_defines_the_helper(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/server.py": SERVER.replace("from helpers import load", "from app.util import load"),
            "app/util/__init__.py": "from .io import load\n",
            "app/util/io.py": HELPERS.replace("from deep import parse", "from app.util.deep import parse"),
            "app/util/deep.py": DEEP,
            "app/util/other.py": UNREACHED,
        },
    )
    # `app.util.load`: the linker looks in app/util/__init__.py (the longest linted prefix), finds
    # the re-export and follows it; app/__init__.py would only be read if app.util were no module.
    assert analysed(tmp_path) == ["app/server.py", "app/util/__init__.py", "app/util/deep.py", "app/util/io.py"]
    _, output = check(tmp_path, ".")
    assert "app/util/io.py:9:15: MCP002" in output and "app/util/deep.py:8:15: MCP002" in output


def test_a_shorter_prefix_is_asked_when_the_longest_does_not_parse(tmp_path: Path) -> None:
    # `app.util.load` with app/util/__init__.py broken: only app/__init__.py can still say what
    # `app.util` is (here it re-exports the helper), exactly as with every file analysed.
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "from app import io as util\n",
            "app/server.py": SERVER.replace("from helpers import load", "from app.util import load"),
            "app/util/__init__.py": BROKEN,
            "app/io.py": HELPERS.replace("from deep import parse", "import json\nparse = json.loads"),
        },
    )
    assert "app/__init__.py" in analysed(tmp_path)
    resolver = SettingsResolver(isolated=True)
    files = discover([tmp_path], resolver)
    everything, _ = link(analyze_all(files, 1), resolver, PinSource(resolver))
    prefiltered, _ = link(analyze_all(files, 1, explicit=[]), resolver, PinSource(resolver))
    assert [f for f in prefiltered if f.code != "MCP000"] == [f for f in everything if f.code != "MCP000"]
    assert any(f.filename.endswith("app/io.py") and f.code == "MCP002" for f in prefiltered)


def test_a_tool_on_a_server_defined_in_a_sibling_module_is_linked(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "svc/__init__.py": "",
            "svc/app.py": 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("demo")\n',
            "svc/tools.py": "from svc.app import mcp\n\n\n@mcp.tool()\n" + UNREACHED,
        },
    )
    assert analysed(tmp_path) == ["svc/app.py", "svc/tools.py"]  # svc.app is a module: svc/__init__.py is not asked
    _, output = check(tmp_path, ".")
    assert output.startswith("svc/tools.py:9:15: MCP002 Tool 'fetch' raises ValueError")


def test_unused_noqa_is_found_in_files_nothing_reaches(tmp_path: Path) -> None:
    write_tree(tmp_path, {"server.py": SERVER, "helpers.py": HELPERS, "deep.py": DEEP, "misc.py": "x = 1  # noqa: MCP003\n"})
    _, output = check(tmp_path, ".", "--extend-select", "MCP100")
    assert "misc.py:1:8: MCP100 [*] Unused `noqa` directive for MCP003\n" in output


def test_prefiltered_findings_equal_those_of_analysing_every_file(project: Path) -> None:
    (project / "broken.py").unlink()  # its MCP000 is the one documented difference
    for root in (EXAMPLES / "notes_server", project):
        resolver = SettingsResolver(isolated=True)
        files = discover([root], resolver)
        everything, _ = link(analyze_all(files, 1), resolver, PinSource(resolver))
        prefiltered, _ = link(analyze_all(files, 1, explicit=[]), resolver, PinSource(resolver))
        assert prefiltered == everything
        assert everything


# --- the text scan -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "@mcp.tool()",
        "@server.tool",
        "app.tool(name='x')(handler)",
        "@server.call_tool()",
        "Server('x', on_call_tool=handle)",
        "mcp.add_tool(handler)",
        "server.add_request_handler('tools/call', None, handle)",
        "FastMCP('x', tools=[a, b])",
        "FastMCP('x', tools = TOOLS)",
        "Tool.from_function(handler)",
        "from fastmcp.contrib.mcp_mixin import mcp_tool",
        "server.request_handlers[types.CallToolRequest] = handle",
        "x = 1  # noqa: MCP003",
        "x = 1  # NOQA:mcp001",
        "mcp = FastMCP('x')\nregister_all(mcp)",
        "server = MCPServer('x')\nregister_all(server)",
    ],
)
def test_every_registration_form_makes_a_seed(line: str) -> None:
    assert is_seed(f"import os\n{line}\n".encode())


@pytest.mark.parametrize(
    "line",
    [
        "tool_name = 'x'",
        "toolbox = load()",
        "my_tools = []",
        "if tools == expected: pass",
        "from mcp.types import TextContent",
        "x = 1  # noqa: E501",
        "text = 'a tool for everything'",
    ],
)
def test_modules_without_a_registration_are_not_seeds(line: str) -> None:
    assert not is_seed(f"import os\n{line}\n".encode())


# --- module names --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "relative",
    ["top.py", "pkg/__init__.py", "pkg/mod.py", "pkg/sub/__init__.py", "pkg/sub/deep.py", "loose/script.py"],
)
def test_module_names_match_the_analysis(tmp_path: Path, relative: str, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(
        tmp_path,
        {name: "" for name in ("top.py", "pkg/__init__.py", "pkg/mod.py", "pkg/sub/__init__.py", "pkg/sub/deep.py", "loose/script.py")},
    )
    monkeypatch.chdir(tmp_path)
    for path in (tmp_path / relative, Path(relative)):
        expected_name, expected_package = module_name_for(path)
        name = module_name(path)
        assert (name.dotted, name.is_package) == (expected_name, expected_package)


def test_a_server_subclass_in_an_unseeded_module_is_still_analysed(tmp_path: Path) -> None:
    # `base.py` registers nothing (not a seed) and is named only as a class: the server's family
    # (and so the message) still comes from it.
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/base.py": "from mcp.server.mcpserver import MCPServer\n\n\nclass NotesServer(MCPServer):\n    pass\n",
            "app/tools.py": (
                "from mcp import MCPError\n\nfrom app.base import NotesServer\n\nmcp = NotesServer('notes')\n\n\n"
                "@mcp.tool()\ndef read(note_id: str) -> str:\n    raise MCPError(-32602, f'Note {note_id} not found')\n"
            ),
        },
    )
    code, output = check(tmp_path, ".", "--output-format", "full")  # the release that decided is a note
    assert code == 1
    assert "note: on mcp 2.x MCPServer the client gets a JSON-RPC error" in output


def test_a_class_only_constructed_by_a_tool_does_not_bring_in_its_module(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/models.py": "class Note:\n    def __init__(self, text):\n        self.text = text\n",
            "app/server.py": (
                "from mcp.server.fastmcp import FastMCP\n\nfrom app.models import Note\n\nmcp = FastMCP('n')\n\n\n"
                "@mcp.tool()\ndef make(text: str) -> str:\n    return repr(Note(text))\n"
            ),
        },
    )
    assert "app/models.py" not in analysed(tmp_path)


# --- later waves: helpers reached through instances, classes and other helper modules ------------

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


WAVE_SERVER = """\
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
    except Exception as exc:
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


@pytest.mark.parametrize("jobs", [1, 2])
def test_helpers_found_in_later_waves_give_the_findings_of_a_whole_analysis(tmp_path: Path, jobs: int) -> None:
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/server.py": WAVE_SERVER,
            "app/util.py": UTIL,
            "app/client.py": CLIENT,
            # `remove` reaches Api.delete through app/ops.py, a wave after app/client.py is asked for.
            "app/admin.py": ADMIN.replace("from app.client import Api", "from app import ops")
            .replace('client = Api("t")\n', "")
            .replace("return client.delete(path)", "return ops.remove(path)"),
            "app/ops.py": "from app.client import api\n\n\ndef remove(path):\n    return api.delete(path)\n",
            "app/unused.py": UNREACHED,
        },
    )
    resolver = SettingsResolver(isolated=True)
    files = discover([tmp_path], resolver)
    everything, _ = link(analyze_all(files, jobs), resolver, PinSource(resolver))
    outcomes = analyze_all(files, jobs, explicit=[])
    prefiltered, _ = link(outcomes, resolver, PinSource(resolver))
    assert prefiltered == everything
    reported = {(Path(f.filename).name, f.location.row) for f in everything}
    # util.tidy (line 5), Api.get (line 29), Api.delete (line 38, reached from `remove` only).
    assert reported == {("util.py", 5), ("client.py", 29), ("client.py", 38)}
    assert "app/unused.py" not in {Path(o.display).relative_to(tmp_path).as_posix() for o in outcomes}


def test_the_cheap_trace_finds_what_the_full_trace_finds_and_looks_up_the_same_names(tmp_path: Path) -> None:
    # The prefilter runs traced_functions() between rounds and listens to the names it misses: it
    # must look for exactly what trace_tools() (the link step's own walk) looks for, as the same kind.
    from mcp_lint.linking.names import Lookup
    from mcp_lint.project_links import Project

    write_tree(
        tmp_path,
        {"app/__init__.py": "", "app/server.py": WAVE_SERVER, "app/util.py": UTIL, "app/client.py": CLIENT, "app/admin.py": ADMIN},
    )

    class Recording(Project):
        looked: set[str]

        def resolve(self, qualname: str, depth: int = 0, lookup: Lookup = Lookup.FOLLOWED) -> str:
            self.looked.add(qualname)
            return super().resolve(qualname, depth, lookup)

    for root in (tmp_path, EXAMPLES / "notes_server"):
        resolver = SettingsResolver(isolated=True)
        summaries = [o.summary for o in analyze_all(discover([root], resolver), 1) if o.summary is not None]
        missed: dict[str, set[tuple[str, Lookup]]] = {"full": set(), "light": set()}
        full = Recording(summaries, PinSource(resolver), lambda name, lookup: missed["full"].add((name, lookup)))
        light = Recording(summaries, PinSource(resolver), lambda name, lookup: missed["light"].add((name, lookup)))
        full.looked, light.looked = set(), set()
        assert set(full.trace_tools()) == light.traced_functions() != set()
        assert full.looked == light.looked
        assert missed["full"] == missed["light"]
    assert missed["full"]  # the notes server calls a library: some names are not found


def test_the_link_step_tells_its_callback_each_name_it_misses_and_what_it_was_looking_for(tmp_path: Path) -> None:
    # Only server.py is analysed: every name it takes from the other modules is a miss.
    from mcp_lint.linking.names import Lookup
    from mcp_lint.project_links import Project

    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/server.py": (
                "from mcp.server.fastmcp import Context\n\n"
                "from app.errors import NotesError\n"
                "from app.factory import make_server\n"
                "from app.store import load\n\n"
                "mcp = make_server()\n\n\n"
                "@mcp.tool()\n"
                "def read(key: str, ctx: Context) -> str:\n"
                "    try:\n"
                "        return load(key)\n"
                "    except NotesError as e:\n"
                "        return f'Error: {e}'\n"
            ),
        },
    )
    resolver = SettingsResolver(isolated=True)
    (outcome,) = analyze_all([tmp_path / "app" / "server.py"], 1)
    missed: set[tuple[str, Lookup]] = set()
    Project([outcome.summary], PinSource(resolver), lambda name, lookup: missed.add((name, lookup))).traced_functions()
    assert ("app.store.load", Lookup.FOLLOWED) in missed  # a helper the tool calls
    assert ("app.factory.make_server", Lookup.REGISTRATION) in missed  # what made the tool's server
    assert ("app.errors.NotesError", Lookup.EXCEPTION_CLASS) in missed  # a class the tool catches


def test_a_class_looked_for_as_what_made_a_server_is_wanted_a_constructed_one_is_not(tmp_path: Path) -> None:
    # `mcp = AppServer("notes")` with AppServer imported: the module defining AppServer decides
    # whether `mcp` is an MCP server, so it is asked for. `Note(...)` is only constructed.
    from mcp_lint.prefilter import wanted_names

    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/server.py": (
                "from app.base import AppServer\n"
                "from app.models import Note\n\n"
                "mcp = AppServer('notes')\n\n\n"
                "@mcp.tool()\n"
                "def add(text: str) -> str:\n"
                "    return str(Note(text))\n"
            ),
        },
    )
    resolver = SettingsResolver(isolated=True)
    summaries = [o.summary for o in analyze_all(discover([tmp_path], resolver), 1) if o.summary is not None]
    wanted = wanted_names(summaries)
    assert wanted is not None
    assert "app.base.AppServer" in wanted
    assert "app.models.Note" not in wanted


def test_the_caller_passing_a_server_to_a_register_function_is_analysed(tmp_path: Path) -> None:
    # main.py registers nothing itself and names no server class: only its call ties registry.py's
    # `server` parameter to the FastMCP of app.py.
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/app.py": "from fastmcp import FastMCP\nmcp = FastMCP('x')\n",
            "pkg/registry.py": "def register_all(server):\n    @server.tool()\n    def find(q):\n        if not q:\n            return 'Error: empty query'\n        return q\n",
            "pkg/main.py": "from .app import mcp\nfrom .registry import register_all\n\nregister_all(mcp)\n",
            "pkg/unrelated.py": "def helper():\n    return 1\n",
        },
    )
    code, output = check(tmp_path)
    assert "pkg/registry.py:5:13: MCP005" in output


def test_only_modules_spelling_the_register_function_whole_are_asked_for_as_its_callers(tmp_path: Path) -> None:
    # `register` is waiting on its callers; a module whose text holds the name only inside longer
    # identifiers (`register_tools`, `preregister`, `registers`) cannot call it.
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/app.py": "from fastmcp import FastMCP\nmcp = FastMCP('x')\n",
            "pkg/registry.py": "def register(server):\n    @server.tool()\n    def find(q):\n        if not q:\n            return 'Error: empty query'\n        return q\n",
            "pkg/main.py": "from .app import mcp\nfrom . import registry\n\nregistry.register(mcp)\n",
            "pkg/lookalike.py": "def register_tools(items):\n    return preregister(items)\n\n\ndef preregister(items):\n    return [i for i in items if i.registers]\n",
        },
    )
    files = analysed(tmp_path)
    assert "pkg/main.py" in files and "pkg/lookalike.py" not in files
    code, output = check(tmp_path)
    assert "pkg/registry.py:5:13: MCP005" in output


def test_a_table_of_tools_in_another_module_is_analysed(tmp_path: Path) -> None:
    # tables.py registers nothing and its name is an upper-case constant: the linker reads it.
    write_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/app.py": "from fastmcp import FastMCP\nfrom .tables import TOOLS\nmcp = FastMCP('x')\nfor fn in TOOLS:\n    mcp.add_tool(fn)\n",
            "pkg/tables.py": "from .impl import find\nTOOLS = [find]\n",
            "pkg/impl.py": "def find(q):\n    if not q:\n        return 'Error: empty query'\n    return q\n",
        },
    )
    code, output = check(tmp_path)
    assert "pkg/impl.py:3:9: MCP005" in output
