"""newfind.py PYTHON ORIG_DIR FIXED_DIR: findings (code, file, message) present after fixing and not
before, per changed package (a fix must not create a finding of any rule)."""
import json
import subprocess
import sys
from pathlib import Path

py, orig, fixed = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])


def found(d: Path) -> set:
    out = subprocess.run([py, "-m", "mcp_lint", "check", ".", "-n", "--output-format", "json", "--exit-zero"],
                         cwd=d, capture_output=True, text=True).stdout
    return {(x["code"], str(Path(x["filename"]).relative_to(d.resolve())), x["message"]) for x in json.loads(out or "[]")}


for pkg in sorted(p.name for p in orig.iterdir() if p.is_dir()):
    a, b = orig / pkg, fixed / pkg
    if not any((b / r.relative_to(a)).exists() and (b / r.relative_to(a)).read_bytes() != r.read_bytes() for r in a.rglob("*.py")):
        continue
    for n in sorted(found(b) - found(a)):
        print(pkg, *n, sep=" | ")
