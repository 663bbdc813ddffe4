"""The language server: open documents are linted in their project as the user types, and their
findings published as diagnostics, with code actions for the fixes.

Lints run one at a time in a worker thread, so the server keeps reading messages meanwhile: an
open or a save lints at once, a change after a pause in typing (`DEBOUNCE`); a change that arrives
during a lint makes another one follow it. Every lint covers all open documents of a project (an
edit to a helper changes the findings of the tool module that calls it), with the texts of the open
documents in place of the files on disk; the project's other files come from disk, their analyses
from memory or the cache (live.LiveProject). The first lint of a large project reads all of that
first (seconds): its documents are published linted alone before, at once (`FIRST_ANSWER_FILES`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from mcp_lint import __version__
from mcp_lint.cache import Cache
from mcp_lint.findings import Finding
from mcp_lint.live import LiveProject
from mcp_lint.server import actions
from mcp_lint.server.diagnostics import diagnostic
from mcp_lint.server.documents import Lines, replacement
from mcp_lint.server.settings import SECTION, ClientSettings

logger = logging.getLogger(__name__)

# Seconds without a change before a changed document is linted again.
DEBOUNCE = 0.3
# A project with at least this many files shows a document's own findings first, linted alone,
# while the first lint reads the project (seconds on a large one, more without a cache); in a
# smaller project the first lint is about as quick, and one answer is shown.
FIRST_ANSWER_FILES = 30
_PYTHON_SUFFIXES = (".py", ".pyi")


def uri_path(uri: str) -> Path | None:
    """The file a `file:` URI names; None for other schemes (an unsaved "untitled:" buffer)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def _spelled(directory: str) -> str:
    """`directory` relative to the working directory when inside it (as `mcp-lint check` run from
    there names files: the cache keys and the messages use those names), else absolute."""
    cwd = os.getcwd()
    if directory == cwd:
        return "."
    if directory.startswith(cwd.rstrip(os.sep) + os.sep):
        return os.path.relpath(directory, cwd)
    return directory


class McpLintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("mcp-lint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.client_settings = ClientSettings()
        self.resolver, _ = self.client_settings.resolver()
        self.projects: dict[str, LiveProject] = {}  # absolute root -> its project
        self.snapshots: dict[str, actions.Snapshot] = {}  # uri -> what its diagnostics were made from
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mcp-lint")
        self.folders: list[str] = []
        self._timer: asyncio.TimerHandle | None = None
        self._linting = False
        self._again = False
        self._shown_errors: set[str] = set()
        self._errors: list[str] = []  # internal errors of the worker, until the loop reports them
        # Tools the worker's lints left unchecked (LiveProject.unchecked), until the loop says so:
        # an editor showing no diagnostics must not read as a pass for them.
        self._unchecked: list[str] = []
        self._shown_unchecked: set[str] = set()
        # Set once the client's settings are known (`initialized`): no lint runs before, so the
        # first diagnostics already follow them.
        self.configured: asyncio.Event | None = None
        self.resolve_support = False
        self.versioned_edits = False

    # -- configuration -----------------------------------------------------------------------
    def configure(self, value: Any) -> None:
        """Take the client's settings (a new resolver for every project: settings act in the link
        step only, so the analyses in memory stay valid)."""
        settings, problems = ClientSettings.from_client(value)
        self.client_settings = settings
        self.reload_configuration()
        for problem in problems:
            self.show_error(f"mcp-lint: {problem}")

    def reload_configuration(self) -> None:
        """Read `[tool.mcp-lint]` again (a pyproject.toml changed) with the client's settings on top."""
        self._shown_errors.clear()  # a configuration that is still broken says so again
        self.resolver, errors = self.client_settings.resolver()
        for error in errors:
            self.show_error(f"mcp-lint: {error}")
        resolver = self.resolver

        def reconfigure() -> None:  # in the worker thread, between two lints
            for project in self.projects.values():
                project.reconfigure(resolver)

        self.worker.submit(reconfigure)

    def show_error(self, message: str) -> None:
        if message in self._shown_errors:
            return
        self._shown_errors.add(message)
        self.window_show_message(types.ShowMessageParams(types.MessageType.Error, message))

    # -- which project a file belongs to ------------------------------------------------------
    def project_for(self, path: Path) -> LiveProject | None:
        """The project whose files are `path`'s context: the nearest directory with a
        pyproject.toml, setup.cfg or .git (as for `mcp-lint check FILE`), else the workspace
        folder holding it; None for a file outside both (linted alone)."""
        from mcp_lint.discovery import project_root

        root = project_root(path)
        if root is None:
            absolute = os.path.abspath(path)
            holding = [f for f in self.folders if absolute.startswith(f.rstrip(os.sep) + os.sep)]
            if not holding:
                return None
            root = Path(_spelled(max(holding, key=len)))
        key = os.path.abspath(root)
        project = self.projects.get(key)
        if project is None:
            project = self.projects[key] = LiveProject(root, self.resolver, cache=self._cache_for(root))
        return project

    def _cache_for(self, root: Path) -> Cache:
        """The cache `mcp-lint check` run in `root` uses: `cache-dir` of its settings."""
        from mcp_lint.cache import Cache

        settings = self.resolver.for_path(root)
        return Cache(Path(os.path.abspath((settings.root or root) / settings.cache_dir)))

    # -- linting ------------------------------------------------------------------------------
    def open_python_documents(self) -> list[tuple[str, Path, str, int | None]]:
        """(uri, path, text, version) of every open Python document with a file path."""
        out = []
        for uri, document in list(self.workspace.text_documents.items()):
            path = uri_path(uri)
            if path is None:
                continue
            if document.language_id != "python" and not path.name.endswith(_PYTHON_SUFFIXES):
                continue
            out.append((uri, path, document.source, document.version))
        return out

    def ready(self) -> asyncio.Event:
        if self.configured is None:
            self.configured = asyncio.Event()
        return self.configured

    def schedule(self, delay: float) -> None:
        """Lint the open documents after `delay` seconds, unless another change comes first."""
        loop = asyncio.get_running_loop()
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_later(delay, lambda: asyncio.ensure_future(self.lint_now()))

    async def lint_now(self) -> None:
        """Lint every open document and publish the diagnostics; one lint at a time."""
        if self._linting:
            self._again = True
            return
        self._linting = True
        try:
            await self.ready().wait()
            while True:
                self._again = False
                documents = self.open_python_documents()
                loop = asyncio.get_running_loop()
                first = await loop.run_in_executor(self.worker, self._lint_alone, documents)
                if first:
                    self._publish([document for document in documents if document[0] in first], first)
                results = await loop.run_in_executor(self.worker, self._lint, documents)
                self._publish(documents, results)
                if not self._again:
                    break
        finally:
            self._linting = False

    def _lint(self, documents: Sequence[tuple[str, Path, str, int | None]]) -> dict[str, list[Finding]]:
        """In the worker thread: the findings of each document (by uri)."""
        from mcp_lint.runner import lint_buffer

        groups: dict[int, tuple[LiveProject, list[tuple[str, Path, str, int | None]]]] = {}
        results: dict[str, list[Finding]] = {}
        for document in documents:
            uri, path, text, _ = document
            try:
                project = self.project_for(path)
                if project is None:
                    results[uri] = lint_buffer(path, text, resolver=self.resolver)
                else:
                    groups.setdefault(id(project), (project, []))[1].append(document)
            except Exception as exc:  # noqa: BLE001 - one file must not stop the server
                self._internal_error(exc)
                results[uri] = []
        for project, members in groups.values():
            buffers = {os.path.abspath(path): text for _, path, text, _ in members}
            try:
                findings = project.lint([path for _, path, _, _ in members], buffers)
            except Exception as exc:  # noqa: BLE001
                self._internal_error(exc)
                findings = []
            self._errors.extend(f"mcp-lint: {message}" for message in project.errors)
            self._unchecked.extend(f"mcp-lint: warning: {line}" for line in project.unchecked)
            by_file: dict[str, list[Finding]] = {}
            for finding in findings:
                by_file.setdefault(os.path.abspath(finding.filename), []).append(finding)
            for uri, path, _, _ in members:
                results[uri] = by_file.get(os.path.abspath(path), [])
        return results

    def _lint_alone(self, documents: Sequence[tuple[str, Path, str, int | None]]) -> dict[str, list[Finding]]:
        """In the worker thread: the findings of the documents of large projects not linted yet,
        each file linted alone (LiveProject.lint_alone), by uri; the project-aware ones follow."""
        results: dict[str, list[Finding]] = {}
        for uri, path, text, _ in documents:
            try:
                project = self.project_for(path)
                if project is None or project.linted or len(project.files()) < FIRST_ANSWER_FILES:
                    continue
                results[uri] = project.lint_alone([path], {os.path.abspath(path): text})
            except Exception as exc:  # noqa: BLE001 - the project-aware lint follows anyway
                self._internal_error(exc)
        return results

    def _internal_error(self, exc: Exception) -> None:
        """In the worker thread: remember the error; the event loop's thread reports it (_publish)."""
        from mcp_lint.per_file import describe_exception

        logger.exception("lint failed")
        self._errors.append(f"mcp-lint: internal error: {describe_exception(exc)}")

    def _publish(self, documents: Sequence[tuple[str, Path, str, int | None]], results: dict[str, list[Finding]]) -> None:
        encoding = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        texts = {os.path.abspath(path): text for _, path, text, _ in documents}
        lines_by_file: dict[str, Lines | None] = {}

        def lines_of(filename: str) -> Lines | None:
            key = os.path.abspath(filename)
            if key not in lines_by_file:
                text = texts.get(key)
                if text is None:
                    try:
                        text = Path(key).read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        text = None
                lines_by_file[key] = Lines(text, encoding) if text is not None else None
            return lines_by_file[key]

        errors, self._errors = self._errors, []
        for message in dict.fromkeys(errors):
            self.window_log_message(types.LogMessageParams(types.MessageType.Error, message))
        unchecked, self._unchecked = self._unchecked, []
        for message in dict.fromkeys(unchecked):
            if message not in self._shown_unchecked:  # once a session, not at every keystroke
                self._shown_unchecked.add(message)
                self.window_show_message(types.ShowMessageParams(types.MessageType.Warning, message))
        # A broken pyproject.toml: the files it governs are not linted (as with `mcp-lint check`),
        # and the user is told why they show nothing.
        for message in getattr(self.resolver, "errors", []):
            self.show_error(f"mcp-lint: error: {message}")
        open_now = set(self.workspace.text_documents)
        for uri, path, text, version in documents:
            if uri not in open_now:
                continue  # closed while it was linted
            findings = results.get(uri, [])
            self.snapshots[uri] = actions.Snapshot(uri, path, text, version, findings)
            lines = Lines(text, encoding)
            diagnostics = [diagnostic(finding, lines, uri, lines_of) for finding in findings]
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, diagnostics, version))

    async def current_snapshot(self, uri: str) -> actions.Snapshot | None:
        """The snapshot of a document's current text, linting it first if it changed since."""
        try:
            document = self.workspace.get_text_document(uri)
        except Exception:  # noqa: BLE001 - not open
            return None
        snapshot = self.snapshots.get(uri)
        if snapshot is None or snapshot.version != document.version or snapshot.text != document.source:
            if self._timer is not None:
                self._timer.cancel()
            await self.lint_now()
            while self._linting:  # a lint that was already running: wait for the one after it
                await asyncio.sleep(0.01)
            snapshot = self.snapshots.get(uri)
        return snapshot

    def edit_for(self, snapshot: actions.Snapshot, text: str) -> types.WorkspaceEdit | None:
        encoding = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        edit = replacement(snapshot.text, text, encoding)
        if edit is None:
            return None
        if self.versioned_edits:
            identifier = types.OptionalVersionedTextDocumentIdentifier(uri=snapshot.uri, version=snapshot.version)
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(identifier, [edit])])
        return types.WorkspaceEdit(changes={snapshot.uri: [edit]})

    def resolve_action(self, action: types.CodeAction, snapshot: actions.Snapshot, open_texts: dict[str, str]) -> types.CodeAction:
        """In the worker thread: `action` with its edit, or disabled with the reason it cannot be
        applied. `open_texts` are the open documents' texts (absolute path -> text)."""
        path = snapshot.path

        def lint(text: str) -> list[Finding]:
            project = self.project_for(path)
            if project is None:
                from mcp_lint.runner import lint_buffer

                return lint_buffer(path, text, resolver=self.resolver)
            found = project.lint([path], {**open_texts, os.path.abspath(path): text})
            return [f for f in found if os.path.abspath(f.filename) == os.path.abspath(path)]

        text, problem = actions.new_text(action.data or {}, snapshot, lint)
        edit = self.edit_for(snapshot, text) if text is not None else None
        if edit is None:
            action.disabled = types.CodeActionDisabled(reason=problem or "nothing to change")
        else:
            action.edit = edit
        return action

    def open_texts(self) -> dict[str, str]:
        return {os.path.abspath(path): text for _, path, text, _ in self.open_python_documents()}


server = McpLintServer()


@server.feature(types.INITIALIZE)
def initialize(ls: McpLintServer, params: types.InitializeParams) -> None:
    folders = [uri_path(folder.uri) for folder in params.workspace_folders or []]
    if not folders and params.root_uri:
        folders = [uri_path(params.root_uri)]
    ls.folders = [os.path.abspath(folder) for folder in folders if folder is not None]
    if ls.folders:
        # As `mcp-lint check` run from the workspace: findings name files relative to it, and the
        # cache is the project's.
        os.chdir(ls.folders[0])
    capabilities = params.capabilities
    text_document = capabilities.text_document
    code_action = text_document.code_action if text_document else None
    resolve = code_action.resolve_support if code_action else None
    ls.resolve_support = bool(resolve and "edit" in resolve.properties)
    workspace_edit = capabilities.workspace.workspace_edit if capabilities.workspace else None
    ls.versioned_edits = bool(workspace_edit and workspace_edit.document_changes)
    if params.initialization_options is not None:
        ls.configure(params.initialization_options)


@server.feature(types.INITIALIZED)
async def initialized(ls: McpLintServer, params: types.InitializedParams) -> None:
    try:
        await pull_configuration(ls)
    finally:
        ls.ready().set()
    capabilities = ls.client_capabilities.workspace
    if capabilities is not None and capabilities.did_change_watched_files and capabilities.did_change_watched_files.dynamic_registration:
        watchers = [types.FileSystemWatcher(glob_pattern=pattern) for pattern in ("**/*.py", "**/pyproject.toml")]
        registration = types.Registration(
            id="mcp-lint-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        try:
            await ls.client_register_capability_async(types.RegistrationParams([registration]))
        except Exception:  # noqa: BLE001 - a client that refuses: saves still refresh the project
            logger.info("the client did not register the file watchers")


async def pull_configuration(ls: McpLintServer) -> None:
    """Ask the client for its `mcp-lint` settings (when it answers `workspace/configuration`)."""
    capabilities = ls.client_capabilities.workspace
    if capabilities is None or not capabilities.configuration:
        return
    try:
        answer = await ls.workspace_configuration_async(types.ConfigurationParams([types.ConfigurationItem(section=SECTION)]))
    except Exception:  # noqa: BLE001 - no configuration from this client
        return
    if answer and answer[0] is not None:
        ls.configure(answer[0])


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: McpLintServer, params: types.DidChangeConfigurationParams) -> None:
    if isinstance(params.settings, dict) and params.settings.get(SECTION) is not None:
        ls.configure(params.settings)
    else:
        await pull_configuration(ls)
    ls.schedule(0)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: McpLintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: McpLintServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.schedule(DEBOUNCE)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: McpLintServer, params: types.DidSaveTextDocumentParams) -> None:
    path = uri_path(params.text_document.uri)
    if path is not None and path.name == "pyproject.toml":
        ls.reload_configuration()
    ls.schedule(0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: McpLintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.snapshots.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))
    ls.schedule(0)  # its saved text is the context of the others again


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: McpLintServer, params: types.DidChangeWatchedFilesParams) -> None:
    created_or_deleted = False
    for change in params.changes:
        path = uri_path(change.uri)
        if path is not None and path.name == "pyproject.toml":
            ls.reload_configuration()
        created_or_deleted |= change.type != types.FileChangeType.Changed
    if created_or_deleted:
        ls.worker.submit(lambda: [project.forget_files() for project in list(ls.projects.values())])
    ls.schedule(0)


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL], resolve_provider=True),
)
async def code_action(ls: McpLintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    snapshot = await ls.current_snapshot(params.text_document.uri)
    if snapshot is None:
        return None
    encoding = ls.workspace.position_encoding or types.PositionEncodingKind.Utf16
    lines = Lines(snapshot.text, encoding)
    start, end = lines.location(params.range.start), lines.location(params.range.end)
    offered = actions.offered(snapshot, start, end, params.context.only)
    if not ls.resolve_support:
        loop = asyncio.get_running_loop()
        texts = ls.open_texts()
        offered = await loop.run_in_executor(ls.worker, lambda: [ls.resolve_action(a, snapshot, texts) for a in offered])
    return offered or None


@server.feature(types.CODE_ACTION_RESOLVE)
async def resolve_code_action(ls: McpLintServer, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    snapshot = await ls.current_snapshot(str(data.get("uri", "")))
    if snapshot is None or snapshot.version != data.get("version"):
        action.disabled = types.CodeActionDisabled(reason="the document changed; ask for the action again")
        return action
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(ls.worker, ls.resolve_action, action, snapshot, ls.open_texts())


@server.feature(types.SHUTDOWN)
def shutdown(ls: McpLintServer, params: Any) -> None:
    if ls._timer is not None:
        ls._timer.cancel()
    ls.worker.shutdown(wait=True, cancel_futures=True)


def run() -> int:
    """Serve over stdin/stdout until the client says exit: 0 after a shutdown request, 1 without."""
    from mcp_lint.model import reparse

    # An edited module is parsed again at every pause in typing: its unchanged statements are reused.
    reparse.enable()
    server.start_io()
    return 0 if getattr(server.protocol, "_shutdown", False) else 1
