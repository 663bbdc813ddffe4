"""Parse only the part of a helper module that the tools can reach.

A module analysed because a tool calls into it (prefilter.py: "modules the linker asks for") is
asked for a few names: `utils.format_error`, `client.Api.get`. Its other functions cannot change a
finding unless one of those names leads to them, and libcst's parse is most of the cost of an
analysis. So before the CST is built, CPython's parser (`ast`, about twenty times faster) says
which definitions the asked names need, and the others are replaced by empty lines. Every kept
line keeps its number and text, so positions, fixes and noqa rows are those of the real file; only
the dropped definitions are missing from the summary, which lists them (`ModuleSummary.pruned`:
`helper` for a top-level function or class, `Api.delete` for a method) so that a later request
for one of them analyses the module again with it kept (prefilter.analyze_reachable).

What is kept, until nothing changes:
* every statement that is not a `def`/`class` at the top level or a method (imports, assignments,
  `if TYPE_CHECKING:` blocks, class attributes: what the model reads outside functions);
* the definitions asked for (a method asked for keeps its class, not the other methods);
* every definition whose name the kept code mentions, as a name or as an attribute (`self.get`,
  `api.get`); a class whose method the kept code calls by a bare name (what
  rules/exception_text._project_call accepts);
* in a kept class: dunder methods, and methods that store an object on `self` (`self.client =
  Api()`: the linker resolves `self.client.get` through them).
That over-approximates every way the model and the rules follow a name inside a module.
"""

from __future__ import annotations

import ast
import io
from dataclasses import dataclass
from typing import Collection, Iterable, Union

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
Definition = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef]


@dataclass(frozen=True)
class Pruned:
    source: str  # the module with the dropped definitions blanked, line for line
    tree: ast.Module  # `ast` of that text
    dropped: frozenset[str]  # "name" of top-level definitions, "Class.method" of methods left out


def prune(source: str, tree: ast.Module, wanted: Collection[str]) -> Pruned | None:
    """The module reduced to what `wanted` needs; None when that is all of it.

    `wanted` holds dotted paths below the module: `helper`, `Api`, `Api.get`, `api.get` (an
    instance: its first part is what counts here).
    """
    units = _units(tree)
    if not units:
        return None
    asked = set()
    for path in wanted:
        parts = path.split(".")
        asked.add(parts[0])
        if len(parts) > 1:
            asked.add(f"{parts[0]}.{parts[1]}")
    kept: set[str] = set()
    attributes: set[str] = set()
    bare: set[str] = set()
    _mention(_outside(tree, units), attributes, bare)
    while True:
        new = [key for key, unit in units.items() if key not in kept and _needed(key, unit, asked, kept, attributes, bare)]
        if not new:
            break
        kept.update(new)
        _mention(_bodies(units[key] for key in new), attributes, bare)
    dropped = {key for key in units if key not in kept and (key.partition(".")[0] in kept or "." not in key)}
    if not dropped:
        return None
    source_lines = io.StringIO(source, newline="").readlines()  # \n, \r\n, \r only, as the tokenizer
    lines = list(source_lines)
    for key in dropped:
        for node in units[key].nodes:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            for index in range(first - 1, min(node.end_lineno or node.lineno, len(lines))):
                line = lines[index]
                lines[index] = line[len(line.rstrip("\r\n")) :]  # keep only the line ending
            if "." in key:  # a method: `...` in its place, so that no class body is left empty
                line, original = lines[first - 1], source_lines[first - 1]
                indent = original[: len(original) - len(original.lstrip(" \t"))]
                lines[first - 1] = indent + "..." + line
    text = "".join(lines)
    try:
        reduced = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # e.g. a class left with an empty body: analyse the whole file
    return Pruned(text, reduced, frozenset(dropped))


@dataclass
class _Unit:
    """A top-level definition ("name") or a method ("Class.name"); a name may be defined twice."""

    nodes: list[Definition]
    is_class: bool = False
    method_names: frozenset[str] = frozenset()
    stores_on_self: bool = False


def _units(tree: ast.Module) -> dict[str, _Unit]:
    units: dict[str, _Unit] = {}
    for statement in tree.body:
        if not isinstance(statement, (*_FUNCTIONS, ast.ClassDef)):
            continue
        unit = units.setdefault(statement.name, _Unit([]))
        unit.nodes.append(statement)
        if isinstance(statement, ast.ClassDef):
            unit.is_class = True
            methods = [m for m in statement.body if isinstance(m, _FUNCTIONS)]
            unit.method_names |= {m.name for m in methods}
            for method in methods:
                member = units.setdefault(f"{statement.name}.{method.name}", _Unit([]))
                member.nodes.append(method)
                member.stores_on_self |= _stores_on_self(method)
    return units


def _stores_on_self(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for node in ast.walk(method):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" for t in targets):
                return True
    return False


def _needed(key: str, unit: _Unit, asked: set[str], kept: set[str], attributes: set[str], bare: set[str]) -> bool:
    owner, _, name = key.rpartition(".")
    if owner and owner not in kept:
        return False  # a method counts once its class is kept
    if key in asked or name in bare or name in attributes:
        return True
    if owner:
        return (name.startswith("__") and name.endswith("__")) or unit.stores_on_self
    return unit.is_class and bool(unit.method_names & bare)


def _outside(tree: ast.Module, units: dict[str, _Unit]) -> Iterable[ast.AST]:
    """Every statement that is neither a top-level definition nor a method (always kept)."""
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            yield from statement.bases
            yield from statement.keywords
            yield from statement.decorator_list
            yield from (s for s in statement.body if not isinstance(s, _FUNCTIONS))
        elif not isinstance(statement, _FUNCTIONS):
            yield statement


def _bodies(units: Iterable[_Unit]) -> Iterable[ast.AST]:
    """What a newly kept unit adds: a function whole, a class's header (its methods are units)."""
    for unit in units:
        for node in unit.nodes:
            if isinstance(node, ast.ClassDef):
                continue  # its bases and class-level statements are always kept (_outside)
            yield node


def _mention(nodes: Iterable[ast.AST], attributes: set[str], bare: set[str]) -> None:
    """Add the attribute names and bare names used anywhere in `nodes`."""
    for root in nodes:
        for node in ast.walk(root):
            if isinstance(node, ast.Name):
                bare.add(node.id)
            elif isinstance(node, ast.Attribute):
                attributes.add(node.attr)
