"""MCP010's record of a latent finding (its typed payload), read by the rule's render."""

from __future__ import annotations

from dataclasses import dataclass

from mcp_lint.model.summary import Latent, Payload
from mcp_lint.model.taint import Pending


@dataclass(frozen=True)
class SensitiveText(Payload):
    """A secret or a detail of the server's own infrastructure put into text the model reads."""

    what: str  # "environment variable 'DB_URL'", "the server's own file path"
    origin: str  # the code that reads the value (clipped)
    origin_at: str  # where (base.span: "row:col:end_row:end_col")
    via: tuple[str, ...] = ()  # the locals it went through, in the order the value went
    caller: str = ""  # the function that read it, when not the flagged one
    configured: bool = False  # a configuration value that is no secret (a status report may show it)
    # A name of another module the value is, and what it must be there: decided at link time
    # from that module's records.
    pending: Pending | None = None
    origin_file: str = ""  # the module the value is read in, when another one (set at link time)
    # Other pending leaks of the same value (each with its own `pending`), tried in order when this
    # one's name carries nothing.
    alternatives: tuple["SensitiveText", ...] = ()
    # Kept in a record attribute of the raised exception (`details`), not in its text: a leak
    # only where a clause catching the class (`classes`: it and its bases, short names) sends
    # that attribute to the model (RecordSent records, decided at link time).
    record: str = ""
    record_classes: tuple[str, ...] = ()
    record_sent_in: str = ""  # the file of such a clause (set at link time)


@dataclass(frozen=True)
class RecordSent:
    """A record of the module (picklable): a clause catching `caught` (short class name) sends
    the caught exception's attribute `attr` to the model (`error_response(exc.code,
    getattr(exc, "details", None))` returned or raised from the clause)."""

    caught: str
    attr: str


def sensitive_text(latent: Latent) -> SensitiveText:
    """The latent's payload: every reported latent of the rule records one."""
    assert isinstance(latent.payload, SensitiveText)
    return latent.payload
