"""Python client for shop-rpc, the JSON-RPC 2.0 shop server over stdin/stdout (see protocol.md).

    from shoprpc import ShopClient
    with ShopClient(["--db", ":memory:"]) as shop:
        print(shop.catalog_get("SKU-0001"))

:class:`ShopClient` is blocking and thread-safe; :class:`AsyncShopClient` is its asyncio twin. Both can
spawn the server or attach to streams, and raise the typed errors below.
"""

from .aio import AsyncShopClient
from .client import ShopClient
from . import errors as _errors
from . import models as _models
from .errors import *  # noqa: F401,F403 - every error class, the shop's generated ones included
from .models import *  # noqa: F401,F403 - the result shapes, the shop's generated ones included
from .pending_call import PendingCall
from .server import ServerNotFoundError, find_server_binary

from ._version import __version__

__all__ = [
    "ShopClient", "AsyncShopClient", "PendingCall", "find_server_binary", "ServerNotFoundError",
    *_errors.__all__,
    *_models.__all__,
]
