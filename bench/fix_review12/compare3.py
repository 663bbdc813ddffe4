#!/usr/bin/env python3
"""compare3.py VERDICTS_TSV FIXED1 FIXED2 [SAMPLE2_JSON]: for EVERY sampled row of review 12, the hunk
of its file around the sampled line in the first fixed copy (c08b812) and in the second (FREEZE3),
SAME or CHANGED (to re-judge by hand); then, per sampled file, whether the two fixed copies differ
anywhere else (new hunks in the sampled files). With offers.py's JSON of the second run, also whether
the statement is still offered a fix."""
import csv, difflib, json, os, pathlib, sys
# The set's originals and the two runs' names: review 12's by default; review 14 ran it with
# ORIG=/work/labeling/review14/src RUN1=c260381 RUN2=FREEZE5.
ORIG = pathlib.Path(os.environ.get('ORIG', '/work/labeling/review12/src'))
RUN1, RUN2 = os.environ.get('RUN1', 'c08b812'), os.environ.get('RUN2', 'FREEZE3')
V, F1, F2 = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
offered2 = None
if len(sys.argv) > 4:
    offered2 = {(o['package'], o['at']) for o in json.load(open(sys.argv[4]))}


def hunks(fixed, pkg, rel, line, ctx=12):
    a = (ORIG / pkg / rel).read_text().splitlines()
    p = fixed / pkg / rel
    b = p.read_text().splitlines() if p.exists() else a
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != 'equal' and i1 - ctx <= line <= i2 + ctx:
            out += [f"- {a[k]}" for k in range(i1, i2)] + [f"+ {b[k]}" for k in range(j1, j2)]
    return out


files = set()
for row in csv.DictReader(open(V), delimiter='\t'):
    rel, line = row['file:line'].rsplit(':', 1)
    files.add((row['package'], rel))
    h1, h2 = hunks(F1, row['package'], rel, int(line)), hunks(F2, row['package'], rel, int(line))
    picked = '' if offered2 is None else (' still offered' if (row['package'], row['file:line']) in offered2 else ' NOT offered')
    print(f"#### #{row['#']} {row['package']} {row['file:line']} {row['verdict']}: {'SAME' if h1 == h2 else 'CHANGED'}{picked}")
    if h1 != h2:
        print(f"  {RUN1}:"); print("\n".join("    " + x for x in h1) or "    (no change)")
        print(f"  {RUN2}:"); print("\n".join("    " + x for x in h2) or "    (no change)")
print("\n## sampled files: fixed copies differ outside the sampled lines?")
for pkg, rel in sorted(files):
    a = (F1 / pkg / rel).read_text().splitlines()
    b = (F2 / pkg / rel).read_text().splitlines() if (F2 / pkg / rel).exists() else []
    d = [l for l in difflib.unified_diff(a, b, RUN1, RUN2, n=2, lineterm='')]
    print(f"### {pkg} {rel}: {'identical' if not d else f'{len(d)} diff lines'}")
    if d:
        print("\n".join(d[:200]))
