// An in-memory stand-in for the server's end of the pipes, for tests of the client's own logic.

import { PassThrough } from 'node:stream';
import { LineDecoder } from '../lib/line-framing.js';

/**
 * Two PassThrough streams: the client writes requests into `toServer` and reads replies from
 * `fromServer`. `nextMessage()` resolves with the next message the client sent (parsed);
 * `send(text)` writes raw text to the client.
 */
export class FakeServer {
  toServer = new PassThrough();
  fromServer = new PassThrough();
  #decoder = new LineDecoder();
  #received = [];
  #waiters = [];

  constructor() {
    this.toServer.on('data', (chunk) => {
      for (const line of this.#decoder.decode(chunk)) {
        const message = JSON.parse(line);
        const waiter = this.#waiters.shift();
        if (waiter) waiter(message);
        else this.#received.push(message);
      }
    });
  }

  /** The streams as `new ShopClient(...)` takes them. */
  get clientStreams() {
    return { readable: this.fromServer, writable: this.toServer };
  }

  /** @returns {Promise<any>} the next message the client wrote */
  nextMessage() {
    if (this.#received.length > 0) return Promise.resolve(this.#received.shift());
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Writes one message as one line. */
  reply(message) {
    this.fromServer.write(`${JSON.stringify(message)}\n`);
  }

  /** Ends the server's output, as an exiting server would. */
  end() {
    this.fromServer.end();
  }
}
