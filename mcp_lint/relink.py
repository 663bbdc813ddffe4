"""Re-linking one changed file without re-linking the whole project (the `--fix` loop).

The fix loop lints each fixed file's text again after every pass of its fixes. Linking it with
every module of the project makes `--fix` quadratic in the project's size; the findings of one file
depend only on the modules whose tools can reach it and on what those tools and the file reach in
turn. That scope is found the way a check of one named file finds its project context (pipeline.py):
the modules that may import the file, directly or through others (prefilter.importers), then, round
after round, the modules defining what the link step of the scope looks for in vain
(prefilter.NextFiles), until it asks for nothing new. The link step then runs on the scope alone,
in project order, so each name resolves as it does with every module present.

The index of who imports whom is read once from the texts; a fixed file's entry is replaced when
its new text is kept.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from mcp_lint.config import SettingsResolver
from mcp_lint.fileio import SourceFile
from mcp_lint.findings import Finding
from mcp_lint.module_names import ModuleName
from mcp_lint.per_file import FileOutcome, analyze_text
from mcp_lint.pins import PinLookup
from mcp_lint.prefilter import ImportIndex, NextFiles

# Tests set it to compare with the reference: every file re-linked with the whole project.
WHOLE_PROJECT = False


@dataclass
class _Item:
    """What prefilter.NextFiles reads of a file: its module name, its text as UTF-8, its source."""

    module: ModuleName
    data: bytes
    source: SourceFile | None


class Relinker:
    """Findings of a file of `outcomes` for a new text, linked against the modules they depend on."""

    def __init__(self, outcomes: list[FileOutcome], resolver: SettingsResolver, pins: PinLookup) -> None:
        self.outcomes = outcomes  # the caller's list: replace() keeps it current
        self.resolver = resolver
        self.pins = pins
        self.items = [_item(outcome) for outcome in outcomes]
        self.next_files = NextFiles(self.items)  # type: ignore[arg-type]
        self.imports = ImportIndex([item.data for item in self.items], [item.module for item in self.items])

    def findings(self, index: int, text: str) -> tuple[list[Finding], FileOutcome]:
        """The findings of file `index` were its text `text`, and its new outcome."""
        from mcp_lint.pipeline import link

        old = self.outcomes[index]
        source = SourceFile(text, old.source.encoding if old.source else "utf-8", old.source.newline if old.source else "\n")
        new = analyze_text(source, Path(old.display), old.display, copies=old.summary.framework_copies if old.summary else ())
        replaced = list(self.outcomes)
        replaced[index] = new
        scope = self._scope(index, replaced)
        findings, _ = link([replaced[i] for i in scope], self.resolver, self.pins)
        return [f for f in findings if f.filename == old.display], new

    def replace(self, index: int, outcome: FileOutcome) -> None:
        """Keep `outcome` (a fixed text's) for file `index`."""
        self.outcomes[index] = outcome
        item = _item(outcome)
        self.items[index] = item
        self.next_files.items = self.items
        self.imports.replace(index, item.data, item.module)

    def _scope(self, index: int, outcomes: Sequence[FileOutcome]) -> list[int]:
        """The files whose summaries the findings of file `index` can depend on, in project order."""
        if WHOLE_PROJECT:
            return list(range(len(outcomes)))
        from mcp_lint.prefilter import wanted_names

        scope = self.imports.importers({index}) | self._same_names(index)
        while True:
            summaries = [outcomes[i].summary for i in sorted(scope) if outcomes[i].summary is not None]
            wanted = wanted_names(summaries)
            if wanted is None:  # the link step fails: the real one, on everything, reports it
                return list(range(len(outcomes)))
            done = {i: outcomes[i] for i in range(len(outcomes))}
            asked = {i for name in wanted for i in self.next_files._defining_files(name, done) if i not in scope}
            asked |= self.next_files._calling_files(summaries, scope)
            if not asked:
                return sorted(scope)
            for added in asked:
                scope |= self._same_names(added)

    def _same_names(self, index: int) -> set[int]:
        """The files of the same module name as file `index` (the link step keeps the first)."""
        item = self.items[index]
        same = set(self.next_files.by_name.get(item.module.dotted, ()))
        if item.module.alias:
            same |= set(self.next_files.by_name.get(item.module.alias, ()))
        return same | {index}


def _item(outcome: FileOutcome) -> _Item:
    summary = outcome.summary
    data = outcome.source.text.encode("utf-8", "surrogatepass") if outcome.source is not None else b""
    if summary is None:  # unparsable or unread: named by its path, defines nothing
        stem = os.path.splitext(os.path.basename(outcome.display))[0]
        return _Item(ModuleName(stem, False), data, outcome.source)
    # A package's `__init__.py` resolves `from .x import y` inside itself, not beside it: without
    # the flag the index missed every module importing through a package's re-exports, and a
    # helper's findings lost the tools that reach it (so --fix/--diff dropped them).
    package = os.path.basename(outcome.display) == "__init__.py"
    return _Item(ModuleName(summary.module, package, summary.module_alias or ""), data, outcome.source)
