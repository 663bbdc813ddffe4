"""`[tool.mcp-lint]` settings: parsing, validation, rule selection and per-directory lookup.

Every linted file uses the nearest pyproject.toml that has a `[tool.mcp-lint]` table (as ruff does),
so a monorepo can hold several projects with their own settings. Rule selection follows ruff: a code
matches a selector when it starts with it, and when `select` and `ignore` both match, the longer
(more specific) selector wins, with ties going to `ignore`.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

    from pathspec import GitIgnoreSpec

from mcp_lint import registry

__all__ = ["ConfigError", "Settings", "SettingsResolver", "load_settings"]


def _tomllib() -> ModuleType:
    """The TOML parser, imported when a run reads TOML: an `--isolated` run reads none, and the
    parser's import (its regular expressions) costs a one-file run about a millisecond."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python < 3.11 only
        import tomli as tomllib
    return tomllib

TABLE = "[tool.mcp-lint]"
KNOWN_KEYS = (
    "cache-dir",
    "exclude",
    "extend",
    "extend-select",
    "fix",
    "fixable",
    "ignore",
    "per-file-ignores",
    "require-tools",
    "select",
    "target",
    "unfixable",
)
TARGET_PACKAGES = ("mcp", "fastmcp", "fastmcp-slim")
# Reported when a file cannot be read; it cannot be deselected, only ignored by its exact code.
UNREADABLE = "MCP000"


class ConfigError(Exception):
    """A configuration problem; `str()` is one line naming the file (or option) and the key."""


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ("MCP0",)
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    target: str | None = None
    # What messages credit the target to: the config key, or the command line's --target.
    target_origin: str = "[tool.mcp-lint] target"
    cache_dir: str = ".mcp_lint_cache"
    # `--extend-exclude` patterns: relative to the working directory, whatever the config's root.
    extend_exclude: tuple[str, ...] = ()
    # A run that lints files but finds no MCP server or tool in them warns and exits 2 (it
    # checked nothing), as does one in which a module's tool registrations were all left
    # unchecked (linking/unrecognised.py); `require-tools = false` accepts such a run.
    require_tools: bool = True
    # `fix = true`: `check` applies the safe fixes as if given `--fix` (`--no-fix` overrides it).
    fix: bool = False
    # Which rules' fixes are offered and applied: `fixable` (default every rule) minus `unfixable`,
    # the most specific selector deciding, as for `select`/`ignore`.
    fixable: tuple[str, ...] = ("ALL",)
    unfixable: tuple[str, ...] = ()
    config_path: Path | None = None  # the pyproject.toml these settings came from
    root: Path | None = None  # the directory of config_path; patterns are relative to it

    def with_overrides(
        self,
        *,
        select: Iterable[str] | None = None,
        ignore: Iterable[str] | None = None,
        extend_select: Iterable[str] | None = None,
        extend_ignore: Iterable[str] | None = None,
        target: str | None = None,
        target_origin: str = "--target",
        extend_exclude: Iterable[str] | None = None,
    ) -> Settings:
        """Apply command-line options on top of these settings, as a later layer (like ruff).

        `select` starts the rule set afresh (the file's `ignore` no longer applies); without it, the
        options only change the codes they match and every other code keeps its current state.
        Both `ignore` and `extend_ignore` remove codes. `per-file-ignores` always stays in force.
        """
        new_select = _selectors(select, "--select")
        removed = _selectors(ignore, "--ignore") + _selectors(extend_ignore, "--extend-ignore")
        added = _selectors(extend_select, "--extend-select")
        if extend_exclude:
            patterns = tuple(extend_exclude)
            _check_patterns(patterns, "--extend-exclude")
            self = replace(self, extend_exclude=self.extend_exclude + patterns)
        new_target = self.target if target is None else _parse_target(target, "--target")
        origin = self.target_origin if target is None else target_origin
        if select is not None:
            return replace(self, select=new_select + added, ignore=removed, target=new_target, target_origin=origin)
        if added or removed:
            enabled = {
                code: _layer_decision(code, added, removed, default=self._selected(code))
                for code in _known_codes()
            }
            # The carried-over state is spelled out as exact codes, which no prefix of a
            # later layer can outrank.
            kept = tuple(code for code, on in enabled.items() if on and code != UNREADABLE)
            dropped = () if enabled[UNREADABLE] else (UNREADABLE,)
            return replace(self, select=kept, ignore=dropped, target=new_target, target_origin=origin)
        return replace(self, target=new_target, target_origin=origin)

    def is_enabled(self, code: str, path: Path | None = None) -> bool:
        """Whether findings of `code` are reported (for the file at `path` when given)."""
        code = code.upper()
        if not self._selected(code):
            return False
        if path is None or not self.per_file_ignores:
            return True
        relative = _relative_posix(path, self.root)
        for pattern, selectors in self.per_file_ignores:
            if _ignore_matches(code, selectors) and _spec((pattern,)).match_file(relative):
                return False
        return True

    def is_fixable(self, code: str) -> bool:
        """Whether a finding of `code` keeps its fix (`fixable` minus `unfixable`; the more
        specific selector decides, `unfixable` on a tie)."""
        code = code.upper()
        chosen = _longest_match(code, self.fixable, exact_only=False)
        dropped = _longest_match(code, self.unfixable, exact_only=False)
        return chosen >= 0 and chosen > dropped

    def is_excluded(self, path: Path) -> bool:
        """Whether `path` (file or directory) matches the `exclude` patterns (relative to the
        config's directory) or the `--extend-exclude` ones (relative to the working directory)."""
        return _matches(self.exclude, path, self.root) or _matches(self.extend_exclude, path, None)

    def fingerprint(self) -> str:
        """A stable hash of what decides a file's findings (rule set, per-file ignores, target).

        Discovery-only settings (`exclude`, `cache-dir`) are left out. The file's own path is not
        part of it: per-file-ignores depend on it, so a cache key must add the path.
        """
        effective = {
            "enabled": sorted(code for code in _known_codes() if self.is_enabled(code)),
            "per_file_ignores": [[pattern, list(codes)] for pattern, codes in self.per_file_ignores],
            "target": self.target,
            # Findings of an unfixable rule are stored without their fix.
            "unfixable": sorted(code for code in _known_codes() if not self.is_fixable(code)),
            "target_origin": self.target_origin,  # messages name it
        }
        import json  # fingerprints serve the cache only

        from mcp_lint.hashing import blake2b

        blob = json.dumps(effective, sort_keys=True, separators=(",", ":"))
        return blake2b(blob.encode("utf-8"), digest_size=32).hexdigest()

    def _selected(self, code: str) -> bool:
        """`select`/`ignore` alone, without per-file-ignores."""
        if code == UNREADABLE:
            chosen = len(code)  # always selected, as if by its exact code
        else:
            chosen = _longest_match(code, self.select, exact_only=not _default_enabled(code))
        if chosen < 0:
            return False
        return chosen > _longest_match(code, self.ignore, exact_only=code == UNREADABLE)


def _matches(patterns: tuple[str, ...], path: Path, root: Path | None) -> bool:
    if not patterns:
        return False
    spec = _spec(patterns)
    relative = _relative_posix(path, root)
    if spec.match_file(relative):
        return True
    # Patterns ending in "/" match directories only, which pathspec recognises by the slash.
    has_directory_patterns = any(pattern.endswith("/") for pattern in patterns)
    return has_directory_patterns and os.path.isdir(path) and spec.match_file(relative + "/")


def config_overrides(values: Sequence[str]) -> tuple[dict[str, Any], Settings]:
    """`--config KEY=VALUE` options (ruff's syntax: the value is TOML): the table they make and
    the settings it validates to. Each is checked like the key in a pyproject.toml; errors name
    the option as given."""
    table: dict[str, Any] = {}
    tomllib = _tomllib()
    for value in values:
        where = f"--config '{value}'"
        try:
            parsed = tomllib.loads(value)
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(
                f"{where}: not a path to a pyproject.toml nor a KEY=VALUE override ({str(error).splitlines()[0]})"
            ) from None
        for key, item in parsed.items():
            if key not in KNOWN_KEYS:
                raise ConfigError(f"{where}: unknown key '{key}' (expected one of: {', '.join(KNOWN_KEYS)})")
            try:
                _settings_from_table({key: item}, Path("pyproject.toml"))
            except ConfigError as error:
                detail = str(error).split(f"{TABLE} ", 1)[-1]
                raise ConfigError(f"{where}: {detail}") from None
            table[key] = item
    return table, _settings_from_table(table, Path("pyproject.toml"))


# Settings fields set by each configuration key.
_FIELDS = {
    "select": "select",
    "ignore": "ignore",
    "exclude": "exclude",
    "per-file-ignores": "per_file_ignores",
    "target": "target",
    "cache-dir": "cache_dir",
    "require-tools": "require_tools",
    "fix": "fix",
    "fixable": "fixable",
    "unfixable": "unfixable",
}


def load_settings(pyproject: Path) -> Settings:
    """Read one pyproject.toml; defaults (rooted at its directory) when it has no table."""
    table = _read_table(pyproject)
    return _settings_from_table(table or {}, pyproject)


class SettingsResolver:
    """Finds and caches the Settings for each directory."""

    def __init__(
        self,
        *,
        isolated: bool = False,
        config_file: Path | None = None,
        overrides: Mapping[str, Any] | None = None,
        config_values: Sequence[str] = (),
        ignore_noqa: bool = False,
    ) -> None:
        if isolated and config_file is not None:
            raise ConfigError("--config and --isolated cannot be used together")
        self._isolated = isolated
        # `--ignore-noqa`: noqa comments suppress nothing in this run (and none is unused).
        self.ignore_noqa = ignore_noqa
        self._overrides = dict(overrides or {})
        # `--config KEY=VALUE`: as if written in every configuration in force (and the defaults).
        self._overlay_keys: tuple[str, ...] = ()
        self._overlay = Settings()
        if config_values:
            table, self._overlay = config_overrides(config_values)
            self._overlay_keys = tuple(table)
        # Keyed by absolute directory: (settings, project root). Every directory under one config
        # shares one Settings object, so callers can group files by identity.
        self._by_dir: dict[str, tuple[Settings, Path | None]] = {}
        self._directories: dict[str, str] = {}
        self._defaults = self._apply(Settings())
        self._fixed: Settings | None = None
        if config_file is not None:
            self._fixed = self._apply(load_settings(Path(os.path.abspath(config_file))))

    def for_path(self, path: Path) -> Settings:
        """The settings for a file (its directory's) or for a directory (its own)."""
        if self._fixed is not None:
            return self._fixed
        return self._lookup(self._directory_of(path))[0]

    def project_root(self, path: Path) -> Path | None:
        """The directory of the config in force, else of the nearest pyproject.toml, else None."""
        if self._fixed is not None:
            return self._fixed.root
        return self._lookup(self._directory_of(path))[1]

    def _directory_of(self, path: Path) -> str:
        absolute = os.path.abspath(path)
        # Memoised: a run asks for the same files several times (discovery, cache keys, link),
        # and each answer costs a stat.
        known = self._directories.get(absolute)
        if known is None:
            known = absolute if absolute in self._by_dir or os.path.isdir(absolute) else os.path.dirname(absolute)
            self._directories[absolute] = known
        return known

    def _lookup(self, directory: str) -> tuple[Settings, Path | None]:
        # Walk up to the first directory already known or holding a config (never reading the
        # pyproject.toml files above it), then fill in every directory passed on the way down.
        pending: list[tuple[str, bool]] = []  # (directory, holds a pyproject.toml)
        current = directory
        while True:
            if current in self._by_dir:
                inherited = self._by_dir[current]
                break
            candidate = Path(current, "pyproject.toml")
            has_pyproject = candidate.is_file()
            table = _read_table(candidate) if has_pyproject and not self._isolated else None
            if table is not None:
                settings = self._apply(_settings_from_table(table, candidate))
                inherited = self._by_dir[current] = (settings, settings.root)
                break
            pending.append((current, has_pyproject))
            parent = os.path.dirname(current)
            if parent == current:
                inherited = (self._defaults, None)
                break
            current = parent
        for pending_directory, has_pyproject in reversed(pending):
            settings, root = inherited
            if has_pyproject and settings.config_path is None:
                # No config in force: the project root is the nearest pyproject.toml.
                root = Path(pending_directory)
            inherited = self._by_dir[pending_directory] = (settings, root)
        return self._by_dir[directory]

    def _apply(self, settings: Settings) -> Settings:
        if self._overlay_keys:
            changes = {_FIELDS[key]: getattr(self._overlay, _FIELDS[key]) for key in self._overlay_keys}
            if "target" in self._overlay_keys:
                changes["target_origin"] = "--config target"
            settings = replace(settings, **changes)
        return settings.with_overrides(**self._overrides) if self._overrides else settings


# --- parsing --------------------------------------------------------------------------------


def _display(path: Path) -> str:
    """The path as the user would type it: relative to the working directory when inside it."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive on Windows
        return absolute
    return absolute if relative.startswith(os.pardir) else relative


def _read_table(pyproject: Path, chain: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The `[tool.mcp-lint]` table of a pyproject.toml, or None when it has none."""
    name = _display(pyproject)
    tomllib = _tomllib()
    try:
        with open(pyproject, "rb") as handle:
            document = tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{name}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{name}: invalid TOML: the file is not UTF-8") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{name}: invalid TOML: {str(error).splitlines()[0]}") from None
    tool = document.get("tool")
    if not isinstance(tool, dict) or "mcp-lint" not in tool:
        return None
    table = tool["mcp-lint"]
    if not isinstance(table, dict):
        raise ConfigError(f"{name}: {TABLE} must be a table, got {_toml_type(table)}")
    if "extend" in table:
        table = _extended(table, pyproject, chain + (os.path.abspath(pyproject),))
    return table


def _extended(table: dict[str, Any], pyproject: Path, chain: tuple[str, ...]) -> dict[str, Any]:
    """`extend = "../base.toml"`: the [tool.mcp-lint] table of that file (relative to this one)
    read first, this table's keys on top. `extend-select` adds to the base's, unless this table
    sets its own `select`."""
    where = f"{_display(pyproject)}: {TABLE} extend"
    target = table["extend"]
    if not isinstance(target, str) or not target.strip():
        raise ConfigError(f"{where} must be a path to a TOML file, got {_toml_type(target)}")
    base_path = Path(os.path.abspath(Path(pyproject).parent / os.path.expanduser(target)))
    if str(base_path) in chain:
        raise ConfigError(f"{where}: '{target}' extends back to this file (a cycle)")
    if not base_path.is_file():
        raise ConfigError(f"{where}: no such file '{target}'")
    base = _rebased(dict(_read_table(base_path, chain) or {}), base_path.parent, Path(os.path.abspath(pyproject)).parent)
    merged = {**base, **{key: value for key, value in table.items() if key != "extend"}}
    merged.pop("extend", None)
    if "select" in table:
        merged.pop("extend-select", None)
        if "extend-select" in table:
            merged["extend-select"] = table["extend-select"]
    elif isinstance(base.get("extend-select"), list) and isinstance(table.get("extend-select"), list):
        merged["extend-select"] = list(base["extend-select"]) + list(table["extend-select"])
    return merged


def _rebased(table: dict[str, Any], declared_in: Path, root: Path) -> dict[str, Any]:
    """An extended file's table with its paths read as ruff reads them: relative to the file
    that declares them (`declared_in`), restated relative to the extending file's directory
    (`root`), against which the merged settings match. A pattern that can match nothing below
    `root` is left out; malformed values are left for the validation to report."""
    if declared_in == root:
        return table
    out = dict(table)
    if isinstance(table.get("exclude"), list):
        out["exclude"] = [
            moved for pattern in table["exclude"] if (moved := _rebased_pattern(pattern, declared_in, root)) is not None
        ]
    if isinstance(table.get("per-file-ignores"), dict):
        out["per-file-ignores"] = {
            moved: codes
            for pattern, codes in table["per-file-ignores"].items()
            if (moved := _rebased_pattern(pattern, declared_in, root)) is not None
        }
    cache_dir = table.get("cache-dir")
    if isinstance(cache_dir, str) and cache_dir.strip():
        out["cache-dir"] = os.path.join(declared_in, os.path.expanduser(cache_dir))
    return out


def _rebased_pattern(pattern: Any, declared_in: Path, root: Path) -> Any:
    """`pattern`, relative to `declared_in`, as a pattern relative to `root`; None when it
    matches nothing below `root`.

    A pattern without a slash (other than a trailing one) is a name, matched at any depth
    wherever it is declared: it stays as it is. Any other pattern is anchored at its directory:
    its absolute form is walked down `root`'s own path, each of whose folders its components
    must match (`**` matches any number of them), and what remains is anchored at `root`."""
    if not isinstance(pattern, str):
        return pattern
    negated = pattern.startswith("!")
    body = pattern[1:] if negated else pattern
    if "/" not in body.rstrip("/"):
        return pattern
    import fnmatch

    sign = "!" if negated else ""
    trailing = "/" if body.endswith("/") else ""
    parts = Path(os.path.normpath(os.path.join(declared_in, body.lstrip("/")))).as_posix().strip("/").split("/")
    index = 0
    for folder in root.as_posix().strip("/").split("/"):
        if index == len(parts):
            return sign + "**"  # it names a folder above `root`: all of it
        if parts[index] == "**":
            break  # it goes on at any depth below here, `root` included
        if not fnmatch.fnmatchcase(folder, parts[index]):
            return None
        index += 1
    rest = "/".join(parts[index:])
    if not rest:
        return sign + "**"  # it names `root` itself
    return sign + ("" if rest.startswith("**") else "/") + rest + trailing


def _settings_from_table(table: Mapping[str, Any], pyproject: Path) -> Settings:
    name = _display(pyproject)

    def where(key: str) -> str:
        return f"{name}: {TABLE} {key}"

    unknown = sorted(set(table) - set(KNOWN_KEYS))
    if unknown:
        raise ConfigError(
            f"{name}: {TABLE} unknown key '{unknown[0]}' (expected one of: {', '.join(KNOWN_KEYS)})"
        )
    pyproject = Path(os.path.abspath(pyproject))
    values: dict[str, Any] = {"config_path": pyproject, "root": pyproject.parent}
    if "select" in table:
        values["select"] = _selectors(_strings(table["select"], where("select")), where("select"))
    if "ignore" in table:
        values["ignore"] = _selectors(_strings(table["ignore"], where("ignore")), where("ignore"))
    if "exclude" in table:
        patterns = _strings(table["exclude"], where("exclude"))
        _check_patterns(patterns, where("exclude"))
        values["exclude"] = patterns
    if "per-file-ignores" in table:
        values["per_file_ignores"] = _per_file_ignores(table["per-file-ignores"], where("per-file-ignores"))
    if "target" in table:
        values["target"] = _parse_target(table["target"], where("target"))
    if "cache-dir" in table:
        cache_dir = table["cache-dir"]
        if not isinstance(cache_dir, str):
            raise ConfigError(f"{where('cache-dir')} must be a string, got {_toml_type(cache_dir)}")
        if not cache_dir.strip():
            raise ConfigError(f"{where('cache-dir')} must not be empty")
        values["cache_dir"] = cache_dir
    if "require-tools" in table:
        if not isinstance(table["require-tools"], bool):
            raise ConfigError(f"{where('require-tools')} must be true or false, got {_toml_type(table['require-tools'])}")
        values["require_tools"] = table["require-tools"]
    if "extend-select" in table:
        added = _selectors(_strings(table["extend-select"], where("extend-select")), where("extend-select"))
        values["select"] = values.get("select", Settings.select) + added
    for key in ("fixable", "unfixable"):
        if key in table:
            values[key] = _selectors(_strings(table[key], where(key)), where(key))
    if "fix" in table:
        if not isinstance(table["fix"], bool):
            raise ConfigError(f"{where('fix')} must be true or false, got {_toml_type(table['fix'])}")
        values["fix"] = table["fix"]
    return Settings(**values)


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ConfigError(f"{where} must be an array of strings, got {_toml_type(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise ConfigError(f"{where}[{index}] must be a string, got {_toml_type(item)}")
    return tuple(value)


# Selects every rule, like ruff's `ALL`.
ALL_SELECTOR = "ALL"


def _selectors(values: Iterable[str] | None, where: str) -> tuple[str, ...]:
    """Upper-cased rule codes or prefixes; each must select at least one known rule."""
    if values is None:
        return ()
    if isinstance(values, str):  # a bare string would otherwise be split into letters
        values = [values]
    normalised = []
    for value in values:
        selector = value.strip().upper()
        if selector == ALL_SELECTOR:
            normalised.append(selector)
            continue
        if not selector or not any(code.startswith(selector) for code in _known_codes()):
            raise ConfigError(
                f"{where}: unknown rule code or prefix '{value}' (known codes: {', '.join(_known_codes())})"
            )
        normalised.append(selector)
    return tuple(normalised)


def _per_file_ignores(value: Any, where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table of glob = [codes], got {_toml_type(value)}")
    import json

    entries = []
    for pattern, codes in value.items():
        entry = f"{where}.{json.dumps(pattern)}"
        _check_patterns((pattern,), entry)
        entries.append((pattern, _selectors(_strings(codes, entry), entry)))
    return tuple(entries)


def _check_patterns(patterns: Sequence[str], where: str) -> None:
    try:
        _spec(tuple(patterns))
    except ValueError as error:  # pathspec's pattern error is a ValueError
        raise ConfigError(f"{where}: {error}") from None


def _parse_target(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be a string, got {_toml_type(value)}")
    example = 'such as "fastmcp>=3.4,<4"'
    try:
        requirement = _requirement(value)
    except _invalid_requirement() as error:
        reason = str(error).splitlines()[0]
        raise ConfigError(f"{where}: invalid requirement '{value}' ({reason}); write one {example}") from None
    from packaging.utils import canonicalize_name

    if canonicalize_name(requirement.name) not in TARGET_PACKAGES:
        raise ConfigError(
            f"{where}: '{value}' names {requirement.name}; expected one of {', '.join(TARGET_PACKAGES)}"
        )
    if requirement.url or requirement.marker:
        what = "a URL" if requirement.url else "an environment marker"
        raise ConfigError(f"{where}: '{value}' has {what}; give a version range {example}")
    if _empty_range(requirement.specifier):
        raise ConfigError(f"{where}: '{value}' admits no version at all (an empty range); give a version range {example}")
    return value.strip()


def _empty_range(specifier) -> bool:  # type: ignore[no-untyped-def]
    """Whether no version satisfies `specifier` (`>=1.9,<1.9`).

    A non-empty range holds one of the versions its clauses name, or one just above or below
    such a version, or a very early or very late one; those are the only candidates tried.
    """
    if not str(specifier):
        return False
    from packaging.version import InvalidVersion, Version

    candidates: list[str] = ["0", "0.0.1", "9999"]
    for clause in specifier:
        text = clause.version.replace(".*", "")
        try:
            release = Version(text).release
        except InvalidVersion:
            return False  # an arbitrary-equality clause (===): not ours to judge
        candidates.append(text)
        padded = (*release, *(0,) * (3 - len(release)))
        candidates.append(".".join(map(str, (*release, 1))))
        candidates.append(".".join(map(str, (*padded, 1))))
        candidates.append(".".join(map(str, (*release[:-1], release[-1] + 1))))
        if release[-1] > 0:
            candidates.append(".".join(map(str, (*release[:-1], release[-1] - 1, 99))))
    return not any(specifier.contains(candidate, prereleases=True) for candidate in candidates)


def _toml_type(value: Any) -> str:
    # bool before int: True is an int to isinstance.
    names = (
        (bool, "a boolean"),
        (int, "an integer"),
        (float, "a float"),
        (str, "a string"),
        (list, "an array"),
        (dict, "a table"),
    )
    for kind, described in names:
        if isinstance(value, kind):
            return described
    return "a date/time"


# --- matching -------------------------------------------------------------------------------


def _known_codes() -> tuple[str, ...]:
    return tuple(rule.code for rule in registry.RULES)


def _default_enabled(code: str) -> bool:
    rule = registry.get_rule(code)
    return rule is None or rule.default_enabled


def _longest_match(code: str, selectors: Iterable[str], *, exact_only: bool) -> int:
    """Length of the most specific selector matching `code`, or -1 when none does.

    `ALL` matches every code, the rules off by default too (as ruff's `ALL` turns on RUF100), and
    is the least specific selector: `select = ["ALL"], ignore = ["MCP1"]` leaves MCP1xx off.
    MCP000 is the exception in `ignore` (only its exact code turns it off, see _selected)."""
    best = -1
    for selector in selectors:
        if selector == ALL_SELECTOR:
            if not (exact_only and code == UNREADABLE):
                best = max(best, 0)
        elif selector == code or (not exact_only and code.startswith(selector)):
            best = max(best, len(selector))
    return best


def _ignore_matches(code: str, selectors: Iterable[str]) -> bool:
    return _longest_match(code, selectors, exact_only=code == UNREADABLE) >= 0


def _layer_decision(code: str, added: tuple[str, ...], removed: tuple[str, ...], *, default: bool) -> bool:
    """Whether a command-line layer turns `code` on or off; `default` when it does not touch it."""
    chosen = _longest_match(code, added, exact_only=not _default_enabled(code))
    dropped = _longest_match(code, removed, exact_only=code == UNREADABLE)
    if chosen < 0 and dropped < 0:
        return default
    return chosen > dropped


@lru_cache(maxsize=256)
def _spec(patterns: tuple[str, ...]) -> GitIgnoreSpec:
    from pathspec import GitIgnoreSpec  # imported on use: a run without patterns never needs it

    return GitIgnoreSpec.from_lines(patterns)


def _requirement(value: str):  # type: ignore[no-untyped-def]
    from packaging.requirements import Requirement  # costly import, needed only with `target`

    return Requirement(value)


def _invalid_requirement() -> type[Exception]:
    from packaging.requirements import InvalidRequirement

    return InvalidRequirement


def _relative_posix(path: Path, root: Path | None) -> str:
    """`path` relative to `root` (or the working directory) in posix form.

    A path outside the root is matched by its file name only, so that patterns without a slash
    (`__init__.py`, `*_test.py`) still apply, as they do at any depth.
    """
    absolute = os.path.abspath(path)
    base = str(root) if root is not None else os.getcwd()
    try:
        relative = os.path.relpath(absolute, base)
    except ValueError:  # another drive on Windows
        return os.path.basename(absolute)
    if relative == os.curdir or relative.startswith(os.pardir):
        return os.path.basename(absolute)
    return Path(relative).as_posix()
