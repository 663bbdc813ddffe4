"""Bytecode for the methods `dataclasses` writes at import time, kept between runs like `.pyc` files.

`@dataclass` writes each class's `__init__`, `__repr__`, `__eq__`... as Python source and
compiles it with `exec` on every import. libcst defines hundreds of node dataclasses and mcp-lint
about seventy, so parsing and compiling that generated source is half of the instructions a
one-file run spends importing (callgrind: 0.85G of 1.68G; `import libcst` alone spends 0.55G of
its 0.98G that way). The source is the same every run, so its bytecode can be kept as a `.pyc`
keeps a module's: `install()` makes `dataclasses` run a stored code object for a source text it
has compiled before (the text is the key, so a changed library or class only misses), and
`save()` writes what this process compiled anew.

The store sits in mcp-lint's own `__pycache__`, named by the interpreter's bytecode magic number:
whoever can write there can change mcp-lint's bytecode anyway (the trust of a `.pyc`), and it is
written only where Python itself would write bytecode (not under PYTHONDONTWRITEBYTECODE). Only
`mcp-lint` the command installs it (cli.entry); importing mcp_lint as a library changes nothing.
"""

from __future__ import annotations

import dataclasses
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

__all__ = ["install", "run", "save", "store_path"]

_builtin_exec = exec


class _Store:
    """The code objects known (source text -> code), what this run used, and whether any was new."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[str, CodeType] = _read(path)
        self.used: dict[str, CodeType] = {}
        self.compiled_anew = False
        self.owner = os.getpid()  # forked workers inherit the store; only this process writes it

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """`exec` as `dataclasses` calls it, with a source text's code object compiled once."""
        if not isinstance(source, str):
            _builtin_exec(source, globals, locals)
            return
        code = self.known.get(source)
        if code is None:
            # As exec(str) compiles it from dataclasses' frame: "<string>", no inherited future flags.
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.known[source] = code
            self.compiled_anew = True
        self.used[source] = code
        _builtin_exec(code, globals, locals)


_store: _Store | None = None
# More source texts than this in the store (one run of mcp-lint with libcst uses about 1,500):
# it is rewritten with one run's texts only.
_MOST_KEPT = 20_000


def run(source: str, namespace: dict[str, Any]) -> None:
    """`exec(source, namespace)` for mcp-lint's own generated functions (model/walk.py's child
    readers): through the store when the command installed it, so their bytecode is kept too."""
    if _store is not None:
        _store.exec(source, namespace)
    else:
        _builtin_exec(source, namespace)


def store_path() -> Path:
    """Where the code objects are kept for the running interpreter."""
    return Path(__file__).parent / "__pycache__" / f"dataclass-methods.{MAGIC_NUMBER.hex()}.marshal"


def install() -> None:
    """Run the source `dataclasses` generates through the store (idempotent)."""
    global _store
    if _store is not None:
        return
    _store = _Store(store_path())
    # dataclasses looks `exec` up among its module globals before the builtins.
    dataclasses.exec = _store.exec  # type: ignore[attr-defined]


def save() -> None:
    """Write the store, when this run had to compile a source text it did not hold (best effort:
    a read-only installation only keeps compiling). What earlier runs stored stays (a warm run
    imports no libcst, a cold run does), unless the store has grown far beyond one run's use
    (libraries upgraded many times): then only this run's texts are kept."""
    store = _store
    if store is None or not store.compiled_anew or store.owner != os.getpid() or sys.dont_write_bytecode:
        return
    temporary = store.path.with_name(f"{store.path.name}.{os.getpid()}.tmp")
    try:
        store.path.parent.mkdir(exist_ok=True)
        kept = store.known if len(store.known) <= _MOST_KEPT else store.used
        temporary.write_bytes(marshal.dumps(kept))
        os.replace(temporary, store.path)  # a concurrent run reads the old store or this one whole
    except OSError:
        try:
            temporary.unlink()
        except OSError:
            pass
        return
    store.compiled_anew = False


def _read(path: Path) -> dict[str, CodeType]:
    try:
        loaded = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {text: code for text, code in loaded.items() if isinstance(text, str) and isinstance(code, CodeType)}
