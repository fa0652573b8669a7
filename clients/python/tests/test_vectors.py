"""Runs every vector of clients/test-vectors.json, as its "about" says, through both clients.

Vectors run in file order on one `--db :memory:` server per client kind; a vector with serverArgs runs
on a server of its own started with those extra arguments.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Dict, Iterator, Tuple

import pytest

from support import MEMORY_DB
from shoprpc import (AsyncShopClient, CartEmptyError, DeadlineExceededError, IdempotencyConflictError,
                     InvalidParamsError, InvalidQuantityError, MethodNotAllowedError, MethodNotFoundError, NotFoundError,
                     OutOfStockError, RequestCancelledError, RPCError, ShopClient, StockMismatchError, StockOutOfRangeError, CartFullError)

VECTORS_FILE = Path(__file__).resolve().parents[2] / "test-vectors.json"
VECTORS = json.loads(VECTORS_FILE.read_text())["vectors"]

#: The exception class each data.type must map to (the shim's side of the shared contract).
ERROR_CLASSES = {
    "MethodNotFound": MethodNotFoundError,
    "MethodNotAllowed": MethodNotAllowedError,
    "InvalidParams": InvalidParamsError,
    "NotFound": NotFoundError,
    "OutOfStock": OutOfStockError,
    "InvalidQuantity": InvalidQuantityError,
    "CartEmpty": CartEmptyError,
    "IdempotencyConflict": IdempotencyConflictError,
    "DeadlineExceeded": DeadlineExceededError,
    "Cancelled": RequestCancelledError,
    "StockOutOfRange": StockOutOfRangeError,
    "StockMismatch": StockMismatchError,
    "CartFull": CartFullError,
}

Outcome = Tuple[str, Any]  # ("result", value) or ("error", exception)


def check(vector: Dict[str, Any], outcome: Outcome) -> None:
    expect = vector["expect"]
    kind, value = outcome
    if "error" in expect:
        wanted = expect["error"]
        assert kind == "error", f"expected error {wanted}, got result {value!r}"
        assert isinstance(value, RPCError), f"expected an RPCError, got {value!r}"
        assert value.code == wanted["code"], repr(value)
        assert value.type == wanted["type"], repr(value)
        assert isinstance(value, ERROR_CLASSES[wanted["type"]]), repr(value)
        if "message" in wanted:
            assert value.message == wanted["message"]
        return
    assert kind == "result", f"expected a result, got {value!r}"
    if "result" in expect:
        assert value == expect["result"]
    elif "resultKeys" in expect:
        assert isinstance(value, dict), repr(value)
        missing = set(expect["resultKeys"]) - set(value)
        assert not missing, f"result lacks {sorted(missing)}: {value!r}"
    else:
        pytest.fail(f"unknown expectation form in vector {vector['name']!r}: {expect!r}")


def vector_ids() -> list:
    return [f"{index:02d}-{vector['name']}" for index, vector in enumerate(VECTORS)]


def test_vectors_file_is_not_empty_and_every_error_type_is_mapped() -> None:
    assert VECTORS, f"no vectors in {VECTORS_FILE}"
    for vector in VECTORS:
        if "error" in vector["expect"]:
            assert vector["expect"]["error"]["type"] in ERROR_CLASSES, vector["name"]


# MARK: - Sync client


@pytest.fixture(scope="module")
def shared_sync_client(server_binary: str) -> Iterator[ShopClient]:
    with ShopClient(MEMORY_DB, binary=server_binary) as client:
        yield client


def outcome_sync(client: ShopClient, vector: Dict[str, Any]) -> Outcome:
    try:
        return "result", client.call(vector["method"], vector.get("params"))
    except RPCError as error:
        return "error", error


@pytest.mark.parametrize("vector", VECTORS, ids=vector_ids())
def test_vector_sync(vector: Dict[str, Any], shared_sync_client: ShopClient, server_binary: str) -> None:
    if "serverArgs" in vector:
        with ShopClient([*MEMORY_DB, *vector["serverArgs"]], binary=server_binary) as own:
            check(vector, outcome_sync(own, vector))
            assert own.close() == 0
    else:
        check(vector, outcome_sync(shared_sync_client, vector))


# MARK: - Async client


@pytest.fixture(scope="module")
def shared_async_client(server_binary: str) -> Iterator[Tuple[asyncio.AbstractEventLoop, AsyncShopClient]]:
    loop = asyncio.new_event_loop()
    client = AsyncShopClient(MEMORY_DB, binary=server_binary)
    loop.run_until_complete(client.start())
    yield loop, client
    loop.run_until_complete(client.close())
    loop.close()


async def outcome_async(client: AsyncShopClient, vector: Dict[str, Any]) -> Outcome:
    try:
        return "result", await asyncio.wait_for(client.call(vector["method"], vector.get("params")), 30)
    except RPCError as error:
        return "error", error


async def run_on_own_server(server_binary: str, vector: Dict[str, Any]) -> Outcome:
    async with AsyncShopClient([*MEMORY_DB, *vector["serverArgs"]], binary=server_binary) as own:
        outcome = await outcome_async(own, vector)
        assert await own.close() == 0
        return outcome


@pytest.mark.parametrize("vector", VECTORS, ids=vector_ids())
def test_vector_async(vector: Dict[str, Any], shared_async_client: Tuple[asyncio.AbstractEventLoop, AsyncShopClient],
                      server_binary: str) -> None:
    loop, client = shared_async_client
    if "serverArgs" in vector:
        check(vector, loop.run_until_complete(run_on_own_server(server_binary, vector)))
    else:
        check(vector, loop.run_until_complete(outcome_async(client, vector)))
