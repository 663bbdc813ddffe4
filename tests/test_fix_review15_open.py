"""Fix shapes review 15 merged only with edits (bench/fix_review15): each with the code the fix
must write, and the neighbouring shape the change must leave as it was."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli
from tests.test_fixes import findings_of, fixed


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "records"\ndependencies = ["mcp>=1.20,<2"]\n')
    return tmp_path


def fix(*args: str) -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", "--fix", "--unsafe-fixes", *args], catch_exceptions=False)


def check() -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", "--output-format", "concise"], catch_exceptions=False)


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


# --- (1) a module that logs through the root logger keeps doing so ---------------------------

ROOT_LOGGING = """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP

logging.basicConfig(level=logging.INFO)

mcp = FastMCP("records")


@mcp.tool()
def get_record(record_id: str) -> str:
    logging.info(f"Fetching record {record_id}")
    try:
        return httpx.get(f"https://api.example.com/records/{record_id}").text
    except Exception as e:
        return f"Could not fetch record {record_id}: {e}"
"""


def test_a_module_logging_through_the_root_logger_gets_no_module_logger() -> None:
    # `logging.info(...)` is how the module logs: the fix calls `logging.exception` as a
    # maintainer of this module would, not a second, module-named logger beside the root one.
    assert fixed(ROOT_LOGGING) == ROOT_LOGGING.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace(
        '        return f"Could not fetch record {record_id}: {e}"\n',
        '        logging.exception("Could not fetch record %s", record_id)\n'
        '        raise ToolError(f"Could not fetch record {record_id}") from e\n',
    )


def test_a_module_that_only_configures_logging_gets_the_module_logger() -> None:
    # `logging.basicConfig` configures; it logs nothing: no root-logger layout to follow, so the
    # fix adds the usual module logger.
    source = ROOT_LOGGING.replace('    logging.info(f"Fetching record {record_id}")\n', "")
    after = fixed(source)
    assert "logger = logging.getLogger(__name__)\n" in after
    assert '        logger.exception("Could not fetch record %s", record_id)\n' in after


SERVER_WITHOUT_LOGGING = """\
from mcp.server.fastmcp import FastMCP

from records.store import fetch_record

mcp = FastMCP("records")


@mcp.tool()
def get_record(record_id: str) -> str:
    try:
        return fetch_record(record_id)
    except Exception as e:
        return f"Could not fetch record {record_id}: {e}"
"""


@pytest.mark.parametrize(
    ("store", "expected_head", "expected_log"),
    [
        pytest.param(
            'import logging\n\n\ndef fetch_record(record_id: str) -> str:\n    logging.info("reading %s", record_id)\n    return read(record_id)\n',
            "import logging\n\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\nfrom records.store import fetch_record\n\nmcp",
            '        logging.exception("Could not fetch record %s", record_id)\n',
            id="the project logs through the root logger",
        ),
        pytest.param(
            'import logging\n\nlogger = logging.getLogger(__name__)\n\n\ndef fetch_record(record_id: str) -> str:\n    logging.info("reading %s", record_id)\n    return read(record_id)\n',
            "import logging\n\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\nfrom records.store import fetch_record\n\nlogger = logging.getLogger(__name__)\n\nmcp",
            '        logger.exception("Could not fetch record %s", record_id)\n',
            id="a module of the project has its own logger",
        ),
    ],
)
def test_a_module_without_logging_follows_the_projects_layout(project: Path, store: str, expected_head: str, expected_log: str) -> None:
    write(project / "records" / "__init__.py", "")
    write(project / "records" / "store.py", store)
    write(project / "records" / "server.py", SERVER_WITHOUT_LOGGING)
    fix()
    after = (project / "records" / "server.py").read_text()
    assert after.startswith(expected_head), after
    assert expected_log + '        raise ToolError(f"Could not fetch record {record_id}") from e\n' in after, after


# --- (2) dropping the "Error:" label keeps a word that says it failed --------------------------


@pytest.mark.parametrize(
    ("message", "raised", "logged"),
    [
        pytest.param(
            'f"Error: getting holders for {symbol}: {e}"',
            'f"Error getting holders for {symbol}"',
            '"Error getting holders for %s", symbol',
            id="an activity keeps its label as a word",
        ),
        pytest.param(
            'f"Error getting holders for {symbol}: {e}"',
            'f"Error getting holders for {symbol}"',
            '"Error getting holders for %s", symbol',
            id="the author's phrase as written",
        ),
        pytest.param(
            'f"Error: could not get holders for {symbol}: {e}"',
            'f"Could not get holders for {symbol}"',
            '"Could not get holders for %s", symbol',
            id="a failure said after the label: the label goes",
        ),
        pytest.param(
            'f"Error: missing holders for {symbol}: {e}"',
            'f"Missing holders for {symbol}"',
            '"Missing holders for %s", symbol',
            id="missing says it failed",
        ),
    ],
)
def test_the_raised_message_still_says_something_failed(message: str, raised: str, logged: str) -> None:
    source = textwrap.dedent(
        f"""\
        import logging

        import httpx
        from mcp.server.fastmcp import FastMCP

        logger = logging.getLogger(__name__)
        mcp = FastMCP("quotes")


        @mcp.tool()
        def get_holders(symbol: str) -> str:
            try:
                return httpx.get(f"https://api.example.com/holders/{{symbol}}").text
            except Exception as e:
                return {message}
        """
    )
    after = fixed(source)
    assert f"        logger.exception({logged})\n        raise ToolError({raised}) from e\n" in after, after


def test_a_returned_failure_string_keeps_its_label_as_a_word() -> None:
    # MCP005's fix edits the label in place: "Error: fetching record" -> "Error fetching record";
    # "Error: record 3 not found" -> "Record 3 not found" (the rest says what failed).
    source = textwrap.dedent(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("records")


        @mcp.tool()
        def get_record(record_id: str) -> str:
            response = httpx.get(f"https://api.example.com/records/{record_id}")
            if response.status_code == 404:
                return f"Error: record {record_id} not found"
            if response.status_code != 200:
                return f"Error: fetching record {record_id}"
            return response.text
        """
    )
    after = fixed(source)
    assert '        raise ToolError(f"Record {record_id} not found")\n' in after, after
    assert '        raise ToolError(f"Error fetching record {record_id}")\n' in after, after


# --- (5) a parse of the tool's own argument: raised with the parser's position ----------------

PARSE_SERVER = """\
import json

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("tickets")


@mcp.tool()
def update_ticket(title: str, fields_json: str) -> str:
    try:
        try:
            fields = json.loads(fields_json)
        except json.JSONDecodeError as e:
            return f"Error: Invalid JSON in fields_json parameter: {e}"
        return save(title, fields)
    except Exception as e:
        return "Error updating ticket"
"""


def test_a_returned_parse_error_of_the_tools_own_argument_is_raised_with_its_position(project: Path) -> None:
    # The parser's text is about the model's own JSON (no MCP002 in a tool): the fix raises the
    # author's sentence with it, and the broad clause outside lets that ToolError through. A
    # second `check` reports nothing: the tool is not left half converted.
    write(project / "tickets" / "server.py", PARSE_SERVER)
    fix()
    after = (project / "tickets" / "server.py").read_text()
    assert after == PARSE_SERVER.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace(
        '            return f"Error: Invalid JSON in fields_json parameter: {e}"\n',
        '            raise ToolError(f"Invalid JSON in fields_json parameter: {e}") from e\n',
    ).replace(
        '    except Exception as e:\n        return "Error updating ticket"\n',
        '    except ToolError:\n        raise\n    except Exception as e:\n        raise ToolError("Error updating ticket") from e\n',
    ), after
    assert check().exit_code == 0


def test_a_helpers_parse_error_is_left_to_the_text_rule() -> None:
    # In a helper the parse's text is MCP002's finding (the helper's argument may be anything):
    # MCP005 offers no fix that would raise it as it is.
    source = textwrap.dedent(
        """\
        import json

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("tickets")


        def parse_fields(fields_json: str) -> dict | str:
            try:
                return json.loads(fields_json)
            except json.JSONDecodeError as e:
                return f"Error: Invalid JSON: {e}"


        @mcp.tool()
        def update_ticket(title: str, fields_json: str) -> dict | str:
            return parse_fields(fields_json)
        """
    )
    assert "raise ToolError(f\"Invalid JSON: {e}\")" not in fixed(source)


# --- (3) a helper whose text an operator's start-up check prints -------------------------------

OPERATOR_SERVER = """\
import sys

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("alerts")


class AlertsError(Exception):
    pass


def request(path: str) -> dict:
    try:
        response = httpx.get(f"https://alerts.example.com/{path}")
        response.raise_for_status()
        return response.json()
    except httpx.HTTPError as e:
        raise AlertsError(f"Request to {path} failed: {e}") from e


@mcp.tool()
def list_alerts(environment: str) -> dict:
    \"\"\"List open alerts.\"\"\"
    return request(f"alerts?env={environment}")


def main() -> None:
    try:
        request("health")
    except AlertsError as e:
        print(f"Cannot reach the alerts service: {e}", file=sys.stderr)
        sys.exit(1)
    mcp.run()
"""


def test_a_helper_whose_text_a_startup_check_prints_keeps_its_message() -> None:
    # `main()` (no tool reaches it) catches AlertsError and prints it for the operator: the DNS
    # or refused-connection reason is the operator's only diagnostic. A new message for the
    # tools would take it from them too: no fix (the finding stays).
    assert fixed(OPERATOR_SERVER) == OPERATOR_SERVER
    assert [(f.location.row, f.fix) for f in findings_of(OPERATOR_SERVER, "MCP002")] == [(19, None)]


def test_a_helper_only_tools_and_an_uncaught_start_call_reach_gets_its_fix() -> None:
    # The start-up call does not catch the class (a crash prints the traceback with the cause):
    # no reader of the old text outside the tools, so the message is rewritten.
    source = OPERATOR_SERVER.replace(
        '    try:\n        request("health")\n    except AlertsError as e:\n        print(f"Cannot reach the alerts service: {e}", file=sys.stderr)\n        sys.exit(1)\n',
        '    request("health")\n',
    )
    assert '        raise AlertsError(f"Request to {path} failed") from e\n' in fixed(source)


def test_a_rewrite_that_logs_the_exception_is_offered_beside_a_non_tool_reader() -> None:
    # A prompt of the server (no tool) shows the helper's ToolError to the user: the fix logs the
    # transport's reason with its traceback, so nobody loses it, and the message is rewritten.
    source = textwrap.dedent(
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("pages")


        async def fetch_page(url: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.get(url)
            except httpx.HTTPError as e:
                raise ToolError(f"Failed to fetch {url}: {e!r}")
            return response.text


        @mcp.tool()
        async def fetch(url: str) -> str:
            return await fetch_page(url)


        @mcp.prompt()
        async def fetch_prompt(url: str) -> str:
            try:
                return await fetch_page(url)
            except ToolError as e:
                return str(e)
        """
    )
    after = fixed(source)
    assert '        logger.exception("Failed to fetch %s", url)\n        raise ToolError(f"Failed to fetch {url}") from e\n' in after, after
