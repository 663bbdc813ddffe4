# converts compact rows (pkg file start end rules ind note) in raw-*.txt into labels-audit.tsv
import glob, os
out=["package\tfile\tstart_line\tend_line\trule\tindirect\tnote"]
for fn in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)),"raw-*.txt"))):
    pkg=None
    for line in open(fn):
        line=line.rstrip("\n")
        if not line.strip() or line.startswith("#"): continue
        if line.startswith("PKG "): pkg,f=line.split()[1:3]; continue
        parts=line.split(None,4)
        s,e,rules,ind=parts[:4]; note=parts[4] if len(parts)>4 else ""
        for r in rules.split("+"):
            out.append("\t".join([pkg,f,s,e,"MCP00"+r,ind,note]))
open(os.path.join(os.path.dirname(os.path.abspath(__file__)),"labels-audit.tsv"),"w").write("\n".join(out)+"\n")
print(len(out)-1)
