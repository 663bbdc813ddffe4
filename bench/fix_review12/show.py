#!/usr/bin/env python3
"""show.py SAMPLE_JSON FIXED_DIR [FROM [TO]]: each sampled statement: codes, message, help, and the
diff hunks of its file touching the line (+-10), numbered as in the review."""
import difflib, json, pathlib, sys
S = json.loads(pathlib.Path(sys.argv[1]).read_text())
F = pathlib.Path(sys.argv[2])
lo = int(sys.argv[3]) if len(sys.argv) > 3 else 1
hi = int(sys.argv[4]) if len(sys.argv) > 4 else 10**6
ORIG = pathlib.Path('/work/labeling/review12/src')
for i, row in enumerate(S["sample"], 1):
    if not lo <= i <= hi:
        continue
    print(f"\n######## #{i} {row['package']} {row['file']}:{row['line']} {row['codes']} {row['applicability']}")
    for m, h in zip(row["messages"], row["help"]):
        print(f"  msg: {m}\n  help: {h}")
    a = (ORIG / row["package"] / row["file"]).read_text().splitlines()
    b = (F / row["package"] / row["file"]).read_text().splitlines()
    line = row["line"]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal" or not (i1 - 12 <= line <= i2 + 12):
            continue
        print(f"@@ orig {i1+1}-{i2} fixed {j1+1}-{j2}")
        for k in range(max(0, i1 - 3), i1):
            print(f"  {k+1:5} {a[k]}")
        for k in range(i1, i2):
            print(f"- {k+1:5} {a[k]}")
        for k in range(j1, j2):
            print(f"+       {b[k]}")
        for k in range(i2, min(len(a), i2 + 2)):
            print(f"  {k+1:5} {a[k]}")
