"""The framework releases the semantics suite runs, each in a cached virtualenv of its own.

The venvs are built by the probe tests' builder (``tests/probe/venvs.py``: once per machine under
``~/.cache/mcp-lint-tests/venvs``, keyed by the requirement list and the Python version, skipped
when PyPI cannot be reached). One release per behaviour the rules and the framework table name
(mcp-error-semantics.md, "Versions examined"): adding a release here runs every annotated page
example and every framework-row check on it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import Version


@dataclass(frozen=True)
class Release:
    """One framework release of the suite: `fastmcp==4.2.3` (on the mcp its pins pull in)."""

    distribution: str  # "mcp" or "fastmcp"
    version: str
    extra: tuple[str, ...] = ()  # further pins, e.g. the mcp a fastmcp release runs on

    @property
    def pin(self) -> str:
        return f"{self.distribution}=={self.version}"

    @property
    def requirements(self) -> tuple[str, ...]:
        return (self.pin, *self.extra)

    @property
    def venv_name(self) -> str:
        return f"sem-{self.distribution}-{self.version}"

    def admitted_by(self, specifier: str) -> bool:
        """Does a `target`-style requirement (`fastmcp>=4,<5`, `mcp==1.30.0`) admit this release?"""
        name, spec = split_requirement(specifier)
        return name == self.distribution and SpecifierSet(spec).contains(Version(self.version), prereleases=True)


def split_requirement(text: str) -> tuple[str, str]:
    """`fastmcp>=4,<5` -> ("fastmcp", ">=4,<5")."""
    text = text.strip()
    for i, char in enumerate(text):
        if char in "<>=!~ ":
            return text[:i].strip().lower(), text[i:].strip()
    return text.lower(), ""


# At least one release per row of the framework table (mcp_lint/model/frameworks.py), so that every
# row is proven on a real release (tests/semantics/test_conventions.py checks it):
# mcp: 1.6 and 1.9 (early 1.x, the doc's verified releases), 1.18 (last release that serialises a
# returned CallToolResult), 1.25 (UrlElicitationRequiredError's release, inside the 1.19-1.30
# rows), 1.30 (last 1.x), 2.0 (forwards exception text), 2.3 (masks it).
# fastmcp: 2.3 (prefixes like mcp 1.x, no mask setting, no middleware), 2.4 (masks every
# exception), the last release of each later row: 2.7 (FASTMCP_SERVER_ settings, the argument
# wins), 2.8 (both prefixes, argument ORed), 2.9 (ErrorHandlingMiddleware), 2.12 (ToolResult
# without an error flag), 2.13 (raw pydantic text), 2.14 (FASTMCP_ only), 3.3, 3.4 and 4.x.
# fastmcp 2.x/3.x run on mcp 1.x; pinning mcp keeps the venv reproducible: 2.3-2.9 on the mcp
# 1.9.4 of their time (mcp >= 1.10 would answer invalid arguments with its own jsonschema text
# before fastmcp's validation runs; 2.9 requires mcp < 1.10), the later ones on an mcp their
# own pins admit (2.12: < 1.17; 2.13.3: < 1.23; 3.x: >= 1.24).
RELEASES: tuple[Release, ...] = (
    # pydantic as of their release: their func_metadata imports a pydantic internal gone in 2.12
    # (fastmcp 2.3/2.4 carry a copy of it).
    Release("mcp", "1.6.0", ("pydantic==2.11.7",)),
    Release("mcp", "1.9.4", ("pydantic==2.11.7",)),
    Release("mcp", "1.18.0", ("pydantic==2.11.7",)),
    Release("mcp", "1.25.0"),
    Release("mcp", "1.30.0"),
    Release("mcp", "2.0.1"),
    Release("mcp", "2.3.0"),
    Release("fastmcp", "2.3.0", ("mcp==1.9.4", "pydantic==2.11.7")),
    Release("fastmcp", "2.4.0", ("mcp==1.9.4", "pydantic==2.11.7")),
    Release("fastmcp", "2.7.1", ("mcp==1.9.4", "pydantic==2.11.7")),
    Release("fastmcp", "2.8.1", ("mcp==1.9.4", "pydantic==2.11.7")),
    Release("fastmcp", "2.9.2", ("mcp==1.9.4", "pydantic==2.11.7")),
    Release("fastmcp", "2.12.5", ("mcp==1.16.0", "pydantic==2.11.7")),
    Release("fastmcp", "2.13.3", ("mcp==1.22.0", "pydantic==2.11.7")),
    Release("fastmcp", "2.14.7", ("mcp==1.30.0",)),
    Release("fastmcp", "3.3.1", ("mcp==1.25.0",)),
    Release("fastmcp", "3.4.11", ("mcp==1.30.0",)),
    # fastmcp 4 (fastmcp-slim) no longer pulls in httpx, which examples of upstream calls import.
    Release("fastmcp", "4.2.3", ("httpx==0.28.1",)),
)
BY_PIN = {release.pin: release for release in RELEASES}


def release(pin: str) -> Release:
    """The suite release of an exact pin (`mcp==1.30.0`); a KeyError names the ones there are."""
    try:
        return BY_PIN[pin.replace(" ", "")]
    except KeyError:
        raise KeyError(f"{pin!r} is not a release of the semantics suite (tests/semantics/venvs.py): {', '.join(BY_PIN)}") from None


def python_for(rel: Release) -> Path:
    """The venv's interpreter, built on first use (the test skips when PyPI cannot be reached)."""
    from probe.venvs import server_python

    return server_python(rel.venv_name, rel.requirements)
