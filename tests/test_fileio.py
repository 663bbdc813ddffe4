from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from mcp_lint.fileio import MAX_FILE_BYTES, SourceError, SourceFile, atomic_write, read_source

BOM = b"\xef\xbb\xbf"
needs_non_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root bypasses file permissions"
)


def write_bytes(tmp_path: Path, data: bytes, name: str = "server.py") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def read_error(path: Path) -> str:
    with pytest.raises(SourceError) as excinfo:
        read_source(path)
    return str(excinfo.value)


# --- read_source ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"x = 1\n", SourceFile("x = 1\n", "utf-8", "\n")),
        (b"", SourceFile("", "utf-8", "\n")),
        (b"x = 1", SourceFile("x = 1", "utf-8", "\n")),
        (b"x = 1\r\ny = 2\r\n", SourceFile("x = 1\r\ny = 2\r\n", "utf-8", "\r\n")),
        (b"x = 1\ry = 2\r", SourceFile("x = 1\ry = 2\r", "utf-8", "\r")),
        # Mixed endings are kept as they are; the most frequent one is reported.
        (b"a\r\nb\r\nc\n", SourceFile("a\r\nb\r\nc\n", "utf-8", "\r\n")),
        ("s = 'é'\n".encode(), SourceFile("s = 'é'\n", "utf-8", "\n")),
        (BOM + "s = 'é'\r\n".encode(), SourceFile("s = 'é'\r\n", "utf-8-sig", "\r\n")),
        (
            b"# -*- coding: latin-1 -*-\ns = '\xe9'\n",
            SourceFile("# -*- coding: latin-1 -*-\ns = 'é'\n", "iso-8859-1", "\n"),
        ),
        (
            b"#!/usr/bin/env python\n# coding=cp1252\ns = '\x80'\n",
            SourceFile("#!/usr/bin/env python\n# coding=cp1252\ns = '€'\n", "cp1252", "\n"),
        ),
    ],
)
def test_read_source(tmp_path: Path, data: bytes, expected: SourceFile) -> None:
    assert read_source(write_bytes(tmp_path, data)) == expected


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"x = 1\ny = '\xff'\n", "not valid UTF-8 (byte 0xff at offset 11)"),
        # On the first two lines, where the coding declaration is looked for.
        (b"'\xe9'\n", "not valid UTF-8 (byte 0xe9 at offset 1)"),
        # The offset counts the BOM: it is a position in the file.
        (BOM + b"x = 1\ny = '\xff'\n", "not valid UTF-8 (byte 0xff at offset 14)"),
        (BOM + b"'\xff'\n", "not valid UTF-8 (byte 0xff at offset 4)"),
        (b"# coding: cp1252\nx = '\x81'\n", "not valid cp1252 (byte 0x81 at offset 22)"),
        (b"# coding: foo\n", "bad coding declaration (unknown encoding: foo)"),
        (BOM + b"# coding: latin-1\n", "bad coding declaration (it contradicts the UTF-8 byte order mark)"),
    ],
)
def test_read_source_undecodable(tmp_path: Path, data: bytes, message: str) -> None:
    assert read_error(write_bytes(tmp_path, data)) == message


def test_read_source_missing_file(tmp_path: Path) -> None:
    assert read_error(tmp_path / "gone.py") == "no such file"


def test_read_source_directory(tmp_path: Path) -> None:
    assert read_error(tmp_path) == "is a directory"


@needs_non_root
def test_read_source_permission_denied(tmp_path: Path) -> None:
    path = write_bytes(tmp_path, b"x = 1\n")
    path.chmod(0)
    assert read_error(path) == "permission denied"


def test_read_source_too_large(tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    with open(path, "wb") as stream:
        stream.truncate(int(12.3 * 1024 * 1024))  # sparse: costs no disk space
    assert read_error(path) == "file too large (12.3 MB > 10 MB)"


def test_read_source_just_over_the_limit_is_not_shown_as_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    with open(path, "wb") as stream:
        stream.truncate(MAX_FILE_BYTES + 1)
    assert read_error(path) == "file too large (10.1 MB > 10 MB)"


def test_read_source_at_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.py"
    with open(path, "wb") as stream:
        stream.truncate(MAX_FILE_BYTES)
    assert len(read_source(path).text) == MAX_FILE_BYTES


# --- atomic_write --------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o640, 0o755])
def test_atomic_write_keeps_mode(tmp_path: Path, mode: int) -> None:
    path = write_bytes(tmp_path, b"x = BAD\n")
    path.chmod(mode)
    atomic_write(path, "x = GOOD\n", "utf-8")
    assert path.read_bytes() == b"x = GOOD\n"
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert os.listdir(tmp_path) == ["server.py"]


@pytest.mark.parametrize("text", ["a = 1\r\nb = 2\r\n", "a = 1\rb = 2\r", "a = 1\nb = 2\r\nc = 3"])
def test_atomic_write_keeps_line_endings(tmp_path: Path, text: str) -> None:
    path = write_bytes(tmp_path, b"")
    atomic_write(path, text, "utf-8")
    assert path.read_bytes() == text.encode()


@pytest.mark.parametrize(
    "data",
    [
        b"# -*- coding: latin-1 -*-\r\ns = '\xe9'\r\n",
        BOM + "s = 'é'\n".encode(),
        b"#!/usr/bin/env python\n# coding=cp1252\ns = '\x80'",
    ],
    ids=["latin-1-cookie", "bom", "cp1252-cookie"],
)
def test_read_then_write_round_trips_bytes(tmp_path: Path, data: bytes) -> None:
    path = write_bytes(tmp_path, data)
    source = read_source(path)
    atomic_write(path, source.text, source.encoding)
    assert path.read_bytes() == data


def test_atomic_write_uses_the_files_encoding(tmp_path: Path) -> None:
    path = write_bytes(tmp_path, b"# coding: latin-1\ns = 'x'\n")
    source = read_source(path)
    atomic_write(path, source.text.replace("'x'", "'é'"), source.encoding)
    assert path.read_bytes() == b"# coding: latin-1\ns = '\xe9'\n"


def test_atomic_write_refuses_text_the_encoding_cannot_hold(tmp_path: Path) -> None:
    path = write_bytes(tmp_path, b"s = 'x'\n")
    with pytest.raises(SourceError) as excinfo:
        atomic_write(path, "s = '€'\n", "iso-8859-1")
    assert str(excinfo.value) == "cannot encode '€' as iso-8859-1 (at character offset 5)"
    assert path.read_bytes() == b"s = 'x'\n"
    assert os.listdir(tmp_path) == ["server.py"]


def test_atomic_write_crash_before_rename_leaves_the_original(tmp_path: Path, monkeypatch) -> None:
    path = write_bytes(tmp_path, b"x = BAD\n")

    def crash(src: str, dst: str) -> None:
        # The new content is fully written and synced at this point.
        assert Path(src).read_bytes() == b"x = GOOD\n"
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SourceError) as excinfo:
        atomic_write(path, "x = GOOD\n", "utf-8")
    assert str(excinfo.value) == "input/output error"
    assert path.read_bytes() == b"x = BAD\n"
    assert os.listdir(tmp_path) == ["server.py"]


def test_atomic_write_failing_write_leaves_the_original(tmp_path: Path, monkeypatch) -> None:
    path = write_bytes(tmp_path, b"x = BAD\n")

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(SourceError) as excinfo:
        atomic_write(path, "x = GOOD\n", "utf-8")
    assert str(excinfo.value) == "no space left on device"
    assert path.read_bytes() == b"x = BAD\n"
    assert os.listdir(tmp_path) == ["server.py"]


def test_atomic_write_interrupted_leaves_the_original(tmp_path: Path, monkeypatch) -> None:
    path = write_bytes(tmp_path, b"x = BAD\n")

    def interrupt(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, "x = GOOD\n", "utf-8")
    assert path.read_bytes() == b"x = BAD\n"
    assert os.listdir(tmp_path) == ["server.py"]


def test_atomic_write_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as excinfo:
        atomic_write(tmp_path / "gone.py", "x = 1\n", "utf-8")
    assert str(excinfo.value) == "no such file"
    assert os.listdir(tmp_path) == []


@needs_non_root
def test_atomic_write_read_only_directory(tmp_path: Path) -> None:
    path = write_bytes(tmp_path, b"x = BAD\n")
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(SourceError) as excinfo:
            atomic_write(path, "x = GOOD\n", "utf-8")
    finally:
        tmp_path.chmod(0o755)
    assert str(excinfo.value) == "permission denied"
    assert path.read_bytes() == b"x = BAD\n"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_atomic_write_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = write_bytes(tmp_path / "real", b"x = BAD\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    atomic_write(link, "x = GOOD\n", "utf-8")
    assert link.is_symlink()
    assert target.read_bytes() == b"x = GOOD\n"
    assert sorted(os.listdir(tmp_path / "real")) == ["server.py"]
