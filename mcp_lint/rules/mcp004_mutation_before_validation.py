"""MCP004 mutation-before-validation: a tool mutates state, then rejects the call.

One pass over a function body (source order, into `if`/`with`/`try`/loops/`match`, not into
nested scopes) lists its steps: mutations (model/mutations.py over the effect tables of
model/effects.py), calls of project helpers that may mutate or validate (decided at link time from
the helpers' summaries), checks that reject the call (`if`/`elif`/`else`/`case` branches that raise
or return a failure, `assert`, `except` clauses for value errors), and assignments. Which step can
run after which is read off the function's control-flow graph (mcp_lint.engine), so a check early
in a loop body runs after a write late in it. What depends on a candidate first mutation is
found by reaching definitions on that graph (_Flow: the mutation's result, what it changed,
values made from those, results of calls that ask the world again): a check reading such a
value is a post-check; the first other check that can run after the mutation is the defect. The finding sits on the
mutation (inside the helper when a tool's call of a helper mutates), with the check and the
tool's call as related locations.
"""

from __future__ import annotations

import builtins
import re
import sys
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping, Sequence

import libcst as cst

from mcp_lint.engine.graph import EdgeKind, Node
from mcp_lint.engine.libcst_cfg import build_cfg
from mcp_lint.engine.reaching import Definition, ReachingDefinitions
from mcp_lint.findings import Applicability, Edit, Location, Related
from mcp_lint.lazy_re import lazy_compile
from mcp_lint.model.argument_checks import VALUE_METHODS as _VALUE_METHODS
from mcp_lint.model.argument_checks import data_reads as _data_reads
from mcp_lint.model.argument_checks import terminates as _terminates
from mcp_lint.model.facts import CallFact, FunctionFacts, branch_name
from mcp_lint.model.message_text import literal_text
from mcp_lint.model.effects import Effect
from mcp_lint.model.mutations import (
    FILE,
    FILE_ANY,
    FS,
    NO_LOCALS,
    LocalHandles,
    MutationKind,
    chain,
    is_cleanup,
    local_handles,
    module_level_handles,
    module_level_names,
    mutation_of,
    read_names,
    statement_text,
    store_like,
    walk_statements,
)
from mcp_lint.model.names import AliasTable, dotted, identifier_words, last_name
from mcp_lint.model.summary import FunctionSummary, Latent, ParamGuard, Payload, argument_enables
from mcp_lint.rules.mcp004_helper_effects import HelperEffects, HelperGuard, helper_effects
from mcp_lint.rules.mcp004_handed_state import argument_for, params_changed
from mcp_lint.rules.mcp004_memo import is_memo
from mcp_lint.model.walk import children, descendants
from mcp_lint.model import effects as fx
from mcp_lint.rules.base import (
    Example,
    FixSpec,
    FileContext,
    LinkedProject,
    Reach,
    RenderContext,
    Rendered,
    Rule,
    Span,
    indent_of,
    latent_fix,
    node_span,
    walk,
)
from mcp_lint.rules.results import (
    classify_return,
    is_error_builder_name,
    is_error_result,
)
from mcp_lint.rules.text import is_failure_text
from mcp_lint.vocabulary import REJECTION_WORDING

_WRITE_VERBS = fx.WRITE_VERBS
_AMBIGUOUS_VERBS = fx.AMBIGUOUS_VERBS
_CONTAINER_WRITES = fx.CONTAINER_WRITES
_BOOKKEEPING = fx.BOOKKEEPING
_HTTP_RECEIVER = fx.HTTP_RECEIVER


_CONSTANTS = frozenset({"None", "True", "False"})
_MAX_CANDIDATES = 4  # helper calls tried as the first mutation, and helper checks after one


def _reads_and_files(node: cst.CSTNode) -> list[str]:
    """`reads`, plus FILE-marked names passed to calls (what they may open), and FS-marked names
    of the calls that look at the file system (`Path(out).glob(...)`, `p.exists()`, `os.listdir(d)`)."""
    out = read_names(node)
    for inner in walk(node):
        if type(inner) is cst.Call:
            out.extend(FILE + r for a in inner.args for r in read_names(a.value))
            if _reads_file_system(inner):
                looked_at = [r for a in inner.args for r in read_names(a.value)]
                if type(inner.func) is cst.Attribute:
                    looked_at.extend(read_names(inner.func.value))
                out.extend(FS + r for r in looked_at)
                out.extend(FILE + r for r in looked_at)
                if not looked_at:
                    out.append(FS)
    return out


def _joins_paths(value: cst.BaseExpression) -> bool:
    """Is the value a path made from others (`folder / name`, `os.path.join(folder, name)`,
    `Path(folder, name)`, `folder.joinpath(name)`)?"""
    if type(value) is cst.BinaryOperation:
        return type(value.operator) is cst.Divide and type(value.left) not in (cst.Integer, cst.Float)
    if type(value) is cst.Call:
        return last_name(dotted(value.func) or "") in fx.PATH_DERIVERS
    return False


def _reads_file_system(call: cst.Call) -> bool:
    name = dotted(call.func) or ""
    if name in fx.FILE_READ_CALLS or name.startswith(fx.FILE_READ_PREFIXES):
        return True
    return type(call.func) is cst.Attribute and call.func.attr.value in fx.FILE_READ_METHODS


def _module_handles(ctx: FileContext) -> frozenset[str]:
    handles = ctx.memo.get("module_handles")
    if handles is None:
        handles = ctx.memo["module_handles"] = module_level_handles(ctx.module)
    return handles  # type: ignore[return-value]


def _module_names(ctx: FileContext) -> set[str]:
    names = ctx.memo.get("module_names")
    if names is None:
        names = ctx.memo["module_names"] = module_level_names(ctx.module) | {n.split(".")[-1] for n in ctx.model.servers}
    return names  # type: ignore[return-value]


# -- reading names -----------------------------------------------------------------------------


class _Reads:
    """What some expressions read, computed on first use: most functions never have a
    mutation before a check, so most steps are never asked."""

    __slots__ = ("_nodes", "_files", "_extra", "_value")

    def __init__(self, nodes: Sequence[cst.CSTNode], files: bool = False, extra: Sequence[str] = ()) -> None:
        self._nodes = nodes
        self._files = files
        self._extra = extra
        self._value: list[str] | None = None

    def get(self) -> list[str]:
        if self._value is None:
            read = _reads_and_files if self._files else read_names
            self._value = [r for node in self._nodes for r in read(node)] + list(self._extra)
        return self._value


def _overlaps(read: str, tainted: set[str]) -> bool:
    """`self.conn.cursor` reads `self.conn`; `self._token` does not read `self.conn`. What a
    subprocess changed (FILE_ANY) is read by any look at the file system."""
    if read in tainted:
        return True
    if read.startswith(FS) and FILE_ANY in tainted:
        return True
    parts = read.split(".")
    for cut in range(1, len(parts)):
        if ".".join(parts[:cut]) in tainted:
            return True
    prefix = read + "."
    return any(t.startswith(prefix) for t in tainted)


def _targets(target: cst.BaseExpression) -> list[str]:
    """What an assignment target binds or changes: `x`, `(a, b)`, `self.x`, `X` of `X[k]`."""
    if type(target) in (cst.Tuple, cst.List):
        return [n for el in target.elements for n in _targets(el.value)]
    if type(target) is cst.StarredElement:
        return _targets(target.value)
    name = chain(target)
    return [name] if name else []


def _chosen(target: cst.BaseExpression) -> list[str]:
    """The stores a conditional expression under an item target chooses between:
    `A` and `B` of `(A if c else B)[k] = v`."""
    base = target
    while type(base) in (cst.Subscript, cst.Attribute):
        base = base.value
    if type(base) is not cst.IfExp:
        return []
    return [name for branch in (base.body, base.orelse) if (name := chain(branch))]


# -- the steps of a function -------------------------------------------------------------------


@dataclass
class _Assign:
    targets: list[str]
    reads: _Reads
    value: cst.CSTNode | None = None  # for the data it reads (see _data_reads)
    _data: tuple[list[str], bool] | None = None

    def data_reads(self, modules: frozenset[str]) -> tuple[list[str], bool]:
        if self._data is None:
            self._data = _data_reads([self.value], modules) if self.value is not None else (list(self.reads.get()), False)
        return self._data


@dataclass
class _Step:
    """One statement (or `if` test, `with` item, `else`/`case` branch) in source order."""

    node: cst.CSTNode  # where a finding on this step is reported
    statement: cst.CSTNode  # its statement (noqa, excerpt, fix)
    path: tuple[int, ...]  # ids of the blocks it is in, outermost first
    assigns: list[_Assign] = field(default_factory=list)
    mutation: MutationKind | None = None
    mutation_node: cst.CSTNode | None = None
    helper_calls: list[tuple[str, cst.Call]] = field(default_factory=list)  # (callee, call)
    changed: list[str] = field(default_factory=list)  # what its mutations change
    check_reads: _Reads | None = None  # a rejecting check: what its condition reads
    check_tests: Sequence[cst.CSTNode] = ()  # its conditions (must be pure to count)
    validator: tuple[str, _Reads] | None = None  # (callee, names its arguments read)
    branch: str | None = None
    # The syntax whose node of the control-flow graph stands for this step (a small statement,
    # the `if`/loop/`with`/`match` header, a `case`, an `except` clause).
    cfg: cst.CSTNode | None = None
    # A rejecting `except` clause: the steps of its `try` body (first, last + 1), whose failures
    # it turns into the rejection; its condition is that one of them fails.
    raisers: tuple[int, int] | None = None
    # An implicit check that takes a constant item of a parameter (`outline["title"]`): a
    # rejection only where the parameter is the model's argument, in a tool handler.
    item_check: bool = False
    waits: tuple[str, ...] | None = None  # locals it waits for (_waited_for), computed on first use


@dataclass
class _Block:
    owner: int  # id of the compound statement
    exclusive: bool  # one of several branches (if/elif/else, case)
    terminates: bool  # ends with return/raise: nothing after it runs
    guard: _Reads | None = None  # what decides whether (or how often) it runs


class _Order:
    """Which steps can run after which: paths on the function's control-flow graph
    (mcp_lint.engine). A step runs after a mutation when a path leaves the mutation once it is
    done (its own failure is not the way on) and reaches the step."""

    def __init__(self, function: cst.FunctionDef) -> None:
        self.graph = build_cfg(function)
        self._after: dict[int, frozenset[Node]] = {}
        self._flow: _Flow | None = None

    def _node(self, step: _Step) -> Node | None:
        return self.graph.node_of(step.cfg) if step.cfg is not None else None

    def _reach(self, start: Node, kinds: tuple[EdgeKind, ...] | None) -> frozenset[Node]:
        seen: set[Node] = set()
        stack = list(self.graph.successors(start, (EdgeKind.NORMAL, EdgeKind.LOOP_BACK)))
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack.extend(self.graph.successors(node, kinds))
        return frozenset(seen)

    def after(self, step: _Step) -> frozenset[Node] | None:
        node = self._node(step)
        if node is None:
            return None
        found = self._after.get(node.index)
        if found is None:
            found = self._after[node.index] = self._reach(node, None)
        return found

    def reaches(self, first: _Step, later: _Step, steps: _Steps) -> bool:
        """Can `later` (after `first` in the source) run after `first`?"""
        after, node = self.after(first), self._node(later)
        if after is None or node is None:
            return _reachable(steps, first.path, later.path)
        return node in after

    def node(self, step: _Step) -> Node | None:
        return self._node(step)

    def flow(self, steps: _Steps) -> _Flow:
        """Reaching definitions of the steps' assignments (and of what their mutations change)."""
        if self._flow is None:
            self._flow = _Flow(steps, self)
        return self._flow

    def loops_back(self, first: _Step, earlier: _Step) -> bool:
        """Can `earlier` (before `first` in the source) run after `first`: in the next turn of a
        loop around both?"""
        after, node = self.after(first), self._node(earlier)
        return after is not None and node is not None and node in after


class _Flow:
    """Which values depend on a mutation's effect, by reaching definitions on the graph
    (mcp_lint.engine.reaching): a definition is tainted when it is the mutation's own (its result,
    what it changed), a later mutation's change, a result of a call that asks the world again, or
    reads a tainted definition that reaches it; a check reads the effect when a tainted definition
    of a name it reads reaches it."""

    def __init__(self, steps: _Steps, order: _Order) -> None:
        self.by_step: dict[int, list[Definition]] = {}
        definitions: list[Definition] = []
        for index, step in enumerate(steps.steps):
            node = order.node(step)
            if node is None:
                continue
            mine = [Definition(t, node, a.value is not None, a) for a in step.assigns for t in a.targets]
            mine.extend(Definition(c, node, False, None) for c in step.changed)
            if mine:
                self.by_step[index] = mine
                definitions.extend(mine)
        self.reaching = ReachingDefinitions(order.graph, definitions)
        self.order = order

    def tainted_by(self, steps: _Steps, index: int, helper: str | None, after: _After) -> set[Definition]:
        first = steps.steps[index]
        outcome = helper is not None or (first.mutation is not None and first.mutation.result_is_outcome)
        tainted = {d for d in self.by_step.get(index, ()) if d.payload is None or outcome}
        later = self.order.after(first) or frozenset()
        pending: list[tuple[int, Definition]] = []
        for i, definitions in self.by_step.items():
            if i == index or definitions[0].node not in later:
                continue
            step = steps.steps[i]
            for d in definitions:
                assign = d.payload
                if assign is None or (step.mutation is not None and step.mutation.result_is_outcome):
                    tainted.add(d)  # a later mutation's change, or its result
                elif assign.value is not None and after.observes(assign.value):
                    tainted.add(d)  # a result of a call made after it
                else:
                    pending.append((i, d))
        changed = True
        while changed and pending:
            changed = False
            for entry in list(pending):
                i, d = entry
                assign = d.payload
                reads = after.without_independent(assign.reads.get(), [assign.value] if assign.value is not None else [])
                if self.reads(reads, d.node, tainted) or self._guarded(steps, i, steps.steps[index], d.node, tainted):
                    tainted.add(d)
                    pending.remove(entry)
                    changed = True
        return tainted

    def reads(self, names: Sequence[str], node: Node, tainted: set[Definition]) -> bool:
        return any(self.reaching.reaches(t, node) and _overlaps(r, {t.key}) for t in tainted for r in names)

    def _guarded(self, steps: _Steps, index: int, first: _Step, node: Node, tainted: set[Definition]) -> bool:
        """Does the step run only depending on a tainted value (`if resp.ok: done = True`)?"""
        for block_id in steps.steps[index].path:
            guard = steps.blocks[block_id].guard if block_id not in first.path else None
            if guard is not None and self.reads(guard.get(), node, tainted):
                return True
        return False


class _Taint:
    """What depends on one mutation: by the graph's reaching definitions where the steps have
    nodes, else by the names the source-order replay tainted."""

    def __init__(self, names: set[str], definitions: set[Definition], order: _Order, steps: _Steps) -> None:
        self.names = names
        self.definitions = definitions
        self.order = order
        self.flow = order.flow(steps)

    def reads(self, names: Sequence[str], step: _Step) -> bool:
        node = self.order.node(step)
        if node is None:
            return any(_overlaps(r, self.names) for r in names)
        return self.flow.reads(names, node, self.definitions)

    def guards(self, steps: _Steps, step: _Step, mutation: _Step) -> bool:
        """Does the step run only on the say of a value that depends on the mutation (the branch
        of a post-check: `if not saved: return failure(...)`)?"""
        node = self.order.node(step)
        if node is None:
            return False
        return self.flow._guarded(steps, steps.steps.index(step), mutation, node, self.definitions)


_CONVERSIONS = frozenset({"int", "float", "complex", "bool"})


def _converts(expr: cst.CSTNode) -> bool:
    """Does the expression parse or convert a value (`int(count)`, `json.loads(text)`): an
    implicit check of what it is given, not the building of a reply?"""
    return any(type(n) is cst.Call and (_parses(n) or dotted(n.func) in _CONVERSIONS) for n in walk(expr))


def _repeats_an_earlier_check(steps: _Steps, check: _Step, mutation: _Step) -> bool:
    """Is the check's `if` test written, with a block that ends the call, before the mutation
    (`if not self.remote: raise ...` twice), over names the function never assigns? Then every
    call that reaches the mutation passed it once: the second copy cannot reject."""
    statement = check.statement
    if type(statement) is not cst.If or check.node is not statement.test:
        return False
    ctx = steps.ctx
    before = ctx.start_line(mutation.node)
    reads = {r.split(".")[0] if not r.startswith(("self.", "cls.")) else r for r in read_names(statement.test)}
    if not reads:
        return False
    assigned: set[str] | None = None
    for node in walk(steps.fn.node.body):
        if type(node) is not cst.If or node is statement or not _terminates(node.body) or not node.test.deep_equals(statement.test):
            continue
        if ctx.start_line(node) >= before:
            continue
        if assigned is None:
            assigned = _assigned_in(steps.fn.node.body)
        if not any(_overlaps(r, assigned) for r in reads):
            return True
    return False


def _sized(test: cst.BaseExpression, assigned: Mapping[str, cst.BaseExpression]) -> set[str]:
    """Names a test asks the length or emptiness of (`len(items) > 1`, `not fields`, `items`,
    `count > 0` for `count = len(items)`)."""
    out: set[str] = set()
    for node in walk(test):
        if type(node) is cst.Name and type(value := assigned.get(node.value)) is cst.Call:
            node = value  # `num_rows = len(values)`, then `num_rows > 0`
        if type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == "len" and node.args:
            out.update(n for n in read_names(node.args[0].value) if "." not in n)
    bare = test.expression if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not else test
    if type(bare) is cst.Name:
        out.add(bare.value)
    if type(bare) is cst.BooleanOperation:
        for side in (bare.left, bare.right):
            out.update(_sized(side, assigned))
    return out


def _read_only_by_returns(steps: _Steps, names: frozenset[str]) -> bool:
    """Are the names read only in the function's `return` statements (what it answers)?"""
    memo: dict[int, dict[str, bool]] = steps.ctx.memo.setdefault("read_by_returns", {})  # type: ignore[assignment]
    reads = memo.get(id(steps.fn.node))
    if reads is None:
        reads = memo[id(steps.fn.node)] = {}
        for stmt in walk_statements(steps.fn.node.body):
            if type(stmt) is not cst.SimpleStatementLine:
                heads = [getattr(stmt, a) for a in ("test", "iter", "subject") if getattr(stmt, a, None) is not None]
                heads += [item.item for item in getattr(stmt, "items", ())]
                for head in heads:
                    for name in read_names(head):
                        reads[name.split(".")[0]] = False
                continue
            for small in stmt.body:
                in_return = type(small) is cst.Return
                value = small.value if type(small) in (cst.Return, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr) else small
                for name in read_names(value) if value is not None else ():
                    root = name.split(".")[0]
                    reads[root] = reads.get(root, True) and in_return
    return all(reads.get(name, False) for name in names)


class _Steps:
    """Collects the steps of one function body."""

    def __init__(self, fn: FunctionFacts, ctx: FileContext, module_names: set[str]) -> None:
        self.fn = fn
        self.ctx = ctx
        self.aliases = ctx.model.aliases
        self.module_names = module_names
        self.steps: list[_Step] = []
        self.blocks: dict[int, _Block] = {}
        self.conditions: list[cst.BaseExpression] = []
        self.globals: set[str] = set()
        self.local_containers: set[str] = set()
        self.local: LocalHandles = NO_LOCALS
        self._order: _Order | None = None
        # The clauses of the `try` statements around the statement being walked, innermost last.
        self.trying: list[Sequence[cst.ExceptHandler]] = []
        # What each call of the function may do, from the facts' list of calls: a mutation, a
        # project helper that may mutate (its qualified name), a helper that may validate.
        self.kinds: dict[int, MutationKind | str] = {}
        self.validators: dict[int, str] = {}
        # Helper calls known to change something (named for it, or a function of this module
        # whose body does): what one returns after the mutation is that change's outcome.
        self.changes: set[int] = set()
        # Helper calls that count only as the change a helper's set-up was for, after the check,
        # never as the first mutation themselves.
        self.after_only: set[int] = set()
        # Calls of another module's helper handed module state: id(call) -> (position or -1,
        # keyword, state name) per such argument; the linker asks whether the helper changes
        # that parameter (FunctionSummary.changes_params).
        self.handed: dict[int, tuple[tuple[int, str, str], ...]] = {}
        # Those of them that are candidates only because of what they are handed: judged by
        # that alone, never by the helper's own writes, and never standing for another
        # candidate's finding (earlier, outranked_by, helpers_after).
        self.handed_only: set[int] = set()
        # Calls (and the writes found through what they return) that count only where the linker
        # finds the named helper of another module a set-up helper (FunctionSummary.prepares, no
        # other change): `out = resolve_output(path)`, then `image.save(out)`. id -> that helper.
        self.needs_preparer: dict[int, str] = {}
        # (helper call's step, check's step): the check reads the file system after the helper,
        # which reads back the helper's change when that is a change of files (Check.read_back).
        self.read_backs: set[tuple[int, int]] = set()
        # ... and those whose look at the file system is at any path (Check.read_back_any).
        self.read_backs_any: set[tuple[int, int]] = set()
        self.by_statement: dict[int, list[cst.Call]] = {}
        for call in fn.calls:
            if call.handler is None and call.statement is not None:
                self.by_statement.setdefault(id(call.statement), []).append(call.node)
        # Nothing before the statement of the first call that may mutate matters (the facts list
        # calls in source order): steps start there. None: from the top (item or global writes,
        # which are not calls, may come first).
        self.start: int | None = None
        self.active = True
        self.modules = frozenset(self.aliases.aliases)  # imported names: calls on them are not data
        self._tested: frozenset[str] | None = None
        self._parts: frozenset[str] | None = None
        self._finals: frozenset[int] | None = None

    def finally_blocks(self) -> frozenset[int]:
        """The ids of the function's `finally` blocks (they run whatever happened: clean-up)."""
        if self._finals is None:
            self._finals = frozenset(id(t.finalbody.body) for t in walk(self.fn.node) if type(t) in (cst.Try, cst.TryStar) and t.finalbody is not None)
        return self._finals

    def order(self) -> _Order:
        """The function's control-flow graph, built on first use."""
        if self._order is None:
            self._order = _Order(self.fn.node)
        return self._order

    def start_at_first_candidate(self) -> None:
        if _has_loop(self.fn.node.body):
            return  # a check before the first mutation may run after it, in the next turn
        for call in self.fn.calls:
            if call.handler is None and call.statement is not None and id(call.node) in self.kinds:
                self.start, self.active = id(call.statement), False
                return

    # blocks
    def block(self, body: cst.BaseSuite, path: tuple[int, ...], owner: cst.CSTNode, exclusive: bool, guard: _Reads | None = None) -> None:
        statements = body.body if type(body) is cst.IndentedBlock else ()
        inner = (*path, id(body))
        self.blocks[id(body)] = _Block(id(owner), exclusive, _terminates(body), guard)
        if type(body) is cst.SimpleStatementSuite:
            self.simple(body.body, body, inner)  # type: ignore[arg-type]
            return
        for stmt in statements:
            self.statement(stmt, inner)

    def statement(self, stmt: cst.BaseStatement, path: tuple[int, ...]) -> None:
        if type(stmt) is cst.SimpleStatementLine:
            self.simple(stmt.body, stmt, path)
        elif type(stmt) is cst.If:
            self.if_chain(stmt, path, [])
        elif type(stmt) in (cst.For, cst.While):
            step = self.expression_step(stmt.iter if type(stmt) is cst.For else stmt.test, stmt, path)
            if type(stmt) is cst.For:
                step.assigns.append(_Assign(_targets(stmt.target), _Reads([stmt.iter], files=True)))
            guard = _Reads([stmt.iter if type(stmt) is cst.For else stmt.test])
            self.block(stmt.body, path, stmt, False, guard)
            if stmt.orelse is not None:
                self.block(stmt.orelse.body, path, stmt, False, guard)
        elif type(stmt) is cst.With:
            for item in stmt.items:
                step = self.expression_step(item.item, stmt, path)
                if item.asname is not None:
                    # A file opened by its path (`with zipfile.ZipFile(p) as z`) is a look at the file
                    # system: after a change that may have written p, what it holds is read back.
                    opened = item.item if type(item.item) is cst.Call and _reads_file_system(item.item) else None
                    step.assigns.append(_Assign(_targets(item.asname.name), _Reads([item.item], files=True), opened))
            self.block(stmt.body, path, stmt, False)
        elif type(stmt) in (cst.Try, cst.TryStar):
            # `except` clauses react to a failure: a raise there is not a check, a cleanup there
            # is not the mutation that came first.
            self.trying.append(stmt.handlers)
            first_step = len(self.steps)
            self.block(stmt.body, path, stmt, False)
            self.trying.pop()
            for handler in stmt.handlers:
                self.failure_names(handler, path, stmt)
                caught = _caught_short_names(handler)
                if not caught or not any(_VALUE_ERRORS.search(name) for name in caught):
                    continue  # `except Exception`, `except HTTPError`: a failure reported, not a check
                rejection = self.rejection_in(handler.body) if self.active else None
                if rejection is not None:
                    # `try: when = parse_date(arg) except ValueError: raise ToolError(...)`: a
                    # check whose condition is the failure of a statement of the body.
                    self.blocks[id(handler.body)] = _Block(id(stmt), True, _terminates(handler.body))
                    check = _Step(rejection, rejection, (*path, id(handler.body)), cfg=handler, raisers=(first_step, len(self.steps)))
                    self.steps.append(check)
            if stmt.orelse is not None:
                self.block(stmt.orelse.body, path, stmt, False)
            if stmt.finalbody is not None:
                self.block(stmt.finalbody.body, path, stmt, False)
        elif type(stmt) is cst.Match:
            self.expression_step(stmt.subject, stmt, path)
            for case in stmt.cases:
                if self.active and self.rejects(case.body):
                    step = _Step(case, case, (*path, id(case.body)), cfg=case)
                    step.check_reads = _Reads([stmt.subject], files=True)
                    self.steps.append(step)
                self.block(case.body, path, stmt, True, _Reads([stmt.subject]))

    def failure_names(self, handler: cst.ExceptHandler, path: tuple[int, ...], owner: cst.Try | cst.TryStar) -> None:
        """What an `except` clause assigns (`last_error = e`, `failed = True`) says that something
        of its `try` body failed: a check on it after a mutation reports that failure (the
        mutation's own, or a later step's), it does not validate the arguments. Kept as a step
        whose changes are the names it assigns."""
        if not self.active:
            return
        names = [n for stmt in (handler.body.body if type(handler.body) is cst.IndentedBlock else ()) for n in _assigned_in(stmt)]
        if not names:
            return
        self.blocks.setdefault(id(handler.body), _Block(id(owner), True, _terminates(handler.body)))
        step = _Step(handler, handler, (*path, id(handler.body)), cfg=handler, changed=names)
        self.steps.append(step)

    def rejects(self, body: cst.BaseSuite) -> bool:
        """Does the block end the call with an error? Not a raise that an enclosing `except` of
        this function takes and turns into something else than a failure of the call (an error
        entry for one item, then on to the next)."""
        if type(body) is cst.SimpleStatementSuite:
            smalls: list[cst.BaseSmallStatement] = list(body.body)
        else:
            smalls = [s for stmt in body.body if type(stmt) is cst.SimpleStatementLine for s in stmt.body]
        for small in smalls:
            if type(small) is cst.Raise and small.exc is not None:
                if not self.absorbed(small):
                    return True
            elif _rejecting(small, self.ctx):
                return True
        return False

    def rejection_in(self, body: cst.BaseSuite) -> cst.BaseSmallStatement | None:
        """The statement of an `except` clause's own block that ends the call with an error."""
        smalls = list(body.body) if type(body) is cst.SimpleStatementSuite else [s for stmt in body.body if type(stmt) is cst.SimpleStatementLine for s in stmt.body]
        for small in smalls:
            if type(small) is cst.Raise and small.exc is not None and not self.absorbed(small):
                return small
            if type(small) is cst.Return and small.value is not None and is_failure_value(small.value, self.ctx):
                return small
        return None

    def absorbed(self, raise_: cst.Raise) -> bool:
        """Is the raised exception caught by a clause around it that neither raises nor returns?"""
        raised = last_name(dotted(raise_.exc.func if type(raise_.exc) is cst.Call else raise_.exc) or "") if raise_.exc is not None else ""
        return self.absorbs(raised)

    def absorbs(self, raised: str) -> bool:
        """Is an exception of class `raised` (its short name) caught by a clause around the
        current statement that neither raises nor returns?"""
        for handlers in reversed(self.trying):
            for handler in handlers:
                caught = _caught_short_names(handler)
                if caught is None or raised in caught or caught & {"Exception", "BaseException"}:
                    return not _ends_call(handler.body, self.ctx)
        return False

    def if_chain(self, stmt: cst.If, path: tuple[int, ...], earlier_tests: list[cst.BaseExpression]) -> None:
        step = self.expression_step(stmt.test, stmt, path)
        tests = [*earlier_tests, stmt.test]
        if self.active and self.rejects(stmt.body):
            step.check_reads = _Reads(tests, files=True)
            step.check_tests = tests
        guard = _Reads([stmt.test])
        self.conditions.append(stmt.test)
        self.block(stmt.body, path, stmt, True, guard)
        self.conditions.pop()
        if type(stmt.orelse) is cst.If:
            # `elif`: a block of the outer `if`, holding the inner one.
            orelse = stmt.orelse
            self.blocks[id(orelse)] = _Block(id(stmt), True, False, guard)
            self.conditions.append(cst.UnaryOperation(cst.Not(), stmt.test))
            self.if_chain(orelse, (*path, id(orelse)), tests)
            self.conditions.pop()
        elif type(stmt.orelse) is cst.Else:
            self.conditions.append(cst.UnaryOperation(cst.Not(), stmt.test))
            if self.active and self.rejects(stmt.orelse.body):
                check = _Step(stmt.orelse, stmt.orelse, (*path, id(stmt.orelse.body)), cfg=_first_statement(stmt.orelse.body))
                check.check_reads = _Reads(tests, files=True)
                check.check_tests = tests
                self.steps.append(check)
            self.block(stmt.orelse.body, path, stmt, True, guard)
            self.conditions.pop()

    def expression_step(self, expr: cst.BaseExpression, owner: cst.CSTNode, path: tuple[int, ...]) -> _Step:
        step = _Step(expr, owner, path, cfg=owner)
        if not self.active and id(owner) == self.start:
            self.active = True
        if self.active:  # before the first candidate a step is built but not kept
            self.calls(owner, step)
            self.steps.append(step)
        return step

    def simple(self, smalls: Sequence[cst.BaseSmallStatement], statement: cst.CSTNode, path: tuple[int, ...]) -> None:
        if not self.active:
            if id(statement) != self.start:
                return
            self.active = True
        for small in smalls:
            step = _Step(small, statement, path, cfg=small)
            if type(small) is cst.Global:
                self.globals.update(n.name.value for n in small.names)
            elif type(small) is cst.Assert and not self.absorbs("AssertionError"):
                # A failed assert is a rejection, unless a clause around it takes it and goes
                # on (an error entry for one item of a batch, then the next item).
                step.check_reads = _Reads([small.test], files=True)
                step.check_tests = (small.test,)
            elif type(small) in (cst.Assign, cst.AnnAssign, cst.AugAssign):
                self.assignment(small, step)
            elif type(small) is cst.Del:
                for target in _targets(small.target):
                    self.state_write(step, small, target, f"del {target}[...]")
            self.calls(statement, step)
            self.validator(small, step)
            self.implicit_check(small, step)
            self.steps.append(step)

    def implicit_check(self, small: cst.BaseSmallStatement, step: _Step) -> None:
        """`data = json.loads(payload)`, `when = datetime.fromisoformat(start)` on a parameter: the
        parser's exception rejects a malformed argument as surely as an `if ...: raise` would,
        unless a clause around it in this function takes the failure and goes on."""
        if not self.active or step.check_reads is not None or step.mutation is not None or step.helper_calls:
            return
        value = small.value if type(small) in (cst.Assign, cst.AnnAssign, cst.Expr) else None
        if value is None:
            return
        params = set(self.fn.params) - {"self", "cls"}
        # Names a comprehension in the statement binds are its own (`{t["name"]: ... for t in rows}`).
        bound = {n for node in walk(value) if type(node) is cst.CompFor for n in _targets(node.target)}
        parts = self.argument_parts(params) - bound
        params -= bound
        for node in walk(value):
            if type(node) is cst.Subscript:
                # `title = outline["title"]`, `first = fields[0]`: a missing key or an empty list
                # in the argument raises, unless the function tests for it (`"title" in outline`).
                # Also in a part of an argument (`for slide in outline["slides"]: slide["type"]`).
                param = _constant_item_of(node, params | parts)
                if param is None or param in self.tested_params() or (param, id(node)) in self.guarded_items():
                    continue
                arguments = [node.value]
            elif type(node) is cst.Call and (_parses(node) or _loads_document(node) or _constructs_checked(node, self.ctx)) and node.args:
                arguments = [a.value for a in node.args]
            else:
                continue
            # A loader opens the file its path names: after a write to that file it reads it back.
            opened = [FILE + r for a in arguments for r in read_names(a)] if type(node) is cst.Call and _loads_document(node) else []
            if opened and self.handed_to_a_change({r[len(FILE):].split(".")[0] for r in opened}):
                continue  # `doc.save(path)`, then `Document(path)`: the file saved, loaded back
            reads = _Reads(arguments, files=True, extra=opened)
            if not reads.get() or any(r.split(".")[0] not in params | parts for r in reads.get() if not r.startswith(FILE)):
                continue  # only a tool's own argument: a text read from elsewhere may be M's effect
            if self.parse_failure_absorbed():
                return
            step.check_reads, step.check_tests = reads, tuple(arguments)
            step.item_check = type(node) is cst.Subscript
            return

    def handed_to_a_change(self, names: set[str]) -> bool:
        """Was one of `names` handed to a mutation or a helper's call of an earlier step (the
        file a save or a helper may have written under that path)?"""
        for step in self.steps:
            calls = [step.mutation_node] if step.mutation_node is not None else []
            calls.extend(call for _, call in step.helper_calls)
            for call in calls:
                if type(call) is cst.Call and any(r.split(".")[0] in names for a in call.args for r in read_names(a.value)):
                    return True
        return False

    def argument_parts(self, params: set[str]) -> frozenset[str]:
        """Locals that hold a part of an argument: an item of it (`ts = outline["title_slide"]`,
        `ts = outline.get("title_slide")`) or what a loop takes from it (`for s in outline["slides"]`)."""
        if self._parts is None:
            parts: set[str] = set()
            holders = params | parts

            def of_argument(expr: cst.BaseExpression) -> bool:
                while True:
                    if type(expr) is cst.Subscript:
                        expr = expr.value
                    elif type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "get":
                        expr = expr.func.value
                    else:
                        break
                return type(expr) is cst.Name and expr.value in holders

            nodes = [n for n in walk(self.fn.node.body) if type(n) in (cst.Assign, cst.For)]
            for _ in range(2):  # a part of a part (`for s in outline["slides"]: rows = s["rows"]`)
                for node in nodes:
                    if type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name:
                        if type(node.value) is not cst.Name and of_argument(node.value):
                            parts.add(node.targets[0].target.value)
                    elif type(node) is cst.For and type(node.target) is cst.Name and of_argument(node.iter):
                        parts.add(node.target.value)
                    holders = params | parts
            self._parts = frozenset(parts - params)
        return self._parts

    def tested_params(self) -> frozenset[str]:
        """Parameters the function tests for a key anywhere (`"k" in data`), or for a length or
        emptiness in a test that ends the call (`if not fields: raise ...`, `if len(items) < 2:
        return ...`): an item of them is read where it is there."""
        if self._tested is None:
            tested: set[str] = set()
            for node in walk(self.fn.node.body):
                if type(node) is cst.Comparison:
                    tested.update(
                        t.comparator.value for t in node.comparisons if type(t.operator) in (cst.In, cst.NotIn) and type(t.comparator) is cst.Name
                    )
                elif type(node) in (cst.If, cst.While, cst.Assert) and (type(node) is cst.Assert or _terminates(node.body)):
                    tested.update(_sized(node.test, self.fn.single_assignments))
            self._tested = frozenset(tested)
        return self._tested

    def guarded_items(self) -> frozenset[tuple[str, int]]:
        """(parameter, id of an item read) where the read sits in the part a length or emptiness
        test of the parameter guards (`fields[1] if len(fields) > 1 else ...`, `if items:
        first = items[0]`, `items and items[0]`): there the item is there; outside it, it may not be."""
        memo: dict[int, frozenset[tuple[str, int]]] = self.ctx.memo.setdefault("guarded_items", {})  # type: ignore[assignment]
        found = memo.get(id(self.fn.node))
        if found is None:
            pairs: set[tuple[str, int]] = set()
            for node in walk(self.fn.node.body):
                guarded: list[tuple[cst.BaseExpression, cst.CSTNode]] = []
                if type(node) in (cst.If, cst.While, cst.IfExp):
                    guarded.append((node.test, node.body))
                elif type(node) is cst.BooleanOperation and type(node.operator) is cst.And:
                    guarded.append((node.left, node.right))
                for test, part in guarded:
                    names = _sized(test, self.fn.single_assignments)
                    if names:
                        pairs.update((name, id(inner)) for inner in walk(part) if type(inner) is cst.Subscript for name in names)
            found = memo[id(self.fn.node)] = frozenset(pairs)
        return found

    def parse_failure_absorbed(self) -> bool:
        """Does a clause around the statement take a parser's failure and go on?"""
        for handlers in reversed(self.trying):
            for handler in handlers:
                caught = _caught_short_names(handler)
                if caught is None or caught & {"Exception", "BaseException"} or any(_VALUE_ERRORS.search(name) for name in caught):
                    return not _ends_call(handler.body, self.ctx)
        return False

    def assignment(self, small: cst.Assign | cst.AnnAssign | cst.AugAssign, step: _Step) -> None:
        targets = [t.target for t in small.targets] if type(small) is cst.Assign else [small.target]
        value = small.value
        names = [n for t in targets for n in _targets(t)]
        extra = names if type(small) is cst.AugAssign else ()
        step.assigns.append(_Assign(names, _Reads([value] if value is not None else [], files=True, extra=extra), value if not extra else None))
        if value is not None and not extra and _joins_paths(value):
            # `target = folder / name`: the file at `target` is under the folder's, so a look at
            # it (`target.exists()`) reads back a change of the folder; the path's text does not.
            step.assigns.append(_Assign([FILE + n for n in names], _Reads([], extra=[FILE + r for r in read_names(value)])))
        if value is not None and _is_container_literal(value):
            # `rows = []` makes a local container; `NOTES[k] = {}` stores one in module state.
            self.local_containers.update(t.value for t in targets if type(t) is cst.Name)
        for target in targets:
            if type(target) is cst.Subscript:
                for name in _targets(target) or _chosen(target):
                    self.state_write(step, small, name, f"{name}[...]")
            elif type(target) is cst.Attribute and (root := chain(target)) and root.split(".")[0] in self.local.state_aliases:
                self.state_write(step, small, root, root)  # `note.title = t` on an item of module state
            elif type(target) is cst.Name and target.value in self.globals and type(small) is cst.AugAssign:
                # `COUNTER += 1` changes shared state; `_client = Client()` is lazy set-up.
                self.state_write(step, small, target.value, target.value)

    def state_write(self, step: _Step, node: cst.CSTNode, name: str, label: str) -> None:
        root = name.split(".")[0]
        if root in self.local.state_aliases:
            self.mutate(step, MutationKind(f"changes module-level state ({label}, an item of it)", (name,), effect=Effect.MODULE_STATE), node)
        elif (
            root in self.module_names
            and root not in self.local_containers
            and root not in self.fn.params
            and not _BOOKKEEPING.search(root)
            and not fx.AUDIT_RECORDS.search(root)
            and not is_memo(self.ctx, self.fn.node, root)  # a reply memoised by its request (D5)
        ):
            self.mutate(step, MutationKind(f"changes module-level state ({label})", (name,), effect=Effect.MODULE_STATE), node)

    def mutate(self, step: _Step, kind: MutationKind, node: cst.CSTNode) -> None:
        if kind.effect is Effect.MODULE_STATE and fx.METERING_WORDS & set(identifier_words(self.fn.name)):
            return  # a rate limiter's own accounting (`_windows[caller] = ...` in `_check_rate`)
        if step.mutation is None:
            step.mutation, step.mutation_node = kind, node
            step.branch = branch_name(self.conditions)
        step.changed.extend(kind.changed)

    def calls(self, statement: cst.CSTNode, step: _Step) -> None:
        """The calls the facts found in `statement` (taken by its first step)."""
        kinds = self.kinds
        for inner in self.by_statement.pop(id(statement), ()):
            kind = kinds.get(id(inner))
            if isinstance(kind, MutationKind):
                self.mutate(step, kind, inner)
            elif isinstance(kind, str):
                step.helper_calls.append((kind, inner))
                # The module state a helper of this module changes (`_purge_expired()`, then
                # `TOKENS.get(t)` reads its effect back).
                step.changed.extend(_module_state_changed(kind, self.ctx, self.module_names))
                if step.branch is None:
                    step.branch = branch_name(self.conditions)
            elif type(inner.func) is cst.Attribute and inner.func.attr.value in _CONTAINER_WRITES:
                base = chain(inner.func.value)
                if base:  # `lines.append(x)` changes `lines`
                    step.assigns.append(_Assign([base], _Reads([inner], extra=(base,))))

    def validator(self, small: cst.BaseSmallStatement, step: _Step) -> None:
        """`validate(x)` / `y = self._resolve(x)` / `return convert(x)` as a statement of its own: a
        check when the linker finds that the helper rejects its arguments."""
        value: cst.BaseExpression | None = None
        if type(small) in (cst.Expr, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Return):
            value = small.value  # `return _extract_text(result)`: the helper may still reject
        while type(value) is cst.Await:
            value = value.expression
        if value is None or step.mutation is not None:
            return
        call = value if type(value) is cst.Call and id(value) in self.validators else _nested_validator(value, self.validators)
        if call is not None and call is not value and self.parse_failure_absorbed():
            return  # `try: out = Path(check(p)) ... except Exception: results.append(...)`: goes on
        if call is not None:
            step.validator = (self.validators[id(call)], _Reads([a.value for a in call.args], files=True))


_BUILTINS = frozenset(dir(builtins))


def _nested_validator(value: cst.BaseExpression, validators: Mapping[int, str]) -> cst.Call | None:
    """A validator's call inside the statement's value that runs whenever the statement does
    (`args += ["-f", str(local_path(file))]`): not under a conditional expression, a short-circuit
    operator, a comprehension or a lambda, which may skip it."""
    stack: list[cst.CSTNode] = [value]
    while stack:
        node = stack.pop()
        if type(node) in (cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp):
            continue
        if type(node) is cst.Call and id(node) in validators:
            return node
        stack.extend(reversed(list(children(node))))
    return None


# Project helpers tried as the mutation: those named for doing something (`save_doc`,
# `_apply_changes`, `switch`), not for reading or computing (`get_client`, `format_row`: a getter
# that fills a cache is no change the user sees). Classes (constructors) are not tried either.
_DOER_VERBS = _WRITE_VERBS | frozenset(
    {
        "apply", "replace", "switch", "store", "persist", "sync", "push", "import", "install", "run", "exec",
        "execute", "deploy", "register", "unregister", "reset", "clear", "restore", "copy", "convert", "export",
        "process", "handle", "do", "perform", "mark", "toggle", "enable", "disable", "start", "restart", "trigger",
        "schedule", "record", "append", "attach", "detach", "link", "unlink", "approve", "reject", "edit", "change",
        "migrate", "ensure", "make", "generate", "insert", "remove", "clean", "cleanup", "reindex", "index",
    }
)


def _is_doer(name: str) -> bool:
    """Named for doing something: `save_doc`, or a read with a change as its fallback
    (`get_or_create_book`, `load_or_init_index`: it creates what it does not find)."""
    parts = identifier_words(name)
    if not parts or name.lstrip("_")[:1].isupper():
        return False
    fallback = _fallback_verb(parts)
    return parts[0] in _DOER_VERBS or (fallback in _DOER_VERBS or fallback in fx.SETUP_VERBS)


def classify_calls(steps: _Steps, fn: FunctionFacts, ctx: FileContext) -> bool:
    """Fill `steps.kinds`/`steps.validators` from the function's calls; False when nothing in
    the function can mutate (then there is nothing to report)."""
    aliases = ctx.model.aliases
    # Local containers matter only where they shadow shared state or look like a store.
    locals_ = frozenset(
        n
        for n, v in fn.single_assignments.items()
        if (n in steps.module_names or store_like(n)) and _is_container_literal(v)
    ) | _fresh_objects(fn)
    known = _known_names(ctx)
    any_mutation = fn.has_item_assignment
    first = ""
    steps.local = local = local_handles(fn, steps.module_names, aliases, _module_handles(ctx))
    preparations: list[tuple[int, MutationKind]] = []
    prepared = False  # a helper of this module whose only change is set-up is called
    maybe: list[tuple[int, str]] = []  # calls of this module's other helpers (they may change something)
    # A project function handed to a thread runner (`run_in_executor(None, self._save, p)`):
    # the runner's call is a call of it.
    runs = {id(cb.call): cb.callee for cb in fn.callbacks if _method_name(cb.call.node) in fx.RUNS_GIVEN_FUNCTION}
    guarded = _guarded_directories(fn) if fn.calls else frozenset()
    drafts = _drafts(fn)
    # Calls whose result a local name holds (`out = resolve_output(path)`): another module's
    # helper called so may be a set-up helper returning the path it prepared (known at link time).
    results = _results_held(fn)
    foreign: dict[str, str] = {}  # local name -> the other module's helper whose result it holds
    for call in fn.calls:
        if call.handler is not None:
            continue  # `except` clauses are not walked
        kind = mutation_of(call.node, aliases, steps.module_names, locals_, local)
        if kind is not None and id(call.node) in drafts:
            continue  # a draft saved later: the save is the change
        if kind is not None and kind.effect is Effect.FILES and id(call.node) in guarded:
            kind = MutationKind(f"prepares a directory ({_method_name(call.node)})", kind.changed, effect=Effect.PREPARATION)
        if kind is not None and kind.effect is Effect.PREPARATION:
            preparations.append((id(call.node), kind))
            continue
        if kind is not None and kind.effect is Effect.WORKER and _joined(fn, kind):
            continue  # `t.start(); t.join()`: the worker ends before the call goes on
        if kind is not None and kind.effect is Effect.SDK and _rebinds_receiver(call.node, call.statement):
            continue  # `frame = frame.drop_duplicates()`: a new value in place of the old one
        if kind is not None and kind.effect is Effect.MODULE_STATE and _audit_record(kind):
            continue  # `AUDIT_LOG.append(entry)`: the record of this call, rejected or not
        if kind is not None:
            steps.kinds[id(call.node)] = kind
            any_mutation = True
            first = first or kind.description
            continue
        callee = _project_callee(call.node, call.callee, aliases, known) or runs.get(id(call))
        if callee is None:
            continue
        handed = _state_handed(steps, call.node, callee, locals_)
        if handed is not None:
            steps.kinds[id(call.node)] = handed  # `_save(NOTES, key, note)` with `store[key] = note` inside
            any_mutation = True
            first = first or handed.description
            continue
        steps.validators[id(call.node)] = callee
        if _sets_up(call.node, last_name(callee)):
            continue
        handed_args = _state_arguments(steps, call.node, locals_) if callee not in ctx.model.functions else ()
        if handed_args:
            steps.handed[id(call.node)] = handed_args  # the linker asks whether it changes what it is handed
        held = results.get(id(call.node)) if _imported_function(call.node, callee, ctx) else None
        if held is not None:
            foreign[held] = callee
        if _is_doer(last_name(callee)) and _may_mutate(callee, ctx, steps.module_names):
            steps.kinds[id(call.node)] = callee
            if _is_doer(last_name(callee)) or callee in ctx.model.functions:
                steps.changes.add(id(call.node))  # surely a change: its result is its outcome
            any_mutation = True
            prepared = prepared or _prepares_only(callee, ctx) or held is not None
        elif _prepares_only(callee, ctx):
            steps.kinds[id(call.node)] = callee  # `_prepare_output(out)`: set-up for a later change
            prepared = True
        elif held is not None:
            # `out = resolve_output(path)` of another module: set-up for a later change where the
            # linker finds that making the path's folder is all it changes; no candidate otherwise.
            steps.kinds[id(call.node)] = callee
            steps.needs_preparer[id(call.node)] = callee
            prepared = True
        elif handed_args:
            steps.kinds[id(call.node)] = callee  # another module's helper handed state (`put(NOTES, k, v)`)
            steps.handed_only.add(id(call.node))
            any_mutation = True
        elif callee in ctx.model.functions:
            maybe.append((id(call.node), callee))
    if prepared:
        any_mutation = _hands_prepared_paths(steps, fn, aliases, foreign) or any_mutation
        # After a helper's set-up, a helper of this module that may change something is the
        # change it was for (`_prepare_output(out)`, a check, `_render(spec, out)`); after another
        # module's helper that may be one, only a helper handed the path it returned.
        handed_foreign = {key for key, _ in maybe if foreign and _hands_names(fn, key, foreign)}
        only_foreign = not any(type(v) is str and _prepares_only(v, ctx) for v in steps.kinds.values())
        for key, callee in maybe:
            if only_foreign and key not in handed_foreign:
                continue
            if _may_mutate(callee, ctx, steps.module_names):
                steps.kinds[key] = callee
                steps.after_only.add(key)
                any_mutation = True
    # Idempotent set-up never counts alone: only as the first step of a tool that goes on to
    # change something itself or through a helper that may (the directory made for the file it
    # then writes, or hands to `_save(doc, out)`).
    if steps.kinds:
        steps.kinds.update(preparations)
    # function_effects reads it back instead of classifying the calls a second time.
    ctx.memo.setdefault("first_mutation", {})[id(fn)] = first  # type: ignore[union-attr]
    return any_mutation


# Receivers whose calls only record what happens (`log.info("saved %s", out)`).
_RECORDERS = lazy_compile(r"log|print|console|span|trace", re.I)


def _results_held(fn: FunctionFacts) -> dict[int, str]:
    """id(call) -> the local name assigned once from it (`out = resolve_output(path)`, awaited
    or not), not a parameter."""
    held: dict[int, str] = {}
    for name, value in fn.single_assignments.items():
        while type(value) is cst.Await:
            value = value.expression
        if type(value) is cst.Call and name not in fn.params:
            held[id(value)] = name
    return held


def _imported_function(call: cst.Call, callee: str, ctx: FileContext) -> bool:
    """Is the call, handed arguments, one of a function imported from another module of the
    project (`resolve_output(path)`, `paths.resolve_output(path)`), not a class's?"""
    if callee in ctx.model.functions or callee in ctx.model.classes or not call.args or last_name(callee).lstrip("_")[:1].isupper():
        return False
    root = call.func
    while type(root) is cst.Attribute:
        root = root.value
    aliases = ctx.model.aliases
    if type(root) is not cst.Name or aliases.resolve(root) is None:
        return False
    # The project's own: imported relatively, or from the package this module is in (a library's
    # function, `reader.load(path)`, is no helper whose summary the linker holds).
    package = aliases.module.split(".")[0] if aliases.module else ""
    return root.value in aliases.relative_names or (bool(package) and callee.split(".")[0] == package and "." in aliases.module)


def _hands_names(fn: FunctionFacts, key: int, names: Mapping[str, str]) -> bool:
    """Is the call `key` of the function handed one of `names` (`_render(spec, out)`)?"""
    call = next((c.node for c in fn.calls if id(c.node) == key), None)
    return call is not None and any(r.split(".")[0] in names for a in call.args for r in read_names(a.value))


def _hands_prepared_paths(steps: _Steps, fn: FunctionFacts, aliases: AliasTable, foreign: Mapping[str, str]) -> bool:
    """The path a set-up helper returns (`out = _resolve_output(path)`, its `mkdir` made the
    folder) handed to a library's method (`image.save(out)`, `client.download(url, out)`) is
    the change the set-up was for: the library writes there. True when one is. Where the helper
    is another module's (`foreign`), the write counts only if the linker finds it one
    (`steps.needs_preparer`)."""
    made = {
        name
        for name, value in fn.single_assignments.items()
        if type(value) is cst.Call and type(callee := steps.kinds.get(id(value))) is str and name not in fn.params and _prepares_only(callee, steps.ctx)
    } | set(foreign)
    found = False
    for call in fn.calls if made else ():
        node = call.node
        if call.handler is not None or id(node) in steps.kinds or steps.validators.get(id(node)) in steps.ctx.model.functions or type(node.func) is not cst.Attribute:
            continue
        receiver = node.func.value
        root = receiver
        while type(root) is cst.Attribute:
            root = root.value
        if type(root) is not cst.Name or root.value in made or aliases.resolve(root) is not None or _RECORDERS.search(chain(receiver) or ""):
            continue
        handed = [a.value for a in node.args if not a.star]
        handed += [a.args[0].value for a in handed if type(a) is cst.Call and type(a.func) is cst.Name and a.func.value == "str" and a.args]
        name = next((v.value for v in handed if type(v) is cst.Name and v.value in made), None)
        if name is not None:
            steps.kinds[id(node)] = MutationKind(f"writes to the prepared path ({name}, {_method_name(node)})", (name,), effect=Effect.FILES)
            if name in foreign:
                steps.needs_preparer[id(node)] = foreign[name]
            found = True
    return found


def _state_handed(steps: _Steps, call: cst.Call, callee: str, locals_: frozenset[str]) -> MutationKind | None:
    """A helper of this module that changes a parameter in place (`store[key] = item`), handed
    module state or an item of it (`_save(NOTES, k, n)`): the call changes that state
    (mcp004_handed_state)."""
    facts = steps.ctx.model.functions.get(callee)
    if facts is None:
        return None
    for param in sorted(params_changed(facts, steps.ctx)):
        argument = argument_for(call, facts, param)
        name = chain(argument) if argument is not None else None
        if not name:
            continue
        if _is_state(steps, name, locals_):
            return MutationKind(f"changes module-level state ({name}, in {last_name(callee)})", (name,), effect=Effect.MODULE_STATE)
    return None


def _is_state(steps: _Steps, name: str, locals_: frozenset[str]) -> bool:
    """Is the chain module state (or an item of it, or a local alias of one)?"""
    root = name.split(".")[0]
    module_state = root in steps.module_names and root not in locals_ and root not in steps.fn.params and not _BOOKKEEPING.search(root)
    return module_state or root in steps.local.state_aliases


def _state_arguments(steps: _Steps, call: cst.Call, locals_: frozenset[str]) -> tuple[tuple[int, str, str], ...]:
    """The arguments of a call that are state (`put(NOTES, k, v)`, `put(store=NOTES)`): (position
    or -1, keyword, name), for the linker to match with the helper's changed parameters."""
    out: list[tuple[int, str, str]] = []
    position = 0
    for arg in call.args:
        if arg.star:
            break
        name = chain(arg.value) if type(arg.value) in (cst.Name, cst.Attribute) else None
        if name and _is_state(steps, name, locals_):
            out.append((-1 if arg.keyword is not None else position, arg.keyword.value if arg.keyword is not None else "", name))
        if arg.keyword is None:
            position += 1
    return tuple(out)


def _guarded_directories(fn: FunctionFacts) -> frozenset[int]:
    """`if not os.path.exists(d): os.makedirs(d)` (also `isdir`, `p.exists()`, `p.is_dir()`): a
    directory made only when missing is as idempotent as `makedirs(d, exist_ok=True)`.
    The ids of those `makedirs`/`mkdir` calls."""
    out: set[int] = set()
    for node in walk(fn.node.body):
        if type(node) is not cst.If or type(node.test) is not cst.UnaryOperation or type(node.test.operator) is not cst.Not:
            continue
        probe = node.test.expression
        if type(probe) is not cst.Call or _method_name(probe) not in _DIRECTORY_PROBES:
            continue
        if type(probe.func) is cst.Attribute and dotted(probe.func.value) not in {"os.path", "path"}:
            looked = dotted(probe.func.value)  # `p.exists()`
        else:
            looked = dotted(probe.args[0].value) if probe.args else None
        if looked is None:
            continue
        for inner in walk(node.body):
            if type(inner) is cst.Call and _method_name(inner) in fx.PREPARATION_CALLS:
                made = dotted(inner.func.value) if type(inner.func) is cst.Attribute and inner.func.attr.value == "mkdir" else None
                if made is None and inner.args:
                    made = dotted(inner.args[0].value)
                if made == looked:
                    out.add(id(inner))
    return frozenset(out)


_DIRECTORY_PROBES = frozenset({"exists", "isdir", "is_dir"})


def _audit_record(kind: MutationKind) -> bool:
    """Does a change of module state only add to a record of the traffic (`AUDIT_LOG.append`,
    `_history.append`)? Removing from one (`clear`, `pop`) is still a change."""
    added = kind.description.rsplit(".", 1)[-1].rstrip(")") in _RECORD_ADDS
    return added and bool(kind.changed) and all(fx.AUDIT_RECORDS.search(c.split(".")[0]) for c in kind.changed)


_RECORD_ADDS = frozenset({"append", "extend", "insert", "add", "appendleft"})


def _joined(fn: FunctionFacts, kind: MutationKind) -> bool:
    """Does the function wait for the worker it starts (`thread.join()`)?"""
    started = set(kind.changed)
    return bool(started) and any(
        type(c.node.func) is cst.Attribute and c.node.func.attr.value == "join" and chain(c.node.func.value) in started for c in fn.calls
    )


def _rebinds_receiver(call: cst.Call, statement: cst.CSTNode | None) -> bool:
    """Is the call's value assigned back to the local it is called on (`df = df.drop(...)`,
    `rows = rows.remove_duplicates().sorted()`): a method that returns a changed copy?"""
    if type(call.func) is not cst.Attribute or type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
        return False
    small = statement.body[0]
    if type(small) is not cst.Assign or len(small.targets) != 1 or type(small.targets[0].target) is not cst.Name:
        return False
    receiver = call.func.value
    return type(receiver) is cst.Name and receiver.value == small.targets[0].target.value


def _method_name(call: cst.Call) -> str:
    """The called function's own name: `run_in_executor` of `loop().run_in_executor(...)`."""
    func = call.func
    return func.attr.value if type(func) is cst.Attribute else func.value if type(func) is cst.Name else ""


def _sets_up(call: cst.Call, name: str) -> bool:
    """A call of a set-up helper with no arguments (`_ensure_db()`, `get_or_create_manager()`):
    lazy initialization of what every call uses, not a change this call asked for."""
    parts = identifier_words(name)
    if call.args or not parts:
        return False
    return parts[0] in fx.SETUP_VERBS or _fallback_verb(parts) is not None


def _fallback_verb(parts: Sequence[str]) -> str | None:
    """The verb after "or" in a read with a change as its fallback (`get_or_create_book`)."""
    return next((parts[i + 1] for i in range(len(parts) - 1) if parts[i] == "or"), None)


def _fresh_objects(fn: FunctionFacts) -> frozenset[str]:
    """Locals this function builds from a class (`result = ValidationResult(...)`) that is no
    store or API handle: `result.add_error(...)` fills in a value nobody else holds yet, while
    `client = TodoClient(); client.add_task(...)` and `api = Github(); ...` stay writes."""
    own = fn.local_names.difference(fn.params)
    return frozenset(
        name
        for name, made_by in fn.local_types.items()
        if name in own and (cls := _class_built(made_by)) and not _handle_like(name) and not _handle_like(cls)
    )


# Methods that persist an object built in memory (`appt.Save()`, `record.save()`).
_SAVES = frozenset({"save", "commit", "persist"})


def _drafts(fn: FunctionFacts) -> frozenset[int]:
    """Calls whose result, bound to a local, the function saves later (`appt =
    app.CreateItem(kind)`, ..., `appt.Save()`): the object is a draft in memory until then, so
    making it changes nothing; the save is the change."""
    if not fn.single_assignments:
        return frozenset()
    saved = {
        chain(call.node.func.value)
        for call in fn.calls
        if type(call.node.func) is cst.Attribute and call.node.func.attr.value.lower() in _SAVES and not call.node.args
    }
    saved.discard(None)
    if not saved:
        return frozenset()
    out: set[int] = set()
    for name in saved:
        value = fn.single_assignments.get(name)  # type: ignore[arg-type]
        while type(value) is cst.Await:
            value = value.expression
        if type(value) is cst.Call:
            out.add(id(value))
    return frozenset(out)


def _class_built(made_by: str) -> str:
    """The class a call builds an instance of: `Canvas()` and `Canvas.from_dict(d)` (an
    alternative constructor from data) build a Canvas; "" for any other call."""
    parts = made_by.split(".")
    if parts[-1][:1].isupper():
        return parts[-1]
    if len(parts) > 1 and parts[-2][:1].isupper() and parts[-1].startswith("from_"):
        return parts[-2]
    return ""


# Words that name a handle on something outside the process (`TaskService`, `db_session`).


def _handle_like(name: str) -> bool:
    parts = identifier_words(name)
    return store_like(name) or bool(_HTTP_RECEIVER.search(name)) or any(word in fx.HANDLE_WORDS for word in parts)


def _may_mutate(callee: str, ctx: FileContext, module_names: set[str]) -> bool:
    """False for a function of this module that neither mutates nor calls anything that could:
    the linker would find nothing, so no finding is prepared for it."""
    facts = ctx.model.functions.get(callee)
    if facts is None:
        return True  # in another module (or a method found through an instance): ask the linker
    memo: dict[str, bool] = ctx.memo.setdefault("may_mutate", {})  # type: ignore[assignment]
    if callee not in memo:
        memo[callee] = True  # recursion: assume it may
        known = _known_names(ctx)
        memo[callee] = bool(facts.has_item_assignment and _state_write_in(facts, module_names)) or any(
            (c.handler is None or _fallback_clause(c.handler.node, ctx))
            and (
                mutation_of(c.node, ctx.model.aliases, module_names) is not None
                or (
                    (inner := _project_callee(c.node, c.callee, ctx.model.aliases, known)) is not None
                    and inner != callee
                    and _may_mutate(inner, ctx, module_names)
                )
            )
            for c in facts.calls
        )
    return memo[callee]


# What a lookup raises when the thing is not there: a clause for one that goes on is the
# function's other normal path (`except FileNotFoundError: return create(path)`).
_NOT_FOUND = lazy_compile(r"NotFound|KeyError|LookupError|DoesNotExist|Missing|NoSuch")


def _fallback_clause(handler: cst.ExceptHandler, ctx: FileContext) -> bool:
    """An `except` clause for a thing not found that neither raises nor returns a failure: what
    it calls runs on a normal path of the function (create what was not found)."""
    caught = _caught_short_names(handler)
    if not caught or not all(_NOT_FOUND.search(name) for name in caught):
        return False
    for node in walk(handler.body):
        if type(node) is cst.Raise or (type(node) is cst.Return and (node.value is None or is_failure_value(node.value, ctx))):
            return False
    return True


def _project_callee(call: cst.Call, callee: str | None, aliases: AliasTable, known: set[str]) -> str | None:
    """The qualified name of a call that may be one of the project's own functions: a plain name
    defined or imported here, or a method of `self`, an import or a module-level instance
    (`known` holds the names defined, imported or assigned at module level)."""
    name = dotted(call.func)
    if name is None or callee is None:
        return None
    root = name.split(".")[0]
    if "." not in name and (root in _BUILTINS or root not in known):
        return None
    if "." in name and root not in {"self", "cls"} and root not in known:
        return None  # a method of a local object
    if callee.split(".")[0] in sys.stdlib_module_names:
        return None
    return callee


def _known_names(ctx: FileContext) -> set[str]:
    names = ctx.memo.get("defined_or_imported")
    if names is None:
        names = ctx.memo["defined_or_imported"] = (
            set(ctx.model.aliases.aliases)
            | {q.rsplit(".", 1)[-1] for q in ctx.model.functions}
            | {q.rsplit(".", 1)[-1] for q in ctx.model.classes}
            | _module_names(ctx)  # module-level instances: `store.apply_changes(...)`
        )
    return names  # type: ignore[return-value]


def _is_container_literal(value: cst.BaseExpression) -> bool:
    if type(value) in (cst.List, cst.Dict, cst.Set, cst.Tuple, cst.ListComp, cst.DictComp, cst.SetComp):
        return True
    return type(value) is cst.Call and dotted(value.func) in {"list", "dict", "set", "defaultdict", "collections.defaultdict", "OrderedDict", "Counter", "deque"}


def _file_says(ctx: FileContext, word: str) -> bool:
    """Does the file's text hold `word` at all (asserts, globals: statements the facts do not
    list)? Once per file."""
    key = f"says {word}"
    found = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = any(word in line for line in ctx.lines)
    return bool(found)


# Keyword arguments that mark what a call builds as a failure.
_FAILURE_KEYWORDS = frozenset(
    {("error", "True"), ("is_error", "True"), ("isError", "True"), ("failed", "True"), ("success", "False"), ("ok", "False")}
)


def _constant(expr: cst.BaseExpression) -> str:
    return expr.value if type(expr) is cst.Name and expr.value in _CONSTANTS else ""


def _text_of(expr: cst.BaseExpression) -> str | None:
    """A literal's text, or an f-string's leading text."""
    text = literal_text(expr)
    if text is None and type(expr) is cst.FormattedString:
        text = "".join(p.value if type(p) is cst.FormattedStringText else "x" for p in expr.parts)
    return text


def _has_loop(body: cst.BaseSuite) -> bool:
    """Does a block hold a `for`/`while` statement, at any depth (statements only)?"""
    return any(type(stmt) in (cst.For, cst.While) for stmt in walk_statements(body))


def _asks_no_data(node: cst.CSTNode, modules: frozenset[str]) -> bool:
    """Does an expression call a module's function with no arguments (`time.monotonic()`,
    `datetime.now()`): a value of the moment, not of the call's arguments?"""
    return any(
        type(n) is cst.Call and not n.args and type(n.func) is cst.Attribute and (dotted(n.func.value) or "").split(".")[0] in modules
        for n in walk(node)
    )


def _only_logs(node: cst.CSTNode) -> bool:
    """A statement whose calls only log or print (`logger.info("%s", list(fields))`: what the
    log line's arguments compute is for the message, not a check)."""
    value = node.value if type(node) is cst.Expr else None
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is cst.Call and _logs(dotted(value.func) or ""):
        return True
    calls = [dotted(n.func) or "" for n in walk(node) if type(n) is cst.Call]
    return bool(calls) and all(_logs(c) for c in calls)


def _logs(name: str) -> bool:
    return name == "print" or name.split(".")[0] in fx.SAFE_ROOTS or name.rsplit(".", 1)[0] in fx.SAFE_RECEIVERS


# Parsers of text that raise on malformed input (an implicit check of the argument they parse):
# by qualified name, by method name, or `Type.from_<format>(text)`.
_PARSER_CALLS = frozenset({"json.loads", "ast.literal_eval", "uuid.UUID", "decimal.Decimal", "Decimal", "UUID", "yaml.safe_load", "tomllib.loads", "ipaddress.ip_address", "ipaddress.ip_network"})
_PARSER_METHODS = frozenset({"fromisoformat", "strptime", "model_validate", "model_validate_json", "parse_obj", "parse_raw", "literal_eval"})
_PARSER_FORMAT = lazy_compile(r"^from_(?:json|yaml|toml|ical|iso\w*|str|string|text|rfc\w*|csv|xml)$")


def _parses(call: cst.Call) -> bool:
    name = dotted(call.func) or ""
    last = last_name(name) if name else ""
    return name in _PARSER_CALLS or last in _PARSER_METHODS or bool(_PARSER_FORMAT.match(last))


def _loads_document(call: cst.Call) -> bool:
    """A document loader handed a path (`openpyxl.load_workbook(path)`, `Presentation(path)`,
    `PdfReader(path)`): a file that is no such document raises, rejecting the argument as a
    parser of its text would (the arguments must be the tool's own: judged by the caller)."""
    last = last_name(dotted(call.func) or "")
    return bool(last) and last not in ("load", "parse", "deepcopy") and bool(fx.DOCUMENT_LOADERS.match(last) or fx.DOCUMENT_NEW.match(last))


def _constructs_checked(call: cst.Call, ctx: FileContext) -> bool:
    """A constructor that checks what it is given: a class handed a mapping's items
    (`Task(**fields)`: a missing or unknown key raises, whatever the class), or a pydantic model
    of this module (`NoteIn(title=t)`: its fields' types and validators raise)."""
    name = dotted(call.func) or ""
    last = last_name(name) if name else ""
    if not last[:1].isupper():
        return False
    if any(a.star == "**" for a in call.args):
        return True
    return last in _validating_models(ctx)


def _validating_models(ctx: FileContext) -> frozenset[str]:
    """Short names of this module's pydantic models (a base chain reaching pydantic's)."""
    found = ctx.memo.get("validating_models")
    if found is None:
        bases = {qualname.split(".")[-1]: tuple(last_name(b) if not b.startswith("pydantic.") else b for b in bs) for qualname, bs in ctx.model.classes.items()}
        models: set[str] = set()
        changed = True
        while changed:
            changed = False
            for cls, parents in bases.items():
                if cls not in models and any(p in _PYDANTIC_BASES or p in models for p in parents):
                    models.add(cls)
                    changed = True
        found = ctx.memo["validating_models"] = frozenset(models)
    return found  # type: ignore[return-value]


_PYDANTIC_BASES = frozenset({"pydantic.BaseModel", "pydantic.RootModel", "pydantic.main.BaseModel"})


def _may_reject_implicitly(fn: FunctionFacts, ctx: FileContext) -> bool:
    """Does the function parse an argument or take a constant item of one (_Steps.implicit_check)?"""
    if any(_parses(call.node) or _constructs_checked(call.node, ctx) for call in fn.calls):
        return True
    params = set(fn.params) - {"self", "cls"}
    return bool(params) and any(type(node) is cst.Subscript and _constant_item_of(node, params) for node in walk(fn.node.body))


def _constant_item_of(node: cst.Subscript, params: set[str]) -> str | None:
    """The parameter `node` takes a constant item of (`data["title"]`, `fields[0]`,
    `outline["slides"][0]`), None for anything else (a slice, a computed key, a local)."""
    if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
        return None
    key = node.slice[0].slice.value
    if type(key) not in (cst.SimpleString, cst.Integer):
        return None
    base = node.value
    while type(base) is cst.Subscript:
        base = base.value
    return base.value if type(base) is cst.Name and base.value in params else None


def _own_method_handed_nothing(node: cst.CSTNode) -> bool:
    """`self._refresh()` as a statement: a method of the object the function belongs to, handed
    no value. What it computes on is that object's own state, so its failure is no verdict on
    the arguments (after a write it reads the world again)."""
    value = node.value if type(node) is cst.Expr else None
    if type(value) is cst.Await:
        value = value.expression
    if type(value) is not cst.Call or value.args or type(value.func) is not cst.Attribute:
        return False
    receiver = value.func.value
    return type(receiver) is cst.Name and receiver.value in ("self", "cls")


def _may_fail_on_values(node: cst.CSTNode) -> bool:
    """Can a statement fail while computing on values: a call, or an item read (`d[k]`)? Storing
    an item (`cache[k] = v`) raises no value error, so an assignment counts by its value only."""
    if type(node) is cst.Raise:
        return False  # it raises what it names; the clause catching that is a check of its own
    if type(node) in (cst.Assign, cst.AnnAssign, cst.AugAssign):
        if node.value is None:
            return False
        node = node.value
    return any(type(n) in (cst.Call, cst.Subscript) for n in walk(node))


def _first_statement(body: cst.BaseSuite) -> cst.CSTNode | None:
    """The syntax of the first graph node of a block (its first small statement or compound)."""
    if type(body) is cst.SimpleStatementSuite:
        return body.body[0] if body.body else None
    first = body.body[0] if body.body else None
    if type(first) is cst.SimpleStatementLine:
        return first.body[0] if first.body else None
    return first


# Exceptions that computing on values raises (parsing, converting, looking up): an `except`
# clause for one of them that rejects the call is a check of the arguments; a clause for
# anything (`Exception`) or for a failure of I/O (`OSError`, an HTTP error) reports a failure.
_VALUE_ERRORS = lazy_compile(r"^(?:Value|Type|Key|Index|Lookup|Attribute|Assertion|UnicodeDecode|UnicodeEncode|JSONDecode|Decode|Parse|Parser|Validation|Invalid|Format|Schema|Syntax|Conversion)\w*(?:Error|Exception)?$|Invalid|Validation|ParseError|DecodeError")


# Failures of decoding bytes or parsing text: only a call that reads, decodes or parses raises
# them, so a clause catching only these reports no other statement of its `try` body.
_DECODING_ERRORS = lazy_compile(r"^(?:UnicodeDecode|JSONDecode|\w*Decode|\w*Parse|Parser|Syntax|Scanner|Yaml|YAML|Toml|TOML)\w*(?:Error|Exception)$")
_DECODING_CALLS = lazy_compile(r"^(?:read\w*|decode\w*|loads?|safe_load\w*|parse\w*|json|literal_eval|fromstring|from_\w+|readlines?|next)$")


def _decodes(node: cst.CSTNode) -> bool:
    """Does the statement call anything that reads, decodes or parses (`json.load(f)`,
    `path.read_text()`, `data.decode()`, a project or library parser, `for line in handle`)?"""
    if type(node) in (cst.For, cst.Name, cst.Attribute):
        return True  # iterating a handle decodes as it reads
    for call in (n for n in walk(node) if type(n) is cst.Call):
        name = dotted(call.func) or ""
        if not name or _parses(call) or _DECODING_CALLS.match(last_name(name)):
            return True
    return False


def _caught_short_names(handler: cst.ExceptHandler) -> frozenset[str] | None:
    """Short names of the classes a clause catches; None for a bare `except`."""
    if handler.type is None:
        return None
    types = [el.value for el in handler.type.elements] if type(handler.type) is cst.Tuple else [handler.type]
    return frozenset(last_name(dotted(t) or "") for t in types)


def _ends_call(body: cst.BaseSuite, ctx: FileContext) -> bool:
    """Does a clause raise, or return (anything: the call ends there), anywhere in its body?"""
    return any(type(node) in (cst.Raise, cst.Return) for node in walk(body))


def _rejecting(small: cst.BaseSmallStatement, ctx: FileContext) -> bool:
    if type(small) is cst.Raise:
        return small.exc is not None
    if type(small) is cst.Return and small.value is not None:
        return is_failure_value(small.value, ctx)
    return False


def is_failure_value(value: cst.BaseExpression, ctx: FileContext) -> bool:
    """A returned failure: an error string/dict/result, or a `(False, "message", ...)` tuple."""
    if classify_return(value, ctx, conditional=True) is not None or is_error_result(value, ctx):
        return True
    while type(value) is cst.Await:
        value = value.expression
    if type(value) is cst.Call:
        # `_result(msg, error=True)`, `respond(text, success=False)`, `return _fail(msg)`.
        if any(a.keyword is not None and (a.keyword.value, _constant(a.value)) in _FAILURE_KEYWORDS for a in value.args):
            return True
        name = last_name(dotted(value.func) or "")
        if name[:1] != name[:1].upper() or name.startswith("_"):
            if is_error_builder_name(name):
                return True
        text = next((t for a in value.args[:1] if (t := _text_of(a.value)) is not None), None)
        return text is not None and bool(REJECTION_WORDING.match(text))
    text = _text_of(value)
    if text is not None and REJECTION_WORDING.match(text):
        return True  # "No fields to update", "No data provided"
    if type(value) is cst.Tuple and len(value.elements) >= 2:
        first = value.elements[0].value
        if type(first) is cst.Name and first.value == "False":
            return True
        return any((text := literal_text(el.value)) is not None and is_failure_text(text) for el in value.elements)
    return False


# -- summary effects (read by the linker for helpers) ----------------------------------------


MutationSite = tuple[int, int, int, int, str, int, int]


def function_effects(fn: FunctionFacts, ctx: FileContext) -> tuple[str, ParamGuard | None, MutationSite | None, str, str]:
    """(what the function mutates first, "" if nothing it does itself; the parameter its
    mutations depend on (FunctionSummary.mutates_when); where the first is; what it prepares
    when idempotent set-up is all it changes, FunctionSummary.prepares, whose site is then the
    third; the kind of the first mutation, FunctionSummary.mutation_effect, "" if none). Cheap:
    reads the facts' calls, raises and returns. Whether it rejects its own
    arguments is the engine's (model/argument_checks.py, FunctionSummary.validates): other
    rules ask it too."""
    known: dict[int, str] = ctx.memo.get("first_mutation", {})  # type: ignore[assignment]
    mutates = known.get(id(fn))
    site: MutationSite | None = None
    guard: ParamGuard | None = None
    effect = ""
    if mutates is None or mutates:
        module_names = _module_names(ctx)
        handles = _module_handles(ctx)
        local = local_handles(fn, module_names, ctx.model.aliases, handles) if fn.single_assignments or fn.stores or handles or fn.local_types else NO_LOCALS
        mutations = []
        drafts = _drafts(fn)
        for call in fn.calls:
            if call.handler is not None or id(call.node) in drafts:
                continue
            kind = mutation_of(call.node, ctx.model.aliases, module_names, local=local)
            if kind is not None and kind.effect is not Effect.PREPARATION:
                mutations.append((call, kind))
        mutates = mutations[0][1].description if mutations else ""
        effect = mutations[0][1].effect.value if mutations else ""
        if mutations and not _forwards_caller_choice(fn, mutations[0][0].node, mutations[0][1]):
            site = _site(ctx, mutations[0][0].node, mutations[0][0].statement)
            if not (fn.has_item_assignment and _state_write_in(fn, module_names)):
                guard = mutation_guard(fn, [c.statement for c, _ in mutations])
    if not mutates and fn.has_item_assignment:
        write = _first_state_write(fn, _module_names(ctx))
        if write is not None:
            mutates, site, effect = write[0], _site(ctx, write[2], write[1]), Effect.MODULE_STATE.value
            guard = mutation_guard(fn, [write[1]])
    prepares = ""
    if not mutates:
        preparation = _first_preparation(fn, ctx)
        if preparation is not None and not _yields(fn.node):  # a context manager's set-up is its caller's block's scope
            prepares, site = preparation[1].description, _site(ctx, preparation[0].node, preparation[0].statement)
    return mutates, guard, site, prepares, effect


# Removing a file or a directory again.
_REMOVALS = frozenset({"unlink", "remove", "rmdir", "rmtree"})


def _drop_probes(steps: _Steps) -> None:
    """A file made and removed again by the next statement (`probe.touch(); probe.unlink()`,
    a test that the directory is writable) leaves nothing: neither is a change of the world."""
    for made, gone in zip(steps.steps, steps.steps[1:]):
        if made.mutation is None or gone.mutation is None or made.mutation.effect is not Effect.FILES or gone.mutation.effect is not Effect.FILES:
            continue
        node = gone.mutation_node
        if type(node) is not cst.Call or _method_name(node) not in _REMOVALS or made.path != gone.path:
            continue
        if not made.changed or set(made.changed) != set(gone.changed) or FILE_ANY in made.changed:
            continue
        for step in (made, gone):
            step.mutation, step.mutation_node, step.changed = None, None, []


def _prepares_only(callee: str, ctx: FileContext) -> bool:
    """Is the callee a function of this module whose only change of its own is idempotent set-up
    (`os.makedirs(os.path.dirname(out), exist_ok=True)` for the path its caller passes)?"""
    facts = ctx.model.functions.get(callee)
    if facts is None or not facts.params:
        return False
    memo: dict[str, bool] = ctx.memo.setdefault("prepares_only", {})  # type: ignore[assignment]
    if callee not in memo:
        # A context manager's set-up is the scope of its caller's block (a lock, a temp dir).
        memo[callee] = _first_preparation(facts, ctx) is not None and not _yields(facts.node) and not _may_mutate_itself(facts, ctx)
    return memo[callee]


def _only_sets_up(callee: str, ctx: FileContext) -> bool:
    """Is the function of this module one whose only change of its own is idempotent set-up,
    whatever its parameters (`_prepares_only` asks it of a helper handed its caller's path)?"""
    facts = ctx.model.functions[callee]
    memo: dict[str, bool] = ctx.memo.setdefault("only_sets_up", {})  # type: ignore[assignment]
    if callee not in memo:
        memo[callee] = False  # recursion: assume it changes something
        memo[callee] = _first_preparation(facts, ctx) is not None and not _yields(facts.node) and not _may_mutate_itself(facts, ctx)
    return memo[callee]


def _may_mutate_itself(fn: FunctionFacts, ctx: FileContext) -> bool:
    """Does the function change something other than by set-up, itself or through a project
    helper that may (`_run(["sync", target])`)?"""
    module_names = _module_names(ctx)
    if fn.has_item_assignment and _state_write_in(fn, module_names):
        return True
    known = _known_names(ctx)
    for call in fn.calls:
        if call.handler is not None:
            continue
        kind = mutation_of(call.node, ctx.model.aliases, module_names)
        if kind is not None and kind.effect is not Effect.PREPARATION:
            return True
        inner = _project_callee(call.node, call.callee, ctx.model.aliases, known) if kind is None else None
        if inner is None or inner == fn.qualname:
            continue
        # Another module's function is judged by its name (`sync_tree(p)`), as candidates are.
        # A helper of this module whose own only change is set-up (a lazy accessor of the default
        # output folder, `_default_dir()` with its `mkdir(exist_ok=True)`) adds no change.
        if inner in ctx.model.functions and _only_sets_up(inner, ctx):
            continue
        if _may_mutate(inner, ctx, module_names) if inner in ctx.model.functions else _is_doer(last_name(inner)):
            return True
    return False


def _first_preparation(fn: FunctionFacts, ctx: FileContext) -> tuple[CallFact, MutationKind] | None:
    """The function's first idempotent set-up of a path (`os.makedirs(parent, exist_ok=True)`),
    outside `except` clauses: a helper that makes the directory of the path its caller passes."""
    for call in fn.calls:
        if call.handler is not None or _method_name(call.node) not in fx.PREPARATION_CALLS:
            continue
        kind = mutation_of(call.node, ctx.model.aliases, _module_names(ctx))
        if kind is not None and kind.effect is Effect.PREPARATION:
            return call, kind
    return None


# Effects whose first argument says what is done: the request's location, the command line,
# the statement.
_CALLER_DECIDES = frozenset({Effect.HTTP, Effect.SUBPROCESS, Effect.DATABASE})


def _forwards_caller_choice(fn: FunctionFacts, call: cst.Call, kind: MutationKind) -> bool:
    """Is the helper a pass-through whose caller names what is done (`def _post(path, body):
    client.post(path, json=body)`, `subprocess.run(["git"] + args)`)? Then the write is the
    caller's: it is reported at the caller's call, not inside the wrapper every tool shares."""
    if kind.effect is Effect.DATABASE and last_name(dotted(call.func) or "") == "commit" and _yields(fn.node):
        return True  # a transaction scope (`yield session; session.commit()`) commits what its caller's block did
    if kind.effect not in _CALLER_DECIDES or not call.args or call.args[0].keyword is not None:
        return False
    params = set(fn.params) - {"self", "cls"}
    value = call.args[0].value
    if type(value) is cst.Name and value.value not in params:
        value = fn.single_assignments.get(value.value, value)  # `full = ["git"] + args; run(full)`
    if type(value) is cst.Name:
        return value.value in params
    if type(value) is cst.BinaryOperation and type(value.operator) is cst.Add:
        return any(type(side) is cst.Name and side.value in params for side in (value.left, value.right))
    return False


def _yields(function: cst.FunctionDef) -> bool:
    """Is the function a generator (a context manager's body: `yield session`), not counting
    nested functions?"""
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        if type(node) is cst.Yield:
            return True
        if type(node) in (cst.FunctionDef, cst.Lambda, cst.ClassDef):
            continue
        stack.extend(children(node))
    return False


def _site(ctx: FileContext, node: cst.CSTNode, statement: cst.CSTNode | None) -> MutationSite:
    where = ctx.range(node)
    stmt = statement if statement is not None else node
    srange = ctx.range(stmt)
    return (where.start.line, where.start.column + 1, where.end.line, where.end.column + 1, ctx.statement_text(stmt, srange), srange.start.line, srange.end.line)


def mutation_guard(fn: FunctionFacts, statements: Sequence[cst.CSTNode | None]) -> ParamGuard | None:
    """The parameter test every given statement runs under (`if commit:`, `if not dry_run:`, or
    after `if dry_run: return ...`), as FunctionSummary.mutates_when; None when there is none."""
    if any(s is None for s in statements) or type(fn.node.body) is not cst.IndentedBlock:
        return None
    targets = {id(s) for s in statements}
    params = {name: i for i, name in enumerate(fn.params)}
    found: list[frozenset[tuple[str, bool]]] = []

    def test_of(test: cst.BaseExpression) -> tuple[str, bool] | None:
        if type(test) is cst.Name and test.value in params:
            return test.value, True
        if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not and type(test.expression) is cst.Name and test.expression.value in params:
            return test.expression.value, False
        if type(test) is cst.Comparison and len(test.comparisons) == 1 and type(test.left) is cst.Name and test.left.value in params:
            target = test.comparisons[0]
            value = target.comparator.value if type(target.comparator) is cst.Name else None
            if value in {"True", "False"} and type(target.operator) in (cst.Is, cst.Equal, cst.IsNot, cst.NotEqual):
                positive = type(target.operator) in (cst.Is, cst.Equal)
                return test.left.value, (value == "True") == positive
        return None

    def block(statements_: Sequence[cst.CSTNode], conditions: frozenset[tuple[str, bool]]) -> None:
        for stmt in statements_:
            if id(stmt) in targets:
                found.append(conditions)
            if type(stmt) is cst.If:
                branch(stmt, conditions)
                test = test_of(stmt.test)
                if test is not None and stmt.orelse is None and _terminates(stmt.body):
                    conditions = conditions | {(test[0], not test[1])}  # `if dry_run: return`
            elif type(stmt) in (cst.FunctionDef, cst.ClassDef, cst.SimpleStatementLine):
                continue
            else:
                for attribute in ("body", "orelse", "finalbody"):
                    inner = getattr(stmt, attribute, None)
                    inner = getattr(inner, "body", inner)
                    if inner is not None and hasattr(inner, "body"):
                        block(list(inner.body), conditions)
                for part in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
                    block(list(part.body.body) if hasattr(part.body, "body") else [], conditions)

    def branch(stmt: cst.If, conditions: frozenset[tuple[str, bool]]) -> None:
        test = test_of(stmt.test)
        block(list(stmt.body.body) if type(stmt.body) is cst.IndentedBlock else [], conditions | ({test} if test else frozenset()))
        negated = conditions | ({(test[0], not test[1])} if test else frozenset())
        if type(stmt.orelse) is cst.If:
            if id(stmt.orelse) in targets:
                found.append(negated)
            branch(stmt.orelse, negated)
        elif type(stmt.orelse) is cst.Else and type(stmt.orelse.body) is cst.IndentedBlock:
            block(list(stmt.orelse.body.body), negated)

    block(list(fn.node.body.body), frozenset())
    if len(found) < len(targets) or not found:
        return None
    common = frozenset.intersection(*found)
    if not common:
        return None
    name, truthy = sorted(common)[0]
    default = ""
    for param in (*fn.node.params.posonly_params, *fn.node.params.params, *fn.node.params.kwonly_params):
        if param.name.value == name and param.default is not None:
            value = param.default
            default = value.value if type(value) in (cst.Name, cst.Integer, cst.SimpleString) else "*"
    if default == "*":
        return None
    return ParamGuard(name, params[name], truthy, default)


def _module_state_changed(callee: str, ctx: FileContext, module_names: set[str]) -> tuple[str, ...]:
    """The module-level names a function of this module changes itself (`TOKENS.pop(t)`,
    `TOKENS[t] = v`, `del TOKENS[t]`); () for a function elsewhere."""
    facts = ctx.model.functions.get(callee)
    if facts is None:
        return ()
    memo: dict[str, tuple[str, ...]] = ctx.memo.setdefault("module_state_changed", {})  # type: ignore[assignment]
    found = memo.get(callee)
    if found is None:
        names: set[str] = set()
        for call in facts.calls:
            kind = mutation_of(call.node, ctx.model.aliases, module_names)
            if kind is not None and kind.effect is Effect.MODULE_STATE:
                names.update(c.split(".")[0] for c in kind.changed)
        if facts.has_item_assignment:
            for stmt in walk_statements(facts.node.body, handlers=False):
                for small in stmt.body if type(stmt) is cst.SimpleStatementLine else ():
                    targets = [t.target for t in small.targets] if type(small) is cst.Assign else [small.target] if type(small) in (cst.AugAssign, cst.Del) else []
                    names.update(root for t in targets if type(t) is cst.Subscript and (root := chain(t)) in module_names)
        found = memo[callee] = tuple(sorted(names))
    return found





def _state_write_in(fn: FunctionFacts, module_names: set[str]) -> str:
    """`NOTES[k] = v` / `del NOTES[k]` anywhere in the body (not in `except` clauses): a scan of
    the statements only, no expressions."""
    found = _first_state_write(fn, module_names)
    return found[0] if found is not None else ""


def _first_state_write(fn: FunctionFacts, module_names: set[str]) -> tuple[str, cst.SimpleStatementLine, cst.BaseSmallStatement] | None:
    """(description, statement, small statement) of a write of module state, as _state_write_in."""
    for stmt in walk_statements(fn.node.body, handlers=False):
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                targets: list[cst.BaseExpression] = []
                if type(small) is cst.Assign:
                    targets = [t.target for t in small.targets]
                elif type(small) in (cst.AugAssign, cst.Del):
                    targets = [small.target]
                for target in targets:
                    root = chain(target) if type(target) is cst.Subscript else None
                    if root and root in module_names and root not in fn.params and not _BOOKKEEPING.search(root):
                        return f"changes module-level state ({root}[...])", stmt, small
    return None


# -- the rule ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """A check after the mutation that may reject the call: a direct one (`callee` "") or a call
    of a project helper that may validate (its qualified name), and where its statement is."""

    row: int
    callee: str
    span: Span
    # A direct check that takes a constant item of a parameter: only a tool's own argument comes
    # from the model malformed (a helper's parameter is what its callers built).
    item: bool = False
    # A direct check after a helper's call that reads the file system the helper may have
    # written: a post-check where the helper's change is one of files.
    read_back: bool = False
    # A look at any path after the helper's call: a read-back where the helper runs a command
    # it was handed (`_run(cmd)`, then `Path(out).exists()`), whose output files are not named here.
    read_back_any: bool = False


@dataclass(frozen=True)
class MutationFirst(Payload):
    """What MCP004 records of a mutation (or a call of a helper that may mutate) followed by
    checks that may reject the call. `checks` run up to the first direct check; a helper's
    validator counts only if the linker finds that it validates."""

    mutation: str  # "writes the file", "" for a helper's call
    checks: tuple[Check, ...]
    # Helper calls tried as the first mutation before this one: where one mutates, it is the finding.
    earlier: tuple[str, ...] = ()
    # The helper called (its qualified name as the call edge has it) and the call's own text.
    helper: str = ""
    helper_name: str = ""
    # What the call passes, (position, keyword, constant text), for the linker to tell whether the
    # helper's mutation runs, and whether it is a method call (`self.f(...)`).
    passes: tuple[tuple[int, str, str], ...] = ()
    via_attribute: bool = False
    # Only an idempotent preparation (`mkdir(exist_ok=True)`) comes before the check.
    preparation: bool = False
    # The helpers called after the check, when the function changes nothing itself there: the
    # preparation is for their change, a finding only where one of them mutates.
    prepared_for: tuple[str, ...] = ()
    # Helpers called between the preparation and the check: where one mutates, its finding is
    # the change the preparation was for, and this one is left out.
    outranked_by: tuple[str, ...] = ()
    # For a helper's call: what can run after the check that changes something (a change of
    # the function's own; the helpers called that may). A helper whose only change is set-up
    # (`makedirs(parent, exist_ok=True)`) is a finding only where the call goes on to change.
    changes_after: bool = True
    helpers_after: tuple[str, ...] = ()
    # The class the check raises: a caller that catches it per item and goes on is no rejection.
    absorbable: str = ""
    # The parameter the mutation's branch depends on (mutation_guard): reported only where some
    # caller passes what runs it.
    when: ParamGuard | None = None
    # For a call of another module's helper: the arguments that are module state, (position or
    # -1, keyword, name); a change there if the helper changes that parameter in place.
    handed: tuple[tuple[int, str, str], ...] = ()
    # The call is a candidate only because of what it is handed: judged by that alone.
    handed_only: bool = False
    # Another module's helper that must be a set-up helper for this to be a finding (its call,
    # `out = resolve_output(path)`, or a library's write to what it returned, `image.save(out)`).
    needs_preparer: str = ""
    # A helper's call followed by validator helpers only (no direct check): a finding only where
    # the helper's one change is set-up (reported at it), never for a helper that mutates.
    preparer_only: bool = False


class MutationBeforeValidation(Rule):
    code = "MCP004"
    name = "mutation-before-validation"

    INVALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    db.commit()
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    return "updated"
""",
            flagged=(8,),
            fixed="""\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    db.commit()
    return "updated"
""",
        ),
    )
    VALID = (
        Example(
            """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("inventory")

@mcp.tool()
def set_stock(sku: str, quantity: int) -> str:
    if quantity < 0:
        raise ToolError(f"quantity must be >= 0, got {quantity}")
    cur = db.execute("UPDATE stock SET quantity = ? WHERE sku = ?", (quantity, sku))
    if cur.rowcount == 0:
        raise ToolError(f"No stock row for sku {sku!r}; call list_skus")
    db.commit()
    return "updated"
"""
        ),
    )

    def summarize(self, fn: FunctionFacts, ctx: FileContext, summary: FunctionSummary) -> None:
        """What a helper mutates, for its callers (a tool that calls it before its own check:
        mcp004_helper_effects)."""
        summary.mutates, summary.mutates_when, summary.mutation_site, summary.prepares, summary.mutation_effect = function_effects(fn, ctx)
        changed = params_changed(fn, ctx)
        summary.changes_params = tuple(i for i, p in enumerate(fn.params) if p in changed)

    def check(self, fn: FunctionFacts, ctx: FileContext) -> Iterable[Latent]:
        body = fn.node.body
        if type(body) is not cst.IndentedBlock:
            return
        # Cheap exit: something must reject the call later (a conditional raise/return, an
        # assert, or a helper that may validate), and something must come first that may mutate.
        globals_ = _file_says(ctx, "global ")  # `global COUNTER; COUNTER += 1` writes module state
        if not fn.calls and not fn.has_item_assignment and not globals_:
            return
        module_names = _module_names(ctx)
        steps = _Steps(fn, ctx, module_names)
        if not classify_calls(steps, fn, ctx) and not globals_ and not fn.has_item_assignment:
            return
        direct_checks = (
            _file_says(ctx, "assert ")
            or any(r.conditions and r.handler is None for r in (*fn.raises, *fn.returns))
            or _may_reject_implicitly(fn, ctx)
        )
        direct_mutation = fn.has_item_assignment or globals_ or any(isinstance(k, MutationKind) for k in steps.kinds.values())
        if not direct_checks and not (direct_mutation and steps.validators):
            return  # nothing can reject the call after a mutation (helpers need a direct check)
        if not (fn.has_item_assignment or globals_):
            steps.start_at_first_candidate()
        steps.block(body, (), fn.node, False)
        _drop_probes(steps)
        for latent in self._findings(steps, ctx):
            yield latent

    def _findings(self, steps: _Steps, ctx: FileContext) -> Iterator[Latent]:
        """One latent per candidate first mutation: a direct one ends the search up to its check,
        a helper call counts only if the linker finds that it mutates (and no earlier candidate
        does). After a direct finding's check the search starts again: a mutation after that
        check, rejected by a later one, is a defect of its own (moving the first check up does
        not mend it)."""
        # Helper calls tried before, with the check their finding names (a later mutation past
        # that check is not theirs to cover); sys.maxsize when they have none.
        candidates: list[tuple[str, int]] = []

        def earlier(index: int) -> list[str]:
            return [callee for callee, check in candidates if check >= index]

        # The last step that is a direct check: a helper candidate after it has nothing to find.
        last_check = max((i for i, s in enumerate(steps.steps) if s.check_reads is not None), default=-1)
        # The last validator call: a set-up helper's call before it may be rejected by it alone.
        last_validator = max((i for i, s in enumerate(steps.steps) if s.validator is not None), default=-1)
        resume = -1
        # The checks already named by a finding, and whether that finding was a preparation's: a
        # write the same check rejects later (on the next turn of a loop) is a finding of its own.
        reported: dict[int, bool] = {}
        # What can change after each check, asked for a helper's set-up (by check index).
        changes_after: dict[tuple[int, str], tuple[bool, tuple[str, ...]]] = {}
        for index, step in enumerate(steps.steps):
            if index <= resume:
                continue
            if step.mutation is not None and id(step.mutation_node) in steps.needs_preparer:
                # A write that is one only if another module's helper is a set-up helper (known at
                # link time): a finding of its own, which hides, outranks or ends no other.
                found = self._first_check(steps, index, None)
                if found is not None:
                    yield self._latent(ctx, steps, index, None, earlier(index), found)
                continue
            if step.mutation is not None:
                found = self._first_check(steps, index, None)
                if found is not None:
                    at, found = self._harm(steps, index, found)
                    prepares = steps.steps[at].mutation is not None and steps.steps[at].mutation.effect is Effect.PREPARATION
                    first_for_check = found[-1][0] not in reported
                    if first_for_check or (reported[found[-1][0]] and not prepares):  # one finding per check, but a preparation's
                        # The change a preparation is for may be a helper's, between it and the
                        # check: where that helper mutates, its write is the finding.
                        helpers = list(self._prepared_by_helpers(steps, at, found)) if at == index else []
                        for at_helper, (later, callee, call, again) in enumerate(helpers):
                            before = earlier(index) + [c for _, c, _, _ in helpers[:at_helper]]
                            yield self._latent(ctx, steps, later, (callee, call), before, again)
                        own, after = self._changes_after(steps, found[-1][0]) if at == index and step.mutation.effect is Effect.PREPARATION else (True, ())
                        if not own and not after:
                            own, after = _changes_none_succeeded(steps, index, found[-1][0])
                        if own or after:
                            yield self._latent(ctx, steps, at, None, earlier(index), found, tuple(c for _, c, _, _ in helpers), () if own else after)
                        reported[found[-1][0]] = prepares and first_for_check
                    # Past the check, unless it is a helper's (`_notify(job)` taken as a validator):
                    # whether that one rejects anything is known only at link time, so a mutation
                    # before it (the folder made for the download, then its own direct check) is
                    # still a candidate of its own.
                    resume = max(index, found[-1][0]) if not found[-1][1] else index
                    candidates = []
                    continue
                if not any(steps.blocks[b].terminates or steps.blocks[b].exclusive for b in step.path if b in steps.blocks):
                    return  # every later step runs after this one: it stays the first mutation
                # A branch that returns, or one of an `if`/`elif` chain: the next mutation may be
                # first on another path (the `elif` branch's own write before its own check).
                continue
            for callee, call in step.helper_calls:
                if id(call) in steps.after_only:
                    continue
                if len(candidates) >= _MAX_CANDIDATES:
                    return
                # After the last check nothing can reject the call, unless a loop around both
                # runs that check again for the next item (`for item in items: check; save(item)`).
                if index >= max(last_check, last_validator) and (last_check < 0 or not steps.order().loops_back(step, steps.steps[last_check])):
                    if id(call) not in steps.handed_only and id(call) not in steps.needs_preparer:
                        candidates.append((callee, sys.maxsize))
                    continue
                found = self._first_check(steps, index, callee)
                # A helper that may mutate, then a helper that may validate: too much guessing
                # for one finding; a direct check must follow. Not for a helper that may only set
                # up (`out = resolve_output(path)`, then `check_options(opts)`, then the write):
                # the linker keeps it only where the helper's one change is that set-up.
                validators_only = found is not None and bool(found[-1][1]) and (callee not in ctx.model.functions or _prepares_only(callee, ctx))
                if found is not None and (not found[-1][1] or validators_only):
                    # Whether the call goes on past the check to change something: the helper's
                    # set-up (`makedirs(parent, exist_ok=True)`) is a finding only then.
                    then: tuple[bool, tuple[str, ...]] = (False, ())  # a helper of this module that is no set-up helper
                    if callee not in ctx.model.functions or _prepares_only(callee, ctx):
                        key = (found[-1][0], callee)
                        if key not in changes_after:
                            changes_after[key] = self._changes_after(steps, found[-1][0], callee)
                        then = changes_after[key]
                        if not then[0] and not then[1]:
                            then = _changes_none_succeeded(steps, index, found[-1][0])
                    yield self._latent(ctx, steps, index, (callee, call), earlier(index), found, then=then, validators_only=validators_only)
                    if id(call) not in steps.handed_only and id(call) not in steps.needs_preparer:
                        candidates.append((callee, sys.maxsize if validators_only else found[-1][0]))
                elif id(call) not in steps.handed_only and id(call) not in steps.needs_preparer:
                    candidates.append((callee, sys.maxsize))

    @staticmethod
    def _changes_after(steps: _Steps, check_index: int, preparer: str = "") -> tuple[bool, tuple[str, ...]]:
        """What can run after the check that changes something: (a change of the function's
        own, the helpers called that may). A preparation (`mkdir(exist_ok=True)`) counts only
        where the call goes on, past the check, to change something (the file it then writes):
        not where the rejection is the last branch of the chain that writes."""
        order = steps.order()
        after = order.after(steps.steps[check_index])
        if after is None:
            return True, ()
        own = False
        helpers: set[str] = set()
        for other in steps.steps:
            if order.node(other) not in after:
                continue
            # A write to what another module's helper returned counts only for that helper's own
            # set-up (`preparer`): whether it is one is known at link time.
            conditional = other.mutation is not None and steps.needs_preparer.get(id(other.mutation_node))
            own = own or (other.mutation is not None and other.mutation.effect is not Effect.PREPARATION and (not conditional or conditional == preparer))
            helpers.update(callee for callee, call in other.helper_calls if id(call) not in steps.handed_only and id(call) not in steps.needs_preparer)
        return own, tuple(sorted(helpers))

    def _prepared_by_helpers(self, steps: _Steps, index: int, found: list[tuple[int, str]]) -> Iterator[tuple[int, str, cst.Call, list[tuple[int, str]]]]:
        """The helper calls after a preparation that the same direct check rejects the call after
        (`makedirs(out, exist_ok=True)`, `create_book(out)`, then the check): (step, callee, call,
        its checks)."""
        step = steps.steps[index]
        if step.mutation is None or step.mutation.effect is not Effect.PREPARATION:
            return
        order = steps.order()
        for later in range(index + 1, found[-1][0]):
            other = steps.steps[later]
            if not other.helper_calls or not order.reaches(step, other, steps):
                continue
            for callee, call in [c for c in other.helper_calls if id(c[1]) not in steps.after_only and id(c[1]) not in steps.handed_only and id(c[1]) not in steps.needs_preparer][:1]:
                again = self._first_check(steps, later, callee)
                if again is not None and again[-1][0] == found[-1][0] and not again[-1][1]:
                    yield later, callee, call, again

    def _harm(self, steps: _Steps, index: int, found: list[tuple[int, str]]) -> tuple[int, list[tuple[int, str]]]:
        """Where to report: a preparation (`mkdir(exist_ok=True)`) followed, before the same
        check, by the change it prepared (`path.write_text(...)`) is reported at that change,
        where the harm is."""
        step = steps.steps[index]
        if step.mutation is None or step.mutation.effect is not Effect.PREPARATION:
            return index, found
        order = steps.order()
        # A check the next turn of a loop makes (before the preparation in the source): the
        # change is a later step of the same loop body.
        carried = found[-1][0] < index
        for later in range(index + 1, len(steps.steps) if carried else found[-1][0]):
            other = steps.steps[later]
            if other.mutation is None or other.mutation.effect is Effect.PREPARATION or not order.reaches(step, other, steps):
                continue
            if carried and not order.loops_back(other, step):
                continue
            if id(other.mutation_node) in steps.needs_preparer:
                continue  # a write only if another module's helper is set-up: not known here
            again = self._first_check(steps, later, None)
            # The same check, also where the change meets an earlier one first (the next turn's
            # check of a loop around both).
            if again is not None and found[-1][0] in {i for i, _ in again}:
                return later, again
        return index, found

    def _first_check(self, steps: _Steps, index: int, helper: str | None) -> list[tuple[int, str]] | None:
        """The checks after step `index` that can reject a call it mutated in: helper validators
        (callee) up to the first direct check (""), as (step index, callee)."""
        first = steps.steps[index]
        tainted: set[str] = set()
        if first.mutation is not None and helper is None:
            tainted.update(first.changed)
            if first.mutation.result_is_outcome:
                tainted.update(n for a in first.assigns for n in a.targets)
        else:
            tainted.update(n for a in first.assigns for n in a.targets)  # the helper's result
        fresh: set[str] = set()
        found: list[tuple[int, str]] = []
        initial = frozenset(tainted)
        mutation_calls: list[cst.CSTNode] = [n for n in (first.mutation_node, *(c for _, c in first.helper_calls)) if n is not None]
        after = _After(
            steps,
            frozenset(id(n) for n in mutation_calls),
            first.mutation.tables if first.mutation is not None and helper is None else (),
            frozenset(n for a in first.assigns for n in a.targets) if first.mutation is not None and not first.mutation.result_is_outcome else frozenset(),
            _objects_passed(mutation_calls, steps.modules),
            local_files=helper is None and first.mutation is not None and first.mutation.effect in (Effect.FILES, Effect.PREPARATION),
            files_changed=frozenset(c[len(FILE):] for c in first.changed if c.startswith(FILE) and c != FILE_ANY),
        )
        order = steps.order()
        taint = _Taint(tainted, order.flow(steps).tainted_by(steps, index, helper, after), order, steps)
        # What the mutation changed, and what was handed to it or to a later change made by a
        # helper (whose target is not known: any object it got may be).
        handed = {c[len(FILE):] if c.startswith(FILE) else c for c in first.changed} | _objects_passed([c for _, c in first.helper_calls], steps.modules)
        # What the next turn of a loop around the mutation can see handed on: only the changes of
        # the loop's own body (a write after the loop runs after every turn's check).
        handed_in_loop = set(handed)
        for later_index in range(index + 1, len(steps.steps)):
            step = steps.steps[later_index]
            if order.reaches(first, step, steps):
                if self._rejects_independently(steps, index, later_index, taint, fresh, after):
                    found.append((later_index, ""))
                    if helper is not None and self._reads_back_files(steps, index, later_index, helper, initial, fresh):
                        steps.read_backs.add((index, later_index))
                    elif helper is not None and _hands_no_literal_command(first, helper) and self._reads_back_files(steps, index, later_index, helper, initial, fresh, any_look=True):
                        steps.read_backs_any.add((index, later_index))
                    if not step.item_check:
                        return found
                    continue  # it rejects only in a tool: the next check may reject in a helper too
                if step.validator is not None and len(found) < _MAX_CANDIDATES:
                    callee, arguments = step.validator
                    # A validator handed what the mutation (or a change after it) was handed
                    # reads that back: `Package.open(doc)` after `_write(doc)`.
                    taken_back = _undone_on_failure(steps.fn.node, first, step, steps.ctx) or _released_finally(steps.fn.node, first, step, steps.ctx)
                    if not taint.reads(arguments.get(), step) and not set(arguments.get()) & handed and not taken_back:
                        found.append((later_index, callee))
                passed = _objects_passed([c for _, c in step.helper_calls], steps.modules) if step.helper_calls else set()
                changed = {c[len(FILE):] if c.startswith(FILE) else c for c in step.changed}
                handed |= passed | changed
                if order.loops_back(step, first):  # the mutation runs again after it: a loop holds both
                    handed_in_loop |= passed | changed
                surely = first.path[: len(step.path)] == step.path
                _propagate(step, tainted, fresh, _guarded_by(steps, step.path, first.path, tainted), surely, steps.modules, after)
        # Loop-carried order: a write late in a loop body runs before the next iteration's
        # check (judged with what the rest of the body made of the mutation's effect).
        for earlier_index in range(index):
            step = steps.steps[earlier_index]
            if not order.loops_back(first, step):
                continue
            if (step.check_reads is not None or step.raisers is not None) and self._rejects_independently(steps, index, earlier_index, taint, fresh, after):
                found.append((earlier_index, ""))
                return found
            # A validator helper at the top of the body (`pages = parse_range(spec)`) rejects
            # the next item after this item was written, as a direct check would. Only after a
            # direct mutation: a helper followed by a helper's check stays too much guessing.
            # It must run on every turn that reaches the write (its block holds the write's), not
            # in a branch of its own: `if clean is None: err = error(code, ...)` builds an item's
            # error entry, it does not check the next item.
            on_every_turn = first.path[: len(step.path)] == step.path
            if step.validator is not None and helper is None and on_every_turn and len(found) < _MAX_CANDIDATES:
                callee, arguments = step.validator
                if not taint.reads(arguments.get(), step) and not set(arguments.get()) & handed_in_loop:
                    found.append((earlier_index, callee))
            _propagate(step, tainted, fresh, _guarded_by(steps, step.path, first.path, tainted), False, steps.modules, after)
        return found or None

    def _reads_back_files(self, steps: _Steps, index: int, check_index: int, helper: str, initial: frozenset[str], fresh: set[str], any_look: bool = False) -> bool:
        """Does the check depend on a look at the file system made after the helper's call (the
        file it may have written, read back)? Looks only at the function's own arguments the
        call was not handed are input checks, not read-backs; with `any_look`, every look is one
        (for a helper that runs a command it was handed: what it writes is not named here)."""
        first = steps.steps[index]
        calls = [c for name, c in first.helper_calls if name == helper]
        handed = {r.split(".")[0] for c in calls for a in c.args for r in read_names(a.value)}
        params = frozenset() if any_look else _own_inputs(steps, frozenset(p for p in steps.fn.params if p not in handed and p not in ("self", "cls")), handed)
        after = _After(
            steps,
            frozenset(id(c) for c in calls),
            (),
            frozenset(),
            _objects_passed(calls, steps.modules),
            files_looked=params,
        )
        order = steps.order()
        taint = _Taint(set(initial), order.flow(steps).tainted_by(steps, index, helper, after), order, steps)
        return not self._rejects_independently(steps, index, check_index, taint, fresh, after)

    def _rejects_independently(self, steps: _Steps, index: int, check_index: int, taint: _Taint, fresh: set[str], after: _After) -> bool:
        """Is the step a check whose outcome does not depend on the mutation at `index`: its
        condition reads neither what the mutation changed or returned (nor names made from
        them), nor a value made after it from no data, nor asks the world again?"""
        step = steps.steps[check_index]
        if _undone_on_failure(steps.fn.node, steps.steps[index], step, steps.ctx):
            return False
        if _released_finally(steps.fn.node, steps.steps[index], step, steps.ctx):
            return False
        if _undone_before_rejecting(steps.steps[index], step, steps.ctx):
            return False
        if taint.guards(steps, step, steps.steps[index]):
            return False  # in the branch of a post-check (`if "error" in reply: if files: return ...`)
        if step.raisers is not None:
            tests = self._raisers(steps, index, check_index, taint, after)
            if not tests:
                return False
            reads = [r for t in tests for r in _reads_and_files(t)]
        elif step.check_reads is not None:
            # A check that asks the world again (`await store.exists(k)`, `self._get(id)`) may
            # see the mutation's effect: a post-check. Computing on the arguments
            # (`timedelta(days=n)`, `Path(p).resolve()`, `is_valid(x)`) is not asking.
            if any(after.observes(t) for t in step.check_tests):
                return False
            if _repeats_an_earlier_check(steps, step, steps.steps[index]):
                return False  # the same test already rejected before the mutation: it cannot fail now
            tests = list(step.check_tests)
            reads = after.without_independent(step.check_reads.get(), tests)
        else:
            return False
        data = _data_reads(tests, steps.modules)[0] if fresh else []
        empty = _emptiness_tested(tests[-1]) if step.check_reads is not None and tests else frozenset()
        if empty and any(_changes_none_succeeded(steps, index, check_index)):
            # `if not done and failed:` after a loop that fills `done` once an item's change
            # succeeded: whether it is empty, not what it holds, decides; and with no success
            # the failures recorded are the items' own.
            # What else the test reads must not depend on the mutation.
            decided = _failure_records(steps, step) | empty
            rest = [r for r in reads if r.split(".")[0] not in decided]
            data = [r for r in data if r.split(".")[0] not in decided]
            return bool(reads) and not taint.reads(rest, step) and not any(r in fresh or r.split(".")[0] in fresh for r in data)
        # Not on the mutation's result, nor on a value made after it (only on the arguments and
        # on what existed before).
        return bool(reads) and not taint.reads(reads, step) and not any(r in fresh or r.split(".")[0] in fresh for r in data)

    def _raisers(self, steps: _Steps, index: int, check_index: int, taint: _Taint, after: _After) -> list[cst.CSTNode]:
        """The statements of a `try` body whose failure the rejecting clause reports, other than
        the mutation and what depends on it: parsing or checking the arguments (`int(arg)`,
        `parse_date(when)`), not logging, not a mutation's own failure, not asking the world."""
        clause = steps.steps[check_index]
        assert clause.raisers is not None
        first, end = clause.raisers
        if first <= index < end and check_index > index:
            first = index + 1  # what failed before the mutation ended the call before it
        caught = _caught_short_names(clause.cfg) if type(clause.cfg) is cst.ExceptHandler else None
        decoding_only = bool(caught) and all(_DECODING_ERRORS.search(name) for name in caught)
        out: list[cst.CSTNode] = []
        order = steps.order()
        # A `finally` block runs whatever happened (the call's clean-up): no verdict on the
        # arguments.
        finals = steps.finally_blocks()
        for i in range(first, end):
            step = steps.steps[i]
            if i == index or step.mutation is not None or step.helper_calls or step.check_reads is not None or step.raisers is not None:
                continue
            if i > index and not order.reaches(steps.steps[index], step, steps):
                continue  # not after the mutation on any path (its branch returned): not what failed after it
            if finals.intersection(step.path):
                continue
            if type(step.node) is cst.ExceptHandler:
                continue  # names an `except` clause assigned (Steps.failure_names)
            node = step.node
            if not _may_fail_on_values(node) or _only_logs(node) or self._builds_reply(steps, node) or _own_method_handed_nothing(node):
                continue
            if decoding_only and not _decodes(node):
                continue  # `except UnicodeDecodeError` after a write: `relative_to`, `stat()` decode nothing
            if after.observes(node) or taint.reads(_reads_and_files(node), step) or taint.guards(steps, step, steps.steps[index]):
                continue
            out.append(node)
        return out

    @staticmethod
    def _builds_reply(steps: _Steps, node: cst.CSTNode) -> bool:
        """Does the statement build what the call answers (`return Reply(ok=True, ...).dump()`,
        `reply = Reply(...)` read only by returns, a returned failure)? Its failure is no verdict
        on the arguments: it comes after every check, whatever the arguments were."""
        if type(node) is cst.Return:
            return node.value is None or not _converts(node.value)
        if type(node) not in (cst.Assign, cst.AnnAssign) or node.value is None or _converts(node.value):
            return False
        targets = [n for t in (node.targets if type(node) is cst.Assign else (node,)) for n in _targets(t.target)]
        if not targets or any("." in t for t in targets):
            return False
        return _read_only_by_returns(steps, frozenset(targets))

    def _latent(
        self,
        ctx: FileContext,
        steps: _Steps,
        index: int,
        helper: tuple[str, cst.Call] | None,
        earlier: list[str],
        checks: list[tuple[int, str]],
        outranked_by: tuple[str, ...] = (),
        prepared_for: tuple[str, ...] = (),
        then: tuple[bool, tuple[str, ...]] = (True, ()),
        validators_only: bool = False,
    ) -> Latent:
        step = steps.steps[index]
        node = helper[1] if helper is not None else step.mutation_node or step.node
        raised = _raised_by(steps.steps[checks[-1][0]]) if not checks[-1][1] else ""
        payload = MutationFirst(
            mutation=step.mutation.description if helper is None and step.mutation else "",
            checks=tuple(
                Check(ctx.start_line(steps.steps[i].node), callee, node_span(ctx, steps.steps[i].node), not callee and steps.steps[i].item_check, (index, i) in steps.read_backs, (index, i) in steps.read_backs_any) for i, callee in checks
            ),
            earlier=tuple(earlier),
            helper=helper[0] if helper is not None else "",
            helper_name=(dotted(helper[1].func) or "") if helper is not None else "",
            # What the call passes, for the linker to tell whether the helper's mutation runs.
            passes=tuple(_argument_texts(helper[1])) if helper is not None else (),
            via_attribute=helper is not None and type(helper[1].func) is cst.Attribute,
            preparation=step.mutation is not None and step.mutation.effect is Effect.PREPARATION,
            prepared_for=prepared_for,
            outranked_by=outranked_by,
            changes_after=then[0],
            helpers_after=then[1],
            absorbable=raised,  # a caller catching it per item goes on: no rejection
            # Reported only where a caller passes what runs the branch the mutation is in.
            when=mutation_guard(steps.fn, [step.statement]) if helper is None else None,
            handed=steps.handed.get(id(helper[1]), ()) if helper is not None else (),
            handed_only=helper is not None and id(helper[1]) in steps.handed_only,
            needs_preparer=steps.needs_preparer.get(id(node), ""),
            preparer_only=validators_only,
        )
        statement = step.statement if isinstance(step.statement, (cst.SimpleStatementLine, cst.BaseSmallStatement)) else node
        applicability, edits = self._fix(ctx, steps, index, checks[0][0]) if not checks[0][1] else (None, ())
        return self.latent(
            ctx,
            node,
            variant="move" if applicability is Applicability.UNSAFE else "manual",
            route="reached",  # in a tool or any helper a tool calls: the call is rejected either way
            statement=statement,
            data={"branch": step.branch} if step.branch else None,
            payload=payload,
            fix_message="Move the check above the first mutation"
            + ("" if applicability is Applicability.UNSAFE else " (check that nothing it reads is computed in between)"),
            fix_applicability=applicability,
            fix_edits=edits,
        )

    def _fix(self, ctx: FileContext, steps: _Steps, index: int, check_index: int) -> tuple[Applicability | None, tuple[Edit, ...]]:
        """Move a plain `if` check (or `assert`) up to the statement holding the mutation, when both
        sit in the same block; unsafe, or display-only when a name it reads is set in between."""
        check = steps.steps[check_index]
        mutation = steps.steps[index]
        node = check.statement
        if type(node) is cst.If:
            if node.orelse is not None or check.node is not node.test:
                return None, ()
        elif not (type(node) is cst.SimpleStatementLine and len(node.body) == 1 and type(node.body[0]) is cst.Assert):
            return None, ()
        block_path = check.path
        if mutation.path[: len(block_path)] != block_path:
            return None, ()
        block = _block_statements(ctx, steps, block_path)
        if block is None or not any(s is node for s in block):
            return None, ()
        anchor = _statement_holding(block, mutation.node)
        if anchor is None:
            return None, ()
        anchor_at = next(i for i, s in enumerate(block) if s is anchor)
        check_at = next(i for i, s in enumerate(block) if s is node)
        if anchor_at >= check_at:
            return None, ()
        if any(type(n) is cst.Call and _gives_back(n) for stmt in block[anchor_at:check_at] for n in descendants(stmt, into_scopes=False)):
            return None, ()  # moved above `client.close()`, the rejecting path would skip it and leak the client
        # What the statements the check would move across assign (walked here, at a finding:
        # the steps before the mutation were not kept).
        assigned = {n for stmt in block[anchor_at:check_at] for n in _assigned_in(stmt)}
        reads = check.check_reads.get() if check.check_reads is not None else []
        # Only in the function's own body: inside a `with`/`try`/loop the move may change what
        # the block guards (a transaction, a lock), so it is shown, not applied.
        safe = len(block_path) == 1 and not any(_overlaps(r, assigned) for r in reads)
        check_range = ctx.range(node)
        anchor_range = ctx.range(anchor)
        lines = ctx.lines[check_range.start.line - 1 : check_range.end.line]
        check_indent = indent_of(ctx, node)
        anchor_indent = indent_of(ctx, anchor)
        moved = "".join(anchor_indent + line[len(check_indent) :] + "\n" if line.startswith(check_indent) else line + "\n" for line in lines)
        edits = (
            Edit(Location(anchor_range.start.line, 1), Location(anchor_range.start.line, 1), moved),
            Edit(Location(check_range.start.line, 1), Location(check_range.end.line + 1, 1), ""),
        )
        return (Applicability.UNSAFE if safe else Applicability.DISPLAY_ONLY), edits

    def link_start(self, project: LinkedProject, reached: Mapping[str, Reach]) -> object:
        return reached

    def link_latent(self, latent: Latent, function: str, reach: Reach, project: LinkedProject, state: object) -> Latent | None:
        """No defect where the mutation's branch needs an argument no caller on the way passes,
        or where every caller turns the check's raise into an entry of its result and goes on."""
        payload = latent.payload
        if not isinstance(payload, MutationFirst):
            return latent
        reached = state if isinstance(state, Mapping) else {}
        if payload.when and not project.caller_enables(function, payload.when, reach, reached):
            return None
        if payload.absorbable and project.absorbed(payload.absorbable, reach):
            return None
        return latent

    def render(self, latent: Latent, context: RenderContext) -> Rendered | None:
        payload = latent.payload
        if not isinstance(payload, MutationFirst):
            return None
        effect = helper_effects(context.project)
        if payload.needs_preparer and (effect is None or effect.mutates(payload.needs_preparer) or not effect.prepares(payload.needs_preparer)):
            return None  # another module's helper whose result was taken for a prepared path is none
        if payload.earlier and (effect is None or any(effect.mutates(c) for c in payload.earlier)):
            return None  # a helper called before it mutates: that call is the finding
        if payload.prepared_for and (effect is None or not any(effect.mutates(c) for c in payload.prepared_for)):
            return None  # a preparation for nothing the function goes on to change
        if payload.outranked_by and effect is not None and any(effect.mutates(c) for c in payload.outranked_by):
            return None  # the helper's write after it is the finding
        helper = payload.helper
        chosen: Check | None = None
        direct = True
        for check in payload.checks:
            if not check.callee:
                if check.item and not context.is_tool:
                    continue  # in a helper: the next check, which rejects whatever the callers built
                chosen = check
                break
            if effect is not None and effect.validates(check.callee):
                chosen, direct = check, False
                break
        if chosen is None:
            return None
        if chosen.read_back and helper and effect is not None and _changes_files(effect.mutates(helper) or effect.prepares(helper)):
            return None  # it reads back the files the helper wrote: a post-check
        if chosen.read_back_any and helper and effect is not None and effect.mutation_effect(helper) == Effect.SUBPROCESS.value:
            return None  # it looks for what the command the helper ran wrote: a post-check
        row = chosen.row
        fix = latent_fix(latent) if direct and payload.checks[0] is chosen else None
        check_at = Related("", *chosen.span, "the check that rejects the call, which could run first")
        # The claim in the message; the fix in help; what the model meets in the note.
        tail = "the model sees a failure but the change stays applied, and a retry applies it twice"
        advice = "Move the check above the first mutation"
        if payload.preparation and not helper:
            tail = "the model sees a failure but what was prepared for the change stays"
            advice = "Move the check above the preparation"
        if not helper:
            return Rendered(f"{context.subject} {payload.mutation}, then rejects the call at line {row}", fix, help=advice, notes=(tail,), related=(check_at,))
        handed = effect.changes_handed(helper, payload.handed, payload.via_attribute) if effect is not None and payload.handed else ""
        if payload.handed_only or (handed and not (effect is not None and effect.mutates(helper))):
            if not handed:
                return None  # a candidate only for what it is handed, which the helper leaves alone
            # State handed to a helper that changes it in place: the change is at the call.
            return Rendered(
                f"{context.subject} calls {payload.helper_name}(), then rejects the call at line {row}",
                fix,
                help=advice,
                notes=(f"{payload.helper_name}() {handed}", tail),
                related=(check_at,),
            )
        inner = effect.mutates(helper) if effect is not None else ""
        subject = context.subject[0].lower() + context.subject[1:]
        if not inner and effect is not None:
            return self._prepared_by_helper(payload, effect, latent, context, chosen, fix, check_at)
        if payload.preparer_only:
            return None  # a helper that may mutate, then only a helper's check: too much guessing
        if not inner or not self._helper_mutates_here(payload, effect.guard(helper) if effect is not None else None):
            return None
        call = Related("", latent.location, latent.end_location, f"{context.subject} calls {payload.helper_name}() here, then rejects the call at line {row}")
        at = effect.mutation_site(helper) if effect is not None else None
        if at is None:
            return Rendered(
                f"{context.subject} calls {payload.helper_name}(), then rejects the call at line {row}",
                fix,
                help=advice,
                notes=(f"{payload.helper_name}() {inner}", tail),
                related=(check_at,),
            )
        message = f"Helper '{at.function}' {inner} here; {subject} then rejects the call at line {row}"
        return Rendered(message, fix, help=advice, notes=(tail,), at=at, related=(call, check_at))

    @staticmethod
    def _prepared_by_helper(
        payload: MutationFirst, effect: HelperEffects, latent: Latent, context: RenderContext, chosen: Check, fix: FixSpec | None, check_at: Related
    ) -> Rendered | None:
        """A helper whose only change is set-up (`os.makedirs(parent, exist_ok=True)` for the
        path the call passes), then a check, then the change it was for: reported at the set-up
        inside the helper. Never alone: where nothing changes after the check, it is no finding."""
        prepared = effect.prepares(payload.helper)
        if not prepared or not (payload.changes_after or any(effect.mutates(c) for c in payload.helpers_after)):
            return None
        at = effect.preparation_site(payload.helper)
        if at is None:
            return None
        subject = context.subject[0].lower() + context.subject[1:]
        call = Related("", latent.location, latent.end_location, f"{context.subject} calls {payload.helper_name}() here, then rejects the call at line {chosen.row}")
        message = f"Helper '{at.function}' {prepared} here; {subject} then rejects the call at line {chosen.row}"
        return Rendered(
            message,
            fix,
            help="Move the check above the preparation",
            notes=("the model sees a failure but what was prepared for the change stays",),
            at=at,
            related=(call, check_at),
        )

    @staticmethod
    def _helper_mutates_here(payload: MutationFirst, helper: HelperGuard | None) -> bool:
        """Does the call take the branch the helper's mutations depend on (`commit=False` does
        not take `if commit:`)?"""
        if helper is None:
            return True
        shift = 1 if helper.method and payload.via_attribute else 0
        return argument_enables(helper.guard, payload.passes, shift)


def _own_inputs(steps: _Steps, params: frozenset[str], handed: set[str]) -> frozenset[str]:
    """The parameters, and the locals made from them (`source = _to_path(p)`, `for p in paths`),
    that were not handed to the helper: the inputs the model named, which a helper handed none of
    them cannot have written."""
    known = _known_names(steps.ctx)
    own = set(params)
    loops = [
        (n.target.value, n.iter)
        for n in descendants(steps.fn.node.body, into_scopes=False)
        if type(n) is cst.For and type(n.target) is cst.Name
    ]
    changed = True
    while changed:
        changed = False
        for name, value in (*steps.fn.single_assignments.items(), *loops):
            if name in own or name in handed:
                continue
            roots = {r.split(".")[0] for r in read_names(value)}
            if roots & own and roots <= own | known | _BUILTINS:
                own.add(name)
                changed = True
    return frozenset(own)


# What a helper's summary says of a change that cannot be a file the caller then looks at
# (MutationKind.description of model/mutations): a database, a service, a store, module state.
_NOT_FILES = (
    "writes to the database", "commits a database", "sends an HTTP", "writes to a key-value",
    "writes to a collection", "changes module-level state", "closes",
)


def _hands_no_literal_command(step: _Step, helper: str) -> bool:
    """Is the helper's call handed no command spelled out here (`_run(cmd)`, not
    `_run(["convert", src, out])`): what a command it runs writes is not named at the call."""
    calls = [c for name, c in step.helper_calls if name == helper]
    return bool(calls) and all(type(a.value) not in (cst.List, cst.Tuple) for c in calls for a in c.args)


def _changes_files(description: str) -> bool:
    """May the helper's change be files (a write, a command or a program it drives, a directory
    made, an archive unpacked)?"""
    return bool(description) and not description.startswith(_NOT_FILES)


def _changes_none_succeeded(steps: _Steps, index: int, check_index: int) -> tuple[bool, tuple[str, ...]]:
    """The changes a preparation at `index` was for, when the check refuses the call because
    none of them succeeded: `if not done: raise` (or `len(done) == 0`, `count == 0`) where
    `done` starts empty and is filled only by steps after a change, in a loop between the two
    (`done.append(convert(item, out))`, `count += 1` after it). On the refusing path no item
    got past its own check, so the preparation is all the call leaves behind. (own change,
    helpers called) as `_changes_after`; nothing when the test is no such emptiness test."""
    check = steps.steps[check_index]
    if not check.check_tests:
        return False, ()
    tested = _emptiness_tested(check.check_tests[-1])
    if not tested:
        return False, ()
    order = steps.order()
    first = steps.steps[index]
    # The prepared folder and the paths made from it (`out = os.path.join(folder, name)`): a
    # per-item call handed one of them writes there, whatever the linker knows of it.
    prepared = {c[len(FILE) :] for c in first.changed if c.startswith(FILE) and c != FILE_ANY}
    for step in steps.steps[index + 1 : check_index]:
        for a in step.assigns:
            if any(r.split(".")[0] in prepared for r in a.data_reads(steps.modules)[0]):
                prepared.update(t for t in a.targets if not t.startswith(FILE))
    own = False
    helpers: set[str] = set()
    for name in tested:
        filled = False
        for at in range(index + 1, check_index):
            step = steps.steps[at]
            if not any(name in a.targets for a in step.assigns):
                continue
            value = next((a.value for a in step.assigns if name in a.targets), None)
            if isinstance(value, cst.BaseExpression) and _empty_literal(value):
                continue  # `done = []`, `count = 0`: the start
            # A fill: it must come after a change of this item, in a loop, reachable from the
            # preparation (the change is the item's own, or a helper call in the same step).
            changes = [
                other
                for other in steps.steps[index + 1 : at + 1]
                if (other.mutation is not None and other.mutation.effect is not Effect.PREPARATION) or other.helper_calls
            ]
            changes = [c for c in changes if order.reaches(first, c, steps) and (c is step or order.reaches(c, step, steps)) and order.loops_back(c, c)]
            if not changes:
                return False, ()
            filled = True
            for change in changes:
                own = own or (change.mutation is not None and change.mutation.effect is not Effect.PREPARATION)
                own = own or any(_reads_and_files(call) and {r.split(".")[0] for r in _reads_and_files(call)} & prepared for _, call in change.helper_calls)
                helpers.update(callee for callee, _ in change.helper_calls)
        if not filled:
            return False, ()
    return own, tuple(sorted(helpers))


def _failure_records(steps: _Steps, check: _Step) -> frozenset[str]:
    """In a refusal `if not done and failed:` (no success, some failure), the names beside the
    emptiness test that only `except` clauses fill (`failed.append(...)`, `errors += 1`): the
    record of the items that failed. With no item succeeded, some failed whenever there was an
    item, so they add nothing to what decides the refusal."""
    test = check.check_tests[-1] if check.check_tests else None
    if not (type(test) is cst.BooleanOperation and type(test.operator) is cst.And):
        return frozenset()
    empty = _emptiness_tested(test)
    if not empty:
        return frozenset()
    out: set[str] = set()
    for name in {r.split(".")[0] for r in read_names(test)} - empty:
        # Filled elsewhere than in a clause (Steps.failure_names keeps a clause as one step
        # whose changes are the names it assigns): not only a record of failures.
        if any(name in a.targets and not (isinstance(a.value, cst.BaseExpression) and _empty_literal(a.value)) for s in steps.steps for a in s.assigns):
            continue
        if any(type(s.node) is cst.ExceptHandler and name in s.changed for s in steps.steps):
            out.add(name)
    return frozenset(out)


def _emptiness_tested(test: cst.BaseExpression) -> frozenset[str]:
    """The names a test asks to be empty or zero: `not done`, `len(done) == 0`, `count == 0`,
    `count < 1` (one side of an `and`)."""
    if type(test) is cst.BooleanOperation and type(test.operator) is cst.And:
        return _emptiness_tested(test.left) | _emptiness_tested(test.right)
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not and type(test.expression) is cst.Name:
        return frozenset({test.expression.value})
    if type(test) is cst.Comparison and len(test.comparisons) == 1:
        target = test.comparisons[0]
        left = test.left
        if type(left) is cst.Call and type(left.func) is cst.Name and left.func.value == "len" and len(left.args) == 1:
            left = left.args[0].value
        if type(left) is not cst.Name or type(target.comparator) is not cst.Integer:
            return frozenset()
        bound = target.comparator.value
        if (type(target.operator) in (cst.Equal, cst.LessThanEqual) and bound == "0") or (type(target.operator) is cst.LessThan and bound == "1"):
            return frozenset({left.value})
    return frozenset()


def _empty_literal(value: cst.BaseExpression) -> bool:
    """`[]`, `{}`, `0`, `list()`, `set()`, `dict()`: a collection or a counter at its start."""
    if type(value) in (cst.List, cst.Dict, cst.Set):
        return not value.elements
    if type(value) is cst.Integer:
        return value.value == "0"
    return type(value) is cst.Call and type(value.func) is cst.Name and value.func.value in {"list", "set", "dict"} and not value.args


def _undone_on_failure(function: cst.FunctionDef, mutation: _Step, check: _Step, ctx: FileContext) -> bool:
    """Is there a `try` around both the mutation and the check whose clause for any failure
    takes the change back (`except BaseException: _remove_partial(dest); raise`,
    `except Exception: conn.rollback(); raise`) before the call ends? Then the rejection leaves
    nothing behind."""
    mutation_node = mutation.mutation_node or (mutation.helper_calls[0][1] if mutation.helper_calls else mutation.node)
    return any(id(mutation_node) in inside and id(check.node) in inside for inside in _undoing_tries(function, ctx))


def _released_finally(function: cst.FunctionDef, mutation: _Step, check: _Step, ctx: FileContext) -> bool:
    """Is a change of state an in-flight record (or a file written) that a `finally` around the check takes out
    again on every path (`ACTIVE[qid] = job` ... `finally: ACTIVE.pop(qid)`, or a helper that
    removes it or is named for that)? Nothing of it is left once the call ends, rejected or not."""
    kind = mutation.mutation
    if kind is None or kind.effect not in (Effect.MODULE_STATE, Effect.FILES) or not kind.changed:
        return False
    # A file written and removed by the `finally` on every way out (`zpath.unlink()`): the
    # call's own scratch, nothing of it is left.
    files = {name[len(FILE):].split(".")[0] for name in kind.changed if name.startswith(FILE) and name != FILE_ANY}
    for node in walk(function.body):
        if type(node) not in (cst.Try, cst.TryStar) or node.finalbody is None:
            continue
        if not any(inner is check.node for inner in walk(node.body)) and not any(inner is check.node for h in node.handlers for inner in walk(h)):
            continue
        if kind.effect is Effect.MODULE_STATE and _releases(node.finalbody, kind.changed, ctx, 1):
            return True
        if kind.effect is Effect.FILES and files and any(_removes_file(inner, files) for inner in walk(node.finalbody)):
            return True
    return False


def _releases(body: cst.CSTNode, changed: tuple[str, ...], ctx: FileContext, depth: int) -> bool:
    """Does `body` take an entry out of one of the `changed` containers (`pop`, `del`), itself or
    through a helper of this module (one call down), or call a helper named for undoing?"""
    for inner in walk(body):
        if type(inner) is cst.Del and any(t in changed for t in _targets(inner.target)):
            return True
        if type(inner) is not cst.Call:
            continue
        name = last_name(dotted(inner.func) or "")
        receiver = chain(inner.func.value) if type(inner.func) is cst.Attribute else None
        if receiver in changed and name in _RELEASES:
            return True  # `ACTIVE.pop(qid)` on the container written
        if set(identifier_words(name)) & (fx.ROLLBACK_WORDS | _RELEASES):
            return True  # `self._remove_active(qid)`
        if depth > 0 and name:
            helpers = [f for f in ctx.model.functions.values() if f.name == name]
            if len(helpers) == 1 and _releases(helpers[0].node.body, changed, ctx, depth - 1):
                return True  # `self._forget(qid)` whose body pops it
    return False


_RELEASES = frozenset({"pop", "remove", "discard", "release", "unregister", "clear"})


def _undone_before_rejecting(mutation: _Step, check: _Step, ctx: FileContext) -> bool:
    """Does the rejecting branch itself take the change back before it ends the call, on its
    own way out (a statement of the branch's block, not of a branch nested in it): the entry
    put into module state taken out again (`PENDING.pop(key)`), the file written removed
    (`partial.unlink()`, `os.remove(partial)`)? Then the rejection leaves nothing behind, as
    with an `except` clause that undoes (_undone_on_failure)."""
    kind = mutation.mutation
    if kind is None or check.check_reads is None:
        return False
    if type(check.statement) is cst.If and check.node is check.statement.test:
        body: cst.BaseSuite = check.statement.body
    elif type(check.node) is cst.Else:
        body = check.node.body
    else:
        return False
    statements = [body] if type(body) is cst.SimpleStatementSuite else [s for s in body.body if type(s) is cst.SimpleStatementLine]
    if kind.effect is Effect.MODULE_STATE:
        return bool(kind.changed) and any(_releases(stmt, kind.changed, ctx, 1) for stmt in statements)
    if kind.effect is not Effect.FILES:
        return False
    files = {name[len(FILE):].split(".")[0] for name in kind.changed if name.startswith(FILE) and name != FILE_ANY}
    return bool(files) and any(_removes_file(inner, files) for stmt in statements for inner in walk(stmt))


def _removes_file(node: cst.CSTNode, files: set[str]) -> bool:
    """Is the node a call that removes one of the files (`p.unlink()`, `os.remove(p)`,
    `shutil.rmtree(p)`), named by their local names?"""
    if type(node) is not cst.Call or last_name(dotted(node.func) or "") not in _REMOVALS:
        return False
    if type(node.func) is cst.Attribute and (chain(node.func.value) or "").split(".")[0] in files:
        return True  # `partial.unlink()`
    named = dotted(node.func) in _REMOVING_FUNCTIONS and bool(node.args)
    return named and (chain(node.args[0].value) or "").split(".")[0] in files  # `os.remove(partial)`


_REMOVING_FUNCTIONS = frozenset({"os.remove", "os.unlink", "os.rmdir", "shutil.rmtree"})


def _undoing_tries(function: cst.FunctionDef, ctx: FileContext) -> list[frozenset[int]]:
    """The nodes inside each `try` body of the function whose clause for any failure takes the
    change back and ends the call (computed once per function)."""
    memo: dict[int, list[frozenset[int]]] = ctx.memo.setdefault("undoing_tries", {})  # type: ignore[assignment]
    found = memo.get(id(function))
    if found is not None:
        return found
    found = []
    for node in walk(function.body):
        if type(node) not in (cst.Try, cst.TryStar):
            continue
        for handler in node.handlers:
            caught = _caught_short_names(handler)
            if caught is not None and not caught & {"Exception", "BaseException"}:
                continue
            undoes = any(
                type(inner) is cst.Call and set(identifier_words(last_name(dotted(inner.func) or ""))) & fx.ROLLBACK_WORDS for inner in walk(handler.body)
            )
            if undoes and _ends_call(handler.body, ctx):
                found.append(frozenset(id(n) for n in walk(node.body)))
                break
    memo[id(function)] = found
    return found


def _raised_by(check: _Step) -> str:
    """The class a direct check raises (`AssertionError` for an assert), "" when it returns."""
    node = check.node if type(check.node) is cst.Raise else None
    if type(check.node) is cst.Assert:
        return "AssertionError"
    if node is None:
        body = check.statement.body if type(check.statement) is cst.If else check.node.body if type(check.node) in (cst.Else, cst.MatchCase) else None
        smalls = [] if body is None else list(body.body) if type(body) is cst.SimpleStatementSuite else [s for st in body.body if type(st) is cst.SimpleStatementLine for s in st.body]
        node = next((s for s in smalls if type(s) is cst.Raise), None)
    if node is None or node.exc is None:
        return ""
    return last_name(dotted(node.exc.func if type(node.exc) is cst.Call else node.exc) or "")


def _argument_texts(call: cst.Call) -> list[tuple[int, str, str]]:
    """(position or -1, keyword or "", a constant's text or "*") of a call's arguments."""
    out: list[tuple[int, str, str]] = []
    position = 0
    for argument in call.args:
        if argument.star:
            break
        value = argument.value
        text = value.value if type(value) is cst.Name and value.value in _CONSTANTS else value.value if type(value) is cst.Integer else "*"
        out.append((-1, argument.keyword.value, text) if argument.keyword is not None else (position, "", text))
        if argument.keyword is None:
            position += 1
    return out


def _guarded_by(steps: _Steps, path: tuple[int, ...], mutation_path: tuple[int, ...], tainted: set[str]) -> bool:
    """Does a block the step is in (and the mutation is not) run only depending on a tainted
    value (`if resp.status == 200: ok = True`)? Then what it assigns depends on the mutation."""
    return bool(tainted) and any(
        block_id not in mutation_path
        and (guard := steps.blocks[block_id].guard) is not None
        and any(_overlaps(r, tainted) for r in guard.get())
        for block_id in path
    )


def _assigned_in(stmt: cst.CSTNode) -> set[str]:
    """Names a statement binds or changes anywhere in it (targets, loop and `as` names, `x` of
    `x.append(...)`)."""
    out: set[str] = set()
    for node in walk(stmt):
        targets: Sequence[cst.BaseExpression] = ()
        if type(node) is cst.Assign:
            targets = [t.target for t in node.targets]
        elif type(node) in (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr):
            targets = [node.target]
        elif type(node) is cst.WithItem and node.asname is not None:
            targets = [node.asname.name]
        elif type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value in _CONTAINER_WRITES:
            targets = [node.func.value]
        for target in targets:
            out.update(_targets(target))
    return out


# First words of the names of project helpers that ask for state (what they return may be the
# mutation's effect read back).
_READ_WORDS = frozenset({"get", "fetch", "read", "load", "list", "find", "search", "query", "count", "exists", "lookup", "select", "describe", "retrieve", "poll", "wait", "status"})


def _names_a_change(parts: Sequence[str]) -> bool:
    """Is a project function named for a change, its first or last word a write verb
    (`git_commit`, `push_branch`; not `lint_commit_message`)? What it returns after M reports how
    that change went, which no check could know before M."""
    return any(part in _WRITE_VERBS and part not in _AMBIGUOUS_VERBS for part in {parts[0], parts[-1]})


class _After:
    """What the steps after one mutation are judged with: the tables it wrote (a read of other
    tables through the same handle does not see it), the names holding what existed before
    (a get-or-create's result), and which calls ask the world again."""

    def __init__(
        self,
        steps: _Steps,
        mutation: frozenset[int],
        tables: tuple[str, ...],
        existing: frozenset[str],
        passed: frozenset[str] = frozenset(),
        local_files: bool = False,
        files_changed: frozenset[str] = frozenset(),
        files_looked: frozenset[str] | None = None,
    ) -> None:
        self.steps = steps
        # After a helper whose target is not known: a look at the file system asks it again
        # (`json.loads(path.read_text())` after `ensure_registry()`), unless it looks only at
        # what these names hold (the tool's own arguments the helper was not handed: an input
        # file it checks). None: looks at files are not asking.
        self.files_looked = files_looked
        # The mutation changed only local files (a write, a directory made): a service asked
        # afterwards (`client.get(url)`) cannot see that; only a look at the file system can.
        self.local_files = local_files
        # The paths a change of local files named (`out.parent` of `out.parent.mkdir()`): a lookup
        # of the project's that is not handed one of them asks about something else (the books
        # to export, a record by id), not about the directory just made.
        self.files_changed = files_changed
        self.mutation = mutation  # ids of the mutation's own call nodes
        self.tables = frozenset(tables)
        self.existing = existing
        # Objects handed to the mutation's call (`_move(conn, ids)`, `run(cmd, stdout=out)`): the
        # call may have changed them, so asking them afterwards (`conn.status()`, `out.read()`)
        # reads its effect back.
        self.passed = passed

    def observes(self, expr: cst.CSTNode) -> bool:
        """Does `expr` ask something outside the function for state (an await, a method of a
        store or API handle, a project helper named for reading)?"""
        known = _known_names(self.steps.ctx)
        for node in walk(expr):
            if id(node) in self.mutation:
                return True  # `if not save(x):` tests the mutation's own outcome
            if type(node) is cst.Await:
                return True
            if type(node) is not cst.Call:
                continue
            if self.files_looked is not None and _reads_file_system(node) and self._looks_elsewhere(node):
                return True
            func = node.func
            if type(func) is cst.Name:
                parts = identifier_words(func.value)
                # `ok = commit_file(p)`: a project helper's report of a change made after M.
                if func.value in known and parts and (parts[0] in _READ_WORDS or _names_a_change(parts) or id(node) in self.steps.changes):
                    if parts[0] in _READ_WORDS and self._asks_about_other_things(node):
                        continue
                    return True
                continue
            if type(func) is not cst.Attribute:
                continue
            if id(node) in self.steps.changes and chain(func.value) in {"self", "cls"}:
                return True  # `result = self._git("commit")`: the outcome of a later change, not a check
            receiver = chain(func.value) or ""
            root, last = receiver.split(".")[0], receiver.split(".")[-1]
            if not receiver or root in self.existing or receiver in fx.SAFE_RECEIVERS:
                continue
            if root in self.passed and func.attr.value not in _VALUE_METHODS:
                return True
            if root in self.steps.local.handles or last in self.steps.local.handles or (_handle_like(last) and root not in self.steps.local_containers):
                if self.local_files:
                    continue  # a service's answer does not depend on the files M wrote
                if not self._independent_sql(node):
                    return True
                continue
            parts = identifier_words(func.attr.value)
            if root in {"self", "cls"} and parts and (parts[0] in _READ_WORDS or _names_a_change(parts)):
                if parts[0] in _READ_WORDS and self._asks_about_other_things(node):
                    continue
                return True
        return False

    def _looks_elsewhere(self, call: cst.Call) -> bool:
        """Does a look at the file system look at something other than the arguments the
        helper was not handed (a path the function made, or one it handed the helper)?"""
        looked = [r for a in call.args for r in read_names(a.value)]
        if type(call.func) is cst.Attribute:
            looked.extend(r for r in read_names(call.func.value) if r.split(".")[0] not in self.steps.modules)  # not `os.path`
        own = self.files_looked or frozenset()
        return not looked or any(r.split(".")[0] not in own for r in looked)

    def _asks_about_other_things(self, call: cst.Call) -> bool:
        """After a change of local files only, is a project lookup handed none of the paths it
        changed (`_find_books(author=a)` after `out.parent.mkdir(...)`)? It cannot see them."""
        if not self.local_files or not self.files_changed:
            return False
        given = [r for a in call.args for r in read_names(a.value)]
        return not any(_overlaps(r, set(self.files_changed)) or any(_overlaps(c, {r}) for c in self.files_changed) for r in given)

    def _independent_sql(self, call: cst.Call) -> bool:
        """A read statement whose tables are known and none the mutation wrote."""
        if not self.tables or type(call.func) is not cst.Attribute or call.func.attr.value not in fx.SQL_EXECUTE or not call.args:
            return False
        text = statement_text(call.args[0].value, self.steps.local)
        if text is None or fx.SQL_WRITE.search(text):
            return False
        read = {t.lower() for t in fx.SQL_READ_TABLES.findall(text)}
        return bool(read) and not (read & self.tables)

    def without_independent(self, reads: list[str], nodes: Sequence[cst.CSTNode]) -> list[str]:
        """`reads` without the handles of SQL reads of other tables than the mutation wrote."""
        if not self.tables:
            return reads
        handles = {r for node in nodes for inner in walk(node) if type(inner) is cst.Call and self._independent_sql(inner) for r in read_names(inner.func.value)}  # type: ignore[attr-defined]
        return [r for r in reads if r not in handles and r.split(".")[0] not in handles] if handles else reads


def _objects_passed(calls: Sequence[cst.CSTNode], modules: frozenset[str]) -> frozenset[str]:
    """Local names (not imported modules) handed whole to the given calls as arguments."""
    out: set[str] = set()
    for call in calls:
        for argument in call.args if type(call) is cst.Call else ():
            if type(argument.value) is cst.Name and argument.value.value not in modules and argument.value.value not in _CONSTANTS:
                out.add(argument.value.value)
    return frozenset(out)


def _propagate(step: _Step, tainted: set[str], fresh: set[str], guarded: bool, surely: bool, modules: frozenset[str], after: _After | None = None) -> None:
    """After a step that may run after the mutation: names it assigns from tainted values (or
    under a tainted condition) are tainted; a step that surely runs (in the mutation's block or
    one around it) makes the others clean again. What its mutations change is tainted. Names
    computed after it from no data (`remaining = time_left()`), or from such a name, are `fresh`:
    a check on them does not depend only on the arguments and what existed before."""
    for assign in step.assigns:
        value = [assign.value] if assign.value is not None else []
        reads = after.without_independent(assign.reads.get(), value) if after is not None else assign.reads.get()
        asks = after is not None and any(after.observes(v) for v in value)  # a result of a call made after it
        if guarded or asks or (tainted and any(_overlaps(r, tainted) for r in reads)) or (step.mutation is not None and step.mutation.result_is_outcome):
            tainted.update(assign.targets)
        elif surely:
            tainted.difference_update(assign.targets)
        data, calls = assign.data_reads(modules)
        if (fresh and any(r in fresh for r in data)) or (not data and calls) or (calls and value and _asks_no_data(value[0], modules)):
            fresh.update(assign.targets)  # made from a fresh value, or asked of no data at all
        elif surely:
            fresh.difference_update(assign.targets)
    if step.waits is None:
        step.waits = _waited_for(step.node)
    fresh.update(step.waits)
    tainted.update(step.changed)


def _waited_for(node: cst.CSTNode) -> tuple[str, ...]:
    """Locals a statement waits for (`out, err = proc.communicate()`, `worker.join()`): their
    state from then on (`proc.returncode`) is made after the change, not available before it."""
    out: list[str] = []
    for call in (n for n in walk(node) if type(n) is cst.Call):
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name or func.attr.value not in fx.WAIT_METHODS:
            continue
        if any(a.keyword is None for a in call.args):
            continue  # `sep.join(parts)`: a string method, not a wait
        out.append(func.value.value)
    return tuple(out)


def _reachable(steps: _Steps, mutation_path: tuple[int, ...], check_path: tuple[int, ...]) -> bool:
    """Can a step at `check_path` run after one at `mutation_path` (which comes first in the
    source)? Not when the mutation's block ends the call first, nor from another branch."""
    common = 0
    while common < min(len(mutation_path), len(check_path)) and mutation_path[common] == check_path[common]:
        common += 1
    for block_id in mutation_path[common:]:
        if steps.blocks[block_id].terminates:
            return False
    if common < len(mutation_path) and common < len(check_path):
        left, right = steps.blocks[mutation_path[common]], steps.blocks[check_path[common]]
        if left.owner == right.owner and left.exclusive and right.exclusive:
            return False
    return True


def _gives_back(call: cst.Call) -> bool:
    """Does the call close or release something (`client.close()`, `self.conn.close()`,
    `_close(conn)`, `cleanup(tmp)`; not `close_issue(n)`)? A fix never moves a check above one:
    the rejecting path would skip it."""
    if is_cleanup(call):
        return True
    words = identifier_words(last_name(dotted(call.func) or ""))
    return len(words) == 1 and words[0] in fx.CLEANUP_METHODS


def _block_statements(ctx: FileContext, steps: _Steps, path: tuple[int, ...]) -> Sequence[cst.BaseStatement] | None:
    if not path:
        return None
    block_id = path[-1]
    for node in walk(steps.fn.node):
        if id(node) == block_id and type(node) is cst.IndentedBlock:
            return node.body
    return None


def _statement_holding(block: Sequence[cst.BaseStatement], node: cst.CSTNode) -> cst.BaseStatement | None:
    for stmt in block:
        if any(inner is node for inner in walk(stmt)):
            return stmt
    return None
