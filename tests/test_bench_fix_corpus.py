"""bench/fix_corpus.py's review check: ruff counts per package, and which package got worse."""

from __future__ import annotations

from collections import Counter

from tests.script_support import load_script

fix_corpus = load_script("bench/fix_corpus.py", "bench_fix_corpus")


def test_a_rise_in_one_package_is_reported_even_when_the_total_falls() -> None:
    before = {"a-1.0": Counter({"B904": 2, "G004": 5}), "b-2.0": Counter({"I001": 0})}
    after = {"a-1.0": Counter({"B904": 0, "G004": 5}), "b-2.0": Counter({"I001": 1})}
    assert fix_corpus.ruff_rises(before, after) == ["b-2.0: I001 0 -> 1"]


def test_no_rise_when_every_package_stays_or_falls() -> None:
    before = {"a-1.0": Counter({"F401": 1})}
    after = {"a-1.0": Counter()}
    assert fix_corpus.ruff_rises(before, after) == []
    assert fix_corpus.format_counts(fix_corpus.total(before)) == "1 (F401 1)"
