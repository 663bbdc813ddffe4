"""`obj.method()` in a tool reaches the method of obj's class, however the code tells that class:
a factory's return annotation, an annotated global, a typed parameter or class attribute, a
closure variable; and functions passed to a call (callbacks) are reached too."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.config import SettingsResolver
from mcp_lint.pipeline import lint_paths

# The client class of a project: `fetch` reports a failure as a normal result (MCP005 wherever a
# tool returns its value), `close` is never reached by a tool.
CLIENT = """\
class Api:
    async def fetch(self, item_id):
        if not item_id:
            return {"error": "item not found"}
        return {"id": item_id}

    async def close(self):
        return {"error": "already closed"}
"""

SERVER = "from fastmcp import FastMCP\n\nmcp = FastMCP('items')\n"


def reported(tmp_path: Path, tools: str, client: str = CLIENT) -> list[tuple[str, int]]:
    """(file, line) of every MCP005 finding of package pkg with client.py and tools.py."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "client.py").write_text(textwrap.dedent(client), encoding="utf-8")
    (package / "tools.py").write_text(SERVER + textwrap.dedent(tools), encoding="utf-8")
    result = lint_paths(sorted(package.glob("*.py")), SettingsResolver(isolated=True))
    assert result.internal_errors == []
    return sorted((Path(f.filename).name, f.location.row) for f in result.findings if f.code == "MCP005")


FETCH_REPORTED = [("client.py", 4)]

TYPED_FORMS = {
    "factory-annotation": """
        from typing import Optional
        from .client import Api

        def get_api() -> Api:
            return make()

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await get_api().fetch(item_id)
        """,
    "factory-string-annotation": """
        from .client import Api

        def get_api() -> "Api":
            return make()

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            api = get_api()
            return await api.fetch(item_id)
        """,
    "factory-optional-annotation": """
        from typing import Optional
        from .client import Api

        def get_api() -> Optional[Api]:
            return None

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            api = get_api()
            return await api.fetch(item_id)
        """,
    "async-context-manager": """
        from contextlib import asynccontextmanager
        from typing import AsyncIterator
        from .client import Api

        @asynccontextmanager
        async def open_api() -> AsyncIterator[Api]:
            yield make()

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            async with open_api() as api:
                return await api.fetch(item_id)
        """,
    "annotated-global-set-later": """
        from .client import Api

        api: Api | None = None

        def startup():
            global api
            api = connect()

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await api.fetch(item_id)
        """,
    "global-assigned-in-a-function": """
        from . import client

        _api = None

        def startup():
            global _api
            _api = client.Api()

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await _api.fetch(item_id)
        """,
    "typed-parameter": """
        from .client import Api

        async def run_lookup(api: Api, item_id: str) -> dict:
            return await api.fetch(item_id)

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await run_lookup(make(), item_id)
        """,
    "typed-constructor-parameter-kept-on-self": """
        from .client import Api

        class Service:
            def __init__(self, api: Api) -> None:
                self.api = api

            async def lookup(self, item_id: str) -> dict:
                return await self.api.fetch(item_id)

        service = Service(make())
        mcp.add_tool(service.lookup)
        """,
    "typed-class-attribute": """
        from .client import Api

        class Service:
            api: Api

            async def lookup(self, item_id: str) -> dict:
                return await self.api.fetch(item_id)

        service = Service()
        mcp.add_tool(service.lookup)
        """,
    "closure-variable": """
        from .client import Api

        def register(server):
            api = Api()

            @mcp.tool()
            async def lookup(item_id: str) -> dict:
                return await api.fetch(item_id)
        """,
}


@pytest.mark.parametrize("tools", TYPED_FORMS.values(), ids=TYPED_FORMS.keys())
def test_method_of_a_typed_object_is_reached(tmp_path: Path, tools: str) -> None:
    assert reported(tmp_path, tools) == FETCH_REPORTED


UNTYPED_FORMS = {
    "container-annotation": """
        from .client import Api

        def get_apis() -> list[Api]:
            return []

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await get_apis().fetch(item_id)
        """,
    "union-of-two-classes": """
        from .client import Api
        from .other import Mock

        async def run_lookup(api: Api | Mock, item_id: str) -> dict:
            return await api.fetch(item_id)

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await run_lookup(make(), item_id)
        """,
    "parameter-shadows-the-closure": """
        from .client import Api

        def register(server):
            api = Api()

            @mcp.tool()
            async def lookup(api, item_id: str) -> dict:
                return await api.fetch(item_id)
        """,
    "annotation-of-a-third-party-class": """
        import httpx

        async def run_lookup(api: httpx.AsyncClient, item_id: str) -> dict:
            return await api.fetch(item_id)

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await run_lookup(make(), item_id)
        """,
}


@pytest.mark.parametrize("tools", UNTYPED_FORMS.values(), ids=UNTYPED_FORMS.keys())
def test_method_of_an_object_whose_class_is_not_one_project_class_is_not_guessed(tmp_path: Path, tools: str) -> None:
    assert reported(tmp_path, tools) == []


# -- callbacks ---------------------------------------------------------------------------------------

CALLBACK_FORMS = {
    "to-thread-nested": """
        import asyncio

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            def work():
                if not item_id:
                    return {"error": "item not found"}
                return {"id": item_id}
            return await asyncio.to_thread(work)
        """,
    "run-in-executor": """
        import asyncio

        def work(item_id):
            if not item_id:
                return {"error": "item not found"}
            return {"id": item_id}

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(None, work, item_id)
        """,
    "anyio-run-sync": """
        import anyio
        from functools import partial

        def work(item_id):
            if not item_id:
                return {"error": "item not found"}
            return {"id": item_id}

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await anyio.to_thread.run_sync(partial(work, item_id))
        """,
    "wait-for-nested-coroutine": """
        import asyncio

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            async def work():
                if not item_id:
                    return {"error": "item not found"}
                return {"id": item_id}
            return await asyncio.wait_for(work(), timeout=5)
        """,
}


@pytest.mark.parametrize("tools", CALLBACK_FORMS.values(), ids=CALLBACK_FORMS.keys())
def test_a_function_passed_to_a_call_returns_the_tools_value(tmp_path: Path, tools: str) -> None:
    found = reported(tmp_path, tools)
    assert len(found) == 1 and found[0][0] == "tools.py"


def test_a_method_passed_to_a_helper_that_calls_it_is_reached(tmp_path: Path) -> None:
    tools = """
        from .client import Api

        def get_api() -> Api:
            return make()

        async def call_api(method, *args):
            return await method(*args)

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            api = get_api()
            return await call_api(api.fetch, item_id)
        """
    assert reported(tmp_path, tools) == FETCH_REPORTED


def test_a_data_variable_passed_to_a_call_is_not_a_callback(tmp_path: Path) -> None:
    # `rows` is a local holding data; `settings.fetch` is an attribute of a module-level object.
    tools = """
        import json
        from .client import Api

        settings = load_settings()

        @mcp.tool()
        async def lookup(item_id: str) -> str:
            rows = [item_id]
            return json.dumps(rows, default=settings.fetch)
        """
    assert reported(tmp_path, tools) == []


def test_a_nested_function_called_by_name_is_the_nested_one(tmp_path: Path) -> None:
    tools = """
        def find(item_id):
            return {"id": item_id}

        @mcp.tool()
        def lookup(item_id: str) -> dict:
            def find(item_id):
                if not item_id:
                    return {"error": "item not found"}
                return {"id": item_id}
            return find(item_id)
        """
    assert reported(tmp_path, tools) == [("tools.py", 12)]


def test_a_method_of_self_submitted_to_an_executor_is_reached(tmp_path: Path) -> None:
    tools = """
        import asyncio

        class Service:
            def __init__(self, pool):
                self.pool = pool

            def run(self, item_id):
                if not item_id:
                    return {"error": "item not found"}
                return {"id": item_id}

            async def lookup(self, item_id: str) -> dict:
                future = self.pool.submit(self.run, item_id)
                return await asyncio.wrap_future(future)

        service = Service(make_pool())
        mcp.add_tool(service.lookup)
        """
    assert reported(tmp_path, tools) == [("tools.py", 13)]


def test_arguments_passed_to_a_callback_are_its_inputs_not_the_tools_value(tmp_path: Path) -> None:
    # `run`'s error dict is an input of `render`, which turns it into text: not returned as is.
    tools = """
        import asyncio

        def run(item_id):
            if not item_id:
                return {"error": "item not found"}
            return {"id": item_id}

        def render(result):
            return str(result.get("id"))

        @mcp.tool()
        async def lookup(item_id: str) -> str:
            result = await asyncio.to_thread(run, item_id)
            return await asyncio.to_thread(render, result)
        """
    assert reported(tmp_path, tools) == []


LIFESPAN_SERVER = """\
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import AsyncIterator

from fastmcp import Context, FastMCP

from .client import Api


@dataclass
class AppContext:
    api: Api


@asynccontextmanager
async def lifespan(server: FastMCP) -> AsyncIterator[AppContext]:
    yield AppContext(api=Api())


mcp = FastMCP("items", lifespan=lifespan)
"""


@pytest.mark.parametrize(
    "body",
    [
        "    return await ctx.request_context.lifespan_context.api.fetch(item_id)\n",
        "    app = ctx.request_context.lifespan_context\n    return await app.api.fetch(item_id)\n",
        "    return await ctx.lifespan_context.api.fetch(item_id)\n",
        "    api = ctx.request_context.lifespan_context.api\n    return await api.fetch(item_id)\n",
        "    api = ctx.lifespan_context.api\n    result = await api.fetch(item_id)\n    return result\n",
    ],
    ids=["request-context", "local-alias", "fastmcp-shortcut", "member-in-a-local", "member-in-a-local-shortcut"],
)
def test_method_of_an_object_on_the_typed_lifespan_context(tmp_path: Path, body: str) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "client.py").write_text(CLIENT, encoding="utf-8")
    tools = LIFESPAN_SERVER + "\n\n@mcp.tool()\nasync def lookup(item_id: str, ctx: Context) -> dict:\n" + body
    (package / "tools.py").write_text(tools, encoding="utf-8")
    result = lint_paths(sorted(package.glob("*.py")), SettingsResolver(isolated=True))
    found = sorted((Path(f.filename).name, f.location.row) for f in result.findings if f.code == "MCP005")
    assert found == FETCH_REPORTED


def test_lifespan_context_without_a_typed_lifespan_reaches_nothing(tmp_path: Path) -> None:
    tools = """
        from fastmcp import Context

        @mcp.tool()
        async def lookup(item_id: str, ctx: Context) -> dict:
            return await ctx.request_context.lifespan_context.api.fetch(item_id)
        """
    assert reported(tmp_path, tools) == []


def test_a_lifespan_member_in_a_local_without_a_typed_lifespan_reaches_nothing(tmp_path: Path) -> None:
    tools = """
        from fastmcp import Context

        @mcp.tool()
        async def lookup(item_id: str, ctx: Context) -> dict:
            api = ctx.request_context.lifespan_context.api
            return await api.fetch(item_id)
        """
    assert reported(tmp_path, tools) == []


HELPER_ON_UNTYPED_PARAMETER = """
    from typing import Any
    from .client import Api

    async def run_lookup(item_id: str, api: Any) -> dict:
        return await api.fetch(item_id)

    def build():
        api = Api()

        @mcp.tool()
        async def lookup(item_id: str) -> dict:
            return await run_lookup(item_id, {argument})
    """


@pytest.mark.parametrize("argument", ["api", "api=api"])
def test_untyped_parameter_takes_the_class_of_what_the_caller_passes(tmp_path: Path, argument: str) -> None:
    assert reported(tmp_path, HELPER_ON_UNTYPED_PARAMETER.format(argument=argument)) == FETCH_REPORTED


def test_untyped_parameter_given_an_object_of_unknown_class_reaches_nothing(tmp_path: Path) -> None:
    assert reported(tmp_path, HELPER_ON_UNTYPED_PARAMETER.format(argument="make_api()")) == []
