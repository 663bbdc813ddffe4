"""The bytecode of the methods `dataclasses` generates is kept between runs (generated_code.py).

Each case runs in a fresh interpreter with the store in a temporary directory: a first process
compiles and writes, a second one finds every source text it needs and compiles none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import mcp_lint

PACKAGE_ROOT = Path(mcp_lint.__file__).resolve().parents[1]

# Installs the store at STORE, defines a dataclass, reports how it behaves and what was compiled.
PROBE = """\
import dataclasses, json, sys
from pathlib import Path
from mcp_lint import generated_code
generated_code.store_path = lambda: Path(sys.argv[1])
generated_code.install()

@dataclasses.dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int = 0

p = Point(1, 2)
print(json.dumps({
    "repr": repr(p), "eq": p == Point(1, 2), "lt": Point(0) < p, "hash": hash(p) == hash(Point(1, 2)),
    "compiled_anew": generated_code._store.compiled_anew,
}))
generated_code.save()
"""


def run(store: Path, *, write: bool = True) -> dict[str, object]:
    """The probe's report; `write=False` runs it as `python -B` (no bytecode written)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    flags = [] if write else ["-B"]
    done = subprocess.run(
        [sys.executable, *flags, "-c", PROBE, str(store)], capture_output=True, text=True, check=True, cwd=PACKAGE_ROOT, env=env
    )
    return json.loads(done.stdout)


def test_a_second_run_compiles_none_of_the_methods_the_first_one_stored(tmp_path: Path) -> None:
    store = tmp_path / "methods.marshal"
    first = run(store)
    assert first["compiled_anew"] is True
    assert store.is_file()
    second = run(store)
    assert second["compiled_anew"] is False
    for result in (first, second):  # the class behaves as dataclasses makes it, either way
        assert result["repr"] == "Point(x=1, y=2)"
        assert result["eq"] is result["lt"] is result["hash"] is True


def test_a_damaged_store_is_ignored_and_replaced(tmp_path: Path) -> None:
    store = tmp_path / "methods.marshal"
    store.write_bytes(b"\x00not marshal data")
    result = run(store)
    assert result["repr"] == "Point(x=1, y=2)"
    assert result["compiled_anew"] is True
    assert run(store)["compiled_anew"] is False


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path: Path) -> None:
    store = tmp_path / "methods.marshal"
    assert run(store, write=False)["compiled_anew"] is True
    assert not store.exists()


def test_importing_mcp_lint_as_a_library_leaves_dataclasses_alone() -> None:
    code = "import dataclasses, mcp_lint.cli, mcp_lint.pipeline; print('exec' in vars(dataclasses))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE_ROOT)
    assert done.stdout.strip() == "False"


def test_the_command_installs_the_store_before_libcst_is_imported(tmp_path: Path) -> None:
    code = (
        "import sys, dataclasses\n"
        "from mcp_lint import cli, generated_code\n"
        "seen = []\n"
        "cli.main = lambda: seen.append(('exec' in vars(dataclasses), 'libcst' in sys.modules))\n"
        "generated_code.save = lambda: print(seen)\n"
        "cli.entry()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE_ROOT)
    assert done.stdout.strip() == "[(True, False)]"
