"""Metamorphic: code a reviewer would call the same gets the same verdicts.

Every python example of the rule pages (rules/*.md), of the catalogues of shapes (tests/shapes/)
and of the rule classes (VALID/INVALID) is linted as written and after each transform of
`transforms.py`: consistent renaming of the nouns in the module's own names (singular and plural,
including singulars that end in "s": `get_note(note_id)` and `get_address(address_id)`),
exchanging independent statements, moving a tool into a module of its own, and saying its
failure wording in another of the six languages. The findings must be the same: the same codes
on the same rows (on the same lines of code where the transform moves lines).

An example a transform changes the verdict of is a bug of the rules; a known one is listed in
`KNOWN` as a strict xfail with its cause, so it fails the day the cause is fixed.
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from pathlib import Path
from typing import Mapping, Sequence

import libcst
import pytest

from mcp_lint.config import SettingsResolver
from mcp_lint.fileio import SourceFile
from mcp_lint.per_file import analyze_text
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import link
from mcp_lint.rules import all_rules

from .transforms import LANGUAGES, NOUN_MAPS, move_tool, rename_nouns, swap_statements, swap_definitions, translate


def _examples() -> list[tuple[str, str, str | None, str, dict[str, str]]]:
    """(id, code, target, the page's rule, project files) of every python example."""
    from test_rule_docs import _all_blocks

    found = []
    for block in _all_blocks():
        if block.lang == "python" and "xfail" not in block.options:
            found.append((block.id, block.text, block.options.get("target"), block.code, block.env_files()))
    for rule in all_rules():
        for kind in ("INVALID", "VALID"):
            for index, example in enumerate(getattr(rule, kind), start=1):
                found.append((f"{rule.code}-{kind.lower()}-{index}", example.code, example.target, rule.code, {}))
    return [e for e in found if _parses(e[1])]


def _parses(text: str) -> bool:
    """The transforms need a syntax tree: MCP000's examples (syntax errors) have none."""
    try:
        libcst.parse_module(text)
    except libcst.ParserSyntaxError:
        return False
    return True


_ALL = _examples()


def lint_modules(files: Mapping[str, str], target: str | None, code: str, env_files: Mapping[str, str]) -> list[tuple[str, int, str]]:
    """(code, row, file) of the findings of the modules `files` (name -> text) linted as one
    project, in memory, as `lint_source` lints one."""
    return list(_lint(tuple(files.items()), target, code, tuple(env_files.items())))


@functools.lru_cache(maxsize=None)
def _lint(files: tuple[tuple[str, str], ...], target: str | None, code: str, env_files: tuple[tuple[str, str], ...]) -> tuple:
    """Cached: each example's own verdict is asked by every transform."""
    overrides: dict[str, object] = {"select": ["MCP0", code]}
    if target:
        overrides["target"] = target
        overrides["target_origin"] = "[tool.mcp-lint] target"
    resolver = SettingsResolver(isolated=True, overrides=overrides)
    outcomes = [analyze_text(SourceFile(text, "utf-8", "\n"), Path(name), name) for name, text in files]
    findings, errors = link(outcomes, resolver, PinSource(resolver, declared=False, env_files=dict(env_files) or None))
    assert not errors, errors
    return tuple(sorted({(f.code, f.location.row, Path(f.filename).name) for f in findings}))


def _rows(text: str, target: str | None, code: str, env: Mapping[str, str]) -> list[tuple[str, int]]:
    return [(c, row) for c, row, _ in lint_modules({"server.py": text}, target, code, env)]


def _by_line(files: Mapping[str, str], findings: list[tuple[str, int, str]]) -> Counter[tuple[str, str]]:
    """The findings as (code, the text of the line they are on): comparable across moved lines."""
    return Counter((c, files[name].splitlines()[row - 1].strip()) for c, row, name in findings)


# Verdict changes known today, by (transform, example id): the cause of each, a strict xfail (it
# fails the day the cause is fixed, and the entry must go).
_CROSS_MODULE_STATE = "MCP004 does not see a write to module state imported from another module of the project"
KNOWN: dict[tuple[str, str], str] = {
    ("move", "MCP004-example-python-3"): _CROSS_MODULE_STATE,
    ("move", "MCP004-example-python-4"): _CROSS_MODULE_STATE,
    ("move", "shapes-MCP004-example-python-6"): _CROSS_MODULE_STATE,
    ("move", "MCP004-what-is-not-flagged-python-8"): _CROSS_MODULE_STATE,
    ("move", "MCP008-use-instead-python-2"): (
        "MCP008 does not follow a context manager of another module that turns the project's exception into a ToolError"
    ),
}


# The default run gives each example one of the variants of a transform (the noun maps, the
# languages) in turn, so every variant runs on a sixth or a half of the examples and the file
# stays within seconds; MCP_LINT_METAMORPHIC=full runs every example in every variant.
FULL = os.environ.get("MCP_LINT_METAMORPHIC") == "full"


def examples(transform: str, variants: Sequence[str] = ("",)) -> list:
    """Every example as a parameter (with its variant first, when there are several); a known
    verdict change of `transform` a strict xfail."""
    params = []
    for index, example in enumerate(_ALL):
        reason = KNOWN.get((transform, example[0]))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        chosen = variants if FULL else [variants[index % len(variants)]]
        for variant in chosen:
            values = (variant, *example) if variant else example
            params.append(pytest.param(*values, id=f"{example[0]}-{variant}" if variant else example[0], marks=marks))
    return params


@pytest.mark.parametrize(("nouns", "example_id", "text", "target", "code", "env"), examples("rename", list(NOUN_MAPS)))
def test_renaming_nouns_changes_no_verdict(nouns: str, example_id: str, text: str, target: str | None, code: str, env: dict) -> None:
    renamed = rename_nouns(text, NOUN_MAPS[nouns])
    if renamed is None:
        return
    assert _rows(renamed, target, code, env) == _rows(text, target, code, env), renamed


@pytest.mark.parametrize(("example_id", "text", "target", "code", "env"), examples("swap"))
def test_exchanging_independent_statements_changes_no_verdict(example_id: str, text: str, target: str | None, code: str, env: dict) -> None:
    for transform in (swap_definitions, swap_statements):
        swapped = transform(text)
        if swapped is None:
            continue
        before = _by_line({"server.py": text}, lint_modules({"server.py": text}, target, code, env))
        after = _by_line({"server.py": swapped}, lint_modules({"server.py": swapped}, target, code, env))
        assert after == before, swapped


@pytest.mark.parametrize(("example_id", "text", "target", "code", "env"), examples("move"))
def test_moving_a_tool_into_its_own_module_changes_no_verdict(example_id: str, text: str, target: str | None, code: str, env: dict) -> None:
    files = move_tool(text)
    if files is None:
        return
    before = _by_line({"server.py": text}, lint_modules({"server.py": text}, target, code, env))
    after = _by_line(files, lint_modules(files, target, code, env))
    assert after == before, "\n".join(f"# {name}\n{body}" for name, body in files.items())


@pytest.mark.parametrize(("language", "example_id", "text", "target", "code", "env"), examples("translate", LANGUAGES))
def test_saying_failures_in_another_language_changes_no_verdict(
    language: str, example_id: str, text: str, target: str | None, code: str, env: dict
) -> None:
    translated = translate(text, language)
    if translated is None:
        return
    assert _rows(translated, target, code, env) == _rows(text, target, code, env), translated


# -- the transforms themselves -----------------------------------------------------------------


def test_renaming_keeps_verbs_imports_attributes_and_foreign_keywords() -> None:
    code = (
        "import httpx\n"
        "from notes_lib import Note\n\n"
        "def get_note(note_id: str, ctx) -> str:\n"
        "    note = httpx.get(note_id).json()\n"
        "    return format_note(note=note, items=note.items)\n\n"
        "def format_note(note):\n"
        "    return Note(note=note)\n"
    )
    assert rename_nouns(code, NOUN_MAPS["address"]) == (
        "import httpx\n"
        "from notes_lib import Note\n\n"
        "def get_address(address_id: str, ctx) -> str:\n"
        "    address = httpx.get(address_id).json()\n"
        "    return format_address(address=address, items=address.items)\n\n"
        "def format_address(address):\n"
        "    return Note(note=address)\n"
    )


def test_renaming_maps_plurals_to_plurals() -> None:
    code = "def list_notes(notes_dir):\n    notes = []\n    return notes\n"
    assert rename_nouns(code, NOUN_MAPS["address"]) == "def list_addresses(addresses_dir):\n    addresses = []\n    return addresses\n"


def test_exchanging_definitions_and_assignments() -> None:
    code = "@mcp.tool()\ndef a():\n    x = 1\n    y = 2\n    z = x + y\n    return z\n\n\n@mcp.tool()\ndef b():\n    return 2\n"
    assert swap_definitions(code) == "@mcp.tool()\ndef b():\n    return 2\n\n\n@mcp.tool()\ndef a():\n    x = 1\n    y = 2\n    z = x + y\n    return z\n"
    assert swap_statements(code) == code.replace("    x = 1\n    y = 2\n", "    y = 2\n    x = 1\n")
    # Not a statement that reads what the other writes, nor two calls.
    assert swap_statements("def f():\n    x = 1\n    y = x\n") is None
    assert swap_statements("def f():\n    a.post()\n    b.write()\n") is None
    assert swap_statements("def f():\n    log.info('x')\n    n = 2\n") == "def f():\n    n = 2\n    log.info('x')\n"


def test_moving_a_tool_imports_what_it_reads() -> None:
    code = (
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\nLIMIT = 3\n\n\n"
        "def helper(n):\n    return n\n\n\n@mcp.tool()\ndef count(n: int) -> int:\n    return helper(n) + LIMIT\n"
    )
    files = move_tool(code)
    assert files is not None
    assert files["tools.py"] == (
        "from mcp.server.fastmcp import FastMCP\nfrom server import LIMIT, helper, mcp\n\n\n"
        "@mcp.tool()\ndef count(n: int) -> int:\n    return helper(n) + LIMIT\n"
    )
    assert files["server.py"].endswith("def helper(n):\n    return n\n\n\nimport tools\n")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", 'f"Fehler: {e}", "Note {} nicht gefunden", "Keine Ergebnisse gefunden"'),
        ("zh", 'f"错误：{e}", "Note {} 未找到", "没有找到任何结果"'),
        ("fr", 'f"Erreur : {e}", "Note {} introuvable", "Aucun résultat trouvé"'),
    ],
)
def test_translating_failure_wording(language: str, expected: str) -> None:
    code = 'x = f"Error: {e}", "Note {} not found", "No notes found"\n'
    assert translate(code, language) == f"x = {expected}\n"
    assert translate("x = 'Saved'\n", language) is None


# -- singular and plural -----------------------------------------------------------------------

LOOKUP = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shop")
CUSTOMERS: dict[str, dict] = {}


@mcp.tool()
def get_customer(customer_id: str) -> dict | str:
    """One customer's record."""
    customer = CUSTOMERS.get(customer_id)
    if customer is None:
        return f"No customer found with id {customer_id}"
    return customer


@mcp.tool()
def list_customers(prefix: str) -> list[dict] | str:
    """Every customer whose id starts with the prefix."""
    customers = [c for key, c in CUSTOMERS.items() if key.startswith(prefix)]
    if not customers:
        return "No customers found"
    return customers
'''


@pytest.mark.parametrize(
    ("singular", "plural"),
    [
        ("customer", "customers"),
        ("address", "addresses"),
        ("campus", "campuses"),
        ("analysis", "analyses"),
        ("bus", "buses"),
        # "-as" ends singulars (canvas) and plurals (ideas) alike: the name cannot tell, the
        # shape does (the entry under the model's key, `CANVASES.get(canvas_id)`, is one record).
        ("canvas", "canvases"),
    ],
)
def test_a_lookup_named_for_a_singular_ending_in_s_is_a_lookup(singular: str, plural: str) -> None:
    """`get_address(address_id)` fetches one record as `get_customer(customer_id)` does: its "No
    address found" is a failure (MCP005 on row 12); the listing's "No ... found" is an answer."""
    nouns = {"customer": singular, "customers": plural, "CUSTOMERS": plural.upper()}
    renamed = rename_nouns(LOOKUP, nouns) or LOOKUP
    assert f"def get_{singular}({singular}_id" in renamed
    assert _rows(renamed, None, "MCP005", {}) == _rows(LOOKUP, None, "MCP005", {}) == [("MCP005", 12)]


# -- failure wording outside a branch ----------------------------------------------------------

UNCONDITIONAL = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
def save_note(note_id: str, text: str) -> str:
    """Save a note (the store is read-only today)."""
    result = "Failed to save the note"
    return result


@mcp.tool()
def read_note(note_id: str) -> str:
    """Read a note."""
    return f"Error: note {note_id} not found"
'''


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_failure_said_outside_any_branch_is_one_in_every_language(language: str) -> None:
    """No branch says these calls failed: only the wording does, as strongly in each language
    ("Failed to ..." / "No se pudo ...", "Error: ..." / "Fehler: ...")."""
    translated = translate(UNCONDITIONAL, language)
    assert translated is not None and translated != UNCONDITIONAL
    assert _rows(translated, None, "MCP005", {}) == _rows(UNCONDITIONAL, None, "MCP005", {}) == [("MCP005", 10), ("MCP005", 16)]
