"""What a function may let escape, one way at a time (`Exit`): the picklable record per function
and per `try` body that model.escapes builds from the CST and composes across modules at link
time. Apart from the code that builds and reads it, so that the summaries and the `except` clause
records can name it without importing that code.
"""

from __future__ import annotations

from dataclasses import dataclass

# Whose text an escaping exception carries: the author's own raise, a library's, a library
# parser's about what the caller passed, or unknown (a call nobody can follow).
AUTHOR, LIBRARY, PARAMETER, UNKNOWN = "author", "library", "parameter", "unknown"
# The author's raise of a builtin class built from a caught foreign exception's text (`raise
# ValueError(f"lookup failed: {e}")`): library text, taken in at that raise, which is the flow's
# finding; a clause that catches it further up only passes it on.
CARRIED = "carried"
CALL = "call"  # an Exit that is a call of project code: what it lets escape is the callee's


@dataclass(frozen=True)
class Exit:
    """One way an exception may leave a function (or a `try` body)."""

    kind: str  # AUTHOR, LIBRARY, CARRIED, PARAMETER, UNKNOWN, or CALL
    # AUTHOR/LIBRARY/CARRIED/PARAMETER: the class and its builtin bases by short name; "*" any class.
    classes: frozenset[str] = frozenset({"*"})
    callee: str = ""  # CALL: the callee as CallEdge.callee names it
    # CALL: every argument is one of the function's parameters (a parser error inside is about
    # what the function's own caller passed).
    passes_parameters: bool = False
    # CALL: called with no arguments (`get_policy()`, `get_client()`): the same set-up for every
    # call, whose own file reads (a settings file) are no file the caller asked about.
    given_nothing: bool = False
    # The `try` statements around it in the function (exception_guards.TryGuard).
    guards: tuple[tuple[tuple[frozenset[str], bool, str], ...], ...] = ()
