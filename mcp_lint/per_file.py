"""The per-file step as a run sees it: a file read once (`FileInput`) and what its analysis gave
(`FileOutcome`: a summary, an MCP000 problem, or an internal error), never an exception.

The step is a pure function of a file's text and name (analysis.analyze_source does the work), so
it runs in worker processes (scheduler.py) and its result is cached by content (cache.py). This
module holds what those places and the pipeline share; it imports neither libcst nor the rules
until a file is really analysed, so a warm run can use its types for free.
"""

from __future__ import annotations

import functools
import gc
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from mcp_lint import fileio, hashing
from mcp_lint.fileio import SourceError, SourceFile
from mcp_lint.findings import Finding, Location
from mcp_lint.module_names import ModuleName, module_names

if TYPE_CHECKING:
    from mcp_lint.framework_copies import FrameworkCopy
    from mcp_lint.model.summary import ModuleSummary

__all__ = [
    "FileInput",
    "FileOutcome",
    "analyze_path",
    "analyze_text",
    "describe_exception",
    "parse_problem",
    "display_name",
    "read_inputs",
    "unreadable",
]

@dataclass
class FileInput:
    """One linted file, read once per run: its text, its digest, its module name."""

    path: Path
    display: str
    module: ModuleName
    source: SourceFile | None = None
    error: str | None = None  # why the file cannot be read (then `source` is None)
    size: int = 0  # characters: what the pool sorts by, largest first

    @functools.cached_property
    def data(self) -> bytes:
        """The text as UTF-8: what the digest and the prefilter's text scans read."""
        return self.source.text.encode("utf-8", "surrogatepass") if self.source is not None else b""

    @functools.cached_property
    def digest(self) -> str:
        """Hash of the text; computed when a cache asks (hashlib alone costs a `--no-cache` start
        several milliseconds)."""
        return hashing.digest(self.data) if self.source is not None else ""


@dataclass
class FileOutcome:
    """What the per-file step produced for one path."""

    display: str
    summary: ModuleSummary | None = None
    problem: Finding | None = None  # MCP000: unreadable or unparsable
    internal_error: str | None = None
    source: SourceFile | None = None


def display_name(path: Path) -> str:
    text = str(path)
    return text[2:] if text.startswith("./") else text


def read_inputs(
    paths: Sequence[Path], names: Sequence[ModuleName] | None = None, sources: dict[str, SourceFile] | None = None
) -> list[FileInput]:
    """Read every file of a run; `names` are their module names when the caller has them;
    `sources` replace the text on disk of some paths (by absolute path: stdin)."""
    inputs = []
    for path, module in zip(paths, names if names is not None else module_names(paths)):
        item = FileInput(path, display_name(path), module)
        try:
            given = sources.get(os.path.abspath(path)) if sources else None
            item.source = given if given is not None else fileio.read_source(path)
        except SourceError as exc:
            item.error = str(exc)
        else:
            item.size = len(item.source.text)
        inputs.append(item)
    return inputs


def unreadable(display: str, reason: str, row: int = 1, column: int = 1) -> Finding:
    return Finding(
        code="MCP000",
        message=reason,
        filename=display,
        location=Location(row, column),
        end_location=Location(row, column),
        statement_rows=(row, row),
    )


# The rule selections whose modules are imported; the collector has frozen the first one's.
_loaded: set[frozenset[str] | None] = set()


def load_analysis(codes: frozenset[str] | None = None) -> None:
    """Import libcst, the model and the rules in `codes`, with the cyclic collector paused; the
    first time in a process, then freeze everything alive.

    Imports make long-lived objects only (libcst's node classes, the rules' tables): tens of
    thousands of them, which each later collection of the run would walk again for nothing (a
    one-file run spent three times as long in those walks as `import libcst` spends collecting).
    Frozen, they are out of the collector's way. Frozen once only: a later selection's rules are
    few, and a process running many selections (the tests) keeps collecting its own garbage.
    """
    if codes in _loaded:
        return
    collecting = gc.isenabled()
    gc.disable()
    try:
        import mcp_lint.analysis  # noqa: F401
        from mcp_lint.rules import all_rules

        all_rules(codes)
    finally:
        if collecting:
            gc.enable()
    if not _loaded:
        gc.freeze()
    _loaded.add(codes)


def analyze_text(
    source: SourceFile,
    path: Path,
    display: str,
    codes: frozenset[str] | None = None,
    copies: tuple[FrameworkCopy, ...] = (),
) -> FileOutcome:
    """Analyse one text (`copies`: the framework copies of the run, framework_copies.py)."""
    # A parse allocates hundreds of thousands of nodes that reference counting frees; the cyclic
    # collector would walk them again and again meanwhile (about 6% of an analysis). Paused for
    # the file only (the first file's imports are frozen: load_analysis): whatever cycles it
    # leaves are collected once it is back on. (Pool workers keep it off: scheduler.py.)
    collecting = gc.isenabled()
    gc.disable()
    try:
        load_analysis(codes)
        from mcp_lint.analysis import ParseFailure, analyze_source
        from mcp_lint.model.walk import forget_walks

        try:
            result = analyze_source(source.text, path, display, codes, copies)
        finally:
            forget_walks()  # the walks' lists hold the file's tree
    except RecursionError:
        return FileOutcome(display, problem=unreadable(display, "file is too deeply nested to analyse"), source=source)
    except Exception as exc:  # noqa: BLE001 - one broken file must not stop the run
        detail = describe_exception(exc)
        return FileOutcome(display, internal_error=f"{display}: internal error: {detail}", source=source)
    finally:
        if collecting:
            gc.enable()
    if isinstance(result, ParseFailure):
        return FileOutcome(display, problem=unreadable(display, result.reason, result.row, result.column), source=source)
    return FileOutcome(display, summary=result, source=source)


def parse_problem(source: SourceFile, path: Path, display: str) -> Finding | None:
    """The MCP000 finding of a file that does not parse, None when it parses: for a file the
    prefilter left out. CPython's parser judges, much cheaper than the analysis; a file it refuses
    goes to the analysis's own parse, which may know newer syntax and words every failure its way."""
    import ast

    try:
        compile(source.text, display, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        return None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    return analyze_text(source, path, display, frozenset()).problem


def describe_exception(exc: BaseException) -> str:
    """`ValueError: message`, as a traceback's last line says it."""
    import traceback  # only for internal errors: it imports textwrap and linecache

    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def analyze_path(
    path_text: str,
    source: SourceFile | None = None,
    codes: frozenset[str] | None = None,
    copies: tuple[FrameworkCopy, ...] = (),
) -> FileOutcome:
    """Worker entry point: analyse one file, reading it unless its `source` is given."""
    path = Path(path_text)
    display = display_name(path)
    if source is None:
        try:
            source = fileio.read_source(path)
        except SourceError as exc:
            return FileOutcome(display, problem=unreadable(display, str(exc)))
    return analyze_text(source, path, display, codes, copies)
