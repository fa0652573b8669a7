// ShopClient: the shop's methods (protocol.md, sections 6 and 7) on top of RPCClient. The shop's
// own methods are generated from rpc.discover (shop-methods.generated.js, the class this one
// extends); the built-ins and spawning are here.

import { spawn } from 'node:child_process';
import { locateServerBinary } from './server-binary.js';
import { ShopMethods } from './shop-methods.generated.js';

/** @typedef {import('./rpc-client.js').CallOptions} CallOptions */

/**
 * A client for shop-rpc. `ShopClient.spawn()` starts a server it owns; `new ShopClient({ readable,
 * writable })` attaches to streams already connected to one. Every method returns a promise that
 * settles exactly once (see `RPCClient.call`).
 */
export class ShopClient extends ShopMethods {
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
}
