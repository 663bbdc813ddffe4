"""Per-file work: parse one module and summarise it (servers, tools, functions, latent findings).

Everything here depends on the file's content and name only, so it runs in worker processes and
its result (a ModuleSummary) can be cached.
"""

from __future__ import annotations

import ast
import builtins
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

import libcst as cst
from libcst.metadata import CodeRange

from mcp_lint.findings import Location
from mcp_lint.framework_copies import FrameworkCopy
from mcp_lint.fixing.imports import read_imports, statements_tree
from mcp_lint.model.elements import module_collections
from mcp_lint.model.non_text import returns_no_text
from mcp_lint.model.argument_checks import ArgumentChecks, validates_through_nested
from mcp_lint.model.call_args import string_value
from mcp_lint.model.escapes import ExitFinder, refine_handler_origins
from mcp_lint.model.exception_guards import Handler, TryGuard, WrittenClassBases, try_guard
from mcp_lint.model.facts import CallFact, FunctionFacts
from mcp_lint.model.failure_tests import FAILURE_KEYS, failed_positions
from mcp_lint.model.derived_params import derived_params
from mcp_lint.model.flow_steps import return_flow
from mcp_lint.model.message_params import message_keywords, message_params
from mcp_lint.model.frameworks import Family
from mcp_lint.model.module_model import ModuleModel
from mcp_lint.model.module_walk import build_model
from mcp_lint.model.positions import function_layout
from mcp_lint.model.names import dotted, literal_value, tool_error_names, unwrap_await
from mcp_lint.model.parsing import parse_module
from mcp_lint.model.tested_classes import message_tested_class_names, tested_class_names
from mcp_lint.model.summary import TABLE_REF, CallEdge, FunctionSummary, ModuleSummary
from mcp_lint.model.table_rows import LOCAL, RETURNED
from mcp_lint.model.walk import descendants, holds
from mcp_lint.model.function_body import yielded_dict_members
from mcp_lint.noqa import may_suppress, parse_noqa
from mcp_lint.module_names import extends_sys_path, module_name
from mcp_lint.rules import all_rules
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.common import protocol_error_built_by
from mcp_lint.rules.results import builds_error_results, builds_failures, is_error_builder_name, status_flags
from mcp_lint.fixing.comments import inner_comments
from mcp_lint.rules.exception_text import author_raises, decoded_reply_args, exception_raises, failed_response_args, is_validator, project_call
from mcp_lint.vocabulary import ERROR_KEYS, MESSAGE_KEYS, hint_keys_in



@dataclass
class ParseFailure:
    reason: str
    row: int = 1
    column: int = 1


def _beyond_cpython_limits(exc: SyntaxError) -> bool:
    """Whether CPython refused the text for an implementation limit ("too many nested
    parentheses"), not for syntax a newer Python may know."""
    return (exc.msg or "").startswith("too many nested")


def module_name_for(path: Path) -> tuple[str, bool]:
    """Dotted module name of `path` (see module_names.module_name), and whether it is a package."""
    name = module_name(path if path.is_absolute() else path.resolve())
    return name.dotted, name.is_package


def family_hint(model: ModuleModel) -> Family | None:
    modules = model.aliases.imported_modules | set(model.aliases.aliases.values())
    if model.servers:
        return next(iter(model.servers.values()))
    for prefix, family in (
        ("mcp.server.fastmcp", Family.MCP_FASTMCP),
        ("mcp.server.mcpserver", Family.MCP_SERVER),
        ("fastmcp", Family.FASTMCP),
        ("mcp.server.lowlevel", Family.MCP_LOWLEVEL),
    ):
        if any(m == prefix or m.startswith(prefix + ".") for m in modules):
            return family
    return None


# Long generated expressions (a 3,000-term string concatenation) nest that deep in the tree; the
# walkers recurse once per level. Python 3.11+ keeps such frames off the C stack.
_RECURSION_LIMIT = 20_000
_BUILTIN_NAMES = frozenset(dir(builtins))
_AST_GUARD_LIMIT = 1_500


def analyze_source(
    source: str, path: Path, display: str, codes: frozenset[str] | None = None, copies: tuple[FrameworkCopy, ...] = ()
) -> ModuleSummary | ParseFailure:
    """Parse and summarise one module, running the rules in `codes` (all when None); names under
    the framework `copies` of the run are the framework's."""
    # CPython's parser first: it refuses an expression nested too deep for libcst's native parser,
    # which would crash the whole process instead (an 8,000-term concatenation does). Its depth
    # limit follows the recursion limit: at 1,500 it accepts about 4,500 levels, which libcst
    # still parses. The tree is reused for positions and import anchors. A syntax error here is
    # not final: libcst may know newer syntax than the Python running mcp-lint, so it decides.
    sys.setrecursionlimit(_AST_GUARD_LIMIT)
    try:
        tree: ast.Module | None = ast.parse(source)
    except (RecursionError, MemoryError):
        return ParseFailure("an expression is nested too deeply to analyse")
    except SyntaxError as exc:
        if _beyond_cpython_limits(exc):
            # Valid grammar that CPython itself refuses to compile (its parser's fixed nesting
            # limit): the module can never be imported, so it is unreadable like the deep case.
            return ParseFailure(f"CPython cannot compile this file: {exc.msg}", exc.lineno or 1, exc.offset or 1)
        tree = None
    except ValueError:
        tree = None
    finally:
        if sys.version_info >= (3, 11):
            sys.setrecursionlimit(_RECURSION_LIMIT)
    try:
        module = parse_module(source, tree)
    except cst.ParserSyntaxError as exc:
        return _syntax_failure(source, path, exc)
    except (RecursionError, MemoryError):
        return ParseFailure("file is too deeply nested to parse")
    name = module_name(path if path.is_absolute() else path.resolve())
    model = build_model(module, name.dotted, name.is_package, copies)
    ctx = FileContext(module, model, source, tree)
    summary = ModuleSummary(path=display, module=name.dotted, module_alias=name.alias)
    summary.family_hint = family_hint(model)
    summary.lowlevel_major_hint = model.lowlevel_major_hint
    summary.servers = dict(model.servers)
    summary.tested_classes = tested_class_names(source)
    summary.message_tested_classes = message_tested_class_names(source) if " as " in source else frozenset()
    summary.tools = list(model.tools)
    summary.pending = list(model.pending)
    summary.non_tool = set(model.non_tool)
    summary.param_pending = list(model.param_pending)
    summary.server_arguments = list(model.server_arguments)
    summary.callable_arguments = list(model.callable_arguments)
    summary.adapters = dict(model.adapters)
    summary.extends_path = extends_sys_path(source)
    summary.lifespans = list(model.lifespans)
    summary.function_tables = {k: v for k, v in model.function_tables.items() if not k.endswith(RETURNED) and LOCAL not in k}
    summary.tables = model.tables
    summary.classes = dict(model.classes)
    summary.class_attrs = dict(model.class_attrs)
    summary.reexports = dict(model.aliases.aliases)
    summary.framework_fallbacks = {model.aliases.aliases[local]: qual for local, qual in model.aliases.fallbacks.items() if local in model.aliases.aliases}
    summary.instances = _instances(module, model)
    summary.elements = module_collections(module, model.aliases, model.module_lists)
    for facts in model.functions.values():
        for key, made in facts.collections.items():
            summary.elements[key] = tuple(dict.fromkeys((*summary.elements.get(key, ()), *made)))
        for key, entries in facts.collection_params.items():
            summary.element_params.setdefault(key, []).extend(entries)
    summary.object_arguments = list(model.object_arguments)
    ctx.instances = summary.instances
    # What `try` bodies let escape through the module's own functions decides who wrote a caught
    # ValueError's text (model.escapes), now that every function of the module is known.
    class_bases = WrittenClassBases(model.classes, name.dotted, model.aliases)
    refine_handler_origins(model, summary.instances, class_bases)
    exits = ExitFinder(model, class_bases, summary.instances)
    summary.tool_error_names = tool_error_names(model.aliases)
    summary.defined_names = _defined_names(module)
    summary.logger_name = model.logger_name or _logger_name(model, summary.defined_names)
    summary.logger_factory = _logger_factory(module, model, summary.logger_name)
    summary.root_logging = summary.logger_name is None and _logs_through_root(module, model)
    summary.mentions_framework = model.aliases.mentions_framework()
    summary.framework_copies = tuple(sorted(model.aliases.copies_used))
    summary.masks_errors = model.masks_errors
    summary.mask_argument = model.mask_argument
    if may_suppress(source):  # tokenizing every file costs; most have no directive of ours
        summary.noqa, summary.file_noqa, summary.has_file_noqa = parse_noqa(source)
    rules = all_rules(codes)
    layout = function_layout(module)
    argument_checks = ArgumentChecks(module, model.aliases, tuple(model.classes), tuple(model.servers))
    registered = {reg.function for reg in model.tools} | {entry[0] for entry in model.pending} | {entry[0] for entry in model.param_pending}
    for qual, facts in model.functions.items():
        fsum = FunctionSummary(qual, facts.name, facts.params, returns_type=facts.returns_type, returned_objects=facts.returned_objects, wrappers=tuple(facts.wrappers))
        place = layout.get(id(facts.node))
        if place is not None:
            index, order, indents = place
            ctx.hint(facts.node, index)
            # Any function, top-level too: positions come from the statement holding the node.
            ctx.hint_function(facts.node, order, indents)
        ctx.current = facts.node
        ctx.current_facts = facts
        fsum.calls = _call_edges(facts, model, failed_response_args(facts, ctx), decoded_reply_args(facts), ctx.range)
        if qual in registered:
            where = ctx.range(facts.node.name)
            fsum.name_span = (Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1))
        for rule in rules:
            fsum.latent.extend(rule.check(facts, ctx))
        fsum.error_results = builds_error_results(facts, ctx)
        # Whether it rejects bad arguments: several rules ask, whichever are selected.
        fsum.validates = argument_checks.validates(facts)
        fsum.protocol_error = protocol_error_built_by(facts, ctx) or ""
        fsum.failure_builder = is_error_builder_name(facts.name) and builds_failures(facts, ctx)
        fsum.status_flags = status_flags(facts, ctx)
        fsum.returns_argument = facts.returns_argument
        fsum.returns_no_text = returns_no_text(facts)
        # A caller's finding that takes a helper's result shows how its parameters reach its returns.
        if qual not in registered:
            fsum.return_steps, fsum.returned_params = return_flow(facts.value_flow, tuple(facts.params), (r.node for r in facts.returns), facts.name, ctx.range)
        fsum.derived_params = derived_params(facts)
        fsum.message_params = message_params(facts)
        fsum.message_keywords = message_keywords(facts)
        if facts.params[:1] == ("self",) and facts.value_flow is not None:
            fsum.returns_self = _returns_self(facts)
        # Its rules have run: the value flow refers back to the model (its test of project calls
        # resolves names there), a cycle that would keep the whole tree alive after the analysis.
        facts.release_value_flow()
        fsum.exception_raises = tuple(exception_raises(facts, ctx))
        fsum.author_raises = tuple(dict.fromkeys(author_raises(facts, ctx)))
        fsum.validator = is_validator(facts)
        fsum.escapes = exits.of_function(facts)
        guards = _try_guards(facts) if facts.handlers else ()
        if facts.handlers:
            fsum.absorbing = frozenset(h.site for h in facts.handlers if not any(type(n) in (cst.Raise, cst.Return) for n in descendants(h.node.body, into_scopes=False)))
        fsum.intercepts = _intercepts(facts, guards) or any(type(m) is cst.Call and project_call(m, ctx) for m in facts.managers)
        if fsum.intercepts:
            fsum.guards = guards  # kept only where a decorator's wrapper may read them (summaries stay small)
        for rule in rules:  # what a rule records of a helper for its callers in other modules
            rule.summarize(facts, ctx, fsum)
        summary.functions[qual] = fsum
        if any(edge.callee.startswith(TABLE_REF) for edge in fsum.calls):
            summary.table_callers.append(qual)
    ctx.current = ctx.current_facts = None
    # Nested functions are summarised after the function holding them: a helper whose refusal
    # sits in a function of its own body it calls (`def walk(v): ... raise`, then `walk(plan)`)
    # rejects bad arguments too.
    nested = {id(facts.node): qual for qual, facts in model.functions.items()}
    for qual, facts in model.functions.items():
        fsum = summary.functions[qual]
        if not fsum.validates:
            fsum.validates = validates_through_nested(facts, lambda node: _nested_validates(summary, nested.get(id(node))))
    for rule in rules:  # server-level rules: what the module configures, for their link step
        records = tuple(rule.check_module(ctx))
        if records:
            summary.rule_records[rule.code] = records
    if summary.rule_records or any(f.latent for f in summary.functions.values()):
        # Only a module with findings gets fixes: they may need to add imports, and they keep the
        # comments inside the statements they rewrite (tokenizing every file would cost ~5% of a run).
        summary.imports = read_imports(tree if tree is not None else statements_tree(module), ctx.lines, name.dotted)
        summary.inner_comments = inner_comments(source, tree)
    return summary


def _syntax_failure(source: str, path: Path, exc: cst.ParserSyntaxError) -> ParseFailure:
    """Where and why the file does not parse. CPython's own parser words it best ("'(' was
    never closed", "expected ':'") and points at the right line, so ask it first; libcst's
    position is the fallback (for syntax CPython accepts but libcst does not)."""
    try:
        compile(source, str(path), "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as err:
        row = err.lineno or 1
        column = err.offset or 1
        return ParseFailure(f"syntax error: {err.msg}", row, max(1, column))
    except (ValueError, RecursionError, MemoryError):
        pass
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else "invalid syntax"
    return ParseFailure(f"syntax error: {first}", exc.raw_line or 1, (exc.raw_column or 0) + 1)


def _intercepts(facts: FunctionFacts, guards: tuple[TryGuard, ...]) -> bool:
    """Does a clause of the function catch an exception without re-raising it (`raise`, `raise e`
    of its own `e` change nothing the framework receives)? As a decorator's wrapper, only the
    `try` around the wrapped function counts where that call is found: a call of a name from the
    enclosing decorator (`await fn(**kwargs)`), not a `try` around a notification sent after it."""
    enclosing = facts.qualname.rsplit(".", 1)[0] + "."
    wrapped = [
        call
        for call in facts.calls
        if type(call.node.func) is cst.Name
        and call.node.func.value not in facts.local_names
        and call.node.func.value not in _BUILTIN_NAMES
        # the decorator's parameter, or another wrapper of the same decorator (`await inner(...)`)
        and (call.callee is None or (call.callee.startswith(enclosing) and "." not in call.callee[len(enclosing) :]))
    ]
    if wrapped:
        guards = tuple(guard for call in wrapped for guard in call.guarded)
    return any(not reraises for guard in guards for _, reraises, _ in guard)


def _try_guards(facts: FunctionFacts) -> tuple[TryGuard, ...]:
    """The function's `try` statements, each with what its clauses catch (in order)."""
    by_try: dict[int, tuple[cst.Try | cst.TryStar, list[Handler]]] = {}
    for handler in facts.handlers:
        by_try.setdefault(id(handler.try_node), (handler.try_node, []))[1].append(handler)
    return tuple(try_guard(node, records) for node, records in by_try.values())


def _call_edges(
    facts: FunctionFacts,
    model: ModuleModel,
    failed_responses: dict[int, tuple[int, ...]],
    decoded_replies: dict[int, tuple[int, ...]],
    range_of: Callable[[cst.CSTNode], CodeRange],
) -> list[CallEdge]:
    """One edge per resolved call, then the functions the calls run without naming them
    (callbacks, table lookups): each of those shares its call's edge (returned, guards, branch).
    A call that hands a caught exception on, or whose value the caller returns, keeps where it
    is (`range_of`): a finding in the callee shows it as a statement of its flow."""
    edges: list[CallEdge] = []
    by_call: dict[int, CallEdge] = {}
    raised = {id(unwrap_await(facts.value_of(r.node.exc))) for r in facts.raises if r.node.exc is not None}
    advice = _advice_calls(facts) if any(call.feeds and call.callee is not None for call in facts.calls) else frozenset()
    record_parts = _record_parts(facts) if any(call.callee is not None for call in facts.calls) else {}
    body = _BodyNames(facts)
    # The project calls of the body by node: an argument that is one's value (CallEdge.from_results).
    project_calls = {id(c.node): c for c in facts.calls if c.callee is not None}
    for call in facts.calls:
        resolved = call.callee is not None
        exc_params: list[int] = []
        failure_params: list[int] = []
        handler = call.handler
        if resolved and handler is not None and handler.name:
            positional = [a for a in call.node.args if a.keyword is None and not a.star]
            for index, argument in enumerate(positional):
                # Only the exception object itself: `helper(str(e))` is reported at the call site.
                if dotted(argument.value) == handler.name:
                    failure_params.append(index)
            if type(call.node.func) is cst.Attribute and dotted(call.node.func.value) == handler.name:
                # `e.as_dict()`: the caught exception is the method's object, `self` (position -1
                # here: the linker shifts a method's positions by one past `self`).
                failure_params.append(-1)
            if handler.foreign:
                exc_params = list(failure_params)
        if resolved and (call.returned or call.flows):
            # (`[TextContent(type="text", text=describe(r))]`: the value goes out whole in a wrapper.)
            failure_params.extend(i for i in _found_failures(call, facts) if i not in failure_params)
        at = None
        if failure_params or (resolved and (call.returned or call.flows)):
            where = range_of(call.node)
            at = (Location(where.start.line, where.start.column + 1), Location(where.end.line, where.end.column + 1))
        # Built whole once (dataclasses.replace on each of ~20k edges was a visible cost).
        edge = CallEdge(
            call.callee or "",
            call.returned,
            tuple(exc_params),
            type(call.node.func) is cst.Attribute,
            call.guarded,
            call.branch,
            flows=call.flows,
            feeds=call.feeds,
            excludes=call.excludes,
            constants=_constant_arguments(call.node) if resolved else (),
            failure_params=tuple(failure_params),
            # (Also unresolved: `await asyncio.to_thread(check, x)` hands its edge to the callback.)
            returned_items=_returned_items(call, facts),
            selects=call.selects,
            slot=call.slot,
            wrapped_by=call.wrapped_by,
            raises_value=id(call.node) in raised,
            raised_text=call.raised_text,
            returned_in=call.returned_in,
            param_call=_param_call(call.node, facts) if resolved else None,
            arg_types=_arg_types(call.node, facts) if resolved else (),
            forwards=_forwards(call.node, facts) if resolved else (),
            from_params=_from_params(call.node, facts) if resolved else (),
            from_results=_from_results(call.node, facts, project_calls) if resolved else (),
            raised=call.raised,
            failed_responses=failed_responses.get(id(call.node), ()) if resolved else (),
            decoded_replies=decoded_replies.get(id(call.node), ()) if resolved else (),
            tested=(tested := resolved and (call.returned or call.flows) and _value_tested(call, body)),
            dead_check=_handing_on_check(call, facts, range_of) if tested else None,
            appended=resolved and (call.returned or call.flows) and _value_appended(call, body),
            # (Also where only a part reaches the caller's value, `return fmt(r)` through a project
            # formatter: the test and the failure of its own are what count.)
            rewords=resolved and (call.returned or call.flows or call.feeds) and _value_tested(call, body) and _rewording_check(call, facts),
            advises=id(call.node) in advice,
            record_key=(part := record_parts.get(id(call.node), ("", False)) if resolved else ("", False))[0],
            record_message=part[1],
            hands_on=resolved and call.returned and _hands_on(call, facts, body),
            receiver_of=call.receiver_of,
            items_tested=resolved and call.feeds and _items_tested(call, body),
            at=at,
        )
        by_call[id(call)] = edge
        if resolved:
            edges.append(edge)
    for callback in facts.callbacks:
        edges.append(_run_by(by_call[id(callback.call)], callback.callee))
    for callee in _table_targets(facts, model):
        edges.append(_run_by(by_call[id(callee[0])], callee[1]))
    return edges


def _assigned_local(call: CallFact) -> str | None:
    """The plain local a statement of its own assigns the call's value to (`r = helper(x)`,
    `r: dict = await helper(x)`): the name the checks of that value read. None otherwise."""
    statement = call.statement
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if type(small) not in (cst.Assign, cst.AnnAssign) or small.value is None or unwrap_await(small.value) is not call.node:
        return None
    targets = [t.target for t in small.targets] if type(small) is cst.Assign else [small.target]
    if len(targets) != 1 or type(targets[0]) is not cst.Name:
        return None
    return targets[0].value


class _BodyNames:
    """The names a function's body reads in conditions and joins to text, each set read on first
    need in one walk of the body: asked once per call of the function, a walk per question made
    the edges quadratic in the function's size (a long tool body makes hundreds of calls)."""

    def __init__(self, facts: FunctionFacts) -> None:
        self.facts = facts
        self._tested: frozenset[str] | None = None
        self._joined: frozenset[str] | None = None

    def tested(self) -> frozenset[str]:
        """The names read in a test of the body (`if`, `while`, a conditional expression, `assert`)."""
        if self._tested is None:
            found: set[str] = set()
            for node in descendants(self.facts.node.body, into_scopes=False):
                test = node.test if type(node) in (cst.If, cst.While, cst.IfExp, cst.Assert) else None
                if test is not None:
                    found.update(n.value for n in descendants(test, into_scopes=False) if type(n) is cst.Name)
            self._tested = frozenset(found)
        return self._tested

    def joined(self) -> frozenset[str]:
        """The names that are an operand of `+` or `+=`, or a part of an f-string, in the body (_joined)."""
        if self._joined is None:
            operands = _joined_operands(self.facts.node.body)
            self._joined = frozenset(node.value for node in operands if type(node) is cst.Name)
        return self._joined


def _value_tested(call: CallFact, body: _BodyNames) -> bool:
    """Is the local the call's value is assigned to (`r = helper(x)`) read in a condition of the
    function (`if "error" in r:`, `if isinstance(r, dict) and ...`, `r if r else ...`)?"""
    name = _assigned_local(call)
    return name is not None and name in body.tested()


def _returns_self(facts: FunctionFacts) -> bool:
    """Does a value the method returns read its object, as it is or a field of it, through any
    locals (`return self.message`, `return {"error": self.kind}`)?"""
    flow = facts.value_flow
    assert flow is not None
    return any(
        any(key == "self" or key.startswith("self.") for key in flow.follow(ret.node.value, at=ret.node)[2])
        for ret in facts.returns
        if ret.node.value is not None
    )


def _items_tested(call: CallFact, body: _BodyNames) -> bool:
    """Is a local the call's tuple value is unpacked into (`status, body = fetch()`) read in a
    condition of the function (`if status == 0: raise ...`)?"""
    statement = call.statement
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
        return False
    small = statement.body[0]
    if type(small) is not cst.Assign or len(small.targets) != 1 or unwrap_await(small.value) is not call.node:
        return False
    target = small.targets[0].target
    if type(target) not in (cst.Tuple, cst.List):
        return False
    names = {e.value.value for e in target.elements if type(e) is cst.Element and type(e.value) is cst.Name}
    return not names.isdisjoint(body.tested())


def _hands_on(call: CallFact, facts: FunctionFacts, body: _BodyNames) -> bool:
    """Is the call's local (`blocked = confirm(code)`) tested by one `if` without `else` that reads
    only it (`if blocked:`, `if err is not None:`) and only returns it as it is, with statements of
    the caller's own after that `if` (the work the check guards)?"""
    assigned = _assigned_local(call)
    if assigned is not None and assigned not in body.tested():  # no test reads it: no walk of the blocks
        return False
    for block in descendants(facts.node, into_scopes=False):
        statements = block.body if type(block) is cst.IndentedBlock else None
        if not statements:
            continue
        for index, check in enumerate(statements[:-1]):
            if type(check) is not cst.If or check.orelse is not None:
                continue
            # `if (err := check()):` binds the local in the test itself: the call's own names
            # (the checker, its arguments) are not what the test reads of its value.
            name = assigned or _bound_in_test(check.test, call.node)
            if name is None:
                continue
            inside = {id(n) for n in descendants(call.node, into_scopes=False)}
            read = {n.value for n in descendants(check.test, into_scopes=False) if type(n) is cst.Name and id(n) not in inside}
            if name not in read or read - _CHECK_NAMES - {name}:
                continue
            body = check.body.body if type(check.body) is cst.IndentedBlock else ()
            if len(body) == 1 and type(body[0]) is cst.SimpleStatementLine and len(body[0].body) == 1:
                returned = body[0].body[0]
                if type(returned) is cst.Return and type(returned.value) is cst.Name and returned.value.value == name:
                    # The check guards work that follows (a call), not the choice between two answers
                    # (`if note: return note` then `return "unchanged"`).
                    return any(type(n) is cst.Call for after in statements[index + 1 :] for n in descendants(after, into_scopes=False))
    return False


def _bound_in_test(test: cst.BaseExpression, call: cst.Call) -> str | None:
    """The local an `if` test binds the call's value to (`if (err := check()):`, `if (err :=
    await check()) is not None:`), None when the test binds no such walrus."""
    if type(test) is cst.Comparison:
        test = test.left
    if type(test) is cst.NamedExpr and type(test.target) is cst.Name and unwrap_await(test.value) is call:
        return test.target.value
    return None


def _advice_calls(facts: FunctionFacts) -> frozenset[int]:
    """The calls (by id) whose value a dict literal of the function holds whole as its advice
    item beside an error item (`{"error": str(e), "hint": hint_for(name)}`): the function's own
    failure report, which carries the callee's text as a suggestion, not as what failed."""
    found: set[int] = set()
    for node in descendants(facts.node.body, into_scopes=False):
        if type(node) is not cst.Dict:
            continue
        items = {key: element.value for element in node.elements if type(element) is cst.DictElement and (key := string_value(element.key))}
        if not items.keys() & set(ERROR_KEYS):
            continue
        for key in hint_keys_in(items):
            value = unwrap_await(items[key])
            if type(value) is cst.Call:
                found.add(id(value))
    return frozenset(found)


def _record_parts(facts: FunctionFacts) -> dict[int, tuple[str, bool]]:
    """The calls (by id) whose value a dict literal of the function that has an error item holds
    whole as one of its items, with that item's key and whether it is the record's message (`{"error":
    status_text(code), "details": details_of(exc)}`): the callee builds a part of the function's
    own failure record."""
    found: dict[int, tuple[str, bool]] = {}
    for node in descendants(facts.node.body, into_scopes=False):
        if type(node) is not cst.Dict:
            continue
        items = {key: element.value for element in node.elements if type(element) is cst.DictElement and (key := string_value(element.key))}
        if not items.keys() & set(ERROR_KEYS):
            continue
        message = next((key for key in (*ERROR_KEYS, *MESSAGE_KEYS) if key in items), None)
        for key, item in items.items():
            value = unwrap_await(item)
            if type(value) is cst.Call:
                found.setdefault(id(value), (key, key == message))
    return found


def _value_appended(call: CallFact, body: _BodyNames) -> bool:
    """Is the call's value joined to other text (or items) the function builds: `report +=
    helper()`, `head + helper()`, `f"{head}{helper()}"`, or the same with the local it is
    assigned to (`r = helper()` ... `report += r`)?"""
    statement = call.statement
    if type(statement) is not cst.SimpleStatementLine:
        return False
    if _joined(statement, lambda node: unwrap_await(node) is call.node):
        return True
    name = _assigned_local(call)
    return name is not None and name in body.joined()


def _joined(within: cst.CSTNode, is_value: Callable[[cst.CSTNode], bool]) -> bool:
    """Is a node `is_value` accepts an operand of `+` or `+=`, or a part of an f-string, in `within`?"""
    return any(is_value(operand) for operand in _joined_operands(within))


def _joined_operands(within: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The operands of `+` and `+=`, and the parts of f-strings, in `within`."""
    for node in descendants(within, into_scopes=False):
        if type(node) is cst.AugAssign and type(node.operator) is cst.AddAssign:
            yield node.value
        elif type(node) is cst.BinaryOperation and type(node.operator) is cst.Add:
            yield node.left
            yield node.right
        elif type(node) is cst.FormattedStringExpression:
            yield node.expression


# Names a check of a helper's value may read besides the value: `isinstance(r, dict)`, literals.
_CHECK_NAMES = frozenset({"isinstance", "dict", "str", "list", "None", "True", "False"})


def _rewording_check(call: CallFact, facts: FunctionFacts) -> bool:
    """Does a test of the call's local for a failure (`if "error" in r:`, `if not r.get("success"):`)
    leave with a value or exception of the caller's own (`return f"Could not ...: {r['error']}"`),
    not the local as it is? Then the helper's failure value is intercepted there and re-worded:
    the model-facing failure is the caller's."""
    name = _assigned_local(call)
    if name is None:
        return False
    for node in descendants(facts.node.body, into_scopes=False):
        if type(node) is not cst.If or not any(type(n) is cst.Name and n.value == name for n in descendants(node.test, into_scopes=False)):
            continue
        if not any(type(n) is cst.SimpleString and literal_value(n) in FAILURE_KEYS for n in descendants(node.test, into_scopes=False)):
            continue
        body = node.body.body if type(node.body) is cst.IndentedBlock else ()
        last = body[-1] if body else None
        exit_ = last.body[-1] if type(last) is cst.SimpleStatementLine and last.body else None
        if type(exit_) is cst.Raise or (type(exit_) is cst.Return and exit_.value is not None and not (type(exit_.value) is cst.Name and exit_.value.value == name)):
            return True
    return False


def _returned_items(call: CallFact, facts: FunctionFacts) -> tuple[int, ...]:
    """The positions of the call's tuple value unpacked into plain locals by the statement of the
    call (`key, err = load()`) that a return of the function sends as they are (`return err`)."""
    statement = call.statement
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
        return ()
    small = statement.body[0]
    if type(small) is not cst.Assign or len(small.targets) != 1 or unwrap_await(small.value) is not call.node:
        return ()
    target = small.targets[0].target
    if type(target) not in (cst.Tuple, cst.List):
        return ()
    names = {e.value.value: i for i, e in enumerate(target.elements) if type(e) is cst.Element and type(e.value) is cst.Name}
    returned = {r.node.value.value for r in facts.returns if type(r.node.value) is cst.Name}
    return tuple(sorted(i for name, i in names.items() if name in returned))


def _found_failures(call: CallFact, facts: FunctionFacts) -> tuple[int, ...]:
    """The positions of a returned call's arguments that are a local the returning statement's
    branch tested for failure (`if r.get("error"): return describe(r)`, `if not r["ok"]:`):
    the caller found the failure and hands the value whole to the callee to describe."""
    ret = next((r for r in facts.returns if r.node.value is not None and holds(r.node.value, call.node)), None)
    if ret is None:
        return ()
    return failed_positions(call.node, ret.conditions, facts.node.body)


def _handing_on_check(call: CallFact, facts: FunctionFacts, range_of: Callable[[cst.CSTNode], CodeRange]) -> tuple[Location, Location] | None:
    """The whole lines of the one test of the call's local when it is an `if` (no elif, no
    else) that only returns the local as it is (`if "error" in r: return r`) and reads nothing
    else: a check that hands the helper's failure on, dead once the helper raises instead.
    None for any other use of the value in a condition."""
    name = _assigned_local(call)
    if name is None:
        return None
    tests = [
        node
        for node in descendants(facts.node.body, into_scopes=False)
        if type(node) in (cst.If, cst.While, cst.IfExp, cst.Assert)
        and any(type(n) is cst.Name and n.value == name for n in descendants(node.test, into_scopes=False))
    ]
    if len(tests) != 1 or type(tests[0]) is not cst.If or tests[0].orelse is not None:
        return None
    check = tests[0]
    if {n.value for n in descendants(check.test, into_scopes=False) if type(n) is cst.Name} - _CHECK_NAMES - {name}:
        return None
    if not any(type(n) is cst.SimpleString and literal_value(n) in FAILURE_KEYS for n in descendants(check.test, into_scopes=False)):
        return None  # `if not r: return r` hands on an empty answer too, not only a failure
    body = check.body.body if type(check.body) is cst.IndentedBlock else ()
    if len(body) != 1 or type(body[0]) is not cst.SimpleStatementLine or len(body[0].body) != 1:
        return None
    returned = body[0].body[0]
    if type(returned) is not cst.Return or not (type(returned.value) is cst.Name and returned.value.value == name):
        return None
    if any(type(node) is cst.If and node.orelse is check for node in descendants(facts.node.body, into_scopes=False)):
        return None  # an `elif`: its lines are part of the `if` above
    where = range_of(check)
    return Location(where.start.line, 1), Location(where.end.line + 1, 1)


_CONSTANT_NAMES = frozenset({"True", "False", "None"})


def _constant_arguments(call: cst.Call) -> tuple[tuple[int, str, str], ...]:
    """(position or -1, keyword or "", text) of the arguments: a constant's text, "*" for any other value."""
    out: list[tuple[int, str, str]] = []
    position = 0
    for argument in call.args:
        if argument.star:
            return tuple(out)  # positions after `*args` are unknown
        value = argument.value
        text = value.value if type(value) is cst.Name and value.value in _CONSTANT_NAMES else value.value if type(value) in (cst.Integer, cst.SimpleString) else None
        text = "*" if text is None else text  # any other value: not known here
        out.append((-1, argument.keyword.value, text) if argument.keyword is not None else (position, "", text))
        if argument.keyword is None:
            position += 1
    return tuple(out)


def _run_by(edge: CallEdge, callee: str) -> CallEdge:
    """The edge to a function that a call runs (a callback, a table entry): the call's own edge."""
    return replace(edge, callee=callee, exc_params=(), failure_params=(), via_attribute=True, param_call=None, arg_types=(), forwards=(), constants=())


def _forwards(call: cst.Call, facts: FunctionFacts) -> tuple[tuple[int, int], ...]:
    """(position, the caller's parameter index) of each positional argument that is one of the
    caller's parameters, unchanged: `describe(exc, action)` in `def fail(exc, action)`."""
    out: list[tuple[int, int]] = []
    for index, argument in enumerate(a for a in call.args if a.keyword is None and not a.star):
        value = argument.value
        if type(value) is cst.Name and value.value in facts.params and value.value not in {"self", "cls"}:
            out.append((index, facts.params.index(value.value)))
    receiver = call.func.value if type(call.func) is cst.Attribute else None
    if type(receiver) is cst.Name and receiver.value in facts.params and receiver.value not in {"self", "cls"}:
        # `def fail(exc: ApiError): return exc.to_response()`: the parameter is the method's
        # object (position -1: the linker shifts a method's positions by one past `self`).
        out.append((-1, facts.params.index(receiver.value)))
    return tuple(out)


def _from_params(call: cst.Call, facts: FunctionFacts) -> tuple[tuple[int, int], ...]:
    """(position, the caller's parameter index) of each positional argument taken from one of
    the caller's parameters: itself, an item, attribute or method result of it (`args.get("x")`),
    or a local assigned once from one (`args = arguments or {}`)."""
    out: list[tuple[int, int]] = []
    for index, argument in enumerate(a for a in call.args if a.keyword is None and not a.star):
        param = _parameter_root(argument.value, facts, 2)
        if param is not None:
            out.append((index, facts.params.index(param)))
    return tuple(out)


def _from_results(
    call: cst.Call, facts: FunctionFacts, project_calls: dict[int, CallFact]
) -> tuple[tuple[int, str, bool, tuple[tuple[int, int], ...]], ...]:
    """Each positional argument that is a call's value, whole or in part (`merge(args, saved)`,
    `merged.get("x")` after `merged = merge(args, saved)`): (position, that call's callee, written
    `obj.f()`, its arguments taken from the caller's parameters), one per call on the way (the
    linker keeps those that are the project's: `merge(args, saved).get("x")` names `.get` too)."""
    out: list[tuple[int, str, bool, tuple[tuple[int, int], ...]]] = []
    for index, argument in enumerate(a for a in call.args if a.keyword is None and not a.star):
        for inner in _result_roots(argument.value, facts, project_calls, 2):
            out.append((index, inner.callee or "", type(inner.node.func) is cst.Attribute, _from_params(inner.node, facts)))
    return tuple(out)


def _result_roots(value: cst.BaseExpression, facts: FunctionFacts, project_calls: dict[int, CallFact], depth: int) -> list[CallFact]:
    """The calls `value` is taken from, outermost first, on the way `_parameter_root` follows."""
    return [project_calls[id(node)] for node in _taken_from(value, facts, depth, through_await=True) if id(node) in project_calls]


def _parameter_root(value: cst.BaseExpression, facts: FunctionFacts, depth: int) -> str | None:
    """The caller's parameter `value` is taken from, or None."""
    root = list(_taken_from(value, facts, depth, through_await=False))[-1]
    if type(root) is cst.Name and root.value in facts.params:
        return root.value if root.value not in {"self", "cls"} else None
    return None


def _taken_from(value: cst.BaseExpression, facts: FunctionFacts, depth: int, through_await: bool) -> Iterator[cst.BaseExpression]:
    """Each expression `value` is taken from, outermost first: through `x or default`, a method
    call's object, a subscript or attribute's value, and (up to `depth` times) the one assignment
    of a local that is not a parameter. The last one yielded is where the chain starts."""
    while True:
        if through_await:
            value = unwrap_await(value)
        yield value
        if type(value) is cst.BooleanOperation and type(value.operator) is cst.Or:
            value = value.left  # `arguments or {}`: the parameter, or an empty default
        elif type(value) is cst.Call and type(value.func) is cst.Attribute:
            value = value.func.value  # `args.get("x")`, `raw.strip()`
        elif type(value) in (cst.Subscript, cst.Attribute):
            value = value.value
        elif type(value) is cst.Name and value.value not in facts.params and depth > 0 and facts.single_assignments.get(value.value) is not None:
            value = facts.single_assignments[value.value]
            depth -= 1
        else:
            return


def _param_call(call: cst.Call, facts: FunctionFacts) -> tuple[int, str] | None:
    """`db.query(...)` where `db` is an untyped parameter: (its position, ".query")."""
    name = dotted(call.func)
    if name is None or "." not in name:
        return None
    root, _, rest = name.partition(".")
    if root in {"self", "cls"} or root not in facts.params or root in facts.local_types:
        return None
    return facts.params.index(root), "." + rest


def _arg_types(call: cst.Call, facts: FunctionFacts) -> tuple[tuple[int, str, str], ...]:
    """The arguments of `call` whose class is known here (a typed local or parameter)."""
    out: list[tuple[int, str, str]] = []
    position = 0
    for arg in call.args:
        if arg.star:
            break
        if type(arg.value) is cst.Name and arg.value.value in facts.local_types:
            keyword = arg.keyword.value if arg.keyword is not None else ""
            out.append((-1 if keyword else position, keyword, facts.local_types[arg.value.value]))
        if arg.keyword is None:
            position += 1
    return tuple(out)


def _table_targets(facts: FunctionFacts, model: ModuleModel) -> list[tuple[CallFact, str]]:
    """Calls through tables of functions reach every function the table holds: a table of this
    module by name, the tables of this module when the table is a parameter (`registry[name]`
    with the registry built here), or the methods named `<prefix>...` for `getattr(self, ...)`."""
    out: list[tuple[CallFact, str]] = []
    for dynamic in facts.dynamic_calls:
        targets: list[str] = []
        if dynamic.prefix is not None:
            owner = facts.qualname.rsplit(".", 1)[0] + "."
            targets = [
                qual
                for qual, other in model.functions.items()
                if qual.startswith(owner) and "." not in qual[len(owner) :] and other.name.startswith(dynamic.prefix)
                and other is not facts and not other.name.startswith("__")
            ]
        elif dynamic.table.startswith(("self.", "cls.")):
            # Any table of the module (the object's own, by whatever name), and the rows its
            # methods store (`self._tools[name] = {"function": func}` in a registering method:
            # PassedCallables._store_in_object), which the linker reads (Project._expand_table_calls).
            targets = [ref for refs in model.function_tables.values() for ref in refs]
            stored = f"{facts.qualname.rsplit('.', 1)[0]}.{dynamic.table.partition('.')[2]}"
            if stored in model.tables:
                targets.append(TABLE_REF + stored)
        elif dynamic.table:
            local = dynamic.table[len(model.module) + 1 :] if dynamic.table.startswith(model.module + ".") else dynamic.table
            targets = model.function_tables.get(local, model.function_tables.get(dynamic.table, []))
            if not targets and not dynamic.table.endswith(RETURNED):
                # A table of another module (`from .handlers import HANDLERS`), or one a decorator
                # fills (`TOOLS[name] = fn`): the linker puts its functions in place of this one
                # call (Project._expand_table_calls).
                targets = [TABLE_REF + dynamic.table]
        else:
            targets = [ref for refs in model.function_tables.values() for ref in refs]
        out.extend((dynamic.call, target) for target in dict.fromkeys(targets))
    return out


def _instances(module: cst.Module, model: ModuleModel) -> dict[str, str]:
    """Objects created at module level or stored on `self`, by the name they are reached through."""
    out: dict[str, str] = {}
    for stmt in module.body:
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if type(small) in (cst.Assign, cst.AnnAssign) and small.value is not None:
                    value = small.value.expression if type(small.value) is cst.Await else small.value
                    if type(value) is not cst.Call:
                        continue
                    target = model.aliases.resolve_or_local(value.func)
                    targets = [t.target for t in small.targets] if type(small) is cst.Assign else [small.target]
                    for t in targets:
                        if type(t) is cst.Name and target:
                            out[t.value] = target
    # `self.x = Api()` in any method: facts recorded it while walking the method.
    for facts in model.functions.values():
        if facts.class_name and facts.self_instances:
            for attribute, callee in facts.self_instances.items():
                out[f"{facts.class_name}.{attribute}"] = callee
    # A lifespan yielding a dict (`yield {"api": Api()}`): its entries by the function's name,
    # `lifespan.api`, where the linker looks for `lifespan_context["api"]` (_lifespan_member).
    for lifespan in model.lifespans:
        facts = model.functions.get(lifespan)
        if facts is not None and not facts.class_name:
            for key, made in yielded_dict_members(facts.node, model.aliases).items():
                out.setdefault(f"{facts.name}.{key}", made)
    # Annotated names (`api: Api = None`, a class body's `client: Api`), globals set in functions.
    for name, type_name in model.typed_names.items():
        out.setdefault(name, type_name)
    # Globals set in functions to an object made there or taken out of a collection.
    for facts in model.functions.values():
        for name, made in facts.global_instances.items():
            out.setdefault(name, made)
    return out


_LOGGER_NAMES = ("logger", "log", "LOGGER", "_logger", "_log", "LOG")


def _logger_name(model: ModuleModel, defined: set[str]) -> str | None:
    """A module-level logger the fixes can call `.exception()` on (logging, loguru, structlog)."""
    for local, qual in model.aliases.aliases.items():
        if qual in {"loguru.logger"}:
            return local
    for name in _LOGGER_NAMES:
        if name in defined or model.aliases.aliases.get(name, "").endswith((".logger", ".log")):
            return name
    return None


def _logger_factory(module: cst.Module, model: ModuleModel, logger: str | None) -> str:
    """The project's own function the module-level logger comes from (`logger =
    get_logger(__name__)` with `get_logger` imported from the project), qualified; for a logging
    library the project chose over the standard library's, the statement's call as a module
    without a logger would write it (`structlog.get_logger()`) or `loguru.logger` (imported as
    it is); "" when the logger is the standard library's, or there is none."""
    if logger is None:
        return ""
    if model.aliases.aliases.get(logger) == "loguru.logger":
        return "loguru.logger"
    root = model.module.split(".")[0]
    for statement in module.body:
        if type(statement) is not cst.SimpleStatementLine:
            continue
        for small in statement.body:
            if type(small) is not cst.Assign or type(small.value) is not cst.Call:
                continue
            if [t.target.value for t in small.targets if type(t.target) is cst.Name] != [logger]:
                continue
            resolved = model.aliases.resolve(small.value.func) or ""
            if "." in resolved and resolved.split(".")[0] == root and len(small.value.args) <= 1:
                return resolved
            if resolved in _LIBRARY_LOGGER_FACTORIES and len(small.value.args) <= 1:
                named = bool(small.value.args) and dotted(small.value.args[0].value) == "__name__"
                return f"{resolved}({'__name__' if named else ''})"
    return ""


# The standard library's module-level log functions (`logging.error(...)`: the root logger's).
_ROOT_LOG_FUNCTIONS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"})


def _logs_through_root(module: cst.Module, model: ModuleModel) -> bool:
    """Does the module call the logging module's own log functions (`logging.info(f"...")`),
    the root logger, anywhere?"""
    for node in descendants(module):
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _ROOT_LOG_FUNCTIONS:
            if model.aliases.resolve(node.func) == f"logging.{node.func.attr.value}":
                return True
    return False


# Logging libraries' logger factories (`logger = structlog.get_logger()`): a project logging with
# one gets it in a module that has no logger yet, never a standard library logger beside it.
_LIBRARY_LOGGER_FACTORIES = frozenset({"structlog.get_logger", "structlog.stdlib.get_logger", "structlog.getLogger"})


def _defined_names(module: cst.Module) -> set[str]:
    names: set[str] = set()
    for stmt in module.body:
        if type(stmt) in (cst.FunctionDef, cst.ClassDef):
            names.add(stmt.name.value)
        elif type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                targets = []
                if type(small) is cst.Assign:
                    targets = [t.target for t in small.targets]
                elif type(small) in (cst.AnnAssign, cst.AugAssign):
                    targets = [small.target]
                names.update(t.value for t in targets if type(t) is cst.Name)
    return names


def _nested_validates(summary: ModuleSummary, qual: str | None) -> bool:
    """Does the function `qual` of this module (a nested one) reject bad arguments?"""
    fsum = summary.functions.get(qual) if qual is not None else None
    return fsum is not None and fsum.validates
