// The calls of one client that await their reply.

/**
 * Pending calls by id and by progress token, the ids of calls settled locally (timeout, abort)
 * whose reply is still due and will be dropped, and waiters for the moment none is pending.
 *
 * Threading: none; used on the event loop only.
 */
export class CallTable {
  #nextId = 1;
  /** @type {Map<number, import('./pending-call.js').PendingCall>} */
  #byId = new Map();
  #byProgressToken = new Map();
  #abandonedIds = new Set();
  #idleWaiters = [];

  /** The id for the next call. */
  nextId() {
    return this.#nextId++;
  }

  get size() {
    return this.#byId.size;
  }

  add(call) {
    this.#byId.set(call.id, call);
    if (call.progressToken !== undefined) this.#byProgressToken.set(call.progressToken, call);
  }

  get(id) {
    return this.#byId.get(id);
  }

  forProgressToken(token) {
    return this.#byProgressToken.get(token);
  }

  /** Removes a settled call; wakes the idle waiters when it was the last. */
  remove(call) {
    this.#byId.delete(call.id);
    if (call.progressToken !== undefined) this.#byProgressToken.delete(call.progressToken);
    if (this.#byId.size === 0) this.wakeIdleWaiters();
  }

  /** Every pending call, as a list that later changes do not touch. */
  calls() {
    return [...this.#byId.values()];
  }

  /** A call with this id was settled locally: its reply, when it comes, is dropped. */
  abandon(id) {
    this.#abandonedIds.add(id);
  }

  /** True (once) when a reply with this id belongs to a call settled locally. */
  takeAbandoned(id) {
    return this.#abandonedIds.delete(id);
  }

  forgetAbandoned() {
    this.#abandonedIds.clear();
  }

  /** Resolves when no call is pending, or when `wakeIdleWaiters()` is called (the connection is gone). */
  whenIdle() {
    return new Promise((resolve) => {
      if (this.#byId.size === 0) resolve();
      else this.#idleWaiters.push(resolve);
    });
  }

  wakeIdleWaiters() {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
