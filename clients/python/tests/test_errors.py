"""The mapping of error replies to exception classes (protocol.md section 3) for the errors no
vector reaches with its data members."""

from shoprpc import CartFullError, MethodNotAllowedError, MethodNotFoundError, ShopError, error_from_wire


def test_methodNotAllowed_isAMethodNotFound_carryingItsScope():
    error = error_from_wire({"code": -32601, "message": "m",
                             "data": {"type": "MethodNotAllowed", "method": "cart.add", "scope": "write"}})
    assert isinstance(error, MethodNotAllowedError) and isinstance(error, MethodNotFoundError)
    assert error.scope == "write"
    assert error.type == "MethodNotAllowed"


def test_methodNotFound_withoutAScope_staysAMethodNotFound():
    error = error_from_wire({"code": -32601, "message": "m", "data": {"type": "MethodNotFound", "method": "x"}})
    assert type(error) is MethodNotFoundError


def test_cartFull_carriesTheLimit_orTheTotalOutOfRange():
    full = error_from_wire({"code": 1013, "message": "m", "data": {"type": "CartFull", "cartId": "c", "lines": 100, "max": 100}})
    assert isinstance(full, CartFullError) and isinstance(full, ShopError)
    assert (full.cart_id, full.lines, full.max, full.total_out_of_range) == ("c", 100, 100, False)
    total = error_from_wire({"code": 1013, "message": "m", "data": {"cartId": "old", "max": 100, "totalOutOfRange": True}})
    assert isinstance(total, CartFullError), "by code when data.type is missing"
    assert total.total_out_of_range
