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
]


@pytest.mark.parametrize("body", CAUSES)
def test_cause(body: str) -> None:
    _mcp004(body)
