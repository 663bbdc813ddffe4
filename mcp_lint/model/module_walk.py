"""Build a module's server model: one walk over the module, layered by concern.

The walk finds every server object and every registration form, and summarises each function
body (`function_body.collect_facts`). Its layers, each a module of its own: scopes (where the
walk is), servers (what names are servers), function_refs (which functions expressions name),
registration (the registration forms). This module holds the statement visitors that feed
several layers at once, so each statement is read once.

A function body is walked once, by `collect_facts`, which records the nodes this walker has
handlers for (and the nested scopes it does not enter itself); the walker replays those events
rather than walking the body a second time (`_replay`).
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mcp_lint.framework_copies import FrameworkCopy
from mcp_lint.model.annotation_types import annotation_type
from mcp_lint.model.exception_guards import WrittenClassBases
from mcp_lint.model.frameworks import server_family
from mcp_lint.model.function_body import SUBTREE, VISIT, collect_facts
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.names import AliasTable, catches_import_error, dotted, unwrap_await
from mcp_lint.model.receivers import Is, Receiver
from mcp_lint.model.registration import Registrations
from mcp_lint.model.scopes import Frame, class_attributes

# Base classes whose subclasses are exception classes (their attributes are recorded).
_EXCEPTION_SUFFIXES = ("Error", "Exception")
# Annotations that say nothing about what a parameter is.
_ANY_TYPES = frozenset({"typing.Any", "typing_extensions.Any"})


class _ModuleWalker(Registrations):
    """Definitions, assignments and returns: each feeds the scopes, server inference, function
    references and registrations it concerns."""

    class_bases: WrittenClassBases | None = None  # the module's classes as `except` clauses name them

    def __init__(self, model: ModuleModel) -> None:
        super().__init__(model)
        # What each assignment being walked binds its targets to (bound on leaving it).
        self._assigned: dict[int, Receiver | None] = {}

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        qual = self._qualname(node.name.value)
        bases = []
        for base in node.bases:
            value = base.value.value if type(base.value) is cst.Subscript else base.value  # `FastMCP[Ctx]`
            bases.append(self.aliases.resolve(value) or f"{self.model.module}.{dotted(value) or '?'}")
        self.model.classes[qual] = tuple(bases)
        if any(b.endswith(_EXCEPTION_SUFFIXES) or b in self.model.class_attrs for b in bases):
            # Only exception-like classes: what `getattr(e, "status_code", None)` can find.
            attrs = class_attributes(node)
            if attrs is not None:
                self.model.class_attrs[qual] = attrs
        # A subclass of a server class is a server class: record it so that instances, here or
        # in other modules (through the linker), get the base's family.
        for base in bases:
            family = server_family(base) or self.model.servers.get(base)
            if family is not None:
                self.model.servers[qual] = family
                break
        self.frames.append(Frame("class", qual))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.frames.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        qual = self._unique_qualname(node)
        class_qual = self.frames[-1].qual if self.frames and self.frames[-1].kind == "class" else None
        class_name = class_qual[len(self.model.module) + 1 :] if class_qual and self.model.module else class_qual
        enclosing = self._enclosing_facts()
        events: list[tuple[cst.CSTNode, int]] = []
        facts = collect_facts(
            node,
            qual,
            class_name,
            self.aliases,
            self._callee_resolver(),
            lambda annotation: annotation_type(annotation, self.aliases),
            enclosing.local_types if enclosing is not None else None,
            enclosing.local_collections if enclosing is not None else None,
            self.model.module_lists,
            (_RECORDED, events),
            self.class_bases,
        )
        self.model.functions[qual] = facts
        if node.returns is not None:
            facts.returns_type = annotation_type(node.returns.annotation, self.aliases)
            returned = self._receiver_of_annotation(node.returns.annotation)
            if returned.is_ is Is.SERVER and returned.family is not None:
                self.model.servers[qual] = returned.family  # `def create_server() -> FastMCP`
        for decorator in node.decorators:
            if type(decorator.decorator) is cst.Call:
                self.decorator_calls.add(id(decorator.decorator))
            registered = self._registration_count()
            self._registration_from_decorator(decorator.decorator, qual, node.name.value)
            if registered != self._registration_count():
                facts.wrappers = []  # only the decorators below a registration wrap what it registers
            else:
                func = decorator.decorator.func if type(decorator.decorator) is cst.Call else decorator.decorator
                wrapper = self.decorator_callee(func)
                if wrapper is not None:
                    facts.wrappers.append(wrapper)
        frame = Frame("function", qual)
        for param in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
            name = param.name.value
            if name in {"self", "cls"} and class_qual:
                continue
            frame.bindings[name] = self._parameter_receiver(param, qual)
        self.frames.append(frame)
        self._replay(events)
        return False  # the body was walked once, by collect_facts, for both

    def _parameter_receiver(self, param: cst.Param, qual: str) -> Receiver:
        """What a parameter is. It shadows module names; its annotation tells what it is, and
        when the annotation says nothing (none, `Any`, `object`), the callers decide."""
        annotation = param.annotation.annotation if param.annotation is not None else None
        if annotation is None or self._says_nothing(annotation):  # `def register_tools(mcp_server: Any, ...)`
            found = Receiver(Is.UNKNOWN, param=(qual, param.name.value))
        else:
            found = self._receiver_of_annotation(annotation)
        if found.is_ is Is.UNKNOWN and param.default is not None:
            # `def build(mcp_factory=make_server)`: an injected factory whose default makes the
            # server (a test passes a fake one; the production run takes the default).
            default = self._receiver_of_value(param.default)
            if default is not None and default.is_ is Is.SERVER:
                return default
        return found

    def _says_nothing(self, annotation: cst.BaseExpression) -> bool:
        """`Any` or `object`: an annotation any server satisfies (a `str` one is no server)."""
        name = dotted(annotation)
        if name is None:
            return False
        resolved = self.aliases.resolve_dotted(name)
        return resolved in _ANY_TYPES or (resolved is None and name == "object")

    def _replay(self, events: list[tuple[cst.CSTNode, int]]) -> None:
        """What walking a function's children would do, from the events its facts walk recorded:
        a function body is walked once instead of twice (a third of build_model's time)."""
        dispatch = self._dispatch
        for node, event in events:
            if event == SUBTREE:
                self.walk(node)
                continue
            visit, leave, _ = dispatch.get(type(node)) or self._handlers(type(node))
            handler = visit if event == VISIT else leave
            if handler is not None:
                handler(self, node)  # none of our visit_ methods skips children

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.frames.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        if self.frames and self.frames[-1].kind == "function":
            value = unwrap_await(node.value)
            if type(value) is cst.Call:  # `global api` then `api = Api()`
                for target in node.targets:
                    if type(target.target) is cst.Name and target.target.value in self.frames[-1].globals:
                        self._typed_name(target.target, self.aliases.resolve_or_local(value.func))
        receiver = self._receiver_of_value(node.value)
        if receiver is not None and receiver.is_ is Is.SERVER and len(node.targets) == 1:
            self.assigned_keys[id(unwrap_await(node.value))] = self._binding_key(node.targets[0].target)
        # Bound when the statement is left: the value's own calls still see the names' old
        # bindings (`server = restrict(server)` hands on the server the parameter held).
        self._assigned[id(node)] = receiver
        for target in node.targets:
            self._name_constructed(target.target, node.value, receiver)
            self._track_function_alias(target.target, node.value)
            self._track_table(target.target, node.value)
            self._raw_request_handler(target.target, node.value)
        if not self.frames and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
            self._module_constant(node.targets[0].target.value, node.value)
            if type(unwrap_await(node.value)) is cst.Call:
                self.module_objects.add(node.targets[0].target.value)

    def leave_Assign(self, original_node: cst.Assign) -> None:
        receiver = self._assigned.pop(id(original_node), None)
        for target in original_node.targets:
            self._bind(target.target, receiver)
            if type(target.target) is cst.Tuple and type(original_node.value) is cst.Tuple and len(target.target.elements) == len(original_node.value.elements):
                # `self._mcp, self._client = mcp, client`: each name takes its own value.
                for name, value in zip(target.target.elements, original_node.value.elements):
                    self._bind(name.value, self._receiver_of_value(value.value))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        receiver = self._receiver_of_value(node.value) if node.value is not None else None
        if receiver is None or receiver.is_ is Is.UNKNOWN:
            # `mcp: FastMCP = create()`: the annotation says what the value does not.
            annotated = self._receiver_of_annotation(node.annotation.annotation)
            if annotated.is_ is not Is.UNKNOWN:
                receiver = annotated
        self._bind(node.target, receiver)
        if node.value is not None:
            self._name_constructed(node.target, node.value, receiver)
            self._track_table(node.target, node.value)
        if not self.frames and type(node.target) is cst.Name and node.value is not None:
            self._module_constant(node.target.value, node.value)
        self._typed_name(node.target, annotation_type(node.annotation.annotation, self.aliases))

    def visit_Return(self, node: cst.Return) -> None:
        # `return FastMCP(...)` / `return server`: the function is a server factory.
        if node.value is None or not self.frames or self.frames[-1].kind != "function":
            return
        self._returned_table(node.value)
        receiver = self._receiver_of_value(node.value)
        if receiver is not None and receiver.is_ is Is.SERVER and receiver.family is not None:
            self.model.servers.setdefault(self.frames[-1].qual, receiver.family)


def _handled(prefix: str) -> frozenset[type]:
    """The node classes _ModuleWalker has a `visit_` / `leave_` method for."""
    names = (name[len(prefix) :] for name in dir(_ModuleWalker) if name.startswith(prefix))
    return frozenset(getattr(cst, name) for name in names)


# What a function's facts walk records for _ModuleWalker to replay (collect_facts' `record`).
_RECORDED = (_handled("visit_"), _handled("leave_"))


def build_model(module: cst.Module, module_name: str, is_package: bool, copies: tuple[FrameworkCopy, ...] = ()) -> ModuleModel:
    aliases = AliasTable(module_name, is_package, copies)
    # Top-level imports first, so decorators above a late import still resolve.
    fallbacks: set[int] = set()
    for stmt in module.body:
        for node, fallback in _top_imports(stmt):
            if fallback:
                fallbacks.add(id(node))
            if type(node) is cst.Import:
                aliases.add_import(node, fallback)
            else:
                aliases.add_import_from(node, fallback)
    model = ModuleModel(module_name, aliases)
    walker = _ModuleWalker(model)
    walker.fallback_imports = fallbacks
    walker.class_bases = WrittenClassBases(model.classes, module_name, aliases)
    for index, stmt in enumerate(module.body):
        walker.top, walker.top_index = stmt, index
        walker.walk(stmt)
    return model


def _top_imports(stmt: cst.CSTNode, fallback: bool = False) -> Iterator[tuple[cst.Import | cst.ImportFrom, bool]]:
    """Import statements at module level, including inside `if`/`try` blocks, each with whether
    it is a fallback: in the clause of a `try` that catches ImportError (the body's import is the
    primary one)."""
    if type(stmt) is cst.SimpleStatementLine:
        for small in stmt.body:
            if type(small) in (cst.Import, cst.ImportFrom):
                yield small, fallback
    elif type(stmt) in (cst.If, cst.Try):
        blocks = [(stmt.body, fallback)]
        if type(stmt) is cst.Try:
            blocks.extend((handler.body, fallback or catches_import_error(handler)) for handler in stmt.handlers)
        elif type(stmt.orelse) is cst.If:
            yield from _top_imports(stmt.orelse, fallback)  # elif
        elif type(stmt.orelse) is cst.Else:
            blocks.append((stmt.orelse.body, fallback))
        for block, in_fallback in blocks:
            for child in block.body:
                yield from _top_imports(child, in_fallback)
