"""MCP002's fix of a clause whose `try` builds a project class whose construction raises the
author's own words (fix review 10, row 45 and 27 more clauses of its shape): `Client()` runs
`Client.__init__`, which calls the classmethod `Config.from_env()`, which raises
`ValueError("... is required")`. Followed like a direct call: no fix, the help says what to keep.
A method called on `self` reads the instance, built before the `try`: its constructor is not
followed (issue 23, the public corpus's conservative no-fix). Made-up servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_author_text import _builtin_let_through, _no_fix, _notes, _rewritten
from tests.test_fix_offered_equals_applied import run, write

CONFIG = """\
import os
from dataclasses import dataclass


class Config:
    def __init__(self, url: str, key: str) -> None:
        self.url = url
        self.key = key

    @classmethod
    def from_env(cls) -> "Config":
        url = os.getenv("NOTES_URL")
        if not url:
            raise ValueError("NOTES_URL environment variable is required")
        return cls(url, os.getenv("NOTES_KEY", ""))


class CheckedConfig:
    def __init__(self, url: str) -> None:
        if not url.startswith("https://"):
            raise ValueError("NOTES_URL must start with https://")
        self.url = url

    @classmethod
    def from_env(cls) -> "CheckedConfig":
        return cls(os.getenv("NOTES_URL", ""))


@dataclass
class Limits:
    size: int

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("NOTES_LIMIT must be a positive number")


class Plain:
    def __init__(self, raw: str) -> None:
        self.value = int(raw)
"""

CLIENT = """\
import httpx

from notes.config import CheckedConfig, Config, Limits, Plain


class Client:
    def __init__(self) -> None:
        self.config = Config.from_env()
        self.http = httpx.Client(base_url=self.config.url)

    def get(self, path: str) -> str:
        return self.http.get(path).text


def get_client() -> Client:
    return Client()


def checked_url() -> str:
    return CheckedConfig.from_env().url


def limits() -> Limits:
    return Limits(size=int("5"))


def plain() -> Plain:
    return Plain("5")
"""


def _server(root: Path, body: str) -> str:
    server = _notes(root, body).replace(
        "from notes.settings import", "from notes.client import checked_url, get_client, limits, plain\nfrom notes.settings import"
    )
    write(root / "notes/server.py", server)
    write(root / "notes/config.py", CONFIG)
    write(root / "notes/client.py", CLIENT)
    return server


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        # a helper -> a constructor -> a classmethod raising the setup sentence
        ('return get_client().get("/notes")', "the ValueError of from_env"),
        # a classmethod building the class with `cls(...)`, whose `__init__` raises
        ('return httpx.get(checked_url()).text', "the ValueError of __init__"),
    ],
)
def test_a_sentence_raised_while_building_a_class_is_let_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, kept: str
) -> None:
    # No library call of the `try` raises ValueError: `except ValueError: raise` first keeps the
    # sentence (fix review 12, #10); under `except ValueError` itself there is no fix (below).
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, body)
    _builtin_let_through(tmp_path, server, "ValueError")


def test_a_sentence_beside_a_library_call_raising_the_same_class_is_kept_by_offering_no_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # limits() builds a dataclass whose `__post_init__` raises the sentence, from `int("5")`,
    # which raises ValueError too: `except ValueError: raise` would let int()'s text through.
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, 'return httpx.get("https://notes.invalid/n", params={"n": limits().size}).text')
    why = ", and `except ValueError: raise` would also let int()'s ValueError through"
    _no_fix(tmp_path, server, "Exception", "the ValueError of __post_init__", why)


def test_a_constructor_raising_only_library_text_is_rewritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Plain("5") can raise int()'s ValueError only: nothing of the author's to keep.
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, 'return httpx.get("https://notes.invalid/n", params={"n": plain().value}).text')
    _rewritten(tmp_path, server, "Exception")


# --- a method reading `self` builds nothing (the public corpus's conservative no-fix) -------------

MIXIN_CLIENT = """\
import httpx


class NotesClient:
    def __init__(self, url: str, key_password: str | None = None) -> None:
        if key_password:
            raise ValueError("Encrypted keys are not supported; decrypt the key first")
        self.url = url
        self.http = httpx.Client(base_url=url)

    def _clean(self, text: str) -> str:
        _ = self.url if hasattr(self, "url") else ""
        return text.strip()
"""

MIXIN_COMMENTS = """\
import logging

from notes.client import NotesClient

logger = logging.getLogger(__name__)


class CommentsMixin(NotesClient):
    def add_comment(self, note_id: str, text: str) -> dict:
        try:
            body = self._clean(text)
            return self.http.post(f"/notes/{note_id}/comments", json={"body": body}).json()
        except Exception as e:
            logger.error(f"Error adding comment to {note_id}: {e}")
            raise Exception(f"Error adding comment: {e}") from e
"""

MIXIN_TOOLS = """\
from mcp.server.fastmcp import FastMCP

from notes.comments import CommentsMixin

mcp = FastMCP("notes")
client = CommentsMixin("https://notes.invalid")


@mcp.tool()
def add_comment(note_id: str, text: str) -> dict:
    \"\"\"Add a comment to a note.\"\"\"
    return client.add_comment(note_id, text)
"""


def test_a_method_of_the_instance_does_not_run_its_constructor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `self._clean(text)` reads `self`: the client was built before the `try`, its setup sentence
    # cannot come from this call, so the clause's library text is rewritten as any other.
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "notes"\ndependencies = ["mcp>=1.20,<2", "httpx"]\n')
    write(tmp_path / "notes/__init__.py", "")
    write(tmp_path / "notes/client.py", MIXIN_CLIENT)
    write(tmp_path / "notes/comments.py", MIXIN_COMMENTS)
    write(tmp_path / "notes/server.py", MIXIN_TOOLS)
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert 'help: Raise Exception("Error adding comment") from e' in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (tmp_path / "notes/comments.py").read_text() == MIXIN_COMMENTS.replace(
        '            raise Exception(f"Error adding comment: {e}") from e\n', '            raise Exception("Error adding comment") from e\n'
    ).replace('{note_id}: {e}")\n', '{note_id}: {e}", exc_info=True)\n')
