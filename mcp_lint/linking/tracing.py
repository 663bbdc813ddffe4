"""The walk from the tools into the functions they reach: ONE breadth-first walk over the call edges.

From each registered tool (and the bodies of the decorators' wrappers around it) the walk follows
every call edge to what it may run in the project (ProjectNames.call_targets: the function the
callee names, and the subclasses' overrides of a method called on a base-class-typed object), and
the methods a callee calls on a typed object its caller passes in (ProjectNames.bound_calls),
MAX_DEPTH deep. What it
carries along a path is a `Way`'s business:

- `Reachability` carries nothing: each function is entered once, at the depth of its shortest path
  from a tool. The prefilter runs it between rounds (Project.traced_functions), cheaply, and
  listens to the names it looks up;
- `ToolTrace` carries, tool by tool, how much of the function's value the tool returns, which
  `try` statements are on the way, which exceptions are handed in, which branch conditions the
  callers left on: ToolPaths, what the link step renders findings from (Project.trace_tools).

Both go through the same `walk`, so they look up exactly the same names and reach exactly the same
functions; only what they keep differs.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, Iterable, NamedTuple, TypeVar

from mcp_lint.linking.names import ProjectNames
from mcp_lint.model.frameworks import Family
from mcp_lint.model.message_text import SERIALISERS
from mcp_lint.model.summary import CallEdge, FunctionSummary, receiver_shift
from mcp_lint.rules.results import is_error_builder_name

MAX_DEPTH = 8
# How much of a function's return value a tool returns (ToolTrace).
NOTHING, PART, WHOLE = 0, 1, 2


def passes(edge: CallEdge) -> int:
    """How much of the callee's value the caller returns (or raises in a ToolError): WHOLE,
    PART or NOTHING."""
    return WHOLE if edge.returned or edge.flows else PART if edge.feeds else NOTHING


@dataclass(frozen=True)
class ToolStart:
    """A registered tool as the walk starts from it (Project.tool_starts)."""

    function: str  # the handler's qualified name
    tool: str  # the name it is registered under
    kind: str  # ToolRegistration.kind
    family: Family
    major: int | None
    masked: str  # what masks its unexpected exception text (Project.masks), "" if nothing
    guarded: frozenset  # the `try` statements around the handler's call (a dispatcher's)
    wrappers: tuple[str, ...]  # the decorators' wrappers run on each call (Project.wrapper_bodies)


@dataclass
class ToolPaths:
    """How tools reach one function: which tools, through which `try` statements, and what of its
    value they return (ToolTrace)."""

    tools: set[str] = field(default_factory=set)
    own_names: set[str] = field(default_factory=set)  # names it is registered under itself
    # For each way tools reach it: the `try` statements around the calls on the way.
    guards: set[frozenset] = field(default_factory=set)
    families: list[tuple[Family, int | None, str]] = field(default_factory=list)  # (family, major, tool)
    returns: bool = False
    # Tools that return text taken from this function's value (`f"Failed: {r['error']}"`), or
    # the value itself: where a caught exception's text it returns reaches the model.
    carry_tools: set[str] = field(default_factory=set)
    carries: bool = False
    # The items of its value those tools return (`r["data"]`); None: all, or any.
    selects: frozenset[str] | None = frozenset()
    # For each tool, each way it reaches it: the conditions on its arguments the caller already
    # left on (a branch on one of them is never taken from there).
    excludes: dict[str, set[frozenset[str]]] = field(default_factory=dict)
    exc_params: set[int] = field(default_factory=set)
    failure_params: set[int] = field(default_factory=set)  # filled with a failure a caller caught or found
    # Those of `exc_params` where a caller raises the value it gets back (`raise make_error(e)`):
    # an exception this function builds from such a parameter is raised there (mark_raised_text()).
    raised_exc_params: set[int] = field(default_factory=set)
    # ... and those it fills with a response it found failed (`raise _error_from_response(exc.response)`).
    raised_body_params: set[int] = field(default_factory=set)
    # A caller raises a plain exception with text of this function's value (directly or through
    # callers returning it): the class, "" if none (mark_raised_text()).
    raised_text: str = ""
    is_tool: bool = False
    kind: str = "tool"
    masked: str = ""  # what masks unexpected exception text on every tool's server (Project.masks)


State = TypeVar("State")


class Way(Generic[State]):
    """What one kind of walk carries along a path from a tool, and keeps of each function reached."""

    def start(self, start: ToolStart) -> State:
        """The state at the tool's handler."""
        raise NotImplementedError

    def wrapper(self, start: ToolStart) -> State:
        """The state at a wrapper a decorator runs around the tool (it returns the tool's value)."""
        raise NotImplementedError

    def key(self, function: str, state: State) -> Hashable:
        """Two arrivals with one key are one: the first (the shortest path) is kept."""
        raise NotImplementedError

    def arrive(self, function: str, state: State) -> None:
        """Keep what the path says of the function."""
        raise NotImplementedError

    def call(self, state: State, edge: CallEdge, callee: FunctionSummary) -> State:
        """The state at the callee of `edge`, made in a function reached with `state`."""
        raise NotImplementedError

    def bound(self, at_callee: State, call: CallEdge) -> State:
        """The state at a method the callee calls on a typed object its caller passed
        (ProjectNames.bound_calls): `call` is that call in the callee, `at_callee` the callee's state."""
        raise NotImplementedError


def walk(
    names: ProjectNames, starts: Iterable[ToolStart], way: Way, wrapped_by: Callable[[FunctionSummary], list[str]] | None = None
) -> None:
    """Walk from every tool through the calls it makes (MAX_DEPTH deep), breadth first, telling
    `way` of each arrival whose key is new. `wrapped_by` names the bodies of the decorators'
    wrappers around a function (Project.wrapper_bodies): a call of a decorated helper runs them
    too (`@handle_errors def fetch(...)`, whose wrapper's `except` raises for every failure)."""
    queue: deque[tuple[str, int, object]] = deque()
    seen: set[Hashable] = set()

    def push(function: str, depth: int, state: object) -> None:
        key = way.key(function, state)
        if key not in seen:
            seen.add(key)
            queue.append((function, depth, state))

    for start in starts:
        push(start.function, 0, way.start(start))
        for wrapper in start.wrappers:
            push(wrapper, 1, way.wrapper(start))
    entered: set[str] = set()
    while queue:
        qual, depth, state = queue.popleft()
        way.arrive(qual, state)
        fn = names.functions[qual][1]
        if names.missing is not None and qual not in entered:  # only a listener wants these looked up
            entered.add(qual)
            for latent in fn.latent:
                for needed in latent.needs_names:
                    names.resolve(needed)  # its module decides the finding: analyse it
        if depth >= MAX_DEPTH:
            continue
        for edge in fn.calls:
            # What the call may run (ProjectNames.call_targets, spelled out: the walk's inner loop).
            for target in _call_targets(names, qual, edge):
                if target[1].qualname == qual:
                    continue
                at_callee = way.call(state, edge, target[1])
                push(target[1].qualname, depth + 1, at_callee)
                if target[1].wrappers and wrapped_by is not None:
                    # The wrapper stands where the callee does: it returns the callee's value.
                    for wrapper in wrapped_by(target[1]):
                        if wrapper in names.functions:
                            push(wrapper, depth + 1, at_callee)
                if edge.arg_types:
                    for bound, call in names.bound_calls(edge, target[1]):
                        push(bound[1].qualname, depth + 2, way.bound(at_callee, call))


def _call_targets(names: ProjectNames, caller: str, edge: CallEdge) -> Iterable[tuple]:
    """ProjectNames.call_targets without building a list for the common call of one function."""
    found = names.candidates(edge.callee)
    if len(found) == 1 and not edge.via_attribute:
        return found
    return names.call_targets(caller, edge)


class Reachability(Way[None]):
    """The functions the tools reach, and nothing about how: each entered once."""

    def __init__(self) -> None:
        self.functions: dict[str, None] = {}  # in the order reached

    def start(self, start: ToolStart) -> None:
        return None

    def wrapper(self, start: ToolStart) -> None:
        return None

    def key(self, function: str, state: None) -> Hashable:
        return function

    def arrive(self, function: str, state: None) -> None:
        self.functions[function] = None

    def call(self, state: None, edge: CallEdge, callee: FunctionSummary) -> None:
        return None

    def bound(self, at_callee: None, call: CallEdge) -> None:
        return None


class Path(NamedTuple):
    """Where a path from one tool stands at a function (ToolTrace's state; a tuple, as the walk
    makes one per call followed)."""

    tool: str
    family: Family
    major: int | None
    sends: int  # how much of the function's value the tool returns: WHOLE, PART or NOTHING
    selects: frozenset[str] | None  # with PART, which items of it (None: any)
    exc_params: frozenset[int]  # the parameters a caller fills with a caught foreign exception
    failure_params: frozenset[int]  # ... with a failure it caught or found (CallEdge.failure_params)
    masked: str
    guard: frozenset  # the `try` statements around the calls on the way
    excludes: frozenset[str]  # the branch conditions the caller left on


class ToolTrace(Way[Path]):
    """Every function reached, with how the tools reach it (ToolPaths)."""

    def __init__(self, names: ProjectNames) -> None:
        self.names = names
        self.reached: dict[str, ToolPaths] = {}

    def start(self, start: ToolStart) -> Path:
        entry = self.reached.setdefault(start.function, ToolPaths())
        if not entry.is_tool:
            entry.kind = start.kind  # the first registration says what kind of handler it is
        entry.is_tool = True
        entry.own_names.add(start.tool)
        return Path(start.tool, start.family, start.major, WHOLE, None, frozenset(), frozenset(), start.masked, start.guarded, frozenset())

    def wrapper(self, start: ToolStart) -> Path:
        return Path(start.tool, start.family, start.major, WHOLE, None, frozenset(), frozenset(), start.masked, frozenset(), frozenset())

    def key(self, function: str, state: Path) -> Hashable:
        return (function, state.tool, state.sends, state.selects, state.exc_params, state.failure_params, state.guard, state.excludes)

    def arrive(self, function: str, state: Path) -> None:
        entry = self.reached.setdefault(function, ToolPaths())
        entry.tools.add(state.tool)
        entry.families.append((state.family, state.major, state.tool))
        if state.sends == WHOLE:
            entry.returns = True
        if state.sends != NOTHING:
            entry.carries = True
            entry.carry_tools.add(state.tool)
            entry.selects = None if state.selects is None or entry.selects is None else entry.selects | state.selects
        entry.exc_params |= state.exc_params
        entry.failure_params |= state.failure_params
        entry.guards.add(state.guard)
        entry.excludes.setdefault(state.tool, set()).add(state.excludes)
        # A helper counts as masked only when every tool reaching it masks (named by the last).
        entry.masked = state.masked if len(entry.tools) == 1 else (entry.masked and state.masked)

    def call(self, state: Path, edge: CallEdge, callee: FunctionSummary) -> Path:
        shift = receiver_shift(edge.via_attribute, callee.params)
        passed = frozenset(i + shift for i in edge.exc_params)
        if state.exc_params and edge.forwards:  # `fail(exc)` handing the caught exception on
            passed |= frozenset(i + shift for i, own in edge.forwards if own in state.exc_params)
        caught = frozenset(i + shift for i in edge.failure_params)
        if state.failure_params and edge.forwards:
            caught |= frozenset(i + shift for i, own in edge.forwards if own in state.failure_params)
        # The helper's value reaches the model when the caller returns it, or anything built from
        # it (json.dumps, TextContent, an f-string, a wrapping dict); a part of it (`r["error"]`)
        # still carries its text. A part of a part is a part.
        passed_on = passes(edge)
        if passed_on == PART and edge.wrapped_by is not None and formats_as_is(self.names, edge.wrapped_by):
            passed_on = WHOLE  # `return format_text_response(result)`: the value as it is
        if passed_on == PART and edge.receiver_of and returns_its_object(self.names, callee, edge.receiver_of):
            passed_on = WHOLE  # `return load(key).to_text()`: what the object holds, as it is
        # Items selected of the caller's value are items of the helper's when it returns its value
        # whole; a part taken here selects anew.
        selected = state.selects if passed_on == WHOLE else edge.selects
        level = min(state.sends, passed_on)
        if edge.raised and level == NOTHING:
            # `raise ToolError(describe(exc))` in a helper whose value the tool ignores: the raise
            # still takes the text to the model.
            level, selected = PART, edge.selects
        if state.sends == PART and state.selects is not None and edge.slot is not None:
            # The tool takes items of the caller's returned literal (`content, _ = fetch()` after
            # `return extract(page), ""`): the one holding this call, whole, or not it.
            level, selected = (WHOLE, None) if edge.slot in state.selects else (NOTHING, None)
        return Path(
            state.tool,
            state.family,
            state.major,
            level,
            selected if level == PART else None,
            passed,
            caught,
            state.masked,
            state.guard | edge.guarded,
            edge.excludes,
        )

    def bound(self, at_callee: Path, call: CallEdge) -> Path:
        through = min(at_callee.sends, passes(call))
        return Path(
            at_callee.tool, at_callee.family, at_callee.major, through, None, frozenset(), frozenset(), at_callee.masked, at_callee.guard | call.guarded, call.excludes
        )


def formats_as_is(names: ProjectNames, qualname: str) -> bool:
    """Does the project function return its first argument as it is, in a normal result
    (`format_text_response(text)` -> `[TextContent(type="text", text=str(text))]`)? Not one
    that builds error results or failures itself: what it returns is judged where it is."""
    found = names.function(qualname)
    if found is None:
        return False
    fn = found[1]
    # (A failure builder is named like an error builder: the name's test covers it.)
    return fn.returns_argument and not fn.error_results and not is_error_builder_name(fn.name)


def returns_its_object(names: ProjectNames, callee: FunctionSummary, method: str) -> bool:
    """Does `method` of the class(es) the callee returns send on what its object holds (a return
    reading `self`: `def to_text(self): return self.message`), in a normal result? A serialiser
    the project does not define (`model_dump()`, `to_dict()` of a result model or dataclass,
    message_text.SERIALISERS) writes the whole object out."""
    classes = ((callee.returns_type,) if callee.returns_type else ()) + callee.returned_objects
    defined = False
    for cls in classes:
        found = names.function(f"{cls}.{method}")
        if found is None:
            continue
        defined = True
        fn = found[1]
        if fn.returns_self and not fn.error_results and not is_error_builder_name(fn.name):
            return True
    return not defined and bool(classes) and method in SERIALISERS


def mark_raised_text(names: ProjectNames, reached: dict[str, ToolPaths]) -> None:
    """What reached callers raise of a function's value, in one pass over their call edges.

    ToolPaths.raised_exc_params: a caller raises the value of a factory it hands a caught
    exception (`raise self._unreachable(e) from e`): an exception the factory builds from that
    parameter is raised there; ToolPaths.raised_body_params, the same for a response it found
    failed (`raise _error_from_response(exc.response)`). ToolPaths.raised_text: a reached caller raises a plain exception
    with text of the function's value (`raise ValueError(json.dumps(result))`), or of the value of
    a caller whose own value is returned whole down to it; text of a call a raised factory builds
    its returned exception from (`return AuthError(self._auth_message(exc))`) is raised text too."""
    pending: list[tuple[str, CallEdge, str, int]] = []
    raised_factories: set[str] = set()
    for qual in reached:
        for edge in names.functions[qual][1].calls:
            if edge.raised_text:
                pending.append((qual, edge, edge.raised_text, 0))
            if not edge.raises_value:
                continue
            for target in names.call_targets(qual, edge):
                raised_factories.add(target[1].qualname)
                if (edge.exc_params or edge.failed_responses) and target[1].qualname in reached:
                    shift = receiver_shift(edge.via_attribute, target[1].params)
                    reached[target[1].qualname].raised_exc_params.update(i + shift for i in edge.exc_params)
                    reached[target[1].qualname].raised_body_params.update(i + shift for i in edge.failed_responses)
    for qual in raised_factories & reached.keys():
        pending.extend((qual, edge, edge.returned_in, 0) for edge in names.functions[qual][1].calls if edge.returned_in)
    while pending:
        caller, edge, cls, depth = pending.pop()
        for target in names.call_targets(caller, edge):
            if target[1].qualname not in reached:
                continue
            # `def run(sql, client): return client.query(sql)` called with a typed client: the
            # method it runs returns its value too.
            for bound, call in names.bound_calls(edge, target[1]):
                if passes(call) != NOTHING and bound[1].qualname in reached and not reached[bound[1].qualname].raised_text:
                    reached[bound[1].qualname].raised_text = cls
            entry = reached[target[1].qualname]
            if entry.raised_text:
                continue
            entry.raised_text = cls
            if depth < MAX_DEPTH:
                pending.extend((target[1].qualname, e, cls, depth + 1) for e in target[1].calls if passes(e) != NOTHING)
