"""Review 11's "merge with edits" shapes (issue 23), each with the code the fix must write, on
made-up servers: what the library's text told the model about its own call, kept without the
text. The arguments the failed call was given (a path, an id, a date), the class a client
library raised (its subclasses name the reason), an API client's HTTP status; never a secret
argument, one rebuilt before the call, a payload, or the builtin `Exception`'s name."""

from __future__ import annotations

from mcp_lint.pipeline import lint_source
from tests.test_fixes import assert_fixes_to, fixed

# --- the path the model gave, and the kind of OS error -------------------------------------------

EXPORT = """\
import logging

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("lists")


@mcp.tool()
def export_list(out_path: str, content: str) -> str:
    try:
        with open(out_path, "w") as handle:
            handle.write(content)
    except OSError as exc:
        return f"Could not export list: {exc}"
    return "exported"


@mcp.tool()
def import_list(in_path: str) -> str:
    try:
        with open(in_path) as handle:
            return handle.read()
    except OSError as exc:
        raise ToolError(f"Could not import list {in_path}: {exc}") from exc


@mcp.tool()
def archive_list(list_path: str) -> str:
    list_path = list_path.strip()
    try:
        with open(list_path) as handle:
            return handle.read()
    except OSError as exc:
        raise ToolError(f"Could not archive list: {exc}") from exc
"""


def test_the_path_the_model_gave_is_named_with_the_kind_of_error() -> None:
    # The library's text named the path ("Permission denied: 'out.txt'"); the fix names the
    # argument itself, with the class the OS error was given, in one pair of parentheses. The
    # written content is a payload: not echoed.
    after = fixed(EXPORT)
    assert (
        '        logger.exception("Could not export list (out_path: %s, %s)", out_path, type(exc).__name__)\n'
        '        raise ToolError(f"Could not export list (out_path: {out_path}, {type(exc).__name__})") from exc\n'
    ) in after, after
    assert_fixes_to(EXPORT, after, None)
    assert [f.code for f in lint_source(after)] == []


def test_a_message_naming_the_path_already_gets_no_second_mention() -> None:
    after = fixed(EXPORT)
    assert '        raise ToolError(f"Could not import list {in_path} ({type(exc).__name__})") from exc\n' in after, after


def test_a_path_rebuilt_before_the_call_is_not_named() -> None:
    # `list_path = list_path.strip()`: the value the call got is no longer what the model sent.
    after = fixed(EXPORT)
    assert '        raise ToolError(f"Could not archive list ({type(exc).__name__})") from exc\n' in after, after


# --- a client library's class and the ids the call was given -------------------------------------

EVENTS = """\
import logging

from events_sdk import EventsClient
from events_sdk.errors import EventsError
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("events")
CLIENT = EventsClient()


@mcp.tool()
def list_events(calendar_id: str, start_date: str, api_token: str, limit: int = 10) -> list:
    try:
        return CLIENT.list_events(calendar_id, start_date=start_date, token=api_token, limit=limit * 2)
    except EventsError as e:
        return [{"error": f"Failed to list events: {e}"}]


@mcp.tool()
def get_event(event_id: str) -> dict:
    try:
        return CLIENT.get_event(event_id)
    except Exception as e:
        return {"error": f"Failed to get event: {e}"}


@mcp.tool()
def get_events(event_ids: list[str]) -> list:
    try:
        return CLIENT.get_events(event_ids)
    except EventsError as e:
        return [{"error": f"Failed to get events: {e}"}]
"""


def test_a_client_librarys_class_and_the_ids_given_are_kept() -> None:
    # The library's subclass names the reason (no such calendar, bad date): kept by its name.
    # The token is a secret, `limit` is not passed as the model gave it: neither is named.
    after = fixed(EVENTS)
    assert (
        "    except EventsError as e:\n"
        "        logger.exception(\n"
        '            "Failed to list events (calendar_id: %s, start_date: %s, %s)",\n'
        "            calendar_id,\n"
        "            start_date,\n"
        "            type(e).__name__,\n"
        "        )\n"
        "        raise ToolError(\n"
        '            f"Failed to list events (calendar_id: {calendar_id}, start_date: {start_date}, {type(e).__name__})"\n'
        "        ) from e\n"
    ) in after, after
    assert "api_token}" not in after and "limit}" not in after
    assert_fixes_to(EVENTS, after, None)
    assert [f.code for f in lint_source(after)] == []


def test_a_broad_clause_keeps_the_id_but_not_the_class() -> None:
    # `Exception` names nothing: `type(e).__name__` there could be any class of any code.
    after = fixed(EVENTS)
    assert '        raise ToolError(f"Failed to get event (event_id: {event_id})") from e\n' in after, after


def test_a_list_argument_is_not_named() -> None:
    after = fixed(EVENTS)
    assert '        raise ToolError(f"Failed to get events ({type(e).__name__})") from e\n' in after, after


# --- an API client's own status error --------------------------------------------------------------

GOOGLE = """\
from fastmcp import FastMCP
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

mcp = FastMCP("calendar")
SERVICE = build("calendar", "v3")


@mcp.tool()
def delete_event(calendar_id: str, event_id: str) -> dict:
    try:
        SERVICE.events().delete(calendarId=calendar_id, eventId=event_id).execute()
    except HttpError as e:
        return {"error": f"Failed to delete event: {e}"}
    return {"deleted": event_id}
"""


def test_an_api_clients_status_error_keeps_its_status() -> None:
    # 404 (a wrong id) and 403 (no access) ask for different next calls; the client's status
    # error holds it where `raise_for_status()` errors hold theirs (one table of both). Google's
    # reason ("Invalid start time", "Not Found") is about the model's own values: it stays too
    # (C2, review 14 #11).
    after = fixed(GOOGLE)
    assert (
        "    except HttpError as e:\n"
        "        logger.exception(\n"
        '            "Failed to delete event (calendar_id: %s, event_id: %s, HTTP %s: %s)",\n'
        "            calendar_id,\n"
        "            event_id,\n"
        "            e.resp.status,\n"
        "            e.reason,\n"
        "        )\n"
        "        raise ToolError(\n"
        '            f"Failed to delete event (calendar_id: {calendar_id}, event_id: {event_id}, HTTP {e.resp.status}: {e.reason})"\n'
        "        ) from e\n"
    ) in after, after
    assert "type(e)" not in after
    assert_fixes_to(GOOGLE, after, None)
    assert [f.code for f in lint_source(after)] == []


# --- what is never named ------------------------------------------------------------------------

HELPER = """\
import logging

from events_sdk import EventsClient
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("events")
CLIENT = EventsClient()


def fetch_feed(feed_path: str) -> list:
    try:
        return CLIENT.fetch(feed_path)
    except Exception as e:
        raise ToolError(f"Could not fetch feed: {e}") from e


@mcp.tool()
def get_feed(name: str) -> list:
    return fetch_feed(f"/feeds/{name}")


@mcp.tool()
def read_feed(feed_url: str, feed_name: str) -> list:
    try:
        return CLIENT.read(feed_url, feed_name)
    except Exception as e:
        raise ToolError(f"Could not read feed: {e}") from e
"""


def test_a_helpers_parameters_and_a_url_are_not_named() -> None:
    # A helper's parameter is what its callers built (`f"/feeds/{name}"`), not what the model
    # sent; a URL's query may hold a key.
    after = fixed(HELPER)
    assert '        raise ToolError("Could not fetch feed") from e\n' in after, after
    assert '        raise ToolError(f"Could not read feed (feed_name: {feed_name})") from e\n' in after, after
