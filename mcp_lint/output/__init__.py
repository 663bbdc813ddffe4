"""Report writers: one module per output format, imported only when that format is asked for.

Each format module exposes ``write(findings, out, options)``. Importing lazily keeps the cheap
formats cheap: `json`, `sarif` and the CI formats never pay for importing rich.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence, TextIO

if TYPE_CHECKING:
    from mcp_lint.findings import Finding

FORMATS = ("full", "concise", "json", "json-lines", "sarif", "github", "gitlab", "junit")


@dataclass(frozen=True)
class ReportOptions:
    """What a writer may need beyond the findings; most formats use none of it."""

    read_source: Callable[[str], str | None]
    color: bool = False
    # Mark fixable findings with `[*]`; pointless once `--fix` has applied the safe fixes.
    show_fixes_hint: bool = True
    # Whether the run has `--unsafe-fixes`: then `--fix` applies unsafe fixes too, and `[*]`
    # marks them as well (as ruff does).
    unsafe_fixes: bool = False
    # The findings `--fix` makes go under these flags (by id; mended.py), those that another
    # finding's fix mends included: what `[*]` marks, and what the summary counts.
    mended: frozenset[int] = frozenset()


def write_report(
    findings: Sequence[Finding],
    fmt: str,
    out: TextIO,
    *,
    read_source: Callable[[str], str | None],
    color: bool = False,
    show_fixes_hint: bool = True,
    unsafe_fixes: bool = False,
) -> None:
    """Write ``findings`` (already sorted and filtered) to ``out`` in the format ``fmt``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format {fmt!r}; expected one of: {', '.join(FORMATS)}")
    from mcp_lint.mended import mended

    writer = importlib.import_module(f"{__name__}.{fmt.replace('-', '_')}")
    fixed = frozenset(id(finding) for finding in mended(findings, unsafe_fixes)) if show_fixes_hint else frozenset()
    writer.write(findings, out, ReportOptions(read_source, color, show_fixes_hint, unsafe_fixes, fixed))


def relative_posix_path(filename: str) -> str:
    """``filename`` relative to the working directory, with forward slashes.

    CI systems (SARIF viewers, GitLab, GitHub) resolve paths against the checkout root, which is
    where the linter runs; a path on another drive (Windows) cannot be made relative and stays
    absolute.
    """
    absolute = os.path.abspath(filename)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:
        relative = absolute
    return relative.replace(os.sep, "/")


def path_to_uri_reference(filename: str) -> str:
    """A relative URI reference for ``filename`` (percent-encoded, forward slashes)."""
    from urllib.parse import (
        quote,  # urllib imports ipaddress: only formats with URIs pay
    )

    return quote(relative_posix_path(filename))


def is_fixable(finding: Finding, options: ReportOptions) -> bool:
    """Whether `--fix` with this run's flags fixes this finding: what the `[*]` marker promises
    (unsafe fixes count under `--unsafe-fixes`; display-only fixes never; a finding that another
    finding's fix mends counts too, as the summary counts it)."""
    return id(finding) in options.mended


def finding_help(finding: Finding) -> str:
    """The fix in one line (`help:`): the finding's own `help`, else the title of its fix."""
    if finding.help:
        return finding.help
    return finding.fix.message if finding.fix is not None else ""
