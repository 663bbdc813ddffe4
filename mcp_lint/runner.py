"""`mcp-lint check`: discovery -> analysis -> link -> (fix) -> report -> exit code."""

from __future__ import annotations

import io
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from mcp_lint.findings import Finding

if TYPE_CHECKING:
    from mcp_lint.inventory import ServerTools

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@dataclass
class CheckOptions:
    paths: list[Path]
    select: list[str] | None = None
    ignore: list[str] | None = None
    extend_select: list[str] | None = None
    output_format: str = "full"
    output_file: Path | None = None
    target: str | None = None
    target_origin: str = "--target"  # what set `target`: the option or MCP_LINT_TARGET
    config_file: Path | None = None
    config_values: list[str] = field(default_factory=list)  # `--config KEY=VALUE` overrides
    extend_exclude: list[str] = field(default_factory=list)
    show_settings: bool = False  # print the settings in force for the first path, then exit
    show_files: bool = False  # print the files that would be linted, then exit
    isolated: bool = False
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    show_fixes: bool = False
    exit_non_zero_on_fix: bool = False
    exit_zero: bool = False
    statistics: bool = False
    force_exclude: bool = False
    no_cache: bool = False
    cache_dir: Path | None = None
    jobs: int | None = None
    stdin_filename: str | None = None
    quiet: bool = False
    no_fix: bool = False  # `--no-fix`: do not fix, whatever `fix = true` in the config says
    fix_only: bool = False  # `--fix-only`: apply the fixes, report only how many
    ignore_noqa: bool = False  # suppression comments (noqa) are ignored
    add_noqa: bool = False  # write noqa comments for the findings instead of reporting them
    baseline: Path | None = None  # hide the findings this baseline file accepts
    write_baseline: Path | None = None  # accept every current finding in this baseline file
    verbose: bool = False  # `-v`: say which servers, frameworks, versions and tools were found
    nothing_linted: bool = False  # set by the run: no file was found to lint
    # Set by the run: the number of files linted when no server or tool was found in them.
    nothing_checked: int = 0
    # Set by the run: why each reported module's tool registrations were left unchecked (no
    # server recognised for them: inventory.describe of linking/unrecognised.py's entries).
    unchecked: list[str] = field(default_factory=list)


@dataclass
class FixReport:
    applied: dict[str, list[Finding]] = field(default_factory=dict)
    # Per file, the findings the fixes made go (one fix may mend two findings of a statement):
    # what "N fixed" and "Would fix N" count, so that they add up with `check`'s "Found N".
    fixed: dict[str, int] = field(default_factory=dict)
    diffs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # A dry run that follows every pass of the fix loop in memory (`--diff`, and `check
    # --unsafe-fixes` counting what later passes add): each file's text before the first pass
    # and after the last, and the fixes a later pass applies that the first lint did not offer
    # (an earlier fix made them necessary: masking turned on hides a helper's message, so it
    # raises ToolError now), as (file, rule code).
    originals: dict[str, str] = field(default_factory=dict)
    finals: dict[str, str] = field(default_factory=dict)
    later: list[tuple[str, str]] = field(default_factory=list)
    # Every applied fix by the pass of the loop that applied it (counted over the whole project:
    # a fix another file's fix made necessary is applied in a later pass), as (pass, file, the
    # finding as that pass reported it, whether the listing before fixing offered it).
    passes: list[tuple[int, str, Finding, bool]] = field(default_factory=list)


def _error(message: str) -> None:
    click.echo(f"mcp-lint: error: {message}", err=True)


class TolerantResolver:
    """A SettingsResolver that survives a broken pyproject.toml below the linted paths.

    The files governed by a broken config are not linted (their settings are unknown); the error
    is reported once and the run goes on, ending with exit code 2.
    """

    def __init__(self, inner) -> None:
        self.inner = inner
        self.errors: list[str] = []
        self.broken: set[str] = set()

    def for_path(self, path: Path):
        from mcp_lint.config import ConfigError, Settings

        try:
            return self.inner.for_path(path)
        except ConfigError as exc:
            self._record(path, exc)
            return Settings(exclude=("*",))

    def project_root(self, path: Path):
        from mcp_lint.config import ConfigError

        try:
            return self.inner.project_root(path)
        except ConfigError as exc:
            self._record(path, exc)
            return None

    def is_broken(self, path: Path) -> bool:
        self.for_path(path)
        return os.path.abspath(path) in self.broken or os.path.dirname(os.path.abspath(path)) in self.broken

    def _record(self, path: Path, exc: Exception) -> None:
        self.broken.add(os.path.abspath(path))
        message = str(exc)
        if message not in self.errors:
            self.errors.append(message)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def _build_resolver(options: CheckOptions):
    from mcp_lint.config import ConfigError, SettingsResolver

    overrides: dict[str, object] = {}
    if options.select:
        overrides["select"] = options.select
    if options.ignore:
        overrides["ignore"] = options.ignore
    if options.extend_select:
        overrides["extend_select"] = options.extend_select
    if options.target:
        overrides["target"] = options.target
        overrides["target_origin"] = options.target_origin
    if options.extend_exclude:
        overrides["extend_exclude"] = options.extend_exclude
    try:
        resolver = SettingsResolver(
            isolated=options.isolated,
            config_file=options.config_file,
            overrides=overrides or None,
            config_values=options.config_values,
            ignore_noqa=options.ignore_noqa,
        )
    except ConfigError as exc:
        _error(str(exc))
        return None
    return TolerantResolver(resolver)


def run_check(options: CheckOptions) -> int:
    from mcp_lint.config import ConfigError

    resolver = _build_resolver(options)
    if resolver is None:
        return EXIT_ERROR
    try:
        _fix_from_config(options, resolver)
        if options.show_settings:
            return _show_settings(options, resolver)
        if options.show_files:
            return _show_files(options, resolver)
        if [str(p) for p in options.paths] == ["-"]:
            return _run_stdin(options, resolver)
        return _run_files(options, resolver)
    except ConfigError as exc:
        _error(str(exc))
        return EXIT_ERROR


def _fix_from_config(options: CheckOptions, resolver) -> None:
    """`fix = true` in the configuration of the first path (as `--show-settings` reads it) turns
    on `--fix`, unless the command line says `--no-fix` or asks for something else than a fixing
    run (`--diff` writes nothing, `--add-noqa` and `--write-baseline` do not fix)."""
    if options.fix or options.no_fix or options.diff or options.add_noqa or options.write_baseline is not None:
        return
    first = options.paths[0] if options.paths and str(options.paths[0]) != "-" else Path(".")
    if resolver.for_path(first).fix:
        options.fix = True


def _run_files(options: CheckOptions, resolver) -> int:
    from mcp_lint.discovery import discover
    from mcp_lint.cache import Cache, cache_directory
    from mcp_lint.pins import PinSource
    from mcp_lint.pipeline import default_jobs, enabled_rules, lint_files

    warned: set[str] = set()  # a directory and its project may both be walked: warn once
    reported = discover(options.paths, resolver, force_exclude=options.force_exclude, warned=warned)
    if resolver.errors:  # some pyproject.toml is broken: leave out the files it governs
        reported = [f for f in reported if not resolver.is_broken(f)]
    if not reported and not resolver.errors:
        # Not an error (a hook may run on a commit without Python files), but never a silent pass.
        click.echo("mcp-lint: warning: no Python files found under the given paths", err=True)
        options.nothing_linted = True
    # Files named on the command line are always analysed; a directory walk is prefiltered.
    explicit = [path for path in options.paths if not path.is_dir()]
    files, shown = _with_project_context(reported, explicit, resolver, warned)
    codes = enabled_rules(files, resolver)  # the settings of every file are known from here on
    if options.target:
        _warn_about_target(options.target, options.target_origin, files)
    jobs = options.jobs or default_jobs()
    pins = PinSource(resolver)
    # The stored findings of a run are the suppressed ones: `--ignore-noqa` neither reuses nor
    # replaces them.
    cache = None if options.no_cache or options.ignore_noqa else Cache(cache_directory(resolver, options.cache_dir))
    inventory: list[ServerTools] = []
    outcomes, findings, errors = lint_files(
        files,
        resolver,
        pins,
        jobs=jobs,
        cache=cache,
        # Fixing reads every file of a directory walk: a fix that changes what a function raises
        # or returns is refused where code no tool reaches calls it (a daemon, a script), which
        # the prefilter would leave unread. Listing the unsafe fixes reads them too, so that
        # `check --unsafe-fixes` lists exactly what `--fix --unsafe-fixes` applies.
        explicit=None if (options.fix or options.diff or options.unsafe_fixes) and not explicit else explicit,
        reuse_findings=not (options.fix or options.diff or options.unsafe_fixes),
        codes=codes,
        reported=shown,
        inventory=inventory,
    )
    _say_what_was_checked(options, resolver, reported, inventory, context=files if shown is not None else [])
    if shown is not None:
        findings = _only_in(findings, shown)
    if options.add_noqa:
        return _add_noqa(options, findings, errors, {o.display: o.source for o in outcomes if o.source is not None})
    fix_report = FixReport()
    if options.fix or options.diff:
        findings, fix_report = _apply_fixes(options, resolver, pins, outcomes, findings, shown)
    elif options.unsafe_fixes and options.output_format in {"full", "concise"} and not (options.statistics or options.quiet) and _fixable(findings):
        # What `--fix --unsafe-fixes` would apply beyond the fixes listed: said in the summary.
        _, counted = _apply_fixes(options, resolver, pins, outcomes, findings, shown, count_only=True)
        fix_report = FixReport(later=counted.later, errors=counted.errors)
    sources = {o.display: o.source.text for o in outcomes if o.source is not None}
    if not options.diff:
        for filename in fix_report.applied:  # show remaining findings against the fixed text
            try:
                sources[filename] = Path(filename).read_text(encoding="utf-8", errors="replace")
            except OSError:
                sources.pop(filename, None)
    return _report(options, findings, resolver.errors + errors, fix_report, sources, config_errors=bool(resolver.errors))


def _say_what_was_checked(
    options: CheckOptions, resolver, reported: list[Path], inventory: list[ServerTools], context: list[Path]
) -> None:
    """With `-v`, each server found: its framework, version range and where that comes from, and
    its tools. Without any server or tool the run checked nothing (rules report only in code a
    tool reaches): a warning, and no pass (see _report), unless `require-tools = false`.

    Files named in a project (`context`: the project's files) were checked when the project has
    tool modules, though none of them reaches the named files (only those are analysed)."""
    from mcp_lint.inventory import describe, unchecked_lines
    from mcp_lint.per_file import display_name

    checked = [entry for entry in inventory if not entry.unrecognised]
    if options.verbose:
        for entry in checked:
            click.echo(f"mcp-lint: {describe(entry)}", err=True)
        if not checked:
            click.echo("mcp-lint: no MCP server or tool found", err=True)
    options.unchecked.extend(unchecked_lines(inventory, {display_name(path): path for path in reported}, resolver))
    if checked or not reported or resolver.errors or not resolver.for_path(reported[0]).require_tools:
        return
    # A project's tool modules check the helpers named alone, unless none of their registrations
    # was recognised (then no tool reached anything).
    if context and not any(entry.unrecognised for entry in inventory) and _has_tool_modules(context, reported):
        return
    options.nothing_checked = len(reported)


def _has_tool_modules(files: list[Path], reported: list[Path]) -> bool:
    """Does any of `files` other than `reported` look like a module that registers tools?"""
    from mcp_lint.prefilter import is_seed

    named = {os.path.abspath(path) for path in reported}
    for path in files:
        if os.path.abspath(path) in named:
            continue
        try:
            if is_seed(path.read_bytes()):
                return True
        except OSError:
            continue
    return False


def _warn_skipped(options: CheckOptions, findings: list[Finding]) -> None:
    """The warnings for what the run did not check: every mode (check, --fix, --fix-only,
    --diff, --add-noqa, stdin) says them, and `_skipped` makes its exit code say them too."""
    if findings:
        options.nothing_checked = 0  # something was checked: the findings show it
    if options.nothing_checked:
        _warn_nothing_checked(options.nothing_checked)
    for line in dict.fromkeys(options.unchecked):  # a file reached under two roots: said once
        _warning(line)


def _skipped(options: CheckOptions) -> bool:
    """Was part of the run left unchecked (and not accepted by `--exit-zero`)? Such a run is no
    pass in any mode: exit 2."""
    return bool(options.nothing_checked or options.unchecked) and not options.exit_zero


def _warn_nothing_checked(count: int) -> None:
    files, them = (f"{count} files", "them") if count != 1 else ("1 file", "it")
    _warning(
        f"{files} linted, but no MCP server or tool was found in {them}: nothing was checked (for a server on a "
        "framework mcp-lint does not recognise, or a helper module named alone; `mcp-lint check -v` lists what is "
        "found). Set `require-tools = false` in [tool.mcp-lint] to accept this"
    )


def _warn_about_target(target: str, origin: str, files: list[Path]) -> None:
    """Warnings for a `--target` that parses but cannot mean what was meant: it admits none of
    the framework's releases that mcp-lint knows (a typo like `fastmcp>=30`), or no linted file
    imports that framework (the target then applies to nothing)."""
    import re

    from packaging.requirements import Requirement

    from mcp_lint.model.frameworks import FASTMCP_RELEASES, MCP_RELEASES

    requirement = Requirement(target)  # validated already (config._parse_target)
    module = "mcp" if requirement.name.lower() == "mcp" else "fastmcp"
    releases = MCP_RELEASES if module == "mcp" else FASTMCP_RELEASES
    if str(requirement.specifier) and not any(requirement.specifier.contains(r, prereleases=True) for r in releases):
        majors = sorted({r.split(".")[0] for r in releases})
        _warning(
            f"'{target}' (from {origin}) matches no {module} release mcp-lint knows ({module} "
            f"{', '.join(m + '.x' for m in majors)}); messages assume the behaviour of the known release nearest to it"
        )
    imports = re.compile(rb"^[ \t]*(?:from|import)[ \t]+" + module.encode() + rb"\b", re.MULTILINE)
    for path in files:
        try:
            if imports.search(path.read_bytes()):
                return
        except OSError:
            continue
    _warning(f"'{target}' (from {origin}) names {module}, which no linted file imports: the target changes nothing")


def _warn_unapplied(filename: str, unapplied: list[Finding]) -> None:
    """Say which fixes were left out because they would change nothing (fixing/apply.py); the
    file's other fixes went in, and these findings stay reported."""
    for finding in unapplied:
        _warning(f"{filename}:{finding.location.row}:{finding.location.column}: the {finding.code} fix would change nothing; not applied")


def _warning(message: str) -> None:
    click.echo(f"mcp-lint: warning: {message}", err=True)


def _show_settings(options: CheckOptions, resolver) -> int:
    """`--show-settings`: the settings in force for the first path (as ruff prints them), the
    configuration they come from, and the project the file belongs to."""
    import json

    from mcp_lint.discovery import project_root
    from mcp_lint.registry import RULES

    path = Path(options.stdin_filename) if options.stdin_filename else options.paths[0]
    settings = resolver.for_path(path)
    if resolver.errors:
        return _config_failure(resolver)
    root = project_root(path)
    rows = [
        ("Resolved settings for", str(path)),
        ("Settings path", str(settings.config_path) if settings.config_path else "none (defaults)"),
        ("Project root", str(root) if root is not None else "none (a lone file)"),
    ]
    out = sys.stdout
    for label, value in rows:
        out.write(f"{label}: {json.dumps(value)}\n")
    out.write("\n")
    per_file = {pattern: list(codes) for pattern, codes in settings.per_file_ignores}
    values = [
        ("select", list(settings.select)),
        ("ignore", list(settings.ignore)),
        ("enabled", [r.code for r in RULES if settings.is_enabled(r.code)]),
        ("exclude", list(settings.exclude)),
        ("extend-exclude", list(settings.extend_exclude)),
        ("per-file-ignores", per_file),
        ("target", settings.target),
        ("target-from", settings.target_origin if settings.target else None),
        ("cache-dir", settings.cache_dir),
        ("fix", settings.fix),
        ("fixable", list(settings.fixable)),
        ("unfixable", list(settings.unfixable)),
    ]
    for key, value in values:
        out.write(f"{key} = {json.dumps(value)}\n")
    return EXIT_CLEAN


def _show_files(options: CheckOptions, resolver) -> int:
    """`--show-files`: the files a check of these paths lints (what it reports on), one a line."""
    from mcp_lint.discovery import discover

    files = discover(options.paths, resolver, force_exclude=options.force_exclude)
    if resolver.errors:
        return _config_failure(resolver)
    for path in files:
        sys.stdout.write(f"{path}\n")
    if not files:
        click.echo("mcp-lint: warning: no Python files found under the given paths", err=True)
    return EXIT_CLEAN


def _config_failure(resolver) -> int:
    """A broken configuration with nothing else to report: its one-line error and exit 2, no
    report (see _report)."""
    for message in resolver.errors:
        _error(message)
    return EXIT_ERROR


def _with_project_context(
    reported: list[Path], explicit: list[Path], resolver, warned: set[str] | None = None
) -> tuple[list[Path], list[Path] | None]:
    """The files to analyse for a run reporting on `reported`, and the files whose findings are
    shown (None: all of them).

    A file named on the command line (by pre-commit, an editor, a user) belongs to a project: a
    tool in another module of it may reach a helper in the named file, and only that tool tells
    the link step the helper's failures reach the model. So the project of each named file (the
    nearest directory with a pyproject.toml, setup.cfg or .git) is walked as a directory walk
    would walk it, its files join the run as context, and findings are shown for the reported
    files only. The prefilter keeps this cheap: of the context, only the tool modules that may
    import a reported file and the modules the link step then asks for are analysed.
    """
    from mcp_lint.discovery import discover

    roots: dict[str, Path] = {}
    for path in explicit:
        if str(path) == "-":
            continue
        root = _context_root(path)
        if root is not None:
            roots.setdefault(os.path.abspath(root), root)
    if not roots or not reported:
        return reported, None
    context = discover(list(roots.values()), resolver, warned=warned)
    if resolver.errors:
        context = [f for f in context if not resolver.is_broken(f)]
    files: dict[str, Path] = {os.path.normcase(os.path.abspath(p)): p for p in reported}
    added = False
    for path in context:
        key = os.path.normcase(os.path.abspath(path))
        if key not in files:
            files[key] = path
            added = True
    if not added:
        return reported, None
    return sorted(files.values(), key=lambda path: path.parts), reported


def _context_root(path: Path) -> Path | None:
    """The directory whose walk gives a named file its context: its project (the nearest
    directory with a pyproject.toml, setup.cfg or .git), else the working directory when the file
    is below it (what `check .` would lint it with: an unpacked wheel, a scratch checkout). None
    for a file in neither, which is linted alone, with a warning."""
    from mcp_lint.discovery import project_root

    root = project_root(path)
    if root is not None:
        return root
    cwd = os.getcwd()
    absolute = os.path.abspath(path)
    home = os.path.abspath(os.path.expanduser("~"))
    # Never the home directory or the filesystem root: a walk of either is no project's context.
    if cwd not in (home, os.path.dirname(cwd)) and absolute.startswith(cwd.rstrip(os.sep) + os.sep):
        return Path(".")
    if not _registers_tools(path):
        # A server script alone is complete; a helper alone has no tool to reach it.
        _warning(
            f"{path} is in no project (no pyproject.toml, setup.cfg or .git above it) and not below the working "
            "directory: linted alone, without the other modules whose tools may reach it"
        )
    return None


def _registers_tools(path: Path) -> bool:
    from mcp_lint.prefilter import is_seed

    try:
        return is_seed(path.read_bytes())
    except OSError:
        return False


def _only_in(findings: list[Finding], shown: list[Path]) -> list[Finding]:
    from mcp_lint.per_file import display_name

    names = {display_name(path) for path in shown}
    return [finding for finding in findings if finding.filename in names]


def _run_stdin(options: CheckOptions, resolver) -> int:
    """`mcp-lint check - --stdin-filename path.py`: lint (or fix, printing the fixed text) stdin."""
    from mcp_lint.fileio import SourceError, decode_source
    from mcp_lint.per_file import unreadable
    from mcp_lint.pins import PinSource

    filename = options.stdin_filename or "-"
    if options.stdin_filename:
        resolver.for_path(Path(filename))
        if resolver.errors:
            return _config_failure(resolver)
    try:
        source = decode_source(sys.stdin.buffer.read())
    except SourceError as exc:
        return _report(options, [unreadable(filename, str(exc))], [], FixReport(), {})
    text = source.text
    pins = PinSource(resolver)
    inventory: list[ServerTools] = []
    outcomes, index, findings, errors, context = _lint_stdin(options, resolver, pins, source, filename, inventory)
    _say_what_was_checked(options, resolver, [Path(filename)], inventory, context=context)
    outcome = outcomes[index]
    if not (options.fix or options.diff) or outcome.summary is None:
        return _report(options, findings, errors, FixReport(), {filename: text})
    from mcp_lint.fixing.apply import fix_source, unified_diff
    from mcp_lint.pipeline import relint_file

    def lint(current: str) -> list[Finding]:
        found, _ = relint_file(outcomes, index, current, resolver, pins)
        return found

    result = fix_source(text, lint, unsafe=options.unsafe_fixes)
    if result.error:
        errors.append(f"{filename}: {result.error}; nothing was changed")
    _warn_unapplied(filename, result.unapplied)
    _warn_skipped(options, result.remaining)
    if options.diff:
        diff = unified_diff(filename, text, result.fixed)
        sys.stdout.write(diff)
        for e in errors:
            _error(e)
        return EXIT_ERROR if errors else (EXIT_FINDINGS if diff else EXIT_ERROR if _skipped(options) else EXIT_CLEAN)
    sys.stdout.write(result.fixed)
    for finding in result.remaining:
        click.echo(_concise(finding), err=True)
    if errors or _skipped(options):
        for e in errors:
            _error(e)
        return EXIT_ERROR
    if options.exit_zero:
        return EXIT_CLEAN
    return EXIT_FINDINGS if result.remaining or (options.exit_non_zero_on_fix and result.applied) else EXIT_CLEAN


def _lint_stdin(options: CheckOptions, resolver, pins, source, filename: str, inventory: list[ServerTools]):
    """(outcomes, index of stdin's, findings in it, errors, the project's files or []) for the
    text read from stdin; the servers and tools found are added to `inventory`.

    With `--stdin-filename` inside a project, the text stands in for that file among the
    project's files (an editor's unsaved buffer): the tools of other modules that reach it count,
    as for a file named on the command line. Otherwise it is linted alone.
    """
    from mcp_lint.per_file import analyze_text, display_name
    from mcp_lint.pipeline import default_jobs, link

    path = Path(filename)
    if options.stdin_filename and _context_root(path) is not None:
        from mcp_lint.cache import Cache, cache_directory
        from mcp_lint.pipeline import enabled_rules, lint_files

        files, shown = _with_project_context([path], [path], resolver)
        if shown is not None:
            cache = None if options.no_cache or options.ignore_noqa else Cache(cache_directory(resolver, options.cache_dir))
            outcomes, findings, errors = lint_files(
                files,
                resolver,
                pins,
                jobs=options.jobs or default_jobs(),
                cache=cache,
                explicit=[path],
                reuse_findings=False,
                codes=enabled_rules(files, resolver),
                reported=shown,
                sources={os.path.abspath(path): source},
                inventory=inventory,
            )
            display = display_name(path)
            index = next(i for i, outcome in enumerate(outcomes) if outcome.display == display)
            return outcomes, index, _only_in(findings, shown), errors, files
    outcome = analyze_text(source, path, filename)
    findings, errors = link([outcome], resolver, pins, inventory=inventory)
    return [outcome], 0, findings, errors, []


def _json_on_stdout(options: CheckOptions) -> bool:
    return options.output_format in {"json", "json-lines"} and options.output_file is None


def _fixable(findings: list[Finding]) -> bool:
    return any(f.fix is not None for f in findings)


def _apply_fixes(
    options: CheckOptions, resolver, pins, outcomes, findings: list[Finding], shown: list[Path] | None = None, *, count_only: bool = False
) -> tuple[list[Finding], FixReport]:
    """Run the fix loop on every file with an applicable fix; write the results unless dry.

    Dry runs write nothing and keep every finding as it was: `--diff` (which prints what would
    change), and `--fix` while the JSON report goes to stdout, whose consumer (an editor, a bot)
    applies the fixes listed in the report itself. `--diff` and `count_only` (`check
    --unsafe-fixes`, which says how many fixes later passes add) follow every pass in memory, as
    `--fix` would write them: the diff is what `--fix` writes, not only its first pass. A file
    that did not parse has no summary and is never touched; a file whose fix loop fails is left
    unchanged and reported (exit 2).
    """
    from collections import Counter

    from mcp_lint.fixing.apply import unified_diff
    from mcp_lint.pipeline import link
    from mcp_lint.relink import Relinker

    dry = options.diff or count_only or _json_on_stdout(options)
    in_memory = options.diff or count_only
    unwritten = 0  # files --fix would have changed, had the JSON report not gone to stdout
    report = FixReport()
    index = {o.display: i for i, o in enumerate(outcomes)}
    current = list(outcomes)
    relinker = Relinker(current, resolver, pins)  # each fixed text linked with what it depends on
    # Never fix a file whose findings are not shown (project context of the files named); a shown
    # file with no finding yet may get one from a fix elsewhere (masking turned on in the server
    # module hides a helper's message, so the helper raises ToolError now): fixed in this run too,
    # or the next `--fix` would still change it.
    from mcp_lint.per_file import display_name

    reported = {o.display for o in outcomes} if shown is None else {display_name(path) for path in shown}
    reported |= {f.filename for f in findings}
    pending = findings
    # The fixes the first lint offers (by file, rule and help): any other one a pass applies is a
    # later pass's, which the listing never showed.
    offered = Counter((f.filename, f.code, f.fix.message) for f in findings if f.fix is not None)
    first: list[Finding] | None = None
    for _ in range(_FIX_ROUNDS):
        # A round's passes follow the previous round's: its first pass is the next pass number.
        after = max((number for number, *_ in report.passes), default=0)
        remaining, unwritten, wrote = _fix_round(options, relinker, index, pending, report, dry, unwritten, in_memory, offered, after)
        first = remaining if first is None else first
        if not wrote:
            break
        # A fix in one file can make another file's fix applicable (a caller now lets ToolError
        # through, so its helper may raise it): link the fixed project again, so that a second
        # run has nothing left to fix.
        relinked, _ = link(current, resolver, pins)
        pending = [f for f in relinked if f.filename in reported]
    if unwritten:
        files = f"{unwritten} file{'s' if unwritten != 1 else ''}"
        click.echo(
            f"mcp-lint: warning: --fix wrote nothing because the JSON report goes to stdout; it lists the fixes "
            f"for {files} (use --output-file to write the fixes and the report)",
            err=True,
        )
    if in_memory:
        remaining = list(first or [])  # a dry run reports the findings of the code as it is
        report.diffs = [unified_diff(name, text, report.finals[name]) for name, text in report.originals.items() if report.finals[name] != text]
    remaining.sort(key=Finding.sort_key)
    return remaining, report


# How often the fix pass goes over the project when fixes in one file unlock fixes in another.
_FIX_ROUNDS = 5


def _fix_round(options, relinker, index, findings, report, dry, unwritten, in_memory=False, offered=None, after=0):  # type: ignore[no-untyped-def]
    """One pass of the fix loop over every file with an applicable fix: (remaining findings,
    files a dry run would have written, whether any file was written, in memory too); `after`:
    the passes earlier rounds ran, which this round's pass numbers follow."""
    from mcp_lint.fileio import SourceError, atomic_write
    from mcp_lint.fixing.apply import fix_source
    from mcp_lint.mended import applies
    from mcp_lint.per_file import FileOutcome

    current = relinker.outcomes
    wrote = False
    by_file: dict[str, list[Finding]] = {}
    for finding in findings:
        by_file.setdefault(finding.filename, []).append(finding)
    remaining: list[Finding] = []
    for filename, file_findings in by_file.items():
        i = index.get(filename)
        outcome = current[i] if i is not None else None
        if outcome is None or outcome.summary is None or outcome.source is None or not any(
            applies(f, options.unsafe_fixes) for f in file_findings
        ):
            remaining.extend(file_findings)
            continue
        original = outcome.source.text
        # The analysis of each text the loop linted, so the fixed file is not analysed twice.
        analysed: dict[str, FileOutcome] = {}

        def lint(text: str, i: int = i, analysed: dict[str, FileOutcome] = analysed) -> list[Finding]:
            found, new = relinker.findings(i, text)
            # A fixed text the analysis cannot read or crashes on must not be written: raising
            # makes the loop give the file up.
            if new.internal_error is not None:
                raise RuntimeError(new.internal_error)
            if new.problem is not None:
                raise RuntimeError(new.problem.message)
            analysed[text] = new
            return found

        # The first pass applies the fixes the project's whole link offered (what the user was
        # shown); the re-link of a fixed text follows only the modules it can depend on.
        result = fix_source(original, lint, unsafe=options.unsafe_fixes, first=file_findings)
        if result.error:
            report.errors.append(f"{filename}: {result.error}; the file was left unchanged")
            remaining.extend(file_findings)
            continue
        _warn_unapplied(filename, result.unapplied)
        if result.fixed == original:
            # Nothing changed: the project's own link step said what this file's findings are
            # (the re-link's narrower scope must not make one vanish from the report).
            remaining.extend(file_findings)
            continue
        mended = max(len(result.applied) and 1, len(file_findings) - len(result.remaining))
        numbered: list[tuple[int, str, Finding, bool]] = []  # into report.passes once applied
        if offered is not None:
            for applied, number in zip(result.applied, result.passes):
                key = (filename, applied.code, applied.fix.message if applied.fix else "")
                listed = offered[key] > 0
                if listed:
                    offered[key] -= 1
                else:
                    report.later.append((filename, applied.code))
                numbered.append((after + number, filename, applied, listed))
        if dry:
            if in_memory:
                report.originals.setdefault(filename, original)
                report.finals[filename] = result.fixed
                report.applied.setdefault(filename, []).extend(result.applied)
                report.passes.extend(numbered)
                report.fixed[filename] = report.fixed.get(filename, 0) + mended
                remaining.extend(file_findings)
                relinker.replace(i, analysed[result.fixed])
                wrote = True
                continue
            else:
                unwritten += 1
            remaining.extend(file_findings)
            continue
        if _read_only(filename):
            # Writing a new file in its place would drop the mode the owner set (ruff refuses too).
            _warning(f"{filename} is read-only: not fixed")
            remaining.extend(file_findings)
            continue
        try:
            atomic_write(Path(filename), result.fixed, outcome.source.encoding)
        except SourceError as exc:
            report.errors.append(f"{filename}: could not write the fixed file: {exc}")
            remaining.extend(file_findings)
            continue
        report.applied.setdefault(filename, []).extend(result.applied)
        report.passes.extend(numbered)
        report.fixed[filename] = report.fixed.get(filename, 0) + mended
        remaining.extend(result.remaining)
        relinker.replace(i, analysed[result.fixed])
        wrote = True
    return remaining, unwritten, wrote


def _read_only(filename: str) -> bool:
    """Whether no one may write the file (by its mode: a superuser's access check says yes)."""
    try:
        return not os.stat(filename).st_mode & 0o222
    except OSError:
        return False


def _concise(finding: Finding) -> str:
    return f"{finding.filename}:{finding.location.row}:{finding.location.column}: {finding.code} {finding.message}"


def _use_color(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(out, "isatty") and out.isatty()


def _apply_baseline(options: CheckOptions, findings: list[Finding]) -> tuple[list[Finding], int] | None:
    """Write the baseline when asked, then hide what it accepts: (shown findings, number hidden).

    None once an error has been reported. A freshly written baseline is the one applied, so the
    run that writes it reports only what no baseline can accept (unreadable files).
    """
    from mcp_lint.baseline import Baseline, BaselineError, write

    try:
        path = options.baseline
        if options.write_baseline is not None:
            path = options.write_baseline
            count = write(path, findings)
            click.echo(f"Wrote {count} finding{'s' if count != 1 else ''} to the baseline {path}.", err=True)
        return Baseline.load(path).filter(findings) if path is not None else (findings, 0)
    except BaselineError as exc:
        _error(str(exc))
        return None


def _add_noqa(options: CheckOptions, findings: list[Finding], errors: list[str], sources) -> int:
    """`--add-noqa`: suppress the findings in the source instead of reporting them."""
    from mcp_lint.add_noqa import add_noqa

    if options.baseline is not None:
        baselined = _apply_baseline(options, findings)
        if baselined is None:
            return EXIT_ERROR
        findings = baselined[0]
    _warn_skipped(options, findings)
    report = add_noqa(findings, sources)
    click.echo(f"Added {report.added} noqa directive{'s' if report.added != 1 else ''}.", err=True)
    for finding in report.unplaced:
        click.echo(f"{_concise(finding)} (cannot be suppressed by a `# noqa` comment)", err=True)
    for message in errors + report.errors:
        _error(message)
    if errors or report.errors or _skipped(options):
        return EXIT_ERROR
    return EXIT_FINDINGS if report.unplaced and not options.exit_zero else EXIT_CLEAN


def _report(
    options: CheckOptions,
    findings: list[Finding],
    errors: list[str],
    fixes: FixReport,
    sources: dict[str, str],
    *,
    config_errors: bool = False,
) -> int:
    """Write the report and return the exit code.

    With a broken configuration (`config_errors`: the files it governs were not linted) no
    format may show the run as passing: without findings nothing is written at all, neither
    "All checks passed!" nor an empty JSON, SARIF or GitLab list nor a JUnit file with no
    failures, and no baseline is written from the partial findings; exit 2 with the error.
    """
    from mcp_lint.output import write_report

    if config_errors and (not findings or options.write_baseline is not None):
        for message in errors:
            _error(message)
        return EXIT_ERROR

    hidden = 0
    if options.baseline is not None or options.write_baseline is not None:
        baselined = _apply_baseline(options, findings)
        if baselined is None:
            return EXIT_ERROR
        findings, hidden = baselined
    machine = options.output_format not in {"full", "concise"}
    stdout = sys.stdout
    if options.write_baseline is not None:
        options.nothing_checked = 0  # the run is no pass either way
    _warn_skipped(options, findings)

    def read_source(name: str) -> str | None:
        if name in sources:
            return sources[name]
        try:
            return Path(name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    if options.fix_only:
        return _report_fix_only(options, errors, fixes, stdout)
    if options.diff:
        for text in fixes.diffs:
            stdout.write(text)
    # With `-o FILE` the whole report goes there, its summary too: stdout stays empty.
    buffer = io.StringIO() if options.output_file is not None else None
    if options.statistics:
        _write_statistics(findings, stdout, options)
    elif not options.diff or findings:
        if buffer is not None:
            write_report(
                findings, options.output_format, buffer, read_source=read_source, color=False, unsafe_fixes=options.unsafe_fixes
            )
        elif not options.diff:
            write_report(
                findings,
                options.output_format,
                stdout,
                read_source=read_source,
                color=_use_color(stdout) and options.output_format == "full",
                show_fixes_hint=True,
                unsafe_fixes=options.unsafe_fixes,
            )
    if not machine and not options.quiet and not options.statistics:
        summary_out = buffer if buffer is not None and not options.diff else stdout
        _summary(options, findings, fixes, summary_out)
        if hidden:
            summary_out.write(f"{hidden} baselined finding{'s' if hidden != 1 else ''} not shown.\n")
    if buffer is not None and not options.statistics and (not options.diff or findings):
        try:
            options.output_file.write_text(buffer.getvalue(), encoding="utf-8")
        except OSError as exc:
            _error(f"{options.output_file}: cannot write the report: {exc.strerror or exc}")
            return EXIT_ERROR
    for message in errors + fixes.errors:
        _error(message)
    if errors or fixes.errors:
        return EXIT_ERROR
    if options.diff:
        return EXIT_FINDINGS if fixes.diffs else EXIT_ERROR if _skipped(options) else EXIT_CLEAN
    if options.exit_zero:
        return EXIT_CLEAN
    if findings:
        return EXIT_FINDINGS
    if options.exit_non_zero_on_fix and fixes.applied:
        return EXIT_FINDINGS
    return EXIT_ERROR if _skipped(options) else EXIT_CLEAN


def _report_fix_only(options: CheckOptions, errors: list[str], fixes: FixReport, out: TextIO) -> int:
    """`--fix-only`: the fixes were written; say how many, nothing about what remains. Exit 0
    unless there was an error (or fixes were made under `--exit-non-zero-on-fix`)."""
    n_fixed = sum(fixes.fixed.values())
    if n_fixed and not options.quiet:
        out.write(f"Fixed {n_fixed} error{'s' if n_fixed != 1 else ''}.\n")
        out.write(_pass_lines(fixes.passes))
    for message in errors + fixes.errors:
        _error(message)
    if errors or fixes.errors or _skipped(options):
        return EXIT_ERROR
    return EXIT_FINDINGS if options.exit_non_zero_on_fix and fixes.applied else EXIT_CLEAN


def _write_statistics(findings: list[Finding], out: TextIO, options: CheckOptions) -> None:
    """Findings counted per rule: a table, or with `--output-format json` a list of
    `{code, name, count, fixable}` (ruff's keys); `fixable` under the current flags."""
    from mcp_lint.registry import get_rule

    from mcp_lint.mended import mended

    counts = Counter(f.code for f in findings)
    fixable = Counter(f.code for f in mended(findings, options.unsafe_fixes))
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if options.output_format == "json":
        import json

        table = [
            {"code": code, "name": (info.name if (info := get_rule(code)) else ""), "count": count, "fixable": bool(fixable[code])}
            for code, count in rows
        ]
        out.write(json.dumps(table, indent=2) + "\n")
        return
    for code, count in rows:
        info = get_rule(code)
        marker = "[*]" if fixable[code] else "   "
        out.write(f"{count:>5}\t{code}\t{marker} {info.name if info else ''}\n")


def _later_line(later: list[tuple[str, str]]) -> str:
    """The fixes a later pass of `--fix --unsafe-fixes` applies that the listing does not show
    (an earlier fix makes them necessary), by file and rule: what the reviewer must also read."""
    from collections import Counter

    count = len(later)
    where = ", ".join(f"{code} in {name}" + (f" x{n}" if n > 1 else "") for (name, code), n in sorted(Counter(later).items()))
    return (
        f"Applying these fixes makes {count} more fix{'es' if count != 1 else ''} necessary in a later pass ({where}); "
        "`--diff --unsafe-fixes` shows every edit `--fix --unsafe-fixes` writes.\n"
    )


def _pass_lines(passes: list[tuple[int, str, Finding, bool]]) -> str:
    """What each pass of `--fix` applied, when it took more than one: a pass after the first
    lints code the user never saw (an earlier fix made another necessary), so each fix the
    listing before fixing did not offer is named with its file, line (in that pass's text) and
    help; "" after a single pass (everything applied was listed)."""
    from collections import Counter

    if max((number for number, *_ in passes), default=0) < 2:
        return ""
    lines: list[str] = []
    for number in sorted({number for number, *_ in passes}):
        here = [(name, finding, listed) for n, name, finding, listed in passes if n == number]
        shown = Counter((finding.code, name) for name, finding, listed in here if listed)
        unlisted = [(name, finding) for name, finding, listed in here if not listed]
        parts = []
        if shown:
            where = ", ".join(f"{code} in {name}" + (f" x{n}" if n > 1 else "") for (code, name), n in sorted(shown.items()))
            count = sum(shown.values())
            parts.append(f"{count} listed fix{'es' if count != 1 else ''} ({where})")
        if unlisted:
            count = len(unlisted)
            parts.append(f"{count} fix{'es' if count != 1 else ''} an earlier pass made necessary, not in the listing")
        lines.append(f"Pass {number} applied {' and '.join(parts)}{':' if unlisted else '.'}")
        for name, finding in sorted(unlisted, key=lambda item: (item[0], item[1].location.row, item[1].code)):
            lines.append(f"  {name}:{finding.location.row}: {finding.code} {finding.fix.message if finding.fix else ''}")
    return "".join(line + "\n" for line in lines)


def _summary(options: CheckOptions, findings: list[Finding], fixes: FixReport, out: TextIO) -> None:
    n_fixed = sum(fixes.fixed.values())
    if options.show_fixes and fixes.applied and not options.diff:
        out.write("\nFixed:\n")
        for filename, applied in sorted(fixes.applied.items()):
            for finding in sorted(applied, key=lambda f: (f.location.row, f.code)):
                out.write(f"  {filename}:{finding.location.row}: {finding.code} {finding.fix.message if finding.fix else ''}\n")
    from mcp_lint.mended import mended

    # Findings, not fixes: what `--diff` and `--fix` will count (one fix may mend two findings).
    safe = len(mended(findings, unsafe=False))
    unsafe = len(mended(findings, unsafe=True)) - safe
    if options.diff:
        if n_fixed:
            out.write(f"Would fix {n_fixed} error{'s' if n_fixed != 1 else ''}.\n")
        else:
            out.write("No fixes available.\n")
        return
    if findings:
        if options.output_format == "full":
            out.write("\n")
        line = f"Found {len(findings) + n_fixed} error{'s' if len(findings) + n_fixed != 1 else ''}"
        line += f" ({n_fixed} fixed, {len(findings)} remaining)." if n_fixed else "."
        out.write(line + "\n")
        fixable = safe + (unsafe if options.unsafe_fixes else 0)
        if fixable:
            out.write(f"[*] {fixable} fixable with the `--fix` option.\n")
        if unsafe and not options.unsafe_fixes:
            out.write(f"{unsafe} more fix{'es' if unsafe != 1 else ''} available with `--fix --unsafe-fixes`.\n")
        if fixes.later and not n_fixed:
            out.write(_later_line(fixes.later))
        out.write(_pass_lines(fixes.passes))
    elif n_fixed:
        out.write(f"Found {n_fixed} error{'s' if n_fixed != 1 else ''} ({n_fixed} fixed, 0 remaining).\n")
        out.write(_pass_lines(fixes.passes))
    elif options.write_baseline is None and not options.nothing_linted and not options.nothing_checked and not options.unchecked:
        # Not after --write-baseline (its findings were accepted, not absent) nor when no file
        # was linted: neither is a pass.
        out.write("All checks passed!\n")


def lint_buffer(path: Path, text: str, *, project=None, resolver=None) -> list[Finding]:
    """The findings of an editor's unsaved `text` of the file `path`: what `mcp-lint check path`
    reports once `text` is saved. Inside a project, the project's other files are the context,
    read from disk (or from `project`, a `live.LiveProject` an editor session keeps between
    edits, whose analyses of unchanged files are reused); a lone file is linted alone.
    """
    from mcp_lint.config import SettingsResolver
    from mcp_lint.discovery import project_root
    from mcp_lint.fileio import SourceFile, dominant_newline
    from mcp_lint.live import LiveProject

    if project is None:
        resolver = resolver or TolerantResolver(SettingsResolver())
        root = project_root(path)
        if root is None:
            from mcp_lint.per_file import analyze_text, display_name
            from mcp_lint.pins import PinSource
            from mcp_lint.pipeline import link

            source = SourceFile(text, "utf-8", dominant_newline(text))
            findings, _ = link([analyze_text(source, path, display_name(path))], resolver, PinSource(resolver))
            return findings
        project = LiveProject(root, resolver)
    return project.lint([path], {os.path.abspath(path): text})
