"""Typed errors for shop-rpc replies, chosen by ``error.data.type`` (falling back to ``error.code``).

Codes and ``data.type`` names are those of protocol.md section 3. The hierarchy is open: a ``data.type``
this module does not know still produces an :class:`RPCError` (or :class:`ShopError` for codes
>= 1000) carrying the code, message and data, so a newer server never breaks an older client.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type

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
    "NotFoundError",
    "OutOfStockError",
    "InvalidQuantityError",
    "CartEmptyError",
    "IdempotencyConflictError",
    "InvalidCursorError",
    "StoreInterruptedError",
    "StorageError",
    "InventoryUnavailableError",
    "StoreBusyError",
    "StockOutOfRangeError",
    "StockMismatchError",
    "CartFullError",
    "ConnectionLostError",
    "ClientClosedError",
    "error_from_wire",
]


class ErrorCode:
    """The error codes of protocol.md section 3, as plain ints (an open set: new codes are not breaking)."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    DEADLINE_EXCEEDED = -32001
    SHUTTING_DOWN = -32002
    CANCELLED = -32800
    NOT_FOUND = 1001
    OUT_OF_STOCK = 1002
    INVALID_QUANTITY = 1003
    CART_EMPTY = 1004
    IDEMPOTENCY_CONFLICT = 1005
    INVALID_CURSOR = 1006
    INTERRUPTED = 1007
    STORAGE_ERROR = 1008
    INVENTORY_UNAVAILABLE = 1009
    STORE_BUSY = 1010
    STOCK_OUT_OF_RANGE = 1011
    STOCK_MISMATCH = 1012
    CART_FULL = 1013

    #: Codes at or above this are shop (domain) errors.
    FIRST_SHOP_CODE = 1000


# MARK: - Server errors


class RPCError(Exception):
    """An error reply from the server.

    ``str(error)`` is the server's message, meant for people; programs should look at the class,
    ``code`` or ``type``. ``data`` is the reply's ``error.data`` object (``{}`` when absent).
    ``request_id`` and ``request_method`` name the call this error answers (``None`` when the server
    could not attribute it, e.g. a parse error).
    """

    def __init__(
        self,
        code: int,
        message: str,
        data: Optional[Mapping[str, Any]] = None,
        *,
        request_id: Any = None,
        request_method: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data: Dict[str, Any] = dict(data) if isinstance(data, Mapping) else {}
        self.request_id = request_id
        self.request_method = request_method

    @property
    def type(self) -> Optional[str]:
        """``data.type``: the error's name for programs (e.g. ``"OutOfStock"``)."""
        value = self.data.get("type")
        return value if isinstance(value, str) else None

    @property
    def detail(self) -> Optional[str]:
        """``data.detail`` when the server gave one."""
        return self.data.get("detail")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, data={self.data!r})"


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


# MARK: - Shop errors (codes >= 1000)


class ShopError(RPCError):
    """Base of the shop's domain errors (codes >= 1000)."""


class NotFoundError(ShopError):
    """1001 ``NotFound``: no such product, cart or order (``.entity``, ``.id``)."""

    @property
    def entity(self) -> Optional[str]:
        return self.data.get("entity")

    @property
    def id(self) -> Optional[str]:
        return self.data.get("id")


class OutOfStockError(ShopError):
    """1002 ``OutOfStock``: not enough stock for an order line (``.sku``, ``.requested``, ``.available``)."""

    @property
    def sku(self) -> Optional[str]:
        return self.data.get("sku")

    @property
    def requested(self) -> Optional[int]:
        return self.data.get("requested")

    @property
    def available(self) -> Optional[int]:
        return self.data.get("available")


class InvalidQuantityError(ShopError):
    """1003 ``InvalidQuantity``: a cart line would exceed the maximum (``.sku``, ``.quantity``, ``.max``)."""

    @property
    def sku(self) -> Optional[str]:
        return self.data.get("sku")

    @property
    def quantity(self) -> Optional[int]:
        return self.data.get("quantity")

    @property
    def max(self) -> Optional[int]:
        return self.data.get("max")


class CartEmptyError(ShopError):
    """1004 ``CartEmpty``: an order was placed for an empty cart (``.cart_id``)."""

    @property
    def cart_id(self) -> Optional[str]:
        return self.data.get("cartId")


class IdempotencyConflictError(ShopError):
    """1005 ``IdempotencyConflict``: an idempotency key was reused for another cart."""

    @property
    def idempotency_key(self) -> Optional[str]:
        return self.data.get("idempotencyKey")

    @property
    def cart_id(self) -> Optional[str]:
        return self.data.get("cartId")


class InvalidCursorError(ShopError):
    """1006 ``InvalidCursor``: a pagination cursor the server did not issue."""


class StoreInterruptedError(ShopError):
    """1007 ``Interrupted``: the store stopped the work (normally superseded by a deadline or cancel)."""


class StorageError(ShopError):
    """1008 ``StorageError``: the database failed.

    The message and ``detail`` are the same whatever failed (the server's log at ``--log-level debug``
    has the reason), except while the server waits to reconnect to its database: then ``detail`` says
    when the next attempt is, and ``data["retryAfterMs"]`` in how many milliseconds.
    """


class InventoryUnavailableError(ShopError):
    """1009 ``InventoryUnavailable``: the live inventory service gave no usable answer.

    Only ``inventory.check`` on a server started with ``--inventory-url`` raises it. ``detail`` says
    what went wrong; ``status`` is the service's HTTP status when it answered at all (else ``None``).
    Worth retrying later, as the message says; a slow service is a :class:`DeadlineExceededError` instead.
    """

    @property
    def detail(self) -> Optional[str]:
        return self.data.get("detail")

    @property
    def status(self) -> Optional[int]:
        return self.data.get("status")


class StoreBusyError(ShopError):
    """1010 ``StoreBusy``: another writer (a ``shop-rpc import``, say) held the store longer than the
    write would wait. Nothing was changed: the same call may be made again shortly (for
    ``orders.place``, with the same ``idempotencyKey``). ``detail`` says what was waited for."""

    @property
    def detail(self) -> Optional[str]:
        return self.data.get("detail")


class StockOutOfRangeError(ShopError):
    """1011 ``StockOutOfRange``: a stock change would leave the level below 0 or above ``.max``;
    nothing was changed (``.sku``, ``.available`` = the level found, ``.delta``)."""

    @property
    def sku(self) -> Optional[str]:
        return self.data.get("sku")

    @property
    def available(self) -> Optional[int]:
        return self.data.get("available")

    @property
    def delta(self) -> Optional[int]:
        return self.data.get("delta")

    @property
    def max(self) -> Optional[int]:
        return self.data.get("max")


class StockMismatchError(ShopError):
    """1012 ``StockMismatch``: ``admin.stock.set``'s compare-and-set found ``.available``, not
    ``.expected``; nothing was changed. Read again, decide, retry with the level found."""

    @property
    def sku(self) -> Optional[str]:
        return self.data.get("sku")

    @property
    def expected(self) -> Optional[int]:
        return self.data.get("expected")

    @property
    def available(self) -> Optional[int]:
        return self.data.get("available")


class CartFullError(ShopError):
    """1013 ``CartFull``: ``cart.add`` would start a new line in a cart that already holds ``.max``
    lines (``.lines``), or the cart's total is more than 64 bits of cents hold (``.total_out_of_range``,
    only a cart written before the limit existed; ``cart.clear`` empties it). Nothing was changed."""

    @property
    def cart_id(self) -> Optional[str]:
        return self.data.get("cartId")

    @property
    def lines(self) -> Optional[int]:
        return self.data.get("lines")

    @property
    def max(self) -> Optional[int]:
        return self.data.get("max")

    @property
    def total_out_of_range(self) -> bool:
        return self.data.get("totalOutOfRange") is True


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
    "NotFound": NotFoundError,
    "OutOfStock": OutOfStockError,
    "InvalidQuantity": InvalidQuantityError,
    "CartEmpty": CartEmptyError,
    "IdempotencyConflict": IdempotencyConflictError,
    "InvalidCursor": InvalidCursorError,
    "Interrupted": StoreInterruptedError,
    "StorageError": StorageError,
    "InventoryUnavailable": InventoryUnavailableError,
    "StoreBusy": StoreBusyError,
    "StockOutOfRange": StockOutOfRangeError,
    "StockMismatch": StockMismatchError,
    "CartFull": CartFullError,
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
    ErrorCode.NOT_FOUND: NotFoundError,
    ErrorCode.OUT_OF_STOCK: OutOfStockError,
    ErrorCode.INVALID_QUANTITY: InvalidQuantityError,
    ErrorCode.CART_EMPTY: CartEmptyError,
    ErrorCode.IDEMPOTENCY_CONFLICT: IdempotencyConflictError,
    ErrorCode.INVALID_CURSOR: InvalidCursorError,
    ErrorCode.INTERRUPTED: StoreInterruptedError,
    ErrorCode.STORAGE_ERROR: StorageError,
    ErrorCode.INVENTORY_UNAVAILABLE: InventoryUnavailableError,
    ErrorCode.STORE_BUSY: StoreBusyError,
    ErrorCode.STOCK_OUT_OF_RANGE: StockOutOfRangeError,
    ErrorCode.STOCK_MISMATCH: StockMismatchError,
    ErrorCode.CART_FULL: CartFullError,
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
