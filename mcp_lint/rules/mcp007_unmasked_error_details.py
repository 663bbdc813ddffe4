"""MCP007 unmasked-error-details: a server whose framework forwards the raw text of unexpected
exceptions to the model, with tools whose I/O no `try` handles.

Unlike the function-level rules it reports at a server constructor (`mcp = FastMCP("notes")`):
per file, `check` marks the first I/O calls of each function that no handler wraps (marker
latents, never rendered themselves) and `check_module` records each constructor (a `ServerSite`);
at link time `link` ties the tools registered on a server, in any module, to their first
unwrapped I/O, into helpers too, reads the project files that may turn masking on
(`LinkedProject.masks_by_config`: server_env.py), and renders one finding per server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Iterator

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Finding, Location, Related, help_for
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.call_args import keyword_values
from mcp_lint.model.facts import CallFact, FunctionFacts, TryGuard
from mcp_lint.model.frameworks import Family, FrameworkContext
from mcp_lint.model.library_tables import NARROW_BUILTIN_ERRORS
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.summary import FunctionSummary, Latent, ModuleSummary, Payload
from mcp_lint.model.walk import descendants
from mcp_lint.rules.base import Example, FileContext, FixSpec, LinkedProject, RenderContext, Rendered, Rule
from mcp_lint.rules.plain_raises import plain_raises


@dataclass(frozen=True)
class ServerSite:
    """A call of a framework's high-level server class (`mcp = FastMCP("notes")`): the record
    `check_module` keeps per file (picklable, cached with the summary)."""

    key: str  # the server variable's qualified name; "" for a function's local
    name: str  # the variable as written (`mcp`), "" when the call is assigned to none
    family: Family
    cls: str  # the qualified class called
    function: str  # the enclosing function's key, "" at module or class level
    location: Location
    end_location: Location
    statement: str
    rows: tuple[int, int]
    # The `mask_error_details=` argument as written ("True", "False", an expression), "" when
    # absent, "**" when a `**options` argument may pass it (a `**{...}` literal is read: call_args.keyword_values).
    masking: str
    # Where `mask_error_details=True` goes, and the text to insert there.
    insert_at: Location
    insert_text: str


# What a server does with an unexpected exception is read from the framework rows
# (frameworks.FRAMEWORK_TABLE, mcp-error-semantics.md 2a and 9): `other_exception` (what the
# model reads), `exception_text_reaches_model` on the newest release the pins allow
# (FrameworkContext.forwards_exception_text), `mask_setting` / `mask_env` (the switch, fastmcp >= 2.5).
_HIGH_LEVEL = frozenset({Family.FASTMCP, Family.MCP_FASTMCP, Family.MCP_SERVER})
# How many of the tools doing unwrapped I/O a finding shows as related locations (the rest are named in a note).
_RELATED_TOOLS = 3
# The project files that set `mask_env` or an older spelling the release still reads
# (`mask_env_names`: .env, compose files, Dockerfile...) are read by server_env.py, through the
# link step (Project.masks_by_config).


# -- I/O: calls whose failure is an exception from the outside world ---------------------------
_IO_MODULES = frozenset(
    {
        "httpx", "requests", "aiohttp", "urllib", "urllib3", "http", "socket", "subprocess",
        "sqlite3", "aiosqlite", "psycopg", "psycopg2", "psycopg_pool", "asyncpg", "pymysql", "aiomysql",
        "mysql", "MySQLdb", "redis", "pymongo", "motor", "boto3", "botocore", "aioboto3", "aiobotocore",
        "google", "azure", "openai", "anthropic", "smtplib", "imaplib", "ftplib", "paramiko", "asyncssh",
        "docker", "kubernetes", "elasticsearch", "opensearchpy", "shutil", "aiofiles",
        "github", "gitlab", "slack_sdk", "notion_client", "jira", "atlassian", "playwright", "selenium",
        "grpc", "websockets", "ldap3", "neo4j", "clickhouse_connect", "duckdb", "snowflake", "pysnmp",
        "tweepy", "stripe", "twilio", "praw", "spotipy", "yfinance", "feedparser", "git",
    }
)
# Functions of those modules that only compute or build a lazy object (no I/O until used).
_PURE = ("urllib.parse.", "shutil.which", "socket.gethostname", "subprocess.list2cmdline", "http.HTTPStatus")
_LAZY = frozenset({"from_url", "from_env_vars", "create_engine", "create_async_engine"})
_OS_IO = frozenset(
    {
        "os.remove", "os.unlink", "os.rename", "os.replace", "os.makedirs", "os.mkdir", "os.rmdir",
        "os.listdir", "os.scandir", "os.stat", "os.system", "os.popen", "os.chdir", "os.open",
        "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "asyncio.open_connection",
    }
)
_PATH_IO_METHODS = frozenset({"read_text", "write_text", "read_bytes", "write_bytes", "unlink", "mkdir", "rmdir", "iterdir", "touch"})
# A receiver named like a client (`client`, `self.http`, `db`, `cursor`), not `client_config`.
_CLIENT_LIKE = lazy_compile(r"(?:^|_)(?:client|session|http|api|conn|connection|cursor|db|database|sdk|s3|boto|pool|redis|engine)$", re.I)
# Methods of a client-like object that only read local state.
_LOCAL_METHODS = frozenset({"close", "aclose", "__enter__", "__aenter__", "copy", "keys", "values", "items", "format", "get_config", "headers"})


@dataclass(frozen=True)
class IoCall(Payload):
    """An I/O call no handler wraps (a marker the link step reads, never rendered itself)."""

    call: str  # as written (`httpx.get`), for the message
    callee: str  # its qualified name: a project function's is looked into instead


def is_io_call(call: CallFact, ctx: FileContext) -> bool:
    node = call.node
    written = dotted(node.func) or ""
    if not written and type(node.func) is cst.Attribute and type(node.func.value) is cst.Call:
        return False  # `requests.get(url).json()`: the inner call is judged (and named) on its own
    resolved = call.callee or ctx.model.aliases.resolve(node.func) or written
    if written == "open" or resolved in {"builtins.open", "io.open"} or resolved in _OS_IO:
        return True
    if resolved.split(".")[0] in _IO_MODULES and not last_name(resolved)[:1].isupper():
        # `httpx.get(url)`, `subprocess.run(...)`; building `httpx.AsyncClient()` sends nothing.
        return not resolved.startswith(_PURE) and last_name(resolved) not in _LAZY
    if type(node.func) is not cst.Attribute:
        return False
    method = node.func.attr.value
    if method in _PATH_IO_METHODS:
        return True
    receiver = dotted(node.func.value) or ""
    if not receiver or method in _LOCAL_METHODS or method in _LAZY or method[:1].isupper():
        return False  # `redis.Redis(...)` builds a client; it connects when first used
    return bool(_CLIENT_LIKE.search(receiver.rsplit(".", 1)[-1]))


_MARKERS = 4  # unwrapped I/O calls marked per function (see UnmaskedErrorDetails.check)


def _on_untyped_parameter(call: CallFact, fn: FunctionFacts) -> bool:
    receiver = call.node.func.value if type(call.node.func) is cst.Attribute else None
    root = (dotted(receiver) or "").split(".")[0] if receiver is not None else ""
    return bool(root) and root in fn.params and root not in fn.local_types and root not in {"self", "cls"}


def wraps(guard: TryGuard) -> bool:
    """Does this `try` handle an I/O failure (a broad clause, or one naming a non-builtin or OS
    class) without a bare `raise`? What its handler then sends is MCP002's question."""
    for caught, reraises, _ in guard:
        if reraises:
            continue
        if "*" in caught or any(name not in NARROW_BUILTIN_ERRORS for name in caught):
            return True
    return False


# -- per file --------------------------------------------------------------------------------
def server_sites(ctx: FileContext) -> list[ServerSite]:
    """Each call of a framework's high-level server class (not a proxy, provider or app)."""
    model, module = ctx.model, ctx.module
    out: list[ServerSite] = []
    tops: dict[int, tuple[int, cst.CSTNode]] | None = None
    for call, family, cls, function in model.server_constructors:
        if family not in _HIGH_LEVEL or last_name(cls) not in {"FastMCP", "MCPServer"}:
            continue
        if function is not None and function in model.functions:
            ctx.current = model.functions[function].node
        else:
            if tops is None:  # module- and class-level statements holding a constructor call
                wanted = {id(c) for c, _, _, f in model.server_constructors if f is None or f not in model.functions}
                tops = _statements_holding(module, wanted)
            found = tops.get(id(call))
            if found is None:
                continue
            ctx.hint(found[1], found[0])
            ctx.current = found[1]
        out.append(_site(call, family, cls, function or "", ctx))
    ctx.current = None
    return out


def _statements_holding(module: cst.Module, wanted: set[int]) -> dict[int, tuple[int, cst.CSTNode]]:
    """The module-level statement (index, statement) holding each node of `wanted` (by id).
    The walk stops once all are found: a server is built near the top of a module, and walking
    every statement after it was most of this rule's cost."""
    tops: dict[int, tuple[int, cst.CSTNode]] = {}
    for index, statement in enumerate(module.body):
        if len(tops) == len(wanted):
            break
        for node in descendants(statement, into_scopes=False):
            if id(node) in wanted:
                tops[id(node)] = (index, statement)
    return tops


def _site(call: cst.Call, family: Family, cls: str, function: str, ctx: FileContext) -> ServerSite:
    where = ctx.range(call)
    masking = ""
    for value in keyword_values(call, "mask_error_details"):
        masking = ctx.code(value).strip() if value is not None else masking or "**"
    if call.args:
        # The argument, not its value: a parenthesized value's range stops inside its parentheses.
        end = ctx.range(call.args[-1]).end
        insert_at, text = Location(end.line, end.column + 1), ", mask_error_details=True"
    else:  # `FastMCP()`: inside the parentheses
        insert_at, text = Location(where.end.line, where.end.column), "mask_error_details=True"
    assigned = ctx.model.constructed_as.get(id(call), "")
    return ServerSite(
        key="" if assigned.startswith("#") else assigned,
        name=last_name(assigned.lstrip("#")),
        family=family,
        cls=cls,
        function=function,
        location=Location(where.start.line, where.start.column + 1),
        end_location=Location(where.end.line, where.end.column + 1),
        statement=" ".join(ctx.code(call).split()),
        rows=(where.start.line, where.end.line),
        masking=masking,
        insert_at=insert_at,
        insert_text=text,
    )


class UnmaskedErrorDetails(Rule):
    code = "MCP007"
    name = "unmasked-error-details"

    INVALID = (
        Example(
            """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("weather")

@mcp.tool
async def forecast(city: str) -> str:
    async with httpx.AsyncClient() as client:
        response = await client.get("https://api.example.com/forecast", params={"city": city})
    response.raise_for_status()
    return response.text
""",
            flagged=(4,),
            target="fastmcp>=2.5",
            fixed="""\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("weather", mask_error_details=True)

@mcp.tool
async def forecast(city: str) -> str:
    async with httpx.AsyncClient() as client:
        response = await client.get("https://api.example.com/forecast", params={"city": city})
    response.raise_for_status()
    return response.text
""",
        ),
    )
    VALID = (
        Example(
            """\
import httpx
from fastmcp import FastMCP

mcp = FastMCP("weather", mask_error_details=True)

@mcp.tool
async def forecast(city: str) -> str:
    async with httpx.AsyncClient() as client:
        response = await client.get("https://api.example.com/forecast", params={"city": city})
    response.raise_for_status()
    return response.text
""",
            target="fastmcp>=2.5",
        ),
        Example(
            """\
import httpx
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("weather")

@mcp.tool()
async def forecast(city: str) -> str:
    try:
        async with httpx.AsyncClient() as client:
            response = await client.get("https://api.example.com/forecast", params={"city": city})
        response.raise_for_status()
    except httpx.HTTPError:
        raise ToolError(f"The forecast service did not answer for {city}; try again in a minute")
    return response.text
""",
        ),
    )

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        """Mark the first few I/O calls of the function that no handler wraps: the link step takes
        the first that is not a call of the project's own code (which it follows instead)."""
        marked = 0
        for call in fn.calls:
            if call.handler is not None or any(wraps(g) for g in call.guarded) or not is_io_call(call, ctx):
                continue
            if _on_untyped_parameter(call, fn):
                continue  # `db.query(sql)` on a parameter: whatever the caller passes decides
            payload = IoCall(dotted(call.node.func) or last_name(call.callee or ""), call.callee or "")
            yield self.latent(ctx, call.node, variant="io", route="tool", payload=payload)
            marked += 1
            if marked == _MARKERS:
                return

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        return None  # a marker: findings are made per server (link)

    def check_module(self, ctx: FileContext) -> list[ServerSite | MessagesForTheModel]:
        records: list[ServerSite | MessagesForTheModel] = list(server_sites(ctx))
        if any(next(plain_raises(fn, ctx), None) is not None for fn in ctx.model.functions.values()):
            records.append(MessagesForTheModel())
        return records

    def link(self, project: LinkedProject) -> Iterator[Finding]:
        """One finding per server constructor whose tools do unwrapped I/O, where the release a
        fresh install gets forwards the text and no project file masks it."""
        sites = [(summary, site) for summary, site in project.records(self.code) if isinstance(site, ServerSite)]
        for summary, site, tools in _tools_with_io(project, sites):
            framework = project.framework(site.family, None, summary.path)
            newest = framework.newest()
            row = newest[1] if newest is not None else None
            # The environment decides without the argument, and despite `False` where the release
            # ORs the two (fastmcp 2.8-2.14).
            decides = site.masking == "" or (site.masking == "False" and row is not None and not row.mask_argument_overrides_env)
            if row is not None and row.mask_env and decides and project.masks_by_config(summary.path, row.mask_env_names):
                continue
            rendered = self.render_server(site, framework, sorted(tools.items()))
            if rendered is None:
                continue
            spec = rendered.fix
            if spec is not None and spec.applicability is Applicability.SAFE and _raises_messages_for_the_model(project):
                # Plain exceptions raised with messages for the model (rules/plain_raises.py) would
                # lose their text: masking goes with their ToolError conversions, not alone.
                spec = replace(spec, applicability=Applicability.UNSAFE)
            fix = project.fix_for(spec, summary, site.family)
            yield Finding(
                code=self.code,
                message=rendered.message,
                filename=summary.path,
                location=site.location,
                end_location=site.end_location,
                fix=fix,
                context=last_name(site.function) if site.function else "",
                statement=site.statement,
                statement_rows=site.rows,
                help=help_for(rendered.help, fix),
                notes=rendered.notes,
                related=rendered.related,
            )

    def render_server(self, site: ServerSite, framework: FrameworkContext, tools: list[tuple[str, IoSite]]) -> Rendered | None:
        """The finding at a server constructor, or None when the server does not forward the
        text. `tools`: (tool name, its first unwrapped I/O) for each tool with one; each such
        call is a related location."""
        if site.masking not in {"", "False"} or not tools:
            return None  # masked, or configured by an expression / `**options` we cannot read
        found = framework.newest()
        if found is None or found[1] is None or not framework.forwards_exception_text(False):
            return None  # the release a fresh install gets masks it
        row = found[1]
        release = framework.describe_exception_text_release()
        name = f"Server '{site.name}'" if site.name else f"The {last_name(site.cls)} server"
        shown = sorted(tools, key=lambda item: item[0])
        noun = "tool does" if len(tools) == 1 else "tools do"
        message = f"{name} forwards raw exception text to the model; {len(tools)} {noun} I/O outside any try"
        forwarded = row.other_exception.seen_by_model(shown[0][0]).replace("<message>", "<exception text>")
        notes = [f"on {release} a failure no `try` handles reaches the model as '{forwarded}'"]
        related = tuple(
            Related(io.path, io.location, io.end_location, f"tool '{tool}' calls {io.call} outside any try") for tool, io in shown[:_RELATED_TOOLS]
        )
        if len(shown) > _RELATED_TOOLS:
            rest = shown[_RELATED_TOOLS:]
            notes.append(f"and {len(rest)} more {'tool' if len(rest) == 1 else 'tools'}: " + ", ".join(f"'{tool}'" for tool, _ in rest))
        if row.mask_setting and row.masked_failure is not None:
            masked = row.masked_failure.seen_by_model(shown[0][0])
            notes.append(f"with {row.mask_setting}=True the model gets '{masked}'")
            if site.masking == "False":
                help_text = f"Set {row.mask_setting}=True; raise ToolError for failures the model can act on"
            else:
                help_text = f"Pass {row.mask_setting}=True; raise ToolError for failures the model can act on"
            return Rendered(message, self._fix(site, framework), help=help_text, notes=tuple(notes), related=related)
        if site.family is Family.MCP_FASTMCP:
            notes.append("mcp 1.x has no switch to mask it (mcp >= 2.1 masks it)")
            return Rendered(message, help="Catch those failures in the tool and raise ToolError with your own message", notes=tuple(notes), related=related)
        notes.append("mcp >= 2.1 masks it")
        return Rendered(message, help="Catch those failures and raise ToolError with your own message, or move to mcp >= 2.1", notes=tuple(notes), related=related)

    @staticmethod
    def _fix(site: ServerSite, framework: FrameworkContext) -> FixSpec | None:
        """`mask_error_details=True`, where every release the project may run on has the setting."""
        if site.masking or not framework.every(lambda row: row.has_mask_setting):
            return None
        edit = Edit(site.insert_at, site.insert_at, site.insert_text)
        return FixSpec(Applicability.SAFE, "Pass mask_error_details=True", (edit,))


@dataclass(frozen=True)
class MessagesForTheModel:
    """A record of a module that raises plain exceptions with messages written for the model
    (rules/plain_raises.py): masking alone would take their text from the model."""


def _raises_messages_for_the_model(project: LinkedProject) -> bool:
    """Does a module of the project raise plain exceptions with messages for the model?"""
    return any(isinstance(record, MessagesForTheModel) for _, record in project.records(UnmaskedErrorDetails.code))


# -- the link step -------------------------------------------------------------------------
@dataclass(frozen=True)
class IoSite:
    """A call that does I/O outside any handler: what is called, and where."""

    call: str
    path: str
    location: Location
    end_location: Location


def _tools_with_io(project: LinkedProject, sites: list[tuple[ModuleSummary, ServerSite]]) -> list[tuple[ModuleSummary, ServerSite, dict[str, IoSite]]]:
    """Each constructor whose tools do I/O outside any handler, with tool name -> where its
    first unwrapped I/O is; in the order the registrations come."""
    tools_of: dict[int, dict[str, IoSite]] = {}
    memo: dict[str, IoSite | None] = {}
    for reg, summary in project.tool_registrations():
        if reg.kind == "middleware":
            continue  # runs around the tools; the I/O counted is the tools' own
        index = _site_of(project, reg.server, summary, sites)
        found = project.function(reg.function)
        if index is None or found is None:
            continue
        if _wrapped_by_decorator(project, found[1]):
            continue
        where = _first_io(project, found[1].qualname, 0, memo, found[0].path)
        if where is not None:
            tools_of.setdefault(index, {}).setdefault(reg.tool_name, where)
    return [(*sites[index], tools) for index, tools in tools_of.items()]


def _site_of(project: LinkedProject, server: str | None, summary: ModuleSummary, sites: list[tuple[ModuleSummary, ServerSite]]) -> int | None:
    """The constructor a registration's server comes from: by the server variable's name, else
    (a function's local server) the only constructor of the registering module."""
    if server:
        key = project.resolve(server)
        for index, (_, site) in enumerate(sites):
            if site.key and site.key == key:
                return index
        # `mcp = create_server()` with `def create_server(): server = FastMCP(...); return server`:
        # the registration names the factory, or a variable the factory made.
        module, _, name = key.rpartition(".")
        owner = project.modules.get(module)
        made_by = project.resolve(owner.instances[name]) if owner is not None and name in owner.instances else key
        built = [index for index, (_, site) in enumerate(sites) if site.function and site.function == made_by]
        return built[0] if len(built) == 1 else None
    local = [index for index, (owner, _) in enumerate(sites) if owner is summary]
    return local[0] if len(local) == 1 else None


def _wrapped_by_decorator(project: LinkedProject, fn: FunctionSummary) -> bool:
    """`@mcp.tool() @handle_errors def f`: a decorator whose wrapper runs the tool inside a try."""
    for qual in project.wrapper_bodies(fn):
        found = project.function(qual)
        if found is not None and any(wraps(g) for edge in found[1].calls for g in edge.guarded):
            return True
    return False


def _first_io(project: LinkedProject, qual: str, depth: int, memo: dict[str, IoSite | None], tool_path: str) -> IoSite | None:
    """The function's own first unwrapped I/O ('httpx.get' and where), or the first one a helper
    it calls outside any handler does ('client.post in 'fetch''); None when none."""
    if qual in memo:
        return memo[qual]
    memo[qual] = None  # a cycle of calls finds nothing more
    summary, fn = project.functions[qual]
    where: IoSite | None = None
    for latent in fn.latent:
        marker = latent.payload
        if not isinstance(marker, IoCall):
            continue
        own = project.function(marker.callee) if marker.callee else None
        if own is not None:  # `self.db.query(sql)` of the project's own client class: look inside
            if depth < 3 and own[1].qualname != qual:
                where = _first_io(project, own[1].qualname, depth + 1, memo, tool_path)
                if where is not None:
                    break
            continue
        call = marker.call if depth == 0 else f"{marker.call} in '{fn.name}'"
        where = IoSite(call, summary.path, latent.location, latent.end_location)
        break
    if where is None and depth < 3:
        for edge in fn.calls:
            if any(wraps(g) for g in edge.guarded):
                continue
            target = project.function(edge.callee)
            if target is None or target[1].qualname == qual:
                continue
            inner = _first_io(project, target[1].qualname, depth + 1, memo, tool_path)
            if inner is not None:
                where = inner
                break
    memo[qual] = where
    return where
