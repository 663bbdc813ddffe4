"""Hints a fix must keep (issue 23, review 5's lost hints): the author's set-up advice that a
project helper raises as a builtin class inside the `try` (`raise RuntimeError("TOKEN is not
set. Add it to ...")`) reached the model through the broad clause's `{exc}`; the rewritten clause
must let that class through before it, and a clause of its own for that class keeps its text."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli

_FORECAST = """\
import os

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("forecast")
_client = None


def _get_client() -> httpx.Client:
    global _client
    if _client is None:
        token = os.environ.get("FORECAST_TOKEN", "")
        if not token:
            raise RuntimeError("FORECAST_TOKEN is not set. Add it to the server's env block in your MCP settings.")
        _client = httpx.Client(base_url="https://forecast.example", headers={"Authorization": f"Bearer {token}"})
    return _client


def _credentials_file() -> str:
    path = os.environ.get("FORECAST_KEY_FILE", "key.json")
    if not os.path.exists(path):
        raise FileNotFoundError(f"Key file {path!r} not found. Set FORECAST_KEY_FILE to its absolute path.")
    return path


@mcp.tool()
def predict(series: list[float]) -> str:
    try:
        client = _get_client()
        response = client.post("/predict", json={"series": series})
        response.raise_for_status()
        return response.text
    except Exception as exc:
        return f"Could not run the forecast: {exc}"


@mcp.tool()
def list_models() -> str:
    try:
        with open(_credentials_file()) as handle:
            key = handle.read()
        response = httpx.get("https://forecast.example/models", headers={"X-Key": key})
        return response.text
    except FileNotFoundError as e:
        return f"Error: {str(e)}"
    except Exception as e:
        return f"Error listing models: {str(e)}"
"""
_FORECAST_FIXED = """\
import logging
import os

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)

mcp = FastMCP("forecast")
_client = None


def _get_client() -> httpx.Client:
    global _client
    if _client is None:
        token = os.environ.get("FORECAST_TOKEN", "")
        if not token:
            raise RuntimeError("FORECAST_TOKEN is not set. Add it to the server's env block in your MCP settings.")
        _client = httpx.Client(base_url="https://forecast.example", headers={"Authorization": f"Bearer {token}"})
    return _client


def _credentials_file() -> str:
    path = os.environ.get("FORECAST_KEY_FILE", "key.json")
    if not os.path.exists(path):
        raise FileNotFoundError(f"Key file {path!r} not found. Set FORECAST_KEY_FILE to its absolute path.")
    return path


@mcp.tool()
def predict(series: list[float]) -> str:
    try:
        client = _get_client()
        response = client.post("/predict", json={"series": series})
        response.raise_for_status()
        return response.text
    except RuntimeError:
        raise
    except httpx.HTTPStatusError as exc:
        logger.exception("Could not run the forecast (HTTP %s)", exc.response.status_code)
        raise ToolError(f"Could not run the forecast (HTTP {exc.response.status_code})") from exc
    except Exception as exc:
        logger.exception("Could not run the forecast")
        raise ToolError("Could not run the forecast") from exc


@mcp.tool()
def list_models() -> str:
    try:
        with open(_credentials_file()) as handle:
            key = handle.read()
        response = httpx.get("https://forecast.example/models", headers={"X-Key": key})
        return response.text
    except FileNotFoundError as e:
        return f"Error: {str(e)}"
    except Exception as e:
        logger.exception("Error listing models")
        raise ToolError("Error listing models") from e
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "forecast"\ndependencies = ["mcp>=1.20,<2"]\n')
    return tmp_path


def fix() -> Result:
    return CliRunner().invoke(cli, ["check", ".", "--no-cache", "--jobs", "1", "--fix", "--unsafe-fixes", "--output-format", "concise"], catch_exceptions=False)


def test_a_helpers_builtin_advice_passes_the_rewritten_clause_and_its_own_clause_stays(project: Path) -> None:
    (project / "server.py").write_text(_FORECAST)
    first = fix()
    assert (project / "server.py").read_text() == _FORECAST_FIXED
    # The clause of its own keeps its text (still reported, with no fix); nothing more to fix.
    assert "server.py:56:16: MCP002 Tool 'list_models' returns the text of a caught FileNotFoundError" in first.output
    assert "fixed" not in fix().output


def test_a_builtin_raised_without_a_written_message_is_not_let_through(project: Path) -> None:
    # No sentence of the author: the message is a value read at run time. The rewrite needs no pass-through.
    helper = 'raise RuntimeError("FORECAST_TOKEN is not set. Add it to the server\'s env block in your MCP settings.")'
    assert helper in _FORECAST
    source = _FORECAST.replace(helper, "raise RuntimeError(os.environ.get('FORECAST_HINT'))")
    (project / "server.py").write_text(source)
    fix()
    fixed = (project / "server.py").read_text()
    assert "except RuntimeError:" not in fixed
    assert 'raise ToolError("Could not run the forecast") from exc' in fixed


_RENDER = """\
import time

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("render")


@mcp.tool()
def render_video(project: str, timeout: int = 600) -> dict:
    job = httpx.post("https://render.example/jobs", json={"project": project}).json()
    job_id = job["job_id"]
    deadline = time.time() + timeout
    while time.time() < deadline:
        state = httpx.get(f"https://render.example/jobs/{job_id}").json()
        if state["status"] == "done":
            return state
        time.sleep(5)
    return {"job_id": job_id, "status": "timeout", "message": f"Timed out after {timeout}s"}


@mcp.tool()
def cancel_job(job_id: str) -> dict:
    state = httpx.delete(f"https://render.example/jobs/{job_id}").json()
    if state.get("status") == "unknown":
        return {"job_id": job_id, "status": "error", "message": f"No job {job_id}"}
    return state
"""


def test_an_error_dicts_job_handle_stays_in_the_raised_message(project: Path) -> None:
    # The job still runs after the timeout: its id is what the next call (status, cancel) needs.
    # Where the message names it already, it is not repeated.
    (project / "server.py").write_text(_RENDER)
    fix()
    expected = _RENDER.replace(
        'return {"job_id": job_id, "status": "timeout", "message": f"Timed out after {timeout}s"}',
        'raise ToolError(f"Timed out after {timeout}s (job_id: {job_id})")',
    ).replace(
        'return {"job_id": job_id, "status": "error", "message": f"No job {job_id}"}',
        'raise ToolError(f"No job {job_id}")',
    ).replace("from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n")
    assert (project / "server.py").read_text() == expected
