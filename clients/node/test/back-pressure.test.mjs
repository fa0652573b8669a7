// The client's writes respect back-pressure: a server input that reports itself full (write()
// returned false) gets nothing more until 'drain'. Attached to a GatedWritable, no binary involved.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { ConnectionLostError, DeadlineExceededError, RequestCancelledError, ShopClient } from '../index.js';
import { GatedWritable } from '../test-support/gated-writable.mjs';

/** A hang guard only: every test here finishes in milliseconds when the client is right. */
const HANG_GUARD = { timeout: 10000 };

function attachGated(options = {}) {
  const toServer = new GatedWritable();
  const fromServer = new PassThrough();
  const client = new ShopClient({ readable: fromServer, writable: toServer, ...options });
  const reply = (message) => fromServer.write(`${JSON.stringify(message)}\n`);
  const answerAll = (messages) => {
    for (const message of messages) {
      if (Array.isArray(message)) answerAll(message);
      else if ('id' in message) reply({ jsonrpc: '2.0', id: message.id, result: { echo: message.params ?? null } });
    }
  };
  return { client, toServer, fromServer, reply, answerAll };
}

/** Lets every pending callback, timer of 0 ms and stream event run. */
const settleEvents = () => new Promise((resolve) => setTimeout(resolve, 10));

// MARK: - Waiting for 'drain'

test('write_serverInputFull_writesNothingMoreUntilDrainThenEveryFrameWholeAndInOrder', HANG_GUARD, async () => {
  const { client, toServer, answerAll } = attachGated();
  const skus = Array.from({ length: 20 }, (_, i) => `SKU-${i}`);
  const calls = skus.map((sku) => client.catalogGet(sku));
  client.notify('custom/note', { n: 1 });
  const batch = client.batch([{ method: 'ping' }, { method: 'cart.get', params: { cartId: 'c' } }]);
  await settleEvents();
  assert.equal(toServer.writes.length, 1, 'only the frame that filled the input was written');
  assert.equal(client.queuedFrameCount, 21);

  toServer.open(5);
  assert.equal(toServer.writes.length, 6, 'after a drain, frames go out until the input is full again');
  await settleEvents();
  assert.equal(toServer.writes.length, 6, 'nothing is written while waiting for the next drain');
  assert.equal(client.queuedFrameCount, 16);

  toServer.open();
  assert.equal(toServer.writes.length, 22);
  assert.equal(client.queuedFrameCount, 0);
  for (const text of toServer.writes) assert.match(text, /^[^\n]+\n$/, 'each write is one whole frame');
  const messages = toServer.messages;
  assert.deepEqual(messages.slice(0, 20).map((message) => message.params.sku), skus, 'in the order of the calls');
  assert.deepEqual(messages[20], { jsonrpc: '2.0', method: 'custom/note', params: { n: 1 } });
  assert.deepEqual(messages[21].map((request) => request.method), ['ping', 'cart.get']);

  answerAll(messages);
  assert.deepEqual((await Promise.all(calls)).map((result) => result.echo.sku), skus);
  assert.equal((await batch).length, 2);
  await client.close();
});

test('close_framesStillQueued_sendsThemBeforeEndingTheInput', HANG_GUARD, async () => {
  const { client, toServer, answerAll } = attachGated();
  const calls = [client.ping(), client.catalogGet('A'), client.catalogGet('B')];
  const closed = client.close();
  await settleEvents();
  assert.equal(toServer.writableEnded, false, 'the input is not ended while frames wait');
  toServer.open();
  await settleEvents();
  assert.equal(toServer.writes.length, 3);
  assert.equal(toServer.writableEnded, true, 'ended once the queue is written');
  answerAll(toServer.messages);
  assert.equal((await Promise.all(calls)).length, 3);
  assert.deepEqual(await closed, { code: null, signal: null });
});

// MARK: - Settling calls whose request is still queued

test('abort_requestStillQueued_dropsItAndRejectsAtOnceWithoutSendingCancel', HANG_GUARD, async () => {
  const { client, toServer, answerAll } = attachGated({ cancelGraceMs: 60000 });
  const first = client.ping();
  const controller = new AbortController();
  const dropped = client.catalogGet('DROPPED', { signal: controller.signal });
  const kept = client.catalogGet('KEPT');
  controller.abort(new Error('user left'));
  await assert.rejects(dropped, (error) => {
    assert.ok(error instanceof RequestCancelledError, `got ${error}`);
    assert.equal(error.local, true);
    assert.equal(error.cause.message, 'user left');
    return true;
  });
  toServer.open();
  const messages = toServer.messages;
  assert.deepEqual(
    messages.map((message) => [message.method, message.params?.sku]),
    [
      ['ping', undefined],
      ['catalog.get', 'KEPT'],
    ],
    'neither the dropped request nor a $/cancelRequest for it was sent',
  );
  answerAll(messages);
  assert.deepEqual(await first, { echo: null });
  assert.equal((await kept).echo.sku, 'KEPT');
  assert.equal(client.pendingCount, 0);
  await client.close();
});

test('timeout_requestStillQueued_rejectsLocallyAndNeverSendsIt', HANG_GUARD, async () => {
  const { client, toServer, answerAll } = attachGated({ timeoutMarginMs: 0 });
  const first = client.ping();
  await assert.rejects(client.inventoryCheck(['A'], { timeoutMs: 20 }), (error) => {
    assert.ok(error instanceof DeadlineExceededError, `got ${error}`);
    assert.equal(error.local, true);
    assert.equal(error.deadlineMs, 20);
    assert.match(error.message, /never sent/);
    return true;
  });
  toServer.open();
  assert.deepEqual(toServer.messages.map((message) => message.method), ['ping']);
  answerAll(toServer.messages);
  await first;
  await client.close();
});

test('batch_oneCallAbortedWhileQueued_batchIsSentWithoutIt', HANG_GUARD, async () => {
  const { client, toServer, answerAll } = attachGated();
  const first = client.ping();
  const controller = new AbortController();
  const batch = client.batch([{ method: 'catalog.get', params: { sku: 'A' } }, { method: 'ping' }]);
  const aborted = client.batch([{ method: 'catalog.get', params: { sku: 'B' } }], { signal: controller.signal });
  controller.abort();
  const [outcome] = await aborted;
  assert.ok(outcome.error instanceof RequestCancelledError && outcome.error.local);
  toServer.open();
  const messages = toServer.messages;
  assert.equal(messages.length, 2, 'the fully aborted batch was not sent at all');
  assert.deepEqual(messages[1].map((request) => request.method), ['catalog.get', 'ping']);
  answerAll(messages);
  await first;
  assert.deepEqual((await batch).map((entry) => Object.keys(entry)), [['result'], ['result']]);
  await client.close();
});

// MARK: - Losing the connection with frames queued

test('connection_inputErrorsWithFramesQueued_rejectsEveryCallWithConnectionLostError', HANG_GUARD, async () => {
  const { client, toServer } = attachGated();
  const calls = [client.ping(), client.catalogGet('A'), client.batch([{ method: 'ping' }])];
  toServer.destroy(new Error('EPIPE'));
  for (const call of calls) await assert.rejects(call, ConnectionLostError);
  assert.equal(client.queuedFrameCount, 0, 'the queued frames were dropped');
  assert.equal(toServer.writes.length, 1);
  await assert.rejects(client.ping(), ConnectionLostError);
});

test('connection_inputClosedWithFramesQueued_rejectsEveryCallWithConnectionLostError', HANG_GUARD, async () => {
  const { client, toServer } = attachGated();
  const calls = [client.ping(), client.catalogGet('A')];
  toServer.destroy();
  for (const call of calls) await assert.rejects(call, ConnectionLostError);
  assert.equal(client.queuedFrameCount, 0);
  await assert.rejects(client.ping(), ConnectionLostError);
  assert.throws(() => client.notify('x'), ConnectionLostError);
});
