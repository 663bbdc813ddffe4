"""Cached virtualenvs for the servers the probe tests start (mcp 1.x, fastmcp, a public server).

The probe's own client runs in the test environment; each server runs in a venv of its own, built
once per machine from pinned PyPI releases and reused by later runs (the key is the requirement
list and the Python version, so changing a pin builds a new one). When the package index cannot be
reached the tests that need the venv skip; any other failure to build it fails them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from network_support import index_host, index_reachable

# The releases the tests pin. mcp 1.30.0 is the last 1.x; fastmcp 4.2 runs on mcp 2.x.
MCP1 = ("mcp==1.30.0",)
FASTMCP = ("fastmcp==4.2.3", "httpx==0.28.1")
TIME_SERVER = ("mcp-server-time==2026.10.19",)

INSTALL_TIMEOUT = 900


def cache_root() -> Path:
    configured = os.environ.get("MCP_LINT_TEST_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mcp-lint-tests"


def _key(requirements: tuple[str, ...]) -> str:
    text = "\n".join([sys.version, *sorted(requirements)])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _python(directory: Path) -> Path:
    return directory / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _offline_skip_or_fail(requirements: tuple[str, ...], detail: str) -> None:
    """A failed install skips the test when the package index cannot be reached, and fails it
    otherwise (a bad pin or a broken build is a defect to see, not a skip)."""
    what = " ".join(requirements)
    if not index_reachable():
        pytest.skip(f"cannot install {what}: the package index ({{}}:{{}}) cannot be reached".format(*index_host()))
    pytest.fail(f"cannot install {what} although the package index can be reached: {detail}", pytrace=False)


def server_python(name: str, requirements: tuple[str, ...]) -> Path:
    """The Python of a venv holding `requirements`, built on first use; skips the test if it cannot be built."""
    directory = cache_root() / "venvs" / f"{name}-{_key(requirements)}"
    done = directory / ".complete"
    if done.exists():
        return _python(directory)
    # Build beside the final place and rename, so an interrupted build is never taken for a finished one.
    building = directory.with_name(directory.name + f".building-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    building.parent.mkdir(parents=True, exist_ok=True)
    venv.EnvBuilder(with_pip=True).create(building)
    try:
        completed = subprocess.run(
            [str(_python(building)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *requirements],
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        shutil.rmtree(building, ignore_errors=True)
        _offline_skip_or_fail(requirements, "timed out")
    if completed.returncode != 0:
        shutil.rmtree(building, ignore_errors=True)
        _offline_skip_or_fail(requirements, completed.stderr.strip()[-400:])
    if done.exists():  # another test run finished the same venv meanwhile: keep theirs, in use maybe
        shutil.rmtree(building, ignore_errors=True)
        return _python(directory)
    # The servers run with `python -m`, so the scripts' shebangs (naming the build path) do not matter.
    shutil.rmtree(directory, ignore_errors=True)
    building.rename(directory)
    venv.EnvBuilder(with_pip=False, upgrade=True).create(directory)  # pyvenv.cfg and links for the new place
    (directory / ".complete").write_text("\n".join(requirements) + "\n")
    return _python(directory)
