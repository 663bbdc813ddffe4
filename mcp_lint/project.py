"""The MCP framework versions a linted project declares, read from its metadata files.

Rules are version-aware (what reaches the model differs between mcp 1.x and 2.x, fastmcp 3.x and
4.x), but mcp-lint never runs or imports the code it lints, and the environment it runs in is not
the linted project's. So the versions come from what the project *declares*: pyproject.toml
(PEP 621, PEP 735, Poetry, uv), requirements files, setup.cfg, setup.py (read with ``ast``, never
executed), uv.lock / poetry.lock, and unpacked sdist/wheel metadata.

Every file is optional and untrusted: one that cannot be read or parsed is skipped, never raised.
"""

from __future__ import annotations

import ast
import enum
import fnmatch
import functools
import json
import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NamedTuple

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from mcp_lint.lazy_re import lazy_compile

DISTRIBUTIONS = frozenset({"mcp", "fastmcp", "fastmcp-slim", "mcp-types"})
TARGET_SOURCE = "[tool.mcp-lint] target"

# Walking up can reach directories we know nothing about; a metadata file bigger than this is
# not one a project wrote by hand (the largest real uv.lock files are a few MiB).
MAX_FILE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Pin:
    """What one distribution is declared as: ``specifier`` is a PEP 440 set, "" for any version."""

    distribution: str
    specifier: str
    source: str


@dataclass(frozen=True)
class DeclaredDeps:
    """The project's pins on the MCP frameworks, at most one per distribution, sorted by name."""

    pins: tuple[Pin, ...] = ()
    # Every file read and directory listed to find the pins, from the start directory up: the
    # exact inputs of this answer, so a cache can tell it is still right from their stats alone.
    files: tuple[str, ...] = field(default=(), compare=False)

    def get(self, distribution: str) -> Pin | None:
        name = _canonical_name(distribution)
        for pin in self.pins:
            if pin.distribution == name:
                return pin
        return None


class _Kind(enum.IntEnum):
    """How much a requirement says about the version in use; the highest kind found wins."""

    EXTRA = 0  # only installed with an optional extra: used when nothing else names the dist
    DECLARED = 1  # a range the project asks for: ranges from all files are intersected
    EXACT = 2  # a lock file or the distribution's own metadata: the version that is installed


class _Found(NamedTuple):
    distribution: str
    kind: _Kind
    source: str
    specifier: str = ""  # for DECLARED / EXTRA
    version: str = ""  # for EXACT


# --- public API -------------------------------------------------------------------------------


def declared_dependencies(start: Path) -> DeclaredDeps:
    """The pins of the nearest directory, from ``start`` (a file or directory) up to the root,
    whose metadata files name one of the MCP distributions; empty when none does."""
    path = Path(start)
    try:
        path = path.resolve()
    except (OSError, RuntimeError):  # symlink loop
        path = path.absolute()
    try:
        is_dir = path.is_dir()
    except OSError:
        is_dir = False
    return _for_directory(path if is_dir else path.parent)


def clear_cache() -> None:
    """Forget every directory read so far (for long-running processes that watch files)."""
    _for_directory.cache_clear()


def parse_target(target: str) -> DeclaredDeps:
    """The pin a ``[tool.mcp-lint] target = "fastmcp>=3.4,<4"`` setting declares.

    Raises ValueError with a message for the user when ``target`` is not a requirement on one
    of the MCP distributions: unlike a stray metadata file, this is the user's own setting.
    """
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        requirement = Requirement(target)
    except InvalidRequirement as exc:
        raise ValueError(f"invalid target {target!r}: {exc}") from None
    distribution = _canonical_name(requirement.name)
    if distribution not in DISTRIBUTIONS:
        known = ", ".join(sorted(DISTRIBUTIONS))
        raise ValueError(f"invalid target {target!r}: expected one of {known}")
    return DeclaredDeps((Pin(distribution, _canonical(requirement.specifier), TARGET_SOURCE),))


def fingerprint(deps: DeclaredDeps) -> str:
    """A stable string for cache keys; the source is part of it because messages name it."""
    rows = sorted((pin.distribution, pin.specifier, pin.source) for pin in deps.pins)
    return json.dumps(rows, separators=(",", ":"))


# --- walking up -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _for_directory(directory: Path) -> DeclaredDeps:
    # Recursing (rather than looping) caches every directory on the way up, so sibling packages
    # of one project read the project's files once.
    read: list[str] = [str(directory)]  # listing it: a metadata file added here is noticed
    found = list(_scan_directory(directory, read))
    if found:
        return replace(_merge(found), files=tuple(read))
    if directory.parent == directory:
        return DeclaredDeps(files=tuple(read))
    above = _for_directory(directory.parent)
    return replace(above, files=(*read, *above.files))


def _scan_directory(directory: Path, read: list[str]) -> Iterator[_Found]:
    """The requirements declared in `directory`'s metadata files; `read` gets each file and
    directory looked at (requirements included with `-r ../other.txt` too)."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return
    names = {entry.name for entry in entries}
    read.extend(str(directory / name) for name in _METADATA_NAMES if name in names)
    if "pyproject.toml" in names:
        yield from _from_pyproject(directory / "pyproject.toml")
    if "setup.cfg" in names:
        yield from _from_setup_cfg(directory / "setup.cfg")
    if "setup.py" in names:
        yield from _from_setup_py(directory / "setup.py")
    seen: set[Path] = set()  # shared so a file both globbed and included is read once
    for name in sorted(names):
        if fnmatch.fnmatchcase(name, "requirements*.txt"):
            yield from _from_requirements(directory / name, seen)
    if "requirements" in names:
        read.append(str(directory / "requirements"))
        for path in _sorted_children(directory / "requirements", "*.txt"):
            yield from _from_requirements(path, seen)
    read.extend(sorted(str(path) for path in seen))
    for lock in ("uv.lock", "poetry.lock"):
        if lock in names:
            yield from _from_lock(directory / lock)
    if "PKG-INFO" in names:
        yield from _from_metadata(directory / "PKG-INFO")
    for entry in entries:
        if entry.name.endswith(".dist-info") and _is_dir(entry):
            read.append(os.path.join(entry.path, "METADATA"))
            yield from _from_metadata(Path(entry.path) / "METADATA")


# The metadata files of a directory read by name (requirements files are found by pattern).
_METADATA_NAMES = ("pyproject.toml", "setup.cfg", "setup.py", "uv.lock", "poetry.lock", "PKG-INFO")


def _sorted_children(directory: Path, pattern: str) -> list[Path]:
    try:
        return sorted(path for path in directory.glob(pattern) if path.is_file())
    except OSError:  # unreadable directory, or a PermissionError from is_file
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _merge(found: list[_Found]) -> DeclaredDeps:
    pins = []
    for distribution in sorted({item.distribution for item in found}):
        mine = [item for item in found if item.distribution == distribution]
        kind = max(item.kind for item in mine)
        chosen = [item for item in mine if item.kind == kind]
        source = ", ".join(dict.fromkeys(item.source for item in chosen))
        if kind is _Kind.EXACT:
            specifier = _exact_range(item.version for item in chosen)
        else:
            combined = SpecifierSet()
            for item in chosen:
                combined &= SpecifierSet(item.specifier)
            specifier = _canonical(combined)
        pins.append(Pin(distribution, specifier, source))
    return DeclaredDeps(tuple(pins))


def _exact_range(versions: Iterable[str]) -> str:
    # A uv.lock forked by Python version can lock two versions; any of them may be in use.
    ordered = sorted({Version(version) for version in versions})
    if len(ordered) == 1:
        return f"=={ordered[0]}"
    return f">={ordered[0]},<={ordered[-1]}"


_OPERATOR_RANK = {"===": 0, "==": 0, "~=": 1, ">=": 2, ">": 2, "!=": 3, "<=": 4, "<": 4}


def _canonical(specifiers: SpecifierSet) -> str:
    """Lower bounds before upper bounds (">=1.9,<2"), as people write them: messages read well."""
    ordered = sorted(specifiers, key=lambda spec: (_OPERATOR_RANK[spec.operator], str(spec)))
    return ",".join(str(spec) for spec in ordered)


# --- reading files ----------------------------------------------------------------------------


def _read_text(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\x00" in data:  # binary junk, not a text metadata file
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _load_toml(path: Path) -> dict[str, Any]:
    text = _read_text(path)
    if text is None:
        return {}
    # Imported here: a project declaring its dependencies elsewhere (a wheel's METADATA,
    # requirements.txt) never needs the TOML parser.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python < 3.11 only
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except (ValueError, RecursionError):  # TOMLDecodeError is a ValueError
        return {}


def _table(container: Any, key: str) -> dict[str, Any]:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    """The string items of a TOML array; other items (PEP 735 include-group tables) are skipped."""
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, str)]


class _Requirement(NamedTuple):
    distribution: str  # canonical name, one of DISTRIBUTIONS
    specifier: str
    extra_only: bool  # its marker names an extra: installed only with that extra


_NAME = lazy_compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
# `name`, `name[extras]`, `name>=1,<2`, `name (>=1)`: no marker, no URL. Most requirements have
# this shape; packaging's full PEP 508 parser (whose import costs a one-file run ~8 ms) reads
# the rest, and SpecifierSet still validates the specifier of these.
_SIMPLE = lazy_compile(r"\s*[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\]\s*)?(\(?)([^;@()\[\]]*)(\)?)\s*")


def _canonical_name(name: str) -> str:
    """A distribution name normalised as PEP 503 says (packaging.utils pulls in packaging.tags)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement(text: str) -> _Requirement | None:
    """The requirement in `text` when it is on one of DISTRIBUTIONS."""
    name = _NAME.match(text)
    distribution = _canonical_name(name.group(1)) if name else ""
    if distribution not in DISTRIBUTIONS:
        return None  # whatever else the line holds, it is not about an MCP framework
    simple = _SIMPLE.fullmatch(text)
    if simple is not None and (simple.group(1) == "") == (simple.group(3) == ""):
        try:
            return _Requirement(distribution, str(SpecifierSet(simple.group(2).strip())), False)
        except InvalidSpecifier:
            return None
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        requirement = Requirement(text.strip())
    except InvalidRequirement:
        return None
    marker = requirement.marker
    extra_only = marker is not None and re.search(r"\bextra\b", _QUOTED.sub("", str(marker))) is not None
    return _Requirement(distribution, str(requirement.specifier), extra_only)


def _pep508(texts: Iterable[str], kind: _Kind, source: Path) -> Iterator[_Found]:
    for text in texts:
        requirement = _requirement(text)
        if requirement is not None:
            yield _Found(requirement.distribution, kind, str(source), specifier=requirement.specifier)


# pyproject.toml


def _from_pyproject(path: Path) -> Iterator[_Found]:
    data = _load_toml(path)
    project = _table(data, "project")
    yield from _pep508(_strings(project.get("dependencies")), _Kind.DECLARED, path)
    for extra in _table(project, "optional-dependencies").values():
        yield from _pep508(_strings(extra), _Kind.EXTRA, path)
    for group in _table(data, "dependency-groups").values():
        yield from _pep508(_strings(group), _Kind.DECLARED, path)
    tool = _table(data, "tool")
    uv = _table(tool, "uv")
    for key in ("constraint-dependencies", "dev-dependencies"):
        yield from _pep508(_strings(uv.get(key)), _Kind.DECLARED, path)
    poetry = _table(tool, "poetry")
    tables = [_table(poetry, "dependencies"), _table(poetry, "dev-dependencies")]
    tables += [_table(group, "dependencies") for group in _table(poetry, "group").values()]
    for table in tables:
        for name, value in table.items():
            distribution = _canonical_name(name)
            if distribution in DISTRIBUTIONS:
                entry = _poetry_entry(value)
                if entry is not None:
                    specifier, optional = entry
                    kind = _Kind.EXTRA if optional else _Kind.DECLARED
                    yield _Found(distribution, kind, str(path), specifier=specifier)


def _poetry_entry(value: Any) -> tuple[str, bool] | None:
    """(PEP 440 specifier, optional?) of a Poetry dependency value, None when unusable."""
    if isinstance(value, str):
        specifier = _poetry_constraint(value)
        return None if specifier is None else (specifier, False)
    if isinstance(value, dict):
        version = value.get("version", "*")  # git/path/url dependencies have no version
        specifier = _poetry_constraint(version) if isinstance(version, str) else None
        return None if specifier is None else (specifier, value.get("optional") is True)
    if isinstance(value, list):
        # Multiple-constraint form: alternatives per Python version. A specifier set cannot
        # express their union, so differing alternatives mean "any version".
        entries = [_poetry_entry(item) for item in value if isinstance(item, dict)]
        usable = [entry for entry in entries if entry is not None]
        if not usable:
            return None
        specifiers = {specifier for specifier, _ in usable}
        optional = all(optional for _, optional in usable)
        return (specifiers.pop() if len(specifiers) == 1 else "", optional)
    return None


_POETRY_OPERATOR = lazy_compile(r"(\^|~=|~|===|==|!=|>=|<=|>|<|=)\s+")
_POETRY_SPLIT = lazy_compile(r"[,\s]+")


def _poetry_constraint(text: str) -> str | None:
    """Translate a Poetry version constraint ("^1.2", "~1.2", ">=1,<2", "1.2.*") to PEP 440."""
    branches = [branch.strip() for branch in text.split("||")]
    if len(branches) > 1:
        translated = {_poetry_constraint(branch) for branch in branches}
        if None in translated:
            return None
        return translated.pop() if len(translated) == 1 else ""  # a union: see _poetry_entry
    # Poetry allows "^1.2" and ">= 1.2 < 2": glue operators to versions, then split on , or space.
    parts = _POETRY_SPLIT.split(_POETRY_OPERATOR.sub(r"\1", text.strip()))
    specifiers: list[str] = []
    try:
        for part in parts:
            if part in ("", "*"):
                continue
            if part.startswith("^"):
                specifiers += _bounded(part[1:], _caret_index)
            elif part.startswith("~") and not part.startswith("~="):
                specifiers += _bounded(part[1:], _tilde_index)
            elif re.match(r"=[^=]", part):
                specifiers.append("=" + part)  # Poetry's "=1.2" is PEP 440's "==1.2"
            elif part[0] in "=!<>~":
                specifiers.append(part)
            else:
                specifiers.append("==" + part)  # a bare version (or "1.2.*") is exact in Poetry
        return _canonical(SpecifierSet(",".join(specifiers)))
    except (InvalidVersion, InvalidSpecifier):
        return None


def _caret_index(release: tuple[int, ...]) -> int:
    # Poetry's next_breaking: bump the major unless it is 0, then the minor unless it is 0.
    if release[0] > 0 or len(release) == 1:
        return 0
    if release[1] > 0 or len(release) == 2:
        return 1
    return 2


def _tilde_index(release: tuple[int, ...]) -> int:
    return 0 if len(release) == 1 else 1


def _bounded(text: str, bump_index: Callable[[tuple[int, ...]], int]) -> list[str]:
    version = Version(text)
    release = version.release
    index = bump_index(release)
    upper = ".".join(str(number) for number in (*release[:index], release[index] + 1))
    return [f">={version}", f"<{upper}"]


# requirements files

_CONTINUATION = lazy_compile(r"\\\r?\n")  # a backslash at the end of a line joins the next
_COMMENT = lazy_compile(r"(^|\s+)#.*$")  # pip: "#" at the start or after whitespace
_INCLUDE = lazy_compile(r"(?:-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+)?(\S+)")
_LINE_OPTION = lazy_compile(r"\s--[A-Za-z]")  # per-requirement options: --hash=..., --config-settings


def _from_requirements(path: Path, seen: set[Path]) -> Iterator[_Found]:
    try:
        key = path.resolve()
    except (OSError, RuntimeError):
        return
    if key in seen:  # an include cycle, or a file both globbed and included
        return
    seen.add(key)
    text = _read_text(key)
    if text is None:
        return
    for line in _CONTINUATION.sub("", text).splitlines():
        line = _COMMENT.sub("", line).strip()
        if not line:
            continue
        if line.startswith("-"):
            include = _INCLUDE.fullmatch(line)
            # Constraint files (-c) are followed like includes: they bound the version as
            # [tool.uv] constraint-dependencies do. Remote includes are never fetched.
            if include and "://" not in include.group(1):
                yield from _from_requirements(key.parent / include.group(1), seen)
            continue
        yield from _pep508([_LINE_OPTION.split(line, maxsplit=1)[0]], _Kind.DECLARED, key)


# setup.cfg and setup.py


def _from_setup_cfg(path: Path) -> Iterator[_Found]:
    text = _read_text(path)
    if text is None:
        return
    import configparser  # setup.cfg is rare: not worth importing on every start

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    install = parser.get("options", "install_requires", fallback="")
    yield from _pep508(_cfg_lines(install), _Kind.DECLARED, path)
    if parser.has_section("options.extras_require"):
        for _, value in parser.items("options.extras_require"):
            yield from _pep508(_cfg_lines(value), _Kind.EXTRA, path)


def _cfg_lines(value: str) -> list[str]:
    # "file: requirements.txt" directives are skipped: those files are read on their own.
    lines = (line.strip() for line in value.splitlines())
    return [line for line in lines if line and not line.startswith(("#", "file:"))]


def _from_setup_py(path: Path) -> Iterator[_Found]:
    text = _read_text(path)
    if text is None:
        return
    try:
        module = ast.parse(text, filename=str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    # install_requires=REQUIRES is common; resolve names bound to a literal at module level.
    bound: dict[str, ast.expr] = {}
    for statement in module.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = statement.value
    for node in ast.walk(module):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            value = keyword.value
            if isinstance(value, ast.Name):
                value = bound.get(value.id, value)
            if keyword.arg == "install_requires":
                yield from _pep508(_literal_strings(value), _Kind.DECLARED, path)
            elif keyword.arg == "extras_require" and isinstance(value, ast.Dict):
                for extra in value.values:
                    yield from _pep508(_literal_strings(extra), _Kind.EXTRA, path)


def _literal_strings(node: ast.expr) -> list[str]:
    if isinstance(node, (ast.List, ast.Tuple)):
        items = node.elts
        return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.splitlines()  # setuptools accepts a newline-separated string
    return []


# lock files and unpacked metadata


def _from_lock(path: Path) -> Iterator[_Found]:
    packages = _load_toml(path).get("package")
    for package in packages if isinstance(packages, list) else []:
        if not isinstance(package, dict):
            continue
        name, version = package.get("name"), package.get("version")
        if isinstance(name, str) and isinstance(version, str) and _is_version(version):
            distribution = _canonical_name(name)
            if distribution in DISTRIBUTIONS:
                yield _Found(distribution, _Kind.EXACT, str(path), version=version)


def _is_version(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


_QUOTED = lazy_compile(r"'[^']*'|\"[^\"]*\"")


def _from_metadata(path: Path) -> Iterator[_Found]:
    text = _read_text(path)
    if text is None:
        return
    headers = _metadata_headers(text)
    # The metadata of an MCP distribution itself (fastmcp's sdist, a site-packages dist-info)
    # states the exact version of that code.
    name, version = headers.get("name", [""])[0].strip(), headers.get("version", [""])[0].strip()
    if name and version and _is_version(version) and _canonical_name(name) in DISTRIBUTIONS:
        yield _Found(_canonical_name(name), _Kind.EXACT, str(path), version=version)
    for line in headers.get("requires-dist", []):
        requirement = _requirement(line)
        if requirement is not None:
            kind = _Kind.EXTRA if requirement.extra_only else _Kind.DECLARED
            yield _Found(requirement.distribution, kind, str(path), specifier=requirement.specifier)


def _metadata_headers(text: str) -> dict[str, list[str]]:
    """The header fields of a core metadata file (PKG-INFO, METADATA) by lower-cased name.

    The RFC 822 layout those files use: `Name: value` lines up to the first empty line (the
    description follows it), a line starting with whitespace continuing the field above. Read
    here rather than with the email package, whose import costs more than the whole lookup.
    """
    headers: dict[str, list[str]] = {}
    values: list[str] | None = None
    for line in text.splitlines():
        if not line.strip():
            break
        if line[0] in " \t":
            if values:
                values[-1] += " " + line.strip()
            continue
        field, colon, value = line.partition(":")
        if not colon:
            values = None
            continue
        values = headers.setdefault(field.strip().lower(), [])
        values.append(value.strip())
    return headers
