import csv, re, os
SRC="/work/labeling/heldout11/src"
rows=list(csv.DictReader(open("labels.tsv"),delimiter="\t"))
bad=0
for r in rows:
    d=os.path.join(SRC,r["package"].replace("==","-"))
    p=os.path.join(d,r["file"])
    if not os.path.exists(p): print("MISSING",r["package"],r["file"]); bad+=1; continue
    L=open(p,encoding="utf-8",errors="replace").read().split("\n")
    s,e=int(r["start_line"]),int(r["end_line"])
    txt="\n".join(L[s-1:e])
    first=L[s-1].strip()
    ok=True
    if r["rule"]=="MCP005":
        ok = bool(re.search(r"\breturn\b|\byield\b|=|\{|\"error\"|'error'|success",txt))
        if not re.search(r"\breturn\b",txt): ok="noreturn"
    if r["rule"]=="MCP002":
        ok = bool(re.search(r"\{?\b(e|ex|exc|err|error|exception|resp\w*|r|body|detail\w*|msg|message|data|result|text|content|stderr|output)\b|str\(|repr\(|format|traceback|%",txt))
    if e<s or ok is not True:
        bad+=1; print(ok, r["package"], r["file"], s, e, r["rule"], "|", first[:110])
print("rows",len(rows),"flagged",bad)
