"""Check 4's snapshots: what counts as a change."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from mcp_lint.probe import snapshot
from mcp_lint.probe.process import resolve_command


def test_created_modified_and_deleted_files(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("same")
    (tmp_path / "edit.txt").write_text("before")
    (tmp_path / "gone.txt").write_text("x")
    before = snapshot.take([tmp_path])
    (tmp_path / "edit.txt").write_text("after!")
    (tmp_path / "gone.txt").unlink()
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "new.txt").write_text("y")
    changes = snapshot.compare(before, snapshot.take([tmp_path]), tmp_path)
    assert [c.describe() for c in changes] == ["edit.txt (modified)", "gone.txt (deleted)", "sub/new.txt (created)"]


def test_a_rewrite_with_the_same_content_is_no_change(tmp_path: Path) -> None:
    (tmp_path / "state.json").write_text("{}")
    before = snapshot.take([tmp_path])
    (tmp_path / "state.json").write_text("{}")
    assert snapshot.compare(before, snapshot.take([tmp_path])) == []


def test_a_committed_sqlite_write_is_a_change_and_a_read_is_not(tmp_path: Path) -> None:
    database = tmp_path / "orders.db"
    connection = sqlite3.connect(database)
    connection.executescript("CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT); INSERT INTO orders VALUES (1, 'open');")
    before = snapshot.take([database])
    connection.execute("SELECT * FROM orders").fetchall()
    assert snapshot.compare(before, snapshot.take([database])) == []
    connection.execute("UPDATE orders SET status = 'closed' WHERE id = 1")
    connection.commit()
    assert [c.kind for c in snapshot.compare(before, snapshot.take([database]))] == ["modified"]
    connection.close()


def test_bytecode_caches_and_logs_are_ignored(tmp_path: Path) -> None:
    before = snapshot.take([tmp_path])
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "server.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "server.log").write_text("ERROR get_order failed\n")
    assert snapshot.compare(before, snapshot.take([tmp_path])) == []


def test_a_sqlite_wal_write_is_a_change(tmp_path: Path) -> None:
    database = tmp_path / "orders.db"
    connection = sqlite3.connect(database)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.executescript("CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT); INSERT INTO orders VALUES (1, 'open');")
    before = snapshot.take([tmp_path])
    connection.execute("UPDATE orders SET status = 'closed' WHERE id = 1")
    connection.commit()
    assert "orders.db-wal (modified)" in [c.describe() for c in snapshot.compare(before, snapshot.take([tmp_path]), tmp_path)]
    connection.close()


def test_relative_paths_of_the_command_become_absolute(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text("")
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "venv" / "bin" / "python").write_text("")
    command = resolve_command(["venv/bin/python", "server.py", "--port", "8000", "python"], tmp_path)
    assert command == [str(tmp_path / "venv/bin/python"), str(tmp_path / "server.py"), "--port", "8000", "python"]
