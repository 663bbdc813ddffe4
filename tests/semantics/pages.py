"""The runnable examples of the rule pages: blocks with `<!-- call: ... -->` options (README.md).

Every page under rules/ is read, so a new rule's page joins the suite by annotating its blocks.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from mcp_lint.registry import RULES

from .venvs import RELEASES, Release, release, split_requirement

_EXPECT = re.compile(r"^(?P<kind>tool-error|success|protocol-error)(?:\s+(?P<code>-?\d+))?(?:\s+(?P<text>\".*\"))?$")


@dataclass(frozen=True)
class Expect:
    """What the client must receive: a result with isError true/false, or a JSON-RPC error."""

    kind: str  # "tool-error" | "success" | "protocol-error"
    code: int | None = None  # the JSON-RPC code, for protocol-error
    text: str | None = None  # must occur in the result's text / the error's message


@dataclass(frozen=True)
class Call:
    tool: str
    arguments: dict
    server: str | None = None  # the variable holding the server, when the example has several
    expect: Expect | None = None

    def describe(self) -> str:
        return f"{self.tool}({json.dumps(self.arguments)})"


@dataclass
class Example:
    """One annotated block of a page and the releases it runs on."""

    block: object  # test_rule_docs.Block
    calls: list[Call]
    releases: list[Release]
    given: str = ""
    env: dict[str, str] = field(default_factory=dict)

    @property
    def code(self) -> str:
        return self.block.code

    @property
    def invalid(self) -> bool:
        """An "Example" block (the rule must fire); the others are "Use instead" (it must not)."""
        return self.block.section == "Example"

    @property
    def id(self) -> str:
        return self.block.id


def parse_call(text: str) -> Call:
    """`tool[@server] {json arguments} [-> tool-error|success|protocol-error [CODE] ["text"]]`."""
    head, _, rest = text.strip().partition(" ")
    tool, _, server = head.partition("@")
    rest = rest.strip() or "{}"
    arguments, end = json.JSONDecoder().raw_decode(rest)
    if not isinstance(arguments, dict):
        raise ValueError(f"call {text!r}: the arguments must be a JSON object")
    tail = rest[end:].strip()
    expect = None
    if tail:
        if not tail.startswith("->"):
            raise ValueError(f"call {text!r}: expected '-> KIND' after the arguments, got {tail!r}")
        match = _EXPECT.match(tail[2:].strip())
        if match is None:
            raise ValueError(f"call {text!r}: the expectation is tool-error|success|protocol-error [CODE] [\"text\"]")
        expect = Expect(
            match.group("kind"),
            int(match.group("code")) if match.group("code") else None,
            json.loads(match.group("text")) if match.group("text") else None,
        )
    return Call(tool, arguments, server or None, expect)


def _releases(options: dict[str, str], where: str) -> list[Release]:
    if "run" in options:
        return [release(pin) for pin in re.split(r"[\s,]+", options["run"].strip()) if pin]
    target = options.get("target")
    if not target:
        raise ValueError(f"{where}: a block with `call:` needs `run:` or `target:` to say which releases it is about")
    chosen = [r for r in RELEASES if r.admitted_by(target)] or _same_series(target)
    if not chosen:
        raise ValueError(f"{where}: no release of the suite satisfies target {target!r} (tests/semantics/venvs.py)")
    return chosen


def _same_series(target: str) -> list[Release]:
    """An exact pin the suite does not install (`fastmcp==4.2.0`) runs on the suite's release of
    the same minor series (4.2.3): the rows, and so the claims, are per series."""
    name, spec = split_requirement(target)
    if not spec.startswith("==") or "*" in spec:
        return []
    series = spec[2:].strip().split(".")[:2]
    return [r for r in RELEASES if r.distribution == name and r.version.split(".")[:2] == series]


def examples() -> list[Example]:
    """Every annotated python block of every rule page and catalogue of shapes."""
    from test_rule_docs import _all_blocks

    found = []
    for block in _all_blocks():  # the pages', then those of the catalogues of shapes (tests/shapes/)
        if block.lang != "python" or "call" not in block.options:
            continue
        where = f"{block.where} line {block.line}"
        calls = [parse_call(line) for line in block.options["call"].splitlines()]
        env = dict(item.split("=", 1) for item in block.options.get("env", "").split())
        found.append(Example(block, calls, _releases(block.options, where), block.options.get("given", ""), env))
    return found
