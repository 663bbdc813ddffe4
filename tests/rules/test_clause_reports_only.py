"""One test of "the `except` clause only reports the failure" (failure_paths.reports_only), read
by MCP005's worded-failure judgement and by MCP002's/MCP005's fixes: logging (`fatal`,
`print_exception`), text built with text builders (`strip`, `getattr`) and bare strings report;
a local computed by other work (`fallback = load_default()`) or state rolled back does work."""

from __future__ import annotations

import libcst as cst
import pytest

from mcp_lint.rules.failure_paths import reports_only


def _small(code: str) -> cst.BaseSmallStatement:
    line = cst.parse_statement(code)
    assert isinstance(line, cst.SimpleStatementLine)
    return line.body[0]


@pytest.mark.parametrize(
    "code",
    [
        "log.fatal('sensor down')",
        "traceback.print_exception(exc)",
        "await ctx.error(f'failed: {exc}')",
        "msg = f'Sensor {name} did not answer'",
        "why = ', '.join(errors).strip()",
        "kind = getattr(exc, 'code', type(exc).__name__)",
        "msg += ' (timeout)'",
        "'the sensor is down'",
        "return msg",
        "raise",
        "pass",
    ],
)
def test_a_report(code: str) -> None:
    assert reports_only(_small(code))


@pytest.mark.parametrize(
    "code",
    [
        "fallback = load_default(name)",
        "self.token = saved",
        "cache[key] = None",
        "sensor.reset()",
        "del pending[name]",
        "continue",
    ],
)
def test_work_done_another_way(code: str) -> None:
    assert not reports_only(_small(code))
