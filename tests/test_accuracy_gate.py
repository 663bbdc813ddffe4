"""The accuracy gate of .ci/run: a rule whose precision or recall falls below the record fails."""

from __future__ import annotations

import csv
import json

import pytest
from script_support import REPO, load_script


@pytest.fixture(scope="module")
def accuracy():
    return load_script("bench/accuracy.py", "bench_accuracy")


def test_a_drop_in_recall_is_reported_and_a_rise_is_not_a_failure(accuracy) -> None:
    recorded = {"MCP002": {"precision": 0.95, "recall": 0.8}, "MCP005": {"precision": 0.98, "recall": 0.5}}
    measured = {"MCP002": {"precision": 0.96, "recall": 0.79}, "MCP005": {"precision": 0.98, "recall": 0.6}}
    drops, rises = accuracy.compare(recorded, measured)
    assert drops == ["MCP002 recall fell from 0.8000 to 0.7900"]
    assert rises == ["MCP002 precision rose from 0.9500 to 0.9600", "MCP005 recall rose from 0.5000 to 0.6000"]


def test_a_rule_that_stops_reporting_fails_on_recall(accuracy) -> None:
    recorded = {"MCP004": {"precision": 1.0, "recall": 0.5}}
    drops, _ = accuracy.compare(recorded, {"MCP004": {"precision": None, "recall": 0.0}})
    assert drops == ["MCP004 recall fell from 0.5000 to 0.0000"]
    drops, _ = accuracy.compare(recorded, {})
    assert drops == ["MCP004 recall fell from 0.5000 to 0.0000"]


def test_undefined_precision_in_the_record_never_fails(accuracy) -> None:
    drops, _ = accuracy.compare({"MCP003": {"precision": None, "recall": 0.0}}, {"MCP003": {"precision": 0.0, "recall": 0.0}})
    assert drops == ["MCP003 precision fell from 1.0000 to 0.0000"]
    drops, _ = accuracy.compare({"MCP004": {"precision": None, "recall": 0.0}}, {"MCP004": {"precision": None, "recall": 0.0}})
    assert drops == []


def test_the_record_covers_every_labeled_rule_with_figures_in_range(accuracy) -> None:
    from mcp_lint.registry import tree_rules

    record = json.loads((REPO / "bench" / "accuracy.json").read_text(encoding="utf-8"))
    rules = {info.code for info in tree_rules()}
    assert set(record) <= rules
    # A rule is gated once the corpus has labels for it (a new rule has none until someone labels
    # its defects; then `python bench/accuracy.py --update` records its figures).
    labels = accuracy.CORPUS_TOOLS / "labels.tsv"
    if labels.is_file():
        with labels.open(encoding="utf-8") as rows:
            labeled = {row["rule"] for row in csv.DictReader(rows, delimiter="\t")}
        assert labeled & rules <= set(record)
    for figures in record.values():
        for key in ("precision", "recall"):
            assert figures[key] is None or 0.0 <= figures[key] <= 1.0


def test_no_corpus_skips_with_a_reason(accuracy, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(accuracy, "CORPUS_TOOLS", tmp_path / "missing")
    assert accuracy.measure(tmp_path / "corpus") == f"no labeled corpus at {tmp_path / 'missing'}"
    assert accuracy.main(["--corpus", str(tmp_path / "corpus")]) == 0
