"""The trusted parse builds the very tree libcst's own parse builds, and leaves validation on."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst._nodes.base import CSTNode

from mcp_lint.model import parsing

SOURCES = [
    *sorted((Path(__file__).resolve().parents[1] / "mcp_lint").rglob("*.py")),
    *sorted((Path(__file__).resolve().parents[1] / "examples").rglob("*.py")),
]


def test_the_switch_applies_to_the_installed_libcst() -> None:
    # If libcst changes __post_init__, the module falls back to the plain parse; this says so
    # loudly instead of silently losing the speed.
    assert parsing._ONLY_VALIDATES


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_same_tree_as_libcst(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    trusted = parsing.parse_module(source)
    assert trusted.deep_equals(cst.parse_module(source))
    assert trusted.code == source


def test_validation_is_back_on_after_a_parse_and_after_a_syntax_error() -> None:
    parsing.parse_module("x = 1\n")
    with pytest.raises(cst.ParserSyntaxError):
        parsing.parse_module("def broken(:\n")
    assert CSTNode.__post_init__ is parsing._VALIDATING
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


def test_a_libcst_whose_post_init_does_more_is_parsed_the_ordinary_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsing, "_ONLY_VALIDATES", False)
    calls: list[CSTNode] = []
    real = CSTNode.__post_init__

    def counting(self: CSTNode) -> None:
        calls.append(self)
        real(self)

    monkeypatch.setattr(CSTNode, "__post_init__", counting)
    parsing.parse_module("x = 1\n")
    assert calls  # the nodes went through __post_init__
