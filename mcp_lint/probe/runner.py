"""The probe run: start the server, call every selected tool, run the protocol check, report."""

from __future__ import annotations

import contextlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from mcp_lint.probe import snapshot, values
from mcp_lint.probe.client import DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT, Response, ServerConnection, ServerStartError
from mcp_lint.probe.findings import CallRecord, ProbeFinding, ProbeReport, excerpt, reads_as_failure
from mcp_lint.probe.leaks import find_leaks, secret_values
from mcp_lint.probe.process import resolve_command, server_environment
from mcp_lint.probe.raw import RawConnection

ALL_CHECKS = frozenset({1, 2, 3, 4})


@dataclass
class ProbeOptions:
    command: Sequence[str]
    cwd: Path | None = None
    watch: Sequence[Path] = ()
    tools: Sequence[str] = ()
    skip: Sequence[str] = ()
    include_destructive: bool = False
    timeout: float = DEFAULT_TIMEOUT
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT
    env: Mapping[str, str] = field(default_factory=dict)
    checks: frozenset[int] = ALL_CHECKS
    strict_jsonrpc: bool = False


@dataclass
class _Context:
    """What every call of one run needs: the connection, the secrets to look for, the snapshot roots."""

    connection: ServerConnection
    report: ProbeReport
    options: ProbeOptions
    secrets: list[str]
    roots: list[Path]
    cwd: Path


@contextlib.contextmanager
def _working_directory(chosen: Path | None) -> Iterator[Path]:
    if chosen is not None:
        chosen.mkdir(parents=True, exist_ok=True)
        yield chosen.resolve()
        return
    with tempfile.TemporaryDirectory(prefix="mcp-lint-probe-") as directory:
        yield Path(directory).resolve()


def run_probe(options: ProbeOptions, invoked_from: Path | None = None) -> ProbeReport:
    """Probe the server `options.command` starts; never raises for what the server does."""
    invoked_from = invoked_from or Path.cwd()
    command = resolve_command(options.command, invoked_from)
    environment = server_environment(options.env)
    with _working_directory(options.cwd) as cwd:
        report = ProbeReport(command=command, cwd=str(cwd))
        connection = ServerConnection(command, cwd, environment, options.timeout, options.startup_timeout)
        try:
            connection.start()
        except ServerStartError as exc:
            report.error = f"the server could not be started or initialised: {exc}"
            report.stderr = exc.stderr
            _name_stray_stdout(report, connection)
            return report
        try:
            context = _Context(
                connection=connection,
                report=report,
                options=options,
                secrets=secret_values(environment, options.env.values()),
                roots=[cwd, *(invoked_from / w for w in options.watch)],
                cwd=cwd,
            )
            report.server = dict(connection.server_info.get("serverInfo") or {})
            report.tool_checks = bool(options.checks & {1, 2, 4})
            if options.checks & {1, 2, 4}:
                _probe_tools(context)
        finally:
            connection.close()
        _name_stray_stdout(report, connection)
        if 3 in options.checks and report.error is None:
            _probe_protocol(report, command, cwd, environment, options)
        return report


def _name_stray_stdout(report: ProbeReport, connection: ServerConnection) -> None:
    """A server that prints to stdout corrupts the channel every client reads: the run fails on it,
    naming the line (a `print()` left in a stdio server is the usual cause)."""
    if connection.not_json is None or report.usage_error:
        return
    stray = f"the server wrote a line to stdout that is not JSON-RPC: {connection.not_json!r} (stdout carries MCP messages only; log to stderr)"
    report.error = stray if report.error is None else f"{report.error}; {stray}"
    report.stderr = report.stderr or connection.stderr_tail()


def _selected(tools: list[dict[str, Any]], report: ProbeReport, options: ProbeOptions) -> list[dict[str, Any]]:
    chosen = []
    for tool in tools:
        name = tool.get("name", "")
        annotations = tool.get("annotations") or {}
        if options.tools and name not in options.tools:
            continue
        if name in options.skip:
            report.skipped[name] = "--skip"
        elif annotations.get("destructiveHint") is True and not options.include_destructive:
            report.skipped[name] = "annotated destructiveHint: true (--include-destructive probes it)"
        else:
            chosen.append(tool)
    return chosen


def _probe_tools(context: _Context) -> None:
    try:
        tools = context.connection.list_tools()
    except Exception as exc:  # noqa: BLE001 - a server that cannot list its tools is a start failure
        context.report.error = f"tools/list failed: {type(exc).__name__}: {exc}"
        context.report.stderr = context.connection.stderr_tail()
        return
    context.report.tools = [t.get("name", "") for t in tools]
    unknown = sorted(set(context.options.tools) - set(context.report.tools))
    if unknown:
        context.report.error = f"no tool named {', '.join(unknown)} (the server lists: {', '.join(context.report.tools)})"
        context.report.usage_error = True
        return
    for tool in _selected(tools, context.report, context.options):
        context.report.probed.append(tool["name"])
        _probe_tool(context, tool)


def _probe_tool(context: _Context, tool: dict[str, Any]) -> None:
    name = tool["name"]
    schema = tool.get("inputSchema") or {}
    if schema.get("properties"):
        arguments = values.arguments(schema, values.missing_value)
        _call(context, name, "a value that names nothing existing", arguments, missing=True)
    else:
        context.report.calls.append(CallRecord(name, 1, "a value that names nothing existing", "inconclusive", "the tool takes no arguments"))
    for case in values.edge_cases(schema):
        if _timed_out(context.report, name):
            # A tool that hung once ties the probe up for a full timeout on every further call.
            context.report.calls.append(CallRecord(name, 1, "edge values", "note", "not tried: the tool timed out"))
            return
        label = f"{case.argument} = {case.label}"
        _call(context, name, label, values.edge_arguments(schema, case), missing=False)


def _timed_out(report: ProbeReport, tool: str) -> bool:
    return any(c.tool == tool and c.detail.startswith("no answer within") for c in report.calls)


def _call(context: _Context, tool: str, case: str, arguments: dict[str, Any], missing: bool) -> None:
    watch = 4 in context.options.checks
    before = snapshot.take(context.roots) if watch else {}
    response = context.connection.call(tool, arguments)
    request = {"method": "tools/call", "params": {"name": tool, "arguments": _shown(arguments)}}
    shown = _response_json(response)
    errorish = _judge_channel(context, tool, case, request, response, shown, missing)
    if not errorish:
        return
    if 2 in context.options.checks:
        _check_leaks(context, tool, case, request, response, shown)
    if watch:
        changes = snapshot.compare(before, snapshot.take(context.roots), context.cwd)
        if changes:
            files = ", ".join(c.describe() for c in changes)
            context.report.add(
                ProbeFinding(tool, 4, f"the call ended in an error but changed files first: {files}", request, shown, case, key="mutation")
            )
        context.report.calls.append(CallRecord(tool, 4, case, "fail" if changes else "pass", "files changed" if changes else "no file changed"))


def _judge_channel(
    context: _Context, tool: str, case: str, request: dict[str, Any], response: Response, shown: Any, missing: bool
) -> bool:
    """Check 1 for one call; True when the call ended in some kind of error (for checks 2 and 4)."""
    report = context.report

    def fail(message: str, key: str) -> bool:
        if 1 in context.options.checks:
            report.add(ProbeFinding(tool, 1, message, request, shown, case, key=key))
        report.calls.append(CallRecord(tool, 1, case, "fail", message))
        return True

    if response.timed_out:
        fail(f"no answer within {context.options.timeout:g} s", "timeout")
        return False
    if response.failure is not None:
        fail(f"the connection failed: {response.failure}", "failure")
        return False
    if response.error is not None:
        code = response.error.get("code")
        return fail(
            f"answered with a JSON-RPC error ({code}: {excerpt(str(response.error.get('message', '')), 120)}), "
            "not a result with isError: true: the model never reads it",
            f"jsonrpc:{code}",
        )
    assert response.result is not None
    if response.is_error_result:
        report.calls.append(CallRecord(tool, 1, case, "pass", "isError: true"))
        return True
    reason = reads_as_failure(response.result, response.text)
    if reason:
        return fail(f"answered isError: false but {reason}: {excerpt(response.text, 120)!r}", "success-failure")
    detail = "accepted a value that should name nothing" if missing else "accepted"
    report.calls.append(CallRecord(tool, 1, case, "inconclusive", detail))
    return False


def _check_leaks(context: _Context, tool: str, case: str, request: dict[str, Any], response: Response, shown: Any) -> None:
    leaks = find_leaks(response.text, context.secrets, [str(context.cwd)])
    if leaks:
        kinds = sorted({leak.kind for leak in leaks})
        message = "the error text carries " + "; ".join(leak.describe() for leak in leaks)
        context.report.add(ProbeFinding(tool, 2, message, request, shown, case, key="+".join(kinds)))
    context.report.calls.append(CallRecord(tool, 2, case, "fail" if leaks else "pass", "leaks" if leaks else "no leak"))


def _shown(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments as reported: a very long string is shortened, it says nothing more in full."""
    return {k: (f"{v[:20]}... ({len(v)} characters)" if isinstance(v, str) and len(v) > 80 else v) for k, v in arguments.items()}


def _response_json(response: Response) -> Any:
    shown = response.to_json()
    result = shown.get("result")
    if isinstance(result, dict):
        # The report needs what the model reads, not pages of it.
        shown = {"result": {**result, "content": [_short_block(b) for b in result.get("content") or ()]}}
    return shown


def _short_block(block: Any) -> Any:
    if isinstance(block, dict) and isinstance(block.get("text"), str):
        return {**block, "text": excerpt(block["text"], 2000)}
    return block


# -- check 3 -------------------------------------------------------------------------------------

_PROTOCOL_CASES: tuple[tuple[str, str, Any], ...] = (
    ("malformed JSON", "parse", None),
    ("an unknown method", "request", {"method": "mcp-lint/no-such-method", "params": {}}),
    ("tools/call without a name", "request", {"method": "tools/call", "params": {"arguments": {}}}),
    ("tools/call with parameters of the wrong type", "request", {"method": "tools/call", "params": {"name": 12345, "arguments": "not-an-object"}}),
)


def _probe_protocol(report: ProbeReport, command: list[str], cwd: Path, environment: dict[str, str], options: ProbeOptions) -> None:
    with RawConnection(command, cwd, environment, options.timeout) as raw:
        try:
            raw.initialize()
        except (RuntimeError, OSError) as exc:
            report.add(ProbeFinding(None, 3, f"the server did not complete the handshake over raw stdio: {exc}", "initialize", raw.stderr_tail(), key="handshake"))
            return
        for case, kind, body in _PROTOCOL_CASES:
            if not _protocol_case(report, raw, case, kind, body, options):
                return
        ping = {"jsonrpc": "2.0", "id": raw.new_id(), "method": "ping"}
        reply = raw.request(ping)
        if reply is None or "result" not in reply:
            report.add(ProbeFinding(None, 3, "the server did not answer ping after the malformed requests", ping, reply or raw.stderr_tail(), "survival", key="survival"))
        else:
            report.calls.append(CallRecord(None, 3, "survival", "pass", "answered ping afterwards"))


def _protocol_case(report: ProbeReport, raw: RawConnection, case: str, kind: str, body: Any, options: ProbeOptions) -> bool:
    """One malformed request; False when the server is gone (the remaining cases cannot run)."""
    if kind == "parse":
        request: Any = '{"jsonrpc": "2.0", "id": %d, "method": "tools/list", "params": {' % raw.new_id()
        reply, alive = raw.request_unparseable(request)
        if reply is None and alive:
            if options.strict_jsonrpc:
                report.add(ProbeFinding(None, 3, f"{case} got no JSON-RPC error (-32700)", request, None, case, key=case))
            else:
                # JSON-RPC 2.0 asks for -32700 with id null; the mcp SDKs (1.x and 2.x) drop the
                # line instead. Nothing can wait for that answer: noted, not failed (--strict-jsonrpc).
                report.calls.append(CallRecord(None, 3, case, "note", "no response (JSON-RPC asks for a -32700 parse error)"))
            return True
    else:
        request = {"jsonrpc": "2.0", "id": raw.new_id(), **body}
        reply = raw.request(request)
    if reply is not None and "error" in reply:
        report.calls.append(CallRecord(None, 3, case, "pass", f"JSON-RPC error {reply['error'].get('code')}"))
        return True
    if reply is not None:
        report.add(ProbeFinding(None, 3, f"{case} got a result, not a JSON-RPC error", request, reply, case, key=case))
        return True
    if not raw.alive:
        report.add(ProbeFinding(None, 3, f"the server exited on {case}", request, raw.stderr_tail(), case, key=case))
        return False
    report.add(ProbeFinding(None, 3, f"{case} got no response within the timeout", request, None, case, key=case))
    return True
