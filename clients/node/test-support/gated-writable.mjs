// A Writable that reports itself full on demand, for tests of the client's back-pressure.

import { Writable } from 'node:stream';

/**
 * Records every `write()` whole, as one string, and returns what a pipe with `room` writes of space
 * would: `true` while there is room, `false` from the write that uses up the last of it (which is
 * still accepted, as Node's streams do) and from every write after. It starts full;
 * `open(room)` makes room and emits `'drain'`. Not thread-safe: use it on the event loop only.
 */
export class GatedWritable extends Writable {
  /** Every chunk passed to `write()`, in order, as text. */
  writes = [];
  #room = 0;

  constructor() {
    super({ decodeStrings: false });
  }

  write(chunk, encoding, callback) {
    this.writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    if (typeof encoding === 'function') encoding();
    else if (typeof callback === 'function') callback();
    this.#room = Math.max(0, this.#room - 1);
    return this.#room > 0;
  }

  /**
   * Makes room for `room` more writes (the last of them returns false) and emits `'drain'`, as a
   * pipe that the reader emptied does.
   * @param {number} [room] default: unlimited
   */
  open(room = Infinity) {
    this.#room = room;
    this.emit('drain');
  }

  /** The messages written so far, each write parsed as one JSON text. */
  get messages() {
    return this.writes.map((text) => JSON.parse(text));
  }
}
