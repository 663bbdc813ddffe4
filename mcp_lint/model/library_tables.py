"""What the linter knows of library code it never sees: which builtin exception classes are narrow,
broad or from the outside world, which parsers describe their input, and which asyncio calls pass
an awaitable's value through. (Which calls and methods are harmless is a class of the failure
vocabulary, `mcp_lint.vocabulary`.)

Plain data, kept apart from the code that reads it (exception_origin, function_body) so a new
library entry is a one-line change that touches no logic.
"""

from __future__ import annotations

import re

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.vocabulary import INPUT_PARSER_NAME

# Exception classes whose text is the author's own when the try body only raises literals, and
# harmless builtin parsing errors otherwise (see the raw-exception-text rule's page).
NARROW_BUILTIN_ERRORS = frozenset(
    {
        "ValueError",
        "TypeError",
        "KeyError",
        "IndexError",
        "LookupError",
        "AttributeError",
        "AssertionError",
        "ZeroDivisionError",
        "ArithmeticError",
        "NotImplementedError",
        "StopIteration",
        "UnicodeDecodeError",
        "UnicodeEncodeError",
        "RuntimeError",
    }
)
BROAD_ERRORS = frozenset({"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"})
# Builtin exceptions that come from the outside world (I/O, network, OS).
FOREIGN_BUILTIN_ERRORS = frozenset(
    {
        "OSError",
        "IOError",
        "EnvironmentError",
        "FileNotFoundError",
        "FileExistsError",
        "PermissionError",
        "IsADirectoryError",
        "NotADirectoryError",
        "ConnectionError",
        "ConnectionRefusedError",
        "ConnectionResetError",
        "ConnectionAbortedError",
        "BrokenPipeError",
        "TimeoutError",
        "InterruptedError",
        "BlockingIOError",
        "ChildProcessError",
        "ProcessLookupError",
    }
)


# The file-system classes a project also raises for its own refusals (`raise PermissionError(
# f"namespace {ns!r} is not allowed by policy")`, `raise FileNotFoundError(f"no report {name!r}")`):
# their text is the author's where only the project's own raises reach the clause, and a
# library's where a file-system call in the `try` may raise them (model/escapes.py). The broad
# `OSError` and the network classes (a client library raises those too) stay foreign.
FILE_SYSTEM_ERRORS = frozenset({"PermissionError", "FileNotFoundError", "FileExistsError", "IsADirectoryError", "NotADirectoryError"})
# Modules whose functions touch the file system or start processes (the `OSError`s above come
# from them): `os.remove`, `shutil.copy`, `subprocess.run`, `tempfile.mkstemp`.
FILE_SYSTEM_MODULES = frozenset({"os", "shutil", "subprocess", "pathlib", "tempfile", "glob", "io", "zipfile", "tarfile", "aiofiles", "fcntl", "mmap"})

# The receiver's last name ends like a client (`client`, `self.http`, `db`), not `client_config`.
CLIENT_LIKE = lazy_compile(r"(?:client|session|http|api|conn|connection|cursor|db|requests|sdk|service|s3|boto)$", re.I)

# Parsers whose error text describes their input: applied to a tool argument, that text is about
# what the model itself sent ("Expecting ',' delimiter: line 1 column 15").
ARGUMENT_PARSERS = frozenset(
    {
        "json.loads",
        "yaml.safe_load",
        "yaml.load",
        "tomllib.loads",
        "base64.b64decode",
        "base64.urlsafe_b64decode",
        "base64.b64encode",
        "ast.literal_eval",
        "datetime.fromisoformat",
        "datetime.datetime.fromisoformat",
        "datetime.datetime.strptime",
        "datetime.date.fromisoformat",
        "datetime.strptime",
        "date.fromisoformat",
        "dateutil.parser.parse",
        "dateutil.parser.isoparse",
        "uuid.UUID",
        "re.compile",
        "ipaddress.ip_address",
        "ipaddress.ip_network",
        "urllib.parse.urlparse",
        "shlex.split",
    }
)


# Exception classes that only their own module's functions raise, by that module: caught around
# a body whose only calls into the module parse the tool's parameters (`re.compile(pattern)`,
# then `compiled.search(name)`), their text is about what the model sent, whatever else the
# body runs. `json.JSONDecodeError` is not here: any HTTP client's `response.json()` raises it.


def parses_its_input(resolved: str) -> bool:
    """A library call, by the name it resolves to, that parses or validates the value it is
    handed: one of ARGUMENT_PARSERS, or a function named for it (`sqlparser.parse`,
    `checks.validate_email`: the vocabulary's INPUT_PARSER_NAME)."""
    return resolved in ARGUMENT_PARSERS or bool(INPUT_PARSER_NAME.fullmatch(resolved.rpartition(".")[2]))


# Validation errors: raised only where a validator checks the data it is handed (a pydantic model
# built from keyword arguments, a schema check). Around a `try` whose every call takes only the
# function's own parameters, what failed validation is what the caller passed.
VALIDATION_ONLY_ERRORS = frozenset(
    {"pydantic.ValidationError", "pydantic_core.ValidationError", "pydantic.v1.ValidationError", "jsonschema.ValidationError", "jsonschema.exceptions.ValidationError"}
)

PARSER_ONLY_ERRORS: dict[str, str] = {
    "re.error": "re",
    "re.PatternError": "re",
    "sre_constants.error": "re",
    "tomllib.TOMLDecodeError": "tomllib",
    "ipaddress.AddressValueError": "ipaddress",
    "ipaddress.NetmaskValueError": "ipaddress",
}


# Decode errors that say where in their input the decoder stopped, by the attributes holding the
# line and the column: caught around a parse of the caller's own argument, that position is the
# caller's pointer to its mistake, and carries none of the input's text.
DECODE_POSITIONS: dict[str, tuple[str, str]] = {
    "json.JSONDecodeError": ("lineno", "colno"),
    "json.decoder.JSONDecodeError": ("lineno", "colno"),
}


# Pydantic entry points that validate a payload into a model (`Args.model_validate(arguments)`).
MODEL_VALIDATORS = frozenset(
    {"model_validate", "model_validate_json", "model_validate_strings", "parse_obj", "parse_raw", "validate_python", "validate_json"}
)

# Calls whose value is what the awaitables passed to them produce: `await asyncio.gather(a(), b())`
# (every argument), `await asyncio.wait_for(job(), 5)`, `wrap_future(future)` (the first). Calls
# taking a function instead (`to_thread(fn, x)`, `pool.submit(fn, x)`) return its value through
# CallbackFact; their other arguments are its inputs.
VALUE_ARGUMENTS: dict[str, int | None] = {
    "gather": None,
    "wait_for": 0,
    "shield": 0,
    "create_task": 0,
    "ensure_future": 0,
    "wrap_future": 0,
    "run": 0,
}


# What a library call may raise, by the name it resolves to: the calls whose exceptions decide
# who wrote a caught builtin exception's text (model/escapes.py). A library call in neither table
# may raise anything.
RAISES_BY_FUNCTION: dict[str, frozenset[str]] = {
    "json.loads": frozenset({"JSONDecodeError"}),
    "json.load": frozenset({"JSONDecodeError"}),
    "int": frozenset({"ValueError", "TypeError"}),
    "float": frozenset({"ValueError", "TypeError"}),
    "decimal.Decimal": frozenset({"InvalidOperation"}),
    "uuid.UUID": frozenset({"ValueError", "TypeError"}),
    "datetime.fromisoformat": frozenset({"ValueError"}),
    "datetime.strptime": frozenset({"ValueError"}),
    "datetime.datetime.fromisoformat": frozenset({"ValueError"}),
    "datetime.datetime.strptime": frozenset({"ValueError"}),
    "datetime.date.fromisoformat": frozenset({"ValueError"}),
    "date.fromisoformat": frozenset({"ValueError"}),
    "open": frozenset({"OSError"}),
    # With a default it raises nothing; without, only the iterator's end.
    "next": frozenset({"StopIteration"}),
    # URL builders reject only a value they cannot encode.
    "urllib.parse.urlencode": frozenset({"TypeError"}),
    "urllib.parse.quote": frozenset({"TypeError"}),
    "urllib.parse.quote_plus": frozenset({"TypeError"}),
}
# ... or by the module it is in, for modules whose functions raise only their own classes (a
# pattern's `re.error`) or no exception a clause for a builtin class would see (`os.path`).
RAISES_BY_MODULE: dict[str, frozenset[str]] = {
    "re": frozenset({"error"}),
    "os.path": frozenset(),
    "shlex": frozenset({"ValueError"}),
    # A logging call hands a failing handler's error to `Handler.handleError`: nothing escapes.
    "logging": frozenset(),
    # Encoders and digests reject only bad input (binascii.Error is a ValueError); `secrets` only a
    # negative size: none raises RuntimeError, none does I/O.
    "base64": frozenset({"ValueError", "TypeError"}),
    "hashlib": frozenset({"ValueError", "TypeError"}),
    "secrets": frozenset({"ValueError", "TypeError"}),
}
# The methods of a logger (`logging.getLogger(...)`, structlog, loguru): like the module's functions,
# they raise nothing to their caller.
LOGGER_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
# ... and by a method's name, on a value the code got from a library (`response.json()` of an
# HTTP client's response, `path.read_text()`).
RAISES_BY_METHOD: dict[str, frozenset[str]] = {
    "json": frozenset({"JSONDecodeError"}),
    "raise_for_status": frozenset({"HTTPStatusError", "HTTPError"}),
    "read_text": frozenset({"OSError"}),
    "read_bytes": frozenset({"OSError"}),
    "write_text": frozenset({"OSError"}),
    "write_bytes": frozenset({"OSError"}),
}
# The builtin base of a library class in those tables (an `except ValueError` catches a
# JSONDecodeError); a class not here derives from Exception alone as far as a clause can tell.
LIBRARY_ERROR_BASES: dict[str, str] = {
    "JSONDecodeError": "ValueError",
    "InvalidOperation": "ArithmeticError",
}
