#!/usr/bin/env python3
"""Run `mcp-lint check . --fix --unsafe-fixes` on a copy of a corpus and check what it did.

    python bench/fix_corpus.py                    # the corpus at /work/corpus/src
    python bench/fix_corpus.py PATH [--keep]      # another corpus; --keep leaves the copy for reading

The corpus (one directory per unpacked package) is copied to a temporary directory, never touched
in place. The first run fixes the copy; the script then counts the files it changed and the fixes
it applied, parses every .py file of the copy with libcst, checks that the files that did not parse
before were not written, and runs the same command a second time, which must change nothing. It
prints the counts and exits 1 when any check fails (issue #3's corpus criterion).

With ruff installed (`pip install ruff`), it also counts what a reviewer would flag in the changed
files, before and after the fix, package by package and with the package's own ruff settings where
it has them (its isort sections, known-first-party): pyflakes (F), syntax errors (E9), bugbear (B,
B904 among them), import order (I), implicit concatenation on one line (ISC001) and f-strings in
logging calls (G004). No package may end with more of them (issue 23); without ruff the check is
skipped and the output says so.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import libcst

COMMAND = ["check", ".", "--fix", "--unsafe-fixes"]
# What a reviewer would flag in a fix (issue 23): pyflakes, syntax errors, bugbear (B904: a raise in
# `except` without `from`), import order (I001), implicit concatenation, f-strings in logging.
REVIEW_CODES = ("F", "E9", "B", "I", "ISC001", "G004")
_SUMMARY = re.compile(r"^Found (\d+) errors? \((\d+) fixed, (\d+) remaining\)\.$", re.M)
_FOUND = re.compile(r"^Found (\d+) errors?\.$", re.M)


@dataclass
class Run:
    exit_code: int
    seconds: float
    fixed: int
    remaining: int
    errors: list[str]  # `mcp-lint: error: ...` lines (fix loop failures, unwritable files)
    summary: str


def run_fix(root: Path) -> Run:
    started = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "mcp_lint", *COMMAND],
        cwd=root,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    summary = next((line for line in reversed(completed.stdout.splitlines()) if line.startswith(("Found ", "All checks"))), "")
    fixed = remaining = 0
    if (match := _SUMMARY.search(completed.stdout)) is not None:
        fixed, remaining = int(match.group(2)), int(match.group(3))
    elif (match := _FOUND.search(completed.stdout)) is not None:
        remaining = int(match.group(1))
    errors = [line for line in completed.stderr.splitlines() if line.startswith("mcp-lint: error:")]
    return Run(completed.returncode, seconds, fixed, remaining, errors, summary)


def digests(root: Path) -> dict[Path, str]:
    return {path.relative_to(root): hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(root.rglob("*.py"))}


def unparsable(root: Path, files: list[Path]) -> list[Path]:
    bad = []
    for relative in files:
        try:
            libcst.parse_module((root / relative).read_bytes())
        except Exception:  # noqa: BLE001 - any failure means "does not parse"
            bad.append(relative)
    return bad


def uncompilable(root: Path, files: list[Path]) -> list[Path]:
    """Files the running Python refuses (stricter than libcst: e.g. quotes nested in an f-string
    before 3.12, `await` outside async functions)."""
    bad = []
    for relative in files:
        try:
            compile((root / relative).read_bytes(), str(relative), "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            bad.append(relative)
    return bad


def ruff_counts(root: Path, files: list[Path]) -> dict[str, Counter[str]] | None:
    """Findings of REVIEW_CODES in `files` (relative to `root`), by package (first path part) and
    code; ruff runs in each package's folder, so that package's own settings apply. None when ruff
    is not installed."""
    ruff = shutil.which("ruff")
    command = [ruff] if ruff else [sys.executable, "-m", "ruff"]
    arguments = ["check", "--no-cache", "--select", ",".join(REVIEW_CODES), "--output-format", "json", "--exit-zero"]
    counts: dict[str, Counter[str]] = {}
    by_package: dict[str, list[str]] = {}
    for path in files:
        by_package.setdefault(path.parts[0], []).append(str(Path(*path.parts[1:])))
    for package, names in sorted(by_package.items()):
        try:
            completed = subprocess.run([*command, *arguments, *names], cwd=root / package, capture_output=True, text=True)
        except OSError:
            return None
        if completed.returncode != 0:
            return None
        counts[package] = Counter(item["code"] for item in json.loads(completed.stdout or "[]"))
    return counts


def total(counts: dict[str, Counter[str]]) -> Counter[str]:
    summed: Counter[str] = Counter()
    for package_counts in counts.values():
        summed.update(package_counts)
    return summed


def format_counts(counts: Counter[str]) -> str:
    shown = ", ".join(f"{code} {n}" for code, n in sorted(counts.items()))
    return f"{sum(counts.values())} ({shown or 'none'})"


def ruff_rises(before: dict[str, Counter[str]], after: dict[str, Counter[str]]) -> list[str]:
    """Each package whose changed files end with more of some review code than they began with."""
    rises = []
    for package in sorted(after):
        up = {code: n for code, n in after[package].items() if n > before.get(package, Counter()).get(code, 0)}
        if up:
            rises.append(f"{package}: " + ", ".join(f"{code} {before.get(package, Counter()).get(code, 0)} -> {n}" for code, n in sorted(up.items())))
    return rises


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default="/work/corpus/src", type=Path, help="directory of unpacked packages")
    parser.add_argument("--keep", action="store_true", help="keep the fixed copy and print where it is")
    args = parser.parse_args(argv)
    source: Path = args.corpus.resolve()
    if not source.is_dir():
        parser.error(f"{source} is not a directory")

    workdir = Path(tempfile.mkdtemp(prefix="mcp-lint-fix-corpus-"))
    root = workdir / "corpus"
    shutil.copytree(source, root, symlinks=True)
    try:
        before = digests(root)
        broken_before = unparsable(root, list(before))
        packages = sorted({path.parts[0] for path in before if len(path.parts) > 1})
        print(f"corpus: {source} ({len(packages)} packages, {len(before)} .py files, {len(broken_before)} not parsable)")
        print(f"command: mcp-lint {' '.join(COMMAND)} (in a copy: {root})")

        first = run_fix(root)
        after = digests(root)
        changed = sorted(path for path in before if after.get(path) != before[path])
        by_package = Counter(path.parts[0] for path in changed if len(path.parts) > 1)
        broken_after = unparsable(root, list(after))
        newly_broken = sorted(set(broken_after) - set(broken_before))
        written_broken = [path for path in broken_before if path in changed]
        print(f"run 1: exit {first.exit_code} in {first.seconds:.1f} s: {first.summary}")
        print(f"  files changed: {len(changed)} in {len(by_package)} packages; fixes applied: {first.fixed}; findings left: {first.remaining}")
        for package, count in sorted(by_package.items()):
            print(f"    {count:4d}  {package}")
        for error in first.errors:
            print(f"  {error}")
        print(f"  unparsable after fixing: {len(newly_broken)}; non-parsable originals written: {len(written_broken)}")
        newly_uncompilable = sorted(set(uncompilable(root, changed)) - set(uncompilable(source, changed)))
        print(f"  changed files this Python no longer compiles: {len(newly_uncompilable)}")

        review_before = ruff_counts(source, changed) if changed else {}
        review_after = ruff_counts(root, changed) if changed else {}
        if review_before is None or review_after is None:
            print("  ruff: not installed, the review check is skipped (pip install ruff)")
        else:
            print(f"  ruff {','.join(REVIEW_CODES)} on the changed files: before {format_counts(total(review_before))}, after {format_counts(total(review_after))}")

        second = run_fix(root)
        again = digests(root)
        changed_again = sorted(path for path in after if again.get(path) != after[path])
        print(f"run 2: exit {second.exit_code} in {second.seconds:.1f} s: {second.summary}")
        print(f"  files changed: {len(changed_again)}; fixes applied: {second.fixed}")

        problems = []
        if not changed:
            problems.append("the first run changed no file")
        if first.errors or second.errors:
            problems.append(f"{len(first.errors) + len(second.errors)} fix errors (see above)")
        if newly_broken:
            problems.append("files no longer parse: " + ", ".join(map(str, newly_broken[:10])))
        if newly_uncompilable:
            problems.append("files no longer compile: " + ", ".join(map(str, newly_uncompilable[:10])))
        if written_broken:
            problems.append("files that did not parse were written: " + ", ".join(map(str, written_broken[:10])))
        if changed_again or second.fixed:
            problems.append("the second run still fixed: " + ", ".join(map(str, changed_again[:10])))
        if review_before is not None and review_after is not None:
            problems.extend(f"the fixes added ruff findings in {rise}" for rise in ruff_rises(review_before, review_after))
        for problem in problems:
            print(f"FAIL: {problem}")
        if not problems:
            print("OK: files changed, every file parses, the second run had nothing left to fix")
        return 1 if problems else 0
    finally:
        if args.keep:
            print(f"kept: {root}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
