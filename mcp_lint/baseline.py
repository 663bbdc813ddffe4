"""Baselines: accept the findings a codebase has today, report only new ones.

An entry names a finding by its file, rule, enclosing function and a hash of the flagged statement,
never by its line, so edits elsewhere in the file do not bring baselined findings back; editing the
flagged statement itself does, which is the point. Entries count: a function with two identical
findings needs a count of two, or the second one is reported.

File paths are stored relative to the baseline file's directory (POSIX separators), so a baseline
works from any working directory and on any OS. The file is sorted JSON with a version number, so
rewriting it after fixing one finding changes one line in a diff.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from mcp_lint.findings import Finding

VERSION = 1
# A file that could not be read was not checked at all; accepting that would hide every defect in it.
NOT_BASELINED = frozenset({"MCP000"})


class BaselineError(Exception):
    """The baseline file is missing, unreadable or not a baseline; ``str()`` is one line."""


@dataclass(frozen=True, order=True)
class BaselineKey:
    file: str
    code: str
    context: str
    statement_sha256: str


def statement_hash(statement: str) -> str:
    # 16 hex digits: collisions only matter within one function and rule, where 64 bits are plenty.
    return hashlib.sha256(statement.encode("utf-8")).hexdigest()[:16]


def _relative_posix(filename: str, root: Path) -> str:
    absolute = os.path.abspath(filename)
    try:
        relative = os.path.relpath(absolute, root)
    except ValueError:  # another drive on Windows: no relative path exists
        relative = absolute
    return relative.replace(os.sep, "/")


def key_of(finding: Finding, root: Path) -> BaselineKey:
    """The baseline key of ``finding``; ``root`` is the directory of the baseline file."""
    return BaselineKey(_relative_posix(finding.filename, root), finding.code, finding.context, statement_hash(finding.statement))


def _root_of(path: Path) -> Path:
    return Path(os.path.abspath(path)).parent


def dumps(findings: Iterable[Finding], root: Path) -> str:
    """The baseline file text accepting ``findings``."""
    counts = Counter(key_of(f, root) for f in findings if f.code not in NOT_BASELINED)
    entries = [
        json.dumps(
            {"file": k.file, "code": k.code, "context": k.context, "statement_sha256": k.statement_sha256, "count": n},
            ensure_ascii=False,
        )
        for k, n in sorted(counts.items())
    ]
    # One entry per line: fixing a finding and rewriting the baseline shows as one deleted line.
    body = ",\n".join(f"    {entry}" for entry in entries)
    return f'{{\n  "version": {VERSION},\n  "findings": [' + (f"\n{body}\n  " if entries else "") + "]\n}\n"


def write(path: Path, findings: Sequence[Finding]) -> int:
    """Write a baseline accepting ``findings`` to ``path``; returns how many findings it accepts."""
    accepted = [f for f in findings if f.code not in NOT_BASELINED]
    try:
        path.write_text(dumps(accepted, _root_of(path)), encoding="utf-8")
    except OSError as exc:
        raise BaselineError(f"{path}: cannot write the baseline: {exc.strerror or exc}") from exc
    return len(accepted)


@dataclass(frozen=True)
class Baseline:
    root: Path
    counts: Counter[BaselineKey]

    @classmethod
    def load(cls, path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise BaselineError(f"{path}: cannot read the baseline: {exc.strerror or exc}") from exc
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
            raise BaselineError(f"{path}: not a baseline file (invalid JSON: {exc})") from exc
        return cls(_root_of(path), _parse(data, path))

    def filter(self, findings: Sequence[Finding]) -> tuple[list[Finding], int]:
        """The findings the baseline does not accept, and how many it accepted.

        With fewer entries than identical findings, the first ones (in report order) are accepted.
        """
        budget = Counter(self.counts)
        kept: list[Finding] = []
        for finding in findings:
            key = key_of(finding, self.root)
            if finding.code not in NOT_BASELINED and budget[key] > 0:
                budget[key] -= 1
            else:
                kept.append(finding)
        return kept, len(findings) - len(kept)


def _parse(data: object, path: Path) -> Counter[BaselineKey]:
    if not isinstance(data, dict) or "version" not in data:
        raise BaselineError(f"{path}: not a baseline file (expected a JSON object with a `version`)")
    if data["version"] != VERSION:
        raise BaselineError(f"{path}: unsupported baseline version {data['version']!r} (this mcp-lint reads version {VERSION})")
    entries = data.get("findings")
    if not isinstance(entries, list):
        raise BaselineError(f"{path}: `findings` must be a list")
    counts: Counter[BaselineKey] = Counter()
    for index, entry in enumerate(entries):
        fields = ("file", "code", "context", "statement_sha256")
        if not isinstance(entry, dict) or not all(isinstance(entry.get(f), str) for f in fields):
            raise BaselineError(f"{path}: entry {index + 1} needs the string fields {', '.join(fields)}")
        count = entry.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise BaselineError(f"{path}: entry {index + 1}: `count` must be a positive integer")
        counts[BaselineKey(*(entry[f] for f in fields))] += count
    return counts
