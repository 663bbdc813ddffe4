#!/usr/bin/env python3
"""Precision and recall of mcp-lint on a held-out set of real servers labeled blind.

    python bench/blind.py                          # the set in bench/blind/
    python bench/blind.py --set bench/blind004     # another set with the same three files
    python bench/blind.py --corpus DIR --json OUT  # where to unpack; also write the score as JSON
    python bench/blind.py --no-fetch --corpus DIR  # reuse packages already unpacked in DIR/src

A set is a directory holding `packages.txt` (pinned `name==version` lines), `labeled-packages.tsv`
and `labels.tsv` (the columns of `../shared/corpus/`'s files of the same names). Its labels were
written by reading every tool of those servers before mcp-lint was run on them, so the figures say
how the rules do on code they were never shaped on.

The packages are fetched with `../shared/corpus/fetch.sh` into `$TMPDIR/mcp-lint-blind/<set>` (by
default), each is linted from its own folder with `mcp-lint check . --output-format json --no-cache
--exit-zero` (as `measure.sh` does for the public corpus), the findings are written to
`findings.tsv` there and scored with `../shared/corpus/score.py`, which prints the per-rule table.
Every false negative (with its label's note) and every false positive is listed after it.
`--tools DIR` (or `$MCP_LINT_CORPUS_TOOLS`) names another directory holding fetch.sh and score.py,
for a checkout that does not sit beside `shared/` (a worktree).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS_TOOLS = Path(os.environ.get("MCP_LINT_CORPUS_TOOLS") or REPO.parent / "shared" / "corpus")
DEFAULT_SET = REPO / "bench" / "blind"
RULES = "MCP001,MCP002,MCP003,MCP004,MCP005"
SET_FILES = ("packages.txt", "labeled-packages.tsv", "labels.tsv")


class BlindError(Exception):
    """A reason the set cannot be measured, worded as one line for the user."""


def check_set(set_dir: Path) -> None:
    """Fail when the set directory lacks one of its three files."""
    missing = [name for name in SET_FILES if not (set_dir / name).is_file()]
    if missing:
        raise BlindError(f"{set_dir} is not a labeled set: missing {', '.join(missing)}")


def pinned(list_path: Path) -> list[str]:
    """The `name==version` lines of a package list, comments and blank lines left out."""
    specs = []
    for line in list_path.read_text(encoding="utf-8").splitlines():
        spec = line.split("#", 1)[0].strip()
        if spec:
            specs.append(spec)
    return specs


def package_folder(corpus: Path, spec: str) -> Path:
    """Where fetch.sh unpacks `name==version`: CORPUS/src/name-version."""
    name, _, version = spec.partition("==")
    return corpus / "src" / f"{name}-{version}"


def fetch(tools: Path, set_dir: Path, corpus: Path) -> None:
    """Download and unpack the set's packages into CORPUS (packages already there are kept)."""
    fetch_script = tools / "fetch.sh"
    if not fetch_script.is_file():
        raise BlindError(f"no fetch script at {fetch_script} (give --tools or put ../shared/corpus beside the checkout)")
    corpus.mkdir(parents=True, exist_ok=True)
    run = subprocess.run(["bash", str(fetch_script), str(set_dir / "packages.txt"), str(corpus)], capture_output=True, text=True)
    if run.returncode != 0:
        tail = " ".join(run.stderr.strip().splitlines()[-3:])
        raise BlindError(f"fetching the set failed (is a package index reachable?): {tail[-300:]}")


def finding_rows(package: str, folder: Path, findings: list[dict]) -> list[tuple[str, str, int, str]]:
    """(package, file, line, rule) for each finding of mcp-lint's JSON output, the file relative to
    the package folder as the labels name it."""
    prefix = str(folder) + os.sep
    rows = []
    for finding in findings:
        filename = finding["filename"]
        relative = filename[len(prefix):] if filename.startswith(prefix) else filename
        rows.append((package, relative.replace(os.sep, "/"), int(finding["location"]["row"]), finding["code"]))
    return rows


def lint(mcp_lint: str, package: str, folder: Path, rules: str = "") -> list[tuple[str, str, int, str]]:
    """Run mcp-lint on one unpacked package from its own folder and return its finding rows. The
    scored `rules` are added to the selection: a preview rule (off by default) is scored on."""
    if not folder.is_dir():
        raise BlindError(f"{package}: not unpacked at {folder}")
    selection = ["--extend-select", rules] if rules else []
    run = subprocess.run(
        [mcp_lint, "check", ".", "--output-format", "json", "--no-cache", "--exit-zero", *selection],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        raise BlindError(f"{package}: mcp-lint exited {run.returncode}: {run.stderr.strip()[-300:]}")
    try:
        findings = json.loads(run.stdout)
    except json.JSONDecodeError as error:
        raise BlindError(f"{package}: mcp-lint printed no JSON ({error.msg} at char {error.pos})") from None
    return finding_rows(package, folder.resolve(), findings)


def write_findings(rows: list[tuple[str, str, int, str]], path: Path) -> None:
    """findings.tsv in the columns score.py reads."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["package", "file", "line", "rule"])
        writer.writerows(rows)


def score(tools: Path, set_dir: Path, findings: Path, score_json: Path, rules: str) -> None:
    """Score the findings against the set's labels with the shared scorer; it prints the table."""
    scorer = tools / "score.py"
    if not scorer.is_file():
        raise BlindError(f"no scorer at {scorer} (give --tools or put ../shared/corpus beside the checkout)")
    run = subprocess.run(
        [
            sys.executable,
            str(scorer),
            str(set_dir / "labels.tsv"),
            str(set_dir / "labeled-packages.tsv"),
            str(findings),
            "--rules",
            rules,
            "--json",
            str(score_json),
        ],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        raise BlindError(f"score.py failed: {run.stderr.strip()[-300:]}")
    sys.stdout.write(run.stdout)


def misses_and_false_alarms(score_json: Path) -> list[str]:
    """One line per false negative (with its label's note) and per false positive."""
    data = json.loads(score_json.read_text(encoding="utf-8"))
    lines = []
    for label in sorted(data["false_negatives"], key=lambda l: (l["rule"], l["package"], l["file"], int(l["start_line"]))):
        span = label["start_line"] if label["start_line"] == label["end_line"] else f"{label['start_line']}-{label['end_line']}"
        lines.append(f"FN {label['rule']} {label['package']} {label['file']}:{span} {label['note']}")
    for finding in sorted(data["false_positives"], key=lambda f: (f["rule"], f["package"], f["file"], int(f["line"]))):
        lines.append(f"FP {finding['rule']} {finding['package']} {finding['file']}:{finding['line']}")
    return lines


def default_corpus(set_dir: Path) -> Path:
    return Path(os.environ.get("TMPDIR", "/tmp")) / "mcp-lint-blind" / set_dir.resolve().name


def default_mcp_lint() -> str:
    """The mcp-lint on PATH, else the one installed beside this Python."""
    found = shutil.which("mcp-lint")
    if found:
        return found
    return str(Path(sys.executable).with_name("mcp-lint"))


def run(
    set_dir: Path,
    corpus: Path,
    *,
    tools: Path,
    do_fetch: bool,
    mcp_lint: str,
    rules: str,
    json_out: Path | None,
    table_only: bool = False,
) -> None:
    check_set(set_dir)
    if do_fetch:
        fetch(tools, set_dir, corpus)
    rows = []
    for spec in pinned(set_dir / "packages.txt"):
        rows.extend(lint(mcp_lint, spec, package_folder(corpus, spec), rules))
    findings = corpus / "findings.tsv"
    write_findings(rows, findings)
    score_json = corpus / "score.json"
    score(tools, set_dir, findings, score_json, rules)
    # A held-out set stays held out only while nobody reads its misses: --table-only keeps them
    # off the screen (they are still in the JSON for whoever may read them later).
    if not table_only:
        for line in misses_and_false_alarms(score_json):
            print(line)
    # The score already sits in the corpus folder; copying a file onto itself would fail.
    if json_out is not None and json_out.resolve() != score_json.resolve():
        shutil.copyfile(score_json, json_out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="directory of the labeled set (default bench/blind)")
    parser.add_argument("--corpus", type=Path, help="where the packages are unpacked (default $TMPDIR/mcp-lint-blind/<set>)")
    parser.add_argument(
        "--tools", type=Path, default=CORPUS_TOOLS, help="directory holding fetch.sh and score.py (default ../shared/corpus)"
    )
    parser.add_argument("--no-fetch", action="store_true", help="use the packages already unpacked in --corpus")
    parser.add_argument("--mcp-lint", default=None, help="the mcp-lint executable (default: the one on PATH)")
    parser.add_argument("--rules", default=RULES, help=f"rules to score (default {RULES})")
    parser.add_argument("--json", type=Path, help="also write the score (table, misses, false alarms) here")
    parser.add_argument(
        "--table-only", action="store_true", help="print the per-rule table only, not the misses and false alarms"
    )
    args = parser.parse_args(argv)
    corpus = args.corpus or default_corpus(args.set)
    try:
        run(
            args.set,
            corpus,
            tools=args.tools,
            do_fetch=not args.no_fetch,
            mcp_lint=args.mcp_lint or default_mcp_lint(),
            rules=args.rules,
            json_out=args.json,
            table_only=args.table_only,
        )
    except BlindError as error:
        print(f"blind: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
