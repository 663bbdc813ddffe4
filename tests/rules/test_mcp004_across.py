"""MCP004: causes found across the tuning sets blind004, blind004c and blind004e (see the table
"Across sets" in bench/blind004e/CAUSES.md), each with a case that must be flagged and one that
must not, on made-up code.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the
exact set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    # -- a clause catching only a decoding failure reports only statements that decode ---------
    case(
        "decode-clause-after-a-write-whose-later-statements-decode-nothing",
        """\
        ROOT = Path("notes")
        LIMIT = 1000


        @mcp.tool()
        def add_line(target: Path, line: str) -> str:
            if not target.exists():
                raise ToolError(f"no file at {target}")
            try:
                before = target.read_text(encoding="utf-8")
                if len(before) + len(line) > LIMIT:
                    raise ValueError("the file would grow past the limit")
                with open(target, "a", encoding="utf-8") as handle:
                    handle.write(line)
                added = len(line.splitlines())
                shown = target.relative_to(ROOT)
                return f"{shown}: {len(before)} characters, {added} lines added"
            except UnicodeDecodeError:
                shown = target.relative_to(ROOT)
                raise ToolError(f"{shown} is not a text file")
            except Exception as e:
                raise ToolError(f"cannot append to {target}: {e}")
        """,
    ),
    case(
        "decode-clause-after-a-write-whose-later-statement-parses-an-argument",
        """\
        import json

        ROOT = Path("notes")


        @mcp.tool()
        def add_record(target: str, record: str) -> str:
            path = ROOT / target
            try:
                with open(path, "a", encoding="utf-8") as handle:
                    handle.write(record + "\\n")  # expect: MCP004
                fields = json.loads(record)
                return f"stored {len(fields)} fields"
            except json.JSONDecodeError:
                raise ToolError("record must be a JSON object")
        """,
    ),
    case(
        "value-clause-after-a-write-still-reports-any-later-conversion",
        """\
        ROOT = Path("notes")


        @mcp.tool()
        def add_count(target: str, count: str) -> str:
            path = ROOT / target
            try:
                path.write_text(count)  # expect: MCP004
                total = int(count) * 2
                return f"doubled to {total}"
            except ValueError:
                raise ToolError("count must be a whole number")
        """,
    ),
    # -- a rate limiter's accounting is bookkeeping, not a change ------------------------------
    case(
        "rate-limiter-refills-a-callers-window-then-refuses",
        """\
        import time


        class _Window:
            def __init__(self, tokens: float, last: float):
                self.tokens = tokens
                self.last = last


        _windows: dict[str, _Window] = {}


        def _check_rate(caller: str) -> tuple[bool, int]:
            now = time.monotonic()
            window = _windows.get(caller)
            if window is None:
                window = _Window(tokens=10.0, last=now)
                _windows[caller] = window
            window.tokens = min(10.0, window.tokens + (now - window.last))
            window.last = now
            if window.tokens < 1.0:
                return False, 1
            window.tokens -= 1.0
            return True, 0


        @mcp.tool()
        def report(caller: str, kind: str) -> dict:
            allowed, retry = _check_rate(caller)
            if not allowed:
                return {"error": "rate_limited", "retry_after": retry}
            if kind not in ("short", "long"):
                return {"error": f"kind must be short or long, got {kind!r}"}
            return {"kind": kind}
        """,
    ),
    case(
        "registry-of-windows-written-before-a-name-check-is-still-a-change",
        """\
        _windows: dict[str, dict] = {}


        @mcp.tool()
        def open_window(name: str, width: int) -> str:
            _windows[name] = {"width": width}  # expect: MCP004
            if width <= 0:
                raise ToolError("width must be positive")
            return name
        """,
    ),
    # -- a check of what a waited-for process or worker holds was not available before --------
    case(
        "watcher-started-then-the-process-is-waited-for-and-its-code-checked",
        """\
        import threading

        from mcp.server.fastmcp import Context


        @mcp.tool()
        def render(source: str, target: str, ctx: Context) -> str:
            proc = subprocess.Popen(["renderer", source, target], stderr=subprocess.PIPE)

            def watch() -> None:
                while proc.poll() is None:
                    ctx.info("rendering")

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            _, err = proc.communicate()
            if proc.returncode != 0:
                raise RuntimeError(f"renderer failed: {err!r}")
            return target
        """,
    ),
    case(
        "watcher-started-then-an-argument-checked-after-the-wait",
        """\
        import threading

        from mcp.server.fastmcp import Context


        @mcp.tool()
        def render_png(source: str, target: str, ctx: Context) -> str:
            proc = subprocess.Popen(["renderer", source, target], stderr=subprocess.PIPE)  # expect: MCP004

            def watch() -> None:
                while proc.poll() is None:
                    ctx.info("rendering")

            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            _, err = proc.communicate()
            if not target.endswith(".png"):
                raise ToolError(f"target must be a .png file, got {target!r}")
            return target
        """,
    ),
    # -- a look at a file under the folder just made reads the folder back -------------------
    case(
        "folder-made-then-a-file-under-it-is-looked-at",
        """\
        @mcp.tool()
        def export_parts(out_dir: str, names: list[str], overwrite: bool = False) -> list[str]:
            target_dir = Path(out_dir)
            target_dir.mkdir(parents=True, exist_ok=True)
            if not overwrite:
                for name in names:
                    target = target_dir / name
                    if target.exists():
                        raise ToolError(f"{target} exists; pass overwrite=True")
            written = []
            for name in names:
                (target_dir / name).write_text(name)
                written.append(name)
            return written
        """,
    ),
    case(
        "folder-made-then-the-name-of-a-file-under-it-is-checked",
        """\
        @mcp.tool()
        def export_texts(out_dir: str, names: list[str], overwrite: bool = False) -> list[str]:
            target_dir = Path(out_dir)
            target_dir.mkdir(parents=True, exist_ok=True)  # expect: MCP004
            if not overwrite:
                for name in names:
                    target = target_dir / name
                    if target.suffix != ".txt":
                        raise ToolError(f"{target} must end in .txt")
            written = []
            for name in names:
                (target_dir / name).write_text(name)
                written.append(name)
            return written
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)
