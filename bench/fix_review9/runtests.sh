#!/usr/bin/env bash
# runtests.sh ROOT OUTDIR: each package's own tests (original or fixed copy); summary per package,
# failing test ids in OUTDIR/PKG.failed
R=$1; O=$2; mkdir -p $O
t() { pkg=$1; venv=$2; pp=$3; shift 3; (cd $R/$pkg && PYTHONPATH=$pp timeout 900 nice /tmp/review9-tests/$venv/bin/python -m pytest -p no:cacheprovider --tb=no -rfE "$@" > $O/$pkg.log 2>&1); grep -E "^(FAILED|ERROR) " $O/$pkg.log | sed 's/ - .*//' | sort > $O/$pkg.failed; echo "$pkg: $(tail -1 $O/$pkg.log)"; }
t aa-mcp-0.1.2 v1 src tests
t fds-mcp-0.1.0 v2 src tests -k "not live"
t stofs-mcp-0.2.0 v1 src tests --ignore=tests/test_live.py
t simple-servicenow-mcp-0.2.2 v1 src tests
t mycase-mcp-0.2.0 v2 . tests
t zoho-books-mcp-0.1.0 v1 . tests
