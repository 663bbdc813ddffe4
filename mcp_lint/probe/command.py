"""The `mcp-lint probe` command. Registered by mcp_lint/cli.py; imports nothing of `mcp` until it runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

# The writers of mcp_lint/probe/output.py, named here so registering the command imports none of them.
FORMATS = ("full", "json", "sarif", "junit")
EXIT_ERROR = 2


def _environment(pairs: tuple[str, ...]) -> dict[str, str]:
    environment = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--env")
        environment[name] = value
    return environment


def _checks(values: tuple[int, ...]) -> frozenset[int]:
    return frozenset(values) if values else frozenset({1, 2, 3, 4})


@click.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False, "help_option_names": ["-h", "--help"]})
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("--cwd", type=click.Path(path_type=Path, file_okay=False), help="Run the server here (default: a fresh temporary directory).")
@click.option("--watch", multiple=True, type=click.Path(path_type=Path), help="Also snapshot this path for check 4 (e.g. a SQLite file).")
@click.option("--tool", "tools", multiple=True, metavar="NAME", help="Probe only this tool (repeatable).")
@click.option("--skip", multiple=True, metavar="NAME", help="Do not call this tool (repeatable).")
@click.option("--include-destructive", is_flag=True, help="Also call tools annotated destructiveHint: true.")
@click.option("--check", "checks", multiple=True, type=click.IntRange(1, 4), help="Run only these checks (1-4, repeatable).")
@click.option("--env", "env_pairs", multiple=True, metavar="NAME=VALUE", help="Set a variable for the server; its value must not leak (check 2).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True, help="Seconds for each call.")
@click.option("--startup-timeout", type=click.FloatRange(min=0.1), default=60.0, show_default=True, help="Seconds to start and initialise.")
@click.option("--strict-jsonrpc", is_flag=True, help="Fail check 3 when malformed JSON gets no -32700 response.")
@click.option("--output-format", type=click.Choice(FORMATS), default="full", show_default=True, help="Report format.")
@click.option("-o", "--output-file", type=click.Path(path_type=Path, dir_okay=False), help="Write the report to a file.")
def probe(
    command: tuple[str, ...],
    cwd: Path | None,
    watch: tuple[Path, ...],
    tools: tuple[str, ...],
    skip: tuple[str, ...],
    include_destructive: bool,
    checks: tuple[int, ...],
    env_pairs: tuple[str, ...],
    timeout: float,
    startup_timeout: float,
    strict_jsonrpc: bool,
    output_format: str,
    output_file: Path | None,
) -> None:
    """Start the MCP server COMMAND over stdio and test what a client receives.

    \b
    mcp-lint probe [OPTIONS] -- COMMAND [ARGS...]
    e.g. mcp-lint probe -- python server.py
    Exit 0: every check passed; 1: a check failed; 2: the server could not be started (an early
    exit is named with its status), wrote a line to stdout that is not JSON-RPC, a --tool it does
    not list, or no tool was probed (all skipped) for checks 1, 2 or 4.
    """
    from mcp_lint.probe import ProbeUnavailable, require_mcp

    try:
        require_mcp()
    except ProbeUnavailable as exc:
        click.echo(f"mcp-lint: error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    from mcp_lint.probe.output import write
    from mcp_lint.probe.runner import ProbeOptions, run_probe

    options = ProbeOptions(
        command=list(command),
        cwd=cwd,
        watch=list(watch),
        tools=list(tools),
        skip=list(skip),
        include_destructive=include_destructive,
        timeout=timeout,
        startup_timeout=startup_timeout,
        env=_environment(env_pairs),
        checks=_checks(checks),
        strict_jsonrpc=strict_jsonrpc,
    )
    report = run_probe(options)
    if report.usage_error:
        # The user's mistake, found once the server listed its tools: no report (an empty JSON
        # list or SARIF run would read as a clean server), only the error.
        click.echo(f"mcp-lint: error: {report.error}", err=True)
        sys.exit(EXIT_ERROR)
    if output_file is not None:
        with output_file.open("w", encoding="utf-8") as out:
            write(report, output_format, out)
    else:
        write(report, output_format, sys.stdout)
    if report.error is not None and (output_file is not None or output_format != "full"):
        # The report went to a file or a machine format: people still need the reason on stderr.
        click.echo(f"mcp-lint: error: {report.error}", err=True)
        if report.stderr:
            click.echo(report.stderr, err=True)
    if report.nothing_probed and not report.findings:
        skipped = f"{len(report.skipped)} skipped" if report.tools else "the server lists none"
        click.echo(f"mcp-lint: warning: no tool was probed ({skipped}): checks 1, 2 and 4 checked nothing", err=True)
    sys.exit(report.exit_code)
