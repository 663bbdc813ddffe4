"""Text that looks like library text but is not: success branches, the author's argument model,
the unknown-tool message of a low-level dispatcher built in a variable."""

from __future__ import annotations

from ._support import said, check


# -- upstream bodies: only on a branch taken when the response failed -------------------------


def test_body_returned_on_the_success_branch_is_data() -> None:
    check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("items")  # expect: MCP007


        @mcp.tool()
        async def get_item(item_id: str) -> dict:
            async with httpx.AsyncClient() as client:
                resp = await client.get(f"https://api.example.com/items/{item_id}")
            if resp.status_code == 200:
                return resp.json()
            raise ToolError(f"No item {item_id} (HTTP {resp.status_code}); call list_items for ids")


        @mcp.tool()
        def get_page(url: str) -> str:
            resp = httpx.get(url)
            if resp.is_success and resp.content:
                return resp.text
            raise ToolError(f"{url} answered HTTP {resp.status_code}; check the address")


        @mcp.tool()
        def get_status(service: str) -> str:
            resp = httpx.get(f"https://status.example.com/{service}")
            if resp.status_code in (200, 203):
                return resp.text
            raise ToolError(f"No status page for {service}")
        """
    )


def test_body_on_the_failure_side_of_a_success_test_is_flagged() -> None:
    check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("items")  # expect: MCP007


        @mcp.tool()
        def get_page(url: str) -> str:
            resp = httpx.get(url)
            if 200 <= resp.status_code < 300:
                return resp.text
            else:
                raise ToolError(f"{url} answered HTTP {resp.status_code}: {resp.text}")  # expect: MCP002


        @mcp.tool()
        def get_raw(url: str) -> str:
            resp = httpx.get(url)
            if not resp.ok:
                raise ToolError(f"{url} answered HTTP {resp.status_code}: {resp.text}")  # expect: MCP002
            return resp.text
        """
    )


# -- pydantic validation of the author's own argument model ------------------------------------


def test_validation_of_the_tools_own_arguments_describes_what_the_model_sent() -> None:
    check(
        """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        from pydantic import BaseModel, ValidationError

        mcp = FastMCP("search")


        class SearchArgs(BaseModel):
            query: str
            limit: int = 10


        @mcp.tool
        def search(query: str, limit: int = 10) -> str:
            try:
                args = SearchArgs(query=query, limit=limit)
            except ValidationError as e:
                raise ToolError(f"invalid arguments: {e}") from e
            return run(args)


        @mcp.tool
        def search_raw(arguments: dict) -> str:
            try:
                args = SearchArgs.model_validate(arguments)
            except ValidationError as e:
                raise ToolError(str(e)) from e
            return run(args)
        """,
        target="fastmcp>=3,<4",
    )


def test_validation_of_an_upstream_payload_is_library_text() -> None:
    check(
        """\
        import httpx
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError
        from pydantic import BaseModel, ValidationError

        mcp = FastMCP("search")


        class Hit(BaseModel):
            title: str


        @mcp.tool
        def first_hit(query: str) -> str:
            try:
                hit = Hit.model_validate(httpx.get(f"https://search.example.com?q={query}").json()[0])
            except ValidationError as e:
                raise ToolError(f"bad answer from the search service: {e}") from e  # expect: MCP002
            return hit.title
        """,
        target="fastmcp>=3,<4",
    )


# -- the unknown-tool branch of a low-level dispatcher -----------------------------------------


def test_unknown_tool_message_built_in_a_variable_is_not_a_defect() -> None:
    check(
        """\
        from mcp.server.lowlevel import Server
        from mcp.shared.exceptions import McpError
        from mcp.types import INVALID_PARAMS, ErrorData, TextContent

        server = Server("calc")


        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[TextContent]:
            if name == "add":
                return [TextContent(type="text", text=str(arguments["a"] + arguments["b"]))]
            message = f"Unknown tool: {name}"
            raise McpError(ErrorData(code=INVALID_PARAMS, message=message))
        """
    )


def test_a_failure_message_built_in_a_variable_is_still_a_protocol_error() -> None:
    check(
        """\
        from mcp.server.lowlevel import Server
        from mcp.shared.exceptions import McpError
        from mcp.types import INVALID_PARAMS, ErrorData, TextContent

        server = Server("notes")
        NOTES: dict[str, str] = {}


        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[TextContent]:
            if name == "read_note":
                if arguments["id"] not in NOTES:
                    message = f"Note {arguments['id']} not found"
                    raise McpError(ErrorData(code=INVALID_PARAMS, message=message))  # expect: MCP001
                return [TextContent(type="text", text=NOTES[arguments["id"]])]
            raise McpError(ErrorData(code=INVALID_PARAMS, message=f"Unknown tool: {name}"))
        """
    )


# -- which classes a clause catches: module-level tuples, context managers ---------------------


def test_tuple_of_library_errors_caught_around_a_context_managers_yield_is_flagged() -> None:
    findings = check(
        """\
        from contextlib import contextmanager
        from typing import Iterator

        import git
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError

        mcp = MCPServer("git")

        EXPECTED_ERRORS = (ValueError, OSError, git.GitError)


        @contextmanager
        def reported_to_model() -> Iterator[None]:
            try:
                yield
            except EXPECTED_ERRORS as e:
                raise ToolError(str(e)) from e  # expect: MCP002


        @mcp.tool()
        def git_status(repo_path: str) -> str:
            with reported_to_model():
                return git.Repo(repo_path).git.status()
        """
    )
    assert "a caught ValueError (or 2 more) into ToolError" in said(findings[0])


def test_tuple_of_the_projects_own_errors_is_the_authors_text() -> None:
    check(
        """\
        from contextlib import contextmanager
        from typing import Iterator

        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError

        mcp = MCPServer("notes")
        NOTES: dict[str, str] = {}


        class NoteMissing(Exception):
            pass


        class NoteLocked(Exception):
            pass


        EXPECTED_ERRORS = (NoteMissing, NoteLocked)


        @contextmanager
        def reported_to_model() -> Iterator[None]:
            try:
                yield
            except EXPECTED_ERRORS as e:
                raise ToolError(str(e)) from e


        @mcp.tool()
        def read_note(note_id: str) -> str:
            with reported_to_model():
                if note_id not in NOTES:
                    raise NoteMissing(f"No note {note_id}; call list_notes for the ids")
                return NOTES[note_id]
        """
    )


def test_outer_exception_text_used_inside_a_nested_handler_is_flagged() -> None:
    check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("stats")  # expect: MCP007


        @mcp.tool()
        def site_stats(site: str) -> dict:
            try:
                resp = httpx.get(f"https://stats.example.com/api/{site}")
                resp.raise_for_status()
            except httpx.HTTPStatusError as e:
                try:
                    detail = e.response.json()["error"]  # expect: MCP002
                except Exception:
                    raise ToolError(f"stats API error: {e.response.text}") from e  # expect: MCP002
                raise ToolError(f"stats API error: {detail}") from e
            return resp.json()
        """
    )


def test_nested_handler_rebinding_the_name_hides_the_outer_exception() -> None:
    check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("stats")


        class QuotaExceeded(Exception):
            pass


        def check_quota(site: str) -> None:
            raise QuotaExceeded(f"Site {site} used its daily quota; try tomorrow")


        @mcp.tool()
        def site_stats(site: str) -> dict:
            try:
                return httpx.get(f"https://stats.example.com/api/{site}").json()
            except httpx.HTTPError as e:
                try:
                    check_quota(site)
                except QuotaExceeded as e:
                    raise ToolError(str(e)) from None
                raise ToolError(f"The stats service did not answer for {site}") from e
        """
    )


# -- where the finding sits: the statement that builds the text ---------------------------------


def test_text_built_in_a_local_is_reported_where_it_is_built() -> None:
    findings = check(
        """\
        import httpx
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("docs")  # expect: MCP007


        @mcp.tool()
        async def search_docs(query: str, ctx: Context) -> list[dict]:
            try:
                resp = httpx.get("https://docs.example.com/search", params={"q": query})
                resp.raise_for_status()
            except httpx.HTTPError as e:
                error_msg = f"Error searching the docs: {e}"  # expect: MCP002
                await ctx.error(error_msg)
                return [{"title": error_msg, "url": ""}]  # expect: MCP005
            try:
                hits = resp.json()["hits"]
            except ValueError as e:
                error_msg = f"Bad answer from the docs search: {e}"  # expect: MCP002
                return [{"title": error_msg, "url": ""}]  # expect: MCP005
            return hits
        """
    )
    finding = next(f for f in findings if f.code == "MCP002")
    assert "the text of a caught httpx.HTTPError as a normal result" in finding.message
    # The return that sends the text is a related location in the finding's own file, not a note.
    assert [(r.filename, r.location.row, r.message) for r in finding.related] == [(finding.filename, 15, "the text is returned here")]
    assert not any("line 15" in note for note in finding.notes)


def test_decoding_fetched_bytes_is_library_text_decoding_the_argument_is_not() -> None:
    check(
        """\
        import base64

        import httpx
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("files")  # expect: MCP007


        @mcp.tool
        def read_file(path: str) -> str:
            raw = base64.b64decode(httpx.get(f"https://files.example.com/{path}").json()["content"])
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise ToolError(f"{path} is not UTF-8 text ({e})") from e  # expect: MCP002


        @mcp.tool
        def store(name: str, payload: bytes) -> str:
            try:
                text = payload.decode("utf-8")
            except UnicodeDecodeError as e:
                raise ToolError(f"payload must be UTF-8: {e}") from e
            return f"stored {len(text)} characters as {name}"
        """,
        target="fastmcp>=3,<4",
    )


def test_value_error_around_the_projects_config_objects_is_the_authors_text() -> None:
    # `get_config().client_config()` is a call the linker cannot resolve, and `client_config.get`
    # reads a dict: neither is library code a ValueError could come from.
    check(
        """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("warehouse")


        class Config:
            def client_config(self) -> dict:
                return {"host": "localhost", "secure": "yes"}


        def get_config() -> Config:
            return Config()


        def parse_flag(value: object) -> bool:
            if value not in ("yes", "no"):
                raise ValueError(f"secure must be 'yes' or 'no', got {value!r}")
            return value == "yes"


        @mcp.tool
        def connect(database: str) -> str:
            try:
                client_config = get_config().client_config()
                secure = parse_flag(client_config.get("secure"))
            except ValueError as exc:
                raise ToolError(str(exc)) from exc
            return f"connected to {database} (secure={secure})"
        """,
        target="fastmcp>=3,<4",
    )
