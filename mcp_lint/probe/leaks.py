"""Check 2: what an error text must not carry.

The model (and whoever reads the transcript) sees every error text. A traceback, a path of the
server's machine, a value of the server's environment, a token or a connection string there is
a leak, whatever the tool meant to say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

# Environment variables whose values are secrets by their name; their values must never show up.
_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH(?!OR)|DSN|DATABASE_URL|CONN", re.I)
# Shorter values match too much ordinary text ("true", "prod").
MIN_SECRET_LENGTH = 6

_TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\s*File \"[^\"]+\", line \d+", re.M)
# A path is absolute when it starts at a filesystem root that servers live under; "/v1/items"
# in an HTTP error is not a path of the machine, "/home/app/server.py" is.
_ROOTS = (
    "home|root|usr|opt|var|tmp|etc|srv|mnt|media|proc|run|snap|nix|app|apps|data|workspace|workspaces|"
    "code|src|Users|Library|System|Applications|private|Volumes"
)
_POSIX_PATH = re.compile(rf"(?<![\w:/.~-])/(?:{_ROOTS})(?:/[\w.@+~-]+)+")
_WINDOWS_PATH = re.compile(r"(?<![\w])[A-Za-z]:\\(?:[^\\\s\"'<>|:*?]+\\)*[^\\\s\"'<>|:*?]*")
_TOKENS = (
    ("an OpenAI-style API key", re.compile(r"\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}")),
    ("a GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})")),
    ("a GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("an AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("a JSON Web Token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+")),
    ("a bearer token", re.compile(r"\bBearer\s+[A-Za-z0-9._~+/=-]{16,}")),
    ("a private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
    (
        "a credential assignment",
        re.compile(r"\b(?:api[_-]?key|access[_-]?token|secret|password|passwd)\s*[=:]\s*['\"]?[^\s'\",;]{8,}", re.I),
    ),
)
_CONNECTION = re.compile(
    r"\b(?:postgres(?:ql)?|mysql|mariadb|mssql|sqlserver|oracle|mongodb(?:\+srv)?|redis|rediss|amqps?|"
    r"clickhouse|snowflake|jdbc:[a-z]+)(?:\+[a-z0-9]+)?://[^\s'\"]+"
    r"|\b[a-z][a-z0-9+.-]*://[^\s/:@'\"]+:[^\s/@'\"]+@[^\s'\"]+",
    re.I,
)
EXCERPT = 60


@dataclass(frozen=True)
class Leak:
    """One thing in an error text that should not be there."""

    kind: str
    excerpt: str

    def describe(self) -> str:
        return f"{self.kind}: {self.excerpt!r}"


def secret_values(environment: Mapping[str, str], extra: Iterable[str] = ()) -> list[str]:
    """The environment values that must not appear in error texts: those of secret-named
    variables, and `extra` (values the user handed the server on the command line)."""
    values = {value for name, value in environment.items() if _SECRET_NAME.search(name)}
    values.update(extra)
    return sorted((v for v in values if len(v) >= MIN_SECRET_LENGTH), key=len, reverse=True)


def _excerpt(text: str, start: int, end: int) -> str:
    piece = text[start:end]
    return piece if len(piece) <= EXCERPT else piece[: EXCERPT - 3] + "..."


def _mask(value: str) -> str:
    """A secret named in a report is shown by its first characters only."""
    return value[:3] + "*" * min(8, len(value) - 3)


def find_leaks(text: str, secrets: Iterable[str] = (), paths: Iterable[str] = ()) -> list[Leak]:
    """Every leak in `text`, one per kind (the first occurrence), in a stable order. `paths` are
    directories of this machine (the server's working directory) wherever they live."""
    found: list[Leak] = []
    match = _TRACEBACK.search(text)
    if match:
        found.append(Leak("a stack trace", _excerpt(text, match.start(), match.end())))
    for value in secrets:
        if value in text:
            found.append(Leak("a value of the server's environment", _mask(value)))
            break
    for label, pattern in _TOKENS:
        match = pattern.search(text)
        if match:
            found.append(Leak(label, _mask(match.group(0))))
            break
    match = _CONNECTION.search(text)
    if match:
        found.append(Leak("a connection string", _excerpt(text, match.start(), match.end())))
    match = _POSIX_PATH.search(text) or _WINDOWS_PATH.search(text)
    if match:
        found.append(Leak("an absolute path", _excerpt(text, match.start(), match.end())))
    else:
        known = next((p for p in paths if len(p) > 1 and p in text), None)
        if known is not None:
            start = text.index(known)
            found.append(Leak("an absolute path", _excerpt(text, start, start + len(known) + 20)))
    return found
