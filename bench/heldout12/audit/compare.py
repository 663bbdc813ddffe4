"""Agreement of two labelings of one set (heldout12 audit).

Usage: python3 audit/compare.py labels.tsv audit/labels-audit.tsv [x]
A pair agrees when package, file and rule are equal and the start lines are within +-1
(or one start line lies inside the other label's statement). With a third argument it lists
the unmatched rows, indirect-flag differences and one-line shifts.
"""
import csv,sys,collections
def load(p):
    rows=[]
    with open(p) as f:
        r=csv.DictReader(f,delimiter="\t")
        for x in r: rows.append(x)
    return rows
A=load(sys.argv[1]); B=load(sys.argv[2])  # A=label12, B=audit
def key(x): return (x["package"],x["file"],x["rule"])
byB=collections.defaultdict(list)
for i,b in enumerate(B): byB[key(b)].append(i)
usedB=set(); both=[]; onlyA=[]
for a in A:
    best=None
    for i in byB[key(a)]:
        if i in usedB: continue
        d=abs(int(B[i]["start_line"])-int(a["start_line"]))
        # allow matching anywhere inside a's statement span too
        ins=int(a["start_line"])-1<=int(B[i]["start_line"])<=int(a["end_line"])+1 or int(B[i]["start_line"])-1<=int(a["start_line"])<=int(B[i]["end_line"])+1
        if d<=1 or ins:
            if best is None or d<best[0]: best=(d,i)
    if best: usedB.add(best[1]); both.append((a,B[best[1]]))
    else: onlyA.append(a)
onlyB=[B[i] for i in range(len(B)) if i not in usedB]
rules=sorted(set(x["rule"] for x in A+B))
print("rule\tboth\tonly_label12\tonly_audit")
for r in rules:
    print(f"{r}\t{sum(1 for a,b in both if a['rule']==r)}\t{sum(1 for a in onlyA if a['rule']==r)}\t{sum(1 for b in onlyB if b['rule']==r)}")
print(f"all\t{len(both)}\t{len(onlyA)}\t{len(onlyB)}")
if len(sys.argv)>3:
    print("\n== only label12")
    for a in onlyA: print("\t".join([a["package"],a["file"],a["start_line"],a["end_line"],a["rule"],a["indirect"],a["note"][:200]]))
    print("\n== only audit")
    for b in onlyB: print("\t".join([b["package"],b["file"],b["start_line"],b["end_line"],b["rule"],b["indirect"],b["note"][:200]]))
    ind=[(a,b) for a,b in both if a["indirect"]!=b["indirect"]]
    print("\n== indirect differs",len(ind))
    for a,b in ind: print(a["package"],a["file"],a["start_line"],a["rule"],a["indirect"],b["indirect"])
    sp=[(a,b) for a,b in both if a["start_line"]!=b["start_line"]]
    print("\n== matched with different start line",len(sp))
    for a,b in sp: print(a["package"],a["file"],a["rule"],a["start_line"],a["end_line"],"vs",b["start_line"],b["end_line"])
