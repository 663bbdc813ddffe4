"""Per-file results that can be pickled, cached and linked across files without any CST."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from mcp_lint.findings import Applicability, Edit, Location
from mcp_lint.fixing.imports import ImportBlock
from mcp_lint.framework_copies import FrameworkCopy
from mcp_lint.model.flow_steps import FlowStep
from mcp_lint.model.frameworks import Family
from mcp_lint.model.table_rows import Table

if TYPE_CHECKING:
    from mcp_lint.model.escape_exits import Exit

# A registered "function" that stands for every function of a table in another module:
# TABLE_REF + "pkg.tools.TOOLS" (`for fn in TOOLS: mcp.tool()(fn)` with TOOLS imported).
TABLE_REF = "<table>"
# A registered "function" that stands for every function a project decorator registers:
# DECORATED_REF + "pkg.app.tool.decorator#func" (`def decorator(func): return mcp.tool()(func)`,
# returned by `def tool(...)`); the functions decorated `@tool(...)` or `@decorator` are the tools.
DECORATED_REF = "<decorated>"
# MEMBERS_REF + "pkg.app.Mixin" + CLASS_MEMBERS + "register": `getattr(self, name)` in the method
# `register` of a class, registered: a public method of the object's class (linking/passed_callables.py).
CLASS_MEMBERS = "#members-of-self#"
# OBJECT_REF + "pkg.tools.build_tool": an object handed to `add_tool` made by that callable (a
# project subclass of the framework's Tool class, or a factory returning one): its `run` is the tool.
OBJECT_REF = "<tool-object>"
# A server argument that is the caller's own parameter: PARAM_REF + "<function>#<parameter>"
# (`def register_all(server): register_notes(server)`): that function's callers decide.
PARAM_REF = "<param>"
# A registered callable that is what callers pass to a parameter: ARGUMENT_REF +
# "<function>#<parameter>" (`def install(fns): for fn in fns: mcp.tool()(fn)` and
# `install([a, b])`, `install(TOOLS)`): the functions the arguments name, or a table's functions.
ARGUMENT_REF = "<argument>"
# A registered callable found by reflection on a module: MEMBERS_REF + the module's name, or an
# ARGUMENT_REF its callers fill with one (`for _, f in inspect.getmembers(tools)`,
# `getattr(tools, name)`): the module's public functions.
MEMBERS_REF = "<members>"


class _DefaultsLeftOut:
    """Pickles only the fields that differ from their plain defaults.

    Unpickling puts the state back into the instance's `__dict__` as it is (no Python call per
    object); a field left out then reads its default from the class attribute a dataclass
    default becomes. The results workers send back and the cache stores are mostly call edges
    whose twenty-odd fields are at their defaults, so their pickles shrink to about a third and the
    parent's unpickling (serial, between the linker's rounds) takes that much less. Fields with a
    `default_factory` have no class attribute and are always kept."""

    def __getstate__(self) -> dict[str, Any]:
        defaults = _plain_defaults(type(self))
        state = {}
        for name, value in self.__dict__.items():
            default = defaults.get(name, _NO_DEFAULT)
            # Of the same type too: a value only equal to its default (`0` for `False`) is kept as it is.
            if value is not default and (type(value) is not type(default) or value != default):
                state[name] = value
        return state


_PLAIN_DEFAULTS: dict[type, dict[str, Any]] = {}
_NO_DEFAULT = object()


def _plain_defaults(cls: type) -> dict[str, Any]:
    """The fields of dataclass `cls` with a plain default that reading the class attribute gives."""
    found = _PLAIN_DEFAULTS.get(cls)
    if found is None:
        found = _PLAIN_DEFAULTS[cls] = {
            f.name: f.default for f in fields(cls) if f.default is not MISSING and getattr(cls, f.name, MISSING) is f.default
        }
    return found



@dataclass(frozen=True)
class ToolRegistration:
    function: str  # qualified name of the handler function
    tool_name: str
    family: Family | None  # None: registered on a server defined in another module
    server: str | None = None  # qualified name of the server variable, for cross-module lookup
    kind: str = "tool"  # "tool", "dispatch" (low-level call_tool handler) or "per-tool"
    lowlevel_major: int | None = None  # 1 or 2 for low-level servers, when the API style tells
    # "per-tool": the `try` statements of the dispatcher around the call (CallEdge.guarded): what
    # they catch of the function's exceptions is the dispatcher's to report, not a leak of its own.
    guarded: frozenset[tuple[tuple[frozenset[str], bool, str], ...]] = frozenset()
    # Project functions the registration wraps the handler with (`mcp.tool(adapt(fn))`): the
    # functions they define run around every call of the tool, as a decorator's wrapper does.
    adapters: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallEdge(_DefaultsLeftOut):
    callee: str  # qualified name candidate of the called function
    returned: bool  # the call's value is what the caller returns
    exc_params: tuple[int, ...] = ()  # positions that receive a caught foreign exception
    via_attribute: bool = False  # `self.f(...)`/`obj.f(...)`: a method's `self` is not an argument
    # The `try` statements around the call (exception_guards.TryGuard): what they catch, in handler order.
    guarded: frozenset[tuple[tuple[frozenset[str], bool, str], ...]] = frozenset()
    branch: str | None = None  # the tool name of the dispatcher branch the call is in
    # The caller returns something built from the call's value (`return json.dumps(r)` after
    # `r = helper()`), not only the value itself (`returned`).
    flows: bool = False
    feeds: bool = False  # a part of the call's value is in what the caller returns (`r["error"]`)
    # Conditions on the passed arguments the caller already left on (flow.condition_shape).
    excludes: frozenset[str] = frozenset()
    # The arguments (`save(doc, commit=False)`): (position or -1, keyword or "", the constant's
    # text, "*" for any other value), so the linker can tell a branch of the callee a caller never takes.
    constants: tuple[tuple[int, str, str], ...] = ()
    # With `feeds` only: the items of the value the caller returns (`r["data"]`); None: any.
    selects: frozenset[str] | None = None
    # The item of the caller's returned literal holding the call's value whole (facts.CallFact.slot).
    slot: str | None = None
    # `db.query()` on an untyped parameter: (its position, ".query"); a caller passing a typed
    # object there (`arg_types`) makes it that class's method.
    param_call: tuple[int, str] | None = None
    # Arguments whose class is known: (position or -1, keyword or "", qualified class).
    arg_types: tuple[tuple[int, str, str], ...] = ()
    # The caller's own parameters passed on as they are: (position in the call, the caller's
    # parameter index), so an exception a tool hands to `fail(exc)` reaches `describe(exc)` too.
    forwards: tuple[tuple[int, int], ...] = ()
    raised: bool = False  # a part of the call's value is in what the caller raises (facts.CallFact.raised)
    # The project function whose first argument carries the call's value whole in what the caller
    # returns (`return format_text_response(result)`; facts.CallFact.wrapped_by).
    wrapped_by: str | None = None
    # The caller raises the call's value (`raise make_error(e) from e`, `err = make_error(e); raise
    # err`): an exception a factory builds from its parameter leaves from the caller.
    raises_value: bool = False
    # Text of the call's value is in a plain exception the caller raises (CallFact.raised_text).
    raised_text: str = ""
    # Text of the call's value is in an exception object the caller returns (CallFact.returned_in):
    # the class's short name, raised text where the caller's own callers raise its value.
    returned_in: str = ""
    # Positions that receive a response whose failure the caller's branch tests (`if not
    # resp.ok: raise ToolError(describe(resp))`): its body there is an upstream error body.
    failed_responses: tuple[int, ...] = ()
    # Positions that receive a decoded upstream reply (`opened(resp.json())`): a callee that
    # tests its failure field (`if payload.get("success") is False:`) and sends its fields on
    # sends an upstream error body.
    decoded_replies: tuple[int, ...] = ()
    # Arguments taken from the caller's own parameters, whole or in part (`args.get("widths")`,
    # through `args = arguments or {}`): (position in the call, the caller's parameter index).
    # A parse error of such an argument describes what the caller's own caller passed.
    from_params: tuple[tuple[int, int], ...] = ()
    # Arguments that are a project call's value (`parse(merge(args, saved))`, or a local assigned
    # once from one): (position in the call, that call's callee, whether it is written `obj.f()`,
    # its own `from_params`). Where the inner callee returns a transform of a parameter fed so
    # (FunctionSummary.derived_params), the argument is taken from the caller's parameter too.
    from_results: tuple[tuple[int, str, bool, tuple[tuple[int, int], ...]], ...] = ()
    # The caller tests the call's value in a condition (`r = helper(); if "error" in r: return
    # r`): a helper's fix that raises in place of that value would leave the test dead.
    tested: bool = False
    # With `tested`: the one test of the value when it is only a check that hands a failure on
    # (`if "error" in r: return r`), as the whole lines of that `if`: once the helper raises in
    # place of its failure, the check is dead, and a fix deletes it with the helper's return.
    dead_check: tuple[Location, Location] | None = None
    # The caller joins the call's value to text of its own (`report += helper()`, `head + r`,
    # `f"{head}{r}"` after `r = helper()`): what the helper returns is a part of a report the
    # caller builds, so a raise in its place would drop what the caller already has.
    appended: bool = False
    # With `tested`: a test of the value for a failure leaves with the caller's own value or
    # exception (`if "error" in r: return f"Could not ...: {r['error']}"`): the helper's failure
    # is intercepted and re-worded there.
    rewords: bool = False
    # Positions that receive a failure the caller caught or found: a caught exception of any
    # class, the project's own too, or a local the branch of the returning statement tested for
    # failure (`if r.get("error"): return describe(r)`). A helper building a failure value from
    # such a parameter builds one whatever its text.
    failure_params: tuple[int, ...] = ()
    # Positions of the call's tuple value, unpacked into locals (`key, err = load()`), that the
    # caller returns as they are (`if err: return err`): that item reaches the model unchanged.
    returned_items: tuple[int, ...] = ()
    # The caller's own failure report holds the call's value whole as its advice item (`{"error":
    # str(e), "hint": hint_for(name)}`): the callee's text is a suggestion there, not what failed.
    advises: bool = False
    # The key under which a dict literal of the caller that has an error item holds the call's
    # value whole (`{"error": status_text(code), "details": details_of(exc)}`: "error", "details"),
    # "" for none: the callee's text is one part of a failure record the caller builds.
    record_key: str = ""
    # With `record_key`: that item is the record's message (its first message key, "error" first).
    record_message: bool = False
    # The caller tests the call's local and, in that branch alone, returns it as it is, then goes
    # on with its own work (`blocked = confirm(code); if blocked: return blocked; send(...)`):
    # whatever the callee returns there is a refusal of the caller's call.
    hands_on: bool = False
    # The method the caller calls on the call's value as it is and returns the value of whole
    # (`return load(key).to_text()`; facts.CallFact.receiver_of), "" for none.
    receiver_of: str = ""
    # A local the call's tuple value is unpacked into is read in a condition (`status, body =
    # fetch(); if status == 0: raise ...`): the caller looks at the outcome before it sends an item on.
    items_tested: bool = False
    # Where the call is, kept only for a call that hands a caught exception on (`exc_params`) or
    # whose value the caller returns (`returned`, `flows`): statements of a flow across functions.
    at: tuple[Location, Location] | None = None


@dataclass(frozen=True)
class Payload:
    """What a rule records about one latent finding for its own `render` (and its link hooks): a
    frozen dataclass declared in the rule's module, subclassing this one, with plain picklable
    fields (text, numbers, booleans, tuples; no CST). Nothing but the rule that declares it reads
    its fields; what the linker needs of every latent are the typed fields of `Latent` itself."""


@dataclass(frozen=True)
class Latent(_DefaultsLeftOut):
    """A defect that is reported only if the function it is written in is reached from a tool.

    `route` says how the defect travels to the model: "tool" (only in a tool handler itself),
    "raise" (any function a tool calls: exceptions propagate), "return" (functions whose return value the tool returns, as is or
    wrapped) or "text" (functions whose return value, or a part of it, the tool returns: the
    text in it reaches the model); "protocol" is a passes-on marker's clause raising a protocol
    error (reached like "tool").
    `param` >= 0 marks a sink that fires only when a caller passes a caught foreign exception
    at that position (e.g. `def format_error(e): return f"Error: {e}"`); with `param_failure`,
    any failure the caller caught or found (CallEdge.failure_params: a failure value built from
    it is one whatever its text).
    `payload` is the rule's own typed record (a `Payload` subclass of the rule's module); `data`
    is the string bag the rules not yet converted to a payload still use (read with `get`).
    """

    code: str
    variant: str
    data: tuple[tuple[str, str], ...]
    route: str
    location: Location
    end_location: Location
    statement: str
    rows: tuple[int, int]
    fix_message: str = ""
    fix_applicability: Applicability | None = None
    fix_edits: tuple[Edit, ...] = ()
    fix_needs: tuple[str, ...] = ()  # "ToolError", "logger": imports the fix must add if missing
    fix_opens: tuple[str, ...] = ()  # the clauses the fix puts `except ToolError: raise` before (FixSpec.opens)
    param: int = -1
    param_failure: bool = False
    # The other statements of the flow, in the order the value goes (model.flow_steps), and the
    # project function whose result the flow takes (a callee name as CallEdge.callee has it, ""
    # for none): the link step puts that function's return steps in front of these.
    flow: tuple[FlowStep, ...] = ()
    flow_via: str = ""
    # In a helper: the flow goes on through the callers that return its value (route "return"),
    # whose calls the link step shows, nearest first, up to the tools.
    flow_onward: bool = False
    payload: Payload | None = None
    # The tool a low-level dispatcher's branch serves (`if name == "div":`), "" outside one.
    branch: str = ""
    # The short name of the class a raise throws: the linker drops the latent where every caller
    # on the way catches that class, and clears it once it judged the raise delivered.
    raises: str = ""
    # The raised class qualified, when it is the project's (its bases decide who catches it).
    raises_qual: str = ""
    # The `except` clauses of its own function (Handler.site) that catch the raise again.
    caught_at: tuple[str, ...] = ()
    # The item of the returned value that holds the reported text (`{"error": str(e), "rows":
    # []}` -> "error"; "#1" for a tuple's element), "" for the value as a whole: a tool that
    # returns only other items of it (CallEdge.selects) never passes the text on.
    slot: str = ""
    # The raised text matters wherever it reaches the model: also through a clause that catches it
    # on the way and sends it on (Rule.passing_on_markers), not only where it escapes.
    delivered_when_passed_on: bool = False
    # Set by the linker: the clause on the way that catches the raise and sends its text on to the
    # model ("tool 'x' returns it (path:row)"), "" when it escapes to the framework.
    passed_on: str = ""
    # The `except` clause (Handler.site) whose caught exception the statement sends on (a
    # "passes-on" marker's clause; a raise caught by that clause reaches the model there).
    site: str = ""
    # The project exception classes it names (raised, caught), qualified: the link step looks
    # them up (and their bases) in the modules that define them.
    classes: tuple[str, ...] = ()
    # The conditions over its function's parameters under which the statement runs
    # (flow.condition_shape): a caller that already left on one of them never takes it there.
    conds: frozenset[str] = frozenset()
    # One finding per flow: the function only builds the failure its callers return
    # (`built_for_callers`: reported where they return it), or the project function that built
    # the value this latent returns (`built_by`: its returns are related locations of the finding).
    built_for_callers: bool = False
    built_by: str = ""
    # Qualified names of other modules the rendering reads (what those modules' records say of
    # them): the link step looks them up while it traces the tools, so that a prefiltered run
    # analyses the modules that define them.
    needs_names: tuple[str, ...] = ()
    # Project functions (qualified) whose callers in other modules the rendering reads (what they
    # pass there): a prefiltered run analyses the files that name them.
    needs_callers: tuple[str, ...] = ()

    def get(self, key: str, default: str = "") -> str:
        for k, v in self.data:
            if k == key:
                return v
        return default


@dataclass(frozen=True)
class ServerLatent:
    """A defect in how a module configures a server (error middleware put on it), found per file: reported
    by `Rule.link` when that server has tools, with a RenderContext naming them."""

    server: str  # the server's qualified name, "" for a function's local
    latent: Latent
    family: Family = Family.FASTMCP  # the framework its message and fix are rendered for


@dataclass
class FunctionSummary(_DefaultsLeftOut):
    qualname: str
    name: str
    params: tuple[str, ...]
    calls: list[CallEdge] = field(default_factory=list)
    latent: list[Latent] = field(default_factory=list)
    # The class its return annotation names: `get_client().get()` is that class's `get`.
    returns_type: str | None = None
    # Without an annotation, the modules or classes its returns hand back (FunctionFacts):
    # `pick().read()` may run the `read` of each.
    returned_objects: tuple[str, ...] = ()
    # Its decorators below any registration (`@mcp.tool() @handle_errors def f`): their inner
    # functions run on every call of it.
    wrappers: tuple[str, ...] = ()
    # `raise Cls(...)` of project exception classes: (qualified class, built from a caught library
    # exception's text?, row, the positions of the arguments that are such an exception handed
    # whole: `raise ApiError(exc)`, whose message the class's `__init__` decides at link time).
    # A class raised only with library text in the code tools reach carries it wherever it is
    # caught (a rule counts these classes at link time).
    exception_raises: tuple[tuple[str, bool, int, tuple[int, ...]], ...] = ()
    # Builtin exception classes it raises with a message the author wrote (`raise
    # ValueError("API_KEY must be set")`: a literal or f-string holding no caught exception's
    # text), outside any `except` of its own that takes them: a caller's clause that passes `{e}`
    # on passes those words on too, so a fix rewriting that clause would drop them.
    author_raises: tuple[str, ...] = ()
    # A pydantic validator method (`@field_validator`, `@model_validator`, `@validator`,
    # `@root_validator`): what it raises reaches whoever builds the model, inside a ValidationError.
    validator: bool = False
    # A helper's effects, for the functions that call it (a rule reads them at link time):
    # what it mutates itself ("" if nothing), and whether it rejects bad arguments.
    mutates: str = ""
    # The kind of that change (model/effects.Effect's value, "" if nothing): callers ask the typed
    # fact ("does the helper run a command?"), not the wording of `mutates`.
    mutation_effect: str = ""
    validates: bool = False
    # The parameter test every one of its own mutations runs under (`if commit: db.commit()`);
    # None when there is none.
    mutates_when: ParamGuard | None = None
    # Where its first own mutation is: (row, column, end row, end column, statement text, first
    # row, last row), for a finding reported at the write when a caller's check comes too late.
    mutation_site: tuple[int, int, int, int, str, int, int] | None = None
    # The positions (`self` counted) of the parameters it changes in place (`store[key] = item`,
    # `store.append(item)`): a caller in another module that hands it module state there changes
    # that state at the call.
    changes_params: tuple[int, ...] = ()
    # What it prepares when idempotent set-up is all it changes itself (`makedirs(parent,
    # exist_ok=True)` for the path its caller passes), "" otherwise; its site is mutation_site.
    # Never a mutation alone: a caller that goes on, past its own check, to make the change the
    # directory is for is the finding.
    prepares: str = ""
    # Handler.site of its `except` clauses that neither raise nor return: an exception they catch
    # becomes an entry of what the function goes on to do (an error per item), not its failure.
    absorbing: frozenset[str] = frozenset()
    # Returns real error results (isError set) or only raises: returning its value is the right
    # channel (a rule on failures returned as successes asks this of helpers in other modules).
    error_results: bool = False
    # The protocol error class it returns (`def not_found(x): return McpError(...)`), or "":
    # `raise not_found(x)` in another module raises a protocol error.
    protocol_error: str = ""
    # Named like an error builder (`_fail`, `error_response`) and returns a failure: `return
    # _fail(msg)` in another module is a failure returned as a success.
    failure_builder: bool = False
    # The status tuples it returns (`return False, "Footnote not found"` / `return True, "Added"`):
    # (position of the flag, position of the failure text beside its False, that text), from
    # rules.results.status_flags. A caller that returns the text without reading the flag reports
    # the failure as a success (asked after linking).
    status_flags: tuple[tuple[int, int, str], ...] = ()
    # Some return carries its first argument whole (a result formatter: `return
    # [TextContent(type="text", text=str(text))]`): a value its callers wrap in it and return is
    # returned as it is, unless it builds error results or failures itself.
    returns_argument: bool = False
    # No value it returns can hold text (model/non_text.py: `def status_of(err) -> int`): a caller
    # handing it a caught exception builds nothing of the exception's words from its result.
    returns_no_text: bool = False
    # Catches exceptions, or runs code under a project context manager that may turn them into
    # others (`with reported_to_model():`): as a decorator's wrapper around a tool, it decides
    # what the framework receives of the tool's exceptions (whether it masks their text).
    intercepts: bool = False
    # Where its name is written (`def read_note`), kept for registered tool handlers only: the
    # related location of a finding in a helper the tool reaches.
    name_span: tuple[Location, Location] | None = None
    # Its parameter -> return flow as statements (flow_steps.return_steps): the helper's part of a
    # caller's finding that takes its result.
    return_steps: tuple[FlowStep, ...] = ()
    # The positions of its parameters (`self` counted) that a value it returns reads, through any
    # locals and calls (flow_steps.return_flow); None where not recorded (tool handlers). A caller
    # handing it a caught exception at another position gets none of the exception's text back.
    returned_params: tuple[int, ...] | None = None
    # The positions of its parameters (`self` counted) some return value is the value of, as it
    # is or transformed (`return {**saved, **args}`; model/derived_params.py): stricter than
    # `returned_params`, which `return fetch(key)` reads too.
    derived_params: tuple[int, ...] = ()
    # For a class's `__init__`: the positions of its parameters (`self` counted) whose text is in
    # the message it hands its base (model/message_params.py); None where not known.
    message_params: tuple[int, ...] | None = None
    # With `message_params`: its keyword-only parameters (`*, body=None`) and those of them whose
    # text is in that message; None where not known.
    message_keywords: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    # A method some return of which reads its object (`def to_text(self): return self.message`):
    # `return load(key).to_text()` sends what `load` returned (CallEdge.receiver_of).
    returns_self: bool = False
    # Its `try` statements, as exception_guards.TryGuard (what each clause catches, in order): as
    # a decorator's wrapper around a tool, they tell which clause takes each exception of the
    # tool (one defect per flow when that clause catches everything and passes its text on).
    guards: tuple[tuple[tuple[frozenset[str], bool, str], ...], ...] = ()
    # The exceptions it may let escape (model.escapes.Exit: its own raises and library calls not
    # caught inside, the project calls it makes), composed across modules at link time to tell who
    # wrote a caught builtin exception's text; None where it was not recorded.
    escapes: tuple[Exit, ...] | None = None
    # Its `except` clauses that read the caught exception's text (a rule records them, its
    # summarize hook): (Handler.site, the clause's own words before that text, as in `f"Export
    # failed: {exc}"`; "" where some use of the text has no words of the clause before it).
    words_before_caught: tuple[tuple[str, str], ...] = ()
    # Its `except` clauses (Handler.site) that log the caught failure with its traceback
    # (`logger.exception`, `exc_info=True`): a helper whose every caller does needs no log line
    # of its own for that failure (callers_words.py).
    traced_sites: tuple[str, ...] = ()


@dataclass
class ModuleSummary:
    path: str
    module: str
    # The `__init__.py`-chain name when `module` also names namespace folders above it (the
    # linker finds the module under both: module_names.ModuleName.alias).
    module_alias: str = ""
    family_hint: Family | None = None
    lowlevel_major_hint: int | None = None
    servers: dict[str, Family] = field(default_factory=dict)
    # Short names of the classes its code catches or type-tests (model/tested_classes.py).
    tested_classes: frozenset[str] = frozenset()
    # Short names of the classes whose caught exception's message its code tests (`"404" in
    # exc.message`): a fix must not rewrite that message (model/tested_classes.py).
    message_tested_classes: frozenset[str] = frozenset()
    # Comments inside its statements of several lines (fixing/comments.py): a fix rewriting one
    # keeps them on the new line.
    inner_comments: tuple[tuple[int, int, int, int, str], ...] = ()
    tools: list[ToolRegistration] = field(default_factory=list)
    # `@x.tool` where x is imported from elsewhere: (function, qualified x, tool name).
    pending: list[tuple[str, str, str]] = field(default_factory=list)
    non_tool: set[str] = field(default_factory=set)
    # `@server.tool` on an unannotated parameter of a register function, in a module that does not
    # import a framework: (function, register function, parameter, tool name).
    param_pending: list[tuple[str, str, str, str]] = field(default_factory=list)
    # Calls passing a server as an argument: (callee, position or -1, keyword, server key, family).
    server_arguments: list[tuple[str, int, str, str, Family | None]] = field(default_factory=list)
    # Calls passing a function, a table of functions or a module by name, to a registering
    # function's parameter (ARGUMENT_REF): (callee, position or -1, keyword, what the argument names).
    callable_arguments: list[tuple[str, int, str, tuple[str, ...]]] = field(default_factory=list)
    # A registered ref -> the project functions its registration wraps it with (`mcp.tool(adapt(fn))`).
    adapters: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Module-level dicts and lists of functions (`TOOLS = [a, b]`, `HANDLERS = {"a": a}`), by name.
    function_tables: dict[str, list[str]] = field(default_factory=dict)
    # Functions that call through a table of another module (a CallEdge to TABLE_REF + its name).
    table_callers: list[str] = field(default_factory=list)
    # Tables of functions as rows, by qualified key (ModuleModel.tables).
    tables: dict[str, Table] = field(default_factory=dict)
    # Functions passed as a server's `lifespan=` (their return annotation types the lifespan context).
    lifespans: list[str] = field(default_factory=list)
    functions: dict[str, FunctionSummary] = field(default_factory=dict)
    # `client = Api()` at module level ("client") or `self.client = Api()` in a class ("Cls.client")
    # -> qualified name of what was called, so `client.get()` resolves to `Api.get`.
    instances: dict[str, str] = field(default_factory=dict)
    # Collections of objects (`self.tools = [Search(), Fetch()]`, `TOOLS = {"a": A()}`), by
    # qualified name -> what made their objects: a call `<collection>.[].run` (model/elements.py)
    # may run the `run` of each.
    elements: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Collections a function fills with its parameter (`def add(self, tool): self.tools[k] = tool`):
    # key -> (function, parameter); they hold what the callers pass (object_arguments).
    element_params: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # Calls passing an object made of a class (`registry.add(Search())`): (callee, position or -1,
    # keyword, what made it).
    object_arguments: list[tuple[str, int, str, str]] = field(default_factory=list)
    # Class name -> qualified names of the classes it inherits from (for method lookup).
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Exception-like classes -> the attributes they define (ModuleModel.class_attrs).
    class_attrs: dict[str, frozenset[str]] = field(default_factory=dict)
    # Local names re-exported from other modules (`from .x import f` in __init__.py).
    reexports: dict[str, str] = field(default_factory=dict)
    tool_error_names: dict[Family, str] = field(default_factory=dict)
    # A framework name the module imports in a `try` -> the other framework's name its `except
    # ImportError:` clause imports instead (AliasTable.fallbacks), both qualified.
    framework_fallbacks: dict[str, str] = field(default_factory=dict)
    # The top-level imports, for fixes that add one (mcp_lint.fixing.imports places it).
    imports: ImportBlock = field(default_factory=ImportBlock)
    logger_name: str | None = None
    # The project's own function that made that logger (`logger = get_logger(__name__)`, imported
    # from the project's logging module), qualified; "" for a library's or none. A module that
    # has no logger gets the project's (LinkFixes.project_logger), never a second kind beside it.
    logger_factory: str = ""
    # The module has no logger of its own and logs through the standard library's root logger
    # (`logging.error(...)`): a fix logs the same way, never with a second, module logger.
    root_logging: bool = False
    # Names bound at module level by def, class or assignment (fixes must not shadow them).
    defined_names: set[str] = field(default_factory=set)
    mentions_framework: bool = False
    # The module adds folders to `sys.path` (`sys.path.insert(0, here / "agents")`): bare imports
    # of the project (`import helpers`) name its modules by the end of their dotted names.
    extends_path: bool = False
    # The framework copies in the project this module imports from (framework_copies.py): a fix
    # that imports from the framework imports from the copy.
    framework_copies: tuple[FrameworkCopy, ...] = ()
    # `mask_error_details=True` appears in the file (fastmcp): unexpected exception text is masked.
    masks_errors: bool = False
    # A constructor passes `mask_error_details=` something else (False, an expression): on the
    # releases where the argument beats FASTMCP_MASK_ERROR_DETAILS, the project's files do not decide.
    mask_argument: bool = False
    # What the server-level rules (Rule.check_module) found in this file, by rule code: picklable
    # records (a ServerLatent, or a rule's own record of a server constructor) that the rule's
    # `link` turns into findings once the whole project is known. Only selected rules have an entry.
    rule_records: dict[str, tuple[object, ...]] = field(default_factory=dict)
    noqa: dict[int, frozenset[str] | None] = field(default_factory=dict)
    file_noqa: frozenset[str] | None = None
    has_file_noqa: bool = False


def receiver_shift(via_attribute: bool, params: tuple[str, ...]) -> int:
    """1 when a call `obj.method(a)` reaches a method whose first parameter is `self`/`cls`: the
    caller's argument positions are the method's parameter positions less one."""
    return 1 if via_attribute and params and params[0] in {"self", "cls"} else 0


_FALSY_CONSTANTS = frozenset({"False", "None", "0", "''", '""'})


@dataclass(frozen=True)
class ParamGuard:
    """A test of one parameter that every one of a function's own effects runs under (`if
    commit:`, `if not dry_run:`, or after `if dry_run: return ...`): whether a call takes that
    branch depends on the argument it passes (argument_enables)."""

    name: str  # the parameter
    index: int  # its position among the function's parameters (`self` counted)
    truthy: bool  # the branch is taken when the argument is true (`if commit:`), else when it is false
    default: str  # the default's constant text (`False`, `None`, `0`); "" when the parameter is required


def argument_enables(guard: ParamGuard, constants: tuple[tuple[int, str, str], ...], shift: int) -> bool:
    """Can a call with these constant arguments take the branch `guard` (FunctionSummary.
    mutates_when) names? `shift` is 1 when the call's positions skip the callee's `self`. An
    argument that is not a constant ("*") may take it; a missing one takes the default's way."""
    position = guard.index - shift
    passed = next((text for pos, keyword, text in constants if keyword == guard.name or (not keyword and pos == position)), None)
    if passed is None:
        return True if not guard.default else (guard.default not in _FALSY_CONSTANTS) == guard.truthy
    return passed == "*" or (passed not in _FALSY_CONSTANTS) == guard.truthy
