"""lazy_compile: a module's pattern constant is compiled on first use and answers as re.compile's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_lint.lazy_re import lazy_compile

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_lint"


@pytest.mark.parametrize(
    ("pattern", "flags", "text"),
    [
        (r"\b(?:failed|error)\s+to\s+(?P<what>\w+)", re.IGNORECASE, "Error to Connect, then FAILED TO read"),
        (rb"^[ \t]*from[ \t]+([.\w]+)", re.MULTILINE, b"import os\nfrom .x import y\n  from a.b import c\n"),
    ],
)
def test_answers_as_the_compiled_pattern(pattern, flags, text):
    lazy, eager = lazy_compile(pattern, flags), re.compile(pattern, flags)
    first = lazy.search(text)
    assert first is not None and first.group(0) == eager.search(text).group(0)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert lazy.findall(text) == eager.findall(text)
    dash = b"-" if isinstance(text, bytes) else "-"
    assert lazy.sub(dash, text) == eager.sub(dash, text)
    assert lazy.split(text) == eager.split(text)
    assert (lazy.match(text) is None) == (eager.match(text) is None)
    assert lazy.groupindex == eager.groupindex and lazy.groups == eager.groups
    assert (lazy.pattern, lazy.flags) == (pattern, flags)


def test_compiled_on_first_use_only(monkeypatch):
    compiled: list[str] = []
    real = re.compile

    def counting(pattern, flags=0):
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(re, "compile", counting)
    lazy = lazy_compile(r"not\s+found")
    assert compiled == []
    assert lazy.search("Item not  found") is not None
    assert lazy.search("found") is None
    assert lazy.fullmatch("not found") is not None
    assert compiled == [r"not\s+found"]


def test_a_bad_pattern_fails_where_it_is_used():
    lazy = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        lazy.search("x")


def test_importing_the_analysis_compiles_no_pattern_of_mcp_lint():
    """The one-file start: libcst, the model and every default rule imported, and no regular
    expression of mcp-lint's own modules compiled until a file uses it."""
    probe = (
        "import re, sys\n"
        "made = []\n"
        "real = re.compile\n"
        "def counting(pattern, flags=0):\n"
        "    caller = sys._getframe(1).f_globals.get('__name__', '')\n"
        "    if caller.startswith('mcp_lint'):\n"
        "        made.append((caller, pattern))\n"
        "    return real(pattern, flags)\n"
        "re.compile = counting\n"
        "from mcp_lint import per_file, registry, prefilter, project_links, cli\n"
        "per_file.load_analysis(frozenset(r.code for r in registry.tree_rules()))\n"
        "print(made)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_no_module_compiles_a_pattern_constant_eagerly():
    """A new `NAME = re.compile(...)` at a module's top level would be compiled at every start."""
    eager = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "probe" not in path.parts  # `mcp-lint probe` runs a server: its start is not the linter's
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"[A-Za-z_]\w*(?:\s*:[^=]+)?\s*=\s*re\.compile\(", line)
    ]
    assert eager == []
