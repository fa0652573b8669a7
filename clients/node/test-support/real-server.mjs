// Starting the real shop-rpc binary for tests. A missing binary is a test failure, never a skip.

import { ShopClient } from '../index.js';
import { locateServerBinary } from '../lib/server-binary.js';

/**
 * The binary under test, or a thrown Error that says how to provide one.
 * @returns {string}
 */
export function serverBinary() {
  try {
    return locateServerBinary();
  } catch (error) {
    throw new Error(`These tests run against the real shop-rpc server, which was not found. ${error.message}`);
  }
}

/**
 * Spawns a server with a throw-away in-memory store, plus `extraArgs`.
 * @param {string[]} [extraArgs]
 * @param {object} [options] more `ShopClient.spawn` options
 * @returns {ShopClient}
 */
export function startServer(extraArgs = [], options = {}) {
  return ShopClient.spawn({ bin: serverBinary(), args: ['--db', ':memory:', ...extraArgs], ...options });
}
