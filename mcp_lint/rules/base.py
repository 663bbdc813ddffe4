"""What a rule is: a small class that checks one function's facts and renders its findings.

Checking happens per file (parallel, cacheable) and yields `Latent` findings; rendering happens
after the project-wide link, when it is known which tools reach the function and on which
framework version they run, so messages and fixes can say so.

A server-level rule (a finding about how a server is configured, not about a function) adds two
hooks: `check_module` records per file what it needs (picklable records, kept on the summary
under the rule's code), and `link` turns every module's records into findings once the project
is known (`LinkedProject`: its tools, functions, frameworks). Nothing else names such a rule.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, ClassVar, Iterable, Iterator, Mapping, Protocol, Sequence, TypeVar

if TYPE_CHECKING:
    from libcst.metadata import CodeRange

    from mcp_lint.server_env import EnvSetting

import libcst as cst

from mcp_lint.findings import Applicability, Edit, Finding, Fix, Location, Related, help_for
from mcp_lint.model.facts import FunctionFacts, branch_name
from mcp_lint.model.flow_steps import ADD, EXTEND, RETURN, STORE, UNPACK, FlowStep
from mcp_lint.model.frameworks import Delivery, Family, FrameworkContext
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.names import dotted, last_name
from mcp_lint.model.passed_on import clauses_passing_text_on
from mcp_lint.model.summary import CallEdge, FunctionSummary, Latent, ModuleSummary, ParamGuard, Payload, ServerLatent, ToolRegistration
from mcp_lint.model.walk import descendants


@dataclass(frozen=True)
class Example:
    """A rule's own example, run by the tests (Fixit-style). `flagged` lists expected rows."""

    code: str
    flagged: tuple[int, ...] = ()
    target: str | None = None  # e.g. "mcp>=2.1" when the example is version specific
    # What `--fix --unsafe-fixes` writes for an INVALID example when only this rule is selected
    # (Fixit's expected_replacement); None when the rule offers no fix for it.
    fixed: str | None = None


_T = TypeVar("_T")


class FileContext:
    """What a rule may read about the file being checked.

    Positions cost about as much as the parse itself (a full code generation), and most analysed
    files have nothing to report, so they are resolved on first use only.
    """

    def __init__(self, module: cst.Module, model: ModuleModel, source: str, tree: ast.Module | None = None) -> None:
        from mcp_lint.model.positions import ScopedPositions

        self.module = module
        self.model = model
        # Lines as the tokenizer counts them (\n, \r\n, \r): a form feed is not a line break.
        self.lines = re.split(r"\r\n|\r|\n", source)
        self._positions = ScopedPositions(module, source, tree)
        # The function being checked: positions come from the smallest statement of it holding a node.
        self.current: cst.CSTNode | None = None
        self.current_facts: FunctionFacts | None = None
        # Per-file values a rule computes once and reuses for every function.
        self.memo: dict[str, object] = {}
        # Objects made at module level or on `self`, by the name calls reach them through
        # (ModuleSummary.instances): `client.get_orders()` runs `OrdersClient.get_orders`.
        self.instances: dict[str, str] = {}

    def per_node(self, kind: str, node: cst.CSTNode, compute: Callable[[], _T]) -> _T:
        """`compute()` for `node`, once per file: kept in `memo[kind]` by the node's id, with the
        node itself in the entry so that no other node can take its id while the file is checked."""
        memo = self.memo.setdefault(kind, {})
        assert isinstance(memo, dict)
        entry = memo.get(id(node))
        if entry is None:
            entry = memo[id(node)] = (node, compute())
        return entry[1]  # type: ignore[no-any-return]

    def branch_of(self, statement: cst.CSTNode) -> str | None:
        """The dispatcher branch (`if name == "div":`) a return/raise of the current function is in."""
        facts = self.current_facts
        if facts is None:
            return None
        for fact in (*facts.returns, *facts.raises):
            if fact.node is statement:
                return branch_name(list(fact.conditions))
        return None

    def hint(self, function: cst.CSTNode, statement_index: int) -> None:
        self._positions.hint(function, statement_index)

    def hint_function(self, function: cst.FunctionDef, order: int, indents: tuple[str, ...]) -> None:
        self._positions.hint_function(function, order, indents)

    def range(self, node: cst.CSTNode) -> CodeRange:
        return self._positions.get(node, self.current)

    def start_line(self, node: cst.CSTNode) -> int:
        """`range(node).start.line`, often without generating code (ScopedPositions.start_line)."""
        return self._positions.start_line(node, self.current)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def source(self, node: cst.CSTNode) -> str:
        """The node's text exactly as written (original indentation of continuation lines kept;
        code_for_node would re-indent them), without its own outer parentheses."""
        return self.written(self.range(node))

    def statement_text(self, node: cst.CSTNode, where: CodeRange) -> str:
        """`node`'s code on one line, whitespace runs made single spaces (a finding's `statement`);
        `where` is its range.

        The text as written when that is what generating the node's code gives (every latent
        names its statement: code generation per latent cost more than all the rules' own
        checks); generated where the node owns tokens outside its range (parentheses, a
        semicolon, a statement line's comments and newline)."""
        if _written_is_generated(node):
            return " ".join(self.written(where).split())
        return " ".join(self.code(node).split())

    def written(self, where: CodeRange) -> str:
        """The source text of a range."""
        first, last = where.start.line - 1, where.end.line - 1
        if first == last:
            return self.lines[first][where.start.column : where.end.column]
        parts = [self.lines[first][where.start.column :]]
        parts.extend(self.lines[first + 1 : last])
        parts.append(self.lines[last][: where.end.column])
        return "\n".join(parts)


# Small statements whose range covers all they generate but a semicolon.
_SMALL_STATEMENTS = (cst.Return, cst.Raise, cst.Expr, cst.Assign, cst.AnnAssign, cst.AugAssign)


def _written_is_generated(node: cst.CSTNode) -> bool:
    """Whether the text in `node`'s range is all that code generation gives for it (up to the
    indentation of continuation lines): an expression without parentheses of its own (they lie
    outside its range), a small statement without a semicolon."""
    if isinstance(node, cst.BaseExpression):
        return not node.lpar
    if type(node) in _SMALL_STATEMENTS:
        return type(node.semicolon) is not cst.Semicolon  # type: ignore[attr-defined]
    return False


@dataclass(frozen=True)
class RenderContext:
    """What a rule renders a latent finding with: the function, the tools that reach it and the
    framework they run on; known only after the link step."""

    function: str  # the function's own short name
    tools: tuple[str, ...]  # names of the tools that reach it
    is_tool: bool  # the function is itself a registered tool handler
    framework: FrameworkContext
    kind: str = "tool"  # "tool", "dispatch", "per-tool" (low level)
    masked: bool = False  # the server masks unexpected exception text (fastmcp mask_error_details=True)
    # ... because a project file turns it on: 'FASTMCP_MASK_ERROR_DETAILS=true in .env' ("": the code).
    masked_by: str = ""
    # The linked project, for a rule whose finding depends on what another module defines (its
    # records, `LinkedProject.records`); None outside a linked project.
    project: LinkedProject | None = field(default=None, compare=False)

    def forwards_exception_text(self) -> bool:
        """Does the text of a non-ToolError exception reach the model on the release a fresh
        install of the project gets: the newest one its pins admit?

        Within one family only a single old release disagrees (fastmcp 2.4.0 masked every
        exception, 2.5 made masking a setting that is off by default), so judging by every admitted
        release would let `fastmcp>=2.3` hide every leak; a range that ends before 2.5 still does.
        """
        return self.framework.forwards_exception_text(self.masked)

    def protocol_error_masked(self) -> bool:
        """Does every candidate release replace a raised protocol error's message with a generic
        text (fastmcp 2.4; fastmcp with mask_error_details=True)?"""
        return self.framework.every(lambda row: row.protocol_error_under(self.masked).delivery is Delivery.MASKED, mask_setting=self.masked)

    @property
    def subject(self) -> str:
        """How a message names the place: "Tool 'x'" or "Helper 'f'" (the tools that reach a
        helper are a note and related locations of the finding, added by the link step)."""
        if self.is_tool:
            return f"Tool '{self.tools[0]}'" if self.tools else f"Tool '{self.function}'"
        return f"Helper '{self.function}'"

    @property
    def reached_from(self) -> str:
        """The note that names the tools reaching a helper: "reached from tool 'x'"; "" for a tool."""
        return "" if self.is_tool or not self.tools else f"reached from {format_tools(self.tools)}"

    @property
    def lowlevel(self) -> bool:
        return self.framework.family is Family.MCP_LOWLEVEL


def format_tools(tools: tuple[str, ...], limit: int = 3) -> str:
    names = sorted(set(tools))
    if len(names) == 1:
        return f"tool '{names[0]}'"
    shown = ", ".join(f"'{n}'" for n in names[:limit])
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return f"tools {shown}{more}"


def placeholder(name: str) -> str:
    """A name the link step fills in (ToolError, logger...). NUL never occurs in Python source."""
    return f"\x00{name}\x00"


PH_TOOL_ERROR = placeholder("ToolError")
PH_LOGGER = placeholder("logger")
PH_CALL_TOOL_RESULT = placeholder("CallToolResult")
PH_TEXT_CONTENT = placeholder("TextContent")
PH_VALIDATION_ERROR = placeholder("ValidationError")  # pydantic's


@dataclass(frozen=True)
class FixSpec:
    """A fix before linking: edit contents and the message may hold placeholders (PH_*), and
    `needs` names the imports to add when they are missing."""

    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]
    needs: tuple[str, ...] = ()
    # The exception class the fixed code raises (short name) and the one the statement raised
    # before ("" for a return): the link step drops a fix that would change which `except` of a
    # caller handles the failure (a ToolError caught by `except Exception` loses its message).
    raises: str = ""
    replaces: str = ""
    # The qualified ancestors of the replaced class when the rule knows them (the class first):
    # code catching or type-testing one of them breaks too when the class is replaced.
    replaced_ancestors: tuple[str, ...] = ()
    # The `except` clauses (Handler.site) before which the fix puts `except ToolError: raise`: once
    # it is applied, a ToolError raised below them (a callee's fix) goes on through them.
    opens: tuple[str, ...] = ()


@dataclass(frozen=True)
class Site:
    """Another statement a rendered finding is reported at (the write inside a helper that a
    tool reaches), known only after linking."""

    filename: str
    function: str
    location: Location
    end_location: Location
    statement: str
    rows: tuple[int, int]


@dataclass(frozen=True)
class Rendered:
    """A finding's words: `message`, one claim of what is wrong where; `help`, the fix in one line
    (ruff's fix title); `notes`, the evidence (which release decided, what the model sees);
    `related`, the other places that belong to it."""

    message: str
    fix: FixSpec | None = None
    help: str = ""
    notes: tuple[str, ...] = ()
    # Reported at this statement instead of the latent's own (None: where the latent is).
    at: Site | None = None
    # The other places of the evidence; a filename "" is the latent's own file.
    related: tuple[Related, ...] = ()
    # The tools the finding is reported for, when the rule judged it for fewer than reach the
    # function (not for the status tools that share a helper); None: all of them.
    tools: tuple[str, ...] | None = None


def latent_fix(latent: Latent) -> FixSpec | None:
    """The fix a rule computed at check time (with the CST at hand), if any."""
    if latent.fix_applicability is None or not latent.fix_edits:
        return None
    return FixSpec(latent.fix_applicability, latent.fix_message, latent.fix_edits, latent.fix_needs, opens=latent.fix_opens)


class Reach(Protocol):
    """How the tools reach a function (project_links.ToolPaths), as a rule's `link_latent` reads it."""

    tools: set[str]  # the tools that reach it
    own_names: set[str]  # the names it is registered under itself, when it is a tool handler
    # For each way they reach it: the `try` statements around the calls on the way
    # (exception_guards.TryGuard, what each clause catches).
    guards: set[frozenset]
    is_tool: bool  # it is itself a registered tool handler
    # Positions of parameters whose argument a caller raises again once the function returns it
    # (`raise make_error(e)`), and the class of a plain exception a caller raises with text of
    # its value ("" if none).
    raised_exc_params: set[int]
    raised_text: str


class LinkedProject(Protocol):
    """What the link step (project_links.Project) offers a server-level rule's `link`; a protocol,
    so that rules do not import the module that imports them."""

    summaries: list[ModuleSummary]
    modules: dict[str, ModuleSummary]
    functions: dict[str, tuple[ModuleSummary, FunctionSummary]]
    # The tools whose decorator runs their body inside a `try` (a wrapper intercepting exceptions).
    intercepted_tools: set[str]
    # The `try` statements of the decorators' wrappers around each tool (by tool name), and
    # those wrappers (their own raises are not under them).
    wrapper_guards: dict[str, list]
    guarding_wrappers: set[str]

    def records(self, code: str) -> list[tuple[ModuleSummary, object]]: ...
    def tool_registrations(self) -> list[tuple[ToolRegistration, ModuleSummary]]: ...
    def tools_on(self, server: str, summary: ModuleSummary) -> set[str]: ...
    def function(self, qualname: str, depth: int = 0) -> tuple[ModuleSummary, FunctionSummary] | None: ...
    # The project functions that call `qual`, each with its call.
    def callers_of(self, qual: str) -> list[tuple[str, CallEdge]]: ...
    def resolve(self, qualname: str) -> str: ...
    def class_ancestors(self, qual: str) -> tuple[str, ...]: ...
    def is_project_class(self, qual: str) -> bool: ...
    # A name a project module imports from outside the project and passes on (a library's class).
    def is_reexported_from_outside(self, qual: str) -> bool: ...
    def lacks_attribute(self, qual: str, attr: str) -> bool: ...
    # Each exception class looked up so far with its ancestors (ProjectNames.class_ancestors).
    def looked_up_classes(self) -> Iterable[tuple[str, ...]]: ...
    # Does the latent reach the model on this path (its route, branch conditions, callers' excepts)?
    def applies(self, latent: Latent, reach: Reach) -> bool: ...
    # How a finding in a reached function names it: (for raises, for what it returns).
    def contexts(self, qual: str, reach: Reach) -> tuple[RenderContext, RenderContext]: ...
    # The `except` clauses (Handler.site) that catch the latent's raise again on the way to the
    # tools; None when it is no raise or escapes to the framework on some path.
    def catching_sites(self, latent: Latent, reach: Reach) -> list[str] | None: ...
    def wrapper_bodies(self, fn: FunctionSummary) -> list[str]: ...
    def framework(self, family: Family, major: int | None, path: str) -> FrameworkContext: ...
    def fix_for(self, spec: FixSpec | None, summary: ModuleSummary, family: Family) -> Fix | None: ...
    # The project file that turns masking on for the server in `path` through the variables `env`
    # (the release's spellings, deciding one first: Channel.mask_env_names; .env, compose files...:
    # server_env.py), asked through the pin lookup so that a stored run depends on it.
    def masks_by_config(self, path: str, env: tuple[str, ...]) -> EnvSetting | None: ...
    # Does some caller on the way from a tool pass an argument that takes the branch `guard`
    # (FunctionSummary.mutates_when's form) names? `reached`: every function the tools reach.
    def caller_enables(self, qual: str, guard: ParamGuard, reach: Reach, reached: Mapping[str, Reach]) -> bool: ...
    # Is an exception of class `raised` caught on every way from a tool by a clause that neither
    # raises nor returns (the call goes on)?
    def absorbed(self, raised: str, reach: Reach) -> bool: ...


# The data key (value "1") by which a rule still recording a string bag asks for
# `Latent.delivered_when_passed_on`; `Rule.latent` moves it to that field.
DELIVERED_WHEN_PASSED_ON = "delivered_when_passed_on"


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    VALID: ClassVar[tuple[Example, ...]] = ()
    INVALID: ClassVar[tuple[Example, ...]] = ()

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        raise NotImplementedError

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        """The finding's message and fix in this context; None when the context makes it correct."""
        raise NotImplementedError

    def link_start(self, project: LinkedProject, reached: Mapping[str, Reach]) -> object:
        """What the rule computes once per linked project, before any latent is linked (the
        functions tools reach: `reached`, by qualified name); `link_latent` receives it."""
        return None

    def link_latent(self, latent: Latent, function: str, reach: Reach, project: LinkedProject, state: object) -> Latent | None:
        """The latent of `function` (reached by tools as `reach` says), as the linked project
        reads it: its payload completed with what only the whole project tells (a class's
        ancestors, what a function of another module builds), or None where that shows it is no
        defect (or another statement reports its flow). Called before `render`; `state` is what
        `link_start` returned. By default the latent as it is."""
        return latent

    def summarize(self, fn: FunctionFacts, ctx: FileContext, summary: FunctionSummary) -> None:
        """What the rule records of a function for the callers other modules link to it (fields
        of the function's summary, which the rule reads back at link time through the linked
        project's `function`). Nothing by default."""

    def check_module(self, ctx: FileContext) -> Iterable[object]:
        """Per-file records of a server-level rule (after every function was checked): picklable
        values, kept on the summary under the rule's code for `link`. A `ServerLatent` (a defect
        in how the module configures a server) needs nothing more: the default `link` renders it."""
        return ()

    def link(self, project: LinkedProject) -> Iterator[Finding]:
        """The findings the records of every module make once the project is known; by default each
        `ServerLatent` is rendered (`render`) when its server has tools, which the context names."""
        for summary, record in project.records(self.code):
            if not isinstance(record, ServerLatent):
                continue
            tools = project.tools_on(record.server, summary)
            if not tools:
                continue
            context = RenderContext(
                function="",
                tools=tuple(sorted(tools)),
                is_tool=False,
                framework=project.framework(record.family, None, summary.path),
                kind="server",
            )
            rendered = self.render(record.latent, context)
            if rendered is not None:
                fix = project.fix_for(rendered.fix, summary, record.family)
                yield latent_finding(record.latent, rendered, summary.path, fix, "")

    # -- helpers for subclasses ----------------------------------------------------------
    def passing_on_markers(self, fn: FunctionFacts, ctx: FileContext, protocol_errors: bool = False) -> Iterator[Latent]:
        """Markers (never reported: `render` returns None for the variant "passes-on") at the
        clauses of `fn` that send a caught exception's text on to the model (model/passed_on.py).
        A rule whose raised text matters wherever it reaches the model yields them and marks its
        raises `delivered_when_passed_on`: the linker then judges such a raise, caught on the way
        to a tool, as delivered where one of these clauses (`Latent.site`) catches it.
        `protocol_errors`: a clause raising a protocol error with the text counts too (for a
        rule judging what the client reads, not only the model)."""
        for statement, route, site in clauses_passing_text_on(fn, ctx.model.aliases, protocol_errors):
            yield self.latent(ctx, statement, variant="passes-on", route=route, site=site)

    def latent(
        self,
        ctx: FileContext,
        node: cst.CSTNode,
        *,
        variant: str,
        route: str,
        statement: cst.CSTNode | None = None,
        data: dict[str, str] | None = None,
        fix_message: str = "",
        fix_applicability: Applicability | None = None,
        fix_edits: Iterable[Edit] = (),
        fix_needs: Iterable[str] = (),
        fix_opens: tuple[str, ...] = (),
        param: int = -1,
        payload: Payload | None = None,
        raises: str | None = None,
        delivered_when_passed_on: bool = False,
        site: str = "",
        classes: tuple[str, ...] = (),
        conds: frozenset[str] = frozenset(),
        raises_qual: str = "",
        slot: str = "",
        needs_names: tuple[str, ...] = (),
        needs_callers: tuple[str, ...] = (),
    ) -> Latent:
        """The latent finding at `node` (its statement `statement`, by default `node`), with the
        rule's typed `payload`. `raises` names the class a raise throws when it is not the
        raise statement's own constructor (None: that one, for route "raise")."""
        data = dict(data or {})
        # Rules that still record a string bag pass these link facts in it.
        branch = data.pop("branch", "") or ctx.branch_of(statement if statement is not None else node) or ""
        if "raises" in data:
            raises = data.pop("raises")
        delivered_when_passed_on = delivered_when_passed_on or data.pop(DELIVERED_WHEN_PASSED_ON, "") == "1"
        raise_node = statement if type(statement) is cst.Raise else node if type(node) is cst.Raise else None
        if raises is None:
            raises = ""
            if route == "raise" and raise_node is not None and type(raise_node.exc) is cst.Call:
                # The linker drops it where every caller on the way catches this class.
                raises = last_name(dotted(raise_node.exc.func) or "")
        where = ctx.range(node)
        stmt = statement if statement is not None else node
        srange = ctx.range(stmt)
        text = ctx.statement_text(stmt, srange)
        return Latent(
            code=self.code,
            variant=variant,
            data=tuple(sorted(data.items())),
            route=route,
            location=Location(where.start.line, where.start.column + 1),
            end_location=Location(where.end.line, where.end.column + 1),
            statement=text,
            rows=(srange.start.line, srange.end.line),
            fix_message=fix_message,
            fix_applicability=fix_applicability,
            fix_edits=tuple(fix_edits),
            fix_needs=tuple(fix_needs),
            fix_opens=fix_opens,
            param=param,
            payload=payload,
            branch=branch,
            raises=raises,
            delivered_when_passed_on=delivered_when_passed_on,
            site=site,
            classes=classes,
            conds=conds,
            raises_qual=raises_qual,
            slot=slot,
            needs_names=needs_names,
            needs_callers=needs_callers,
        )


# Where a node lies: its start and end (1-based columns), as a typed payload keeps it.
Span = tuple[Location, Location]


def node_span(ctx: FileContext, node: cst.CSTNode) -> Span:
    """Where a node of the checked file lies (1-based columns), for a rule's payload: an edit's
    range, or a related location (`related_at`) when the finding is rendered."""
    where = ctx.range(node)
    return Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1)


def related_at(where: Span | None, message: str) -> Related | None:
    """A related location in the finding's own file, from a `node_span` (None for None): its file
    name is the finding's, filled in by `latent_finding`."""
    return None if where is None else Related("", where[0], where[1], message)


def span(ctx: FileContext, node: cst.CSTNode) -> str:
    """Where a node of the checked file lies, kept in a latent's data ("row:column:end_row:end_column",
    1-based columns): `related_here` makes it a related location when the finding is rendered."""
    where = ctx.range(node)
    return f"{where.start.line}:{where.start.column + 1}:{where.end.line}:{where.end.column + 1}"


def related_here(where: str, message: str) -> Related | None:
    """A related location in the finding's own file, from a `span` (None for ""): its file name is
    the finding's, filled in by `latent_finding`."""
    if not where:
        return None
    row, column, end_row, end_column = (int(part) for part in where.split(":"))
    return Related("", Location(row, column), Location(end_row, end_column), message)


# How many statements of a flow a finding shows; a longer flow says how many more there are.
MAX_FLOW_RELATED = 8


def flow_related(steps: Sequence[FlowStep], thing: str) -> tuple[Related, ...]:
    """The statements of a flow (model.flow_steps) as related locations, each saying what it does
    with the value: "the text is carried into `msg`", "the failure is returned by `fail()`".
    `thing` names the value ("text", "failure"). At most MAX_FLOW_RELATED, the last of them
    saying how many more follow."""
    out = []
    for step in steps[:MAX_FLOW_RELATED]:
        if step.kind == RETURN:
            label = f"the {thing} is returned by `{step.name}()`"
        elif step.kind == STORE:
            label = f"the {thing} is stored in `{step.name}`"
        elif step.kind == ADD:
            label = f"the {thing} is added to `{step.name}`"
        elif step.kind == EXTEND:
            label = f"`{step.name}` is extended, the {thing} still in it"
        elif step.callee:
            into = "unpacked into" if step.kind == UNPACK else "into"
            label = f"the {thing} goes through `{step.callee}()` {into} `{step.name}`"
        else:
            into = "unpacked into" if step.kind == UNPACK else "carried into"
            label = f"the {thing} is {into} `{step.name}`"
        if step.function and step.kind != RETURN:
            label += f" in `{step.function}()`"
        out.append(Related(step.filename, step.location, step.end_location, label))
    hidden = len(steps) - MAX_FLOW_RELATED
    if hidden > 0:
        last = out[-1]
        out[-1] = replace(last, message=f"{last.message} (and {hidden} more statement{'s' if hidden > 1 else ''} of the flow)")
    return tuple(out)


def latent_finding(latent: Latent, rendered: Rendered, filename: str, fix: Fix | None, context: str) -> Finding:
    """The finding a rendered latent defect becomes: where and what the latent recorded, the
    words and fix rendered for this project (a related location without a file is in this one)."""
    return Finding(
        code=latent.code,
        message=rendered.message,
        help=help_for(rendered.help, fix),
        notes=rendered.notes,
        related=tuple(r if r.filename else replace(r, filename=filename) for r in rendered.related),
        filename=filename,
        location=latent.location,
        end_location=latent.end_location,
        fix=fix,
        context=context,
        statement=latent.statement,
        statement_rows=latent.rows,
    )


def indent_of(ctx: FileContext, node: cst.CSTNode) -> str:
    line = ctx.lines[ctx.start_line(node) - 1]
    return line[: len(line) - len(line.lstrip(" \t"))]


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node below `node` (pre-order), not entering nested functions/classes/lambdas."""
    return descendants(node, into_scopes=False)
