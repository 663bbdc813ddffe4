"""The link step's one tracing walk (mcp_lint/linking/tracing.py): what it reaches from the tools.

The prefilter's cheap walk (Project.traced_functions) and the link step's own (Project.trace_tools)
are one walk carrying different states: they must reach the same functions, which are exactly the
functions on the tools' paths.
"""

from __future__ import annotations

from pathlib import Path

from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.linking.names import Lookup
from mcp_lint.linking.tracing import MAX_DEPTH
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import analyze_all
from mcp_lint.project_links import Project

SERVER = """\
import functools

from mcp.server.fastmcp import FastMCP

from app.store import Store, fetch_all, open_store
from app.chain import step0

mcp = FastMCP("shop")


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except KeyError:
            raise
    return wrapper


@mcp.tool()
@logged
def list_orders(limit: int) -> list:
    store = open_store()
    return fetch_all(store, limit)


@mcp.tool()
def deep(n: int) -> str:
    return step0(n)


def never_called() -> str:
    return "unused"
"""

STORE = """\
class Store:
    def rows(self, limit):
        return self._read(limit)

    def _read(self, limit):
        return [limit]


def open_store() -> Store:
    return Store()


def fetch_all(store, limit):
    return store.rows(limit)


def unrelated(store):
    return store.rows(1)
"""


def _chain(length: int) -> str:
    """step0 calls step1 ... calls step{length - 1}: one call deeper each."""
    return "".join(f"def step{i}(n):\n    return step{i + 1}(n)\n\n\n" for i in range(length - 1)) + f"def step{length - 1}(n):\n    return n\n"


def _project(tmp_path: Path, missing=None) -> Project:
    files = {
        "app/__init__.py": "",
        "app/server.py": SERVER,
        "app/store.py": STORE,
        "app/chain.py": _chain(MAX_DEPTH + 3),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    resolver = SettingsResolver(isolated=True)
    summaries = [o.summary for o in analyze_all(discover([tmp_path], resolver), 1) if o.summary is not None]
    return Project(summaries, PinSource(resolver), missing)


def test_both_walks_reach_exactly_the_functions_on_the_tools_paths(tmp_path: Path) -> None:
    project = _project(tmp_path)
    traced = project.traced_functions()
    expected = {
        "app.server.list_orders",
        "app.server.logged.wrapper",  # the decorator's wrapper runs around the tool
        "app.store.open_store",
        "app.store.fetch_all",
        "app.store.Store.rows",  # the method called on the parameter, which the tool fills with a Store
        "app.store.Store._read",
        "app.server.deep",
        # The chain as deep as the walk goes: the tool is depth 0, step{k} depth k + 1.
        *(f"app.chain.step{k}" for k in range(MAX_DEPTH)),
    }
    assert traced == expected
    assert set(_project(tmp_path).trace_tools()) == expected
    # Not on a tool's path: a function nothing calls, a helper only that function calls, and
    # the chain past the walk's depth.
    assert not {"app.server.never_called", "app.store.unrelated", f"app.chain.step{MAX_DEPTH}"} & traced


def test_the_tool_trace_keeps_how_each_tool_reaches_a_function(tmp_path: Path) -> None:
    reached = _project(tmp_path).trace_tools()
    assert reached["app.server.list_orders"].is_tool and reached["app.server.list_orders"].own_names == {"list_orders"}
    assert reached["app.store.Store._read"].tools == {"list_orders"}
    assert reached["app.store.Store._read"].returns  # returned whole, up to the tool
    assert reached["app.chain.step3"].tools == {"deep"} and not reached["app.chain.step3"].is_tool


def test_both_walks_look_up_the_same_names(tmp_path: Path) -> None:
    # Only the server module is analysed: every name it takes from the others is looked for and
    # missed, the same ones by both walks (the prefilter analyses their modules next).
    full: set[tuple[str, Lookup]] = set()
    light: set[tuple[str, Lookup]] = set()
    whole = _project(tmp_path)
    server_only = [s for s in whole.summaries if s.module == "app.server"]
    pins = whole.pins
    Project(server_only, pins, lambda name, lookup: full.add((name, lookup))).trace_tools()
    Project(server_only, pins, lambda name, lookup: light.add((name, lookup))).traced_functions()
    assert full == light
    assert {("app.store.fetch_all", Lookup.FOLLOWED), ("app.chain.step0", Lookup.FOLLOWED)} <= light
