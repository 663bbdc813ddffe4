"""Run a lint over files: read, analyse (in parallel), link, suppress, sort.

The per-file step (`analyze_path`) is a pure function of the file's bytes and name, so it runs in
worker processes and its result can be cached; the project step (`linker.Project`) is cheap.
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Collection, Sequence

from mcp_lint.config import SettingsResolver
from mcp_lint.fileio import SourceError, SourceFile, read_source
from mcp_lint.findings import Finding, Location
from mcp_lint.noqa import is_suppressed

if TYPE_CHECKING:
    from mcp_lint.cache import Cache, FileInput
    from mcp_lint.model.summary import ModuleSummary


@dataclass
class FileOutcome:
    """What the per-file step produced for one path."""

    display: str
    summary: ModuleSummary | None = None
    problem: Finding | None = None  # MCP000: unreadable or unparsable
    internal_error: str | None = None
    source: SourceFile | None = None


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)
    outcomes: list[FileOutcome] = field(default_factory=list)


def display_name(path: Path) -> str:
    text = str(path)
    return text[2:] if text.startswith("./") else text


def unreadable(display: str, reason: str, row: int = 1, column: int = 1) -> Finding:
    return Finding(
        code="MCP000",
        message=reason,
        filename=display,
        location=Location(row, column),
        end_location=Location(row, column),
        statement_rows=(row, row),
    )


def analyze_text(source: SourceFile, path: Path, display: str, codes: frozenset[str] | None = None) -> FileOutcome:
    # A parse allocates hundreds of thousands of nodes that reference counting frees; the cyclic
    # collector would walk them again and again meanwhile (about 6% of an analysis). Paused for
    # the file only (and for the first import of libcst, as costly in the same way): whatever
    # cycles it leaves are collected once it is back on. (Pool workers keep it off: scheduler.py.)
    collecting = gc.isenabled()
    gc.disable()
    try:
        from mcp_lint.analysis import ParseFailure, analyze_source

        result = analyze_source(source.text, path, display, codes)
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


def describe_exception(exc: BaseException) -> str:
    """`ValueError: message`, as a traceback's last line says it."""
    import traceback  # only for internal errors: it imports textwrap and linecache

    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def analyze_path(path_text: str, source: SourceFile | None = None, codes: frozenset[str] | None = None) -> FileOutcome:
    """Worker entry point: analyse one file, reading it unless its `source` is given."""
    path = Path(path_text)
    display = display_name(path)
    if source is None:
        try:
            source = read_source(path)
        except SourceError as exc:
            return FileOutcome(display, problem=unreadable(display, str(exc)))
    return analyze_text(source, path, display, codes)


def analyze_all(
    paths: Sequence[Path],
    jobs: int,
    *,
    cache: Cache | None = None,
    explicit: Collection[Path] | None = None,
    inputs: Sequence[FileInput] | None = None,
    codes: frozenset[str] | None = None,
    reported: Collection[Path] | None = None,
) -> list[FileOutcome]:
    """The per-file step for `paths`, in their order whatever `jobs` is.

    With `explicit=None` every path is analysed. Otherwise the paths in `explicit` (named on the
    command line) always are, the others only when they can change a finding (prefilter.py), and
    the outcomes cover the analysed and the unreadable files only. Files are analysed in `jobs`
    worker processes as soon as more than one is waiting (scheduler.py); `cache` supplies and
    keeps per-file results by content. `inputs` are the files already read by
    cache.read_inputs (read here otherwise).

    `reported` (with `explicit`) are the files whose findings will be shown, when the others are
    there only as their project's context (explicit files): then only the tool modules that may
    import a reported file are started from (prefilter.importers), not every tool module.
    """
    from mcp_lint.cache import read_inputs
    from mcp_lint.prefilter import analyze_reachable
    from mcp_lint.scheduler import Analyzer

    items = list(inputs) if inputs is not None else read_inputs(paths)
    unreadable_files = {
        index: FileOutcome(item.display, problem=unreadable(item.display, item.error))
        for index, item in enumerate(items)
        if item.error is not None
    }
    analyzer = Analyzer(items, jobs, cache, codes, unreadable_files)
    try:
        if explicit is None:
            analyzer.submit(range(len(items)))
            analyzed: dict[int, FileOutcome] = {}
            while analyzer.pending():
                analyzed.update(analyzer.collect())
        else:
            named = {os.path.normcase(os.path.abspath(p)) for p in explicit}
            candidates = _context_candidates(items, reported)
            first = [
                i
                for i, item in enumerate(items)
                if item.error is None
                and (os.path.normcase(os.path.abspath(item.path)) in named or (i in candidates and item.seed))
            ]
            analyzed = analyze_reachable([item.module for item in items], first, analyzer)
    finally:
        analyzer.close()
    analyzed.update(unreadable_files)
    return [analyzed[i] for i in sorted(analyzed)]


def _context_candidates(items: Sequence[FileInput], reported: Collection[Path] | None) -> Collection[int]:
    """The files a tool of which may reach a reported file: all of them, unless only some are
    reported (the others being their project's context)."""
    if reported is None:
        return range(len(items))
    from mcp_lint.prefilter import importers

    shown = {os.path.normcase(os.path.abspath(p)) for p in reported}
    targets = [i for i, item in enumerate(items) if os.path.normcase(os.path.abspath(item.path)) in shown]
    if len(targets) == len(items):
        return range(len(items))
    texts = [item.source.text.encode("utf-8", "surrogatepass") if item.source is not None else b"" for item in items]
    return importers(texts, [item.module for item in items], targets)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class PinSource:
    """Framework pins for a file: `[tool.mcp-lint] target` first, then declared dependencies
    (unless `declared` is off: an in-memory module has no project on disk)."""

    def __init__(self, resolver: SettingsResolver, declared: bool = True) -> None:
        self.resolver = resolver
        self.declared = declared
        self._cache: dict[tuple[str, str], tuple[str, str] | None] = {}

    def __call__(self, path: str, distribution: str) -> tuple[str, str] | None:
        key = (os.path.dirname(path), distribution)  # a cache key only: no Path objects per call
        if key not in self._cache:
            self._cache[key] = self._lookup(Path(path), distribution)
        return self._cache[key]

    def _lookup(self, path: Path, distribution: str) -> tuple[str, str] | None:
        from mcp_lint.project import declared_dependencies, parse_target

        settings = self.resolver.for_path(path)
        if settings.target:
            pin = parse_target(settings.target).get(distribution)
            return (pin.specifier, settings.target_origin) if pin is not None else None
        if not self.declared:
            return None
        pin = declared_dependencies(path).get(distribution)
        if pin is None:
            return None
        return pin.specifier, os.path.relpath(pin.source) if os.path.isabs(pin.source) else pin.source


def link(outcomes: Sequence[FileOutcome], resolver: SettingsResolver, pins: PinSource | None = None) -> tuple[list[Finding], list[str]]:
    """Project step: findings for every outcome, filtered by settings and noqa."""
    from mcp_lint.linker import Project

    summaries = [o.summary for o in outcomes if o.summary is not None]
    project = Project(summaries, pins or PinSource(resolver))
    errors: list[str] = []
    try:
        raw = project.findings()
    except Exception as exc:  # noqa: BLE001
        detail = describe_exception(exc)
        errors.append(f"internal error while linking the project: {detail}")
        raw = []
    raw.extend(o.problem for o in outcomes if o.problem is not None)
    errors.extend(o.internal_error for o in outcomes if o.internal_error)
    by_file = {o.display: o for o in outcomes}
    kept: list[Finding] = []
    used: dict[str, set[tuple[int, str]]] = {}
    for finding in raw:
        outcome = by_file.get(finding.filename)
        settings = resolver.for_path(Path(finding.filename))
        if not settings.is_enabled(finding.code, Path(finding.filename)):
            continue
        summary = outcome.summary if outcome is not None else None
        if summary is not None and finding.code != "MCP000":
            row = is_suppressed(finding.code, finding.statement_rows, summary.noqa, summary.file_noqa, summary.has_file_noqa)
            if row is not None:
                used.setdefault(finding.filename, set()).add((row, finding.code))
                continue
        kept.append(finding)
    kept.extend(_unused_noqa(outcomes, used, resolver))
    kept.sort(key=Finding.sort_key)
    return kept, errors


def _unused_noqa(outcomes: Sequence[FileOutcome], used: dict[str, set[tuple[int, str]]], resolver: SettingsResolver) -> list[Finding]:
    """MCP100: `# noqa: MCPxxx` comments that suppressed nothing (only when selected)."""
    out: list[Finding] = []
    for outcome in outcomes:
        summary = outcome.summary
        if summary is None or outcome.source is None:
            continue
        settings = resolver.for_path(Path(outcome.display))
        if not settings.is_enabled("MCP100", Path(outcome.display)):
            continue
        from mcp_lint.noqa import comment_tokens, unused_noqa_fix

        # Split like the tokenizer (\n, \r\n, \r only) so rows match; a form feed is not a line break.
        lines = outcome.source.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        comment_columns = {tok.start[0]: tok.start[1] for tok in comment_tokens(outcome.source.text)}
        hits = used.get(outcome.display, set())
        for row, codes in sorted(summary.noqa.items()):
            if codes is None:
                continue  # a bare noqa directive may serve other linters
            mcp_codes = sorted(c for c in codes if c.startswith("MCP"))
            unused = [c for c in mcp_codes if (row, c) not in hits]
            if not unused:
                continue
            line = lines[row - 1] if row - 1 < len(lines) else ""
            comment_column = comment_columns.get(row, 0)
            fix = unused_noqa_fix(line, row, comment_column, codes, set(unused))
            column = comment_column + 1
            out.append(
                Finding(
                    code="MCP100",
                    message=f"Unused `noqa` directive for {', '.join(unused)}: nothing on this line is reported for {'it' if len(unused) == 1 else 'them'}",
                    filename=outcome.display,
                    location=Location(row, column),
                    end_location=Location(row, len(line) + 1),
                    fix=fix,
                    context="",
                    statement=line.strip(),
                    statement_rows=(row, row),
                )
            )
    return out


def lint_paths(
    paths: Sequence[Path],
    resolver: SettingsResolver,
    *,
    jobs: int = 1,
) -> LintResult:
    """Analyse and link `paths` without prefilter or cache (the library entry point tests use)."""
    outcomes = analyze_all(paths, jobs)
    findings, errors = link(outcomes, resolver)
    return LintResult(findings, errors, outcomes)


def relint_file(
    outcomes: Sequence[FileOutcome], index: int, text: str, resolver: SettingsResolver, pins: PinSource
) -> tuple[list[Finding], FileOutcome]:
    """Findings of one file after its text changed, linked against the other files' summaries."""
    old = outcomes[index]
    source = SourceFile(text, old.source.encoding if old.source else "utf-8", old.source.newline if old.source else "\n")
    new = analyze_text(source, Path(old.display), old.display)
    replaced = list(outcomes)
    replaced[index] = new
    findings, _ = link(replaced, resolver, pins)
    return [f for f in findings if f.filename == old.display], new


def lint_source(text: str, filename: str = "server.py", *, target: str | None = None, select: Sequence[str] | None = None) -> list[Finding]:
    """Lint one in-memory module (tests, rule examples). Only `target` pins its framework: the
    module is not in the project whose pyproject.toml the working directory happens to hold."""
    overrides: dict[str, object] = {}
    if target:
        # As a project's configuration would set it: messages credit `[tool.mcp-lint] target`.
        overrides["target"] = target
        overrides["target_origin"] = "[tool.mcp-lint] target"
    if select:
        overrides["select"] = list(select)
    resolver = SettingsResolver(isolated=True, overrides=overrides or None)
    source = SourceFile(text, "utf-8", "\n")
    outcome = analyze_text(source, Path(filename), filename)
    findings, errors = link([outcome], resolver, PinSource(resolver, declared=False))
    if errors:
        raise RuntimeError("; ".join(errors))
    return findings
