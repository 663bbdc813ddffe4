#!/usr/bin/env python3
"""Which lines a prefiltered directory walk analyses, and how many of them any tool reaches.

    python bench/unreached_lines.py /work/corpus/src   # one line per package, largest first
    python bench/unreached_lines.py DIR --files        # also every analysed file no tool reaches

A cold run's cost is about its libcst parse (prefilter.py), so this says what a cheaper walk could
still skip, per package (the first directory level below DIR):

* `analysed`: lines of the files the prefilter analyses (`seeds`: the modules that may register a
  tool, analysed whatever the link step asks; the rest are modules the link step asked for);
* `unreached files`: lines of analysed files none of whose functions a tool reaches (modules read
  only for a base class, a re-export, or to learn that a name is not there);
* `unreached defs`: lines of functions (top-level and methods, with their nested functions) that
  no tool reaches, in the analysed files: the most that parsing only the reached functions could
  save. In seeds they may hold registrations (`def main(): mcp.add_tool(f)`), so there only the
  link step's own trace (project_links.Project.traced_functions) can tell them apart.

Serial and in one process (`--jobs 1`, no cache), so it takes about as long as a cold run's CPU.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.pipeline import analyze_all
from mcp_lint.prefilter import is_seed
from mcp_lint.project_links import Project

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Share:
    files: int = 0
    analysed: int = 0
    seeds: int = 0
    unreached_files: int = 0
    unreached_defs: int = 0


def unreached_def_lines(text: str, module: str, reached: set[str]) -> int:
    """Lines of the functions of `text` (module `module`) that neither are in `reached` nor hold
    a function that is; 0 when CPython cannot parse the file."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return 0
    prefixes = {name.rsplit(".", depth)[0] for name in reached for depth in range(name.count(".") + 1)}
    total = 0
    pending: list[tuple[ast.AST, str]] = [(tree, f"{module}." if module else "")]
    while pending:
        node, prefix = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _DEFS) and f"{prefix}{child.name}" not in prefixes:
                total += (child.end_lineno or child.lineno) - child.lineno + 1
            elif isinstance(child, ast.ClassDef):
                pending.append((child, f"{prefix}{child.name}."))
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--files", action="store_true", help="list the analysed files no tool reaches")
    args = parser.parse_args()
    root = args.directory.resolve()
    files = discover([root], SettingsResolver(isolated=True))
    outcomes = analyze_all(files, 1, explicit=[])
    summaries = [outcome.summary for outcome in outcomes if outcome.summary is not None]
    reached = Project(summaries, lambda path, distribution: None).traced_functions()
    shares: dict[str, Share] = defaultdict(Share)
    lonely: list[tuple[int, str]] = []
    for summary in summaries:
        path = Path(summary.path).resolve()
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        lines = text.count("\n")
        package = path.relative_to(root).parts[0] if path.is_relative_to(root) else str(path.parent)
        share = shares[package]
        share.files += 1
        share.analysed += lines
        if is_seed(text.encode("utf-8", "surrogateescape")):
            share.seeds += lines
        if not any(name in reached for name in summary.functions):
            share.unreached_files += lines
            lonely.append((lines, summary.path))
        share.unreached_defs += unreached_def_lines(text, summary.module, reached)
    total = Share()
    print(f"{'package':<44} {'files':>5} {'analysed':>9} {'seeds':>8} {'unreached files':>16} {'unreached defs':>15}")
    for package, share in sorted(shares.items(), key=lambda item: -item[1].analysed):
        print(
            f"{package[:44]:<44} {share.files:>5} {share.analysed:>9} {share.seeds:>8} "
            f"{share.unreached_files:>16} {share.unreached_defs:>15}"
        )
        for name in ("files", "analysed", "seeds", "unreached_files", "unreached_defs"):
            setattr(total, name, getattr(total, name) + getattr(share, name))
    all_lines = sum(path.read_bytes().count(b"\n") for path in files)
    print(
        f"{'total':<44} {total.files:>5} {total.analysed:>9} {total.seeds:>8} "
        f"{total.unreached_files:>16} {total.unreached_defs:>15}"
    )
    print(f"{len(files)} files, {all_lines} lines linted; {total.analysed / max(all_lines, 1):.0%} of the lines analysed")
    if args.files:
        for lines, path in sorted(lonely, reverse=True):
            print(f"{lines:>6} {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
