"""bench/split_set.py: splits a labeled set by server into a tuning half and a held-out half."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from script_support import REPO

HEADER_LABELS = "package\tfile\tstart_line\tend_line\trule\tindirect\tnote\n"


def _set(tmp_path: Path, sizes: dict[str, int]) -> Path:
    set_dir = tmp_path / "set"
    set_dir.mkdir()
    (set_dir / "packages.txt").write_text("# made up\n" + "".join(f"{name}\n" for name in sizes))
    rows = "".join(f"{name}\tm.py\t{line}\t{line}\tMCP002\t0\tnote\n" for name, count in sizes.items() for line in range(1, count + 1))
    (set_dir / "labels.tsv").write_text(HEADER_LABELS + rows)
    (set_dir / "labeled-packages.tsv").write_text("package\tframework\n" + "".join(f"{name}\tmcp\n" for name in sizes))
    return set_dir


def _split(set_dir: Path, seed: int) -> str:
    run = subprocess.run([sys.executable, str(REPO / "bench" / "split_set.py"), str(set_dir), "--seed", str(seed)], capture_output=True, text=True, check=True)
    return run.stdout


def _members(set_dir: Path, half: str) -> list[str]:
    return (set_dir / half / "packages.txt").read_text().split()


def test_each_pair_of_ranked_servers_goes_one_to_each_half(tmp_path: Path) -> None:
    set_dir = _set(tmp_path, {"a==1": 9, "b==1": 8, "c==1": 3, "d==1": 2, "e==1": 0})
    out = _split(set_dir, 7)
    tuning, held = _members(set_dir, "tuning"), _members(set_dir, "held")
    assert sorted(tuning + held) == ["a==1", "b==1", "c==1", "d==1", "e==1"]
    assert len({"a==1", "b==1"} & set(tuning)) == 1 and len({"c==1", "d==1"} & set(tuning)) == 1
    assert f"tuning: {len(tuning)} servers" in out and f"held: {len(held)} servers" in out
    # Each half keeps exactly its own servers' label rows, header first.
    held_rows = (set_dir / "held" / "labels.tsv").read_text().splitlines()
    assert held_rows[0] == HEADER_LABELS.strip()
    assert {row.split("\t")[0] for row in held_rows[1:]} == set(held) - {"e==1"}


def test_the_same_seed_gives_the_same_split_and_another_seed_may_not(tmp_path: Path) -> None:
    sizes = {f"s{i}==1": i for i in range(12)}
    set_dir = _set(tmp_path, sizes)
    _split(set_dir, 1)
    first = _members(set_dir, "held")
    _split(set_dir, 1)
    assert _members(set_dir, "held") == first
    splits = set()
    for seed in range(2, 8):
        _split(set_dir, seed)
        splits.add(tuple(_members(set_dir, "held")))
    assert len(splits) > 1
