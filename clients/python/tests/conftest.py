"""Fixtures: the real shop-rpc binary (tests FAIL, never skip, when it is missing) and a scripted fake peer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Iterator, List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shoprpc import ServerNotFoundError, ShopClient, find_server_binary  # noqa: E402
from support import MEMORY_DB, FakePeer  # noqa: E402


@pytest.fixture(scope="session")
def server_binary() -> str:
    """The shop-rpc binary under test: $SHOP_RPC_BIN, else `shop-rpc` on PATH, else <repo>/.build/release."""
    try:
        return find_server_binary()
    except ServerNotFoundError as error:
        pytest.fail(f"cannot run the shop-rpc tests: {error}", pytrace=False)


@pytest.fixture
def spawn(server_binary: str) -> Iterator[Callable[..., ShopClient]]:
    """``spawn(*extra_args, **options)``: a ShopClient on a fresh ``--db :memory:`` server, closed afterwards."""
    clients: List[ShopClient] = []

    def make(*extra_args: str, **options: Any) -> ShopClient:
        client = ShopClient([*MEMORY_DB, *extra_args], binary=server_binary, **options)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def peer() -> Iterator[FakePeer]:
    fake = FakePeer()
    yield fake
    fake.close()
