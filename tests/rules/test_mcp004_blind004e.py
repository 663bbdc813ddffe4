"""MCP004: the causes of misses and false alarms found on bench/blind004e (see its CAUSES.md),
each with a case that must be flagged and one that must not, on made-up code.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the
exact set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    # -- a helper whose only change is set-up, then the caller's check, then the change ---------
    case(
        "helper-prepares-the-output-folder-then-the-tool-checks-then-encodes",
        """\
        def _make_room(source: str, target: str) -> None:
            if not os.path.exists(source):
                raise ToolError(f"no input at {source}")
            folder = os.path.dirname(target)
            if folder and not os.path.exists(folder):
                os.makedirs(folder, exist_ok=True)  # expect: MCP004


        def _encode(source: str, target: str) -> None:
            subprocess.run(["encoder", source, target], check=True)


        @mcp.tool()
        def shorten_clip(source: str, target: str, stop: str) -> str:
            _make_room(source, target)
            if not stop.isdigit():
                raise ToolError(f"stop must be seconds, got {stop!r}")
            _encode(source, target)
            return target
        """,
    ),
    case(
        "helper-prepares-the-output-folder-then-the-tool-writes-itself",
        """\
        def ready_folder(target: Path) -> Path:
            target.parent.mkdir(parents=True, exist_ok=True)  # expect: MCP004
            return target


        @mcp.tool()
        def save_caption(target: str, caption: str) -> str:
            out = ready_folder(Path(target))
            if len(caption) > 200:
                raise ToolError("caption is longer than 200 characters")
            out.write_text(caption)
            return str(out)
        """,
    ),
    case(
        "helper-prepares-but-the-tool-changes-nothing-after-its-check",
        """\
        def _make_room(source: str, target: str) -> None:
            folder = os.path.dirname(target)
            os.makedirs(folder, exist_ok=True)


        @mcp.tool()
        def plan_clip(source: str, target: str, stop: str) -> str:
            _make_room(source, target)
            if not stop.isdigit():
                raise ToolError(f"stop must be seconds, got {stop!r}")
            return f"would cut {source} at {stop} into {target}"
        """,
    ),
    case(
        "helper-that-prepares-and-writes-is-a-write-not-a-preparation",
        """\
        def write_staged(target: str, text: str) -> None:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as handle:  # expect: MCP004
                handle.write(text)


        @mcp.tool()
        def stage_note(target: str, text: str) -> str:
            write_staged(target, text)
            if len(text) > 500:
                raise ToolError("text is longer than 500 characters")
            return target
        """,
    ),
    case(
        "lock-context-that-makes-its-folder-is-no-preparation-finding",
        """\
        from contextlib import contextmanager

        @contextmanager
        def held(folder: Path):
            folder.mkdir(parents=True, exist_ok=True)
            yield folder / ".lock"


        @mcp.tool()
        def bump(folder: str, step: int) -> str:
            with held(Path(folder)) as lock:
                if step <= 0:
                    raise ToolError("step must be positive")
                (Path(folder) / "count").write_text(str(step))
            return "bumped"
        """,
    ),
    # -- a file made and removed at once (a writability probe) is no change ----------------------
    case(
        "folder-made-then-probed-then-a-check-then-the-image-saved",
        """\
        @mcp.tool()
        def stitch(frames: list[str], out_dir: str, mode: str) -> str:
            folder = Path(out_dir)
            folder.mkdir(parents=True, exist_ok=True)  # expect: MCP004
            probe = folder / ".can_write"
            probe.touch()
            probe.unlink()
            if mode not in ("fast", "best"):
                raise ToolError(f"mode must be fast or best, got {mode!r}")
            (folder / "strip.txt").write_text("\\n".join(frames))
            return str(folder)
        """,
    ),
    case(
        "a-file-made-and-kept-before-a-check-is-still-the-change",
        """\
        @mcp.tool()
        def mark(out_dir: str, mode: str) -> str:
            folder = Path(out_dir)
            marker = folder / ".started"
            marker.touch()  # expect: MCP004
            if mode not in ("fast", "best"):
                raise ToolError(f"mode must be fast or best, got {mode!r}")
            return str(folder)
        """,
    ),
    case(
        "a-probe-alone-before-a-check-is-no-finding",
        """\
        @mcp.tool()
        def can_write(out_dir: str, mode: str) -> str:
            probe = Path(out_dir) / ".probe"
            probe.touch()
            probe.unlink()
            if mode not in ("fast", "best"):
                raise ToolError(f"mode must be fast or best, got {mode!r}")
            return "yes"
        """,
    ),
    # -- what a handle opened for writing writes changes the file it was opened on ---------------
    case(
        "file-written-through-a-handle-then-looked-at-is-a-read-back",
        """\
        @mcp.tool()
        def export_blob(out: str, data: str) -> str:
            with open(out, "wb") as handle:
                handle.write(data.encode())
            if not os.path.exists(out) or os.path.getsize(out) == 0:
                raise ToolError("the export produced no file")
            return out
        """,
    ),
    case(
        "file-written-through-a-handle-then-another-argument-checked",
        """\
        @mcp.tool()
        def export_titled(out: str, data: str, title: str) -> str:
            with Path(out).open("w") as handle:  # expect: MCP004
                handle.write(data)
            if len(title) > 80:
                raise ToolError("title is longer than 80 characters")
            return out
        """,
    ),
    # -- a third-party library's open(path) hands back a document in memory ---------------------
    case(
        "pages-joined-in-a-document-a-library-opened-then-a-check-then-saved",
        """\
        import pagekit

        @mcp.tool()
        def join(parts: list[str], out: str, title: str) -> str:
            joined = pagekit.open()
            for part in parts:
                piece = pagekit.open(part)
                joined.insert_pages(piece)
            if len(title) > 80:
                raise ToolError("title is longer than 80 characters")
            joined.save(out)
            return out
        """,
    ),
    case(
        "a-library-opened-document-saved-before-a-check",
        """\
        import pagekit

        @mcp.tool()
        def retitle(path: str, out: str, title: str) -> str:
            book = pagekit.open(path)
            book.set_title(title)
            book.save(out)  # expect: MCP004
            if len(title) > 80:
                raise ToolError("title is longer than 80 characters")
            return out
        """,
    ),
    case(
        "a-library-open-for-writing-is-a-handle-not-a-document",
        """\
        import remotefs

        @mcp.tool()
        def put(url: str, text: str, title: str) -> str:
            target = remotefs.open(url, "w")
            target.write(text)  # expect: MCP004
            if len(title) > 80:
                raise ToolError("title is longer than 80 characters")
            return url
        """,
    ),
    # -- unpacking an archive writes under the directory given ---------------------------------
    case(
        "folder-made-then-members-checked-then-the-archive-unpacked",
        """\
        import zipfile

        @mcp.tool()
        def unpack(archive: str, into: str) -> str:
            dest = Path(into)
            dest.mkdir(parents=True, exist_ok=True)  # expect: MCP004
            with zipfile.ZipFile(archive) as bundle:
                for member in bundle.namelist():
                    if member.startswith("/") or ".." in member:
                        raise ToolError(f"unsafe member {member}")
                bundle.extractall(dest)
            return str(dest)
        """,
    ),
    case(
        "archive-unpacked-into-the-calls-scratch-then-checked",
        """\
        import tempfile
        import zipfile

        @mcp.tool()
        def peek(archive: str, limit: int) -> str:
            work = tempfile.mkdtemp()
            with zipfile.ZipFile(archive) as bundle:
                bundle.extractall(work)
            if limit <= 0:
                raise ToolError("limit must be positive")
            return work
        """,
    ),
    # -- a preparation and a loop's write rejected by the same check: a finding each -------------
    case(
        "folder-made-then-each-range-written-before-the-next-range-is-checked",
        """\
        @mcp.tool()
        def split_text(source: str, ranges: list[list[int]], out_dir: str) -> str:
            lines = Path(source).read_text().splitlines()
            os.makedirs(out_dir, exist_ok=True)  # expect: MCP004
            for first, last in ranges:
                if first < 0 or last >= len(lines) or first > last:
                    return f"Error: invalid range {first}-{last}"
                part = os.path.join(out_dir, f"{first}_{last}.txt")
                with open(part, "w") as handle:  # expect: MCP004
                    handle.write("\\n".join(lines[first:last + 1]))
            return out_dir
        """,
    ),
    case(
        "two-writes-before-one-check-are-one-finding",
        """\
        @mcp.tool()
        def pair(a: str, b: str, kind: str) -> str:
            NOTES[a] = {"kind": kind}  # expect: MCP004
            NOTES[b] = {"kind": kind}
            if kind not in ("x", "y"):
                raise ToolError(f"kind must be x or y, got {kind!r}")
            return "paired"
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)
