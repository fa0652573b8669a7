"""Routing what the server sends: replies to their call by id, progress to the call's callback, other
notifications to ``on_notification``. Shared by both clients."""

from __future__ import annotations

import json
import logging
from typing import Any, Dict, Optional

from .call_record import CallRecord
from .errors import error_from_wire
from .messages import is_reply, progress_params, split_incoming
from .models import NotificationHandler

__all__ = ["MessageRouter"]

log = logging.getLogger("shoprpc")


class MessageRouter:
    """Mixin: decodes incoming lines and completes calls. The client provides the pending table.

    - Important: call :meth:`_handle_line` from the client's single reader (thread or task) only.
    """

    _on_notification: Optional[NotificationHandler]

    def _take(self, request_id: Any) -> Optional[CallRecord]:  # pragma: no cover - provided by the client
        """Removes and returns the pending call with this id, if any."""
        raise NotImplementedError

    def _record_for_progress_token(self, token: Any) -> Optional[CallRecord]:  # pragma: no cover
        raise NotImplementedError

    def _handle_line(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            log.warning("ignoring a line from the server that is not JSON: %.200r", line)
            return
        for element in split_incoming(message):
            self._handle_message(element)

    def _handle_message(self, message: Any) -> None:
        if is_reply(message):
            self._handle_reply(message)
            return
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            log.warning("ignoring a message from the server that is neither a reply nor a notification: %.200r",
                        message)
            return
        if "id" in message:
            log.warning("ignoring a request from the server (the protocol defines none): %.200r", message)
            return
        params = progress_params(message)
        if params is not None:
            token = params.get("progressToken")
            record = self._record_for_progress_token(token) if _is_key(token) else None
            if record is not None and record.progress is not None:
                _invoke(record.progress, params)
                return
        if self._on_notification is not None:
            _invoke(self._on_notification, message["method"], message.get("params"))

    def _handle_reply(self, message: Dict[str, Any]) -> None:
        request_id = message["id"]
        record = self._take(request_id) if _is_key(request_id) else None
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
