"""MCP002 raw-exception-text: recall on every sink and framework, precision on curated text.

Each source marks the lines where a finding is expected with `# expect: MCPnnn`; the test asserts
the exact set of (code, row) for the whole snippet, so a finding of another rule fails it too.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest


from ._support import (
    said,
    check as _check,
    expected,
    only as _only,
    write_tree as _write_tree,
    lint_tree as _lint_tree,
    unmasked,
)


MCP1 = """\
import json
import logging
import subprocess
import traceback

import httpx
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import TextContent

logger = logging.getLogger(__name__)
mcp = FastMCP("svc")
"""

MCP2 = """\
import logging

import httpx
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = MCPServer("svc")
"""

FASTMCP = """\
import logging

import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("svc")
"""


def _src(header: str, body: str) -> str:
    return header + "\n" + textwrap.dedent(body)


# -- recall: every way exception text reaches the model ----------------------------------------

LEAKS = [
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        async def get_forecast(city: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.get(f"https://api.example.com/forecast/{city}")
                    response.raise_for_status()
                    return response.text
            except Exception as e:
                return f"Error: {e}"  # expect: MCP002, MCP005
        """,
        id="fstring-return-fastmcp",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def read_config(path: str) -> str:
            try:
                with open(path) as handle:
                    return handle.read()
            except OSError as exc:
                return str(exc)  # expect: MCP002, MCP005
        """,
        id="str-return-mcp1",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def fetch_page(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(url)).text
            except httpx.HTTPError as exc:
                raise ToolError(f"Could not fetch {url}: {exc}")  # expect: MCP002
        """,
        id="toolerror-fstring-mcp2",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def parse_payload(url: str) -> dict:
            body = fetch_body(url)
            try:
                return json.loads(body)
            except json.JSONDecodeError as err:
                return {"error": repr(err)}  # expect: MCP002, MCP005
        """,
        id="repr-in-error-dict",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def run_report(name: str) -> str:
            try:
                completed = subprocess.run(["report", name], check=True, capture_output=True, text=True)
            except subprocess.CalledProcessError as exc:
                raise ToolError(exc.args[0])  # expect: MCP002
            return completed.stdout
        """,
        id="args-into-toolerror",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def build(target: str) -> str:
            try:
                subprocess.run(["make", target], check=True, capture_output=True, text=True)
            except subprocess.CalledProcessError as exc:
                return exc.stderr  # expect: MCP002, MCP005
            return "built"
        """,
        id="subprocess-stderr",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def sync_calendar(account: str) -> list[TextContent]:
            try:
                sync(account)
            except Exception:
                return [TextContent(type="text", text=traceback.format_exc())]  # expect: MCP002
            return [TextContent(type="text", text="synced")]
        """,
        id="traceback-in-textcontent",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def export_rows(table: str) -> dict:
            try:
                rows = DB.fetch_all(table)
            except Exception as e:
                msg = str(e)
                return {"success": False, "message": msg}  # expect: MCP002, MCP005
            return {"success": True, "rows": rows}
        """,
        id="tainted-local",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        async def create_issue(title: str) -> str:
            async with httpx.AsyncClient() as client:
                try:
                    response = await client.post("https://tracker.example.com/issues", json={"title": title})
                    response.raise_for_status()
                except httpx.HTTPStatusError as e:
                    raise ToolError(f"Tracker rejected the issue: {e.response.text}")  # expect: MCP002
            return response.json()["url"]
        """,
        id="http-error-response-body",
    ),
    pytest.param(
        unmasked(MCP1),
        """\
        @mcp.tool()
        async def lookup_user(user_id: str) -> str:
            async with httpx.AsyncClient() as client:
                resp = await client.get(f"https://users.example.com/{user_id}")
            if resp.status_code != 200:
                return f"User service answered {resp.status_code}: {resp.text}"  # expect: MCP002, MCP005 (a failed reply's branch: a failure whatever its words)
            return resp.json()["name"]
        """,
        id="upstream-body-status-code",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def lookup_order(order_id: str) -> str:
            async with httpx.AsyncClient() as client:
                resp = await client.get(f"https://orders.example.com/{order_id}")
            if not resp.is_success:
                raise ToolError(resp.text)  # expect: MCP002
            return resp.json()["state"]
        """,
        id="upstream-body-toolerror",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def load_settings(path: str) -> str:
            try:
                with open(path) as handle:
                    return handle.read()
            except:
                return f"Could not read {path}: {traceback.format_exc()}"  # expect: MCP002, MCP005
        """,
        id="bare-except-traceback",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def ping_host(host: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    await client.get(f"https://{host}/health")
            except Exception as e:
                raise ToolError(str(e)) from e  # expect: MCP002
            return "up"
        """,
        id="toolerror-str-under-mcp2-masking",
    ),
    pytest.param(
        MCP1,
        """\
        def format_error(e: Exception) -> str:
            return f"Request failed: {e}"  # expect: MCP002,MCP005

        @mcp.tool()
        async def get_quote(symbol: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(f"https://quotes.example.com/{symbol}")).text
            except httpx.HTTPError as e:
                return format_error(e)
        """,
        id="same-module-formatter",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def fetch_text(url: str) -> str:
            try:
                return httpx.get(url).text
            except Exception as e:
                error_message = f"Fetching {url} failed: {e}"  # expect: MCP002
                logger.error(error_message)
                return error_message  # expect: MCP005
        """,
        id="logged-and-returned",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def fetch_text(url: str) -> str:
            try:
                return httpx.get(url).text
            except Exception as e:
                raise ToolError("Fetch failed: " + str(e))  # expect: MCP002
        """,
        id="concatenation",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def fetch_text(url: str) -> str:
            try:
                return httpx.get(url).text
            except Exception as e:
                return "Fetch of {} failed: {}".format(url, e)  # expect: MCP002, MCP005
        """,
        id="str-format",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def fetch_text(url: str) -> str:
            try:
                return httpx.get(url).text
            except Exception as e:
                return "Fetch failed: %s" % e  # expect: MCP002, MCP005
        """,
        id="percent-format",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def fetch_json(url: str) -> str:
            try:
                return httpx.get(url).text
            except Exception as e:
                return json.dumps({"error": str(e)})  # expect: MCP002, MCP005
        """,
        id="json-dumps",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def fetch_text(url: str) -> str:
            try:
                return httpx.get(url).text
            except Exception as e:
                return f"Error: {e!r}"  # expect: MCP002, MCP005
        """,
        id="fstring-repr-conversion",
    ),
    pytest.param(
        MCP1,
        """\
        from pydantic import ValidationError

        @mcp.tool()
        def import_profile(url: str) -> str:
            try:
                Profile.model_validate_json(httpx.get(url).text)
            except ValidationError as e:
                raise ToolError(str(e))  # expect: MCP002
            return "saved"
        """,
        id="pydantic-validation-text",
    ),
]


@pytest.mark.parametrize(("header", "body"), LEAKS)
def test_exception_text_reaching_the_model_is_flagged(header: str, body: str) -> None:
    _check(_src(header, body))


def test_mcp1_lowlevel_text_content_leak() -> None:
    source = """\
    import httpx
    import mcp.types as types
    from mcp.server.lowlevel import Server

    server = Server("fetch")

    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
        try:
            async with httpx.AsyncClient() as client:
                body = (await client.get(arguments["url"])).text
        except Exception as e:
            return [types.TextContent(type="text", text=f"Error: {e}")]  # expect: MCP002, MCP005
        return [types.TextContent(type="text", text=body)]
    """
    (finding,) = [f for f in _check(source) if f.code == "MCP002"]
    assert finding.message.startswith(
        "Tool 'call_tool' returns the text of a caught Exception as a normal result"
    )


def test_message_for_a_returned_exception_text() -> None:
    (finding,) = [f for f in _check(_src(FASTMCP, LEAKS[0].values[1])) if f.code == "MCP002"]
    assert finding.message == "Tool 'get_forecast' returns the text of a caught Exception as a normal result"
    # The fix's title is the help: it fits one line.
    assert finding.help == finding.fix.message and finding.help.startswith("Log the exception and raise ToolError(")
    assert finding.notes == ("the model reads it verbatim as the tool's answer (isError: false)",)


def test_message_for_exception_text_in_tool_error() -> None:
    finding = _only(_src(MCP2, LEAKS[2].values[1]))
    assert finding.message == "Tool 'fetch_page' puts the text of a caught httpx.HTTPError into ToolError"
    assert "the model reads a ToolError's text verbatim" in finding.notes
    assert finding.help.startswith(("Log the exception", "Raise ToolError"))


def test_message_names_a_traceback() -> None:
    finding = _only(_src(MCP1, LEAKS[6].values[1]))
    assert (
        "Tool 'sync_calendar' returns a traceback as a normal result" in said(finding)
    )


def test_message_names_the_upstream_body() -> None:
    (finding,) = [f for f in _check(_src(unmasked(MCP1), LEAKS[9].values[1])) if f.code == "MCP002"]
    assert (
        "Tool 'lookup_user' returns an upstream error body (resp.text)"
        in said(finding)
    )


def test_formatter_in_another_module_is_reported_once_naming_every_tool(
    tmp_path: Path,
) -> None:
    _write_tree(
        tmp_path,
        {
            "svc/__init__.py": "",
            "svc/errors.py": """\
                def format_error(e: Exception) -> str:
                    return f"Error: {e}"
                """,
            "svc/app.py": """\
                from fastmcp import FastMCP

                mcp = FastMCP("svc")
                """,
            "svc/orders.py": """\
                import httpx

                from .app import mcp
                from .errors import format_error


                @mcp.tool
                async def get_order(order_id: str) -> str:
                    try:
                        async with httpx.AsyncClient() as client:
                            return (await client.get(f"https://orders.example.com/{order_id}")).text
                    except httpx.HTTPError as e:
                        return format_error(e)


                @mcp.tool
                async def cancel_order(order_id: str) -> str:
                    try:
                        async with httpx.AsyncClient() as client:
                            await client.delete(f"https://orders.example.com/{order_id}")
                    except Exception as e:
                        return format_error(e)
                    return "cancelled"
                """,
            "svc/users.py": """\
                import httpx

                from .app import mcp
                from .errors import format_error


                @mcp.tool
                async def get_user(user_id: str) -> str:
                    try:
                        async with httpx.AsyncClient() as client:
                            return (await client.get(f"https://users.example.com/{user_id}")).text
                    except httpx.HTTPError as e:
                        return format_error(e)
                """,
        },
    )
    findings = _lint_tree(tmp_path)
    # The failure the formatter builds from the exception every tool hands in is also MCP005 (a
    # failure returned as a success; rules are independent), one flow each, in the formatter.
    assert sorted((Path(f.filename).name, f.code, f.location.row) for f in findings) == [
        ("errors.py", "MCP002", 2),
        ("errors.py", "MCP005", 2),
    ]
    findings = [f for f in findings if f.code == "MCP002"]
    assert findings[0].message.startswith(
        "Helper 'format_error' returns "
        "the text of the exception passed in 'e'"
    )


def test_formatter_called_with_a_curated_value_is_silent(tmp_path: Path) -> None:
    _write_tree(
        tmp_path,
        {
            "svc/__init__.py": "",
            "svc/errors.py": """\
                def format_error(e: Exception) -> str:
                    return f"Error: {e}"
                """,
            "svc/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from .errors import format_error

                mcp = FastMCP("svc")


                @mcp.tool()
                def version() -> str:
                    return "1.0"


                def unused(err: Exception) -> str:
                    return format_error(err)
                """,
        },
    )
    assert _lint_tree(tmp_path) == []


# -- raising a non-ToolError: depends on whether the framework forwards its text ---------------

RAISE_OTHER = """\
@mcp.tool()
async def fetch_rates(base: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            return (await client.get(f"https://rates.example.com/{base}")).text
    except httpx.HTTPError as exc:
        raise RuntimeError(f"rates service failed: {exc}") from exc  # expect: MCP002
"""


def test_raising_other_exception_with_text_is_flagged_on_mcp1() -> None:
    finding = _only(_src(MCP1, RAISE_OTHER))
    assert finding.message == "Tool 'fetch_rates' raises RuntimeError with the text of a caught httpx.HTTPError"
    assert finding.notes == ("mcp 1.x FastMCP forwards an unexpected exception's text to the model",)


def test_raising_other_exception_with_text_is_flagged_on_unmasked_fastmcp() -> None:
    finding = _only(
        _src(FASTMCP, RAISE_OTHER.replace("@mcp.tool()", "@mcp.tool")),
        target="fastmcp>=2.5,<4",
    )
    assert (
        "raises RuntimeError with the text of a caught httpx.HTTPError\n" in said(finding)
        and "fastmcp 2.x / fastmcp 3.x (from [tool.mcp-lint] target) forwards" in said(finding)
    )
    assert "[tool.mcp-lint] target" in said(finding)


def test_raising_other_exception_is_silent_on_mcp_2_1() -> None:
    source = _src(MCP2, RAISE_OTHER.replace("  # expect: MCP002", ""))
    _check(source, target="mcp>=2.1")


def test_raising_other_exception_is_silent_under_fastmcp_masking() -> None:
    header = FASTMCP.replace(
        'FastMCP("svc")', 'FastMCP("svc", mask_error_details=True)'
    )
    _check(
        _src(
            header,
            RAISE_OTHER.replace("  # expect: MCP002", "").replace(
                "@mcp.tool()", "@mcp.tool"
            ),
        )
    )


def test_lowlevel2_curated_error_result_is_silent() -> None:
    source = """\
    import logging

    import httpx
    from mcp.server.lowlevel import Server
    from mcp.types import CallToolResult, TextContent

    logger = logging.getLogger(__name__)

    async def handle_call_tool(ctx, params) -> CallToolResult:
        url = (params.arguments or {}).get("url", "")
        try:
            async with httpx.AsyncClient() as client:
                body = (await client.get(url)).text
        except httpx.HTTPError:
            logger.exception("fetch of %s failed", url)
            return CallToolResult(content=[TextContent(type="text", text=f"Fetching {url} failed; check the URL")], is_error=True)
        return CallToolResult(content=[TextContent(type="text", text=body)])

    server = Server("fetch", on_call_tool=handle_call_tool)
    """
    _check(source)


def test_raising_other_exception_is_silent_when_fastmcp_2_4_may_mask() -> None:
    # fastmcp 2.4 masks every non-ToolError: the text does not reach the model on every candidate.
    source = _src(
        FASTMCP,
        RAISE_OTHER.replace("  # expect: MCP002", "").replace(
            "@mcp.tool()", "@mcp.tool"
        ),
    )
    _check(source, target="fastmcp>=2.3,<2.5")


# -- precision: curated text stays silent ------------------------------------------------------

CURATED = [
    pytest.param(
        MCP1,
        """\
        class NoteError(Exception):
            pass

        def load(note_id: str) -> str:
            raise NoteError(f"Note {note_id} is archived; call restore_note first")

        @mcp.tool()
        def read_note(note_id: str) -> str:
            try:
                return load(note_id)
            except NoteError as e:
                raise ToolError(str(e)) from e
        """,
        id="project-exception-class",
    ),
    pytest.param(
        FASTMCP,
        """\
        def check_quota(user: str) -> None:
            raise ToolError(f"User {user} has no quota left this month")

        @mcp.tool
        def upload(user: str, name: str) -> str:
            try:
                check_quota(user)
            except ToolError as e:
                raise ToolError(f"Upload of {name} refused: {e}") from e
            return "uploaded"
        """,
        id="toolerror-caught-and-reraised",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        def set_limit(limit: int) -> str:
            try:
                if limit < 1:
                    raise ValueError("limit must be at least 1")
                if limit > 100:
                    raise ValueError("limit must be at most 100")
            except ValueError as e:
                raise ToolError(f"{e}; pass a limit between 1 and 100")
            return "ok"
        """,
        id="try-body-raises-only-literals",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def get_weather(city: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.get(f"https://api.example.com/weather/{city}")
                    response.raise_for_status()
                    return response.text
            except httpx.HTTPStatusError as e:
                logger.exception("weather lookup failed")
                raise ToolError(f"The weather service answered HTTP {e.response.status_code} for {city!r}; check the city name") from e
        """,
        id="status-code-not-text",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        async def send_invoice(invoice_id: str, ctx: Context) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    await client.post(f"https://billing.example.com/invoices/{invoice_id}/send")
            except httpx.HTTPError as e:
                logger.exception("sending invoice %s failed: %s", invoice_id, e)
                await ctx.error(f"send_invoice failed: {e}")
                raise ToolError(f"Billing did not accept invoice {invoice_id}; check it with get_invoice before sending again") from e
            return "sent"
        """,
        id="logged-then-curated",
    ),
    pytest.param(
        FASTMCP,
        """\
        @mcp.tool
        def top_items(limit: str) -> list[str]:
            try:
                count = int(limit)
            except ValueError as e:
                raise ToolError(f"limit must be a whole number, got {limit!r} ({e})")
            return ITEMS[:count]
        """,
        id="value-error-around-int",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def import_csv(path: str) -> str:
            try:
                rows = DB.load_csv(path)
            except Exception as e:
                logger.warning("import of %s failed", path, exc_info=e)
                raise ToolError(f"Importing {path} failed with {type(e).__name__}; check the file with preview_csv") from e
            return f"{rows} rows imported"
        """,
        id="exception-class-name-only",
    ),
    pytest.param(
        unmasked(MCP1),
        """\
        @mcp.tool()
        async def refresh(feed: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    await client.get(feed)
            except httpx.HTTPError:
                raise
            return "refreshed"
        """,
        id="bare-reraise",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.resource("file://{path}")
        def read_file(path: str) -> str:
            try:
                with open(path) as handle:
                    return handle.read()
            except OSError as e:
                return f"cannot read {path}: {e}"
        """,
        id="resource-handler",
    ),
    pytest.param(
        MCP1,
        """\
        def describe(e: Exception) -> str:
            return f"Request failed: {e}"

        @mcp.tool()
        def version() -> str:
            return "1.0"
        """,
        id="formatter-not-reached",
    ),
    pytest.param(
        MCP1,
        """\
        FIELDS = {"title": 0, "body": 1}

        @mcp.tool()
        def field_index(name: str) -> int:
            try:
                return FIELDS[name]
            except KeyError as e:
                raise ToolError(f"Unknown field {e}; use one of {sorted(FIELDS)}")
        """,
        id="keyerror-from-own-dict",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def build(target: str) -> str:
            try:
                subprocess.run(["make", target], check=True)
            except subprocess.CalledProcessError as e:
                raise ToolError(f"make {target} exited with status {e.returncode}; run make -n {target} to see the failing step") from e
            return "built"
        """,
        id="returncode-not-text",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def search(query: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(f"https://search.example.com/?q={query}")).text
            except httpx.HTTPError as e:
                if "timed out" in str(e):
                    raise ToolError("The search backend timed out after 10 s; narrow the query") from e
                raise ToolError("The search backend is unreachable; check search_status") from e
        """,
        id="exception-text-only-in-a-condition",
    ),
    pytest.param(
        MCP1,
        """\
        from .errors import NoteError

        @mcp.tool()
        def read_note(note_id: str) -> str:
            try:
                return load(note_id)
            except NoteError as e:
                raise ToolError(str(e)) from e
        """,
        id="project-exception-relative-import",
    ),
    pytest.param(
        MCP1,
        """\
        CACHE: dict[str, str] = {}

        @mcp.tool()
        async def weather(city: str, ctx: Context) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    fresh = (await client.get(f"https://weather.example.com/{city}")).text
                CACHE[city] = fresh
                return fresh
            except httpx.HTTPError as e:
                await ctx.warning(f"weather refresh failed: {e}")
                return CACHE.get(city, "unknown")
        """,
        id="notification-only-then-fallback",
    ),
    pytest.param(
        FASTMCP,
        """\
        def log_failure(e: Exception) -> None:
            logger.error("request failed: %s", e)

        @mcp.tool
        async def fetch(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(url)).text
            except Exception as e:
                log_failure(e)
                raise ToolError(f"Fetching {url} failed; check that the URL is reachable") from e
        """,
        id="helper-only-logs-the-exception",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def fetch(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(url)).text
            except httpx.HTTPError as e:
                raise ToolError(f"Fetching {url} failed with {e.__class__.__name__}; check the URL") from e
        """,
        id="class-name-attribute",
    ),
    pytest.param(
        MCP1,
        """\
        def main() -> str:
            try:
                mcp.run()
            except Exception as e:
                return f"server stopped: {e}"
            return "stopped"

        @mcp.tool()
        def version() -> str:
            return "1.0"
        """,
        id="non-tool-entry-point",
    ),
    pytest.param(
        FASTMCP,
        """\
        import sys

        @mcp.tool
        async def fetch(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    return (await client.get(url)).text
            except httpx.HTTPError as e:
                print(f"fetch failed: {e}", file=sys.stderr)
                raise ToolError(f"Fetching {url} failed; check that the URL is reachable") from e
        """,
        id="printed-to-stderr",
    ),
    pytest.param(
        MCP2,
        """\
        @mcp.tool()
        async def quote(symbol: str) -> str:
            try:
                async with httpx.AsyncClient(timeout=5) as client:
                    return (await client.get(f"https://quotes.example.com/{symbol}")).text
            except httpx.HTTPError as e:
                if isinstance(e, httpx.TimeoutException):
                    raise ToolError("The quote service timed out after 5 s; retry in a minute") from e
                raise ToolError(f"The quote service has no data for {symbol!r}; check the ticker") from e
        """,
        id="isinstance-dispatch",
    ),
    pytest.param(
        MCP1,
        """\
        @mcp.tool()
        def upload(path: str) -> str:
            try:
                with open(path, "rb") as handle:
                    STORE.put(path, handle.read())
            except OSError as e:
                with open("upload-errors.log", "a") as log:
                    log.write(f"{path}: {e}\\n")
                raise ToolError(f"Could not read {path}; check that the file exists and is readable") from e
            return "uploaded"
        """,
        id="written-to-a-log-file",
    ),
]


@pytest.mark.parametrize(("header", "body"), CURATED)
def test_curated_text_is_silent(header: str, body: str) -> None:
    _check(_src(header, body))


# -- known gaps (the rule disagrees with the catalogue) -----------------------------------------


def test_cloud_sdk_error_body_is_flagged() -> None:
    source = _src(
        MCP1,
        """\
        import boto3
        from botocore.exceptions import ClientError

        @mcp.tool()
        def create_bucket(bucket: str) -> str:
            try:
                boto3.client("s3").create_bucket(Bucket=bucket)
            except ClientError as e:
                raise ToolError(e.response["Error"]["Message"])  # expect: MCP002
            return "created"
        """,
    )
    _check(source)


LOWLEVEL2_ERROR_RESULT = """\
import httpx
from mcp.server.lowlevel import Server
from mcp.types import CallToolResult, TextContent


async def handle_call_tool(ctx, params) -> CallToolResult:
    try:
        async with httpx.AsyncClient() as client:
            body = (await client.get(params.arguments["url"])).text
    except httpx.HTTPError as e:
        return CallToolResult(content=[TextContent(type="text", text=str(e))], is_error=True)  # expect: MCP002
    return CallToolResult(content=[TextContent(type="text", text=body)])

server = Server("fetch", on_call_tool=handle_call_tool)
"""


def test_exception_text_in_an_error_result_is_flagged() -> None:
    finding = _only(LOWLEVEL2_ERROR_RESULT)
    assert "Tool 'handle_call_tool'" in said(finding)


def test_error_result_message_does_not_claim_is_error_false() -> None:
    finding = _only(LOWLEVEL2_ERROR_RESULT)
    assert "isError: false" not in said(finding)


def test_value_error_around_strptime_of_an_argument_is_silent() -> None:
    source = _src(
        MCP1,
        """\
        from datetime import datetime

        @mcp.tool()
        def schedule(day: str) -> str:
            try:
                when = datetime.strptime(day, "%Y-%m-%d")
            except ValueError as e:
                raise ToolError(f"day must look like 2025-01-31 ({e})")
            return when.isoformat()
        """,
    )
    _check(source)


# -- exceptions caught again on the way to the model -----------------------------------------


def test_helper_exception_caught_by_every_calling_tool_is_silent_there() -> None:
    # The helper's text never reaches the model: each tool catches HNError and says what failed.
    _check(
        """\
        import httpx
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("hn")


        class HNError(Exception):
            pass


        def get_json(path: str) -> dict:
            try:
                return httpx.get(path).json()
            except httpx.HTTPError as e:
                raise HNError(f"request to {path} failed: {e}") from e


        @mcp.tool
        def item(item_id: int) -> dict:
            try:
                return get_json(f"item/{item_id}")
            except HNError:
                raise ToolError(f"Hacker News did not answer for item {item_id}; retry in a minute") from None
        """,
        target="fastmcp>=3,<4",
    )


def test_helper_exception_reaching_one_tool_uncaught_is_flagged() -> None:
    _check(
        """\
        import httpx
        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        mcp = FastMCP("hn")


        class HNError(Exception):
            pass


        def get_json(path: str) -> dict:
            try:
                return httpx.get(path).json()
            except httpx.HTTPError as e:
                raise HNError(f"request to {path} failed: {e}") from e  # expect: MCP002


        @mcp.tool
        def item(item_id: int) -> dict:
            try:
                return get_json(f"item/{item_id}")
            except HNError:
                raise ToolError(f"Hacker News did not answer for item {item_id}; retry in a minute") from None


        @mcp.tool
        def user(name: str) -> dict:
            return get_json(f"user/{name}")
        """,
        target="fastmcp>=3,<4",
    )


def test_parse_error_of_the_tools_own_argument_is_about_the_models_input() -> None:
    # "Expecting ',' delimiter: line 1 column 15" describes what the model sent: it can act on it.
    _check(
        """\
        import base64
        import json

        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("forms")


        @mcp.tool()
        def set_filters(filters: str) -> str:
            try:
                parsed = json.loads(filters)
            except json.JSONDecodeError as e:
                raise ToolError(f"filters must be a JSON object: {e}") from e
            return apply(parsed)


        @mcp.tool()
        def upload(content_base64: str) -> str:
            try:
                data = base64.b64decode(content_base64, validate=True)
            except ValueError as e:
                raise ToolError(f"content_base64 is not valid base64: {e}") from e
            return store(data)
        """
    )


def test_raising_other_exception_is_reported_when_the_newest_admitted_fastmcp_forwards_it() -> None:
    # fastmcp>=2.3 admits 2.4.0 (which masked everything) but installs a release that forwards
    # `Error calling tool 'x': {e}` by default: the leak is real for whoever installs it today.
    source = _src(FASTMCP, RAISE_OTHER.replace("@mcp.tool()", "@mcp.tool"))
    _check(source, target="fastmcp>=2.3")


# -- exception text in a raised protocol error (McpError / MCPError) ---------------------------
# The channel is MCP001's defect; the content (raw library text in the message) is this rule's.


def test_exception_text_in_a_v1_mcp_error_is_raw_text() -> None:
    findings = _check(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.shared.exceptions import McpError
        from mcp.types import INTERNAL_ERROR, ErrorData

        mcp = FastMCP("tracker")


        @mcp.tool()
        def create_issue(title: str) -> str:
            try:
                return httpx.post("https://tracker.example.com/issues", json={"title": title}).text
            except httpx.HTTPError as e:
                raise McpError(ErrorData(code=INTERNAL_ERROR, message=f"Tracker request failed: {e}"))  # expect: MCP001, MCP002
        """
    )
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert finding.message == "Tool 'create_issue' puts the text of a caught httpx.HTTPError into McpError"
    assert "a protocol error's message is sent to the client as written" in finding.notes


def test_exception_text_in_a_v2_mcp_error_is_raw_text() -> None:
    _check(
        """\
        import httpx
        from mcp import MCPError
        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("tracker")


        @mcp.tool()
        async def close_issue(issue_id: int) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    await client.delete(f"https://tracker.example.com/issues/{issue_id}")
            except Exception as exc:
                raise MCPError(-32603, str(exc))  # expect: MCP001, MCP002
            return "closed"
        """
    )


def test_curated_message_in_a_protocol_error_is_only_the_channel_defect() -> None:
    _check(
        """\
        import httpx
        from mcp import MCPError
        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("tracker")


        @mcp.tool()
        async def close_issue(issue_id: int) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    await client.delete(f"https://tracker.example.com/issues/{issue_id}")
            except httpx.HTTPStatusError as exc:
                raise MCPError(-32603, f"The tracker refused to close issue {issue_id} (HTTP {exc.response.status_code})")  # expect: MCP001
            return "closed"
        """
    )


# -- masking read from the framework table --------------------------------------------------

PROTOCOL_ERROR_WITH_TEXT = """\
import httpx
from fastmcp import FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INTERNAL_ERROR, ErrorData

mcp = FastMCP("tracker")


@mcp.tool()
def create_issue(title: str) -> str:
    try:
        return httpx.post("https://tracker.example.com/issues", json={"title": title}).text
    except httpx.HTTPError as e:
        raise McpError(ErrorData(code=INTERNAL_ERROR, message=f"Tracker request failed: {e}"))  # expect: MCP001, MCP002
"""


def test_protocol_error_text_is_flagged_where_fastmcp_sends_it() -> None:
    findings = _check(PROTOCOL_ERROR_WITH_TEXT, target="fastmcp>=3,<4")
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert finding.location.row == 14
    assert "puts the text of a caught httpx.HTTPError into McpError" in said(finding)


def test_protocol_error_text_is_silent_on_fastmcp_2_4_which_masks_it() -> None:
    # fastmcp 2.4.0 replaces every non-ToolError failure by "Error calling tool 'x'": the text
    # reaches nobody (MCP001 still reports the channel).
    source = PROTOCOL_ERROR_WITH_TEXT.replace("# expect: MCP001, MCP002", "# expect: MCP001")
    (finding,) = _check(source, target="fastmcp==2.4.0")
    assert finding.code == "MCP001"


def test_protocol_error_text_is_silent_under_fastmcp_masking_of_any_release() -> None:
    source = PROTOCOL_ERROR_WITH_TEXT.replace("# expect: MCP001, MCP002", "# expect: MCP001").replace(
        'FastMCP("tracker")', 'FastMCP("tracker", mask_error_details=True)'
    )
    (finding,) = _check(source)  # unpinned: the setting says the release has it (>= 2.5)
    assert finding.code == "MCP001"


def test_mask_error_details_does_nothing_on_mcp_1() -> None:
    # mcp 1.x FastMCP has no masking at all: a stray mask_error_details=True does not hide the text.
    header = MCP1.replace('FastMCP("svc")', 'FastMCP("svc", mask_error_details=True)')
    finding = _only(_src(header, RAISE_OTHER))
    assert finding.location.row == header.count("\n") + 8
    assert "mcp 1.x FastMCP forwards an unexpected exception's text to the model" in finding.notes


# A decorator under `@mcp.tool()` whose wrapper turns the tool's failures into a result. One
# defect per flow: where its clause catching the exception catches everything, that clause is
# what the model reads (and is flagged there); where it catches the project's own class by name
# and passes its text on as curated, the raise that put library text in it is the defect.
WRAPPED = """\
import functools
import subprocess

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("scaffold")


class ScaffoldError(Exception):
    pass


def {decorator}(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        try:
            return await fn(*args, **kwargs)
{clauses}
    return wrapper


def run_init(target: str) -> None:
    try:
        subprocess.run(["npx", "cdk", "init"], cwd=target, check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as e:
        raise ScaffoldError(f"cdk init failed: {{e.stderr}}") from e{inner_mark}


@mcp.tool()
@{decorator}
async def scaffold(target: str) -> str:
    run_init(target)
    return f"Project created in {{target}}"
"""


def test_a_raise_under_a_wrapper_that_catches_everything_is_flagged_in_the_wrapper_only() -> None:
    _check(
        WRAPPED.format(
            decorator="handle_exceptions",
            clauses='        except Exception as e:\n            return {"error": str(e)}  # expect: MCP002, MCP005',
            inner_mark="",
        )
    )


def test_a_raise_a_wrapper_passes_on_as_the_projects_own_text_is_flagged_where_it_is_built() -> None:
    _check(
        WRAPPED.format(
            decorator="tool_result",
            clauses=(
                # The clause passing the project's exception on carries the library text too.
                '        except ScaffoldError as e:\n            raise ToolError(str(e)) from e  # expect: MCP002\n'
                '        except Exception as e:\n            raise ToolError(f"{type(e).__name__}: {e}") from e  # expect: MCP002'
            ),
            inner_mark="  # expect: MCP002",
        )
    )


# An error module that turns any exception into a message, reached through a raising helper:
# the tool hands the caught exception to `fail(exc, action)`, which raises ToolError with
# `errors.describe(exc, action)`. The text is built in `describe`, so that is where it is
# reported, branch by branch; `fail` only passes the exception on.
ERRORS_MODULE = """\
import requests


class SettingsError(ValueError):
    pass


def describe(exc: Exception, action: str) -> str:
    if isinstance(exc, SettingsError):
        return f"Error: configuration problem while {action}: {exc}. Check PROM_URL and PROM_TOKEN."
    if isinstance(exc, requests.ConnectionError):
        return f"Error: could not connect while {action}: {exc}"  # expect: MCP002
    if isinstance(exc, requests.Timeout):
        return f"Error: the request timed out while {action}; narrow the time range and retry"
    return f"Error: unexpected {type(exc).__name__} while {action}: {exc}"  # expect: MCP002
"""

OUTPUT_MODULE = """\
from typing import NoReturn

from fastmcp.exceptions import ToolError

from . import errors


def fail(exc: Exception, action: str) -> NoReturn:
    raise ToolError(errors.describe(exc, action)) from exc
"""

PROM_SERVER = """\
import requests
from fastmcp import FastMCP

from . import output

mcp = FastMCP("prom", mask_error_details=True)


@mcp.tool
def run_query(expr: str) -> str:
    try:
        return requests.get("http://prometheus:9090/api/v1/query", params={"query": expr}).text
    except Exception as exc:
        output.fail(exc, "running the query")
"""


def _expected_in(files: dict[str, str]) -> set[tuple[str, int, str]]:
    return {(code, row, name) for name, text in files.items() for code, row in expected(text)}


def test_an_exception_handed_through_a_raising_helper_is_reported_where_a_formatter_builds_its_text(tmp_path: Path) -> None:
    files = {"prom/errors.py": ERRORS_MODULE, "prom/output.py": OUTPUT_MODULE, "prom/server.py": PROM_SERVER, "prom/__init__.py": ""}
    _write_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'prom'\ndependencies = ['fastmcp>=3,<4']\n", **files})
    found = {(f.code, f.location.row, f"prom/{Path(f.filename).name}") for f in _lint_tree(tmp_path)}
    assert found == _expected_in(files)
    assert all("reached from tool 'run_query'" in said(f) for f in _lint_tree(tmp_path))


def test_the_formatter_is_silent_where_the_exception_never_reaches_it(tmp_path: Path) -> None:
    # The tool logs the failure and raises its own message: `describe` is never given a caught exception.
    server = PROM_SERVER.replace('output.fail(exc, "running the query")', 'raise ToolError("Prometheus did not answer; check PROM_URL") from exc')
    server = server.replace("from fastmcp import FastMCP", "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError")
    files = {"prom/errors.py": ERRORS_MODULE, "prom/output.py": OUTPUT_MODULE, "prom/server.py": server, "prom/__init__.py": ""}
    _write_tree(tmp_path, {"pyproject.toml": "[project]\nname = 'prom'\ndependencies = ['fastmcp>=3,<4']\n", **files})
    assert [(f.code, f.filename) for f in _lint_tree(tmp_path)] == []


# A helper returns a failure dict with the library's text; the tool raises it in a plain exception.
_STATUS_HELPER = """\
import json

import duckdb
from fastmcp import FastMCP

mcp = FastMCP("sql"{masking})
conn = duckdb.connect("analytics.db")


def run_query(sql: str) -> dict:
    try:
        rows = conn.execute(sql).fetchall()
        return {{"success": True, "rows": rows}}
    except Exception as e:
        return {{"success": False, "error": str(e)}}{mark}


def query_rows(sql: str) -> dict:
    return run_query(sql)


@mcp.tool
def query(sql: str) -> str:
    result = query_rows(sql)
    if not result["success"]:
        raise ValueError({raised})
    return json.dumps(result["rows"])
"""


def test_helper_text_a_tool_raises_in_a_plain_exception_is_flagged_where_the_framework_forwards_it() -> None:
    source = _STATUS_HELPER.format(masking="", mark="  # expect: MCP002", raised="json.dumps(result)")
    (finding,) = [f for f in _check(source, target="fastmcp>=3,<4") if f.code == "MCP002"]
    assert finding.location.row == 15
    assert finding.message == "Helper 'run_query' returns the text of a caught Exception, which a caller raises in ValueError"
    assert "fastmcp 3.x (from [tool.mcp-lint] target) forwards an unexpected exception's text to the model" in finding.notes
    assert finding.fix is None  # the callers read `success`: the return stays


def test_helper_text_raised_by_a_tool_on_a_masking_server_stays_silent() -> None:
    source = _STATUS_HELPER.format(masking=", mask_error_details=True", mark="", raised="json.dumps(result)")
    _check(source, target="fastmcp>=3,<4")


def test_tool_raising_its_own_words_after_a_failed_status_stays_silent() -> None:
    source = _STATUS_HELPER.format(masking="", mark="", raised='"the query failed; check table names with list_tables"')
    _check(source, target="fastmcp>=3,<4")
