"""MCP002's fix of a clause whose `try` calls project code raising the author's own words in a
builtin class or through pydantic's ValidationError (issue 23, review 9's "lost hint" rejects):
a config getter's `ValueError("... must be set")`, a model validator's sentence, pydantic's field
errors for the tool's own arguments. A rewritten message would drop them. pydantic's class is let
through before the rewritten clause (`except ValidationError: raise`, issue 23's "keep the author's
text instead of withholding the fix") where the clause only reports; a builtin class cannot be let
through without the library's text of the same class: the finding stays, with no fix and a help
line saying what to keep. Made-up servers; each case with the code left or written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import run, write

PYPROJECT = '[project]\nname = "notes"\ndependencies = ["mcp>=1.20,<2", "httpx", "pydantic>=2"]\n'

SETTINGS = """\
import json
import os

from pydantic import BaseModel, field_validator


class Settings(BaseModel):
    token: str
    url: str = "https://notes.invalid"
{validator}

class PlainSettings(BaseModel):
    token: str


def get_settings() -> Settings:
    return Settings(token=os.getenv("NOTES_TOKEN", ""), url=os.getenv("NOTES_URL", "https://notes.invalid"))


def get_plain_settings() -> PlainSettings:
    return PlainSettings.model_validate({{"token": os.getenv("NOTES_TOKEN")}})


def get_credentials() -> tuple[str, str]:
    key = os.getenv("NOTES_KEY")
    secret = os.getenv("NOTES_SECRET")
    if not key or not secret:
        raise ValueError("NOTES_KEY and NOTES_SECRET environment variables must be set")
    return key, secret


def parse_credentials() -> tuple[str, str]:
    try:
        raw = json.loads(os.environ["NOTES_AUTH"])
    except json.JSONDecodeError as exc:
        raise ValueError(f"NOTES_AUTH is not JSON: {{exc}}") from exc
    return raw["key"], raw["secret"]


def lookup_key(name: str) -> str:
    keys = {{"a": "1"}}
    if name not in keys:
        raise KeyError("No such key; use one of: a")
    return keys[name]
"""

VALIDATOR = """
    @field_validator("token")
    @classmethod
    def token_set(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("NOTES_TOKEN cannot be empty: set it in the server's environment")
        return value
"""

SERVER = """\
import logging

import httpx
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel

from notes.settings import get_credentials, get_plain_settings, get_settings, lookup_key, parse_credentials

logger = logging.getLogger(__name__)
mcp = FastMCP("notes")


class NoteInput(BaseModel):
    title: str
    body: str = ""


def make_client() -> httpx.Client:
    settings = get_settings()
    return httpx.Client(base_url=settings.url, headers={{"Authorization": settings.token}})


@mcp.tool()
def list_notes() -> str:
    \"\"\"List the notes.\"\"\"
    try:
        {body}
    except {caught} as e:
        return f"Error listing notes: {{e}}"
"""


def _notes(root: Path, body: str, caught: str = "Exception", validator: bool = True) -> str:
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "notes/__init__.py", "")
    write(root / "notes/settings.py", SETTINGS.format(validator=VALIDATOR if validator else ""))
    server = SERVER.format(body=body, caught=caught)
    write(root / "notes/server.py", server)
    return server


def _no_fix(root: Path, server: str, caught: str, kept: str, why: str = "") -> None:
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert f": MCP002 Tool 'list_notes' returns the text of a caught {caught} as a normal result" in listed.output, listed.output
    help_line = f"help: Keep {kept} in the message; a new one would drop it{why} (no fix)"
    assert help_line in listed.output, listed.output
    assert "MCP002 [*]" not in listed.output
    run("--fix", "--unsafe-fixes")
    assert (root / "notes/server.py").read_text() == server


def _let_through(root: Path, server: str, caught: str, imported: tuple[str, str] | None = None) -> None:
    """The clause rewritten with `except ValidationError: raise` first: pydantic's errors (the
    author's validator sentence, the field errors for the tool's arguments) keep their text."""
    listed = run("--unsafe-fixes", "--output-format", "full")
    help_line = 'help: Log the exception and raise ToolError("Error listing notes") from e; let ValidationError through'
    assert help_line in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    old_import, new_import = imported or ("from pydantic import BaseModel\n", "from pydantic import BaseModel, ValidationError\n")
    assert (root / "notes/server.py").read_text() == server.replace(
        f'    except {caught} as e:\n        return f"Error listing notes: {{e}}"\n',
        "    except ValidationError:\n        raise\n"
        f'    except {caught} as e:\n        logger.exception("Error listing notes")\n        raise ToolError("Error listing notes") from e\n',
    ).replace("from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n").replace(old_import, new_import)
    assert "MCP002" not in run("--unsafe-fixes").output  # converged: nothing left to fix


def _builtin_let_through(root: Path, server: str, cls: str) -> None:
    """The clause rewritten with `except ValueError: raise` first: the author's sentence in a
    builtin class that no library call of the `try` raises keeps its text (fix review 12, #10)."""
    listed = run("--unsafe-fixes", "--output-format", "full")
    help_line = f'help: Log the exception and raise ToolError("Error listing notes") from e; let {cls} through'
    assert help_line in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (root / "notes/server.py").read_text() == server.replace(
        '    except Exception as e:\n        return f"Error listing notes: {e}"\n',
        f"    except {cls}:\n        raise\n"
        '    except Exception as e:\n        logger.exception("Error listing notes")\n        raise ToolError("Error listing notes") from e\n',
    ).replace("from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n")
    assert "MCP002" not in run("--unsafe-fixes").output  # converged: nothing left to fix


def _rewritten(root: Path, server: str, caught: str) -> None:
    listed = run("--unsafe-fixes", "--output-format", "full")
    assert 'help: Log the exception and raise ToolError("Error listing notes") from e' in listed.output, listed.output
    run("--fix", "--unsafe-fixes")
    assert (root / "notes/server.py").read_text() == server.replace(
        f'    except {caught} as e:\n        return f"Error listing notes: {{e}}"\n',
        f'    except {caught} as e:\n        logger.exception("Error listing notes")\n        raise ToolError("Error listing notes") from e\n',
    ).replace("from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n")


# --- (a) a builtin class the project raises with the author's words ------------------------------


@pytest.mark.parametrize("caught", ["Exception", "ValueError"])
def test_a_config_getters_value_error_is_kept_by_offering_no_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caught: str) -> None:
    # get_credentials() says which variables are missing; `response.json()` raises ValueError too
    # (its JSONDecodeError), so `except ValueError: raise` would let the library's text through.
    monkeypatch.chdir(tmp_path)
    body = 'key, secret = get_credentials()\n        return str(httpx.get("https://notes.invalid/n", auth=(key, secret)).json()["n"])'
    server = _notes(tmp_path, body, caught)
    why = ", and `except ValueError: raise` would also let json()'s ValueError through" if caught == "Exception" else ""
    _no_fix(tmp_path, server, caught, "the ValueError of get_credentials", why)


def test_a_value_error_built_from_library_text_is_rewritten_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # parse_credentials() raises ValueError only with json's text: nothing of the author's to keep.
    monkeypatch.chdir(tmp_path)
    body = 'key, secret = parse_credentials()\n        return httpx.get("https://notes.invalid/n", auth=(key, secret)).text'
    server = _notes(tmp_path, body)
    _rewritten(tmp_path, server, "Exception")


def test_an_authors_key_error_does_not_stop_a_value_error_clause_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # lookup_key() raises KeyError with its advice: `except ValueError` never catches it.
    monkeypatch.chdir(tmp_path)
    body = 'key = lookup_key("a")\n        return str(httpx.get(f"https://notes.invalid/{key}").json()["n"])'
    server = _notes(tmp_path, body, "ValueError")
    _rewritten(tmp_path, server, "ValueError")


def test_an_authors_key_error_under_a_broad_clause_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    body = 'key = lookup_key("a")\n        return str(httpx.get(f"https://notes.invalid/{key}").json()["n"])'
    server = _notes(tmp_path, body)
    _no_fix(tmp_path, server, "Exception", "the KeyError of lookup_key")


# --- (b) a validator's sentence in pydantic's ValidationError -------------------------------------


def test_a_validator_sentence_two_calls_down_is_let_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # make_client() -> get_settings() builds Settings, whose validator says what to set: pydantic's
    # ValidationError carries it, and only pydantic raises that class.
    monkeypatch.chdir(tmp_path)
    server = _notes(tmp_path, 'return make_client().get("/notes").text')
    _let_through(tmp_path, server, "Exception")


def test_the_pass_through_imports_pydantics_class_in_the_third_party_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The server module itself names nothing of pydantic: the import goes where isort puts it.
    monkeypatch.chdir(tmp_path)
    _notes(tmp_path, 'return make_client().get("/notes").text')
    server = (tmp_path / "notes/server.py").read_text()
    server = server.replace("from pydantic import BaseModel\n", "").replace('class NoteInput(BaseModel):\n    title: str\n    body: str = ""\n\n\n', "")
    write(tmp_path / "notes/server.py", server)
    tool_error = "from mcp.server.fastmcp.exceptions import ToolError\n"
    _let_through(tmp_path, server, "Exception", imported=(tool_error, tool_error + "from pydantic import ValidationError\n"))


def test_a_clause_that_cleans_up_keeps_offering_no_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The pass-through would skip the clause's `client.close()` for pydantic's errors.
    monkeypatch.chdir(tmp_path)
    server = _notes(tmp_path, 'client = make_client()\n        return client.get("/notes").text').replace(
        '    except Exception as e:\n        return f"Error listing notes: {e}"\n',
        '    except Exception as e:\n        client.close()\n        return f"Error listing notes: {e}"\n',
    )
    server = server.replace("def list_notes() -> str:\n", "def list_notes() -> str:\n    client = httpx.Client()\n").replace(
        '    \"\"\"List the notes.\"\"\"\n', ""
    )
    write(tmp_path / "notes/server.py", server)
    _no_fix(tmp_path, server, "Exception", "the text of Settings.token_set")


def test_a_model_without_validators_built_from_the_environment_is_rewritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No sentence of the author's: pydantic's own text about the configuration, as any library's.
    monkeypatch.chdir(tmp_path)
    server = _notes(tmp_path, 'return httpx.get("https://notes.invalid/n", headers={"t": get_plain_settings().token}).text')
    _rewritten(tmp_path, server, "Exception")


def test_a_validation_error_taken_by_an_earlier_clause_does_not_stop_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    body = 'return make_client().get("/notes").text\n    except ValueError:\n        raise'
    server = _notes(tmp_path, body)
    _rewritten(tmp_path, server, "Exception")


# --- (c) pydantic's field errors for the tool's own arguments -------------------------------------


@pytest.mark.parametrize(
    "built", ["NoteInput(**note)", "NoteInput(title=note['title'])", "NoteInput.model_validate(note)"]
)
def test_a_model_built_from_the_tools_argument_lets_its_field_errors_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, built: str) -> None:
    monkeypatch.chdir(tmp_path)
    server = _notes(tmp_path, f'data = {built}\n        return httpx.post("https://notes.invalid/notes", json=data.model_dump()).text')
    server = server.replace("def list_notes() -> str:", "def list_notes(note: dict) -> str:")
    write(tmp_path / "notes/server.py", server)
    _let_through(tmp_path, server, "Exception")


def test_a_model_built_from_an_upstream_reply_is_rewritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # pydantic's errors about the service's reply are library text about data the model never wrote.
    monkeypatch.chdir(tmp_path)
    server = _notes(tmp_path, 'return NoteInput(**httpx.get("https://notes.invalid/n").json()).title')
    _rewritten(tmp_path, server, "Exception")


def test_a_model_validated_from_keyword_arguments_lets_its_field_errors_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `def tool(**fields)`: the model checks what the caller passed under each name.
    monkeypatch.chdir(tmp_path)
    server = _notes(tmp_path, 'data = NoteInput.model_validate(fields)\n        return httpx.post("https://notes.invalid/notes", json=data.model_dump()).text')
    server = server.replace("def list_notes() -> str:", "def list_notes(**fields: str) -> str:")
    write(tmp_path / "notes/server.py", server)
    _let_through(tmp_path, server, "Exception")


def test_a_status_line_raised_by_the_project_is_no_hint_to_keep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `raise RuntimeError(f"HTTP error {status}")` names the failure only: the new message says as much.
    monkeypatch.chdir(tmp_path)
    server = _notes(tmp_path, "return fetch_page(1)").replace("lookup_key, parse_credentials", "fetch_page, lookup_key, parse_credentials")
    write(tmp_path / "notes/server.py", server)
    settings = (tmp_path / "notes/settings.py").read_text() + (
        "\n\ndef fetch_page(page: int) -> str:\n    import httpx\n\n    response = httpx.get(f\"https://notes.invalid/p/{page}\")\n"
        "    return response.text if response.status_code == 200 else failed(response.status_code)\n\n\n"
        "def failed(status: int) -> str:\n    raise RuntimeError(f\"HTTP error {status}\")\n"
    )
    write(tmp_path / "notes/settings.py", settings)
    _rewritten(tmp_path, server, "Exception")


def test_a_module_naming_the_frameworks_validation_error_keeps_offering_no_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `ValidationError` is the framework's class here: pydantic's cannot take the name.
    monkeypatch.chdir(tmp_path)
    server = _notes(tmp_path, 'data = NoteInput(**note)\n        return httpx.post("https://notes.invalid/notes", json=data.model_dump()).text')
    server = server.replace("def list_notes() -> str:", "def list_notes(note: dict) -> str:").replace(
        "from mcp.server.fastmcp import FastMCP\n", "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ValidationError\n"
    )
    server += "\n\ndef check(value: str) -> None:\n    if not value:\n        raise ValidationError(\"value is empty\")\n"
    write(tmp_path / "notes/server.py", server)
    _no_fix(tmp_path, server, "Exception", "pydantic's field errors for NoteInput")
