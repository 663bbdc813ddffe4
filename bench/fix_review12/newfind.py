import json, subprocess, sys
from pathlib import Path
PY="/tmp/review12-venv/.venv/bin/python"
orig=Path("/tmp/review12-orig"); fixed=Path(sys.argv[1])
def f(d):
    out=subprocess.run([PY,"-m","mcp_lint","check",".","--output-format","json","--exit-zero"],cwd=d,capture_output=True,text=True).stdout
    return {(x["code"],str(Path(x["filename"]).relative_to(d.resolve())),x["message"]) for x in json.loads(out or "[]")}
for pkg in sorted(p.name for p in fixed.iterdir() if p.is_dir()):
    a,b=orig/pkg,fixed/pkg
    if not any((b/r.relative_to(a)).read_bytes()!=r.read_bytes() for r in a.rglob("*.py") if (b/r.relative_to(a)).exists()): continue
    new=f(b)-f(a)
    for n in sorted(new): print(pkg, *n, sep=" | ")
