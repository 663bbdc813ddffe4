# compares labels-audit.tsv (blind) with ../labels.tsv: per rule both / only label14 / only audit
import csv, sys, collections
def load(p):
    return [r for r in csv.DictReader(open(p), delimiter="\t")]
import os; HERE = os.path.dirname(os.path.abspath(__file__))
A = load(os.path.join(HERE, "labels-audit.tsv")); L = load(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else os.path.join(HERE, "..", "labels.tsv"))
def near(a, b):
    a0, a1, b0, b1 = int(a["start_line"]), int(a["end_line"]), int(b["start_line"]), int(b["end_line"])
    return a0 <= b1 + 1 and b0 <= a1 + 1
used = set(); both = collections.Counter(); onlyA = []; onlyL = []
for a in A:
    hit = None
    for i, l in enumerate(L):
        if i in used: continue
        if (a["package"], a["file"], a["rule"]) == (l["package"], l["file"], l["rule"]) and near(a, l):
            hit = i; break
    if hit is None: onlyA.append(a)
    else: used.add(hit); both[a["rule"]] += 1
onlyL = [l for i, l in enumerate(L) if i not in used]
rules = sorted(set(r["rule"] for r in A + L))
print("| rule | both | only label14 | only audit | agreement |")
print("| --- | --- | --- | --- | --- |")
for r in rules:
    b = both[r]; ol = sum(1 for x in onlyL if x["rule"] == r); oa = sum(1 for x in onlyA if x["rule"] == r)
    print(f"| {r} | {b} | {ol} | {oa} | {b/(b+ol+oa):.0%} |")
tb = sum(both.values()); print(f"| all | {tb} | {len(onlyL)} | {len(onlyA)} | {tb/(tb+len(onlyL)+len(onlyA)):.0%} |")
if "-v" in sys.argv:
    for x in onlyL: print("ONLY_L14", x["package"], x["file"], x["start_line"], x["end_line"], x["rule"], x["note"][:150], sep="\t")
    for x in onlyA: print("ONLY_AUD", x["package"], x["file"], x["start_line"], x["end_line"], x["rule"], x["note"][:150], sep="\t")
