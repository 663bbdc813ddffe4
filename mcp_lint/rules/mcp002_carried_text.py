"""MCP002 at link time: library text carried through the project's own exception classes.

A helper does `raise NotesError(f"search failed: {e}")` on an httpx error; a tool does
`except NotesError as e: return f"Error: {e}"`. One finding per flow, where the text is taken in:
the raise that put library text into the class is reported, naming the statement that passes it
on to the model (the statement that builds the failure value). That holds whatever else
the class carries. Only a clause that wraps a *carrier*'s text (every `raise` of the class, or of
a subclass, in the counted modules is built from a caught library exception's text:
`Carriers.is_carrier`) into yet another exception that leaves the project's code (to the
framework) is reported itself, as a clause catching `httpx.HTTPError` would be: that raise takes
the library text in again. A re-wrap the project catches again and passes on (`except ApiError
as e: raise ServiceError(f"...: {e}")`, returned by a dispatcher) is a step of the chain: the
flow is reported where the library text entered it, the helper's raise. A raise caught by a
clause reported for its own sake (a broad `except Exception`) is left to that clause.
"""

from __future__ import annotations

from dataclasses import replace
from operator import attrgetter
from typing import Callable, Mapping

from mcp_lint.findings import Related
from mcp_lint.model.escape_exits import AUTHOR, CARRIED, PARAMETER, UNKNOWN
from mcp_lint.model.escapes import EscapeLinks
from mcp_lint.model.exception_guards import catching_clause, catching_site
from mcp_lint.model.frameworks import TOOL_ERROR_CLASSES
from mcp_lint.model.names import last_name
from mcp_lint.model.summary import CallEdge, FunctionSummary, Latent, receiver_shift
from mcp_lint.rules.base import LinkedProject, Reach, RenderContext, Rule
from mcp_lint.rules.callers_words import callers_log_the_traceback, callers_say_the_operation
from mcp_lint.rules.exception_text import HandedOn, reported_down
from mcp_lint.rules.mcp002_carriers import Carriers
from mcp_lint.rules.mcp002_payload import raw_text

# How many hops of a clause wrapping the text into another exception, caught and passed on
# again, the forwarding map follows.
_FORWARDING_ROUNDS = 4
# How many callers up a parsed parameter is followed to the tool whose argument it is.
_FEEDING_DEPTH = 4


class CarriedText:
    """The rule's view of one linked project: which `except` clauses pass a caught exception's
    text on to the model (`forwarding`), and each latent as the project reads it (`link`)."""

    def __init__(self, rule: Rule, project: LinkedProject, reached: Mapping[str, Reach]) -> None:
        self.rule = rule
        self.project = project
        self.reached = reached
        # Counted before anything else here looks classes up: the modules counted are those of the
        # classes looked up while the tools were traced (a prefiltered run analyses the same).
        self.carriers = Carriers(project, reached)
        # Handler.site -> how the clause passes the caught exception's text on to the model.
        self.forwarding: dict[str, str] = {}
        # What the project's functions let escape (who wrote a caught ValueError's text).
        self.escapes = EscapeLinks(project.function)
        self.reported: frozenset[str] | None = None
        self.rewrapped: dict[str, list[Related]] = {}  # by Handler.site of the clause wrapping them
        for _ in range(_FORWARDING_ROUNDS):
            added = self._forwarding_round()
            if not added:
                break
            self.forwarding.update(added)

    def _fed_by_tools(self, function: str, positions: tuple[int, ...], depth: int = 0) -> bool:
        """Does every caller of `function` pass, at each of `positions` (its parameter indices),
        a value taken from its own parameters, and is each such caller a tool, or fed so in turn?"""
        callers = self.project.callers_of(function)
        found = self.project.function(function)
        if not positions or not callers or found is None or depth > _FEEDING_DEPTH:
            return False
        params = found[1].params
        for caller, edge in callers:
            shift = receiver_shift(edge.via_attribute, params)
            fed: set[int] = set()
            for p in positions:
                found_params = self._taken_from_params(edge, p - shift)
                if not found_params:
                    return False
                fed |= found_params
            reach = self.reached.get(caller)
            if reach is not None and reach.is_tool:
                continue
            if not self._fed_by_tools(caller, tuple(sorted(fed)), depth + 1):
                return False
        return True

    def _taken_from_params(self, edge: CallEdge, position: int) -> set[int]:
        """The caller's parameter indices the argument at `position` of the call is taken from:
        one directly (`args.get("x")`), or those a project function it is the value of returns
        transformed (`merge(args, saved)`: FunctionSummary.derived_params); empty for none."""
        taken = dict(edge.from_params)
        if position in taken:
            return {taken[position]}
        out: set[int] = set()
        for at, callee, via_attribute, inner_taken in edge.from_results:
            found = self.project.function(callee) if at == position else None
            if found is None:
                continue
            inner = dict(inner_taken)
            shift = receiver_shift(via_attribute, found[1].params)
            out |= {inner[d - shift] for d in found[1].derived_params if d - shift in inner}
        return out

    def link(self, latent: Latent, function: str, reach: Reach) -> Latent | None:
        """The latent as this project reads it, or None when another statement reports its flow
        (or no tool's path takes it)."""
        project = self.project
        if latent.variant == "handed-to-helper":
            return None  # a marker for the forwarding map
        handed = raw_text(latent).handed_to
        if handed is not None and any(reported_down(h, latent.code, project, parts=True) for h in (handed, *handed.also)):
            # The function handed the exception, or one it hands it on to whole, puts its text
            # in: reported there.
            return None
        taken = handed or raw_text(latent).text_from
        if taken is not None and (callee := project.function(taken.callee)) is not None and _gives_no_text_back(taken, callee[1]):
            return None  # it gives back a number or a flag (`status_of(err) -> int`), or its own words: no text comes back
        if self.reported is None and latent.site:
            self._reported_clauses()  # which raises a clause wraps again (its related locations)
        answered_by = raw_text(latent).answered_by
        if answered_by and not all(self._outside_project(callee) for callee in answered_by):
            return None  # the tested value is what the project's own function answered: its text
        keyword_body = raw_text(latent).keyword_body
        if keyword_body is not None:
            if self.carriers.keywords_to_message(*keyword_body) is False:
                return None  # `ApiError("...", body=body)` whose `__init__` keeps the body in an attribute
        constructed = raw_text(latent).constructed
        if constructed is not None:
            positions = constructed[1]
            if raw_text(latent).constructed_keywords:
                positions = (*positions, *self._keyword_positions(constructed[0], raw_text(latent).constructed_keywords))
            given = self.carriers.given_to_message(constructed[0], positions)
            if given is False or (given is None and latent.variant.endswith("-body") and not self.carriers.takes_builtin_init(constructed[0])):
                # `raise ApiError(exc)` whose `__init__` keeps `exc` out of the message, or a
                # response handed to a class not known to read its body into it (a class taking
                # a builtin exception's `__init__` is known: its arguments are its message).
                return None
        if raw_text(latent).tool_args_only and not reach.is_tool and self._fed_by_tools(function, raw_text(latent).parsed_params):
            return None  # a parse error of what a tool's arguments hand this helper: the model's own input
        if raw_text(latent).origin_exits:
            decided = self._with_origin(latent)
            if decided is None:
                return None  # the `try` body lets only the author's own exceptions of the class out
            latent = decided
        if latent.route == "text" and reach.raised_text and not project.applies(latent, reach):
            latent = _raised_in_caller(latent, reach.raised_text)
        body_param = raw_text(latent).body_param
        if raw_text(latent).factory and body_param is not None:
            # A factory building the project exception from a response's body (`raise
            # _error_from_response(exc.response)`, `raise ApiError.from_response(resp)`): only
            # where a caller raises what it returns, handed a response it found failed.
            if body_param not in reach.raised_body_params:
                return None
            latent = _raised_by_caller(latent)
        elif raw_text(latent).factory and latent.param in reach.raised_exc_params:
            latent = _raised_by_caller(latent)
        elif raw_text(latent).raised_only:
            return None  # a factory's text found through a local: followed only where it is raised
        latent = self._normalized(latent)
        payload = raw_text(latent)
        if payload.passes:
            tested, quals = payload.needs_attr, payload.caught_quals
            if tested and quals and all(project.lacks_attribute(q, tested) for q in quals):
                return None  # under `if getattr(e, "status_code", None) == 429:` of a class without it
            if quals and all(project.is_reexported_from_outside(q) for q in quals):
                # A library's class the project's module only imports and passes on: caught, it
                # is the library's text, as `except somelib.ApiError` is.
                latent = replace(latent, payload=replace(payload, passes=False, caught_quals=()))
            else:
                carrier = self._carrier_of(latent, reach)
                if carrier is None:
                    return None  # passes the author's own text on; a carried library text is reported where it is raised
                latent = replace(latent, payload=replace(payload, carrier=self.carriers.example(carrier)))
        sites = project.catching_sites(latent, reach)
        if sites is None:
            latent = replace(latent, raises="")  # escapes to the framework on some path
        else:
            passed_on = next((self.forwarding[s] for s in sites if s in self.forwarding), None)
            if passed_on is None:
                return None  # caught on every path by code that does not pass its text on (checked there)
            if self._rewrapped(latent, reach):
                return None  # one flow: reported where a broad clause on the way wraps its text again
            latent = replace(latent, raises="", caught_at=(), passed_on=passed_on)
        if not project.applies(latent, reach):
            return None
        body_param = raw_text(latent).body_param
        if body_param is not None and body_param not in self._passed_by_callers(function, attrgetter("failed_responses")):
            if not (raw_text(latent).reply_tested and body_param in self._passed_by_callers(function, attrgetter("decoded_replies"))):
                return None  # no caller passes it a response found failed (or a reply it tests)
        if latent.site and self.reported is not None and latent.site in self.rewrapped:
            inner = tuple(sorted(self.rewrapped[latent.site], key=lambda r: (r.filename, r.location.row)))
            latent = replace(latent, payload=replace(raw_text(latent), rewraps=inner))
        if latent.route == "raise" and function not in project.guarding_wrappers and not self._raised_by_wrappers(latent, function) and self._swallowed(latent, reach):
            return None
        return _reason_only_where_callers_say_the_operation(latent, function, project, self.reached)

    def _passed_by_callers(self, function: str, positions: Callable[[CallEdge], tuple[int, ...]]) -> set[int]:
        """The parameter positions of `function` (`self` counted) at which some caller's call, as
        the project's one call graph has it (LinkedProject.callers_of), passes what `positions`
        names: a response it found failed (CallEdge.failed_responses), a decoded reply."""
        params = self.project.functions[function][1].params
        return {i + receiver_shift(edge.via_attribute, params) for _, edge in self.project.callers_of(function) for i in positions(edge)}

    def _outside_project(self, callee: str, depth: int = 0) -> bool:
        """Is `callee` (qualified as the module wrote it) known to be code outside the project: no
        project function, and under no project module, or a method of what a project name holds
        or a project factory returns whose class is outside (`get_app().acquire_token` with `def
        get_app() -> signin.App`)? Unknown counts as the project's."""
        project = self.project
        if depth > _FEEDING_DEPTH or project.function(callee) is not None:
            return False
        parts = callee.split(".")
        cut = next((n for n in range(len(parts) - 1, 0, -1) if ".".join(parts[:n]) in project.modules), 0)
        if not cut:
            return not any(project.is_project_class(".".join(parts[:n])) for n in range(1, len(parts)))
        summary, rest = project.modules[".".join(parts[:cut])], parts[cut:]
        for width in (2, 1):
            if len(rest) <= width:
                continue
            key = ".".join(rest[:width])
            if key in summary.instances:
                return self._outside_project(".".join([summary.instances[key], *rest[width:]]), depth + 1)
            factory = project.function(".".join(parts[: cut + width]))
            if factory is not None:
                made = (factory[1].returns_type,) if factory[1].returns_type else factory[1].returned_objects
                return bool(made) and all(self._outside_project(".".join([kind, *rest[width:]]), depth + 1) for kind in made)
        return False

    def _keyword_positions(self, cls: str, keywords: tuple[str, ...]) -> tuple[int, ...]:
        """The constructor positions of keyword arguments, by the nearest `__init__` the project
        defines for `cls` (as message_takes counts them: past `self`)."""
        for qual in self.project.class_ancestors(cls) or (cls,):
            found = self.project.function(qual + ".__init__")
            if found is not None:
                init = found[1]
                shift = 1 if init.params and init.params[0] == "self" else 0
                return tuple(init.params.index(k) - shift for k in keywords if k in init.params)
        return ()

    def _with_origin(self, latent: Latent) -> Latent | None:
        """The latent of a clause catching builtin classes around another module's code, once
        what that code lets escape is known: kept where a library's exception of the class may
        reach the clause, dropped where only the author's own raises do; a call the project does
        not resolve, or a parser of what the caller passed, keeps the file's verdict."""
        payload = raw_text(latent)
        verdict = self.escapes.verdict(payload.origin_exits, frozenset(payload.origin_caught))
        if verdict == UNKNOWN and not payload.origin_foreign and self.escapes.carries_beside_unknown(payload.origin_exits, frozenset(payload.origin_caught)):
            # The file took the clause for the author's text, but a raise down the `try` body
            # (through helpers, other modules) built the class from a library's text: whatever
            # the calls it cannot follow raise, the clause passes that text on, and those raises
            # are the flow's findings (`except RuntimeError as e: return describe(e)` over a
            # helper two calls down doing `raise RuntimeError(f"lookup failed: {exc}")`).
            verdict = CARRIED
        if verdict in {UNKNOWN, PARAMETER}:
            # Unresolved, or a parser's text about what a caller passed (whether that is the
            # model's own input the file's verdict already asked): as the file decided.
            return replace(latent, payload=replace(payload, origin_exits=())) if payload.origin_foreign else None
        if verdict == AUTHOR:
            return None
        if verdict == CARRIED:
            # Library text only as the callees' raises took it in: they are the flow's findings,
            # and this clause passes their text on (the forwarding map names it).
            return replace(latent, payload=replace(payload, origin_exits=(), passes=True, caught_quals=(), imported_quals=()))
        return replace(latent, payload=replace(payload, origin_exits=(), tool_args_only=False))

    def _passing_author_raises(self, latent: Latent) -> Latent:
        """A clause catching builtin classes (`except RuntimeError as e: return f"Error: {e}"`)
        that `_with_origin` leaves to the author's own text (only the project's raises down its
        `try` body are known to reach it, or the file judged so beside calls nobody follows) is
        no finding of its own, but it passes the text of those raises on: a raise among them that
        put foreign text in (`raise RuntimeError(f"verify failed: {resp.text}")` in a helper) is
        the flow's finding, naming this clause; its literal-only raises carry no finding."""
        payload = raw_text(latent)
        return replace(latent, payload=replace(payload, origin_exits=(), passes=True, caught_quals=(), imported_quals=()))

    def _is_tool_error(self, qual: str) -> bool:
        return any(a in TOOL_ERROR_CLASSES for a in self.project.class_ancestors(qual)[1:])

    def _as_tool_error(self, latent: Latent) -> Latent:
        """A raise of a project subclass of ToolError reads as a ToolError raise: its text is
        delivered verbatim, also where the framework masks other exceptions."""
        if latent.raises_qual and latent.variant.startswith("raise-other") and self._is_tool_error(latent.raises_qual):
            return replace(latent, variant="raise" + latent.variant[len("raise-other") :])
        return latent

    def _normalized(self, latent: Latent) -> Latent:
        """A ToolError subclass raised reads as ToolError; a clause catching an imported class
        the project defines (`from errors import ApiError` beside server.py) is a clause catching
        the project's own class."""
        latent = self._as_tool_error(latent)
        payload = raw_text(latent)
        imported = payload.imported_quals
        if imported and all(self.project.is_project_class(q) for q in imported):
            caught = tuple(q for q in imported if q)
            latent = replace(latent, payload=replace(payload, passes=True, caught_quals=caught, imported_quals=()))
        return latent

    def _carrier_of(self, latent: Latent, reach: Reach) -> str | None:
        """The carrier among the project classes a clause catches, if any, when the clause wraps
        its text into another exception that leaves the project's code (`except ApiError as e:
        raise RuntimeError(f"...: {e}")`, escaping to the framework): that raise takes the
        library text in again, so it is a statement of the flow's own. A clause returning the
        text (`return f"Error: {e}"`), or wrapping it into an exception the project catches again
        and passes on, hands on text the carrier's raises took in: those raises are the flow's
        findings, as for any project class, and the clause is named as passing it on."""
        if latent.route != "raise" or self.project.catching_sites(latent, reach) is not None:
            return None
        return next((q for q in raw_text(latent).caught_quals if self.carriers.is_carrier(q)), None)

    def _rewrapped(self, latent: Latent, reach: Reach) -> bool:
        """On every way to the tools, the raise is caught by a clause reported for its own sake
        (`except Exception as e: raise ApiError(f"lookup failed: {e}")`), whose text holds this
        one's: that clause is the flow's finding."""
        return bool(self._rewrapping_sites(latent, reach, self._reported_clauses()))

    def _rewrapping_sites(self, latent: Latent, reach: Reach, reported: frozenset[str]) -> set[str]:
        """The reported clauses that catch the raise on the ways to the tools, when one does on
        every way (empty otherwise)."""
        if not reported or not reach.guards or not latent.raises:
            return set()
        qual = latent.raises_qual
        names = frozenset({latent.raises, *(last_name(a) for a in self.project.class_ancestors(qual))}) if qual else frozenset({latent.raises})
        found: set[str] = set()
        for way in reach.guards:
            sites = {site[0] for guard in way if (site := catching_site(guard, names)) is not None and site[0] in reported}
            if not sites:
                return set()
            found |= sites
        return found

    def _reported_clauses(self) -> frozenset[str]:
        """The clauses (Handler.site) that put a caught foreign exception's text into what they
        raise or return and are reported for it themselves (computed once; empty while computing,
        so a clause's own link never drops it for itself)."""
        if self.reported is None:
            self.reported = frozenset()
            found = set()
            for qual, entry in self.reached.items():
                fn = self.project.functions[qual][1]
                for latent in fn.latent:
                    if latent.code != self.rule.code or not latent.site or latent.variant in {"handed-to-helper", "passes-on"}:
                        continue
                    payload = raw_text(latent)
                    if payload.passes or payload.imported_quals or payload.origin_exits:
                        continue  # decided by what the class carries, or by the link step
                    if self.link(latent, qual, entry) is not None:
                        found.add(latent.site)
            self.reported = frozenset(found)
            # The raises each of them wraps again: related locations of its finding.
            for qual, entry in self.reached.items():
                summary, fn = self.project.functions[qual]
                for latent in fn.latent:
                    if latent.code != self.rule.code or not latent.raises or latent.variant in {"handed-to-helper", "passes-on"}:
                        continue
                    for site in self._rewrapping_sites(latent, entry, self.reported):
                        where = Related(summary.path, latent.location, latent.end_location, f"the text it wraps is raised here, in `{fn.name}()`")
                        self.rewrapped.setdefault(site, []).append(where)
        return self.reported

    def _raised_by_wrappers(self, latent: Latent, function: str) -> bool:
        """A factory whose value only decorators' wrappers raise, from their own clause (`except
        Exception as e: raise tool_error(e)`): that raise is outside the wrapper's `try`, so the
        clause that catches everything does not catch it; the factory takes the text in."""
        if not raw_text(latent).factory:
            return False
        callers = self.project.callers_of(function)
        return bool(callers) and all(caller in self.project.guarding_wrappers for caller, _ in callers)

    def _swallowed(self, latent: Latent, reach: Reach) -> bool:
        """One defect per flow: every tool reaching this raise is wrapped by a decorator whose
        clause catching it catches everything (`except Exception as e: return {"error":
        str(e)}`). That clause decides what the model reads of any failure and is checked itself;
        a clause for the project's own class (`except AppError as e: return _err(e)`) passes the
        text on as curated, so the raise that put library text in it stays the defect."""
        if not reach.tools:
            return False
        ancestors = self.project.class_ancestors(latent.raises_qual) if latent.raises_qual else ()
        payload = raw_text(latent)
        names = frozenset({payload.cls, payload.raised, *(last_name(a) for a in ancestors)}) - {""}
        for tool in reach.tools:
            clause = next((c for guard in self.project.wrapper_guards.get(tool, ()) if (c := catching_clause(guard, names))), None)
            if clause is None or "*" not in clause[0] or clause[1]:
                return False  # not caught there, caught by name, or re-raised
        return True

    def _forwarding_round(self) -> dict[str, str]:
        """Handler.site -> how the `except` clause passes the caught exception's text on to the
        model, for the clauses that catch the project's own class (or ToolError) and are not
        reported themselves: one finding per flow, so a raise caught by a reported clause (a broad
        `except Exception`, a carrier's) is left to that clause. A clause that wraps the text into
        another exception passes it on where that one is passed on: rounds follow such chains a
        few hops deep."""
        out: dict[str, str] = {}
        project = self.project
        for qual, entry in self.reached.items():
            summary, fn = project.functions[qual]
            contexts: tuple[RenderContext, RenderContext] | None = None
            for latent in fn.latent:
                site = latent.site
                if not site or latent.code != self.rule.code or site in out or site in self.forwarding:
                    continue
                if raw_text(latent).origin_exits:
                    decided = self._with_origin(latent) or self._passing_author_raises(latent)
                    if decided is None:
                        continue
                    latent = decided
                latent = self._normalized(latent)
                if not raw_text(latent).passes or self._carrier_of(latent, entry) is not None:
                    continue  # a clause reported itself
                who = f"'{fn.name}'"
                if entry.is_tool and entry.own_names:
                    who = f"tool '{latent.branch or sorted(entry.own_names)[0]}'"
                if latent.variant == "handed-to-helper":
                    helper = self._helper_sink(latent)
                    if helper is not None:
                        out[site] = f"{who} passes it to {helper}"
                    continue
                if latent.variant.startswith("return"):
                    how = "returns it"
                elif latent.variant.startswith("raise-other"):
                    how = f"raises it again as {raw_text(latent).cls or 'an exception'}"
                else:
                    how = f"puts it into {raw_text(latent).cls or 'ToolError'}"
                sites = project.catching_sites(latent, entry)
                if sites is not None:  # wrapped into an exception caught again on the way
                    passed_on = next((self.forwarding[s] for s in sites if s in self.forwarding), None)
                    if passed_on is not None:
                        out[site] = f"{who} {how} ({summary.path}:{latent.location.row}), and {passed_on}"
                    continue
                if not project.applies(latent, entry):
                    continue
                contexts = contexts or project.contexts(qual, entry)
                context = contexts[1] if latent.route in {"return", "text"} else contexts[0]
                if self.rule.render(latent, context) is None:
                    continue
                out[site] = f"{who} {how} ({summary.path}:{latent.location.row})"
        return out

    def _helper_sink(self, marker: Latent) -> str | None:
        """How the helper a clause hands its exception to passes that exception's text on to the
        model ("'format_error', which returns it (path:row)"), or None when it does not."""
        handed = raw_text(marker)
        found = self.project.function(handed.helper)
        if found is None or found[1].qualname not in self.reached:
            return None
        summary, helper = found
        shift = receiver_shift(handed.via_attribute, helper.params)
        entry = self.reached[helper.qualname]
        for latent in helper.latent:
            if latent.code != self.rule.code or not latent.variant.endswith("-param") or latent.param != marker.param + shift:
                continue
            # Sent on by the clause itself (`raise ToolError(describe(e))`), the helper's return
            # value reaches the model whatever its callers do with it elsewhere.
            if (handed.sent and latent.route in {"return", "text"}) or self.project.applies(replace(latent, param=-1), entry):
                how = "returns" if latent.route in {"return", "text"} else "raises"
                return f"'{helper.name}', which {how} its text ({summary.path}:{latent.location.row})"
        return None


def _raised_in_caller(latent: Latent, cls: str) -> Latent:
    """A value whose text no tool returns, but a caller raises in a plain exception's message
    (`if not r["success"]: raise ValueError(json.dumps(r))`): it reaches the model where the
    framework forwards exception text, as a raise of that class in this function would."""
    payload = replace(raw_text(latent), raised_by=cls, cls=cls, error_result=False)
    raised = replace(latent, payload=payload, raises=cls, slot="")
    _, dash, suffix = latent.variant.partition("-")
    # No fix: rewriting the return would change what every caller checks (`r["success"]`).
    return replace(raised, variant=f"raise-other{dash}{suffix}", route="raise", fix_message="", fix_applicability=None, fix_edits=(), fix_needs=())


def _raised_by_caller(latent: Latent) -> Latent:
    """A factory's returned exception that a caller raises (`raise self._unreachable(e) from e`)
    reads as a raise of its class: it reaches the model where the framework forwards exception
    text, or where a clause catching it on the way passes its text on (CarriedText.link)."""
    payload = raw_text(latent)
    cls = payload.factory
    raised = replace(latent, payload=replace(payload, raised=cls, cls=cls), raises=cls, raises_qual=payload.factory_qual)
    # (A response's body stays a body: "raise-other-body", as a raise of it written in place.)
    # The framework's ToolError reaches the model as written, whatever the framework does with
    # other exceptions.
    kind = "raise" if payload.factory_qual in TOOL_ERROR_CLASSES else "raise-other"
    variant = f"{kind}-body" if latent.variant.endswith("-body") else f"{kind}-param"
    return replace(raised, variant=variant, route="raise")


def _gives_no_text_back(handed: HandedOn, callee: FunctionSummary) -> bool:
    """Does the project function a caught exception is handed to give none of its text back: a
    number or a flag (FunctionSummary.returns_no_text), or, by its summary, no value it returns
    reads the parameters the exception is handed at (`def describe(exc): return "unavailable"`)?"""
    if callee.returns_no_text:
        return True
    if callee.returned_params is None:
        return False
    shift = receiver_shift(handed.via_attribute, callee.params)
    return all(i + shift not in callee.returned_params for i in handed.positions)


def _reason_only_where_callers_say_the_operation(latent: Latent, function: str, project: LinkedProject, reached: Mapping[str, Reach]) -> Latent:
    """The latent with the fix whose message says only why, where every caller of the helper
    puts its text after words of its own naming the operation (callers_words.py): the whole
    sentence would read twice there ("Export request failed: Export request failed")."""
    payload = raw_text(latent)
    entry = reached.get(function)
    if entry is not None and entry.is_tool:
        return latent  # a tool's own text goes to the model alone: it must say which operation failed
    if payload.reason_fix is None or not callers_say_the_operation(project, function, payload.raised, latent.raises_qual, payload.fix_words, reached):
        return latent
    message, edits, logs = payload.reason_fix
    if payload.reason_fix_quiet is not None and callers_log_the_traceback(project, function, payload.raised, latent.raises_qual):
        message, edits, logs = payload.reason_fix_quiet  # the callers log it with its traceback: once is enough
    return replace(latent, fix_message=message, fix_edits=edits, fix_needs=("logger",) if logs else ())
