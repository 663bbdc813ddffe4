#!/usr/bin/env bash
# Run once the freeze hash is known: [SET=review12] [Q=5] [OUT=...] bash after_freeze.sh HASH
# A clean copy of main at HASH, installed into the set's own venv (/tmp/$SET-venv/.venv, created
# beforehand with ruff in it), applied to a scratch copy of the set's servers
# (/work/labeling/$SET/src) as a new user would (`check . --fix --unsafe-fixes` through
# bench/fix_corpus.py), then the sample (at most Q statements per package), the hunks outside the
# offered edits and the ruff table. Nothing is written under /work/labeling except the logs in OUT;
# the originals are read from a pristine copy in /tmp/$SET-orig. SET defaults to review12 so the
# earlier reviews' commands still work.
set -euo pipefail
H=$1
HERE=$(cd "$(dirname "$0")" && pwd)
SET=${SET:-review12}
Q=${Q:-5}
SRC=/work/labeling/$SET/src
OUT=${OUT:-/work/labeling/$SET/out}
VENV=/tmp/$SET-venv/.venv
mkdir -p "$OUT"
rm -rf "/tmp/$SET-code" && mkdir -p "/tmp/$SET-code"
git -C /work/main archive "$H" | tar -x -C "/tmp/$SET-code"
cd "/tmp/$SET-code"
$VENV/bin/pip install -q --force-reinstall --no-deps -e . 2>&1 | grep -v WARNING || true
$VENV/bin/pip install -q -e . 2>&1 | grep -v WARNING || true
PY=$VENV/bin/python
export PATH=$VENV/bin:$PATH
$PY -c "import mcp_lint, sys; print(mcp_lint.__file__)"
ruff --version
echo "$H" > "$OUT/freeze.txt"
find "$SRC" -name .mcp_lint_cache -prune -exec rm -rf {} + || true
rm -rf "/tmp/$SET-orig" && cp -r "$SRC" "/tmp/$SET-orig"
rm -rf "/tmp/$SET-scratch" && cp -r "$SRC" "/tmp/$SET-scratch"
# fix_corpus exits 1 on any "fix error" (a fix the fixer itself refused): keep going, the output says it
nice $PY bench/fix_corpus.py "/tmp/$SET-scratch" --keep 2>&1 | tee "$OUT/fix_corpus.out" || true
KEPT=$(sed -n 's/^kept: //p' "$OUT/fix_corpus.out" | tail -1)
echo "kept copy: $KEPT"
# The sample: offered fixes on the ORIGINAL packages (a pristine copy), at most Q per package.
rm -rf "/tmp/$SET-orig-check" && cp -r "$SRC" "/tmp/$SET-orig-check"
nice $PY "$HERE/sample.py" "$PY" "/tmp/$SET-orig-check" "$KEPT" "$OUT/sample" "$Q" 2>&1 | tee "$OUT/sample.out"
rm -rf "/tmp/$SET-orig-check" && cp -r "$SRC" "/tmp/$SET-orig-check"
nice $PY "$HERE/outside.py" "$PY" "/tmp/$SET-orig-check" "$KEPT" 2>&1 | tee "$OUT/outside.txt"
$PY "$HERE/helpcheck.py" "$OUT/sample/sample.json" 2>&1 | tee "$OUT/helpcheck.txt"
$PY "$HERE/ruff_table.py" "$(command -v ruff)" "/tmp/$SET-orig" "$KEPT" 2>&1 | tee "$OUT/ruff_table.md"
echo "done: $OUT"
