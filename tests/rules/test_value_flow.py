"""Values flowing through locals, containers and helper returns (issue 9, causes 3 and 9).

A helper's failure value reaches the model when the tool returns anything built from it (MCP005,
MCP002); a caught exception's text stored in a local or a container reaches it when that local
is later returned or raised, and is reported where the text is built (MCP002).
"""

from __future__ import annotations

import textwrap

import pytest

from pathlib import Path

from ._support import said, check as _check, lint_tree as _lint_tree, only as _only, unmasked, write_tree as _write_tree

MCP1 = """\
import asyncio
import json
import logging

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import TextContent

logger = logging.getLogger(__name__)
mcp = FastMCP("inventory")
ITEMS: dict[str, dict] = {}
"""

# A helper whose failure is an error dict, and a second one whose failure is a string.
LOOKUP = """
def lookup(sku: str) -> dict:
    if sku not in ITEMS:
        return {"success": False, "error": f"SKU {sku} does not exist"}  # expect: MCP005
    return {"success": True, "item": ITEMS[sku]}


def describe(item: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in item.items())
"""


def _src(*parts: str) -> str:
    return MCP1 + "".join(textwrap.dedent(p) for p in parts)


def _unmasked_src(*parts: str) -> str:
    """For snippets whose tools do I/O that no `try` handles: mcp 1.x forwards the text of its
    failure, MCP007 at the server."""
    return unmasked(MCP1) + "".join(textwrap.dedent(p) for p in parts)


# -- cause 3: the tool transforms the helper's value before returning it -----------------------


@pytest.mark.parametrize(
    "tool_body",
    [
        pytest.param("result = lookup(sku)\nreturn json.dumps(result, indent=2)", id="json-dumps-kwargs"),
        pytest.param("result = lookup(sku)\nreturn str(result)", id="str"),
        pytest.param("text = json.dumps(lookup(sku))\nreturn [TextContent(type='text', text=text)]", id="textcontent-of-local"),
        pytest.param("return {'sku': sku, 'result': lookup(sku)}", id="wrapping-dict"),
        pytest.param("result = lookup(sku)\npayload = {'data': result}\nreply = json.dumps(payload)\nreturn reply", id="three-hops"),
        pytest.param("result = lookup(sku)\nif 'error' in result:\n    return result\nreturn describe(result['item'])", id="returned-in-the-error-branch"),
        pytest.param("result = lookup(sku)\nreturn f'Lookup: {result}'", id="f-string"),
    ],
)
def test_helper_failure_returned_through_an_expression(tool_body: str) -> None:
    body = textwrap.indent(tool_body, "    ")
    findings = _check(_src(LOOKUP, "\n@mcp.tool()\ndef get_item(sku: str) -> str:\n" + body + "\n"))
    assert findings[0].message.startswith("Helper 'lookup' returns a failure")


def test_a_project_formatter_decides_what_of_its_argument_it_returns() -> None:
    # The project's own `render` builds its answer from the value (it could as well turn an error
    # dict into an error result): what it returns is judged where it is written.
    source = _src(
        """
        async def fetch_stock(sku: str) -> dict:
            if sku not in ITEMS:
                return {"status": "error", "message": f"Unknown SKU {sku}; call list_items"}
            return {"status": "ok", "count": ITEMS[sku]["count"]}


        def render(result: dict) -> str:
            return "\\n".join(f"{k}: {v}" for k, v in result.items())


        @mcp.tool()
        async def stock_level(sku: str) -> str:
            result = await fetch_stock(sku)
            return render(result)
        """
    )
    _check(source)


@pytest.mark.parametrize(
    "tool_body",
    [
        pytest.param("result = lookup(sku)\nreturn {'found': len(result) > 0}", id="only-its-length"),
        pytest.param(
            "result = lookup(sku)\nif not result.get('success'):\n    raise ToolError(result['error'])\nreturn json.dumps(result)",
            id="failure-checked-and-raised",
        ),
        pytest.param("result = lookup(sku)\nlogger.info('lookup: %s', result)\nreturn 'looked up'", id="only-logged"),
        pytest.param("result = lookup(sku)\nreturn describe(result['item'])", id="only-a-part-of-it"),
        pytest.param("return 'yes' if lookup(sku)['success'] else 'no'", id="only-decides"),
    ],
)
def test_helper_failure_not_returned_is_silent(tool_body: str) -> None:
    lookup = LOOKUP.replace("  # expect: MCP005", "")
    body = textwrap.indent(tool_body, "    ")
    _check(_src(lookup, "\n@mcp.tool()\ndef get_item(sku: str) -> str:\n" + body + "\n"))


def test_a_service_object_is_not_the_data_its_methods_return() -> None:
    # `client.fetch()` returns what fetch returns, not a part of `client`: the constructor's
    # helpers stay out of the tool's value.
    source = _src(
        """
        def load_settings() -> dict:
            try:
                with open("settings.json") as handle:
                    return json.load(handle)
            except Exception as e:
                return {"error": str(e)}


        class Inventory:
            def __init__(self, settings: dict) -> None:
                self.settings = settings

            def count(self, sku: str) -> int:
                return len(ITEMS.get(sku, {}))


        @mcp.tool()
        def count_items(sku: str) -> str:
            inventory = Inventory(load_settings())
            return f"{sku}: {inventory.count(sku)}"
        """
    )
    _check(source)


# -- cause 9: exception text through locals and containers --------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            """
            @mcp.tool()
            def sync_all(skus: list[str]) -> str:
                errors = []
                for sku in skus:
                    try:
                        httpx.post("https://erp.example.com/sync", json={"sku": sku})
                    except httpx.HTTPError as e:
                        errors.append(f"{sku}: {e}")  # expect: MCP002
                return "\\n".join(errors) or "synced"
            """,
            id="appended-then-joined",
        ),
        pytest.param(
            """
            @mcp.tool()
            def sync_all(skus: list[str]) -> dict:
                failures: dict[str, str] = {}
                for sku in skus:
                    try:
                        httpx.post("https://erp.example.com/sync", json={"sku": sku})
                    except Exception as e:
                        failures[sku] = str(e)  # expect: MCP002
                return {"synced": len(skus) - len(failures), "failures": failures}
            """,
            id="stored-by-key-then-returned-in-a-dict",
        ),
        pytest.param(
            """
            @mcp.tool()
            def restock(sku: str) -> dict:
                info = {"sku": sku}
                try:
                    httpx.post("https://erp.example.com/restock", json=info)
                    info["status"] = "ordered"
                except Exception as e:
                    info["error"] = str(e)  # expect: MCP002
                return info
            """,
            id="item-of-the-returned-dict",
        ),
        pytest.param(
            """
            @mcp.tool()
            def stock_history(sku: str) -> str:
                error = None
                try:
                    rows = httpx.get(f"https://erp.example.com/history/{sku}").json()
                except Exception as e:
                    error = repr(e)  # expect: MCP002
                if error:
                    raise ToolError(f"History of {sku} unavailable: {error}")
                return json.dumps(rows)
            """,
            id="built-in-the-handler-raised-after-the-try",
        ),
        pytest.param(
            """
            @mcp.tool()
            def restock(sku: str) -> str:
                message = f"Restock of {sku} failed"
                try:
                    httpx.post("https://erp.example.com/restock", json={"sku": sku})
                    return "ordered"
                except Exception as e:
                    message += f": {e}"  # expect: MCP002
                return message
            """,
            id="augmented-then-returned",
        ),
        pytest.param(
            """
            @mcp.tool()
            def restock(sku: str) -> str:
                try:
                    httpx.post("https://erp.example.com/restock", json={"sku": sku})
                except httpx.HTTPError as e:
                    err = RuntimeError(f"ERP refused the restock: {e}")  # expect: MCP002
                    raise err from e
                return "ordered"
            """,
            id="exception-built-then-raised",
        ),
    ],
)
def test_exception_text_through_locals_is_reported_where_it_is_built(body: str) -> None:
    _check(_src(body))


def test_message_names_the_return_that_sends_it() -> None:
    source = _src(
        """
        @mcp.tool()
        def sync_all(skus: list[str]) -> dict:
            errors = []
            for sku in skus:
                try:
                    httpx.post("https://erp.example.com/sync", json={"sku": sku})
                except httpx.HTTPError as e:
                    errors.append(str(e))  # expect: MCP002
            return {"errors": errors}
        """
    )
    finding = _only(source)
    row = source.splitlines().index('    return {"errors": errors}') + 1
    assert [(r.location.row, r.location.column, r.message) for r in finding.related] == [(row, 5, "the text is returned here")]
    assert finding.message == "Tool 'sync_all' returns the text of a caught httpx.HTTPError as a normal result"


def test_text_on_a_helpers_result_object_read_by_the_tool() -> None:
    source = _src(
        """
        class Report:
            def __init__(self) -> None:
                self.rows: list[dict] = []
                self.error: str | None = None


        def analyze(sku: str) -> Report:
            report = Report()
            try:
                report.rows = httpx.get(f"https://erp.example.com/history/{sku}").json()
            except Exception as e:
                report.error = f"History unavailable: {e}"  # expect: MCP002
            return report


        @mcp.tool()
        def history(sku: str) -> dict:
            report = analyze(sku)
            if report.error:
                return {"error": report.error}  # expect: MCP005
            return {"rows": report.rows}
        """
    )
    findings = _check(source)
    helper = next(f for f in findings if f.code == "MCP002")
    assert helper.message.startswith("Helper 'analyze' returns the text")


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            """
            @mcp.tool()
            def sync_all(skus: list[str]) -> dict:
                errors = []
                for sku in skus:
                    try:
                        httpx.post("https://erp.example.com/sync", json={"sku": sku})
                    except httpx.HTTPError as e:
                        errors.append(str(e))
                return {"synced": len(skus) - len(errors), "failed": len(errors)}
            """,
            id="only-counted",
        ),
        pytest.param(
            """
            @mcp.tool()
            def sync_all(skus: list[str]) -> str:
                errors = []
                for sku in skus:
                    try:
                        httpx.post("https://erp.example.com/sync", json={"sku": sku})
                    except httpx.HTTPError as e:
                        errors.append(str(e))
                if errors:
                    logger.warning("sync errors: %s", "; ".join(errors))
                return "synced"
            """,
            id="only-logged",
        ),
        pytest.param(
            """
            @mcp.tool()
            def restock(sku: str) -> str:
                try:
                    httpx.post("https://erp.example.com/restock", json={"sku": sku})
                except Exception as e:
                    detail = str(e)
                    logger.error("restock failed: %s", detail)
                    raise ToolError(f"The ERP did not accept the restock of {sku}; check the SKU with list_items")
                return "ordered"
            """,
            id="kept-in-a-local-never-sent",
        ),
        pytest.param(
            """
            @mcp.tool()
            def price(sku: str) -> str:
                problems = []
                try:
                    item = ITEMS[sku]
                except KeyError as e:
                    problems.append(f"missing key {e}")
                    item = {}
                return json.dumps({"item": item, "problems": problems})
            """,
            id="own-lookup-not-library-text",
        ),
    ],
)
def test_exception_text_that_is_not_sent_is_silent(body: str) -> None:
    _check(_src(body))


# -- cause 9: exceptions gathered with return_exceptions=True ----------------------------------

FETCH = """
async def fetch_label(sku: str) -> str:
    async with httpx.AsyncClient() as client:
        return (await client.get(f"https://labels.example.com/{sku}")).text
"""


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            """
            @mcp.tool()
            async def fetch_labels(skus: list[str]) -> list[str]:
                results = await asyncio.gather(*(fetch_label(s) for s in skus), return_exceptions=True)
                return [r if not isinstance(r, BaseException) else f"ERROR: {r}" for r in results]  # expect: MCP002
            """,
            id="conditional-expression",
        ),
        pytest.param(
            """
            @mcp.tool()
            async def fetch_labels(skus: list[str]) -> str:
                results = await asyncio.gather(*(fetch_label(s) for s in skus), return_exceptions=True)
                lines = []
                for sku, result in zip(skus, results):
                    if isinstance(result, Exception):
                        lines.append(f"{sku}: failed ({result})")  # expect: MCP002
                    else:
                        lines.append(f"{sku}: {result}")
                return "\\n".join(lines)
            """,
            id="collected-in-a-loop",
        ),
    ],
)
def test_gathered_exception_text_is_flagged(body: str) -> None:
    (finding,) = [f for f in _check(_unmasked_src(FETCH, body)) if f.code == "MCP002"]
    assert "caught exception returned by asyncio.gather" in said(finding)


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            """
            @mcp.tool()
            async def fetch_labels(skus: list[str]) -> list[str]:
                results = await asyncio.gather(*(fetch_label(s) for s in skus), return_exceptions=True)
                return [f"label: {r}" for r in results if not isinstance(r, BaseException)]
            """,
            id="only-successes-formatted",
        ),
        pytest.param(
            """
            @mcp.tool()
            async def fetch_labels(skus: list[str]) -> dict:
                results = await asyncio.gather(*(fetch_label(s) for s in skus), return_exceptions=True)
                failed = [s for s, r in zip(skus, results) if isinstance(r, Exception)]
                return {"labels": [r for r in results if isinstance(r, str)], "failed_skus": failed}
            """,
            id="failures-named-not-described",
        ),
    ],
)
def test_gathered_results_without_exception_text_are_silent(body: str) -> None:
    _check(_unmasked_src(FETCH, body))


# -- a helper's failure branch that the calling tool already ruled out ---------------------------

GUARDED = """
import os


def read_properties(path: str) -> dict:
    if not os.path.exists(path):
        return {"error": f"Document {path} does not exist"}MARK
    return {"size": os.path.getsize(path)}


@mcp.tool()
def document_info(filename: str) -> str:
    if not os.path.exists(filename):
        raise ToolError(f"Document {filename} does not exist; call list_documents")
    return json.dumps(read_properties(filename))
"""


def test_helper_branch_the_tool_already_left_on_is_silent() -> None:
    _check(_src(GUARDED.replace("MARK", "")))


def test_helper_branch_reached_from_a_tool_without_the_check_is_flagged() -> None:
    source = _src(
        GUARDED.replace("MARK", "  # expect: MCP005"),
        """
        @mcp.tool()
        def document_size(filename: str) -> str:
            return json.dumps(read_properties(filename))
        """,
    )
    assert "reached from tool 'document_size'" in _only(source).notes


def test_a_check_on_another_argument_does_not_rule_the_branch_out() -> None:
    source = _src(
        GUARDED.replace("MARK", "  # expect: MCP005").replace(
            "return json.dumps(read_properties(filename))", "return json.dumps(read_properties(filename + '.docx'))"
        )
    )
    _only(source)


RATES = """
class RatesUnavailable(Exception):
    pass


def fetch_rates(base: str) -> dict:
    try:
        return httpx.get(f"https://rates.example.com/{base}").json()
    except httpx.HTTPError as e:
        message = f"rates service failed: {e}"MARK
        raise RatesUnavailable(message) from e
"""


def test_text_raised_through_a_local_is_silent_where_every_caller_catches_it() -> None:
    source = _src(
        RATES.replace("MARK", ""),
        """
        @mcp.tool()
        def convert(amount: float, base: str, target: str) -> float:
            try:
                rates = fetch_rates(base)
            except RatesUnavailable:
                raise ToolError(f"No rates for {base} right now; convert from USD instead")
            return amount * rates[target]
        """,
    )
    _check(source)


def test_text_raised_through_a_local_is_flagged_where_a_caller_lets_it_through() -> None:
    source = _src(
        RATES.replace("MARK", "  # expect: MCP002"),
        """
        @mcp.tool()
        def convert(amount: float, base: str, target: str) -> float:
            return amount * fetch_rates(base)[target]
        """,
    )
    finding = _only(source)
    assert "raises RatesUnavailable with the text of a caught httpx.HTTPError" in finding.message
    row = source.splitlines().index("        raise RatesUnavailable(message) from e") + 1
    tool = source.splitlines().index("def convert(amount: float, base: str, target: str) -> float:") + 1
    assert [(r.location.row, r.message) for r in finding.related] == [
        (row, "the text is raised here"),
        (tool, "tool 'convert' reaches this helper"),
    ]


def test_helpers_in_another_module_are_followed_through_transformed_values(tmp_path: Path) -> None:
    _write_tree(
        tmp_path,
        {
            "catalog/__init__.py": "",
            "catalog/queries.py": """\
                import httpx


                KNOWN = {"sales", "hr"}


                def list_tables(database: str) -> dict:
                    if database not in KNOWN:
                        return {"success": False, "error": f"Database {database} does not exist"}
                    try:
                        rows = httpx.get(f"https://db.example.com/{database}/tables").json()
                    except Exception as e:
                        return {"success": False, "error": str(e)}
                    return {"success": True, "tables": rows}


                def table_errors(database: str) -> dict:
                    problems = []
                    for table in ("a", "b"):
                        try:
                            httpx.get(f"https://db.example.com/{database}/{table}/check")
                        except httpx.HTTPError as e:
                            problems.append(f"{table}: {e}")
                    return {"problems": problems}
                """,
            "catalog/server.py": """\
                import json

                from fastmcp import FastMCP

                from catalog import queries

                mcp = FastMCP("catalog")


                @mcp.tool
                def show_tables(database: str) -> str:
                    result = queries.list_tables(database)
                    return json.dumps(result, indent=2)


                @mcp.tool
                def check_tables(database: str) -> str:
                    report = queries.table_errors(database)
                    return "\\n".join(report["problems"]) or "all tables fine"
                """,
        },
    )
    findings = _lint_tree(tmp_path)
    mcp002 = sorted((Path(f.filename).name, f.location.row, f.message) for f in findings if f.code == "MCP002")
    assert mcp002 == [
        ("queries.py", 13, "Helper 'list_tables' returns the text of a caught Exception as a normal result"),
        ("queries.py", 23, "Helper 'table_errors' returns the text of a caught httpx.HTTPError as a normal result"),
    ]
    mcp005 = {(Path(f.filename).name, f.location.row) for f in findings if f.code == "MCP005"}
    # Line 13 is MCP005 too once every rule reports its own defect on a shared statement.
    assert {("queries.py", 9)} <= mcp005 <= {("queries.py", 9), ("queries.py", 13)}
    assert {f.code for f in findings} == {"MCP002", "MCP005"}


WEATHER = """
def fetch_weather(city: str) -> dict:
    try:
        return httpx.get(f"https://weather.example.com/{city}").json()
    except Exception as e:
        return {"error": f"weather service failed: {e}"}MARK
"""


def test_helper_text_raised_by_the_tool_in_tool_error_is_flagged_once() -> None:
    source = _src(
        WEATHER.replace("MARK", "  # expect: MCP002"),
        """
        @mcp.tool()
        def weather(city: str) -> str:
            result = fetch_weather(city)
            if "error" in result:
                raise ToolError(result["error"])
            return json.dumps(result)
        """,
    )
    # Raising is the error channel: the error dict is not a failure returned as success.
    assert _only(source).message.startswith("Helper 'fetch_weather'")


def test_helper_text_replaced_by_the_tool_is_silent() -> None:
    source = _src(
        WEATHER.replace("MARK", ""),
        """
        @mcp.tool()
        def weather(city: str) -> str:
            result = fetch_weather(city)
            if "error" in result:
                raise ToolError(f"No weather for {city}; check the city name")
            return json.dumps(result)
        """,
    )
    _check(source)


# -- which items of a helper's value the tool returns ----------------------------------------------

ROWS = """
def load_rows(table: str) -> dict:
    try:
        rows = httpx.get(f"https://db.example.com/{table}").json()
    except Exception as e:
        return {"rows": [], "error": f"query failed: {e}"}MARK
    return {"rows": rows, "error": None}


def load_rows_into(table: str) -> dict:
    result = {"rows": []}
    try:
        result["rows"] = httpx.get(f"https://db.example.com/{table}").json()
    except Exception as e:
        result["error"] = str(e)MARK
    return result
"""


@pytest.mark.parametrize(
    "tool_body",
    [
        pytest.param("return json.dumps(load_rows(table)['rows'])", id="subscript"),
        pytest.param("result = load_rows(table)\nrows = result.get('rows', [])\nreturn json.dumps(rows)", id="get-through-locals"),
        pytest.param("return json.dumps(load_rows_into(table)['rows'])", id="stored-item-not-taken"),
    ],
)
def test_text_under_an_item_the_tool_does_not_return_is_silent(tool_body: str) -> None:
    body = textwrap.indent(tool_body, "    ")
    _check(_src(ROWS.replace("MARK", ""), "\n@mcp.tool()\ndef rows(table: str) -> str:\n" + body + "\n"))


@pytest.mark.parametrize(
    ("tool_body", "helper"),
    [
        pytest.param("result = load_rows(table)\nreturn result.get('error') or json.dumps(result['rows'])", "load_rows", id="get-the-error"),
        pytest.param("result = load_rows(table)\nreturn f\"{len(result['rows'])} rows ({result['error']})\"", "load_rows", id="error-item-in-f-string"),
        pytest.param("return json.dumps(load_rows_into(table))", "load_rows_into", id="stored-item-with-the-whole"),
    ],
)
def test_text_under_an_item_the_tool_returns_is_flagged(tool_body: str, helper: str) -> None:
    body = textwrap.indent(tool_body, "    ")
    marked = ROWS
    line = {"load_rows": '        return {"rows": [], "error": f"query failed: {e}"}MARK', "load_rows_into": '        result["error"] = str(e)MARK'}[helper]
    marked = marked.replace(line, line.replace("MARK", "  # expect: MCP002")).replace("MARK", "")
    finding = _only(_src(marked, "\n@mcp.tool()\ndef rows(table: str) -> str:\n" + body + "\n"))
    assert finding.message.startswith(f"Helper '{helper}'")


def test_a_local_bound_by_an_assignment_expression_is_followed() -> None:
    source = _src(
        LOOKUP,
        """
        @mcp.tool()
        def get_item(sku: str) -> str:
            if (result := lookup(sku)) is not None:
                return json.dumps(result)
            return "{}"
        """,
    )
    assert "reached from tool 'get_item'" in _only(source).notes


def test_a_helper_called_in_an_if_test_is_reached() -> None:
    source = _unmasked_src(
        """
        def ensure_reachable(url: str) -> bool:
            try:
                httpx.head(url).raise_for_status()
            except httpx.HTTPError as e:
                raise ToolError(f"{url} is unreachable: {e}")  # expect: MCP002
            return True


        @mcp.tool()
        def fetch_page(url: str) -> str:
            if ensure_reachable(url):
                return httpx.get(url).text
            return ""
        """
    )
    (finding,) = [f for f in _check(source) if f.code == "MCP002"]
    assert finding.message.startswith("Helper 'ensure_reachable' puts the text")


PAIR = """
def apply_style(name: str) -> tuple[bool, str]:
    try:
        httpx.post("https://styles.example.com/apply", json={"name": name}).raise_for_status()
    except Exception as e:
        return False, f"Could not apply {name}: {e}"MARK
    return True, f"Applied {name}"
"""


def test_the_element_of_a_returned_pair_the_tool_sends_is_flagged() -> None:
    source = _src(
        PAIR.replace("MARK", "  # expect: MCP002"),
        """
        @mcp.tool()
        def style(name: str) -> str:
            ok, message = apply_style(name)
            return message  # expect: MCP005
        """,
    )
    # The tool also returns the message without reading the flag: MCP005's own finding.
    [mcp002] = [f for f in _check(source) if f.code == "MCP002"]
    assert mcp002.message.startswith("Helper 'apply_style'")


def test_an_element_of_a_returned_pair_the_tool_does_not_send_is_silent() -> None:
    source = _src(
        PAIR.replace("MARK", ""),
        """
        @mcp.tool()
        def style(name: str) -> dict:
            ok, message = apply_style(name)
            logger.info(message)
            return {"applied": ok}
        """,
    )
    _check(source)


PAGE = """
def extract_text(html: str) -> str:
    if not html.strip():
        return "Error: the page is empty"MARK
    return html


def fetch_page(url: str) -> tuple[str, str]:
    response = httpx.get(url)
    return extract_text(response.text), response.headers.get("content-type", "")
"""


def test_a_helper_value_in_the_element_the_tool_takes_is_returned_whole() -> None:
    source = _unmasked_src(
        PAGE.replace("MARK", "  # expect: MCP005"),
        """
        @mcp.tool()
        def read_page(url: str) -> str:
            content, kind = fetch_page(url)
            return content
        """,
    )
    (finding,) = [f for f in _check(source) if f.code == "MCP005"]
    assert finding.message.startswith("Helper 'extract_text' returns a failure")


def test_a_helper_value_in_another_element_is_not_returned() -> None:
    source = _unmasked_src(
        PAGE.replace("MARK", ""),
        """
        @mcp.tool()
        def page_type(url: str) -> str:
            content, kind = fetch_page(url)
            return kind
        """,
    )
    _check(source)


def test_a_failure_among_collected_results_is_not_the_tools_failure() -> None:
    # MCP005 follows a helper's value into what the tool returns, but one element of a list the
    # tool builds is a per-item note, not the tool reporting its own failure.
    source = _src(
        """
        def summarize(sku: str) -> str:
            if sku not in ITEMS:
                return f"Error: unknown SKU {sku}"
            return ITEMS[sku]["name"]


        @mcp.tool()
        def summaries(skus: list[str]) -> str:
            lines = []
            for sku in skus:
                lines.append(summarize(sku))
            return "\\n".join(lines)
        """
    )
    _check(source)


def test_state_kept_on_self_is_not_a_local_value() -> None:
    source = _src(
        """
        class Pool:
            def __init__(self) -> None:
                self.conn = None

            def run(self, query: str) -> list:
                try:
                    return self._execute(self.conn, query)
                except Exception as e:
                    self.conn.last_error = str(e)
                    raise ToolError("The database query failed; check the SQL") from e

            def _execute(self, conn, query: str) -> list:
                return conn.execute(query)


        POOL = Pool()


        @mcp.tool()
        def run_query(query: str) -> list:
            return POOL.run(query)
        """
    )
    _check(source)


# -- a helper's list of content put into the tool's list ------------------------------------------

PROBES = """
async def probe(kind: str) -> list[TextContent]:
    try:
        return [TextContent(type="text", text=await run_probe(kind))]
    except Exception as e:
        return [TextContent(type="text", text=f"Probe failed: {e}")]  # expect: MCP002ALSO


async def run_probe(kind: str) -> str:
    async with httpx.AsyncClient() as client:
        reply = await client.get(f"https://probe.invalid/{kind}")
        return reply.text
"""


@pytest.mark.parametrize(
    "collect",
    [
        pytest.param("combined = []\ncombined.extend(await probe('disk'))\ncombined.extend(await probe('net'))", id="extend"),
        pytest.param("combined = []\ncombined += await probe('disk')\ncombined += await probe('net')", id="augmented"),
        pytest.param("combined = await probe('disk') + await probe('net')", id="concatenated"),
    ],
)
def test_a_helpers_content_extending_the_tools_list_is_the_tools_result(collect: str) -> None:
    # `x.extend(v)` is `x += v`: the helper's failure block is one of the blocks the tool returns,
    # as when the lists are added.
    body = textwrap.indent(collect + "\nreturn combined", "    ")
    source = _src(PROBES.replace("ALSO", ", MCP005"), "\n@mcp.tool()\nasync def health() -> list[TextContent]:\n" + body + "\n")
    _check(source)


def test_a_helpers_result_appended_as_one_item_among_others_is_not_the_tools_failure() -> None:
    # `results.append(v)`: v is one item of a batch; its failure is not the tool's (its text is).
    tool = """
        @mcp.tool()
        async def health(kinds: list[str]) -> str:
            results = []
            for kind in kinds:
                results.append(await probe(kind))
            return json.dumps([str(r) for r in results])
        """
    _check(_src(PROBES.replace("ALSO", ""), tool))


# -- the exception object kept in a local, its text taken later ----------------------------------

RETRY = """
async def fetch_stock(sku: str) -> dict:
    last_error = None
    for _ in range(3):
        try:
            async with httpx.AsyncClient() as client:
                reply = await client.get(f"https://stock.invalid/{sku}")
                return reply.json()
        except httpx.RequestError as e:
            KEEP
    raise RuntimeError(f"stock service unreachable after 3 tries: {last_error}")SENT


@mcp.tool()
async def stock(sku: str) -> dict:
    return await fetch_stock(sku)
"""


def test_an_exception_kept_whole_in_a_retry_loop_is_reported_where_its_text_is_formatted() -> None:
    # `last_error = e` keeps the object; the text is taken in the raise after the loop.
    source = _src(RETRY.replace("KEEP", "last_error = e").replace("SENT", "  # expect: MCP002"))
    finding = _only(source)
    assert finding.message == "Helper 'fetch_stock' raises RuntimeError with the text of a caught httpx.RequestError"


def test_the_bare_text_of_an_exception_kept_in_a_local_is_reported_where_it_is_formatted() -> None:
    # `last_error = str(e)` holds only the foreign text: the raise after the loop puts it into
    # the author's words, the flow's place (LABELING.md "where e is interpolated").
    source = _src(RETRY.replace("KEEP", "last_error = str(e)").replace("SENT", "  # expect: MCP002"))
    _only(source)


def test_the_text_of_an_exception_kept_in_a_local_with_words_is_reported_where_it_is_taken() -> None:
    # `last_error = f"timeout: {e}"` builds words of its own: reported there.
    source = _src(RETRY.replace("KEEP", 'last_error = f"timeout: {e}"  # expect: MCP002').replace("SENT", ""))
    _only(source)
