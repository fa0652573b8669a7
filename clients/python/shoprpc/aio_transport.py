"""How the asyncio client reaches its server: the pipes of a process it spawned, read by a protocol
(no task per line or per chunk), or an attached ``StreamReader``/``StreamWriter`` pair."""

from __future__ import annotations

import asyncio
import collections
from typing import Any, Callable, Deque, Optional

__all__ = ["ServerPipesProtocol", "Output", "PipeOutput", "StreamOutput"]

#: Bytes per read of an attached stream; lines are reassembled, so no line-length limit applies.
READ_CHUNK = 256 * 1024


class ServerPipesProtocol(asyncio.SubprocessProtocol):
    """The spawned server's pipes: its stdout goes to ``on_data(bytes)`` and, when it ends,
    ``on_end(exc)``, straight from the event loop's reading callback; its stdin's flow control is kept
    for :class:`PipeOutput`; its stderr, when piped, feeds ``stderr`` (a ``StreamReader``).

    Has the ``stdin``/``stdout``/``stderr`` members :class:`asyncio.subprocess.Process` reads, so the
    client can hand out a real ``Process`` for the server. Runs on the loop only.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, on_data: Callable[[bytes], None],
                 on_end: Callable[[Optional[BaseException]], None], pipe_stderr: bool) -> None:
        self._loop = loop
        self._on_data = on_data
        self._on_end = on_end
        self.stdin = None
        self.stdout = None
        self.stderr: Optional[asyncio.StreamReader] = asyncio.StreamReader() if pipe_stderr else None
        self.paused = False  # the server's stdin is full: writers wait for resume_writing
        self.stdin_lost: Optional[BaseException] = None  # set once the server's stdin pipe is gone
        self._drain_waiters: Deque[asyncio.Future[None]] = collections.deque()

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 1:
            self._on_data(data)
        elif fd == 2 and self.stderr is not None:
            self.stderr.feed_data(data)

    def pipe_connection_lost(self, fd: int, exc: Optional[BaseException]) -> None:
        if fd == 1:
            self._on_end(exc)
        elif fd == 2 and self.stderr is not None:
            self.stderr.feed_eof()
        elif fd == 0:
            self.stdin_lost = exc or ConnectionResetError("the server's input pipe closed")
            self._wake_drain_waiters()

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        self._wake_drain_waiters()

    async def drained(self) -> None:
        """Waits while the server's stdin is full. Raises ``ConnectionResetError`` once it is gone."""
        while self.paused and self.stdin_lost is None:
            waiter = self._loop.create_future()
            self._drain_waiters.append(waiter)
            await waiter
        if self.stdin_lost is not None:
            raise ConnectionResetError(f"the server's input pipe closed: {self.stdin_lost}")

    def _wake_drain_waiters(self) -> None:
        while self._drain_waiters:
            waiter = self._drain_waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)


class Output:
    """Where the client writes whole messages. ``write`` is synchronous (one message per call, so
    messages never interleave) and raises ``OSError``/``RuntimeError`` when the server's input is gone;
    ``must_drain`` says whether to ``await drain()`` before writing more. Loop only."""

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def must_drain(self) -> bool:
        raise NotImplementedError

    async def drain(self) -> None:
        raise NotImplementedError

    def end(self) -> None:
        """End of input, once what was written is flushed; replies can still be read."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class PipeOutput(Output):
    """The spawned server's stdin pipe, with :class:`ServerPipesProtocol`'s flow control."""

    def __init__(self, transport: asyncio.WriteTransport, protocol: ServerPipesProtocol) -> None:
        self._transport = transport
        self._protocol = protocol

    def write(self, data: bytes) -> None:
        if self._protocol.stdin_lost is not None or self._transport.is_closing():
            raise ConnectionResetError("the server's input pipe is closed")
        self._transport.write(data)

    def must_drain(self) -> bool:
        return self._protocol.paused

    async def drain(self) -> None:
        await self._protocol.drained()

    def end(self) -> None:
        self._transport.close()  # closes once the buffered bytes are written

    def close(self) -> None:
        self._transport.close()


class StreamOutput(Output):
    """An attached ``StreamWriter``."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._drain_lock = asyncio.Lock()  # concurrent drain() is unsafe before Python 3.10

    def write(self, data: bytes) -> None:
        self._writer.write(data)

    def must_drain(self) -> bool:
        return True  # StreamWriter.drain() returns at once unless paused, and reports a lost connection

    async def drain(self) -> None:
        async with self._drain_lock:
            await self._writer.drain()

    def end(self) -> None:
        if self._writer.can_write_eof():
            self._writer.write_eof()
        else:
            self._writer.close()

    def close(self) -> None:
        self._writer.close()


async def read_stream(reader: asyncio.StreamReader, on_data: Callable[[bytes], None],
                      on_end: Callable[[Optional[BaseException]], Any]) -> None:
    """Feeds an attached stream to ``on_data`` chunk by chunk until it ends, then calls ``on_end``."""
    error: Optional[BaseException] = None
    try:
        while True:
            chunk = await reader.read(READ_CHUNK)
            if not chunk:
                break
            on_data(chunk)
    except (OSError, ValueError) as failure:
        error = failure
    on_end(error)
