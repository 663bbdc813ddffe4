"""What mutates, as data: the one table every rule reads to tell a change of the world from a read.

Each entry is a class of effect and the shapes that have it. model/mutations.py matches calls
against these tables; nothing here names a real package: receivers are recognised by what they
were made from or by the words of their names, commands and statements by their text.
"""

from __future__ import annotations

import enum
import re

from mcp_lint.lazy_re import lazy_compile


class Effect(str, enum.Enum):
    """The kinds of change a call can make; PREPARATION never counts as the mutation alone."""

    FILES = "files"
    SUBPROCESS = "subprocess"
    HTTP = "http"
    DATABASE = "database"
    KEY_VALUE = "key-value store"
    COLLECTION = "collection store"
    MODULE_STATE = "module state"
    SDK = "sdk"
    CLOSE = "close"
    WORKER = "worker"
    # Idempotent set-up (`mkdir(exist_ok=True)`, `makedirs(..., exist_ok=True)`): running it twice
    # leaves the same world, so a rejection after it undoes nothing a retry would repeat.
    PREPARATION = "preparation"


# -- file system -------------------------------------------------------------------------------

# Standard-library file operations, by qualified name -> which positional arguments name what
# they change (the source of a copy is only read).
FILE_CALLS: dict[str, tuple[int, ...]] = {
    "os.remove": (0,), "os.unlink": (0,), "os.rmdir": (0,), "os.removedirs": (0,), "os.rename": (0, 1),
    "os.replace": (0, 1), "os.makedirs": (0,), "os.mkdir": (0,), "os.chmod": (0,), "os.symlink": (1,),
    "shutil.rmtree": (0,), "shutil.move": (0, 1), "shutil.copy": (1,), "shutil.copy2": (1,),
    "shutil.copyfile": (1,), "shutil.copytree": (1,),
}
# Methods of a path object that change the file system.
PATH_WRITES = frozenset({"write_text", "write_bytes", "unlink", "rmdir", "touch", "mkdir", "rename", "replace", "symlink_to", "hardlink_to", "chmod"})
# Unpacking an archive writes its members under the directory given (`zf.extractall(dest)`,
# `tar.extractall(path=dest)`): method -> the positional index of that directory.
ARCHIVE_EXTRACT: dict[str, int] = {"extractall": 0}
# Creating a directory that may already exist: preparation when told so (`exist_ok=True`).
PREPARATION_CALLS = frozenset({"makedirs", "mkdir"})
PREPARATION_KEYWORD = "exist_ok"
# Project helpers named for set-up (`_ensure_db()`, `ensure_initialized()`), called with nothing
# from the call's data: lazy initialization that any call would do first, not a change the
# call asked for.
SETUP_VERBS = frozenset({"ensure", "init", "initialize", "initialise", "setup", "bootstrap", "connect", "prepare", "warm", "lazy"})
# Calls and path methods that look at the file system (a read back of what a write or a
# subprocess changed): `Path(out).glob("*.png")`, `os.listdir(out)`, `p.exists()`.
FILE_READ_METHODS = frozenset(
    {"exists", "is_file", "is_dir", "stat", "lstat", "read_text", "read_bytes", "open", "iterdir", "glob", "rglob", "samefile", "is_symlink", "readlink"}
)
# (An archive opened by its path reads that file: `zipfile.ZipFile(p)`, `tarfile.open(p)`.)
FILE_READ_CALLS = frozenset(
    {"os.listdir", "os.scandir", "os.walk", "os.stat", "glob.glob", "glob.iglob", "open", "os.access", "zipfile.ZipFile", "tarfile.open", "zipfile.is_zipfile", "tarfile.is_tarfile"}
)
# Archives opened by their path: with a writing mode ("w", "a", "x", "w:gz"), what is added
# through the object is written into that file.
ARCHIVE_WRITERS = frozenset({"zipfile.ZipFile", "tarfile.open", "tarfile.TarFile"})
FILE_READ_PREFIXES = ("os.path.",)

# -- subprocesses -----------------------------------------------------------------------------

SUBPROCESS_CALLS = frozenset(
    {"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
     "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "os.system", "os.popen"}
)
# Commands that only report: a subprocess whose argument list (or shell text) starts with one of
# these word sequences changes nothing.
READ_ONLY_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("git", "status"), ("git", "rev-parse"), ("git", "log"), ("git", "diff"), ("git", "show"), ("git", "ls-files"),
    ("git", "ls-remote"), ("git", "describe"), ("git", "blame"), ("git", "cat-file"), ("git", "grep"),
    ("git", "config", "--get"), ("git", "remote", "-v"), ("git", "branch", "--show-current"), ("git", "--version"),
    ("ls",), ("cat",), ("head",), ("tail",), ("wc",), ("which",), ("whoami",), ("uname",), ("pwd",), ("echo",),
    ("grep",), ("find",), ("file",), ("stat",), ("du",), ("df",), ("date",), ("env",), ("printenv",),
)
VERSION_FLAGS = frozenset({"--version", "-V", "version", "--help", "-h"})

# -- background workers ------------------------------------------------------------------------

# Starting a thread or a process (`Thread(target=serve).start()`): it runs on after the call, so a
# call rejected after the start leaves it running (and whatever it binds or sets).
WORKER_CLASSES = frozenset({"threading.Thread", "threading.Timer", "multiprocessing.Process"})
WORKER_START = "start"

# -- work handed to another thread ------------------------------------------------------------

# Calls that run the function they are given, with the arguments after it, on a worker thread
# (`await asyncio.to_thread(shutil.copy2, a, b)`, `loop.run_in_executor(None, save, path)`): the
# function's effect is the call's. Method name -> position of the function among the arguments.
# Waiting for a process, worker or future (`proc.communicate()`, `proc.wait()`, `t.join()`,
# `fut.result()`): what the object holds afterwards (a return code, a result, an error) did not
# exist before the call, so a check of it after a change could not have run before the change.
WAIT_METHODS = frozenset({"communicate", "wait", "join", "result"})
RUNS_GIVEN_FUNCTION: dict[str, int] = {"to_thread": 0, "run_in_executor": 1, "run_sync": 0}

# -- HTTP -------------------------------------------------------------------------------------

HTTP_WRITE_VERBS = frozenset({"post", "put", "patch", "delete"})
# Module-level request functions of HTTP libraries are recognised by the verb alone when their
# receiver looks like an HTTP client or the library (`requests`-like modules are imported names).
HTTP_RECEIVER = lazy_compile(r"client|session|http|api|requests|httpx", re.I)
# A POST to an endpoint named for a computation (`.../text:synthesize`, `/v1/search`, `/query`,
# `/tml/export`) asks for a result and changes nothing: the last word of the URL's path says so.
COMPUTING_ENDPOINTS = lazy_compile(
    r"[/:](?:synthesize|search|query|translate|predict|classify|embed|embeddings|analyze|analyse|detect|recognize|tokenize|count_tokens|completions?|render|preview|validate|lookup|estimate|export)(?:$|[?#])",
    re.I,
)
# Keywords that carry the verb: `send(method="POST")`, `Request(url, method="DELETE")`.
VERB_KEYWORDS = frozenset({"method", "http_method", "verb"})
# A project helper that sends requests, named so (`self._request("PATCH", ...)`), takes the verb
# as a string; any call whose first argument is an upper-case write verb (`_tracker("POST", ...)`)
# sends one too.
REQUEST_WRAPPER = lazy_compile(r"request|call|api|http|fetch|send", re.I)
# Names of the argument after an upper-case verb that make the call a request: a location.
LOCATION_NAMES = lazy_compile(r"url|uri|path|endpoint|route|href|link", re.I)
# Building a request does not send it: `Request("POST", url)`, `client.build_request("PUT", url)`.
# The send is the mutation: `urlopen(req)`, `session.send(req)`, `req.send()`.
REQUEST_BUILDER = lazy_compile(r"^(?:[A-Z]\w*Request\w*|Request|build_request|prepare_request|new_request|make_request)$")
REQUEST_SENDERS = lazy_compile(r"urlopen|send|execute|dispatch|perform|fetch|request|call|submit", re.I)
# Setting the verb on a builder: `req.method = "POST"`, `builder.method("PATCH")`.
VERB_SETTERS = frozenset({"method", "set_method", "with_method", "http_method"})
# String methods and loggers never send anything, whatever their first argument.
NOT_SENDERS = frozenset({"startswith", "endswith", "upper", "lower", "replace", "split", "format", "get", "join", "strip", "print", "debug", "info", "warning", "error", "exception", "critical", "log", "append", "add", "index", "count", "find"})

# -- databases --------------------------------------------------------------------------------

SQL_WRITE = lazy_compile(r"^\s*(?:insert|update|delete|replace|merge|upsert|create|drop|alter|truncate)\b", re.I)
# What a write statement changes and what a read statement reads: the tables after these words.
SQL_WRITE_TABLE = lazy_compile(r"^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from|replace\s+into|merge\s+into|upsert\s+into|truncate(?:\s+table)?|drop\s+table(?:\s+if\s+exists)?|alter\s+table)\s+[`\"\[]?(\w+)", re.I)
SQL_READ_TABLES = lazy_compile(r"\b(?:from|join)\s+[`\"\[]?(\w+)", re.I)
SQL_EXECUTE = frozenset({"execute", "executemany", "executescript", "exec_driver_sql", "fetch", "fetchrow", "fetchval"})
# Calls that compose statement text from literal parts (`sql.SQL("DELETE FROM {}")`,
# `text("UPDATE ...")`): their first argument is the statement.
SQL_COMPOSERS = frozenset({"SQL", "text", "Composed", "literal_column"})
COMMIT = "commit"

# -- key-value and collection stores ------------------------------------------------------------

# Writes of a key-value client: `set(key, value)` with two arguments or more (a ContextVar's
# `set(value)` and an Event's `set()` take fewer), and the store's own write verbs.
KEY_VALUE_WRITES = frozenset({"set", "setex", "setnx", "psetex", "mset", "hset", "hmset", "hdel", "incr", "incrby", "decr", "decrby", "expire", "lpush", "rpush", "sadd", "srem", "zadd", "zrem", "getdel", "getset", "delete", "unlink", "rename", "flushdb", "flushall", "json_set"})
KEY_VALUE_MIN_ARGS = {"set": 2}
# Writes on a collection (or table, index) handle obtained from a client.
COLLECTION_WRITES = frozenset({"add", "upsert", "update", "delete", "insert", "insert_one", "insert_many", "update_one", "update_many", "delete_one", "delete_many", "replace_one", "put", "put_item", "delete_item", "update_item", "add_documents", "add_texts", "modify", "drop"})
# Methods of a client that hand out a store handle: what they return is a handle too.
HANDLE_GETTERS = lazy_compile(r"^(?:get_or_create_|get_|create_|open_|use_)?(?:collection|table|index|bucket|namespace|database|db|store|container|queue|topic|sheet|worksheet)s?$|^(?:collection|table|index|bucket)_?\w*$", re.I)
# A receiver looks like a store when its name ends in one of these words (`vector_collection`,
# `cache_client`, `kv`; not `client_config`). Words for a kind of store only, never a product's name:
# a receiver named otherwise is a store by what it was made from (CLIENT_FACTORIES).
STORE_WORDS = frozenset(
    {"collection", "collections", "table", "index", "store", "repo", "repository", "bucket", "queue", "database",
     "db", "registry", "graph", "vector", "vectors", "client", "kv", "cache_client"}
)
# Calls that hand out a client of something outside the process, whatever the name it is kept
# under: `conn = connect(dsn)`, `r = Cache.from_url(u)`, `c = make_client()`, `c = StoreClient(...)`.
# What such a local or module-level name holds takes store writes (`r.delete(k)`, `c.add(...)`).
CLIENT_FACTORIES = lazy_compile(
    r"^(?:a?connect|from_url|from_uri|from_dsn|from_env|open_connection|create_connection|create_pool"
    r"|(?:get|make|create|new|build|open)_(?:\w+_)?(?:client|connection|conn))$|^[A-Z]\w*(?:Client|Connection|ConnectionPool)$"
)
# Words that name a handle on something outside the process (`TaskService`, `db_session`).
HANDLE_WORDS = frozenset({"service", "manager", "gateway", "connection", "conn", "driver", "adapter", "provider", "backend", "server", "bot", "sdk"})

# -- module state -----------------------------------------------------------------------------

# What containers do to themselves.
CONTAINER_WRITES = frozenset({"append", "extend", "insert", "pop", "clear", "update", "setdefault", "add", "discard", "remove", "popitem"})
# Reading an item of module state gives an alias of it: `note = NOTES.get(i)`, `NOTES[i]`,
# `NOTES.setdefault(i, {})`; changing the alias changes the module's state.
ALIAS_GETTERS = frozenset({"get", "setdefault", "__getitem__"})
# Module-level containers that only remember work (caches, in-flight maps, locks) or meter it
# (rate limiters, throttle windows, quotas): writing them before a rejection leaves nothing the
# user or a retry would see (a limit is the server's own accounting).
BOOKKEEPING = lazy_compile(r"cache|memo|inflight|in_flight|lock|seen|visited|(?:^|_)(?:rate_?limits?|rate_?limiters?|limiters?|throttles?|throttling|quotas?)(?:_|$)", re.I)
# Containers that record the traffic itself (an audit trail, a history or log of calls): a record
# added before a rejection is the record of that rejected call, not a change the call asked for
# (the labels do not count audit records). Read by the mutation-before-validation rule only;
# mutation_of still reports them as writes for the other rules.
AUDIT_RECORDS = lazy_compile(r"audit|(?:^|_)(?:history|histories|logs?|trail|traffic)(?:_|$)", re.I)
# A function named for metering calls (`_check_rate`, `throttle`, `consume_quota`): the module
# state it writes (token buckets, windows, counters keyed by caller) is that accounting.
METERING_WORDS = frozenset({"rate", "ratelimit", "throttle", "throttling", "quota", "limiter"})
# A document loaded into memory for this call only (`wb = load_workbook(path)`,
# `tree = parse(path)`): editing it changes nothing outside the process until it is saved, so on
# a path that rejects before the save the edit dies with the call.
DOCUMENT_LOADERS = lazy_compile(r"^(?:load|parse|safe_load|deepcopy)$|^(?:load|parse|read|open|get_or_create)_\w*(?:workbook|document|doc|docx|presentation|pptx|xlsx|tree|xml|book|sheet|spreadsheet)s?$", re.I)
# A new, empty document built in memory by this call (`wb = Workbook()`, `doc = Document()`):
# like a loaded one, its edits change nothing until it is saved.
# A constructor, not an SDK call that makes one remotely (`CreateDocument`, `NewWorkbook`).
# A reader class (`PdfReader(path)`) loads its document for this call the same way.
DOCUMENT_NEW = lazy_compile(r"^(?!(?:Create|New|Add|Make|Insert|Upload|Copy)[A-Z])(?:[A-Z]\w*?)?(?:Workbook|Document|Presentation|Spreadsheet|Reader)$")
# What makes an in-memory document's edits reach the world.
DOCUMENT_PERSIST = frozenset({"save", "write", "commit", "flush", "dump", "export", "upload", "send", "publish", "push", "save_as", "saveas", "write_to"})
# Methods that write what their receiver holds to the file their arguments name (`prs.save(out)`):
# that file is what the call changed.
SAVE_TO_PATH = frozenset({"save", "save_as", "saveas", "export", "write_to", "copy_to"})
# A part of such a document (`ws = wb["Data"]`, `ws = wb.add_worksheet()`) writes into the
# document (`ws.write(0, 0, v)` sets a cell); only saving it reaches the world.
PART_PERSIST = frozenset({"save", "save_as", "saveas"})
# A stream the caller hands in (`def ask(*, out: TextIO)`): writing a prompt or a report to it
# is output, like `print`, whoever holds the other end.
STREAM_TYPES = frozenset({"TextIO", "BinaryIO", "IO", "TextIOBase", "TextIOWrapper", "StringIO", "BytesIO", "SupportsWrite"})
STREAM_WRITES = frozenset({"write", "writelines", "flush"})
# Undoing what this call itself made (`chart = sheet.Charts.Add(); ...; chart.Delete()`,
# `job = Job(); queue.append(job); ...; queue.remove(job)`): cleanup, not a change of the world.
UNDO_METHODS = frozenset({"remove", "delete", "destroy", "discard", "dispose", "unlink", "cancel"})
# A local this call made: built by a class, or returned by a call whose name starts with one of these.
CREATION_WORDS = frozenset({"add", "create", "new", "make", "insert"})
# Calls that take back what a failed call did, by a word of their name (`_remove_partial(p)`,
# `conn.rollback()`, `os.unlink(tmp)`): an `except` clause around the mutation and the check that
# calls one and ends the call leaves nothing behind on the rejecting path.
ROLLBACK_WORDS = frozenset({"remove", "delete", "unlink", "rmtree", "cleanup", "clean", "rollback", "undo", "revert", "discard", "abort", "restore"})
# Scratch files and directories of the standard library's temporary-file module: what the call
# writes there (`with NamedTemporaryFile() as tmp: tmp.write(b)`, `shutil.rmtree(mkdtemp())`) is
# its own working space, which no user or retry sees; not a change of the world.
SCRATCH_FACTORIES = frozenset(
    {"tempfile.NamedTemporaryFile", "tempfile.TemporaryFile", "tempfile.SpooledTemporaryFile", "tempfile.mkstemp",
     "tempfile.mkdtemp", "tempfile.TemporaryDirectory", "tempfile.gettempdir"}
)
# Words of a project helper's name that hand out scratch space (`create_temp_dir()`,
# `self._tmpfile(".svg")`), and the calls that name a path under a directory (the directory first).
SCRATCH_WORDS = frozenset({"temp", "tmp", "tempdir", "tmpdir", "tmpfile", "tempfile", "scratch"})
# Buffers in the process's memory (`buf = io.BytesIO()`): what is written or drawn into them, and
# into an object built on one (`Canvas(buf)`, `writer.write(buf)`), leaves the process only when
# the call hands the bytes on; like scratch space, no user or retry sees them.
MEMORY_STREAMS = frozenset({"io.BytesIO", "io.StringIO", "BytesIO", "StringIO"})
PATH_JOINERS = frozenset({"join", "Path", "PurePath"})
# Calls that make a path from another (the file they name is the other's, or under it).
PATH_DERIVERS = PATH_JOINERS | {"joinpath", "with_name", "with_suffix", "with_stem", "resolve", "expanduser", "absolute"}
# Ending a long-lived connection or process held by the object or the module.
CLOSE_METHODS = frozenset({"close", "disconnect", "shutdown", "terminate", "kill", "stop", "aclose"})

# -- cleanup (never an effect) -----------------------------------------------------------------

# Closing, releasing or disconnecting what the call or the process holds (a client, connection,
# session, cursor, file handle, lock, temporary resource): `client.close()`, `lock.release()`,
# `await session.aclose()`, `close_connection(c)`. Of what the call itself holds, it gives back
# what was opened; a rejected call leaves nothing behind because of it, and a retry repeats it
# harmlessly: no mutation (the connection the server keeps for every call, `self.conn.close()`, a
# module's client, is another matter: later calls find it closed; CLOSE_METHODS above). And a fix
# never moves a check above any of them: the rejecting path would skip it and leak the resource. A method of these words on a receiver named otherwise (`issue.close()`,
# `position.close()`, `ticket.close()`) is an SDK's write verb, judged as such.
CLEANUP_METHODS = frozenset({"close", "aclose", "disconnect", "release", "unlock", "cleanup", "dispose", "logout", "__exit__", "__aexit__"})
# Words of a receiver (its last part) or of a method after the cleanup word that name a held
# resource: `db_conn.close()`, `self.http_client.aclose()`, `close_session()`, `release_lock()`.
RESOURCE_WORDS = frozenset(
    {"client", "clients", "conn", "connection", "connections", "session", "sessions", "cursor", "cur", "channel",
     "socket", "sock", "ws", "websocket", "stream", "file", "fh", "fp", "f", "handle", "lock", "mutex", "semaphore",
     "sem", "pool", "engine", "driver", "browser", "page", "context", "transport", "reader", "writer", "pipe",
     "tmp", "temp", "tempfile", "tmpfile", "tmpdir", "tempdir", "resource", "resources", "db", "database",
     "producer", "consumer", "watcher", "observer", "sftp", "ssh", "ftp", "smtp", "imap", "cache"}
)

# -- SDK methods ------------------------------------------------------------------------------

WRITE_VERBS = frozenset(
    {
        "create", "update", "delete", "remove", "insert", "upsert", "put", "post", "patch", "send", "upload",
        "write", "save", "commit", "publish", "enqueue", "submit", "transfer", "charge", "refund", "cancel",
        "drop", "destroy", "archive", "move", "rename", "set", "add", "execute_write", "modify", "overwrite",
        "purge", "truncate", "revoke", "invite", "kick", "ban", "assign", "unassign", "merge", "close", "reopen",
        "push", "pull", "checkout", "revert", "rebase",
    }
)
# A method that hands out a context for writes (`db.write_scope()`, `client.create_session()`,
# `store.open_transaction()`): the writes happen through what it returns, not at the call.
HANDED_OUT_VERBS = frozenset({"write", "create", "new", "make", "open"})
HANDED_OUT_WORDS = frozenset({"scope", "session", "transaction", "context", "cursor", "connection", "conn", "lock", "batch"})
# Verbs that are also what dicts, sets and lists do: a write only on shared state or on a handle
# that looks like a store (`collection.add(...)`), never on a local container.
AMBIGUOUS_VERBS = frozenset({"add", "set", "update", "remove", "move", "insert", "merge", "close", "assign"})
# Words before a verb that make the method a read (`get_update_status`).
READ_PREFIXES = frozenset({"get", "list", "read", "fetch", "find", "search", "is", "has", "can", "check", "validate", "to", "as", "build", "make", "format", "parse"})
# Progress and log notifications to the client change no state.
NOTIFY = lazy_compile(r"^send_(?:log|progress|notification|ping|resource|tool_list|prompt_list|request)", re.I)
# Receivers that only log or print.
SAFE_RECEIVERS = frozenset({"logger", "logging", "log", "ctx", "context", "self.logger", "self.log", "print", "console", "st", "sys.stdout", "sys.stderr"})
SAFE_ROOTS = frozenset({"logger", "logging", "log", "ctx", "context"})
# Receivers of the standard library's concurrency and argument parsing: their verbs hold no state.
NO_STATE_RECEIVERS = frozenset({"executor", "pool", "loop", "parser", "subparsers"})
