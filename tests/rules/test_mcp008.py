"""MCP008 message-lost-under-masking: a plain exception's author-written text, where the framework
masks it (mcp >= 2.1 MCPServer; fastmcp with mask_error_details=True; fastmcp 2.4.0).

Sources mark expected findings with `# expect: MCPnnn`; `check` asserts the exact set of every
rule's findings, so the other rules' verdicts on the same statements are pinned too.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mcp_lint.fixing.apply import fix_source
from mcp_lint.pipeline import lint_source

from ._support import said, check, lint_tree, only, write_tree

MCPSERVER_TOOL = """\
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("orders")
ORDERS: dict[int, str] = {}


@mcp.tool()
def get_order(order_id: int) -> str:
    if order_id not in ORDERS:
        raise ValueError(f"Order {order_id} not found; call list_orders for valid ids")  # expect: MCP008
    return ORDERS[order_id]
"""

FASTMCP_MASKED = """\
from fastmcp import FastMCP

app = FastMCP("billing", mask_error_details=True)
INVOICES: dict[str, float] = {}


def require_invoice(invoice_id: str) -> float:
    if invoice_id not in INVOICES:
        raise LookupError(f"Invoice {invoice_id} does not exist; call list_invoices")  # expect: MCP008
    return INVOICES[invoice_id]


@app.tool
def refund(invoice_id: str, amount: float) -> str:
    if amount <= 0:
        raise ValueError("amount must be positive (EUR, two decimals)")  # expect: MCP008
    total = require_invoice(invoice_id)
    return f"refunded {min(amount, total)}"
"""


# -- recall --------------------------------------------------------------------------------


def test_mcpserver_masks_a_value_error_raised_for_the_model() -> None:
    finding = only(MCPSERVER_TOOL)
    assert finding.message == "Tool 'get_order' raises ValueError for the model to read, but the framework masks its text"
    assert finding.notes[0] == "its text: 'Order … not found; call list_orders for valid ids'"
    assert "on mcp 2.1+ MCPServer (the newest release allowed)" in said(finding)
    assert 'it receives "Error executing tool get_order"' in said(finding)
    assert finding.help.startswith("Raise ToolError")


def test_mcpserver_pinned_release_is_named() -> None:
    finding = only(MCPSERVER_TOOL, target="mcp>=2.1,<3")
    assert "on mcp 2.1+ MCPServer (from [tool.mcp-lint] target)" in said(finding)


def test_fastmcp_with_masking_in_tool_and_helper() -> None:
    helper, tool = check(FASTMCP_MASKED)
    assert helper.message.startswith("Helper 'require_invoice' raises LookupError for the model to read")
    assert "on fastmcp with mask_error_details=True" in said(helper)
    assert "it receives \"Error calling tool 'refund'\"" in said(helper)
    assert tool.message.startswith("Tool 'refund' raises ValueError for the model to read")
    assert tool.notes[0] == "its text: 'amount must be positive (EUR, two decimals)'"


def test_fastmcp_2_4_masks_without_a_setting() -> None:
    source = FASTMCP_MASKED.replace('app = FastMCP("billing", mask_error_details=True)', 'app = FastMCP("billing")')
    helper, _tool = check(source, target="fastmcp==2.4.0")
    assert "on fastmcp 2.4 (from [tool.mcp-lint] target)" in said(helper)


def test_project_exception_class_and_builtin_subclass_are_flagged() -> None:
    check(
        """\
        import os

        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("files")


        class QuotaExceeded(Exception):
            pass


        @mcp.tool()
        def read_file(path: str) -> str:
            if not os.path.exists(path):
                raise FileNotFoundError(f"No file at {path}; call list_files for the paths")  # expect: MCP008
            if os.path.getsize(path) > 1_000_000:
                raise QuotaExceeded("File is larger than 1 MB; pass offset and limit")  # expect: MCP008
            with open(path) as handle:
                return handle.read()
        """
    )


# -- precision: the text reaches the model, or nobody relies on it ----------------------


def test_text_that_reaches_the_model_is_not_flagged() -> None:
    # mcp 1.x FastMCP, fastmcp without masking (2.5+), mcp 2.0: the text is forwarded (MCP003
    # and MCP002 judge it there); a low-level server is out of scope.
    mcp1 = MCPSERVER_TOOL.replace("from mcp.server.mcpserver import MCPServer", "from mcp.server.fastmcp import FastMCP").replace(
        'MCPServer("orders")', 'FastMCP("orders")'
    )
    fastmcp = MCPSERVER_TOOL.replace("from mcp.server.mcpserver import MCPServer", "from fastmcp import FastMCP").replace(
        'MCPServer("orders")', 'FastMCP("orders")'
    )
    for source, target in ((mcp1, None), (fastmcp, None), (MCPSERVER_TOOL, "mcp>=2.0,<2.1")):
        assert [f for f in lint_source(source, "server.py", target=target) if f.code == "MCP008"] == []


def test_tool_error_and_framework_classes_and_subclasses_are_delivered() -> None:
    check(
        """\
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ResourceError, ToolError

        mcp = MCPServer("orders")


        class OrderError(ToolError):
            pass


        @mcp.tool()
        def get_order(order_id: int) -> str:
            if order_id < 0:
                raise OrderError("order_id must be positive")
            if order_id == 0:
                raise ToolError("order 0 is reserved; pass an id from list_orders")
            if order_id > 10_000:
                raise ResourceError("orders above 10000 are archived; call get_archived_order")
            return "ok"
        """
    )


def test_internal_errors_vague_texts_and_reraised_library_text_are_not_relied_on() -> None:
    check(
        """\
        import httpx
        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("weather")


        @mcp.tool()
        async def forecast(city: str, days: int) -> str:
            if days == 0:
                raise NotImplementedError("same-day forecasts are not supported yet")
            if days < 0:
                raise RuntimeError("negative days: this should never happen")
            if not city:
                raise ValueError("Something went wrong")
            try:
                async with httpx.AsyncClient() as client:
                    response = await client.get(f"https://api.example.com/{city}")
                    response.raise_for_status()
            except httpx.HTTPError as e:
                raise RuntimeError(f"weather API failed: {e}") from e
            except KeyError:
                raise
            return response.text


        @mcp.tool()
        async def alerts(region: str) -> list[str]:
            async with httpx.AsyncClient() as client:
                try:
                    response = await client.get(f"https://api.example.com/alerts/{region}")
                    response.raise_for_status()
                except httpx.HTTPStatusError as e:
                    try:
                        detail = e.response.json()["detail"]
                    except Exception:
                        raise RuntimeError(f"alerts API error {e.response.status_code}: {e.response.text}") from e
                    raise RuntimeError(f"alerts API error: {detail}") from e
            payload = response.json()
            if not isinstance(payload, list):
                raise ValueError(f"alerts API result is not a list: {payload!r}")
            if not isinstance(payload[0], str):
                raise TypeError(f"unexpected item type {type(payload[0])}")
            return payload
        """
    )


def test_caught_again_on_the_way_is_not_flagged() -> None:
    check(
        """\
        import os

        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError

        mcp = MCPServer("files")


        class StoreError(Exception):
            pass


        class MissingFile(StoreError):
            pass


        def load(path: str) -> str:
            if not os.path.exists(path):
                raise FileNotFoundError(f"No file at {path}; call list_files first")
            return open(path).read()


        def stat(path: str) -> int:
            if not path.startswith("/data"):
                raise MissingFile(f"{path} is outside /data; pass a path under /data")
            return os.path.getsize(path)


        @mcp.tool()
        def read_file(path: str) -> str:
            try:
                size = stat(path)
                text = load(path)
            except OSError as e:
                raise ToolError(f"cannot read {path}; call list_files for readable paths") from e
            except StoreError as e:
                raise ToolError(str(e)) from e
            try:
                if size > 1000:
                    raise ValueError("file too large; pass a smaller file")
            except ValueError:
                return text[:1000]
            return text
        """
    )


def test_a_decorator_or_context_manager_that_converts_exceptions_is_trusted() -> None:
    check(
        """\
        from contextlib import contextmanager
        from functools import wraps
        from typing import Iterator

        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError

        mcp = MCPServer("git")


        class BadInput(Exception):
            pass


        @contextmanager
        def reported() -> Iterator[None]:
            try:
                yield
            except BadInput as e:
                raise ToolError(str(e)) from e


        def tool_errors(fn):
            @wraps(fn)
            def wrapper(*args, **kwargs):
                with reported():
                    return fn(*args, **kwargs)

            return wrapper


        def checkout(branch: str) -> str:
            if branch.startswith("-"):
                raise BadInput(f"Invalid branch name {branch!r}: cannot start with '-'")
            return branch


        @mcp.tool()
        @tool_errors
        def switch(branch: str) -> str:
            return checkout(branch)


        @mcp.tool()
        def delete_branch(branch: str) -> str:
            with reported():
                if branch == "main":
                    raise BadInput("main is protected; pass another branch")
            return "deleted"
        """
    )


def test_a_decorator_that_only_logs_does_not_hide_the_raise() -> None:
    check(
        """\
        import logging
        import time
        from functools import wraps

        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("git")
        logger = logging.getLogger(__name__)


        def timed(fn):
            @wraps(fn)
            def wrapper(*args, **kwargs):
                start = time.monotonic()
                result = fn(*args, **kwargs)
                logger.info("%s took %.2fs", fn.__name__, time.monotonic() - start)
                return result

            return wrapper


        @mcp.tool()
        @timed
        def switch(branch: str) -> str:
            if branch.startswith("-"):
                raise ValueError(f"Invalid branch name {branch!r}: cannot start with '-'")  # expect: MCP008
            return branch
        """
    )


@pytest.mark.parametrize("reraise", ["raise", "raise error"])
def test_a_decorator_that_notifies_and_re_raises_does_not_hide_the_raise(reraise: str) -> None:
    # The clause tells a hook and lets the same exception go on: the framework masks it as before.
    check(
        f"""\
        from functools import wraps

        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("git")


        async def notify(event: str, **details) -> None:
            ...


        def with_hooks(fn):
            @wraps(fn)
            async def wrapper(**kwargs):
                try:
                    return await fn(**kwargs)
                except Exception as error:
                    await notify("tool_failed", error=error)
                    {reraise}

            return wrapper


        @mcp.tool()
        @with_hooks
        async def switch(branch: str) -> str:
            if branch.startswith("-"):
                raise ValueError(f"Invalid branch name {{branch!r}}: cannot start with '-'")  # expect: MCP008
            return branch
        """
    )


def test_a_try_around_what_the_wrapper_does_after_the_call_does_not_hide_the_raise() -> None:
    # The decorator catches failures of its own announcement, not of the tool it wraps.
    check(
        """\
        from functools import wraps

        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("git")


        async def announce(result: str) -> None:
            ...


        def announced(fn):
            @wraps(fn)
            async def inner(*args, **kwargs):
                return await fn(*args, **kwargs)

            @wraps(fn)
            async def announcing(*args, **kwargs):
                result = await inner(*args, **kwargs)
                try:
                    await announce(result)
                except Exception:
                    pass
                return result

            return announcing


        @mcp.tool()
        @announced
        async def switch(branch: str) -> str:
            if branch.startswith("-"):
                raise ValueError(f"Invalid branch name {branch!r}: cannot start with '-'")  # expect: MCP008
            return branch
        """
    )


def test_a_helper_that_re_raises_the_same_exception_passes_it_on() -> None:
    # `raise e` of the clause's own exception is `raise`: the ValueError still reaches the framework.
    check(
        """\
        import logging

        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("notebooks")
        logger = logging.getLogger(__name__)
        CELLS: list[str] = []


        def read(cell_index: int) -> str:
            if cell_index >= len(CELLS):
                raise ValueError(f"Cell {cell_index} is out of range; the notebook has {len(CELLS)} cells")  # expect: MCP008
            return CELLS[cell_index]


        def load(cell_index: int) -> str:
            try:
                return read(cell_index)
            except Exception as e:
                logger.warning("reading cell %s failed: %s", cell_index, e)
                raise e


        @mcp.tool()
        def read_cell(cell_index: int) -> str:
            return load(cell_index)
        """
    )


def test_a_decorator_that_turns_failures_into_tool_errors_hides_the_raise() -> None:
    check(
        """\
        from functools import wraps

        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError

        mcp = MCPServer("git")


        def tool_errors(fn):
            @wraps(fn)
            async def wrapper(**kwargs):
                try:
                    return await fn(**kwargs)
                except ValueError as error:
                    raise ToolError(str(error)) from error

            return wrapper


        @mcp.tool()
        @tool_errors
        async def switch(branch: str) -> str:
            if branch.startswith("-"):
                raise ValueError(f"Invalid branch name {branch!r}: cannot start with '-'")
            return branch
        """
    )


def test_resource_handlers_are_not_tools() -> None:
    check(
        """\
        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("notes")


        @mcp.resource("note://{note_id}")
        def note(note_id: str) -> str:
            raise ValueError(f"Note {note_id} does not exist")
        """
    )


# -- fix ------------------------------------------------------------------------------------


def _fixed(source: str, *, unsafe: bool, target: str | None = None) -> str:
    text = textwrap.dedent(source)
    return fix_source(text, lambda t: [f for f in lint_source(t, target=target) if f.code == "MCP008"], unsafe=unsafe).fixed


def test_fix_raises_tool_error_and_imports_it() -> None:
    after = _fixed(MCPSERVER_TOOL, unsafe=False)
    assert "from mcp.server.mcpserver.exceptions import ToolError\n" in after
    assert 'raise ToolError(f"Order {order_id} not found; call list_orders for valid ids")' in after
    assert _fixed(after, unsafe=True) == after  # a second run changes nothing


def test_fix_in_a_helper_is_unsafe_and_reuses_the_import() -> None:
    source = FASTMCP_MASKED.replace("from fastmcp import FastMCP", "from fastmcp import FastMCP\nfrom fastmcp.exceptions import ToolError as TE")
    safe = _fixed(source, unsafe=False)
    assert 'raise LookupError(f"Invoice' in safe  # the helper's raise needs --unsafe-fixes
    assert 'raise TE("amount must be positive (EUR, two decimals)")' in safe
    unsafe = _fixed(source, unsafe=True)
    assert 'raise TE(f"Invoice {invoice_id} does not exist; call list_invoices")' in unsafe
    assert unsafe.count("import ToolError") == 1


def test_no_fix_when_a_caller_would_catch_the_tool_error_instead() -> None:
    findings = check(
        """\
        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("orders")


        def parse_id(text: str) -> int:
            if not text.isdigit():
                raise KeyError(f"order id {text!r} is not a number; pass digits only")  # expect: MCP008
            return int(text)


        @mcp.tool()
        def get_order(order_id: str) -> str:
            try:
                number = parse_id(order_id)
            except Exception:
                raise
            return str(number)
        """
    )
    assert findings[0].fix is not None  # a bare re-raise lets both classes through


def test_cross_module_helper_under_a_pinned_mcp(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "shop"\nversion = "1"\ndependencies = ["mcp>=2.2,<3"]\n',
            "shop/__init__.py": "",
            "shop/store.py": """\
                class OutOfStock(Exception):
                    pass


                def reserve(sku: str, qty: int) -> None:
                    if qty > 5:
                        raise OutOfStock(f"only 5 of {sku} left; pass qty <= 5")
                """,
            "shop/server.py": """\
                from mcp.server.mcpserver import MCPServer

                from shop.store import reserve

                mcp = MCPServer("shop")


                @mcp.tool()
                def buy(sku: str, qty: int) -> str:
                    reserve(sku, qty)
                    return "reserved"
                """,
        },
    )
    found = [f for f in lint_tree(tmp_path) if f.code == "MCP008"]
    assert [(Path(f.filename).name, f.location.row) for f in found] == [("store.py", 7)]
    assert "Helper 'reserve' raises OutOfStock for the model to read" in said(found[0])
    assert "on mcp 2.1+ MCPServer (from " in said(found[0])
    assert "pyproject.toml) only ToolError's text reaches the model" in said(found[0])


def test_an_error_handling_decorator_decides_what_the_framework_receives() -> None:
    check(
        """\
        import functools
        import logging

        from fastmcp import FastMCP
        from fastmcp.exceptions import ToolError

        app = FastMCP("tickets", mask_error_details=True)
        logger = logging.getLogger(__name__)


        def tool_errors(fn):
            @functools.wraps(fn)
            async def wrapper(*args, **kwargs):
                try:
                    return await fn(*args, **kwargs)
                except LookupError as e:
                    raise ToolError(str(e)) from e

            return wrapper


        @app.tool
        @tool_errors
        async def close_ticket(ticket_id: int) -> str:
            if ticket_id <= 0:
                raise LookupError(f"Ticket {ticket_id} does not exist; call list_tickets")
            return "closed"
        """
    )


_SHOP = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "1"\ndependencies = ["mcp>=2.2,<3"]\n',
    "shop/__init__.py": "",
    "shop/store.py": """\
        class StockError(Exception):
            pass


        class OutOfStock(StockError):
            pass


        def reserve(sku: str, qty: int) -> None:
            if qty > 5:
                raise OutOfStock(f"only 5 of {sku} left; pass qty <= 5")
        """,
    "shop/server.py": """\
        from mcp.server.mcpserver import MCPServer

        from shop.store import reserve

        mcp = MCPServer("shop")


        @mcp.tool()
        def buy(sku: str, qty: int) -> str:
            reserve(sku, qty)
            return "reserved"
        """,
}


@pytest.mark.parametrize(
    ("other_code", "fixable"),
    [
        pytest.param(None, True, id="nobody-else-tests-the-class"),
        # A command line without the server calls it (its `except ValueError` does not take the
        # class): that code runs outside any server and gets OutOfStock today (review 8).
        pytest.param("    try:\n        reserve(sku, 9)\n    except ValueError:\n        pass\n", False, id="a-cli-without-the-server-calls-it"),
        pytest.param("    try:\n        reserve(sku, 9)\n    except OutOfStock:\n        print('sold out')\n", False, id="a-cli-catches-it"),
        pytest.param("    try:\n        reserve(sku, 9)\n    except (KeyError,\n            store.StockError):\n        pass\n", False, id="its-base-caught"),
        pytest.param("    err = run(sku)\n    if isinstance(err, store.StockError):\n        print(err)\n", False, id="its-base-type-tested"),
    ],
)
def test_no_fix_replaces_a_project_class_that_other_code_catches_or_type_tests(
    tmp_path: Path, other_code: str | None, fixable: bool
) -> None:
    # Raising ToolError in place of OutOfStock would slip past a CLI's `except OutOfStock` or a
    # branch on `isinstance(err, StockError)`: that code breaks, whichever caller it is.
    files = dict(_SHOP)
    if other_code is not None:
        files["shop/cli.py"] = "from shop import store\nfrom shop.store import OutOfStock, reserve\n\n\ndef main(sku: str) -> None:\n" + other_code
    write_tree(tmp_path, files)
    found = [f for f in lint_tree(tmp_path) if f.code == "MCP008"]
    assert [(Path(f.filename).name, f.location.row) for f in found] == [("store.py", 11)]
    assert (found[0].fix is not None) is fixable
