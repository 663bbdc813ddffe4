"""Fix shapes a reviewer rejected on real servers nobody here had read (issue 23), each with the
code the fix must write: the whole project fixed through the CLI, as a user runs it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import libcst
import pytest

from mcp_lint.findings import Applicability
from mcp_lint.pipeline import lint_source
from click.testing import CliRunner, Result

from mcp_lint.cli import cli
from tests.test_fixes import fixed


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "records"\ndependencies = ["mcp>=1.20,<2"]\n')
    return tmp_path


def fix(*args: str) -> Result:
    return CliRunner().invoke(
        cli, ["check", ".", "--no-cache", "--jobs", "1", "--fix", "--unsafe-fixes", *args], catch_exceptions=False
    )


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


ERRORS_MODULE = """\
class Errors:
    @staticmethod
    def describe(exc: Exception) -> tuple[str, str]:
        return type(exc).__name__, f"Lookup failed: {exc}"

    @staticmethod
    def failure(message: str, kind: str) -> dict:
        return {"error": True, "kind": kind, "message": message}
"""


def test_text_bound_from_a_helper_of_the_exception_is_dropped_from_the_new_message(project: Path) -> None:
    # `kind, text = Errors.describe(e)` carries the exception's text into `text` (the rule follows
    # it through the helper): a fix that kept `{text}` in the new message would only move the leak,
    # and the next fix pass would find it again (the file was left unfixed, "fix changed nothing").
    write(project / "records" / "errors.py", ERRORS_MODULE)
    write(
        project / "records" / "server.py",
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        from records.errors import Errors

        mcp = FastMCP("records")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        def get_record(record_id: str) -> dict:
            try:
                return fetch(record_id)
            except Exception as e:
                kind, text = Errors.describe(e)
                return Errors.failure(f"Could not get record {record_id}: {text}", kind)
        """,
    )
    result = fix()
    assert "error:" not in result.output, result.output
    fixed = (project / "records" / "server.py").read_text()
    libcst.parse_module(fixed)
    assert fixed.endswith(
        textwrap.dedent(
            """\
            @mcp.tool()
            def get_record(record_id: str) -> dict:
                try:
                    return fetch(record_id)
                except Exception as e:
                    raise ToolError(f"Could not get record {record_id}") from e
            """
        )
    ), fixed
    # `kind, text = ...` only fed the old return (dead, which F841 does not report for a tuple):
    # it goes, and so does the import only it used, with the blank line of its section.
    assert fixed.startswith(
        "import logging\n\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\nmcp = "
    ), fixed


def test_an_error_flag_dict_raises_its_message_not_the_dict(project: Path) -> None:
    # `{"error": True, "message": m}`: "error" is a flag; ToolError gets the message beside it,
    # never the builder's dict (a ToolError whose text is a dict's repr).
    write(
        project / "server.py",
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("records")
        RECORDS: dict[str, dict] = {}


        def failure(message: str, kind: str) -> dict:
            return {"error": True, "kind": kind, "message": message}


        @mcp.tool()
        def get_record(record_id: str) -> dict:
            if record_id not in RECORDS:
                return failure(f"Record {record_id} not found; list_records gives the ids", "not_found")
            return RECORDS[record_id]
        """,
    )
    fix("--select", "MCP005")
    fixed = (project / "server.py").read_text()
    assert '        raise ToolError(f"Record {record_id} not found; list_records gives the ids")\n' in fixed, fixed
    assert "ToolError(failure(" not in fixed


def test_an_import_inside_the_handler_that_the_fix_leaves_unused_goes_with_its_blank_line(project: Path) -> None:
    write(
        project / "server.py",
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("records")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        def get_record(record_id: str) -> dict:
            try:
                return fetch(record_id)
            except Exception as e:
                import traceback

                logger.error("Lookup of %s failed", record_id)
                return {"error": f"Lookup of {record_id} failed", "trace": traceback.format_exc()}


        @mcp.tool()
        def get_other(record_id: str) -> dict:
            try:
                return fetch(record_id)
            except Exception:
                import traceback

                logger.error("Other lookup failed: %s", traceback.format_exc())
                raise
        """,
    )
    fix()
    fixed = (project / "server.py").read_text()
    libcst.parse_module(fixed)
    first, second = fixed.split("def get_other")
    assert "import traceback" not in first, first
    assert "except Exception as e:\n        logger." in first, first
    # The other handler still reads it: its import stays.
    assert "        import traceback\n" in second


def test_a_new_third_party_import_goes_above_the_projects_other_top_level_packages(project: Path) -> None:
    # `core` is the project's own top-level package beside `tools`: isort puts it in the
    # first-party section, so the framework's import goes into the third-party section above it.
    write(project / "core" / "__init__.py", "")
    write(project / "core" / "store.py", "RECORDS: dict[str, str] = {}\n")
    write(project / "tools" / "__init__.py", "")
    write(
        project / "tools" / "records.py",
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        from core.store import RECORDS

        mcp = FastMCP("records")


        @mcp.tool()
        def get_record(record_id: str) -> str:
            if record_id not in RECORDS:
                return f"Error: record {record_id} not found"
            return RECORDS[record_id]
        """,
    )
    fix("--select", "MCP005")
    fixed = (project / "tools" / "records.py").read_text()
    assert fixed.startswith(
        "import logging\n\n"
        "from mcp.server.fastmcp import FastMCP\n"
        "from mcp.server.fastmcp.exceptions import ToolError\n\n"
        "from core.store import RECORDS\n"
    ), fixed


def test_a_library_exception_built_from_a_response_object_gets_no_rewritten_argument(project: Path) -> None:
    # No argument of `UpstreamError(response, body)` is plainly its message: putting a string in
    # place of the response object (or of the body bytes) breaks the constructor, so no fix.
    write(
        project / "server.py",
        """\
        import httpx
        from mcp.server.fastmcp import FastMCP
        from vendor_sdk.errors import UpstreamError

        mcp = FastMCP("records")


        async def download(url: str) -> bytes:
            try:
                response = await httpx.AsyncClient().get(url)
                response.raise_for_status()
                return response.content
            except httpx.HTTPStatusError as exc:
                body = exc.response.content or b""
                raise UpstreamError(exc.response, body) from exc


        @mcp.tool()
        async def fetch_file(url: str) -> str:
            return (await download(url)).decode()
        """,
    )
    import json

    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", "--output-format", "json", "--exit-zero"])
    findings = [f for f in json.loads(result.output) if f["code"] == "MCP002"]
    assert [(f["location"]["row"], f["fix"]) for f in findings] == [(14, None)], result.output


LOGGED_TOOL = """\
@mcp.tool()
def get_record(record_id: str) -> str:
    try:
        return fetch(record_id)
    except Exception as e:
        return f"Could not get record {record_id}: {e}"
"""


@pytest.mark.parametrize(
    ("header", "log_line"),
    [
        # loguru formats with str.format: a `%s` would be printed as written.
        ("from loguru import logger\n", 'logger.exception("Could not get record {}", record_id)'),
        # structlog: an event and key-values.
        ("import structlog\n", 'log.exception("Could not get record", record_id=record_id)'),
        ("import logging\n", 'logger.exception("Could not get record %s", record_id)'),
    ],
    ids=["loguru", "structlog", "logging"],
)
def test_the_added_log_call_is_in_the_module_loggers_style(header: str, log_line: str) -> None:
    setup = {
        "from loguru import logger\n": "",
        "import structlog\n": "log = structlog.get_logger(__name__)\n",
        "import logging\n": "logger = logging.getLogger(__name__)\n",
    }[header]
    source = f"{header}from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('records')\n{setup}\n\n{LOGGED_TOOL}"
    after = fixed(source)
    assert f"        {log_line}\n        raise ToolError(f\"Could not get record {{record_id}}\") from e\n" in after, after


def test_first_party_names_come_from_the_import_root_and_the_projects_isort_settings(tmp_path: Path) -> None:
    from mcp_lint.fixing.first_party import first_party

    write(tmp_path / "pyproject.toml", '[tool.ruff.lint.isort]\nknown-first-party = ["shared_lib"]\n')
    write(tmp_path / "app" / "__init__.py", "")
    write(tmp_path / "app" / "tools.py", "")
    write(tmp_path / "helpers.py", "")
    write(tmp_path / "docs" / "index.md", "")
    assert first_party(str(tmp_path / "app" / "tools.py"), "app.tools") == {"app", "helpers", "shared_lib"}
    write(tmp_path / "setup.cfg", "[isort]\nknown_first_party = one,\n    two\n")
    # The nearest settings file with an isort section decides (pyproject.toml is read first there).
    assert first_party(str(tmp_path / "helpers.py"), "helpers") == {"app", "helpers", "shared_lib"}
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert first_party(str(tmp_path / "helpers.py"), "helpers") == {"app", "helpers", "one", "two"}


HELPER_SERVER = """\\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("records")
RECORDS: dict[str, str] = {{}}


def lookup(record_id: str) -> str:
    if record_id not in RECORDS:
        return f"Error: record {{record_id}} not found"
    return RECORDS[record_id]


@mcp.tool()
def get_record(record_id: str) -> str:
    return lookup(record_id)
{extra}"""

BRANCHING_CALLER = """

def print_records(ids: list[str]) -> None:
    for record_id in ids:
        text = lookup(record_id)
        if text.startswith("Error"):
            break
        print(text)
"""


def test_a_helper_turns_its_return_into_a_raise_only_when_every_caller_is_a_tool_path() -> None:
    alone = fixed(HELPER_SERVER.format(extra=""))
    assert '        raise ToolError(f"Record {record_id} not found")\n' in alone, alone
    # `print_records` branches on the returned text: a raise would break it, so the helper keeps
    # its return and the finding stays for the author.
    shared = HELPER_SERVER.format(extra=BRANCHING_CALLER)
    assert fixed(shared) == shared


BRANCH_MESSAGES = '''\
from mcp.server.fastmcp import FastMCP
from requests.exceptions import HTTPError

mcp = FastMCP("builds")


@mcp.tool()
def submit_input(job: str, number: int, input_id: str) -> dict:
    try:
        client.submit(job=job, number=number, input_id=input_id)
    except HTTPError as e:
        if checked:
            msg = (
                f"Submitting input {input_id} for {job} #{number} failed ({e}) and the pending inputs "
                f"could not be checked beforehand"
            )
        else:
            msg = (
                f"Submitting input {input_id} for {job} #{number} failed ({e}). The input may already "
                f"be settled: re-check with get_pending_inputs rather than retrying."
            )
        raise ValueError(msg){cause}
    return {"job": job}
'''


@pytest.mark.parametrize("cause", [" from e", ""], ids=["chained", "unchained"])
def test_a_message_built_in_each_branch_loses_only_the_exception_text_there(cause: str) -> None:
    # The author's hint ("re-check with get_pending_inputs rather than retrying") and context stay;
    # the raise keeps sending `msg` (the whole statement was replaced by a made-up message).
    after = fixed(BRANCH_MESSAGES.replace("{cause}", cause))
    assert after == (
        BRANCH_MESSAGES.replace("{cause}", " from e")
        .replace(" failed ({e}) and", " failed and")
        .replace(" failed ({e}). The", " failed. The")
        .replace('                f"could not', '                "could not')
        .replace('                f"be settled', '                "be settled')
    ), after


HELPER_TEXT = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("incidents")


def report(action: str, exc: Exception) -> dict:
    if isinstance(exc, LookupError):
        return {"error": f"{action}: {exc}", "kind": "not_found"}
    return {"error": f"{action}: {exc}", "kind": "upstream"}


def with_paging_hint(result: dict, page: int) -> dict:
    if page > 1:
        result["error"] += " Deep pages are refused; narrow the query with filters instead."
    return result


@mcp.tool()
def get_incident(ref: str) -> dict:
    try:
        return fetch(ref)
    except Exception as e:
        return report("Failed to retrieve incident", e)


@mcp.tool()
def list_incidents(page: int) -> dict:
    try:
        return fetch_page(page)
    except Exception as e:
        return with_paging_hint({"error": f"Listing failed: {e}"}, page)
'''


def test_no_fix_drops_what_a_project_helper_adds_to_the_failure() -> None:
    # `report(..., e)` writes the text itself (a not-found case the model can act on among them),
    # and `with_paging_hint(...)` adds the author's hint: replacing either statement with a raise
    # would lose it, so the fix is left to the helper (no edit here).
    from mcp_lint.pipeline import lint_source

    findings = [f for f in lint_source(HELPER_TEXT) if f.code == "MCP002" and f.location.row in (23, 31)]
    assert findings and all(f.fix is None for f in findings), [(f.location.row, f.fix) for f in findings]


DEFERRED = '''\
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server.fastmcp import FastMCP

RECORDS: dict[str, str] = {}


def register(mcp: FastMCP) -> None:
    @mcp.tool()
    def get_record(record_id: str) -> str:
        if record_id not in RECORDS:
            return f"Error: record {record_id} not found"
        return RECORDS[record_id]
'''


def test_a_module_written_to_import_without_the_framework_gets_no_top_level_framework_import() -> None:
    # Its framework import is for type checkers only (a CLI imports this module without mcp):
    # `from mcp.server.fastmcp.exceptions import ToolError` at the top would break that.
    from mcp_lint.pipeline import lint_source

    findings = [f for f in lint_source(DEFERRED) if f.code == "MCP005"]
    assert [(f.location.row, f.fix) for f in findings] == [(15, None)]
    runtime = DEFERRED.replace("if TYPE_CHECKING:\n    from", "from").replace("from typing import TYPE_CHECKING\n\n", "")
    assert "raise ToolError(" in fixed(runtime)


def test_a_raise_in_an_except_that_names_no_exception_says_from_none() -> None:
    # ruff's B904: a raise inside `except` states its cause; the failed parse of an argument is
    # not one the model or the log needs.
    source = (
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('docs')\n\n\n"
        "@mcp.tool()\ndef add_heading(level: str) -> str:\n"
        "    try:\n        number = int(level)\n    except (ValueError, TypeError):\n"
        '        return "Invalid parameter: level must be an integer between 1 and 9"\n'
        "    return str(number)\n"
    )
    assert '        raise ToolError("Invalid parameter: level must be an integer between 1 and 9") from None\n' in fixed(source)


@pytest.mark.parametrize("label", ["**Error:** ", "**Error**: ", "\u274c Error: ", "Error: "])
def test_an_error_label_goes_also_in_markdown_emphasis(label: str) -> None:
    source = (
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('auth')\n\n\n"
        "@mcp.tool()\ndef start_auth(email: str) -> str:\n"
        "    if not SERVER.running:\n"
        f'        return f"{label}cannot start the sign-in for {{email}}: the callback server is down"\n'
        "    return SERVER.start(email)\n"
    )
    assert '        raise ToolError(f"Cannot start the sign-in for {email}: the callback server is down")\n' in fixed(source)


def test_imports_added_to_a_module_without_any_stand_two_lines_above_its_first_def(project: Path) -> None:
    write(project / "app" / "__init__.py", "")
    write(
        project / "app" / "lookup.py",
        """\
        def find(items: dict, item_id: str) -> dict:
            if item_id not in items:
                return {"error": f"Item {item_id} not found; list_items gives the ids"}
            return items[item_id]
        """,
    )
    write(
        project / "app" / "server.py",
        """\
        from mcp.server.fastmcp import FastMCP

        from app.lookup import find

        mcp = FastMCP("items")
        ITEMS: dict[str, dict] = {}


        @mcp.tool()
        def get_item(item_id: str) -> dict:
            return find(ITEMS, item_id)
        """,
    )
    fix()
    assert (project / "app" / "lookup.py").read_text().startswith(
        "from mcp.server.fastmcp.exceptions import ToolError\n\n\ndef find(items: dict, item_id: str) -> dict:\n"
    )


def test_imports_for_a_file_without_any_go_below_its_shebang_and_licence_comments() -> None:
    from mcp_lint.fixing.imports import import_edits, read_imports
    import ast

    source = "#!/usr/bin/env python\n# Licensed under the MIT licence.\nRECORDS = {}\n"
    block = read_imports(ast.parse(source), source.splitlines(keepends=True), "store")
    (edit,) = import_edits(block, [("logging", None)], ["logger = logging.getLogger(__name__)"])
    lines = source.splitlines(keepends=True)
    row = edit.location.row
    result = "".join(lines[: row - 1]) + edit.content + "".join(lines[row - 1 :])
    assert result == (
        "#!/usr/bin/env python\n# Licensed under the MIT licence.\n\nimport logging\n\n"
        "logger = logging.getLogger(__name__)\n\nRECORDS = {}\n"
    ), result


def test_a_builder_from_another_module_is_never_replaced_by_its_bare_argument(project: Path) -> None:
    # `not_found_error(item_id)` writes its own message around the id: `raise ToolError(item_id)`
    # would send a bare id, `raise ToolError(not_found_error(item_id))` a dict's repr. No fix.
    write(project / "app" / "__init__.py", "")
    write(project / "app" / "errors.py", 'def not_found_error(item_id: str) -> dict:\n    return {"error": f"Item {item_id} not found"}\n')
    server = """\
        from mcp.server.fastmcp import FastMCP

        from app.errors import not_found_error

        mcp = FastMCP("items")
        ITEMS: dict[str, dict] = {}


        @mcp.tool()
        def get_item(item_id: str) -> dict:
            if item_id not in ITEMS:
                return not_found_error(item_id)
            return ITEMS[item_id]
        """
    write(project / "app" / "server.py", server)
    fix("--select", "MCP005")
    assert (project / "app" / "server.py").read_text() == textwrap.dedent(server)


def test_a_handler_that_logs_through_the_projects_own_log_function_gets_no_second_logger() -> None:
    source = (
        "from mcp.server.fastmcp import FastMCP\n\nfrom app.logs import log_with_request_id\n\n"
        "mcp = FastMCP('catalog')\n\n\n"
        "@mcp.tool()\ndef get_table(name: str) -> str:\n"
        "    try:\n        return CATALOG.get_table(name)\n    except Exception as e:\n"
        '        log_with_request_id("ERROR", f"Table lookup of {name} failed: {e}")\n'
        '        return f"Table lookup of {name} failed: {e}"\n'
    )
    after = fixed(source)
    assert "import logging" not in after and "logger" not in after, after
    assert after.endswith(
        '        log_with_request_id("ERROR", f"Table lookup of {name} failed: {e}")\n'
        '        raise ToolError(f"Table lookup of {name} failed") from e\n'
    ), after


def test_no_leftover_label_or_lone_f_string_after_the_text_goes() -> None:
    source = (
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('docs')\n\n\n"
        "@mcp.tool()\ndef move_file(file_id: str) -> str:\n"
        "    try:\n        return move(file_id)\n    except Exception as e:\n"
        '        raise ValueError(f"Could not move {file_id}. Error details: {e}")\n\n\n'
        "@mcp.tool()\ndef get_doc(doc_id: str) -> str:\n"
        "    error_msg = describe(doc_id)\n    if error_msg:\n"
        '        return f"Error: {error_msg}"\n    return load(doc_id)\n'
    )
    after = fixed(source)
    # "... Error details" with its value gone is a dangling label; `f"{error_msg}"` is `error_msg`.
    assert '        raise ValueError(f"Could not move {file_id}") from e\n' in after, after
    assert "        raise ToolError(error_msg)\n" in after, after


PARTIAL_STORE = """\
def build_entries(note_id: str, level: int) -> list[str]:
    if level > 8:
        raise ValueError("level must be between 0 and 8")
    return [note_id] * level
"""


def test_a_partial_success_stays_a_reply_without_the_exception_text(project: Path) -> None:
    # The work was done, a side step failed: a helper whose docstring says failures are
    # reported, not raised, and a tool that warns beside its confirmation. A raise would tell the
    # model the call failed after the note was created (it would create it again): the reply
    # stays, only the exception's text leaves it; MCP005 offers no raise there.
    write(
        project / "notes" / "server.py",
        '''\
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("notes")
        logger = logging.getLogger(__name__)


        async def file_note(note_id: str, folder: str) -> str:
            """Move a new note into its folder.

            A failed move is reported, not raised: the note exists and the caller needs its id.
            """
            try:
                await move_note(note_id, folder)
            except Exception as e:
                logger.warning("Could not move note %s: %s", note_id, e)
                return f" Left in the inbox, could not move it to '{folder}': {e}"
            return f" Filed in '{folder}'."


        @mcp.tool()
        async def create_note(title: str, folder: str) -> str:
            note_id = await store_note(title)
            return f"Created note {note_id}." + await file_note(note_id, folder)


        @mcp.tool()
        async def tag_note(note_id: str, tag: str) -> str:
            done = f"Tagged note {note_id}"
            try:
                await add_tag(note_id, tag)
            except OSError as error:
                logger.error("Tag failed for %s: %s", note_id, error)
                return f"{done}. Warning: the colour was not applied ({error}). Set it with paint_note."
            return done


        @mcp.tool()
        async def export_note(note_id: str) -> str:
            lines = [f"Exported note {note_id}"]
            try:
                lines.append(await save_copy(note_id))
            except OSError as e:
                logger.error("Copy failed: %s", e)
                lines = [
                    "Note exported successfully!",
                    "Could not save a copy, showing a preview instead.",
                    f"Error: {e}",
                ]
            return "\\n".join(lines)
        ''',
    )
    result = fix()
    assert "error:" not in result.output, result.output
    fixed = (project / "notes" / "server.py").read_text()
    assert "ToolError" not in fixed, fixed
    assert "        return f\" Left in the inbox, could not move it to '{folder}'\"\n" in fixed, fixed
    assert '        return f"{done}. Warning: the colour was not applied. Set it with paint_note."\n' in fixed, fixed
    assert '            f"Error: {e}",\n' in fixed  # a fallback's lines: no rewrite offered
    assert fixed.count("logger.") == 3  # the author's log calls, as written


def test_the_projects_own_validation_text_is_not_dropped(project: Path) -> None:
    # The `try` raises the class it catches itself, or calls only the project's builders around
    # a ValueError: the exception's text is the project's message for the model ("level must be
    # between 0 and 8"), the hint to correct the call. No fix drops it.
    write(project / "notes" / "builders.py", PARTIAL_STORE)
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP

        from notes.builders import build_entries

        mcp = FastMCP("notes")


        @mcp.tool()
        def add_entries(note_id: str, level: int) -> str:
            try:
                entries = build_entries(note_id, level)
            except ValueError as e:
                return f"Error: {e}"
            return ", ".join(entries)


        @mcp.tool()
        def add_rows(note_id: str, rows: list) -> str:
            try:
                for i, row in enumerate(rows):
                    if not isinstance(row, list):
                        raise ValueError(f"Row {i} must be a list")
                save_rows(note_id, rows)
            except ValueError as e:
                raise RuntimeError(f"Invalid rows: {e}")
            return "saved"
        """
    )
    write(project / "notes" / "server.py", source)
    fix()
    assert (project / "notes" / "server.py").read_text() == source


def test_a_hint_a_helper_writes_around_the_exception_stays_unfixed(project: Path) -> None:
    # `hint = enable_message(details, "news")`: the helper, handed the exception's text and more,
    # writes the project's advice (what to enable, where): dropping it drops the hint, keeping
    # it keeps the leak. No fix here (the helper is where to fix it).
    write(project / "news" / "hints.py", 'def enable_message(details: str, feed: str) -> str:\n    return f"Enable {feed} ({details}) in the settings."\n')
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        from news.hints import enable_message

        mcp = FastMCP("news")


        @mcp.tool()
        def get_news(topic: str) -> str:
            try:
                return fetch_news(topic)
            except OSError as error:
                details = str(error)
                hint = enable_message(details, "news")
                raise ToolError(f"News lookup failed: {hint}") from error
        """
    )
    write(project / "news" / "server.py", source)
    result = fix("--select", "MCP002")
    assert "MCP002" in result.output
    assert (project / "news" / "server.py").read_text() == source


def test_an_error_dict_written_in_each_branch_gets_no_raise_of_its_first_text(project: Path) -> None:
    # `response["message"] = ...` per branch, then `return response`: raising the dict's first
    # text ("An error occurred") would leave the branches' words dead.
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("rates")


        @mcp.tool()
        def get_rates(symbol: str) -> dict:
            try:
                return fetch_rates(symbol)
            except OSError as e:
                response = {"status": "error", "message": "An error occurred"}
                if getattr(e, "errno", 0) == 13:
                    response["message"] = "The rates service denied access. Check the key."
                else:
                    response["message"] = "The rates service is unavailable. Try later."
                return response
        """
    )
    write(project / "server.py", source)
    fix("--select", "MCP005")
    assert (project / "server.py").read_text() == source


def test_an_error_dicts_advice_follows_its_message_as_a_sentence(project: Path) -> None:
    # The suggestion is the author's advice: the next sentence of the raised message, never the
    # message itself (it does not say what failed); the log line says what failed, no advice.
    write(
        project / "server.py",
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("quotes")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        def get_quote(symbol: str) -> dict:
            try:
                return fetch_quote(symbol)
            except Exception as e:
                if "rate" in str(e):
                    return {
                        "error": True,
                        "message": "Quote rate limit reached.",
                        "suggestion": "Wait a minute before the next call.",
                    }
                return {
                    "error": True,
                    "message": f"Error: {str(e)}",
                    "suggestion": "try again with another symbol.",
                }
        """,
    )
    fix()
    fixed = (project / "server.py").read_text()
    assert fixed.endswith(
        "    except Exception as e:\n"
        '        if "rate" in str(e):\n'
        '            raise ToolError("Quote rate limit reached. Wait a minute before the next call.") from e\n'
        '        logger.exception("Could not get quote")\n'
        '        raise ToolError("Could not get quote. Try again with another symbol.") from e\n'
    ), fixed


def test_an_error_dicts_context_is_the_hint_that_follows_its_message(project: Path) -> None:
    # `context` beside `error` tells the model how to call again (the format it wants): dropped,
    # the model would repeat the same call. A `context` that is not literal text is not kept.
    write(
        project / "server.py",
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("journal")


        @mcp.tool()
        def schedule_entry(entry_id: str, publish_at: str = "") -> dict:
            if not publish_at:
                return {
                    "error": "Scheduled entries need a publish date",
                    "context": "Give publish_at in ISO format, e.g. '2024-01-01T10:00:00Z'.",
                }
            return {"scheduled": entry_id}
        """,
    )
    fix()
    fixed = (project / "server.py").read_text()
    assert (
        "        raise ToolError(\"Scheduled entries need a publish date. Give publish_at in ISO format, e.g. "
        "'2024-01-01T10:00:00Z'.\")\n"
    ) in fixed, fixed


def test_mcp005_deletes_the_unpacking_only_its_old_return_read_and_adds_no_traceback_to_a_warning(project: Path) -> None:
    write(project / "records" / "errors.py", ERRORS_MODULE)
    write(
        project / "records" / "server.py",
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        from records.errors import Errors

        mcp = FastMCP("records")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        def count_records(kind: str) -> dict:
            try:
                return {"count": count(kind)}
            except Exception as e:
                category, text = Errors.describe(e)
                return {"error": True, "message": "Could not count records", "category": category, "text": text}


        @mcp.tool()
        def get_page(page: int) -> dict:
            try:
                return {"rows": rows_of(page)}
            except ValueError as e:
                logger.warning("Bad page %s: %s", page, e)
                return {"error": True, "message": f"Page {page} is out of range"}
        """,
    )
    fix("--select", "MCP005")
    fixed = (project / "records" / "server.py").read_text()
    assert fixed.endswith(
        "    except Exception as e:\n"
        '        raise ToolError("Could not count records") from e\n'
        "\n\n"
        "@mcp.tool()\n"
        "def get_page(page: int) -> dict:\n"
        "    try:\n"
        '        return {"rows": rows_of(page)}\n'
        "    except ValueError as e:\n"
        '        logger.warning("Bad page %s: %s", page, e)\n'
        '        raise ToolError(f"Page {page} is out of range") from e\n'
    ), fixed


def test_what_failed_is_named_from_the_method_with_the_modules_acronyms(project: Path) -> None:
    # "AWS Error" with its text gone is a label of the failure's kind, not what failed: the
    # operation comes from the code, the label follows it as the kind. A method's own words are never glued to its class's name ("EKSCluster manage eks
    # clusters failed"), and an acronym keeps the module's spelling ("S3", "EKS").
    write(
        project / "cloud" / "server.py",
        '''\
        """Tools for S3 buckets and EKS clusters."""
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("cloud")
        logger = logging.getLogger(__name__)


        class EKSClusterHandler:
            def manage_eks_clusters(self, name: str) -> str:
                try:
                    return self.client.describe(name)
                except Exception as e:
                    return f"Error: {e}"

            def list_s3_buckets(self) -> str:
                try:
                    return self.client.list_buckets()
                except Exception as e:
                    return f"AWS Error: {e}"


        HANDLER = EKSClusterHandler()


        @mcp.tool()
        def manage(name: str) -> str:
            return HANDLER.manage_eks_clusters(name)


        @mcp.tool()
        def buckets() -> str:
            return HANDLER.list_s3_buckets()
        ''',
    )
    fix()
    fixed = (project / "cloud" / "server.py").read_text()
    assert (
        "        except Exception as e:\n"
        '            logger.exception("Manage EKS clusters failed")\n'
        '            raise ToolError("Manage EKS clusters failed") from e\n'
    ) in fixed, fixed
    assert (
        "        except Exception as e:\n"
        '            logger.exception("Could not list S3 buckets: AWS error")\n'
        '            raise ToolError("Could not list S3 buckets: AWS error") from e\n'
    ) in fixed, fixed


def test_an_acronym_the_module_spells_only_in_code_names_is_not_used(project: Path) -> None:
    # "EKS" appears in a class name and a constant, never in a string or comment: the words
    # people read are the ones followed, so the method's words stay as the code writes them.
    write(
        project / "cloud" / "server.py",
        '''\
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("cloud")
        logger = logging.getLogger(__name__)
        EKS = 1


        class EKSClusterHandler:
            def manage_eks_clusters(self, name: str) -> str:
                try:
                    return self.client.describe(name)
                except Exception as e:
                    return f"Error: {e}"


        HANDLER = EKSClusterHandler()


        @mcp.tool()
        def manage(name: str) -> str:
            return HANDLER.manage_eks_clusters(name)
        ''',
    )
    fix()
    fixed = (project / "cloud" / "server.py").read_text()
    assert (
        "        except Exception as e:\n"
        '            logger.exception("Manage eks clusters failed")\n'
        '            raise ToolError("Manage eks clusters failed") from e\n'
    ) in fixed, fixed


def test_a_file_with_imports_in_one_block_gets_the_new_one_in_its_alphabetical_place(project: Path) -> None:
    # Plain imports first, then `from`s, all alphabetical, no blank line between stdlib and third
    # party, two blank lines after (isort's no_sections layout, kept by hand without a config):
    # `import logging` goes after `import json`, not into a section of its own, and the new
    # logger stands two lines below the block like the code the file has there.
    write(project / "awsx" / "helpers.py", "def describe(name: str) -> str:\n    return name\n")
    write(
        project / "awsx" / "handler.py",
        '''\
        """Catalog handler."""

        import json
        from awsx.helpers import describe
        from mcp.server.fastmcp import FastMCP
        from pydantic import Field
        from typing import Any


        mcp = FastMCP("catalog")


        @mcp.tool()
        def get_table(name: str = Field(...)) -> Any:
            try:
                return json.dumps(CATALOG.get_table(describe(name)))
            except Exception as e:
                return f"Could not get table {name}: {e}"
        ''',
    )
    fix()
    fixed = (project / "awsx" / "handler.py").read_text()
    assert fixed.startswith(
        '"""Catalog handler."""\n\n'
        "import json\n"
        "import logging\n"
        "from awsx.helpers import describe\n"
        "from mcp.server.fastmcp import FastMCP\n"
        "from mcp.server.fastmcp.exceptions import ToolError\n"
        "from pydantic import Field\n"
        "from typing import Any\n"
        "\n\n"
        "logger = logging.getLogger(__name__)\n"
        "\n\n"
        'mcp = FastMCP("catalog")\n'
    ), fixed


def test_a_label_of_the_failures_kind_follows_the_operation_named_from_the_code(project: Path) -> None:
    write(
        project / "server.py",
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("tables")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        def describe_table(table: str) -> str:
            try:
                return describe(CONN, table)
            except OSError as e:
                return f"Database error: {e}"
            except Exception as e:
                return f"An unexpected error: {e}"
        """,
    )
    fix()
    fixed = (project / "server.py").read_text()
    assert fixed.endswith(
        "    except OSError as e:\n"
        '        logger.exception("Could not describe table: database error (table: %s, %s)", table, type(e).__name__)\n'
        '        raise ToolError(f"Could not describe table: database error (table: {table}, {type(e).__name__})") from e\n'
        "    except Exception as e:\n"
        '        logger.exception("Could not describe table (table: %s)", table)\n'
        '        raise ToolError(f"Could not describe table (table: {table})") from e\n'
    ), fixed


def test_no_fix_drops_the_engines_verdict_on_the_models_own_query_or_raises_an_empty_answer(project: Path) -> None:
    # `conn.execute(text(sql))` runs the tool's own argument: the exception is the engine's
    # verdict on the model's query ("no such column"), what it corrects its next call with.
    # "No data found in table t" is an answer (zero rows), not a failure; a named item missing is.
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("db")


        @mcp.tool()
        async def read_rows(table: str, limit: int = 10) -> str:
            rows = await DB.fetch(table, limit)
            if not rows:
                return f"No data found in table {table}."
            return render(rows)


        @mcp.tool()
        async def run_query(sql: str) -> str:
            try:
                async with ENGINE.connect() as conn:
                    result = await conn.execute(text(sql))
                    return render(result)
            except OSError as e:
                return f"Database error: {e}"


        @mcp.tool()
        async def get_order(order_id: str) -> str:
            order = await DB.get(order_id)
            if order is None:
                return f"Error: order {order_id} not found"
            return render(order)
        """
    )
    write(project / "server.py", source)
    fix("--select", "MCP002,MCP005")
    fixed = (project / "server.py").read_text()
    assert fixed.replace("from mcp.server.fastmcp.exceptions import ToolError\n", "").replace(
        '        raise ToolError(f"Order {order_id} not found")\n', '        return f"Error: order {order_id} not found"\n'
    ) == source, fixed
    assert '        raise ToolError(f"Order {order_id} not found")\n' in fixed


def test_masking_is_no_safe_fix_where_plain_exceptions_carry_messages_for_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `mask_error_details=True` alone would hide "No book with id ...; call list_books" (MCP008
    # once masked): the safe tier leaves the server as it is; with the unsafe fixes the masking
    # and the ToolError conversion go in together.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "library"\ndependencies = ["fastmcp>=2.5,<3"]\n')
    source = textwrap.dedent(
        """\
        import httpx
        from fastmcp import FastMCP

        mcp = FastMCP("library")
        BOOKS: dict = {}


        def lookup(book_id: str) -> dict:
            if book_id not in BOOKS:
                raise ValueError(f"No book with id {book_id}; call list_books for the ids")
            return BOOKS[book_id]


        @mcp.tool
        def get_book(book_id: str) -> dict:
            return lookup(book_id)


        @mcp.tool
        def fetch_cover(book_id: str) -> str:
            return httpx.get(f"https://covers.example/{book_id}").text
        """
    )
    (tmp_path / "server.py").write_text(source)
    safe = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", "--fix"], catch_exceptions=False)
    assert (tmp_path / "server.py").read_text() == source
    assert "MCP008" not in safe.output and "1 more fix available with `--fix --unsafe-fixes`" in safe.output, safe.output
    fix()
    fixed = (tmp_path / "server.py").read_text()
    assert 'mcp = FastMCP("library", mask_error_details=True)\n' in fixed, fixed
    assert '        raise ToolError(f"No book with id {book_id}; call list_books for the ids")\n' in fixed, fixed


def test_a_helpers_hint_built_into_a_branchs_message_and_a_parsed_document_stay(project: Path) -> None:
    # The helper's advice reaches the raise through `message`, built in one branch: no fix drops
    # it. "Invalid JSON for rows: {e}" names a document, too long to echo in place of the error.
    write(project / "feeds" / "hints.py", 'def enable_message(details: str, feed: str) -> str:\n    return f"Enable {feed} ({details}) in the settings."\n')
    source = textwrap.dedent(
        """\
        import json

        from mcp.server.fastmcp import FastMCP

        from feeds.hints import enable_message

        mcp = FastMCP("feeds")


        @mcp.tool()
        def read_feed(feed: str) -> str:
            try:
                return fetch_feed(feed)
            except OSError as error:
                details = str(error)
                if "disabled" in details:
                    hint = enable_message(details, feed)
                    message = f"Feed error in {feed}: {hint}"
                else:
                    message = f"Feed {feed} is unavailable"
                raise RuntimeError(message) from error
        """
    )
    write(project / "feeds" / "server.py", source)
    fix("--select", "MCP002")
    assert (project / "feeds" / "server.py").read_text() == source
    write(
        project / "feeds" / "rows.py",
        """\
        import json

        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        mcp = FastMCP("rows")


        @mcp.tool()
        def add_rows(rows: str) -> str:
            try:
                parsed = json.loads(store(rows))
            except json.JSONDecodeError as e:
                raise ToolError(f"Invalid JSON for rows: {e}")
            return str(parsed)
        """,
    )
    fix("--select", "MCP002")
    fixed = (project / "feeds" / "rows.py").read_text()
    assert '        raise ToolError("Invalid JSON for rows") from e\n' in fixed, fixed


# --- A file with syntax newer than the running Python (a 3.12 f-string): imports still in the block ---

NEWER_SYNTAX = '''\
import json
import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("rows")


def render(rows: list[str]) -> str:
    return f"{'\\n'.join(rows)}"


@mcp.tool()
def read_file(name: str) -> str:
    """Read one file."""
    try:
        with open(os.path.join("/data", name)) as f:
            return json.load(f)
    except OSError as e:
        return f"Error: {e}"
'''


def test_a_file_the_running_python_cannot_parse_whole_gets_its_imports_in_its_import_block() -> None:
    # The fix's imports go into the file's block, never above its first import (ruff E402 on
    # every original import), though CPython older than 3.12 refuses the f-string in render().
    after = fixed(NEWER_SYNTAX)
    assert after.startswith(
        "import json\nimport logging\nimport os\n\nfrom mcp.server.fastmcp import FastMCP\n"
        "from mcp.server.fastmcp.exceptions import ToolError\n\nlogger = logging.getLogger(__name__)\n"
    ), after
    assert '        logger.exception("Could not read file (name: %s, %s)", name, type(e).__name__)\n        raise ToolError(f"Could not read file (name: {name}, {type(e).__name__})") from e\n' in after


@pytest.mark.parametrize(
    "source",
    [
        NEWER_SYNTAX.replace("{'\\n'.join(rows)}", "{len(rows)}"),
        '#!/usr/bin/env python\n# licence\n"""Doc."""\n\nimport os  # why\nfrom typing import (\n    Any,\n)\n\nX: Any = os.sep\n',
        "def f():\n    pass\n",
    ],
)
def test_the_statement_by_statement_tree_reads_the_same_imports_as_cpython(source: str) -> None:
    import ast

    from mcp_lint.fixing.imports import read_imports, statements_tree

    lines = source.splitlines(keepends=True)
    by_statement = read_imports(statements_tree(libcst.parse_module(source)), lines, "pkg.mod")
    assert by_statement == read_imports(ast.parse(source), lines, "pkg.mod")


CODED_ERROR_DICTS = '''\
import logging

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("permits")
logger = logging.getLogger(__name__)
PERMITS: dict[str, dict] = {}


@mcp.tool()
def find_permit(agency: str, permit_id: str) -> dict:
    if not agency:
        return {
            "error": "agency_missing",
            "message": (
                "agency is required. Pass it as an argument "
                "or set it in the settings file."
            ),
        }
    if permit_id not in PERMITS:
        return {"error": "Not found", "message": f"No permit {permit_id}", "hint": "list_permits gives the ids."}
    return PERMITS[permit_id]


@mcp.tool()
def add_permit(agency: str, permit_id: str) -> dict:
    try:
        return validate_and_add(agency, permit_id)
    except ValueError as e:
        logger.warning("invalid input: %s", e)
        return {"error": "invalid_input", "message": str(e)}


@mcp.tool()
async def renew_permit(permit_id: str) -> dict:
    try:
        return await send_renewal(permit_id)
    except httpx.TimeoutException as e:
        return {"error": "Request timeout", "message": f"The permit service did not answer in time: {e}"}
    except httpx.HTTPError as e:
        return {"error": "REQUEST_FAILED", "message": f"Could not reach the permit service: {e}", "hint": "Check the service status page."}
'''


def test_an_error_dicts_code_is_never_raised_in_place_of_the_sentence_beside_it() -> None:
    # `{"error": CODE, "message": TEXT}`: the code is for programs, the sentence (and the hint
    # after it) for the reader. A label of the kind ("Not found") beside a message is the same.
    # The project's own ValueError text (the `try` calls the project's validator) is kept whole.
    after = fixed(CODED_ERROR_DICTS)
    assert after.endswith(
        textwrap.dedent(
            '''\
            @mcp.tool()
            def find_permit(agency: str, permit_id: str) -> dict:
                if not agency:
                    raise ToolError(
                        "agency is required. Pass it as an argument "
                        "or set it in the settings file."
                    )
                if permit_id not in PERMITS:
                    raise ToolError(f"No permit {permit_id}. list_permits gives the ids.")
                return PERMITS[permit_id]


            @mcp.tool()
            def add_permit(agency: str, permit_id: str) -> dict:
                try:
                    return validate_and_add(agency, permit_id)
                except ValueError as e:
                    logger.warning("invalid input: %s", e)
                    raise ToolError(str(e)) from e


            @mcp.tool()
            async def renew_permit(permit_id: str) -> dict:
                try:
                    return await send_renewal(permit_id)
                except httpx.TimeoutException as e:
                    logger.exception("The permit service did not answer in time (permit_id: %s)", permit_id)
                    raise ToolError(f"The permit service did not answer in time (permit_id: {permit_id})") from e
                except httpx.HTTPError as e:
                    logger.exception("Could not reach the permit service (permit_id: %s)", permit_id)
                    raise ToolError(
                        f"Could not reach the permit service (permit_id: {permit_id}). Check the service status page."
                    ) from e
            '''
        )
    ), after
    for code in ("agency_missing", "invalid_input", "Request timeout", "REQUEST_FAILED", '"Not found"'):
        assert code not in after
    assert fixed(after) == after


def test_an_error_label_with_its_details_and_no_message_key_stays_the_message() -> None:
    # A label beside `details` (not a message key) is the message; the details follow it.
    source = CODED_ERROR_DICTS.replace(
        '{"error": "Not found", "message": f"No permit {permit_id}", "hint": "list_permits gives the ids."}',
        '{"error": "Permit not found", "details": f"no permit {permit_id}"}',
    )
    assert '        raise ToolError(f"Permit not found (no permit {permit_id})")\n' in fixed(source)


def ruff_f841(source: str) -> list[str]:
    """ruff's F841 (a local assigned and never read) lines for `source`."""
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    completed = subprocess.run(
        [ruff, "check", "--no-cache", "--isolated", "--select", "F841", "--output-format", "concise", "-"],
        input=source,
        capture_output=True,
        text=True,
    )
    return [line for line in completed.stdout.splitlines() if "F841" in line]


EXTRACTIONS = '''\
import json
import logging

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("claims")
logger = logging.getLogger(__name__)
API_KEY = "k"


@mcp.tool()
async def submit_claim(team_id: int, player_id: int) -> str:
    try:
        result = await post_claim(team_id, player_id)
        return json.dumps({"success": True, "id": result["id"]})
    except Exception as e:
        # The API says why a claim was refused
        error_msg = str(e)
        if hasattr(e, "response") and hasattr(e.response, "json"):
            try:
                error_data = e.response.json()
                if "messages" in error_data:
                    error_msg = "; ".join(error_data["messages"])
            except Exception:
                pass
        response = {"success": False, "error": type(e).__name__, "message": f"Failed to submit claim: {error_msg}"}
        return json.dumps(response, indent=2)


@mcp.tool()
async def page_vitals(url: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get("https://vitals.example/api", params={"url": url, "key": API_KEY})
        response.raise_for_status()
        return response.text
    except httpx.HTTPStatusError as e:
        error_body = e.response.text
        safe_body = error_body.replace(API_KEY, "[REDACTED]") if API_KEY else error_body
        return f"Vitals API error (HTTP {e.response.status_code}): {safe_body[:200]}"


@mcp.tool()
async def get_order(order_id: str) -> str:
    try:
        return await fetch_order(order_id)
    except httpx.HTTPStatusError as exc:
        detail = exc.response.json().get("detail", "")
        status = exc.response.status_code
        return f"Order lookup failed ({status}): {detail}"
'''


def test_no_fix_leaves_the_authors_extraction_locals_unread() -> None:
    # `error_msg` is assigned on two paths (the API's own reasons, else the exception's text)
    # and `safe_body` is a redacted body: the fix can neither keep them (the text would stay)
    # nor delete them whole, so there is none. A plain read of the reply (`detail`) goes with
    # the text; `status` stays read by the new message. ruff finds no unused local after.
    after = fixed(EXTRACTIONS)
    assert ruff_f841(after) == []
    untouched = EXTRACTIONS.split("@mcp.tool()\nasync def get_order")[0].split('mcp = FastMCP("claims")')[1]
    assert untouched in after, after
    # get_order's request carries the model's order_id: the reply's detail may answer it, so the
    # fix dropping it is display-only (review 16, C2) and the tool is left as written.
    tool = "@mcp.tool()\nasync def get_order" + EXTRACTIONS.split("@mcp.tool()\nasync def get_order")[1]
    assert after.endswith(tool), after
    shown = [f for f in lint_source(EXTRACTIONS) if f.code == "MCP002" and f.fix is not None and "Order lookup failed ({status})" in f.fix.message]
    assert [f.fix.applicability for f in shown] == [Applicability.DISPLAY_ONLY], shown


def test_mcp005_offers_no_raise_that_leaves_a_local_of_the_old_reply_unread() -> None:
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("claims")
        CLAIMS: dict[str, dict] = {}


        @mcp.tool()
        def get_claim(claim_id: str) -> dict:
            owner = find_owner(claim_id)
            if claim_id not in CLAIMS:
                return {"error": f"No claim {claim_id}", "owner": owner}
            return CLAIMS[claim_id]
        """
    )
    assert fixed(source) == source
    read_elsewhere = source.replace("return CLAIMS[claim_id]", "return {**CLAIMS[claim_id], \"owner\": owner}")
    assert '        raise ToolError(f"No claim {claim_id}")\n' in fixed(read_elsewhere)


NEVER_RAISES = '''\
import logging

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("bot")
logger = logging.getLogger(__name__)


@mcp.tool()
def health_check() -> dict:
    """Verify the token and report the connected channel."""
    try:
        channel = get_client().request("GET", "/channel")
        return {"status": "ok", "channel": channel.get("name")}
    except Exception as exc:  # noqa: BLE001 - a health check reports, never raises
        return {"status": f"error: {exc}"}


@mcp.tool()
def ping() -> str:
    try:
        get_client().request("GET", "/ping")
        return "pong"
    except Exception as exc:
        return f"Unreachable: {exc}"


def load_profile(user_id: str) -> dict:
    """Load a user's profile. Always returns a dict; a failure is reported under "error"."""
    try:
        return fetch_profile(user_id)
    except OSError as exc:
        return {"error": f"Could not load profile {user_id}: {exc}"}


@mcp.tool()
def show_profile(user_id: str) -> dict:
    return load_profile(user_id)


@mcp.tool()
def get_order_status(order_id: str) -> str:
    try:
        return fetch_status(order_id)
    except OSError as exc:
        return f"Error: {exc}"
'''


def test_a_function_written_never_to_raise_keeps_its_reply() -> None:
    # A health check whose comment says it never raises, a status check taking no argument,
    # a helper documented to always return a dict: whoever calls them reads the reply, so no fix
    # turns it into a raise. The exception's text leaves a plain reply; a status dict has no fix.
    # A lookup of one order's status takes an argument: its failure is a failure, raised.
    after = fixed(NEVER_RAISES)
    assert after.count("raise ToolError(") == 1, after
    assert '        return {"status": f"error: {exc}"}\n' in after
    assert '        return {"error": f"Could not load profile {user_id}: {exc}"}\n' in after
    assert (
        "    except Exception:\n"
        '        logger.exception("Unreachable")\n'
        '        return "Unreachable"\n'
    ) in after, after
    assert after.endswith(
        "    except OSError as exc:\n"
        '        logger.exception("Could not get order status (order_id: %s, %s)", order_id, type(exc).__name__)\n'
        '        raise ToolError(f"Could not get order status (order_id: {order_id}, {type(exc).__name__})") from exc\n'
    ), after


SEVERAL_STEPS = '''\
import logging

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("search")
logger = logging.getLogger(__name__)


@mcp.tool()
def compare_periods(site: str, first: str, second: str) -> str:
    try:
        service = get_search_service()
        dims = [d.strip() for d in "query,page".split(",")]
        one = service.analytics().query(site=site, start=first, dims=dims).execute()
        two = service.analytics().query(site=site, start=second, dims=dims).execute()
        rows = sorted(one.get("rows", []) + two.get("rows", []), key=len)
        return "\\n".join(str(r) for r in rows)
    except Exception as e:
        return f"Error: {str(e)}"


@mcp.tool()
def channel_name() -> str:
    try:
        channel = get_client().request("GET", "/channel")
        return channel["name"]
    except Exception as e:
        return f"Error: {e}"


@mcp.tool()
def show_issue(key: str) -> str:
    try:
        issue = tracker.get_issue(key)
        logger.info("got %s", key)
        return json.dumps(sorted(issue))
    except Exception as e:
        return f"Error: {e}"
'''


def test_the_operation_named_is_never_one_of_several_steps_that_can_fail() -> None:
    # The `try` gets a service and then runs two queries: whichever failed, "Could not get
    # search service" would name the first and send the model after its credentials. A chain
    # (`get_client().request(...)`) fails at its request, not at the getter. What failed is then
    # named from the tool. A `try` whose one step that asks anyone is `get_issue` (beside a
    # log call, a sort, a dump) names it.
    after = fixed(SEVERAL_STEPS)
    assert "get search service" not in after and "get client" not in after, after
    assert (
        "    except Exception as e:\n"
        '        logger.exception("Compare periods failed")\n'
        '        raise ToolError("Compare periods failed") from e\n'
    ) in after, after
    assert '        raise ToolError("Channel name failed") from e\n' in after, after
    show = SEVERAL_STEPS.replace("def show_issue(key", "def issue_panel(key")
    assert '        raise ToolError("Could not get issue") from e\n' in fixed(show)


LOOKUP_HELPER = '''\
RECORDS: dict[str, dict] = {}


def lookup(record_id: str) -> dict:
    if record_id not in RECORDS:
        return {"error": f"Record {record_id} not found"}
    return RECORDS[record_id]
'''


@pytest.mark.parametrize(
    "caller",
    [
        '    record = lookup(record_id)\n    if "error" in record:\n        return record\n    return {"record": record}\n',
        '    err = lookup(record_id)\n    if isinstance(err, dict) and "error" in err:\n        return err\n    return {"title": err["title"]}\n',
        "    return lookup(record_id)\n",
    ],
    ids=["error-key-test", "isinstance-test", "returned-whole"],
)
def test_a_helper_is_made_to_raise_only_where_no_caller_tests_its_value(project: Path, caller: str) -> None:
    # A tool that tests the helper's value (`if "error" in record: return record`) would keep a
    # dead check once the helper raises: the helper keeps its return (no fix). A tool returning
    # the value whole gets the raise in the helper. The caller is in another module.
    write(project / "records" / "store.py", LOOKUP_HELPER)
    server = (
        "from mcp.server.fastmcp import FastMCP\n\nfrom records.store import lookup\n\nmcp = FastMCP(\"records\")\n\n\n"
        "@mcp.tool()\ndef get_record(record_id: str) -> dict:\n" + caller
    )
    write(project / "records" / "server.py", server)
    result = fix("--select", "MCP005")
    store = (project / "records" / "store.py").read_text()
    if caller.startswith("    return"):
        assert "(1 fixed, 0 remaining)" in result.output
        assert '        raise ToolError(f"Record {record_id} not found")\n' in store, store
    else:
        assert "MCP005" in result.output  # reported, with no fix
        assert store == LOOKUP_HELPER
    assert (project / "records" / "server.py").read_text() == server


HANDLED_TOOL_ERRORS = '''\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import FastMCPError, ToolError

mcp = FastMCP("remote")


@mcp.tool()
def set_scene(name: str) -> str:
    try:
        if not name:
            return "Error: name is required"
        return switch(name)
    except ToolError as e:
        return f"Rejected: {e}"
    except Exception:
        return "Scene switch failed"


@mcp.tool()
def set_layer(name: str) -> str:
    try:
        if not name:
            return "Error: name is required"
        return switch(name)
    except FastMCPError:
        return "framework failure"
    except Exception:
        return "Layer switch failed"


@mcp.tool()
def set_mode(name: str) -> str:
    try:
        if not name:
            return "Error: name is required"
        return switch(name)
    except (ValueError, KeyError):
        return "bad mode"
    except Exception:
        return "Mode switch failed"
'''


def test_the_pass_through_clause_never_makes_an_authors_clause_unreachable() -> None:
    # A raise written inside the `try` needs `except ToolError: raise` before the first clause
    # that would catch it. Where the author handles ToolError itself, or the framework's base
    # of it (FastMCPError), that clause would become unreachable (or the raise swallowed after
    # it): the return stays. Where a broad `except Exception` catches it, the pass-through goes
    # right before it, after the unrelated clauses.
    after = fixed(HANDLED_TOOL_ERRORS)
    assert after.count("    except ToolError:\n        raise\n") == 1, after
    assert after.count('            return "Error: name is required"\n') == 2, after
    assert after.endswith(
        "    try:\n"
        "        if not name:\n"
        '            raise ToolError("Name is required")\n'
        "        return switch(name)\n"
        "    except (ValueError, KeyError):\n"
        '        return "bad mode"\n'
        "    except ToolError:\n"
        "        raise\n"
        "    except Exception:\n"
        '        raise ToolError("Mode switch failed") from None\n'
    ), after
    compile(after, "server.py", "exec")


ITEM_LOOPS = '''\
import logging

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
logger = logging.getLogger(__name__)


@mcp.tool()
def archive_notes(note_ids: list[str]) -> str:
    done = []
    for note_id in note_ids:
        try:
            archive(note_id)
        except OSError as e:
            return f"Archived {', '.join(done)}; stopped at {note_id}: {e}"
        done.append(note_id)
    return f"Archived {', '.join(done)}"


@mcp.tool()
def load_notes(note_ids: list[str]) -> str:
    loaded = []
    for note_id in note_ids:
        try:
            loaded.append(load(note_id))
        except OSError as e:
            return f"Could not load {note_id}: {e}"
    return "\\n".join(loaded)
'''


def test_a_loop_that_reports_the_items_done_beside_the_failure_is_a_partial_success() -> None:
    # Known from the code, not from words: the loop collects the items archived and the reply
    # from the handler reports them ("Archived a, b; stopped at c"): the call did part of its
    # work, so the reply stays a reply without the exception's text. A loop whose failure reply
    # says nothing of the items done (`loaded` is only the result) fails the call: raised.
    after = fixed(ITEM_LOOPS)
    assert (
        "        except OSError:\n"
        '            logger.exception("Archived %s; stopped at %s", \', \'.join(done), note_id)\n'
        "            return f\"Archived {', '.join(done)}; stopped at {note_id}\"\n"
        "        done.append(note_id)\n"
    ) in after, after
    assert (
        "        except OSError as e:\n"
        '            logger.exception("Could not load %s (%s)", note_id, type(e).__name__)\n'
        '            raise ToolError(f"Could not load {note_id} ({type(e).__name__})") from e\n'
        '    return "\\n".join(loaded)\n'
    ) in after, after
    # Without the loop's collection nothing was done before the failure (and no word says
    # otherwise): the same reply is a failure of the call, raised.
    single = fixed(ITEM_LOOPS.replace("        done.append(note_id)\n", ""))
    assert "            raise ToolError(f\"Archived {', '.join(done)}; stopped at {note_id} ({type(e).__name__})\") from e\n" in single, single


STATUS_LABELS = '''\
import logging

from mcp.server.fastmcp import FastMCP
from remote_api import ApiError

mcp = FastMCP("search")
logger = logging.getLogger(__name__)
QUERY = "SELECT name FROM pages ORDER BY name"


@mcp.tool()
def delete_sitemap(site: str, feed: str) -> str:
    try:
        get_service().sitemaps().delete(site=site, feed=feed).execute()
        return "deleted"
    except ApiError as e:
        return f"Error (HTTP {e.status}): {str(e)}"


@mcp.tool()
def get_search_by_page_query(site: str, page: str) -> str:
    try:
        return run(site, page)
    except Exception as e:
        return f"API error (status {e.code}): {e}"
'''


def test_a_labels_status_code_follows_the_operation_and_code_names_are_no_acronyms() -> None:
    # "Error (HTTP 403)" with its text gone names no operation: the operation comes from the
    # code and the status follows it. "BY" of a query and the constant `QUERY` are not the
    # module's acronyms: "by" and "query" stay lower case.
    after = fixed(STATUS_LABELS)
    assert (
        "    except ApiError as e:\n"
        '        logger.exception("Could not delete sitemap (HTTP %s)", e.status)\n'
        '        raise ToolError(f"Could not delete sitemap (HTTP {e.status})") from e\n'
    ) in after, after
    assert (
        "    except Exception as e:\n"
        '        logger.exception("Could not get search by page query: API error (status %s)", e.code)\n'
        '        raise ToolError(f"Could not get search by page query: API error (status {e.code})") from e\n'
    ) in after, after


STRUCTLOG_CALLS = '''\
import httpx
import structlog
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("permits")
log = structlog.get_logger(__name__)


@mcp.tool()
async def get_permit(permit_id: str) -> dict:
    try:
        return await fetch(permit_id)
    except httpx.HTTPError as e:
        log.error(
            "permit_fetch_failed",
            permit_id=permit_id,
            status=getattr(e, "status", None),
        )
        return {"error": f"Could not fetch permit {permit_id}: {e}"}


@mcp.tool()
async def get_owner(permit_id: str) -> dict:
    try:
        return await fetch(permit_id)
    except httpx.HTTPError as e:
        log.error(
            "owner_fetch_failed",
            permit_id=permit_id
        )
        return {"error": f"Could not fetch owner {permit_id}: {e}"}


@mcp.tool()
async def get_fee(permit_id: str) -> dict:
    try:
        return await fetch(permit_id)
    except httpx.HTTPError as e:
        log.error("fee_fetch_failed", permit_id=permit_id)
        return {"error": f"Could not fetch fee {permit_id}: {e}"}
'''


def test_the_traceback_keyword_follows_the_calls_own_layout() -> None:
    # One keyword a line: `exc_info=True` gets a line of its own (with the trailing comma where
    # the author writes one); a call on one line gets it on that line.
    after = fixed(STRUCTLOG_CALLS)
    assert (
        "        log.error(\n"
        '            "permit_fetch_failed",\n'
        "            permit_id=permit_id,\n"
        '            status=getattr(e, "status", None),\n'
        "            exc_info=True,\n"
        "        )\n"
    ) in after, after
    assert '        log.error(\n            "owner_fetch_failed",\n            permit_id=permit_id,\n            exc_info=True\n        )\n' in after, after
    assert '        log.error("fee_fetch_failed", permit_id=permit_id, exc_info=True)\n' in after, after


def test_an_error_dict_holding_only_a_code_raises_it_as_words_with_the_values_beside_it() -> None:
    # `{"error": "not_found", "address_id": address_id}`: no sentence to raise; the code is
    # written as words and the value the dict named stays in the message (never "not_found").
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("permits")


        @mcp.tool()
        async def get_address(address_id: str) -> dict:
            result = await lookup(address_id)
            if result is None:
                return {"error": "not_found", "address_id": address_id, "status": 404}
            return result


        @mcp.tool()
        async def get_parcel(parcel_id: str) -> dict:
            result = await lookup(parcel_id)
            if result is None:
                return {"error": "NOT_FOUND"}
            return result
        """
    )
    after = fixed(source)
    assert '        raise ToolError(f"Not found (address_id: {address_id})")\n' in after, after
    assert '        raise ToolError("Not found")\n' in after, after


def test_a_new_section_is_never_glued_to_the_stdlib_line_above_it(project: Path) -> None:
    # The file keeps stdlib and first-party imports with no blank line between (and out of
    # order, so it keeps no `no_sections` layout either): the third-party import the fix adds
    # opens a section of its own, a blank line above and below it.
    write(project / "teams" / "client.py", "class Client:\n    pass\n")
    write(project / "teams" / "config.py", "class Config:\n    pass\n")
    write(
        project / "teams" / "tools.py",
        '''\
        """Team tools."""

        import json
        from teams.config import Config
        from teams.client import Client


        async def get_team(arguments: dict) -> str:
            try:
                return json.dumps(Client(Config()).team(arguments["team_id"]))
            except Exception as e:
                return json.dumps({"success": False, "message": f"Failed to get team: {e}"})
        ''',
    )
    write(
        project / "teams" / "server.py",
        """\
        from mcp.server.fastmcp import FastMCP

        from teams.tools import get_team

        mcp = FastMCP("teams")


        @mcp.tool()
        async def team(team_id: str) -> str:
            return await get_team({"team_id": team_id})
        """,
    )
    fix()
    fixed = (project / "teams" / "tools.py").read_text()
    assert fixed.startswith(
        '"""Team tools."""\n\n'
        "import json\n"
        "import logging\n"
        "\n"
        "from mcp.server.fastmcp.exceptions import ToolError\n"
        "\n"
        "from teams.config import Config\n"
        "from teams.client import Client\n"
        "\n"
        "logger = logging.getLogger(__name__)\n"
    ), fixed


def test_a_message_composed_line_by_line_gets_no_fix_that_leaves_it_dead() -> None:
    # `message += hint` in a branch, then `return redact(message)`: the author composed the
    # reply for the model (the helper's text, a partial-add hint, a redaction). A raise of a
    # message from the code would leave the composition dead (no F841 for `+=`, still dead
    # code): no fix. A handler whose comment says nothing there may raise keeps its reply,
    # without the exception's text.
    source = textwrap.dedent(
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("friends")
        logger = logging.getLogger(__name__)
        HINT = "Read back with list_friends before retrying."


        @mcp.tool()
        async def add_friends(emails: list[str]) -> str:
            try:
                return await post_friends(emails)
            except Exception as exc:
                message = describe_failure(exc)
                if getattr(exc, "partial", False):
                    message += f"\\n{HINT}"
                return redact(message)


        @mcp.tool()
        async def drop_friends(emails: list[str]) -> str:
            try:
                return await delete_friends(emails)
            except Exception as exc:
                # Nothing here may raise: this is the error path.
                return f"Could not drop friends: {exc}"
        """
    )
    after = fixed(source)
    assert after.startswith(source.split("@mcp.tool()\nasync def drop_friends")[0]), after
    assert after.endswith(
        "    except Exception:\n"
        "        # Nothing here may raise: this is the error path.\n"
        '        logger.exception("Could not drop friends")\n'
        '        return "Could not drop friends"\n'
    ), after


VALIDATION_MODULE = """\
class ValidationError(Exception):
    pass


def validate_code(code: str) -> str:
    if not code or not code.isalnum():
        raise ValidationError("Invalid code: use letters and digits only")
    return code.strip()
"""


def test_no_fix_replaces_the_message_of_the_projects_argument_validator(project: Path) -> None:
    # The `try` starts with the project's own validator of the tool's argument: its raise is the
    # author's sentence telling the model what a valid argument looks like. "Could not get
    # coupon" in its place drops the one hint the model can correct its call with, so the broad
    # clause gets no fix; a `try` that calls no validator still gets one.
    write(project / "shop" / "validation.py", VALIDATION_MODULE)
    write(
        project / "shop" / "server.py",
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        from shop.validation import ValidationError, validate_code

        mcp = FastMCP("shop")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        def get_coupon(code: str) -> str:
            try:
                code = validate_code(code)
                return fetch_coupon(code)
            except Exception as e:
                return f"Error: {e}"


        @mcp.tool()
        def get_voucher(code: str) -> str:
            try:
                code = validate_code(code)
                return fetch_voucher(code)
            except ValidationError as e:
                return f"Invalid voucher code: {e}"
            except Exception as e:
                return f"Error: {e}"


        @mcp.tool()
        def get_order(order_id: str) -> str:
            try:
                return fetch_order(order_id)
            except Exception as e:
                return f"Error: {e}"
        """,
    )
    fix()
    fixed = (project / "shop" / "server.py").read_text()
    # An earlier clause takes the validator's exception (its own text raised as it is): the
    # broad clause never sees the validator's message, and names the operation.
    assert (
        "    except ValidationError as e:\n"
        '        raise ToolError(f"Invalid voucher code: {e}") from e\n'
        "    except Exception as e:\n"
        '        logger.exception("Could not get voucher")\n'
        '        raise ToolError("Could not get voucher") from e\n'
    ) in fixed, fixed
    assert (
        "        code = validate_code(code)\n"
        "        return fetch_coupon(code)\n"
        "    except Exception as e:\n"
        '        return f"Error: {e}"\n'
    ) in fixed, fixed
    assert fixed.endswith(
        "        return fetch_order(order_id)\n"
        "    except Exception as e:\n"
        '        logger.exception("Could not get order (order_id: %s)", order_id)\n'
        '        raise ToolError(f"Could not get order (order_id: {order_id})") from e\n'
    ), fixed


def test_an_error_dicts_hint_that_no_message_can_carry_stays_in_the_result() -> None:
    # The project's exception carries a pointer for the next call (`e.context`, which may be
    # None), or the dict lists examples of a valid argument built by a call: a raise of the
    # message alone would drop them, so these returns get no fix. A literal hint beside the
    # message is kept as the sentence after it.
    source = textwrap.dedent(
        """\
        import json
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("pages")
        logger = logging.getLogger(__name__)


        class PageError(Exception):
            def __init__(self, message: str, context: str | None = None) -> None:
                super().__init__(message)
                self.context = context


        @mcp.tool()
        def create_page(body: str) -> str:
            try:
                return json.dumps(save_page(parse_page(body)))
            except PageError as e:
                return json.dumps({"error": str(e), "context": e.context})


        @mcp.tool()
        def format_page(body: str, style: str) -> str:
            if style not in STYLES:
                return json.dumps({"error": f"Unknown style: {style}", "examples": list_styles()})
            return render(body, style)


        @mcp.tool()
        def move_page(page_id: str, parent_id: str) -> str:
            try:
                return json.dumps(move(page_id, parent_id))
            except Exception as e:
                return json.dumps({"error": f"Could not move page: {e}", "suggestions": nearby_pages(parent_id)})


        @mcp.tool()
        def delete_page(page_id: str) -> str:
            if not page_id:
                return json.dumps({"error": "Page ID is required", "context": "Pass the ID from list_pages"})
            return json.dumps(remove(page_id))
        """
    )
    after = fixed(source)
    assert after.startswith(source.split("@mcp.tool()\ndef delete_page")[0].replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    )), after
    assert after.endswith(
        "def delete_page(page_id: str) -> str:\n"
        "    if not page_id:\n"
        '        raise ToolError("Page ID is required. Pass the ID from list_pages")\n'
        "    return json.dumps(remove(page_id))\n"
    ), after


LOG_MODULE = """\
import structlog


def get_logger(name: str | None = None) -> structlog.BoundLogger:
    return structlog.get_logger(name)
"""


def test_a_module_without_a_logger_gets_the_projects_own_logger(project: Path) -> None:
    # The project's modules make their logger with its own factory (structlog behind it): a fix in
    # a module that has no logger yet makes it the same way, never a stdlib logger beside it.
    write(project / "notes" / "log.py", LOG_MODULE)
    write(
        project / "notes" / "store.py",
        "from notes.log import get_logger\n\nlogger = get_logger(__name__)\n\n\ndef fetch_note(note_id: str) -> str:\n    return read(note_id)\n",
    )
    write(
        project / "notes" / "server.py",
        """\
        \"\"\"Note tools.\"\"\"

        from mcp.server.fastmcp import FastMCP

        from notes.store import fetch_note

        mcp = FastMCP("notes")


        @mcp.tool()
        def get_note(note_id: str) -> str:
            try:
                return fetch_note(note_id)
            except Exception as e:
                return f"Error: {e}"
        """,
    )
    fix()
    fixed = (project / "notes" / "server.py").read_text()
    assert fixed == (
        '"""Note tools."""\n'
        "\n"
        "from mcp.server.fastmcp import FastMCP\n"
        "from mcp.server.fastmcp.exceptions import ToolError\n"
        "\n"
        "from notes.log import get_logger\n"
        "from notes.store import fetch_note\n"
        "\n"
        "logger = get_logger(__name__)\n"
        "\n"
        'mcp = FastMCP("notes")\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "def get_note(note_id: str) -> str:\n"
        "    try:\n"
        "        return fetch_note(note_id)\n"
        "    except Exception as e:\n"
        '        logger.exception("Could not get note (note_id: %s)", note_id)\n'
        '        raise ToolError(f"Could not get note (note_id: {note_id})") from e\n'
    ), fixed


def test_a_logger_called_with_key_values_gets_a_structlog_call() -> None:
    # The module's logger comes from the project's own factory and is called with key-value
    # pairs: structlog behind it. The fix's log call is an event with the values as keys, not a
    # `%s` template.
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP

        from notes.log import get_logger

        mcp = FastMCP("notes")
        logger = get_logger(__name__)


        @mcp.tool()
        def read_note(note_id: str) -> str:
            logger.info("reading note", note_id=note_id)
            try:
                return fetch_note(note_id)
            except Exception as e:
                return f"Could not read note {note_id}: {e}"
        """
    )
    assert fixed(source).endswith(
        "    except Exception as e:\n"
        '        logger.exception("Could not read note", note_id=note_id)\n'
        '        raise ToolError(f"Could not read note {note_id}") from e\n'
    )


def test_the_one_step_that_failed_is_named_when_it_acts_on_something_else() -> None:
    # `list_alerts` fails only in `load_alert_feed`: the feed failed to load, which the message
    # says rather than the tool's own name. A step on what the function names already
    # (`fetch_status` in `get_order_status`) is named better by the function.
    source = textwrap.dedent(
        """\
        import logging

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("alerts")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        def list_alerts(region: str) -> str:
            try:
                alerts = load_alert_feed(region)
                return "\\n".join(alerts)
            except Exception as e:
                return f"Error: {e}"


        @mcp.tool()
        def create_tag(name: str) -> str:
            try:
                return client._send_request("POST", name)
            except Exception as e:
                return f"Error: {e}"


        @mcp.tool()
        def list_files(folder: str) -> str:
            try:
                return ", ".join(storage.list_files_v2(folder))
            except Exception as e:
                return f"Error: {e}"


        @mcp.tool()
        def get_order_status(order_id: str) -> str:
            try:
                return fetch_status(order_id)
            except Exception as e:
                return f"Error: {e}"
        """
    )
    after = fixed(source)
    # A step that only says something ran (`_send_request`) names nothing, nor does a version
    # suffix (`list_files_v2`) make another thing: the tool's name does.
    assert '        raise ToolError(f"Could not create tag (name: {name})") from e\n' in after, after
    assert '        raise ToolError(f"Could not list files (folder: {folder})") from e\n' in after, after
    assert (
        "    except Exception as e:\n"
        '        logger.exception("Could not load alert feed (region: %s)", region)\n'
        '        raise ToolError(f"Could not load alert feed (region: {region})") from e\n'
    ) in after, after
    assert after.endswith(
        "    except Exception as e:\n"
        '        logger.exception("Could not get order status (order_id: %s)", order_id)\n'
        '        raise ToolError(f"Could not get order status (order_id: {order_id})") from e\n'
    ), after


def test_a_request_error_clause_before_the_broad_one_keeps_its_place_and_message() -> None:
    # An SDK's request-error clause comes before `except Exception`: a failure returned inside
    # the `try` becomes a raise that passes the request-error clause (ToolError is none) and is
    # let through before the broad clause; the request-error clause keeps the author's sentence
    # (no exception text in it), chained `from e`; the broad clause names the operation.
    source = textwrap.dedent(
        """\
        import logging

        import httpx
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("weather")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        async def get_forecast(city: str) -> str:
            try:
                async with httpx.AsyncClient() as client:
                    r = await client.get(f"https://api.example.com/{city}")
                if r.status_code == 404:
                    return f"Error: city {city} not found"
                return r.text
            except httpx.RequestError as e:
                logger.error("request failed: %s", e)
                return "Error: the weather service is unreachable, try again later"
            except Exception as e:
                return f"Error: {e}"
        """
    )
    assert fixed(source).endswith(
        "        if r.status_code == 404:\n"
        '            raise ToolError(f"City {city} not found")\n'
        "        return r.text\n"
        "    except httpx.RequestError as e:\n"
        '        logger.error("request failed: %s", e)\n'
        '        raise ToolError("The weather service is unreachable, try again later") from e\n'
        "    except ToolError:\n"
        "        raise\n"
        "    except Exception as e:\n"
        '        logger.exception("Could not get forecast")\n'
        '        raise ToolError("Could not get forecast") from e\n'
    )


def test_a_tools_check_that_only_hands_the_helpers_failure_on_goes_with_the_fix() -> None:
    # The helper and the tool that tests its value share the file: once the helper raises, the
    # tool's `if "error" in record: return record` is dead, and the fix deletes it with the
    # helper's return. A test that does more with the value (here: a second tool reads it in an
    # `else` branch) keeps the helper's return as it is.
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("records")
        RECORDS: dict[str, dict] = {}


        def lookup(record_id: str) -> dict:
            if record_id not in RECORDS:
                return {"error": f"Record {record_id} not found"}
            return RECORDS[record_id]


        @mcp.tool()
        def get_record(record_id: str) -> dict:
            record = lookup(record_id)
            if "error" in record:
                return record
            return {"record": record}
        """
    )
    assert fixed(source) == source.replace(
        'from mcp.server.fastmcp import FastMCP\n',
        'from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n',
    ).replace(
        '        return {"error": f"Record {record_id} not found"}\n',
        '        raise ToolError(f"Record {record_id} not found")\n',
    ).replace('    if "error" in record:\n        return record\n', "")
    kept = source.replace(
        '    if "error" in record:\n        return record\n',
        '    if "error" in record:\n        return record\n    else:\n        RECORDS[record_id] = record\n',
    )
    assert fixed(kept) == kept


def test_a_decoders_position_in_the_callers_own_argument_stays_in_the_message() -> None:
    # The helper decodes its own parameter (a tool's argument, and a stored default): the
    # decoder's text goes, but where it stopped is the caller's pointer to its mistake and holds
    # none of the input. Decoding something else (a file) keeps no position.
    source = textwrap.dedent(
        """\
        import json

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("docs")


        class DocError(Exception):
            pass


        def parse_doc(content: str) -> dict:
            try:
                return json.loads(content)
            except json.JSONDecodeError as e:
                raise DocError(f"Invalid JSON in content: {e}")


        def load_settings() -> dict:
            try:
                return json.loads(SETTINGS.read_text())
            except json.JSONDecodeError as e:
                raise DocError(f"Invalid settings file: {e}")


        @mcp.tool()
        def save_doc(content: str) -> str:
            doc = parse_doc(content)
            return str(len(doc | load_settings() | parse_doc(DEFAULTS)))
        """
    )
    after = fixed(source)
    assert '        raise DocError(f"Invalid JSON in content at line {e.lineno}, column {e.colno}") from e\n' in after, after
    assert '        raise DocError("Invalid settings file") from e\n' in after, after
    # Fed only by the tool's argument, the decoder's text is about what the model sent, as in
    # the tool itself: no finding, the raise stays as written.
    only_argument = source.replace(" | parse_doc(DEFAULTS)", "")
    assert '        raise DocError(f"Invalid JSON in content: {e}")\n' in fixed(only_argument)


def test_the_projects_logger_is_imported_as_the_module_imports_the_project(project: Path) -> None:
    # The module imports the project's modules relatively: the logger factory too, in its
    # alphabetical place among them (isort's order, no I001).
    write(project / "notes" / "__init__.py", "")
    write(project / "notes" / "tools" / "__init__.py", "")
    write(project / "notes" / "util" / "__init__.py", "")
    write(project / "notes" / "util" / "log.py", LOG_MODULE)
    write(
        project / "notes" / "util" / "store.py",
        "from .log import get_logger\n\nlogger = get_logger(__name__)\n\n\ndef fetch_note(note_id: str) -> str:\n    return read(note_id)\n",
    )
    write(
        project / "notes" / "tools" / "read.py",
        """\
        from mcp.server.fastmcp import FastMCP

        from ..util.store import fetch_note

        mcp = FastMCP("notes")


        @mcp.tool()
        def get_note(note_id: str) -> str:
            try:
                return fetch_note(note_id)
            except Exception as e:
                return f"Error: {e}"
        """,
    )
    fix()
    fixed = (project / "notes" / "tools" / "read.py").read_text()
    assert fixed.startswith(
        "from mcp.server.fastmcp import FastMCP\n"
        "from mcp.server.fastmcp.exceptions import ToolError\n"
        "\n"
        "from ..util.log import get_logger\n"
        "from ..util.store import fetch_note\n"
        "\n"
        "logger = get_logger(__name__)\n"
    ), fixed


def test_a_check_that_also_hands_on_an_empty_answer_keeps_the_helpers_return() -> None:
    # `if not record: return record` returns an empty answer too, not only a failure: deleting
    # it would change what the tool does on an empty result, so the helper keeps its return.
    source = textwrap.dedent(
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("records")
        RECORDS: dict[str, dict] = {}


        def lookup(record_id: str) -> dict:
            if record_id not in RECORDS:
                return {"error": f"Record {record_id} not found"}
            return RECORDS[record_id]


        @mcp.tool()
        def get_record(record_id: str) -> dict:
            record = lookup(record_id)
            if not record:
                return record
            return {"record": record}
        """
    )
    assert fixed(source) == source


PARTS_SERVER = """\
import requests
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("parts")


def make_request(path: str) -> dict:
    return requests.get(f"https://example.invalid/{path}", timeout=10).json()


def _handle_error(e: Exception, action: str) -> str:
    return f"Error {action}: request failed"


@mcp.tool()
def get_item_details(item_id: str, include_parts: bool = False) -> str:
    \"\"\"Describe an item.\"\"\"
    try:
        result = make_request(f"items/{item_id}/")
        if not result.get("success"):
            return f"API Error: {result.get('message', 'Item not found')}"
        return format_item_details(result.get("data", {}), item_id, include_parts)
    except Exception as e:
        return _handle_error(e, f"getting item {item_id}")


def format_item_details(item: dict, item_id: str, include_parts: bool) -> str:
    response = f"Item {item_id}: {item.get('name')}\\n"
    if include_parts:
        response += get_item_parts(item_id)
    return response


def get_item_parts(item_id: str) -> str:
    try:
        parts_result = make_request(f"items/{item_id}/parts/")
        if not parts_result.get("success"):
            return "\\nCould not retrieve parts for this item"
        parts = parts_result.get("data", [])
        if not parts:
            return "\\nNo parts found for this item"
        return "\\nParts: " + ", ".join(p.get("name", "?") for p in parts)
    except Exception:
        return "\\nCould not retrieve parts for this item"
"""


def test_a_later_pass_keeps_a_helper_whose_text_is_appended_to_a_report(project: Path) -> None:
    # Pass 1 fixes the tool (its refusal raised, `except ToolError: raise` before its broad
    # clause). That pass-through would let a raise of the helper reach the client, so pass 2 is
    # asked again about the helper: its text is appended to a report the caller already built
    # (`response += get_item_parts(...)`, a partial success), so it keeps returning. `check`
    # offered no fix there, and `--fix` applies none, in any pass. The tool's message drops the
    # reply's `message`: `make_request` hands back the decoded reply, whose failure flag the tool
    # tests, so that text is the upstream's (MCP002), not the author's.
    write(project / "parts" / "server.py", PARTS_SERVER)
    offered = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", "--unsafe-fixes", "--output-format", "json", "--exit-zero"], catch_exceptions=False)
    with_fix = sorted((f["location"]["row"], f["code"]) for f in json.loads(offered.output) if f["fix"])
    assert with_fix == [(21, "MCP005")], with_fix
    result = fix()
    assert "error:" not in result.output, result.output
    fixed = (project / "parts" / "server.py").read_text()
    expected = PARTS_SERVER.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace(
        "            return f\"API Error: {result.get('message', 'Item not found')}\"\n"
        "        return format_item_details(result.get(\"data\", {}), item_id, include_parts)\n"
        "    except Exception as e:\n",
        "            raise ToolError(\"API Error\")\n"
        "        return format_item_details(result.get(\"data\", {}), item_id, include_parts)\n"
        "    except ToolError:\n"
        "        raise\n"
        "    except Exception as e:\n",
    )
    assert fixed == expected, fixed


def test_a_broad_clause_rewritten_lets_the_projects_own_advice_through(project: Path) -> None:
    # The `try` raises the project's own exception with the author's retry advice in its 429
    # branch; the broad clause below passed it on through `{e}`. Its new text would replace the
    # advice, so `except ApiLimitError: raise` goes first, as for ToolError. A library class
    # (`httpx.HTTPError`, which the library raises with its own text) gets no pass-through.
    write(
        project / "profiles" / "errors.py",
        """\
        class ProfileError(Exception):
            pass


        class ApiLimitError(ProfileError):
            pass
        """,
    )
    write(
        project / "profiles" / "server.py",
        """\
        import logging

        import httpx
        from mcp.server.fastmcp import FastMCP

        from .errors import ApiLimitError, ProfileError

        mcp = FastMCP("profiles")
        logger = logging.getLogger(__name__)


        @mcp.tool()
        async def get_profile(user_id: str) -> dict:
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.get(f"https://profiles.invalid/{user_id}")
                if response.status_code == 429:
                    raise ApiLimitError("Rate limit exceeded. Wait ten minutes before the next call.")
                if response.status_code == 418:
                    raise httpx.HTTPError("teapot")
                return response.json()
            except Exception as e:
                logger.error("Unexpected error fetching profile")
                raise ProfileError(f"Unexpected error: {e}") from e
        """,
    )
    result = fix()
    assert "error:" not in result.output, result.output
    fixed = (project / "profiles" / "server.py").read_text()
    assert fixed.endswith(
        "        return response.json()\n"
        "    except ApiLimitError:\n"
        "        raise\n"
        "    except Exception as e:\n"
        '        logger.error("Unexpected error fetching profile", exc_info=True)\n'
        '        raise ProfileError("Unexpected error fetching profile") from e\n'
    ), fixed


LOOKUP_ERRORS = """\
class LookupApiError(Exception):
    def __init__(self, message: str, status_code: int | None = None, response_text: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.response_text = response_text
"""

LOOKUP_TRANSPORT = """\
import httpx

from .errors import LookupApiError


class Transport:
    async def request_json(self, endpoint: str) -> dict:
        try:
            async with httpx.AsyncClient() as client:
                response = await client.get(f"https://papers.invalid{endpoint}")
            response.raise_for_status()
            return response.json()
        except httpx.HTTPStatusError as exc:
            status_code = exc.response.status_code
            response_text = exc.response.text
            raise LookupApiError(
                message=f"HTTP error: {status_code}",
                status_code=status_code,
                response_text=response_text,
            ) from exc
        except httpx.RequestError as exc:
            raise LookupApiError(f"Request failed: {exc}") from exc
"""


def _lookup_server(tested: bool) -> str:
    # With the test, the tool answers a 404 and re-raises the rest; without, it lets all escape.
    body = (
        "    try:\n"
        '        return await transport.request_json(f"/paper/{paper_id}")\n'
        "    except LookupApiError as exc:\n"
        '        if "404" in exc.message:\n'
        '            return {"found": False}\n'
        "        raise\n"
        if tested
        else '    return await transport.request_json(f"/paper/{paper_id}")\n'
    )
    return (
        "from mcp.server.fastmcp import FastMCP\n\n"
        "from .errors import LookupApiError\n"
        "from .transport import Transport\n\n"
        'mcp = FastMCP("papers")\n'
        "transport = Transport()\n\n\n"
        "@mcp.tool()\n"
        "async def get_paper(paper_id: str) -> dict:\n"
        f"{body}"
    )


def _mcp002_fixes(project: Path) -> list[tuple[str, int, bool]]:
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", "--unsafe-fixes", "--output-format", "json", "--exit-zero"], catch_exceptions=False)
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["fix"] is not None) for f in json.loads(result.output) if f["code"] == "MCP002")


@pytest.mark.parametrize("tested", [True, False], ids=["callers-test-the-message", "no-test"])
def test_a_message_beside_a_raw_body_or_tested_by_callers_is_not_rewritten(project: Path, tested: bool) -> None:
    # `message=f"HTTP error: {status_code}"` beside `response_text=<the body>`: a new message
    # would leave the body, and the finding, where they were (the fix loop then found "nothing
    # changed" on its next pass and gave the whole file up), so that raise gets no fix. The
    # second raise's message carries the library's text: it is rewritten, unless code that
    # catches the class tests its message (`"404" in exc.message`), which a new text would break.
    write(project / "papers" / "__init__.py", "")
    write(project / "papers" / "errors.py", LOOKUP_ERRORS)
    write(project / "papers" / "transport.py", LOOKUP_TRANSPORT)
    write(project / "papers" / "server.py", _lookup_server(tested))
    assert _mcp002_fixes(project) == [("transport.py", 15, False), ("transport.py", 22, not tested)]
    result = fix()
    assert "mcp-lint: error" not in result.output, result.output
    after = (project / "papers" / "transport.py").read_text()
    if tested:
        assert after == LOOKUP_TRANSPORT
    else:
        assert after == LOOKUP_TRANSPORT.replace('raise LookupApiError(f"Request failed: {exc}") from exc', 'raise LookupApiError("Request json failed") from exc'), after


ROUTES_SERVER = """\
import httpx
from fastmcp import Context, FastMCP

mcp = FastMCP("routes")


async def search_api(query: str) -> dict:
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get("https://search.invalid/works", params={"q": query})
            if response.status_code != 200:
                return {"ok": False, "status_code": response.status_code, "error": response.text[:500]}
            return {"ok": True, "data": response.json()}
        except httpx.HTTPError as e:
            return {"ok": False, "status_code": None, "error": str(e)}


@mcp.tool()
async def compute_route(origin: str, destination: str, ctx: Context) -> dict:
    async with httpx.AsyncClient() as client:
        response = await client.post("https://routes.invalid/v2:computeRoutes", json={"origin": origin, "destination": destination})
        if response.status_code != 200:
            error_msg = f"Route request failed: HTTP {response.status_code} - {response.text}"
            await ctx.error(error_msg)
            return {"error": error_msg}
        return response.json()


@mcp.tool()
async def geocode(address: str, ctx: Context) -> dict:
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get("https://geo.invalid/json", params={"address": address})
            data = response.json()
            if data["status"] != "OK":
                error_msg = f"Geocoding failed: {data.get('error_message', data['status'])}"
                await ctx.error(error_msg)
                return {"error": error_msg}
            return data["results"][0]
        except httpx.HTTPError as e:
            error_msg = f"Geocoding request failed: {e}"
            await ctx.error(error_msg)
            return {"error": error_msg}


@mcp.tool()
async def search_works(query: str) -> dict:
    result = await search_api(query)
    if not result.get("ok"):
        return {
            "status": "error",
            "query": query,
            "error": {"source": "works_search", "status_code": result.get("status_code"), "message": result.get("error")},
        }
    return result["data"]
"""


def _concise(project: Path) -> set[tuple[str, str]]:
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", "--output-format", "json", "--exit-zero"], catch_exceptions=False)
    return {(f["code"], f["message"]) for f in json.loads(result.output)}


def test_a_returned_failure_is_raised_without_the_upstream_body_it_carries(project: Path) -> None:
    # The returned message holds the failed reply's body (`response.text`, a decoded reply's
    # `error_message`): the raise names the failure in the author's words and status without
    # it, also where the local is assigned again in another branch. An error dict whose "error"
    # is itself a dict (with a helper's raw body inside) has no
    # text to raise: `ToolError({...})` would send its repr, so no fix. Linted again, the fixed
    # code has no finding the original did not have.
    (project / "pyproject.toml").write_text('[project]\nname = "routes"\ndependencies = ["fastmcp>=2.3"]\n')
    write(project / "server.py", ROUTES_SERVER)
    before = _concise(project)
    result = fix()
    assert "mcp-lint: error" not in result.output, result.output
    fixed = (project / "server.py").read_text()
    expected = (
        ROUTES_SERVER.replace("from fastmcp import Context, FastMCP\n", "from fastmcp import Context, FastMCP\nfrom fastmcp.exceptions import ToolError\n")
        .replace(
            "            await ctx.error(error_msg)\n            return {\"error\": error_msg}\n        return response.json()\n",
            "            await ctx.error(error_msg)\n            raise ToolError(f\"Route request failed: HTTP {response.status_code}\")\n        return response.json()\n",
        )
        .replace(
            "                await ctx.error(error_msg)\n                return {\"error\": error_msg}\n            return data",
            "                await ctx.error(error_msg)\n                raise ToolError(\"Geocoding failed\")\n            return data",
        )
        .replace(
            "            await ctx.error(error_msg)\n            return {\"error\": error_msg}\n",
            "            await ctx.error(error_msg)\n            raise ToolError(\"Geocoding request failed\") from e\n",
        )
    )
    assert fixed == expected, fixed
    after = _concise(project)
    assert after <= before, after - before
    assert ("MCP005", "Tool 'search_works' returns a failure dict as a normal result") in after


PLACES_SERVER = """\
import httpx
from fastmcp import Context, FastMCP

mcp = FastMCP("places")


@mcp.tool()
async def find_place(query: str, ctx: Context) -> dict:
    async with httpx.AsyncClient() as client:
        try:
            response = await client.get("https://places.invalid/find", params={"q": query})
            return response.json()
        except Exception as e:
            error_msg = f"Place search failed: {str(e)}"
            await ctx.error(error_msg)
            return {"error": error_msg}
"""


def test_a_module_reporting_through_the_context_gets_no_second_logger(project: Path) -> None:
    # The author reports the failure to the client through the tool's Context (`await
    # ctx.error(...)`) and the module has no logger: the fix raises, and adds no standard library
    # logger beside the author's channel. With a module logger, the fix logs through it.
    (project / "pyproject.toml").write_text('[project]\nname = "places"\ndependencies = ["fastmcp>=2.3"]\n')
    write(project / "server.py", PLACES_SERVER)
    write(project / "logged.py", PLACES_SERVER.replace("import httpx\n", "import logging\n\nimport httpx\n").replace('mcp = FastMCP("places")\n', 'mcp = FastMCP("places")\nlogger = logging.getLogger(__name__)\n'))
    result = fix()
    assert "mcp-lint: error" not in result.output, result.output
    assert (project / "server.py").read_text() == PLACES_SERVER.replace(
        "from fastmcp import Context, FastMCP\n", "from fastmcp import Context, FastMCP\nfrom fastmcp.exceptions import ToolError\n"
    ).replace('            return {"error": error_msg}\n', '            raise ToolError("Place search failed") from e\n')
    logged = (project / "logged.py").read_text()
    assert logged.endswith(
        "            await ctx.error(error_msg)\n"
        '            logger.exception("Place search failed")\n'
        '            raise ToolError("Place search failed") from e\n'
    ), logged


DECORATOR_SERVER = """\
import functools
import logging

from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

mcp = FastMCP("records")
logger = logging.getLogger(__name__)


class ItemResponse(BaseModel):
    item_id: str
    error: str | None = None


class ListResponse(BaseModel):
    items: list[str]
    error: str | None = None


def handle_api_error(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        try:
            return await func(*args, **kwargs)
        except Exception as exc:
            logger.error("Error in %s: %s", func.__name__, exc, exc_info=True)
            if func.__name__ == "get_item":
                return ItemResponse(item_id=kwargs.get("item_id", ""), error=str(exc))
            if func.__name__ == "list_items":
                return ListResponse(items=[], error=str(exc))
            return {"error": str(exc), "success": False}

    return wrapper


@mcp.tool()
@handle_api_error
async def get_item(item_id: str) -> ItemResponse:
    return ItemResponse(item_id=await fetch_item(item_id))


@mcp.tool()
@handle_api_error
async def list_items() -> ListResponse:
    return ListResponse(items=await fetch_items())
"""


def test_branches_that_each_become_the_clauses_last_raise_are_collapsed(project: Path) -> None:
    # A decorator's clause answers per tool (`if func.__name__ == ...: return XResponse(error=
    # str(exc))`) and ends with a generic return. Each would become the same raise as the last
    # statement: the branches are dead code then, so they go and one raise is left.
    write(project / "server.py", DECORATOR_SERVER)
    result = fix()
    assert "mcp-lint: error" not in result.output, result.output
    assert (project / "server.py").read_text() == DECORATOR_SERVER.replace(
        "from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n"
    ).replace(
        '            if func.__name__ == "get_item":\n'
        '                return ItemResponse(item_id=kwargs.get("item_id", ""), error=str(exc))\n'
        '            if func.__name__ == "list_items":\n'
        "                return ListResponse(items=[], error=str(exc))\n"
        '            return {"error": str(exc), "success": False}\n',
        '            raise ToolError(f"Error in {func.__name__}") from exc\n',
    )


SOAP_SERVER = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("records")


class RecordsError(Exception):
    pass


class RecordsSoapClient:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self._http = httpx.AsyncClient()

    async def _call(self, service: str, method: str, body: str) -> str:
        url = f"{self.base_url}/services/{service}.asmx"
        try:
            response = await self._http.post(url, content=body)
            response.raise_for_status()
        except httpx.HTTPError as e:
            raise RecordsError(f"HTTP error: {e}") from e
        return response.text

    async def get_record(self, record_id: str) -> str:
        return await self._call("wsRecords", "GetRecord", record_id)


client = RecordsSoapClient("https://records.invalid")


@mcp.tool()
async def get_record(record_id: str) -> str:
    return await client.get_record(record_id)
"""


def test_a_generic_method_of_a_client_class_is_not_glued_to_the_class_name(project: Path) -> None:
    # `RecordsSoapClient._call` runs whatever its caller names: "RecordsSoap call failed" glues
    # the class's name to a verb that names no task. The failure is named from the one tool it
    # reaches; with two tools reaching it, no name says which call failed: no fix.
    write(project / "server.py", SOAP_SERVER)
    result = fix()
    assert "mcp-lint: error" not in result.output, result.output
    # (The HTTP status stays, in a clause of its own before the broad one: issue 23.)
    assert (project / "server.py").read_text() == SOAP_SERVER.replace(
        '        except httpx.HTTPError as e:\n            raise RecordsError(f"HTTP error: {e}") from e',
        "        except httpx.HTTPStatusError as e:\n"
        '            raise RecordsError(f"Could not get record (HTTP {e.response.status_code})") from e\n'
        '        except httpx.HTTPError as e:\n            raise RecordsError("Could not get record: HTTP error") from e',
    )
    two_tools = SOAP_SERVER + (
        "\n\n@mcp.tool()\n"
        "async def list_records() -> str:\n"
        '    return await client._call("wsRecords", "ListRecords", "")\n'
    )
    write(project / "server.py", two_tools)
    fix()
    assert (project / "server.py").read_text() == two_tools


ORDERS_SERVER = """\
import logging

import requests
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orders")
logger = logging.getLogger(__name__)


class OrdersApiError(Exception):
    pass


class OrdersClient:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def get_orders(self, days: int) -> list:
        response = requests.get(f"{self.base_url}/orders", params={"days": days}, timeout=10)
        if response.status_code != 200:
            raise RuntimeError(f"HTTP error {response.status_code}")
        data = response.json()
        code = data.get("code", 0)
        if code != 0:
            raise OrdersApiError(f"API error [{code}]: {data.get('message', 'unknown error')}")
        return data["orders"]


client = OrdersClient("https://orders.invalid")


@mcp.tool()
def list_orders(days: int = 30) -> str:
    try:
        orders = client.get_orders(days)
        return "\\n".join(str(order) for order in orders)
    except Exception as e:
        return f"Order query failed: {e}"
"""


def test_the_services_verdict_raised_by_the_projects_client_is_let_through(project: Path) -> None:
    # The module's client raises its own class with the service's reason for refusing the
    # request (`API error [{code}]: {message}`); the tool's broad clause passed it on through
    # `{e}`. Its new text would drop that reason, so `except OrdersApiError: raise` goes first.
    # A class the client also raises with the reply's raw body (`response.text`) is not let
    # through: the body would travel with it.
    write(project / "server.py", ORDERS_SERVER)
    write(project / "raw.py", ORDERS_SERVER.replace('raise RuntimeError(f"HTTP error {response.status_code}")', 'raise OrdersApiError(f"HTTP error {response.status_code}: {response.text}")'))
    result = fix()
    assert "mcp-lint: error" not in result.output, result.output
    fixed_tail = (
        "    except Exception as e:\n"
        '        logger.exception("Order query failed")\n'
        '        raise ToolError("Order query failed") from e\n'
    )
    assert (project / "server.py").read_text().endswith(
        '        return "\\n".join(str(order) for order in orders)\n'
        "    except OrdersApiError:\n"
        "        raise\n" + fixed_tail
    )
    raw = (project / "raw.py").read_text()
    assert raw.endswith('        return "\\n".join(str(order) for order in orders)\n' + fixed_tail), raw


def test_a_module_name_a_function_imports_for_itself_is_not_used_by_the_fix(project: Path) -> None:
    # `import mcp.server.fastmcp` inside `version()` binds `mcp` in that function only: a fix
    # writing `raise mcp.server.fastmcp.exceptions.ToolError(...)` in the tool would fail with a
    # NameError on the very failure it reports. The fix imports ToolError at module level instead.
    write(
        project / "records" / "server.py",
        """\
        from mcp.server.fastmcp import FastMCP

        server = FastMCP("records")
        RECORDS: dict[str, str] = {}


        def version() -> str:
            import mcp.server.fastmcp

            return mcp.server.fastmcp.__name__


        @server.tool()
        def get_record(record_id: str) -> str:
            if record_id not in RECORDS:
                return f"Error: record {record_id} not found"
            return RECORDS[record_id]
        """,
    )
    fix("--select", "MCP005")
    fixed = (project / "records" / "server.py").read_text()
    assert fixed.startswith("from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n"), fixed
    assert '        raise ToolError(f"Record {record_id} not found")\n' in fixed, fixed
    compile(fixed, "server.py", "exec")
