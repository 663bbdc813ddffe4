"""The notes server on fastmcp, with the defects `mcp-lint probe` shows at run time (and `check` in the source)."""

import sqlite3
import traceback

import httpx
from fastmcp import FastMCP

mcp = FastMCP("notes")
# fastmcp runs synchronous tools in worker threads: one connection shared by them.
db = sqlite3.connect("notes.db", check_same_thread=False)
db.executescript("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT);"
                 "INSERT OR IGNORE INTO notes VALUES (1, 'Welcome', 'The first note.');")


@mcp.tool
def read_note(note_id: int) -> dict:
    """Return one note."""
    row = db.execute("SELECT title, body FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is None:
        return {"error": f"Note {note_id} not found"}
    return {"title": row[0], "body": row[1]}


@mcp.tool
async def import_note(url: str) -> str:
    """Fetch a note from a URL and store it."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(url)
            response.raise_for_status()
    except Exception:
        return f"Error: {traceback.format_exc()}"
    db.execute("INSERT INTO notes (body) VALUES (?)", (response.text,))
    db.commit()
    return "imported"


@mcp.tool
def rename_note(note_id: int, title: str) -> str:
    """Give a note a new title."""
    db.execute("UPDATE notes SET title = ? WHERE id = ?", (title, note_id))
    db.commit()
    if not title.strip():
        raise ValueError("title must not be empty")
    return "renamed"


@mcp.tool
def delete_note(note_id: int) -> str:
    """Delete one note."""
    cur = db.execute("DELETE FROM notes WHERE id = ?", (note_id,))
    if cur.rowcount == 0:
        return f"Note {note_id} not found"
    db.commit()
    return "deleted"


if __name__ == "__main__":
    mcp.run()
