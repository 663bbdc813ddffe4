"""MCP010 sensitive-detail-in-message: a tool's failure text carries a secret or a detail of the
server's own infrastructure.

A declaration on the engine's taint trace (model/taint.py): this module says what is a source
(environment and secret-store reads, secret- and connection-named values, the server's own
paths, SQL the server stored, request headers, tracebacks), what sanitizes (numbers, names of
files, masking helpers, slices, the tool's own arguments) and which calls pass their inputs on
(string and path building); the engine follows the value through locals, f-strings, `.format`,
`%`, `+`, the module's constants and functions, closures and callers. Sinks are the failure
texts a function sends (what it raises, its failure returns). Names of other modules are
decided at link time by the engine (linking/pending.py) from the records this module keeps
(TaintExport, TaintArgument).
"""

from __future__ import annotations

import re
import weakref
from pathlib import PurePath
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Iterator, Mapping

import libcst as cst

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.flow import carried_parts
from mcp_lint.model.walk import descendants
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.names import dotted, identifier_words, last_name
from mcp_lint.model.summary import Latent
from mcp_lint.model.taint import (
    ARGUMENT,
    CLEAN,
    PASSES,
    VALUE,
    Carries,
    ModuleValues,
    Pending,
    Taint,
    TaintArgument,
    TaintExport,
    TaintRules,
    TaintTrace,
    TraceScope,
    Verdict,
    bound_arguments,
    first_found,
    module_values,
    statement_of,
)
from mcp_lint.findings import Location, Related
from mcp_lint.linking.pending import pending_names
from mcp_lint.rules.base import (
    Example,
    FileContext,
    LinkedProject,
    Reach,
    RenderContext,
    Rendered,
    Rule,
    related_here,
    span,
)
from mcp_lint.rules.exception_text import project_call
from mcp_lint.rules.failure_sinks import FailureSink, failure_sinks, reaches_model
from mcp_lint.rules.mcp010_payload import RecordSent, SensitiveText, sensitive_text
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

def _number(value: cst.BaseExpression) -> bool:
    """A number or flag written in the code (`MIN_PASSWORD = 8`, `TOKEN_TTL = -1`): a rule
    about a secret, never the secret itself, whatever the name says."""
    if type(value) is cst.UnaryOperation:
        value = value.expression
    return type(value) in (cst.Integer, cst.Float, cst.Imaginary) or (type(value) is cst.Name and value.value in {"True", "False", "None"})


# What a mapping's key looks like, unlike a URL or a path passed to an HTTP client's `get`.
_KEY = lazy_compile(r"[A-Za-z_][\w.-]*")
_CREDENTIALS_IN_URL = lazy_compile(r"\b[a-z][a-z0-9+.-]*://[^/\s:@{}]+:[^/\s@{}]+@", re.I)
_CONNECTION_SCHEME = lazy_compile(r"\b(?:postgres|postgresql|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqp|amqps|mssql|oracle)(?:\+\w+)?://", re.I)
_PLACEHOLDER_CREDENTIALS = lazy_compile(
    r"://(?:user(?:name)?|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|\*+|x+):(?:pass(?:word)?|pwd|secret|<[^>]*>|\{[^}]*\}|\[[^\]]*\]|\*+|x+)@", re.I
)
_SQL = lazy_compile(r"^\s*(?:select|insert|update|delete|with|create|drop|alter|merge|replace|upsert)\b[\s\S]*\b(?:from|into|set|table|where|values|index)\b", re.I)

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
        "joinpath", "replace", "strip", "lstrip", "rstrip", "lower", "upper", "title", "as_posix", "resolve",
        "absolute", "expanduser", "with_name", "with_suffix", "encode", "decode", "splitlines",
        # the entries of a directory: each one's path holds the directory's
        "iterdir", "glob", "rglob",
    }
)
# `os.environ.items()`, `.values()`: every variable of the server's environment.
_WHOLE_MAPPING = frozenset({"items", "values"})
# Results that keep nothing sensitive of their input: a number, a file's own name, a yes/no.
_SANITIZERS = frozenset(
    {"int", "float", "len", "bool", "hash", "id", "type", "isinstance", "os.path.basename", "os.path.exists", "os.path.isfile", "os.path.isdir", "os.path.relpath"}
)
_SANITIZING_WORDS = frozenset({"mask", "masked", "redact", "redacted", "sanitize", "sanitized", "obfuscate", "scrub", "censor", "hide", "anonymize", "truncate", "hash"})
_FILE_NAME_ATTRIBUTES = frozenset({"name", "stem", "suffix", "suffixes", "exists", "is_file", "is_dir", "st_size", "size"})
_SETTINGS_BASES = frozenset({"BaseSettings"})
# argparse's `parser.parse_args()`: a namespace of the operator's command-line options.
_COMMAND_LINE_PARSES = frozenset({"parse_args", "parse_known_args", "parse_intermixed_args"})
_CONFIGURED = "configured"  # Taint tag: a value of the server's configuration that is no secret


_SETTINGS = "settings"  # Pending kind: an object of the module's settings (its field is `what`; its TaintExport confirms)


@dataclass
class _Settings:
    """The module's pydantic settings classes (short names) and the module-level names bound
    to an instance of one."""

    classes: frozenset[str]
    objects: frozenset[str]


def _settings(ctx: FileContext, values: ModuleValues) -> _Settings:
    """The settings classes: the pydantic settings classes of the module, and the module's
    classes their fields are typed with (`incoming: MailServer`, `accounts: list[Account]`), the
    parts of the same configuration, to any depth."""
    classes: set[str] = set()
    defined = {statement.name.value: statement for statement in ctx.module.body if type(statement) is cst.ClassDef}
    for name, statement in defined.items():
        bases = {last_name(ctx.model.aliases.resolve(b.value) or dotted(b.value) or "") for b in statement.bases}
        if bases & _SETTINGS_BASES:
            classes.add(name)
    parts = list(classes)
    while parts:
        for member in defined[parts.pop()].body.body:
            if type(member) is not cst.SimpleStatementLine:
                continue
            for small in member.body:
                if type(small) is not cst.AnnAssign:
                    continue
                for node in descendants(small.annotation):
                    typed = node.value if type(node) is cst.Name else None
                    if typed in defined and typed not in classes:
                        classes.add(typed)
                        parts.append(typed)
    objects = {
        name
        for name, stored in values.constants.items()
        if any(type(v) is cst.Call and last_name(dotted(v.func) or "") in classes for v in stored)
    }
    return _Settings(frozenset(classes), frozenset(objects))


def _scope(ctx: FileContext) -> tuple[TraceScope, "_SensitiveSources"]:
    """The module's trace scope and MCP010's declaration for it (made once per file)."""
    known = ctx.memo.get("sensitive_scope")
    if isinstance(known, tuple):
        return known  # type: ignore[return-value]
    values = module_values(ctx.module)
    # Kept in the file's memo: a weak reference to the file, so no cycle holds the tree alive.
    file = weakref.ref(ctx)
    scope = TraceScope(
        ctx.model, values, lambda call: project_call(call, file()), lambda qual: _is_registered(qual, file())  # type: ignore[arg-type]
    )
    made = (scope, _SensitiveSources(_settings(ctx, values)))
    ctx.memo["sensitive_scope"] = made
    return made


def _tracer(fn: FunctionFacts | None, ctx: FileContext, **options: object) -> TaintTrace:
    scope, sources = _scope(ctx)
    return TaintTrace(sources, fn, scope, **options)  # type: ignore[arg-type]


class _SensitiveSources(TaintRules):
    """MCP010's declaration on the engine's taint trace: its sources (environment and
    secret-store reads, tracebacks, the server's own places, values and keys named like
    secrets, settings fields, request headers, connection strings and SQL the server stored),
    its sanitizers (numbers, file names, masking helpers, slices) and its propagators (string
    and path building)."""

    def __init__(self, settings: _Settings) -> None:
        self.settings = settings

    def literal(self, trace: TaintTrace, expr: cst.BaseExpression) -> Taint | None:
        """A connection string or credentials written in the code, SQL the server stored."""
        text = literal_text(expr)
        if not text:
            return None
        if _PLACEHOLDER_CREDENTIALS.search(text):
            return None  # a format example: `postgresql://user:password@host/db`
        if _CREDENTIALS_IN_URL.search(text):
            return Taint("a URL with credentials", expr)
        if _CONNECTION_SCHEME.search(text):
            return Taint("a connection string", expr)
        if _SQL.search(text):
            return Taint("the SQL text of the query", expr)
        return None

    def name(self, trace: TaintTrace, expr: cst.Name) -> Taint | None:
        if expr.value == "__file__":
            return Taint("a path of the server's own files", expr, tags=_TAGS_CONFIGURED)
        return None

    def named(self, trace: TaintTrace, expr: cst.Name, values: list[cst.BaseExpression] | None) -> Taint | None:
        named = sensitive_name(expr.value)
        if named is None:
            return None
        if values is None:
            # `from .config import API_TOKEN`: named so by the module that holds it.
            return Taint(f"{named} ('{expr.value}')", expr) if expr.value in trace.aliases.aliases else None
        if any(trace.given_from(v) or trace.words_only(v) or _number(v) for v in values):
            # What the function or its object was given (`for token in self.tokens` of a lexer
            # over the model's query), the author's words, a number: its flow says what it is.
            return None
        return Taint(f"{named} ('{expr.value}')", expr)

    def attribute(self, trace: TaintTrace, expr: cst.Attribute) -> Verdict:
        chain = dotted(expr) or ""
        attr = expr.attr.value
        parts = chain.split(".") if chain else []
        if attr == "headers" and ("request" in parts[:-1] or "request_context" in parts):
            return Taint("the request's headers", expr)
        resolved = trace.aliases.resolve(expr) if chain else None
        if resolved in _HERE:
            return Taint(_HERE[resolved], expr, tags=_TAGS_CONFIGURED)
        if resolved == "os.environ":
            return Taint("the server's environment", expr)
        if attr in _FILE_NAME_ATTRIBUTES:
            return CLEAN  # `path.name`: the file's own name, not where the server keeps it
        root = parts[0] if parts else ""
        if len(parts) == 2 and _infrastructure_name(attr):
            typed = self._typed_settings(trace, root, expr, f"a configuration value ('{chain}')")
            if typed is not None:
                return typed  # `server.host` of `server: MailServer`
        if root in trace.params and root not in {"self", "cls"}:
            return CLEAN  # an item of the tool's own arguments
        named = sensitive_name(attr)
        if root in {"self", "cls"} and len(parts) == 2 and trace.fn is not None and trace.fn.class_name:
            if named is not None and not _judged_by_flow(trace, attr):
                return Taint(f"{named} ('{chain}')", expr)
            # What the class stores there (`self.current_token = self.tokens[self.pos]`), by flow.
            return None
        if named is not None and root and root not in {"self", "cls"}:
            return Taint(f"{named} ('{chain or attr}')", expr)
        if _infrastructure_name(attr):
            if self._is_settings(trace, expr.value):
                return Taint(f"a configuration value ('{chain or attr}')", expr, tags=_TAGS_CONFIGURED)
            # `settings.data_dir` with `settings` imported: a settings object there?
            owner = trace.imported(expr.value, _SETTINGS, f"a configuration value ('{chain or attr}')", _TAGS_CONFIGURED)
            if owner is not None:
                return replace(owner, origin=expr)
        return None

    def subscript(self, trace: TaintTrace, expr: cst.Subscript, key: str | None) -> Verdict:
        element = expr.slice[0].slice if len(expr.slice) == 1 else None
        if type(element) is cst.Slice:
            return CLEAN  # `token[:4]`: a masked prefix
        if trace.aliases.resolve(expr.value) == "os.environ":
            return _env_taint(key, expr) if key and _sensitive_variable(key) else CLEAN
        if (dotted(expr.value) or "").split(".")[0] in trace.params:
            return CLEAN  # an item of the function's arguments (or of `self`)
        if type(expr.value) is cst.Attribute and expr.value.attr.value == "parts":
            return CLEAN  # `Path.cwd().parts[-1]`: one name of the path, like `.name`
        named = sensitive_name(key) if key is not None else None
        return Taint(f"{named} ('{key}')", expr) if named is not None else None

    def iterated(self, trace: TaintTrace, expr: cst.BaseExpression) -> Verdict:
        if trace.aliases.resolve(expr) == "os.environ":
            return CLEAN  # `for key in os.environ`: the variables' names, not their values
        return None

    def call(self, trace: TaintTrace, expr: cst.Call, resolved: str) -> Verdict:
        name = dotted(expr.func) or ""
        if resolved in _ENV_READS or _environment_read(trace, expr):
            key = trace.key_text(expr.args[0].value) if expr.args else None
            if not key or not _sensitive_variable(key):
                # `os.getenv("DEFAULT_MODEL", "small")`: its default is still the author's text.
                # A key the code computes (`os.environ.get(spec["env"])`) names nothing known.
                return Carries(skip=1)
            return _env_taint(key, expr)
        if resolved in _SECRET_STORES:
            return Taint("a secret from the keyring", expr)
        if resolved in _TRACEBACKS:
            return Taint("a traceback", expr)
        if resolved in _HERE:
            if resolved == "os.path.expanduser" and not (expr.args and (literal_text(expr.args[0].value) or "").startswith("~")):
                return CLEAN
            return Taint(_HERE[resolved], expr, tags=_TAGS_CONFIGURED)
        short = last_name(name)
        if resolved in _SANITIZERS or name in _SANITIZERS or any(w in _SANITIZING_WORDS for w in identifier_words(short)):
            return CLEAN
        if resolved in _CARRIERS or name in _CARRIERS:
            # Before the methods: `os.path.join(folder, name)` carries its arguments, not the
            # `os.path` module it is read from.
            return Carries()
        func = expr.func
        if type(func) is cst.Attribute and func.attr.value in _WHOLE_MAPPING and trace.aliases.resolve(func.value) == "os.environ":
            return Taint("the server's environment variables", expr)
        if type(func) is cst.Attribute and func.attr.value in _CARRYING_METHODS:
            return Carries(receiver=True)
        if type(func) is cst.Attribute and func.attr.value == "get" and expr.args:
            # `config.get("api_key")`: an item of a mapping, named by its key. A key is a name
            # (`"api_key"`, `"X-Api-Token"`); `client.get(f"{base}/auth/token")` fetches a URL,
            # whose last word says nothing about what comes back.
            key = literal_text(expr.args[0].value)
            named = sensitive_name(key) if key and _KEY.fullmatch(key) else None
            root = dotted(func.value) or ""
            if named is not None and root.split(".")[0] not in trace.params:
                return Taint(f"{named} ('{key}')", expr)
            return CLEAN
        return None

    def _typed_settings(self, trace: TaintTrace, name: str, expr: cst.Attribute, what: str) -> Taint | None:
        """A parameter of a helper annotated with a settings class (`server: MailServer | None`):
        of this module (a source), of another module of the project (pending on that module's
        settings classes). A tool's own parameter is the model's input, whatever its type."""
        fn = trace.fn
        if fn is None or name in {"self", "cls"} or trace.scope.is_registered(fn.qualname) or trace.rules.is_input(fn, name):
            return None
        params = fn.node.params
        annotation = next(
            (p.annotation for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.name.value == name and p.annotation is not None),
            None,
        )
        if annotation is None:
            return None
        own_package = trace.model.module.split(".")[0]
        for node in descendants(annotation.annotation):
            if type(node) not in (cst.Name, cst.Attribute):
                continue
            if type(node) is cst.Name and node.value in self.settings.classes:
                return Taint(what, expr, tags=_TAGS_CONFIGURED)
            typed = trace.aliases.resolve(node)
            if typed and typed.split(".")[0] == own_package and "." in typed:
                return Taint(what, expr, pending=Pending(typed, _SETTINGS), tags=_TAGS_CONFIGURED)
        return None

    def _is_settings(self, trace: TaintTrace, expr: cst.BaseExpression) -> bool:
        """An instance of one of the module's pydantic settings classes: `settings`, `Settings()`,
        `get_settings()` (annotated to return one), a parameter typed as one; or the server's
        parsed command line (`args = parser.parse_args()`): the operator's configuration."""
        classes = self.settings.classes
        fn = trace.fn
        if type(expr) is cst.Name and _parsed_command_line(fn, expr.value):
            return True
        if not classes:
            return False
        if type(expr) is cst.Name:
            if expr.value in self.settings.objects and (fn is None or expr.value not in fn.stores):
                return True
            typed = fn.local_types.get(expr.value) if fn is not None else None
            return typed is not None and last_name(typed) in classes
        if type(expr) is cst.Call:
            called = last_name(dotted(expr.func) or "")
            if called in classes:
                return True
            function = trace.model.functions.get(f"{trace.model.module}.{called}")
            return function is not None and last_name(function.returns_type or "") in classes
        return False


_TAGS_CONFIGURED = frozenset({_CONFIGURED})


def _judged_by_flow(trace: TaintTrace, attr: str) -> bool:
    """Is every value the class stores in `self.attr` one its flow says what it is: a number, a
    flag, None or "" (a start value), or built from what a method was given under names that are no
    secret's (`self.current_token = self.tokens[self.pos]`, the tokens of the text a lexer was
    given)? `self.token = token` keeps the name: it holds what the caller handed over as a
    token; a library's answer (`self.token = client.login()`) too: the trace cannot see it."""
    values = trace.class_values(attr)
    if not values:
        return False
    for store in values:
        if _number(store.value) or literal_text(store.value) == "":
            continue  # a number, a flag, None, an empty text: a start value
        given = trace.stored_given_from(store.value, store.params, attr)
        if not given or any(sensitive_name(name) is not None for name in given):
            return False
    return True


def _parsed_command_line(fn: FunctionFacts | None, name: str) -> bool:
    """A local holding the server's command-line options (`args = parser.parse_args()`)."""
    if fn is None:
        return False
    return any(
        type(store.value) is cst.Call and last_name(dotted(store.value.func) or "") in _COMMAND_LINE_PARSES
        for store in fn.stores.get(name, ())
    )


# Keyword arguments of an exception's constructor that hold its text; the others (`file_path=`,
# `task_ref=`) are attributes kept for the server's code, not in what `str(e)` reads.
_MESSAGE_KEYWORDS = frozenset(
    {"message", "msg", "detail", "details", "text", "error", "reason", "description", "content", "hint", "suggestion", "help"}
)


def _text_values(fn: FunctionFacts, sink: FailureSink, ctx: FileContext) -> tuple[cst.BaseExpression, ...]:
    """What of a sink is text the model reads: a return's value whole; of a raise, the arguments
    an exception class of the module hands to its base's `__init__` (its text: `str(e)`), else
    its positional arguments and message keywords."""
    if sink.message is not None or type(sink.statement) is not cst.Raise or sink.statement.exc is None:
        return sink.values
    built = fn.value_of(sink.statement.exc)
    if type(built) is not cst.Call:
        return sink.values
    cls = f"{ctx.model.module}.{dotted(built.func)}"
    init = ctx.model.functions.get(f"{cls}.__init__")
    # A class that writes its own `__str__` says what its text is there: read as before.
    texts = _text_parameters(init, ctx) if init is not None and f"{cls}.__str__" not in ctx.model.functions else None
    if init is not None and texts is not None:
        # `raise ApiError(code=..., message="Not found.", details={"url": url})` with
        # `super().__init__(message)`: the details are a record kept on the object, not its
        # text; a hint written as text (`hint=f"..."`) is for a reader all the same.
        return tuple(
            value
            for param, value in bound_arguments(init, built).items()
            if param in texts or (param in _MESSAGE_KEYWORDS and _written_text(value))
        )
    return tuple(a.value for a in built.args if a.keyword is None or a.keyword.value in _MESSAGE_KEYWORDS)


def _record_values(fn: FunctionFacts, sink: FailureSink, ctx: FileContext) -> tuple[tuple[str, cst.BaseExpression], ...]:
    """What a raise of an exception class of the module keeps in its record attributes, not its
    text (`raise PolicyError(code, "Not allowed.", {"roots": roots})` with `self.details =
    details`): (the attribute, the argument it holds)."""
    if sink.message is not None or type(sink.statement) is not cst.Raise or sink.statement.exc is None:
        return ()
    built = fn.value_of(sink.statement.exc)
    if type(built) is not cst.Call:
        return ()
    init = ctx.model.functions.get(f"{ctx.model.module}.{dotted(built.func)}.__init__")
    if init is None:
        return ()
    kept = _kept_parameters(init)
    return tuple((kept[param], value) for param, value in bound_arguments(init, built).items() if param in kept)


def _class_and_bases(sink: FailureSink, fn: FunctionFacts, ctx: FileContext) -> tuple[str, ...]:
    """The raised class's short name and its bases' (as the module writes them)."""
    built = fn.value_of(sink.statement.exc) if type(sink.statement) is cst.Raise and sink.statement.exc is not None else None
    name = dotted(built.func) if type(built) is cst.Call else None
    if not name:
        return ()
    bases = ctx.model.classes.get(f"{ctx.model.module}.{name}", ())
    return (last_name(name), *(last_name(base) for base in bases))


def _kept_parameters(init: FunctionFacts) -> dict[str, str]:
    """The parameters an `__init__` keeps whole in an attribute of its own (`self.details =
    details or {}`): parameter -> attribute."""
    kept: dict[str, str] = {}
    for node in descendants(init.node.body, into_scopes=False):
        if type(node) is not cst.Assign or len(node.targets) != 1:
            continue
        target = node.targets[0].target
        if not (type(target) is cst.Attribute and dotted(target.value) == "self"):
            continue
        value = node.value
        options = carried_parts(value) if type(value) is cst.BooleanOperation else (value,)
        for option in options or ():
            if type(option) is cst.Name and option.value in init.params and option.value not in {"self", "cls"}:
                kept[option.value] = target.attr.value
    return kept


def _records_sent(ctx: FileContext) -> Iterator[RecordSent]:
    """The attributes of caught exceptions the module's clauses send to the model: read
    (`exc.details`, `getattr(exc, "details", None)`) in what the clause returns or raises, or in
    a local that a return or raise of the clause reads; a log call's arguments do not count."""
    for fn in ctx.model.functions.values():
        for handler in fn.handlers:
            if not handler.name or not handler.caught:
                continue
            sent = _attributes_sent(handler.node.body, handler.name)
            for caught in handler.caught:
                for attr in sorted(sent):
                    yield RecordSent(last_name(caught), attr)


def _attributes_sent(body: cst.BaseSuite, name: str) -> set[str]:
    exits = [n for n in descendants(body, into_scopes=False) if type(n) in (cst.Return, cst.Raise)]
    read_by_exits = {n.value for e in exits for n in descendants(e) if type(n) is cst.Name}
    sources: list[cst.CSTNode] = list(exits)
    for node in descendants(body, into_scopes=False):
        if type(node) is cst.Assign and any(type(t.target) is cst.Name and t.target.value in read_by_exits for t in node.targets):
            sources.append(node.value)
    sent: set[str] = set()
    for source in sources:
        for node in descendants(source):
            if type(node) is cst.Call and _logs(node):
                continue
            if type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == name:
                sent.add(node.attr.value)
            elif type(node) is cst.Call and dotted(node.func) == "getattr" and len(node.args) >= 2:
                if type(node.args[0].value) is cst.Name and node.args[0].value.value == name:
                    attr = literal_text(node.args[1].value)
                    if attr:
                        sent.add(attr)
    return sent


def _logs(call: cst.Call) -> bool:
    parts = (dotted(call.func) or "").split(".")
    return parts[0] in {"logger", "logging", "log", "LOGGER", "print"} or parts[-1] in {"debug", "info", "warning", "exception"}


def _written_text(value: cst.BaseExpression) -> bool:
    """A value written as text: a string literal, an f-string, `+`/`%` of them, `str(...)`,
    `"...".format(...)`, `", ".join(...)`; not a dict or list of details."""
    if type(value) in (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString):
        return True
    if type(value) is cst.BinaryOperation and type(value.operator) in (cst.Add, cst.Modulo):
        return _written_text(value.left)
    if type(value) is cst.Call:
        func = value.func
        return dotted(func) == "str" or (type(func) is cst.Attribute and func.attr.value in {"format", "join"})
    return False


def _text_parameters(init: FunctionFacts, ctx: FileContext) -> frozenset[str] | None:
    """The parameters of an exception class's `__init__` that its `super().__init__(...)` call
    is built from (through its locals); None when it makes no such call (its text is unknown)."""
    for call in init.calls:
        func = call.node.func
        if (
            type(func) is cst.Attribute
            and func.attr.value == "__init__"
            and type(func.value) is cst.Call
            and dotted(func.value.func) == "super"
        ):
            trace = _tracer(init, ctx)
            return frozenset(name for argument in call.node.args for name in trace.given_from(argument.value))
    return None


def _environment_read(trace: TaintTrace, call: cst.Call) -> bool:
    """`env.get("SERVICE_URL")` where the local `env` holds the environment (`env = os.environ
    if env is None else env`: a factory that reads a mapping it may be given, the environment by
    default)."""
    func = call.func
    if not (type(func) is cst.Attribute and func.attr.value == "get" and type(func.value) is cst.Name and trace.fn is not None):
        return False
    for store in trace.fn.stores_reaching(func.value.value, trace.at):
        if any(trace.aliases.resolve(part) == "os.environ" for part in (store.value, *(carried_parts(store.value) or ()))):
            return True
    return False


def _env_taint(key: str, expr: cst.CSTNode) -> Taint:
    """An environment variable's value: configuration, unless named like a secret."""
    return Taint(f"environment variable '{key}'", expr, tags=_TAGS_CONFIGURED if sensitive_name(key) is None else frozenset())


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
        tracer = _tracer(fn, ctx, from_callers=True)
        for sink in sinks:
            statement, values, variant = sink.statement, _text_values(fn, sink, ctx), sink.channel
            tracer.at = statement
            # A helper's raise reaches the model with what its callers passed it; a helper's
            # returned text is followed from the caller that sends it (one finding per flow).
            tracer.from_callers = variant != "return"
            found = first_found(tracer.find(value) for value in values)
            record: tuple[str, tuple[str, ...]] = ("", ())
            if found is None:
                # Not in its text: in a record the exception keeps, which reaches the model where
                # a catching clause sends it on (decided at link time).
                for attr, value in _record_values(fn, sink, ctx):
                    found = tracer.find(value)
                    if found is not None:
                        record = (attr, _class_and_bases(sink, fn, ctx))
                        break
            if found is None:
                continue
            payload = replace(_payload(ctx, found), alternatives=tuple(_payload(ctx, other) for other in found.others))
            payload = replace(payload, record=record[0], record_classes=record[1])
            # A prefiltered run analyses the modules that define the names the leak waits on, or
            # that may call the function whose parameter holds the value.
            waits = [taint.pending for taint in (found, *found.others) if taint.pending is not None]
            pending = {
                "needs_names": tuple(wait.qualname for wait in waits if wait.kind != ARGUMENT),
                # A constructor's callers name its class.
                "needs_callers": tuple(wait.qualname.removesuffix(".__init__") for wait in waits if wait.kind == ARGUMENT),
            }
            if variant == "return":
                yield self.latent(ctx, statement, variant=variant, route="text", statement=statement, payload=payload, **pending)
            else:  # caught on the way, it still reaches the model where a clause sends its text on
                yield self.latent(
                    ctx, statement, variant=variant, route="raise", statement=statement, payload=payload, delivered_when_passed_on=True, **pending
                )

    def check_module(self, ctx: FileContext) -> Iterable[object]:
        """What other modules may read of this one (the engine's TaintExport records): its settings objects,
        classes and factories, the constants and what the functions return that carry a
        sensitive detail."""
        scope, sources = _scope(ctx)
        prefix = ctx.model.module
        classes = sources.settings.classes
        settings = sorted(classes | sources.settings.objects)
        settings += sorted(
            qual.removeprefix(prefix + ".")
            for qual, fn in ctx.model.functions.items()
            if classes and last_name(fn.returns_type or "") in classes
        )
        for name in settings:
            yield TaintExport(Pending(f"{prefix}.{name}", _SETTINGS))
        passed = ctx.memo.get(_PASSED_MEMO)
        for qual, places in (passed if isinstance(passed, dict) else {}).items():
            for place in places:
                yield TaintExport(Pending(qual, PASSES, parameter=place))
        constants = _tracer(None, ctx)
        for name, values in scope.values.constants.items():
            found = constants.first_of([(value, None) for value in values], name, 0, frozenset())
            if found is not None:
                yield _export(ctx, Pending(f"{prefix}.{name}", VALUE), found, "")
        yield from _records_sent(ctx)
        for qual, fn in ctx.model.functions.items():
            if fn.returns and not _is_registered(qual, ctx):
                found = _tracer(fn, ctx, words_at=1).returned(1)
                if found is not None:
                    yield _export(ctx, Pending(qual, VALUE), found, fn.name)
                    yield from _returned_items(fn, ctx, qual)
            yield from _sensitive_arguments(fn, ctx)
        yield from _module_level_arguments(ctx)

    def link_start(self, project: LinkedProject, reached: Mapping[str, Reach]) -> object:
        return frozenset(reached)  # the functions on the tools' way

    def link_latent(self, latent: Latent, function: str, reach: Reach, project: LinkedProject, state: object) -> Latent | None:
        if latent.variant == "passes-on":
            return latent
        if sensitive_text(latent).record:
            found = sensitive_text(latent)
            sent_in = next(
                (
                    summary.path
                    for summary, record in project.records(self.code)
                    if isinstance(record, RecordSent) and record.attr == found.record and record.caught in found.record_classes
                ),
                None,
            )
            if sent_in is None:
                return None  # no clause sends the record on: it stays on the server
            latent = replace(latent, payload=replace(found, record_sent_in=sent_in))
        if sensitive_text(latent).pending is None:
            return latent
        resolved = _first_resolved(sensitive_text(latent), project, state if isinstance(state, frozenset) else None)
        return replace(latent, payload=resolved) if resolved is not None else None

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        if latent.variant == "passes-on":
            return None  # a marker for the linker
        found = sensitive_text(latent)
        if found.pending is not None:
            resolved = _first_resolved(found, context.project, None)
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
        if found.record:
            channel = f"the `{found.record}` its exception keeps"  # sent on by a clause (a note names it)
        elif passed_on:
            channel = "an exception's text"  # caught on the way and sent on by a clause (a note names it)
        message = f"{context.subject} puts {found.what} into {channel}"
        via = _via_text(found.via)
        read = f"read at `{found.origin}`" + (f" in {found.caller}()" if found.caller else "")
        if found.origin_file:
            read += f" ({PurePath(found.origin_file).name})"  # another module of the project
        notes = [read + (f", then held in {via}" if via else "")]
        if found.record:
            where = f" ({PurePath(found.record_sent_in).name})" if found.record_sent_in else ""
            notes.append(f"kept in the exception's `{found.record}`, which a clause catching it sends to the model{where}")
        elif passed_on:
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


def _returned_items(fn: FunctionFacts, ctx: FileContext, qual: str) -> Iterator[TaintExport]:
    """The items of the dict literals `fn` returns that carry a sensitive detail, each on its own
    (a caller taking `config["api_url"]` takes that item, not the token beside it)."""
    tracer = _tracer(fn, ctx, words_at=1)
    for ret in fn.returns:
        value = fn.value_of(ret.node.value) if ret.node.value is not None else None
        if type(value) is not cst.Dict:
            continue
        tracer.at = ret.node
        for element in value.elements:
            key = literal_text(element.key) if type(element) is cst.DictElement else None
            found = tracer.find(element.value, 1, frozenset()) if key is not None else None
            if found is not None:
                yield _export(ctx, Pending(qual, VALUE, item=key), found, fn.name)


def _sensitive_arguments(fn: FunctionFacts, ctx: FileContext) -> Iterator[TaintArgument]:
    """The calls `fn` makes of the project's functions in other modules that pass a sensitive
    value (what each argument carries, read where the call is)."""
    tracer = _tracer(fn, ctx)
    for call in fn.calls:
        if not call.callee or call.callee in ctx.model.functions or not project_call(call.node, ctx):
            continue
        tracer.at = statement_of(call)
        yield from _arguments_passed(tracer, call.node, call.callee, fn.name, fn.qualname, ctx)


def _module_level_arguments(ctx: FileContext) -> Iterator[TaintArgument]:
    """The same for the calls the module makes as it is imported (`CLIENT =
    BoardClient(os.environ["BOARD_URL"])`): on every tool's way once the server imports it
    (caller ""), except under `if __name__ == "__main__":`, a script's way in."""
    tracer = _tracer(None, ctx)
    for statement in ctx.module.body:
        if type(statement) in (cst.FunctionDef, cst.ClassDef) or _runs_as_script(statement):
            continue
        for node in descendants(statement, into_scopes=False):
            if type(node) is not cst.Call or not project_call(node, ctx):
                continue
            named = dotted(node.func) or ""
            callee = ctx.model.aliases.resolve_dotted(named) if named else None
            if not callee or callee.startswith(ctx.model.module + ".") or f"{ctx.model.module}.{named}" in ctx.model.functions:
                continue  # the module's own functions: the trace reads their callers itself
            yield from _arguments_passed(tracer, node, callee, "", "", ctx)


def _runs_as_script(statement: cst.CSTNode) -> bool:
    return type(statement) is cst.If and "__main__" in {literal_text(n) for n in descendants(statement.test) if type(n) is cst.SimpleString}


def _arguments_passed(tracer: TaintTrace, call: cst.Call, callee: str, function: str, caller: str, ctx: FileContext) -> Iterator[TaintArgument]:
    """A record for each argument of `call` (of `callee`, another module's function) that carries a
    sensitive value; `caller` "" for a call made as the module is imported."""
    position = 0
    for argument in call.args:
        if argument.star:
            break
        keyword = argument.keyword.value if argument.keyword is not None else ""
        found = tracer.find(argument.value, 1, frozenset())
        if found is not None and (found.pending is None or found.pending.kind != ARGUMENT):
            yield TaintArgument(
                callee,
                -1 if keyword else position,
                keyword,
                type(call.func) is cst.Attribute,
                *_carried(ctx, found, function),
                caller,
            )
        if not keyword:
            position += 1


def _export(ctx: FileContext, key: Pending, found: Taint, function: str) -> TaintExport:
    return TaintExport(key, *_carried(ctx, found, function))


def _carried(
    ctx: FileContext, found: Taint, function: str
) -> tuple[str, str, str, tuple[str, ...], str, Pending | None, frozenset[str]]:
    """The fields TaintExport and TaintArgument share, in their order: what the value carries,
    the code reading it and where, the names it went through, the function, what it still waits
    on, the rule's tags."""
    return (
        found.what,
        clip(" ".join(ctx.code(found.origin).split()), 60),
        span(ctx, found.origin),
        found.via,
        function,
        found.pending,
        found.tags,
    )


def _is_registered(qual: str, ctx: FileContext) -> bool:
    """A tool handler (registered here, or on a server of another module)."""
    return any(reg.function == qual for reg in ctx.model.tools) or any(entry[0] == qual for entry in ctx.model.pending)


def _payload(ctx: FileContext, found: Taint) -> SensitiveText:
    return SensitiveText(
        what=found.what,
        origin=clip(" ".join(ctx.code(found.origin).split()), 60),
        origin_at=span(ctx, found.origin),
        # The locals in the order the value passed through them, from the read to the message.
        via=tuple(reversed(found.via)),
        caller=found.caller,
        configured=_CONFIGURED in found.tags,
        # Decided at link time by the module that defines the name (its records).
        pending=found.pending,
    )


def _first_resolved(found: SensitiveText, project: LinkedProject | None, reached: frozenset[str] | None) -> SensitiveText | None:
    """The first of the pending leaks whose name of another module carries something."""
    candidates = (_resolve_pending(candidate, project, reached) for candidate in (found, *found.alternatives))
    return next((candidate for candidate in candidates if candidate is not None), None)


def _resolve_pending(found: SensitiveText, project: LinkedProject | None, reached: frozenset[str] | None = None) -> SensitiveText | None:
    """The latent with what leaks from the module that defines the name it reads (`pending`,
    decided by the engine over the rule's records), and where it is read there; None when that
    name carries nothing sensitive (or is not the project's)."""
    if project is None or found.pending is None:
        return None
    tags = _TAGS_CONFIGURED if found.configured else frozenset()
    read = pending_names(project, SensitiveDetailInMessage.code).decide(found.pending, found.what, found.via, tags, reached)
    if read is None:
        return None
    resolved = replace(found, what=read.what, via=read.via, configured=_CONFIGURED in read.tags, pending=None, alternatives=())
    if read.origin_file:  # read in another module
        resolved = replace(resolved, origin=read.origin, origin_at=read.origin_at, origin_file=read.origin_file, caller=read.function)
    return resolved


def _via_text(names: tuple[str, ...]) -> str:
    """The locals a value went through, in the order it went (a name passed on under the same
    name, as a closure's variable or a helper's parameter, once)."""
    return ", ".join(f"`{step}`" for at, step in enumerate(names) if at == 0 or names[at - 1] != step)
