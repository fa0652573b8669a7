"""ShopClient against the real binary (and, where the real server cannot misbehave on cue, a fake peer)."""

from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List

import pytest

from support import PROMPT, FakePeer
from shoprpc import (CartEmptyError, ClientClosedError, ClientDeadlineExceededError, ConnectionLostError,
                     DeadlineExceededError, IdempotencyConflictError, InvalidParamsError, InvalidQuantityError,
                     InventoryUnavailableError,
                     MethodNotFoundError, NotFoundError, OutOfStockError, RequestCancelledError, ServerNotFoundError,
                     ShopClient, StockMismatchError, StockOutOfRangeError)

INVENTORY_MESSAGE = "Inventory information is temporarily unavailable, please try again later"
FIFTY_MB = 50 * 1024 * 1024


def all_skus(client: ShopClient) -> List[str]:
    skus: List[str] = []
    cursor = None
    while True:
        page = client.catalog_list(cursor=cursor, limit=200)
        skus += [product["sku"] for product in page["items"]]
        cursor = page.get("nextCursor")
        if cursor is None:
            return skus


# MARK: - Typed operations


def test_shopSession_browseAddPlaceOrder_returnsDocumentedShapes(spawn) -> None:
    shop = spawn()
    assert shop.ping() == {}
    first = shop.catalog_list(limit=2)
    assert len(first["items"]) == 2 and "nextCursor" in first
    second = shop.catalog_list(cursor=first["nextCursor"], limit=2)
    assert second["items"][0]["sku"] > first["items"][1]["sku"], "pages are ordered by sku"
    product = shop.catalog_get(first["items"][0]["sku"])
    assert set(product) >= {"sku", "name", "description", "category", "priceCents", "currency"}
    assert shop.catalog_list(category=product["category"], limit=200)["items"]
    assert isinstance(shop.catalog_search(product["name"].split()[0], limit=5)["items"], list)
    browsed = shop.catalog_search("", category=[product["category"]], in_stock=None, facets=["category"], limit=2)
    assert browsed["total"] > 2 and browsed["facets"]["category"] == [{"value": product["category"], "count": browsed["total"]}]
    rest = shop.catalog_search("", category=product["category"], cursor=browsed["nextCursor"], limit=200)
    assert len(rest["items"]) == browsed["total"] - 2 and "nextCursor" not in rest
    levels = shop.inventory_check([product["sku"], second["items"][0]["sku"]])["levels"]
    assert [level["sku"] for level in levels] == [product["sku"], second["items"][0]["sku"]]

    cart = shop.cart_add("c1", product["sku"], 2)
    assert cart["cartId"] == "c1" and cart["lines"][0]["quantity"] == 2
    assert cart["totalCents"] == 2 * product["priceCents"]
    shop.cart_add("c1", second["items"][0]["sku"], 1)
    assert len(shop.cart_remove("c1", second["items"][0]["sku"])["lines"]) == 1
    assert [line["sku"] for line in shop.cart_get("c1")["lines"]] == [product["sku"]]

    order = shop.orders_place("c1", "key-1")
    assert order["status"] == "placed" and order["cartId"] == "c1" and order["totalCents"] == 2 * product["priceCents"]
    assert shop.orders_place("c1", "key-1")["orderId"] == order["orderId"], "same key, same order"
    assert shop.cart_get("c1")["lines"] == []
    assert shop.orders_get(order["orderId"])["orderId"] == order["orderId"]
    assert [o["orderId"] for o in shop.orders_list(cart_id="c1")["items"]] == [order["orderId"]]
    shop.cart_add("c2", product["sku"], 1)
    assert shop.cart_clear("c2")["lines"] == []


def test_ordersCancel_restocks_isIdempotent_andUnknownOrdersAreNotFound(spawn) -> None:
    shop = spawn()
    before = shop.inventory_check(["SKU-0002"])["levels"][0]["available"]
    shop.cart_add("c1", "SKU-0002", 2)
    order = shop.orders_place("c1", "key-1", actor="tester")
    cancelled = shop.orders_cancel(order["orderId"], "changed my mind", actor="tester")
    assert cancelled["status"] == "cancelled" and cancelled["cancelReason"] == "changed my mind"
    assert cancelled["cancelledAt"] >= order["createdAt"] and cancelled["lines"] == order["lines"]
    assert shop.inventory_check(["SKU-0002"])["levels"][0]["available"] == before
    assert shop.orders_cancel(order["orderId"]) == cancelled, "a second cancel returns the order as it is"
    assert shop.inventory_check(["SKU-0002"])["levels"][0]["available"] == before
    assert shop.orders_get(order["orderId"]) == cancelled
    with pytest.raises(NotFoundError) as unknown:
        shop.orders_cancel("ord_0000000000000000")
    assert (unknown.value.entity, unknown.value.id) == ("order", "ord_0000000000000000")
    with pytest.raises(InvalidParamsError) as bad_actor:
        shop.orders_cancel(order["orderId"], actor="")
    assert bad_actor.value.field == "_meta.actor"


def test_adminStock_adjustAndCompareAndSet_withTypedErrors(spawn) -> None:
    shop = spawn("--allow", "read,write,admin")
    level = shop.inventory_check(["SKU-0003"])["levels"][0]["available"]
    assert shop.admin_stock_adjust("SKU-0003", 10, "received", actor="ops") == {"sku": "SKU-0003", "available": level + 10}
    with pytest.raises(StockOutOfRangeError) as negative:
        shop.admin_stock_adjust("SKU-0003", -(level + 11), "damaged")
    assert (negative.value.sku, negative.value.available, negative.value.delta) == ("SKU-0003", level + 10, -(level + 11))
    with pytest.raises(InvalidParamsError) as bad_reason:
        shop.admin_stock_adjust("SKU-0003", 1, "stolen")
    assert bad_reason.value.field == "reason"
    assert shop.admin_stock_set("SKU-0003", 5, expected=level + 10) == {"sku": "SKU-0003", "available": 5}
    with pytest.raises(StockMismatchError) as mismatch:
        shop.admin_stock_set("SKU-0003", 7, expected=level + 10)
    assert (mismatch.value.expected, mismatch.value.available) == (level + 10, 5)
    assert shop.admin_stock_set("SKU-0003", 0)["available"] == 0
    assert shop.inventory_check(["SKU-0003"])["levels"][0]["available"] == 0
    with pytest.raises(NotFoundError):
        shop.admin_stock_set("SKU-NOPE", 1)


def test_adminProducts_upsertWithTheImportsRules_andArchive(spawn) -> None:
    shop = spawn("--allow", "read,write,admin")
    summary = shop.admin_products_upsert([
        {"sku": "PY-1", "name": "Python Mug", "category": "kitchen", "priceCents": 1299, "stock": 4},
        {"sku": "SKU-0001", "priceCents": 2599},
    ], actor="py-ops")
    assert summary == {"rows": 2, "created": 1, "updated": 1, "unchanged": 0, "archived": 0, "stockSet": 1}
    assert shop.catalog_get("PY-1")["name"] == "Python Mug"
    with pytest.raises(InvalidParamsError) as invalid:
        shop.admin_products_upsert([{"sku": "PY-2", "name": "No Category", "priceCents": 1}, {"sku": "PY-3", "colour": "red"}])
    assert invalid.value.field == "products[0].category"
    assert [error["index"] for error in invalid.value.errors] == [0, 1]
    assert shop.admin_products_archive(["PY-1"]) == {"archived": 1}
    with pytest.raises(NotFoundError):
        shop.catalog_get("PY-1")
    with pytest.raises(NotFoundError):
        shop.admin_products_archive(["SKU-NOPE"])


def test_errors_areTypedByDataType_withTheirDataAsAttributes(spawn) -> None:
    shop = spawn()
    with pytest.raises(NotFoundError) as not_found:
        shop.catalog_get("SKU-NOPE")
    assert (not_found.value.code, not_found.value.id) == (1001, "SKU-NOPE")
    assert not_found.value.entity
    with pytest.raises(InvalidParamsError) as invalid:
        shop.cart_add("c", "SKU-0001", 0)
    assert invalid.value.field == "quantity"
    with pytest.raises(MethodNotFoundError):
        shop.call("no.such.method")
    shop.cart_add("c", "SKU-0001", 1)
    with pytest.raises(InvalidQuantityError) as too_many:
        shop.cart_add("c", "SKU-0001", 999)
    assert too_many.value.sku == "SKU-0001"
    with pytest.raises(CartEmptyError):
        shop.orders_place("empty", "k-empty")
    shop.orders_place("c", "k-1")
    shop.cart_add("other", "SKU-0001", 1)
    with pytest.raises(IdempotencyConflictError):
        shop.orders_place("other", "k-1")


def test_placingMoreThanInStock_raisesOutOfStockWithSkuRequestedAvailable(spawn) -> None:
    shop = spawn()
    sku = min(all_skus(shop), key=lambda s: shop.inventory_check([s])["levels"][0]["available"])
    available = shop.inventory_check([sku])["levels"][0]["available"]
    assert available < 999, f"every product has >= 999 in stock; cannot provoke OutOfStock ({sku}: {available})"
    shop.cart_add("big", sku, available + 1)
    with pytest.raises(OutOfStockError) as error:
        shop.orders_place("big", "k-big")
    assert (error.value.sku, error.value.requested, error.value.available) == (sku, available + 1, available)


# MARK: - Batches and concurrency


def test_batch_returnsResultsAndErrorsInRequestOrder(spawn) -> None:
    shop = spawn()
    outcomes = shop.batch([
        ("catalog.get", {"sku": "SKU-0002"}),
        ("no.such.method", {}),
        ("catalog.get", {"sku": "SKU-0001"}),
        ("ping", None),
        ("catalog.get", {"sku": "SKU-NOPE"}),
    ])
    assert outcomes[0]["sku"] == "SKU-0002"
    assert isinstance(outcomes[1], MethodNotFoundError)
    assert outcomes[2]["sku"] == "SKU-0001"
    assert outcomes[3] == {}
    assert isinstance(outcomes[4], NotFoundError)
    assert shop.batch([]) == []


def test_batch_matchesRepliesById_notByPosition(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams()) as client:
        results: Dict[str, Any] = {}
        thread = threading.Thread(target=lambda: results.update(out=client.batch([("a", None), ("b", None)])))
        thread.start()
        sent = peer.receive()
        assert [m["method"] for m in sent] == ["a", "b"], "one JSON array"
        peer.send([{"jsonrpc": "2.0", "id": sent[1]["id"], "result": "B"},
                   {"jsonrpc": "2.0", "id": sent[0]["id"], "result": "A"}])
        thread.join(PROMPT)
        assert results["out"] == ["A", "B"]


def test_manyThreads_concurrentCalls_eachGetsItsOwnReply(spawn) -> None:
    shop = spawn()
    skus = all_skus(shop)[:20]

    def worker(n: int) -> None:
        for i in range(25):
            sku = skus[(n + i) % len(skus)]
            assert shop.catalog_get(sku)["sku"] == sku
            cart = shop.cart_add(f"cart-{n}", sku, 1)
            assert cart["cartId"] == f"cart-{n}"
            assert shop.ping() == {}

    with ThreadPoolExecutor(16) as pool:
        for future in [pool.submit(worker, n) for n in range(16)]:
            future.result(timeout=30)
    assert sum(line["quantity"] for line in shop.cart_get("cart-3")["lines"]) == 25


# MARK: - Deadlines, cancellation, progress


def test_timeout_pastServerDeadline_raisesDeadlineExceededWithInventoryMessage(spawn) -> None:
    # The server is up before the clock starts, and the client's own backstop waits 2 s past the
    # timeout: a loaded machine may start the server or deliver its reply late, and the test is
    # about which side answers, not how fast.
    shop = spawn("--simulate-latency", "inventory.check=3000", timeout_margin=2.0)
    assert shop.ping() == {}
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as error:
        shop.inventory_check(["SKU-0001"], timeout=0.2)
    assert time.monotonic() - started < 2.5, "the server's deadline reply, well before the 3 s latency"
    assert not isinstance(error.value, ClientDeadlineExceededError), "the server's reply, not the local backstop"
    assert str(error.value) == error.value.message == INVENTORY_MESSAGE
    assert (error.value.code, error.value.method, error.value.deadline_ms) == (-32001, "inventory.check", 200)
    assert error.value.elapsed_ms is not None
    assert shop.ping() == {}


def test_inventoryServiceRefusingConnections_raisesInventoryUnavailableWithDetail(spawn) -> None:
    # A loopback port that was just free: nothing listens there, so the server's request is refused.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    shop = spawn("--inventory-url", f"http://127.0.0.1:{port}")
    with pytest.raises(InventoryUnavailableError) as error:
        shop.inventory_check(["SKU-0001"])
    assert (error.value.code, error.value.type, error.value.request_method) == (1009, "InventoryUnavailable", "inventory.check")
    assert isinstance(error.value.detail, str) and error.value.detail
    assert error.value.status is None, "no HTTP answer, so no status"
    assert shop.ping() == {}


def test_timeout_withoutAnyReply_failsLocallyAndSendsCancelRequest(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams(), timeout_margin=0.1) as client:
        with pytest.raises(ClientDeadlineExceededError) as error:
            client.call("slow.method", {"x": 1}, timeout=0.2)
        sent = peer.receive()
        assert sent["params"] == {"x": 1, "_meta": {"deadlineMs": 200}}
        assert peer.receive() == {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": sent["id"]}}
        assert (error.value.method, error.value.deadline_ms) == ("slow.method", 200)
        assert isinstance(error.value, DeadlineExceededError)


def test_cancel_sendsCancelRequest_andTheCallRaisesRequestCancelled(spawn) -> None:
    shop = spawn("--simulate-latency", "catalog.get=5000")
    started = time.monotonic()
    pending = shop.call_async("catalog.get", {"sku": "SKU-0001"})
    assert pending.cancel() is True
    with pytest.raises(RequestCancelledError) as error:
        pending.result(timeout=PROMPT)
    assert time.monotonic() - started < 2.5
    assert (error.value.code, error.value.method) == (-32800, "catalog.get")
    assert pending.cancel() is False, "already answered"
    assert shop.ping() == {}


def test_stats_countsWhatThisSessionDid_byMethod(spawn) -> None:
    shop = spawn("--simulate-latency", "inventory.check=20000")
    for _ in range(2):
        shop.catalog_get("SKU-0001")
    with pytest.raises(NotFoundError) as unknown:
        shop.catalog_get("SKU-NOPE")
    with pytest.raises(DeadlineExceededError):
        shop.inventory_check(["SKU-0001"], timeout=0.2)
    pending = shop.call_async("inventory.check", {"skus": ["SKU-0002"]})
    assert pending.cancel() is True
    with pytest.raises(RequestCancelledError):
        pending.result(timeout=PROMPT)
    stats = shop.stats()
    assert stats["methods"]["catalog.get"] == {
        "calls": 3, "ok": 2, "errors": {str(unknown.value.code): 1}, "deadlineExpiries": 0, "cancels": 0, "inFlight": 0,
        "latencyMs": stats["methods"]["catalog.get"]["latencyMs"]}
    check = stats["methods"]["inventory.check"]
    assert (check["calls"], check["ok"], check["deadlineExpiries"], check["cancels"], check["inFlight"]) == (2, 0, 1, 1, 0)
    assert check["errors"] == {"-32001": 1, "-32800": 1}
    for name in ("catalog.get", "inventory.check"):
        latency = stats["methods"][name]["latencyMs"]
        assert 0 <= latency["p50"] <= latency["p99"]
    assert stats["methods"]["orders.place"]["latencyMs"] == {"p50": None, "p99": None}
    assert "rpc.stats" not in stats["methods"] and "ping" not in stats["methods"]
    assert isinstance(stats["sections"], dict) and stats["uptimeMs"] >= 0


def test_cancel_writesTheExactCancelNotification(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams()) as client:
        pending = client.call_async("slow", None)
        request = peer.receive()
        assert pending.cancel()
        assert peer.receive() == {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": request["id"]}}
        peer.send({"jsonrpc": "2.0", "id": request["id"],
                   "error": {"code": -32800, "message": "cancelled", "data": {"type": "Cancelled", "method": "slow"}}})
        assert isinstance(pending.exception(PROMPT), RequestCancelledError)


def test_progressCallback_receivesIncreasingNotificationsForItsCall(spawn) -> None:
    notifications: List[Any] = []
    shop = spawn("--simulate-latency", "catalog.get=1500", "--progress-interval-ms", "100",
                 on_notification=lambda method, params: notifications.append((method, params)))
    events: List[Dict[str, Any]] = []
    product = shop.catalog_get("SKU-0001", progress=events.append)
    assert product["sku"] == "SKU-0001"
    assert len(events) >= 3, events
    assert len({event["progressToken"] for event in events}) == 1
    progress = [event["progress"] for event in events]
    assert progress == sorted(set(progress)), "strictly increasing"
    assert all(event.get("total") == 30000 for event in events), events
    assert notifications == [], "progress for a call goes to its callback only"


def test_serverNotifications_otherThanProgress_goToOnNotification(peer: FakePeer) -> None:
    received: List[Any] = []
    got = threading.Event()
    handler = lambda method, params: (received.append((method, params)), got.set())  # noqa: E731
    with ShopClient.attach(*peer.client_streams(), on_notification=handler):
        peer.send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"text": "hi"}})
        assert got.wait(PROMPT)
    assert received == [("notifications/message", {"text": "hi"})]


# MARK: - Connection loss, large replies, lifecycle


def test_serverCrash_failsEveryPendingCallPromptly_withConnectionLost(spawn) -> None:
    shop = spawn("--simulate-latency", "catalog.get=20000", "--progress-interval-ms", "50")
    running = threading.Event()
    pending = [shop.call_async("catalog.get", {"sku": "SKU-0001"}) for _ in range(5)]
    pending.append(shop.call_async("catalog.get", {"sku": "SKU-0002"}, progress=lambda _: running.set()))
    blocked: Dict[str, BaseException] = {}

    def blocking_call() -> None:
        try:
            shop.catalog_get("SKU-0003", progress=lambda _: running.set())
        except BaseException as error:  # noqa: BLE001 - recorded for the assertion below
            blocked["error"] = error

    thread = threading.Thread(target=blocking_call)
    thread.start()
    assert running.wait(PROMPT), "the calls are running on the server"
    assert shop.process is not None
    shop.process.kill()
    started = time.monotonic()
    for call in pending:
        assert isinstance(call.exception(PROMPT), ConnectionLostError)
    thread.join(PROMPT)
    assert isinstance(blocked.get("error"), ConnectionLostError)
    assert time.monotonic() - started < 2.0
    with pytest.raises(ConnectionLostError):
        shop.ping()
    assert shop.close() == -9


def test_attachedStreamEnds_failsPendingCalls(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams()) as client:
        pending = client.call_async("x", None)
        peer.receive()
        peer.end()
        assert isinstance(pending.exception(PROMPT), ConnectionLostError)


def test_largeReply_50MB_onOneLine_isRead(peer: FakePeer) -> None:
    with ShopClient.attach(*peer.client_streams()) as client:
        big = client.call_async("big", None)
        request = peer.receive()
        blob = "x" * FIFTY_MB
        writer = threading.Thread(target=peer.send, args=({"jsonrpc": "2.0", "id": request["id"], "result": blob},))
        writer.start()
        result = big.result(timeout=30)
        writer.join(30)
        assert len(result) == FIFTY_MB
        small = client.call_async("small", None)
        peer.send({"jsonrpc": "2.0", "id": peer.receive()["id"], "result": 1})
        assert small.result(PROMPT) == 1, "framing intact after the big line"


def test_close_endsInputAndTheServerExitsZero_idempotently(spawn) -> None:
    shop = spawn()
    assert shop.ping() == {}
    assert shop.close() == 0
    assert shop.close() == 0
    with pytest.raises(ClientClosedError):
        shop.ping()


def test_close_letsCallsInFlightFinish(spawn) -> None:
    shop = spawn("--simulate-latency", "catalog.get=300")
    pending = shop.call_async("catalog.get", {"sku": "SKU-0001"})
    assert shop.close() == 0
    assert pending.result(0)["sku"] == "SKU-0001"


def test_contextManager_closesCleanly(server_binary: str) -> None:
    with ShopClient(["--db", ":memory:"], binary=server_binary) as shop:
        shop.ping()
    assert shop.returncode == 0


def test_missingBinary_raisesServerNotFound() -> None:
    with pytest.raises(ServerNotFoundError):
        ShopClient(binary="/nonexistent/shop-rpc")


def test_close_serverIgnoringEndOfInput_isTerminatedAfterCloseTimeout() -> None:
    stubborn = ShopClient(["30"], binary="/bin/sleep", close_timeout=0.2)  # never reads stdin, never exits
    started = time.monotonic()
    assert stubborn.close() == -15, "SIGTERM after the grace period"
    assert time.monotonic() - started < 3.0


def test_paramsThatCannotBeEncoded_raiseAndLeaveNothingPending(spawn) -> None:
    shop = spawn()
    with pytest.raises(TypeError):
        shop.call("catalog.get", {"sku": object()}, timeout=5)
    assert shop._table.futures() == [], "the call was unregistered"
    assert shop.ping() == {}
