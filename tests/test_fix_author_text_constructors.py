"""MCP002's fix of a clause whose `try` builds a project class whose construction raises the
author's own words (fix review 10, row 45 and 27 more clauses of its shape): `Client()` runs
`Client.__init__`, which calls the classmethod `Config.from_env()`, which raises
`ValueError("... is required")`. Followed like a direct call: no fix, the help says what to keep.
Made-up servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_author_text import _no_fix, _notes, _rewritten
from tests.test_fix_offered_equals_applied import write

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
        # a dataclass's `__post_init__`
        ('return httpx.get("https://notes.invalid/n", params={"n": limits().size}).text', "the ValueError of __post_init__"),
    ],
)
def test_a_sentence_raised_while_building_a_class_is_kept_by_offering_no_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, kept: str
) -> None:
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, body)
    _no_fix(tmp_path, server, "Exception", kept)


def test_a_constructor_raising_only_library_text_is_rewritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Plain("5") can raise int()'s ValueError only: nothing of the author's to keep.
    monkeypatch.chdir(tmp_path)
    server = _server(tmp_path, 'return httpx.get("https://notes.invalid/n", params={"n": plain().value}).text')
    _rewritten(tmp_path, server, "Exception")
