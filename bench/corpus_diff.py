#!/usr/bin/env python3
"""The labeled corpus's findings at two commits, diffed, each change classified.

    python bench/corpus_diff.py BEFORE [AFTER] --corpus DIR [--set bench/blind] [--rules MCP002,MCP005]

BEFORE and AFTER are git revisions of this repository (AFTER defaults to the working tree). Each
revision's `mcp_lint` package is exported with `git archive` and run with the current interpreter
on every labeled package of the set, as `measure.sh` runs it (`check . --output-format json
--no-cache --exit-zero` from the package's folder). Without `--set` the public corpus's labels
(`../shared/corpus/`) are used; a set directory holds `labeled-packages.tsv` and `labels.tsv`.

A finding is the tuple (package, file, rule, line). Every finding present at one revision and not
at the other is one change, classified against the labels with the matching rule of
`../shared/corpus/score.py` (same package, file and rule, line within a label's span plus one):

- miss fixed: a new finding that matches a label no finding matched before;
- false alarm removed: a finding gone that matched no label;
- moved: a finding gone and a new one of the same rule in the same function (the same label, or
  neither matching one): the flow is now reported at another statement;
- new false alarm: a new finding that matches no label;
- miss introduced: a finding gone whose label no finding matches now.

Only the set's labeled packages are linted. Prints a Markdown report; exits 1 when a
change is a new false alarm or a miss introduced, so the diff can gate a refactor.
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS_TOOLS = Path(os.environ.get("MCP_LINT_CORPUS_TOOLS") or REPO.parent / "shared" / "corpus")
WORKING_TREE = "WORKTREE"

MISS_FIXED = "miss fixed"
FALSE_ALARM_REMOVED = "false alarm removed"
MOVED = "moved"
NEW_FALSE_ALARM = "new false alarm"
MISS_INTRODUCED = "miss introduced"
ORDER = (MISS_FIXED, FALSE_ALARM_REMOVED, MOVED, NEW_FALSE_ALARM, MISS_INTRODUCED)
BAD = {NEW_FALSE_ALARM, MISS_INTRODUCED}


@dataclass(frozen=True, order=True)
class Finding:
    package: str
    file: str
    rule: str
    line: int


@dataclass(frozen=True)
class Label:
    package: str
    file: str
    rule: str
    start: int
    end: int
    note: str

    def covers(self, finding: Finding) -> bool:
        return (
            (self.package, self.file, self.rule) == (finding.package, finding.file, finding.rule)
            and self.start - 1 <= finding.line <= self.end + 1
        )


@dataclass(frozen=True)
class Change:
    kind: str
    before: Finding | None
    after: Finding | None
    label: Label | None


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def read_labels(path: Path, packages: set[str], rules: set[str] | None) -> list[Label]:
    return [
        Label(row["package"], row["file"], row["rule"], int(row["start_line"]), int(row["end_line"]), row.get("note", ""))
        for row in read_tsv(path)
        if row["package"] in packages and (rules is None or row["rule"] in rules)
    ]


def match(findings: set[Finding], labels: list[Label]) -> dict[Finding, Label]:
    """Each finding's label, matched at most once each way, in score.py's order (findings sorted)."""
    taken: set[int] = set()
    matched: dict[Finding, Label] = {}
    for finding in sorted(findings):
        for index, label in enumerate(labels):
            if index not in taken and label.covers(finding):
                taken.add(index)
                matched[finding] = label
                break
    return matched


def classify(
    before: set[Finding],
    after: set[Finding],
    labels: list[Label],
    function_of: Callable[[Finding], str | None],
) -> list[Change]:
    """Every finding in one set and not the other, as a classified change."""
    matched_before = match(before, labels)
    matched_after = match(after, labels)
    labels_found_before = {id(label) for label in matched_before.values()}
    labels_found_after = {id(label) for label in matched_after.values()}
    gone = sorted(before - after)
    new = sorted(after - before)
    changes: list[Change] = []

    # A flow reported at another statement: pair a gone finding with a new one of the same rule in
    # the same function, holding the same label or (both) none.
    unpaired_new = list(new)
    for old in list(gone):
        old_label = matched_before.get(old)
        for candidate in unpaired_new:
            same_place = (old.package, old.file, old.rule) == (candidate.package, candidate.file, candidate.rule)
            if not same_place or function_of(old) != function_of(candidate) or function_of(old) is None:
                continue
            new_label = matched_after.get(candidate)
            if (old_label is None) != (new_label is None):
                continue
            if old_label is not None and old_label is not new_label:
                continue
            changes.append(Change(MOVED, old, candidate, new_label))
            unpaired_new.remove(candidate)
            gone.remove(old)
            break

    for finding in unpaired_new:
        label = matched_after.get(finding)
        if label is None:
            changes.append(Change(NEW_FALSE_ALARM, None, finding, None))
        elif id(label) not in labels_found_before:
            changes.append(Change(MISS_FIXED, None, finding, label))
        else:
            changes.append(Change(MOVED, None, finding, label))
    for finding in gone:
        label = matched_before.get(finding)
        if label is None:
            changes.append(Change(FALSE_ALARM_REMOVED, finding, None, None))
        elif id(label) not in labels_found_after:
            changes.append(Change(MISS_INTRODUCED, finding, None, label))
        else:
            changes.append(Change(MOVED, finding, None, label))
    return changes


class Functions:
    """The innermost function around a line of a corpus file (its qualified name), read with ast."""

    def __init__(self, corpus: Path) -> None:
        self._corpus = corpus
        self._spans: dict[tuple[str, str], list[tuple[int, int, str]]] = {}

    def __call__(self, finding: Finding) -> str | None:
        spans = self._spans.get((finding.package, finding.file))
        if spans is None:
            spans = self._read(finding.package, finding.file)
            self._spans[(finding.package, finding.file)] = spans
        inside = [span for span in spans if span[0] <= finding.line <= span[1]]
        return max(inside, key=lambda span: span[0])[2] if inside else None

    def _read(self, package: str, file: str) -> list[tuple[int, int, str]]:
        path = package_folder(self._corpus, package) / file
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            return []
        spans: list[tuple[int, int, str]] = []

        def visit(node: ast.AST, prefix: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = f"{prefix}{child.name}"
                    if not isinstance(child, ast.ClassDef):
                        first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                        spans.append((first, child.end_lineno or child.lineno, name))
                    visit(child, name + ".")
                else:
                    visit(child, prefix)

        visit(tree, "")
        return spans


def package_folder(corpus: Path, package: str) -> Path:
    name, _, version = package.partition("==")
    return corpus / "src" / f"{name}-{version}"


def export(revision: str, into: Path) -> Path:
    """The revision's `mcp_lint` package unpacked under INTO; the directory to put on sys.path."""
    if revision == WORKING_TREE:
        return REPO
    target = into / revision.replace("/", "_")
    target.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision, "mcp_lint"], capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"corpus_diff: cannot export {revision}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def lint(code_root: Path, corpus: Path, packages: list[str], rules: set[str] | None) -> set[Finding]:
    """What the code at CODE_ROOT reports on each labeled package, as measure.sh collects it."""
    found: set[Finding] = set()
    env = {**os.environ, "PYTHONPATH": str(code_root)}
    selection = ["--extend-select", ",".join(sorted(rules))] if rules else []
    for package in packages:
        folder = package_folder(corpus, package)
        if not folder.is_dir():
            raise SystemExit(f"corpus_diff: {folder} is missing (fetch the corpus first)")
        run = subprocess.run(
            # The compared rules are selected explicitly: a preview rule is off by default.
            [sys.executable, "-m", "mcp_lint", "check", ".", "--output-format", "json", "--no-cache", "--exit-zero", *selection],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise SystemExit(f"corpus_diff: {package}: mcp-lint exited {run.returncode}: {run.stderr.strip()[-300:]}")
        for row in json.loads(run.stdout):
            if rules is not None and row["code"] not in rules:
                continue
            name = row["filename"]
            relative = name[len(str(folder)) + 1 :] if name.startswith(f"{folder}/") else name
            found.add(Finding(package, relative, row["code"], row["location"]["row"]))
    return found


def describe(finding: Finding | None) -> str:
    return "-" if finding is None else f"{finding.file}:{finding.line}"


def report(changes: list[Change], before: str, after: str) -> str:
    lines = [f"# Corpus findings, {before} -> {after}", ""]
    counts: dict[str, int] = defaultdict(int)
    for change in changes:
        counts[change.kind] += 1
    lines += ["| change | count |", "|---|---|"]
    lines += [f"| {kind} | {counts[kind]} |" for kind in ORDER]
    for kind in ORDER:
        rows = [change for change in changes if change.kind == kind]
        if not rows:
            continue
        lines += ["", f"## {kind}", "", "| package | rule | before | after | label |", "|---|---|---|---|---|"]
        for change in rows:
            finding = change.after or change.before
            assert finding is not None
            note = change.label.note.replace("|", "/") if change.label else ""
            lines.append(
                f"| {finding.package} | {finding.rule} | {describe(change.before)} | {describe(change.after)} | {note} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="git revision before the change")
    parser.add_argument("after", nargs="?", default=WORKING_TREE, help="git revision after (default: the working tree)")
    parser.add_argument("--corpus", type=Path, required=True, help="directory whose src/ holds the unpacked packages")
    parser.add_argument("--set", type=Path, help="a labeled set directory (default: ../shared/corpus)")
    parser.add_argument("--rules", help="comma-separated rule codes (default: every rule with labels)")
    parser.add_argument("--output", "-o", type=Path, help="write the report here instead of stdout")
    args = parser.parse_args(argv)

    set_dir = args.set or CORPUS_TOOLS
    missing = [name for name in ("labeled-packages.tsv", "labels.tsv") if not (set_dir / name).is_file()]
    if missing:
        parser.error(f"{set_dir} holds no labeled set (missing {', '.join(missing)}); give --set DIR")
    packages = [row["package"] for row in read_tsv(set_dir / "labeled-packages.tsv")]
    rules = set(args.rules.split(",")) if args.rules else None
    labels = read_labels(set_dir / "labels.tsv", set(packages), rules)
    if rules is None:
        rules = {label.rule for label in labels}
    with tempfile.TemporaryDirectory(prefix="corpus-diff-") as scratch:
        before = lint(export(args.before, Path(scratch)), args.corpus, packages, rules)
        after = lint(export(args.after, Path(scratch)), args.corpus, packages, rules)
    changes = classify(before, after, labels, Functions(args.corpus))
    text = report(changes, args.before, "working tree" if args.after == WORKING_TREE else args.after)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 1 if any(change.kind in BAD for change in changes) else 0


if __name__ == "__main__":
    raise SystemExit(main())
