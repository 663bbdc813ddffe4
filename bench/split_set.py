"""Split a labeled set by server into a tuning half and a held-out half.

A blind set stops measuring anything once the rules are changed to fit it. Splitting it by
server before anyone reads its misses keeps one half honest: the tuning half may be read and
worked on, the held-out half is scored only. Servers are ranked by label count and taken in
pairs, one of each pair to each half (which one by a seeded coin), so both halves get big and
small servers alike.

    python bench/split_set.py bench/heldout5 --seed 2026

writes `bench/heldout5/tuning/` and `bench/heldout5/held/`, each a set `blind.py --set` reads.
"""

from __future__ import annotations

import argparse
import csv
import random
from collections import Counter
from pathlib import Path

# Files of a set whose rows start with the package column; each half keeps its servers' rows.
PER_PACKAGE_FILES = ("labels.tsv", "labeled-packages.tsv", "read-list.tsv", "labels-010-011.tsv", "read-004.tsv")
HALVES = ("tuning", "held")


def packages(set_dir: Path) -> list[str]:
    lines = (set_dir / "packages.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def label_counts(set_dir: Path) -> Counter[str]:
    with (set_dir / "labels.tsv").open(newline="") as handle:
        return Counter(row["package"] for row in csv.DictReader(handle, delimiter="\t"))


def split(names: list[str], counts: Counter[str], seed: int) -> dict[str, list[str]]:
    """Each server to one half: ranked by label count (name breaks ties), in pairs."""
    ranked = sorted(names, key=lambda name: (-counts[name], name))
    coin = random.Random(seed)
    halves: dict[str, list[str]] = {half: [] for half in HALVES}
    for start in range(0, len(ranked), 2):
        pair = ranked[start : start + 2]
        if coin.random() < 0.5:
            pair.reverse()
        for half, name in zip(HALVES, pair):
            halves[half].append(name)
    return halves


def write_half(set_dir: Path, half: str, members: list[str]) -> None:
    out = set_dir / half
    out.mkdir(exist_ok=True)
    keep = set(members)
    (out / "packages.txt").write_text("".join(f"{name}\n" for name in members if name in keep))
    for name in PER_PACKAGE_FILES:
        source = set_dir / name
        if not source.is_file():
            continue
        header, *rows = source.read_text().splitlines(keepends=True)
        (out / name).write_text(header + "".join(row for row in rows if row.split("\t", 1)[0] in keep))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path, help="directory of the labeled set")
    parser.add_argument("--seed", type=int, required=True, help="seed of the coin (write it down)")
    args = parser.parse_args()
    counts = label_counts(args.set)
    for half, members in split(packages(args.set), counts, args.seed).items():
        write_half(args.set, half, members)
        print(f"{half}: {len(members)} servers, {sum(counts[m] for m in members)} labels")


if __name__ == "__main__":
    main()
