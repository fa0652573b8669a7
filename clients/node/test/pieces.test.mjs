// The pieces RPCClient is made of, each on its own: a pending call, the call table, the router,
// and the wire messages.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CallTable } from '../lib/call-table.js';
import { DeadlineExceededError, NotFoundError, RequestCancelledError } from '../lib/errors.js';
import { MessageRouter } from '../lib/message-router.js';
import { PendingCall } from '../lib/pending-call.js';
import { renderRequests, withMeta } from '../lib/wire-messages.js';

function pendingCall(id, options = {}) {
  const outcome = {};
  const call = new PendingCall(
    id,
    'm',
    options,
    (result) => (outcome.result = result),
    (error) => (outcome.error = error),
  );
  return { call, outcome };
}

function router() {
  const calls = new CallTable();
  const seen = { replies: [], notifications: [], requests: [], protocolErrors: [] };
  const route = new MessageRouter(calls, {
    onReply: (call, error, result) => seen.replies.push({ id: call.id, error, result }),
    onNotification: (method, params) => seen.notifications.push({ method, params }),
    onServerRequest: (request) => seen.requests.push(request),
    onProtocolError: (error) => seen.protocolErrors.push(error),
  });
  return { calls, seen, route: (line) => route.route(line) };
}

test('pendingCall_settlesOnce_andClearsItsDeadlineAndAbortListener', async () => {
  const controller = new AbortController();
  const { call, outcome } = pendingCall(1, { timeoutMs: 5, signal: controller.signal });
  let expired = 0;
  let aborted = 0;
  call.armDeadline(0, () => (expired += 1));
  call.listenForAbort(() => (aborted += 1));
  assert.equal(call.settle(null, 'first'), true);
  assert.equal(call.settle(new Error('second')), false);
  controller.abort();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual([outcome, expired, aborted], [{ result: 'first' }, 0, 0]);
});

test('pendingCall_localErrors_nameTheCallAndSayTheyAreLocal', () => {
  const { call } = pendingCall(7, { timeoutMs: 250 });
  const deadline = call.deadlineError();
  assert.ok(deadline instanceof DeadlineExceededError);
  assert.deepEqual([deadline.requestId, deadline.data.deadlineMs, deadline.data.local], [7, 250, true]);
  assert.match(deadline.message, /no reply from the server/);
  call.frame = { sent: false };
  assert.equal(call.unsent, true);
  assert.match(call.deadlineError().message, /never sent/);
  assert.ok(call.cancelledError() instanceof RequestCancelledError);
});

test('router_matchesRepliesById_inABatch_andReportsWhatNobodyAwaits', () => {
  const { calls, seen, route } = router();
  const one = pendingCall(calls.nextId()).call;
  const two = pendingCall(calls.nextId()).call;
  calls.add(one);
  calls.add(two);
  route(
    JSON.stringify([
      { jsonrpc: '2.0', id: two.id, error: { code: 1001, message: 'nope', data: { type: 'NotFound' } } },
      { jsonrpc: '2.0', id: one.id, result: 'one' },
      { jsonrpc: '2.0', id: 99, result: 'stray' },
    ]),
  );
  assert.equal(seen.replies.length, 2);
  assert.ok(seen.replies[0].error instanceof NotFoundError);
  assert.deepEqual(seen.replies[1], { id: one.id, error: null, result: 'one' });
  assert.equal(seen.protocolErrors.length, 1);
  assert.match(seen.protocolErrors[0].message, /no call awaits/);
});

test('router_dropsTheReplyOfACallSettledLocally_once', () => {
  const { calls, seen, route } = router();
  calls.abandon(5);
  route('{"jsonrpc":"2.0","id":5,"result":1}');
  route('{"jsonrpc":"2.0","id":5,"result":1}');
  assert.deepEqual([seen.replies.length, seen.protocolErrors.length], [0, 1]);
});

test('router_notificationsRequestsAndJunk_goToTheirHandlers', () => {
  const { seen, route } = router();
  route('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}');
  route('{"jsonrpc":"2.0","id":"s1","method":"server.asks"}');
  route('not json');
  route('42');
  route('{"jsonrpc":"2.0"}');
  assert.deepEqual(seen.notifications, [{ method: 'notifications/progress', params: { progressToken: 't', progress: 1 } }]);
  assert.deepEqual(seen.requests.map((request) => request.id), ['s1']);
  assert.equal(seen.protocolErrors.length, 3);
});

test('callTable_whenIdle_resolvesWhenTheLastCallIsRemoved', async () => {
  const calls = new CallTable();
  const { call } = pendingCall(calls.nextId(), { onProgress: () => {} });
  calls.add(call);
  assert.equal(calls.forProgressToken(call.progressToken), call);
  let idle = false;
  const waiting = calls.whenIdle().then(() => (idle = true));
  await Promise.resolve();
  assert.equal(idle, false);
  calls.remove(call);
  await waiting;
  assert.equal(calls.forProgressToken(call.progressToken), undefined);
});

test('wireMessages_withMetaCopies_andRenderLeavesSettledCallsOut', () => {
  const params = { sku: 'S', _meta: { other: 1 } };
  assert.deepEqual(withMeta(params, 99.2, 'p-1'), { sku: 'S', _meta: { other: 1, deadlineMs: 100, progressToken: 'p-1' } });
  assert.deepEqual(params, { sku: 'S', _meta: { other: 1 } }, "the caller's object is untouched");
  const live = { call: { settled: false }, json: '{"id":1}' };
  const settled = { call: { settled: true }, json: '{"id":2}' };
  assert.equal(renderRequests([settled, live], true), '[{"id":1}]\n');
  assert.equal(renderRequests([settled], false), null);
});
