"""NDJSON framing and message building, without a server."""

from __future__ import annotations

import json

import pytest

from shoprpc.errors import (ConnectionLostError, DeadlineExceededError, InvalidParamsError, InventoryUnavailableError, StoreBusyError,
                            OutOfStockError, RPCError, ShopError, error_from_wire)
from shoprpc.framing import NdjsonDecoder, encode_message
from shoprpc.messages import deadline_ms_for, with_meta


def test_decoder_fedByteByByte_yieldsEachLineOnce() -> None:
    stream = b'{"a":1}\r\n\n  \n{"b":"x\\ny"}\n{"c":3}'
    decoder = NdjsonDecoder()
    lines = [line for byte in stream for line in decoder.decode(bytes([byte]))]
    assert lines == [b'{"a":1}', b'{"b":"x\\ny"}']
    assert decoder.finish() == [b'{"c":3}'], "the last line may omit its newline"


def test_decoder_longLineInChunks_isOneLine() -> None:
    line = b'"' + b"z" * 5_000_000 + b'"'
    decoder = NdjsonDecoder()
    out = []
    data = line + b"\n"
    for start in range(0, len(data), 65536):
        out += decoder.decode(data[start:start + 65536])
    assert out == [line]


def test_encode_neverWritesARawNewlineInsideAMessage() -> None:
    data = encode_message({"text": "a\nb\r\u2028"})
    assert data.count(b"\n") == 1 and data.endswith(b"\n")
    assert json.loads(data) == {"text": "a\nb\r\u2028"}


def test_withMeta_mergesIntoACopy() -> None:
    params = {"sku": "S", "_meta": {"other": 1}}
    assert with_meta(params, {"deadlineMs": 5}) == {"sku": "S", "_meta": {"other": 1, "deadlineMs": 5}}
    assert params == {"sku": "S", "_meta": {"other": 1}}
    assert with_meta(None, {"progressToken": "t"}) == {"_meta": {"progressToken": "t"}}
    with pytest.raises(TypeError):
        with_meta([1, 2], {"deadlineMs": 5})


def test_deadlineMs_roundsUpToAPositiveInteger() -> None:
    assert deadline_ms_for(0.2) == 200
    assert deadline_ms_for(0.0001) == 1
    with pytest.raises(ValueError):
        deadline_ms_for(0)


def test_errorFromWire_choosesByDataTypeThenCode() -> None:
    by_type = error_from_wire({"code": 1002, "message": "m", "data": {"type": "OutOfStock", "sku": "S",
                                                                        "requested": 3, "available": 1}})
    assert isinstance(by_type, OutOfStockError) and (by_type.sku, by_type.requested, by_type.available) == ("S", 3, 1)
    by_code = error_from_wire({"code": -32602, "message": "m", "data": {"field": "limit"}})
    assert isinstance(by_code, InvalidParamsError) and by_code.field == "limit"
    assert type(error_from_wire({"code": 1999, "message": "m"})) is ShopError
    assert type(error_from_wire({"code": -31000, "message": "m"})) is RPCError
    deadline = error_from_wire({"code": -32001, "message": "late", "data": {"type": "DeadlineExceeded",
                                "method": "x", "deadlineMs": 5, "elapsedMs": 6}})
    assert isinstance(deadline, DeadlineExceededError)
    assert (str(deadline), deadline.method, deadline.deadline_ms, deadline.elapsed_ms) == ("late", "x", 5, 6)
    assert deadline.shed is False
    shed = error_from_wire({"code": -32001, "message": "late", "data": {"type": "DeadlineExceeded",
                            "method": "inventory.check", "shed": True, "detail": "too busy"}})
    assert isinstance(shed, DeadlineExceededError) and shed.shed is True and shed.deadline_ms is None
    assert not issubclass(ConnectionLostError, RPCError)
    unavailable = error_from_wire({"code": 1009, "message": "m", "data": {"type": "InventoryUnavailable",
                                   "detail": "HTTP 503", "status": 503}})
    assert isinstance(unavailable, InventoryUnavailableError) and isinstance(unavailable, ShopError)
    assert (unavailable.detail, unavailable.status) == ("HTTP 503", 503)
    assert type(error_from_wire({"code": 1009, "message": "m"})) is InventoryUnavailableError
    busy = error_from_wire({"code": 1010, "message": "m", "data": {"type": "StoreBusy", "detail": "an import"}})
    assert isinstance(busy, StoreBusyError) and isinstance(busy, ShopError) and busy.detail == "an import"
    assert type(error_from_wire({"code": 1010, "message": "m"})) is StoreBusyError
