"""Environment settings a project's files give its server: `FASTMCP_MASK_ERROR_DETAILS=true` in a
`.env`, a compose file, a Dockerfile, fastmcp.json or pyproject.toml.

The one reader of those files: MCP007 (masking on silences it) and MCP008 (masking on is what it
reports under) ask it through the link step's lookup (pins.PinSource.env_setting), and the cache
re-checks a stored run with it (cache.RunEntry). Standard library only: a warm run that re-checks
the files must not import libcst.

What the reader looks at: the server module's directory and those above it, up to the project
root (a directory holding pyproject.toml, setup.py, setup.cfg or .git), each directory's files
whose name marks them as setting the server's environment, templates (`.env.example`) left out. A variable counts as set when a line
that is not a comment assigns it (`NAME=value`, `NAME: value`, `ENV NAME value`, `"NAME": "value"`,
quoted or not); in one file the last assignment wins. Values are read as fastmcp's settings read
them (pydantic's bool parsing, any case): true/1/yes/on/t/y are on, false/0/no/off/f/n off,
anything else (an interpolation such as `${MASK:-true}`) says nothing.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Mapping

__all__ = ["EnvReading", "EnvSetting", "read_env_setting", "setting_in_texts"]

# Files of a project that set its server's environment.
_CONFIG_FILE = re.compile(
    r"^(?:\.env(?:\..+)?|.*\.env|(?:docker-)?compose.*\.ya?ml|Dockerfile.*|fastmcp\.json|pyproject\.toml|\.mcp\.json|smithery\.yaml)$",
    re.I,
)
# Templates a developer copies and fills in (`.env.example`, `Dockerfile.template`): no runtime loads
# them, so what they say is not what the server runs with.
_TEMPLATE = re.compile(r"(?:^|[._-])(?:example|sample|template|tmpl|dist|defaults?)(?:[._-]|$)", re.I)
_PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_MAX_LEVELS = 8  # directories walked up from the server's
_MAX_CHARS = 200_000  # of one file: a settings file is small; a huge one is no settings file
# pydantic's str -> bool (what fastmcp's BaseSettings applies to the variable's text).
_ON = frozenset({"true", "1", "yes", "on", "t", "y"})
_OFF = frozenset({"false", "0", "no", "off", "f", "n"})
_COMMENT = ("#", "//")


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


def _value_in(text: str, pattern: re.Pattern[str]) -> str | None:
    """The value the file's last uncommented assignment of the variable gives it, None when no
    line assigns it a value fastmcp would read as a bool."""
    found = None
    for line in text.splitlines():
        stripped = line.lstrip()
        if not stripped or stripped.startswith(_COMMENT):
            continue
        for match in pattern.finditer(stripped):
            value = match.group("value")
            if value.lower() in _ON or value.lower() in _OFF:
                found = value
    return found


def setting_in_texts(files: Mapping[str, str], variable: str) -> EnvSetting | None:
    """The first of `files` (name -> text, in order) whose assignment of `variable` turns it on."""
    pattern = _assignment(variable)
    for path, text in files.items():
        value = _value_in(text[:_MAX_CHARS], pattern)
        if value is not None and value.lower() in _ON:
            return EnvSetting(path, variable, value)
    return None


def read_env_setting(directory: str, variable: str) -> EnvReading:
    """Which project file, from `directory` up to its project root, turns `variable` on."""
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
        found = setting_in_texts(texts, variable)
        if found is not None:
            return EnvReading(found, tuple(consulted))
        parent = os.path.dirname(current)
        if any(marker in names for marker in _PROJECT_MARKERS) or parent == current:
            break
        current = parent
    return EnvReading(None, tuple(consulted))
