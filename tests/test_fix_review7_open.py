"""Fix shapes review 7 rejected (issue 23), each with the code the fix must write (or the code left
as it was), on made-up servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write
from tests.test_fixes import assert_fixes_to, findings_of, fixed

# --- a catch-all dispatcher tool calls the other tools through a registry it fills later --------

NOTES = """\
from typing import Any

from mcp.server.fastmcp import FastMCP


def list_notes(folder: str) -> dict[str, Any]:
    \"\"\"List the notes of a folder.\"\"\"
    if not folder:
        return {"success": False, "error": "No folder given. Pass the folder name."}
    return {"success": True, "notes": [folder]}


def register_note_tools(mcp: FastMCP) -> None:
    mcp.tool()(list_notes)
"""

DISPATCH = """\
import inspect
from typing import Any, Callable

from mcp.server.fastmcp import FastMCP

HANDLERS: dict[str, Callable[..., Any]] = {}


def _build() -> None:
    if HANDLERS:
        return
    from notes.tools import list_notes

    HANDLERS.update({"list_notes": list_notes})


async def run_tool(name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    \"\"\"Run any tool by name.\"\"\"
    _build()
    func = HANDLERS[name]
    try:
        if inspect.iscoroutinefunction(func):
            result = await func(**(arguments or {}))
        else:
            result = func(**(arguments or {}))
        return result
    except Exception as e:
        return {"success": False, "error": f"Tool execution failed: {e!s}"}


def register_dispatch(mcp: FastMCP) -> None:
    mcp.tool()(run_tool)
"""

SERVER = """\
from mcp.server.fastmcp import FastMCP

from notes.dispatch import register_dispatch

mcp = FastMCP("notes")
register_dispatch(mcp)
"""

FILLED_BY_KEY = DISPATCH.replace('    HANDLERS.update({"list_notes": list_notes})\n', '    HANDLERS["list_notes"] = list_notes\n')


@pytest.mark.parametrize("dispatch", [DISPATCH, FILLED_BY_KEY], ids=["update", "by-key"])
def test_a_tool_a_catch_all_dispatcher_calls_keeps_its_return(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dispatch: str) -> None:
    # The dispatcher calls list_notes through the registry inside `except Exception`: a raise in
    # place of list_notes' refusal would become "Tool execution failed" (or the dispatcher's
    # own rewritten text). list_notes' finding stays, with no fix; the dispatcher's own clause is
    # rewritten as usual.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "notes"\ndependencies = ["mcp>=1.20,<2"]\n')
    write(tmp_path / "notes/__init__.py", "")
    write(tmp_path / "notes/tools.py", NOTES)
    write(tmp_path / "notes/dispatch.py", dispatch)
    write(tmp_path / "notes/server.py", SERVER)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "notes/tools.py:9:9: MCP005 Tool 'list_notes' returns a failure dict as a normal result" in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "notes/tools.py").read_text() == NOTES
    assert 'raise ToolError("Could not run tool") from e' in (tmp_path / "notes/dispatch.py").read_text()


# --- a response builder whose first argument is a status word; hints in a builder's or model's fields

ENVELOPE = """\
from typing import Any

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("zones")
CLIENT = None


def respond(status: str, summary: str, steps: list | None = None, result: Any = None, next_actions: list[str] | None = None) -> dict:
    \"\"\"The response envelope every tool returns.\"\"\"
    return {"status": status, "summary": summary, "steps": steps or [], "result": result, "next_actions": next_actions or []}


@mcp.tool()
def list_zones(view: str) -> dict:
    \"\"\"List the zones of a view.\"\"\"
    steps = []
    if CLIENT is None:
        return respond("failed", "Zone client not initialized. Check ZONES_API_KEY.", next_actions=["Set ZONES_API_KEY and restart the server."])
    if not view:
        return respond("failed", "list requires 'view' (e.g., default).", steps)
    if view == "all":
        return respond("failed", "Too many zones to list at once.", next_actions=compute_actions(view))
    return respond("success", f"Listed zones of {view}", steps, result=CLIENT.zones(view))


def compute_actions(view: str) -> list[str]:
    return [f"List one view at a time, not {view}."]
"""


def test_a_status_word_is_no_message_the_summary_and_next_actions_are() -> None:
    # "failed" is the envelope's status (an enum value a program reads); the sentence beside it is
    # the message, and the author's next actions follow it. Next actions the code computes cannot
    # be written into a message here: that return keeps its envelope (no fix).
    assert_fixes_to(
        ENVELOPE,
        ENVELOPE.replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
        )
        .replace(
            '        return respond("failed", "Zone client not initialized. Check ZONES_API_KEY.", next_actions=["Set ZONES_API_KEY and restart the server."])\n',
            '        raise ToolError("Zone client not initialized. Check ZONES_API_KEY. Set ZONES_API_KEY and restart the server.")\n',
        )
        .replace(
            '''        return respond("failed", "list requires 'view' (e.g., default).", steps)\n''',
            '''        raise ToolError("list requires 'view' (e.g., default).")\n''',
        ),
        None,
    )


MODEL_NOTE = """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

logger = logging.getLogger(__name__)
mcp = FastMCP("probe")


class ProbeReply(BaseModel):
    success: bool
    error: str | None = None
    body: str | None = None
    note: str | None = None


@mcp.tool()
async def probe(url: str) -> ProbeReply:
    \"\"\"Probe the relay.\"\"\"
    try:
        body = httpx.get(url).text
        return ProbeReply(success=True, body=body)
    except httpx.HTTPError as relay_error:
        logger.error("relay failed: %s", relay_error)
        return ProbeReply(
            success=False,
            error=f"Both relays failed: {relay_error}",
            note="Check RELAY_TOKEN environment variable",
        )
"""


@pytest.mark.parametrize("field", ["note", "hint", "next_steps"])
def test_a_models_note_field_follows_the_message(field: str) -> None:
    source = MODEL_NOTE.replace("note", field)
    assert_fixes_to(
        source,
        source.replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
        ).replace(
            f'''        logger.error("relay failed: %s", relay_error)
        return ProbeReply(
            success=False,
            error=f"Both relays failed: {{relay_error}}",
            {field}="Check RELAY_TOKEN environment variable",
        )
''',
            '''        logger.error("relay failed: %s", relay_error, exc_info=True)
        raise ToolError("Both relays failed. Check RELAY_TOKEN environment variable") from relay_error
''',
        ),
        None,
    )


# --- a success fallback that still delivers the data is no failure -----------------------------

FALLBACK = """\
import base64

from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("files")


class ReadReply(BaseModel):
    success: bool
    error: str | None = None
    content: str | None = None
    content_base64: str | None = None
    hint: str | None = None


@mcp.tool()
def read_file(path: str, encoding: str = "utf-8") -> ReadReply:
    \"\"\"Read a stored file.\"\"\"
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return ReadReply(success=True, content=data.decode(encoding))
    except UnicodeDecodeError:
        return ReadReply(
            success=True,
            content_base64=base64.b64encode(data).decode("ascii"),
            hint="Could not decode bytes with requested encoding; returning base64",
        )


@mcp.tool()
def read_text(path: str) -> ReadReply:
    \"\"\"Read a stored text file.\"\"\"
    try:
        with open(path, encoding="utf-8") as handle:
            return ReadReply(success=True, content=handle.read())
    except UnicodeDecodeError:
        return ReadReply(success=True, content=path, hint="Could not decode the file as UTF-8")
"""


def test_a_success_fallback_that_still_delivers_the_data_is_no_failure() -> None:
    # read_file answers with the bytes as base64 when they do not decode: flagged a success and
    # carrying the data, the hint says how it answered. read_text echoes only the caller's own
    # argument beside the failure text: no data, a failure in place of results (and raised).
    found = [(f.code, f.location.row) for f in findings_of(FALLBACK, "MCP005")]
    assert found == [("MCP005", 39)]
    assert fixed(FALLBACK) == FALLBACK.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace(
        '        return ReadReply(success=True, content=path, hint="Could not decode the file as UTF-8")\n',
        '        raise ToolError("Could not decode the file as UTF-8") from None\n',
    )


# --- the operation a fix names is the tool's (or the project's own step), not a library method ----

ANALYSIS = """\
from typing import Any

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("purchases")


def load_vendor_feed(store: Any, date_from: str) -> list[dict]:
    return store.search_read("vendor.feed", [("date", ">=", date_from)])


@mcp.tool()
def analyze_vendor_delays(ctx: Context, date_from: str) -> dict[str, Any]:
    \"\"\"Analyse the delays of each vendor.\"\"\"
    store = ctx.request_context.lifespan_context.store
    try:
        orders = store.search_read("purchase.order", [("date", ">=", date_from)])
        delays: dict[int, int] = {}
        for order in orders:
            delays[order["vendor"]] = delays.get(order["vendor"], 0) + order["delay"]
        return {"success": True, "delays": delays}
    except Exception as e:
        return {"success": False, "error": str(e)}


@mcp.tool()
def list_vendors(ctx: Context, date_from: str) -> dict[str, Any]:
    \"\"\"The vendors with orders since a date.\"\"\"
    store = ctx.request_context.lifespan_context.store
    try:
        return {"success": True, "vendors": load_vendor_feed(store, date_from)}
    except Exception as e:
        return {"success": False, "error": str(e)}
"""


def test_the_operation_named_is_the_tools_not_a_library_methods() -> None:
    # `store.search_read` is the library's word for its API; the tool analyses vendor delays (and
    # its try runs the analysis too). A step that is the project's own function, on something the
    # tool's name does not say (`load_vendor_feed` in `list_vendors`), is what failed.
    assert_fixes_to(
        ANALYSIS,
        ANALYSIS.replace(
            "from typing import Any\n",
            "import logging\nfrom typing import Any\n",
        )
        .replace(
            "from mcp.server.fastmcp import Context, FastMCP\n",
            "from mcp.server.fastmcp import Context, FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
            "logger = logging.getLogger(__name__)\n",
        )
        .replace(
            '        return {"success": True, "delays": delays}\n    except Exception as e:\n        return {"success": False, "error": str(e)}\n',
            '        return {"success": True, "delays": delays}\n    except Exception as e:\n'
            '        logger.exception("Could not analyze vendor delays")\n        raise ToolError("Could not analyze vendor delays") from e\n',
        )
        .replace(
            '        return {"success": True, "vendors": load_vendor_feed(store, date_from)}\n    except Exception as e:\n        return {"success": False, "error": str(e)}\n',
            '        return {"success": True, "vendors": load_vendor_feed(store, date_from)}\n    except Exception as e:\n'
            '        logger.exception("Could not load vendor feed")\n        raise ToolError("Could not load vendor feed") from e\n',
        ),
        None,
    )


# --- a fix unlocked in another file by the masking fix goes in the same run (convergence) --------

MASKED_SERVER = """\
import httpx
from fastmcp import FastMCP

from helpers import lookup

mcp = FastMCP("library")


@mcp.tool
def get_book(book_id: str) -> dict:
    return lookup(book_id)


@mcp.tool
def fetch_cover(book_id: str) -> str:
    return httpx.get(f"https://covers.example/{book_id}").text
"""

MASKED_HELPERS = """\
BOOKS: dict = {}


def lookup(book_id: str) -> dict:
    if book_id not in BOOKS:
        raise ValueError(f"No book with id {book_id}; call list_books for the ids")
    return BOOKS[book_id]
"""


def test_a_fix_the_masking_makes_necessary_in_another_file_goes_in_the_same_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # helpers.py has no finding until the server masks error details; then its message would be
    # hidden, so the helper raises ToolError. Applied by the same `--fix`: a second one changes nothing.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "library"\ndependencies = ["fastmcp>=2.5,<3"]\n')
    write(tmp_path / "server.py", MASKED_SERVER)
    write(tmp_path / "helpers.py", MASKED_HELPERS)
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "server.py").read_text() == MASKED_SERVER.replace('FastMCP("library")', 'FastMCP("library", mask_error_details=True)')
    assert (tmp_path / "helpers.py").read_text() == "from fastmcp.exceptions import ToolError\n\n" + MASKED_HELPERS.replace("raise ValueError(", "raise ToolError(")
    again = run("--fix", "--unsafe-fixes", "--output-format", "concise")
    assert "fixed" not in again.output, again.output


# --- style: no implicit concatenation on one line; the project's logging library ----------------

ONE_LINE = """\
from pathlib import Path

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool()
def read_notes(path: str) -> str:
    \"\"\"Read a notes file.\"\"\"
    try:
        return Path(path).read_text()
    except OSError as e:
        return f"Could not read {path}: {e}. " "Check the path and try again."
"""


def test_literals_of_one_line_are_written_as_one_literal() -> None:
    # Two literals side by side on a line (ruff ISC001) become one in the log call and the raise.
    assert_fixes_to(
        ONE_LINE,
        ONE_LINE.replace("from pathlib import Path\n", "import logging\nfrom pathlib import Path\n")
        .replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
            "logger = logging.getLogger(__name__)\n",
        )
        .replace(
            '        return f"Could not read {path}: {e}. " "Check the path and try again."\n',
            '        logger.exception("Could not read %s (%s). Check the path and try again.", path, type(e).__name__)\n'
            '        raise ToolError(f"Could not read {path} ({type(e).__name__}). Check the path and try again.") from e\n',
        ),
        None,
    )


JOBS = """\
import structlog

logger = structlog.get_logger()


def run_job(name: str) -> str:
    logger.info("job_started", job=name)
    return name
"""

REPORTS = """\
import httpx
from mcp.server.fastmcp import FastMCP

from app.jobs import run_job

mcp = FastMCP("jobs")


@mcp.tool()
def fetch_report(report_id: str) -> str:
    \"\"\"Fetch one report.\"\"\"
    try:
        return run_job(httpx.get(f"https://reports.example/{report_id}").text)
    except httpx.HTTPError as e:
        return f"Error fetching report: {e}"
"""


def test_a_module_without_a_logger_gets_the_projects_structlog_logger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "app"\ndependencies = ["mcp>=1.20,<2", "structlog"]\n')
    write(tmp_path / "app/__init__.py", "")
    write(tmp_path / "app/jobs.py", JOBS)
    write(tmp_path / "app/server.py", REPORTS)
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "app/server.py").read_text() == REPORTS.replace(
        "import httpx\nfrom mcp.server.fastmcp import FastMCP\n",
        "import httpx\nimport structlog\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace(
        "from app.jobs import run_job\n",
        "from app.jobs import run_job\n\nlogger = structlog.get_logger()\n",
    ).replace(
        '        return f"Error fetching report: {e}"\n',
        '        logger.exception("Error fetching report")\n        raise ToolError("Error fetching report") from e\n',
    )


# --- rows collected by a loop inside the try, returned beside the failure: a partial result ------

CHUNKED = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("enrich")
CHUNK = 25


@mcp.tool()
async def enrich_contacts(emails: list[str]) -> dict:
    \"\"\"Enrich contacts in chunks.\"\"\"
    chunks = [emails[i : i + CHUNK] for i in range(0, len(emails), CHUNK)]
    rows: list[dict] = []
    try:
        for chunk in chunks:
            rows.extend(httpx.post("https://enrich.example", json=chunk).json())
    except httpx.HTTPError:
        if rows:
            return {
                "error": f"chunk {len(rows) // CHUNK + 1} of {len(chunks)} failed; "
                f"returning {len(rows)} rows already enriched; retry only the remaining emails",
                "results": rows,
            }
        return {"error": "The enrichment service refused the request."}
    return {"results": rows}
"""


def test_rows_a_loop_in_the_try_collected_stay_in_the_reply() -> None:
    # The earlier chunks' rows (already paid for) go back beside the failure: a raise would drop
    # them. The branch without rows is a plain failure and is raised.
    assert_fixes_to(
        CHUNKED,
        CHUNKED.replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
        ).replace(
            '        return {"error": "The enrichment service refused the request."}\n',
            '        raise ToolError("The enrichment service refused the request.") from None\n',
        ),
        None,
    )


# --- a builder's record argument (`context={...}`) is no hint: the fix goes on ---------------------

DEVICES = """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP

from replies import error_reply

logger = logging.getLogger(__name__)
mcp = FastMCP("devices")


@mcp.tool()
def device_state(uuid: str) -> dict:
    \"\"\"The state of a device.\"\"\"
    try:
        return httpx.get(f"https://devices.example/{uuid}").json()
    except Exception as e:
        error_msg = f"Error reading device state: {e}"
        logger.error(error_msg, exc_info=True)
        return error_reply("COMMAND_FAILED", error_msg, context={"operation": "device_state"})
"""

REPLIES = """\
def error_reply(code: str, message: str, context: dict | None = None) -> dict:
    return {"success": False, "error": {"code": code, "message": message, "context": context or {}}}
"""


def test_a_builders_record_argument_is_no_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "devices"\ndependencies = ["mcp>=1.20,<2"]\n')
    write(tmp_path / "server.py", DEVICES)
    write(tmp_path / "replies.py", REPLIES)
    run("--fix", "--unsafe-fixes")
    # (The builder's import, unused now, goes with it.)
    assert (tmp_path / "server.py").read_text() == DEVICES.replace(
        "from mcp.server.fastmcp import FastMCP\n\nfrom replies import error_reply\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace(
        '        return error_reply("COMMAND_FAILED", error_msg, context={"operation": "device_state"})\n',
        '        raise ToolError("Error reading device state") from e\n',
    )
