#!/usr/bin/env python3
"""Which misses of a scored set sit in code no tool reaches (every rule is silent there).

    python bench/unreached_misses.py --score SCORE.json --src /work/labeling/heldout8/src [--package P]

SCORE.json is `bench/blind.py --json`'s output. For each package with a false negative, the package
is analysed as `mcp-lint check .` analyses it (discovery, prefilter, `--jobs 1`, no cache) and the
link step's walk (`Project.traced_functions`, the functions some tool reaches) is asked about the
function around each miss's first line:

* `reached`: the miss's function (or a function enclosing it) is reached: a rule's question;
* `not reached`: its function is in an analysed file, but no tool reaches it: a reach question;
* `not analysed`: its file was not analysed at all (the prefilter skipped it, or it failed to parse);
* `module level`: the line is outside every function.

Prints one line per unreached miss, then the counts (`--json OUT` writes them).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import libcst as cst
from libcst.metadata import PositionProvider

from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.pipeline import analyze_all
from mcp_lint.project_links import Project


def enclosing_functions(text: str, module: str, line: int) -> list[str]:
    """Qualified names of the functions around `line`, innermost first (classes and enclosing
    functions add their name, as the model does); [] when the line is outside every function or
    the file cannot be parsed (libcst, so the newest syntax parses on any Python)."""
    try:
        wrapper = cst.MetadataWrapper(cst.parse_module(text))
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return []
    positions = wrapper.resolve(PositionProvider)
    found: list[str] = []

    def visit(node: cst.CSTNode, prefix: str) -> None:
        for child in node.children:
            if type(child) in (cst.FunctionDef, cst.ClassDef):
                span = positions[child]
                if span.start.line <= line <= span.end.line:
                    if type(child) is cst.FunctionDef:
                        found.append(f"{prefix}{child.name.value}")
                    visit(child, f"{prefix}{child.name.value}.")
            elif positions.get(child) is None or positions[child].start.line <= line <= positions[child].end.line:
                visit(child, prefix)

    visit(wrapper.module, f"{module}." if module else "")
    return found[::-1]


def classify(package_dir: Path, misses: list[dict]) -> list[tuple[dict, str]]:
    files = discover([package_dir], SettingsResolver(isolated=True))
    outcomes = analyze_all(files, 1, explicit=[])
    summaries = [outcome.summary for outcome in outcomes if outcome.summary is not None]
    reached = Project(summaries, lambda path, distribution: None).traced_functions()
    by_path = {Path(summary.path).resolve(): summary for summary in summaries}
    verdicts = []
    for miss in misses:
        path = (package_dir / miss["file"]).resolve()
        summary = by_path.get(path)
        if summary is None:
            verdicts.append((miss, "not analysed"))
            continue
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        around = enclosing_functions(text, summary.module, int(miss["start_line"]))
        if not around:
            verdicts.append((miss, "module level"))
        elif any(name in reached for name in around):
            verdicts.append((miss, "reached"))
        else:
            verdicts.append((miss, "not reached"))
    return verdicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--score", type=Path, required=True)
    parser.add_argument("--src", type=Path, required=True, help="the unpacked packages (name-version folders)")
    parser.add_argument("--package", action="append", help="only these packages (name==version)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    data = json.loads(args.score.read_text(encoding="utf-8"))
    grouped: dict[str, list[dict]] = defaultdict(list)
    for miss in data["false_negatives"]:
        if not args.package or miss["package"] in args.package:
            grouped[miss["package"]].append(miss)
    counts: Counter[tuple[str, str]] = Counter()
    rows = []
    for package in sorted(grouped):
        name, _, version = package.partition("==")
        for miss, verdict in classify(args.src / f"{name}-{version}", grouped[package]):
            counts[(miss["rule"], verdict)] += 1
            rows.append({**miss, "verdict": verdict})
            if verdict != "reached":
                print(f"{verdict:<13} {miss['rule']} {package} {miss['file']}:{miss['start_line']} {miss['note'][:110]}")
    for rule in sorted({rule for rule, _ in counts}):
        parts = ", ".join(f"{verdict} {counts[(rule, verdict)]}" for verdict in ("reached", "not reached", "not analysed", "module level"))
        print(f"{rule}: {parts}")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
