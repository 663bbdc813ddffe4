#!/usr/bin/env python3
"""compare2.py VERDICTS_TSV FIXED1 FIXED2: for each non-merge verdict of review 11, the hunk of its
file around the sampled line in the first fixed copy (43b6234) and in the second (FREEZE2), and
whether the file's text around the line changed (to re-judge by hand)."""
import csv, difflib, pathlib, sys
ORIG = pathlib.Path('/work/labeling/review12/src')
V, F1, F2 = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])

def hunks(fixed, pkg, rel, line, ctx=12):
    a = (ORIG / pkg / rel).read_text().splitlines()
    p = fixed / pkg / rel
    b = p.read_text().splitlines() if p.exists() else a
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != 'equal' and i1 - ctx <= line <= i2 + ctx:
            out += [f"- {a[k]}" for k in range(i1, i2)] + [f"+ {b[k]}" for k in range(j1, j2)]
    return out

for row in csv.DictReader(open(V), delimiter='\t'):
    if row['verdict'] == 'merge':
        continue
    rel, line = row['file:line'].rsplit(':', 1)
    h1, h2 = hunks(F1, row['package'], rel, int(line)), hunks(F2, row['package'], rel, int(line))
    print(f"#### #{row['#']} {row['package']} {row['file:line']} {row['verdict']}: {'SAME' if h1 == h2 else 'CHANGED'}")
    if h1 != h2:
        print("  43b6234:"); print("\n".join("    " + x for x in h1) or "    (no change)")
        print("  FREEZE2:"); print("\n".join("    " + x for x in h2) or "    (no change)")
