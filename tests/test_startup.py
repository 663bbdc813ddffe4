"""Start-up cost: what `mcp-lint` imports for the commands that must feel instant.

Each case runs in a fresh interpreter and lists the heavy modules left in `sys.modules`.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("libcst", "rich", "mcp_lint.output.full", "mcp_lint.output.json", "mcp_lint.output.sarif", "mcp_lint.rules")

# Runs the CLI in-process with the given arguments, then prints the heavy modules it imported.
PROBE = """\
import json, sys
from mcp_lint.cli import main
sys.argv = ["mcp-lint", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
heavy = {heavy}
print("\\nIMPORTED=" + json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("libcst", "rich") or m in heavy)))
"""


def imported(args: list[str], cwd: Path | None = None) -> list[str]:
    code = PROBE.format(heavy=repr(set(HEAVY)))
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)], capture_output=True, text=True, cwd=cwd, check=False
    )
    line = done.stdout.rsplit("IMPORTED=", 1)[-1]
    return json.loads(line)


def test_importing_the_cli_loads_nothing_heavy() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys, mcp_lint.cli; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = {name.split(".")[0] for name in json.loads(done.stdout)}
    assert not loaded & {"libcst", "rich"}


def test_version_loads_nothing_heavy() -> None:
    assert imported(["--version"]) == []


def test_a_warm_check_does_not_import_libcst(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n\n\n@mcp.tool()\ndef ping() -> str:\n'
        '    raise ValueError("Invalid input")\n',
        encoding="utf-8",
    )
    args = ["check", "server.py", "--output-format", "concise"]
    cold = imported(args, cwd=tmp_path)
    assert "libcst" in cold and "mcp_lint.rules" in cold  # the first run analysed
    assert imported(args, cwd=tmp_path) == []


def test_a_warm_check_rereading_an_unchanged_answer_of_a_settings_file_does_not_import_libcst(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["fastmcp>=3"]\n', encoding="utf-8")
    (tmp_path / ".env").write_text("FASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    (tmp_path / "server.py").write_text(
        'from fastmcp import FastMCP\n\nmcp = FastMCP("x")\n\n\n@mcp.tool\ndef ping(n: int) -> str:\n'
        '    raise ValueError(f"n must be positive, got {n}")\n',
        encoding="utf-8",
    )
    args = ["check", ".", "--output-format", "concise"]
    assert "libcst" in imported(args, cwd=tmp_path)
    assert imported(args, cwd=tmp_path) == []
    # Rewritten with the same answer: the stored run is re-checked by reading the file, not linked.
    (tmp_path / ".env").write_text("DEBUG=0\nFASTMCP_MASK_ERROR_DETAILS=true\n", encoding="utf-8")
    assert imported(args, cwd=tmp_path) == []


@pytest.mark.parametrize("fmt", ["concise", "json"])
def test_a_cold_one_file_check_imports_only_its_output_format(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "tool.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    loaded = imported(["check", "tool.py", "--no-cache", "--output-format", fmt], cwd=tmp_path)
    assert "rich" not in loaded
    assert [m for m in loaded if m.startswith("mcp_lint.output.")] == ([f"mcp_lint.output.{fmt}"] if fmt == "json" else [])


def test_deselected_rules_are_never_imported(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text('from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("d")\n', encoding="utf-8")
    code = (
        "import sys\nfrom mcp_lint.cli import main\n"
        f"sys.argv = ['mcp-lint', 'check', {str(server)!r}, '--select', 'MCP002', '--no-cache', '-q']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('mcp_lint.rules.mcp')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imported = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    # The selected rule's modules only (a rule may span several, all named `mcp002_*`).
    assert "mcp_lint.rules.mcp002_raw_exception_text" in imported
    assert [m for m in imported if not m.startswith("mcp_lint.rules.mcp002_")] == []


def test_the_rules_package_runs_the_tree_rules_of_the_registry() -> None:
    from mcp_lint.registry import tree_rules
    from mcp_lint.rules import all_rules

    assert tuple(rule.code for rule in all_rules()) == tuple(info.code for info in tree_rules())


# Standard-library modules a one-file `--no-cache` run never needs: a process pool, hashing and
# pickling for the cache, the email parser, packaging's full PEP 508 parser and its tags,
# logging. Each costs a pre-commit hook several milliseconds on every commit. And libcst's matchers:
# a generated class per node type, about a tenth of a second to import (the model uses exact-type
# checks instead).
NOT_FOR_ONE_FILE = (
    "libcst.matchers",
    "multiprocessing",
    "concurrent.futures.process",
    "_hashlib",
    "hashlib",
    "pickle",
    "tempfile",
    "email.parser",
    "packaging.requirements",
    "packaging.tags",
    "logging",
)


def test_a_cold_one_file_check_of_a_pinned_server_stays_lean(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "w"\ndependencies = ["mcp[cli]>=1.9,<2", "httpx"]\n')
    dist = tmp_path / "w-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: w\nVersion: 0.1\nRequires-Dist: mcp>=1.9\n")
    (tmp_path / "server.py").write_text(
        'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n\n\n@mcp.tool()\ndef ping() -> str:\n'
        '    raise ValueError("Invalid input")\n',
        encoding="utf-8",
    )
    code = (
        "import json, sys\nfrom mcp_lint.cli import main\n"
        "sys.argv = ['mcp-lint', 'check', 'server.py', '--no-cache', '--output-format', 'concise']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print('\\nIMPORTED=' + json.dumps(sorted(m for m in {NOT_FOR_ONE_FILE!r} if m in sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert "server.py:8:" in done.stdout  # it did lint, with the pin (MCP002 on mcp 1.x FastMCP)
    assert json.loads(done.stdout.rsplit("IMPORTED=", 1)[-1]) == []


SERVER = (
    'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n\n\n@mcp.tool()\ndef ping() -> str:\n'
    '    raise ValueError("Invalid input")\n'
)


def _one_file_run(tmp_path: Path, report: str, args: tuple[str, ...] = ("--isolated",)) -> tuple[str, object]:
    """Lint tmp_path/server.py in a fresh interpreter (`--no-cache`, concise); `report` is an
    expression evaluated afterwards, its value printed as JSON. (stdout, that value)"""
    code = (
        "import gc, json, sys\nfrom mcp_lint.cli import main\n"
        f"sys.argv = ['mcp-lint', 'check', 'server.py', '--no-cache', '--output-format', 'concise', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print('\\nREPORT=' + json.dumps({report}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False)
    head, _, tail = done.stdout.rpartition("\nREPORT=")
    assert tail, done.stderr
    return head, json.loads(tail)


def test_a_one_file_run_freezes_what_its_imports_made(tmp_path: Path) -> None:
    # libcst's node classes, the model's and the rules' tables live for the whole run: frozen,
    # no collection walks them again (a third of a one-file run's collector time otherwise).
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    report = (
        "[gc.isenabled(), gc.get_freeze_count(),"
        " [any(o is c for o in gc.get_objects()) for c in (sys.modules['libcst'].Module,"
        " sys.modules['mcp_lint.model.summary'].ModuleSummary, sys.modules['mcp_lint.rules.mcp002_raw_exception_text'].RawExceptionText)]]"
    )
    out, (enabled, frozen, tracked) = _one_file_run(tmp_path, report)
    assert "server.py:8:22: MCP003" in out  # it did analyse
    assert enabled  # the collector is back on for whatever the run does next
    assert frozen > 10_000
    assert tracked == [False, False, False]  # out of every generation the collector walks


def test_an_isolated_one_file_run_reads_no_toml_and_compiles_no_noqa_pattern(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    report = (
        "[sorted(m for m in ('tomllib', 'tomli') if m in sys.modules),"
        " sys.modules['mcp_lint.noqa'].line_directive.cache_info().currsize"
        " + sys.modules['mcp_lint.noqa'].file_directive.cache_info().currsize]"
    )
    out, (toml_modules, noqa_patterns) = _one_file_run(tmp_path, report)
    assert "server.py:8:22: MCP003" in out
    assert toml_modules == []
    assert noqa_patterns == 0


def test_a_directive_or_a_configuration_still_loads_what_it_needs(tmp_path: Path) -> None:
    # The negative side of the test above: a file mentioning noqa compiles the patterns (and its
    # directive still suppresses), a project's pyproject.toml is still read.
    (tmp_path / "pyproject.toml").write_text('[tool.mcp-lint]\nignore = ["MCP005"]\n', encoding="utf-8")
    (tmp_path / "server.py").write_text(SERVER.replace('input")\n', 'input")  # noqa: MCP003\n'), encoding="utf-8")
    report = "['tomllib' in sys.modules or 'tomli' in sys.modules, sys.modules['mcp_lint.noqa'].line_directive.cache_info().currsize]"
    out, (toml_loaded, noqa_patterns) = _one_file_run(tmp_path, report, args=())
    assert "MCP003" not in out
    assert toml_loaded is True
    assert noqa_patterns == 1
