import re, pathlib, glob
def norm(n): return re.sub(r"[-_.]+", "-", n.split("==")[0].strip().lower())
names=set()
HELD=("heldout9","heldout10","heldout11","heldout12","blind004f","blind004g","review11","review12")
def add(n):
    n=n.strip()
    if n and not n.startswith("#"): names.add(norm(n))
for line in open("/work/labeling/claimed.txt"):
    parts=line.split()
    if len(parts)>=2: add(parts[1])
    elif parts: add(parts[0])
B="/work/wt/review12/bench"
for f in ["/work/shared/corpus/public.txt",f"{B}/heldout.txt"]+[f for f in glob.glob(f"{B}/*/packages.txt")+glob.glob(f"{B}/*/candidates*.txt")+glob.glob(f"{B}/*/fresh*.txt")+glob.glob(f"{B}/*/pool.tsv")+glob.glob(f"{B}/*.txt") if not any(h in f for h in HELD)]:
    for line in open(f):
        s=line.split("#")[0].strip()
        if s: add(s.split()[0])
for d in [d for d in glob.glob("/work/labeling/*/src/*") if not any(h in d for h in HELD)]:
    n=pathlib.Path(d).name
    add(n); m=re.match(r"^(.*?)[-_]\d+(\.\d+)*.*$", n)
    if m: add(m.group(1))
print(len(names))
open("excl.txt","w").write("\n".join(sorted(names))+"\n")
