"""A failed reply's body handed to a project describer as a parameter (heldout18 form D).

`return describe(resp.status_code, detail)` under `if resp.status_code != 200:`, with `detail`
read from the reply, and `def describe(status, detail): return f"API error ({status}): {detail}"`:
the describer builds the model-facing text, so the flow is reported at the describer's returns
that put that parameter in (LABELING-decisions D1: where the value is built), and the caller's
return is a pass-through. The caller's latent names the call and the argument position
(RawText.handed_body); the describer's names the parameter (RawText.body_given). At link time each
is kept only where the other end agrees: the describer's where some caller hands it a body, the
caller's where the describer does not put that parameter into its text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import libcst as cst

from mcp_lint.model.facts import FunctionFacts
from mcp_lint.model.names import unwrap_await
from mcp_lint.model.summary import Latent, receiver_shift
from mcp_lint.rules.base import FileContext
from mcp_lint.rules.mcp002_payload import raw_text
from mcp_lint.rules.upstream_body import name_read

if TYPE_CHECKING:
    from mcp_lint.project_links import LinkedProject


def handed_body(value: cst.BaseExpression, carries_body: Callable[[cst.BaseExpression], bool], ctx: FileContext) -> tuple[int, int, int] | None:
    """(row, column, position) when the returned `value` is a call whose one positional argument
    carries the body and no other argument does; None otherwise (the body is put into the text
    here, or handed on mixed with other words)."""
    call = unwrap_await(value)
    if type(call) is not cst.Call:
        return None
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if len(positional) != len(call.args):
        return None
    carrying = [i for i, a in enumerate(positional) if carries_body(a.value)]
    if len(carrying) != 1 or _worded_here(positional[carrying[0]].value):
        return None  # `_failure(f"API returned {status}: {resp.text}")`: the caller wrote the words
    start = ctx.range(call).start
    return (start.line, start.column + 1, carrying[0])


def _worded_here(value: cst.BaseExpression) -> bool:
    """The argument is text the caller puts together itself (an f-string, a concatenation, a
    `.format`/`.join`): the caller builds the failure text, the callee only wraps it (D1)."""
    if type(value) in (cst.FormattedString, cst.ConcatenatedString, cst.BinaryOperation, cst.SimpleString):
        return True
    return type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in {"format", "join"}


def given_body_read(value: cst.BaseExpression, param: str, fn: FunctionFacts, ctx: FileContext) -> cst.Name | None:
    """Where a return of a describer puts its parameter `param` into new text (`f"...{detail}"`,
    `data.get("detail")` in an f-string, through locals): not a return of the parameter as it is."""
    if type(value) is cst.Name:
        return None
    return name_read(value, param, fn, ctx)


def _edge_at(caller: str, handed: tuple[int, int, int], project: LinkedProject):
    """The call edge of `caller` at the call a handed body names, with its callee's summary."""
    row, column, _ = handed
    for edge in project.functions[caller][1].calls:
        if edge.at is not None and edge.at[0].row == row and edge.at[0].column == column:
            targets = project.call_targets(caller, edge)
            if targets:
                return edge, targets[0][1]
    return None


def reported_by_describer(latent: Latent, function: str, project: LinkedProject) -> bool:
    """Does the project function the caller's returned call hands the body to put that parameter
    (or a field of it) into its own text (a latent on that parameter): the flow is reported there."""
    handed = raw_text(latent).handed_body
    if handed is None:
        return False
    found = _edge_at(function, handed, project)
    if found is None:
        return False
    edge, callee = found
    index = handed[2] + receiver_shift(edge.via_attribute, callee.params)
    return any(
        other.code == latent.code and raw_text(other).body_param == index and not raw_text(other).factory
        for other in callee.latent
    )


def handed_by_a_caller(latent: Latent, function: str, project: LinkedProject) -> bool:
    """Does some caller hand the describer a failed reply's body at the latent's parameter?"""
    index = raw_text(latent).body_param
    for caller, edge in project.callers_of(function):
        shift = receiver_shift(edge.via_attribute, project.functions[function][1].params)
        for other in project.functions[caller][1].latent:
            handed = raw_text(other).handed_body if other.code == latent.code else None
            if handed is None or edge.at is None or (edge.at[0].row, edge.at[0].column) != handed[:2]:
                continue
            if handed[2] + shift == index:
                return True
    return False
