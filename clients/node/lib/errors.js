// Typed errors for shop-rpc replies (protocol.md, section 3) and for the transport.

/**
 * Error codes of shop-rpc. An open set: a code missing here still arrives as an `RPCError` (or a
 * `ShopError` when it is 1000 or above), so a server adding a code breaks no client.
 */
export const ErrorCode = Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  DeadlineExceeded: -32001,
  ShuttingDown: -32002,
  Cancelled: -32800,
  NotFound: 1001,
  OutOfStock: 1002,
  InvalidQuantity: 1003,
  CartEmpty: 1004,
  IdempotencyConflict: 1005,
  InvalidCursor: 1006,
  Interrupted: 1007,
  StorageError: 1008,
  InventoryUnavailable: 1009,
  StoreBusy: 1010,
  StockOutOfRange: 1011,
  StockMismatch: 1012,
  CartFull: 1013,
});

/** The lowest code of the shop's own errors. */
export const FIRST_SHOP_CODE = 1000;

// MARK: - Error replies

/**
 * An error reply from the server: `code`, `message`, `data` (whose `type` names the error), and
 * which call it answers (`requestId`, `method`).
 */
export class RPCError extends Error {
  /**
   * @param {number} code
   * @param {string} message
   * @param {Record<string, unknown>} [data]
   * @param {{ requestId?: unknown, method?: string, cause?: unknown }} [context]
   */
  constructor(code, message, data = {}, context = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = data ?? {};
    /** The `data.type` of the reply, e.g. `"InvalidParams"`. */
    this.type = typeof this.data.type === 'string' ? this.data.type : undefined;
    /** The id of the request this error answers (`null` when the server could not read it). */
    this.requestId = context.requestId ?? null;
    /** The method that was called, or `data.method`. */
    this.method = typeof this.data.method === 'string' ? this.data.method : context.method;
    /** True when the client raised this error itself (no reply from the server, or an abort). */
    this.local = this.data.local === true;
  }
}

export class ParseError extends RPCError {}
export class InvalidRequestError extends RPCError {}
export class MethodNotFoundError extends RPCError {}

/**
 * The server was started without the method's scope (`--read-only`, `--allow`), so it did nothing.
 * A `MethodNotFoundError` (same code, -32601) whose `scope` names the scope the method needs.
 */
export class MethodNotAllowedError extends MethodNotFoundError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    /** The scope the method needs, e.g. `"write"`. */
    this.scope = this.data.scope;
  }
}
export class InternalError extends RPCError {}
export class ShuttingDownError extends RPCError {}

export class InvalidParamsError extends RPCError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    /** The params member at fault, when there is one. */
    this.field = this.data.field;
    /** `admin.products.upsert`: every error found, `[{ index, field, message }]` (else `[]`). */
    this.errors = Array.isArray(this.data.errors) ? this.data.errors : [];
  }
}

/** The call passed its deadline and its work was cancelled. `message` is meant for people. */
export class DeadlineExceededError extends RPCError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    this.deadlineMs = this.data.deadlineMs;
    this.elapsedMs = this.data.elapsedMs;
    /** True when the server answered at once because the inventory service could not have answered in time. */
    this.shed = this.data.shed === true;
  }
}

/** The call was cancelled: by the server's -32800 reply, or locally (`local === true`). */
export class RequestCancelledError extends RPCError {}

/** Base class of the shop's own errors (codes 1000 and above). */
export class ShopError extends RPCError {}

export class NotFoundError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    /** `"product"`, `"cart"` or `"order"`, as the server names it. */
    this.entity = this.data.entity;
    this.id = this.data.id;
  }
}

export class OutOfStockError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    this.sku = this.data.sku;
    this.requested = this.data.requested;
    this.available = this.data.available;
  }
}

export class InvalidQuantityError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    this.sku = this.data.sku;
    this.quantity = this.data.quantity;
    this.max = this.data.max;
  }
}

export class CartEmptyError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    this.cartId = this.data.cartId;
  }
}

export class IdempotencyConflictError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    this.idempotencyKey = this.data.idempotencyKey;
    this.cartId = this.data.cartId;
  }
}

/**
 * The live inventory service gave no usable answer (only `inventory.check` on a server started with
 * `--inventory-url`). Worth retrying later; a slow service is a `DeadlineExceededError` instead.
 */
export class InventoryUnavailableError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    /** What went wrong, for people. */
    this.detail = this.data.detail;
    /** The service's HTTP status when it answered at all, else `undefined`. */
    this.status = this.data.status;
  }
}

/**
 * Another writer (a `shop-rpc import`, say) held the store longer than the write would wait.
 * Nothing was changed: make the same call again shortly (for `orders.place`, with the same
 * `idempotencyKey`).
 */
export class StoreBusyError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    /** What the write waited for, for people. */
    this.detail = this.data.detail;
  }
}

/** A stock change would leave the level below 0 or above `max`; nothing was changed. */
export class StockOutOfRangeError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    this.sku = this.data.sku;
    /** The level found. */
    this.available = this.data.available;
    this.delta = this.data.delta;
    this.max = this.data.max;
  }
}

/** `admin.stock.set`'s compare-and-set found `available`, not `expected`; nothing was changed. */
export class StockMismatchError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    this.sku = this.data.sku;
    this.expected = this.data.expected;
    /** The level found. */
    this.available = this.data.available;
  }
}

/**
 * `cartAdd` would start a new line in a cart that already holds `max` lines (`lines`), or the
 * cart's total is more than 64 bits of cents hold (`totalOutOfRange`: only a cart written before
 * the limit existed; `cartClear` empties it). Nothing was changed.
 */
export class CartFullError extends ShopError {
  constructor(code, message, data, context) {
    super(code, message, data, context);
    this.cartId = this.data.cartId;
    this.lines = this.data.lines;
    this.max = this.data.max;
    this.totalOutOfRange = this.data.totalOutOfRange === true;
  }
}

// MARK: - Transport

/**
 * The server went away (exited, crashed, or its output stream ended) or the client was closed.
 * Every call still pending is rejected with it at once.
 */
export class ConnectionLostError extends Error {
  /**
   * @param {string} message
   * @param {{ exitCode?: number|null, signal?: string|null, stderr?: string, cause?: unknown }} [details]
   */
  constructor(message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ConnectionLostError';
    this.exitCode = details.exitCode ?? null;
    this.signal = details.signal ?? null;
    /** The last lines the server wrote on stderr, when the client captured them. */
    this.stderr = details.stderr ?? '';
  }
}

// MARK: - Mapping

/** `data.type` → class. Types not listed fall back to the code. */
const CLASS_BY_TYPE = new Map([
  ['ParseError', ParseError],
  ['FramingError', ParseError],
  ['InvalidRequest', InvalidRequestError],
  ['MessageTooLarge', InvalidRequestError],
  ['DuplicateId', InvalidRequestError],
  ['MethodNotFound', MethodNotFoundError],
  ['MethodNotAllowed', MethodNotAllowedError],
  ['InvalidParams', InvalidParamsError],
  ['InternalError', InternalError],
  ['DeadlineExceeded', DeadlineExceededError],
  ['ShuttingDown', ShuttingDownError],
  ['Cancelled', RequestCancelledError],
  ['NotFound', NotFoundError],
  ['OutOfStock', OutOfStockError],
  ['InvalidQuantity', InvalidQuantityError],
  ['CartEmpty', CartEmptyError],
  ['IdempotencyConflict', IdempotencyConflictError],
  ['InventoryUnavailable', InventoryUnavailableError],
  ['StoreBusy', StoreBusyError],
  ['StockOutOfRange', StockOutOfRangeError],
  ['StockMismatch', StockMismatchError],
  ['CartFull', CartFullError],
]);

const CLASS_BY_CODE = new Map([
  [ErrorCode.ParseError, ParseError],
  [ErrorCode.InvalidRequest, InvalidRequestError],
  [ErrorCode.MethodNotFound, MethodNotFoundError],
  [ErrorCode.InvalidParams, InvalidParamsError],
  [ErrorCode.InternalError, InternalError],
  [ErrorCode.DeadlineExceeded, DeadlineExceededError],
  [ErrorCode.ShuttingDown, ShuttingDownError],
  [ErrorCode.Cancelled, RequestCancelledError],
  [ErrorCode.NotFound, NotFoundError],
  [ErrorCode.OutOfStock, OutOfStockError],
  [ErrorCode.InvalidQuantity, InvalidQuantityError],
  [ErrorCode.CartEmpty, CartEmptyError],
  [ErrorCode.IdempotencyConflict, IdempotencyConflictError],
  [ErrorCode.InventoryUnavailable, InventoryUnavailableError],
  [ErrorCode.StoreBusy, StoreBusyError],
  [ErrorCode.StockOutOfRange, StockOutOfRangeError],
  [ErrorCode.StockMismatch, StockMismatchError],
  [ErrorCode.CartFull, CartFullError],
]);

/**
 * Builds the typed error for the `error` member of a reply: by `data.type` first, then by code.
 * @param {{ code?: unknown, message?: unknown, data?: unknown }} error
 * @param {{ requestId?: unknown, method?: string }} [context]
 * @returns {RPCError}
 */
export function errorFromReply(error, context = {}) {
  const code = Number.isInteger(error?.code) ? error.code : ErrorCode.InternalError;
  const message = typeof error?.message === 'string' ? error.message : `error ${code}`;
  const data = error?.data !== null && typeof error?.data === 'object' && !Array.isArray(error.data) ? error.data : {};
  const ErrorClass =
    CLASS_BY_TYPE.get(data.type) ?? CLASS_BY_CODE.get(code) ?? (code >= FIRST_SHOP_CODE ? ShopError : RPCError);
  return new ErrorClass(code, message, data, context);
}
