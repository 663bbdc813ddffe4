"""Analyse only the files that can change a finding: tool modules, and what the link step asks for.

Findings are reported only in functions a tool handler reaches, so a directory walk needs the CST
of two kinds of module:

* **seeds**, decided from the text alone before any parse: modules that may register a tool. Every
  registration form the model knows is spelled with one of `x.tool`, `call_tool` (and
  `on_call_tool`), `add_tool`, `"tools/call"`, `tools=` (a server constructor's list),
  `from_function`, `mcp_tool` or `CallToolRequest`; `@mcp.tool` on a server imported from a sibling
  module is one of them too. A module naming `FastMCP` or `MCPServer` is a seed as well: it may
  pass its server to a register function elsewhere (`register_tools(mcp)`), whose registrations
  the link step ties to that call. A module with a `# noqa: MCPxxx` comment is a seed as well, so that
  MCP100 (unused noqa) sees every such comment;
* **modules the link step asks for**: whenever results have come in and a worker is free
  (scheduler.py), the link step traces the tools of the summaries so far, and every qualified name it
  looked up without finding it (a helper a tool calls, a server a tool is registered on, a name
  re-exported by a package) names the module that may define it: its longest dotted prefix that
  is a linted file (the link step looks there and nowhere else; a shorter prefix only if that one
  does not parse). Those are analysed next, until the link step asks for nothing new (`NextFiles`; the
  loop is pipeline.analyze_all).

Why not an import graph from the import lines (reach every module a seed imports, transitively)?
The link step follows calls, not imports: a helper module matters only when a tool calls into it. On
the 31 servers of the benchmark corpus the import closure of the seeds is 79% of all lines, while
the modules the link step asks for come to about 55% (a third before it followed typed
objects: methods of a client returned by an annotated factory pull in its class's modules), with identical
findings. Asking the link step itself also keeps the filter exact as it learns new ways to
resolve names (instances, base classes): whatever it looks up goes through `Project.resolve`,
which tells the `missing` callback this module passes every name it did not find, and what it
was looked for as (`Lookup`). Only the cheap trace (`Project.traced_functions`) runs between
rounds (the rendering of findings looks nothing up); it costs a few tens of milliseconds each time.

Files named on the command line (pre-commit, an editor) are linted in their project: its files
are the context, and only the seeds that may import a named file, directly or through other
files, are started from (`importers`, read from the import statements' text), since no other
tool can reach it. A changed helper deep in a large project thus costs the tool modules above
it, not every tool module of the project.

A file never analysed is still checked for syntax (pipeline._SyntaxChecks, with CPython's parser,
much cheaper than the analysis, in the pool's workers once the link step first asks for nothing
new): a walk reports MCP000 for every file it lints that does not parse or cannot be read. Files
named on the command line are always analysed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.module_names import extends_sys_path, resolve_relative

if TYPE_CHECKING:
    from mcp_lint.model.summary import ModuleSummary
    from mcp_lint.module_names import ModuleName
    from mcp_lint.per_file import FileInput, FileOutcome
    from mcp_lint.linking.names import Lookup

__all__ = ["ImportIndex", "NextFiles", "imported_modules", "importers", "is_seed", "wanted_from", "wanted_names"]

# Every occurrence of "tool" that can be part of a registration; the context is checked in Python
# (a literal-prefixed pattern is several times faster than one alternation over all the forms).
_TOOL = lazy_compile(rb"tool(?:s/call|s\s*=(?!=)|\b)")
_TOOL_PREFIXES = (b".", b"@", b"call_", b"add_", b"mcp_")
_NOQA_MCP = lazy_compile(rb"(?i)noqa\s*:[^\n]*mcp[0-9]")
# Import statements, read from the text: `from X import a, b` (parenthesised over several lines
# too) and `import X.Y as Z, W`. Inside a string they match as well, which only adds importers.
# Anchored on the newline itself, not `^` in MULTILINE mode (the text is searched with a newline
# put before it): a pattern opening with a literal is searched for with a fast scan, one opening
# with `^` is tried at every byte (twice the time over a project's files, which a one-file run
# reads whole as context).
_IMPORT = lazy_compile(
    rb"\n[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]*))"
)
_IDENTIFIER = lazy_compile(rb"\w+")
_ALIAS = lazy_compile(rb"\bas[ \t]+\w+")
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def is_seed(data: bytes) -> bool:
    """Whether a module may register a tool, or holds a `# noqa: MCPxxx` for MCP100.

    `data` is the module's text encoded as UTF-8 (what the cache hashes anyway).
    """
    if b"from_function" in data or b"CallToolRequest" in data:
        return True
    if b"FastMCP" in data or b"MCPServer" in data:
        return True  # makes a server: it may pass it to register functions of other modules
    for match in _TOOL.finditer(data):
        spelled, start = match.group(), match.start()
        if spelled == b"tools/call":
            return True
        if spelled == b"tool":  # `x.tool`, `call_tool`, `add_tool`, `mcp_tool`; not `tool_name`
            if data[max(0, start - 5) : start].endswith(_TOOL_PREFIXES):
                return True
        elif start == 0 or not _is_word(data[start - 1]):  # `tools=[...]`, not `my_tools = []`
            return True
    # Directives are case-insensitive; lowering bytes is cheaper than a case-insensitive search.
    return b"noqa" in data.lower() and _NOQA_MCP.search(data) is not None


def imported_modules(data: bytes, module: ModuleName) -> set[str]:
    """The dotted paths of the modules `data`'s import statements may load, relative imports
    resolved against `module` (the importing file's name): `import a.b.c` gives a, a.b and a.b.c
    (it binds `a`, through which all three are reached); `from a.b import c, d` gives a.b, a.b.c
    and a.b.d (c and d may be submodules).

    Paths rather than bare words: a module named `server` is not imported by
    `from mcp.server import ...`. Whether a path names one of the linted modules is decided by
    `_imports` (one may be a suffix of the other), so that a package layout this module guessed
    differently from the importer's (`sys.path` set otherwise) still matches.
    """
    found: set[str] = set()
    for match in _IMPORT.finditer(b"\n" + data):
        source, names, modules = match.groups()
        if modules:
            for written in _ALIAS.sub(b"", modules).split(b","):
                parts = _IDENTIFIER.findall(written)
                found.update(_text(b".".join(parts[:cut])) for cut in range(1, len(parts) + 1))
            continue
        level = len(source) - len(source.lstrip(b"."))
        base = resolve_relative(module.dotted, module.is_package, level, _text(source[level:]))
        if base:
            found.add(base)
        for name in _IDENTIFIER.findall(_ALIAS.sub(b"", names)):
            found.add(f"{base}.{_text(name)}" if base else _text(name))
    return found


def importers(
    texts: Sequence[bytes], names: Sequence[ModuleName], targets: Iterable[int], imported: Sequence[set[str]] | None = None
) -> set[int]:
    """The files (indexes) that may import one of `targets`, directly or through other files,
    `targets` included: the only modules whose tools can reach a function of a target.

    Read from the import statements' text (imported_modules), linear in the files (an index from
    the last part of each imported path to the files importing it). `imported`: the
    imported_modules of each text, when the caller keeps them between runs.
    """
    return ImportIndex(texts, names, imported).importers(targets)


def _passing_on(summaries: Sequence[ModuleSummary]) -> set[bytes]:
    """The functions whose callers fill an object's table a dispatcher calls through (a registry's
    `self._tools[name] = {"function": func}`, PassedCallables._store_in_object), and those that
    pass their own parameter on to one of them in the same module (`def tool(fn): return
    registry.tool(fn)`), as deep as the linker follows callers (MAX_CALLERS), by the name their
    callers spell: a loader's `tool(obj)` over a module's members holds the tools."""
    from mcp_lint.linking.passed_callables import MAX_CALLERS
    from mcp_lint.model.summary import ARGUMENT_REF

    def function_of(ref: str) -> str:
        return ref[len(ARGUMENT_REF) :].rpartition("#")[0]

    # (module, function): a table of a class (`pkg.app.Registry._tools`), not of a module.
    wanted = {
        (summary.module, function_of(ref))
        for summary in summaries
        for key, table in summary.tables.items()
        if key.rpartition(".")[0] != summary.module
        for row in table.rows
        for part in row.parts
        for ref in part
        if ref.startswith(ARGUMENT_REF)
    }
    if not wanted:
        return set()
    passing = [
        (summary.module, callee, function_of(ref))
        for summary in summaries
        for callee, _, _, named in summary.callable_arguments
        for ref in named
        if ref.startswith(ARGUMENT_REF)
    ]
    for _ in range(MAX_CALLERS):
        ends = {(module, function.rsplit(".", 1)[-1]) for module, function in wanted}
        more = {
            (module, passer)
            for module, callee, passer in passing
            if (module, callee.rsplit(".", 1)[-1]) in ends and callee.startswith(module + ".")
        }
        if more <= wanted:
            break
        wanted |= more
    return {function.rsplit(".", 1)[-1].encode() for _, function in wanted}


class ImportIndex:
    """Who may import whom among a set of files, read from their import statements once (see
    importers); `replace` updates one file's entry (`--fix` re-links a fixed file with the files
    that can change its findings only, not with the whole project: relink.py)."""

    def __init__(self, texts: Sequence[bytes], names: Sequence[ModuleName], imported: Sequence[set[str]] | None = None) -> None:
        self.names = list(names)
        self.imported = list(imported) if imported is not None else [imported_modules(d, n) for d, n in zip(texts, names)]
        # Last part of an imported path -> (importing file, the path).
        self.by_last: dict[str, set[tuple[int, str]]] = {}
        for index, paths in enumerate(self.imported):
            self._index(index, paths)

    def _index(self, index: int, paths: Iterable[str]) -> None:
        for path in paths:
            self.by_last.setdefault(path.rpartition(".")[2], set()).add((index, path))

    def replace(self, index: int, data: bytes, name: ModuleName) -> None:
        """File `index` now reads `data` and is named `name`."""
        for path in self.imported[index]:
            self.by_last[path.rpartition(".")[2]].discard((index, path))
        self.names[index] = name
        self.imported[index] = imported_modules(data, name)
        self._index(index, self.imported[index])

    def importers(self, targets: Iterable[int]) -> set[int]:
        """The files that may import one of `targets`, directly or through other files, `targets` included."""
        found = set(targets)
        queue = list(found)
        while queue:
            for importer in self._direct_importers(queue.pop()):
                if importer not in found:
                    found.add(importer)
                    queue.append(importer)
        return found

    def importers_naming(self, targets: Iterable[int], names: Callable[[int], bool]) -> set[int]:
        """The files that may import one of `targets`, directly or through other files, where the
        file itself or a file between it and the target `names` something (the targets do not count)."""
        seen = {(target, False) for target in targets}
        queue = list(seen)
        found: set[int] = set()
        while queue:
            index, named = queue.pop()
            for importer in self._direct_importers(index):
                state = (importer, named or names(importer))
                if state not in seen:
                    seen.add(state)
                    queue.append(state)
                    if state[1]:
                        found.add(importer)
        return found

    def _direct_importers(self, index: int) -> Iterator[int]:
        """The files whose import statements may load file `index`."""
        module = self.names[index]
        spelled = [name for name in (module.dotted, module.alias) if name]
        if not spelled:
            return
        for importer, path in self.by_last.get(spelled[0].rpartition(".")[2], ()):
            if any(_imports(path, name) for name in spelled):
                yield importer


def _imports(path: str, module: str) -> bool:
    """Whether an import of `path` may load `module`: the same dotted name, or one a suffix of
    the other at a dot (the files' import root may sit above or below where their names put it)."""
    if path == module:
        return True
    longer, shorter = (path, module) if len(path) > len(module) else (module, path)
    return longer.endswith(shorter) and longer[-len(shorter) - 1] == "."


class _WholeWord:
    """Any of `words` with no identifier character (ASCII; others count as a boundary, which only
    matches more) on either side: an identifier as a call, a reference or an import spells it."""

    def __init__(self, *words: bytes) -> None:
        self.words = words
        self.pattern = re.compile(rb"(?<!\w)(?:" + rb"|".join(re.escape(word) for word in words) + rb")(?!\w)")

    def spelled_in(self, data: bytes) -> bool:
        # A pattern opening with a look-behind has no literal prefix to skip ahead by: the regex
        # engine tries it at every byte. Most files hold none of the words, which a substring
        # test (a fast scan) tells first; only a file holding one is searched for the whole word.
        return any(word in data for word in self.words) and self.pattern.search(data) is not None


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def _is_word(byte: int) -> bool:
    return byte in _WORD_BYTES


def wanted_names(summaries: Sequence[ModuleSummary]) -> set[str] | None:
    """The qualified names the link step looked for and did not find (a helper a tool calls, a
    server a tool is registered on, a name a package re-exports, an exception class).

    None when the link step fails: the caller must then analyse everything (that failure is
    reported by the real link step).
    """
    from mcp_lint.project_links import Project

    looked_for: dict[str, set[Lookup]] = {}

    def missing(qualname: str, lookup: Lookup) -> None:
        looked_for.setdefault(qualname, set()).add(lookup)

    try:
        Project(list(summaries), lambda path, distribution: None, missing, every_reexport=True).traced_functions()
    except Exception:  # noqa: BLE001 - the real link step reports it
        return None
    return wanted_from(looked_for)


def wanted_from(looked_for: dict[str, set[Lookup]]) -> set[str]:
    """The names among those a link step looked for in vain (name -> what it was looked for as)
    whose module can change a finding (see wanted_names). A caller that runs the link step
    itself with a `missing` callback gets what `wanted_names` would, without a second trace."""
    from mcp_lint.linking.names import Lookup

    # `models.Comment(...)`: constructing a class (or naming a constant) follows no function, so
    # the module defining it cannot change a finding. Its methods (`models.Comment.parse`) and
    # instances still count, and so do a class looked for as what made a server (or a table of
    # tools) and the exception classes tools raise and catch (their bases decide which `except`
    # catches which raise).
    # A class a method is dispatched on (Lookup.SUBCLASSES): the modules that may define its
    # subclasses are wanted, asked for as SUBCLASSES_OF + the class (NextFiles).
    followed_only = {Lookup.FOLLOWED}
    wanted: set[str] = set()
    for name, lookups in looked_for.items():
        if Lookup.SUBCLASSES in lookups:
            wanted.add(SUBCLASSES_OF + name)
            lookups = lookups - {Lookup.SUBCLASSES}
        if Lookup.CALLERS in lookups:
            wanted.add(CALLERS_OF + name)
            lookups = lookups - {Lookup.CALLERS}
        if lookups and (lookups != followed_only or not _names_a_class(name)):
            wanted.add(name)
    return wanted


# A wanted name that asks for the modules that may define subclasses of the class after it.
SUBCLASSES_OF = "<subclasses of>"
# ... for the modules spelling the function's name after it (its callers, what it decorates).
CALLERS_OF = "<callers of>"


def _names_a_class(qualname: str) -> bool:
    """`models.Comment`, `CONSTANT`: a capitalised name in a module (not a method of a class)."""
    parts = qualname.split(".")
    return parts[-1][:1].isupper() and not any(p[:1].isupper() for p in parts[:-1])


class NextFiles:
    """Which files to analyse next, from the outcomes so far: the files that may define a name the
    link step looked for in vain, and those that may call a register function waiting on what its
    callers pass. Files with the same module name are asked for together, so the link step sees
    what it would see with every file analysed."""

    def __init__(self, items: Sequence[FileInput]) -> None:
        self.items = items
        self.by_name: dict[str, list[int]] = {}
        for index, item in enumerate(items):
            self.by_name.setdefault(item.module.dotted, []).append(index)
        self._imports: ImportIndex | None = None  # who imports whom, read on first need
        self._top: set[str] | None = None  # the first parts of the linted modules' names
        self._name_ends: dict[str, list[int]] | None = None  # _ends(), on first need
        self._path_extended: bool | None = None  # _extends_path(), on first need
        # The answer per class: the files never change, and every round asks again for each
        # class still wanted.
        self._subclassing: dict[str, list[int]] = {}
        self._spelling: dict[str, list[int]] = {}  # a CALLERS_OF name -> the files spelling it
        canonical = set(self.by_name)
        for index, item in enumerate(items):
            alias = item.module.alias
            if alias and alias not in canonical:  # the link step finds it under its alias too
                self.by_name.setdefault(alias, []).append(index)

    def after(self, done: dict[int, FileOutcome], submitted: set[int]) -> set[int]:
        """The files (indexes) not yet `submitted` that the outcomes `done` ask for."""
        summaries = [done[i].summary for i in sorted(done) if done[i].summary is not None]
        return self.asked_for(wanted_names(summaries), done, submitted)

    def asked_for(self, wanted: set[str] | None, done: dict[int, FileOutcome], submitted: set[int]) -> set[int]:
        """The files not yet `submitted` that `wanted` (wanted_names of the outcomes `done`; None
        when the link step failed) and the register functions of `done` ask for."""
        if wanted is None:  # the link step failed: analyse everything (the real one reports it)
            return set(range(len(self.items))) - submitted
        summaries = [done[i].summary for i in sorted(done) if done[i].summary is not None]
        asked = {i for name in wanted for i in self._defining_files(name, done) if i not in submitted}
        return asked | self._calling_files(summaries, submitted)

    def _calling_files(self, summaries: Sequence[ModuleSummary], submitted: set[int]) -> set[int]:
        """Files that may call a register function whose registrations wait on what its callers
        pass (`register_tools(mcp)`, ModuleSummary.param_pending; `registry.add(fn)`, an
        ARGUMENT_REF registration), or a function whose callers a
        latent finding waits on (Latent.needs_callers): those whose text names the function.
        Nothing names the caller module, so the link step cannot ask for it by name."""
        from mcp_lint.model.summary import ARGUMENT_REF

        names = {register.rsplit(".", 1)[-1].encode() for summary in summaries for _, register, _, _ in summary.param_pending}
        # A register function that adds what its callers pass (`def register(self, fn):
        # self._server.add_tool(fn)`): its callers hold the tools.
        names.update(
            reg.function[len(ARGUMENT_REF) :].rpartition("#")[0].rsplit(".", 1)[-1].encode()
            for summary in summaries
            for reg in summary.tools
            if reg.function.startswith(ARGUMENT_REF)
        )
        names.update(
            callee.rsplit(".", 1)[-1].encode()
            for summary in summaries
            for function in summary.functions.values()
            for latent in function.latent
            for callee in latent.needs_callers
        )
        names.update(_passing_on(summaries))
        if not names:
            return set()
        # The name as a whole identifier: a call, a method call or a reference spells it with no
        # identifier character on either side, so `register` does not ask for every module
        # naming `register_tools` (a plain substring test did, round after round).
        spelled = _WholeWord(*sorted(names))
        found = set()
        for index, item in enumerate(self.items):
            if index in submitted or item.source is None:
                continue
            if spelled.spelled_in(item.data):
                found.add(index)
        return found

    def _defining_files(self, qualname: str, done: dict[int, FileOutcome]) -> list[int]:
        """The files whose analysis can tell what `qualname` is: those of its longest dotted
        prefix that is a linted module, as the link step looks there first and nowhere else once
        that module is known (`pkg/sub/mod.py` for `pkg.sub.mod.helper`; `pkg/__init__.py` only
        when no `pkg/sub/...` file is linted). A module that failed to parse is known to nobody:
        the next shorter prefix is asked too."""
        if qualname.startswith(CALLERS_OF):
            # The files spelling the function's name (a call, a decorator, an import of it).
            name = qualname.rpartition(".")[2]
            if name not in self._spelling:
                spelled = _WholeWord(name.encode())
                self._spelling[name] = [index for index, item in enumerate(self.items) if item.source is not None and spelled.spelled_in(item.data)]
            return [index for index in self._spelling[name] if index not in done]
        if qualname.startswith(SUBCLASSES_OF):
            cls = qualname[len(SUBCLASSES_OF) :]
            if cls not in self._subclassing:
                self._subclassing[cls] = self._subclassing_files(cls)
            return self._subclassing[cls]
        parts = qualname.split(".")
        found: list[int] = []
        for cut in range(len(parts) - 1, 0, -1):
            indexes = self.by_name.get(".".join(parts[:cut]))
            if not indexes:
                continue
            found.extend(indexes)
            if any(index not in done or done[index].summary is not None for index in indexes):
                break
        if not found and parts[0] not in self._roots() and self._extends_path():
            # A bare import of a folder a module puts on `sys.path` (`import helpers` for
            # `pkg/agents/helpers.py`): every module whose name ends so may be the one meant.
            for cut in range(len(parts) - 1, 0, -1):
                indexes = self._ends().get(".".join(parts[:cut]))
                if indexes:
                    return list(indexes)
        return found

    def import_index(self) -> ImportIndex:
        """Who may import whom among the files, read on first need and once per run: the
        seeds of a run naming files (pipeline._context_candidates) and the search for
        subclasses both use it."""
        if self._imports is None:
            self._imports = ImportIndex([item.data for item in self.items], [item.module for item in self.items])
        return self._imports

    def _roots(self) -> set[str]:
        if self._top is None:
            self._top = {name.partition(".")[0] for name in self.by_name}
        return self._top

    def _extends_path(self) -> bool:
        """Does some file put a folder on `sys.path` (module_names.extends_sys_path, recorded by
        the analysis as ModuleSummary.extends_path)? Only then does the link step follow a bare import to a module
        by the end of its name, so only then may such a module be the one a name needs (without
        it, a framework's own `mcp.server` asked for every `*.mcp.server` of the tree)."""
        if self._path_extended is None:
            self._path_extended = any(extends_sys_path(item.data) for item in self.items if item.data)
        return self._path_extended

    def _ends(self) -> dict[str, list[int]]:
        """The proper ends of the linted modules' dotted names, each with the files that have it."""
        if self._name_ends is None:
            self._name_ends = {}
            for index, item in enumerate(self.items):
                parts = item.module.dotted.split(".")
                for cut in range(1, len(parts)):
                    self._name_ends.setdefault(".".join(parts[cut:]), []).append(index)
        return self._name_ends

    def _subclassing_files(self, cls: str) -> list[int]:
        """The files that may define a subclass of the class `cls`: those that import its module,
        directly or through others (ImportIndex). A base is written through a name its module
        imports (`from app.base import Handler`, `from app import base`, a package re-exporting
        either), and each module a re-export passes through imports the next, so every module
        whose base resolves to `cls` imports `cls`'s module, perhaps through re-exporting ones.
        (Matching the words of import statements instead asked, for a class of a module named
        `server`, for every file of every package importing `mcp.server`.) A subclass's own
        subclasses are asked for once it is read."""
        parts = cls.split(".")
        for cut in range(len(parts) - 1, 0, -1):  # the class's module: its longest linted prefix
            defining = self.by_name.get(".".join(parts[:cut]))
            if defining:
                # The first module to take the class out of its module names it (`from m import
                # Page [as Base]`, `m.Page`, `getattr(m, "Page")`), and every later one imports
                # that one: a module neither naming it nor importing it through one that does
                # cannot subclass it.
                named = _WholeWord(parts[cut].encode())
                naming = self.import_index().importers_naming(defining, lambda i, spelled=named: spelled.spelled_in(self.items[i].data))
                return sorted(naming - set(defining))
        return []
