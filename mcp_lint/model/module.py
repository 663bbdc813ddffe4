"""Build a module's server model: servers, tool handlers, non-tool handlers and function facts.

One walk over the module finds every server object and every registration form of the rule
catalogue; function bodies are then summarised by `facts.collect_facts`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from mcp_lint.model.facts import FunctionFacts, collect_facts
from mcp_lint.model.frameworks import SERVER_CLASSES, TOOL_ERROR_CLASSES, Family
from mcp_lint.model.names import AliasTable, dotted, last_name
from mcp_lint.model.summary import ToolRegistration

# Attributes of a server whose decorator registers a handler that is NOT a tool.
NON_TOOL_ATTRS = frozenset(
    {
        "resource",
        "prompt",
        "completion",
        "read_resource",
        "list_resources",
        "list_resource_templates",
        "get_prompt",
        "list_prompts",
        "list_tools",
        "subscribe_resource",
        "unsubscribe_resource",
        "set_logging_level",
        "progress_notification",
        "custom_route",
    }
)
STANDALONE_TOOL_DECORATORS = frozenset(
    {
        "fastmcp.tools.tool",
        "fastmcp.tools.tool.tool",
        "fastmcp.tools.function_tool.tool",
        "fastmcp.contrib.mcp_mixin.mcp_tool",
        "fastmcp.contrib.mcp_mixin.mcp_mixin.mcp_tool",
    }
)
STANDALONE_NON_TOOL_DECORATORS = frozenset(
    {
        "fastmcp.resources.resource",
        "fastmcp.prompts.prompt",
        "fastmcp.contrib.mcp_mixin.mcp_resource",
        "fastmcp.contrib.mcp_mixin.mcp_prompt",
        "fastmcp.contrib.mcp_mixin.mcp_mixin.mcp_resource",
        "fastmcp.contrib.mcp_mixin.mcp_mixin.mcp_prompt",
    }
)
TOOL_FACTORIES = frozenset(
    {
        "mcp.server.fastmcp.tools.Tool.from_function",
        "mcp.server.fastmcp.tools.base.Tool.from_function",
        "mcp.server.mcpserver.tools.Tool.from_function",
        "mcp.server.mcpserver.tools.base.Tool.from_function",
        "fastmcp.tools.Tool.from_function",
        "fastmcp.tools.FunctionTool.from_function",
        "fastmcp.tools.tool.Tool.from_function",
        "fastmcp.tools.tool.FunctionTool.from_function",
        "fastmcp.tools.function_tool.FunctionTool.from_function",
    }
)
LOWLEVEL_NON_TOOL_KWARGS = frozenset(
    {
        "on_read_resource",
        "on_list_resources",
        "on_list_resource_templates",
        "on_get_prompt",
        "on_list_prompts",
        "on_completion",
        "on_list_tools",
    }
)


@dataclass
class ModuleModel:
    module: str
    aliases: AliasTable
    servers: dict[str, Family] = field(default_factory=dict)
    tools: list[ToolRegistration] = field(default_factory=list)
    pending: list[tuple[str, str, str]] = field(default_factory=list)
    non_tool: set[str] = field(default_factory=set)
    functions: dict[str, FunctionFacts] = field(default_factory=dict)
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    module_functions: set[str] = field(default_factory=set)
    module_lists: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    logger_name: str | None = None
    lowlevel_major_hint: int | None = None
    # Names assigned from a call that is not a server constructor (`agent = Agent()`): never servers.
    non_servers: set[str] = field(default_factory=set)


def _string_value(expr: cst.BaseExpression | None) -> str | None:
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _call_name_arg(call: cst.Call) -> str | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "name":
            return _string_value(arg.value)
    if call.args and call.args[0].keyword is None:
        return _string_value(call.args[0].value)
    return None


class _ModuleWalker(cst.CSTVisitor):
    def __init__(self, model: ModuleModel) -> None:
        self.model = model
        self.aliases = model.aliases
        self.class_stack: list[str] = []
        self.function_stack: list[tuple[str, dict[str, Family]]] = []  # (qualname, local servers)
        self.loop_stack: list[tuple[str, list[cst.BaseExpression]]] = []

    # -- scopes ---------------------------------------------------------------------------
    def _qualname(self, name: str) -> str:
        parts = [self.model.module] if self.model.module else []
        if self.function_stack:
            parts = [self.function_stack[-1][0]]
        elif self.class_stack:
            parts.append(".".join(self.class_stack))
        return ".".join([*parts, name])

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        bases = []
        for base in node.bases:
            bases.append(self.aliases.resolve(base.value) or f"{self.model.module}.{dotted(base.value) or '?'}")
        qual = self._qualname(node.name.value)
        self.model.classes[qual] = tuple(bases)
        self.class_stack.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.class_stack.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        qual = self._qualname(node.name.value)
        local_servers: dict[str, Family] = {}
        for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
            if param.annotation is not None:
                family = self._server_family_of_annotation(param.annotation.annotation)
                if family is not None:
                    local_servers[param.name.value] = family
        class_name = ".".join(self.class_stack) if self.class_stack and not self.function_stack else None
        facts = collect_facts(node, qual, class_name, self.aliases, self._resolve_callee_factory(class_name))
        self.model.functions[qual] = facts
        for decorator in node.decorators:
            self._registration_from_decorator(decorator.decorator, qual, node.name.value)
        self.function_stack.append((qual, local_servers))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.function_stack.pop()

    def visit_For(self, node: cst.For) -> None:
        if isinstance(node.target, cst.Name):
            self.loop_stack.append((node.target.value, self._iterable_elements(node.iter)))
        else:
            self.loop_stack.append(("", []))

    def leave_For(self, original_node: cst.For) -> None:
        self.loop_stack.pop()

    def visit_Import(self, node: cst.Import) -> None:
        self.aliases.add_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.aliases.add_import_from(node)

    # -- servers --------------------------------------------------------------------------
    def _server_family_of_call(self, value: cst.BaseExpression) -> Family | None:
        while isinstance(value, cst.Await):
            value = value.expression
        if not isinstance(value, cst.Call):
            return None
        resolved = self.aliases.resolve(value.func)
        if resolved is None:
            return None
        family = SERVER_CLASSES.get(resolved)
        if family is Family.MCP_LOWLEVEL:
            if any(arg.keyword is not None and arg.keyword.value.startswith("on_") for arg in value.args):
                self.model.lowlevel_major_hint = 2
        return family

    def _server_family_of_annotation(self, annotation: cst.BaseExpression) -> Family | None:
        if isinstance(annotation, cst.SimpleString):
            text = annotation.evaluated_value
            resolved = self.aliases.resolve_dotted(text) if isinstance(text, str) else None
        else:
            resolved = self.aliases.resolve(annotation)
        return SERVER_CLASSES.get(resolved or "")

    def _server_key(self, expr: cst.BaseExpression) -> str | None:
        name = dotted(expr)
        if name is None:
            return None
        if name.startswith(("self.", "cls.")) and self.class_stack:
            return f"{self.model.module}.{self.class_stack[0]}.{name}"
        return f"{self.model.module}.{name}"

    def _record_server(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        family = self._server_family_of_call(value)
        if family is None:
            key = self._server_key(target)
            if key is not None and isinstance(value, (cst.Call, cst.Await)) and key not in self.model.servers:
                self.model.non_servers.add(key)
            return
        key = self._server_key(target)
        if key is not None:
            self.model.servers[key] = family
        if isinstance(value, cst.Call):
            self._tools_kwarg(value, family)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._record_server(target.target, node.value)
            self._record_raw_handler(target.target, node.value)
        if not self.function_stack and not self.class_stack and len(node.targets) == 1:
            target = node.targets[0].target
            if isinstance(target, cst.Name):
                elements = self._iterable_elements(node.value)
                if elements:
                    self.model.module_lists[target.value] = elements
                if _is_get_logger(node.value, self.aliases):
                    self.model.logger_name = target.value
                if isinstance(node.value, cst.Dict):
                    self.model.module_lists[target.value] = [
                        el.value for el in node.value.elements if isinstance(el, cst.DictElement)
                    ]

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._record_server(node.target, node.value)
        family = self._server_family_of_annotation(node.annotation.annotation)
        if family is not None:
            key = self._server_key(node.target)
            if key is not None:
                self.model.servers.setdefault(key, family)

    def _lookup_server(self, expr: cst.BaseExpression) -> tuple[Family | None, str | None, bool]:
        """(family, server key, is_server) for the object a decorator/call is made on."""
        name = dotted(expr)
        if name is None:
            return None, None, False
        for _, local in reversed(self.function_stack):
            if name in local:
                return local[name], None, True
        key = self._server_key(expr)
        if key is not None and key in self.model.servers:
            return self.model.servers[key], key, True
        if key is not None and key in self.model.non_servers:
            return None, None, False
        root = name.split(".")[0]
        if root in self.aliases.aliases and root not in {"self", "cls"}:
            resolved = self.aliases.resolve_dotted(name)
            if resolved in SERVER_CLASSES:
                return None, None, False  # a class, not an instance
            return None, resolved, False
        return None, None, False

    # -- registrations ------------------------------------------------------------------
    def _add_tool(self, function: str, tool_name: str, family: Family | None, server: str | None, kind: str = "tool", major: int | None = None) -> None:
        self.model.tools.append(ToolRegistration(function, tool_name, family, server, kind, major))

    def _registration_from_decorator(self, deco: cst.BaseExpression, qual: str, fname: str) -> None:
        call = deco if isinstance(deco, cst.Call) else None
        func = call.func if call is not None else deco
        resolved = self.aliases.resolve(func)
        if resolved in STANDALONE_TOOL_DECORATORS:
            self._add_tool(qual, (call and _call_name_arg(call)) or fname, Family.FASTMCP, None)
            return
        if resolved in STANDALONE_NON_TOOL_DECORATORS:
            self.model.non_tool.add(qual)
            return
        if not isinstance(func, cst.Attribute):
            return
        attr = func.attr.value
        family, key, is_server = self._lookup_server(func.value)
        if attr == "tool":
            if is_server:
                self._add_tool(qual, (call and _call_name_arg(call)) or fname, family, key)
            elif (key is not None or self.aliases.mentions_framework()) and self._server_key(func.value) not in self.model.non_servers:
                # A server defined in another module (`from .app import mcp`): linked later.
                self.model.pending.append((qual, key or "", (call and _call_name_arg(call)) or fname))
        elif attr == "call_tool" and (is_server or family is Family.MCP_LOWLEVEL or key is not None):
            self._add_tool(qual, fname, Family.MCP_LOWLEVEL, key, kind="dispatch", major=1)
            self.model.lowlevel_major_hint = 1
        elif attr in NON_TOOL_ATTRS and (is_server or key is not None or self.aliases.mentions_framework()):
            self.model.non_tool.add(qual)

    def _module_mentions_framework(self) -> bool:
        return bool(self.model.servers)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        resolved = self.aliases.resolve(func)
        if resolved in TOOL_FACTORIES and node.args:
            for fn in self._function_refs(node.args[0].value):
                self._add_tool(fn, _kw_string(node, "name") or last_name(fn), _family_of_factory(resolved), None)
            return
        if resolved in SERVER_CLASSES:
            return  # constructor kwargs handled by _tools_kwarg via the assignment
        if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute):
            # mcp.tool(name="x")(fn) and server.call_tool()(fn)
            inner = func.func
            family, key, is_server = self._lookup_server(inner.value)
            if node.args and (is_server or key is not None):
                for fn in self._function_refs(node.args[0].value):
                    if inner.attr.value == "tool":
                        self._add_tool(fn, _call_name_arg(func) or last_name(fn), family, key)
                    elif inner.attr.value == "call_tool":
                        self._add_tool(fn, last_name(fn), Family.MCP_LOWLEVEL, key, kind="dispatch", major=1)
                    elif inner.attr.value in NON_TOOL_ATTRS:
                        self.model.non_tool.update(self._function_refs(node.args[0].value))
            return
        if not isinstance(func, cst.Attribute):
            return
        attr = func.attr.value
        if attr not in {"add_tool", "tool", "add_request_handler", "resource", "prompt", "add_resource", "add_prompt"}:
            return
        family, key, is_server = self._lookup_server(func.value)
        if not (is_server or key is not None):
            return
        if attr == "add_request_handler":
            if node.args and _string_value(node.args[0].value) == "tools/call" and len(node.args) >= 3:
                for fn in self._function_refs(node.args[2].value):
                    self._add_tool(fn, last_name(fn), Family.MCP_LOWLEVEL, key, kind="dispatch", major=2)
                self.model.lowlevel_major_hint = 2
            elif node.args and len(node.args) >= 3:
                self.model.non_tool.update(self._function_refs(node.args[2].value))
            return
        if not node.args or node.args[0].keyword is not None:
            return
        first = node.args[0].value
        if attr in {"resource", "prompt", "add_resource", "add_prompt"}:
            self.model.non_tool.update(self._function_refs(first))
            return
        if isinstance(first, cst.Call):
            inner_resolved = self.aliases.resolve(first.func)
            if inner_resolved in TOOL_FACTORIES:
                return  # counted when visiting the factory call itself
            if isinstance(first.func, cst.Attribute) and first.func.attr.value == "from_function" and first.args:
                for fn in self._function_refs(first.args[0].value):
                    self._add_tool(fn, _kw_string(first, "name") or last_name(fn), family, key)
            return
        for fn in self._function_refs(first):
            self._add_tool(fn, _kw_string(node, "name") or last_name(fn), family, key)

    def _tools_kwarg(self, call: cst.Call, family: Family) -> None:
        for arg in call.args:
            if arg.keyword is None:
                continue
            kw = arg.keyword.value
            if kw == "tools":
                for element in self._iterable_elements(arg.value):
                    if isinstance(element, cst.Call):
                        continue  # Tool.from_function(...) is found by visit_Call
                    for fn in self._function_refs(element):
                        self._add_tool(fn, last_name(fn), family, None)
            elif kw == "on_call_tool" and family is Family.MCP_LOWLEVEL:
                for fn in self._function_refs(arg.value):
                    self._add_tool(fn, last_name(fn), family, None, kind="dispatch", major=2)
            elif kw in LOWLEVEL_NON_TOOL_KWARGS or kw in {"resources", "prompts"}:
                for element in self._iterable_elements(arg.value) or [arg.value]:
                    self.model.non_tool.update(self._function_refs(element))

    def _record_raw_handler(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        # server.request_handlers[types.CallToolRequest] = handler (mcp 1.x, bypassing the decorator)
        if not isinstance(target, cst.Subscript) or not isinstance(target.value, cst.Attribute):
            return
        if target.value.attr.value != "request_handlers":
            return
        index = target.slice[0].slice if target.slice else None
        if isinstance(index, cst.Index) and last_name(dotted(index.value)) == "CallToolRequest":
            for fn in self._function_refs(value):
                self._add_tool(fn, last_name(fn), Family.MCP_LOWLEVEL, None, kind="dispatch", major=1)

    # -- references to functions ----------------------------------------------------------
    def _iterable_elements(self, expr: cst.BaseExpression) -> list[cst.BaseExpression]:
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return [el.value for el in expr.elements if isinstance(el, cst.Element)]
        if isinstance(expr, cst.Name) and expr.value in self.model.module_lists:
            return self.model.module_lists[expr.value]
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in {"values", "items"}:
            base = expr.func.value
            if isinstance(base, cst.Name) and base.value in self.model.module_lists:
                return self.model.module_lists[base.value]
        return []

    def _function_refs(self, expr: cst.BaseExpression) -> list[str]:
        """Qualified names of the function(s) an expression stands for."""
        if isinstance(expr, cst.Name):
            for var, elements in reversed(self.loop_stack):
                if var == expr.value:
                    out: list[str] = []
                    for element in elements:
                        if isinstance(element, cst.Tuple) and element.elements:
                            element = element.elements[0].value
                        out.extend(self._function_refs(element))
                    return out
            if expr.value in self.aliases.aliases:
                return [self.aliases.aliases[expr.value]]
            if self.function_stack:
                nested = f"{self.function_stack[-1][0]}.{expr.value}"
                if nested in self.model.functions:
                    return [nested]
            return [f"{self.model.module}.{expr.value}" if self.model.module else expr.value]
        if isinstance(expr, cst.Attribute):
            name = dotted(expr)
            if name and name.startswith(("self.", "cls.")) and self.class_stack:
                return [f"{self.model.module}.{self.class_stack[0]}.{name.split('.', 1)[1]}"]
            resolved = self.aliases.resolve(expr) if name else None
            if resolved:
                return [resolved]
            if name:
                return [f"{self.model.module}.{name}"]
        if isinstance(expr, cst.Call) and expr.args and isinstance(expr.func, (cst.Name, cst.Attribute)):
            # partial(fn, ...) / wraps
            if last_name(dotted(expr.func)) in {"partial"}:
                return self._function_refs(expr.args[0].value)
        return []

    def _resolve_callee_factory(self, class_name: str | None):
        module = self.model.module
        aliases = self.aliases
        first_class = class_name.split(".")[0] if class_name else None

        def resolve(func: cst.BaseExpression) -> str | None:
            name = dotted(func)
            if name is None:
                return None
            if name.startswith(("self.", "cls.")) and first_class:
                rest = name.split(".", 1)[1]
                return f"{module}.{first_class}.{rest}"
            resolved = aliases.resolve_dotted(name)
            if resolved is not None:
                return resolved
            return f"{module}.{name}" if module else name

        return resolve


def _kw_string(call: cst.Call, keyword: str) -> str | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return _string_value(arg.value)
    return None


def _family_of_factory(resolved: str) -> Family:
    if resolved.startswith("fastmcp."):
        return Family.FASTMCP
    if resolved.startswith("mcp.server.mcpserver"):
        return Family.MCP_SERVER
    return Family.MCP_FASTMCP


def _is_get_logger(value: cst.BaseExpression, aliases: AliasTable) -> bool:
    if isinstance(value, cst.Call):
        resolved = aliases.resolve(value.func) or dotted(value.func) or ""
        return last_name(resolved) in {"getLogger", "get_logger"}
    return False


def build_model(module: cst.Module, module_name: str, is_package: bool) -> ModuleModel:
    aliases = AliasTable(module_name, is_package)
    # Top-level imports first, so decorators above a late import still resolve.
    for stmt in module.body:
        _collect_top_imports(stmt, aliases)
    model = ModuleModel(module_name, aliases)
    module.visit(_ModuleWalker(model))
    return model


def _collect_top_imports(stmt: cst.CSTNode, aliases: AliasTable) -> None:
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            if isinstance(small, cst.Import):
                aliases.add_import(small)
            elif isinstance(small, cst.ImportFrom):
                aliases.add_import_from(small)
    elif isinstance(stmt, (cst.If, cst.Try)):
        for child in stmt.body.body:
            _collect_top_imports(child, aliases)
        if isinstance(stmt, cst.Try):
            for handler in stmt.handlers:
                for child in handler.body.body:
                    _collect_top_imports(child, aliases)


def tool_error_names(aliases: AliasTable) -> dict[Family, str]:
    """Local names under which each family's ToolError is already imported."""
    out: dict[Family, str] = {}
    for local, qual in aliases.aliases.items():
        family = TOOL_ERROR_CLASSES.get(qual)
        if family is not None:
            out.setdefault(family, local)
    return out
