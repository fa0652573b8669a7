"""Typed shop operations (protocol.md sections 6-7) for both clients.

The shop's methods are generated from ``rpc.discover`` (shop_api_generated.py: :class:`ShopOperations`
and :class:`AsyncShopOperations`, both written from the same description of each method); this
module adds the built-ins ``ping`` and ``rpc.stats``. Every method takes keyword-only ``timeout``
(seconds: sent as ``_meta.deadlineMs`` and enforced locally), the shop's also ``progress`` (a callback
receiving ``notifications/progress`` params), and returns a plain dict of the documented shape or
raises a typed :class:`~shoprpc.errors.RPCError`. Optional arguments left as ``None`` are not sent,
so the server's defaults apply. Methods that change stock also take ``actor``: who the call is made
for, sent as ``_meta.actor`` and recorded on the stock ledger's rows.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .models import ServerStats
from .shop_api_generated import AsyncShopOperations, ShopOperations

__all__ = ["ShopMethods", "AsyncShopMethods"]


class ShopMethods(ShopOperations):
    """The shop operations as blocking methods. Mixed into :class:`~shoprpc.ShopClient`."""

    def ping(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """``ping``: returns ``{}``. Answered ahead of queued work, so it shows the server is alive."""
        return cast(Dict[str, Any], self.call("ping", None, timeout))

    def stats(self, *, timeout: Optional[float] = None) -> ServerStats:
        """``rpc.stats``: per method since the server started, ``{calls, ok, errors: {code: count},
        deadlineExpiries, cancels, inFlight, latencyMs: {p50, p99}}``, plus the server's ``sections``.
        The call itself is not counted."""
        return cast(ServerStats, self.call("rpc.stats", None, timeout))


class AsyncShopMethods(AsyncShopOperations):
    """The shop operations as coroutines, same arguments and results as :class:`ShopMethods`.
    Mixed into :class:`~shoprpc.AsyncShopClient`."""

    async def ping(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """See :meth:`ShopMethods.ping`."""
        return cast(Dict[str, Any], await self.call("ping", None, timeout))

    async def stats(self, *, timeout: Optional[float] = None) -> ServerStats:
        """See :meth:`ShopMethods.stats`."""
        return cast(ServerStats, await self.call("rpc.stats", None, timeout))
