"""Tables of functions that servers register tools from, kept as rows the linker can follow.

`for name, (fn, desc) in build_tools().items(): mcp.tool(name=name)(fn)` registers every
function the builder's returned dict holds. The builder may merge other builders' dicts
(`{**files_tools(), **mail_tools()}`, `tools.update(more())`), live in another module, or itself
be a value of a table of categories (`_, builder = CATEGORIES[c]; tools = builder()`). The module
walk cannot see all of that (the builders may be defined later or elsewhere), so it records each
table as rows of function references (`Table`), and each registration names what it registers as
a path into those tables (`TablePath` and a position); the linker follows the path once every
module is known (`registered_functions`).

A path starts at a table: a module-level dict or list (`pkg.app.TOOLS`), what a function returns
(`pkg.app.build_tools()`), or a dict a function builds in a local (`pkg.app.setup#tools`). Each
hop selects one position of every row's value and calls the functions found there, which gives
their returned tables (`CATEGORIES` -> position 1 -> called -> the builders' tables).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from mcp_lint.lazy_re import lazy_compile

# Where a table path starts: a function's returned table, or a table it builds in a local.
RETURNED = "()"
LOCAL = "#"


@dataclass(frozen=True)
class Row:
    """One entry of a table: its key when that is a string literal (a dict's key names the tool),
    and for each position of its value (a tuple value is unpacked; any other value is position
    0) the functions that position may name."""

    key: str | None
    parts: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Table:
    """The rows a table literally holds, and the tables whose rows it also holds (`**other()`,
    `table.update(other())`, `[*base, extra]`)."""

    rows: tuple[Row, ...] = ()
    merged: tuple["TablePath", ...] = ()

    def extended(self, rows: Iterable[Row] = (), merged: Iterable["TablePath"] = ()) -> "Table":
        return Table(self.rows + tuple(rows), self.merged + tuple(path for path in merged if path not in self.merged))


@dataclass(frozen=True)
class TablePath:
    """A table: `start` (a table's qualified name, `f()` for the table function f returns, or
    `f#name` for the table f builds in the local `name`), then for each hop the position of every
    row's value whose functions are called, their returned tables taken in turn."""

    start: str
    hops: tuple[int, ...] = ()

    def called_at(self, position: int) -> "TablePath":
        return TablePath(self.start, self.hops + (position,))


@dataclass(frozen=True)
class Bound:
    """What a local or loop variable holds: a table, one row of it (`CATEGORIES[c]`), or the
    functions at one position of its rows (`for name, (fn, desc) in table.items()` binds `fn`)."""

    table: TablePath
    row: bool = False
    position: int | None = None

    def functions_at(self) -> int:
        """The position whose functions the variable stands for when it is called or registered."""
        return self.position if self.position is not None else 0


# A registration of the functions at a position of a table's rows, as written into the
# registration's function name after summary.TABLE_REF: `pkg.app.CATS[1]()[0]` is position 0 of
# the tables returned by the functions at position 1 of CATS.
_HOP = lazy_compile(r"\[(\d+)\]\(\)")
_ENCODED = lazy_compile(r"(?P<start>.+?)(?P<hops>(?:\[\d+\]\(\))*)\[(?P<position>\d+)\]")


def encode(table: TablePath, position: int) -> str:
    return table.start + "".join(f"[{hop}]()" for hop in table.hops) + f"[{position}]"


def decode(text: str) -> tuple[TablePath, int] | None:
    """The table and position `encode` wrote, or None for a plain table name (the older form,
    a module-level table whose every value is a function)."""
    match = _ENCODED.fullmatch(text)
    if match is None:
        return None
    hops = tuple(int(hop) for hop in _HOP.findall(match["hops"]))
    return TablePath(match["start"], hops), int(match["position"])


# How deep merged tables and hops are followed: builders of builders rarely go past two.
_MAX_DEPTH = 6


def registered_functions(
    table: TablePath, position: int, table_of: Callable[[str], Table | None]
) -> list[tuple[str | None, str]]:
    """(key, function) for each function at `position` of the rows of `table`, the key of the row
    that holds it. `table_of` finds a table by its start (the linker looks across modules)."""
    return list(dict.fromkeys(_at(_hopped(table, table_of, 0, frozenset()), position)))


def _at(rows: list[Row], position: int) -> Iterable[tuple[str | None, str]]:
    for row in rows:
        if position < len(row.parts):
            for ref in row.parts[position]:
                yield row.key, ref


def _hopped(table: TablePath, table_of: Callable[[str], Table | None], depth: int, seen: frozenset[str]) -> list[Row]:
    """The rows of `table`: its start's rows, then each hop's called functions' returned rows."""
    rows = _rows(table.start, table_of, depth, seen)
    for hop in table.hops:
        callees = dict.fromkeys(ref for _, ref in _at(rows, hop))
        rows = [row for callee in callees for row in _rows(callee + RETURNED, table_of, depth + 1, seen)]
    return rows


def _rows(start: str, table_of: Callable[[str], Table | None], depth: int, seen: frozenset[str]) -> list[Row]:
    """The rows of the table `start` names, with those of the tables it merges (a table that
    merges itself, directly or not, adds nothing more)."""
    found = table_of(start) if start not in seen and depth <= _MAX_DEPTH else None
    if found is None:
        return []
    out = list(found.rows)
    for merged in found.merged:
        out.extend(_hopped(merged, table_of, depth + 1, seen | {start}))
    return out
