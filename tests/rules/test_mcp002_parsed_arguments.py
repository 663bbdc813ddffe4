"""MCP002: a helper's parse error of a value its callers take from a tool's arguments describes
what the model sent (the model can correct it), as it does in the tool itself; a value from
anywhere else keeps the parser's text foreign."""

from __future__ import annotations

from pathlib import Path

from ._support import check, lint_tree, write_tree

SERVER = """\
import json

from mcp.server.lowlevel import Server

server = Server("garden")
BEDS = {"north": '[3, 4]'}


def _widths(value):
    try:
        return json.loads(value)
    except ValueError as exc:
        raise ValueError(f"widths is not valid JSON: {exc}") from exc  MARK


async def _plant(name, args):
    PLANTED
    return [f"planted {name} in {len(widths)} rows"]


@server.call_tool()
async def call_tool(name, arguments):
    args = arguments or {}
    return await _plant(name, args)
"""


def test_a_helpers_parse_error_of_a_tools_argument_is_not_reported() -> None:
    source = SERVER.replace("MARK", "").replace("PLANTED", 'widths = _widths(args.get("widths"))')
    assert [f for f in check(source) if f.code == "MCP002"] == []


def test_a_helpers_parse_error_of_stored_text_is_reported() -> None:
    # The caller hands the helper text of its own table, not of the tool's arguments.
    source = SERVER.replace("MARK", "# expect: MCP002").replace("PLANTED", 'widths = _widths(BEDS[args.get("bed", "north")])')
    (finding,) = [f for f in check(source) if f.code == "MCP002"]
    assert finding.message == "Helper '_widths' raises ValueError with the text of a caught ValueError"


def test_a_helper_one_caller_feeds_from_stored_text_is_reported() -> None:
    planted = 'widths = _widths(args.get("widths"))\n    default = _widths(BEDS["north"])'
    source = SERVER.replace("MARK", "# expect: MCP002").replace("PLANTED", planted)
    assert [f.location.row for f in check(source) if f.code == "MCP002"] == [13]


MERGING = SERVER.replace(
    "async def _plant(",
    '''def _with_saved(args, saved):
    merged = dict(saved)
    merged.update(args)
    return merged


def _stored(args):
    return STORE.get(args.get("bed"), {})


STORE = {"north": {"widths": "[1]"}}


async def _plant(''',
)


def test_a_parse_of_the_arguments_merged_with_saved_values_is_not_reported() -> None:
    # A project function returns the tool's arguments with stored values merged in: what the
    # helper parses is still what the model sent.
    planted = 'spec = _with_saved(args, BEDS)\n    widths = _widths(spec.get("widths"))'
    source = MERGING.replace("MARK", "").replace("PLANTED", planted)
    assert [f for f in check(source) if f.code == "MCP002"] == []


def test_a_parse_of_the_splatted_merge_inline_is_not_reported() -> None:
    source = SERVER.replace("async def _plant(", 'def _merged(args, saved):\n    return {**saved, **args}\n\n\nasync def _plant(')
    source = source.replace("MARK", "").replace("PLANTED", 'widths = _widths(_merged(args, BEDS).get("widths"))')
    assert [f for f in check(source) if f.code == "MCP002"] == []


def test_a_parse_of_what_a_project_function_looks_up_with_the_arguments_is_reported() -> None:
    # `_stored` reads the arguments only to pick stored data: its value is not the model's input.
    planted = 'spec = _stored(args)\n    widths = _widths(spec.get("widths"))'
    source = MERGING.replace("MARK", "# expect: MCP002").replace("PLANTED", planted)
    (finding,) = [f for f in check(source) if f.code == "MCP002"]
    assert finding.message == "Helper '_widths' raises ValueError with the text of a caught ValueError"
    assert finding.location.row == 13


def test_a_merge_in_another_module_counts_as_the_arguments(tmp_path: Path) -> None:
    parts = {
        "garden/__init__.py": "",
        "garden/specs.py": """\
            def with_saved(args, saved):
                return {**saved, **args}


            def stored(args):
                return SAVED.get(args.get("bed"), {})


            SAVED = {"north": {"widths": "[1]"}}
            """,
    }
    server = SERVER.replace("import json\n", "import json\n\nfrom garden.specs import stored, with_saved\n").replace("MARK", "")
    write_tree(tmp_path, {**parts, "garden/server.py": server.replace("PLANTED", 'widths = _widths(with_saved(args, BEDS).get("widths"))')})
    assert [f for f in lint_tree(tmp_path) if f.code == "MCP002"] == []
    write_tree(tmp_path, {**parts, "garden/server.py": server.replace("PLANTED", 'widths = _widths(stored(args).get("widths"))')})
    assert [(f.code, f.location.row) for f in lint_tree(tmp_path) if f.code == "MCP002"] == [("MCP002", 15)]
