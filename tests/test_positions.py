"""ScopedPositions gives exactly libcst's PositionProvider positions while generating only the
smallest statement that holds the node asked for.

Every node of every function (whitespace and punctuation included) is compared with the
whole-module PositionProvider, over hand-written snippets of the shapes real servers have, over
generated functions (random nesting, indentation, newlines, comments, non-ASCII text) and over
hypothesmith's arbitrary statements as a function body.
"""

from __future__ import annotations

import ast
import sys
import textwrap
from collections.abc import Iterator, Mapping

import libcst as cst
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lazy_strategies import python_source
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from mcp_lint.model.positions import ScopedPositions, function_layout


def every_node(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`node` and all below it, whitespace and punctuation included."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def hinted(module: cst.Module, source: str, tree: ast.Module | None) -> ScopedPositions:
    """A ScopedPositions told about every function, as analysis.analyze_source does."""
    positions = ScopedPositions(module, source, tree)
    layout = function_layout(module)
    for node in every_node(module):
        if isinstance(node, cst.FunctionDef):
            index, order, indents = layout[id(node)]
            positions.hint(node, index)
            positions.hint_function(node, order, indents)
    return positions


class Spy:
    """Records what ScopedPositions generates and whether it needed the whole module."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.generated: list[cst.CSTNode] = []
        self.full = 0
        generate, full = ScopedPositions._generate, ScopedPositions.full

        def spy_generate(this: ScopedPositions, node: cst.CSTNode, *args: object, **kwargs: object) -> object:
            self.generated.append(node)
            return generate(this, node, *args, **kwargs)  # type: ignore[arg-type]

        def spy_full(this: ScopedPositions) -> object:
            self.full += 1
            return full(this)

        monkeypatch.setattr(ScopedPositions, "_generate", spy_generate)
        monkeypatch.setattr(ScopedPositions, "full", spy_full)


def assert_exact(source: str, *, exact_path: bool = True) -> int:
    """Every node of every function positioned as PositionProvider does, asking with a fresh
    ScopedPositions per function (so each function's own layout is used). With `exact_path`,
    also that no generated unit failed its check and the whole module was never needed.
    Returns the number of nodes compared."""
    module = cst.parse_module(source)
    tree = ast.parse(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    functions = [node for node in every_node(module) if isinstance(node, cst.FunctionDef)]
    compared = 0
    for function in functions:
        positions = hinted(module, source, tree)
        for node in every_node(function):
            got = positions.get(node, near=function)
            assert got == expected[node], (type(node).__name__, module.code_for_node(node)[:60], got, expected[node])
            compared += 1
        if exact_path:
            assert positions._full is None, f"fell back to the whole module in {function.name.value}"
            assert all(positions._by_unit.values()), f"a unit failed its check in {function.name.value}"
        assert_start_lines(module, source, tree, function, expected)
    return compared


def assert_start_lines(
    module: cst.Module, source: str, tree: ast.Module | None, function: cst.FunctionDef, expected: Mapping[cst.CSTNode, CodeRange]
) -> None:
    """start_line of every node of `function`, asked of a fresh ScopedPositions (so lines given
    without generating are asked before anything is generated), is the provider's start line."""
    positions = hinted(module, source, tree)
    for node in every_node(function):
        got = positions.start_line(node, near=function)
        assert got == expected[node].start.line, (type(node).__name__, module.code_for_node(node)[:60], got, expected[node])


# --- hand-written snippets -------------------------------------------------------------------

TOOL_WITH_TRY = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def fetch(url: str, timeout: float = 3.0) -> str:
    """Fetch a page."""
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get(url, timeout=timeout)
            response.raise_for_status()
    except httpx.HTTPStatusError as exc:
        raise ValueError(f"HTTP {exc.response.status_code}: {exc}") from exc
    except (TimeoutError, OSError):
        return "timeout"
    else:
        return response.text
    finally:
        log("done")
'''

NESTED_AND_METHODS = '''\
class Server:
    """Docs."""

    def __init__(self, name):
        self.name = name

    @staticmethod
    @cache(
        maxsize=3,  # comment inside
    )
    def helper(x):
        def inner(y=1, *args, z: int = 2, **kw):
            return lambda q: q + y
        class Local(Base, metaclass=Meta):
            value = 1
            def method(self):
                return [i for i in range(3) if i]
        return inner(x)

    async def run(self):
        async for item in self.items():
            await self.handle(item)
        else:
            return None
'''

SUITES_AND_SEMICOLONS = '''\
def check(x):
    if x: return 1
    a = 1; b = 2; raise ValueError("bad")
    while x: x -= 1
    for i in x: pass
    else: return 2
    try: pass
    except E: return 3
    finally: cleanup()
    with ctx(): return 4
    class Inline: pass
    def one_liner(): return 5
    return x; 
'''

ELIF_CHAIN = '''\
def dispatch(name, args):
    if name == "add":
        return args[0] + args[1]
    # a comment before elif
    elif name == "div":
        if args[1] == 0:
            raise ZeroDivisionError("division by zero")
        return args[0] / args[1]
    elif name == "neg": return -args[0]
    elif (
        name == "multi"
    ):
        return 0
    else:
        raise ValueError(f"unknown tool {name}")
'''

MATCH = '''\
def route(command):
    match command.split():
        case ["go", direction] if direction in DIRS:
            return move(direction)
        case ["quit" | "exit"]:
            raise SystemExit(0)
        case (1 | 2):
            pass
        case {"k": value, **rest}:
            return value
        case Point(x=0, y=0): return "origin"
        case _:
            raise ValueError("unknown command: ü")
'''

MULTILINE = '''\
def build(items):
    result = call(
        first,
        second=[
            1,
            2,
        ],
    )
    text = """a
    multi-line string""" + "x"; raise RuntimeError(text)
    total = 1 + \\
        2
    return {
        "result": result,
        "total": total,
    }
'''

COMMENTS_AND_BLANKS = '''\
# module comment

def commented(x):
    # leading comment

    y = 1  # trailing comment


    # another

    if y:
        z = 2
        # footer comment in the block

# a comment at column 0 inside the function
    return z
        # deeper trailing comment
'''

NON_ASCII = '''\
def unicode_heavy(name: str = "naïve") -> str:
    message = "héllo wörld ✓"; raise ValueError(f"ünïcode {name} 😀")
    if name == "日本語": return "こんにちは"
    return "✓" + name + message
'''

WITH_STATEMENTS = '''\
async def files(paths):
    with open(paths[0]) as a, open(paths[1]) as b:
        data = a.read() + b.read()
    with (
        open(paths[0]) as c,
        open(paths[1]) as d,
    ):
        pass
    async with lock:
        return data
'''

DECORATED_FUNCTIONS = '''\
import functools


@decorator
# comment between decorators
@decorator_with_args(
    "ünï", key=1
)

@another
def decorated(a, b):
    return a + b


@ spaced . attribute
async def spaced_decorator():
    raise NotImplementedError


if TYPE_CHECKING:
    def conditional(): ...
else:
    @overload
    def conditional(x): return x
'''

TRY_STAR = '''\
def grouped():
    try:
        run()
    except* ValueError as group:
        raise RuntimeError("wrapped") from group
    except* (TypeError, KeyError):
        pass
'''

SNIPPETS = {
    "tool with try": TOOL_WITH_TRY,
    "nested functions and methods": NESTED_AND_METHODS,
    "suites and semicolons": SUITES_AND_SEMICOLONS,
    "elif chain": ELIF_CHAIN,
    "multi-line statements": MULTILINE,
    "comments and blank lines": COMMENTS_AND_BLANKS,
    "non-ASCII before the node": NON_ASCII,
    "with statements": WITH_STATEMENTS,
    "decorators": DECORATED_FUNCTIONS,
}
if sys.version_info >= (3, 10):  # CPython parses what libcst does: match from 3.10, except* from 3.11
    SNIPPETS["match"] = MATCH
if sys.version_info >= (3, 11):
    SNIPPETS["except*"] = TRY_STAR


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_every_node_of_every_function_matches_the_position_provider(source: str) -> None:
    assert assert_exact(source) > 0


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_crlf_files(source: str) -> None:
    assert_exact(source.replace("\n", "\r\n"))


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_without_a_trailing_newline(source: str) -> None:
    assert_exact(source.rstrip("\n"))


@pytest.mark.parametrize("indent", ["\t", "  ", "        ", "\t  "])
@pytest.mark.parametrize("source", [TOOL_WITH_TRY, NESTED_AND_METHODS, ELIF_CHAIN], ids=["try", "nested", "elif"])
def test_indentation_other_than_four_spaces(source: str, indent: str) -> None:
    """Blocks store their own indent, or None for the module's default: both must be right."""
    reindented = "\n".join(
        indent * ((len(line) - len(line.lstrip(" "))) // 4) + line.lstrip(" ") for line in source.split("\n")
    )
    assert_exact(reindented)


def test_blocks_indented_differently_from_the_module_default() -> None:
    source = "def first():\n    return 1\n\ndef second():\n  if x:\n  \tpass\n  for y in z:\n          raise E(y)\n"
    assert_exact(source)


def test_form_feed_and_deeply_nested_blocks() -> None:
    body = "".join(f"{'    ' * (depth + 1)}if x{depth}:\n" for depth in range(12))
    source = "\x0c\ndef deep():\n" + body + "    " * 13 + "raise ValueError('deep')\n    return 1\n"
    assert_exact(source)


# --- only the smallest statement is generated ------------------------------------------------

BIG = "def big(value):\n" + "".join(f"    step_{i} = compute({i}, value)\n" for i in range(50)) + textwrap.indent(
    textwrap.dedent(
        """\
        @wraps(value)
        def inner(a=1): return a
        if value > 1:
            log("big")
        elif check(value):
            pass
        try:
            run()
        except LookupError as exc:
            raise ValueError("not found") from exc
        """
    ),
    "    ",
)


def _big() -> tuple[cst.Module, ScopedPositions, cst.FunctionDef]:
    module = cst.parse_module(BIG)
    positions = hinted(module, BIG, ast.parse(BIG))
    function = module.body[0]
    assert isinstance(function, cst.FunctionDef)
    return module, positions, function


def _find(root: cst.CSTNode, kind: type, code: str, module: cst.Module) -> cst.CSTNode:
    return next(n for n in every_node(root) if isinstance(n, kind) and module.code_for_node(n).strip() == code)


@pytest.mark.parametrize(
    "kind, code, generated, whole_function",
    [
        (cst.Raise, 'raise ValueError("not found") from exc', cst.SimpleStatementLine, False),
        (cst.SimpleString, '"not found"', cst.SimpleStatementLine, False),
        (cst.Integer, "49", cst.SimpleStatementLine, False),
        (cst.Comparison, "value > 1", cst.If, False),  # an `if` test: the `if` statement
        (cst.Call, "check(value)", cst.If, False),  # an `elif` test: the elif alone
        (cst.Name, "LookupError", cst.ExceptHandler, False),
        (cst.Name, "wraps", cst.Decorator, False),
        (cst.Return, "return a", cst.FunctionDef, False),  # a body on the `def` line: that def
        (cst.Param, "value", cst.FunctionDef, True),  # the checked function's own header
    ],
)
def test_only_the_smallest_enclosing_unit_is_generated(
    monkeypatch: pytest.MonkeyPatch, kind: type, code: str, generated: type, whole_function: bool
) -> None:
    module, positions, function = _big()
    node = _find(function, kind, code, module)
    spy = Spy(monkeypatch)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)[node]
    assert positions.get(node, near=function) == expected
    assert [type(n) for n in spy.generated] == [generated]
    assert (spy.generated[0] is function) == whole_function
    assert spy.full == 0


def test_nodes_of_a_generated_statement_need_no_more_generation(monkeypatch: pytest.MonkeyPatch) -> None:
    module, positions, function = _big()
    statement = _find(function, cst.Raise, 'raise ValueError("not found") from exc', module)
    spy = Spy(monkeypatch)
    positions.get(statement, near=function)
    for node in every_node(statement):
        positions.get(node, near=function)
    assert len(spy.generated) == 1


LINES = """\
def tool(items, key):
    found = items.get(key)
    total = sum(
        item.size for item in items
    )
    if found is None:
        raise KeyError(key)
    return found; x = 1
"""


@pytest.mark.parametrize(
    "kind, code, generated",
    [
        (cst.Assign, "found = items.get(key)", False),  # a statement line on one line
        (cst.Call, "items.get(key)", False),
        (cst.If, "if found is None:\n    raise KeyError(key)", False),  # an `if` whose header ast places
        (cst.Raise, "raise KeyError(key)", False),
        (cst.Integer, "1", False),  # a line of two statements, still one line
        (cst.Assign, "total = sum(\n    item.size for item in items\n)", False),  # starts where ast says
        (cst.Attribute, "item.size", True),  # on the second of its statement's three lines
        (cst.Comparison, "found is None", True),  # inside an `if` header: where it starts is not the header's
    ],
)
def test_a_start_line_is_read_without_generating_a_one_line_statement(
    monkeypatch: pytest.MonkeyPatch, kind: type, code: str, generated: bool
) -> None:
    module = cst.parse_module(LINES)
    function = module.body[0]
    positions = hinted(module, LINES, ast.parse(LINES))
    node = _find(function, kind, code, module)
    spy = Spy(monkeypatch)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)[node]
    assert positions.start_line(node, near=function) == expected.start.line
    assert bool(spy.generated) == generated
    assert spy.full == 0


def test_a_line_of_another_source_is_generated_and_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tree whose lines are off by one: the first word is not where `ast` says, so the
    statement is generated (and found wrong, then positioned another way), never answered off."""
    source = "def tool(a):\n    b = a\n    c = b\n    return c\n"
    module = cst.parse_module(source)
    function = module.body[0]
    positions = hinted(module, source, ast.parse("\n" + source))
    node = _find(function, cst.Assign, "c = b", module)
    spy = Spy(monkeypatch)
    assert positions.start_line(node, near=function) == 3
    assert spy.generated


DEF_HEADERS = {
    "plain": "def rename(item):\n    return item\n",
    "async, spaced": "async  def\trename(item):\n    return item\n",
    "decorated method": "class A:\n    @tool()\n    async def rename(self):\n        return 1\n",
    "tab-indented": "class A:\n\tdef rename(self):\n\t\treturn 1\n",
    "continued header": "def \\\n    rename(item):\n    return item\n",
    "parenthesized name line": "def rename(\n    item,\n):\n    return item\n",
}


@pytest.mark.parametrize("source", DEF_HEADERS.values(), ids=DEF_HEADERS.keys())
def test_a_defs_name_is_read_off_the_source(monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    """A registered tool's name (what the analysis positions for every tool) is exact, and needs no
    code generation unless the header breaks its line between `def` and the name."""
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    [function] = [n for n in every_node(module) if isinstance(n, cst.FunctionDef)]
    positions = hinted(module, source, ast.parse(source))
    spy = Spy(monkeypatch)
    assert positions.get(function.name, near=function) == expected[function.name]
    assert (spy.generated == []) == ("\\" not in source)
    assert spy.full == 0


# --- the safety net --------------------------------------------------------------------------


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_a_wrong_ast_tree_costs_speed_never_correctness(source: str) -> None:
    """Lines shifted by two: every check fails, and the answers are still exact."""
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    shifted = ast.parse("\n\n" + source)
    for function in (n for n in every_node(module) if isinstance(n, cst.FunctionDef)):
        positions = hinted(module, source, shifted)
        for node in every_node(function):
            assert positions.get(node, near=function) == expected[node]
        assert_start_lines(module, source, shifted, function, expected)


def test_no_ast_tree_at_all() -> None:
    source = "def f(x):\n    return x\n"
    module = cst.parse_module(source)
    positions = hinted(module, source, None)
    positions._ast = False  # as when CPython cannot parse what libcst can (newer syntax)
    function = module.body[0]
    node = _find(function, cst.Return, "return x", module)
    assert positions.get(node, near=function) == MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)[node]


def test_ast_columns_are_utf8_bytes() -> None:
    source = 'x = "é"; y = 1\n'
    positions = ScopedPositions(cst.parse_module(source), source)
    assert positions._same_column(1, 9, 10)  # `y` is the 10th character, the 11th byte
    assert not positions._same_column(1, 10, 10)


# --- generated programs ----------------------------------------------------------------------

EXPRESSIONS = st.sampled_from(
    [
        "x",
        "1",
        '"é✓"',
        'f"{x}ü {y!r:>3}"',
        "call(1, key=[2, 3])",
        "call(\n    1,\n    2,\n)",
        '{"k": (1, 2)}',
        "lambda q: q + 1",
        "[i for i in x if i]",
        "(\n    a\n    + b\n)",
        '"""two\nlines"""',
        "a if b else c",
        "not x",
    ]
)

SIMPLE = st.sampled_from(
    [
        "return {e}",
        "raise ValueError({e})",
        "raise ValueError({e}) from exc",
        "y = {e}",
        "a = 1; b = {e}",
        "a = 1; raise RuntimeError({e});",
        "log({e})",
        "pass",
        "assert x, {e}",
        "y: int = {e}",
        "y += 1 + \\\n    2",
        "del y",
        "z = '日本語'; return {e}",
    ]
)


@st.composite
def blocks(draw: st.DrawFn, depth: int) -> list[str]:
    """Lines of a block, indented relative to it by `{i}` placeholders (one per level)."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        comment = draw(st.sampled_from([None, None, "", "# comment ü", "  # odd comment", "{d}# dedented comment"]))
        if comment is not None:
            lines.append(comment)
        kind = draw(st.sampled_from(["simple", "simple", "compound"] if depth < 3 else ["simple"]))
        if kind == "simple":
            lines.append(draw(SIMPLE).format(e=draw(EXPRESSIONS)))
            continue
        lines.extend(draw(compound(depth)))
    return lines


def _nested(body: list[str]) -> list[str]:
    return ["{i}" + line if line and not line.startswith("{d}") else line for line in body]


SHAPES = ["if", "elif", "suite", "for", "while", "try", "with", "def", "class", "async"]
if sys.version_info >= (3, 10):
    SHAPES.append("match")


@st.composite
def compound(draw: st.DrawFn, depth: int) -> list[str]:
    e = draw(EXPRESSIONS).replace("\n", " ")

    def inner() -> list[str]:
        return _nested(draw(blocks(depth + 1)))

    shape = draw(st.sampled_from(SHAPES))
    if shape == "if":
        return [f"if {e}:", *inner()]
    if shape == "elif":
        return [f"if {e}:", *inner(), f"elif {e}:", *inner(), "elif x: return 1", "else:", *inner()]
    if shape == "suite":
        return [f"if {e}: return {e}", "else: raise ValueError(x)"]
    if shape == "for":
        return [f"for i in {e}:", *inner(), "else:", *inner()]
    if shape == "while":
        return [f"while {e}:", *inner()]
    if shape == "try":
        return ["try:", *inner(), "except (KeyError, ValueError) as exc:", *inner(), "except OSError: pass", "finally:", *inner()]
    if shape == "with":
        return [f"with open({e}) as f, lock:", *inner()]
    if shape == "def":
        return ["@decorator", f"@decorator_with({e})", "def inner(a, b=1, *, c: int = 2):", *inner()]
    if shape == "class":
        return ["class Local(Base):", "{i}attribute = 1", "{i}def method(self):", *_nested(_nested(draw(blocks(depth + 1))))]
    if shape == "match":
        return [f"match {e}:", "{i}case [a, b] if a:", *_nested(inner()), "{i}case 1 | 2:", *_nested(inner()), "{i}case _: pass"]
    return [f"async with ctx({e}) as c:", *inner(), "async for i in c:", *inner()]


@st.composite
def programs(draw: st.DrawFn) -> str:
    indent = draw(st.sampled_from(["    ", "  ", "\t", "   "]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    header = draw(st.sampled_from(["def tool(x, y):", "async def tool(x, y):", '@mcp.tool(name="ü")\nasync def tool(x, y):']))
    lines = [*header.split("\n"), *_nested(draw(blocks(0)))]

    def render(line: str) -> str:
        if line.startswith("{d}"):
            return line[3:]
        level = 0
        while line.startswith("{i}"):
            line, level = line[3:], level + 1
        return indent * level + line

    # Continuation lines of multi-line expressions keep their place under the line they continue.
    rendered = []
    for line in lines:
        first, *rest = line.split("\n")
        prefix = render(first)
        rendered.append(prefix)
        depth = len(prefix) - len(prefix.lstrip())
        rendered.extend(prefix[:depth] + continuation for continuation in rest)
    return newline.join(rendered) + draw(st.sampled_from([newline, ""]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_generated_functions_match_the_position_provider(source: str) -> None:
    try:
        compile(source, "<generated>", "exec", ast.PyCF_ONLY_AST)
    except SyntaxError:
        assume(False)  # e.g. `return` outside of a function in a class body: not a program
    assert_exact(source)


# hypothesmith compiles what it generates; its SyntaxWarnings ("'int' object is not callable") are noise.
@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(python_source("file_input"))
def test_arbitrary_statements_as_a_function_body(source: str) -> None:
    body = textwrap.indent(source, "    ") if source.strip() else "    pass\n"
    module = "def tool(value):\n" + body + ("\n" if not body.endswith("\n") else "")
    try:
        cst.parse_module(module)
        ast.parse(module)
    except (cst.ParserSyntaxError, SyntaxError):
        assume(False)  # indenting broke a continuation line; not a program
    assert_exact(module, exact_path=False)



# -- the lean codegen state ---------------------------------------------------------------------
def lean_spans(module: cst.Module) -> dict[cst.CSTNode, tuple[int, int, int, int]]:
    """Every node's span when the lean state generates the whole module."""
    from mcp_lint.model.positions import _Collector, _lean_state_class

    collector = _Collector()
    state = _lean_state_class()(
        default_indent=module.default_indent, default_newline=module.default_newline, provider=collector
    )
    module._codegen(state)
    assert "".join(state.tokens) == module.code  # it generates what libcst's state does
    return collector.spans


def assert_lean_matches(source: str) -> None:
    module = cst.parse_module(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    spans = lean_spans(module)
    assert spans.keys() == expected.keys()
    for node, where in expected.items():
        got = spans[node]
        assert (where.start.line, where.start.column, where.end.line, where.end.column) == got, (node, where, got)


TOKEN_SHAPES = {
    # Tokens holding line breaks: the lean state looks for one before splitting.
    "triple-quoted strings": 'def f():\n    x = """a\nb\r\nc\rd"""\n    return f"""{x}\n{x!r:>{10}}"""\n',
    "line continuations": "def f():\n    return 1 + \\\n        2 + \\\r\n        3\n",
    "carriage returns alone": "def f():\r    if x:\r        return 1\r    return (\r        2)\r",
    "form feed and tabs": "\x0c\ndef f():\n\tif x:\n\t\treturn [1,\n\t\t\t2]  # c\n",
    "parentheses and decorators": "@a\n@b.c(d)\nasync def f():\n    return ((x)), (y)\n",
    "comments after the last statement": "class C:\n    def f(self):\n        pass\n        # trailing\n\n    # dedented\n",
    "no trailing newline": "def f():\n    return ('é', \"ü\")",
}
if sys.version_info >= (3, 10):
    TOKEN_SHAPES["match"] = "def f(p):\n    match p:\n        case {'k': [1, *rest]} if rest:\n            return rest\n"


@pytest.mark.parametrize("source", [*SNIPPETS.values(), *TOKEN_SHAPES.values()], ids=[*SNIPPETS, *TOKEN_SHAPES])
def test_the_lean_state_positions_every_node_as_libcst_does(source: str) -> None:
    assert_lean_matches(source)


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(python_source("file_input"))
def test_the_lean_state_on_arbitrary_modules(source: str) -> None:
    try:
        cst.parse_module(source)
    except cst.ParserSyntaxError:
        assume(False)
    assert_lean_matches(source)


def test_the_lean_state_on_generated_functions() -> None:
    """The generated programs of test_generated_functions_match_the_position_provider, whole."""

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(programs())
    def check(source: str) -> None:
        try:
            cst.parse_module(source)
        except cst.ParserSyntaxError:
            assume(False)
        assert_lean_matches(source)

    check()
