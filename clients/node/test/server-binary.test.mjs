// Finding and starting the binary (no real server involved).

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ConnectionLostError, ShopClient, locateServerBinary } from '../index.js';

const scratch = mkdtempSync(join(tmpdir(), 'shop-rpc-node-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes an executable shell script at <scratch>/<dir>/<name>. */
function executable(dir, name = 'shop-rpc', script = 'exit 0') {
  mkdirSync(join(scratch, dir), { recursive: true });
  const path = join(scratch, dir, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

test('locateServerBinary_envVariableSet_winsOverPath', () => {
  const fromEnv = executable('a', 'custom-server');
  const onPath = executable('b');
  assert.equal(locateServerBinary({ SHOP_RPC_BIN: fromEnv, PATH: join(scratch, 'b') }), fromEnv);
  assert.equal(locateServerBinary({ PATH: `/nonexistent:${join(scratch, 'b')}` }), onPath);
  assert.throws(() => locateServerBinary({ SHOP_RPC_BIN: join(scratch, 'missing') }), /SHOP_RPC_BIN=.*not an executable/);
});

test('spawn_binaryCannotStart_rejectsCallsWithConnectionLost', async () => {
  const client = ShopClient.spawn({ bin: join(scratch, 'does-not-exist') });
  await assert.rejects(client.ping(), (error) => {
    assert.ok(error instanceof ConnectionLostError);
    assert.match(error.message, /could not be started/);
    return true;
  });
  await client.close();
});

test('spawn_serverExitsAtOnce_pendingCallRejectsWithExitCode', async () => {
  const path = executable('c', 'shop-rpc', 'echo "fatal: cannot open store" >&2; exit 3');
  const client = ShopClient.spawn({ bin: path });
  await assert.rejects(client.ping(), (error) => {
    assert.ok(error instanceof ConnectionLostError);
    assert.equal(error.exitCode, 3);
    assert.match(error.stderr, /cannot open store/);
    return true;
  });
  assert.deepEqual(await client.close(), { code: 3, signal: null });
});
