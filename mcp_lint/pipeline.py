"""The lint pipeline, top to bottom:

    read -> prefilter -> analyse (process pool, per-file cache) -> link -> suppress -> store

`lint_files` is the whole of it, as `mcp-lint check` runs it; the steps are the functions below it,
in that order. The per-file step (per_file.py, analysis.py) is a pure function of a file's text
and name, so it runs in worker processes (scheduler.py) and its result is cached by content
(cache.py: storage and keys only). The prefilter (prefilter.py) picks the files that can change a
finding: the tool modules, then whatever the link step looks for in vain, round after round,
while the pool is still busy with the previous round. The link step (project_links.py) is cheap
and always reruns; suppression (settings, `# noqa`) comes after it, as only then is every finding
known. A run whose files did not change is answered from the cache before anything is read.

Imports of the heavy steps are deferred to the function that needs them: a warm run imports
neither libcst nor the rules, and a one-file run starts no pool.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Collection, Mapping, Sequence

from mcp_lint import fileio
from mcp_lint.cache import RunEntry, run_key, stat_key
from mcp_lint.config import SettingsResolver
from mcp_lint.fileio import SourceError, SourceFile
from mcp_lint.findings import Finding
from mcp_lint.module_names import module_names
from mcp_lint.per_file import FileInput, FileOutcome, analyze_text, describe_exception, display_name, read_inputs, unreadable
from mcp_lint.pins import PinLookup, PinSource, env_reading_of
from mcp_lint.suppression import suppress

if TYPE_CHECKING:
    from mcp_lint.cache import Cache
    from mcp_lint.inventory import ServerTools
    from mcp_lint.model.summary import ModuleSummary
    from mcp_lint.prefilter import NextFiles
    from mcp_lint.project_links import Project
    from mcp_lint.scheduler import Analyzer
    from mcp_lint.server_env import EnvReading, EnvSetting

__all__ = [
    "LintResult",
    "analyze_all",
    "default_jobs",
    "enabled_rules",
    "link",
    "lint_files",
    "lint_paths",
    "lint_source",
    "relint_file",
]


def lint_files(
    paths: Sequence[Path],
    resolver: SettingsResolver,
    pins: PinLookup,
    *,
    jobs: int,
    cache: Cache | None,
    explicit: Collection[Path] | None,
    reuse_findings: bool = True,
    codes: frozenset[str] | None = None,
    reported: Collection[Path] | None = None,
    sources: dict[str, SourceFile] | None = None,
    inventory: list[ServerTools] | None = None,
) -> tuple[list[FileOutcome], list[Finding], list[str]]:
    """Lint `paths`: (outcomes, findings, internal errors); the servers and tools found are added
    to `inventory` when one is given (link()).

    `explicit`: the files named on the command line (always analysed; None: analyse every path,
    no prefilter). `reported`: the files whose findings are shown, when the other paths are only
    their project's context; the findings returned are still those of every file. `sources`:
    texts that replace what is on disk, by absolute path (stdin); such a run skips the key by stat
    signature. `codes`: the rules to run.

    With a cache and `reuse_findings`, an unchanged run returns its stored findings, and outcomes
    that carry only the source of each file with findings: nothing was analysed. Callers that need
    summaries (`--fix`, `--diff`) pass `reuse_findings=False`.
    """
    names = module_names(paths)  # for both keys: a stat-key miss goes on to read the files
    # A stored run, by the files' stat signatures: not even a file is read.
    quick = stat_key(paths, names, resolver, explicit, reported) if cache is not None and not sources else None
    if cache is not None and reuse_findings and quick is not None:
        entry = _reused(cache, quick, resolver)
        if entry is not None:
            if inventory is not None:
                inventory.extend(entry.inventory)
            return _outcomes_to_show(paths, entry), entry.findings, []
    # Read.
    inputs = read_inputs(paths, names, sources)
    # A stored run, by content: the files were touched, not changed.
    key = run_key(inputs, resolver, explicit, reported) if cache is not None else ""
    if cache is not None and reuse_findings:
        entry = _reused(cache, key, resolver)
        if entry is not None:
            if inventory is not None:
                inventory.extend(entry.inventory)
            if quick is not None:
                cache.store_run(quick, entry)  # the next run skips reading
            shown = {finding.filename for finding in entry.findings}
            outcomes = [FileOutcome(i.display, source=i.source) for i in inputs if i.display in shown and i.source]
            return outcomes, entry.findings, []
    # Prefilter and analyse.
    outcomes = analyze_all(paths, jobs, cache=cache, explicit=explicit, inputs=inputs, codes=codes, reported=reported)
    # Link and suppress, recording the pins and project-file settings (`.env`...) the link step
    # asks for: they are part of what the stored findings depend on.
    recording = RecordingPins(pins)
    found: list[ServerTools] = []
    findings, errors = link(outcomes, resolver, recording, found)
    if inventory is not None:
        inventory.extend(found)
    # Store.
    if cache is not None and not errors:
        entry = RunEntry.of(findings, recording.seen, recording.env_seen, recording.env_files, found)
        cache.store_run(key, entry)
        if quick is not None:
            cache.store_run(quick, entry)
    return outcomes, findings, errors


def _reused(cache: Cache, key: str, resolver: SettingsResolver) -> RunEntry | None:
    """The run stored under `key` when the link step would still get the pins and settings it
    used, else None. Re-signed over the files' new stats when they moved but said the same (a
    touched pyproject.toml or .env), it is stored again, so the next run need not read them."""
    stored = cache.load_run(key)
    entry = stored.revalidated(PinSource(resolver)) if stored is not None else None
    if entry is not None and entry is not stored:
        cache.store_run(key, entry)
    return entry


def _outcomes_to_show(paths: Sequence[Path], entry: RunEntry) -> list[FileOutcome]:
    """Outcomes for stored findings: the source of each file with findings (reports show it)."""
    shown = {finding.filename for finding in entry.findings}
    outcomes = []
    for path in paths:
        display = display_name(path)
        if display in shown:
            try:
                outcomes.append(FileOutcome(display, source=fileio.read_source(path)))
            except SourceError:
                pass  # its MCP000 is among the findings; there is no text to show
    return outcomes


# --- prefilter and analyse ---------------------------------------------------------------------


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
    keeps per-file results by content. `inputs` are the files already read (read here otherwise).

    `reported` (with `explicit`) are the files whose findings will be shown, when the others are
    there only as their project's context (explicit files): then only the tool modules that may
    import a reported file are started from (prefilter.importers), not every tool module.
    """
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
            analyzed = _analyse_every_file(analyzer)
        else:
            from mcp_lint.prefilter import NextFiles

            checks = _SyntaxChecks(items, cache, reported, analyzer)
            next_files = NextFiles(items)
            analyzed = _analyse_prefiltered(items, _first_files(items, explicit, reported, next_files), analyzer, checks, next_files)
            analyzed.update(unreadable_files)
            # A file the prefilter left out changes no finding, but one Python cannot parse is
            # still reported (MCP000).
            analyzed.update(checks.outcomes(analyzed))
    finally:
        analyzer.close()
    return [analyzed[i] for i in sorted(analyzed)]


class _SyntaxChecks:
    """MCP000 for the files the prefilter leaves out that do not parse (only those whose findings
    are shown: `reported`): a walk never passes over a broken file. per_file.parse_problem judges,
    in the analyzer's workers; the verdict on a text is cached by its digest.

    The checks start as soon as the link step first asks for no new file while analyses are still
    running (`start`), so the worker the last analyses leave idle does them; a file the link step
    asks for after all is analysed, and its check is not used."""

    def __init__(self, items: Sequence[FileInput], cache: Cache | None, reported: Collection[Path] | None, analyzer: Analyzer) -> None:
        self.items = items
        self.cache = cache
        self.analyzer = analyzer
        self.shown = None if reported is None else {os.path.normcase(os.path.abspath(p)) for p in reported}
        self.stored: dict[int, Finding | None] = {}  # verdicts found in the cache
        self.keys: dict[int, str] = {}  # files to check, with their verdict's cache key
        self.looked: set[int] = set()

    def _unchecked(self, analysed: Collection[int]) -> list[int]:
        """The files outside `analysed` that need a check (verdicts found in the cache are kept)."""
        from mcp_lint.cache import syntax_key

        for index, item in enumerate(self.items):
            if index in self.looked or index in analysed or item.source is None:
                continue
            self.looked.add(index)
            if self.shown is not None and os.path.normcase(os.path.abspath(item.path)) not in self.shown:
                continue
            key = syntax_key(item) if self.cache is not None else ""
            stored = self.cache.load_file(key) if self.cache is not None else None
            if stored is not None:
                self.stored[index] = stored[1]
            else:
                self.keys[index] = key
        return sorted(index for index in self.keys if index not in analysed)

    def start(self, submitted: Collection[int]) -> None:
        self.analyzer.start_parse_checks(self._unchecked(submitted))

    def outcomes(self, analyzed: Collection[int]) -> dict[int, FileOutcome]:
        unchecked = self._unchecked(analyzed)  # first: it reads the verdicts the cache has
        problems = {index: problem for index, problem in self.stored.items() if index not in analyzed}
        for index, problem in self.analyzer.parse_problems(unchecked).items():
            problems[index] = problem
            if self.cache is not None:
                self.cache.store_file(self.keys[index], None, problem)
        return {
            index: FileOutcome(self.items[index].display, problem=problem, source=self.items[index].source)
            for index, problem in sorted(problems.items())
            if problem is not None
        }


def _analyse_every_file(analyzer: Analyzer) -> dict[int, FileOutcome]:
    analyzer.submit(range(len(analyzer.items)))
    analyzed: dict[int, FileOutcome] = {}
    while analyzer.pending():
        analyzed.update(analyzer.collect())
    return analyzed


def _first_files(
    items: Sequence[FileInput], explicit: Collection[Path], reported: Collection[Path] | None, next_files: NextFiles
) -> list[int]:
    """What a prefiltered run starts from: the files named on the command line, and the seeds
    (modules that may register a tool) among those whose tools may reach a reported file."""
    from mcp_lint.prefilter import is_seed

    named = {os.path.normcase(os.path.abspath(p)) for p in explicit}
    candidates = _context_candidates(items, reported, next_files)
    return [
        i
        for i, item in enumerate(items)
        if item.error is None
        and (os.path.normcase(os.path.abspath(item.path)) in named or (i in candidates and is_seed(item.data)))
    ]


def _context_candidates(items: Sequence[FileInput], reported: Collection[Path] | None, next_files: NextFiles) -> Collection[int]:
    """The files a tool of which may reach a reported file: all of them, unless only some are
    reported (the others being their project's context). Read from the import index the run's
    NextFiles keeps (its search for subclasses reads the same one)."""
    if reported is None:
        return range(len(items))
    shown = {os.path.normcase(os.path.abspath(p)) for p in reported}
    targets = [i for i, item in enumerate(items) if os.path.normcase(os.path.abspath(item.path)) in shown]
    if len(targets) == len(items):
        return range(len(items))
    return next_files.import_index().importers(targets)


def _analyse_prefiltered(
    items: Sequence[FileInput], first: list[int], analyzer: Analyzer, checks: _SyntaxChecks, next_files: NextFiles
) -> dict[int, FileOutcome]:
    """Analyse `first`, then the files the link step asks for (prefilter.NextFiles), until it asks
    for nothing new.

    The link step is asked again whenever results came in and a worker is free (scheduler.py), not
    only once a whole round is done, so the next files start while the last ones of the previous
    round are still running.
    """
    done: dict[int, FileOutcome] = {}
    submitted = set(first)
    analyzer.submit(sorted(submitted))
    fresh = False  # results arrived since the link step was last asked
    checks_started = False
    while True:
        for index, outcome in analyzer.collect():
            done[index] = outcome
            fresh = True
        if analyzer.busy():
            continue  # every worker has a job: collect more before asking
        if not fresh or len(submitted) == len(items):
            if analyzer.pending() == 0:
                break
            continue
        fresh = False
        asked = next_files.after(done, submitted)
        if asked:
            submitted |= asked
            analyzer.submit(sorted(asked))
        elif analyzer.pending() == 0:
            break
        elif not checks_started:
            checks.start(submitted)  # likely the last round: the files left out are known
            checks_started = True
    return done


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def enabled_rules(files: Sequence[Path], resolver: SettingsResolver) -> frozenset[str]:
    """The rule codes enabled for at least one file: only those rules are imported and run."""
    from mcp_lint.registry import tree_rules

    tree_rule_codes = [rule.code for rule in tree_rules()]
    codes: set[str] = set()
    seen: set[int] = set()
    for path in files:
        settings = resolver.for_path(path)
        if id(settings) in seen:
            continue
        seen.add(id(settings))
        codes.update(code for code in tree_rule_codes if settings.is_enabled(code))
        if len(codes) == len(tree_rule_codes):
            break
    return frozenset(codes)


# --- link and suppress -------------------------------------------------------------------------


def link(
    outcomes: Sequence[FileOutcome],
    resolver: SettingsResolver,
    pins: PinLookup | None = None,
    inventory: list[ServerTools] | None = None,
) -> tuple[list[Finding], list[str]]:
    """The project step: findings for every outcome, filtered by settings and noqa. The servers
    and tools found (and the modules whose tools were left unchecked) are added to `inventory`
    when one is given."""
    from mcp_lint.linking.unrecognised import unrecognised_servers

    summaries, copies = _without_copies([o.summary for o in outcomes if o.summary is not None])
    lookup = pins or PinSource(resolver)
    errors: list[str] = []
    try:
        raw: list[Finding] = []
        seen: set[tuple[str, str, int, int]] = set()
        for project in _projects(summaries, lookup):
            for finding in project.findings():
                key = (finding.code, finding.filename, finding.location.row, finding.location.column)
                if key not in seen:  # a file reached by tools of two roots: its own root's finding
                    seen.add(key)
                    raw.append(finding)
            if inventory is not None:
                found = project.inventory()
                inventory.extend(found)
                inventory.extend(unrecognised_servers(project, found))  # what the run left unchecked
        # Each path of a file linked under several names (a symlink) is reported, as ruff does.
        raw.extend(replace(f, filename=other) for f in list(raw) for other in copies.get(f.filename, ()))
    except Exception as exc:  # noqa: BLE001
        detail = describe_exception(exc)
        errors.append(f"internal error while linking the project: {detail}")
        raw = []
    raw.extend(o.problem for o in outcomes if o.problem is not None)
    errors.extend(o.internal_error for o in outcomes if o.internal_error)
    return suppress(raw, outcomes, resolver), errors


def _without_copies(summaries: list[ModuleSummary]) -> tuple[list[ModuleSummary], dict[str, list[str]]]:
    """The summaries with one per file reached under several paths (a symlink beside its
    target: one module, one set of functions), and the other paths of each file kept."""
    kept: list[ModuleSummary] = []
    first: dict[tuple[str, str], str] = {}
    copies: dict[str, list[str]] = {}
    for summary in summaries:
        key = (summary.module, os.path.realpath(summary.path))
        if key in first:
            copies.setdefault(first[key], []).append(summary.path)
        else:
            first[key] = summary.path
            kept.append(summary)
    return kept, copies


def _projects(summaries: list[ModuleSummary], pins: PinLookup) -> list[Project]:
    """The projects to link: one for the whole run, unless two import roots (two servers'
    folders, a monorepo's packages) define a module of the same name. Then one per root, holding
    that root's modules and, for what they import from elsewhere, the other roots' modules of
    other names, without their tools (each root's tools are traced in its own project): every
    root is linked as it would be on its own, and the run's findings are their union."""
    from mcp_lint.project_links import Project

    by_root: dict[str, list[ModuleSummary]] = {}
    for summary in summaries:
        by_root.setdefault(_import_root(summary), []).append(summary)
    owners: dict[str, str] = {}
    clash = False
    for root, members in by_root.items():
        for summary in members:
            clash = clash or owners.setdefault(summary.module, root) != root
    if not clash:
        return [Project(summaries, pins)]
    projects = []
    for root, members in by_root.items():
        own = {summary.module for summary in members}
        borrowed = [
            replace(summary, tools=[], pending=[], param_pending=[], rule_records={})
            for other, others in by_root.items()
            if other != root
            for summary in others
            if summary.module not in own
        ]
        projects.append(Project(members + borrowed, pins))
    return projects


def _import_root(summary: ModuleSummary) -> str:
    """The folder a module's dotted name is relative to (`examples/notes/server.py`, module
    `server`: `examples/notes`)."""
    path = os.path.dirname(os.path.abspath(summary.path))
    parts = summary.module.count(".") + 1 if summary.module else 0
    # `a/b/c.py` (b.c) and `a/b/__init__.py` (b) are both relative to `a`.
    for _ in range(parts if os.path.basename(summary.path) == "__init__.py" else parts - 1):
        path = os.path.dirname(path)
    return path


class RecordingPins:
    """A pin lookup remembering what the link step asked and what it got, pins and environment
    settings of project files, with the files those came from (stored with a run's findings,
    which depend on them: cache.RunEntry)."""

    def __init__(self, inner: PinLookup) -> None:
        self.inner = inner
        self.seen: dict[tuple[str, str], tuple[str, str] | None] = {}
        self.env_seen: dict[tuple[str, tuple[str, ...]], EnvSetting | None] = {}
        self.env_files: set[str] = set()

    def __call__(self, path: str, distribution: str) -> tuple[str, str] | None:
        found = self.inner(path, distribution)
        self.seen[(path, distribution)] = found
        return found

    def env_setting(self, path: str, variables: tuple[str, ...]) -> EnvReading:
        reading = env_reading_of(self.inner, path, variables)
        self.env_seen[(path, variables)] = reading.setting
        self.env_files.update(reading.consulted)
        return reading


# --- other entry points --------------------------------------------------------------------------


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)
    outcomes: list[FileOutcome] = field(default_factory=list)


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
    outcomes: Sequence[FileOutcome],
    index: int,
    text: str,
    resolver: SettingsResolver,
    pins: PinLookup,
    neighbours: Collection[int] | None = None,
) -> tuple[list[Finding], FileOutcome]:
    """Findings of one file after its text changed, linked against the other files' summaries:
    those of `neighbours` (the files that can change its findings: prefilter.ImportIndex), or of
    every file. Linking the neighbours only keeps `--fix` linear in the files it fixes."""
    old = outcomes[index]
    source = SourceFile(text, old.source.encoding if old.source else "utf-8", old.source.newline if old.source else "\n")
    new = analyze_text(source, Path(old.display), old.display, copies=old.summary.framework_copies if old.summary else ())
    chosen = range(len(outcomes)) if neighbours is None else sorted(set(neighbours) | {index})
    replaced = [new if i == index else outcomes[i] for i in chosen]
    findings, _ = link(replaced, resolver, pins)
    return [f for f in findings if f.filename == old.display], new


def lint_source(
    text: str,
    filename: str = "server.py",
    *,
    target: str | None = None,
    select: Sequence[str] | None = None,
    env_files: Mapping[str, str] | None = None,
) -> list[Finding]:
    """Lint one in-memory module (tests, rule examples). Only `target` pins its framework: the
    module is not in the project whose pyproject.toml the working directory happens to hold.
    `env_files` (name -> text, `{".env": "FASTMCP_MASK_ERROR_DETAILS=true"}`) are the project files
    that set its server's environment, in place of those on disk."""
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
    findings, errors = link([outcome], resolver, PinSource(resolver, declared=False, env_files=env_files))
    if errors:
        raise RuntimeError("; ".join(errors))
    return findings
