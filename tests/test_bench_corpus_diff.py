"""bench/corpus_diff.py: each finding that differs between two revisions is classified against the labels."""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from script_support import load_script


@pytest.fixture(scope="module")
def diff() -> ModuleType:
    return load_script("bench/corpus_diff.py", "bench_corpus_diff")


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """One made-up package whose server has two tools, so findings have a function to belong to."""
    folder = tmp_path / "src" / "notes-mcp-0.1.0" / "notes"
    folder.mkdir(parents=True)
    (folder / "server.py").write_text(
        textwrap.dedent(
            """\
            from fastmcp import FastMCP

            mcp = FastMCP("notes")


            @mcp.tool()
            def read_note(note_id: str) -> str:
                try:
                    text = load(note_id)
                except OSError as exc:
                    detail = str(exc)
                    return f"failed: {detail}"
                return text


            @mcp.tool()
            def delete_note(note_id: str) -> str:
                return "ok"
            """
        ),
        encoding="utf-8",
    )
    return tmp_path


def _finding(diff: ModuleType, line: int, rule: str = "MCP002") -> object:
    return diff.Finding("notes-mcp==0.1.0", "notes/server.py", rule, line)


def _label(diff: ModuleType, start: int, end: int | None = None, rule: str = "MCP002") -> object:
    return diff.Label("notes-mcp==0.1.0", "notes/server.py", rule, start, end or start, "raw OSError text")


def _kinds(changes: list) -> list[tuple[str, int | None, int | None]]:
    return [
        (change.kind, change.before.line if change.before else None, change.after.line if change.after else None)
        for change in changes
    ]


def test_a_new_finding_on_an_unfound_label_is_a_miss_fixed(diff: ModuleType, corpus: Path) -> None:
    changes = diff.classify(set(), {_finding(diff, 12)}, [_label(diff, 12)], diff.Functions(corpus))
    assert _kinds(changes) == [("miss fixed", None, 12)]


def test_a_gone_finding_on_no_label_is_a_false_alarm_removed(diff: ModuleType, corpus: Path) -> None:
    changes = diff.classify({_finding(diff, 18)}, set(), [_label(diff, 12)], diff.Functions(corpus))
    assert _kinds(changes) == [("false alarm removed", 18, None)]


def test_a_finding_reported_at_another_statement_of_its_function_is_moved(diff: ModuleType, corpus: Path) -> None:
    # The label spans the flow (lines 11-12); the finding moves from the return to the statement taking the text.
    changes = diff.classify({_finding(diff, 12)}, {_finding(diff, 11)}, [_label(diff, 11, 12)], diff.Functions(corpus))
    assert _kinds(changes) == [("moved", 12, 11)]


def test_a_finding_in_another_function_is_not_a_move(diff: ModuleType, corpus: Path) -> None:
    # Gone from read_note (its label now unfound), new in delete_note (no label): two bad changes.
    changes = diff.classify({_finding(diff, 12)}, {_finding(diff, 18)}, [_label(diff, 12)], diff.Functions(corpus))
    assert sorted(_kinds(changes)) == [("miss introduced", 12, None), ("new false alarm", None, 18)]


def test_a_finding_of_another_rule_is_not_a_move(diff: ModuleType, corpus: Path) -> None:
    changes = diff.classify(
        {_finding(diff, 12)}, {_finding(diff, 12, "MCP005")}, [_label(diff, 12)], diff.Functions(corpus)
    )
    assert sorted(_kinds(changes)) == [("miss introduced", 12, None), ("new false alarm", None, 12)]


def test_unchanged_findings_are_no_change(diff: ModuleType, corpus: Path) -> None:
    same = {_finding(diff, 12), _finding(diff, 18)}
    assert diff.classify(same, set(same), [_label(diff, 12)], diff.Functions(corpus)) == []


def test_report_counts_every_kind_and_lists_the_label(diff: ModuleType, corpus: Path) -> None:
    changes = diff.classify({_finding(diff, 18)}, {_finding(diff, 12)}, [_label(diff, 12)], diff.Functions(corpus))
    text = diff.report(changes, "abc123", "working tree")
    assert "# Corpus findings, abc123 -> working tree" in text
    assert "| miss fixed | 1 |" in text and "| false alarm removed | 1 |" in text and "| moved | 0 |" in text
    assert "| notes-mcp==0.1.0 | MCP002 | - | notes/server.py:12 | raw OSError text |" in text


def test_a_missing_set_is_a_one_line_usage_error(diff: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        diff.main(["HEAD", "--corpus", str(tmp_path), "--set", str(tmp_path / "none")])
    assert exit_info.value.code == 2
    assert "holds no labeled set (missing labeled-packages.tsv, labels.tsv); give --set DIR" in capsys.readouterr().err
