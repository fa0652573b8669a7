// Routing what the server sends, line by line.

import { errorFromReply } from './errors.js';

/**
 * @typedef {object} RouteHandlers
 * @property {(call: import('./pending-call.js').PendingCall, error: Error | null, result?: any) => void} onReply
 *   a reply for a pending call: its typed error, or its result
 * @property {(method: string, params: unknown) => void} onNotification
 * @property {(request: object) => void} onServerRequest a request from the server (the protocol has none)
 * @property {(error: Error) => void} onProtocolError a line that is not JSON, a message that is
 *   neither reply nor notification, a reply nobody waits for, or an error reply with id null
 */

/**
 * Parses each line and hands each message (each element of a batch reply) to one handler. Replies
 * are matched to their call by id, never by order; a reply for a call settled locally is dropped.
 * Threading: none; used on the event loop only.
 */
export class MessageRouter {
  #calls;
  #handlers;

  /**
   * @param {import('./call-table.js').CallTable} calls
   * @param {RouteHandlers} handlers
   */
  constructor(calls, handlers) {
    this.#calls = calls;
    this.#handlers = handlers;
  }

  /** @param {string} line one NDJSON line */
  route(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.#handlers.onProtocolError(new Error(`the server sent a line that is not JSON: ${error.message}`, { cause: error }));
      return;
    }
    if (Array.isArray(message)) for (const element of message) this.#routeMessage(element);
    else this.#routeMessage(message);
  }

  #routeMessage(message) {
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      this.#handlers.onProtocolError(new Error(`the server sent a message that is not an object: ${JSON.stringify(message)}`));
    } else if (typeof message.method === 'string') {
      if ('id' in message) this.#handlers.onServerRequest(message);
      else this.#handlers.onNotification(message.method, message.params);
    } else if ('id' in message && ('result' in message || 'error' in message)) {
      this.#routeReply(message);
    } else {
      this.#handlers.onProtocolError(new Error('the server sent a message that is neither reply nor notification'));
    }
  }

  #routeReply(reply) {
    const call = this.#calls.get(reply.id);
    if (call) {
      if (reply.error != null) this.#handlers.onReply(call, errorFromReply(reply.error, { requestId: call.id, method: call.method }));
      else this.#handlers.onReply(call, null, reply.result);
      return;
    }
    if (this.#calls.takeAbandoned(reply.id)) return;
    this.#handlers.onProtocolError(
      reply.error != null
        ? errorFromReply(reply.error, { requestId: reply.id })
        : new Error(`the server sent a reply for id ${JSON.stringify(reply.id)}, which no call awaits`),
    );
  }
}
