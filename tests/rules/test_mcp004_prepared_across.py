"""MCP004 (issue 21): a path-resolving helper in another module whose only change is making the
folder of the path it returns (`out = resolve_output(path)`), then a check of the arguments that
could run first, then the change the folder was for (a write, a library's save, a command). The
helper's summary says it prepares (FunctionSummary.prepares); the tool's call is a candidate that
counts only where the linker finds that set-up is all the helper changes."""

from __future__ import annotations

from ._support import lint_tree, write_tree

PATHS = """\
import os
from pathlib import Path


def resolve_output(path: str) -> Path:
    target = Path(path).expanduser().resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def output_folder(path: str) -> str:
    os.makedirs(path, exist_ok=True)
    return path


def resolve_and_mark(path: str) -> Path:
    target = Path(path).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    (target.parent / ".marker").write_text("in use")
    return target


def resolve_plain(path: str) -> Path:
    return Path(path).resolve()
"""

HEAD = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

from . import paths
from app.paths import output_folder, resolve_and_mark, resolve_output, resolve_plain

mcp = FastMCP("render")
CHART = object()


"""


def _mcp004(tmp_path, server: str) -> list[tuple[str, int, str]]:
    write_tree(tmp_path, {"app/__init__.py": "", "app/paths.py": PATHS, "app/server.py": HEAD + server})
    return [(f.filename.rsplit("/", 1)[-1], f.location.row, f.message) for f in lint_tree(tmp_path) if f.code == "MCP004"]


def test_imported_helper_prepares_then_a_check_then_a_library_save(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def save_chart(out: str, dpi: int) -> str:
    target = resolve_output(out)
    if not 50 <= dpi <= 600:
        raise ToolError("dpi must be 50..600")
    CHART.savefig(target, dpi=dpi)
    return str(target)
""",
    )
    assert found == [("paths.py", 7, "Helper 'resolve_output' prepares a directory (mkdir) here; tool 'save_chart' then rejects the call at line 14")]


def test_helper_through_its_module_then_a_check_then_a_write(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def export_notes(folder: str, text: str) -> str:
    where = paths.output_folder(folder)
    if not text.strip():
        raise ToolError("text must not be empty")
    with open(where + "/notes.txt", "w") as handle:
        handle.write(text)
    return where
""",
    )
    assert found == [("paths.py", 12, "Helper 'output_folder' prepares a directory (makedirs) here; tool 'export_notes' then rejects the call at line 14")]


def test_check_that_could_not_run_first(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def save_chart(out: str, dpi: int) -> str:
    target = resolve_output(out)
    if target.exists():
        raise ToolError(f"{target} exists already")
    CHART.savefig(target, dpi=dpi)
    return str(target)
""",
    )
    assert found == []


def test_nothing_written_after_the_check(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def plan_chart(out: str, dpi: int) -> str:
    target = resolve_output(out)
    if not 50 <= dpi <= 600:
        raise ToolError("dpi must be 50..600")
    return str(target)
""",
    )
    assert found == []


def test_helper_that_also_writes_a_file_is_no_set_up_helper(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def save_chart(out: str, dpi: int) -> str:
    target = resolve_and_mark(out)
    if not 50 <= dpi <= 600:
        raise ToolError("dpi must be 50..600")
    CHART.savefig(target, dpi=dpi)
    return str(target)
""",
    )
    # Not a set-up helper, and not named for a change: no candidate (as before).
    assert found == []


def test_helper_that_makes_no_folder(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def save_chart(out: str, dpi: int) -> str:
    target = resolve_plain(out)
    if not 50 <= dpi <= 600:
        raise ToolError("dpi must be 50..600")
    CHART.savefig(target, dpi=dpi)
    return str(target)
""",
    )
    assert found == []


def test_prepared_path_never_written(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
@mcp.tool()
def save_chart(out: str, dpi: int) -> str:
    target = resolve_output(out)
    if not 50 <= dpi <= 600:
        raise ToolError("dpi must be 50..600")
    CHART.describe(dpi)
    return str(target)
""",
    )
    assert found == []


def test_prepared_path_handed_to_a_helper_of_the_tool_module_that_runs_a_command(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
import subprocess


def _convert(source: str, target) -> None:
    subprocess.run(["convert", source, str(target)], check=True)


@mcp.tool()
def convert_image(source: str, out: str, quality: int) -> str:
    target = resolve_output(out)
    if not 1 <= quality <= 100:
        raise ToolError("quality must be 1..100")
    _convert(source, target)
    return str(target)
""",
    )
    assert found == [("paths.py", 7, "Helper 'resolve_output' prepares a directory (mkdir) here; tool 'convert_image' then rejects the call at line 21")]


def test_result_of_a_helper_that_prepares_nothing_hides_no_other_preparation(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
from pathlib import Path


@mcp.tool()
def pack(folder: str, limit: int) -> str:
    source = resolve_plain(folder)
    staging = Path("staging")
    staging.mkdir(parents=True, exist_ok=True)
    CHART.describe(source)
    if limit < 1:
        raise ToolError("limit must be positive")
    (staging / "list.txt").write_text(str(source))
    return "packed"
""",
    )
    assert [(name, row) for name, row, _ in found] == [("server.py", 18)]


# -- the check in a second helper the tool calls after the set-up helper (issue 21, blind004f N2)

VALIDATORS = """\
def check_quality(quality: int) -> None:
    if not 1 <= quality <= 100:
        raise ToolError("quality must be 1..100")


def check_target(target) -> None:
    if target.suffix != ".png":
        raise ToolError("only .png files")


"""


def test_set_up_helper_then_a_validator_helper_then_a_library_save(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        VALIDATORS
        + """\
@mcp.tool()
def save_chart(out: str, quality: int) -> str:
    target = resolve_output(out)
    check_quality(quality)
    CHART.savefig(target, quality=quality)
    return str(target)
""",
    )
    assert found == [("paths.py", 7, "Helper 'resolve_output' prepares a directory (mkdir) here; tool 'save_chart' then rejects the call at line 24")]


def test_set_up_helper_then_a_conversion_helper_then_a_write(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        """\
def parse_quality(quality: str) -> int:
    try:
        return int(quality)
    except ValueError:
        raise ToolError("quality must be a whole number") from None


@mcp.tool()
def export_notes(folder: str, text: str, quality: str) -> str:
    where = paths.output_folder(folder)
    level = parse_quality(quality)
    with open(where + "/notes.txt", "w") as handle:
        handle.write(text * level)
    return where
""",
    )
    assert found == [("paths.py", 12, "Helper 'output_folder' prepares a directory (makedirs) here; tool 'export_notes' then rejects the call at line 21")]


def test_validator_helper_reading_the_prepared_path_is_a_post_check(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        VALIDATORS
        + """\
@mcp.tool()
def save_chart(out: str, quality: int) -> str:
    target = resolve_output(out)
    check_target(target)
    CHART.savefig(target, quality=quality)
    return str(target)
""",
    )
    assert found == []


def test_helper_that_writes_then_only_a_validator_helper(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        VALIDATORS
        + """\
@mcp.tool()
def save_chart(out: str, quality: int) -> str:
    target = resolve_and_mark(out)
    check_quality(quality)
    CHART.savefig(target, quality=quality)
    return str(target)
""",
    )
    # A helper that changes more than set-up, then only a helper's check: too much guessing.
    assert found == []


def test_set_up_helper_then_a_validator_helper_and_nothing_written(tmp_path) -> None:
    found = _mcp004(
        tmp_path,
        VALIDATORS
        + """\
@mcp.tool()
def plan_chart(out: str, quality: int) -> str:
    target = resolve_output(out)
    check_quality(quality)
    return str(target)
""",
    )
    assert found == []
