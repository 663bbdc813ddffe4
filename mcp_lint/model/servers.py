"""Server inference: which names are, build or type an MCP server, and of which family.

Assignments, annotations, class bases and `return` statements bind names to a `Receiver`;
a registration (`@mcp.tool()`) asks `_receiver` what its object is. Names this module cannot
settle (a server made by an imported factory) are left as keys for the linker
(ModuleModel.server_sources).
"""

from __future__ import annotations

import libcst as cst

from mcp_lint.model.annotation_types import UNION_WRAPPERS, is_none
from mcp_lint.model.frameworks import SERVER_CLASSES, is_framework_name, reexported_server_families, server_family
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.names import NAME_OR_ATTRIBUTE, dotted, last_name, unwrap_await
from mcp_lint.model.receivers import NOT_SERVER, UNKNOWN, Is, Receiver
from mcp_lint.model.scopes import ScopeWalker

# Typing constructs whose first argument is what the annotated object is.
_FIRST_ARG_WRAPPERS = frozenset({"Annotated", "Final", "ClassVar"})


class ServerInference(ScopeWalker):
    """What each server-related name of the module is bound to."""

    def __init__(self, model: ModuleModel) -> None:
        super().__init__(model)
        self.module_top = model.module.split(".")[0] if model.module else ""

    def _is_project_name(self, name: str, resolved: str) -> bool:
        """Does the imported `name` come from this project (relative import or same top package)?"""
        if name.split(".")[0] in self.aliases.relative_names:
            return True
        return bool(self.module_top) and resolved.split(".")[0] == self.module_top

    def _module_binding(self, key: str) -> Receiver | None:
        if key in self.model.servers:
            return Receiver(Is.SERVER, self.model.servers[key], key)
        if key in self.model.non_servers:
            return NOT_SERVER
        if key in self.model.server_sources:
            return Receiver(Is.UNKNOWN, key=self.model.server_sources[key])
        if key in self.model.attr_params:
            return Receiver(Is.UNKNOWN, param=self.model.attr_params[key])
        return None

    def _receiver(self, expr: cst.BaseExpression) -> Receiver:
        """What the object `expr` (a registration is made on) is."""
        name = dotted(expr)
        if name is None:
            return UNKNOWN  # `get_server().tool`, `servers[0].tool`
        root, _, rest = name.partition(".")
        class_qual = self._class_qual()
        if root in {"self", "cls"} and class_qual:
            if not rest:  # `self.add_tool(...)` in a subclass of a server class
                family = self.model.servers.get(class_qual)
                return Receiver(Is.SERVER, family, class_qual) if family is not None else UNKNOWN
            return self._module_binding(self._key(name)) or UNKNOWN
        for frame in reversed(self.frames):
            if frame.kind == "function" and root in frame.bindings and root not in frame.globals:
                return frame.bindings[root] if not rest else UNKNOWN
        found = self._module_binding(self._key(name))
        if found is not None:
            return found
        resolved = self.aliases.resolve_dotted(name)
        if resolved is None:
            return UNKNOWN
        if resolved in SERVER_CLASSES or reexported_server_families(resolved):
            return NOT_SERVER  # `@FastMCP.tool`: the class, not a server
        if is_framework_name(resolved):
            # `import mcp` then `@mcp.tool()`: a module (or class, function) of the framework
            # itself; servers are objects the project builds (the decorator would not even run).
            return NOT_SERVER
        return Receiver(Is.UNKNOWN, key=resolved)  # imported: the linker knows the other module

    def _receiver_of_value(self, value: cst.BaseExpression) -> Receiver | None:
        """What an assignment of `value` binds; None when the value says nothing about servers."""
        value = unwrap_await(value)
        # Exact types (no subclasses): asked of every assignment and call, ABC checks are slow.
        if type(value) in NAME_OR_ATTRIBUTE:
            # `server = mcp`: an alias of a server here, or of one the linker finds elsewhere.
            found = self._receiver(value)
            return found if found.is_ is Is.SERVER or found.key is not None or found.param is not None else None
        if type(value) is cst.Call:
            return self._receiver_of_callee(value.func)
        if type(value) is cst.BooleanOperation and type(value.operator) is cst.Or:
            # `factory = mcp_factory or make_server`: what the fallback is, when it is a server's.
            fallback = self._receiver_of_value(value.right)
            return fallback if fallback is not None and fallback.is_ is Is.SERVER else None
        return None

    def _receiver_of_callee(self, func: cst.BaseExpression) -> Receiver:
        """What calling `func` returns: a server constructor, factory, or something else."""
        if type(func) is cst.Subscript:  # exact type: asked of every call
            func = func.value  # `Server[LifespanState](...)`
        name = dotted(func)
        if name is None:
            return UNKNOWN
        made_by = self._bound_factory(name)
        if made_by is not None:
            return made_by
        resolved = self.aliases.resolve_dotted(name)
        family = server_family(resolved)
        if family is not None:
            return Receiver(Is.SERVER, family)
        if resolved is None:
            # Defined here: a server subclass or factory we have seen, another local class, or
            # a function whose result we cannot tell.
            key = self._key(name)
            if key in self.model.servers:
                return Receiver(Is.SERVER, self.model.servers[key])
            if key in self.model.classes:
                # A subclass of a library's re-export of a server class: the linker decides.
                reexported = any(reexported_server_families(base) for base in self.model.classes[key])
                return Receiver(Is.UNKNOWN, key=key) if reexported else NOT_SERVER
            return UNKNOWN
        if is_framework_name(resolved):
            return NOT_SERVER  # `fastmcp.Client(...)`, `mcp.ClientSession(...)`
        if reexported_server_families(resolved):
            # `FastMCP(...)` from a library that re-exports it: the project's declared
            # requirements decide at link time (Project.server_family).
            return Receiver(Is.UNKNOWN, key=resolved)
        if self._is_project_name(name, resolved):
            return Receiver(Is.UNKNOWN, key=resolved)  # a project class or factory: linked later
        if last_name(resolved)[:1].isupper():
            return NOT_SERVER  # a third-party class: `Agent(...)`, `Flask(...)`
        # A function from outside the package: a sibling module of a flat layout can be a
        # server factory, so the linker decides.
        return Receiver(Is.UNKNOWN, key=resolved)

    def _bound_factory(self, name: str) -> Receiver | None:
        """`factory(...)` where the local or parameter `factory` holds a project function that
        makes a server (`factory = mcp_factory or make_server`, `def build(mcp_factory=make_server)`):
        a server of that family; None when the name is bound to no such function."""
        if "." in name:
            return None
        for frame in reversed(self.frames):
            if frame.kind == "function" and name in frame.bindings and name not in frame.globals:
                bound = frame.bindings[name]
                if bound.is_ is Is.SERVER and bound.family is not None and bound.key in self.model.functions:
                    return Receiver(Is.SERVER, bound.family)
                return None
        return None

    def _receiver_of_annotation(self, annotation: cst.BaseExpression) -> Receiver:
        """What a parameter or variable annotated with `annotation` is."""
        if type(annotation) is cst.SimpleString:
            text = annotation.evaluated_value
            try:
                parsed = cst.parse_expression(text) if isinstance(text, str) else None
            except cst.ParserSyntaxError:
                parsed = None
            return self._receiver_of_annotation(parsed) if parsed is not None else UNKNOWN
        if type(annotation) is cst.BinaryOperation and type(annotation.operator) is cst.BitOr:
            return self._first_server(annotation.left, annotation.right)  # `FastMCP | None`
        if type(annotation) is cst.Subscript:
            wrapper = last_name(self.aliases.resolve(annotation.value) or dotted(annotation.value))
            items = [el.slice.value for el in annotation.slice if type(el.slice) is cst.Index]
            if wrapper in UNION_WRAPPERS:
                return self._first_server(*items)
            if wrapper in _FIRST_ARG_WRAPPERS and items:
                return self._receiver_of_annotation(items[0])
            return self._receiver_of_annotation(annotation.value)  # `FastMCP[AppContext]`
        name = dotted(annotation)
        if name is None:
            return UNKNOWN
        resolved = self.aliases.resolve_dotted(name)
        if resolved is not None and resolved.split(".")[0] in {"typing", "typing_extensions"}:
            return UNKNOWN  # `Any`, `object`-like: could be anything
        if resolved is None and self._key(name) not in self.model.classes:
            return UNKNOWN  # builtins and names we do not know
        return self._receiver_of_callee(annotation)

    def _first_server(self, *annotations: cst.BaseExpression) -> Receiver:
        found = [self._receiver_of_annotation(a) for a in annotations if not is_none(a)]
        for receiver in found:
            if receiver.is_ is Is.SERVER:
                return receiver
        return NOT_SERVER if found and all(r.is_ is Is.NOT_SERVER for r in found) else UNKNOWN

    # -- bindings -------------------------------------------------------------------------
    def _binding_key(self, target: cst.BaseExpression) -> str:
        """The key `_bind` files a server under (`pkg.mod.mcp`, `pkg.mod.Cls.mcp`); "" for a local."""
        frame = self.frames[-1] if self.frames else None
        if type(target) is cst.Name and frame is not None and frame.kind == "function" and target.value not in frame.globals:
            return ""
        name = dotted(target)
        if name is None:
            return ""
        if frame is not None and frame.kind == "class" and type(target) is cst.Name:
            return f"{frame.qual}.{name}"
        return self._key(name)

    def _bind(self, target: cst.BaseExpression, receiver: Receiver | None) -> None:
        if receiver is None:
            return
        frame = self.frames[-1] if self.frames else None
        in_function = frame is not None and frame.kind == "function"
        if type(target) is cst.Name and in_function and target.value not in frame.globals:
            frame.bindings[target.value] = receiver
            return
        name = dotted(target)
        if name is None:
            return
        if frame is not None and frame.kind == "class" and type(target) is cst.Name:
            key = f"{frame.qual}.{name}"  # a class attribute: reached as `self.name` / `Cls.name`
        else:
            key = self._key(name)
        if receiver.is_ is Is.SERVER and receiver.family is not None:
            self.model.servers[key] = receiver.family
            self.model.non_servers.discard(key)
        elif receiver.is_ is Is.NOT_SERVER and key not in self.model.servers:
            # A name bound to a server anywhere stays one: conditional definitions pick either.
            self.model.non_servers.add(key)
        elif receiver.is_ is Is.UNKNOWN and receiver.key and key not in self.model.servers:
            self.model.server_sources[key] = receiver.key
        elif receiver.is_ is Is.UNKNOWN and receiver.param is not None and "." in name and key not in self.model.servers:
            # `self._mcp = mcp` of an unannotated parameter: the callers decide what it holds.
            self.model.attr_params[key] = receiver.param

    def _name_constructed(self, target: cst.BaseExpression, value: cst.BaseExpression, receiver: Receiver | None) -> None:
        """`mcp = FastMCP(...)`: remember the key the constructed server is reached by."""
        call = unwrap_await(value)
        if receiver is None or receiver.is_ is not Is.SERVER or type(call) is not cst.Call:
            return
        frame = self.frames[-1] if self.frames else None
        name = dotted(target)
        if name is None:
            return
        if frame is not None and frame.kind == "function" and "." not in name and name not in frame.globals:
            self.model.constructed_as[id(call)] = "#" + name  # a function's local: no key, a name only
            return
        if frame is not None and frame.kind == "class" and type(target) is cst.Name:
            key = f"{frame.qual}.{name}"
        else:
            key = self._key(name)
        self.model.constructed_as[id(call)] = key
