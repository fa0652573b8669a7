"""Typed errors for shop-rpc replies, chosen by ``error.data.type`` (falling back to ``error.code``).

Codes and ``data.type`` names are those of protocol.md section 3. The hierarchy is open: a ``data.type``
this module does not know still produces an :class:`RPCError` (or :class:`ShopError` for codes
>= 1000) carrying the code, message and data, so a newer server never breaks an older client.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type

from . import errors_generated
from .errors_generated import *  # noqa: F401,F403 - the shop's error classes (codes >= 1000)
from .errors_generated import SHOP_ERRORS_BY_CODE, SHOP_ERRORS_BY_TYPE, ShopErrorCode
from .rpc_error import RPCError, ShopError

__all__ = [
    "ErrorCode",
    "RPCError",
    "ParseError",
    "FramingError",
    "InvalidRequestError",
    "MessageTooLargeError",
    "DuplicateIdError",
    "MethodNotFoundError",
    "MethodNotAllowedError",
    "InvalidParamsError",
    "InternalError",
    "DeadlineExceededError",
    "ClientDeadlineExceededError",
    "ShuttingDownError",
    "RequestCancelledError",
    "ShopError",
    *errors_generated.__all__,
    "ConnectionLostError",
    "ClientClosedError",
    "error_from_wire",
]


class ErrorCode(ShopErrorCode):
    """The error codes of protocol.md section 3, as plain ints (an open set: new codes are not breaking):
    the engine's below, the shop's (``NOT_FOUND`` = 1001, …) from :class:`ShopErrorCode` (generated)."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    DEADLINE_EXCEEDED = -32001
    SHUTTING_DOWN = -32002
    CANCELLED = -32800

    #: Codes at or above this are shop (domain) errors.
    FIRST_SHOP_CODE = 1000


# MARK: - Server errors


class ParseError(RPCError):
    """-32700 ``ParseError``: a message was not valid JSON. ``.offset`` is the byte offset, if given."""

    @property
    def offset(self) -> Optional[int]:
        return self.data.get("offset")


class FramingError(ParseError):
    """-32700 ``FramingError``: an LSP header block was malformed."""


class InvalidRequestError(RPCError):
    """-32600 ``InvalidRequest``: valid JSON but not a valid request."""


class MessageTooLargeError(InvalidRequestError):
    """-32600 ``MessageTooLarge``: a message exceeded the server's ``--max-message-bytes`` (``.limit``)."""

    @property
    def limit(self) -> Optional[int]:
        return self.data.get("limit")


class DuplicateIdError(InvalidRequestError):
    """-32600 ``DuplicateId``: the request's id was already in flight (the earlier call is unaffected)."""


class MethodNotFoundError(RPCError):
    """-32601 ``MethodNotFound``: no such method (``data.method`` names it)."""


class MethodNotAllowedError(MethodNotFoundError):
    """-32601 ``MethodNotAllowed``: the server was started without the method's scope (``--read-only``,
    ``--allow``), so it did nothing. ``.scope`` names the scope the method needs (``"write"``)."""

    @property
    def scope(self) -> Optional[str]:
        return self.data.get("scope")


class InvalidParamsError(RPCError):
    """-32602 ``InvalidParams``: params missing, mistyped or out of range. ``.field`` names the culprit."""

    @property
    def field(self) -> Optional[str]:
        return self.data.get("field")

    @property
    def errors(self) -> list:
        """``admin.products.upsert``: every error found, ``[{index, field, message}]`` (else ``[]``)."""
        errors = self.data.get("errors")
        return errors if isinstance(errors, list) else []


class InternalError(RPCError):
    """-32603 ``InternalError``: a handler failed unexpectedly."""


class DeadlineExceededError(RPCError):
    """-32001 ``DeadlineExceeded``: the call passed its deadline and the server cancelled its work.

    ``.message`` is the server's user-facing message (for ``inventory.check``: "Inventory information is
    temporarily unavailable, please try again later"). ``.shed`` is true when the server answered at
    once because the inventory service could not have answered before the deadline.
    """

    @property
    def method(self) -> Optional[str]:
        return self.data.get("method", self.request_method)

    @property
    def shed(self) -> bool:
        return self.data.get("shed") is True

    @property
    def deadline_ms(self) -> Optional[int]:
        return self.data.get("deadlineMs")

    @property
    def elapsed_ms(self) -> Optional[int]:
        return self.data.get("elapsedMs")


class ClientDeadlineExceededError(DeadlineExceededError):
    """Raised by the client itself when the server's reply did not arrive by ``timeout`` plus a margin.

    The client has already sent ``$/cancelRequest`` for the call. Catch :class:`DeadlineExceededError`
    to handle both this and the server's own deadline reply.
    """


class ShuttingDownError(RPCError):
    """-32002 ``ShuttingDown``: the server was stopped and the call did not finish in its grace period."""

    @property
    def method(self) -> Optional[str]:
        return self.data.get("method", self.request_method)


class RequestCancelledError(RPCError):
    """-32800 ``Cancelled``: the call was cancelled (by ``$/cancelRequest``) and its work stopped.

    Named so as not to clash with :class:`asyncio.CancelledError`.
    """

    @property
    def method(self) -> Optional[str]:
        return self.data.get("method", self.request_method)


# MARK: - Client-side errors


class ConnectionLostError(ConnectionError):
    """The server went away (exited, crashed or closed its output) before replying.

    Not a server reply: every call pending at that moment fails with its own instance at once, and
    later calls fail immediately. ``returncode`` is the server's exit status when known.
    """

    def __init__(self, message: str, *, returncode: Optional[int] = None) -> None:
        super().__init__(message)
        self.returncode = returncode


class ClientClosedError(ConnectionLostError):
    """A call was made after :meth:`close`."""


# MARK: - Decoding


_BY_TYPE: Dict[str, Type[RPCError]] = {
    "ParseError": ParseError,
    "FramingError": FramingError,
    "InvalidRequest": InvalidRequestError,
    "MessageTooLarge": MessageTooLargeError,
    "DuplicateId": DuplicateIdError,
    "MethodNotFound": MethodNotFoundError,
    "MethodNotAllowed": MethodNotAllowedError,
    "InvalidParams": InvalidParamsError,
    "InternalError": InternalError,
    "DeadlineExceeded": DeadlineExceededError,
    "ShuttingDown": ShuttingDownError,
    "Cancelled": RequestCancelledError,
    **SHOP_ERRORS_BY_TYPE,
}

_BY_CODE: Dict[int, Type[RPCError]] = {
    ErrorCode.PARSE_ERROR: ParseError,
    ErrorCode.INVALID_REQUEST: InvalidRequestError,
    ErrorCode.METHOD_NOT_FOUND: MethodNotFoundError,
    ErrorCode.INVALID_PARAMS: InvalidParamsError,
    ErrorCode.INTERNAL_ERROR: InternalError,
    ErrorCode.DEADLINE_EXCEEDED: DeadlineExceededError,
    ErrorCode.SHUTTING_DOWN: ShuttingDownError,
    ErrorCode.CANCELLED: RequestCancelledError,
    **SHOP_ERRORS_BY_CODE,
}


def error_class_for(code: int, data_type: Optional[str]) -> Type[RPCError]:
    """The exception class for an error: by ``data.type`` first, then by code, then by code range."""
    if data_type is not None and data_type in _BY_TYPE:
        return _BY_TYPE[data_type]
    if code in _BY_CODE:
        return _BY_CODE[code]
    if code >= ErrorCode.FIRST_SHOP_CODE:
        return ShopError
    return RPCError


def error_from_wire(error: Any, *, request_id: Any = None, request_method: Optional[str] = None) -> RPCError:
    """Builds the typed exception for a reply's ``error`` member (tolerating a malformed one)."""
    if not isinstance(error, Mapping):
        return RPCError(ErrorCode.INTERNAL_ERROR, f"malformed error reply: {error!r}",
                        request_id=request_id, request_method=request_method)
    code = error.get("code")
    if isinstance(code, bool) or not isinstance(code, int):
        code = ErrorCode.INTERNAL_ERROR
    message = error.get("message")
    if not isinstance(message, str):
        message = str(message)
    data = error.get("data")
    data_type = data.get("type") if isinstance(data, Mapping) else None
    cls = error_class_for(code, data_type if isinstance(data_type, str) else None)
    return cls(code, message, data, request_id=request_id, request_method=request_method)
