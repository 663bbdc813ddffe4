"""The on-disk cache (`.mcp_lint_cache/`): per-file analyses and whole-run findings, keyed by content.

Storage and keys only: what is stored, under which key, and whether a stored run is still valid.
When each level is looked up and filled is the pipeline's business (pipeline.lint_files; the
per-file level through scheduler.Analyzer).

A file's findings depend on other files (a tool in one module reaches helpers in others, and the
link step renders a helper's findings with the names of the tools that reach it), while its analysis
does not. So the cache has two levels:

1. **File entries** hold what is expensive, the per-file step's result: a `ModuleSummary` or the
   MCP000 problem of an unparsable file. Key: the digest of the text, the display name and the
   module name (summaries spell both: findings carry the display name, qualified names start with
   the module name, which depends on the `__init__.py` files above the file), and the tool
   fingerprint (mcp-lint's version, a hash of its own source files so that an edit to a rule
   invalidates everything, the Python and libcst versions). Settings and framework versions are
   not part of it: they act in the link step only, which is cheap and reruns.
2. **Run entries** hold the findings of a whole run, per file (the issue's "each file's findings").
   Key: every file's display name, digest, module name and whether it was named on the command
   line and whether its findings are shown (the others being its project's context); the
   effective settings of every file (rule selection, per-file-ignores and their root, target); the
   working directory (display names and the pin sources that messages name are relative to it);
   the tool fingerprint. The framework pins the link step consulted are stored in the entry with
   their values and with the exact files and folders the project reader consulted for them
   (project.DeclaredDeps.files: `requirements/base.txt`, `-r ../other.txt` includes); while the
   stats of those are unchanged the pins are too, otherwise the pins are read again and compared,
   so an edited pyproject.toml, requirements or lock file is noticed without reading the pins of
   every directory on every run. The environment settings the link step read from project files
   (server_env.py: FASTMCP_MASK_ERROR_DETAILS in `.env`, compose files, a Dockerfile...) are stored
   and re-checked the same way, with the files read and the directories searched for them (a
   created or deleted `.env` moves its directory's mtime). A warm run whose files did
   not change prints without a parse, a link, or even an import of libcst. When one file changed,
   the run entry misses, every other file's entry hits, and only that file (and any module the
   link step newly asks for) is analysed.

   A run entry is also filed under a second key that replaces each digest by the file's `stat`
   signature (size, inode, modification and change times in nanoseconds), so that a warm run need
   not even read the files: only those with findings, to show them. A content change always moves
   the change time (no tool can set it back), so this key cannot hit for edited files; a file that
   was touched but not changed misses it and finds the entry by content, as before.

Entries are pickles, written to a temporary file and renamed into place (atomic; concurrent runs
at worst both write the same entry), framed with a checksum, and read back by an unpickler that
admits only mcp-lint's own dataclasses and enums: a cache directory someone committed cannot run
code. An entry that is corrupt, foreign, truncated or of another layout is a miss; a cache that
cannot be written (a read-only checkout) is silently not written. The cache never fails a run.

Old tool fingerprints are removed when a new one first writes; run entries beyond the newest
`MAX_RUNS` are pruned; file entries of edited files stay until `mcp-lint clean`, as with ruff.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import io
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Sequence

from mcp_lint import __version__
from mcp_lint.hashing import DIGEST_SIZE, blake2b, digest
from mcp_lint.per_file import display_name

if TYPE_CHECKING:
    from mcp_lint.config import SettingsResolver
    from mcp_lint.findings import Finding
    from mcp_lint.framework_copies import FrameworkCopy
    from mcp_lint.inventory import ServerTools
    from mcp_lint.module_names import ModuleName
    from mcp_lint.per_file import FileInput
    from mcp_lint.pins import PinSource
    from mcp_lint.server_env import EnvSetting

__all__ = [
    "Cache",
    "RunEntry",
    "cache_directory",
    "clean",
    "dependency_files",
    "deps_signature",
    "file_key",
    "run_key",
    "stat_key",
    "tool_fingerprint",
]

LAYOUT = "v24"  # v24: RawText.body_given, handed_body removed again; v23: CallEdge.failure_params widened (failed-reply describers); v22: RawText.own_answer, the returned-failure payload's unwrapped; v21: RawText.body_given, handed_body (a describer handed a body); v20: MutationFirst.preparer_only; v19: CallEdge.record_key, record_message; v18: ModuleSummary.root_logging; v17: MutationFirst.needs_preparer; v16: FunctionSummary.message_keywords, mutation_effect; v15: CallEdge.failure_params also holds a reply found failed by its status; v14: FunctionSummary.returned_objects names closures; v13: FunctionSummary.derived_params, CallEdge.from_results; v12: CallEdge.hands_on; v11: ImportBlock.runtime_names; v2: ModuleSummary.tested_classes; v3: typed latent payloads and link fields; v4: FunctionSummary.mutates_when typed (ParamGuard); v5: FunctionSummary.escapes; v6: CallEdge.decoded_replies, from_params; v7: CallEdge.appended, rewords; v8: FunctionSummary.returned_objects; v9: CallEdge.advises; v10: CallEdge.failure_params, returned_items, Latent.param_failure
MAX_RUNS = 32  # entries, two per run (by content and by stat signature)
TAG_NAME = "CACHEDIR.TAG"
# https://bford.info/cachedir/: backup tools skip the directory; `clean` checks for it before
# deleting anything, so a mistyped --cache-dir never removes a directory that is not a cache.
TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by mcp-lint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
_MAGIC = b"MCPLINT1"


def _hasher() -> Any:
    return blake2b(digest_size=DIGEST_SIZE)


@functools.cache
def tool_fingerprint() -> str:
    """mcp-lint's version, its own source files, and the Python and libcst it runs on.

    A source file counts by its size and modification time: an edit to a rule (an editable
    install) invalidates everything, and no start pays for reading the whole package.
    """
    import importlib.util

    hasher = _hasher()
    hasher.update(f"{LAYOUT}\0{__version__}\0{sys.version_info[:2]}\0".encode())
    package = os.path.dirname(os.path.abspath(__file__))
    for directory, subdirectories, files in sorted(os.walk(package)):
        subdirectories.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                stat = os.stat(path)
                hasher.update(f"{os.path.relpath(path, package)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    spec = importlib.util.find_spec("libcst")
    if spec is not None and spec.origin:
        version_file = Path(spec.origin).parent / "_version.py"
        if version_file.is_file():
            hasher.update(version_file.read_bytes())
    return hasher.hexdigest()


# --- keys ---------------------------------------------------------------------------------------


def file_key(item: FileInput, codes: frozenset[str] | None = None, copies: Sequence[FrameworkCopy] = ()) -> str:
    """The key of a file's analysis (see the module docstring, level 1); `codes` are the rules it
    ran (a summary made by fewer rules lacks the others' findings); `copies` the framework copies
    of the run, whose names the analysis reads as the framework's."""
    rules = ",".join(sorted(codes)) if codes is not None else "all"
    module = item.module
    parts: tuple[str, ...] = (tool_fingerprint(), item.display, module.dotted, module.alias, str(module.is_package), item.digest, rules)
    if copies:
        parts += tuple(f"{copy.root}={copy.framework}:{copy.tool_error_module}" for copy in copies)
    return digest("\0".join(parts).encode("utf-8", "surrogatepass"))


def syntax_key(item: FileInput) -> str:
    """The key of the verdict on whether a file the prefilter left out parses."""
    parts = ("syntax", tool_fingerprint(), item.display, item.digest)
    return digest("\0".join(parts).encode("utf-8", "surrogatepass"))


# --- storage ------------------------------------------------------------------------------------


def cache_directory(resolver: SettingsResolver, override: Path | None = None) -> Path:
    """`--cache-dir`, else `cache-dir` of the settings in force in the working directory (relative
    to its pyproject.toml), else `.mcp_lint_cache` in the project root (or the working directory)."""
    if override is not None:
        return Path(os.path.abspath(override))
    cwd = Path.cwd()
    settings = resolver.for_path(cwd)
    root = settings.root or resolver.project_root(cwd) or cwd
    return Path(os.path.abspath(root / settings.cache_dir))


@functools.cache
def _unpickler() -> type:
    """The restricted unpickler class, built on first use: pickle is not imported by a run
    without a cache (`--no-cache`, one-file pre-commit runs start faster)."""
    import pickle

    class Unpickler(pickle.Unpickler):
        """Admits mcp-lint's dataclasses and enums and plain containers, nothing that could run code."""

        _BUILTINS = frozenset({"set", "frozenset"})

        def find_class(self, module: str, name: str) -> Any:
            if module == "builtins" and name in self._BUILTINS:
                return super().find_class(module, name)
            if module == "mcp_lint" or module.startswith("mcp_lint."):
                found = super().find_class(module, name)
                if isinstance(found, type) and (dataclasses.is_dataclass(found) or issubclass(found, enum.Enum)):
                    return found
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the cache")

    return Unpickler


class Cache:
    """One cache directory; every method is best effort and never raises for I/O reasons."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._base = directory / LAYOUT / tool_fingerprint()
        self._prepared = False

    # -- level 1: one file's analysis ----------------------------------------------------------
    def load_file(self, key: str) -> tuple[Any, Any] | None:
        """(summary, problem) stored for a file key, or None."""
        value = self._load(self._base / "files" / key[:2] / key)
        if isinstance(value, tuple) and len(value) == 2:
            return value
        return None

    def store_file(self, key: str, summary: Any, problem: Any) -> None:
        self._store(self._base / "files" / key[:2] / key, (summary, problem))

    # -- level 2: a whole run's findings ----------------------------------------------------------
    def load_run(self, key: str) -> RunEntry | None:
        value = self._load(self._base / "runs" / key)
        return value if isinstance(value, RunEntry) else None

    def store_run(self, key: str, entry: RunEntry) -> None:
        runs = self._base / "runs"
        self._store(runs / key, entry)
        try:
            entries = sorted(runs.iterdir(), key=lambda p: p.stat().st_mtime_ns, reverse=True)
            for stale in entries[MAX_RUNS:]:
                stale.unlink()
        except OSError:
            pass

    # -- files -----------------------------------------------------------------------------------
    def _load(self, path: Path) -> Any:
        try:
            blob = path.read_bytes()
        except OSError:
            return None
        header = len(_MAGIC) + DIGEST_SIZE
        if len(blob) < header or not blob.startswith(_MAGIC):
            return None
        payload = blob[header:]
        if _checksum(payload) != blob[len(_MAGIC) : header]:
            return None
        try:
            return _unpickler()(io.BytesIO(payload)).load()
        except Exception:  # noqa: BLE001 - any undecodable entry is a miss
            return None

    def _store(self, path: Path, value: Any) -> None:
        import pickle
        import tempfile

        try:
            payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - an unpicklable value is simply not cached
            return
        blob = _MAGIC + _checksum(payload) + payload
        try:
            self._prepare()
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as stream:
                    stream.write(blob)
                os.replace(temp, path)
            except BaseException:
                _unlink(temp)
                raise
        except OSError:
            pass

    def _prepare(self) -> None:
        """Create the directory with its tag and .gitignore; drop other tool fingerprints."""
        if self._prepared:
            return
        self._prepared = True
        fresh = not self._base.exists()
        self._base.mkdir(parents=True, exist_ok=True)
        for name, content in ((TAG_NAME, TAG), (".gitignore", "# Created by mcp-lint.\n*\n")):
            marker = self.directory / name
            if not marker.exists():
                marker.write_text(content, encoding="utf-8")
        if fresh:
            import shutil

            for sibling in self._base.parent.iterdir():
                if sibling != self._base and sibling.is_dir():
                    shutil.rmtree(sibling, ignore_errors=True)


def _checksum(payload: bytes) -> bytes:
    hasher = _hasher()
    hasher.update(payload)
    return hasher.digest()


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def clean(directory: Path) -> bool:
    """Remove a cache directory; False when there is none. Raises ValueError when `directory`
    exists but is not an mcp-lint cache (no cache directory tag): it is left alone."""
    if not directory.exists():
        return False
    tag = directory / TAG_NAME
    try:
        ours = tag.read_text(encoding="utf-8").startswith(TAG.splitlines()[0])
    except (OSError, UnicodeDecodeError):
        ours = False
    if not ours:
        raise ValueError(f"{directory} is not an mcp-lint cache (it has no {TAG_NAME}); not removed")
    import shutil

    shutil.rmtree(directory)
    return True


# --- a run ---------------------------------------------------------------------------------------


@dataclass
class RunEntry:
    findings: list[Finding]
    # (path, distribution) -> pin the link step was given, re-checked on load.
    pins: dict[tuple[str, str], tuple[str, str] | None] = field(default_factory=dict)
    # Stat signature of every directory and dependency file the pins came from: when it is
    # unchanged the pins are too, and re-reading (re-parsing) the metadata files is skipped.
    deps_signature: str = ""
    dependency_files: tuple[str, ...] = ()
    # (path, the spellings of a setting in lookup order) -> the project file that turned it on
    # (server_env.py: `.env`, compose files, Dockerfile...), None when none did; the findings of
    # rules about masking depend on it. Those files and the directories searched for them are among
    # `dependency_files`.
    env: dict[tuple[str, tuple[str, ...]], EnvSetting | None] = field(default_factory=dict)
    # The servers and tools the link step found (inventory.py): a stored run still says what it checked.
    inventory: tuple[ServerTools, ...] = ()

    @classmethod
    def of(
        cls,
        findings: list[Finding],
        pins: dict[tuple[str, str], tuple[str, str] | None],
        env: dict[tuple[str, tuple[str, ...]], EnvSetting | None] | None = None,
        env_files: Collection[str] = (),
        inventory: Sequence[ServerTools] = (),
    ) -> RunEntry:
        """The entry for a run's findings, the pins its link step asked for, and the environment
        settings it read from project files (`env_files`: every file and directory consulted)."""
        files = dependency_files(pins, env_files)
        return cls(findings, pins, deps_signature(files), files, dict(env or {}), tuple(inventory))

    def revalidated(self, lookup: PinSource) -> RunEntry | None:
        """This entry when the link step would get the same pins and environment settings now,
        None when it would not. Answered by the stat signature of the files they came from when it
        did not move, otherwise by asking `lookup` (a fresh one: it reads the files again) for every
        stored answer: an edited, created or deleted `.env` changes the answer only of the runs that
        read it. When the answers held but the files moved, the answer is a copy signed over the
        files' new stats (the caller stores it again, so that the next run need not read them);
        the stored entry itself is never changed."""
        if self.deps_signature and self.deps_signature == deps_signature(self.dependency_files):
            return self
        if not all(lookup(path, distribution) == pin for (path, distribution), pin in self.pins.items()):
            return None
        consulted: set[str] = set()
        for (path, variables), setting in self.env.items():
            reading = lookup.env_setting(path, variables)
            if reading.setting != setting:
                return None
            consulted.update(reading.consulted)
        # Signed anew over what the answers now come from: a settings file created with the same
        # answer is watched from then on (an edit in place does not move its folder's mtime).
        files = dependency_files(self.pins, consulted)
        return dataclasses.replace(self, dependency_files=files, deps_signature=deps_signature(files))


def run_key(
    inputs: Sequence[FileInput],
    resolver: SettingsResolver,
    explicit: Collection[Path] | None,
    reported: Collection[Path] | None = None,
) -> str:
    """The key of a whole run's findings by content (see the module docstring, level 2)."""
    rows = [(item.path, item.display, item.module, item.digest or item.error or "") for item in inputs]
    return _run_key(rows, resolver, explicit, reported)


def stat_key(
    paths: Sequence[Path],
    names: Sequence[ModuleName],
    resolver: SettingsResolver,
    explicit: Collection[Path] | None,
    reported: Collection[Path] | None = None,
) -> str | None:
    """The key of a whole run's findings by the files' stat signatures; None if one cannot be read."""
    rows = []
    for path, module in zip(paths, names):
        try:
            stat = os.stat(path)
        except OSError:
            return None
        signature = f"stat:{stat.st_size}:{stat.st_ino}:{stat.st_mtime_ns}:{stat.st_ctime_ns}"
        rows.append((path, display_name(path), module, signature))
    return _run_key(rows, resolver, explicit, reported)


def _run_key(
    files: Sequence[tuple[Path, str, ModuleName, str]],
    resolver: SettingsResolver,
    explicit: Collection[Path] | None,
    reported: Collection[Path] | None,
) -> str:
    explicit_set = _absolute_set(explicit)
    # Which files are shown decides which tool modules are analysed (pipeline.analyze_all).
    reported_set = _absolute_set(reported)
    fingerprints: dict[int, str] = {}
    hasher = _hasher()
    hasher.update(f"{tool_fingerprint()}\0{os.getcwd()}\0{explicit is None}\0".encode("utf-8", "surrogatepass"))
    for path, display, module, content in files:
        settings = resolver.for_path(path)
        settings_fp = fingerprints.get(id(settings))
        if settings_fp is None:
            settings_fp = fingerprints[id(settings)] = f"{settings.fingerprint()}:{settings.root}"
        named = explicit_set is not None and _absolute(path) in explicit_set
        shown = reported_set is None or _absolute(path) in reported_set
        row = (display, content, module.dotted, module.alias, str(module.is_package), str(named), str(shown), settings_fp)
        hasher.update("\0".join(row).encode("utf-8", "surrogatepass") + b"\n")
    return hasher.hexdigest()


def dependency_files(pins: dict[tuple[str, str], tuple[str, str] | None], extra: Collection[str] = ()) -> tuple[str, ...]:
    """Every file and directory the project reader consulted for the pins of this run
    (project.DeclaredDeps.files): the one list of what a pin depends on; with `extra` (the
    settings files and folders the environment reader consulted), what a stored run depends on."""
    from mcp_lint.project import declared_dependencies

    files: set[str] = set(extra)
    for directory in {os.path.dirname(os.path.abspath(path)) for path, _ in pins}:
        files.update(declared_dependencies(Path(directory)).files)
    return tuple(sorted(files))


def deps_signature(files: Sequence[str]) -> str:
    """The stat signature of `files` (a directory's mtime moves when an entry is added or
    removed; a file's change time moves with any write, in place or by rename)."""
    rows: list[str] = []
    for name in files:
        try:
            stat = os.stat(name)
        except OSError:
            rows.append(f"{name}:missing")
            continue
        rows.append(f"{name}:{stat.st_size}:{stat.st_ino}:{stat.st_mtime_ns}:{stat.st_ctime_ns}")
    return digest("\n".join(rows).encode("utf-8", "surrogatepass"))


def _absolute(path: Path) -> str:
    return os.path.normcase(os.path.abspath(path))


def _absolute_set(paths: Collection[Path] | None) -> set[str] | None:
    return None if paths is None else {_absolute(p) for p in paths}
