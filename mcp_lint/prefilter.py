"""Analyse only the files that can change a finding: tool modules, and what the linker asks for.

Findings are reported only in functions a tool handler reaches, so a directory walk needs the CST
of two kinds of module:

* **seeds**, decided from the text alone before any parse: modules that may register a tool. Every
  registration form the model knows is spelled with one of `x.tool`, `call_tool` (and
  `on_call_tool`), `add_tool`, `"tools/call"`, `tools=` (a server constructor's list),
  `from_function`, `mcp_tool` or `CallToolRequest`; `@mcp.tool` on a server imported from a sibling
  module is one of them too. A module naming `FastMCP` or `MCPServer` is a seed as well: it may
  pass its server to a register function elsewhere (`register_tools(mcp)`), whose registrations
  the linker ties to that call. A module with a `# noqa: MCPxxx` comment is a seed as well, so that
  MCP100 (unused noqa) sees every such comment;
* **modules the linker asks for**: whenever results have come in and a worker is free
  (scheduler.py), the project step runs on the summaries so far, and every qualified name it
  looked up without finding it (a helper a tool calls, a server a tool is registered on, a name
  re-exported by a package) names the module that may define it: its longest dotted prefix that
  is a linted file (the linker looks there and nowhere else; a shorter prefix only if that one
  does not parse). Those are analysed next, until the linker asks for nothing new.

Why not an import graph from the import lines (reach every module a seed imports, transitively)?
The linker follows calls, not imports: a helper module matters only when a tool calls into it. On
the 31 servers of the benchmark corpus the import closure of the seeds is 79% of all lines, while
the modules the linker asks for come to about 55% (a third before the linker followed typed
objects: methods of a client returned by an annotated factory pull in its class's modules), with identical
findings. Asking the linker itself also keeps the filter exact as the linker learns new ways to
resolve names (instances, base classes): whatever it looks up goes through `Project.resolve`, and
that is the one place this module listens to. Only the reachability step runs between rounds (the
rendering of findings looks nothing up); it costs a few tens of milliseconds each time.

Files named on the command line (pre-commit, an editor) are linted in their project: its files
are the context, and only the seeds that may import a named file, directly or through other
files, are started from (`importers`, read from the import statements' text), since no other
tool can reach it. A changed helper deep in a large project thus costs the tool modules above
it, not every tool module of the project.

What a prefiltered directory walk does not report: MCP000 for a file that is never analysed (a
syntax error in a module nothing reaches does not change any finding; a file that cannot be read at
all is still reported, the text scan needs it). Files named on the command line are always analysed.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from mcp_lint.linter import FileOutcome
    from mcp_lint.model.summary import ModuleSummary
    from mcp_lint.scheduler import Analyzer

__all__ = ["ModuleName", "analyze_reachable", "importers", "is_seed", "module_name", "module_names", "wanted_names"]

# Every occurrence of "tool" that can be part of a registration; the context is checked in Python
# (a literal-prefixed pattern is several times faster than one alternation over all the forms).
_TOOL = re.compile(rb"tool(?:s/call|s\s*=(?!=)|\b)")
_TOOL_PREFIXES = (b".", b"@", b"call_", b"add_", b"mcp_")
_NOQA_MCP = re.compile(rb"(?i)noqa\s*:[^\n]*mcp[0-9]")
# Import statements, read from the text: `from X import a, b` (parenthesised over several lines
# too) and `import X.Y as Z, W`. Inside a string they match as well, which only adds importers.
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]*))",
    re.MULTILINE,
)
_IDENTIFIER = re.compile(rb"\w+")
_ALIAS = re.compile(rb"\bas[ \t]+\w+")
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


@dataclass(frozen=True)
class ModuleName:
    dotted: str
    is_package: bool
    # The name from the `__init__.py` chain alone when `dotted` is longer (namespace folders above
    # it): what a script run from inside the tree imports it as (`from helpers import x`).
    alias: str = ""


# What makes a directory an import root (a `sys.path` entry): a project file, an unpacked
# distribution's metadata beside the packages, or the `src/` folder of a src layout.
_ROOT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
_ROOT_SUFFIXES = (".dist-info", ".egg-info")


class _PackagePrefixes:
    """Per directory, computed once each: its dotted package and its resolved path.

    A directory's package is the chain of `__init__.py` folders above it (a regular package),
    extended upward through folders without one (PEP 420 namespace packages) up to the nearest
    import root, when there is one: `root/pkg/tools/cache.py` is `pkg.tools.cache` whichever of
    `pkg/` and `tools/` has an `__init__.py`. Without a root above it (a loose folder of scripts)
    only the `__init__.py` chain counts, as before.
    """

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, ...]] = {}
        self._full: dict[str, tuple[str, ...]] = {}
        self._roots: dict[str, bool] = {}
        self._real: dict[str, str] = {}

    def realpath(self, path: Path) -> str:
        """os.path.realpath(path), resolving each directory once (a walk has many files per
        directory; only a file that is itself a symlink needs its own resolution)."""
        text = str(path)
        if os.path.islink(text):
            return os.path.realpath(text)
        directory, filename = os.path.split(text)
        real = self._real.get(directory)
        if real is None:
            real = self._real[directory] = os.path.realpath(directory or ".")
        return os.path.join(real, filename)

    def of(self, directory: str) -> tuple[str, ...]:
        """The `__init__.py` chain ending at `directory` (empty outside a regular package)."""
        known = self._known.get(directory)
        if known is None:
            known = ()
            if os.path.exists(os.path.join(directory, "__init__.py")):
                parent = os.path.dirname(directory)
                known = (*(self.of(parent) if parent != directory else ()), os.path.basename(directory))
            self._known[directory] = known
        return known

    def full(self, directory: str) -> tuple[str, ...]:
        """The dotted package of `directory`, namespace folders up to the import root included."""
        known = self._full.get(directory)
        if known is None:
            known = self._full[directory] = self._namespace_parts(directory) or self.of(directory)
        return known

    def _namespace_parts(self, directory: str) -> tuple[str, ...] | None:
        """Every folder name from below the nearest import root down to `directory`; None when
        no root is above it or a folder on the way cannot be a package name."""
        parts: list[str] = []
        current = directory
        while not self._is_root(current):
            name = os.path.basename(current)
            parent = os.path.dirname(current)
            if parent == current or not name.isidentifier():
                return None
            parts.append(name)
            current = parent
        return tuple(reversed(parts))

    def _is_root(self, directory: str) -> bool:
        known = self._roots.get(directory)
        if known is None:
            known = os.path.basename(directory) == "src"
            if not known:
                try:
                    entries = os.listdir(directory or ".")
                except OSError:
                    entries = []
                # A regular package is never a root, even with a module named setup.py in it.
                known = "__init__.py" not in entries and any(e in _ROOT_FILES or e.endswith(_ROOT_SUFFIXES) for e in entries)
            self._roots[directory] = known
        return known


def module_name(path: Path, packages: _PackagePrefixes | None = None) -> ModuleName:
    """The module name the analysis gives `path` (analysis.module_name_for, without libcst).

    As there, a relative path is resolved (symlinks included) and an absolute one is taken as is.
    Pass one `packages` object for many paths so each directory is looked at once.
    """
    packages = packages or _PackagePrefixes()
    text = str(path) if path.is_absolute() else packages.realpath(path)
    directory, filename = os.path.split(text)
    is_package = filename == "__init__.py"
    parts, chain = packages.full(directory), packages.of(directory)
    if not is_package:
        stem = os.path.splitext(filename)[0]
        parts, chain = (*parts, stem), (*chain, stem)
    dotted = ".".join(parts)
    alias = ".".join(chain)
    return ModuleName(dotted, is_package, alias if alias != dotted else "")


def module_names(paths: Iterable[Path]) -> list[ModuleName]:
    packages = _PackagePrefixes()
    return [module_name(path, packages) for path in paths]


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


def imported_words(data: bytes) -> set[bytes]:
    """Every identifier spelled in the module paths and imported names of `data`'s import
    statements (`from .store import load as get` gives store and load; aliases are left out).

    Words rather than resolved module names: a module reaches another one only by importing it
    under (a dotted path ending in) its name, whatever the package layout, so the words are
    enough to over-approximate who imports whom without knowing how each file is named.
    """
    words: set[bytes] = set()
    for match in _IMPORT.finditer(data):
        source, names, modules = match.groups()
        for part in (source, names, modules):
            if part:
                words.update(_IDENTIFIER.findall(_ALIAS.sub(b"", part)))
    return words


def importers(texts: Sequence[bytes], names: Sequence[ModuleName], targets: Iterable[int]) -> set[int]:
    """The files (indexes) that may import one of `targets`, directly or through other files,
    `targets` included: the only modules whose tools can reach a function of a target.

    A file imports module `a.b.c` (or the package `a.b.c`) only with an import statement naming
    `c`, so a file is an importer when its import statements spell the last part of the name of
    a target or of an importer already found. Read from the text, linear in the files (an index
    from each word to the files that import it).
    """
    by_word: dict[bytes, list[int]] = {}
    for index, data in enumerate(texts):
        for word in imported_words(data):
            by_word.setdefault(word, []).append(index)
    found = set(targets)
    queue = list(found)
    asked: set[bytes] = set()
    while queue:
        index = queue.pop()
        word = _last_part(names[index]).encode("utf-8", "surrogatepass")
        if word in asked:
            continue
        asked.add(word)
        for importer in by_word.get(word, ()):
            if importer not in found:
                found.add(importer)
                queue.append(importer)
    return found


def _last_part(name: ModuleName) -> str:
    return name.dotted.rpartition(".")[2]


def _is_word(byte: int) -> bool:
    return byte in _WORD_BYTES


def wanted_names(summaries: Sequence[ModuleSummary]) -> set[str] | None:
    """The qualified names the project step looked up and did not find (a helper a tool calls, a
    server a tool is registered on, a name a package re-exports).

    None when the project step fails: the caller must then analyse everything (that failure is
    reported by the real link step).
    """
    from mcp_lint.linker import Project

    missing: set[str] = set()
    servers: set[str] = set()  # names a server may be made by (classes included)
    classes: set[str] = set()  # exception classes whose bases the linker reads

    class Listening(Project):
        reading_classes = False

        def resolve(self, qualname: str, depth: int = 0) -> str:
            if qualname not in self.functions and qualname not in self.servers:
                missing.add(qualname)
                if self.reading_classes:
                    classes.add(qualname)
            return super().resolve(qualname, depth)

        def exception_classes(self, reached) -> None:  # type: ignore[no-untyped-def]
            self.reading_classes = True
            try:
                super().exception_classes(reached)
            finally:
                self.reading_classes = False

        def server_family(self, key: str):  # type: ignore[no-untyped-def]
            before = set(missing)
            family = super().server_family(key)
            servers.update(missing - before)
            return family

        def function_table(self, qualname: str) -> list[str]:
            before = set(missing)
            found = super().function_table(qualname)
            servers.update(missing - before)  # a table (`TOOLS`) is looked up, not constructed
            return found

    try:
        Listening(list(summaries), lambda path, distribution: None).reachable()
    except Exception:  # noqa: BLE001 - the real link step reports it
        return None
    wanted: set[str] = set()
    for name in missing:
        parts = name.split(".")
        if name not in servers | classes and parts[-1][:1].isupper() and not any(p[:1].isupper() for p in parts[:-1]):
            # `models.Comment(...)`: constructing a class (or naming a constant) follows no
            # function, so the module defining it cannot change a finding. Its methods
            # (`models.Comment.parse`) and instances still count, and so do the exception classes
            # tools raise and catch (their bases decide which `except` catches which raise).
            continue
        wanted.add(name)
    return wanted


def analyze_reachable(names: Sequence[ModuleName], first: Iterable[int], analyzer: Analyzer) -> dict[int, FileOutcome]:
    """Analyse `first` (indexes into `names`), then the modules the linker asks for, until it asks
    for nothing new.

    The linker is asked again whenever results came in and a worker is free (scheduler.py), not
    only once a whole wave is done. Files with the same module name are analysed together, so the
    linker sees what it would see with every file analysed.
    """
    by_name: dict[str, list[int]] = {}
    for index, name in enumerate(names):
        by_name.setdefault(name.dotted, []).append(index)
    canonical = set(by_name)
    for index, name in enumerate(names):
        if name.alias and name.alias not in canonical:  # the linker finds it under its alias too
            by_name.setdefault(name.alias, []).append(index)
    done: dict[int, FileOutcome] = {}
    submitted = set(first)
    analyzer.submit(sorted(submitted))
    fresh = False  # results arrived since the linker was last asked
    while True:
        for index, outcome in analyzer.collect():
            done[index] = outcome
            fresh = True
        if analyzer.busy():
            continue  # every worker has a job: collect more before asking
        if not fresh or len(submitted) == len(names):
            if analyzer.pending() == 0:
                break
            continue
        fresh = False
        summaries = [done[i].summary for i in sorted(done) if done[i].summary is not None]
        wanted = wanted_names(summaries)
        if wanted is None:  # the linker failed: analyse everything (the link step reports it)
            asked = set(range(len(names))) - submitted
        else:
            asked = {i for name in wanted for i in _defining_files(name, by_name, done) if i not in submitted}
            asked |= _calling_files(summaries, analyzer, submitted)
        if asked:
            submitted |= asked
            analyzer.submit(sorted(asked))
        elif analyzer.pending() == 0:
            break
    return done


def _calling_files(summaries: Sequence[ModuleSummary], analyzer: Analyzer, submitted: set[int]) -> set[int]:
    """Files that may call a register function whose registrations wait on what its callers pass
    (`register_tools(mcp)`, ModuleSummary.param_pending): those whose text names the function.
    Nothing names the caller module, so the linker cannot ask for it by name."""
    names = {register.rsplit(".", 1)[-1].encode() for summary in summaries for _, register, _, _ in summary.param_pending}
    if not names:
        return set()
    found = set()
    for index, item in enumerate(analyzer.items):
        if index in submitted or item.source is None:
            continue
        data = item.source.text.encode("utf-8", "surrogatepass")
        if any(name in data for name in names):
            found.add(index)
    return found


def _defining_files(qualname: str, by_name: dict[str, list[int]], done: dict[int, FileOutcome]) -> list[int]:
    """The files whose analysis can tell what `qualname` is: those of its longest dotted prefix
    that is a linted module, as the linker looks there first and nowhere else once that module is
    known (`pkg/sub/mod.py` for `pkg.sub.mod.helper`; `pkg/__init__.py` only when no
    `pkg/sub/...` file is linted). A module that failed to parse is known to nobody: the next
    shorter prefix is asked too."""
    parts = qualname.split(".")
    found: list[int] = []
    for cut in range(len(parts) - 1, 0, -1):
        indexes = by_name.get(".".join(parts[:cut]))
        if not indexes:
            continue
        found.extend(indexes)
        if any(index not in done or done[index].summary is not None for index in indexes):
            break
    return found
