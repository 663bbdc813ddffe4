"""Split a labeled MCP004 set's false alarms by whether the labeler read the function they sit in.

An MCP004 set (bench/blind004*) lists in read.tsv every function its labeler read, with or without
a case: only there does "no label" mean "judged: no case". A finding in a function nobody read is
unjudged, not false. This prints, per rule, precision over all false alarms and over those in read
functions only (each figure next to the other; neither replaces the plain score).

    python bench/read_scope.py --set bench/blind004f --score score.json --src <unpacked packages>

`score.json` is bench/blind.py's `--json` output; `--src` holds NAME-VERSION folders as blind.py
unpacks them. The enclosing function is the innermost def whose lines hold the finding's line.
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import re
from pathlib import Path


def _read_functions(set_dir: Path) -> set[tuple[str, str, str]]:
    """(package, file, function name) of each function read. A row's function cell may name
    several (`a, b, c`), a method as `Class.method`, or add a remark in parentheses: every
    identifier in it counts, and a dotted name also by its last part."""
    out: set[tuple[str, str, str]] = set()
    with (set_dir / "read.tsv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            for name in re.findall(r"[A-Za-z_][\w.]*", row["function"] or ""):
                out.add((row["package"], row["file"], name))
                out.add((row["package"], row["file"], name.rsplit(".", 1)[-1]))
    return out


def _package_dir(src: Path, package: str) -> Path:
    name, _, version = package.partition("==")
    return src / f"{name}-{version}"


def enclosing_function(path: Path, line: int) -> str | None:
    """The innermost function or method defined in `path` whose lines hold `line`."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError):
        return None
    best: ast.AST | None = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best.name if best is not None else None  # type: ignore[attr-defined]


def split(set_dir: Path, score: dict, src: Path) -> dict[str, dict[str, float | int]]:
    read = _read_functions(set_dir)
    out: dict[str, dict[str, float | int]] = {}
    for rule, row in score["report"].items():
        if rule == "all":
            continue
        in_read = 0
        for alarm in score["false_positives"]:
            if alarm["rule"] != rule:
                continue
            function = enclosing_function(_package_dir(src, alarm["package"]) / alarm["file"], int(alarm["line"]))
            in_read += (alarm["package"], alarm["file"], function) in read
        tp, fp = int(row["tp"]), int(row["fp"])
        out[rule] = {
            "tp": tp,
            "fp": fp,
            "fp_in_read": in_read,
            "fn": int(row["fn"]),
            "precision": round(tp / (tp + fp), 2) if tp + fp else float("nan"),
            "precision_read": round(tp / (tp + in_read), 2) if tp + in_read else float("nan"),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, required=True, help="the labeled set's directory (with read.tsv)")
    parser.add_argument("--score", type=Path, required=True, help="bench/blind.py --json output")
    parser.add_argument("--src", type=Path, required=True, help="where the packages are unpacked (NAME-VERSION folders)")
    args = parser.parse_args()
    table = split(args.set, json.loads(args.score.read_text(encoding="utf-8")), args.src)
    print("rule     tp   fp  fp(read)   fn  precision  precision(read)")
    for rule, row in table.items():
        print(f"{rule:<7} {row['tp']:>3} {row['fp']:>4} {row['fp_in_read']:>9} {row['fn']:>4}  {row['precision']:>9}  {row['precision_read']:>15}")


if __name__ == "__main__":
    main()
