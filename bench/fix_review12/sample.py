#!/usr/bin/env python3
"""Pick the review sample: statements offered a fix (JSON of `check --unsafe-fixes` on the ORIGINAL
packages), sorted by file and line, at most Q per package, taken evenly (indices i*n//k); then
write, for each, the unified diff of its file (original vs the kept fixed copy).

    sample.py PYTHON ORIG_DIR FIXED_DIR OUT_DIR [Q]
"""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path


def offered(python: str, package_dir: Path) -> list[dict]:
    done = subprocess.run(
        [python, "-m", "mcp_lint", "check", ".", "-n", "--unsafe-fixes", "--output-format", "json", "--exit-zero"],
        cwd=package_dir, capture_output=True, text=True,
    )
    if done.stderr.strip():
        print(f"[{package_dir.name}] stderr: {done.stderr.strip()[:500]}", file=sys.stderr)
    return json.loads(done.stdout or "[]")


def main() -> int:
    python, orig, fixed, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    q = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    counts = {}
    for package_dir in sorted(p for p in orig.iterdir() if p.is_dir()):
        findings = offered(python, package_dir)
        statements: dict[tuple[str, int], list[dict]] = defaultdict(list)
        for f in findings:
            # only fixes `--fix --unsafe-fixes` applies (a display-only fix is never written)
            if f.get("fix") is None or f["fix"].get("applicability") not in ("safe", "unsafe"):
                continue
            rel = str(Path(f["filename"]).relative_to(package_dir.resolve()))
            statements[(rel, f["location"]["row"])].append(f)
        keys = sorted(statements)
        n = len(keys)
        k = min(q, n)
        picked = [keys[i * n // k] for i in range(k)] if k else []
        counts[package_dir.name] = {"findings": len(findings), "with_fix": sum(len(v) for v in statements.values()), "statements": n, "picked": k}
        for key in picked:
            fs = statements[key]
            rows.append({
                "package": package_dir.name, "file": key[0], "line": key[1],
                "codes": sorted({f["code"] for f in fs}),
                "messages": [f["message"] for f in fs],
                "help": [f.get("help") for f in fs],
                "applicability": sorted({f["fix"]["applicability"] for f in fs}),
                # the edits of each finding's fix, to judge the statement's own fix and its help
                "edits": [[{"row": e["location"]["row"], "end_row": e["end_location"]["row"], "content": e["content"]}
                           for e in f["fix"]["edits"]] for f in fs],
            })
    (out / "sample.json").write_text(json.dumps({"per_package": counts, "sample": rows}, indent=1, ensure_ascii=False))
    diffs_done = set()
    for i, row in enumerate(rows, 1):
        a = orig / row["package"] / row["file"]
        b = fixed / row["package"] / row["file"]
        name = f"{row['package']}__{row['file'].replace('/', '_')}.diff"
        if name not in diffs_done:
            diff = difflib.unified_diff(a.read_text().splitlines(True), b.read_text().splitlines(True), str(a), str(b), n=6)
            (out / name).write_text("".join(diff))
            diffs_done.add(name)
        print(f"#{i} {row['package']} {row['file']}:{row['line']} {','.join(row['codes'])} {row['applicability']}")
    print(json.dumps(counts, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
