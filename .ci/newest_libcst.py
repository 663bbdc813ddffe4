"""CI step: the libcst internals mcp-lint relies on, checked on the newest libcst release.

mcp-lint reads libcst internals for speed: `model/parsing.py` swaps `CSTNode.__post_init__`,
`model/positions.py` generates code for parts of a module, `model/walk.py` reads node fields
directly. pyproject.toml pins libcst to the releases whose tests pass; the test suite runs on the
newest release the pin admits (what a fresh install gets). This step runs the tests of those
internals on the newest release on the package index, in a venv cached under ~/.cache:

- newest release == the one the suite just ran on: nothing more to run;
- a newer release outside the pin passes: say the pin can be widened (exit 0);
- it fails: say so and keep the pin (exit 0: users get the pinned releases, which passed), unless
  the pin admits it (exit 1: a fresh install would get the broken combination).

Without a reachable package index it skips with one line. Run with the CI venv's python:
`python3 .ci/newest_libcst.py`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from importlib.metadata import version
from pathlib import Path

from packaging.specifiers import SpecifierSet

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mcp-lint-ci" / "newest-libcst"
# The tests that compare the internals-based shortcuts with libcst's own behaviour.
INTERNALS_TESTS = ("tests/test_parsing.py", "tests/test_positions.py", "tests/test_walk.py")
# What those tests import besides libcst (mcp-lint itself comes from the checkout, on PYTHONPATH).
TEST_DEPENDENCIES = ("pytest", "hypothesis", "hypothesmith", "click", "rich", "packaging", "pathspec")
PIP = ("-m", "pip", "--disable-pip-version-check", "--quiet", "--timeout", "20", "--retries", "1")


def pinned_range() -> str:
    """The libcst requirement of pyproject.toml, e.g. '>=1.8.4,<1.10'."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'"libcst([^";]*)', text)
    return found.group(1).strip() if found else ""


def python_of(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def newest_release() -> str | None:
    """The newest libcst on the package index (pip resolves it without installing), or None."""
    ask = ["install", "--dry-run", "--ignore-installed", "--no-deps", "--report", "-", "libcst"]
    done = subprocess.run([sys.executable, *PIP, *ask], capture_output=True, text=True)
    if done.returncode != 0:
        _say_skipped(done)
        return None
    return json.loads(done.stdout)["install"][0]["metadata"]["version"]


def prepare(env: Path, release: str) -> bool:
    """The cached venv with the test dependencies and libcst `release`."""
    if not python_of(env).exists():  # first run, or the interpreter it was made with is gone
        venv.create(env, with_pip=True, clear=True)
    # Installed once, then already satisfied (no download); libcst moves to the release asked for.
    for command in (["install", *TEST_DEPENDENCIES], ["install", f"libcst=={release}"]):
        done = subprocess.run([str(python_of(env)), *PIP, *command], capture_output=True, text=True)
        if done.returncode != 0:
            _say_skipped(done)
            return False
    return True


def _say_skipped(done: subprocess.CompletedProcess[str]) -> None:
    tail = " ".join(done.stderr.strip().splitlines()[-1:])
    print(f"newest libcst: skipped: pip could not install from the package index ({tail[-200:]})")


def run_internals_tests(env: Path) -> bool:
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [str(python_of(env)), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *INTERNALS_TESTS],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        print("\n".join(done.stdout.splitlines()[-25:]))
    return done.returncode == 0


def main() -> int:
    tested = version("libcst")
    newest = newest_release()
    if newest is None:
        return 0
    pin = pinned_range()
    if newest == tested:
        print(f"newest libcst: {newest} is the release the test suite ran on (pin: libcst{pin})")
        return 0
    if not prepare(CACHE, newest):
        return 0
    admitted = SpecifierSet(pin).contains(newest, prereleases=True)
    if run_internals_tests(CACHE):
        advice = "" if admitted else f"; widen the pin libcst{pin} in pyproject.toml to admit it"
        print(f"newest libcst: {newest} passes the internals tests{advice}")
        return 0
    if admitted:  # a fresh install gets a release that breaks them
        print(f"newest libcst: FAILED: {newest}, admitted by the pin libcst{pin}, fails the internals tests (above)")
        return 1
    print(f"newest libcst: {newest} fails the internals tests (above); keep the pin libcst{pin} until they are fixed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
