"""Whether the package index can be reached: tests that install from it skip only when it cannot.

Asked when a test needs it (never at collection, which must not touch the network), once a run.
"""

from __future__ import annotations

import functools
import os
import socket
from urllib.parse import urlparse


def index_host() -> tuple[str, int]:
    """The host and port pip installs from (PIP_INDEX_URL, else PyPI)."""
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple")
    parsed = urlparse(index)
    return parsed.hostname or "pypi.org", parsed.port or (443 if parsed.scheme == "https" else 80)


@functools.lru_cache(maxsize=None)
def index_reachable() -> bool:
    if urlparse(os.environ.get("PIP_INDEX_URL", "")).scheme == "file":
        return True  # a local index: nothing to reach
    try:
        with socket.create_connection(index_host(), timeout=3):
            return True
    except OSError:
        return False
