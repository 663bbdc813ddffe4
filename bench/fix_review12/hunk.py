#!/usr/bin/env python3
"""hunk.py FIXED_DIR PKG FILE LINE [CTX]: the diff hunk(s) touching original LINE (+-CTX lines)."""
import difflib, sys, pathlib
F, pkg, rel, line = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
ctx = int(sys.argv[5]) if len(sys.argv) > 5 else 8
a = (pathlib.Path('/work/labeling/review12/src') / pkg / rel).read_text().splitlines()
b = (F / pkg / rel).read_text().splitlines()
for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
    if tag == 'equal':
        continue
    if i1 - ctx <= line <= i2 + ctx:
        print(f"@@ orig {i1+1}-{i2} fixed {j1+1}-{j2}")
        for k in range(max(0, i1 - 3), i1):
            print(f"  {k+1:5} {a[k]}")
        for k in range(i1, i2):
            print(f"- {k+1:5} {a[k]}")
        for k in range(j1, j2):
            print(f"+       {b[k]}")
        for k in range(i2, min(len(a), i2 + 2)):
            print(f"  {k+1:5} {a[k]}")
