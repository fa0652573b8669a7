"""NDJSON framing: one JSON text per line (protocol.md section 1), with no line-length limit."""

from __future__ import annotations

import json
from typing import Any, List

__all__ = ["encode_message", "NdjsonDecoder"]


def encode_message(message: Any) -> bytes:
    """One message as one NDJSON line: compact UTF-8 JSON plus ``\\n``.

    ``json.dumps`` escapes every newline inside strings, so the line never contains a raw ``\\n``.
    """
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"


class NdjsonDecoder:
    """Splits a byte stream, fed in chunks of any size, into lines (without their ``\\n`` or ``\\r``).

    Unbounded: a line may be any length. Each byte is scanned for ``\\n`` once, so a 50 MB line fed in
    64 KiB chunks costs linear time. Blank lines are dropped. Not thread-safe: one reader feeds it.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._scanned = 0  # bytes of _buffer already known to hold no b"\n"

    def decode(self, chunk: bytes) -> List[bytes]:
        """Appends ``chunk`` and returns every line it completed, in order."""
        self._buffer += chunk
        lines: List[bytes] = []
        start = 0
        while True:
            end = self._buffer.find(b"\n", max(start, self._scanned))
            if end < 0:
                break
            line = bytes(self._buffer[start:end]).rstrip(b"\r")
            if line.strip():
                lines.append(line)
            start = end + 1
        if start:
            del self._buffer[:start]
        self._scanned = len(self._buffer)
        return lines

    def finish(self) -> List[bytes]:
        """At end of input: the last line if it had no ``\\n`` (protocol.md allows that)."""
        line = bytes(self._buffer).rstrip(b"\r")
        self._buffer.clear()
        self._scanned = 0
        return [line] if line.strip() else []
