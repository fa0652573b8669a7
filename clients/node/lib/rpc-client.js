// A JSON-RPC 2.0 client over a pair of byte streams (NDJSON framing), as shop-rpc speaks it.
//
// Threading: none. Every member below is touched on the event loop only; stream callbacks, timers
// and abort listeners all run there, so no state needs a lock. Each call settles exactly once:
// every path (reply, local timeout, abort, lost connection) goes through `#settle`, which ignores
// all but the first. Frames go out through a `FrameWriter`, which waits for 'drain' when the server
// is not reading; a call settled while its request is still queued is never sent.

import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import {
  ConnectionLostError,
  DeadlineExceededError,
  ErrorCode,
  RequestCancelledError,
  errorFromReply,
} from './errors.js';
import { FrameWriter } from './frame-writer.js';
import { LineDecoder, encodeLine } from './line-framing.js';

/** Tuning, overridable per client. */
const DEFAULT_OPTIONS = Object.freeze({
  /** How long after `timeoutMs` the client stops waiting for the server's -32001 reply. */
  timeoutMarginMs: 500,
  /** How long after an abort the client waits for the server's -32800 reply before rejecting itself. */
  cancelGraceMs: 100,
  /** `close()`: how long to wait for a clean exit (or, attached, for calls in flight) after ending input. */
  closeTimeoutMs: 5000,
  /** `close()`: how long SIGTERM may take (the server's own grace is 2 s) before SIGKILL. */
  killGraceMs: 2500,
});

const STDERR_TAIL_CHARS = 8192;
const PROGRESS_NOTIFICATION = 'notifications/progress';
const CANCEL_NOTIFICATION = '$/cancelRequest';

/**
 * @typedef {object} CallOptions
 * @property {number} [timeoutMs] sent as `params._meta.deadlineMs` (the server cancels the work)
 *   and enforced locally too, `timeoutMarginMs` later, in case no reply comes.
 * @property {AbortSignal} [signal] aborting sends `$/cancelRequest` and rejects the call with
 *   `RequestCancelledError`; while the request still waits to be written, it is dropped instead.
 * @property {(progress: ProgressParams) => void} [onProgress] receives this call's
 *   `notifications/progress` params (a unique `_meta.progressToken` is sent). If it throws, the
 *   error is reported as a `'callbackError'` and the call carries on.
 */

/**
 * @typedef {object} ProgressParams
 * @property {string|number} progressToken
 * @property {number} progress
 * @property {number} [total]
 * @property {string} [message]
 */

/**
 * A JSON-RPC 2.0 client. Attach it to a server's streams (`{ readable, writable }`) or to a child
 * process spawned with piped stdin and stdout (`{ process }`).
 *
 * Events: `'notification'` (method, params) for every notification; `'progress'` (params) for
 * every `notifications/progress`; `'protocolError'` (error) for a line that is not JSON, a reply
 * nobody waits for, or an error reply with id `null`; `'stderr'` (text) for the child's stderr when
 * piped; `'close'` (ConnectionLostError) once, when the connection is gone; `'callbackError'`
 * (error, source) when an `onProgress` callback or a listener of the events above throws (without
 * a listener, it goes to `console.error`). A throwing callback never breaks a call or the
 * connection.
 *
 * Writes respect back-pressure: when the server's input reports itself full, later frames wait in
 * the client (see `queuedFrameCount`) until it drains, and go out whole and in order.
 */
export class RPCClient extends EventEmitter {
  #readable;
  #writable;
  /** Writes whole frames to `#writable` in order, waiting for 'drain'. */
  #writer;
  /** @type {import('node:child_process').ChildProcess | null} */
  #child = null;
  #options;
  #decoder = new LineDecoder();
  #nextId = 1;
  /** id → call awaiting its reply. */
  #pending = new Map();
  /** progress token → call. */
  #pendingByProgressToken = new Map();
  /** Ids settled locally (timeout, abort) whose server reply is still due; it is dropped silently. */
  #abandonedIds = new Set();
  /** Set once: after it, every call is rejected with it. */
  #lostError = null;
  #closing = null;
  #exitStatus = null;
  #childDone = null;
  #stderrTail = '';
  #idleWaiters = [];
  #listeners = [];

  /**
   * @param {{ readable?: NodeJS.ReadableStream, writable?: NodeJS.WritableStream,
   *   process?: import('node:child_process').ChildProcess, timeoutMarginMs?: number,
   *   cancelGraceMs?: number, closeTimeoutMs?: number, killGraceMs?: number }} options
   */
  constructor(options = {}) {
    super();
    const { readable, writable, process: child, ...tuning } = options;
    this.#options = { ...DEFAULT_OPTIONS };
    for (const [key, value] of Object.entries(tuning)) {
      if (!(key in DEFAULT_OPTIONS)) throw new TypeError(`unknown option ${key}`);
      if (value !== undefined) this.#options[key] = value;
    }
    this.#readable = child ? child.stdout : readable;
    this.#writable = child ? child.stdin : writable;
    if (!this.#readable || !this.#writable) {
      throw new TypeError('needs { readable, writable } streams or { process } with piped stdin and stdout');
    }
    this.#writer = new FrameWriter(this.#writable);
    this.#listen(this.#readable, 'data', (chunk) => this.#onData(chunk));
    this.#listen(this.#readable, 'end', () => this.#onReadableEnd());
    this.#listen(this.#writable, 'error', (error) => this.#onStreamError(error));
    if (child) {
      this.#child = child;
      this.#listen(this.#readable, 'error', () => {}); // the child's 'close' reports the loss
      this.#childDone = new Promise((resolve) => {
        child.once('close', (code, signal) => {
          this.#onChildExit(code, signal);
          resolve();
        });
        child.on('error', (error) => {
          if (child.pid !== undefined) return; // a failed kill(); the process is still ours
          this.#onChildExit(null, null, error);
          resolve();
        });
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text) => {
        this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_CHARS);
        this.#callUser('stderr', () => this.emit('stderr', text));
      });
    } else {
      this.#listen(this.#readable, 'error', (error) => this.#onStreamError(error));
      this.#listen(this.#readable, 'close', () => this.#onReadableEnd());
      this.#listen(this.#writable, 'close', () => this.#onWritableClose());
    }
  }

  // MARK: - Calls

  /**
   * Calls `method` and resolves with its result, or rejects with a typed `RPCError`, a
   * `ConnectionLostError`, or a local `DeadlineExceededError`/`RequestCancelledError`.
   * Settles exactly once. The reply is matched by id, never by order.
   * @param {string} method
   * @param {object|unknown[]} [params]
   * @param {CallOptions} [options]
   * @returns {Promise<any>}
   */
  call(method, params, options = {}) {
    return new Promise((resolve, reject) => {
      const started = this.#start(method, params, options, resolve, reject);
      if (started) this.#sendRequests([started], false);
    });
  }

  /**
   * Sends a notification (no reply, not even an error).
   * @param {string} method
   * @param {object|unknown[]} [params]
   * @throws {ConnectionLostError} when the client is closed or the server is gone
   */
  notify(method, params) {
    const unusable = this.#unusableError();
    if (unusable) throw unusable;
    this.#writer.enqueue(encodeLine(notificationMessage(method, params)));
  }

  /**
   * Sends the calls as one JSON array and resolves, in request order, with `{ result }` or
   * `{ error }` (a typed `RPCError`) for each. Rejects only when the connection is lost.
   * `options` apply to every call of the batch.
   * @param {{ method: string, params?: object|unknown[] }[]} calls
   * @param {CallOptions} [options]
   * @returns {Promise<({ result: any } | { error: Error })[]>}
   */
  async batch(calls, options = {}) {
    if (!Array.isArray(calls)) throw new TypeError('batch() takes an array of { method, params }');
    if (calls.length === 0) return [];
    const requests = [];
    const outcomes = calls.map((entry) =>
      new Promise((resolve, reject) => {
        const started = this.#start(entry?.method, entry?.params, options, resolve, reject);
        if (started) requests.push(started);
      }).then(
        (result) => ({ result }),
        (error) => ({ error }),
      ),
    );
    if (requests.length > 0) this.#sendRequests(requests, true);
    const settled = await Promise.all(outcomes);
    const lost = settled.find((outcome) => outcome.error instanceof ConnectionLostError);
    if (lost) throw lost.error;
    return settled;
  }

  // MARK: - Lifecycle

  /**
   * Ends the server's input and waits for it to finish: calls in flight are answered first (the
   * server lets them run to their deadline). A spawned server gets `closeTimeoutMs` to exit, then
   * SIGTERM, then SIGKILL; an attached client waits up to `closeTimeoutMs` for calls in flight and
   * then lets go of the streams. Idempotent: every call returns the same promise. Afterwards the
   * client holds no timer, listener or process that keeps the event loop alive.
   * @returns {Promise<{ code: number|null, signal: string|null }>} the exit status (spawned), or
   *   nulls (attached)
   */
  close() {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  /** The server's process id when the client spawned it. */
  get pid() {
    return this.#child?.pid;
  }

  /** The child process, when the client owns one. */
  get childProcess() {
    return this.#child;
  }

  /** `{ code, signal }` once the spawned server has exited, else `null`. */
  get exitStatus() {
    return this.#exitStatus && { ...this.#exitStatus };
  }

  /** Calls awaiting a reply (including those whose request is still queued). */
  get pendingCount() {
    return this.#pending.size;
  }

  /** Frames (requests, batches, notifications) waiting for the server's input to drain. */
  get queuedFrameCount() {
    return this.#writer.queuedCount;
  }

  // MARK: - Starting and settling calls

  /**
   * Validates, serialises and registers one call, or rejects it at once (returning null) when it
   * cannot be sent.
   */
  #start(method, params, options, resolve, reject) {
    const { timeoutMs, signal, onProgress } = options ?? {};
    let id;
    let progressToken;
    let json;
    try {
      validateCall(method, timeoutMs, onProgress);
      const unusable = this.#unusableError();
      if (unusable) throw unusable;
      id = this.#nextId++;
      if (signal?.aborted) throw cancelledLocally(method, id, signal);
      progressToken = onProgress ? `progress-${id}` : undefined;
      json = JSON.stringify(requestMessage(id, method, withMeta(params, timeoutMs, progressToken)));
    } catch (error) {
      reject(error);
      return null;
    }
    const call = {
      id,
      method,
      resolve,
      reject,
      timeoutMs,
      signal,
      onProgress,
      progressToken,
      startedAt: performance.now(),
      settled: false,
      timeoutTimer: null,
      cancelTimer: null,
      onAbort: null,
      /** The frame carrying the request; until it is sent, settling the call drops the request. */
      frame: null,
    };
    if (timeoutMs !== undefined) {
      call.timeoutTimer = setTimeout(() => this.#expire(call), timeoutMs + this.#options.timeoutMarginMs);
    }
    if (signal) {
      call.onAbort = () => this.#abort(call);
      signal.addEventListener('abort', call.onAbort, { once: true });
    }
    this.#pending.set(id, call);
    if (call.progressToken !== undefined) this.#pendingByProgressToken.set(call.progressToken, call);
    return { call, json };
  }

  /** The one place a call settles. Returns false when it had settled already. */
  #settle(call, error, result) {
    if (call.settled) return false;
    call.settled = true;
    clearTimeout(call.timeoutTimer);
    clearTimeout(call.cancelTimer);
    if (call.onAbort) call.signal.removeEventListener('abort', call.onAbort);
    this.#pending.delete(call.id);
    if (call.progressToken !== undefined) this.#pendingByProgressToken.delete(call.progressToken);
    if (error) call.reject(error);
    else call.resolve(result);
    if (this.#pending.size === 0) this.#wakeIdleWaiters();
    return true;
  }

  /**
   * No reply within `timeoutMs` + margin: reject locally and ask the server to drop the work, or,
   * when the request is still queued, drop it unsent.
   */
  #expire(call) {
    const unsent = isUnsent(call);
    const elapsedMs = Math.round(performance.now() - call.startedAt);
    const why = unsent ? 'the server was not reading its input, so the request was never sent' : 'no reply from the server';
    const error = new DeadlineExceededError(
      ErrorCode.DeadlineExceeded,
      `${call.method} did not complete within ${call.timeoutMs} ms (${why})`,
      { type: 'DeadlineExceeded', method: call.method, deadlineMs: call.timeoutMs, elapsedMs, local: true },
      { requestId: call.id, method: call.method },
    );
    if (unsent) this.#settle(call, error);
    else if (this.#settleLocally(call, error)) this.#sendCancel(call.id);
  }

  /**
   * The caller aborted: tell the server at once, then settle with the server's reply if it comes
   * within `cancelGraceMs` (normally its -32800), else with a local `RequestCancelledError`. A
   * request still queued is dropped instead, and the call rejects at once.
   */
  #abort(call) {
    if (call.settled) return;
    if (isUnsent(call)) {
      this.#settle(call, cancelledLocally(call.method, call.id, call.signal));
      return;
    }
    this.#sendCancel(call.id);
    const rejectLocally = () => this.#settleLocally(call, cancelledLocally(call.method, call.id, call.signal));
    if (this.#options.cancelGraceMs > 0) call.cancelTimer = setTimeout(rejectLocally, this.#options.cancelGraceMs);
    else rejectLocally();
  }

  /** Settles a call whose request was sent; the server's reply, when it comes, is dropped. */
  #settleLocally(call, error) {
    if (!this.#settle(call, error)) return false;
    this.#abandonedIds.add(call.id);
    return true;
  }

  #sendCancel(id) {
    if (this.#lostError) return;
    this.#writer.enqueue(encodeLine(notificationMessage(CANCEL_NOTIFICATION, { id })));
  }

  #unusableError() {
    if (this.#closing) return new ConnectionLostError('the client is closed');
    return this.#lostError;
  }

  // MARK: - Reading

  #onData(chunk) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (const line of this.#decoder.decode(bytes)) this.#onLine(line);
  }

  #onLine(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.#reportProtocolError(new Error(`the server sent a line that is not JSON: ${error.message}`, { cause: error }));
      return;
    }
    if (Array.isArray(message)) for (const element of message) this.#onMessage(element);
    else this.#onMessage(message);
  }

  #onMessage(message) {
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      this.#reportProtocolError(new Error(`the server sent a message that is not an object: ${JSON.stringify(message)}`));
    } else if (typeof message.method === 'string') {
      if ('id' in message) this.#onServerRequest(message);
      else this.#onNotification(message.method, message.params);
    } else if ('id' in message && ('result' in message || 'error' in message)) {
      this.#onReply(message);
    } else {
      this.#reportProtocolError(new Error(`the server sent a message that is neither reply nor notification`));
    }
  }

  #onReply(reply) {
    const call = this.#pending.get(reply.id);
    if (!call) {
      if (this.#abandonedIds.delete(reply.id)) return;
      const error =
        reply.error != null
          ? errorFromReply(reply.error, { requestId: reply.id })
          : new Error(`the server sent a reply for id ${JSON.stringify(reply.id)}, which no call awaits`);
      this.#reportProtocolError(error);
      return;
    }
    if (reply.error != null) this.#settle(call, errorFromReply(reply.error, { requestId: call.id, method: call.method }));
    else this.#settle(call, null, reply.result);
  }

  #onNotification(method, params) {
    this.#callUser('notification', () => this.emit('notification', method, params));
    if (method !== PROGRESS_NOTIFICATION) return;
    this.#callUser('progress', () => this.emit('progress', params));
    const call = this.#pendingByProgressToken.get(params?.progressToken);
    if (call) this.#callUser('onProgress', () => call.onProgress(params));
  }

  /** The server does not send requests; answer one anyway, as JSON-RPC requires. */
  #onServerRequest(request) {
    if (this.#lostError || this.#closing) return;
    this.#writer.enqueue(
      encodeLine({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: ErrorCode.MethodNotFound, message: `the client has no method ${request.method}` },
      }),
    );
  }

  /**
   * Runs a user callback (an event's listeners, an `onProgress`) so that its exception neither
   * abandons the rest of the chunk being read nor escapes as an uncaught exception: it is reported
   * as a `'callbackError'` (error, source), or on `console.error` when nobody listens for that.
   * @param {string} source the event's name, or `'onProgress'`
   */
  #callUser(source, callback) {
    try {
      callback();
    } catch (error) {
      this.#reportCallbackError(error, source);
    }
  }

  #reportCallbackError(error, source) {
    if (this.listenerCount('callbackError') > 0) {
      try {
        this.emit('callbackError', error, source);
        return;
      } catch (listenerError) {
        console.error("shop-rpc: a 'callbackError' listener threw", listenerError);
      }
    }
    console.error(`shop-rpc: ${describeSource(source)} threw; the client carries on`, error);
  }

  #reportProtocolError(error) {
    this.#callUser('protocolError', () => this.emit('protocolError', error));
  }

  // MARK: - Writing

  /** Queues one frame for the requests (a JSON array when `asBatch`); settled calls are left out. */
  #sendRequests(requests, asBatch) {
    const frame = this.#writer.enqueue(() => renderRequests(requests, asBatch));
    for (const { call } of requests) call.frame = frame;
  }

  // MARK: - Losing the connection

  #onReadableEnd() {
    for (const line of this.#decoder.end()) this.#onLine(line);
    if (!this.#child) this.#connectionLost(new ConnectionLostError("the server's output stream ended"));
    // A child's 'close' follows its stdout's end and reports the exit status.
  }

  /** Attached input closed: unless the client ended it after writing everything, nothing more can be sent. */
  #onWritableClose() {
    if (this.#writer.ended) return;
    this.#connectionLost(new ConnectionLostError("the server's input stream closed"));
  }

  #onStreamError(error) {
    if (this.#child) return; // EPIPE on a dead child's stdin: its 'close' reports the loss.
    this.#connectionLost(new ConnectionLostError(`the connection failed: ${error.message}`, { cause: error }));
  }

  #onChildExit(code, signal, spawnError) {
    this.#exitStatus = { code, signal };
    for (const line of this.#decoder.end()) this.#onLine(line);
    const how = spawnError
      ? `could not be started: ${spawnError.message}`
      : signal
        ? `was killed by ${signal}`
        : `exited with code ${code}`;
    this.#connectionLost(
      new ConnectionLostError(`the shop-rpc server ${how}`, {
        exitCode: code,
        signal,
        stderr: this.#stderrTail,
        cause: spawnError,
      }),
    );
  }

  /** Rejects every pending call with `error`, at once; later calls are rejected with it too. */
  #connectionLost(error) {
    if (this.#lostError) return;
    this.#lostError = error;
    for (const call of [...this.#pending.values()]) this.#settle(call, error);
    this.#writer.dispose();
    this.#abandonedIds.clear();
    this.#wakeIdleWaiters();
    this.#callUser('close', () => this.emit('close', error));
  }

  // MARK: - Closing

  async #shutDown() {
    this.#writer.end(); // after the frames still queued
    const { closeTimeoutMs, killGraceMs } = this.#options;
    if (this.#child) {
      if (!(await settlesWithin(this.#childDone, closeTimeoutMs))) {
        this.#child.kill('SIGTERM');
        if (!(await settlesWithin(this.#childDone, killGraceMs))) {
          this.#child.kill('SIGKILL');
          await this.#childDone;
        }
      }
      return { ...this.#exitStatus };
    }
    if (this.#pending.size > 0) await settlesWithin(this.#whenIdle(), closeTimeoutMs);
    this.#connectionLost(new ConnectionLostError('the client was closed before the server replied'));
    for (const [emitter, event, listener] of this.#listeners) emitter.removeListener(event, listener);
    this.#listeners = [];
    return { code: null, signal: null };
  }

  /** Resolves when no call is pending, or the connection is gone. */
  #whenIdle() {
    return new Promise((resolve) => {
      if (this.#pending.size === 0 || this.#lostError) resolve();
      else this.#idleWaiters.push(resolve);
    });
  }

  #wakeIdleWaiters() {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const wake of waiters) wake();
  }

  #listen(emitter, event, listener) {
    emitter.on(event, listener);
    this.#listeners.push([emitter, event, listener]);
  }
}

// MARK: - Helpers

/** True while the call's request waits in the queue: settling it then means it is never sent. */
function isUnsent(call) {
  return call.frame !== null && !call.frame.sent;
}

/** The frame for `requests`, rendered when its turn to be written comes: calls settled by then are left out. */
function renderRequests(requests, asBatch) {
  const live = requests.filter(({ call }) => !call.settled);
  if (live.length === 0) return null;
  return asBatch ? `[${live.map(({ json }) => json).join(',')}]\n` : `${live[0].json}\n`;
}

function describeSource(source) {
  return source === 'onProgress' ? 'an onProgress callback' : `a '${source}' listener`;
}

function validateCall(method, timeoutMs, onProgress) {
  if (typeof method !== 'string') throw new TypeError('method must be a string');
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new RangeError(`timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`);
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('onProgress must be a function');
}

function requestMessage(id, method, params) {
  return params == null ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

function notificationMessage(method, params) {
  return params == null ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/**
 * Adds `_meta.deadlineMs` / `_meta.progressToken` to by-name params, without touching the caller's
 * object. By-position params cannot carry `_meta`: the deadline is then enforced locally only.
 */
function withMeta(params, timeoutMs, progressToken) {
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

function cancelledLocally(method, requestId, signal) {
  return new RequestCancelledError(
    ErrorCode.Cancelled,
    `${method} was cancelled by the client`,
    { type: 'Cancelled', method, local: true },
    { requestId, method, cause: signal?.reason },
  );
}

/** True when `promise` settles within `ms`; the timer never outlives the wait. */
async function settlesWithin(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
