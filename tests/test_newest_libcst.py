"""The CI step that runs the libcst internals tests on the newest libcst (.ci/newest_libcst.py)."""

from __future__ import annotations

from importlib.metadata import version

import pytest
from packaging.specifiers import SpecifierSet
from script_support import load_script


@pytest.fixture
def step(monkeypatch: pytest.MonkeyPatch):
    """The step's module, with the suite's libcst at 1.9.0, the pin at >=1.8.4,<1.10, no install."""
    module = load_script(".ci/newest_libcst.py", "newest_libcst")
    monkeypatch.setattr(module, "version", lambda name: "1.9.0")
    monkeypatch.setattr(module, "prepare", lambda env, release: True)
    monkeypatch.setattr(module, "pinned_range", lambda: ">=1.8.4,<1.10")
    return module


def test_the_installed_libcst_is_one_the_pin_admits() -> None:
    step = load_script(".ci/newest_libcst.py", "newest_libcst_pin")
    assert step.pinned_range().startswith(">=")  # the range pyproject.toml pins, read by the step
    assert SpecifierSet(step.pinned_range()).contains(version("libcst"))


def test_nothing_runs_when_the_suite_ran_on_the_newest_release(step, monkeypatch, capsys) -> None:
    monkeypatch.setattr(step, "newest_release", lambda: "1.9.0")
    monkeypatch.setattr(step, "run_internals_tests", lambda env: pytest.fail("ran the tests again"))
    assert step.main() == 0
    assert "1.9.0 is the release the test suite ran on" in capsys.readouterr().out


def test_a_newer_release_outside_the_pin_only_advises(step, monkeypatch, capsys) -> None:
    monkeypatch.setattr(step, "newest_release", lambda: "1.10.0")
    monkeypatch.setattr(step, "run_internals_tests", lambda env: True)
    assert step.main() == 0
    assert "1.10.0 passes the internals tests; widen the pin libcst>=1.8.4,<1.10" in capsys.readouterr().out
    monkeypatch.setattr(step, "run_internals_tests", lambda env: False)
    assert step.main() == 0
    assert "1.10.0 fails the internals tests (above); keep the pin" in capsys.readouterr().out


def test_a_failing_release_the_pin_admits_fails_the_step(step, monkeypatch, capsys) -> None:
    monkeypatch.setattr(step, "newest_release", lambda: "1.9.1")
    monkeypatch.setattr(step, "run_internals_tests", lambda env: False)
    assert step.main() == 1
    assert "FAILED: 1.9.1, admitted by the pin libcst>=1.8.4,<1.10" in capsys.readouterr().out


def test_without_a_package_index_the_step_skips(step, monkeypatch) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "")
    assert step.newest_release() is None
