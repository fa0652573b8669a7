// A JSON-RPC 2.0 client over a pair of byte streams (NDJSON framing), as shop-rpc speaks it.
//
// The pieces, one file each: wire-messages.js (what is written), pending-call.js (one call until it
// settles), call-table.js (the calls awaiting replies), message-router.js (what is read),
// frame-writer.js (writing under back-pressure), server-process.js (a spawned server). This file
// joins them: the public API, the events, and losing and closing the connection.
//
// Threading: none. Every member is touched on the event loop only; stream callbacks, timers and abort
// listeners all run there, so no state needs a lock. Each call settles exactly once: every path
// (reply, local timeout, abort, lost connection) goes through `#settle`, which ignores all but the
// first. A call settled while its request is still queued is never sent.

import { EventEmitter } from 'node:events';
import { ConnectionLostError } from './errors.js';
import { CallTable } from './call-table.js';
import { FrameWriter } from './frame-writer.js';
import { LineDecoder, encodeLine } from './line-framing.js';
import { MessageRouter } from './message-router.js';
import { PendingCall } from './pending-call.js';
import { ServerProcess, settlesWithin } from './server-process.js';
import {
  PROGRESS_NOTIFICATION,
  cancelMessage,
  notificationMessage,
  refusalOfServerRequest,
  renderRequests,
  requestMessage,
  validateCall,
  withMeta,
} from './wire-messages.js';

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
  /** @type {ServerProcess | null} */
  #server = null;
  #options;
  #decoder = new LineDecoder();
  #calls = new CallTable();
  #router;
  /** Set once: after it, every call is rejected with it. */
  #lostError = null;
  #closing = null;
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
    this.#router = new MessageRouter(this.#calls, {
      onReply: (call, error, result) => this.#settle(call, error, result),
      onNotification: (method, params) => this.#onNotification(method, params),
      onServerRequest: (request) => this.#onServerRequest(request),
      onProtocolError: (error) => this.#callUser('protocolError', () => this.emit('protocolError', error)),
    });
    this.#listen(this.#readable, 'data', (chunk) => this.#onData(chunk));
    this.#listen(this.#readable, 'end', () => this.#onReadableEnd());
    this.#listen(this.#writable, 'error', (error) => this.#onStreamError(error));
    if (child) {
      this.#listen(this.#readable, 'error', () => {}); // the child's 'close' reports the loss
      this.#server = new ServerProcess(child, {
        onExit: (code, signal, spawnError) => this.#onServerExit(code, signal, spawnError),
        onStderr: (text) => this.#callUser('stderr', () => this.emit('stderr', text)),
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
    return this.#server?.pid;
  }

  /** The child process, when the client owns one. */
  get childProcess() {
    return this.#server?.child ?? null;
  }

  /** `{ code, signal }` once the spawned server has exited, else `null`. */
  get exitStatus() {
    return this.#server?.exitStatus ?? null;
  }

  /** Calls awaiting a reply (including those whose request is still queued). */
  get pendingCount() {
    return this.#calls.size;
  }

  /** Frames (requests, batches, notifications) waiting for the server's input to drain. */
  get queuedFrameCount() {
    return this.#writer.queuedCount;
  }

  // MARK: - Starting and settling calls

  /**
   * Validates, serialises and registers one call, or rejects it at once (returning null) when it
   * cannot be sent.
   * @returns {{ call: PendingCall, json: string } | null}
   */
  #start(method, params, options, resolve, reject) {
    let call;
    let json;
    try {
      const { timeoutMs, signal, onProgress } = options ?? {};
      validateCall(method, timeoutMs, onProgress);
      const unusable = this.#unusableError();
      if (unusable) throw unusable;
      call = new PendingCall(this.#calls.nextId(), method, { timeoutMs, signal, onProgress }, resolve, reject);
      if (signal?.aborted) throw call.cancelledError();
      json = JSON.stringify(requestMessage(call.id, method, withMeta(params, timeoutMs, call.progressToken)));
    } catch (error) {
      reject(error);
      return null;
    }
    call.armDeadline(this.#options.timeoutMarginMs, (expired) => this.#expire(expired));
    call.listenForAbort((aborted) => this.#abort(aborted));
    this.#calls.add(call);
    return { call, json };
  }

  /** The one place a call settles. Returns false when it had settled already. */
  #settle(call, error, result) {
    if (!call.settle(error, result)) return false;
    this.#calls.remove(call);
    return true;
  }

  /**
   * No reply within `timeoutMs` + margin: reject locally and ask the server to drop the work, or,
   * when the request is still queued, drop it unsent.
   */
  #expire(call) {
    const error = call.deadlineError();
    if (call.unsent) this.#settle(call, error);
    else if (this.#settleLocally(call, error)) this.#sendCancel(call.id);
  }

  /**
   * The caller aborted: tell the server at once, then settle with the server's reply if it comes
   * within `cancelGraceMs` (normally its -32800), else with a local `RequestCancelledError`. A
   * request still queued is dropped instead, and the call rejects at once.
   */
  #abort(call) {
    if (call.settled) return;
    if (call.unsent) {
      this.#settle(call, call.cancelledError());
      return;
    }
    this.#sendCancel(call.id);
    const rejectLocally = () => this.#settleLocally(call, call.cancelledError());
    if (this.#options.cancelGraceMs > 0) call.after(this.#options.cancelGraceMs, rejectLocally);
    else rejectLocally();
  }

  /** Settles a call whose request was sent; the server's reply, when it comes, is dropped. */
  #settleLocally(call, error) {
    if (!this.#settle(call, error)) return false;
    this.#calls.abandon(call.id);
    return true;
  }

  #sendCancel(id) {
    if (this.#lostError) return;
    this.#writer.enqueue(encodeLine(cancelMessage(id)));
  }

  #unusableError() {
    if (this.#closing) return new ConnectionLostError('the client is closed');
    return this.#lostError;
  }

  // MARK: - Reading

  #onData(chunk) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (const line of this.#decoder.decode(bytes)) this.#router.route(line);
  }

  #onNotification(method, params) {
    this.#callUser('notification', () => this.emit('notification', method, params));
    if (method !== PROGRESS_NOTIFICATION) return;
    this.#callUser('progress', () => this.emit('progress', params));
    const call = this.#calls.forProgressToken(params?.progressToken);
    if (call) this.#callUser('onProgress', () => call.onProgress(params));
  }

  /** The server does not send requests; answer one anyway, as JSON-RPC requires. */
  #onServerRequest(request) {
    if (this.#lostError || this.#closing) return;
    this.#writer.enqueue(encodeLine(refusalOfServerRequest(request)));
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
    const what = source === 'onProgress' ? 'an onProgress callback' : `a '${source}' listener`;
    console.error(`shop-rpc: ${what} threw; the client carries on`, error);
  }

  // MARK: - Writing

  /** Queues one frame for the requests (a JSON array when `asBatch`); settled calls are left out. */
  #sendRequests(requests, asBatch) {
    const frame = this.#writer.enqueue(() => renderRequests(requests, asBatch));
    for (const { call } of requests) call.frame = frame;
  }

  // MARK: - Losing the connection

  #onReadableEnd() {
    this.#routeLastLine();
    if (!this.#server) this.#connectionLost(new ConnectionLostError("the server's output stream ended"));
    // A child's 'close' follows its stdout's end and reports the exit status.
  }

  /** Attached input closed: unless the client ended it after writing everything, nothing more can be sent. */
  #onWritableClose() {
    if (this.#writer.ended) return;
    this.#connectionLost(new ConnectionLostError("the server's input stream closed"));
  }

  #onStreamError(error) {
    if (this.#server) return; // EPIPE on a dead child's stdin: its 'close' reports the loss.
    this.#connectionLost(new ConnectionLostError(`the connection failed: ${error.message}`, { cause: error }));
  }

  #onServerExit(code, signal, spawnError) {
    this.#routeLastLine();
    const how = spawnError
      ? `could not be started: ${spawnError.message}`
      : signal
        ? `was killed by ${signal}`
        : `exited with code ${code}`;
    this.#connectionLost(
      new ConnectionLostError(`the shop-rpc server ${how}`, {
        exitCode: code,
        signal,
        stderr: this.#server.stderrTail,
        cause: spawnError,
      }),
    );
  }

  /** The output ended: its last line may lack its `\n`. */
  #routeLastLine() {
    for (const line of this.#decoder.end()) this.#router.route(line);
  }

  /** Rejects every pending call with `error`, at once; later calls are rejected with it too. */
  #connectionLost(error) {
    if (this.#lostError) return;
    this.#lostError = error;
    for (const call of this.#calls.calls()) this.#settle(call, error);
    this.#writer.dispose();
    this.#calls.forgetAbandoned();
    this.#calls.wakeIdleWaiters();
    this.#callUser('close', () => this.emit('close', error));
  }

  // MARK: - Closing

  async #shutDown() {
    this.#writer.end(); // after the frames still queued
    const { closeTimeoutMs, killGraceMs } = this.#options;
    if (this.#server) return this.#server.stop({ closeTimeoutMs, killGraceMs });
    if (this.#calls.size > 0 && !this.#lostError) await settlesWithin(this.#calls.whenIdle(), closeTimeoutMs);
    this.#connectionLost(new ConnectionLostError('the client was closed before the server replied'));
    for (const [emitter, event, listener] of this.#listeners) emitter.removeListener(event, listener);
    this.#listeners = [];
    return { code: null, signal: null };
  }

  #listen(emitter, event, listener) {
    emitter.on(event, listener);
    this.#listeners.push([emitter, event, listener]);
  }
}
