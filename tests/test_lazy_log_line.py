"""The log line a fix copies into a clause it adds is written lazily with the logger's own
placeholders (`%s` for logging, `{}` for loguru), so ruff's G004 count stays where it was."""

from __future__ import annotations

import pytest

from mcp_lint.rules.handler_fix import lazy_log_line

CASES = [
    ('logger.error(f"Export of {name} failed: {e}", exc_info=True)', 'logger.error("Export of %s failed: %s", name, e, exc_info=True)'),
    ("log.warning(f'{op} at 50% failed: {e!r}')", "log.warning('%s at 50%% failed: %r', op, e)"),
    ('logger.error(f"Lookup failed: {str(exc)}")', 'logger.error("Lookup failed: %s", exc)'),
    # Unchanged: a format spec, a self-documenting expression, no f-string, nothing interpolated.
    ('logger.error(f"took {seconds:.1f}s")', 'logger.error(f"took {seconds:.1f}s")'),
    ('logger.error(f"{value=}")', 'logger.error(f"{value=}")'),
    ('logger.error("plain text")', 'logger.error("plain text")'),
    ('logger.error(f"no values")', 'logger.error(f"no values")'),
]


@pytest.mark.parametrize(("line", "expected"), CASES)
def test_lazy_log_line(line: str, expected: str) -> None:
    assert lazy_log_line(line) == expected


def test_loguru_placeholders() -> None:
    assert lazy_log_line('logger.exception(f"Export of {{job}} {name} failed: {e!r}")', braces=True) == 'logger.exception("Export of {{job}} {} failed: {!r}", name, e)'
