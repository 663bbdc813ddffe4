"""The other statements of a flow as related locations (issue 24): a finding shows, in the order
the value goes, each statement that carries the exception's text (MCP002) or the failure value
(MCP005) between where it is built and the statement that sends it, across helpers too; what
`full`, `json` and SARIF print of them."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path

import pytest

from mcp_lint.findings import Finding
from mcp_lint.output import write_report
from rules._support import check, lint_tree, write_tree
from sarif_support import schema_errors


def related(finding: Finding) -> list[tuple[int, str]]:
    return [(r.location.row, r.message) for r in finding.related]


def by_code(findings: list[Finding], code: str) -> Finding:
    (found,) = [f for f in findings if f.code == code]
    return found


HEADER = """\
from fastmcp import FastMCP

mcp = FastMCP("notes")


"""

# The flow of the issue: the exception's text -> `detail` -> `msg` -> returned.
MULTI_STEP = HEADER + """\
@mcp.tool
def read_note(note_id: str) -> str:
    try:
        return open(note_id).read()
    except OSError as e:
        detail = f"read failed: {e}"  # expect: MCP002
        msg = f"Could not read the note: {detail}"
        return msg  # expect: MCP005
"""


def test_a_multi_step_text_flow_lists_each_statement_in_order() -> None:
    findings = check(MULTI_STEP)
    leak = by_code(findings, "MCP002")
    assert leak.location.row == 11
    assert related(leak) == [
        (12, "the text is carried into `msg`"),
        (13, "the text is returned here"),
    ]


def test_the_failure_returned_through_a_local_shows_where_it_is_built() -> None:
    failure = by_code(check(MULTI_STEP), "MCP005")
    assert failure.location.row == 13
    assert related(failure) == [(12, "the failure is carried into `msg`")]


def test_text_through_appends_joins_and_unpacking_is_followed_statement_by_statement() -> None:
    findings = check(
        HEADER
        + """\
@mcp.tool
def read_notes(note_ids: list[str]) -> str:
    errors = []
    for note_id in note_ids:
        try:
            open(note_id).read()
        except OSError as e:
            errors.append(f"{note_id}: {e}")  # expect: MCP002
    summary = "; ".join(errors)
    summary += "."
    head, tail = summary, ""
    return head
"""
    )
    leak = by_code(findings, "MCP002")
    assert related(leak) == [
        (14, "the text is carried into `summary`"),
        (15, "`summary` is extended, the text still in it"),
        (16, "the text is unpacked into `head`"),
        (17, "the text is returned here"),
    ]


def test_a_one_statement_flow_has_no_statement_in_between() -> None:
    findings = check(
        HEADER
        + """\
@mcp.tool
def read_note(note_id: str) -> str:
    try:
        return open(note_id).read()
    except OSError as e:
        return f"Could not read the note: {e}"  # expect: MCP002, MCP005
"""
    )
    assert [f.related for f in findings] == [(), ()]


def test_a_local_built_and_sent_at_once_shows_only_the_sending_statement() -> None:
    leak = by_code(
        check(
            HEADER
            + """\
@mcp.tool
def read_note(note_id: str) -> str:
    try:
        return open(note_id).read()
    except OSError as e:
        msg = f"Could not read the note: {e}"  # expect: MCP002
        return msg  # expect: MCP005
"""
        ),
        "MCP002",
    )
    assert related(leak) == [(12, "the text is returned here")]


def test_a_store_on_a_branch_that_leaves_before_the_return_is_not_on_the_way() -> None:
    # `note` is written twice; the second write is on a branch that raises, so only the first
    # reaches `return note` (reaching definitions, not the last write above the return).
    findings = check(
        HEADER
        + """\
@mcp.tool
def read_note(note_id: str, verbose: bool) -> str:
    try:
        return open(note_id).read()
    except OSError as e:
        detail = f"read failed: {e}"  # expect: MCP002
        note = f"Could not read the note: {detail}"
        if verbose:
            note = f"{detail} (verbose)"
            raise ValueError("the note cannot be read")
        return note  # expect: MCP005
"""
    )
    assert related(by_code(findings, "MCP002")) == [
        (12, "the text is carried into `note`"),
        (16, "the text is returned here"),
    ]
    assert related(by_code(findings, "MCP005")) == [(12, "the failure is carried into `note`")]


def test_a_long_flow_shows_eight_statements_and_counts_the_rest() -> None:
    steps = "\n".join(f"        step{i} = step{i - 1}.strip()" for i in range(1, 11))
    leak = by_code(
        check(
            HEADER
            + f"""\
@mcp.tool
def read_note(note_id: str) -> str:
    try:
        return open(note_id).read()
    except OSError as e:
        step0 = str(e)  # expect: MCP002
{steps}
        return step10
"""
        ),
        "MCP002",
    )
    shown = related(leak)
    assert [row for row, _ in shown] == [*range(12, 20), 22]
    assert shown[0] == (12, "the text is carried into `step1`")
    assert shown[7] == (19, "the text is carried into `step8` (and 2 more statements of the flow)")
    assert shown[8] == (22, "the text is returned here")


# -- across helpers: the helper's statements, then the caller's --------------------------------

HELPERS = """\
def describe(exc):
    detail = str(exc)
    text = f"Could not read the note: {detail}"
    return text


def failure(reason):
    payload = {"error": reason}
    return payload
"""

SERVER = """\
from fastmcp import FastMCP

from notes.helpers import describe, failure

mcp = FastMCP("notes")


@mcp.tool
def read_note(note_id: str) -> str:
    try:
        return open(note_id).read()
    except OSError as e:
        message = describe(e)
        return message


@mcp.tool
def delete_note(note_id: str) -> dict:
    if not note_id:
        out = failure("note_id is required")
        return out
    return {"deleted": note_id}
"""


@pytest.fixture
def across(tmp_path: Path) -> list[Finding]:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "notes"\ndependencies = ["fastmcp>=2.10"]\n',
            "notes/__init__.py": "",
            "notes/helpers.py": HELPERS,
            "notes/server.py": SERVER,
        },
    )
    return lint_tree(tmp_path)


def places(finding: Finding) -> list[tuple[str, int, str]]:
    return [(Path(r.filename).name, r.location.row, r.message) for r in finding.related]


def test_a_text_flow_through_a_helper_lists_the_helpers_statements_then_the_callers(across: list[Finding]) -> None:
    # The caller returns the describing helper's result whole (through a local): the flow is the
    # helper's, reported where it takes the exception's text in; the call handing it the exception,
    # the rest of the helper's statements and the tool that reaches it are the evidence.
    leak = by_code(across, "MCP002")
    assert (Path(leak.filename).name, leak.location.row) == ("helpers.py", 2)
    assert places(leak) == [
        ("server.py", 13, "the caught exception is passed in here"),
        ("helpers.py", 3, "the text is carried into `text`"),
        ("server.py", 9, "tool 'read_note' reaches this helper"),
    ]


def test_a_failure_built_by_a_helper_lists_its_statements_then_the_callers(across: list[Finding]) -> None:
    failure = next(f for f in across if f.code == "MCP005" and f.location.row == 21)
    assert places(failure) == [
        ("helpers.py", 8, "the failure is carried into `payload` in `failure()`"),
        ("helpers.py", 9, "the failure is returned by `failure()`"),
        ("server.py", 20, "the failure goes through `failure()` into `out`"),
    ]


def test_messages_and_help_do_not_change_with_the_flow(across: list[Finding]) -> None:
    leak = by_code(across, "MCP002")
    assert leak.message == "Helper 'describe' returns the text of the exception passed in 'exc' as a normal result"
    assert all(" `" not in note for note in leak.notes)  # the flow is in related locations only


# -- what the formats print ------------------------------------------------------------------------


def render(findings: list[Finding], fmt: str) -> str:
    out = io.StringIO()
    source = textwrap.dedent(MULTI_STEP)
    write_report(findings, fmt, out, read_source=lambda name: source)
    return out.getvalue()


def test_json_lists_the_flow_as_related_entries() -> None:
    leak = by_code(check(MULTI_STEP), "MCP002")
    (entry,) = json.loads(render([leak], "json"))
    spans = [(r["location"]["row"], r["location"]["column"], r["end_location"]["row"], r["end_location"]["column"]) for r in entry["related"]]
    assert spans == [(12, 9, 12, 51), (13, 9, 13, 19)]
    assert [r["message"] for r in entry["related"]] == ["the text is carried into `msg`", "the text is returned here"]
    assert all(r["filename"].endswith("server.py") for r in entry["related"])


def test_sarif_lists_the_flow_as_related_locations_and_validates() -> None:
    leak = by_code(check(MULTI_STEP), "MCP002")
    report = json.loads(render([leak], "sarif"))
    assert schema_errors(report) == []
    (result,) = report["runs"][0]["results"]
    assert [(r["id"], r["physicalLocation"]["region"]["startLine"], r["message"]["text"]) for r in result["relatedLocations"]] == [
        (0, 12, "the text is carried into `msg`"),
        (1, 13, "the text is returned here"),
    ]


def test_full_output_frames_each_statement_of_the_flow() -> None:
    leak = by_code(check(MULTI_STEP), "MCP002")
    text = render([leak], "full")
    assert "::: server.py:12:9: the text is carried into `msg`" in text
    assert text.index("carried into `msg`") < text.index("the text is returned here")
    assert '12 |         msg = f"Could not read the note: {detail}"' in text


def test_the_language_server_shows_the_flow_as_related_information() -> None:
    pytest.importorskip("pygls")
    from mcp_lint.server.diagnostics import diagnostic, file_uri
    from mcp_lint.server.documents import Lines

    leak = by_code(check(MULTI_STEP), "MCP002")
    uri = file_uri(leak.filename)
    made = diagnostic(leak, Lines(textwrap.dedent(MULTI_STEP)), uri, lambda name: None)
    flow = [(r.location.uri, r.location.range.start.line, r.message) for r in made.related_information if r.location.range.start.line != 10]
    assert flow == [(uri, 11, "the text is carried into `msg`"), (uri, 12, "the text is returned here")]  # 0-based lines


def test_a_cached_run_gives_the_same_flow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from mcp_lint.cli import cli

    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "notes"\ndependencies = ["fastmcp>=2.10"]\n',
            "notes/__init__.py": "",
            "notes/helpers.py": HELPERS,
            "notes/server.py": SERVER,
        },
    )
    monkeypatch.chdir(tmp_path)
    runs = [
        CliRunner().invoke(cli, ["check", ".", "--output-format", "json", "--exit-zero", *options, "--cache-dir", str(tmp_path / ".cache")])
        for options in ([], [], ["--no-cache"])
    ]
    assert [run.exit_code for run in runs] == [0, 0, 0]
    assert (tmp_path / ".cache").is_dir()
    cold, warm, uncached = (json.loads(run.output) for run in runs)
    assert cold == warm == uncached
    assert any(len(entry["related"]) >= 3 for entry in cold)


def test_a_helper_that_formats_the_exception_it_is_handed_shows_the_calls_that_hand_it_in(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "notes"\ndependencies = ["fastmcp>=2.10"]\n',
            "notes/__init__.py": "",
            "notes/errors.py": 'def explain(exc):\n    return f"The note store failed: {exc}"\n',
            "notes/server.py": """\
                from fastmcp import FastMCP

                from notes.errors import explain

                mcp = FastMCP("notes")


                @mcp.tool
                def read_note(note_id: str) -> str:
                    try:
                        return open(note_id).read()
                    except OSError as e:
                        return explain(e)


                @mcp.tool
                def count_notes(folder: str) -> str:
                    explain(ValueError("unused"))  # not a caught exception: not the flow's start
                    return folder
                """,
        },
    )
    leak = next(f for f in lint_tree(tmp_path) if f.code == "MCP002" and Path(f.filename).name == "errors.py")
    assert leak.location.row == 2
    assert places(leak) == [
        ("server.py", 13, "the caught exception is passed in here"),
        ("server.py", 9, "tool 'read_note' reaches this helper"),
    ]


def test_a_helpers_failure_shows_the_callers_that_return_it_on_up_to_the_tool() -> None:
    failure = by_code(
        check(
            HEADER
            + """\
NOTES: dict[str, str] = {}


def load(note_id: str) -> str:
    if note_id not in NOTES:
        reply = f"Error: note {note_id} not found"
        return reply  # expect: MCP005
    return NOTES[note_id]


def fetch(note_id: str) -> str:
    return load(note_id.strip())


@mcp.tool
def read_note(note_id: str) -> str:
    text = fetch(note_id)
    return text


def unused(note_id: str) -> str:
    return load(note_id)  # no tool reaches it: not on the way
"""
        ),
        "MCP005",
    )
    assert related(failure) == [
        (11, "the failure is carried into `reply`"),
        (17, "returned on by `fetch()`"),
        (22, "returned on by `read_note()`"),
        (21, "tool 'read_note' reaches this helper"),
    ]


def test_an_upstream_body_taken_into_a_local_shows_where_it_is_read_and_carried() -> None:
    findings = check(
        """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("orchard")  # expect: MCP007


@mcp.tool
def count_apples(tree: str) -> str:
    resp = httpx.get(f"https://orchard.example.com/trees/{tree}")
    if resp.status_code != 200:
        detail = resp.text
        reason = detail[:200]
        raise ToolError(f"Orchard API error: {reason}")  # expect: MCP002
    return str(resp.json()["apples"])
"""
    )
    leak = by_code(findings, "MCP002")
    assert related(leak) == [(12, "the text is carried into `detail`"), (13, "the text is carried into `reason`")]


def test_an_upstream_body_read_in_the_sending_statement_has_no_statement_before_it() -> None:
    findings = check(
        """\
import httpx
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("orchard")  # expect: MCP007


@mcp.tool
def count_apples(tree: str) -> str:
    resp = httpx.get(f"https://orchard.example.com/trees/{tree}")
    if resp.status_code != 200:
        raise ToolError(f"Orchard API error: {resp.text}")  # expect: MCP002
    return str(resp.json()["apples"])
"""
    )
    assert by_code(findings, "MCP002").related == ()
