"""Typed shop operations (protocol.md sections 6-7) for both clients.

Every method takes keyword-only ``timeout`` (seconds: sent as ``_meta.deadlineMs`` and enforced locally)
and ``progress`` (a callback receiving ``notifications/progress`` params), and returns a plain dict of
the documented shape or raises a typed :class:`~shoprpc.errors.RPCError`. Optional arguments left as
``None`` are not sent, so the server's defaults apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional, Sequence, cast

from .models import (Cart, InventoryLevels, Order, OrderPage, Product, ProductPage, ProgressCallback, SearchResult,
                     ServerStats)

if TYPE_CHECKING:
    from .messages import Params

__all__ = ["ShopMethods", "AsyncShopMethods"]


def _present(**members: Any) -> Dict[str, Any]:
    """The members that are not ``None``."""
    return {name: value for name, value in members.items() if value is not None}


class ShopMethods:
    """The shop operations as blocking methods. Mixed into :class:`~shoprpc.ShopClient`."""

    def call(self, method: str, params: Params = None, timeout: Optional[float] = None, *,
             progress: Optional[ProgressCallback] = None) -> Any:  # pragma: no cover - provided by the client
        raise NotImplementedError

    def ping(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """``ping``: returns ``{}``. Answered ahead of queued work, so it shows the server is alive."""
        return cast(Dict[str, Any], self.call("ping", None, timeout))

    def stats(self, *, timeout: Optional[float] = None) -> ServerStats:
        """``rpc.stats``: per method since the server started, ``{calls, ok, errors: {code: count},
        deadlineExpiries, cancels, inFlight, latencyMs: {p50, p99}}``, plus the server's ``sections``.
        The call itself is not counted."""
        return cast(ServerStats, self.call("rpc.stats", None, timeout))

    def catalog_list(self, cursor: Optional[str] = None, limit: Optional[int] = None,
                     category: Optional[str] = None, *, timeout: Optional[float] = None,
                     progress: Optional[ProgressCallback] = None) -> ProductPage:
        """``catalog.list``: one page of products ordered by sku: ``{items: [Product], nextCursor?}``.

        ``limit`` is 1..200 (server default 50). Pass ``nextCursor`` back as ``cursor`` for the next page;
        it is absent on the last page. ``category`` filters by category.
        """
        params = _present(cursor=cursor, limit=limit, category=category)
        return cast(ProductPage, self.call("catalog.list", params, timeout, progress=progress))

    def catalog_get(self, sku: str, *, timeout: Optional[float] = None,
                    progress: Optional[ProgressCallback] = None) -> Product:
        """``catalog.get``: the product ``{sku, name, description, category, priceCents, currency}``.

        Raises :class:`~shoprpc.NotFoundError` for an unknown sku.
        """
        return cast(Product, self.call("catalog.get", {"sku": sku}, timeout, progress=progress))

    def catalog_search(self, query: str, limit: Optional[int] = None, *, timeout: Optional[float] = None,
                       progress: Optional[ProgressCallback] = None) -> SearchResult:
        """``catalog.search``: ``{items: [Product]}`` whose name and category have every word of ``query``
        (case- and accent-insensitive; words of 3+ letters also match as prefixes), in catalog order.
        ``limit`` is 1..200 (server default 50)."""
        params = _present(query=query, limit=limit)
        return cast(SearchResult, self.call("catalog.search", params, timeout, progress=progress))

    def inventory_check(self, skus: Sequence[str], *, timeout: Optional[float] = None,
                        progress: Optional[ProgressCallback] = None) -> InventoryLevels:
        """``inventory.check``: ``{levels: [{sku, available}]}`` in the order of ``skus`` (1..100 skus).

        Its server deadline is 5 s; past it, :class:`~shoprpc.DeadlineExceededError` carries the message
        "Inventory information is temporarily unavailable, please try again later".
        """
        return cast(InventoryLevels, self.call("inventory.check", {"skus": list(skus)}, timeout, progress=progress))

    def cart_get(self, cart_id: str, *, timeout: Optional[float] = None,
                 progress: Optional[ProgressCallback] = None) -> Cart:
        """``cart.get``: ``{cartId, lines: [{sku, quantity, unitPriceCents}], totalCents, currency}``.
        An unknown cart is empty."""
        return cast(Cart, self.call("cart.get", {"cartId": cart_id}, timeout, progress=progress))

    def cart_add(self, cart_id: str, sku: str, quantity: int, *, timeout: Optional[float] = None,
                 progress: Optional[ProgressCallback] = None) -> Cart:
        """``cart.add``: adds ``quantity`` (>= 1) to the sku's line and returns the cart.

        Raises :class:`~shoprpc.InvalidQuantityError` past 999 per line, :class:`~shoprpc.NotFoundError`
        for an unknown sku, :class:`~shoprpc.InvalidParamsError` for a quantity below 1.
        """
        params = {"cartId": cart_id, "sku": sku, "quantity": quantity}
        return cast(Cart, self.call("cart.add", params, timeout, progress=progress))

    def cart_remove(self, cart_id: str, sku: str, *, timeout: Optional[float] = None,
                    progress: Optional[ProgressCallback] = None) -> Cart:
        """``cart.remove``: removes the sku's whole line and returns the cart."""
        return cast(Cart, self.call("cart.remove", {"cartId": cart_id, "sku": sku}, timeout, progress=progress))

    def cart_clear(self, cart_id: str, *, timeout: Optional[float] = None,
                   progress: Optional[ProgressCallback] = None) -> Cart:
        """``cart.clear``: empties the cart and returns it."""
        return cast(Cart, self.call("cart.clear", {"cartId": cart_id}, timeout, progress=progress))

    def orders_place(self, cart_id: str, idempotency_key: str, *, timeout: Optional[float] = None,
                     progress: Optional[ProgressCallback] = None) -> Order:
        """``orders.place``: takes stock for every line, records the order and empties the cart, atomically.

        Returns ``{orderId, cartId, lines, totalCents, currency, status: "placed", createdAt}``. Retrying
        with the same ``idempotency_key`` returns the same order (no second charge), so it is safe to
        retry after a timeout or a lost connection. Raises :class:`~shoprpc.CartEmptyError`,
        :class:`~shoprpc.OutOfStockError`, :class:`~shoprpc.IdempotencyConflictError`.
        """
        params = {"cartId": cart_id, "idempotencyKey": idempotency_key}
        return cast(Order, self.call("orders.place", params, timeout, progress=progress))

    def orders_get(self, order_id: str, *, timeout: Optional[float] = None,
                   progress: Optional[ProgressCallback] = None) -> Order:
        """``orders.get``: the order, or :class:`~shoprpc.NotFoundError`."""
        return cast(Order, self.call("orders.get", {"orderId": order_id}, timeout, progress=progress))

    def orders_list(self, cart_id: Optional[str] = None, cursor: Optional[str] = None,
                    limit: Optional[int] = None, *, timeout: Optional[float] = None,
                    progress: Optional[ProgressCallback] = None) -> OrderPage:
        """``orders.list``: ``{items: [Order], nextCursor?}``, newest first, optionally for one cart."""
        params = _present(cartId=cart_id, cursor=cursor, limit=limit)
        return cast(OrderPage, self.call("orders.list", params, timeout, progress=progress))


class AsyncShopMethods:
    """The shop operations as coroutines, same arguments and results as :class:`ShopMethods`.
    Mixed into :class:`~shoprpc.AsyncShopClient`."""

    async def call(self, method: str, params: Params = None, timeout: Optional[float] = None, *,
                   progress: Optional[ProgressCallback] = None) -> Any:  # pragma: no cover - provided by the client
        raise NotImplementedError

    async def ping(self, *, timeout: Optional[float] = None) -> Dict[str, Any]:
        """See :meth:`ShopMethods.ping`."""
        return cast(Dict[str, Any], await self.call("ping", None, timeout))

    async def stats(self, *, timeout: Optional[float] = None) -> ServerStats:
        """See :meth:`ShopMethods.stats`."""
        return cast(ServerStats, await self.call("rpc.stats", None, timeout))

    async def catalog_list(self, cursor: Optional[str] = None, limit: Optional[int] = None,
                           category: Optional[str] = None, *, timeout: Optional[float] = None,
                           progress: Optional[ProgressCallback] = None) -> ProductPage:
        """See :meth:`ShopMethods.catalog_list`."""
        params = _present(cursor=cursor, limit=limit, category=category)
        return cast(ProductPage, await self.call("catalog.list", params, timeout, progress=progress))

    async def catalog_get(self, sku: str, *, timeout: Optional[float] = None,
                          progress: Optional[ProgressCallback] = None) -> Product:
        """See :meth:`ShopMethods.catalog_get`."""
        return cast(Product, await self.call("catalog.get", {"sku": sku}, timeout, progress=progress))

    async def catalog_search(self, query: str, limit: Optional[int] = None, *, timeout: Optional[float] = None,
                             progress: Optional[ProgressCallback] = None) -> SearchResult:
        """See :meth:`ShopMethods.catalog_search`."""
        params = _present(query=query, limit=limit)
        return cast(SearchResult, await self.call("catalog.search", params, timeout, progress=progress))

    async def inventory_check(self, skus: Sequence[str], *, timeout: Optional[float] = None,
                              progress: Optional[ProgressCallback] = None) -> InventoryLevels:
        """See :meth:`ShopMethods.inventory_check`."""
        return cast(InventoryLevels,
                    await self.call("inventory.check", {"skus": list(skus)}, timeout, progress=progress))

    async def cart_get(self, cart_id: str, *, timeout: Optional[float] = None,
                       progress: Optional[ProgressCallback] = None) -> Cart:
        """See :meth:`ShopMethods.cart_get`."""
        return cast(Cart, await self.call("cart.get", {"cartId": cart_id}, timeout, progress=progress))

    async def cart_add(self, cart_id: str, sku: str, quantity: int, *, timeout: Optional[float] = None,
                       progress: Optional[ProgressCallback] = None) -> Cart:
        """See :meth:`ShopMethods.cart_add`."""
        params = {"cartId": cart_id, "sku": sku, "quantity": quantity}
        return cast(Cart, await self.call("cart.add", params, timeout, progress=progress))

    async def cart_remove(self, cart_id: str, sku: str, *, timeout: Optional[float] = None,
                          progress: Optional[ProgressCallback] = None) -> Cart:
        """See :meth:`ShopMethods.cart_remove`."""
        return cast(Cart, await self.call("cart.remove", {"cartId": cart_id, "sku": sku}, timeout,
                                          progress=progress))

    async def cart_clear(self, cart_id: str, *, timeout: Optional[float] = None,
                         progress: Optional[ProgressCallback] = None) -> Cart:
        """See :meth:`ShopMethods.cart_clear`."""
        return cast(Cart, await self.call("cart.clear", {"cartId": cart_id}, timeout, progress=progress))

    async def orders_place(self, cart_id: str, idempotency_key: str, *, timeout: Optional[float] = None,
                           progress: Optional[ProgressCallback] = None) -> Order:
        """See :meth:`ShopMethods.orders_place`."""
        params = {"cartId": cart_id, "idempotencyKey": idempotency_key}
        return cast(Order, await self.call("orders.place", params, timeout, progress=progress))

    async def orders_get(self, order_id: str, *, timeout: Optional[float] = None,
                         progress: Optional[ProgressCallback] = None) -> Order:
        """See :meth:`ShopMethods.orders_get`."""
        return cast(Order, await self.call("orders.get", {"orderId": order_id}, timeout, progress=progress))

    async def orders_list(self, cart_id: Optional[str] = None, cursor: Optional[str] = None,
                          limit: Optional[int] = None, *, timeout: Optional[float] = None,
                          progress: Optional[ProgressCallback] = None) -> OrderPage:
        """See :meth:`ShopMethods.orders_list`."""
        params = _present(cartId=cart_id, cursor=cursor, limit=limit)
        return cast(OrderPage, await self.call("orders.list", params, timeout, progress=progress))
