"""The shapes of shop results (protocol.md section 7), as TypedDicts: plain dicts at run time.

Money is integer cents with a ``currency`` code. Members the server adds later simply appear as
extra keys.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, TypedDict

__all__ = ["Product", "ProductPage", "SearchResult", "StockLevel", "InventoryLevels", "CartLine", "Cart",
           "Order", "OrderPage", "CatalogProduct", "ImportSummary", "ProductsArchived", "LatencyQuantiles", "MethodStats",
           "ServerStats", "ProgressCallback", "NotificationHandler"]


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


class _StockLevelRequired(TypedDict):
    sku: str
    available: int


class StockLevel(_StockLevelRequired, total=False):
    """One SKU's level. With ``--inventory-stale-ms``, a level the inventory service could not give
    in time may be its last earlier answer: then ``stale`` is ``True`` and ``ageMs`` says how old it
    is. A fresh level has neither key."""

    stale: bool
    ageMs: int


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


class _OrderRequired(TypedDict):
    orderId: str
    cartId: str
    lines: List[CartLine]
    totalCents: int
    currency: str
    status: str
    createdAt: str


class Order(_OrderRequired, total=False):
    """An order; ``createdAt`` is ISO 8601 UTC and ``status`` is ``"placed"`` or ``"cancelled"``. A
    cancelled order has ``cancelledAt`` (ISO 8601 UTC) and, when the cancel gave one, ``cancelReason``."""

    cancelledAt: str
    cancelReason: str


class _OrderPageItems(TypedDict):
    items: List[Order]


class OrderPage(_OrderPageItems, total=False):
    """One page of ``orders.list``, newest first; ``nextCursor`` is absent on the last page."""

    nextCursor: str


class _CatalogProductKey(TypedDict):
    sku: str


class CatalogProduct(_CatalogProductKey, total=False):
    """One product for ``admin_products_upsert``, as a catalog file's row: a member left out keeps
    the product's field (a new SKU needs ``name``, ``category`` and ``priceCents``)."""

    name: str
    description: str
    category: str
    priceCents: int
    currency: str
    stock: int


class ImportSummary(TypedDict):
    """What an import or ``admin.products.upsert`` did: each row once as ``created``, ``updated`` or
    ``unchanged``; ``stockSet`` the rows whose stock changed a level; ``archived`` what ``--replace``
    archived."""

    rows: int
    created: int
    updated: int
    unchanged: int
    archived: int
    stockSet: int


class ProductsArchived(TypedDict):
    """``admin.products.archive``: how many products it archived (not those archived already)."""

    archived: int


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
