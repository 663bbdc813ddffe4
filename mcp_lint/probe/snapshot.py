"""Check 4: snapshots of the working directory and watched paths, before and after a call.

A call that ended in an error must leave the world as it found it. A file's state is its size and
a hash of its content (mtime alone changes when a tool merely opens a SQLite file for writing and
changes nothing); files larger than `HASH_LIMIT` are compared by size and mtime only.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

HASH_LIMIT = 64 * 1024 * 1024
# Bytecode caches change when a server imports a module, log files when it logs a failure, and a
# SQLite WAL index (-shm) on reads: none of them is a tool mutating the world before rejecting.
IGNORED_DIRECTORIES = frozenset({"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"})
IGNORED_SUFFIXES = (".log", "-shm")

FileState = tuple[int, str]
Snapshot = Mapping[str, FileState]


@dataclass(frozen=True)
class Change:
    path: str
    kind: str  # "created", "modified" or "deleted"

    def describe(self) -> str:
        return f"{self.path} ({self.kind})"


def _state(path: Path) -> FileState | None:
    try:
        stat = path.stat()
        if stat.st_size > HASH_LIMIT:
            return stat.st_size, f"mtime:{stat.st_mtime_ns}"
        digest = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
    except OSError:
        return None  # vanished between listing and reading: the next snapshot says so
    return stat.st_size, digest


def _files(root: Path) -> Iterable[Path]:
    if root.is_file():
        yield root
        return
    for directory, subdirectories, names in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if d not in IGNORED_DIRECTORIES)
        for name in sorted(names):
            if not name.endswith(IGNORED_SUFFIXES):
                yield Path(directory, name)


def take(roots: Iterable[Path]) -> dict[str, FileState]:
    """The state of every file under `roots` (a root may be a single file, e.g. a SQLite database)."""
    snapshot: dict[str, FileState] = {}
    for root in roots:
        for path in _files(root):
            state = _state(path)
            if state is not None:
                snapshot[str(path)] = state
    return snapshot


def compare(before: Snapshot, after: Snapshot, relative_to: Path | None = None) -> list[Change]:
    """What changed between two snapshots, paths shown relative to `relative_to` when under it."""

    def shown(path: str) -> str:
        if relative_to is not None:
            try:
                return str(Path(path).relative_to(relative_to))
            except ValueError:
                pass
        return path

    changes = [Change(shown(p), "deleted") for p in before if p not in after]
    changes += [Change(shown(p), "created") for p in after if p not in before]
    changes += [Change(shown(p), "modified") for p in after if p in before and before[p] != after[p]]
    return sorted(changes, key=lambda c: c.path)
