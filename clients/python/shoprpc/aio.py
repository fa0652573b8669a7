"""The asyncio client."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from typing import IO, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .call_record import CallRecord
from .dispatch import MessageRouter
from .errors import ClientClosedError, ConnectionLostError
from .framing import NdjsonDecoder, encode_message
from .messages import Params, cancel_notification, deadline_ms_for, notification, request, with_meta
from .models import NotificationHandler, ProgressCallback
from .server import find_server_binary
from .shop_api import AsyncShopMethods

__all__ = ["AsyncShopClient"]

log = logging.getLogger("shoprpc")

DEFAULT_TIMEOUT_MARGIN = 0.5
DEFAULT_CLOSE_TIMEOUT = 5.0
#: Bytes per read: lines are reassembled by NdjsonDecoder, so no line-length limit applies.
READ_CHUNK = 256 * 1024


class AsyncShopClient(AsyncShopMethods, MessageRouter):
    """The asyncio form of :class:`~shoprpc.ShopClient`: spawns the server with
    :func:`asyncio.create_subprocess_exec`, or attaches to an ``asyncio.StreamReader``/``StreamWriter`` pair.

    Bound to the event loop it is started on; not thread-safe (use it from that loop). One reader task
    matches replies to calls by id. Cancelling a task awaiting a call sends ``$/cancelRequest`` for it.
    Lines are read in chunks and reassembled, so asyncio's 64 KiB line limit does not apply::

        async with AsyncShopClient(["--db", ":memory:"]) as shop:
            print(await shop.catalog_get("SKU-0001"))
    """

    def __init__(
        self,
        args: Sequence[str] = (),
        *,
        binary: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        stderr: Union[None, int, IO[Any]] = None,
        reader: Optional[asyncio.StreamReader] = None,
        writer: Optional[asyncio.StreamWriter] = None,
        on_notification: Optional[NotificationHandler] = None,
        timeout_margin: float = DEFAULT_TIMEOUT_MARGIN,
        close_timeout: float = DEFAULT_CLOSE_TIMEOUT,
    ) -> None:
        """Same options as :class:`~shoprpc.ShopClient`; nothing happens until :meth:`start` (or ``async with``)."""
        if (reader is None) != (writer is None):
            raise ValueError("give both reader and writer, or neither")
        if reader is not None and (args or binary):
            raise ValueError("args and binary apply to a spawned server, not to attached streams")
        self._args = list(args)
        self._binary = binary
        self._env = dict(env) if env is not None else None
        self._stderr = stderr
        self._reader = reader
        self._writer = writer
        self.process: Optional[asyncio.subprocess.Process] = None
        self._on_notification = on_notification
        self._timeout_margin = timeout_margin
        self._close_timeout = close_timeout
        self._pending: Dict[Any, CallRecord] = {}
        self._by_progress_token: Dict[Any, CallRecord] = {}
        self._ids = itertools.count(1)
        self._drain_lock: Optional[asyncio.Lock] = None  # concurrent drain() is unsafe before Python 3.10
        self._reader_task: Optional[asyncio.Task[None]] = None
        self._lost: Optional[ConnectionLostError] = None
        self._closed = False
        self._close_task: Optional[asyncio.Task[Optional[int]]] = None

    @classmethod
    def attach(cls, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, **options: Any) -> AsyncShopClient:
        """A client speaking over an asyncio stream pair to any peer of the protocol (call :meth:`start`)."""
        return cls(reader=reader, writer=writer, **options)

    async def start(self) -> AsyncShopClient:
        """Spawns the server (unless attached) and starts the reader task. Idempotent."""
        if self._reader_task is not None:
            return self
        if self._reader is None:
            path = find_server_binary(self._binary)
            self.process = await asyncio.create_subprocess_exec(
                path, *self._args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=self._stderr, env=self._env, limit=READ_CHUNK,
            )
            self._reader, self._writer = self.process.stdout, self.process.stdin
        self._drain_lock = asyncio.Lock()
        self._reader_task = asyncio.get_running_loop().create_task(self._read_loop())
        return self

    async def __aenter__(self) -> AsyncShopClient:
        return await self.start()

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close()

    # MARK: - Calls

    async def call(self, method: str, params: Params = None, timeout: Optional[float] = None, *,
                   progress: Optional[ProgressCallback] = None) -> Any:
        """Calls ``method`` and returns its result; raises the typed error of an error reply.

        ``timeout`` and ``progress`` work as in :meth:`ShopClient.call`. Cancelling the awaiting task sends
        ``$/cancelRequest`` for the call and raises :class:`asyncio.CancelledError` as usual.
        """
        entry, message = self._register(method, params, timeout, progress)
        try:
            await self._send(encode_message(message))
        except asyncio.CancelledError:
            self._abandon(entry)  # the request may already be in the pipe
            raise
        except BaseException:
            self._take(entry.id)
            raise
        return await self._outcome(entry, timeout)

    async def notify(self, method: str, params: Params = None) -> None:
        """Sends a notification (no id, never answered)."""
        self._raise_if_unusable()
        await self._send(encode_message(notification(method, params)))

    async def batch(self, calls: Sequence[Tuple[str, Params]], timeout: Optional[float] = None) -> List[Any]:
        """Sends ``calls`` as one JSON-RPC batch; returns results and exceptions in order (see
        :meth:`ShopClient.batch`). Cancelling the awaiting task cancels every call of the batch."""
        entries: List[CallRecord] = []
        messages: List[Dict[str, Any]] = []
        try:
            for method, params in calls:
                entry, message = self._register(method, params, timeout, None)
                entries.append(entry)
                messages.append(message)
            if not entries:
                return []
            await self._send(encode_message(messages))
        except asyncio.CancelledError:
            for entry in entries:
                self._abandon(entry)
            raise
        except BaseException:
            for entry in entries:
                self._take(entry.id)
            raise
        outcomes = await asyncio.gather(*(self._outcome(entry, timeout) for entry in entries),
                                        return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, asyncio.CancelledError):
                raise outcome
        return list(outcomes)

    # MARK: - Lifecycle

    @property
    def returncode(self) -> Optional[int]:
        """The server's exit status once it has exited (``None`` while running, or for attached streams)."""
        return self.process.returncode if self.process is not None else None

    async def close(self) -> Optional[int]:
        """Closes the server's stdin, waits up to ``close_timeout`` s for a clean exit, only then terminates
        (then kills) it. Returns the exit status.

        With attached streams: ends the writer (``write_eof()`` when it can, so replies can still be read),
        waits up to ``close_timeout`` s for the calls in flight, closes the writer and returns ``None``.
        Idempotent; calls still pending afterwards fail with :class:`~shoprpc.ClientClosedError`."""
        if self._close_task is None:
            self._close_task = asyncio.get_running_loop().create_task(self._close())
        return await asyncio.shield(self._close_task)

    async def _close(self) -> Optional[int]:
        self._closed = True
        if self._writer is not None:
            try:  # end of input, but keep reading the replies to the calls in flight
                if self._writer.can_write_eof():
                    self._writer.write_eof()
                else:
                    self._writer.close()
            except (OSError, RuntimeError):
                pass
        if self.process is not None:
            await self._wait_for_exit(self.process)
        if self._reader_task is not None:
            if self.process is not None:
                await asyncio.wait({self._reader_task}, timeout=self._close_timeout)
            else:  # an attached peer may never end the stream: wait only for the calls in flight
                futures = {entry.future for entry in self._pending.values()}
                if futures:
                    await asyncio.wait(futures, timeout=self._close_timeout)
            if not self._reader_task.done():
                self._reader_task.cancel()
        self._connection_lost(ClientClosedError("the client was closed before the server replied"))
        if self._writer is not None:
            self._writer.close()
        return self.returncode

    async def _wait_for_exit(self, process: asyncio.subprocess.Process) -> None:
        """Waits ``close_timeout`` s for the server to exit, then sends SIGTERM, then (3 s later) SIGKILL."""
        try:
            await asyncio.wait_for(process.wait(), self._close_timeout)
            return
        except asyncio.TimeoutError:
            log.warning("shop-rpc did not exit within %.1f s of end of input; terminating it", self._close_timeout)
        try:
            process.terminate()
            await asyncio.wait_for(process.wait(), 3.0)
        except ProcessLookupError:  # it exited meanwhile
            pass
        except asyncio.TimeoutError:
            try:
                process.kill()
            except ProcessLookupError:
                pass
        await process.wait()

    # MARK: - Registering, sending, waiting

    def _register(self, method: str, params: Params, timeout: Optional[float],
                  progress: Optional[ProgressCallback]) -> Tuple[CallRecord, Dict[str, Any]]:
        self._raise_if_unusable()
        deadline_ms = deadline_ms_for(timeout) if timeout is not None else None
        request_id = next(self._ids)
        meta: Dict[str, Any] = {}
        if deadline_ms is not None:
            meta["deadlineMs"] = deadline_ms
        token = f"shoprpc-{request_id}" if progress is not None else None
        if token is not None:
            meta["progressToken"] = token
        message = request(request_id, method, with_meta(params, meta))
        entry = CallRecord(request_id, method, asyncio.get_running_loop().create_future(), deadline_ms, token,
                           progress)
        self._pending[request_id] = entry
        if token is not None:
            self._by_progress_token[token] = entry
        return entry, message

    async def _outcome(self, entry: CallRecord, timeout: Optional[float]) -> Any:
        """Waits for the call's reply, enforcing the local deadline; a cancelled wait cancels the call."""
        try:
            if timeout is None:
                return await asyncio.shield(entry.future)
            remaining = entry.started + timeout + self._timeout_margin - time.monotonic()
            return await asyncio.wait_for(asyncio.shield(entry.future), max(remaining, 0))
        except asyncio.TimeoutError:
            if entry.future.done():  # the reply won the race with the timer
                return entry.future.result()
            self._abandon(entry)
            raise entry.client_deadline_error() from None
        except asyncio.CancelledError:
            self._abandon(entry)
            raise

    def _abandon(self, entry: CallRecord) -> None:
        """Stops waiting for a call and sends ``$/cancelRequest`` for it (without awaiting: never blocks)."""
        if self._take(entry.id) is None:
            return
        if not entry.future.done():
            entry.future.cancel()
        if self._writer is None or self._lost is not None:
            return
        try:
            self._writer.write(encode_message(cancel_notification(entry.id)))  # one whole message per write
        except (OSError, RuntimeError, ValueError):
            pass

    async def _send(self, data: bytes) -> None:
        """Writes one whole message and waits for the transport's buffer to drain."""
        assert self._writer is not None and self._drain_lock is not None
        try:
            self._writer.write(data)  # synchronous: messages never interleave
            async with self._drain_lock:
                await self._writer.drain()
        except (OSError, RuntimeError) as error:
            raise self._unusable_error(f"writing to the server failed: {error}") from error

    def _take(self, request_id: Any) -> Optional[CallRecord]:
        entry = self._pending.pop(request_id, None)
        if entry is not None and entry.progress_token is not None:
            self._by_progress_token.pop(entry.progress_token, None)
        return entry

    def _raise_if_unusable(self) -> None:
        if self._reader_task is None and not self._closed:
            raise RuntimeError("AsyncShopClient is not started: use `async with` or `await client.start()`")
        if self._closed or self._lost is not None:
            raise self._unusable_error()

    def _unusable_error(self, reason: Optional[str] = None) -> ConnectionLostError:
        if self._closed:
            return ClientClosedError("the client is closed")
        if self._lost is not None:
            return ConnectionLostError(str(self._lost), returncode=self._lost.returncode)
        return ConnectionLostError(reason or "the connection to the server is closed", returncode=self.returncode)

    # MARK: - Reading (reader task)

    async def _read_loop(self) -> None:
        assert self._reader is not None
        decoder = NdjsonDecoder()
        reason = "the server closed its output"
        try:
            while True:
                chunk = await self._reader.read(READ_CHUNK)
                if not chunk:
                    break
                for line in decoder.decode(chunk):
                    self._handle_line(line)
            for line in decoder.finish():
                self._handle_line(line)
        except (OSError, ValueError) as error:
            reason = f"reading from the server failed: {error}"
        finally:
            self._connection_lost(await self._lost_error(reason))

    def _record_for_progress_token(self, token: Any) -> Optional[CallRecord]:
        return self._by_progress_token.get(token)

    async def _lost_error(self, reason: str) -> ConnectionLostError:
        returncode = None
        if self.process is not None:
            try:
                returncode = await asyncio.wait_for(self.process.wait(), 0.2)  # EOF normally means it exited
            except asyncio.TimeoutError:
                pass
        if returncode is not None:
            reason = f"the shop-rpc server exited with status {returncode}"
        return ConnectionLostError(reason, returncode=returncode)

    def _connection_lost(self, error: ConnectionLostError) -> None:
        """Fails every pending call at once, each with its own exception; later calls fail immediately."""
        if self._lost is None:
            self._lost = error
        entries = list(self._pending.values())
        self._pending.clear()
        self._by_progress_token.clear()
        for entry in entries:
            entry.fail(entry.connection_lost_error(error))

