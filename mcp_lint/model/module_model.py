"""What one module's walk finds: its servers, tool handlers, non-tool handlers and function facts.

The record the rules (FileContext.model) and the per-file summary read; built by
`module_walk.build_model`. Kept apart from the walk so its readers do not import the walker.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.frameworks import Family
from mcp_lint.model.names import AliasTable
from mcp_lint.model.summary import ToolRegistration
from mcp_lint.model.table_rows import Table


@dataclass(frozen=True)
class MiddlewareSite:
    """An `ErrorHandlingMiddleware(...)` put on a server: `server.add_middleware(...)` or the
    constructor's `middleware=[...]`."""

    server: str  # the server's qualified name; "" for a function local (its module's tools decide)
    call: cst.Call  # the ErrorHandlingMiddleware(...) call
    form: str  # "add_middleware" or "middleware="
    top: cst.CSTNode  # the top-level statement holding it (positions are resolved per statement)
    top_index: int


@dataclass
class ModuleModel:
    module: str
    aliases: AliasTable
    # Qualified name -> family, for every name that is, builds or types a server: variables
    # (`pkg.app.mcp`, `pkg.app.Service.mcp` for `self.mcp`), project subclasses of a server class
    # and factory functions returning one. The linker looks up pending registrations here.
    servers: dict[str, Family] = field(default_factory=dict)
    tools: list[ToolRegistration] = field(default_factory=list)
    # (function, qualified name of the receiver or of what made it, tool name): `@x.tool` where x
    # comes from elsewhere; "" when nothing names it (the file's framework imports decide).
    pending: list[tuple[str, str, str]] = field(default_factory=list)
    non_tool: set[str] = field(default_factory=set)
    functions: dict[str, FunctionFacts] = field(default_factory=dict)
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Exception-like classes -> the attributes they define (scopes.class_attributes); absent
    # when unknown or open (`__getattr__`, `setattr(self, ...)`).
    class_attrs: dict[str, frozenset[str]] = field(default_factory=dict)
    # Module-level lists, tuples, sets (elements) and dicts (values): `for fn in TOOLS`.
    module_lists: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    # Module-level dicts as (key, value) pairs: `for name, fn in TOOLS.items()`.
    module_dicts: dict[str, list[tuple[cst.BaseExpression, cst.BaseExpression]]] = field(default_factory=dict)
    logger_name: str | None = None
    lowlevel_major_hint: int | None = None
    # Module/class-level names assigned something that is certainly not a server (`agent = Agent()`).
    non_servers: set[str] = field(default_factory=set)
    # A server constructor here passes `mask_error_details=True` (fastmcp).
    masks_errors: bool = False
    # ... passes it something else (`False`, `settings.mask`): the code decides, not the environment.
    mask_argument: bool = False
    # ErrorHandlingMiddleware put on a server here.
    error_middleware: list[MiddlewareSite] = field(default_factory=list)
    # Calls of a framework's own high-level server class (`FastMCP(...)`, `MCPServer(...)`):
    # (the call, its family, the qualified class, the enclosing function's key or None): where a
    # finding about the server's configuration is reported; the assignment that names the server is in `constructed_as`.
    server_constructors: list[tuple[cst.Call, Family, str, str | None]] = field(default_factory=list)
    # id(constructor call) -> the server variable's key it is assigned to (`pkg.app.mcp`), or
    # "#" + its name for a function's local (registrations on it carry no key).
    constructed_as: dict[int, str] = field(default_factory=dict)
    # Module/class-level names assigned the result of a project callable we cannot see into
    # (`mcp = create_server()` with create_server imported): name -> that callable.
    server_sources: dict[str, str] = field(default_factory=dict)
    # Attributes that hold what an unannotated parameter received (`self._mcp = mcp` in
    # `__init__(self, mcp)`): key -> (function, parameter). A registration on the attribute
    # waits on what the function's callers pass (ModuleModel.param_pending), as one on the
    # parameter itself does.
    attr_params: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Objects whose type an annotation or a later assignment tells, by the name calls reach them
    # through (as ModuleSummary.instances): `api: Api = None` -> {"api": "pkg.api.Api"}, a class
    # body's `client: Api` -> {"Service.client": ...}, `global api; api = Api()` in a function.
    typed_names: dict[str, str] = field(default_factory=dict)
    # `@server.tool` on an unannotated parameter of a register function in a module that does not
    # import a framework: (function, register function, parameter, tool name); its call sites decide.
    param_pending: list[tuple[str, str, str, str]] = field(default_factory=list)
    # Tables of functions a dispatcher looks a tool up in: a module-level dict of functions
    # (`HANDLERS = {"add": add}` -> "HANDLERS"), or what a function returns (`{n: getattr(api, n)
    # for n in NAMES}` -> "<function key>()"); the qualified names of the functions they hold.
    function_tables: dict[str, list[str]] = field(default_factory=dict)
    # Tables of functions as rows, for registrations in loops over them (model/table_rows.py):
    # `pkg.app.TOOLS`, `pkg.app.build_tools()` (what it returns), `pkg.app.setup#tools` (a local).
    tables: dict[str, Table] = field(default_factory=dict)
    # Functions passed as a server's `lifespan=`: what they yield is `ctx...lifespan_context`.
    lifespans: list[str] = field(default_factory=list)
    # Calls passing a server (or what the linker may find to be one) as an argument:
    # (callee, positional index or -1, keyword or "", server key, family or None).
    server_arguments: list[tuple[str, int, str, str, Family | None]] = field(default_factory=list)
    # ModuleSummary.callable_arguments
    callable_arguments: list[tuple[str, int, str, tuple[str, ...]]] = field(default_factory=list)
    # ModuleSummary.object_arguments
    object_arguments: list[tuple[str, int, str, str]] = field(default_factory=list)
    # ModuleSummary.adapters
    adapters: dict[str, tuple[str, ...]] = field(default_factory=dict)
