// Finding the shop-rpc executable.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's release build, relative to this file (clients/node/lib/). */
const RELEASE_BUILD = fileURLToPath(new URL('../../../.build/release/shop-rpc', import.meta.url));

/**
 * Returns the path of the shop-rpc executable: `$SHOP_RPC_BIN` when set, else `shop-rpc` on
 * `PATH`, else the repository's release build (`<repo>/.build/release/shop-rpc`).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string}
 * @throws {Error} naming every place it looked, when none holds an executable
 */
export function locateServerBinary(env = process.env) {
  if (env.SHOP_RPC_BIN) {
    if (isExecutable(env.SHOP_RPC_BIN)) return env.SHOP_RPC_BIN;
    throw new Error(`SHOP_RPC_BIN=${env.SHOP_RPC_BIN} is not an executable file`);
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'shop-rpc');
    if (isExecutable(candidate)) return candidate;
  }
  if (isExecutable(RELEASE_BUILD)) return RELEASE_BUILD;
  throw new Error(
    'shop-rpc executable not found: SHOP_RPC_BIN is not set, no shop-rpc on PATH, and no release build at ' +
      `${RELEASE_BUILD} (build it with \`swift build -c release --product shop-rpc\`, or set SHOP_RPC_BIN)`,
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
