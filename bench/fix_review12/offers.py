#!/usr/bin/env python3
"""offers.py PYTHON ORIG_DIR OUT_JSON [PACKAGE...]: every statement offered an applied fix (safe or
unsafe) by `check . -n --unsafe-fixes` on the ORIGINAL packages, as [{package, at: "file:line",
codes}] (to tell whether a sampled statement still gets a fix at a later freeze)."""
import json, subprocess, sys
from pathlib import Path

python, orig, out = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
only = set(sys.argv[4:])
rows = {}
for pkg in sorted(p for p in orig.iterdir() if p.is_dir() and (not only or p.name in only)):
    done = subprocess.run([python, "-m", "mcp_lint", "check", ".", "-n", "--unsafe-fixes", "--output-format", "json", "--exit-zero"],
                          cwd=pkg, capture_output=True, text=True)
    for f in json.loads(done.stdout or "[]"):
        if f.get("fix") is None or f["fix"].get("applicability") not in ("safe", "unsafe"):
            continue
        at = f"{Path(f['filename']).relative_to(pkg.resolve())}:{f['location']['row']}"
        rows.setdefault((pkg.name, at), set()).add(f["code"])
json.dump([{"package": p, "at": a, "codes": sorted(c)} for (p, a), c in sorted(rows.items())], open(out, "w"), indent=0)
print(len(rows), "statements offered a fix")
