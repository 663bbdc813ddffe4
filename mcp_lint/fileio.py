"""Reading linted files exactly as they are, and writing fixed files back without ever losing one.

Reading keeps the text byte-faithful (line endings untranslated, the PEP 263 encoding remembered) so
that a fix rewrites only what its edits touch. Writing goes through a temporary file in the same
directory and an atomic rename, so an interrupted `--fix` leaves either the old or the new file.
"""

from __future__ import annotations

import codecs
import io
import itertools
import os
import stat
import tokenize
from dataclasses import dataclass
from pathlib import Path

MAX_FILE_BYTES = 10 * 1024 * 1024
_MB = 1024 * 1024


@dataclass(frozen=True)
class SourceFile:
    # Decoded text; line endings are the file's own ("\r\n" stays "\r\n").
    text: str
    # "utf-8", "utf-8-sig" (file starts with a BOM) or the codec named by a PEP 263 coding cookie,
    # as Python normalises it ("latin-1" -> "iso-8859-1"). Writing with it reproduces the bytes.
    encoding: str
    # The most frequent line ending ("\n" when there is none); for reporting, `text` keeps the originals.
    newline: str


class SourceError(Exception):
    """A file cannot be read or written; ``str()`` is a one-line reason for the user."""


def read_source(path: Path) -> SourceFile:
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise SourceError(_too_large(size))
            # Read one byte past the limit: the size from fstat is 0 for pipes and may be stale.
            data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise SourceError(_describe_os_error(exc, path)) from exc
    if len(data) > MAX_FILE_BYTES:
        raise SourceError(f"file too large (more than {MAX_FILE_BYTES // _MB} MB)")

    return decode_source(data)


def decode_source(data: bytes) -> SourceFile:
    """Decode a module's bytes (a file's, or stdin's) as Python does: BOM, coding cookie, UTF-8."""
    encoding = _detect_encoding(data)
    text = _decode(data, encoding)
    return SourceFile(text=text, encoding=encoding, newline=dominant_newline(text))


def atomic_write(path: Path, text: str, encoding: str) -> None:
    """Replace the content of the existing file ``path`` by ``text``, all or nothing.

    Raises SourceError; whatever fails, the original file is untouched and no temporary file remains.
    """
    try:
        # Encode before touching the disk: a fix may insert a character the file's codec lacks.
        data = text.encode(encoding)
    except UnicodeEncodeError as exc:
        char = exc.object[exc.start]
        raise SourceError(f"cannot encode {char!r} as {encoding} (at character offset {exc.start})") from exc
    # Write next to the file the path resolves to: renaming over a symlink would replace the link
    # by a regular file, and a temporary file in another directory may sit on another file system.
    target = Path(os.path.realpath(path))
    try:
        _replace(target, data)
    except OSError as exc:
        raise SourceError(_describe_os_error(exc, target)) from exc


def _replace(target: Path, data: bytes) -> None:
    import tempfile  # only writes need it

    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        # Binary mode: the text already carries its own line endings, nothing may translate them.
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp creates the file 0o600; an executable script must stay executable.
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
    except BaseException:
        # Also on KeyboardInterrupt: never leave a half-written sibling next to the user's file.
        try:
            os.unlink(temp_name)
        except OSError:
            pass
        raise


def _detect_encoding(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        has_bom = data.startswith(codecs.BOM_UTF8)
        # detect_encoding reads at most two lines and also fails when they are not UTF-8; name the
        # offending byte in that case, like for any other undecodable file.
        head = b"".join(itertools.islice(io.BytesIO(data), 2))
        _decode(head, "utf-8-sig" if has_bom else "utf-8")
        reason = "it contradicts the UTF-8 byte order mark" if has_bom else exc.msg
        raise SourceError(f"bad coding declaration ({reason})") from exc
    return encoding


def _decode(data: bytes, encoding: str) -> str:
    # The utf-8-sig codec reports error offsets after the BOM; decode the body ourselves so the
    # offset the user sees is a position in the file.
    start = len(codecs.BOM_UTF8) if encoding == "utf-8-sig" and data.startswith(codecs.BOM_UTF8) else 0
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    try:
        return data[start:].decode(codec)
    except UnicodeDecodeError as exc:
        name = "UTF-8" if codec == "utf-8" else encoding
        byte = exc.object[exc.start]
        raise SourceError(f"not valid {name} (byte 0x{byte:02x} at offset {start + exc.start})") from exc


def dominant_newline(text: str) -> str:
    """The most frequent line ending of ``text``; "\\n" when it has none or on a tie."""
    if "\r" not in text:  # nearly every file: one scan instead of three counts
        return "\n"
    crlf = text.count("\r\n")
    counts = {"\n": text.count("\n") - crlf, "\r\n": crlf, "\r": text.count("\r") - crlf}
    # max() keeps the first of equal counts, so ties and files without line breaks give "\n".
    return max(counts, key=lambda newline: counts[newline])


def _too_large(size: int) -> str:
    # Rounded up, so a file just over the limit never reads "10.0 MB > 10 MB".
    tenths = -(-size * 10 // _MB)
    return f"file too large ({tenths // 10}.{tenths % 10} MB > {MAX_FILE_BYTES // _MB} MB)"


def _describe_os_error(exc: OSError, path: Path) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "is a directory"
    if isinstance(exc, PermissionError):
        # Windows refuses to open a directory with "access denied" rather than EISDIR.
        return "is a directory" if path.is_dir() else "permission denied"
    if exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc)
