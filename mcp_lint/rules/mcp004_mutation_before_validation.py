"""MCP004 mutation-before-validation: a tool mutates state, then rejects the call."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.model.facts import FunctionFacts, literal_text
from mcp_lint.model.names import AliasTable, dotted, last_name
from mcp_lint.model.summary import Latent
from mcp_lint.rules.base import Example, FileContext, ReachContext, Rendered, Rule, latent_fix, walk
from mcp_lint.rules.mcp005_error_returned_as_success import classify_return, is_error_result

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
    if method in _PATH_WRITES and receiver:
        return f"changes files ({method})"
    root = receiver.split(".")[0]
    if method in _CONTAINER_WRITES and root in module_names:
        return f"changes module-level state ({receiver}.{method})"
    if _WRITE_METHOD.match(method) and receiver and root not in {"self", "cls"} | module_names and method not in {"add", "set", "update", "remove", "move"}:
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


def _names_read(node: cst.CSTNode) -> set[str]:
    return {n.value for n in walk(node) if isinstance(n, cst.Name)}


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
            out |= {n.value for n in walk(target) if isinstance(n, cst.Name)}
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
        statements = list(_sequence(body.body))
        module_names = module_level_names(ctx.module) | {n.split(".")[-1] for n in ctx.model.servers}
        params = set(fn.params)
        first: _Mutation | None = None
        first_index = -1
        assigned_before: set[str] = set(params)
        assigned_since: set[str] = set()
        for index, stmt in enumerate(statements):
            if first is None:
                description = self._mutation_in(stmt, ctx, module_names)
                if description is not None:
                    first = _Mutation(stmt, description, _names_assigned(stmt))
                    first_index = index
                    assigned_since = set(first.targets)
                else:
                    assigned_before |= _names_assigned(stmt)
                continue
            if isinstance(stmt, cst.If) and _rejects(stmt, ctx):
                read = _names_read(stmt.test)
                local_reads = read & (assigned_before | assigned_since)
                if read & assigned_since:
                    assigned_since |= _names_assigned(stmt)
                    continue  # a post-check on the mutation's result
                if not _is_pure(stmt.test) or not local_reads <= assigned_before:
                    assigned_since |= _names_assigned(stmt)
                    continue
                if not (local_reads & params) and local_reads:
                    pass
                if not local_reads:
                    assigned_since |= _names_assigned(stmt)
                    continue  # depends on module state or constants only
                yield self._latent(ctx, fn, stmt, first, statements, first_index, index, assigned_since)
                return
            assigned_since |= _names_assigned(stmt)

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

    def _latent(self, ctx: FileContext, fn: FunctionFacts, check: cst.If, first: _Mutation, statements, first_index: int, index: int, assigned_since: set[str]) -> Latent:
        mutation_row = ctx.range(first.statement).start.line
        data = {"mutation": first.description, "row": str(mutation_row)}
        fix_edits: tuple[Edit, ...] = ()
        movable = not (_names_read(check) & assigned_since) and _same_block(statements, first_index, index, fn)
        if movable:
            check_range = ctx.range(check)
            first_range = ctx.range(first.statement)
            lines = ctx.lines[check_range.start.line - 1 : check_range.end.line]
            moved = "".join(line + "\n" for line in lines)
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
            fix_message="Move the check above the first mutation" if movable else "",
            fix_applicability=Applicability.UNSAFE if movable else None,
            fix_edits=fix_edits,
        )

    def render(self, latent: Latent, reach: ReachContext) -> Rendered | None:
        message = (
            f"{reach.subject} rejects the call here after it already {latent.get('mutation')} (line {latent.get('row')}): "
            "the model sees a failure but the change stays applied, and a retry applies it twice; check before mutating"
        )
        return Rendered(message, latent_fix(latent))


def _same_block(statements, first_index: int, index: int, fn: FunctionFacts) -> bool:
    """Both statements sit directly in the function body (same indentation), so lines can move."""
    body = fn.node.body
    if not isinstance(body, cst.IndentedBlock):
        return False
    direct = {id(s) for s in body.body}
    return id(statements[first_index]) in direct and id(statements[index]) in direct
