"""A project kept in memory between lints of unsaved buffers: what an editor needs (`mcp-lint server`).

`mcp-lint check FILE` lints a file in its project (runner._with_project_context): the project's
other files are its context, the prefilter picks the tool modules that may import it, and the link
step asks round after round for the modules it misses. An editor asks the same question at every
pause in typing, with the file's text unsaved, so `LiveProject` keeps between two lints what the
second can reuse:

* the per-file results of every file analysed so far, in memory, by content (`_MemoryCache`): an
  edit re-analyses the changed file only, and nothing is unpickled from the disk cache twice (the
  disk cache still fills the memory on the first lint of a session);
* the files the last lint analysed: the next one starts from all of them, so the link step, run
  once with a `missing` callback, usually asks for nothing new, instead of the prefilter's rounds
  each tracing the tools again (prefilter.NextFiles; a superset of the files it picks changes no
  finding);
* the file list of the project, until the editor says files were created or deleted
  (`forget_files`), and each file's text, digest and import words while its stat signature (or
  its buffer's text) stays the same.

Only the tools of the modules that may import a reported file are traced (the link step's
`tools_from`): no other tool can reach it, as for the prefilter's seeds. The findings are those
`mcp-lint check FILE` reports for the same texts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Mapping, Sequence

from mcp_lint.fileio import SourceFile, dominant_newline
from mcp_lint.findings import Finding
from mcp_lint.module_names import module_names
from mcp_lint.per_file import FileInput, FileOutcome, describe_exception, display_name, read_inputs, unreadable

if TYPE_CHECKING:
    from mcp_lint.cache import Cache
    from mcp_lint.config import SettingsResolver
    from mcp_lint.inventory import ServerTools
    from mcp_lint.linking.names import Lookup
    from mcp_lint.model.summary import ModuleSummary
    from mcp_lint.project_links import Project

__all__ = ["LiveProject"]

# How often one lint may go back for files the link step missed before it analyses everything.
_MAX_ROUNDS = 20


class _MemoryCache:
    """Per-file results by cache key, in memory, in front of the disk cache (when there is one).

    One entry per file (display name): the result for an older text of a file is dropped when a
    newer one is stored, so typing does not grow the memory. Results are written to disk for texts
    that are saved, not for every keystroke's unsaved text (`unsaved`).
    """

    def __init__(self, disk: Cache | None) -> None:
        self.disk = disk
        self.unsaved: set[str] = set()  # keys of texts not saved: kept in memory only
        self._by_key: dict[str, tuple[Any, Any]] = {}
        self._key_of: dict[str, str] = {}  # display name -> its current key

    def remember(self, key: str, display: str, value: tuple[Any, Any]) -> None:
        old = self._key_of.get(display)
        if old is not None and old != key:
            self._by_key.pop(old, None)
        self._key_of[display] = key
        self._by_key[key] = value

    def load_file(self, key: str) -> tuple[Any, Any] | None:
        found = self._by_key.get(key)
        if found is None and self.disk is not None:
            found = self.disk.load_file(key)
        return found

    def store_file(self, key: str, summary: Any, problem: Any) -> None:
        if self.disk is not None and key not in self.unsaved:
            self.disk.store_file(key, summary, problem)


class LiveProject:
    """The files of one project (`root`), linted with some of their texts replaced by buffers."""

    def __init__(self, root: Path, resolver: SettingsResolver, *, cache: Cache | None = None, jobs: int = 1) -> None:
        from mcp_lint.pins import PinSource

        self.root = root
        self.resolver = resolver
        self.pins = PinSource(resolver)
        self.jobs = jobs
        self.memory = _MemoryCache(cache)
        self.errors: list[str] = []  # internal errors of the last lint
        # Why the last lint left tool registrations of its reported files unchecked (one line
        # each, as `mcp-lint check` warns: linking/unrecognised.py), unless `require-tools = false`.
        self.unchecked: list[str] = []
        self._unrecognised: list[ServerTools] = []  # the last link step's unrecognised modules
        self._linked: Project | None = None  # the last link step (its servers, for _empty_servers)
        # The servers a whole-project link found without a tool, with the summaries it linked:
        # asked again only when a summary changed (_empty_servers).
        self._empty: tuple[tuple[ModuleSummary, ...], list[ServerTools]] = ((), [])
        self._files: list[Path] | None = None
        self._needed: set[str] = set()  # absolute paths the last lint analysed
        self._raw: list[Finding] = []  # what the last link step found, before suppression
        self._inputs: dict[str, tuple[object, FileInput]] = {}  # absolute path -> (signature, input)
        self._imported: dict[str, tuple[FileInput, set[str]]] = {}  # absolute path -> (input, its imported modules)
        self._buffers: set[str] = set()  # absolute paths of the texts the last lint took from buffers
        self._names: list = []
        self._names_for: object = None
        self._codes: frozenset[str] | None = None  # the rules the last lint ran
        self._link_error: str | None = None

    def reconfigure(self, resolver: SettingsResolver) -> None:
        """New settings (a changed pyproject.toml, the editor's settings). The analyses in memory
        stay: settings act in the link step only. Files are discovered again (`exclude`)."""
        from mcp_lint.pins import PinSource

        self.resolver = resolver
        self.pins = PinSource(resolver)
        self._files = None

    # -- the project's files --------------------------------------------------------------------
    def files(self) -> list[Path]:
        """The project's files (discovered once, until `forget_files`)."""
        if self._files is None:
            from mcp_lint.discovery import discover

            found = discover([self.root], self.resolver)
            broken = getattr(self.resolver, "is_broken", None)
            self._files = [path for path in found if broken is None or not broken(path)]
        return self._files

    def forget_files(self) -> None:
        """Files were created, deleted or renamed: discover them again at the next lint."""
        self._files = None

    # -- linting ----------------------------------------------------------------------------
    def lint(self, reported: Sequence[Path], buffers: Mapping[str, str] | None = None) -> list[Finding]:
        """The findings in `reported`, with the texts of `buffers` (absolute path -> text) in
        place of those on disk; the project's other files are their context."""
        from mcp_lint.inventory import unchecked_lines

        reported = self._lintable(reported)
        self.unchecked = []
        if not reported:
            return []
        files, reported = self._with_reported(reported)
        inputs = self._read(files, buffers or {})
        outcomes = self._analyse(inputs, reported)
        findings = self._suppressed(outcomes)
        shown = {display_name(path): path for path in reported}
        empty = self._empty_servers(inputs, outcomes, set(shown))
        self.unchecked = unchecked_lines([*self._unrecognised, *empty], shown, self.resolver)
        return [finding for finding in findings if finding.filename in shown]

    @property
    def linted(self) -> bool:
        """Whether a lint ran: the analyses it needed are in memory (the next lint is an edit's)."""
        return bool(self._needed)

    def lint_alone(self, reported: Sequence[Path], buffers: Mapping[str, str] | None = None) -> list[Finding]:
        """The findings in `reported` with only those files analysed and linked: the first
        answer an editor shows while the project is read (`lint` then reports what the rest of
        the project changes). Their analyses stay in memory for `lint` to reuse."""
        from mcp_lint.pipeline import enabled_rules
        from mcp_lint.scheduler import Analyzer

        reported = self._lintable(reported)
        if not reported:
            return []
        files, reported = self._with_reported(reported)
        inputs = self._read(files, buffers or {})
        codes = self._codes = enabled_rules([item.path for item in inputs], self.resolver)
        self._keep_unsaved_in_memory(inputs, codes)
        shown = {os.path.abspath(path) for path in reported}
        targets = [i for i, item in enumerate(inputs) if os.path.abspath(item.path) in shown]
        unreadable_files = {
            i: FileOutcome(inputs[i].display, problem=unreadable(inputs[i].display, inputs[i].error))
            for i in targets
            if inputs[i].error is not None
        }
        analyzer = Analyzer(inputs, 1, self.memory, codes, unreadable_files)
        done: dict[int, FileOutcome] = {}
        try:
            analyzer.submit(targets)
            while analyzer.pending():
                for index, outcome in analyzer.collect():
                    done[index] = outcome
                    self._remember(inputs[index], outcome)
        finally:
            analyzer.close()
        outcomes = [done[i] for i in sorted(done)]
        self._link_summaries(outcomes, {inputs[i].module.dotted for i in targets})
        names = {display_name(path) for path in reported}
        return [finding for finding in self._suppressed(outcomes) if finding.filename in names]

    def _lintable(self, reported: Sequence[Path]) -> list[Path]:
        """As for `mcp-lint check`, a file whose pyproject.toml is broken is not linted (the
        resolver has the error)."""
        broken = getattr(self.resolver, "is_broken", None)
        return [path for path in reported if broken is None or not broken(path)]

    def _keep_unsaved_in_memory(self, inputs: Sequence[FileInput], codes: frozenset[str] | None) -> None:
        """An unsaved text's analysis stays in memory: the disk cache keeps texts that were saved."""
        from mcp_lint.cache import file_key

        self.memory.unsaved = {file_key(item, codes) for item in inputs if item.source is not None and os.path.abspath(item.path) in self._buffers}

    def _read(self, files: Sequence[Path], buffers: Mapping[str, str]) -> list[FileInput]:
        """The files' inputs: a buffer's text, else the file on disk. An input is kept while its
        text (a buffer's) or its stat signature (a file's) stays the same, so its digest and
        import words are not computed again."""
        if self._names_for is not files:
            self._names = module_names(files)
            self._names_for = files
        self._buffers = set(buffers)
        inputs: list[FileInput] = []
        kept: dict[str, tuple[object, FileInput]] = {}
        for path, module in zip(files, self._names):
            key = os.path.abspath(path)
            text = buffers.get(key)
            if text is not None:
                signature: object = ("buffer", text)
            else:
                try:
                    stat = os.stat(path)
                    signature = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
                except OSError:
                    signature = None
            previous = self._inputs.get(key)
            if previous is not None and signature is not None and previous[0] == signature and previous[1].module == module:
                item = previous[1]
            elif text is not None:
                item = FileInput(path, display_name(path), module, SourceFile(text, "utf-8", dominant_newline(text)), size=len(text))
            else:
                [item] = read_inputs([path], [module])
            if signature is not None:
                kept[key] = (signature, item)
            inputs.append(item)
        self._inputs = kept
        return inputs

    def _imported_modules(self, item: FileInput) -> set[str]:
        from mcp_lint.prefilter import imported_modules

        key = os.path.abspath(item.path)
        known = self._imported.get(key)
        if known is None or known[0] is not item:
            known = self._imported[key] = (item, imported_modules(item.data, item.module))
        return known[1]

    def _with_reported(self, reported: Sequence[Path]) -> tuple[list[Path], list[Path]]:
        """The files to lint (the project's and the reported ones, which are always linted, as
        files named on the command line are), and the reported ones spelled as the project
        spells them (findings name files by that spelling)."""
        files = list(self.files())
        known = {os.path.abspath(path): path for path in files}
        extra = [path for path in reported if os.path.abspath(path) not in known]
        spelled = [known.get(os.path.abspath(path), path) for path in reported]
        return (sorted(files + extra, key=lambda path: path.parts) if extra else files), spelled

    def _analyse(self, inputs: Sequence[FileInput], reported: Sequence[Path]) -> list[FileOutcome]:
        """Analyse what the last lint analysed, the reported files and the seeds that may import
        them, then whatever the link step asks for, until it asks for nothing new. Leaves the
        link step's findings for exactly the outcomes returned in `_raw`."""
        from mcp_lint.prefilter import NextFiles, importers, is_seed
        from mcp_lint.pipeline import enabled_rules
        from mcp_lint.scheduler import Analyzer

        # The rules `mcp-lint check` would run: the same per-file results, in the cache too.
        codes = self._codes = enabled_rules([item.path for item in inputs], self.resolver)

        unreadable_files = {
            index: FileOutcome(item.display, problem=unreadable(item.display, item.error))
            for index, item in enumerate(inputs)
            if item.error is not None
        }
        self._keep_unsaved_in_memory(inputs, codes)
        shown = {os.path.abspath(path) for path in reported}
        targets = [i for i, item in enumerate(inputs) if os.path.abspath(item.path) in shown]
        imported = [self._imported_modules(item) for item in inputs]
        # Only the modules that may import a reported file have tools that can reach it.
        reaching = importers([item.data for item in inputs], [item.module for item in inputs], targets, imported)
        tools_from = {inputs[i].module.dotted for i in reaching}
        asked = set(targets) | {i for i in reaching if inputs[i].error is None and is_seed(inputs[i].data)}
        asked |= {i for i, item in enumerate(inputs) if os.path.abspath(item.path) in self._needed and item.error is None}
        analyzer = Analyzer(inputs, self.jobs, self.memory, codes, unreadable_files)
        next_files = NextFiles(inputs)
        done: dict[int, FileOutcome] = {}
        submitted: set[int] = set()
        try:
            for round_number in range(_MAX_ROUNDS + 1):
                if round_number == _MAX_ROUNDS:  # the link step keeps asking: give it everything
                    asked = set(range(len(inputs))) - submitted
                submitted |= asked
                analyzer.submit(sorted(asked))
                while analyzer.pending():
                    for index, outcome in analyzer.collect():
                        done[index] = outcome
                        self._remember(inputs[index], outcome)
                wanted = self._link_summaries([done[i] for i in sorted(done)], tools_from)
                asked = next_files.asked_for(wanted, done, submitted)
                if not asked:
                    break
        finally:
            analyzer.close()
        done.update(unreadable_files)
        self._needed = {os.path.abspath(inputs[i].path) for i in done}
        return [done[i] for i in sorted(done)]

    def _remember(self, item: FileInput, outcome: FileOutcome) -> None:
        from mcp_lint.cache import file_key

        if outcome.internal_error is None and item.source is not None:
            self.memory.remember(file_key(item, self._codes), item.display, (outcome.summary, outcome.problem))

    def _link_summaries(self, outcomes: Sequence[FileOutcome], tools_from: Collection[str]) -> set[str] | None:
        """Run the link step on the outcomes' summaries, keeping its findings for `_suppressed`,
        and return the names it looked for in vain that may change a finding
        (prefilter.wanted_from); None when it failed."""
        from mcp_lint.prefilter import wanted_from
        from mcp_lint.project_links import Project

        looked_for: dict[str, set[Lookup]] = {}

        def missing(qualname: str, lookup: Lookup) -> None:
            looked_for.setdefault(qualname, set()).add(lookup)

        from mcp_lint.linking.unrecognised import unrecognised_servers

        summaries = [o.summary for o in outcomes if o.summary is not None]
        try:
            project = Project(summaries, self.pins, missing, tools_from)
            self._raw = project.findings()
            self._unrecognised = unrecognised_servers(project)
            self._linked = project
        except Exception as exc:  # noqa: BLE001 - reported as pipeline.link reports it
            self._raw = []
            self._unrecognised = []
            self._linked = None
            self._link_error = f"internal error while linking the project: {describe_exception(exc)}"
            return None
        self._link_error = None
        return wanted_from(looked_for)

    def _empty_servers(self, inputs: Sequence[FileInput], outcomes: Sequence[FileOutcome], shown: set[str]) -> list[ServerTools]:
        """The servers of the reported files with no tool, as `mcp-lint check` warns of them
        (linking/unrecognised.empty_servers). The last link traced only the tools of the modules
        that may import a reported file, so a server whose tools are registered elsewhere (a
        register function of a module that does not import it) looks empty there: a server
        empty there is asked about again over the whole project, every file analysed (from
        memory after the first time), which only a server that looks empty costs."""
        from mcp_lint.linking.unrecognised import empty_servers
        from mcp_lint.project_links import Project
        from mcp_lint.scheduler import Analyzer

        project = self._linked
        if project is None or not any(entry.path in shown for entry in empty_servers(project, project.inventory())):
            return []
        summaries = [o.summary for o in outcomes if o.summary is not None]
        rest = [i for i, item in enumerate(inputs) if item.error is None and os.path.abspath(item.path) not in self._needed]
        if rest:
            analyzer = Analyzer(inputs, self.jobs, self.memory, self._codes, {})
            try:
                analyzer.submit(rest)
                while analyzer.pending():
                    for index, outcome in analyzer.collect():
                        self._remember(inputs[index], outcome)
                        if outcome.summary is not None:
                            summaries.append(outcome.summary)
            finally:
                analyzer.close()
        key = tuple(sorted(summaries, key=id))
        if len(key) != len(self._empty[0]) or any(a is not b for a, b in zip(key, self._empty[0])):
            try:
                whole = Project(summaries, self.pins)
                self._empty = (key, empty_servers(whole, whole.inventory()))
            except Exception:  # noqa: BLE001 - the link step's own errors are reported by _link_summaries
                self._empty = (key, [])
        return [entry for entry in self._empty[1] if entry.path in shown]

    def _suppressed(self, outcomes: Sequence[FileOutcome]) -> list[Finding]:
        """The findings of the last link with the problems of unreadable files, filtered by the
        settings and `# noqa` (as pipeline.link does); internal errors go to `errors`."""
        from mcp_lint.suppression import suppress

        self.errors = ([self._link_error] if self._link_error else []) + [o.internal_error for o in outcomes if o.internal_error]
        found = list(self._raw)
        found.extend(o.problem for o in outcomes if o.problem is not None)
        return suppress(found, outcomes, self.resolver)
