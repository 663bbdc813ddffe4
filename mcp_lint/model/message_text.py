"""Whose words a message expression carries: the author's literal text, or a caught exception's own.

`literal_text` reads what the author wrote (rules judge and quote it);
`find_exception_text` and `gathered_exception_text` find where an exception's text (`str(e)`,
`e.response.text`, a traceback, an `asyncio.gather` result tested as an exception) enters a
string. Both questions are asked of single expressions by the per-function walk and by the
rules, so they are kept apart from either.
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.names import dotted, last_name, literal_value
from mcp_lint.model.walk import FindingVisitor


# The caught class a gathered exception is reported as ("the text of a caught exception ...").
GATHERED = "exception returned by asyncio.gather"


def _exception_instances(test: cst.BaseExpression) -> tuple[set[str], set[str]]:
    """Names a test proves to be exceptions when true, and when false:
    `isinstance(r, Exception)` -> ({r}, {}), `not isinstance(r, BaseException)` -> ({}, {r})."""
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        when_true, when_false = _exception_instances(test.expression)
        return when_false, when_true
    if type(test) is cst.BooleanOperation and type(test.operator) is cst.And:
        left, right = _exception_instances(test.left), _exception_instances(test.right)
        return left[0] | right[0], set()
    if type(test) is cst.Call and dotted(test.func) == "isinstance" and len(test.args) == 2:
        subject, classes = test.args[0].value, test.args[1].value
        names = [el.value for el in classes.elements] if type(classes) is cst.Tuple else [classes]
        if type(subject) is cst.Name and any(_is_exception_class(n) for n in names):
            return {subject.value}, set()
    return set(), set()


def _is_exception_class(expr: cst.BaseExpression) -> bool:
    name = last_name(dotted(expr) or "")
    return name in {"BaseException", "Exception"} or name.endswith(("Error", "Exception"))


class _GatheredTextFinder(FindingVisitor):
    """Text of a value proven to be an exception where it is used (see gathered_exception_text)."""

    def __init__(self, known: set[str]) -> None:
        self.known = known

    def visit_IfExp(self, node: cst.IfExp) -> bool:
        when_true, when_false = _exception_instances(node.test)
        for branch, proven in ((node.body, when_true), (node.orelse, when_false)):
            inner = _GatheredTextFinder(self.known | proven)
            inner.walk(branch)
            if inner.found is not None:
                self.found = inner.found
                return False
        return False

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> bool:
        self._text_of(node.expression)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        if dotted(node.func) in {"str", "repr"} and node.args:
            self._text_of(node.args[0].value)
            return False
        return True

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def _text_of(self, expr: cst.BaseExpression) -> None:
        if self.known:
            found = find_exception_text(expr, None, frozenset(self.known))
            if found is not None:
                self.found = found


def gathered_exception_text(expr: cst.BaseExpression, conditions: tuple[cst.BaseExpression, ...]) -> cst.CSTNode | None:
    """`f"ERROR: {r}"` / `str(r)` in `expr` where `r` is known to be an exception: tested by the
    enclosing `if`s (`conditions`) or by a conditional expression around it
    (`r if not isinstance(r, BaseException) else f"ERROR: {r}"`)."""
    known: set[str] = set()
    for condition in conditions:
        known |= _exception_instances(condition)[0]
    finder = _GatheredTextFinder(known)
    finder.walk(expr)
    return finder.found


# Attributes of a caught exception that carry its text (or an upstream body).
TEXT_ATTRIBUTES = frozenset(
    {
        "args",
        "message",
        "msg",
        "strerror",
        "detail",
        "details",
        "body",
        "text",
        "content",
        "stderr",
        "stdout",
        "output",
        "error",
        "errors",
        "description",
        "json",
        # `e.read()`: the stdlib HTTP client's HTTPError is also the failed response, its body.
        "read",
    }
)


# Methods that serialise a whole object (a result model built with the text, then dumped for the
# model: `reply.model_dump_json()`, `json.dumps(reply.dict())`): all the text it holds is in theirs.
SERIALISERS = frozenset({"model_dump", "model_dump_json", "json", "dict", "to_dict", "to_json", "as_dict", "asdict"})


def find_exception_text(
    expr: cst.CSTNode, handler: Handler | None, params: frozenset[str] = frozenset(), *, through_locals: bool = True
) -> cst.CSTNode | None:
    """The first sub-expression of `expr` that puts a caught exception's text into a string;
    with `through_locals=False` only the exception itself counts, not locals the handler built
    from it (FunctionFacts.text_flows follows those)."""
    names = set(params)
    parts: set[str] = set()
    if handler is not None:
        if handler.name:
            names.add(handler.name)
        if through_locals:
            names |= handler.tainted
        # An alias of a part (`response = e.response`) is the exception itself, not a local
        # built from its text: `response.text` counts either way.
        parts = handler.parts - names
    finder = _TextFinder(names, handler is not None, parts)
    finder.walk(expr)
    return finder.found


_CODE_KEYS = frozenset({"code", "status", "statuscode", "httpstatuscode", "status_code", "errno"})


class _TextFinder(FindingVisitor):
    def __init__(self, names: set[str], traceback_counts: bool, parts: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.names = names
        self.traceback_counts = traceback_counts
        self.parts = parts  # locals holding a part of the exception (`response = e.response`)
        self.found: cst.CSTNode | None = None


    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        chain = dotted(node)
        if chain:
            parts = chain.split(".")
            if parts[0] in self.names or parts[0] in self.parts:
                if any(p in TEXT_ATTRIBUTES for p in parts[1:]) or parts[-1] in SERIALISERS:
                    self.found = node
                return False  # e.status_code, e.__class__ etc. are not the text
        return True

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        # e.args[0], e.response["Error"]["Message"]: the exception's text or an upstream body.
        base: cst.BaseExpression = node
        while type(base) is cst.Subscript:
            base = base.value
        chain = dotted(base)
        if chain and chain.split(".")[0] in self.names:
            keys = [
                el.slice.value.evaluated_value
                for el in node.slice
                if type(el.slice) is cst.Index and type(el.slice.value) is cst.SimpleString
            ]
            if not any(str(k).lower() in _CODE_KEYS for k in keys):
                self.found = node
            return False
        return True

    def visit_Call(self, node: cst.Call) -> bool:
        func = dotted(node.func) or ""
        if self.traceback_counts and func in {"traceback.format_exc", "format_exc", "traceback.format_exception"}:
            self.found = node
            return False
        if func == "type":  # type(e).__name__ names the class, not the text
            return False
        # e.response.json() etc.: handled by visit_Attribute on node.func
        return True

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names:
            self.found = node


def literal_text(expr: cst.BaseExpression) -> str | None:
    """The author-written text of a string-ish expression: literals kept, placeholders as {}."""
    # Exact types (none of these classes has subclasses): isinstance against libcst's ABC-based
    # classes runs Python code, and this is asked of about every value a function returns.
    kind = type(expr)
    if kind is cst.SimpleString:
        try:
            value = literal_value(expr)
        except Exception:  # noqa: BLE001 - malformed escapes: treat as unknown text
            return None
        return value if isinstance(value, str) else None
    if kind is cst.ConcatenatedString:
        left = literal_text(expr.left)
        right = literal_text(expr.right)
        if left is None or right is None:
            return None
        return left + right
    if kind is cst.FormattedString:
        out = []
        for part in expr.parts:
            if type(part) is cst.FormattedStringText:
                out.append(part.value)
            else:
                out.append("{}")
        return "".join(out)
    if kind is cst.BinaryOperation and type(expr.operator) is cst.Add:
        left = literal_text(expr.left)
        right = literal_text(expr.right)
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if kind is cst.BinaryOperation and type(expr.operator) is cst.Modulo:
        return literal_text(expr.left)
    if kind is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "format":
        return literal_text(expr.func.value)
    return None
