"""Which files to lint: walk the given paths, honouring .gitignore, `exclude` and well-known junk.

Paths named on the command line are the user's explicit choice and are always linted (unless
`force_exclude`, for pre-commit, which passes every changed file). Directories are walked for
`*.py` files, skipping virtual environments, caches, build output, anything git ignores and
anything the settings exclude.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

if TYPE_CHECKING:  # imported where .gitignore files are read: a run on explicit files needs none
    from pathspec import GitIgnoreSpec

from mcp_lint.config import SettingsResolver

__all__ = ["discover", "project_root"]


# Directories never worth walking into: VCS metadata, virtual environments, tool caches, build
# output. Environments under other names are recognised by their pyvenv.cfg.
SKIPPED_DIRECTORIES = frozenset(
    {
        ".bzr",
        ".direnv",
        ".eggs",
        ".git",
        ".hg",
        ".ipynb_checkpoints",
        ".mcp_lint_cache",
        ".mypy_cache",
        ".nox",
        ".pytest_cache",
        ".pytype",
        ".ruff_cache",
        ".svn",
        ".tox",
        ".venv",
        "__pycache__",
        "__pypackages__",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        "venv",
    }
)

# What marks the top of a project: the nearest directory above a file holding one of these is
# the project whose other modules can reach that file.
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", ".git")

# A .gitignore in force while walking: its patterns and the walked directory's path relative to
# the .gitignore's own directory ("" or ending in "/"), so entries are matched by concatenation.
_Level = "tuple[GitIgnoreSpec, str]"


def discover(
    paths: Sequence[Path], resolver: SettingsResolver, *, force_exclude: bool = False, warned: set[str] | None = None
) -> list[Path]:
    """The files to lint for `paths`, sorted, without duplicates, spelled relative to the given path.

    A path that does not exist is returned as is, for the linter to report as unreadable. An
    entry that cannot be looked at is skipped with a warning, once per `warned` set.
    """
    walker = _Walker(resolver, set() if warned is None else warned)
    found: dict[str, Path] = {}
    for given in paths:
        given = Path(given)
        if force_exclude and _excluded_with_ancestors(given, resolver):
            continue
        if given.is_dir():
            candidates: Iterator[Path] = walker.walk(given)
        else:
            candidates = iter((given,))
        for path in candidates:
            found.setdefault(os.path.normcase(os.path.abspath(path)), path)
    return sorted(found.values(), key=lambda path: path.parts)  # Path order, without Path.__lt__


def project_root(path: Path) -> Path | None:
    """The project a file belongs to: the nearest directory at or above it holding a
    pyproject.toml, a setup.cfg or a .git; None for a lone file.

    The home directory and the filesystem root never count: a dotfiles repository in $HOME (or a
    stray pyproject.toml there) would make every lone script part of a "project" of thousands of
    files. The result is spelled relative to the working directory when it is inside it.
    """
    absolute = os.path.abspath(path)
    current = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
    stop = {os.path.abspath(os.path.expanduser("~"))}
    while current not in stop:
        parent = os.path.dirname(current)
        if parent == current:
            return None  # the filesystem root
        if any(os.path.lexists(os.path.join(current, marker)) for marker in PROJECT_MARKERS):
            return _spelled(current)
        current = parent
    return None


def _spelled(directory: str) -> Path:
    """`directory` relative to the working directory when inside it, else absolute."""
    cwd = os.getcwd()
    if directory == cwd:
        return Path(".")
    if directory.startswith(cwd.rstrip(os.sep) + os.sep):
        return Path(os.path.relpath(directory, cwd))
    return Path(directory)


def _excluded_with_ancestors(path: Path, resolver: SettingsResolver) -> bool:
    """Whether `exclude` matches `path` or a directory above it, each judged by its parent's settings.

    That is the verdict a walk from any ancestor would reach, so pre-commit's explicit file list
    and `mcp-lint .` agree.
    """
    current = Path(os.path.abspath(path))
    while current.parent != current:
        if resolver.for_path(current.parent).is_excluded(current):
            return True
        current = current.parent
    return False


class _Walker:
    """Walks directories; reads each .gitignore once however many paths reach it."""

    def __init__(self, resolver: SettingsResolver, warned: set[str]) -> None:
        self._resolver = resolver
        self._warned = warned
        self._specs: dict[str, GitIgnoreSpec | None] = {}

    def walk(self, root: Path) -> Iterator[Path]:
        root_abs = os.path.abspath(root)
        levels = self._levels_above(root_abs)
        if levels and _ignored(levels, ""):  # the prefixes already spell the root, with its "/"
            # The user named a directory git ignores: lint it, under its own .gitignore files only.
            levels = []
        stack: list[tuple[str, Path, list[_Level]]] = [(root_abs, root, levels)]
        while stack:
            directory, shown, levels = stack.pop()
            try:
                with os.scandir(directory) as listing:
                    entries = list(listing)
            except OSError as error:
                _warn(self._warned, "cannot list %s: %s", shown, error.strerror or error)
                continue
            names = {entry.name for entry in entries}
            if directory != root_abs and "pyvenv.cfg" in names:
                continue  # a virtual environment under any name
            levels = self._enter(directory, names, levels)
            settings = self._resolver.for_path(Path(directory))
            excludes = bool(settings.exclude or settings.extend_exclude)
            for entry in entries:
                try:
                    kind = _kind(entry)
                except OSError as error:
                    # A symlink loop, a dangling mount, an entry that vanished: skip it, lint the rest.
                    _warn(self._warned, "skipping %s: %s", shown / entry.name, error.strerror or error)
                    continue
                if kind == "dir":
                    # Symlinked directories are not followed: no loops, no walking out of the tree.
                    if _skipped_name(entry.name) or _ignored(levels, entry.name + "/"):
                        continue
                    if excludes and settings.is_excluded(Path(entry.path)):
                        continue
                    child_levels = [(spec, prefix + entry.name + "/") for spec, prefix in levels]
                    stack.append((entry.path, shown / entry.name, child_levels))
                elif kind == "python":
                    if _ignored(levels, entry.name) or (excludes and settings.is_excluded(Path(entry.path))):
                        continue
                    yield shown / entry.name

    def _enter(self, directory: str, names: set[str], levels: list[_Level]) -> list[_Level]:
        """The ignore rules in force inside `directory`, given those of its parent."""
        if ".git" in names:
            # A repository (or submodule) root: the enclosing repository's rules stop here.
            levels = self._repository_levels(directory)
        if ".gitignore" in names:
            spec = self._spec(os.path.join(directory, ".gitignore"))
            if spec is not None:
                levels = [*levels, (spec, "")]
        return levels

    def _levels_above(self, root_abs: str) -> list[_Level]:
        """The repository's rules from above the walked root, outermost first.

        Outside a repository nothing above the root applies, as with git.
        """
        if os.path.lexists(os.path.join(root_abs, ".git")):
            return []  # the root is the repository's top; _enter reads its rules
        above = []
        current = root_abs
        while True:
            parent = os.path.dirname(current)
            if parent == current:
                return []
            current = parent
            above.append(current)
            if os.path.lexists(os.path.join(current, ".git")):
                break
        levels: list[_Level] = []
        for directory in reversed(above):
            prefix = Path(os.path.relpath(root_abs, directory)).as_posix() + "/"
            if directory == above[-1]:
                levels.extend((spec, prefix) for spec, _ in self._repository_levels(directory))
            spec = self._spec(os.path.join(directory, ".gitignore"))
            if spec is not None:
                levels.append((spec, prefix))
        return levels

    def _repository_levels(self, repository: str) -> list[_Level]:
        # .git/info/exclude holds the repository's lowest-priority rules (below every .gitignore).
        spec = self._spec(os.path.join(repository, ".git", "info", "exclude"))
        return [(spec, "")] if spec is not None else []

    def _spec(self, path: str) -> GitIgnoreSpec | None:
        if path not in self._specs:
            self._specs[path] = _read_ignore_file(path)
        return self._specs[path]


def _read_ignore_file(path: str) -> GitIgnoreSpec | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    from pathspec import GitIgnoreSpec

    try:
        return GitIgnoreSpec.from_lines(lines)
    except ValueError:
        # Git skips a pattern it cannot parse and keeps the rest; so do we.
        return GitIgnoreSpec.from_lines(line for line in lines if _valid_pattern(line))


def _valid_pattern(line: str) -> bool:
    from pathspec import GitIgnoreSpec

    try:
        GitIgnoreSpec.from_lines([line])
    except ValueError:
        return False
    return True


def _ignored(levels: Sequence[_Level], name: str) -> bool:
    """Git's verdict for an entry of the walked directory (`name` ends in "/" for a directory).

    The innermost .gitignore with a matching pattern decides; a negated pattern re-includes.
    """
    for spec, prefix in reversed(levels):
        verdict = spec.check_file(prefix + name).include
        if verdict is not None:
            return verdict
    return False


def _kind(entry: os.DirEntry[str]) -> str:
    """"dir" (a real directory: symlinked ones are not followed, so no loops and no walking out
    of the tree), "python" (a .py file, through symlinks) or "other". Raises OSError for an
    entry that cannot be looked at (os.DirEntry.is_file lets ELOOP through)."""
    if entry.is_dir(follow_symlinks=False):
        return "dir"
    if entry.name.endswith(".py"):
        if entry.is_symlink():
            try:
                os.stat(entry.path)  # a loop or an unreadable target raises here, not silently
            except FileNotFoundError:
                return "other"  # dangling (an editor's lock file `.#server.py`): nothing to lint
        if entry.is_file():
            return "python"
    return "other"


def _skipped_name(name: str) -> bool:
    return name in SKIPPED_DIRECTORIES or name.endswith(".egg-info")


def _warn(warned: set[str], message: str, *args: object) -> None:
    """One line on stderr, once per `warned` set (a run can walk a directory and its project
    both); the walk goes on."""
    import sys

    text = f"mcp-lint: warning: {message % args}"
    if text not in warned:
        warned.add(text)
        print(text, file=sys.stderr)
