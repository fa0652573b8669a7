"""Routing what the server sends: replies to their call by id, progress to the call's callback, other
notifications to ``on_notification``. Shared by both clients."""

from __future__ import annotations

import logging
from typing import Any, Dict, Optional

from .call_table import CallTable
from .errors import error_from_wire
from .framing import decode_line
from .messages import PROGRESS_METHOD
from .models import NotificationHandler

__all__ = ["MessageRouter"]

log = logging.getLogger("shoprpc")


class MessageRouter:
    """Decodes incoming lines and completes the calls of ``table``.

    - Important: call :meth:`handle_line` from one reader at a time (the sync client's reading thread,
      or the asyncio client's loop): callbacks run on it, in the order the server sent their messages.
    """

    def __init__(self, table: CallTable, on_notification: Optional[NotificationHandler]) -> None:
        self._table = table
        self._on_notification = on_notification

    def handle_line(self, line: bytes) -> None:
        try:
            message = decode_line(line)
        except ValueError:
            log.warning("ignoring a line from the server that is not JSON: %.200r", line)
            return
        if type(message) is dict and "method" not in message and "id" in message and "result" in message:
            record = self._table.take(message["id"]) if _is_key(message["id"]) else None
            if record is not None:  # the usual line: a result for a call in flight
                record.resolve(message["result"])
                return
        if type(message) is list:  # a batch reply
            for element in message:
                self._handle_message(element)
        else:
            self._handle_message(message)

    def _handle_message(self, message: Any) -> None:
        if type(message) is not dict:
            log.warning("ignoring a message from the server that is neither a reply nor a notification: %.200r",
                        message)
        elif "method" not in message:
            if "id" in message and ("result" in message or "error" in message):
                self._handle_reply(message)
            else:
                log.warning("ignoring a message from the server that is neither a reply nor a notification: %.200r",
                            message)
        elif not isinstance(message["method"], str):
            log.warning("ignoring a message from the server that is neither a reply nor a notification: %.200r",
                        message)
        elif "id" in message:
            log.warning("ignoring a request from the server (the protocol defines none): %.200r", message)
        else:
            self._handle_notification(message)

    def _handle_notification(self, message: Dict[str, Any]) -> None:
        params = message.get("params")
        if message["method"] == PROGRESS_METHOD and isinstance(params, dict):
            token = params.get("progressToken")
            record = self._table.for_progress_token(token) if _is_key(token) else None
            if record is not None and record.progress is not None:
                _invoke(record.progress, params)
                return
        if self._on_notification is not None:
            _invoke(self._on_notification, message["method"], params)

    def _handle_reply(self, message: Dict[str, Any]) -> None:
        request_id = message["id"]
        record = self._table.take(request_id) if _is_key(request_id) else None
        if record is None:
            if request_id is None and "error" in message:
                log.warning("the server reported an error it could not attribute to a request: %.500r",
                            message["error"])
            else:
                log.debug("dropping a reply for id %r, which is no longer pending", request_id)
        elif "error" in message:
            record.fail(error_from_wire(message["error"], request_id=record.id, request_method=record.method))
        else:
            record.resolve(message["result"])


def _is_key(value: Any) -> bool:
    """Ids and tokens are strings or numbers; anything else from the wire matches nothing."""
    return isinstance(value, (str, int, float))


def _invoke(callback: Any, *args: Any) -> None:
    try:
        callback(*args)
    except Exception:
        log.exception("shoprpc callback %r raised", callback)
