"""A function body is walked once: collect_facts records what the module walker meets in it, and
the module walker replays that instead of walking the body again (module_walk._replay).

The replay must call the module walker's handlers on the same nodes, in the same order, as the
walk it replaces, whatever the body holds: nested functions, classes and lambdas (which the facts
walk does not enter), `except` types and names (which it skips), loops, comprehensions."""

from __future__ import annotations

import pickle
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from mcp_lint.analysis import analyze_source
from mcp_lint.model import module_walk
from mcp_lint.model.module_walk import _ModuleWalker, build_model


class _TwoWalks(_ModuleWalker):
    """The walk before: the module walker walks each function body itself."""

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:  # type: ignore[override]
        super().visit_FunctionDef(node)

    def _replay(self, events: list) -> None:
        pass


def _logging(base: type[_ModuleWalker]) -> type[_ModuleWalker]:
    """`base` writing down each handler it runs, with its node, in a class-wide log."""

    def wrap(name: str):
        def handler(self, node: cst.CSTNode):
            type(self).log.append((name, id(node)))
            return getattr(base, name)(self, node)

        return handler

    names = [name for name in dir(base) if name.startswith(("visit_", "leave_"))]
    return type(base.__name__, (base,), {"log": [], **{name: wrap(name) for name in names}})


def _handler_calls(module: cst.Module, base: type[_ModuleWalker], monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    walker = _logging(base)
    monkeypatch.setattr(module_walk, "_ModuleWalker", walker)
    build_model(module, "pkg.server", False)
    return walker.log


SHAPES = {
    "registrations inside a function": '''
        from mcp.server.fastmcp import FastMCP
        from pkg.api import Api

        def register(mcp: FastMCP) -> None:
            client = Api()

            @mcp.tool()
            async def fetch(url: str) -> str:
                try:
                    return await client.get(url)
                except (ValueError, errors_of(client)) as exc:
                    return f"Error: {exc}"

            mcp.add_tool(lambda q: client.search(q), name="search")

        def create_server() -> FastMCP:
            server = FastMCP("x")
            register(server)
            return server
    ''',
    "classes, globals, loops and comprehensions in functions": '''
        import logging
        from fastmcp import FastMCP

        api = None
        TOOLS = {}

        def setup(app):
            global api
            from pkg.api import Api
            api = Api()
            for name, fn in TOOLS.items():
                app.tool(name=name)(fn)
            handlers = {n: getattr(api, n) for n in ("a", "b")}
            table = [make(f) for f in handlers.values() if f]

            class Local:
                def run(self, x=lambda: api.ping()):
                    self.client = Api()
                    return [self.client.call(y) for y in x()]

            def inner(z: int = default()) -> int:
                def deeper():
                    return inner(z)
                return deeper()

            return handlers
    ''',
    "statements of every kind": '''
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("x")

        @mcp.tool()
        async def tool(path: str, mode: str = "r") -> str:
            if not (checked := validate(path)):
                raise ValueError(f"bad {path}")
            elif mode == "w":
                data: dict = {}
            else:
                data = read(path)
            with open(path) as handle, lock() as held:
                text = handle.read()
            while retry():
                text += more()
            match mode:
                case "r":
                    return text
            try:
                result = await run(text)
            except* OSError as group:
                result = str(group)
            finally:
                close()
            async for item in stream():
                result += item
            return result
    ''',
}


@pytest.mark.parametrize("shape", SHAPES)
def test_the_replay_runs_the_handlers_the_walk_ran(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module = cst.parse_module(textwrap.dedent(SHAPES[shape]))
    before = _handler_calls(module, _TwoWalks, monkeypatch)
    after = _handler_calls(module, _ModuleWalker, monkeypatch)
    assert after == before
    assert sum(name == "visit_Call" for name, _ in after) > 5  # the bodies' calls are in both


@pytest.mark.parametrize("shape", SHAPES)
def test_the_summary_is_the_one_two_walks_built(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source = textwrap.dedent(SHAPES[shape])
    path = Path("/proj/pkg/server.py")
    after = analyze_source(source, path, "pkg/server.py")
    monkeypatch.setattr(module_walk, "_ModuleWalker", _TwoWalks)
    before = analyze_source(source, path, "pkg/server.py")
    assert pickle.dumps(after) == pickle.dumps(before)
    assert after.functions  # not an empty summary on both sides


def test_a_function_body_is_walked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module walker meets no node of a function body by walking: only by the replay."""
    source = textwrap.dedent(SHAPES["registrations inside a function"])
    walked: list[cst.CSTNode] = []
    walk = module_walk._ModuleWalker._walk

    def counting(self, node, handlers):
        walked.append(node)
        return walk(self, node, handlers)

    monkeypatch.setattr(module_walk._ModuleWalker, "_walk", counting)
    model = build_model(cst.parse_module(source), "pkg.server", False)
    bodies = {id(facts.node.body) for facts in model.functions.values()}
    assert not bodies & {id(node) for node in walked}
    assert "pkg.server.register.fetch" in model.functions and [t.function for t in model.tools] == ["pkg.server.register.fetch"]


def test_the_classes_checked_by_exact_type_have_no_subclasses() -> None:
    """The model's hot paths test `type(x) is cst.Name` (an ABC's isinstance is slow): the same
    answer only while libcst defines no subclass of these classes."""
    for cls in (cst.Name, cst.Attribute, cst.Call, cst.Subscript):
        assert cls.__subclasses__() == [], cls
