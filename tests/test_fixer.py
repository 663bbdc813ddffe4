from __future__ import annotations

import re
from typing import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_lint.findings import Applicability, Edit, Finding, Fix, Location
from mcp_lint.fixing.apply import FixOutcome, apply_edits, fix_source, select_fixes, unified_diff

SAFE, UNSAFE, DISPLAY = Applicability.SAFE, Applicability.UNSAFE, Applicability.DISPLAY_ONLY


def edit(row: int, column: int, end_row: int, end_column: int, content: str = "") -> Edit:
    return Edit(Location(row, column), Location(end_row, end_column), content)


def finding(*edits: Edit, code: str = "MCP001", applicability: Applicability = SAFE, message: str = "") -> Finding:
    first = min(e.location for e in edits) if edits else Location(1, 1)
    return Finding(
        code=code,
        message=message,
        filename="server.py",
        location=first,
        end_location=first,
        fix=Fix(applicability, "fix it", tuple(edits)),
    )


# --- apply_edits ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "edits", "expected"),
    [
        pytest.param("x = BAD\n", [edit(1, 5, 1, 8, "GOOD")], "x = GOOD\n", id="replace"),
        pytest.param("a\nb\nc\n", [edit(1, 2, 3, 1, "-")], "a-c\n", id="multi-line"),
        pytest.param("a\nb\n", [edit(2, 1, 2, 1, "# note\n")], "a\n# note\nb\n", id="insert-line"),
        pytest.param("a\nb\nc\n", [edit(2, 1, 3, 1)], "a\nc\n", id="delete-line"),
        pytest.param("a\nb\n", [edit(3, 1, 3, 1, "c\n")], "a\nb\nc\n", id="append-after-final-newline"),
        pytest.param("a\nbc", [edit(2, 3, 2, 3, "\n")], "a\nbc\n", id="append-without-final-newline"),
        pytest.param("a\nbc", [edit(1, 2, 2, 3, "")], "a", id="delete-to-end-without-newline"),
        pytest.param("", [edit(1, 1, 1, 1, "x = 1\n")], "x = 1\n", id="empty-text"),
        pytest.param("x = 1\n", [], "x = 1\n", id="no-edits"),
        # Columns count code points: "é" and "名前" are one column each per character, "😀" is one too.
        pytest.param("s = 'é' + 名前\n", [edit(1, 11, 1, 13, "name")], "s = 'é' + name\n", id="unicode"),
        pytest.param("x = '😀'; y = 1\n", [edit(1, 10, 1, 11, "z")], "x = '😀'; z = 1\n", id="astral"),
        pytest.param("a = 1\r\nb = BAD\r\n", [edit(2, 5, 2, 8, "GOOD")], "a = 1\r\nb = GOOD\r\n", id="crlf"),
        pytest.param("a = 1\r\nb = 2\r\n", [edit(1, 1, 2, 1)], "b = 2\r\n", id="crlf-delete-line"),
        pytest.param("a = 1\r\n", [edit(1, 6, 1, 6, "0")], "a = 10\r\n", id="crlf-end-of-line"),
        # A lone "\r" ends a line, a form feed does not (as for Python's tokenizer).
        pytest.param("a\rb\x0cc\n", [edit(2, 3, 2, 4, "C")], "a\rb\x0cC\n", id="cr-and-form-feed"),
        pytest.param(
            "one two three\n",
            [edit(1, 9, 1, 14, "3"), edit(1, 1, 1, 4, "1"), edit(1, 5, 1, 8, "2")],
            "1 2 3\n",
            id="unordered",
        ),
        pytest.param("abc\n", [edit(1, 1, 1, 2, "A"), edit(1, 2, 1, 3, "B")], "ABc\n", id="touching"),
        pytest.param(
            "abc\n",
            [edit(1, 3, 1, 3, ">"), edit(1, 2, 1, 3, "B"), edit(1, 2, 1, 2, "<")],
            "a<B>c\n",
            id="insertions-at-both-ends-of-a-replacement",
        ),
    ],
)
def test_apply_edits(text: str, edits: list[Edit], expected: str) -> None:
    assert apply_edits(text, edits) == expected


@pytest.mark.parametrize(
    ("text", "edits", "message"),
    [
        ("abcdef\n", [edit(1, 1, 1, 4, "x"), edit(1, 3, 1, 5, "y")], "overlapping edits at 1:1-1:4 and 1:3-1:5"),
        ("abc\n", [edit(1, 2, 1, 2, "x"), edit(1, 2, 1, 2, "y")], "overlapping edits at 1:2-1:2 and 1:2-1:2"),
        ("abcdef\n", [edit(1, 1, 1, 5, "x"), edit(1, 3, 1, 3, "y")], "overlapping edits at 1:1-1:5 and 1:3-1:3"),
        ("a\nb\n", [edit(1, 1, 2, 2, "x"), edit(2, 1, 2, 1, "y")], "overlapping edits at 1:1-2:2 and 2:1-2:1"),
        ("abc\n", [edit(1, 3, 1, 1, "x")], "edit 1:3-1:1 ends before it starts"),
        ("abc\n", [edit(1, 5, 1, 5, "x")], "position 1:5 is outside the text"),
        ("abc\n", [edit(1, 0, 1, 1, "x")], "position 1:0 is outside the text"),
        ("abc\r\n", [edit(1, 5, 1, 5, "x")], "position 1:5 is outside the text"),  # between \r and \n
        ("a\nbc", [edit(3, 1, 3, 1, "x")], "position 3:1 is outside the text"),
        ("a\n", [edit(2, 2, 2, 2, "x")], "position 2:2 is outside the text"),
    ],
)
def test_apply_edits_rejects(text: str, edits: list[Edit], message: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        apply_edits(text, edits)
    assert str(excinfo.value) == message


LINE_BREAK = re.compile(r"\r\n|\r|\n")


@st.composite
def text_and_edits(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    pieces = st.sampled_from(["a", "bc", "é", "😀", " ", "\x0c", "\n", "\r\n", "\r"])
    text = "".join(draw(st.lists(pieces, max_size=20)))
    # Every offset is a position, except between the two characters of "\r\n".
    positions = [i for i in range(len(text) + 1) if text[i - 1 : i + 1] != "\r\n"]
    points = sorted(draw(st.lists(st.sampled_from(positions), max_size=12)))
    edits: list[tuple[int, int, str]] = []
    for start, end in zip(points[::2], points[1::2]):
        if start == end and edits and edits[-1][:2] == (start, start):
            continue  # two insertions at one point have no defined order
        edits.append((start, end, draw(st.sampled_from(["", "x", "é\n", "\r\n", "😀"]))))
    return text, edits


def location_of(text: str, offset: int) -> Location:
    line_starts = [0] + [match.end() for match in LINE_BREAK.finditer(text)]
    row = max(i for i, start in enumerate(line_starts) if start <= offset)
    return Location(row + 1, offset - line_starts[row] + 1)


@given(text_and_edits(), st.randoms(use_true_random=False))
def test_apply_edits_matches_offset_reference(case: tuple[str, list[tuple[int, int, str]]], random) -> None:
    text, offset_edits = case
    expected = text
    for start, end, content in reversed(offset_edits):
        expected = expected[:start] + content + expected[end:]
    edits = [Edit(location_of(text, s), location_of(text, e), c) for s, e, c in offset_edits]
    random.shuffle(edits)
    assert apply_edits(text, edits) == expected


# --- select_fixes --------------------------------------------------------------------------------


def test_select_fixes_tiers() -> None:
    safe = finding(edit(1, 1, 1, 2, "a"), applicability=SAFE)
    unsafe = finding(edit(2, 1, 2, 2, "b"), applicability=UNSAFE)
    display = finding(edit(3, 1, 3, 2, "c"), applicability=DISPLAY)
    no_fix = Finding("MCP003", "vague", "server.py", Location(4, 1), Location(4, 2))
    findings = [display, unsafe, no_fix, safe]
    assert select_fixes(findings, unsafe=False) == [safe]
    assert select_fixes(findings, unsafe=True) == [safe, unsafe]


def test_select_fixes_skips_overlaps_in_source_order() -> None:
    later_but_first_in_text = finding(edit(1, 1, 1, 5, "A"), code="MCP002")
    overlapping = finding(edit(1, 3, 1, 7, "B"))
    touching = finding(edit(1, 5, 1, 6, "C"))
    insertion = finding(edit(2, 1, 2, 1, "D"))
    same_point_insertion = finding(edit(2, 1, 2, 1, "E"), code="MCP005")
    findings = [overlapping, touching, same_point_insertion, insertion, later_but_first_in_text]
    assert select_fixes(findings, unsafe=False) == [later_but_first_in_text, touching, insertion]


def test_select_fixes_skips_a_fix_when_any_of_its_edits_collides() -> None:
    first = finding(edit(1, 1, 1, 3, "x"))
    two_edits = finding(edit(1, 5, 1, 6, "y"), edit(1, 2, 1, 2, "z"))  # insertion inside `first`
    elsewhere = finding(edit(3, 1, 3, 2, "w"))
    assert select_fixes([two_edits, elsewhere, first], unsafe=False) == [first, elsewhere]


def test_select_fixes_ignores_fixes_without_edits() -> None:
    assert select_fixes([finding()], unsafe=True) == []


# --- fix_source ----------------------------------------------------------------------------------


def token_lint(token: str, replacement: str, applicability: Applicability = SAFE, code: str = "MCP001"):
    """A fake rule: flags every `token` and offers to replace it by `replacement`."""

    def lint(text: str) -> list[Finding]:
        found = []
        for row, line in enumerate(text.splitlines(), start=1):
            for match in re.finditer(re.escape(token), line):
                span = edit(row, match.start() + 1, row, match.end() + 1, replacement)
                found.append(finding(span, code=code, applicability=applicability, message=f"{token} at {row}"))
        return found

    return lint


def counting(lint: Callable[[str], list[Finding]]) -> tuple[Callable[[str], list[Finding]], list[str]]:
    calls: list[str] = []

    def wrapper(text: str) -> list[Finding]:
        calls.append(text)
        return lint(text)

    return wrapper, calls


def countdown_lint(text: str) -> list[Finding]:
    """A fake rule whose fix enables the next one: 3 -> 2 -> 1 -> 0, one step per pass."""
    match = re.search(r"[1-9]", text)
    if match is None:
        return []
    digit = match.group()
    span = edit(1, match.start() + 1, 1, match.end() + 1, str(int(digit) - 1))
    return [finding(span, message=f"{digit} is not 0")]


def test_fix_source_replaces_every_token() -> None:
    text = "x = BAD\ny = BAD + BAD\n"
    outcome = fix_source(text, token_lint("BAD", "GOOD"), unsafe=False)
    assert outcome.fixed == "x = GOOD\ny = GOOD + GOOD\n"
    assert outcome.original == text
    assert [f.message for f in outcome.applied] == ["BAD at 1", "BAD at 2", "BAD at 2"]
    assert outcome.remaining == []
    assert outcome.error is None


def test_fix_source_applies_unsafe_fixes_only_when_asked() -> None:
    text = "x = BAD\n"
    lint = token_lint("BAD", "GOOD", UNSAFE)
    kept = fix_source(text, lint, unsafe=False)
    assert kept == FixOutcome(original=text, fixed=text, applied=[], remaining=lint(text), error=None)
    assert fix_source(text, lint, unsafe=True).fixed == "x = GOOD\n"


def test_fix_source_never_applies_display_only_fixes() -> None:
    text = "x = BAD\n"
    outcome = fix_source(text, token_lint("BAD", "GOOD", DISPLAY), unsafe=True)
    assert (outcome.fixed, outcome.applied, len(outcome.remaining)) == (text, [], 1)


def test_fix_source_loops_to_a_fixed_point_linting_once_per_pass() -> None:
    lint, calls = counting(countdown_lint)
    outcome = fix_source("x = 3\n", lint, unsafe=False)
    assert outcome.fixed == "x = 0\n"
    assert [f.message for f in outcome.applied] == ["3 is not 0", "2 is not 0", "1 is not 0"]
    assert outcome.remaining == []
    assert outcome.error is None
    # Three passes, then one lint of the final text that doubles as `remaining`.
    assert calls == ["x = 3\n", "x = 2\n", "x = 1\n", "x = 0\n"]


def test_fix_source_defers_an_overlapping_fix_to_the_next_pass() -> None:
    def lint(text: str) -> list[Finding]:
        # Two rules fixing the same token; the second re-derives its fix from the new text.
        return token_lint("BAD", "GOOD")(text) + token_lint("GOOD", "FINE", code="MCP005")(text)

    outcome = fix_source("x = BAD\n", lint, unsafe=False)
    assert outcome.fixed == "x = FINE\n"
    assert [(f.code, f.message) for f in outcome.applied] == [("MCP001", "BAD at 1"), ("MCP005", "GOOD at 1")]


def test_fix_source_reverts_everything_when_a_fix_breaks_the_syntax() -> None:
    text = "x = BAD\n"
    lint = token_lint("BAD", "GOOD(")
    outcome = fix_source(text, lint, unsafe=False)  # default check: libcst's parser
    assert outcome == FixOutcome(
        original=text,
        fixed=text,
        applied=[],
        remaining=lint(text),
        error="fix produced code that does not parse (pass 1: MCP001)",
    )


def test_fix_source_reverts_earlier_passes_when_a_later_pass_breaks_the_syntax() -> None:
    def reject_one(text: str) -> None:
        if "1" in text:
            raise SyntaxError("no ones")

    outcome = fix_source("x = 3\n", countdown_lint, unsafe=False, parse_check=reject_one)
    assert outcome.fixed == "x = 3\n"
    assert outcome.applied == []
    assert [f.message for f in outcome.remaining] == ["3 is not 0"]
    assert outcome.error == "fix produced code that does not parse (pass 2: MCP001)"


def test_fix_source_names_every_rule_of_the_failing_pass() -> None:
    def lint(text: str) -> list[Finding]:
        return token_lint("BAD", "(", code="MCP005")(text) + token_lint("UGLY", "(")(text)

    outcome = fix_source("x = BAD + UGLY\n", lint, unsafe=False)
    assert outcome.error == "fix produced code that does not parse (pass 1: MCP001, MCP005)"


def test_fix_source_gives_up_when_fixes_never_converge() -> None:
    def always_more(text: str) -> list[Finding]:
        return [finding(edit(1, 2, 1, 2, "x"))]  # "a = 1" -> "ax = 1" -> "axx = 1" ...

    lint, calls = counting(always_more)
    outcome = fix_source("a = 1\n", lint, unsafe=False)
    assert outcome.error == "fixes did not converge after 10 passes"
    assert (outcome.fixed, outcome.applied) == ("a = 1\n", [])
    assert len(calls) == 11
    assert calls[-1] == "a" + "x" * 10 + " = 1\n"


def test_fix_source_max_passes_is_a_limit_not_an_off_by_one() -> None:
    assert fix_source("x = 3\n", countdown_lint, unsafe=False, max_passes=3).fixed == "x = 0\n"
    outcome = fix_source("x = 3\n", countdown_lint, unsafe=False, max_passes=2)
    assert (outcome.fixed, outcome.error) == ("x = 3\n", "fixes did not converge after 2 passes")


def test_fix_source_detects_fixes_that_undo_each_other() -> None:
    def lint(text: str) -> list[Finding]:
        return token_lint("True", "False")(text) + token_lint("False", "True")(text)

    lint, calls = counting(lint)
    outcome = fix_source("x = True\n", lint, unsafe=False)
    assert outcome.error == "fixes did not converge (pass 2: MCP001 restored an earlier text)"
    assert outcome.fixed == "x = True\n"
    assert len(calls) == 2


def test_fix_source_reports_a_fix_that_changes_nothing() -> None:
    outcome = fix_source("x = BAD\n", token_lint("BAD", "BAD"), unsafe=False)
    assert (outcome.fixed, outcome.error, outcome.applied) == ("x = BAD\n", None, [])
    assert [f.message for f in outcome.unapplied] == [f.message for f in outcome.remaining] == ["BAD at 1"]


def test_fix_source_applies_the_other_fixes_beside_one_that_changes_nothing() -> None:
    # A rewrite to the same words (a later pass re-deriving a fix already in place) no longer
    # costs the file its other fixes, in this pass or an earlier one.
    def lint(text: str) -> list[Finding]:
        return token_lint("OLD", "NEW")(text) + token_lint("SAME", "SAME", code="MCP002")(text)

    outcome = fix_source("a = OLD\nb = SAME\nc = OLD\n", lint, unsafe=False)
    assert (outcome.fixed, outcome.error) == ("a = NEW\nb = SAME\nc = NEW\n", None)
    assert [f.message for f in outcome.applied] == ["OLD at 1", "OLD at 3"]
    assert [(f.code, f.message) for f in outcome.unapplied] == [("MCP002", "SAME at 2")]
    assert [f.message for f in outcome.remaining] == ["SAME at 2"]


def test_fix_source_reports_a_malformed_fix() -> None:
    def lint(text: str) -> list[Finding]:
        return [finding(edit(1, 5, 1, 8, "GOOD"), edit(1, 6, 1, 7, "O"))] if "BAD" in text else []

    outcome = fix_source("x = BAD\n", lint, unsafe=False)
    assert outcome.fixed == "x = BAD\n"
    assert outcome.error == "fix could not be applied (pass 1: MCP001): overlapping edits at 1:5-1:8 and 1:6-1:7"


# --- unified_diff --------------------------------------------------------------------------------


def test_unified_diff() -> None:
    before = "a = 1\nb = BAD\nc = 3\n"
    after = "a = 1\nb = GOOD\nc = 3\n"
    assert unified_diff("pkg/server.py", before, after) == (
        "--- a/pkg/server.py\n"
        "+++ b/pkg/server.py\n"
        "@@ -1,3 +1,3 @@\n"
        " a = 1\n"
        "-b = BAD\n"
        "+b = GOOD\n"
        " c = 3\n"
    )


def test_unified_diff_of_equal_texts_is_empty() -> None:
    assert unified_diff("server.py", "x = 1\n", "x = 1\n") == ""


def test_unified_diff_hides_carriage_returns() -> None:
    diff = unified_diff("server.py", "a = 1\r\nb = BAD\r\n", "a = 1\r\nb = GOOD\r\n")
    assert diff == (
        "--- a/server.py\n"
        "+++ b/server.py\n"
        "@@ -1,2 +1,2 @@\n"
        " a = 1\n"
        "-b = BAD\n"
        "+b = GOOD\n"
    )


def test_unified_diff_marks_a_missing_final_newline() -> None:
    assert unified_diff("server.py", "a = 1\nb = BAD", "a = 1\nb = GOOD") == (
        "--- a/server.py\n"
        "+++ b/server.py\n"
        "@@ -1,2 +1,2 @@\n"
        " a = 1\n"
        "-b = BAD\n"
        "\\ No newline at end of file\n"
        "+b = GOOD\n"
        "\\ No newline at end of file\n"
    )


# --- the same edit offered by two findings (issue 9: rules report independently) --------------------


def test_select_fixes_applies_an_edit_two_findings_share_once() -> None:
    shared_import = edit(1, 1, 1, 1, "from x import ToolError\n")
    first = finding(shared_import, edit(3, 5, 3, 9, "raise"), code="MCP002")
    second = finding(shared_import, edit(5, 5, 5, 9, "raise"), code="MCP005")
    assert select_fixes([first, second], unsafe=False) == [first, second]
    # A different edit at the same place still collides: it waits for the next pass.
    rival = finding(edit(1, 1, 1, 1, "import y\n"), edit(7, 1, 7, 2, "z"), code="MCP004")
    assert select_fixes([first, rival], unsafe=False) == [first]


def test_fix_source_writes_a_shared_edit_once() -> None:
    text = "a = 1\nb = 2\n"
    shared = edit(1, 1, 1, 1, "import x\n")

    def lint(current: str) -> list[Finding]:
        if current != text:
            return []
        return [finding(shared, edit(1, 5, 1, 6, "10"), code="MCP002"), finding(shared, edit(2, 5, 2, 6, "20"), code="MCP005")]

    outcome = fix_source(text, lint, unsafe=False)
    assert outcome.fixed == "import x\na = 10\nb = 20\n"
    assert [f.code for f in outcome.applied] == ["MCP002", "MCP005"]


def test_one_statement_flagged_by_two_rules_gets_one_sensible_fix_and_converges() -> None:
    """`except Exception as e: return f"Error: {e}"` carries an MCP002 and an MCP005 finding on
    the same `return`: MCP002's fix takes the exception text out and raises, which settles both
    (MCP005 offers no fix of its own for a message that is raw exception text); the next pass
    finds nothing left."""
    from mcp_lint.pipeline import lint_source

    source = """\
from fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool
def forecast(city: str) -> str:
    try:
        return FORECASTS.fetch(city)
    except Exception as e:
        return f"Error: {e}"
"""

    assert sorted(f.code for f in lint_source(source)) == ["MCP002", "MCP005"]
    lint = lint_source

    outcome = fix_source(source, lint, unsafe=True)
    assert outcome.error is None
    assert sorted(f.code for f in outcome.applied) == ["MCP002"]
    assert outcome.fixed.endswith(
        """\
    except Exception as e:
        logger.exception("Could not fetch %s", city)
        raise ToolError(f"Could not fetch {city}") from e
"""
    )
    assert fix_source(outcome.fixed, lint, unsafe=True).fixed == outcome.fixed


# --- imports the fixes left unused ------------------------------------------------------------------


def test_drop_unused_imports_removes_only_names_the_fixed_text_stopped_using() -> None:
    from mcp_lint.fixing.unused_imports import drop_unused_imports

    original = """\
import os
import traceback
from mcp.types import (
    INVALID_PARAMS,
    ErrorData,
    TextContent,
)

def handler():
    print(traceback.format_exc(), INVALID_PARAMS, ErrorData, TextContent)
"""
    fixed = original.replace("traceback.format_exc(), INVALID_PARAMS, ErrorData, ", "")
    cleaned = apply_edits(fixed, drop_unused_imports(original, fixed))
    # `os` was unused before the fix: the author's business, not the fix's.
    assert cleaned == """\
import os
from mcp.types import (
    TextContent,
)

def handler():
    print(TextContent)
"""
    assert drop_unused_imports(cleaned, cleaned) == []
