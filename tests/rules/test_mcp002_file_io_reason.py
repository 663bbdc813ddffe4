"""MCP002's fix keeps the kind of error the OS reported for a broad clause around file I/O alone
(issue 23, review 13's #10): `except Exception as e` whose `try` only opens and reads the model's
own path can only catch the OS's error (or a decode error), so `{type(e).__name__}`
(FileNotFoundError, PermissionError, IsADirectoryError) says what the next call can change, as it
does for `except OSError`; the class name holds no path and no text (`e.strerror` is the
exception's text: MCP002 reports it). Around any other call the class could be anyone's: none."""

from __future__ import annotations

import pytest

from tests.test_fixes import fixed

HEAD = """\
import logging

from mcp.server.fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("notes")


"""

READ = """\
@mcp.tool()
def read_note(path: str) -> str:
    \"\"\"Read a note file.\"\"\"
    try:
        with open(path) as handle:
            return handle.read()
    except {caught} as e:
        raise ValueError(f"Error reading note: {{e}}")
"""


@pytest.mark.parametrize("caught", ["Exception", "OSError"])
def test_file_io_alone_keeps_the_os_errors_class(caught: str) -> None:
    out = fixed(HEAD + READ.format(caught=caught))
    assert out == HEAD + (
        "@mcp.tool()\n"
        "def read_note(path: str) -> str:\n"
        '    """Read a note file."""\n'
        "    try:\n"
        "        with open(path) as handle:\n"
        "            return handle.read()\n"
        f"    except {caught} as e:\n"
        '        raise ValueError(f"Error reading note (path: {path}, {type(e).__name__})") from e\n'
    )
    assert fixed(out) == out  # clean: nothing left to fix


def test_a_path_read_text_keeps_it_too() -> None:
    source = HEAD + (
        "@mcp.tool()\n"
        "def read_note(path: str) -> str:\n"
        '    """Read a note file."""\n'
        "    try:\n"
        "        return Path(path).read_text()\n"
        "    except Exception as e:\n"
        '        raise ValueError(f"Error reading note: {e}")\n'
    )
    source = source.replace("import logging\n", "import logging\nfrom pathlib import Path\n")
    assert 'raise ValueError(f"Error reading note (path: {path}, {type(e).__name__})") from e\n' in fixed(source)


def test_another_call_beside_the_read_keeps_no_class() -> None:
    # The clause also catches whatever the parser raises: its class names nothing the OS said.
    source = HEAD.replace("import logging\n", "import json\nimport logging\n") + (
        "@mcp.tool()\n"
        "def read_note(path: str) -> dict:\n"
        '    """Read a note file."""\n'
        "    try:\n"
        "        with open(path) as handle:\n"
        "            return json.loads(handle.read())\n"
        "    except Exception as e:\n"
        '        raise ValueError(f"Error reading note: {e}")\n'
    )
    out = fixed(source)
    assert "type(e).__name__" not in out
    assert 'raise ValueError(f"Error reading note (path: {path})") from e\n' in out
