"""A single timer thread for the sync client's local call deadlines."""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Any, Callable, List, Optional, Tuple

__all__ = ["DeadlineWatcher"]


class DeadlineWatcher:
    """Calls ``on_expired(key)`` once for each key added, when its expiry (``time.monotonic()``) passes.

    One daemon thread ("shoprpc.deadlines"), started on the first :meth:`add`, serves every call, so
    thousands of calls with a timeout cost one thread. ``on_expired`` runs on that thread and must
    tolerate keys that already completed (entries are never removed early; it checks and returns).
    Thread-safe.
    """

    def __init__(self, on_expired: Callable[[Any], None]) -> None:
        self._on_expired = on_expired
        self._condition = threading.Condition()
        self._heap: List[Tuple[float, int, Any]] = []  # guarded by _condition
        self._order = itertools.count()  # tie-breaker: keys need not be comparable
        self._thread: Optional[threading.Thread] = None
        self._stopped = False

    def add(self, expiry: float, key: Any) -> None:
        with self._condition:
            if self._stopped:
                return
            heapq.heappush(self._heap, (expiry, next(self._order), key))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="shoprpc.deadlines", daemon=True)
                self._thread.start()
            if self._heap[0][0] == expiry:  # the new first expiry: the thread waits for a later one
                self._condition.notify()

    def stop(self) -> None:
        """Drops every entry and ends the thread. Idempotent."""
        with self._condition:
            self._stopped = True
            self._heap.clear()
            self._condition.notify()

    def _run(self) -> None:
        while True:
            with self._condition:
                key = self._wait_for_next_expiry_locked()
                if self._stopped:
                    return
            self._on_expired(key)

    def _wait_for_next_expiry_locked(self) -> Any:
        """- Important: call holding ``_condition``, on the watcher thread."""
        while not self._stopped:
            if not self._heap:
                self._condition.wait()
                continue
            expiry = self._heap[0][0]
            remaining = expiry - time.monotonic()
            if remaining > 0:
                self._condition.wait(remaining)
                continue
            return heapq.heappop(self._heap)[2]
        return None
