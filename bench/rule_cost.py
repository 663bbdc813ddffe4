#!/usr/bin/env python3
"""CPU seconds per phase of the per-file analysis, each rule's check on its own.

    python bench/rule_cost.py SRC LIST [--reps 3]

Analyses the files named in LIST (one path a line, relative to SRC) with per_file.analyze_path in
this process, as a pool worker does (the cyclic collector off), and prints the median over the
repetitions of each phase's own CPU time (time spent in a wrapped phase called from another is
counted once, in the inner one). The phases are wrapped here only (monkeypatching), so the code
measured is the code that runs. Run it against two checkouts in turn (PYTHONPATH=<checkout>) in
the same minutes to compare them: the machine's load moves every number.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from collections import defaultdict
from typing import Any, Callable

_own: dict[str, float] = defaultdict(float)
_stack: list[float] = []  # per open wrapped call: time spent in wrapped calls below it


def _wrap(owner: Any, name: str, label: str, consume: bool = False) -> None:
    """Charge the CPU time of `owner.name` to `label`; `consume`: the function returns an
    iterator whose work happens as it is read (a rule's check), so it is read here."""
    function: Callable[..., Any] = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        _stack.append(0.0)
        try:
            result = function(*args, **kwargs)
            return list(result) if consume else result
        finally:
            spent = time.process_time() - start
            _own[label] += spent - _stack.pop()
            if _stack:
                _stack[-1] += spent

    setattr(owner, name, timed)


def _instrument() -> None:
    from mcp_lint import per_file

    per_file.load_analysis(None)
    import mcp_lint.analysis as analysis
    import mcp_lint.model.positions as positions
    from mcp_lint.rules import all_rules

    _wrap(analysis.ast, "parse", "ast.parse")
    _wrap(analysis, "parse_module", "libcst parse")
    _wrap(analysis, "build_model", "build_model")
    _wrap(analysis, "function_layout", "positions")
    for name in ("get", "full"):
        _wrap(positions.ScopedPositions, name, "positions")
    for name in ("builds_error_results", "protocol_error_built_by", "builds_failures", "read_imports", "_call_edges"):
        _wrap(analysis, name, "summary")
    _wrap(analysis, "exception_raises", "summary", consume=True)
    for rule in all_rules(None):
        _wrap(type(rule), "check", f"rule {rule.code}", consume=True)
        _wrap(type(rule), "check_module", f"rule {rule.code}", consume=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src")
    parser.add_argument("list")
    parser.add_argument("--reps", type=int, default=3)
    options = parser.parse_args()
    with open(options.list, encoding="utf-8") as handle:
        files = [os.path.join(options.src, line.strip()) for line in handle if line.strip()]
    _instrument()
    from mcp_lint import per_file

    gc.collect()
    gc.freeze()
    gc.disable()
    runs: list[dict[str, float]] = []
    for _ in range(options.reps):
        _own.clear()
        start = time.process_time()
        for path in files:
            per_file.analyze_path(path)
        total = time.process_time() - start
        run = dict(_own)
        run["other"] = total - sum(_own.values())
        run["rules (all)"] = sum(v for k, v in _own.items() if k.startswith("rule "))
        run["TOTAL"] = total
        runs.append(run)
        gc.collect()
    for label in sorted(runs[-1], key=lambda k: -runs[-1][k]):
        print(f"{label:16s} {statistics.median(run.get(label, 0.0) for run in runs):7.3f}")


if __name__ == "__main__":
    main()
