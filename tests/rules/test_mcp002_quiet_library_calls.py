"""MCP002: library calls that cannot raise the caught builtin class do not hide who wrote its text.

A tool's `except RuntimeError: return str(e)` around a method of the project's own object is the
author's sentence when every `raise` of the class on the way is the author's. Logging calls, the
module logger's methods, encoders, digests, URL builders, `secrets` and `next` raise nothing such a
clause sees (model.library_tables): before, each counted as "may raise anything", the origin stayed
unknown, and the file's verdict (foreign) reported the author's own text. A library call that may
raise the class (HTTP, a decoder of fetched bytes) still decides the other way.
"""

from __future__ import annotations

from pathlib import Path

from ._support import lint_tree, write_tree

SERVER = """\
import os

from fastmcp import FastMCP

from keys.signin import SignIn

mcp = FastMCP("keys")
APP_KEY = os.environ.get("APP_KEY")
signin = SignIn()


@mcp.tool
def start_sign_in() -> str:
    \"\"\"Begin the sign-in and give the link to open.\"\"\"
    try:
        link = signin.link(APP_KEY)
        return f"Open {link} and then call finish_sign_in"
    except RuntimeError as e:
        return str(e)
"""

SIGNIN = """\
import base64
import hashlib
import logging
import secrets
from urllib.parse import urlencode

logger = logging.getLogger(__name__)


class SignIn:
    def __init__(self) -> None:
        self.verifier = ""

    def _challenge(self) -> str:
        self.verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode("ascii").rstrip("=")
        digest = hashlib.sha256(self.verifier.encode("ascii")).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def link(self, key: str | None) -> str:
        if not key:
            raise RuntimeError("APP_KEY is not set: export it and restart the server")
        query = urlencode({"client_id": key, "challenge": self._challenge()})
        logger.info("sign-in link made")
        EXTRA
        return f"https://signin.invalid/authorize?{query}"
"""


def _mcp002(root: Path, signin: str) -> list[tuple[str, int]]:
    write_tree(root, {"keys/__init__.py": "", "keys/server.py": SERVER, "keys/signin.py": signin})
    return [(Path(f.filename).name, f.location.row) for f in lint_tree(root) if f.code == "MCP002"]


def test_the_authors_runtime_error_behind_logging_and_encoders_is_not_reported(tmp_path: Path) -> None:
    assert _mcp002(tmp_path, SIGNIN.replace("EXTRA", "pass")) == []


def test_a_request_beside_them_may_raise_the_class_and_is_still_reported(tmp_path: Path) -> None:
    signin = SIGNIN.replace("import base64", "import base64\n\nimport httpx").replace(
        "EXTRA", 'httpx.post("https://signin.invalid/register", data={"key": key})'
    )
    assert _mcp002(tmp_path, signin) == [("server.py", 19)]


def test_a_logger_method_of_an_object_that_is_no_logger_still_counts(tmp_path: Path) -> None:
    # `notices.warning(...)`: a method of an object the project does not resolve may raise anything.
    signin = SIGNIN.replace("logger = logging.getLogger(__name__)", "logger = logging.getLogger(__name__)\nnotices = make_notices()").replace(
        "EXTRA", 'notices.warning("sign-in link made")'
    )
    assert _mcp002(tmp_path, signin) == [("server.py", 19)]


STORE_SERVER = """\
from fastmcp import FastMCP

from shelf.store import Store

mcp = FastMCP("shelf")
store = Store()


@mcp.tool
def pick_shelf(shelf_id: str) -> str:
    \"\"\"Make a shelf the current one.\"\"\"
    try:
        shelf = store.select(shelf_id)
    except ValueError as exc:
        return f"Could not select: {exc}"
    return f"Current shelf: {shelf['name']}"
"""

STORE = """\
import json
from pathlib import Path


class Store:
    def __init__(self) -> None:
        self.shelves = [{"id": "s1", "name": "Front"}]

    def select(self, shelf_id: str) -> dict:
        LOAD
        shelf = next((s for s in self.shelves if s["id"] == shelf_id), None)
        if shelf is None:
            raise ValueError(f"no shelf {shelf_id}; call list_shelves for the ids")
        return shelf
"""


def _store_findings(root: Path, load: str) -> list[tuple[str, int]]:
    write_tree(root, {"shelf/__init__.py": "", "shelf/server.py": STORE_SERVER, "shelf/store.py": STORE.replace("LOAD", load)})
    return [(Path(f.filename).name, f.location.row) for f in lint_tree(root) if f.code == "MCP002"]


def test_a_lookup_with_next_and_the_authors_value_error_is_not_reported(tmp_path: Path) -> None:
    assert _store_findings(tmp_path, "pass") == []


def test_a_decoded_file_beside_the_lookup_is_library_text_and_is_reported(tmp_path: Path) -> None:
    load = 'self.shelves = json.loads(Path("shelves.json").read_text())'
    assert _store_findings(tmp_path, load) == [("server.py", 15)]


def _kept_logger(made: str) -> str:
    return SIGNIN.replace('self.verifier = ""', f'self.verifier = ""\n        self.log = {made}').replace(
        'logger.info("sign-in link made")', 'self.log.info("sign-in link made")'
    )


def test_a_logger_the_class_keeps_raises_nothing(tmp_path: Path) -> None:
    assert _mcp002(tmp_path, _kept_logger("logging.getLogger(__name__)").replace("EXTRA", "pass")) == []


def test_another_object_the_class_keeps_still_counts(tmp_path: Path) -> None:
    assert _mcp002(tmp_path, _kept_logger("make_notices()").replace("EXTRA", "pass")) == [("server.py", 19)]
