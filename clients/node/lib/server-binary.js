// Finding the shop-rpc executable.

import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's release build, relative to this file (clients/node/lib/). */
const RELEASE_BUILD = fileURLToPath(new URL('../../../.build/release/shop-rpc', import.meta.url));

/**
 * The name of the npm package that carries the server binary for this platform, esbuild-style:
 * `shop-rpc-linux-x64` on Linux x86_64 (an optional dependency of the client package; npm installs
 * the one whose `os` and `cpu` match).
 * @param {string} [platform]
 * @param {string} [arch]
 */
export function platformPackageName(platform = process.platform, arch = process.arch) {
  return `shop-rpc-${platform}-${arch}`;
}

/**
 * The server binary of the platform package installed beside this client (`<package>/bin/shop-rpc`),
 * or null when it is not installed (a source checkout, or an unsupported platform).
 * @returns {string | null}
 */
export function bundledServerBinary() {
  const require = createRequire(import.meta.url);
  let manifest;
  try {
    manifest = require.resolve(`${platformPackageName()}/package.json`);
  } catch {
    return null;
  }
  const candidate = join(dirname(manifest), 'bin', 'shop-rpc');
  return isExecutable(candidate) ? candidate : null;
}

/**
 * Returns the path of the shop-rpc executable: `$SHOP_RPC_BIN` when set, else the binary of the
 * installed platform package (`bundledServerBinary()`), else `shop-rpc` on `PATH`, else the
 * repository's release build (`<repo>/.build/release/shop-rpc`).
 * @param {NodeJS.ProcessEnv} [env]
 * @param {{ skip?: string }} [options] `skip`: a file never to return (the `shop-rpc` launcher
 *   itself, which npm puts on `PATH`)
 * @returns {string}
 * @throws {Error} naming every place it looked, when none holds an executable
 */
export function locateServerBinary(env = process.env, { skip } = {}) {
  if (env.SHOP_RPC_BIN) {
    if (isExecutable(env.SHOP_RPC_BIN)) return env.SHOP_RPC_BIN;
    throw new Error(`SHOP_RPC_BIN=${env.SHOP_RPC_BIN} is not an executable file`);
  }
  const bundled = bundledServerBinary();
  if (bundled) return bundled;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'shop-rpc');
    if (isExecutable(candidate) && !(skip && sameFile(candidate, skip))) return candidate;
  }
  if (isExecutable(RELEASE_BUILD)) return RELEASE_BUILD;
  throw new Error(
    `shop-rpc executable not found: SHOP_RPC_BIN is not set, the ${platformPackageName()} package is not ` +
      `installed, no shop-rpc on PATH, and no release build at ${RELEASE_BUILD} (build it with ` +
      '`swift build -c release --product shop-rpc`, or set SHOP_RPC_BIN)',
  );
}

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function sameFile(a, b) {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
