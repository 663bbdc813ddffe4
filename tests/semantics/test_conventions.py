"""The semantics suite's own conventions (no framework venv needed: part of the default run)."""

from __future__ import annotations

import pytest

from mcp_lint.registry import RULES

from . import runner
from .claims import claims, failed
from .pages import Call, Expect, _releases, examples, parse_call
from .venvs import RELEASES, Release, release, split_requirement

# The rules whose messages state what the client receives: each proves it with runnable examples.
# MCP008/MCP009 join when their pages (another branch) are annotated (README.md).
PROVEN = ("MCP001", "MCP005", "MCP006", "MCP007", "MCP008", "MCP009")


def test_call_option_forms() -> None:
    assert parse_call('cancel_order {"order_id": 99}') == Call("cancel_order", {"order_id": 99})
    assert parse_call("list_orders") == Call("list_orders", {})
    assert parse_call('void_invoice@server {"id": "A"} -> protocol-error -32602') == Call(
        "void_invoice", {"id": "A"}, "server", Expect("protocol-error", -32602)
    )
    assert parse_call('get {"k": "a -> b"} -> tool-error "not found; call list"').expect == Expect("tool-error", None, "not found; call list")
    with pytest.raises(ValueError, match="expected '-> KIND'"):
        parse_call('get {"k": 1} tool-error')
    with pytest.raises(ValueError, match="tool-error|success|protocol-error"):
        parse_call('get {"k": 1} -> failure')


def test_releases_resolve_from_pins_and_targets() -> None:
    assert release("fastmcp==4.2.3").pin == "fastmcp==4.2.3"
    with pytest.raises(KeyError, match="not a release of the semantics suite"):
        release("mcp==1.2.3")
    assert split_requirement("fastmcp>=3.4,<4") == ("fastmcp", ">=3.4,<4")
    admitted = [r.pin for r in RELEASES if r.admitted_by("mcp>=1.19,<2")]
    assert admitted == ["mcp==1.25.0", "mcp==1.30.0"]
    assert not Release("fastmcp", "4.2.3").admitted_by("mcp>=1")
    # An exact pin outside the suite runs on the suite's release of its minor series.
    assert [r.pin for r in _releases({"target": "fastmcp==4.2.0"}, "here")] == ["fastmcp==4.2.3"]
    assert [r.pin for r in _releases({"target": "mcp>=2.1,<3"}, "here")] == ["mcp==2.3.0"]
    assert [r.pin for r in _releases({"target": "fastmcp==2.4.0"}, "here")] == ["fastmcp==2.4.0"]
    with pytest.raises(ValueError, match="no release of the suite"):
        _releases({"target": "fastmcp==2.10.0"}, "here")


def test_every_row_of_the_framework_table_runs_on_a_release() -> None:
    # A row no release of the suite falls in is a row nobody proved: add a release to venvs.py.
    from mcp_lint.model.frameworks import FRAMEWORK_TABLE, channel

    from .test_framework_rows import families

    proven = {channel(family, rel.version) for rel in RELEASES for family in families(rel)}
    unproven = [f"{row.family.value} {row.span}" for rows in FRAMEWORK_TABLE.values() for row in rows if row not in proven]
    assert unproven == []


def test_message_claims_become_wire_checks() -> None:
    result_false = {"result": {"isError": False, "content": [{"type": "text", "text": "Contact a not found"}]}}
    wrapped = {"result": {"isError": True, "content": [{"type": "text", "text": "Error calling tool 'deploy': token missing"}]}}
    protocol = {"error": {"code": -32602, "message": "Order 9 not found"}}

    (claim,) = claims("Tool 'get' reports a failure as a normal result: the wire says isError: false, so the client ...")
    assert claim.holds(result_false) and not claim.holds(wrapped)

    (claim,) = claims("Tool 'x' raises MCPError: on mcp 2.x MCPServer the client gets a JSON-RPC error and the model never sees it")
    assert claim.holds(protocol) and not claim.holds(wrapped)

    (claim,) = claims("Helper 'need' (reached from tool 'deploy') raises McpError: on fastmcp it is wrapped into 'Error calling tool 'deploy': <message>' and ...")
    assert claim.phrase.startswith("into 'Error calling tool 'deploy'")
    assert claim.holds(wrapped) and not claim.holds({"result": {"isError": True, "content": [{"type": "text", "text": "token missing"}]}})

    (claim,) = claims("the model sees only 'Error calling tool 'deploy''; raise ToolError")
    assert claim.holds({"result": {"isError": True, "content": [{"type": "text", "text": "Error calling tool 'deploy'"}]}})
    assert not claim.holds(wrapped)

    assert claims("Tool 'x' does something odd") == []


def test_message_claims_of_the_new_rules() -> None:
    def result(text: str, is_error: bool = True) -> dict:
        return {"result": {"isError": is_error, "content": [{"type": "text", "text": text}]}}

    # MCP006: a slot written as "..." and text after it; the wire text goes on after the template.
    message = (
        "ToolResult takes no is_error before fastmcp 3.4: the call raises TypeError and the model gets "
        "'Error calling tool 'refund': ... unexpected keyword argument' instead of your message"
    )
    (claim,) = [c for c in claims(message) if c.kind == "case"]
    assert claim.holds(result("Error calling tool 'refund': ToolResult.__init__() got an unexpected keyword argument 'is_error'"))
    assert not claim.holds(result("Order 7 was never charged"))
    # MCP007: "<exception text>" slot after "as".
    (claim,) = claims("Server 'x' forwards the raw text of unexpected exceptions to the model: on fastmcp 3.x a failure "
                      "no `try` handles reaches it as 'Error calling tool 'get': <exception text>', with whatever ...")
    assert claim.holds(result("Error calling tool 'get': Connection refused"))
    # MCP008: double-quoted masked text.
    (claim,) = claims('the framework masks the text of every exception except ToolError: the model receives only "Error executing tool get"; raise ToolError')
    assert claim.holds(result("Error executing tool get")) and not claim.holds(result("Error executing tool get: Order 12 not found"))
    # MCP009 on 2.x/3.x: one of the listed cases must hold.
    stated = claims("the model reads every tool failure behind a protocol-style prefix: ToolError('...') as 'Internal error: ...', "
                    "a ValueError as 'Invalid params: ...'")
    assert [c.kind for c in stated] == ["case", "case"]
    assert failed(stated, result("Invalid params: bad date")) == []
    assert failed(stated, result("bad date")) == stated


def test_runner_marks_the_flagged_statements_a_call_runs() -> None:
    source = "def tool(flag):\n    if flag:\n        return 'a'\n    return 'b'\n"
    hits: list[int] = []
    namespace = {"__semantics_hit__": hits.append}
    exec(runner._instrument(source, {3, 4}, "<example>"), namespace)
    assert namespace["tool"](True) == "a" and hits == [3]
    hits.clear()
    assert namespace["tool"](False) == "b" and hits == [4]


def test_every_annotated_example_names_releases_of_the_suite() -> None:
    found = examples()
    assert found
    for example in found:
        assert example.releases and example.calls, example.id


@pytest.mark.parametrize("code", [c for c in PROVEN if c in {r.code for r in RULES}])
def test_rule_proves_its_claims_with_runnable_invalid_and_valid_examples(code: str) -> None:
    ours = [e for e in examples() if e.code == code]
    assert any(e.invalid for e in ours), f"rules/{code}.md has no 'Example' block with `call:` (tests/semantics/README.md)"
    assert any(not e.invalid for e in ours), f"rules/{code}.md has no 'Use instead' block with `call:` (tests/semantics/README.md)"
