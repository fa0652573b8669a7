// Typed errors for shop-rpc replies (protocol.md, section 3) and for the transport. The shop's own
// error classes (codes 1000 and above) are generated from rpc.discover (shop-errors.generated.js).

import { RPCError, ShopError } from './rpc-error.js';
import shopErrors from './shop-errors.generated.js';

export { RPCError, ShopError } from './rpc-error.js';
export * from './shop-errors.generated.js';

/**
 * Error codes of shop-rpc. An open set: a code missing here still arrives as an `RPCError` (or a
 * `ShopError` when it is 1000 or above), so a server adding a code breaks no client.
 */
export const ErrorCode = Object.freeze({
  // The engine's:
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  DeadlineExceeded: -32001,
  ShuttingDown: -32002,
  Cancelled: -32800,
  // The shop's, by `data.type`:
  ...Object.fromEntries(shopErrors.map(([type, code]) => [type, code])),
});

/** The lowest code of the shop's own errors. */
export const FIRST_SHOP_CODE = 1000;

// MARK: - Error replies

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
  ...shopErrors.map(([type, , ErrorClass]) => [type, ErrorClass]),
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
  ...shopErrors.map(([, code, ErrorClass]) => [code, ErrorClass]),
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
