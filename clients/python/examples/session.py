#!/usr/bin/env python3
"""A shop session: browse the catalog, fill a cart, place an order (idempotently), list orders.

    python3 clients/python/examples/session.py                 # throw-away store (--db :memory:)
    python3 clients/python/examples/session.py --db shop.sqlite

The server binary comes from $SHOP_RPC_BIN, else `shop-rpc` on PATH, else <repo>/.build/release/shop-rpc.
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from shoprpc import DeadlineExceededError, OutOfStockError, ShopClient  # noqa: E402


def cents(amount: int, currency: str) -> str:
    return f"{amount / 100:.2f} {currency}"


def main(server_args: list) -> int:
    with ShopClient(server_args or ["--db", ":memory:"]) as shop:
        page = shop.catalog_list(limit=5)
        print("First products:")
        for product in page["items"]:
            print(f"  {product['sku']}  {product['name']:<32} {cents(product['priceCents'], product['currency'])}")

        found = shop.catalog_search("coffee", limit=3)["items"]
        print("Search 'coffee':", ", ".join(product["name"] for product in found) or "(nothing)")

        picks = [page["items"][0]["sku"], (found or page["items"])[0]["sku"]]
        try:
            levels = shop.inventory_check(picks, timeout=2.0)["levels"]
            print("In stock:", ", ".join(f"{level['sku']}={level['available']}" for level in levels))
        except DeadlineExceededError as error:
            print("Inventory:", error.message)

        cart_id = f"demo-{uuid.uuid4().hex[:8]}"
        shop.cart_add(cart_id, picks[0], 2)
        cart = shop.cart_add(cart_id, picks[1], 1)
        print(f"Cart {cart_id}: {len(cart['lines'])} lines, total {cents(cart['totalCents'], cart['currency'])}")

        key = str(uuid.uuid4())  # reuse the same key when retrying: the server never charges twice
        try:
            order = shop.orders_place(cart_id, key, timeout=10.0)
        except OutOfStockError as error:
            print(f"Out of stock: {error.sku} (wanted {error.requested}, {error.available} left)")
            return 1
        print(f"Placed {order['orderId']} at {order['createdAt']}: {cents(order['totalCents'], order['currency'])}")
        assert shop.orders_place(cart_id, key)["orderId"] == order["orderId"]
        print("Orders for the cart:", [o["orderId"] for o in shop.orders_list(cart_id=cart_id)["items"]])
    print("Server exit status:", shop.returncode)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
