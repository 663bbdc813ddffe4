#!/usr/bin/env python3
"""outside.py PYTHON ORIG_DIR FIXED_DIR: hunks that `--fix` changed in the original files where no
fix offered by `check . -n --unsafe-fixes --output-format json` (run on the ORIGINAL package) has an
edit (review 4's E1: a fix applied in a later pass that the offer list did not show). Prints, per
package and file, the original line ranges changed outside every offered edit's range."""
from __future__ import annotations

import difflib
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

python, orig, fixed = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
for pkg in sorted(p for p in orig.iterdir() if p.is_dir()):
    changed = []
    for f in sorted(pkg.rglob("*.py")):
        g = fixed / pkg.name / f.relative_to(pkg)
        if g.exists() and g.read_bytes() != f.read_bytes():
            changed.append(f)
    if not changed:
        continue
    out = subprocess.run([python, "-m", "mcp_lint", "check", ".", "-n", "--unsafe-fixes", "--output-format", "json", "--exit-zero"],
                         cwd=pkg, capture_output=True, text=True).stdout
    covered: dict[str, set[int]] = defaultdict(set)
    for finding in json.loads(out or "[]"):
        fix = finding.get("fix")
        if not fix:
            continue
        rel = str(Path(finding["filename"]).relative_to(pkg.resolve()))
        for edit in fix["edits"]:
            a, b = edit["location"]["row"], edit["end_location"]["row"]
            covered[rel].update(range(a - 1, b + 2))
    for f in changed:
        rel = str(f.relative_to(pkg))
        a = f.read_text().splitlines()
        b = (fixed / pkg.name / rel).read_text().splitlines()
        outside = []
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            lines = set(range(i1 + 1, max(i2, i1 + 1) + 1))
            if not lines & covered[rel]:
                outside.append((i1 + 1, i2, j1 + 1, j2))
        if outside:
            print(f"{pkg.name} {rel}: " + "; ".join(f"orig {x}-{y} -> fixed {u}-{v}" for x, y, u, v in outside))
