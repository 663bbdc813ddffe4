"""Names a review-16 server may not be: claimed.txt, public.txt, heldout.txt, every non-held-out bench
list and every non-held-out /work/labeling set (held-out lists are not opened: their names are in
claimed.txt). Writes excl.txt (normalised names)."""
import glob
import pathlib
import re


def norm(n): return re.sub(r"[-_.]+", "-", n.split("==")[0].strip().lower())


names = set()
HELD = ("heldout11", "heldout16", "heldout17", "heldout18", "blind004h", "blind004j", "blind004k",
        "review11", "review12", "review14", "review15", "review16")


def add(n):
    n = n.strip()
    if n and not n.startswith("#"):
        names.add(norm(n))


for line in open("/work/labeling/claimed.txt"):
    parts = line.split()
    if len(parts) >= 2:
        add(parts[1])
    elif parts:
        add(parts[0])
B = str(pathlib.Path(__file__).resolve().parent.parent)
lists = ["/work/shared/corpus/public.txt", f"{B}/heldout.txt"]
for pat in ("*/packages.txt", "*/candidates*.txt", "*/fresh*.txt", "*/pool.tsv", "*.txt"):
    lists += glob.glob(f"{B}/{pat}")
for f in lists:
    if any(h in f for h in HELD) or f.endswith("fix_review16/excl.txt"):
        continue
    for line in open(f):
        s = line.split("#")[0].strip()
        if s:
            add(s.split()[0])
for d in glob.glob("/work/labeling/*/src/*"):
    if any(h in d for h in HELD):
        continue
    n = pathlib.Path(d).name
    add(n)
    m = re.match(r"^(.*?)[-_]\d+(\.\d+)*.*$", n)
    if m:
        add(m.group(1))
print(len(names))
open("excl.txt", "w").write("\n".join(sorted(names)) + "\n")
