"""Source positions for a few nodes, without generating code for the whole module.

libcst's PositionProvider generates the code of the entire module (and walks it again) to give
every node a position; a file with one finding would pay for all of it, and even generating just
the function being checked costs ~10 µs per node to position one `raise`. Code generation can
start afresh at any statement that begins a line: all it needs is the line number there and the
indentation of the blocks around it. So this module generates only the smallest such piece (a
"unit": a statement line, a compound statement, an `elif`/`except`/`case` clause, a decorator)
that holds the node asked for. The lines units start on come from CPython's own parser (`ast`,
written in C and far cheaper), paired with libcst's statements by walking both trees together.

Every generated result is checked twice: against `ast` (the unit must start where `ast` says,
which catches a statement paired with the wrong one or leading lines miscounted) and against the
source (the code generated must be the text found at that line, which catches a tree that is not
this source's). On any disagreement the next coarser method is used: the whole function, then its
top-level statement, then the whole-module PositionProvider; a result is never wrong, only slower.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

import libcst as cst
from libcst._position import CodePosition as _CodePosition  # loaded with libcst itself
from libcst._position import CodeRange as _CodeRange

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.walk import children, descendants

if TYPE_CHECKING:
    from libcst.metadata import CodeRange

Positions = dict[cst.CSTNode, "CodeRange"]
AstFunction = Union[ast.FunctionDef, ast.AsyncFunctionDef]

# Line breaks as the tokenizer and libcst's position tracking count them (not \f or \v).
_LINE_BREAK = lazy_compile(r"\r\n|\r|\n")

# What each libcst compound statement is in `ast`; a pairing that disagrees abandons the layout.
# (ast.Match needs Python 3.10, ast.TryStar 3.11: on older versions such files do not parse there.)
_AST_KINDS: dict[type, tuple[type, ...]] = {
    cst.If: (ast.If,),
    cst.For: (ast.For, ast.AsyncFor),
    cst.While: (ast.While,),
    cst.Try: (ast.Try,),
    cst.With: (ast.With, ast.AsyncWith),
    cst.FunctionDef: (ast.FunctionDef, ast.AsyncFunctionDef),
    cst.ClassDef: (ast.ClassDef,),
}
if hasattr(ast, "Match"):
    _AST_KINDS[cst.Match] = (ast.Match,)
if hasattr(ast, "TryStar"):
    _AST_KINDS[cst.TryStar] = (ast.TryStar,)
# What each libcst small statement is in `ast` (a line's statements pair one to one).
_AST_SMALL: dict[type, type] = {
    cst.Assign: ast.Assign,
    cst.AnnAssign: ast.AnnAssign,
    cst.AugAssign: ast.AugAssign,
    cst.Expr: ast.Expr,
    cst.Return: ast.Return,
    cst.Raise: ast.Raise,
    cst.Pass: ast.Pass,
    cst.Break: ast.Break,
    cst.Continue: ast.Continue,
    cst.Del: ast.Delete,
    cst.Assert: ast.Assert,
    cst.Import: ast.Import,
    cst.ImportFrom: ast.ImportFrom,
    cst.Global: ast.Global,
    cst.Nonlocal: ast.Nonlocal,
}
# The first word of a statement that opens with a keyword.
_KEYWORDS: dict[type, str] = {
    cst.Return: "return",
    cst.Raise: "raise",
    cst.Pass: "pass",
    cst.Break: "break",
    cst.Continue: "continue",
    cst.Del: "del",
    cst.Assert: "assert",
    cst.Import: "import",
    cst.ImportFrom: "from",
    cst.Global: "global",
    cst.Nonlocal: "nonlocal",
    cst.If: "if",  # an `elif` unit's anchor is an If too: its word is `elif`, not `if` (see below)
    cst.For: "for",
    cst.While: "while",
    cst.Try: "try",
    cst.TryStar: "try",
    cst.With: "with",
    cst.FunctionDef: "def",
    cst.ClassDef: "class",
    cst.ExceptHandler: "except",
    cst.ExceptStarHandler: "except",
    cst.Match: "match",
}


def _first_word(node: cst.CSTNode) -> str | None:
    """The keyword or name a statement's code starts with, when that is cheap to tell: None for
    anything opening with a parenthesis, a literal, an operator..."""
    word = _KEYWORDS.get(type(node))
    if word is not None:
        if type(node) in (cst.For, cst.With, cst.FunctionDef) and getattr(node, "asynchronous", None) is not None:
            return "async"
        return word
    expression: Any = node
    if type(node) is cst.Assign:
        expression = node.targets[0].target
    elif type(node) in (cst.AnnAssign, cst.AugAssign):
        expression = node.target  # type: ignore[attr-defined]
    elif type(node) is cst.Expr:
        expression = node.value
    if isinstance(expression, cst.BaseExpression):
        for _ in range(32):  # the leftmost part of `a.b[c](d).e = ...`
            if getattr(expression, "lpar", None):
                return None
            if type(expression) is cst.Name:
                return expression.value
            if type(expression) in (cst.Attribute, cst.Subscript):
                expression = expression.value
            elif type(expression) is cst.Call:
                expression = expression.func
            elif type(expression) is cst.Await:
                return "await"
            else:
                return None
    return None


_AST_BLOCKS = tuple(kind for kinds in _AST_KINDS.values() for kind in kinds)  # statements with a body

# Children of a compound statement that are not part of its header line: they are walked as
# blocks and units of their own.
_NOT_HEADER = (
    cst.BaseSuite,
    cst.Else,
    cst.Finally,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.MatchCase,
    cst.Decorator,
    cst.If,  # only ever an `elif` here
)


# A node's position while generating: (start line, start column, end line, end column). Tuples,
# not CodeRange: a unit's generation positions ~40 nodes, and rules ask for one or two of them.
Span = tuple[int, int, int, int]
Spans = dict[cst.CSTNode, Span]


def _code_range(span: Span) -> CodeRange:
    return _CodeRange(_CodePosition(span[0], span[1]), _CodePosition(span[2], span[3]))


@functools.cache
def _lean_state_class() -> type:
    """libcst's PositionProvidingCodegenState, with its per-node bookkeeping made cheaper: the
    same positions, kept as tuples (no CodePosition/CodeRange per node), a token's newlines
    looked for before splitting it, and the syntactic-position context a plain object instead of
    a generator-based context manager. Generation is ~60% of the time positions cost, and this
    bookkeeping most of that. Built on first use: importing libcst.metadata costs a one-file run."""
    from libcst.metadata.position_provider import NEWLINE_RE, PositionProvidingCodegenState

    class _Syntactic:
        """record_syntactic_position's context: on exit, the node's span from where it started
        (or its start_node's start) to where generation is (or its end_node's end)."""

        __slots__ = ("state", "node", "start_node", "end_node", "line", "column")

        def __init__(self, state: Any, node: cst.CSTNode, start_node: cst.CSTNode | None, end_node: cst.CSTNode | None) -> None:
            self.state = state
            self.node = node
            self.start_node = start_node
            self.end_node = end_node
            self.line = state.line
            self.column = state.column

        def __enter__(self) -> None:
            return None

        def __exit__(self, *exc_info: object) -> bool:
            state = self.state
            spans: dict[cst.CSTNode, Span] = state.provider.spans
            line, column = self.line, self.column
            if self.start_node is not None:
                line, column = spans[self.start_node][:2]
            if self.end_node is not None:
                end = spans[self.end_node]
                spans[self.node] = (line, column, end[2], end[3])
            else:
                spans[self.node] = (line, column, state.line, state.column)
            return False  # like the `finally` of libcst's: an exception still propagates

    class _LeanState(PositionProvidingCodegenState):  # type: ignore[misc]
        __slots__ = ()

        def add_indent_tokens(self) -> None:
            self.tokens.extend(self.indent_tokens)
            for token in self.indent_tokens:
                self._update_position(token)

        def add_token(self, value: str) -> None:
            self.tokens.append(value)
            self._update_position(value)

        def _update_position(self, value: str) -> None:
            if "\n" not in value and "\r" not in value:  # most tokens: no line break to split at
                self.column += len(value)
                return
            segments = NEWLINE_RE.split(value)
            self.line += len(segments) - 1
            self.column = len(segments[-1])

        def before_codegen(self, node: cst.CSTNode) -> None:
            self._stack.append((self.line, self.column))

        def after_codegen(self, node: cst.CSTNode) -> None:
            line, column = self._stack.pop()
            # A syntactic position recorded inside is kept, as libcst does (one hash: a node's is
            # a Python-level __hash__).
            self.provider.spans.setdefault(node, (line, column, self.line, self.column))

        def record_syntactic_position(  # type: ignore[override]
            self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
        ) -> _Syntactic:
            return _Syntactic(self, node, start_node, end_node)

    return _LeanState


class _Collector:
    """Stands in for the provider object the codegen state writes into."""

    def __init__(self) -> None:
        self.spans: dict[cst.CSTNode, Span] = {}


@dataclass(frozen=True)
class _Unit:
    """A piece of a function whose code generation can start by itself: it begins on a line of
    its own, with its leading blank/comment lines and then the indentation of enclosing blocks."""

    node: cst.CSTNode
    anchor: cst.CSTNode  # the node whose start `ast` also gives: the check after generation
    line: int  # ... that start according to `ast`
    column: int  # in UTF-8 bytes, as `ast` counts
    start_line: int  # where generation starts: the first of the unit's leading lines
    indents: tuple[str, ...]
    is_elif: bool = False  # an If in an `orelse` generates as `elif`
    # A statement line whose small statements `ast` puts on that one line (its start and end line
    # agree) and whose kinds pair one to one: every node of them starts on `line` (see start_line).
    one_line: bool = False


class _Layout:
    """Pairs one function's libcst statements with `ast`'s and knows, for every node of its body,
    the smallest unit holding it. The function's own header (name, parameters, return
    annotation) is left out: it is positioned with the whole function.

    Statements are laid out at once; the expressions inside them only when a node is not found
    among the statements, and only as far as needed: most requests are for a `return` or a
    `raise`, or for a node of a unit already generated."""

    def __init__(self, default_indent: str) -> None:
        self.default_indent = default_indent
        self.owner: dict[int, _Unit] = {}
        # Claimed but not yet entered: (node, its unit, whether only its header line is the unit's).
        self._pending: list[tuple[cst.CSTNode, _Unit, bool]] = []
        self._walked = 0

    def unit_of(self, node: cst.CSTNode) -> _Unit | None:
        key = id(node)
        owner = self.owner
        pending = self._pending
        while key not in owner and self._walked < len(pending):
            root, unit, header_only = pending[self._walked]
            self._walked += 1
            parts = [c for c in children(root) if not isinstance(c, _NOT_HEADER)] if header_only else [root]
            for part in parts:
                for inner in descendants(part):
                    owner[id(inner)] = unit
        return owner.get(key)

    def function(self, function: cst.FunctionDef, node: AstFunction, indents: tuple[str, ...]) -> bool:
        """Lay out `function`'s decorators and body; False when the trees do not pair up."""
        if not self._decorators(function, node, indents):
            return False
        return self._suite(function.body, node.body, indents, None)

    # -- blocks ----------------------------------------------------------------------------
    def _suite(
        self, suite: cst.BaseSuite, body: Sequence[ast.stmt], indents: tuple[str, ...], enclosing: _Unit | None
    ) -> bool:
        """The statements of a block, one indent deeper than `indents`. A body written on the
        header line (`if x: return 1`) belongs to the statement whose header it is on."""
        if type(suite) is not cst.IndentedBlock:
            if enclosing is not None:
                self._claim(suite, enclosing)
            return True
        if enclosing is not None:
            self.owner[id(suite)] = enclosing
        inner = (*indents, suite.indent if suite.indent is not None else self.default_indent)
        cursor = 0
        for statement in suite.body:
            if cursor >= len(body):
                return False
            first = body[cursor]
            if type(statement) is cst.SimpleStatementLine:
                if not statement.body:
                    return False
                # ast lists the small statements of `a; b` separately; the line is one unit.
                smalls = body[cursor : cursor + len(statement.body)]
                cursor += len(statement.body)
                start = first.lineno - len(statement.leading_lines)
                # (A last statement's `;` may follow a line continuation, past ast's end.)
                one_line = (
                    smalls[-1].end_lineno == first.lineno
                    and statement.body[-1].semicolon is cst.MaybeSentinel.DEFAULT
                    and all(
                        type(node) is _AST_SMALL.get(type(small)) for small, node in zip(statement.body, smalls)
                    )
                )
                unit = _Unit(statement, statement.body[0], first.lineno, first.col_offset, start, inner, one_line=one_line)
                self.owner[id(statement)] = unit
                for small in statement.body:
                    self._claim(small, unit)
            else:
                cursor += 1
                if not self._compound(statement, first, inner):
                    return False
        return cursor == len(body)

    def _compound(self, statement: cst.CSTNode, node: ast.stmt, indents: tuple[str, ...], is_elif: bool = False) -> bool:
        kinds = _AST_KINDS.get(type(statement))
        if kinds is None or not isinstance(node, kinds):
            return False
        # Generation starts at the statement's leading lines, which come before its decorators.
        first_line = node.lineno
        leading = len(statement.leading_lines)  # type: ignore[attr-defined]
        decorators: Sequence[cst.Decorator] = getattr(statement, "decorators", ())
        if decorators:
            ast_decorators = getattr(node, "decorator_list", [])
            if len(ast_decorators) != len(decorators):
                return False
            first_line = ast_decorators[0].lineno
            leading += len(decorators[0].leading_lines)
        unit = _Unit(statement, statement, node.lineno, node.col_offset, first_line - leading, indents, is_elif)
        self._header(statement, unit)
        if not self._decorators(statement, node, indents):
            return False
        if type(statement) is cst.Match:
            return self._cases(statement, node, indents, unit)
        return (
            self._suite(statement.body, node.body, indents, unit)  # type: ignore[attr-defined]
            and self._orelse(statement, node, indents, unit)
            and self._handlers(statement, node, indents)
            and self._finally(statement, node, indents, unit)
        )

    # -- clauses ---------------------------------------------------------------------------
    def _decorators(self, statement: cst.CSTNode, node: ast.stmt, indents: tuple[str, ...]) -> bool:
        decorators: Sequence[cst.Decorator] = getattr(statement, "decorators", ())
        ast_decorators: Sequence[ast.expr] = getattr(node, "decorator_list", [])
        if len(decorators) != len(ast_decorators):
            return False
        for decorator, expression in zip(decorators, ast_decorators):
            # ast gives the expression after `@` (libcst's Decorator starts at the `@` itself).
            start = expression.lineno - len(decorator.leading_lines)
            unit = _Unit(decorator, decorator.decorator, expression.lineno, expression.col_offset, start, indents)
            self._claim(decorator, unit)
        return True

    def _orelse(self, statement: cst.CSTNode, node: ast.stmt, indents: tuple[str, ...], unit: _Unit) -> bool:
        orelse = getattr(statement, "orelse", None)
        ast_orelse: Sequence[ast.stmt] = getattr(node, "orelse", [])
        if orelse is None:
            return not ast_orelse
        if type(orelse) is cst.If:  # `elif`: a nested If in ast's orelse
            return len(ast_orelse) == 1 and self._compound(orelse, ast_orelse[0], indents, is_elif=True)
        self.owner[id(orelse)] = unit  # `else:` carries no code of its own
        return self._suite(orelse.body, ast_orelse, indents, unit)

    def _handlers(self, statement: cst.CSTNode, node: ast.stmt, indents: tuple[str, ...]) -> bool:
        handlers: Sequence[cst.ExceptHandler | cst.ExceptStarHandler] = getattr(statement, "handlers", ())
        ast_handlers: Sequence[ast.ExceptHandler] = getattr(node, "handlers", [])
        if len(handlers) != len(ast_handlers):
            return False
        for handler, ast_handler in zip(handlers, ast_handlers):
            start = ast_handler.lineno - len(handler.leading_lines)
            unit = _Unit(handler, handler, ast_handler.lineno, ast_handler.col_offset, start, indents)
            self._header(handler, unit)
            if not self._suite(handler.body, ast_handler.body, indents, unit):
                return False
        return True

    def _finally(self, statement: cst.CSTNode, node: ast.stmt, indents: tuple[str, ...], unit: _Unit) -> bool:
        finalbody: cst.Finally | None = getattr(statement, "finalbody", None)
        ast_finalbody: Sequence[ast.stmt] = getattr(node, "finalbody", [])
        if finalbody is None:
            return not ast_finalbody
        self.owner[id(finalbody)] = unit
        return self._suite(finalbody.body, ast_finalbody, indents, unit)

    def _cases(self, statement: cst.Match, node: ast.stmt, indents: tuple[str, ...], unit: _Unit) -> bool:
        ast_cases: Sequence[Any] = getattr(node, "cases", [])
        if len(statement.cases) != len(ast_cases):
            return False
        inner = (*indents, statement.indent if statement.indent is not None else self.default_indent)
        for case, ast_case in zip(statement.cases, ast_cases):
            # ast's match_case has no position; its pattern has, and starts on the `case` line.
            pattern = ast_case.pattern
            start = pattern.lineno - len(case.leading_lines)
            case_unit = _Unit(case, case.pattern, pattern.lineno, pattern.col_offset, start, inner)
            self._header(case, case_unit)
            if not self._suite(case.body, ast_case.body, inner, case_unit):
                return False
        return True

    # -- ownership -------------------------------------------------------------------------
    def _header(self, statement: cst.CSTNode, unit: _Unit) -> None:
        """`statement` and the parts of it on its header line belong to `unit`."""
        self.owner[id(statement)] = unit
        self._pending.append((statement, unit, True))

    def _claim(self, node: cst.CSTNode, unit: _Unit) -> None:
        """`node` and everything below it belong to `unit`; the nodes below are recorded later."""
        self.owner[id(node)] = unit
        self._pending.append((node, unit, False))


class ScopedPositions:
    def __init__(self, module: cst.Module, source: str, tree: ast.Module | None = None) -> None:
        self.module = module
        self.source = source
        self._starts: list[tuple[int, int]] | None = None  # (codegen start line, syntactic line)
        self._by_statement: dict[int, Spans | None] = {}
        self._full: Mapping[cst.CSTNode, CodeRange] | None = None
        self._top_of: dict[int, int] = {}  # id(node inside) -> top-level statement index (hints)
        self._functions: dict[int, tuple[int, tuple[str, ...]]] = {}
        self._by_function: dict[int, Spans | None] = {}
        self._layouts: dict[int, _Layout | None] = {}  # id(function) -> its units
        self._by_unit: dict[int, bool] = {}  # id(unit node) -> generated and checked
        self._known: Spans = {}  # every checked unit's positions: rules ask for nearby nodes
        self._ranges: Positions = {}  # the CodeRange of each node asked for, made once
        self._defs: list[AstFunction] | None = None
        self._ast: ast.Module | bool | None = tree  # CPython's tree, when the caller has one
        self._line_starts: list[int] | None = None  # offset in `source` of each line

    # -- hints ---------------------------------------------------------------------------
    def hint(self, node: cst.CSTNode, statement_index: int) -> None:
        """Record that `node` (e.g. a function being checked) lies in top-level statement N."""
        self._top_of[id(node)] = statement_index

    def hint_function(self, node: cst.FunctionDef, order: int, indents: tuple[str, ...]) -> None:
        """A function: its rank among all defs in source order and the indents of the blocks
        around it, so it (or a unit inside it) can be generated alone, not its whole class."""
        self._functions[id(node)] = (order, indents)

    # -- lookup --------------------------------------------------------------------------
    def get(self, node: cst.CSTNode, near: cst.CSTNode | None = None) -> CodeRange:
        """The position of `node`; `near` names a hinted ancestor (the function being checked)."""
        if self._full is not None:
            return self._full[node]
        where = self._ranges.get(node)
        if where is None:
            span = self._span(node, near)
            if span is None:
                return self.full()[node]
            where = self._ranges[node] = _code_range(span)
        return where

    def start_line(self, node: cst.CSTNode, near: cst.CSTNode | None = None) -> int:
        """The line `node` starts on: `get(node, near).start.line`, without generating any code
        when `node` lies in a statement line `ast` puts on one line (`_Unit.one_line`). Rules
        comparing where statements start (is this assignment above that read?) ask it of lines
        that are usually never positioned otherwise."""
        if self._full is not None:
            return self._full[node].start.line
        where = self._ranges.get(node)
        if where is not None:
            return where.start.line
        span = self._known.get(node)
        if span is not None:
            return span[0]
        if near is not None and id(near) in self._functions:
            layout = self._layout(near)
            unit = layout.unit_of(node) if layout is not None else None
            # A unit's anchor starts where `ast` says (what a generation of it is checked against),
            # once the source shows the anchor's first word there (a tree not of this source).
            if unit is not None and (node is unit.anchor or unit.one_line and node is not unit.node):
                if self._starts_with_word(unit):
                    return unit.line
        return self.get(node, near).start.line

    def _starts_with_word(self, unit: _Unit) -> bool:
        """Whether the source at `ast`'s start of the unit's anchor holds the anchor's first word
        (a keyword or a name): the check of a line given without generating the unit."""
        word = "elif" if unit.is_elif else _first_word(unit.anchor)
        start = self._line_start(unit.line)
        if word is None or start is None:
            return False
        prefix = self.source[start : start + unit.column]
        return prefix.isascii() and self.source.startswith(word, start + unit.column)

    def _span(self, node: cst.CSTNode, near: cst.CSTNode | None) -> Span | None:
        """`node`'s position from the smallest piece generated alone that holds it, if any."""
        span = self._known.get(node)
        if span is not None:
            return span
        if near is not None and id(near) in self._functions:
            if type(near) is cst.FunctionDef and node is near.name:
                span = self._def_name(near)
                if span is not None:
                    return span
            spans = self._unit_positions(node, near)
            if spans is None or node not in spans:
                spans = self._function_positions(near)
            if spans is not None and node in spans:
                return spans[node]
        index = self._top_of.get(id(near)) if near is not None else None
        if index is not None:
            spans = self._statement_positions(index)
            if spans is not None and node in spans:
                return spans[node]
        return None

    def full(self) -> Mapping[cst.CSTNode, CodeRange]:
        if self._full is None:
            from libcst.metadata import MetadataWrapper, PositionProvider

            self._full = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
        return self._full

    # -- per unit ------------------------------------------------------------------------
    def _unit_positions(self, node: cst.CSTNode, function: cst.CSTNode) -> Spans | None:
        """The positions of the smallest unit of `function` holding `node`, once checked."""
        layout = self._layout(function)
        unit = layout.unit_of(node) if layout is not None else None
        if unit is None or id(unit.node) in self._by_unit:
            return None  # not in the function's body, or its unit failed the check (else known)
        extra = {"is_elif": True} if unit.is_elif else {}
        positions = self._generate(unit.node, unit.start_line, list(unit.indents), **extra)
        where = positions.get(unit.anchor) if positions is not None else None
        ok = where is not None and where[0] == unit.line
        ok = ok and self._same_column(unit.line, where[1], unit.column)  # type: ignore[index]
        self._by_unit[id(unit.node)] = ok
        if not ok:
            return None
        self._known.update(positions)
        return positions

    def _layout(self, function: cst.CSTNode) -> _Layout | None:
        """Built on the first request for one of the function's nodes: walking is ~10x cheaper
        than generating, and most functions never need a position."""
        key = id(function)
        if key not in self._layouts:
            layout = None
            target = self._ast_function(function)
            if target is not None and type(function) is cst.FunctionDef:
                layout = _Layout(self.module.default_indent)
                if not layout.function(function, target, self._functions[key][1]):
                    layout = None
            self._layouts[key] = layout
        return self._layouts[key]

    def _same_column(self, line: int, characters: int, utf8_bytes: int) -> bool:
        """libcst counts columns in characters, ast in UTF-8 bytes: the same when everything
        before on the line is ASCII (anchors follow indentation: nearly always)."""
        start = self._line_start(line)
        if start is None:
            return False
        prefix = self.source[start : start + utf8_bytes]  # at least the `utf8_bytes` bytes wanted
        if prefix.isascii():
            return characters == utf8_bytes
        encoded = prefix.encode("utf-8", "surrogatepass")[:utf8_bytes]
        return len(encoded.decode("utf-8", "replace")) == characters

    def _line_start(self, line: int) -> int | None:
        if self._line_starts is None:
            self._line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(self.source))]
        return self._line_starts[line - 1] if 0 < line <= len(self._line_starts) else None

    # -- a def's name ---------------------------------------------------------------------
    def _def_name(self, function: cst.FunctionDef) -> Span | None:
        """The span of a def's name, read off the source: `ast` gives where `def` (or `async`)
        starts, libcst the whitespace after each keyword. The header is positioned with the whole
        function otherwise, and a module registering sixty tools asks for every tool's name (a
        whole-function generation each, a tenth of the file's analysis). None (generate) when the
        header breaks a line or the text there is not `def name`."""
        target = self._ast_function(function)
        if target is None:
            return None
        keywords = ["def", function.whitespace_after_def.value]
        if function.asynchronous is not None:
            keywords[:0] = ["async", function.asynchronous.whitespace_after.value]
        head = "".join(keywords)
        if "\\" in head or "\n" in head or "\r" in head:
            return None  # a line continuation inside the header
        line = target.lineno
        start = self._line_start(line)
        if start is None:
            return None
        before = self.source[start : start + target.col_offset]  # at least col_offset bytes
        if not before.isascii():
            before = before.encode("utf-8", "surrogatepass")[: target.col_offset].decode("utf-8", "replace")
        column = len(before) + len(head)
        name = function.name.value
        if function.name.lpar or not self.source.startswith(head + name, start + len(before)):
            return None
        return (line, column, line, column + len(name))

    # -- per function --------------------------------------------------------------------
    def _function_positions(self, node: cst.CSTNode) -> Spans | None:
        key = id(node)
        if key in self._by_function:
            return self._by_function[key]
        indents = self._functions[key][1]
        target = self._ast_function(node)
        result = None
        if target is not None and type(node) is cst.FunctionDef:
            first = min([target.lineno, *(d.lineno for d in target.decorator_list)])
            positions = self._generate(node, first - len(node.leading_lines), list(indents))
            where = positions.get(node) if positions is not None else None
            if where is not None and where[0] == target.lineno:
                result = positions if self._same_column(target.lineno, where[1], target.col_offset) else None
        self._by_function[key] = result
        return result

    def _ast_function(self, node: cst.CSTNode) -> AstFunction | None:
        """The `ast` def of a hinted function: the one of the same rank in source order."""
        order = self._functions[id(node)][0]
        defs = self._ast_functions()
        if defs is None or order >= len(defs):
            return None
        target = defs[order]
        if type(node) is not cst.FunctionDef or target.name != node.name.value:
            return None
        return target

    def _ast_functions(self) -> list[AstFunction] | None:
        if self._defs is None:
            tree = self._tree()
            if tree is None:
                return None
            self._defs = []
            _ast_defs(tree.body, self._defs)
        return self._defs

    def _tree(self) -> ast.Module | None:
        if self._ast is None:
            try:
                self._ast = ast.parse(self.source)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._ast = False
        return self._ast or None

    def _generate(self, node: cst.CSTNode, start_line: int, indents: list[str], **kwargs: Any) -> Spans | None:
        """Generate `node` alone as if the module's generation had reached it: at column 0 of
        `start_line`, inside blocks indented by `indents`. None unless the code generated is what
        the source has there: the lines come from `ast`, which only the caller can check that
        it pairs with the right statement; this checks they are this file's lines at all."""
        collector = _Collector()
        state = _lean_state_class()(
            default_indent=self.module.default_indent,
            default_newline=self.module.default_newline,
            provider=collector,  # type: ignore[arg-type]
        )
        state.line = start_line
        state.indent_tokens = indents
        node._codegen(state, **kwargs)
        return collector.spans if self._written_at(state.tokens, start_line) else None

    def _written_at(self, tokens: list[str], line: int) -> bool:
        offset = self._line_start(line)
        if offset is None:
            return False
        text = "".join(tokens)
        if self.source.startswith(text, offset):
            return True
        # At the end of a file without a final newline: the module's generation drops the last
        # token, the newline this statement ended with.
        return not self.module.has_trailing_newline and text == self.source[offset:] + tokens[-1]

    # -- per top-level statement ---------------------------------------------------------
    def _statement_positions(self, index: int) -> Spans | None:
        if index in self._by_statement:
            return self._by_statement[index]
        starts = self._statement_starts()
        if starts is None or index >= len(starts):
            return None
        start_line, syntactic_line = starts[index]
        statement = self.module.body[index]
        positions = self._generate(statement, start_line, [])
        if positions is None or statement not in positions or positions[statement][0] != syntactic_line:
            positions = None  # the mapping onto `ast` was off: let the caller use the full provider
        self._by_statement[index] = positions
        return positions

    def _statement_starts(self) -> list[tuple[int, int]] | None:
        """For each libcst top-level statement: the line its code generation starts on (its
        leading blank/comment lines included) and the line `ast` gives for the statement."""
        if self._starts is not None:
            return self._starts
        tree = self._tree()
        if tree is None:
            return None
        nodes = tree.body
        starts: list[tuple[int, int]] = []
        cursor = 0
        for statement in self.module.body:
            if cursor >= len(nodes):
                return None
            first = nodes[cursor]
            cursor += len(statement.body) if type(statement) is cst.SimpleStatementLine else 1
            line = first.lineno
            decorators = getattr(first, "decorator_list", None)
            if decorators:
                line = min(line, *(d.lineno for d in decorators))
                # The decorator's line includes its `@`, one line above the expression's only when
                # written `@\nexpr`, which nobody does; the check after codegen catches it anyway.
            leading = len(statement.leading_lines)
            syntactic = first.lineno
            starts.append((line - leading, syntactic if not decorators else first.lineno))
        self._starts = starts
        return starts


def _ast_defs(body: Sequence[ast.stmt], out: list[AstFunction]) -> None:
    """The defs in `body`, in source order (the order function_layout ranks them in). Only
    statements are entered: a walk of every expression cost more than the positions it served."""
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(statement)
        elif not isinstance(statement, _AST_BLOCKS):
            continue  # a simple statement: holds no def
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list):
                _ast_defs(inner, out)
        for clause in (*getattr(statement, "handlers", ()), *getattr(statement, "cases", ())):
            _ast_defs(clause.body, out)


def function_layout(module: cst.Module) -> dict[int, tuple[int, int, tuple[str, ...]]]:
    """id(FunctionDef) -> (top-level statement index, rank among all defs in source order, indents
    of the blocks around it). A statement-level scan: expressions are never entered."""
    out: dict[int, tuple[int, int, tuple[str, ...]]] = {}
    for index, statement in enumerate(module.body):
        _scan_layout(statement, index, (), module.default_indent, out)
    return out


def _scan_layout(
    statement: cst.CSTNode, index: int, indents: tuple[str, ...], default_indent: str, out: dict[int, tuple[int, int, tuple[str, ...]]]
) -> None:
    """function_layout's recursion. A module-level function, not a closure: a closure that calls
    itself is a reference cycle, and this one held the whole tree, which then waited for the
    cyclic collector (a full collection walking every node) instead of being freed at once."""
    kind = type(statement)  # exact types: isinstance against libcst's ABC-based classes is slow
    if kind is cst.SimpleStatementLine:
        return  # most statements: a line of small statements holds no def
    if kind is cst.FunctionDef:
        out[id(statement)] = (index, len(out), indents)  # every def is recorded: len(out) is its rank
    body = getattr(statement, "body", None)
    if type(body) is cst.IndentedBlock:
        inner_indents = (*indents, body.indent if body.indent is not None else default_indent)
        for inner in body.body:
            _scan_layout(inner, index, inner_indents, default_indent, out)
    for attribute in ("orelse", "finalbody"):
        branch = getattr(statement, attribute, None)
        if branch is not None and hasattr(branch, "body"):
            _scan_layout(branch, index, indents, default_indent, out)
    for handler in getattr(statement, "handlers", ()) or ():
        _scan_layout(handler, index, indents, default_indent, out)
    if kind is cst.Match:  # cases sit one indent deeper than `match`
        case_indents = (*indents, statement.indent if statement.indent is not None else default_indent)
        for case in statement.cases:
            _scan_layout(case, index, case_indents, default_indent, out)
