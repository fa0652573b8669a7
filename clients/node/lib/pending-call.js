// One call awaiting its reply.

import { performance } from 'node:perf_hooks';
import { cancelledLocally, deadlineExceededLocally } from './wire-messages.js';

/**
 * A call from the moment it is registered until it settles: its promise's `resolve`/`reject`, its
 * local deadline timer, its abort listener, and the frame carrying its request.
 *
 * Settles exactly once: `settle()` does it and returns false every later time; it also clears the
 * timers and the abort listener, so nothing of a settled call keeps the event loop alive.
 * Threading: none; used on the event loop only.
 */
export class PendingCall {
  /** @type {import('./frame-writer.js').Frame | null} the frame carrying the request; null until queued */
  frame = null;
  settled = false;
  #resolve;
  #reject;
  #timeoutTimer = null;
  #cancelTimer = null;
  #onAbort = null;

  /**
   * @param {number} id
   * @param {string} method
   * @param {{ timeoutMs?: number, signal?: AbortSignal, onProgress?: Function }} options
   * @param {(result: any) => void} resolve
   * @param {(error: Error) => void} reject
   */
  constructor(id, method, { timeoutMs, signal, onProgress }, resolve, reject) {
    this.id = id;
    this.method = method;
    this.timeoutMs = timeoutMs;
    this.signal = signal;
    this.onProgress = onProgress;
    this.progressToken = onProgress ? `progress-${id}` : undefined;
    this.startedAt = timeoutMs === undefined ? 0 : performance.now();
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** True while the request waits in the writer's queue: settling the call then means it is never sent. */
  get unsent() {
    return this.frame !== null && !this.frame.sent;
  }

  /** Calls `onExpired(this)` once `timeoutMs` + `marginMs` pass (when the call has a `timeoutMs`). */
  armDeadline(marginMs, onExpired) {
    if (this.timeoutMs !== undefined) this.#timeoutTimer = setTimeout(onExpired, this.timeoutMs + marginMs, this);
  }

  /** Calls `onAbort(this)` when the call's signal aborts (when it has one). */
  listenForAbort(onAbort) {
    if (!this.signal) return;
    this.#onAbort = () => onAbort(this);
    this.signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Runs `action` after `ms` unless the call settles first. */
  after(ms, action) {
    this.#cancelTimer = setTimeout(action, ms);
  }

  /** Resolves (no `error`) or rejects the call's promise. Returns false when it had settled already. */
  settle(error, result) {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.#timeoutTimer);
    clearTimeout(this.#cancelTimer);
    if (this.#onAbort) this.signal.removeEventListener('abort', this.#onAbort);
    if (error) this.#reject(error);
    else this.#resolve(result);
    return true;
  }

  /** The `DeadlineExceededError` (with `local: true`) for this call, now. */
  deadlineError() {
    const elapsedMs = Math.round(performance.now() - this.startedAt);
    return deadlineExceededLocally(this.method, this.id, this.timeoutMs, elapsedMs, this.unsent);
  }

  /** The `RequestCancelledError` (with `local: true`) for this call. */
  cancelledError() {
    return cancelledLocally(this.method, this.id, this.signal);
  }
}
