"""Removing the imports that fixes made unused, as a reviewer would ask for in the same change.

A fix that turns `raise McpError(ErrorData(code=INVALID_PARAMS, ...))` into `raise ToolError(...)`
or drops `traceback.format_exc()` from a message can leave the last use of an import behind. Only
names that the original text used and the fixed text no longer uses are removed: an import that
was unused before the fixes stays (that is the author's business, or a re-export).

Rule-independent: it compares two texts, so it sees the effect of every fix of every pass at once
(two fixes that each remove one of two uses of `traceback` still leave it unused). An import
inside a function (`except Exception: import traceback`) is judged by the uses in that function,
matched between the two texts by its qualified name; it goes only when its block keeps another
statement.
"""

from __future__ import annotations

import ast
import io
from typing import Iterator

import libcst as cst

from mcp_lint.findings import Edit, Location
from mcp_lint.model.names import bound_name


def drop_unused_imports(original: str, fixed: str) -> list[Edit]:
    """Edits to `fixed` removing the module-level imports whose names `fixed` no longer uses
    although `original` did."""
    try:
        before, after = ast.parse(original), ast.parse(fixed)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    used_before, used_after = _uses(before), _uses(after)
    # Lines as the tokenizer counts them ("\n", "\r\n", "\r"), like ast's line numbers.
    lines = io.StringIO(fixed, newline="").readlines()
    edits = []
    for index, stmt in enumerate(after.body):
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)) or _is_future(stmt):
            continue
        dead = {name for name in _bound(stmt) if used_before.get(name, 0) and not used_after.get(name, 0)}
        if not dead or not _alone_on_its_lines(after.body, index, lines):
            continue
        edit = _without(stmt, dead, lines)
        if edit is not None and edit.content == "" and _section_of_its_own(stmt, lines):
            # The import was a section alone (blank lines around it): one blank line goes with
            # it, or the sections around it would stand two lines apart (I001).
            edit = Edit(edit.location, Location(edit.end_location.row + 1, 1), "")
        if edit is not None:
            edits.append(edit)
    edits.extend(_local_imports(before, after, lines))
    return edits


def _local_imports(before: ast.Module, after: ast.Module, lines: list[str]) -> Iterator[Edit]:
    """The dead imports of function bodies (see the module's docstring)."""
    used_before = {key: _uses(function) for key, function in _functions(before)}
    for key, function in _functions(after):
        if key not in used_before:
            continue
        used_after = _uses(function)
        for body in _own_blocks(function):
            if len(body) < 2:
                continue  # the block would be left empty
            for index, stmt in enumerate(body):
                if not isinstance(stmt, (ast.Import, ast.ImportFrom)) or not _alone_on_its_lines(body, index, lines, indented=True):
                    continue
                dead = {name for name in _bound(stmt) if used_before[key].get(name, 0) and not used_after.get(name, 0)}
                edit = _without(stmt, dead, lines) if dead else None
                if edit is None:
                    continue
                if edit.content == "" and index == 0 and edit.end_location.row <= len(lines) and not lines[edit.end_location.row - 1].strip():
                    # The blank line that set the import apart goes with it: a block does not
                    # open on a blank line.
                    edit = Edit(edit.location, Location(edit.end_location.row + 1, 1), "")
                yield edit


def _functions(tree: ast.Module) -> Iterator[tuple[tuple[str, int], ast.AST]]:
    """Every function with a key that names it in both texts: its qualified name and how many
    functions of that name came before it (`register.tool` defined twice)."""
    seen: dict[str, int] = {}
    stack: list[tuple[str, ast.AST]] = [("", tree)]
    while stack:
        prefix, node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}.{child.name}" if prefix else child.name
                if not isinstance(child, ast.ClassDef):
                    seen[name] = seen.get(name, 0) + 1
                    yield (name, seen[name]), child
                stack.append((name, child))
            else:
                stack.append((prefix, child))


def _own_blocks(function: ast.AST) -> Iterator[list[ast.stmt]]:
    """The statement lists of a function, not those of functions or classes nested in it."""
    stack: list[ast.AST] = [function]
    while stack:
        node = stack.pop()
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            value = getattr(node, field, None)
            if not isinstance(value, list):
                continue
            if value and isinstance(value[0], ast.stmt):
                yield value
            for child in value:
                if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    stack.append(child)


def _uses(tree: ast.Module) -> dict[str, int]:
    """How often each name is read (any scope: an import is used by a function body too)."""
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    for name in _dunder_all(tree):
        counts[name] = counts.get(name, 0) + 1  # listed in __all__: exported, hence used
    return counts


def _dunder_all(tree: ast.Module) -> Iterator[str]:
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
            if isinstance(stmt.value, (ast.List, ast.Tuple)):
                yield from (e.value for e in stmt.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))


def _is_future(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"


def _bound(stmt: ast.Import | ast.ImportFrom) -> list[str]:
    names = []
    for alias in stmt.names:
        if alias.name == "*":
            return []  # a star import binds names nobody can count
        names.append(alias.asname or alias.name.split(".")[0])
    return names


def _section_of_its_own(stmt: ast.stmt, lines: list[str]) -> bool:
    """A blank line right above the statement and right below it."""
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    return first >= 2 and last < len(lines) and not lines[first - 2].strip() and not lines[last].strip()


def _alone_on_its_lines(body: list[ast.stmt], index: int, lines: list[str], *, indented: bool = False) -> bool:
    """`import a; x = 1` or `x = 1; import a` would need more than a line edit: left alone."""
    stmt = body[index]
    end = stmt.end_lineno or stmt.lineno
    if lines[stmt.lineno - 1][: stmt.col_offset].strip() if indented else stmt.col_offset != 0:
        return False
    if index > 0 and (body[index - 1].end_lineno or 0) >= stmt.lineno:
        return False
    if index + 1 < len(body) and body[index + 1].lineno <= end:
        return False
    rest = lines[end - 1][stmt.end_col_offset or 0 :].strip()
    return not rest or rest.startswith("#")


def _without(stmt: ast.Import | ast.ImportFrom, dead: set[str], lines: list[str]) -> Edit | None:
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    indent = lines[first - 1][: stmt.col_offset]
    # Parsed without the block's indentation (continuation lines sit inside parentheses).
    text = "".join(lines[first - 1 : last])[len(indent) :]
    try:
        line = cst.parse_statement(text)
    except cst.ParserSyntaxError:
        return None
    if type(line) is not cst.SimpleStatementLine or len(line.body) != 1:
        return None
    node = line.body[0]
    if type(node) not in (cst.Import, cst.ImportFrom) or type(node.names) is cst.ImportStar:
        return None
    kept = [alias for alias in node.names if bound_name(alias) not in dead]
    end = Location(last + 1, 1) if last < len(lines) else Location(last, len(lines[last - 1].rstrip("\r\n")) + 1)
    if not kept:
        return Edit(Location(first, 1), end, "")
    # The last name keeps a trailing comma only where the original's last name had one.
    trailing = node.names[-1].comma
    kept[-1] = kept[-1].with_changes(comma=trailing if type(trailing) is cst.Comma else cst.MaybeSentinel.DEFAULT)
    new_line = line.with_changes(body=[node.with_changes(names=kept)])
    code = indent + cst.Module(body=[]).code_for_node(new_line)
    if last == len(lines) and not lines[-1].endswith(("\n", "\r")):
        code = code.rstrip("\r\n")
    return Edit(Location(first, 1), end, code)
