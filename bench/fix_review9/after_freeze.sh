#!/usr/bin/env bash
# Run once the freeze hash is known: bash after_freeze.sh HASH
set -euo pipefail
H=$1
rm -rf /tmp/review9-code && mkdir -p /tmp/review9-code
git -C /work/main archive "$H" | tar -x -C /tmp/review9-code
cd /tmp/review9-code
/tmp/review9-venv/.venv/bin/pip install -q --force-reinstall --no-deps -e . 2>&1 | grep -v WARNING || true
/tmp/review9-venv/.venv/bin/pip install -q -e . 2>&1 | grep -v WARNING || true
PY=/tmp/review9-venv/.venv/bin/python
export PATH=/tmp/review9-venv/.venv/bin:$PATH
$PY -c "import mcp_lint, sys; print(mcp_lint.__file__)"
ruff --version
find /work/labeling/review9/src -name .mcp_lint_cache -prune -exec rm -rf {} + || true
rm -rf /tmp/review9-scratch && cp -r /work/labeling/review9/src /tmp/review9-scratch
nice $PY bench/fix_corpus.py /tmp/review9-scratch --keep 2>&1 | tee /work/labeling/review9/fix_corpus.out
