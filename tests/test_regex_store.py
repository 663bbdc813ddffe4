"""The compiled programs of mcp-lint's regular expressions are kept between runs (regex_store.py).

The end-to-end cases run in fresh interpreters with the store in a temporary directory: a first
process compiles and writes, a second one finds every program it needs and makes none, and its
patterns are the ones `re.compile` gives (equal programs, same groups, same matches).
"""

from __future__ import annotations

import importlib
import json
import marshal
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mcp_lint
from mcp_lint import regex_store
from mcp_lint.lazy_re import LazyPattern

PACKAGE_ROOT = Path(mcp_lint.__file__).resolve().parents[1]

# Installs the store at argv[1], compiles three lazy patterns, reports what they answer.
PROBE = r"""
import json, re, sys
from pathlib import Path
from mcp_lint import regex_store
from mcp_lint.lazy_re import lazy_compile
regex_store.store_path = lambda: Path(sys.argv[1])
regex_store.install()
cases = [
    (lazy_compile(r"\b(?:failed|error)\s+to\s+(?P<what>\w+)", re.IGNORECASE), "Error to Connect, then FAILED TO read"),
    (lazy_compile(rb"^[ \t]*from[ \t]+([.\w]+)", re.MULTILINE), b"import os\nfrom .x import y\n  from a.b import c\n"),
    (lazy_compile(r"(?x) (\d+) \s* (?:ms|s)\b"), "took 120 ms, then 3s"),
]
report = []
for lazy, text in cases:
    eager = re.compile(lazy.pattern, lazy.flags)
    found = [m.group(0) for m in lazy.finditer(text)]
    report.append({
        "equal": lazy._compile() == eager,
        "found": [f.decode() if isinstance(f, bytes) else f for f in found],
        "same": found == [m.group(0) for m in eager.finditer(text)],
        "groups": [lazy.groups, sorted(lazy.groupindex.items())] == [eager.groups, sorted(eager.groupindex.items())],
    })
print(json.dumps({"cases": report, "made_anew": regex_store._store.made_anew}))
regex_store.save()
"""


def run(store: Path, *, write: bool = True) -> dict[str, object]:
    """The probe's report; `write=False` runs it as `python -B` (no bytecode written)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    flags = [] if write else ["-B"]
    done = subprocess.run(
        [sys.executable, *flags, "-c", PROBE, str(store)], capture_output=True, text=True, check=True, cwd=PACKAGE_ROOT, env=env
    )
    return json.loads(done.stdout)


def test_a_second_run_makes_none_of_the_programs_the_first_one_stored(tmp_path: Path) -> None:
    store = tmp_path / "programs.marshal"
    first = run(store)
    assert first["made_anew"] is True
    assert store.is_file()
    second = run(store)
    assert second["made_anew"] is False
    for result in (first, second):  # the patterns are re.compile's, either way
        assert [case["found"] for case in result["cases"]] == [
            ["Error to Connect", "FAILED TO read"],
            ["from .x", "  from a.b"],
            ["120 ms", "3s"],
        ]
        assert all(case["equal"] and case["same"] and case["groups"] for case in result["cases"])


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path: Path) -> None:
    store = tmp_path / "programs.marshal"
    assert run(store, write=False)["made_anew"] is True
    assert not store.exists()


def test_a_damaged_store_only_compiles_again(tmp_path: Path) -> None:
    store = tmp_path / "programs.marshal"
    run(store)
    damaged = {key: (flags, [999, 1, 2], groups, index, names) for key, (flags, _, groups, index, names) in marshal.loads(store.read_bytes()).items()}
    store.write_bytes(marshal.dumps(damaged))
    again = run(store)
    assert again["made_anew"] is True
    assert all(case["equal"] and case["same"] for case in again["cases"])
    store.write_bytes(b"not a store")
    assert all(case["equal"] for case in run(store)["cases"])


def test_a_locale_pattern_is_not_stored() -> None:
    pattern = rb"\w+"
    assert regex_store._program_of(pattern, re.LOCALE, re.compile(pattern, re.LOCALE)) is None
    assert regex_store._program_of(pattern, 0, re.compile(pattern)) is not None


def test_a_program_that_does_not_give_back_the_pattern_is_not_stored() -> None:
    assert regex_store._program_of(r"a+b", 0, re.compile(r"a+c")) is None


def _lazy_patterns() -> list[LazyPattern]:
    found: dict[int, LazyPattern] = {}
    for module in pkgutil.walk_packages(mcp_lint.__path__, "mcp_lint."):
        if ".probe" in module.name or module.name.endswith("__main__"):
            continue  # `mcp-lint probe` runs a server; __main__ runs the command
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:  # an optional extra (the language server's) not installed
            continue
        for value in vars(loaded).values():
            if type(value) is LazyPattern:
                found[id(value)] = value
    return list(found.values())


def test_every_lazy_pattern_of_mcp_lint_is_stored_as_re_compile_makes_it() -> None:
    patterns = _lazy_patterns()
    assert len(patterns) > 50
    for lazy in patterns:
        eager = re.compile(lazy.pattern, lazy.flags)
        program = regex_store._program_of(lazy.pattern, int(lazy.flags), eager)
        assert program is not None, lazy
        assert marshal.loads(marshal.dumps(program)) == program
        restored = regex_store._store_compile(lazy.pattern, program)
        assert restored == eager and restored.groupindex == eager.groupindex and restored.groups == eager.groups


@pytest.mark.parametrize("flags", [0, re.IGNORECASE, re.IGNORECASE | re.MULTILINE, re.MULTILINE | re.DOTALL, re.ASCII | re.DOTALL])
def test_flags_and_groups_come_back(flags: int) -> None:
    pattern = r"(?P<head>\w+)[ \t]*(?:=|:)\s*(?P<tail>[^#\n]*)(#.*)?"
    eager = re.compile(pattern, flags)
    program = regex_store._program_of(pattern, int(flags), eager)
    assert program is not None
    restored = regex_store._store_compile(pattern, program)
    text = "Name = value # note\nOther: thing\n"
    assert restored.flags == eager.flags
    assert [m.groupdict() for m in restored.finditer(text)] == [m.groupdict() for m in eager.finditer(text)]


# A pool forked from a process with the store installed: a worker compiles a pattern the parent
# never used, and writes it when it ends; the parent's write keeps it.
WORKER_PROBE = r"""
import json, multiprocessing, re, sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from mcp_lint import regex_store
from mcp_lint.lazy_re import lazy_compile
regex_store.store_path = lambda: Path(sys.argv[1])
regex_store.install()
in_parent = lazy_compile(r"parent\s+(\w+)")
in_worker = lazy_compile(r"worker\s+(?P<name>\w+)")

def work(text):
    return in_worker.search(text).group("name")

in_parent.search("parent one")
with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"), initializer=regex_store.save_when_worker_ends) as pool:
    found = pool.submit(work, "the worker two").result()
stored = sorted(pattern for pattern, _ in regex_store._read(Path(sys.argv[1])))
print(json.dumps({"found": found, "stored_by_worker": stored}))
regex_store.save()
print(json.dumps(sorted(pattern for pattern, _ in regex_store._read(Path(sys.argv[1])))))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool's workers are forked")
def test_a_pool_worker_writes_the_programs_it_made(tmp_path: Path) -> None:
    store = tmp_path / "programs.marshal"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-c", WORKER_PROBE, str(store)], capture_output=True, text=True, check=True, cwd=PACKAGE_ROOT, env=env
    )
    worker_report, after_parent = (json.loads(line) for line in done.stdout.splitlines())
    assert worker_report["found"] == "two"
    assert r"worker\s+(?P<name>\w+)" in worker_report["stored_by_worker"]  # with what it inherited
    assert after_parent == [r"parent\s+(\w+)", r"worker\s+(?P<name>\w+)"]  # both kept
