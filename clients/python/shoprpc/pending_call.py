"""The handle the sync client gives for a call in flight."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any, Callable, Optional

from .call_record import CallRecord

__all__ = ["PendingCall"]

#: Returns once the call is complete; raises ``TimeoutError`` after ``timeout`` s (``None``: no limit).
WaitForCall = Callable[[CallRecord, Optional[float]], None]
#: Sends ``$/cancelRequest`` for the call if it is still pending; ``True`` if it was.
CancelCall = Callable[[CallRecord], bool]


class PendingCall:
    """A call in flight, returned by :meth:`ShopClient.call_async`. Thread-safe.

    Exactly one outcome: the server's result or typed error, a local
    :class:`~shoprpc.ClientDeadlineExceededError`, or :class:`~shoprpc.ConnectionLostError`.
    """

    def __init__(self, record: CallRecord, wait: WaitForCall, cancel: CancelCall) -> None:
        self._record = record
        self._wait = wait
        self._cancel = cancel
        self._future: Future[Any] = record.future

    @property
    def id(self) -> int:
        """The request id on the wire."""
        return self._record.id

    @property
    def method(self) -> str:
        return self._record.method

    @property
    def future(self) -> "Future[Any]":
        """The underlying :class:`concurrent.futures.Future` (for ``wait``/``as_completed``)."""
        return self._future

    def result(self, timeout: Optional[float] = None) -> Any:
        """Waits for the outcome and returns the result or raises the call's error.

        ``timeout`` only bounds this wait (raising ``TimeoutError``; the call stays in flight); the call's
        own deadline is the ``timeout`` it was started with.
        """
        self._wait(self._record, timeout)
        return self._future.result(0)

    def exception(self, timeout: Optional[float] = None) -> Optional[BaseException]:
        """Waits like :meth:`result` and returns the call's error, or ``None`` if it succeeded."""
        self._wait(self._record, timeout)
        return self._future.exception(0)

    def done(self) -> bool:
        return self._future.done()

    def cancel(self) -> bool:
        """Asks the server to cancel the call: sends ``$/cancelRequest`` with this call's id.

        Returns ``True`` if the call was still pending (the request was sent), ``False`` if it had already
        completed. The server answers the call with ``-32800`` at once, so :meth:`result` then raises
        :class:`~shoprpc.RequestCancelledError` — unless the real result won the race, in which case
        :meth:`result` returns it (exactly one reply per request). Never blocks on the reply.
        """
        return self._cancel(self._record)

    def __repr__(self) -> str:
        state = "done" if self.done() else "pending"
        return f"<PendingCall id={self.id} method={self.method!r} {state}>"
