import re, pathlib, glob
def norm(n): return re.sub(r"[-_.]+", "-", n.split("==")[0].strip().lower())
names=set()
# held-out sets are never opened; claimed.txt already names their packages
HELD=("heldout9","heldout10","blind004f","blind004g")
def add(n):
    n=n.strip()
    if not n or n.startswith("#"): return
    names.add(norm(n))
for line in open("/work/labeling/claimed.txt"):
    parts=line.split()
    if len(parts)>=2: add(parts[1])
    elif parts: add(parts[0])
for f in ["/work/shared/corpus/public.txt","/work/wt/review10/bench/heldout.txt"]+[f for f in glob.glob("/work/wt/review10/bench/*/packages.txt") if not any(h in f for h in HELD)]+[f for f in glob.glob("/work/wt/review10/bench/*.txt") if not any(h in f for h in HELD)]:
    for line in open(f):
        s=line.split("#")[0].strip()
        if s: add(s.split()[0])
for rv in ("review7","review8","review9"):
    for f in glob.glob(f"/work/labeling/{rv}/*.txt"):
        if "excl" in f or "offered" in f or "presample" in f or "outside" in f: continue
        for line in open(f):
            if line.strip(): add(line.split()[0])
    for f in glob.glob(f"/work/labeling/{rv}/pool.tsv"):
        pass  # pool rows were not all read; only candidates count
for d in [d for d in glob.glob("/work/labeling/*/*") if not any(h in d for h in HELD)]:
    p=pathlib.Path(d)
    if p.is_dir() and not str(p).startswith("/work/labeling/review10"):
        for c in p.iterdir():
            n=re.sub(r"\.(tar\.gz|zip|whl)$","",c.name)
            add(n)
            m=re.match(r"^(.*?)[-_]\d+(\.\d+)*.*$", n)
            if m: add(m.group(1))
print(len(names))
open("excl.txt","w").write("\n".join(sorted(names))+"\n")
