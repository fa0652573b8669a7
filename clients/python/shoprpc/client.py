"""The blocking, thread-safe client."""

from __future__ import annotations

import logging
import subprocess
import threading
import time
from concurrent.futures import CancelledError, Future
from concurrent.futures import TimeoutError as FutureTimeoutError
from typing import IO, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .call_outcome import CallOutcome
from .call_record import CallRecord
from .call_table import DEFAULT_CLOSE_TIMEOUT, DEFAULT_TIMEOUT_MARGIN, CallTable, lost_connection_error
from .deadlines import DeadlineWatcher
from .dispatch import MessageRouter
from .errors import ClientClosedError, ConnectionLostError
from .framing import encode_message
from .line_reader import line_reader_for
from .messages import Params, cancel_notification, notification
from .models import NotificationHandler, ProgressCallback
from .pending_call import PendingCall
from .reply_reader import ReplyReader
from .server import find_server_binary
from .shop_api import ShopMethods

__all__ = ["ShopClient"]

log = logging.getLogger("shoprpc")


class ShopClient(ShopMethods):
    """A JSON-RPC 2.0 client for shop-rpc over NDJSON: spawns the server, or attaches to two binary streams.

    Thread-safe: any number of threads may call at once. Writes are serialised by one lock (one whole
    message per write); replies are matched to calls by id, never by order. A thread waiting for its
    reply reads the server's output itself while no other thread is reading it, so a lone caller is
    answered without a thread handoff; while other calls are in flight, a background thread
    ("shoprpc.reader") reads (see :class:`~shoprpc.reply_reader.ReplyReader`). Progress callbacks and
    ``on_notification`` run on whichever of these threads read the message: they must not block, nor
    call this client (that raises ``RuntimeError``).

    Use as a context manager, or call :meth:`close`::

        with ShopClient(["--db", ":memory:"]) as shop:
            print(shop.catalog_list(limit=5)["items"])
    """

    def __init__(
        self,
        args: Sequence[str] = (),
        *,
        binary: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        stderr: Union[None, int, IO[Any]] = None,
        reader: Optional[IO[bytes]] = None,
        writer: Optional[IO[bytes]] = None,
        on_notification: Optional[NotificationHandler] = None,
        timeout_margin: float = DEFAULT_TIMEOUT_MARGIN,
        close_timeout: float = DEFAULT_CLOSE_TIMEOUT,
    ) -> None:
        """Spawns the server with ``args`` (binary: ``binary``, else see :func:`~shoprpc.find_server_binary`),
        or, when ``reader`` and ``writer`` are given, talks over those binary streams instead.

        ``stderr`` is passed to :class:`subprocess.Popen` (default: inherited). ``on_notification(method,
        params)`` receives server notifications other than a call's progress. ``timeout_margin`` is how
        long past a call's timeout the client waits before failing it locally. An attached ``reader`` with a
        file descriptor is read through it, from its start: nothing else may read it.
        """
        if (reader is None) != (writer is None):
            raise ValueError("give both reader and writer, or neither")
        self.process: Optional[subprocess.Popen[bytes]] = None
        if reader is None or writer is None:
            path = find_server_binary(binary)
            self.process = subprocess.Popen(
                [path, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                env=dict(env) if env is not None else None,
            )
            assert self.process.stdin is not None and self.process.stdout is not None
            reader, writer = self.process.stdout, self.process.stdin
        elif args or binary:
            raise ValueError("args and binary apply to a spawned server, not to attached streams")
        self._writer: IO[bytes] = writer  # guarded by _write_lock
        self._write_lock = threading.Lock()
        self._writer_closed = False  # guarded by _write_lock
        self._close_lock = threading.Lock()
        self._close_timeout = close_timeout
        self._table = CallTable(timeout_margin, lambda: self.returncode)
        self._deadlines = DeadlineWatcher(self._expire)
        self._reader = ReplyReader(line_reader_for(reader), self._table, MessageRouter(self._table, on_notification),
                                   on_expired=self._expire, on_ended=self._output_ended)

    @classmethod
    def attach(cls, reader: IO[bytes], writer: IO[bytes], **options: Any) -> ShopClient:
        """A client speaking over ``reader``/``writer`` (binary, buffered) to any peer of the protocol."""
        return cls(reader=reader, writer=writer, **options)

    # MARK: - Calls

    def call(self, method: str, params: Params = None, timeout: Optional[float] = None, *,
             progress: Optional[ProgressCallback] = None) -> Any:
        """Calls ``method`` and blocks for its result; raises the typed error of an error reply.

        ``timeout`` (seconds) is sent as ``params._meta.deadlineMs`` so the server stops the work, and is
        enforced here too: without a reply by ``timeout`` + margin, raises
        :class:`~shoprpc.ClientDeadlineExceededError` and sends ``$/cancelRequest``. ``progress`` receives
        each ``notifications/progress`` params object for this call. Interrupting the wait (e.g. Ctrl-C)
        cancels the call on the server.
        """
        self._reader.check_may_wait()
        record, message = self._register(method, params, timeout, progress, CallOutcome())
        self._send_registered([record], message)
        try:
            self._reader.wait(record)
        except BaseException:  # interrupted while waiting, not the call's own error
            self._cancel(record)
            raise
        return record.future.result()

    def call_async(self, method: str, params: Params = None, timeout: Optional[float] = None, *,
                   progress: Optional[ProgressCallback] = None) -> PendingCall:
        """Sends the request and returns at once with a :class:`PendingCall` (``.result()``, ``.cancel()``).

        Same arguments as :meth:`call`. Raises :class:`~shoprpc.ConnectionLostError` if the server is gone.
        """
        record, message = self._register(method, params, timeout, progress, Future())
        self._send_registered([record], message)
        self._reader.wake_background()  # the reply may be awaited through the future alone
        return PendingCall(record, self._wait_for, self._cancel)

    def notify(self, method: str, params: Params = None) -> None:
        """Sends a notification (no id, never answered)."""
        self._table.raise_if_unusable()
        self._write(encode_message(notification(method, params)))

    def batch(self, calls: Sequence[Tuple[str, Params]], timeout: Optional[float] = None) -> List[Any]:
        """Sends ``calls`` (``(method, params)`` pairs) as one JSON-RPC batch and waits for every reply.

        Returns one entry per call, in order: the result, or the exception (a typed
        :class:`~shoprpc.RPCError`, or :class:`~shoprpc.ConnectionLostError`) — exceptions are returned,
        not raised. Replies are matched by id. ``timeout`` applies to each call, as in :meth:`call`.
        """
        self._reader.check_may_wait()
        records: List[CallRecord] = []
        messages: List[Dict[str, Any]] = []
        try:
            for method, params in calls:
                record, message = self._register(method, params, timeout, None, CallOutcome())
                records.append(record)
                messages.append(message)
        except BaseException:
            for record in records:
                self._table.take(record.id)
            raise
        if not records:
            return []
        self._send_registered(records, messages)
        outcomes: List[Any] = []
        try:
            for record in records:
                self._reader.wait(record)
                error = record.future.exception()
                outcomes.append(error if error is not None else record.future.result())
        except BaseException:  # interrupted while waiting: cancel what is still running
            for record in records:
                self._cancel(record)
            raise
        return outcomes

    # MARK: - Lifecycle

    @property
    def returncode(self) -> Optional[int]:
        """The server's exit status once it has exited (``None`` while running, or for attached streams)."""
        return self.process.returncode if self.process is not None else None

    def close(self) -> Optional[int]:
        """Closes the server's stdin, waits up to ``close_timeout`` s for it to finish the calls in flight
        and exit, and only then terminates it (then kills it). Returns the exit status.

        With attached streams: closes ``writer``, waits up to ``close_timeout`` s for the calls in flight,
        and returns ``None``; ``reader`` stays open (its owner closes it). Idempotent and thread-safe;
        calls still pending afterwards fail with :class:`~shoprpc.ClientClosedError`.
        """
        with self._close_lock:
            if not self._table.close():
                return self.returncode
            self._reader.wake_background()  # reads the replies to the calls in flight
            writer_closed = self._close_writer()
            if self.process is not None:
                # The server answers the calls in flight, then exits; no grace if it never saw end of input.
                self._wait_for_exit(self._close_timeout if writer_closed else 0)
                self._reader.join(self._close_timeout)
            else:  # an attached peer may never end the stream: wait only for the calls in flight
                self._wait_for_calls_in_flight(self._close_timeout)
            self._table.lose(ClientClosedError("the client was closed before the server replied"))
            self._deadlines.stop()
            if self.process is not None and not self._reader.is_alive() and self.process.stdout is not None:
                self.process.stdout.close()
            return self.returncode

    def __enter__(self) -> ShopClient:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _wait_for_calls_in_flight(self, timeout: float) -> None:
        """Waits up to ``timeout`` s for every pending call's outcome (read by the background thread)."""
        give_up = time.monotonic() + timeout
        for outcome in self._table.futures():
            try:
                outcome.exception(max(give_up - time.monotonic(), 0))
            except (FutureTimeoutError, CancelledError):
                pass

    def _close_writer(self) -> bool:
        """Closes the writer (the server's stdin): end of input. Returns ``False``, leaving the writer
        alone, if another thread's write stayed blocked on a full pipe for ``close_timeout`` s."""
        if not self._write_lock.acquire(timeout=self._close_timeout):
            log.warning("a write to shop-rpc stayed blocked for %.1f s; not waiting for a clean exit",
                        self._close_timeout)
            return False
        try:
            self._writer_closed = True
            self._writer.close()
        except (OSError, ValueError):
            pass
        finally:
            self._write_lock.release()
        return True

    def _wait_for_exit(self, grace: float) -> None:
        """Waits ``grace`` s for the server to exit, then sends SIGTERM, then (3 s later) SIGKILL."""
        assert self.process is not None
        try:
            self.process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            log.warning("shop-rpc did not exit within %.1f s; terminating it", grace)
        self.process.terminate()
        try:
            self.process.wait(3.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    # MARK: - Registering, sending, waiting

    def _register(self, method: str, params: Params, timeout: Optional[float], progress: Optional[ProgressCallback],
                  outcome: Any) -> Tuple[CallRecord, Dict[str, Any]]:
        """Registers a call completing ``outcome`` (a :class:`CallOutcome`, or a ``Future`` to hand out)."""
        record, message = self._table.register(method, params, timeout, progress, outcome)
        self._reader.note_call()
        if record.expiry is not None:
            self._deadlines.add(record.expiry, record)
        return record, message

    def _send_registered(self, records: List[CallRecord], message: Any) -> None:
        """Writes a request (or batch) whose records are registered; unregisters them if it can't."""
        try:
            self._write(encode_message(message))
        except BaseException:
            for record in records:
                self._table.take(record.id)
            raise

    def _write(self, data: bytes) -> None:
        """Writes one whole message. Thread-safe; blocks while the server applies back-pressure."""
        with self._write_lock:
            if self._writer_closed:
                raise self._table.unusable_error()
            try:
                self._writer.write(data)
                self._writer.flush()
            except (OSError, ValueError) as error:
                raise self._table.unusable_error(f"writing to the server failed: {error}") from error

    def _wait_for(self, record: CallRecord, timeout: Optional[float]) -> None:
        """:class:`PendingCall`'s wait: as in :meth:`call`, bounded by ``timeout``."""
        self._reader.check_may_wait()
        self._reader.wait(record, timeout)

    def _cancel(self, record: CallRecord) -> bool:
        if not self._table.is_pending(record):
            return False
        try:
            self._write(encode_message(cancel_notification(record.id)))
        except ConnectionLostError:
            return False
        return True

    def _expire(self, record: CallRecord) -> None:
        """The local deadline passed: fail the call and tell the server. Called by the deadline watcher's
        thread and by the thread waiting for the call, whichever is first."""
        if not self._table.expire(record):
            return
        try:
            self._write(encode_message(cancel_notification(record.id)))
        except ConnectionLostError:
            pass

    def _output_ended(self, reason: str) -> None:
        """The server's output ended or failed: every pending call fails, and so do later ones."""
        returncode = None
        if self.process is not None:
            try:
                returncode = self.process.wait(0.2)  # EOF normally means it exited; name how
            except subprocess.TimeoutExpired:
                pass
        self._table.lose(lost_connection_error(reason, returncode))
        self._deadlines.stop()
