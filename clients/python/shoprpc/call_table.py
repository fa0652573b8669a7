"""The calls in flight of one client: one table shared by the sync and the asyncio client."""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from .call_record import CallRecord
from .errors import ClientClosedError, ConnectionLostError
from .messages import Params, deadline_ms_for, request, with_meta
from .models import ProgressCallback

__all__ = ["CallTable", "DEFAULT_TIMEOUT_MARGIN", "DEFAULT_CLOSE_TIMEOUT", "lost_connection_error"]

#: Seconds a client waits past a call's ``timeout`` for the server's own deadline reply.
DEFAULT_TIMEOUT_MARGIN = 0.5
#: Seconds ``close()`` waits for a clean exit before terminating the server.
DEFAULT_CLOSE_TIMEOUT = 5.0


class CallTable:
    """The calls awaiting a reply, by id and by progress token, and whether the client can still call.

    - Registering gives each call the next id and its ``_meta`` (``deadlineMs``, ``progressToken``).
    - :meth:`take` removes a call: whoever takes it completes it, so each call completes exactly once
      (by its reply, its local deadline, or the lost connection).
    - :meth:`lose` fails every call at once, each with its own exception; later calls are refused.

    Thread-safe: ``_lock`` guards every field below and is held only for the table's own work, never
    while a future is completed or a callback runs. The asyncio client uses it from its loop only.
    """

    def __init__(self, timeout_margin: float, returncode: Callable[[], Optional[int]]) -> None:
        self._timeout_margin = timeout_margin
        self._returncode = returncode
        self._lock = threading.Lock()
        self._pending: Dict[Any, CallRecord] = {}
        self._by_progress_token: Dict[Any, CallRecord] = {}
        self._ids = itertools.count(1)
        self._lost: Optional[ConnectionLostError] = None  # set once
        self._closed = False

    def register(self, method: str, params: Params, timeout: Optional[float], progress: Optional[ProgressCallback],
                 future: Any) -> Tuple[CallRecord, Dict[str, Any]]:
        """A new call completing ``future``, and its request message. Raises the client's
        :class:`~shoprpc.ConnectionLostError` when it is closed or its server is gone."""
        if timeout is None and progress is None:  # the usual call: no _meta, no local deadline
            with self._lock:
                self._raise_if_unusable_locked()
                request_id = next(self._ids)
                record = CallRecord(request_id, method, future)
                self._pending[request_id] = record
            return record, request(request_id, method, params)
        deadline_ms = deadline_ms_for(timeout) if timeout is not None else None
        with self._lock:
            self._raise_if_unusable_locked()
            request_id = next(self._ids)
            meta: Dict[str, Any] = {}
            if deadline_ms is not None:
                meta["deadlineMs"] = deadline_ms
            token = f"shoprpc-{request_id}" if progress is not None else None
            if token is not None:
                meta["progressToken"] = token
            message = request(request_id, method, with_meta(params, meta))
            started = time.monotonic() if timeout is not None else None
            expiry = started + timeout + self._timeout_margin if started is not None and timeout is not None else None
            record = CallRecord(request_id, method, future, deadline_ms, token, progress, expiry, started)
            self._pending[request_id] = record
            if token is not None:
                self._by_progress_token[token] = record
        return record, message

    def take(self, request_id: Any) -> Optional[CallRecord]:
        """Removes and returns the pending call with this id, if any: whoever takes it completes it."""
        with self._lock:
            record = self._pending.pop(request_id, None)
            if record is not None and record.progress_token is not None:
                self._by_progress_token.pop(record.progress_token, None)
            return record

    def expire(self, record: CallRecord) -> bool:
        """Fails ``record`` with the client's deadline error if it is still pending. Returns ``True`` if
        it was (the caller then tells the server with ``$/cancelRequest``)."""
        if self.take(record.id) is None:
            return False
        record.fail(record.client_deadline_error())
        return True

    def for_progress_token(self, token: Any) -> Optional[CallRecord]:
        with self._lock:
            return self._by_progress_token.get(token)

    def is_pending(self, record: CallRecord) -> bool:
        with self._lock:
            return self._pending.get(record.id) is record

    def has_pending(self) -> bool:
        return bool(self._pending)  # one read of the dict's size: atomic

    def futures(self) -> List[Any]:
        with self._lock:
            return [record.future for record in self._pending.values()]

    # MARK: - Closing and losing the connection

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def lost(self) -> Optional[ConnectionLostError]:
        return self._lost

    def close(self) -> bool:
        """Refuses new calls from now on. Returns ``True`` the first time."""
        with self._lock:
            first = not self._closed
            self._closed = True
            return first

    def lose(self, error: ConnectionLostError) -> None:
        """Fails every pending call at once, each with its own copy of ``error``; later calls are refused
        with the first error given (a connection is lost once)."""
        with self._lock:
            if self._lost is None:
                self._lost = error
            records = list(self._pending.values())
            self._pending.clear()
            self._by_progress_token.clear()
        for record in records:
            record.fail(record.connection_lost_error(error))

    def raise_if_unusable(self) -> None:
        with self._lock:
            self._raise_if_unusable_locked()

    def _raise_if_unusable_locked(self) -> None:
        """- Important: call holding ``_lock``."""
        if self._closed or self._lost is not None:
            raise self.unusable_error()

    def unusable_error(self, reason: Optional[str] = None) -> ConnectionLostError:
        """What a call fails with when it cannot be made: closed, lost, or ``reason``."""
        if self._closed:
            return ClientClosedError("the client is closed")
        if self._lost is not None:
            return ConnectionLostError(str(self._lost), returncode=self._lost.returncode)
        return ConnectionLostError(reason or "the connection to the server is closed", returncode=self._returncode())


def lost_connection_error(reason: str, returncode: Optional[int]) -> ConnectionLostError:
    """The error for a connection that ended: named by the server's exit status when it is known."""
    if returncode is not None:
        reason = f"the shop-rpc server exited with status {returncode}"
    return ConnectionLostError(reason, returncode=returncode)
