"""MCP004: the causes that recur in all three tuning sets (bench/blind004e/CAUSES.md, "Across
sets"), each with a case that must be flagged and one that must not, on made-up code.

Sources mark the rows where MCP004 is expected with `# expect: MCP004`; the test asserts the
exact set of MCP004 rows.
"""

from __future__ import annotations

import pytest

from .test_mcp004_causes import _mcp004, case

CAUSES = [
    # -- batch order: a validator helper at the top of a loop body, after an earlier item's write
    case(
        "loop-validator-helper-after-the-previous-items-write",
        """\
        def read_span(spec: str) -> list[int]:
            bounds = [b.strip() for b in spec.split(":")]
            for bound in bounds:
                if not bound.isdigit():
                    raise ValueError(f"bad span {spec!r}")
            return list(range(int(bounds[0]), int(bounds[-1]) + 1))


        @mcp.tool()
        def cut_spans(source: str, spans: list[str], folder: str) -> str:
            lines = Path(source).read_text().splitlines()
            made = []
            for spec in spans:
                rows = read_span(spec)
                target = Path(folder) / f"slice_{len(made)}.txt"
                target.write_text("\\n".join(lines[i] for i in rows))  # expect: MCP004
                made.append(str(target))
            return ", ".join(made)
        """,
    ),
    case(
        "loop-validator-helper-run-for-every-item-before-the-writes",
        """\
        def read_span(spec: str) -> list[int]:
            bounds = [b.strip() for b in spec.split(":")]
            for bound in bounds:
                if not bound.isdigit():
                    raise ValueError(f"bad span {spec!r}")
            return list(range(int(bounds[0]), int(bounds[-1]) + 1))


        @mcp.tool()
        def cut_spans(source: str, spans: list[str], folder: str) -> str:
            lines = Path(source).read_text().splitlines()
            all_rows = [read_span(spec) for spec in spans]
            made = []
            for rows in all_rows:
                target = Path(folder) / f"slice_{len(made)}.txt"
                target.write_text("\\n".join(lines[i] for i in rows))
                made.append(str(target))
            return ", ".join(made)
        """,
    ),
    # -- a write in one branch of an `if`/`elif` chain does not hide the next branch's write -----
    case(
        "elif-branch-write-before-its-own-loop-validator",
        """\
        def read_span(spec: str) -> list[int]:
            bounds = [b.strip() for b in spec.split(":")]
            for bound in bounds:
                if not bound.isdigit():
                    raise ValueError(f"bad span {spec!r}")
            return list(range(int(bounds[0]), int(bounds[-1]) + 1))


        @mcp.tool()
        def cut(source: str, mode: str, spans: list[str], folder: str) -> str:
            lines = Path(source).read_text().splitlines()
            if mode == "whole":
                (Path(folder) / "all.txt").write_text("\\n".join(lines))
            elif mode == "spans":
                for n, spec in enumerate(spans):
                    rows = read_span(spec)
                    (Path(folder) / f"slice_{n}.txt").write_text("\\n".join(lines[i] for i in rows))  # expect: MCP004
            return "done"
        """,
    ),
    case(
        "elif-branch-write-after-its-spans-were-all-read",
        """\
        def read_span(spec: str) -> list[int]:
            bounds = [b.strip() for b in spec.split(":")]
            for bound in bounds:
                if not bound.isdigit():
                    raise ValueError(f"bad span {spec!r}")
            return list(range(int(bounds[0]), int(bounds[-1]) + 1))


        @mcp.tool()
        def cut(source: str, mode: str, spans: list[str], folder: str) -> str:
            lines = Path(source).read_text().splitlines()
            if mode == "whole":
                (Path(folder) / "all.txt").write_text("\\n".join(lines))
            elif mode == "spans":
                chosen = [read_span(spec) for spec in spans]
                for n, rows in enumerate(chosen):
                    (Path(folder) / f"slice_{n}.txt").write_text("\\n".join(lines[i] for i in rows))
            return "done"
        """,
    ),
    case(
        "loop-validator-helper-in-an-items-error-branch",
        """\
        KINDS = {"missing", "empty"}


        def problem(kind: str, ref: str) -> dict:
            if kind not in KINDS:
                raise ValueError(f"unknown kind {kind}")
            return {"kind": kind, "ref": ref}


        @mcp.tool()
        def save_notes(notes: list[dict]) -> dict:
            problems = []
            for note in notes:
                if not note.get("text"):
                    kind = "missing" if "text" not in note else "empty"
                    entry = problem(kind, str(note.get("id")))
                    problems.append(entry)
                    continue
                body = {"text": note["text"]}
                httpx.put(f"https://notes.example.com/notes/{note['id']}", json=body)
            return {"saved": len(notes) - len(problems), "problems": problems}
        """,
    ),
    # -- batch order: the call refused because no item succeeded, after a preparation -----------
    case(
        "refused-when-no-item-succeeded-after-preparing-the-folder",
        """\
        import shutil


        def _copy_one(source: str, target: str) -> str:
            if not os.path.exists(source):
                raise RuntimeError(f"no file at {source}")
            shutil.copy(source, target)
            return target


        @mcp.tool()
        def copy_all(sources: list[str], out_dir: str) -> str:
            os.makedirs(out_dir, exist_ok=True)  # expect: MCP004
            done = []
            failed = 0
            for source in sources:
                try:
                    target = os.path.join(out_dir, os.path.basename(source))
                    done.append(_copy_one(source, target))
                except Exception as e:
                    failed += 1
            if not done and failed > 0:
                return "All files failed to copy"
            return "\\n".join(done)
        """,
    ),
    case(
        "refused-when-some-item-failed-after-preparing-the-folder",
        """\
        import shutil


        def _copy_one(source: str, target: str) -> str:
            if not os.path.exists(source):
                raise RuntimeError(f"no file at {source}")
            shutil.copy(source, target)
            return target


        @mcp.tool()
        def copy_all(sources: list[str], out_dir: str) -> str:
            os.makedirs(out_dir, exist_ok=True)
            done = []
            failed = []
            for source in sources:
                try:
                    target = os.path.join(out_dir, os.path.basename(source))
                    done.append(_copy_one(source, target))
                except Exception as e:
                    failed.append(f"{source}: {e}")
            if failed:
                raise ToolError("some files failed: " + "; ".join(failed))
            return "\\n".join(done)
        """,
    ),
    case(
        "refused-when-no-item-succeeded-whose-loop-changes-nothing",
        """\
        def _fetch_one(url: str) -> str:
            if not url.startswith("https://"):
                raise RuntimeError(f"not a web address: {url}")
            return httpx.get(url).text


        @mcp.tool()
        def fetch_all(urls: list[str], log_dir: str) -> str:
            os.makedirs(log_dir, exist_ok=True)
            pages = []
            failed = 0
            for url in urls:
                try:
                    pages.append(_fetch_one(url))
                except Exception:
                    failed += 1
            if len(pages) == 0 and failed:
                raise ToolError("no page could be fetched")
            return "\\n".join(pages)
        """,
    ),
    # -- the call's scratch: a command whose output (named last) is a temporary path ----------
    case(
        "command-writing-the-callers-output-before-a-parse",
        """\
        @mcp.tool()
        def clip(source: str, out_path: str, speed: str) -> str:
            try:
                subprocess.run(["clipper", "-i", source, "-y", out_path], check=True)  # expect: MCP004
                factor = float(speed)
                return f"clipped at {factor}x"
            except ValueError:
                raise ToolError("speed must be a number")
        """,
    ),
    case(
        "command-writing-into-the-calls-temporary-folder-before-a-parse",
        """\
        import shutil
        import tempfile


        @mcp.tool()
        def clip(source: str, speed: str) -> str:
            tmp_dir = tempfile.mkdtemp()
            try:
                tmp_out = os.path.join(tmp_dir, "clip.mp4")
                subprocess.run(["clipper", "-i", source, "-y", tmp_out], check=True)
                factor = float(speed)
                return f"clipped at {factor}x: {os.path.getsize(tmp_out)} bytes"
            except ValueError:
                raise ToolError("speed must be a number")
            finally:
                shutil.rmtree(tmp_dir)
        """,
    ),
    # -- what an except clause rejects: only statements that can run after the mutation --------
    case(
        "parse-after-the-copy-in-the-same-branch",
        """\
        import shutil
        import tempfile


        @mcp.tool()
        def publish(source: str, out_path: str, scale: str) -> str:
            try:
                tmp_dir = tempfile.mkdtemp()
                try:
                    shutil.copy(source, out_path)  # expect: MCP004
                    factor = float(scale)
                    return f"published at {factor}"
                finally:
                    shutil.rmtree(tmp_dir)
            except ValueError:
                raise ToolError("scale must be a number")
        """,
    ),
    case(
        "copy-in-a-branch-that-returns-then-clean-up-in-finally",
        """\
        import shutil
        import tempfile


        @mcp.tool()
        def publish(source: str, out_path: str, scale: str) -> str:
            try:
                tmp_dir = tempfile.mkdtemp()
                try:
                    if scale == "none":
                        shutil.copy(source, out_path)
                        return "copied"
                    factor = float(scale)
                    return f"would scale by {factor}"
                finally:
                    shutil.rmtree(tmp_dir)
            except ValueError:
                raise ToolError("scale must be a number or none")
        """,
    ),
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)
