"""Where the sync client reads the server's lines from: a file descriptor it can wait on with a
timeout, or, for a stream without one, the stream's own ``readline``."""

from __future__ import annotations

import io
import math
import select
from typing import IO, List, Optional

from .framing import NdjsonDecoder

__all__ = ["LineReader", "PollingLineReader", "StreamLineReader", "line_reader_for"]

#: Bytes per read; lines are reassembled by NdjsonDecoder, so no line-length limit applies.
READ_CHUNK = 64 * 1024


class LineReader:
    """The server's output as lines. Not thread-safe: one thread reads at a time (the sync client's
    read ownership decides which)."""

    #: Whether :meth:`read` honours its timeout, so that a caller with a deadline may read itself.
    can_time_out = False

    def read(self, timeout: Optional[float]) -> Optional[List[bytes]]:
        """The lines that one read completed (perhaps none), ``[]`` when ``timeout`` seconds pass first
        (``None``: no limit), or ``None`` at end of input, after the last line was returned.
        Raises ``OSError`` or ``ValueError`` when reading fails."""
        raise NotImplementedError


class PollingLineReader(LineReader):
    """Reads a stream that has a file descriptor: waits in ``poll`` on the descriptor when there is a
    timeout, reads with the stream's ``read1`` (one system call, whatever the stream had buffered
    first), and splits the bytes into lines itself.

    The reads go through the stream object, never the bare descriptor: once the stream's owner closes
    it, a read fails (``ValueError``) instead of reading whatever file has reused the number. The
    client reads the stream from its start: a stream that already holds buffered bytes when attached
    may wait in ``poll`` for more before it hands them over.
    """

    can_time_out = True

    def __init__(self, stream: IO[bytes], fd: int) -> None:
        self._read1 = getattr(stream, "read1", None) or stream.read
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)
        self._decoder = NdjsonDecoder()
        self._ended = False

    def read(self, timeout: Optional[float]) -> Optional[List[bytes]]:
        if self._ended:
            return None
        if timeout is not None and not self._poll.poll(max(0, math.ceil(timeout * 1000))):
            return []
        chunk = self._read1(READ_CHUNK)
        if chunk:
            return self._decoder.decode(chunk)
        if chunk is None:  # a non-blocking stream with nothing to read yet
            return []
        self._ended = True
        return self._decoder.finish()


class StreamLineReader(LineReader):
    """Reads a binary stream with no file descriptor line by line; cannot wait with a timeout."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream

    def read(self, timeout: Optional[float]) -> Optional[List[bytes]]:
        line = self._stream.readline()  # no length limit: a 50 MB reply is one readline
        if not line:
            return None
        line = line.rstrip(b"\n").rstrip(b"\r")
        return [line] if line.strip() else []


def line_reader_for(stream: IO[bytes]) -> LineReader:
    """A :class:`PollingLineReader` when the stream has a file descriptor, else a :class:`StreamLineReader`."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return StreamLineReader(stream)
    return PollingLineReader(stream, fd)
