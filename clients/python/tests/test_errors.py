"""The mapping of error replies to exception classes (protocol.md section 3) for the errors no
vector reaches with its data members."""

from shoprpc import MethodNotAllowedError, MethodNotFoundError, error_from_wire


def test_methodNotAllowed_isAMethodNotFound_carryingItsScope():
    error = error_from_wire({"code": -32601, "message": "m",
                             "data": {"type": "MethodNotAllowed", "method": "cart.add", "scope": "write"}})
    assert isinstance(error, MethodNotAllowedError) and isinstance(error, MethodNotFoundError)
    assert error.scope == "write"
    assert error.type == "MethodNotAllowed"


def test_methodNotFound_withoutAScope_staysAMethodNotFound():
    error = error_from_wire({"code": -32601, "message": "m", "data": {"type": "MethodNotFound", "method": "x"}})
    assert type(error) is MethodNotFoundError
