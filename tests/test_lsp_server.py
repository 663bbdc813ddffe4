"""`mcp-lint server`, driven by a real LSP client over stdio (pytest-lsp starts the server as a
subprocess, `python -m mcp_lint server`, and speaks JSON-RPC to it).

The client opens the README's worked example, gets its findings as diagnostics at the flagged
spans, asks for code actions, applies the edits it gets back (as an editor would), sends the
changed text, and sees the finding gone. A change to a helper module changes the diagnostics of
the tool module that calls it. The server exits cleanly after shutdown/exit.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from mcp_lint.server.lsp import FIRST_ANSWER_FILES  # noqa: E402

pytestmark = pytest.mark.asyncio

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SERVER_COMMAND = [sys.executable, "-m", "mcp_lint", "server"]
TIMEOUT = 60  # seconds for a diagnostics notification (a loaded CI machine; usually well under 2)

PYPROJECT = '[project]\nname = "items"\ndependencies = ["mcp>=1.9,<2"]\n'
TOOLS = '''\
import sqlite3

from mcp.server.fastmcp import FastMCP

from pkg.helpers import check_title

mcp = FastMCP("items")
db = sqlite3.connect("items.db")


@mcp.tool()
def rename_item(item_id: int, title: str) -> str:
    """Give an item a new title."""
    db.execute("UPDATE items SET title = ? WHERE id = ?", (title, item_id))
    db.commit()
    check_title(title)
    return "renamed"
'''
HELPERS = '''\
def check_title(title: str) -> None:
    if not title.strip():
        raise ValueError("title must not be empty")
'''
LOADER = '''\
import httpx
from mcp.server.fastmcp.exceptions import ToolError


def load(item_id: str) -> str:
    try:
        return httpx.get(f"https://items.example/{item_id}").text
    except httpx.HTTPError as e:
        raise ToolError(f"could not load {item_id}: {e}")
'''
LOADER_TOOL = '''\
from mcp.server.fastmcp import FastMCP

from pkg.loader import load

mcp = FastMCP("items")


@mcp.tool()
def get_item(item_id: str) -> str:
    """Fetch one item."""
    return load(item_id)
'''


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND))
async def client(lsp_client: LanguageClient):
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        """The server asks to watch files, as an editor would let it."""

    yield
    # A test that ended early (a failure) still stops its server: pytest-lsp waits for it to exit.
    process = lsp_client._server
    if process is not None and process.returncode is None:
        try:
            await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)
        except Exception:  # noqa: BLE001 - a server that does not answer is ended
            pass
    if process is not None and process.returncode is None:
        process.kill()


# --- helpers ------------------------------------------------------------------------------------


async def start(client: LanguageClient, root: Path, capabilities: str = "visual-studio-code", options=None) -> None:
    params = types.InitializeParams(
        capabilities=client_capabilities(capabilities),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        initialization_options=options,
    )
    await client.initialize_session(params)


async def diagnostics_for(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics the server publishes for `uri` at `version` (waiting for them)."""

    async def wait() -> list[types.Diagnostic]:
        while True:
            params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)

    return await asyncio.wait_for(wait(), TIMEOUT)


def open_document(client: LanguageClient, path: Path, version: int = 1) -> str:
    uri = path.as_uri()
    item = types.TextDocumentItem(uri=uri, language_id="python", version=version, text=path.read_text(encoding="utf-8"))
    client.text_document_did_open(types.DidOpenTextDocumentParams(item))
    return uri


def change_document(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def apply_edit(text: str, uri: str, edit: types.WorkspaceEdit) -> str:
    """What an editor does with a workspace edit for one (ASCII) document."""
    if edit.document_changes:
        edits = [e for change in edit.document_changes if change.text_document.uri == uri for e in change.edits]
    else:
        edits = list((edit.changes or {}).get(uri, []))
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        return sum(len(line) for line in lines[: position.line]) + position.character

    for text_edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(text_edit.range.start)] + text_edit.new_text + text[offset(text_edit.range.end) :]
    return text


def spans(diagnostics: list[types.Diagnostic]) -> list[tuple[str, tuple[int, int, int, int]]]:
    return sorted(
        (str(d.code), (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)) for d in diagnostics
    )


async def code_actions(client: LanguageClient, uri: str, diagnostic: types.Diagnostic, only=None) -> list[types.CodeAction]:
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=only),
    )
    found = await client.text_document_code_action_async(params) or []
    resolved = []
    for action in found:
        assert isinstance(action, types.CodeAction)
        if action.edit is None and action.disabled is None:
            action = await client.code_action_resolve_async(action)
        resolved.append(action)
    return resolved


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """The README's worked example (mcp 1.x FastMCP, one defect per tool), in a workspace of its own."""
    root = tmp_path / "notes"
    shutil.copytree(EXAMPLES / "notes_server", root)
    return root


# --- diagnostics ------------------------------------------------------------------------------------


async def test_open_publishes_the_core_findings_at_their_spans(client: LanguageClient, notes: Path) -> None:
    await start(client, notes)
    uri = open_document(client, notes / "server.py")
    diagnostics = await diagnostics_for(client, uri, 1)
    # Rows and columns as `mcp-lint check` reports them (1-based), here 0-based.
    assert spans(diagnostics) == [
        ("MCP001", (21, 8, 21, 91)),  # raise McpError(...) for a missing note
        ("MCP002", (33, 15, 33, 49)),  # the traceback's text
        ("MCP003", (43, 25, 43, 66)),  # "The operation failed. Please try again."
        ("MCP004", (50, 4, 50, 75)),  # the UPDATE before the check
        ("MCP005", (33, 8, 33, 49)),  # return f"Error: ..."
        ("MCP005", (62, 8, 62, 42)),  # return f"Note {note_id} not found"
        ("MCP007", (10, 6, 10, 22)),  # FastMCP("notes")
    ]
    by_code = {str(d.code): d for d in diagnostics}
    assert all(d.source == "mcp-lint" for d in diagnostics)
    assert by_code["MCP001"].code_description.href.endswith("/rules/MCP001.md")
    assert by_code["MCP001"].severity == types.DiagnosticSeverity.Error
    assert by_code["MCP003"].severity == types.DiagnosticSeverity.Warning  # a minor rule
    assert "read_note" in by_code["MCP001"].message


async def test_a_change_is_linted_after_a_pause_and_a_save_too(client: LanguageClient, notes: Path) -> None:
    await start(client, notes)
    uri = open_document(client, notes / "server.py")
    await diagnostics_for(client, uri, 1)
    text = (notes / "server.py").read_text(encoding="utf-8")
    change_document(client, uri, 2, text.replace('raise ValueError("The operation failed. Please try again.")', "return 'kept'"))
    assert "MCP003" not in [str(d.code) for d in await diagnostics_for(client, uri, 2)]
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
    assert "MCP003" not in [str(d.code) for d in await diagnostics_for(client, uri, 2)]


async def test_a_changed_helper_updates_the_tool_module_that_calls_it(client: LanguageClient, tmp_path: Path) -> None:
    for name, text in {"pyproject.toml": PYPROJECT, "pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/helpers.py": HELPERS}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    await start(client, tmp_path)
    tools = open_document(client, tmp_path / "pkg/tools.py")
    assert ("MCP004", (13, 4, 13, 75)) in spans(await diagnostics_for(client, tools, 1))
    helpers = open_document(client, tmp_path / "pkg/helpers.py")
    await diagnostics_for(client, tools, 1)
    # The helper no longer rejects anything: the UPDATE is no longer followed by a rejection.
    change_document(client, helpers, 2, "def check_title(title: str) -> None:\n    print(title)\n")
    assert "MCP004" not in [str(d.code) for d in await diagnostics_for(client, tools, 1)]


async def test_the_diagnostics_are_the_findings_of_check(client: LanguageClient, notes: Path) -> None:
    await start(client, notes)
    uri = open_document(client, notes / "server.py")
    diagnostics = await diagnostics_for(client, uri, 1)
    done = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "check", "--no-cache", "--output-format", "concise", "server.py"],
        cwd=notes, capture_output=True, text=True, check=False,
    )
    checked = []
    for line in done.stdout.splitlines():
        if ": MCP" in line:
            _, row, column, rest = line.split(":", 3)
            checked.append((rest.split()[0], int(row) - 1, int(column) - 1, rest.split(" ", 2)[2]))
    published = [(str(d.code), d.range.start.line, d.range.start.character, d.message) for d in diagnostics]
    assert sorted(published) == sorted(checked)
    assert len(checked) == 7


async def test_the_first_open_of_a_large_project_answers_alone_then_in_the_project(client: LanguageClient, tmp_path: Path) -> None:
    files = {"pyproject.toml": PYPROJECT, "pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/helpers.py": HELPERS}
    files.update({f"pkg/part{n}.py": f"VALUE = {n}\n" for n in range(FIRST_ANSWER_FILES)})
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    answers: list[list[tuple[str, tuple[int, int, int, int]]]] = []
    tools = (tmp_path / "pkg/tools.py").as_uri()

    # Every publication is recorded (waiting for notifications one at a time could miss the
    # second when both arrive together); the client's own handler still runs.
    features = client.protocol.fm.features
    handler = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def published(params: types.PublishDiagnosticsParams):
        if params.uri == tools and params.version == 1:
            answers.append(spans(list(params.diagnostics)))
        return handler(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = published

    await start(client, tmp_path)
    open_document(client, tmp_path / "pkg/tools.py")

    async def two_answers() -> None:
        while len(answers) < 2:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(two_answers(), TIMEOUT)
    # Alone, the module cannot see that check_title rejects the call after the UPDATE; in its
    # project it can.
    assert ("MCP004", (13, 4, 13, 75)) not in answers[0]
    assert answers[1] == sorted([*answers[0], ("MCP004", (13, 4, 13, 75))])
    # Later lints answer once, in the project.
    change_document(client, tools, 2, TOOLS + "\n")
    assert ("MCP004", (13, 4, 13, 75)) in spans(await diagnostics_for(client, tools, 2))
    assert len(answers) == 2


async def test_a_new_file_reported_by_the_file_watcher_joins_the_project(client: LanguageClient, tmp_path: Path) -> None:
    for name, text in {"pyproject.toml": PYPROJECT, "pkg/__init__.py": "", "pkg/loader.py": LOADER}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    await start(client, tmp_path)
    loader = open_document(client, tmp_path / "pkg/loader.py")
    assert await diagnostics_for(client, loader, 1) == []  # no tool reaches it yet
    tools = tmp_path / "pkg/items.py"
    tools.write_text(LOADER_TOOL, encoding="utf-8")  # written by another program, not opened
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams([types.FileEvent(uri=tools.as_uri(), type=types.FileChangeType.Created)])
    )
    diagnostics = await diagnostics_for(client, loader, 1)
    assert spans(diagnostics) == [("MCP002", (8, 14, 8, 57))]  # ToolError(...) with the exception's text
    # The tool that reaches the helper, in the other file, is related information.
    related = [(r.location.uri, r.location.range.start.line, r.message) for r in diagnostics[0].related_information]
    assert [r for r in related if r[0] == tools.as_uri() and r[1] == 8 and "get_item" in r[2]]  # at `def get_item`


# --- code actions -------------------------------------------------------------------------------


@pytest.mark.parametrize("capabilities", ["visual-studio-code", "neovim"])
async def test_the_rules_fix_applied_removes_the_finding(client: LanguageClient, notes: Path, capabilities: str) -> None:
    # VS Code resolves an action's edit lazily (codeAction/resolve); Neovim gets it at once.
    await start(client, notes, capabilities)
    uri = open_document(client, notes / "server.py")
    diagnostics = await diagnostics_for(client, uri, 1)
    delete_note = next(d for d in diagnostics if d.code == "MCP005" and d.range.start.line == 62)
    offered = await code_actions(client, uri, delete_note)
    fix = next(a for a in offered if "noqa" not in a.title)
    assert fix.kind == types.CodeActionKind.QuickFix
    assert "MCP005" in fix.title and "unsafe" in fix.title  # an unsafe fix says so
    text = apply_edit((notes / "server.py").read_text(encoding="utf-8"), uri, fix.edit)
    assert 'raise ToolError(f"Note {note_id} not found")' in text
    change_document(client, uri, 2, text)
    after = await diagnostics_for(client, uri, 2)
    assert not [d for d in after if d.code == "MCP005" and "delete_note" in d.message]
    assert [d for d in after if d.code == "MCP001"]  # the others stay


async def test_the_noqa_action_suppresses_the_finding(client: LanguageClient, notes: Path) -> None:
    await start(client, notes)
    uri = open_document(client, notes / "server.py")
    diagnostics = await diagnostics_for(client, uri, 1)
    mcp003 = next(d for d in diagnostics if d.code == "MCP003")
    noqa = next(a for a in await code_actions(client, uri, mcp003) if "noqa" in a.title)
    text = apply_edit((notes / "server.py").read_text(encoding="utf-8"), uri, noqa.edit)
    assert 'raise ValueError("The operation failed. Please try again.")  # noqa: MCP003\n' in text
    change_document(client, uri, 2, text)
    assert "MCP003" not in [str(d.code) for d in await diagnostics_for(client, uri, 2)]


async def test_fix_all_applies_the_safe_fixes_only(client: LanguageClient, tmp_path: Path) -> None:
    root = tmp_path / "notes"
    shutil.copytree(EXAMPLES / "notes_server_fastmcp", root)
    # fastmcp 4: MCP007 has a safe fix once no plain exception carries a message for the model
    # (masking would hide "title must not be empty": the fix is unsafe beside such a raise).
    server = root / "server.py"
    source = server.read_text(encoding="utf-8")
    source = source.replace("from fastmcp import FastMCP\n", "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError\n")
    server.write_text(source.replace('raise ValueError("title must not be empty")', 'raise ToolError("title must not be empty")'), encoding="utf-8")
    await start(client, root)
    uri = open_document(client, root / "server.py")
    diagnostics = await diagnostics_for(client, uri, 1)
    assert "MCP007" in [str(d.code) for d in diagnostics]
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.mcp-lint"]),
    )
    [action] = await client.text_document_code_action_async(params)
    assert action.kind == "source.fixAll.mcp-lint"
    action = await client.code_action_resolve_async(action)
    text = apply_edit((root / "server.py").read_text(encoding="utf-8"), uri, action.edit)
    assert "mask_error_details=True" in text
    assert 'return f"Note {note_id} not found"' in text  # an unsafe fix is not applied
    change_document(client, uri, 2, text)
    after = [str(d.code) for d in await diagnostics_for(client, uri, 2)]
    assert "MCP007" not in after and "MCP005" in after


# --- configuration ----------------------------------------------------------------------------


async def test_client_settings_and_pyproject_choose_the_rules(client: LanguageClient, notes: Path) -> None:
    with (notes / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[tool.mcp-lint]\nignore = ["MCP003"]\n')
    client.set_configuration({"ignore": ["MCP005"]}, section="mcp-lint")
    await start(client, notes)
    uri = open_document(client, notes / "server.py")
    codes = {str(d.code) for d in await diagnostics_for(client, uri, 1)}
    assert codes == {"MCP001", "MCP002", "MCP004", "MCP007"}


async def test_invalid_client_settings_are_reported_and_ignored(client: LanguageClient, notes: Path) -> None:
    await start(client, notes, options={"select": ["NOPE1"]})
    uri = open_document(client, notes / "server.py")
    assert "MCP001" in {str(d.code) for d in await diagnostics_for(client, uri, 1)}
    assert any("NOPE1" in message.message for message in client.messages)


async def test_a_broken_pyproject_is_reported_and_its_files_are_not_linted(client: LanguageClient, notes: Path) -> None:
    with (notes / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[tool.mcp-lint]\nselect = 3\n')
    await start(client, notes)
    uri = open_document(client, notes / "server.py")
    assert await diagnostics_for(client, uri, 1) == []
    assert [m.message for m in client.messages if "pyproject.toml" in m.message and "select" in m.message]


# --- lifecycle --------------------------------------------------------------------------------------


async def test_shutdown_and_exit_end_the_server_cleanly(client: LanguageClient, notes: Path) -> None:
    await start(client, notes)
    uri = open_document(client, notes / "server.py")
    await diagnostics_for(client, uri, 1)
    await client.shutdown_session()
    assert client._server is not None and client._server.returncode == 0


async def test_tools_left_unchecked_are_said_once_not_passed_silently(client: LanguageClient, tmp_path: Path) -> None:
    # A server class re-exported by a library the project's requirements do not let mcp-lint take
    # for the framework's: no diagnostics, so the editor must say its tools were not checked.
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    side = root / "pkg" / "side.py"
    side.write_text(
        "from widgetkit.fastmcp import FastMCP\n\nside = FastMCP('side')\n\n\n@side.tool()\ndef lookup(key: str) -> str:\n    return key\n",
        encoding="utf-8",
    )
    await start(client, root)
    uri = open_document(client, side)
    assert await diagnostics_for(client, uri, 1) == []
    change_document(client, uri, 2, side.read_text(encoding="utf-8") + "\n")
    assert await diagnostics_for(client, uri, 2) == []
    said = [m.message for m in client.messages if "not checked" in m.message]
    assert said == [
        "mcp-lint: warning: no MCP server recognised in pkg/side.py (1 tool not checked: lookup): FastMCP comes from "
        "widgetkit.fastmcp, which mcp-lint cannot resolve; it takes that class for the framework's only when the project's "
        "requirements name fastmcp or mcp, and none was found (pyproject.toml, setup.py, setup.cfg, requirements files, "
        "PKG-INFO or METADATA)"
    ]
    assert [m.type for m in client.messages if "not checked" in m.message] == [types.MessageType.Warning]


async def test_a_server_with_no_tool_is_said_as_check_says_it(client: LanguageClient, tmp_path: Path) -> None:
    # Tools loaded by a loop the link step does not read: the server is found with no tool,
    # so its tools were not checked (as `mcp-lint check` warns, linking/unrecognised.empty_servers).
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\ndependencies = ['fastmcp>=2.10']\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    server = root / "pkg" / "server.py"
    server.write_text(
        "import importlib\n\nfrom fastmcp import FastMCP\n\nmcp = FastMCP('records')\n\n\n"
        "def load(names: list[str]) -> None:\n    for name in names:\n        module = importlib.import_module(name)\n"
        "        for attr in dir(module):\n            mcp.add_tool(module.__dict__[attr])\n",
        encoding="utf-8",
    )
    await start(client, root)
    uri = open_document(client, server)
    assert await diagnostics_for(client, uri, 1) == []
    said = [m.message for m in client.messages if "none of its tools was checked" in m.message]
    assert len(said) == 1 and said[0].startswith("mcp-lint: warning: server pkg.server.mcp (")
    assert [m.type for m in client.messages if "none of its tools was checked" in m.message] == [types.MessageType.Warning]
