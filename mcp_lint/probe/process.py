"""Starting and stopping the server process: command, working directory, environment, process group."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import IO, Mapping, Sequence

STDERR_TAIL_LINES = 20


def resolve_command(command: Sequence[str], invoked_from: Path) -> list[str]:
    """The command with relative paths made absolute.

    The server runs in a fresh temporary directory, so `python server.py` or `./venv/bin/python`
    typed in the project must still name the project's files. Only arguments that name an existing
    file or directory relative to where the probe was invoked are rewritten; options and plain
    words stay as they are.
    """
    resolved = []
    for index, part in enumerate(command):
        candidate = invoked_from / part
        looks_like_path = index > 0 or os.sep in part or (os.altsep is not None and os.altsep in part)
        if looks_like_path and not os.path.isabs(part) and not part.startswith("-") and candidate.exists():
            resolved.append(str(candidate.resolve()))
        else:
            resolved.append(part)
    return resolved


def server_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """The server gets the probe's environment (its configuration: tokens, database URLs) plus `extra`."""
    environment = dict(os.environ)
    environment.update(extra)
    # Servers written in Python must not buffer their stderr: the tail is what we show when they die.
    environment.setdefault("PYTHONUNBUFFERED", "1")
    return environment


def kill_group(pid: int, grace: float = 2.0) -> None:
    """SIGTERM the process group led by `pid`, then SIGKILL whatever is left after `grace` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 0.0)):
        try:
            os.killpg(pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                os.killpg(pid, 0)
            except (ProcessLookupError, PermissionError):
                return
            time.sleep(0.05)


def child_pids() -> set[int]:
    """The direct children of this process (Linux /proc; empty elsewhere)."""
    me = str(os.getpid())
    children: set[int] = set()
    proc = Path("/proc")
    if not proc.is_dir():
        return children
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 1 and fields[1] == me:
            children.add(int(entry.name))
    return children


def read_tail(stream: IO[str] | None, lines: int = STDERR_TAIL_LINES) -> str:
    """The last `lines` lines written to a temporary stderr file."""
    if stream is None:
        return ""
    try:
        stream.flush()
        stream.seek(0)
        text = stream.read()
    except (OSError, ValueError):
        return ""
    return "\n".join(text.rstrip().splitlines()[-lines:])
