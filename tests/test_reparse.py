"""Parsing an edited module again from the pieces of its last parse (model/reparse.py, what
`mcp-lint server` does at every pause in typing) gives exactly libcst's tree of the whole module:
compared with `deep_equals` and the code generated, over the repository's own modules and their
edited versions, over tricky layouts, and over arbitrary modules; where a cut is in doubt the
module is parsed whole."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings

from lazy_strategies import python_source
from mcp_lint.model import reparse
from mcp_lint.model.parsing import parse_module

REPOSITORY = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reparse, "_pieces", reparse._Pieces(4))


def assert_same_tree(source: str) -> cst.Module:
    module = parse_module(source, ast.parse(source))
    assert module.deep_equals(cst.parse_module(source))
    assert module.code == source
    return module


def edits(source: str) -> list[str]:
    """What typing does: a line inserted at the top, in the middle, at the end; a statement
    changed; a blank line removed; the text with other line breaks and indentation."""
    lines = source.splitlines(keepends=True)
    middle = len(lines) // 2
    return [
        "# a comment\n" + source,
        "".join([*lines[:middle], "\n", *lines[middle:]]),
        source + "\nvalue = 1\n",
        source.replace("return", "return  ", 1),
        source.replace("\n\n", "\n", 1),
        source.replace("\n", "\r\n"),
        source.replace("    ", "\t"),
        source.rstrip("\n"),
    ]


MODULES = sorted(
    path for folder in ("mcp_lint", "examples") for path in (REPOSITORY / folder).rglob("*.py") if path.stat().st_size > 2000
)[::4]


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(REPOSITORY)) for p in MODULES])
def test_real_modules_and_their_edits(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert_same_tree(source)
    for edited in edits(source):
        try:
            ast.parse(edited)
        except SyntaxError:
            continue  # an edit that breaks indentation (tabs against spaces)
        assert_same_tree(edited)
    # The unchanged statements of an edited module are built of the very nodes of the last parse.
    base = parse_module(source, ast.parse(source))
    again = parse_module(source + "\nvalue = 1\n", ast.parse(source + "\nvalue = 1\n"))
    assert len(again.body) == len(base.body) + 1
    # (All but the last: the text after it, up to the end of the file, was its piece's.)
    assert all(new.body is old.body for new, old in zip(again.body, base.body[:-1]))


LAYOUTS = {
    "comments between statements": "import os\n\n# about f\n\n\ndef f():\n    return os.sep\n# after\nX = 1\n",
    "indented comment after a block": "def f():\n    return 1\n    # still f's\n\nX = 1\n",
    "spaces-only line after a block": "def f():\n    return 1\n    \nX = 1\n",
    "line continuation": "X = 1 + \\\n    2\nY = 3 \\\n\nZ = 4\n",
    "semicolons": "a = 1; b = 2\nc = 3\n",
    "decorators with comments": "@first\n# between\n@second(\n    1,\n)\ndef f():\n    pass\n",
    "header and footer": "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\n'''Doc.'''\nX = 1\n\n# the end\n",
    "one-line suites then blocks": "if X: pass\nelse:\n  y = 2\nclass A:\n    z = 1\n",
    "two-space module": "def f():\n  return 1\n\n\ndef g():\n    return 2\n",
    "tabs": "def f():\n\treturn 1\n\n\ndef g():\n\treturn 2\n",
    "crlf": "def f():\r\n    return 1\r\n\r\nX = 2\r\n",
    "mixed line breaks": "X = 1\r\ndef f():\n    return 1\n",
    "no trailing newline": "def f():\n    return 1\n\nX = 2",
    "match": "match command:\n    case [x]:\n        pass\n    case _:\n        pass\nY = 1\n",
    "try with handlers": "try:\n    import x\nexcept ImportError:\n    x = None\nelse:\n  pass\nfinally:\n        y = 1\n",
    "nested blocks first": "for a in b:\n    if a:\n            break\nwhile c:\n    pass\n",
    "form feed": "X = 1\n\x0c\ndef f():\n    pass\n",
    "only comments": "# nothing\n# here\n",
}


@pytest.mark.parametrize("source", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_tricky_layouts(source: str) -> None:
    assert_same_tree(source)
    assert_same_tree("# edited\n" + source)


def test_a_doubtful_cut_parses_the_whole_module() -> None:
    source = LAYOUTS["indented comment after a block"]
    assert reparse.reparse(source, ast.parse(source), cst.parse_module) is None
    assert reparse.reparse(LAYOUTS["comments between statements"], ast.parse(LAYOUTS["comments between statements"]), cst.parse_module) is not None


def test_a_last_line_break_left_out_of_libcsts_code_still_decides_the_newline() -> None:
    # Alone, the last piece's `\r\n` is its default newline; in the module, `\r` is, and the tree
    # spells the `\r\n` out. libcst's code of the piece drops that line break (after a comment
    # ending in a backslash), so only the text shows the pieces disagree: parse it whole.
    source = "x  # a\ry  # b\\\r\n"
    assert reparse.reparse(source, ast.parse(source), cst.parse_module) is None
    assert parse_module(source, ast.parse(source)).deep_equals(cst.parse_module(source))


def test_off_unless_enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reparse, "_pieces", None)
    source = LAYOUTS["comments between statements"]
    assert reparse.reparse(source, ast.parse(source), cst.parse_module) is None


def test_only_the_last_few_modules_pieces_are_kept() -> None:
    sources = [f"X = {n}\n\n\ndef f{n}():\n    return {n}\n" for n in range(6)]
    for source in sources:
        assert_same_tree(source)
    assert reparse._pieces is not None
    kept = set(reparse._pieces.by_text)
    assert not any(f"X = {n}" in text for text in kept for n in (0, 1))
    assert any("X = 5" in text for text in kept)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(python_source())
def test_arbitrary_modules(source: str) -> None:
    try:
        tree = ast.parse(source)
        expected = cst.parse_module(source)
    except Exception:  # noqa: BLE001 - not for both parsers: nothing to compare
        return
    module = reparse.reparse(source, tree, cst.parse_module)
    if module is not None:
        assert module.deep_equals(expected)
        assert module.code == expected.code  # (libcst drops a last line of spaces after a blank one)
