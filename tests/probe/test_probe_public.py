"""`mcp-lint probe` on a real public server installed from PyPI (mcp-server-time, runs offline)."""

from __future__ import annotations

from .conftest import run_cli


def test_time_server(time_server_python: str) -> None:
    result = run_cli("--output-format", "json", "--", time_server_python, "-m", "mcp_server_time")
    # Its tools answer a missing timezone with isError: true and it rejects malformed JSON-RPC
    # (checks 1 and 3 pass); a 5000-character timezone name makes the zoneinfo lookup fail with
    # "File name too long: '<site-packages>/tzdata/zoneinfo/xxx...'", a path of the server's machine.
    assert result.code == 1, result.stderr
    assert result.pairs() == {("get_current_time", 2), ("convert_time", 2)}
    leak = result.finding("get_current_time", 2)
    assert leak["case"] == "timezone = a 5000-character string"
    assert leak["message"].startswith("the error text carries an absolute path: '/")
    assert leak["response"]["result"]["isError"] is True
