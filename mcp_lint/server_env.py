"""Environment settings a project's files give its server: `FASTMCP_MASK_ERROR_DETAILS=true` in a
`.env`, a compose file, a Dockerfile, fastmcp.json or pyproject.toml.

The one reader of those files: the rules whose verdict depends on masking (on, it silences one
rule's finding and is what another reports under) ask it through the link step's lookup
(pins.PinSource.env_setting), and the cache re-checks a stored run with it (cache.RunEntry). Standard library only: a warm run that re-checks
the files must not import libcst.

What the reader looks at: the server module's directory and those above it, up to the project
root (a directory holding pyproject.toml, setup.py, setup.cfg or .git), each directory's files
whose name marks them as setting the server's environment, templates (`.env.example`) left out. A variable counts as set when a line
that is not a comment assigns it (`NAME=value`, `NAME: value`, `ENV NAME value`, `"NAME": "value"`,
quoted or not); in one file the last assignment wins. Values are read as fastmcp's settings read
them (pydantic's bool parsing, any case): true/1/yes/on/t/y are on, false/0/no/off/f/n off,
anything else (an interpolation such as `${MASK:-true}`) says nothing.

A release may read several spellings of one setting (fastmcp 2.8-2.13: FASTMCP_MASK_ERROR_DETAILS,
then the deprecated FASTMCP_SERVER_MASK_ERROR_DETAILS); the caller passes them in the framework's
lookup order (the release's row, frameworks.Channel.mask_env_names), and within one file the first
of them that the file sets decides, as in the environment the file describes.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Mapping, Tuple, Union

from mcp_lint.lazy_re import lazy_compile

__all__ = ["EnvReading", "EnvSetting", "read_env_setting", "setting_in_texts"]

# Files of a project that set its server's environment.
_CONFIG_FILE = lazy_compile(
    r"^(?:\.env(?:\..+)?|.*\.env|(?:docker-)?compose.*\.ya?ml|Dockerfile.*|fastmcp\.json|pyproject\.toml|\.mcp\.json|smithery\.yaml)$",
    re.I,
)
# Templates a developer copies and fills in (`.env.example`, `Dockerfile.template`): no runtime loads
# them, so what they say is not what the server runs with.
_TEMPLATE = lazy_compile(r"(?:^|[._-])(?:example|sample|template|tmpl|dist|defaults?)(?:[._-]|$)", re.I)
_PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_MAX_LEVELS = 8  # directories walked up from the server's
_MAX_CHARS = 200_000  # of one file: a settings file is small; a huge one is no settings file
# pydantic's str -> bool (what fastmcp's BaseSettings applies to the variable's text).
_ON = frozenset({"true", "1", "yes", "on", "t", "y"})
_OFF = frozenset({"false", "0", "no", "off", "f", "n"})
_COMMENT = ("#", "//")

# One variable's name, or the names of one setting in the order the framework looks them up.
Variables = Union[str, Tuple[str, ...]]


@dataclass(frozen=True)
class EnvSetting:
    """A project file that sets a variable, and the value it sets (as written, unquoted)."""

    path: str  # the file, as the reader found it (absolute on disk; the given name in memory)
    variable: str
    value: str

    @property
    def on(self) -> bool:
        return self.value.lower() in _ON

    def describe(self) -> str:
        """'FASTMCP_MASK_ERROR_DETAILS=true in .env' (the file relative to the working directory)."""
        path = os.path.relpath(self.path) if os.path.isabs(self.path) else self.path
        return f"{self.variable}={self.value} in {path}"


@dataclass(frozen=True)
class EnvReading:
    """What the reader found for one directory and variable: the file that turns it on (None when
    none does), and every directory and file it consulted (a run that used the answer depends on
    them: a directory's mtime moves when a file is created or deleted in it, a file's with any write)."""

    setting: EnvSetting | None
    consulted: tuple[str, ...]


def _assignment(variable: str) -> re.Pattern[str]:
    # The name on its own (not `MY_NAME`, `$NAME`, `NAME_X`), an optional closing quote (JSON,
    # `- "NAME=value"`), a separator (`=`, `:`, or the blank of Dockerfile's `ENV NAME value`),
    # then the value, optionally quoted.
    return re.compile(
        rf"(?<![\w$]){re.escape(variable)}[\"']?\s*(?:[=:]|\s)\s*[\"']?(?P<value>[^\s\"',;#}}\]]*)",
        re.I,
    )


def _names(variables: Variables) -> tuple[str, ...]:
    return (variables,) if isinstance(variables, str) else tuple(variables)


def _values_in(text: str, patterns: dict[str, re.Pattern[str]]) -> dict[str, str]:
    """Per variable, the value the file's last uncommented assignment gives it, for the variables
    assigned a value fastmcp would read as a bool (one pass over the lines for all of them)."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        stripped = line.lstrip()
        if not stripped or stripped.startswith(_COMMENT):
            continue
        for variable, pattern in patterns.items():
            for match in pattern.finditer(stripped):
                value = match.group("value")
                if value.lower() in _ON or value.lower() in _OFF:
                    found[variable] = value
    return found


def _deciding(text: str, names: tuple[str, ...], patterns: dict[str, re.Pattern[str]]) -> EnvSetting | None:
    """What the file sets for the setting: the first of `names` (lookup order) it assigns, with its
    value (the path is filled in by the caller); None when it assigns none of them."""
    values = _values_in(text[:_MAX_CHARS], patterns)
    variable = next((name for name in names if name in values), None)
    return EnvSetting("", variable, values[variable]) if variable is not None else None


def setting_in_texts(files: Mapping[str, str], variables: Variables) -> EnvSetting | None:
    """The first of `files` (name -> text, in order) that turns the setting on: the first of
    `variables` (one name, or the names in the framework's lookup order) that the file assigns is
    on. A file that sets the deciding name off turns it off even where it sets a later name on."""
    names = _names(variables)
    patterns = {name: _assignment(name) for name in names}
    for path, text in files.items():
        decided = _deciding(text, names, patterns)
        if decided is not None and decided.on:
            return EnvSetting(path, decided.variable, decided.value)
    return None


def read_env_setting(directory: str, variables: Variables) -> EnvReading:
    """Which project file, from `directory` up to its project root, turns the setting `variables`
    names on (one name, or its spellings in the framework's lookup order)."""
    consulted: list[str] = []
    current = os.path.abspath(directory)
    for _ in range(_MAX_LEVELS):
        consulted.append(current)
        try:
            names = sorted(os.listdir(current))
        except OSError:
            break
        texts: dict[str, str] = {}
        for name in names:
            path = os.path.join(current, name)
            if not _CONFIG_FILE.match(name) or _TEMPLATE.search(name) or not os.path.isfile(path):
                continue
            consulted.append(path)
            try:
                with open(path, encoding="utf-8", errors="replace") as stream:
                    texts[path] = stream.read(_MAX_CHARS)
            except OSError:
                continue
        found = setting_in_texts(texts, variables)
        if found is not None:
            return EnvReading(found, tuple(consulted))
        parent = os.path.dirname(current)
        if any(marker in names for marker in _PROJECT_MARKERS) or parent == current:
            break
        current = parent
    return EnvReading(None, tuple(consulted))
