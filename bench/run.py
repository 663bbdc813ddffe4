#!/usr/bin/env python3
"""Benchmark mcp-lint on a corpus of real MCP servers against the libcst parse-only floor.

    python bench/run.py                      # fetch ../shared/corpus/public.txt, then measure
    python bench/run.py --corpus /work/corpus  # reuse an unpacked corpus (DIR or DIR/src)

One run measures, each as a separate process on the same files: the floor (libcst parsing every
file, one process), mcp-lint cold (`--no-cache`), the bound (libcst's parse of only the files the
cold run analyses, in its workers), mcp-lint warm (after a run that filled a fresh
cache), a one-file check (cold and warm) next to `python -c "import libcst"`, and the peak memory
of each. It then checks that the findings are identical with and without the cache and for
`--jobs 1`, and prints every target of issue #5 with its verdict. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "mcp-lint-bench"

# Parses every file the linter would lint, in one process: the floor the ratios are taken to.
FLOOR = """\
import sys, tokenize
from pathlib import Path
import libcst
from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
files = discover([Path(sys.argv[1])], SettingsResolver(isolated=True))
lines = failed = 0
for path in files:
    try:
        with tokenize.open(path) as handle:
            text = handle.read()
        libcst.parse_module(text)
    except Exception:
        failed += 1
        continue
    lines += text.count("\\n")
print(len(files), lines, failed)
"""

# The findings with every file analysed whole (no prefilter, no pruning), in the concise format:
# what the prefiltered cold run must print, line for line.
WHOLE = """\
import sys
from pathlib import Path
from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import analyze_all, default_jobs, link
resolver = SettingsResolver(isolated=True)
files = discover([Path(sys.argv[1])], resolver)
findings, errors = link(analyze_all(files, default_jobs()), resolver, PinSource(resolver))
for f in findings:
    print(f"{f.filename}:{f.location.row}:{f.location.column}: {f.code} {f.message}")
for error in errors:
    print(error)
"""


# The files the cold run analyses (after the prefilter and the linker's reach), one per line;
# run once, untimed, to feed BOUND.
ANALYSED = """\
import sys
from pathlib import Path
from mcp_lint.config import SettingsResolver
from mcp_lint.discovery import discover
from mcp_lint.pins import PinSource
from mcp_lint.pipeline import default_jobs, enabled_rules, lint_files
resolver = SettingsResolver(isolated=True)
files = discover([Path(sys.argv[1])], resolver)
# The rules the cold run runs (preview rules off by default): they decide which files it reads.
codes = enabled_rules(files, resolver)
outcomes = lint_files(files, resolver, PinSource(resolver), jobs=default_jobs(), cache=None, explicit=[], codes=codes)[0]
print("\\n".join(o.display for o in outcomes if o.summary is not None))
"""

# What the cold run cannot go below while its model reads libcst trees: libcst's parse (mcp-lint's
# own, without re-validation: model/parsing.py) of exactly the files the cold run analyses, in as
# many worker processes as it uses, and nothing else (no model, no rules, no linking).
BOUND = """\
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from mcp_lint.pipeline import default_jobs
def parse(path):
    import tokenize
    from mcp_lint.model.parsing import parse_module
    with tokenize.open(path) as handle:
        text = handle.read()
    parse_module(text)
    return text.count("\\n")
paths = sorted(Path(sys.argv[1]).read_text().split(), key=lambda p: -Path(p).stat().st_size)
with ProcessPoolExecutor(default_jobs()) as pool:
    lines = sum(pool.map(parse, paths, chunksize=1))
print(len(paths), lines)
"""


@dataclass
class Measure:
    name: str
    wall: float  # seconds, median of the repeats
    cpu: float  # user + system seconds of the process tree, median
    peak_mb: float  # largest sampled proportional set size of the process tree (all repeats)
    stdout: str = field(default="", repr=False)
    returncode: int = 0


# --- measuring one process tree -----------------------------------------------------------------


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as handle:
                found.extend(int(child) for child in handle.read().split())
    except OSError:
        pass
    return found


def _tree_memory_kb(pid: int) -> int:
    """Proportional set size of `pid` and its descendants (shared pages counted once, split)."""
    total = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        stack.extend(_children(current))
        try:
            with open(f"/proc/{current}/smaps_rollup", encoding="ascii") as handle:
                for line in handle:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            pass
    return total


def run_once(command: list[str], cwd: Path, sample: bool = False) -> tuple[float, float, float, str, int]:
    """(wall s, cpu s, peak MB or 0, stdout, exit code) of one process tree.

    With `sample`, a thread reads the tree's memory every 20 ms: that reading costs CPU (a walk of
    each process's page tables), which on a small machine competes with the workers being timed,
    so timed runs do not sample and `measure` takes the peak from a run of its own.
    """
    before = os.times()
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0]
    done = threading.Event()

    def sampling() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_memory_kb(process.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sampling, daemon=True)
    if sample:
        sampler.start()
    stdout, stderr = process.communicate()
    wall = time.perf_counter() - start
    done.set()
    if sample:
        sampler.join()
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if process.returncode not in (0, 1):
        raise SystemExit(f"bench: {' '.join(command)} failed ({process.returncode}):\n{stderr}")
    return wall, cpu, peak[0] / 1024, stdout, process.returncode


def measure_together(runs: list[tuple[str, list[str]]], cwd: Path, repeat: int, before_each=None) -> list[Measure]:
    """For each (name, command): the median wall and CPU of `repeat` runs, and the peak memory of
    one more, sampled, run. The commands' runs are interleaved (A B A B ...): a shared machine
    speeds up and slows down over a minute, and interleaving lets both sides of a ratio see the
    same machine. `before_each` runs before every run (e.g. to empty a cache)."""
    walls: list[list[float]] = [[] for _ in runs]
    cpus: list[list[float]] = [[] for _ in runs]
    outputs: list[tuple[str, int]] = [("", 0) for _ in runs]
    for _ in range(repeat):
        for position, (_, command) in enumerate(runs):
            if before_each is not None:
                before_each()
            wall, cpu, _, stdout, code = run_once(command, cwd)
            walls[position].append(wall)
            cpus[position].append(cpu)
            outputs[position] = (stdout, code)
    measures = []
    for position, (name, command) in enumerate(runs):
        if before_each is not None:
            before_each()
        peak = run_once(command, cwd, sample=True)[2]
        stdout, code = outputs[position]
        result = Measure(name, statistics.median(walls[position]), statistics.median(cpus[position]), peak, stdout, code)
        print(f"  {name:<34} {result.wall:8.3f} s wall {result.cpu:8.3f} s cpu {result.peak_mb:7.1f} MB", flush=True)
        measures.append(result)
    return measures


def measure(name: str, command: list[str], cwd: Path, repeat: int = 1, before_each=None) -> Measure:
    """`measure_together` for one command."""
    return measure_together([(name, command)], cwd, repeat, before_each)[0]


# --- the corpus ------------------------------------------------------------------------------------


def corpus_source(args: argparse.Namespace) -> Path | None:
    """The directory of unpacked packages, fetching them first unless --corpus is given."""
    if args.corpus is not None:
        src = args.corpus / "src"
        return src if src.is_dir() else args.corpus
    fetch, listing = SHARED / "corpus" / "fetch.sh", SHARED / "corpus" / "public.txt"
    if not fetch.is_file() or not listing.is_file():
        print(f"bench: skipped: {fetch} or {listing} not found (is ../shared beside the repository?)")
        return None
    print(f"bench: fetching {listing} into {args.cache} ...", flush=True)
    env = {"PIP": f"{sys.executable} -m pip", **os.environ}  # the running Python's pip unless $PIP says
    done = subprocess.run(["bash", str(fetch), str(listing), str(args.cache)], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        shown = [line for line in lines if "ERROR" in line][:3] + [line for line in lines if " fetched, " in line]
        print("bench: skipped: the corpus could not be fetched (no network?):\n  " + "\n  ".join(shown))
        return None
    return args.cache / "src"


def largest_package(src: Path) -> Path:
    """The package directory of the corpus with the most lines of Python."""
    sizes = []
    for package in sorted(p for p in src.iterdir() if p.is_dir()):
        lines = sum(path.read_bytes().count(b"\n") for path in package.rglob("*.py") if path.is_file())
        sizes.append((lines, package.name))
    return src / max(sizes)[1]


def as_project(package: Path, dest: Path) -> Path:
    """A copy of an unpacked package as a checkout looks: with a pyproject.toml at its top, which
    is how `mcp-lint check FILE` finds the project a file belongs to."""
    shutil.copytree(package, dest, ignore=shutil.ignore_patterns("__pycache__", ".mcp_lint_cache"))
    pyproject = dest / "pyproject.toml"
    if not pyproject.exists():
        pyproject.write_text(f'[project]\nname = "{package.name}"\n', encoding="utf-8")
    return dest


def pick_helper(project: Path, findings: str) -> Path:
    """A changed helper: the file with the most findings that registers no tool itself (its
    findings exist only through the tools of other modules), else the largest such file."""
    from mcp_lint.prefilter import is_seed

    counts: dict[str, int] = {}
    for line in findings.splitlines():
        if ": MCP" in line:
            counts[line.split(":", 1)[0]] = counts.get(line.split(":", 1)[0], 0) + 1
    helpers = [(counts.get(str(p.relative_to(project)), 0), p.stat().st_size, str(p)) for p in project.rglob("*.py")]
    helpers = [h for h in helpers if not is_seed(Path(h[2]).read_bytes())]
    return Path(max(helpers)[2])


def pick_one_file(src: Path) -> Path:
    """A typical tool module: the file registering tools whose size is closest to 10 kB."""
    candidates = []
    for path in sorted(src.rglob("*.py")):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if b".tool(" in data:
            candidates.append((abs(len(data) - 10_000), str(path)))
    if not candidates:
        raise SystemExit(f"bench: no tool module found under {src}")
    return Path(min(candidates)[1])


# --- the run -----------------------------------------------------------------------------------------


def compile_package(one_file: Path, one_root: Path) -> None:
    """Byte-compile mcp_lint, as `pip install` does for an installed package.

    An editable checkout run with PYTHONDONTWRITEBYTECODE=1 would otherwise compile every module
    from source on each start, which is not what a user's installation pays (libcst, the
    comparison, is installed with its bytecode).
    """
    import compileall

    import mcp_lint

    compileall.compile_dir(Path(mcp_lint.__file__).parent, quiet=1)
    # The bytecode of the methods `dataclasses` generates (mcp_lint/generated_code.py) is written
    # by a user's first run, where Python writes bytecode: make that first run here.
    with tempfile.TemporaryDirectory(prefix="mcp-lint-bench-first-") as scratch:
        first = Path(scratch) / "server.py"
        first.write_text("from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n", encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        command = [sys.executable, "-m", "mcp_lint", "check", "--isolated", "--no-cache", "--exit-zero", str(first)]
        subprocess.run(command, cwd=scratch, env=env, capture_output=True, check=False)
    # So are the compiled programs of its regular expressions (mcp_lint/regex_store.py), those a
    # run's files use: make the user's previous run of the one-file row's command here.
    command = [sys.executable, "-m", "mcp_lint", "check", "--isolated", "--no-cache", "--exit-zero", str(one_file)]
    subprocess.run(command, cwd=one_root, env=env, capture_output=True, check=False)


# One module of a generated project: a tool whose failure return has an (unsafe) fix, calling a
# helper of a module every tool module shares, as in a real project.
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="an unpacked corpus (the fetch target, or its src/)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help=f"where to fetch (default {DEFAULT_CACHE})")
    parser.add_argument("--one-file", type=Path, help="the file of the one-file run (default: picked)")
    parser.add_argument("--output-format", default="concise", help="mcp-lint's report format (default concise)")
    parser.add_argument("--repeat", type=int, default=5, help="repeats of the short runs (median; default 5)")
    parser.add_argument("--cold-repeat", type=int, default=5, help="repeats of the floor and cold runs (median; default 5)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--fix",
        action="store_true",
        help="measure only `--fix --unsafe-fixes` on generated projects of 100 and 1,000 tool modules (no corpus)",
    )
    args = parser.parse_args(argv)
    if args.fix:
        return fix_rows(args.json)

    src = corpus_source(args)
    if src is None:
        return 0
    src = src.resolve()
    one_file = (args.one_file or pick_one_file(src)).resolve()
    # Run from the file's own package, as its maintainer would: a named file outside a marked
    # project is linted in the context of the working directory's walk, which from the
    # corpus root would be every package of the corpus.
    one_root = src / one_file.relative_to(src).parts[0]
    compile_package(one_file, one_root)
    python = sys.executable
    lint = [python, "-m", "mcp_lint", "check", "--isolated", "--output-format", args.output_format]
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()

    with tempfile.TemporaryDirectory(prefix="mcp-lint-bench-") as scratch:
        cache_dir = Path(scratch) / "cache"
        one_cache = Path(scratch) / "one-file-cache"
        cached = [*lint, "--cache-dir", str(cache_dir), "."]

        print(f"bench: corpus {src}, {cpus} CPUs, {python}")
        analysed_list = Path(scratch) / "analysed.txt"
        analysed_list.write_text(run_once([python, "-c", ANALYSED, "."], src)[3], encoding="utf-8")
        floor, cold, bound = measure_together(
            [
                ("floor: libcst parse only", [python, "-c", FLOOR, "."]),
                ("cold (--no-cache)", [*lint, "--no-cache", "."]),
                ("bound: parse of analysed files", [python, "-c", BOUND, str(analysed_list)]),
            ],
            src,
            args.cold_repeat,
        )
        n_files, n_lines, n_failed = (int(x) for x in floor.stdout.split())
        n_analysed, analysed_lines = (int(x) for x in bound.stdout.split())
        fill = measure(
            "cache fill (first cached run)", cached, src, before_each=lambda: shutil.rmtree(cache_dir, ignore_errors=True)
        )
        warm = measure("warm (cache filled)", cached, src, repeat=args.repeat)
        serial = measure("cold, --jobs 1", [*lint, "--no-cache", "--jobs", "1", "."], src)
        whole = measure("every file analysed whole", [python, "-c", WHOLE, "."], src)
        import_libcst, one_cold = measure_together(
            [
                ('python -c "import libcst"', [python, "-c", "import libcst"]),
                ("one file, cold (--no-cache)", [*lint, "--no-cache", str(one_file)]),
            ],
            one_root,
            args.repeat,
        )
        one_cmd = [*lint, "--cache-dir", str(one_cache), str(one_file)]
        run_once(one_cmd, one_root)
        one_warm = measure("one file, warm", one_cmd, one_root, repeat=args.repeat)

        # Pre-commit after editing one helper of a large project: the file is named alone, and
        # its project (the tools that reach it) is its context.
        package = largest_package(src)
        project = as_project(package, Path(scratch) / package.name)
        project_cache = Path(scratch) / "project-cache"
        whole_project = run_once([*lint, "--cache-dir", str(project_cache), "."], project)[3]
        helper = pick_helper(project, whole_project)
        original = helper.read_bytes()
        edits = iter(range(1_000_000))

        def edit_helper() -> None:  # a real change each time: the helper's entries must miss
            helper.write_bytes(original + f"\n# edit {next(edits)}\n".encode())

        changed = str(helper.relative_to(project))
        helper_cold = measure(
            "changed helper, cold (--no-cache)", [*lint, "--no-cache", changed], project, args.repeat, edit_helper
        )
        helper_warm = measure(
            "changed helper, warm", [*lint, "--cache-dir", str(project_cache), changed], project, args.repeat, edit_helper
        )
        helper.write_bytes(original)
        helper_lines = original.count(b"\n")
        helper_findings = [line for line in _finding_lines(whole_project) if line.startswith(changed + ":")]
        helper_same = _finding_lines(helper_cold.stdout) == helper_findings

    identical = {
        "cache": cold.stdout == fill.stdout == warm.stdout,
        "jobs": cold.stdout == serial.stdout,
        "whole": _finding_lines(cold.stdout) == _finding_lines(whole.stdout),
        "helper": helper_same,
    }
    peak = max(m.peak_mb for m in (cold, fill, warm, serial, one_cold, one_warm, helper_cold, helper_warm))
    targets = [
        ("cold <= 0.3 x floor", cold.wall / floor.wall, 0.3),
        ("warm <= 0.05 x cold", warm.wall / cold.wall, 0.05),
        ("one-file <= 1.5 x import libcst", one_cold.wall / import_libcst.wall, 1.5),
        ("peak memory <= 300 MB", peak, 300.0),
    ]
    n_findings = sum(1 for line in cold.stdout.splitlines() if ": MCP" in line)
    one_lines = one_file.read_bytes().count(b"\n")

    print()
    print(f"corpus: {n_files} files, {n_lines} lines ({n_failed} not parsable), {n_findings} findings; {cpus} CPUs")
    print(
        f"cold run analyses {n_analysed} files, {analysed_lines} lines ({analysed_lines / max(1, n_lines):.0%}); "
        f"libcst's parse of them alone, in the cold run's workers: {bound.wall / floor.wall:.3f} x floor"
    )
    print(f"one file: {one_file} ({one_lines} lines)")
    print(f"changed helper: {changed} ({helper_lines} lines) in {project.name} (with a pyproject.toml), {len(helper_findings)} finding(s)")
    print(f"{'run':<34} {'wall s':>8} {'x floor':>8} {'cpu s':>8} {'peak MB':>8}")
    for m in (floor, cold, bound, fill, warm, serial, whole, one_cold, one_warm, helper_cold, helper_warm, import_libcst):
        print(f"{m.name:<34} {m.wall:8.3f} {m.wall / floor.wall:8.3f} {m.cpu:8.3f} {m.peak_mb:8.1f}")
    print()
    print("targets:")
    for name, value, limit in targets:
        print(f"  {name:<34} {value:8.3f}  {'PASS' if value <= limit else 'FAIL'}")
    labels = {
        "cache": "with and without cache",
        "jobs": "--jobs 1 and default",
        "whole": "to every file analysed whole",
        "helper": "changed helper = its part of .",
    }
    for what, same in identical.items():
        label = labels[what]
        print(f"  {'findings identical ' + label:<34} {'yes' if same else 'NO':>8}  {'PASS' if same else 'FAIL'}")

    if args.json is not None:
        report = {
            "corpus": {"path": str(src), "files": n_files, "lines": n_lines, "findings": n_findings},
            "analysed": {"files": n_analysed, "lines": analysed_lines},
            "cpus": cpus,
            "one_file": {"path": str(one_file), "lines": one_lines},
            "changed_helper": {"package": project.name, "path": changed, "lines": helper_lines},
            "runs": [
                {k: v for k, v in asdict(m).items() if k != "stdout"}
                for m in (floor, cold, bound, fill, warm, serial, whole, one_cold, one_warm, helper_cold, helper_warm, import_libcst)
            ],
            "targets": {name: {"value": value, "limit": limit, "pass": value <= limit} for name, value, limit in targets},
            "identical": identical,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


# Tool modules of the generated projects of the `--fix` rows (bench/fix_project.py).
FIX_SIZES = (100, 1000)


def fix_rows(json_path: Path | None = None) -> int:
    """`--fix --unsafe-fixes` on generated projects (bench/fix_project.py) of FIX_SIZES tool
    modules: the time per fixed file must stay flat as the project grows (target: the largest
    project's within 1.5 x the smallest's). Judged on CPU time (the run and its workers): on a
    shared machine the wall time measures the other load as much as the run. Exit 1 when the
    target or a fix is missed."""
    sys.path.insert(0, str(REPO / "bench"))
    from fix_project import generate

    python = sys.executable
    rows = []
    with tempfile.TemporaryDirectory(prefix="mcp-lint-bench-fix-") as scratch:
        for size in FIX_SIZES:
            project = Path(scratch) / f"p{size}"
            fixed = len(generate(project, size))
            command = [python, "-m", "mcp_lint", "check", "--isolated", "--no-cache", "--fix", "--unsafe-fixes", "."]
            wall, cpu, _, stdout, _ = run_once(command, project)
            expected = f"Found {fixed} errors ({fixed} fixed, 0 remaining)."
            rows.append(
                {
                    "tools": size,
                    "fixed": fixed,
                    "wall": wall,
                    "cpu": cpu,
                    "wall_ms_per_fixed": 1000 * wall / fixed,
                    "cpu_ms_per_fixed": 1000 * cpu / fixed,
                    "all_fixed": expected in stdout,
                }
            )
    print(f"{'--fix --unsafe-fixes':<22} {'tools':>6} {'fixed':>6} {'wall s':>8} {'cpu s':>8} {'wall ms/fix':>12} {'cpu ms/fix':>11}")
    for row in rows:
        print(
            f"{'generated project':<22} {row['tools']:>6} {row['fixed']:>6} {row['wall']:8.2f} {row['cpu']:8.2f} "
            f"{row['wall_ms_per_fixed']:12.1f} {row['cpu_ms_per_fixed']:11.1f}"
        )
    ratio = rows[-1]["cpu_ms_per_fixed"] / rows[0]["cpu_ms_per_fixed"]
    wall_ratio = rows[-1]["wall_ms_per_fixed"] / rows[0]["wall_ms_per_fixed"]
    fixed_all = all(row["all_fixed"] for row in rows)
    print(f"  cpu time per fixed file, {FIX_SIZES[-1]} / {FIX_SIZES[0]} tools: {ratio:.2f} x  {'PASS' if ratio <= 1.5 else 'FAIL'} (<= 1.5)")
    print(f"  wall time per fixed file, same ratio: {wall_ratio:.2f} x (load-dependent; `uptime`: {os.getloadavg()[0]:.1f})")
    print(f"  every finding fixed: {'yes' if fixed_all else 'NO'}")
    if json_path is not None:
        json_path.write_text(json.dumps({"fix": rows, "cpu_ratio": ratio, "wall_ratio": wall_ratio}, indent=2) + "\n", encoding="utf-8")
    return 0 if ratio <= 1.5 and fixed_all else 1


def _finding_lines(stdout: str) -> list[str]:
    """The findings of a concise report, without the `[*]` fix marks (the whole-file script
    prints none) and the summary lines."""
    return [line.replace(" [*] ", " ") for line in stdout.splitlines() if ": MCP" in line or "internal error" in line]


if __name__ == "__main__":
    sys.exit(main())
