"""The shapes of shop results (protocol.md section 7), as TypedDicts: plain dicts at run time.

Money is integer cents with a ``currency`` code. Members the server adds later simply appear as
extra keys.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, TypedDict

__all__ = ["Product", "ProductPage", "SearchResult", "StockLevel", "InventoryLevels", "CartLine", "Cart",
           "Order", "OrderPage", "ProgressCallback", "NotificationHandler"]


class Product(TypedDict):
    sku: str
    name: str
    description: str
    category: str
    priceCents: int
    currency: str


class _ProductPageItems(TypedDict):
    items: List[Product]


class ProductPage(_ProductPageItems, total=False):
    """One page of ``catalog.list``; ``nextCursor`` is absent on the last page."""

    nextCursor: str


class SearchResult(TypedDict):
    items: List[Product]


class StockLevel(TypedDict):
    sku: str
    available: int


class InventoryLevels(TypedDict):
    """``inventory.check``: one level per requested sku, in request order."""

    levels: List[StockLevel]


class CartLine(TypedDict):
    sku: str
    quantity: int
    unitPriceCents: int


class Cart(TypedDict):
    cartId: str
    lines: List[CartLine]
    totalCents: int
    currency: str


class Order(TypedDict):
    """A placed order; ``createdAt`` is ISO 8601 UTC and ``status`` is ``"placed"``."""

    orderId: str
    cartId: str
    lines: List[CartLine]
    totalCents: int
    currency: str
    status: str
    createdAt: str


class _OrderPageItems(TypedDict):
    items: List[Order]


class OrderPage(_OrderPageItems, total=False):
    """One page of ``orders.list``, newest first; ``nextCursor`` is absent on the last page."""

    nextCursor: str


#: Receives each ``notifications/progress`` params object for a call:
#: ``{"progressToken", "progress", "total"?, "message"?}``.
ProgressCallback = Callable[[Dict[str, Any]], None]

#: Receives ``(method, params)`` of every server notification that is not a call's progress.
NotificationHandler = Callable[[str, Any], None]
