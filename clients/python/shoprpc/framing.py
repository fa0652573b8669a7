"""NDJSON framing: one JSON text per line (protocol.md section 1), with no line-length limit."""

from __future__ import annotations

import json
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any, List

__all__ = ["encode_message", "decode_line", "NdjsonDecoder"]

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False)
# JSONEncoder.encode builds a new C encoder for every message; this one is built once. Without the
# circular check, a message that contains itself fails with RecursionError instead of ValueError.
_C_ENCODE = (c_make_encoder(None, _ENCODER.default, encode_basestring, None, ":", ",", False, False, False)
             if c_make_encoder is not None else None)


def encode_message(message: Any) -> bytes:
    """One message as one NDJSON line: compact UTF-8 JSON plus ``\\n``.

    The encoder escapes every newline inside strings, so the line never contains a raw ``\\n``.
    """
    if _C_ENCODE is None:  # pragma: no cover - a Python without the json C accelerator
        return (_ENCODER.encode(message) + "\n").encode("utf-8")
    return ("".join(_C_ENCODE(message, 0)) + "\n").encode("utf-8")


_DECODER = json.JSONDecoder()


def decode_line(line: bytes) -> Any:
    """The JSON value of one line (UTF-8). Raises ``ValueError`` when it is not one JSON text.

    ``raw_decode`` first: for a line that is exactly one JSON text (what the server writes), it skips
    ``json.loads``' encoding detection and whitespace scans; anything else gets ``json.loads``' verdict.
    """
    text = line.decode("utf-8", "surrogatepass")
    try:
        value, end = _DECODER.raw_decode(text)
        if end == len(text):
            return value
    except ValueError:
        pass
    return json.loads(text)


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
        if not self._buffer:  # the usual case: the chunk starts a line, so split it as it is
            *lines, rest = chunk.split(b"\n")
            if rest:
                self._buffer += rest
                self._scanned = len(rest)
            return [line.rstrip(b"\r") for line in lines if line.strip()]
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
