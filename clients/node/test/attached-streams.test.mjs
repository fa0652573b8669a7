// The client's own logic, attached to in-memory streams (no server binary involved).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ConnectionLostError,
  DeadlineExceededError,
  NotFoundError,
  RequestCancelledError,
  ShopClient,
} from '../index.js';
import { FakeServer } from '../test-support/fake-server.mjs';

function attach(options = {}) {
  const server = new FakeServer();
  const client = new ShopClient({ ...server.clientStreams, ...options });
  return { server, client };
}

test('call_fiftyMegabyteReplyLine_resolvesWithTheWholeResult', async () => {
  const { server, client } = attach();
  const pending = client.catalogSearch('big');
  const request = await server.nextMessage();
  assert.deepEqual(request, { jsonrpc: '2.0', id: request.id, method: 'catalog.search', params: { query: 'big' } });

  // 3-byte characters, so 64 KiB chunk boundaries fall inside characters.
  const description = '\u20ac'.repeat(Math.ceil((50 * 1024 * 1024) / 3));
  const line = Buffer.from(
    `${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { items: [{ sku: 'BIG', description }] } })}\n`,
  );
  assert.ok(line.length >= 50 * 1024 * 1024);
  for (let offset = 0; offset < line.length; offset += 65536) server.fromServer.write(line.subarray(offset, offset + 65536));

  const result = await pending;
  assert.equal(result.items[0].sku, 'BIG');
  assert.equal(result.items[0].description.length, description.length);
  assert.ok(result.items[0].description === description);
  await client.close();
});

test('call_repliesArriveInReverseOrder_eachMatchedById', async () => {
  const { server, client } = attach();
  const skus = Array.from({ length: 50 }, (_, i) => `SKU-${i}`);
  const calls = skus.map((sku) => client.catalogGet(sku));
  const requests = [];
  for (const _ of skus) requests.push(await server.nextMessage());
  for (const request of requests.reverse()) {
    server.reply({ jsonrpc: '2.0', id: request.id, result: { sku: request.params.sku } });
  }
  assert.deepEqual((await Promise.all(calls)).map((product) => product.sku), skus);
  await client.close();
});

test('batch_replyArrayShuffled_resultsInRequestOrderWithTypedErrors', async () => {
  const { server, client } = attach();
  const pending = client.batch([
    { method: 'ping' },
    { method: 'catalog.get', params: { sku: 'NOPE' } },
    { method: 'cart.get', params: { cartId: 'c' } },
  ]);
  const batch = await server.nextMessage();
  assert.ok(Array.isArray(batch));
  assert.deepEqual(batch.map((request) => request.method), ['ping', 'catalog.get', 'cart.get']);
  assert.equal(new Set(batch.map((request) => request.id)).size, 3);
  server.reply([
    { jsonrpc: '2.0', id: batch[2].id, result: { cartId: 'c', lines: [] } },
    { jsonrpc: '2.0', id: batch[0].id, result: {} },
    {
      jsonrpc: '2.0',
      id: batch[1].id,
      error: { code: 1001, message: 'no such product', data: { type: 'NotFound', entity: 'product', id: 'NOPE' } },
    },
  ]);
  const outcomes = await pending;
  assert.deepEqual(outcomes[0], { result: {} });
  assert.ok(outcomes[1].error instanceof NotFoundError);
  assert.equal(outcomes[1].error.id, 'NOPE');
  assert.deepEqual(outcomes[2], { result: { cartId: 'c', lines: [] } });
  assert.deepEqual(await client.batch([]), []);
  await client.close();
});

test('call_withTimeoutAndProgress_sendsMetaWithoutTouchingCallerParams', async () => {
  const { server, client } = attach();
  const params = { skus: ['A'], _meta: { custom: 1 } };
  const seen = [];
  const pending = client.call('inventory.check', params, { timeoutMs: 250.5, onProgress: (p) => seen.push(p) });
  const request = await server.nextMessage();
  assert.deepEqual(request.params, { skus: ['A'], _meta: { custom: 1, deadlineMs: 251, progressToken: `progress-${request.id}` } });
  assert.deepEqual(params, { skus: ['A'], _meta: { custom: 1 } });
  const progress = { progressToken: request.params._meta.progressToken, progress: 10, total: 251 };
  server.reply({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...progress, progressToken: 'someone-else' } });
  server.reply({ jsonrpc: '2.0', method: 'notifications/progress', params: progress });
  server.reply({ jsonrpc: '2.0', id: request.id, result: { levels: [] } });
  assert.deepEqual(await pending, { levels: [] });
  assert.deepEqual(seen, [progress]);
  await client.close();
});

test('call_noReplyBeforeTimeout_rejectsLocallyAndSendsCancel', async () => {
  const { server, client } = attach({ timeoutMarginMs: 20 });
  const started = performance.now();
  const pending = client.inventoryCheck(['A'], { timeoutMs: 50 });
  const request = await server.nextMessage();
  await assert.rejects(pending, (error) => {
    assert.ok(error instanceof DeadlineExceededError);
    assert.equal(error.local, true);
    assert.equal(error.deadlineMs, 50);
    assert.equal(error.method, 'inventory.check');
    return true;
  });
  assert.ok(performance.now() - started < 1000);
  assert.deepEqual(await server.nextMessage(), { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: request.id } });
  // The server's late reply is dropped silently.
  const protocolErrors = [];
  client.on('protocolError', (error) => protocolErrors.push(error));
  server.reply({ jsonrpc: '2.0', id: request.id, error: { code: -32001, message: 'late', data: { type: 'DeadlineExceeded' } } });
  const ping = client.ping();
  const pingRequest = await server.nextMessage();
  server.reply({ jsonrpc: '2.0', id: pingRequest.id, result: {} });
  assert.deepEqual(await ping, {});
  assert.deepEqual(protocolErrors, []);
  await client.close();
});

test('abort_serverRepliesWithinGrace_rejectsWithTheServersCancellation', async () => {
  const { server, client } = attach({ cancelGraceMs: 5000 });
  const controller = new AbortController();
  const pending = client.catalogGet('A', { signal: controller.signal });
  const request = await server.nextMessage();
  controller.abort();
  assert.deepEqual(await server.nextMessage(), { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: request.id } });
  server.reply({ jsonrpc: '2.0', id: request.id, error: { code: -32800, message: 'cancelled', data: { type: 'Cancelled', method: 'catalog.get' } } });
  await assert.rejects(pending, (error) => error instanceof RequestCancelledError && error.local === false);
  await client.close();
});

test('abort_serverSilent_rejectsLocallyAfterGrace', async () => {
  const { server, client } = attach({ cancelGraceMs: 30 });
  const controller = new AbortController();
  const pending = client.catalogGet('A', { signal: controller.signal });
  await server.nextMessage();
  controller.abort(new Error('user left'));
  await assert.rejects(pending, (error) => {
    assert.ok(error instanceof RequestCancelledError);
    assert.equal(error.local, true);
    assert.equal(error.cause.message, 'user left');
    return true;
  });
});

test('call_signalAlreadyAborted_rejectsWithoutSending', async () => {
  const { server, client } = attach();
  await assert.rejects(client.ping({ signal: AbortSignal.abort() }), RequestCancelledError);
  const ping = client.ping();
  const first = await server.nextMessage();
  assert.deepEqual(first, { jsonrpc: '2.0', id: first.id, method: 'ping' }, 'the aborted call sent nothing');
  server.reply({ jsonrpc: '2.0', id: first.id, result: {} });
  await ping;
  await client.close();
});

test('connection_serverOutputEnds_rejectsEveryPendingCallAtOnce', async () => {
  const { server, client } = attach();
  const calls = [client.ping(), client.catalogGet('A'), client.batch([{ method: 'ping' }])];
  await server.nextMessage();
  server.end();
  for (const call of calls) await assert.rejects(call, ConnectionLostError);
  await assert.rejects(client.ping(), ConnectionLostError);
  assert.throws(() => client.notify('x'), ConnectionLostError);
});

test('close_attachedWithCallInFlight_waitsForItsReply', async () => {
  const { server, client } = attach();
  const pending = client.ping();
  const request = await server.nextMessage();
  const closed = client.close();
  assert.equal(client.close(), closed, 'close() is idempotent');
  assert.equal(server.toServer.writableEnded, true, 'close() ends the server input');
  await assert.rejects(client.ping(), ConnectionLostError);
  server.reply({ jsonrpc: '2.0', id: request.id, result: {} });
  assert.deepEqual(await pending, {});
  assert.deepEqual(await closed, { code: null, signal: null });
  assert.equal(server.fromServer.listenerCount('data'), 0, 'the client let go of the streams');
});

test('reader_garbageAndUnmatchedReplies_reportedWithoutBreakingLaterReplies', async () => {
  const { server, client } = attach();
  const protocolErrors = [];
  const notifications = [];
  client.on('protocolError', (error) => protocolErrors.push(error));
  client.on('notification', (method, params) => notifications.push([method, params]));
  const pending = client.ping();
  const request = await server.nextMessage();
  server.fromServer.write('not json\n\n');
  server.reply({ jsonrpc: '2.0', id: 999, result: {} });
  server.reply({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error', data: { type: 'ParseError' } } });
  server.reply({ jsonrpc: '2.0', method: 'custom/event', params: { a: 1 } });
  server.reply({ jsonrpc: '2.0', id: request.id, result: {} });
  assert.deepEqual(await pending, {});
  assert.equal(protocolErrors.length, 3);
  assert.deepEqual(notifications, [['custom/event', { a: 1 }]]);
  await client.close();
});

test('progress_callbackThrows_reportedAsCallbackErrorAndCallStillResolves', async () => {
  const { server, client } = attach();
  const reported = [];
  client.on('callbackError', (error, source) => reported.push([error.message, source]));
  let progressCalls = 0;
  const failing = client.catalogGet('A', {
    onProgress: () => {
      progressCalls += 1;
      throw new Error('bug in the progress bar');
    },
  });
  const other = client.ping();
  const request = await server.nextMessage();
  const otherRequest = await server.nextMessage();
  const progress = { progressToken: request.params._meta.progressToken, progress: 1, total: 10 };
  server.reply({ jsonrpc: '2.0', method: 'notifications/progress', params: progress });
  server.reply({ jsonrpc: '2.0', method: 'notifications/progress', params: { ...progress, progress: 2 } });
  server.reply({ jsonrpc: '2.0', id: request.id, result: { sku: 'A' } });
  server.reply({ jsonrpc: '2.0', id: otherRequest.id, result: {} });
  assert.deepEqual(await failing, { sku: 'A' });
  assert.deepEqual(await other, {});
  assert.equal(progressCalls, 2, 'the callback still gets later progress');
  assert.deepEqual(reported, [
    ['bug in the progress bar', 'onProgress'],
    ['bug in the progress bar', 'onProgress'],
  ]);
  const ping = client.ping();
  const pingRequest = await server.nextMessage();
  server.reply({ jsonrpc: '2.0', id: pingRequest.id, result: {} });
  assert.deepEqual(await ping, {}, 'the connection still works');
  await client.close();
});

test('progress_callbackThrowsAndNobodyListensForCallbackError_loggedToConsoleError', async (t) => {
  const logged = [];
  t.mock.method(console, 'error', (...args) => logged.push(args));
  const { server, client } = attach();
  const pending = client.catalogGet('A', {
    onProgress: () => {
      throw new Error('bug in the progress bar');
    },
  });
  const request = await server.nextMessage();
  server.reply({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: request.params._meta.progressToken, progress: 1 } });
  server.reply({ jsonrpc: '2.0', id: request.id, result: { sku: 'A' } });
  assert.deepEqual(await pending, { sku: 'A' });
  assert.equal(logged.length, 1);
  assert.match(String(logged[0][0]), /onProgress/);
  assert.equal(logged[0][1].message, 'bug in the progress bar');
  await client.close();
});

test('events_listenerThrows_reportedAndLaterMessagesStillHandled', async () => {
  const { server, client } = attach();
  const reported = [];
  client.on('callbackError', (error, source) => reported.push(source));
  client.on('notification', () => {
    throw new Error('bad listener');
  });
  const pending = client.ping();
  const request = await server.nextMessage();
  server.reply({ jsonrpc: '2.0', method: 'custom/event', params: {} });
  server.reply({ jsonrpc: '2.0', id: request.id, result: {} });
  assert.deepEqual(await pending, {});
  assert.deepEqual(reported, ['notification']);
  await client.close();
});
