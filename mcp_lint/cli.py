"""The `mcp-lint` command line (click).

Imports are deferred into the commands so that `mcp-lint --version` and a one-file `check` only
load what they use (libcst, rich and the output formats are not free to import).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path
from typing import Sequence

import click

from mcp_lint import __version__

FORMATS = ("full", "concise", "json", "json-lines", "sarif", "github", "gitlab", "junit")
EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(values: Sequence[str]) -> list[str]:
    out: list[str] = []
    for value in values:
        out.extend(part.strip().upper() for part in value.split(",") if part.strip())
    return out


def _fail(message: str) -> None:
    click.echo(f"mcp-lint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="mcp-lint", message="%(prog)s %(version)s")
def cli() -> None:
    """mcp-lint: finds error-channel defects in Python MCP servers."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--select", multiple=True, metavar="CODES", help="Only these rule codes or prefixes (comma-separated; ALL for every rule).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Skip these rule codes or prefixes.")
@click.option("--extend-select", multiple=True, metavar="CODES", help="Add rule codes to the configured selection.")
@click.option("--output-format", type=click.Choice(FORMATS), default=None, envvar="MCP_LINT_OUTPUT_FORMAT", show_envvar=True, help="Report format (default: full).")
@click.option(
    "-o",
    "--output-file",
    type=click.Path(path_type=Path, dir_okay=False),
    envvar="MCP_LINT_OUTPUT_FILE",
    show_envvar=True,
    help="Write the report to a file.",
)
@click.option(
    "--target",
    metavar="REQUIREMENT",
    envvar="MCP_LINT_TARGET",
    show_envvar=True,
    help='Framework version to assume, e.g. "fastmcp>=3.4,<4".',
)
@click.option(
    "--config",
    "config_options",
    multiple=True,
    metavar="PATH|KEY=VALUE",
    help="Use this pyproject.toml, or override one setting (TOML, e.g. 'select = [\"MCP002\"]'); repeatable.",
)
@click.option("--extend-exclude", multiple=True, metavar="PATTERNS", help="More exclude patterns (comma-separated), relative to the working directory.")
@click.option("--show-settings", is_flag=True, help="Print the settings in force for the first path, then exit.")
@click.option("--show-files", is_flag=True, help="Print the files that would be linted, then exit.")
@click.option("--isolated", is_flag=True, help="Ignore every configuration file.")
@click.option("--fix", is_flag=True, help="Apply safe fixes.")
@click.option("--no-fix", is_flag=True, help="Do not fix, even with `fix = true` in the configuration.")
@click.option("--fix-only", is_flag=True, help="Apply fixes and report nothing else (exit 0 unless an error).")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix/--diff: also apply unsafe fixes; show them otherwise.")
@click.option("--diff", is_flag=True, help="Print the fixes as a diff instead of writing them (exit 1 if any).")
@click.option("--show-fixes", is_flag=True, help="List the fixes that were applied.")
@click.option(
    "-w",
    "--watch",
    is_flag=True,
    help="Lint again whenever a Python file or pyproject.toml under PATHS changes (Ctrl-C to stop; needs mcp-lint[watch]).",
)
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when fixes were applied, even if nothing remains.")
@click.option("-e", "--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--statistics", is_flag=True, help="Count findings per rule instead of listing them.")
@click.option("--force-exclude", is_flag=True, help="Apply `exclude` to paths given on the command line too.")
@click.option("-n", "--no-cache", is_flag=True, envvar="MCP_LINT_NO_CACHE", show_envvar=True, help="Neither read nor write the cache.")
@click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), envvar="MCP_LINT_CACHE_DIR", show_envvar=True, help="Where the cache lives.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    envvar="MCP_LINT_JOBS",
    show_envvar=True,
    help="Worker processes (default: CPU count).",
)
@click.option("--stdin-filename", metavar="PATH", help="The path of the file read from stdin (`-`).")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary.")
@click.option("-s", "--silent", is_flag=True, help="Print nothing on stdout; the exit code tells (errors still on stderr).")
@click.option("-v", "--verbose", is_flag=True, help="Say which servers, frameworks, versions and tools were found (on stderr).")
@click.option("--ignore-noqa", is_flag=True, help="Report findings even where a `# noqa` comment suppresses them.")
@click.option("--add-noqa", is_flag=True, help="Add `# noqa` comments that suppress every current finding.")
@click.option(
    "--baseline",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Do not report the findings this baseline file accepts.",
)
@click.option(
    "--write-baseline",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write a baseline file that accepts every current finding.",
)
def check(
    paths: tuple[Path, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    extend_select: tuple[str, ...],
    output_format: str | None,
    output_file: Path | None,
    target: str | None,
    config_options: tuple[str, ...],
    extend_exclude: tuple[str, ...],
    show_settings: bool,
    show_files: bool,
    isolated: bool,
    fix: bool,
    no_fix: bool,
    fix_only: bool,
    unsafe_fixes: bool,
    diff: bool,
    show_fixes: bool,
    watch: bool,
    exit_non_zero_on_fix: bool,
    exit_zero: bool,
    statistics: bool,
    force_exclude: bool,
    no_cache: bool,
    cache_dir: Path | None,
    jobs: int | None,
    stdin_filename: str | None,
    quiet: bool,
    silent: bool,
    verbose: bool,
    ignore_noqa: bool,
    add_noqa: bool,
    baseline: Path | None,
    write_baseline: Path | None,
) -> None:
    """Lint PATHS (files or directories; default: the current directory)."""
    paths = _stdin_paths(paths, stdin_filename)
    if no_fix and (fix or fix_only):
        _fail(f"--no-fix cannot be combined with {'--fix' if fix else '--fix-only'}")
    if fix_only and diff:
        _fail("--fix-only cannot be combined with --diff")
    fix = fix or fix_only
    if add_noqa:
        conflicting = [name for name, on in (("--fix", fix), ("--diff", diff), ("--write-baseline", write_baseline)) if on]
        if conflicting:
            _fail(f"--add-noqa cannot be combined with {conflicting[0]}")
    if (add_noqa or write_baseline) and [str(p) for p in paths] == ["-"]:
        _fail(f"{'--add-noqa' if add_noqa else '--write-baseline'} needs files, not stdin")
    if watch:
        _refuse_with_watch(
            ("`-` (standard input)", [str(p) for p in paths] == ["-"]),
            ("--add-noqa", add_noqa),
            ("--write-baseline", write_baseline is not None),
            ("--show-settings", show_settings),
            ("--show-files", show_files),
            ("--silent", silent),
            ("--output-file", output_file is not None),
            (f"--output-format {output_format}", output_format not in (None, "full", "concise")),
        )
    config_file, config_values = _config_options(config_options)
    from mcp_lint.runner import CheckOptions, run_check

    options = CheckOptions(
        paths=list(paths) or [Path(".")],
        select=_codes(select) or None,
        ignore=_codes(ignore) or None,
        extend_select=_codes(extend_select) or None,
        output_format=output_format or "full",
        output_file=output_file,
        target=target,
        target_origin=_origin("target", "--target", "MCP_LINT_TARGET"),
        config_file=config_file,
        config_values=config_values,
        extend_exclude=[p.strip() for value in extend_exclude for p in value.split(",") if p.strip()],
        show_settings=show_settings,
        show_files=show_files,
        isolated=isolated,
        fix=fix,
        no_fix=no_fix,
        fix_only=fix_only,
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        show_fixes=show_fixes,
        exit_non_zero_on_fix=exit_non_zero_on_fix,
        exit_zero=exit_zero,
        statistics=statistics,
        force_exclude=force_exclude,
        no_cache=no_cache,
        cache_dir=cache_dir,
        jobs=jobs,
        stdin_filename=stdin_filename,
        quiet=quiet,
        verbose=verbose,
        ignore_noqa=ignore_noqa,
        add_noqa=add_noqa,
        baseline=baseline,
        write_baseline=write_baseline,
    )
    if watch:
        from mcp_lint.watch import watch as watch_paths

        sys.exit(watch_paths(options, run_check))
    try:
        if silent:
            # Everything the run would print on stdout (findings, summary, diffs) goes nowhere;
            # `-o FILE` is still written, errors and warnings still reach stderr.
            with contextlib.redirect_stdout(io.StringIO()):
                code = run_check(options)
        else:
            code = run_check(options)
    except KeyboardInterrupt:
        click.echo("mcp-lint: interrupted", err=True)
        code = EXIT_ERROR
    except BrokenPipeError:
        # `mcp-lint check | head`: the reader left. Point stdout at /dev/null so the interpreter's
        # final flush does not fail again, and exit like a lint that found something.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_FINDINGS
    except Exception as exc:  # noqa: BLE001 - a crash must still be one clear line and exit 2
        from mcp_lint.per_file import describe_exception

        click.echo(f"mcp-lint: internal error: {describe_exception(exc)} (set MCP_LINT_DEBUG=1 for the traceback)", err=True)
        if os.environ.get("MCP_LINT_DEBUG"):
            import traceback

            traceback.print_exc()
        code = EXIT_ERROR
    sys.exit(code)


def _refuse_with_watch(*options: tuple[str, bool]) -> None:
    """`--watch` reruns a report for a person at a terminal: what reads stdin once, writes files
    other than fixes, prints something else than the findings or writes them for a program is a
    usage error with it. (--fix, --diff and --statistics work on each run, as in ruff.)"""
    import importlib.util

    for name, given in options:
        if given:
            _fail(f"--watch cannot be combined with {name}")
    if importlib.util.find_spec("watchfiles") is None:
        _fail("--watch needs the file watcher: pip install 'mcp-lint[watch]'")
    missing = [str(path) for path in paths_to_watch() if not os.path.exists(path)]
    if missing:
        _fail(f"--watch: {missing[0]}: no such file or directory")


def paths_to_watch() -> list[Path]:
    """The PATHS of the `check` being parsed (the current directory when none)."""
    return list(click.get_current_context().params.get("paths") or ()) or [Path(".")]


def _origin(parameter: str, option: str, variable: str) -> str:
    """How messages credit a value: the option, or the environment variable that set it."""
    source = click.get_current_context().get_parameter_source(parameter)
    return variable if source is click.core.ParameterSource.ENVIRONMENT else option


def _config_options(values: tuple[str, ...]) -> tuple[Path | None, list[str]]:
    """Split `--config` values as ruff does: an existing file (or anything without `=`) is the
    pyproject.toml to use, at most one; the rest are KEY=VALUE overrides."""
    files = [value for value in values if os.path.isfile(value) or "=" not in value]
    if len(files) > 1:
        _fail(f"--config names more than one configuration file ({files[0]}, {files[1]})")
    if files and os.path.isdir(files[0]):
        _fail(f"--config '{files[0]}' is a directory; name its pyproject.toml")
    return (Path(files[0]) if files else None), [value for value in values if value not in files]


def _stdin_paths(paths: tuple[Path, ...], stdin_filename: str | None) -> tuple[Path, ...]:
    """The paths to lint, `("-",)` when the run reads stdin.

    `--stdin-filename` reads stdin with or without `-` (as ruff does): an editor integration that
    leaves the `-` out must never lint, let alone `--fix`, the files of the working directory.
    Other paths given with it are ignored with a warning; `-` among other paths is ambiguous
    (lint stdin or the files?) and a usage error.
    """
    names = [str(path) for path in paths]
    if "-" in names and len(names) > 1:
        _fail("`-` (read stdin) cannot be combined with other paths")
    if stdin_filename is None:
        return paths
    others = [name for name in names if name != "-"]
    if others:
        click.echo(f"mcp-lint: warning: ignoring {others[0]} in favour of standard input (--stdin-filename)", err=True)
    return (Path("-"),)


@cli.command()
@click.argument("code", metavar="CODE|NAME", required=False)
@click.option("--all", "show_all", is_flag=True, help="Every rule.")
@click.option("--output-format", type=click.Choice(("text", "json")), default="text")
def rule(code: str | None, show_all: bool, output_format: str) -> None:
    """Explain a rule, by code or name (`mcp-lint rule MCP001`, `mcp-lint rule raw-exception-text`)."""
    from mcp_lint.registry import RULES, get_rule, rule_doc

    if show_all or code is None:
        if output_format == "json":
            import json

            click.echo(json.dumps([_rule_json(r) for r in RULES], indent=2))
        else:
            for info in RULES:
                click.echo(f"{info.code}  {info.name}  {info.summary}")
        return
    info = get_rule(code) or next((r for r in RULES if r.name == code.strip().lower().replace("_", "-")), None)
    if info is None:
        kind = "code" if code[:1].isalpha() and code[-1:].isdigit() and "-" not in code else "name"
        _fail(f"unknown rule {kind} {code!r} (try `mcp-lint rule --all`)")
    if output_format == "json":
        import json

        click.echo(json.dumps(_rule_json(info), indent=2))
        return
    page = rule_doc(info.code) or f"# {info.code} {info.name}\n\n{info.summary}\n"
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(page))
    else:
        click.echo(page, nl=not page.endswith("\n"))


def _rule_json(info) -> dict:
    return {
        "id": info.code,
        "code": info.code,
        "name": info.name,
        "summary": info.summary,
        "severity": info.severity.value,
        "fix": {"availability": info.fix_availability, "applicability": info.fix_applicability or None},
        "frameworks": list(info.frameworks),
        "default_enabled": info.default_enabled,
    }


@cli.command()
@click.option("--cache-dir", type=click.Path(path_type=Path, file_okay=False), envvar="MCP_LINT_CACHE_DIR", show_envvar=True, help="The cache to remove.")
def clean(cache_dir: Path | None) -> None:
    """Remove the cache of the project in the current directory (`.mcp_lint_cache/`)."""
    from mcp_lint.cache import cache_directory
    from mcp_lint.cache import clean as remove_cache
    from mcp_lint.config import ConfigError, SettingsResolver

    try:
        directory = cache_directory(SettingsResolver(), cache_dir)
    except ConfigError as exc:
        _fail(str(exc))
    shown = os.path.relpath(directory) if directory.is_relative_to(Path.cwd()) else str(directory)
    try:
        removed = remove_cache(directory)
    except ValueError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{shown}: cannot remove the cache: {exc.strerror or exc}")
    click.echo(f"Removed {shown}" if removed else f"No cache at {shown}")


@cli.command()
def server() -> None:
    """Run the language server (LSP over stdin/stdout): findings and fixes in an editor."""
    import importlib.util

    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        _fail("`mcp-lint server` needs the language server extra: pip install 'mcp-lint[server]'")
    from mcp_lint.server.lsp import run

    sys.exit(run())


def _register_probe() -> None:
    from mcp_lint.probe.command import probe  # click only: `mcp` is imported when the command runs

    cli.add_command(probe)


_register_probe()


def main() -> None:
    cli(prog_name="mcp-lint")


def entry() -> None:
    """The `mcp-lint` command (the console script and `python -m mcp_lint`): main(), then the end
    of the process without the interpreter's teardown.

    Tearing down frees every object one by one (libcst's hundreds of node classes, the summaries
    of a large run): a tenth of a one-file pre-commit run, for nothing. The methods `dataclasses`
    generates are compiled once and kept (generated_code.py), and so are the programs of mcp-lint's
    regular expressions (regex_store.py). By the time main()
    returns, everything mcp-lint writes is complete: files are written atomically and closed,
    the process pool is shut down, and the standard streams are flushed here.
    """
    from mcp_lint import generated_code, regex_store

    generated_code.install()  # before libcst and the model are imported
    regex_store.install()
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    generated_code.save()
    regex_store.save()
    status = _exit_status(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # a reader that left (`| head`): nothing more can reach it
    os._exit(status)


def _exit_status(code: object) -> int:
    """The status `sys.exit(code)` would give: None is 0, a number is itself, a message is
    printed to stderr and gives 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":  # pragma: no cover
    entry()
