"""MCP011's record of a latent finding (its typed payload), read by the rule's render and link."""

from __future__ import annotations

from dataclasses import dataclass

from mcp_lint.model.summary import Latent, Payload


@dataclass(frozen=True)
class UncertainWrite(Payload):
    """A write whose outcome is unknown, and what invites or makes its repetition; also the
    marker of a function that writes (`write` alone), for a server that retries whole calls."""

    write: str  # what the write does, as the message says it ("sends a POST request")
    cause: str = ""  # the failure that leaves its outcome unknown ("a timeout", "an `except X`")
    invitation: str = ""  # the retry invitation's words, for a message that invites one
    rerun: str = ""  # what runs the write again ("the loop around it runs it again"), for a re-run
    write_at: str = ""  # where the write is (base.span), "" when it is the flagged statement
    # A request whose verb its callers in other modules choose: the request helper (qualified)
    # and its method parameter (position, self not counted, and name); the write is decided when
    # the finding is rendered, from those modules' records.
    asked_by: str = ""
    asked_position: int = -1
    asked_keyword: str = ""


def uncertain_write(latent: Latent) -> UncertainWrite:
    """The latent's payload: every latent of the rule but a passes-on marker records one."""
    assert isinstance(latent.payload, UncertainWrite)
    return latent.payload
