"""The notes server of examples/notes_server with its error-channel defects fixed (mcp-lint is silent)."""

import logging
import sqlite3

import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("notes")
db = sqlite3.connect("notes.db")
db.executescript("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT);"
                 "INSERT OR IGNORE INTO notes VALUES (1, 'Welcome', 'The first note.');")


def run_sql(sql: str, params: tuple = ()) -> sqlite3.Cursor:
    """Run one statement. mcp 1.x would hand sqlite3's own text (SQL, file paths) to the model:
    a database failure is logged and reaches the model in words written for it."""
    try:
        return db.execute(sql, params)
    except sqlite3.Error as e:
        logger.exception("notes database: %s failed", sql.split()[0])
        raise ToolError("The notes database could not be read or written on the server (a disk or lock problem); no note was changed") from e


def commit() -> None:
    """Save the pending change, with the same words as run_sql when the database fails."""
    try:
        db.commit()
    except sqlite3.Error as e:
        logger.exception("notes database: commit failed")
        raise ToolError("The notes database could not save the change on the server (a disk or lock problem); no note was changed") from e


@mcp.tool()
def list_notes() -> list[dict]:
    """List the id and title of every note."""
    rows = run_sql("SELECT id, title FROM notes ORDER BY id").fetchall()
    return [{"id": row[0], "title": row[1]} for row in rows]


@mcp.tool()
def read_note(note_id: int) -> str:
    """Return the text of one note."""
    row = run_sql("SELECT body FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is None:
        # ToolError reaches the model as an error result; McpError would only pose as a protocol error.
        raise ToolError(f"Note {note_id} not found; call list_notes to see valid ids")
    return row[0]


@mcp.tool()
async def import_note(url: str) -> str:
    """Fetch a note from a URL and store it."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(url)
            response.raise_for_status()
    except httpx.HTTPStatusError as e:
        # The library's text stays in the server log; the model gets what it can act on.
        logger.exception("import_note: fetching %s failed", url)
        raise ToolError(f"{url} answered HTTP {e.response.status_code}; pass the URL of a plain-text note") from e
    except httpx.HTTPError as e:
        logger.exception("import_note: fetching %s failed", url)
        raise ToolError(f"Could not connect to {url}; check the host name, or import the note from another URL") from e
    run_sql("INSERT INTO notes (body) VALUES (?)", (response.text,))
    commit()
    return "imported"


@mcp.tool()
def archive_notes(older_than_days: int) -> str:
    """Archive notes older than the given number of days."""
    if older_than_days > 3650:
        raise ToolError(f"older_than_days must be at most 3650 (ten years), got {older_than_days}")
    return "archived"


@mcp.tool()
def rename_note(note_id: int, title: str) -> str:
    """Give a note a new title."""
    # Validate before writing: a rejected call must leave the database untouched.
    if not title.strip():
        raise ToolError("title must not be empty; pass the new title text")
    cur = run_sql("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))
    if cur.rowcount == 0:
        raise ToolError(f"Note {note_id} not found; call list_notes to see valid ids")
    commit()
    return "renamed"


@mcp.tool()
def delete_note(note_id: int) -> str:
    """Delete one note."""
    cur = run_sql("DELETE FROM notes WHERE id = ?", (note_id,))
    if cur.rowcount == 0:
        raise ToolError(f"Note {note_id} not found; it may already be deleted, call list_notes to check")
    commit()
    return "deleted"


if __name__ == "__main__":
    mcp.run()
