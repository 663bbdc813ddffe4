"""Which exceptions a function may let escape, and whose text they carry: the origin of a caught
builtin exception decided by what the `try` body can raise, not by how its calls are written.

An `except ValueError` around `service.get_item(item_id)` catches what `get_item` lets escape:
its own `raise ValueError("item_id is required ...")` is the author's text; `parse_filters(raw)`
that calls `json.loads` lets a library's `JSONDecodeError` (a ValueError) escape, whose text is
the library's. exception_origin judges a clause from the `try` body's calls as written (a call of
the project's own function is not library code); `refine_handler_origins` revisits the clauses
catching only narrow builtin classes once the module's functions are all known, following calls
into the module's own functions (and methods of its instances) transitively.

An escape is one of: AUTHOR (a raise of the author's own message), LIBRARY (library code not
caught on the way, or a raise carrying a caught foreign exception's text), PARAMETER (a library
parser applied to the function's own parameter: its text describes what the caller passed), or
UNKNOWN (a call this module cannot follow: another module's function, a method of an unknown
object). A clause whose body reaches an UNKNOWN keeps exception_origin's verdict.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Mapping, Protocol

import libcst as cst

from mcp_lint.engine.libcst_cfg import ClassBases, is_subclass
from mcp_lint.model.escape_exits import AUTHOR, CALL, CARRIED, LIBRARY, PARAMETER, UNKNOWN, Exit
from mcp_lint.model.exception_guards import Handler, TryGuard, catches
from mcp_lint.model.facts import CallFact, FunctionFacts, RaiseFact
from mcp_lint.model.effects import FILE_CALLS, FILE_READ_CALLS, FILE_READ_METHODS, PATH_WRITES, SUBPROCESS_CALLS
from mcp_lint.model.library_tables import (
    FILE_SYSTEM_ERRORS,
    FILE_SYSTEM_MODULES,
    LIBRARY_ERROR_BASES,
    LOGGER_METHODS,
    NARROW_BUILTIN_ERRORS,
    RAISES_BY_FUNCTION,
    RAISES_BY_METHOD,
    RAISES_BY_MODULE,
    parses_its_input,
)
from mcp_lint.model.message_text import find_exception_text
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.names import dotted, last_name, root_of
from mcp_lint.model.walk import descendants
from mcp_lint.vocabulary import BENIGN_CALLS, BENIGN_METHODS, RECEIVER_DEPENDENT_METHODS

if TYPE_CHECKING:
    from mcp_lint.model.summary import FunctionSummary, ModuleSummary

_BUILTIN_NAMES = frozenset(dir(builtins))


def refine_handler_origins(model: ModuleModel, instances: Mapping[str, str], class_bases: ClassBases) -> None:
    """Re-decide `foreign`/`parses_parameters` of the module's clauses that catch only narrow
    builtin classes (ValueError, KeyError...) from what their `try` bodies let escape."""
    summaries = _Escapes(model, instances, class_bases)
    exits = ExitFinder(model, class_bases, instances)
    for facts in model.functions.values():
        for handler in facts.handlers:
            if handler.shadowed or not handler.caught or handler.node is None:
                continue
            caught = tuple(_builtin(name) for name in handler.caught)
            if all(name in FILE_SYSTEM_ERRORS for name in caught):
                _file_system_origin(facts, handler, frozenset(caught), exits)
                continue
            if not all(name in NARROW_BUILTIN_ERRORS for name in caught):
                continue
            verdict = summaries.try_body(facts, handler, frozenset(caught))
            if verdict is not None:
                handler.foreign, handler.parses_parameters, handler.carried_only = verdict
            else:
                # Calls this module cannot follow: the link step decides from what they let escape.
                handler.escape_exits = exits.of_try_body(facts, handler)


def _file_system_origin(facts: FunctionFacts, handler: Handler, caught: frozenset[str], exits: ExitFinder) -> None:
    """A clause catching only file-system classes (`except PermissionError`): the author's text
    where the project's own raises are all that may reach it (a policy check's refusal), as the
    link step decides when the `try` body calls another module's code."""
    found = exits.of_try_body(facts, handler, local_too=True)
    if any(e.kind == CALL for e in found):
        handler.escape_exits = found
    elif EscapeLinks(_no_function).verdict(found, caught) == AUTHOR:
        handler.foreign = False


def _no_function(qualname: str) -> None:
    return None


def _builtin(name: str) -> str:
    return name[len("builtins.") :] if name.startswith("builtins.") else name


class _Escapes:
    def __init__(self, model: ModuleModel, instances: Mapping[str, str], class_bases: ClassBases) -> None:
        self.model = model
        self.instances = instances
        self.class_bases = class_bases
        self.prefix = f"{model.module}." if model.module else ""
        self.memo: dict[tuple[str, frozenset[str]], frozenset[str]] = {}

    def try_body(self, facts: FunctionFacts, handler: Handler, caught: frozenset[str]) -> tuple[bool, bool, bool] | None:
        """(foreign, parses_parameters, carried_only) of `handler`, or None when its body reaches code this
        module cannot follow, or calls none of the module's own functions (nothing to add)."""
        kinds: set[str] = set()
        followed = False
        params = frozenset(p for p in facts.params if p not in {"self", "cls"})
        for call in facts.calls:
            inner = _inner_guards(call.guarded, handler.site)
            if inner is None or _caught_on_the_way(inner, caught):
                continue
            target = self.function_of(call)
            if target is not None:
                followed = True
                found = self.escapes(target, caught)
                if PARAMETER in found:
                    found = (found - {PARAMETER}) | ({PARAMETER} if _passes_parameters(call.node, params) else {LIBRARY})
                kinds |= found
            else:
                kinds |= self.call_kinds(call, facts)
        for fact in facts.raises:
            inner = _inner_guards(fact.guarded, handler.site)
            if inner is not None:
                kinds |= self.raise_kinds(fact, caught)
        if not followed or UNKNOWN in kinds:
            return None
        if LIBRARY in kinds:
            return True, False, False
        if PARAMETER in kinds:
            # A parser's error about what the caller passed: whether that is the model's own
            # input is the linker's question, asked as exception_origin first decided.
            return None
        if CARRIED in kinds:
            # Library text only as the author's raises took it in: foreign, and those raises are
            # where the flow starts (the clause passes their text on).
            return True, False, True
        return False, False, False

    def function_of(self, call: CallFact) -> str | None:
        """The module function (or method of the module's class or instance) `call` runs."""
        callee = call.callee
        if callee is None:
            return None
        if callee in self.model.functions:
            return callee
        if callee.startswith(self.prefix):
            owner, _, method = callee[len(self.prefix) :].rpartition(".")
            made = self.instances.get(owner)
            if made is not None and f"{made}.{method}" in self.model.functions:
                return f"{made}.{method}"
        return None

    def escapes(self, qual: str, caught: frozenset[str]) -> frozenset[str]:
        """The kinds of the exceptions of a class in `caught` that function `qual` may let escape."""
        key = (qual, caught)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = frozenset()  # recursion: a cycle adds nothing
        facts = self.model.functions[qual]
        params = tuple(p for p in facts.params if p not in {"self", "cls"})
        kinds: set[str] = set()
        for call in facts.calls:
            if any(_caught_on_the_way((guard,), caught) for guard in call.guarded):
                continue
            target = self.function_of(call)
            if target is not None:
                found = self.escapes(target, caught)
                if PARAMETER in found and not _passes_parameters(call.node, frozenset(params)):
                    found = (found - {PARAMETER}) | {LIBRARY}
                kinds |= found
            else:
                kinds |= self.call_kinds(call, facts)
        for fact in facts.raises:
            kinds |= self.raise_kinds(fact, caught)
        result = self.memo[key] = frozenset(kinds)
        return result

    def call_kinds(self, call: CallFact, facts: FunctionFacts) -> set[str]:
        """What a call that is not the module's own function may let escape."""
        node = call.node
        name = dotted(node.func)
        if name is None:
            return {UNKNOWN}
        parts = name.split(".")
        if len(parts) == 1:
            if name in BENIGN_CALLS or self._constructs_exception(name):
                return set()
            if name in _BUILTIN_NAMES:
                return {LIBRARY}
            return {UNKNOWN}  # a class or function this module does not define as a function
        if parts[-1] in BENIGN_METHODS and parts[-1] not in RECEIVER_DEPENDENT_METHODS:
            return set()
        resolved = self.model.aliases.resolve_dotted(name)
        own_top = self.model.module.split(".")[0]
        if resolved is None or parts[0] in self.model.aliases.relative_names or resolved.split(".")[0] == own_top:
            return {UNKNOWN}  # a method of a local, or another module of the project
        if self._constructs_exception(parts[-1]):
            return set()
        if parses_its_input(resolved) and node.args:
            root = root_of(node.args[0].value)
            if type(root) is cst.Name and root.value in facts.params and root.value not in {"self", "cls"}:
                return {PARAMETER}
        return {LIBRARY}

    def raise_kinds(self, fact: RaiseFact, caught: frozenset[str]) -> set[str]:
        """What one raise lets escape of the classes `caught` (nothing when it is caught here)."""
        exc = fact.node.exc
        handler = fact.handler
        if exc is None or (type(exc) is cst.Name and handler is not None and exc.value == handler.name):
            # `raise` / `raise e` in a clause: the caught exception goes on as it came.
            if handler is None:
                return {UNKNOWN}
            classes = tuple(last_name(_builtin(c)) for c in handler.caught) or ("BaseException",)
            if not any(self._matches(cls, caught) for cls in classes):
                return set()
            return {_origin(handler)}
        made = exc.func if type(exc) is cst.Call else exc
        name = dotted(made)
        if name is None:
            return {UNKNOWN}
        cls = last_name(name)
        if not cls[:1].isupper():
            return {UNKNOWN}  # `raise make_error(...)`, `raise error` of a local
        if not self._matches(cls, caught) or fact.caught_here(cls):
            return set()
        if handler is not None and handler.foreign and find_exception_text(exc, handler) is not None:
            return {_carried(handler)}  # `raise ValueError(f"lookup failed: {e}")`
        return {AUTHOR}

    def _matches(self, raised: str, caught: frozenset[str]) -> bool:
        return any(is_subclass(raised, name, self.class_bases) for name in caught)

    def _constructs_exception(self, name: str) -> bool:
        found = getattr(builtins, name, None)
        if isinstance(found, type) and issubclass(found, BaseException):
            return True
        return f"{self.prefix}{name}" in self.model.classes


def _origin(handler: Handler) -> str:
    """Whose text a clause's exception carries, when it goes on (re-raised, or put in a new one)."""
    if not handler.foreign:
        return AUTHOR
    return PARAMETER if handler.parses_parameters else LIBRARY


def _carried(handler: Handler) -> str:
    """Whose text a new exception built from a clause's caught exception carries: a library's
    taken in at that raise (CARRIED), a parser's about the caller's input, or the author's."""
    origin = _origin(handler)
    return CARRIED if origin == LIBRARY else origin


def _inner_guards(guarded: frozenset[TryGuard], site: str) -> tuple[TryGuard, ...] | None:
    """The `try` guards around a call or raise inside the body of the `try` whose clause is
    `site` (that one left out); None when it is not inside that body."""
    inside = False
    others = []
    for guard in guarded:
        if any(entry[2] == site for entry in guard):
            inside = True
        else:
            others.append(guard)
    return tuple(others) if inside else None


def _caught_on_the_way(guards: tuple[TryGuard, ...], caught: frozenset[str]) -> bool:
    """Is every class of `caught` stopped by one of `guards` before it gets further?"""
    return bool(guards) and all(any(catches(guard, name) for guard in guards) for name in caught)


def _passes_parameters(call: cst.Call, params: frozenset[str]) -> bool:
    """Every argument of `call` is one of `params` or an item or attribute of one."""
    if not call.args:
        return False
    for argument in call.args:
        root = root_of(argument.value)
        if not (type(root) is cst.Name and root.value in params):
            return False
    return True


# -- Summaries composed across modules -------------------------------------------------------
#
# Within a module `_Escapes` follows the module's own functions; a call into another module of
# the project (`products.update(...)`, `self.service.get(...)`) stays UNKNOWN there. Each
# function therefore also records its `Exit`s (picklable, cached with the module's summary): its
# own raises and library calls not caught inside, and the project calls it makes, by the name the
# link step resolves. `EscapeLinks` composes them once the whole project is known, so that the
# origin of a caught `ValueError` is decided by what the `try` body can raise through any module.

def _ancestors(cls: str, class_bases: ClassBases) -> frozenset[str]:
    """`cls` and the builtin classes a clause could catch it as (ValueError for a JSONDecodeError)."""
    names = {cls}
    base = LIBRARY_ERROR_BASES.get(cls)
    if base is not None:
        names.add(base)
        cls = base
    names.update(q for q in _QUERYABLE if is_subclass(cls, q, class_bases))
    return frozenset(names)


_QUERYABLE = NARROW_BUILTIN_ERRORS | {"Exception", "BaseException"}
# Packages whose loggers' methods raise nothing to the caller (LOGGER_METHODS).
_LOGGING_PACKAGES = frozenset({"logging", "loguru", "structlog"})


class ExitFinder:
    """The `Exit`s of the module's functions and `try` bodies (per file, with the CST at hand)."""

    def __init__(self, model: ModuleModel, class_bases: ClassBases, instances: Mapping[str, str] | None = None) -> None:
        self.model = model
        self.class_bases = class_bases
        self.prefix = f"{model.module}." if model.module else ""
        self.instances = instances or {}

    def of_function(self, facts: FunctionFacts) -> tuple[Exit, ...]:
        params = _ParameterLocals(facts)
        exits = [self._call_exit(call, params, tuple(call.guarded)) for call in facts.calls]
        exits += [self._raise_exit(fact, tuple(fact.guarded)) for fact in facts.raises]
        return tuple(sorted({e for e in exits if e is not None}, key=repr))

    def of_try_body(self, facts: FunctionFacts, handler: Handler, local_too: bool = False) -> tuple[Exit, ...]:
        """What the `try` body of `handler` lets out of it; () when it calls no project code of
        another module (the module alone decided), unless `local_too`."""
        params = _ParameterLocals(facts)
        exits: list[Exit | None] = []
        for call in facts.calls:
            inner = _inner_guards(call.guarded, handler.site)
            if inner is not None:
                exits.append(self._call_exit(call, params, inner))
        for fact in facts.raises:
            inner = _inner_guards(fact.guarded, handler.site)
            if inner is not None:
                exits.append(self._raise_exit(fact, inner))
        found = {e for e in exits if e is not None}
        if not local_too and not any(e.kind == CALL for e in found):
            return ()
        return tuple(sorted(found, key=repr))

    def _call_exit(self, call: CallFact, params: _ParameterLocals, guards: tuple[TryGuard, ...]) -> Exit | None:
        node = call.node
        name = dotted(node.func)
        parts = name.split(".") if name else []
        method = node.func.attr.value if type(node.func) is cst.Attribute else ""
        resolved = self.model.aliases.resolve_dotted(name) if name else None
        own_top = self.model.module.split(".")[0]
        project = parts[:1] in (["self"], ["cls"]) or bool(parts and parts[0] in self.model.aliases.relative_names)
        project = project or (resolved is not None and resolved.split(".")[0] == own_top)
        library = resolved is not None and not project
        if len(parts) == 1 and name in _BUILTIN_NAMES:
            library, resolved = True, name
        if library and resolved is not None:
            if self._constructs_exception(parts[-1]):
                return None
            raised = RAISES_BY_FUNCTION.get(resolved, RAISES_BY_MODULE.get(resolved.rpartition(".")[0]))
            if raised is not None and not raised:
                return None  # raises nothing a clause for a builtin class sees
            if raised is None and resolved in BENIGN_CALLS:
                return None
            parser = parses_its_input(resolved) or resolved in RAISES_BY_FUNCTION
            kind = PARAMETER if parser and _parses(node, params.names()) else LIBRARY
            if raised is None and _touches_files(resolved, method):
                return Exit(kind, _ANY_OS_ERROR, guards=guards)
            return self._library(kind, raised, guards)
        if method and method in BENIGN_METHODS and method not in RECEIVER_DEPENDENT_METHODS:
            return None
        if method in LOGGER_METHODS and self._is_logger(parts[:-1], params.facts.class_name):
            return None  # `logger.info(...)`: a failing handler's error never reaches the caller
        if method in RAISES_BY_METHOD and not project and resolved is None:
            # `response.json()` of a local: a value some library call returned.
            return self._library(LIBRARY, RAISES_BY_METHOD[method], guards)
        if len(parts) == 1 and self._constructs_exception(name or ""):
            return None
        if call.callee:
            given_nothing = not node.args
            return Exit(CALL, callee=call.callee, passes_parameters=params.passed_whole(node), given_nothing=given_nothing, guards=guards)
        if method in _FILE_METHODS:
            # `path.unlink()`, `target.mkdir()` of a value this module cannot follow: the file
            # system's errors may come out (for a narrow builtin class, as unknown as any call).
            return Exit(LIBRARY, _ANY_OS_ERROR, guards=guards)
        return Exit(UNKNOWN, guards=guards)

    def _is_logger(self, receiver: list[str], class_name: str | None) -> bool:
        """`receiver` is the module's logger (`logger = logging.getLogger(__name__)`), one imported
        (`from loguru import logger`), or one the class keeps (`self.log = logging.getLogger(...)`)."""
        if len(receiver) == 2 and receiver[0] == "self" and class_name:
            made = self.instances.get(f"{class_name}.{receiver[1]}", "")
        elif len(receiver) == 1 and receiver[0] == self.model.logger_name:
            return True
        elif len(receiver) == 1:
            made = self.model.aliases.resolve_dotted(receiver[0]) or ""
        else:
            return False
        return made.split(".")[0] in _LOGGING_PACKAGES

    def _library(self, kind: str, raised: frozenset[str] | None, guards: tuple[TryGuard, ...]) -> Exit:
        classes = frozenset().union(*(_ancestors(c, self.class_bases) for c in raised)) if raised else frozenset({"*"})
        return Exit(kind, classes, guards=guards)

    def _raise_exit(self, fact: RaiseFact, guards: tuple[TryGuard, ...]) -> Exit | None:
        exc = fact.node.exc
        handler = fact.handler
        if exc is None or (type(exc) is cst.Name and handler is not None and exc.value == handler.name):
            if handler is None:
                return Exit(UNKNOWN, guards=guards)
            classes = tuple(last_name(_builtin(c)) for c in handler.caught) or ("BaseException",)
            found = frozenset().union(*(_ancestors(c, self.class_bases) for c in classes))
            return Exit(_origin(handler), found if "BaseException" not in classes else frozenset({"*"}), guards=guards)
        made = exc.func if type(exc) is cst.Call else exc
        name = dotted(made)
        cls = last_name(name) if name else ""
        if not cls[:1].isupper():
            return Exit(UNKNOWN, guards=guards)  # `raise make_error(...)`, `raise error` of a local
        kind = AUTHOR
        if handler is not None and handler.foreign and find_exception_text(exc, handler) is not None:
            kind = _carried(handler)  # `raise ValueError(f"lookup failed: {e}")`
        return Exit(kind, _ancestors(cls, self.class_bases), guards=guards)

    def _constructs_exception(self, name: str) -> bool:
        found = getattr(builtins, name, None)
        if isinstance(found, type) and issubclass(found, BaseException):
            return True
        return f"{self.prefix}{name}" in self.model.classes


# A library call that may raise anything, the file system's errors among them (an `Exit`'s classes).
_ANY_OS_ERROR = frozenset({"*", "OSError", "Exception", "BaseException"})
# `os` functions on files beyond the effect tables' (which list those that change or list them).
_OS_FILE_CALLS = frozenset({"os.open", "os.fdopen", "os.chdir", "os.lstat", "os.readlink", "os.truncate", "os.utime", "os.link"})
# The methods of path and file objects that reach the file system.
_FILE_METHODS = FILE_READ_METHODS | PATH_WRITES | {"open"}


def _touches_files(resolved: str, method: str) -> bool:
    """Does the library call (by the name it resolves to) reach the file system or start a
    process: `os.remove`, `shutil.copy`, `subprocess.run`, `open`, `Path(p).unlink()`?"""
    if resolved in FILE_CALLS or resolved in FILE_READ_CALLS or resolved in SUBPROCESS_CALLS or resolved in _OS_FILE_CALLS:
        return True
    root = resolved.split(".")[0]
    # `os` also reads the environment and the process (`os.getenv`, `os.getpid`): only its file
    # functions, listed, count.
    return (root in FILE_SYSTEM_MODULES and root != "os") or method in _FILE_METHODS


class _ParameterLocals:
    """`_from_parameters` of a function, walked for only when a call asks (most never do)."""

    def __init__(self, facts: FunctionFacts) -> None:
        self.facts = facts
        self.found: frozenset[str] | None = None

    def names(self) -> frozenset[str]:
        if self.found is None:
            self.found = _from_parameters(self.facts)
        return self.found

    def passed_whole(self, call: cst.Call) -> bool:
        """Is every argument of `call` one of them (or an item or attribute of one)?"""
        roots = [root_of(argument.value) for argument in call.args]
        if not roots or not all(type(root) is cst.Name for root in roots):
            return False
        return _passes_parameters(call, self.names())


def _from_parameters(facts: FunctionFacts) -> frozenset[str]:
    """The function's parameters and the locals assigned only from them (`start, _, end =
    slot.partition("-")`): a conversion of one (`int(start)`) fails on what the caller passed."""
    params = {p for p in facts.params if p not in {"self", "cls"}}
    assigned: dict[str, bool] = {}
    for node in descendants(facts.node.body, into_scopes=False):
        if type(node) is not cst.Assign:
            continue
        value = node.value
        while type(value) is cst.Call:
            value = value.func  # `slot.partition("-")`, `raw.strip().lower()`
        root = root_of(value)
        derived = type(root) is cst.Name and root.value in params
        for target in node.targets:
            for name in descendants(target.target):
                if type(name) is cst.Name:
                    assigned[name.value] = assigned.get(name.value, True) and derived
    return frozenset(params | {name for name, derived in assigned.items() if derived and name not in params})


def _parses(call: cst.Call, params: frozenset[str]) -> bool:
    """The call's first argument is one of the function's parameters (or an item of one)."""
    if not call.args:
        return False
    root = root_of(call.args[0].value)
    return type(root) is cst.Name and root.value in params


class FunctionLookup(Protocol):
    def __call__(self, qualname: str) -> tuple[ModuleSummary, FunctionSummary] | None: ...


class EscapeLinks:
    """What functions let escape, composed across the project's modules at link time."""

    def __init__(self, function: FunctionLookup) -> None:
        self.function = function
        self.memo: dict[tuple[str, frozenset[str]], frozenset[str]] = {}
        self.file_memo: dict[tuple[str, frozenset[str], bool], frozenset[str]] = {}

    def verdict(self, exits: tuple[Exit, ...], caught: frozenset[str]) -> str:
        """Whose text an exception of the classes `caught` leaving these exits carries: LIBRARY
        (some library's may), PARAMETER (a parser's, about what the caller passed), CARRIED (a
        library's only as the author's raises took it in), AUTHOR (only
        the author's own raises), or UNKNOWN (a call the project does not resolve)."""
        if caught and caught <= FILE_SYSTEM_ERRORS:
            found = self._file_kinds(exits, caught, 0, False)
            return next((kind for kind in (LIBRARY, PARAMETER, CARRIED, AUTHOR) if kind in found), UNKNOWN)
        kinds = self._kinds(exits, caught, 0)
        for kind in (LIBRARY, UNKNOWN, PARAMETER, CARRIED):
            if kind in kinds:
                return kind
        return AUTHOR

    def carries_beside_unknown(self, exits: tuple[Exit, ...], caught: frozenset[str]) -> bool:
        """Do these exits let out an exception of `caught` that one of the author's raises built
        from a caught library exception's text (CARRIED), where the rest is the author's own or
        calls the project cannot follow (UNKNOWN), and no library call nor parser is known to
        reach the clause? Whatever the unknown calls raise, the carried text reaches it."""
        kinds = self._kinds(exits, caught, 0)
        return CARRIED in kinds and UNKNOWN in kinds and not kinds & {LIBRARY, PARAMETER}

    def escapes(self, qual: str, caught: frozenset[str], depth: int) -> frozenset[str]:
        key = (qual, caught)
        if key in self.memo:
            return self.memo[key]
        found = self.function(qual) if depth <= _MAX_DEPTH else None
        if found is None or found[1].escapes is None:
            return frozenset({UNKNOWN})
        self.memo[key] = frozenset()  # recursion: a cycle adds nothing
        result = self.memo[key] = self._kinds(found[1].escapes, caught, depth + 1)
        return result

    def _file_kinds(self, exits: tuple[Exit, ...], caught: frozenset[str], depth: int, set_up: bool) -> frozenset[str]:
        """`_kinds` for file-system classes (`PermissionError`): only a call that reaches the file
        system (or a library known to raise the class) raises them, so a call nobody can follow
        adds nothing, and the author's raises decide. A call given no arguments (`get_policy()`)
        is set-up, the same for every call: the files it reads are no file the caller asked
        about, so its library calls are not counted (its own raises are)."""
        kinds: set[str] = set()
        for exit in exits:
            if exit.kind == CALL:
                if _caught_on_the_way(exit.guards, caught):
                    continue
                found = self._file_escapes(exit.callee, caught, depth, set_up, exit.given_nothing)
                if PARAMETER in found and not exit.passes_parameters:
                    found = (found - {PARAMETER}) | {LIBRARY}
                kinds |= found
            elif exit.kind in {LIBRARY, PARAMETER}:
                # `open(path)` of the caller's path is a library's file error all the same.
                raised = caught if "OSError" in exit.classes else caught & exit.classes
                if not set_up and any(not _stopped(exit.guards, _file_error_names(name)) for name in raised):
                    kinds.add(LIBRARY)
            elif exit.kind != UNKNOWN and caught & exit.classes and not _stopped(exit.guards, exit.classes):
                kinds.add(exit.kind)
        return frozenset(kinds)

    def _file_escapes(self, qual: str, caught: frozenset[str], depth: int, set_up: bool, given_nothing: bool) -> frozenset[str]:
        key = (qual, caught, set_up or given_nothing)
        if key in self.file_memo:
            return self.file_memo[key]
        found = self.function(qual) if depth <= _MAX_DEPTH else None
        if found is None or found[1].escapes is None:
            # No function of the project: a path's or a file's method (`target.unlink()`) may
            # raise the class; anything else nobody can follow adds nothing.
            return frozenset({LIBRARY}) if not set_up and qual.rpartition(".")[2] in _FILE_METHODS else frozenset()
        self.file_memo[key] = frozenset()  # recursion: a cycle adds nothing
        result = self.file_memo[key] = self._file_kinds(found[1].escapes, caught, depth + 1, set_up or given_nothing)
        return result

    def _kinds(self, exits: tuple[Exit, ...], caught: frozenset[str], depth: int) -> frozenset[str]:
        kinds: set[str] = set()
        for exit in exits:
            if exit.kind == CALL:
                if _caught_on_the_way(exit.guards, caught):
                    continue
                found = self.escapes(exit.callee, caught, depth)
                if PARAMETER in found and not exit.passes_parameters:
                    found = (found - {PARAMETER}) | {LIBRARY}
                kinds |= found
            elif exit.kind == UNKNOWN:
                if not _caught_on_the_way(exit.guards, caught):
                    kinds.add(UNKNOWN)
            else:
                if "*" in exit.classes:
                    # Any class: escapes as each caught class unless a guard stops that one. A
                    # library call the raise table does not list (`parse_qs(q)`, `dict(pairs)`)
                    # may raise the class or not: unknown, so the file's verdict stands.
                    if not all(_stopped(exit.guards, frozenset({name})) for name in caught):
                        kinds.add(UNKNOWN if exit.kind == LIBRARY else exit.kind)
                elif caught & exit.classes and not _stopped(exit.guards, exit.classes):
                    kinds.add(exit.kind)
        return frozenset(kinds)


_MAX_DEPTH = 12


def _file_error_names(name: str) -> frozenset[str]:
    """A file-system class and the bases a clause may catch it by."""
    return frozenset({name, "OSError", "IOError", "EnvironmentError", "Exception", "BaseException"})


def _stopped(guards: tuple[TryGuard, ...], names: frozenset[str]) -> bool:
    """Does one of `guards` keep an exception known by `names` (its class and bases) from going on?"""
    return any(catches(guard, names) for guard in guards)
