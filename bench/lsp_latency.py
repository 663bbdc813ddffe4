"""How long `mcp-lint server` takes to publish diagnostics after an edit, on the largest package of
a corpus (a script to run by hand, not a test: timings depend on the machine and its load).

    python bench/lsp_latency.py                           # the corpus at /work/corpus/src
    python bench/lsp_latency.py --corpus DIR --edits 7

The package with the most lines of Python is copied to a temporary directory (the server writes
its cache there) and opened as the editor's workspace. Measured, each after a warm-up edit (the
project's analyses in the server's memory):

* a tool module: the largest module that registers tools, and a typical one (closest to 10 kB);
* a helper many tools reach: the module with the most findings that registers no tool itself
  (bench/run.py's "changed helper"), with how many modules import it (prefilter.importers).

The copy is checked once with `mcp-lint check` first (to pick the helper), which fills the cache
the server starts from, as a project that was checked before is (with `--cold`, the check writes no
cache: the server's first open analyses every file it needs). The first open of a large project
is answered twice (lsp.FIRST_ANSWER_FILES): the file linted alone, then in its project; both times
are printed, with the server's CPU time until the second.

Each edit appends a line to the open document (`didChange`) and saves it (`didSave`, which lints
at once; a change alone waits for a pause in typing, lsp.DEBOUNCE seconds, before that); the time
is from the change to the `publishDiagnostics` for the new version, and the CPU time the server
spent meanwhile (steadier than the wall time on a shared machine). The load average is printed
with the numbers: on a busy machine it changes the wall times several-fold.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mcp_lint.module_names import module_names  # noqa: E402
from mcp_lint.prefilter import importers, is_seed  # noqa: E402
from mcp_lint.server.lsp import FIRST_ANSWER_FILES  # noqa: E402


def python_lines(directory: Path) -> int:
    return sum(len(path.read_bytes().splitlines()) for path in directory.rglob("*.py"))


def largest_package(corpus: Path) -> Path:
    packages = [path for path in corpus.iterdir() if path.is_dir()]
    return max(packages, key=python_lines)


def project_files(root: Path) -> int:
    """How many files the server's project of `root` has (discovered as the server does)."""
    from mcp_lint.live import LiveProject
    from mcp_lint.server.settings import ClientSettings

    resolver, _ = ClientSettings().resolver()
    return len(LiveProject(root, resolver).files())


def pick_files(root: Path, fill_cache: bool = True) -> dict[str, Path]:
    """The files to edit, {label: path relative to `root`}, chosen as bench/run.py chooses them:
    the largest module registering tools with a decorator (`@mcp.tool()`) and the one closest
    to 10 kB (a typical one), and the helper with the most findings that registers no tool itself (its findings
    exist only through the tools of other modules). Runs `mcp-lint check` on `root`, which also
    fills the cache the server starts from (unless not `fill_cache`: a cold start)."""
    import subprocess

    findings = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "check", "--output-format", "concise", "--exit-zero", *([] if fill_cache else ["--no-cache"]), "."],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout
    counts: dict[str, int] = {}
    for line in findings.splitlines():
        if ": MCP" in line:
            name = line.split(":", 1)[0]
            counts[name] = counts.get(name, 0) + 1
    files = sorted(root.rglob("*.py"))
    texts = {path: path.read_bytes() for path in files}
    decorators = re.compile(rb"^[ \t]*@[\w.]+\.tool\b", re.MULTILINE)  # `@mcp.tool()`, `@server.tool`
    tool_modules = [path for path in files if decorators.search(texts[path])]
    largest = max(tool_modules, key=lambda path: len(texts[path]))
    typical = min(tool_modules, key=lambda path: abs(len(texts[path]) - 10_000))
    helpers = [path for path in files if not is_seed(texts[path])]
    helper = max(helpers, key=lambda path: (counts.get(str(path.relative_to(root)), 0), len(texts[path])))
    names = module_names(files)
    reach = len(importers([texts[path] for path in files], names, [files.index(helper)])) - 1
    return {
        "tool module (the largest)": largest.relative_to(root),
        "tool module (the one closest to 10 kB)": typical.relative_to(root),
        f"helper imported by {reach} modules": helper.relative_to(root),
    }


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Bench:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.client = LanguageClient("lsp-latency", "1")
        # The publications awaited for a (uri, version), in the order they come.
        self.waiting: dict[tuple[str, int], list[asyncio.Future]] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            futures = self.waiting.get((params.uri, params.version), [])
            if futures:
                future = futures.pop(0)
                if not future.done():
                    future.set_result(len(params.diagnostics))

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def message(params: types.ShowMessageParams) -> None:
            print(f"server: {params.message}", file=sys.stderr)

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def log(params: types.LogMessageParams) -> None:
            print(f"server log: {params.message}", file=sys.stderr)

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "mcp_lint", "server", cwd=str(self.root))
        folder = types.WorkspaceFolder(uri=self.root.as_uri(), name=self.root.name)
        await self.client.initialize_async(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=self.root.as_uri(), workspace_folders=[folder])
        )
        self.client.initialized(types.InitializedParams())

    def expect(self, uri: str, version: int, answers: int = 1) -> list[asyncio.Future]:
        futures = [asyncio.get_running_loop().create_future() for _ in range(answers)]
        self.waiting[(uri, version)] = list(futures)
        return futures

    async def open(self, path: Path, answers: int) -> tuple[str, str, list[float], int]:
        """Open `path`: (uri, text, seconds to each of the `answers` publications, diagnostics
        in the last). The first open of a large project is answered twice: the file linted alone
        at once, then in its project (lsp.FIRST_ANSWER_FILES)."""
        uri = path.as_uri()
        text = path.read_text(encoding="utf-8")
        futures = self.expect(uri, 1, answers)
        started = time.perf_counter()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "python", 1, text)))
        times = []
        for future in futures:
            count = await future
            times.append(time.perf_counter() - started)
        return uri, text, times, count

    async def edit(self, uri: str, text: str, version: int) -> tuple[float, float, int]:
        """(wall seconds, server CPU seconds, diagnostics) from a change to its diagnostics."""
        [future] = self.expect(uri, version)
        pid = self.client._server.pid
        cpu = cpu_seconds(pid)
        started = time.perf_counter()
        document = types.VersionedTextDocumentIdentifier(uri=uri, version=version)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(document, [types.TextDocumentContentChangeWholeDocument(text=text)])
        )
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
        count = await future
        return time.perf_counter() - started, cpu_seconds(pid) - cpu, count

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


async def measure(package: Path, edits: int, cold: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="mcp-lint-lsp-") as temporary:
        root = Path(temporary) / package.name
        shutil.copytree(package, root)
        files = pick_files(root, fill_cache=not cold)
        bench = Bench(root)
        await bench.start()
        first_open = project_files(root) >= FIRST_ANSWER_FILES
        try:
            for label, relative in files.items():
                lines = len((root / relative).read_text(encoding="utf-8").splitlines())
                answers = 2 if first_open else 1
                first_open = False
                cpu = cpu_seconds(bench.client._server.pid)
                uri, text, times, count = await bench.open(root / relative, answers)
                opened = " then ".join(f"{t:.2f}" for t in times) + f" s ({cpu_seconds(bench.client._server.pid) - cpu:.2f} s CPU)"
                version = 1
                walls, cpus = [], []
                for n in range(edits + 1):  # the first edit warms up
                    version += 1
                    text += f"\n# edit {n}\n"
                    wall, cpu, count = await bench.edit(uri, text, version)
                    if n:
                        walls.append(wall)
                        cpus.append(cpu)
                print(
                    f"{label}: {relative} ({lines} lines, {count} diagnostics): open {opened}; after an edit: "
                    f"median {statistics.median(walls):.2f} s, max {max(walls):.2f} s wall; "
                    f"median {statistics.median(cpus):.2f} s CPU of the server ({edits} edits)"
                )
                bench.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
        finally:
            await bench.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/work/corpus/src"), help="unpacked packages, one per directory")
    parser.add_argument("--edits", type=int, default=5, help="timed edits per file")
    parser.add_argument("--cold", action="store_true", help="no cache: the server analyses every file it needs itself")
    args = parser.parse_args()
    package = largest_package(args.corpus)
    print(f"package: {package.name} ({python_lines(package)} lines of Python)")
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    asyncio.run(measure(package, args.edits, args.cold))
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
