#!/usr/bin/env python3
"""How long findings read: message and help length per rule on a corpus, against the limits.

    python bench/message_length.py /tmp/corpus            # the measure.sh directory (or its src/)
    python bench/message_length.py /tmp/corpus --json out.json

Each package folder under `src/` is linted as measure.sh lints it (`mcp-lint check .` from the
folder, JSON output, no cache). A finding is read at a glance when its message is one claim: at
most MESSAGE_MAX characters, the median at most MESSAGE_MEDIAN_MAX (over all findings and within
each rule), and its `help` (the fix in one line) at most HELP_MAX. The table says PASS or FAIL per
rule and overall; the exit code is 1 on a FAIL.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Sequence

MESSAGE_MAX = 120
MESSAGE_MEDIAN_MAX = 90
HELP_MAX = 100


@dataclass(frozen=True)
class Lengths:
    """The length figures of one rule (or "all"): how many findings, message median, 90th
    percentile and maximum, longest help, and whether they keep the limits."""

    rule: str
    findings: int
    median: float
    p90: int
    longest: int
    help_longest: int
    passed: bool


def percentile(values: Sequence[int], fraction: float) -> int:
    """The nearest-rank percentile: the smallest value at least `fraction` of the values reach."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def lengths_of(rule: str, findings: Sequence[dict]) -> Lengths:
    messages = [len(f["message"]) for f in findings]
    helps = [len(f.get("help") or "") for f in findings]
    median = float(statistics.median(messages))
    longest, help_longest = max(messages), max(helps)
    passed = longest <= MESSAGE_MAX and median <= MESSAGE_MEDIAN_MAX and help_longest <= HELP_MAX
    return Lengths(rule, len(messages), median, percentile(messages, 0.9), longest, help_longest, passed)


def table(findings: Iterable[dict]) -> list[Lengths]:
    """One row per rule that has findings, in code order, then the row of all of them."""
    by_rule: dict[str, list[dict]] = {}
    everything = list(findings)
    for finding in everything:
        by_rule.setdefault(finding["code"], []).append(finding)
    rows = [lengths_of(code, by_rule[code]) for code in sorted(by_rule)]
    if everything:
        rows.append(lengths_of("all", everything))
    return rows


def lint_corpus(corpus: Path) -> list[dict]:
    """The JSON findings of every package folder of the corpus, each linted from its folder."""
    src = corpus / "src" if (corpus / "src").is_dir() else corpus
    findings: list[dict] = []
    for folder in sorted(p for p in src.iterdir() if p.is_dir()):
        run = subprocess.run(
            [sys.executable, "-m", "mcp_lint", "check", ".", "--output-format", "json", "--no-cache", "--exit-zero"],
            cwd=folder,
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise SystemExit(f"{folder.name}: mcp-lint exited {run.returncode}: {run.stderr.strip()[-300:]}")
        findings.extend(json.loads(run.stdout))
    return findings


def render(rows: Sequence[Lengths]) -> str:
    lines = [
        f"limits: message <= {MESSAGE_MAX}, median <= {MESSAGE_MEDIAN_MAX}; help <= {HELP_MAX}",
        "| rule | findings | median | p90 | max | help max | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        verdict = "PASS" if row.passed else "FAIL"
        lines.append(f"| {row.rule} | {row.findings} | {row.median:g} | {row.p90} | {row.longest} | {row.help_longest} | {verdict} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path, help="the measure.sh corpus directory (or its src/)")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    args = parser.parse_args(argv)
    rows = table(lint_corpus(args.corpus))
    print(render(rows))
    if args.json:
        args.json.write_text(json.dumps([asdict(row) for row in rows], indent=2) + "\n", encoding="utf-8")
    return 0 if rows and all(row.passed for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
