"""MCP005: a text written in the branch where a check failed reports that failure, whatever its
words ("DENIED: ...", a German sentence): the branch of a falsy verdict (`ok, why = check(x);
if not ok:`, `if not valid_token(t):`), also when the function left earlier on the verdict
holding (`if ok: return data` then the text). Not an empty search's answer, a fallback that does
the work another way, or a status tool's verdict on another system (issue 20: a value built on
a path where a failure held)."""

from __future__ import annotations

from ._support import check

HEADER = """\
from mcp.server.fastmcp import FastMCP

from .guard import admit, fetch_rows, is_fresh_token

mcp = FastMCP("orchard")


def _check_row_name(name: str) -> tuple[bool, str]:
    if not name.isidentifier():
        return False, f"{name} is no row name"
    return True, ""


def _pickable(crate: str) -> bool:
    return crate.startswith("crate-")
"""


def test_text_in_the_branch_of_a_falsy_verdict_is_a_failure_whatever_its_words() -> None:
    check(HEADER + """

@mcp.tool()
def prune_row(row: str) -> str:
    allowed, why = _check_row_name(row)
    if not allowed:
        return f"DENIED: {why}"  # expect: MCP005
    return f"Pruned {row}"


@mcp.tool()
async def pick_crate(crate: str, token: str) -> str:
    if not is_fresh_token(token):
        return "Jeton abgelaufen, bitte neu anfordern."  # expect: MCP005
    if not _pickable(crate):
        return f"DENIED: {crate} stays on the tree"  # expect: MCP005
    return f"Picked {crate}"


@mcp.tool()
async def water_row(row: str) -> str:
    ok, reason = await admit(row)
    if ok:
        return f"Watered {row}"
    return f"Geweigerd: {reason}"  # expect: MCP005


@mcp.tool()
def drop_crate(crate: str) -> str:
    removed = admit(crate)
    if not removed:
        return "Die Kiste bleibt im Lager"  # expect: MCP005
    return f"Dropped {crate}"
""")


def test_a_calls_value_read_beside_its_test_is_data_and_its_absence_an_answer() -> None:
    check(HEADER + """

@mcp.tool()
def shelf_rows(shelf: str) -> str:
    rows = fetch_rows(shelf)
    if not rows:
        return f"The {shelf} shelf holds nothing today"
    return "\\n".join(rows)


@mcp.tool()
def shelf_labels(shelf: str) -> str:
    labels, skipped = _check_row_name(shelf)
    if not labels:
        return f"Shelf {shelf}: {skipped} labels unread"
    return f"{labels} labels"
""")


def test_a_checks_reason_returned_whole_is_reported_where_the_check_writes_it() -> None:
    check("""\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orchard")


def _check_row_name(name: str) -> tuple[bool, str]:
    if not name.isidentifier():
        return False, f"{name} is no row name"  # expect: MCP005
    return True, name


@mcp.tool()
def mulch_row(row: str) -> str:
    allowed, why = _check_row_name(row)
    if not allowed:
        return why
    return f"Mulched {row}"
""")


def test_an_empty_answer_a_fallback_or_a_plain_branch_is_no_failure_path() -> None:
    check(HEADER + """

@mcp.tool()
def search_rows(query: str) -> str:
    rows = fetch_rows(query)
    if not rows:
        return "No rows match that query"
    return "\\n".join(rows)


@mcp.tool()
def prune_or_mark(row: str) -> str:
    allowed, why = _check_row_name(row)
    if not allowed:
        fetch_rows(row)
        return f"Marked {row} for a later look"
    return f"Pruned {row}"


@mcp.tool()
def prune_plain(row: str, depth: int) -> str:
    if depth > 3:
        return f"{row} is pruned three levels at most"
    return f"Pruned {row}"


@mcp.tool()
def check_row_names(row: str) -> str:
    allowed, why = _check_row_name(row)
    if not allowed:
        return f"DENIED: {why}"
    return "All names pass"
""")


REPLY_HEADER = """\
import httpx
from mcp.server.fastmcp import FastMCP

from .shipping import book_shipment

mcp = FastMCP("depot")  # expect: MCP007 (I/O outside any try, beside the point here)
"""


def test_text_in_the_branch_of_a_failed_reply_is_a_failure_whatever_its_words() -> None:
    check(REPLY_HEADER + """

@mcp.tool()
def reserve_pallet(pallet: str) -> str:
    resp = httpx.post("https://depot.example/reserve", json={"pallet": pallet})
    if resp.status_code >= 400:
        return f"Lager meldet {resp.status_code}"  # expect: MCP005
    return f"Reserved {pallet}"


@mcp.tool()
def ship_pallet(pallet: str) -> str:
    data = book_shipment(pallet)
    if "error" in data:
        return data["error"]  # expect: MCP005
    return f"Shipped as {data['waybill']}"


@mcp.tool()
def weigh_pallet(pallet: str) -> str:
    resp = httpx.get(f"https://depot.example/weight/{pallet}")
    if resp.status_code == 200:
        return f"{resp.json()['kg']} kg"
    return "BLOCKED by the depot scale"  # expect: MCP005
""")


def test_a_probe_verdict_or_a_fallback_on_a_failed_reply_is_no_failure() -> None:
    check(REPLY_HEADER + """

@mcp.tool()
def depot_health() -> str:
    resp = httpx.get("https://depot.example/ping")
    if resp.status_code != 200:
        return f"Depot answers {resp.status_code}, marked down"
    return "Depot answers"


@mcp.tool()
def count_pallets(bay: str) -> str:
    resp = httpx.get(f"https://depot.example/bays/{bay}")
    if resp.status_code >= 400:
        rows = open(f"/var/cache/bays/{bay}").read().splitlines()
        return f"{len(rows)} pallets (from the nightly list)"
    return f"{len(resp.json())} pallets"
""")


def test_a_helpers_refusal_its_callers_put_into_their_own_failure_is_theirs() -> None:
    # Written in the helper's failed-check branch, without failure words: the model-facing
    # failure is built where each caller wraps it (`{"error": closed}`), one flow, reported there;
    # a caller that returns it as it is makes it the helper's.
    check(HEADER + """

def _gate_closed() -> str | None:
    if not _pickable("crate-gate"):
        return "The gate stays shut tonight"
    return None


def _gate_note() -> str | None:
    if not _pickable("crate-note"):
        return "The gate note stays unread"  # expect: MCP005
    return None


@mcp.tool()
def open_gate(gate: str) -> dict:
    closed = _gate_closed()
    if closed:
        return {"error": closed}  # expect: MCP005
    return {"opened": gate}


@mcp.tool()
def read_gate_note(gate: str) -> str:
    note = _gate_note()
    if note:
        return note
    return f"Gate {gate} has no note"
""")
