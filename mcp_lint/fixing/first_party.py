"""Which top-level modules count as the project's own (isort's first-party section), for the
imports a fix adds: what the fixed file's import root holds, as isort finds modules in its source
paths, plus the names the project's own isort or ruff settings declare first party."""

from __future__ import annotations

import configparser
from pathlib import Path

from mcp_lint.config import _tomllib

# Files isort and ruff read their settings from, nearest first, and where the setting sits.
_TOML_TABLES = {
    "pyproject.toml": (("tool", "ruff", "lint", "isort"), ("tool", "ruff", "isort"), ("tool", "isort")),
    "ruff.toml": (("lint", "isort"), ("isort",)),
    ".ruff.toml": (("lint", "isort"), ("isort",)),
}
_INI_FILES = {".isort.cfg": "settings", "setup.cfg": "isort", "tox.ini": "isort"}


def first_party(path: str, module: str) -> frozenset[str]:
    """The first-party top-level names for the file at `path`, imported as `module`."""
    root = import_root(path, module)
    if root is None:
        return frozenset()
    return top_level_modules(root) | configured_first_party(root)


def import_root(path: str, module: str) -> Path | None:
    """The folder `module` is imported from: `path` less one folder per dotted part."""
    file = Path(path)
    parts = module.split(".")
    depth = len(parts) - 1 if file.name != "__init__.py" else len(parts)
    if not module or len(file.parents) <= depth:
        return None
    return file.parents[depth]


def top_level_modules(root: Path) -> frozenset[str]:
    try:
        entries = list(root.iterdir())
    except OSError:
        return frozenset()
    names = set()
    for entry in entries:
        if entry.suffix == ".py" and entry.is_file():
            names.add(entry.stem)
        elif entry.is_dir() and entry.name.isidentifier() and any(entry.glob("*.py")):
            names.add(entry.name)
    return frozenset(names)


def configured_first_party(root: Path) -> frozenset[str]:
    """`known-first-party` of the nearest settings file at or above `root` that has an isort
    section (ruff's or isort's own); unreadable files count as none."""
    for folder in (root, *root.parents):
        for name, tables in _TOML_TABLES.items():
            found = _from_toml(folder / name, tables)
            if found is not None:
                return found
        for name, section in _INI_FILES.items():
            found = _from_ini(folder / name, section)
            if found is not None:
                return found
        if (folder / ".git").exists():
            break
    return frozenset()


def _from_toml(file: Path, tables: tuple[tuple[str, ...], ...]) -> frozenset[str] | None:
    if not file.is_file():
        return None
    try:
        data = _tomllib().loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    for keys in tables:
        table: object = data
        for key in keys:
            table = table.get(key) if isinstance(table, dict) else None
        if isinstance(table, dict):
            names = table.get("known-first-party", table.get("known_first_party", []))
            return frozenset(n for n in names if isinstance(n, str)) if isinstance(names, list) else frozenset()
    return None


def _from_ini(file: Path, section: str) -> frozenset[str] | None:
    if not file.is_file():
        return None
    parser = configparser.ConfigParser()
    try:
        parser.read(file, encoding="utf-8")
    except (OSError, UnicodeDecodeError, configparser.Error):
        return None
    for name in (section, f"tool:{section}"):
        if parser.has_section(name):
            value = parser.get(name, "known_first_party", fallback="")
            return frozenset(n.strip() for n in value.replace("\n", ",").split(",") if n.strip())
    return None
