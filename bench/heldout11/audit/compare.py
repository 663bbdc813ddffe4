import csv, sys, collections
S=[x for x in sys.argv[3].split(",")] if len(sys.argv)>3 else ["mcp-vertica==0.1.14","glpi-mcp-server==0.1.0","msrashed-postgresql-mcp-server==0.1.0","dropbox-paper-mcp==0.2.3","wathq-mcp-server==0.1.0","groupme-mcp-server==0.2.1","prefect-mcp-server==1.1.3","odoorpc-mcp==0.1.2","calcom-mcp-for-customers==1.7.0","toshl-mcp==1.1.2"]
def load(p):
    with open(p) as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["package"] in S]
A=load(sys.argv[1]); B=load(sys.argv[2])  # A=label11, B=audit
def m(a,b):
    return a["package"]==b["package"] and a["file"]==b["file"] and a["rule"]==b["rule"] and int(a["start_line"])-1<=int(b["end_line"]) and int(b["start_line"])-1<=int(a["end_line"])
usedB=set(); both=[]; onlyA=[]
for a in A:
    hit=None
    for i,b in enumerate(B):
        if i not in usedB and m(a,b): hit=i; break
    if hit is None: onlyA.append(a)
    else: usedB.add(hit); both.append((a,B[hit]))
onlyB=[b for i,b in enumerate(B) if i not in usedB]
t=collections.defaultdict(lambda:[0,0,0])
for a,b in both: t[a["rule"]][0]+=1
for a in onlyA: t[a["rule"]][1]+=1
for b in onlyB: t[b["rule"]][2]+=1
print("rule both only_label11 only_audit")
for r in sorted(t): print(r,*t[r])
print("total",sum(v[0] for v in t.values()),sum(v[1] for v in t.values()),sum(v[2] for v in t.values()))
print("--- only label11")
for a in onlyA: print(a["package"],a["file"],a["start_line"],a["end_line"],a["rule"],a["indirect"],a["note"][:150],sep="|")
print("--- only audit")
for b in onlyB: print(b["package"],b["file"],b["start_line"],b["end_line"],b["rule"],b["indirect"],b["note"][:100],sep="|")
print("--- indirect mismatches")
for a,b in both:
    if a["indirect"]!=b["indirect"]: print(a["package"],a["file"],a["start_line"],a["rule"],a["indirect"],b["indirect"])
