"""MCP002: an upstream error body raised outside any `except`, from a branch that tests the
response's status, escapes a helper to the framework's error text like a re-raised library error."""

from __future__ import annotations

from ._support import check, unmasked

HEADER = unmasked("""\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orchard")
""")

HELPER = """

async def _fetch(path: str) -> dict:
    async with httpx.AsyncClient() as client:
        resp = await client.get(path)
        CHECK
        return resp.json()
"""

TOOL = """

@mcp.tool()
async def count_apples(tree: str) -> str:
    data = await _fetch(f"/trees/{tree}")
    return str(data["apples"])
"""


def test_a_body_raised_from_a_failure_branch_of_a_helper_is_reported() -> None:
    check_line = 'if resp.status_code != 200:\n            raise RuntimeError(f"Orchard API error {resp.status_code}: {resp.text}")  # expect: MCP002'
    findings = check(HEADER + HELPER.replace("CHECK", check_line) + TOOL)
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert "resp.text" in finding.message


def test_only_the_status_raised_is_not_reported() -> None:
    check_line = 'if not resp.is_success:\n            raise RuntimeError(f"Orchard API answered HTTP {resp.status_code}")'
    check(HEADER + HELPER.replace("CHECK", check_line) + TOOL)


def test_a_body_raised_where_the_tool_catches_the_class_is_judged_at_the_tool() -> None:
    check_line = 'if resp.status_code >= 400:\n            raise LookupError(resp.text)'
    tool = TOOL.replace(
        '    data = await _fetch(f"/trees/{tree}")\n',
        '    try:\n        data = await _fetch(f"/trees/{tree}")\n    except LookupError:\n        return "Error: the orchard does not know that tree"  # expect: MCP005\n',
    )
    check(HEADER + HELPER.replace("CHECK", check_line) + tool)


def test_a_body_raised_on_a_masking_server_is_not_reported() -> None:
    check_line = 'if resp.status_code != 200:\n            raise RuntimeError(f"Orchard API error: {resp.text}")'
    header = HEADER.replace("mcp.server.fastmcp", "fastmcp").replace('FastMCP("orchard")  # expect: MCP007', 'FastMCP("orchard", mask_error_details=True)')
    # MCP008 says the author's message is lost under masking; MCP002 has nothing to say.
    check(header + HELPER.replace("CHECK", check_line + "  # expect: MCP008") + TOOL)


CARRIER = """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("library")


class ShelfError(Exception):
    def __init__(self, status: int, detail: str):
        self.status = status
        self.detail = detail
        super().__init__(f"Shelf service {status}")


async def _request(path: str) -> dict:
    try:
        async with httpx.AsyncClient() as client:
            resp = await client.get(path)
    except httpx.HTTPError:
        raise ToolError("The shelf service is unreachable; try again in a minute") from None
    if resp.status_code >= 400:
        try:
            payload = resp.json()
            detail = payload.get("detail", payload)
        except ValueError:
            detail = resp.text
        raise ShelfError(resp.status_code, str(detail))  # MARK
    return resp.json()


@mcp.tool()
async def count_books(shelf: str) -> str:
    try:
        return str(await _request(f"/shelves/{shelf}"))
    except ShelfError as e:
        raise ToolError(TEXT)
"""


def test_a_body_kept_in_a_local_and_stored_in_the_projects_exception_is_reported_where_it_enters() -> None:
    source = CARRIER.replace("# MARK", "# expect: MCP002").replace("TEXT", 'f"Could not count the books: {e.detail}"')
    (finding,) = check(source)
    # Where the text is put together, naming the clause that passes it on to the model.
    assert any("server.py:36" in note for note in (finding.message, *finding.notes))


def test_a_body_kept_in_the_projects_exception_but_never_passed_on_is_not_reported() -> None:
    check(CARRIER.replace("TEXT", 'f"The shelf service answered {e.status}; check the shelf name"'))


def test_a_keyword_named_like_a_local_filled_later_from_the_body_is_not_the_body() -> None:
    check(
        unmasked("""\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("library")


@mcp.tool()
async def find_books(query: str) -> dict:
    async with httpx.AsyncClient() as client:
        resp = await client.get("/books", params={"q": query})
    if resp.status_code >= 400:
        return dict(books=[], total=0, cursor="")
    data = resp.json()
    cursor = data.get("cursor", "")
    total = data.get("total", 0)
    return dict(books=data["books"], total=total, cursor=cursor)
""")
    )


DESCRIBER = unmasked("""\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("bakery")


def _describe(response: httpx.Response) -> str:
    detail = ""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        parts = []
        if body.get("message"):
            parts.append(str(body["message"]))
        detail = " | ".join(parts)
    summary = f"Bakery API answered {response.status_code}"
    return f"{summary}: {detail}" if detail else summary  # MARK


async def _send(path: str) -> dict:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.post(path)
    except httpx.HTTPError:
        raise ToolError("The bakery is unreachable; try again in a minute") from None
    if CONDITION:
        raise ToolError(_describe(response))
    return {"order": response.json()["id"]}


@mcp.tool()
async def order_bread(kind: str) -> dict:
    return await _send(f"/orders/{kind}")
""")


def test_a_helper_describing_a_response_its_caller_found_failed_is_reported_where_it_builds_the_text() -> None:
    check(DESCRIBER.replace("CONDITION", "response.is_error").replace("# MARK", "# expect: MCP002"))


def test_a_helper_describing_a_response_no_caller_found_failed_is_not_reported() -> None:
    check(DESCRIBER.replace("CONDITION", "len(response.content) > 4096"))


REPLY = unmasked("""\
import json

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("tides")


@mcp.tool()
def tide_height(port: str) -> float:
    with httpx.Client() as client:
        response = client.get(f"https://tides.invalid/{port}")
        response.raise_for_status()
        data = DECODE
        if CONDITION:
            raise RuntimeError(MESSAGE)
        return data["height"]
""")


def test_the_error_field_of_a_reply_that_says_it_failed_is_an_upstream_body() -> None:
    for decode, condition in [
        ("response.json()", 'data["status"] != "ok"'),
        ("json.loads(response.text)", 'not data.get("success")'),
        ("response.json()", 'data.get("error")'),
        ("response.json()", '"error" in data'),
        ("response.json()", 'data["error"] is not None'),
    ]:
        source = REPLY.replace("DECODE", decode).replace("CONDITION", condition)
        check(source.replace("MESSAGE", 'f"Tide service error: {data.get(\'message\')}")  # expect: MCP002'))


def test_a_reply_failure_tested_beside_a_shape_check_is_an_upstream_body() -> None:
    condition = 'isinstance(data, dict) and data.get("success") is False'
    source = REPLY.replace("DECODE", "response.json()").replace("CONDITION", condition)
    findings = check(source.replace("MESSAGE", 'f"Tide service refused: {data.get(\'message\')}")  # expect: MCP002'))
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert finding.message == "Tool 'tide_height' raises RuntimeError with an upstream error body (data.get('message'))"


def test_a_shape_check_or_a_reply_failure_is_no_failed_reply() -> None:
    # Either test may have sent the branch: not a reply known to have failed.
    condition = 'not isinstance(data, dict) or data.get("success") is False'
    source = REPLY.replace("DECODE", "response.json()").replace("CONDITION", condition)
    check(source.replace("MESSAGE", 'f"Tide service refused: {data.get(\'message\')}"'))
    # A shape check beside a success flag that is set: the author's own words about the reply.
    condition = 'isinstance(data, dict) and data.get("success") is True'
    check(REPLY.replace("DECODE", "response.json()").replace("CONDITION", condition).replace("MESSAGE", 'f"Tide service said {data.get(\'message\')}"'))


def test_a_reply_failure_reported_in_the_authors_words_or_a_local_status_is_not() -> None:
    check(REPLY.replace("DECODE", "response.json()").replace("CONDITION", 'data["status"] != "ok"').replace("MESSAGE", 'f"No tide table for {port}; check the port code"'))
    # A status of the project's own bookkeeping, not a decoded reply: its fields are the author's.
    check(REPLY.replace("DECODE", "PORTS.lookup(port)").replace("CONDITION", 'data["status"] != "ok"').replace("MESSAGE", 'f"Port {port}: {data[\'note\']}"'))
    # An error field that is empty: nothing says the call failed.
    check(REPLY.replace("DECODE", "response.json()").replace("CONDITION", 'data["error"] is None').replace("MESSAGE", 'f"Tide table: {data.get(\'message\')}"'))


EARLY_EXIT = """

def _checked(reply: httpx.Response) -> dict:
    if reply.status_code == 200:
        return reply.json()
    RAISE
"""

EARLY_TOOL = """

@mcp.tool()
def count_pears(tree: str) -> str:
    return str(_checked(httpx.get(f"https://orchard.invalid/trees/{tree}"))["pears"])
"""


def test_a_body_raised_after_the_function_left_on_success_is_reported() -> None:
    raised = 'raise RuntimeError(f"Orchard API failed ({reply.status_code}): {reply.text}")  # expect: MCP002'
    (finding,) = [f for f in check(HEADER + EARLY_EXIT.replace("RAISE", raised) + EARLY_TOOL) if f.code == "MCP002"]
    assert finding.message == "Helper '_checked' raises RuntimeError with an upstream error body (reply.text)"


def test_only_the_status_raised_after_leaving_on_success_is_not_reported() -> None:
    raised = 'raise RuntimeError(f"Orchard API answered HTTP {reply.status_code}; retry in a minute")'
    check(HEADER + EARLY_EXIT.replace("RAISE", raised) + EARLY_TOOL)


def test_a_body_raised_after_leaving_on_failure_is_not_an_error_body() -> None:
    helper = EARLY_EXIT.replace("reply.status_code == 200", "reply.status_code >= 400").replace(
        "RAISE", 'raise RuntimeError(f"unexpected reply: {reply.text}")'
    )
    check(HEADER + helper.replace("return reply.json()", 'raise RuntimeError("Orchard API refused the request")') + EARLY_TOOL)


LOCAL_STATUS = """

def _checked(reply: httpx.Response) -> dict:
    status = reply.status_code
    if status == 404:
        raise RuntimeError("no such tree; list the trees first")
    elif BRANCH:
        raise RuntimeError(f"Orchard API failed: {reply.text}")MARK
    return reply.json()
"""


def test_a_body_raised_under_a_test_of_a_local_holding_the_status_is_reported() -> None:
    helper = LOCAL_STATUS.replace("BRANCH", "status >= 400").replace("MARK", "  # expect: MCP002")
    check(HEADER + helper + EARLY_TOOL)


def test_a_body_raised_where_a_local_holding_the_status_says_success_is_not_reported() -> None:
    helper = LOCAL_STATUS.replace("BRANCH", "status == 200").replace("MARK", "")
    check(HEADER + helper + EARLY_TOOL)


DESCRIBED = """

def _describe(reply: httpx.Response) -> str:
    return f"Orchard API error {reply.status_code}: {reply.text}"  # expect: MCP002


def _checked(reply: httpx.Response) -> dict:
    if reply.is_success:
        return reply.json()
    raise RuntimeError(_describe(reply))
"""


def test_a_helper_describing_a_response_raised_after_leaving_on_success_is_reported() -> None:
    check(HEADER + DESCRIBED + EARLY_TOOL)


def test_a_helper_describing_a_response_raised_after_leaving_on_failure_is_not() -> None:
    helper = DESCRIBED.replace("reply.is_success", "reply.is_error").replace("  # expect: MCP002", "")
    check(HEADER + helper.replace("return reply.json()", 'raise RuntimeError("Orchard API refused the request")') + EARLY_TOOL)


UNDECODED = HEADER + """

class OrchardError(Exception):
    pass


def _decoded(reply: httpx.Response) -> dict:
    try:
        return reply.json()
    except CAUGHT:
        RAISE


@mcp.tool()
def count_plums(tree: str) -> str:
    return str(_decoded(httpx.get(f"https://orchard.invalid/trees/{tree}"))["plums"])
"""


def test_the_body_of_a_reply_that_failed_to_decode_is_an_upstream_body() -> None:
    raised = 'raise OrchardError(f"Orchard sent no JSON: {reply.text[:200]}") from None  # expect: MCP002'
    for caught in ("ValueError", "json.JSONDecodeError", "Exception"):
        findings = check(UNDECODED.replace("CAUGHT", caught).replace("RAISE", raised))
        (finding,) = [f for f in findings if f.code == "MCP002"]
        assert finding.message == "Helper '_decoded' raises OrchardError with an upstream error body (reply.text)"


def test_the_authors_words_on_a_failed_decoding_or_another_clause_are_no_body() -> None:
    check(UNDECODED.replace("CAUGHT", "ValueError").replace("RAISE", 'raise OrchardError("Orchard sent no tree record; check the tree name") from None'))
    # A clause for something else than the decoding: the reply decoded, nothing says it failed.
    check(UNDECODED.replace("CAUGHT", "KeyError").replace("RAISE", 'raise OrchardError(f"no plums field: {reply.text[:200]}") from None'))
    # A reply that is no JSON returned as the answer: the endpoint's text, passed on.
    check(UNDECODED.replace("CAUGHT", "ValueError").replace("RAISE", 'return {"plums": 0, "body": reply.text}'))


ENVELOPE = HEADER + """

class OrchardError(Exception):
    pass


def opened(payload: dict) -> dict:
    if isinstance(payload, dict) and payload.get("success") is False:
        message = payload.get("message") or "no message"
        raise OrchardError(f"Orchard refused the request: {message}")  # expect: MCP002
    return payload["data"]


def _get(path: str) -> dict:
    reply = httpx.get(f"https://orchard.invalid{path}")
    PASS
"""

ENVELOPE_TOOL = """

@mcp.tool()
def count_cherries(tree: str) -> str:
    return str(_get(f"/trees/{tree}")["cherries"])
"""


def test_a_reply_a_caller_decoded_whose_failure_the_helper_tests_is_an_upstream_body() -> None:
    for passed in ("return opened(reply.json())", "payload = reply.json()\n    return opened(payload)"):
        findings = check(ENVELOPE.replace("PASS", passed) + ENVELOPE_TOOL)
        (finding,) = [f for f in findings if f.code == "MCP002"]
        assert finding.message == """Helper 'opened' raises OrchardError with an upstream error body (payload.get("message"))"""


def test_a_status_dict_of_the_project_or_a_reply_not_tested_for_failure_is_no_body() -> None:
    # The helper's argument is the project's own result dict: its message is the author's.
    own = ENVELOPE.replace("  # expect: MCP002", "").replace("PASS", 'return opened({"success": False, "message": f"no tree {path}"})')
    check(own + ENVELOPE_TOOL)
    # A decoded reply whose fields a helper sends on without any failure test: plain data.
    plain = ENVELOPE.replace("  # expect: MCP002", "").replace('isinstance(payload, dict) and payload.get("success") is False', '"message" in payload')
    plain = plain.replace('raise OrchardError(f"Orchard refused the request: {message}")', 'return {"note": message}')
    check(plain.replace("PASS", "return opened(reply.json())") + ENVELOPE_TOOL)


UNPACKED = """\
import urllib.error
import urllib.request

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("orchard")


class Orchard:
    def _exchange(self, method: str, url: str) -> tuple[int, str, dict]:
        request = urllib.request.Request(url, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as resp:
                text = resp.read().decode("utf-8")
                return resp.status, text, dict(resp.headers)
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8") if e.fp else ""
            return e.code, text, {}

    def plant(self, tree: str) -> dict:
        status, answer, _ = self._exchange("PUT", f"https://orchard.invalid/trees/{tree}")
        if status in (200, 201):
            return {"planted": tree}
        return {  # expect: MCP005
            "error": f"Could not plant {tree} (HTTP {status})",
            SENT
        }


orchard = Orchard()


@mcp.tool()
def plant_tree(tree: str) -> dict:
    return orchard.plant(tree)
"""


def test_a_body_a_helper_hands_back_beside_its_status_is_reported_where_the_status_failed() -> None:
    findings = check(UNPACKED.replace("SENT", '"detail": answer[:500],  # expect: MCP002'))
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert finding.message == "Helper 'plant' returns an upstream error body (answer) as a normal result"


def test_the_status_alone_or_a_helper_handing_back_no_body_is_not_reported() -> None:
    check(UNPACKED.replace("SENT", '"status": status,'))
    # The helper's second item is a count it made itself, not the response's body.
    own = UNPACKED.replace('text = resp.read().decode("utf-8")', "text = str(len(url))").replace(
        'text = e.read().decode("utf-8") if e.fp else ""', "text = url"
    )
    check(own.replace("SENT", '"detail": answer[:500],'))


# A reply whose HTTP status was fine but whose decoded status field says the call failed: the
# function leaves with the answer when the field says it worked, and raises after.
REPLY_LEFT_ON_SUCCESS = """

def _call(method: str) -> dict:
    reply = httpx.post(f"https://market.invalid/{method}")
    reply.raise_for_status()
    data = reply.json()
    if SUCCESS:
        return data["answer"]
    RAISE
"""

MARKET_TOOL = """

@mcp.tool()
def list_stalls() -> str:
    return str(_call("stalls"))
"""


def test_a_reply_field_raised_after_leaving_on_the_replys_success_is_reported() -> None:
    for success in ('data.get("status") == "success"', 'data["ok"]', 'data.get("result") != "error"'):
        raised = 'detail = data.get("error_text") or "unknown error"\n    raise RuntimeError(detail)  # expect: MCP002'
        helper = REPLY_LEFT_ON_SUCCESS.replace("SUCCESS", success).replace("RAISE", raised)
        (finding,) = [f for f in check(HEADER + helper + MARKET_TOOL) if f.code == "MCP002"]
        assert finding.message == "Helper '_call' raises RuntimeError with an upstream error body (data.get(\"error_text\"))"


def test_a_reply_field_raised_after_leaving_on_its_failure_or_in_the_authors_words_is_not() -> None:
    # Left when the field said it failed: what comes after is a reply that worked.
    helper = REPLY_LEFT_ON_SUCCESS.replace("SUCCESS", 'data.get("status") == "error"').replace(
        "return data[\"answer\"]", 'raise RuntimeError(f"the market refused {method}: see its status page")'
    )
    check(HEADER + helper.replace("RAISE", 'raise RuntimeError(f"unexpected answer: {data.get(\'note\')}")') + MARKET_TOOL)
    # Left on success, then the author's own words.
    helper = REPLY_LEFT_ON_SUCCESS.replace("SUCCESS", 'data.get("status") == "success"')
    check(HEADER + helper.replace("RAISE", 'raise RuntimeError(f"the market refused {method}; check the method name")') + MARKET_TOOL)
    # A status of the project's own bookkeeping, not a decoded reply.
    helper = helper.replace("data = reply.json()", "data = STALLS.get(method, {})")
    check(HEADER + "STALLS: dict = {}\n" + helper.replace("RAISE", 'raise RuntimeError(data.get("error_text"))') + MARKET_TOOL)


def test_the_error_of_an_inner_answer_that_says_it_failed_is_an_upstream_body() -> None:
    # An envelope that worked around an answer with its own status: the answer is a reply too.
    helper = REPLY_LEFT_ON_SUCCESS.replace("SUCCESS", 'data.get("status") == "success"').replace(
        'return data["answer"]',
        'answer = data.get("answer", {})\n'
        '        if isinstance(answer, dict) and answer.get("status") == "error":\n'
        '            errors = answer.get("errors") or []\n'
        '            raise RuntimeError(errors[0] if errors else "method failed")  # expect: MCP002\n'
        "        return answer",
    )
    check(HEADER + helper.replace("RAISE", 'raise RuntimeError(f"the market refused {method}")') + MARKET_TOOL)
    # The same answer tested for success: its fields are the data.
    helper = helper.replace('answer.get("status") == "error"', 'answer.get("status") == "done"').replace("  # expect: MCP002", "")
    check(HEADER + helper.replace("RAISE", 'raise RuntimeError(f"the market refused {method}")') + MARKET_TOOL)


# The status compared by its class (`// 100 == 2`), and a success branch whose every path leaves
# (a `try` returning the decoded reply, its `except` returning what came instead).
STATUS_CLASS = """

def _envelope(reply: httpx.Response) -> dict:
    if reply.status_code // 100 == CLASS:
        try:
            return {"success": True, "data": reply.json()}
        except ValueError:
            return {"success": True, "data": {"raw": reply.text[:200]}}
    TAIL
"""

CRATES_TOOL = """

@mcp.tool()
def list_crates() -> dict:
    return _envelope(httpx.get("https://crates.invalid/all"))
"""


def test_a_body_returned_as_a_failure_after_leaving_on_the_status_class_of_success_is_reported() -> None:
    tail = 'return {"success": False, "error": reply.text}  # expect: MCP002, MCP005'
    findings = check(HEADER + STATUS_CLASS.replace("CLASS", "2").replace("TAIL", tail) + CRATES_TOOL)
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert finding.message == "Helper '_envelope' returns an upstream error body (reply.text) as a normal result"


def test_the_body_of_a_success_class_reply_or_after_leaving_on_failure_is_not_an_error_body() -> None:
    # In the success branch, an undecodable body is passed on as the answer; after it, only
    # the author's words go out.
    tail = 'return {"success": False, "error": f"crate service answered {reply.status_code}"}  # expect: MCP005'
    check(HEADER + STATUS_CLASS.replace("CLASS", "2").replace("TAIL", tail) + CRATES_TOOL)
    # Left when the class said client error: what follows is no failed reply's body.
    helper = """

def _envelope(reply: httpx.Response) -> dict:
    if reply.status_code // 100 == 4:
        raise RuntimeError(f"the crate service refused the request ({reply.status_code})")
    return {"success": True, "data": reply.text}
"""
    check(HEADER + helper + CRATES_TOOL)


# The same describer as a method of a client class, called on `self` from a method in another
# class position: the caller's argument positions are read through its call edge (`self` not
# counted there, counted in the describer's parameters).
METHOD_DESCRIBER = unmasked("""\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("pantry")


class PantryClient:
    def _explain(self, reply: httpx.Response) -> str:
        return f"Pantry API answered {reply.status_code}: {reply.text}"  # MARK

    async def take(self, item: str) -> dict:
        async with httpx.AsyncClient() as client:
            reply = await client.get(f"/shelves/{item}")
        if CONDITION:
            raise ToolError(self._explain(reply))
        return reply.json()


pantry = PantryClient()


@mcp.tool()
async def take_item(item: str) -> dict:
    return await pantry.take(item)
""")


def test_a_method_describing_a_response_its_caller_found_failed_is_reported() -> None:
    findings = check(METHOD_DESCRIBER.replace("CONDITION", "reply.status_code >= 400").replace("# MARK", "# expect: MCP002"))
    (finding,) = [f for f in findings if f.code == "MCP002"]
    assert "reply.text" in finding.message


def test_a_method_describing_a_response_its_caller_did_not_test_is_not_reported() -> None:
    check(METHOD_DESCRIBER.replace("CONDITION", "item == 'flour'"))
