"""MCP005 on a result whose success flag is a test of the reply (`{"success": reply["code"] ==
"OK", ...}`, returned whatever the test says) and on a failure word under a `state` key; and the
look-alikes that stay silent: a literal flag on the success path, a passthrough that reports the
HTTP exchange with its status code, a job state that is a stage of its life."""

from __future__ import annotations

import textwrap

from ._support import check, said, unmasked

HEADER = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("payments")
"""


def _src(body: str) -> str:
    return HEADER + "\n" + textwrap.dedent(body)


def test_a_success_flag_computed_from_the_reply_is_reported() -> None:
    findings = check(
        _src(
            """\
            @mcp.tool()
            async def order_details(order_ref: str) -> dict:
                reply = await gateway.post("orders/details", {"ref": order_ref})
                return {  # expect: MCP005
                    "success": reply.get("outcome") == "OK",
                    "outcome": reply.get("outcome"),
                    "order": reply.get("order"),
                }


            @mcp.tool()
            async def refunds(order_ref: str) -> dict:
                reply = await gateway.post("orders/refunds", {"ref": order_ref})
                nothing = reply.get("code") == 7
                succeeded = reply.get("outcome") == "OK" or nothing
                result = {"success": succeeded}
                result.update(reply)
                return result  # expect: MCP005
            """
        )
    )
    assert all("set by a test of the reply" in said(f) for f in findings)
    assert all(f.fix is None for f in findings)  # raising would need the flag's test first


def test_a_failure_word_under_a_state_key_is_reported() -> None:
    check(
        _src(
            """\
            @mcp.tool()
            async def build_report(report_id: str) -> dict:
                job = await gateway.get(f"reports/{report_id}")
                if job.get("state") == "ERROR":
                    return {"report": report_id, "state": "ERROR", "detail": job}  # expect: MCP005
                if job.get("state") == "DONE":
                    return await gateway.get(f"reports/{report_id}/file")
                return {"report": report_id, "state": "timeout", "hint": "Still being prepared; ask again later."}
            """
        )
    )


def test_look_alikes_of_a_computed_flag_stay_silent() -> None:
    check(
        unmasked(HEADER)
        + textwrap.dedent(
            """\
            @mcp.tool()
            async def raw_request(path: str) -> dict:
                response = await http.get(path)
                return {
                    "status_code": response.status_code,
                    "ok": 200 <= response.status_code < 300,
                    "text": response.text,
                }


            @mcp.tool()
            async def order_total(order_ref: str) -> dict:
                reply = await gateway.post("orders/total", {"ref": order_ref})
                if reply.get("outcome") != "OK":
                    raise ToolError(f"Order {order_ref} has no total")
                return {"success": True, "total": reply["total"]}


            @mcp.tool()
            async def order_count(shop: str) -> dict:
                count = await gateway.count(shop)
                return {"count": count, "large": count > 100}
            """
        )
    )


BATCH = """\
@mcp.tool()
async def run_payments(refs: list[str]) -> dict:
    results = []
    succeeded = 0
    for ref in refs:
        reply = await gateway.post("payments/run", {"ref": ref})
        ok = reply.get("outcome") == "OK"
        results.append({"ref": ref, "ok": ok, "detail": reply.get("message")})
        if ok:
            succeeded += 1
    return {FLAG, "results": results, "succeeded": succeeded}  MARK
"""


def test_a_batchs_flag_summing_up_its_own_counts_is_no_failure() -> None:
    check(_src(BATCH.replace("FLAG", '"success": succeeded > 0').replace("MARK", "")))


def test_a_batchs_flag_testing_the_length_of_its_own_failure_list_is_no_failure() -> None:
    # `failed` collects the items that failed: the flag sums up what the batch reports item by item.
    source = BATCH.replace("    succeeded = 0\n", "    failed = []\n").replace(
        "        if ok:\n            succeeded += 1\n", "        if not ok:\n            failed.append(ref)\n"
    ).replace('"succeeded": succeeded', '"failed": failed')
    check(_src(source.replace("FLAG", '"success": len(failed) == 0').replace("MARK", "")))


def test_a_flag_testing_the_length_of_a_reply_list_is_reported() -> None:
    # A list the function does not collect itself (the reply's own errors) says the call failed.
    source = BATCH.replace('"succeeded": succeeded', '"errors": errors').replace(
        "    return {", "    errors = reply.get(\"errors\", [])\n    return {"
    )
    check(_src(source.replace("FLAG", '"success": len(errors) == 0').replace("MARK", "# expect: MCP005")))


def test_a_batchs_flag_that_tests_a_reply_is_reported() -> None:
    # The last reply's outcome decides the flag, whatever the counts say.
    check(_src(BATCH.replace("FLAG", '"success": reply.get("outcome") == "OK"').replace("MARK", "# expect: MCP005")))
