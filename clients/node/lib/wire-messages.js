// The JSON-RPC 2.0 messages the client writes (protocol.md, sections 2-5), and the errors it makes
// itself for a call the server never answered.

import { DeadlineExceededError, ErrorCode, RequestCancelledError } from './errors.js';

export const PROGRESS_NOTIFICATION = 'notifications/progress';
export const CANCEL_NOTIFICATION = '$/cancelRequest';

/** Throws the `TypeError`/`RangeError` for arguments no request can be made of. */
export function validateCall(method, timeoutMs, onProgress) {
  if (typeof method !== 'string') throw new TypeError('method must be a string');
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new RangeError(`timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('onProgress must be a function');
}

export function requestMessage(id, method, params) {
  return params == null ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export function notificationMessage(method, params) {
  return params == null ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/** `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":ID}}`. */
export function cancelMessage(id) {
  return notificationMessage(CANCEL_NOTIFICATION, { id });
}

/** The server sends no requests; JSON-RPC still wants each one answered: method not found. */
export function refusalOfServerRequest(request) {
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: { code: ErrorCode.MethodNotFound, message: `the client has no method ${request.method}` },
  };
}

/**
 * Adds `_meta.deadlineMs` / `_meta.progressToken` to by-name params, without touching the caller's
 * object. By-position params cannot carry `_meta`: the deadline is then enforced locally only.
 */
export function withMeta(params, timeoutMs, progressToken) {
  if (timeoutMs === undefined && progressToken === undefined) return params;
  const byName = params == null ? {} : params;
  if (typeof byName !== 'object' || Array.isArray(byName)) {
    if (progressToken !== undefined) throw new TypeError('onProgress needs params given by name (an object)');
    return params;
  }
  const meta = byName._meta !== null && typeof byName._meta === 'object' ? { ...byName._meta } : {};
  if (timeoutMs !== undefined) meta.deadlineMs = Math.ceil(timeoutMs);
  if (progressToken !== undefined) meta.progressToken = progressToken;
  return { ...byName, _meta: meta };
}

/**
 * The frame for `requests` (`{ call, json }` each), rendered when its turn to be written comes:
 * calls settled by then are left out, and a frame left with none is not written (null).
 */
export function renderRequests(requests, asBatch) {
  const live = requests.filter(({ call }) => !call.settled);
  if (live.length === 0) return null;
  return asBatch ? `[${live.map(({ json }) => json).join(',')}]\n` : `${live[0].json}\n`;
}

/** The error for a call cancelled by the client before the server answered it. */
export function cancelledLocally(method, requestId, signal) {
  return new RequestCancelledError(
    ErrorCode.Cancelled,
    `${method} was cancelled by the client`,
    { type: 'Cancelled', method, local: true },
    { requestId, method, cause: signal?.reason },
  );
}

/** The error for a call with no reply by its `timeoutMs` plus the client's margin. */
export function deadlineExceededLocally(method, requestId, timeoutMs, elapsedMs, unsent) {
  const why = unsent ? 'the server was not reading its input, so the request was never sent' : 'no reply from the server';
  return new DeadlineExceededError(
    ErrorCode.DeadlineExceeded,
    `${method} did not complete within ${timeoutMs} ms (${why})`,
    { type: 'DeadlineExceeded', method, deadlineMs: timeoutMs, elapsedMs, local: true },
    { requestId, method },
  );
}
