"""MCP005 (and MCP003) on shapes that used to be missed: a message local assigned on several
branches, each returned right after its assignment.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from ._support import said, check, lint_tree, write_tree

HEADER = """\
import logging

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = MCPServer("docs")
"""


def _src(body: str) -> str:
    return HEADER + "\n" + textwrap.dedent(body)


# -- a local assigned on each branch, returned right after ---------------------------------------


def test_a_message_assigned_per_branch_is_read_where_it_is_returned() -> None:
    findings = check(
        _src(
            """\
            @mcp.tool()
            async def read_page(ctx: Context, url: str) -> str:
                if not url.startswith("https://docs.example.org/"):
                    error_msg = f"Invalid URL: {url}. URL must be from the docs.example.org domain"
                    await ctx.error(error_msg)
                    return error_msg  # expect: MCP005
                if not url.endswith(".html"):
                    error_msg = f"Invalid URL: {url}. URL must end with .html"
                    logger.error(error_msg)
                    return error_msg  # expect: MCP005
                return await fetch_page(url)
            """
        )
    )
    assert [f.location.row for f in findings] == [14, 18]
    assert "the string 'Invalid URL: …. URL must be from the docs.example.org" in said(findings[0])
    assert "the string 'Invalid URL: …. URL must end with .html'" in said(findings[1])
    assert findings[0].fix is not None and "raise ToolError(error_msg)" in findings[0].fix.edits[0].content


def test_a_raised_message_assigned_per_branch_is_judged_by_mcp003() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            async def sync_calendar(calendar_id: str) -> str:
                if not calendar_id:
                    message = "calendar_id is required; pass the id list_calendars returned"
                    raise ToolError(message)
                if calendar_id not in CALENDARS:
                    message = "Something went wrong. Please try again."
                    raise ToolError(message)  # expect: MCP003
                return "synced"
            """
        )
    )


def test_a_value_a_later_branch_may_overwrite_is_not_read_as_the_returned_one() -> None:
    # `status` may hold either text when returned: neither assignment alone is what it returns.
    check(
        _src(
            """\
            @mcp.tool()
            async def publish(page_id: str, ready: bool) -> str:
                status = "Error: page not published yet"
                if ready:
                    status = f"Page {page_id} published"
                return status
            """
        )
    )


def test_a_value_assigned_in_another_handler_is_not_read_as_the_returned_one() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            async def page_title(url: str) -> str:
                try:
                    title = await fetch_title(url)
                except TimeoutError:
                    title = "untitled"
                return title
            """
        )
    )


def test_a_message_extended_after_its_assignment_is_not_read_as_the_first_text() -> None:
    # `+=` adds to the value: the first assignment is no longer all of it, and its weaker wording
    # ("could not") says nothing of what follows.
    check(
        _src(
            """\
            @mcp.tool()
            async def summary(page_id: str, verbose: bool) -> str:
                if verbose:
                    text = f"Page {page_id}"
                    return text
                text = f"Page {page_id} could not be summarised"
                text += " in short form"
                return text
            """
        )
    )


# -- a status tuple whose flag the caller never reads --------------------------------------------

CORE = {
    "docs/core.py": '''\
        def insert_footnote(path, anchor, text):
            if not text:
                return False, "Footnote text must not be empty", None
            if anchor not in read_text(path):
                return False, f"Anchor text '{anchor}' not found in document", None
            number = write_footnote(path, anchor, text)
            return True, f"Footnote {number} added", {"number": number}
        ''',
    "docs/__init__.py": "",
}


def _status_tree(tmp_path: Path, server: str, core: dict[str, str] | None = None) -> list:
    write_tree(tmp_path, {**(CORE if core is None else core), "docs/server.py": server})
    return [(f.code, Path(f.filename).name, f.location.row, said(f)) for f in lint_tree(tmp_path)]


def test_a_message_returned_without_its_status_flag_is_a_failure_returned_as_a_success(tmp_path: Path) -> None:
    found = _status_tree(
        tmp_path,
        '''\
        from fastmcp import FastMCP

        from docs.core import insert_footnote

        mcp = FastMCP("docs", mask_error_details=True)


        @mcp.tool
        def add_footnote(path: str, anchor: str, text: str) -> str:
            success, message, details = insert_footnote(path, anchor, text)
            return message


        @mcp.tool
        def add_footnote_report(path: str, anchor: str, text: str) -> dict:
            ok, message, details = insert_footnote(path, anchor, text)
            return {"success": ok, "message": message, "details": details}
        ''',
    )
    assert [(code, name, row) for code, name, row, _ in found] == [("MCP005", "server.py", 11), ("MCP005", "server.py", 17)]
    assert "the message of insert_footnote(...) without reading its flag" in found[0][3]
    assert "'Footnote text must not be empty'" in found[0][3]
    assert "returns the status flag of insert_footnote(...) as a normal result" in found[1][3]
    assert "the flag is False on a failure such as " in found[1][3]


def test_a_status_flag_the_caller_tests_is_read(tmp_path: Path) -> None:
    found = _status_tree(
        tmp_path,
        '''\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        from docs.core import insert_footnote

        mcp = FastMCP("docs", mask_error_details=True)


        @mcp.tool
        def add_footnote(path: str, anchor: str, text: str) -> str:
            success, message, _ = insert_footnote(path, anchor, text)
            if not success:
                raise ToolError(message)
            return message


        @mcp.tool
        def add_footnote_short(path: str, anchor: str, text: str) -> str:
            ok, message, _ = insert_footnote(path, anchor, text)
            return message if ok else f"Footnote not added: {message}"


        @mcp.tool
        def footnote_details(path: str, anchor: str, text: str) -> dict:
            _, _, details = insert_footnote(path, anchor, text)
            return details or {}
        ''',
    )
    assert found == []


def test_tuples_without_a_false_flag_beside_a_failure_text_are_not_status_tuples(tmp_path: Path) -> None:
    core = {
        "docs/core.py": '''\
            def split_title(text):
                if "\\n" not in text:
                    return False, text, ""
                title, body = text.split("\\n", 1)
                return True, title, body


            def word_count(path):
                if not path:
                    return None, "no path"
                return len(read_text(path).split()), "words"
            ''',
        "docs/__init__.py": "",
    }
    found = _status_tree(
        tmp_path,
        '''\
        from fastmcp import FastMCP

        from docs.core import split_title, word_count

        mcp = FastMCP("docs", mask_error_details=True)


        @mcp.tool
        def title_of(text: str) -> str:
            has_body, title, body = split_title(text)
            return title


        @mcp.tool
        def count_words(path: str) -> str:
            count, unit = word_count(path)
            return unit
        ''',
        core,
    )
    assert found == []


# -- a helper's value handed to a result formatter of the project ---------------------------------

FORMATTER_SERVER = '''\
    from mcp.server.fastmcp import FastMCP
    from mcp.types import TextContent

    from reports.queries import SlowQueries

    mcp = FastMCP("reports")


    def as_text(value) -> list[TextContent]:
        return [TextContent(type="text", text=str(value))]


    def as_error(message: str) -> list[TextContent]:
        return as_text(f"Error: {message}")


    @mcp.tool()
    async def slow_queries(limit: int = 10) -> list[TextContent]:
        if limit <= 0:
            return as_error("limit must be positive")  # expect: MCP005
        report = await SlowQueries(DRIVER).top(limit)
        return as_text(report)


    @mcp.tool()
    async def slow_queries_summary(limit: int = 10) -> list[TextContent]:
        report = await SlowQueries(DRIVER).top(limit)
        return as_text(report.splitlines()[0])
    '''

QUERIES = '''\
    class SlowQueries:
        def __init__(self, driver):
            self.driver = driver

        async def top(self, limit: int) -> str:
            try:
                if not await self.driver.has_extension("pg_stat_statements"):
                    return "Error: the pg_stat_statements extension is not installed"
                rows = await self.driver.fetch("SELECT query FROM pg_stat_statements LIMIT %s", limit)
                return "\\n".join(row[0] for row in rows)
            except Exception as e:
                return f"Error getting slow queries: {type(e).__name__}"
    '''


def test_a_helper_value_returned_through_a_project_formatter_is_returned_as_it_is(tmp_path: Path) -> None:
    write_tree(tmp_path, {"reports/__init__.py": "", "reports/server.py": FORMATTER_SERVER, "reports/queries.py": QUERIES})
    found = sorted((Path(f.filename).name, f.location.row, f.code, said(f)) for f in lint_tree(tmp_path))
    assert [(name, row, code) for name, row, code, _ in found] == [
        ("queries.py", 8, "MCP005"),
        ("queries.py", 12, "MCP005"),
        ("server.py", 20, "MCP005"),
    ]
    assert found[0][3].startswith("Helper 'top' returns a failure string as a normal result")
    assert "'Error: the pg_stat_statements extension is not installed'" in found[0][3]


def test_a_formatter_that_builds_error_results_judges_the_value_itself(tmp_path: Path) -> None:
    server = FORMATTER_SERVER.replace(
        '''return [TextContent(type="text", text=str(value))]''',
        '''if isinstance(value, str) and value.startswith("Error"):
            return CallToolResult(content=[TextContent(type="text", text=value)], isError=True)
        return [TextContent(type="text", text=str(value))]''',
    ).replace("from mcp.types import TextContent", "from mcp.types import CallToolResult, TextContent")
    write_tree(tmp_path, {"reports/__init__.py": "", "reports/server.py": server, "reports/queries.py": QUERIES})
    found = sorted((Path(f.filename).name, f.location.row, f.code) for f in lint_tree(tmp_path))
    # The helper's texts reach a formatter that may turn them into error results: not followed.
    assert [f for f in found if f[0] == "queries.py"] == []


# -- status tools, retries that say what to change, conditions a caller already left on ----------


def test_a_report_function_without_arguments_does_not_complain_about_arguments() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            async def index_health_check() -> str:
                invalid = [i for i in await list_indexes() if not i["valid"]]
                if not invalid:
                    return "No invalid indexes found."
                return "Invalid indexes found: " + ", ".join(i["name"] for i in invalid)


            @mcp.tool()
            async def check_index(index_name: str) -> str:
                if index_name not in await index_names():
                    return f"Invalid index name: {index_name}"  # expect: MCP005
                return "ok"
            """
        )
    )


def test_a_retry_that_says_what_to_change_is_not_vague() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            async def run_checks(kinds: str) -> str:
                try:
                    wanted = {Kind(k.strip()) for k in kinds.split(",")}
                except ValueError:
                    raise ToolError(f"Invalid check kinds: {kinds!r}. Please try again with a comma-separated list of: index, vacuum")
                if not wanted:
                    raise ToolError("No checks selected. Please try again.")  # expect: MCP003
                return await run(wanted)
            """
        )
    )


def test_a_branch_the_tool_already_left_on_by_another_spelling_or_by_keyword_is_never_taken(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "advisor/__init__.py": "",
            "advisor/core.py": '''\
                class Advisor:
                    async def analyze(self, queries, max_size=100):
                        if not queries:
                            return {"error": "No queries provided for analysis"}
                        return await self.run(queries, max_size)
                ''',
            "advisor/server.py": '''\
                from fastmcp import FastMCP
                from fastmcp.exceptions import ToolError

                from advisor.core import Advisor

                mcp = FastMCP("advisor", mask_error_details=True)


                @mcp.tool
                async def recommend_indexes(queries: list[str]) -> dict:
                    if len(queries) == 0:
                        raise ToolError("Pass at least one query")
                    return await Advisor().analyze(queries=queries)


                @mcp.tool
                async def recommend_indexes_unchecked(queries: list[str]) -> dict:
                    return await Advisor().analyze(queries=queries)
                ''',
        },
    )
    found = [(Path(f.filename).name, f.location.row, f.code, said(f)) for f in lint_tree(tmp_path)]
    assert [(name, row, code) for name, row, code, _ in found] == [("core.py", 4, "MCP005")]
    assert "\nreached from tool 'recommend_indexes_unchecked'\n" in found[0][3]


# -- MCP003: a vague message a helper raises, which the tool's `except` sends on -------------------

BOARD_CLIENT = '''\
    import httpx


    class BoardAPIError(Exception):
        pass


    class BoardClient:
        def __init__(self, token: str) -> None:
            self._http = httpx.AsyncClient(base_url="https://boards.example.com/api/")

        async def _request(self, method: str, path: str) -> httpx.Response:
            response = await self._http.request(method, path)
            if response.status_code == 404:
                raise BoardAPIError("Board not found: check the board id with list_boards")
            if response.status_code >= 500:
                raise BoardAPIError("Board API error. Please try again.")
            return response

        async def get_board(self, board_id: str) -> dict:
            return (await self._request("GET", f"boards/{board_id}")).json()
    '''


def _board_tree(tmp_path: Path, tool_body: str, config: str = "") -> list[tuple[str, int, str, str]]:
    server = '''\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        from boards.client import BoardAPIError, BoardClient

        mcp = FastMCP("boards", mask_error_details=True)


        @mcp.tool
        async def get_board(board_id: str) -> str:
            try:
                board = await BoardClient("token").get_board(board_id)
            except BoardAPIError as e:
        ''' + textwrap.indent(textwrap.dedent(tool_body), " " * 12) + '''
            return board["name"]
        '''
    files = {"boards/__init__.py": "", "boards/client.py": BOARD_CLIENT, "boards/server.py": server}
    if config:
        files["pyproject.toml"] = config
    write_tree(tmp_path, files)
    return sorted((Path(f.filename).name, f.location.row, f.code, said(f)) for f in lint_tree(tmp_path))


def test_a_vague_message_a_helper_raises_and_the_tool_returns_is_judged(tmp_path: Path) -> None:
    found = _board_tree(tmp_path, "return str(e)\n")
    assert [(name, row, code) for name, row, code, _ in found] == [("client.py", 17, "MCP003"), ("server.py", 14, "MCP005")]
    message = found[0][3]
    assert message.startswith("Helper '_request' invites a retry without naming a transient condition\n")
    assert "the message: 'Board API error. Please try again.'" in message
    assert "caught and sent on to the model: tool 'get_board' returns it (" in message


def test_a_vague_message_sent_on_in_a_tool_error_is_judged_with_mcp003_alone(tmp_path: Path) -> None:
    found = _board_tree(tmp_path, 'raise ToolError(f"Could not read board {board_id}: {e}")\n', '[tool.mcp-lint]\nselect = ["MCP003"]\n')
    assert [(name, row, code) for name, row, code, _ in found] == [("client.py", 17, "MCP003")]
    assert "tool 'get_board' puts it into ToolError" in found[0][3]


def test_a_vague_message_the_tool_catches_and_replaces_does_not_reach_the_model(tmp_path: Path) -> None:
    found = _board_tree(tmp_path, 'raise ToolError(f"Board {board_id} could not be read; the board service failed") from e\n')
    assert found == []


def test_a_message_that_opens_as_a_failure_stays_one_whatever_is_appended() -> None:
    findings = check(
        _src(
            """\
            @mcp.tool()
            async def convert_to_pdf(path: str) -> str:
                errors = []
                for converter in CONVERTERS:
                    try:
                        return await converter.convert(path)
                    except ConverterMissing as missing:
                        errors.append(missing.name)
                summary = "Failed to convert the document to PDF with every converter.\\n"
                summary += "Converters tried: " + ", ".join(errors)
                return summary  # expect: MCP005
            """
        )
    )
    assert "the string 'Failed to convert the document to PDF with every…'" in said(findings[0])


# -- a result object of the project carrying a failure text in place of results ------------------


def test_a_result_object_carrying_a_failure_text_on_a_failure_path_is_flagged() -> None:
    findings = check(
        _src(
            """\
            @mcp.tool()
            async def search_docs(query: str) -> SearchResponse:
                response = await HTTP.post("https://docs.example.org/search", json={"q": query})
                if response.status_code >= 400:
                    error_msg = f"Error searching docs - status code {response.status_code}"
                    logger.error(error_msg)
                    return SearchResponse(results=[SearchResult(url="", title=error_msg)], total=0)  # expect: MCP005
                if response.status_code == 204:
                    error_msg = "nothing indexed yet"
                    return SearchResponse(results=[], total=0, note=error_msg)
                return SearchResponse.model_validate(response.json())


            @mcp.tool()
            async def recommend(url: str) -> list[Recommendation]:
                response = await HTTP.get("https://docs.example.org/recommend", params={"url": url})
                if response.status_code >= 400:
                    return [Recommendation(url="", title="Failed to get recommendations for this page")]  # expect: MCP005
                return [Recommendation(**r) for r in response.json()]


            @mcp.tool()
            async def first_result(query: str) -> SearchResult:
                hits = await search(query)
                if not hits:
                    return SearchResult(url="", title="No documents match this query yet")
                return hits[0]
            """
        )
    )
    assert "an object carrying the failure text 'Error searching docs - status code …' in place of results" in said(findings[0])
    assert findings[0].fix is not None and "raise ToolError(error_msg)" in findings[0].fix.edits[0].content


# -- an error builder that serializes a local dict ----------------------------------------------


def test_an_error_builder_serializing_a_local_failure_dict_is_reported_where_it_is_returned() -> None:
    findings = check(
        _src(
            """\
            import json
            from typing import Any


            def bad_input_error(text: str, **more: Any) -> str:
                body: dict[str, Any] = {"error": {"text": text, "kind": "bad_input"}}
                body["error"].update(more)
                return json.dumps(body)


            @mcp.tool()
            def water_plant(litres: int) -> str:
                if litres <= 0:
                    return bad_input_error("litres must be positive")  # expect: MCP005
                return "watered"
            """
        )
    )
    assert [f.location.row for f in findings] == [22]
    assert "bad_input_error" in said(findings[0])


def test_an_error_named_builder_serializing_a_local_without_a_failure_is_no_finding() -> None:
    check(
        _src(
            """\
            import json
            from typing import Any


            def format_error_budget(remaining: int) -> str:
                body: dict[str, Any] = {"remaining": remaining, "unit": "requests"}
                return json.dumps(body)


            @mcp.tool()
            def show_budget(window: int) -> str:
                if window <= 0:
                    return format_error_budget(0)
                return format_error_budget(window)
            """
        )
    )
