"""What the object a registration is made on is known to be: a server, certainly not one, or unknown.

The question asked at every registration is "what is the object this is called on?" (`mcp` in
`@mcp.tool()`). The answer is a `Receiver`: a server of a known family, certainly not a server
(`agent = Agent(...)`, a class, a third-party module), or unknown. Unknown receivers that the
linker can still tie to a server of another module become `pending` registrations. Scopes bind
names to receivers, server inference computes them, registrations read them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from mcp_lint.model.frameworks import Family


class Is(enum.Enum):
    SERVER = "server"
    NOT_SERVER = "not-server"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Receiver:
    """What the object a registration is made on is known to be."""

    is_: Is
    family: Family | None = None
    # SERVER: the server variable's qualified name (None for function locals). UNKNOWN: a
    # qualified name the linker can look up among all modules' servers, when there is one.
    key: str | None = None
    # UNKNOWN: an unannotated parameter (function key, parameter name); its callers decide.
    param: tuple[str, str] | None = None


UNKNOWN = Receiver(Is.UNKNOWN)
NOT_SERVER = Receiver(Is.NOT_SERVER)
