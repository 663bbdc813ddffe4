"""One finding per flow where a helper builds the model-facing failure from a parameter (issue 20,
"one finding per flow, where the fix goes").

A helper that every tool's `except` hands the caught exception to (`json.dumps(describe(e))`) and
that puts the exception's text into a failure value is where both defects are written: MCP002 (the
statement that takes the foreign text) and MCP005 (the statement that builds the failure value) are
reported once, in the helper, with the tools' calls as related locations, and not at each caller. A
helper whose parameter is author text (`wrap_failure("...")`) is innocent: the message is chosen
where it is called, so MCP005 stays at each caller (and MCP002 where a caller passes `str(e)`).
"""

from __future__ import annotations

from pathlib import Path

from mcp_lint.findings import Finding

from mcp_lint.pipeline import lint_source

from ._support import check, lint_tree, write_tree

HEADER = """\
import json

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("depot")


"""


def _lint(tmp_path: Path, files: dict[str, str]) -> list[Finding]:
    write_tree(tmp_path, files)
    return sorted(lint_tree(tmp_path), key=lambda f: (f.filename, f.location.row, f.code))


def _rows(findings: list[Finding], code: str) -> list[tuple[str, int]]:
    return [(Path(f.filename).name, f.location.row) for f in findings if f.code == code]


def test_a_helper_building_the_failure_from_the_exception_is_reported_once_in_the_helper() -> None:
    findings = check(
        HEADER
        + """\
def describe_failure(e):
    return {"error": str(e)}  # expect: MCP002,MCP005


@mcp.tool()
def read_crate(crate_id: str) -> str:
    try:
        return httpx.get(f"https://depot.example.com/crates/{crate_id}").text
    except Exception as e:
        return json.dumps(describe_failure(e))


@mcp.tool()
def read_pallet(pallet_id: str) -> str:
    try:
        return httpx.get(f"https://depot.example.com/pallets/{pallet_id}").text
    except httpx.HTTPError as e:
        return json.dumps(describe_failure(e))
"""
    )
    for finding in findings:
        assert finding.message.startswith("Helper 'describe_failure' returns")
        assert "reached from tools 'read_crate', 'read_pallet'" in finding.notes
        handed = sorted(r.location.row for r in finding.related if r.message == "the caught exception is passed in here")
        assert handed == [18, 26], "each tool's call is a related location"
        assert finding.fix is None, "the text is the exception's: no raise of it is offered"


def test_a_formatter_taking_an_operation_and_the_exception_is_reported_in_the_formatter() -> None:
    check(
        HEADER
        + """\
def _failed(op, exc):
    return f"Failed to {op}: {exc}"  # expect: MCP002,MCP005


@mcp.tool()
def ship_crate(crate_id: str) -> str:
    try:
        return httpx.post(f"https://depot.example.com/crates/{crate_id}/ship").text
    except Exception as exc:
        return _failed("ship crate", exc)


@mcp.tool()
def ship_pallet(pallet_id: str) -> str:
    try:
        return httpx.post(f"https://depot.example.com/pallets/{pallet_id}/ship").text
    except Exception as exc:
        return _failed("ship pallet", exc)
"""
    )


def test_a_wrapper_of_author_text_leaves_each_failure_at_its_caller() -> None:
    # The message is chosen at each call: MCP005 there; MCP002 where a caller passes str(e).
    check(
        HEADER
        + """\
def wrap_failure(msg):
    return json.dumps({"error": msg})


@mcp.tool()
def weigh_crate(crate_id: str) -> str:
    if not crate_id:
        return wrap_failure("crate_id is required")  # expect: MCP005
    try:
        return httpx.get(f"https://depot.example.com/crates/{crate_id}/weight").text
    except Exception as e:
        return wrap_failure(str(e))  # expect: MCP002,MCP005


@mcp.tool()
def weigh_pallet(pallet_id: str) -> str:
    if not pallet_id.isdigit():
        return wrap_failure(f"pallet_id must be digits, got {pallet_id}")  # expect: MCP005
    return f"pallet {pallet_id} is on the scale queue"
"""
    )


def test_mixed_callers_the_helper_for_the_exception_and_the_caller_for_its_own_text() -> None:
    # One tool hands the caught exception in (the flow is the helper's), another passes a refusal
    # it wrote itself (its own failure, at the call).
    check(
        HEADER
        + """\
def as_failure(err):
    return {"error": str(err)}  # expect: MCP002,MCP005


@mcp.tool()
def count_crates(aisle: str) -> str:
    try:
        return httpx.get(f"https://depot.example.com/aisles/{aisle}/crates").text
    except Exception as err:
        return json.dumps(as_failure(err))


@mcp.tool()
def count_pallets(aisle: str) -> str:
    if aisle not in {"north", "south"}:
        return json.dumps(as_failure("aisle must be north or south"))  # expect: MCP005
    return f"counting pallets of the {aisle} aisle"
"""
    )


def test_a_project_exception_handed_in_is_reported_where_the_helper_builds_the_failure() -> None:
    # The project's own exception carries the author's text: nothing leaks (no MCP002), but the
    # failure value the helper builds from it is still returned as a success: one MCP005, at the
    # statement that builds it, the tool's call that hands the exception in related.
    findings = check(
        HEADER
        + """\
class ShelfFull(Exception):
    pass


def as_failure(err):
    return {"error": str(err)}  # expect: MCP005


def reserve(slot: str) -> str:
    if slot.endswith("9"):
        raise ShelfFull(f"Shelf {slot} is full; pick another slot")
    return slot


@mcp.tool()
def reserve_slot(slot: str) -> str:
    try:
        return reserve(slot)
    except ShelfFull as err:
        return json.dumps(as_failure(err))
"""
    )
    handed = [r.location.row for r in findings[0].related if r.message == "the caught exception is passed in here"]
    assert handed == [28]


def test_a_helper_handed_an_exception_no_clause_caught_leaves_the_failure_at_the_caller() -> None:
    # The tool makes the exception itself and hands it over: no caught exception reaches the
    # helper, whose parameter only carries the tool's own words: the tool's return is the anchor.
    check(
        HEADER
        + """\
class ShelfFull(Exception):
    pass


def as_failure(err):
    return {"error": str(err)}


@mcp.tool()
def reserve_slot(slot: str) -> str:
    if slot.endswith("9"):
        return json.dumps(as_failure(ShelfFull(f"Shelf {slot} is full; pick another slot")))  # expect: MCP005
    SHELVES[slot] = "reserved"
    return f"slot {slot} reserved"
"""
    )


def test_a_helper_also_called_outside_the_tools_names_only_the_tools(tmp_path: Path) -> None:
    findings = _lint(
        tmp_path,
        {
            "depot/__init__.py": "",
            "depot/errors.py": """\
                def explain(exc):
                    return f"Depot request failed: {exc}"
                """,
            "depot/server.py": """\
                import httpx
                from mcp.server.fastmcp import FastMCP

                from .errors import explain

                mcp = FastMCP("depot")


                @mcp.tool()
                def open_dock(dock: str) -> str:
                    try:
                        return httpx.post(f"https://depot.example.com/docks/{dock}/open").text
                    except httpx.HTTPError as exc:
                        return explain(exc)


                def main() -> None:
                    try:
                        httpx.get("https://depot.example.com/health")
                    except httpx.HTTPError as exc:
                        print(explain(exc))
                """,
        },
    )
    assert _rows(findings, "MCP002") == [("errors.py", 2)]
    assert _rows(findings, "MCP005") == [("errors.py", 2)]
    for finding in findings:
        assert "reached from tool 'open_dock'" in finding.notes
        assert finding.fix is None
        handed = [(Path(r.filename).name, r.location.row) for r in finding.related if r.message == "the caught exception is passed in here"]
        assert handed == [("server.py", 14)], "only the tool's call: main() is no tool"


NESTED = HEADER + """\
def tool_error(message: str) -> str:
    return json.dumps({"error": {"message": message}})


def closed_error(hour: int) -> str:
    return tool_error(f"The depot is closed at {hour}:00; it opens at 6:00")  # expect: MCP005


def prefixed_error(msg: str) -> str:
    return tool_error("Error: " + msg)


@mcp.tool()
def load_truck(truck_id: str, hour: int) -> str:
    if not 6 <= hour < 22:
        return closed_error(hour)
    if not truck_id:
        return tool_error("truck_id is required")  # expect: MCP005
    return f"loading {truck_id}"


@mcp.tool()
def unload_truck(truck_id: str, hour: int) -> str:
    if not 6 <= hour < 22:
        return closed_error(hour)
    if truck_id.startswith("x"):
        return prefixed_error(f"truck {truck_id} is out of service")  # expect: MCP005
    return f"unloading {truck_id}"
"""


def test_a_builder_writing_its_message_into_another_builder_is_the_flows_anchor() -> None:
    # closed_error writes the words and hands them to tool_error: one finding at its return,
    # the tools that return what it built are related locations. prefixed_error only puts a
    # label before the message its caller chose: that caller is the anchor.
    findings = check(NESTED)
    anchored = next(f for f in findings if f.location.row == 14)
    assert anchored.message == "Helper 'closed_error' returns a failure response as a normal result"
    assert "reached from tools 'load_truck', 'unload_truck'" in anchored.notes
    onward = sorted(r.location.row for r in anchored.related if r.message.startswith("returned on by"))
    assert onward == [24, 33]


def test_a_describer_choosing_among_several_messages_builds_each_of_them() -> None:
    # One message per kind of failure, chosen and written in the describer: each of its returns
    # builds the model-facing failure value (issue 20: "the statement that builds the failure
    # value"), the tools' `return error_text(e)` only pass the chosen one on (related locations).
    findings = check(
        HEADER
        + """\
def error_text(e):
    if isinstance(e, httpx.TimeoutException):
        return "Error: the depot did not answer in time; retry with a smaller batch"  # expect: MCP005
    if isinstance(e, httpx.HTTPStatusError) and e.response.status_code == 404:
        return "Error: no such dock"  # expect: MCP005
    return f"Error: {e}"  # expect: MCP002,MCP005


@mcp.tool()
def open_gate(gate: str) -> str:
    try:
        return httpx.post(f"https://depot.example.com/gates/{gate}/open").text
    except Exception as e:
        return error_text(e)


@mcp.tool()
def close_gate(gate: str) -> str:
    try:
        return httpx.post(f"https://depot.example.com/gates/{gate}/close").text
    except Exception as e:
        return error_text(e)
"""
    )
    timeout = next(f for f in findings if f.code == "MCP005" and f.location.row == 11)
    assert timeout.message == "Helper 'error_text' returns a failure string as a normal result"
    assert "reached from tools 'close_gate', 'open_gate'" in timeout.notes
    handed = sorted(r.location.row for r in timeout.related if r.message == "the caught exception is passed in here")
    assert handed == [22, 30]


def test_a_describer_of_several_messages_handed_an_exception_the_tool_wrote_is_the_tools() -> None:
    # No caught exception is handed in: the tool writes the exception itself, so the failure and
    # its words are the tool's (the describer's returns are findings only for a caught one).
    check(
        HEADER
        + """\
def error_text(e):
    if isinstance(e, httpx.TimeoutException):
        return "Error: the depot did not answer in time; retry with a smaller batch"
    if isinstance(e, httpx.HTTPStatusError) and e.response.status_code == 404:
        return "Error: no such dock"
    return f"Error: {e}"


@mcp.tool()
def open_gate(gate: str) -> str:
    if gate.startswith("x"):
        return error_text(LookupError(f"gate {gate} is out of service"))  # expect: MCP005
    GATES[gate] = "open"
    return f"gate {gate} is open"
"""
    )


def test_one_response_body_sent_by_several_returns_of_a_helper_is_one_finding() -> None:
    # The body of the failed response handed in is one flow, whichever return sends a part of
    # it: reported at the first, the others are related locations.
    findings = check(
        HEADER
        + """\
from mcp.server.fastmcp.exceptions import ToolError


def body_text(resp):
    try:
        payload = resp.json()
    except ValueError:
        return resp.text[:200]  # expect: MCP002
    if isinstance(payload, dict) and payload.get("message"):
        return str(payload["message"])
    return resp.text[:200]


@mcp.tool()
def find_dock(dock: str) -> str:
    try:
        resp = httpx.get(f"https://depot.example.com/docks/{dock}")
    except httpx.HTTPError:
        raise ToolError("The depot service at depot.example.com is unreachable") from None
    if resp.status_code != 200:
        raise ToolError(f"Dock lookup failed: {body_text(resp)}")
    return resp.text
"""
    )
    also = sorted(r.location.row for r in findings[0].related if r.message == "the same body is sent here too")
    assert also == [18, 19]


def test_a_local_built_from_the_exception_and_read_by_subscript_is_one_flow() -> None:
    # The text is taken where the local is built; the statement that reads `info["error"]` only
    # sends it on (a related location), and builds the failure string (MCP005).
    findings = check(
        HEADER
        + """\
@mcp.tool()
def weigh_crate(crate_id: str) -> str:
    try:
        return httpx.get(f"https://depot.example.com/crates/{crate_id}/weight").text
    except Exception as e:
        info = {"error": str(e), "code": 500}  # expect: MCP002
        return f"Weighing failed: {info['error']}"  # expect: MCP005
"""
    )
    leak = next(f for f in findings if f.code == "MCP002")
    assert [(r.location.row, r.message) for r in leak.related] == [(15, "the text is returned here")]


def test_a_helper_failure_every_caller_intercepts_and_rewords_is_the_callers() -> None:
    # The helper's failure dict never reaches the model: the tool tests it and returns its own
    # failure. MCP005 there; the exception text the helper takes stays MCP002 in the helper.
    check(
        HEADER
        + """\
def fetch_crate(crate_id: str) -> dict:
    try:
        return httpx.get(f"https://depot.example.com/crates/{crate_id}").json()
    except Exception as e:
        return {"error": str(e)}  # expect: MCP002


@mcp.tool()
def inspect_crate(crate_id: str) -> str:
    result = fetch_crate(crate_id)
    if "error" in result:
        return f"Could not inspect crate {crate_id}: {result['error']}"  # expect: MCP005
    return json.dumps(result)
"""
    )


def test_a_helper_failure_one_caller_returns_whole_stays_in_the_helper() -> None:
    # One tool re-words it, another returns it as it is: the helper's return is that flow's anchor.
    check(
        HEADER
        + """\
def fetch_crate(crate_id: str) -> dict:
    try:
        return httpx.get(f"https://depot.example.com/crates/{crate_id}").json()
    except Exception as e:
        return {"error": str(e)}  # expect: MCP002,MCP005


@mcp.tool()
def inspect_crate(crate_id: str) -> str:
    result = fetch_crate(crate_id)
    if "error" in result:
        return f"Could not inspect crate {crate_id}: {result['error']}"  # expect: MCP005
    return json.dumps(result)


@mcp.tool()
def crate_record(crate_id: str) -> str:
    return json.dumps(fetch_crate(crate_id))
"""
    )


def test_a_caller_writing_its_own_failure_around_the_helpers_keeps_its_finding() -> None:
    # `"Tagging failed: " + json.dumps(describe(e))` is the tool's own failure text: MCP005 at the
    # tool; the exception's text is taken in the helper (MCP002 there, with the helper's failure
    # dict that another tool returns as it is).
    check(
        HEADER
        + """\
def describe(e):
    return {"error": str(e)}  # expect: MCP002,MCP005


@mcp.tool()
def tag_crate(crate_id: str) -> str:
    try:
        return httpx.post(f"https://depot.example.com/crates/{crate_id}/tag").text
    except Exception as e:
        return "Tagging failed: " + json.dumps(describe(e))  # expect: MCP005


@mcp.tool()
def untag_crate(crate_id: str) -> str:
    try:
        return httpx.delete(f"https://depot.example.com/crates/{crate_id}/tag").text
    except Exception as e:
        return json.dumps(describe(e))
"""
    )


def test_the_fix_of_a_builder_writing_its_message_goes_to_the_builder() -> None:
    # Every caller is a tool returning what it built: the builder raises the message itself.
    findings = check(NESTED)
    fix = next(f for f in findings if f.location.row == 14).fix
    assert fix is not None
    assert [edit.content for edit in fix.edits if "closed" in edit.content] == [
        'raise ToolError(f"The depot is closed at {hour}:00; it opens at 6:00")'
    ]


def test_no_fix_in_the_builder_when_a_caller_is_no_tool() -> None:
    # A command-line path prints what the builder returns: a raise there would break it.
    findings = check(
        NESTED
        + """\


def main() -> None:
    print(closed_error(23))
"""
    )
    assert next(f for f in findings if f.location.row == 14).fix is None


def test_a_failure_whose_message_is_the_helpers_text_is_the_helpers() -> None:
    # `{"error": _failed("count", e)}` only files the helper's failure text under a key; a caller
    # that writes words of its own around it keeps its finding.
    check(
        HEADER
        + """\
def _failed(op, exc):
    return f"Failed to {op}: {exc}"  # expect: MCP002,MCP005


@mcp.tool()
def count_crates(aisle: str) -> str:
    try:
        return httpx.get(f"https://depot.example.com/aisles/{aisle}/crates").text
    except Exception as exc:
        return json.dumps({"success": False, "error": _failed("count crates", exc)})


@mcp.tool()
def count_pallets(aisle: str) -> str:
    try:
        return httpx.get(f"https://depot.example.com/aisles/{aisle}/pallets").text
    except Exception as exc:
        return json.dumps({"error": f"Aisle {aisle}: {_failed('count pallets', exc)}"})  # expect: MCP005
"""
    )


def test_a_tool_with_a_parameter_named_like_an_exception_keeps_its_own_finding() -> None:
    # A tool is called by the client, not handed a caught exception: its failure return is its own.
    check(
        HEADER
        + """\
@mcp.tool()
def file_incident(error: str) -> str:
    if len(error) > 500:
        return f"Error: the incident text is {len(error)} characters, over the 500 allowed: {error[:40]}"  # expect: MCP005
    return "incident filed"
"""
    )


FORMATTED_FAILURES = HEADER + """\
import os


def _decode(resp: httpx.Response) -> dict:
    if resp.is_success:
        return resp.json()
    return {"error": True, "status": resp.status_code, "message": "the depot refused the request"}


def fetch(path: str) -> dict:
    token = os.environ.get("DEPOT_TOKEN")
    if not token:
        return {"error": True, "message": "DEPOT_TOKEN is not set"}
    try:
        return _decode(httpx.get("https://depot.example.com" + path, headers={"Authorization": token}))
    except httpx.RequestError:
        return {"error": True, "message": "the depot cannot be reached"}


def _as_json(data: dict) -> str:
    return json.dumps(data, indent=2)


def failure_text(result: dict) -> str:
    status = result.get("status", "")
    message = result.get("message", "no reason given")
    if status:
        return f"Error {status}: the depot said {message}"  # expect: MCP005
    return f"Depot error: {message}"  # expect: MCP005


@mcp.tool()
def list_trucks() -> str:
    result = fetch("/trucks")
    if result.get("error"):
        return failure_text(result)
    return _as_json(result)


@mcp.tool()
def list_docks() -> str:
    docks = fetch("/docks")
    if not docks.get("ok", True) or docks.get("error"):
        return failure_text(docks)
    return _as_json(docks)
"""


def test_a_formatter_of_the_failure_each_caller_found_is_the_flows_anchor() -> None:
    # The client's failure dicts never reach the model: every tool tests the value it gets back
    # (through the client method that returns the decoder's value as it is) and hands it to
    # the formatter, which builds the text the model reads: the formatter's returns are the
    # flow's one place, the tools' calls related.
    findings = check(FORMATTED_FAILURES)
    first = next(f for f in findings if f.location.row == 36)
    assert first.message == "Helper 'failure_text' returns a failure string as a normal result"
    assert "reached from tools 'list_docks', 'list_trucks'" in first.notes


def test_a_formatter_handed_the_callers_own_failure_leaves_it_at_the_caller() -> None:
    # The tool writes the failure itself and has the formatter render it: nothing the tool
    # found failed is handed in, so the tool's return is the anchor, and the formatter's
    # returns are no finding of their own.
    check(
        HEADER
        + """\
def failure_text(result: dict) -> str:
    status = result.get("status", "")
    message = result.get("message", "no reason given")
    if status:
        return f"Error {status}: the depot said {message}"
    return f"Depot error: {message}"


@mcp.tool()
def load_truck(truck_id: str) -> str:
    if not truck_id.isalnum():
        refusal = {"message": f"truck id {truck_id!r} must be letters and digits"}
        return failure_text(refusal)  # expect: MCP005
    TRUCKS[truck_id] = "loading"
    return f"loading {truck_id}"
"""
    )


def test_a_client_failure_one_tool_returns_whole_stays_in_the_client() -> None:
    # One tool returns the client's value without testing it: the failure dicts reach the model
    # there, so the client's returns are findings too (beside the formatter's, which the other
    # tools' found failures reach).
    source = (
        FORMATTED_FAILURES
        + """

@mcp.tool()
def raw_trucks() -> str:
    return _as_json(fetch("/trucks"))
"""
    )
    findings = lint_source(source, filename="server.py")
    assert sorted(f.location.row for f in findings if f.code == "MCP005") == [15, 21, 25, 36, 37]


ERROR_ITEMS = HEADER + """\
import os

DOCKS = {"north": ["n1", "n2"], "south": []}


def _credentials() -> tuple[str | None, str | None]:
    key = os.environ.get("DEPOT_KEY")
    if not key:
        return None, "DEPOT_KEY is not set; export it before starting the server"  # expect: MCP005
    return key, None


def _pick_dock(name: str) -> tuple[list | None, str | None]:
    wanted = name.strip().lower()
    if wanted not in DOCKS:
        return None, f"no dock named {name!r}; docks: {', '.join(DOCKS)}"  # expect: MCP005
    return DOCKS[wanted], None


@mcp.tool()
def list_bays(dock: str) -> str:
    key, err = _credentials()
    if err:
        return err
    bays, err = _pick_dock(dock)
    if err:
        return err
    return ", ".join(bays)
"""


def test_a_failure_built_in_the_error_item_of_a_result_tuple_is_reported_where_built() -> None:
    # `return None, "reason"` beside `return value, None`, and the tool returns the error item
    # as it is (`if err: return err`): the text is built in the helper, whatever its wording.
    check(ERROR_ITEMS)


def test_an_error_item_the_caller_words_its_own_failure_around_is_the_callers() -> None:
    # The tool writes its own failure around the helper's reason: that return is the flow's
    # place (as where a caller re-words a helper's failure dict), not the helper's tuple.
    check(
        ERROR_ITEMS.replace("  # expect: MCP005", "").replace(
            "    if err:\n        return err\n    bays,", "    if err:\n        return f\"Error: no access to {dock}: {err}\"  # expect: MCP005\n    bays,"
        ).replace(
            "    if err:\n        return err\n    return \", \".join(bays)",
            "    if err:\n        return f\"Error: cannot list the bays of {dock}: {err}\"  # expect: MCP005\n    return \", \".join(bays)",
        )
    )


def test_a_tuple_of_a_value_and_a_note_is_no_error_item() -> None:
    # Both items filled on every return: a result and a remark, not a value or an error.
    check(
        HEADER
        + """\
def _bays(name: str) -> tuple[list, str]:
    if name == "south":
        return [], "the south dock has no bays yet"
    return ["n1", "n2"], "two bays"


@mcp.tool()
def list_bays(dock: str) -> str:
    bays, note = _bays(dock)
    if not bays:
        return note
    return ", ".join(bays)
"""
    )
