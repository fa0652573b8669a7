"""Helpers shared by the tests: constants, an async test runner, and a scripted fake peer."""

from __future__ import annotations

import asyncio
import functools
import json
import queue
import socket
import threading
from typing import Any, Callable, Optional

import pytest

#: Generous bound for anything that should happen "at once": only a broken client waits this long.
PROMPT = 5.0
MEMORY_DB = ["--db", ":memory:"]


def run_async(coroutine_function: Callable[..., Any]) -> Callable[..., Any]:
    """Runs an ``async def`` test on a fresh event loop (no pytest plugin needed)."""

    @functools.wraps(coroutine_function)  # keeps the signature, so pytest still injects fixtures
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return asyncio.run(asyncio.wait_for(coroutine_function(*args, **kwargs), 50))

    return wrapper


class FakePeer:
    """The server end of a socket pair, scripted by the test: it sees the client's raw lines and writes
    whatever bytes the test wants, so the client can be tested against replies the real server never sends.
    """

    def __init__(self) -> None:
        self.client_socket, self._socket = socket.socketpair()
        self._in = self._socket.makefile("rb")
        self._out = self._socket.makefile("wb")
        self._client_streams: tuple = ()
        self._lines: "queue.Queue[Optional[bytes]]" = queue.Queue()
        self._thread = threading.Thread(target=self._read, name="fakepeer.reader", daemon=True)
        self._thread.start()

    def client_streams(self) -> tuple:
        """(reader, writer) binary streams for ShopClient.attach; closed by :meth:`close`."""
        streams = (self.client_socket.makefile("rb"), self.client_socket.makefile("wb"))
        self._client_streams += streams
        return streams

    def receive(self, timeout: float = PROMPT) -> Any:
        """The next message the client wrote (fails the test if none comes in ``timeout`` s)."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"the client sent nothing within {timeout} s")
        assert line is not None, "the client closed its output"
        return json.loads(line)

    def send(self, message: Any) -> None:
        """Writes one message (a JSON value, or raw bytes written as they are)."""
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self._out.write(data)
        self._out.flush()

    def end(self) -> None:
        """Ends the client's input (EOF), as a server exiting would."""
        self._out.flush()
        self._socket.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        """Shuts both ends down first (waking any thread blocked reading them), then closes everything."""
        for sock in (self._socket, self.client_socket):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._thread.join(PROMPT)
        for stream in (*self._client_streams, self._in, self._out, self._socket, self.client_socket):
            try:
                stream.close()
            except OSError:
                pass

    def _read(self) -> None:
        try:
            for line in self._in:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(None)
