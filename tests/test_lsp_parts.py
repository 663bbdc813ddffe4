"""The language server's parts that need no client: a finding as a diagnostic (related
information, notes and help), code action titles, positions in UTF-16, the client's settings, and
the one-line error when the `server` extra is missing."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402

from mcp_lint.cli import cli  # noqa: E402
from mcp_lint.findings import Applicability, Edit, Finding, Fix, Location, Related  # noqa: E402
from mcp_lint.server.actions import Snapshot, fix_title, offered  # noqa: E402
from mcp_lint.server.diagnostics import diagnostic, file_uri  # noqa: E402
from mcp_lint.server.documents import Lines, replacement  # noqa: E402
from mcp_lint.server.settings import ClientSettings  # noqa: E402

HELPER = "def load(item_id):\n    try:\n        return fetch(item_id)\n    except OSError as e:\n        raise ToolError(f'failed: {e}')\n"


def finding(**fields) -> Finding:
    values = dict(
        code="MCP002",
        message="Helper 'load' puts the text of a caught OSError into ToolError",
        filename="pkg/helpers.py",
        location=Location(5, 9),
        end_location=Location(5, 40),
        statement_rows=(5, 5),
    )
    values.update(fields)
    return Finding(**values)


def test_a_diagnostic_carries_code_link_severity_and_the_short_message() -> None:
    uri = file_uri("pkg/helpers.py")
    made = diagnostic(finding(), Lines(HELPER), uri, lambda name: None)
    assert made.code == "MCP002" and made.source == "mcp-lint"
    assert made.code_description.href.endswith("/rules/MCP002.md")
    assert made.severity == types.DiagnosticSeverity.Error
    assert made.message == "Helper 'load' puts the text of a caught OSError into ToolError"
    assert made.range == types.Range(types.Position(4, 8), types.Position(4, 39))
    assert made.related_information is None


def test_related_locations_notes_and_help_become_related_information(tmp_path: Path) -> None:
    tools = "from pkg.helpers import load\n\n@mcp.tool()\ndef get_item(item_id):\n    return load(item_id)\n"
    related = Related("pkg/tools.py", Location(5, 12), Location(5, 25), "tool 'get_item' reaches it here")
    flagged = finding(related=(related,), notes=("mcp 1.x sends ToolError's text to the model",), help="Log the exception")
    uri = file_uri("pkg/helpers.py")
    made = diagnostic(flagged, Lines(HELPER), uri, lambda name: Lines(tools) if name == "pkg/tools.py" else None)
    info = [(r.location.uri, r.location.range.start.line, r.location.range.start.character, r.message) for r in made.related_information]
    assert info == [
        (uri, 4, 8, "mcp 1.x sends ToolError's text to the model"),
        (uri, 4, 8, "help: Log the exception"),
        (file_uri("pkg/tools.py"), 4, 11, "tool 'get_item' reaches it here"),
    ]


def test_a_related_location_in_a_file_that_cannot_be_read_is_left_out() -> None:
    related = Related("pkg/gone.py", Location(1, 1), Location(1, 2), "gone")
    made = diagnostic(finding(related=(related,)), Lines(HELPER), file_uri("pkg/helpers.py"), lambda name: None)
    assert made.related_information is None


def test_a_minor_rule_is_a_warning() -> None:
    made = diagnostic(finding(code="MCP003"), Lines(HELPER), file_uri("pkg/helpers.py"), lambda name: None)
    assert made.severity == types.DiagnosticSeverity.Warning


def test_fix_titles_use_help_and_say_unsafe() -> None:
    edit = (Edit(Location(5, 9), Location(5, 40), "raise ToolError('Could not load the item') from e"),)
    unsafe = finding(fix=Fix(Applicability.UNSAFE, "Raise a curated message", edit), help="Log it and raise a message you wrote")
    assert fix_title(unsafe) == "Log it and raise a message you wrote (MCP002, unsafe fix: check the behaviour)"
    safe = finding(code="MCP007", fix=Fix(Applicability.SAFE, "Pass mask_error_details=True", edit))
    assert fix_title(safe) == "Pass mask_error_details=True (MCP007)"


def test_actions_are_offered_for_the_findings_under_the_cursor_only() -> None:
    edit = (Edit(Location(5, 9), Location(5, 40), "raise ToolError('Could not load the item') from e"),)
    flagged = finding(fix=Fix(Applicability.SAFE, "Raise a curated message", edit))
    other = finding(code="MCP005", location=Location(3, 9), end_location=Location(3, 30), statement_rows=(3, 3))
    snapshot = Snapshot("file:///x.py", Path("x.py"), HELPER, 1, [flagged, other])
    titles = [a.title for a in offered(snapshot, Location(5, 12), Location(5, 12), None)]
    assert titles == [
        "Raise a curated message (MCP002)",
        "Suppress MCP002 on this line (# noqa: MCP002)",
        "Apply every safe mcp-lint fix in the file",
    ]
    only_fix_all = offered(snapshot, Location(5, 12), Location(5, 12), ["source.fixAll"])
    assert [a.kind for a in only_fix_all] == ["source.fixAll.mcp-lint"]
    assert offered(snapshot, Location(1, 1), Location(1, 1), ["quickfix"]) == []


def test_positions_count_utf16_code_units_and_rows_as_the_tokenizer_does() -> None:
    text = 'x = "😋"; y = 1\n# a form feed \f stays inside its line\nz = 2\n'
    lines = Lines(text, types.PositionEncodingKind.Utf16)
    assert lines.position(Location(1, 10)) == types.Position(0, 10)  # after the emoji: 2 units
    assert lines.location(types.Position(0, 10)) == Location(1, 10)
    assert lines.position(Location(3, 1)) == types.Position(2, 0)  # the form feed split nothing
    edit = replacement(text, text.replace("y = 1", "y = 2"), types.PositionEncodingKind.Utf16)
    assert edit.range == types.Range(types.Position(0, 14), types.Position(0, 15)) and edit.new_text == "2"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"select": ["mcp0"], "ignore": "MCP003, MCP005", "target": "fastmcp>=3"}, ClientSettings(("MCP0",), ("MCP003", "MCP005"), "fastmcp>=3")),
        ({"mcp-lint": {"ignore": ["MCP005"]}}, ClientSettings(None, ("MCP005",), None)),
        ({"settings": {"target": "mcp>=1.9"}}, ClientSettings(None, None, "mcp>=1.9")),
        (None, ClientSettings()),
    ],
)
def test_client_settings_are_read_flat_or_nested(value, expected: ClientSettings) -> None:
    assert ClientSettings.from_client(value) == (expected, [])


def test_invalid_client_settings_fall_back_to_the_configuration() -> None:
    settings, problems = ClientSettings.from_client({"select": 3, "target": "fastmcp>=3,<3"})
    assert problems == ["setting 'select' must be a list of rule codes"]
    resolver, errors = settings.resolver()
    assert len(errors) == 1 and "setting 'target'" in errors[0] and "fastmcp>=3,<3" in errors[0]
    assert resolver.for_path(Path("x.py")).target is None


def test_server_without_the_extra_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pygls" else real(name, *a))
    result = CliRunner().invoke(cli, ["server"])
    assert result.exit_code == 2
    assert result.stderr == "mcp-lint: error: `mcp-lint server` needs the language server extra: pip install 'mcp-lint[server]'\n"


def test_an_action_finds_its_finding_again_after_the_document_was_linted_again() -> None:
    from mcp_lint.server.actions import new_text

    fix = Fix(Applicability.SAFE, "Say what failed", (Edit(Location(5, 9), Location(5, 40), "raise ToolError('Could not load the item')"),))
    flagged = finding(fix=fix)
    other = finding(code="MCP005", location=Location(3, 9), end_location=Location(3, 30), statement_rows=(3, 3))
    [action, *_] = offered(Snapshot("file:///x.py", Path("x.py"), HELPER, 1, [other, flagged]), Location(5, 12), Location(5, 12), None)
    relinted = Snapshot("file:///x.py", Path("x.py"), HELPER, 1, [flagged, other])  # another order
    text, problem = new_text(action.data, relinted, lambda text: [])
    assert problem is None and "raise ToolError('Could not load the item')\n" in text
    gone = Snapshot("file:///x.py", Path("x.py"), HELPER, 1, [other])
    assert new_text(action.data, gone, lambda text: []) == (None, "the finding is gone")
