"""MCP005: a text an `except` clause writes and returns reports the failure that clause caught,
whatever its words ("The sensor took too long", "TIMEOUT after 5s", a TextContent of it): the
coarse rule (issue 20: a value built on a path where a failure held) instead of a failure-word
list. Not an empty answer, a goal already reached or a text opening with a success mark: the
author chose those as the answer for that case."""

from __future__ import annotations

from ._support import check

HEADER = """\
import subprocess

from mcp.server.fastmcp import FastMCP
from mcp.types import TextContent

mcp = FastMCP("greenhouse")
"""


def test_text_written_in_an_except_clause_is_a_failure_whatever_its_words() -> None:
    check(HEADER + """

@mcp.tool()
def read_probe(probe: str) -> str:
    try:
        out = subprocess.run(["probe-read", probe], capture_output=True, timeout=5)
        return out.stdout.decode()
    except subprocess.TimeoutExpired:
        return "The probe took too long to answer"  # expect: MCP005


@mcp.tool()
def flush_valve(valve: str) -> list[TextContent]:
    try:
        out = subprocess.run(["valve-flush", valve], capture_output=True, timeout=5)
        return [TextContent(type="text", text=out.stdout.decode())]
    except subprocess.TimeoutExpired:
        return [TextContent(type="text", text=f"[{valve}] TIMEOUT after 5s")]  # expect: MCP005
""")


def test_an_empty_answer_or_a_goal_reached_in_an_except_clause_is_no_failure() -> None:
    check(HEADER + """

@mcp.tool()
def list_notes(bed: str) -> str:
    try:
        with open(f"/var/beds/{bed}.txt") as handle:
            return handle.read()
    except FileNotFoundError:
        return "No notes found for this bed"


@mcp.tool()
def make_bed(bed: str) -> str:
    try:
        subprocess.run(["bed-create", bed], check=True)
        return f"Created {bed}"
    except subprocess.CalledProcessError:
        return f"{bed} is already planted"


@mcp.tool()
def label_bed(bed: str, colour: str) -> str:
    sign = SIGNS.open(bed)
    try:
        sign.colour = colour
    except KeyError:
        # The clause does the work another way (the default colour) before it answers.
        sign.colour = "green"
        sign.save()
        return f"Colour {colour} is not stocked; the sign of {bed} is green"
    sign.save()
    return f"Labelled {bed}"


@mcp.tool()
def prune(bed: str) -> str:
    try:
        subprocess.run(["bed-prune", bed], check=True, timeout=5)
        return "Pruned"
    except subprocess.TimeoutExpired:
        return "✅ Pruning continues in the background"
""")


def test_a_conversions_fallback_or_a_placeholder_in_an_except_clause_is_no_failure() -> None:
    # The clause picks another representation of a value it could not convert, or stands a
    # placeholder in for it: the answer goes on, nothing failed for the model to act on.
    check(HEADER + """

def bed_label(code: str) -> str:
    try:
        return BED_NAMES[int(code)]
    except (TypeError, ValueError):
        return str(code)


def reply_text(reply) -> str:
    try:
        return str(reply.json()["summary"])
    except Exception:
        return f"The sensor answered {reply.status_code}: {reply.text}"


def planted_on(stamp: str) -> str:
    try:
        return load_planting_date(stamp)
    except Exception:
        return "unknown"


@mcp.tool()
def describe_bed(code: str) -> str:
    return bed_label(code)


@mcp.tool()
def sensor_summary(bed: str) -> str:
    return reply_text(SENSORS.get(bed))


@mcp.tool()
def planting_date(stamp: str) -> str:
    return planted_on(stamp)
""")


def test_a_partial_success_note_in_an_except_clause_is_no_failure() -> None:
    # The call's own answer goes on (`f"{done}. ..."`), or the clause returns a continuation its
    # caller appends to its answer (" Left ..."): the work was done, a side step did not happen.
    check(HEADER + """

def shade(bed: str) -> str:
    try:
        subprocess.run(["shade-close", bed], check=True, timeout=5)
    except subprocess.TimeoutExpired:
        return " The shade stays open for now"
    return " Shade closed."


@mcp.tool()
def water_bed(bed: str) -> str:
    done = f"Watered {bed}"
    try:
        subprocess.run(["lamp-set", bed], check=True, timeout=5)
    except subprocess.TimeoutExpired:
        return f"{done}. The lamp keeps its old setting; set it with set_lamp."
    return done + shade(bed)
""")


def test_a_clause_text_opening_with_its_own_words_is_still_a_failure() -> None:
    check(HEADER + """

@mcp.tool()
def water_bed(bed: str) -> str:
    try:
        subprocess.run(["valve-open", bed], check=True, timeout=5)
    except subprocess.TimeoutExpired:
        return f"The valve of {bed} took too long to open"  # expect: MCP005
    return f"Watered {bed}"
""")
