"""The outcome of one blocking call: a lighter stand-in for :class:`concurrent.futures.Future`."""

from __future__ import annotations

import threading
from concurrent.futures import InvalidStateError, TimeoutError
from typing import Any, Optional

__all__ = ["CallOutcome"]


class CallOutcome:
    """Set once by whoever completes the call; read by the thread that made it.

    What :meth:`ShopClient.call` waits on instead of a ``Future``: no ``Condition`` and no callbacks,
    only a lock that is held while the outcome is pending, so a thread that must wait blocks on it and
    a thread that completed the call itself (it read the reply) never touches it. Thread-safe for one
    setter (the call table's taker) and any number of waiters.
    """

    __slots__ = ("_pending", "_done", "_result", "_error")

    def __init__(self) -> None:
        self._pending = threading.Lock()
        self._pending.acquire()  # released once, by the setter
        self._done = False
        self._result: Any = None
        self._error: Optional[BaseException] = None

    def done(self) -> bool:
        return self._done

    def set_result(self, result: Any) -> None:
        self._set(result, None)

    def set_exception(self, error: BaseException) -> None:
        self._set(None, error)

    def _set(self, result: Any, error: Optional[BaseException]) -> None:
        if self._done:
            raise InvalidStateError("the outcome is already set")
        self._result = result
        self._error = error
        self._done = True
        self._pending.release()

    def exception(self, timeout: Optional[float] = None) -> Optional[BaseException]:
        """Waits up to ``timeout`` s (``None``: no limit) and returns the error, or ``None`` for a result.
        Raises ``TimeoutError`` if the outcome is still pending then."""
        if not self._done:
            if not self._pending.acquire(timeout=-1 if timeout is None else max(timeout, 0)):
                raise TimeoutError()
            self._pending.release()  # for the next waiter
        return self._error

    def result(self, timeout: Optional[float] = None) -> Any:
        error = self.exception(timeout)
        if error is not None:
            raise error
        return self._result
