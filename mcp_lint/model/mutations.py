"""What a call mutates: the classifier over the effect tables of model/effects.py, for any rule
that asks whether a statement changes the world (mutation before validation, retries of a write).

`mutation_of` answers for one call (with what the function's own locals hold: LocalHandles),
`reads` lists the dotted names an expression reads, and FILE/FILE_ANY/FS mark what file
operations change and what looks at the file system, so a post-check can be told from a check.
"""

from __future__ import annotations

import sys
import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.names import AliasTable, dotted, identifier_words, last_name
from mcp_lint.model.walk import children, descendants
from mcp_lint.model import effects as fx
from mcp_lint.model.effects import Effect

_CONSTANTS = frozenset({"None", "True", "False"})


def store_like(name: str) -> bool:
    parts = identifier_words(name)
    return bool(parts) and parts[-1] in fx.STORE_WORDS


_FILE_CALLS = frozenset(fx.FILE_CALLS) | fx.SUBPROCESS_CALLS
_FILE_WRITE_NAMES = frozenset(last_name(n) for n in _FILE_CALLS)
# Every function or method name the tables can match, for a quick first look at a call.
_NAMED_MUTATIONS = (
    frozenset({"open", fx.COMMIT, fx.WORKER_START})
    | fx.SQL_EXECUTE
    | fx.HTTP_WRITE_VERBS
    | fx.PATH_WRITES
    | fx.CLOSE_METHODS
    | fx.CONTAINER_WRITES
    | fx.KEY_VALUE_WRITES
    | fx.COLLECTION_WRITES
    | frozenset(fx.ARCHIVE_EXTRACT)
)

# -- what mutates ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MutationKind:
    description: str
    changed: tuple[str, ...] = ()  # dotted names of what it changes (receiver, path arguments)
    result_is_outcome: bool = True  # False for get-or-create: the result is the existing object
    effect: Effect = Effect.SDK
    tables: tuple[str, ...] = ()  # the tables a database write changes, when its text names them


@dataclass(frozen=True)
class LocalHandles:
    """What a function's own locals hold, as far as mutations care: aliases of module state
    (`note = NOTES.get(i)`), store handles obtained from a client (`col = client.get_collection(n)`),
    statement text (`q = "UPDATE ..."`), requests built with a write verb (`Request("POST", url)`)."""

    state_aliases: frozenset[str] = frozenset()
    handles: frozenset[str] = frozenset()
    sql: tuple[tuple[str, str], ...] = ()
    write_requests: tuple[tuple[str, str], ...] = ()  # (name, verb)
    # Documents loaded into memory by this call, and the parts taken from them (`ws = wb[name]`).
    documents: frozenset[str] = frozenset()
    document_parts: frozenset[str] = frozenset()
    # Parameters annotated as a text or byte stream (`out: TextIO`).
    streams: frozenset[str] = frozenset()
    # Objects this call made (`job = Job(...)`, `chart = charts.Add(...)`): removing them is cleanup.
    created: frozenset[str] = frozenset()
    # Clients from a factory (`r = Cache.from_url(u)`, `conn = connect()`), here or at module
    # level: their store verbs write (`r.hdel(...)`). Only that: what a check asks a client made
    # after the mutation is judged like any call (mcp004's _After), not as a read-back.
    clients: frozenset[str] = frozenset()
    # Threads and processes this call built (`t = Thread(target=serve)`): starting one is a change.
    workers: frozenset[str] = frozenset()
    # Temporary files and directories this call made (`tmp = NamedTemporaryFile()`): its scratch.
    scratch: frozenset[str] = frozenset()
    # Handles this call opened for writing, and the file each names (`with open(out, "wb") as h`,
    # `h = Path(out).open("w")`): `h.write(b)` changes that file, as `save(out)` would, so a
    # look at the file after it (`os.path.getsize(out)`) reads its effect back.
    file_handles: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def sql_of(self, name: str) -> str | None:
        return next((text for n, text in self.sql if n == name), None)

    def request_verb(self, name: str) -> str | None:
        return next((verb for n, verb in self.write_requests if n == name), None)


NO_LOCALS = LocalHandles()


@lru_cache(maxsize=4096)
def verb_of(method: str) -> str | None:
    """The write verb a method name starts with, also after an API namespace (`files_upload`)."""
    if method.startswith("get_or_create"):
        return "get_or_create"
    parts = identifier_words(method)
    if not parts:
        return None
    if parts[0] in fx.WRITE_VERBS:
        return parts[0]
    if len(parts) > 1 and "_" in method and parts[1] in fx.WRITE_VERBS - fx.AMBIGUOUS_VERBS and parts[0] not in fx.READ_PREFIXES:
        return parts[1]  # a verb after an API namespace: `board_postCard`, `files_upload`
    return None


def chain(expr: cst.BaseExpression) -> str | None:
    """Dotted name of `a.b`; the root name of `A[k].b` ("A": what an item write changes);
    None for `f(x).y`."""
    name = dotted(expr)
    if name is not None:
        return name
    base = expr
    while type(base) in (cst.Subscript, cst.Attribute):
        base = base.value
    return base.value if type(base) is cst.Name else None


def mutation_of(
    call: cst.Call,
    aliases: AliasTable,
    module_names: set[str],
    local_containers: frozenset[str] = frozenset(),
    local: LocalHandles = NO_LOCALS,
) -> MutationKind | None:
    """What a call mutates, or None when it does not look like a mutation (model/effects.py holds
    the tables)."""
    func = call.func
    last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
    if last in fx.RUNS_GIVEN_FUNCTION:
        handed = handed_call(call)
        return mutation_of(handed, aliases, module_names, local_containers, local) if handed is not None else None
    verb_arg = _verb_argument(call)
    if not _may_name_a_mutation(last) and verb_arg is None and not local.write_requests:
        return None  # most calls: `len`, `logger.info`, `data.get`
    name = dotted(call.func) or ""
    # Resolving through the imports costs; only a name ending like a listed operation needs it.
    resolved = (aliases.resolve(call.func) or name) if last_name(name) in _FILE_WRITE_NAMES else name
    key = resolved if resolved in _FILE_CALLS else name if name in _FILE_CALLS else ""
    if key in fx.SUBPROCESS_CALLS:
        if _read_only_command(call):
            return None  # `git status`, `git rev-parse HEAD`: it only reports
        if _writes_into_scratch(call, local, aliases):
            return None  # `[tool, "-i", src, tmp_out]`: its output is the call's own scratch
        # A subprocess may change any file: what the function reads of the file system after it
        # is a read back of its effect.
        return MutationKind("runs a subprocess", (FILE_ANY,), effect=Effect.SUBPROCESS)
    if key:
        changed_files = argument_chains(call, fx.FILE_CALLS.get(key, (0,)))
        if changed_files and all(c[len(FILE):].split(".")[0] in local.scratch for c in changed_files):
            return None  # `shutil.rmtree(tmpdir)` of the call's own scratch directory
        if last_name(key) in fx.PREPARATION_CALLS and _keyword_true(call, fx.PREPARATION_KEYWORD):
            return MutationKind(f"prepares a directory ({last_name(key)})", argument_chains(call, fx.FILE_CALLS[key]), effect=Effect.PREPARATION)
        return MutationKind(f"changes files ({last_name(key)})", argument_chains(call, fx.FILE_CALLS.get(key, (0,))), effect=Effect.FILES)
    if name == "open" and len(call.args) >= 2:
        mode = literal_text(call.args[1].value) if call.args[1].keyword is None else None
        # "a" alone appends nothing until something is written through the handle (which is
        # then the mutation); a writability probe `with open(p, "a"): pass` changes nothing.
        if mode and any(c in mode for c in "wx+") and not _into_scratch(call, local, aliases):
            return MutationKind("writes a file", argument_chains(call, (0,)), effect=Effect.FILES)
        return None
    if last == "open" and type(call.func) is cst.Attribute and call.args and call.args[0].keyword is None:
        # `Path(out).open("w")`: a path object's open takes the mode first.
        mode = literal_text(call.args[0].value)
        if mode and any(c in mode for c in "wx+") and type(call.func.value) not in (cst.SimpleString, cst.FormattedString):
            return MutationKind("writes a file", tuple(FILE + r for r in read_names(call.func.value)), effect=Effect.FILES)
    sent = _sends_built_request(call, local)
    if sent is not None:
        return sent
    if verb_arg is not None:
        if fx.REQUEST_BUILDER.match(last):
            return None  # `Request("POST", url)` builds a request; sending it is the mutation
        return MutationKind(f"sends an HTTP {verb_arg.upper()}", effect=Effect.HTTP)
    if type(call.func) is not cst.Attribute:
        return None
    if type(call.func.value) is cst.IfExp:
        # `(DONE if ok else FAILED).append(r)`: the store a conditional expression chooses; a
        # write through either choice is one on the path that takes it.
        choice = call.func.value
        return next(
            (
                kind
                for branch in (choice.body, choice.orelse)
                if (kind := mutation_of(call.with_changes(func=call.func.with_changes(value=branch.with_changes(lpar=(), rpar=()))), aliases, module_names, local_containers, local))
                is not None
            ),
            None,
        )
    method = call.func.attr.value
    receiver = chain(call.func.value) or ""
    root = receiver.split(".")[0]
    if receiver in fx.SAFE_RECEIVERS or root in fx.SAFE_ROOTS:
        return None
    changed = (receiver,) if receiver else ()
    if root in local.scratch or (method.lower() in fx.DOCUMENT_PERSIST and _into_scratch(call, local, aliases)):
        return None  # `tmp.write(data)`, `tree.write(tmp_xml)`: into the call's own scratch
    if method == fx.WORKER_START and not call.args and (receiver in local.workers or _builds_worker(call.func.value, aliases)):
        return MutationKind("starts a background worker", changed, effect=Effect.WORKER)
    if method in fx.SQL_EXECUTE and call.args:
        sql = statement_text(call.args[0].value, local)
        if sql is not None and fx.SQL_WRITE.search(sql):
            table = fx.SQL_WRITE_TABLE.search(sql)
            return MutationKind(
                f"writes to the database ({sql.split()[0].upper()})", changed, effect=Effect.DATABASE, tables=(table.group(1).lower(),) if table else ()
            )
        return None
    if method == fx.COMMIT:
        return MutationKind("commits a database transaction", changed, effect=Effect.DATABASE)
    if method in fx.HTTP_WRITE_VERBS and receiver and (fx.HTTP_RECEIVER.search(receiver.split(".")[-1]) or _http_module(aliases, root)):
        if method == "post" and _computing_endpoint(call):
            return None  # `post(".../text:synthesize", json=...)`: asks for a result, changes nothing
        return MutationKind(f"sends an HTTP {method.upper()}", changed, effect=Effect.HTTP)
    if method in fx.PATH_WRITES and type(call.func.value) not in (cst.SimpleString, cst.FormattedString):
        if method == "replace" and len(call.args) != 1:
            return None  # str.replace(old, new); Path.replace(target) takes one argument
        if method in {"replace", "rename"} and any(a.keyword is not None and a.keyword.value != "target" for a in call.args):
            return None  # `when.replace(tzinfo=utc)`, `frame.rename(columns=...)`: a new value, no file moved
        # What changed is the file the path names, not the name: `p.suffix` reads the name.
        file_changed = tuple(FILE + r for r in read_names(call.func.value))
        if method in fx.PREPARATION_CALLS and _keyword_true(call, fx.PREPARATION_KEYWORD):
            return MutationKind(f"prepares a directory ({method})", file_changed, effect=Effect.PREPARATION)
        return MutationKind(f"changes files ({method})", file_changed, effect=Effect.FILES)
    if method.lower() in fx.UNDO_METHODS and _undoes_own_object(call, root, local.created):
        return None  # `chart.Delete()`, `queue.remove(job)` of what this call made: cleanup
    if method in fx.ARCHIVE_EXTRACT and receiver:
        # `zf.extractall(dest)`: the members are written under dest (the working directory when none is given).
        where = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "path"), None)
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if where is None and len(positional) > fx.ARCHIVE_EXTRACT[method]:
            where = positional[fx.ARCHIVE_EXTRACT[method]]
        targets = tuple(FILE + r for r in read_names(where)) if where is not None else ()
        if targets and all(t[len(FILE):].split(".")[0] in local.scratch for t in targets):
            return None  # unpacked into the call's own scratch directory
        return MutationKind("unpacks an archive", targets or (FILE_ANY,), effect=Effect.FILES)
    handle_file = next((files for name, files in local.file_handles if name == receiver), None)
    if handle_file is not None and method in fx.STREAM_WRITES:
        return MutationKind("writes a file", (*handle_file, receiver), effect=Effect.FILES)  # `h.write(b)`: the file h was opened on
    if receiver in local.streams and method in fx.STREAM_WRITES:
        return None  # `out.write(prompt)` on a stream the caller handed in: output, like print
    if root in local.documents and method.lower() not in fx.DOCUMENT_PERSIST:
        return None  # `wb.create_sheet(n)` on a workbook this call loaded: nothing changes until it is saved
    if root in local.document_parts and method.lower() not in fx.PART_PERSIST:
        return None  # `ws.write(row, col, v)` writes a cell of a sheet of that workbook, not a file
    shared = root in module_names or (root in {"self", "cls"} and "." in receiver)
    if not shared and is_cleanup(call, local):
        # `client.close()`, `lock.release()` of what this call holds: gives it back, changes
        # nothing. The connection the server keeps for every call (`self.conn.close()`) is not
        # this call's to give back: later calls find it closed (Effect.CLOSE below).
        return None
    if method in fx.CLOSE_METHODS and shared:
        return MutationKind(f"closes {receiver}", changed, effect=Effect.CLOSE)
    if method in fx.CONTAINER_WRITES and root in local.state_aliases:
        return MutationKind(f"changes module-level state ({receiver}.{method}, an item of it)", changed, effect=Effect.MODULE_STATE)
    if method in fx.CONTAINER_WRITES and root in module_names and root not in local_containers and not fx.BOOKKEEPING.search(root):
        return MutationKind(f"changes module-level state ({receiver}.{method})", changed, effect=Effect.MODULE_STATE)
    handle = (root in local.handles or root in local.clients) and root not in local_containers
    if method in fx.KEY_VALUE_WRITES and _positional_count(call) >= fx.KEY_VALUE_MIN_ARGS.get(method, 1) and (handle or (method == "set" and _kept_store(receiver, shared, local_containers, aliases))):
        # `r.set(key, value)`: two arguments are a key and a value, on a client the module or
        # the object keeps, or one named for a store.
        return MutationKind(f"writes to a key-value store ({receiver}.{method})", changed, effect=Effect.KEY_VALUE)
    if method in fx.COLLECTION_WRITES and handle:
        return MutationKind(f"writes to a collection ({receiver}.{method})", changed, effect=Effect.COLLECTION)
    verb = verb_of(method)
    if verb is None or receiver in {"", "self", "cls"}:
        return None
    if fx.BOOKKEEPING.search(receiver.split(".")[-1]) and receiver.split(".")[-1] not in fx.STORE_WORDS:
        return None  # `self.cache.move_to_end(k)`: a cache or lock of the process remembers work, it changes nothing a user sees
    if root in aliases.relative_modules and receiver == root:
        return None  # `clients.push_registration(c)`: the project's own function, judged by its summary
    if verb in fx.AMBIGUOUS_VERBS and receiver in local_containers:
        return None  # `report.add_error(...)` on a value this function built (_fresh_objects)
    if verb == "get_or_create":
        return MutationKind(f"calls {receiver}.{method}()", changed, result_is_outcome=False)
    words = identifier_words(method)
    if len(words) > 1 and words[0] in fx.HANDED_OUT_VERBS and words[-1] in fx.HANDED_OUT_WORDS:
        return None  # `self.db.write_scope()`: it hands out the context the writes go through
    if root in stdlib_roots(aliases) or fx.NOTIFY.match(method) or receiver.split(".")[-1] in fx.NO_STATE_RECEIVERS:
        return None  # asyncio.create_task, executor.submit, session.send_log_message: no state
    if method.lower() in fx.AMBIGUOUS_VERBS or method in fx.CONTAINER_WRITES:
        # `seen.add(x)` is bookkeeping; `collection.add(...)` on a store handle is a write.
        last = receiver.split(".")[-1]
        if root in local_containers or not (store_like(last) or handle):
            return None
    if method.lower() in fx.SAVE_TO_PATH:
        # `prs.save(out)`, `doc.save(in_=File(dest))`: whether the file its arguments name is there
        # (`os.path.exists(out)`, its size) is the save's outcome; what it holds is what the
        # document held before the save, so loading it again reads nothing new.
        changed += tuple(FS + r for a in call.args for r in read_names(a.value))
    return MutationKind(f"calls {receiver}.{method}()", changed)


def is_cleanup(call: cst.Call, local: LocalHandles = NO_LOCALS) -> bool:
    """Does the call close, release or disconnect a held resource (model/effects.py's cleanup
    class)? By the method's name (`close_session()`, `_release_lock(l)`), or by a cleanup method
    on a receiver named for a resource (`client.close()`, `self.db_conn.close()`) or holding one
    this function opened (`c = make_client(); c.close()`, a file handle, its scratch)."""
    func = call.func
    method = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
    words = identifier_words(method)
    if len(words) > 1 and words[0] in fx.CLEANUP_METHODS and words[-1] in fx.RESOURCE_WORDS:
        return True  # `close_connection()`, `self._release_lock()`: named for it
    if method not in fx.CLEANUP_METHODS or type(func) is not cst.Attribute:
        return False
    receiver = chain(func.value) or ""
    if not receiver:
        return False
    last = receiver.split(".")[-1]
    if any(word in fx.RESOURCE_WORDS for word in identifier_words(last)):
        return True
    root = receiver.split(".")[0]
    return receiver == root and (root in local.clients or root in local.scratch or any(name == root for name, _ in local.file_handles))


def _into_scratch(call: cst.Call, local: LocalHandles, aliases: AliasTable) -> bool:
    """Is the call's first argument a path of the call's scratch (`tree.write(out_xml)` with
    `out_xml = os.path.join(tmp, ...)`, `tree.write(Path(tmp) / "a.xml")`)?"""
    if not local.scratch:
        return False
    first = next((a.value for a in call.args if a.keyword is None and not a.star), None)
    return first is not None and _names_scratch(first, set(local.scratch), aliases)


def _writes_into_scratch(call: cst.Call, local: LocalHandles, aliases: AliasTable) -> bool:
    """Does a command's argument list end in a path of the call's scratch (`[tool, "-i", src,
    "-y", tmp_out]` with `tmp_out = os.path.join(tmp_dir, ...)`)? A command line names what it
    writes last (`cp a b`, a converter's output); what it names before is what it reads."""
    if not local.scratch or not call.args:
        return False
    first = call.args[0].value
    if type(first) not in (cst.List, cst.Tuple) or not first.elements:
        return False
    last = first.elements[-1]
    return type(last) is not cst.StarredElement and _names_scratch(last.value, set(local.scratch), aliases)


def _kept_store(receiver: str, shared: bool, local_containers: frozenset[str], aliases: AliasTable) -> bool:
    """Can `receiver.set(key, value)` be a key-value store's write: a client the module or the
    object keeps (`r.set(k, v)` on a module-level client, `self.kv.set(...)`), or one named for
    a store (`cache_client`)? A local or a parameter named otherwise is a value with attributes
    (`element.set("id", v)` on an XML element, `expr.set("limit", n)` on a parsed query)."""
    root = receiver.split(".")[0]
    if root in local_containers or root in stdlib_roots(aliases):
        return False
    return shared or store_like(receiver.split(".")[-1])


def handed_call(call: cst.Call) -> cst.Call | None:
    """The call a thread runner makes of the function it is handed (`to_thread(save, p)` ->
    `save(p)`, `run_in_executor(None, save, p)` -> `save(p)`), None for any other call."""
    func = call.func
    last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
    position = fx.RUNS_GIVEN_FUNCTION.get(last)
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if position is None or len(positional) <= position or type(positional[position].value) in (cst.Lambda, cst.Call):
        return None
    rest = [a for a in call.args if a is not positional[position] and a not in positional[:position]]
    return cst.Call(func=positional[position].value, args=rest)


def _computing_endpoint(call: cst.Call, position: int = 0) -> bool:
    """Is the call's URL (its argument at `position`, a literal or f-string) one of an endpoint
    named for a computation (effects.COMPUTING_ENDPOINTS)?"""
    if len(call.args) <= position or any(a.keyword is not None for a in call.args[: position + 1]):
        return False
    value = call.args[position].value
    if type(value) is cst.FormattedString:
        text = "".join(part.value if type(part) is cst.FormattedStringText else "{}" for part in value.parts)
    else:
        text = literal_text(value) or ""
    return bool(fx.COMPUTING_ENDPOINTS.search(text.split("?", 1)[0] + "?"))


def _builds_worker(value: cst.BaseExpression, aliases: AliasTable) -> bool:
    """Is `value` a call that builds a thread or a process (`threading.Thread(target=f)`)?"""
    return type(value) is cst.Call and (aliases.resolve(value.func) or dotted(value.func) or "") in fx.WORKER_CLASSES


def _http_module(aliases: AliasTable, root: str) -> bool:
    """Is `root` an imported module whose name says HTTP (`post` of such a module sends)?"""
    qual = aliases.aliases.get(root)
    return qual is not None and "." not in qual and bool(fx.HTTP_RECEIVER.search(qual))


@lru_cache(maxsize=8192)
def _may_name_a_mutation(last: str) -> bool:
    """Can a call whose function is named `last` be one of the mutations below?"""
    return (
        last in _FILE_WRITE_NAMES
        or last in _NAMED_MUTATIONS
        or bool(fx.REQUEST_WRAPPER.search(last))
        or verb_of(last) is not None
    )


def _verb_argument(call: cst.Call) -> str | None:
    """The HTTP write verb a call is given as a string: first argument in capitals
    (`_tracker("POST", path)`), any case to a function named for requests (`self._request("patch",
    url)`), or as `method=`/`verb=`."""
    func = call.func
    last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
    if not call.args or last in fx.NOT_SENDERS:
        return None
    first = call.args[0]
    if first.keyword is None and type(first.value) is cst.SimpleString:
        verb = literal_text(first.value)
        if verb and verb.lower() in fx.HTTP_WRITE_VERBS and (fx.REQUEST_WRAPPER.search(last) or (verb.isupper() and _then_a_location(call))):
            if verb.lower() == "post" and _computing_endpoint(call, 1):
                return None  # `request("POST", "/tml/export", ...)`: asks for a result
            return verb
    for argument in call.args:
        if argument.keyword is not None and argument.keyword.value in fx.VERB_KEYWORDS:
            verb = literal_text(argument.value)
            if verb and verb.lower() in fx.HTTP_WRITE_VERBS:
                return verb
    return None


def _then_a_location(call: cst.Call) -> bool:
    """Is the argument after the verb a path or URL (`"/issues"`, `f"{BASE}/x"`, `url`)? Then
    `_tracker("POST", path)` sends a request; `check_permission("DELETE", resource)` does not."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if len(positional) < 2:
        return False
    where = positional[1]
    text = literal_text(where)
    if text is None and type(where) is cst.FormattedString:
        return True
    if text is not None:
        return text.startswith(("/", "http")) or "/" in text
    name = last_name(dotted(where) or "")
    return bool(fx.LOCATION_NAMES.search(name))


def _sends_built_request(call: cst.Call, local: LocalHandles) -> MutationKind | None:
    """`urlopen(req)`, `session.send(req)`, `req.send()` for a request built with a write verb."""
    func = call.func
    last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
    if not fx.REQUEST_SENDERS.search(last):
        return None
    # A builder chain: `http.new().method("POST").url(u).send()`.
    inner = func.value if type(func) is cst.Attribute else None
    while type(inner) in (cst.Call, cst.Attribute):
        if type(inner) is cst.Call:
            if type(inner.func) is cst.Attribute and inner.func.attr.value in fx.VERB_SETTERS and inner.args:
                verb = literal_text(inner.args[0].value)
                if verb and verb.lower() in fx.HTTP_WRITE_VERBS:
                    return MutationKind(f"sends an HTTP {verb.upper()}", effect=Effect.HTTP)
            inner = inner.func
        else:
            inner = inner.value
    if not local.write_requests:
        return None
    names = [a.value.value for a in call.args if type(a.value) is cst.Name]
    if type(func) is cst.Attribute and type(func.value) is cst.Name:
        names.append(func.value.value)
    for name in names:
        verb = local.request_verb(name)
        if verb is not None:
            return MutationKind(f"sends an HTTP {verb.upper()}", effect=Effect.HTTP)
    return None


def statement_text(expr: cst.BaseExpression, local: LocalHandles) -> str | None:
    """The text of a SQL statement as far as it is written: a literal, a local holding one, an
    f-string's or a concatenation's literal start, a composed statement (`sql.SQL("DELETE FROM
    {}").format(...)`, `text("UPDATE ...")`)."""
    while True:
        if type(expr) is cst.Name:
            return local.sql_of(expr.value)
        text = literal_text(expr)
        if text is not None:
            return text
        if type(expr) is cst.FormattedString:
            return "".join(p.value for p in expr.parts if type(p) is cst.FormattedStringText) or None
        if type(expr) is cst.BinaryOperation and type(expr.operator) is cst.Add:
            expr = expr.left
            continue
        if type(expr) is cst.Call:
            func = expr.func
            if type(func) is cst.Attribute and func.attr.value == "format":
                expr = func.value  # `"...".format(...)`, `sql.SQL("...").format(...)`
                continue
            if last_name(dotted(func) or "") in fx.SQL_COMPOSERS and expr.args:
                expr = expr.args[0].value
                continue
        return None


def _read_only_command(call: cst.Call) -> bool:
    """Does the subprocess run a command that only reports (`git status`, `git rev-parse`)?"""
    if not call.args:
        return False
    first = call.args[0].value
    argv: list[str] = []
    if type(first) in (cst.List, cst.Tuple):
        for element in first.elements:
            text = literal_text(element.value)
            if text is None:
                break
            argv.append(text)
    else:
        text = literal_text(first)
        if text is not None:
            argv = text.split()
        elif call.args[0].keyword is None and len(call.args) > 1 and all(a.keyword is None for a in call.args[:2]):
            # `create_subprocess_exec("git", "status", ...)`: the words are the arguments.
            for argument in call.args:
                text = literal_text(argument.value) if argument.keyword is None else None
                if text is None:
                    break
                argv.append(text)
    if not argv:
        return False
    if len(argv) >= 2 and argv[1] in fx.VERSION_FLAGS:
        return True
    return any(tuple(argv[: len(prefix)]) == prefix for prefix in fx.READ_ONLY_COMMANDS)


def _keyword_true(call: cst.Call, keyword: str) -> bool:
    return any(a.keyword is not None and a.keyword.value == keyword and type(a.value) is cst.Name and a.value.value == "True" for a in call.args)


def _positional_count(call: cst.Call) -> int:
    return sum(1 for a in call.args if a.keyword is None and not a.star)


def _client_factory(value: cst.BaseExpression) -> bool:
    """Is `value` a call that hands out a client (`connect(dsn)`, `Cache.from_url(u)`)?"""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is not cst.Call:
        return False
    func = value.func
    last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
    return bool(fx.CLIENT_FACTORIES.match(last))


def module_level_handles(module: cst.Module) -> frozenset[str]:
    """Module-level names bound to a client from a factory (`cache = Cache.from_url(URL)`)."""
    return frozenset(name for name, value in _module_assignments(module) if value is not None and _client_factory(value))


def local_handles(fn: FunctionFacts, module_names: set[str], aliases: AliasTable, module_handles: frozenset[str] = frozenset()) -> LocalHandles:
    """LocalHandles of a function, from its locals assigned once (and the module's clients)."""
    state: set[str] = set()
    handles: set[str] = set()
    clients: set[str] = set(module_handles)
    sql: list[tuple[str, str]] = []
    requests: list[tuple[str, str]] = []
    workers: set[str] = set()
    own = fn.local_names.difference(fn.params)
    for name, value in fn.single_assignments.items():
        if name not in own:
            continue
        while type(value) is cst.Await:
            value = value.expression
        text = literal_text(value) if type(value) in (cst.SimpleString, cst.ConcatenatedString) else None
        if text is None and type(value) in (cst.Call, cst.FormattedString, cst.BinaryOperation):
            text = statement_text(value, NO_LOCALS)
        if text is not None and fx.SQL_WRITE.search(text):
            sql.append((name, text))
            continue
        if type(value) is cst.IfExp and any(_names_state(branch, module_names) for branch in (value.body, value.orelse)):
            state.add(name)  # `target = DONE if ok else FAILED`: the state one choice names
            continue
        if type(value) is cst.Subscript:
            if _names_state(value, module_names):
                state.add(name)  # `note = NOTES[i]`
            continue
        if type(value) is not cst.Call:
            continue
        if _client_factory(value):
            clients.add(name)  # `r = Cache.from_url(u)`: a client, whatever its name
            continue
        if _builds_worker(value, aliases):
            workers.add(name)  # `t = threading.Thread(target=serve)`
            continue
        func = value.func
        last = func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""
        verb = _verb_argument(value)
        if verb is not None and fx.REQUEST_BUILDER.match(last):
            requests.append((name, verb))
            continue
        if type(func) is cst.Attribute:
            receiver = chain(func.value) or ""
            root = receiver.split(".")[0]
            if last in fx.ALIAS_GETTERS and root in module_names and not fx.BOOKKEEPING.search(root):
                state.add(name)  # `note = NOTES.get(i)`: the item itself, changed in place
            elif fx.HANDLE_GETTERS.match(last) or (root in handles and last not in {"get", "find", "query", "search"}):
                handles.add(name)  # `col = client.get_collection(n)`
            continue
    if fn.has_item_assignment or any(type(c.node.func) is cst.Attribute and c.node.func.attr.value in fx.VERB_SETTERS for c in fn.calls):
        requests.extend(_verbs_set(fn.node.body))
    documents, parts = _in_memory_documents(fn, own, aliases)
    return LocalHandles(
        frozenset(state), frozenset(handles), tuple(sql), tuple(requests), documents, parts, _stream_parameters(fn), _created_here(fn, own), frozenset(clients), frozenset(workers),
        _scratch(fn, own, aliases), _file_handles(fn, own),
    )


def _names_state(value: cst.BaseExpression, module_names: set[str]) -> bool:
    """Is the value module state or an item of it (`NOTES`, `NOTES[i]`), not a cache or lock?"""
    if type(value) not in (cst.Name, cst.Subscript):
        return False
    root = chain(value)
    return bool(root) and root.split(".")[0] in module_names and not fx.BOOKKEEPING.search(root or "")


def _file_handles(fn: FunctionFacts, own: set[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Locals every store of which opens a file for writing, with the file each names."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for name, stores in fn.stores.items():
        if name not in own or not stores:
            continue
        files: set[str] = set()
        for store in stores:
            opened = _opened_for_writing(store.value) if store.slot is None and not store.element else None
            if opened is None:
                break
            files.update(opened)
        else:
            found.append((name, tuple(sorted(files))))
    return tuple(found)


def _opened_for_writing(value: cst.BaseExpression) -> tuple[str, ...] | None:
    """The file `open(p, "w")` / `p.open("wb")` / an archive opened for writing names (as FILE
    chains), None for anything else."""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is not cst.Call:
        return None
    func = value.func
    if dotted(func) in fx.ARCHIVE_WRITERS and value.args and value.args[0].keyword is None:
        # `zipfile.ZipFile(p, "w")`, `tarfile.open(p, mode="w:gz")`: what is added through it is
        # written into p.
        given = [a for a in value.args[1:] if a.keyword is None][:1] + [a for a in value.args if a.keyword is not None and a.keyword.value == "mode"]
        mode, target = (literal_text(given[0].value) if given else None), value.args[0].value
    elif type(func) is cst.Name and func.value == "open" and len(value.args) >= 2 and value.args[1].keyword is None:
        mode, target = literal_text(value.args[1].value), value.args[0].value
    elif type(func) is cst.Attribute and func.attr.value == "open" and value.args and value.args[0].keyword is None:
        mode, target = literal_text(value.args[0].value), func.value
    else:
        return None
    if not mode or not any(c in mode for c in "wxa+"):
        return None
    return tuple(FILE + r for r in read_names(target))


def _scratch(fn: FunctionFacts, own: set[str], aliases: AliasTable) -> frozenset[str]:
    """Locals naming the call's scratch: a temporary file or directory (`tmp = mkdtemp()`,
    `fd, path = tempfile.mkstemp()`, `work = self._temp_dir()`: a project helper named for one),
    paths under it and handles opened on them (`os.path.join(tmp, "a.xml")`, `tmp / "a.xml"`, `Path(tmp, "a.xml")`)."""
    scratch = {name for name, made_by in fn.local_types.items() if name in own and made_by in fx.SCRATCH_FACTORIES}
    candidates = [(name, stores) for name, stores in fn.stores.items() if name in own and name not in scratch and stores]
    changed = True
    while changed:  # a path under the scratch may be assigned before the line that makes it known
        changed = False
        for name, stores in candidates:
            # `tmp = None` first, the scratch path made on one branch: still only scratch.
            made = [s for s in stores if not _is_none(s.value)]
            if name not in scratch and made and all(s.slot is None and not s.element and _names_scratch(s.value, scratch, aliases) for s in made):
                scratch.add(name)
                changed = True
    return frozenset(scratch)


def _is_none(value: cst.BaseExpression) -> bool:
    """`x = None`: a placeholder before the value, on another path."""
    return type(value) is cst.Name and value.value == "None"


def _names_scratch(value: cst.BaseExpression, scratch: set[str], aliases: AliasTable) -> bool:
    """Does the value make a temporary file or directory, or name a path under one?"""
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is cst.BinaryOperation and type(value.operator) is cst.Divide:
        return _names_scratch(value.left, scratch, aliases)  # `tmp / "a.xml"`
    if type(value) is cst.Name:
        return value.value in scratch
    if type(value) is cst.FormattedString and value.parts and type(value.parts[0]) is cst.FormattedStringExpression:
        return _names_scratch(value.parts[0].expression, scratch, aliases)  # f"{tmp}/a.xml"
    if type(value) is not cst.Call:
        return False
    name = aliases.resolve(value.func) or dotted(value.func) or ""
    if name in fx.SCRATCH_FACTORIES or name in fx.MEMORY_STREAMS:
        return True
    last = last_name(name) if name else (value.func.attr.value if type(value.func) is cst.Attribute else "")
    first = next((a.value for a in value.args if a.keyword is None and not a.star), None)
    if last[:1].isupper() and last not in fx.PATH_JOINERS and first is not None and type(first) is cst.Name and first.value in scratch:
        return True  # `Canvas(buf, ...)`, `ZipFile(tmp, "w")`: an object that writes into the scratch it was built on
    if last in {"joinpath", "open"} and type(value.func) is cst.Attribute:
        return _names_scratch(value.func.value, scratch, aliases)  # `tmp.joinpath("a.xml")`
    if last in fx.PATH_JOINERS or last == "open":  # `open(tmp_path, "w")`: a handle on it
        first = next((a.value for a in value.args if a.keyword is None and not a.star), None)
        return first is not None and _names_scratch(first, scratch, aliases)  # `os.path.join(tmp, ...)`
    return any(word in fx.SCRATCH_WORDS for word in identifier_words(last))  # `create_temp_dir()`


def _created_here(fn: FunctionFacts, own: set[str]) -> frozenset[str]:
    """Locals holding an object this call made: built by a class (`job = Job(...)`, not a client
    or other handle) or returned by an add/create call (`chart = charts.Add(...)`)."""
    created = set()
    for name, value in fn.single_assignments.items():
        while type(value) is cst.Await:
            value = value.expression
        if name not in own or type(value) is not cst.Call or store_like(name) or fx.HTTP_RECEIVER.search(name):
            continue
        last = last_name(dotted(value.func) or "") if dotted(value.func) else (value.func.attr.value if type(value.func) is cst.Attribute else "")
        parts = identifier_words(last)
        if not parts or any(part in fx.HANDLE_WORDS for part in (*parts, *identifier_words(name))):
            continue
        if (last[:1].isupper() and len(parts) == 1 and parts[0] not in fx.CREATION_WORDS) or parts[0] in fx.CREATION_WORDS:
            created.add(name)
    return frozenset(created)


def _undoes_own_object(call: cst.Call, root: str, created: frozenset[str]) -> bool:
    """`obj.delete()` on an object this call made, or `container.remove(obj)` of one."""
    if not call.args:
        return root in created
    return len(call.args) == 1 and type(call.args[0].value) is cst.Name and call.args[0].value.value in created


def _stream_parameters(fn: FunctionFacts) -> frozenset[str]:
    """Parameters annotated as a stream (`out: TextIO`, `sink: IO[str]`)."""
    params = fn.node.params
    streams = set()
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.annotation is None:
            continue
        annotation = param.annotation.annotation
        if type(annotation) is cst.Subscript:
            annotation = annotation.value
        if last_name(dotted(annotation) or "") in fx.STREAM_TYPES:
            streams.add(param.name.value)
    return frozenset(streams)


def _in_memory_documents(fn: FunctionFacts, own: set[str], aliases: AliasTable) -> tuple[frozenset[str], frozenset[str]]:
    """(documents, parts): locals holding a document this call loaded into memory or built new
    (`wb = load_workbook(p)`, `prs = Presentation(t) if t else Presentation()` on two branches),
    and the parts taken from one (`ws = wb[name]`, `ws = wb.active`, `ws = wb.create_sheet(n)`)."""
    documents: set[str] = set()
    parts: set[str] = set()
    for name, stores in fn.stores.items():
        if name in own and name not in fn.single_assignments and len(stores) > 1:
            values = [s.value for s in stores if s.statement is not None and s.slot is None and s.position is None and not s.element]
            if len(values) == len(stores) and all(_makes_document(v, aliases) for v in values):
                documents.add(name)  # loaded on one branch, built new on the other
    changed = True
    while changed:  # a part may be assigned before the line that makes its source known
        changed = False
        for name, value in fn.single_assignments.items():
            if name not in own or name in documents or name in parts:
                continue
            while type(value) is cst.Await:
                value = value.expression
            if _makes_document(value, aliases):
                documents.add(name)  # `wb = load_workbook(p)`, `tree = etree.parse(p)`, `wb = Workbook()`
                changed = True
                continue
            source = value.func if type(value) is cst.Call else value
            if type(source) in (cst.Subscript, cst.Attribute) and (chain(source) or "").split(".")[0] in documents | parts:
                parts.add(name)
                changed = True
    if documents:
        parts.update(_loop_parts(fn, own, documents | parts))
    return frozenset(documents), frozenset(parts)


def _loop_parts(fn: FunctionFacts, own: set[str], held: set[str]) -> set[str]:
    """Loop names over a part of an in-memory document (`for page in reader.pages`,
    `for i, page in enumerate(reader.pages)`): each is a part of it, edited in memory."""
    found: set[str] = set()
    for node in descendants(fn.node.body, into_scopes=False):
        if type(node) is not cst.For:
            continue
        source = node.iter
        if type(source) is cst.Call and dotted(source.func) == "enumerate" and source.args:
            source = source.args[0].value
        if type(source) not in (cst.Attribute, cst.Subscript, cst.Name) or (chain(source) or "").split(".")[0] not in held:
            continue
        target = node.target
        if type(target) is cst.Tuple and type(node.iter) is cst.Call:
            target = target.elements[-1].value  # `for i, page in enumerate(...)`
        if type(target) is cst.Name and target.value in own:
            found.add(target.value)
    return found


def _makes_document(value: cst.BaseExpression, aliases: AliasTable | None = None) -> bool:
    """Does the value load a document into memory or build a new one (`load_workbook(p)`,
    `Workbook()`, a third-party library's `open(p)`)?"""
    while type(value) is cst.Await:
        value = value.expression
    made_by = last_name(dotted(value.func) or "") if type(value) is cst.Call else ""
    if made_by == "open" and aliases is not None and type(value) is cst.Call:
        return _library_open(value, aliases)
    return bool(made_by) and bool(fx.DOCUMENT_LOADERS.match(made_by) or fx.DOCUMENT_NEW.match(made_by))


def _library_open(call: cst.Call, aliases: AliasTable) -> bool:
    """`lib.open(path)` of an imported third-party module, with no write mode: it hands back the
    document or image it read (the standard library's `open`s hand back files and streams)."""
    func = call.func
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return False
    module = aliases.aliases.get(func.value.value)
    if module is None or module.split(".")[0] in sys.stdlib_module_names:
        return False
    for argument in call.args:
        text = literal_text(argument.value) if type(argument.value) in (cst.SimpleString, cst.ConcatenatedString) else None
        keyword = argument.keyword.value if argument.keyword is not None else ""
        if text is not None and (keyword == "mode" or (not keyword and 0 < len(text) <= 3)) and any(c in text for c in "wax+"):
            return False  # `lib.open(p, "w")`: a handle to write through
    return True


def _verbs_set(body: cst.BaseSuite) -> list[tuple[str, str]]:
    """(local, verb) of a write verb set on a built request: `req.method = "POST"`,
    `req.set_method("PATCH")` as a statement of its own."""
    out: list[tuple[str, str]] = []
    for node in walk_statements(body):
        if type(node) is not cst.SimpleStatementLine:
            continue
        for small in node.body:
            target = value = None
            if type(small) is cst.Assign and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
                if not (type(target) is cst.Attribute and target.attr.value in fx.VERB_SETTERS):
                    continue
                target = target.value
            elif type(small) is cst.Expr and type(small.value) is cst.Call:
                call = small.value
                if not (type(call.func) is cst.Attribute and call.func.attr.value in fx.VERB_SETTERS and call.args):
                    continue
                target, value = call.func.value, call.args[0].value
            verb = literal_text(value) if value is not None else None
            if type(target) is cst.Name and verb and verb.lower() in fx.HTTP_WRITE_VERBS:
                out.append((target.value, verb))
    return out


def walk_statements(body: cst.BaseSuite, handlers: bool = True) -> list[cst.CSTNode]:
    """Every statement of a body, nested blocks included, not nested functions or classes (nor
    `except` clauses' bodies when `handlers` is False)."""
    out: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = list(body.body) if type(body) is cst.IndentedBlock else []
    while stack:
        stmt = stack.pop()
        out.append(stmt)
        if type(stmt) in (cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef):
            continue
        for attribute in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, attribute, None)
            if type(inner) is cst.If:
                stack.append(inner)
            elif inner is not None:
                block = getattr(inner, "body", None)
                block = getattr(block, "body", block)
                if isinstance(block, (list, tuple)):
                    stack.extend(block)
        for part in (*(getattr(stmt, "handlers", ()) if handlers else ()), *getattr(stmt, "cases", ())):
            stack.extend(part.body.body if type(part.body) is cst.IndentedBlock else ())
    return out


_STDLIB_ROOTS: weakref.WeakKeyDictionary[AliasTable, frozenset[str]] = weakref.WeakKeyDictionary()


def stdlib_roots(aliases: AliasTable) -> frozenset[str]:
    """Local names of imported standard-library modules (`asyncio`, `os`): their verbs are not
    the project's state (the file operations among them are listed in _FILE_WRITES). Once per
    module: its imports are all known when the rules run."""
    roots = _STDLIB_ROOTS.get(aliases)
    if roots is None:
        roots = _STDLIB_ROOTS[aliases] = frozenset(
            local for local, qual in aliases.aliases.items() if qual.split(".")[0] in sys.stdlib_module_names
        )
    return roots


# Marks a path a file operation changed: `if not dst.endswith(".md")` reads the name, not the
# file; only a call given the name (`os.path.exists(dst)`, `load(dst)`) reads what changed.
FILE = "\x00"
# Marks what a subprocess changed: any file; every read of the file system reads it back.
FILE_ANY = FILE + "*"
# Marks a name a call looking at the file system was given (or its receiver).
FS = "\x01"


def argument_chains(call: cst.Call, positions: tuple[int, ...]) -> tuple[str, ...]:
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    out = []
    for index in positions:
        if index < len(positional):
            out.extend(FILE + r for r in read_names(positional[index]))
    return tuple(out)



def read_names(node: cst.CSTNode) -> list[str]:
    """Dotted names an expression reads (`self.conn`, `args`, `x` of `x[k]`), outermost chains."""
    out: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if type(current) in (cst.Name, cst.Attribute):
            chain = dotted(current)
            if chain is not None:
                if chain not in _CONSTANTS:
                    out.append(chain)
                continue
            if type(current) is cst.Attribute:
                stack.append(current.value)  # f(x).y: read f(x)
                continue
        if type(current) in (cst.Lambda, cst.FunctionDef, cst.ClassDef):
            continue
        if type(current) is cst.Arg:
            stack.append(current.value)  # not the keyword's name
            continue
        stack.extend(children(current))
    return out


def module_level_names(module: cst.Module) -> set[str]:
    """Names bound by assignments at module level: state shared by every call of a tool."""
    return {name for name, _ in _module_assignments(module)}


def _module_assignments(module: cst.Module) -> Iterator[tuple[str, cst.BaseExpression | None]]:
    """(name, value) of each plain name a module-level assignment binds."""
    for stmt in module.body:
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if type(small) is cst.Assign:
                    for target in small.targets:
                        if type(target.target) is cst.Name:
                            yield target.target.value, small.value
                elif type(small) is cst.AnnAssign and type(small.target) is cst.Name:
                    yield small.target.value, small.value
