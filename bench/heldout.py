#!/usr/bin/env python3
"""Smoke run on real MCP servers outside the labeled corpus: mcp-lint must never break on them.

    python bench/heldout.py               # fetch bench/heldout.txt, lint each package, report
    python bench/heldout.py --corpus DIR  # where to fetch (default ~/.cache/mcp-lint-bench/heldout)

The packages (pinned in `bench/heldout.txt`) are real servers from PyPI that the rules were never
tuned on; their findings were reviewed by hand once (bench/heldout.md). Each is linted from its own
folder with `python -m mcp_lint check . --no-cache --select ALL --output-format json` (this
interpreter's mcp-lint), like measure.sh does
for the labeled corpus. The run fails when mcp-lint exits with anything but 0 or 1, prints an
internal error, reports MCP000 for a file CPython itself parses, or prints output that is not JSON:
a crash on code nobody here has seen is the failure this catches. The findings per package and rule
are printed (and written with `--json`) so that a change's effect on unseen code can be read off.
Without `../shared/corpus/fetch.sh` or a reachable package index it says so and exits 0.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import warnings
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FETCH = REPO.parent / "shared" / "corpus" / "fetch.sh"
LIST = Path(__file__).resolve().with_name("heldout.txt")
DEFAULT_CORPUS = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mcp-lint-bench" / "heldout"


def pinned(list_path: Path) -> list[str]:
    """The `name==version` lines of the list, comments and blanks left out."""
    specs = []
    for line in list_path.read_text(encoding="utf-8").splitlines():
        spec = line.split("#", 1)[0].strip()
        if spec:
            specs.append(spec)
    return specs


def parses(path: Path) -> bool:
    """Whether CPython parses the file: MCP000 on such a file is mcp-lint's failure, not the file's."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences in old code
            ast.parse(path.read_bytes())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def lint(folder: Path) -> tuple[Counter[str], list[str]]:
    """Findings per rule of one package, and what went wrong linting it."""
    run = subprocess.run(
        # The mcp-lint of this interpreter, on PATH or not (a venv that was not activated).
        [sys.executable, "-m", "mcp_lint", "check", ".", "--no-cache", "--select", "ALL", "--output-format", "json", "--exit-zero"],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    problems = [f"{folder.name}: {line}" for line in run.stderr.splitlines() if "internal error" in line]
    if run.returncode not in (0, 1):
        problems.append(f"{folder.name}: mcp-lint exited {run.returncode}: {run.stderr.strip()[-300:]}")
        return Counter(), problems
    try:
        findings = json.loads(run.stdout)
    except json.JSONDecodeError:
        return Counter(), [*problems, f"{folder.name}: the output is not JSON: {run.stdout[:200]!r}"]
    for finding in findings:
        if finding["code"] == "MCP000" and parses(folder / finding["filename"]):
            problems.append(f"{folder.name}: MCP000 on a file CPython parses: {finding['filename']}: {finding['message']}")
    return Counter(finding["code"] for finding in findings), problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help=f"where to fetch (default {DEFAULT_CORPUS})")
    parser.add_argument("--json", type=Path, help="also write the findings per package and rule here")
    args = parser.parse_args(argv)
    if not FETCH.is_file():
        print(f"heldout: no fetch script at {FETCH}; nothing measured")
        return 0
    args.corpus.mkdir(parents=True, exist_ok=True)
    fetch = subprocess.run(["bash", str(FETCH), str(LIST), str(args.corpus)], capture_output=True, text=True)
    if fetch.returncode != 0:
        tail = " ".join(fetch.stderr.strip().splitlines()[-2:])
        print(f"heldout: the packages could not be fetched (no package index reachable?): {tail[-300:]}")
        return 0
    counts: dict[str, dict[str, int]] = {}
    problems: list[str] = []
    for spec in pinned(LIST):
        name, version = spec.split("==")
        found, wrong = lint(args.corpus / "src" / f"{name}-{version}")
        counts[spec] = dict(sorted(found.items()))
        problems += wrong
        print(f"{spec:<48} {sum(found.values()):4d}  " + " ".join(f"{code}:{n}" for code, n in sorted(found.items())))
    total = sum((Counter(c) for c in counts.values()), Counter())
    print(f"{len(counts)} packages, {sum(total.values())} findings: " + " ".join(f"{c}:{n}" for c, n in sorted(total.items())))
    if args.json is not None:
        args.json.write_text(json.dumps(counts, indent=2) + "\n", encoding="utf-8")
    for problem in problems:
        print(f"heldout: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
