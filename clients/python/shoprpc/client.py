"""The blocking, thread-safe client."""

from __future__ import annotations

import itertools
import logging
import subprocess
import threading
from concurrent.futures import Future
from concurrent.futures import wait as wait_for_futures
from typing import IO, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .call_record import CallRecord
from .deadlines import DeadlineWatcher
from .dispatch import MessageRouter
from .errors import ClientClosedError, ConnectionLostError
from .framing import encode_message
from .messages import Params, cancel_notification, deadline_ms_for, notification, request, with_meta
from .models import NotificationHandler, ProgressCallback
from .pending_call import PendingCall
from .server import find_server_binary
from .shop_api import ShopMethods

__all__ = ["ShopClient"]

log = logging.getLogger("shoprpc")

#: Seconds the client waits past a call's ``timeout`` for the server's own deadline reply.
DEFAULT_TIMEOUT_MARGIN = 0.5
#: Seconds ``close()`` waits for a clean exit before terminating the server.
DEFAULT_CLOSE_TIMEOUT = 5.0


class ShopClient(ShopMethods, MessageRouter):
    """A JSON-RPC 2.0 client for shop-rpc over NDJSON: spawns the server, or attaches to two binary streams.

    Thread-safe: any number of threads may call at once. Writes are serialised by one lock (one whole
    message per write); one background reader thread ("shoprpc.reader") matches replies to calls by id,
    never by order. Progress callbacks and ``on_notification`` run on the reader thread: they must not
    block, nor make blocking calls on this client.

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
        long past a call's timeout the client waits before failing it locally.
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
        self._reader: IO[bytes] = reader
        self._writer: IO[bytes] = writer  # guarded by _write_lock
        self._write_lock = threading.Lock()
        self._writer_closed = False  # guarded by _write_lock
        self._state_lock = threading.Lock()
        self._pending: Dict[Any, CallRecord] = {}  # guarded by _state_lock
        self._by_progress_token: Dict[Any, CallRecord] = {}  # guarded by _state_lock
        self._ids = itertools.count(1)  # guarded by _state_lock
        self._lost: Optional[ConnectionLostError] = None  # guarded by _state_lock; set once
        self._closed = False  # guarded by _state_lock
        self._close_lock = threading.Lock()
        self._on_notification = on_notification
        self._timeout_margin = timeout_margin
        self._close_timeout = close_timeout
        self._deadlines = DeadlineWatcher(self._expire)
        self._reader_thread = threading.Thread(target=self._read_loop, name="shoprpc.reader", daemon=True)
        self._reader_thread.start()

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
        pending = self.call_async(method, params, timeout, progress=progress)
        try:
            return pending.result()
        except BaseException:
            if not pending.done():  # interrupted while waiting, not the call's own error
                pending.cancel()
            raise

    def call_async(self, method: str, params: Params = None, timeout: Optional[float] = None, *,
                   progress: Optional[ProgressCallback] = None) -> PendingCall:
        """Sends the request and returns at once with a :class:`PendingCall` (``.result()``, ``.cancel()``).

        Same arguments as :meth:`call`. Raises :class:`~shoprpc.ConnectionLostError` if the server is gone.
        """
        record, message = self._register(method, params, timeout, progress)
        self._send_registered([record], message)
        return PendingCall(self, record)

    def notify(self, method: str, params: Params = None) -> None:
        """Sends a notification (no id, never answered)."""
        with self._state_lock:
            self._raise_if_unusable_locked()
        self._write(encode_message(notification(method, params)))

    def batch(self, calls: Sequence[Tuple[str, Params]], timeout: Optional[float] = None) -> List[Any]:
        """Sends ``calls`` (``(method, params)`` pairs) as one JSON-RPC batch and waits for every reply.

        Returns one entry per call, in order: the result, or the exception (a typed
        :class:`~shoprpc.RPCError`, or :class:`~shoprpc.ConnectionLostError`) — exceptions are returned,
        not raised. Replies are matched by id. ``timeout`` applies to each call, as in :meth:`call`.
        """
        records: List[CallRecord] = []
        messages: List[Dict[str, Any]] = []
        try:
            for method, params in calls:
                record, message = self._register(method, params, timeout, None)
                records.append(record)
                messages.append(message)
        except BaseException:
            for record in records:
                self._take(record.id)
            raise
        if not records:
            return []
        self._send_registered(records, messages)
        outcomes: List[Any] = []
        try:
            for record in records:
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
            with self._state_lock:
                if self._closed:
                    return self.returncode
                self._closed = True
            writer_closed = self._close_writer()
            if self.process is not None:
                # The server answers the calls in flight, then exits; no grace if it never saw end of input.
                self._wait_for_exit(self._close_timeout if writer_closed else 0)
                self._reader_thread.join(self._close_timeout)
            else:  # an attached peer may never end the stream: wait only for the calls in flight
                with self._state_lock:
                    futures = [record.future for record in self._pending.values()]
                wait_for_futures(futures, self._close_timeout)
            self._connection_lost(ClientClosedError("the client was closed before the server replied"))
            if self.process is not None and not self._reader_thread.is_alive() and self.process.stdout is not None:
                self.process.stdout.close()
            return self.returncode

    def __enter__(self) -> ShopClient:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

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

    # MARK: - Registering and sending

    def _register(self, method: str, params: Params, timeout: Optional[float],
                  progress: Optional[ProgressCallback]) -> Tuple[CallRecord, Dict[str, Any]]:
        deadline_ms = deadline_ms_for(timeout) if timeout is not None else None
        with self._state_lock:
            self._raise_if_unusable_locked()
            request_id = next(self._ids)
            meta: Dict[str, Any] = {}
            if deadline_ms is not None:
                meta["deadlineMs"] = deadline_ms
            token = f"shoprpc-{request_id}" if progress is not None else None
            if token is not None:
                meta["progressToken"] = token
            message = request(request_id, method, with_meta(params, meta))
            record = CallRecord(request_id, method, Future(), deadline_ms, token, progress)
            self._pending[request_id] = record
            if token is not None:
                self._by_progress_token[token] = record
        if timeout is not None:
            self._deadlines.add(record.started + timeout + self._timeout_margin, request_id)
        return record, message

    def _send_registered(self, records: List[CallRecord], message: Any) -> None:
        """Writes a request (or batch) whose records are registered; unregisters them if it can't."""
        try:
            data = encode_message(message)
            self._write(data)
        except BaseException:
            for record in records:
                self._take(record.id)
            raise

    def _write(self, data: bytes) -> None:
        """Writes one whole message. Thread-safe; blocks while the server applies back-pressure."""
        with self._write_lock:
            if self._writer_closed:
                raise self._unusable_error()
            try:
                self._writer.write(data)
                self._writer.flush()
            except (OSError, ValueError) as error:
                raise self._unusable_error(f"writing to the server failed: {error}") from error

    def _cancel(self, record: CallRecord) -> bool:
        with self._state_lock:
            if self._pending.get(record.id) is not record:
                return False
        try:
            self._write(encode_message(cancel_notification(record.id)))
        except ConnectionLostError:
            return False
        return True

    def _expire(self, request_id: Any) -> None:
        """The local deadline passed: fail the call and tell the server. - Important: on the watcher thread."""
        record = self._take(request_id)
        if record is None:
            return
        record.fail(record.client_deadline_error())
        try:
            self._write(encode_message(cancel_notification(record.id)))
        except ConnectionLostError:
            pass

    def _take(self, request_id: Any) -> Optional[CallRecord]:
        """Removes and returns the pending call with this id, if any: whoever takes it completes it."""
        with self._state_lock:
            record = self._pending.pop(request_id, None)
            if record is not None and record.progress_token is not None:
                self._by_progress_token.pop(record.progress_token, None)
            return record

    def _raise_if_unusable_locked(self) -> None:
        """- Important: call holding ``_state_lock``."""
        if self._closed or self._lost is not None:
            raise self._unusable_error()

    def _unusable_error(self, reason: Optional[str] = None) -> ConnectionLostError:
        if self._closed:
            return ClientClosedError("the client is closed")
        if self._lost is not None:
            return ConnectionLostError(str(self._lost), returncode=self._lost.returncode)
        return ConnectionLostError(reason or "the connection to the server is closed", returncode=self.returncode)

    # MARK: - Reading (reader thread)

    def _read_loop(self) -> None:
        """- Important: runs on the reader thread only."""
        reason = "the server closed its output"
        try:
            while True:
                line = self._reader.readline()  # no length limit: a 50 MB reply is one readline
                if not line:
                    break
                if line.strip():
                    self._handle_line(line)
        except (OSError, ValueError) as error:
            reason = f"reading from the server failed: {error}"
        except BaseException:  # pragma: no cover - a bug in dispatch: still never leave callers hanging
            log.exception("shoprpc reader thread failed")
            reason = "the client's reader thread failed"
        finally:
            self._connection_lost(self._lost_error(reason))

    def _record_for_progress_token(self, token: Any) -> Optional[CallRecord]:
        with self._state_lock:
            return self._by_progress_token.get(token)

    def _lost_error(self, reason: str) -> ConnectionLostError:
        returncode = None
        if self.process is not None:
            try:
                returncode = self.process.wait(0.2)  # EOF normally means it exited; name how
            except subprocess.TimeoutExpired:
                pass
        if returncode is not None:
            reason = f"the shop-rpc server exited with status {returncode}"
        return ConnectionLostError(reason, returncode=returncode)

    def _connection_lost(self, error: ConnectionLostError) -> None:
        """Fails every pending call at once, each with its own exception; later calls fail immediately."""
        with self._state_lock:
            if self._lost is None:
                self._lost = error
            records = list(self._pending.values())
            self._pending.clear()
            self._by_progress_token.clear()
        for record in records:
            record.fail(record.connection_lost_error(error))
        self._deadlines.stop()

