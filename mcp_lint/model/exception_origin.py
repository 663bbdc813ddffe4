"""Who wrote a caught exception's text: the author (own classes, literal messages, parsing the
tool's own arguments) or someone else (a library, the OS, the network).

A rule on raw exception text reports only text from someone else; the answer depends on the caught classes and on what
the `try` body runs, which is scanned once per `try` however many clauses ask. Separate from the
per-function walk because it is a judgement with its own tables (library_tables) and its own walk
of the `try` body.
"""

from __future__ import annotations

import builtins
from dataclasses import replace
from typing import Callable

import libcst as cst

from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.frameworks import FRAMEWORK_DOMAIN_ERRORS
from mcp_lint.model.library_tables import (
    ARGUMENT_PARSERS,
    BROAD_ERRORS,
    CLIENT_LIKE,
    FOREIGN_BUILTIN_ERRORS,
    MODEL_VALIDATORS,
    NARROW_BUILTIN_ERRORS,
    PARSER_ONLY_ERRORS,
    VALIDATION_ONLY_ERRORS,
    parses_its_input,
)
from mcp_lint.model.names import AliasTable, dotted, last_name, root_of
from mcp_lint.model.walk import FindingVisitor
from mcp_lint.vocabulary import BENIGN_CALLS, BENIGN_METHODS, RECEIVER_DEPENDENT_METHODS

_BUILTIN_NAMES = frozenset(dir(builtins))


def classify_handlers(handlers: list[Handler], aliases: AliasTable, params: frozenset[str]) -> None:
    """Set each clause's `foreign`, `parses_parameters` and `imported_classes`."""
    for handler in handlers:
        body = _TryBodyScan(handler.try_node, aliases, params)
        handler.foreign = is_foreign_handler(handler, aliases, body.calls_foreign_code, body.calls_library_code)
        # Foreign only through parsing the function's own parameters (`json.loads(filters)`): in a
        # tool, that text describes what the model sent (the linker decides, knowing tools).
        handler.parses_parameters = handler.foreign and (
            not is_foreign_handler(handler, aliases, body.beyond_parameters, body.library_beyond_parameters)
            or _only_parser_errors(handler, body)
            or _only_validation_errors(handler, aliases, params)
        )
        imported = tuple(n for n in handler.caught if _imported_class(n, aliases))
        others = tuple(n for n in handler.caught if n not in imported)
        if handler.foreign and imported and not (others and is_foreign_handler(replace(handler, caught=others), aliases, body.calls_foreign_code, body.calls_library_code)):
            handler.imported_classes = imported


def _only_parser_errors(handler: Handler, body: _TryBodyScan) -> bool:
    """Every caught class is raised only by its module's functions (`except re.error`), and the
    body calls those functions only on the function's parameters: the text describes them."""
    modules = {PARSER_ONLY_ERRORS.get(name) for name in handler.caught}
    if not handler.caught or None in modules:
        return False
    return body.parses_only_parameters_with(frozenset(m for m in modules if m is not None))


def _only_validation_errors(handler: Handler, aliases: AliasTable, params: frozenset[str]) -> bool:
    """Every caught class is a validator's (`pydantic.ValidationError`), and every call of the
    body builds a model from the function's parameters alone (`input_model(**kwargs)`,
    `Args.model_validate(arguments)`): the text describes them. A method of anything else
    (`client.reports.create(args)`) may validate its own data."""
    if not handler.caught or not all(name in VALIDATION_ONLY_ERRORS for name in handler.caught):
        return False
    finder = _ParameterCallFinder(params)
    finder.walk(handler.try_node.body)
    return finder.calls > 0 and not finder.other


def is_foreign_handler(
    handler: Handler,
    aliases: AliasTable,
    body_calls_foreign_code: Callable[[], bool],
    body_calls_library_code: Callable[[], bool] | None = None,
) -> bool:
    """Can the caught exception carry text written by someone other than the author?

    Broad builtin classes count only when the try body runs foreign code (a call that is not a
    harmless builtin, an await, a `with`): a body that only raises the author's own literal
    messages keeps them curated. Narrow builtin classes (ValueError, KeyError...) count only when
    the body calls library code: raised by the project's own functions (`self._check(x)`,
    `validate(x)`), their text is the author's. So do library classes (json.JSONDecodeError,
    binascii.Error): a body that only parses the tool's own arguments (`json.loads(filters)`)
    produces text about the model's own input, which it can act on. OS/network classes always
    count; the project's own classes and the frameworks' ToolError never do.
    """
    own_package = aliases.module.split(".")[0]
    if not handler.caught:
        return body_calls_foreign_code()
    for name in handler.caught:
        short = last_name(name)
        if name in FRAMEWORK_DOMAIN_ERRORS or short in {"ToolError", "McpError", "MCPError", "FastMCPError"}:
            continue
        builtin = name[len("builtins.") :] if name.startswith("builtins.") else name
        if builtin in BROAD_ERRORS:
            if body_calls_foreign_code():
                return True
        elif builtin in NARROW_BUILTIN_ERRORS:
            if (body_calls_library_code or body_calls_foreign_code)():
                return True
        elif builtin in FOREIGN_BUILTIN_ERRORS:
            return True
        elif "." in name:
            root = name.split(".")[0]
            if root == own_package or short in aliases.relative_names:
                continue  # the project's own exception class
            # httpx.HTTPError, botocore.exceptions.ClientError, json.JSONDecodeError...
            if body_calls_foreign_code():
                return True
        # A bare name that is not imported is defined in this module: the author's own class.
    return False


def _imported_class(name: str, aliases: AliasTable) -> bool:
    """A caught class imported from outside this module's package (`httpx.HTTPError`, or a
    sibling top-level module's `errors.ApiError`): library code unless the linker finds it in the
    project."""
    if "." not in name or name.startswith("builtins.") or name in FRAMEWORK_DOMAIN_ERRORS:
        return False
    own_package = aliases.module.split(".")[0]
    return name.split(".")[0] != own_package and last_name(name) not in aliases.relative_names


class _TryBodyScan:
    """What a `try` body runs, walked once (on first question) however many classes ask."""

    def __init__(self, try_node: cst.Try | cst.TryStar, aliases: AliasTable, params: frozenset[str]) -> None:
        self.try_node = try_node
        self.aliases = aliases
        self.params = params
        self._finder: _ForeignCallFinder | None = None

    def _scan(self) -> _ForeignCallFinder:
        if self._finder is None:
            self._finder = _ForeignCallFinder(self.aliases, self.params)
            self._finder.walk(self.try_node.body)
        return self._finder

    def calls_foreign_code(self) -> bool:
        """Anything but harmless builtins, parsers of the parameters included."""
        finder = self._scan()
        return bool(finder.found) or finder.runs_other_code or finder.parsed_parameter

    def beyond_parameters(self) -> bool:
        """Foreign code other than parsing the function's own parameters."""
        finder = self._scan()
        return bool(finder.found) or finder.runs_other_code

    def calls_library_code(self) -> bool:
        """A call of code outside the project (parsers of the parameters included)."""
        finder = self._scan()
        return bool(finder.found) or finder.parsed_parameter

    def library_beyond_parameters(self) -> bool:
        return bool(self._scan().found)

    def parses_only_parameters_with(self, modules: frozenset[str]) -> bool:
        """The body calls into `modules` (`re`), and only to parse the function's parameters.
        A walk of its own, asked only of clauses catching such a module's class (rare)."""
        finder = _ModuleCallFinder(self.aliases, self.params, modules)
        finder.walk(self.try_node.body)
        return finder.parses and not finder.found


class _ForeignCallFinder(FindingVisitor):
    def __init__(self, aliases: AliasTable, params: frozenset[str] = frozenset()) -> None:
        self.aliases = aliases
        self.params = params
        self.found = False  # a call of library code: ends the walk
        # An await, a `with`, a call of the project's own code (see _project_call): foreign code
        # for a broad `except`, not for a narrow builtin one.
        self.runs_other_code = False
        self.parsed_parameter = False  # an ARGUMENT_PARSERS call on a parameter was seen
        self.in_raise = 0
        # Locals holding the author's argument model just validated (`fields = Args(**params)`).
        self.validated: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if type(value) is cst.Call and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            name = dotted(value.func)
            if name is not None and self._validates_arguments(value, name):
                self.validated.add(node.targets[0].target.value)

    def visit_Raise(self, node: cst.Raise) -> None:
        self.in_raise += 1

    def leave_Raise(self, original_node: cst.Raise) -> None:
        self.in_raise -= 1

    def visit_Await(self, node: cst.Await) -> None:
        self.runs_other_code = True

    def visit_Yield(self, node: cst.Yield) -> None:
        # In a context manager (`@contextmanager def reported(): try: yield`), the caller's
        # `with` body runs here: any library code.
        self.found = True

    def _parses_an_argument(self, node: cst.Call) -> bool:
        """The parser's input is one of the tool's parameters (`filters`, `args["when"]`)."""
        if not node.args:
            return False
        base = root_of(node.args[0].value)
        return type(base) is cst.Name and base.value in self.params

    def _validates_arguments(self, node: cst.Call, name: str) -> bool:
        """The author's argument model built from the function's parameters: `Args(**params)`,
        `Args(query=query)`, `Args.model_validate(arguments)`. A pydantic error then describes
        what the model sent, which it can correct."""
        parts = name.split(".")
        if parts[-1] in MODEL_VALIDATORS and len(parts) >= 2:
            return self._parses_an_argument(node)
        if len(parts) != 1 or not parts[0][:1].isupper() or parts[0] in _BUILTIN_NAMES or not node.args:
            return False
        if parts[0] in self.aliases.aliases and not self._project_call(name):
            return False  # a library class: its own validation is not the author's argument model
        return all(self._from_parameters(argument.value) for argument in node.args)

    def _from_parameters(self, value: cst.BaseExpression) -> bool:
        root = root_of(value)
        return type(root) is cst.Name and root.value in self.params

    def visit_With(self, node: cst.With) -> None:
        # Context managers (open(), client sessions, transactions) run foreign code.
        self.runs_other_code = True

    def visit_Call(self, node: cst.Call) -> None:
        if self.in_raise:
            return
        name = dotted(node.func)
        if name is None:
            # `get_config().get_client_config()`, `handlers[name](args)`: the call that made the
            # receiver is visited on its own and decides; this one alone is foreign code the
            # linker cannot resolve, not library code.
            self.runs_other_code = True
            return
        if name in BENIGN_CALLS:
            return
        if self._parses_an_argument(node) and self._parser(name):
            self.parsed_parameter = True
            return
        if self._validates_arguments(node, name):
            self.parsed_parameter = True
            return
        if _serializes(name, self.validated):
            return  # `fields.model_dump()` of the argument model validated above: it raises nothing
        if type(node.func) is cst.Attribute and node.func.attr.value == "decode" and not self._from_parameters(node.func.value):
            # `raw.decode("utf-8")` of bytes the tool fetched: the codec's text is about data the
            # model never saw (of a parameter, it is about what the model sent).
            self.found = True
            return
        if type(node.func) is cst.Attribute and node.func.attr.value in BENIGN_METHODS:
            if node.func.attr.value not in RECEIVER_DEPENDENT_METHODS:
                return
            # `d.get(k)` is harmless; `httpx.get(url)` / `client.get(url)` is I/O.
            receiver = dotted(node.func.value) or ""
            root = receiver.split(".")[0]
            if receiver and root not in self.aliases.aliases and not CLIENT_LIKE.search(receiver):
                return
        if self._project_call(name):
            self.runs_other_code = True
        else:
            self.found = True

    def _parser(self, name: str) -> bool:
        """A parser of its input: one of the table's (as written or imported), or an imported
        library's function named for it (`sqlparser.parse`); never the project's own function,
        whose errors the escapes of its body decide."""
        resolved = self.aliases.resolve_dotted(name)
        if (resolved or name) in ARGUMENT_PARSERS:
            return True
        return resolved is not None and not self._project_call(name) and parses_its_input(resolved)

    def _project_call(self, name: str) -> bool:
        """A call of the project's own code, as written: a method of this class (`self._check`),
        a name imported from this project, or a name neither imported nor builtin (defined in
        this module). `self.client.get()` and `obj.method()` may be anything: not counted."""
        parts = name.split(".")
        if parts[0] in {"self", "cls"}:
            return len(parts) == 2
        resolved = self.aliases.resolve_dotted(name)
        if resolved is None:
            return len(parts) == 1 and parts[0] not in _BUILTIN_NAMES
        own_top = self.aliases.module.split(".")[0]
        return parts[0] in self.aliases.relative_names or bool(own_top) and resolved.split(".")[0] == own_top


# What a validated pydantic model is turned into for sending (v2 and v1 names): its values are
# already checked, so these raise nothing of their own.
_MODEL_SERIALIZERS = frozenset({"model_dump", "model_dump_json", "dict", "json"})


def _serializes(name: str, validated: set[str]) -> bool:
    """`name` is a serializer of a local holding a validated argument model."""
    local, _, method = name.partition(".")
    return local in validated and method in _MODEL_SERIALIZERS


class _ModuleCallFinder(FindingVisitor):
    """Calls into `modules`: `found` for one whose input is not a parameter (`re.compile(rule)` of
    a fetched rule), `parses` for one that parses a parameter (`re.compile(pattern)`)."""

    def __init__(self, aliases: AliasTable, params: frozenset[str], modules: frozenset[str]) -> None:
        self.aliases = aliases
        self.params = params
        self.modules = modules
        self.found = False
        self.parses = False

    def visit_Call(self, node: cst.Call) -> None:
        name = dotted(node.func)
        resolved = (self.aliases.resolve_dotted(name) or "") if name else ""
        if resolved.split(".")[0] not in self.modules:
            return  # a compiled pattern's own methods (`rx.search(s)`) raise no parse error
        first = root_of(node.args[0].value) if node.args else None
        if type(first) is cst.Name and first.value in self.params:
            self.parses = True
        else:
            self.found = True


class _ParameterCallFinder(FindingVisitor):
    """Counts the calls of a model (`input_model(...)`, `Args.model_validate(...)`) whose
    arguments are all the function's parameters (or items of them); `other` for any other call."""

    def __init__(self, params: frozenset[str]) -> None:
        self.params = params
        self.calls = 0
        self.other = False

    def visit_Call(self, node: cst.Call) -> None:
        if self._builds_from_parameters(node):
            self.calls += 1
        else:
            self.other = True
            self.found = True

    def _builds_from_parameters(self, node: cst.Call) -> bool:
        """A model call whose every argument is a parameter (or an item of one), or a part
        built the same way (`Request(path=models.Path(id=item_id))`: generated request models
        nest one model per section)."""
        return _model_call(node) and bool(node.args) and all(self._from_parameters(argument.value) for argument in node.args)

    def _from_parameters(self, value: cst.BaseExpression) -> bool:
        if type(value) is cst.Call:
            # Only a class (or a validator) as a part: `Args(data=fetch(item_id))` runs a function
            # whose own validation may be of data it fetched.
            last = last_name(dotted(value.func) or "")
            return (last in MODEL_VALIDATORS or last[:1].isupper()) and self._builds_from_parameters(value)
        root = root_of(value)
        return type(root) is cst.Name and root.value in self.params


def _model_call(node: cst.Call) -> bool:
    """`input_model(...)`, `Args.model_validate(...)`, or a class reached through its module
    (`models.CreateRequest(...)`: capitalized, as classes are named); a lowercase method of
    anything else (`client.reports.create(...)`) may validate data of its own."""
    if type(node.func) is cst.Name:
        return True
    last = last_name(dotted(node.func) or "")
    return last in MODEL_VALIDATORS or last[:1].isupper()
