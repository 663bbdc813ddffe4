"""A copy of a framework inside the project (issue 22) is recognised by what it defines, whatever
its folders are called; a fix on a server built from the copy imports ToolError from the copy.
The copies here are made up: a few lines standing in for a framework's modules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp_lint.cli import cli

SERVER_CLASS = '''\
from typing import Generic, TypeVar

T = TypeVar("T")


class FastMCP(Generic[T]):
    def __init__(self, name: str) -> None:
        self.name = name

    def tool(self, fn=None):
        return fn
'''
TOOL_ERROR = "class ToolError(Exception):\n    pass\n"

TOOLS = '''\
NOTES: dict[str, str] = {}


@mcp.tool()
def read_note(note_id: str) -> str:
    if note_id not in NOTES:
        return f"Error: note {note_id} not found"
    return NOTES[note_id]
'''


def make(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def check(*args: str):
    return CliRunner().invoke(cli, ["check", "-n", *args], catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    make(tmp_path, {"pyproject.toml": "[project]\nname = 'app'\n", "app/__init__.py": ""})
    monkeypatch.chdir(tmp_path)
    return tmp_path


# (the copy's files, the import the server writes, the framework the copy is of)
RENAMED_FASTMCP = (
    {"app/_vendor/__init__.py": "", "app/_vendor/fmcp/__init__.py": "", "app/_vendor/fmcp/server/__init__.py": "",
     "app/_vendor/fmcp/server/server.py": SERVER_CLASS, "app/_vendor/fmcp/exceptions.py": TOOL_ERROR},
    "from app._vendor.fmcp.server.server import FastMCP",
    "app._vendor.fmcp.exceptions",
)
FLAT_FASTMCP = (
    {"app/_vendor/__init__.py": "", "app/_vendor/fastmcp/__init__.py": "from .server import FastMCP\n",
     "app/_vendor/fastmcp/server.py": SERVER_CLASS, "app/_vendor/fastmcp/exceptions.py": TOOL_ERROR},
    "from app._vendor.fastmcp import FastMCP",
    "app._vendor.fastmcp.exceptions",
)
RENAMED_MCP = (
    {"app/third_party/__init__.py": "", "app/third_party/sdk/__init__.py": "", "app/third_party/sdk/server/__init__.py": "",
     "app/third_party/sdk/server/fastmcp/__init__.py": "from .server import FastMCP\n",
     "app/third_party/sdk/server/fastmcp/server.py": SERVER_CLASS,
     "app/third_party/sdk/server/fastmcp/exceptions.py": TOOL_ERROR},
    "from app.third_party.sdk.server.fastmcp import FastMCP",
    "app.third_party.sdk.server.fastmcp.exceptions",
)


@pytest.mark.parametrize("copy, import_line, tool_error_module", [RENAMED_FASTMCP, FLAT_FASTMCP, RENAMED_MCP], ids=["renamed-fastmcp", "flat-fastmcp", "renamed-mcp"])
def test_a_server_on_a_copy_is_checked_and_its_fix_imports_from_the_copy(
    project: Path, copy: dict[str, str], import_line: str, tool_error_module: str
) -> None:
    make(project, {**copy, "app/server.py": f"{import_line}\n\nmcp = FastMCP('notes')\n\n\n" + TOOLS})
    found = check("--output-format", "concise", ".")
    assert found.exit_code == 1, found.output
    assert "app/server.py:12:9: MCP005 Tool 'read_note' returns a failure string as a normal result" in found.stdout
    verbose = check("-v", "--output-format", "concise", ".")
    assert "read_note" in verbose.stderr
    fixed = check("--fix", "--unsafe-fixes", ".")
    assert "1 fixed" in fixed.stdout, fixed.output
    text = (project / "app" / "server.py").read_text()
    assert f"from {tool_error_module} import ToolError\n" in text
    assert 'raise ToolError(f"Note {note_id} not found")' in text
    assert "from fastmcp" not in text and "from mcp." not in text


def test_a_copy_imported_as_a_module_is_the_framework_too(project: Path) -> None:
    files, _, _ = RENAMED_MCP
    make(project, {**files, "app/server.py": "import app.third_party.sdk.server.fastmcp as fm\n\nmcp = fm.FastMCP('notes')\n\n\n" + TOOLS})
    finding = json.loads(check("--output-format", "json", ".").stdout)[0]
    assert (finding["code"], finding["location"]["row"]) == ("MCP005", 12)
    # The copy is of mcp (its FastMCP sits at mcp's place): the wire claim is mcp's FastMCP's.
    assert any(note.startswith("on mcp") and "FastMCP" in note for note in finding["notes"]), finding["notes"]
    check("--fix", "--unsafe-fixes", ".")
    assert 'raise fm.exceptions.ToolError(f"Note {note_id} not found")' in (project / "app" / "server.py").read_text()


def test_folders_named_like_a_framework_are_no_copy_without_its_definitions(project: Path) -> None:
    # `vendor/mcp/server/fastmcp` by name, but what it defines is a factory function, not the
    # framework's server class: the server is not taken for a FastMCP one.
    make(
        project,
        {
            "app/vendor/__init__.py": "",
            "app/vendor/mcp/__init__.py": "",
            "app/vendor/mcp/server/__init__.py": "",
            "app/vendor/mcp/server/fastmcp/__init__.py": "def FastMCP(name):\n    return object()\n",
            "app/vendor/mcp/server/fastmcp/exceptions.py": TOOL_ERROR,
            "app/server.py": "from app.vendor.mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('notes')\n\n\n" + TOOLS,
        },
    )
    result = check("--output-format", "concise", ".")
    assert "MCP005" not in result.stdout
    assert "no MCP server or tool was found" in result.stderr


def test_a_projects_own_subclass_of_the_server_class_is_no_copy(project: Path) -> None:
    # The project's `FastMCP` extends the real one: names under `app` stay the project's.
    make(
        project,
        {
            "app/base.py": "from mcp.server.fastmcp import FastMCP as Base\n\n\nclass FastMCP(Base):\n    def tool(self, *a, **k):\n        return super().tool(*a, **k)\n",
            "app/exceptions.py": TOOL_ERROR,
            "app/server.py": "from mcp.server.fastmcp import FastMCP\n\nfrom app.exceptions import ToolError\n\nmcp = FastMCP('notes')\n" + TOOLS,
        },
    )
    result = check("--output-format", "json", ".")
    findings = json.loads(result.stdout)
    assert [(f["code"], f["filename"].endswith("app/server.py")) for f in findings] == [("MCP005", True)]
    # The project's own ToolError is not the framework's: the fix imports the framework's.
    edits = "".join(edit["content"] for edit in (findings[0]["fix"] or {"edits": []})["edits"])
    assert "app.exceptions" not in edits
