"""The shapes of shop results (protocol.md section 7), as TypedDicts: plain dicts at run time.

Those of the shop's methods are generated from ``rpc.discover`` (models_generated.py, re-exported
here); ``rpc.stats``' and the callbacks' are written here. Money is integer cents with a
``currency`` code. Members the server adds later simply appear as extra keys.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, TypedDict

from . import models_generated
from .models_generated import *  # noqa: F401,F403 - the shop's result and param types
from .models_generated import ProductSearchPage

__all__ = [*models_generated.__all__, "SearchResult", "LatencyQuantiles", "MethodStats", "ServerStats",
           "ProgressCallback", "NotificationHandler"]

#: ``catalog.search``'s result, by the name this client gave it before the type was generated.
SearchResult = ProductSearchPage


class LatencyQuantiles(TypedDict):
    """Milliseconds from a call's arrival to its reply; ``None`` until one of its calls has ended."""

    p50: Optional[float]
    p99: Optional[float]


class MethodStats(TypedDict):
    """One method's figures in ``rpc.stats``: ``calls == ok + sum(errors.values()) + inFlight``."""

    calls: int
    ok: int
    #: Error replies by code, as a string (``"-32001"``, ``"1003"``).
    errors: Dict[str, int]
    deadlineExpiries: int
    cancels: int
    inFlight: int
    latencyMs: LatencyQuantiles


class ServerStats(TypedDict):
    """``rpc.stats`` (protocol.md section 6.2): every method by name, and the server's own sections
    (shop-rpc: ``inventory`` when ``--inventory-url`` is set)."""

    uptimeMs: int
    methods: Dict[str, MethodStats]
    sections: Dict[str, Any]


#: Receives each ``notifications/progress`` params object for a call:
#: ``{"progressToken", "progress", "total"?, "message"?}``.
ProgressCallback = Callable[[Dict[str, Any]], None]

#: Receives ``(method, params)`` of every server notification that is not a call's progress.
NotificationHandler = Callable[[str, Any], None]
