"""MCP004 mutation-before-validation: a tool mutates state, then rejects the call."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.model.facts import FunctionFacts, literal_text
from mcp_lint.model.names import AliasTable, dotted, last_name
from mcp_lint.model.summary import Latent
from mcp_lint.rules.base import (
    Example,
    FileContext,
    ReachContext,
    Rendered,
    Rule,
    indent_of,
    latent_fix,
    walk,
)
from mcp_lint.rules.results import classify_return, is_error_result

_SQL_WRITE = re.compile(r"^\s*(?:insert|update|delete|replace|merge|upsert|create|drop|alter|truncate)\b", re.I)
_HTTP_WRITE = frozenset({"post", "put", "patch", "delete"})
_WRITE_METHOD = re.compile(
    r"^(?:create|update|delete|remove|insert|upsert|put|post|patch|send|upload|write|save|commit|publish|"
    r"enqueue|submit|transfer|charge|refund|cancel|drop|destroy|archive|move|rename|set|add|execute_write)(?:_|$)",
    re.I,
)
_SAFE_RECEIVERS = frozenset({"logger", "logging", "log", "ctx", "context", "self.logger", "self.log", "print", "console", "st"})
_FILE_WRITES = frozenset(
    {
        "os.remove", "os.unlink", "os.rmdir", "os.removedirs", "os.rename", "os.replace", "os.makedirs", "os.mkdir",
        "os.system", "shutil.rmtree", "shutil.move", "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree",
        "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen",
        "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "requests.post", "requests.put",
        "requests.patch", "requests.delete", "httpx.post", "httpx.put", "httpx.patch", "httpx.delete",
    }
)
_PATH_WRITES = frozenset({"write_text", "write_bytes", "unlink", "rmdir", "touch", "mkdir", "rename", "replace", "symlink_to"})
_CONTAINER_WRITES = frozenset({"append", "extend", "insert", "pop", "clear", "update", "setdefault", "add", "discard", "remove", "popitem"})
_PURE_CALLS = frozenset({"len", "isinstance", "str", "int", "float", "bool", "any", "all", "min", "max", "abs", "sorted", "set", "list", "tuple", "dict", "type", "getattr", "hasattr", "re.match", "re.fullmatch", "re.search"})
_PURE_METHODS = frozenset({"strip", "lower", "upper", "isdigit", "isalnum", "isalpha", "startswith", "endswith", "match", "fullmatch", "search", "get", "keys", "values", "items", "count", "split"})


@dataclass
class _Mutation:
    statement: cst.BaseStatement
    description: str
    targets: set[str]


def mutation_of(call: cst.Call, aliases: AliasTable, module_names: set[str]) -> str | None:
    """A few words on what a call mutates, or None when it does not look like a mutation."""
    name = dotted(call.func) or ""
    resolved = aliases.resolve(call.func) or name
    if resolved in _FILE_WRITES or name in _FILE_WRITES:
        if "subprocess" in resolved or resolved == "os.system":
            return "runs a subprocess"
        if resolved.split(".")[0] in {"requests", "httpx"}:
            return f"sends an HTTP {last_name(resolved).upper()}"
        return f"changes files ({last_name(resolved)})"
    if name == "open" and len(call.args) >= 2:
        mode = literal_text(call.args[1].value) if call.args[1].keyword is None else None
        if mode and any(c in mode for c in "wax+"):
            return "writes a file"
        return None
    if not isinstance(call.func, cst.Attribute):
        return None
    method = call.func.attr.value
    receiver = dotted(call.func.value) or ""
    if receiver in _SAFE_RECEIVERS or receiver.split(".")[0] in {"logger", "logging", "log", "ctx", "context"}:
        return None
    if method in {"execute", "executemany", "executescript"} and call.args:
        sql = literal_text(call.args[0].value)
        if sql is not None and _SQL_WRITE.search(sql):
            return f"writes to the database ({sql.split()[0].upper()})"
        return None
    if method == "commit":
        return "commits a database transaction"
    if method in _HTTP_WRITE and receiver and receiver.split(".")[-1] in {"client", "session", "http", "requests", "httpx", "api", "_client", "http_client", "async_client"}:
        return f"sends an HTTP {method.upper()}"
    if method == "request" and call.args:
        verb = literal_text(call.args[0].value)
        if verb and verb.lower() in _HTTP_WRITE:
            return f"sends an HTTP {verb.upper()}"
        return None
    if method in _PATH_WRITES and (receiver or _is_path_call(call.func.value)):
        return f"changes files ({method})"
    root = receiver.split(".")[0]
    if method in _CONTAINER_WRITES and root in module_names:
        return f"changes module-level state ({receiver}.{method})"
    if _WRITE_METHOD.match(method) and receiver not in {"", "self", "cls"} and root not in module_names and method not in {"add", "set", "update", "remove", "move"}:
        return f"calls {receiver}.{method}()"
    if _WRITE_METHOD.match(method) and receiver and root in module_names and method not in _CONTAINER_WRITES:
        return f"calls {receiver}.{method}()"
    return None


def module_level_names(module: cst.Module) -> set[str]:
    """Names bound by assignments at module level: state shared by every call of a tool."""
    names: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            names.add(target.target.value)
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.add(small.target.value)
    return names


def _is_path_call(expr: cst.BaseExpression) -> bool:
    """`Path(p)` / `pathlib.Path(p)`: method calls on it act on the file system."""
    return isinstance(expr, cst.Call) and last_name(dotted(expr.func) or "") in {"Path", "PurePath", "PosixPath"}


def _mutated_receivers(stmt: cst.CSTNode, aliases: AliasTable, module_names: set[str]) -> set[str]:
    """Root names of the objects a statement's mutating calls act on (what it may change)."""
    out: set[str] = set()
    for node in walk(stmt):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            base = dotted(node.func.value)
            if base and mutation_of(node, aliases, module_names) is not None:
                out.add(base.split(".")[0])
    return out


def _bound_names(target: cst.BaseExpression) -> set[str]:
    """Names an assignment target binds or changes: `x`, `(a, b)`, and the root of `X[k]`/`x.y`
    (not the names used in the index)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {n for el in target.elements for n in _bound_names(el.value)}
    if isinstance(target, cst.StarredElement):
        return _bound_names(target.value)
    base: cst.BaseExpression = target
    while isinstance(base, (cst.Subscript, cst.Attribute)):
        base = base.value
    return {base.value} if isinstance(base, cst.Name) else set()


def _names_read(node: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(node) if isinstance(n, cst.Name)}


class _Accumulated:
    """The union of `compute(stmt)` over the statements added so far, computed when asked."""

    def __init__(self, compute: Callable[[cst.CSTNode], set[str]], initial: Iterable[str] = ()) -> None:
        self._compute = compute
        self._names = set(initial)
        self._pending: list[cst.CSTNode] = []

    def add(self, stmt: cst.CSTNode) -> None:
        self._pending.append(stmt)

    def names(self) -> set[str]:
        for stmt in self._pending:
            self._names |= self._compute(stmt)
        self._pending.clear()
        return self._names


def _names_assigned(stmt: cst.CSTNode) -> set[str]:
    out: set[str] = set()
    for node in walk(stmt):
        targets: Sequence[cst.BaseExpression] = ()
        if isinstance(node, cst.Assign):
            targets = [t.target for t in node.targets]
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            targets = [node.target]
        elif isinstance(node, (cst.For, cst.CompFor)):
            targets = [node.target]
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            targets = [node.asname.name]
        elif isinstance(node, cst.NamedExpr):
            targets = [node.target]
        for target in targets:
            out |= _bound_names(target)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            # x.append(...) / x.update(...) mutate x
            base = dotted(node.func.value)
            if base and node.func.attr.value in _CONTAINER_WRITES:
                out.add(base.split(".")[0])
    return out


def _is_pure(expr: cst.CSTNode) -> bool:
    for node in walk(expr):
        if isinstance(node, cst.Call):
            name = dotted(node.func) or ""
            if name in _PURE_CALLS:
                continue
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in _PURE_METHODS:
                continue
            return False
        if isinstance(node, cst.Await):
            return False
    return True


def _rejects(stmt: cst.If, ctx: FileContext) -> bool:
    """Does the `if` body end the call with an error (raise, or return of a failure)?"""
    for inner in stmt.body.body:
        if isinstance(inner, cst.SimpleStatementLine):
            for small in inner.body:
                if isinstance(small, cst.Raise) and small.exc is not None:
                    return True
                if isinstance(small, cst.Return) and small.value is not None:
                    if classify_return(small.value, ctx, conditional=True) is not None or is_error_result(small.value, ctx):
                        return True
    return False


def _sequence(body: Sequence[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    """The statements of a body in order, looking into with/try blocks that run unconditionally."""
    for stmt in body:
        if isinstance(stmt, cst.With):
            yield from _sequence(stmt.body.body)
        elif isinstance(stmt, cst.Try):
            yield from _sequence(stmt.body.body)
        else:
            yield stmt


class MutationBeforeValidation(Rule):
    code = "MCP004"
    name = "mutation-before-validation"

    INVALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    db.commit()
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    return "updated"
""",
            flagged=(10,),
            fixed="""\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    db.commit()
    return "updated"
""",
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    cur = db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    if cur.rowcount == 0:
        raise ToolError(f"No stock row for sku {sku!r}; call list_skus")
    db.commit()
    return "updated"
"""
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        body = fn.node.body
        if not isinstance(body, cst.IndentedBlock):
            return
        # Cheap exits first: a rejecting check is a conditional raise/return, and something must
        # mutate (a call the table recognises, or an item/attribute assignment).
        if not any(r.conditions for r in fn.raises) and not any(r.conditions for r in fn.returns):
            return
        module_names = ctx.memo.get("module_names")
        if module_names is None:
            module_names = ctx.memo["module_names"] = module_level_names(ctx.module) | {
                n.split(".")[-1] for n in ctx.model.servers
            }
        if not fn.has_item_assignment and not any(
            mutation_of(c.node, ctx.model.aliases, module_names) is not None for c in fn.calls
        ):
            return
        # The body itself, and each branch of a low-level dispatcher (`if name == "put_note":`),
        # which is a tool of its own.
        for statements, block in _sequences(body):
            found = self._check_sequence(fn, ctx, statements, block, module_names)
            if found is not None:
                yield found

    def _check_sequence(
        self, fn: FunctionFacts, ctx: FileContext, statements: list[cst.BaseStatement], block: cst.IndentedBlock, module_names: set[str]
    ) -> Latent | None:
        first: _Mutation | None = None
        first_index = -1
        # What the statements before the mutation assign, what those after it assign, and what
        # they mutate: needed only at a rejecting check, which most functions never reach, so
        # each statement is walked for them only then (lazily, once).
        assigned_before = _Accumulated(_names_assigned, fn.params)
        assigned_since = _Accumulated(_names_assigned)
        mutated = _Accumulated(lambda stmt: _mutated_receivers(stmt, ctx.model.aliases, module_names))
        for index, stmt in enumerate(statements):
            if first is None:
                description = self._mutation_in(stmt, ctx, module_names)
                if description is not None:
                    first = _Mutation(stmt, description, _names_assigned(stmt))
                    first_index = index
                    assigned_since = _Accumulated(_names_assigned, first.targets)
                    mutated.add(stmt)
                else:
                    assigned_before.add(stmt)
                continue
            if isinstance(stmt, cst.If) and _rejects(stmt, ctx):
                read = _names_read(stmt.test)
                # Depends on the mutation's result or on what it changed: a post-check, fine.
                if read & (assigned_since.names() | mutated.names()) or not _is_pure(stmt.test):
                    assigned_since.add(stmt)
                    continue
                local_reads = read & assigned_before.names()
                module_reads = read & module_names
                if not local_reads and not module_reads:
                    assigned_since.add(stmt)
                    continue  # constants only: nothing the call could change
                return self._latent(ctx, fn, stmt, first, statements, first_index, index, assigned_since.names(), block)
            assigned_since.add(stmt)
            mutated.add(stmt)
        return None

    def _mutation_in(self, stmt: cst.BaseStatement, ctx: FileContext, module_names: set[str]) -> str | None:
        if isinstance(stmt, (cst.If, cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
            return None  # conditional or deferred: not a mutation that always runs first
        for node in walk(stmt):
            if isinstance(node, cst.Call):
                found = mutation_of(node, ctx.model.aliases, module_names)
                if found is not None:
                    return found
            if isinstance(node, (cst.Assign, cst.AugAssign)):
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, cst.Subscript) and dotted(target.value) and dotted(target.value).split(".")[0] in module_names:
                        return f"changes module-level state ({dotted(target.value)}[...])"
        return None

    def _latent(
        self,
        ctx: FileContext,
        fn: FunctionFacts,
        check: cst.If,
        first: _Mutation,
        statements,
        first_index: int,
        index: int,
        assigned_since: set[str],
        block: cst.IndentedBlock,
    ) -> Latent:
        mutation_row = ctx.range(first.statement).start.line
        data = {"mutation": first.description, "row": str(mutation_row)}
        fix_edits: tuple[Edit, ...] = ()
        movable = not (_names_read(check) & assigned_since) and _same_block(statements, first_index, index, block)
        # The same move is offered either way; when data flow or nesting makes it unsure, it is
        # only shown (display-only), never applied.
        check_range = ctx.range(check)
        first_range = ctx.range(first.statement)
        lines = ctx.lines[check_range.start.line - 1 : check_range.end.line]
        check_indent = indent_of(ctx, check)
        first_indent = indent_of(ctx, first.statement)
        moved = "".join(first_indent + line[len(check_indent) :] + "\n" if line.startswith(check_indent) else line + "\n" for line in lines)
        fix_edits = (
            Edit(Location(first_range.start.line, 1), Location(first_range.start.line, 1), moved),
            Edit(Location(check_range.start.line, 1), Location(check_range.end.line + 1, 1), ""),
        )
        return self.latent(
            ctx,
            check.test,
            variant="move" if movable else "manual",
            reach="tool",
            statement=check,
            data=data,
            fix_message="Move the check above the first mutation"
            + ("" if movable else " (check that nothing it reads is computed in between)"),
            fix_applicability=Applicability.UNSAFE if movable else Applicability.DISPLAY_ONLY,
            fix_edits=fix_edits,
        )

    def render(self, latent: Latent, reach: ReachContext) -> Rendered | None:
        message = (
            f"{reach.subject} rejects the call here after it already {latent.get('mutation')} (line {latent.get('row')}): "
            "the model sees a failure but the change stays applied, and a retry applies it twice; check before mutating"
        )
        return Rendered(message, latent_fix(latent))


def _same_block(statements, first_index: int, index: int, block: cst.IndentedBlock) -> bool:
    """Both statements sit directly in the same block (same indentation), so lines can move."""
    direct = {id(s) for s in block.body}
    return id(statements[first_index]) in direct and id(statements[index]) in direct


def _sequences(body: cst.IndentedBlock) -> Iterator[tuple[list[cst.BaseStatement], cst.IndentedBlock]]:
    yield list(_sequence(body.body)), body
    for stmt in body.body:
        branch: cst.If | cst.Else | None = stmt if isinstance(stmt, cst.If) else None
        while isinstance(branch, cst.If) and _compares_to_string(branch.test):
            if isinstance(branch.body, cst.IndentedBlock):
                yield list(_sequence(branch.body.body)), branch.body
            branch = branch.orelse if isinstance(branch.orelse, cst.If) else None
        if isinstance(stmt, cst.Match):
            for case in stmt.cases:
                if isinstance(case.body, cst.IndentedBlock):
                    yield list(_sequence(case.body.body)), case.body


def _compares_to_string(test: cst.BaseExpression) -> bool:
    return isinstance(test, cst.Comparison) and any(
        isinstance(t.operator, cst.Equal) and isinstance(t.comparator, cst.SimpleString) for t in test.comparisons
    )
