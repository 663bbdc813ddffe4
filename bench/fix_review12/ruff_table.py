#!/usr/bin/env python3
"""ruff_table.py RUFF ORIG_DIR FIXED_DIR: per package, ruff --select F,E9,B,I,ISC001,G004 on the files
the fix changed, before (ORIG) and after (FIXED), counted by code. Run in each package's folder
(its own config applies where it has one)."""
import collections, hashlib, json, subprocess, sys
from pathlib import Path

ruff, orig, fixed = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
SEL = "F,E9,B,I,ISC001,G004"

def counts(pkg: Path, files):
    if not files:
        return collections.Counter()
    out = subprocess.run([ruff, "check", "--select", SEL, "--output-format", "json", "--exit-zero", "--no-cache", *files],
                         cwd=pkg, capture_output=True, text=True)
    return collections.Counter(d["code"] for d in json.loads(out.stdout or "[]"))

rows = []
for pkg in sorted(p for p in orig.iterdir() if p.is_dir()):
    changed = []
    for f in sorted(pkg.rglob("*.py")):
        rel = f.relative_to(pkg)
        g = fixed / pkg.name / rel
        if g.exists() and g.read_bytes() != f.read_bytes():
            changed.append(str(rel))
    if not changed:
        continue
    b, a = counts(pkg, changed), counts(fixed / pkg.name, changed)
    fmt = lambda c: ", ".join(f"{k} {v}" for k, v in sorted(c.items())) or "-"
    up = [k for k in set(a) | set(b) if a[k] > b[k]]
    print(f"| {pkg.name} | {len(changed)} | {sum(b.values())} | {sum(a.values())} | {fmt(b)} | {fmt(a)} | {', '.join(sorted(up)) or 'none'} |")
