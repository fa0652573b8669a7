"""Building requests and reading replies: the JSON-RPC 2.0 message shapes both clients share."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

__all__ = ["Params", "CANCEL_METHOD", "PROGRESS_METHOD", "deadline_ms_for", "with_meta",
           "request", "notification", "cancel_notification", "is_reply"]

#: Params of a call: an object (by name, what every shop method takes), an array, or none.
Params = Optional[Union[Mapping[str, Any], Sequence[Any]]]

CANCEL_METHOD = "$/cancelRequest"
PROGRESS_METHOD = "notifications/progress"


def deadline_ms_for(timeout: float) -> int:
    """A client timeout in seconds as ``_meta.deadlineMs``: a positive integer, rounded up."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0 or math.isinf(timeout):
        raise ValueError(f"timeout must be a positive finite number of seconds, not {timeout!r}")
    return max(1, math.ceil(timeout * 1000))


def with_meta(params: Params, meta: Mapping[str, Any]) -> Params:
    """``params`` with ``meta`` merged into its ``_meta`` object, without touching the caller's objects.

    Raises ``TypeError`` for array params, which cannot carry ``_meta``.
    """
    if not meta:
        return params
    if params is None:
        return {"_meta": dict(meta)}
    if not isinstance(params, Mapping):
        raise TypeError("timeout= and progress= need params to be an object (a dict), not an array")
    merged: Dict[str, Any] = dict(params)
    existing = merged.get("_meta")
    merged["_meta"] = {**(existing if isinstance(existing, Mapping) else {}), **meta}
    return merged


def request(request_id: int, method: str, params: Params) -> Dict[str, Any]:
    message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params if isinstance(params, Mapping) else list(params)
    return message


def notification(method: str, params: Params) -> Dict[str, Any]:
    message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params if isinstance(params, Mapping) else list(params)
    return message


def cancel_notification(request_id: Any) -> Dict[str, Any]:
    """``{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":ID}}``."""
    return notification(CANCEL_METHOD, {"id": request_id})


def is_reply(message: Any) -> bool:
    """A response object (has ``id`` and ``result`` or ``error``, and no ``method``)."""
    return (isinstance(message, dict) and "id" in message and "method" not in message
            and ("result" in message or "error" in message))


def progress_params(message: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """The params of a ``notifications/progress`` message, or ``None`` for any other message."""
    if message.get("method") != PROGRESS_METHOD:
        return None
    params = message.get("params")
    return params if isinstance(params, dict) else None


def split_incoming(message: Any) -> List[Any]:
    """A batch reply (array) as its elements; any other message as a one-element list."""
    return list(message) if isinstance(message, list) else [message]
