"""Tools registered by a loop over the rows of a table of functions: a builder's returned dict,
dicts of categories merged into one, a module-level dict, a table of builders; in one module and
across modules (model/table_rows.py, followed by the linker).

Each registered function carries a marker defect reported only inside a tool (MCP005: a failure
returned as a normal result); a function the loop does not register stays silent.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.model.table_rows import TablePath, decode, encode
from mcp_lint.pipeline import lint_source
from test_cross_module import findings as package_findings

FAIL = '    if x:\n        return "Error: the record could not be saved"\n    return "ok"\n'
FASTMCP = 'from fastmcp import FastMCP\nmcp = FastMCP("x")\n'
AGENT = "from agentkit import Agent\nagent = Agent()\n"


def marked(*names: str, indent: str = "") -> str:
    return "".join(textwrap.indent(f"def {name}(x):\n{FAIL}", indent) for name in names)


def flagged(source: str, code: str = "MCP005") -> list[str]:
    return sorted({f.context for f in lint_source(source, "server.py") if f.code == code})


BUILDER = "def build_tools():\n    return {'save_note': (save_note, 'Save'), 'drop_note': (drop_note, 'Drop')}\n"

LOOPS = {
    "builder-call": BUILDER + "for name, (fn, desc) in build_tools().items():\n    mcp.tool(name=name, description=desc)(fn)\n",
    "builder-local": BUILDER + "def setup():\n    tools = build_tools()\n    for name, (fn, desc) in tools.items():\n        mcp.tool(name=name)(fn)\n",
    "builder-values": BUILDER + "for fn, desc in build_tools().values():\n    mcp.add_tool(fn, description=desc)\n",
    "add-tool-by-name": "def build_tools():\n    return {'save_note': save_note, 'drop_note': drop_note}\n"
    + "for name, fn in build_tools().items():\n    mcp.add_tool(fn, name=name)\n",
    "merged-categories": "def note_tools():\n    return {'save_note': (save_note, 'Save')}\n"
    + "def trash_tools():\n    return {'drop_note': (drop_note, 'Drop')}\n"
    + "def build_tools():\n    return {**note_tools(), **trash_tools()}\n"
    + "for name, (fn, desc) in build_tools().items():\n    mcp.tool(name=name)(fn)\n",
    "updated-categories": "def note_tools():\n    return {'save_note': (save_note, 'Save')}\n"
    + "def trash_tools():\n    return {'drop_note': (drop_note, 'Drop')}\n"
    + "def build_tools():\n    tools = {}\n    tools.update(note_tools())\n    tools.update(trash_tools())\n    return tools\n"
    + "for name, (fn, desc) in build_tools().items():\n    mcp.tool(name=name)(fn)\n",
    "stored-rows": "def build_tools():\n    tools = {}\n    tools['save_note'] = (save_note, 'Save')\n    tools['drop_note'] = (drop_note, 'Drop')\n    return tools\n"
    + "for name, (fn, desc) in build_tools().items():\n    mcp.tool(name=name)(fn)\n",
    "module-dict-of-pairs": "TOOLS = {'save_note': (save_note, 'Save'), 'drop_note': (drop_note, 'Drop')}\n"
    + "for name, (fn, desc) in TOOLS.items():\n    mcp.tool(name=name, description=desc)(fn)\n",
    "module-dict-updated": "TOOLS = {'save_note': (save_note, 'Save')}\nTOOLS.update({'drop_note': (drop_note, 'Drop')})\n"
    + "for name, (fn, desc) in TOOLS.items():\n    mcp.tool(name=name)(fn)\n",
    "builder-returns-a-list": "def build_tools():\n    return [save_note, drop_note]\n" + "for fn in build_tools():\n    mcp.tool()(fn)\n",
    "list-of-functions": "for fn in [save_note, drop_note]:\n    mcp.tool()(fn)\n",
    "builder-defined-later": "def setup():\n    for name, (fn, desc) in build_tools().items():\n        mcp.tool(name=name)(fn)\n" + BUILDER,
}


@pytest.mark.parametrize("loop", LOOPS.values(), ids=LOOPS.keys())
def test_functions_of_a_table_registered_in_a_loop_are_tools(loop: str) -> None:
    source = FASTMCP + marked("save_note", "drop_note", "export_note") + loop
    assert flagged(source) == ["drop_note", "save_note"]


@pytest.mark.parametrize("loop", LOOPS.values(), ids=LOOPS.keys())
def test_the_same_loops_on_a_non_server_register_nothing(loop: str) -> None:
    source = AGENT + marked("save_note", "drop_note", "export_note") + loop.replace("mcp.", "agent.")
    assert flagged(source) == []


def test_a_table_of_builders_enabled_by_category_from_a_tool() -> None:
    """`_, builder = CATEGORIES[name]; tools = builder()`: the builders' nested functions are tools."""
    source = FASTMCP + marked("export_note")
    source += "def note_tools():\n" + marked("save_note", indent="    ") + "    return {'save_note': (save_note, 'Save')}\n"
    source += "def trash_tools():\n" + marked("drop_note", indent="    ") + "    return {'drop_note': (drop_note, 'Drop')}\n"
    source += "CATEGORIES = {'notes': ('Notes', note_tools), 'trash': ('Trash', trash_tools)}\n"
    source += (
        "@mcp.tool()\ndef enable_category(category: str) -> str:\n"
        "    _, builder = CATEGORIES[category]\n    tools = builder()\n"
        "    for name, (fn, desc) in tools.items():\n        mcp.tool(name=name)(fn)\n    return 'enabled'\n"
    )
    assert flagged(source) == ["drop_note", "save_note"]


def test_a_table_read_only_for_its_descriptions_registers_nothing() -> None:
    source = FASTMCP + marked("save_note", "drop_note") + BUILDER
    source += "@mcp.tool()\ndef list_tools() -> list:\n    return [desc for name, (fn, desc) in build_tools().items()]\n"
    source += "def setup():\n    for name, (fn, desc) in build_tools().items():\n        print(name, desc, fn)\n"
    assert flagged(source) == []


def test_a_table_of_builders_whose_builders_are_never_called_registers_nothing() -> None:
    source = FASTMCP + "def note_tools():\n" + marked("save_note", indent="    ") + "    return {'save_note': (save_note, 'Save')}\n"
    source += "CATEGORIES = {'notes': ('Notes', note_tools)}\n"
    source += "@mcp.tool()\ndef list_categories() -> list:\n    return [desc for name, (desc, builder) in CATEGORIES.items()]\n"
    assert flagged(source) == []


def test_the_row_key_names_the_tool() -> None:
    source = FASTMCP + marked("save_note") + "def build_tools():\n    return {'store_record': (save_note, 'Save')}\n"
    source += "for name, (fn, desc) in build_tools().items():\n    mcp.tool(name=name)(fn)\n"
    messages = [f.message for f in lint_source(source, "server.py") if f.code == "MCP005"]
    assert messages == ["Tool 'store_record' returns a failure string as a normal result"]


def test_builders_in_other_modules_merged_into_one_table(tmp_path: Path) -> None:
    files = {
        "notes.py": "def save_note(x):\n" + FAIL + "def note_tools():\n    return {'save_note': (save_note, 'Save')}\n",
        "trash.py": "def drop_note(x):\n" + FAIL + "def export_note(x):\n" + FAIL + "def trash_tools():\n    return {'drop_note': (drop_note, 'Drop')}\n",
        "catalog.py": "from .notes import note_tools\nfrom .trash import trash_tools\n"
        "def all_tools():\n    tools = dict(**note_tools())\n    tools = {**note_tools()}\n    tools.update(trash_tools())\n    return tools\n",
        "server.py": FASTMCP + "from .catalog import all_tools\n"
        "def main():\n    for name, (fn, desc) in all_tools().items():\n        mcp.tool(name=name)(fn)\n    mcp.run()\n",
    }
    assert package_findings(tmp_path, files) == [("notes.py", "save_note"), ("trash.py", "drop_note")]


def test_an_imported_table_of_pairs(tmp_path: Path) -> None:
    files = {
        "notes.py": "def save_note(x):\n" + FAIL + "def export_note(x):\n" + FAIL + "TOOLS = {'save_note': (save_note, 'Save')}\n",
        "server.py": FASTMCP + "from .notes import TOOLS\nfor name, (fn, desc) in TOOLS.items():\n    mcp.tool(name=name)(fn)\n",
    }
    assert package_findings(tmp_path, files) == [("notes.py", "save_note")]


def test_an_imported_builder_looped_over_on_a_non_server_registers_nothing(tmp_path: Path) -> None:
    files = {
        "notes.py": "def save_note(x):\n" + FAIL + "def note_tools():\n    return {'save_note': (save_note, 'Save')}\n",
        "server.py": AGENT + "from .notes import note_tools\nfor name, (fn, desc) in note_tools().items():\n    agent.tool(name=name)(fn)\n",
    }
    assert package_findings(tmp_path, files) == []


@pytest.mark.parametrize(
    "path",
    [TablePath("pkg.app.TOOLS"), TablePath("pkg.app.build()"), TablePath("pkg.app.setup#tools", (1, 0)), TablePath("pkg.app.Cls.build()", (2,))],
)
def test_a_table_path_reads_back_as_written(path: TablePath) -> None:
    assert decode(encode(path, 1)) == (path, 1)


def test_a_plain_table_name_is_no_path() -> None:
    assert decode("pkg.app.TOOLS") is None
