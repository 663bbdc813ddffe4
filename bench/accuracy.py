#!/usr/bin/env python3
"""Precision and recall on the hand-labeled public corpus, held against the recorded figures.

    python bench/accuracy.py             # measure, compare with bench/accuracy.json, exit 1 on a drop
    python bench/accuracy.py --update    # measure and record the new figures (after an improvement)
    python bench/accuracy.py --corpus DIR

It runs `../shared/corpus/measure.sh` (which lints each labeled package with the `mcp-lint` on
PATH and scores the findings against `labels.tsv`) and reads the per-rule table from its
`score.json`. A rule whose precision or recall falls below the recorded value fails the run; a
rise is reported so the record can be moved up with `--update`. Where the corpus cannot be had
(no `shared/` beside the checkout, or the packages cannot be downloaded), it says so and exits 0:
the gate needs the corpus, the test suite does not.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS_TOOLS = REPO.parent / "shared" / "corpus"
RECORD = Path(__file__).resolve().with_name("accuracy.json")
DEFAULT_CORPUS = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mcp-lint-bench" / "labeled-corpus"
# Figures are compared at the precision they are recorded with, so float noise never fails a run.
DIGITS = 4


def _figure(value: float | None) -> float | None:
    """A recorded figure: None where it is undefined (precision of a rule with no findings)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return round(value, DIGITS)


def measure(corpus: Path) -> dict[str, dict[str, float | None]] | str:
    """Per-rule {precision, recall}, or the reason the corpus could not be measured."""
    if not (CORPUS_TOOLS / "measure.sh").is_file():
        return f"no labeled corpus at {CORPUS_TOOLS}"
    corpus.mkdir(parents=True, exist_ok=True)
    fetch = subprocess.run(
        ["bash", str(CORPUS_TOOLS / "fetch.sh"), str(CORPUS_TOOLS / "public.txt"), str(corpus)],
        capture_output=True,
        text=True,
    )
    if fetch.returncode != 0:
        tail = " ".join(fetch.stderr.strip().splitlines()[-2:])
        return f"the corpus could not be fetched (no package index reachable?): {tail[-300:]}"
    run = subprocess.run(["bash", str(CORPUS_TOOLS / "measure.sh"), str(corpus)], capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    if run.returncode != 0:
        sys.stderr.write(run.stderr)
        raise SystemExit(f"accuracy: measure.sh failed with exit code {run.returncode}")
    report = json.loads((corpus / "score.json").read_text(encoding="utf-8"))["report"]
    return {
        rule: {"precision": _figure(row["precision"]), "recall": _figure(row["recall"])}
        for rule, row in sorted(report.items())
        if rule.startswith("MCP")
    }


def compare(recorded: dict, measured: dict) -> tuple[list[str], list[str]]:
    """(drops, rises) as readable lines. An undefined precision (no findings) counts as 1.0:
    a rule that stops reporting shows up as a recall drop instead."""
    drops, rises = [], []
    for rule, figures in sorted(recorded.items()):
        now = measured.get(rule, {"precision": None, "recall": 0.0})
        for key in ("precision", "recall"):
            before = figures[key] if figures[key] is not None else (1.0 if key == "precision" else 0.0)
            after = now[key] if now[key] is not None else (1.0 if key == "precision" else 0.0)
            if after < before:
                drops.append(f"{rule} {key} fell from {before:.{DIGITS}f} to {after:.{DIGITS}f}")
            elif after > before:
                rises.append(f"{rule} {key} rose from {before:.{DIGITS}f} to {after:.{DIGITS}f}")
    return drops, rises


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="where the corpus is fetched and unpacked")
    parser.add_argument("--update", action="store_true", help="record the measured figures")
    args = parser.parse_args(argv)

    measured = measure(args.corpus)
    if isinstance(measured, str):
        print(f"accuracy: skipped: {measured}")
        return 0
    if args.update or not RECORD.exists():
        RECORD.write_text(json.dumps(measured, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"accuracy: recorded in {RECORD.relative_to(REPO)}")
        return 0
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    drops, rises = compare(recorded, measured)
    for line in rises:
        print(f"accuracy: {line} (record it with `python bench/accuracy.py --update`)")
    for line in drops:
        print(f"accuracy: FAILED: {line}")
    if drops:
        return 1
    print("accuracy: no rule fell below its recorded precision or recall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
