"""AsyncShopClient against the real binary (and a fake peer for replies the real server never sends)."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from support import MEMORY_DB, PROMPT, FakePeer, run_async
from shoprpc import (AsyncShopClient, ClientClosedError, ClientDeadlineExceededError, ConnectionLostError,
                     DeadlineExceededError, MethodNotFoundError, NotFoundError, RequestCancelledError)

INVENTORY_MESSAGE = "Inventory information is temporarily unavailable, please try again later"
FIFTY_MB = 50 * 1024 * 1024


def spawn(server_binary: str, *extra_args: str, **options: Any) -> AsyncShopClient:
    return AsyncShopClient([*MEMORY_DB, *extra_args], binary=server_binary, **options)


async def attach(peer: FakePeer, **options: Any) -> AsyncShopClient:
    reader, writer = await asyncio.open_connection(sock=peer.client_socket)  # default 64 KiB StreamReader limit
    return await AsyncShopClient.attach(reader, writer, **options).start()


@run_async
async def test_shopSession_browseAddPlaceOrder(server_binary: str) -> None:
    async with spawn(server_binary, "--allow", "read,write,admin") as shop:
        assert await shop.ping() == {}
        page = await shop.catalog_list(limit=3)
        sku = page["items"][0]["sku"]
        assert (await shop.catalog_get(sku))["sku"] == sku
        assert "items" in await shop.catalog_search("coffee")
        assert (await shop.inventory_check([sku]))["levels"][0]["sku"] == sku
        await shop.cart_add("a1", sku, 3)
        assert (await shop.cart_remove("a1", sku))["lines"] == []
        await shop.cart_add("a1", sku, 2)
        order = await shop.orders_place("a1", "async-key")
        assert (await shop.orders_get(order["orderId"]))["totalCents"] == order["totalCents"]
        assert (await shop.orders_list(cart_id="a1"))["items"][0]["orderId"] == order["orderId"]
        cancelled = await shop.orders_cancel(order["orderId"], actor="async-tester")
        assert cancelled["status"] == "cancelled" and "cancelReason" not in cancelled
        assert await shop.orders_cancel(order["orderId"], "again") == cancelled
        assert (await shop.admin_stock_set(sku, 12, actor="async-tester"))["available"] == 12
        assert (await shop.admin_stock_adjust(sku, -2, "damaged"))["available"] == 10
        assert (await shop.cart_clear("a1"))["lines"] == []
        with pytest.raises(NotFoundError):
            await shop.catalog_get("SKU-NOPE")
        assert (await shop.cart_get("a1"))["lines"] == []


@run_async
async def test_stats_countsThisSessionsCalls(server_binary: str) -> None:
    async with spawn(server_binary) as shop:
        await asyncio.gather(*(shop.catalog_get("SKU-0002") for _ in range(5)))
        with pytest.raises(NotFoundError):
            await shop.catalog_get("SKU-NOPE")
        stats = await shop.stats()
        get = stats["methods"]["catalog.get"]
        assert (get["calls"], get["ok"], get["inFlight"], sum(get["errors"].values())) == (6, 5, 0, 1)
        assert 0 <= get["latencyMs"]["p50"] <= get["latencyMs"]["p99"]
        assert (await shop.stats())["methods"]["catalog.get"]["calls"] == 6, "rpc.stats does not count itself"


@run_async
async def test_batch_returnsResultsAndErrorsInRequestOrder(server_binary: str) -> None:
    async with spawn(server_binary) as shop:
        outcomes = await shop.batch([("catalog.get", {"sku": "SKU-0002"}), ("nope", None), ("ping", None)])
        assert outcomes[0]["sku"] == "SKU-0002"
        assert isinstance(outcomes[1], MethodNotFoundError)
        assert outcomes[2] == {}


@run_async
async def test_manyConcurrentCalls_eachGetsItsOwnReply(server_binary: str) -> None:
    async with spawn(server_binary) as shop:
        skus = [p["sku"] for p in (await shop.catalog_list(limit=20))["items"]]
        wanted = [skus[i % len(skus)] for i in range(400)]
        products = await asyncio.gather(*(shop.catalog_get(sku) for sku in wanted))
        assert [p["sku"] for p in products] == wanted


@run_async
async def test_timeout_pastServerDeadline_raisesDeadlineExceededWithInventoryMessage(server_binary: str) -> None:
    # A margin as long as the simulated latency: the server's own -32001 must be what arrives,
    # however busy the machine (its reply took over 0.5 s once with both cores loaded).
    async with spawn(server_binary, "--simulate-latency", "inventory.check=6000", timeout_margin=5.0) as shop:
        started = time.monotonic()
        with pytest.raises(DeadlineExceededError) as error:
            await shop.inventory_check(["SKU-0001"], timeout=0.2)
        assert time.monotonic() - started < 5.2
        assert not isinstance(error.value, ClientDeadlineExceededError)
        assert error.value.message == INVENTORY_MESSAGE
        assert (error.value.method, error.value.deadline_ms) == ("inventory.check", 200)


@run_async
async def test_timeout_withoutAnyReply_failsLocallyAndSendsCancelRequest(peer: FakePeer) -> None:
    client = await attach(peer, timeout_margin=0.1)
    with pytest.raises(ClientDeadlineExceededError):
        await client.call("slow", {}, timeout=0.2)
    sent = await asyncio.get_running_loop().run_in_executor(None, peer.receive)
    cancel = await asyncio.get_running_loop().run_in_executor(None, peer.receive)
    assert cancel == {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": sent["id"]}}
    peer.end()
    await client.close()


@run_async
async def test_cancellingTheAwaitingTask_sendsCancelRequest_andTheServerCancelsTheWork(
        server_binary: str, tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    shop = spawn(server_binary, "--simulate-latency", "catalog.get=5000", "--progress-interval-ms", "50",
                 "--trace", str(trace))
    async with shop:
        running = asyncio.Event()
        task = asyncio.ensure_future(shop.catalog_get("SKU-0001", progress=lambda _: running.set()))
        await asyncio.wait_for(running.wait(), PROMPT)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await shop.ping() == {}
        started = time.monotonic()
        assert await shop.close() == 0
        assert time.monotonic() - started < 2.5, "nothing left in flight: the 5 s call was cancelled"
    messages = [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]
    cancels = [m["msg"] for m in messages if m["dir"] == "in" and m["msg"].get("method") == "$/cancelRequest"]
    assert len(cancels) == 1, messages
    cancelled_id = cancels[0]["params"]["id"]
    replies = [m["msg"] for m in messages if m["dir"] == "out" and m["msg"].get("id") == cancelled_id]
    assert [reply["error"]["code"] for reply in replies] == [-32800], replies


@run_async
async def test_serverCancelledReply_raisesRequestCancelledError(peer: FakePeer) -> None:
    client = await attach(peer)
    call = asyncio.ensure_future(client.call("m", None))
    request = await asyncio.get_running_loop().run_in_executor(None, peer.receive)
    peer.send({"jsonrpc": "2.0", "id": request["id"],
               "error": {"code": -32800, "message": "m was cancelled", "data": {"type": "Cancelled", "method": "m"}}})
    with pytest.raises(RequestCancelledError):
        await call
    peer.end()
    await client.close()


@run_async
async def test_progressCallback_receivesIncreasingNotifications(server_binary: str) -> None:
    async with spawn(server_binary, "--simulate-latency", "catalog.get=1500", "--progress-interval-ms", "100") as shop:
        events: List[Dict[str, Any]] = []
        assert (await shop.catalog_get("SKU-0001", progress=events.append))["sku"] == "SKU-0001"
        assert len(events) >= 3
        progress = [event["progress"] for event in events]
        assert progress == sorted(set(progress))


@run_async
async def test_serverCrash_failsEveryPendingCallPromptly(server_binary: str) -> None:
    shop = spawn(server_binary, "--simulate-latency", "catalog.get=20000", "--progress-interval-ms", "50")
    async with shop:
        running = asyncio.Event()
        calls = [asyncio.ensure_future(shop.catalog_get("SKU-0001", progress=lambda _: running.set()))
                 for _ in range(5)]
        await asyncio.wait_for(running.wait(), PROMPT)
        assert shop.process is not None
        shop.process.kill()
        started = time.monotonic()
        outcomes = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), PROMPT)
        assert time.monotonic() - started < 2.0
        assert all(isinstance(outcome, ConnectionLostError) for outcome in outcomes), outcomes
        with pytest.raises(ConnectionLostError):
            await shop.ping()
    assert shop.returncode == -9


@run_async
async def test_largeReply_50MB_onOneLine_isRead(peer: FakePeer) -> None:
    client = await attach(peer)
    call = asyncio.ensure_future(client.call("big", None))
    request = await asyncio.get_running_loop().run_in_executor(None, peer.receive)
    reply = {"jsonrpc": "2.0", "id": request["id"], "result": "y" * FIFTY_MB}
    writer = threading.Thread(target=peer.send, args=(reply,))
    writer.start()
    assert len(await asyncio.wait_for(call, 30)) == FIFTY_MB
    writer.join(30)
    peer.end()
    await client.close()


@run_async
async def test_close_serverExitsZero_idempotently(server_binary: str) -> None:
    shop = await spawn(server_binary).start()
    assert await shop.ping() == {}
    assert await shop.close() == 0
    assert await shop.close() == 0
    with pytest.raises(ClientClosedError):
        await shop.ping()


@run_async
async def test_close_serverIgnoringEndOfInput_isTerminatedAfterCloseTimeout() -> None:
    stubborn = await AsyncShopClient(["30"], binary="/bin/sleep", close_timeout=0.2).start()
    started = time.monotonic()
    assert await stubborn.close() == -15
    assert time.monotonic() - started < 3.0


@run_async
async def test_spawned_localTimeout_failsTheCall_andTheLateReplyIsDropped(server_binary: str) -> None:
    async with spawn(server_binary, timeout_margin=0.05) as shop:
        assert shop.process is not None
        shop.process.send_signal(signal.SIGSTOP)  # a server that cannot answer, not even its own deadline
        try:
            with pytest.raises(ClientDeadlineExceededError):
                await asyncio.wait_for(shop.catalog_get("SKU-0001", timeout=0.1), PROMPT)
        finally:
            shop.process.send_signal(signal.SIGCONT)
        assert (await shop.catalog_get("SKU-0002"))["sku"] == "SKU-0002", "the late reply was dropped"


@run_async
async def test_spawned_stderrPipe_isTheProcessStderrStream(server_binary: str) -> None:
    shop = spawn(server_binary, "--log-level", "info", stderr=asyncio.subprocess.PIPE)
    async with shop:
        assert await shop.ping() == {}
    assert shop.process is not None and shop.process.stderr is not None
    assert b"serving on stdin/stdout" in await asyncio.wait_for(shop.process.stderr.read(), PROMPT)


@run_async
async def test_paramsThatCannotBeEncoded_raiseAndLeaveNothingPending(server_binary: str) -> None:
    async with spawn(server_binary) as shop:
        with pytest.raises(TypeError):
            await shop.call("catalog.get", {"sku": object()}, timeout=5)
        assert shop._table.futures() == [], "the call was unregistered"
        assert await shop.ping() == {}


@run_async
async def test_cancellingABatch_sendsCancelRequestForEachCall(peer: FakePeer) -> None:
    client = await attach(peer)
    batch = asyncio.ensure_future(client.batch([("a", None), ("b", None)]))
    sent = await asyncio.get_running_loop().run_in_executor(None, peer.receive)
    batch.cancel()
    with pytest.raises(asyncio.CancelledError):
        await batch
    cancels = [await asyncio.get_running_loop().run_in_executor(None, peer.receive) for _ in sent]
    assert sorted(c["params"]["id"] for c in cancels) == sorted(m["id"] for m in sent)
    assert all(c["method"] == "$/cancelRequest" for c in cancels)
    peer.end()
    await client.close()
