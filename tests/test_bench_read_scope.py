"""bench/read_scope.py: a false alarm counts as judged only in a function the labeler read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from script_support import REPO

SOURCE = '''def save(path, text):
    path.write_text(text)
    if not text:
        raise ValueError("empty")


class Store:
    def put(self, key):
        def inner():
            self.rows[key] = 1
        inner()
'''


def test_false_alarms_outside_the_read_functions_are_counted_apart(tmp_path: Path) -> None:
    set_dir = tmp_path / "set"
    set_dir.mkdir()
    (set_dir / "read.tsv").write_text("package\tfile\tfunction\tverdict\treason\ndemo==1.0\tapp/m.py\tload, save (tool store)\tno case\twrites after\n")
    module = tmp_path / "src" / "demo-1.0" / "app" / "m.py"
    module.parent.mkdir(parents=True)
    module.write_text(SOURCE)
    alarms = [{"package": "demo==1.0", "file": "app/m.py", "line": line, "rule": "MCP004"} for line in ("2", "10")]
    score = {"report": {"MCP004": {"tp": 3, "fp": 2, "fn": 1}, "all": {}}, "false_positives": alarms, "false_negatives": []}
    (tmp_path / "score.json").write_text(json.dumps(score))
    run = subprocess.run(
        [sys.executable, str(REPO / "bench" / "read_scope.py"), "--set", str(set_dir), "--score", str(tmp_path / "score.json"), "--src", str(tmp_path / "src")],
        capture_output=True,
        text=True,
        check=True,
    )
    # Line 2 is in `save` (read: a judged false alarm); line 10 is in `inner` inside `put`, which
    # nobody read: counted in the plain precision only. Line 2 is read through a cell naming
    # several functions with a remark.
    assert run.stdout.splitlines()[1].split() == ["MCP004", "3", "2", "1", "1", "0.6", "0.75"]
