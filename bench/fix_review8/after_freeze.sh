#!/usr/bin/env bash
# Run once the freeze hash is known: bash after_freeze.sh HASH
set -euo pipefail
H=$1
rm -rf /tmp/review8-code && mkdir -p /tmp/review8-code
git -C /work/main archive "$H" | tar -x -C /tmp/review8-code
cd /tmp/review8-code
/tmp/review8-venv/.venv/bin/pip install -q --force-reinstall --no-deps -e . 2>&1 | grep -v WARNING || true
/tmp/review8-venv/.venv/bin/pip install -q -e . 2>&1 | grep -v WARNING || true
PY=/tmp/review8-venv/.venv/bin/python
export PATH=/tmp/review8-venv/.venv/bin:$PATH
$PY -c "import mcp_lint, sys; print(mcp_lint.__file__)"
ruff --version
find /work/labeling/review8/src -name .mcp_lint_cache -prune -exec rm -rf {} + || true
rm -rf /tmp/review8-scratch && cp -r /work/labeling/review8/src /tmp/review8-scratch
nice $PY bench/fix_corpus.py /tmp/review8-scratch --keep 2>&1 | tee /work/labeling/review8/fix_corpus.out
