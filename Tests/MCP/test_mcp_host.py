"""shop-rpc as an MCP server, driven by the official MCP Python client (the `mcp` package), exactly
as a host spawns it: `stdio_client` + `ClientSession` over the real binary's stdin and stdout.

Run by scripts/test in a virtual environment with `mcp` 2.x installed; SHOP_RPC_BIN names the
binary (default .build/debug/shop-rpc).
"""
import json
import os
import tempfile
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SHOP_RPC_BIN", str(ROOT / ".build" / "debug" / "shop-rpc"))
INVENTORY_MESSAGE = "Inventory information is temporarily unavailable, please try again later"


class session_with:
    """An MCP client session over a fresh server: the real binary on an in-memory store with
    extra flags (or `command`, a wrapper script). `init` holds the `initialize` result."""

    def __init__(self, *args, command=None):
        arguments = [] if command else ["--db", ":memory:", *args]
        self.params = StdioServerParameters(command=command or BINARY, args=arguments)

    async def __aenter__(self):
        self._client = stdio_client(self.params)
        read, write = await self._client.__aenter__()
        self._session = ClientSession(read, write)
        session = await self._session.__aenter__()
        self.init = await session.initialize()
        return session

    async def __aexit__(self, *exc):
        await self._session.__aexit__(*exc)
        await self._client.__aexit__(*exc)


def run(test):
    anyio.run(test)


# MARK: - Session


def test_initialize_negotiates_a_version_and_presents_the_server():
    async def test():
        holder = session_with()
        async with holder:
            pass
        init = holder.init
        assert init.protocol_version in {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
        assert init.server_info.name == "shop-rpc"
        assert init.server_info.title == "Shop RPC"
        assert init.capabilities.tools is not None
        assert "cents" in init.instructions and "idempotencyKey" in init.instructions

    run(test)


def test_listTools_oneToolPerMethod_withSchemasAnnotationsAndDeadlines():
    async def test():
        async with session_with() as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(tools) == {
            "catalog_list", "catalog_count", "catalog_get", "catalog_product", "catalog_search", "inventory_check", "cart_get", "cart_add",
            "cart_remove", "cart_clear", "orders_place", "orders_cancel", "orders_get", "orders_list",
        }
        for tool in tools.values():
            assert tool.input_schema["type"] == "object"
            assert tool.output_schema["type"] == "object"
            assert "Deadline:" in tool.description
            assert tool.meta["deadlineMs"] > 0
        assert tools["inventory_check"].meta["deadlineMs"] == 5000
        assert INVENTORY_MESSAGE in tools["inventory_check"].description
        assert tools["catalog_get"].input_schema["required"] == ["sku"]
        assert tools["catalog_get"].annotations.read_only_hint is True
        assert tools["cart_clear"].annotations.read_only_hint is False
        assert tools["cart_clear"].annotations.destructive_hint is True
        assert tools["orders_place"].annotations.idempotent_hint is True
        cancel = tools["orders_cancel"].annotations
        assert (cancel.read_only_hint, cancel.destructive_hint, cancel.idempotent_hint) == (False, True, True)

    run(test)


def test_adminScope_listsTheOperatorsTools_withHints_andTheyAdjustAndSetStock():
    """An operator's agent (`--allow read,write,admin`): the admin tools are listed (absent by
    default, above), destructive, `admin_stock_set` idempotent; a refused adjust is an error result
    with its level, and a compare-and-set that finds another level is one too."""
    async def test():
        async with session_with("--allow", "read,write,admin") as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            adjust, set_ = tools["admin_stock_adjust"], tools["admin_stock_set"]
            assert (adjust.meta["scope"], set_.meta["scope"]) == ("admin", "admin")
            assert (adjust.annotations.destructive_hint, adjust.annotations.idempotent_hint) == (True, False)
            assert (set_.annotations.destructive_hint, set_.annotations.idempotent_hint) == (True, True)
            level = (await session.call_tool("admin_stock_set", {"sku": "SKU-0002", "available": 5})).structured_content
            assert level == {"sku": "SKU-0002", "available": 5}
            added = await session.call_tool("admin_stock_adjust", {"sku": "SKU-0002", "delta": 3, "reason": "received",
                                                                    "_meta": {"actor": "agent:restock"}})
            assert not added.is_error and added.structured_content["available"] == 8
            refused = await session.call_tool("admin_stock_adjust", {"sku": "SKU-0002", "delta": -9, "reason": "damaged"})
            assert refused.is_error and refused.structured_content["error"]["data"]["type"] == "StockOutOfRange"
            assert refused.structured_content["error"]["data"]["available"] == 8
            stale = await session.call_tool("admin_stock_set", {"sku": "SKU-0002", "available": 1, "expected": 5})
            assert stale.is_error and stale.structured_content["error"]["code"] == 1012
            levels = (await session.call_tool("inventory_check", {"skus": ["SKU-0002"]})).structured_content["levels"]
            assert levels == [{"sku": "SKU-0002", "available": 8}]
            assert {"admin_products_upsert", "admin_products_archive"} <= set(tools)
            upserted = await session.call_tool("admin_products_upsert", {"products": [
                {"sku": "MCP-1", "name": "Agent Mug", "category": "kitchen", "priceCents": 999}]})
            assert not upserted.is_error and upserted.structured_content["created"] == 1
            bad = await session.call_tool("admin_products_upsert", {"products": [{"sku": "MCP-2", "name": "No Price", "category": "x"}]})
            assert bad.is_error and bad.structured_content["error"]["data"]["field"] == "products[0].priceCents"
            archived = await session.call_tool("admin_products_archive", {"skus": ["MCP-1"]})
            assert archived.structured_content == {"archived": 1}
            synonyms = {"groups": [["tee", "t-shirt"]], "rules": [{"input": "laptop", "synonyms": ["notebook"]}]}
            stored = await session.call_tool("admin_search_synonyms_set", synonyms)
            assert not stored.is_error and stored.structured_content == synonyms
            assert (await session.call_tool("admin_search_synonyms_get", {})).structured_content == synonyms
            assert tools["admin_search_synonyms_get"].annotations.read_only_hint is True
            refused = await session.call_tool("admin_search_synonyms_set", {"groups": [["lonely"]]})
            assert refused.is_error and refused.structured_content["error"]["data"]["field"] == "groups[0]"

    run(test)


def test_catalogSearch_teachesAnAgentItsFiltersFacetsAndPaging():
    """The catalog_search tool's schema names every filter, the facets and the cursor, with
    what each means, and refuses a member it does not know; a call with a filter and facets
    answers the total, the counts over every match, and a cursor that pages to the rest."""
    async def test():
        async with session_with() as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            schema = tools["catalog_search"].input_schema
            assert {"query", "limit", "cursor", "sort", "category", "brand", "priceMin", "priceMax", "inStock", "facets",
                    "highlight"} <= set(schema["properties"])
            assert schema["additionalProperties"] is False
            assert all(member.get("description") for member in schema["properties"].values())
            assert "facet" in tools["catalog_search"].description and "cursor" in tools["catalog_search"].description
            first = await session.call_tool("catalog_search", {"query": "", "category": "coffee", "facets": ["category"], "limit": 3})
            page = first.structured_content
            assert not first.is_error and len(page["items"]) == 3 and page["total"] > 3
            assert page["facets"]["category"] == [{"value": "coffee", "count": page["total"]}]
            second = (await session.call_tool("catalog_search", {"query": "", "category": "coffee", "limit": 3,
                                                                "cursor": page["nextCursor"]})).structured_content
            assert not {item["sku"] for item in second["items"]} & {item["sku"] for item in page["items"]}
            unknown = await session.call_tool("catalog_search", {"query": "mug", "categories": ["kitchen"]})
            assert unknown.is_error and unknown.structured_content["error"]["data"]["field"] == "categories"

    run(test)


def test_readOnly_listsOnlyTheReadTools_andACallOfAWriteIsAnErrorResultThatChangesNothing():
    """A read-only agent (`--read-only`): the host sees only read tools, each hinted read-only;
    calling a write tool anyway is an error result naming the scope it needs, and the cart is
    untouched."""
    async def test():
        holder = session_with("--read-only")
        async with holder as session:
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            assert set(tools) == {"catalog_list", "catalog_count", "catalog_get", "catalog_product", "catalog_search", "inventory_check", "cart_get",
                                  "orders_get", "orders_list"}
            assert all(tool.annotations.read_only_hint is True for tool in tools.values())
            browse = {"catalog_list", "catalog_count", "catalog_get", "catalog_product", "catalog_search", "inventory_check"}
            assert all(tool.meta["scope"] == ("browse" if name in browse else "read") for name, tool in tools.items())
            refused = await session.call_tool("cart_add", {"cartId": "r", "sku": "SKU-0002", "quantity": 1})
            assert refused.is_error
            assert refused.structured_content["error"]["code"] == -32601
            assert refused.structured_content["error"]["data"] == {"type": "MethodNotAllowed", "method": "cart.add", "scope": "write"}
            placed = await session.call_tool("orders_place", {"cartId": "r", "idempotencyKey": "k"})
            assert placed.is_error and placed.structured_content["error"]["data"]["scope"] == "write"
            cart = await session.call_tool("cart_get", {"cartId": "r"})
            assert not cart.is_error and cart.structured_content["lines"] == []
            assert (await session.call_tool("orders_list", {"cartId": "r"})).structured_content["items"] == []
        assert "orders_place" not in holder.init.instructions

    run(test)


# MARK: - Every tool


def test_everyTool_throughTheOfficialClient():
    async def test():
        async with session_with() as session:
            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                assert not result.is_error, result
                # The text block holds the same JSON as the structured content.
                assert json.loads(result.content[0].text) == result.structured_content
                return result.structured_content

            page = await call("catalog_list", {"limit": 2})
            assert [p["sku"] for p in page["items"]] == ["SKU-0001", "SKU-0002"] and page["nextCursor"]
            assert (await call("catalog_get", {"sku": "SKU-0002"}))["priceCents"] > 0
            assert (await call("catalog_search", {"query": "guide", "limit": 3}))["items"]
            levels = (await call("inventory_check", {"skus": ["SKU-0002", "SKU-0001"]}))["levels"]
            assert [level["sku"] for level in levels] == ["SKU-0002", "SKU-0001"]
            assert (await call("cart_get", {"cartId": "m"}))["lines"] == []
            cart = await call("cart_add", {"cartId": "m", "sku": "SKU-0002", "quantity": 2})
            assert cart["lines"] == [{"sku": "SKU-0002", "quantity": 2, "unitPriceCents": cart["lines"][0]["unitPriceCents"]}]
            await call("cart_add", {"cartId": "m", "sku": "SKU-0003", "quantity": 1})
            assert len((await call("cart_remove", {"cartId": "m", "sku": "SKU-0003"}))["lines"]) == 1
            order = await call("orders_place", {"cartId": "m", "idempotencyKey": "k-1"})
            again = await call("orders_place", {"cartId": "m", "idempotencyKey": "k-1"})
            assert again["orderId"] == order["orderId"]
            assert (await call("orders_get", {"orderId": order["orderId"]}))["totalCents"] == order["totalCents"]
            assert [o["orderId"] for o in (await call("orders_list", {"cartId": "m"}))["items"]] == [order["orderId"]]
            cancelled = await call("orders_cancel", {"orderId": order["orderId"], "reason": "agent test"})
            assert (cancelled["status"], cancelled["cancelReason"]) == ("cancelled", "agent test")
            assert await call("orders_cancel", {"orderId": order["orderId"]}) == cancelled
            await call("cart_add", {"cartId": "m2", "sku": "SKU-0004", "quantity": 1})
            assert (await call("cart_clear", {"cartId": "m2"}))["lines"] == []

    run(test)


def test_toolErrors_areResultsWithIsError_andOnlyUnknownToolsAreProtocolErrors():
    async def test():
        async with session_with() as session:
            missing = await session.call_tool("catalog_get", {"sku": "SKU-9999"})
            assert missing.is_error
            assert missing.structured_content["error"]["code"] == 1001
            assert missing.structured_content["error"]["data"]["type"] == "NotFound"
            invalid = await session.call_tool("cart_add", {"cartId": "c", "sku": "SKU-0001", "quantity": "two"})
            assert invalid.is_error
            assert invalid.structured_content["error"]["code"] == -32602
            assert invalid.structured_content["error"]["data"]["field"] == "quantity"
            with pytest.raises(MCPError) as raised:
                await session.call_tool("no_such_tool", {})
            assert raised.value.error.code == -32602

    run(test)


def test_inventoryPastItsDeadline_isAnErrorResultWithTheExactMessage():
    async def test():
        async with session_with("--simulate-latency", "inventory.check=60000", "--deadline", "inventory.check=300") as session:
            result = await session.call_tool("inventory_check", {"skus": ["SKU-0001"]})
        assert result.is_error
        assert result.content[0].text == INVENTORY_MESSAGE
        error = result.structured_content["error"]
        assert error["code"] == -32001 and error["data"]["type"] == "DeadlineExceeded"
        assert error["data"]["method"] == "inventory.check"

    run(test)


def test_inventoryDefaultDeadline_isFiveSeconds():
    async def test():
        async with session_with("--simulate-latency", "inventory.check=60000") as session:
            started = anyio.current_time()
            result = await session.call_tool("inventory_check", {"skus": ["SKU-0001"]})
            elapsed = anyio.current_time() - started
        assert result.is_error and result.content[0].text == INVENTORY_MESSAGE
        assert result.structured_content["error"]["data"]["deadlineMs"] == 5000
        assert elapsed >= 5.0

    run(test)


# MARK: - Cancellation, progress, end of session


def test_clientTimeout_sendsNotificationsCancelled_andTheServerNeverRepliesToThatId():
    async def test():
        with tempfile.TemporaryDirectory() as directory:
            trace = Path(directory) / "trace.jsonl"
            async with session_with("--simulate-latency", "catalog.search=60000", "--trace", str(trace)) as session:
                with pytest.raises(MCPError):
                    await session.call_tool("catalog_search", {"query": "tea"}, read_timeout_seconds=0.5)
                # The session goes on: a later call is answered.
                assert not (await session.call_tool("catalog_get", {"sku": "SKU-0001"})).is_error
            records = [json.loads(line) for line in trace.read_text().splitlines()]
        incoming = [r["msg"] for r in records if r["dir"] == "in"]
        outgoing = [r["msg"] for r in records if r["dir"] == "out"]
        search = next(m for m in incoming if m.get("method") == "tools/call" and m["params"]["name"] == "catalog_search")
        cancels = [m for m in incoming if m.get("method") == "notifications/cancelled"]
        assert any(c["params"]["requestId"] == search["id"] for c in cancels), incoming
        assert not any(isinstance(m, dict) and m.get("id") == search["id"] for m in outgoing), outgoing

    run(test)


def test_progress_reachesTheCallback_withStrictlyIncreasingValues():
    async def test():
        seen = []

        async def on_progress(progress, total, message):
            seen.append(progress)

        async with session_with("--simulate-latency", "catalog.get=700", "--progress-interval-ms", "100") as session:
            result = await session.call_tool("catalog_get", {"sku": "SKU-0001"}, progress_callback=on_progress)
        assert not result.is_error
        assert len(seen) >= 2, seen
        assert all(b > a for a, b in zip(seen, seen[1:])), seen

    run(test)


def test_sessionClosedWithACallInFlight_serverExitsByItself():
    """The host closes stdin with a call running; the server must cancel it and exit on its own
    (exit status 0), before the client's own SIGTERM after about 2 s."""
    async def test():
        with tempfile.TemporaryDirectory() as directory:
            status = Path(directory) / "status"
            wrapper = Path(directory) / "server.sh"
            wrapper.write_text(f'#!/bin/sh\n"{BINARY}" --db :memory: --simulate-latency catalog.search=60000\necho $? > "{status}"\n')
            wrapper.chmod(0o755)
            async with session_with(command=str(wrapper)) as session:
                async with anyio.create_task_group() as group:
                    async def slow():
                        try:
                            await session.call_tool("catalog_search", {"query": "tea"})
                        except Exception:
                            pass
                    group.start_soon(slow)
                    await anyio.sleep(0.3)
                    group.cancel_scope.cancel()
            with anyio.fail_after(10):
                while not status.exists():
                    await anyio.sleep(0.05)
            assert status.read_text().strip() == "0"

    run(test)
