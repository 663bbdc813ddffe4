"""bench/anchor_pairs.py: a false alarm and a miss of one rule in one function count as one flow
reported at another statement than its label (the anchor), in a second table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from script_support import REPO

SERVER = '''\
def fetch(key):
    try:
        return call(key)
    except Exception as error:
        text = str(error)
        return text


def other(key):
    return key
'''


def _score(tmp_path: Path, alarm_line: int, miss_line: int) -> tuple[Path, Path]:
    src = tmp_path / "src"
    (src / "pkg-1.0").mkdir(parents=True)
    (src / "pkg-1.0" / "server.py").write_text(SERVER)
    report = {"MCP002": {"labels": 2, "tp": 1, "fp": 1, "fn": 1}}
    score = {
        "report": report,
        "false_positives": [{"package": "pkg==1.0", "file": "server.py", "line": str(alarm_line), "rule": "MCP002"}],
        "false_negatives": [
            {"package": "pkg==1.0", "file": "server.py", "start_line": str(miss_line), "end_line": str(miss_line),
             "rule": "MCP002", "indirect": "0", "note": "secret label text"}
        ],
    }
    path = tmp_path / "score.json"
    path.write_text(json.dumps(score))
    return path, src


def _run(score: Path, src: Path, *extra: str) -> str:
    command = [sys.executable, str(REPO / "bench" / "anchor_pairs.py"), str(score), str(src), "--rules", "MCP002", *extra]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def _row(out: str) -> list[str]:
    return out.splitlines()[1].split()


def test_alarm_and_miss_in_one_function_pair_up(tmp_path: Path) -> None:
    out = _run(*_score(tmp_path, alarm_line=5, miss_line=6))
    assert _row(out) == ["MCP002", "1/1/1", "0.50", "0.50", "1", "2/0/0", "1.00", "1.00"]
    assert "secret label text" not in out


def test_alarm_and_miss_in_different_functions_stay_apart(tmp_path: Path) -> None:
    out = _run(*_score(tmp_path, alarm_line=5, miss_line=10))
    assert _row(out) == ["MCP002", "1/1/1", "0.50", "0.50", "0", "1/1/1", "0.50", "0.50"]


def test_file_scope_pairs_across_functions(tmp_path: Path) -> None:
    out = _run(*_score(tmp_path, alarm_line=5, miss_line=10), "--scope", "file")
    assert _row(out)[4:6] == ["1", "2/0/0"]
