"""MCP002: a caught file-system class (`except PermissionError`) is the author's text where only
the project's own raises of it reach the clause (a policy check's refusal), and a library's where a
file-system call in the `try` body, or in a helper handed the call's data, may raise it too
(model.escapes: `EscapeLinks.verdict` for FILE_SYSTEM_ERRORS)."""

from __future__ import annotations

from pathlib import Path

from ._support import check, lint_tree, write_tree

POLICY = """\
from typing import Optional


class Policy:
    def __init__(self, blocked):
        self._blocked = list(blocked)

    def assert_allowed(self, kind: str) -> None:
        if kind in self._blocked:
            raise PermissionError(f"Kind '{kind}' is blocked by policy")


_policy: Optional[Policy] = None


def load_policy() -> Policy:
    with open("/etc/shop/policy.txt") as handle:
        return Policy(handle.read().split())


def get_policy() -> Policy:
    global _policy
    if _policy is None:
        _policy = load_policy()
    return _policy
"""

SERVER = """\
import httpx
from fastmcp import FastMCP

from shop.rules import get_policy
{extra_import}
mcp = FastMCP("shop")


@mcp.tool
def list_items(kind: str) -> dict:
    try:
        policy = get_policy()
        policy.assert_allowed(kind)
        {extra_call}
        reply = httpx.get(f"https://shop.invalid/{{kind}}")
        return {{"items": reply.json()}}
    except PermissionError as e:
        return {{"error": str(e)}}
"""


def _mcp002(root: Path, files: dict[str, str]) -> list[tuple[str, int]]:
    write_tree(root, {"shop/__init__.py": "", "shop/rules.py": POLICY, **files})
    return [(Path(f.filename).name, f.location.row) for f in lint_tree(root) if f.code == "MCP002"]


def test_a_policy_refusal_of_the_projects_own_is_not_reported(tmp_path: Path) -> None:
    server = SERVER.format(extra_import="", extra_call="pass")
    assert _mcp002(tmp_path, {"shop/server.py": server}) == []


def test_a_helper_handed_the_calls_data_that_reads_a_file_keeps_it_foreign(tmp_path: Path) -> None:
    store = """\
    def read_saved(kind: str) -> str:
        with open(f"/var/shop/{kind}.json") as handle:
            return handle.read()
    """
    server = SERVER.format(extra_import="from shop.store import read_saved\n", extra_call="read_saved(kind)")
    assert _mcp002(tmp_path, {"shop/server.py": server, "shop/store.py": store}) == [("server.py", 19)]


def test_a_file_read_in_the_try_body_itself_keeps_it_foreign(tmp_path: Path) -> None:
    server = SERVER.format(extra_import="from pathlib import Path\n", extra_call='Path(f"/var/shop/{kind}").read_text()')
    assert _mcp002(tmp_path, {"shop/server.py": server}) == [("server.py", 19)]


def test_in_one_module_the_authors_raise_alone_is_not_reported() -> None:
    check(
        """\
        import httpx
        from fastmcp import FastMCP

        mcp = FastMCP("shop")
        BLOCKED = {"secret"}


        @mcp.tool
        def list_items(kind: str) -> dict:
            try:
                if kind in BLOCKED:
                    raise PermissionError(f"Kind '{kind}' is blocked by policy")
                return {"items": httpx.get(f"https://shop.invalid/{kind}").json()}
            except PermissionError as e:
                return {"error": str(e)}  # expect: MCP005
        """
    )


def test_in_one_module_a_path_method_beside_the_authors_raise_is_reported() -> None:
    check(
        """\
        from pathlib import Path

        from fastmcp import FastMCP

        mcp = FastMCP("shop")
        ROOT = Path("/var/shop")


        @mcp.tool
        def remove_report(name: str) -> dict:
            target = ROOT / name
            try:
                if target.suffix != ".csv":
                    raise PermissionError(f"Only reports can be removed, not {name!r}")
                target.unlink()
                return {"removed": name}
            except PermissionError as e:
                return {"error": str(e)}  # expect: MCP002, MCP005
        """
    )


def test_with_no_raise_of_the_authors_the_class_stays_foreign() -> None:
    check(
        """\
        from fastmcp import FastMCP

        from shop import storage

        mcp = FastMCP("shop")


        @mcp.tool
        def read_report(name: str) -> dict:
            try:
                return {"text": storage.fetch(name)}
            except FileNotFoundError as e:
                return {"error": str(e)}  # expect: MCP002, MCP005
        """
    )


def test_a_helper_opening_the_path_it_is_handed_keeps_it_foreign(tmp_path: Path) -> None:
    store = """\
    def read_saved(path: str) -> str:
        with open(path) as handle:
            return handle.read()
    """
    server = SERVER.format(extra_import="from shop.store import read_saved\n", extra_call="read_saved(kind)")
    assert _mcp002(tmp_path, {"shop/server.py": server, "shop/store.py": store}) == [("server.py", 19)]


def test_reading_the_environment_beside_the_authors_raise_is_not_a_file_system_call() -> None:
    check(
        """\
        import os

        from fastmcp import FastMCP

        mcp = FastMCP("shop")


        @mcp.tool
        def list_items(kind: str) -> dict:
            try:
                if kind in os.getenv("SHOP_BLOCKED", "").split(","):
                    raise PermissionError(f"Kind '{kind}' is blocked by policy")
                return {"items": [kind]}
            except PermissionError as e:
                return {"error": str(e)}  # expect: MCP005
        """
    )


def test_an_os_file_function_beside_the_authors_raise_keeps_it_foreign() -> None:
    check(
        """\
        import os

        from fastmcp import FastMCP

        mcp = FastMCP("shop")


        @mcp.tool
        def remove_item(path: str) -> dict:
            try:
                if not path.endswith(".json"):
                    raise PermissionError(f"Only items can be removed, not {path!r}")
                os.remove(path)
                return {"removed": path}
            except PermissionError as e:
                return {"error": str(e)}  # expect: MCP002, MCP005
        """
    )
