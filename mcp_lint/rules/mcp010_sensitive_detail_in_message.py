"""MCP010 sensitive-detail-in-message: a tool's failure text carries a secret or a detail of the
server's own infrastructure.

Sources are declared below (environment and secret-store reads, secret- and connection-named
values, the server's own paths, SQL the server wrote, request headers, tracebacks); sinks are
the failure texts a function sends (what it raises, its failure returns); the tool's own
arguments, names of files (`path.name`), numbers (`int(...)`, `len(...)`), slices and masking
helpers carry nothing sensitive. A value is followed through locals (the stores that reach the
read, on the function's control-flow graph: the engine's value flow), module constants, `self.`
attributes set in the class, f-strings, `.format`, `%`, `+`, path building, the functions of the
module (what they return, their parameters bound to the call's arguments), the parameters of a
helper that raises (what the module's callers pass there) and the project's message builders in
other modules (their arguments).
"""

from __future__ import annotations

import re
import weakref
from pathlib import PurePath
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Iterator

import libcst as cst

from mcp_lint.model.facts import CallFact, FunctionFacts
from mcp_lint.model.flow import Store, unpacked_element
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.names import dotted, identifier_words, last_name
from mcp_lint.model.summary import Latent
from mcp_lint.model.walk import descendants
from mcp_lint.findings import Location, Related
from mcp_lint.rules.base import (
    Example,
    FileContext,
    LinkedProject,
    RenderContext,
    Rendered,
    Rule,
    related_here,
    span,
)
from mcp_lint.rules.exception_text import project_call
from mcp_lint.rules.failure_sinks import FailureSink, failure_sinks, reaches_model
from mcp_lint.rules.mcp010_payload import SensitiveText, sensitive_text
from mcp_lint.rules.text import clip
from mcp_lint.vocabulary import is_status_tool

# -- what is sensitive, by name ---------------------------------------------------------------

# A name ending in one of these words holds a secret (`api_token`, `DB_PASSWORD`, `sentry_dsn`).
_SECRET_WORDS = frozenset(
    {"token", "secret", "password", "passwd", "pwd", "passphrase", "credential", "credentials", "apikey", "dsn", "cookie"}
)
# ... and `<qualifier>_key` does (`api_key`, `private_key`), unlike a dict's `key` or `cache_key`.
_KEY_QUALIFIERS = frozenset({"api", "secret", "private", "access", "auth", "signing", "encryption", "master", "client", "service"})
# Words before "token" that make it a handle the model uses or a count, not a credential
# (`next_page_token`, `max_tokens` is plural anyway, `token_count` ends otherwise).
_HANDLE_WORDS = frozenset({"page", "next", "continuation", "cursor", "sync", "pagination", "resume", "max", "num", "count", "total"})
# A name ending in url/uri/string/str after one of these holds a connection string.
_STORE_WORDS = frozenset(
    {"database", "db", "mongo", "mongodb", "redis", "postgres", "postgresql", "pg", "mysql", "sql", "conn", "connection", "amqp", "broker", "rabbitmq"}
)
_CONNECTION_ENDINGS = frozenset({"url", "uri", "string", "str", "dsn"})
# A configuration value named like one of these is infrastructure (`settings.db_path`,
# `config.base_url`); other settings (`max_results`) tell the model nothing about the server.
_INFRA_WORDS = frozenset(
    {"url", "uri", "host", "hostname", "endpoint", "path", "dir", "directory", "root", "folder", "file", "server", "address", "addr", "bucket", "database", "db"}
)


@lru_cache(maxsize=4096)
@lru_cache(maxsize=4096)
def sensitive_name(name: str) -> str | None:
    """"a secret" / "a connection string" when a variable, attribute or key named `name` holds one."""
    words = identifier_words(name)
    if not words:
        return None
    last = words[-1]
    if last in _CONNECTION_ENDINGS and any(w in _STORE_WORDS for w in words[:-1]):
        return "a connection string"
    if last in _SECRET_WORDS and not any(w in _HANDLE_WORDS for w in words[:-1]):
        return "a connection string" if last == "dsn" else "a secret"
    if last == "key" and len(words) >= 2 and words[-2] in _KEY_QUALIFIERS:
        return "a secret"
    return None


def _infrastructure_name(name: str) -> bool:
    return any(w in _INFRA_WORDS for w in identifier_words(name)) or sensitive_name(name) is not None


# Environment variables that hold who the server acts as (`SERVICE_USER`, `ADMIN_EMAIL`).
_IDENTITY_WORDS = frozenset({"user", "username", "email", "account", "login", "tenant"})


def _sensitive_variable(name: str) -> bool:
    """An environment variable whose value says where the server lives, what it talks to or who
    it is: its name has a secret, connection, place or identity word (`DATABASE_URL`, `API_KEY`,
    `DATA_DIR`, `SMTP_HOST`, `SERVICE_USER`). `DEFAULT_MODEL`, `LOG_LEVEL`, `MAX_RESULTS` tell
    the model nothing about the server."""
    words = identifier_words(name)
    return _infrastructure_name(name) or any(w in _IDENTITY_WORDS or w == "key" for w in words)


# -- what is sensitive, by value ----------------------------------------------------------------

_CREDENTIALS_IN_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^/\s:@{}]+:[^/\s@{}]+@", re.I)
_CONNECTION_SCHEME = re.compile(r"\b(?:postgres|postgresql|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqp|amqps|mssql|oracle)(?:\+\w+)?://", re.I)
_PLACEHOLDER_CREDENTIALS = re.compile(
    r"://(?:user(?:name)?|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|\*+|x+):(?:pass(?:word)?|pwd|secret|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|\*+|x+)@", re.I
)
_SQL = re.compile(r"^\s*(?:select|insert|update|delete|with|create|drop|alter|merge|replace|upsert)\b[\s\S]*\b(?:from|into|set|table|where|values|index)\b", re.I)

_ENV_READS = frozenset({"os.getenv", "os.environ.get", "os.environ.setdefault", "os.environ.pop", "dotenv.get_key"})
_SECRET_STORES = frozenset({"keyring.get_password", "keyring.get_credential"})
_TRACEBACKS = frozenset(
    {"traceback.format_exc", "traceback.format_exception", "traceback.format_tb", "traceback.format_stack", "traceback.extract_tb", "traceback.extract_stack"}
)
# What a message says leaks; the note that says where it was read shows the call.
_HERE = {
    "os.getcwd": "the server's working directory",
    "os.getcwdb": "the server's working directory",
    "pathlib.Path.cwd": "the server's working directory",
    "pathlib.Path.home": "the server's home directory",
    "os.path.expanduser": "the server's home directory",
    "sys.executable": "the server's interpreter path",
    "sys.prefix": "the server's installation path",
}
# Calls whose result carries their arguments' text (and, for methods, their receiver's).
_CARRIERS = frozenset(
    {
        "str", "repr", "format", "ascii", "os.path.join", "os.path.abspath", "os.path.realpath", "os.path.dirname",
        "os.path.normpath", "os.fspath", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "json.dumps", "dict",
        "list", "tuple", "pprint.pformat",
    }
)
_CARRYING_METHODS = frozenset(
    {
        "format", "join", "joinpath", "replace", "strip", "lstrip", "rstrip", "lower", "upper", "title", "as_posix",
        "resolve", "absolute", "expanduser", "with_name", "with_suffix", "encode", "decode", "splitlines", "format_map",
    }
)
# Results that keep nothing sensitive of their input: a number, a file's own name, a yes/no.
_SANITIZERS = frozenset(
    {"int", "float", "len", "bool", "hash", "id", "type", "isinstance", "os.path.basename", "os.path.exists", "os.path.isfile", "os.path.isdir", "os.path.relpath"}
)
_SANITIZING_WORDS = frozenset({"mask", "masked", "redact", "redacted", "sanitize", "sanitized", "obfuscate", "scrub", "censor", "hide", "anonymize", "truncate", "hash"})
_FILE_NAME_ATTRIBUTES = frozenset({"name", "stem", "suffix", "suffixes", "exists", "is_file", "is_dir", "st_size", "size"})
_SETTINGS_BASES = frozenset({"BaseSettings"})
# argparse's `parser.parse_args()`: a namespace of the operator's command-line options.
_COMMAND_LINE_PARSES = frozenset({"parse_args", "parse_known_args", "parse_intermixed_args"})
_MAX_DEPTH = 6


@dataclass(frozen=True)
class Leak:
    what: str  # "environment variable 'DB_URL'"
    origin: cst.CSTNode  # where it enters (read for its code and place)
    via: tuple[str, ...] = ()  # the variables it went through on its way to the message
    caller: str = ""  # the function of the module that passed it to the checked one, if any
    # A name of another module whose value this module cannot see (`from .config import DATA_DIR`,
    # `describe()` imported): the qualified name, and what it must be there ("value": something
    # sensitive; "settings": a settings object, `what` then says which field). Decided at link
    # time from that module's records (SensitiveExport); a pending leak yields to a found one.
    needs: str = ""
    needs_kind: str = ""
    # A value of the server's configuration that is no secret (a configured URL, host or path,
    # an environment variable not named like a secret): the answer of a status report.
    configured: bool = False
    # Other pending leaks of the same value, tried in order when this one's name turns out to
    # carry nothing (`os.path.join(DATA_DIR, folder)`: the imported constant, then the argument).
    others: tuple["Leak", ...] = ()

    def through(self, name: str, caller: str = "") -> "Leak":
        """The leak as read through the local, parameter or call `name` (and, for a parameter,
        in the caller `caller`), its other pending leaks too."""
        return replace(
            self,
            via=(name, *self.via),
            caller=caller or self.caller,
            others=tuple(other.through(name, caller) for other in self.others),
        )


@dataclass(frozen=True)
class SensitiveArgument:
    """A record of the module (picklable): a call of a function of another module of the project
    that passes it a sensitive value, for that function's raises that put the parameter into
    their text (`fail(settings.db_url)` with `def fail(target): raise ToolError(f"{target} ...")`)."""

    callee: str  # as the call names it, qualified (CallFact.callee)
    position: int  # -1 when passed by keyword
    keyword: str
    via_attribute: bool  # `obj.fail(...)`: the callee's `self` is not among the arguments
    what: str
    origin: str
    origin_at: str
    via: tuple[str, ...]
    function: str  # the calling function
    configured: bool = False
    needs: str = ""  # Leak.needs: the value is a name of yet another module
    needs_kind: str = ""


def _first_found(found: Iterable[Leak | None]) -> Leak | None:
    """The first leak found, or, when every one is pending on another module, the first of those
    with the others kept (tried in turn at link time)."""
    pending: list[Leak] = []
    for leak in found:
        if leak is None:
            continue
        if not leak.needs:
            return leak
        pending.extend((replace(leak, others=()), *leak.others))
    if not pending:
        return None
    return replace(pending[0], others=tuple(pending[1:]))


@dataclass(frozen=True)
class SensitiveExport:
    """A record of the module (Rule.check_module, picklable): a module-level name whose value
    carries a sensitive detail (a constant, what a function returns: kind "value"), or a settings
    object, class or factory (kind "settings"), for the modules that import it."""

    name: str  # qualified: "pkg.config.DATA_DIR", "pkg.errors.describe"
    kind: str
    what: str = ""  # "" when the value comes from yet another module (`needs`)
    origin: str = ""  # the code that reads it
    origin_at: str = ""  # where (base.span)
    via: tuple[str, ...] = ()
    function: str = ""  # the function returning it, "" for a constant
    needs: str = ""
    needs_kind: str = ""
    configured: bool = False  # Leak.configured


@dataclass
class _ModuleFacts:
    constants: dict[str, list[cst.BaseExpression]]  # module-level `NAME = value`
    attributes: dict[str, list[cst.BaseExpression]]  # "Class.attr" -> values of `self.attr = value`
    settings_classes: frozenset[str]  # short names of the module's pydantic settings classes
    settings_objects: frozenset[str]  # module-level names bound to an instance of one


def _module_facts(ctx: FileContext) -> _ModuleFacts:
    known = ctx.memo.get("sensitive_module_facts")
    if isinstance(known, _ModuleFacts):
        return known
    constants: dict[str, list[cst.BaseExpression]] = {}
    attributes: dict[str, list[cst.BaseExpression]] = {}
    settings: set[str] = set()
    for statement in ctx.module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                for name, value in _assigned(small):
                    constants.setdefault(name, []).append(value)
        elif isinstance(statement, cst.ClassDef):
            bases = {last_name(ctx.model.aliases.resolve(b.value) or dotted(b.value) or "") for b in statement.bases}
            if bases & _SETTINGS_BASES:
                settings.add(statement.name.value)
            for node in descendants(statement.body):
                if isinstance(node, (cst.Assign, cst.AnnAssign)):
                    targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                    for target in targets:
                        if isinstance(target, cst.Attribute) and dotted(target.value) == "self" and node.value is not None:
                            attributes.setdefault(f"{statement.name.value}.{target.attr.value}", []).append(node.value)
    objects = {
        name
        for name, values in constants.items()
        if any(isinstance(v, cst.Call) and last_name(dotted(v.func) or "") in settings for v in values)
    }
    facts = _ModuleFacts(constants, attributes, frozenset(settings), frozenset(objects))
    ctx.memo["sensitive_module_facts"] = facts
    return facts


def _assigned(small: cst.CSTNode) -> Iterator[tuple[str, cst.BaseExpression]]:
    if isinstance(small, cst.Assign):
        for target in small.targets:
            if isinstance(target.target, cst.Name):
                yield target.target.value, small.value
    elif isinstance(small, cst.AnnAssign) and small.value is not None and isinstance(small.target, cst.Name):
        yield small.target.value, small.value
    elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name):
        yield small.target.value, small.value


# What a parameter of a helper holds at one of its calls: the caller's argument, read by the
# caller's tracer (`describe(os.environ["DB_URL"])` binds `conn_str` of `def describe(conn_str)`).
_Bound = tuple["_Tracer", cst.BaseExpression]


class _Tracer:
    """Finds a sensitive value in what an expression is built from.

    The sources, carriers and sanitizers are the tables above; how a value moves is the engine's:
    a local read at a statement is followed into the stores of it that reach that statement
    (reaching definitions, `FunctionFacts.stores_reaching`), a call of a function of this module into
    what that function returns, its parameters bound to the call's arguments, and a parameter of
    the checked function into what the module's callers pass there (one level up)."""

    def __init__(
        self,
        fn: FunctionFacts | None,
        ctx: FileContext,
        module: _ModuleFacts,
        bindings: dict[str, _Bound] | None = None,
        *,
        words_at: int = 0,
        active: frozenset[str] = frozenset(),
        from_callers: bool = False,
    ) -> None:
        self.fn = fn
        self.ctx = ctx
        self.module = module
        # The model's arguments; the framework's request context (`ctx: Context`) is the server's.
        self.params = frozenset(p for p in fn.params if not _is_context(p, fn)) if fn is not None else frozenset()
        self.aliases = ctx.model.aliases
        self.at: cst.CSTNode | None = None  # the statement the expression being traced is read in
        self.bindings = bindings or {}
        # Literals traced at this depth are the message's own words (a format example), deeper
        # ones values the server stored.
        self.words_at = words_at
        self.active = active | ({fn.qualname} if fn is not None else frozenset())
        self.from_callers = from_callers

    def _assigned(self, name: str) -> list[tuple[cst.BaseExpression, cst.CSTNode | None]] | None:
        """The values stored in local `name` that a read of it at `self.at` may see, each with
        the statement that stored it; None when the function stores nothing there."""
        if self.fn is None:
            return None
        stores = self.fn.stores_reaching(name, self.at)
        return [(_held_value(store), store.statement) for store in stores] or None

    def find(self, expr: cst.CSTNode, depth: int = 0, seen: frozenset[str] = frozenset()) -> Leak | None:
        if depth > _MAX_DEPTH:
            return None
        kind = type(expr)
        if kind is cst.SimpleString:
            # The message's own words are the author's (a format example); a stored literal is
            # a value the server uses.
            return self._literal(expr, True) if depth > self.words_at else None
        if kind is cst.ConcatenatedString:
            # `"No token at " f"'{path}'"`: the literal as a whole, then the values of its parts.
            found = self._literal(expr, True) if depth > self.words_at else None
            return found or self._first((expr.left, expr.right), depth, seen)
        if kind is cst.FormattedString:
            if depth > self.words_at:
                found = self._literal(expr, True)
                if found is not None:
                    return found
            return self._first(
                (part.expression for part in expr.parts if isinstance(part, cst.FormattedStringExpression)), depth, seen
            )
        if kind is cst.Await:
            return self.find(expr.expression, depth, seen)
        if kind is cst.BinaryOperation:
            if depth > self.words_at and isinstance(expr.operator, (cst.Add, cst.Modulo)):
                found = self._literal(expr, True)
                if found is not None:
                    return found
            return self._first((expr.left, expr.right), depth, seen)
        if kind is cst.BooleanOperation:
            return self._first((expr.left, expr.right), depth, seen)
        if kind is cst.IfExp:
            return self._first((expr.body, expr.orelse), depth, seen)
        if kind in (cst.List, cst.Tuple, cst.Set):
            return self._first((el.value for el in expr.elements), depth, seen)
        if kind is cst.Dict:
            return self._first((el.value for el in expr.elements if isinstance(el, (cst.DictElement, cst.StarredDictElement))), depth, seen)
        if kind is cst.Name:
            return self._name(expr, depth, seen)
        if kind is cst.Attribute:
            return self._attribute(expr, depth, seen)
        if kind is cst.Subscript:
            return self._subscript(expr, depth, seen)
        if kind is cst.Call:
            return self._call(expr, depth, seen)
        return None  # comparisons, `not`, lambdas, numbers: nothing of a value is carried

    def _first(self, nodes: Iterable[cst.CSTNode], depth: int, seen: frozenset[str]) -> Leak | None:
        return _first_found(self.find(node, depth, seen) for node in nodes)

    def _literal(self, expr: cst.BaseExpression, stored: bool) -> Leak | None:
        """A connection string or credentials written in the code; SQL only where it was stored
        in a variable (the query the server ran), not in the message's own words."""
        text = literal_text(expr)
        if not text:
            return None
        if _PLACEHOLDER_CREDENTIALS.search(text):
            return None  # a format example: `postgresql://user:password@host/db`
        if _CREDENTIALS_IN_URL.search(text):
            return Leak("a URL with credentials", expr)
        if _CONNECTION_SCHEME.search(text):
            return Leak("a connection string", expr)
        if stored and _SQL.search(text):
            return Leak("the SQL text of the query", expr)
        return None

    def _name(self, expr: cst.Name, depth: int, seen: frozenset[str]) -> Leak | None:
        name = expr.value
        if name == "__file__":
            return Leak("a path of the server's own files", expr, configured=True)
        if name in {"self", "cls"} or name in seen:
            return None
        values = self._assigned(name)
        if name in self.params:
            if values is not None:
                # `if base_dir is None: base_dir = os.getcwd()`: what the function puts there itself.
                found = self._first_of(values, name, depth, seen)
                if found is not None:
                    return found
            return self._parameter(name, depth, seen, expr)
        scope = self
        if values is None:
            enclosing = self._enclosing_holder(name)
            if enclosing is not None:
                # A free variable of a nested function (`call_tool` reading `serve`'s parameter):
                # what the enclosing function holds there, or what its callers pass.
                found = enclosing._name(expr, depth + 1, seen)
                return found.through(name) if found is not None and name not in found.via else found
            constants = self.module.constants.get(name)
            values = [(value, None) for value in constants] if constants is not None else None
            scope = _Tracer(None, self.ctx, self.module) if self.fn is not None else self
        if values is None:
            named = sensitive_name(name)
            if named is not None and name in self.aliases.aliases:
                return Leak(f"{named} ('{name}')", expr)  # `from .config import API_TOKEN`
            return self._imported(expr)  # `from .config import DATA_DIR`: decided there
        found = scope._first_of(values, name, depth, seen)
        if found is not None and not found.needs:
            return found
        named = sensitive_name(name)
        if named is not None and not any(scope._reads_parameter(v) or scope._words_only(v) for v, _ in values):
            return Leak(f"{named} ('{name}')", expr)
        return found

    def _enclosing_holder(self, name: str) -> _Tracer | None:
        """The tracer of the innermost enclosing function that binds `name` (a parameter or a
        local), for a nested function reading it as a free variable; None when none does."""
        if self.fn is None:
            return None
        qualname = self.fn.qualname
        while "." in qualname:
            qualname = qualname.rsplit(".", 1)[0]
            outer = self.ctx.model.functions.get(qualname)
            if outer is None:
                return None  # a class or the module: not a function's scope
            if name in outer.params or name in outer.stores:
                return _Tracer(outer, self.ctx, self.module, active=self.active, from_callers=True)
        return None

    def _imported(self, expr: cst.BaseExpression, kind: str = "value", what: str = "") -> Leak | None:
        """A pending leak on the name of another module `expr` reads (`DATA_DIR` imported,
        `describe(...)`, `settings` of `settings.data_dir`), None when it reads none."""
        target = expr.func if isinstance(expr, cst.Call) else expr
        if not isinstance(target, (cst.Name, cst.Attribute)):
            return None
        root = (dotted(target) or "").split(".")[0]
        if root not in self.aliases.aliases or root in self.params or root in {"self", "cls"}:
            return None
        if self.fn is not None and root in self.fn.stores:
            return None  # a local of the same name
        qualified = self.aliases.resolve(target)
        return Leak(what, expr, needs=qualified, needs_kind=kind, configured=kind == "settings") if qualified else None

    def _words_only(self, value: cst.BaseExpression, depth: int = 0) -> bool:
        """A collection of the author's literals, directly or through a local or constant
        (`for token in ["{op}", "{path}"]`): a loop variable over it holds words of the code,
        whatever it is called."""
        if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
            return bool(value.elements) and all(literal_text(e.value) is not None for e in value.elements)
        if isinstance(value, cst.Name) and depth < 2:
            stored = self._assigned(value.value) or [(v, None) for v in self.module.constants.get(value.value, [])]
            return bool(stored) and all(self._words_only(v, depth + 1) for v, _ in stored)
        return False

    def _first_of(self, values: list[tuple[cst.BaseExpression, cst.CSTNode | None]], name: str, depth: int, seen: frozenset[str]) -> Leak | None:
        outer = self.at
        pending: list[Leak] = []
        try:
            for value, statement in values:
                self.at = statement  # the value is read where it was stored
                found = self.find(value, depth + 1, seen | {name})
                if found is not None and not found.needs:
                    return found.through(name)
                if found is not None:
                    pending.append(found.through(name))
        finally:
            self.at = outer
        return _first_found(pending)

    def _parameter(self, name: str, depth: int, seen: frozenset[str], expr: cst.CSTNode | None = None) -> Leak | None:
        """A parameter: what the call being followed passed there, or, for the checked function
        itself, what the module's callers pass; the model's arguments (a tool's) carry nothing."""
        bound = self.bindings.get(name)
        if bound is not None:
            tracer, argument = bound
            found = tracer.find(argument, depth + 1, frozenset())
            return found.through(name) if found is not None else None
        if not self.from_callers or self.fn is None or _is_registered(self.fn.qualname, self.ctx):
            # A tool's parameter holds the model's argument, whoever else calls it as a function.
            return None
        found_pending: list[Leak] = []
        for caller, call in _callers(self.fn, self.ctx):
            argument = _argument_for(self.fn, call.node, name)
            if argument is None:
                continue
            tracer = _Tracer(caller, self.ctx, self.module, active=self.active)
            tracer.at = _statement_of(caller, call)
            found = tracer.find(argument, depth + 1, frozenset())
            if found is not None and not found.needs:
                return found.through(name, caller.name)
            if found is not None:
                found_pending.append(found.through(name, caller.name))
        pending = _first_found(found_pending)
        if pending is None and expr is not None:
            # What callers in other modules pass there: their records (SensitiveArgument).
            pending = Leak("", expr, via=(name,), needs=f"{self.fn.qualname}#{name}", needs_kind="argument")
        return pending

    def _reads_parameter(self, value: cst.CSTNode) -> bool:
        return any(isinstance(n, cst.Name) and n.value in self.params - {"self", "cls"} for n in descendants(value))

    def _attribute(self, expr: cst.Attribute, depth: int, seen: frozenset[str]) -> Leak | None:
        chain = dotted(expr) or ""
        attr = expr.attr.value
        parts = chain.split(".") if chain else []
        if attr == "headers" and ("request" in parts[:-1] or "request_context" in parts):
            return Leak("the request's headers", expr)
        resolved = self.aliases.resolve(expr) if chain else None
        if resolved in _HERE:
            return Leak(_HERE[resolved], expr, configured=True)
        if resolved == "os.environ":
            return Leak("the server's environment", expr)
        if attr in _FILE_NAME_ATTRIBUTES:
            return None  # `path.name`: the file's own name, not where the server keeps it
        root = parts[0] if parts else ""
        if root in self.params and root not in {"self", "cls"}:
            return None  # an item of the tool's own arguments
        if root in {"self", "cls"} and len(parts) == 2 and self.fn is not None and self.fn.class_name:
            key = f"{self.fn.class_name.rsplit('.', 1)[-1]}.{attr}"
            named = sensitive_name(attr)
            if named is not None:
                return Leak(f"{named} ('{chain}')", expr)
            for value in self.module.attributes.get(key, ()):
                found = _Tracer(None, self.ctx, self.module).find(value, depth + 1, seen | {chain})
                if found is not None:
                    return found.through(chain)
            return None
        named = sensitive_name(attr)
        if named is not None and root and root not in {"self", "cls"}:
            return Leak(f"{named} ('{chain or attr}')", expr)
        if _infrastructure_name(attr):
            if self._is_settings(expr.value):
                return Leak(f"a configuration value ('{chain or attr}')", expr, configured=True)
            # `settings.data_dir` with `settings` imported: a settings object there?
            owner = self._imported(expr.value, "settings", f"a configuration value ('{chain or attr}')")
            if owner is not None:
                return replace(owner, origin=expr)
        if root in self.aliases.aliases:
            found = self._imported(expr)  # `config.DATA_DIR` of `from pkg import config`
            if found is not None:
                return found
        return self.find(expr.value, depth, seen)

    def _is_settings(self, expr: cst.BaseExpression) -> bool:
        """An instance of one of the module's pydantic settings classes: `settings`, `Settings()`,
        `get_settings()` (annotated to return one), a parameter typed as one."""
        classes = self.module.settings_classes
        if isinstance(expr, cst.Name) and self._parsed_command_line(expr.value):
            return True
        if not classes:
            return False
        if isinstance(expr, cst.Name):
            if expr.value in self.module.settings_objects and (self.fn is None or expr.value not in self.fn.stores):
                return True
            typed = self.fn.local_types.get(expr.value) if self.fn is not None else None
            return typed is not None and last_name(typed) in classes
        if isinstance(expr, cst.Call):
            called = last_name(dotted(expr.func) or "")
            if called in classes:
                return True
            function = self.ctx.model.functions.get(f"{self.ctx.model.module}.{called}")
            return function is not None and last_name(function.returns_type or "") in classes
        return False

    def _parsed_command_line(self, name: str) -> bool:
        """A local holding the server's command-line options (`args = parser.parse_args()`): the
        operator's configuration, like a settings object."""
        if self.fn is None:
            return False
        return any(
            isinstance(store.value, cst.Call) and last_name(dotted(store.value.func) or "") in _COMMAND_LINE_PARSES
            for store in self.fn.stores.get(name, ())
        )

    def _subscript(self, expr: cst.Subscript, depth: int, seen: frozenset[str]) -> Leak | None:
        element = expr.slice[0].slice if len(expr.slice) == 1 else None
        if isinstance(element, cst.Slice):
            return None  # `token[:4]`: a masked prefix
        key = self._key_text(element.value) if isinstance(element, cst.Index) else None
        if self.aliases.resolve(expr.value) == "os.environ":
            return _env_leak(key, expr) if key and _sensitive_variable(key) else None
        root = dotted(expr.value) or ""
        if root.split(".")[0] in self.params:
            return None
        if key is not None:
            named = sensitive_name(key)
            if named is not None:
                return Leak(f"{named} ('{key}')", expr)
        found = self.find(expr.value, depth, seen)
        if found is not None and found.needs_kind == "value" and key is not None and literal_text(element.value) is not None:
            # `get_config()["api_url"]`: that item of what the other module's function returns.
            return replace(found, needs=_item(found.needs, key))
        return found

    def _key_text(self, key: cst.BaseExpression) -> str | None:
        """A key as written (`"DB_URL"`), or the text of the module constant that names it
        (`_URL_ENV = "TRACKER_URL"`; `os.environ.get(_URL_ENV)`)."""
        text = literal_text(key)
        if text is None and isinstance(key, cst.Name):
            bound = self.bindings.get(key.value)
            if bound is not None:
                return bound[0]._key_text(bound[1])  # `def setting(name): return os.environ[name]`
            values = self.module.constants.get(key.value, [])
            text = literal_text(values[0]) if len(values) == 1 else None
        return text

    def _call(self, expr: cst.Call, depth: int, seen: frozenset[str]) -> Leak | None:
        func = expr.func
        name = dotted(func) or ""
        resolved = self.aliases.resolve(func) or name
        if resolved in _ENV_READS:
            key = self._key_text(expr.args[0].value) if expr.args else None
            if not key or not _sensitive_variable(key):
                # `os.getenv("DEFAULT_MODEL", "small")`: its default is still the author's text.
                # A key the code computes (`os.environ.get(spec["env"])`) names nothing known.
                return self._first([a.value for a in expr.args[1:]], depth, seen)
            return _env_leak(key, expr)
        if resolved in _SECRET_STORES:
            return Leak("a secret from the keyring", expr)
        if resolved in _TRACEBACKS:
            return Leak("a traceback", expr)
        if resolved in _HERE:
            if resolved == "os.path.expanduser" and not (expr.args and (literal_text(expr.args[0].value) or "").startswith("~")):
                return None
            return Leak(_HERE[resolved], expr, configured=True)
        short = last_name(name)
        if resolved in _SANITIZERS or name in _SANITIZERS or any(w in _SANITIZING_WORDS for w in identifier_words(short)):
            return None
        arguments = [a.value for a in expr.args]
        if resolved in _CARRIERS or name in _CARRIERS:
            # Before the methods: `os.path.join(folder, name)` carries its arguments, not the
            # `os.path` module it is read from.
            return self._first(arguments, depth, seen)
        if isinstance(func, cst.Attribute) and func.attr.value in _CARRYING_METHODS:
            return self._first((func.value, *arguments), depth, seen)
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and expr.args:
            # `config.get("api_key")`: an item of a mapping, named by its key
            key = literal_text(expr.args[0].value)
            named = sensitive_name(key) if key else None
            root = dotted(func.value) or ""
            if named is not None and root.split(".")[0] not in self.params:
                return Leak(f"{named} ('{key}')", expr)
            return None
        if project_call(expr, self.ctx) and short not in {"self", "cls"} and not _held_object_call(name):
            callee = self._module_function(expr)
            if callee is not None:
                return self._returned_by(callee, expr, depth)
            # The project's message builders in other modules (`error_text(f"... {DB_URL}")`)
            # pass their text on; what they return themselves is decided in their module.
            return _first_found((self._passed_through(expr, depth, seen), self._imported(expr)))
        if isinstance(func, cst.Name):
            return self._imported(expr)  # `from server import describe` (a module of the project?)
        return None

    def _passed_through(self, call: cst.Call, depth: int, seen: frozenset[str]) -> Leak | None:
        """A sensitive argument of a call of another module's function, pending on that function
        returning what it is given at that place (its module's "passes" records: a message
        builder does, `resolve_default(accounts_file)` returning a name read from the file does not)."""
        function = self.aliases.resolve(call.func)
        if function is None and self.fn is not None:
            function = next((c.callee for c in self.fn.calls if c.node is call), None)
        if not function:
            return None
        position = 0
        for argument in call.args:
            if argument.star:
                return None
            place = argument.keyword.value if argument.keyword is not None else str(position)
            if argument.keyword is None:
                position += 1
            found = self.find(argument.value, depth, seen)
            if found is not None and not found.needs:
                return replace(found, needs=f"{function}#{place}", needs_kind="passes")
        return None

    def _module_function(self, call: cst.Call) -> FunctionFacts | None:
        """The function of this module a call of the traced function runs (its resolved callee)."""
        if self.fn is None:
            return None
        fact = next((c for c in self.fn.calls if c.node is call), None)
        return self.ctx.model.functions.get(fact.callee) if fact is not None and fact.callee else None

    def _returned_by(self, callee: FunctionFacts, call: cst.Call, depth: int) -> Leak | None:
        """What a function of this module returns for this call: its returned values, traced with
        its parameters bound to the call's arguments (a helper that masks its parameter, or is
        handed the tool's own argument, returns nothing sensitive)."""
        if callee.qualname in self.active or depth >= _MAX_DEPTH:
            return None
        bindings = {param: (self, argument) for param, argument in _bound_arguments(callee, call).items()}
        inner = _Tracer(callee, self.ctx, self.module, bindings, words_at=depth + 1, active=self.active)
        found = _returned_leak(inner, callee, depth + 1)
        return found.through(f"{callee.name}()") if found is not None else None


# Keyword arguments of an exception's constructor that hold its text; the others (`file_path=`,
# `task_ref=`) are attributes kept for the server's code, not in what `str(e)` reads.
_MESSAGE_KEYWORDS = frozenset(
    {"message", "msg", "detail", "details", "text", "error", "reason", "description", "content", "hint", "suggestion", "help"}
)


def _text_values(fn: FunctionFacts, sink: FailureSink) -> tuple[cst.BaseExpression, ...]:
    """What of a sink is text the model reads: a return's value whole, a raise's positional
    arguments and its message keywords."""
    if sink.message is not None or not isinstance(sink.statement, cst.Raise) or sink.statement.exc is None:
        return sink.values
    built = fn.value_of(sink.statement.exc)
    if not isinstance(built, cst.Call):
        return sink.values
    return tuple(a.value for a in built.args if a.keyword is None or a.keyword.value in _MESSAGE_KEYWORDS)


def _held_value(store: Store) -> cst.BaseExpression:
    """What a store puts into its local: the value, or for an unpacked local (`token, name =
    upload(path)`) the matching element of a literal, else the local's own target (judged by its
    name: which element of a call's result it holds is not known here)."""
    if store.position is None:
        return store.value
    element = unpacked_element(store)
    if element is not None:
        return element
    statement = store.statement
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        target = statement.targets[0].target
        if isinstance(target, (cst.Tuple, cst.List)) and store.position < len(target.elements):
            return target.elements[store.position].value
    return store.value


def _returned_leak(tracer: _Tracer, fn: FunctionFacts, depth: int) -> Leak | None:
    """What `fn` returns that carries a sensitive detail (its returns read by `tracer`)."""

    def each() -> Iterator[Leak | None]:
        for ret in fn.returns:
            if ret.node.value is not None:
                tracer.at = ret.node
                yield tracer.find(ret.node.value, depth, frozenset())

    return _first_found(each())


def _is_context(param: str, fn: FunctionFacts) -> bool:
    """The framework's request context (`ctx`, `context`, a parameter typed `Context`): what the
    server put in it (its lifespan objects, its request) is not the model's argument."""
    typed = fn.local_types.get(param, "")
    return param in {"ctx", "context"} or last_name(typed).endswith("Context")


def _held_object_call(name: str) -> bool:
    """`self._http.request(...)`: a method of an object the instance holds (a client), whose
    result is its answer, not a text built from the arguments (`self.describe(...)` is the
    project's own method)."""
    parts = name.split(".")
    return len(parts) > 2 and parts[0] in {"self", "cls"}


def _bound_arguments(callee: FunctionFacts, call: cst.Call) -> dict[str, cst.BaseExpression]:
    """The callee's parameters the call passes a value to (positional, then by keyword); a
    method's self/cls is not passed."""
    params = [p for p in callee.params if p not in {"self", "cls"}] if callee.class_name else list(callee.params)
    out: dict[str, cst.BaseExpression] = {}
    position = 0
    for argument in call.args:
        if argument.star:
            break  # `*args`: which parameters it fills is not known
        if argument.keyword is not None:
            out[argument.keyword.value] = argument.value
        elif position < len(params):
            out[params[position]] = argument.value
            position += 1
    return out


def _argument_for(callee: FunctionFacts, call: cst.Call, param: str) -> cst.BaseExpression | None:
    return _bound_arguments(callee, call).get(param)


def _callers(fn: FunctionFacts, ctx: FileContext) -> list[tuple[FunctionFacts, CallFact]]:
    """The calls of `fn` in the functions of this module (resolved callee), with their caller."""
    by_callee = ctx.memo.get("sensitive_callers")
    if not isinstance(by_callee, dict):
        by_callee = {}
        for caller in ctx.model.functions.values():
            for call in caller.calls:
                if call.callee:
                    by_callee.setdefault(call.callee, []).append((caller, call))
        ctx.memo["sensitive_callers"] = by_callee
    return by_callee.get(fn.qualname, [])


def _statement_of(fn: FunctionFacts, call: CallFact) -> cst.CSTNode | None:
    """The small statement of a call's line (where its arguments are read), for reaching stores."""
    statement = call.statement
    if isinstance(statement, cst.SimpleStatementLine):
        for small in statement.body:
            if small is call.node or any(node is call.node for node in descendants(small)):
                return small
    return statement


def _env_leak(key: str, expr: cst.CSTNode) -> Leak:
    """An environment variable's value: configuration, unless named like a secret."""
    return Leak(_env_label(key), expr, configured=sensitive_name(key) is None)


def _env_label(key: str | None) -> str:
    return f"environment variable '{key}'" if key else "a value from the environment"


# -- the rule -----------------------------------------------------------------------------------


class SensitiveDetailInMessage(Rule):
    code = "MCP010"
    name = "sensitive-detail-in-message"

    INVALID = (
        Example(
            """\
import os

import psycopg
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("orders")
DATABASE_URL = os.environ["DATABASE_URL"]

@mcp.tool
def get_order(order_id: int) -> dict:
    try:
        with psycopg.connect(DATABASE_URL) as conn:
            return conn.execute("SELECT * FROM orders WHERE id = %s", (order_id,)).fetchone()
    except psycopg.OperationalError:
        raise ToolError(f"Could not connect to {DATABASE_URL}")
""",
            flagged=(16,),
        ),
    )
    VALID = (
        Example(
            """\
import logging
import os

import psycopg
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)
mcp = FastMCP("orders")
DATABASE_URL = os.environ["DATABASE_URL"]

@mcp.tool
def get_order(order_id: int) -> dict:
    try:
        with psycopg.connect(DATABASE_URL) as conn:
            return conn.execute("SELECT * FROM orders WHERE id = %s", (order_id,)).fetchone()
    except psycopg.OperationalError:
        logger.exception("orders database unreachable")
        raise ToolError(f"The orders database is unreachable, so order {order_id} could not be read; try again in a minute")
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        # A secret sent on in a protocol error's message leaks to the client just as well.
        yield from self.passing_on_markers(fn, ctx, protocol_errors=True)
        _note_passed_parameters(fn, ctx)
        sinks = list(failure_sinks(fn, ctx))
        if not sinks:
            return
        tracer = _Tracer(fn, ctx, _module_facts(ctx), from_callers=True)
        for sink in sinks:
            statement, values, variant = sink.statement, _text_values(fn, sink), sink.channel
            tracer.at = statement
            # A helper's raise reaches the model with what its callers passed it; a helper's
            # returned text is followed from the caller that sends it (one finding per flow).
            tracer.from_callers = variant != "return"
            found = _first_found(tracer.find(value) for value in values)
            if found is None:
                continue
            payload = replace(_payload(ctx, found), alternatives=tuple(_payload(ctx, other) for other in found.others))
            # A prefiltered run analyses the modules that define the names the leak waits on, or
            # that may call the function whose parameter holds the value.
            leaks = (found, *found.others)
            pending = {
                "needs_names": tuple(leak.needs for leak in leaks if leak.needs and leak.needs_kind != "argument"),
                "needs_callers": tuple(leak.needs.partition("#")[0] for leak in leaks if leak.needs_kind == "argument"),
            }
            if variant == "return":
                yield self.latent(ctx, statement, variant=variant, route="text", statement=statement, payload=payload, **pending)
            else:  # caught on the way, it still reaches the model where a clause sends its text on
                yield self.latent(
                    ctx, statement, variant=variant, route="raise", statement=statement, payload=payload, delivered_when_passed_on=True, **pending
                )

    def check_module(self, ctx: FileContext) -> Iterable[object]:
        """What other modules may read of this one (SensitiveExport): its settings objects,
        classes and factories, the constants and what the functions return that carry a
        sensitive detail."""
        module = _module_facts(ctx)
        prefix = ctx.model.module
        settings = sorted(module.settings_classes | module.settings_objects)
        settings += sorted(
            qual.removeprefix(prefix + ".")
            for qual, fn in ctx.model.functions.items()
            if module.settings_classes and last_name(fn.returns_type or "") in module.settings_classes
        )
        for name in settings:
            yield SensitiveExport(f"{prefix}.{name}", "settings")
        passed = ctx.memo.get(_PASSED_MEMO)
        for qual, places in (passed if isinstance(passed, dict) else {}).items():
            for place in places:
                yield SensitiveExport(f"{qual}#{place}", "passes")
        constants = _Tracer(None, ctx, module)
        for name, values in module.constants.items():
            found = constants._first_of([(value, None) for value in values], name, 0, frozenset())
            if found is not None:
                yield _export(ctx, f"{prefix}.{name}", found, "")
        for qual, fn in ctx.model.functions.items():
            if fn.returns and not _is_registered(qual, ctx):
                found = _returned_leak(_Tracer(fn, ctx, module, words_at=1), fn, 1)
                if found is not None:
                    yield _export(ctx, qual, found, fn.name)
                    yield from _returned_items(fn, ctx, module, qual)
            yield from _sensitive_arguments(fn, ctx, module)

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        if latent.variant == "passes-on":
            return None  # a marker for the linker
        found = sensitive_text(latent)
        if found.needs:
            # The first of the pending leaks whose name of another module carries something.
            candidates = (_resolve_pending(candidate, context.project) for candidate in (found, *found.alternatives))
            resolved = next((candidate for candidate in candidates if candidate is not None), None)
            if resolved is None:
                return None  # the names of the other modules carry nothing sensitive
            found = resolved
        if found.configured and _reports_status(context):
            return None  # the configuration is the answer of a status report (a secret never is)
        passed_on = latent.passed_on
        if not reaches_model(latent.variant, context):
            return None  # the framework masks this exception's text: the model never reads it
        channel = {
            "raise": "its error message",
            "raise-protocol": "a protocol error's message",
            "raise-other": "an exception's text",
            "return": "a failure it returns",
        }[latent.variant]
        if passed_on:
            channel = "an exception's text"  # caught on the way and sent on by a clause (a note names it)
        message = f"{context.subject} puts {found.what} into {channel}"
        via = _via_text(found.via)
        read = f"read at `{found.origin}`" + (f" in {found.caller}()" if found.caller else "")
        if found.origin_file:
            read += f" ({PurePath(found.origin_file).name})"  # another module of the project
        notes = [read + (f", then held in {via}" if via else "")]
        if passed_on:
            notes.append(f"caught and sent on to the model: {passed_on}")
        elif latent.variant == "raise-other":
            notes.append(f"{context.framework.describe_exception_text_release()} forwards an unexpected exception's text to the model")
        elif latent.variant == "raise-protocol":
            notes.append("a protocol error's message is sent to the client as written")
        elif latent.variant == "return":
            notes.append("the model reads the returned text as the tool's answer")
        else:
            notes.append("the model reads a ToolError's text verbatim")
        notes.append("whoever reads the transcript sees the value too")
        return Rendered(message, help=_HELP, notes=tuple(notes), related=self._read_at(latent, found))

    @staticmethod
    def _read_at(latent: Latent, found: SensitiveText) -> tuple[Related, ...]:
        """Where the value is read, unless in the flagged statement itself."""
        where = found.origin_at
        elsewhere = found.origin_file
        if elsewhere:
            row, column, end_row, end_column = (int(part) for part in where.split(":"))
            return (Related(elsewhere, Location(row, column), Location(end_row, end_column), "the value is read here"),)
        if not where or latent.rows[0] <= int(where.split(":")[0]) <= latent.rows[1]:
            return ()
        read = related_here(where, "the value is read here")
        return (read,) if read is not None else ()


_HELP = "Log the value on the server; say which operation failed without it"


def _reports_status(context: RenderContext) -> bool:
    """Is the tool a status report (`health`, `get_status`, `check_connection`), or is the helper
    reached only from tools that are? A helper's own name does not count: `validate_path`
    checks an argument, it does not report the server's configuration."""
    tools = context.tools or ((context.function,) if context.is_tool else ())
    return bool(tools) and all(is_status_tool(tool) for tool in tools)


_PASSED_MEMO = "sensitive_passed_parameters"


def _note_passed_parameters(fn: FunctionFacts, ctx: FileContext) -> None:
    """Which parameters of `fn` its returns carry (the engine's value flow: through locals,
    f-strings, calls), by position (a method's self not counted) and by name, kept for the
    module's records: a caller in another module passing a secret there gets it back."""
    flow = fn.value_flow
    if flow is None or not fn.returns:
        return
    params = [p for p in fn.params if p not in {"self", "cls"}]
    carried: set[str] = set()
    for ret in fn.returns:
        if ret.node.value is not None:
            _, _, read = flow.follow(ret.node.value, at=ret.node)
            # Read whole (`f"{target} did not answer"`), not a part a call derives from it
            # (`load_accounts(path)[0]["name"]` returns what the file holds, not the path).
            carried.update(name for name, mode in read.items() if name in params and mode is None)
    if carried:
        memo = ctx.memo.setdefault(_PASSED_MEMO, {})
        memo[fn.qualname] = tuple(sorted({*carried, *(str(params.index(name)) for name in carried)}))


def _item(name: str, key: str) -> str:
    """The name of an item of a function's returned dict, as the records name it."""
    return f"{name}[{key}]"


def _returned_items(fn: FunctionFacts, ctx: FileContext, module: _ModuleFacts, qual: str) -> Iterator[SensitiveExport]:
    """The items of the dict literals `fn` returns that carry a sensitive detail, each on its own
    (a caller taking `config["api_url"]` takes that item, not the token beside it)."""
    tracer = _Tracer(fn, ctx, module, words_at=1)
    for ret in fn.returns:
        value = fn.value_of(ret.node.value) if ret.node.value is not None else None
        if not isinstance(value, cst.Dict):
            continue
        tracer.at = ret.node
        for element in value.elements:
            key = literal_text(element.key) if isinstance(element, cst.DictElement) else None
            found = tracer.find(element.value, 1, frozenset()) if key is not None else None
            if found is not None:
                yield _export(ctx, _item(qual, key), found, fn.name)


def _sensitive_arguments(fn: FunctionFacts, ctx: FileContext, module: _ModuleFacts) -> Iterator[SensitiveArgument]:
    """The calls `fn` makes of the project's functions in other modules that pass a sensitive
    value (what each argument carries, read where the call is)."""
    tracer = _Tracer(fn, ctx, module)
    for call in fn.calls:
        if not call.callee or call.callee in ctx.model.functions or not project_call(call.node, ctx):
            continue
        tracer.at = _statement_of(fn, call)
        position = 0
        for argument in call.node.args:
            if argument.star:
                break
            keyword = argument.keyword.value if argument.keyword is not None else ""
            found = tracer.find(argument.value, 1, frozenset())
            if found is not None and found.needs_kind != "argument":
                yield SensitiveArgument(
                    call.callee,
                    -1 if keyword else position,
                    keyword,
                    isinstance(call.node.func, cst.Attribute),
                    found.what,
                    clip(" ".join(ctx.code(found.origin).split()), 60),
                    span(ctx, found.origin),
                    found.via,
                    fn.name,
                    found.configured,
                    found.needs,
                    found.needs_kind,
                )
            if not keyword:
                position += 1


def _passed_to(project: LinkedProject, needed: str) -> tuple[str, SensitiveArgument] | None:
    """A call in another module that passes a sensitive value to the parameter `needed`
    ("pkg.mod.fail#target")."""
    qualname, _, param = needed.rpartition("#")
    target = project.function(qualname)
    if target is None:
        return None
    params = target[1].params
    for summary, record in project.records(SensitiveDetailInMessage.code):
        if not isinstance(record, SensitiveArgument):
            continue
        called = project.function(record.callee)
        if called is None or called[1].qualname != target[1].qualname:
            continue
        skip = 1 if params and params[0] in {"self", "cls"} and (record.via_attribute or target[1].name != "__init__") else 0
        if record.keyword == param or (record.position >= 0 and record.position + skip < len(params) and params[record.position + skip] == param):
            return summary.path, record
    return None


def _export(ctx: FileContext, name: str, found: Leak, function: str) -> SensitiveExport:
    return SensitiveExport(
        name,
        "value",
        found.what,
        clip(" ".join(ctx.code(found.origin).split()), 60),
        span(ctx, found.origin),
        found.via,
        function,
        found.needs,
        found.needs_kind,
        found.configured,
    )


def _is_registered(qual: str, ctx: FileContext) -> bool:
    """A tool handler (registered here, or on a server of another module)."""
    return any(reg.function == qual for reg in ctx.model.tools) or any(entry[0] == qual for entry in ctx.model.pending)


# The linked project's exports, by qualified name (built once per project).
_EXPORTS: "weakref.WeakKeyDictionary[object, dict[str, tuple[str, SensitiveExport]]]" = weakref.WeakKeyDictionary()
_MAX_HOPS = 4  # a name re-read from module to module


def _exports(project: LinkedProject) -> dict[str, tuple[str, SensitiveExport]]:
    known = _EXPORTS.get(project)
    if known is None:
        known = {}
        for summary, record in project.records(SensitiveDetailInMessage.code):
            if isinstance(record, SensitiveExport):
                known.setdefault(record.name, (summary.path, record))
        _EXPORTS[project] = known
    return known


def _payload(ctx: FileContext, found: Leak) -> SensitiveText:
    return SensitiveText(
        what=found.what,
        origin=clip(" ".join(ctx.code(found.origin).split()), 60),
        origin_at=span(ctx, found.origin),
        # The locals in the order the value passed through them, from the read to the message.
        via=tuple(reversed(found.via)),
        caller=found.caller,
        configured=found.configured,
        # Decided at link time by the module that defines the name (its records).
        needs=found.needs,
        needs_kind=found.needs_kind,
    )


def _resolve_pending(found: SensitiveText, project: LinkedProject | None) -> SensitiveText | None:
    """The latent with what leaks from the module that defines the name it reads (`needs`),
    and where it is read there; None when that name carries nothing sensitive (or is not the
    project's). A value may be read on from module to module (`_MAX_HOPS`): a constant built
    from another module's constant, an argument that is a settings field of a third module."""
    if project is None:
        return None
    exports = _exports(project)
    name, kind, what = found.needs, found.needs_kind, found.what
    via: tuple[str, ...] = found.via
    # Where the value is read, as the last hop found it (the latent's own read to start with).
    read = found
    configured = found.configured
    for _ in range(_MAX_HOPS):
        # The next hop: an argument a caller passes, or a name another module exports.
        if kind == "argument":
            step = _passed_to(project, name)
            if step is None:
                return None
        else:
            function, mark, rest = name.partition("#") if kind == "passes" else name.partition("[")
            step = exports.get(project.resolve(function) + mark + rest)
            if step is None or step[1].kind != kind:
                return None
            if kind in {"settings", "passes"}:
                break  # the value was read where the previous hop read it (a field, an argument)
        path, hop = step
        via = (*reversed(hop.via), *via)  # a record keeps its locals message-first
        read = replace(read, origin=hop.origin, origin_at=hop.origin_at, origin_file=path, caller=hop.function)
        configured = hop.configured
        if not hop.needs:
            what = hop.what
            break
        name, kind, what = hop.needs, hop.needs_kind, hop.what
    else:
        return None
    return replace(read, what=what, via=via, configured=configured, needs="", needs_kind="", alternatives=())


def _via_text(names: tuple[str, ...]) -> str:
    """The locals a value went through, in the order it went (a name passed on under the same
    name, as a closure's variable or a helper's parameter, once)."""
    return ", ".join(f"`{step}`" for at, step in enumerate(names) if at == 0 or names[at - 1] != step)
