"""A clause of its own for the parse of the model's argument beside a service call (issue 23, C2).

`except Exception as e: return {"error": f"Failed to get run: {e}"}` around
`client.read_run(UUID(run_id))`: the text told the model either that its id is no UUID
("badly formed hexadecimal UUID string") or the service's reason. The fix drops the text; the
argument's value echoed back does not say which. What a maintainer writes, without reordering
the author's code, is a clause for the parse's ValueError before the broad one, saying the
argument is malformed and what it must look like:

    except ValueError as e:
        raise ToolError("Invalid run_id: expected a UUID") from e

Only where nothing else in the `try` can raise a ValueError: exactly one parse of one argument,
no call of the project (its own ValueError sentences must reach the model: the pass-through
keeps them), no other library call the tables say raises one (`json.loads`, `.json()`), no
earlier clause taking ValueError.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection

import libcst as cst

from mcp_lint.model.exception_guards import Handler
from mcp_lint.model.facts import CallFact, FunctionFacts
from mcp_lint.model.library_tables import LIBRARY_ERROR_BASES, RAISES_BY_METHOD
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.exception_text import project_call
from mcp_lint.rules.failure_words import bound_in
from mcp_lint.rules.http_status import catches_only_broad
from mcp_lint.rules.mcp002_own_advice import library_raises
from mcp_lint.rules.plain_raises import builtin_bases

# What each parser of a text expects, said to the model: by the resolved name, or for a builtin
# (whose call graph name is module-local) by the name written.
_EXPECTED = {
    "uuid.UUID": "a UUID",
    "int": "an integer",
    "float": "a number",
    "datetime.datetime.fromisoformat": "an ISO 8601 date and time",
    "datetime.fromisoformat": "an ISO 8601 date and time",
    "datetime.date.fromisoformat": "an ISO 8601 date (YYYY-MM-DD)",
    "date.fromisoformat": "an ISO 8601 date (YYYY-MM-DD)",
}
_BUILTIN_PARSERS = frozenset({"int", "float"})


@dataclass(frozen=True)
class ParseClause:
    parameter: str  # the argument parsed
    expected: str  # what it must look like ("a UUID")


def parse_clause(fn: FunctionFacts, handler: Handler, calls: list[CallFact], ctx: FileContext) -> ParseClause | None:
    """The clause to put before the broad `handler` (`except Exception as e`) whose `try` body
    (`calls`, every call in it) parses one of the function's parameters, passed as is and never
    rebound, beside calls none of which can raise a ValueError by the library tables; None
    otherwise."""
    if not handler.name or not catches_only_broad(handler.caught):
        return None
    own = ctx.model.functions
    parses: list[tuple[CallFact, str]] = []
    for call in calls:
        expected = _expected(call, own)
        if expected is not None:
            parses.append((call, expected))
        elif (call.callee or "") in own or project_call(call.node, ctx) or _raises_value_error(call):
            # The project's code (its own ValueError sentences go through a pass-through), or a
            # library call whose ValueError the new clause would misname.
            return None
    if len(parses) != 1:
        return None
    call, expected = parses[0]
    args = [arg for arg in call.node.args if arg.keyword is None and not arg.star]
    if len(args) != 1 or len(call.node.args) != 1 or type(args[0].value) is not cst.Name:
        return None
    parameter = args[0].value.value
    if parameter not in fn.params or parameter in bound_in(fn.node.body):
        return None
    return ParseClause(parameter, expected)


def _raises_value_error(call: CallFact) -> bool:
    func = call.node.func
    method = func.attr.value if type(func) is cst.Attribute else ""
    raised = library_raises(call.callee or "") | RAISES_BY_METHOD.get(method, frozenset())
    return any("ValueError" in builtin_bases(LIBRARY_ERROR_BASES.get(name, name)) for name in raised)


def _expected(call: CallFact, own: Collection[str]) -> str | None:
    func = call.node.func
    if type(func) is cst.Name and func.value in _BUILTIN_PARSERS and (call.callee or "") not in own:
        return _EXPECTED[func.value]
    return _EXPECTED.get(call.callee or "")
