"""Fix shapes review 6 rejected that stop 33 left open (issue 23), each with the code the fix must
write (or the code left as it was), on made-up servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_fix_offered_equals_applied import changed_outside, offered_rows, run, write
from tests.test_fixes import assert_fixes_to

# --- row 8: an error dict whose "error" item is the exception's class name --------------------

CLASS_NAMED = """\
import json

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("stats")


class StatsError(Exception):
    \"\"\"The stats client's failures; their text tells the model what to do.\"\"\"


class StatsAuthError(StatsError):
    def __init__(self) -> None:
        super().__init__("Not signed in. Call sign_in(user=..., password=...) first, or set STATS_TOKEN.")


def _fetch(code: str) -> dict:
    if not code:
        raise StatsAuthError()
    return httpx.get(f"https://stats.example/{code}").json()


@mcp.tool()
def series(code: str) -> str:
    \"\"\"One series.\"\"\"
    try:
        return json.dumps(_fetch(code))
    except StatsError as exc:
        return json.dumps({"error": type(exc).__name__, "message": str(exc)})


@mcp.tool()
def fetch_table(code: str) -> dict:
    \"\"\"One table.\"\"\"
    try:
        return httpx.get(f"https://stats.example/t/{code}").json()
    except httpx.HTTPError as exc:
        return {"error": exc.__class__.__name__, "details": str(exc)}


@mcp.tool()
def sources(code: str) -> str:
    \"\"\"The sources of a series.\"\"\"
    try:
        return json.dumps(_fetch(code)["sources"])
    except StatsError as exc:
        return json.dumps({"error": f"{type(exc).__name__}"})
"""


def test_an_error_dicts_message_is_raised_never_its_class_name() -> None:
    # The project's own exception: its text is the author's advice, raised whole. A library's
    # exception (httpx): its text is MCP002's to replace, with the operation that failed (the
    # class name is no context either). A dict with nothing but the class name has no message:
    # no fix (raising "StatsAuthError" would tell the model nothing).
    assert_fixes_to(
        CLASS_NAMED,
        CLASS_NAMED.replace(
            "import json\n",
            "import json\nimport logging\n",
        )
        .replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
            "logger = logging.getLogger(__name__)\n",
        )
        .replace(
            '        return json.dumps({"error": type(exc).__name__, "message": str(exc)})\n',
            "        raise ToolError(str(exc)) from exc\n",
        )
        .replace(
            '        return {"error": exc.__class__.__name__, "details": str(exc)}\n',
            '        logger.exception("Could not fetch table")\n        raise ToolError("Could not fetch table") from exc\n',
        ),
        None,
    )


# --- row 12: an error dict's hint and the record it points the next call at -------------------

NOTES = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
_notes: dict[str, dict] = {}


def _find_same(title: str) -> dict | None:
    return next((n for n in _notes.values() if n["title"] == title), None)


@mcp.tool()
def add_note(title: str, body: str, force: bool = False) -> dict:
    \"\"\"Add a note.\"\"\"
    if not force:
        same = _find_same(title)
        if same is not None:
            return {
                "error": f"A note titled {title!r} already exists.",
                "hint": ("Ask the user first. To replace it, call `edit_note` "
                         "with its id. To add anyway, call again with force=True."),
                "existing_id": same["id"],
            }
    note = {"id": str(len(_notes) + 1), "title": title, "body": body}
    _notes[note["id"]] = note
    return note


@mcp.tool()
def copy_note(note_id: str, title: str) -> dict:
    \"\"\"Copy a note under a new title.\"\"\"
    same = _find_same(title)
    if same is not None:
        return {"error": f"A note titled {title!r} already exists.", "hint": "Pick another title.", "duplicateOf": same}
    _notes[str(len(_notes) + 1)] = dict(_notes[note_id], title=title)
    return _notes[note_id]


@mcp.tool()
def tag_note(note_id: str, tag: str) -> dict:
    \"\"\"Tag a note.\"\"\"
    if note_id not in _notes:
        return {"error": f"No note {note_id}.", "hint": "List the notes with list_notes.", "valid_ids": sorted(_notes)}
    _notes[note_id].setdefault("tags", []).append(tag)
    return _notes[note_id]


@mcp.tool()
def drop_tag(note_id: str, tag: str) -> dict:
    \"\"\"Drop a tag from a note.\"\"\"
    if tag not in _notes.get(note_id, {}).get("tags", []):
        return {"error": f"Note {note_id} has no tag {tag!r}.", "hint": "Read the note's tags with get_note."}
    _notes[note_id]["tags"].remove(tag)
    return _notes[note_id]
"""


def test_an_error_dicts_hint_and_the_id_it_points_at_stay_in_the_raised_text() -> None:
    # The hint, written over two lines, follows the message as its next sentence, in the author's
    # layout; the id of the record the next call needs goes inside the first sentence. A record
    # or a list of valid values (`duplicateOf`, `valid_ids`) is data no message keeps whole: no
    # fix there, the result stays as it is (its findings stay reported).
    assert_fixes_to(
        NOTES,
        NOTES.replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
        )
        .replace(
            """            return {
                "error": f"A note titled {title!r} already exists.",
                "hint": ("Ask the user first. To replace it, call `edit_note` "
                         "with its id. To add anyway, call again with force=True."),
                "existing_id": same["id"],
            }
""",
            """            raise ToolError(
                f"A note titled {title!r} already exists (existing_id: {same['id']}). "
                "Ask the user first. To replace it, call `edit_note` "
                "with its id. To add anyway, call again with force=True."
            )
""",
        )
        .replace(
            '        return {"error": f"Note {note_id} has no tag {tag!r}.", "hint": "Read the note\'s tags with get_note."}\n',
            '        raise ToolError(f"Note {note_id} has no tag {tag!r}. Read the note\'s tags with get_note.")\n',
        ),
        None,
    )


# --- rows 22, 24: the leak must not move into the decoded argument ----------------------------

PICTURES = """\
import base64
import zoneinfo

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("pictures")


class PictureError(Exception):
    pass


@mcp.tool()
def draw(prompt: str) -> str:
    \"\"\"Draw a picture.\"\"\"
    reply = httpx.post("https://pictures.example/draw", json={"prompt": prompt}).json()
    picture_data_b64 = reply["picture"].strip()
    try:
        base64.b64decode(picture_data_b64, validate=True)
    except Exception as e:
        raise PictureError(f"Invalid base64 picture data: {str(e)}")
    return picture_data_b64


@mcp.tool()
def picture_size(picture_id: str) -> str:
    \"\"\"The size of a stored picture.\"\"\"
    picture = httpx.get(f"https://pictures.example/p/{picture_id}").json()["picture"]
    try:
        raw = base64.b64decode(picture)
    except Exception as e:
        raise PictureError(f"Invalid picture: {e}")
    return f"{len(raw)} bytes"


@mcp.tool()
def local_time(zone_name: str) -> str:
    \"\"\"The time in a zone.\"\"\"
    try:
        zone = zoneinfo.ZoneInfo(zone_name)
    except Exception as e:
        raise PictureError(f"Invalid zone: {e}")
    return str(zone)
"""


def test_the_replacement_names_a_short_argument_never_the_decoded_payload() -> None:
    # "Invalid ... data" around a decode: the value decoded is the payload (an upstream picture,
    # megabytes), by its name or by the call it was handed to; the operation's words stay alone.
    # A zone name is a short value the model passed: it is named.
    assert_fixes_to(
        PICTURES,
        PICTURES.replace(
            '        raise PictureError(f"Invalid base64 picture data: {str(e)}")\n',
            '        raise PictureError("Invalid base64 picture data") from e\n',
        )
        .replace(
            '        raise PictureError(f"Invalid picture: {e}")\n',
            '        raise PictureError("Invalid picture") from e\n',
        )
        .replace(
            '        raise PictureError(f"Invalid zone: {e}")\n',
            '        raise PictureError(f"Invalid zone: {zone_name}") from e\n',
        ),
        None,
    )


# --- a catch-all decorator used by one tool: its clause is not that tool's ---------------------

WRAPPED = """\
import functools
import logging

import httpx
from mcp.server.fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("weather")


def handle_errors(func):
    @functools.wraps(func)
    async def wrapper(*args, **kwargs):
        try:
            return await func(*args, **kwargs)
        except Exception as e:
            logger.error("tool failed: %s", e)
            return f"Error: {e}"

    return wrapper


def _safely(action, *args):
    try:
        return action(*args)
    except Exception as e:
        return f"Request failed: {e}"


@mcp.tool()
@handle_errors
async def get_forecast(city: str) -> str:
    \"\"\"The forecast for a city.\"\"\"
    async with httpx.AsyncClient() as client:
        reply = await client.get(f"https://weather.example/{city}")
        reply.raise_for_status()
        return reply.text


@mcp.tool()
def get_alerts(region: str) -> str:
    \"\"\"The alerts of a region.\"\"\"
    return _safely(lambda: httpx.get(f"https://weather.example/alerts/{region}").text)


@mcp.tool()
def get_stations(region: str) -> str:
    \"\"\"The stations of a region.\"\"\"
    try:
        return httpx.get(f"https://weather.example/stations/{region}").text
    except httpx.HTTPError as e:
        return f"Error: {e}"
"""


def test_a_wrapper_that_runs_a_handed_function_gets_no_text_naming_one_tool() -> None:
    # The decorator's clause (and a helper's that runs the callable it is given) catches whatever
    # the wrapped function raises, for every tool it will ever wrap: "Could not get forecast" is
    # wrong for all but one, and would replace their own messages. The findings stay; only the
    # tool's own clause is rewritten.
    assert_fixes_to(
        WRAPPED,
        WRAPPED.replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n",
        ).replace(
            '    except httpx.HTTPError as e:\n        return f"Error: {e}"\n',
            '    except httpx.HTTPError as e:\n        logger.exception("Could not get stations")\n'
            '        raise ToolError("Could not get stations") from e\n',
        ),
        None,
    )


# --- an MCP002 fix's pass-through of a nested clause opens it for the other fixes --------------

MANAGED_FEEDS = """\
import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("feeds")


@mcp.tool()
async def list_feeds(site: str) -> str:
    try:
        response = httpx.get(f"https://feeds.example/{site}")
        response.raise_for_status()
        return response.text
    except Exception as e:
        return f"Error listing feeds: {str(e)}"


@mcp.tool()
async def manage_feeds(site: str, action: str, feed: str = "") -> str:
    try:
        if action == "list":
            return await list_feeds(site)
        try:
            response = httpx.delete(f"https://feeds.example/{site}/{feed}")
            response.raise_for_status()
        except httpx.HTTPError as e:
            return f"Error deleting feed: {e}"
        return f"Deleted {feed}"
    except Exception:
        return "Feeds could not be managed right now."
"""


def test_a_nested_clauses_pass_through_lets_the_called_tools_fixes_be_offered_in_the_first_lint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # MCP002's fix of the inner clause puts `except ToolError: raise` before the outer one, so
    # list_feeds' raise goes through it once applied: offered in the first lint, as `--fix`
    # applies it in the same run (nothing applied that was not listed).
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "pyproject.toml", '[project]\nname = "feeds"\ndependencies = ["mcp>=1.20,<2"]\n')
    write(tmp_path / "server.py", MANAGED_FEEDS)
    listed = run("--unsafe-fixes", "--output-format", "concise")
    assert "server.py:14:16: MCP002 [*] Tool 'list_feeds'" in listed.output, listed.output
    offered = offered_rows(tmp_path)
    run("--fix", "--unsafe-fixes")
    assert changed_outside(tmp_path, {"server.py": MANAGED_FEEDS}, offered) == []
    assert (tmp_path / "server.py").read_text() == MANAGED_FEEDS.replace(
        "import httpx\nfrom mcp.server.fastmcp import FastMCP\n",
        "import logging\n\nimport httpx\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
        "logger = logging.getLogger(__name__)\n",
    ).replace(
        '    except Exception as e:\n        return f"Error listing feeds: {str(e)}"\n',
        "    except httpx.HTTPStatusError as e:\n"
        '        logger.exception("Error listing feeds (HTTP %s)", e.response.status_code)\n'
        '        raise ToolError(f"Error listing feeds (HTTP {e.response.status_code})") from e\n'
        '    except Exception as e:\n        logger.exception("Error listing feeds")\n        raise ToolError("Error listing feeds") from e\n',
    ).replace(
        '        except httpx.HTTPError as e:\n            return f"Error deleting feed: {e}"\n',
        "        except httpx.HTTPStatusError as e:\n"
        '            logger.exception("Error deleting feed (HTTP %s)", e.response.status_code)\n'
        '            raise ToolError(f"Error deleting feed (HTTP {e.response.status_code})") from e\n'
        '        except httpx.HTTPError as e:\n            logger.exception("Error deleting feed")\n            raise ToolError("Error deleting feed") from e\n',
    ).replace(
        '    except Exception:\n        return "Feeds could not be managed right now."\n',
        '    except ToolError:\n        raise\n    except Exception:\n        raise ToolError("Feeds could not be managed right now.") from None\n',
    )


# --- the author's advice raised two calls below the rewritten clause --------------------------

LAMPS_TWO_DEEP = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("lamps")


class Lamps:
    def __init__(self) -> None:
        self.link = None

    def _hub(self):
        if self.link is None:
            raise Exception("Not connected to the lamp hub. Call connect_hub first.")
        return self.link

    def switch(self, lamp_id: str, on: bool) -> bool:
        self._hub().send(lamp_id, on)
        return True

    def dim(self, lamp_id: str, level: int) -> bool:
        try:
            self._hub().send(lamp_id, level)
        except Exception:
            return False
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
def dim_lamp(lamp_id: str, level: int) -> str:
    \"\"\"Dim a lamp.\"\"\"
    try:
        lamps.dim(lamp_id, level)
        return f"Lamp {lamp_id} dimmed"
    except Exception as e:
        return f"Error dimming lamp {lamp_id}: {str(e)}"
"""


def test_advice_a_helper_of_a_helper_raises_keeps_the_broad_clause_as_written() -> None:
    # `switch` reaches `_hub`, whose plain Exception tells the model to connect first: the
    # clause's `{e}` carries it, so the clause stays. `dim` catches that raise itself: nothing
    # of the author's reaches `dim_lamp`'s clause, which is rewritten.
    assert_fixes_to(
        LAMPS_TWO_DEEP,
        LAMPS_TWO_DEEP.replace(
            "from mcp.server.fastmcp import FastMCP\n",
            "import logging\n\nfrom mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError\n\n"
            "logger = logging.getLogger(__name__)\n",
        ).replace(
            '        return f"Error dimming lamp {lamp_id}: {str(e)}"\n',
            '        logger.exception("Error dimming lamp %s", lamp_id)\n'
            '        raise ToolError(f"Error dimming lamp {lamp_id}") from e\n',
        ),
        None,
    )
