#!/usr/bin/env python3
"""How much of a blind score is the label anchor: pair each false alarm with a miss of the same
rule in the same function.

usage: anchor_pairs.py SCORE.json SRC_DIR [--rules MCP002,MCP005] [--scope function|file]

SCORE.json is `bench/blind.py --json` output; SRC_DIR holds the unpacked packages
(SRC_DIR/<name>-<version>/...). A flow the rule reports at one statement and the label names at
another shows up as a false positive and a false negative inside one function. Pairing them
(each at most once, innermost function by line span) gives a second table in which such pairs
count as found. It is an upper bound on anchor noise: a real miss and an unrelated false alarm
in the same function pair up too. `--scope file` pairs within a file (a helper's statement against
the tool's, the other anchor LABELING.md allows), a looser bound still. It prints counts only, never label text, so it can run on a
held-out set without spoiling it.
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import defaultdict
from functools import cache
from pathlib import Path


def package_dir(src: Path, spec: str) -> Path:
    name, _, version = spec.partition("==")
    return src / f"{name}-{version}"


@cache
def function_spans(path: Path) -> tuple[tuple[int, int], ...]:
    """(first, last) line of every function in the file; empty when it does not parse."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError, OSError):
        return ()
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((first, node.end_lineno or node.lineno))
    return tuple(spans)


def innermost_function(path: Path, line: int) -> tuple[int, int] | None:
    around = [span for span in function_spans(path) if span[0] <= line <= span[1]]
    return min(around, key=lambda span: span[1] - span[0]) if around else None


def pairs_by_rule(score: dict, src: Path, rules: set[str], scope: str = "function") -> dict[str, int]:
    """Number of (false alarm, miss) pairs of one function (or file), per rule."""
    misses: dict[tuple, list[int]] = defaultdict(list)
    for label in score["false_negatives"]:
        if label["rule"] in rules:
            misses[(label["package"], label["file"], label["rule"])].append(int(label["start_line"]))
    paired: dict[str, int] = defaultdict(int)
    for alarm in score["false_positives"]:
        key = (alarm["package"], alarm["file"], alarm["rule"])
        if alarm["rule"] not in rules or not misses.get(key):
            continue
        path = package_dir(src, alarm["package"]) / alarm["file"]
        if scope == "file":
            misses[key].pop(0)
            paired[alarm["rule"]] += 1
            continue
        around = innermost_function(path, int(alarm["line"]))
        if around is None:
            continue
        for line in misses[key]:
            if innermost_function(path, line) == around:
                misses[key].remove(line)
                paired[alarm["rule"]] += 1
                break
    return paired


def ratio(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("score", type=Path)
    parser.add_argument("src", type=Path)
    parser.add_argument("--rules", default="MCP002,MCP005")
    parser.add_argument("--scope", choices=("function", "file"), default="function")
    args = parser.parse_args(argv)
    score = json.loads(args.score.read_text(encoding="utf-8"))
    rules = set(args.rules.split(","))
    paired = pairs_by_rule(score, args.src, rules, args.scope)
    print(f"{'rule':8} {'tp/fp/fn':>12} {'P':>5} {'R':>5} {'pairs':>5} {'tp/fp/fn paired':>16} {'P':>5} {'R':>5}")
    for rule in sorted(rules & set(score["report"])):
        row = score["report"][rule]
        tp, fp, fn, n = row["tp"], row["fp"], row["fn"], paired.get(rule, 0)
        strict = f"{tp}/{fp}/{fn}"
        loose = f"{tp + n}/{fp - n}/{fn - n}"
        print(
            f"{rule:8} {strict:>12} {ratio(tp, tp + fp):>5} {ratio(tp, tp + fn):>5} {n:>5} "
            f"{loose:>16} {ratio(tp + n, tp + fp):>5} {ratio(tp + n, tp + fn):>5}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
