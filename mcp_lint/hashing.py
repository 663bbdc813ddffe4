"""The one hash mcp-lint uses for cache keys and fingerprints: BLAKE2b.

Taken from CPython's own `_blake2` module: importing `hashlib` first loads OpenSSL, a few
milliseconds of every warm run, for a hash CPython ships itself.
"""

from __future__ import annotations

from typing import Any

try:
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b as _blake2b


def blake2b(data: bytes = b"", digest_size: int = 64) -> Any:
    """A BLAKE2b hash object of `digest_size` bytes, fed `data`."""
    return _blake2b(data, digest_size=digest_size)


DIGEST_SIZE = 16


def digest(data: bytes) -> str:
    """The hex digest cache keys are made of (16 bytes: collisions are out of reach, keys short)."""
    return _blake2b(data, digest_size=DIGEST_SIZE).hexdigest()
