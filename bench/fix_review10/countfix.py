#!/usr/bin/env python3
"""countfix.py PYTHON DIR: per package, code lines and how many statements `check . -n --unsafe-fixes`
offers an applicable (safe/unsafe) fix for: COUNTS ONLY (no lines, no messages, no diff), used to
pick added servers before they are read (review 9's method)."""
import json, subprocess, sys
from pathlib import Path
python, root = sys.argv[1], Path(sys.argv[2])
for pkg in sorted(p for p in root.iterdir() if p.is_dir()):
    lines = sum(len(f.read_text(errors="replace").splitlines()) for f in pkg.rglob("*.py") if "node_modules" not in f.parts)
    out = subprocess.run([python, "-m", "mcp_lint", "check", ".", "-n", "--unsafe-fixes", "--output-format", "json", "--exit-zero"],
                         cwd=pkg, capture_output=True, text=True, timeout=600).stdout
    try:
        fs = json.loads(out or "[]")
    except ValueError:
        fs = []
    stmts = {(f["filename"], f["location"]["row"]) for f in fs if f.get("fix") and f["fix"].get("applicability") in ("safe", "unsafe")}
    print(f"{pkg.name}\t{lines}\t{len(fs)}\t{len(stmts)}", flush=True)
