// Every vector of clients/test-vectors.json, against the real binary (see the file's "about").

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  CartEmptyError,
  DeadlineExceededError,
  IdempotencyConflictError,
  InternalError,
  InvalidParamsError,
  InvalidQuantityError,
  InvalidRequestError,
  MethodNotFoundError,
  MethodNotAllowedError,
  NotFoundError,
  OutOfStockError,
  ParseError,
  RequestCancelledError,
  RPCError,
  ShopError,
  ShuttingDownError,
  StockMismatchError,
  CartFullError,
  StockOutOfRangeError,
} from '../index.js';
import { startServer } from '../test-support/real-server.mjs';

const { vectors } = JSON.parse(readFileSync(new URL('../../test-vectors.json', import.meta.url), 'utf8'));

/** The exception class each `data.type` must surface as in this shim. */
const CLASS_BY_TYPE = {
  ParseError,
  InvalidRequest: InvalidRequestError,
  MethodNotFound: MethodNotFoundError,
  MethodNotAllowed: MethodNotAllowedError,
  InvalidParams: InvalidParamsError,
  InternalError,
  DeadlineExceeded: DeadlineExceededError,
  ShuttingDown: ShuttingDownError,
  Cancelled: RequestCancelledError,
  NotFound: NotFoundError,
  OutOfStock: OutOfStockError,
  InvalidQuantity: InvalidQuantityError,
  CartEmpty: CartEmptyError,
  IdempotencyConflict: IdempotencyConflictError,
  StockOutOfRange: StockOutOfRangeError,
  StockMismatch: StockMismatchError,
  CartFull: CartFullError,
};

async function runVector(client, vector) {
  const call = client.call(vector.method, vector.params ?? undefined);
  const { expect } = vector;
  if ('error' in expect) {
    await assert.rejects(call, (error) => {
      assert.ok(error instanceof RPCError, `expected an RPCError, got ${error}`);
      assert.equal(error.code, expect.error.code);
      assert.equal(error.type, expect.error.type);
      const ErrorClass = CLASS_BY_TYPE[expect.error.type] ?? (expect.error.code >= 1000 ? ShopError : RPCError);
      assert.ok(error instanceof ErrorClass, `expected ${ErrorClass.name}, got ${error.constructor.name}: ${error.message}`);
      if (expect.error.message !== undefined) assert.equal(error.message, expect.error.message);
      return true;
    });
    return;
  }
  const result = await call;
  if ('result' in expect) {
    assert.deepEqual(result, expect.result);
  } else {
    assert.ok(result !== null && typeof result === 'object' && !Array.isArray(result), `result is an object: ${JSON.stringify(result)}`);
    for (const key of expect.resultKeys) assert.ok(key in result, `result has "${key}": ${JSON.stringify(result)}`);
  }
}

describe('test vectors (clients/test-vectors.json)', () => {
  let shared;

  before(() => {
    shared = startServer();
  });

  after(async () => {
    const status = await shared?.close();
    assert.deepEqual(status, { code: 0, signal: null });
  });

  for (const vector of vectors) {
    test(vector.name, async () => {
      if (!vector.serverArgs) {
        await runVector(shared, vector);
        return;
      }
      const own = startServer(vector.serverArgs);
      try {
        await runVector(own, vector);
      } finally {
        await own.close();
      }
    });
  }
});
