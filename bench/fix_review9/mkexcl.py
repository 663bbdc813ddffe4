import re, pathlib, glob
def norm(n): return re.sub(r"[-_.]+", "-", n.split("==")[0].strip().lower())
names=set()
def add(n):
    n=n.strip()
    if not n or n.startswith("#"): return
    names.add(norm(n))
for line in open("/work/labeling/claimed.txt"):
    parts=line.split()
    if len(parts)>=2: add(parts[1])
    elif parts: add(parts[0])
for f in ["/work/shared/corpus/public.txt","/work/main/bench/heldout.txt"]+glob.glob("/work/main/bench/*/packages.txt")+glob.glob("/work/main/bench/*.txt"):
    for line in open(f):
        s=line.split("#")[0].strip()
        if s: add(s.split()[0])
for rv in ("review7","review8"):
    for f in glob.glob(f"/work/labeling/{rv}/*.txt"):
        if "excl" in f or "offered" in f or "presample" in f or "outside" in f: continue
        for line in open(f):
            if line.strip(): add(line.split()[0])
    for f in glob.glob(f"/work/labeling/{rv}/pool.tsv"):
        pass  # pool rows were not all read; only candidates count
for d in glob.glob("/work/labeling/*/*"):
    p=pathlib.Path(d)
    if p.is_dir() and not str(p).startswith("/work/labeling/review9"):
        for c in p.iterdir():
            n=re.sub(r"\.(tar\.gz|zip|whl)$","",c.name)
            add(n)
            m=re.match(r"^(.*?)[-_]\d+(\.\d+)*.*$", n)
            if m: add(m.group(1))
print(len(names))
open("excl.txt","w").write("\n".join(sorted(names))+"\n")
