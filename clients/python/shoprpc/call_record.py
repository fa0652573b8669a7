"""The record of one call in flight, shared by both clients."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from typing import Any, Optional

from .errors import ClientDeadlineExceededError, ConnectionLostError, ErrorCode
from .models import ProgressCallback

__all__ = ["CallRecord"]

_INVALID_STATE = (concurrent.futures.InvalidStateError, asyncio.InvalidStateError)


class CallRecord:
    """One request awaiting its reply.

    Whoever removes it from the client's :class:`~shoprpc.call_table.CallTable` completes it, so it
    completes at most once. ``future`` is a :class:`~shoprpc.call_outcome.CallOutcome` or a
    :class:`concurrent.futures.Future` (sync client), or an :class:`asyncio.Future` (async client,
    touched on its event loop only). A call with a timeout has ``started`` and ``expiry``, the
    ``time.monotonic()`` it was sent and the one past which the client gives up on the reply;
    ``timer`` is the asyncio client's handle for that moment.
    """

    __slots__ = ("id", "method", "future", "deadline_ms", "progress_token", "progress", "started", "expiry",
                 "timer")

    def __init__(self, request_id: int, method: str, future: Any, deadline_ms: Optional[int] = None,
                 progress_token: Optional[str] = None, progress: Optional[ProgressCallback] = None,
                 expiry: Optional[float] = None, started: Optional[float] = None) -> None:
        self.id = request_id
        self.method = method
        self.future = future
        self.deadline_ms = deadline_ms
        self.progress_token = progress_token
        self.progress = progress
        self.started = started  # time.monotonic() when sent, for a call with a local deadline
        self.expiry = expiry
        self.timer: Any = None

    def resolve(self, result: Any) -> None:
        try:
            self.future.set_result(result)
        except _INVALID_STATE:
            pass  # the caller cancelled the raw future locally: nobody wants the outcome

    def fail(self, error: BaseException) -> None:
        try:
            self.future.set_exception(error)
        except _INVALID_STATE:
            pass

    def elapsed_ms(self) -> Optional[int]:
        return None if self.started is None else int((time.monotonic() - self.started) * 1000)

    def client_deadline_error(self) -> ClientDeadlineExceededError:
        """The error for a call whose reply did not come by its timeout plus the client's margin."""
        return ClientDeadlineExceededError(
            ErrorCode.DEADLINE_EXCEEDED,
            f"{self.method} did not complete within {self.deadline_ms} ms (no reply from the server in time)",
            {"type": "DeadlineExceeded", "method": self.method, "deadlineMs": self.deadline_ms,
             "elapsedMs": self.elapsed_ms(), "source": "client"},
            request_id=self.id, request_method=self.method,
        )

    def connection_lost_error(self, cause: ConnectionLostError) -> ConnectionLostError:
        """This call's own copy of ``cause`` (exceptions are not shared between waiters)."""
        return type(cause)(f"{cause}; no reply to {self.method} (id {self.id})", returncode=cause.returncode)

    def __repr__(self) -> str:
        return f"<CallRecord id={self.id} method={self.method!r}>"
