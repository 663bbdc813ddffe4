"""Source transforms that keep a server's meaning: what a reviewer would call the same code.

Each takes a module's text and returns the transformed text (or files), or None when it does not
apply to that module. They are written with libcst, so the output is the input with only the
intended change: the same lines, comments and layout elsewhere.

- `rename_nouns`: the nouns in the names the module defines (functions, parameters, locals,
  classes) replaced consistently by other nouns of the same number (`get_note(note_id)` ->
  `get_address(address_id)`, `list_notes` -> `list_addresses`). Verbs, imported names,
  attributes and keywords of calls into other code stay: they are not the module's to choose.
- `swap_definitions` / `swap_statements`: two adjacent independent statements exchanged (two
  module-level function definitions; two one-line statements in a body that read and write
  nothing the other writes, at most one of them calling anything).
- `move_tool`: the last tool of the module moved into a module of its own (`tools.py`), which
  imports the server object and the helpers it uses from the first, as projects split servers.
- `translate`: the failure wording of the module's string literals said in another of the six
  languages (`"Note {id} not found"` -> `"Note {id} nicht gefunden"`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

import libcst as cst
from libcst import matchers as m

# -- renaming nouns ----------------------------------------------------------------------------

# Singular and plural nouns an example may name its records with, and what they become. The
# replacements end in "s" in the singular too (`address`, `campus`, `canvas`, `alias`, `thesis`),
# so a name's number cannot be read off its last letter.
NOUN_MAPS: dict[str, dict[str, str]] = {
    "address": {
        "note": "address", "notes": "addresses", "customer": "campus", "customers": "campuses",
        "item": "alias", "items": "aliases", "record": "canvas", "records": "canvases",
        "document": "thesis", "documents": "theses", "user": "bus", "users": "buses",
        "file": "atlas", "files": "atlases", "order": "census", "orders": "censuses",
        "issue": "virus", "issues": "viruses", "task": "lens", "tasks": "lenses",
        "page": "bonus", "pages": "bonuses", "doc": "gas", "docs": "gases",
        "weather": "forecast", "forecast": "climate", "city": "oasis", "cities": "oases",
        "invoice": "process", "invoices": "processes", "book": "class", "books": "classes",
        "product": "access", "products": "accesses", "ticket": "analysis", "tickets": "analyses",
        "account": "census_entry", "accounts": "census_entries",
    },
    "plain": {
        "note": "parcel", "notes": "parcels", "customer": "member", "customers": "members",
        "item": "entry", "items": "entries", "record": "report", "records": "reports",
        "document": "sheet", "documents": "sheets", "user": "person", "users": "people",
        "file": "folder", "files": "folders", "order": "shipment", "orders": "shipments",
        "issue": "card", "issues": "cards", "task": "job", "tasks": "jobs",
        "page": "leaf", "pages": "leaves", "doc": "memo", "docs": "memos",
        "weather": "climate", "city": "town", "cities": "towns",
        "invoice": "receipt", "invoices": "receipts", "book": "album", "books": "albums",
        "product": "article", "products": "articles", "ticket": "case", "tickets": "cases",
        "account": "profile", "accounts": "profiles",
    },
}
# Names a framework or Python gives meaning to: never renamed.
_KEPT = frozenset({"self", "cls", "ctx", "context", "mcp", "server", "app", "main", "_"})
_CAMEL_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _renamed_identifier(name: str, nouns: dict[str, str]) -> str:
    """`get_note_by_id` -> `get_address_by_id`, `NoteStore` -> `AddressStore`: whole words only."""
    if name.startswith("__") and name.endswith("__"):
        return name

    def word(part: str) -> str:
        lower = part.lower()
        if lower not in nouns:
            return part
        new = nouns[lower]
        if part.isupper() and len(part) > 1:
            return new.upper()
        return new.capitalize() if part[0].isupper() else new

    if "_" in name.strip("_") or name.islower() or name.isupper():
        return "_".join(word(p) if p else p for p in name.split("_"))
    return "".join(word(p) for p in _CAMEL_PART.findall(name)) if "".join(_CAMEL_PART.findall(name)) == name else name


class BoundNames(cst.CSTVisitor):
    """The names a tree binds by assignment (plain, annotated, augmented), `for`, comprehension,
    `with ... as`, `except ... as`, `import ... as` and `:=` targets: `bound`."""

    def __init__(self) -> None:
        self.bound: set[str] = set()

    def _targets(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.bound.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._targets(element.value)
        elif isinstance(target, cst.StarredElement):
            self._targets(target.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._targets(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._targets(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._targets(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._targets(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._targets(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._targets(node.target)


class _Defined(BoundNames):
    """Names the module defines (`defined`): functions, classes, parameters and bound names;
    apart, the names it imports and its methods, whose names a framework or a base class may call."""

    def __init__(self) -> None:
        super().__init__()
        self.named: set[str] = set()
        self.imported: set[str] = set()
        self.methods: set[str] = set()
        self._classes = 0

    @property
    def defined(self) -> set[str]:
        return self.bound | self.named

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.named.add(node.name.value)
        self._classes += 1

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes -= 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        (self.methods if self._classes else self.named).add(node.name.value)

    def visit_Param(self, node: cst.Param) -> None:
        self.named.add(node.name.value)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        name = node.asname.name if node.asname else node.name
        while isinstance(name, cst.Attribute):
            name = name.value
        if isinstance(name, cst.Name):
            self.imported.add(name.value)


class _RenameNouns(cst.CSTTransformer):
    def __init__(self, mapping: dict[str, str], own_functions: set[str]) -> None:
        self.mapping = mapping
        self.own_functions = own_functions  # keywords of calls to these name their parameters
        self.in_annotation = 0
        self.word = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(mapping, key=len, reverse=True))) + r")\b")

    def visit_Annotation(self, node: cst.Annotation) -> None:
        self.in_annotation += 1

    def leave_Annotation(self, original_node: cst.Annotation, updated_node: cst.Annotation) -> cst.Annotation:
        self.in_annotation -= 1
        return updated_node

    def leave_SimpleString(self, original_node: cst.SimpleString, updated_node: cst.SimpleString) -> cst.SimpleString:
        """A string annotation (`-> "NotesApi | None"`) is code: its names are renamed too."""
        if not self.in_annotation:
            return updated_node
        return updated_node.with_changes(value=self.word.sub(lambda found: self.mapping[found.group(0)], updated_node.value))

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        new = self.mapping.get(original_node.value)
        return updated_node.with_changes(value=new) if new else updated_node

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.Attribute:
        return updated_node.with_changes(value=original_node.value.visit(self), attr=original_node.attr)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False  # imported names are other modules' names

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        own = isinstance(original_node.func, cst.Name) and original_node.func.value in self.own_functions
        args = [
            new.with_changes(keyword=old.keyword)
            if old.keyword is not None and not (own and old.keyword.value in self.mapping)
            else new
            for old, new in zip(original_node.args, updated_node.args)
        ]
        return updated_node.with_changes(args=args)


def rename_nouns(code: str, nouns: dict[str, str]) -> str | None:
    """The module with the nouns of its own names replaced; None when no name changes."""
    module = cst.parse_module(code)
    found = _Defined()
    module.visit(found)
    mapping = {}
    for name in found.defined - found.imported - found.methods - _KEPT:
        new = _renamed_identifier(name, nouns)
        if new != name:
            mapping[name] = new
    every_name = found.defined | found.imported | found.methods
    if not mapping or set(mapping.values()) & (every_name - set(mapping)):
        return None  # nothing to rename, or a new name taken by another
    return module.visit(_RenameNouns(mapping, found.defined)).code


# -- reordering independent statements ---------------------------------------------------------


def _names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in m.findall(node, m.Name())}


def _at_definition(statement: cst.BaseStatement) -> tuple[set[str], set[str], bool] | None:
    """(names bound, names read when the module runs it, whether that calls anything) of a
    module-level function or class definition or one-line assignment; None for other statements."""
    if isinstance(statement, cst.FunctionDef):
        header = [*statement.decorators, statement.params, *([statement.returns] if statement.returns else [])]
        read = set().union(*(_names_in(node) for node in header))
        # Decorators register or wrap the function: which is registered first changes no function.
        calls = any(m.findall(node, m.Call()) for node in header if not isinstance(node, cst.Decorator))
        return {statement.name.value}, read, calls
    if isinstance(statement, cst.ClassDef):
        return {statement.name.value}, _names_in(statement), bool(m.findall(statement, m.Call()))  # its body runs too
    simple = _simple_statement(statement)
    return None if simple is None or not simple[0] else simple


def swap_definitions(code: str) -> str | None:
    """Every pair of adjacent independent module-level definitions (functions, classes, one-line
    assignments) exchanged, decorators and comments with them; None when no pair is independent.
    Independent: neither reads, when the module runs, a name the other binds, and at most one
    calls anything then (`mcp = FastMCP()` stays before the `@mcp.tool()` that reads it)."""
    module = cst.parse_module(code)
    body = list(module.body)
    swapped = 0
    i = 0
    while i < len(body) - 1:
        a, b = _at_definition(body[i]), _at_definition(body[i + 1])
        if a is not None and b is not None and not (a[2] and b[2]) and not (a[0] & (b[0] | b[1])) and not (b[0] & a[1]):
            # Keep the blank lines where they were: each statement takes the other's leading lines.
            body[i], body[i + 1] = (
                body[i + 1].with_changes(leading_lines=body[i].leading_lines),
                body[i].with_changes(leading_lines=body[i + 1].leading_lines),
            )
            swapped += 1
            i += 2
        else:
            i += 1
    return module.with_changes(body=body).code if swapped else None


def _simple_statement(statement: cst.BaseStatement) -> tuple[set[str], set[str], bool] | None:
    """(names written, names read, whether it calls anything) of a one-line assignment or
    expression statement; None for any other statement."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if isinstance(small, cst.Assign) and all(isinstance(t.target, cst.Name) for t in small.targets):
        written = {t.target.value for t in small.targets}  # type: ignore[union-attr]
    elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.value is not None:
        written = {small.target.value}
    elif isinstance(small, cst.Expr) and not isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
        written = set()
    else:
        return None
    value = small.value
    if value is None or m.findall(value, m.Await() | m.Yield() | m.NamedExpr() | m.Lambda() | m.GeneratorExp()):
        return None
    return written, _names_in(value), bool(m.findall(value, m.Call()))


def independent(first: cst.BaseStatement, second: cst.BaseStatement) -> bool:
    """Two statements whose order does not matter: neither writes a name the other reads or
    writes, and at most one calls anything (two calls may act on the same outside state)."""
    a, b = _simple_statement(first), _simple_statement(second)
    if a is None or b is None or (a[2] and b[2]):
        return False
    return not (a[0] & (b[0] | b[1])) and not (b[0] & a[1])


class _SwapStatements(cst.CSTTransformer):
    def __init__(self) -> None:
        self.swapped = 0

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        body = list(updated_node.body)
        i = 0
        while i < len(body) - 1:
            if independent(body[i], body[i + 1]):
                body[i], body[i + 1] = (
                    body[i + 1].with_changes(leading_lines=body[i].leading_lines),
                    body[i].with_changes(leading_lines=body[i + 1].leading_lines),
                )
                self.swapped += 1
                i += 2
            else:
                i += 1
        return updated_node.with_changes(body=body)


def swap_statements(code: str) -> str | None:
    """Every pair of adjacent independent statements in a body exchanged; None when none is."""
    swapper = _SwapStatements()
    out = cst.parse_module(code).visit(swapper).code
    return out if swapper.swapped else None


# -- moving a tool into another module ---------------------------------------------------------


def _is_tool_decorator(decorator: cst.Decorator) -> bool:
    target = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
    return isinstance(target, cst.Attribute) and target.attr.value == "tool" and isinstance(target.value, cst.Name)


def move_tool(code: str, home: str = "server", new: str = "tools") -> dict[str, str] | None:
    """{"server.py": ..., "tools.py": ...}: the module's last `@<server>.tool` function moved into
    `tools.py`, which repeats the module's imports and imports from `server` the module-level names
    the tool reads; `server.py` imports `tools` at its end so the tool is still registered."""
    module = cst.parse_module(code)
    body = list(module.body)
    tools = [i for i, s in enumerate(body) if isinstance(s, cst.FunctionDef) and any(_is_tool_decorator(d) for d in s.decorators)]
    if not tools:
        return None
    index = tools[-1]
    tool = body[index]
    assert isinstance(tool, cst.FunctionDef)
    imports = [s for s in body if m.matches(s, m.SimpleStatementLine(body=[m.Import() | m.ImportFrom()]))]
    if any(m.matches(s, m.SimpleStatementLine(body=[m.ImportFrom(relative=[m.AtLeastN(n=1)])])) for s in imports):
        return None  # a package-relative module: the new module's imports would need its package
    bound = _Defined()
    for statement in body:
        if statement is not tool and not m.matches(statement, m.SimpleStatementLine(body=[m.Import() | m.ImportFrom()])):
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                bound.named.add(statement.name.value)
            elif isinstance(statement, cst.SimpleStatementLine):
                statement.visit(bound)
    wanted = sorted((_names_in(tool) & bound.defined) - {tool.name.value})
    header = [s for s in imports if not m.matches(s, m.SimpleStatementLine(body=[m.ImportFrom(module=m.Name("__future__"))]))]
    future = [s for s in imports if s not in header]
    lines = [cst.Module(body=[s]).code.strip() + "\n" for s in future + header]
    if wanted:
        lines.append(f"from {home} import {', '.join(wanted)}\n")
    moved = cst.Module(body=[tool.with_changes(leading_lines=[])]).code
    remaining = body[:index] + body[index + 1 :]
    server = module.with_changes(body=remaining).code.rstrip("\n") + f"\n\n\nimport {new}\n"
    return {f"{home}.py": server, f"{new}.py": "".join(lines) + "\n\n" + moved}


# -- translating failure wording ---------------------------------------------------------------


@dataclass(frozen=True)
class Phrase:
    english: re.Pattern[str]
    said: dict[str, str]  # language -> the same words (a language that lacks the form is absent)


LANGUAGES = ("zh", "ja", "es", "de", "fr", "pt")
PHRASES: Sequence[Phrase] = (
    # An empty answer: replaced whole, it reads as one sentence in each language.
    Phrase(
        re.compile(r"^No (?:\w+ ){0,2}?(?:results|matches|\w+s) (?:were )?found", re.I),
        {
            "zh": "没有找到任何结果",
            "ja": "検索結果はありません",
            "es": "No se encontraron resultados",
            "de": "Keine Ergebnisse gefunden",
            "fr": "Aucun résultat trouvé",
            "pt": "Nenhum resultado encontrado",
        },
    ),
    Phrase(
        re.compile(r"\bnot found\b", re.I),
        {"zh": "未找到", "ja": "が見つかりません", "es": "no encontrado", "de": "nicht gefunden", "fr": "introuvable", "pt": "não encontrado"},
    ),
    Phrase(
        re.compile(r"\bdoes not exist\b", re.I),
        {"zh": "不存在", "ja": "は存在しません", "es": "no existe", "de": "existiert nicht", "fr": "n'existe pas", "pt": "não existe"},
    ),
    Phrase(
        re.compile(r"^Error: ?"),
        {"zh": "错误：", "ja": "エラー: ", "es": "Error: ", "de": "Fehler: ", "fr": "Erreur : ", "pt": "Erro: "},
    ),
    Phrase(
        re.compile(r"^Failed to "),
        {"zh": "无法", "es": "No se pudo ", "de": "Konnte nicht ", "fr": "Impossible de ", "pt": "Não foi possível "},
    ),
)


def _translated(text: str, language: str) -> str:
    for phrase in PHRASES:
        said = phrase.said.get(language)
        if said is not None:
            text = phrase.english.sub(said.replace("\\", "\\\\"), text)
    return text


class _Translate(cst.CSTTransformer):
    def __init__(self, language: str) -> None:
        self.language = language
        self.changed = 0

    def leave_SimpleString(self, original_node: cst.SimpleString, updated_node: cst.SimpleString) -> cst.SimpleString:
        prefix_end = len(updated_node.prefix)
        quote = updated_node.quote
        inner = updated_node.value[prefix_end + len(quote) : -len(quote)]
        if "b" in updated_node.prefix.lower():
            return updated_node
        new = _translated(inner, self.language)
        if new == inner:
            return updated_node
        self.changed += 1
        return updated_node.with_changes(value=updated_node.value[: prefix_end + len(quote)] + new + quote)

    def leave_FormattedString(self, original_node: cst.FormattedString, updated_node: cst.FormattedString) -> cst.FormattedString:
        parts = list(updated_node.parts)
        for i, part in enumerate(parts):
            if isinstance(part, cst.FormattedStringText):
                # Only the opening part may carry an opening phrase ("Error: {e}").
                text = part.value if i == 0 else " " + part.value
                new = _translated(text, self.language)
                new = new if i == 0 else new[1:] if new.startswith(" ") else new
                if new != part.value:
                    parts[i] = part.with_changes(value=new)
                    self.changed += 1
        return updated_node.with_changes(parts=parts)


def translate(code: str, language: str) -> str | None:
    """The module with its failure wording said in `language`; None when it has none to say."""
    translator = _Translate(language)
    out = cst.parse_module(code).visit(translator).code
    return out if translator.changed else None


Transform = Callable[[str], "str | dict[str, str] | None"]
