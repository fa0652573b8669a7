"""Python client for shop-rpc, the JSON-RPC 2.0 shop server over stdin/stdout (see protocol.md).

    from shoprpc import ShopClient
    with ShopClient(["--db", ":memory:"]) as shop:
        print(shop.catalog_get("SKU-0001"))

:class:`ShopClient` is blocking and thread-safe; :class:`AsyncShopClient` is its asyncio twin. Both can
spawn the server or attach to streams, and raise the typed errors below.
"""

from .aio import AsyncShopClient
from .client import ShopClient
from .errors import (CartEmptyError, CartFullError, ClientClosedError, ClientDeadlineExceededError, ConnectionLostError,
                     DeadlineExceededError, DuplicateIdError, ErrorCode, FramingError, IdempotencyConflictError,
                     InternalError, InvalidCursorError, InvalidParamsError, InventoryUnavailableError, InvalidQuantityError,
                     InvalidRequestError, MessageTooLargeError, MethodNotAllowedError, MethodNotFoundError, NotFoundError,
                     OutOfStockError, ParseError, RequestCancelledError, RPCError, ShopError, ShuttingDownError,
                     StockMismatchError, StockOutOfRangeError, StorageError, StoreBusyError, StoreInterruptedError, error_from_wire)
from .models import (Cart, CartLine, CatalogProduct, ImportSummary, InventoryLevels, LatencyQuantiles, MethodStats,
                     NotificationHandler, Order, OrderPage, Product, ProductPage, ProductsArchived, ProgressCallback,
                     SearchResult, ServerStats, StockLevel)
from .pending_call import PendingCall
from .server import ServerNotFoundError, find_server_binary

from ._version import __version__

__all__ = [
    "ShopClient", "AsyncShopClient", "PendingCall", "find_server_binary", "ServerNotFoundError",
    # errors
    "ErrorCode", "RPCError", "ParseError", "FramingError", "InvalidRequestError", "MessageTooLargeError",
    "DuplicateIdError", "MethodNotFoundError", "MethodNotAllowedError", "InvalidParamsError", "InternalError", "DeadlineExceededError",
    "ClientDeadlineExceededError", "ShuttingDownError", "RequestCancelledError", "ShopError", "NotFoundError",
    "OutOfStockError", "InvalidQuantityError", "CartEmptyError", "IdempotencyConflictError", "InvalidCursorError",
    "StoreInterruptedError", "StorageError", "InventoryUnavailableError", "StoreBusyError", "StockOutOfRangeError",
    "StockMismatchError", "CartFullError", "ConnectionLostError", "ClientClosedError", "error_from_wire",
    # result shapes
    "Product", "ProductPage", "SearchResult", "StockLevel", "InventoryLevels", "CartLine", "Cart", "Order",
    "OrderPage", "CatalogProduct", "ImportSummary", "ProductsArchived", "LatencyQuantiles", "MethodStats", "ServerStats",
    "ProgressCallback", "NotificationHandler",
]
