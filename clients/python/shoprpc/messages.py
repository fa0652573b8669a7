"""Building requests and reading replies: the JSON-RPC 2.0 message shapes both clients share."""

from __future__ import annotations

import math
from typing import Any, Dict, Mapping, Optional, Sequence, Union

__all__ = ["Params", "CANCEL_METHOD", "PROGRESS_METHOD", "deadline_ms_for", "with_meta", "present", "with_actor",
           "request", "notification", "cancel_notification"]

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


def present(params: Mapping[str, Any]) -> Dict[str, Any]:
    """The members of ``params`` that are not ``None``: optional arguments left out are not sent."""
    return {name: value for name, value in params.items() if value is not None}


def with_actor(params: Mapping[str, Any], actor: Optional[str]) -> Dict[str, Any]:
    """``params`` carrying ``_meta.actor`` when ``actor`` is given (the client merges its own ``_meta``)."""
    return {**params, "_meta": {"actor": actor}} if actor is not None else dict(params)


def request(request_id: int, method: str, params: Params) -> Dict[str, Any]:
    if params is None:
        return {"jsonrpc": "2.0", "id": request_id, "method": method}
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": _params_value(params)}


def notification(method: str, params: Params) -> Dict[str, Any]:
    if params is None:
        return {"jsonrpc": "2.0", "method": method}
    return {"jsonrpc": "2.0", "method": method, "params": _params_value(params)}


def _params_value(params: Union[Mapping[str, Any], Sequence[Any]]) -> Any:
    """By name as given (a dict, or any mapping), by position as a list."""
    return params if type(params) is dict or isinstance(params, Mapping) else list(params)


def cancel_notification(request_id: Any) -> Dict[str, Any]:
    """``{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":ID}}``."""
    return notification(CANCEL_METHOD, {"id": request_id})
