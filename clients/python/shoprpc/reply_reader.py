"""Who reads the sync client's replies: the calling thread itself while it is the only one reading,
else a background thread."""

from __future__ import annotations

import collections
import concurrent.futures
import logging
import threading
import time
from typing import Callable, Deque, Optional

from .call_record import CallRecord
from .call_table import CallTable
from .dispatch import MessageRouter
from .line_reader import LineReader

__all__ = ["ReplyReader", "IDLE_WATCH_DELAY"]

log = logging.getLogger("shoprpc")

#: Seconds without a new call after which the background thread watches the server's output (for
#: notifications and its end) when no call is in flight. While calls keep coming, each caller reads.
IDLE_WATCH_DELAY = 0.05

_BACKGROUND = "shoprpc.reader"  # the owner mark of the background thread


class ReplyReader:
    """Reads the server's output for :class:`~shoprpc.ShopClient` and routes each line.

    One reader at a time owns the output (``_owner``):

    - a thread waiting for its own call's reply reads the output itself when nobody owns it, so a lone
      caller is answered on its own thread, with no other thread woken (leader/follower);
    - another thread waiting meanwhile waits for its call's future; when the reading caller has its reply
      and other calls are still in flight, it hands the output to the background thread
      ("shoprpc.reader"), which reads while calls are in flight (and for ``call_async``, ``close()``);
    - once no call has been made for :data:`IDLE_WATCH_DELAY`, the background thread watches the output
      for notifications and its end.

    Each line is routed on the owning thread, so callbacks run there, in the order the server sent them.
    A waiting caller enforces its call's expiry itself (``on_expired``); the end of the output is
    reported once (``on_ended``), by whichever thread saw it. Only a descriptor's reader
    (``LineReader.can_time_out``) lets callers read: a stream without one is read by the background
    thread alone.

    Thread-safe. ``_lock`` (``_condition``'s lock) guards ``_owner`` and ``_ended``; ``_backlog`` belongs to
    the owner.
    """

    def __init__(self, lines: LineReader, table: CallTable, router: MessageRouter,
                 on_expired: Callable[[CallRecord], None], on_ended: Callable[[str], None]) -> None:
        self._lines = lines
        self._table = table
        self._router = router
        self._on_expired = on_expired
        self._on_ended = on_ended
        self._lock = threading.Lock()  # what _condition waits with; taken alone where nothing waits
        self._condition = threading.Condition(self._lock)
        self._owner: object = None  # guarded by _lock: a caller's thread ident, _BACKGROUND, or None
        self._ended = False  # guarded by _lock: the output ended or failed; nobody reads any more
        self._backlog: Deque[bytes] = collections.deque()  # lines read, not yet routed; the owner's alone
        self._last_call = float("-inf")  # time.monotonic() of the latest call (one float store: atomic)
        self._thread = threading.Thread(target=self._run_background, name=_BACKGROUND, daemon=True)
        self._thread.start()

    # MARK: - For callers

    def note_call(self) -> None:
        """A call was just registered: the client is busy, so callers read for themselves."""
        self._last_call = time.monotonic()

    def wake_background(self) -> None:
        """Calls are in flight that no caller reads for (``call_async``, ``close()``): the background
        thread reads now if nobody owns the output."""
        with self._lock:
            if self._owner is None:
                self._condition.notify()

    def check_may_wait(self) -> None:
        """Raises ``RuntimeError`` on the thread reading the output (a callback): waiting there for a
        reply would wait for itself."""
        me = threading.get_ident()
        if me == self._owner or me == self._thread.ident:
            raise RuntimeError("a progress or notification callback cannot wait for a call on its client: "
                               "it runs on the thread that reads the replies")

    def wait(self, record: CallRecord, timeout: Optional[float] = None) -> None:
        """Returns once ``record`` is complete, reading the output itself when nobody else does.

        Enforces the call's expiry (``on_expired``). Raises :class:`concurrent.futures.TimeoutError`
        after ``timeout`` s without an outcome (the call stays in flight).
        """
        future = record.future
        expiry = record.expiry
        give_up = None if timeout is None else time.monotonic() + timeout
        while not future.done():
            limit = expiry if give_up is None or (expiry is not None and expiry < give_up) else give_up
            if limit is not None:
                now = time.monotonic()
                if expiry is not None and now >= expiry:
                    self._on_expired(record)
                    continue
                if give_up is not None and now >= give_up:
                    raise concurrent.futures.TimeoutError()
            with self._lock:
                lead = self._owner is None and self._lines.can_time_out and not self._ended
                if lead:
                    self._owner = threading.get_ident()
            if lead:
                self._lead(record, limit)
            else:
                try:
                    future.exception(None if limit is None else limit - time.monotonic())
                except concurrent.futures.TimeoutError:
                    pass

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    # MARK: - Reading

    def _lead(self, record: CallRecord, limit: Optional[float]) -> None:
        """Reads and routes lines until ``record`` is complete or ``limit`` passes.
        - Important: call owning the output; gives it up before returning."""
        future = record.future
        try:
            if limit is None:
                while not future.done() and self._read_and_route(None):
                    pass
            else:
                while not future.done():
                    remaining = limit - time.monotonic()
                    if remaining <= 0 or not self._read_and_route(remaining):
                        return
        finally:
            with self._lock:
                self._owner = None
                if self._table.has_pending() or self._table.closed:
                    self._condition.notify()  # the background thread reads for the calls still in flight

    def _read_and_route(self, timeout: Optional[float]) -> bool:
        """Routes what one read gives. Returns ``False`` once the output has ended (reported).
        - Important: call owning the output."""
        backlog = self._backlog
        try:
            if not backlog:
                lines = self._lines.read(timeout)
                if lines is None:
                    self._end("the server closed its output")
                    return False
                if len(lines) == 1:  # the usual read at one call in flight: one reply
                    self._router.handle_line(lines[0])
                    return True
                backlog.extend(lines)
            route = self._router.handle_line
            while backlog:  # one line at a time, so an interrupted owner leaves the rest to the next
                route(backlog.popleft())
        except (OSError, ValueError) as error:
            self._end(f"reading from the server failed: {error}")
            return False
        return True

    def _end(self, reason: str) -> None:
        with self._condition:
            if self._ended:
                return
            self._ended = True
            self._condition.notify_all()
        self._on_ended(reason)

    # MARK: - The background thread

    def _run_background(self) -> None:
        try:
            while self._wait_to_own():
                self._read_while_needed()
        except BaseException:  # pragma: no cover - a bug in dispatch: still never leave callers hanging
            log.exception("shoprpc reader thread failed")
            self._end("the client's reader thread failed")
        finally:
            with self._condition:
                if self._owner is _BACKGROUND:
                    self._owner = None

    def _wait_to_own(self) -> bool:
        """Waits until the background thread should read, and takes the output. ``False`` once it ended."""
        with self._condition:
            while not self._ended:
                if self._owner is None:
                    idle = time.monotonic() - self._last_call
                    if self._needed_locked() or idle >= IDLE_WATCH_DELAY:
                        self._owner = _BACKGROUND
                        return True
                    self._condition.wait(IDLE_WATCH_DELAY - idle)
                else:
                    self._condition.wait(IDLE_WATCH_DELAY)
            return False

    def _read_while_needed(self) -> None:
        """Reads until the output ends, or the client is busy with callers who read for themselves."""
        while self._read_and_route(None):
            with self._condition:
                busy = time.monotonic() - self._last_call < IDLE_WATCH_DELAY
                if busy and not self._needed_locked():
                    self._owner = None
                    return

    def _needed_locked(self) -> bool:
        """Whether the background thread must read: calls no caller reads for, closing, or a stream only
        it can read. - Important: call holding ``_condition``."""
        return not self._lines.can_time_out or self._table.has_pending() or self._table.closed
