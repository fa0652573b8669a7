// ShopClient: the shop's methods (protocol.md, sections 6 and 7) on top of RPCClient.

import { spawn } from 'node:child_process';
import { RPCClient } from './rpc-client.js';
import { locateServerBinary } from './server-binary.js';

/** @typedef {import('./rpc-client.js').CallOptions} CallOptions */

/**
 * A client for shop-rpc. `ShopClient.spawn()` starts a server it owns; `new ShopClient({ readable,
 * writable })` attaches to streams already connected to one. Every method returns a promise that
 * settles exactly once (see `RPCClient.call`).
 */
export class ShopClient extends RPCClient {
  /**
   * Starts a shop-rpc server with piped stdin/stdout and returns a client attached to it.
   * The binary is `options.bin`, else `$SHOP_RPC_BIN`, else `shop-rpc` on `PATH`, else the
   * repository's release build.
   * @param {{ bin?: string, args?: string[], env?: NodeJS.ProcessEnv, cwd?: string,
   *   stderr?: 'pipe'|'inherit'|'ignore', timeoutMarginMs?: number, cancelGraceMs?: number,
   *   closeTimeoutMs?: number, killGraceMs?: number }} [options]
   * @returns {ShopClient}
   * @throws {Error} when no binary can be found
   */
  static spawn(options = {}) {
    const { bin, args = [], env = process.env, cwd, stderr = 'pipe', ...tuning } = options;
    const file = bin ?? locateServerBinary(env);
    const child = spawn(file, args, { cwd, env, stdio: ['pipe', 'pipe', stderr] });
    return new ShopClient({ ...tuning, process: child });
  }

  // MARK: - Built-in

  /**
   * Answered by the server's reader, ahead of queued work.
   * @param {CallOptions} [options]
   * @returns {Promise<{}>}
   */
  ping(options) {
    return this.call('ping', undefined, options);
  }

  /**
   * `rpc.stats`: per method since the server started — `calls`, `ok`, `errors` (count by code, as a
   * string key), `deadlineExpiries`, `cancels`, `inFlight`, `latencyMs: { p50, p99 }` (null until a
   * call ended) — and the server's own `sections`. The call itself is not counted.
   * @param {CallOptions} [options]
   * @returns {Promise<import('../index.js').ServerStats>}
   */
  stats(options) {
    return this.call('rpc.stats', undefined, options);
  }

  // MARK: - Catalog

  /**
   * One page of products, ordered by sku. Pass `nextCursor` back as `cursor`; it is absent on the
   * last page.
   * @param {{ cursor?: string, limit?: number, category?: string }} [query] `limit` 1…200, default 50
   * @param {CallOptions} [options]
   */
  catalogList({ cursor, limit, category } = {}, options) {
    return this.call('catalog.list', definedMembers({ cursor, limit, category }), options);
  }

  /**
   * @param {string} sku
   * @param {CallOptions} [options]
   * @throws {NotFoundError} (rejects) when there is no such product
   */
  catalogGet(sku, options) {
    return this.call('catalog.get', { sku }, options);
  }

  /**
   * Products whose name and category have every word of `query`, case- and accent-insensitively,
   * in catalog order (protocol.md, "Search").
   * @param {string} query words; those of 3+ letters also match as prefixes
   * @param {{ limit?: number }} [page] `limit` 1…200, default 50
   * @param {CallOptions} [options]
   */
  catalogSearch(query, { limit } = {}, options) {
    return this.call('catalog.search', definedMembers({ query, limit }), options);
  }

  // MARK: - Inventory

  /**
   * Stock levels, in request order. The server's deadline is 5 s; past it the call rejects with
   * `DeadlineExceededError` whose message is meant for people.
   * @param {string[]} skus 1…100 skus
   * @param {CallOptions} [options]
   */
  inventoryCheck(skus, options) {
    return this.call('inventory.check', { skus }, options);
  }

  // MARK: - Cart

  /**
   * An unknown cart is empty.
   * @param {string} cartId
   * @param {CallOptions} [options]
   */
  cartGet(cartId, options) {
    return this.call('cart.get', { cartId }, options);
  }

  /**
   * Adds `quantity` to the line of `sku`; a line holds at most 999 (`InvalidQuantityError`).
   * @param {string} cartId
   * @param {string} sku
   * @param {number} quantity an integer ≥ 1
   * @param {CallOptions} [options]
   */
  cartAdd(cartId, sku, quantity, options) {
    return this.call('cart.add', { cartId, sku, quantity }, options);
  }

  /**
   * Removes the whole line of `sku`.
   * @param {string} cartId
   * @param {string} sku
   * @param {CallOptions} [options]
   */
  cartRemove(cartId, sku, options) {
    return this.call('cart.remove', { cartId, sku }, options);
  }

  /**
   * @param {string} cartId
   * @param {CallOptions} [options]
   */
  cartClear(cartId, options) {
    return this.call('cart.clear', { cartId }, options);
  }

  // MARK: - Orders

  /**
   * Takes stock for every line, records the order and empties the cart in one transaction. The
   * same `idempotencyKey` returns the same order, also after a restart, so a retry never charges
   * twice.
   * @param {string} cartId
   * @param {string} idempotencyKey
   * @param {CallOptions} [options]
   */
  ordersPlace(cartId, idempotencyKey, options) {
    return this.call('orders.place', { cartId, idempotencyKey }, options);
  }

  /**
   * @param {string} orderId
   * @param {CallOptions} [options]
   */
  ordersGet(orderId, options) {
    return this.call('orders.get', { orderId }, options);
  }

  /**
   * Orders, newest first, one page at a time.
   * @param {{ cartId?: string, cursor?: string, limit?: number }} [query]
   * @param {CallOptions} [options]
   */
  ordersList({ cartId, cursor, limit } = {}, options) {
    return this.call('orders.list', definedMembers({ cartId, cursor, limit }), options);
  }
}

/** Drops members whose value is `undefined`, so optional params are omitted, not sent as null. */
function definedMembers(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
