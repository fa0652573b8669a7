// The base classes of error replies: RPCError, and ShopError for the shop's own codes. Apart from
// errors.js (the engine's errors and the lookup) so that shop-errors.generated.js, which errors.js
// imports, can extend ShopError.

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

/** Base class of the shop's own errors (codes 1000 and above); each code's class is generated (shop-errors.generated.js). */
export class ShopError extends RPCError {}
