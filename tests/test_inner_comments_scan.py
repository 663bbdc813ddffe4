"""fixing.comments.inner_comments with CPython's tree: a module whose `#` lines all lie where no
logical line goes on is answered without tokenizing, and the answer is the tokenizer's."""

from __future__ import annotations

import ast

import pytest

from mcp_lint.fixing import comments
from mcp_lint.fixing.comments import inner_comments

INSIDE = [
    # a dict spread over lines
    'def f():\n    return {\n        "error": "x",  # noqa: E501\n    }\n',
    # a comment line of its own inside a call's parentheses
    "x = call(\n    # the id\n    1,\n)\n",
    # a header's parameters
    "def f(\n    a,  # first\n    b,\n):\n    return a\n",
    # a comment line in a header, then more of the header
    "def f(\n    a,\n    # trailing\n):\n    return a\n",
    # a header whose last row holds the body
    "def f(\n    # only\n    a): return a\n",
    # an except clause's tuple
    "try:\n    pass\nexcept (\n    ValueError,  # bad input\n    KeyError,\n):\n    pass\n",
    # a decorator's arguments
    "@app.tool(\n    name='x',  # shown\n)\ndef f():\n    pass\n",
    # a with statement's items
    "with (\n    open(a) as x,  # read\n    open(b) as y,\n):\n    pass\n",
]
OUTSIDE = [
    # the comment that opens a block
    "def f():\n    # explain\n    return 1\n",
    "if x:\n    # why\n    y = 1\nelse:\n    # other\n    y = 2\n",
    # trailing comments on one-line statements
    "x = 1  # one\ny = [1, 2]  # two\n",
    # a `#` inside a string only
    'url = "https://example.com/page#part"\n',
    # comments between a decorator and its function
    "@deco\n# note\ndef f():\n    pass\n",
]


def _tokenized(source: str) -> tuple:
    return inner_comments(source)  # no tree: always the tokenizer


@pytest.mark.parametrize("source", INSIDE)
def test_a_comment_inside_a_logical_line_is_found_with_the_tree(source: str) -> None:
    found = inner_comments(source, ast.parse(source))
    assert found and found == _tokenized(source)


@pytest.mark.parametrize("source", OUTSIDE)
def test_modules_without_one_are_answered_without_tokenizing(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _tokenized(source) == ()

    def no_tokenizing(*args, **kwargs):
        raise AssertionError("tokenized")

    monkeypatch.setattr(comments.tokenize, "generate_tokens", no_tokenizing)
    assert inner_comments(source, ast.parse(source)) == ()


# Modules where only some statements are tokenized: each answer must be the whole module's.
PARTS = [
    # a statement beginning on the row where another ends (`;`), the comment inside the second
    "a = (1,\n     2); b = (3,  # three\n     4)\nc = 5\n",
    # a header reaching its body's first row, whose statement goes on
    "def f(\n    a,  # first\n): return (a,\n    # second\n    1)\nx = 1  # plain\n",
    # a nested block: the comment in a statement indented deeper than the module's start
    "class C:\n    def m(self):\n        if x:\n            y = call(\n                1,  # one\n            )\n        return y\n",
    # two statements far apart, each holding one, plain code between them
    "x = [\n    1,  # one\n]\n" + "y = 1\n" * 40 + "z = {\n    'k': 2,  # two\n}\n",
    # a one-line compound statement's body holding one
    "if x: y = (1,  # one\n    2)\nelse: y = (3,  # three\n    4)\n",
    # a file without a final newline
    "z = call(\n    1,  # one\n    2)",
    # a decorator and its function's header, both holding one
    "@app.tool(\n    name='x',  # shown\n)\ndef f(a,  # arg\n      b):\n    pass\n",
]


@pytest.mark.parametrize("source", PARTS)
def test_statements_tokenized_alone_give_the_whole_modules_answer(source: str) -> None:
    found = inner_comments(source, ast.parse(source))
    assert found and found == _tokenized(source)


def test_only_the_rows_of_statements_holding_one_are_tokenized(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "import os\n" + "def g():\n    return os.getcwd()  # where\n" * 30 + "x = call(\n    1,  # one\n)\n"
    read: list[str] = []
    generate = comments.tokenize.generate_tokens

    def recording(readline):
        text = "".join(iter(readline, ""))
        read.append(text)
        lines = iter(text.splitlines(keepends=True))
        return generate(lambda: next(lines, ""))

    monkeypatch.setattr(comments.tokenize, "generate_tokens", recording)
    assert inner_comments(source, ast.parse(source)) == ((63, 9, 64, 2, "# one"),)
    assert read == ["x = call(\n    1,  # one\n)\n"]
