#!/usr/bin/env bash
# Run once the freeze hash is known: bash after_freeze.sh HASH
# A clean copy of main at HASH, installed into its own venv, applied to a scratch copy of the servers
# as a new user would (`check . --fix --unsafe-fixes` through bench/fix_corpus.py), then the sample,
# the hunks outside the offered edits and the ruff table. Nothing is written under /work/labeling
# except the logs; the originals are read from a pristine copy in /tmp/review12-orig.
set -euo pipefail
H=$1
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/work/labeling/review12/out}
mkdir -p "$OUT"
rm -rf /tmp/review12-code && mkdir -p /tmp/review12-code
git -C /work/main archive "$H" | tar -x -C /tmp/review12-code
cd /tmp/review12-code
/tmp/review12-venv/.venv/bin/pip install -q --force-reinstall --no-deps -e . 2>&1 | grep -v WARNING || true
/tmp/review12-venv/.venv/bin/pip install -q -e . 2>&1 | grep -v WARNING || true
PY=/tmp/review12-venv/.venv/bin/python
export PATH=/tmp/review12-venv/.venv/bin:$PATH
$PY -c "import mcp_lint, sys; print(mcp_lint.__file__)"
ruff --version
echo "$H" > "$OUT/freeze.txt"
find /work/labeling/review12/src -name .mcp_lint_cache -prune -exec rm -rf {} + || true
rm -rf /tmp/review12-orig && cp -r /work/labeling/review12/src /tmp/review12-orig
rm -rf /tmp/review12-scratch && cp -r /work/labeling/review12/src /tmp/review12-scratch
# fix_corpus exits 1 on any "fix error" (a fix the fixer itself refused): keep going, the output says it
nice $PY bench/fix_corpus.py /tmp/review12-scratch --keep 2>&1 | tee "$OUT/fix_corpus.out" || true
KEPT=$(sed -n 's/^kept: //p' "$OUT/fix_corpus.out" | tail -1)
echo "kept copy: $KEPT"
# The sample: offered fixes on the ORIGINAL packages (a pristine copy), at most 5 per package.
rm -rf /tmp/review12-orig-check && cp -r /work/labeling/review12/src /tmp/review12-orig-check
nice $PY "$HERE/sample.py" "$PY" /tmp/review12-orig-check "$KEPT" "$OUT/sample" 5 2>&1 | tee "$OUT/sample.out"
rm -rf /tmp/review12-orig-check && cp -r /work/labeling/review12/src /tmp/review12-orig-check
nice $PY "$HERE/outside.py" "$PY" /tmp/review12-orig-check "$KEPT" 2>&1 | tee "$OUT/outside.txt"
$PY "$HERE/helpcheck.py" "$OUT/sample/sample.json" 2>&1 | tee "$OUT/helpcheck.txt"
$PY "$HERE/ruff_table.py" "$(command -v ruff)" /tmp/review12-orig "$KEPT" 2>&1 | tee "$OUT/ruff_table.md"
echo "done: $OUT"
