"""Compiled programs of mcp-lint's own regular expressions, kept between runs as `.pyc` files keep bytecode.

`re.compile` parses a pattern and writes its matching program in Python (`re._parser`,
`re._compiler`) before the C engine takes it: the ~75 patterns of mcp-lint's tables that a first
analysis uses cost about 30 ms of CPU every run, a tenth of a one-file pre-commit run (bench/README.md,
stops 43 and 44). The program is a list of integers that depends only on the pattern, its flags
and the engine's version, so it can be kept: `install()` makes `lazy_re`'s patterns look their
program up in a store and hand it to the engine (`_sre.compile`, what `re.compile` ends with),
and `save()` writes the programs this run made anew.

A program is stored only after the pattern built from it compared equal to `re.compile`'s
(`Pattern.__eq__` compares the flags, the pattern and the whole program) with the same groups, so
a Python whose `re` internals differ only stores nothing and compiles as before. Patterns whose
program depends on more than their text (`re.LOCALE`, `re.DEBUG`) are never stored. The store sits
beside generated_code's, named by the interpreter's bytecode magic number and the engine's
version, under the same trust and conditions (written only where Python writes bytecode, only by
the `mcp-lint` command: importing mcp_lint as a library changes nothing).
"""

from __future__ import annotations

import marshal
import os
import re
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from typing import Any, AnyStr

try:  # the parser and code writer `re.compile` runs (Python 3.11 moved them)
    import _sre
    from re import _compiler, _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python < 3.11
    try:
        import _sre
        import sre_compile as _compiler
        import sre_parse as _parser
    except ImportError:
        _compiler = _parser = None  # type: ignore[assignment]

__all__ = ["compile_pattern", "install", "save", "save_when_worker_ends", "store_path"]

# (pattern, flags) -> (final flags, program, groups - 1, group index, index group): the arguments
# after the pattern that re._compiler.compile gives `_sre.compile`.
Program = tuple[int, list[int], int, dict[str, int], tuple[Any, ...]]
_UNSTORED_FLAGS = re.LOCALE | re.DEBUG
# More programs than this (one run uses about a hundred): rewritten with one run's only.
_MOST_KEPT = 5_000


class _Store:
    """The programs known (read on first use), those this run used, and whether any was new."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._known: dict[tuple[Any, int], Program] | None = None
        self.used: dict[tuple[Any, int], Program] = {}
        self.made_anew = False
        self.owner = os.getpid()  # forked workers inherit the store; only this process writes it

    @property
    def known(self) -> dict[tuple[Any, int], Program]:
        if self._known is None:
            self._known = _read(self.path)
        return self._known

    def compile(self, pattern: AnyStr, flags: int) -> re.Pattern[AnyStr]:
        key = (pattern, flags)
        program = self.known.get(key)
        if program is not None:
            try:
                compiled = _store_compile(pattern, program)
            except (TypeError, ValueError, RuntimeError, OverflowError):  # a damaged entry
                del self.known[key]
            else:
                self.used[key] = program
                return compiled
        compiled = re.compile(pattern, flags)
        program = _program_of(pattern, flags, compiled)
        if program is not None:
            self.known[key] = self.used[key] = program
            self.made_anew = True
        return compiled


_store: _Store | None = None


def compile_pattern(pattern: AnyStr, flags: int | re.RegexFlag = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, from a stored program when the command installed the store."""
    store = _store
    if store is None:
        return re.compile(pattern, flags)
    return store.compile(pattern, int(flags))


def store_path() -> Path:
    """Where the programs are kept for the running interpreter and regular expression engine."""
    magic = getattr(_sre, "MAGIC", 0) if _compiler is not None else 0
    return Path(__file__).parent / "__pycache__" / f"regex-programs.{MAGIC_NUMBER.hex()}.{magic}.marshal"


def install() -> None:
    """Compile `lazy_re`'s patterns through the store (idempotent; nothing is read until a
    pattern is first used)."""
    global _store
    if _store is None and _compiler is not None:
        _store = _Store(store_path())


def save_when_worker_ends() -> None:
    """In a forked pool worker: write the programs this worker makes anew when it ends. The
    patterns a worker's files need first (a one-file run's helper modules, a directory run's
    files) are compiled there, and the parent never sees them."""
    store = _store
    if store is None:
        return
    store.owner = os.getpid()
    store.made_anew = False  # what the parent made is the parent's to write
    from multiprocessing import util

    util.Finalize(None, save, exitpriority=0)  # run by the worker's own exit (Process._bootstrap)


def save() -> None:
    """Write the store when this process made a program it did not hold (best effort, as
    generated_code.save: a read-only installation only keeps compiling). The programs on disk
    are kept beside this process's: the parent and the workers of a run each write theirs."""
    store = _store
    if store is None or not store.made_anew or store.owner != os.getpid() or sys.dont_write_bytecode:
        return
    temporary = store.path.with_name(f"{store.path.name}.{os.getpid()}.tmp")
    try:
        store.path.parent.mkdir(exist_ok=True)
        known = {**_read(store.path), **store.known}
        kept = known if len(known) <= _MOST_KEPT else store.used
        temporary.write_bytes(marshal.dumps(kept))
        os.replace(temporary, store.path)  # a concurrent run reads the old store or this one whole
    except (OSError, ValueError):
        try:
            temporary.unlink()
        except OSError:
            pass
        return
    store.made_anew = False


def _store_compile(pattern: AnyStr, program: Program) -> re.Pattern[AnyStr]:
    """The pattern the engine makes of a program (the C call re._compiler.compile ends with; the
    engine checks the program before it takes it)."""
    return _sre.compile(pattern, *program)


def _program_of(pattern: AnyStr, flags: int, compiled: re.Pattern[AnyStr]) -> Program | None:
    """The program `re.compile` gave `compiled`, made again the way re._compiler.compile makes it,
    or None when it cannot be stored: flags whose program is not the text's alone, or a program
    that does not give back a pattern equal to `compiled` (a Python whose internals differ)."""
    if flags & _UNSTORED_FLAGS:
        return None
    try:
        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        # Plain ints: the writer emits named int constants (opcodes), which marshal refuses.
        program: Program = (
            int(flags | parsed.state.flags), list(map(int, code)), parsed.state.groups - 1, groupindex, tuple(indexgroup)
        )
        again = _store_compile(pattern, program)
    except Exception:  # noqa: BLE001 - any failure of the internals only means "not stored"
        return None
    if again != compiled or again.groups != compiled.groups or again.groupindex != compiled.groupindex:
        return None
    return program


def _read(path: Path) -> dict[tuple[Any, int], Program]:
    try:
        loaded = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {
        key: program
        for key, program in loaded.items()
        if type(key) is tuple and len(key) == 2 and type(program) is tuple and len(program) == 5
    }
