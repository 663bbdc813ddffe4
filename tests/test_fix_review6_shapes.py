"""Fix shapes review 6 rejected on servers nobody here had read (issue 23), each with the code the
fix must write (or the code left as it was): the whole project fixed through the CLI, as a user
runs it on a directory (so the prefilter picks the files, as it does for them)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from mcp_lint.cli import cli
from tests.test_fixes import fixed


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "shop"\ndependencies = ["mcp>=1.20,<2"]\n')
    return tmp_path


def fix(*args: str) -> Result:
    return CliRunner().invoke(
        cli, ["check", ".", "--no-cache", "--jobs", "1", "--fix", "--unsafe-fixes", *args], catch_exceptions=False
    )


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def guard_module(passes_tool_errors: bool) -> str:
    """A project decorator around every tool whose last clause reports any exception as a bug."""
    let_through = "        except ToolError:\n            raise\n" if passes_tool_errors else ""
    return (
        "import functools\nimport logging\n\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
        "log = logging.getLogger(__name__)\n\n\n"
        "def guarded(func):\n"
        "    @functools.wraps(func)\n"
        "    async def wrapper(*args, **kwargs):\n"
        "        try:\n"
        "            return await func(*args, **kwargs)\n"
        f"{let_through}"
        "        except KeyError as e:\n"
        '            return {"error": f"Unknown key {e}", "hint": "Check the id."}\n'
        "        except Exception:\n"
        '            log.exception("tool failed")\n'
        '            return {"error": "Unexpected internal error", "hint": "This is a bug; report it."}\n'
        "\n    return wrapper\n"
    )


STOCK_TOOLS = """\
from ..guards import guarded


def register(mcp, store) -> None:
    @mcp.tool()
    @guarded
    async def count_items(shelf: str) -> dict:
        \"\"\"Count the items on a shelf.\"\"\"
        items = await store.items(shelf)
        if not items:
            return {"error": "No items on that shelf.", "hint": "List shelves with list_shelves."}
        return {"count": len(items)}

    @mcp.tool()
    @guarded
    async def list_shelves() -> dict:
        \"\"\"List the shelves.\"\"\"
        return {"shelves": await store.shelves()}
"""

SERVER = """\
from mcp.server.fastmcp import FastMCP

from .tools import stock

mcp = FastMCP("shop")
stock.register(mcp, None)
"""


def shop(project: Path, passes_tool_errors: bool) -> Path:
    """The decorator in a module of its own that imports nothing of a tool's: only the link step's
    lookup of the decorator brings it into a directory walk."""
    write(project / "shop" / "__init__.py", "")
    write(project / "shop" / "tools" / "__init__.py", "")
    (project / "shop" / "guards.py").write_text(guard_module(passes_tool_errors))
    write(project / "shop" / "tools" / "stock.py", STOCK_TOOLS)
    write(project / "shop" / "server.py", SERVER)
    return project / "shop" / "tools" / "stock.py"


def test_no_return_to_raise_inside_a_decorator_that_reports_any_exception_as_a_bug(project: Path) -> None:
    # The decorator's `except Exception` would turn the new ToolError into "Unexpected internal
    # error ... This is a bug": the model would read that instead of the tool's own answer.
    tools = shop(project, passes_tool_errors=False)
    result = fix()
    assert "Tool 'count_items' returns a failure dict as a normal result" in result.output
    assert tools.read_text() == STOCK_TOOLS


def test_return_to_raise_inside_a_decorator_that_lets_tool_errors_pass(project: Path) -> None:
    tools = shop(project, passes_tool_errors=True)
    fix()
    assert tools.read_text() == STOCK_TOOLS.replace(
        "from ..guards import guarded\n",
        "from mcp.server.fastmcp.exceptions import ToolError\n\nfrom ..guards import guarded\n",
    ).replace(
        'return {"error": "No items on that shelf.", "hint": "List shelves with list_shelves."}',
        'raise ToolError("No items on that shelf. List shelves with list_shelves.")',
    )


CODED_ERRORS = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("shop")


@mcp.tool()
def add_items(names: list[str]) -> dict:
    \"\"\"Add items to the basket.\"\"\"
    if len(names) > 1000:
        return {"error": {"code": "TOO_MANY_ITEMS", "message": "limit=1000"}}
    if len(names) > 500:
        return {"error": {"code": "ERROR", "message": "over 500"}}
    if len(names) > 100:
        return {"error": {"code": "too_many_items", "message": "Too many items: at most 100 at once."}}
    return {"added": len(names)}
"""


def test_an_error_dicts_code_goes_with_a_message_that_does_not_say_what_failed() -> None:
    # "limit=1000" alone does not say what exceeded the limit: the code beside it does. A code
    # that only says "error", or a message that already says what the code says, stays out.
    assert fixed(CODED_ERRORS) == CODED_ERRORS.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
    ).replace(
        'return {"error": {"code": "TOO_MANY_ITEMS", "message": "limit=1000"}}',
        'raise ToolError("TOO_MANY_ITEMS: limit=1000")',
    ).replace(
        'return {"error": {"code": "ERROR", "message": "over 500"}}',
        'raise ToolError("over 500")',
    ).replace(
        'return {"error": {"code": "too_many_items", "message": "Too many items: at most 100 at once."}}',
        'raise ToolError("Too many items: at most 100 at once.")',
    )


LAMPS = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("lamps")


class Lamps:
    def __init__(self) -> None:
        self.link = None

    def switch(self, lamp_id: str, on: bool) -> bool:
        if self.link is None:
            raise Exception("Not connected to the lamp hub")
        self.link.send(lamp_id, on)
        return True


lamps = Lamps()


@mcp.tool()
def turn_off(lamp_id: str) -> str:
    \"\"\"Turn a lamp off.\"\"\"
    try:
        lamps.switch(lamp_id, False)
        return f"Lamp {lamp_id} is off"
    except Exception as e:
        return f"Error turning off lamp {lamp_id}: {str(e)}"


@mcp.tool()
def turn_on(lamp_id: str) -> str:
    \"\"\"Turn a lamp on.\"\"\"
    try:
        lamps.link.send(lamp_id, True)
        return f"Lamp {lamp_id} is on"
    except Exception as e:
        return f"Error turning on lamp {lamp_id}: {str(e)}"
"""


def test_a_broad_clause_that_carries_a_helpers_own_plain_exception_text_is_not_rewritten() -> None:
    # `switch` raises a plain Exception with the author's words ("Not connected ..."): the clause
    # catching it cannot be preceded by `except Exception: raise`, and a rewritten text would
    # tell the model "Error turning off lamp 3" instead of what to do. `turn_on` calls the
    # library only: its clause is rewritten.
    assert fixed(LAMPS) == LAMPS.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "import logging\n\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
        "logger = logging.getLogger(__name__)\n",
    ).replace(
        '        return f"Error turning on lamp {lamp_id}: {str(e)}"\n',
        '        logger.exception("Error turning on lamp %s", lamp_id)\n'
        '        raise ToolError(f"Error turning on lamp {lamp_id}") from e\n',
    )
