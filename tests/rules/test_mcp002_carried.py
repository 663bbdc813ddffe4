"""MCP002: library text carried through the project's own exception classes.

A helper wraps a library error into the project's exception (`raise NotesError(f"search failed:
{e}")`); a tool catches that class and passes its text on (`return f"Error: {e}"`,
`raise ToolError(str(e))`). One finding per flow: the raise is reported, naming the statement that
passes the text on. A class raised only with library text (a carrier) is no exception: a clause
returning its text builds the model-facing value from text the raises took in, so the raises are
the findings; only a clause wrapping a carrier's text into yet another exception is reported
itself (that raise takes the library text in again).
"""

from __future__ import annotations

from pathlib import Path

from ._support import said, check, lint_tree, write_tree


def _mcp002(findings):  # type: ignore[no-untyped-def]
    return sorted((f.filename.rsplit("/", 1)[-1], f.location.row, said(f)) for f in findings if f.code == "MCP002")


def test_raise_of_own_class_with_library_text_is_flagged_where_a_tool_returns_it() -> None:
    findings = check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("notes")


        class NotesError(Exception):
            \"\"\"Raised with messages written for the model.\"\"\"


        def check_name(name: str) -> None:
            if "/" in name:
                raise NotesError(f"Note name {name!r} may not contain '/'")


        def search_remote(query: str) -> list[str]:
            try:
                resp = httpx.get("https://notes.example.com/search", params={"q": query})
                resp.raise_for_status()
            except httpx.HTTPError as e:
                raise NotesError(f"search failed: {e}") from e  # expect: MCP002
            return resp.json()["hits"]


        @mcp.tool()
        def search_notes(query: str) -> str:
            try:
                check_name(query)
                hits = search_remote(query)
            except NotesError as e:
                return f"Error: {e}"  # expect: MCP005
            return "\\n".join(hits)
        """
    )
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert "Helper 'search_remote' raises NotesError" in said(finding)
    assert "the text of a caught httpx.HTTPError" in said(finding)
    assert "tool 'search_notes' returns it (server.py:31)" in said(finding)


def test_raise_of_own_class_passed_into_tool_error_is_flagged() -> None:
    findings = check(
        """\
        import subprocess

        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("git")


        class GitToolError(Exception):
            pass


        def run_git(*args: str) -> str:
            if not args:
                raise GitToolError("no git command given; pass a subcommand such as 'status'")
            try:
                return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout
            except subprocess.CalledProcessError as e:
                raise GitToolError(f"git {args[0]} failed: {e.stderr}") from e  # expect: MCP002


        @mcp.tool
        def git_log(limit: int = 10) -> str:
            try:
                return run_git("log", f"-{limit}")
            except GitToolError as e:
                raise ToolError(str(e)) from e
        """,
        target="fastmcp>=3,<4",
    )
    assert "tool 'git_log' puts it into ToolError (server.py:27)" in said(findings[0])


def test_own_class_caught_with_curated_text_stays_silent() -> None:
    # The tool says what failed in its own words: the library text never reaches the model.
    check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("notes")


        class NotesError(Exception):
            pass


        def search_remote(query: str) -> list[str]:
            if not query:
                raise NotesError("query is empty; pass at least one word")
            try:
                return httpx.get("https://notes.example.com/search", params={"q": query}).json()["hits"]
            except httpx.HTTPError as e:
                raise NotesError(f"search failed: {e}") from e


        @mcp.tool()
        def search_notes(query: str) -> str:
            try:
                return "\\n".join(search_remote(query))
            except NotesError:
                raise ToolError("The notes service did not answer; try again in a minute") from None
        """
    )


def test_own_class_raised_with_curated_text_only_stays_silent_when_passed_on() -> None:
    check(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("notes")
        NOTES: dict[str, str] = {}


        class NoteMissing(Exception):
            pass


        def load(note_id: str) -> str:
            if note_id not in NOTES:
                raise NoteMissing(f"No note {note_id}; call list_notes for the ids")
            return NOTES[note_id]


        @mcp.tool()
        def read_note(note_id: str) -> str:
            try:
                return load(note_id)
            except NoteMissing as e:
                raise ToolError(str(e)) from e
        """
    )


def test_carrier_class_returned_by_a_tool_is_flagged_at_each_raise_that_takes_the_text() -> None:
    # ApiError is only ever raised with library text; the tool returns its text. One flow per
    # raise: each raise takes the library text in, the tool's clause is named as passing it on
    # (and is MCP005's statement, building the failure value).
    findings = check(
        """\
        import httpx
        from fastmcp import FastMCP

        mcp = FastMCP("stats")


        class ApiError(Exception):
            pass


        async def request(path: str) -> dict:
            try:
                async with httpx.AsyncClient() as client:
                    resp = await client.get(f"https://stats.example.com/api/{path}")
                    resp.raise_for_status()
                    return resp.json()
            except httpx.HTTPStatusError as e:
                raise ApiError(f"API error {e.response.status_code}: {e.response.text}") from e  # expect: MCP002
            except httpx.RequestError as e:
                raise ApiError(f"request failed: {e}") from e  # expect: MCP002


        @mcp.tool
        async def site_stats(site: str) -> dict:
            try:
                return await request(f"sites/{site}")
            except ApiError as e:
                return {"error": str(e)}  # expect: MCP005
        """,
        target="fastmcp>=3,<4",
    )
    first = next(f for f in findings if f.code == "MCP002" and f.location.row == 18)
    assert "Helper 'request' raises ApiError with the text of a caught httpx.HTTPStatusError" in first.message
    assert "caught on the way: tool 'site_stats' returns it (server.py:28)" in said(first)


def test_carrier_text_wrapped_into_another_exception_is_flagged_at_that_clause() -> None:
    # The clause raises a new exception with the carrier's text: that raise takes the library
    # text in again, and is reported itself (naming where the carrier's text comes from).
    findings = check(
        """\
        import httpx
        from fastmcp import FastMCP

        mcp = FastMCP("stats")


        class ApiError(Exception):
            pass


        async def request(path: str) -> dict:
            try:
                async with httpx.AsyncClient() as client:
                    resp = await client.get(f"https://stats.example.com/api/{path}")
                    resp.raise_for_status()
                    return resp.json()
            except httpx.RequestError as e:
                raise ApiError(f"request failed: {e}") from e


        @mcp.tool
        async def site_stats(site: str) -> dict:
            try:
                return await request(f"sites/{site}")
            except ApiError as e:
                raise RuntimeError(f"Site stats failed: {e}") from e  # expect: MCP002
        """,
        target="fastmcp>=3,<4",
    )
    (outer,) = [f for f in findings if f.code == "MCP002"]
    assert "raises RuntimeError with the text of a caught ApiError" in outer.message
    assert "ApiError is raised in this project only with library exception text, as at server.py:18" in outer.notes


def test_carrier_through_a_base_class_and_a_reexport_in_other_modules(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "weather"\ndependencies = ["mcp>=1.9,<2"]\n',
            "weather/__init__.py": "from .errors import WeatherError\n",
            "weather/errors.py": """\
                class WeatherError(Exception):
                    pass


                class UpstreamTimeout(WeatherError):
                    pass
                """,
            "weather/client.py": """\
                import httpx

                from .errors import UpstreamTimeout


                def forecast(city: str) -> dict:
                    try:
                        return httpx.get(f"https://api.example.com/forecast/{city}", timeout=5).json()
                    except httpx.TimeoutException as exc:
                        raise UpstreamTimeout(f"forecast timed out: {exc}") from exc
                """,
            "weather/server.py": """\
                from mcp.server.fastmcp import FastMCP
                from mcp.server.fastmcp.exceptions import ToolError

                from weather import WeatherError
                from weather.client import forecast

                mcp = FastMCP("weather")


                @mcp.tool()
                def get_forecast(city: str) -> dict:
                    try:
                        return forecast(city)
                    except WeatherError as exc:
                        raise ToolError(str(exc)) from exc
                """,
        },
    )
    found = _mcp002(lint_tree(tmp_path))
    assert [(name, row) for name, row, _ in found] == [("server.py", 15)]
    assert "weather.WeatherError is raised in this project only with library exception text, as at " in found[0][2]
    assert "weather/client.py:10" in found[0][2]


def test_a_prefiltered_run_reads_the_modules_defining_the_classes(tmp_path: Path) -> None:
    # errors.py only defines classes (no tool reaches a function there): a directory walk must
    # still analyse it, its bases decide that `except WeatherError` catches UpstreamTimeout.
    from mcp_lint.config import SettingsResolver
    from mcp_lint.discovery import discover
    from mcp_lint.pins import PinSource
    from mcp_lint.pipeline import analyze_all, link

    test_carrier_through_a_base_class_and_a_reexport_in_other_modules(tmp_path)
    resolver = SettingsResolver(isolated=True)
    files = discover([tmp_path], resolver)
    everything, _ = link(analyze_all(files, 1), resolver, PinSource(resolver))
    outcomes = analyze_all(files, 1, explicit=[])
    prefiltered, _ = link(outcomes, resolver, PinSource(resolver))
    assert prefiltered == everything
    assert "weather/errors.py" in {Path(o.display).relative_to(tmp_path).as_posix() for o in outcomes}


def test_curated_subclass_keeps_the_base_from_being_a_carrier(tmp_path: Path) -> None:
    # One subclass carries library text, another is the author's: `except Base` is fine, the
    # library-text raise is what is reported.
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "shop"\ndependencies = ["fastmcp>=3,<4"]\n',
            "shop/__init__.py": "",
            "shop/errors.py": """\
                class ShopError(Exception):
                    pass


                class OutOfStock(ShopError):
                    pass


                class BackendDown(ShopError):
                    pass
                """,
            "shop/server.py": """\
                import sqlite3

                from fastmcp import FastMCP
                from fastmcp.exceptions import ToolError

                from .errors import BackendDown, OutOfStock, ShopError

                mcp = FastMCP("shop")


                def reserve(sku: str, qty: int) -> None:
                    try:
                        with sqlite3.connect("shop.db") as db:
                            row = db.execute("select stock from items where sku = ?", (sku,)).fetchone()
                    except sqlite3.Error as e:
                        raise BackendDown(f"database error: {e}") from e
                    if row is None or row[0] < qty:
                        raise OutOfStock(f"Only {row[0] if row else 0} of {sku} left; order fewer")


                @mcp.tool
                def order(sku: str, qty: int) -> str:
                    try:
                        reserve(sku, qty)
                    except ShopError as e:
                        raise ToolError(str(e)) from e
                    return "reserved"
                """,
        },
    )
    found = _mcp002(lint_tree(tmp_path))
    assert [(name, row) for name, row, _ in found] == [("server.py", 16)]
    assert "raises BackendDown with the text of a caught sqlite3.Error\n" in found[0][2]
    assert "caught on the way: tool 'order' puts it into ToolError" in found[0][2]


def test_wrapping_and_passing_on_in_the_same_tool() -> None:
    check(
        """\
        import json

        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("feeds")


        class FeedError(Exception):
            pass


        @mcp.tool()
        def read_feed(url: str) -> str:
            try:
                if not url.startswith("https://"):
                    raise FeedError("only https:// feeds are supported")
                try:
                    payload = httpx.get(url).json()
                except json.JSONDecodeError as e:
                    raise FeedError(f"feed is not JSON: {e}") from e  # expect: MCP002
                return payload["title"]
            except FeedError as e:
                return f"Cannot read feed: {e}"  # expect: MCP005
        """
    )


def test_project_subclass_of_tool_error_is_delivered_like_tool_error() -> None:
    # mcp 2.1+ masks a plain exception but delivers a ToolError subclass's text verbatim.
    findings = check(
        """\
        import httpx
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError

        mcp = MCPServer("docs")


        class DocumentationError(ToolError):
            pass


        async def fetch_page(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(url)).text
            except httpx.HTTPError as e:
                raise DocumentationError(f"Failed to fetch {url}: {e}") from e  # expect: MCP002


        @mcp.tool()
        async def read_documentation(url: str) -> str:
            return await fetch_page(url)
        """,
        target="mcp>=2.1,<3",
    )
    assert findings[0].message.endswith("into DocumentationError")
    assert "DocumentationError is a ToolError: the model reads its text verbatim" in findings[0].notes


def test_plain_exception_raised_with_library_text_stays_silent_on_mcp_2_1() -> None:
    check(
        """\
        import httpx
        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("docs")


        class DocumentationError(Exception):
            pass


        async def fetch_page(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(url)).text
            except httpx.HTTPError as e:
                raise DocumentationError(f"Failed to fetch {url}: {e}") from e


        @mcp.tool()
        async def read_documentation(url: str) -> str:
            return await fetch_page(url)
        """,
        target="mcp>=2.1,<3",
    )


# -- narrow builtin classes: library code in the try body, or the project's own ----------------


def test_value_error_from_the_projects_own_validator_is_the_authors_text() -> None:
    check(
        """\
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("calendar")


        def parse_slot(slot: str) -> tuple[int, int]:
            start, _, end = slot.partition("-")
            if not start.isdigit() or not end.isdigit():
                raise ValueError(f"slot {slot!r} must look like 9-17")
            return int(start), int(end)


        class Booker:
            def check(self, room: str) -> None:
                if room not in {"a", "b"}:
                    raise ValueError(f"unknown room {room!r}; use 'a' or 'b'")

            def book(self, room: str, slot: str) -> str:
                try:
                    self.check(room)
                    hours = parse_slot(slot)
                except ValueError as e:
                    raise ToolError(str(e)) from e
                return f"booked {room} {hours}"


        @mcp.tool
        def book(room: str, slot: str) -> str:
            return Booker().book(room, slot)
        """,
        target="fastmcp>=3,<4",
    )


def test_value_error_from_a_library_call_is_library_text() -> None:
    check(
        """\
        import numpy as np
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("math")


        @mcp.tool
        def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
            try:
                return np.linalg.solve(np.array(matrix), np.array(rhs)).tolist()
            except ValueError as e:
                raise ToolError(f"cannot solve: {e}") from e  # expect: MCP002
        """,
        target="fastmcp>=3,<4",
    )


def test_clause_handing_the_exception_to_a_formatting_helper_passes_its_text_on() -> None:
    findings = check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("lab")


        class LabError(Exception):
            pass


        def error_text(error: Exception) -> str:
            return f"The lab refused the request: {error}"


        def fetch(path: str) -> dict:
            if path.startswith("/"):
                raise LabError("paths are relative to the project; drop the leading '/'")
            try:
                return httpx.get(f"https://lab.example.com/{path}").json()
            except httpx.TransportError as e:
                raise LabError(f"cannot reach the lab: {e}") from e  # expect: MCP002


        @mcp.tool()
        def get_project(path: str) -> str:
            try:
                return str(fetch(path))
            except LabError as e:
                raise ToolError(error_text(e)) from e
        """
    )
    assert "caught on the way: tool 'get_project' passes it to 'error_text', which returns its text (server.py:13)" in findings[0].notes


def test_formatting_helper_that_drops_the_text_passes_nothing_on() -> None:
    check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("lab")


        class LabError(Exception):
            pass


        def error_text(error: Exception) -> str:
            return f"The lab refused the request ({type(error).__name__}); check the path"


        def fetch(path: str) -> dict:
            if path.startswith("/"):
                raise LabError("paths are relative to the project; drop the leading '/'")
            try:
                return httpx.get(f"https://lab.example.com/{path}").json()
            except httpx.TransportError as e:
                raise LabError(f"cannot reach the lab: {e}") from e


        @mcp.tool()
        def get_project(path: str) -> str:
            try:
                return str(fetch(path))
            except LabError as e:
                raise ToolError(error_text(e)) from e
        """
    )


def test_text_wrapped_twice_on_the_way_to_the_tool_is_followed() -> None:
    # client -> service -> tool: each layer wraps the error into its own class with str(e).
    findings = check(
        """\
        import httpx
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("orders")


        class ApiError(Exception):
            pass


        class OrderError(Exception):
            pass


        def fetch_order(order_id: str) -> dict:
            if not order_id.isdigit():
                raise ApiError(f"order ids are digits, got {order_id!r}")
            try:
                return httpx.get(f"https://shop.example.com/orders/{order_id}").json()
            except httpx.HTTPError as e:
                raise ApiError(f"shop API failed: {e}") from e  # expect: MCP002


        def order_total(order_id: str) -> float:
            if order_id == "0":
                raise OrderError("order 0 is the template order; pass a real id")
            try:
                return fetch_order(order_id)["total"]
            except ApiError as e:
                raise OrderError(f"cannot price order {order_id}: {e}") from e


        @mcp.tool
        def get_total(order_id: str) -> float:
            try:
                return order_total(order_id)
            except OrderError as e:
                raise ToolError(str(e)) from e
        """,
        target="fastmcp>=3,<4",
    )
    assert (
        "caught on the way: 'order_total' raises it again as OrderError (server.py:31), and tool 'get_total' puts it into ToolError (server.py:39)"
        in findings[0].notes
    )


def test_own_class_from_a_sibling_top_level_module_is_the_projects(tmp_path: Path) -> None:
    # server.py and errors.py side by side, no package: `errors.ApiError` is not a library class.
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "tasks"\ndependencies = ["fastmcp>=3,<4"]\n',
            "errors.py": """\
                class ApiError(Exception):
                    pass
                """,
            "client.py": """\
                import httpx

                from errors import ApiError


                def fetch_task(task_id: str) -> dict:
                    if not task_id.isdigit():
                        raise ApiError(f"task ids are digits, got {task_id!r}; call list_tasks")
                    try:
                        return httpx.get(f"https://tasks.example.com/{task_id}").json()
                    except httpx.HTTPError as e:
                        raise ApiError(f"task service failed: {e}") from e
                """,
            "server.py": """\
                from fastmcp import FastMCP
                from fastmcp.exceptions import ToolError

                from client import fetch_task
                from errors import ApiError

                mcp = FastMCP("tasks")


                @mcp.tool
                def get_task(task_id: str) -> dict:
                    try:
                        return fetch_task(task_id)
                    except ApiError as e:
                        raise ToolError(str(e)) from e
                """,
        },
    )
    found = _mcp002(lint_tree(tmp_path))
    assert [(name, row) for name, row, _ in found] == [("client.py", 12)]
    assert "caught on the way: tool 'get_task' puts it into ToolError (" in found[0][2]


def test_rewrapped_in_the_same_function_and_passed_on_there() -> None:
    findings = check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("feeds")


        class FetchError(Exception):
            pass


        class FeedError(Exception):
            pass


        def fetch(url: str) -> str:
            if not url.startswith("https://"):
                raise FetchError("only https:// feeds are supported")
            try:
                return httpx.get(url).text
            except httpx.HTTPError as e:
                raise FetchError(f"download failed: {e}") from e  # expect: MCP002


        @mcp.tool()
        def read_feed(url: str) -> str:
            try:
                if not url:
                    raise FeedError("pass the feed's address")
                try:
                    return fetch(url)
                except FetchError as e:
                    raise FeedError(f"cannot read {url}: {e}") from e
            except FeedError as e:
                return f"Feed problem: {e}"  # expect: MCP005
        """
    )
    assert "raises it again as FeedError (server.py:32), and tool 'read_feed' returns it (server.py:34)" in said(findings[0])


def test_a_broad_clause_passing_the_text_on_is_the_one_finding_of_the_flow() -> None:
    # `except Exception` in the tool is reported for every exception it forwards, the helper's
    # wrapped one included: the raise in the helper is not reported a second time.
    findings = check(
        """\
        import subprocess

        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("shell")


        class CommandError(Exception):
            pass


        def run(command: list[str]) -> str:
            if not command:
                raise CommandError("pass a command to run, e.g. ['ls', '-l']")
            try:
                return subprocess.run(command, check=True, capture_output=True, text=True).stdout
            except subprocess.CalledProcessError as e:
                raise CommandError(f"command failed: {e.stderr}") from e


        @mcp.tool()
        def run_command(command: list[str]) -> str:
            try:
                return run(command)
            except Exception as e:
                raise ToolError(f"Error: {e}") from e  # expect: MCP002
        """
    )
    assert "Tool 'run_command' puts the text of a caught Exception into ToolError" in said(findings[0])



def _stats_server(first_raise: str, fallback_mark: str, catch_mark: str) -> str:
    """A client whose HTTP error clause tries the upstream's own error field first (`first_raise`,
    inside a `try` that catches everything) and falls back to the raw body."""
    return f"""\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("stats")


class ApiError(Exception):
    pass


async def request(path: str) -> dict:
    try:
        async with httpx.AsyncClient() as client:
            resp = await client.get(f"https://stats.example.com/api/{{path}}")
            resp.raise_for_status()
            return resp.json()
    except httpx.HTTPStatusError as e:
        try:
            detail = e.response.json()["error"]
            {first_raise}
        except Exception:
            raise ApiError(f"API error {{e.response.status_code}}: {{e.response.text}}") from e{fallback_mark}


@mcp.tool
async def site_stats(site: str) -> dict:
    try:
        return await request(f"sites/{{site}}")
    except ApiError as e:
        return {{"error": str(e)}}{catch_mark}
"""


def test_a_raise_caught_again_in_its_own_function_does_not_make_the_class_the_authors() -> None:
    # The curated raise never leaves `request` (its own `except Exception:` takes it): every
    # ApiError the tool catches carries the upstream's text (a carrier). The tool returns it, so
    # the raise that took the body in is the finding, naming the tool's return.
    source = _stats_server('raise ApiError("the stats API rejected the request")', "  # expect: MCP002", "  # expect: MCP005")
    findings = check(source, target="fastmcp>=3,<4")
    (inner,) = [f for f in findings if f.code == "MCP002"]
    assert inner.location.row == 22
    assert "tool 'site_stats' returns it (server.py:30)" in said(inner)


def test_a_curated_raise_that_leaves_its_function_keeps_the_class_the_authors() -> None:
    # The same curated raise with nothing around it reaches the tool: the class is the
    # author's, and the raise that put the upstream's text into it is the finding.
    source = _stats_server('raise ApiError("the stats API rejected the request")', "  # expect: MCP002", "  # expect: MCP005")
    source = source.replace("        try:\n            detail", "        if e.response.status_code == 403:\n            raise ApiError(\"the API key may not read this site; pass another site id\")\n        try:\n            detail")
    findings = check(source, target="fastmcp>=3,<4")
    (inner,) = [f for f in findings if f.code == "MCP002"]
    assert inner.location.row == 24
    assert "tool 'site_stats' returns it" in said(inner)


def _tickets_server(clause: str, tool_clause: str) -> str:
    """A client whose transport errors go through a factory building the project's exception
    from the caught error's text (`clause` uses it), and a tool catching the project's class."""
    return f"""\
import logging

import httpx
from fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("tickets")


class TicketsError(Exception):
    pass


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.AsyncClient(base_url=base)

    def _unreachable(self, e: httpx.TransportError) -> TicketsError:
        msg = f"Cannot reach the ticket service at {{self.base}}: {{e}}"
        return TicketsError(msg)

    async def get(self, path: str) -> dict:
        if ".." in path:
            raise TicketsError("path may not contain '..'; pass a ticket id")
        try:
            resp = await self.http.get(path)
        except httpx.TransportError as e:
            {clause}
        return resp.json()


client = Client("https://tickets.example.com")


@mcp.tool
async def get_ticket(ticket_id: str) -> dict:
    try:
        return await client.get(f"/tickets/{{ticket_id}}")
    except TicketsError as e:
        {tool_clause}
"""


def test_exception_built_by_a_factory_and_raised_by_its_caller_is_flagged_in_the_factory() -> None:
    source = _tickets_server("raise self._unreachable(e) from e", "raise RuntimeError(str(e)) from e")
    source = source.replace("return TicketsError(msg)", "return TicketsError(msg)  # expect: MCP002")
    findings = check(source, target="fastmcp>=3,<4")
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert finding.location.row == 21
    assert "Helper '_unreachable' builds TicketsError" in said(finding)
    assert "the text of the exception passed in 'e', which the caller raises" in said(finding)


def test_factory_exception_raised_through_a_local_and_returned_by_the_tool() -> None:
    source = _tickets_server("err = self._unreachable(e)\n            raise err from e", 'return {"error": str(e)}  # expect: MCP005')
    source = source.replace("return TicketsError(msg)", "return TicketsError(msg)  # expect: MCP002")
    findings = check(source, target="fastmcp>=3,<4")
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert finding.message.endswith("which the caller raises")
    assert "caught on the way: tool 'get_ticket' returns it (server.py:42)" in finding.notes


def test_factory_exception_caught_on_the_way_and_replaced_stays_silent() -> None:
    # The tool says what failed in its own words: the factory's text never reaches the model.
    source = _tickets_server(
        "raise self._unreachable(e) from e",
        'raise RuntimeError(f"ticket {ticket_id} could not be fetched; check the id with list_tickets") from e',
    )
    check(source, target="fastmcp>=3,<4")


def test_factory_whose_value_is_only_logged_stays_silent() -> None:
    # Built but never raised nor returned: the text stays in the server's log.
    source = _tickets_server(
        "logger.warning(\"%s\", self._unreachable(e))\n            raise TicketsError(\"ticket service unreachable; retry in a minute\") from e",
        'return {"error": str(e)}  # expect: MCP005',
    )
    check(source, target="fastmcp>=3,<4")


def test_factory_given_no_caught_exception_stays_silent() -> None:
    # The caller passes its own value, not the caught exception: nothing of a library's text.
    source = _tickets_server(
        "raise self._unreachable(path) from e",
        "raise RuntimeError(str(e)) from e",
    )
    check(source, target="fastmcp>=3,<4")


def test_factory_exception_escaping_to_an_unmasked_framework_is_flagged() -> None:
    source = _tickets_server("raise self._unreachable(e) from e", "raise").replace(
        "return TicketsError(msg)", "return TicketsError(msg)  # expect: MCP002"
    )
    findings = check(source, target="fastmcp>=3,<4")
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert finding.message == "Helper '_unreachable' builds TicketsError with the text of the exception passed in 'e', which the caller raises"
    assert "fastmcp 3.x (from [tool.mcp-lint] target) forwards an unexpected exception's text to the model" in finding.notes


def test_factory_exception_escaping_to_a_masking_server_stays_silent() -> None:
    source = _tickets_server("raise self._unreachable(e) from e", "raise").replace(
        'FastMCP("tickets")', 'FastMCP("tickets", mask_error_details=True)'
    ).replace("pass a ticket id\")", "pass a ticket id\")  # expect: MCP008")
    check(source, target="fastmcp>=3,<4")


def _rate_limited_server(error_class: str, rate_limit_mark: str) -> str:
    """A carrier class caught by a tool that passes its text on only in a rate-limit branch
    testing an attribute of the caught exception."""
    return f"""\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("stats")


{error_class}


async def request(path: str) -> dict:
    try:
        async with httpx.AsyncClient() as client:
            resp = await client.get(f"https://stats.example.com/api/{{path}}")
            resp.raise_for_status()
            return resp.json()
    except httpx.HTTPError as e:
        raise ApiError(f"stats API failed: {{e}}") from e


@mcp.tool
async def site_stats(site: str) -> dict:
    try:
        return await request(f"sites/{{site}}")
    except ApiError as e:
        limited = getattr(e, "status_code", None) == 429
        if limited:
            raise RuntimeError(f"rate limited: {{e}}") from e{rate_limit_mark}
        raise RuntimeError("the stats API failed; check the site id with list_sites") from e
"""


def test_branch_on_an_attribute_the_caught_class_never_has_stays_silent() -> None:
    # ApiError has no `status_code`: the rate-limit branch is never taken.
    check(_rate_limited_server("class ApiError(Exception):\n    pass", ""), target="fastmcp>=3,<4")


def test_branch_on_an_attribute_the_class_sets_is_flagged() -> None:
    error_class = (
        "class ApiError(Exception):\n"
        "    def __init__(self, message: str, status_code: int | None = None) -> None:\n"
        "        super().__init__(message)\n"
        "        self.status_code = status_code"
    )
    findings = check(_rate_limited_server(error_class, "  # expect: MCP002"), target="fastmcp>=3,<4")
    assert any(f.code == "MCP002" and f.location.row == 30 for f in findings)


def test_branch_on_an_attribute_a_subclass_defines_is_flagged() -> None:
    # `except ApiError` also catches RateLimited, which has the attribute.
    error_class = "class ApiError(Exception):\n    pass\n\n\nclass RateLimited(ApiError):\n    status_code = 429"
    check(_rate_limited_server(error_class, "  # expect: MCP002"), target="fastmcp>=3,<4")
