"""Name resolution across the linted modules: what a qualified name or a call designates.

A per-file summary names what a call or reference reaches as the module sees it (`app.store.load`,
`app.client.Api.get`, `app.server.client.get` for a module-level instance). This module answers,
over every summary of the project, what that is: a project function or method (through
re-exports, module aliases, instances, factories' annotated returns, base classes, a lifespan's
context), a project class and its ancestors or subclasses, a server, a table of functions.

Every qualified name the link step looks for goes through `ProjectNames.resolve`; a caller that
needs to know which names were looked for and not found (the prefilter: the modules that may
define them are the ones to analyse next) passes a `missing` callback, told what was being
looked for.
"""

from __future__ import annotations

import builtins
import contextlib
import enum
from typing import Callable, Iterable, Iterator

from mcp_lint.model import table_rows
from mcp_lint.model.elements import ELEMENT
from mcp_lint.model.facts import LIFESPAN
from mcp_lint.model.frameworks import Family
from mcp_lint.model.frameworks import server_family as framework_server_family
from mcp_lint.model.names import last_name
from mcp_lint.model.summary import ARGUMENT_REF, CallEdge, FunctionSummary, ModuleSummary, receiver_shift


class Lookup(enum.Enum):
    """What the link step was looking for when it resolved a name."""

    FOLLOWED = "followed"  # a function called, a re-export, an instance or factory followed
    REGISTRATION = "registration"  # a server tools are registered on (or what made it), a table of tools
    EXCEPTION_CLASS = "exception class"  # a class raised or caught, or one of its bases
    # A project class a method is called on from outside its hierarchy: its subclasses, wherever
    # they are defined, override what the call runs (ProjectNames.call_targets).
    SUBCLASSES = "subclasses"
    # A function whose parameter a call runs through a record's field (field_functions): the
    # modules spelling its name, which call or decorate with it, fill that parameter.
    CALLERS = "callers"
    # A project class some function makes (`client = StoreClient(cfg)`), asked for once a method
    # of a `typing.Protocol` is called: it may implement the protocol (implementers).
    MADE_CLASS = "made class"


# Where a callee names an element of a collection (`pkg.app.Server.tools.[].run`).
_ELEMENT_CUT = f".{ELEMENT}."

# Told each qualified name the link step looked for and did not find among the linted modules.
MissingName = Callable[[str, Lookup], None]

# What every exception has (BaseException's own attributes and methods).
BASE_EXCEPTION_ATTRS = frozenset(n for n in dir(BaseException) if not n.startswith("__")) | {"__cause__", "__context__", "__traceback__", "__notes__"}
BUILTIN_EXCEPTIONS = frozenset(n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException))
# The bases that make a class a structural type: its methods run as those of any class that
# implements them (ProjectNames.implementers).
_PROTOCOL_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol", "Protocol"})


def module_name_ends(modules: Iterable[str]) -> dict[str, str]:
    """The proper ends of dotted module names (`agents.helpers`, `helpers` of
    `pkg.agents.helpers`) that exactly one of `modules` has, each with its module."""
    found: dict[str, str | None] = {}
    for module in modules:
        parts = module.split(".")
        for cut in range(1, len(parts)):
            end = ".".join(parts[cut:])
            found[end] = module if end not in found else None
    return {end: module for end, module in found.items() if module is not None}


class ProjectNames:
    """The project's modules, functions, classes and servers by qualified name, and what a name
    found in one module designates in another."""

    def __init__(self, summaries: list[ModuleSummary], missing: MissingName | None = None) -> None:
        self.summaries = summaries
        self.missing = missing
        self._asks = missing is not None  # the prefilter's link step: lookups in vain are requests
        self.modules: dict[str, ModuleSummary] = {}
        self.functions: dict[str, tuple[ModuleSummary, FunctionSummary]] = {}
        self.servers: dict[str, Family] = {}
        self._functions_found: dict[str, tuple[tuple[ModuleSummary, FunctionSummary], ...]] = {}
        self._ancestors: dict[str, tuple[str, ...]] = {}
        # (method, calling class) -> the overrides a call may run instead (dispatched()).
        self._dispatch: dict[tuple[str, str], tuple[tuple[ModuleSummary, FunctionSummary], ...]] = {}
        # Class -> the project classes that name it as a base (subclasses()), built on the first question.
        self._subclasses: dict[str, list[str]] | None = None
        # The top-level names of the linted modules (is_reexported_from_outside), on first question.
        self._roots: frozenset[str] | None = None
        self._field_lookups: set[tuple[str, str]] = set()  # field_functions() being answered
        self.field_storers: set[str] = set()  # functions storing a parameter into a record's field
        self._keyword_functions: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] | None = None  # field_functions()
        self._made_asked = False  # _ask_for_made_classes() has told `missing` (once a run)
        for summary in summaries:
            self.modules.setdefault(summary.module, summary)
            for qual, fn in summary.functions.items():
                self.functions.setdefault(qual, (summary, fn))
            self.servers.update(summary.servers)
        # A module below namespace folders is also reached by its `__init__.py`-chain name (a
        # script importing a sibling); a real module of that name wins.
        self.module_aliases: dict[str, str] = {}
        for summary in summaries:
            if summary.module_alias and summary.module_alias not in self.modules:
                self.module_aliases.setdefault(summary.module_alias, summary.module)
        if any(summary.extends_path for summary in summaries):
            # A folder put on `sys.path` makes its modules importable by the end of their names
            # (`import helpers` for `pkg/agents/helpers.py`): each end that one module has.
            for end, module in module_name_ends(self.modules).items():
                # (The qualified name was asked for before this alias is followed: the prefilter
                # analyses every file with that end, so an ambiguous end is seen as one.)
                if end not in self.modules:
                    self.module_aliases.setdefault(end, module)

    def resolve(self, qualname: str, depth: int = 0, lookup: Lookup = Lookup.FOLLOWED) -> str:
        """Follow re-exports (`from .x import f` in another module) to where a name is defined;
        `lookup` says what the name is looked for as (for the `missing` callback)."""
        if qualname in self.functions or qualname in self.servers:
            return qualname
        if self.missing is not None:
            self.missing(qualname, lookup)
        if depth > 5:
            return qualname
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            summary = self.modules.get(module)
            if summary is None:
                canonical = self.module_aliases.get(module)
                if canonical is not None:
                    return self.resolve(".".join([canonical, *parts[cut:]]), depth + 1, lookup)
                continue
            rest = parts[cut:]
            target = summary.reexports.get(rest[0])
            if target is not None and target != qualname:
                return self.resolve(".".join([target, *rest[1:]]), depth + 1, lookup)
            return qualname
        return qualname

    def function(self, qualname: str, depth: int = 0) -> tuple[ModuleSummary, FunctionSummary] | None:
        """The function a qualified name designates, through re-exports, instances and base classes
        (the first of `candidates`)."""
        found = self.candidates(qualname, depth)
        return found[0] if found else None

    def candidates(self, qualname: str, depth: int = 0) -> tuple[tuple[ModuleSummary, FunctionSummary], ...]:
        """Every function a qualified name may designate: one, except for a method called on what
        a factory without a return annotation hands back, which may be the function of that name
        in each module or class it returns (`store = pick_store(); store.read(k)` with
        `pick_store` returning one of two modules)."""
        if depth:
            return self._candidates(qualname, depth)
        # Memoised: trace_tools() asks once per tool for every call of every helper it passes through.
        if qualname not in self._functions_found:
            found = self._candidates(qualname, 0)
            if not found and self.missing is None and self._asks:
                # Looked up in vain while not asking (_not_asking): not remembered, so that the
                # next lookup tells `missing` and the module defining it is analysed.
                return found
            self._functions_found[qualname] = found
        return self._functions_found[qualname]

    def _candidates(self, qualname: str, depth: int) -> tuple[tuple[ModuleSummary, FunctionSummary], ...]:
        if qualname.startswith(LIFESPAN + "."):
            member = self._lifespan_member(qualname[len(LIFESPAN) :], depth)
            return (member,) if member is not None else ()
        resolved = self.resolve(qualname)
        found = self.functions.get(resolved)
        if found is not None:
            return (found,)
        if depth > 4:
            return ()
        if _ELEMENT_CUT in resolved:
            # `tools[name].run` (model/elements.py): the `run` of each class the collection holds.
            holder, _, member = resolved.partition(_ELEMENT_CUT)
            out = {c[1].qualname: c for made in self.element_makers(holder, depth) for c in self.candidates(f"{made}.{member}", depth + 1)}
            return tuple(out.values())
        parts = resolved.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            summary = self.modules.get(".".join(parts[:cut]))
            if summary is None:
                continue
            rest = parts[cut:]
            # `client.get` with `client = Api()` (module level) or `Cls.client.get` (self.client = Api()).
            for width in (2, 1):
                key = ".".join(rest[:width])
                if len(rest) > width and key in summary.instances:
                    return self.candidates(".".join([summary.instances[key], *rest[width:]]), depth + 1)
            if len(rest) == 1 and rest[0] in summary.instances:
                # `run = make_runner(impl=...)` at module level, then `run(q)`: the closure the
                # factory hands back (FunctionSummary.returned_objects naming its own inner def).
                closures = self.closures_made_by(summary.instances[rest[0]])
                if closures:
                    return closures
            # `make_client.get`: a method of what the factory returns (`def make_client() -> Api`),
            # or of each module or class it returns when no annotation says.
            for width in (2, 1):
                factory = self.functions.get(".".join(parts[: cut + width]))
                if len(rest) <= width or factory is None:
                    continue
                made = (factory[1].returns_type,) if factory[1].returns_type else factory[1].returned_objects
                out = {c[1].qualname: c for kind in made for c in self.candidates(".".join([kind, *rest[width:]]), depth + 1)}
                if not out and factory[1].returns_type:
                    # An annotation that names no class with that method (`-> AuthStrategy`, a
                    # module-level union alias): what the factory returns says which classes.
                    out = {c[1].qualname: c for kind in factory[1].returned_objects for c in self.candidates(".".join([kind, *rest[width:]]), depth + 1)}
                if out:
                    return tuple(out.values())
            # A method inherited from a base class.
            class_key = f"{summary.module}.{rest[0]}" if summary.module else rest[0]
            if len(rest) == 2 and class_key in summary.classes:
                for base in summary.classes[class_key]:
                    found = self.function(f"{base}.{rest[1]}", depth + 1)
                    if found is not None:
                        return (found,)
                # No method of that name: a field holding a function (`tool.handler(args)` on a
                # record made as `ToolDef(handler=fn)`) runs what its constructors are handed.
                return self.field_functions(class_key, rest[1])
            break
        return ()

    def field_functions(self, cls: str, field: str) -> tuple[tuple[ModuleSummary, FunctionSummary], ...]:
        """The project functions handed to the project class `cls` as its `field` where an object
        of it is made (`ToolDef(name=n, handler=fn)` anywhere, ModuleSummary.callable_arguments):
        a function, or what a decorator's or register function's parameter receives (a
        registering decorator storing `ToolDef(handler=handler)` in a table: what it decorates).
        A call through the field (`TOOLS[name].handler(args, ctx)`) runs one of them. Keywords
        only: a positional argument's field is not known from the call."""
        key = (cls, field)
        if key in self._field_lookups:
            return ()  # asked again while answering (a field function's own field call)
        self._field_lookups.add(key)
        try:
            if self._keyword_functions is None:  # (class name as called, keyword) -> (callee, names)
                self._keyword_functions = {}
                for summary in self.summaries:
                    for callee, _, keyword, named in summary.callable_arguments:
                        if keyword and last_name(callee)[:1].isupper():
                            self._keyword_functions.setdefault((last_name(callee), keyword), []).append((callee, named))
            out: dict[str, None] = {}
            for callee, named in self._keyword_functions.get((last_name(cls), field), ()):
                if self.resolve(callee) != cls:
                    continue
                for name in named:
                    self._ask_for_callers(name)
                    out.update(dict.fromkeys(self.functions_passed(name)))
            return tuple(self.functions[qual] for qual in out if qual in self.functions)
        finally:
            self._field_lookups.discard(key)

    def functions_passed(self, name: str) -> list[str]:
        """The project functions a name handed to a call stands for: the function it names (the
        link step follows parameters and decorators too: Project)."""
        found = self.function(name)
        return [found[1].qualname] if found is not None else []

    def _ask_for_callers(self, name: str) -> None:
        """The function whose parameter `name` (an ARGUMENT_REF) is stores what it is handed into
        a record's field: a registering decorator, no wrapper around the calls of what it
        decorates (Project.wrapper_bodies). Tell `missing` of it: what its callers pass, or what
        it decorates, is wanted; for a decorator defined in a factory (`def tool(name): def
        wrap(handler): ...`), the factory is what the callers spell."""
        if not name.startswith(ARGUMENT_REF):
            return
        function = name[len(ARGUMENT_REF) :].rpartition("#")[0]
        self.field_storers.add(function)  # it stores what it is handed: no wrapper around calls
        parent = function.rpartition(".")[0]
        if self.missing is not None:
            self.missing(parent if parent in self.functions else function, Lookup.CALLERS)

    def closures_made_by(self, maker: str) -> tuple[tuple[ModuleSummary, FunctionSummary], ...]:
        """The inner functions a factory returns (`def make(impl): def run(q): ...; return run`),
        each defined in the factory's own body; nothing for a class or any other factory."""
        factory = self.functions.get(self.resolve(maker))
        if factory is None:
            return ()
        prefix = factory[1].qualname + "."
        return tuple(self.functions[q] for q in factory[1].returned_objects if q.startswith(prefix) and q in self.functions)

    def element_makers(self, holder: str, depth: int = 0) -> tuple[str, ...]:
        """What made the objects of a collection (ModuleSummary.elements), by its qualified name:
        through re-exports, an attribute of a module-level or `self` instance (`registry.tools`
        with `registry = Registry()`), and a base class that fills it (`self.tools` in a subclass)."""
        resolved = self.resolve(holder, lookup=Lookup.REGISTRATION)
        parts = resolved.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            summary = self.modules.get(".".join(parts[:cut]))
            if summary is None:
                continue
            if resolved in summary.elements or resolved in summary.element_params:
                passed = (m for entry in summary.element_params.get(resolved, ()) for m in self._objects_passed(*entry))
                return tuple(dict.fromkeys((*summary.elements.get(resolved, ()), *passed)))
            rest = parts[cut:]
            if depth > 4 or len(rest) < 2:
                return ()
            for width in (2, 1):
                key = ".".join(rest[:width])
                if len(rest) > width and key in summary.instances:
                    return self.element_makers(".".join([summary.instances[key], *rest[width:]]), depth + 1)
            class_key = f"{summary.module}.{rest[0]}" if summary.module else rest[0]
            if len(rest) == 2 and class_key in summary.classes:
                for base in summary.classes[class_key]:
                    found = self.element_makers(f"{self.resolve(base)}.{rest[1]}", depth + 1)
                    if found:
                        return found
            return ()
        return ()

    def _objects_passed(self, function: str, param: str) -> list[str]:
        """What made the objects callers pass to `function`'s parameter `param` (`registry.add(
        Search())`, ModuleSummary.object_arguments)."""
        found = self.function(function)
        if found is None or param not in found[1].params:
            return []
        params = found[1].params
        shift = 1 if params and params[0] in {"self", "cls"} else 0
        out: list[str] = []
        for summary in self.summaries:
            for callee, position, keyword, maker in summary.object_arguments:
                if keyword != param and (keyword or params[position + shift : position + shift + 1] != (param,)):
                    continue
                target = self.function(callee)
                if target is not None and target[1].qualname == found[1].qualname:
                    out.append(maker)
        return out

    def class_ancestors(self, qual: str) -> tuple[str, ...]:
        """A project class and every class it inherits from, qualified (through re-exports),
        read in the modules that define them (the prefilter asks for those: see
        exception_classes)."""
        if qual not in self._ancestors:
            self._ancestors[qual] = ()  # a cycle of bad bases ends here
            found = [self.resolve(qual, lookup=Lookup.EXCEPTION_CLASS)]
            module = self.modules.get(found[0].rpartition(".")[0])
            for base in module.classes.get(found[0], ()) if module is not None else ():
                found.extend(a for a in self.class_ancestors(base) if a not in found)
            self._ancestors[qual] = tuple(found)
        return self._ancestors[qual]

    def is_project_class(self, qual: str) -> bool:
        """Is `qual` a class defined in one of the linted modules?"""
        resolved = self.resolve(qual)
        module = self.modules.get(resolved.rpartition(".")[0])
        return module is not None and resolved in module.classes

    def is_reexported_from_outside(self, qual: str) -> bool:
        """Is `qual` a name a project module imports from code outside the project and passes on
        (`from somelib.errors import ApiError` in the project's `client.py`, caught elsewhere as
        `client.ApiError`)? Then it is that library's class, not the project's."""
        resolved = self.resolve(qual, lookup=Lookup.EXCEPTION_CLASS)
        if resolved == qual or self.is_project_class(resolved):
            return False
        if self._roots is None:
            self._roots = frozenset(name.split(".")[0] for name in (*self.modules, *self.module_aliases))
        return resolved.split(".")[0] not in self._roots

    def looked_up_classes(self) -> Iterable[tuple[str, ...]]:
        """Each exception class looked up so far with its ancestors (class_ancestors)."""
        return self._ancestors.values()

    def exception_classes(self, reached: Iterable[str]) -> None:
        """Look up the project exception classes that reached functions raise or catch, and their
        bases: where they are defined decides which `except` catches which raise, and which
        classes carry library text (_CarriedText)."""
        for qual in reached:
            fn = self.functions[qual][1]
            for raised, *_ in fn.exception_raises:
                self.class_ancestors(raised)
            for latent in fn.latent:
                for name in latent.classes:
                    self.class_ancestors(name)

    def _lifespan_member(self, rest: str, depth: int) -> tuple[ModuleSummary, FunctionSummary] | None:
        """`<lifespan>.db.query`: the method on what a server's lifespan function yields
        (`async def lifespan(server) -> AsyncIterator[AppContext]`, AppContext having `db: Database`)."""
        for summary in self.summaries:
            for lifespan in summary.lifespans:
                found = self.function(lifespan)
                # The annotation's class, else what an unannotated lifespan yields (`yield AppContext(...)`).
                made = (found[1].returns_type,) if found is not None and found[1].returns_type else found[1].returned_objects if found is not None else ()
                # A dict it yields: its entries are recorded as instances of `lifespan.<key>`.
                for kind in (*made, lifespan):
                    method = self.function(kind + rest, depth + 1)
                    if method is not None:
                        return method
        return None

    def call_targets(self, caller: str, edge: CallEdge) -> list[tuple[ModuleSummary, FunctionSummary]]:
        """What a call in `caller` may run: the function its callee names (each, for a method of
        what an unannotated factory returns: `candidates`) and, for a method called on an object
        typed by a project class from outside that class's hierarchy (`handler.run_tool(args)`
        with `handler: Handler`, whatever Handler subclass it is), each project subclass's
        override of it (class-hierarchy dispatch)."""
        targets = self.candidates(edge.callee)
        if not edge.via_attribute:
            return list(targets)
        return [t for target in targets for t in (target, *self.dispatched(target[1].qualname, caller))]

    def dispatched(self, method: str, caller: str) -> tuple[tuple[ModuleSummary, FunctionSummary], ...]:
        """The overrides a call of `method` (on an object, `x.method()`) from `caller` may run
        instead (call_targets). A call inside the hierarchy (`self.summary()` in a method of the
        class or of a subclass) runs the object's own class's method: the overrides of the
        subclasses that inherit `caller` itself (an object of one runs `caller`, and then its
        own `summary`), not those of siblings or of subclasses with their own `caller`."""
        owner = method.rpartition(".")[0]
        caller_class = caller.rpartition(".")[0]
        key = (method, caller_class)
        found = self._dispatch.get(key)
        if found is not None:
            return found
        found = ()
        module = self.modules.get(owner.rpartition(".")[0])
        # Not a module-level function, nor a class of no module read here, nor a call within the hierarchy.
        if module is not None and owner in module.classes:
            if self.missing is not None:
                self.missing(owner, Lookup.SUBCLASSES)  # the modules defining subclasses may be unread
            overrides = self.overrides(method)
            if caller_class == owner or caller_class in self.subclasses(owner):
                name = caller.rpartition(".")[2]
                below = set(self.subclasses(caller_class))
                overrides = [o for o in overrides if o.rpartition(".")[0] in below and self._inherits(o.rpartition(".")[0], caller_class, name)]
            else:
                overrides = [*overrides, *self.implementers(method)]
            found = tuple(self.functions[override] for override in overrides)
        self._dispatch[key] = found
        return found

    def implementers(self, method: str) -> list[str]:
        """For a method of a project `typing.Protocol` class: the same method of each project
        class, read in the modules analysed, that implements the protocol without inheriting it
        (defines every method the protocol declares). An object typed by the protocol
        (`client: StoreProtocol`) runs one of them."""
        owner, _, name = method.rpartition(".")
        with self._not_asking():
            module = self.modules.get(owner.rpartition(".")[0])
            bases = module.classes.get(owner, ()) if module is not None else ()
            if not any(self.resolve(base) in _PROTOCOL_BASES for base in bases):
                return []
        self._ask_for_made_classes()
        with self._not_asking():
            declared = {q.rpartition(".")[2] for q in self.functions if q.rpartition(".")[0] == owner}
            out = []
            for summary in self.summaries:
                for cls in summary.classes:
                    if cls != owner and all(f"{cls}.{m}" in self.functions for m in declared | {name}):
                        out.append(f"{cls}.{name}")
        return sorted(out)

    def _ask_for_made_classes(self) -> None:
        """Tell `missing` of the project classes the analysed functions make whose modules are
        not read yet: an implementer of a protocol is made somewhere (the server factory's
        `client = StoreClient(cfg)`), often in a module that never names the protocol."""
        if self.missing is None or self._made_asked:
            return
        self._made_asked = True
        if self._roots is None:
            self._roots = frozenset(name.split(".")[0] for name in (*self.modules, *self.module_aliases))
        for summary in self.summaries:
            for fn in summary.functions.values():
                for edge in fn.calls:
                    callee = edge.callee
                    if not edge.via_attribute and last_name(callee)[:1].isupper() and callee.split(".")[0] in self._roots and callee not in self.functions:
                        self.missing(callee, Lookup.MADE_CLASS)

    def _inherits(self, cls: str, ancestor: str, name: str) -> bool:
        """Does `cls` (a subclass of `ancestor`) run `ancestor`'s method `name`: neither it nor a
        class between them defines its own?"""
        if f"{cls}.{name}" in self.functions:
            return False
        with self._not_asking():
            module = self.modules.get(cls.rpartition(".")[0])
            bases = [self.resolve(base) for base in module.classes.get(cls, ())] if module is not None else []
        below = set(self.subclasses(ancestor))
        return any(base == ancestor or (base in below and self._inherits(base, ancestor, name)) for base in bases)

    def overrides(self, method: str) -> list[str]:
        """The methods of the project's subclasses (at any depth) that override `method` of a
        class, as read in the modules analysed."""
        owner, _, name = method.rpartition(".")
        return sorted(f"{cls}.{name}" for cls in self.subclasses(owner) if f"{cls}.{name}" in self.functions)

    @contextlib.contextmanager
    def _not_asking(self) -> Iterator[None]:
        """While a map over every summary read so far is built: a name it cannot resolve is not
        a reason to analyse more files (`missing` is the pipeline's request for them)."""
        missing, self.missing = self.missing, None
        try:
            yield
        finally:
            self.missing = missing

    def subclasses(self, owner: str) -> list[str]:
        """The project's subclasses of a class, at any depth, as read in the modules analysed."""
        if self._subclasses is None:
            self._subclasses = {}
            with self._not_asking():  # what bases are is not worth analysing more files
                for summary in self.summaries:
                    for cls, bases in summary.classes.items():
                        for base in bases:
                            self._subclasses.setdefault(self.resolve(base), []).append(cls)
        out: list[str] = []
        pending, seen = list(self._subclasses.get(owner, ())), {owner}
        while pending:
            cls = pending.pop()
            if cls in seen:
                continue
            seen.add(cls)
            out.append(cls)
            pending.extend(self._subclasses.get(cls, ()))
        return out

    def lacks_attribute(self, qual: str, attr: str) -> bool:
        """Can no instance of the project class `qual` have `attr`? True only when the class, its
        bases (up to builtin exceptions) and its subclasses are all read here and none defines it:
        then `getattr(e, attr, None) == 429` is never true."""
        if attr.startswith("__") or attr in BASE_EXCEPTION_ATTRS:
            return False
        for cls in (*self.class_ancestors(qual), *self.subclasses(self.resolve(qual))):
            module = self.modules.get(cls.rpartition(".")[0])
            attrs = module.class_attrs.get(cls) if module is not None else None
            if attrs is None:
                if module is not None and cls in module.classes:
                    return False  # the project's, but open or not read as an exception
                if last_name(cls) not in BUILTIN_EXCEPTIONS:
                    return False  # a library's class: its attributes are not known here
            elif attr in attrs:
                return False
        return True

    def function_table(self, qualname: str) -> list[str]:
        """The functions of a module-level dict or list of another module, through re-exports."""
        resolved = self.resolve(qualname, lookup=Lookup.REGISTRATION)
        module, _, name = resolved.rpartition(".")
        summary = self.modules.get(module)
        return list(summary.function_tables.get(name, ())) if summary is not None else []

    def decorated_with(self, decorator: str) -> list[str]:
        """The functions decorated with `decorator` (the link step knows them: Project)."""
        return []

    def table(self, start: str) -> table_rows.Table | None:
        """A table of rows by where a path starts (table_rows.TablePath): a function's returned
        table, a table it builds in a local, or a module-level table, in any module."""
        if start.endswith(table_rows.RETURNED) or table_rows.LOCAL in start:
            function, local, name = start.removesuffix(table_rows.RETURNED).partition(table_rows.LOCAL)
            found = self.function(function)
            if found is None:
                return None
            suffix = local + name if local else table_rows.RETURNED
            return found[0].tables.get(found[1].qualname + suffix)
        resolved = self.resolve(start, lookup=Lookup.REGISTRATION)
        module = resolved.rpartition(".")[0]
        while module and module not in self.modules:  # a class's table (`pkg.app.Registry._tools`)
            module = module.rpartition(".")[0]
        summary = self.modules.get(module)
        return summary.tables.get(resolved) if summary is not None else None

    def server_family(self, key: str) -> Family | None:
        """The family of a server variable, also when it was made by a project subclass or
        factory in another module (`mcp = MyServer()` there, `from .server import mcp` here)."""
        resolved = self.resolve(key, lookup=Lookup.REGISTRATION)
        # A framework's class re-exported by a module of the project (`from ._compat import
        # FastMCP`, a shim over the 1.x/2.x rename) builds that framework's server.
        family = self.servers.get(resolved) or framework_server_family(resolved)
        if family is None:
            made_by = self.made_by(resolved)
            if made_by:
                family = self.servers.get(made_by) or framework_server_family(made_by)
        return family

    def made_by(self, resolved: str) -> str:
        """What made a module-level object of the project (`mcp = make_server()`: the callable,
        through re-exports), "" when nothing the module records did."""
        module, _, name = resolved.rpartition(".")
        summary = self.modules.get(module)
        made_by = summary.instances.get(name) if summary is not None else None
        return self.resolve(made_by, lookup=Lookup.REGISTRATION) if made_by else ""

    def _is_project_class(self, key: str) -> bool:
        resolved = self.resolve(key)
        return any(resolved in summary.classes for summary in self.summaries)

    def bound_calls(self, edge: CallEdge, target: FunctionSummary) -> list[tuple[tuple[ModuleSummary, FunctionSummary], CallEdge]]:
        """Calls `target` makes on an untyped parameter that `edge`'s caller fills with an object
        of a known class (`run(sql, db_client)` with `db_client = DatabaseClient()`, and
        `def run(sql, db): db.query(sql)`): those methods, with the call that reaches each."""
        if not edge.arg_types:
            return []
        params = target.params
        shift = receiver_shift(edge.via_attribute, params)
        types: dict[int, str] = {}
        for position, keyword, type_name in edge.arg_types:
            index = params.index(keyword) if keyword in params else (position + shift if position >= 0 else -1)
            if index >= 0:
                types[index] = type_name
        out = []
        for call in target.calls:
            if call.param_call is not None and call.param_call[0] in types:
                found = self.function(types[call.param_call[0]] + call.param_call[1])
                if found is not None:
                    out.append((found, call))
        return out
