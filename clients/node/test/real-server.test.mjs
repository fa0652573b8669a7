// The client against the real shop-rpc binary (--db :memory:): ordering, deadlines, cancellation,
// progress, a crashing server, and a clean close.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import {
  ConnectionLostError,
  DeadlineExceededError,
  InvalidParamsError,
  InventoryUnavailableError,
  NotFoundError,
  RequestCancelledError,
  StockMismatchError,
  StockOutOfRangeError,
} from '../index.js';
import { serverBinary, startServer } from '../test-support/real-server.mjs';

const INVENTORY_DEADLINE_MESSAGE = 'Inventory information is temporarily unavailable, please try again later';

/** Runs `body` with a fresh server, and always closes it. */
async function withServer(extraArgs, body, options) {
  const client = startServer(extraArgs, options);
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('binary_isFound', () => {
  assert.ok(serverBinary());
});

/** A loopback port that was free a moment ago: nothing listens there, so connections are refused. */
async function freeLoopbackPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('inventoryCheck_serviceRefusesConnections_rejectsWithInventoryUnavailable', async () => {
  const port = await freeLoopbackPort();
  await withServer(['--inventory-url', `http://127.0.0.1:${port}`], async (client) => {
    await assert.rejects(client.inventoryCheck(['SKU-0001']), (error) => {
      assert.ok(error instanceof InventoryUnavailableError, `got ${error.constructor.name}`);
      assert.equal(error.code, 1009);
      assert.equal(error.method, 'inventory.check');
      assert.ok(typeof error.detail === 'string' && error.detail.length > 0);
      assert.equal(error.status, undefined, 'no HTTP answer, so no status');
      return true;
    });
    assert.deepEqual(await client.ping(), {});
  });
});

test('batch_slowFirstElement_outcomesInRequestOrder', async () => {
  await withServer(['--simulate-latency', 'catalog.get=300'], async (client) => {
    const outcomes = await client.batch([
      { method: 'catalog.get', params: { sku: 'SKU-0001' } },
      { method: 'ping' },
      { method: 'catalog.get', params: { sku: 'SKU-NOPE' } },
      { method: 'inventory.check', params: { skus: ['SKU-0002', 'SKU-0001'] } },
      { method: 'catalog.list', params: { limit: 0 } },
      { method: 'cart.get', params: { cartId: 'batch-cart' } },
    ]);
    assert.equal(outcomes.length, 6);
    assert.equal(outcomes[0].result.sku, 'SKU-0001');
    assert.deepEqual(outcomes[1], { result: {} });
    assert.ok(outcomes[2].error instanceof NotFoundError);
    assert.deepEqual(outcomes[3].result.levels.map((level) => level.sku), ['SKU-0002', 'SKU-0001']);
    assert.ok(outcomes[4].error instanceof InvalidParamsError);
    assert.equal(outcomes[4].error.field, 'limit');
    assert.equal(outcomes[5].result.cartId, 'batch-cart');
  });
});

test('catalogSearch_filtersFacetsAndPages_asTyped', async () => {
  await withServer([], async (client) => {
    const first = await client.catalogSearch('', { category: ['coffee'], facets: ['category'], limit: 2 });
    assert.ok(first.total > 2);
    assert.deepEqual(first.facets.category, [{ value: 'coffee', count: first.total }]);
    const rest = await client.catalogSearch('', { category: 'coffee', cursor: first.nextCursor, limit: 200 });
    assert.equal(rest.items.length, first.total - 2);
    assert.equal(rest.nextCursor, undefined);
    const typo = await client.catalogSearch('expresso', { limit: 1, highlight: true });
    assert.equal(typo.readAs, 'espresso');
    assert.ok(typo.items[0].highlights.name.length > 0);
  });
});

test('call_manyConcurrentCallsFinishingOutOfOrder_eachMatchedById', async () => {
  await withServer(['--simulate-latency', 'catalog.get=300'], async (client) => {
    const { items } = await client.catalogList({ limit: 50 });
    assert.ok(items.length > 0);
    const completions = [];
    const calls = [];
    for (let i = 0; i < 300; i += 1) {
      const sku = items[i % items.length].sku;
      const kind = ['get', 'check', 'ping'][i % 3];
      const call =
        kind === 'get'
          ? client.catalogGet(sku).then((product) => assert.equal(product.sku, sku))
          : kind === 'check'
            ? client.inventoryCheck([sku]).then(({ levels }) => assert.deepEqual(levels.map((l) => l.sku), [sku]))
            : client.ping().then((result) => assert.deepEqual(result, {}));
      calls.push(call.then(() => completions.push(kind)));
    }
    await Promise.all(calls);
    assert.notEqual(completions[0], 'get', 'fast calls overtook the slow catalog.get sent first');
    assert.equal(client.pendingCount, 0);
  });
});

test('timeout_inventoryCheckPastDeadline_rejectsWithTheServersDeadlineError', async () => {
  await withServer(['--simulate-latency', 'inventory.check=3000'], async (client) => {
    const started = performance.now();
    await assert.rejects(client.inventoryCheck(['SKU-0001'], { timeoutMs: 200 }), (error) => {
      assert.ok(error instanceof DeadlineExceededError, `got ${error}`);
      assert.equal(error.local, false, 'the server answered -32001 before the local fallback');
      assert.equal(error.code, -32001);
      assert.equal(error.message, INVENTORY_DEADLINE_MESSAGE);
      assert.equal(error.method, 'inventory.check');
      assert.equal(error.deadlineMs, 200);
      assert.equal(typeof error.elapsedMs, 'number');
      return true;
    });
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 190 && elapsed < 1500, `rejected after ${elapsed} ms`);
    assert.deepEqual(await client.ping(), {});
  });
});

test('stats_countsWhatThisSessionDid_byMethod', async () => {
  await withServer(['--simulate-latency', 'inventory.check=20000'], async (client) => {
    await Promise.all([client.catalogGet('SKU-0001'), client.catalogGet('SKU-0002'), client.catalogGet('SKU-0003')]);
    await assert.rejects(client.catalogGet('SKU-NOPE'), NotFoundError);
    await assert.rejects(client.inventoryCheck(['SKU-0001'], { timeoutMs: 200 }), DeadlineExceededError);
    const controller = new AbortController();
    const cancelled = client.inventoryCheck(['SKU-0002'], { signal: controller.signal });
    await client.ping(); // the check has reached the server
    controller.abort();
    await assert.rejects(cancelled, RequestCancelledError);
    const { methods, sections } = await client.stats();
    const get = methods['catalog.get'];
    assert.deepEqual({ ...get, latencyMs: undefined }, {
      calls: 4, ok: 3, errors: { 1001: 1 } /* NotFound */, deadlineExpiries: 0, cancels: 0, inFlight: 0, latencyMs: undefined,
    });
    const check = methods['inventory.check'];
    assert.deepEqual({ ...check, latencyMs: undefined }, {
      calls: 2, ok: 0, errors: { '-32001': 1, '-32800': 1 }, deadlineExpiries: 1, cancels: 1, inFlight: 0, latencyMs: undefined,
    });
    for (const { latencyMs } of [get, check]) assert.ok(latencyMs.p50 >= 0 && latencyMs.p50 <= latencyMs.p99);
    assert.deepEqual(methods['orders.place'].latencyMs, { p50: null, p99: null });
    assert.equal(methods['rpc.stats'], undefined);
    assert.equal(typeof sections, 'object');
  });
});

test('abort_slowCall_rejectsWithTheServersCancellation', async () => {
  await withServer(
    ['--simulate-latency', 'catalog.get=3000'],
    async (client) => {
      const controller = new AbortController();
      const started = performance.now();
      const call = client.catalogGet('SKU-0001', { signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      await assert.rejects(call, (error) => {
        assert.ok(error instanceof RequestCancelledError, `got ${error}`);
        assert.equal(error.local, false, 'the -32800 reply came from the server');
        assert.equal(error.code, -32800);
        assert.equal(error.method, 'catalog.get');
        return true;
      });
      assert.ok(performance.now() - started < 1500);
      assert.deepEqual(await client.ping(), {}, 'the server is still serving');
    },
    { cancelGraceMs: 2000 },
  );
});

test('abort_defaultGrace_rejectsWithRequestCancelledError', async () => {
  await withServer(['--simulate-latency', 'catalog.get=3000'], async (client) => {
    const controller = new AbortController();
    const call = client.catalogGet('SKU-0001', { signal: controller.signal });
    await client.ping();
    controller.abort();
    await assert.rejects(call, RequestCancelledError);
    assert.deepEqual(await client.ping(), {});
  });
});

test('progress_slowCall_callbackGetsIncreasingProgressForItsTokenOnly', async () => {
  await withServer(['--simulate-latency', 'catalog.get=1500', '--progress-interval-ms', '100'], async (client) => {
    const received = [];
    const emitted = [];
    client.on('progress', (params) => emitted.push(params));
    const product = await client.catalogGet('SKU-0001', { onProgress: (params) => received.push(params) });
    assert.equal(product.sku, 'SKU-0001');
    assert.ok(received.length >= 5, `got ${received.length} progress notifications`);
    const token = received[0].progressToken;
    for (const params of received) assert.equal(params.progressToken, token);
    for (let i = 1; i < received.length; i += 1) assert.ok(received[i].progress > received[i - 1].progress);
    assert.equal(received[0].total, 30000, "total is catalog.get's deadline");
    const countAtReply = emitted.length;
    await delay(300);
    assert.equal(emitted.length, countAtReply, 'no progress after the reply');
    assert.deepEqual(emitted, received);
  });
});

test('backPressure_thousandsOfCallsWhileServerStopsReading_allAnsweredAndInputBufferBounded', async () => {
  // Two slow calls fill --max-inflight 2, so the server stops reading and its stdin pipe fills up.
  await withServer(['--max-inflight', '2', '--simulate-latency', 'catalog.get=200'], async (client) => {
    const stdin = client.childProcess.stdin;
    const slow = [client.catalogGet('SKU-0001'), client.catalogGet('SKU-0002')];
    const count = 8000;
    const calls = [];
    let largestFrame = 0;
    let mostBuffered = 0;
    for (let i = 0; i < count; i += 1) {
      const cartId = `cart-${i}`;
      largestFrame = Math.max(largestFrame, JSON.stringify({ jsonrpc: '2.0', id: i + 3, method: 'cart.get', params: { cartId } }).length + 1);
      calls.push(client.cartGet(cartId).then((cart) => assert.equal(cart.cartId, cartId)));
      mostBuffered = Math.max(mostBuffered, stdin.writableLength);
    }
    assert.ok(
      mostBuffered < stdin.writableHighWaterMark + largestFrame,
      `the server's stdin buffered ${mostBuffered} bytes; back-pressure bounds it to its high-water mark plus one frame`,
    );
    await Promise.all(calls);
    assert.deepEqual((await Promise.all(slow)).map((product) => product.sku), ['SKU-0001', 'SKU-0002']);
    assert.equal(client.pendingCount, 0);
    assert.equal(client.queuedFrameCount, 0);
  });
});

test('connection_serverKilledDuringSlowCall_rejectsPendingCallsPromptly', async () => {
  const client = startServer(['--simulate-latency', 'catalog.get=10000']);
  const slow = [client.catalogGet('SKU-0001'), client.catalogGet('SKU-0002', { timeoutMs: 20000 })];
  await client.ping();
  const killedAt = performance.now();
  client.childProcess.kill('SIGKILL');
  for (const call of slow) {
    await assert.rejects(call, (error) => {
      assert.ok(error instanceof ConnectionLostError, `got ${error}`);
      assert.equal(error.signal, 'SIGKILL');
      return true;
    });
  }
  assert.ok(performance.now() - killedAt < 1000);
  await assert.rejects(client.ping(), ConnectionLostError);
  assert.deepEqual(await client.close(), { code: null, signal: 'SIGKILL' });
});

test('close_callInFlight_isAnsweredThenServerExitsZero', async () => {
  const client = startServer(['--simulate-latency', 'catalog.get=300']);
  assert.deepEqual(await client.ping(), {});
  const inFlight = client.catalogGet('SKU-0001');
  const closed = client.close();
  assert.equal(client.close(), closed, 'close() is idempotent');
  assert.equal((await inFlight).sku, 'SKU-0001');
  assert.deepEqual(await closed, { code: 0, signal: null });
  await assert.rejects(client.ping(), ConnectionLostError);
});

test('example_session_runsToCompletionAndExits', async () => {
  const example = fileURLToPath(new URL('../examples/session.mjs', import.meta.url));
  const env = { ...process.env, SHOP_RPC_BIN: serverBinary() };
  const { stdout } = await new Promise((resolve, reject) => {
    execFile(process.execPath, [example], { env, timeout: 20000 }, (error, out, err) =>
      error ? reject(new Error(`example failed: ${error.message}\n${err}`)) : resolve({ stdout: out }),
    );
  });
  assert.match(stdout, /placed order/i);
});

test('ordersCancel_restocks_isIdempotent_recordsTheActor_andUnknownOrdersAreNotFound', async () => {
  await withServer([], async (client) => {
    const level = async () => (await client.inventoryCheck(['SKU-0002'])).levels[0].available;
    const before = await level();
    await client.cartAdd('n1', 'SKU-0002', 3);
    const order = await client.ordersPlace('n1', 'node-key-1', { actor: 'node-tester' });
    assert.equal(await level(), before - 3);
    const cancelled = await client.ordersCancel(order.orderId, { reason: 'duplicate order' }, { actor: 'node-tester' });
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.cancelReason, 'duplicate order');
    assert.ok(cancelled.cancelledAt >= order.createdAt);
    assert.deepEqual(cancelled.lines, order.lines);
    assert.equal(await level(), before);
    assert.deepEqual(await client.ordersCancel(order.orderId), cancelled, 'a second cancel returns the order as it is');
    assert.equal(await level(), before);
    await assert.rejects(client.ordersCancel('ord_0000000000000000'), (error) => {
      assert.ok(error instanceof NotFoundError, `got ${error.constructor.name}`);
      assert.equal(error.entity, 'order');
      return true;
    });
    await assert.rejects(client.ordersCancel(order.orderId, {}, { actor: '' }), (error) => {
      assert.ok(error instanceof InvalidParamsError, `got ${error.constructor.name}`);
      assert.equal(error.field, '_meta.actor');
      return true;
    });
  });
});

test('adminStock_adjustAndCompareAndSet_rejectWithTypedErrors_andChangeNothing', async () => {
  await withServer(['--allow', 'read,write,admin'], async (client) => {
    const level = async () => (await client.inventoryCheck(['SKU-0005'])).levels[0].available;
    const before = await level();
    assert.deepEqual(await client.adminStockAdjust('SKU-0005', 7, 'received', { actor: 'node-ops' }), { sku: 'SKU-0005', available: before + 7 });
    await assert.rejects(client.adminStockAdjust('SKU-0005', -(before + 8), 'damaged'), (error) => {
      assert.ok(error instanceof StockOutOfRangeError, `got ${error.constructor.name}`);
      assert.equal(error.code, 1011);
      assert.equal(error.available, before + 7);
      assert.equal(error.delta, -(before + 8));
      return true;
    });
    assert.deepEqual(await client.adminStockSet('SKU-0005', 3, { expected: before + 7 }), { sku: 'SKU-0005', available: 3 });
    await assert.rejects(client.adminStockSet('SKU-0005', 9, { expected: before + 7 }), (error) => {
      assert.ok(error instanceof StockMismatchError, `got ${error.constructor.name}`);
      assert.equal(error.expected, before + 7);
      assert.equal(error.available, 3);
      return true;
    });
    assert.equal(await level(), 3);
  });
});

test('adminProducts_upsertWithTheImportsRules_andArchive', async () => {
  await withServer(['--allow', 'read,write,admin'], async (client) => {
    const summary = await client.adminProductsUpsert([
      { sku: 'JS-1', name: 'Node Mug', category: 'kitchen', priceCents: 1399, stock: 6 },
      { sku: 'SKU-0001', priceCents: 2599 },
    ], { actor: 'node-ops' });
    assert.deepEqual(summary, { rows: 2, created: 1, updated: 1, unchanged: 0, archived: 0, stockSet: 1 });
    await assert.rejects(client.adminProductsUpsert([{ sku: 'JS-2', name: 'No Price', category: 'kitchen' }]), (error) => {
      assert.ok(error instanceof InvalidParamsError, `got ${error.constructor.name}`);
      assert.equal(error.field, 'products[0].priceCents');
      assert.deepEqual(error.errors.map((e) => e.index), [0]);
      return true;
    });
    assert.deepEqual(await client.adminProductsArchive(['JS-1']), { archived: 1 });
    await assert.rejects(client.catalogGet('JS-1'), (error) => error instanceof NotFoundError);
  });
});
