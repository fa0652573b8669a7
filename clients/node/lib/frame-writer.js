// Writing whole frames to the server's input, in order, without outrunning it.

/**
 * @typedef {object} Frame
 * @property {string | (() => string | null)} line the frame's text (one `\n`-terminated line), or
 *   a function that renders it when its turn comes and may return null to drop it
 * @property {boolean} sent true once the frame has left the queue (handed to `write()`, or dropped)
 */

/**
 * Writes frames to a Writable in the order they are queued, each with one `write()` call, and
 * respects back-pressure: once `write()` returns false, later frames wait in the queue until the
 * stream emits `'drain'`. The Writable therefore never holds more than its high-water mark plus
 * one frame; the rest waits here, where a frame can still be dropped before it is sent.
 *
 * Threading: none; every member is used on the event loop only.
 */
export class FrameWriter {
  #writable;
  /** Frames not yet written; `#queue[#head]` is the next. */
  #queue = [];
  #head = 0;
  #waitingForDrain = false;
  #flushing = false;
  /** `end()` was asked for: the Writable is ended once the queue is empty. */
  #endRequested = false;
  /** This writer ended the Writable, after writing the whole queue. */
  #ended = false;
  #disposed = false;
  #onDrain = () => {
    this.#waitingForDrain = false;
    this.#flush();
  };

  /** @param {NodeJS.WritableStream} writable */
  constructor(writable) {
    this.#writable = writable;
    writable.on('drain', this.#onDrain);
  }

  /**
   * Queues a frame and writes as much of the queue as the stream takes now. After `end()` has
   * ended the stream, or after `dispose()`, the frame is dropped (and never marked sent).
   * @param {string | (() => string | null)} line
   * @returns {Frame}
   */
  enqueue(line) {
    const frame = { line, sent: false };
    if (this.#ended || this.#disposed) return frame;
    this.#queue.push(frame);
    this.#flush();
    return frame;
  }

  /** Frames waiting for the stream to drain. */
  get queuedCount() {
    return this.#queue.length - this.#head;
  }

  /** True once this writer has ended the stream (every queued frame was written first). */
  get ended() {
    return this.#ended;
  }

  /** Ends the stream once every queued frame is written (at once after `dispose()`). Idempotent. */
  end() {
    this.#endRequested = true;
    if (!this.#disposed) {
      this.#flush();
      return;
    }
    const writable = this.#writable;
    if (!writable.destroyed && !writable.writableEnded) writable.end();
  }

  /** Drops every queued frame, stops listening to the stream, and drops every later frame. */
  dispose() {
    this.#disposed = true;
    this.#queue = [];
    this.#head = 0;
    this.#writable.removeListener('drain', this.#onDrain);
  }

  // MARK: - Flushing

  #flush() {
    // Node emits 'drain' after write() returns, never from inside it, so the loop is not re-entered.
    if (this.#flushing || this.#ended || this.#disposed) return;
    this.#flushing = true;
    try {
      const writable = this.#writable;
      while (!this.#waitingForDrain && this.queuedCount > 0) {
        if (writable.destroyed || writable.writableEnded) return; // its 'error' or 'close' reports the loss
        const frame = this.#dequeue();
        frame.sent = true;
        const text = typeof frame.line === 'function' ? frame.line() : frame.line;
        if (text != null && !writable.write(text)) this.#waitingForDrain = true;
      }
      if (this.#endRequested && this.queuedCount === 0) {
        this.#ended = true;
        if (!writable.destroyed && !writable.writableEnded) writable.end();
      }
    } finally {
      this.#flushing = false;
    }
  }

  #dequeue() {
    const frame = this.#queue[this.#head];
    this.#queue[this.#head] = undefined;
    this.#head += 1;
    if (this.#head >= 1024 && this.#head * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    return frame;
  }
}
