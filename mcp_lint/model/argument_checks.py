"""Does a function reject bad arguments with a raise of its own? (`FunctionSummary.validates`)

A raise whose conditions read only the function's parameters, values computed from them by plain
functions, and constants: `def check_slug(slug): if not SLUG.fullmatch(slug): raise ValueError(...)`.
Several rules ask it of a helper a tool calls: a call of a validator after a mutation is a check
that comes too late; a `try` that calls one catches the author's sentence about the model's
argument with the rest, so rewriting the clause's text would lose it. It is recorded here, for
every function, so the answer never depends on which rules are selected.
"""

from __future__ import annotations

import builtins
from typing import Callable, Sequence

import libcst as cst

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.mutations import module_level_names, read_names
from mcp_lint.model.names import AliasTable, dotted
from mcp_lint.model.walk import children, descendants

# Calls that ask nobody for state: a condition made of them only reads its arguments.
PURE_CALLS = frozenset(
    {
        "len", "isinstance", "str", "int", "float", "bool", "any", "all", "min", "max", "abs", "sorted", "set", "list",
        "tuple", "dict", "type", "getattr", "hasattr", "re.match", "re.fullmatch", "re.search", "os.getenv",
        "os.environ.get", "callable", "round", "sum",
    }
)
PURE_METHODS = frozenset({"decode", "encode", "join", "casefold", "strip", "lower", "upper", "isdigit", "isalnum", "isalpha", "startswith", "endswith", "match", "fullmatch", "search", "get", "keys", "values", "items", "count", "split", "lstrip", "rstrip", "isidentifier", "isnumeric"})
# Methods of plain values (text, numbers, containers): calling one asks nobody for state.
VALUE_METHODS = frozenset(dir(str)) | frozenset(dir(dict)) | frozenset(dir(list)) | frozenset(dir(int)) | PURE_METHODS


_BUILTINS = frozenset(dir(builtins))


class ArgumentChecks:
    """`validates` for the functions of one module; the module's constants are read once."""

    def __init__(self, module: cst.Module, aliases: AliasTable, classes: Sequence[str], servers: Sequence[str]) -> None:
        self.module = module
        self.aliases = aliases
        self.classes = classes
        self.servers = servers
        self._constants: frozenset[str] | None = None

    def constants(self) -> frozenset[str]:
        """Constants and names of types (`isinstance(first, TextContent)`): no state."""
        if self._constants is None:
            names = module_level_names(self.module) | {n.split(".")[-1] for n in self.servers}
            self._constants = frozenset({n for n in names if n.isupper()} | set(self.aliases.aliases) | {q.rsplit(".", 1)[-1] for q in self.classes} | _BUILTINS)
        return self._constants

    def validates(self, fn: FunctionFacts) -> bool:
        """A raise whose conditions read only the parameters, values computed from them by plain
        functions, and constants: the function rejects bad arguments, whatever else it does. A
        returned failure (`return False, "bad kind"`) rejects nothing until the caller returns it;
        the caller's own check on it is the check then."""
        params = set(fn.params) - {"self", "cls"}
        if not params:
            return False
        if _rejects_failed_conversion(fn, params, frozenset(self.aliases.aliases)):
            return True
        rejections = [(r.conditions or _early_exit_tests(fn, r.node), r.handler) for r in fn.raises if r.node.exc is not None]
        if not any(conditions and handler is None for conditions, handler in rejections):
            return False
        derived = _derived_from(fn, params, frozenset(self.aliases.aliases))
        constants = self.constants()
        for conditions, handler in rejections:
            if handler is not None or not conditions:
                continue
            reads = {r.split(".")[0] for c in conditions for r in read_names(c)}
            if not reads & (params | set(derived)) or not reads <= params | set(derived) | constants | {"os"}:
                continue
            if all(_is_pure(c) for c in conditions if not reads & set(derived)) and all(_computes(c) for c in conditions):
                return True
        return False


# Classes a conversion or parse raises for a malformed value (`int("x")`, `json.loads("{")`,
# `Path(p).relative_to(root)` outside root, a model's ValidationError). Not KeyError/IndexError:
# a failed lookup says what the state holds, not that the argument was malformed.
_CONVERSION_ERRORS = lazy_compile(r"^(?:Value|Type|UnicodeDecode|UnicodeEncode|JSONDecode|Decode|Parse|Parser|Validation|Conversion)\w*Error$|^InvalidOperation$")


# Methods of a path made from an argument that convert it (`resolved.relative_to(root)`); not a
# reply's `resp.json()`: a parameter that is a response is no argument of the model's.
_PATH_CONVERSIONS = frozenset({"relative_to", "resolve", "is_relative_to", "expanduser", "absolute", "with_suffix", "with_name"})


def _rejects_failed_conversion(fn: FunctionFacts, params: set[str], modules: frozenset[str]) -> bool:
    """`try: n = int(count) except ValueError: raise ToolError(...)`: a raise in a clause that
    catches only conversion errors, around statements that convert values taken from the
    parameters, rejects a malformed argument: the check is the conversion's failure."""
    fed = _fed_by(fn, params)
    for r in fn.raises:
        handler = r.handler
        if r.node.exc is None or handler is None or not handler.caught or r.guarded:
            continue
        if not all(_CONVERSION_ERRORS.match(name.rsplit(".", 1)[-1]) for name in handler.caught):
            continue
        body = handler.try_node.body
        if _converts_only(body, fed, modules) and {n.split(".")[0] for n in read_names(body)} & fed:
            return True
    return False


def _fed_by(fn: FunctionFacts, params: set[str]) -> set[str]:
    """The parameters and the locals assigned once from them by any computation
    (`resolved = (root / Path(path)).resolve()`), transitively."""
    fed = set(params)
    changed = True
    while changed:
        changed = False
        for name, value in fn.single_assignments.items():
            if name not in fed and {n.split(".")[0] for n in read_names(value)} & fed:
                fed.add(name)
                changed = True
    return fed


def _converts_only(body: cst.CSTNode, fed: set[str], modules: frozenset[str]) -> bool:
    """No await, and every method called is one of a plain value, of a value taken from the
    parameters (`resolved.relative_to(root)`) or a module's function (`json.loads(text)`): the
    statements convert the arguments, they do not ask a client or a store for anything."""
    for node in descendants(body, into_scopes=False):
        if type(node) is cst.Await:
            return False
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value not in VALUE_METHODS:
            name = dotted(node.func) or ""
            receiver = {n.split(".")[0] for n in read_names(node.func.value)}
            if name in PURE_CALLS or (receiver and receiver <= fed and node.func.attr.value in _PATH_CONVERSIONS) or name.split(".")[0] in modules:
                continue
            return False
    return True


def validates_through_nested(fn: FunctionFacts, nested_validates: Callable[[cst.FunctionDef], bool]) -> bool:
    """`def check(plan): def walk(value): ... raise ValueError(...)` then `walk(plan)`: a function
    defined in the body that rejects bad arguments, called there as a statement with a value
    taken from the parameters, is the outer function's own refusal of them. `nested_validates`
    answers for a nested definition (its summary's `validates`)."""
    body = fn.node.body
    params = set(fn.params) - {"self", "cls"}
    if type(body) is not cst.IndentedBlock or not params:
        return False
    validators = {stmt.name.value for stmt in body.body if type(stmt) is cst.FunctionDef and nested_validates(stmt)}
    if not validators:
        return False
    fed = _fed_by(fn, params)
    for stmt in body.body:
        if type(stmt) is not cst.SimpleStatementLine:
            continue
        for small in stmt.body:
            call = small.value if type(small) is cst.Expr else None
            if type(call) is cst.Call and type(call.func) is cst.Name and call.func.value in validators:
                if any({n.split(".")[0] for n in read_names(arg.value)} & fed for arg in call.args):
                    return True
    return False


def _early_exit_tests(fn: FunctionFacts, raise_: cst.Raise) -> list[cst.BaseExpression]:
    """The tests of the `if` statements before a raise in the function's own body whose blocks
    end the function (`if isinstance(first, Text): return first.text` ... `raise ...`): the raise
    happens exactly when they all fail, so they are its conditions."""
    body = fn.node.body
    if type(body) is not cst.IndentedBlock:
        return []
    tests: list[cst.BaseExpression] = []
    for stmt in body.body:
        if type(stmt) is cst.SimpleStatementLine and any(small is raise_ for small in stmt.body):
            return tests
        if type(stmt) is cst.If and stmt.orelse is None and terminates(stmt.body):
            tests.append(stmt.test)
    return []


def _derived_from(fn: FunctionFacts, params: set[str], modules: frozenset[str]) -> dict[str, cst.BaseExpression]:
    """Locals assigned once from the parameters by plain computation (`url = build_url(a, b)`,
    `n = len(url.encode())`), transitively: a test of one tests the arguments."""
    derived: dict[str, cst.BaseExpression] = {}
    loops = [(n, v) for n, v in _loop_targets(fn.node) if n not in fn.single_assignments]
    changed = True
    while changed:
        changed = False
        for name, value in (*fn.single_assignments.items(), *loops):
            if name in derived or name in params:
                continue
            # A comprehension's own names (`[p.strip() for p in spec.split(",")]`) are its
            # argument's items, not other data.
            reads = {r.split(".")[0] for r in data_reads([value], modules)[0]} - _comprehension_names(value)
            if reads and reads <= params | set(derived) and _computes(value):
                derived[name] = value
                changed = True
    return derived


def _comprehension_names(value: cst.CSTNode) -> set[str]:
    """The names the comprehensions in `value` bind (`p` of `[p.strip() for p in parts]`)."""
    names: set[str] = set()
    stack: list[cst.CSTNode] = [value]
    while stack:
        node = stack.pop()
        if type(node) is cst.CompFor:
            names.update(n.value for n in descendants(node.target) if type(n) is cst.Name)
        if type(node) in (cst.Lambda, cst.FunctionDef, cst.ClassDef):
            continue
        stack.extend(children(node))
    return names


def _loop_targets(function: cst.FunctionDef) -> list[tuple[str, cst.BaseExpression]]:
    """`for part in parts:` in the function's own body: `part` is an item of what it iterates,
    so a test of it tests the argument `parts` came from. A name a loop binds that is also
    assigned elsewhere is left out (its value is not only the item)."""
    found: list[tuple[str, cst.BaseExpression]] = []
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if type(node) in (cst.Lambda, cst.FunctionDef, cst.ClassDef):
            continue
        if type(node) is cst.For and type(node.target) is cst.Name:
            found.append((node.target.value, node.iter))
        stack.extend(children(node))
    counts: dict[str, int] = {}
    for name, _ in found:
        counts[name] = counts.get(name, 0) + 1
    return [(name, value) for name, value in found if counts[name] == 1]


def _computes(expr: cst.CSTNode) -> bool:
    """No await and no call that could ask anyone for state: plain functions (`len(x)`,
    `build_url(a)`) and methods of text, numbers and containers (`url.encode()`), not methods of
    other objects (`parsed.walk(...)`, `self.find(...)`), which may hold or ask for state."""
    for node in descendants(expr, into_scopes=False):
        if type(node) is cst.Await:
            return False
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value not in VALUE_METHODS:
            name = dotted(node.func) or ""
            if name not in PURE_CALLS and not name.startswith("os.path."):
                return False
    return True


def _is_pure(expr: cst.CSTNode) -> bool:
    """No calls but harmless ones and no awaits: the condition reads, it does not ask anyone."""
    for node in descendants(expr, into_scopes=False):
        if type(node) is cst.Call:
            name = dotted(node.func) or ""
            if name in PURE_CALLS or name.startswith("os.path."):
                continue
            if type(node.func) is cst.Attribute and node.func.attr.value in PURE_METHODS:
                continue
            return False
        if type(node) is cst.Await:
            return False
    return True


def data_reads(nodes: Sequence[cst.CSTNode], modules: frozenset[str]) -> tuple[list[str], bool]:
    """The names whose values an expression uses, and whether it calls anything: `reads`
    without the functions it calls (`time_left()`, `platform.system()` use no data; the
    receiver of `title.strip()` is data)."""
    out: list[str] = []
    calls = False
    stack = list(nodes)
    while stack:
        current = stack.pop()
        if type(current) is cst.Call:
            calls = True
            func = current.func
            if type(func) is cst.Attribute:
                receiver = dotted(func.value)
                if receiver is None or receiver.split(".")[0] not in modules:
                    stack.append(func.value)
            stack.extend(a.value for a in current.args)
            continue
        if type(current) in (cst.Name, cst.Attribute):
            out.extend(read_names(current))
            continue
        if type(current) in (cst.Lambda, cst.FunctionDef, cst.ClassDef):
            continue
        stack.extend(children(current))
    return out, calls


def terminates(body: cst.BaseSuite) -> bool:
    """Does the block end in a `return` or a `raise`?"""
    statements = list(body.body) if type(body) is cst.IndentedBlock else []
    if not statements:
        smalls = list(body.body) if type(body) is cst.SimpleStatementSuite else []
        return bool(smalls) and type(smalls[-1]) in (cst.Return, cst.Raise)
    last = statements[-1]
    return type(last) is cst.SimpleStatementLine and bool(last.body) and type(last.body[-1]) in (cst.Return, cst.Raise)
