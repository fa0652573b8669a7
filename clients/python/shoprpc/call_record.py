"""The record of one call in flight, shared by both clients."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .errors import ClientDeadlineExceededError, ConnectionLostError, ErrorCode
from .models import ProgressCallback

__all__ = ["CallRecord"]


@dataclass
class CallRecord:
    """One request awaiting its reply.

    Whoever removes it from the client's pending table completes it, so it completes at most once.
    ``future`` is a :class:`concurrent.futures.Future` (sync client) or an :class:`asyncio.Future`
    (async client, touched on its event loop only).
    """

    id: int
    method: str
    future: Any
    deadline_ms: Optional[int] = None
    progress_token: Optional[str] = None
    progress: Optional[ProgressCallback] = None
    started: float = field(default_factory=time.monotonic)

    def resolve(self, result: Any) -> None:
        self._settle(lambda future: future.set_result(result))

    def fail(self, error: BaseException) -> None:
        self._settle(lambda future: future.set_exception(error))

    def elapsed_ms(self) -> int:
        return int((time.monotonic() - self.started) * 1000)

    def _settle(self, action: Callable[[Any], None]) -> None:
        try:
            action(self.future)
        except (concurrent.futures.InvalidStateError, asyncio.InvalidStateError):
            pass  # the caller cancelled the raw future locally: nobody wants the outcome

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
