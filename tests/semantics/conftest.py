"""Runs batches of example servers in the framework venvs, once per release and test session."""

from __future__ import annotations

import json
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from .venvs import RELEASES, Release, python_for

RUNNER = Path(__file__).resolve().parent / "runner.py"
# Per batch: one interpreter start and one in-memory session per call; generous for 2 shared cores.
BATCH_TIMEOUT = 600
PARALLEL_BUILDS = 4


def run_batch(rel: Release, jobs: list[dict[str, Any]]) -> dict[str, Any]:
    """Run `jobs` (runner.py's format) under `rel`; one process per distinct `env` (fastmcp reads
    its settings from the environment when it is imported)."""
    python = python_for(rel)
    reports: dict[str, Any] = {}
    groups: dict[str, list[dict[str, Any]]] = {}
    for job in jobs:
        groups.setdefault(json.dumps(job.get("env") or {}, sort_keys=True), []).append(job)
    for env_key, group in groups.items():
        with tempfile.TemporaryDirectory(prefix="mcp-lint-semantics-") as tmp:
            jobs_file = Path(tmp) / "jobs.json"
            jobs_file.write_text(json.dumps(group), encoding="utf-8")
            env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "PYTHONDONTWRITEBYTECODE": "1", **json.loads(env_key)}
            completed = subprocess.run(
                [str(python), str(RUNNER), str(jobs_file)],
                capture_output=True,
                text=True,
                timeout=BATCH_TIMEOUT,
                cwd=tmp,
                env=env,
            )
        if completed.returncode != 0 or not completed.stdout.strip():
            raise AssertionError(f"runner failed under {rel.pin} (exit {completed.returncode}):\n{completed.stderr[-3000:]}")
        reports.update(json.loads(completed.stdout.strip().splitlines()[-1]))
    return reports


class Batches:
    """Runs each (kind, release) batch on first use and keeps its reports for the session."""

    def __init__(self) -> None:
        self._done: dict[tuple[str, str], dict[str, Any]] = {}
        self._prebuilt = False
        self._unavailable: dict[str, str] = {}

    def reports(self, kind: str, rel: Release, build_jobs) -> dict[str, Any]:
        if not self._prebuilt:
            self._prebuilt = True
            self._unavailable = prebuild(RELEASES)
        if rel.pin in self._unavailable:  # one attempt per session, not one per test
            pytest.skip(self._unavailable[rel.pin])
        key = (kind, rel.pin)
        if key not in self._done:
            self._done[key] = run_batch(rel, build_jobs(rel))
        return self._done[key]


def prebuild(releases: tuple[Release, ...]) -> dict[str, str]:
    """Build the missing venvs side by side (on a cold cache the installs, mostly waiting on
    downloads and disk, dominate the suite's time). Returns why each release that could not be
    built is unavailable (no network: PyPI unreachable); its tests skip with that reason."""
    unavailable = {}
    with ThreadPoolExecutor(max_workers=PARALLEL_BUILDS) as pool:
        futures = {rel.pin: pool.submit(python_for, rel) for rel in releases}
        for pin, future in futures.items():
            try:
                future.result()
            except pytest.skip.Exception as skipped:
                unavailable[pin] = str(skipped.msg)
    return unavailable


@pytest.fixture(scope="session")
def batches() -> Batches:
    return Batches()
