"""`mcp-lint check --watch`: lint, then lint again whenever a Python file or a configuration file
under the paths changes, as `ruff check --watch` does. Each run clears the screen and starts with
a timestamped header; Ctrl-C ends the watch with exit 0.

The file events come from watchfiles (the `watch` extra): native notifications, batched while a
burst of writes lasts (an editor's save, a `git checkout`), so one change is one run.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TextIO

if TYPE_CHECKING:
    from mcp_lint.runner import CheckOptions

# What a change must touch to start a run: the sources and the files settings come from.
WATCHED_SUFFIXES = (".py", ".pyi")
WATCHED_NAMES = ("pyproject.toml", "setup.cfg")
# ANSI: erase the screen and the scrollback, cursor to the top left (what ruff's watch does).
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"


def is_relevant(path: str) -> bool:
    """Does a change to `path` change what a lint of the watched paths reports?"""
    name = Path(path).name
    return name.endswith(WATCHED_SUFFIXES) or name in WATCHED_NAMES


def watch(options: CheckOptions, run: Callable[[CheckOptions], int], out: TextIO | None = None) -> int:
    """Run `run` on `options` now and after every relevant change, until interrupted: exit 0.

    Each run gets a fresh copy of the options (a run records what it found in them) and builds its
    settings anew, so an edited pyproject.toml is read again."""
    from watchfiles import DefaultFilter

    from mcp_lint.discovery import SKIPPED_DIRECTORIES

    stream = out or sys.stdout

    class SourcesAndSettings(DefaultFilter):
        ignore_dirs = tuple(sorted(set(DefaultFilter.ignore_dirs) | SKIPPED_DIRECTORIES))

        def __call__(self, change, path: str) -> bool:  # type: ignore[no-untyped-def]
            return super().__call__(change, path) and is_relevant(path)

    try:
        _run_once(options, run, stream, "Starting linter in watch mode...")
        from watchfiles import watch as changes

        for _batch in changes(*watched_paths(options.paths), watch_filter=SourcesAndSettings(), raise_interrupt=True):
            _run_once(options, run, stream, "File change detected...")
    except KeyboardInterrupt:
        stream.write("\n")
        stream.flush()
    return 0


def watched_paths(paths: list[Path]) -> list[Path]:
    """The paths, and the settings files of their projects that lie outside them (a named file's
    pyproject.toml), as ruff's watch adds the configuration file."""
    from mcp_lint.discovery import project_root

    out = list(paths)
    inside = [Path(path).resolve() for path in paths]
    for path in paths:
        root = project_root(path)
        for name in WATCHED_NAMES if root is not None else ():
            settings = (root / name).resolve()
            if settings.is_file() and not any(settings == p or p in settings.parents for p in inside):
                out.append(settings)
                inside.append(settings)
    return out


def _run_once(options: CheckOptions, run: Callable[[CheckOptions], int], stream: TextIO, header: str) -> None:
    stream.write(CLEAR_SCREEN)
    stream.write(f"[{time.strftime('%H:%M:%S')}] {header}\n\n")
    stream.flush()
    run(replace(options))
    stream.write(f"\n[{time.strftime('%H:%M:%S')}] Watching for file changes.\n")
    stream.flush()
