"""Reach: how many tools mcp-lint links per package of a labeled set, against the reader's count.

A server whose tools mcp-lint never links is checked by no rule, so every label in it is a miss
(a silent zero unless the run warns). This script runs `mcp-lint check -v` on each unpacked
package of a set, counts the tools the run linked (and those it names as unchecked), and
compares them with `tool_count` of the set's labeled-packages.tsv (what a reader counted).

    python bench/reach.py --labels bench/heldout8/labeled-packages.tsv --src /work/labeling/heldout8/src \
        [--mcp-lint PATH] [--json OUT]

Columns: package, reader's tools, linked tools, tools named unchecked, exit code, warned (the
run printed an "unchecked"/"nothing checked" warning), and the verdict: full, partial, zero.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

_SERVER = re.compile(r"^mcp-lint: (?:server \S+|tools without a server) \(.*; (\d+) tools?(?::|$)")
_UNCHECKED = re.compile(r"\((\d+) tools? not checked")


def package_folder(src: Path, package: str) -> Path | None:
    """The unpacked folder of `name==version` under `src` (its name spelled `name-version`)."""
    name, _, version = package.partition("==")
    for candidate in (f"{name}-{version}", f"{name.replace('-', '_')}-{version}", name):
        if (src / candidate).is_dir():
            return src / candidate
    lowered = {entry.name.lower().replace("_", "-"): entry for entry in src.iterdir()}
    return lowered.get(f"{name}-{version}".lower().replace("_", "-"))


def measure(mcp_lint: str, folder: Path, keep: Path | None = None, reuse: bool = False) -> dict[str, int]:
    """Linked and unchecked tool counts of one run of `check -v` in `folder` (its stderr
    written to `keep` when given, its JSON findings beside it; with `reuse`, a kept run is read
    instead of run again)."""
    if reuse and keep is not None and keep.is_file():
        stderr, returncode = keep.read_text(), -1
    else:
        run = subprocess.run(
            [mcp_lint, "check", ".", "-v", "--no-cache", "--output-format", "json", "--jobs", "1"],
            cwd=folder, capture_output=True, text=True, timeout=600,
        )
        stderr, returncode = run.stderr, run.returncode
        if keep is not None:
            keep.write_text(run.stderr)
            keep.with_suffix(".json").write_text(run.stdout)  # the findings, for bench/reach_score.py
    linked = unchecked = 0
    warned = 0
    for line in stderr.splitlines():
        if (found := _SERVER.match(line)) is not None:
            linked += int(found.group(1))
        elif line.startswith("mcp-lint: warning: "):
            warned = 1
            if (named := _UNCHECKED.search(line)) is not None:
                unchecked += int(named.group(1))
    return {"linked": linked, "unchecked": unchecked, "exit": returncode, "warned": warned}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, required=True, help="a labeled-packages.tsv with tool_count")
    parser.add_argument("--src", type=Path, required=True, help="the folder of unpacked packages")
    parser.add_argument("--mcp-lint", default=shutil.which("mcp-lint") or str(Path(sys.executable).with_name("mcp-lint")))
    parser.add_argument("--json", type=Path, help="write the rows here")
    parser.add_argument("--keep", type=Path, help="a folder to keep each run's stderr in (PACKAGE.err)")
    parser.add_argument("--reuse", action="store_true", help="read a run kept in --keep instead of running it again")
    args = parser.parse_args()
    rows = []
    with args.labels.open(newline="") as handle:
        for entry in csv.DictReader(handle, delimiter="\t"):
            folder = package_folder(args.src, entry["package"])
            try:
                reader = int(entry["tool_count"])
            except ValueError:
                reader = -1
            if folder is None:
                print(f"{entry['package']}\t{reader}\tmissing", flush=True)
                continue
            keep = None
            if args.keep is not None:
                args.keep.mkdir(parents=True, exist_ok=True)
                keep = args.keep / f"{entry['package']}.err"
            counts = measure(args.mcp_lint, folder, keep, args.reuse)
            verdict = "zero" if counts["linked"] == 0 else "partial" if counts["linked"] < reader else "full"
            row = {"package": entry["package"], "reader": reader, **counts, "verdict": verdict}
            rows.append(row)
            print("\t".join(str(value) for value in row.values()), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
