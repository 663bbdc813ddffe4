"""Where a fix puts the imports it needs: where isort would, next to their relatives.

A new name from a module the file already imports from joins that line (`from fastmcp.exceptions
import ToolError` goes into `from fastmcp.exceptions import ResourceError`). Otherwise the import
goes into its section (standard library / third party / first party), in sorted position among
the section's `import x` lines or its `from x import y` lines, as isort's default profile orders
them; a section the file does not have yet is opened with a blank line. A module-level statement
the fix needs (`logger = logging.getLogger(__name__)`) goes after the import block.

The block is read once per file at analysis time (`read_imports`, from CPython's tree) into a
picklable `ImportBlock`; the link step turns the needed imports into edits (`import_edits`).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from typing import Iterator

import libcst as cst

from mcp_lint.findings import Edit, Location

_STDLIB, _THIRD, _FIRST = 0, 1, 2
_STDLIB_NAMES = frozenset(getattr(sys, "stdlib_module_names", ())) | {"__future__"}


@dataclass(frozen=True)
class ImportAlias:
    name: str  # the imported name as written (`A` of `A as B`)
    start: Location
    end: Location


@dataclass(frozen=True)
class ImportLine:
    module: str  # `x.y` of `import x.y` / `from x.y import z`; `.` prefixed when relative
    is_from: bool
    first_row: int
    last_row: int
    end: Location  # the end of its last line (after a trailing comment): where a next line starts
    aliases: tuple[ImportAlias, ...]
    star: bool = False
    trailing_comma: bool = False  # `from x import (\n    a,\n)`
    indent: str = ""  # of a line inside a top-level `try:` (ImportBlock.guarded)


@dataclass(frozen=True)
class ImportBlock:
    lines: tuple[ImportLine, ...] = ()
    first_party: str = ""  # top-level package of the linted module
    # Where to put imports in a file without any: after the docstring, else at the top.
    top: Location = Location(1, 1)
    # Blank lines between imports put at `top` and the code under them: two before a def or a
    # class (PEP 8, isort), else one; and one above them when `top` follows a docstring or a
    # comment directly.
    top_gap: int = 1
    top_lead: int = 0
    # The module imports the MCP framework only for type checkers or inside functions (it is
    # written to import without it): a fix must not add a top-level framework import.
    framework_deferred: bool = False
    # The file keeps its imports in one block with no sections (isort's `no_sections`: plain
    # `import`s first, then `from`s, each alphabetical, no blank line between stdlib and third
    # party): a new import goes into that order, not into a section of its own.
    no_sections: bool = False
    # Blank lines the file leaves after its imports (two in some layouts, before any statement):
    # a statement the fix adds after the block stands as far from it.
    after_gap: int = 1
    # Names the module's own imports bind at module level when it runs (inside a top-level `if` or
    # `try` too, not under `if TYPE_CHECKING:`): the only imported names a fix may use anywhere in
    # the module. A function's own `import mcp.server.fastmcp` binds `mcp` in that function only.
    runtime_names: frozenset[str] = frozenset()
    # The framework imported only inside a top-level `try:` whose `except ImportError:` stops
    # with the author's message (`print("pip install mcp"); sys.exit(1)`), no other framework
    # there: a new framework import goes into that `try` after them, so a missing package still
    # meets the author's message first.
    guarded: tuple[ImportLine, ...] = ()
    # The end of that `try` statement (its last handler's last line): statements a fix adds after
    # the imports go below it, not between the imports and the guard.
    guard_end: Location | None = None


def statements_tree(module: cst.Module) -> ast.Module:
    """CPython's tree of `module` built one top-level statement at a time, for a file whose newer
    syntax (a 3.12 f-string in some function) the running Python refuses as a whole: the imports
    at its top still anchor a fix's new imports. A statement it cannot parse stands as `pass` at
    its line, so the import block still ends there."""
    row = 1 + len(module.header)
    body: list[ast.stmt] = []
    for statement in module.body:
        code = module.code_for_node(statement)
        try:
            part = ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            first = row + len(statement.leading_lines)
            body.append(ast.Pass(lineno=first, col_offset=0, end_lineno=first, end_col_offset=0))
        else:
            body.extend(ast.increment_lineno(part, row - 1).body)
        row += code.count("\n")
    return ast.Module(body=body, type_ignores=[])


def read_imports(tree: ast.Module | None, lines: list[str], module_name: str) -> ImportBlock:
    """The module's top-level imports before its first def/class (CPython's tree, no CST)."""
    if tree is None:
        return ImportBlock()
    found: list[ImportLine] = []
    docstring = bool(tree.body) and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant) and isinstance(tree.body[0].value.value, str)
    code = tree.body[1:] if docstring else tree.body
    top_gap = 2 if code and isinstance(code[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else 1
    # A file with no imports gets them where isort puts them: below the docstring and the
    # comments at the top (a shebang, a licence), right above the first code line.
    top_row = (tree.body[0].end_lineno or tree.body[0].lineno) + 1 if docstring else 1
    while top_row <= len(lines) and (not lines[top_row - 1].strip() or lines[top_row - 1].lstrip().startswith("#")):
        top_row += 1
    if code:
        first_code = min([code[0].lineno, *(d.lineno for d in getattr(code[0], "decorator_list", []))])
        top_row = min(top_row, first_code)
    above = lines[top_row - 2] if top_row >= 2 and top_row - 2 < len(lines) else ""
    top_lead = 1 if top_row > 1 and above.strip() else 0
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            line = _line(stmt, lines)
            if line is not None:
                found.append(line)
        elif found and not isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.If, ast.Try)):
            break
    first_party = module_name.split(".")[0]
    guarded, guard_end = _guarded_framework(tree, lines)
    return ImportBlock(
        tuple(found),
        first_party,
        Location(top_row, 1),
        top_gap,
        top_lead,
        _framework_deferred(tree),
        no_sections=_without_sections(found, first_party),
        after_gap=_gap_after(found, lines),
        runtime_names=frozenset(_runtime_names(tree.body)),
        guarded=guarded,
        guard_end=guard_end,
    )


def _guarded_framework(tree: ast.Module, lines: list[str]) -> tuple[tuple[ImportLine, ...], Location | None]:
    """The framework imports of the top-level `try:` guarding them (see ImportBlock.guarded),
    when no top-level import of the framework runs outside such a guard, and where that `try` ends."""
    found: list[ImportLine] = []
    end: Location | None = None
    for stmt in tree.body:
        if _imports_framework(stmt):
            return (), None
        if not isinstance(stmt, ast.Try) or not any(_imports_framework(inner) for inner in stmt.body):
            continue
        stops = all(
            _catches_import_error(handler.type) and not any(_imports_framework(inner) for inner in ast.walk(handler))
            for handler in stmt.handlers
        )
        if not stmt.handlers or not stops:
            return (), None  # a fallback to another framework: what the new name is depends on the branch
        for inner in stmt.body:
            if _imports_framework(inner):
                line = _line(inner, lines, indented=True)  # type: ignore[arg-type]
                if line is not None:
                    found.append(line)
        last_row = stmt.end_lineno or stmt.lineno
        end = Location(last_row, len(lines[last_row - 1]) + 1)
    return tuple(found), end if found else None


def _catches_import_error(kind: ast.expr | None) -> bool:
    names = kind.elts if isinstance(kind, ast.Tuple) else [kind] if kind is not None else []
    return any(isinstance(name, ast.Name) and name.id in ("ImportError", "ModuleNotFoundError") for name in names)


def _runtime_names(block: list[ast.stmt]) -> Iterator[str]:
    """The names `block`'s imports bind when it runs, through `if`/`elif`/`else` and
    `try`/`except`/`else`/`finally` blocks, never into a def or a class, nor under
    `if TYPE_CHECKING:`."""
    for stmt in block:
        if isinstance(stmt, ast.Import):
            yield from (alias.asname or alias.name.split(".")[0] for alias in stmt.names)
        elif isinstance(stmt, ast.ImportFrom):
            yield from (alias.asname or alias.name for alias in stmt.names if alias.name != "*")
        elif isinstance(stmt, ast.If):
            if not _is_type_checking(stmt.test):
                yield from _runtime_names(stmt.body)
            yield from _runtime_names(stmt.orelse)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            for part in (stmt.body, *(handler.body for handler in stmt.handlers), stmt.orelse, stmt.finalbody):  # type: ignore[attr-defined]
                yield from _runtime_names(part)


def _without_sections(found: list[ImportLine], first_party: str) -> bool:
    """Are the imports one block of more than one section, with no blank line between, plain
    `import`s before `from`s and each kind in alphabetical order (isort's `no_sections`)?"""
    lines = [line for line in found if line.module != "__future__"]
    if len(lines) < 2 or any(b.first_row != a.last_row + 1 for a, b in zip(lines, lines[1:])):
        return False
    if len({_section(line.module, frozenset({first_party})) for line in lines}) < 2:
        return False  # one section: its order says nothing about sections
    kinds = [line.is_from for line in lines]
    if kinds != sorted(kinds):
        return False
    for is_from in (False, True):
        modules = [line.module.lower() for line in lines if line.is_from == is_from]
        if modules != sorted(modules):
            return False
    return True


def _gap_after(found: list[ImportLine], lines: list[str]) -> int:
    """Blank lines between the last import and the next line of code: 2 when the file leaves
    two there before a statement that is not a def or a class (its own layout), else 1."""
    if not found:
        return 1
    row = found[-1].last_row + 1
    blank = 0
    while row <= len(lines) and not lines[row - 1].strip():
        blank += 1
        row += 1
    following = lines[row - 1].lstrip() if row <= len(lines) else ""
    if blank == 2 and following and not following.startswith(("def ", "class ", "async def ", "@", "#")):
        return 2
    return 1


# Top-level packages of the MCP frameworks whose imports a fix may add.
_FRAMEWORKS = ("mcp", "fastmcp")


def _framework_deferred(tree: ast.Module) -> bool:
    """Does the module reach the framework only under `if TYPE_CHECKING:` or inside functions,
    with no top-level import of it that runs?"""
    # A top-level import that runs settles it: nearly every server has one.
    for stmt in tree.body:
        if _imports_framework(stmt) or (isinstance(stmt, ast.Try) and any(_imports_framework(s) for s in stmt.body)):
            return False
    return _deferred_import(tree.body, False)


def _deferred_import(block: list[ast.stmt], deferred: bool) -> bool:
    """Is a framework import among `block`'s statements, at any depth, inside a function or the
    body of an `if TYPE_CHECKING:` (`deferred`: the block itself is)? Imports are statements, so
    only statement lists are walked, not the expressions that make up most of a tree."""
    for stmt in block:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            if deferred and _imports_framework(stmt):
                return True
            continue
        inner = deferred or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        body = getattr(stmt, "body", None)
        if body and _deferred_import(body, inner or (isinstance(stmt, ast.If) and _is_type_checking(stmt.test))):
            return True
        for name in ("orelse", "finalbody"):
            other = getattr(stmt, name, None)
            if other and _deferred_import(other, inner):
                return True
        for clause in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
            if _deferred_import(clause.body, inner):
                return True
    return False


def _imports_framework(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(alias.name.split(".")[0] in _FRAMEWORKS for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and (node.module or "").split(".")[0] in _FRAMEWORKS
    return False


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _line(stmt: ast.Import | ast.ImportFrom, lines: list[str], indented: bool = False) -> ImportLine | None:
    if stmt.col_offset != 0 and not indented:
        return None  # `x = 1; import y`: not a line of its own
    end_row = stmt.end_lineno or stmt.lineno
    aliases = []
    for alias in stmt.names:
        row, end = getattr(alias, "lineno", None), getattr(alias, "end_lineno", None)
        if row is None or end is None:
            return None  # Python < 3.10 has no alias positions
        aliases.append(
            ImportAlias(
                alias.name,
                Location(row, _column(lines, row, alias.col_offset)),
                Location(end, _column(lines, end, alias.end_col_offset or 0)),
            )
        )
    if isinstance(stmt, ast.ImportFrom):
        module = "." * stmt.level + (stmt.module or "")
    else:
        module = stmt.names[0].name
    text_after = lines[end_row - 1][_column(lines, end_row, stmt.end_col_offset or 0) - 1 :]
    if text_after.strip() and not text_after.strip().startswith("#"):
        return None  # `import a; import b`
    last_alias_end = aliases[-1].end
    closing = lines[last_alias_end.row - 1][last_alias_end.column - 1 :] if aliases else ""
    return ImportLine(
        module=module,
        is_from=isinstance(stmt, ast.ImportFrom),
        first_row=stmt.lineno,
        last_row=end_row,
        end=Location(end_row, len(lines[end_row - 1]) + 1),
        aliases=tuple(aliases),
        star=any(a.name == "*" for a in stmt.names),
        trailing_comma=end_row > stmt.lineno and closing.lstrip().startswith(","),
        indent=lines[stmt.lineno - 1][: stmt.col_offset] if indented else "",
    )


def _column(lines: list[str], row: int, byte_offset: int) -> int:
    """ast counts UTF-8 bytes; edits count characters (1-based)."""
    line = lines[row - 1] if 0 < row <= len(lines) else ""
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore")) + 1


# -- placing new imports -------------------------------------------------------------------------


def import_edits(
    block: ImportBlock, wanted: list[tuple[str, str | None]], after_block: list[str], first_party: frozenset[str] = frozenset()
) -> list[Edit]:
    """Edits adding `wanted` imports ((module, name) for `from module import name`, (module, None)
    for `import module`) and the `after_block` statements; one edit per insertion point.
    `first_party`: the project's top-level modules (the file's own package always is one)."""
    if block.first_party:
        first_party = first_party | {block.first_party}
    # Per insertion point: (0, new import line) or (1, statement after the block), in that order.
    inserts: dict[Location, list[tuple[int, str]]] = {}
    joins: dict[ImportLine, list[str]] = {}
    for module, name in wanted:
        existing = _from_line(block, module) if name is not None else None
        if existing is not None:
            joins.setdefault(existing, []).append(name)  # type: ignore[arg-type]
            continue
        statement = f"from {module} import {name}" if name is not None else f"import {module}"
        where, text = _placement(block, module, name is not None, statement, first_party)
        inserts.setdefault(where, []).append((0, text))
    edits = [_join(line, names) for line, names in joins.items()]
    if after_block:
        code = "\n".join(after_block)
        if block.lines:
            gap = "\n" * (1 + getattr(block, "after_gap", 1))
            below = block.lines[-1].end
            guard_end = getattr(block, "guard_end", None)
            if guard_end is not None and guard_end.row > below.row:
                below = guard_end
            inserts.setdefault(below, []).append((1, f"{gap}{code}"))
        else:
            # Below the imports just inserted at the top (if any), a blank line between.
            opening = "\n" if inserts.get(block.top) else ""
            inserts.setdefault(block.top, []).append((1, f"{opening}{code}\n\n"))
    fresh = not block.lines
    for where, texts in inserts.items():
        if fresh and where == block.top:
            edits.append(Edit(where, where, "\n" * block.top_lead + _fresh_block(texts, first_party, block.top_gap)))
            continue
        edits.append(Edit(where, where, "".join(text for _, text in sorted(texts, key=lambda t: t[0]))))
    return sorted(edits)


def _fresh_block(texts: list[tuple[int, str]], first_party: frozenset[str], gap: int) -> str:
    """The import block of a file that had none: its sections apart (stdlib, third party, first
    party), then the module-level statements, then the blank lines PEP 8 wants before the code."""
    imports = sorted((text for kind, text in texts if kind == 0), key=lambda t: (_section(_module_of(t), first_party), t.lower()))
    sections: list[list[str]] = []
    for text in imports:
        section = _section(_module_of(text), first_party)
        if sections and _section(_module_of(sections[-1][0]), first_party) == section:
            sections[-1].append(text)
        else:
            sections.append([text])
    block = "\n".join("".join(group) for group in sections)
    after = "".join(text.strip("\n") + "\n" for kind, text in texts if kind == 1)
    if after:
        block += "\n" + after if block else after
    return block + "\n" * gap


def _module_of(statement: str) -> str:
    """`x.y` of `import x.y` / `from x.y import z`."""
    return statement.split()[1]


def _from_line(block: ImportBlock, module: str) -> ImportLine | None:
    for line in block.lines:
        if line.is_from and line.module == module and not line.star and line.aliases:
            return line
    return None


def _join(line: ImportLine, names: list[str]) -> Edit:
    """`from m import A, C` + B -> `from m import A, B, C` (inserted in sorted position)."""
    name = sorted(set(names))[0] if len(set(names)) == 1 else None
    if name is None:  # several names for one line: add them together after the last one
        text = ", ".join(sorted(set(names)))
        return Edit(line.aliases[-1].end, line.aliases[-1].end, f", {text}")
    before = [alias for alias in line.aliases if _sort_key(alias.name) < _sort_key(name)]
    multiline = line.last_row > line.first_row and len({a.start.row for a in line.aliases}) == len(line.aliases)
    if multiline:
        # One name per line: a line of its own, indented like its neighbours.
        anchor = before[-1] if before else None
        indent = " " * (line.aliases[0].start.column - 1)
        if anchor is None:
            first = line.aliases[0].start
            return Edit(Location(first.row, 1), Location(first.row, 1), f"{indent}{name},\n")
        if anchor is line.aliases[-1] and not line.trailing_comma:
            return Edit(anchor.end, anchor.end, f",\n{indent}{name}")
        return Edit(Location(anchor.end.row + 1, 1), Location(anchor.end.row + 1, 1), f"{indent}{name},\n")
    if before:
        return Edit(before[-1].end, before[-1].end, f", {name}")
    return Edit(line.aliases[0].start, line.aliases[0].start, f"{name}, ")


def _sort_key(name: str) -> tuple[str, str]:
    # isort's default: case-insensitive, then as written.
    return (name.lower(), name)


def _section(module: str, first_party: frozenset[str]) -> int:
    top = module.split(".")[0]
    if module.startswith(".") or top in first_party:
        return _FIRST
    return _STDLIB if top in _STDLIB_NAMES else _THIRD


def _placement(block: ImportBlock, module: str, is_from: bool, statement: str, first_party: frozenset[str]) -> tuple[Location, str]:
    """Where one new import line goes, and the text to insert there."""
    guarded = getattr(block, "guarded", ())
    if guarded and module.split(".")[0] in _FRAMEWORKS:
        return guarded[-1].end, f"\n{guarded[-1].indent}{statement}"
    lines = [line for line in block.lines if line.module != "__future__"]
    if not lines:
        future = [line for line in block.lines if line.module == "__future__"]
        if future:
            return future[-1].end, f"\n\n{statement}"
        return block.top, f"{statement}\n"
    section = _section(module, first_party)
    same = [line for line in lines if _section(line.module, first_party) == section]
    if getattr(block, "no_sections", False):
        same = lines  # one block: the new line takes its alphabetical place among them all
    if same:
        kind = [line for line in same if line.is_from == is_from]
        key = module.lower()
        earlier = [line for line in kind if line.module.lower() <= key]
        if earlier:
            return earlier[-1].end, f"\n{statement}"
        if kind:
            return Location(kind[0].first_row, 1), f"{statement}\n"
        # isort puts `import x` lines before `from x import y` lines within a section.
        if is_from:
            return same[-1].end, f"\n{statement}"
        return Location(same[0].first_row, 1), f"{statement}\n"
    # A section of its own, in stdlib / third party / first party order, blank lines around.
    later = [line for line in lines if _section(line.module, first_party) > section]
    if later:
        # An earlier section's import right above it (the file keeps no blank line between its
        # sections): a blank line above the new section too, never glued to that one.
        glued = any(line.last_row == later[0].first_row - 1 for line in lines if _section(line.module, first_party) < section)
        return Location(later[0].first_row, 1), f"{chr(10) if glued else ''}{statement}\n\n"
    return lines[-1].end, f"\n\n{statement}"
