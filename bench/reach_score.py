"""Score the findings bench/reach.py kept (one JSON report per package) against a set's labels,
as bench/blind.py would, without linting the packages a second time.

    python bench/reach_score.py --set bench/heldout8 --kept DIR --src /work/labeling/heldout8/src \\
        --out DIR2 [--rules MCP002,MCP005]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from blind import CORPUS_TOOLS, RULES, finding_rows, package_folder, pinned, score, write_findings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, required=True)
    parser.add_argument("--kept", type=Path, required=True, help="bench/reach.py --keep folder (PACKAGE.json)")
    parser.add_argument("--src", type=Path, required=True, help="the unpacked packages")
    parser.add_argument("--out", type=Path, required=True, help="where findings.tsv and score.json go")
    parser.add_argument("--rules", default=RULES)
    parser.add_argument("--tools", type=Path, default=CORPUS_TOOLS)
    args = parser.parse_args()
    rows = []
    for spec in pinned(args.set / "packages.txt"):
        kept = args.kept / f"{spec}.json"
        if not kept.is_file():
            print(f"reach_score: no report for {spec}", file=sys.stderr)
            continue
        findings = json.loads(kept.read_text() or "[]")
        rows.extend(finding_rows(spec, package_folder(args.src.parent, spec).resolve(), findings))
    args.out.mkdir(parents=True, exist_ok=True)
    write_findings(rows, args.out / "findings.tsv")
    score(args.tools, args.set, args.out / "findings.tsv", args.out / "score.json", args.rules)
    return 0


if __name__ == "__main__":
    sys.exit(main())
