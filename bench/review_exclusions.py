"""Names an outside fix review's server may not be: claimed.txt, public.txt, heldout.txt, every
bench list and every /work/labeling set that is not held out (held-out lists are not opened: their
names are in claimed.txt). Writes `bench/<review>/excl.txt` (normalised names).

    python bench/review_exclusions.py fix_review16

Each review's held-out sets are kept below, as they stood when that review picked its servers.
One script for every review (reviews 14-16 each had a copy that differed only in these lists)."""

from __future__ import annotations

import argparse
import glob
import pathlib
import re

BENCH = pathlib.Path(__file__).resolve().parent
HELD_OUT: dict[str, tuple[str, ...]] = {
    "fix_review14": ("heldout11", "heldout14", "blind004f", "blind004g", "review11", "review12", "review14"),
    "fix_review15": ("heldout11", "heldout16", "blind004h", "blind004j", "review11", "review12", "review14", "review15"),
    "fix_review16": (
        "heldout11", "heldout16", "heldout17", "heldout18", "blind004h", "blind004j", "blind004k",
        "review11", "review12", "review14", "review15", "review16",
    ),
}


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.split("==")[0].strip().lower())


def excluded_names(review: str, held: tuple[str, ...]) -> set[str]:
    names: set[str] = set()

    def add(name: str) -> None:
        name = name.strip()
        if name and not name.startswith("#"):
            names.add(normalised(name))

    for line in pathlib.Path("/work/labeling/claimed.txt").read_text().splitlines():
        parts = line.split()
        if parts:
            add(parts[1] if len(parts) >= 2 else parts[0])
    lists = ["/work/shared/corpus/public.txt", str(BENCH / "heldout.txt")]
    for pattern in ("*/packages.txt", "*/candidates*.txt", "*/fresh*.txt", "*/pool.tsv", "*.txt"):
        lists += glob.glob(str(BENCH / pattern))
    for path in lists:
        if any(h in path for h in held) or path.endswith(f"{review}/excl.txt"):
            continue
        for line in pathlib.Path(path).read_text().splitlines():
            text = line.split("#")[0].strip()
            if text:
                add(text.split()[0])
    for folder in glob.glob("/work/labeling/*/src/*"):
        if any(h in folder for h in held):
            continue
        name = pathlib.Path(folder).name
        add(name)
        versioned = re.match(r"^(.*?)[-_]\d+(\.\d+)*.*$", name)
        if versioned:
            add(versioned.group(1))
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("review", choices=sorted(HELD_OUT), help="the review's folder under bench/")
    review = parser.parse_args().review
    names = excluded_names(review, HELD_OUT[review])
    (BENCH / review / "excl.txt").write_text("\n".join(sorted(names)) + "\n")
    print(len(names))


if __name__ == "__main__":
    main()
